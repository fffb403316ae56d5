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

# the corpus is what the script writes: every program and variant it
# lists (no JAX needed for --list), on both backends, each with its files
python3 "$HD_SRCDIR/scripts/xla-corpus" --list >"$T/list" 2>"$T/err"
is 0 $? "scripts/xla-corpus --list runs without JAX"
ok_cmd "at least ten programs" test "$(wc -l <"$T/list")" -ge 10
ok_cmd "each program has base and same" sh -c "! grep -v ' base same' '$T/list'"
python3 - "$X/MANIFEST.json" "$T/list" >"$T/missing" <<'PY'
import json, os, sys
man = json.load(open(sys.argv[1]))
have = {(c['backend'], c['program'], c['variant']) for c in man['compiles']
        if c.get('main') and os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), c['dir'], c['main']))}
want = {(be, l.split()[0], v) for l in open(sys.argv[2]) for v in l.split()[1:] for be in ('cpu', 'tpu')}
for k in sorted(want ^ have):
    print('/'.join(k))
PY
is "" "$(cat "$T/missing")" "the manifest and tests/xla/ hold every compile the script lists, and no other"

for be in cpu tpu; do
	for p in $(ls "$X/$be"); do
		old=$(main "tests/xla/$be/$p/base")
		new=$(main "tests/xla/$be/$p/same")
		run_hlodiff 0 "$be/$p: same program: passes the default rules" --json "$old" "$new" || continue
		sum=$(tr -d ' \n' <"$T/out" | sed -n 's/.*"summary":{\([^}]*\)}.*/\1/p')
		is '"matched":'"$(grep -c '^ value: ' "$old")"',"changed":0,"added":0,"removed":0' "$sum" \
			"$be/$p: same program: every value matched, none changed"
		nz=$(python3 -c 'import json, sys
print(" ".join(f["name"] for f in json.load(sys.stdin)["figures"] if f["old"] != f["new"]))' <"$T/out")
		is "" "$nz" "$be/$p: same program: every figure the same"
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
