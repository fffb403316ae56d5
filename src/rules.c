/*
 * rules.c - the rules language: lexer and parser (docs/rules.md).
 *
 * Line based.  Each line is cut into tokens (words, numbers, strings,
 * punctuation) by scanners that take `const char **` and advance only on
 * success.  The first word selects a row of the directive table; metrics,
 * conditions, units, filters, memory-space aliases and allocation kinds
 * are rows of tables too, and the same tables feed the "did you mean"
 * suggestions.  Positions are byte offsets into the line until an error
 * turns them into a column.
 *
 * A bad line is reported and skipped, so one run shows every error (up
 * to HD_RULES_MAX_ERRORS); any error makes the whole load fail.
 */
#include "hlodiff/rules.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hlodiff/diag.h"
#include "hlodiff/figures.h"
#include "hlodiff/input.h"
#include "hlodiff/str.h"
#include "hlodiff/verdict.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MSG_MAX 512
#define WORD_SHOWN 64            /* bytes of a bad word quoted in messages */
#define SUGGEST_MAX_LEN 64       /* longer words get no suggestion */
#define PCT_DECIMALS 6           /* HD_PCT_ONE = 10^6 */

/* ---- tables ----------------------------------------------------------- */

struct name_row {
	const char *name;
};

static const struct metric_row {
	const char *name;
	int source;              /* enum hd_metric_source */
	int is_bytes;
	int arg;                 /* kind (ALLOC) or copy class (COPIES) */
} metric_rows[] = {
	{ "total_bytes", HD_MSRC_ROW, 1, 0 },
	{ "peak_bytes", HD_MSRC_ROW, 1, 0 },
	{ "stated_peak_bytes", HD_MSRC_ROW, 1, 0 },
	{ "recomputed_peak_bytes", HD_MSRC_ROW, 1, 0 },
	{ "parameter_bytes", HD_MSRC_ALLOC, 1, HD_KIND_PARAMETER },
	{ "output_bytes", HD_MSRC_ALLOC, 1, HD_KIND_OUTPUT },
	{ "constant_bytes", HD_MSRC_ALLOC, 1, HD_KIND_CONSTANT },
	{ "thread_local_bytes", HD_MSRC_ALLOC, 1, HD_KIND_THREAD_LOCAL },
	{ "temp_bytes", HD_MSRC_ALLOC, 1, HD_KIND_TEMP },
	{ "other_bytes", HD_MSRC_ALLOC, 1, HD_KIND_OTHER },
	{ "allocations", HD_MSRC_ROW, 0, 0 },
	{ "values", HD_MSRC_VALUE_COUNT, 0, 0 },
	{ "prefetches", HD_MSRC_COPIES, 0, HD_COPY_PREFETCH },
	{ "evictions", HD_MSRC_COPIES, 0, HD_COPY_EVICTION },
	{ "cross_program_prefetches", HD_MSRC_COPIES, 0,
	  HD_COPY_CROSS_PROGRAM_PREFETCH },
	{ "host_offloads", HD_MSRC_COPIES, 0, HD_COPY_HOST_OFFLOAD },
	{ "host_reloads", HD_MSRC_COPIES, 0, HD_COPY_HOST_RELOAD },
	{ "other_copies", HD_MSRC_COPIES, 0, HD_COPY_OTHER },
	{ "aliased_bytes", HD_MSRC_ALIASES, 1, 0 },
	{ "aliased_parameters", HD_MSRC_ALIASES, 0, 0 },
	{ "bytes", -1, 1, 0 },   /* bytes(filters): parse_bytes_call */
	{ "space0_bytes", -1, 1, 0 }, /* spaceN_bytes: a suggestion only */
};

static const struct name_row copy_metric_rows[] = {
	{ "prefetches" }, { "evictions" }, { "cross_program_prefetches" },
	{ "host_offloads" }, { "host_reloads" }, { "other_copies" },
};

/* FORMAT.md section 8; the aliases are TPU's. */
static const struct space_row {
	const char *name;
	int64_t space;
} space_rows[] = {
	{ "hbm", 0 }, { "vmem", 1 }, { "host", 5 }, { "smem", 6 },
};

static const struct kind_row {
	const char *name;
	int kind;
} kind_rows[] = {
	{ "parameter", HD_KIND_PARAMETER }, { "output", HD_KIND_OUTPUT },
	{ "constant", HD_KIND_CONSTANT },
	{ "thread_local", HD_KIND_THREAD_LOCAL }, { "temp", HD_KIND_TEMP },
	{ "other", HD_KIND_OTHER },
};

static const struct unit_row {
	const char *name;
	int64_t bytes;
} unit_rows[] = {
	{ "B", 1 }, { "KiB", INT64_C(1) << 10 }, { "MiB", INT64_C(1) << 20 },
	{ "GiB", INT64_C(1) << 30 }, { "TiB", INT64_C(1) << 40 },
};

static const struct name_row waive_field_rows[] = {
	{ "name" }, { "op_name" },
};

/* ---- tokens ----------------------------------------------------------- */

enum tok_kind { TOK_WORD, TOK_NUMBER, TOK_STRING, TOK_PUNCT, TOK_END };

struct token {
	int kind;                /* enum tok_kind */
	size_t off, len;         /* in the line; strings with their quotes */
};

