/*
 * canon.c - canonical and structural hashes of instructions and values
 * (see canon.h for what is kept and what is dropped).
 */
#include "hlodiff/canon.h"

#include <stdlib.h>
#include <string.h>

/* inlined: most inputs are short names, where a call dominates */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "hlodiff/arena.h"
#include "hlodiff/bytes.h"
#include "hlodiff/diag.h"
#include "hlodiff/index.h"
#include "hlodiff/parse.h"
#include "hlodiff/scan.h"
#include "hlodiff/shape.h"
#include "hlodiff/str.h"


/* A growable byte buffer, reused for every instruction. */
struct cbuf {
	char *p;
	size_t n, cap;
};

static void cbuf_reserve(struct cbuf *b, size_t extra)
{
	size_t want = b->n + extra;

	if (want <= b->cap)
		return;
	if (b->cap == 0)
		b->cap = 256;
	while (b->cap < want)
		b->cap *= 2;
	b->p = hd_xrealloc(b->p, b->cap);
}

static void cbuf_add(struct cbuf *b, const char *s, size_t n)
{
	if (n == 0)
		return;
	cbuf_reserve(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

/* The end of the run of digits at p[i] (i when there is none). */
static size_t digits_end(const char *p, size_t n, size_t i)
{
	while (i < n && hd_is_digit(p[i]))
		i++;
	return i;
}

/*
 * Length of the first '.'-part of name when it is a sanitised GPU
 * constant "constant_N[_N...]" (then only "constant" is kept), else 0.
 */
static size_t constant_prefix(const char *p, size_t n)
{
	static const char word[] = "constant";
	size_t w = sizeof(word) - 1, i;

	if (n <= w + 1 || memcmp(p, word, w) != 0 || p[w] != '_')
		return 0;
	i = w;
	while (i < n && p[i] == '_') {
		size_t j = digits_end(p, n, i + 1);

		if (j == i + 1)
			return 0;
		i = j;
	}
	if (i < n && p[i] != '.')
		return 0;
	return i;
}

/*
 * The length of the stripped form of name when it is a prefix of it
 * (the common "stem" or "stem.N": no other '.', not a GPU constant),
 * else 0.
 */
static size_t strip_prefix(const char *p, size_t n)
{
	size_t j = n, keep;

	while (j > 0 && hd_is_digit(p[j - 1]))
		j--;
	keep = j < n && j > 1 && p[j - 1] == '.' ? j - 1 : n;
	if (memchr(p, '.', keep) || constant_prefix(p, n))
		return 0;
	return keep;
}

size_t hd_canon_name(char *out, struct hd_slice name)
{
	const char *p = name.p;
	size_t n = name.n, i = 0, o = 0, part;

	if (n == 0)
		return 0;
	/* First part: kept, except the id groups of a sanitised constant. */
	part = constant_prefix(p, n);
	if (part) {
		memcpy(out, "constant", 8);
		o = 8;
		i = part;
	} else {
		while (i < n && p[i] != '.')
			out[o++] = p[i++];
	}
	/* Later parts: digits dropped when they are the whole part or are
	 * followed by '_'. */
	while (i < n) {
		size_t start = i + 1, j = digits_end(p, n, start);

		if (j > start && (j == n || p[j] == '.')) {
			i = j;
			continue;
		}
		out[o++] = '.';
		if (j > start && p[j] == '_')
			start = j;
		for (i = start; i < n && p[i] != '.'; i++)
			out[o++] = p[i];
	}
	return o;
}

static void add_name(struct cbuf *b, struct hd_slice name)
{
	if (name.n == 0)
		return;
	cbuf_reserve(b, name.n);
	b->n += hd_canon_name(b->p + b->n, name);
}

/* The first c in s[i, n) (n when none). */
static size_t find_byte(const char *s, size_t n, size_t i, char c)
{
	const char *q = i < n ? memchr(s + i, c, n - i) : NULL;

	return q ? (size_t)(q - s) : n;
}

/*
 * The canonical text is never built whole: it is written in pieces to a
 * sink, a small buffer that is hashed with XXH3's streaming state each
 * time it fills (or, for hd_canon_insn_text, appended to a text).  An
 * instruction whose text fits the buffer, nearly all of them, is hashed
 * in one call, which gives the same hash as the streaming state.  So
 * hashing costs no memory in the size of the instruction (a 256 MiB
 * instruction line needs 8 KiB, not a 256 MiB copy), only in that of
 * its longest name.
 */
#ifndef CANON_SINK_CAP
#define CANON_SINK_CAP 8192
#endif

struct plain_memo;

struct sink {
	char *o, *end;          /* write position, end of buf */
	int flushed;            /* the buffer was hashed (or appended) before */
	struct cbuf *text;      /* text mode: the text goes here */
	XXH3_state_t *st;       /* hash mode: the streaming state */
	struct plain_memo *memo; /* attributes kept, or NULL */
	char buf[CANON_SINK_CAP];
};

static void sink_begin(struct sink *k)
{
	k->o = k->buf;
	k->end = k->buf + CANON_SINK_CAP;
	k->flushed = 0;
}

static void sink_flush(struct sink *k)
{
	size_t n = (size_t)(k->o - k->buf);

	if (k->text) {
		cbuf_add(k->text, k->buf, n);
	} else {
		if (!k->flushed)
			XXH3_64bits_reset(k->st);
		XXH3_64bits_update(k->st, k->buf, n);
	}
	k->flushed = 1;
	k->o = k->buf;
}

/* The hash of everything written since sink_begin (hash mode). */
static uint64_t sink_hash(struct sink *k)
{
	size_t n = (size_t)(k->o - k->buf);

	if (!k->flushed)
		return XXH3_64bits(k->buf, n);
	XXH3_64bits_update(k->st, k->buf, n);
	return XXH3_64bits_digest(k->st);
}

/* The fast paths are inlined: they run for every piece of every text. */
#define SINK_INLINE static inline __attribute__((always_inline))

SINK_INLINE void sink_byte(struct sink *k, char c)
{
	if (k->o == k->end)
		sink_flush(k);
	*k->o++ = c;
}

SINK_INLINE void sink_bytes(struct sink *k, const char *s, size_t n)
{
	while (n) {
		size_t room = (size_t)(k->end - k->o), c = n < room ? n : room;

		if (room == 0) {
			sink_flush(k);
			continue;
		}
		memcpy(k->o, s, c);
		k->o += c;
		s += c;
		n -= c;
	}
}

/* Writes the stripped form of name (hd_canon_name); one longer than the
 * buffer is stripped in a copy. */
static void sink_name(struct sink *k, struct hd_slice name)
{
	char *tmp;

	if (name.n > (size_t)(k->end - k->o)) {
		if (name.n > CANON_SINK_CAP) {
			tmp = hd_xmalloc(name.n);
			sink_bytes(k, tmp, hd_canon_name(tmp, name));
			free(tmp);
			return;
		}
		sink_flush(k);
	}
	if (name.n)
		k->o += hd_canon_name(k->o, name);
}

/*
 * The walks below look for a few special bytes, set in these tables;
 * the plain bytes between two are written with one copy.
 */
/* Bytes that start something put_operands must look at. */
static const unsigned char special[256] = {
	['"'] = 1, ['%'] = 1, ['/'] = 1,
};

/* Bytes that matter while walking an attribute list. */
static const unsigned char attr_special[256] = {
	['"'] = 1, ['('] = 1, [')'] = 1, ['['] = 1, [']'] = 1, ['{'] = 1,
	['}'] = 1, [','] = 1, ['%'] = 1,
};

/* The first byte at or after i that tab marks (n when none). */
static size_t next_special(const unsigned char *tab, const char *s,
			   size_t n, size_t i)
{
	while (i < n && !tab[(unsigned char)s[i]])
		i++;
	return i;
}

/*
 * The bytes a walk may read around the slice it walks: the whole
 * instruction text when the slice lies inside it (as the parser's slices
 * do), else the slice itself.  The name fast paths below load 32 bytes
 * at a time from it, so a short operand list or a name near the end of
 * a slice is still classified with vector loads.
 */
struct win {
	const char *p;
	size_t n;
};

/* The window for slice t of insn: its text when t lies inside it. */
static inline struct win win_of(const struct hd_insn *insn, struct hd_slice t)
{
	uintptr_t a = (uintptr_t)insn->text.p, b = (uintptr_t)t.p;
	struct win w;

	if (b - a <= insn->text.n && t.n <= insn->text.n - (b - a)) {
		w.p = insn->text.p;
		w.n = insn->text.n;
	} else {
		w.p = t.p;
		w.n = t.n;
	}
	return w;
}

/*
 * The length of the stripped form of a name of len < 32 bytes when it is
 * a prefix of the name ("stem" or "stem.N": no other '.', not a GPU
 * constant; strip_prefix), else 0.  dots and digits are the name's masks
 * of '.' and digit bytes (bit k: byte k, bits from len on ignored).
 */
static inline size_t stem_len(const char *p, uint64_t dots, uint64_t digits,
			      size_t len)
{
	uint64_t below = ((uint64_t)1 << len) - 1, after;
	size_t d;

	dots &= below;
	if (dots == 0) {
		d = len;
	} else {
		d = (size_t)__builtin_ctzll(dots);
		/* the bytes after the first dot: one or more, all digits
		 * (so no other dot), and the dot not the first byte */
		after = below & ~(((uint64_t)2 << d) - 1);
		if (d == 0 || after == 0 || (after & ~digits))
			return 0;
	}
	if (d > 8 && p[0] == 'c' && p[3] == 's' && constant_prefix(p, len))
		return 0;
	return d;
}

/*
 * The 32 bytes of window v around its byte q (q <= v->n, and v->n >=
 * 32): loaded from q when they lie in the window, else the last 32 bytes
 * of it, with shift the position of q among them (32 when q is the end:
 * every mask is then 0).
 */
struct v32 {
	hd_v16 lo, hi;
	unsigned shift;
};

static inline void v32_load(struct v32 *x, const struct win *v, size_t q)
{
	size_t from = v->n - q >= 32 ? q : v->n - 32;

	x->shift = (unsigned)(q - from);
	x->lo = hd_v_load(v->p + from);
	x->hi = hd_v_load(v->p + from + 16);
}

/* The mask of bytes of x (bit k: byte k from q) where vector test f
 * holds; bytes past the window are 0. */
#define V32_MASK(x, f) \
	(((uint64_t)hd_v_mask(f((x)->hi)) << 16 | \
	  hd_v_mask(f((x)->lo))) >> (x)->shift)

static inline hd_v16 v_dot(hd_v16 x)
{
	return hd_v_eq(x, '.');
}

static inline hd_v16 v_digit(hd_v16 x)
{
	return hd_v_in_range(x, '0', '9');
}

/*
 * Writes the d < 32 bytes of x from q to k: the two loaded vectors are
 * stored whole when they start at q and the buffer has room (the bytes
 * past d are overwritten later), else copied.
 */
static inline void sink_v32(struct sink *k, const struct v32 *x,
			    const char *at, size_t d)
{
	if (x->shift == 0 && (size_t)(k->end - k->o) >= 32) {
		hd_v_store(k->o, x->lo);
		hd_v_store(k->o + 16, x->hi);
		k->o += d;
		return;
	}
	sink_bytes(k, at, d);
}

/*
 * Writes the stripped form of the name at s[i] (a slice of n bytes inside
 * window v) to k and returns the name's length.  A name of fewer than 32
 * bytes whose stripped form is a prefix of it (stem_len) is classified
 * with two 16-byte loads inside the window and copied whole; the rest
 * goes through hd_scan_name_span and sink_name.
 */
SINK_INLINE size_t sink_name_at(struct sink *k, const char *s, size_t n,
				  size_t i, const struct win *v)
{
	struct hd_slice name;

	if (v->n >= 32) {
		struct v32 x;
		uint64_t other, len, d, lim = n - i;

		v32_load(&x, v, (size_t)(s + i - v->p));
		/* bit k: byte i + k; bytes past the window (0 in the mask)
		 * and past the slice end the name */
		other = ~V32_MASK(&x, hd_v_name);
		if (lim < 32)
			other |= ~(uint64_t)0 << lim;
		len = (uint64_t)__builtin_ctzll(other);
		if (len < 32) {
			d = stem_len(s + i, V32_MASK(&x, v_dot),
				     V32_MASK(&x, v_digit), len);
			if (d) {
				sink_v32(k, &x, s + i, d);
				return len;
			}
		}
	}
	name = hd_slice_make(s + i, hd_scan_name_span(s + i, n - i, s + n));
	sink_name(k, name);
	return name.n;
}

/*
 * Writes the stripped form of the instruction's name.  The parser's name
 * may be a copy outside the text (the value record's); the text starts
 * with the same bytes ("%NAME = "), which the fast path of sink_name_at
 * then reads in place.
 */
static void sink_insn_name(struct sink *k, const struct hd_insn *insn)
{
	struct hd_slice name = insn->name, t = insn->text;
	size_t at = t.n && t.p[0] == '%';

	if (t.n >= 32 && name.n < 32 && name.n && at + name.n <= t.n &&
	    hd_bytes_eq(t.p + at, name.p, name.n)) {
		struct win v = { t.p, t.n };
		struct v32 x;
		size_t d;

		v32_load(&x, &v, at);
		d = stem_len(t.p + at, V32_MASK(&x, v_dot),
			     V32_MASK(&x, v_digit), name.n);
		if (d) {
			sink_v32(k, &x, t.p + at, d);
			return;
		}
	}
	sink_name(k, name);
}

struct work;
static void add_ref(struct work *w, struct hd_slice name);
static void pre_add(struct hd_canon_pre *p, struct hd_slice name);

/*
 * put_operands' step at an operand name s[i] (just past its '%'):
 * writes the plain bytes from cs and the stripped name, resolves the
 * name (add_ref with w, pre_add with pre) and returns where it ends.
 */
SINK_INLINE size_t put_operand_name(struct sink *k, const char *s, size_t n,
				    size_t cs, size_t i, const struct win *v,
				    struct work *w, struct hd_canon_pre *pre)
{
	struct hd_slice name;

	sink_bytes(k, s + cs, i - cs);
	name = hd_slice_make(s + i, sink_name_at(k, s, n, i, v));
	if (w)
		add_ref(w, name);
	else if (pre)
		pre_add(pre, name);
	return i + name.n;
}

/*
 * Writes text with every %name stripped (hd_canon_name), string
 * literals copied as they are and comments ("/ *index=5* /") dropped.
 * With w, every %name is also resolved as an operand (add_ref); with
 * pre, kept for hd_canon_compute to resolve (pre_add).  Plain bytes
 * since cs are written when something changes and at the end.
 */
static void put_operands(struct sink *k, const struct hd_insn *insn,
			 struct work *w, struct hd_canon_pre *pre)
{
	struct hd_slice t = insn->operands;
	const char *s = t.p;
	size_t n = t.n, i = 0, cs = 0, j;
	struct win v;

	if (n == 0)
		return;
	v = win_of(insn, t);
	while ((j = next_special(special, s, n, i)) < n) {
		if (s[j] == '"') {
			i = hd_scan_string_end(s, n, j);
		} else if (s[j] == '/') {
			const char *end;

			i = j + 1;
			if (i == n || s[i] != '*')
				continue;
			sink_bytes(k, s + cs, j - cs);
			end = memmem(s + i + 1, n - i - 1, "*/", 2);
			i = cs = end ? (size_t)(end - s) + 2 : n;
		} else {
			i = cs = put_operand_name(k, s, n, cs, j + 1, &v, w, pre);
		}
	}
	sink_bytes(k, s + cs, n - cs);
}

/* Is the string s (n bytes, quotes included) the JSON key of an id in a
 * backend_config (see canon.h)? */
#define ID_KEY_IS(s, n, lit) ((n) == sizeof(lit) - 1 && \
			      memcmp((s), (lit), sizeof(lit) - 1) == 0)

static int is_id_key(const char *s, size_t n)
{
	return ID_KEY_IS(s, n, "\"operation_queue_id\"") ||
	       ID_KEY_IS(s, n, "\"wait_on_operation_queues\"") ||
	       ID_KEY_IS(s, n, "\"fusion_id\"");
}

/* Index just past the JSON value starting at s[i] (after spaces). */
static size_t skip_json_value(const char *s, size_t n, size_t i)
{
	int depth = 0;

	while (i < n && s[i] == ' ')
		i++;
	while (i < n) {
		char c = s[i];

		if (c == '"') {
			i = hd_scan_string_end(s, n, i);
			if (depth == 0)
				return i;
			continue;
		}
		if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (depth == 0)
				return i;
			if (--depth == 0)
				return i + 1;
		} else if (c == ',' && depth == 0) {
			return i;
		}
		i++;
	}
	return n;
}

