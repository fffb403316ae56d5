#!/bin/sh
# The default gate on new transfers (issue 22): a new prefetch, eviction or
# cross-program prefetch between HBM and VMEM fails `hlodiff OLD NEW` with
# no options (exit 1) and names the copy; a new host offload only warns.
# --no-rules and a user's own rules file behave as before.
#
# OLD is tests/rules/seed-000-noprefetch.txt, seed 000 with its one
# prefetch taken out (t0410 says how).  NEW is seed 000, or seed 000 with
# its copy-start turned into another class by editing the instruction's
# shape or attributes below.  What the report must say is read from the
# dumps here with awk, not from hlodiff.
. "$(dirname "$0")/lib.sh"
need_hlodiff
cd "$HD_SRCDIR" || bail "cannot cd to $HD_SRCDIR"

T=$TMPDIR_T
S=tests/data/seed-000.txt
OLD=tests/rules/seed-000-noprefetch.txt

# The copy-start of seed 000: its defining line, destination shape (the
# first element of its tuple shape), the size= of its {0} value, its
# operand and that operand's op_name.
CS_LINE=$(grep -m1 '^ from instruction: %copy-start = ' "$S")
DEST=$(printf '%s\n' "$CS_LINE" | sed 's/^ from instruction: %copy-start = (\([^,]*\), .*/\1/')
SRC=$(printf '%s\n' "$CS_LINE" | sed 's/^ from instruction: %copy-start = ([^,]*, \([^,]*\), .*/\1/')
BYTES=$(awk '/^ value: <[0-9]+ copy-start\{0\} / { sub(/.*\(size=/, ""); sub(/,.*/, ""); print; exit }' "$S")
OPND=$(printf '%s\n' "$CS_LINE" | sed 's/.*copy-start(%\([^)]*\)).*/\1/')
OPND_OP=$(awk -v n="$OPND" 'index($0, " from instruction: %" n " = ") == 1 {
	if (match($0, /op_name="[^"]*"/)) print substr($0, RSTART + 9, RLENGTH - 10); exit }' "$S")
is "u32[2]{0:T(128)S(1)} u32[2]{0:T(128)} 512 Arg_0.1 key" "$DEST $SRC $BYTES $OPND $OPND_OP" \
	"seed 000: the copy-start read from the dump (prefetch into S(1))"

# ---- the issue's case: a new prefetch fails the default gate
run_hlodiff 1 "default gate: seed 000 without -> with its prefetch: exit 1" "$OLD" "$S"
ok_cmd "the error names the rule" grep -qF "error <default.rules>:21: error new prefetches" "$T/out"
ok_cmd "the new prefetch is named (shape, bytes, spaces, operand, op_name)" \
	grep -qF "new prefetch copy-start: $DEST, $BYTES bytes, space 0 (HBM) -> 1 (VMEM), from $OPND (op_name \"$OPND_OP\")" "$T/out"
run_hlodiff 0 "default gate: the prefetch removed passes: exit 0" "$S" "$OLD"
run_hlodiff 0 "--no-rules: the new prefetch checks nothing: exit 0" --no-rules "$OLD" "$S"
not_ok_cmd "--no-rules: no rules section" grep -q "^rules:" "$T/out"

# ---- a user's own rules file replaces the defaults, as before
printf 'error total_bytes grows by more than 1%%\n' >"$T/own.rules"
run_hlodiff 0 "own rules without a copy rule: the new prefetch passes" --rules "$T/own.rules" "$OLD" "$S"
ok_cmd "own rules: only the file's rule is checked" grep -q "^rules: $T/own.rules.*: 0 violated, 1 passed" "$T/out"
printf 'warn new prefetches\n' >"$T/warn.rules"
run_hlodiff 0 "own rules 'warn new prefetches': warns, exit 0" --rules "$T/warn.rules" "$OLD" "$S"
ok_cmd "own rules: the warning" grep -qF "warning $T/warn.rules:1: warn new prefetches" "$T/out"
run_hlodiff 1 "own rules 'warn new prefetches' --werror: exit 1" --werror --rules "$T/warn.rules" "$OLD" "$S"

# ---- a new eviction: the copy-start's destination is space 0, its source S(1)
sed 's/^\( from instruction: %copy-start = (\)u32\[2\]{0:T(128)S(1)}, u32\[2\]{0:T(128)}, /\1u32[2]{0:T(128)}, u32[2]{0:T(128)S(1)}, /' \
	"$S" >"$T/seed-000-eviction.txt"
is 3 "$(grep -c 'copy-start = (u32\[2\]{0:T(128)}, u32\[2\]{0:T(128)S(1)}, ' "$T/seed-000-eviction.txt")" \
	"eviction: the three copy-start records edited"
run_hlodiff 1 "default gate: a new eviction: exit 1" "$OLD" "$T/seed-000-eviction.txt"
ok_cmd "eviction: the error names the rule" grep -qF "error <default.rules>:22: error new evictions" "$T/out"
ok_cmd "eviction: the copy named, space 1 -> 0" \
	grep -qF "new eviction copy-start: u32[2]{0:T(128)}, $BYTES bytes, space 1 (VMEM) -> 0 (HBM), from $OPND (op_name \"$OPND_OP\")" "$T/out"

# ---- a new cross-program prefetch: the attribute XLA puts on them
sed 's/^\( from instruction: %copy-start = .*copy-start(%Arg_0\.1)\)$/\1, cross_program_prefetch_index=0/' \
	"$S" >"$T/seed-000-cpp.txt"
is 3 "$(grep -c 'cross_program_prefetch_index=0$' "$T/seed-000-cpp.txt")" \
	"cross-program prefetch: the three copy-start records edited"
run_hlodiff 1 "default gate: a new cross-program prefetch: exit 1" "$OLD" "$T/seed-000-cpp.txt"
ok_cmd "cross-program prefetch: the error names the rule" \
	grep -qF "error <default.rules>:23: error new cross_program_prefetches" "$T/out"
ok_cmd "cross-program prefetch: the copy named" \
	grep -qF "new cross-program-prefetch copy-start: $DEST, $BYTES bytes, space 0 (HBM) -> 1 (VMEM), from $OPND" "$T/out"

# ---- a new host offload only warns
sed 's/^\( from instruction: %copy-start = (\)u32\[2\]{0:T(128)S(1)}, /\1u32[2]{0:T(128)S(5)}, /' \
	"$S" >"$T/seed-000-offload.txt"
run_hlodiff 0 "default gate: a new host offload warns: exit 0" "$OLD" "$T/seed-000-offload.txt"
ok_cmd "host offload: a warning, not an error" \
	grep -qF "warning <default.rules>:27: warn new host_offloads" "$T/out"
ok_cmd "host offload: the copy named, space 0 -> 5" \
	grep -qF "new host-offload copy-start: u32[2]{0:T(128)S(5)}, $BYTES bytes, space 0 (HBM) -> 5 (host)" "$T/out"
ok_cmd "host offload: 0 errors" grep -q "^rules: <default.rules>.*(0 error, 1 warning)" "$T/out"
run_hlodiff 1 "default gate --werror: the host offload fails" --werror "$OLD" "$T/seed-000-offload.txt"

# ---- every output format names the new prefetch and fails
for f in markdown junit github; do
	run_hlodiff 1 "--format $f: the new prefetch: exit 1" --format "$f" "$OLD" "$S"
	ok_cmd "--format $f: names copy-start, its shape and bytes" \
		grep -qF "new prefetch copy-start: $DEST, $BYTES bytes, space 0 " "$T/out"
done
run_hlodiff 1 "--format json: the new prefetch: exit 1" --format json "$OLD" "$S"
"$HLODIFF" --json "$OLD" "$S" >"$T/j.json"
is "error new prefetches|violated|copy-start|$DEST|$BYTES|0|1" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [x for x in d["rules"]["verdicts"] if x["rule"] == "error new prefetches"][0]
c = v["new_copies"][0]
print("|".join(str(x) for x in (v["rule"], v["result"], c["name"], c["shape"], c["bytes"], c["src_space"], c["dst_space"])))
' "$T/j.json")" "JSON: the violated verdict and the copy"

# ---- the built-in rules are rules/default.rules: every rule line of the
# file is reported under its line number
awk '!/^[ \t]*(#|$)/ { print NR ": " $0 }' rules/default.rules >"$T/rule-lines"
run_hlodiff 0 "default gate on a pair with no change: exit 0" "$S" "$S"
n=0
while IFS= read -r l; do
	grep -qF "<default.rules>:$l" "$T/out" || { n=$((n + 1)); diag "not reported: $l"; }
done <"$T/rule-lines"
is "0" "$n" "every rule line of rules/default.rules is in the report, at its line ($(wc -l <"$T/rule-lines") rules)"

done_testing
