#!/bin/sh
# Rules scoped to source lines: bytes(source="GLOB") sums the values whose
# defining instruction's metadata source_file:source_line matches GLOB.
# The expected sums come from tests/py/source_bytes.py, which reads the
# dumps with regular expressions (no code shared with hlodiff).
. "$(dirname "$0")/lib.sh"

D=$HD_SRCDIR/tests/data
OLD=$D/gpu-full_run-simple.txt
NEW=$D/gpu-full_run-simplefused.txt

check() { # GLOB PERCENT EXPECTED-STATUS
	printf 'error bytes(source="%s") grows by more than %s%%\n' "$1" "$2" >"$TMPDIR_T/r.rules"
	set -- "$1" "$2" "$3" $(python3 "$HD_SRCDIR/tests/py/source_bytes.py" "$OLD" "$1" "$NEW")
	run_hlodiff "$3" "source=$1, $2%: exit $3" --json --rules "$TMPDIR_T/r.rules" "$OLD" "$NEW" || return
	is "$4 $5" "$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["rules"]["verdicts"][0]; print(v["old"], v["new"])' "$TMPDIR_T/out")" \
		"source=$1: old and new sums as read from the dumps"
}

check '*/bse_simple.py:*' 5 1
check '*/bse_simple.py:*' 200 0
check '*/lanczos.py:249' 1 0
check '*/no_such_file.py:*' 1 0

printf 'error bytes(sorce="x") above 1 B\n' >"$TMPDIR_T/bad.rules"
run_hlodiff 2 "misspelt filter: exit 2" --rules "$TMPDIR_T/bad.rules" "$OLD" "$NEW"
ok_cmd "misspelt filter: suggests source" grep -q "unknown filter 'sorce' (did you mean 'source'?)" "$TMPDIR_T/err"

done_testing
