#!/bin/sh
# Donation (issue 22): aliased_bytes and aliased_parameters, the donated
# parameters an output reuses (an allocation that is both "parameter N"
# and "maybe-live-out"), in stat and in the diff; the rule 'lost aliases'
# (an error in the default rules) naming each parameter that OLD aliases
# and NEW does not, in every output format.
#
# ON is tests/data/gpu-solve_batch_and_update-donated.txt, a real GPU dump
# (corpus: lorraxsbx-si04assay-hlotext module 0157) whose parameter 2 is
# donated.  OFF is the same dump with that allocation's ", output shape is
# |...|, maybe-live-out" taken out (made below with sed): the flags of a
# compile without the donation.  Every expected figure is read from the
# dumps by the Python below, not by hlodiff.
. "$(dirname "$0")/lib.sh"
need_hlodiff
cd "$HD_SRCDIR" || bail "cannot cd to $HD_SRCDIR"

T=$TMPDIR_T
ON=tests/data/gpu-solve_batch_and_update-donated.txt
OFF=$T/gpu-solve_batch_and_update-off.txt
sed '/^allocation [0-9]*: .*, parameter [0-9]*, .*maybe-live-out:$/ s/, output shape is |[^|]*|, maybe-live-out:$/:/' \
	"$ON" >"$OFF"
is 1 "$(diff "$ON" "$OFF" | grep -c '^<')" "OFF differs from ON in one line (the allocation header)"

# aliases.py DUMP: one line per aliased allocation, "NUMBER INDEX SHAPE
# SIZE NAME OP_NAME", then "total BYTES COUNT".  The parameter's name is
# the value of the allocation defined by a parameter(N) instruction (in
# Used values); its op_name that instruction's metadata op_name.
cat >"$T/aliases.py" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
hdr = re.compile(r"^allocation (\d+): size (\d+)(.*):$")
allocs, cur = [], None
for l in lines:
    m = hdr.match(l)
    if m:
        flags = m.group(3)
        cur = {"size": int(m.group(2)), "flags": flags, "values": []}
        allocs.append(cur)
    elif l.startswith(" value: <") and cur is not None:
        cur["values"].append(re.match(r" value: <\d+ ([^ >{]+)", l).group(1))
    elif not l.startswith(" "):
        cur = None
insn = {}
for l in lines:
    m = re.match(r"^ from instruction: %([^ ]+) = .* parameter\((\d+)\)(.*)$", l)
    if m:
        op = re.search(r'op_name="([^"]*)"', m.group(3))
        insn[m.group(1)] = op.group(1) if op else ""
total = count = 0
for a in allocs:
    p = re.search(r", parameter (\d+), shape \|([^|]*)\| at ShapeIndex (\{[^}]*\})", a["flags"])
    if not p or ", maybe-live-out" not in a["flags"]:
        continue
    name = next((v for v in a["values"] if v in insn), "")
    print(p.group(1), p.group(3), p.group(2), a["size"], name, insn.get(name, ""))
    total += a["size"]
    count += 1
print("total", total, count)
PY
python3 "$T/aliases.py" "$ON" >"$T/on.aliases"
python3 "$T/aliases.py" "$OFF" >"$T/off.aliases"
read -r NUM IDX SHAPE BYTES PNAME POP <"$T/on.aliases"
is "total $BYTES 1" "$(tail -n 1 "$T/on.aliases")" "ON: one aliased parameter (independent reading)"
is "total 0 0" "$(cat "$T/off.aliases")" "OFF: none"
is "2 {} c128[64,240,864] param.4 zeta_acc" "$NUM $IDX $SHAPE $PNAME $POP" "ON: parameter 2, read from the dump"

# ---- stat, text and JSON
run_hlodiff 0 "stat ON" stat "$ON"
ok_cmd "stat ON: the aliased parameters section" \
	grep -q "^aliased parameters  1  $BYTES bytes" "$T/out"
ok_cmd "stat ON: the parameter, its shape, name and op_name" \
	grep -qF "parameter $NUM $IDX" "$T/out"
ok_cmd "stat ON: its line" grep -qE "^  parameter $NUM \{\} +$BYTES  $(printf '%s' "$SHAPE" | sed 's/[][]/\\&/g')  $PNAME \(op_name \"$POP\"\)$" "$T/out"
run_hlodiff 0 "stat OFF" stat "$OFF"
not_ok_cmd "stat OFF: no aliased parameters section" grep -q "^aliased parameters" "$T/out"
run_hlodiff 0 "stat --json ON" stat --json "$ON"
is "$BYTES 1 $NUM $IDX $SHAPE $BYTES $PNAME $POP" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a = d["aliases"][0]
print(d["aliased_bytes"], d["aliased_parameters"], a["parameter"], a["shape_index"], a["shape"], a["bytes"], a["name"], a["op_name"])
' "$T/out")" "stat --json ON: aliased_bytes, aliased_parameters, the alias"

