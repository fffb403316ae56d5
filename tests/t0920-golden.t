#!/bin/sh
# Golden files (golden.h, docs/golden.md): hlodiff golden update writes one
# per module, a golden read in place of its dump gives the same report,
# hlodiff golden check compares dumps with their goldens.  Here on
# tests/data; t0930 does the same on every corpus dump.
. "$(dirname "$0")/lib.sh"

D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
cd "$T" || exit 1

# ---- round trip on every dump of tests/data ------------------------------------------
prev=$D/seed-000.txt
for f in "$D"/*.txt; do
	b=$(basename "$f" .txt)
	rm -rf g
	run_hlodiff 0 "$b: golden update" golden update g "$f"
	ok_cmd "$b: golden written as g/$b.golden" test -s "g/$b.golden"
	ok_cmd "$b: starts with the magic line" sh -c "head -n 1 'g/$b.golden' | grep -qx 'hlodiff-golden 3'"
	run_hlodiff 0 "$b: golden against its dump: exit 0" --no-rules --all "g/$b.golden" "$f"
	ok_cmd "$b: golden against its dump: no change" grep -q "^values: [0-9]* matched (0 changed), 0 added, 0 removed$" "$T/out"
	for args in "" "--json --all" "--by op_name,kind" "--format markdown" "--format junit"; do
		# shellcheck disable=SC2086
		"$HLODIFF" $args "$f" "$prev" 2>/dev/null | sed "s|$f|DUMP|g" >"$T/a"
		# shellcheck disable=SC2086
		"$HLODIFF" $args "g/$b.golden" "$prev" 2>/dev/null | sed "s|g/$b.golden|DUMP|g" >"$T/b"
		is_file "$T/a" "$T/b" "$b: golden as OLD, [$args]: the dump's report"
	done
	"$HLODIFF" stat --json "$f" | sed "s|$f|DUMP|" >"$T/a"
	"$HLODIFF" stat --json "g/$b.golden" | sed "s|g/$b.golden|DUMP|" >"$T/b"
	is_file "$T/a" "$T/b" "$b: stat of the golden is stat of the dump"
	prev=$f
done

# ---- size ------------------------------------------------------------------------------
S=$D/tpu-splash_attention-0035.txt
rm -rf g
run_hlodiff 0 "golden update reports the size" golden update g "$S"
ok_cmd "golden update: 'wrote DIR/MODULE.golden: N bytes, P% of DUMP'" grep -q "^wrote g/tpu-splash_attention-0035.golden: [0-9]* bytes, [0-9.]*% of $S ([0-9]* bytes)$" "$T/out"
gs=$(wc -c <g/tpu-splash_attention-0035.golden)
ds=$(wc -c <"$S")
ok_cmd "the splash-attention golden is under a tenth of its dump ($gs of $ds bytes)" test $((gs * 10)) -lt "$ds"

# ---- .gz and standard input --------------------------------------------------------------
N=$D/tpu-splash_attention-0044.txt
"$HLODIFF" "$S" "$N" >"$T/plain.out" 2>/dev/null
run_hlodiff 1 "golden as OLD: exit 1 as with the dump" g/tpu-splash_attention-0035.golden "$N"
sed 's|g/tpu-splash_attention-0035.golden|X|' "$T/out" >"$T/g.out"
sed "s|$S|X|" "$T/plain.out" >"$T/p.out"
is_file "$T/p.out" "$T/g.out" "golden as OLD: the dump's report"
gzip -c g/tpu-splash_attention-0035.golden >"$T/splash.golden.gz"
run_hlodiff 1 "a .golden.gz: exit 1" "$T/splash.golden.gz" "$N"
sed "s|$T/splash.golden.gz|X|" "$T/out" >"$T/gz.out"
is_file "$T/p.out" "$T/gz.out" "a .golden.gz gives the same report"
run_hlodiff 1 "a golden on standard input: exit 1" - "$N" <g/tpu-splash_attention-0035.golden
sed "s|<stdin>|X|" "$T/out" >"$T/in.out"
is_file "$T/p.out" "$T/in.out" "a golden on standard input gives the same report"
gzip -c "$S" >"$T/dump.txt.gz"
run_hlodiff 1 "a .gz dump: exit 1" "$T/dump.txt.gz" "$N"
sed "s|$T/dump.txt.gz|X|" "$T/out" >"$T/dgz.out"
is_file "$T/p.out" "$T/dgz.out" "a .gz dump gives the same report as the plain file"
run_hlodiff 1 "a dump on standard input: exit 1" - "$N" <"$S"
sed "s|<stdin>|X|" "$T/out" >"$T/din.out"
is_file "$T/p.out" "$T/din.out" "a dump on standard input gives the same report as the plain file"
rm -rf gz
run_hlodiff 0 "golden update --gz" golden update --gz gz "$S"
ok_cmd "--gz: gzip data named .golden.gz" sh -c "gzip -dc gz/tpu-splash_attention-0035.golden.gz | head -n 1 | grep -qx 'hlodiff-golden 3'"
run_hlodiff 0 "golden check reads .golden.gz" golden check gz "$S"

# ---- golden check ------------------------------------------------------------------------
ba=after_optimizations-buffer-assignment.txt
mkdir dumps dumps2
cp "$S" "dumps/module_0035.jit_splash.cl_1.$ba"
cp "$D/seed-000.txt" "dumps/module_0021.jit__normal.$ba"
cp "$D/seed-001.txt" "dumps/module_0015.jit__truncated_normal.$ba"
rm -rf goldens
run_hlodiff 0 "golden update of a directory" golden update -j 2 goldens dumps
is 3 "$(grep -c '^wrote goldens/' "$T/out")" "one golden per module"
ok_cmd "named by module" test -f goldens/jit_splash.golden -a -f goldens/jit__normal.golden -a -f goldens/jit__truncated_normal.golden
run_hlodiff 0 "golden check, nothing changed: exit 0" golden check goldens dumps
ok_cmd "golden check: every module ok" grep -q '^hlodiff: 3 modules, goldens -> dumps: 3 compared; 0 failed a rule$' "$T/out"
cp "$N" "dumps2/module_0044.jit_splash.cl_1.$ba"
cp "$D/seed-000.txt" "dumps2/module_0041.jit__normal.$ba"
cp "$D/seed-003.txt" "dumps2/module_0050.jit_new_one.$ba"
run_hlodiff 2 "a module without a golden: exit 2" golden check --summary goldens dumps2
ok_cmd "a module without a golden: its row" grep -q '^jit_new_one .* no golden$' "$T/out"
ok_cmd "a module without a golden: the message" grep -q "^hlodiff: dumps2/module_0050.jit_new_one.$ba: no golden for module 'jit_new_one' in goldens (write one with 'hlodiff golden update', or pass --allow-new)" "$T/err"
ok_cmd "a golden without a dump: listed" grep -q '^jit__truncated_normal .* no dump$' "$T/out"
ok_cmd "the grown module fails" grep -q '^jit_splash .*FAIL: 2 errors$' "$T/out"
run_hlodiff 1 "--allow-new: exit 1 (the rule violation)" golden check --allow-new --summary goldens dumps2
ok_cmd "--allow-new: the row says new" grep -q '^jit_new_one .* new (no golden)$' "$T/out"
run_hlodiff 1 "golden check of single files" golden check --junit "$T/gc.xml" goldens "dumps2/module_0044.jit_splash.cl_1.$ba" "dumps2/module_0041.jit__normal.$ba"
ok_cmd "golden check: JUnit valid" python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.get("failures") == "2", r.attrib' "$T/gc.xml"
# two compiles of one module: #2 goldens
cp "$D/seed-000.txt" "dumps/module_0029.jit__normal.$ba"
rm -rf goldens2
run_hlodiff 0 "golden update, two compiles of a module" golden update goldens2 dumps
ok_cmd "the second is MODULE#2.golden" test -f "goldens2/jit__normal#2.golden"
run_hlodiff 0 "golden check pairs them in order" golden check goldens2 dumps
ok_cmd "golden check: both compiles compared" grep -q '^jit__normal#2 .* ok$' "$T/out"

# ---- errors --------------------------------------------------------------------------------
usage() {
	d=$1
	m=$2
	shift 2
	run_hlodiff 2 "$d: exit 2" "$@"
	ok_cmd "$d: says '$m'" grep -qF "hlodiff: $m" "$T/err"
}
usage "golden without a subcommand" "golden takes 'update' or 'check' (hlodiff golden update|check DIR DUMP...)" golden frob
usage "golden update without dumps" "golden update takes a directory and at least one dump" golden update goldens
usage "golden check with stdin" "golden commands read dumps from files, not '-'" golden check goldens -
run_hlodiff 2 "golden check of a file as DIR" golden check "$S" "$S"
ok_cmd "golden check of a file as DIR: says so" grep -qF "hlodiff: $S: not a directory (expected the directory of the golden files)" "$T/err"
run_hlodiff 2 "golden check with --html" golden check --html x.html goldens dumps
ok_cmd "golden check with --html: says so" grep -qF "hlodiff: --html writes the report of one pair" "$T/err"
mkdir nodumps
run_hlodiff 2 "golden update of an empty directory" golden update g nodumps
ok_cmd "an empty directory: warned" grep -qF "hlodiff: nodumps: warning: no *-buffer-assignment.txt dumps in this directory" "$T/err"
ok_cmd "nothing to read: says so" grep -qF "hlodiff: no dumps to read" "$T/err"
printf 'x\n' >afile
run_hlodiff 2 "golden update into a file" golden update afile/sub "$S"
ok_cmd "golden update into a file: cannot create the directory" grep -qF "hlodiff: afile/sub: cannot create the directory: " "$T/err"
run_hlodiff 2 "golden update of a golden" golden update g2 goldens/jit_splash.golden
ok_cmd "golden update of a golden: says so" grep -qF "hlodiff: goldens/jit_splash.golden: is a golden file, not a dump" "$T/err"

# malformed goldens: FILE:LINE: what is wrong (expected ...)
bad() { # DESC SED-EXPR MESSAGE
	sed "$2" goldens/jit_splash.golden >bad.golden
	run_hlodiff 2 "bad golden: $1: exit 2" stat bad.golden
	ok_cmd "bad golden: $1: message" grep -qF "hlodiff: bad.golden:$3" "$T/err"
}
line_of() { grep -n "$1" goldens/jit_splash.golden | head -n 1 | cut -d: -f1; }
la=$(line_of '^a	')
li=$(line_of '^i	')
lv=$(line_of '^v	')
lp=$(line_of '^p	')
bad "unknown line" "${la}s/^a/x/" "$la: unknown line (expected a header line or a record a, f, i, v, r or p)"
bad "bad number" "${la}s/	512	/	5x2	/" "$la: bad number (expected a whole number)"
bad "unknown allocation flag" "${la}s/constant/frozen/" "$la: unknown allocation flag"
bad "fields" "${la}s/	constant//" "$la: wrong number of fields (expected 'a NUMBER SIZE COLOUR FLAGS')"
bad "bad hash" "${li}s/	=	[^	]*	/	=	xyz	/" "$li: bad hash (expected 11 base64url digits)"
bad "hash over 64 bits" "${li}s/	=	[^	]*	/	=	QAAAAAAAAAA	/" "$li: bad hash (expected 11 base64url digits)"
bad "unknown allocation" "${lv}s/	=	0	0	/	=	0	99	/" "$lv: unknown allocation (expected the number of an 'a' line above)"
bad "prefix reference" "${lv}s/constant.5{}/^99x{}/" "$lv: bad prefix reference (expected '^N' with N at most the length of the field on the line before)"
bad "'=' name on the first value" "${lv}s/constant.5{}/=/" "$lv: '=' on the first line of its kind (expected the field itself)"
bad "'=' shape on the first value" "${lv}s/	rd	s8[^	]*\$/	rd	=/" "$lv: shape '=' but the value line before has none (expected the shape)"
bad "live range" "${lv}s/	0-6	/	6-0	/" "$lv: bad live range"
bad "flags" "${lv}s/	rd	/	rz	/" "$lv: unknown value flag"
bad "escape" "${lv}s/constant.5/con\\\\qstant.5/" "$lv: bad escape in field"
bad "value twice" "${lv}p" "$((lv + 1)): value listed twice"
bad "peak names no value" "${lp}s/Arg_0.1/Arg_9.9/" "$lp: peak line names no value"
n=$(wc -l <goldens/jit_splash.golden | tr -d ' ')
head -c -1 goldens/jit_splash.golden >bad.golden
run_hlodiff 2 "bad golden: cut in its last line" stat bad.golden
ok_cmd "bad golden: cut: message" grep -qF "hlodiff: bad.golden:$n: last line has no newline (expected a complete file)" "$T/err"
printf 'hlodiff-golden 2\nat\t5\tx\n' >bad.golden
run_hlodiff 2 "bad golden: time out of range" stat bad.golden
ok_cmd "bad golden: time: message" grep -qF "hlodiff: bad.golden:2: time out of range" "$T/err"
printf 'hlodiff-golden 2\nlive-max\t999999999\n' >bad.golden
run_hlodiff 2 "bad golden: schedule too long" stat bad.golden
ok_cmd "bad golden: schedule: message" grep -qF "hlodiff: bad.golden:2: schedule too long" "$T/err"
printf 'hlodiff-golden 2\nlines\t9\ni\tx\ty\tAAAAAAAAAAA\tAAAAAAAAAAA\t=\t-\t-\t-\n' >bad.golden
run_hlodiff 2 "bad golden: shape '=' without a value" stat bad.golden
ok_cmd "bad golden: shape '=': message" grep -qF "hlodiff: bad.golden:3: shape '=' but no value of that name in an allocation" "$T/err"
printf 'hlodiff-golden 2\nf\t2\tx.py\n' >bad.golden
run_hlodiff 2 "bad golden: source files out of order" stat bad.golden
ok_cmd "bad golden: files: message" grep -qF "hlodiff: bad.golden:2: source files out of order" "$T/err"
printf 'hlodiff-golden 2\nlines\t9\ni\tx\ty\tAAAAAAAAAAA\tAAAAAAAAAAA\ts32[]\t-\t7\t-\n' >bad.golden
run_hlodiff 2 "bad golden: unknown source file" stat bad.golden
ok_cmd "bad golden: unknown source file: message" grep -qF "hlodiff: bad.golden:3: unknown source file" "$T/err"
printf 'hlodiff-golden 2\npeak\tsometimes\t3\n' >bad.golden
run_hlodiff 2 "bad golden: peak style" stat bad.golden
ok_cmd "bad golden: peak style: message" grep -qF "hlodiff: bad.golden:2: unknown peak style" "$T/err"
printf 'hlodiff-golden 2\nsections\tallocations frobs\n' >bad.golden
run_hlodiff 2 "bad golden: section" stat bad.golden
ok_cmd "bad golden: section: message" grep -qF "hlodiff: bad.golden:2: unknown section" "$T/err"
printf 'hlodiff-golden 2\nv\tx{}\t-\t-\t-\t-\td\t-\n' >bad.golden
run_hlodiff 2 "bad golden: unknown instruction" stat bad.golden
ok_cmd "bad golden: unknown instruction: message" grep -qF "hlodiff: bad.golden:2: unknown instruction" "$T/err"
printf 'hlodiff-golden 10\n' >bad.golden
run_hlodiff 2 "another version is not a golden (read as a dump)" stat bad.golden
printf 'hlodiff-golden 1\n' >bad.golden
run_hlodiff 2 "version 1 is no longer read as a golden" stat bad.golden
# the field encodings of version 2, by hand: '=' opcode, '^N' op_name
# prefix, '=' op_name, '\^' a literal '^', '=' size and shape
printf 'hlodiff-golden 2\nlines\t9\na\t0\t64\t0\ttemp\n' >enc.golden
printf 'i\tfusion.1\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\t=\tjit(f)/mul\t-\t-\n' >>enc.golden
printf 'i\tadd.2\t=\tAAAAAAAAAAD\tAAAAAAAAAAE\t=\t^7add\t-\t-\n' >>enc.golden
printf 'i\tadd.3\t=\tAAAAAAAAAAF\tAAAAAAAAAAG\t=\t=\t-\t-\n' >>enc.golden
printf 'i\tneg.4\tnegate\tAAAAAAAAAAH\tAAAAAAAAAAI\t=\t\\^x\t-\t-\n' >>enc.golden
printf 'v\tfusion.1{}\t=\t0\t0\t0-1\td\tf32[16]{0}\n' >>enc.golden
printf 'v\tadd.2{}\t32\t0\t0\t1-2\td\t=\n' >>enc.golden
printf 'v\t^3.3{}\t32\t0\t0\t2-3\td\t=\n' >>enc.golden
printf 'v\tneg.4{}\t32\t0\t0\t3-4\td\t=\n' >>enc.golden
run_hlodiff 0 "golden encodings: by op_name" --no-rules --by op_name enc.golden enc.golden
ok_cmd "golden encodings: '^7add' after 'jit(f)/mul' is jit(f)/add, '=' the same" grep -q '^    add  *64  *64 ' "$T/out"
ok_cmd "golden encodings: '=' size is the allocation's" grep -q '^    mul  *64  *64 ' "$T/out"
ok_cmd "golden encodings: '\\^x' is ^x" grep -q '^  ^x  *32  *32 ' "$T/out"
run_hlodiff 0 "golden encodings: by opcode" --no-rules --by opcode enc.golden enc.golden
ok_cmd "golden encodings: opcode '=' is the name up to its '.'" grep -q '^  add  *64  *64 ' "$T/out"
ok_cmd "golden encodings: fusion" grep -q '^  fusion  *64  *64 ' "$T/out"
ok_cmd "golden encodings: negate" grep -q '^  negate  *32  *32 ' "$T/out"
printf 'hlodiff-golden 2\n' >empty.golden
run_hlodiff 0 "the magic line alone is an empty golden" stat empty.golden

done_testing