enum attr_mode {
	ATTR_COPY,     /* copied with %names stripped */
	ATTR_DROP,     /* left out */
	ATTR_KEY,      /* only the key is kept */
	ATTR_BACKEND,  /* copied without the values of id keys */
};

/* Is key the literal lit?  The length is compared first (no strlen):
 * most keys are none of the few looked for. */
#define KEY_IS(key, lit) ((key).n == sizeof(lit) - 1 && \
			  memcmp((key).p, (lit), sizeof(lit) - 1) == 0)

static enum attr_mode attr_mode_of(struct hd_slice key)
{
	if (KEY_IS(key, "metadata") || KEY_IS(key, "control-predecessors"))
		return ATTR_DROP;
	if (KEY_IS(key, "channel_id"))
		return ATTR_KEY;
	if (KEY_IS(key, "backend_config"))
		return ATTR_BACKEND;
	return ATTR_COPY;
}

/* Does a byte sequence at s[k] (k + 1 < n) make walk_attr look closer
 * (attr_runs_plain)? */
static inline int attr_stop_at(const char *s, size_t n, size_t k,
			       enum attr_mode mode)
{
	if (s[k] == ',' && s[k + 1] == ' ')
		return 1;
	if (mode == ATTR_BACKEND && k + 3 < n && s[k + 3] == '"')
		return (s[k] == '_' && s[k + 1] == 'i' && s[k + 2] == 'd') ||
		       (s[k] == 'u' && s[k + 1] == 'e' && s[k + 2] == 's');
	return 0;
}

/*
 * The last few backend_config values found to run plain (copied whole:
 * no ", ", no id key), kept as copies.  A dump repeats a few configs
 * over thousands of fusions; one equal to a kept copy (memcmp, a few
 * instructions per 32 bytes) is plain without the scan.
 */
#define MEMO_SLOTS 8
#define MEMO_MAX 2048

/*
 * And the last attributes written as they are (kind=kLoop,
 * sharding={replicated}: no '%'), followed by ", ", of 8 to ATTR_MAX
 * bytes, by their first 8 bytes: most instructions of an opcode have
 * the same few, and one equal to a kept one is written without the
 * walk.  The same bytes followed by ", " (or the
 * end) are the same attribute: the walk ends at that ", " whatever
 * comes after.  Also kept: an attribute that is one %name whose
 * stripped form is a prefix of it ("calls=%fused_computation" of
 * calls=%fused_computation.12), which the same bytes followed by
 * nothing or ".DIGITS" (then ", " or the end) give again: an all-digit
 * part is dropped (hd_canon_name).
 */
#define ATTR_SLOTS 64
#define ATTR_SLOT_BITS 6
#define ATTR_MAX 29

struct plain_memo {
	size_t len[MEMO_SLOTS];         /* 0: empty */
	char *text[MEMO_SLOTS];         /* MEMO_MAX bytes each, or NULL */
	unsigned next;                  /* the slot taken next */
	uint64_t attr_head[ATTR_SLOTS];         /* the first 8 bytes */
	unsigned char attr_len[ATTR_SLOTS];     /* 0: empty */
	unsigned char attr_named[ATTR_SLOTS];   /* "key=%stem" */
	char attr[ATTR_SLOTS][ATTR_MAX];
};

/* Does an attribute that runs to s[e] end there: at ", " or at the end
 * of the slice? */
static inline int ends_attr(const char *s, size_t n, size_t e)
{
	return e == n || (s[e] == ',' && e + 1 < n && s[e + 1] == ' ');
}

/* The attr_memo slot of an attribute whose first 8 bytes are head. */
static unsigned attr_slot(uint64_t head)
{
	return (unsigned)((head * 0x9e3779b97f4a7c15ULL) >> (64 - ATTR_SLOT_BITS));
}

/*
 * The length of the kept attribute (attr_memo) that s[i, n) starts
 * with, 0 when none; *end is where the attribute ends (at ", " or n).
 */
static size_t attr_memo_len(const struct plain_memo *m, const char *s,
			    size_t n, size_t i, size_t *end)
{
	uint64_t head;
	unsigned k;
	size_t len, e;

	memcpy(&head, s + i, 8);
	k = attr_slot(head);
	len = m->attr_len[k];
	if (len == 0 || m->attr_head[k] != head || len > n - i)
		return 0;
	if (memcmp(s + i, m->attr[k], len) != 0)
		return 0;
	e = i + len;
	if (m->attr_named[k] && e < n && s[e] == '.') {
		size_t q = digits_end(s, n, e + 1);

		if (q == e + 1)
			return 0;
		e = q;
	}
	if (!ends_attr(s, n, e))
		return 0;
	*end = e;
	return len;
}