# ---- the default gate: donation on -> off fails, off -> on passes
run_hlodiff 1 "default gate, donation on -> off: exit 1" "$ON" "$OFF"
LOST="lost alias parameter $NUM $IDX: $SHAPE, $BYTES bytes, $PNAME (op_name \"$POP\")"
ok_cmd "text: the rule" grep -qF "error <default.rules>:32: error lost aliases" "$T/out"
ok_cmd "text: the numbers" grep -qF "aliased_parameters: 1 -> 0 (-1, -100.0%); 1 lost" "$T/out"
ok_cmd "text: the parameter named" grep -qF "$LOST; NEW's allocation 0 ($BYTES bytes) is not reused by an output" "$T/out"
ok_cmd "text: the figure rows" grep -qE "^aliased_bytes +$BYTES +0 +-$BYTES " "$T/out"
ok_cmd "text: aliased_parameters row" grep -qE "^aliased_parameters +1 +0 +-1 " "$T/out"
run_hlodiff 0 "default gate, donation off -> on: exit 0" "$OFF" "$ON"
ok_cmd "off -> on: the rule passes" grep -qF "ok <default.rules>:32: error lost aliases (0 -> 1 aliased, 0 lost)" "$T/out"
run_hlodiff 0 "default gate, on -> on: exit 0" "$ON" "$ON"

for f in markdown junit github; do
	run_hlodiff 1 "--format $f, on -> off: exit 1" --format "$f" "$ON" "$OFF"
	ok_cmd "--format $f: the parameter named" \
		grep -qF "lost alias parameter $NUM $IDX: $SHAPE, $BYTES bytes, $PNAME" "$T/out"
	ok_cmd "--format $f: its op_name" grep -qE "op_name (\"|&quot;)$POP(\"|&quot;)" "$T/out"
done
run_hlodiff 1 "--format json, on -> off: exit 1" --format json "$ON" "$OFF"
is "violated any_lost 1 0 1 $NUM $IDX $SHAPE $BYTES $PNAME $POP not_aliased $BYTES" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [x for x in d["rules"]["verdicts"] if x["rule"] == "error lost aliases"][0]
a = v["lost_aliases"][0]
print(v["result"], v["condition"], v["old"], v["new"], v["lost_aliases_total"], a["parameter"], a["shape_index"], a["shape"], a["bytes"], a["name"], a["op_name"], a["in_new"], a["new_bytes"])
' "$T/out")" "JSON: the verdict and the lost alias"
is "$BYTES 0 1 0" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["old"]["aliased_bytes"], d["new"]["aliased_bytes"], d["old"]["aliased_parameters"], d["new"]["aliased_parameters"])
' "$T/out")" "JSON: the figures of both sides"

# ---- --no-rules and a user's own rules file behave as before
run_hlodiff 0 "--no-rules, on -> off: exit 0" --no-rules "$ON" "$OFF"
printf 'error total_bytes grows by more than 1%%\n' >"$T/own.rules"
run_hlodiff 0 "own rules without 'lost aliases', on -> off: exit 0" --rules "$T/own.rules" "$ON" "$OFF"
printf 'warn lost aliases\n' >"$T/warn.rules"
run_hlodiff 0 "own 'warn lost aliases': warns, exit 0" --rules "$T/warn.rules" "$ON" "$OFF"
ok_cmd "own 'warn lost aliases': the warning" grep -qF "warning $T/warn.rules:1: warn lost aliases" "$T/out"
run_hlodiff 1 "own 'warn lost aliases' --werror: exit 1" --werror --rules "$T/warn.rules" "$ON" "$OFF"
printf 'error aliased_bytes grows by more than 0 B\nerror aliased_bytes above 100 MiB\n' >"$T/bytes.rules"
run_hlodiff 1 "aliased_bytes as a metric: off -> on grows, and is above 100 MiB" --rules "$T/bytes.rules" "$OFF" "$ON"
ok_cmd "aliased_bytes: 0 -> BYTES" grep -qF "aliased_bytes: 0 -> $BYTES (+$BYTES, new); allowed 0" "$T/out"

# ---- a waiver with a reason accepts the lost alias
printf 'error lost aliases\nwaive op_name="%s" because "the step no longer updates it in place"\n' "$POP" >"$T/waive.rules"
run_hlodiff 0 "waived by op_name: exit 0" --rules "$T/waive.rules" "$ON" "$OFF"
ok_cmd "waived: the rule passes" grep -qF "ok $T/waive.rules:1: error lost aliases (1 -> 0 aliased, 0 lost)" "$T/out"
ok_cmd "waived: the waiver says what it covered" grep -qF "and 1 lost alias of OLD" "$T/out"
printf 'error lost aliases\nwaive name="%s" because "renamed on purpose"\n' "$PNAME" >"$T/waive2.rules"
run_hlodiff 0 "waived by the parameter's name: exit 0" --rules "$T/waive2.rules" "$ON" "$OFF"

