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
	ok_cmd "$b: starts with the magic line" sh -c "head -n 1 'g/$b.golden' | grep -qx 'hlodiff-golden 5'"
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
ok_cmd "--gz: gzip data named .golden.gz" sh -c "gzip -dc gz/tpu-splash_attention-0035.golden.gz | head -n 1 | grep -qx 'hlodiff-golden 5'"
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

# ---- malformed goldens: FILE:LINE: what is wrong (expected ...), exit 2 ------------
# Each message of src/golden.c, with its line (the last test below checks
# that every message of golden.c is in some test).
G3='hlodiff-golden 5\n'
I='i\tx\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\tf32[8]{0}\n'    # an instruction line
gerr() { # DESC EXPECTED-START PRINTF-FORMAT [ARGS...]
	d=$1
	e=$2
	shift 2
	# shellcheck disable=SC2059
	printf "$@" >bad.golden
	run_hlodiff 2 "bad golden: $d: exit 2" stat bad.golden || return
	case "$(head -n 1 "$T/err")" in
	"hlodiff: bad.golden:$e"*) pass "bad golden: $d: message and line" ;;
	*) fail "bad golden: $d: message and line"
	   diag "expected: hlodiff: bad.golden:$e"
	   diag_file "$T/err" 3 ;;
	esac
}
gerr "unknown line" "2: unknown line (expected a header line or a record a, f, i, v, r or p)" "${G3}x\t1\n"
gerr "too many fields" "2: too many fields (expected at most 11 TAB-separated fields)" "${G3}a\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\n"
gerr "wrong number of fields" "2: wrong number of fields (expected 'a SIZE FLAGS [COLOUR [NUMBER [PARAMETER [INDEX [SHAPE]]]]]')" "${G3}a\t5\n"
gerr "bad number" "2: bad number (expected a whole number)" "${G3}a\t5x\t-\n"
gerr "negative size" "2: negative size (expected a size >= 0)" "${G3}a\t-5\t-\n"
gerr "negative allocation number" "2: negative number (expected a number >= 0)" "${G3}a\t5\t-\t0\t-3\n"
gerr "negative parameter number" "2: negative number (expected a number >= 0)" "${G3}a\t5\tp\t\t\t-2\n"
gerr "allocation twice" "3: allocation listed twice (expected one 'a' line per allocation)" "${G3}a\t5\t-\na\t5\t-\t0\t0\n"
gerr "unknown allocation flag" "2: unknown allocation flag (expected letters p, o, c, l, m, t or '-')" "${G3}a\t5\tpz\n"
gerr "negative live-max" "2: negative number (expected a number >= 0)" "${G3}live-max\t-5\n"
gerr "live-max too long" "2: schedule too long (expected a length below 2^26)" "${G3}live-max\t999999999\n"
gerr "unknown section" "2: unknown section (expected words such as 'allocations total peak')" "${G3}sections\tallocations frobs\n"
gerr "unknown peak style" "2: unknown peak style (expected absent, cumulative, plain or undetermined)" "${G3}peak\tsometimes\t3\n"
gerr "peak header last field" "2: bad last field (expected '=' (the peak lines are derived) or nothing)" "${G3}peak\tplain\t3\tx\n"
gerr "derived peak without a peak" "2: derived peak lines without a peak (expected a cumulative or plain peak)" "${G3}peak\tabsent\t-\t=\n"
gerr "derived peak time" "2: time out of range (expected 0 <= TIME < 2^26)" "${G3}peak\tplain\t999999999\t=\n"
gerr "at: time out of range" "3: time out of range (expected 0 <= TIME < the 'lines' figure and 2^26)" "${G3}lines\t4\nat\t5\tx\n"
gerr "bad escape" '2: bad escape in field (expected \\, \t, \n, \r, \-, \=, \^, \@, \{ or \xHH)' "${G3}at\t1\tx\\\\q\n"
gerr "file prefix before any file" "2: bad prefix reference (expected '^N' with N at most the length of the field on the line before)" "${G3}f\t^9x.py\n"
gerr "bad escape after a prefix" "3: bad escape in field" "${G3}f\t/src/a.py\nf\t^5\\\\q\n"
gerr "'=' on the first line" "2: '=' on the first line of its kind (expected the field itself)" "${G3}f\t=\n"
gerr "unknown source file" "2: unknown source file (expected the number of an 'f' line above, or '-')" "${G3}i\tx\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\ts32[]\t-\t7\n"
gerr "empty instruction name" "2: empty instruction name (expected a name)" "${G3}i\t-\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\ts32[]\n"
gerr "instruction twice" "3: instruction listed twice (expected one 'i' line per instruction)" "${G3}${I}${I}"
gerr "bad hash" "2: bad hash (expected 11 base64url digits)" "${G3}i\tx\t=\txyz!!!!!!!!\tAAAAAAAAAAC\ts32[]\n"
gerr "hash over 64 bits" "2: bad hash (expected 11 base64url digits)" "${G3}i\tx\t=\tQAAAAAAAAAA\tAAAAAAAAAAC\ts32[]\n"
gerr "bad structural hash" "2: bad hash (expected 11 base64url digits)" "${G3}i\tx\t=\tAAAAAAAAAAB\tAA!AAAAAAAC\ts32[]\n"
gerr "unknown hash id" "2: unknown hash id (expected 11 base64url digits, or the id of a hash on an 'i' line above)" "${G3}i\tx\t=\tZZ\tAAAAAAAAAAC\ts32[]\n"
gerr "structural '=' after a new hash" "2: structural hash '=' after a new canonical hash (expected 11 base64url digits)" "${G3}i\tx\t=\tAAAAAAAAAAB\t=\ts32[]\n"
gerr "unknown opcode letter" "2: unknown opcode letter (expected '=', F, P, C or the opcode)" "${G3}i\tx\tQ\tAAAAAAAAAAB\tAAAAAAAAAAC\ts32[]\n"
gerr "shape '=' on the first instruction" "2: shape '=' but the 'i' line before has none (expected the shape)" "${G3}i\tx\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\t=\n"
gerr "unknown shape id" "2: unknown shape id (expected '@ID' of a shape spelled on an 'i' line above)" "${G3}i\tx\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\t@zz\n"
gerr "unknown shape id in a tuple" "2: unknown shape id" "${G3}i\tx\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\t(s32[], @zz)\n"
gerr "unknown op_name id" "2: unknown op_name id (expected '@ID' of an op_name on an 'i' line above)" "${G3}i\tx\t=\tAAAAAAAAAAB\tAAAAAAAAAAC\ts32[]\t@zz\n"
gerr "unknown shape id on a value line" "3: unknown shape id (expected '@ID' of a shape spelled above)" "${G3}a\t4\tt\nv\tx{}\t0\t-\t\t\t\t\t@zz\n"
gerr "value: '{INDEX}' first" "2: '{INDEX}' before any instruction (expected NAME{INDEX})" "${G3}v\t{}\t-\t-\n"
gerr "value: empty key first" "2: '{INDEX}' before any instruction (expected NAME{INDEX})" "${G3}v\t\t-\t-\n"
gerr "value: empty name" "2: empty name (expected NAME{INDEX})" "${G3}v\t-\t-\t-\n"
gerr "value: bad name" "2: bad name (expected NAME{INDEX})" "${G3}v\tx{\t-\t-\n"
gerr "value without index" "2: value without index (expected NAME{INDEX}, '{}' for an array value)" "${G3}v\tx\t-\t-\n"
gerr "value twice" "4: value listed twice (expected one 'v' line per value)" "${G3}${I}v\t{}\t-\t-\nv\tx{}\t-\t-\n"
gerr "unknown value flag" "2: unknown value flag (expected letters t, p, r, d or '-')" "${G3}v\tx{}\t-\t-\trz\n"
gerr "two defining instructions" "3: two defining instructions (expected flag 'd' or an instruction name, not both)" "${G3}${I}v\t{}\t-\t-\td\t\t\tx\n"
gerr "unknown instruction" "2: unknown instruction (expected the name of an 'i' line above)" "${G3}v\tx{}\t-\t-\td\n"
gerr "bad live range" "3: bad live range (expected START-END with 0 <= START <= END, '-END' after a live range, or '-')" "${G3}${I}v\t{}\t-\t6-0\n"
gerr "'-END' first" "3: bad live range" "${G3}${I}v\t{}\t-\t-4\n"
gerr "live range too long" "3: schedule too long (expected times below 2^26)" "${G3}${I}v\t{}\t-\t0-999999999\n"
gerr "allocation left out first" "3: allocation left out but the value line before has none (expected the allocation number)" "${G3}${I}v\t{}\t\t-\n"
gerr "unknown allocation" "3: unknown allocation (expected the number of an 'a' line above)" "${G3}${I}v\t{}\t99\t-\n"
gerr "size without allocation" "3: size, shape or offset without allocation (expected an allocation, or no size, shape and offset)" "${G3}${I}v\t{}\t-\t-\t\t32\n"
gerr "offset without allocation" "3: size, shape or offset without allocation" "${G3}${I}v\t{}\t-+A\t-\n"
gerr "bad offset digit" "4: bad offset (expected ALLOCATION+OFFSET or ALLOCATION*K, in base64url digits)" "${G3}a\t64\tt\n${I}v\t{}\t0+*\t-\n"
gerr "bad offset index digit" "4: bad offset" "${G3}a\t64\tt\n${I}v\t{}\t0*+\t-\n"
gerr "offset index before any offset" "4: unknown offset (expected '*K' with K below the number of '+' offsets of the allocation above)" "${G3}a\t64\tt\n${I}v\t{}\t0*A\t-\n"
gerr "offset index of another allocation's offset" "6: unknown offset" "${G3}a\t64\tt\na\t64\tt\n${I}v\t{}\t0+A\t0-1\nv\tx{0}\t1*A\t-\t\t4\n"
gerr "empty offset" "4: bad offset" "${G3}a\t64\tt\n${I}v\t{}\t0+\t-\n"
gerr "offset beyond int64" "4: bad offset" "${G3}a\t64\tt\n${I}v\t{}\t0+PAAAAAAAAAA\t-\n"
gerr "no size" "3: no size (expected the size, as the shape gives none)" "${G3}a\t4\tt\nv\tx{}\t0\t-\tr\n"
gerr "negative value size" "4: negative size (expected a size >= 0)" "${G3}a\t4\tt\n${I}v\t{}\t0\t-\t\t-4\n"
gerr "orphan range: bad live range" "2: bad live range (expected 0 <= START <= END)" "${G3}r\tx{}\t5\t4\n"
gerr "orphan range too long" "2: schedule too long (expected times below 2^26)" "${G3}r\tx{}\t5\t999999999\n"
gerr "peak line names no value" "2: peak line names no value (expected the name of a 'v' line above, or a last field '-')" "${G3}p\tx{}\t4\n"
gerr "peak line: negative bytes" "2: negative bytes (expected a number >= 0)" "${G3}p\tx{}\t-4\n"
gerr "peak line: last field" "2: bad last field (expected '-' (the line names no value) or nothing)" "${G3}p\tx{}\t4\t\tx\n"
gerr "peak line after derived ones" "3: peak line after 'peak ... =' (expected no peak lines, or no '=' in the peak header)" "${G3}peak\tplain\t3\t=\np\tx{}\t4\n"
gerr "cut in its last line" "2: last line has no newline (expected a complete file)" "${G3}a\t4\tt"
gerr "another version" "1: golden file of another version (expected 'hlodiff-golden 5'; write it anew with 'hlodiff golden update')" 'hlodiff-golden 3\n'
gerr "version 4 (no default parameter fields)" "1: golden file of another version (expected 'hlodiff-golden 5'; write it anew with 'hlodiff golden update')" 'hlodiff-golden 4\n'
gerr "a far future version" "1: golden file of another version" 'hlodiff-golden 10\n'
# a real golden, edited: the first value line's allocation
lv=$(grep -n '^v	' goldens/jit_splash.golden | head -n 1 | cut -d: -f1)
sed "${lv}s/^\\(v	[^	]*	\\)[0-9]*/\\199/" goldens/jit_splash.golden >bad.golden
run_hlodiff 2 "bad golden: edited allocation: exit 2" stat bad.golden
ok_cmd "bad golden: edited allocation: message" grep -qF "hlodiff: bad.golden:$lv: unknown allocation" "$T/err"

