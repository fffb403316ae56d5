/*
 * breakdown.c - bytes grouped into a tree by op_name, source, opcode,
 * memory space or allocation kind (see breakdown.h for the contract).
 *
 * Building: each value's bytes are added to every node on its key path,
 * root included; a node's children are found through one hash table
 * keyed by (parent index, name).  Finishing: values that end at a node
 * with children move to a "(self)" child, children are gathered into one
 * flat index array, sorted, and folded beyond top_n.  Cost: O(v * depth)
 * to build, O(n log n) to sort.
 */
#include "hlodiff/breakdown.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/format.h"

/*
 * Path elements per key; deeper op_names join the rest into the last
 * element.  Bounds the tree depth (one key of up to 2 levels beside
 * op_name) so the JSON nesting (2 levels a node) stays well inside
 * HD_JSON_MAX_DEPTH whatever depth the caller starts at.
 */
#define PATH_MAX_ELEMS 20
#define NUM_MAX 40              /* "space N", "line N" */
#define NAME_COL_MIN 24
#define NAME_COL_MAX 48         /* longer names are cut at the front */
#define NAME_TAIL_MIN 12        /* a cut name keeps at least this much */
#define TEXT_LINE_MAX 4096
#define ERR_QUOTE_MAX 64

_Static_assert(2 * (PATH_MAX_ELEMS + 2 + 1) + 16 < HD_JSON_MAX_DEPTH,
	       "breakdown trees must fit the JSON writer's nesting");

static const char *const key_names[HD_BY_KEY_COUNT] = {
	"op_name", "source", "opcode", "memory-space", "kind",
};

/* By enum hd_by_peak: in the title, in the JSON. */
static const char *const peak_words[] = { "no peak", "bytes held in their allocations" };
static const char *const peak_names[] = { "none", "held" };

/* Build-time links of a node, parallel to the public nodes. */
struct link {
	uint32_t parent, first, next;   /* first child, next sibling */
	int64_t own[2];                 /* bytes of values ending here */
	uint32_t own_n;                 /* sides of values ending here */
};

struct hd_breakdown {
	struct hd_arena arena;          /* names and table keys */
	struct hd_vec nodes;            /* struct hd_by_node; 0 = root */
	struct hd_vec links;            /* struct link, build only */
	struct hd_vec kids;             /* uint32_t: children of each node */
	struct hd_table index;          /* (parent, name) -> node */
	struct hd_vec scratch;          /* char: lookup key */
	enum hd_by_key keys[HD_BY_MAX_KEYS];
	int nkeys;
	int is_diff;
	enum hd_by_measure measure;
	enum hd_by_peak peak[2];
	int top_n;
	/* per side, every instruction's source (hd_insn_sources), read
	 * when an op_name or source key first asks */
	struct hd_sources sources[2];
};

/* One value's path under one key: slices into the dump or into num. */
struct path {
	struct hd_slice e[PATH_MAX_ELEMS];
	int n;
	char num[NUM_MAX];
};

#define NODE(b, i) HD_VEC_AT(&(b)->nodes, struct hd_by_node, i)
#define LINK(b, i) HD_VEC_AT(&(b)->links, struct link, i)
#define KID(b, i) HD_VEC_AT(&(b)->kids, uint32_t, i)

/* ---- keys ------------------------------------------------------------ */

static int key_of_word(const char *w, size_t n)
{
	int k;

	for (k = 0; k < HD_BY_KEY_COUNT; k++)
		if (hd_slice_eq_cstr(hd_slice_make(w, n), key_names[k]))
			return k;
	return -1;
}

static int parse_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int parse_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Splits spec on ',' (spaces around a word are ignored).  Each word must
 * be a key name, at most HD_BY_MAX_KEYS of them, none twice.
 */
