#!/bin/sh
# Every message of src/parse*.c, src/input.c and src/main.c is produced by
# some test, with its position checked.  This file triggers the ones no
# other test does (the list, message by message, is in
# docs/robustness.md), and its last two tests read the sources and fail
# when a message appears in no tests/t*.t file at all (for main.c, a TODO
# while its new commands are being written).
. "$(dirname "$0")/lib.sh"

need_hlodiff
T=$TMPDIR_T
S=$HD_SRCDIR/tests/data/seed-001.txt   # CPU; sections at 1, 78, 80, 505, 506, 559, 625, 644
S2=$HD_SRCDIR/tests/data/seed-002.txt  # TPU: colours
F=$T/in.txt

# msg DESC EXPECTED ARGS...: `hlodiff stat ARGS` exits 2, prints nothing
# on stdout, and its first line of stderr starts with EXPECTED (which
# holds the position).
msg() {
	_d=$1
	_e=$2
	shift 2
	run_hlodiff 2 "$_d: exit 2" stat "$@" || return
	_first=$(head -n 1 "$T/err")
	case "$_first" in
	"$_e"*)
		if [ -s "$T/out" ]; then
			fail "$_d: message and position"
			diag "stdout is not empty"
		else
			pass "$_d: message and position"
		fi
		;;
	*)
		fail "$_d: message and position"
		diag "expected: $_e..."
		diag "     got: $_first"
		;;
	esac
}

# edit LINE SED-COMMAND [BASE]: $F = BASE (default $S) with the sed
# command applied to line LINE.
edit() {
	sed "$1$2" "${3:-$S}" >"$F"
}

# ---- value short forms (" value: <ID NAME[{IDX}][ (phi)][ @C]>") -----
edit 4 's/<91 copy.11 @0>/<92 lt.1 @0>/'
msg "two values, one name" "hlodiff: $F:4: two values named 'lt.1' (ids 1 and 92)" "$F"
edit 3 's/<1 lt.1/<x lt.1/'
msg "short form without an id" "hlodiff: $F:3: bad value short form in ' value: <x lt.1 @0> (size=1,offset=0): pred[]' (expected '<ID NAME>')" "$F"
edit 3 's/<1 lt.1 @0>/<1 @0>/'
msg "short form without a name" "hlodiff: $F:3: missing value name in ' value: <1 @0>" "$F"
edit 3 's/<1 lt.1 @0>/<1 lt.1 @x>/'
msg "short form with a bad colour" "hlodiff: $F:3: bad colour in ' value: <1 lt.1 @x>" "$F"
edit 3 's/<1 lt.1 @0>/<1 lt.1 @0/'
msg "short form without '>'" "hlodiff: $F:3: unterminated value short form in ' value: <1 lt.1 @0 (size=1" "$F"
edit 3 's/<1 lt.1/<-1 lt.1/'
msg "negative value id" "hlodiff: $F:3: negative value id in ' value: <-1 lt.1" "$F"