/* Keeps s[0, len) (8 <= len <= ATTR_MAX) in the attribute memo. */
static void attr_memo_set(struct plain_memo *m, const char *s, size_t len,
			  int named)
{
	uint64_t head;
	unsigned k;

	memcpy(&head, s, 8);
	k = attr_slot(head);
	memcpy(m->attr[k], s, len);
	m->attr_head[k] = head;
	m->attr_len[k] = (unsigned char)len;
	m->attr_named[k] = (unsigned char)named;
}

/*
 * Keeps the copied attribute a[0, len), its '=' at a[eq], when the memo
 * may: it has no '%', or its value is one %name whose stripped form is
 * a prefix of it (strip_prefix), then kept as "key=%stem".
 */
static void attr_memo_put(struct plain_memo *m, const char *a, size_t len,
			  size_t eq)
{
	const char *pct = memchr(a, '%', len);
	size_t nl = len - eq - 2, d;

	if (len < 8)
		return;
	if (!pct) {
		if (len <= ATTR_MAX)
			attr_memo_set(m, a, len, 0);
		return;
	}
	if (pct != a + eq + 1 || hd_scan_name_span(pct + 1, nl, a + len) != nl)
		return;
	d = strip_prefix(pct + 1, nl);
	if (d && eq + 2 + d <= ATTR_MAX && eq + 2 + d >= 8)
		attr_memo_set(m, a, eq + 2 + d, 1);
}

/* Is s[0, n) a kept value? */
static int memo_has(const struct plain_memo *m, const char *s, size_t n)
{
	unsigned i;

	for (i = 0; i < MEMO_SLOTS; i++)
		if (m->len[i] == n && memcmp(m->text[i], s, n) == 0)
			return 1;
	return 0;
}

/* Keeps s[0, n) (0 < n <= MEMO_MAX), found plain. */
static void memo_put(struct plain_memo *m, const char *s, size_t n)
{
	unsigned i = m->next;

	m->next = (i + 1) % MEMO_SLOTS;
	if (!m->text[i])
		m->text[i] = hd_xmalloc(MEMO_MAX);
	memcpy(m->text[i], s, n);
	m->len[i] = n;
}

static void memo_free(struct plain_memo *m)
{
	unsigned i;

	for (i = 0; i < MEMO_SLOTS; i++)
		free(m->text[i]);
}

/*
 * Does the value from s[i] run to the end unchanged (mode ATTR_DROP or
 * ATTR_BACKEND)?  It does when s[i, n) holds no ", " (so no end before
 * n), and in ATTR_BACKEND no "_id\"" or "ues\"" (the last bytes of every
 * id key): the usual last attribute, a compact backend_config, is then
 * copied whole after one pass over its bytes.
 * The pass stops at the first such sequence (most often the end of the
 * value), so a value that must be walked costs at most its length again.
 */
static int attr_runs_plain(const char *s, size_t n, size_t i,
			   enum attr_mode mode)
{
	for (; i + 1 < n; i++)
		if (attr_stop_at(s, n, i, mode))
			return 0;
	return 1;
}

/*
 * attr_runs_plain for a backend_config value s[i, n): a kept one is, else
 * it is scanned (and kept when it is).
 */
static int backend_plain(struct sink *k, const char *s, size_t n, size_t i)
{
	size_t len = n - i;
	int plain;

	if (k->memo && len <= MEMO_MAX && memo_has(k->memo, s + i, len))
		return 1;
	plain = attr_runs_plain(s, n, i, ATTR_BACKEND);
	if (plain && k->memo && len && len <= MEMO_MAX)
		memo_put(k->memo, s + i, len);
	return plain;
}

/*
 * Walks one attribute value from s[i] to the ", " that ends it at
 * bracket depth 0 (or the end), writing it to k as mode says.
 * Returns the index of the end.  Plain bytes since cs are written when
 * something changes and at the end.
 */
static size_t walk_attr(struct sink *k, const char *s, size_t n, size_t i,
			enum attr_mode mode, const struct win *v)
{
	int depth = 0;
	size_t cs = i, j;

