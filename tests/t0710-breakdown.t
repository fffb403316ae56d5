#!/bin/sh
# The byte breakdown from the command line: hlodiff --by KEYS [--at-peak]
# [-n N] [--json] OLD NEW and hlodiff stat --by KEYS DUMP.
#
# Every tree is checked by an independent reader (python3, below): each
# node's old and new bytes are the sums of its children's, at most N + 1
# children are shown with -n N, and the root is the sum of size= over the
# " value:" lines of each dump (or, with --at-peak, the memory held at
# the peak as tests/py/peak_held.py reads it).  Text reports are compared with golden/by/ (the same files
# test_breakdown.c renders through the API); regenerate with
# HD_UPDATE_GOLDEN=1.  The CLI checks are skipped while hlodiff --help
# does not mention --by (main.c not wired yet).
. "$(dirname "$0")/lib.sh"

need_hlodiff
G=$HD_SRCDIR/golden/by
cd "$HD_SRCDIR" || exit 1

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

cat >"$TMPDIR_T/check.py" <<'EOF'
"""check.py JSON MEASURE TOP_N SPEC [DUMP...]

Checks the breakdown in JSON (the object itself, or its "breakdown"
member).  MEASURE is value_bytes or peak_bytes; SPEC the key list.  With
one DUMP the tree is a one-dump tree ("bytes"), with two a diff ("old",
"new"); with none the root is not checked."""
import json
import os
import re
import sys

VALUE = re.compile(r'^ value: <\d+ [^>]*> \(size=(\d+),offset=\d+\): ')


