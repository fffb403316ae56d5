/*
 * parse.c - one pass over the lines of a buffer-assignment dump.
 *
 * Each line is classified by its prefix (FORMAT.md section 12) and handed
 * to one small function that fills the model.  The parser keeps a little
 * state (the current section, allocation and value record) so that lines
 * whose meaning depends on their context (two- and four-space lines) are
 * read the right way.  Nothing is copied: every string is a slice of the
 * input.
 */
#include "hlodiff/parse.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/scan.h"
#include "hlodiff/shape.h"

#define PARSE_QUOTE_MAX 60

enum section {
	SEC_START,         /* nothing read yet */
	SEC_ALLOCATIONS,
	SEC_AFTER_TOTAL,
	SEC_USED_VALUES,
	SEC_LIVE_RANGE,    /* "HloLiveRange (max T):" read */
	SEC_SEQUENCE,
	SEC_BUFFER_LIVE,
	SEC_PEAK,
	SEC_PEAK_UNKNOWN,
	SEC_STACK_TREE,
	SEC_SKIP_WRAPPED,  /* inside a "*** Begin" block of another file */
	SEC_DONE,          /* a second module in a stdout stream */
};

/*
 * The logical sizes of shape texts seen recently.  A dump repeats a few
 * hundred shapes over and over (f32[]{:T(128)}, ...), and walking each
 * one again was an eighth of the parse.  Direct-mapped by memo_index (a
 * few multiplies of the text's first and last 16 bytes), shapes of up
 * to SHAPE_MEMO_TEXT bytes; the text is kept to compare with, and its
 * XXH3-64 (the hash a value's shape is kept under) is taken from the
 * slot on a hit, not worked out again for each line.
 */
#define SHAPE_MEMO_SLOTS 1024
#define SHAPE_MEMO_TEXT 48

struct shape_memo {
	uint64_t hash;          /* XXH3-64 of text */
	uint64_t bare;          /* XXH3-64 of its hd_shape_strip_layout,
				   if bare_known */
	uint32_t len;           /* 0: empty */
	int plain;              /* no ' ' in text, and an instruction's shape
				   scan (balanced_until ' ') ends at its end */
	int bare_known;
	int64_t bytes;
	char text[SHAPE_MEMO_TEXT];
};

/*
 * The same for the longer shapes (tuples of tens or hundreds of
 * elements, up to LONG_MEMO_TEXT bytes), whose walk costs the most:
 * each slot keeps its text in a buffer of its own, grown by doubling.
 */
#define LONG_MEMO_SLOTS 256
#define LONG_MEMO_TEXT 8192

struct long_memo {
	uint64_t hash;          /* XXH3-64 of text */
	uint64_t bare;          /* the same of its hd_shape_strip_layout */
	uint32_t len;           /* 0: empty */
	uint32_t cap;           /* bytes at text */
	int64_t bytes;
	char *text;
};

enum record_part {
	REC_NONE,
	REC_HEADER,        /* "<...>" read */
	REC_POSITIONS,
	REC_USES,
	REC_DONE,          /* " from instruction:" read */
};

/* A value not yet filed under its key (file_pending). */
struct pending_key {
	uint32_t hash;          /* hd_index_hash of its key */
	uint32_t v;
};

struct parser {
	struct hd_dump *d;
	struct hd_input *in;    /* the mapped input, NULL for a buffer */
	const char *data, *end; /* the input */
	const char *checked;    /* [data, checked) has no NUL byte */
	struct hd_input_pass pass; /* the window of in kept resident */
	const char *file;       /* display name */
	uint64_t line;          /* current line number, 1-based */
	unsigned flags;
	const struct hd_parse_hooks *hooks; /* never NULL (no_hooks) */
	enum section sec;
	uint32_t alloc;         /* current allocation or HD_NONE */
	int in_reuse;           /* inside " reused by ..." of an allocation */
	uint32_t record;        /* value of the current record or HD_NONE */
	enum record_part part;
	int wrapped;            /* inside "*** Begin ... ***" */
	int modules_seen;       /* buffer-assignment files seen in a wrapper */
	uint32_t file_sections; /* enum hd_sections seen in this file */
	uint32_t last_insn;     /* instruction of the previous record */
	uint32_t prefetched;    /* value last prefetched (prefetch_records) */
	/* prefetch_records: the ids with a value after the record's (up to
	 * 4, ascending: ahead_ids[(ahead_first + k) % 4] for k below
	 * n_ahead_ids, a ring, as a record passes about one a time), found
	 * by a scan of the id slots that has come to ids_scanned; records
	 * come in id order, so each slot is looked at about once, not four
	 * times */
	size_t ahead_ids[4];
	unsigned n_ahead_ids, ahead_first;
	size_t ids_scanned;
	/* parse_sequence_line: the position the next sequence line must
	 * have (d->sequence.len: every line filed there adds one to it,
	 * next_seq_text) in decimal, seq_n digits; none yet when 0 */
	size_t seq_n;
	char seq_text[24];
	uint64_t record_hash;   /* XXH3-64 of the record's value name (its low
				   32 bits are the hd_index_hash) */
	struct shape_memo *memo; /* SHAPE_MEMO_SLOTS of them */
	struct long_memo *long_memo; /* LONG_MEMO_SLOTS of them */
	uint64_t stack_lines;
	/* struct pending_key: the values of the allocations section, filed
	 * under their keys at once when the section is over (file_pending) */
	struct hd_vec pending;
	/* Running sums the figures add up again: an input whose sums do not
	 * fit in int64 is rejected here, where the line is known, rather
	 * than reported with a saturated (wrong) figure. */
	int64_t alloc_sum, value_sum, peak_sum;
	/* values made with the index "{}" (printed or not): each names an
	 * instruction of its own, so that the instruction index is made
	 * about its final size at 'Used values:' */
	uint64_t plain_values;
};

/* ---- messages ---------------------------------------------------- */

static int no_nul_left(struct parser *ps);
static int file_pending(struct parser *ps, int report);

static int perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A message about the current line into msg: -1 instead when a NUL byte
 * is left in the input, which no_nul_left has reported (a NUL explains
 * any later error better than the error itself).
 */