int hd_by_parse(const char *spec, enum hd_by_key *keys, int *nkeys,
		char *err, size_t errlen)
{
	static const char expected[] =
		"(expected op_name, source, opcode, memory-space or kind)";
	char q[ERR_QUOTE_MAX + 4];
	const char *p;
	int n = 0, i;

	if (!spec)
		spec = "";
	for (p = spec;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int k;

		while (len && *p == ' ') {
			p++;
			len--;
		}
		while (len && p[len - 1] == ' ')
			len--;
		if (len == 0)
			return parse_error(err, errlen, "empty key in '%s' %s",
					   hd_quote(q, sizeof(q), spec, strlen(spec), ERR_QUOTE_MAX),
					   expected);
		k = key_of_word(p, len);
		if (k < 0)
			return parse_error(err, errlen, "unknown key '%s' %s",
					   hd_quote(q, sizeof(q), p, len, ERR_QUOTE_MAX),
					   expected);
		for (i = 0; i < n; i++)
			if (keys[i] == (enum hd_by_key)k)
				return parse_error(err, errlen, "key '%s' given twice",
						   key_names[k]);
		if (n == HD_BY_MAX_KEYS)
			return parse_error(err, errlen, "too many keys in '%s' (at most %d)",
					   hd_quote(q, sizeof(q), spec, strlen(spec), ERR_QUOTE_MAX),
					   HD_BY_MAX_KEYS);
		keys[n++] = (enum hd_by_key)k;
		if (!end)
			break;
		p = end + 1;
	}
	*nkeys = n;
	return 0;
}

/* ---- key paths of a value ------------------------------------------- */

static void path_push(struct path *pa, struct hd_slice s)
{
	if (pa->n < PATH_MAX_ELEMS) {
		pa->e[pa->n++] = s;
		return;
	}
	/* Too deep: the last element runs on to the end of s. */
	pa->e[pa->n - 1].n = (size_t)(s.p + s.n - pa->e[pa->n - 1].p);
}

static void path_lit(struct path *pa, const char *s)
{
	path_push(pa, hd_slice_cstr(s));
}

/* Elements of an op_name: split at '/' outside (), [] and {}; empty
 * elements are dropped. */
static void split_op_name(struct path *pa, struct hd_slice op)
{
	size_t start, end;

	for (start = 0; start <= op.n; start = end + 1) {
		end = hd_op_name_part_end(op, start);
		if (end > start)
			path_push(pa, hd_slice_make(op.p + start, end - start));
	}
}

static void path_op_name(struct path *pa, const struct hd_insn_source *in)
{
	int before = pa->n;

	if (in && in->op_name.n)
		split_op_name(pa, in->op_name);
	if (pa->n == before)
		path_lit(pa, "(no metadata)");
}

static void path_source(struct path *pa, const struct hd_insn_source *in)
{
	if (!in || !in->source_file.n) {
		path_lit(pa, "(no source)");
		return;
	}
	path_push(pa, in->source_file);
	if (in->source_line < 0) {
		path_lit(pa, "(no line)");
		return;
	}
	snprintf(pa->num, sizeof(pa->num), "line %" PRId64, in->source_line);
	path_lit(pa, pa->num);
}

static void path_space(struct path *pa, const struct hd_dump *d, uint32_t v)
{
	int64_t s = hd_value_space(d, v);

	if (s < 0) {
		path_lit(pa, "(unknown space)");
		return;
	}
	snprintf(pa->num, sizeof(pa->num), "space %" PRId64, s);
	path_lit(pa, pa->num);
}

static void path_kind(struct path *pa, const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	const struct hd_alloc *a;

	if (val->alloc_value == HD_NONE) {
		path_lit(pa, "(no allocation)");
		return;
	}
	a = &HD_ALLOC(d, HD_ALLOC_VALUE(d, val->alloc_value).alloc);
	path_lit(pa, hd_alloc_kind_name(hd_alloc_kind_of(a->flags)));
}

/* Appends the elements of value v of d under key k to pa. */
static void key_path(struct hd_breakdown *b, struct path *pa,
		     const struct hd_dump *d, int side, uint32_t v,
		     enum hd_by_key k)
{
	uint32_t in = HD_VALUE(d, v).insn;

