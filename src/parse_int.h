/*
 * parse_int.h - what the files of the parser share (src/parse*.c; not
 * an API: parse.h is).  The parser's state, the small scanners every
 * section uses (inlined: they run a few times per line), the lookup of
 * a value by its short form "<ID NAME>", and the functions one file
 * calls in another: the line loop (parse.c) hands each line to the
 * reader of its section (parse_alloc.c, parse_values.c, parse_insn.c,
 * parse_live.c).
 */
#ifndef HLODIFF_PARSE_INT_H
#define HLODIFF_PARSE_INT_H

#include "hlodiff/parse.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/format.h"
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
 * one again would be a large part of the parse.  Direct-mapped by memo_index (a
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

/*
 * Peak lines whose lookups are started ahead (look_ahead; a live-range
 * line takes its value from the one before, live_value):
 * a line's key is hashed and its index slot loading AHEAD_SCAN lines
 * before it is read, its value record AHEAD_VALUE lines before, its
 * name AHEAD_NAME lines before.  AHEAD_RING (a power of two) holds them.
 */
#define AHEAD_RING 64
#define AHEAD_SCAN 48
#define AHEAD_VALUE 32
#define AHEAD_NAME 16

/* A key hashed ahead of its line, so that the line does not hash it
 * again; the line's ':' and end are kept too, so that neither is looked
 * for a second time. */
struct hashed_key {
	const char *p;
	size_t n;
	uint32_t hash;
	const char *line;       /* the line's first byte */
	const char *colon;      /* its first ':' */
	const char *nl;         /* its '\n' (no NUL byte before it) */
	uint32_t v;             /* the value its slot names first (once
				   looked at), HD_NONE for none */
};

/* A value not yet filed under its key (hd_ps_file_pending). */
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
	/* the stack-trace tree so far: its node count, the sum of its
	 * top-level totals, the last node's remaining bytes (-1: not given) */
	size_t stack_nodes;
	int64_t stack_top, stack_left;
	/* prefetch_records: the ids with a value after the record's (up to
	 * 4, ascending: ahead_ids[(ahead_first + k) % 4] for k below
	 * n_ahead_ids, a ring, as a record passes about one a time), found
	 * by a scan of the id slots that has come to ids_scanned; records
	 * come in id order, so each slot is looked at about once, not four
	 * times */
	size_t ahead_ids[4];
	unsigned n_ahead_ids, ahead_first;
	size_t ids_scanned;
	/* live_value: the id slot after the last live range's value */
	size_t live_id;
	/* hd_ps_sequence_line: the position the next sequence line must
	 * have (d->sequence.len: every line filed there adds one to it,
	 * next_seq_text) in decimal, seq_n digits; none yet when 0 */
	size_t seq_n;
	char seq_text[24];
	uint64_t record_hash;   /* XXH3-64 of the record's value name (its low
				   32 bits are the hd_index_hash) */
	/* look_ahead: the lines ahead, ahead[k % AHEAD_RING] for k from
	 * a_used (the next line to read) to a_scanned; those before
	 * a_value have their value record loading, those before a_name
	 * their name.  The scan goes on at scan_at unless scan_done. */
	struct hashed_key ahead[AHEAD_RING];
	size_t a_used, a_name, a_value, a_scanned;
	const char *scan_at;
	int scan_done;
	struct shape_memo *memo; /* SHAPE_MEMO_SLOTS of them */
	struct long_memo *long_memo; /* LONG_MEMO_SLOTS of them */
	uint64_t stack_lines;
	/* struct pending_key: the values of the allocations section, filed
	 * under their keys at once when the section is over (hd_ps_file_pending) */
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

/* ---- across the files ---- */

int hd_ps_error(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int hd_ps_bad_line(struct parser *ps, struct hd_slice l, const char *what,
		    const char *expected);
int hd_ps_unknown_line(struct parser *ps, struct hd_slice l);
size_t hd_ps_insn_shape(struct parser *ps, struct hd_slice t, int64_t *bytes);
int hd_ps_file_pending(struct parser *ps, int report);
int hd_ps_allocation(struct parser *ps, struct hd_slice l);
int hd_ps_alloc_value(struct parser *ps, struct hd_slice l);
int hd_ps_reuse_value(struct parser *ps, struct hd_slice l);
int hd_ps_total(struct parser *ps, struct hd_slice l);
struct hd_value_uses *hd_ps_value_uses_of(struct hd_dump *d, uint32_t v);
int hd_ps_record(struct parser *ps, struct hd_slice l);
int hd_ps_record_body(struct parser *ps, struct hd_slice l);
int hd_ps_from_instruction(struct parser *ps, struct hd_slice l);
int hd_ps_live_range_header(struct parser *ps, struct hd_slice l);
int hd_ps_sequence_line(struct parser *ps, struct hd_slice l);
int hd_ps_buffer_live_line(struct parser *ps, struct hd_slice l);
int hd_ps_peak_header(struct parser *ps, struct hd_slice l);
int hd_ps_peak_line(struct parser *ps, struct hd_slice l);
int hd_ps_stack_header(struct parser *ps, struct hd_slice l);
int hd_ps_stack_line(struct parser *ps, struct hd_slice l);

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

static inline struct hd_slice tail(struct hd_slice l, size_t from)
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
 * by digits8.  Anything else (a sign, more digits, no digit) is left to
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
			uint64_t v = n <= 8 ? digits8(s->p, n) :
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
static inline int take_spaced_i64(struct hd_slice *s, int64_t *out)
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
static inline size_t skip_string(struct hd_slice s, size_t i)
{
	return hd_scan_string_end(s.p, s.n, i);
}

static inline int is_closer(char c)
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
 * Scans a bracket-balanced, quote-aware run from s.p[0] and returns the
 * offset of the first byte at depth 0 that equals stop1 or stop2 (or
 * s.n).  Strings in double quotes may hold any bracket; backslash escapes
 * the next byte.  The bytes between special ones (special_mask, the
 * table) are skipped 16 at a time: mask keeps the special bytes of the
 * block [blk_end - 16, blk_end) not visited yet, whole blocks inside s
 * only; the tail is read byte by byte (balanced_special).
 */
static inline __attribute__((always_inline)) size_t
balanced_until(struct hd_slice s, char stop1, char stop2)
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
		i++;
	}
}

