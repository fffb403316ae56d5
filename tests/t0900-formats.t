#!/bin/sh
# Report formats on a real pair that violates the default rules (the TPU
# splash-attention kernel compiled twice): every format against its
# golden file, all of them written in one run, JUnit and JSON validated
# with python3, GitHub escapes, warnings and --werror, colour.
# Regenerate on purpose: HD_UPDATE_GOLDEN=1 prove tests/t0900-formats.t
. "$(dirname "$0")/lib.sh"

G=$HD_SRCDIR/golden/formats
T=$TMPDIR_T
cd "$HD_SRCDIR" || exit 1   # file names in the reports are relative
OLD=tests/data/tpu-splash_attention-0035.txt
NEW=tests/data/tpu-splash_attention-0044.txt

# ---- each format on standard output, against golden/ ------------------
for f in text json markdown junit github; do
	run_hlodiff 1 "--format $f: exit 1 (rules violated)" --format $f "$OLD" "$NEW"
	cp "$T/out" "$T/std.$f"
	is_file "$G/splash-0035-0044.$f" "$T/out" "--format $f: matches golden/formats"
done
is_file golden/diff-splash_attention-0035-0044.txt "$T/std.text" \
	"--format text is the text report of before (byte for byte)"
run_hlodiff 1 "--json: exit 1" --json "$OLD" "$NEW"
is_file "$T/std.json" "$T/out" "--json is --format json"

run_hlodiff 1 "markdown with --by: exit 1" --format markdown --by op_name -n 5 "$OLD" "$NEW"
is_file "$G/splash-0035-0044.by-op_name.markdown" "$T/out" "markdown with --by op_name: the breakdown table at the end"
ok_cmd "markdown with --by: a <details> breakdown" grep -q '^<summary>Bytes by op_name: ' "$T/out"

# ---- all formats in one run -----------------------------------------------
run_hlodiff 1 "every file output at once: exit 1" --text "$T/all.text" \
	--json="$T/all.json" --markdown "$T/all.markdown" --junit="$T/all.junit" \
	--github "$T/all.github" --format markdown "$OLD" "$NEW"
is_file "$T/std.markdown" "$T/out" "standard output keeps the --format one"
for f in text json markdown junit github; do
	is_file "$T/std.$f" "$T/all.$f" "--$f FILE: the same bytes as --format $f"
done