static int line_message(struct parser *ps, char *msg, size_t n,
			const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static int line_message(struct parser *ps, char *msg, size_t n,
			const char *fmt, va_list ap)
{
	/* two values of one name, met before this line, are the error */
	if (file_pending(ps, 1) || no_nul_left(ps))
		return -1;
	vsnprintf(msg, n, fmt, ap);
	return 0;
}

static int perr(struct parser *ps, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = line_message(ps, msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rc == 0)
		hd_error(ps->file, ps->line, "%s", msg);
	return -1;
}

/* Error about a malformed line of a known kind, quoting its start. */
static int bad_line(struct parser *ps, struct hd_slice l, const char *what,
		    const char *expected)
{
	char q[PARSE_QUOTE_MAX + 8];

	hd_quote(q, sizeof(q), l.p, l.n, PARSE_QUOTE_MAX);
	return perr(ps, "%s in '%s' (expected %s)", what, q, expected);
}

/* The hd_sections bit of the section the parser is in. */
static uint32_t section_bit(const struct parser *ps)
{
	switch (ps->sec) {
	case SEC_AFTER_TOTAL: return HD_SEC_TOTAL;
	case SEC_USED_VALUES: return HD_SEC_USED_VALUES;
	case SEC_LIVE_RANGE: return HD_SEC_LIVE_RANGE;
	case SEC_SEQUENCE: return HD_SEC_SEQUENCE;
	case SEC_BUFFER_LIVE: return HD_SEC_BUFFER_LIVE;
	case SEC_PEAK: case SEC_PEAK_UNKNOWN: return HD_SEC_PEAK;
	case SEC_STACK_TREE: return HD_SEC_STACK_TREE;
	default: return HD_SEC_ALLOCATIONS;
	}
}

/*
 * The dump breaks off in section bit: an input error, or with
 * HD_PARSE_ALLOW_INCOMPLETE a warning (the first one only) and a mark in
 * dump->incomplete that keeps the figures of that section out.
 */
static int truncation(struct parser *ps, uint32_t bit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int truncation(struct parser *ps, uint32_t bit, const char *fmt, ...)
{
	struct hd_dump *d = ps->d;
	char msg[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = line_message(ps, msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rc)
		return -1;
	if (!(ps->flags & HD_PARSE_ALLOW_INCOMPLETE)) {
		hd_error(ps->file, ps->line, "%s", msg);
		return -1;
	}
	if (!d->incomplete) {
		d->incomplete_file = ps->file;
		d->incomplete_line = ps->line;
		d->incomplete_why = hd_arena_strndup(&d->arena, msg, strlen(msg));
		hd_warning(ps->file, ps->line, "%s; read as incomplete (--allow-incomplete)", msg);
	}
	d->incomplete |= bit;
	return 0;
}

static void note_unknown(struct parser *ps)
{
	struct hd_dump *d = ps->d;

	if (d->n_unknown < HD_UNKNOWN_SHOWN) {
		d->unknown_lines[d->n_unknown] = ps->line;
		d->unknown_files[d->n_unknown] = ps->file;
	}
	d->n_unknown++;
}

static int unknown_line(struct parser *ps, struct hd_slice l)
{
	char q[PARSE_QUOTE_MAX + 8];

	if (ps->flags & HD_PARSE_STRICT) {
		hd_quote(q, sizeof(q), l.p, l.n, PARSE_QUOTE_MAX);
		return perr(ps, "unknown line '%s' (--strict)", q);
	}
	note_unknown(ps);
	return 0;
}

/* ---- small scanners (all bounded by the slice) -------------------- */

static inline uint64_t load64(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/*
 * Does l start with the n bytes of prefix?  With a literal prefix,
 * hd_bytes_eq compares constant words and calls no memcmp (GCC calls it
 * for the longer literals, once or more per line).
 */
static inline __attribute__((always_inline)) int
starts(struct hd_slice l, const char *prefix, size_t n)
{
	return l.n >= n && hd_bytes_eq(l.p, prefix, n);
}

#define STARTS(l, lit) starts((l), (lit), sizeof(lit) - 1)
/* l is exactly the literal lit */
#define IS(l, lit) ((l).n == sizeof(lit) - 1 && STARTS((l), (lit)))

static struct hd_slice tail(struct hd_slice l, size_t from)
{
	if (from > l.n)
		from = l.n;
	return hd_slice_make(l.p + from, l.n - from);
}

/* tail(l, from) for a from known to be at most l.n (a span found in l,
 * a prefix checked by the caller): no clamp on the hot lines. */
static inline struct hd_slice skip(struct hd_slice l, size_t from)
{
	return hd_slice_make(l.p + from, l.n - from);
}

/* The value of the n (1 to 8) decimal digits at p, 8 bytes readable
 * there: SWAR, the digits moved to the top bytes of a little-endian
 * word (the bytes past them shifted out, zeros in as leading zeros),
 * then pairs, quads and octets of digits combined by three multiplies.
 * Subtracting '0' from every byte borrows only upwards, out of the
 * bytes that are shifted out. */
static inline uint64_t digits8(const char *p, unsigned n)
{
	uint64_t x = load64(p) - 0x3030303030303030ull;

	x <<= 8 * (8 - n);
	x = (x & 0x0f0f0f0f0f0f0f0full) * 2561 >> 8;
	x = (x & 0x00ff00ff00ff00ffull) * 6553601 >> 16;
	return (x & 0x0000ffff0000ffffull) * 42949672960001ull >> 32;
}

/*
 * Reads an int64 at *s and advances past it; -1 if none or overflow.
 * hd_parse_i64, with a fast path for 1 to 15 digits when the input
 * (ending at ps->end) holds 16 bytes at s: the digits are counted with
 * one vector compare (the bytes past s counted as non-digits) and read
 * by digits8 (a single digit, as most operand numbers are, is read as
 * it is: digits8's chain of three multiplies is not worth it).
 * Anything else (a sign, more digits, no digit) is left to
 * hd_parse_i64, whose result the fast path equals.
 */
static inline __attribute__((always_inline)) int
take_i64(const struct parser *ps, struct hd_slice *s, int64_t *out)
{
	int used;

	if (ps->end - s->p >= 16) {
		unsigned stop = ~hd_v_mask(hd_v_in_range(hd_v_load(s->p), '0', '9'));
		unsigned n;

		if (s->n < 16)
			stop |= ~0u << s->n;
		n = (unsigned)__builtin_ctz(stop);
		if (n - 1 < 15) {
			static const uint64_t pow10[8] = {
				1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
			};
			uint64_t v = n == 1 ? (uint64_t)(s->p[0] - '0') :
				n <= 8 ? digits8(s->p, n) :
				digits8(s->p, 8) * pow10[n - 8] + digits8(s->p + 8, n - 8);

			*out = (int64_t)v;
			*s = skip(*s, n);   /* n < s->n or the stop bit at s->n */
			return 0;
		}
	}
	used = hd_parse_i64(*s, out);

	if (used <= 0)
		return -1;
	*s = tail(*s, (size_t)used);
	return 0;
}

/* Consumes the literal lit (n bytes) at the start of *s. */
static inline __attribute__((always_inline)) int
take_lit_n(struct hd_slice *s, const char *lit, size_t n)
{
	if (!starts(*s, lit, n))
		return -1;
	*s = skip(*s, n);
	return 0;
}

#define take_lit(s, lit) take_lit_n((s), (lit), sizeof(lit) - 1)

/* Number with optional space thousands separators ("8 288"). */
static int take_spaced_i64(struct hd_slice *s, int64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	int digits = 0;

	while (i < s->n) {
		char c = s->p[i];
		if (c >= '0' && c <= '9') {
			unsigned dg = (unsigned)(c - '0');
			if (v > ((uint64_t)INT64_MAX - dg) / 10)
				return -1;
			v = v * 10 + dg;
			digits++;
			i++;
		} else if (c == ' ' && digits && i + 1 < s->n &&
			   s->p[i + 1] >= '0' && s->p[i + 1] <= '9') {
			i++;
		} else {
			break;
		}
	}
	if (!digits)
		return -1;
	*out = (int64_t)v;
	*s = tail(*s, i);
	return 0;
}

/* Length of an HLO name at the start of s; the input ends at limit. */
static inline size_t name_span(struct hd_slice s, const char *limit)
{
	return hd_scan_name_span(s.p, s.n, limit);
}

/* Length of "{...}" ShapeIndex at s (digits and commas), 0 if none.
 * Inlined: a call for each value line, record and live range (mostly
 * to see that no '{' is there) cost more than the test. */
static inline __attribute__((always_inline)) size_t
index_span(struct hd_slice s)
{
	size_t i;

	if (s.n < 2 || s.p[0] != '{')
		return 0;
	for (i = 1; i < s.n; i++) {
		char c = s.p[i];
		if (c == '}')
			return i + 1;
		if (!((c >= '0' && c <= '9') || c == ',' || c == ' '))
			return 0;
	}
	return 0;
}

/* The first c1 or c2 in s from i (or s.n), no byte past s known to be readable (an empty s
 * may have no pointer: nothing is added to it then). */
static inline size_t find_either(struct hd_slice s, size_t i, char c1, char c2)
{
	return hd_scan_either(s.p, s.n, i, c1, c2, s.n ? s.p + s.n : s.p);
}

/* Index just past the string whose opening quote is at s.p[i] (or s.n). */
static size_t skip_string(struct hd_slice s, size_t i)
{
	return hd_scan_string_end(s.p, s.n, i);
}

/*
 * Scans a bracket-balanced, quote-aware run from s.p[0] and returns the
 * offset of the first byte at depth 0 that equals stop1 or stop2 (or
 * s.n).  Strings in double quotes may hold any bracket; backslash escapes
 * the next byte.
 */
static int is_closer(char c)
{
	return c == ')' || c == ']' || c == '}';
}

/* Bytes that need a look in balanced_scan: quotes, brackets, the stops
 * (byte by byte what special_mask finds 16 at a time). */
static inline int balanced_special(char c, char stop1, char stop2)
{
	return c == '"' || c == stop1 || c == stop2 || c == '(' || c == '[' ||
	       c == '{' || is_closer(c);
}

/*
 * Mask of the bytes of the 16 at p that the scan must look at (the
 * table's bytes): '"', stop1, stop2 and the six brackets, found with
 * four compares: x | 0x20 maps '[' to '{' and ']' to '}' (and nothing
 * else to either), x & ~1 maps ')' to '('.
 */
static inline unsigned special_mask(const char *p, char stop1, char stop2)
{
	hd_v16 x = hd_v_load(p);
	hd_v16 lc = hd_v_or_byte(x, 0x20);
	hd_v16 br = hd_v_or(hd_v_or(hd_v_eq(lc, '{'), hd_v_eq(lc, '}')),
			    hd_v_eq(hd_v_and_byte(x, (char)0xfe), '('));
	hd_v16 st = hd_v_or(hd_v_or(hd_v_eq(x, '"'), hd_v_eq(x, stop1)),
			    hd_v_eq(x, stop2));

	return hd_v_mask(hd_v_or(br, st));
}

/*
 * With at_close, a closing bracket at depth 0 stops the scan too.  The
 * bytes between special ones (special_mask, the table) are skipped 16
 * at a time: mask keeps the special bytes of the block
 * [blk_end - 16, blk_end) not visited yet, whole blocks inside s only;
 * the tail is read byte by byte (balanced_special).
 */
static inline __attribute__((always_inline)) size_t
balanced_scan(struct hd_slice s, char stop1, char stop2,
				   int at_close)
{
	size_t i = 0;
	int depth = 0;
	size_t blk_end = 0;
	unsigned mask = 0;

	for (;;) {
		char c;

		for (;;) {
			if (mask) {
				i = blk_end - 16 + (size_t)__builtin_ctz(mask);
				mask &= mask - 1;
				goto found;
			}
			if (blk_end > i)
				i = blk_end;
			if (i + 16 > s.n)
				break;
			mask = special_mask(s.p + i, stop1, stop2);
			blk_end = i + 16;
		}
		while (i < s.n && !balanced_special(s.p[i], stop1, stop2))
			i++;
		if (i >= s.n)
			return s.n;
found:
		c = s.p[i];
		if (depth == 0 && (c == stop1 || c == stop2))
			return i;
		if (c == '"') {
			i = skip_string(s, i);
			/* drop the specials the string covered */
			if (i >= blk_end)
				mask = 0;
			else
				mask &= ~0u << (i - (blk_end - 16));
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (is_closer(c) && depth > 0)
			depth--;
		else if (at_close && is_closer(c))
			return i;
		i++;
	}
}

static inline __attribute__((always_inline)) size_t
balanced_until(struct hd_slice s, char stop1, char stop2)
{
	return balanced_scan(s, stop1, stop2, 0);
}

static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* ---- model helpers ---------------------------------------------- */

/*
 * hd_vec_push for the model's vectors, whose element size is known
 * here: the zeroing is a few stores instead of a memset call (a push or
 * two per line).  hd_vec_push itself grows a full vector.  The record is
 * zeroed 32 bytes at a time: GCC makes each constant 32-byte memset two
 * 16-byte stores, where one memset of a whole record (24 to 128 bytes)
 * becomes a `rep stos`, whose start-up costs tens of cycles on the
 * machines measured (about 4% of a parse, for some 2.3 million pushes
 * in a 256 MiB dump).
 */
static inline __attribute__((always_inline)) void *
push_zeroed(struct hd_vec *v, size_t size)
{
	char *p;
	size_t i;

	if (v->len == v->cap)
		return hd_vec_push(v);
	p = (char *)v->data + v->len * size;
	/* A vector in its own reservation (hd_vec_expect, or grown past
	 * 2 MiB: arena.c) has zeros past its length, as the kernel mapped
	 * them: the parser's vectors only grow, and nothing writes past
	 * their ends.  Records of 32 bytes or more are not zeroed again
	 * there; a smaller one costs a store or two, not worth a test. */
	if (size < 32 || !v->mapped) {
		for (i = 0; i + 32 <= size; i += 32)
			memset(p + i, 0, 32);
		if (i < size)
			memset(p + i, 0, size - i);
	}
	v->len++;
	return p;
}

#define PUSH(vec, type) ((type *)push_zeroed((vec), sizeof(type)))

/* The hashes of a shape for hd_alloc_value (shape_hash, bare_hash), and
 * the memo slot that holds the shape (NULL: none). */
struct shape_hashes {
	uint64_t whole, bare;
	struct shape_memo *slot;
};

/* The hash of shape without its layout, given whole, the hash of shape:
 * a shape without a layout (or a tuple, which keeps its text) is not
 * hashed again. */
static uint64_t bare_hash(struct hd_slice shape, uint64_t whole)
{
	struct hd_slice bare = hd_shape_strip_layout(shape);

	return bare.n == shape.n ? whole : hd_hash64(bare);
}

/* The hashes of a shape the loose keys of canon.h use (hd_alloc_value's
 * shape_hash and bare_hash), worked out without a memo. */
static void hash_shape(struct hd_slice shape, struct shape_hashes *out)
{
	if (!out)
		return;
	out->whole = hd_hash64(shape);
	out->bare = bare_hash(shape, out->whole);
	out->slot = NULL;
}

/* hd_shape_logical_bytes of a shape longer than SHAPE_MEMO_TEXT, and
 * its hashes when out is not NULL. */
static int64_t long_shape_bytes(struct parser *ps, struct hd_slice shape,
				struct shape_hashes *out)
{
	struct long_memo *m;
	uint64_t h;

	if (shape.n > LONG_MEMO_TEXT) {
		hash_shape(shape, out);
		return hd_shape_logical_bytes(shape);
	}
	h = hd_hash64(shape);
	m = &ps->long_memo[h & (LONG_MEMO_SLOTS - 1)];
	if (m->len == shape.n && m->hash == h &&
	    hd_bytes_eq(m->text, shape.p, shape.n)) {
		if (out)
			*out = (struct shape_hashes){ h, m->bare, NULL };
		return m->bytes;
	}
	if (m->cap < shape.n) {
		free(m->text);
		m->cap = m->cap * 2 > shape.n ? m->cap * 2 : (uint32_t)shape.n;
		m->text = hd_xmalloc(m->cap);
	}
	m->hash = h;
	m->bare = bare_hash(shape, h);
	m->len = (uint32_t)shape.n;
	memcpy(m->text, shape.p, shape.n);
	m->bytes = hd_shape_logical_bytes(shape);
	if (out)
		*out = (struct shape_hashes){ h, m->bare, NULL };
	return m->bytes;
}

/*
 * The memo slot index of shape (1 to SHAPE_MEMO_TEXT bytes): its first
 * and last 16 bytes (8, or the bytes one by one, for a shorter shape)
 * and length, mixed by multiplies; the top bits depend on every bit.
 * Only where a shape is looked for: a middle byte left out or a
 * collision costs a miss, never a wrong hit (the text is compared).
 */
static inline uint32_t memo_index(struct hd_slice shape)
{
	const char *p = shape.p;
	size_t n = shape.n, i;
	uint64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, h;

	if (n >= 16) {
		a0 = load64(p);
		a1 = load64(p + 8);
		b0 = load64(p + n - 16);
		b1 = load64(p + n - 8);
	} else if (n >= 8) {
		a0 = load64(p);
		a1 = load64(p + n - 8);
	} else {
		for (i = 0; i < n; i++)
			a0 = a0 << 8 | (unsigned char)p[i];
	}
	h = (a0 ^ n) * 0x9e3779b97f4a7c15ull + a1 * 0xc2b2ae3d27d4eb4full +
	    b0 * 0x165667b19e3779f9ull + b1 * 0xd6e8feb86659fd93ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h >> 54) & (SHAPE_MEMO_SLOTS - 1);
}

/* Do the n bytes (1 to SHAPE_MEMO_TEXT) at a and b agree?  Inline for
 * all lengths (hd_bytes_eq calls memcmp past 32). */
static inline int memo_text_eq(const char *a, const char *b, size_t n)
{
	return hd_scan_same(a, b, n);
}

/* hd_slice_eq for the names a record and its instruction line compare
 * (most of 16 to 32 bytes). */
static inline int name_eq(struct hd_slice a, struct hd_slice b)
{
	return a.n == b.n && hd_scan_same(a.p, b.p, a.n);
}

/* The memo slot of shape (1 to SHAPE_MEMO_TEXT bytes); *hit says
 * whether it holds shape.  Inlined in its two callers (one a value
 * line, one an instruction line). */
static inline __attribute__((always_inline)) struct shape_memo *
memo_slot(struct parser *ps, struct hd_slice shape, int *hit)
{
	struct shape_memo *m = &ps->memo[memo_index(shape)];

	*hit = m->len == shape.n && memo_text_eq(m->text, shape.p, shape.n);
	return m;
}

/* hd_shape_logical_bytes(shape) through the memo slot m (hit: it holds
 * shape already, and its hash; else shape is hashed and filed there). */
static int64_t memo_bytes(struct shape_memo *m, struct hd_slice shape,
			  int hit)
{
	if (hit)
		return m->bytes;
	m->hash = hd_hash64(shape);
	m->len = (uint32_t)shape.n;
	m->plain = 0;
	m->bare_known = 0;
	memcpy(m->text, shape.p, shape.n);
	m->bytes = hd_shape_logical_bytes(shape);
	return m->bytes;
}

/* hd_shape_logical_bytes(shape), through the memo; and the shape's
 * hashes when out is not NULL. */
static int64_t shape_bytes(struct parser *ps, struct hd_slice shape,
			   struct shape_hashes *out)
{
	struct shape_memo *m;
	int64_t bytes;
	int hit;

	if (shape.n == 0) {
		hash_shape(shape, out);
		return hd_shape_logical_bytes(shape);
	}
	if (shape.n > SHAPE_MEMO_TEXT)
		return long_shape_bytes(ps, shape, out);
	m = memo_slot(ps, shape, &hit);
	bytes = memo_bytes(m, shape, hit);
	if (out) {
		if (!m->bare_known) {
			m->bare = bare_hash(shape, m->hash);
			m->bare_known = 1;
		}
		*out = (struct shape_hashes){ m->hash, m->bare, m };
	}
	return bytes;
}

/*
 * An instruction's shape at the start of t: its length (balanced_until
 * ' ', which the caller checks) and logical bytes.  The text up to the
 * first ' ' is looked up in the memo first: a shape marked plain there
 * ends at that ' ' whatever follows (the scan reads no further), so it
 * needs no scan.  A shape scanned here that ends at the first ' ' is
 * marked plain.
 */
static size_t insn_shape(struct parser *ps, struct hd_slice t, int64_t *bytes)
{
	size_t k, n;
	struct shape_memo *m = NULL;
	int hit = 0;

	k = find_either(t, 0, ' ', ' ');

	if (k > 0 && k < t.n && k <= SHAPE_MEMO_TEXT) {
		m = memo_slot(ps, hd_slice_make(t.p, k), &hit);
		if (hit && m->plain) {
			*bytes = m->bytes;
			return k;
		}
	}
	n = balanced_until(t, ' ', ' ');
	if (n == 0 || n == t.n)
		return n;
	if (n != k || !m) {
		*bytes = shape_bytes(ps, hd_slice_make(t.p, n), NULL);
		return n;
	}
	*bytes = memo_bytes(m, hd_slice_make(t.p, n), hit);
	m->plain = 1;
	return n;
}

static struct hd_slice default_index(void)
{
	return hd_slice_make("{}", 2);
}

/*
 * The values of the allocations section (most of a dump's) are filed
 * under their keys when the section is over, all at once: the index is
 * made at its final size once, without the doublings on the way, and
 * filled in the order of the entries' home slots (a counting sort on
 * their top PENDING_BUCKET_BITS bits), a few KiB of slots at a time,
 * where one value line after another missed the cache on a random slot
 * of an index of up to 8 MiB.  Nothing looks a value up by key before
 * (value_for finds values by id); a lookup by key (live ranges, peak)
 * or a value made after the section files them first.
 *
 * Two values of one key are an error at the line of the later one, as
 * if it had been found there: of all such values the earliest is
 * reported, before any error met after it (line_message files them
 * first).  With report 0 (a parse given up already) they are filed
 * silently.  Returns -1 after an error.
 */
#define PENDING_BUCKET_BITS 11

static int file_pending(struct parser *ps, int report)
{
	struct hd_dump *d = ps->d;
	size_t n = ps->pending.len, i, buckets;
	const struct pending_key *pk = ps->pending.data;
	struct pending_key *sorted;
	uint32_t *start, mask, shift = 0, dup = HD_NONE, dup_other = HD_NONE;

	if (n == 0)
		return 0;
	/* the sorted copy follows the entries, in the pending array's
	 * memory (already mapped with 2 MiB pages for a large dump) */
	hd_vec_reserve(&ps->pending, 2 * n);
	pk = ps->pending.data;
	ps->pending.len = 0;    /* the error below comes back here */
	hd_index_reserve(&d->value_by_key, (uint64_t)d->value_by_key.count + n);
	mask = hd_index_mask(&d->value_by_key);
	while ((mask >> shift) >= (1u << PENDING_BUCKET_BITS))
		shift++;
	buckets = (size_t)(mask >> shift) + 1;
	start = hd_xcalloc(buckets + 1, sizeof(*start));
	for (i = 0; i < n; i++)
		start[((pk[i].hash & mask) >> shift) + 1]++;
	for (i = 0; i < buckets; i++)
		start[i + 1] += start[i];
	/* stable: the values of one key stay in the order they were made */
	sorted = (struct pending_key *)ps->pending.data + n;
	for (i = 0; i < n; i++)
		sorted[start[(pk[i].hash & mask) >> shift]++] = pk[i];
	for (i = 0; i < n; i++) {
		uint32_t other = hd_dump_index_value_hashed(d, sorted[i].v,
							    sorted[i].hash);

		if (other != HD_NONE && sorted[i].v < dup) {
			dup = sorted[i].v;
			dup_other = other;
		}
	}
	free(start);
	if (dup == HD_NONE)
		return 0;
	if (report) {
		const struct hd_value *val = &HD_VALUE(d, dup);
		struct hd_slice key = hd_value_key_of(val);
		uint64_t line = ps->line;
		char a[80];

		hd_quote(a, sizeof(a), key.p, key.n, 60);
		ps->line = HD_VALUE_LINES(d, dup).line;
		perr(ps, "two values named '%s' (ids %lld and %lld)", a,
		     (long long)HD_VALUE(d, dup_other).id, (long long)val->id);
		ps->line = line;
	}
	return -1;
}

/* file_pending(ps, 1) inline while nothing is pending: the live-range
 * and peak lines (every line after the allocations) ask first. */
static inline int pending_filed(struct parser *ps)
{
	return ps->pending.len ? file_pending(ps, 1) : 0;
}

/*
 * Finds or creates the value with this id.  name_index is the short form
 * "name{idx}" or "name".  On a name mismatch with an earlier mention it
 * reports an error.
 */
static inline __attribute__((always_inline)) int
value_for(struct parser *ps, int64_t id, struct hd_slice name,
		     struct hd_slice index, struct hd_slice key, int indexed,
		     uint32_t *out)
{
	struct hd_dump *d = ps->d;
	/* the id's slot when it has one already: read here and written
	 * below for a new value, not looked up a second time to file it */
	uint32_t *slot = hd_dump_flat_slot(&d->id_slots, d->id_limit, id);
	uint32_t v = slot ? *slot : hd_dump_value_by_id(d, id), hash;
	struct hd_value *val;

	if (v != HD_NONE) {
		val = &HD_VALUE(d, v);
		struct hd_slice had = hd_value_key_of(val);

		if (!name_eq(had, key)) {
			char a[80], b[80];
			hd_quote(a, sizeof(a), had.p, had.n, 60);
			hd_quote(b, sizeof(b), key.p, key.n, 60);
			if (ps->in && ps->in != &d->inputs[0] &&
			    (val->flags & HD_VALUE_IN_ALLOC))
				return perr(ps, "value %lld is named '%s' here but '%s' in %s:%u "
					    "(expected the companion of the same module)",
					    (long long)id, b, a, d->inputs[0].name,
					    HD_VALUE_LINES(d, v).listed_line);
			return perr(ps, "value %lld is named '%s' here but '%s' at line %u",
				    (long long)id, b, a,
				    HD_VALUE_LINES(d, v).line);
		}
		*out = v;
		return 0;
	}
	v = (uint32_t)d->values.len;
	if (v == HD_NONE)
		return perr(ps, "too many values");
	if (index.n > UINT32_MAX)
		return perr(ps, "value index too long (expected under 4 GiB)");
	hash = hd_index_hash(key);
	if (ps->sec != SEC_ALLOCATIONS) {
		if (pending_filed(ps))
			return -1;
		/* the key's slots load while the value is made */
		hd_index_prefetch(&d->value_by_key, hash);
	}
	val = PUSH(&d->values, struct hd_value);
	val->id = id;
	/*
	 * The name (and printed index) are copied into the arena, packed:
	 * every later mention of the value compares keys there, in a few
	 * MiB of memory, instead of in the input far behind the cursor.
	 */
	{
		size_t n = name.n + (indexed ? index.n : 0);
		const char *c = hd_arena_pack(&d->arena, name.p, n);

		val->name = hd_slice_make(c, name.n);
		val->index_n = (uint32_t)index.n;
	}
	*PUSH(&d->value_colors, int64_t) = 0;
	PUSH(&d->value_positions, struct hd_value_positions);
	val->flags = indexed ? HD_VALUE_INDEXED : 0;
	ps->plain_values += key.n == name.n;
	val->alloc_value = HD_NONE;
	val->insn = HD_NONE;
	PUSH(&d->value_lines, struct hd_value_lines)->line = (uint32_t)ps->line;
	if (slot)
		*slot = v;
	else
		hd_dump_slot_put(&d->id_slots, &d->value_by_id, d->id_limit, id, v);
	if (ps->sec == SEC_ALLOCATIONS) {
		*PUSH(&ps->pending, struct pending_key) =
			(struct pending_key){ hash, v };
	} else {
		uint32_t other = hd_dump_index_value_hashed(d, v, hash);
		if (other != HD_NONE) {
			char a[80];
			hd_quote(a, sizeof(a), key.p, key.n, 60);
			if (ps->in && ps->in != &d->inputs[0] &&
			    (HD_VALUE(d, other).flags & HD_VALUE_IN_ALLOC))
				return perr(ps, "two values named '%s' (id %lld here, %lld in %s:%u; "
					    "expected the companion of the same module)", a,
					    (long long)id, (long long)HD_VALUE(d, other).id,
					    d->inputs[0].name,
					    HD_VALUE_LINES(d, other).listed_line);
			return perr(ps, "two values named '%s' (ids %lld and %lld)", a,
				    (long long)HD_VALUE(d, other).id, (long long)id);
		}
	}
	*out = v;
	return 0;
}

/*
 * Parses the short form "<ID NAME[{IDX}][ (phi)][ @C]>" at the start of
 * *s, advances past it, and returns the value index in *out.  record:
 * the short form of a "Used values" record, which mostly names a value
 * made already by its value line.
 */
static inline __attribute__((always_inline)) int
take_short_form(struct parser *ps, struct hd_slice line,
			   struct hd_slice *s, uint32_t *out, int record)
{
	struct hd_slice t = *s;
	struct hd_slice name = HD_SLICE_NULL, index = default_index(), key;
	int64_t id, color = 0;
	int phi = 0, has_color = 0, indexed = 0;
	size_t n;
	uint32_t v = HD_NONE;
	struct hd_value *val;

	if (take_lit(&t, "<") || take_i64(ps, &t, &id) || take_lit(&t, " "))
		return bad_line(ps, line, "bad value short form", "'<ID NAME>'");
	/*
	 * A record names a value made already: when its id has one whose
	 * name (and printed index) are the next bytes, followed by what
	 * ends a name and an index, those are what the reading below finds
	 * (the bytes were read so when the value was made), and the value
	 * is the one value_for would check them against.
	 */
	if (record && id >= 0 &&
	    (v = hd_dump_value_by_id(ps->d, id)) != HD_NONE) {
		val = &HD_VALUE(ps->d, v);
		n = val->name.n +
		    ((val->flags & HD_VALUE_INDEXED) ? val->index_n : 0);
		if (t.n > n && (t.p[n] == ' ' || t.p[n] == '>') &&
		    name_eq(hd_slice_make(t.p, n), hd_slice_make(val->name.p, n)))
			t = skip(t, n);
		else
			v = HD_NONE;
	}
	if (v == HD_NONE) {
		n = name_span(t, ps->end);
		if (n == 0)
			return bad_line(ps, line, "missing value name", "'<ID NAME>'");
		name = hd_slice_make(t.p, n);
		t = skip(t, n);
		n = index_span(t);
		if (n) {
			index = hd_slice_make(t.p, n);
			indexed = 1;
			t = skip(t, n);
		}
	}
	if (t.n >= 4 && t.p[0] == ' ' && t.p[1] == '@' &&
	    (unsigned)(t.p[2] - '0') < 10 && t.p[3] == '>') {
		/* the usual " @C>", one digit: what the reading below makes
		 * of it, read at once */
		color = t.p[2] - '0';
		has_color = 1;
		t = skip(t, 3);
	} else {
		if (take_lit(&t, " (phi)") == 0)
			phi = 1;
		if (take_lit(&t, " @") == 0) {
			if (take_i64(ps, &t, &color))
				return bad_line(ps, line, "bad colour", "' @N'");
			has_color = 1;
		}
	}
	if (take_lit(&t, ">"))
		return bad_line(ps, line, "unterminated value short form", "'>'");
	if (id < 0)
		return bad_line(ps, line, "negative value id", "an id >= 0");
	if (v == HD_NONE) {
		key = (indexed && !(index.n == 2)) ?
		      hd_slice_make(name.p, name.n + index.n) : name;
		if (value_for(ps, id, name, index, key, indexed, &v))
			return -1;
	}
	val = &HD_VALUE(ps->d, v);
	if (phi)
		val->flags |= HD_VALUE_PHI;
	if (has_color) {
		val->flags |= HD_VALUE_HAS_COLOR;
		HD_VALUE_COLOR(ps->d, v) = color;
	}
	*s = t;
	*out = v;
	return 0;
}

/* ---- Part A: allocations ----------------------------------------- */

/* Splits the allocation header tail on ", " outside |...|: the next
 * flag.  Inside a shape only the closing '|' is looked for. */
static struct hd_slice next_flag(struct hd_slice *s, const char *limit)
{
	size_t i = 0;
	int in_shape = 0;
	struct hd_slice tok;

	for (;; i++) {
		i = in_shape ? hd_scan_either(s->p, s->n, i, '|', '|', limit) :
			       hd_scan_either(s->p, s->n, i, '|', ',', limit);
		if (i >= s->n)
			break;
		if (s->p[i] == '|')
			in_shape = !in_shape;
		else if (i + 1 < s->n && s->p[i + 1] == ' ')
			break;
	}
	tok = hd_slice_make(s->p, i);
	*s = tail(*s, i < s->n ? i + 2 : i);
	return tok;
}

/* Reads "|SHAPE|" at the start of s into out; returns bytes used or 0.
 * The input ends at limit. */
static size_t take_bar_shape(struct hd_slice s, struct hd_slice *out,
			     const char *limit)
{
	size_t end;

	if (s.n < 2 || s.p[0] != '|')
		return 0;
	end = hd_scan_either(s.p, s.n, 1, '|', '|', limit);
	if (end >= s.n)
		return 0;
	*out = hd_slice_make(s.p + 1, end - 1);
	return end + 1;
}

static int alloc_flag(struct parser *ps, struct hd_slice line,
		      struct hd_alloc *a, struct hd_slice f, int *unknown)
{
	struct hd_slice t = f;
	size_t n;

	if (take_lit(&t, "color ") == 0) {
		if (take_i64(ps, &t, &a->color) || t.n)
			return bad_line(ps, line, "bad colour", "', color N'");
		a->flags |= HD_ALLOC_COLOR;
	} else if (take_lit(&t, "page ") == 0) {
		if (take_i64(ps, &t, &a->page) || t.n)
			return bad_line(ps, line, "bad page", "', page N'");
		a->flags |= HD_ALLOC_PAGE;
	} else if (take_lit(&t, "parameter ") == 0) {
		if (take_i64(ps, &t, &a->param_number) || t.n)
			return bad_line(ps, line, "bad parameter number", "', parameter N'");
		a->flags |= HD_ALLOC_PARAMETER;
	} else if (take_lit(&t, "shape ") == 0) {
		n = take_bar_shape(t, &a->param_shape, ps->end);
		if (!n)
			return bad_line(ps, line, "bad parameter shape", "'shape |SHAPE| at ShapeIndex {..}'");
		t = tail(t, n);
		if (take_lit(&t, " at ShapeIndex ") || index_span(t) != t.n)
			return bad_line(ps, line, "bad parameter shape index", "'at ShapeIndex {..}'");
		a->param_index = t;
	} else if (take_lit(&t, "output shape is ") == 0) {
		n = take_bar_shape(t, &a->output_shape, ps->end);
		if (!n || n != t.n)
			return bad_line(ps, line, "bad output shape", "'output shape is |SHAPE|'");
		a->flags |= HD_ALLOC_OUTPUT;
	} else if (IS(f, "constant")) {
		a->flags |= HD_ALLOC_CONSTANT;
	} else if (IS(f, "thread-local")) {
		a->flags |= HD_ALLOC_THREAD_LOCAL;
	} else if (IS(f, "maybe-live-out")) {
		a->flags |= HD_ALLOC_MAYBE_LIVE_OUT;
	} else if (IS(f, "preallocated-temp")) {
		a->flags |= HD_ALLOC_TEMP;
	} else if (starts(f, "0x", 2)) {
		/* pre-2019 dumps print the buffer address: ignored */
	} else {
		*unknown = 1;
	}
	return 0;
}

static int parse_allocation(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = tail(l, (sizeof("allocation ") - 1));
	struct hd_alloc *a;
	int64_t index, size = -1;
	int unknown = 0;
	uint32_t prev;

	if (ps->sec != SEC_ALLOCATIONS)
		return perr(ps, "allocation header outside the allocations section (expected 'BufferAssignment:' before it)");
	if (take_i64(ps, &t, &index) || take_lit(&t, ": "))
		return bad_line(ps, l, "bad allocation header", "'allocation N: size S, ...:'");
	if (t.n == 0 || t.p[t.n - 1] != ':')
		return bad_line(ps, l, "allocation header does not end in ':'", "'allocation N: size S, ...:'");
	t.n--;
	if (d->allocs.len >= HD_NONE - 1)
		return perr(ps, "too many allocations");
	a = PUSH(&d->allocs, struct hd_alloc);
	a->index = index;
	a->page = -1;
	a->param_number = -1;
	a->line = (uint32_t)ps->line;
	a->value_first = (uint32_t)d->alloc_values.len;
	/* the first flag, "size N" (each header has it), read at once:
	 * what next_flag and the loop make of it */
	if (STARTS(t, "size ")) {
		struct hd_slice ft = skip(t, 5);

		if (take_i64(ps, &ft, &size) == 0 &&
		    (ft.n == 0 || (ft.n >= 2 && ft.p[0] == ',' && ft.p[1] == ' ')))
			t = ft.n ? skip(ft, 2) : ft;
		else
			size = -1;
	}
	while (t.n) {
		struct hd_slice f = next_flag(&t, ps->end);
		struct hd_slice ft = f;
		if (take_lit(&ft, "size ") == 0) {
			if (take_i64(ps, &ft, &size) || ft.n)
				return bad_line(ps, l, "bad allocation size", "'size N'");
			continue;
		}
		if (alloc_flag(ps, l, a, f, &unknown))
			return -1;
	}
	if (size < 0)
		return bad_line(ps, l, size == -1 ? "missing or negative allocation size"
					: "negative allocation size", "'size N' with N >= 0");
	if (index < 0)
		return bad_line(ps, l, "negative allocation number", "N >= 0");
	if (__builtin_add_overflow(ps->alloc_sum, size, &ps->alloc_sum))
		return perr(ps, "allocation sizes add up to more than %lld bytes (expected a total that fits in 64 bits)",
			    (long long)INT64_MAX);
	a->size = size;
	prev = hd_dump_slot_put(&d->alloc_slots, &d->alloc_by_index, d->id_limit,
				index, (uint32_t)(d->allocs.len - 1));
	if (prev != HD_NONE)
		return perr(ps, "allocation %lld appears twice (first at line %u)",
			    (long long)index, HD_ALLOC(d, prev).line);
	ps->alloc = (uint32_t)(d->allocs.len - 1);
	ps->in_reuse = 0;
	if (unknown)
		return unknown_line(ps, l);
	return 0;
}

static inline __attribute__((always_inline)) int
alloc_value(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = skip(l, (sizeof(" value: ") - 1));
	struct hd_alloc_value *av;
	struct hd_alloc *a;
	struct hd_value *val;
	struct shape_hashes hashes;
	int64_t size, offset;
	uint32_t v = HD_NONE;

	if (ps->sec != SEC_ALLOCATIONS || ps->alloc == HD_NONE)
		return perr(ps, "value line outside an allocation (expected an 'allocation N:' header before it)");
	if (ps->in_reuse)
		return perr(ps, "value line after 'reused by buffers of a different color:' (expected '  value: <...> (color=C)')");
	if (take_short_form(ps, l, &t, &v, 0))
		return -1;
	if (take_lit(&t, " (size=") || take_i64(ps, &t, &size) ||
	    take_lit(&t, ",offset=") || take_i64(ps, &t, &offset) ||
	    take_lit(&t, "): "))
		return bad_line(ps, l, "bad value line", "' value: <ID NAME> (size=S,offset=O): SHAPE'");
	if (size < 0 || offset < 0)
		return bad_line(ps, l, "negative size or offset", "numbers >= 0");
	if (__builtin_add_overflow(ps->value_sum, size, &ps->value_sum))
		return perr(ps, "value sizes add up to more than %lld bytes (expected a total that fits in 64 bits)",
			    (long long)INT64_MAX);
	a = &HD_ALLOC(d, ps->alloc);
	val = &HD_VALUE(d, v);
	if (val->flags & HD_VALUE_IN_ALLOC)
		return perr(ps, "value %lld is listed in two allocations (first at line %u)",
			    (long long)val->id, HD_VALUE_LINES(d, v).listed_line);
	if (d->alloc_values.len >= HD_NONE - 1)
		return perr(ps, "too many values");
	val->flags |= HD_VALUE_IN_ALLOC;
	d->n_listed++;
	d->n_listed_records += (val->flags & HD_VALUE_RECORD) != 0;
	d->value_bytes = sat_add(d->value_bytes, size);
	val->alloc_value = (uint32_t)d->alloc_values.len;
	av = PUSH(&d->alloc_values, struct hd_alloc_value);
	av->value = v;
	av->alloc = ps->alloc;
	av->size = size;
	av->offset = offset;
	av->shape_bytes = shape_bytes(ps, t, &hashes);
	av->shape = t;
	val->own_kept = hd_size_keep(av->shape_bytes);
	av->shape_hash = hashes.whole;
	av->bare_hash = hashes.bare;
	HD_VALUE_LINES(d, v).listed_line = (uint32_t)ps->line;
	a->value_count++;
	return 0;
}

/*
 * The bytes of lines a line's reading reads after it at most
 * (read_run, usual_uses, sequence_lines, ...): parse_lines moves the
 * input's window (hd_input_pass_at) at the line after them, not much
 * later than it would have at each line.  No such reader takes a line
 * of LINES_AHEAD_MAX bytes or more (take_line, and the name checks of
 * the others), and each stops once LINES_AHEAD_MAX bytes are behind
 * it, so what they return, chained (parse_from_instruction ->
 * parse_record -> first_position -> usual_uses), adds up in an int even
 * for a line of gigabytes, which parse_lines reads itself.
 */
#define LINES_AHEAD_MAX ((ptrdiff_t)64 << 10)

/*
 * The line at q, read right after the one before it as parse_lines
 * would take it: its end found by hd_scan_line_end, counted (ps->line), as
 * far as the NUL check went (ps->checked).  Returns its '\n', or NULL
 * (nothing counted, the line left to parse_lines) for a line with a NUL
 * byte, no '\n' or a '\r' before it, or of LINES_AHEAD_MAX bytes or
 * more.
 */
static inline __attribute__((always_inline)) const char *
take_line(struct parser *ps, const char *q)
{
	const char *nl = hd_scan_line_end(q, ps->end);

	if (!nl || *nl != '\n' || nl[-1] == '\r' || nl - q >= LINES_AHEAD_MAX)
		return NULL;
	ps->line++;
	ps->checked = nl + 1;
	return nl;
}

/*
 * Line l read by read, and the lines after it that start with the plen
 * bytes of prefix, one after another (up to LINES_AHEAD_MAX bytes of
 * them), each taken (take_line) and read as parse_lines would send it
 * to read.  Any other line is left to parse_lines.  Returns the bytes of
 * the lines read after l, or -1.
 */
static inline __attribute__((always_inline)) int
read_run(struct parser *ps, struct hd_slice l, const char *prefix,
	 size_t plen, int (*read)(struct parser *, struct hd_slice))
{
	const char *from = l.p + l.n + 1, *q = from, *nl;

	if (read(ps, l))
		return -1;
	if (q > ps->end || q[-1] != '\n')
		return 0;
	for (; ps->end - q > (ptrdiff_t)plen && hd_bytes_eq(q, prefix, plen) &&
	       q - from < LINES_AHEAD_MAX; q = nl + 1) {
		if (!(nl = take_line(ps, q)))
			break;
		if (read(ps, hd_slice_make(q, (size_t)(nl - q))))
			return -1;
	}
	return (int)(q - from);
}

/* An allocation's value line and the ones after it (read_run). */
static int parse_alloc_value(struct parser *ps, struct hd_slice l)
{
	return read_run(ps, l, " value: ", 8, alloc_value);
}

static int parse_reuse_value(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("  value: ") - 1));
	struct hd_alloc_reuse *r;
	int64_t color;
	uint32_t v = HD_NONE;

	if (!ps->in_reuse)
		return unknown_line(ps, l);
	if (take_short_form(ps, l, &t, &v, 0) || take_lit(&t, " (color=") ||
	    take_i64(ps, &t, &color) || take_lit(&t, ")") || t.n)
		return bad_line(ps, l, "bad reused-by value line", "'  value: <ID NAME> (color=C)'");
	r = PUSH(&ps->d->reuses, struct hd_alloc_reuse);
	r->value = v;
	r->alloc = ps->alloc;
	r->color = color;
	r->line = (uint32_t)ps->line;
	return 0;
}

static int parse_total(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = tail(l, (sizeof("Total bytes used: ") - 1));
	int64_t total;

	if (d->sections & HD_SEC_TOTAL)
		return perr(ps, "second 'Total bytes used' line (first at line %u)", d->total_line);
	if (take_i64(ps, &t, &total))
		return bad_line(ps, l, "bad total", "'Total bytes used: N (HUMAN)'");
	if (total < 0)
		return bad_line(ps, l, "negative total", "N >= 0");
	if (t.n && (take_lit(&t, " (") || t.n == 0 || t.p[t.n - 1] != ')'))
		return bad_line(ps, l, "bad total", "'Total bytes used: N (HUMAN)'");
	if (t.n)
		d->total_human = hd_slice_make(t.p, t.n - 1);
	d->total_bytes = total;
	d->total_line = (uint32_t)ps->line;
	d->sections |= HD_SEC_TOTAL;
	ps->sec = SEC_AFTER_TOTAL;
	ps->alloc = HD_NONE;
	return 0;
}

/* ---- Part A': Used values ------------------------------------------ */

/*
 * Records come in id order, but their values were made in the order of
 * the allocations, so each record's value (and its key, which the short
 * form is checked against) is a cache miss.  Start loading the value of
 * the 4th id with a value after this one, and the key of the next.
 */
/*
 * Starts loading all of value v's record: one cache line (64 bytes; two
 * where the array is not 64-byte aligned, as a small dump's from
 * malloc), which a record line, its instruction line and a live range
 * write to.  always_inline: GCC drops the call of a function that only
 * prefetches.
 */
static inline __attribute__((always_inline)) void
prefetch_value(const struct hd_dump *d, uint32_t v)
{
	const char *p = (const char *)&HD_VALUE(d, v);

	__builtin_prefetch(p);
	__builtin_prefetch(p + sizeof(struct hd_value) - 1);
}

static void prefetch_records(struct parser *ps, int64_t id)
{
	const struct hd_dump *d = ps->d;
	const uint32_t *slot = d->id_slots.data;
	size_t n = d->id_slots.len, stop, i;

	if (id < 0 || (uint64_t)id >= n)
		return;
	/* the ids ahead already found stay, those passed go */
	while (ps->n_ahead_ids &&
	       ps->ahead_ids[ps->ahead_first] <= (size_t)id) {
		ps->ahead_first = (ps->ahead_first + 1) % 4;
		ps->n_ahead_ids--;
	}
	if (ps->ids_scanned <= (size_t)id) {
		ps->ids_scanned = (size_t)id + 1;
		ps->n_ahead_ids = 0;
	}
	stop = n - (size_t)id > 64 ? (size_t)id + 64 : n;
	for (i = ps->ids_scanned; i < stop && ps->n_ahead_ids < 4; i++)
		if (slot[i] != HD_NONE) {
			ps->ahead_ids[(ps->ahead_first + ps->n_ahead_ids++) % 4] = i;
			if (ps->n_ahead_ids == 4) {
				ps->prefetched = slot[i];
				prefetch_value(d, slot[i]);
				/* the record writes these too */
				__builtin_prefetch(&HD_VALUE_LINES(d, slot[i]));
				__builtin_prefetch(&HD_VALUE_POSITIONS(d, slot[i]));
			}
		}
	ps->ids_scanned = i;
	if (ps->n_ahead_ids)
		__builtin_prefetch(
			HD_VALUE(d, slot[ps->ahead_ids[ps->ahead_first]]).name.p);
}

/* Value v's entry of d->value_uses (HD_PARSE_KEEP_USES), the array
 * grown with zeroed entries up to it. */
static struct hd_value_uses *value_uses_of(struct hd_dump *d, uint32_t v)
{
	while (d->value_uses.len <= v)
		PUSH(&d->value_uses, struct hd_value_uses);
	return &HD_VALUE_USES(d, v);
}

/* Keeps use u of the value whose record is read (HD_PARSE_KEEP_USES). */
static void keep_use(struct parser *ps, struct hd_use u)
{
	*PUSH(&ps->d->uses, struct hd_use) = u;
	value_uses_of(ps->d, ps->record)->use_count++;
}

/*
 * The line after l, when it is exactly the literal lit (n bytes, its
 * '\n' the last) and l ended at a '\n': n, else 0.  A record's
 * " positions:" and " uses:" lines, whose reading is a change of
 * ps->part, are read so with the line before them (the caller makes
 * the change, as one_space_line would): the caller counts the line
 * (ps->line) and adds n to what it returns, the bytes of the lines
 * after l that it read, which parse_lines then passes over.
 */
static inline __attribute__((always_inline)) int
next_line_is(const struct parser *ps, struct hd_slice l, const char *lit,
	     size_t n)
{
	const char *q = l.p + l.n;

	return ps->end - q > (ptrdiff_t)n && q[0] == '\n' &&
	       hd_bytes_eq(q + 1, lit, n) ? (int)n : 0;
}

static int first_position(struct parser *ps, const char *q,
			  struct hd_slice name);

static int parse_record(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = l;
	struct hd_value *val;
	uint32_t v = HD_NONE;

	if (ps->sec != SEC_USED_VALUES)
		return perr(ps, "value record outside 'Used values:' (expected 'Used values:' before it)");
	if (ps->part != REC_NONE && ps->part != REC_DONE)
		return perr(ps, "value record starts before the previous one ended (expected ' from instruction: ...')");
	if (take_short_form(ps, l, &t, &v, 1))
		return -1;
	if (t.n)
		return bad_line(ps, l, "text after value record", "'<ID NAME>' alone");
	val = &HD_VALUE(ps->d, v);
	if (val->flags & HD_VALUE_RECORD)
		return perr(ps, "second record for value %lld (first at line %u)",
			    (long long)val->id,
			    HD_VALUE_LINES(ps->d, v).record_line);
	val->flags |= HD_VALUE_RECORD;
	ps->d->n_records++;
	ps->d->n_listed_records += (val->flags & HD_VALUE_IN_ALLOC) != 0;
	prefetch_records(ps, val->id);
	/* The instruction is most likely the value's namesake: start
	 * loading its index slot for the " from instruction:" line. */
	ps->record_hash = hd_hash64(val->name);
	hd_index_prefetch(&ps->d->insn_by_name, (uint32_t)ps->record_hash);
	HD_VALUE_LINES(ps->d, v).record_line = (uint32_t)ps->line;
	HD_VALUE_POSITIONS(ps->d, v).pos_first = (uint32_t)ps->d->positions.len;
	if (ps->flags & HD_PARSE_KEEP_USES)
		value_uses_of(ps->d, v)->use_first = (uint32_t)ps->d->uses.len;
	ps->record = v;
	ps->part = REC_HEADER;
	/* mostly " positions:" next (as one_space_line reads it) */
	if (next_line_is(ps, l, " positions:\n", 12)) {
		ps->line++;
		ps->part = REC_POSITIONS;
		return 12 + first_position(ps, l.p + l.n + 13, val->name);
	}
	return 0;
}

/* Does the use line's name (n bytes at t) go on as the usual use does,
 * ", operand D" (one digit)?  11 bytes are readable after the name. */
static inline int usual_use_tail(const char *t, size_t n)
{
	return hd_bytes_eq(t + n, ", operand ", 10) &&
	       (unsigned)(t[n + 10] - '0') < 10;
}

/* Keeps the usual use "NAME, operand D" (the name n bytes at t) with
 * HD_PARSE_KEEP_USES. */
static inline void keep_usual_use(struct parser *ps, const char *t, size_t n)
{
	if (ps->flags & HD_PARSE_KEEP_USES)
		keep_use(ps, (struct hd_use){ hd_slice_make(t, n), HD_SLICE_NULL,
					     t[n + 10] - '0' });
}

/*
 * The use lines from q on, while each is the usual "  NAME, operand D"
 * (one digit) and its '\n', read as parse_use reads that line (in a
 * record's uses, which ps->part says already) and counted (ps->line):
 * their bytes, for parse_lines to pass over.  Such a line has no NUL
 * byte.  The first other line (another form, a " from instruction:",
 * the input's end) is left to parse_lines.
 */
static int usual_uses(struct parser *ps, const char *q)
{
	const char *from = q;

	while (ps->end - q > 14 && q[0] == ' ' && q[1] == ' ' &&
	       q - from < LINES_AHEAD_MAX) {
		const char *t = q + 2;
		size_t n = name_span(hd_slice_make(t, (size_t)(ps->end - t)),
				     ps->end);

		/* a longer name is left to parse_lines: what the readers
		 * return adds up in an int (LINES_AHEAD_MAX) */
		if (n == 0 || n >= (size_t)LINES_AHEAD_MAX ||
		    ps->end - (t + n) < 12 || !usual_use_tail(t, n) ||
		    t[n + 11] != '\n')
			break;
		ps->line++;
		keep_usual_use(ps, t, n);
		q = t + n + 12;
	}
	return (int)(q - from);
}

/* The lines after l (a use line or " uses:" ending at a '\n') that
 * usual_uses reads, their bytes. */
static inline int uses_after(struct parser *ps, struct hd_slice l)
{
	const char *q = l.p + l.n;

	return q < ps->end && *q == '\n' ? usual_uses(ps, q + 1) : 0;
}

/* "NAME" or "NAME {IDX}" */
static inline __attribute__((always_inline)) int
parse_position(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 2);
	struct hd_position *p;
	const struct hd_value *val = &HD_VALUE(ps->d, ps->record);
	size_t n = val->name.n;

	/* the first position is mostly the value's own name: when that and
	 * a ' ' or the line's end are next, name_span would find it */
	if (!(t.n >= n && (t.n == n || t.p[n] == ' ') &&
	      name_eq(hd_slice_make(t.p, n), val->name)))
		n = name_span(t, ps->end);

	if (n == 0)
		return bad_line(ps, l, "bad position", "'  NAME' or '  NAME {IDX}'");
	p = PUSH(&ps->d->positions, struct hd_position);
	p->name = hd_slice_make(t.p, n);
	t = skip(t, n);
	if (t.n) {
		if (take_lit(&t, " ") || index_span(t) != t.n)
			return bad_line(ps, l, "bad position", "'  NAME {IDX}'");
		p->index = t;
	}
	if (ps->hooks->position)
		ps->hooks->position(ps->hooks->ctx, p,
				    HD_VALUE_POSITIONS(ps->d, ps->record).pos_count);
	HD_VALUE_POSITIONS(ps->d, ps->record).pos_count++;
	/* " uses:" after the last position (as one_space_line reads it) */
	if (next_line_is(ps, l, " uses:\n", 7)) {
		ps->line++;
		ps->part = REC_USES;
		return 7 + uses_after(ps, hd_slice_make(l.p + l.n + 1, 6));
	}
	return 0;
}

/*
 * After a record's " positions:" line, read with the record, the line
 * at q: when it is "  NAME" (name, the value's) and its '\n', the first
 * position as most records have it, it is read here (parse_position, as
 * parse_record_body would; such a line has no NUL byte), and its length
 * is returned with those of the lines read with it.  Else 0: the line
 * is read as any other.
 */
static int first_position(struct parser *ps, const char *q,
			  struct hd_slice name)
{
	size_t k = name.n + 2;
	int rc;

	if (!(name.n < (size_t)LINES_AHEAD_MAX && ps->end - q > (ptrdiff_t)k &&
	      q[k] == '\n' && q[0] == ' ' &&
	      q[1] == ' ' && name_eq(hd_slice_make(q + 2, name.n), name)))
		return 0;
	ps->line++;
	rc = parse_position(ps, hd_slice_make(q, k));
	return rc < 0 ? rc : (int)k + 1 + rc;
}

/* "NAME, operand K" [" {IDX}"]; kept only with HD_PARSE_KEEP_USES.
 * Not inlined, as GCC chose before parse_line's fast path (inlined in
 * the line loop it cost more instructions than its call). */
static __attribute__((noinline)) int
parse_use(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 2);
	struct hd_use u;
	size_t n = name_span(t, ps->end);

	/* the usual line, "NAME, operand D" (one digit), read at once: what
	 * the reading below makes of it */
	if (n && t.n == n + 11 && usual_use_tail(t.p, n)) {
		keep_usual_use(ps, t.p, n);
		return uses_after(ps, l);
	}
	if (IS(t, "(none)"))
		return 0;
	if (n == 0)
		return bad_line(ps, l, "bad use", "'  NAME, operand K'");
	u = (struct hd_use){ HD_SLICE_NULL, HD_SLICE_NULL, 0 };
	u.name = hd_slice_make(t.p, n);
	t = skip(t, n);
	if (take_lit(&t, ", operand ") || take_i64(ps, &t, &u.operand))
		return bad_line(ps, l, "bad use", "'  NAME, operand K'");
	if (t.n) {
		if (take_lit(&t, " ") || index_span(t) != t.n)
			return bad_line(ps, l, "bad use", "'  NAME, operand K {IDX}'");
		u.index = t;
	}
	if (ps->flags & HD_PARSE_KEEP_USES)
		keep_use(ps, u);
	return 0;
}