struct parser {
	struct hd_rules *r;
	const char *name;        /* for messages */
	const char *line;        /* current line, without its '\n' */
	size_t line_len;
	uint32_t lineno;
	struct token tok[HD_RULES_MAX_TOKENS + 1];
	size_t ntok, pos;
	int errors;
	int gave_up;
	int32_t module;          /* open module block, -1 when none */
	const char *module_src;  /* its line, for the unclosed-block error */
	size_t module_src_len, module_brace;
	uint32_t module_lineno;
	size_t n_items;          /* rules + waivers */
};

/* ---- errors ----------------------------------------------------------- */

static void note_error(struct parser *ps)
{
	if (++ps->errors == HD_RULES_MAX_ERRORS && !ps->gave_up) {
		hd_error(ps->name, 0, "too many errors, giving up");
		ps->gave_up = 1;
	}
}

static int perr_at(struct parser *ps, size_t off, size_t len,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Reports an error at byte off (length len, for the caret) of the
 * current line.  Returns -1 so parsers can `return perr_at(...)`.
 */
static int perr_at(struct parser *ps, size_t off, size_t len,
		   const char *fmt, ...)
{
	char msg[MSG_MAX];
	va_list ap;

	if (ps->gave_up)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hd_error_caret(ps->name, ps->lineno, ps->line, ps->line_len, off, len,
		       "%s", msg);
	note_error(ps);
	return -1;
}

/* Quoted, masked text of token t for messages. */
static const char *tok_text(const struct parser *ps, const struct token *t,
			    char *buf, size_t n)
{
	if (t->kind == TOK_END)
		return hd_quote(buf, n, "end of line", 11, WORD_SHOWN);
	return hd_quote(buf, n, ps->line + t->off, t->len, WORD_SHOWN);
}

/* ---- did you mean ----------------------------------------------------- */

/*
 * Optimal-string-alignment distance (Levenshtein plus adjacent
 * transposition), ignoring ASCII case.  Both lengths <= SUGGEST_MAX_LEN.
 */
static size_t edit_distance(const char *a, size_t na, const char *b,
			    size_t nb)
{
	size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	size_t i, k;

	for (i = 0; i <= na; i++)
		d[i][0] = i;
	for (k = 0; k <= nb; k++)
		d[0][k] = k;
	for (i = 1; i <= na; i++) {
		for (k = 1; k <= nb; k++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[k - 1]);
			size_t best = d[i - 1][k - 1] + (ca != cb);

			if (d[i - 1][k] + 1 < best)
				best = d[i - 1][k] + 1;
			if (d[i][k - 1] + 1 < best)
				best = d[i][k - 1] + 1;
			if (i > 1 && k > 1 && ca == tolower((unsigned char)b[k - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][k - 2] + 1 < best)
				best = d[i - 2][k - 2] + 1;
			d[i][k] = best;
		}
	}
	return d[na][nb];
}

/* Is the shorter of a, b (>= 3 bytes) a prefix of the other? */
static int is_prefix_pair(const char *a, size_t na, const char *b, size_t nb)
{
	size_t n = na < nb ? na : nb;

	return n >= 3 && strncasecmp(a, b, n) == 0;
}

/*
 * The closest name in a table of rows that start with a `const char *`
 * (stride bytes apart), or NULL when none is close: distance at most 2
 * and at most half the word, or a prefix of at least 3 bytes.  Ties go
 * to a name with the same first letter, then to table order.
 */
static const char *suggest(const char *w, size_t n, const void *table,
			   size_t count, size_t stride)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX, i;
	int best_first = 0;

	if (n == 0 || n > SUGGEST_MAX_LEN)
		return NULL;
	for (i = 0; i < count; i++) {
		const char *c = *(const char *const *)(const void *)
			((const char *)table + i * stride);
		size_t nc = strlen(c), d;
		int first;

		if (nc > SUGGEST_MAX_LEN)
			continue;
		d = edit_distance(w, n, c, nc);
		if (d > 2 || d * 2 > n) {
			if (!is_prefix_pair(w, n, c, nc))
				continue;
			d = 3;
		}
		first = tolower((unsigned char)w[0]) == tolower((unsigned char)c[0]);
		if (d < best_d || (d == best_d && first && !best_first)) {
			best = c;
			best_d = d;
			best_first = first;
		}
	}
	return best;
}

#define SUGGEST(w, n, table) \
	suggest((w), (n), (table), ARRAY_SIZE(table), sizeof((table)[0]))
/* The " (did you mean ...)" text for token t of ps against a table. */
#define HINT(buf, ps, t, table) \
	mean((buf), sizeof(buf), \
	     SUGGEST((ps)->line + (t)->off, (t)->len, table))

/* " (did you mean 'x'?)" or "" into buf. */
static const char *mean(char *buf, size_t n, const char *s)
{
	if (s)
		snprintf(buf, n, " (did you mean '%s'?)", s);
	else if (n)
		buf[0] = '\0';
	return buf;
}

/* ---- lexer ------------------------------------------------------------ */

static int is_word_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Each scanner: on success advances *p past the token and returns 1. */
static int scan_word(const char **p, const char *end)
{
	const char *s = *p;

	if (s >= end || !is_word_start((unsigned char)*s))
		return 0;
	while (s < end && is_word_char((unsigned char)*s))
		s++;
	*p = s;
	return 1;
}

/* digits [ '.' digits ] */
static int scan_number(const char **p, const char *end)
{
	const char *s = *p;

	if (s >= end || !isdigit((unsigned char)*s))
		return 0;
	while (s < end && isdigit((unsigned char)*s))
		s++;
	if (s + 1 < end && *s == '.' && isdigit((unsigned char)s[1])) {
		s++;
		while (s < end && isdigit((unsigned char)*s))
			s++;
	}
	*p = s;
	return 1;
}

