#!/bin/sh
# The include graph of src/ and include/hlodiff/ runs one way: a module
# includes only headers of its own stage or of an earlier one
# (docs/architecture.md).  The stage of every module is listed below; a
# module missing from the list fails the test, so a new one gets a stage.
. "$(dirname "$0")/lib.sh"

T=$TMPDIR_T

# Stages, lowest first.  "neutral" modules serve every stage and include
# only neutral ones.  The model (dump) sits below its makers: parse and
# golden fill a struct hd_dump, so they include dump.h, never the reverse.
cat >"$T/stages" <<'EOF'
neutral: arena slice diag table index keysort bytes scan shape parallel json format membuf filename str
input: input
dump: dump label
parse: parse parse_int parse_alloc parse_insn parse_live parse_values
figures: figures timeline
canon: canon
golden: golden
load: load
match: match
peak: peak
diff: diff breakdown
verdict: rules verdict
render-common: report_opts report_common
render: html report_verdict
report: report report_md report_github report_junit report_batch
batch: batch
main: main
EOF

# Back includes not fixed yet, "FROM -> TO  owner", each one to fix.
cat >"$T/exceptions" <<'EOF'
dump.c -> canon  golden: to fix
dump.c -> parse  golden: to fix
EOF

# check DIR: prints "FROM -> TO" for each back include below DIR (src/*.c,
# src/*.h, include/hlodiff/*.h), "unknown FILE" for a module with no stage.
check() {
	python3 - "$1" "$T/stages" <<'EOF'
import glob, os, re, sys
root, stages = sys.argv[1], sys.argv[2]
rank = {}
for i, line in enumerate(open(stages)):
    name, mods = line.split(':')
    for m in mods.split():
        rank[m] = 0 if name == 'neutral' else i
def mod(path):
    return os.path.basename(path).rsplit('.', 1)[0]
files = sorted(glob.glob(root + '/src/*.[ch]') + glob.glob(root + '/include/hlodiff/*.h'))
inc = re.compile(r'^\s*#\s*include\s+"(?:hlodiff/)?([A-Za-z0-9_]+)\.h"')
for f in files:
    m = mod(f)
    if m not in rank:
        print('unknown', os.path.relpath(f, root))
        continue
    for line in open(f, encoding='utf-8', errors='replace'):
        g = inc.match(line)
        if not g:
            continue
        to = g.group(1)
        if to not in rank:
            print('unknown', to + '.h')
        elif rank[to] > rank[m] or (rank[m] == 0 and rank[to] != 0):
            print('%s -> %s' % (os.path.basename(f), to))
EOF
}

# --- the checker, on a made-up tree ---------------------------------------
mkdir -p "$T/fake/src" "$T/fake/include/hlodiff"
printf '#include "hlodiff/dump.h"\n#include "hlodiff/arena.h"\n' >"$T/fake/src/match.c"
printf '#include "hlodiff/match.h"\n' >"$T/fake/src/figures.c"
printf '#include "hlodiff/verdict.h"\n' >"$T/fake/include/hlodiff/arena.h"
printf '#include "hlodiff/slice.h"\n' >"$T/fake/src/novel.c"
check "$T/fake" | sort >"$T/fake.got"
printf '%s\n' "arena.h -> verdict" "figures.c -> match" "unknown src/novel.c" >"$T/fake.want"
is_file "$T/fake.got" "$T/fake.want" "checker: finds back includes, neutral ones and unstaged modules"

# --- the real tree --------------------------------------------------------
check "$HD_SRCDIR" | sort -u >"$T/got"
n_inc=$(cat "$HD_SRCDIR"/src/*.[ch] "$HD_SRCDIR"/include/hlodiff/*.h | grep -c '^#include "')
ok_cmd "the tree has project includes to check ($n_inc)" test "$n_inc" -gt 100

grep '^unknown' "$T/got" >"$T/unknown"
ok_cmd "every module has a stage" test ! -s "$T/unknown" || diag_file "$T/unknown"

grep -v '^unknown' "$T/got" >"$T/back"
sed 's/  .*//' "$T/exceptions" | sort -u >"$T/allowed"
comm -23 "$T/back" "$T/allowed" >"$T/new"
ok_cmd "no include runs back up the pipeline, but the listed ones" test ! -s "$T/new" ||
	diag_file "$T/new"

# docs/architecture.md gives the same stages, in the same order.
sed -n 's/^| \([a-z-]*\) | \([a-z_, ]*\) |.*/\1: \2/p' "$HD_SRCDIR/docs/architecture.md" |
	sed 's/,//g' >"$T/doc-stages"
is_file "$T/doc-stages" "$T/stages" "docs/architecture.md lists the same stages and modules"

# A listed exception that is fixed is only noted: whoever fixes it
# removes the line.
comm -13 "$T/back" "$T/allowed" >"$T/stale"
[ -s "$T/stale" ] && diag "fixed, remove from the exceptions: $(cat "$T/stale")"

done_testing