static int parse_record_body(struct parser *ps, struct hd_slice l)
{
	if (ps->part == REC_POSITIONS)
		return parse_position(ps, l);
	if (ps->part == REC_USES)
		return parse_use(ps, l);
	return unknown_line(ps, l);
}

/* val without its quotes when it is a quoted string. */
static inline struct hd_slice unquote(struct hd_slice val)
{
	if (val.n >= 2 && val.p[0] == '"' && val.p[val.n - 1] == '"')
		val = hd_slice_make(val.p + 1, val.n - 2);
	return val;
}

/* An instruction source with nothing known: no op_name, file or line. */
static void no_source(struct hd_insn_source *src)
{
	src->op_name = src->source_file = HD_SLICE_NULL;
	src->source_line = -1;
}

/*
 * One "key=value" item of metadata={...}.  Inlined, and the key checked
 * first: most items (source_end_line, source_column ...) are none of
 * the three kept, and cost a compare of lengths.
 */
static inline __attribute__((always_inline)) void
metadata_item(struct hd_insn_source *src, struct hd_slice key,
	      struct hd_slice val)
{
	if (IS(key, "op_name"))
		src->op_name = unquote(val);
	else if (IS(key, "source_file"))
		src->source_file = unquote(val);
	else if (IS(key, "source_line"))
		hd_parse_i64(unquote(val), &src->source_line);
}