# ---- validity ---------------------------------------------------------------
cat >"$T/junit.py" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
tot = {k: 0 for k in ("tests", "failures", "errors", "skipped")}
for s in suites:
    cases = s.findall("testcase")
    assert int(s.get("tests")) == len(cases), (s.get("name"), s.get("tests"), len(cases))
    assert int(s.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
    assert int(s.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
    assert int(s.get("skipped")) == sum(1 for c in cases if c.find("skipped") is not None)
    for k in tot:
        tot[k] += int(s.get(k))
for k in tot:
    assert int(root.get(k)) == tot[k], (k, root.get(k), tot[k])
print("%d %d %d %d %d" % (len(suites), tot["tests"], tot["failures"], tot["errors"], tot["skipped"]))
PY
ok_cmd "JUnit parses with xml.etree, counts add up" python3 "$T/junit.py" "$T/std.junit"
is "1 8 2 0 0" "$(python3 "$T/junit.py" "$T/std.junit")" "JUnit: 1 suite, 8 rules, 2 failures"
ok_cmd "JSON parses with python3's json" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == 1 and d["rules"]["errors"] == 2' "$T/std.json"
is 2 "$(grep -c '^::error title=hlodiff tpu-splash_attention-0044%3A error ' "$T/std.github")" \
	"github: one ::error per violated rule, title escaped"
ok_cmd "github: no file= for the built-in rules" sh -c "! grep -v '::values from this line' '$T/std.github' | grep -q 'file='"
ok_cmd "markdown: the movers are in a <details> section" grep -q '^<summary>Top movers: 11 values matched' "$T/std.markdown"

# ---- rules from a file: file= and line=, escapes -----------------------------
cat >"$T/team.rules" <<'R'
# comment
error total_bytes grows by more than 1% because "budget: 1%, no more"
warn temp_bytes grows by more than 10%
error bytes(op_name="jit(a):b,c") grows by more than 0 B
R
run_hlodiff 1 "github with a rules file: exit 1" --format github --rules "$T/team.rules" "$OLD" "$NEW"
ok_cmd "github: file= and line= of the rule, escapes" grep -qF "::error file=$T/team.rules,line=2,title=hlodiff tpu-splash_attention-0044%3A error total_bytes grows by more than 1%25 because \"budget%3A 1%25%2C no more\"::total_bytes: 18629632 -> 19416064 (+786432, +4.2%25); 1%25 of 18629632 allows +186296%0A  +262144 " "$T/out"
ok_cmd "github: a warning rule is ::warning" grep -q "^::warning file=$T/team.rules,line=3,title=" "$T/out"
is 2 "$(grep '^::' "$T/out" | grep -vc '::values from this line')" "github: only violated rules are annotated"
printf 'error total_bytes above 1 B because "a:b,c%%d"\n' >"$T/esc.rules"
"$HLODIFF" --format github --rules "$T/esc.rules" "$OLD" "$NEW" >"$T/esc.out" 2>&1
ok_cmd "github: ':' ',' '%' in properties are %3A %2C %25" grep -qF 'title=hlodiff tpu-splash_attention-0044%3A error total_bytes above 1 B because "a%3Ab%2Cc%25d"::total_bytes: 18629632 -> 19416064 (+786432, +4.2%25); ceiling 1%0A' "$T/esc.out"
run_hlodiff 0 "github with nothing violated: exit 0" --format github --no-rules "$OLD" "$NEW"
ok_cmd "github with nothing violated: no output" test ! -s "$T/out"

# ---- warnings, --werror, not applicable ---------------------------------------
S3=tests/data/seed-003.txt
S4=tests/data/seed-004.txt
cat >"$T/warn.rules" <<'R'
warn new cross_program_prefetches
warn total_bytes above 1 MiB
R
run_hlodiff 0 "a violated warning rule: exit 0" --format junit --rules "$T/warn.rules" "$S3" "$S4"
ok_cmd "junit: a warning is <system-out>, not a failure" grep -q '<system-out>warning: cross_program_prefetches: 0 -&gt; 1' "$T/out"
is "1 2 0 0 0" "$(python3 "$T/junit.py" "$T/out")" "junit: the warning passes"
run_hlodiff 1 "--werror: exit 1" --format junit --werror --rules "$T/warn.rules" "$S3" "$S4"
ok_cmd "junit --werror: a <failure type=\"warn\">" grep -q '<failure type="warn" message="cross_program_prefetches: 0 -&gt; 1' "$T/out"
run_hlodiff 0 "github: warning" --format github --rules "$T/warn.rules" "$S3" "$S4"
ok_cmd "github: ::warning" grep -q "^::warning file=$T/warn.rules,line=1," "$T/out"
run_hlodiff 1 "github --werror" --format github --werror --rules "$T/warn.rules" "$S3" "$S4"
ok_cmd "github --werror: ::error" grep -q "^::error file=$T/warn.rules,line=1," "$T/out"
run_hlodiff 0 "markdown: warning" --format markdown --rules "$T/warn.rules" "$S3" "$S4"
ok_cmd "markdown: one warning" grep -q '^:warning: \*\*1 warning\*\*' "$T/out"
run_hlodiff 1 "markdown --werror" --format markdown --werror --rules "$T/warn.rules" "$S3" "$S4"
ok_cmd "markdown --werror: fails" grep -q 'fails with `--werror`' "$T/out"
# a dump without its live ranges: a peak rule is not applicable -> skipped
sed '/^HloLiveRange/,$d' "$S3" >"$T/nopeak.txt"
printf 'error peak_bytes grows by more than 1%%\n' >"$T/peak.rules"
run_hlodiff 0 "not applicable rule: exit 0" --format junit --rules "$T/peak.rules" "$T/nopeak.txt" "$S3"
ok_cmd "junit: not applicable is <skipped>" grep -q '<skipped message="peak_bytes: not applicable (OLD has no live ranges (no BufferLiveRange section))"/>' "$T/out"
is "1 1 0 0 1" "$(python3 "$T/junit.py" "$T/out")" "junit: skipped counted"
run_hlodiff 0 "junit without rules" --format junit --no-rules "$S3" "$S4"
ok_cmd "junit without rules: one test case 'compared'" grep -q 'name="compared (no rules)"/>' "$T/out"

# ---- XML escapes ----------------------------------------------------------------
printf 'error bytes(op_name="<&\\"x\\">") above 0 B\n' >"$T/xml.rules"
"$HLODIFF" --format junit --rules "$T/xml.rules" "$OLD" "$NEW" >"$T/xml.out" 2>"$T/xml.err"
ok_cmd "junit: <, &, \" in a rule are escaped (valid XML)" python3 "$T/junit.py" "$T/xml.out"
ok_cmd "junit: the escapes" grep -qF 'name="error bytes(op_name=&quot;&lt;&amp;\&quot;x\&quot;&gt;&quot;) above 0 B' "$T/xml.out"

# ---- colour -----------------------------------------------------------------------
ESC=$(printf '\033')
run_hlodiff 1 "--color=always: exit 1" --color=always "$OLD" "$NEW"
ok_cmd "--color=always: escape sequences" grep -q "$ESC\[31m" "$T/out"
sed "s/$ESC\[[0-9;]*m//g" "$T/out" >"$T/stripped"
is_file golden/diff-splash_attention-0035-0044.txt "$T/stripped" "--color=always: only escapes added (stripped = plain text)"
run_hlodiff 1 "--color (alone) is always" --color "$OLD" "$NEW"
ok_cmd "--color: escape sequences" grep -q "$ESC\[" "$T/out"
NO_COLOR=1 "$HLODIFF" --color=always "$OLD" "$NEW" >"$T/nc" 2>/dev/null
ok_cmd "--color=always wins over NO_COLOR" grep -q "$ESC\[" "$T/nc"
run_hlodiff 1 "--color=auto, not a terminal: exit 1" --color=auto "$OLD" "$NEW"
is_file golden/diff-splash_attention-0035-0044.txt "$T/out" "--color=auto, not a terminal: no colour"
run_hlodiff 1 "--color=never" --color=never "$OLD" "$NEW"
is_file golden/diff-splash_attention-0035-0044.txt "$T/out" "--color=never: no colour"
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$HLODIFF' '$OLD' '$NEW'" /dev/null >"$T/tty" 2>&1
	ok_cmd "a terminal: colour" grep -q "$ESC\[31m" "$T/tty"
	NO_COLOR=1 script -qec "'$HLODIFF' '$OLD' '$NEW'" /dev/null >"$T/tty" 2>&1
	ok_cmd "a terminal with NO_COLOR: no colour" sh -c "! grep -q '$ESC\[3' '$T/tty'"
else
	skip "no script(1) to make a terminal"
	skip "no script(1) to make a terminal"
fi
run_hlodiff 1 "--text FILE never has colour" --color=always --text "$T/t.txt" "$OLD" "$NEW"
is_file golden/diff-splash_attention-0035-0044.txt "$T/t.txt" "--text FILE: plain"

# Colour is written with the text: stripped of its escapes, each report
# is the plain one, and given things get given pens (values read from
# the dumps: the GPU pair shrinks, the TPU pair grows).
R="$ESC[31m" G="$ESC[32m" Y="$ESC[33m" B="$ESC[1m" D="$ESC[2m" O="$ESC[0m"
SF_OLD=tests/data/gpu-full_run-simple.txt
SF_NEW=tests/data/gpu-full_run-simplefused.txt
same_plain() { # DESC ARGS...: --color=always, stripped, is --color=never
	d=$1
	shift
	"$HLODIFF" --color=never "$@" >"$T/plain" 2>/dev/null
	"$HLODIFF" --color=always "$@" >"$T/ink" 2>/dev/null
	ok_cmd "$d: in colour" grep -q "$ESC\[3" "$T/ink"
	sed "s/$ESC\[[0-9;]*m//g" "$T/ink" >"$T/stripped"
	is_file "$T/plain" "$T/stripped" "$d: without the escapes, the plain report"
}
inked() { # DESC LINE FRAGMENT: the first line of $T/ink holding LINE holds FRAGMENT
	ok_cmd "$1" sh -c 'grep -F -- "$1" "$3" | head -n 1 | grep -qF -- "$2"' - "$2" "$3" "$T/ink"
}
whole() { # DESC LINE: LINE (not empty) is a line of $T/ink
	ok_cmd "$1" sh -c '[ -n "$1" ] && grep -qxF -- "$1" "$2"' - "$2" "$T/ink"
}
same_plain "rules violated" --rules rules/strict.rules "$OLD" "$NEW"
inked "a growth figure red" "total_bytes " "${R}+786432${O}    ${R}+4.2%${O}"
inked "a changed value's word yellow, its growth red" "splash_mha_fwd_c602b16d.1{0} (was" "  ${Y}changed${O}        262144       524288      ${R}+262144${O}  "
whole "an error rule's line red" "${R}  error rules/strict.rules:11: error total_bytes grows by more than 0 B${O}"
whole "the rules line red with an error" "${R}rules: rules/strict.rules, module tpu-splash_attention-0044: 5 violated (5 error, 0 warning), 20 passed${O}"
whole "the header bold" "${B}--- $OLD${O}"
same_plain "added and removed values, -n 5" -n 5 "$SF_OLD" "$SF_NEW"
inked "a shrinking figure green" "total_bytes " "${G}-13516672${O}    ${G}-2.2%${O}"
inked "a growing time red" "peak_time " "${R}+15${O}"
inked "an added value's word and growth red" "input_transpose_fusion.1{}" "  ${R}added${O}               -    235929600   ${R}+235929600${O}  "
inked "a removed value's word and shrinkage green" " fft.0.0{}" "  ${G}removed${O}     235929600            -   ${G}-235929600${O}  "
inked "the other values' sum green" "in 64 other values" "${G}-1415577576${O}"
whole "a passed rule green" "${G}  ok <default.rules>:15: error peak_bytes grows by more than 1% and by more than 64 KiB (625825160 -> 614274400, -11550760; 1% of 625825160 allows +6258251 (within) and allowed +65536 (within))${O}"
same_plain "a breakdown" --by op_name -n 5 "$SF_OLD" "$SF_NEW"
printf 'warn total_bytes grows by more than 1%%\n' >"$T/w.rules"
same_plain "a warning" --rules "$T/w.rules" "$OLD" "$NEW"
whole "a warning rule's line yellow" "${Y}  warning $T/w.rules:1: warn total_bytes grows by more than 1%${O}"
"$HLODIFF" --color=always --rules "$T/peak.rules" "$T/nopeak.txt" "$S3" >"$T/ink" 2>/dev/null
inked "a rule not applicable dim" "  n/a $T/peak.rules:1:" "${D}  n/a "
# directories: the summary's verdicts, the module headings
mkdir "$T/cold" "$T/cnew"
ba=after_optimizations-buffer-assignment.txt
cp "$OLD" "$T/cold/module_0035.jit_splash.$ba"
cp "$NEW" "$T/cnew/module_0044.jit_splash.$ba"
cp "$SF_OLD" "$T/cold/module_0041.jit__full_run.$ba"
cp "$SF_NEW" "$T/cnew/module_0041.jit__full_run.$ba"
cp "$S3" "$T/cold/module_0003.jit_only_old.$ba"
same_plain "directories" "$T/cold" "$T/cnew"
inked "a failing module red" "jit_splash " "  ${R}FAIL: 2 errors${O}"
inked "a passing module green" "jit__full_run " "  ${G}ok${O}"
inked "a module on one side plain" "jit_only_old " "  only in OLD"
whole "a module's heading bold" "${B}== jit_splash: $T/cold/module_0035.jit_splash.$ba -> $T/cnew/module_0044.jit_splash.$ba${O}"
same_plain "directories, --summary" --summary "$T/cold" "$T/cnew"
inked "--summary: the title bold" "hlodiff: 3 modules" "${B}hlodiff: "
# what only looks like a line to colour is not coloured: a scope named
# "error ..." in a breakdown, a negative number inside an op_name, a
# rules file whose name says " error, "
sed -e 's|op_name="q"|op_name="error check/q"|' -e 's|/pallas_call"|/pallas_call[grid=(1, 2, -3)]"|' "$OLD" >"$T/lo.txt"
sed -e 's|op_name="q"|op_name="error check/q"|' -e 's|/pallas_call"|/pallas_call[grid=(1, 2, -3)]"|' "$NEW" >"$T/ln.txt"
printf 'error total_bytes grows by more than 50%%\n' >"$T/no error, ever.rules"
same_plain "look-alike lines" --by op_name --rules "$T/no error, ever.rules" "$T/lo.txt" "$T/ln.txt"
whole "a breakdown's 'error check' plain" "$(grep '^  error check ' "$T/plain")"
whole "an op_name's '-3)]' plain" "$(grep -m 1 'grid=(1, 2, -3)\]' "$T/plain")"
inked "a rules file named ' error, ' passing: green" "rules: $T/no error, ever.rules" "${G}rules: "

# ---- usage errors -------------------------------------------------------------------
usage() { # DESC MESSAGE ARGS...
	d=$1
	m=$2
	shift 2
	run_hlodiff 2 "$d: exit 2" "$@"
	ok_cmd "$d: says '$m'" grep -qF "hlodiff: $m" "$T/err"
}
usage "unknown format" "unknown format 'xml' (expected text, json, markdown, junit or github)" --format xml "$OLD" "$NEW"
usage "--format without a value" "--format needs a format" "$OLD" "$NEW" --format
usage "--markdown without a file" "--markdown needs a file name" "$OLD" "$NEW" --markdown
usage "--junit -" "--junit writes a file; for standard output use --format junit" --junit - "$OLD" "$NEW"
usage "bad --color" "--color takes auto, always or never, not 'sometimes'" --color=sometimes "$OLD" "$NEW"
usage "stat in markdown" "stat writes text or json" stat --format markdown "$OLD"
run_hlodiff 2 "a file output that cannot be written: exit 2" --markdown "$T/no/such/dir/x.md" "$OLD" "$NEW"
ok_cmd "a file output that cannot be written: says so" grep -q "^hlodiff: $T/no/such/dir/x.md: cannot write: No such file or directory" "$T/err"
is_file "$T/std.text" "$T/out" "a file output that cannot be written: standard output still written"

# JSON is read by programs: a value's name is written whole however long
# (the text reports cut theirs for display), in the values and among a
# rule's contributors.
long=$(awk 'BEGIN { while (n++ < 600) printf "n"; print ".1" }')
sed "s/constant\.74\([^0-9]\)/$long\1/g" "$HD_SRCDIR/tests/data/seed-000.txt" >"$TMPDIR_T/long.txt"
printf 'error bytes(name="nnn*") above 0 B\n' >"$TMPDIR_T/long.rules"
run_hlodiff 1 "a 602-byte name: diff --json --all" --json --all --rules "$TMPDIR_T/long.rules" \
	"$HD_SRCDIR/tests/data/seed-000.txt" "$TMPDIR_T/long.txt"
ok_cmd "a 602-byte name: whole among the values" grep -qF "\"new\": \"$long{}\"" "$TMPDIR_T/out"
ok_cmd "a 602-byte name: whole among the contributors" grep -qF "\"value\": \"$long{}\"" "$TMPDIR_T/out"

done_testing