	if (i >= n)
		return n;
	/* An attribute copied with its %names stripped is walked at once:
	 * most are short and followed by more (", " a few bytes on),
	 * where the check of attr_runs_plain cost more than it saved. */
	if (mode == ATTR_BACKEND ? backend_plain(k, s, n, i) :
	    mode != ATTR_COPY && attr_runs_plain(s, n, i, mode)) {
		if (mode != ATTR_DROP)
			sink_bytes(k, s + i, n - i);
		return n;
	}
	while ((j = next_special(attr_special, s, n, i)) < n) {
		char c = s[j];

		i = j + 1;
		if (c == '"') {
			i = hd_scan_string_end(s, n, j);
			if (mode == ATTR_BACKEND && i < n && s[i] == ':' &&
			    is_id_key(s + j, i - j)) {
				sink_bytes(k, s + cs, i + 1 - cs);
				i = cs = skip_json_value(s, n, i + 1);
			}
		} else if (c == ',') {
			if (depth == 0 && i < n && s[i] == ' ') {
				i = j;
				break;
			}
		} else if (c == '%') {
			if (mode == ATTR_COPY) {
				sink_bytes(k, s + cs, i - cs);
				i = cs = i + sink_name_at(k, s, n, i, v);
			}
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (depth > 0) {
			depth--;
		}
	}
	if (j >= n)
		i = n;
	if (mode != ATTR_DROP)
		sink_bytes(k, s + cs, i - cs);
	return i;
}

/*
 * Where the metadata={...} item starting at s[k] (its '=') ends, taken
 * from the parser's metadata slice when it lies there; 0 when unknown.
 */
static size_t metadata_end(const struct hd_insn *insn, const char *s,
			   size_t n, size_t k)
{
	struct hd_slice meta = hd_insn_metadata(insn);
	size_t end;

	if (!meta.p || meta.p != s + k + 2 || s[k + 1] != '{')
		return 0;
	end = k + 2 + meta.n;
	if (end >= n || s[end] != '}')
		return 0;
	end++;
	return end == n || (end + 1 < n && s[end] == ',') ? end : 0;
}

/* Writes the attributes that define the computation (canon.h). */
static void put_attrs(struct sink *o, const struct hd_insn *insn)
{
	const char *s = insn->attrs.p;
	size_t n = insn->attrs.n, i = 0;
	struct win v;

	if (n == 0)
		return;
	v = win_of(insn, insn->attrs);
	while (i < n) {
		size_t k, e;
		enum attr_mode mode;
		size_t skip = 0;

		/* an attribute kept before (attr_memo_len) */
		if (o->memo && n - i >= 8) {
			size_t len = attr_memo_len(o->memo, s, n, i, &e);

			if (len) {
				sink_bytes(o, s + i, len);
				sink_byte(o, '\0');
				i = e < n ? e + 2 : n;
				continue;
			}
		}
		k = find_byte(s, n, i, '=');
		mode = attr_mode_of(hd_slice_make(s + i, k - i));
		if (mode == ATTR_DROP && k < n)
			skip = metadata_end(insn, s, n, k);
		if (skip) {
			i = skip < n ? skip + 2 : n;
			continue;
		}
		if (mode != ATTR_DROP) {
			/* the key and its '=' (written when there is none) */
			if (k < n) {
				sink_bytes(o, s + i, k + 1 - i);
			} else {
				sink_bytes(o, s + i, k - i);
				sink_byte(o, '=');
			}
		}
		e = walk_attr(o, s, n, k < n ? k + 1 : n,
			      mode == ATTR_KEY ? ATTR_DROP : mode, &v);
		if (mode != ATTR_DROP)
			sink_byte(o, '\0');
		/* followed by ", ": kept when the memo may */
		if (mode == ATTR_COPY && o->memo && k < n && e < n)
			attr_memo_put(o->memo, s + i, e - i, k - i);
		i = e < n ? e + 2 : n;
	}
}

/*
 * Writes the canonical text of insn to k; with w, also resolves its
 * operands, with pre keeps them (put_operands).
 */
static void insn_text(struct sink *k, const struct hd_insn *insn,
		      struct work *w, struct hd_canon_pre *pre)
{
	sink_insn_name(k, insn);
	sink_byte(k, '\0');
	sink_bytes(k, insn->opcode.p, insn->opcode.n);
	sink_byte(k, '\0');
	sink_bytes(k, insn->shape.p, insn->shape.n);
	sink_byte(k, '\0');
	put_operands(k, insn, w, pre);
	sink_byte(k, '\0');
	put_attrs(k, insn);
}

size_t hd_canon_insn_text(const struct hd_insn *insn, char **buf,
			  size_t *cap)
{
	struct cbuf b = { *buf, 0, *cap };
	struct sink *k = hd_xmalloc(sizeof(*k));

	k->text = &b;
	k->st = NULL;
	k->memo = NULL;
	sink_begin(k);
	insn_text(k, insn, NULL, NULL);
	sink_flush(k);
	free(k);
	*buf = b.p;
	*cap = b.cap;
	return b.n;
}

/* ------------------------------------------------------------------ */
/* Operand references and the structural hash                          */

static uint64_t hash_buf(const struct cbuf *b)
{
	return XXH3_64bits(b->p ? b->p : "", b->n);
}

/*
 * Arrays of sizes known at once, carved from one block (hd_vec_block):
 * one mapping backed by 2 MiB pages where a big input makes it big, in
 * place of a calloc per array whose 4 KiB pages would each fault (and
 * be zeroed) one by one.  Every piece is zeroed, as from calloc: a mapped
 * block comes zeroed from the kernel, one from malloc is zeroed here.
 * Pieces are 64-byte aligned, so no two share a cache line.
 */
#define CARVE_ALIGN 64

struct carve {
	char *p, *end;
};

/* The bytes a piece of n elements of elem bytes takes in a block. */
static size_t carve_bytes(size_t n, size_t elem)
{
	if (n == 0)
		n = 1;
	if (n > (SIZE_MAX - CARVE_ALIGN) / elem)
		hd_die("out of memory");
	return (n * elem + CARVE_ALIGN - 1) & ~(size_t)(CARVE_ALIGN - 1);
}

/* Takes a block of bytes (the sum of carve_bytes of its pieces) into
 * mem, freed with hd_vec_release. */
static void carve_begin(struct carve *k, struct hd_vec *mem, size_t bytes)
{
	char *p;

	*mem = (struct hd_vec)HD_VEC_INIT(char);
	if (bytes > SIZE_MAX - CARVE_ALIGN)
		hd_die("out of memory");
	p = hd_vec_block_zeroed(mem, 1, bytes + CARVE_ALIGN);
	k->p = p + (CARVE_ALIGN - (uintptr_t)p % CARVE_ALIGN) % CARVE_ALIGN;
	k->end = k->p + bytes;
}

static void *carve(struct carve *k, size_t n, size_t elem)
{
	size_t b = carve_bytes(n, elem);
	char *p = k->p;

	if (b > (size_t)(k->end - p))
		HD_BUG("carve: block too small");
	k->p += b;
	return p;
}

/*
 * A name filed in the names table, in filing order (struct work's
 * names indexes them by hash): its XXH3-64 and the target it resolves to.
 */
struct name_rec {
	uint64_t h;
	uint32_t target;        /* insn, or value | REF_VALUE */
};

/*
 * Targets in the names table: an instruction, or a value (this bit).
 * An operand reference (struct work's refs) is one of these, or an
 * unresolved name: REF_LEAF | the index of its hash in the leaf table;
 * or REF_REPEAT | N: the code before it N more times (an instruction
 * with millions of operands of one name costs a few codes).
 */
#define REF_VALUE 0x80000000u
#define REF_LEAF 0x40000000u
#define REF_REPEAT 0xc0000000u
#define REF_TAG 0xc0000000u
#define REF_INDEX 0x3fffffffu

/* The keys of record k of the names table and of leaf k
 * (hd_index_key64_fn). */
static uint64_t name_key(const void *ctx, uint32_t k)
{
	return ((const struct name_rec *)ctx)[k].h;
}

static uint64_t leaf_key(const void *ctx, uint32_t k)
{
	return ((const uint64_t *)ctx)[k];
}

/*
 * The hashes of the unresolved operand names, each once: a name that
 * resolves to nothing ("p" of every %p.N of a huge concatenate) costs a
 * 4-byte reference, not a hash per operand.
 */
struct leaves {
	uint64_t *h;            /* by leaf index */
	uint32_t n, cap;
	struct hd_index x;      /* hash -> leaf index */
};

/*
 * Operand names are resolved after their instruction's text is written:
 * add_ref hashes the name and fetches its table slot ahead, and the
 * lookups run when the text is done (or PEND_MAX names wait), by when
 * the slots have come in from memory.  The order of the references is
 * that of the operands.
 */
#define PEND_MAX 16

struct pending {
	uint64_t h;
	struct hd_slice name;
};

/* An operand name kept for resolution: its hash and length, and where it
 * is in its instruction's text (read again only when it resolves to
 * nothing). */
struct pre_op {
	uint64_t h;
	uint32_t len, off;
};

/* A position whose name the parser hashed (pre_position): its
 * number among the dump's positions, and the XXH3-64 of its name.  Only
 * the few that build_names files by their own names are kept (not the
 * first of each value, the instruction's own name), in position order,
 * where one 8-byte hash per position would be mostly zeros. */
struct pre_pos {
	uint64_t h;
	uint32_t q;
};

/* op_first flag: the instruction kept no operands (over the budget), its
 * text is read again. */
#define PRE_WALK 0x80000000u

/* The operand records may take this share of the input's bytes. */
#define PRE_BUDGET_SHARE 8

/* What the parser keeps of an instruction (its canonical hash and
 * loose parts are kept apart, in hd_canon's layout: hd_canon_compute
 * takes both arrays as they are). */
struct pre_insn {
	uint64_t name_hash;     /* hd_insn's name_hash and name length, */
	uint32_t op_first;      /* its first operand record, | PRE_WALK */
	uint32_t name_len;      /* for build_names: the big hd_insn records
				 * are not read again */
};

/*
 * The arrays are hd_vecs reserved for the input's size at once
 * (PRE_BYTES_EACH): a big one then grows in place on 2 MiB pages where
 * the kernel can (arena.h), with no copies and few page faults; only
 * what is written takes memory.
 */
#define PRE_BYTES_EACH 256

struct hd_canon_pre {
	struct hd_vec insns;    /* struct pre_insn */
	struct hd_vec canon;    /* uint64_t per instruction: canonical hash */
	struct hd_vec loose;    /* uint64_t, HD_LOOSE_PARTS per instruction */
	struct hd_vec ops;      /* struct pre_op */
	size_t max_ops;         /* the budget of ops.len */
	struct hd_vec pos;      /* struct pre_pos: the positions hashed */
	size_t n_pos;           /* positions met, hashed or not */
	const char *base;       /* text of the instruction being hashed */
	int over;               /* it keeps no operands */
	int taken;              /* hd_canon_compute took the results */
	struct plain_memo memo;
	XXH3_state_t st;
	struct sink sink;
};

/* Folding a long operand list: words hashed this many at a time. */
#ifndef FOLD_CHUNK
#define FOLD_CHUNK 256
#endif

/* An instruction left for structural_late, its operand codes refs[a, b). */
struct late {
	uint32_t i, a, b;
};

struct work {
	const struct hd_dump *d;
	struct hd_canon *c;
	struct hd_index names;       /* operand name's hash -> name_rec */
	struct name_rec *name_rec;   /* by record number */
	uint32_t n_names;            /* records filed */
	struct cbuf buf;             /* scratch for values without insn */
	struct cbuf name;            /* scratch for leaf names */
	struct pending pend[PEND_MAX]; /* operands of the instruction being
					* hashed, not yet resolved */
	uint32_t n_pend;
	struct hd_vec refs;          /* uint32_t: REF_* codes of the operands
				      * of the late instructions, then of
				      * the one being hashed (settle drops
				      * them once it is hashed) */
	size_t cur_first;            /* first code of the instruction hashed */
	uint32_t last_code;          /* its last code other than a repeat */
	struct leaves leaves;
	uint8_t *done;               /* n_insns: structural hash known */
	struct late *late;           /* the instructions settle left for
				      * structural_late, in order */
	uint32_t n_late;
	uint32_t *owner;             /* per position: the value filed under
				      * it (build_names), or HD_NONE */
	size_t pos_next;             /* pre_pos_hash's place in pre->pos */
	XXH3_state_t st;             /* streaming hash of long texts */
	uint64_t words[FOLD_CHUNK];  /* scratch for folding */
	struct sink sink;            /* canonical text */
	struct hd_input_pass pass[3]; /* per input: the window kept resident */
	struct hd_canon_pre *pre;    /* what the parser kept, or NULL */
	int by_index;                /* instructions found by insn_named, not
				      * put in the names table: with pre, when
				      * d->insn_by_name files all of them */
	struct hd_vec scratch;       /* the block of done, late, owner, the
				      * names table and build_names' lists */
	struct carve cut;            /* what is left of it */
	struct hd_vec ops;           /* uint32_t: hd_canon's insn_ops */
};

/* Combines two 64-bit hashes (xorshift-multiply finaliser). */
static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

uint64_t hd_canon_mix(uint64_t h, uint64_t x)
{
	return mix(h, x);
}

/*
 * Canonical hashing reads the records and instruction lines a second
 * time, front to back, and keeps only a window of the dump resident
 * (input.h, hd_input_pass_at), so that a diff does not hold both dumps'
 * text resident again after the parser gave it back.
 */
static void pass_at(struct work *w, const char *at)
{
	hd_dump_pass_at(w->d, w->pass, at);
}

static void pass_begin(struct work *w)
{
	int k;

	for (k = 0; k < 3; k++)
		w->pass[k] = (struct hd_input_pass)HD_INPUT_PASS_INIT;
}

/*
 * Puts n names in order: the instructions' (pos NULL; target = index),
 * or positions pos[i] -> value val[i].  The name PUT_AHEAD places on is
 * hashed and its slot fetched before each insert, which then mostly hits
 * the cache.  The instructions' hashes come from the parser when it kept
 * them (hd_insn.name_hash), the positions' likewise (hd_canon_pre): then
 * no name is read.  (With the parser's results the instructions are not
 * put: insn_named finds them in the dump's own index.)
 */
#define PUT_AHEAD 16

/*
 * The parser's hash of the name of position q, or 0 (not kept).  Asked
 * in increasing q (put_names follows build_names' list), so the kept
 * positions are walked with a cursor, no search.
 */
static uint64_t pre_pos_hash(struct work *w, uint32_t q)
{
	const struct pre_pos *r = w->pre->pos.data;
	size_t n = w->pre->pos.len;

	while (w->pos_next < n && r[w->pos_next].q < q)
		w->pos_next++;
	return w->pos_next < n && r[w->pos_next].q == q ?
	       r[w->pos_next].h : 0;
}

/* The hash of name i of put_names. */
static uint64_t put_key(struct work *w, size_t i, const uint32_t *pos)
{
	const struct hd_dump *d = w->d;
	uint64_t h;

	if (!pos)
		h = HD_INSN(d, i).name_hash;
	else if (w->pre)
		h = pre_pos_hash(w, pos[i]);
	else
		h = 0;
	/* 0: not hashed by the parser (or a hash of 0, which hashing
	 * again gives) */
	return h ? h : hd_hash64(pos ? HD_POSITION(d, pos[i]).name :
				       HD_INSN(d, i).name);
}

/*
 * Files name hash h -> target.  An instruction is never replaced; a
 * value is replaced by a value of lower id, so the result does not
 * depend on the order of the values in the dump.
 */
static void name_put(struct work *w, uint64_t h, uint32_t target)
{
	struct name_rec *r = w->name_rec;
	uint32_t k = hd_index_put64(&w->names, h, w->n_names, name_key, r),
		 old;

	if (k == HD_NONE) {
		r[w->n_names].h = h;
		r[w->n_names++].target = target;
		return;
	}
	old = r[k].target;
	if ((old & REF_VALUE) && (target & REF_VALUE) &&
	    HD_VALUE(w->d, target & ~REF_VALUE).id <
		    HD_VALUE(w->d, old & ~REF_VALUE).id)
		r[k].target = target;
}

/* The target of the name of hash h, or HD_NONE.  Names are told apart
 * by their XXH3-64, not their bytes: comparing bytes would touch the
 * input again for every operand (a cache miss each), and two names of a
 * dump colliding on 64 bits has a chance of about n^2 / 2^65. */
static inline uint32_t name_target(const struct work *w, uint64_t h)
{
	uint32_t k = hd_index_find64(&w->names, h, name_key, w->name_rec);

	return k == HD_NONE ? HD_NONE : w->name_rec[k].target;
}

/* Starts loading the slots a lookup of h in the names table reads. */
static inline void names_prefetch(const struct work *w, uint64_t h)
{
	hd_index_prefetch(&w->names, hd_index_hash64(h));
}

static void put_names(struct work *w, size_t n, const uint32_t *pos,
		      const uint32_t *val)
{
	const struct hd_dump *d = w->d;
	uint64_t h[PUT_AHEAD];
	size_t i, j;

	/* name i goes to ring slot i % PUT_AHEAD once name i - PUT_AHEAD,
	 * which had it, is in */
	for (i = 0; i < n + PUT_AHEAD; i++) {
		if (i >= PUT_AHEAD) {
			j = i - PUT_AHEAD;
			name_put(w, h[j % PUT_AHEAD],
				 pos ? val[j] | REF_VALUE : (uint32_t)j);
			if (!w->pre && (j % PUT_AHEAD == PUT_AHEAD - 1 ||
					j + 1 == n))
				pass_at(w, pos ? HD_POSITION(d, pos[j]).name.p :
						 HD_INSN(d, j).name.p);
		}
		if (i < n) {
			h[i % PUT_AHEAD] = put_key(w, i, pos);
			names_prefetch(w, h[i % PUT_AHEAD]);
		}
	}
}

static void build_names(struct work *w)
{
	const struct hd_dump *d = w->d;
	uint32_t np = 0;
	size_t npos = d->positions.len, q, n_rec;
	uint32_t *owner, *pos, *val;

	if (d->values.len >= REF_LEAF || d->insns.len >= REF_LEAF)
		HD_BUG("too many values to match");
	/* The positions to file, visited in position order, which is the
	 * dump's text order (the result does not depend on the order, see
	 * name_put). */
	owner = w->owner;
	pos = carve(&w->cut, npos + 1, sizeof(uint32_t));
	val = carve(&w->cut, npos + 1, sizeof(uint32_t));
	for (q = 0; q < npos; q++) {
		const struct hd_position *p = &HD_POSITION(d, q);

		if (owner[q] == HD_NONE)
			continue;
		if (p->index.n && !hd_slice_eq_cstr(p->index, "{}"))
			continue;
		pos[np] = (uint32_t)q;
		val[np++] = owner[q];
	}
	w->owner = NULL;
	n_rec = (w->by_index ? 0 : d->insns.len) + np;
	hd_index_reserve(&w->names, n_rec);
	w->name_rec = carve(&w->cut, n_rec, sizeof(struct name_rec));
	if (!w->by_index)
		put_names(w, d->insns.len, NULL, NULL);
	pass_begin(w);
	w->pos_next = 0;
	put_names(w, np, pos, val);
}

/*
 * The instruction named (hash h, length len) in a dump the parser hashed
 * (w->by_index), or HD_NONE.  The parser files every instruction in
 * d->insn_by_name by its name's XXH3-64 and keeps the whole hash and the
 * length (struct pre_insn), which the lookup compares, as name_target
 * does: so the names table need not hold the instructions, and the
 * parser's index is in memory already.  Of two names of the same hash and
 * length (see name_target) it gives the one it meets first.
 */
struct named_key {
	const struct pre_insn *pi;
	uint64_t h;
	size_t len;
};

static inline int is_named(const void *arg, uint32_t idx)
{
	const struct named_key *k = arg;

	return k->pi[idx].name_hash == k->h && k->pi[idx].name_len == k->len;
}

static inline uint32_t insn_named(const struct work *w, uint64_t h,
				  size_t len)
{
	const struct hd_index *x = &w->d->insn_by_name;
	struct named_key k = { w->pre->insns.data, h, len };

	if (!x->slots)
		return HD_NONE;
	return hd_index_probe(x, (uint32_t)h, is_named, &k)->idx;
}

/* The leaf index of hash h, added when new. */
static uint32_t leaf_of(struct leaves *l, uint64_t h)
{
	uint32_t k;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->h = hd_xrealloc(l->h, l->cap * sizeof(uint64_t));
	}
	k = hd_index_put64(&l->x, h, l->n, leaf_key, l->h);
	if (k != HD_NONE)
		return k;
	if (l->n == REF_INDEX)
		hd_die("too many distinct operand names");
	l->h[l->n] = h;
	return l->n++;
}

