/*
 * json.c - streaming JSON writer.
 */
#include "hlodiff/json.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/bytes.h"
#include "hlodiff/diag.h"
#include "hlodiff/format.h"
#include "hlodiff/scan.h"

void hd_json_init(struct hd_json *j, FILE *out)
{
	j->out = out;
	j->len = 0;
	j->depth = 0;
	memset(j->count, 0, sizeof(j->count));
	j->after_key = 0;
	j->compact_depth = 0;
}

/*
 * The output goes through j->buf: a report of every value of a big diff
 * is large, and a stdio call per character (each taking the stream's
 * lock) would cost more than the writing itself.
 */
static void flush(struct hd_json *j)
{
	if (j->len)
		fwrite(j->buf, 1, j->len, j->out);
	j->len = 0;
}

static __attribute__((noinline)) void put_bytes_long(struct hd_json *j,
							 const char *s, size_t n)
{
	flush(j);
	if (n > sizeof(j->buf)) {
		fwrite(s, 1, n, j->out);
		return;
	}
	memcpy(j->buf, s, n);
	j->len = n;
}

static inline void put_bytes(struct hd_json *j, const char *s, size_t n)
{
	if (n > sizeof(j->buf) - j->len) {
		put_bytes_long(j, s, n);
		return;
	}
	if (n <= 16)
		hd_copy_small(j->buf + j->len, s, n);
	else
		memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static inline void put_char(struct hd_json *j, char c)
{
	if (j->len == sizeof(j->buf))
		flush(j);
	j->buf[j->len++] = c;
}

static void put_str(struct hd_json *j, const char *s)
{
	put_bytes(j, s, strlen(s));
}

/* Two spaces a level, depth levels. */
static void put_indent(struct hd_json *j, int depth)
{
	static const char spaces[] = "                                "
				     "                                ";

	for (; depth > 0; depth -= (int)(sizeof(spaces) - 1) / 2) {
		int k = depth < (int)(sizeof(spaces) - 1) / 2 ? depth :
			(int)(sizeof(spaces) - 1) / 2;

		put_bytes(j, spaces, 2 * (size_t)k);
	}
}

static int compact(const struct hd_json *j)
{
	return j->compact_depth && j->depth >= j->compact_depth;
}

/* Separator and indentation before a new item at the current depth. */
static inline __attribute__((always_inline)) void item(struct hd_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0) {
		j->count[0]++;
		return;
	}
	if (j->count[j->depth]++)
		put_char(j, ',');
	if (compact(j)) {
		if (j->count[j->depth] > 1)
			put_char(j, ' ');
		return;
	}
	put_char(j, '\n');
	put_indent(j, j->depth);
}

static void open_(struct hd_json *j, char c)
{
	item(j);
	put_char(j, c);
	if (j->depth + 1 >= HD_JSON_MAX_DEPTH)
		HD_BUG("JSON nesting too deep");
	j->depth++;
	j->count[j->depth] = 0;
}

static void close_(struct hd_json *j, char c)
{
	int had = j->count[j->depth];

	j->depth--;
	if (had && !(j->compact_depth && j->depth + 1 >= j->compact_depth)) {
		put_char(j, '\n');
		put_indent(j, j->depth);
	}
	put_char(j, c);
}

void hd_json_begin_object(struct hd_json *j) { open_(j, '{'); }
void hd_json_end_object(struct hd_json *j) { close_(j, '}'); }
void hd_json_begin_array(struct hd_json *j) { open_(j, '['); }
void hd_json_end_array(struct hd_json *j) { close_(j, ']'); }

/* Does byte c go into a JSON string as it is (printable ASCII other
 * than '"' and '\\')? */
static inline int plain_byte(unsigned char c)
{
	return (unsigned char)(c - 0x20) < 0x5f && c != '"' && c != '\\';
}

/* Bit k set when byte k of x is not plain (plain_byte). */
static inline unsigned not_plain_mask(hd_v16 x)
{
	hd_v16 ok = hd_v_andnot(hd_v_or(hd_v_eq(x, '"'), hd_v_eq(x, '\\')),
				hd_v_in_range(x, 0x20, 0x7e));

	return hd_v_mask(ok) ^ 0xffffu;
}