/* Splits "key=value" attributes of metadata={...} (space separated). */
static void read_metadata(struct hd_insn_source *src, struct hd_slice m)
{

	while (m.n) {
		size_t eq, end;
		struct hd_slice key, val;

		while (m.n && m.p[0] == ' ')
			m = tail(m, 1);
		eq = balanced_until(m, '=', ' ');
		key = hd_slice_make(m.p, eq);
		if (eq >= m.n || m.p[eq] != '=') {
			m = tail(m, eq);
			continue;
		}
		m = tail(m, eq + 1);
		end = balanced_until(m, ' ', ' ');
		val = hd_slice_make(m.p, end);
		m = tail(m, end);
		metadata_item(src, key, val);
	}
}

/*
 * skip_string(r, 0) for the string opening at r.p[0], inlined for the
 * usual one: its first '"' (found 32 bytes at a time while the input,
 * which ends at limit, holds them, the bytes past r masked) with no
 * backslash before it.  Anything else takes skip_string.
 */
static inline size_t metadata_string_end(struct hd_slice r, const char *limit)
{
	size_t i;

	for (i = 1; i < r.n && limit - (r.p + i) >= 32; i += 32) {
		uint32_t m = hd_scan_eq_mask(r.p + i, '"') |
			     (uint32_t)hd_scan_eq_mask(r.p + i + 16, '"') << 16;

		if (r.n - i < 32)
			m &= ((uint32_t)1 << (r.n - i)) - 1;
		if (m) {
			size_t j = i + (size_t)__builtin_ctz(m);

			if (r.p[j - 1] != '\\')
				return j + 1;
			break;
		}
	}
	return skip_string(r, 0);
}

