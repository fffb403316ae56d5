/*
 * canon.c - canonical and structural hashes of instructions and values
 * (see canon.h for what is kept and what is dropped).
 */
#include "hlodiff/canon.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "hlodiff/arena.h"
#include "hlodiff/shape.h"
#include "hlodiff/table.h"

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

static void cbuf_addc(struct cbuf *b, char c)
{
	cbuf_reserve(b, 1);
	b->p[b->n++] = c;
}

static void cbuf_add_slice(struct cbuf *b, struct hd_slice s)
{
	cbuf_add(b, s.p, s.n);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_' || c == '.' || c == '-';
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
		size_t j = i + 1;

		while (j < n && is_digit(p[j]))
			j++;
		if (j == i + 1)
			return 0;
		i = j;
	}
	if (i < n && p[i] != '.')
		return 0;
	return i;
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
		size_t start = i + 1, j = start;

		while (j < n && is_digit(p[j]))
			j++;
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

/* Appends the stripped form of name. */
static void add_name(struct cbuf *b, struct hd_slice name)
{
	cbuf_reserve(b, name.n);
	b->n += hd_canon_name(b->p + b->n, name);
}

/* Index just past the string literal that starts at s[i] == '"'. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

/* Length of the HLO name starting at s (after a '%'). */
static size_t name_span(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_name_char(s[i]))
		i++;
	return i;
}

/*
 * Appends text with every %name stripped (hd_canon_name), string
 * literals copied as they are and comments ("/ *index=5* /") dropped.
 */
static void add_text(struct cbuf *b, struct hd_slice t)
{
	const char *s = t.p;
	size_t n = t.n, i = 0;

	while (i < n) {
		size_t j;

		if (s[i] == '"') {
			j = skip_string(s, n, i);
			cbuf_add(b, s + i, j - i);
			i = j;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			const char *end = memmem(s + i + 2, n - i - 2, "*/", 2);

			i = end ? (size_t)(end - s) + 2 : n;
		} else if (s[i] == '%') {
			j = name_span(s + i + 1, n - i - 1);
			cbuf_addc(b, '%');
			add_name(b, hd_slice_make(s + i + 1, j));
			i += 1 + j;
		} else {
			for (j = i; j < n && s[j] != '"' && s[j] != '%' &&
			     s[j] != '/'; j++)
				;
			if (j == i)
				j = i + 1;
			cbuf_add(b, s + i, j - i);
			i = j;
		}
	}
}

/* JSON keys of backend_config whose values are ids (see canon.h). */
static const char *const id_keys[] = {
	"\"operation_queue_id\"",
	"\"wait_on_operation_queues\"",
	"\"fusion_id\"",
};

static int is_id_key(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof(id_keys) / sizeof(id_keys[0]); k++)
		if (strlen(id_keys[k]) == n && memcmp(id_keys[k], s, n) == 0)
			return 1;
	return 0;
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
			i = skip_string(s, n, i);
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

/* Appends a backend_config value without the values of id keys. */
static void add_backend_config(struct cbuf *b, struct hd_slice v)
{
	const char *s = v.p;
	size_t n = v.n, i = 0;

	while (i < n) {
		size_t j;

		if (s[i] != '"') {
			cbuf_addc(b, s[i++]);
			continue;
		}
		j = skip_string(s, n, i);
		cbuf_add(b, s + i, j - i);
		if (j < n && s[j] == ':' && is_id_key(s + i, j - i)) {
			cbuf_addc(b, ':');
			j = skip_json_value(s, n, j + 1);
		}
		i = j;
	}
}

/*
 * Splits s at ", " outside brackets and strings: returns the length of
 * the first item.
 */
static size_t item_span(const char *s, size_t n)
{
	int depth = 0;
	size_t i = 0;

	while (i < n) {
		char c = s[i];

		if (c == '"') {
			i = skip_string(s, n, i);
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ',' && depth == 0 && i + 1 < n && s[i + 1] == ' ')
			return i;
		i++;
	}
	return n;
}

