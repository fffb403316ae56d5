/*
 * golden.c - golden files: write the summary of a dump, read it back
 * into a struct hd_dump (golden.h; the format is in docs/golden.md).
 *
 * Version 3 writes only what cannot be derived from the rest of the
 * file: a field equal to what the reader would derive is left empty
 * (and dropped at the end of a line), header lines equal to their
 * derivation are left out, and the peak lines too when they are the
 * values live at the peak time.  Writer and reader share the
 * derivations below (default_*), so they cannot disagree.
 *
 * Writing: values in dump order (value id), each instruction on an "i"
 * line just before the first value that needs it (all earlier
 * instructions first, so the instruction order is the dump's), shapes
 * spelled once and then referred to by a short id derived from their
 * hash.
 *
 * Reading: one pass over the lines; fields are slices into the golden
 * text, unescaped into the dump's arena only where they hold escapes.
 * Allocation value lines are grouped by allocation at the end (the
 * model keeps each allocation's values contiguous), then the derived
 * figures (total, live-max, peak lines) are filled in.
 */
#include "hlodiff/golden.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/diag.h"
#include "hlodiff/figures.h"
#include "hlodiff/format.h"
#include "hlodiff/scan.h"
#include "hlodiff/shape.h"
#include "hlodiff/str.h"

#define MAX_FIELDS 12
/* Longest schedule a golden may claim (live-max, live ranges, peak
 * times): the figures allocate one counter per time. */
#define GOLDEN_MAX_TIME ((int64_t)1 << 26)
/* The sections a dump normally has; a golden names them only when the
 * dump's differ. */
#define DEFAULT_SECTIONS (HD_SEC_ALLOCATIONS | HD_SEC_TOTAL | HD_SEC_USED_VALUES | \
			  HD_SEC_LIVE_RANGE | HD_SEC_SEQUENCE | HD_SEC_BUFFER_LIVE | \
			  HD_SEC_PEAK)
/* Shortest shape id (base64url digits of the shape's hash). */
#define SHAPE_ID_MIN 2
#define HASH_DIGITS 11

/* ---- shared ------------------------------------------------------------ */

/* Flags written as letters, one a bit. */
struct letter {
	uint32_t bit;
	char letter;
};

static const struct letter alloc_letters[] = {
	{ HD_ALLOC_PARAMETER, 'p' },
	{ HD_ALLOC_OUTPUT, 'o' },
	{ HD_ALLOC_CONSTANT, 'c' },
	{ HD_ALLOC_THREAD_LOCAL, 'l' },
	{ HD_ALLOC_MAYBE_LIVE_OUT, 'm' },
	{ HD_ALLOC_TEMP, 't' },
};

static const char *const peak_styles[] = {
	"absent", "cumulative", "plain", "undetermined",
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* 'd' in the flags: the value's defining instruction is the one of the
 * value's own name (else the INSN field names it, or there is none).
 * Kept in the flag word as this bit, which enum hd_value_flags does not
 * use. */
#define FLAG_DEFINED (1u << 31)
#define FLAG_MASK (HD_VALUE_INDEXED | HD_VALUE_PHI | HD_VALUE_RECORD | FLAG_DEFINED)

/* Value flags in the "flags" field. */
static const struct letter value_letters[] = {
	{ HD_VALUE_INDEXED, 't' },
	{ HD_VALUE_PHI, 'p' },
	{ HD_VALUE_RECORD, 'r' },
	{ FLAG_DEFINED, 'd' },
};

/* The letters of the bits set in flags, '-' for none. */
static void put_letters(FILE *out, const struct letter *t, size_t n, uint32_t flags)
{
	size_t k;
	int any = 0;

	for (k = 0; k < n; k++)
		if (flags & t[k].bit) {
			fputc(t[k].letter, out);
			any = 1;
		}
	if (!any)
		fputc('-', out);
}

/* The bits of the letters s ("-": none); -1 on a letter not in t. */
static int read_letters(struct hd_slice s, const struct letter *t, size_t n,
			uint32_t *flags)
{
	size_t i, k;

	*flags = 0;
	if (hd_slice_eq_cstr(s, "-"))
		return 0;
	for (i = 0; i < s.n; i++) {
		for (k = 0; k < n && s.p[i] != t[k].letter; k++)
			;
		if (k == n)
			return -1;
		*flags |= t[k].bit;
	}
	return 0;
}

static const char b64url[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* A 64-bit number as 11 base64url digits, most significant first. */
static void hash_digits(char b[HASH_DIGITS + 1], uint64_t h)
{
	int i;

	for (i = HASH_DIGITS - 1; i >= 0; i--) {
		b[i] = b64url[h & 63];
		h >>= 6;
	}
	b[HASH_DIGITS] = '\0';
}

/* A number >= 0 as base64url digits, most significant first, without
 * leading zeros ("A" for 0): the offsets of value lines. */
static void put_b64(FILE *out, uint64_t x)
{
	char b[HASH_DIGITS + 1];
	int i = HASH_DIGITS;

	b[i] = '\0';
	do {
		b[--i] = b64url[x & 63];
		x >>= 6;
	} while (x);
	fputs(b + i, out);
}

int hd_golden_detect(const char *data, size_t len)
{
	size_t n = sizeof(HD_GOLDEN_MAGIC) - 1;

	if (len < n || memcmp(data, HD_GOLDEN_MAGIC, n) != 0)
		return 0;
	return len == n || data[n] == '\n' || data[n] == '\r';
}

int hd_golden_any_version(const char *data, size_t len)
{
	static const char stem[] = "hlodiff-golden ";

	return len >= sizeof(stem) - 1 && memcmp(data, stem, sizeof(stem) - 1) == 0;
}

/*
 * The derivations writer and reader share.  Each gives what a field or
 * header line means when the golden leaves it out.
 */

/* Flags of a value whose line leaves them out: 'r', and 'd' when an
 * instruction of the value's name is known (written above), with 't'
 * when that instruction's shape is a tuple. */
static uint32_t default_flags(const struct hd_dump *d, uint32_t named)
{
	uint32_t f = HD_VALUE_RECORD;

	if (named != HD_NONE) {
		f |= FLAG_DEFINED;
		if (hd_shape_is_tuple(HD_INSN(d, named).shape))
			f |= HD_VALUE_INDEXED;
	}
	return f;
}

/* The shape of a value's allocation entry when its line leaves it out:
 * the subshape of its instruction's shape at its index (empty when it
 * has no instruction or the index does not fit). */
static struct hd_slice default_shape(const struct hd_dump *d, uint32_t insn,
				     struct hd_slice index)
{
	struct hd_slice sub = HD_SLICE_NULL;

	if (insn == HD_NONE ||
	    hd_shape_subshape(HD_INSN(d, insn).shape, index, &sub) != 0)
		return HD_SLICE_NULL;
	return sub;
}

/* The size of a value's allocation entry when its line leaves it out:
 * the logical bytes of its shape (-1: none, the line must say). */
static int64_t default_size(struct hd_slice shape)
{
	return shape.n ? hd_shape_logical_bytes(shape) : -1;
}

/* "Total bytes used" when the golden leaves it out: the allocation
 * sizes added up. */
static int64_t default_total(const struct hd_dump *d)
{
	int64_t s = 0;
	size_t i;

	for (i = 0; i < d->allocs.len; i++)
		s = hd_sat_add(s, HD_ALLOC(d, i).size);
	return s;
}

/* T of "HloLiveRange (max T)" when the golden leaves it out: the latest
 * end of a live range, -1 without live ranges. */
static int64_t default_live_max(const struct hd_dump *d)
{
	int64_t m = -1;
	size_t i;

	for (i = 0; i < d->live_ranges.len; i++)
		if (HD_LIVE_RANGE(d, i).end > m)
			m = HD_LIVE_RANGE(d, i).end;
	return m;
}

/*
 * Appends to peak the lines a golden leaves to derive, as from line: one
 * per value in an allocation live at the peak time, with the logical
 * bytes of its shape, in the cumulative style with running sums.  In the
 * cumulative style the line names the value; in the older plain style,
 * which prints names without an index, it names the value of its name
 * alone (NAME{}, the whole tuple for an element), as the parser resolves
 * such a line, and no value (HD_NONE) when that does not exist.
 */
static void derived_peak_lines(const struct hd_dump *d, struct hd_vec *peak,
			       uint32_t line)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < d->values.len; i++) {
		const struct hd_value *val = &HD_VALUE(d, i);
		struct hd_peak_entry *e;
		uint32_t v;

		if (val->alloc_value == HD_NONE || !(val->flags & HD_VALUE_LIVE) ||
		    val->live_start > d->peak_time || d->peak_time > val->live_end)
			continue;
		v = d->peak_style == HD_PEAK_PLAIN ? hd_dump_value_by_key(d, val->name) :
			(uint32_t)i;
		e = hd_vec_push(peak);
		e->line = line;
		e->value = v;
		e->cumulative = -1;
		e->name = val->name;
		if (v == HD_NONE)
			continue;
		if (d->peak_style != HD_PEAK_PLAIN)
			e->index = hd_value_index(val);
		e->bytes = hd_shape_logical_bytes(hd_value_shape(d, v));
		if (e->bytes < 0)
			e->bytes = 0;
		sum = hd_sat_add(sum, e->bytes);
		if (d->peak_style == HD_PEAK_CUMULATIVE)
			e->cumulative = sum;
	}
}

/*
 * The parameter number an 'i' line of a parameter leaves out: the one
 * after the number of the 'i' line before when that is a parameter too
 * (prev, -1 when it is not), else 0: a computation lists its parameters
 * one after the other, in order.
 */
static int64_t default_param_number(int64_t prev)
{
	return prev >= 0 && prev < INT64_MAX ? prev + 1 : 0;
}

/* The number a parameter instruction's operand text holds ("": 0), -1
 * when it is not a number as the writer would spell it. */
static int64_t param_number_of(struct hd_slice t)
{
	char b[24];
	int64_t n;

	if (!t.n)
		return 0;
	if (t.n >= sizeof(b) || hd_parse_i64(t, &n) != (int)t.n || n < 0)
		return -1;
	snprintf(b, sizeof(b), "%" PRId64, n);
	return hd_slice_eq_cstr(t, b) ? n : -1;
}

/* Value v's place in the order values are written in: by id (clamped
 * to 32 bits as the matcher clamps it), dump order breaking ties. */
static uint64_t order_key(const struct hd_dump *d, uint32_t v)
{
	int64_t id = HD_VALUE(d, v).id;

	return (id < 0 ? 0 : id > 0xffffffff ? 0xffffffff : (uint64_t)id) << 32 | v;
}

/*
 * What an 'a' line of a parameter allocation leaves out: its parameter
 * number, shape index and shape are those of the allocation's value
 * defined by a parameter instruction (the first in value order, the
 * order of the 'v' lines), with the shape's layout stripped.  Returns
 * -1 when the allocation has no such value.
 */
static int default_param(const struct hd_dump *d, uint32_t alloc, int64_t *number,
			 struct hd_slice *index, struct hd_slice *shape)
{
	const struct hd_alloc *a = &HD_ALLOC(d, alloc);
	const struct hd_alloc_value *best = NULL;
	uint64_t best_key = 0;
	uint32_t k;

	for (k = 0; k < a->value_count; k++) {
		const struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, a->value_first + k);
		const struct hd_value *val = &HD_VALUE(d, av->value);
		uint64_t key = order_key(d, av->value);

		if (val->insn == HD_NONE || val->alloc_value != a->value_first + k ||
		    !hd_slice_eq_cstr(HD_INSN(d, val->insn).opcode, "parameter"))
			continue;
		if (!best || key < best_key) {
			best = av;
			best_key = key;
		}
	}
	if (!best)
		return -1;
	*number = param_number_of(HD_INSN(d, HD_VALUE(d, best->value).insn).operands);
	*index = hd_value_index(&HD_VALUE(d, best->value));
	*shape = hd_shape_strip_layout(best->shape);
	return *number < 0 ? -1 : 0;
}

/* A text built piece by piece in b, an hd_vec of char (never NULL once
 * added to, even when empty). */
