#!/bin/sh
# Self-test of the test harness: tests/lib.sh and tests/tap/tap.c.
. "$(dirname "$0")/lib.sh"

LIB=$HD_SRCDIR/tests/lib.sh

# --- lib.sh: plain checks -------------------------------------------------
is "abc" "abc" "is: equal strings pass"
ok_cmd "ok_cmd: true passes" true
not_ok_cmd "not_ok_cmd: false is a controlled failure" false
ok_cmd "TMPDIR_T is a writable directory" test -d "$TMPDIR_T" -a -w "$TMPDIR_T"

printf 'a\nb\n' >"$TMPDIR_T/g1"
printf 'a\nb\n' >"$TMPDIR_T/a1"
is_file "$TMPDIR_T/g1" "$TMPDIR_T/a1" "is_file: identical files pass"

# --- run_hlodiff, via nested scripts so their failures stay contained -----
# nested STATUS-WANTED HLODIFF-PATH: run one run_hlodiff check in a child
# shell; prints its TAP to $TMPDIR_T/nested.out and returns its exit status.
nested() {
	HLODIFF=$2 sh -c '. "$1"; run_hlodiff "$2" "nested" --version; done_testing' \
		nested "$LIB" "$1" >"$TMPDIR_T/nested.out" 2>"$TMPDIR_T/nested.err"
}

cat >"$TMPDIR_T/crash" <<'EOF'
#!/bin/sh
kill -SEGV $$
EOF
cat >"$TMPDIR_T/asan" <<'EOF'
#!/bin/sh
echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >&2
exit 0
EOF
cat >"$TMPDIR_T/ubsan" <<'EOF'
#!/bin/sh
echo "x.c:3:5: runtime error: signed integer overflow" >&2
exit 1
EOF
cat >"$TMPDIR_T/echo-args" <<'EOF'
#!/bin/sh
echo "out:$*"
echo "err:$#" >&2
exit 2
EOF
chmod +x "$TMPDIR_T/crash" "$TMPDIR_T/asan" "$TMPDIR_T/ubsan" \
	"$TMPDIR_T/echo-args"

nested 0 /bin/true
is "$?:$(cat "$TMPDIR_T/nested.out")" "0:ok 1 - nested
1..1" "run_hlodiff: status 0 as wanted passes"

nested 1 /bin/false
is "$?:$(head -n 1 "$TMPDIR_T/nested.out")" "0:ok 1 - nested" \
	"run_hlodiff: status 1 as wanted passes"

nested 0 /bin/false
is "$?:$(head -n 1 "$TMPDIR_T/nested.out")" "1:not ok 1 - nested" \
	"run_hlodiff: wrong status fails"

nested 139 "$TMPDIR_T/crash"
is "$?:$(head -n 1 "$TMPDIR_T/nested.out")" "1:not ok 1 - nested" \
	"run_hlodiff: a crash fails even when its status was 'wanted'"
ok_cmd "run_hlodiff: a crash is explained" grep -q crashed "$TMPDIR_T/nested.err"

nested 0 "$TMPDIR_T/asan"
is "$?:$(head -n 1 "$TMPDIR_T/nested.out")" "1:not ok 1 - nested" \
	"run_hlodiff: AddressSanitizer on stderr fails"

nested 1 "$TMPDIR_T/ubsan"
is "$?:$(head -n 1 "$TMPDIR_T/nested.out")" "1:not ok 1 - nested" \
	"run_hlodiff: UBSan 'runtime error:' on stderr fails"

HLODIFF="$TMPDIR_T/echo-args" run_hlodiff 2 "run_hlodiff: own check" a 'b c'
is "$(cat "$TMPDIR_T/out")|$(cat "$TMPDIR_T/err")" "out:a b c|err:2" \
	"run_hlodiff: stdout and stderr land in \$TMPDIR_T/out and err"

# is_file failure shows a diff; skip and done_testing in a child.
sh -c '. "$1"; printf "x\n" >"$TMPDIR_T/g"; printf "y\n" >"$TMPDIR_T/a"
	is_file "$TMPDIR_T/g" "$TMPDIR_T/a" "differs"; skip "no reason"
	done_testing' nested "$LIB" >"$TMPDIR_T/n2.out" 2>"$TMPDIR_T/n2.err"
is "$?:$(cat "$TMPDIR_T/n2.out")" "1:not ok 1 - differs
ok 2 # skip no reason
1..2" "is_file failure, skip and done_testing in a child"
ok_cmd "is_file failure prints a unified diff" \
	grep -q '^# +y$' "$TMPDIR_T/n2.err"

is "$?:$(HD_CORPUS= sh -c '. "$1"; need_corpus; pass x' nested "$LIB")" \
	"0:1..0 # SKIP no corpus (HD_CORPUS unset or missing)" \
	"need_corpus skips the script when HD_CORPUS is empty"

# --- tap.c, compiled on the fly -------------------------------------------
CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	skip "no C compiler for the tap.c checks"
	skip "no C compiler for the tap.c checks"
	skip "no C compiler for the tap.c checks"
	done_testing
fi

cat >"$TMPDIR_T/t_fail.c" <<'EOF'
#include "tap.h"
int main(void)
{
	plan(5);
	ok(1, "one");
	is_int(3, 4, "three is four");
	is_string("ab", "ab", "strings");
	is_string("ab", NULL, "null");
	skip("later");
	return 0;
}
EOF
cat >"$TMPDIR_T/t_lazy.c" <<'EOF'
#include "tap.h"
int main(void)
{
	plan_lazy();
	ok(1, "a %d", 1);
	is_int(7, 7, "b");
	return 0;
}
EOF
tapflags="-std=c11 -Wall -Wextra -I$HD_SRCDIR/tests/tap"
$CC $tapflags -o "$TMPDIR_T/t_fail" "$TMPDIR_T/t_fail.c" \
	"$HD_SRCDIR/tests/tap/tap.c" 2>"$TMPDIR_T/cc.err" &&
	$CC $tapflags -o "$TMPDIR_T/t_lazy" "$TMPDIR_T/t_lazy.c" \
		"$HD_SRCDIR/tests/tap/tap.c" 2>>"$TMPDIR_T/cc.err"
if [ $? -ne 0 ]; then
	diag_file "$TMPDIR_T/cc.err"
	bail "cannot compile tests/tap/tap.c"
fi

"$TMPDIR_T/t_fail" >"$TMPDIR_T/tf.out" 2>"$TMPDIR_T/tf.err"
is "$?:$(cat "$TMPDIR_T/tf.out")" "1:1..5
ok 1 - one
not ok 2 - three is four
ok 3 - strings
not ok 4 - null
ok 5 # skip later" "tap.c: plan, ok, is_int, is_string, skip; exit 1 on failure"
is "$(grep -e expected -e got "$TMPDIR_T/tf.err" | head -n 2)" "# expected: 3
#      got: 4" "tap.c: is_int failure shows expected/got"

"$TMPDIR_T/t_lazy" >"$TMPDIR_T/tl.out" 2>&1
is "$?:$(cat "$TMPDIR_T/tl.out")" "0:ok 1 - a 1
ok 2 - b
1..2" "tap.c: plan_lazy prints 1..N at exit, exit 0"

done_testing