# ---- allocation headers -----------------------------------------------
edit 35 's/, color 1,/, color x,/' "$S2"
msg "bad allocation colour" "hlodiff: $F:35: bad colour in 'allocation 15: size 69632, color x," "$F"
edit 2 's/size 2048,/size 2048, page x,/'
msg "bad page" "hlodiff: $F:2: bad page in 'allocation 0: size 2048, page x," "$F"
edit 12 's/parameter 0,/parameter x,/'
msg "bad parameter number" "hlodiff: $F:12: bad parameter number in 'allocation 4: size 8, parameter x," "$F"
edit 12 's/shape |u32\[2\]| at/shape u32[2] at/'
msg "parameter shape without bars" "hlodiff: $F:12: bad parameter shape in 'allocation 4: " "$F"
edit 12 's/at ShapeIndex {}/at ShapeIndex x/'
msg "bad parameter shape index" "hlodiff: $F:12: bad parameter shape index in 'allocation 4: " "$F"
edit 2 's/output shape is |f32\[32,16\]|/output shape is f32[32,16]/'
msg "output shape without bars" "hlodiff: $F:2: bad output shape in 'allocation 0: " "$F"
printf 'Total bytes used: 1 (1B)\nallocation 0: size 1, constant:\n' >"$F"
msg "allocation header after the total" "hlodiff: $F:2: allocation header outside the allocations section (expected 'BufferAssignment:' before it)" "$F"
edit 2 's/^allocation 0:/allocation x:/'
msg "allocation header without a number" "hlodiff: $F:2: bad allocation header in 'allocation x: size 2048," "$F"
edit 2 's/maybe-live-out:$/maybe-live-out/'
msg "allocation header without its ':'" "hlodiff: $F:2: allocation header does not end in ':' in 'allocation 0:" "$F"
edit 6 's/size 4, //'
msg "allocation without a size" "hlodiff: $F:6: missing or negative allocation size in 'allocation 1: constant:' (expected 'size N' with N >= 0)" "$F"
edit 2 's/^allocation 0:/allocation -1:/'
msg "negative allocation number" "hlodiff: $F:2: negative allocation number in 'allocation -1: " "$F"

# ---- value lines and the reused-by block (G2) ------------------------
printf 'BufferAssignment:\n value: <1 a.1 @0> (size=4,offset=0): f32[]\n' >"$F"
msg "value line before any allocation" "hlodiff: $F:2: value line outside an allocation (expected an 'allocation N:' header before it)" "$F"
{ sed -n '1,5p' "$S"; printf ' reused by buffers of a different color:\n  value: <9 r.1 @2> (color=2)\n value: <8 v.1 @0> (size=4,offset=0): f32[]\n'; } >"$F"
msg "value line inside the reused-by block" "hlodiff: $F:8: value line after 'reused by buffers of a different color:' (expected '  value: <...> (color=C)')" "$F"
edit 3 's/(size=1,offset=0)/(size=1 offset=0)/'
msg "bad value line" "hlodiff: $F:3: bad value line in ' value: <1 lt.1 @0> (size=1 offset=0): pred[]' (expected ' value: <ID NAME> (size=S,offset=O): SHAPE')" "$F"
{ sed -n '1,5p' "$S"; printf ' reused by buffers of a different color:\n  value: <9 r.1 @2> (colour=2)\n'; } >"$F"
msg "bad reused-by value line" "hlodiff: $F:7: bad reused-by value line in '  value: <9 r.1 @2> (colour=2)' (expected '  value: <ID NAME> (color=C)')" "$F"

# ---- Total bytes used ---------------------------------------------------
awk 'NR == 78 { print; print "Total bytes used: 9152 (8.9KiB)"; next } { print }' "$S" >"$F"
msg "second total" "hlodiff: $F:79: second 'Total bytes used' line (first at line 78)" "$F"
edit 78 's/9152 (8.9KiB)/x/'
msg "total without a number" "hlodiff: $F:78: bad total in 'Total bytes used: x' (expected 'Total bytes used: N (HUMAN)')" "$F"
edit 78 's/9152 (8.9KiB)/9152 8.9KiB/'
msg "total with a bad tail" "hlodiff: $F:78: bad total in 'Total bytes used: 9152 8.9KiB'" "$F"
edit 78 's/9152 (/-9152 (/'
msg "negative total" "hlodiff: $F:78: negative total in 'Total bytes used: -9152 (8.9KiB)' (expected N >= 0)" "$F"

