/*
 * diag.c - messages to the user, one format for all of them.
 */
#include "hlodiff/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The messages this thread holds back (hd_diag_hold), or NULL. */
static _Thread_local struct hd_diag_held *held;

/* The source line of a message and the span a caret line marks. */
struct caret {
	const char *text;
	size_t len, off, span;
};

/* "   3 | text" with control and non-ASCII bytes as '?' (tabs kept, so
 * the caret line below lines up), then "     |    ^~~~". */
static void put_caret(FILE *out, uint64_t line, const struct caret *c)
{
	size_t i;

	fprintf(out, "%5llu | ", (unsigned long long)line);
	for (i = 0; i < c->len; i++) {
		unsigned char ch = (unsigned char)c->text[i];
		fputc(ch == '\t' || (ch >= 0x20 && ch < 0x7f) ? (int)ch : '?', out);
	}
	fputs("\n      | ", out);
	for (i = 0; i < c->off && i < c->len; i++)
		fputc(c->text[i] == '\t' ? '\t' : ' ', out);
	fputc('^', out);
	for (i = 1; i < c->span; i++)
		fputc('~', out);
	fputc('\n', out);
}

/* One message, written whole: stderr is locked for its pieces, so
 * messages of several threads (batch.h) never mix within a line. */
static void vreport(const char *kind, const char *file, uint64_t line,
		    uint64_t col, const struct caret *c, const char *fmt,
		    va_list ap)
{
	FILE *out = held ? held->f : stderr;

	flockfile(out);
	fputs("hlodiff: ", out);
	if (file) {
		fputs(hd_display_name(file), out);
		if (line)
			fprintf(out, ":%llu", (unsigned long long)line);
		if (line && col)
			fprintf(out, ":%llu", (unsigned long long)col);
		fputs(": ", out);
	}
	if (kind)
		fputs(kind, out);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	if (c)
		put_caret(out, line, c);
	funlockfile(out);
}

void hd_diag_hold(struct hd_diag_held *h)
{
	h->buf = NULL;
	h->len = 0;
	h->f = open_memstream(&h->buf, &h->len);
	if (!h->f)
		hd_die("out of memory");
	held = h;
}

void hd_diag_unhold(struct hd_diag_held *h)
{
	if (held == h)
		held = NULL;
	if (h->f && fclose(h->f) != 0)
		hd_die("out of memory");
	h->f = NULL;
}

void hd_diag_flush(struct hd_diag_held *h)
{
	if (h->len) {
		flockfile(stderr);
		fwrite(h->buf, 1, h->len, stderr);
		funlockfile(stderr);
	}
	free(h->buf);
	h->buf = NULL;
	h->len = 0;
}

void hd_error(const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, file, line, 0, NULL, fmt, ap);
	va_end(ap);
}

void hd_error_col(const char *file, uint64_t line, uint64_t col,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, file, line, col, NULL, fmt, ap);
	va_end(ap);
}

void hd_error_caret(const char *file, uint64_t line, const char *text,
		    size_t text_len, size_t off, size_t len, const char *fmt, ...)
{
	struct caret c = { text, text_len, off, len ? len : 1 };
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, file, line, off + 1, &c, fmt, ap);
	va_end(ap);
}

void hd_warning(const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", file, line, 0, NULL, fmt, ap);
	va_end(ap);
}

void hd_die(const char *fmt, ...)
{
	va_list ap;
	struct hd_diag_held *h = held;

	/* What this thread held back comes first, then the reason. */
	if (h) {
		held = NULL;
		hd_diag_unhold(h);
		hd_diag_flush(h);
	}
	va_start(ap, fmt);
	vreport(NULL, NULL, 0, 0, NULL, fmt, ap);
	va_end(ap);
	exit(HD_EXIT_TROUBLE);
}

char *hd_quote(char *buf, size_t bufsz, const char *s, size_t n, size_t max)
{
	size_t i, o = 0;

	if (bufsz == 0)
		return buf;
	if (max > bufsz - 4)
		max = bufsz > 4 ? bufsz - 4 : 0;
	for (i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)s[i];
		buf[o++] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	if (i < n && bufsz - o >= 4) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

const char *hd_display_name(const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return "<stdin>";
	return path;
}