static int key_is(struct hd_slice key, const char *word)
{
	return hd_slice_eq_cstr(key, word);
}

/* Appends the attributes that define the computation (canon.h). */
static void add_attrs(struct cbuf *b, struct hd_slice attrs)
{
	const char *s = attrs.p;
	size_t n = attrs.n, i = 0;

	while (i < n) {
		size_t len = item_span(s + i, n - i), eq = 0;
		struct hd_slice key, val;

		while (eq < len && s[i + eq] != '=')
			eq++;
		key = hd_slice_make(s + i, eq);
		val = hd_slice_make(s + i + eq + (eq < len),
				    len - eq - (eq < len));
		if (key_is(key, "metadata") ||
		    key_is(key, "control-predecessors")) {
			/* dropped */
		} else if (key_is(key, "channel_id")) {
			cbuf_add_slice(b, key);
			cbuf_addc(b, '\0');
		} else if (key_is(key, "backend_config")) {
			cbuf_add_slice(b, key);
			cbuf_addc(b, '=');
			add_backend_config(b, val);
			cbuf_addc(b, '\0');
		} else {
			add_text(b, hd_slice_make(s + i, len));
			cbuf_addc(b, '\0');
		}
		i += len;
		if (i < n)
			i += 2;
	}
}

/* Builds the canonical text of insn into b (from b->n on). */
static void insn_text(struct cbuf *b, const struct hd_insn *insn)
{
	add_name(b, insn->name);
	cbuf_addc(b, '\0');
	cbuf_add_slice(b, insn->opcode);
	cbuf_addc(b, '\0');
	cbuf_add_slice(b, insn->shape);
	cbuf_addc(b, '\0');
	add_text(b, insn->operands);
	cbuf_addc(b, '\0');
	add_attrs(b, insn->attrs);
}

size_t hd_canon_insn_text(const struct hd_insn *insn, char **buf,
			  size_t *cap)
{
	struct cbuf b = { *buf, 0, *cap };

	insn_text(&b, insn);
	*buf = b.p;
	*cap = b.cap;
	return b.n;
}

/* ------------------------------------------------------------------ */
/* Operand references and the structural hash                          */

/* One resolved operand of an instruction. */
struct ref {
	uint32_t insn;     /* instruction the operand depends on, or HD_NONE */
	uint32_t value;    /* value (through a position), or HD_NONE */
	uint64_t leaf;     /* hash of the stripped name when unresolved */
};

struct work {
	const struct hd_dump *d;
	struct hd_canon *c;
	struct hd_arena arena;
	struct hd_table pos_table;   /* position name -> value */
	struct hd_table seq_table;   /* sequence name -> position */
	struct cbuf buf;
	struct hd_vec refs;          /* struct ref */
	uint32_t *ref_first;         /* n_insns + 1 */
	uint64_t *index_hash;        /* per value */
	uint64_t *words;             /* scratch for folding */
	size_t words_cap;
};

static uint64_t hash_slice(struct hd_slice s)
{
	return XXH3_64bits(s.p ? s.p : "", s.n);
}

static uint64_t hash_buf(const struct cbuf *b)
{
	return XXH3_64bits(b->p ? b->p : "", b->n);
}

/* Values by ascending id (ties by index in dump order). */
struct id_order {
	int64_t id;
	uint32_t v;
};

