#!/bin/sh
# The rules end to end: rules-file errors with their position, caret and
# suggestion (golden stderr), the text and JSON reports (golden), exit
# statuses, and real corpus pairs.
#
# The evaluation runs through the unit-test driver (test_rules --eval /
# --load), which calls the same API main.c calls, so these checks do not
# depend on main.c.  The checks of hlodiff's own --rules and --werror
# options run when `hlodiff --help` mentions --rules and are skipped
# otherwise.
. "$(dirname "$0")/lib.sh"

T=$HD_BUILD/tests/test_rules
[ -x "$T" ] || skip_all "$T not built (run make tests)"
cd "$HD_SRCDIR" || bail "cannot cd to $HD_SRCDIR"
R=tests/rules
G=golden/rules
SYN_OLD=$R/synth-old.txt
SYN_NEW=$R/synth-new.txt

# drive STATUS DESC ARGS...: run the driver, stdout/stderr to out/err,
# pass when it exits STATUS (never on a crash or a sanitizer report).
drive() {
	_want=$1
	_desc=$2
	shift 2
	"$T" "$@" >"$TMPDIR_T/out" 2>"$TMPDIR_T/err"
	_st=$?
	if [ "$_st" -ge 128 ]; then
		_why="crashed (exit status $_st)"
	elif grep -q -e 'AddressSanitizer' -e 'LeakSanitizer' \
		-e 'runtime error:' "$TMPDIR_T/err"; then
		_why="sanitizer report on stderr"
	elif [ "$_st" -ne "$_want" ]; then
		_why="exit status $_st, wanted $_want"
	else
		pass "$_desc"
		return 0
	fi
	fail "$_desc"
	diag "$_why: test_rules $*"
	diag_file "$TMPDIR_T/err" 30
	return 1
}

# has FILE TEXT DESC: FILE contains the fixed string TEXT.
has() {
	if grep -F -q -e "$2" "$1"; then
		pass "$3"
	else
		fail "$3"
		diag "no '$2' in:"
		diag_file "$1" 40
	fi
}

json_ok() {
	if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>"$TMPDIR_T/py.err"; then
		pass "$2"
	else
		fail "$2"
		diag_file "$TMPDIR_T/py.err"
	fi
}

# ---- rules-file errors: position, message, source line and caret
for f in $R/bad-*.rules; do
	b=$(basename "$f" .rules)
	drive 2 "$b: rejected with status 2" --load "$f"
	is_file "$G/$b.err" "$TMPDIR_T/err" "$b: stderr"