/* '"' { char | '\"' | '\\' } '"'; returns -1 (not advancing) when
 * unterminated or with an unknown escape, reporting it. */
static int scan_string(struct parser *ps, const char **p, const char *end)
{
	const char *s = *p;

	if (s >= end || *s != '"')
		return 0;
	for (s++; s < end && *s != '"'; s++) {
		if (*s != '\\')
			continue;
		if (s + 1 < end && (s[1] == '"' || s[1] == '\\')) {
			s++;
			continue;
		}
		return perr_at(ps, (size_t)(s - ps->line), 2,
			       "unknown escape in a string (only \\\" and \\\\)");
	}
	if (s >= end)
		return perr_at(ps, (size_t)(*p - ps->line), 1,
			       "string not closed (add '\"')");
	*p = s + 1;
	return 1;
}

/*
 * Cuts the current line into ps->tok (ending with a TOK_END at the
 * comment or the end).  Returns 0, or -1 after reporting.
 */
static int lex_line(struct parser *ps)
{
	const char *p = ps->line, *end = ps->line + ps->line_len;

	ps->ntok = 0;
	ps->pos = 0;
	for (;;) {
		struct token *t = &ps->tok[ps->ntok];
		const char *start;
		int got;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		start = p;
		t->off = (size_t)(p - ps->line);
		t->len = 0;
		if (p >= end || *p == '#') {
			t->kind = TOK_END;
			return 0;
		}
		if (ps->ntok == HD_RULES_MAX_TOKENS)
			return perr_at(ps, t->off, 1, "more than %d tokens on one line",
				       HD_RULES_MAX_TOKENS);
		if (scan_word(&p, end)) {
			t->kind = TOK_WORD;
		} else if (scan_number(&p, end)) {
			t->kind = TOK_NUMBER;
		} else if ((got = scan_string(ps, &p, end)) != 0) {
			if (got < 0)
				return -1;
			t->kind = TOK_STRING;
		} else if (*p != '\0' && strchr("(),=%{}", *p)) {
			t->kind = TOK_PUNCT;
			p++;
		} else {
			unsigned char c = (unsigned char)*p;

			if (c >= 0x21 && c < 0x7f)
				return perr_at(ps, t->off, 1, "unexpected character '%c'", c);
			return perr_at(ps, t->off, 1, "unexpected byte 0x%02x", c);
		}
		t->len = (size_t)(p - start);
		ps->ntok++;
	}
}

static const struct token *peek(const struct parser *ps)
{
	return &ps->tok[ps->pos];
}

static const struct token *take(struct parser *ps)
{
	const struct token *t = &ps->tok[ps->pos];

	if (t->kind != TOK_END)
		ps->pos++;
	return t;
}

static int tok_is(const struct parser *ps, const struct token *t,
		  int kind, const char *text)
{
	return t->kind == kind && t->len == strlen(text) &&
		memcmp(ps->line + t->off, text, t->len) == 0;
}

static int is_word(const struct parser *ps, const struct token *t,
		   const char *w)
{
	return tok_is(ps, t, TOK_WORD, w);
}

static int is_punct(const struct parser *ps, const struct token *t, char c)
{
	return t->kind == TOK_PUNCT && ps->line[t->off] == c;
}

/* Row of a name table matching token t exactly, or -1. */
static int find_row(const struct parser *ps, const struct token *t,
		    const void *table, size_t count, size_t stride)
{
	size_t i;

	if (t->kind != TOK_WORD)
		return -1;
	for (i = 0; i < count; i++) {
		const char *c = *(const char *const *)(const void *)
			((const char *)table + i * stride);
		if (strlen(c) == t->len && memcmp(c, ps->line + t->off, t->len) == 0)
			return (int)i;
	}
	return -1;
}

#define FIND(ps, t, table) \
	find_row((ps), (t), (table), ARRAY_SIZE(table), sizeof((table)[0]))

/* The unescaped contents of string token t, in the rules' arena. */
static const char *string_value(struct parser *ps, const struct token *t)
{
	char *out = hd_arena_alloc(&ps->r->arena, t->len);
	const char *s = ps->line + t->off + 1;
	const char *end = ps->line + t->off + t->len - 1;
	size_t o = 0;

	for (; s < end; s++) {
		if (*s == '\\')
			s++;
		out[o++] = *s;
	}
	out[o] = '\0';
	return out;
}

/* ---- numbers ---------------------------------------------------------- */

/*
 * A NUMBER token as mantissa and count of decimals ("1.25" -> 125, 2).
 * Returns 0, or -1 after reporting a number too large.
 */
static int number_value(struct parser *ps, const struct token *t,
			int64_t *mant, int *decimals)
{
	const char *s = ps->line + t->off, *end = s + t->len;
	int64_t m = 0;
	int dec = -1;

	/* set on every path (GCC -O3 cannot tell that the callers read
	 * them only after a success) */
	*mant = 0;
	*decimals = 0;
	for (; s < end; s++) {
		if (*s == '.') {
			dec = 0;
			continue;
		}
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, *s - '0', &m))
			return perr_at(ps, t->off, t->len, "number too large");
		if (dec >= 0)
			dec++;
	}
	*mant = m;
	*decimals = dec < 0 ? 0 : dec;
	return 0;
}

static int64_t pow10_i64(int e)
{
	int64_t v = 1;

	while (e-- > 0)
		v *= 10;
	return v;
}

/* ---- metrics ---------------------------------------------------------- */