/*
 * The end of the run of plain bytes from s[i] (the first byte to escape,
 * or n): 16 bytes at a time while a whole block lies inside s[0, n),
 * then byte by byte.  A report writes many short names, and a test per
 * byte would be most of the cost of writing them.
 */
static size_t plain_run(const char *s, size_t n, size_t i)
{
	for (; n - i >= 16; i += 16) {
		unsigned bad = not_plain_mask(hd_v_load(s + i));

		if (bad)
			return i + (size_t)__builtin_ctz(bad);
	}
	while (i < n && plain_byte((unsigned char)s[i]))
		i++;
	return i;
}

/* write_string of a string that needs escapes (or may). */
static __attribute__((noinline)) void write_escaped(struct hd_json *j,
						    const char *s, size_t n)
{
	size_t i = 0, run;

	put_char(j, '"');
	while (i < n) {
		unsigned char c;

		run = plain_run(s, n, i);
		put_bytes(j, s + i, run - i);
		if ((i = run) == n)
			break;
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			put_char(j, '\\');
			put_char(j, (char)c);
		} else if (c == '\n') {
			put_bytes(j, "\\n", 2);
		} else if (c == '\t') {
			put_bytes(j, "\\t", 2);
		} else if (c == '\r') {
			put_bytes(j, "\\r", 2);
		} else if (c < 0x20 || c == 0x7f) {
			char u[8];

			snprintf(u, sizeof(u), "\\u%04x", c);
			put_bytes(j, u, 6);
		} else {
			/* copy a well-formed UTF-8 sequence, else U+FFFD */
			size_t len = hd_utf8_length((const unsigned char *)s + i, n - i);

			if (len) {
				put_bytes(j, s + i, len);
				i += len;
				continue;
			}
			put_bytes(j, "\\ufffd", 6);
		}
		i++;
	}
	put_char(j, '"');
}


/* Are all 16 bytes of x plain (plain_byte)? */
static inline int plain_v(hd_v16 x)
{
	return not_plain_mask(x) == 0;
}

/*
 * Are all bytes of s[0, n) plain?  Nearly every string of a report is
 * (names, keys, words), and most are shorter than a 16-byte block,
 * which plain_run tests byte by byte.  Here a short string is tested as
 * one block of two loads that may overlap, inside s[0, n) (the lanes
 * left over hold a plain byte); a longer one a block at a time, the
 * last block the last 16 bytes.
 */
static inline __attribute__((always_inline)) int plain_all(const char *s,
							    size_t n)
{
	uint64_t a, b;
	uint32_t c, d;
	size_t i;

	if (n >= 16) {
		for (i = 0; n - i > 16; i += 16)
			if (!plain_v(hd_v_load(s + i)))
				return 0;
		return plain_v(hd_v_load(s + n - 16));
	}
	if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		return plain_v(hd_v_from64(a, b));
	}
	if (n >= 4) {
		memcpy(&c, s, 4);
		memcpy(&d, s + n - 4, 4);
	} else if (n) {
		c = (uint32_t)(unsigned char)s[0] |
		    (uint32_t)(unsigned char)s[n / 2] << 8 |
		    (uint32_t)(unsigned char)s[n - 1] << 16 | 0x61000000u;
		d = c;
	} else {
		return 1;
	}
	return plain_v(hd_v_from64((uint64_t)d << 32 | c, 0x6161616161616161ull));
}

/*
 * '"' s[0, n) '"' written straight into the buffer when s needs no
 * escape and they fit with room bytes more after them (nearly every
 * string of a report: names, keys, words).  Returns where they end (the
 * buffer's length not yet moved), or NULL when s must take
 * write_escaped.
 */
static inline __attribute__((always_inline)) char *
quote_plain(struct hd_json *j, const char *s, size_t n, size_t room)
{
	char *o;

	if (n + 2 + room > sizeof(j->buf) - j->len || !plain_all(s, n))
		return NULL;
	o = j->buf + j->len;
	o[0] = '"';
	if (n <= 16)
		hd_copy_small(o + 1, s, n);
	else
		memcpy(o + 1, s, n);
	o[n + 1] = '"';
	return o + n + 2;
}

/* s[0, n) as a JSON string. */
static void write_string(struct hd_json *j, const char *s, size_t n)
{
	char *o = quote_plain(j, s, n, 0);

	if (o)
		j->len = (size_t)(o - j->buf);
	else
		write_escaped(j, s, n);
}

