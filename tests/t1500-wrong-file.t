#!/bin/sh
# A file XLA writes beside a dump, passed where the dump is expected:
# memory-usage reports (real ones from the corpus), HLO text, the split
# dump's -buffer-assignment-values.txt and -live-range.txt companions.
# Each exits 2 with one line saying what the file is and which file to
# pass, before any parser message.
. "$(dirname "$0")/lib.sh"

need_hlodiff
D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
MU=$HD_SRCDIR/tests/not-dumps/cpu-convert_element_type-0009-memory-usage-report.txt

# wrong DESC EXPECTED-LINE ARGS...: exit 2, empty stdout, stderr is
# exactly EXPECTED-LINE.
wrong() {
	_d=$1
	_e=$2
	shift 2
	run_hlodiff 2 "$_d: exit 2" "$@" || return
	printf '%s\n' "$_e" >"$T/want"
	if [ -s "$T/out" ]; then
		fail "$_d: the message"
		diag "stdout is not empty"
	elif cmp -s "$T/want" "$T/err"; then
		pass "$_d: the message"
	else
		fail "$_d: the message"
		diag "expected: $_e"
		diag "got:"
		diag_file "$T/err"
	fi
}

# The bundled report is XLA's table format: its first line is the total,
# its second non-empty line the table's title (read here with awk).
ok_cmd "the bundled report is a memory-usage report" sh -c \
	"awk 'NF { n++; print; if (n == 2) exit }' '$MU' | tr '\n' '|' | grep -qx 'Total bytes used: 8 (8B)|Allocations sorted by size:|'"

want_mu="hlodiff: $MU: this is XLA's memory-usage report; pass the matching $HD_SRCDIR/tests/not-dumps/cpu-convert_element_type-0009-buffer-assignment.txt"
wrong "stat of a memory-usage report" "$want_mu" stat "$MU"
wrong "OLD is a memory-usage report" "$want_mu" "$MU" "$D/seed-000.txt"
wrong "NEW is a memory-usage report" "$want_mu" "$D/seed-000.txt" "$MU"
wrong "golden update of a memory-usage report" "$want_mu" golden update "$T/g" "$MU"
gzip -c "$MU" >"$T/r.gz"
wrong "a gzipped memory-usage report" \
	"hlodiff: $T/r.gz: this is XLA's memory-usage report; pass the module's *-buffer-assignment.txt (XLA writes it beside this file with --xla_dump_to)" \
	stat "$T/r.gz"
wrong "a memory-usage report on standard input" \
	"hlodiff: <stdin>: this is XLA's memory-usage report; pass the module's *-buffer-assignment.txt (XLA writes it beside this file with --xla_dump_to)" \
	stat - <"$MU"

# HLO text: the matching dump is named when it is there.
H=$T/module_0021.jit__truncated_normal.cpu_after_optimizations.txt
printf 'HloModule jit__truncated_normal, entry_computation_layout={(u32[2]{0})->f32[3]{0}}\n\nENTRY %%main.5 {\n}\n' >"$H"
wrong "HLO text, no dump beside it" \
	"hlodiff: $H: this is an HLO module in text (HloModule ...); pass the module's *-buffer-assignment.txt (XLA writes it beside this file with --xla_dump_to)" \
	stat "$H"
cp "$D/seed-001.txt" "$T/module_0021.jit__truncated_normal.cpu_after_optimizations-buffer-assignment.txt"
wrong "HLO text with its dump beside it" \
	"hlodiff: $H: this is an HLO module in text (HloModule ...); pass the matching $T/module_0021.jit__truncated_normal.cpu_after_optimizations-buffer-assignment.txt" \
	stat "$H"

# The split dump's companions (FORMAT.md G2): values and live ranges.
V=$T/module_0003.jit_f.after_optimizations-buffer-assignment-values.txt
printf 'Total bytes used: 8 (8B)\n\nUsed values:\n<0 p @0>\n from instruction: p = f32[2]{0} parameter(0)\n' >"$V"
wrong "the -buffer-assignment-values.txt companion" \
	"hlodiff: $V: this is the -buffer-assignment-values.txt companion of a split dump; pass the matching $T/module_0003.jit_f.after_optimizations-buffer-assignment.txt (its companions are read with it)" \
	stat "$V"
L=$T/module_0003.jit_f.after_optimizations-live-range.txt
printf 'HloLiveRange not available (finalized or constructed from proto)\n' >"$L"
wrong "the -live-range.txt companion (not available)" \
	"hlodiff: $L: this is the -live-range.txt companion of a split dump; pass the matching $T/module_0003.jit_f.after_optimizations-buffer-assignment.txt (its companions are read with it)" \
	stat "$L"
printf '\nHloLiveRange (max 2):\n  InstructionSequence:\n    0:p\n    1:q\n' >"$L"
wrong "the -live-range.txt companion (after an empty line)" \
	"hlodiff: $L: this is the -live-range.txt companion of a split dump; pass the matching $T/module_0003.jit_f.after_optimizations-buffer-assignment.txt (its companions are read with it)" \
	"$D/seed-000.txt" "$L"

# A dump is still a dump, and a file of no known kind keeps the parser's
# message.
run_hlodiff 0 "a dump is read as before" stat "$D/seed-000.txt"
printf 'Memory usage of nothing\n' >"$T/other.txt"
run_hlodiff 2 "an unknown file: exit 2" stat "$T/other.txt"
ok_cmd "an unknown file: the parser's message" sh -c "! grep -q 'this is' '$T/err'"

# Every memory-usage report of the corpus (file names say which), in all
# three of XLA's layouts present there.
if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS/memory-usage-reports" ]; then
	n=0 bad=0
	for f in "$HD_CORPUS"/memory-usage-reports/*; do
		n=$((n + 1))
		"$HLODIFF" stat "$f" >/dev/null 2>"$T/e"
		st=$?
		if [ $st -ne 2 ] || ! grep -q "^hlodiff: $f: this is XLA's memory-usage report; pass the " "$T/e" ||
			[ "$(wc -l <"$T/e")" -ne 1 ]; then
			bad=$((bad + 1))
			diag "$f: exit $st: $(head -n 1 "$T/e")"
		fi
	done
	ok_cmd "all $n corpus memory-usage reports are named as such" test "$n" -ge 50 -a "$bad" -eq 0
	n=0 bad=0
	for f in $(corpus_dumps); do
		n=$((n + 1))
		if "$HLODIFF" stat "$f" >/dev/null 2>"$T/e" || [ $? -ne 2 ]; then :; fi
		if grep -q ': this is ' "$T/e"; then
			bad=$((bad + 1))
			diag "$f: $(head -n 1 "$T/e")"
		fi
	done
	ok_cmd "none of the $n corpus dumps is taken for another file" test "$n" -ge 100 -a "$bad" -eq 0
else
	skip "no corpus (HD_CORPUS unset)"
	skip "no corpus (HD_CORPUS unset)"
fi

done_testing