	switch (k) {
	case HD_BY_OP_NAME:
		path_op_name(pa, hd_value_source(d, v, &b->sources[side]));
		return;
	case HD_BY_SOURCE:
		path_source(pa, hd_value_source(d, v, &b->sources[side]));
		return;
	case HD_BY_OPCODE:
		if (in != HD_NONE && HD_INSN(d, in).opcode.n)
			path_push(pa, HD_INSN(d, in).opcode);
		else
			path_lit(pa, "(unknown)");
		return;
	case HD_BY_MEMORY_SPACE:
		path_space(pa, d, v);
		return;
	case HD_BY_KIND:
		path_kind(pa, d, v);
		return;
	}
	path_lit(pa, "?");
}

/* ---- building -------------------------------------------------------- */

static uint32_t new_node(struct hd_breakdown *b, uint32_t parent, const char *name)
{
	struct hd_by_node *n = hd_vec_push(&b->nodes);
	struct link *l = hd_vec_push(&b->links);
	uint32_t idx = (uint32_t)(b->nodes.len - 1);

	if (b->nodes.len >= HD_NONE)
		hd_die("too many breakdown nodes");
	n->name = name;
	l->parent = parent;
	l->first = HD_NONE;
	l->next = HD_NONE;
	if (parent != HD_NONE) {
		l->next = LINK(b, parent).first;
		LINK(b, parent).first = idx;
	}
	return idx;
}

/* The child of parent named name, created when absent. */
static uint32_t child_named(struct hd_breakdown *b, uint32_t parent,
			    struct hd_slice name)
{
	size_t klen = sizeof(parent) + name.n;
	uint32_t found, idx;
	char *key;

	hd_vec_reserve(&b->scratch, klen + 1);
	memcpy(b->scratch.data, &parent, sizeof(parent));
	if (name.n)
		memcpy((char *)b->scratch.data + sizeof(parent), name.p, name.n);
	found = hd_table_get(&b->index, hd_slice_make(b->scratch.data, klen));
	if (found != HD_NONE)
		return found;
	key = hd_arena_strndup(&b->arena, b->scratch.data, klen);
	idx = new_node(b, parent, key + sizeof(parent));
	hd_table_put(&b->index, hd_slice_make(key, klen), idx);
	return idx;
}

static void add_bytes(struct hd_breakdown *b, uint32_t node, int side, int64_t bytes)
{
	struct hd_by_node *n = &NODE(b, node);

	if (side == 0)
		n->old_bytes = hd_sat_add(n->old_bytes, bytes);
	else
		n->new_bytes = hd_sat_add(n->new_bytes, bytes);
}

/* Adds bytes to the root and to every node on the path e[0..n). */
static void add_path(struct hd_breakdown *b, const struct hd_slice *e, int n,
		     int side, int64_t bytes)
{
	uint32_t node = 0;
	struct link *l;
	int i;

	add_bytes(b, 0, side, bytes);
	for (i = 0; i < n; i++) {
		node = child_named(b, node, e[i]);
		add_bytes(b, node, side, bytes);
	}
	l = &LINK(b, node);
	l->own[side] = hd_sat_add(l->own[side], bytes);
	l->own_n++;
}

/* Files bytes of value v of d (one side) under its key path.  Nothing
 * for bytes <= 0: a value of no size makes no node. */
static void add_value(struct hd_breakdown *b, const struct hd_dump *d,
		      uint32_t v, int side, int64_t bytes)
{
	struct path pa[HD_BY_MAX_KEYS];
	struct hd_slice all[HD_BY_MAX_KEYS * PATH_MAX_ELEMS];
	int k, i, n = 0;

	if (bytes <= 0)
		return;
	for (k = 0; k < b->nkeys; k++) {
		pa[k].n = 0;
		key_path(b, &pa[k], d, side, v, b->keys[k]);
		for (i = 0; i < pa[k].n; i++)
			all[n++] = pa[k].e[i];
	}
	add_path(b, all, n, side, bytes);
}

/* Files bytes under one top-level node of its own (e.g. "(unresolved)"). */
static void add_named(struct hd_breakdown *b, const char *name, int side,
		      int64_t bytes)
{
	struct hd_slice e = hd_slice_cstr(name);

	if (bytes == 0)
		return;
	add_path(b, &e, 1, side, bytes);
}