/* "key": in one copy when the key is plain (a report's keys are). */
static inline __attribute__((always_inline)) void key_(struct hd_json *j,
							const char *key, size_t n)
{
	char *o;

	item(j);
	o = quote_plain(j, key, n, 2);
	if (o) {
		o[0] = ':';
		o[1] = ' ';
		j->len = (size_t)(o + 2 - j->buf);
	} else {
		write_escaped(j, key, n);
		put_bytes(j, ": ", 2);
	}
	j->after_key = 1;
}

void hd_json_key_n(struct hd_json *j, const char *key, size_t n)
{
	key_(j, key, n);
}

static inline __attribute__((always_inline)) void int_(struct hd_json *j,
							int64_t v)
{
	/* two digits a step: a report writes millions of numbers */
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char t[24];
	size_t k = sizeof(t);
	uint64_t u = hd_magnitude(v);

	item(j);
	while (u >= 100) {
		unsigned d = (unsigned)(u % 100);

		u /= 100;
		k -= 2;
		memcpy(t + k, pairs + 2 * d, 2);
	}
	if (u >= 10) {
		k -= 2;
		memcpy(t + k, pairs + 2 * u, 2);
	} else {
		t[--k] = (char)('0' + u);
	}
	if (v < 0)
		t[--k] = '-';
	put_bytes(j, t + k, sizeof(t) - k);
}

void hd_json_int(struct hd_json *j, int64_t v)
{
	int_(j, v);
}

void hd_json_bool(struct hd_json *j, int v)
{
	item(j);
	put_str(j, v ? "true" : "false");
}

void hd_json_null(struct hd_json *j)
{
	item(j);
	put_bytes(j, "null", 4);
}

void hd_json_str(struct hd_json *j, const char *s)
{
	item(j);
	write_string(j, s, strlen(s));
}

void hd_json_slice(struct hd_json *j, struct hd_slice s)
{
	item(j);
	write_string(j, s.p ? s.p : "", s.n);
}

void hd_json_slice_cat(struct hd_json *j, struct hd_slice a, struct hd_slice b)
{
	char small[256], *whole;
	size_t n = a.n + b.n;

	item(j);
	if (n + 2 <= sizeof(j->buf) - j->len && plain_all(a.p, a.n) &&
	    plain_all(b.p, b.n)) {
		/* plain: the two copied as they are, between the quotes */
		char *o = j->buf + j->len;

		o[0] = '"';
		if (a.n)
			memcpy(o + 1, a.p, a.n);
		if (b.n <= 16)
			hd_copy_small(o + 1 + a.n, b.p, b.n);
		else
			memcpy(o + 1 + a.n, b.p, b.n);
		o[n + 1] = '"';
		j->len += n + 2;
		return;
	}
	/* else escaped as one string (a UTF-8 sequence may span the two) */
	whole = n <= sizeof(small) ? small : hd_xmalloc(n);
	if (a.n)
		memcpy(whole, a.p, a.n);
	if (b.n)
		memcpy(whole + a.n, b.p, b.n);
	write_string(j, whole, n);
	if (whole != small)
		free(whole);
}

void hd_json_raw(struct hd_json *j, const char *token)
{
	item(j);
	put_str(j, token);
}

void hd_json_key_int_n(struct hd_json *j, const char *key, size_t n, int64_t v)
{
	key_(j, key, n);
	int_(j, v);
}

void hd_json_key_opt_int_n(struct hd_json *j, const char *key, size_t n,
			   int has, int64_t v)
{
	key_(j, key, n);
	if (has)
		int_(j, v);
	else
		hd_json_null(j);
}

void hd_json_key_str_n(struct hd_json *j, const char *key, size_t n,
		       const char *s)
{
	key_(j, key, n);
	if (s)
		hd_json_str(j, s);
	else
		hd_json_null(j);
}

void hd_json_key_slice_n(struct hd_json *j, const char *key, size_t n,
			 struct hd_slice s)
{
	key_(j, key, n);
	if (s.n)
		hd_json_slice(j, s);
	else
		hd_json_null(j);
}

void hd_json_finish(struct hd_json *j)
{
	put_char(j, '\n');
	flush(j);
}
