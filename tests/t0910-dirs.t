#!/bin/sh
# Directory mode: hlodiff OLD_DIR NEW_DIR pairs the *-buffer-assignment.txt
# dumps by module name and compares each pair (batch.h).  Edge cases: two
# compiles of one module, a module on one side only, unrelated files,
# split companions, subdirectories (ignored), .gz, the exit status (the
# worst), rules scoped per module, -j 1 and -j 4 byte for byte.
. "$(dirname "$0")/lib.sh"

D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
G=$HD_SRCDIR/golden/formats
cd "$T" || exit 1

ba=after_optimizations-buffer-assignment.txt
mkdir old new
cp "$D/tpu-splash_attention-0035.txt" "old/module_0035.jit_splash.cl_1.$ba"
cp "$D/tpu-splash_attention-0044.txt" "new/module_0044.jit_splash.cl_1.$ba"
cp "$D/seed-000.txt" "old/module_0021.jit__normal.$ba"
cp "$D/seed-000.txt" "old/module_0029.jit__normal.$ba"
cp "$D/seed-000.txt" "new/module_0041.jit__normal.$ba"
cp "$D/seed-001.txt" "old/module_0015.jit__truncated_normal.cpu_$ba"
gzip -c "$D/seed-001.txt" >"new/module_0017.jit__truncated_normal.cpu_$ba.gz"
cp "$D/seed-002.txt" "new/1700000000000.module_0051.jit_mini_attention.$ba"
echo 'not a dump' >new/README
cp "$D/seed-002.txt" new/module_0051.jit_mini_attention.after_optimizations-memory-usage-report.txt
printf 'values\n' >"new/module_0060.jit_split.after_optimizations-buffer-assignment-values.txt"
mkdir new/sub
cp "$D/seed-003.txt" "new/sub/module_0099.jit_nested.$ba"

run_hlodiff 1 "two directories: exit 1 (the splash kernel grew)" old new
cp "$T/out" "$T/dirs.txt"
is_file "$G/dirs.text" "$T/out" "directory report matches golden/formats/dirs.text"
ok_cmd "summary: one row per module" grep -q "^hlodiff: 5 modules, old -> new: 3 compared, 1 only in OLD, 1 only in NEW; 1 failed a rule" "$T/out"
ok_cmd "two compiles of jit__normal: the first paired" grep -q '^jit__normal#1 .* ok$' "$T/out"
ok_cmd "two compiles of jit__normal: the second only in OLD" grep -q '^jit__normal#2 .*only in OLD$' "$T/out"
ok_cmd "the ambiguity is reported" grep -q '^note: jit__normal: 2 compiles in OLD, 1 in NEW: paired by content: #1 module_0021 -> module_0041 identical files, #2 module_0029 only in OLD$' "$T/out"
ok_cmd "a timestamped name pairs by module name (only in NEW here)" grep -q '^jit_mini_attention .*only in NEW$' "$T/out"
ok_cmd ".gz dump found and paired" grep -q "^== jit__truncated_normal: old/module_0015.jit__truncated_normal.cpu_$ba -> new/module_0017.jit__truncated_normal.cpu_$ba.gz" "$T/out"
ok_cmd "the failing module says FAIL" grep -q '^jit_splash .*FAIL: 2 errors$' "$T/out"
ok_cmd "subdirectories are not recursed" sh -c "! grep -q jit_nested '$T/out'"
ok_cmd "companions and reports are not modules" sh -c "! grep -q -e jit_split -e README -e memory-usage '$T/out'"
ok_cmd "each compared module's report follows" grep -q '^rules: <default.rules>, module jit_splash: 2 violated' "$T/out"

run_hlodiff 1 "--summary: the table only" --summary old new
is 8 "$(wc -l <"$T/out" | tr -d ' ')" "--summary: 8 lines (title, header, 5 rows, note)"

# ---- every format, all at once, -j 1 against -j 4 ----------------------------------
run_hlodiff 1 "-j 1, every file output" -j 1 --json="$T/j1.json" --markdown "$T/j1.md" \
	--junit "$T/j1.xml" --github "$T/j1.gh" --text "$T/j1.txt" old new
cp "$T/out" "$T/j1.out"
run_hlodiff 1 "-j 4, every file output" -j4 --json="$T/j4.json" --markdown "$T/j4.md" \
	--junit "$T/j4.xml" --github "$T/j4.gh" --text "$T/j4.txt" old new
cp "$T/out" "$T/j4.out"
for f in out json md xml gh txt; do
	is_file "$T/j1.$f" "$T/j4.$f" "-j 1 and -j 4: identical $f"