static struct hd_breakdown *breakdown_new(const enum hd_by_key *keys, int nkeys,
					  int top_n)
{
	struct hd_breakdown *b;
	int k;

	if (!keys || nkeys < 1 || nkeys > HD_BY_MAX_KEYS)
		return NULL;
	b = hd_xcalloc(1, sizeof(*b));
	b->nodes.elem = sizeof(struct hd_by_node);
	b->links.elem = sizeof(struct link);
	b->kids.elem = sizeof(uint32_t);
	b->scratch.elem = 1;
	hd_table_init(&b->index, &b->arena);
	for (k = 0; k < nkeys; k++)
		b->keys[k] = keys[k];
	b->nkeys = nkeys;
	b->top_n = top_n;
	new_node(b, HD_NONE, "(all)");
	return b;
}

/* ---- finishing ------------------------------------------------------- */

/* Moves the own bytes of every node that also has children to a
 * "(self)" child, so every node is the sum of its children. */
static void add_self_nodes(struct hd_breakdown *b)
{
	uint32_t i, n = (uint32_t)b->nodes.len;

	for (i = 0; i < n; i++) {
		struct link l = LINK(b, i);
		uint32_t s;
		if (l.own_n == 0 || l.first == HD_NONE)
			continue;
		s = new_node(b, i, "(self)");
		NODE(b, s).old_bytes = l.own[0];
		NODE(b, s).new_bytes = l.own[1];
	}
}


static int64_t larger_side(const struct hd_by_node *n)
{
	return n->old_bytes > n->new_bytes ? n->old_bytes : n->new_bytes;
}

/* Diff: |delta| descending, then the larger of old and new descending,
 * then name.  One dump: bytes descending, then name. */