static int cmp_id_order(const void *a, const void *b)
{
	const struct id_order *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

/*
 * Tables of position names (index empty or "{}") -> value, filled in id
 * order so the first value wins whatever order the dump listed them in,
 * and of sequence names -> time.
 */
static void build_tables(struct work *w)
{
	const struct hd_dump *d = w->d;
	uint32_t n = (uint32_t)d->values.len, i, k;
	struct id_order *ord = hd_xmalloc((n ? n : 1) * sizeof(*ord));

	for (i = 0; i < n; i++) {
		ord[i].id = HD_VALUE(d, i).id;
		ord[i].v = i;
	}
	qsort(ord, n, sizeof(*ord), cmp_id_order);
	hd_table_init(&w->pos_table, &w->arena);
	for (i = 0; i < n; i++) {
		const struct hd_value *v = &HD_VALUE(d, ord[i].v);

		for (k = 0; k < v->pos_count; k++) {
			const struct hd_position *p =
				&HD_POSITION(d, v->pos_first + k);

			if (p->index.n == 0 || hd_slice_eq_cstr(p->index, "{}"))
				hd_table_put(&w->pos_table, p->name, ord[i].v);
		}
	}
	free(ord);
	hd_table_init(&w->seq_table, &w->arena);
	for (i = 0; i < d->sequence.len; i++)
		hd_table_put(&w->seq_table, HD_SEQ(d, i), i);
}

/* Resolves one operand name of instruction i (see canon.h). */
static void add_ref(struct work *w, struct hd_slice name)
{
	struct ref *r = hd_vec_push(&w->refs);
	uint32_t v;

	r->insn = hd_dump_insn_by_name(w->d, name);
	r->value = HD_NONE;
	r->leaf = 0;
	if (r->insn != HD_NONE)
		return;
	v = hd_table_get(&w->pos_table, name);
	if (v != HD_NONE && w->c->value_insn[v] != HD_NONE) {
		r->value = v;
		r->insn = w->c->value_insn[v];
		return;
	}
	w->buf.n = 0;
	add_name(&w->buf, name);
	r->leaf = hash_buf(&w->buf);
}

/* Collects the %names of every instruction's operand list. */
static void collect_refs(struct work *w)
{
	const struct hd_dump *d = w->d;
	uint32_t i;

	for (i = 0; i < d->insns.len; i++) {
		struct hd_slice ops = HD_INSN(d, i).operands;
		size_t j = 0;

		w->ref_first[i] = (uint32_t)w->refs.len;
		while (j < ops.n) {
			size_t k;

			if (ops.p[j] == '"') {
				j = skip_string(ops.p, ops.n, j);
				continue;
			}
			if (ops.p[j] != '%') {
				j++;
				continue;
			}
			k = name_span(ops.p + j + 1, ops.n - j - 1);
			add_ref(w, hd_slice_make(ops.p + j + 1, k));
			j += 1 + k;
		}
	}
	w->ref_first[d->insns.len] = (uint32_t)w->refs.len;
}

/*
 * Structural hash of instruction i from the hashes of its operands:
 * finished operands give their structural hash, unfinished ones (cycle)
 * their canonical hash.
 */
static uint64_t fold_insn(struct work *w, uint32_t i, const uint8_t *done)
{
	const struct hd_canon *c = w->c;
	uint32_t a = w->ref_first[i], b = w->ref_first[i + 1], k;
	size_t n = b - a;

	if (n == 0)
		return XXH3_64bits_withSeed("", 0, c->insn_canon[i]);
	if (n > w->words_cap) {
		w->words_cap = n * 2;
		w->words = hd_xrealloc(w->words, w->words_cap * sizeof(uint64_t));
	}
	for (k = a; k < b; k++) {
		const struct ref *r = &HD_VEC_AT(&w->refs, struct ref, k);
		uint64_t h;

		if (r->insn == HD_NONE)
			h = r->leaf;
		else if (done[r->insn] && r->insn != i)
			h = c->insn_struct[r->insn];
		else
			h = c->insn_canon[r->insn];
		if (r->value != HD_NONE)
			h = XXH3_64bits_withSeed(&h, sizeof(h),
						 w->index_hash[r->value]);
		w->words[k - a] = h;
	}
	return XXH3_64bits_withSeed(w->words, n * sizeof(uint64_t),
				    c->insn_canon[i]);
}

/*
 * Kahn's algorithm over the operand graph; what remains on or behind a
 * cycle is hashed in one round with canonical hashes for unfinished
 * operands (order independent).
 */
static void structural(struct work *w)
{
	struct hd_canon *c = w->c;
	uint32_t n = c->n_insns, i, k, head = 0, tail = 0;
	uint32_t nrefs = (uint32_t)w->refs.len;
	uint32_t *indeg = hd_xcalloc(n + 1, sizeof(uint32_t));
	uint32_t *out_first = hd_xcalloc(n + 2, sizeof(uint32_t));
	uint32_t *out = hd_xmalloc((nrefs + 1) * sizeof(uint32_t));
	uint32_t *queue = hd_xmalloc((n + 1) * sizeof(uint32_t));
	uint8_t *done = hd_xcalloc(n + 1, 1);

	for (i = 0; i < n; i++)
		for (k = w->ref_first[i]; k < w->ref_first[i + 1]; k++) {
			uint32_t dep = HD_VEC_AT(&w->refs, struct ref, k).insn;

			if (dep == HD_NONE || dep == i)
				continue;
			indeg[i]++;
			out_first[dep + 1]++;
		}
	for (i = 0; i < n; i++)
		out_first[i + 1] += out_first[i];
	{
		uint32_t *fill = hd_xmalloc((n + 1) * sizeof(uint32_t));

		memcpy(fill, out_first, (n + 1) * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			for (k = w->ref_first[i]; k < w->ref_first[i + 1]; k++) {
				uint32_t dep =
					HD_VEC_AT(&w->refs, struct ref, k).insn;

				if (dep != HD_NONE && dep != i)
					out[fill[dep]++] = i;
			}
		free(fill);
	}
	for (i = 0; i < n; i++)
		if (indeg[i] == 0)
			queue[tail++] = i;
	while (head < tail) {
		i = queue[head++];
		c->insn_struct[i] = fold_insn(w, i, done);
		done[i] = 1;
		for (k = out_first[i]; k < out_first[i + 1]; k++)
			if (--indeg[out[k]] == 0)
				queue[tail++] = out[k];
	}
	if (tail < n) {
		for (i = 0; i < n; i++)
			if (!done[i]) {
				c->insn_struct[i] = fold_insn(w, i, done);
				c->n_cyclic++;
			}
	}
	free(indeg);
	free(out_first);
	free(out);
	free(queue);
	free(done);
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

/* Fills value_insn, value_seq and the per-value index hashes. */
static void value_basics(struct work *w)
{
	const struct hd_dump *d = w->d;
	struct hd_canon *c = w->c;
	uint32_t i;

	for (i = 0; i < c->n_values; i++) {
		const struct hd_value *v = &HD_VALUE(d, i);
		uint32_t s;

		c->value_insn[i] = defining_insn(d, v);
		s = hd_table_get(&w->seq_table, v->name);
		c->value_seq[i] = s == HD_NONE ? -1 : (int64_t)s;
		w->index_hash[i] = hash_slice(v->index);
	}
}

/* Hash of the fields given, NUL-separated. */
static uint64_t hash_fields(struct cbuf *b, const struct hd_slice *f,
			    size_t nf, uint64_t seed)
{
	size_t k;

	b->n = 0;
	for (k = 0; k < nf; k++) {
		cbuf_add_slice(b, f[k]);
		cbuf_addc(b, '\0');
	}
	return XXH3_64bits_withSeed(b->p, b->n, seed);
}

/* The keys of value i (canon.h). */
static void value_keys(struct work *w, uint32_t i)
{
	const struct hd_dump *d = w->d;
	struct hd_canon *c = w->c;
	const struct hd_value *v = &HD_VALUE(d, i);
	uint32_t ins = c->value_insn[i];
	struct hd_slice shape = hd_value_shape(d, i);
	struct hd_slice bare = hd_shape_strip_layout(shape);
	struct hd_slice opcode = HD_SLICE_NULL, op_name = HD_SLICE_NULL;
	uint64_t extra[3];
	struct hd_slice f[4];

	extra[0] = w->index_hash[i];
	extra[1] = (uint64_t)v->color;
	extra[2] = (v->flags & HD_VALUE_PHI) ? 1 : 0;
	if (ins != HD_NONE) {
		opcode = HD_INSN(d, ins).opcode;
		op_name = HD_INSN(d, ins).op_name;
		c->value_canon[i] = XXH3_64bits_withSeed(extra, sizeof(extra),
							 c->insn_canon[ins]);
		c->value_struct[i] = XXH3_64bits_withSeed(extra, sizeof(extra),
							  c->insn_struct[ins]);
	} else {
		/* No instruction text: stripped name and shape stand in. */
		w->buf.n = 0;
		add_name(&w->buf, v->name);
		cbuf_addc(&w->buf, '\0');
		cbuf_add_slice(&w->buf, shape);
		c->value_canon[i] = XXH3_64bits_withSeed(extra, sizeof(extra),
							 hash_buf(&w->buf));
		c->value_struct[i] = c->value_canon[i];
	}
	f[0] = opcode;
	f[1] = shape;
	f[2] = op_name;
	f[3] = v->index;
	c->value_loose[i] = hash_fields(&w->buf, f, 4, 1);
	f[1] = bare;
	c->value_shape[i] = hash_fields(&w->buf, f, 2, 2);
	/* stripped name + opcode + bare shape + index */
	w->buf.n = 0;
	add_name(&w->buf, v->name);
	cbuf_addc(&w->buf, '\0');
	cbuf_add_slice(&w->buf, opcode);
	cbuf_addc(&w->buf, '\0');
	cbuf_add_slice(&w->buf, bare);
	cbuf_addc(&w->buf, '\0');
	cbuf_add_slice(&w->buf, v->index);
	c->value_named[i] = XXH3_64bits_withSeed(w->buf.p, w->buf.n, 3);
}

static void *alloc_array(size_t n, size_t size)
{
	return hd_xcalloc(n ? n : 1, size);
}

int hd_canon_compute(struct hd_canon *c, const struct hd_dump *d)
{
	struct work w;
	uint32_t i;

	memset(c, 0, sizeof(*c));
	memset(&w, 0, sizeof(w));
	w.d = d;
	w.c = c;
	w.arena = (struct hd_arena)HD_ARENA_INIT;
	w.refs = (struct hd_vec)HD_VEC_INIT(struct ref);
	c->n_insns = (uint32_t)d->insns.len;
	c->n_values = (uint32_t)d->values.len;
	c->insn_canon = alloc_array(c->n_insns, sizeof(uint64_t));
	c->insn_struct = alloc_array(c->n_insns, sizeof(uint64_t));
	c->value_canon = alloc_array(c->n_values, sizeof(uint64_t));
	c->value_struct = alloc_array(c->n_values, sizeof(uint64_t));
	c->value_loose = alloc_array(c->n_values, sizeof(uint64_t));
	c->value_named = alloc_array(c->n_values, sizeof(uint64_t));
	c->value_shape = alloc_array(c->n_values, sizeof(uint64_t));
	c->value_insn = alloc_array(c->n_values, sizeof(uint32_t));
	c->value_seq = alloc_array(c->n_values, sizeof(int64_t));
	w.index_hash = alloc_array(c->n_values, sizeof(uint64_t));
	w.ref_first = alloc_array(c->n_insns + 1, sizeof(uint32_t));

	for (i = 0; i < c->n_insns; i++) {
		w.buf.n = 0;
		insn_text(&w.buf, &HD_INSN(d, i));
		c->insn_canon[i] = hash_buf(&w.buf);
	}
	build_tables(&w);
	value_basics(&w);
	collect_refs(&w);
	structural(&w);
	for (i = 0; i < c->n_values; i++)
		value_keys(&w, i);

	hd_table_release(&w.pos_table);
	hd_table_release(&w.seq_table);
	hd_arena_release(&w.arena);
	hd_vec_release(&w.refs);
	free(w.buf.p);
	free(w.index_hash);
	free(w.ref_first);
	free(w.words);
	return 0;
}

void hd_canon_release(struct hd_canon *c)
{
	free(c->insn_canon);
	free(c->insn_struct);
	free(c->value_canon);
	free(c->value_struct);
	free(c->value_loose);
	free(c->value_named);
	free(c->value_shape);
	free(c->value_insn);
	free(c->value_seq);
	memset(c, 0, sizeof(*c));
}