/* Appends code to refs (inlined: once per operand). */
static inline void refs_add(struct work *w, uint32_t code)
{
	if (w->refs.len == w->refs.cap)
		hd_vec_reserve(&w->refs, w->refs.len + 1);
	((uint32_t *)w->refs.data)[w->refs.len++] = code;
}

/* Appends the code of one operand, as a repeat when it is the last one
 * again. */
static inline void push_ref(struct work *w, uint32_t code)
{
	uint32_t *refs = w->refs.data;
	size_t n = w->refs.len;

	if (n > w->cur_first && w->last_code == code) {
		if ((refs[n - 1] & REF_TAG) == REF_REPEAT &&
		    (refs[n - 1] & REF_INDEX) < REF_INDEX) {
			refs[n - 1]++;
			return;
		}
		if ((refs[n - 1] & REF_TAG) != REF_REPEAT) {
			refs_add(w, REF_REPEAT | 1);
			return;
		}
	}
	refs_add(w, code);
	w->last_code = code;
}

/* The code of an operand name that resolves to nothing: the leaf of the
 * hash of its stripped form. */
static uint32_t leaf_code(struct work *w, const char *name, size_t n)
{
	w->name.n = 0;
	add_name(&w->name, hd_slice_make(name, n));
	return REF_LEAF | leaf_of(&w->leaves, hash_buf(&w->name));
}

/*
 * Resolves one operand name (hash h, length n; name is read only when
 * it resolves to nothing, for the hash of its stripped form).
 */
static inline void resolve_one(struct work *w, uint64_t h, size_t n,
			       const char *name)
{
	uint32_t t = w->by_index ? insn_named(w, h, n) : HD_NONE;

	if (t == HD_NONE)
		t = name_target(w, h);

	if (t == HD_NONE)
		t = leaf_code(w, name, n);
	push_ref(w, t);
}

/* resolve_one for a name the parser kept (o) in instruction i's text,
 * whose record is read only when the name resolves to nothing. */
static inline void resolve_kept(struct work *w, const struct pre_op *o,
				uint32_t i)
{
	uint32_t t = w->by_index ? insn_named(w, o->h, o->len) : HD_NONE;

	if (t == HD_NONE)
		t = name_target(w, o->h);

	if (t == HD_NONE)
		t = leaf_code(w, HD_INSN(w->d, i).text.p + o->off, o->len);
	push_ref(w, t);
}

/* Resolves the pending operand names, in order. */
static void resolve_refs(struct work *w)
{
	uint32_t k;

	for (k = 0; k < w->n_pend; k++)
		resolve_one(w, w->pend[k].h, w->pend[k].name.n,
			    w->pend[k].name.p);
	w->n_pend = 0;
}

static void add_ref(struct work *w, struct hd_slice name)
{
	struct pending *p;

	if (w->n_pend == PEND_MAX)
		resolve_refs(w);
	p = &w->pend[w->n_pend++];
	p->h = hd_hash64(name);
	p->name = name;
	names_prefetch(w, p->h);
}

/* The instruction reference code r depends on, or HD_NONE (a leaf). */
static uint32_t ref_insn(const struct work *w, uint32_t r)
{
	if (r & REF_VALUE)
		return w->c->value_insn[r & ~REF_VALUE];
	return (r & REF_LEAF) ? HD_NONE : r;
}

/*
 * The hash operand reference r (on instruction ins, ref_insn) of
 * instruction i contributes (fold_insn).  Until value_keys, a value's
 * value_struct holds the hash of its index (value_basics).
 */
static uint64_t ref_word(const struct work *w, uint32_t i, uint32_t r,
			 uint32_t ins)
{
	const struct hd_canon *c = w->c;
	uint64_t h;

	if (ins == HD_NONE)
		h = w->leaves.h[r & REF_INDEX];
	else if (w->done[ins] && ins != i)
		h = c->insn_struct[ins];
	else
		h = c->insn_canon[ins];
	if (r & REF_VALUE)
		h = mix(h, c->value_struct[r & ~REF_VALUE]);
	return h;
}

/*
 * Structural hash of instruction i (insn_struct[i]) from the hashes of
 * its operands, whose codes are refs[a, b): finished operands give their
 * structural hash, unfinished ones (cycle) their canonical hash.  Strict,
 * it gives up (returns 0) at the first unfinished operand other than i
 * itself: i must wait for it.  A long operand list is hashed in chunks
 * with the streaming state (the same hash as in one call).
 */
static int fold_insn(struct work *w, uint32_t i, uint32_t a, uint32_t b,
		     int strict)
{
	struct hd_canon *c = w->c;
	const uint32_t *refs = w->refs.data;
	uint32_t k;
	uint64_t h = 0;
	size_t m = 0;
	int streaming = 0;

	for (k = a; k < b; k++) {
		uint32_t r = refs[k], times = 1;

		if ((r & REF_TAG) == REF_REPEAT) {
			times = r & REF_INDEX;  /* h is the code before */
		} else {
			uint32_t ins = ref_insn(w, r);

			if (strict && ins != HD_NONE && ins != i &&
			    !w->done[ins])
				return 0;
			h = ref_word(w, i, r, ins);
		}
		while (times--) {
			if (m == FOLD_CHUNK) {
				if (!streaming)
					XXH3_64bits_reset_withSeed(&w->st,
								   c->insn_canon[i]);
				streaming = 1;
				XXH3_64bits_update(&w->st, w->words,
						   m * sizeof(uint64_t));
				m = 0;
			}
			w->words[m++] = h;
		}
	}
	if (!streaming) {
		c->insn_struct[i] = XXH3_64bits_withSeed(w->words,
							 m * sizeof(uint64_t),
							 c->insn_canon[i]);
	} else {
		XXH3_64bits_update(&w->st, w->words, m * sizeof(uint64_t));
		c->insn_struct[i] = XXH3_64bits_digest(&w->st);
	}
	return 1;
}

/* Appends instruction i's operand links (hd_canon's insn_ops) from its
 * codes refs[a, b): an instruction, or HD_NONE for anything else. */
