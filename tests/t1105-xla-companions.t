#!/bin/sh
# The split dump of today's XLA with a companion missing, compressed, or
# of another module: a missing one is not an error, the report names it
# and what it leaves out; one of another module (its values are not the
# allocations' values) is an input error naming both files.
. "$(dirname "$0")/lib.sh"

X=$HD_SRCDIR/tests/xla
T=$TMPDIR_T
[ -f "$X/MANIFEST.json" ] || skip_all "no tests/xla/MANIFEST.json"
cd "$T" || exit 1

m=module_0000.jit_mlp_train.cpu_after_optimizations
a=module_0000.jit_attention.cpu_after_optimizations
ba=buffer-assignment.txt
src=$X/cpu/mlp_train/base
other=$X/cpu/attention/base

# ---- both companions missing ---------------------------------------------
mkdir alone
cp "$src/$m-$ba" alone/
run_hlodiff 0 "main file alone: read (exit 0)" stat "alone/$m-$ba"
ok_cmd "the values companion is named missing, with what it leaves out" grep -qF \
	"  missing: alone/$m-buffer-assignment-values.txt; left out: the stated total bytes and the value records" "$T/out"
ok_cmd "the live-range companion is named missing, with what it leaves out" grep -qF \
	"  missing: alone/$m-live-range.txt; left out: the live ranges: the stated and recomputed peak" "$T/out"
is 2 "$(grep -c '(not in dump)' "$T/out")" "total bytes and the stated peak: (not in dump)"
# the allocations themselves are all read: their sum, by an independent reading
want=$(awk '/^allocation [0-9]+: size /{ sub(/,$/, "", $4); s += $4 } END { print s }' "alone/$m-$ba")
got=$(sed -n 's/^  sum of allocation sizes *\([0-9]*\) .*/\1/p' "$T/out")
is "$want" "$got" "the allocations are all read: sum $want"
run_hlodiff 0 "main file alone: --json" stat --json "alone/$m-$ba"
is 2 "$(grep -c '"left_out":' "$T/out")" "JSON: two missing companions, each with what it leaves out"
ok_cmd "JSON: the values file named" grep -qF "\"file\": \"alone/$m-buffer-assignment-values.txt\"" "$T/out"

# ---- only the live ranges missing -----------------------------------------
cp "$src/$m-buffer-assignment-values.txt" alone/
run_hlodiff 0 "without the live ranges: read" stat "alone/$m-$ba"
is 1 "$(grep -c '^  missing: ' "$T/out")" "one companion missing"
ok_cmd "it is the live-range file" grep -qF "missing: alone/$m-live-range.txt" "$T/out"
run_hlodiff 0 "a diff against the whole dump: read" "alone/$m-$ba" "$src/$m-$ba"
ok_cmd "the diff names the missing companion of the old side" grep -qF -e \
	"--- missing: alone/$m-live-range.txt; left out:" "$T/out"

# ---- compressed companions ------------------------------------------------
mkdir gz
cp "$src/$m-$ba" gz/
gzip -c "$src/$m-buffer-assignment-values.txt" >"gz/$m-buffer-assignment-values.txt.gz"
gzip -c "$src/$m-live-range.txt" >"gz/$m-live-range.txt.gz"
run_hlodiff 0 ".gz companions: read" stat --json "gz/$m-$ba"
cp "$T/out" "$T/gz.json"
"$HLODIFF" stat --json "$src/$m-$ba" | sed "s|\"file\": \".*\"|\"file\": \"gz/$m-$ba\"|" >"$T/plain.json"
is_file "$T/plain.json" "$T/gz.json" ".gz companions: the same figures as the plain files"
gzip "gz/$m-$ba"
run_hlodiff 0 ".gz main file, .gz companions: read" stat --json "gz/$m-$ba.gz"
sed "s|$ba.gz|$ba|" "$T/out" >"$T/gz2.json"
is_file "$T/plain.json" "$T/gz2.json" ".gz main file: the same figures"

# ---- a companion of another module --------------------------------------------
mkdir wrong
cp "$src/$m-$ba" "$src/$m-live-range.txt" wrong/
cp "$other/$a-buffer-assignment-values.txt" "wrong/$m-buffer-assignment-values.txt"
run_hlodiff 2 "values file of another module: exit 2" stat "wrong/$m-$ba"
ok_cmd "the message names the values file and the main file" grep -q \
	"^hlodiff: wrong/$m-buffer-assignment-values.txt:[0-9]*: .* in wrong/$m-$ba:[0-9]* (expected the companion of the same module)" "$T/err"
cp "$src/$m-buffer-assignment-values.txt" wrong/
cp "$other/$a-live-range.txt" "wrong/$m-live-range.txt"
run_hlodiff 2 "live-range file of another module: exit 2" stat "wrong/$m-$ba"
ok_cmd "the message names the live-range file and the main file" grep -q \
	"^hlodiff: wrong/$m-live-range.txt: not the companion of wrong/$m-$ba: [0-9]* values of the allocations have no live range" "$T/err"
run_hlodiff 2 "in a diff too: exit 2" "wrong/$m-$ba" "$src/$m-$ba"
# a values file whose ids and names are all new to the allocations
mkdir wrong2 wrong3
cp "$src/$m-$ba" wrong2/
cp "$src/$m-$ba" wrong3/
awk '/^</ { sub(/^</, "<9"); sub(/ /, " other_") } { print }' "$src/$m-buffer-assignment-values.txt" \
	>"wrong2/$m-buffer-assignment-values.txt"