/*
 * A string item of the usual metadata: the value from v.p[0] (its
 * opening quote) to the closing one, which a ' ' or a closing bracket
 * must follow.  Returns the index past the quote, or 0.
 */
static inline size_t usual_string(struct hd_slice v, const char *limit)
{
	size_t e = metadata_string_end(v, limit);

	return e < v.n && (v.p[e] == ' ' || is_closer(v.p[e])) ? e : 0;
}

/*
 * The string item key (up to its opening quote) of the usual metadata,
 * if *r starts with it: its value to *out, *r past it.  Returns -1 when
 * it is not in the usual form, 1 when no ' ' follows it (the metadata
 * ends there), else 0, with *r past the ' ' (or as it was, without the
 * item).
 */
static inline int usual_string_item(struct hd_slice *r, size_t key_len,
				    struct hd_slice *out, const char *limit)
{
	struct hd_slice v = tail(*r, key_len - 1);    /* from the quote */
	size_t e = usual_string(v, limit);

	if (!e)
		return -1;
	*out = hd_slice_make(v.p + 1, e - 2);
	*r = tail(v, e);
	if (r->p[0] != ' ')
		return 1;
	*r = tail(*r, 1);
	return 0;
}

#define USUAL_STRING_ITEM(r, key, out, limit) \
	(STARTS(*(r), key) ? usual_string_item((r), sizeof(key) - 1, (out), \
					       (limit)) : 0)

/*
 * The end of the decimal number that the literal key (n bytes) at r.p[i]
 * is followed by, or 0 when r has something else there.
 */
static inline __attribute__((always_inline)) size_t
key_digits(struct hd_slice r, size_t i, const char *key, size_t n)
{
	size_t j;

	if (!starts(skip(r, i), key, n))
		return 0;
	for (j = i + n; j < r.n && (unsigned)(r.p[j] - '0') < 10; j++)
		;
	return j > i + n ? j : 0;
}

#define KEY_DIGITS(r, i, lit) key_digits((r), (i), (lit), sizeof(lit) - 1)

/*
 * The tail XLA prints after source_line,
 * " source_end_line=N source_column=N source_end_column=N}" followed by
 * ',' or the end, read literally: the offset of its '}' (no item there
 * is one read_metadata keeps), or 0 for anything else.
 */
static inline __attribute__((always_inline)) size_t
usual_plain_tail(struct hd_slice r)
{
	size_t j = KEY_DIGITS(r, 0, " source_end_line=");

	if (j)
		j = KEY_DIGITS(r, j, " source_column=");
	if (j)
		j = KEY_DIGITS(r, j, " source_end_column=");
	if (j && j < r.n && r.p[j] == '}' && (j + 1 == r.n || r.p[j + 1] == ','))
		return j;
	return 0;
}

/*
 * The fast path of find_metadata: the usual metadata, {op_name="..."
 * source_file="..." source_line=N ...} (any of the three may be left
 * out, in this order, one ' ' between items), read straight through,
 * its tail by usual_plain_tail: the items come out as read_metadata
 * reads them.  Returns -1 for anything else, and the caller reads the
 * items from the start with read_metadata, which keeps again whatever
 * was kept here.  m starts at the '{'.  Without line,
 * src->source_line is not read (the parser asks for op_name only).
 */
static int read_metadata_usual(struct hd_insn_source *src,
			       struct hd_slice *meta, struct hd_slice m,
			       const char *limit, int line)
{
	struct hd_slice r = tail(m, 1), v;
	size_t e;
	int rc;

	rc = USUAL_STRING_ITEM(&r, "op_name=\"", &src->op_name, limit);
	if (rc == 0)
		rc = USUAL_STRING_ITEM(&r, "source_file=\"", &src->source_file,
				       limit);
	if (rc < 0)
		return -1;
	if (rc > 0)
		goto close;
	if (STARTS(r, "source_line=")) {
		v = tail(r, 12);
		e = name_span(v, limit);
		if (e >= v.n || (v.p[e] != ' ' && !is_closer(v.p[e])))
			return -1;
		if (line)
			hd_parse_i64(hd_slice_make(v.p, e), &src->source_line);
		r = tail(v, e);
		if (r.p[0] == ' ') {
			size_t close = usual_plain_tail(r);

			if (!close)
				return -1;
			r = tail(r, close);
		}
	}
close:
	if (!r.n || r.p[0] != '}' || (r.n > 1 && r.p[1] != ','))
		return -1;
	*meta = hd_slice_make(m.p + 1, (size_t)(r.p - m.p) - 1);
	return 0;
}

/*
 * The first ", metadata={" in a, or NULL: memmem, but the attributes
 * before metadata are short and the call cost more than the search.  A
 * match has ',' at j and 'm' at j + 2: those j are found 16 at a time
 * (whole blocks inside a) and checked in order, memmem reads the rest.
 */
static const char *find_comma_metadata(struct hd_slice a)
{
	size_t i = 0;

	for (; i + 18 <= a.n; i += 16) {
		unsigned m = hd_scan_eq_mask(a.p + i, ',') & hd_scan_eq_mask(a.p + i + 2, 'm');

		for (; m; m &= m - 1) {
			size_t j = i + (size_t)__builtin_ctz(m);

			if (STARTS(tail(a, j), ", metadata={"))
				return a.p + j;
		}
	}
	return i < a.n ? memmem(a.p + i, a.n - i, ", metadata={", 12) : NULL;
}

/*
 * Finds metadata={...} among the attributes.  XLA prints metadata before
 * backend_config and frontend attributes, so the first ", metadata={" is
 * the attribute (memmem keeps this a fast scan of long lines).  With
 * line 0, src->source_line may be left unread.
 */
static struct hd_slice find_metadata(struct hd_slice a,
				     struct hd_insn_source *src,
				     const char *limit, int line)
{
	static const char key[] = "metadata={";
	const char *at = NULL;
	struct hd_slice m, meta = HD_SLICE_NULL;
	size_t end;

	if (STARTS(a, "metadata={")) {
		at = a.p;
	} else {
		const char *hit = find_comma_metadata(a);
		if (hit)
			at = hit + 2;
	}
	if (!at)
		return meta;
	m = tail(a, (size_t)(at - a.p) + sizeof(key) - 2); /* from '{' */
	if (read_metadata_usual(src, &meta, m, limit, line) == 0)
		return meta;
	no_source(src);
	end = balanced_until(m, ',', ',');
	if (end < 2 || m.p[end - 1] != '}')
		return meta;
	meta = hd_slice_make(m.p + 1, end - 2);
	read_metadata(src, meta);
	return meta;
}

/* Keeps meta, a slice of in->text or none, as in->meta_at and meta_n
 * (none when it does not fit in 32 bits: canonical hashing then walks
 * the metadata item as it walks any other). */
static void keep_metadata(struct hd_insn *in, struct hd_slice meta)
{
	size_t at;

	if (!meta.p)
		return;
	at = (size_t)(meta.p - in->text.p);
	if (at > 0 && at <= UINT32_MAX && meta.n <= UINT32_MAX) {
		in->meta_at = (uint32_t)at;
		in->meta_n = (uint32_t)meta.n;
	}
}

/*
 * The opcode's end in t: the first '(', ' ' or ',' (what a search for
 * the first '(' or ' ' and then for a ',' before it finds), or t.n.
 * 16 bytes at a time in whole blocks inside t.
 */
