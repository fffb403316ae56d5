#!/bin/sh
# Every real dump parses with no unknown line, and its figures equal
# those an independent reader (tests/py/dump_figures.py, regular
# expressions over the text) computes.  The seeds in tests/data always;
# all of ../shared/corpus when it is present.
. "$(dirname "$0")/lib.sh"

check() {
	name=$1
	f=$2
	run_hlodiff 0 "$name: parses" stat --json "$f" || return
	if [ -s "$TMPDIR_T/err" ]; then
		fail "$name: no warning or unknown line"
		diag_file "$TMPDIR_T/err"
	else
		pass "$name: no warning or unknown line"
	fi
	if python3 "$HD_SRCDIR/tests/py/dump_figures.py" "$f" "$TMPDIR_T/out" >"$TMPDIR_T/py" 2>&1; then
		pass "$name: figures agree with the independent reader"
	else
		fail "$name: figures agree with the independent reader"
		diag_file "$TMPDIR_T/py"
	fi
}

for f in "$HD_SRCDIR"/tests/data/seed-*.txt; do
	check "$(basename "$f")" "$f"
done

if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS" ]; then
	find "$HD_CORPUS" \( -name '*buffer-assignment*.txt' -o -path '*/seeds/*.txt' \) -type f | sort >"$TMPDIR_T/list"
	n=$(wc -l <"$TMPDIR_T/list")
	ok_cmd "corpus has the 105 dumps SOURCES.md lists" test "$n" -eq 105
	while IFS= read -r f; do
		check "${f#"$HD_CORPUS"/}" "$f"
	done <"$TMPDIR_T/list"
else
	diag "HD_CORPUS not set: corpus sweep skipped (tests/data seeds only)"
fi

done_testing
