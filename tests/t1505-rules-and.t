#!/bin/sh
# Rules whose conditions are joined with 'and' (docs/rules.md): parsed,
# violated only when every part is, and printed with each part's numbers
# in every format.  The expected verdicts are worked out here from the
# dumps' own numbers (awk), not from hlodiff.
. "$(dirname "$0")/lib.sh"

need_hlodiff
D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
OLD=$D/tpu-splash_attention-0035.txt
NEW=$D/tpu-splash_attention-0044.txt

total() { awk '/^Total bytes used: / { print $4; exit }' "$1"; }
# the dump's stated peak (stated_peak_bytes): the last cumulative line of
# "Live ranges at T (peak)"
peak() {
	awk '/^  Live ranges at / { on = 1; next } on && /cumulative:/ { v = $(NF - 1) } on && !/cumulative:/ { on = 0 } END { print v }' "$1"
}
to=$(total "$OLD") tn=$(total "$NEW") po=$(peak "$OLD") pn=$(peak "$NEW")
td=$((tn - to)) pd=$((pn - po))
ok_cmd "the pair's numbers (total $to -> $tn, peak $po -> $pn)" \
	test "$to" -gt 0 -a "$td" -gt $((to / 100)) -a "$td" -lt 1048576 -a "$pd" -gt 524288

# 1% is exceeded by both; 1 MiB is not, 512 KiB is (checked above).
cat >"$T/and.rules" <<'EOR'
error total_bytes grows by more than 1% and by more than 1 MiB
error stated_peak_bytes grows by more than 1% and grows by more than 512 KiB
warn total_bytes above 1 GiB and grows by more than 0.5%
error stated_peak_bytes grows by more than 1% and above 16 MiB because "fits one chip"
EOR
run_hlodiff 1 "and-rules: exit 1 (line 2 and line 4 hold in full)" --rules "$T/and.rules" "$OLD" "$NEW"
sed -n '/^rules:/,$p' "$T/out" >"$T/rules.txt"
ok_cmd "summary: 2 violated, 2 passed" grep -qx "rules: $T/and.rules, module tpu-splash_attention-0044: 2 violated (2 error, 0 warning), 2 passed" "$T/rules.txt"
ok_cmd "violated: both parts' numbers, both exceeded" grep -qxF \
	"    stated_peak_bytes: $po -> $pn (+$pd, +4.2%); 1% of $po allows +$((po / 100)) (exceeded) and allowed +524288 (exceeded)" "$T/rules.txt"
ok_cmd "violated with a ceiling: its number" grep -qF \
	"1% of $po allows +$((po / 100)) (exceeded) and ceiling 16777216 (exceeded)" "$T/rules.txt"
ok_cmd "passed: the part that held is named" grep -qxF \
	"  ok $T/and.rules:1: error total_bytes grows by more than 1% and by more than 1 MiB ($to -> $tn, +$td; 1% of $to allows +$((to / 100)) (exceeded) and allowed +1048576 (within))" "$T/rules.txt"
ok_cmd "passed: ceiling first, then a percentage" grep -qF \
	"above 1 GiB and grows by more than 0.5% ($to -> $tn, +$td; ceiling 1073741824 (within) and 0.5% of $to allows +$((to / 200)) (exceeded))" "$T/rules.txt"

# Growth exactly at the floor passes, one byte more fails (strictly
# "more than", in every part).
printf 'error total_bytes grows by more than 1%% and by more than %d B\n' "$td" >"$T/edge.rules"
run_hlodiff 0 "growth equal to the floor passes" --rules "$T/edge.rules" "$OLD" "$NEW"
printf 'error total_bytes grows by more than 1%% and by more than %d B\n' "$((td - 1))" >"$T/edge.rules"
run_hlodiff 1 "one byte under the growth fails" --rules "$T/edge.rules" "$OLD" "$NEW"
run_hlodiff 0 "shrinking never violates" --rules "$T/and.rules" "$NEW" "$NEW"

# JSON: every part under "conditions".
run_hlodiff 1 "json: exit 1" --format json --rules "$T/and.rules" "$OLD" "$NEW"
python3 - "$T/out" "$to" "$po" >"$T/json.txt" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
to, po = int(sys.argv[2]), int(sys.argv[3])
v = d["rules"]["verdicts"]
def parts(i):
    return [(c["condition"], c.get("percent_limit", c.get("amount")), c["allowed"], c["exceeded"]) for c in v[i]["conditions"]]
