#!/bin/sh
# The gate on real compiles (issue 22): donation on -> off of one JAX
# program fails the default gate with every lost parameter named, in every
# output format; off -> on passes.  tests/data/xla/cpu-sgd_donate holds the
# two CPU compiles (SOURCE.md).  The donated parameters are read from the
# dumps by the Python below, and their bytes checked against XLA's own
# memory_analysis() (alias_size_in_bytes, memory_analysis.json).
#
# When the generated corpus is in the tree (tests/xla, or HD_XLA), its TPU
# pair scan_layers base -> remat, whose one change the gate sees is a new
# HBM -> VMEM prefetch, must fail with exit 1 and the prefetch named; the
# same-program recompiles ("same") must pass.
. "$(dirname "$0")/lib.sh"
need_hlodiff
cd "$HD_SRCDIR" || bail "cannot cd to $HD_SRCDIR"

T=$TMPDIR_T
P=tests/data/xla/cpu-sgd_donate
M=module_0000.jit_sgd_donate.cpu_after_optimizations-buffer-assignment.txt
ON=$P/donate/$M
OFF=$P/base/$M

# aliases.py DUMP: "NUMBER INDEX SHAPE BYTES NAME OP_NAME" per allocation
# that is both "parameter N" and "maybe-live-out" (by number and index), the
# parameter's name and op_name from its "parameter(N)" instruction in the
# Used values (here in the -buffer-assignment-values.txt companion); then
# "total BYTES COUNT".
cat >"$T/aliases.py" <<'PY'
import os, re, sys
dump = sys.argv[1]
text = open(dump, encoding="utf-8").read()
values = dump.replace("-buffer-assignment.txt", "-buffer-assignment-values.txt")
if os.path.exists(values):
    text += "\n" + open(values, encoding="utf-8").read()
insn = {}
for m in re.finditer(r"^ from instruction: %(\S+) = .* parameter\((\d+)\)(.*)$", text, re.M):
    op = re.search(r'op_name="((?:[^"\\]|\\.)*)"', m.group(3))
    insn[m.group(1)] = op.group(1) if op else ""
total = count = 0
rows = []
for m in re.finditer(r"^allocation \d+: size (\d+)(.*):\n((?: value: .*\n)*)", text, re.M):
    p = re.search(r", parameter (\d+), shape \|([^|]*)\| at ShapeIndex (\{[^}]*\})", m.group(2))
    if not p or ", maybe-live-out" not in m.group(2):
        continue
    names = re.findall(r"^ value: <\d+ ([^ >{]+)", m.group(3), re.M)
    name = next((n for n in names if n in insn), "")
    rows.append((int(p.group(1)), p.group(3), p.group(2), m.group(1), name, insn.get(name, "")))
    total += int(m.group(1))
    count += 1
for r in sorted(rows, key=lambda r: (r[0], r[1])):
    print(*r)
print("total", total, count)
PY
python3 "$T/aliases.py" "$ON" >"$T/on"
python3 "$T/aliases.py" "$OFF" >"$T/off"
XLA_ALIAS=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["donate"]["memory_analysis"]["alias_size_in_bytes"])' "$P/memory_analysis.json")
ON_TOTAL=$(tail -n 1 "$T/on")
is "total $XLA_ALIAS 8" "$ON_TOTAL" "donate: 8 donated parameters, as many bytes as XLA's alias_size_in_bytes"
is "total 0 0" "$(cat "$T/off")" "base: none"
sed '$d' "$T/on" >"$T/on.list"

# ---- the figures
run_hlodiff 0 "stat --json donate" stat --json "$ON"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("total", d["aliased_bytes"], d["aliased_parameters"])
for a in d["aliases"]:
    print(a["parameter"], a["shape_index"], a["shape"], a["bytes"], a["name"], a["op_name"])
' "$T/out" >"$T/got"
{ tail -n 1 "$T/on"; cat "$T/on.list"; } >"$T/want"
is_file "$T/want" "$T/got" "stat --json donate: aliased_bytes, aliased_parameters, each alias (names, op_names)"

# ---- donation on -> off
run_hlodiff 1 "default gate, donation on -> off: exit 1" "$ON" "$OFF"
ok_cmd "text: the rule" grep -qF "error <default.rules>:32: error lost aliases" "$T/out"
ok_cmd "text: 8 lost" grep -qF "aliased_parameters: 8 -> 0 (-8, -100.0%); 8 lost" "$T/out"
n=0
while read -r num idx shape bytes name op; do
	grep -qF "lost alias parameter $num $idx: $shape, $bytes bytes, $name (op_name \"$op\"); NEW's allocation " "$T/out" ||
		{ n=$((n + 1)); diag "not in the text report: parameter $num"; }