static void keep_ops(struct work *w, uint32_t i, uint32_t a, uint32_t b)
{
	const uint32_t *refs = w->refs.data;
	uint32_t k, last = HD_NONE;

	for (k = a; k < b; k++) {
		uint32_t r = refs[k], times = 1;

		if ((r & REF_TAG) == REF_REPEAT)
			times = r & REF_INDEX;
		else
			last = (r & REF_TAG) ? HD_NONE : r;
		if (w->ops.len + times > w->ops.cap)
			hd_vec_reserve(&w->ops, w->ops.len + times);
		while (times--)
			((uint32_t *)w->ops.data)[w->ops.len++] = last;
	}
	w->c->insn_ops_at[i + 1] = (uint32_t)w->ops.len;
}

/*
 * Called once instruction i's operand codes are in (refs from
 * cur_first), instructions in order: its structural hash when every
 * operand is finished (as in a dump that lists operands before their
 * users), and its codes are dropped; else i waits for structural_late,
 * its codes kept.  Any order that hashes an instruction after all of its
 * operands gives the same hashes.  So refs holds only the codes of the
 * late instructions, and no per-instruction index into it is kept.
 */
static void settle(struct work *w, uint32_t i)
{
	uint32_t a = (uint32_t)w->cur_first, b = (uint32_t)w->refs.len;

	keep_ops(w, i, a, b);
	if (fold_insn(w, i, a, b, 1)) {
		w->done[i] = 1;
		w->refs.len = a;
	} else {
		w->late[w->n_late++] = (struct late){ i, a, b };
	}
}

/* The operand graph of the late instructions as CSR, by their place in
 * w->late: users of late[j] are late[out[first[j] .. first[j + 1])]. */
struct users {
	uint32_t *first;    /* n_late + 1 */
	uint32_t *out;      /* one per unfinished operand */
	uint32_t *indeg;    /* unfinished operands on other instructions */
	uint32_t *fill;     /* scratch of users_build, n_late + 1 */
	uint32_t *place;    /* n_insns: where in w->late an instruction is
			     * (read for late ones only) */
};

/* The place in w->late of the unfinished instruction operand k of
 * late[j] depends on, or HD_NONE (none, finished, or itself). */
static uint32_t dep_of(const struct work *w, const struct users *u,
		       uint32_t j, uint32_t k)
{
	uint32_t r = HD_VEC_AT(&w->refs, uint32_t, k), dep;

	/* A repeat adds no dependency: the code before it has it
	 * (indegree and users count it once, which is consistent). */
	if ((r & REF_TAG) == REF_REPEAT)
		return HD_NONE;
	dep = ref_insn(w, r);
	if (dep == w->late[j].i || dep == HD_NONE || w->done[dep])
		return HD_NONE;
	return u->place[dep];
}

static void users_build(struct users *u, const struct work *w)
{
	uint32_t n = w->n_late, j, k;

	for (j = 0; j < n; j++)
		u->place[w->late[j].i] = j;
	for (j = 0; j < n; j++)
		for (k = w->late[j].a; k < w->late[j].b; k++) {
			uint32_t dep = dep_of(w, u, j, k);

			if (dep != HD_NONE) {
				u->indeg[j]++;
				u->first[dep + 1]++;
			}
		}
	for (j = 0; j < n; j++)
		u->first[j + 1] += u->first[j];
	memcpy(u->fill, u->first, (n + 1) * sizeof(uint32_t));
	for (j = 0; j < n; j++)
		for (k = w->late[j].a; k < w->late[j].b; k++) {
			uint32_t dep = dep_of(w, u, j, k);

			if (dep != HD_NONE)
				u->out[u->fill[dep]++] = j;
		}
}

/* fold_insn for late[j]. */
static void fold_late(struct work *w, uint32_t j)
{
	const struct late *l = &w->late[j];

	fold_insn(w, l->i, l->a, l->b, 0);
}

/*
 * The instructions settle left: Kahn's algorithm over their operand
 * graph (the finished ones are done with); what remains on or behind a
 * cycle is hashed in one round with canonical hashes for unfinished
 * operands (order independent).
 */
static void structural_late(struct work *w)
{
	struct hd_canon *c = w->c;
	uint32_t n = w->n_late, j, k, head = 0, tail = 0;
	uint32_t *queue;
	struct users u;
	struct hd_vec mem;
	struct carve cut;

	if (n == 0)
		return;
	/* one block (see carve) for the arrays of the walk */
	carve_begin(&cut, &mem,
		    carve_bytes((size_t)n + 2, sizeof(uint32_t)) +
		    3 * carve_bytes((size_t)n + 1, sizeof(uint32_t)) +
		    carve_bytes(c->n_insns, sizeof(uint32_t)) +
		    carve_bytes(w->refs.len + 1, sizeof(uint32_t)));
	u.first = carve(&cut, (size_t)n + 2, sizeof(uint32_t));
	u.indeg = carve(&cut, (size_t)n + 1, sizeof(uint32_t));
	u.fill = carve(&cut, (size_t)n + 1, sizeof(uint32_t));
	queue = carve(&cut, (size_t)n + 1, sizeof(uint32_t));
	u.place = carve(&cut, c->n_insns, sizeof(uint32_t));
	u.out = carve(&cut, w->refs.len + 1, sizeof(uint32_t));
	users_build(&u, w);
	for (j = 0; j < n; j++)
		if (u.indeg[j] == 0)
			queue[tail++] = j;
	while (head < tail) {
		j = queue[head++];
		fold_late(w, j);
		w->done[w->late[j].i] = 1;
		for (k = u.first[j]; k < u.first[j + 1]; k++)
			if (--u.indeg[u.out[k]] == 0)
				queue[tail++] = u.out[k];
	}
	for (j = 0; tail < n && j < n; j++)
		if (!w->done[w->late[j].i]) {
			fold_late(w, j);
			c->n_cyclic++;
		}
	hd_vec_release(&mem);
}

/* ------------------------------------------------------------------ */
/* Per-value keys                                                       */

static uint32_t defining_insn(const struct hd_dump *d,
			      const struct hd_value *v)
{
	if (v->insn != HD_NONE)
		return v->insn;
	return hd_dump_insn_by_name(d, v->name);
}

/*
 * Fills value_insn, the per-value index hashes (kept in value_struct
 * until value_keys: ref_word reads them) and extras (index, colour and
 * phi mark folded, kept in value_canon for value_keys), and the owners
 * of the positions (build_names): one pass over the value records,
 * which are large (the later passes read these arrays).
 */
static void value_basics(struct work *w)
{
	const struct hd_dump *d = w->d;
	struct hd_canon *c = w->c;
	size_t npos = d->positions.len;
	uint32_t i, k;

	w->owner = carve(&w->cut, npos + 1, sizeof(uint32_t));
	memset(w->owner, 0xff, (npos + 1) * sizeof(uint32_t));
	for (i = 0; i < c->n_values; i++) {
		const struct hd_value *v = &HD_VALUE(d, i);
		uint32_t ins = defining_insn(d, v);
		uint32_t phi = (v->flags & HD_VALUE_PHI) ? 1 : 0;
		uint64_t ih;
		int64_t color = HD_VALUE_COLOR(d, i);
		struct hd_value_positions pos;

		c->value_insn[i] = ins;
		if (v->index_n == 2)
			ih = 0x7b7d; /* "{}": most values */
		else
			ih = hd_hash64(hd_value_index(v));
		c->value_struct[i] = ih;
		c->value_canon[i] = mix(mix(ih, (uint64_t)color), phi);
		if (ins == HD_NONE)
			continue;
		pos = HD_VALUE_POSITIONS(d, i);
		for (k = v->insn != HD_NONE; k < pos.pos_count; k++)
			w->owner[pos.pos_first + k] = i;
	}
}

/* Value hashes: the instruction's, with index, colour and phi mark. */
static void value_keys(struct work *w, uint32_t i)
{
	const struct hd_dump *d = w->d;
	struct hd_canon *c = w->c;
	const struct hd_value *v;
	struct hd_slice shape;
	uint32_t ins = c->value_insn[i];
	uint64_t extra = c->value_canon[i];   /* value_basics */

	if (ins != HD_NONE) {
		c->value_canon[i] = mix(c->insn_canon[ins], extra);
		c->value_struct[i] = mix(c->insn_struct[ins], extra);
		return;
	}
	/* No instruction text: stripped name and shape stand in. */
	v = &HD_VALUE(d, i);
	w->buf.n = 0;
	add_name(&w->buf, v->name);
	cbuf_add(&w->buf, "", 1);
	shape = hd_value_shape(d, i);
	cbuf_add(&w->buf, shape.p, shape.n);
	c->value_canon[i] = mix(hash_buf(&w->buf), extra);
	c->value_struct[i] = c->value_canon[i];
}

/* Is t (n bytes) a hex hash: 6 or more hex digits, at least one digit? */
static int is_hex_hash(const char *t, size_t n)
{
	size_t i;
	int digit = 0;

	if (n < 6)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = t[i];
		if (ch >= '0' && ch <= '9')
			digit = 1;
		else if (!(ch >= 'a' && ch <= 'f'))
			return 0;
	}
	return digit;
}

/*
 * Drops the "_<hex hash>" parts of a canonical name in place (kernels
 * named after a hash of their code, e.g. splash_mha_fwd_e9701070, get a
 * new hash when their shapes change).  Returns the new length.
 */
static size_t drop_hex_hashes(char *s, size_t n)
{
	size_t i = 0, o = 0;

	while (i < n) {
		size_t j = i + 1;
		while (j < n && s[j] != '_' && s[j] != '.')
			j++;
		if (s[i] == '_' && is_hex_hash(s + i + 1, j - i - 1)) {
			i = j;
			continue;
		}
		memmove(s + o, s + i, j - i);
		o += j - i;
		i = j;
	}
	return o;
}

/*
 * The matcher asks for the loose keys of values in increasing order (those
 * its strict passes left), but three reads per value are out of order:
 * its instruction's insn_loose, its value line's shape hashes and its
 * name's bytes in the input, each a cache miss of its own.  Those of the
 * values LOOSE_AHEAD to LOOSE_AHEAD + LOOSE_SPAN - 1 further on are
 * fetched now, so that they have come in when asked for.  The window is
 * as wide as the gaps between the values asked: they come in runs, and a
 * narrower window misses the start of the next run.
 */
#define LOOSE_AHEAD 8
#define LOOSE_SPAN 8

/* Inlined: GCC takes a function that only prefetches for one without
 * effects and drops the call. */