static inline size_t opcode_end(struct hd_slice t)
{
	size_t i = 0;

	for (; i + 16 <= t.n; i += 16) {
		unsigned m = hd_scan_eq_mask(t.p + i, '(') | hd_scan_eq_mask(t.p + i, ' ') |
			     hd_scan_eq_mask(t.p + i, ',');

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	while (i < t.n && t.p[i] != '(' && t.p[i] != ' ' && t.p[i] != ',')
		i++;
	return i;
}

/*
 * balanced_until(t, ',', ',') for the usual operand list, t starting at
 * its '(': when the first bracket or quote after it is the ')' that
 * closes it, and a ',' (or the end of t) follows, the scan would stop
 * right after that ')'.  Returns that index, or 0 for anything else
 * (the caller scans).
 */
static inline size_t operand_list_end(struct hd_slice t)
{
	size_t i = 1;

	for (; i + 16 <= t.n; i += 16) {
		/* brackets and quotes ('"' as both stops) */
		unsigned m = special_mask(t.p + i, '"', '"');

		if (m) {
			i += (size_t)__builtin_ctz(m);
			goto found;
		}
	}
	while (i < t.n && !balanced_special(t.p[i], '"', '"'))
		i++;
	if (i >= t.n)
		return 0;
found:
	if (t.p[i] != ')')
		return 0;
	if (i + 1 == t.n || t.p[i + 1] == ',')
		return i + 1;
	return 0;
}

/* "%name = SHAPE opcode(operands), attrs" into in and src; n is the
 * length of the name (name_span after the '%'), which the caller found. */
static int parse_insn_text(struct parser *ps, struct hd_slice l,
			   struct hd_slice text, size_t n, struct hd_insn *in)
{
	struct hd_slice t = text;

	in->text = text;
	if (t.n && t.p[0] == '%')
		t = tail(t, 1);
	if (n == 0)
		return bad_line(ps, l, "bad instruction", "'%NAME = SHAPE opcode(...)'");
	in->name = hd_slice_make(t.p, n);
	t = skip(t, n);
	if (take_lit(&t, " = "))
		return bad_line(ps, l, "bad instruction", "'%NAME = SHAPE opcode(...)'");
	n = insn_shape(ps, t, &in->shape_bytes);
	if (n == 0 || n == t.n)
		return bad_line(ps, l, "bad instruction shape", "'%NAME = SHAPE opcode(...)'");
	in->shape = hd_slice_make(t.p, n);
	t = skip(t, n + 1);
	n = opcode_end(t);
	if (n == 0 || n == t.n || t.p[n] != '(')
		return bad_line(ps, l, "bad instruction opcode", "'opcode(operands)'");
	in->opcode = hd_slice_make(t.p, n);
	if (IS(in->opcode, "copy-start")) {
		/* in is the last instruction filed (parse_from_instruction) */
		in->flags |= HD_INSN_COPY_START;
		*PUSH(&ps->d->copy_starts, uint32_t) =
			(uint32_t)(ps->d->insns.len - 1);
	}
	t = skip(t, n);
	n = operand_list_end(t);
	if (n == 0)
		n = balanced_until(t, ',', ',');
	/* n is where the operand list "(...)" ends at depth 0 */
	if (n < 2 || t.p[n - 1] != ')') {
		if (n == t.n && t.n >= 2 && t.p[t.n - 1] == ')')
			n = t.n;
		else
			return bad_line(ps, l, "unbalanced operand list", "'opcode(operands)'");
	}
	in->operands = hd_slice_make(t.p + 1, n - 2);
	t = tail(t, n);
	if (t.n && take_lit(&t, ", ") == 0)
		in->attrs = t;
	else if (t.n)
		return bad_line(ps, l, "bad text after operands", "', attr=value, ...'");
	if (in->flags & HD_INSN_COPY_START) {
		/* what the figures read of a copy-start, kept out of the input */
		if (hd_attrs_cross_program_prefetch(in->attrs))
			in->flags |= HD_INSN_CROSS_PROGRAM_PREFETCH;
		in->shape = hd_slice_make(hd_arena_pack(&ps->d->arena, in->shape.p,
							in->shape.n), in->shape.n);
	}
	return 0;
}

static inline __attribute__((always_inline)) int
from_instruction(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice text = skip(l, (sizeof(" from instruction: ") - 1));
	struct hd_slice t = text;
	struct hd_value *val;
	size_t n;
	uint32_t i;
	uint64_t hash;
	int same;

	if (ps->sec != SEC_USED_VALUES || ps->part == REC_NONE || ps->part == REC_DONE)
		return perr(ps, "'from instruction' outside a value record (expected '<ID NAME>' before it)");
	val = &HD_VALUE(d, ps->record);
	ps->part = REC_DONE;
	if (t.n && t.p[0] == '%')
		t = tail(t, 1);
	/* the record's value is mostly named after its instruction: when
	 * its name and a ' ' are next, name_span would find that name */
	n = val->name.n;
	same = t.n > n && t.p[n] == ' ' &&
	       name_eq(hd_slice_make(t.p, n), val->name);
	if (!same)
		n = name_span(t, ps->end);
	/* tuple elements repeat their instruction: check the last one first */
	if (n && ps->last_insn != HD_NONE &&
	    name_eq(HD_INSN(d, ps->last_insn).name, hd_slice_make(t.p, n))) {
		val->insn = ps->last_insn;
		val->whole_kept = hd_size_keep(HD_INSN(d, ps->last_insn).shape_bytes);
		return 0;
	}
	if (d->insns.len >= HD_NONE - 1)
		return perr(ps, "too many instructions");
	if (!same)
		same = name_eq(val->name, hd_slice_make(t.p, n));
	hash = same ? ps->record_hash : hd_hash64(hd_slice_make(t.p, n));
	/* one probe finds the instruction or files the one made below
	 * (parse_insn_text reads the same name) */
	i = n ? hd_dump_insn_put_hashed(d, (uint32_t)hash, hd_slice_make(t.p, n),
					(uint32_t)d->insns.len) : HD_NONE;
	if (i == HD_NONE) {
		struct hd_insn *in = PUSH(&d->insns, struct hd_insn);

		in->line = (uint32_t)ps->line;
		if (parse_insn_text(ps, l, text, n, in))
			return -1;
		i = (uint32_t)(d->insns.len - 1);
		in->name_hash = hash;
		/* the value's copy of the name serves, out of the input
		 * (in->name is the name read above) */
		if (same)
			in->name = val->name;
		if (ps->hooks->insn) {
			/* op_name, for the hook, is not kept (reports read
			 * it again: hd_insn_source_of), nor is source_line
			 * read; the metadata's place spares canonical
			 * hashing a walk.  Without the hook neither is
			 * looked for: canonical hashing reads the metadata
			 * item as any other then. */
			struct hd_insn_source src;

			no_source(&src);
			keep_metadata(in, find_metadata(in->attrs, &src,
							ps->end, 0));
			ps->hooks->insn(ps->hooks->ctx, in, src.op_name);
		}
	}
	val->insn = i;
	val->whole_kept = hd_size_keep(HD_INSN(d, i).shape_bytes);
	ps->last_insn = i;
	return 0;
}

/*
 * A " from instruction:" line (from_instruction), and the next record's
 * "<...>" line after it, if one is next, read as parse_lines would send
 * it to parse_record: its end found by hd_scan_line_end, counted
 * (ps->line), as far as the NUL check went (ps->checked).  A line with a
 * NUL byte, no '\n' or a '\r' before it, or LINES_AHEAD_MAX bytes or
 * more, is left to parse_lines.  Returns the bytes of the lines read
 * after l (the record's and those it reads), or -1.
 */
static int parse_from_instruction(struct parser *ps, struct hd_slice l)
{
	const char *q = l.p + l.n + 1, *nl;
	int rc;

	if (from_instruction(ps, l))
		return -1;
	if (q >= ps->end || q[-1] != '\n' || *q != '<')
		return 0;
	if (!(nl = take_line(ps, q)))
		return 0;
	rc = parse_record(ps, hd_slice_make(q, (size_t)(nl - q)));
	return rc < 0 ? -1 : (int)(nl + 1 - q) + rc;
}

/* ---- Part B: HloLiveRange ----------------------------------------- */

static int parse_live_range_header(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("HloLiveRange (max ") - 1));
	int64_t max;

	if (ps->d->sections & HD_SEC_LIVE_RANGE)
		return perr(ps, "second HloLiveRange section");
	if (take_i64(ps, &t, &max) || take_lit(&t, "):") || t.n || max < 0)
		return bad_line(ps, l, "bad HloLiveRange header", "'HloLiveRange (max T):'");
	ps->d->live_max = max;
	ps->d->sections |= HD_SEC_LIVE_RANGE;
	ps->sec = SEC_LIVE_RANGE;
	return 0;
}

/* Adds one to the decimal number ps->seq_text. */
static inline void next_seq_text(struct parser *ps)
{
	size_t k = ps->seq_n;

	while (k > 0 && ps->seq_text[k - 1] == '9')
		ps->seq_text[--k] = '0';
	if (k > 0) {
		ps->seq_text[k - 1]++;
		return;
	}
	/* 99..9 + 1 */
	memmove(ps->seq_text + 1, ps->seq_text, ps->seq_n++);
	ps->seq_text[0] = '1';
}

/* Files NAME (n bytes at t) as the next position of the sequence. */
static inline void file_sequence(struct parser *ps, const char *t, size_t n)
{
	*PUSH(&ps->d->sequence, struct hd_slice) = hd_slice_make(t, n);
	next_seq_text(ps);
}

/*
 * The sequence lines from q on, while each is "    I:NAME" with the
 * next number (ps->seq_text) and its '\n' (a line parse_sequence_line
 * reads at once), read as it reads them and counted (ps->line): their
 * bytes, for parse_lines to pass over.  Such a line has no NUL byte.
 * The first other line is left to parse_lines.
 */
static int sequence_lines(struct parser *ps, const char *q)
{
	const char *from = q;

	while (q - from < LINES_AHEAD_MAX &&
	       ps->end - q > (ptrdiff_t)(ps->seq_n + 6) &&
	       hd_bytes_eq(q, "    ", 4) && q[ps->seq_n + 4] == ':' &&
	       hd_bytes_eq(q + 4, ps->seq_text, ps->seq_n)) {
		const char *t = q + ps->seq_n + 5;
		size_t n = name_span(hd_slice_make(t, (size_t)(ps->end - t)),
				     ps->end);

		/* a longer name is left to parse_lines (as in usual_uses) */
		if (n == 0 || n >= (size_t)LINES_AHEAD_MAX || t + n == ps->end ||
		    t[n] != '\n')
			break;
		ps->line++;
		file_sequence(ps, t, n);
		q = t + n + 1;
	}
	return (int)(q - from);
}

/*
 * "    I:NAME", I the number of sequence lines before.  The line is
 * compared with that number's digits and ':' (ps->seq_text, kept
 * counting), which is what reading I and checking it finds for every
 * line in order; anything else (another number, leading zeros, a
 * malformed line) is read and checked as the number it has.
 */
static int parse_sequence_line(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 4);
	size_t len = ps->d->sequence.len, n;
	int64_t i;

	if (!ps->seq_n)
		ps->seq_n = (size_t)snprintf(ps->seq_text, sizeof(ps->seq_text),
					     "%zu", len);
	if (t.n > ps->seq_n && t.p[ps->seq_n] == ':' &&
	    hd_bytes_eq(t.p, ps->seq_text, ps->seq_n)) {
		t = skip(t, ps->seq_n + 1);
		n = name_span(t, ps->end);
		if (n == 0 || n != t.n)
			return bad_line(ps, l, "bad sequence line", "'    I:NAME'");
	} else {
		if (take_i64(ps, &t, &i) || take_lit(&t, ":"))
			return bad_line(ps, l, "bad sequence line", "'    I:NAME'");
		n = name_span(t, ps->end);
		if (n == 0 || n != t.n)
			return bad_line(ps, l, "bad sequence line", "'    I:NAME'");
		if (i != (int64_t)len)
			return perr(ps, "sequence position %lld out of order (expected %zu)",
				    (long long)i, len);
	}
	file_sequence(ps, t.p, n);
	return t.p + n < ps->end && t.p[n] == '\n' ?
	       sequence_lines(ps, t.p + n + 1) : 0;
}

/* Splits "name{idx}" (or "name") into name, index, key. */
static int split_key(struct parser *ps, struct hd_slice s,
		     struct hd_slice *name, struct hd_slice *index,
		     struct hd_slice *key)
{
	size_t n = name_span(s, ps->end);

	if (n == 0)
		return -1;
	*name = hd_slice_make(s.p, n);
	*index = skip(hd_slice_make(s.p, s.n), n);
	if (index->n && index_span(*index) != index->n)
		return -1;
	*key = hd_value_key(s);
	return 0;
}

/*
 * A value with two BufferLiveRange lines would be counted twice in the
 * recomputed peak: an error, naming the first line.
 */
static int second_live_range(struct parser *ps, const struct hd_live_range *r,
			     struct hd_slice name, struct hd_slice index)
{
	const struct hd_dump *d = ps->d;
	char q[PARSE_QUOTE_MAX + 8];
	uint32_t first = 0;
	size_t i;

	for (i = 0; i + 1 < d->live_ranges.len; i++)
		if (HD_LIVE_RANGE(d, i).value == r->value) {
			first = HD_LIVE_RANGE(d, i).line;
			break;
		}
	hd_quote(q, sizeof(q), name.p, name.n + index.n, PARSE_QUOTE_MAX);
	return perr(ps, "second live range for '%s' (first at line %u)", q, first);
}

/*
 * The value named by the key text s (a live-range or peak line's
 * "NAME{IDX}" before its ':') into *v, and s split into name and index
 * as split_key splits it.  A value found has a key of exactly these
 * bytes, made of a name (name_span) and an index (index_span) when it
 * was made, so the split is the value's own and is not looked for
 * again; s of no value is split (and checked) by split_key.  Returns
 * -1 when that finds s malformed.
 */
static inline __attribute__((always_inline)) int
lookup_key(struct parser *ps, struct hd_slice s, uint32_t *v,
	   struct hd_slice *name, struct hd_slice *index)
{
	struct hd_slice key;

	*v = hd_dump_value_by_key(ps->d, s);
	if (*v == HD_NONE)
		return split_key(ps, s, name, index, &key);
	*name = hd_slice_make(s.p, HD_VALUE(ps->d, *v).name.n);
	*index = skip(s, name->n);
	return 0;
}

static inline __attribute__((always_inline)) int
live_line(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 4);
	struct hd_live_range *r;
	const char *colon;
	struct hd_slice nums, name, index;
	int64_t start, end;
	uint32_t v;

	if (pending_filed(ps))
		return -1;
	colon = t.p + hd_scan_either(t.p, t.n, 0, ':', ':', ps->end);
	if (colon == t.p + t.n)
		return bad_line(ps, l, "bad live range", "'    NAME{IDX}:START-END'");
	nums = skip(t, (size_t)(colon - t.p) + 1);
	if (take_i64(ps, &nums, &start) || take_lit(&nums, "-") ||
	    take_i64(ps, &nums, &end) || nums.n)
		return bad_line(ps, l, "bad live range", "'    NAME{IDX}:START-END'");
	if (start < 0 || end < start)
		return bad_line(ps, l, "live range ends before it starts", "START <= END");
	r = PUSH(&ps->d->live_ranges, struct hd_live_range);
	if (lookup_key(ps, hd_slice_make(t.p, (size_t)(colon - t.p)), &v,
		       &name, &index))
		return bad_line(ps, l, "bad live range name", "'NAME{IDX}'");
	r->start = start;
	r->end = end;
	r->line = (uint32_t)ps->line;
	r->value = v;
	if (v == HD_NONE) {
		struct hd_unknown_range *u = PUSH(&ps->d->unknown_ranges,
						  struct hd_unknown_range);

		u->range = (uint32_t)(ps->d->live_ranges.len - 1);
		u->name = name;
		u->index = index;
	}
	if (v != HD_NONE && (HD_VALUE(ps->d, v).flags & HD_VALUE_LIVE))
		return second_live_range(ps, r, name, index);
	if (v != HD_NONE) {
		struct hd_value *val = &HD_VALUE(ps->d, v);
		val->flags |= HD_VALUE_LIVE;
		val->live_start = start;
		val->live_end = end;
	}
	return 0;
}

/* A BufferLiveRange line and the ones after it, which start with "    "
 * as every line of the section does (read_run). */
static int parse_buffer_live_line(struct parser *ps, struct hd_slice l)
{
	return read_run(ps, l, "    ", 4, live_line);
}

static int parse_peak_header(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("  Live ranges at ") - 1));
	int64_t time;

	if (ps->d->sections & HD_SEC_PEAK)
		return perr(ps, "second peak section");
	if (take_i64(ps, &t, &time) || take_lit(&t, " (peak):") || t.n || time < 0)
		return bad_line(ps, l, "bad peak header", "'  Live ranges at T (peak):'");
	ps->d->peak_time = time;
	ps->d->peak_line = (uint32_t)ps->line;
	ps->d->sections |= HD_SEC_PEAK;
	ps->d->peak_style = HD_PEAK_PLAIN;
	ps->sec = SEC_PEAK;
	return 0;
}

/* Not inlined: in the line loop (parse_one) it cost the loop
 * registers, and instructions on every line of the dump. */
static __attribute__((noinline)) int
parse_peak_line(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = skip(l, 4);
	struct hd_peak_entry *e;
	const char *colon;
	struct hd_slice rest;

	if (pending_filed(ps))
		return -1;
	colon = memchr(l.p + 4, ':', l.n - 4);
	if (!colon)
		return bad_line(ps, l, "bad peak line", "'    NAME{IDX}: B bytes (cumulative: S bytes)'");
	e = PUSH(&d->peak, struct hd_peak_entry);
	e->line = (uint32_t)ps->line;
	e->cumulative = -1;
	if (lookup_key(ps, hd_slice_make(t.p, (size_t)(colon - t.p)),
		       &e->value, &e->name, &e->index))
		return bad_line(ps, l, "bad peak value name", "'NAME{IDX}'");
	rest = skip(t, (size_t)(colon - t.p) + 1);
	if (take_lit(&rest, " ") || take_i64(ps, &rest, &e->bytes) ||
	    take_lit(&rest, " bytes") || e->bytes < 0)
		return bad_line(ps, l, "bad peak line", "'    NAME{IDX}: B bytes (cumulative: S bytes)'");
	if (__builtin_add_overflow(ps->peak_sum, e->bytes, &ps->peak_sum))
		return perr(ps, "peak lines add up to more than %lld bytes (expected a total that fits in 64 bits)",
			    (long long)INT64_MAX);
	if (rest.n) {
		if (take_lit(&rest, " (cumulative: ") ||
		    take_i64(ps, &rest, &e->cumulative) ||
		    take_lit(&rest, " bytes)") || rest.n)
			return bad_line(ps, l, "bad cumulative figure", "'(cumulative: S bytes)'");
		if (d->peak.len == 1)
			d->peak_style = HD_PEAK_CUMULATIVE;
		else if (d->peak_style != HD_PEAK_CUMULATIVE)
			return perr(ps, "peak lines mix the cumulative and plain styles");
	} else if (d->peak_style == HD_PEAK_CUMULATIVE) {
		return perr(ps, "peak lines mix the cumulative and plain styles");
	}
	return 0;
}

