# tests/lib.sh - TAP helpers for the tests/tNNNN-*.t shell tests.
#
# A test script is POSIX sh, executable, and starts:
#
#	#!/bin/sh
#	. "$(dirname "$0")/lib.sh"
#	plan 3                 # or no plan and done_testing at the end
#	run_hlodiff 0 "stat on seed 000" stat "$HD_SRCDIR/examples/seed-000.txt"
#	is_file "$HD_SRCDIR/golden/x.out" "$TMPDIR_T/out" "stat report"
#	...
#	done_testing
#
# Environment (set by `make check`; defaulted here so `prove tests/` works
# by hand after `make`):
#	HD_SRCDIR  repo root (default: parent of this script's directory)
#	HLODIFF    binary under test (default: $HD_SRCDIR/hlodiff)
#	HD_BUILD   build dir with tests/ and tools (default: $HD_SRCDIR/build)
#	HD_CORPUS  real dumps; unset when absent (see need_corpus)
#	HD_UPDATE_GOLDEN=1  is_file copies the actual output over the golden
#	           file and passes (for regenerating golden/ on purpose)
#
# Per-test scratch dir: $TMPDIR_T, removed at exit.  run_hlodiff leaves the
# tool's stdout in $TMPDIR_T/out and stderr in $TMPDIR_T/err.
#
# Every check prints one "ok N - desc" / "not ok N - desc" line; failure
# details go to stderr as "# " lines.  Checks return 0 on pass, 1 on fail.

if [ -z "${HD_SRCDIR:-}" ]; then
	HD_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
fi
HLODIFF=${HLODIFF:-$HD_SRCDIR/hlodiff}
HD_BUILD=${HD_BUILD:-$HD_SRCDIR/build}
export HD_SRCDIR HLODIFF HD_BUILD

_t_num=0
_t_failed=0
_t_plan=
_t_done=

TMPDIR_T=$(mktemp -d "${TMPDIR:-/tmp}/hd-test.XXXXXX") || {
	echo "Bail out! cannot create a temporary directory"
	exit 255
}
export TMPDIR_T
trap 'rm -rf "$TMPDIR_T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# diag TEXT...: comment on stderr, one "# " line per line of TEXT.
diag() {
	printf '%s\n' "$*" | sed 's/^/# /' >&2
}

# diag_file FILE [MAXLINES]: show (the start of) a file as "# " lines.
diag_file() {
	if [ -s "$1" ]; then
		head -n "${2:-20}" "$1" | sed 's/^/#   /' >&2
	fi
}

# plan N: announce N tests (before any test).
plan() {
	_t_plan=$1
	echo "1..$1"
}