static inline __attribute__((always_inline)) void
loose_fetch_ahead(const struct hd_canon *c, const struct hd_dump *d,
		  uint32_t v, struct hd_loose_cursor *cur)
{
	uint32_t k = v + LOOSE_AHEAD, end = k + LOOSE_SPAN;

	if (cur) {
		if (cur->next > k && cur->next <= end)
			k = cur->next;
		cur->next = end;
	}
	if (end > c->n_values)
		end = c->n_values;
	for (; k < end; k++) {
		const struct hd_value *val = &HD_VALUE(d, k);
		uint32_t ins = c->value_insn[k];

		if (ins != HD_NONE)
			__builtin_prefetch(&c->insn_loose[HD_LOOSE_PARTS * (size_t)ins]);
		if (val->alloc_value != HD_NONE)
			__builtin_prefetch(&HD_ALLOC_VALUE(d, val->alloc_value)
						    .shape_hash);
		__builtin_prefetch(val->name.p);
	}
}

void hd_canon_loose(const struct hd_canon *c, const struct hd_dump *d,
		    uint32_t v, uint64_t keys[HD_LOOSE_COUNT],
		    struct hd_loose_cursor *cur)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	uint32_t ins = c->value_insn[v];
	uint64_t idx, h, shape, bare, named;
	uint64_t opcode = 1, op_name = 1;
	char small[256];
	size_t n;

	idx = hd_hash64(hd_value_index(val));
	if (val->alloc_value != HD_NONE) {
		/* the parser hashed the shape while it was in cache */
		shape = HD_ALLOC_VALUE(d, val->alloc_value).shape_hash;
		bare = HD_ALLOC_VALUE(d, val->alloc_value).bare_hash;
	} else {
		struct hd_slice s = hd_value_shape(d, v);

		shape = hd_hash64(s);
		bare = hd_hash64(hd_shape_strip_layout(s));
	}

	/* hashed here, not for every value: the matcher asks for the ones
	 * its strict passes left */
	loose_fetch_ahead(c, d, v, cur);
	if (ins != HD_NONE) {
		opcode = c->insn_loose[HD_LOOSE_PARTS * (size_t)ins];
		op_name = c->insn_loose[HD_LOOSE_PARTS * (size_t)ins + 1];
	}
	keys[HD_LOOSE_OP_NAME] = mix(mix(op_name, shape), idx);
	h = mix(mix(opcode, bare), idx);
	keys[HD_LOOSE_SHAPE] = h;
	if (val->name.n <= sizeof(small)) {
		n = hd_canon_name(small, val->name);
		keys[HD_LOOSE_NAMED] = mix(h, XXH3_64bits(small, n));
		named = XXH3_64bits(small, drop_hex_hashes(small, n));
		keys[HD_LOOSE_STEM] = mix(mix(opcode, named), idx);
	} else {
		keys[HD_LOOSE_NAMED] = mix(h, hd_hash64(val->name));
		keys[HD_LOOSE_STEM] = mix(mix(opcode, hd_hash64(val->name)), idx);
	}
}

/* Reads one 16-digit hex hash at s; returns 0, -1 if malformed. */
static int read_hex64(const char *s, size_t n, uint64_t *out)
{
	uint64_t h = 0;
	size_t i;

	if (n < 16)
		return -1;
	for (i = 0; i < 16; i++) {
		char ch = s[i];
		int x = ch >= '0' && ch <= '9' ? ch - '0' :
			ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;

		if (x < 0)
			return -1;
		h = h << 4 | (uint64_t)x;
	}
	*out = h;
	return 0;
}

/* Does the instruction carry stored hashes (canon.h)? */
static int is_stored(const struct hd_insn *in)
{
	return hd_slice_starts(in->text, HD_CANON_STORED);
}

/*
 * Takes the stored hashes of every instruction (a golden dump: all of
 * its instructions carry them).  A malformed text gives hash 0, which
 * matches nothing it should not.
 */
static void stored_hashes(struct hd_canon *c, const struct hd_dump *d)
{
	size_t k = sizeof(HD_CANON_STORED) - 1;
	uint32_t i;

	for (i = 0; i < c->n_insns; i++) {
		struct hd_slice t = HD_INSN(d, i).text;

		if (!is_stored(&HD_INSN(d, i)) ||
		    read_hex64(t.p + k, t.n - k, &c->insn_canon[i]) ||
		    t.n < k + 33 || t.p[k + 16] != ' ' ||
		    read_hex64(t.p + k + 17, t.n - k - 17, &c->insn_struct[i]))
			c->insn_canon[i] = c->insn_struct[i] = 0;
	}
}

/* The per-instruction parts of the loose keys of instruction in (canon.h:
 * insn_loose) to out[0, HD_LOOSE_PARTS), while its text is in cache,
 * from its opcode's hash and its source s. */
static void loose_parts_hashed(uint64_t *out, uint64_t opcode,
			       const struct hd_insn *in,
			       const struct hd_insn_source *s)
{
	uint64_t file = 0, line = 0, param = 0;

	out[0] = opcode;
	out[1] = mix(opcode, hd_hash64(s->op_name));
	if (s->source_file.n) {
		file = hd_hash64(s->source_file);
		line = mix(file, (uint64_t)s->source_line);
	}
	/* a golden leaves out the number 0 (golden.c) */
	if (hd_slice_eq(in->opcode, hd_slice_make("parameter", 9)))
		param = hd_hash64(in->operands.n ? in->operands :
				  hd_slice_make("0", 1)) | 1;
	out[2] = line || param ? mix(line, param) : 0;
	out[3] = file || param ? mix(file, param) : 0;
}

static void loose_parts(uint64_t *out, const struct hd_dump *d, uint32_t i)
{
	const struct hd_insn *in = &HD_INSN(d, i);
	struct hd_insn_source s = hd_insn_source_of(d, i);

	loose_parts_hashed(out, hd_hash64(in->opcode), in, &s);
}

/* ------------------------------------------------------------------ */
/* Hashing while the parser has the instruction in cache (canon.h)     */

struct hd_canon_pre *hd_canon_pre_new(void)
{
	struct hd_canon_pre *p = hd_xzalloc_aligned(_Alignof(struct hd_canon_pre),
						   sizeof(*p));

	p->sink.st = &p->st;
	p->sink.memo = &p->memo;
	p->insns = (struct hd_vec)HD_VEC_INIT(struct pre_insn);
	p->canon = (struct hd_vec)HD_VEC_INIT(uint64_t);
	p->loose = (struct hd_vec)HD_VEC_INIT(uint64_t);
	p->ops = (struct hd_vec)HD_VEC_INIT(struct pre_op);
	p->pos = (struct hd_vec)HD_VEC_INIT(struct pre_pos);
	return p;
}

/* The parse hooks (hd_canon_pre_hooks): before each input, one per
 * instruction filed, one per position. */
static void pre_budget(void *ctx, size_t input_bytes)
{
	struct hd_canon_pre *p = ctx;
	size_t more = input_bytes / PRE_BUDGET_SHARE / sizeof(struct pre_op);
	size_t guess = input_bytes / PRE_BYTES_EACH;

	/* a guess of how many there will be (a little more than a real
	 * dump needs): no copies as they grow */
	hd_vec_reserve(&p->insns, p->insns.len + guess);
	hd_vec_reserve(&p->canon, p->canon.len + guess);
	hd_vec_reserve(&p->loose, p->loose.len + HD_LOOSE_PARTS * guess);
	hd_vec_reserve(&p->ops, p->ops.len + guess);
	hd_vec_reserve(&p->pos, p->pos.len + guess / 4);

	/* op_first holds record numbers below PRE_WALK */
	p->max_ops = more < PRE_WALK - 1 - p->max_ops ? p->max_ops + more :
							 PRE_WALK - 1;
}

/* Keeps an operand name for hd_canon_compute; past the budget, none of
 * the instruction's (it is walked again). */
static void pre_add(struct hd_canon_pre *p, struct hd_slice name)
{
	struct pre_op *o;

	if (p->over)
		return;
	if (p->ops.len == p->max_ops) {
		p->over = 1;
		return;
	}
	if (p->ops.len == p->ops.cap)
		hd_vec_reserve(&p->ops, p->ops.len + 1);
	o = &HD_VEC_AT(&p->ops, struct pre_op, p->ops.len++);
	o->h = hd_hash64(name);
	o->len = (uint32_t)name.n;
	o->off = (uint32_t)(name.p - p->base);
}

static void pre_insn(void *ctx, const struct hd_insn *in,
		     const struct hd_insn_source *src)
{
	struct hd_canon_pre *p = ctx;
	size_t first = p->ops.len;
	struct pre_insn *r;
	uint64_t *canon, *loose;

	if (p->insns.len == p->insns.cap)
		hd_vec_reserve(&p->insns, p->insns.len + 1);
	if (p->canon.len == p->canon.cap)
		hd_vec_reserve(&p->canon, p->canon.len + 1);
	if (p->loose.len + HD_LOOSE_PARTS > p->loose.cap)
		hd_vec_reserve(&p->loose, p->loose.len + HD_LOOSE_PARTS);
	r = &HD_VEC_AT(&p->insns, struct pre_insn, p->insns.len++);
	canon = &HD_VEC_AT(&p->canon, uint64_t, p->canon.len++);
	loose = &HD_VEC_AT(&p->loose, uint64_t, p->loose.len);
	p->loose.len += HD_LOOSE_PARTS;
	/* An operand list longer than the budget left would likely run
	 * past it (a name takes 16 bytes of records, a few of text): the
	 * instruction is left to hd_canon_compute, which hashes it and
	 * resolves its operands in one walk, as without the parser. */
	p->base = in->text.p;
	p->over = in->text.n > UINT32_MAX ||
		  in->operands.n > (p->max_ops - first) * sizeof(struct pre_op);
	*canon = 0;
	if (!p->over) {
		sink_begin(&p->sink);
		insn_text(&p->sink, in, NULL, p);
		*canon = sink_hash(&p->sink);
	}
	loose_parts_hashed(loose, hd_hash64(in->opcode), in, src);
	r->name_hash = in->name_hash;
	r->name_len = in->name.n < UINT32_MAX ? (uint32_t)in->name.n :
						UINT32_MAX;
	if (p->over)
		p->ops.len = first;
	r->op_first = (uint32_t)first | (p->over ? PRE_WALK : 0);
}

/*
 * The first position of a value is its instruction's name, which
 * build_names files as the instruction, and one with an index other
 * than {} is not filed: those are only counted (build_names hashes the
 * first position of a value whose record has no instruction itself).
 */
static void pre_position(void *ctx, const struct hd_position *pos,
			 uint32_t k)
{
	struct hd_canon_pre *p = ctx;
	struct pre_pos *r;
	size_t q = p->n_pos++;

	if (k == 0 || pos->index.n > 2 || q > UINT32_MAX)
		return;
	if (p->pos.len == p->pos.cap)
		hd_vec_reserve(&p->pos, p->pos.len + 1);
	r = &HD_VEC_AT(&p->pos, struct pre_pos, p->pos.len++);
	r->h = hd_hash64(pos->name);
	r->q = (uint32_t)q;
}