/* "space<digits>SUFFIX" (n bytes at w) -> 1 and the number in *space. */
static int space_metric(const char *w, size_t n, const char *suffix,
			int64_t *space)
{
	size_t i = 5, ns = strlen(suffix);
	int64_t v = 0;

	if (n < 6 + ns || !hd_starts_with(w, n, "space") || !hd_ends_with(w, n, suffix))
		return 0;
	for (; i < n - ns; i++) {
		if (!isdigit((unsigned char)w[i]) || v > INT64_MAX / 10 - 9)
			return 0;
		v = v * 10 + (w[i] - '0');
	}
	*space = v;
	return 1;
}

/* space=NUMBER or space=ALIAS */
static int parse_space_value(struct parser *ps, struct hd_metric *m)
{
	const struct token *t = take(ps);
	char b[80], sg[80];
	int64_t mant;
	int dec, row;

	if (t->kind == TOK_NUMBER) {
		if (number_value(ps, t, &mant, &dec))
			return -1;
		if (dec)
			return perr_at(ps, t->off, t->len,
				       "a memory space is a whole number");
		m->space = mant;
		return 0;
	}
	row = FIND(ps, t, space_rows);
	if (row >= 0) {
		m->space = space_rows[row].space;
		return 0;
	}
	if (t->kind == TOK_WORD)
		return perr_at(ps, t->off, t->len,
			       "unknown memory space '%s'%s; give a number or hbm, vmem, host, smem",
			       tok_text(ps, t, b, sizeof(b)),
			       HINT(sg, ps, t, space_rows));
	return perr_at(ps, t->off, t->len,
		       "expected a memory space (a number or hbm, vmem, host, smem)");
}

static int parse_kind_value(struct parser *ps, struct hd_metric *m)
{
	const struct token *t = take(ps);
	char b[80], sg[80];
	int row = FIND(ps, t, kind_rows);

	if (row >= 0) {
		m->kind = kind_rows[row].kind;
		return 0;
	}
	return perr_at(ps, t->off, t->len,
		       "unknown allocation kind '%s'%s; kinds: parameter, output, constant, thread_local, temp, other",
		       tok_text(ps, t, b, sizeof(b)),
		       HINT(sg, ps, t, kind_rows));
}

/* A non-empty glob string into *out. */
static int parse_glob_value(struct parser *ps, const char *key,
			    const char **out)
{
	const struct token *t = take(ps);

	if (t->kind != TOK_STRING)
		return perr_at(ps, t->off, t->len,
			       "%s= takes a quoted glob, e.g. %s=\"*attention*\"",
			       key, key);
	if (t->len == 2)
		return perr_at(ps, t->off, t->len, "empty glob");
	*out = string_value(ps, t);
	return 0;
}

/* A filter's value is parsed by parse, else it is a glob at glob_off. */
static const struct filter_row {
	const char *name;
	unsigned flag;
	int (*parse)(struct parser *, struct hd_metric *);
	size_t glob_off;
} filter_rows[] = {
	{ "space", HD_FILTER_SPACE, parse_space_value, 0 },
	{ "kind", HD_FILTER_KIND, parse_kind_value, 0 },
	{ "name", HD_FILTER_NAME, NULL, offsetof(struct hd_metric, name_glob) },
	{ "op_name", HD_FILTER_OP_NAME, NULL, offsetof(struct hd_metric, op_glob) },
	{ "source", HD_FILTER_SOURCE, NULL, offsetof(struct hd_metric, source_glob) },
};

/* One "key=value" of bytes(...). */
static int parse_filter(struct parser *ps, struct hd_metric *m)
{
	const struct token *k = take(ps);
	char b[80], sg[80];
	int row = FIND(ps, k, filter_rows);

	if (row < 0) {
		if (k->kind != TOK_WORD)
			return perr_at(ps, k->off, k->len,
				       "expected a filter: space=, kind=, name=, op_name= or source=");
		return perr_at(ps, k->off, k->len, "unknown filter '%s'%s; filters: space, kind, name, op_name, source",
			       tok_text(ps, k, b, sizeof(b)),
			       HINT(sg, ps, k, filter_rows));
	}
	if (m->filters & filter_rows[row].flag)
		return perr_at(ps, k->off, k->len, "filter '%s' given twice",
			       filter_rows[row].name);
	if (!is_punct(ps, peek(ps), '='))
		return perr_at(ps, peek(ps)->off, peek(ps)->len,
			       "expected '=' after '%s'", filter_rows[row].name);
	take(ps);
	m->filters |= filter_rows[row].flag;
	if (filter_rows[row].parse)
		return filter_rows[row].parse(ps, m);
	return parse_glob_value(ps, filter_rows[row].name,
				(const char **)((char *)m + filter_rows[row].glob_off));
}

/* bytes '(' filter { ',' filter } ')' ; the word is already taken. */
static int parse_bytes_call(struct parser *ps, struct hd_metric *m)
{
	const struct token *t = take(ps);

	if (!is_punct(ps, t, '('))
		return perr_at(ps, t->off, t->len,
			       "expected '(' after 'bytes', e.g. bytes(space=vmem) or bytes(op_name=\"*attention*\")");
	if (is_punct(ps, peek(ps), ')'))
		return perr_at(ps, peek(ps)->off, 1,
			       "bytes() needs a filter: space=, kind=, name=, op_name= or source=");
	for (;;) {
		if (parse_filter(ps, m))
			return -1;
		t = take(ps);
		if (is_punct(ps, t, ')'))
			break;
		if (!is_punct(ps, t, ','))
			return perr_at(ps, t->off, t->len,
				       "expected ',' or ')' after a filter");
	}
	m->source = m->filters & (HD_FILTER_NAME | HD_FILTER_OP_NAME | HD_FILTER_SOURCE) ?
		HD_MSRC_VALUES : HD_MSRC_ALLOC;
	return 0;
}