# ---- Used values records --------------------------------------------
sed '80d' "$S" >"$F"
msg "record before 'Used values:'" "hlodiff: $F:80: value record outside 'Used values:' (expected 'Used values:' before it)" "$F"
sed '86d' "$S" >"$F"
msg "record that does not end" "hlodiff: $F:86: value record starts before the previous one ended (expected ' from instruction: ...')" "$F"
edit 81 's/$/ x/'
msg "text after a record header" "hlodiff: $F:81: text after value record in '<0 constant.78 @0> x' (expected '<ID NAME>' alone)" "$F"
edit 83 's/constant.78/!x/'
msg "position without a name" "hlodiff: $F:83: bad position in '  !x' (expected '  NAME' or '  NAME {IDX}')" "$F"
edit 83 's/$/ x/'
msg "position with a bad index" "hlodiff: $F:83: bad position in '  constant.78 x' (expected '  NAME {IDX}')" "$F"
edit 85 's/lt.1/!lt/'
msg "use without a name" "hlodiff: $F:85: bad use in '  !lt, operand 1' (expected '  NAME, operand K')" "$F"
edit 85 's/operand 1/operand x/'
msg "use without an operand number" "hlodiff: $F:85: bad use in '  lt.1, operand x' (expected '  NAME, operand K')" "$F"
edit 85 's/$/ x/'
msg "use with a bad index" "hlodiff: $F:85: bad use in '  lt.1, operand 1 x' (expected '  NAME, operand K {IDX}')" "$F"
edit 86 's/%constant.78 = /%!x = /'
msg "instruction without a name" "hlodiff: $F:86: bad instruction in ' from instruction: %!x = s32[] constant(5)" "$F"
edit 86 's/%constant.78 = /%constant.78 == /'
msg "instruction without ' = '" "hlodiff: $F:86: bad instruction in ' from instruction: %constant.78 == " "$F"
edit 86 's/ = s32\[\] constant(5).*/ = s32[]/'
msg "instruction without an opcode" "hlodiff: $F:86: bad instruction shape in ' from instruction: %constant.78 = s32[]'" "$F"
edit 86 's/ constant(5).*/ constant/'
msg "opcode without operands" "hlodiff: $F:86: bad instruction opcode in ' from instruction: %constant.78 = s32[] constant' (expected 'opcode(operands)')" "$F"
edit 86 's/ constant(5).*/ constant(5/'
msg "operand list not closed" "hlodiff: $F:86: unbalanced operand list in ' from instruction: %constant.78 = s32[] constant(5' (expected 'opcode(operands)')" "$F"
edit 86 's/ constant(5).*/ constant(5),x/'
msg "text after the operands" "hlodiff: $F:86: bad text after operands in ' from instruction: %constant.78 = s32[] constant(5),x' (expected ', attr=value, ...')" "$F"
edit 79 's/^$/ from instruction: %a.1 = f32[] add()/'
msg "'from instruction' outside a record" "hlodiff: $F:79: 'from instruction' outside a value record (expected '<ID NAME>' before it)" "$F"
awk 'NR == 87 { print "Used values:" } { print }' "$S" >"$F"
msg "second 'Used values:'" "hlodiff: $F:87: second 'Used values:' section" "$F"
awk 'NR == 2 { print "BufferAssignment:" } { print }' "$S" >"$F"
msg "second 'BufferAssignment:'" "hlodiff: $F:2: second 'BufferAssignment:' section" "$F"

