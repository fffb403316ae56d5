/*
 * fuzz.h - shared helpers of the libFuzzer targets in fuzz/.
 *
 * Every target is a C11 file with one LLVMFuzzerTestOneInput; this header
 * holds what they share (static, so each target stays one translation
 * unit plus the library objects):
 *
 *  - fuzz_quiet(): hlodiff prints its messages on stderr through stdio;
 *    the targets send them to a memory stream instead, so a run is not
 *    drowned in parse errors and the text can be checked (a failing
 *    call must say something, a successful one must not print an
 *    error).  libFuzzer and the sanitizers write to file descriptor 2
 *    directly and are not affected.  Set HD_FUZZ_VERBOSE=1 to keep
 *    the messages on the real stderr.
 *  - fuzz_check(): an oracle failure aborts, so libFuzzer keeps the
 *    input as a crash.
 *  - fuzz_null(): a FILE that discards what reports write.
 */
#ifndef HLODIFF_FUZZ_H
#define HLODIFF_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Not every target uses every helper. */
#pragma clang diagnostic ignored "-Wunused-function"

static FILE *fuzz_msgs;         /* where hlodiff's stderr goes */
static char *fuzz_msg_buf;
static size_t fuzz_msg_len;
static FILE *fuzz_devnull;

static void fuzz_quiet(void)
{
	const char *v = getenv("HD_FUZZ_VERBOSE");

	fuzz_devnull = fopen("/dev/null", "w");
	if (!fuzz_devnull)
		abort();
	if (v && *v && strcmp(v, "0") != 0)
		return;
	fuzz_msgs = open_memstream(&fuzz_msg_buf, &fuzz_msg_len);
	if (!fuzz_msgs)
		abort();
	stderr = fuzz_msgs;
}

/* Forgets the messages of the previous input (a fresh memory stream). */
static void fuzz_msgs_reset(void)
{
	if (!fuzz_msgs)
		return;
	fclose(fuzz_msgs);
	free(fuzz_msg_buf);
	fuzz_msg_buf = NULL;
	fuzz_msg_len = 0;
	fuzz_msgs = open_memstream(&fuzz_msg_buf, &fuzz_msg_len);
	if (!fuzz_msgs)
		abort();
	stderr = fuzz_msgs;
}

/*
 * The messages printed since the last reset (NUL-terminated), or NULL
 * when they go to the real stderr and cannot be inspected.
 */
static const char *fuzz_msgs_text(void)
{
	if (!fuzz_msgs)
		return NULL;
	fflush(fuzz_msgs);
	return fuzz_msg_buf ? fuzz_msg_buf : "";
}

static void fuzz_fail(const char *what, const char *file, int line)
{
	const char *m = fuzz_msgs_text();

	/* fd 2 may be the memory stream's victim: write through dprintf */
	dprintf(2, "fuzz oracle failed at %s:%d: %s\n", file, line, what);
	if (m && *m)
		dprintf(2, "messages so far:\n%s", m);
	abort();
}

#define fuzz_check(cond) \
	do { if (!(cond)) fuzz_fail(#cond, __FILE__, __LINE__); } while (0)

static FILE *fuzz_null(void)
{
	return fuzz_devnull;
}

/* "   12 | text" or "      | ^~~": spaces, digits, " | " */
static int is_gutter(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && p[i] == ' ')
		i++;
	while (i < len && p[i] >= '0' && p[i] <= '9')
		i++;
	if (i < len && p[i] == ' ')
		i++;
	return i > 1 && i < len && p[i] == '|' && p[i - 1] == ' ';
}

/* After "hlodiff: NAME": [":LINE[:COL]"] ": warning: " */
static int is_warning(const char *p, size_t len)
{
	size_t i = 0;
	int k;

	for (k = 0; k < 2 && i < len && p[i] == ':'; k++) {
		size_t d = i + 1;
		while (d < len && p[d] >= '0' && p[d] <= '9')
			d++;
		if (d == i + 1)
			break;
		i = d;
	}
	return len - i >= 11 && memcmp(p + i, ": warning: ", 11) == 0;
}

/*
 * Oracle over the messages of a parse: a failed parse printed an error
 * ("hlodiff: NAME..." not a warning); a successful one printed none.
 * Every line names the input, except the source-and-caret lines of the
 * rules parser ("%5u | text", "      | ^~~").
 */
static void fuzz_check_parse_msgs(int rc, const char *name)
{
	const char *m = fuzz_msgs_text();
	char prefix[128];
	int has_error = 0;
	const char *p;
	size_t n;

	if (!m)
		return;
	n = (size_t)snprintf(prefix, sizeof(prefix), "hlodiff: %s", name);
	for (p = m; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (is_gutter(p, len)) {
			/* a gutter line of the rules parser */
		} else if (len < n || memcmp(p, prefix, n) != 0) {
			fuzz_fail("message does not start with 'hlodiff: NAME'",
				  __FILE__, __LINE__);
		} else if (!is_warning(p + n, len - n)) {
			has_error = 1;
		}
		p += len + (nl != NULL);
	}
	if (rc != 0 && !has_error)
		fuzz_fail("parse failed without an error message", __FILE__, __LINE__);
	if (rc == 0 && has_error)
		fuzz_fail("parse succeeded but printed an error", __FILE__, __LINE__);
}

#endif