/* peak_bytes '(' space '=' SPACE ')' ; the word is already taken: the
 * held peak of one memory space, row "spaceN_peak_bytes" (diff.c). */
static int parse_peak_space(struct parser *ps, struct hd_metric *m)
{
	const struct token *t = take(ps);
	char b[80];

	if (!is_punct(ps, t, '('))
		return perr_at(ps, t->off, t->len, "expected '(' after 'peak_bytes'");
	t = take(ps);
	if (!is_word(ps, t, "space"))
		return perr_at(ps, t->off, t->len,
			       "peak_bytes() takes one filter, space= (e.g. peak_bytes(space=hbm)), not '%s'",
			       tok_text(ps, t, b, sizeof(b)));
	if (!is_punct(ps, peek(ps), '='))
		return perr_at(ps, peek(ps)->off, peek(ps)->len,
			       "expected '=' after 'space'");
	take(ps);
	if (parse_space_value(ps, m))
		return -1;
	t = take(ps);
	if (!is_punct(ps, t, ')'))
		return perr_at(ps, t->off, t->len,
			       "expected ')' after the memory space");
	m->source = HD_MSRC_ROW;
	m->row = hd_arena_printf(&ps->r->arena, "space%lld_peak_bytes",
				 (long long)m->space);
	return 0;
}

/* Error for an unknown metric word, with the best hint. */
static int unknown_metric(struct parser *ps, const struct token *t)
{
	const char *w = ps->line + t->off;
	char b[80], sg[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(space_rows); i++) {
		size_t n = strlen(space_rows[i].name);
		if (t->len == n + 6 && hd_starts_with(w, t->len, space_rows[i].name) &&
		    hd_ends_with(w, t->len, "_bytes")) {
			snprintf(sg, sizeof(sg), " (did you mean 'bytes(space=%s)'?)",
				 space_rows[i].name);
			return perr_at(ps, t->off, t->len, "unknown metric '%s'%s",
				       tok_text(ps, t, b, sizeof(b)), sg);
		}
	}
	if (t->kind != TOK_WORD)
		return perr_at(ps, t->off, t->len,
			       "expected a metric (e.g. total_bytes, peak_bytes, bytes(space=vmem))");
	return perr_at(ps, t->off, t->len, "unknown metric '%s'%s",
		       tok_text(ps, t, b, sizeof(b)),
		       HINT(sg, ps, t, metric_rows));
}

/*
 * A metric: a table name, spaceN_bytes, or bytes(filters).  Its label is
 * the text as written.
 */
static int parse_metric(struct parser *ps, struct hd_metric *m)
{
	const struct token *t = take(ps);
	const struct token *last;
	int row = FIND(ps, t, metric_rows);

	memset(m, 0, sizeof(*m));
	m->is_bytes = 1;
	if (row >= 0 && strcmp(metric_rows[row].name, "bytes") == 0) {
		if (parse_bytes_call(ps, m))
			return -1;
	} else if (row >= 0 && strcmp(metric_rows[row].name, "peak_bytes") == 0 &&
		   is_punct(ps, peek(ps), '(')) {
		if (parse_peak_space(ps, m))
			return -1;
	} else if (t->kind == TOK_WORD &&
		   space_metric(ps->line + t->off, t->len, "_peak_bytes", &m->space)) {
		m->source = HD_MSRC_ROW;
		m->row = hd_arena_printf(&ps->r->arena, "space%lld_peak_bytes",
					 (long long)m->space);
	} else if (t->kind == TOK_WORD &&
		   space_metric(ps->line + t->off, t->len, "_bytes", &m->space)) {
		m->source = HD_MSRC_ALLOC;
		m->filters = HD_FILTER_SPACE;
	} else if (row >= 0 && metric_rows[row].source >= 0) {
		const struct metric_row *mr = &metric_rows[row];

		m->source = mr->source;
		m->is_bytes = mr->is_bytes;
		if (mr->source == HD_MSRC_ROW)
			m->row = mr->name;
		if (mr->source == HD_MSRC_ALLOC) {
			m->filters = HD_FILTER_KIND;
			m->kind = mr->arg;
		}
		if (mr->source == HD_MSRC_COPIES)
			m->copy_class = mr->arg;
	} else {
		return unknown_metric(ps, t);
	}
	last = &ps->tok[ps->pos - 1];
	m->label = hd_arena_strndup(&ps->r->arena, ps->line + t->off,
				    last->off + last->len - t->off);
	return 0;
}

/* ---- conditions ------------------------------------------------------- */

static const char *unit_list = "B, KiB, MiB, GiB, TiB";

/*
 * An amount after a NUMBER token: bytes need a unit, counts take none.
 * Stores the whole number of bytes (or the count) in *out.
 */