assert v[0]["result"] == "passed", v[0]
assert parts(0) == [("grows_percent", 1, to // 100, True), ("grows_by", 1048576, 1048576, False)], parts(0)
assert v[1]["result"] == "violated"
assert parts(1) == [("grows_percent", 1, po // 100, True), ("grows_by", 524288, 524288, True)], parts(1)
assert parts(2) == [("above", 1 << 30, 1 << 30, False), ("grows_percent", 0.5, to // 200, True)], parts(2)
assert v[3]["because"] == "fits one chip"
print("ok")
EOP
ok_cmd "json: each part with its limit, allowed growth and outcome" grep -qx ok "$T/json.txt" || diag_file "$T/json.txt"

# Markdown, GitHub, JUnit, HTML: the parts' numbers.
parts2="1% of $po allows +$((po / 100)) (exceeded) and allowed +524288 (exceeded)"
run_hlodiff 1 "markdown: exit 1" --format markdown --rules "$T/and.rules" "$OLD" "$NEW"
ok_cmd "markdown: the parts" grep -qF "$parts2" "$T/out"
run_hlodiff 1 "github: exit 1" --format github --rules "$T/and.rules" "$OLD" "$NEW"
ok_cmd "github: the parts in the annotation" grep -qF "1%25 of $po allows +$((po / 100)) (exceeded) and allowed +524288 (exceeded)" "$T/out"
run_hlodiff 1 "junit: exit 1" --format junit --rules "$T/and.rules" "$OLD" "$NEW"
ok_cmd "junit: the parts" grep -qF "$parts2" "$T/out"
run_hlodiff 1 "html: exit 1" --html "$T/r.html" --rules "$T/and.rules" "$OLD" "$NEW"
ok_cmd "html: the parts of a passed rule" grep -qF "allows +$((to / 100)) (exceeded) and allowed +1048576 (within)" "$T/r.html"

# The default rules: 1% and a 64 KiB floor.  The TPU jit__normal pair
# grows by more than 1% but less than 64 KiB (passes); the splash pair
# by more than both (fails).
JO=$HD_SRCDIR/examples/jit_normal-0021.txt
JN=$HD_SRCDIR/examples/jit_normal-0041.txt
jo=$(total "$JO") jn=$(total "$JN")
ok_cmd "jit_normal: +$((jn - jo)) is over 1% and under 64 KiB" \
	test $((jn - jo)) -gt $((jo / 100)) -a $((jn - jo)) -le 65536
run_hlodiff 0 "default rules: a small module's few KiB pass" "$JO" "$JN"
ok_cmd "default rules: the floor is why" grep -qF \
	"error total_bytes grows by more than 1% and by more than 64 KiB ($jo -> $jn, +$((jn - jo)); 1% of $jo allows +$((jo / 100)) (exceeded) and allowed +65536 (within))" "$T/out"
run_hlodiff 1 "default rules: the splash kernel's +$td still fails" "$OLD" "$NEW"
ok_cmd "default rules: both parts exceeded" grep -qF \
	"1% of $to allows +$((to / 100)) (exceeded) and allowed +65536 (exceeded)" "$T/out"

# Errors in an 'and'.
bad() {
	printf '%s\n' "$1" >"$T/bad.rules"
	run_hlodiff 2 "error: $1" --rules "$T/bad.rules" "$OLD" "$NEW"
	ok_cmd "message: $2" grep -qF "$2" "$T/err"
}
bad 'error total_bytes grows by more than 1% and' "bad.rules:1:44: missing condition after 'total_bytes'"
bad 'error total_bytes grows by more than 1% and 5 MiB' "bad.rules:1:45: unknown condition '5'"
bad 'error total_bytes grows by more than 1% and by 5 MiB' "bad.rules:1:48: expected 'by more than' after 'grows'"
bad 'warn new prefetches and above 3' "bad.rules:1:21: unexpected 'and' after the rule"
bad 'error values grows by more than 1% and by more than 2 MiB' "'values' is a count: drop the unit"

done_testing
