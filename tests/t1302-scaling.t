#!/bin/sh
# The reports of changes of shape (docs/matching.md): the scaling
# summary of a batch-change twin against the sizes read from both files
# through the twin's mapping (python3); the note on two different
# programs and on differently named modules, in text, Markdown and JSON;
# --strict-module.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 missing"
need_hlodiff
D=$HD_SRCDIR/tests/data
T=$TMPDIR_T

# --- the scaling summary of every array's first dimension x2 ---------------
python3 "$HD_SRCDIR/scripts/recompile-twin" --seed 3 --scale-dim 2 \
	"$D/gpu-full_run-simple.txt" "$T/twin.txt" "$T/map" ||
	bail "recompile-twin failed"
"$HLODIFF" --no-rules --json "$D/gpu-full_run-simple.txt" "$T/twin.txt" >"$T/json"
is "$?" 0 "scaled twin: --json exit 0"

# The groups as the sizes say: size= of each value line in both files,
# through the mapping; groups of at least 3 (or 1% of the resized).
cat >"$T/groups.py" <<'PYEOF'
import json, re, sys
VL = re.compile(r"^ value: <\d+ ([^ >{]+)(\{[0-9,]*\})?[^>]*> \(size=(\d+),")
def sizes(p):
    s = {}
    for line in open(p, encoding="utf-8", errors="surrogateescape"):
        m = VL.match(line)
        if m:
            s[m.group(1) + (m.group(2) or "{}")] = int(m.group(3))
    return s
old, new = sizes(sys.argv[1]), sizes(sys.argv[2])
truth = dict(l.split() for l in open(sys.argv[3]) if len(l.split()) == 2)
j = json.load(open(sys.argv[4]))
matched = j["summary"]["matched"]
ratios = {}
resized = 0
for k, o in old.items():
    n = new.get(truth.get(k))
    if n is None or n == o or o == 0:
        continue
    resized += 1
    r = int(n * 100.0 / o + 0.5)
    c, d = ratios.get(r, (0, 0))
    ratios[r] = (c + 1, d + n - o)
ones = matched - resized
c, d = ratios.get(100, (0, 0))
ratios[100] = (c + ones, d)
small = max(3, resized // 100)
want = sorted(((c, r, d) for r, (c, d) in ratios.items() if c >= small),
              key=lambda x: (-x[0], x[1]))
print("resized %d" % resized)
for c, r, d in want:
    print("%d.%02d %d %d" % (r // 100, r % 100, c, d))
PYEOF
cat >"$T/got.py" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1])).get("scaling")
if s:
    print("resized %d" % s["resized"])
    for g in s["groups"]:
        print("%.2f %d %d" % (g["ratio"], g["values"], g["delta"]))
PYEOF
python3 "$T/groups.py" "$D/gpu-full_run-simple.txt" "$T/twin.txt" "$T/map" "$T/json" >"$T/want"
python3 "$T/got.py" "$T/json" >"$T/got"
is_file "$T/got" "$T/want" "scaled twin: JSON scaling groups as the value lines' sizes say"
ok_cmd "scaled twin: most resized values doubled" grep -q '^2.00 ' "$T/want"
"$HLODIFF" --no-rules "$D/gpu-full_run-simple.txt" "$T/twin.txt" >"$T/text"
n=$(sed -n 's/^resized //p' "$T/want")
ok_cmd "scaled twin: text says $n values changed size" \
	grep -q "^scaling: $n of [0-9]* matched values changed size$" "$T/text"
line=$(awk '$1 == "2.00" { print "  x2.00: " $2 " values" }' "$T/want")
ok_cmd "scaled twin: text has the x2.00 group ($line)" grep -q "^$line  +" "$T/text"
"$HLODIFF" --no-rules --format markdown "$D/gpu-full_run-simple.txt" "$T/twin.txt" >"$T/md"
ok_cmd "scaled twin: Markdown has the scaling table" grep -q "^| x2.00 | " "$T/md"
"$HLODIFF" --no-rules --html "$T/page.html" "$D/gpu-full_run-simple.txt" "$T/twin.txt" >/dev/null
ok_cmd "scaled twin: the HTML page has the scaling section" grep -q '<section id="scaling">' "$T/page.html"
not_ok_cmd "a recompile twin (no change of shape): no scaling summary" \
	sh -c "python3 '$HD_SRCDIR/scripts/recompile-twin' '$D/gpu-full_run-simple.txt' '$T/t0' '$T/m0' &&
	       '$HLODIFF' --no-rules '$D/gpu-full_run-simple.txt' '$T/t0' | grep -q '^scaling:'"

# --- two different programs, two modules ----------------------------------
cp "$D/seed-003.txt" "$T/module_0001.jit_a.cpu_after_optimizations-buffer-assignment.txt"
cp "$D/gpu-full_run-simple.txt" "$T/module_0002.jit_b.cpu_after_optimizations-buffer-assignment.txt"
A=$T/module_0001.jit_a.cpu_after_optimizations-buffer-assignment.txt
B=$T/module_0002.jit_b.cpu_after_optimizations-buffer-assignment.txt
"$HLODIFF" --no-rules --json --all "$A" "$B" >"$T/pj"
# the pairs by structure, from the value list
python3 - "$T/pj" "$A" "$B" >"$T/pcheck" <<'PYEOF'
import json, re, sys
j = json.load(open(sys.argv[1]))
n = sum(1 for v in j["values"] if v["how"] in ("exact", "structural", "canonical", "graph"))
def count(p):
    return len({m.group(1) for m in re.finditer(r"^<(\d+) ", open(p).read(), re.M)})
p = j.get("programs") or {}
print(p.get("different"), p.get("matched_by_structure") == n,
      p.get("old_values") == count(sys.argv[2]), p.get("new_values") == count(sys.argv[3]),
      p.get("old_module"), p.get("new_module"), 2 * n < min(count(sys.argv[2]), count(sys.argv[3])))
PYEOF
is "$(cat "$T/pcheck")" "True True True True jit_a jit_b True" \
	"other programs: JSON 'programs' as the value list and the records say"
"$HLODIFF" --no-rules "$A" "$B" >"$T/ptext"
ok_cmd "other programs: text says so at the top" \
	sh -c "sed -n 3,4p '$T/ptext' | grep -q '^note: these look like two different programs: only '"
ok_cmd "other modules: text says so at the top" \
	grep -q '^note: different modules: jit_a (old), jit_b (new)$' "$T/ptext"
"$HLODIFF" --no-rules --format markdown "$A" "$B" >"$T/pmd"
ok_cmd "other programs: Markdown says so" grep -q '^> \*\*Note:\*\* these look like two different programs' "$T/pmd"
"$HLODIFF" --no-rules --strict-module "$A" "$B" >/dev/null 2>"$T/err"
is "$?" 2 "--strict-module: other modules or programs exit 2"
ok_cmd "--strict-module: says why" grep -q 'strict-module' "$T/err"
cp "$D/seed-003.txt" "$T/module_0005.jit_a.cpu_after_optimizations-buffer-assignment.txt"
"$HLODIFF" --no-rules --strict-module "$A" \
	"$T/module_0005.jit_a.cpu_after_optimizations-buffer-assignment.txt" >"$T/same" 2>&1
is "$?" 0 "--strict-module: a compile of the same module passes"
not_ok_cmd "same module and program: no note" grep -q '^note:' "$T/same"

done_testing