# ---- parameters are matched by number and shape index: a renumbered
# parameter is a lost alias ("not a parameter of NEW")
sed '2s/, parameter 2, /, parameter 5, /' "$ON" >"$T/renumbered.txt"
run_hlodiff 1 "parameter 2 renumbered 5 (still donated): exit 1" "$ON" "$T/renumbered.txt"
ok_cmd "renumbered: parameter 2 lost, not a parameter of NEW" grep -qF "$LOST; not a parameter of NEW" "$T/out"

# ---- a golden file keeps parameter numbers: golden of ON as OLD
run_hlodiff 0 "golden update of ON" golden update "$T/g" "$ON"
run_hlodiff 1 "golden of ON -> OFF: exit 1" "$T/g/gpu-solve_batch_and_update-donated.golden" "$OFF"
ok_cmd "golden as OLD: the parameter named" grep -qF "$LOST;" "$T/out"
# one without them (the 'a' lines' parameter fields left out, and no
# parameter instruction to take them from): the rule cannot be decided
sed '/^a\t/ s/^\(a\t[0-9]*\tpo*m*\)\t.*/\1/; /^i\t/ s/^\(i\t[^\t]*\t\)P\t/\1custom-call\t/' \
	"$T/g/gpu-solve_batch_and_update-donated.golden" >"$T/old.golden"
run_hlodiff 0 "golden without parameter numbers -> OFF: exit 0" "$T/old.golden" "$OFF"
ok_cmd "golden without parameter numbers: not applicable, says why" \
	grep -qF "n/a <default.rules>:32: error lost aliases (OLD has no parameter numbers" "$T/out"

# ---- a malformed dump giving one parameter two allocations, one aliased:
# compared with itself nothing is lost
printf 'BufferAssignment:\nallocation 0: size 16, parameter 0, shape |f32[4]| at ShapeIndex {}:\n value: <1 p0 @0> (size=16,offset=0): f32[4]{0}\nallocation 1: size 16, parameter 0, shape |f32[4]| at ShapeIndex {}, maybe-live-out:\n value: <2 p1 @0> (size=16,offset=0): f32[4]{0}\n\nTotal bytes used: 32 (32B)\n' >"$T/dup.txt"
for order in 1 2; do
	run_hlodiff 0 "parameter 0 twice, against itself ($order): exit 0" "$T/dup.txt" "$T/dup.txt"
	ok_cmd "parameter 0 twice: nothing lost ($order)" grep -qF "ok <default.rules>:32: error lost aliases (1 -> 1 aliased, 0 lost)" "$T/out"
	# the same with the two allocations in the other order
	awk 'NR == 1 { print; next } NR <= 3 { a = a $0 "\n"; next } NR <= 5 { print; next } NR == 6 { printf "%s", a } { print }' \
		"$T/dup.txt" >"$T/dup2.txt" && mv "$T/dup2.txt" "$T/dup.txt"
done

# ---- rules-file errors
printf 'error lost alias\n' >"$T/bad.rules"
run_hlodiff 2 "'lost alias': exit 2" --rules "$T/bad.rules" "$ON" "$OFF"
ok_cmd "'lost alias': the message" grep -qF "$T/bad.rules:1:12: 'lost' takes 'aliases', not 'alias' (e.g. 'error lost aliases')" "$T/err"

# ---- the figures on every dump: aliased_bytes and aliased_parameters of
# stat --json against the independent reading (aliases.py's last line)
n=0
for f in tests/data/*.txt examples/*.txt $(if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS" ]; then corpus_dumps; fi); do
	n=$((n + 1))
	"$HLODIFF" stat --json "$f" >"$T/s$n.json" 2>/dev/null || echo '{}' >"$T/s$n.json"
	printf '%s\t%s\n' "$f" "$T/s$n.json"
done >"$T/dumps"
python3 - "$T/aliases.py" "$T/dumps" >"$T/cmp.out" 2>&1 <<'PY'
import json, subprocess, sys
bad = with_ = 0
for line in open(sys.argv[2]):
    dump, js = line.rstrip("\n").split("\t")
    want = subprocess.run([sys.executable, sys.argv[1], dump], capture_output=True,
                          text=True).stdout.strip().split("\n")[-1]
    d = json.load(open(js))
    got = "total %s %s" % (d.get("aliased_bytes"), d.get("aliased_parameters"))
    if want != got:
        bad += 1
        print("%s: want %s, got %s" % (dump, want, got))
    if not want.endswith(" 0"):
        with_ += 1
print("bad %d with %d" % (bad, with_))
PY
ok_cmd "stat --json aliased figures = independent reading on all $n dumps ($(tail -n 1 "$T/cmp.out"))" \
	grep -q '^bad 0 with' "$T/cmp.out" || diag_file "$T/cmp.out"

done_testing