done <"$T/on.list"
is 0 "$n" "text: each of the 8 parameters named with shape, bytes, name and op_name"
cp "$T/out" "$T/text"

for f in markdown junit github; do
	run_hlodiff 1 "--format $f, on -> off: exit 1" --format "$f" "$ON" "$OFF"
	n=0
	while read -r num idx shape bytes name op; do
		grep -qF "lost alias parameter $num $idx: $shape, $bytes bytes, $name" "$T/out" ||
			{ n=$((n + 1)); diag "$f: parameter $num not named"; }
	done <"$T/on.list"
	is 0 "$n" "--format $f: each of the 8 parameters named"
done
run_hlodiff 1 "--format json, on -> off: exit 1" --format json "$ON" "$OFF"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [x for x in d["rules"]["verdicts"] if x["condition"] == "any_lost"][0]
print("total", v["lost_aliases_total"], v["result"], v["old"], v["new"])
for a in v["lost_aliases"]:
    print(a["parameter"], a["shape_index"], a["shape"], a["bytes"], a["name"], a["op_name"], a["in_new"])
' "$T/out" >"$T/got"
{ echo "total 8 violated 8 0"; sed 's/$/ not_aliased/' "$T/on.list"; } >"$T/want"
is_file "$T/want" "$T/got" "JSON: the verdict and the 8 lost aliases"

# ---- donation off -> on, and each side against itself
run_hlodiff 0 "default gate, donation off -> on: exit 0" "$OFF" "$ON"
ok_cmd "off -> on: lost aliases passes" grep -qF "ok <default.rules>:32: error lost aliases (0 -> 8 aliased, 0 lost)" "$T/out"
run_hlodiff 0 "donate -> donate: exit 0" "$ON" "$ON"
run_hlodiff 0 "--no-rules, on -> off: exit 0" --no-rules "$ON" "$OFF"

# ---- the generated corpus, when present: a real TPU pair with a new prefetch
X=${HD_XLA:-$HD_SRCDIR/tests/xla}
S=$X/tpu/scan_layers
if [ -d "$S/base" ] && [ -d "$S/remat" ] && [ -d "$S/same" ]; then
	B=$(ls "$S"/base/*after_optimizations-buffer-assignment.txt)
	R=$(ls "$S"/remat/*after_optimizations-buffer-assignment.txt)
	Q=$(ls "$S"/same/*after_optimizations-buffer-assignment.txt)
	# prefetch destinations: the first tuple element of each copy-start
	# instruction (in the dump or its -values companion, each instruction
	# once) that is in S(1) while the second, the source, is in space 0
	pf() { cat "$1" "${1%.txt}-values.txt" 2>/dev/null | grep '^ from instruction: %copy-start[.0-9]* = (' | sort -u |
		awk '{ s = $0; sub(/^ from instruction: %[^ ]* = \(/, "", s)
		split(s, e, ", "); if (e[1] ~ /S\(1\)/ && e[2] !~ /S\([1-9]/) print e[1] }' | sort | uniq -c; }
	pf "$B" >"$T/pf.base"
	pf "$R" >"$T/pf.remat"
	NEWPF=$(diff "$T/pf.base" "$T/pf.remat" | sed -n 's/^> *[0-9]* //p' | head -n 1)
	ok_cmd "tpu scan_layers: remat has a prefetch destination shape base has not ($NEWPF)" test -n "$NEWPF"
	run_hlodiff 1 "tpu scan_layers base -> remat (a new prefetch): exit 1" "$B" "$R"
	ok_cmd "tpu scan_layers: the new prefetch is the error" grep -qF "error <default.rules>:21: error new prefetches" "$T/out"
	ok_cmd "tpu scan_layers: the new prefetch named with its shape" grep -qF ": $NEWPF, " "$T/out"
	ok_cmd "tpu scan_layers: space 0 -> 1" grep -q "^    new prefetch copy-start[.0-9]*: .*, space 0 (HBM) -> 1 (VMEM)" "$T/out"
	run_hlodiff 0 "tpu scan_layers base -> same (recompiled): exit 0" "$B" "$Q"
else
	for i in 1 2 3 4 5 6; do skip "no generated corpus at $X (tests/xla or HD_XLA)"; done
fi

done_testing