static int parse_amount(struct parser *ps, const struct hd_rule *r,
			const struct token *num, int64_t *out)
{
	const struct token *u = peek(ps);
	char b[80], sg[80];
	int64_t mant, div, v;
	int dec, row = FIND(ps, u, unit_rows);

	if (number_value(ps, num, &mant, &dec))
		return -1;
	if (!r->metric.is_bytes) {
		if (row >= 0)
			return perr_at(ps, u->off, u->len,
				       "'%s' is a count: drop the unit",
				       r->metric.label);
		if (dec)
			return perr_at(ps, num->off, num->len,
				       "'%s' is a count: give a whole number",
				       r->metric.label);
		*out = mant;
		return 0;
	}
	if (row < 0) {
		if (u->kind == TOK_WORD && !is_word(ps, u, "because"))
			return perr_at(ps, u->off, u->len,
				       "unknown unit '%s'%s; units: %s (binary)",
				       tok_text(ps, u, b, sizeof(b)),
				       HINT(sg, ps, u, unit_rows),
				       unit_list);
		return perr_at(ps, num->off + num->len, u->len,
			       "'%s' is in bytes: give a unit, e.g. '%.*s MiB' (units: %s)",
			       r->metric.label, (int)num->len, ps->line + num->off,
			       unit_list);
	}
	take(ps);
	/* 10^19 > INT64_MAX: past 18 decimals only 0 is a whole number
	 * (and pow10_i64 would overflow, then divide by 0) */
	div = dec > 18 ? 0 : pow10_i64(dec);
	if (__builtin_mul_overflow(mant, unit_rows[row].bytes, &v))
		return perr_at(ps, num->off, u->off + u->len - num->off,
			       "amount too large");
	if (div == 0 ? v != 0 : v % div != 0)
		return perr_at(ps, num->off, u->off + u->len - num->off,
			       "not a whole number of bytes");
	*out = div == 0 ? 0 : v / div;
	return 0;
}

/* NUMBER '%' into r->pct, or an amount into r->amount. */
static int parse_threshold(struct parser *ps, struct hd_rule *r,
			   int pct_allowed)
{
	const struct token *num = take(ps);
	int64_t mant;
	int dec;

	if (num->kind != TOK_NUMBER)
		return perr_at(ps, num->off, num->len, "expected a number%s",
			       pct_allowed ? " or a percentage" : "");
	if (!is_punct(ps, peek(ps), '%'))
		return parse_amount(ps, r, num, &r->amount);
	if (!pct_allowed)
		return perr_at(ps, peek(ps)->off, 1,
			       "'above' takes an amount such as '16 MiB', not a percentage (for growth: 'grows by more than N%%')");
	take(ps);
	if (number_value(ps, num, &mant, &dec))
		return -1;
	if (dec > PCT_DECIMALS)
		return perr_at(ps, num->off, num->len,
			       "at most %d decimals in a percentage", PCT_DECIMALS);
	if (__builtin_mul_overflow(mant, pow10_i64(PCT_DECIMALS - dec),
				   &r->pct))
		return perr_at(ps, num->off, num->len, "percentage too large");
	r->cond = HD_COND_GROWS_PCT;
	return 0;
}

/* grows by more than THRESHOLD ('grows' taken) */
static int cond_grows(struct parser *ps, struct hd_rule *r)
{
	static const char *const words[] = { "by", "more", "than" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		const struct token *t = take(ps);
		if (!is_word(ps, t, words[i]))
			return perr_at(ps, t->off, t->len,
				       "expected 'by more than' after 'grows'");
	}
	r->cond = HD_COND_GROWS_BY;
	return parse_threshold(ps, r, 1);
}

/* above AMOUNT ('above' taken) */
static int cond_above(struct parser *ps, struct hd_rule *r)
{
	r->cond = HD_COND_ABOVE;
	return parse_threshold(ps, r, 0);
}

static const struct cond_row {
	const char *name;
	int (*parse)(struct parser *, struct hd_rule *);
} cond_rows[] = {
	{ "grows", cond_grows },
	{ "above", cond_above },
};

static int parse_condition(struct parser *ps, struct hd_rule *r)
{
	const struct token *t = take(ps);
	char b[80], sg[80];
	int row = FIND(ps, t, cond_rows);

	if (row >= 0)
		return cond_rows[row].parse(ps, r);
	if (t->kind == TOK_END)
		return perr_at(ps, t->off, 1,
			       "missing condition after '%s': 'grows by more than N%%', 'grows by more than N%s' or 'above N%s'",
			       r->metric.label, r->metric.is_bytes ? " MiB" : "",
			       r->metric.is_bytes ? " MiB" : "");
	return perr_at(ps, t->off, t->len,
		       "unknown condition '%s'%s; conditions: 'grows by more than', 'above'",
		       tok_text(ps, t, b, sizeof(b)),
		       HINT(sg, ps, t, cond_rows));
}

/* { 'and' CONDITION }: each part kept in the arena, linked from r. */
static int parse_and(struct parser *ps, struct hd_rule *r)
{
	const struct hd_rule **link = &r->and_next;

	while (is_word(ps, peek(ps), "and")) {
		struct hd_rule *part = hd_arena_alloc(&ps->r->arena, sizeof(*part));

		take(ps);
		memset(part, 0, sizeof(*part));
		part->metric = r->metric;
		/* "grows by more than 1% and by more than 1 MiB": 'grows' may
		 * be left out after 'and' */
		if (is_word(ps, peek(ps), "by") ? cond_grows(ps, part) :
		    parse_condition(ps, part))
			return -1;
		*link = part;
		link = &part->and_next;
	}
	return 0;
}

/* ---- statements ------------------------------------------------------- */

/* The line's text from token 0 to the last token before the comment. */
static const char *stmt_text(struct parser *ps)
{
	const struct token *first = &ps->tok[0], *last;

	if (ps->ntok == 0)
		return "";
	last = &ps->tok[ps->ntok - 1];
	return hd_arena_strndup(&ps->r->arena, ps->line + first->off,
				last->off + last->len - first->off);
}

