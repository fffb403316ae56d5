#!/bin/sh
# The same dump read in every way it can arrive gives the same figures:
# plain file, standard input, CRLF line ends, gzip, the stdout wrapper of
# --xla_dump_to=-, and the newest XLA's split files.
. "$(dirname "$0")/lib.sh"

S=$HD_SRCDIR/tests/data/seed-001.txt
T=$TMPDIR_T

# figures FILE: stat --json minus the keys that name the input
figures() {
	python3 -c 'import json,sys; j=json.load(sys.stdin); [j.pop(k) for k in ("file","sections")]; print(json.dumps(j, sort_keys=True))'
}

"$HLODIFF" stat --json "$S" | figures >"$T/plain.json"
ok_cmd "plain file read" test -s "$T/plain.json"

same() { # DESC FILE-OF-FIGURES
	if cmp -s "$T/plain.json" "$2"; then pass "$1"; else fail "$1"; diag_file "$2" 3; fi
}

run_hlodiff 0 "standard input: exit 0" stat --json - <"$S"
figures <"$T/out" >"$T/stdin.json"
same "standard input: same figures" "$T/stdin.json"
ok_cmd "standard input: named <stdin>" grep -q '"file": "<stdin>"' "$T/out"

cat "$S" | "$HLODIFF" stat --json - | figures >"$T/pipe.json"
same "pipe: same figures" "$T/pipe.json"

sed 's/$/\r/' "$S" >"$T/crlf.txt"
run_hlodiff 0 "CRLF line ends: exit 0, no unknown line" stat --json "$T/crlf.txt"
ok_cmd "CRLF: nothing on stderr" test ! -s "$T/err"
figures <"$T/out" >"$T/crlf.json"
same "CRLF: same figures" "$T/crlf.json"

gzip -c "$S" >"$T/seed.txt.gz"
run_hlodiff 0 ".gz: exit 0" stat --json "$T/seed.txt.gz"
figures <"$T/out" >"$T/gz.json"
same ".gz: same figures" "$T/gz.json"
gzip -c "$S" | "$HLODIFF" stat --json - | figures >"$T/gzpipe.json"
same ".gz on standard input: same figures" "$T/gzpipe.json"
head -c 2000 "$T/seed.txt.gz" >"$T/cut.txt.gz"
run_hlodiff 2 "truncated .gz: exit 2" stat "$T/cut.txt.gz"
ok_cmd "truncated .gz: says so" grep -q "corrupt or truncated gzip data" "$T/err"

{
	echo '*** Begin module_0021.jit__truncated_normal.cpu_after_optimizations.txt ***'
	echo 'HloModule jit__truncated_normal'
	echo '*** End module_0021.jit__truncated_normal.cpu_after_optimizations.txt ***'
	echo '*** Begin module_0021.jit__truncated_normal.cpu_after_optimizations-buffer-assignment.txt ***'
	cat "$S"
	echo '*** End module_0021.jit__truncated_normal.cpu_after_optimizations-buffer-assignment.txt ***'
	echo '*** Begin module_0021.jit__truncated_normal.cpu_after_optimizations-memory-usage-report.txt ***'
	echo 'Total bytes used: 1 (1B)'
	echo '*** End module_0021.jit__truncated_normal.cpu_after_optimizations-memory-usage-report.txt ***'
} >"$T/stdout.txt"
run_hlodiff 0 "stdout wrapper: exit 0" stat --json "$T/stdout.txt"
ok_cmd "stdout wrapper: nothing on stderr" test ! -s "$T/err"
figures <"$T/out" >"$T/wrap.json"
same "stdout wrapper: same figures (other wrapped files skipped)" "$T/wrap.json"

# Newest XLA: allocations in -buffer-assignment.txt, totals and records in
# -buffer-assignment-values.txt, live ranges in -live-range.txt.
P=$T/module_0021.jit__truncated_normal.cpu_after_optimizations
sed -n '1,76p' "$S" >"$P-buffer-assignment.txt"
sed -n '78,502p' "$S" >"$P-buffer-assignment-values.txt"
sed -n '505,$p' "$S" >"$P-live-range.txt"
run_hlodiff 0 "split files: exit 0" stat --json "$P-buffer-assignment.txt"
figures <"$T/out" >"$T/split.json"
same "split files: same figures as the combined file" "$T/split.json"
ok_cmd "split files: sections from all three" grep -q '"sections": "allocations total used-values live-range sequence buffer-live-ranges peak stack-trace"' "$T/out"
rm "$P-buffer-assignment-values.txt" "$P-live-range.txt"
run_hlodiff 0 "allocations-only file: exit 0" stat --json "$P-buffer-assignment.txt"
ok_cmd "allocations-only file: total is absent, not guessed" grep -q '"total_bytes": null' "$T/out"
ok_cmd "allocations-only file: allocation sizes still add up" grep -q '"alloc_bytes": 9152' "$T/out"
ok_cmd "allocations-only file: no peak" grep -q '"peak_bytes": null' "$T/out"
echo 'HloLiveRange not available (finalized or constructed from proto)' >"$P-live-range.txt"
run_hlodiff 0 "live range not available: exit 0" stat --json "$P-buffer-assignment.txt"
ok_cmd "live range not available: noted in sections" grep -q 'live-range-not-available' "$T/out"

# Unknown lines are counted and reported, and --strict makes them errors.
sed '79a\
Some future section:' "$S" >"$T/unknown.txt"
run_hlodiff 0 "unknown line: still exit 0" stat "$T/unknown.txt"
ok_cmd "unknown line: reported with its line number" grep -q "^hlodiff: $T/unknown.txt: warning: 1 unknown line skipped (line 80)" "$T/err"
run_hlodiff 2 "--strict: unknown line is an error" stat --strict "$T/unknown.txt"
ok_cmd "--strict: position and text" grep -q "^hlodiff: $T/unknown.txt:80: unknown line 'Some future section:' (--strict)" "$T/err"

done_testing