done
is_file "$T/dirs.txt" "$T/j1.txt" "--text FILE holds the whole report (not just the summary)"
is_file "$G/dirs.markdown" "$T/j1.md" "directory Markdown matches golden/formats/dirs.markdown"
is_file "$G/dirs.junit" "$T/j1.xml" "directory JUnit matches golden/formats/dirs.junit"
is_file "$G/dirs.github" "$T/j1.gh" "directory annotations match golden/formats/dirs.github"
python3 - "$T/j1.json" >"$T/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["mode"] == "directories" and d["status"] == 1
assert [m["module"] for m in d["modules"]] == ["jit__normal#1", "jit__normal#2", "jit__truncated_normal", "jit_mini_attention", "jit_splash"], d["modules"]
s = d["summary"]
assert (s["modules"], s["compared"], s["only_old"], s["only_new"], s["failed"], s["violated"]) == (5, 3, 1, 1, 0, 1), s
m = d["modules"][4]
assert m["state"] == "compared" and m["status"] == 1 and m["rules"]["errors"] == 2
assert m["report"]["schema"] == 1 and m["report"]["rules"]["module"] == "jit_splash"
assert d["modules"][1]["state"] == "only_old" and d["modules"][1]["report"] is None
assert d["modules"][3]["total_bytes"]["old"] is None and d["modules"][3]["total_bytes"]["new"] > 0
PY
is "" "$(cat "$T/py.out")" "directory JSON: valid, modules in order, summary and per-module reports"
cat >"$T/junit.py" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(len(root.findall("testsuite")), root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped"))
PY
is "5 26 2 0 2" "$(python3 "$T/junit.py" "$T/j1.xml")" "directory JUnit: 5 suites; one-sided modules skipped"
run_hlodiff 1 "--format json on standard output" -j 3 --format json old new
is_file "$T/j1.json" "$T/out" "JSON on standard output equals --json=FILE"

# ---- rules scoped per module --------------------------------------------------------
cat >"$T/scoped.rules" <<'R'
module "jit_splash" {
	error total_bytes grows by more than 1%
}
module "jit__*" {
	error values grows by more than 1000
}
R
run_hlodiff 1 "module scopes: exit 1" --summary --rules "$T/scoped.rules" old new
ok_cmd "module scopes: jit_splash checked by its block" grep -q '^jit_splash .*FAIL: 1 error$' "$T/out"
ok_cmd "module scopes: jit__normal by the other" grep -q '^jit__normal#1 .* ok$' "$T/out"
run_hlodiff 1 "module scopes in JSON" --format json --rules "$T/scoped.rules" old new
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {m["module"]: [v["rule"] for v in m["report"]["rules"]["verdicts"]] for m in d["modules"] if m["report"]}
assert r["jit_splash"] == ["error total_bytes grows by more than 1%"], r
assert r["jit__normal#1"] == ["error values grows by more than 1000"], r
' "$T/out" >"$T/py.out" 2>&1
is "" "$(cat "$T/py.out")" "module scopes: each module gets the rules of its block"
run_hlodiff 0 "--no-rules: exit 0" --summary --no-rules old new
ok_cmd "--no-rules: verdict 'compared'" grep -q '^jit_splash .* compared$' "$T/out"

# ---- the worst status wins ---------------------------------------------------------
mkdir bad
cp old/* bad/
printf 'garbage\n' >"bad/module_0001.jit_broken.$ba"
cp "new/module_0044.jit_splash.cl_1.$ba" "new/module_0002.jit_broken.$ba"
run_hlodiff 2 "an unreadable dump: exit 2 (worse than the violation)" bad new
ok_cmd "an unreadable dump: its row" grep -q '^jit_broken .*not read (input error)$' "$T/out"
ok_cmd "an unreadable dump: the message" grep -q "^hlodiff: bad/module_0001.jit_broken.$ba:1: " "$T/err"
ok_cmd "an unreadable dump: the other modules still reported" grep -q '^== jit_splash: ' "$T/out"
rm "new/module_0002.jit_broken.$ba"

# ---- errors --------------------------------------------------------------------------
mkdir empty
run_hlodiff 2 "an empty directory: exit 2" empty new
ok_cmd "an empty directory: says so" grep -q "^hlodiff: empty: no \*-buffer-assignment.txt dumps or golden files in this directory" "$T/err"
run_hlodiff 2 "a directory and a file: exit 2" old "$D/seed-000.txt"
ok_cmd "a directory and a file: says so" grep -q "hlodiff: OLD and NEW must both be dumps or both be directories" "$T/err"
run_hlodiff 2 "--html with directories, unwritable: exit 2" --html "$T/no/such/dir/x.html" old new
ok_cmd "--html with directories, unwritable: says so" grep -q "^hlodiff: $T/no/such/dir/x.html: cannot write: No such file or directory" "$T/err"
chmod 000 empty
if [ -r empty ]; then
	skip "running as root: directories stay readable"
	skip "running as root"
else
	run_hlodiff 2 "an unreadable directory: exit 2" empty new
	ok_cmd "an unreadable directory: says so" grep -q "^hlodiff: empty: cannot read the directory: Permission denied" "$T/err"
fi
chmod 755 empty
usage() {
	d=$1
	m=$2
	shift 2
	run_hlodiff 2 "$d: exit 2" "$@"
	ok_cmd "$d: says '$m'" grep -qF "hlodiff: $m" "$T/err"
}
usage "-j 0" "-j takes a whole number >= 1, not '0'" -j 0 old new
usage "-j without a number" "-j takes a whole number >= 1, not ''" old new -j

done_testing