static int cmp_kids(const void *pa, const void *pb, void *ctx)
{
	const struct hd_breakdown *b = ctx;
	const struct hd_by_node *x = &NODE(b, *(const uint32_t *)pa);
	const struct hd_by_node *y = &NODE(b, *(const uint32_t *)pb);
	uint64_t mx = hd_magnitude(larger_side(x)), my = hd_magnitude(larger_side(y));

	if (b->is_diff) {
		uint64_t dx = hd_magnitude(hd_delta(x->old_bytes, x->new_bytes));
		uint64_t dy = hd_magnitude(hd_delta(y->old_bytes, y->new_bytes));
		if (dx != dy)
			return dx < dy ? 1 : -1;
	}
	if (mx != my)
		return mx < my ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Gathers each node's children into b->kids and sorts them. */
static void gather_kids(struct hd_breakdown *b)
{
	uint32_t i, c, n = (uint32_t)b->nodes.len;

	hd_vec_reserve(&b->kids, n);
	for (i = 0; i < n; i++) {
		struct hd_by_node *node = &NODE(b, i);
		node->child_first = (uint32_t)b->kids.len;
		for (c = LINK(b, i).first; c != HD_NONE; c = LINK(b, c).next)
			*(uint32_t *)hd_vec_push(&b->kids) = c;
		node->child_count = (uint32_t)b->kids.len - node->child_first;
		if (node->child_count > 1)
			qsort_r(&KID(b, node->child_first), node->child_count,
				sizeof(uint32_t), cmp_kids, b);
	}
}

/* Replaces the children of node after the first top_n by one "N others"
 * node (when at least two would go). */
static void fold_node(struct hd_breakdown *b, uint32_t node)
{
	uint32_t first = NODE(b, node).child_first;
	uint32_t count = NODE(b, node).child_count;
	uint32_t keep = (uint32_t)b->top_n, i, o;
	int64_t so = 0, sn = 0;
	const char *name;

	if (b->top_n <= 0 || count < keep + 2)
		return;
	for (i = keep; i < count; i++) {
		so = hd_sat_add(so, NODE(b, KID(b, first + i)).old_bytes);
		sn = hd_sat_add(sn, NODE(b, KID(b, first + i)).new_bytes);
	}
	name = hd_arena_printf(&b->arena, "%u others", count - keep);
	o = new_node(b, HD_NONE, name);
	NODE(b, o).old_bytes = so;
	NODE(b, o).new_bytes = sn;
	NODE(b, o).folded = count - keep;
	NODE(b, o).child_first = (uint32_t)b->kids.len;
	KID(b, first + keep) = o;
	NODE(b, node).child_count = keep + 1;
}

static struct hd_breakdown *finish(struct hd_breakdown *b)
{
	uint32_t i, n;

	add_self_nodes(b);
	if (!b->is_diff)
		for (i = 0; i < b->nodes.len; i++)
			NODE(b, i).new_bytes = NODE(b, i).old_bytes;
	gather_kids(b);
	n = (uint32_t)b->nodes.len;
	for (i = 0; i < n; i++)
		fold_node(b, i);
	hd_vec_release(&b->links);
	hd_vec_release(&b->scratch);
	hd_table_release(&b->index);
	hd_sources_release(&b->sources[0]);
	hd_sources_release(&b->sources[1]);
	return b;
}

/* ---- constructors ---------------------------------------------------- */

static void diff_values(struct hd_breakdown *b, const struct hd_diff *df)
{
	size_t i;

	for (i = 0; i < df->values.len; i++) {
		const struct hd_value_diff *x = &HD_VEC_AT(&df->values, struct hd_value_diff, i);
		if (x->old_v != HD_NONE)
			add_value(b, df->old, x->old_v, 0, x->old_bytes);
		if (x->new_v != HD_NONE)
			add_value(b, df->new_dump, x->new_v, 1, x->new_bytes);
	}
}

/* The values of df->peak, each side under its own value's path; what the
 * side's peak holds beyond them goes to "(unresolved)". */
static void diff_peak(struct hd_breakdown *b, const struct hd_diff *df)
{
	const struct hd_peak_diff *p = &df->peak;
	int64_t so = 0, sn = 0;
	size_t i;

	b->peak[0] = p->old_side.has ? HD_BY_PEAK_HELD : HD_BY_PEAK_NONE;
	b->peak[1] = p->new_side.has ? HD_BY_PEAK_HELD : HD_BY_PEAK_NONE;
	for (i = 0; i < p->values.len; i++) {
		const struct hd_peak_value *e = &HD_VEC_AT(&p->values, struct hd_peak_value, i);
		if (e->old_v != HD_NONE && e->old_bytes > 0) {
			add_value(b, df->old, e->old_v, 0, e->old_bytes);
			so = hd_sat_add(so, e->old_bytes);
		}
		if (e->new_v != HD_NONE && e->new_bytes > 0) {
			add_value(b, df->new_dump, e->new_v, 1, e->new_bytes);
			sn = hd_sat_add(sn, e->new_bytes);
		}
	}
	if (p->old_side.has)
		add_named(b, "(unresolved)", 0, hd_delta(so, p->old_side.bytes));
	if (p->new_side.has)
		add_named(b, "(unresolved)", 1, hd_delta(sn, p->new_side.bytes));
}

struct hd_breakdown *hd_breakdown_diff(const struct hd_diff *df,
				       const enum hd_by_key *keys, int nkeys,
				       int at_peak, int top_n)
{
	struct hd_breakdown *b = breakdown_new(keys, nkeys, top_n);

	if (!b)
		return NULL;
	b->is_diff = 1;
	if (at_peak) {
		b->measure = HD_BY_PEAK_BYTES;
		diff_peak(b, df);
	} else {
		b->measure = HD_BY_VALUE_BYTES;
		diff_values(b, df);
	}
	return finish(b);
}

struct hd_breakdown *hd_breakdown_dump(const struct hd_dump *d,
				       const enum hd_by_key *keys, int nkeys,
				       int top_n)
{
	struct hd_breakdown *b = breakdown_new(keys, nkeys, top_n);
	uint32_t v;

	if (!b)
		return NULL;
	b->measure = HD_BY_VALUE_BYTES;
	for (v = 0; v < d->values.len; v++)
		add_value(b, d, v, 0, hd_value_size(d, v));
	return finish(b);
}

struct hd_breakdown *hd_breakdown_dump_peak(const struct hd_dump *d,
					    const struct hd_figures *f,
					    const enum hd_by_key *keys,
					    int nkeys, int top_n)
{
	struct hd_breakdown *b = breakdown_new(keys, nkeys, top_n);
	int64_t *bytes_at, sum = 0;
	uint32_t v;

	if (!b)
		return NULL;
	b->measure = HD_BY_PEAK_BYTES;
	b->peak[0] = f->has_peak ? HD_BY_PEAK_HELD : HD_BY_PEAK_NONE;
	bytes_at = hd_xcalloc(d->values.len + 1, sizeof(*bytes_at));
	hd_figures_held_at_peak(f, bytes_at, NULL);
	for (v = 0; v < d->values.len; v++) {
		if (bytes_at[v] <= 0)
			continue;
		add_value(b, d, v, 0, bytes_at[v]);
		sum = hd_sat_add(sum, bytes_at[v]);
	}
	if (f->has_peak)
		add_named(b, "(unresolved)", 0, hd_delta(sum, f->peak_bytes));
	free(bytes_at);
	return finish(b);
}

/* ---- readers --------------------------------------------------------- */

const struct hd_by_node *hd_breakdown_root(const struct hd_breakdown *b)
{
	return &NODE(b, 0);
}

const struct hd_by_node *hd_breakdown_child(const struct hd_breakdown *b,
					    const struct hd_by_node *n,
					    uint32_t i)
{
	if (i >= n->child_count)
		return NULL;
	return &NODE(b, KID(b, n->child_first + i));
}

int hd_breakdown_is_diff(const struct hd_breakdown *b)
{
	return b->is_diff;
}

enum hd_by_measure hd_breakdown_measure(const struct hd_breakdown *b)
{
	return b->measure;
}

enum hd_by_peak hd_breakdown_peak_source(const struct hd_breakdown *b, int side)
{
	return b->peak[side ? 1 : 0];
}

void hd_breakdown_free(struct hd_breakdown *b)
{
	if (!b)
		return;
	hd_vec_release(&b->nodes);
	hd_vec_release(&b->kids);
	hd_arena_release(&b->arena);
	free(b);
}

/* ---- shared by the renderers ---------------------------------------- */

static void keys_text(char *buf, size_t n, const struct hd_breakdown *b,
		      const char *sep)
{
	int k;
	size_t o = 0;

	buf[0] = '\0';
	for (k = 0; k < b->nkeys && o < n; k++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", k ? sep : "",
				      key_names[b->keys[k]]);
}

/* What the numbers are, in words (no parentheses). */
static void measure_text(char *buf, size_t n, const struct hd_breakdown *b)
{
	if (b->measure == HD_BY_VALUE_BYTES)
		snprintf(buf, n, "sum of value sizes; not total bytes: values share allocations");
	else if (!b->is_diff)
		snprintf(buf, n, "values live at the peak: %s", peak_words[b->peak[0]]);
	else if (b->peak[0] == HD_BY_PEAK_HELD && b->peak[1] == HD_BY_PEAK_HELD)
		snprintf(buf, n, "values live at each peak: bytes held in their allocations");
	else
		snprintf(buf, n, "values live at each peak: old %s; new %s",
			 peak_words[b->peak[0]], peak_words[b->peak[1]]);
}

/* Share of part in whole with one decimal ("12.5"), "" when whole is 0. */
static void share_text(char *buf, size_t n, int64_t part, int64_t whole)
{
	if (whole == 0) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, n, "%.1f", (double)part * 100.0 / (double)whole);
}