done
drive 2 "missing rules file: status 2" --load "$R/no-such.rules"
has "$TMPDIR_T/err" "hlodiff: $R/no-such.rules:" "missing rules file: named"
for f in rules/*.rules $R/report.rules $R/total-1pct.rules; do
	drive 0 "$f loads" --load "$f"
done

# ---- reports on the synthetic pair (every metric moves there)
drive 1 "synth: an error rule is violated: status 1" \
	--eval --module-from-path $R/report.rules $SYN_OLD $SYN_NEW
is_file "$G/synth.out" "$TMPDIR_T/out" "synth: text report"
drive 1 "synth: JSON report, status 1" \
	--eval --json --module-from-path $R/report.rules $SYN_OLD $SYN_NEW
json_ok "$TMPDIR_T/out" "synth: JSON parses"
is_file "$G/synth.json" "$TMPDIR_T/out" "synth: JSON report"
drive 0 "synth reversed: shrinkage passes: status 0" \
	--eval --module-from-path $R/report.rules $SYN_NEW $SYN_OLD
is_file "$G/synth-reversed.out" "$TMPDIR_T/out" "synth reversed: text report"
drive 0 "default rules on a pair with no change: status 0" \
	--eval --default $SYN_OLD $SYN_OLD
drive 1 "default rules, a new prefetch: status 1" \
	--eval --default $R/seed-000-noprefetch.txt tests/data/seed-000.txt
has "$TMPDIR_T/out" "error <default.rules>:21: error new prefetches" "default rules: the new prefetch is an error"
drive 1 "default rules, a new prefetch, --werror: status 1" \
	--eval --werror --default $R/seed-000-noprefetch.txt tests/data/seed-000.txt
drive 0 "default rules on examples/jit_normal 0021 -> 0041 (+9.7%, +8 KiB: under the 64 KiB floor): status 0" \
	--eval --default examples/jit_normal-0021.txt examples/jit_normal-0041.txt
is_file "$G/default-jit_normal.out" "$TMPDIR_T/out" "default rules: text report"

# ---- the seed prefetch.  tests/rules/seed-000-noprefetch.txt is seed 000
# with its prefetch taken out consistently: the copy-start{}, {0} and {2}
# value lines and records, the sync-flag allocation 5 (so 6 became 5 and
# "Total bytes used" 92676 became 92672), Arg_0.1's copy-start position and
# uses (fusion.23 now reads %Arg_0.1), copy-start and copy-done in the
# schedule (times renumbered, max 16 -> 14, peak at 15 -> 13) and their
# live ranges.
printf 'error new prefetches\n' >"$TMPDIR_T/np.rules"
drive 1 "seed 000 with a new prefetch fails 'error new prefetches'" \
	--eval "$TMPDIR_T/np.rules" $R/seed-000-noprefetch.txt tests/data/seed-000.txt
has "$TMPDIR_T/out" 'new prefetch copy-start: u32[2]{0:T(128)S(1)}, 512 bytes, space 0 (HBM) -> 1 (VMEM), from Arg_0.1 (op_name "key")' \
	"seed 000: the new copy-start described"
drive 0 "seed 000 without the prefetch passes 'error new prefetches'" \
	--eval "$TMPDIR_T/np.rules" tests/data/seed-000.txt $R/seed-000-noprefetch.txt

# ---- real corpus pairs
if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS" ]; then
	K=$HD_CORPUS/tpu/justabyte-ppost-kernel__module_
	S=.jit_splash_attention_kernel.cl_772339112.after_optimizations-buffer-assignment.txt
	for pr in "0035 0044" "0044 0052" "0035 0052"; do
		set -- $pr
		drive 1 "corpus: splash attention $1 -> $2 fails a 1% total-bytes rule" \
			--eval --module-from-path $R/total-1pct.rules "$K$1$S" "$K$2$S"
		has "$TMPDIR_T/out" "rules: $R/total-1pct.rules, module jit_splash_attention_kernel: 1 violated (1 error, 0 warning)" \
			"corpus: splash attention $1 -> $2: the violation reported"
	done
	drive 0 "corpus: splash attention 0052 -> 0035 (shrinks) passes" \
		--eval $R/total-1pct.rules "${K}0052$S" "${K}0035$S"
	GP=$HD_CORPUS/gpu/lorraxsbx-si04-
	GS=__module_0041.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt
	drive 0 "corpus: gpu si04 simplefused -> fusedclean (metadata only) passes strict.rules --werror" \
		--eval --werror rules/strict.rules "${GP}simplefused$GS" "${GP}fusedclean$GS"
	TP=$HD_CORPUS/tpu/justabyte-ppost-
	TS=__module_0021.jit__normal.cl_772339112.after_optimizations-buffer-assignment.txt
	drive 0 "corpus: tpu ppost-kernel -> ppost-ref _normal 0021 (metadata only) passes strict.rules --werror" \
		--eval --werror rules/strict.rules "${TP}kernel$TS" "${TP}ref$TS"
	drive 0 "corpus: same pair passes tpu.rules --werror" \
		--eval --werror rules/tpu.rules "${TP}kernel$TS" "${TP}ref$TS"
else
	for i in 1 2 3 4 5 6 7 8 9 10; do
		skip "no corpus (HD_CORPUS unset or missing)"
	done
fi

# ---- hlodiff itself: --rules and --werror (main.c)
if "$HLODIFF" --help 2>/dev/null | grep -q -e '--rules'; then
	run_hlodiff 2 "hlodiff --rules with an error in the file: status 2" \
		--rules $R/bad-metric.rules $SYN_OLD $SYN_NEW
	is_file "$G/bad-metric.err" "$TMPDIR_T/err" "hlodiff --rules: the error, position and caret"
	run_hlodiff 1 "hlodiff --rules: an error rule violated: status 1" \
		--rules $R/report.rules $SYN_OLD $SYN_NEW
	has "$TMPDIR_T/out" "error $R/report.rules:4: error total_bytes grows by more than 1%" \
		"hlodiff --rules: the violation in the report"
	run_hlodiff 0 "hlodiff --rules: shrinkage: status 0" \
		--rules $R/report.rules $SYN_NEW $SYN_OLD
	run_hlodiff 1 "hlodiff: default rules, a new prefetch fails: status 1" \
		$R/seed-000-noprefetch.txt tests/data/seed-000.txt
	has "$TMPDIR_T/out" "error <default.rules>:21: error new prefetches" "hlodiff: default rules in the report"
	run_hlodiff 1 "hlodiff --werror: still status 1" \
		--werror $R/seed-000-noprefetch.txt tests/data/seed-000.txt
	run_hlodiff 0 "hlodiff: default rules, +9.7% total but +8 KiB: status 0" \
		examples/jit_normal-0021.txt examples/jit_normal-0041.txt
	run_hlodiff 2 "hlodiff --rules: missing file: status 2" \
		--rules $R/no-such.rules $SYN_OLD $SYN_NEW
else
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		skip "hlodiff has no --rules yet (main.c)"
	done
fi

done_testing
