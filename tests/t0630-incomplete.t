#!/bin/sh
# A dump that breaks off is an input error (exit 2, t0220); with
# --allow-incomplete it is read as far as it goes: a warning with the
# position, the report says it is incomplete and which figures it leaves
# out, and those figures are absent (null, '-', rules n/a), never partial
# numbers shown as whole.
. "$(dirname "$0")/lib.sh"

S=$HD_SRCDIR/tests/data/seed-001.txt   # 663 lines; sections at 1, 78, 80, 505, 506, 559, 625, 644
T=$TMPDIR_T

json_get() { # FILE EXPR
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2])))' "$1" "$2"
}
line_offset() { head -n "$(($1 - 1))" "$2" | wc -c; }

# cut NAME FILE LINE EXPR EXPECTED: stat --json --allow-incomplete of FILE
# (cut at LINE) exits 0, warns at LINE, marks the JSON incomplete at LINE
# and EXPR over the JSON gives EXPECTED.
cut() {
	run_hlodiff 0 "$1: --allow-incomplete reads it" stat --json --allow-incomplete "$2" || return
	ok_cmd "$1: warning at line $3" grep -q "^hlodiff: $2:$3: warning: .*; read as incomplete (--allow-incomplete)" "$T/err"
	is "$3" "$(json_get "$T/out" "j['incomplete']['line']")" "$1: JSON says incomplete at line $3"
	is "$5" "$(json_get "$T/out" "$4")" "$1: $4 is $5"
	run_hlodiff 2 "$1: without the flag exit 2" stat "$2"
}

mid() { # NAME LINE EXPR EXPECTED: cut 5 bytes into LINE
	head -c $(( $(line_offset "$2" "$S") + 5 )) "$S" >"$T/mid-$2.txt"
	cut "$1 (mid-line)" "$T/mid-$2.txt" "$2" "$3" "$4"
}
mid "allocations" 31 "[j['total_bytes'], j['alloc_bytes'], j['bytes_by_color']]" "[null, null, null]"
mid "a value record" 200 "[j['total_bytes'], j['prefetches'], j['peak_bytes']]" "[9152, null, null]"
mid "the instruction sequence" 530 "[j['total_bytes'], j['peak_bytes'], j['recomputed_peak']]" "[9152, null, null]"
mid "the peak lines" 630 "[j['peak_bytes'], j['recomputed_peak']]" "[null, null]"
mid "the stack-trace tree" 650 "[j['peak_bytes'], j['recomputed_peak']['bytes']]" "[8288, 8288]"

head -n 334 "$S" >"$T/records.txt"
cut "Used values cut after a record" "$T/records.txt" 334 "[j['total_bytes'], j['records'], j['prefetches']]" "[9152, 38, null]"
ok_cmd "Used values cut: the text report says what is left out" sh -c \
	"'$HLODIFF' stat --allow-incomplete '$T/records.txt' 2>/dev/null | grep -q '^  incomplete: .*left out: copy-start counts'"

# In a diff the gate cannot judge what the dump left out: those rules are
# n/a, the others still run.
run_hlodiff 0 "diff with an incomplete NEW: runs" --allow-incomplete "$S" "$T/records.txt"
ok_cmd "diff: the header marks NEW incomplete" grep -q "^+++ incomplete: 'Used values' ends after 38 of 65 value records" "$T/out"
ok_cmd "diff: new-prefetch rule not applicable" grep -q "n/a <default.rules>:[0-9]*: error new prefetches (NEW has incomplete dump" "$T/out"
ok_cmd "diff: total-bytes rule still checked" grep -q "ok <default.rules>:[0-9]*: error total_bytes grows by more than 1% and by more than 64 KiB (9152 -> 9152, 0;" "$T/out"
run_hlodiff 2 "diff with an incomplete NEW, no flag: exit 2" "$S" "$T/records.txt"

done_testing