# ---- HloLiveRange -----------------------------------------------------
edit 505 's/max 52/max x/'
msg "bad HloLiveRange header" "hlodiff: $F:505: bad HloLiveRange header in 'HloLiveRange (max x):' (expected 'HloLiveRange (max T):')" "$F"
edit 507 's/^    0:key.1/    x:key.1/'
msg "sequence line without a number" "hlodiff: $F:507: bad sequence line in '    x:key.1' (expected '    I:NAME')" "$F"
edit 507 's/$/ x/'
msg "sequence line with a bad name" "hlodiff: $F:507: bad sequence line in '    0:key.1 x'" "$F"
edit 507 's/^    0:/    5:/'
msg "sequence out of order" "hlodiff: $F:507: sequence position 5 out of order (expected 0)" "$F"
edit 561 's/{}:20-21/{}20-21/'
msg "live range without ':'" "hlodiff: $F:561: bad live range in '    lt.1{}20-21' (expected '    NAME{IDX}:START-END')" "$F"
edit 561 's/:20-21/:20+21/'
msg "live range without '-'" "hlodiff: $F:561: bad live range in '    lt.1{}:20+21'" "$F"
edit 561 's/:20-21/:21-20/'
msg "live range that ends before it starts" "hlodiff: $F:561: live range ends before it starts in '    lt.1{}:21-20' (expected START <= END)" "$F"
edit 561 's/lt.1{}/!lt{}/'
msg "live range without a name" "hlodiff: $F:561: bad live range name in '    !lt{}:20-21' (expected 'NAME{IDX}')" "$F"
awk 'NR == 644 { print "  Live ranges at 45 (peak):" } { print }' "$S" >"$F"
msg "second peak section" "hlodiff: $F:644: second peak section" "$F"
edit 625 's/at 45 /at x /'
msg "bad peak header" "hlodiff: $F:625: bad peak header in '  Live ranges at x (peak):' (expected '  Live ranges at T (peak):')" "$F"
edit 626 's/.*/    broadcast_add_fusion{} 2048 bytes/'
msg "peak line without ':'" "hlodiff: $F:626: bad peak line in '    broadcast_add_fusion{} 2048 bytes' (expected '    NAME{IDX}: B bytes (cumulative: S bytes)')" "$F"
edit 626 's/: 2048 bytes (/: x bytes (/'
msg "peak line without bytes" "hlodiff: $F:626: bad peak line in '    broadcast_add_fusion{}: x bytes" "$F"
edit 626 's/broadcast_add_fusion{}/!b{}/'
msg "peak line without a name" "hlodiff: $F:626: bad peak value name in '    !b{}: 2048 bytes" "$F"
edit 626 's/cumulative: 2048/cumulative: x/'
msg "bad cumulative figure" "hlodiff: $F:626: bad cumulative figure in '    broadcast_add_fusion{}: 2048 bytes (cumulative: x bytes)' (expected '(cumulative: S bytes)')" "$F"
edit 627 's/ (cumulative: [0-9]* bytes)//'
msg "plain peak line after cumulative ones" "hlodiff: $F:627: peak lines mix the cumulative and plain styles" "$F"
edit 626 's/ (cumulative: [0-9]* bytes)//'
msg "cumulative peak line after plain ones" "hlodiff: $F:627: peak lines mix the cumulative and plain styles" "$F"

# ---- stack-trace breakdown -------------------------------------------
edit 644 's/usage: 8 288 bytes/usage: x bytes/'
msg "bad stack-trace header" "hlodiff: $F:644: bad stack trace header in '  Stack trace breakdown for peak usage: x bytes'" "$F"
edit 645 's/)$//'
msg "stack node without its figures" "hlodiff: $F:645: bad stack trace node in '    main.336 (100.0%, total: 8 288 bytes" "$F"
edit 645 's/main.336 (/main.336(/'
msg "stack node figures not after a space" "hlodiff: $F:645: bad stack trace node in '    main.336(100.0%" "$F"
edit 645 's/(100.0%,/(x%,/'
msg "stack node without a percentage" "hlodiff: $F:645: bad stack trace percentage in '    main.336 (x%, total" "$F"
edit 645 's/current: 0 bytes/current: x bytes/'
msg "stack node with bad figures" "hlodiff: $F:645: bad stack trace figures in '    main.336 (100.0%, total: 8 288 bytes, current: x bytes" "$F"
edit 645 's/(100.0%, total: .*/(100.0%, x bytes)/'
msg "older stack node with bad figures" "hlodiff: $F:645: bad stack trace figures in '    main.336 (100.0%, x bytes)' (expected '(P%, N bytes)')" "$F"

