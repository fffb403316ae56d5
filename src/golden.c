/*
 * golden.c - golden files: write the summary of a dump, read it back
 * into a struct hd_dump (golden.h; the format is in docs/golden.md).
 *
 * Writing: one pass per record kind over the model, plus the canonical
 * hashes (canon.h) and the figures (for the instruction names at the two
 * peak times).  Values are written in schedule order (live-range start,
 * then value id, as the matcher orders them), so the reader can number
 * them in file order and the matcher sees the same order without the
 * ids.
 *
 * Version 2 writes the op_name of an instruction and the name{index} of
 * a value against the line before ("=", "^N" and a rest), hashes in
 * base64url, and "=" for derivable opcodes, sizes and shapes.
 *
 * Reading: one pass over the lines; fields are slices into the golden
 * text, unescaped into the dump's arena only where they hold escapes.
 * Allocation value lines are grouped by allocation at the end (the
 * model keeps each allocation's values contiguous).
 */
#include "hlodiff/golden.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "hlodiff/canon.h"
#include "hlodiff/diag.h"
#include "hlodiff/figures.h"
#include "hlodiff/input.h"
#include "hlodiff/parse.h"

#define MAX_FIELDS 12
/* Longest schedule a golden may claim (live-max, peak times): the
 * figures allocate one counter per time. */
#define GOLDEN_MAX_TIME ((int64_t)1 << 26)
#define QUOTE_MAX 60

/* ---- shared ------------------------------------------------------------ */

static const struct {
	uint32_t bit;
	const char *name;
} alloc_words[] = {
	{ HD_ALLOC_PARAMETER, "parameter" },
	{ HD_ALLOC_OUTPUT, "output" },
	{ HD_ALLOC_CONSTANT, "constant" },
	{ HD_ALLOC_THREAD_LOCAL, "thread-local" },
	{ HD_ALLOC_MAYBE_LIVE_OUT, "maybe-live-out" },
	{ HD_ALLOC_TEMP, "temp" },
};

