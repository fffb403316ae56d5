/*
 * diag.c - messages to the user, one format for all of them.
 */
#include "hlodiff/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One message, written whole: stderr is locked for its pieces, so
 * messages of several threads (batch.h) never mix within a line. */
static void vreport(const char *kind, const char *file, uint64_t line,
		    uint64_t col, const char *fmt, va_list ap)
{
	flockfile(stderr);
	fputs("hlodiff: ", stderr);
	if (file) {
		fputs(hd_display_name(file), stderr);
		if (line)
			fprintf(stderr, ":%llu", (unsigned long long)line);
		if (line && col)
			fprintf(stderr, ":%llu", (unsigned long long)col);
		fputs(": ", stderr);
	}
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void hd_error(const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, file, line, 0, fmt, ap);
	va_end(ap);
}

void hd_error_col(const char *file, uint64_t line, uint64_t col,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, file, line, col, fmt, ap);
	va_end(ap);
}

void hd_warning(const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", file, line, 0, fmt, ap);
	va_end(ap);
}

void hd_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, NULL, 0, 0, fmt, ap);
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