static int parse_stack_header(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("  Stack trace breakdown for peak usage: ") - 1));
	int64_t total;

	if (take_spaced_i64(&t, &total) || take_lit(&t, " bytes") || t.n)
		return bad_line(ps, l, "bad stack trace header", "'  Stack trace breakdown for peak usage: N bytes'");
	ps->d->stack_total = total;
	ps->d->sections |= HD_SEC_STACK_TREE;
	ps->sec = SEC_STACK_TREE;
	return 0;
}

/*
 * Depth of a stack-trace node line and where its name starts; -1 if the
 * line is not a node line.  Top-level nodes are "    NAME"; deeper ones
 * are "  " + one 4-column unit ("    " or "│   ") per level above the
 * parent + a connector ("├── " or "└── ").
 */
static int tree_depth(struct hd_slice l, size_t *name_at)
{
	static const char vbar[] = "\xe2\x94\x82   ";
	static const char tee[] = "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ";
	static const char ell[] = "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 ";
	size_t i = 2;
	int units = 0;

	if (STARTS(l, "    ") && l.n > 4 && l.p[4] != ' ') {
		*name_at = 4;
		return 0;
	}
	if (!STARTS(l, "  "))
		return -1;
	while (i < l.n) {
		struct hd_slice t = tail(l, i);
		if (starts(t, tee, sizeof(tee) - 1) || starts(t, ell, sizeof(ell) - 1)) {
			*name_at = i + sizeof(tee) - 1;
			return units;
		}
		if (starts(t, vbar, sizeof(vbar) - 1))
			i += sizeof(vbar) - 1;
		else if (starts(t, "    ", 4))
			i += 4;
		else
			return -1;
		units++;
	}
	return -1;
}

static int parse_stack_line(struct parser *ps, struct hd_slice l)
{
	struct hd_stack_node *node;
	struct hd_slice t, stats;
	size_t name_at = 0, open, p;
	int depth = tree_depth(l, &name_at);

	if (depth < 0)
		return unknown_line(ps, l);
	t = tail(l, name_at);
	if (t.n < 4 || t.p[t.n - 1] != ')')
		return bad_line(ps, l, "bad stack trace node", "'NAME (P%, total: T bytes, ...)'");
	/* the statistics are the last "( ... )" group */
	for (open = t.n - 1; open > 0 && t.p[open] != '('; open--)
		;
	if (open == 0 || t.p[open - 1] != ' ')
		return bad_line(ps, l, "bad stack trace node", "'NAME (P%, ...)'");
	node = PUSH(&ps->d->stack, struct hd_stack_node);
	node->depth = (uint32_t)depth;
	node->name = hd_slice_make(t.p, open - 1);
	node->line = (uint32_t)ps->line;
	node->current = node->remaining = -1;
	stats = hd_slice_make(t.p + open + 1, t.n - open - 2);
	for (p = 0; p < stats.n && ((stats.p[p] >= '0' && stats.p[p] <= '9') || stats.p[p] == '.'); p++)
		;
	node->percent = hd_slice_make(stats.p, p);
	stats = tail(stats, p);
	if (node->percent.n == 0 || take_lit(&stats, "%, "))
		return bad_line(ps, l, "bad stack trace percentage", "'(P%, ...)'");
	if (take_lit(&stats, "total: ") == 0) {
		if (take_spaced_i64(&stats, &node->total) ||
		    take_lit(&stats, " bytes, current: ") ||
		    take_spaced_i64(&stats, &node->current) ||
		    take_lit(&stats, " bytes, remaining: ") ||
		    take_spaced_i64(&stats, &node->remaining) ||
		    take_lit(&stats, " bytes") || stats.n)
			return bad_line(ps, l, "bad stack trace figures", "'total: T bytes, current: C bytes, remaining: R bytes'");
	} else if (take_spaced_i64(&stats, &node->total) ||
		   take_lit(&stats, " bytes") || stats.n) {
		return bad_line(ps, l, "bad stack trace figures", "'(P%, N bytes)'");
	}
	return 0;
}

/* ---- dispatch ------------------------------------------------------ */

static int begin_wrapped(struct parser *ps, struct hd_slice l)
{
	struct hd_slice name = tail(l, (sizeof("*** Begin ") - 1));

	if (name.n >= 4 && memcmp(name.p + name.n - 4, " ***", 4) == 0)
		name.n -= 4;
	ps->d->sections |= HD_SEC_STDOUT_WRAPPER;
	ps->wrapped = 1;
	if (name.n >= 22 && memcmp(name.p + name.n - 22, "-buffer-assignment.txt", 22) == 0) {
		if (ps->modules_seen++) {
			if (file_pending(ps, 1) || no_nul_left(ps))
				return -1;
			hd_warning(ps->file, ps->line,
				   "more than one module in this stream; only the first is read");
			ps->sec = SEC_DONE;
		}
		return 0;
	}
	if ((name.n >= 29 && memcmp(name.p + name.n - 29, "-buffer-assignment-values.txt", 29) == 0) ||
	    (name.n >= 15 && memcmp(name.p + name.n - 15, "-live-range.txt", 15) == 0))
		return 0;
	ps->sec = SEC_SKIP_WRAPPED;
	return 0;
}

static int end_wrapped(struct parser *ps)
{
	ps->wrapped = 0;
	if (ps->sec == SEC_SKIP_WRAPPED)
		ps->sec = SEC_START;
	return 0;
}

static int two_space_line(struct parser *ps, struct hd_slice l)
{
	if (ps->sec == SEC_USED_VALUES)
		return parse_record_body(ps, l);
	if (ps->sec == SEC_ALLOCATIONS && STARTS(l, "  value: "))
		return parse_reuse_value(ps, l);
	if (ps->sec >= SEC_LIVE_RANGE && ps->sec <= SEC_STACK_TREE) {
		/* the many "    " lines first: no header below starts so */
		if (STARTS(l, "    ")) {
			switch (ps->sec) {
			case SEC_SEQUENCE: return parse_sequence_line(ps, l);
			case SEC_BUFFER_LIVE: return parse_buffer_live_line(ps, l);
			case SEC_PEAK: return parse_peak_line(ps, l);
			case SEC_STACK_TREE: return parse_stack_line(ps, l);
			default: return unknown_line(ps, l);
			}
		}
		if (STARTS(l, "  InstructionSequence:") && l.n == 22) {
			ps->d->sections |= HD_SEC_SEQUENCE;
			ps->sec = SEC_SEQUENCE;
			return 0;
		}
		if (STARTS(l, "  BufferLiveRange:") && l.n == 18) {
			ps->d->sections |= HD_SEC_BUFFER_LIVE;
			ps->sec = SEC_BUFFER_LIVE;
			return 0;
		}
		if (STARTS(l, "  Live ranges at "))
			return parse_peak_header(ps, l);
		if (STARTS(l, "  Peak memory could not be determined")) {
			ps->d->peak_style = HD_PEAK_UNDETERMINED;
			ps->sec = SEC_PEAK_UNKNOWN;
			return 0;
		}
		if (STARTS(l, "  Stack trace breakdown for peak usage: "))
			return parse_stack_header(ps, l);
		if (ps->sec == SEC_STACK_TREE)
			return parse_stack_line(ps, l);
	}
	return unknown_line(ps, l);
}

static int one_space_line(struct parser *ps, struct hd_slice l)
{
	if (STARTS(l, " value: "))
		return parse_alloc_value(ps, l);
	if (STARTS(l, " from instruction: "))
		return parse_from_instruction(ps, l);
	if (ps->sec == SEC_USED_VALUES && ps->part != REC_NONE && ps->part != REC_DONE) {
		if (IS(l, " positions:")) {
			ps->part = REC_POSITIONS;
			return 0;
		}
		if (IS(l, " uses:")) {
			ps->part = REC_USES;
			return 0;
		}
		if (IS(l, " uses are not initialized yet.")) {
			ps->part = REC_USES;
			return 0;
		}
	}
	if (ps->sec == SEC_ALLOCATIONS && ps->alloc != HD_NONE &&
	    IS(l, " reused by buffers of a different color:")) {
		ps->in_reuse = 1;
		return 0;
	}
	return unknown_line(ps, l);
}

static int top_level_line(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;

	if (IS(l, "BufferAssignment:")) {
		if (d->sections & HD_SEC_ALLOCATIONS)
			return perr(ps, "second 'BufferAssignment:' section");
		d->sections |= HD_SEC_ALLOCATIONS;
		ps->sec = SEC_ALLOCATIONS;
		return 0;
	}
	if (l.p[0] == '<')   /* no other kind below starts with '<' */
		return parse_record(ps, l);
	if (STARTS(l, "allocation "))
		return parse_allocation(ps, l);
	if (STARTS(l, "Total bytes used: "))
		return parse_total(ps, l);
	if (IS(l, "Used values:")) {
		if (d->sections & HD_SEC_USED_VALUES)
			return perr(ps, "second 'Used values:' section");
		d->sections |= HD_SEC_USED_VALUES;
		ps->sec = SEC_USED_VALUES;
		ps->part = REC_NONE;
		/* most records name a new instruction: no doublings */
		hd_index_reserve(&d->insn_by_name,
				 (uint64_t)d->insn_by_name.count + ps->plain_values);
		return 0;
	}
	if (STARTS(l, "HloLiveRange (max "))
		return parse_live_range_header(ps, l);
	if (STARTS(l, "HloLiveRange not available")) {
		d->sections |= HD_SEC_LIVE_RANGE_NA;
		return 0;
	}
	return unknown_line(ps, l);
}

/* Is this a first line that a dump (or one of its split parts) may have? */
static int plausible_start(struct hd_slice l)
{
	return IS(l, "BufferAssignment:") ||
	       STARTS(l, "Total bytes used: ") || STARTS(l, "HloLiveRange") ||
	       STARTS(l, "*** Begin ") || IS(l, "Used values:");
}

/*
 * What parse_line does before a line goes to its kind, for the lines
 * that the test there sends here: 1 when the line goes to its kind
 * after all, else what parse_line returns (the line is read here).
 */
static __attribute__((noinline)) int
parse_line_rare(struct parser *ps, struct hd_slice l)
{
	if (ps->sec == SEC_DONE)
		return 0;
	if (l.n && l.p[0] == '*') {
		if (STARTS(l, "*** Begin "))
			return begin_wrapped(ps, l);
		if (STARTS(l, "*** End "))
			return end_wrapped(ps);
	}
	if (ps->sec == SEC_SKIP_WRAPPED)
		return 0;
	if (l.n == 0)
		return 0;
	if (ps->sec == SEC_START && !plausible_start(l)) {
		char q[PARSE_QUOTE_MAX + 8];
		hd_quote(q, sizeof(q), l.p, l.n, PARSE_QUOTE_MAX);
		return perr(ps, "not a buffer-assignment dump: first line is '%s' (expected 'BufferAssignment:')", q);
	}
	return 1;
}

/*
 * A line read in a section (SEC_ALLOCATIONS to SEC_STACK_TREE: not the
 * start, a wrapped block skipped or the end) that is not empty and does
 * not start with '*' goes to its kind at once, after one test of the
 * state and two of the line; any other line goes through
 * parse_line_rare's five tests first, as every line did.
 */
static inline __attribute__((always_inline)) int
parse_line(struct parser *ps, struct hd_slice l)
{
	if (__builtin_expect(!((unsigned)ps->sec - SEC_ALLOCATIONS <
			       SEC_SKIP_WRAPPED - SEC_ALLOCATIONS &&
			       l.n && l.p[0] != '*'), 0)) {
		int rc = parse_line_rare(ps, l);

		if (rc <= 0)
			return rc;
	}
	if (l.p[0] != ' ')
		return top_level_line(ps, l);
	if (l.n >= 2 && l.p[1] == ' ')
		return two_space_line(ps, l);
	return one_space_line(ps, l);
}


/* Reports the NUL byte at nul, which no dump contains, at its line and
 * column. */
static int report_nul(struct parser *ps, const char *nul)
{
	const char *p = ps->data, *line_start = ps->data;
	uint64_t line = 1;

	while ((p = memchr(p, '\n', (size_t)(nul - p))) != NULL) {
		line++;
		p++;
		line_start = p;
	}
	hd_error_col(ps->file, line, (uint64_t)(nul - line_start) + 1,
		     "NUL byte in input (expected a text dump)");
	return -1;
}

/*
 * Looks for a NUL byte in the input up to upto that was not looked at
 * yet.  A NUL anywhere in the input is the error reported, whatever else
 * is wrong with it: each line is checked as its end is looked for
 * (hd_scan_line_end), and every other message first checks the rest
 * (no_nul_left).
 */
static int check_nul_upto(struct parser *ps, const char *upto)
{
	const char *nul;

	if (upto <= ps->checked)
		return 0;
	nul = memchr(ps->checked, '\0', (size_t)(upto - ps->checked));
	if (nul)
		return report_nul(ps, nul);
	ps->checked = upto;
	return 0;
}

static int no_nul_left(struct parser *ps)
{
	return check_nul_upto(ps, ps->end);
}

/*
 * The line at p that hd_scan_line_end found no '\n' for (nl NULL) or a NUL
 * byte in (at nl): the NUL is the error; a partial last line is not
 * read (truncation).  Returns -1 after an error, else 0: the lines are
 * over.  ps->line counts the line already.
 */
static __attribute__((noinline, cold)) int
last_line(struct parser *ps, const char *nl)
{
	if (nl)
		return report_nul(ps, nl);
	ps->checked = ps->end;
	return truncation(ps, section_bit(ps),
			  "dump ends in the middle of a line (truncated? expected a final newline)");
}

static int parse_lines(struct parser *ps)
{
	const char *p = ps->data, *end = ps->end;
	/* a line ending at an offset past watch is due the window's move
	 * (none for an input that is not mapped) */
	size_t watch = ps->in ? 0 : SIZE_MAX;

	ps->line = 0;
	while (p < end) {
		const char *nl;
		struct hd_slice l;
		int rc;

		nl = hd_scan_line_end(p, end);

		ps->line++;
		if (__builtin_expect(!nl || *nl == '\0', 0)) {
			if (last_line(ps, nl))
				return -1;
			break;
		}
		/* [data, end of this line) has no NUL */
		ps->checked = nl + 1;
		if ((size_t)(nl - ps->data) >= watch) {
			hd_input_pass_at(ps->in, &ps->pass, p);
			/* next may lie past the input (SIZE_MAX: nothing
			 * more to do, e.g. for an input read into memory) */
			watch = ps->pass.next < (size_t)(end - ps->in->data) ?
				ps->pass.next + (size_t)(ps->in->data - ps->data) :
				SIZE_MAX;
		}
		l = hd_slice_make(p, (size_t)(nl - p));
		if (l.n && l.p[l.n - 1] == '\r')
			l.n--;
		rc = parse_line(ps, l);
		if (__builtin_expect(rc != 0, 0)) {
			if (rc < 0)
				return -1;
			/* the next lines, rc bytes with their '\n' (no NUL),
			 * were read (and counted) with this one
			 * (next_line_is); the window moves at the line after
			 * them */
			nl += rc;
			ps->checked = nl + 1;
		}
		p = nl + 1;
	}
	ps->d->n_lines += ps->line;
	return no_nul_left(ps);
}