_t_result() { # _t_result PASS(0|1) DESC
	_t_num=$((_t_num + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_t_num - $2"
		return 0
	fi
	_t_failed=$((_t_failed + 1))
	echo "not ok $_t_num - $2"
	return 1
}

# pass DESC / fail DESC: record an outcome decided by the caller.
pass() { _t_result 0 "$1"; }
fail() { _t_result 1 "$1"; }

# ok_cmd DESC CMD [ARGS...]: passes when CMD exits 0.  CMD's stdout and
# stderr are kept out of the TAP stream ($TMPDIR_T/cmd.out, cmd.err) and
# shown on failure.
ok_cmd() {
	_t_desc=$1
	shift
	"$@" >"$TMPDIR_T/cmd.out" 2>"$TMPDIR_T/cmd.err"
	_t_st=$?
	if [ "$_t_st" -eq 0 ]; then
		_t_result 0 "$_t_desc"
		return
	fi
	_t_result 1 "$_t_desc"
	diag "command exited $_t_st: $*"
	diag_file "$TMPDIR_T/cmd.out"
	diag_file "$TMPDIR_T/cmd.err"
	return 1
}

# ok DESC CMD [ARGS...]: same as ok_cmd.
ok() { ok_cmd "$@"; }

# not_ok_cmd DESC CMD [ARGS...]: passes when CMD fails in a controlled way
# (exit 1..127); a crash (>= 128) or success fails.  Output as for ok_cmd.
not_ok_cmd() {
	_t_desc=$1
	shift
	"$@" >"$TMPDIR_T/cmd.out" 2>"$TMPDIR_T/cmd.err"
	_t_st=$?
	if [ "$_t_st" -gt 0 ] && [ "$_t_st" -lt 128 ]; then
		_t_result 0 "$_t_desc"
		return
	fi
	_t_result 1 "$_t_desc"
	diag "command exited $_t_st (wanted 1..127): $*"
	return 1
}

# is EXPECTED GOT DESC: string equality.
is() {
	if [ "$1" = "$2" ]; then
		_t_result 0 "$3"
		return
	fi
	_t_result 1 "$3"
	diag "expected: '$1'"
	diag "     got: '$2'"
	return 1
}

# is_file GOLDEN ACTUAL DESC: byte-for-byte compare, diff -u on failure.
is_file() {
	if [ "${HD_UPDATE_GOLDEN:-}" = 1 ] && [ -f "$2" ]; then
		mkdir -p "$(dirname "$1")" && cp "$2" "$1"
		_t_result 0 "$3 (golden updated)"
		return
	fi
	if [ ! -f "$1" ]; then
		_t_result 1 "$3"
		diag "golden file missing: $1"
		return 1
	fi
	if [ ! -f "$2" ]; then
		_t_result 1 "$3"
		diag "output file missing: $2"
		return 1
	fi
	if cmp -s "$1" "$2"; then
		_t_result 0 "$3"
		return
	fi
	_t_result 1 "$3"
	diff -u "$1" "$2" | head -n 60 | sed 's/^/# /' >&2
	return 1
}

# run_hlodiff STATUS DESC ARGS...: run "$HLODIFF" ARGS with stdout in
# $TMPDIR_T/out and stderr in $TMPDIR_T/err.  Passes when the exit status
# is STATUS, and never when the tool died of a signal (status >= 128) or a
# sanitizer reported on stderr.  Standard input is inherited: feed it with
# `run_hlodiff 0 "desc" stat - <FILE`.
run_hlodiff() {
	_t_want=$1
	_t_desc=$2
	shift 2
	"$HLODIFF" "$@" >"$TMPDIR_T/out" 2>"$TMPDIR_T/err"
	_t_st=$?
	_t_why=
	if [ "$_t_st" -ge 128 ]; then
		_t_why="crashed (exit status $_t_st)"
	elif grep -q -e 'AddressSanitizer' -e 'LeakSanitizer' \
		-e 'runtime error:' "$TMPDIR_T/err"; then
		_t_why="sanitizer report on stderr"
	elif [ "$_t_st" -ne "$_t_want" ]; then
		_t_why="exit status $_t_st, wanted $_t_want"
	fi
	if [ -z "$_t_why" ]; then
		_t_result 0 "$_t_desc"
		return
	fi
	_t_result 1 "$_t_desc"
	diag "$_t_why: $HLODIFF $*"
	diag "stderr:"
	diag_file "$TMPDIR_T/err" 30
	return 1
}

# skip REASON: record one skipped test.
skip() {
	_t_num=$((_t_num + 1))
	echo "ok $_t_num # skip $1"
}

# skip_all REASON: skip the whole script (call before any test).
skip_all() {
	echo "1..0 # SKIP $1"
	_t_done=1
	exit 0
}

# bail REASON: stop the whole prove run.
bail() {
	echo "Bail out! $1"
	exit 255
}

# done_testing: print the plan if none was given, report a plan mismatch,
# and exit 0 when every test passed, 1 otherwise.
done_testing() {
	_t_done=1
	if [ -z "$_t_plan" ]; then
		echo "1..$_t_num"
	elif [ "$_t_plan" -ne "$_t_num" ]; then
		diag "planned $_t_plan tests but ran $_t_num"
		exit 1
	fi
	if [ "$_t_failed" -gt 0 ]; then
		diag "failed $_t_failed of $_t_num tests"
		exit 1
	fi
	exit 0
}

# need_corpus: skip_all unless $HD_CORPUS names a directory.
need_corpus() {
	if [ -z "${HD_CORPUS:-}" ] || [ ! -d "$HD_CORPUS" ]; then
		skip_all "no corpus (HD_CORPUS unset or missing)"
	fi
}

# corpus_dumps: print every dump of the corpus, one path per line, sorted:
# all *buffer-assignment*.txt plus seeds/*.txt.  Call need_corpus first.
corpus_dumps() {
	find "$HD_CORPUS" -type f \( -name '*buffer-assignment*.txt' \
		-o -path "$HD_CORPUS/seeds/*.txt" \) | LC_ALL=C sort
}

# need_hlodiff: skip_all unless $HLODIFF is an executable file.
need_hlodiff() {
	if [ ! -x "$HLODIFF" ]; then
		skip_all "no hlodiff binary at $HLODIFF (run make)"
	fi
}

# run_unit NAME: exec the unit-test program $HD_BUILD/tests/NAME (it prints
# its own TAP), or skip_all when it has not been built.
run_unit() {
	if [ ! -x "$HD_BUILD/tests/$1" ]; then
		skip_all "$HD_BUILD/tests/$1 not built (run make tests)"
	fi
	rm -rf "$TMPDIR_T"
	trap - EXIT
	exec "$HD_BUILD/tests/$1"
}