static void text_add(struct hd_vec *b, struct hd_slice s)
{
	hd_vec_reserve(b, b->len + s.n + 1);
	if (s.n)
		memcpy((char *)b->data + b->len, s.p, s.n);
	b->len += s.n;
}

static struct hd_slice text_of(const struct hd_vec *b)
{
	return hd_slice_make(b->data, b->len);
}

/* b made name{index} from its two parts. */
static struct hd_slice text_key(struct hd_vec *b, struct hd_slice name,
				struct hd_slice index)
{
	b->len = 0;
	text_add(b, name);
	text_add(b, index);
	return text_of(b);
}

/* ---- shape ids ---------------------------------------------------------- */

/*
 * Shapes spelled in a golden get an id: the shortest prefix (at least 2
 * digits) of the base64url digits of their XXH3-64 hash that no shape
 * spelled before took; if all 11 are taken (a full 64-bit collision), the
 * 11 digits and "~N" with the smallest free N.  Writer and reader assign
 * ids in file order, so they agree; an id depends on the shape and,
 * rarely, on the shapes spelled before it.
 */
struct shape_ids {
	struct hd_arena arena;
	struct hd_table by_id;      /* id text -> index in shapes */
	struct hd_table by_shape;   /* writer: shape -> index in shapes */
	struct hd_vec shapes;       /* struct hd_slice */
	struct hd_vec ids;          /* const char *: the id of each */
};

static void ids_init(struct shape_ids *s)
{
	memset(s, 0, sizeof(*s));
	hd_table_init(&s->by_id, &s->arena);
	hd_table_init(&s->by_shape, &s->arena);
	s->shapes.elem = sizeof(struct hd_slice);
	s->ids.elem = sizeof(const char *);
}

static void ids_release(struct shape_ids *s)
{
	hd_table_release(&s->by_id);
	hd_table_release(&s->by_shape);
	hd_vec_release(&s->shapes);
	hd_vec_release(&s->ids);
	hd_arena_release(&s->arena);
}

/* Gives shape (which must outlive s) its id; returns its index. */
static uint32_t ids_define(struct shape_ids *s, struct hd_slice shape)
{
	char digits[HASH_DIGITS + 1], *id;
	uint32_t k = (uint32_t)s->shapes.len, at;
	size_t n;
	unsigned long extra;

	hash_digits(digits, XXH3_64bits(shape.p ? shape.p : "", shape.n));
	for (n = SHAPE_ID_MIN; n <= HASH_DIGITS; n++) {
		at = hd_table_get(&s->by_id, hd_slice_make(digits, n));
		if (at == HD_NONE)
			break;
		if (hd_slice_eq(HD_VEC_AT(&s->shapes, struct hd_slice, at), shape))
			return at;
	}
	if (n <= HASH_DIGITS) {
		id = hd_arena_strndup(&s->arena, digits, n);
	} else {
		for (extra = 1;; extra++) {
			id = hd_arena_printf(&s->arena, "%s~%lu", digits, extra);
			at = hd_table_get(&s->by_id, hd_slice_cstr(id));
			if (at == HD_NONE)
				break;
			if (hd_slice_eq(HD_VEC_AT(&s->shapes, struct hd_slice, at), shape))
				return at;
		}
	}
	hd_table_put(&s->by_id, hd_slice_cstr(id), k);
	*(struct hd_slice *)hd_vec_push(&s->shapes) = shape;
	*(const char **)hd_vec_push(&s->ids) = id;
	return k;
}

/* The shape of "@ID" s; -1 when none has that ID. */
static int id_lookup(const struct shape_ids *s, struct hd_slice ref, struct hd_slice *out)
{
	uint32_t at = hd_table_get(&s->by_id, hd_slice_make(ref.p + 1, ref.n - 1));

	if (at == HD_NONE)
		return -1;
	*out = HD_VEC_AT(&s->shapes, struct hd_slice, at);
	return 0;
}

/*
 * The elements of a tuple shape's text t (starting with '('), at its top
 * level: calls each(ctx, element, before) for each, where before is the
 * text from the end of the element before (or from the start, "(") to this one:
 * ", ", with an index comment when XLA printed one.  *end is where the
 * last element ended (the caller copies the rest, ")", as it is).
 */
typedef int (*tuple_fn)(void *ctx, struct hd_slice elem, struct hd_slice before);

static int tuple_walk(struct hd_slice t, tuple_fn each, void *ctx, size_t *end)
{
	size_t pos = 1, prev = 0;

	while (pos < t.n && t.p[pos] != ')') {
		size_t start, depth = 0;

		if (t.p[pos] == ',' || t.p[pos] == ' ') {
			pos++;
			continue;
		}
		if (t.n - pos >= 2 && t.p[pos] == '/' && t.p[pos + 1] == '*') {
			const char *e = memmem(t.p + pos, t.n - pos, "*/", 2);
			pos = e ? (size_t)(e - t.p) + 2 : t.n;
			continue;
		}
		start = pos;
		while (pos < t.n) {
			char c = t.p[pos];

			if (depth == 0 && (c == ',' || c == ')'))
				break;
			if (c == '(' || c == '[' || c == '{')
				depth++;
			else if ((c == ')' || c == ']' || c == '}') && depth)
				depth--;
			pos++;
		}
		if (each(ctx, hd_slice_make(t.p + start, pos - start),
			 hd_slice_make(t.p + prev, start - prev)))
			return -1;
		prev = pos;
	}
	*end = prev;
	return 0;
}

/* ---- hash ids ----------------------------------------------------------- */

/*
 * A canonical hash written before is referred to by the shortest prefix
 * (at least 2 digits) of its 11 digits that no hash written before it
 * took; a field of 11 digits is a hash in full.  The structural hash
 * field "=" is the structural hash of the last instruction with that
 * canonical hash (repeated instructions, such as the parameters of the
 * reducers of one kind, repeat both).
 */
struct hash_seen {
	uint64_t canon, structural;
	char digits[HASH_DIGITS + 1];
	size_t id_n;                /* its id: digits[0, id_n) */
};

struct hash_ids {
	struct hd_arena arena;
	struct hd_table by_id;      /* id (prefix of digits) -> index */
	struct hd_table by_hash;    /* writer: canonical hash -> index */
	struct hd_vec seen;         /* struct hash_seen *, arena-owned */
};

static void hash_ids_init(struct hash_ids *h)
{
	memset(h, 0, sizeof(*h));
	hd_table_init(&h->by_id, &h->arena);
	hd_table_init(&h->by_hash, &h->arena);
	h->seen.elem = sizeof(struct hash_seen *);
}

static void hash_ids_release(struct hash_ids *h)
{
	hd_table_release(&h->by_id);
	hd_table_release(&h->by_hash);
	hd_vec_release(&h->seen);
	hd_arena_release(&h->arena);
}

#define HASH_SEEN(h, k) HD_VEC_AT(&(h)->seen, struct hash_seen *, k)

/* Notes canonical hash c (with its structural hash); returns its index. */
static uint32_t hash_define(struct hash_ids *h, uint64_t c, uint64_t s)
{
	struct hash_seen *e;
	uint32_t k = (uint32_t)h->seen.len, at;
	char d[HASH_DIGITS + 1];
	size_t n;

	hash_digits(d, c);
	for (n = SHAPE_ID_MIN; n < HASH_DIGITS; n++) {
		at = hd_table_get(&h->by_id, hd_slice_make(d, n));
		if (at == HD_NONE)
			break;
		if (HASH_SEEN(h, at)->canon == c) {
			HASH_SEEN(h, at)->structural = s;
			return at;
		}
	}
	e = hd_arena_alloc(&h->arena, sizeof(*e));
	e->canon = c;
	e->structural = s;
	memcpy(e->digits, d, sizeof(d));
	e->id_n = n;
	if (n < HASH_DIGITS)
		hd_table_put(&h->by_id, hd_slice_make(e->digits, n), k);
	*(struct hash_seen **)hd_vec_push(&h->seen) = e;
	return k;
}


/* Opcodes written as one capital letter (no HLO opcode is one). */
static const struct {
	char code;
	const char *opcode;
} opcode_codes[] = {
	{ 'F', "fusion" },
	{ 'P', "parameter" },
	{ 'C', "constant" },
};

/* ---- writing ------------------------------------------------------------ */

/* Writes s with backslash, TAB, LF and CR as \\ \t \n \r and other
 * control bytes as \xHH. */