# ---- the field encodings of version 3, by hand ------------------------------------------
# 'F' and '=' opcodes, '^N' and '=' op_name, '\^' a literal '^', '=' shape,
# '{}' for the name of the 'i' line above, an empty allocation field (the
# line before's), '-END' (the line before's start), '=' size (the
# allocation's) and a left-out size (the shape's bytes).
{
	printf 'hlodiff-golden 5\na\t64\tt\n'
	printf 'i\tmul_fusion.1\tF\tAAAAAAAAAAB\tAAAAAAAAAAC\tf32[8]{0}\tjit(f)/mul\n'
	printf 'v\t{}\t0\t0-1\t\t=\n'
	printf 'i\tadd.2\t=\tAAAAAAAAAAD\tAAAAAAAAAAE\t=\t^7add\n'
	printf 'v\t{}\t\t1-2\n'
	printf 'i\tadd.3\t=\tAAAAAAAAAAF\tAAAAAAAAAAG\t=\t=\n'
	printf 'v\t{}\t\t2-3\n'
	printf 'i\tneg.4\tnegate\tAAAAAAAAAAH\tAAAAAAAAAAI\t=\t\\^x\n'
	printf 'v\t{}\t\t-4\n'
} >enc.golden
run_hlodiff 0 "golden encodings: by op_name" --no-rules --by op_name enc.golden enc.golden
ok_cmd "golden encodings: '^7add' after 'jit(f)/mul' is jit(f)/add, '=' the same" grep -q '^    add  *64  *64 ' "$T/out"
ok_cmd "golden encodings: '=' size is the allocation's" grep -q '^    mul  *64  *64 ' "$T/out"
ok_cmd "golden encodings: '\\^x' is ^x" grep -q '^  ^x  *32  *32 ' "$T/out"
run_hlodiff 0 "golden encodings: by opcode" --no-rules --by opcode enc.golden enc.golden
ok_cmd "golden encodings: opcode '=' is the name up to its '.'" grep -q '^  add  *64  *64 ' "$T/out"
ok_cmd "golden encodings: 'F' is fusion" grep -q '^  fusion  *64  *64 ' "$T/out"
ok_cmd "golden encodings: negate" grep -q '^  negate  *32  *32 ' "$T/out"
run_hlodiff 0 "golden encodings: stat --json" stat --json enc.golden
ok_cmd "golden encodings: total derived from the allocations" grep -q '"total_bytes": 64' "$T/out"
ok_cmd "golden encodings: live-max derived from the live ranges ('-4' after '2-3' is 2-4)" grep -q '"live_max": 4' "$T/out"
# Version 5: an empty name field is the array value '{}' of the 'i' line
# above; a parameter's number left out follows the 'i' line before's
# (0 after other instructions); an 'a' line of a parameter without its
# fields takes them from its parameter value (the shape without its
# layout); '*K' is the allocation's K-th '+' offset.
{
	printf 'hlodiff-golden 5\na\t64\tt\na\t32\tpm\na\t8\tpm\n'
	printf 'a\t8\tpm\t\t\t3\t{0}\tf32[2]\n'
	printf 'i\tArg_0.1\tP\tAAAAAAAAAAJ\tAAAAAAAAAAK\tf32[8]{0}\n'
	printf 'v\t\t1\t0-5\n'
	printf 'i\tArg_1.2\tP\tAAAAAAAAAAL\tAAAAAAAAAAM\t(f32[2]{0}, f32[2]{0})\n'
	printf 'v\t{0}\t3\t0-5\nv\t{1}\t2\t0-5\n'
	printf 'i\tadd.3\t=\tAAAAAAAAAAD\tAAAAAAAAAAE\tf32[8]{0}\n'
	printf 'v\t\t0+Q\t1-2\n'
	printf 'i\tneg.4\tnegate\tAAAAAAAAAAH\tAAAAAAAAAAI\t=\n'
	printf 'v\t\t*A\t2-3\n'
} >v5.golden
run_hlodiff 0 "version 5 encodings: stat" stat v5.golden
ok_cmd "version 5: parameter 0 from Arg_0.1's value in allocation 1" grep -q '^  parameter 0 {}  *32  f32\[8\]  Arg_0.1$' "$T/out"
ok_cmd "version 5: parameter 1 (after 0) from Arg_1.2{1} in allocation 2" grep -q '^  parameter 1 {1}  *8  f32\[2\]  Arg_1.2$' "$T/out"
ok_cmd "version 5: parameter 3 as written on allocation 3" grep -q '^  parameter 3 {0}  *8  f32\[2\]  Arg_1.2$' "$T/out"
run_hlodiff 0 "version 5 encodings: stat --json" stat --json v5.golden
# add.3 and neg.4 (32 bytes each) both at offset 16 (+Q, then *A): at
# time 2 they hold 32 bytes, not 64, beside the 48 of the parameters
ok_cmd "version 5: '*A' is the offset of '+Q' (held peak 80, not 112)" grep -q '"peak_bytes": 80,' "$T/out"
ok_cmd "version 5: the values of the empty name fields ('{}'): five" grep -q '"values": 5,' "$T/out"
run_hlodiff 0 "version 5 encodings: the golden against itself: exit 0" --no-rules --all v5.golden v5.golden
printf 'hlodiff-golden 5\n' >empty.golden
run_hlodiff 0 "the magic line alone is an empty golden" stat empty.golden

# Every message of golden.c appearing in some test is checked in
# tests/t0620-messages.t.

done_testing
