#!/bin/sh
# scripts/ci-gate and scripts/nightly: the reports they write, the
# $GITHUB_STEP_SUMMARY they append to, the exit status they pass on.
. "$(dirname "$0")/lib.sh"

D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
cd "$T" || exit 1
export HLODIFF
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY HLODIFF_OPTS

ba=after_optimizations-buffer-assignment.txt
mkdir base change
cp "$D/tpu-splash_attention-0035.txt" "base/module_0035.jit_splash.$ba"
cp "$D/seed-000.txt" "base/module_0021.jit__normal.$ba"
cp "$D/tpu-splash_attention-0044.txt" "change/module_0044.jit_splash.$ba"
cp "$D/seed-000.txt" "change/module_0041.jit__normal.$ba"

"$HD_SRCDIR/scripts/ci-gate" base change out >"$T/gate.out" 2>"$T/gate.err"
is 1 $? "ci-gate: exit 1 (the splash kernel grew)"
for f in hlodiff.md hlodiff.xml hlodiff.txt hlodiff.json; do
	ok_cmd "ci-gate: writes out/$f" test -s "out/$f"
done
ok_cmd "ci-gate: the summary table on standard output" grep -q '^jit_splash .*FAIL: 2 errors$' "$T/gate.out"
ok_cmd "ci-gate: says where the reports are" grep -q '^ci-gate: a memory rule was violated (reports in out/)' "$T/gate.err"
ok_cmd "ci-gate: JUnit valid" python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' out/hlodiff.xml
ok_cmd "ci-gate: JSON valid" python3 -c 'import sys, json; json.load(open(sys.argv[1]))' out/hlodiff.json

printf '# earlier step\n' >"$T/summary.md"
GITHUB_STEP_SUMMARY=$T/summary.md GITHUB_ACTIONS=true \
	"$HD_SRCDIR/scripts/ci-gate" base change out2 >"$T/gh.out" 2>/dev/null
is 1 $? "ci-gate on GitHub Actions: exit 1"
ok_cmd "ci-gate on GitHub Actions: annotations on standard output" grep -q '^::error title=hlodiff jit_splash%3A' "$T/gh.out"
ok_cmd "ci-gate: the Markdown appended to \$GITHUB_STEP_SUMMARY" sh -c "head -n 1 '$T/summary.md' | grep -q '^# earlier step' && grep -q '^## hlodiff: 2 modules' '$T/summary.md'"
is "$(cat out2/hlodiff.md)" "$(tail -n +2 "$T/summary.md")" "ci-gate: the summary is the Markdown report"

HLODIFF_OPTS="--no-rules" "$HD_SRCDIR/scripts/ci-gate" base change out3 >/dev/null 2>&1
is 0 $? "ci-gate with HLODIFF_OPTS=--no-rules: exit 0"
"$HD_SRCDIR/scripts/ci-gate" base no-such-dir out4 >/dev/null 2>"$T/bad.err"
is 2 $? "ci-gate on a missing directory: exit 2"
ok_cmd "ci-gate on a missing directory: says hlodiff could not compare" grep -q '^ci-gate: hlodiff could not compare (exit 2)' "$T/bad.err"
"$HD_SRCDIR/scripts/ci-gate" base >/dev/null 2>&1
is 2 $? "ci-gate with one argument: exit 2"
"$HD_SRCDIR/scripts/ci-gate" "$D/tpu-splash_attention-0035.txt" "$D/tpu-splash_attention-0044.txt" one >/dev/null 2>&1
is 1 $? "ci-gate on two dump files: exit 1"
ok_cmd "ci-gate on two dump files: JUnit written" test -s one/hlodiff.xml

"$HLODIFF" golden update goldens base >/dev/null
"$HD_SRCDIR/scripts/nightly" goldens base night >"$T/n.out" 2>"$T/n.err"
is 0 $? "nightly against its own goldens: exit 0"
for f in nightly.md nightly.xml nightly.txt nightly.json; do
	ok_cmd "nightly: writes night/$f" test -s "night/$f"
done
ok_cmd "nightly: summary table" grep -q '^hlodiff: 2 modules, goldens -> base: 2 compared; 0 failed a rule' "$T/n.out"
: >"$T/s2.md"
GITHUB_STEP_SUMMARY=$T/s2.md "$HD_SRCDIR/scripts/nightly" goldens change night2 >/dev/null 2>&1
is 1 $? "nightly against a grown dump: exit 1"
ok_cmd "nightly: \$GITHUB_STEP_SUMMARY written" grep -q ':x: FAIL: 2 errors' "$T/s2.md"
cp "$D/seed-003.txt" "change/module_0050.jit_other.$ba"
"$HD_SRCDIR/scripts/nightly" goldens change night3 >/dev/null 2>&1
is 2 $? "nightly with a module without a golden: exit 2"
HLODIFF_OPTS=--allow-new "$HD_SRCDIR/scripts/nightly" goldens change night4 >/dev/null 2>&1
is 1 $? "nightly with HLODIFF_OPTS=--allow-new: exit 1 (the violation)"

done_testing
