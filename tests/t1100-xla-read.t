#!/bin/sh
# The dumps of today's XLA in tests/xla/ (scripts/xla-corpus): every one
# read with no unknown line, its split files read as one when the main
# file is named, its figures the ones an independent reading of the three
# files finds (tests/py/dump_figures.py), its copy-starts' classes too
# (tests/py/xla_copies.py), and directory mode pairing the modules of two
# variant directories without taking the companions, the memory-usage
# report or the HLO text for modules.
. "$(dirname "$0")/lib.sh"

X=$HD_SRCDIR/tests/xla
T=$TMPDIR_T
[ -f "$X/MANIFEST.json" ] || skip_all "no tests/xla/MANIFEST.json"

n=0
for f in $(find "$X" -name '*-buffer-assignment.txt*' | LC_ALL=C sort); do
	n=$((n + 1))
	rel=${f#"$X"/}
	run_hlodiff 0 "$rel: stat --strict" stat --strict "$f" || continue
	"$HLODIFF" stat --json "$f" >"$T/stat.json" 2>"$T/err"
	secs=$(sed -n 's/^  "sections": "\(.*\)",$/\1/p' "$T/stat.json")
	unk=$(sed -n 's/^  "unknown_lines": \([0-9]*\),*$/\1/p' "$T/stat.json")
	is "allocations total used-values live-range sequence buffer-live-ranges peak stack-trace/0" \
		"$secs/$unk" "$rel: the three split files read as one, no unknown line"
	# the independent reading sees the three files one after the other
	b=${f%-buffer-assignment.txt}
	cat "$f" "$b-buffer-assignment-values.txt" "$b-live-range.txt" >"$T/whole.txt"
	if python3 "$HD_SRCDIR/tests/py/dump_figures.py" "$T/whole.txt" "$T/stat.json" >"$T/py" 2>&1; then
		pass "$rel: figures agree with an independent reading"
	else
		fail "$rel: figures agree with an independent reading"
		diag_file "$T/py"
	fi
	# the copy-start transfers (MSA prefetches, evictions, host offloads)
	if python3 "$HD_SRCDIR/tests/py/xla_copies.py" "$b-buffer-assignment-values.txt" "$T/stat.json" >"$T/py" 2>&1; then
		pass "$rel: copy-start classes agree with an independent reading ($(tail -n 1 "$T/py"))"
	else
		fail "$rel: copy-start classes agree with an independent reading"
		diag_file "$T/py"
	fi
	ncopies=$((${ncopies:-0} + $(sed -n 's/^\([0-9]*\) copy-starts$/\1/p' "$T/py")))
done
is 307 "$ncopies" "307 copy-starts in all (TPU: 237 prefetches, 36 cross-program, 28 evictions, 3 + 3 host)"
is 96 "$n" "96 dumps (48 compiles on CPU, 48 on TPU)"

# ---- directory mode over two variant directories -------------------------
for pair in cpu/mlp_train/base:cpu/mlp_train/batch2 tpu/transformer/base:tpu/transformer/seq2 \
	    cpu/sgd_donate/base:cpu/sgd_donate/donate; do
	old=${pair%%:*}
	new=${pair#*:}
	"$HLODIFF" --summary "$X/$old" "$X/$new" >"$T/out" 2>"$T/err"
	st=$?
	if [ "$st" -le 1 ]; then pass "$old -> $new: directory mode ran (exit $st)"; else
		fail "$old -> $new: directory mode ran (exit $st)"; diag_file "$T/err"; fi
	mod=$(basename "$(dirname "$old")")
	ok_cmd "$old -> $new: one module, paired" \
		grep -qE "^hlodiff: 1 module, $X/$old -> $X/$new: 1 compared; [01] failed a rule$" "$T/out"
	ok_cmd "$old -> $new: the row is jit_$mod" grep -q "^jit_$mod " "$T/out"
	ok_cmd "$old -> $new: no warning (companions, report, HLO text skipped)" test ! -s "$T/err"
done

done_testing