run_hlodiff 2 "values file naming no value of the allocations: exit 2" stat "wrong2/$m-$ba"
n=$(grep -c '^<' "$src/$m-buffer-assignment-values.txt")
ok_cmd "the message says that all $n records name no value" grep -q \
	"^hlodiff: wrong2/$m-buffer-assignment-values.txt:[0-9]*: $n of its records name no value of the allocations in wrong2/$m-$ba (expected the companion of the same module)" "$T/err"
# every value has its record, and other records follow
mv "wrong2/$m-buffer-assignment-values.txt" "$T/other.txt"
{ cat "$src/$m-buffer-assignment-values.txt"; grep -v -e '^Total' -e '^Used values:' -e '^$' "$T/other.txt"; } \
	>"wrong2/$m-buffer-assignment-values.txt"
run_hlodiff 2 "values file with the records of another module's values too: exit 2" stat "wrong2/$m-$ba"
ok_cmd "the message names both files and the first record of no value" grep -q \
	"^hlodiff: wrong2/$m-buffer-assignment-values.txt: not the companion of wrong2/$m-$ba: $n of its records name no value of the allocations (the first: <90 other_" "$T/err"
# new ids, the names of the allocations' values
awk '/^</ { sub(/^</, "<9") } { print }' "$src/$m-buffer-assignment-values.txt" \
	>"wrong3/$m-buffer-assignment-values.txt"
run_hlodiff 2 "values file with other ids for the same names: exit 2" stat "wrong3/$m-$ba"
ok_cmd "the message names the line of the main file with that name" grep -q \
	"^hlodiff: wrong3/$m-buffer-assignment-values.txt:[0-9]*: two values named '.*' (id 9[0-9]* here, [0-9]* in wrong3/$m-$ba:[0-9]*; expected the companion of the same module)" "$T/err"

# ---- the trailer " reused by buffers of a different color:" ------------------------
# Its "(color=N)" lines repeat values listed above them: read, not counted
# again.  This XLA build writes none, so one is put into a real dump.
t=module_0000.jit_transformer.cl_1014260217.after_optimizations
mkdir reuse
cp "$X/tpu/transformer/base/$t"-* reuse/
awk '/^allocation / { if (n == 1 && v != "") { print " reused by buffers of a different color:"
		print "  value: " v " (color=1)"; n = 2 }
		if (n == 0 && $0 ~ /preallocated-temp:$/ && $0 !~ /color/) n = 1 }
	/^ value: / && n == 1 && v == "" { v = $2 " " $3 " " $4 }
	{ print }' "$X/tpu/transformer/base/$t-$ba" >"reuse/$t-$ba"
is 1 "$(grep -c '^ reused by buffers of a different color:$' "reuse/$t-$ba")" "the trailer is in the copy"
run_hlodiff 0 "a dump with the trailer: read --strict" stat --strict --json "reuse/$t-$ba"
sed 's|"file": .*|"file": ""|' "$T/out" >"$T/reuse.json"
"$HLODIFF" stat --json "$X/tpu/transformer/base/$t-$ba" | sed 's|"file": .*|"file": ""|' >"$T/orig.json"
is_file "$T/orig.json" "$T/reuse.json" "the trailer's value is not counted again: the same figures"
run_hlodiff 0 "compared with the dump without it" --json "$X/tpu/transformer/base/$t-$ba" "reuse/$t-$ba"
sum=$(tr -d ' \n' <"$T/out" | sed -n 's/.*"summary":{\([^}]*\)}.*/\1/p')
is '"matched":'"$(grep -c '^ value: ' "reuse/$t-$ba")"',"changed":0,"added":0,"removed":0' "$sum" \
	"compared with the dump without it: every value matched, none changed"

# ---- a live-range file that holds only "HloLiveRange not available" -----------
w=module_0000.jit_while_loop.cpu_after_optimizations
mkdir na
cp "$X/cpu/while_loop/base/$w"-* na/
echo 'HloLiveRange not available (finalized or constructed from proto)' >"na/$w-live-range.txt"
run_hlodiff 0 "live ranges not available: read --strict" stat --strict "na/$w-$ba"
ok_cmd "the sections say so" grep -q '^  sections  *allocations total used-values live-range-not-available$' "$T/out"
ok_cmd "the companion is not called missing" sh -c "! grep -q missing '$T/out'"
ok_cmd "no peak: (not in dump)" grep -q '^  stated  *(not in dump)$' "$T/out"

# ---- a companion named in place of the main file --------------------------------
run_hlodiff 2 "the live-range file named alone: exit 2" stat "$src/$m-live-range.txt"
ok_cmd "the message names the main file to pass instead" grep -qF \
	"this is the -live-range.txt companion of a split dump; pass the matching $src/$m-$ba" "$T/err"
run_hlodiff 2 "the values file named alone: exit 2" stat "$src/$m-buffer-assignment-values.txt"
ok_cmd "the same message" grep -qF \
	"this is the -buffer-assignment-values.txt companion of a split dump; pass the matching $src/$m-$ba" "$T/err"
rm "wrong/$m-$ba"
run_hlodiff 2 "without its main file beside it: still exit 2" stat "wrong/$m-live-range.txt"
ok_cmd "... naming the file it needs" grep -qF "pass the matching wrong/$m-$ba" "$T/err"

done_testing