/* Optional: because "REASON". */
static int parse_because(struct parser *ps, const char **reason, int required)
{
	const struct token *t = peek(ps);

	if (!is_word(ps, t, "because")) {
		if (!required)
			return 0;
		return perr_at(ps, t->off, t->len,
			       "a waiver needs a reason: add because \"why\"");
	}
	take(ps);
	t = take(ps);
	if (t->kind != TOK_STRING)
		return perr_at(ps, t->off, t->len,
			       "expected a quoted reason after 'because'");
	if (t->len == 2)
		return perr_at(ps, t->off, t->len, "the reason is empty");
	*reason = string_value(ps, t);
	return 0;
}

static int expect_end(struct parser *ps, const char *what)
{
	const struct token *t = peek(ps);
	char b[80];

	if (t->kind == TOK_END)
		return 0;
	return perr_at(ps, t->off, t->len, "unexpected '%s' after the %s",
		       tok_text(ps, t, b, sizeof(b)), what);
}

static int count_item(struct parser *ps)
{
	if (ps->n_items >= HD_RULES_MAX_RULES)
		return perr_at(ps, ps->tok[0].off, ps->tok[0].len,
			       "more than %d rules and waivers in one file",
			       HD_RULES_MAX_RULES);
	ps->n_items++;
	return 0;
}

/* severity 'new' COPY-METRIC */
static int parse_new(struct parser *ps, struct hd_rule *r)
{
	const struct token *t = peek(ps);
	char b[80], sg[80];

	if (FIND(ps, t, copy_metric_rows) < 0)
		return perr_at(ps, t->off, t->len,
			       "'new' takes a kind of copy, not '%s'%s; kinds: prefetches, evictions, cross_program_prefetches, host_offloads, host_reloads, other_copies",
			       tok_text(ps, t, b, sizeof(b)),
			       HINT(sg, ps, t, copy_metric_rows));
	if (parse_metric(ps, &r->metric))
		return -1;
	r->cond = HD_COND_ANY_NEW;
	return 0;
}

/* severity 'lost' 'aliases': on the number of aliased parameters */
static int parse_lost(struct parser *ps, struct hd_rule *r)
{
	const struct token *t = take(ps);
	char b[80];

	if (!is_word(ps, t, "aliases"))
		return perr_at(ps, t->off, t->len,
			       "'lost' takes 'aliases', not '%s' (e.g. 'error lost aliases')",
			       tok_text(ps, t, b, sizeof(b)));
	memset(&r->metric, 0, sizeof(r->metric));
	r->metric.source = HD_MSRC_ALIASES;
	r->metric.label = "aliased_parameters";
	r->cond = HD_COND_ANY_LOST;
	return 0;
}

/* error|warn METRIC CONDITION [because "..."] | error|warn new COPIES
 * | error|warn lost aliases */
static int parse_rule(struct parser *ps, const struct token *first)
{
	struct hd_rule r;

	memset(&r, 0, sizeof(r));
	r.severity = is_word(ps, first, "error") ? HD_SEV_ERROR : HD_SEV_WARN;
	r.line = ps->lineno;
	r.module = ps->module;
	if (is_word(ps, peek(ps), "new")) {
		take(ps);
		if (parse_new(ps, &r))
			return -1;
	} else if (is_word(ps, peek(ps), "lost")) {
		take(ps);
		if (parse_lost(ps, &r))
			return -1;
	} else if (parse_metric(ps, &r.metric) || parse_condition(ps, &r) ||
		   parse_and(ps, &r)) {
		return -1;
	}
	if (parse_because(ps, &r.reason, 0) || expect_end(ps, "rule") ||
	    count_item(ps))
		return -1;
	r.text = stmt_text(ps);
	*(struct hd_rule *)hd_vec_push(&ps->r->rules) = r;
	return 0;
}

/* waive name|op_name = "GLOB" because "REASON" */
static int parse_waive(struct parser *ps, const struct token *first)
{
	struct hd_waiver w;
	const struct token *t = take(ps);
	char b[80], sg[80];
	int row = FIND(ps, t, waive_field_rows);

	(void)first;
	memset(&w, 0, sizeof(w));
	if (row < 0)
		return perr_at(ps, t->off, t->len,
			       "a waiver matches name=\"GLOB\" or op_name=\"GLOB\", not '%s'%s",
			       tok_text(ps, t, b, sizeof(b)),
			       HINT(sg, ps, t, waive_field_rows));
	w.field = row == 0 ? HD_FILTER_NAME : HD_FILTER_OP_NAME;
	if (!is_punct(ps, peek(ps), '='))
		return perr_at(ps, peek(ps)->off, peek(ps)->len,
			       "expected '=' after '%s'", waive_field_rows[row].name);
	take(ps);
	if (parse_glob_value(ps, waive_field_rows[row].name, &w.glob) ||
	    parse_because(ps, &w.reason, 1) || expect_end(ps, "waiver") ||
	    count_item(ps))
		return -1;
	w.line = ps->lineno;
	w.module = ps->module;
	w.text = stmt_text(ps);
	*(struct hd_waiver *)hd_vec_push(&ps->r->waivers) = w;
	return 0;
}

