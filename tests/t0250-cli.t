#!/bin/sh
# The command line: help, version, usage errors (exit 2 with a message).
. "$(dirname "$0")/lib.sh"

S=$HD_SRCDIR/tests/data/seed-000.txt

run_hlodiff 0 "--help exits 0" --help
ok_cmd "--help shows the usage line" grep -q '^usage: hlodiff \[options\] OLD NEW' "$TMPDIR_T/out"
ok_cmd "--help documents the exit status" grep -q '2 usage or input error' "$TMPDIR_T/out"
run_hlodiff 0 "--version exits 0" --version
ok_cmd "--version prints the version" grep -Eq '^hlodiff [0-9]+\.[0-9]+\.[0-9]+$' "$TMPDIR_T/out"
# the newest released version of CHANGELOG.md and the man page's
ver=$(sed -n 's/^## \[\([0-9][0-9.]*\)\] - [0-9-]*$/\1/p' "$HD_SRCDIR/CHANGELOG.md" | head -n 1)
ok_cmd "--version is CHANGELOG.md's newest release ($ver)" \
	grep -qx "hlodiff $ver" "$TMPDIR_T/out"
ok_cmd "the man page names the same version" \
	grep -q "^\.TH HLODIFF 1 .*\"hlodiff $ver\"" "$HD_SRCDIR/docs/hlodiff.1"

usage_error() { # DESC MESSAGE ARGS...
	d=$1
	m=$2
	shift 2
	run_hlodiff 2 "$d: exit 2" "$@"
	ok_cmd "$d: says '$m'" grep -qF "hlodiff: $m" "$TMPDIR_T/err"
}
usage_error "no arguments" "expected two dumps: OLD NEW"
usage_error "one dump" "expected two dumps: OLD NEW" "$S"
usage_error "three dumps" "too many arguments" "$S" "$S" "$S"
usage_error "unknown option" "unknown option '--frobnicate'" --frobnicate "$S" "$S"
usage_error "-n without a number" "-n needs a number" "$S" "$S" -n
usage_error "-n with a word" "-n takes a whole number >= 0, not 'many'" -n many "$S" "$S"
usage_error "stat with two dumps" "too many arguments" stat "$S" "$S" "$S"
usage_error "stat with none" "stat takes one dump" stat
usage_error "both sides on stdin" "only one of OLD and NEW can be '-'" - -
usage_error "--at-peak without --by" "--at-peak goes with --by KEYS" --at-peak "$S" "$S"
usage_error "--by with an unknown key" "--by: unknown key" --by colour "$S" "$S"

run_hlodiff 0 "-- ends the options" stat -- "$S"

run_hlodiff 2 "--html into a missing directory: exit 2" --html "$TMPDIR_T/no/such/dir/r.html" "$S" "$S"
ok_cmd "--html into a missing directory: says so" grep -q "^hlodiff: $TMPDIR_T/no/such/dir/r.html: cannot write: No such file or directory" "$TMPDIR_T/err"
run_hlodiff 0 "--html writes the page" --html "$TMPDIR_T/r.html" "$S" "$S"
ok_cmd "--html: the page is HTML" grep -q '<svg' "$TMPDIR_T/r.html"
usage_error "--html without a file" "--html needs a file name" "$S" "$S" --html

# The page carries the rule results and, with --by, the breakdown tree.
SP=$HD_SRCDIR/tests/data/tpu-splash_attention
run_hlodiff 1 "--html --by op_name on a pair that violates the default rules" \
	--html "$TMPDIR_T/p.html" --by op_name "$SP-0035.txt" "$SP-0044.txt"
is 2 "$(grep -o '<tr><td class="bad">error</td>' "$TMPDIR_T/p.html" | wc -l | tr -d ' ')" \
	"--html: both violated error rules are in the rules table"
ok_cmd "--html --by: the breakdown section is on the page" grep -q '<section id="breakdown">' "$TMPDIR_T/p.html"
run_hlodiff 0 "--html without --by" --no-rules --html "$TMPDIR_T/q.html" "$SP-0035.txt" "$SP-0044.txt"
ok_cmd "--html without --by: no breakdown section" sh -c "! grep -q 'id=\"breakdown\"' '$TMPDIR_T/q.html'"
ok_cmd "--html --no-rules: says no rules were evaluated" grep -q 'no rules evaluated' "$TMPDIR_T/q.html"
run_hlodiff 0 "options after the dumps" "$S" "$S" --json
ok_cmd "options after the dumps: JSON printed" grep -q '"schema": 1' "$TMPDIR_T/out"

# A report that cannot be written is an error, not a silent success.
if [ -w /dev/full ]; then
	"$HLODIFF" stat "$S" >/dev/full 2>"$TMPDIR_T/full.err"
	is 2 $? "write error (stdout is /dev/full): exit 2"
	ok_cmd "write error: says so" grep -q "^hlodiff: cannot write the report" "$TMPDIR_T/full.err"
else
	skip "no /dev/full"
fi

done_testing
