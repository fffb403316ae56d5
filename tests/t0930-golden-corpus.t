#!/bin/sh
# Golden files on every corpus dump: the golden of a dump compared with
# that dump reports no change, and read in place of the dump (as OLD) it
# gives the dump's report, text and JSON.  Then the whole corpus through
# golden update / golden check and directory mode, -j 1 against -j 8.
# Prints the size of each golden against its dump (per mille), the totals
# per size class (docs/golden.md, "Size"), and checks the corpus total.
. "$(dirname "$0")/lib.sh"
need_corpus

T=$TMPDIR_T
cd "$T" || exit 1
corpus_dumps >"$T/dumps"
prev=$HD_SRCDIR/tests/data/seed-000.txt
gtot=0
dtot=0
small=0
while read -r f; do
	b=$(basename "$f")
	rm -rf g
	if ! "$HLODIFF" golden update g "$f" >"$T/up.out" 2>"$T/up.err"; then
		fail "$b: golden update"
		diag_file "$T/up.err"
		continue
	fi
	gf=$(ls g/*.golden)
	gs=$(wc -c <"$gf")
	ds=$(wc -c <"$f")
	gtot=$((gtot + gs))
	dtot=$((dtot + ds))
	[ $((gs * 10)) -le "$ds" ] && small=$((small + 1))
	# The agreed bound: a tenth of every dump of 100 KB or more
	# (docs/golden.md, Size).
	if [ "$ds" -ge 100000 ] && [ $((gs * 10)) -gt "$ds" ]; then
		fail "$b: golden at most a tenth of a dump of 100 KB or more ($gs of $ds bytes)"
	fi
	if [ "$ds" -lt 5000 ]; then c=0; elif [ "$ds" -lt 20000 ]; then c=1
	elif [ "$ds" -lt 100000 ]; then c=2; elif [ "$ds" -lt 500000 ]; then c=3; else c=4; fi
	eval "cg$c=\$((\${cg$c:-0} + gs)); cd$c=\$((\${cd$c:-0} + ds)); cn$c=\$((\${cn$c:-0} + 1))"
	diag "size: $b: golden $gs of $ds bytes ($((gs * 1000 / ds)) per mille)"
	"$HLODIFF" --no-rules --all "$gf" "$f" >"$T/self" 2>&1
	if grep -q "^values: [0-9]* matched (0 changed), 0 added, 0 removed$" "$T/self" &&
	    ! grep -q '^  changed\|^  added\|^  removed' "$T/self"; then
		pass "$b: its golden against it: no change"
	else
		fail "$b: its golden against it: no change"
		diag_file "$T/self" 20
	fi
	for args in "" "--json --all"; do
		# shellcheck disable=SC2086
		"$HLODIFF" $args "$f" "$prev" 2>/dev/null | sed "s|$f|DUMP|g" >"$T/a"
		# shellcheck disable=SC2086
		"$HLODIFF" $args "$gf" "$prev" 2>/dev/null | sed "s|$gf|DUMP|g" >"$T/b"
		is_file "$T/a" "$T/b" "$b: golden as OLD [$args]: the dump's report"
	done
	prev=$f
done <"$T/dumps"
for c in 0 1 2 3 4; do
	eval "n=\${cn$c:-0} g=\${cg$c:-0} s=\${cd$c:-0}"
	[ "$n" -gt 0 ] || continue
	set -- "under 5 KB" "5-20 KB" "20-100 KB" "100-500 KB" "500 KB and over"
	shift "$c"
	diag "size class $1: $n dumps, goldens $g of $s bytes ($((g * 1000 / s)) per mille)"
done
diag "goldens: $gtot bytes for $dtot bytes of dumps ($((gtot * 1000 / dtot)) per mille); $small of $(wc -l <"$T/dumps") at most a tenth of their dump"
# The agreed bound is a tenth of the dumps in total; 75 per mille
# (docs/golden.md, Size) catches a regression of the format before it.
ok_cmd "goldens of the corpus: at most 75 per mille of the dumps ($((gtot * 1000 / dtot)))" \
	test $((gtot * 1000)) -le $((dtot * 75))

# The corpus directories: golden update, then golden check reports no change.
rm -rf all
run_hlodiff 0 "golden update of the corpus directories" golden update all \
	"$HD_CORPUS/cpu" "$HD_CORPUS/gpu" "$HD_CORPUS/tpu"
n=$(grep -c '^wrote' "$T/out")
run_hlodiff 0 "golden check of the corpus: exit 0" golden check -j 8 all \
	"$HD_CORPUS/cpu" "$HD_CORPUS/gpu" "$HD_CORPUS/tpu"
ok_cmd "golden check of the corpus: $n modules compared, none failed" \
	grep -q "^hlodiff: $n modules, all -> 3 paths: $n compared; 0 failed a rule$" "$T/out"
ok_cmd "golden check of the corpus: no value changed" sh -c "! grep -q '^  changed\|^  added\|^  removed' '$T/out'"

# Directory mode over the corpus: the same bytes whatever the threads.
run_hlodiff 1 "cpu vs tpu directories, -j 1" -j 1 --json="$T/j1.json" --junit "$T/j1.xml" "$HD_CORPUS/cpu" "$HD_CORPUS/tpu"
cp "$T/out" "$T/j1.txt"
run_hlodiff 1 "cpu vs tpu directories, -j 8" -j 8 --json="$T/j8.json" --junit "$T/j8.xml" "$HD_CORPUS/cpu" "$HD_CORPUS/tpu"
is_file "$T/j1.txt" "$T/out" "corpus directories: -j 1 and -j 8 give the same text"
is_file "$T/j1.json" "$T/j8.json" "corpus directories: the same JSON"
is_file "$T/j1.xml" "$T/j8.xml" "corpus directories: the same JUnit"
run_hlodiff 0 "tpu directory against itself" -j 8 --summary "$HD_CORPUS/tpu" "$HD_CORPUS/tpu"
ok_cmd "tpu against itself: every module ok" sh -c "! grep -q 'FAIL\|only in' '$T/out'"

done_testing