static void put_escaped(FILE *out, struct hd_slice s)
{
	size_t i;

	for (i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

/* One field: s escaped, an empty slice as "-", a slice "-" or "=" as
 * "\-" or "\=" (those two alone mean "none" and "the same"), a leading
 * '^', '@' or '{' (a prefix, a shape id, an index alone) as "\^", "\@",
 * "\{". */
static void put_field(FILE *out, struct hd_slice s)
{
	if (s.n == 0) {
		fputc('-', out);
	} else if (s.n == 1 && (s.p[0] == '-' || s.p[0] == '=')) {
		fprintf(out, "\\%c", s.p[0]);
	} else {
		if (s.p[0] == '^' || s.p[0] == '@' || s.p[0] == '{') {
			fputc('\\', out);
			fputc(s.p[0], out);
			s.p++;
			s.n--;
		}
		put_escaped(out, s);
	}
}

/* Shortest common prefix worth a reference "^N". */
#define PREFIX_MIN 4

/* N of the "^N" that writes s after prev: the prefix they share, cut
 * back so that the rest does not start with a digit; 0 when too short. */
static size_t shared_prefix(struct hd_slice s, struct hd_slice prev)
{
	size_t p = 0;

	while (p < s.n && p < prev.n && s.p[p] == prev.p[p])
		p++;
	while (p > 0 && p < s.n && hd_is_digit(s.p[p]))
		p--;
	return p < PREFIX_MIN || p == s.n ? 0 : p;
}

/*
 * Field s relative to prev (the same field of the line before): "=" when
 * equal, "^N" and the escaped rest when they share a prefix (shared_prefix),
 * else s as put_field writes it.
 */
static void put_prefixed(FILE *out, struct hd_slice s, struct hd_slice prev)
{
	size_t p = shared_prefix(s, prev);

	if (s.n && hd_slice_eq(s, prev)) {
		fputc('=', out);
		return;
	}
	if (!p) {
		put_field(out, s);
		return;
	}
	fprintf(out, "^%zu", p);
	put_escaped(out, hd_slice_make(s.p + p, s.n - p));
}

static void put_hash(FILE *out, uint64_t h)
{
	char b[HASH_DIGITS + 1];

	hash_digits(b, h);
	fputs(b, out);
}

/*
 * Optional fields: an empty field means "derived" and is written as
 * nothing; empty fields at the end of a line are dropped.  opt_skip()
 * notes one, opt_next() writes the TABs up to the next field that is
 * written.
 */
struct opt {
	FILE *out;
	unsigned pending;
};

static void opt_skip(struct opt *o)
{
	o->pending++;
}

static FILE *opt_next(struct opt *o)
{
	unsigned i;

	for (i = 0; i <= o->pending; i++)
		fputc('\t', o->out);
	o->pending = 0;
	return o->out;
}

struct writer {
	FILE *out;
	const struct hd_dump *d;
	const struct hd_canon *c;
	uint32_t *file;             /* per instruction: source file number */
	/* per instruction: op_name, source file and line (hd_insn_sources) */
	const struct hd_insn_source *sources;
	struct hd_insn_source *owned_sources;
	uint32_t next_insn;         /* instructions [0, next_insn) written */
	struct hd_slice prev_name;  /* name of the last "i" line */
	struct hd_slice prev_op;    /* its op_name */
	struct hd_slice prev_shape; /* its shape */
	struct hd_vec key[2];        /* name{index}: the last "v" line's, the current one */
	struct shape_ids ids;
	struct hash_ids hashes;
	struct shape_ids ops;       /* op_names, by id as shapes are */
	int64_t prev_start;         /* live start of the last "v" line, -1 */
	int64_t prev_alloc;         /* allocation of the last "v" line, -1 */
	int64_t prev_param;         /* parameter number of the last "i" line, -1 */
	/* per value: its offset is written (offset_needed) */
	uint8_t *offset_needed;
	/* offsets written with '+': (allocation, offset) -> the first K
	 * (a "*K" refers to it), and per allocation how many so far */
	struct hd_arena off_arena;
	struct hd_table off_seen;
	uint32_t *off_count;
};

static void write_header(struct writer *w, const struct hd_figures *f,
			 const char *module, int derived_peak)
{
	FILE *out = w->out;
	const struct hd_dump *d = w->d;
	size_t i, o = 0;
	int64_t times[3];
	int n_times = 0, k, j;

	fprintf(out, "%s\n", HD_GOLDEN_MAGIC);
	if (module) {
		fputs("module\t", out);
		put_field(out, hd_slice_cstr(module));
		fputc('\n', out);
	}
	if (d->sections != DEFAULT_SECTIONS) {
		fputs("sections\t", out);
		for (i = 0; i < hd_section_word_count; i++)
			if (d->sections & hd_section_words[i].bit)
				fprintf(out, "%s%s", o++ ? " " : "", hd_section_words[i].name);
		fputs(o ? "\n" : "-\n", out);
	}
	if ((d->sections & HD_SEC_TOTAL) && d->total_bytes != default_total(d))
		fprintf(out, "total\t%" PRId64 "\n", d->total_bytes);
	if (d->live_max != default_live_max(d)) {
		if (d->live_max >= 0)
			fprintf(out, "live-max\t%" PRId64 "\n", d->live_max);
		else
			fputs("live-max\t-\n", out);
	}
	if (d->live_max >= 0 && (uint64_t)d->live_max > d->n_lines)
		fprintf(out, "lines\t%" PRIu64 "\n", d->n_lines);
	if (d->n_unknown)
		fprintf(out, "unknown\t%" PRIu64 "\t%" PRIu64 "\n", d->n_unknown,
			d->unknown_lines[0]);
	if (d->peak_style != HD_PEAK_ABSENT || d->peak_time >= 0) {
		fprintf(out, "peak\t%s", (unsigned)d->peak_style < N_ELEMS(peak_styles) ?
			peak_styles[d->peak_style] : "absent");
		if (d->peak_time >= 0)
			fprintf(out, "\t%" PRId64, d->peak_time);
		else
			fputs("\t-", out);
		fputs(derived_peak ? "\t=\n" : "\n", out);
	}
	/* The instructions scheduled at the stated, recomputed and held
	 * peaks. */
	if (f->has_stated)
		times[n_times++] = f->stated_time;
	if (f->has_recomputed)
		times[n_times++] = f->recomputed_time;
	if (f->has_peak)
		times[n_times++] = f->peak_time;
	for (k = 0; k < n_times; k++) {
		for (j = 0; j < k && times[j] != times[k]; j++)
			;
		if (j < k || times[k] < 0 || (uint64_t)times[k] >= d->sequence.len)
			continue;
		fprintf(out, "at\t%" PRId64 "\t", times[k]);
		put_field(out, HD_SEQ(d, times[k]));
		fputc('\n', out);
	}
}

/* Does the allocation's parameter value give its parameter number,
 * index and shape (default_param)? */
static int param_derivable(const struct hd_dump *d, uint32_t alloc)
{
	const struct hd_alloc *a = &HD_ALLOC(d, alloc);
	int64_t number;
	struct hd_slice index, shape;

	return default_param(d, alloc, &number, &index, &shape) == 0 &&
		number == a->param_number && hd_slice_eq(index, a->param_index) &&
		hd_slice_eq(shape, a->param_shape);
}

static void write_allocs(struct writer *w)
{
	const struct hd_dump *d = w->d;
	int64_t next = 0;
	size_t i;

	for (i = 0; i < d->allocs.len; i++) {
		const struct hd_alloc *a = &HD_ALLOC(d, i);
		struct opt o = { w->out, 0 };

		fprintf(w->out, "a\t%" PRId64 "\t", a->size);
		put_letters(w->out, alloc_letters, N_ELEMS(alloc_letters), a->flags);
		if (a->color != 0)
			fprintf(opt_next(&o), "%" PRId64, a->color);
		else
			opt_skip(&o);
		if (a->index != next)
			fprintf(opt_next(&o), "%" PRId64, a->index);
		else
			opt_skip(&o);
		next = a->index + 1;
		/* a parameter's number, index and shape, unless its value
		 * gives them: the rules match donated parameters of two
		 * dumps by number and index */
		if ((a->flags & HD_ALLOC_PARAMETER) && !param_derivable(d, (uint32_t)i)) {
			fprintf(opt_next(&o), "%" PRId64, a->param_number);
			if (hd_slice_eq_cstr(a->param_index, "{}"))
				opt_skip(&o);
			else
				put_field(opt_next(&o), a->param_index);
			put_field(opt_next(&o), a->param_shape);
		}
		fputc('\n', w->out);
	}
}

/*
 * The attribute item of attrs that starts with key (at its start or
 * after ' '), up to the ", " that ends it; empty when absent.
 */
static struct hd_slice attr_item(struct hd_slice attrs, const char *key)
{
	size_t n = strlen(key), i, j;

	for (i = 0; i + n <= attrs.n; i++) {
		if ((i > 0 && attrs.p[i - 1] != ' ') ||
		    memcmp(attrs.p + i, key, n) != 0)
			continue;
		for (j = i + n; j < attrs.n && attrs.p[j] != ','; j++)
			;
		return hd_slice_make(attrs.p + i, j - i);
	}
	return HD_SLICE_NULL;
}

/*
 * A copy-start keeps its first operand (the copy's source) and the
 * attributes that make it a cross-program prefetch (figures.c), nothing
 * else of its operands and attributes.
 */
static void write_copy_extras(struct opt *o, const struct hd_insn *in)
{
	static const char *const keys[] = {
		"cross_program_prefetch_index=", "is_cross_program_prefetch=",
	};
	struct hd_slice op = hd_insn_first_operand(in);
	size_t k;
	int n = 0;

	if (op.n) {
		fputc('%', opt_next(o));
		put_escaped(o->out, op);
	} else {
		opt_skip(o);
	}
	for (k = 0; k < N_ELEMS(keys); k++) {
		struct hd_slice item = attr_item(in->attrs, keys[k]);

		if (!item.n)
			continue;
		if (n++)
			fputs(", ", o->out);
		else
			opt_next(o);
		put_field(o->out, item);
	}
}

/* The one-byte spellings of the distances 1 to 61 (write_graph_operands). */
static const char delta_digits[] =
	"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static size_t next_operand(struct hd_slice t, size_t i, struct hd_slice *name)
{
	size_t j;

	while (i < t.n) {
		if (t.p[i] == '"') {
			i = hd_scan_string_end(t.p, t.n, i);
			continue;
		}
		if (t.p[i++] != '%')
			continue;
		j = i + hd_scan_name_span(t.p + i, t.n - i, t.p + t.n);
		*name = hd_slice_make(t.p + i, j - i);
		return j;
	}
	return SIZE_MAX;
}

/*
 * What the matcher's graph passes read of the operands (match.h): a
 * parameter's number as it is (nothing for 0); else, for each %name, how
 * many instructions before this one its instruction is (the 'i' lines
 * are in instruction order): one byte of delta_digits for 1 to 61, else
 * the number in parentheses (negative for one after), '?' for a name
 * that is no instruction; nothing when none is an instruction.  Numbers
 * are much shorter than the names.
 */
static void write_graph_operands(struct opt *o, const struct hd_dump *d,
				 uint32_t at, const struct hd_insn *in,
				 int64_t *prev_param)
{
	struct hd_slice t = in->operands, name;
	size_t i = 0;
	int known = 0;

	/* a parameter's number, unless it is the default (match.c reads
	 * none as 0) */
	if (hd_slice_eq_cstr(in->opcode, "parameter")) {
		int64_t number = param_number_of(t);

		if (number != default_param_number(*prev_param))
			put_escaped(opt_next(o), t.n ? t : hd_slice_cstr("0"));
		*prev_param = number;
		return;
	}
	*prev_param = -1;
	/* a list of no instruction gives the graph passes nothing */
	while (!known && (i = next_operand(t, i, &name)) != SIZE_MAX)
		known = hd_dump_insn_by_name(d, name) != HD_NONE;
	if (!known)
		return;
	opt_next(o);
	for (i = 0; (i = next_operand(t, i, &name)) != SIZE_MAX;) {
		uint32_t k = hd_dump_insn_by_name(d, name);
		int64_t delta = (int64_t)at - (int64_t)k;

		if (k == HD_NONE)
			fputc('?', o->out);
		else if (delta >= 1 && delta <= 61)
			fputc(delta_digits[delta - 1], o->out);
		else
			fprintf(o->out, "(%" PRId64 ")", delta);
	}
}

/*
 * The source files of the instructions, numbered from 1 in order of
 * first use: the "f" lines, and each instruction's number in files[].
 */
static uint32_t *write_files(FILE *out, const struct hd_dump *d,
			     const struct hd_insn_source *sources)
{
	struct hd_arena arena = HD_ARENA_INIT;
	struct hd_table seen;
	uint32_t *num = hd_xcalloc(d->insns.len + 1, sizeof(uint32_t));
	uint32_t next = 1;
	struct hd_slice prev = HD_SLICE_NULL;
	size_t i;

	hd_table_init(&seen, &arena);
	for (i = 0; i < d->insns.len; i++) {
		struct hd_slice f = sources[i].source_file;
		uint32_t k;

		if (!f.n)
			continue;
		k = hd_table_put(&seen, f, next);
		if (k != HD_NONE) {
			num[i] = k;
			continue;
		}
		num[i] = next++;
		fputs("f\t", out);
		put_prefixed(out, f, prev);
		prev = f;
		fputc('\n', out);
	}
	hd_table_release(&seen);
	hd_arena_release(&arena);
	return num;
}

/* The opcode an instruction name implies: the name up to its first '.'
 * (an opcode field "=" stands for it). */
static struct hd_slice opcode_of_name(struct hd_slice name)
{
	const char *dot = name.n ? memchr(name.p, '.', name.n) : NULL;

	return hd_slice_make(name.p, dot ? (size_t)(dot - name.p) : name.n);
}

/* Writes "@ID" for a shape spelled before; 0 when it was not. */
static int put_shape_id(struct writer *w, struct hd_slice shape)
{
	uint32_t k = hd_table_get(&w->ids.by_shape, shape);

	if (k == HD_NONE)
		return 0;
	fprintf(w->out, "@%s", HD_VEC_AT(&w->ids.ids, const char *, k));
	return 1;
}

static void define_shape(struct writer *w, struct hd_slice shape)
{
	hd_table_put(&w->ids.by_shape, shape, ids_define(&w->ids, shape));
}

/* A shape known by its id ("@ID"), or written and given one. */
static void put_shape_ref(struct writer *w, struct hd_slice shape)
{
	if (put_shape_id(w, shape))
		return;
	fwrite(shape.p, 1, shape.n, w->out);
	define_shape(w, shape);
}

static int put_tuple_element(void *ctx, struct hd_slice elem, struct hd_slice before)
{
	struct writer *w = ctx;

	fwrite(before.p, 1, before.n, w->out);
	if (elem.n)
		put_shape_ref(w, elem);
	return 0;
}

/* Does shape need no escape and hold no '@' (then a tuple is written
 * with its elements as "@ID" where known)? */
static int plain_shape(struct hd_slice s)
{
	size_t i;

	for (i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		if (c == '\\' || c == '@' || c < 0x20 || c == 0x7f)
			return 0;
	}
	return 1;
}

/*
 * A shape spelled in an "i" line.  A tuple without bytes to escape is
 * written with each top-level element that has an id as "@ID", the
 * others spelled and given ids (left to right, before the tuple gets its
 * own).  Other shapes are written as put_field writes them, with every
 * '@' as "\@" (so a field that starts with '(' and holds no backslash is
 * always such a tuple).
 */
static void put_spelled_shape(struct writer *w, struct hd_slice shape)
{
	size_t end = 0, i;

	if (shape.n && shape.p[0] == '(' && plain_shape(shape)) {
		tuple_walk(shape, put_tuple_element, w, &end);
		fwrite(shape.p + end, 1, shape.n - end, w->out);
		return;
	}
	if (!memchr(shape.p, '@', shape.n)) {
		put_field(w->out, shape);
		return;
	}
	for (i = 0; i < shape.n; i++) {
		if (shape.p[i] == '@')
			fputs("\\@", w->out);
		else
			put_escaped(w->out, hd_slice_make(shape.p + i, 1));
	}
}

/* The shape field of a "v" line (when not derived): "@ID" a shape
 * spelled before, or the shape spelled (it gets an id). */
static void put_value_shape(struct writer *w, struct hd_slice shape)
{
	if (!shape.n) {
		fputc('-', w->out);
	} else if (!put_shape_id(w, shape)) {
		put_spelled_shape(w, shape);
		define_shape(w, shape);
	}
}

/* The shape field of an "i" line: "=" the shape of the "i" line before,
 * else as on a "v" line. */
static void put_shape(struct writer *w, struct hd_slice shape)
{
	if (shape.n && hd_slice_eq(shape, w->prev_shape))
		fputc('=', w->out);
	else
		put_value_shape(w, shape);
	w->prev_shape = shape;
}

/* The opcode field: "=" the name up to its first '.', a capital letter
 * of opcode_codes, else the opcode (one capital letter alone as \xHH). */
static void put_opcode(FILE *out, const struct hd_insn *in)
{
	size_t k;

	if (in->opcode.n && hd_slice_eq(in->opcode, opcode_of_name(in->name))) {
		fputc('=', out);
		return;
	}
	for (k = 0; k < N_ELEMS(opcode_codes); k++)
		if (hd_slice_eq_cstr(in->opcode, opcode_codes[k].opcode)) {
			fputc(opcode_codes[k].code, out);
			return;
		}
	if (in->opcode.n == 1 && in->opcode.p[0] >= 'A' && in->opcode.p[0] <= 'Z')
		fprintf(out, "\\x%02x", (unsigned char)in->opcode.p[0]);
	else
		put_field(out, in->opcode);
}

/* The two hash fields (struct hash_ids). */
static void put_hashes(struct writer *w, uint64_t canon, uint64_t structural)
{
	uint32_t k = hd_table_get_i64(&w->hashes.by_hash, (int64_t)canon);
	struct hash_seen *e = k != HD_NONE ? HASH_SEEN(&w->hashes, k) : NULL;

	if (!e || e->id_n == HASH_DIGITS) {
		put_hash(w->out, canon);
		fputc('\t', w->out);
		put_hash(w->out, structural);
		k = hash_define(&w->hashes, canon, structural);
		hd_table_put_i64(&w->hashes.by_hash, (int64_t)canon, k);
		return;
	}
	fwrite(e->digits, 1, e->id_n, w->out);
	fputc('\t', w->out);
	if (e->structural == structural)
		fputc('=', w->out);
	else
		put_hash(w->out, structural);
	e->structural = structural;
}

/* Length of put_prefixed's "^N" and rest for s after prev (0: none). */
static size_t prefix_cost(struct hd_slice s, struct hd_slice prev)
{
	size_t p = shared_prefix(s, prev);

	return p ? 1 + (size_t)snprintf(NULL, 0, "%zu", p) + (s.n - p) : 0;
}

/*
 * The op_name field: as a prefix field against the "i" line before, or
 * "@ID" when that is shorter and the op_name was written before (ids as
 * for shapes, of the op_names in file order).
 */
static void put_op_name(struct writer *w, FILE *out, struct hd_slice op)
{
	uint32_t k = hd_table_get(&w->ops.by_shape, op);
	const char *id = k != HD_NONE ? HD_VEC_AT(&w->ops.ids, const char *, k) : NULL;
	size_t pc = prefix_cost(op, w->prev_op);

	if (id && !hd_slice_eq(op, w->prev_op) && 1 + strlen(id) < (pc ? pc : op.n)) {
		fprintf(out, "@%s", id);
	} else {
		put_prefixed(out, op, w->prev_op);
		if (k == HD_NONE)
			hd_table_put(&w->ops.by_shape, op, ids_define(&w->ops, op));
	}
}

static void write_insn(struct writer *w, uint32_t i)
{
	const struct hd_insn *in = &HD_INSN(w->d, i);
	const struct hd_insn_source src = w->sources[i];
	FILE *out = w->out;
	struct opt o = { out, 0 };

	fputs("i\t", out);
	put_prefixed(out, in->name, w->prev_name);
	w->prev_name = in->name;
	fputc('\t', out);
	put_opcode(out, in);
	fputc('\t', out);
	put_hashes(w, w->c->insn_canon[i], w->c->insn_struct[i]);
	fputc('\t', out);
	put_shape(w, in->shape);
	if (src.op_name.n)
		put_op_name(w, opt_next(&o), src.op_name);
	else
		opt_skip(&o);
	w->prev_op = src.op_name;
	if (w->file[i])
		fprintf(opt_next(&o), "%" PRIu32, w->file[i]);
	else
		opt_skip(&o);
	if (src.source_line >= 0)
		fprintf(opt_next(&o), "%" PRId64, src.source_line);
	else
		opt_skip(&o);
	if (hd_slice_eq_cstr(in->opcode, "copy-start")) {
		write_copy_extras(&o, in);
		w->prev_param = -1;
	} else {
		write_graph_operands(&o, w->d, i, in, &w->prev_param);
	}
	fputc('\n', out);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The values in the order they are written in (order_key). */
static uint32_t *value_order(const struct hd_dump *d)
{
	size_t n = d->values.len, i;
	uint64_t *keys = hd_xmalloc((n + 1) * sizeof(*keys));
	uint32_t *order = hd_xmalloc((n + 1) * sizeof(*order));

	for (i = 0; i < n; i++)
		keys[i] = order_key(d, (uint32_t)i);
	qsort(keys, n, sizeof(*keys), cmp_u64);
	for (i = 0; i < n; i++)
		order[i] = (uint32_t)keys[i];    /* the value, below the id */
	free(keys);
	return order;
}

/* Digits put_b64 writes for x. */
static size_t b64_len(uint64_t x)
{
	size_t n = 1;

	while (x >>= 6)
		n++;
	return n;
}

/*
 * The offset of a value line: "*K" when that is shorter and the
 * allocation had this offset written as the K-th "+OFFSET" (from 0, in
 * base64url digits), else "+OFFSET".  Values that share their bytes
 * (a loop's state, its phis, the in-place ops on them) repeat a few
 * offsets many times.
 */
static void put_offset(struct writer *w, const struct hd_alloc_value *av)
{
	char key[sizeof(uint32_t) + sizeof(int64_t)];
	uint32_t k;
	struct hd_slice ks;

	memcpy(key, &av->alloc, sizeof(uint32_t));
	memcpy(key + sizeof(uint32_t), &av->offset, sizeof(int64_t));
	ks = hd_slice_make(key, sizeof(key));
	k = hd_table_get(&w->off_seen, ks);
	if (k != HD_NONE && b64_len(k) < b64_len((uint64_t)av->offset)) {
		fputc('*', w->out);
		put_b64(w->out, k);
		return;
	}
	fputc('+', w->out);
	put_b64(w->out, (uint64_t)av->offset);
	if (k == HD_NONE)
		hd_table_put(&w->off_seen, hd_slice_make(hd_arena_strndup(&w->off_arena, key,
								sizeof(key)), sizeof(key)),
			     w->off_count[av->alloc]);
	w->off_count[av->alloc]++;
}

/*
 * The key field of a "v" line: "{IDX}" alone after the "i" line of its
 * name (empty for "{}"), else name{index} after what it shares with the
 * previous key.  The current key then becomes the previous one.
 */
static void put_value_key(struct writer *w, const struct hd_value *val)
{
	struct hd_slice cur = text_key(&w->key[1], val->name, hd_value_index(val));
	struct hd_vec t;

	if (w->prev_name.n && val->index_n && hd_slice_eq(val->name, w->prev_name)) {
		if (!hd_slice_eq_cstr(hd_value_index(val), "{}"))
			put_escaped(w->out, hd_value_index(val));
	} else
		put_prefixed(w->out, cur, text_of(&w->key[0]));
	t = w->key[0];
	w->key[0] = w->key[1];
	w->key[1] = t;
}

/* The allocation (with "+OFFSET" where the bytes held depend on it) and
 * live range fields of a "v" line, each empty or shortened when it
 * repeats the line before's. */
static void put_value_place(struct writer *w, uint32_t v, const struct hd_value *val,
			    const struct hd_alloc *a, const struct hd_alloc_value *av)
{
	FILE *out = w->out;

	if (!a)
		fputs("\t-", out);
	else if (a->index == w->prev_alloc)
		fputc('\t', out);
	else
		fprintf(out, "\t%" PRId64, a->index);
	if (a && w->offset_needed[v])
		put_offset(w, av);
	w->prev_alloc = a ? a->index : -1;
	if (!(val->flags & HD_VALUE_LIVE))
		fputs("\t-", out);
	else if (val->live_start == w->prev_start)
		fprintf(out, "\t-%" PRId64, val->live_end);
	else
		fprintf(out, "\t%" PRId64 "-%" PRId64, val->live_start, val->live_end);
	w->prev_start = val->flags & HD_VALUE_LIVE ? val->live_start : -1;
}

/* The optional size, colour, instruction and shape fields of a value
 * (a and av NULL outside allocations), each skipped when the reader can
 * derive it. */
static void put_value_opts(struct writer *w, struct opt *o, uint32_t v,
			   const struct hd_alloc *a,
			   const struct hd_alloc_value *av, int same_insn)
{
	const struct hd_dump *d = w->d;
	const struct hd_value *val = &HD_VALUE(d, v);
	int has_color = (val->flags & HD_VALUE_HAS_COLOR) != 0;

	if (!av || av->size == default_size(av->shape))
		opt_skip(o);
	else if (av->size == a->size)
		fputc('=', opt_next(o));
	else
		fprintf(opt_next(o), "%" PRId64, av->size);
	if (has_color && !(a && HD_VALUE_COLOR(d, v) == a->color))
		fprintf(opt_next(o), "%" PRId64, HD_VALUE_COLOR(d, v));
	else if (!has_color && a)
		fputc('-', opt_next(o));
	else
		opt_skip(o);
	if (val->insn != HD_NONE && !same_insn)
		put_field(opt_next(o), HD_INSN(d, val->insn).name);
	else
		opt_skip(o);
	if (av && !hd_slice_eq(av->shape,
			       default_shape(d, val->insn, hd_value_index(val)))) {
		opt_next(o);
		put_value_shape(w, av->shape);
	}
}

static void write_value(struct writer *w, uint32_t v)
{
	const struct hd_dump *d = w->d;
	const struct hd_value *val = &HD_VALUE(d, v);
	const struct hd_alloc_value *av = val->alloc_value != HD_NONE ?
		&HD_ALLOC_VALUE(d, val->alloc_value) : NULL;
	const struct hd_alloc *a = av ? &HD_ALLOC(d, av->alloc) : NULL;
	FILE *out = w->out;
	struct opt o = { out, 0 };
	uint32_t named = hd_dump_insn_by_name(d, val->name);
	int same_insn = val->insn != HD_NONE && val->insn == named;
	uint32_t flags = (val->flags & FLAG_MASK) | (same_insn ? FLAG_DEFINED : 0);

	/* The instructions up to this value's, in dump order. */
	if (val->insn != HD_NONE)
		while (w->next_insn <= val->insn)
			write_insn(w, w->next_insn++);
	if (named != HD_NONE && named >= w->next_insn)
		named = HD_NONE;        /* not written yet: the reader knows none */

	fputs("v\t", out);
	put_value_key(w, val);
	put_value_place(w, v, val, a, av);
	if (flags != default_flags(d, named))
		put_letters(opt_next(&o), value_letters, N_ELEMS(value_letters), flags);
	else
		opt_skip(&o);
	put_value_opts(w, &o, v, a, av, same_insn);
	fputc('\n', out);
}

struct live_item {
	int64_t offset, stop, start, end;
	uint32_t value;
};

static int cmp_live_item(const void *a, const void *b)
{
	const struct live_item *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->value > y->value) - (x->value < y->value);
}

/* How many values after one in offset order offsets_needed compares it
 * with before it writes its offset anyway. */
#define OVERLAP_SCAN 64

/*
 * The values whose offset the bytes held depend on: those that share a
 * byte with another value of their allocation live at a same time.  The
 * others the reader puts where they share no byte with anything (see
 * place_alloc_values), which keeps every union.  Per allocation, by
 * offset: each value against the ones after it that start inside it,
 * up to OVERLAP_SCAN of them (past that its offset is written anyway).
 */
static uint8_t *offsets_needed(const struct hd_dump *d)
{
	uint8_t *need = hd_xcalloc(d->values.len + 1, 1);
	struct live_item *it = hd_xmalloc((d->alloc_values.len + 1) * sizeof(*it));
	size_t a, k, j;

	for (a = 0; a < d->allocs.len; a++) {
		const struct hd_alloc *al = &HD_ALLOC(d, a);
		size_t n = 0;

		for (k = 0; k < al->value_count; k++) {
			const struct hd_alloc_value *av =
				&HD_ALLOC_VALUE(d, al->value_first + k);
			const struct hd_value *val = &HD_VALUE(d, av->value);

			if (!(val->flags & HD_VALUE_LIVE) || av->size <= 0 ||
			    av->offset < 0 || av->offset > INT64_MAX - av->size ||
			    val->alloc_value != al->value_first + k)
				continue;
			it[n].offset = av->offset;
			it[n].stop = av->offset + av->size;
			it[n].start = val->live_start;
			it[n].end = val->live_end;
			it[n].value = av->value;
			n++;
		}
		if (n > 1)
			qsort(it, n, sizeof(*it), cmp_live_item);
		for (k = 0; k < n; k++)
			for (j = k + 1; j < n && it[j].offset < it[k].stop; j++) {
				if (j - k > OVERLAP_SCAN)
					goto all;
				if (it[j].start <= it[k].end && it[k].start <= it[j].end)
					need[it[k].value] = need[it[j].value] = 1;
			}
		continue;
all:		/* too many to compare: every offset of the allocation */
		for (k = 0; k < n; k++)
			need[it[k].value] = 1;
	}
	free(it);
	return need;
}

static void write_values(struct writer *w)
{
	uint32_t *order = value_order(w->d);
	size_t i;

	w->offset_needed = offsets_needed(w->d);
	hd_table_init(&w->off_seen, &w->off_arena);
	w->off_count = hd_xcalloc(w->d->allocs.len + 1, sizeof(uint32_t));
	for (i = 0; i < w->d->values.len; i++)
		write_value(w, order[i]);
	while (w->next_insn < w->d->insns.len)
		write_insn(w, w->next_insn++);
	free(order);
	free(w->offset_needed);
	w->offset_needed = NULL;
	free(w->off_count);
	hd_table_release(&w->off_seen);
	hd_arena_release(&w->off_arena);
}

static int cmp_peak_entry(const void *a, const void *b)
{
	const struct hd_peak_entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/*
 * Can the reader derive the peak lines (derived_peak_lines)?  The reports
 * read the lines as a set (bytes per value, count, total), so they can
 * be derived when those agree: the same (value, bytes) pairs, and in the
 * cumulative style a last cumulative figure equal to the sum.
 */
static int peak_derivable(const struct hd_dump *d)
{
	struct hd_vec got = HD_VEC_INIT(struct hd_peak_entry);
	struct hd_peak_entry *a, *b;
	size_t n = d->peak.len, i;
	int64_t sum = 0;
	int ok = n > 0 && (d->peak_style == HD_PEAK_CUMULATIVE ||
			   d->peak_style == HD_PEAK_PLAIN);

	for (i = 0; i < n && ok; i++) {
		const struct hd_peak_entry *e = &HD_PEAK_ENTRY(d, i);

		sum = hd_sat_add(sum, e->bytes);
		ok = e->value != HD_NONE &&
			(d->peak_style != HD_PEAK_PLAIN || e->cumulative == -1);
	}
	if (ok && d->peak_style == HD_PEAK_CUMULATIVE)
		ok = HD_PEAK_ENTRY(d, n - 1).cumulative == sum;
	if (ok)
		derived_peak_lines(d, &got, 0);
	if (!ok || got.len != n) {
		hd_vec_release(&got);
		return 0;
	}
	a = hd_xmalloc(n * sizeof(*a));
	memcpy(a, d->peak.data, n * sizeof(*a));
	b = got.data;
	qsort(a, n, sizeof(*a), cmp_peak_entry);
	qsort(b, n, sizeof(*b), cmp_peak_entry);
	for (i = 0; i < n && ok; i++)
		ok = a[i].value == b[i].value && a[i].bytes == b[i].bytes;
	free(a);
	hd_vec_release(&got);
	return ok;
}

/* Live ranges no value line carries, and the peak lines. */
static void write_ranges_and_peak(struct writer *w, int derived_peak)
{
	const struct hd_dump *d = w->d;
	struct hd_vec key[2] = { HD_VEC_INIT(char), HD_VEC_INIT(char) }, t;
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < d->unknown_ranges.len; i++) {
		const struct hd_unknown_range *u = &HD_UNKNOWN_RANGE(d, i);
		const struct hd_live_range *r = &HD_LIVE_RANGE(d, u->range);

		fputs("r\t", w->out);
		put_field(w->out, u->name);
		put_escaped(w->out, u->index);
		fprintf(w->out, "\t%" PRId64 "\t%" PRId64 "\n", r->start, r->end);
	}
	if (derived_peak)
		return;
	for (i = 0; i < d->peak.len; i++) {
		const struct hd_peak_entry *e = &HD_PEAK_ENTRY(d, i);
		struct opt o = { w->out, 0 };
		int64_t want;

		fputs("p\t", w->out);
		put_prefixed(w->out, text_key(&key[1], e->name, e->index),
			     text_of(&key[0]));
		t = key[0];
		key[0] = key[1];
		key[1] = t;
		fprintf(w->out, "\t%" PRId64, e->bytes);
		sum = hd_sat_add(sum, e->bytes);
		want = d->peak_style == HD_PEAK_CUMULATIVE ? sum : -1;
		if (e->cumulative == want)
			opt_skip(&o);
		else if (e->cumulative < 0)
			fputc('-', opt_next(&o));
		else
			fprintf(opt_next(&o), "%" PRId64, e->cumulative);
		if (e->value == HD_NONE)
			fputc('-', opt_next(&o));
		fputc('\n', w->out);
	}
	hd_vec_release(&key[0]);
	hd_vec_release(&key[1]);
}

int hd_golden_write(FILE *out, const struct hd_dump *d, const char *module)
{
	struct hd_canon c;
	struct hd_figures f;
	struct writer w = { .out = out, .d = d, .c = &c,
			    .key = { HD_VEC_INIT(char), HD_VEC_INIT(char) },
			    .prev_start = -1, .prev_alloc = -1, .prev_param = -1 };
	int derived_peak;

	hd_canon_compute(&c, d);
	hd_figures_compute(&f, d);
	ids_init(&w.ids);
	hash_ids_init(&w.hashes);
	ids_init(&w.ops);
	derived_peak = peak_derivable(d);
	write_header(&w, &f, module, derived_peak);
	write_allocs(&w);
	w.sources = hd_insn_sources(d, &w.owned_sources);
	w.file = write_files(out, d, w.sources);
	write_values(&w);
	write_ranges_and_peak(&w, derived_peak);
	free(w.file);
	free(w.owned_sources);
	hd_vec_release(&w.key[0]);
	hd_vec_release(&w.key[1]);
	ids_release(&w.ids);
	hash_ids_release(&w.hashes);
	ids_release(&w.ops);
	hd_figures_release(&f);
	hd_canon_release(&c);
	return ferror(out) ? -1 : 0;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct hd_dump *d;
	const char *name;
	uint64_t line;
	struct hd_slice f[MAX_FIELDS];
	size_t nf;
	struct hd_vec pending;   /* struct pending_av: value lines to group */
	struct hd_vec at;        /* struct at_entry */
	struct hd_vec files;     /* struct hd_slice: source files, from 1 */
	struct hd_vec offs;      /* per allocation, a struct hd_vec of its '+' offsets */
	struct shape_ids ids;
	struct hash_ids hashes;
	struct shape_ids ops;       /* op_names, by id */
	int64_t prev_start;         /* live start of the last 'v' line, -1 */
	int64_t prev_alloc;         /* allocation of the last 'v' line, -1 */
	int64_t prev_param;         /* parameter number of the last 'i' line, -1 */
	struct hd_slice prev_file;  /* path of the last 'f' line */
	struct hd_slice prev_name;  /* name of the last 'i' line */
	struct hd_slice prev_op;    /* its op_name */
	struct hd_slice prev_shape; /* its shape */
	struct hd_slice prev_key;   /* name{index} of the last 'v' line */
	struct hd_slice prev_peak;  /* name{index} of the last 'p' line */
	int64_t next_alloc;         /* number of an 'a' line without one */
	int64_t peak_sum;           /* bytes of the 'p' lines so far */
	int has_total, has_live_max, has_lines, derived_peak;
	uint64_t peak_header;       /* line of the 'peak' header, 0 if none */
};

/* A value's allocation entry before the grouping by allocation. */
struct pending_av {
	uint32_t value;
	uint32_t alloc;
	int64_t size, offset;
	struct hd_slice shape;
	uint32_t line;
};

struct at_entry {
	int64_t time;
	struct hd_slice name;
};

static int bad(struct reader *r, const char *what, const char *expected)
{
	hd_error(r->name, r->line, "%s (expected %s)", what, expected);
	return -1;
}

/* Splits line l at TABs into r->f; returns the number of fields. */
static size_t split(struct reader *r, struct hd_slice l)
{
	size_t n = 0, start = 0, i;

	for (i = 0; i <= l.n && n < MAX_FIELDS; i++) {
		if (i == l.n || l.p[i] == '\t') {
			r->f[n++] = hd_slice_make(l.p + start, i - start);
			start = i + 1;
		}
	}
	if (i <= l.n)   /* more fields than MAX_FIELDS: keep the count honest */
		n = MAX_FIELDS + 1;
	r->nf = n;
	return n;
}

/* Field k, or an empty one past the end of the line (a dropped
 * optional field). */
static struct hd_slice opt_field(const struct reader *r, size_t k)
{
	return k < r->nf ? r->f[k] : HD_SLICE_NULL;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The bytes of field s: "-" is empty; escapes (see put_field) are
 * decoded into the arena, otherwise the slice is returned as it is.
 * Returns 0, or -1 on a bad escape.
 */
static int field_text(struct reader *r, struct hd_slice s, struct hd_slice *out)
{
	char *buf;
	size_t i, o = 0;

	if (s.n == 1 && s.p[0] == '-') {
		*out = HD_SLICE_NULL;
		return 0;
	}
	if (!s.n || !memchr(s.p, '\\', s.n)) {
		*out = s;
		return 0;
	}
	buf = hd_arena_alloc(&r->d->arena, s.n + 1);
	for (i = 0; i < s.n; i++) {
		char c = s.p[i];

		if (c != '\\') {
			buf[o++] = c;
			continue;
		}
		if (++i >= s.n)
			return -1;
		switch (s.p[i]) {
		case '\\': buf[o++] = '\\'; break;
		case 't': buf[o++] = '\t'; break;
		case 'n': buf[o++] = '\n'; break;
		case 'r': buf[o++] = '\r'; break;
		case '-': case '=': case '^': case '@': case '{':
			buf[o++] = s.p[i];
			break;
		case 'x':
			if (i + 2 >= s.n || hexval(s.p[i + 1]) < 0 ||
			    hexval(s.p[i + 2]) < 0)
				return -1;
			buf[o++] = (char)(hexval(s.p[i + 1]) * 16 + hexval(s.p[i + 2]));
			i += 2;
			break;
		default:
			return -1;
		}
	}
	*out = hd_slice_make(buf, o);
	return 0;
}

#define ESCAPES "\\\\, \\t, \\n, \\r, \\-, \\=, \\^, \\@, \\{ or \\xHH"

static int text_field(struct reader *r, size_t k, struct hd_slice *out)
{
	if (field_text(r, opt_field(r, k), out))
		return bad(r, "bad escape in field", ESCAPES);
	return 0;
}

/*
 * Field k relative to prev (see put_prefixed): "=" is prev, "^N" and a
 * rest are the first N bytes of prev and the rest, anything else is
 * read as text_field reads it.
 */
static int prefixed_field(struct reader *r, size_t k, struct hd_slice prev,
			  struct hd_slice *out)
{
	struct hd_slice s = opt_field(r, k), rest;
	size_t i = 1, n = 0;
	char *buf;

	if (s.n == 1 && s.p[0] == '=') {
		if (!prev.n)
			return bad(r, "'=' on the first line of its kind", "the field itself");
		*out = prev;
		return 0;
	}
	if (s.n < 2 || s.p[0] != '^')
		return text_field(r, k, out);
	while (i < s.n && s.p[i] >= '0' && s.p[i] <= '9' && n <= prev.n)
		n = n * 10 + (size_t)(s.p[i++] - '0');
	if (i == 1 || n > prev.n)
		return bad(r, "bad prefix reference", "'^N' with N at most the length of the field on the line before");
	if (field_text(r, hd_slice_make(s.p + i, s.n - i), &rest))
		return bad(r, "bad escape in field", ESCAPES);
	buf = hd_arena_alloc(&r->d->arena, n + rest.n + 1);
	memcpy(buf, prev.p, n);
	if (rest.n)
		memcpy(buf + n, rest.p, rest.n);
	*out = hd_slice_make(buf, n + rest.n);
	return 0;
}

/* A decimal int64 filling field k; "-" gives has = 0 when allowed. */
static int num_field(struct reader *r, size_t k, int64_t *v, int *has)
{
	struct hd_slice s = opt_field(r, k);

	if (has)
		*has = 0;
	if (has && s.n == 1 && s.p[0] == '-') {
		*v = 0;
		return 0;
	}
	if (s.n == 0 || hd_parse_i64(s, v) != (int)s.n)
		return bad(r, "bad number", has ? "a whole number or '-'" : "a whole number");
	if (has)
		*has = 1;
	return 0;
}

static int b64val(char c)
{
	const char *p = c ? strchr(b64url, c) : NULL;

	return p ? (int)(p - b64url) : -1;
}

/* An 11-digit hash field. */
static int hash_field(struct reader *r, size_t k, uint64_t *out)
{
	struct hd_slice s = r->f[k];
	uint64_t h = 0;
	size_t i;

	if (s.n != HASH_DIGITS || b64val(s.p[0]) > 15)
		return bad(r, "bad hash", "11 base64url digits");
	for (i = 0; i < HASH_DIGITS; i++) {
		int x = b64val(s.p[i]);
		if (x < 0)
			return bad(r, "bad hash", "11 base64url digits");
		h = h << 6 | (uint64_t)x;
	}
	*out = h;
	return 0;
}

/* The two hash fields of an 'i' line (struct hash_ids). */
static int hash_fields(struct reader *r, uint64_t *canon, uint64_t *structural)
{
	struct hd_slice s = r->f[3];
	uint32_t k;

	if (s.n == HASH_DIGITS) {
		if (hash_field(r, 3, canon))
			return -1;
		k = HD_NONE;
	} else {
		k = hd_table_get(&r->hashes.by_id, s);
		if (s.n < SHAPE_ID_MIN || k == HD_NONE)
			return bad(r, "unknown hash id", "11 base64url digits, or the id of a hash on an 'i' line above");
		*canon = HASH_SEEN(&r->hashes, k)->canon;
	}
	if (hd_slice_eq_cstr(r->f[4], "=")) {
		if (k == HD_NONE)
			return bad(r, "structural hash '=' after a new canonical hash", "11 base64url digits");
		*structural = HASH_SEEN(&r->hashes, k)->structural;
	} else if (hash_field(r, 4, structural)) {
		return -1;
	}
	hash_define(&r->hashes, *canon, *structural);
	return 0;
}

/* The opcode field of an 'i' line (put_opcode). */
static int opcode_field(struct reader *r, struct hd_slice name, struct hd_slice *out)
{
	struct hd_slice s = r->f[2];
	size_t k;

	if (hd_slice_eq_cstr(s, "=")) {
		*out = opcode_of_name(name);
		return 0;
	}
	for (k = 0; k < N_ELEMS(opcode_codes); k++)
		if (s.n == 1 && s.p[0] == opcode_codes[k].code) {
			*out = hd_slice_cstr(opcode_codes[k].opcode);
			return 0;
		}
	if (s.n == 1 && s.p[0] >= 'A' && s.p[0] <= 'Z')
		return bad(r, "unknown opcode letter", "'=', F, P, C or the opcode");
	return text_field(r, 2, out);
}

/* Splits "name{index}" s at its first '{' (HLO names have none) into
 * name, index ("" when absent) and the lookup key (hd_value_key). */
static int split_key(struct reader *r, struct hd_slice s, struct hd_slice *name,
		     struct hd_slice *index, struct hd_slice *key)
{
	const char *brace;

	if (s.n == 0)
		return bad(r, "empty name", "NAME{INDEX}");
	brace = memchr(s.p, '{', s.n);
	*name = hd_slice_make(s.p, brace ? (size_t)(brace - s.p) : s.n);
	*index = hd_slice_make(s.p + name->n, s.n - name->n);
	if (name->n == 0 || (index->n && (index->n < 2 || index->p[index->n - 1] != '}')))
		return bad(r, "bad name", "NAME{INDEX}");
	*key = hd_value_key(s);
	return 0;
}

static int want_fields(struct reader *r, size_t lo, size_t hi, const char *form)
{
	if (r->nf < lo || r->nf > hi)
		return bad(r, "wrong number of fields", form);
	return 0;
}

/* ---- header lines ---- */

static int read_sections(struct reader *r)
{
	struct hd_slice s = r->f[1];
	size_t i = 0;

	r->d->sections = 0;
	if (hd_slice_eq_cstr(s, "-"))
		return 0;
	while (i < s.n) {
		size_t j = i, k;
		int found = 0;

		while (j < s.n && s.p[j] != ' ')
			j++;
		for (k = 0; k < hd_section_word_count; k++)
			if (hd_slice_eq_cstr(hd_slice_make(s.p + i, j - i),
					     hd_section_words[k].name)) {
				r->d->sections |= hd_section_words[k].bit;
				found = 1;
			}
		if (!found)
			return bad(r, "unknown section", "words such as 'allocations total peak'");
		i = j + 1;
	}
	return 0;
}

static int read_peak_header(struct reader *r)
{
	struct hd_dump *d = r->d;
	size_t k;
	int has;

	if (want_fields(r, 3, 4, "'peak STYLE TIME [=]'"))
		return -1;
	for (k = 0; k < N_ELEMS(peak_styles); k++)
		if (hd_slice_eq_cstr(r->f[1], peak_styles[k]))
			break;
	if (k == N_ELEMS(peak_styles))
		return bad(r, "unknown peak style", "absent, cumulative, plain or undetermined");
	d->peak_style = (int)k;
	if (num_field(r, 2, &d->peak_time, &has))
		return -1;
	if (!has)
		d->peak_time = -1;
	if (r->nf == 4) {
		if (!hd_slice_eq_cstr(r->f[3], "="))
			return bad(r, "bad last field", "'=' (the peak lines are derived) or nothing");
		if (d->peak_style != HD_PEAK_CUMULATIVE && d->peak_style != HD_PEAK_PLAIN)
			return bad(r, "derived peak lines without a peak", "a cumulative or plain peak");
		if (d->peak_time < 0 || d->peak_time >= GOLDEN_MAX_TIME)
			return bad(r, "time out of range", "0 <= TIME < 2^26");
		r->derived_peak = 1;
	}
	r->peak_header = r->line;
	return 0;
}

static int read_number_line(struct reader *r, int64_t *out, int *has)
{
	if (want_fields(r, 2, 2, "'KEY NUMBER'") || num_field(r, 1, out, has))
		return -1;
	if (*out < 0)
		return bad(r, "negative number", "a number >= 0");
	return 0;
}

/*
 * "at TIME NAME": the instruction at TIME of the sequence.  The golden
 * keeps only the times the peak reports name, so the sequence is made
 * long enough for them (peak.c looks a time up only below its length).
 */
static int read_at(struct reader *r)
{
	struct at_entry *e;
	struct hd_dump *d = r->d;
	int64_t t;

	if (want_fields(r, 3, 3, "'at TIME NAME'") || num_field(r, 1, &t, NULL))
		return -1;
	if (t < 0 || t >= GOLDEN_MAX_TIME || (uint64_t)t >= d->n_lines)
		return bad(r, "time out of range", "0 <= TIME < the 'lines' figure and 2^26");
	while (d->sequence.len <= (uint64_t)t)
		hd_vec_push(&d->sequence);
	e = hd_vec_push(&r->at);
	e->time = t;
	return text_field(r, 2, &e->name);
}

static int read_unknown(struct reader *r)
{
	int64_t n, first;

	if (want_fields(r, 3, 3, "'unknown N FIRST'") || num_field(r, 1, &n, NULL) ||
	    num_field(r, 2, &first, NULL))
		return -1;
	r->d->n_unknown = (uint64_t)(n < 0 ? 0 : n);
	r->d->unknown_lines[0] = (uint64_t)(first < 0 ? 0 : first);
	return 0;
}

/* A header line (KEY VALUE...).  Returns 1 when the key is not one. */
static int read_header(struct reader *r)
{
	struct hd_dump *d = r->d;
	struct hd_slice k = r->f[0];
	int64_t v;
	int has;

	if (hd_slice_eq_cstr(k, "module"))
		return want_fields(r, 2, 2, "'module NAME'") || text_field(r, 1, &d->module) ? -1 : 0;
	if (hd_slice_eq_cstr(k, "sections"))
		return want_fields(r, 2, 2, "'sections WORDS'") || read_sections(r) ? -1 : 0;
	if (hd_slice_eq_cstr(k, "total")) {
		if (read_number_line(r, &d->total_bytes, NULL))
			return -1;
		d->total_line = (uint32_t)r->line;
		r->has_total = 1;
		return 0;
	}
	if (hd_slice_eq_cstr(k, "live-max")) {
		if (read_number_line(r, &v, &has))
			return -1;
		if (v >= GOLDEN_MAX_TIME)
			return bad(r, "schedule too long", "a length below 2^26");
		d->live_max = has ? v : -1;
		r->has_live_max = 1;
		return 0;
	}
	if (hd_slice_eq_cstr(k, "lines")) {
		if (read_number_line(r, &v, NULL))
			return -1;
		d->n_lines = (uint64_t)v;
		return 0;
	}
	if (hd_slice_eq_cstr(k, "unknown"))
		return read_unknown(r);
	if (hd_slice_eq_cstr(k, "peak"))
		return read_peak_header(r);
	if (hd_slice_eq_cstr(k, "at"))
		return read_at(r);
	return 1;
}

/* ---- records ---- */

static int read_alloc(struct reader *r)
{
	struct hd_dump *d = r->d;
	struct hd_alloc *a;

	if (want_fields(r, 3, 8, "'a SIZE FLAGS [COLOUR [NUMBER [PARAMETER [INDEX [SHAPE]]]]]'"))
		return -1;
	a = hd_vec_push(&d->allocs);
	a->param_number = -1;
	a->line = (uint32_t)r->line;
	a->index = r->next_alloc;
	if (num_field(r, 1, &a->size, NULL) ||
	    (opt_field(r, 3).n && num_field(r, 3, &a->color, NULL)) ||
	    (opt_field(r, 4).n && num_field(r, 4, &a->index, NULL)) ||
	    (opt_field(r, 5).n && num_field(r, 5, &a->param_number, NULL)) ||
	    text_field(r, 6, &a->param_index) || text_field(r, 7, &a->param_shape))
		return -1;
	if (r->nf > 5 && !a->param_index.n)
		a->param_index = hd_slice_cstr("{}");
	if (a->size < 0)
		return bad(r, "negative size", "a size >= 0");
	if (a->index < 0 || (opt_field(r, 5).n && a->param_number < 0))
		return bad(r, "negative number", "a number >= 0");
	r->next_alloc = a->index < INT64_MAX ? a->index + 1 : a->index;
	if (hd_dump_slot_put(&d->alloc_slots, &d->alloc_by_index, d->id_limit,
			     a->index, (uint32_t)(d->allocs.len - 1)) != HD_NONE)
		return bad(r, "allocation listed twice", "one 'a' line per allocation");
	if (read_letters(r->f[2], alloc_letters, N_ELEMS(alloc_letters), &a->flags))
		return bad(r, "unknown allocation flag", "letters p, o, c, l, m, t or '-'");
	return 0;
}

/* A tuple shape being read: its text so far. */
struct tuple_r {
	struct reader *r;
	struct hd_vec text;     /* of char */
};

static int get_tuple_element(void *ctx, struct hd_slice elem, struct hd_slice before)
{
	struct tuple_r *t = ctx;

	text_add(&t->text, before);
	if (elem.n && elem.p[0] == '@') {
		if (id_lookup(&t->r->ids, elem, &elem))
			return bad(t->r, "unknown shape id", "'@ID' of a shape spelled on an 'i' line above");
	} else if (elem.n) {
		ids_define(&t->r->ids, elem);
	}
	text_add(&t->text, elem);
	return 0;
}

/* A tuple shape written with "@ID" elements (put_spelled_shape). */
static int tuple_shape(struct reader *r, struct hd_slice s, struct hd_slice *out)
{
	struct tuple_r t = { r, HD_VEC_INIT(char) };
	size_t end = 0;
	int st = tuple_walk(s, get_tuple_element, &t, &end);

	if (st == 0) {
		text_add(&t.text, hd_slice_make(s.p + end, s.n - end));
		*out = hd_slice_make(hd_arena_strndup(&r->d->arena, t.text.data, t.text.len),
				     t.text.len);
	}
	hd_vec_release(&t.text);
	return st;
}

/*
 * A shape field spelled out (a tuple of ids or text, which then gets an
 * id) or written '@ID'; expected says where an ID should come from.
 */
static int spelled_shape(struct reader *r, size_t k, const char *expected,
			 struct hd_slice *out)
{
	struct hd_slice s = r->f[k];

	if (s.n && s.p[0] == '@')
		return id_lookup(&r->ids, s, out) ? bad(r, "unknown shape id", expected) : 0;
	if (s.n && s.p[0] == '(' && !memchr(s.p, '\\', s.n)) {
		if (tuple_shape(r, s, out))
			return -1;
	} else if (text_field(r, k, out)) {
		return -1;
	}
	if (out->n)
		ids_define(&r->ids, *out);
	return 0;
}

/* The shape field of an 'i' line (put_shape). */
static int shape_field(struct reader *r, size_t k, struct hd_slice *out)
{
	if (hd_slice_eq_cstr(r->f[k], "=")) {
		if (!r->prev_shape.n)
			return bad(r, "shape '=' but the 'i' line before has none", "the shape");
		*out = r->prev_shape;
	} else if (spelled_shape(r, k,
				 "'@ID' of a shape spelled on an 'i' line above", out)) {
		return -1;
	}
	r->prev_shape = *out;
	return 0;
}

/* The op_name field of an 'i' line (put_op_name). */
static int op_name_field(struct reader *r, struct hd_slice *out)
{
	struct hd_slice s = r->f[6];

	if (s.n && s.p[0] == '@')
		return id_lookup(&r->ops, s, out) ?
			bad(r, "unknown op_name id", "'@ID' of an op_name on an 'i' line above") : 0;
	if (prefixed_field(r, 6, r->prev_op, out))
		return -1;
	if (out->n)
		ids_define(&r->ops, *out);
	return 0;
}

static int read_insn(struct reader *r)
{
	struct hd_dump *d = r->d;
	struct hd_insn *in;
	struct hd_insn_source *src;
	uint64_t canon, structural;
	int64_t line, file;
	int has;

	if (want_fields(r, 6, 11, "'i NAME OPCODE CANON STRUCT SHAPE [OP_NAME FILE LINE SOURCE ATTRS]'"))
		return -1;
	in = hd_vec_push(&d->insns);
	src = hd_vec_push(&d->insn_sources);
	src->source_line = -1;
	if (prefixed_field(r, 1, r->prev_name, &in->name))
		return -1;
	r->prev_name = in->name;
	if (in->name.n == 0)
		return bad(r, "empty instruction name", "a name");
	if (opcode_field(r, in->name, &in->opcode) ||
	    hash_fields(r, &canon, &structural) || shape_field(r, 5, &in->shape))
		return -1;
	if (opt_field(r, 6).n && op_name_field(r, &src->op_name))
		return -1;
	r->prev_op = src->op_name;
	if (opt_field(r, 7).n) {
		if (num_field(r, 7, &file, &has))
			return -1;
		if (has && (file < 1 || (uint64_t)file > r->files.len))
			return bad(r, "unknown source file", "the number of an 'f' line above, or '-'");
		if (has)
			src->source_file = HD_VEC_AT(&r->files, struct hd_slice, file - 1);
	}
	if (opt_field(r, 8).n) {
		if (num_field(r, 8, &line, &has))
			return -1;
		src->source_line = has ? line : -1;
	}
	if (text_field(r, 9, &in->operands) || text_field(r, 10, &in->attrs))
		return -1;
	if (hd_slice_eq_cstr(in->opcode, "parameter")) {
		int64_t n = default_param_number(r->prev_param);

		if (!opt_field(r, 9).n && n)
			in->operands = hd_slice_cstr(hd_arena_printf(&d->arena, "%" PRId64, n));
		r->prev_param = param_number_of(in->operands);
	} else {
		r->prev_param = -1;
	}
	/* the text an instruction with stored hashes carries (canon.h) */
	in->text = hd_slice_cstr(hd_arena_printf(&d->arena, "%s%016" PRIx64 " %016" PRIx64,
						 HD_CANON_STORED, canon, structural));
	if (hd_dump_index_insn(d, (uint32_t)(d->insns.len - 1)) != HD_NONE)
		return bad(r, "instruction listed twice", "one 'i' line per instruction");
	return 0;
}

static int value_live(struct reader *r, struct hd_value *val, uint32_t v)
{
	struct hd_slice s = r->f[3];
	const char *dash;
	struct hd_live_range *lr;
	int64_t a, b;

	int64_t prev = r->prev_start;

	r->prev_start = -1;
	if (hd_slice_eq_cstr(s, "-"))
		return 0;
	if (s.n > 1 && s.p[0] == '-') {     /* "-END": the start of the line before */
		a = prev;
		dash = s.p;
	} else {
		dash = s.n > 1 ? memchr(s.p + 1, '-', s.n - 1) : NULL;
		if (dash && hd_parse_i64(hd_slice_make(s.p, (size_t)(dash - s.p)), &a) !=
			    (int)(dash - s.p))
			dash = NULL;
	}
	if (!dash || hd_parse_i64(hd_slice_make(dash + 1, s.n - (size_t)(dash - s.p) - 1), &b) !=
		     (int)(s.n - (size_t)(dash - s.p) - 1) || a < 0 || b < a)
		return bad(r, "bad live range", "START-END with 0 <= START <= END, '-END' after a live range, or '-'");
	r->prev_start = a;
	if (b >= GOLDEN_MAX_TIME)
		return bad(r, "schedule too long", "times below 2^26");
	val->flags |= HD_VALUE_LIVE;
	val->live_start = a;
	val->live_end = b;
	lr = hd_vec_push(&r->d->live_ranges);
	lr->start = a;
	lr->end = b;
	lr->value = v;
	lr->line = (uint32_t)r->line;
	return 0;
}

/*
 * The offset after a value line's allocation (put_offset): '+' and the
 * offset, or '*' and K, the K-th offset written with '+' for allocation
 * a; both in base64url digits.
 */
static int offset_field(struct reader *r, uint32_t a, char how, struct hd_slice off,
			int64_t *offset)
{
	struct hd_vec *list;
	int64_t x = 0;
	size_t k;

	for (k = 0; k < off.n; k++) {
		int c = b64val(off.p[k]);

		if (c < 0 || x > (INT64_MAX >> 6))
			break;
		x = x << 6 | c;
	}
	if (off.n == 0 || k < off.n)
		return bad(r, "bad offset", "ALLOCATION+OFFSET or ALLOCATION*K, in base64url digits");
	while (r->offs.len <= a)
		((struct hd_vec *)hd_vec_push(&r->offs))->elem = sizeof(int64_t);
	list = &HD_VEC_AT(&r->offs, struct hd_vec, a);
	if (how == '*') {
		if ((uint64_t)x >= list->len)
			return bad(r, "unknown offset", "'*K' with K below the number of '+' offsets of the allocation above");
		*offset = HD_VEC_AT(list, int64_t, x);
		return 0;
	}
	*(int64_t *)hd_vec_push(list) = x;
	*offset = x;
	return 0;
}

/* The allocation fields (allocation, size, colour, shape) of a value
 * line; the instruction is known. */
static int value_alloc(struct reader *r, struct hd_value *val, uint32_t v)
{
	struct pending_av *p;
	int64_t number, size, color;
	int has_number, has_color;
	uint32_t a;
	struct hd_slice sz = opt_field(r, 5), col = opt_field(r, 6);
	struct hd_slice shape = opt_field(r, 8), alloc = r->f[2], off = HD_SLICE_NULL;
	int64_t offset = -1;
	size_t plus = hd_scan_either(alloc.p, alloc.n, 0, '+', '*', alloc.p + alloc.n);
	char how = 0;

	if (plus < alloc.n) {       /* "NUMBER+OFFSET", "+OFFSET", "NUMBER*K", "*K" */
		how = alloc.p[plus];
		off = hd_slice_make(alloc.p + plus + 1, alloc.n - plus - 1);
		r->f[2].n = plus;
	}
	if (r->f[2].n == 0) {       /* the allocation of the line before */
		if (r->prev_alloc < 0)
			return bad(r, "allocation left out but the value line before has none", "the allocation number");
		number = r->prev_alloc;
		has_number = 1;
	} else if (num_field(r, 2, &number, &has_number)) {
		return -1;
	}
	r->prev_alloc = has_number ? number : -1;
	if (col.n) {
		if (num_field(r, 6, &color, &has_color))
			return -1;
		if (has_color) {
			val->flags |= HD_VALUE_HAS_COLOR;
			HD_VALUE_COLOR(r->d, v) = color;
		}
	}
	if (!has_number) {
		if (sz.n || shape.n || off.p)
			return bad(r, "size, shape or offset without allocation", "an allocation, or no size, shape and offset");
		return 0;
	}
	a = hd_dump_slot_get(&r->d->alloc_slots, &r->d->alloc_by_index,
			     r->d->id_limit, number);
	if (a == HD_NONE)
		return bad(r, "unknown allocation", "the number of an 'a' line above");
	if (off.p && offset_field(r, a, how, off, &offset))
		return -1;
	if (!col.n) {
		val->flags |= HD_VALUE_HAS_COLOR;
		HD_VALUE_COLOR(r->d, v) = HD_ALLOC(r->d, a).color;
	}
	p = hd_vec_push(&r->pending);
	p->value = v;
	p->alloc = a;
	p->line = (uint32_t)r->line;
	if (shape.n) {
		if (spelled_shape(r, 8, "'@ID' of a shape spelled above", &p->shape))
			return -1;
	} else {
		p->shape = default_shape(r->d, val->insn, hd_value_index(val));
	}
	if (!sz.n) {
		size = default_size(p->shape);
		if (size < 0)
			return bad(r, "no size", "the size, as the shape gives none");
	} else if (hd_slice_eq_cstr(sz, "=")) {
		size = HD_ALLOC(r->d, a).size;
	} else if (num_field(r, 5, &size, NULL)) {
		return -1;
	}
	if (size < 0)
		return bad(r, "negative size", "a size >= 0");
	p->size = size;
	p->offset = offset;
	return 0;
}

/* The name{index} field of a value line: "{IDX}" alone is the name of
 * the last 'i' line with that index, else a prefix field against the
 * value line before. */
static int value_key(struct reader *r, struct hd_slice *key_text)
{
	struct hd_slice s = r->f[1];
	char *buf;

	if (!s.n)
		s = hd_slice_cstr("{}");        /* the last 'i' line's array value */
	if (s.p[0] == '{') {
		if (!r->prev_name.n)
			return bad(r, "'{INDEX}' before any instruction", "NAME{INDEX}");
		buf = hd_arena_alloc(&r->d->arena, r->prev_name.n + s.n + 1);
		memcpy(buf, r->prev_name.p, r->prev_name.n);
		memcpy(buf + r->prev_name.n, s.p, s.n);
		*key_text = hd_slice_make(buf, r->prev_name.n + s.n);
	} else if (prefixed_field(r, 1, r->prev_key, key_text)) {
		return -1;
	}
	r->prev_key = *key_text;
	return 0;
}

static int read_value(struct reader *r)
{
	struct hd_dump *d = r->d;
	struct hd_value *val;
	struct hd_value_lines *lines;
	struct hd_slice name, index, key, text, insn;
	uint32_t v = (uint32_t)d->values.len, named, flags;

	if (want_fields(r, 4, 9, "'v NAME{INDEX} ALLOCATION[+OFFSET] LIVE [FLAGS SIZE COLOUR INSN SHAPE]'"))
		return -1;
	if (value_key(r, &text) || split_key(r, text, &name, &index, &key))
		return -1;
	if (index.n == 0)
		return bad(r, "value without index", "NAME{INDEX}, '{}' for an array value");
	if (index.n > UINT32_MAX)
		return bad(r, "value index too long", "an index under 4 GiB");
	if (v == HD_NONE - 1)
		return bad(r, "too many values", "fewer values");
	val = hd_vec_push(&d->values);
	val->id = (int64_t)v;   /* dump order is file order */
	val->name = name;
	val->index_n = (uint32_t)index.n;
	val->alloc_value = HD_NONE;
	val->insn = HD_NONE;
	*(int64_t *)hd_vec_push(&d->value_colors) = 0;
	hd_vec_push(&d->value_positions);
	lines = hd_vec_push(&d->value_lines);
	lines->line = (uint32_t)r->line;
	hd_dump_slot_put(&d->id_slots, &d->value_by_id, d->id_limit, val->id, v);
	if (hd_dump_index_value(d, v) != HD_NONE)
		return bad(r, "value listed twice", "one 'v' line per value");
	named = hd_dump_insn_by_name(d, name);
	flags = default_flags(d, named);        /* kept when the field is empty */
	if (opt_field(r, 4).n &&
	    read_letters(opt_field(r, 4), value_letters, N_ELEMS(value_letters), &flags))
		return bad(r, "unknown value flag", "letters t, p, r, d or '-'");
	val->flags |= flags & ~FLAG_DEFINED;
	if (val->flags & HD_VALUE_RECORD)
		lines->record_line = (uint32_t)r->line;
	if (text_field(r, 7, &insn))
		return -1;
	if (insn.n && (flags & FLAG_DEFINED))
		return bad(r, "two defining instructions", "flag 'd' or an instruction name, not both");
	if (flags & FLAG_DEFINED)
		insn = name;
	if (insn.n) {
		val->insn = hd_dump_insn_by_name(d, insn);
		if (val->insn == HD_NONE)
			return bad(r, "unknown instruction", "the name of an 'i' line above");
	}
	return value_live(r, val, v) || value_alloc(r, val, v) ? -1 : 0;
}

static int read_orphan_range(struct reader *r)
{
	struct hd_live_range *lr;
	struct hd_unknown_range *u;
	struct hd_slice text, key;

	if (want_fields(r, 4, 4, "'r NAME{INDEX} START END'"))
		return -1;
	u = hd_vec_push(&r->d->unknown_ranges);
	u->range = (uint32_t)r->d->live_ranges.len;
	lr = hd_vec_push(&r->d->live_ranges);
	lr->value = HD_NONE;
	lr->line = (uint32_t)r->line;
	if (text_field(r, 1, &text) ||
	    split_key(r, text, &u->name, &u->index, &key) ||
	    num_field(r, 2, &lr->start, NULL) || num_field(r, 3, &lr->end, NULL))
		return -1;
	if (lr->start < 0 || lr->end < lr->start)
		return bad(r, "bad live range", "0 <= START <= END");
	if (lr->end >= GOLDEN_MAX_TIME)
		return bad(r, "schedule too long", "times below 2^26");
	return 0;
}

static int read_peak_entry(struct reader *r)
{
	struct hd_peak_entry *e;
	struct hd_slice text, key;
	int has;

	if (want_fields(r, 3, 5, "'p NAME{INDEX} BYTES [CUMULATIVE [-]]'"))
		return -1;
	if (r->derived_peak)
		return bad(r, "peak line after 'peak ... ='", "no peak lines, or no '=' in the peak header");
	e = hd_vec_push(&r->d->peak);
	e->line = (uint32_t)r->line;
	if (prefixed_field(r, 1, r->prev_peak, &text) ||
	    split_key(r, text, &e->name, &e->index, &key) ||
	    num_field(r, 2, &e->bytes, NULL))
		return -1;
	r->prev_peak = text;
	if (e->bytes < 0)
		return bad(r, "negative bytes", "a number >= 0");
	r->peak_sum = hd_sat_add(r->peak_sum, e->bytes);
	if (opt_field(r, 3).n) {
		if (num_field(r, 3, &e->cumulative, &has))
			return -1;
		if (!has)
			e->cumulative = -1;
	} else {
		e->cumulative = r->d->peak_style == HD_PEAK_CUMULATIVE ? r->peak_sum : -1;
	}
	if (r->nf == 5) {
		if (!hd_slice_eq_cstr(r->f[4], "-"))
			return bad(r, "bad last field", "'-' (the line names no value) or nothing");
		e->value = HD_NONE;
		return 0;
	}
	e->value = hd_dump_value_by_key(r->d, key);
	if (e->value == HD_NONE)
		return bad(r, "peak line names no value", "the name of a 'v' line above, or a last field '-'");
	return 0;
}

static int read_file(struct reader *r)
{
	struct hd_slice *f;

	if (want_fields(r, 2, 2, "'f PATH'"))
		return -1;
	f = hd_vec_push(&r->files);
	if (prefixed_field(r, 1, r->prev_file, f))
		return -1;
	r->prev_file = *f;
	return 0;
}

static int read_line(struct reader *r, struct hd_slice l)
{
	int k;

	if (l.n && l.p[l.n - 1] == '\r')
		l.n--;
	if (l.n == 0 || l.p[0] == '#')
		return 0;
	if (split(r, l) > MAX_FIELDS)
		return bad(r, "too many fields", "at most 11 TAB-separated fields");
	if (r->f[0].n == 1) {
		switch (r->f[0].p[0]) {
		case 'a': return read_alloc(r);
		case 'f': return read_file(r);
		case 'i': return read_insn(r);
		case 'v': return read_value(r);
		case 'r': return read_orphan_range(r);
		case 'p': return read_peak_entry(r);
		}
	}
	k = read_header(r);
	if (k > 0)
		return bad(r, "unknown line", "a header line or a record a, f, i, v, r or p");
	return k;
}

/* Groups the allocation entries by allocation (stable within one). */
static void place_alloc_values(struct reader *r)
{
	struct hd_dump *d = r->d;
	size_t n = r->pending.len, i;
	uint32_t *fill = hd_xcalloc(d->allocs.len + 1, sizeof(uint32_t));
	int64_t *next;

	for (i = 0; i < n; i++)
		HD_ALLOC(d, HD_VEC_AT(&r->pending, struct pending_av, i).alloc).value_count++;
	for (i = 0; i < d->allocs.len; i++) {
		fill[i + 1] = fill[i] + HD_ALLOC(d, i).value_count;
		HD_ALLOC(d, i).value_first = fill[i];
	}
	hd_vec_reserve(&d->alloc_values, n);
	d->alloc_values.len = n;
	/* a value without its offset goes where it shares no byte: after
	 * the allocation and every written offset of it, one after the
	 * other (next[], per allocation) */
	next = hd_xmalloc((d->allocs.len + 1) * sizeof(*next));
	for (i = 0; i < d->allocs.len; i++)
		next[i] = HD_ALLOC(d, i).size > 0 ? HD_ALLOC(d, i).size : 0;
	for (i = 0; i < n; i++) {
		const struct pending_av *p = &HD_VEC_AT(&r->pending, struct pending_av, i);

		int64_t stop = hd_sat_add(p->offset, p->size);

		if (p->offset >= 0 && stop > next[p->alloc])
			next[p->alloc] = stop;
	}
	for (i = 0; i < n; i++) {
		const struct pending_av *p = &HD_VEC_AT(&r->pending, struct pending_av, i);
		uint32_t at = fill[p->alloc]++;
		struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, at);
		struct hd_value *val = &HD_VALUE(d, p->value);

		memset(av, 0, sizeof(*av));
		av->value = p->value;
		av->alloc = p->alloc;
		av->size = p->size;
		av->offset = p->offset;
		if (p->offset < 0) {
			av->offset = next[p->alloc];
			next[p->alloc] = hd_sat_add(next[p->alloc], p->size);
		}
		av->shape = p->shape;
		HD_VALUE_LINES(d, p->value).listed_line = p->line;
		val->alloc_value = at;
		val->flags |= HD_VALUE_IN_ALLOC;
	}
	free(fill);
	free(next);
}

/* What the golden left out: total, live-max, peak lines, parameters. */
static void derive(struct reader *r)
{
	struct hd_dump *d = r->d;
	size_t i;

	for (i = 0; i < d->allocs.len; i++) {
		struct hd_alloc *a = &HD_ALLOC(d, i);

		if ((a->flags & HD_ALLOC_PARAMETER) && a->param_number < 0 &&
		    default_param(d, (uint32_t)i, &a->param_number, &a->param_index,
				  &a->param_shape) != 0) {
			a->param_number = -1;
			a->param_index = a->param_shape = HD_SLICE_NULL;
		}
	}

	if (!r->has_total && (d->sections & HD_SEC_TOTAL))
		d->total_bytes = default_total(d);
	if (!r->has_live_max)
		d->live_max = default_live_max(d);
	if (r->derived_peak)
		derived_peak_lines(d, &d->peak, (uint32_t)r->peak_header);
}

int hd_golden_parse(struct hd_dump *d, const char *name, const char *data,
		    size_t len)
{
	struct reader r = { .d = d, .name = name,
			    .pending = HD_VEC_INIT(struct pending_av),
			    .at = HD_VEC_INIT(struct at_entry),
			    .files = HD_VEC_INIT(struct hd_slice),
			    .offs = HD_VEC_INIT(struct hd_vec),
			    .prev_start = -1, .prev_alloc = -1, .prev_param = -1 };
	size_t i = 0;
	int st = 0;

	hd_dump_init(d);
	d->name = name;
	d->sections = DEFAULT_SECTIONS;
	d->n_lines = (uint64_t)GOLDEN_MAX_TIME;
	if (!hd_golden_detect(data, len)) {
		if (hd_golden_any_version(data, len))
			hd_error(name, 1, "golden file of another version (expected '%s'; "
				 "write it anew with 'hlodiff golden update')", HD_GOLDEN_MAGIC);
		else
			hd_error(name, 1, "not a golden file (expected '%s' on the first line)",
				 HD_GOLDEN_MAGIC);
		return -1;
	}
	ids_init(&r.ids);
	hash_ids_init(&r.hashes);
	ids_init(&r.ops);
	while (i < len && st == 0) {
		const char *nl = memchr(data + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - data) : len;

		r.line++;
		if (r.line > 1)
			st = read_line(&r, hd_slice_make(data + i, end - i));
		if (!nl && st == 0 && end > i)
			st = bad(&r, "last line has no newline", "a complete file");
		i = end + 1;
	}
	if (st == 0) {
		place_alloc_values(&r);
		derive(&r);
		hd_dump_derive_facts(d);
		for (i = 0; i < r.at.len; i++) {
			const struct at_entry *e = &HD_VEC_AT(&r.at, struct at_entry, i);
			HD_SEQ(d, e->time) = e->name;
		}
	}
	for (i = 0; i < r.offs.len; i++)
		hd_vec_release(&HD_VEC_AT(&r.offs, struct hd_vec, i));
	hd_vec_release(&r.offs);
	hd_vec_release(&r.pending);
	hd_vec_release(&r.at);
	hd_vec_release(&r.files);
	ids_release(&r.ids);
	hash_ids_release(&r.hashes);
	ids_release(&r.ops);
	return st;
}