# ---- checks at the end of a file --------------------------------------
head -n 644 "$S" >"$F"
msg "stack-trace header without nodes" "hlodiff: $F:644: stack-trace breakdown has no nodes for its 8288 bytes (truncated dump?)" "$F"
edit 644 's/usage: 8 288 bytes/usage: 8 289 bytes/'
msg "stack-trace nodes short of the header" "hlodiff: $F:663: stack-trace nodes add up to 8288 bytes but the header says 8289 (truncated dump?)" "$F"
edit 643 's/cumulative: 8288/cumulative: 8289/'
msg "peak lines and tree disagree" "hlodiff: $F:663: peak lines add up to 8289 bytes but the stack-trace breakdown counts 8288 (truncated dump?)" "$F"
head -n 84 "$S" >"$F"
msg "dump that ends inside a record" "hlodiff: $F:84: dump ends inside a value record (expected ' from instruction: ...')" "$F"
head -n 505 "$S" >"$F"
msg "HloLiveRange without its sequence" "hlodiff: $F:505: HloLiveRange ends before its 'InstructionSequence:' (truncated dump?)" "$F"
head -n 558 "$S" >"$F"
msg "sequence without BufferLiveRange" "hlodiff: $F:558: HloLiveRange ends before 'BufferLiveRange:' (truncated dump?)" "$F"
head -n 625 "$S" >"$F"
msg "peak header without lines" "hlodiff: $F:625: peak section has no lines (truncated dump?)" "$F"
printf '*** Begin module_1.x.txt ***\nHloModule x\n*** End module_1.x.txt ***\n' >"$F"
msg "stdout wrapper without a dump" "hlodiff: $F:3: no buffer-assignment content found (expected 'BufferAssignment:')" "$F"

# ---- main.c -----------------------------------------------------------
run_hlodiff 2 "--by without keys: exit 2" "$S" "$S" --by
ok_cmd "--by without keys: message" grep -q "^hlodiff: --by needs a key list" "$T/err"
run_hlodiff 2 "--rules without a file: exit 2" "$S" "$S" --rules
ok_cmd "--rules without a file: message" grep -q "^hlodiff: --rules needs a file name" "$T/err"

if [ -w /dev/full ]; then
	run_hlodiff 2 "--html into a full device: exit 2" --html /dev/full "$S" "$S"
	ok_cmd "--html into a full device: message (the close fails)" grep -q "^hlodiff: /dev/full: cannot write: No space left on device" "$T/err"
else
	skip "no /dev/full"
	skip "no /dev/full"
fi

# message: "no *-buffer-assignment.txt dumps or golden files in this directory"
mkdir -p "$T/empty-old" "$T/empty-new"
run_hlodiff 2 "two directories without dumps: exit 2" "$T/empty-old" "$T/empty-new"
ok_cmd "two directories without dumps: names the directory" \
	grep -q "^hlodiff: $T/empty-old: no \*-buffer-assignment.txt dumps or golden files in this directory" "$T/err"

# ---- input.c ----------------------------------------------------------
run_hlodiff 2 "standard input that cannot be read (a directory): exit 2" stat - <"$T"
ok_cmd "standard input that cannot be read: message" grep -q "^hlodiff: <stdin>: cannot read: Is a directory" "$T/err"

# ---- warnings (exit 0) -------------------------------------------------
edit 78 's/9152 (8.9KiB)/9153 (8.9KiB)/'
run_hlodiff 0 "total that differs from the allocations: exit 0" stat "$F"
ok_cmd "total that differs: warning at its line" grep -q "^hlodiff: $F:78: warning: 'Total bytes used' is 9153 but the allocation sizes add up to 9152" "$T/err"
{
	echo '*** Begin module_1.a.cpu_after_optimizations-buffer-assignment.txt ***'
	cat "$S"
	echo '*** End module_1.a.cpu_after_optimizations-buffer-assignment.txt ***'
	echo '*** Begin module_2.b.cpu_after_optimizations-buffer-assignment.txt ***'
	cat "$S"
	echo '*** End module_2.b.cpu_after_optimizations-buffer-assignment.txt ***'
} >"$F"
run_hlodiff 0 "two modules in one stdout stream: exit 0" stat "$F"
ok_cmd "two modules: warning at the second" grep -q "^hlodiff: $F:666: warning: more than one module in this stream; only the first is read" "$T/err"