/* module "GLOB" { */
static int parse_module(struct parser *ps, const struct token *first)
{
	struct hd_module_scope *m;
	const struct token *g, *brace;

	if (ps->module >= 0)
		return perr_at(ps, first->off, first->len,
			       "module blocks do not nest (close the block of line %lu first)",
			       (unsigned long)ps->module_lineno);
	g = take(ps);
	if (g->kind != TOK_STRING)
		return perr_at(ps, g->off, g->len,
			       "expected a quoted module-name glob, e.g. module \"jit_train*\" {");
	if (g->len == 2)
		return perr_at(ps, g->off, g->len, "empty glob");
	brace = take(ps);
	if (!is_punct(ps, brace, '{'))
		return perr_at(ps, brace->off, brace->len,
			       "expected '{' at the end of the module line");
	if (expect_end(ps, "'{' (rules go on the lines below)"))
		return -1;
	m = hd_vec_push(&ps->r->modules);
	m->glob = string_value(ps, g);
	m->line = ps->lineno;
	ps->module = (int32_t)(ps->r->modules.len - 1);
	ps->module_src = ps->line;
	ps->module_src_len = ps->line_len;
	ps->module_brace = brace->off;
	ps->module_lineno = ps->lineno;
	return 0;
}

/* } */
static int parse_close(struct parser *ps, const struct token *first)
{
	if (ps->module < 0)
		return perr_at(ps, first->off, 1, "'}' without a module block");
	if (expect_end(ps, "'}'"))
		return -1;
	ps->module = -1;
	return 0;
}

static const struct directive_row {
	const char *name;
	int (*parse)(struct parser *, const struct token *);
} directive_rows[] = {
	{ "error", parse_rule },
	{ "warn", parse_rule },
	{ "waive", parse_waive },
	{ "module", parse_module },
};

/* One line: empty, a comment, or a statement. */
static void parse_line(struct parser *ps)
{
	const struct token *t;
	char b[80], sg[80];
	int row;

	if (lex_line(ps) || ps->ntok == 0)
		return;
	t = take(ps);
	if (is_punct(ps, t, '}')) {
		parse_close(ps, t);
		return;
	}
	row = FIND(ps, t, directive_rows);
	if (row >= 0) {
		directive_rows[row].parse(ps, t);
		return;
	}
	if (t->kind != TOK_WORD) {
		perr_at(ps, t->off, t->len,
			"expected a rule ('error ...', 'warn ...'), 'waive', 'module' or '}'");
		return;
	}
	perr_at(ps, t->off, t->len,
		"unknown directive '%s'%s; a line starts with error, warn, waive, module or '}'",
		tok_text(ps, t, b, sizeof(b)),
		HINT(sg, ps, t, directive_rows));
}

/* Splits text into lines and parses each; returns the error count. */
static int parse_text(struct parser *ps, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end && !ps->gave_up) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		ps->lineno++;
		ps->line = p;
		ps->line_len = (size_t)(le - p);
		if (ps->line_len && p[ps->line_len - 1] == '\r')
			ps->line_len--;
		if (ps->line_len > HD_RULES_MAX_LINE) {
			hd_error_col(ps->name, ps->lineno, HD_RULES_MAX_LINE + 1,
				     "line longer than %d bytes", HD_RULES_MAX_LINE);
			note_error(ps);
		} else {
			parse_line(ps);
		}
		p = nl ? nl + 1 : end;
	}
	if (ps->module >= 0 && !ps->gave_up) {
		ps->line = ps->module_src;
		ps->line_len = ps->module_src_len;
		ps->lineno = ps->module_lineno;
		perr_at(ps, ps->module_brace, 1,
			"module block not closed (add '}' on a line of its own)");
	}
	return ps->errors;
}

/* ---- public ----------------------------------------------------------- */

static struct hd_rules *rules_new(const char *name)
{
	struct hd_rules *r = hd_xcalloc(1, sizeof(*r));

	r->rules.elem = sizeof(struct hd_rule);
	r->waivers.elem = sizeof(struct hd_waiver);
	r->modules.elem = sizeof(struct hd_module_scope);
	r->name = hd_arena_strndup(&r->arena, name, strlen(name));
	return r;
}

int hd_rules_load_buffer(struct hd_rules **out, const char *name,
			 const char *text, size_t len)
{
	struct hd_rules *r = rules_new(name);
	struct parser ps = { .r = r, .name = r->name, .module = -1 };

	*out = NULL;
	if (len > HD_RULES_MAX_BYTES) {
		hd_error(r->name, 0, "rules file larger than %u bytes",
			 HD_RULES_MAX_BYTES);
		hd_rules_free(r);
		return -1;
	}
	if (parse_text(&ps, text, len)) {
		hd_rules_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

int hd_rules_load(struct hd_rules **out, const char *path)
{
	struct hd_input in;
	int rc;

	*out = NULL;
	if (hd_input_open(&in, path) < 0)
		return -1;
	rc = hd_rules_load_buffer(out, in.name, in.data, in.len);
	hd_input_release(&in);
	return rc;
}

int hd_rules_load_default(struct hd_rules **out)
{
	if (hd_rules_load_buffer(out, HD_RULES_DEFAULT_NAME,
				 hd_default_rules_text, hd_default_rules_len))
		HD_BUG("the built-in default rules do not parse");
	return 0;
}

void hd_rules_free(struct hd_rules *r)
{
	if (!r)
		return;
	hd_vec_release(&r->rules);
	hd_vec_release(&r->waivers);
	hd_vec_release(&r->modules);
	hd_arena_release(&r->arena);
	free(r);
}

size_t hd_rules_count(const struct hd_rules *r)
{
	return r->rules.len;
}

const char *hd_severity_name(int severity)
{
	return severity == HD_SEV_ERROR ? "error" : "warn";
}