def value_bytes(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return sum(int(m.group(1)) for m in map(VALUE.match, f) if m)


def peak_bytes(path):
    # the memory held at the peak, as tests/py/peak_held.py reads it
    sys.path.insert(0, os.path.join(os.environ['HD_SRCDIR'], 'tests', 'py'))
    import peak_held
    return peak_held.held(path)['peak_bytes']


def main():
    path, measure, top_n, spec = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    dumps = sys.argv[5:]
    with open(path) as f:
        doc = json.load(f)
    b = doc.get('breakdown', doc)
    bad = []
    if b.get('by') != spec.split(','):
        bad.append('by is %r, not %r' % (b.get('by'), spec.split(',')))
    if b.get('measure') != measure:
        bad.append('measure is %r, not %r' % (b.get('measure'), measure))
    cols = ['bytes'] if 'bytes' in b['root'] else ['old', 'new']

    def walk(node, where):
        kids = node['children']
        if top_n > 0 and len(kids) > top_n + 1:
            bad.append('%s: %d children with -n %d' % (where, len(kids), top_n))
        for c in cols:
            if kids and sum(k[c] for k in kids) != node[c]:
                bad.append('%s: %s %d but children add up to %d'
                           % (where, c, node[c], sum(k[c] for k in kids)))
        if 'delta' in node and node['delta'] != node['new'] - node['old']:
            bad.append('%s: delta is not new - old' % where)
        for k in kids:
            walk(k, where + ' > ' + k['name'])

    walk(b['root'], b['root']['name'])
    if dumps:
        want = [(peak_bytes if measure == 'peak_bytes' else value_bytes)(d) for d in dumps]
        got = [b['root'][c] for c in cols]
        if got != want:
            bad.append('root is %r, the dumps say %r' % (got, want))
    for line in bad[:10]:
        print(line)
    sys.exit(1 if bad else 0)


main()
EOF

# check_json DESC JSON MEASURE TOP_N SPEC [DUMP...]
check_json() {
	_d=$1
	shift
	if [ "$have_python" -eq 0 ]; then
		skip "$_d: no python3"
		return
	fi
	ok_cmd "$_d" python3 "$TMPDIR_T/check.py" "$@"
}

# section SPEC [PEAK]: the breakdown of $TMPDIR_T/out (from its title
# line to the first empty line) into $TMPDIR_T/section.
section() {
	if [ -n "${2:-}" ]; then
		_title="by $1 at the peak ("
	else
		_title="by $1 ("
	fi
	awk -v t="$_title" 'index($0, t) == 1 { on = 1 } on && $0 == "" { exit } on { print }' \
		"$TMPDIR_T/out" >"$TMPDIR_T/section"
}

# The golden JSON renderings are valid and add up (no CLI needed).
check_json "golden hand.op_name.json adds up" "$G/hand.op_name.json" value_bytes 0 op_name
check_json "golden stat-seed-000.opcode.json adds up" "$G/stat-seed-000.opcode.json" \
	value_bytes 0 opcode tests/data/seed-000.txt

# "--by KEYS" (not "--by-name") in the help means main.c is wired.
if ! "$HLODIFF" --help 2>/dev/null | grep -qE -- '--by([ =]|$)'; then
	skip "hlodiff --help does not mention --by yet (main.c not wired): CLI checks skipped"
	done_testing
fi

OLD=examples/jit_normal-0021.txt
NEW=examples/jit_normal-0041.txt
S0=tests/data/seed-000.txt

# golden_by NAME SPEC [--at-peak] ARGS...: text report section vs golden.
golden_by() {
	_name=$1
	_spec=$2
	shift 2
	_peak=
	[ "$1" = --at-peak ] && _peak=1
	run_hlodiff 0 "$_name: exit 0" --no-rules --by "$_spec" "$@" || return
	section "$_spec" "$_peak"
	is_file "$G/$_name" "$TMPDIR_T/section" "$_name: breakdown matches golden/by/$_name"
}

golden_by "jit_normal.memory-space,op_name.txt" memory-space,op_name -n 0 "$OLD" "$NEW"

run_hlodiff 0 "stat --by opcode: exit 0" stat --by opcode -n 0 "$S0"
section opcode
is_file "$G/stat-seed-000.opcode.txt" "$TMPDIR_T/section" "stat --by opcode matches golden"
run_hlodiff 0 "stat --by opcode --json: exit 0" stat --json --by opcode -n 0 "$S0"
cp "$TMPDIR_T/out" "$TMPDIR_T/stat.json"
check_json "stat --by opcode --json adds up to the value sizes" "$TMPDIR_T/stat.json" \
	value_bytes 0 opcode "$S0"
if [ "$have_python" -eq 1 ]; then
	ok_cmd "stat --json breakdown equals golden/by/stat-seed-000.opcode.json" python3 -c '
import json, sys
a = json.load(open(sys.argv[1])); a = a.get("breakdown", a)
sys.exit(0 if a == json.load(open(sys.argv[2])) else 1)' "$TMPDIR_T/stat.json" "$G/stat-seed-000.opcode.json"
fi

run_hlodiff 0 "stat --by op_name --at-peak: exit 0" stat --json --by op_name --at-peak "$S0"
cp "$TMPDIR_T/out" "$TMPDIR_T/statpeak.json"
check_json "stat --at-peak root is the held peak" "$TMPDIR_T/statpeak.json" \
	peak_bytes 20 op_name "$S0"

run_hlodiff 2 "--by with an unknown key: exit 2" --by frob "$OLD" "$NEW"
ok_cmd "--by frob: names the key and the choices" grep -qF \
	"unknown key 'frob' (expected op_name, source, opcode, memory-space or kind)" "$TMPDIR_T/err"
run_hlodiff 2 "--by with three keys: exit 2" --by op_name,source,kind "$OLD" "$NEW"

# check_pair LABEL OLD NEW: every key, value and peak bytes, -n 0 and 3.
check_pair() {
	for spec in op_name source opcode memory-space kind memory-space,op_name kind,source; do
		for n in 0 3; do
			run_hlodiff 0 "$1 --by $spec -n $n --json: exit 0" --no-rules --json --by "$spec" -n "$n" "$2" "$3" &&
				cp "$TMPDIR_T/out" "$TMPDIR_T/v.json" &&
				check_json "$1 --by $spec -n $n: adds up to the value sizes" \
					"$TMPDIR_T/v.json" value_bytes "$n" "$spec" "$2" "$3"
			run_hlodiff 0 "$1 --by $spec --at-peak -n $n --json: exit 0" --no-rules --json --by "$spec" \
				--at-peak -n "$n" "$2" "$3" &&
				cp "$TMPDIR_T/out" "$TMPDIR_T/p.json" &&
				check_json "$1 --by $spec --at-peak -n $n: adds up to the held peaks" \
					"$TMPDIR_T/p.json" peak_bytes "$n" "$spec" "$2" "$3"
		done
	done
}

check_pair jit_normal "$OLD" "$NEW"

if [ -z "${HD_CORPUS:-}" ] || [ ! -d "$HD_CORPUS" ]; then
	skip "no corpus (HD_CORPUS unset or missing): real pairs skipped"
	done_testing
fi

GPU=$HD_CORPUS/gpu
SUF=sm_8.0_gpu_after_optimizations-buffer-assignment.txt
SI_OLD=$GPU/lorraxsbx-si04-simple__module_0041.jit__full_run.$SUF
SI_NEW=$GPU/lorraxsbx-si04-simplefused__module_0041.jit__full_run.$SUF
B1_OLD=$GPU/lorraxsbx-si04-b1rtol1e4__module_0037.jit__full_run.$SUF
B1_NEW=$GPU/lorraxsbx-si04-block4__module_0037.jit__full_run.$SUF
K4=$GPU/lorraxsbx-mos2-heur4gb__module_0121.jit__kernel.$SUF
K16=$GPU/lorraxsbx-mos2-heur4gb16gpu__module_0121.jit__kernel.$SUF

check_pair si04-simple-simplefused "$SI_OLD" "$SI_NEW"
check_pair mos2-kernel-4v16 "$K4" "$K16"

golden_by "si04-simple-simplefused.op_name.n8.txt" op_name -n 8 "$SI_OLD" "$SI_NEW"
golden_by "si04-simple-simplefused.kind,opcode.peak.n5.txt" kind,opcode --at-peak -n 5 "$SI_OLD" "$SI_NEW"
golden_by "si04-b1rtol1e4-block4.op_name.n8.txt" op_name -n 8 "$B1_OLD" "$B1_NEW"
golden_by "mos2-kernel-4v16.op_name.n8.txt" op_name -n 8 "$K4" "$K16"
golden_by "mos2-kernel-4v16.source.n6.txt" source -n 6 "$K4" "$K16"

done_testing
