#!/bin/sh
# Bad input: every case exits 2 with "hlodiff: FILE[:LINE]: ..." on
# stderr, never a crash (run_hlodiff fails on a signal or a sanitizer
# report) and never a report on stdout.
. "$(dirname "$0")/lib.sh"

S=$HD_SRCDIR/tests/data/seed-001.txt   # 663 lines; sections at 1, 78, 80, 505, 506, 559, 625, 644
T=$TMPDIR_T

# bad NAME FILE EXPECTED-STDERR-PREFIX: exit 2, stderr starts as given,
# nothing on stdout.
bad() {
	run_hlodiff 2 "$1: exit 2" stat "$2" || return
	first=$(head -n 1 "$T/err")
	case "$first" in
	"$3"*) pass "$1: message '$3...'" ;;
	*) fail "$1: message '$3...'"; diag "got: $first" ;;
	esac
	ok_cmd "$1: no report on stdout" test ! -s "$T/out"
}

# head_bytes N FILE: the first N bytes
head_bytes() { head -c "$1" "$2"; }
# byte offset of the start of line N (1-based) of FILE
line_offset() { head -n "$(($1 - 1))" "$2" | wc -c; }

: >"$T/empty.txt"
bad "empty file" "$T/empty.txt" "hlodiff: $T/empty.txt: empty file"

bad "not a dump" "$HD_SRCDIR/tests/lib.sh" "hlodiff: $HD_SRCDIR/tests/lib.sh:1: not a buffer-assignment dump"

bad "missing file" "$T/nope.txt" "hlodiff: $T/nope.txt: cannot open: No such file or directory"
bad "directory" "$T" "hlodiff: $T: is a directory"

# A dump cut in the middle of a line, inside each section.
cut_in_line() { # NAME LINE: cut 5 bytes into line LINE
	off=$(( $(line_offset "$2" "$S") + 5 ))
	head_bytes "$off" "$S" >"$T/cut-$2.txt"
	bad "cut inside $1 (line $2)" "$T/cut-$2.txt" "hlodiff: $T/cut-$2.txt:$2: dump ends in the middle of a line"
}
cut_in_line "the allocations" 31
cut_in_line "the total" 78
cut_in_line "a value record" 200
cut_in_line "the instruction sequence" 530
cut_in_line "the buffer live ranges" 600
cut_in_line "the peak lines" 630
cut_in_line "the stack-trace tree" 650

# Cut at a line boundary where the rest of the dump proves it is short.
head -n 334 "$S" >"$T/records.txt"
bad "Used values cut after a record" "$T/records.txt" "hlodiff: $T/records.txt:334: 'Used values' ends after 38 of 65 value records"

head -n 530 "$S" >"$T/seq.txt"
bad "instruction sequence cut" "$T/seq.txt" "hlodiff: $T/seq.txt:530: instruction sequence has 24 of 52 entries"
head -n 580 "$S" >"$T/blr.txt"
ok_cmd "buffer live ranges cut at a line end: the dump reads as one with no peak section" sh -c "'$HLODIFF' stat --json '$T/blr.txt' | grep -q '\"stated_peak_bytes\": null'"
head -n 650 "$S" >"$T/tree.txt"
bad "stack-trace tree cut" "$T/tree.txt" "hlodiff: $T/tree.txt:650: stack-trace breakdown ends with 96 bytes still to account for"

# Binary garbage (fixed pseudo-random bytes without NUL), NUL bytes.
python3 -c 'import random,sys; r=random.Random(7); sys.stdout.buffer.write(bytes(r.randrange(1,256) for _ in range(65536)))' >"$T/garbage.bin"
bad "binary garbage" "$T/garbage.bin" "hlodiff: $T/garbage.bin:1: not a buffer-assignment dump"
python3 -c 'import random,sys; r=random.Random(9); sys.stdout.buffer.write(bytes(r.randrange(0,256) for _ in range(65536)))' >"$T/garbage0.bin"
run_hlodiff 2 "binary garbage with NUL bytes: exit 2" stat "$T/garbage0.bin"
{ head -n 4 "$S"; printf ' va\000lue\n'; tail -n +6 "$S"; } >"$T/nul.txt"
bad "NUL byte" "$T/nul.txt" "hlodiff: $T/nul.txt:5:4: NUL byte in input"

# A 10 MB line: alone, and as an allocation size inside a dump.
python3 -c 'import sys; sys.stdout.write("x" * (10 << 20) + "\n")' >"$T/long1.txt"
bad "one 10 MB line" "$T/long1.txt" "hlodiff: $T/long1.txt:1: not a buffer-assignment dump: first line is 'xxxxxxxx"
{ head -n 1 "$S"; printf 'allocation 0: size '; python3 -c 'import sys; sys.stdout.write("9" * (10 << 20))'; printf ', maybe-live-out:\n'; tail -n +3 "$S"; } >"$T/long2.txt"
bad "10 MB number in an allocation header" "$T/long2.txt" "hlodiff: $T/long2.txt:2: bad allocation size"

# Numbers that do not fit, negative sizes, duplicates.
sed '2s/size 2048/size 9223372036854775808/' "$S" >"$T/overflow.txt"
bad "size beyond int64" "$T/overflow.txt" "hlodiff: $T/overflow.txt:2: bad allocation size"
sed '2s/size 2048/size -2048/' "$S" >"$T/negative.txt"
bad "negative allocation size" "$T/negative.txt" "hlodiff: $T/negative.txt:2: negative allocation size"
sed '31s/size=4,/size=-4,/' "$S" >"$T/negvalue.txt"
bad "negative value size" "$T/negvalue.txt" "hlodiff: $T/negvalue.txt:31: negative size or offset"
sed '6s/^allocation 1:/allocation 0:/' "$S" >"$T/dupalloc.txt"
bad "duplicate allocation number" "$T/dupalloc.txt" "hlodiff: $T/dupalloc.txt:6: allocation 0 appears twice (first at line 2)"
sed '31s/<96 copy.20 /<95 copy.20 /' "$S" >"$T/dupvalue.txt"
bad "one value id with two names" "$T/dupvalue.txt" "hlodiff: $T/dupvalue.txt:31: value 95 is named 'copy.20' here but 'broadcast_add_fusion' at line 30"

# The diff command reports the bad side and exits 2.
run_hlodiff 2 "diff with a bad NEW: exit 2" "$S" "$T/seq.txt"
ok_cmd "diff with a bad NEW: names the file and line" grep -q "^hlodiff: $T/seq.txt:530: " "$T/err"

done_testing