static void pre_drop_records(struct hd_canon_pre *p)
{
	hd_vec_release(&p->insns);
	hd_vec_release(&p->canon);
	hd_vec_release(&p->loose);
	hd_vec_release(&p->ops);
	hd_vec_release(&p->pos);
}

void hd_canon_pre_free(struct hd_canon_pre *p)
{
	if (!p)
		return;
	pre_drop_records(p);
	memo_free(&p->memo);
	free(p);
}

/*
 * The parser's results for d when they are whole (every instruction and
 * position, not taken before), marked taken; else NULL.
 */
static struct hd_canon_pre *pre_take(const struct hd_dump *d)
{
	struct hd_canon_pre *p = d->canon_pre;

	if (!p || p->taken || p->insns.len == 0 || p->insns.len != d->insns.len ||
	    p->canon.len != p->insns.len || p->loose.len != HD_LOOSE_PARTS * p->insns.len ||
	    p->n_pos != d->positions.len)
		return NULL;
	p->taken = 1;
	return p;
}

/*
 * Hashes instruction i from its text: its canonical hash, its operand
 * references resolved in order (to refs, from cur_first), its text's
 * pages then given back behind the pass.
 */
static void walk_insn(struct work *w, uint32_t i)
{
	const struct hd_insn *in = &HD_INSN(w->d, i);

	sink_begin(&w->sink);
	insn_text(&w->sink, in, w, NULL);
	resolve_refs(w);
	w->c->insn_canon[i] = sink_hash(&w->sink);
	pass_at(w, in->text.p);
}

/* How far ahead hash_insns_pre fetches the table slot of a record. */
#define PRE_AHEAD 16

/* Starts loading where resolve_kept will look an operand of name hash h
 * up: the dump's instruction index (by_index), else the names table. */
static inline __attribute__((always_inline)) void
prefetch_operand(const struct work *w, uint64_t h)
{
	if (w->by_index)
		hd_index_prefetch(&w->d->insn_by_name, (uint32_t)h);
	else
		names_prefetch(w, h);
}

/*
 * hash_insns from the parser's results: resolves the kept operand names
 * in order (an instruction that kept none is read again, as
 * hash_insns does), settling each instruction's structural hash as it
 * goes (settle).
 */
static void hash_insns_pre(struct work *w)
{
	struct hd_canon *c = w->c;
	struct hd_canon_pre *p = w->pre;
	const struct pre_op *ops = p->ops.data;
	const struct pre_insn *pi = p->insns.data;
	size_t n_ops = p->ops.len;
	uint32_t i, k;

	build_names(w);
	pass_begin(w);
	for (i = 0; i < c->n_insns; i++) {
		uint32_t a = pi[i].op_first, b = i + 1 < c->n_insns ?
			pi[i + 1].op_first & ~PRE_WALK : (uint32_t)n_ops;

		w->cur_first = w->refs.len;
		if (a & PRE_WALK) {
			/* as hash_insns (the parser may not have hashed it) */
			walk_insn(w, i);
			c->n_walked++;
		} else {
			for (k = a; k < b; k++) {
				if (k + PRE_AHEAD < n_ops)
					prefetch_operand(w, ops[k + PRE_AHEAD].h);

				resolve_kept(w, &ops[k], i);
			}
		}
		settle(w, i);
	}
	pre_drop_records(p);
	structural_late(w);
}

/* Canonical texts, operand references and structural hashes. */
static void hash_insns(struct work *w)
{
	const struct hd_dump *d = w->d;
	struct hd_canon *c = w->c;
	uint32_t i;

	build_names(w);
	pass_begin(w);
	for (i = 0; i < c->n_insns; i++) {
		w->cur_first = w->refs.len;
		walk_insn(w, i);
		loose_parts(&c->insn_loose[HD_LOOSE_PARTS * (size_t)i], d, i);
		settle(w, i);
	}
	c->n_walked = c->n_insns;
	structural_late(w);
}

/* How far ahead value_keys' instruction hashes are fetched. */
#define VALUE_AHEAD 16

static void *alloc_array(size_t n, size_t size)
{
	return hd_xcalloc(n ? n : 1, size);
}

/* The arrays of the instructions' hashes: the parser's, taken as they
 * are (no copy, no new pages), when it made them; else new ones. */
static void insn_arrays(struct work *w)
{
	struct hd_canon *c = w->c;

	if (w->pre) {
		c->loose_store = w->pre->loose;
		w->pre->loose = (struct hd_vec)HD_VEC_INIT(uint64_t);
		c->insn_loose = c->loose_store.data;
		c->canon_store = w->pre->canon;
		w->pre->canon = (struct hd_vec)HD_VEC_INIT(uint64_t);
		c->insn_canon = c->canon_store.data;
	} else {
		c->insn_canon = alloc_array(c->n_insns, sizeof(uint64_t));
		c->insn_loose = alloc_array(HD_LOOSE_PARTS * (size_t)c->n_insns,
					    sizeof(uint64_t));
	}
	c->insn_struct = alloc_array(c->n_insns, sizeof(uint64_t));
}

/* The values' arrays in one block of c, and the work's scratch arrays
 * in one block of w. */
static void carve_arrays(struct work *w)
{
	struct hd_canon *c = w->c;
	size_t npos = w->d->positions.len;
	struct carve cut;

	carve_begin(&cut, &c->value_store,
		    2 * carve_bytes(c->n_values, sizeof(uint64_t)) +
		    carve_bytes(c->n_values, sizeof(uint32_t)));
	c->value_canon = carve(&cut, c->n_values, sizeof(uint64_t));
	c->value_struct = carve(&cut, c->n_values, sizeof(uint64_t));
	c->value_insn = carve(&cut, c->n_values, sizeof(uint32_t));
	carve_begin(&w->cut, &w->scratch,
		    carve_bytes(c->n_insns, sizeof(struct late)) +
		    carve_bytes(c->n_insns, 1) +
		    3 * carve_bytes(npos + 1, sizeof(uint32_t)) +
		    carve_bytes(w->d->insns.len + npos,
				sizeof(struct name_rec)));
	w->late = carve(&w->cut, c->n_insns, sizeof(struct late));
	w->done = carve(&w->cut, c->n_insns, 1);
}

/* Every value's hashes (value_keys). */
static void value_hashes(struct work *w)
{
	const struct hd_canon *c = w->c;
	uint32_t i;

	for (i = 0; i < c->n_values; i++) {
		/* values follow the allocations, instructions the records:
		 * fetch the hashes of the instruction a few values on */
		if (i + VALUE_AHEAD < c->n_values &&
		    c->value_insn[i + VALUE_AHEAD] != HD_NONE) {
			__builtin_prefetch(&c->insn_canon[c->value_insn[i + VALUE_AHEAD]]);
			__builtin_prefetch(&c->insn_struct[c->value_insn[i + VALUE_AHEAD]]);
		}
		value_keys(w, i);
	}
}

/* Keeps the operand lists in c (a copy at their size: the vector may
 * have room to spare) and frees w. */
static void work_finish(struct work *w)
{
	struct hd_canon *c = w->c;

	if (c->insn_ops_at) {
		c->insn_ops = alloc_array(w->ops.len, sizeof(uint32_t));
		if (w->ops.len)
			memcpy(c->insn_ops, w->ops.data,
			       w->ops.len * sizeof(uint32_t));
	}
	hd_vec_release(&w->ops);
	hd_vec_release(&w->scratch);
	hd_vec_release(&w->refs);
	free(w->buf.p);
	free(w->name.p);
	free(w->leaves.h);
	hd_index_release(&w->leaves.x);
	hd_index_release(&w->names);
	free(w);
}

int hd_canon_compute(struct hd_canon *c, const struct hd_dump *d)
{
	/* On the heap: struct work holds the sink's buffer and the
	 * streaming state, too big for the stack of a thread. */
	struct work *w = hd_xzalloc_aligned(_Alignof(struct work), sizeof(*w));
	uint32_t i;

	memset(c, 0, sizeof(*c));
	w->d = d;
	w->c = c;
	w->sink.st = &w->st;
	w->refs = (struct hd_vec)HD_VEC_INIT(uint32_t);
	hd_vec_reserve(&w->refs, 1024);
	w->ops = (struct hd_vec)HD_VEC_INIT(uint32_t);
	w->names = (struct hd_index)HD_INDEX_INIT;
	w->leaves.x = (struct hd_index)HD_INDEX_INIT;
	c->n_insns = (uint32_t)d->insns.len;
	c->n_values = (uint32_t)d->values.len;
	w->pre = pre_take(d);
	w->by_index = w->pre && d->insn_by_name.count == d->insns.len;
	insn_arrays(w);
	carve_arrays(w);

	value_basics(w);
	if (!(c->n_insns && is_stored(&HD_INSN(d, 0))))
		c->insn_ops_at = hd_xcalloc((size_t)c->n_insns + 1,
					    sizeof(uint32_t));
	if (w->pre) {
		hash_insns_pre(w);
	} else if (c->n_insns && is_stored(&HD_INSN(d, 0))) {
		stored_hashes(c, d);
		for (i = 0; i < c->n_insns; i++)
			loose_parts(&c->insn_loose[HD_LOOSE_PARTS * (size_t)i],
				    d, i);
	} else {
		hash_insns(w);
	}
	value_hashes(w);
	work_finish(w);
	return 0;
}

/* Frees array p: from store where it is the parser's (taken whole),
 * else from malloc. */
static void release_array(struct hd_vec *store, void *p)
{
	if (store->data)
		hd_vec_release(store);
	else
		free(p);
}

void hd_canon_drop_insn_hashes(struct hd_canon *c)
{
	release_array(&c->canon_store, c->insn_canon);
	free(c->insn_struct);
	c->insn_canon = c->insn_struct = NULL;
}

void hd_canon_drop_insn_ops(struct hd_canon *c)
{
	free(c->insn_ops_at);
	free(c->insn_ops);
	c->insn_ops_at = c->insn_ops = NULL;
}

void hd_canon_release(struct hd_canon *c)
{
	hd_canon_drop_insn_hashes(c);
	hd_canon_drop_insn_ops(c);
	release_array(&c->loose_store, c->insn_loose);
	hd_vec_release(&c->value_store);
	memset(c, 0, sizeof(*c));
}

struct hd_parse_hooks hd_canon_pre_hooks(struct hd_canon_pre *p)
{
	struct hd_parse_hooks h = { p, pre_budget, pre_insn, pre_position };

	return h;
}
