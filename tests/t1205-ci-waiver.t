#!/bin/sh
# docs/ci.md's worked example of accepting a deliberate regression: a
# team's copy of rules/default.rules with a waiver and its reason.  The
# commands are run as the document gives them (in a scratch directory
# holding ci/memory.rules) and the report lines it shows must be what
# hlodiff prints.
. "$(dirname "$0")/lib.sh"
need_hlodiff
cd "$HD_SRCDIR" || bail "cannot cd to $HD_SRCDIR"

T=$TMPDIR_T
DOC=docs/ci.md
mkdir -p "$T/ex/ci" && ln -s "$HD_SRCDIR/tests" "$T/ex/tests" || bail "cannot set up $T/ex"

# the waiver lines of the example, from the document
grep '^waive name="copy-start" because ' "$DOC" >"$T/prefetch.waive"
grep '^waive op_name="zeta_acc" because ' "$DOC" >"$T/alias.waive"
is "1 1" "$(wc -l <"$T/prefetch.waive" | tr -d ' ') $(wc -l <"$T/alias.waive" | tr -d ' ')" \
	"docs/ci.md has the two waivers of the example"

# the first change: the default rules, the comment and the prefetch waiver
{ cat rules/default.rules; printf '\n'; sed -n '/^# Accepted regressions: one line each/,/^# made it; delete the line/p' "$DOC"; cat "$T/prefetch.waive"; } \
	>"$T/ex/ci/memory.rules"
cd "$T/ex" || bail "cannot cd to $T/ex"
run_hlodiff 1 "example: the default rules fail on the new prefetch" \
	tests/rules/seed-000-noprefetch.txt tests/data/seed-000.txt
grep -F '    new prefetch copy-start: ' "$HD_SRCDIR/$DOC" | head -n 1 >"$T/want"
ok_cmd "example: the new prefetch line of the document" grep -qxF -f "$T/want" "$T/out"
run_hlodiff 0 "example: the team's rules with the waiver pass" \
	--rules ci/memory.rules tests/rules/seed-000-noprefetch.txt tests/data/seed-000.txt
sed -n '/^rules: ci\/memory.rules, module seed-000:/,/^  waived /p' "$HD_SRCDIR/$DOC" >"$T/want"
sed -n '/^rules: ci\/memory.rules, module seed-000:/,/^  waived /p' "$T/out" >"$T/got"
is_file "$T/want" "$T/got" "example: the rules section is the document's, byte for byte"

# the later change: the prefetch waiver deleted, the donation waiver added
sed '/^waive name="copy-start"/d' ci/memory.rules >ci/m && cat "$T/alias.waive" >>ci/m && mv ci/m ci/memory.rules
sed '2s/, output shape is |[^|]*|, maybe-live-out:$/:/' tests/data/gpu-solve_batch_and_update-donated.txt >solve-off.txt
run_hlodiff 1 "example: the default rules fail on the lost donation" \
	tests/data/gpu-solve_batch_and_update-donated.txt solve-off.txt
run_hlodiff 0 "example: the waiver by op_name passes" \
	--rules ci/memory.rules tests/data/gpu-solve_batch_and_update-donated.txt solve-off.txt
for l in "  ok ci/memory.rules:32: error lost aliases (1 -> 0" "  waived ci/memory.rules:36: waive op_name=" "    and 1 lost alias of OLD"; do
	grep -F "$l" "$HD_SRCDIR/$DOC" | head -n 1 >"$T/want"
	ok_cmd "example: '$l...' as in the document" grep -qxF -f "$T/want" "$T/out"
done

done_testing