static const char *const peak_styles[] = {
	"absent", "cumulative", "plain", "undetermined",
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Value flags in the "flags" field. */
static const struct {
	uint32_t bit;
	char letter;
} value_letters[] = {
	{ HD_VALUE_INDEXED, 't' },
	{ HD_VALUE_PHI, 'p' },
	{ HD_VALUE_RECORD, 'r' },
};

/* 'd' in the flags: the value's record names its defining instruction,
 * the one of the value's own name (else the "insn" field names it). */
#define LETTER_DEFINED 'd'

int hd_golden_detect(const char *data, size_t len)
{
	size_t n = sizeof(HD_GOLDEN_MAGIC) - 1;

	if (len < n || memcmp(data, HD_GOLDEN_MAGIC, n) != 0)
		return 0;
	return len == n || data[n] == '\n' || data[n] == '\r';
}

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
 * '^' (a prefix reference) as "\^". */
static void put_field(FILE *out, struct hd_slice s)
{
	if (s.n == 0) {
		fputc('-', out);
	} else if (s.n == 1 && (s.p[0] == '-' || s.p[0] == '=')) {
		fprintf(out, "\\%c", s.p[0]);
	} else {
		if (s.p[0] == '^') {
			fputs("\\^", out);
			s.p++;
			s.n--;
		}
		put_escaped(out, s);
	}
}

/* Shortest common prefix worth a reference "^N". */
#define PREFIX_MIN 4

/*
 * Field s relative to prev (the same field of the line before): "=" when
 * equal, "^N" and the escaped rest when they share a prefix of N >= 4
 * bytes (N is cut back so that the rest does not start with a digit),
 * else s as put_field writes it.
 */
static void put_prefixed(FILE *out, struct hd_slice s, struct hd_slice prev)
{
	size_t p = 0;

	if (s.n && hd_slice_eq(s, prev)) {
		fputc('=', out);
		return;
	}
	while (p < s.n && p < prev.n && s.p[p] == prev.p[p])
		p++;
	while (p > 0 && p < s.n && s.p[p] >= '0' && s.p[p] <= '9')
		p--;
	if (p < PREFIX_MIN || p == s.n) {
		put_field(out, s);
		return;
	}
	fprintf(out, "^%zu", p);
	put_escaped(out, hd_slice_make(s.p + p, s.n - p));
}

static const char b64url[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* A 64-bit hash as 11 base64url digits, most significant first. */
static void put_hash(FILE *out, uint64_t h)
{
	char b[12];
	int i;

	for (i = 10; i >= 0; i--) {
		b[i] = b64url[h & 63];
		h >>= 6;
	}
	b[11] = '\0';
	fputs(b, out);
}

static void put_tab_field(FILE *out, struct hd_slice s)
{
	fputc('\t', out);
	put_field(out, s);
}

static void put_tab_str(FILE *out, const char *s)
{
	put_tab_field(out, hd_slice_cstr(s));
}

static void put_tab_i64(FILE *out, int has, int64_t v)
{
	if (has)
		fprintf(out, "\t%" PRId64, v);
	else
		fputs("\t-", out);
}

static void write_header(FILE *out, const struct hd_dump *d,
			 const struct hd_figures *f, const char *module)
{
	size_t i, o = 0;
	int64_t times[2];
	int n_times = 0, k;

	fprintf(out, "%s\n", HD_GOLDEN_MAGIC);
	fputs("# read in place of the dump (docs/golden.md); regenerate with "
	      "'hlodiff golden update', never by hand\n", out);
	fputs("module", out);
	put_tab_field(out, module ? hd_slice_cstr(module) : HD_SLICE_NULL);
	fputs("\ndump", out);
	put_tab_str(out, d->name ? d->name : "");
	fputs("\nsections\t", out);
	for (i = 0; i < hd_section_word_count; i++)
		if (d->sections & hd_section_words[i].bit)
			fprintf(out, "%s%s", o++ ? " " : "", hd_section_words[i].name);
	if (o == 0)
		fputc('-', out);
	fputc('\n', out);
	if (d->sections & HD_SEC_TOTAL)
		fprintf(out, "total\t%" PRId64 "\n", d->total_bytes);
	if (d->live_max >= 0)
		fprintf(out, "live-max\t%" PRId64 "\n", d->live_max);
	fprintf(out, "lines\t%" PRIu64 "\n", d->n_lines);
	if (d->n_unknown)
		fprintf(out, "unknown\t%" PRIu64 "\t%" PRIu64 "\n", d->n_unknown,
			d->unknown_lines[0]);
	fprintf(out, "peak\t%s", (unsigned)d->peak_style < N_ELEMS(peak_styles) ?
		peak_styles[d->peak_style] : "absent");
	put_tab_i64(out, d->peak_time >= 0, d->peak_time);
	fputc('\n', out);
	/* The instructions scheduled at the stated and recomputed peaks. */
	if (f->has_peak)
		times[n_times++] = f->peak_time;
	if (f->has_recomputed && (!n_times || f->recomputed_time != times[0]))
		times[n_times++] = f->recomputed_time;
	for (k = 0; k < n_times; k++) {
		if (times[k] < 0 || (uint64_t)times[k] >= d->sequence.len)
			continue;
		fprintf(out, "at\t%" PRId64, times[k]);
		put_tab_field(out, HD_SEQ(d, times[k]));
		fputc('\n', out);
	}
}

static void write_allocs(FILE *out, const struct hd_dump *d)
{
	size_t i, k;

	for (i = 0; i < d->allocs.len; i++) {
		const struct hd_alloc *a = &HD_ALLOC(d, i);
		int n = 0;

		fprintf(out, "a\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t",
			a->index, a->size, a->color);
		for (k = 0; k < N_ELEMS(alloc_words); k++)
			if (a->flags & alloc_words[k].bit)
				fprintf(out, "%s%s", n++ ? "," : "", alloc_words[k].name);
		fputs(n ? "\n" : "-\n", out);
	}
}

/* The first %name of an operand list, without the '%'. */
static struct hd_slice first_operand(struct hd_slice ops)
{
	const char *p = ops.n ? memchr(ops.p, '%', ops.n) : NULL;
	size_t i;

	if (!p)
		return HD_SLICE_NULL;
	p++;
	for (i = 0; p + i < ops.p + ops.n; i++) {
		char c = p[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
			break;
	}
	return hd_slice_make(p, i);
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
static void write_copy_extras(FILE *out, const struct hd_insn *in)
{
	static const char *const keys[] = {
		"cross_program_prefetch_index=", "is_cross_program_prefetch=",
	};
	struct hd_slice op = first_operand(in->operands);
	size_t k;
	int n = 0;

	fputc('\t', out);
	if (op.n) {
		fputc('%', out);
		put_field(out, op);
	} else {
		fputc('-', out);
	}
	fputc('\t', out);
	for (k = 0; k < N_ELEMS(keys); k++) {
		struct hd_slice item = attr_item(in->attrs, keys[k]);

		if (!item.n)
			continue;
		if (n++)
			fputs(", ", out);
		put_field(out, item);
	}
	if (!n)
		fputc('-', out);
}

/*
 * The source files of the instructions, numbered from 1 in order of
 * first use: the "f" lines, and each instruction's number in files[].
 */
static uint32_t *write_files(FILE *out, const struct hd_dump *d)
{
	struct hd_arena arena = HD_ARENA_INIT;
	struct hd_table seen;
	uint32_t *num = hd_xcalloc(d->insns.len + 1, sizeof(uint32_t));
	uint32_t next = 1;
	size_t i;

	hd_table_init(&seen, &arena);
	for (i = 0; i < d->insns.len; i++) {
		struct hd_slice f = HD_INSN(d, i).source_file;
		uint32_t k;

		if (!f.n)
			continue;
		k = hd_table_put(&seen, f, next);
		if (k != HD_NONE) {
			num[i] = k;
			continue;
		}
		num[i] = next;
		fprintf(out, "f\t%" PRIu32, next++);
		put_tab_field(out, f);
		fputc('\n', out);
	}
	hd_table_release(&seen);
	hd_arena_release(&arena);
	return num;
}

/* Is the instruction's shape the shape of its value NAME{}'s line?
 * (Then the "i" line says "=".) */
static int shape_of_value(const struct hd_dump *d, const struct hd_insn *in)
{
	uint32_t v = hd_dump_value_by_key(d, in->name);

	return v != HD_NONE && HD_VALUE(d, v).alloc_value != HD_NONE &&
		hd_slice_eq(HD_ALLOC_VALUE(d, HD_VALUE(d, v).alloc_value).shape,
			    in->shape);
}

/* The opcode an instruction name implies: the name up to its first '.'
 * (an opcode field "=" stands for it). */
static struct hd_slice opcode_of_name(struct hd_slice name)
{
	const char *dot = name.n ? memchr(name.p, '.', name.n) : NULL;

	return hd_slice_make(name.p, dot ? (size_t)(dot - name.p) : name.n);
}

static void write_insns(FILE *out, const struct hd_dump *d,
			const struct hd_canon *c)
{
	uint32_t *file = write_files(out, d);
	struct hd_slice prev_op = HD_SLICE_NULL;
	size_t i;

	for (i = 0; i < d->insns.len; i++) {
		const struct hd_insn *in = &HD_INSN(d, i);

		fputc('i', out);
		put_tab_field(out, in->name);
		if (in->opcode.n && hd_slice_eq(in->opcode, opcode_of_name(in->name)))
			fputs("\t=", out);
		else
			put_tab_field(out, in->opcode);
		fputc('\t', out);
		put_hash(out, c->insn_canon[i]);
		fputc('\t', out);
		put_hash(out, c->insn_struct[i]);
		if (shape_of_value(d, in))
			fputs("\t=", out);
		else
			put_tab_field(out, in->shape);
		fputc('\t', out);
		put_prefixed(out, in->op_name, prev_op);
		prev_op = in->op_name;
		put_tab_i64(out, file[i] != 0, file[i]);
		put_tab_i64(out, in->source_line >= 0, in->source_line);
		if (hd_slice_eq_cstr(in->opcode, "copy-start"))
			write_copy_extras(out, in);
		fputc('\n', out);
	}
	free(file);
}

/* The schedule-order key of match.c: live start + 1 (all ones without a
 * live range) over the id, both clamped to 32 bits. */
static uint64_t schedule_key(const struct hd_value *v)
{
	uint64_t start = 0xffffffffu, id;

	if ((v->flags & HD_VALUE_LIVE) && v->live_start >= 0)
		start = v->live_start < 0xfffffffe ?
			(uint64_t)v->live_start + 1 : 0xfffffffe;
	id = v->id < 0 ? 0 : v->id > 0xffffffff ? 0xffffffff : (uint64_t)v->id;
	return start << 32 | id;
}

struct order_item {
	uint64_t key;
	uint32_t v;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order_item *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* Values in schedule order (stable: dump order breaks ties). */
static uint32_t *schedule_order(const struct hd_dump *d)
{
	size_t n = d->values.len, i;
	struct order_item *a = hd_xmalloc((n + 1) * sizeof(*a));
	uint32_t *order = hd_xmalloc((n + 1) * sizeof(*order));

	for (i = 0; i < n; i++) {
		a[i].key = schedule_key(&HD_VALUE(d, i));
		a[i].v = (uint32_t)i;
	}
	qsort(a, n, sizeof(*a), cmp_order);
	for (i = 0; i < n; i++)
		order[i] = a[i].v;
	free(a);
	return order;
}

/* "name{index}" as one field (index may be empty). */
static void put_tab_key(FILE *out, struct hd_slice name, struct hd_slice index)
{
	fputc('\t', out);
	put_field(out, name);
	put_escaped(out, index);
}

/* What the previous value line wrote (its name{index} and shape), and a
 * buffer for the current name{index}. */
struct value_prev {
	char *key, *cur;
	size_t n, cap, cur_cap;
	struct hd_slice shape;
};

static void put_chars(char **buf, size_t *cap, struct hd_slice a, struct hd_slice b)
{
	if (a.n + b.n + 1 > *cap) {
		*cap = 2 * (a.n + b.n + 1);
		*buf = hd_xrealloc(*buf, *cap);
	}
	if (a.n)
		memcpy(*buf, a.p, a.n);
	if (b.n)
		memcpy(*buf + a.n, b.p, b.n);
}

static void write_value(FILE *out, const struct hd_dump *d, uint32_t v,
			struct value_prev *prev)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	const struct hd_alloc_value *av = val->alloc_value != HD_NONE ?
		&HD_ALLOC_VALUE(d, val->alloc_value) : NULL;
	const struct hd_alloc *a = av ? &HD_ALLOC(d, av->alloc) : NULL;
	char flags[8];
	size_t k, n = 0;
	int same_insn = val->insn != HD_NONE &&
		hd_slice_eq(HD_INSN(d, val->insn).name, val->name);

	struct hd_slice shape = av ? av->shape : HD_SLICE_NULL;
	size_t kn = val->name.n + val->index.n;
	char *t;

	put_chars(&prev->cur, &prev->cur_cap, val->name, val->index);
	fputs("v\t", out);
	put_prefixed(out, hd_slice_make(prev->cur, kn), hd_slice_make(prev->key, prev->n));
	t = prev->key;		/* the current key becomes the previous one */
	prev->key = prev->cur;
	prev->cur = t;
	prev->n = kn;
	kn = prev->cap;
	prev->cap = prev->cur_cap;
	prev->cur_cap = kn;
	if (av && av->size == a->size)
		fputs("\t=", out);
	else
		put_tab_i64(out, av != NULL, av ? av->size : 0);
	put_tab_i64(out, (val->flags & HD_VALUE_HAS_COLOR) != 0, val->color);
	put_tab_i64(out, a != NULL, a ? a->index : 0);
	if (val->flags & HD_VALUE_LIVE)
		fprintf(out, "\t%" PRId64 "-%" PRId64, val->live_start, val->live_end);
	else
		fputs("\t-", out);
	for (k = 0; k < N_ELEMS(value_letters); k++)
		if (val->flags & value_letters[k].bit)
			flags[n++] = value_letters[k].letter;
	if (same_insn)
		flags[n++] = LETTER_DEFINED;
	flags[n] = '\0';
	put_tab_str(out, flags);
	if (shape.n && hd_slice_eq(shape, prev->shape))
		fputs("\t=", out);
	else
		put_tab_field(out, shape);
	prev->shape = shape;
	if (val->insn != HD_NONE && !same_insn)
		put_tab_field(out, HD_INSN(d, val->insn).name);
	fputc('\n', out);
}

static void write_values(FILE *out, const struct hd_dump *d)
{
	uint32_t *order = schedule_order(d);
	struct value_prev prev;
	size_t i;

	memset(&prev, 0, sizeof(prev));
	for (i = 0; i < d->values.len; i++)
		write_value(out, d, order[i], &prev);
	free(prev.key);
	free(prev.cur);
	free(order);
}

/* Live ranges no value line carries, and the peak lines. */
static void write_ranges_and_peak(FILE *out, const struct hd_dump *d)
{
	size_t i;

	for (i = 0; i < d->live_ranges.len; i++) {
		const struct hd_live_range *r = &HD_LIVE_RANGE(d, i);

		if (r->value != HD_NONE)
			continue;
		fputc('r', out);
		put_tab_key(out, r->name, r->index);
		fprintf(out, "\t%" PRId64 "\t%" PRId64 "\n", r->start, r->end);
	}
	for (i = 0; i < d->peak.len; i++) {
		const struct hd_peak_entry *e = &HD_PEAK_ENTRY(d, i);

		fputc('p', out);
		put_tab_key(out, e->name, e->index);
		fprintf(out, "\t%" PRId64, e->bytes);
		put_tab_i64(out, e->cumulative >= 0, e->cumulative);
		fputs(e->value == HD_NONE ? "\t-\n" : "\n", out);
	}
}

int hd_golden_write(FILE *out, const struct hd_dump *d, const char *module)
{
	struct hd_canon c;
	struct hd_figures f;

	hd_canon_compute(&c, d);
	hd_figures_compute(&f, d);
	write_header(out, d, &f, module);
	write_allocs(out, d);
	write_insns(out, d, &c);
	write_values(out, d);
	write_ranges_and_peak(out, d);
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
	struct hd_vec same_shape; /* uint32_t: instructions with shape "=" */
	struct hd_slice prev_op;   /* op_name of the last 'i' line */
	struct hd_slice prev_key;  /* name{index} of the last 'v' line */
	struct hd_slice prev_shape; /* shape of the last 'v' line */
};

/* A value's allocation entry before the grouping by allocation. */
struct pending_av {
	uint32_t value;
	uint32_t alloc;
	int64_t size;
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
	if (!memchr(s.p, '\\', s.n)) {
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
		case '-': buf[o++] = '-'; break;
		case '=': buf[o++] = '='; break;
		case '^': buf[o++] = '^'; break;
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

static int text_field(struct reader *r, size_t k, struct hd_slice *out)
{
	if (field_text(r, r->f[k], out))
		return bad(r, "bad escape in field", "\\\\, \\t, \\n, \\r, \\-, \\=, \\^ or \\xHH");
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
	struct hd_slice s = r->f[k], rest;
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
		return bad(r, "bad escape in field", "\\\\, \\t, \\n, \\r, \\-, \\=, \\^ or \\xHH");
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
	struct hd_slice s = r->f[k];

	if (has)
		*has = 0;
	if (has && s.n == 1 && s.p[0] == '-') {
		*v = 0;
		return 0;
	}
	if (hd_parse_i64(s, v) != (int)s.n || s.n == 0)
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

static int hash_field(struct reader *r, size_t k, uint64_t *out)
{
	struct hd_slice s = r->f[k];
	uint64_t h = 0;
	size_t i;

	if (s.n != 11 || b64val(s.p[0]) > 15)
		return bad(r, "bad hash", "11 base64url digits");
	for (i = 0; i < 11; i++) {
		int x = b64val(s.p[i]);
		if (x < 0)
			return bad(r, "bad hash", "11 base64url digits");
		h = h << 6 | (uint64_t)x;
	}
	*out = h;
	return 0;
}

/*
 * "name{index}" of field k split at its first '{' (HLO names have none):
 * name, index ("" when absent) and the lookup key (hd_value_key).  On a
 * 'v' line (prefixed) the field is a prefix field (put_prefixed).
 */
static int key_field(struct reader *r, size_t k, int prefixed, struct hd_slice *name,
		     struct hd_slice *index, struct hd_slice *key)
{
	struct hd_slice s;
	const char *brace;

	if (prefixed) {
		if (prefixed_field(r, k, r->prev_key, &s))
			return -1;
		r->prev_key = s;
	} else if (text_field(r, k, &s)) {
		return -1;
	}
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

	if (want_fields(r, 3, 3, "'peak STYLE TIME'"))
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
	d->peak_line = (uint32_t)r->line;
	return 0;
}

static int read_number_line(struct reader *r, int64_t *out)
{
	if (want_fields(r, 2, 2, "'KEY NUMBER'") || num_field(r, 1, out, NULL))
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
	if ((uint64_t)t >= d->sequence.len) {
		size_t old = d->sequence.len;

		hd_vec_reserve(&d->sequence, (size_t)t + 1);
		memset((struct hd_slice *)d->sequence.data + old, 0,
		       ((size_t)t + 1 - old) * sizeof(struct hd_slice));
		d->sequence.len = (size_t)t + 1;
	}
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

	if (hd_slice_eq_cstr(k, "module") || hd_slice_eq_cstr(k, "dump"))
		return want_fields(r, 2, 2, "'KEY TEXT'");
	if (hd_slice_eq_cstr(k, "sections"))
		return want_fields(r, 2, 2, "'sections WORDS'") || read_sections(r) ? -1 : 0;
	if (hd_slice_eq_cstr(k, "total")) {
		if (read_number_line(r, &d->total_bytes))
			return -1;
		d->total_line = (uint32_t)r->line;
		return 0;
	}
	if (hd_slice_eq_cstr(k, "live-max")) {
		if (read_number_line(r, &d->live_max))
			return -1;
		if (d->live_max >= GOLDEN_MAX_TIME)
			return bad(r, "schedule too long", "a length below 2^26");
		return 0;
	}
	if (hd_slice_eq_cstr(k, "lines")) {
		if (read_number_line(r, &v))
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
	struct hd_slice s;
	size_t i = 0;

	if (want_fields(r, 5, 5, "'a NUMBER SIZE COLOUR FLAGS'"))
		return -1;
	a = hd_vec_push(&d->allocs);
	a->page = -1;
	a->param_number = -1;
	a->line = (uint32_t)r->line;
	if (num_field(r, 1, &a->index, NULL) || num_field(r, 2, &a->size, NULL) ||
	    num_field(r, 3, &a->color, NULL))
		return -1;
	if (a->size < 0)
		return bad(r, "negative size", "a size >= 0");
	if (hd_dump_slot_put(&d->alloc_slots, &d->alloc_by_index, d->id_limit,
			     a->index, (uint32_t)(d->allocs.len - 1)) != HD_NONE)
		return bad(r, "allocation listed twice", "one 'a' line per allocation");
	s = r->f[4];
	if (hd_slice_eq_cstr(s, "-"))
		return 0;
	while (i < s.n) {
		size_t j = i, k;
		int found = 0;

		while (j < s.n && s.p[j] != ',')
			j++;
		for (k = 0; k < N_ELEMS(alloc_words); k++)
			if (hd_slice_eq_cstr(hd_slice_make(s.p + i, j - i),
					     alloc_words[k].name)) {
				a->flags |= alloc_words[k].bit;
				found = 1;
			}
		if (!found)
			return bad(r, "unknown allocation flag",
				   "parameter, output, constant, thread-local, maybe-live-out or temp");
		i = j + 1;
	}
	return 0;
}

/* The text an instruction with stored hashes carries (canon.h). */
static struct hd_slice stored_text(struct hd_arena *a, uint64_t canon,
				   uint64_t structural)
{
	char *t = hd_arena_printf(a, "%s%016" PRIx64 " %016" PRIx64,
				  HD_CANON_STORED, canon, structural);

	return hd_slice_cstr(t);
}

static int read_insn(struct reader *r)
{
	struct hd_dump *d = r->d;
	struct hd_insn *in;
	uint64_t canon, structural;
	int64_t line, file;
	int has, has_file;

	if (want_fields(r, 9, 11, "'i NAME OPCODE CANON STRUCT SHAPE OP_NAME FILE LINE [SOURCE ATTRS]'"))
		return -1;
	if (r->nf == 10)
		return bad(r, "wrong number of fields", "both copy-start fields or none");
	in = hd_vec_push(&d->insns);
	in->line = (uint32_t)r->line;
	if (text_field(r, 1, &in->name) || text_field(r, 2, &in->opcode) ||
	    hash_field(r, 3, &canon) || hash_field(r, 4, &structural) ||
	    text_field(r, 5, &in->shape) ||
	    prefixed_field(r, 6, r->prev_op, &in->op_name) ||
	    num_field(r, 7, &file, &has_file) || num_field(r, 8, &line, &has))
		return -1;
	r->prev_op = in->op_name;
	if (hd_slice_eq_cstr(r->f[2], "="))
		in->opcode = opcode_of_name(in->name);
	if (in->name.n == 0)
		return bad(r, "empty instruction name", "a name");
	if (has_file && (file < 1 || (uint64_t)file > r->files.len))
		return bad(r, "unknown source file", "the number of an 'f' line above, or '-'");
	if (has_file)
		in->source_file = HD_VEC_AT(&r->files, struct hd_slice, file - 1);
	if (hd_slice_eq_cstr(r->f[5], "="))
		*(uint32_t *)hd_vec_push(&r->same_shape) = (uint32_t)(d->insns.len - 1);
	in->source_line = has ? line : -1;
	if (r->nf == 11 && (text_field(r, 9, &in->operands) ||
			    text_field(r, 10, &in->attrs)))
		return -1;
	in->text = stored_text(&d->arena, canon, structural);
	if (hd_table_put(&d->insn_by_name, in->name,
			 (uint32_t)(d->insns.len - 1)) != HD_NONE)
		return bad(r, "instruction listed twice", "one 'i' line per instruction");
	return 0;
}

/* Reads the flags field of a value line; *defined = the 'd' letter. */
static int value_flags(struct reader *r, struct hd_value *val, int *defined)
{
	struct hd_slice s = r->f[6];
	size_t i, k;

	*defined = 0;
	if (hd_slice_eq_cstr(s, "-"))
		return 0;
	for (i = 0; i < s.n; i++) {
		int found = s.p[i] == LETTER_DEFINED;

		if (found)
			*defined = 1;
		for (k = 0; k < N_ELEMS(value_letters); k++)
			if (s.p[i] == value_letters[k].letter) {
				val->flags |= value_letters[k].bit;
				found = 1;
			}
		if (!found)
			return bad(r, "unknown value flag", "letters t, p, r, d or '-'");
	}
	return 0;
}

static int value_live(struct reader *r, struct hd_value *val, uint32_t v)
{
	struct hd_slice s = r->f[5];
	const char *dash;
	struct hd_live_range *lr;
	int64_t a, b;

	if (hd_slice_eq_cstr(s, "-"))
		return 0;
	dash = s.n > 1 ? memchr(s.p + 1, '-', s.n - 1) : NULL;
	if (!dash || hd_parse_i64(hd_slice_make(s.p, (size_t)(dash - s.p)), &a) !=
		     (int)(dash - s.p) ||
	    hd_parse_i64(hd_slice_make(dash + 1, s.n - (size_t)(dash - s.p) - 1), &b) !=
		     (int)(s.n - (size_t)(dash - s.p) - 1) || a < 0 || b < a)
		return bad(r, "bad live range", "START-END with 0 <= START <= END, or '-'");
	val->flags |= HD_VALUE_LIVE;
	val->live_start = a;
	val->live_end = b;
	lr = hd_vec_push(&r->d->live_ranges);
	lr->name = val->name;
	lr->index = val->index;
	lr->key = val->key;
	lr->start = a;
	lr->end = b;
	lr->value = v;
	lr->line = (uint32_t)r->line;
	return 0;
}

/* The allocation fields (size, kind, number, shape) of a value line. */
static int value_alloc(struct reader *r, uint32_t v)
{
	struct pending_av *p;
	int64_t size, number;
	int has_size, has_number;
	uint32_t a;
	struct hd_slice prev_shape = r->prev_shape;
	int same_size = hd_slice_eq_cstr(r->f[2], "=");	/* the allocation's */

	if ((!same_size && num_field(r, 2, &size, &has_size)) ||
	    num_field(r, 4, &number, &has_number))
		return -1;
	if (same_size) {
		size = 0;
		has_size = has_number;
	}
	r->prev_shape = HD_SLICE_NULL;
	if (has_size != has_number)
		return bad(r, "size without allocation", "both a size and an allocation, or '-' for both");
	if (!has_number)
		return 0;
	a = hd_dump_slot_get(&r->d->alloc_slots, &r->d->alloc_by_index,
			     r->d->id_limit, number);
	if (a == HD_NONE)
		return bad(r, "unknown allocation", "the number of an 'a' line above");
	if (same_size)
		size = HD_ALLOC(r->d, a).size;
	if (size < 0)
		return bad(r, "negative size", "a size >= 0");
	p = hd_vec_push(&r->pending);
	p->value = v;
	p->alloc = a;
	p->size = size;
	p->line = (uint32_t)r->line;
	if (hd_slice_eq_cstr(r->f[7], "=")) {
		if (!prev_shape.n)
			return bad(r, "shape '=' but the value line before has none", "the shape");
		p->shape = prev_shape;
	} else if (text_field(r, 7, &p->shape)) {
		return -1;
	}
	r->prev_shape = p->shape;
	return 0;
}

static int read_value(struct reader *r)
{
	struct hd_dump *d = r->d;
	struct hd_value *val;
	struct hd_slice name, index, key, insn;
	uint32_t v = (uint32_t)d->values.len;
	int64_t color;
	int has_color, defined;

	if (want_fields(r, 8, 9, "'v NAME{INDEX} SIZE COLOUR ALLOCATION LIVE FLAGS SHAPE [INSN]'"))
		return -1;
	if (key_field(r, 1, 1, &name, &index, &key))
		return -1;
	if (index.n == 0)
		return bad(r, "value without index", "NAME{INDEX}, '{}' for an array value");
	if (v == HD_NONE - 1)
		return bad(r, "too many values", "fewer values");
	val = hd_vec_push(&d->values);
	val->id = (int64_t)v;   /* schedule order is file order */
	val->name = name;
	val->index = index;
	val->key = key;
	val->alloc_value = HD_NONE;
	val->insn = HD_NONE;
	val->line = (uint32_t)r->line;
	hd_dump_slot_put(&d->id_slots, &d->value_by_id, d->id_limit, val->id, v);
	if (hd_table_put(&d->value_by_key, key, v) != HD_NONE)
		return bad(r, "value listed twice", "one 'v' line per value");
	if (num_field(r, 3, &color, &has_color) || value_flags(r, val, &defined) ||
	    value_live(r, val, v) || value_alloc(r, v))
		return -1;
	if (has_color) {
		val->flags |= HD_VALUE_HAS_COLOR;
		val->color = color;
	}
	if (val->flags & HD_VALUE_RECORD)
		val->record_line = (uint32_t)r->line;
	insn = name;
	if (r->nf == 9 && text_field(r, 8, &insn))
		return -1;
	if (defined || r->nf == 9) {
		val->insn = hd_dump_insn_by_name(d, insn);
		if (val->insn == HD_NONE)
			return bad(r, "unknown instruction", "the name of an 'i' line above");
	}
	return 0;
}

static int read_orphan_range(struct reader *r)
{
	struct hd_live_range *lr;

	if (want_fields(r, 4, 4, "'r NAME{INDEX} START END'"))
		return -1;
	lr = hd_vec_push(&r->d->live_ranges);
	lr->value = HD_NONE;
	lr->line = (uint32_t)r->line;
	if (key_field(r, 1, 0, &lr->name, &lr->index, &lr->key) ||
	    num_field(r, 2, &lr->start, NULL) || num_field(r, 3, &lr->end, NULL))
		return -1;
	if (lr->start < 0 || lr->end < lr->start)
		return bad(r, "bad live range", "0 <= START <= END");
	return 0;
}

static int read_peak_entry(struct reader *r)
{
	struct hd_peak_entry *e;
	int has;

	if (want_fields(r, 4, 5, "'p NAME{INDEX} BYTES CUMULATIVE [-]'"))
		return -1;
	e = hd_vec_push(&r->d->peak);
	e->line = (uint32_t)r->line;
	if (key_field(r, 1, 0, &e->name, &e->index, &e->key) ||
	    num_field(r, 2, &e->bytes, NULL) || num_field(r, 3, &e->cumulative, &has))
		return -1;
	if (!has)
		e->cumulative = -1;
	if (e->bytes < 0)
		return bad(r, "negative bytes", "a number >= 0");
	if (r->nf == 5) {
		if (!hd_slice_eq_cstr(r->f[4], "-"))
			return bad(r, "bad last field", "'-' (the line names no value) or nothing");
		e->value = HD_NONE;
		return 0;
	}
	e->value = hd_dump_value_by_key(r->d, e->key);
	if (e->value == HD_NONE)
		return bad(r, "peak line names no value", "the name of a 'v' line above, or a last field '-'");
	return 0;
}

static int read_file(struct reader *r)
{
	int64_t k;

	if (want_fields(r, 3, 3, "'f NUMBER PATH'") || num_field(r, 1, &k, NULL))
		return -1;
	if (k < 1 || (uint64_t)k != r->files.len + 1)
		return bad(r, "source files out of order", "numbers 1, 2, 3, ...");
	return text_field(r, 2, (struct hd_slice *)hd_vec_push(&r->files));
}

/* Instructions whose shape is "=": the shape of the value of their name. */
static int resolve_shapes(struct reader *r)
{
	struct hd_dump *d = r->d;
	size_t i;

	for (i = 0; i < r->same_shape.len; i++) {
		struct hd_insn *in = &HD_INSN(d, HD_VEC_AT(&r->same_shape, uint32_t, i));
		uint32_t v = hd_dump_value_by_key(d, in->name);

		if (v == HD_NONE || HD_VALUE(d, v).alloc_value == HD_NONE) {
			r->line = in->line;
			return bad(r, "shape '=' but no value of that name in an allocation",
				   "the shape, or a 'v' line NAME{} with one");
		}
		in->shape = HD_ALLOC_VALUE(d, HD_VALUE(d, v).alloc_value).shape;
	}
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

	for (i = 0; i < n; i++)
		HD_ALLOC(d, HD_VEC_AT(&r->pending, struct pending_av, i).alloc).value_count++;
	for (i = 0; i < d->allocs.len; i++) {
		fill[i + 1] = fill[i] + HD_ALLOC(d, i).value_count;
		HD_ALLOC(d, i).value_first = fill[i];
	}
	hd_vec_reserve(&d->alloc_values, n);
	d->alloc_values.len = n;
	for (i = 0; i < n; i++) {
		const struct pending_av *p = &HD_VEC_AT(&r->pending, struct pending_av, i);
		uint32_t at = fill[p->alloc]++;
		struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, at);
		struct hd_value *val = &HD_VALUE(d, p->value);

		memset(av, 0, sizeof(*av));
		av->value = p->value;
		av->alloc = p->alloc;
		av->size = p->size;
		av->shape = p->shape;
		av->line = p->line;
		val->alloc_value = at;
		val->flags |= HD_VALUE_IN_ALLOC;
	}
	free(fill);
}

int hd_golden_parse(struct hd_dump *d, const char *name, const char *data,
		    size_t len)
{
	struct reader r;
	size_t i = 0;
	int st = 0;

	hd_dump_init(d);
	d->name = name;
	memset(&r, 0, sizeof(r));
	r.d = d;
	r.name = name;
	r.pending.elem = sizeof(struct pending_av);
	r.at.elem = sizeof(struct at_entry);
	r.files.elem = sizeof(struct hd_slice);
	r.same_shape.elem = sizeof(uint32_t);
	if (!hd_golden_detect(data, len)) {
		hd_error(name, 1, "not a golden file (expected '%s' on the first line)",
			 HD_GOLDEN_MAGIC);
		return -1;
	}
	while (i < len && st == 0) {
		const char *nl = memchr(data + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - data) : len;

		r.line++;
		if (r.line > 1)
			st = read_line(&r, hd_slice_make(data + i, end - i));
		if (!nl && st == 0 && end > i) {
			st = bad(&r, "last line has no newline", "a complete file");
		}
		i = end + 1;
	}
	if (st == 0) {
		place_alloc_values(&r);
		st = resolve_shapes(&r);
	}
	if (st == 0) {
		for (i = 0; i < r.at.len; i++) {
			const struct at_entry *e = &HD_VEC_AT(&r.at, struct at_entry, i);
			HD_SEQ(d, e->time) = e->name;
		}
	}
	hd_vec_release(&r.pending);
	hd_vec_release(&r.at);
	hd_vec_release(&r.files);
	hd_vec_release(&r.same_shape);
	return st;
}

/* ---- loading a dump or a golden ------------------------------------------ */

/* Reads up to n bytes from the start of a regular file (inflated when it
 * is gzip).  Returns the number read, -1 when it cannot be read. */
static long peek_file(const char *path, char *buf, size_t n)
{
	gzFile g = gzopen(path, "rb");
	int got;

	if (!g)
		return -1;
	got = gzread(g, buf, (unsigned)n);
	gzclose(g);
	return got;
}

static int is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A golden from an input already read: d adopts in. */
static int golden_from_input(struct hd_dump *d, struct hd_input *in)
{
	int st = hd_golden_parse(d, in->name, in->data, in->len);

	d->inputs[0] = *in;
	d->n_inputs = 1;
	return st ? -1 : 1;
}

int hd_load_dump(struct hd_dump *d, const char *path, unsigned flags)
{
	char head[sizeof(HD_GOLDEN_MAGIC) + 1];
	struct hd_input in;
	long n;

	if (is_regular(path)) {
		n = peek_file(path, head, sizeof(head));
		if (n < 0 || !hd_golden_detect(head, (size_t)n)) {
			if (hd_parse_file(d, path, flags))
				return -1;
			hd_parse_report_unknown(d);
			return 0;
		}
		if (hd_input_open(&in, path)) {
			hd_dump_init(d);
			return -1;
		}
		return golden_from_input(d, &in);
	}
	/* Standard input, pipes: read once, then decide. */
	if (hd_input_open(&in, path)) {
		hd_dump_init(d);
		return -1;
	}
	if (hd_golden_detect(in.data, in.len))
		return golden_from_input(d, &in);
	if (hd_parse_buffer(d, in.name, in.data, in.len, flags)) {
		d->inputs[0] = in;
		d->n_inputs = 1;
		return -1;
	}
	d->inputs[0] = in;
	d->n_inputs = 1;
	hd_parse_report_unknown(d);
	return 0;
}