/* ---- text ------------------------------------------------------------ */

/* Widest indented name in the tree shown (capped at NAME_COL_MAX). */
static size_t name_width(const struct hd_breakdown *b, const struct hd_by_node *n,
			 size_t indent)
{
	size_t w = indent + strlen(n->name), i;

	for (i = 0; i < n->child_count; i++) {
		size_t c = name_width(b, hd_breakdown_child(b, n, (uint32_t)i), indent + 2);
		if (c > w)
			w = c;
	}
	return w > NAME_COL_MAX ? NAME_COL_MAX : w;
}

/*
 * Writes the indented name into buf, cut at the front ("...tail") when
 * it would pass width.  The tail starts at a '/' when it has one (paths
 * read ".../src/x.py") and never inside a UTF-8 sequence.
 */
static void indented_name(char *buf, size_t n, const char *name, size_t indent,
			  size_t width)
{
	size_t len = strlen(name);
	size_t room = width > indent + NAME_TAIL_MIN ? width - indent : NAME_TAIL_MIN;
	const char *p = name, *slash;

	if (indent + len > width) {
		p = name + len - (room - 3);
		slash = strchr(p, '/');
		if (slash && slash[1])
			p = slash;
		while (*p && ((unsigned char)*p & 0xc0) == 0x80)
			p++;
		snprintf(buf, n, "%*s...%s", (int)indent, "", p);
		return;
	}
	snprintf(buf, n, "%*s%s", (int)indent, "", p);
}