static void parser_init(struct parser *ps, struct hd_dump *d, const char *file,
			unsigned flags)
{
	memset(ps, 0, sizeof(*ps));
	ps->d = d;
	ps->file = file;
	ps->flags = flags;
	ps->sec = SEC_START;
	ps->alloc = HD_NONE;
	ps->record = HD_NONE;
	ps->last_insn = HD_NONE;
	ps->pending.elem = sizeof(struct pending_key);
}

/* Every value line of an allocation has a "Used values" record (counted
 * as the lines and records were filed, not by a walk over the values). */
static int check_records(struct parser *ps)
{
	struct hd_dump *d = ps->d;
	uint32_t listed = (uint32_t)d->n_listed;
	uint32_t recorded = (uint32_t)d->n_listed_records;

	/* a split companion with records of other values: another module's */
	if (recorded < listed && ps->in && ps->in != &d->inputs[0] &&
	    d->n_records > recorded)
		return perr(ps, "%llu of its records name no value of the allocations "
			    "in %s (expected the companion of the same module)",
			    (unsigned long long)(d->n_records - recorded), d->inputs[0].name);
	if (recorded < listed)
		return truncation(ps, HD_SEC_USED_VALUES, "'Used values' ends after %u of %u value records (truncated dump?)",
			    recorded, listed);
	return 0;
}

/* The stack-trace tree accounts for all of its header's bytes. */
static int check_stack_tree(struct parser *ps)
{
	struct hd_dump *d = ps->d;
	int64_t top = 0;
	size_t i;
	const struct hd_stack_node *last;

	if (d->stack.len == 0)
		return d->stack_total == 0 ? 0 :
			truncation(ps, HD_SEC_STACK_TREE, "stack-trace breakdown has no nodes for its %lld bytes (truncated dump?)",
			     (long long)d->stack_total);
	for (i = 0; i < d->stack.len; i++)
		if (HD_STACK_NODE(d, i).depth == 0)
			top = sat_add(top, HD_STACK_NODE(d, i).total);
	last = &HD_STACK_NODE(d, d->stack.len - 1);
	if (last->remaining > 0)
		return truncation(ps, HD_SEC_STACK_TREE, "stack-trace breakdown ends with %lld bytes still to account for (truncated dump?)",
			    (long long)last->remaining);
	if (top != d->stack_total)
		return truncation(ps, HD_SEC_STACK_TREE, "stack-trace nodes add up to %lld bytes but the header says %lld (truncated dump?)",
			    (long long)top, (long long)d->stack_total);
	return 0;
}

/* Checks, at the end of one file, that no section in it broke off. */
static int check_complete(struct parser *ps)
{
	struct hd_dump *d = ps->d;
	uint32_t here = d->sections & ~ps->file_sections;

	if (ps->sec == SEC_USED_VALUES && ps->part != REC_NONE && ps->part != REC_DONE &&
	    truncation(ps, HD_SEC_USED_VALUES, "dump ends inside a value record (expected ' from instruction: ...')"))
		return -1;
	if ((here & HD_SEC_USED_VALUES) && check_records(ps))
		return -1;
	if ((here & HD_SEC_LIVE_RANGE) && d->live_max > 0 && !(here & HD_SEC_SEQUENCE) &&
	    truncation(ps, HD_SEC_LIVE_RANGE, "HloLiveRange ends before its 'InstructionSequence:' (truncated dump?)"))
		return -1;
	if ((here & HD_SEC_SEQUENCE) && (int64_t)d->sequence.len != d->live_max &&
	    truncation(ps, HD_SEC_SEQUENCE, "instruction sequence has %zu of %lld entries (truncated dump?)",
		       d->sequence.len, (long long)d->live_max))
		return -1;
	if ((here & HD_SEC_SEQUENCE) && !(here & HD_SEC_BUFFER_LIVE) &&
	    truncation(ps, HD_SEC_BUFFER_LIVE, "HloLiveRange ends before 'BufferLiveRange:' (truncated dump?)"))
		return -1;
	if ((here & HD_SEC_PEAK) && d->peak.len == 0 && d->peak_style != HD_PEAK_UNDETERMINED &&
	    truncation(ps, HD_SEC_PEAK, "peak section has no lines (truncated dump?)"))
		return -1;
	if ((here & HD_SEC_STACK_TREE) && check_stack_tree(ps))
		return -1;
	if ((here & HD_SEC_STACK_TREE) && d->peak_style == HD_PEAK_CUMULATIVE && d->peak.len &&
	    HD_PEAK_ENTRY(d, d->peak.len - 1).cumulative != d->stack_total)
		return truncation(ps, HD_SEC_PEAK, "peak lines add up to %lld bytes but the stack-trace breakdown counts %lld (truncated dump?)",
			    (long long)HD_PEAK_ENTRY(d, d->peak.len - 1).cumulative,
			    (long long)d->stack_total);
	return 0;
}

/* Checks that the parse ended in a state a whole dump can end in. */
static int finish(struct parser *ps)
{
	struct hd_dump *d = ps->d;

	/* one entry for every value, those without a record too */
	if ((ps->flags & HD_PARSE_KEEP_USES) && d->values.len)
		value_uses_of(d, (uint32_t)(d->values.len - 1));
	if (check_complete(ps))
		return -1;
	if (!(d->sections & (HD_SEC_ALLOCATIONS | HD_SEC_TOTAL | HD_SEC_USED_VALUES |
			     HD_SEC_LIVE_RANGE | HD_SEC_LIVE_RANGE_NA)))
		return perr(ps, "no buffer-assignment content found (expected 'BufferAssignment:')");
	return 0;
}

/*
 * The model's big arrays of a large dump are reserved at once
 * (hd_vec_expect) instead of growing through malloc to the size at
 * which they move into a reservation anyway.  An array is expected to
 * grow that far when the input has at least `per` bytes for each of its
 * bytes: about half of what the 256 MB bench dump has (insns 1 : 6.4,
 * values 1 : 11.5, ..., value colours 1 : 92), so that a dump of another mix
 * still fills most of them.  An array that stays small costs one 2 MiB
 * page instead of a few 4 KiB ones.
 */
#define EXPECT_FROM ((size_t)2 << 20)

static void expect_big(struct hd_dump *d, size_t len)
{
	static const struct { size_t off, per; } big[] = {
		{ offsetof(struct hd_dump, insns), 3 },
		{ offsetof(struct hd_dump, values), 5 },
		{ offsetof(struct hd_dump, value_lines), 29 },
		{ offsetof(struct hd_dump, alloc_values), 5 },
		{ offsetof(struct hd_dump, live_ranges), 17 },
		{ offsetof(struct hd_dump, positions), 10 },
		{ offsetof(struct hd_dump, allocs), 11 },
		{ offsetof(struct hd_dump, peak), 22 },
		{ offsetof(struct hd_dump, sequence), 27 },
		{ offsetof(struct hd_dump, value_colors), 46 },
		{ offsetof(struct hd_dump, value_positions), 46 },
	};
	size_t i;

	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		if (len / big[i].per >= EXPECT_FROM)
			hd_vec_expect((struct hd_vec *)((char *)d + big[i].off));
	/* the arena keeps the values' names (1 : 38 on the bench dumps);
	 * past 64 MiB it grows by blocks of that size anyway (arena.c) */
	if (len / 16 >= EXPECT_FROM)
		hd_arena_expect(&d->arena, len / 16 < ((size_t)64 << 20) ?
				len / 16 : (size_t)64 << 20);
}

static const struct hd_parse_hooks no_hooks;

static int parse_one(struct hd_dump *d, struct hd_input *in, const char *name,
		     const char *data, size_t len, const struct hd_parse_opts *o)
{
	struct parser ps;
	int rc, i;

	d->shape_facts = 1;
	d->tallied = 1;
	parser_init(&ps, d, name, o->flags);
	ps.hooks = o->hooks ? o->hooks : &no_hooks;
	if (ps.hooks->input)
		ps.hooks->input(ps.hooks->ctx, len);
	ps.in = in;
	ps.file_sections = d->sections;
	/* Dense numbering: ids stay well below the byte count of the dump. */
	if (d->values.len == 0 && d->allocs.len == 0 && (int64_t)(len / 16) > d->id_limit)
		d->id_limit = (int64_t)(len / 16);
	if (len == 0) {
		hd_error(name, 0, "empty file (expected a buffer-assignment dump)");
		return -1;
	}
	ps.data = ps.checked = data;
	ps.end = data + len;
	expect_big(d, len);
	if (len / 64 >= EXPECT_FROM) {
		hd_vec_expect(&ps.pending);
		hd_vec_expect(&d->id_slots);
		hd_vec_expect(&d->alloc_slots);
	}
	ps.memo = hd_xcalloc(SHAPE_MEMO_SLOTS, sizeof(*ps.memo));
	ps.long_memo = hd_xcalloc(LONG_MEMO_SLOTS, sizeof(*ps.long_memo));
	rc = parse_lines(&ps) ? -1 : finish(&ps);
	/* the values of a dump that ends in its allocations */
	if (file_pending(&ps, rc == 0))
		rc = -1;
	hd_vec_release(&ps.pending);
	for (i = 0; i < LONG_MEMO_SLOTS; i++)
		free(ps.long_memo[i].text);
	free(ps.long_memo);
	free(ps.memo);
	return rc;
}

int hd_parse_buffer_opts(struct hd_dump *d, const char *name, const char *data,
			 size_t len, const struct hd_parse_opts *o)
{
	hd_dump_init(d);
	d->name = name;
	return parse_one(d, NULL, name, data, len, o);
}

int hd_parse_buffer(struct hd_dump *d, const char *name, const char *data,
		    size_t len, unsigned flags)
{
	struct hd_parse_opts o = { flags, NULL };

	return hd_parse_buffer_opts(d, name, data, len, &o);
}

/* "X-buffer-assignment.txt[.gz]" -> "X" + suffix (+ ".gz" with gz), or
 * NULL if not that form: either file of a split dump may be compressed. */
static char *sibling_path(struct hd_arena *a, const char *path, const char *suffix,
			  int gz)
{
	static const char ba[] = "-buffer-assignment.txt";
	size_t n = strlen(path), k = sizeof(ba) - 1;

	if (n >= 3 && strcmp(path + n - 3, ".gz") == 0)
		n -= 3;
	if (n < k || memcmp(path + n - k, ba, k) != 0)
		return NULL;
	return hd_arena_printf(a, "%.*s%s%s", (int)(n - k), path, suffix, gz ? ".gz" : "");
}

/*
 * Whether the companion just read (0 values, 1 live ranges) is of the main
 * file's module, else why not into why.  Every record of a values file is
 * a value of the allocations.  A live-range file names the values of the
 * allocations that are not thread-local; a dump may have a few of those
 * without a range, or ranges of values without an allocation, but a file
 * of another module has both.
 */
static int companion_mismatch(const struct hd_dump *d, int kind, char *why, size_t n)
{
	const struct hd_value *first = NULL;
	uint64_t i, bad = 0;

	for (i = 0; i < d->values.len; i++) {
		const struct hd_value *v = &HD_VALUE(d, i);
		int off;

		if (kind == 0)
			off = (v->flags & HD_VALUE_RECORD) && !(v->flags & HD_VALUE_IN_ALLOC);
		else
			off = (v->flags & HD_VALUE_IN_ALLOC) && !(v->flags & HD_VALUE_LIVE) &&
			      !(HD_ALLOC(d, HD_ALLOC_VALUE(d, v->alloc_value).alloc).flags &
				HD_ALLOC_THREAD_LOCAL);
		if (off && !bad++)
			first = v;
	}
	if (!bad || (kind == 1 && d->unknown_ranges.len == 0))
		return 0;
	if (kind == 0)
		snprintf(why, n, "%llu of its records name no value of the allocations "
			 "(the first: <%lld %.*s>)", (unsigned long long)bad,
			 (long long)first->id, (int)first->name.n, first->name.p);
	else
		snprintf(why, n, "%llu values of the allocations have no live range "
			 "(the first: '%.*s') and %llu live ranges name no value",
			 (unsigned long long)bad, (int)first->name.n, first->name.p,
			 (unsigned long long)d->unknown_ranges.len);
	return 1;
}

static int parse_input_into(struct hd_dump *d, const char *path,
			    const struct hd_parse_opts *o)
{
	struct hd_input *in = &d->inputs[d->n_inputs];

	if (hd_input_open(in, path))
		return -1;
	d->n_inputs++;
	return parse_one(d, in, in->name, in->data, in->len, o);
}

int hd_parse_file(struct hd_dump *d, const char *path, unsigned flags)
{
	struct hd_parse_opts o = { flags, NULL };

	return hd_parse_file_opts(d, path, &o);
}

int hd_parse_file_opts(struct hd_dump *d, const char *path,
		       const struct hd_parse_opts *o)
{
	unsigned flags = o->flags;
	static const char *const suffixes[] = {
		"-buffer-assignment-values.txt", "-live-range.txt",
	};
	uint32_t main_sections;
	size_t i;

	hd_dump_init(d);
	d->name = hd_display_name(path);
	if (parse_input_into(d, path, o))
		return -1;
	if ((flags & HD_PARSE_NO_SIBLINGS) || strcmp(path, "-") == 0)
		return 0;
	/* Newest XLA splits the dump: read the companions when present. */
	main_sections = d->sections;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *sib = sibling_path(&d->arena, path, suffixes[i], 0), why[200];
		uint32_t had = d->sections;

		if (!sib)
			continue;
		if (i == 0 && (had & (HD_SEC_TOTAL | HD_SEC_USED_VALUES)))
			continue;
		if (i == 1 && (had & (HD_SEC_LIVE_RANGE | HD_SEC_LIVE_RANGE_NA)))
			continue;
		if (!hd_input_exists(sib)) {
			char *gz = sibling_path(&d->arena, path, suffixes[i], 1);
			if (!hd_input_exists(gz)) {
				/* a split dump read without it: say what it leaves out */
				if (main_sections == HD_SEC_ALLOCATIONS) {
					d->missing |= i == 0 ? HD_SEC_TOTAL | HD_SEC_USED_VALUES :
						      HD_SEC_LIVE_RANGE;
					d->missing_files[i] = sib;
				}
				continue;
			}
			sib = gz;
		}
		if (parse_input_into(d, sib, o))
			return -1;
		if (companion_mismatch(d, (int)i, why, sizeof(why))) {
			hd_error(sib, 0, "not the companion of %s: %s (expected the %s "
				 "of the same module)", path, why, suffixes[i] + 1);
			return -1;
		}
	}
	return 0;
}

void hd_parse_insn_source(const struct hd_insn *in,
			  struct hd_insn_source *out)
{
	no_source(out);
	/* no bytes past the attributes are known to be readable */
	if (in->attrs.n)
		(void)find_metadata(in->attrs, out, in->attrs.p + in->attrs.n, 1);
}

void hd_parse_report_unknown(const struct hd_dump *d)
{
	char lines[256];
	size_t o = 0;
	uint64_t i, shown;

	if (d->n_unknown == 0)
		return;
	shown = d->n_unknown < HD_UNKNOWN_SHOWN ? d->n_unknown : HD_UNKNOWN_SHOWN;
	for (i = 0; i < shown && o < sizeof(lines) - 24; i++)
		o += (size_t)snprintf(lines + o, sizeof(lines) - o, "%s%llu",
				      i ? ", " : "", (unsigned long long)d->unknown_lines[i]);
	hd_warning(d->unknown_files[0], 0, "%llu unknown line%s skipped (%s %s%s)",
		   (unsigned long long)d->n_unknown, d->n_unknown == 1 ? "" : "s",
		   shown == 1 ? "line" : "first at lines", lines,
		   d->n_unknown > shown ? ", ..." : "");
}
