/*
 * diag.h - every message hlodiff prints to the user goes through here.
 *
 * Format: "hlodiff: FILE:LINE: what is wrong" (or "hlodiff: FILE: ..." when
 * there is no line, or "hlodiff: ..." when there is no file).  Standard
 * input is shown as "<stdin>".  Control characters in quoted input are
 * masked as '?', so a message never prints raw binary.
 *
 * Exit codes follow diff(1): 0 ran and nothing failed, 1 a rule of error
 * severity was violated, 2 usage, I/O or input error.
 */
#ifndef HLODIFF_DIAG_H
#define HLODIFF_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum hd_exit {
	HD_EXIT_OK = 0,
	HD_EXIT_VIOLATION = 1,
	HD_EXIT_TROUBLE = 2,
};

/* Error at FILE[:LINE]: printed on stderr.  line 0 means "no line". */
void hd_error(const char *file, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same with column (1-based; 0 means none). */
void hd_error_col(const char *file, uint64_t line, uint64_t col,
		  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Error at FILE:LINE:COL (COL = off + 1), then the source line text and
 * a caret line under its bytes [off, off + len) (len 0: one byte), in
 * the gutter style "   3 | text" / "      |    ^~~~".
 */
void hd_error_caret(const char *file, uint64_t line, const char *text,
		    size_t text_len, size_t off, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void hd_warning(const char *file, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prints "hlodiff: <msg>" and exits 2. */
void hd_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * Holding messages back: between hd_diag_hold(h) and hd_diag_unhold(h),
 * the messages of the calling thread go to h instead of stderr, and
 * hd_diag_flush(h) (any thread, after the unhold) writes them to stderr
 * and frees them.  So work run on a second thread (the NEW dump of a
 * pair, loaded while OLD is) prints its messages in the order a
 * sequential run would.  hd_die on a holding thread writes what it held
 * first.
 */
struct hd_diag_held {
	FILE *f;
	char *buf;
	size_t len;
};
void hd_diag_hold(struct hd_diag_held *h);
void hd_diag_unhold(struct hd_diag_held *h);
void hd_diag_flush(struct hd_diag_held *h);

/*
 * Writes at most max bytes of s to buf (size bufsz) with control and
 * non-ASCII bytes masked as '?', "..." appended when cut.  Returns buf.
 */
char *hd_quote(char *buf, size_t bufsz, const char *s, size_t n, size_t max);

/* The name shown for a path: "<stdin>" for "-". */
const char *hd_display_name(const char *path);

#define HD_BUG(msg) hd_die("internal error at %s:%d: %s", __FILE__, __LINE__, msg)

#endif