static void text_node(FILE *out, const struct hd_breakdown *b,
		      const struct hd_by_node *n, size_t indent, size_t width)
{
	char name[TEXT_LINE_MAX / 2], d[32], p[32];
	uint32_t i;

	indented_name(name, sizeof(name), n->name, indent, width);
	hd_mask_text(name);
	if (b->is_diff) {
		hd_percent(p, sizeof(p), n->old_bytes, n->new_bytes);
		hd_print_line(out, "%-*s %13" PRId64 " %13" PRId64 " %13s %8s", (int)width,
			  name, n->old_bytes, n->new_bytes,
			  hd_signed(d, sizeof(d), hd_delta(n->old_bytes, n->new_bytes)), p);
	} else {
		share_text(p, sizeof(p), n->old_bytes, hd_breakdown_root(b)->old_bytes);
		hd_print_line(out, "%-*s %13" PRId64 " %7s%s", (int)width, name,
			  n->old_bytes, p, p[0] ? "%" : "");
	}
	for (i = 0; i < n->child_count; i++)
		text_node(out, b, hd_breakdown_child(b, n, i), indent + 2, width);
}

void hd_breakdown_report_text(FILE *out, const struct hd_breakdown *b)
{
	const struct hd_by_node *root = hd_breakdown_root(b);
	size_t width = name_width(b, root, 0);
	char keys[64], what[160];

	if (width < NAME_COL_MIN)
		width = NAME_COL_MIN;
	keys_text(keys, sizeof(keys), b, ",");
	measure_text(what, sizeof(what), b);
	hd_print_line(out, "by %s%s (%s)", keys,
		  b->measure == HD_BY_PEAK_BYTES ? " at the peak" : "", what);
	if (b->is_diff)
		hd_print_line(out, "%-*s %13s %13s %13s %8s", (int)width, "", "old", "new",
			  "delta", "%");
	else
		hd_print_line(out, "%-*s %13s %8s", (int)width, "", "bytes", "%");
	text_node(out, b, root, 0, width);
}

/* ---- JSON ------------------------------------------------------------ */

static void json_percent(struct hd_json *j, int64_t old_v, int64_t new_v)
{
	char p[32];
	size_t n;

	if (old_v == 0) {
		hd_json_null(j);
		return;
	}
	hd_percent(p, sizeof(p), old_v, new_v);
	n = strlen(p);
	if (n && p[n - 1] == '%')
		p[n - 1] = '\0';
	hd_json_raw(j, p[0] == '+' ? p + 1 : p);
}

static void json_node(struct hd_json *j, const struct hd_breakdown *b,
		      const struct hd_by_node *n)
{
	char share[32];
	uint32_t i;

	hd_json_begin_object(j);
	hd_json_key_str(j, "name", n->name);
	if (b->is_diff) {
		hd_json_key_int(j, "old", n->old_bytes);
		hd_json_key_int(j, "new", n->new_bytes);
		hd_json_key_int(j, "delta", hd_delta(n->old_bytes, n->new_bytes));
		hd_json_key(j, "percent");
		json_percent(j, n->old_bytes, n->new_bytes);
	} else {
		hd_json_key_int(j, "bytes", n->old_bytes);
		hd_json_key(j, "share");
		share_text(share, sizeof(share), n->old_bytes, hd_breakdown_root(b)->old_bytes);
		if (share[0])
			hd_json_raw(j, share);
		else
			hd_json_null(j);
	}
	if (n->folded)
		hd_json_key_int(j, "folded", n->folded);
	hd_json_key(j, "children");
	hd_json_begin_array(j);
	for (i = 0; i < n->child_count; i++)
		json_node(j, b, hd_breakdown_child(b, n, i));
	hd_json_end_array(j);
	hd_json_end_object(j);
}