/*
 * hd_vec_push for the model's vectors, whose element size is known
 * here: the zeroing is a few stores instead of a memset call (a push or
 * two per line).  hd_vec_push itself grows a full vector.  The record is
 * zeroed 32 bytes at a time: GCC makes each constant 32-byte memset two
 * 16-byte stores, where one memset of a whole record (24 to 128 bytes)
 * becomes a `rep stos`, slow to start for so few bytes.
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

/* The hashes of a shape for hd_alloc_value (shape_hash, bare_hash). */
struct shape_hashes {
	uint64_t whole, bare;
};

/* hd_slice_eq for the names a record and its instruction line compare
 * (most of 16 to 32 bytes). */
static inline int name_eq(struct hd_slice a, struct hd_slice b)
{
	return a.n == b.n && hd_scan_same(a.p, b.p, a.n);
}

static inline struct hd_slice default_index(void)
{
	return hd_slice_make("{}", 2);
}

/* hd_ps_file_pending(ps, 1) inline while nothing is pending: the live-range
 * and peak lines (every line after the allocations) ask first. */
static inline int pending_filed(struct parser *ps)
{
	return ps->pending.len ? hd_ps_file_pending(ps, 1) : 0;
}

/* Parses the short form "<ID NAME[{IDX}][ (phi)][ @C]>" at the start of
 * *s (take_short_form in parse_alloc.c), for a record's line. */
int hd_ps_record_short_form(struct parser *ps, struct hd_slice line,
			    struct hd_slice *s, uint32_t *out);

/*
 * The bytes of the lines a line's reading reads after it at most
 * (hd_ps_record -> first_position -> usual_uses, sequence_lines):
 * parse_lines moves the input's window (hd_input_pass_at) at the line
 * after them, not much later than it would have at each line.  No such
 * reader takes a line of LINES_AHEAD_MAX bytes or more, and each stops
 * once LINES_AHEAD_MAX bytes are behind it, so what they return adds up
 * in an int even for a line of gigabytes, which parse_lines reads
 * itself.
 */
#define LINES_AHEAD_MAX ((ptrdiff_t)64 << 10)

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

#endif