# ---- every message is tested somewhere ---------------------------------
# The first literal of each message call in the four sources, cut into
# the pieces between printf directives; its longest piece must appear in
# some tests/t*.t.  Messages that need more than 4 billion records or a
# failing zlib/fstat are listed in UNREACHABLE (docs/robustness.md), and
# "not a golden file" too: hd_load_dump passes only text starting
# "hlodiff-golden " to golden.c.  golden.c's messages are produced in
# tests/t0920-golden.t.
python3 - "$HD_SRCDIR" >"$T/untested" <<'EOF'
import glob, os, re, sys

root = sys.argv[1]
UNREACHABLE = {
    "too many values", "too many allocations", "too many instructions",
    "cannot start zlib", "input too large", "cannot stat",
    "not a golden file", "value index too long",
}
lit = r'"((?:[^"\\]|\\.)*)"'
calls = [
    r'\b(?:hd_ps_error|perr)\(\s*ps,\s*' + lit,
    r'\b(?:hd_ps_bad_line|bad_line)\(\s*ps,\s*\w+,\s*(?:[^;]*?\?\s*)?' + lit + r'(?:\s*:\s*' + lit + r')?',
    r'\bhd_error(?:_col)?\([^;"]*?' + lit + r'(?:\s*,\s*' + lit + r')?',
    r'\bhd_warning\([^;"]*?' + lit,
    r'\busage_error\(\s*' + lit + r'(?:\s*,\s*' + lit + r')?',
    r'\bfail_errno\(\s*in,\s*' + lit,
    r'\bbad\(\s*[&\w>.-]+,\s*' + lit,
]
tests = ""
for t in glob.glob(os.path.join(root, "tests", "t*.t")):
    tests += open(t, encoding="utf-8", errors="replace").read()
missing = []
found = {}
parsers = sorted(os.path.relpath(f, root)
                 for f in glob.glob(os.path.join(root, "src", "parse*.c")))
for src in parsers + ["src/input.c", "src/main.c", "src/golden.c"]:
    text = open(os.path.join(root, src), encoding="utf-8").read()
    for pat in calls:
        for m in re.finditer(pat, text, re.S):
            for s in m.groups():
                if s is None:
                    continue
                s = s.encode().decode("unicode_escape")
                # the part before "(expected ...)", "(truncated dump?)"
                head = s.split(" (")[0] if not s.startswith("(") else s
                pieces = [p.strip(" :'") for p in re.split(r"%[-+ #0-9.]*[a-z]+", head)]
                stem = max(pieces, key=len)
                if len(stem) < 4:
                    continue
                found[src] = found.get(src, 0) + 1
                if stem in UNREACHABLE:
                    continue
                if stem not in tests:
                    missing.append("%s: %s" % (src, s))
if sum(found.get(f, 0) for f in parsers) < 80:
    missing.append("src/parse*.c: only %d messages found: the patterns no longer fit"
                   % sum(found.get(f, 0) for f in parsers))
if found.get("src/golden.c", 0) < 40:
    missing.append("src/golden.c: only %d messages found: the patterns no longer fit"
                   % found.get("src/golden.c", 0))
for m in sorted(set(missing)):
    print(m)
EOF
st=$?
# untested_ok LIST WHAT: WHAT passes when the sweep ran and LIST is empty.
untested_ok() {
	if [ "$st" -eq 0 ] && [ ! -s "$1" ]; then
		pass "every message of $2 is in some test"
	else
		fail "every message of $2 is in some test"
		diag "not in any tests/t*.t:"
		diag_file "$1" 40
	fi
}
grep -v -e '^src/main.c: ' -e '^src/golden.c: ' "$T/untested" >"$T/untested.core"
grep '^src/main.c: ' "$T/untested" >"$T/untested.main"
grep '^src/golden.c: ' "$T/untested" >"$T/untested.golden"
untested_ok "$T/untested.core" "parse*.c and input.c"
untested_ok "$T/untested.main" "main.c"
untested_ok "$T/untested.golden" "golden.c"

done_testing
