#!/bin/sh
# HTML: one page for two directories (a table of modules linking to each
# module's section, ids unique), and the chart's x axis when the two
# schedules differ in length (a share of each program, docs/html.md).
. "$(dirname "$0")/lib.sh"

need_hlodiff
D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
cd "$T" || exit 1
ba=after_optimizations-buffer-assignment.txt

mkdir old new
cp "$D/tpu-splash_attention-0035.txt" "old/module_0035.jit_splash.$ba"
cp "$D/tpu-splash_attention-0044.txt" "new/module_0044.jit_splash.$ba"
cp "$D/seed-000.txt" "old/module_0021.jit__normal.$ba"
cp "$D/seed-000.txt" "old/module_0029.jit__normal.$ba"
cp "$D/seed-000.txt" "new/module_0041.jit__normal.$ba"
cp "$D/gpu-full_run-simple.txt" "old/module_0037.jit__full_run.$ba"
cp "$D/gpu-full_run-shardedv3.txt" "new/module_0041.jit__full_run.$ba"
cp "$D/seed-002.txt" "new/module_0051.jit_mini_attention.$ba"

run_hlodiff 1 "directories with --html: exit 1 (the splash kernel grew)" --html page.html old new
cp "$T/out" text.out
python3 - page.html >py.out 2>&1 <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.sections, self.rows, self.stack = [], [], [], [], []
        self.in_modules = False
        self.cell = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.hrefs.append(a["href"][1:])
        if tag == "section" and a.get("class") == "module":
            self.sections.append(a["id"])
        if tag == "table" and a.get("id") == "modules":
            self.in_modules = True
        if self.in_modules and tag == "tr":
            self.rows.append([])
        if self.in_modules and tag == "td":
            self.cell = ""
    def handle_endtag(self, tag):
        if tag == "table":
            self.in_modules = False
        if self.in_modules and tag == "td":
            self.rows[-1].append(self.cell)
            self.cell = None
    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
dup = sorted({i for i in p.ids if p.ids.count(i) > 1})
assert not dup, "duplicate ids %s" % dup
missing = [h for h in p.hrefs if h not in p.ids]
assert not missing, "links to nothing: %s" % missing
rows = [r for r in p.rows if r]
labels = [r[0] for r in rows]
assert labels == ["jit__full_run", "jit__normal#1", "jit__normal#2", "jit_mini_attention", "jit_splash"], labels
# compared modules (a file on both sides) have a section, the others none
assert p.sections == ["m1", "m2", "m5"], p.sections
for s in p.sections:
    for part in ("timeline", "peak", "rules", "movers", "figures"):
        assert s + "-" + part in p.ids or s + "-" + part + "-section" in p.ids, (s, part)
assert rows[4][-1].startswith("FAIL"), rows[4]
print("ok")
PY
ok_cmd "page: one row per module, a section per compared one, links resolve, ids unique" grep -qx ok py.out || diag_file py.out
ok_cmd "page: one script, one style" test "$(grep -c '<script>' page.html)" -eq 1 -a "$(grep -c '<style>' page.html)" -eq 1
ok_cmd "page: the script handles every movers table" grep -qF 'document.querySelectorAll("table[id$=movers]")' page.html
ok_cmd "page: each section titled by its module" grep -q '<h2>jit__normal#1</h2>' page.html
ok_cmd "page: the pairing note" grep -qF 'jit__normal: 2 compiles in OLD, 1 in NEW: paired by content' page.html
run_hlodiff 1 "-j 1" -j 1 --html j1.html old new
run_hlodiff 1 "-j 4" -j 4 --html j4.html old new
ok_cmd "-j 1 and -j 4 write the same page" cmp -s j1.html j4.html
ok_cmd "the text report is unchanged by --html" cmp -s text.out "$T/out"
run_hlodiff 2 "golden check with --html: exit 2" golden check old new --html x.html
ok_cmd "golden check with --html: says so" grep -qF "hlodiff: --html writes the report of one pair or of two directories, not of golden check" "$T/err"

# The axis.  Schedule lengths read from the dumps' "HloLiveRange (max T)".
steps() { sed -n 's/^HloLiveRange (max \([0-9]*\)):$/\1/p' "$1"; }
A=$D/gpu-full_run-simple.txt
B=$D/gpu-full_run-shardedv3.txt
ta=$(steps "$A") tb=$(steps "$B")
ok_cmd "the GPU pair's schedules differ ($ta and $tb steps)" test -n "$ta" -a -n "$tb" -a "$ta" -ne "$tb"
run_hlodiff 1 "pair of different lengths: --html (exit 1: total grew 35%)" --html share.html "$A" "$B"
ok_cmd "axis: a share of each schedule, each side's span given" \
	grep -q "data-axis=\"share\" data-span-old=\"$((ta + 1))\" data-span-new=\"$((tb + 1))\"" share.html
ok_cmd "axis: ticks at 0%..100% with each side's step" sh -c \
	"grep -q '>50%</text>' share.html && grep -q '>old $((ta / 2))</text>' share.html && grep -q '>new $((tb / 2))</text>' share.html"
ok_cmd "axis: the title gives both lengths" grep -qF "program position as a share of each schedule (old $ta steps, new $tb)" share.html
ok_cmd "axis: the note says why" grep -qF "The schedules differ in length (old $ta steps, new $tb)" share.html
python3 - share.html "$ta" "$tb" >py2.out 2>&1 <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
ta, tb = int(sys.argv[2]), int(sys.argv[3])
left, right = 84.0, 960.0 - 16.0
# each curve ends at the right edge: both programs span the width
for side in ("old", "new"):
    for d in re.findall(r'<path class="curve" data-side="%s"[^>]* d="([^"]*)"' % side, s):
        xs = [float(x) for x in re.findall(r"H([0-9.]+)", d)]
        assert abs(max(xs) - right) < 0.11, (side, max(xs))
# a peak marker sits at its share of its own schedule
for side, t_max in (("old", ta), ("new", tb)):
    m = re.search(r'<g class="peak-marker" data-side="%s" data-time="(\d+)"[^>]*>\n<line x1="([0-9.]+)"' % side, s)
    t, x = int(m.group(1)), float(m.group(2))
    want = left + (t + 0.5) / (t_max + 1) * (right - left)
    assert abs(x - want) < 0.11, (side, t, x, want)
print("ok")
PY
ok_cmd "axis: curves span the width, peak markers at their share" grep -qx ok py2.out || diag_file py2.out
S=$D/tpu-splash_attention-0035.txt
run_hlodiff 1 "pair of equal lengths: --html" --html same.html "$S" "$D/tpu-splash_attention-0044.txt"
ok_cmd "equal lengths: the step axis, no note" sh -c \
	"! grep -q 'data-axis=\"share\"' same.html && ! grep -q timeline-share same.html && grep -q 'program order (position in the instruction sequence)' same.html"

done_testing
