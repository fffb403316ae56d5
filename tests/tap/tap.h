/*
 * tap.h - a small TAP producer for hlodiff's C unit tests.
 *
 * Output goes to stdout in TAP version 12 form, which prove reads:
 *
 *	1..N                   (plan; printed first by plan(), or last when
 *	                        plan_lazy() was called)
 *	ok 1 - description
 *	not ok 2 - description
 *	# expected: 3           (diagnostics go to stderr, prefixed "# ")
 *	#      got: 4
 *
 * Exit status (set at exit, so a test just returns from main): 0 when every
 * planned test ran and passed, 1 otherwise.  bail() prints "Bail out!" and
 * exits 255.  skip_all() prints "1..0 # SKIP reason" and exits 0.
 *
 * Not thread-safe: one test program, one thread.
 */
#ifndef HLODIFF_TAP_H
#define HLODIFF_TAP_H

#include <stddef.h>

#define TAP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TAP_NORETURN	 __attribute__((noreturn))

/* Announce N tests.  Call once, before any test. */
void plan(int n);
/* No plan up front: "1..N" is printed at exit with the number run. */
void plan_lazy(void);

/* One test: passes when cond is non-zero.  Returns cond != 0. */
int ok(int cond, const char *fmt, ...) TAP_PRINTF(2, 3);
/* Integer compare; on failure prints expected and got. */
int is_int(long long expected, long long seen, const char *fmt, ...)
	TAP_PRINTF(3, 4);
/* String compare (NULL allowed and equal only to NULL). */
int is_string(const char *expected, const char *seen, const char *fmt, ...)
	TAP_PRINTF(3, 4);

/* Record one skipped test ("ok N # skip reason"). */
void skip(const char *fmt, ...) TAP_PRINTF(1, 2);
/* Skip the whole program; must come before plan() and any test. */
void skip_all(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;
/* Abort the run: prove stops and reports the reason. */
void bail(const char *fmt, ...) TAP_PRINTF(1, 2) TAP_NORETURN;
/* A "# " comment on stderr (one per line of the formatted text). */
void diag(const char *fmt, ...) TAP_PRINTF(1, 2);

/* Number of tests run so far and failed so far. */
int tap_tests_run(void);
int tap_tests_failed(void);

#endif
