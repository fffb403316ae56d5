#!/bin/sh
# Directory mode: several compiles of one module name are paired by
# content (parameters, total, structural hashes of the values), not by
# module number, and the note says how each pair was made.
. "$(dirname "$0")/lib.sh"

need_hlodiff
D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
cd "$T" || exit 1
ba=after_optimizations-buffer-assignment.txt

# Five different compiles of "jit__einsum" in OLD; NEW has four of them,
# byte for byte, under other module numbers: the second is gone.
mkdir old new
n=1
for f in seed-000 seed-001 seed-002 seed-003 seed-004; do
	cp "$D/$f.txt" "old/module_000$n.jit__einsum.$ba"
	n=$((n + 1))
done
cp "$D/seed-000.txt" "new/module_0011.jit__einsum.$ba"
cp "$D/seed-002.txt" "new/module_0013.jit__einsum.$ba"
cp "$D/seed-003.txt" "new/module_0014.jit__einsum.$ba"
cp "$D/seed-004.txt" "new/module_0015.jit__einsum.$ba"
# the premise: the five differ, and each NEW file is one of them
ok_cmd "the five OLD compiles differ from each other" \
	test "$(cat old/* | wc -c)" -gt 0 -a "$(md5sum old/* | cut -d' ' -f1 | sort -u | wc -l)" -eq 5
ok_cmd "module_0011, 0013-0015 are byte for byte module_0001, 0003-0005" sh -c \
	'cmp -s old/module_0001.* new/module_0011.* && cmp -s old/module_0003.* new/module_0013.* &&
	 cmp -s old/module_0004.* new/module_0014.* && cmp -s old/module_0005.* new/module_0015.*'

run_hlodiff 0 "five compiles against four: exit 0 (nothing failed)" old new
ok_cmd "summary: 4 compared, 1 only in OLD, 0 failed" grep -qx \
	"hlodiff: 5 modules, old -> new: 4 compared, 1 only in OLD; 0 failed a rule" "$T/out"
ok_cmd "no FAIL anywhere" sh -c "! grep -q FAIL '$T/out'"
ok_cmd "the note names each pair" grep -qxF \
	"note: jit__einsum: 5 compiles in OLD, 4 in NEW: paired by content: #1 module_0001 -> module_0011 identical files, #2 module_0002 only in OLD, #3 module_0003 -> module_0013 identical files, #4 module_0004 -> module_0014 identical files, #5 module_0005 -> module_0015 identical files" "$T/out"
for k in 1 3 4 5; do
	ok_cmd "jit__einsum#$k: no change" grep -q "^jit__einsum#$k .* 0 .*0\.0% .* ok$" "$T/out"
done
ok_cmd "jit__einsum#2 only in OLD" grep -q '^jit__einsum#2 .*only in OLD$' "$T/out"
ok_cmd "each pair's section names the files it compares" sh -c \
	"grep -q '^== jit__einsum#3: old/module_0003.jit__einsum.$ba -> new/module_0013.jit__einsum.$ba' '$T/out'"

# The same, threads or not, and in JSON.
run_hlodiff 0 "-j 1: exit 0" -j 1 old new
cp "$T/out" "$T/j1"
run_hlodiff 0 "-j 4: exit 0" -j 4 old new
ok_cmd "-j 1 and -j 4 give the same report" cmp -s "$T/j1" "$T/out"
run_hlodiff 0 "json: exit 0" --format json old new
python3 - "$T/out" >"$T/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mods = {m["module"]: m for m in d["modules"]}
assert d["summary"]["compared"] == 4 and d["summary"]["only_old"] == 1 and d["summary"]["violated"] == 0, d["summary"]
assert mods["jit__einsum#2"]["state"] == "only_old"
for k in (1, 3, 4, 5):
    m = mods["jit__einsum#%d" % k]
    assert m["state"] == "compared" and m["status"] == 0, m
    assert "paired by content" in m["note"]
print("ok")
PY
ok_cmd "json: the pairs and the note" grep -qx ok "$T/py" || diag_file "$T/py"

