/*
 * tap.c - TAP producer for the C unit tests; see tap.h for the contract.
 *
 * The summary ("1..N" for a lazy plan, the planned/run mismatch note) is
 * written by an atexit handler.  When something failed, that handler ends
 * the process with _exit(1) so the exit status says so; when everything
 * passed it returns normally and leaves the exit status (and any leak check
 * that runs after it) alone.
 */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int planned = -1; /* -1: no plan yet */
static int lazy;
static int run;
static int failed;
static int handler_set;
static int all_skipped;

static void tap_vdiag(const char *fmt, va_list ap) TAP_PRINTF(1, 0);

static void tap_vdiag(const char *fmt, va_list ap)
{
	char buf[4096];
	const char *p, *nl;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fflush(stdout);
	for (p = buf;; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL) {
			fprintf(stderr, "# %s\n", p);
			break;
		}
		fprintf(stderr, "# %.*s\n", (int)(nl - p), p);
		if (nl[1] == '\0')
			break;
	}
	fflush(stderr);
}

void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

static void tap_finish(void)
{
	int bad = failed > 0;

	if (all_skipped)
		return;
	if (lazy && planned < 0) {
		printf("1..%d\n", run);
		planned = run;
	}
	if (planned >= 0 && planned != run) {
		fflush(stdout);
		fprintf(stderr,
			"# Looks like you planned %d test%s but ran %d.\n",
			planned, planned == 1 ? "" : "s", run);
		bad = 1;
	} else if (planned < 0 && run > 0) {
		fflush(stdout);
		fprintf(stderr, "# Ran %d tests without a plan.\n", run);
		bad = 1;
	}
	if (failed > 0) {
		fflush(stdout);
		fprintf(stderr, "# Looks like you failed %d test%s of %d.\n",
			failed, failed == 1 ? "" : "s", run);
	}
	fflush(stdout);
	fflush(stderr);
	if (bad)
		_exit(1);
}

static void tap_start(void)
{
	if (!handler_set) {
		handler_set = 1;
		/* Line-buffered so TAP and diagnostics interleave sanely. */
		setvbuf(stdout, NULL, _IOLBF, 0);
		atexit(tap_finish);
	}
}

void plan(int n)
{
	if (planned >= 0 || lazy)
		bail("plan() called twice");
	tap_start();
	planned = n;
	printf("1..%d\n", n);
}

void plan_lazy(void)
{
	if (planned >= 0 || lazy)
		bail("plan_lazy() after a plan");
	tap_start();
	lazy = 1;
}

static void tap_result(int pass, const char *fmt, va_list ap) TAP_PRINTF(2, 0);

static void tap_result(int pass, const char *fmt, va_list ap)
{
	tap_start();
	run++;
	if (!pass)
		failed++;
	printf("%sok %d", pass ? "" : "not ", run);
	if (fmt != NULL && *fmt != '\0') {
		char buf[1024];
		char *p;

		vsnprintf(buf, sizeof(buf), fmt, ap);
		/* A newline or '#' in the description would break the line. */
		for (p = buf; *p != '\0'; p++)
			if (*p == '\n' || *p == '\r' || *p == '#')
				*p = ' ';
		printf(" - %s", buf);
	}
	printf("\n");
}

int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_result(cond != 0, fmt, ap);
	va_end(ap);
	return cond != 0;
}

int is_int(long long expected, long long seen, const char *fmt, ...)
{
	va_list ap;
	int pass = expected == seen;

	va_start(ap, fmt);
	tap_result(pass, fmt, ap);
	va_end(ap);
	if (!pass) {
		diag("expected: %lld", expected);
		diag("     got: %lld", seen);
	}
	return pass;
}

int is_string(const char *expected, const char *seen, const char *fmt, ...)
{
	va_list ap;
	int pass;

	if (expected == NULL || seen == NULL)
		pass = expected == seen;
	else
		pass = strcmp(expected, seen) == 0;
	va_start(ap, fmt);
	tap_result(pass, fmt, ap);
	va_end(ap);
	if (!pass) {
		if (expected == NULL)
			diag("expected: (null)");
		else
			diag("expected: '%s'", expected);
		if (seen == NULL)
			diag("     got: (null)");
		else
			diag("     got: '%s'", seen);
	}
	return pass;
}

void skip(const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	tap_start();
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	run++;
	printf("ok %d # skip %s\n", run, buf);
}

void skip_all(const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (planned >= 0 || run > 0)
		bail("skip_all() after tests started");
	all_skipped = 1;
	printf("1..0 # SKIP %s\n", buf);
	fflush(stdout);
	exit(0);
}

void bail(const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fflush(stderr);
	printf("Bail out! %s\n", buf);
	fflush(stdout);
	_exit(255);
}

int tap_tests_run(void)
{
	return run;
}

int tap_tests_failed(void)
{
	return failed;
}
