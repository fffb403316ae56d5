#!/bin/sh
# The pairs of tests/xla/: every same-program pair (the base compiled
# again in a fresh process) reports no changed value and passes the
# default rules; every change pair's report is kept whole in golden/xla/
# (regenerate with HD_UPDATE_GOLDEN=1 prove tests/t1115-xla-pairs.t and
# read the diff).
. "$(dirname "$0")/lib.sh"

X=$HD_SRCDIR/tests/xla
T=$TMPDIR_T
G=$HD_SRCDIR/golden/xla
[ -f "$X/MANIFEST.json" ] || skip_all "no tests/xla/MANIFEST.json"
cd "$HD_SRCDIR" || exit 1   # file names in the reports are relative

main() { # DIR: its main dump
	ls "$1"/*-buffer-assignment.txt* | grep -v -e '-values\.txt' | head -n 1
}

for be in cpu tpu; do
	for p in $(ls "$X/$be"); do
		old=$(main "tests/xla/$be/$p/base")
		new=$(main "tests/xla/$be/$p/same")
		run_hlodiff 0 "$be/$p: same program: passes the default rules" --json "$old" "$new" || continue
		sum=$(tr -d ' \n' <"$T/out" | sed -n 's/.*"summary":{\([^}]*\)}.*/\1/p')
		is '"matched":'"$(grep -c '^ value: ' "$old")"',"changed":0,"added":0,"removed":0' "$sum" \
			"$be/$p: same program: every value matched, none changed"
		nz=$(tr -d ' \n' <"$T/out" | grep -o '"delta":[^,}]*' | grep -vc '"delta":0$')
		is 0 "$nz" "$be/$p: same program: every figure's delta is 0"
		for v in $(ls "$X/$be/$p"); do
			[ "$v" = base ] || [ "$v" = same ] && continue
			new=$(main "tests/xla/$be/$p/$v")
			"$HLODIFF" "$old" "$new" >"$T/rep" 2>"$T/err"
			echo "exit $?" >>"$T/rep"
			cat "$T/err" >>"$T/rep"
			is_file "$G/$be-$p-$v.txt" "$T/rep" "$be/$p: base -> $v: report matches golden/xla/$be-$p-$v.txt"
		done
	done
done

done_testing
