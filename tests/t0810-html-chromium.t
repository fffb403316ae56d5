#!/bin/sh
# t0810-html-chromium: the HTML memory picture rendered by headless
# Chromium.  For each pair: write the page, let Chromium run it with a
# self-test injected (tests/html/selftest.js) and dump the DOM, judge that
# against `hlodiff --json` of the pair (tests/html/check.py): one curve per
# side and memory space, the peak markers at the program positions of the
# peaks, the movers table sorting and filtering, no script error, no
# console message, nothing loaded from outside; then take a screenshot.
#
# Pairs: examples/jit_normal-0021 vs -0041 always; with HD_CORPUS a GPU
# jit__full_run pair (si04-simple vs si04-simplefused).
#
# Environment: HD_CHROMIUM = browser binary (default: chromium,
# chromium-browser or google-chrome on PATH); HD_HTML_SHOTS = a directory
# to keep the screenshots in (they are in $TMPDIR_T otherwise, removed at
# exit).  Install Chromium with scripts/install-chromium.
. "$(dirname "$0")/lib.sh"

CHECK="$HD_SRCDIR/tests/html/check.py"
SELFTEST="$HD_SRCDIR/tests/html/selftest.js"

find_chromium() {
	for c in "${HD_CHROMIUM:-}" chromium chromium-browser google-chrome; do
		[ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && {
			command -v "$c"
			return 0
		}
	done
	return 1
}

CHROMIUM=$(find_chromium) || skip_all "chromium not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
need_hlodiff

# The page writer: hlodiff --html once main.c has it, else the unit binary.
if "$HLODIFF" --help 2>/dev/null | grep -q -- --html; then
	write_page() { # write_page OLD NEW OUT
		"$HLODIFF" --html "$3" "$1" "$2" >/dev/null 2>"$TMPDIR_T/write.err"
		[ $? -le 1 ] && [ -s "$3" ]
	}
	WRITER="hlodiff --html"
elif [ -x "$HD_BUILD/tests/test_html" ]; then
	write_page() {
		"$HD_BUILD/tests/test_html" "$1" "$2" "$3" 2>"$TMPDIR_T/write.err"
	}
	WRITER="$HD_BUILD/tests/test_html"
else
	skip_all "no page writer: hlodiff has no --html and test_html is not built"
fi

# chromium_run ARGS...: headless Chromium with its own profile, logging
# (console messages included) on stderr.  Closed network: every
# background connection is off.
chromium_run() {
	_prof=$(mktemp -d "$TMPDIR_T/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$_prof" --enable-logging=stderr --v=0 "$@"
	_st=$?
	rm -rf "$_prof"
	return $_st
}

# console_lines LOG: the page's console messages in a Chromium log.
console_lines() {
	grep -e ':CONSOLE' -e 'Uncaught' "$1"
}

# verdict FILE: one TAP line per "PASS ..."/"FAIL ..." line of check.py.
verdict() {
	_n=0
	while IFS= read -r _line; do
		_n=$((_n + 1))
		case $_line in
		"PASS "*) pass "$2: ${_line#PASS }" ;;
		*) fail "$2: ${_line#FAIL }" ;;
		esac
	done <"$1"
	[ "$_n" -gt 0 ] || fail "$2: check.py gave no verdict"
}

# check_pair NAME OLD NEW
check_pair() {
	_name=$1
	_page="$TMPDIR_T/$_name.html"
	if ! ok_cmd "$_name: page written ($WRITER)" write_page "$2" "$3" "$_page"; then
		diag_file "$TMPDIR_T/write.err"
		return
	fi
	_size=$(wc -c <"$_page")
	diag "$_name: page is $_size bytes"
	"$HLODIFF" --json "$2" "$3" >"$TMPDIR_T/$_name.json" 2>"$TMPDIR_T/json.err"
	if [ $? -gt 1 ]; then
		fail "$_name: hlodiff --json"
		diag_file "$TMPDIR_T/json.err"
		return
	fi
	python3 "$CHECK" inject "$_page" "$SELFTEST" "$TMPDIR_T/$_name-test.html"
	chromium_run --dump-dom "file://$TMPDIR_T/$_name-test.html" \
		>"$TMPDIR_T/$_name.dom" 2>"$TMPDIR_T/$_name.log"
	_st=$?
	if [ "$_st" -ne 0 ]; then
		fail "$_name: chromium --dump-dom exited $_st"
		diag_file "$TMPDIR_T/$_name.log" 30
		return
	fi
	if console_lines "$TMPDIR_T/$_name.log" >"$TMPDIR_T/$_name.console"; then
		fail "$_name: no console message"
		diag_file "$TMPDIR_T/$_name.console"
	else
		pass "$_name: no console message"
	fi
	python3 "$CHECK" check "$TMPDIR_T/$_name.dom" "$TMPDIR_T/$_name.json" \
		>"$TMPDIR_T/$_name.verdict"
	verdict "$TMPDIR_T/$_name.verdict" "$_name"

	_png="$TMPDIR_T/$_name.png"
	chromium_run --hide-scrollbars --window-size=1200,3000 \
		--screenshot="$_png" "file://$_page" >/dev/null 2>"$TMPDIR_T/$_name.shot.log"
	_dim=$(python3 "$CHECK" png "$_png" 2>/dev/null)
	is "1200 3000" "$_dim" "$_name: screenshot taken"
	if [ -n "${HD_HTML_SHOTS:-}" ] && [ -f "$_png" ]; then
		mkdir -p "$HD_HTML_SHOTS" && cp "$_png" "$_page" "$HD_HTML_SHOTS/"
	fi
}

# Control: a page with an error must show up in the log, or the console
# check above would prove nothing.
printf '%s\n' '<!DOCTYPE html><html><body><script>noSuchFunction();</script></body></html>' \
	>"$TMPDIR_T/control.html"
chromium_run --dump-dom "file://$TMPDIR_T/control.html" >/dev/null 2>"$TMPDIR_T/control.log"
if console_lines "$TMPDIR_T/control.log" | grep -q noSuchFunction; then
	pass "control: a script error reaches the console log"
else
	fail "control: a script error reaches the console log"
	diag_file "$TMPDIR_T/control.log" 30
fi

check_pair jit_normal "$HD_SRCDIR/examples/jit_normal-0021.txt" \
	"$HD_SRCDIR/examples/jit_normal-0041.txt"

if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS/gpu" ]; then
	old=$(ls "$HD_CORPUS"/gpu/lorraxsbx-si04-simple__*jit__full_run*-buffer-assignment.txt 2>/dev/null | head -n 1)
	new=$(ls "$HD_CORPUS"/gpu/lorraxsbx-si04-simplefused__*jit__full_run*-buffer-assignment.txt 2>/dev/null | head -n 1)
	if [ -n "$old" ] && [ -n "$new" ]; then
		check_pair gpu_full_run "$old" "$new"
	else
		skip "GPU jit__full_run pair not in $HD_CORPUS/gpu"
	fi
else
	skip "no corpus (HD_CORPUS unset): GPU pair not checked"
fi

done_testing