# Not byte for byte the same, but the same program: a recompile that moved
# every source line (metadata is not part of the canonical hashes).
rm -rf old1 new1
mkdir old1 new1
cp "$D/seed-000.txt" "old1/module_0001.jit_g.$ba"
cp "$D/seed-001.txt" "old1/module_0002.jit_g.$ba"
sed 's/source_line=\([0-9]*\)/source_line=1\1/' "$D/seed-000.txt" >"new1/module_0007.jit_g.$ba"
ok_cmd "the recompile differs from seed 000 in its source lines only" sh -c \
	"! cmp -s '$D/seed-000.txt' new1/module_0007.jit_g.$ba &&
	 test \"\$(diff '$D/seed-000.txt' new1/module_0007.jit_g.$ba | grep -c '^>')\" -eq \"\$(grep -c source_line= '$D/seed-000.txt')\""
run_hlodiff 0 "one compile against a recompile of the second: exit 0" old1 new1
ok_cmd "paired with the same program, the other only in OLD" grep -qF \
	"paired by content: #1 module_0001 -> module_0007 same content, #2 module_0002 only in OLD" "$T/out"

# Reordered module numbers: content wins over order.
rm -rf old2 new2
mkdir old2 new2
cp "$D/seed-000.txt" "old2/module_0001.jit_f.$ba"
cp "$D/seed-001.txt" "old2/module_0002.jit_f.$ba"
cp "$D/seed-001.txt" "new2/module_0001.jit_f.$ba"
cp "$D/seed-000.txt" "new2/module_0002.jit_f.$ba"
run_hlodiff 0 "two compiles in swapped order: exit 0" old2 new2
ok_cmd "swapped: each paired with its twin" grep -qF \
	"#1 module_0001 -> module_0002 identical files, #2 module_0002 -> module_0001 identical files" "$T/out"

# Real repeated compiles (corpus SOURCES.md 10 and 11): jit__normal and
# the splash kernel compiled three times; NEW has two of each, recompiled
# (not identical): 0021/0041 and 0035/0052.  Each should find the OLD
# compile it shares most values with.
if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS/tpu" ]; then
	rm -rf old3 new3
	mkdir old3 new3
	for m in 0021 0029 0041; do
		cp "$HD_CORPUS"/tpu/justabyte-cpost-hlo__module_$m.jit__normal.*-buffer-assignment.txt "old3/module_$m.jit__normal.$ba"
	done
	cp "$HD_CORPUS"/tpu/justabyte-cpost-hlo__module_0041.jit__normal.*-buffer-assignment.txt "new3/module_0141.jit__normal.$ba"
	cp "$HD_CORPUS"/tpu/justabyte-cpost-hlo__module_0021.jit__normal.*-buffer-assignment.txt "new3/module_0121.jit__normal.$ba"
	run_hlodiff 0 "corpus jit__normal, three against two of them: exit 0" old3 new3
	ok_cmd "corpus: 0021 and 0041 found, 0029 only in OLD" grep -qF \
		"#1 module_0021 -> module_0121 identical files, #2 module_0029 only in OLD, #3 module_0041 -> module_0141 identical files" "$T/out"
	rm -rf old4 new4
	mkdir old4 new4
	for m in 0035 0044; do
		cp "$HD_CORPUS"/tpu/justabyte-ppost-kernel__module_$m.jit_splash_attention_kernel.*-buffer-assignment.txt "old4/module_$m.jit_splash.$ba"
	done
	cp "$HD_CORPUS"/tpu/justabyte-ppost-kernel__module_0052.jit_splash_attention_kernel.*-buffer-assignment.txt "new4/module_0099.jit_splash.$ba"
	run_hlodiff 1 "corpus splash: two against a third compile: exit 1 (it grew)" old4 new4
	ok_cmd "corpus splash: paired by shared values, the other only in OLD" grep -Eq \
		"^note: jit_splash: 2 compiles in OLD, 1 in NEW: paired by content: #1 module_00(35|44) (-> module_0099 [0-9]+% of values shared, same parameters|only in OLD), #2 module_00(35|44) (-> module_0099 [0-9]+% of values shared, same parameters|only in OLD)$" "$T/out"
else
	skip "no corpus (HD_CORPUS unset)"
	skip "no corpus (HD_CORPUS unset)"
	skip "no corpus (HD_CORPUS unset)"
	skip "no corpus (HD_CORPUS unset)"
fi

done_testing
