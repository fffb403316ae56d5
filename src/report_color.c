/*
 * report_color.c - ANSI colour for a finished text report (report.h):
 * violations red, warnings yellow, passes green, growth red and
 * shrinkage green in the figure and value tables.  Only escape
 * sequences are added, so the text without them is the plain report,
 * which directory mode also writes to files from the same rendering.
 */
#include "hlodiff/report.h"

#include <string.h>

#include "hlodiff/str.h"

#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_OFF "\033[0m"

enum table { T_NONE, T_FIGURES, T_VALUES, T_SUMMARY };

static void put_colored(FILE *out, const char *color, const char *s, size_t n)
{
	fputs(color, out);
	fwrite(s, 1, n, out);
	fputs(C_OFF, out);
}

/* Colour of a signed number: growth red, shrinkage green. */
static const char *sign_color(const char *s, size_t n)
{
	if (n && s[0] == '+')
		return C_RED;
	if (n > 1 && s[0] == '-' && s[1] >= '0' && s[1] <= '9')
		return C_GREEN;
	return NULL;
}

/*
 * Writes a table row with the tokens picked by want (bit k = token k,
 * tokens separated by runs of spaces) coloured by sign, and token `verb`
 * (-1: none) coloured by its word.
 */
static void row_tokens(FILE *out, const char *s, size_t n, unsigned want, int verb)
{
	size_t i = 0;
	int k = 0;

	while (i < n) {
		size_t j = i;
		const char *col = NULL;

		while (j < n && s[j] == ' ')
			j++;
		fwrite(s + i, 1, j - i, out);
		i = j;
		while (j < n && s[j] != ' ')
			j++;
		if (k < 32 && (want >> k & 1u))
			col = sign_color(s + i, j - i);
		if (k == verb) {
			if (j - i == 5 && memcmp(s + i, "added", 5) == 0)
				col = C_RED;
			else if (j - i == 7 && memcmp(s + i, "removed", 7) == 0)
				col = C_GREEN;
			else if (j - i == 7 && memcmp(s + i, "changed", 7) == 0)
				col = C_YELLOW;
		}
		if (col)
			put_colored(out, col, s + i, j - i);
		else
			fwrite(s + i, 1, j - i, out);
		i = j;
		k++;
	}
}

static const char *contains(const char *s, size_t n, const char *p)
{
	return memmem(s, n, p, strlen(p));
}

/* The colour of a whole line, or NULL. */
static const char *line_color(const char *s, size_t n)
{
	if (hd_starts_with(s, n, "  error "))
		return C_RED;
	if (hd_starts_with(s, n, "  warning "))
		return C_YELLOW;
	if (hd_starts_with(s, n, "  ok "))
		return C_GREEN;
	if (hd_starts_with(s, n, "  n/a ") || hd_starts_with(s, n, "  waived ") || hd_starts_with(s, n, "note: "))
		return C_DIM;
	if (hd_starts_with(s, n, "--- ") || hd_starts_with(s, n, "+++ ") || hd_starts_with(s, n, "== ") ||
	    hd_starts_with(s, n, "hlodiff: "))
		return C_BOLD;
	if (hd_starts_with(s, n, "rules: "))
		return contains(s, n, " error, ") && !contains(s, n, "(0 error") ? C_RED :
			contains(s, n, " violated (") ? C_YELLOW : C_GREEN;
	return NULL;
}

/* A summary row: verdict words at the end coloured. */
static void summary_row(FILE *out, const char *s, size_t n)
{
	const char *v = NULL, *col = NULL;
	size_t k;

	for (k = n; k > 1; k--)
		if (s[k - 1] == ' ' && s[k - 2] == ' ') {
			v = s + k;
			break;
		}
	if (v) {
		size_t vn = n - (size_t)(v - s);
		if (hd_starts_with(v, vn, "FAIL") || hd_starts_with(v, vn, "no golden") ||
		    hd_starts_with(v, vn, "not read"))
			col = C_RED;
		else if (hd_starts_with(v, vn, "ok, "))
			col = C_YELLOW;
		else if (hd_starts_with(v, vn, "ok"))
			col = C_GREEN;
	}
	if (!col) {
		fwrite(s, 1, n, out);
		return;
	}
	fwrite(s, 1, (size_t)(v - s), out);
	put_colored(out, col, v, n - (size_t)(v - s));
}

static enum table table_after(const char *s, size_t n, enum table t)
{
	if (n == 0 || hd_starts_with(s, n, "== ") || hd_starts_with(s, n, "note: "))
		return T_NONE;
	if (hd_starts_with(s, n, "figure "))
		return T_FIGURES;
	if (hd_starts_with(s, n, "  status "))
		return T_VALUES;
	if (hd_starts_with(s, n, "module "))
		return T_SUMMARY;
	return t;
}

void hd_text_colorize(FILE *out, const char *text, size_t n)
{
	enum table t = T_NONE;
	size_t i = 0;

	while (i < n) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - text) : n;
		const char *s = text + i, *col;
		size_t len = end - i;
		enum table next = table_after(s, len, t);

		col = line_color(s, len);
		t = next;
		if (col && t != T_SUMMARY)
			put_colored(out, col, s, len);
		else if (t == T_FIGURES && !hd_starts_with(s, len, "figure "))
			row_tokens(out, s, len, 1u << 3 | 1u << 4, -1);
		else if (t == T_VALUES && !hd_starts_with(s, len, "  status "))
			row_tokens(out, s, len, 1u << 3, 0);
		else if (t == T_SUMMARY && !hd_starts_with(s, len, "module "))
			summary_row(out, s, len);
		else if (col)
			put_colored(out, col, s, len);
		else
			fwrite(s, 1, len, out);
		if (nl)
			fputc('\n', out);
		i = end + 1;
	}
}