static void json_peak_sources(struct hd_json *j, const struct hd_breakdown *b)
{
	hd_json_key(j, "peak");
	if (!b->is_diff) {
		hd_json_str(j, peak_names[b->peak[0]]);
		return;
	}
	hd_json_begin_object(j);
	hd_json_key_str(j, "old", peak_names[b->peak[0]]);
	hd_json_key_str(j, "new", peak_names[b->peak[1]]);
	hd_json_end_object(j);
}

void hd_breakdown_report_json(struct hd_json *j, const struct hd_breakdown *b)
{
	int k;

	hd_json_begin_object(j);
	hd_json_key(j, "by");
	hd_json_begin_array(j);
	for (k = 0; k < b->nkeys; k++)
		hd_json_str(j, key_names[b->keys[k]]);
	hd_json_end_array(j);
	hd_json_key_str(j, "measure", b->measure == HD_BY_PEAK_BYTES ? "peak_bytes" : "value_bytes");
	if (b->measure == HD_BY_PEAK_BYTES)
		json_peak_sources(j, b);
	hd_json_key(j, "root");
	json_node(j, b, hd_breakdown_root(b));
	hd_json_end_object(j);
}

/* ---- Markdown -------------------------------------------------------- */

/* Writes s with the characters Markdown or HTML would read escaped. */
static void md_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '\\': case '`': case '*': case '_': case '[': case ']':
		case '|': case '#': case '~':
			fputc('\\', out);
			fputc(*s, out);
			break;
		default:
			fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
		}
	}
}

static void md_node(FILE *out, const struct hd_breakdown *b,
		    const struct hd_by_node *n, int depth)
{
	char d[32], p[32];
	uint32_t i;
	int k;

	fputs("| ", out);
	for (k = 0; k < depth; k++)
		fputs("&nbsp;&nbsp;", out);
	md_escape(out, n->name);
	if (b->is_diff) {
		hd_percent(p, sizeof(p), n->old_bytes, n->new_bytes);
		fprintf(out, " | %" PRId64 " | %" PRId64 " | %s | %s |\n", n->old_bytes,
			n->new_bytes, hd_signed(d, sizeof(d), hd_delta(n->old_bytes, n->new_bytes)), p);
	} else {
		share_text(p, sizeof(p), n->old_bytes, hd_breakdown_root(b)->old_bytes);
		fprintf(out, " | %" PRId64 " | %s%s |\n", n->old_bytes, p, p[0] ? "%" : "");
	}
	for (i = 0; i < n->child_count; i++)
		md_node(out, b, hd_breakdown_child(b, n, i), depth + 1);
}

void hd_breakdown_report_markdown(FILE *out, const struct hd_breakdown *b)
{
	const struct hd_by_node *root = hd_breakdown_root(b);
	char keys[64], what[160], d[32], p[32];

	keys_text(keys, sizeof(keys), b, ", ");
	measure_text(what, sizeof(what), b);
	fprintf(out, "<details>\n<summary>Bytes by %s%s: ", keys,
		b->measure == HD_BY_PEAK_BYTES ? " at the peak" : "");
	if (b->is_diff) {
		hd_percent(p, sizeof(p), root->old_bytes, root->new_bytes);
		fprintf(out, "%s%s%s%s", hd_signed(d, sizeof(d), hd_delta(root->old_bytes, root->new_bytes)),
			p[0] ? " (" : "", p, p[0] ? ")" : "");
	} else {
		fprintf(out, "%" PRId64, root->old_bytes);
	}
	fprintf(out, " (%s)</summary>\n\n", what);
	fputs("| ", out);
	md_escape(out, keys);
	if (b->is_diff)
		fputs(" | old | new | delta | % |\n|:---|---:|---:|---:|---:|\n", out);
	else
		fputs(" | bytes | % |\n|:---|---:|---:|\n", out);
	md_node(out, b, root, 0);
	fputs("\n</details>\n", out);
}
