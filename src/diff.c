/*
 * diff.c - figure deltas and per-value changes of two dumps.
 */
#include "hlodiff/diff.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/format.h"
#include "hlodiff/keysort.h"
#include "hlodiff/parallel.h"
#include "hlodiff/shape.h"

const char *hd_status_name(enum hd_value_status s)
{
	switch (s) {
	case HD_STATUS_MATCHED: return "matched";
	case HD_STATUS_ADDED: return "added";
	case HD_STATUS_REMOVED: return "removed";
	}
	return "?";
}

static void push_row(struct hd_vec *rows, const char *name, int is_bytes,
		     int has_old, int64_t old_v, int has_new, int64_t new_v)
{
	struct hd_figure_row *r = hd_vec_push(rows);

	r->name = name;
	r->is_bytes = is_bytes;
	r->has_old = has_old;
	r->old_v = old_v;
	r->has_new = has_new;
	r->new_v = new_v;
}

/* Both per-colour lists begin their elements with the colour and its
 * bytes, so one merge serves them. */
_Static_assert(offsetof(struct hd_color_bytes, bytes) == sizeof(int64_t) &&
	       offsetof(struct hd_peak_space, bytes) == sizeof(int64_t),
	       "per-colour lists start with int64 color, int64 bytes");

static const int64_t *color_bytes(const struct hd_vec *v, size_t i)
{
	return (const int64_t *)(const void *)((const char *)v->data + i * v->elem);
}

/*
 * Rows "space<C><suffix>" for the colours of either list, ascending; 0
 * where a side has no entry of the colour, absent on a side without the
 * figure (has_* 0).  The peak per colour is each side's own time.
 */
static void space_rows(struct hd_vec *rows, struct hd_arena *arena,
		       const char *suffix, const struct hd_vec *ol, int has_old,
		       const struct hd_vec *nl, int has_new)
{
	size_t i = 0, k = 0, no = ol->len, nn = nl->len;

	while (i < no || k < nn) {
		const int64_t *a = i < no ? color_bytes(ol, i) : NULL;
		const int64_t *b = k < nn ? color_bytes(nl, k) : NULL;
		int64_t c = a && (!b || a[0] <= b[0]) ? a[0] : b[0];

		push_row(rows, hd_arena_printf(arena, "space%lld%s", (long long)c, suffix),
			 1, has_old, a && a[0] == c ? a[1] : 0,
			 has_new, b && b[0] == c ? b[1] : 0);
		i += a && a[0] == c;
		k += b && b[0] == c;
	}
}

void hd_figure_rows(struct hd_vec *rows, struct hd_arena *arena,
		    const struct hd_figures *of, const struct hd_figures *nf)
{
	static const char *const kind_rows[HD_KIND_COUNT] = {
		"parameter_bytes", "output_bytes", "constant_bytes",
		"thread_local_bytes", "temp_bytes", "other_bytes",
	};
	static const char *const copy_rows[HD_COPY_CLASS_COUNT] = {
		"prefetches", "evictions", "cross_program_prefetches",
		"host_offloads", "host_reloads", "other_copies",
	};
	/* no NEW side: its figures all 0, no has_* set */
	static const struct hd_figures none;
	const struct hd_figures *n = nf ? nf : &none;
	int oa = !of->allocs_partial, na = nf && !nf->allocs_partial;
	int oc = !of->copies_partial, nc = nf && !nf->copies_partial;
	int k;

	push_row(rows, "total_bytes", 1, of->has_total, of->total_bytes,
		 n->has_total, n->total_bytes);
	push_row(rows, "peak_bytes", 1, of->has_peak, of->peak_bytes,
		 n->has_peak, n->peak_bytes);
	push_row(rows, "peak_time", 0, of->has_peak, of->peak_time,
		 n->has_peak, n->peak_time);
	push_row(rows, "stated_peak_bytes", 1, of->has_stated, of->stated_bytes,
		 n->has_stated, n->stated_bytes);
	push_row(rows, "stated_peak_time", 0, of->has_stated, of->stated_time,
		 n->has_stated, n->stated_time);
	push_row(rows, "recomputed_peak_bytes", 1, of->has_recomputed,
		 of->recomputed_bytes, n->has_recomputed, n->recomputed_bytes);
	space_rows(rows, arena, "_bytes", &of->by_color, oa, &n->by_color, na);
	space_rows(rows, arena, "_peak_bytes", &of->peak_by_color, of->has_peak,
		   &n->peak_by_color, n->has_peak);
	for (k = 0; k < HD_KIND_COUNT; k++) {
		if (k == HD_KIND_OTHER && !of->allocs_by_kind[k] &&
		    !n->allocs_by_kind[k])
			continue;
		push_row(rows, kind_rows[k], 1, oa, of->by_kind[k], na,
			 n->by_kind[k]);
	}
	push_row(rows, "allocations", 0, oa, (int64_t)of->n_allocs, na,
		 (int64_t)n->n_allocs);
	push_row(rows, "values", 0, oa, (int64_t)of->n_values, na,
		 (int64_t)n->n_values);
	/* donated parameters: rows only when a dump has one (most have none) */
	if (of->aliased_params || n->aliased_params) {
		push_row(rows, "aliased_bytes", 1, oa, of->aliased_bytes, na,
			 n->aliased_bytes);
		push_row(rows, "aliased_parameters", 0, oa, of->aliased_params,
			 na, n->aliased_params);
	}
	for (k = 0; k < HD_COPY_CLASS_COUNT; k++)
		push_row(rows, copy_rows[k], 0, oc, of->copies_by_class[k], nc,
			 n->copies_by_class[k]);
}

static int64_t live_length(const struct hd_value *v)
{
	return (v->flags & HD_VALUE_LIVE) ? v->live_end - v->live_start : -1;
}

static int value_kind(const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);

	if (val->alloc_value == HD_NONE)
		return -1;
	return (int)hd_alloc_kind_of(HD_ALLOC(d, HD_ALLOC_VALUE(d, val->alloc_value).alloc).flags);
}

/*
 * What differs between old value a and new value b, whose sizes are
 * sa_size and sb_size.  Byte-identical shapes differ in nothing a shape
 * can (most matched values): their layouts are not stripped to compare.
 */
static uint32_t value_changes(const struct hd_dump *o, uint32_t a,
			      int64_t a_size, const struct hd_dump *n,
			      uint32_t b, int64_t b_size)
{
	struct hd_slice sa = hd_value_shape(o, a), sb = hd_value_shape(n, b);
	const struct hd_value *va = &HD_VALUE(o, a), *vb = &HD_VALUE(n, b);
	uint32_t c = 0;

	if (a_size != b_size)
		c |= HD_CHANGE_SIZE;
	if (!hd_slice_eq(sa, sb))
		c |= hd_slice_eq(hd_shape_strip_layout(sa),
				 hd_shape_strip_layout(sb)) ?
			     HD_CHANGE_LAYOUT : HD_CHANGE_SHAPE;
	if (hd_value_space(o, a) != hd_value_space(n, b)) {
		c |= HD_CHANGE_SPACE;
		c &= ~(uint32_t)HD_CHANGE_LAYOUT;
	}
	if (value_kind(o, a) != value_kind(n, b))
		c |= HD_CHANGE_KIND;
	if (live_length(va) != live_length(vb))
		c |= HD_CHANGE_LIVE;
	return c;
}

static struct hd_slice vd_key(const struct hd_diff *df, const struct hd_value_diff *x)
{
	if (x->old_v != HD_NONE)
		return hd_value_key_of(&HD_VALUE(df->old, x->old_v));
	return hd_value_key_of(&HD_VALUE(df->new_dump, x->new_v));
}

static int differs(const struct hd_value_diff *x)
{
	return x->status != HD_STATUS_MATCHED || x->changes;
}

/* Entries ia and ib of df->values in order (keysort.h): differing
 * values first, by |delta| descending, then by key. */
static int full_value_cmp(void *ctx, uint32_t ia, uint32_t ib)
{
	const struct hd_diff *df = ctx;
	const struct hd_value_diff *v = df->values.data;
	const struct hd_value_diff *a = &v[ia], *b = &v[ib];
	int da = differs(a), db = differs(b);
	uint64_t ma, mb;
	int c;

	if (da != db)
		return db - da;
	ma = hd_magnitude(a->delta);
	mb = hd_magnitude(b->delta);
	if (ma != mb)
		return ma < mb ? 1 : -1;
	if (a->status != b->status)
		return (int)a->status - (int)b->status;
	c = hd_slice_cmp(vd_key(df, a), vd_key(df, b));
	if (c)
		return c;
	return (a->old_v > b->old_v) - (a->old_v < b->old_v);
}

/* The sort item of entry i (keysort.h): |delta| descending, status,
 * key; differs() splits the entries before the sort. */
static void value_item(const struct hd_diff *df, struct hd_key_item *it,
		       const struct hd_value_diff *x, uint32_t i)
{
	hd_key_item_set(it, ~hd_magnitude(x->delta), x->status, vd_key(df, x),
			i);
}

/* value_item of a differing entry without its key (a partial listing:
 * keep_listed reads the keys of the few that may be among the top). */
static void value_numbers(struct hd_key_item *it, const struct hd_value_diff *x,
			  uint32_t i)
{
	hd_key_item_set(it, ~hd_magnitude(x->delta), x->status, HD_SLICE_NULL,
			i);
}

/* The key of the entry of item it (hd_key_select_keyed). */
static void set_value_key(void *ctx, struct hd_key_item *it)
{
	const struct hd_diff *df = ctx;
	const struct hd_value_diff *v = df->values.data;

	hd_key_item_set(it, it->w0, it->w1, vd_key(df, &v[it->idx]), it->idx);
}

/* Entries [from, to) split into the two runs of sort_values, the
 * differing ones from runs[a], the others from runs[b], in order. */
struct split {
	const struct hd_value_diff *v;
	const struct hd_key_item *items;
	struct hd_key_item *runs;
	size_t from, to, a, b;
};

static void *split_run(void *arg)
{
	struct split *sp = arg;
	size_t i, a = sp->a, b = sp->b;

	for (i = sp->from; i < sp->to; i++)
		sp->runs[differs(&sp->v[i]) ? a++ : b++] = sp->items[i];
	return NULL;
}

/*
 * Sorts df->values by full_value_cmp, stably (keysort.h): the
 * differing values (all before the others) by |delta| descending, then
 * status, then key; the others by key.  items[i] is the item of entry
 * i (made by list_values while the entry was at hand); they are split
 * into the two runs in order, which keeps the sort stable.  items is
 * then spent, and serves as the sorts' scratch and the reordering's
 * copy (it has room for n items, more than n entries need), which
 * saves two big allocations and their page faults.
 */
_Static_assert(sizeof(struct hd_value_diff) <= sizeof(struct hd_key_item),
	       "sort_values copies the entries into the spent items");

static void sort_values(struct hd_diff *df, struct hd_key_item *items,
			uint32_t h, uint32_t listed_h)
{
	size_t n = df->values.len, a = df->n_listed;
	struct hd_vec run_mem = HD_VEC_INIT(struct hd_key_item);
	struct split sp[2];

	if (n < 2)
		return;
	/* Entries [0, h) hold listed_h of the differing ones: their places
	 * in the runs are known, and the two halves split at once. */
	sp[0] = (struct split){ df->values.data, items,
				hd_vec_block(&run_mem, sizeof(struct hd_key_item), n),
				0, h, 0, a };
	sp[1] = (struct split){ df->values.data, items, sp[0].runs, h, n,
				listed_h, a + (h - listed_h) };
	hd_run_two(split_run, &sp[0], split_run, &sp[1], n >= 4096);
	hd_key_sort_in(sp[0].runs, a, items, full_value_cmp, df);
	if (!df->rest_unsorted)
		hd_key_sort_in(sp[0].runs + a, n - a, items, full_value_cmp, df);
	hd_key_apply_via(df->values.data, sizeof(struct hd_value_diff),
			 sp[0].runs, n, items);
	hd_vec_release(&run_mem);
}

/* What the listing counts (struct hd_diff's n_*). */
struct value_counts {
	uint32_t matched, changed, removed, added, listed;
};

/*
 * Fills *out for old value a and new value b (HD_NONE on a missing
 * side), and *it, its sort item (index i); returns whether it differs.
 * A partial listing (df->partial) stores no entry that does not, and
 * no item (it is NULL: keep_listed makes the few it needs).  The entry
 * is made in a local and stored once, and whether it differs is worked
 * out from the numbers: fields just stored in pieces stall a read.
 */
static int fill_value(const struct hd_diff *df, struct hd_value_diff *out,
		      struct hd_key_item *it, uint32_t i, uint32_t a,
		      uint32_t b, struct value_counts *n)
{
	struct hd_value_diff x;
	uint32_t changes = 0;
	uint8_t status;

	memset(&x, 0, sizeof(x));
	x.old_v = a;
	x.new_v = b;
	x.old_bytes = a != HD_NONE ? hd_value_size(df->old, a) : -1;
	x.new_bytes = b != HD_NONE ? hd_value_size(df->new_dump, b) : -1;
	x.delta = hd_delta(x.old_bytes > 0 ? x.old_bytes : 0,
			   x.new_bytes > 0 ? x.new_bytes : 0);
	if (a != HD_NONE && b != HD_NONE) {
		status = HD_STATUS_MATCHED;
		x.how = df->match.how[a];
		changes = value_changes(df->old, a, x.old_bytes,
					df->new_dump, b, x.new_bytes);
		n->matched++;
		if (changes)
			n->changed++;
	} else if (a != HD_NONE) {
		status = HD_STATUS_REMOVED;
		n->removed++;
	} else {
		status = HD_STATUS_ADDED;
		n->added++;
	}
	x.status = status;
	x.changes = changes;
	if (status != HD_STATUS_MATCHED || changes) {
		n->listed++;
		if (!df->partial)
			value_item(df, it, &x, i);
		*out = x;
		return 1;
	}
	if (!df->partial) {
		/* left unsorted, an entry needs no key (sort_rest makes
		 * it if the diff is completed): its value is not read */
		if (df->rest_unsorted)
			hd_key_item_set(it, 0, 0, HD_SLICE_NULL, i);
		else
			value_item(df, it, &x, i);
		*out = x;
	}
	return 0;
}

/*
 * fill_old fetches ahead, in three stages, what making the entry of an
 * old value reads: REC_AHEAD values ahead the value record of its
 * partner (scattered over the new dump); AV_AHEAD ahead, once that is
 * in cache, the value lines (sizes, shapes, shape hashes) of both
 * sides; TEXT_AHEAD ahead, once those are in, the allocations and the
 * shapes' text.  Prefetches, not loads: nothing waits for them, so the
 * misses of the three stages overlap with each other and with making
 * the entries.  The first few entries of a chunk (LIST_CHUNK) go
 * without.
 */
#define REC_AHEAD 24
#define AV_AHEAD 16
#define TEXT_AHEAD 8

static inline __attribute__((always_inline)) void
fetch_rec(const struct hd_diff *df, uint32_t a)
{
	uint32_t b = df->match.old_to_new[a];

	if (b != HD_NONE) {
		const char *vb = (const char *)&HD_VALUE(df->new_dump, b);

		/* the fields value_changes reads: a record (64 bytes) is
		 * one cache line, or two where an array starts unaligned;
		 * and its colour (dump.h: value_colors) */
		__builtin_prefetch(vb);
		__builtin_prefetch(vb + sizeof(struct hd_value) - 1);
		__builtin_prefetch(&HD_VALUE_COLOR(df->new_dump, b));
	}
}

static inline __attribute__((always_inline)) void
fetch_av(const struct hd_dump *d, uint32_t v)
{
	uint32_t av;

	if (v == HD_NONE || (av = HD_VALUE(d, v).alloc_value) == HD_NONE)
		return;
	__builtin_prefetch(&HD_ALLOC_VALUE(d, av));
	__builtin_prefetch((const char *)&HD_ALLOC_VALUE(d, av) +
			   sizeof(struct hd_alloc_value) - 1);
}

static inline __attribute__((always_inline)) void
fetch_text(const struct hd_dump *d, uint32_t v)
{
	const struct hd_alloc_value *e;
	uint32_t av;

	if (v == HD_NONE || (av = HD_VALUE(d, v).alloc_value) == HD_NONE)
		return;
	e = &HD_ALLOC_VALUE(d, av);
	__builtin_prefetch(&HD_ALLOC(d, e->alloc).flags);
	if (e->shape.n) {
		__builtin_prefetch(e->shape.p);
		__builtin_prefetch(e->shape.p + e->shape.n - 1);
	}
}

static inline __attribute__((always_inline)) void
fetch_ahead(const struct hd_diff *df, uint32_t i, uint32_t to)
{
	if (i + REC_AHEAD < to)
		fetch_rec(df, i + REC_AHEAD);
	if (i + AV_AHEAD < to) {
		fetch_av(df->old, i + AV_AHEAD);
		fetch_av(df->new_dump, df->match.old_to_new[i + AV_AHEAD]);
	}
	if (i + TEXT_AHEAD < to) {
		fetch_text(df->old, i + TEXT_AHEAD);
		fetch_text(df->new_dump, df->match.old_to_new[i + TEXT_AHEAD]);
	}
}

/*
 * The listing in chunks of LIST_CHUNK old values, taken in turn by
 * either of two threads (a third, the peak's, runs at the same time:
 * fixed halves would end apart by whatever share of a core each got);
 * the last chunk is the added new values.  Each chunk's entries go at
 * their index in out, their sort items into items.  A partial listing
 * keeps the differing entries alone (few of them on a recompile):
 * there each thread appends its chunks' entries (and no items) to an
 * array of its own, and gather_listed then puts them together in order;
 * written at their index, all their chunks' pages would be touched, and
 * the kernel would zero memory for every entry.
 */
#define LIST_CHUNK 16384

struct list_work {
	const struct hd_diff *df;
	struct hd_value_diff *out;
	struct hd_key_item *items;
	uint32_t n_old, n_old_chunks;
	atomic_uint next;               /* the next chunk to take */
	uint32_t *chunk_listed;         /* differing entries of each chunk
					 * (the added values' last) */
	uint32_t *chunk_at;             /* partial: where each chunk's
					 * entries start in its job's arrays */
	unsigned char *chunk_job;       /* partial: the job that made it */
	uint32_t n_out;                 /* entries made, set by the last chunk */
};

struct fill_job {
	struct list_work *w;
	struct value_counts n;
	unsigned id;                    /* 0 or 1 */
	/* partial: the entries this job made, appended */
	struct hd_vec vals;
};

/*
 * Old values [from, to); returns how many entries differ.  The entries
 * go to [from, to), or in a partial listing only the differing ones, to
 * the end of the job's arrays (gather_listed then puts them together).
 * The counts go to a local copy while the chunk is made: the two jobs'
 * counts share a cache line.
 */
static uint32_t fill_old(struct fill_job *j, uint32_t from, uint32_t to)
{
	const struct list_work *w = j->w;
	const struct hd_diff *df = w->df;
	struct value_counts n = j->n;
	int all = !df->partial;
	uint32_t i, at = all ? from : 0;
	struct hd_value_diff *out = w->out;
	struct hd_key_item *items = w->items;

	if (!all) {
		/* the job's own array, from its end (room for all); no
		 * items (keep_listed makes them) */
		out = (struct hd_value_diff *)j->vals.data + j->vals.len;
		items = NULL;
	}
	for (i = from; i < to; i++) {
		fetch_ahead(df, i, to);
		at += fill_value(df, &out[at], items ? &items[at] : NULL, at,
				 i, df->match.old_to_new[i], &n) | all;
	}
	i = n.listed - j->n.listed;
	j->n = n;
	return i;
}

/* The new values no old value matched, from index n_old on (counted
 * as fill_old does; in a partial listing, appended to the job's
 * arrays).  Returns how many. */
static uint32_t fill_added(struct fill_job *j)
{
	struct list_work *w = j->w;
	const struct hd_diff *df = w->df;
	struct value_counts n = j->n;
	uint32_t i, k = w->n_old, at = df->partial ? 0 : k;
	struct hd_value_diff *out = w->out;
	struct hd_key_item *items = w->items;

	if (df->partial) {
		out = (struct hd_value_diff *)j->vals.data + j->vals.len;
		items = NULL;
	}
	for (i = 0; i < df->new_dump->values.len; i++) {
		if (df->match.new_to_old[i] != HD_NONE)
			continue;
		fill_value(df, &out[at], items ? &items[at] : NULL, at,
			   HD_NONE, i, &n);
		k++;
		at++;
	}
	j->n = n;
	w->n_out = k;
	return k - w->n_old;
}

static void *fill_chunks(void *arg)
{
	struct fill_job *j = arg;
	struct list_work *w = j->w;
	uint32_t c;

	/* chunk 0 is the added values, a walk over all new values: taken
	 * first, so that it is not the one long job at the end */
	while ((c = atomic_fetch_add(&w->next, 1)) <= w->n_old_chunks) {
		uint32_t from = (c - 1) * LIST_CHUNK, k;

		/* the added values' chunk is the last one listed */
		k = c == 0 ? w->n_old_chunks : c - 1;
		if (w->chunk_at) {
			w->chunk_at[k] = (uint32_t)j->vals.len;
			w->chunk_job[k] = (unsigned char)j->id;
		}
		if (c == 0)
			w->chunk_listed[k] = fill_added(j);
		else
			w->chunk_listed[k] = fill_old(j, from,
				w->n_old - from < LIST_CHUNK ? w->n_old :
				from + LIST_CHUNK);
		if (w->chunk_at)
			j->vals.len += w->chunk_listed[k];
	}
	return NULL;
}

/*
 * A partial listing's entries are in the two jobs' arrays, each
 * chunk's in a run (fill_chunks): they are put together in the order of
 * the chunks.
 */
static void gather_listed(struct hd_diff *df, const struct list_work *w,
			  const struct fill_job *j)
{
	struct hd_value_diff *v = df->values.data;
	size_t at = 0, c;

	for (c = 0; c <= w->n_old_chunks; c++) {
		const struct fill_job *from = &j[w->chunk_job[c]];
		size_t len = w->chunk_listed[c];

		if (len == 0)  /* values.data may be NULL: no values */
			continue;
		memcpy(v + at, (const struct hd_value_diff *)from->vals.data +
		       w->chunk_at[c], len * sizeof(*v));
		at += len;
	}
	df->values.len = at;
}

/*
 * Lists every value: one entry per old value in dump order (in chunks
 * on two threads, see LIST_CHUNK: each entry compares shapes in both
 * inputs, a cache miss or two), then the added new values; and the
 * sort item of each entry into items (room for every value of both
 * dumps).  Sets *h to a place near the middle of the old entries and
 * returns how many of the entries before it differ (sort_values splits
 * there).  A partial listing keeps the differing entries alone.
 */
static uint32_t list_values(struct hd_diff *df, struct hd_key_item *items,
			    uint32_t *h)
{
	struct list_work w;
	struct fill_job j[2];
	struct value_counts *c;
	uint32_t k, half, listed_h = 0;

	memset(&w, 0, sizeof(w));
	w.df = df;
	w.n_old = (uint32_t)df->old->values.len;
	w.n_old_chunks = (uint32_t)(((size_t)w.n_old + LIST_CHUNK - 1) /
				    LIST_CHUNK);
	atomic_init(&w.next, 0);
	w.chunk_listed = hd_xcalloc(w.n_old_chunks + 1, sizeof(uint32_t));
	hd_vec_reserve(&df->values, w.n_old + df->new_dump->values.len);
	w.out = df->values.data;
	w.items = items;
	memset(j, 0, sizeof(j));
	j[0].w = j[1].w = &w;
	j[1].id = 1;
	if (df->partial) {
		size_t n = (size_t)w.n_old + df->new_dump->values.len + 1;

		w.chunk_at = hd_xcalloc(w.n_old_chunks + 1, sizeof(uint32_t));
		w.chunk_job = hd_xcalloc(w.n_old_chunks + 1, 1);
		/* room for all, as one job may make all: only the pages
		 * written are backed (arena.h) */
		for (k = 0; k < 2; k++)
			hd_vec_block(&j[k].vals, sizeof(struct hd_value_diff), n);
	}
	hd_run_two(fill_chunks, &j[0], fill_chunks, &j[1], w.n_old >= 4096);
	df->values.len = w.n_out;
	if (df->partial) {
		gather_listed(df, &w, j);
		for (k = 0; k < 2; k++)
			hd_vec_release(&j[k].vals);
		free(w.chunk_at);
		free(w.chunk_job);
	}
	for (k = 0; k < 2; k++) {
		c = &j[k].n;
		df->n_matched += c->matched;
		df->n_changed += c->changed;
		df->n_removed += c->removed;
		df->n_added += c->added;
		df->n_listed += c->listed;
	}
	half = (w.n_old_chunks + 1) / 2;
	for (k = 0; k < half; k++)
		listed_h += w.chunk_listed[k];
	*h = (size_t)half * LIST_CHUNK < w.n_old ? half * LIST_CHUNK : w.n_old;
	free(w.chunk_listed);
	return listed_h;
}

/*
 * The partial listing (hd_diff_compute_sides_top): list_values has kept
 * the differing entries alone, in dump order; the first top of
 * sort_values' order go to the front in that order (their number to
 * df->n_top), the others follow as they were.  The items (room for
 * all) are made here without their keys (value_numbers): only the few
 * entries that may be among the first top have theirs read.  The rest
 * are not sorted (their sum needs no order, as long as no sum of them
 * saturates: where one could, all are sorted).
 */
static void keep_listed(struct hd_diff *df, struct hd_key_item *items,
			uint32_t top)
{
	const struct hd_value_diff *v = df->values.data;
	size_t a = df->values.len, k = top < a ? top : a, m = 0, i, j;

	df->n_top = 0;
	if (a == 0)
		return;
	/* An entry whose delta is 0 comes after every other (|delta|
	 * first): where k others have one, the first k are among those
	 * alone, and only they are given items.  Most entries that differ
	 * differ in their live range alone. */
	for (i = 0; i < a; i++)
		m += v[i].delta != 0;
	if (m < k)
		m = a;
	for (i = 0, j = 0; i < a; i++)
		if (m == a || v[i].delta != 0)
			value_numbers(&items[j++], &v[i], (uint32_t)i);
	/* the entries left out add 0 to any sum */
	if (hd_key_magnitudes_overflow(items, m)) {
		k = a;
		if (m != a) {
			for (i = 0; i < a; i++)
				value_numbers(&items[i], &v[i], (uint32_t)i);
			m = a;
		}
	}
	hd_key_select_keyed(items, m, k, set_value_key, full_value_cmp, df);
	hd_key_apply_front(df->values.data, sizeof(struct hd_value_diff), a,
			   items, k);
	df->n_top = (uint32_t)k;
}

void hd_diff_side_begin(struct hd_diff_side *s, const struct hd_dump *d)
{
	s->d = d;
	s->ms = hd_match_side_begin(d);
}

void hd_diff_side_step(struct hd_diff_side *s, enum hd_side_step step)
{
	switch (step) {
	case HD_SIDE_CANON:
		hd_match_side_canon(s->ms);
		break;
	case HD_SIDE_ORDER:
		hd_match_side_order(s->ms);
		break;
	case HD_SIDE_FIGURES:
		hd_figures_compute_kept(&s->f, s->d, hd_match_side_kept(s->ms));
		break;
	case HD_SIDE_STEPS:
		break;
	}
}

void hd_diff_side_prepare(struct hd_diff_side *s, const struct hd_dump *d)
{
	int k;

	hd_diff_side_begin(s, d);
	for (k = 0; k < HD_SIDE_STEPS; k++)
		hd_diff_side_step(s, (enum hd_side_step)k);
}

void hd_diff_side_release(struct hd_diff_side *s)
{
	if (s->ms) {
		hd_figures_release(&s->f);
		hd_match_side_free(s->ms);
	}
	memset(s, 0, sizeof(*s));
}

/* The two sides one after the other: the binary prepares them on
 * threads of its own (batch.c). */
int hd_diff_compute(struct hd_diff *df, const struct hd_dump *old,
		    const struct hd_dump *new_dump, unsigned match_flags)
{
	struct hd_diff_side os, ns;

	hd_diff_side_prepare(&os, old);
	hd_diff_side_prepare(&ns, new_dump);
	return hd_diff_compute_sides(df, &os, &ns, match_flags);
}

/* What the two threads of compute_sides share: the diff, and for a
 * partial one how many values are wanted in order (df->n_top is the
 * listing's to set). */
struct compute_job {
	struct hd_diff *df;
	uint32_t top;
};

static void *peak_thread(void *arg)
{
	const struct compute_job *j = arg;
	struct hd_diff *df = j->df;

	if (df->partial)
		hd_peak_diff_compute_top(&df->peak, df->old, &df->fold,
					 df->new_dump, &df->fnew, &df->match,
					 j->top);
	else
		hd_peak_diff_compute(&df->peak, df->old, &df->fold,
				     df->new_dump, &df->fnew, &df->match);
	return NULL;
}

static void *list_and_sort(void *arg)
{
	const struct compute_job *j = arg;
	struct hd_diff *df = j->df;
	struct hd_vec item_mem = HD_VEC_INIT(struct hd_key_item);
	struct hd_key_item *items = hd_vec_block(&item_mem, sizeof(*items),
		df->old->values.len + df->new_dump->values.len + 1);
	uint32_t h, listed_h;

	listed_h = list_values(df, items, &h);
	if (df->partial)
		keep_listed(df, items, j->top);
	else
		sort_values(df, items, h, listed_h);
	hd_vec_release(&item_mem);
	return NULL;
}

/*
 * Sorts the entries left in listing order (values[n_listed, len), see
 * hd_diff_compute_sides_listed) as sort_values sorts them: they are in
 * the order of their run there, each item's idx its entry's place
 * (full_value_cmp reads the entries there), so ties fall as they did.
 */
static void sort_rest(struct hd_diff *df)
{
	struct hd_value_diff *v = df->values.data;
	size_t a = df->n_listed, n = df->values.len - a, i;
	struct hd_key_item *items;

	df->rest_unsorted = 0;
	if (n < 2)
		return;
	items = hd_xmalloc(n * sizeof(*items));
	for (i = 0; i < n; i++)
		value_item(df, &items[i], &v[a + i], (uint32_t)(a + i));
	hd_key_sort(items, n, full_value_cmp, df);
	for (i = 0; i < n; i++)
		items[i].idx -= (uint32_t)a;
	hd_key_apply(v + a, sizeof(*v), items, n);
	free(items);
}

void hd_diff_complete(struct hd_diff *df)
{
	struct compute_job job = { df, 0 };

	if (df->rest_unsorted)
		sort_rest(df);
	if (!df->partial)
		return;
	hd_peak_diff_complete(&df->peak, df->old, df->new_dump);
	hd_match_label(&df->match, df->old, df->new_dump);
	/* listed again, whole, as hd_diff_compute_sides lists them */
	df->partial = 0;
	df->n_top = 0;
	df->n_matched = df->n_changed = df->n_removed = df->n_added = 0;
	df->n_listed = 0;
	df->values.len = 0;
	list_and_sort(&job);
}

/* hd_diff_compute_sides, partial when partial (hd_diff_compute_sides_top),
 * its unchanged entries unsorted when rest_unsorted
 * (hd_diff_compute_sides_listed). */
static int compute_sides(struct hd_diff *df, struct hd_diff_side *os,
			 struct hd_diff_side *ns, unsigned match_flags,
			 int partial, int rest_unsorted, uint32_t top)
{
	const struct hd_dump *old = os->d, *new_dump = ns->d;
	struct compute_job job = { df, top };

	memset(df, 0, sizeof(*df));
	df->partial = partial;
	df->rest_unsorted = rest_unsorted;
	df->old = old;
	df->new_dump = new_dump;
	df->rows.elem = sizeof(struct hd_figure_row);
	df->values.elem = sizeof(struct hd_value_diff);
	df->fold = os->f;
	df->fnew = ns->f;
	hd_figure_rows(&df->rows, &df->arena, &df->fold, &df->fnew);
	/* the text report prints no pair's how: a partial diff leaves the
	 * names of the structural pairs uncompared (hd_diff_complete) */
	hd_match_values_sides(&df->match, os->ms, ns->ms,
			      partial ? match_flags | HD_MATCH_LABELS_LATER :
					match_flags);
	hd_match_side_free(os->ms);
	hd_match_side_free(ns->ms);
	memset(os, 0, sizeof(*os));
	memset(ns, 0, sizeof(*ns));
	/* The peak on a second thread: it reads only the dumps, their
	 * figures and the match, and writes only df->peak. */
	hd_run_two(list_and_sort, &job, peak_thread, &job, 1);
	return 0;
}

int hd_diff_compute_sides(struct hd_diff *df, struct hd_diff_side *os,
			  struct hd_diff_side *ns, unsigned match_flags)
{
	return compute_sides(df, os, ns, match_flags, 0, 0, 0);
}

int hd_diff_compute_sides_listed(struct hd_diff *df, struct hd_diff_side *os,
				 struct hd_diff_side *ns, unsigned match_flags)
{
	return compute_sides(df, os, ns, match_flags, 0, 1, 0);
}

int hd_diff_compute_sides_top(struct hd_diff *df, struct hd_diff_side *os,
			      struct hd_diff_side *ns, unsigned match_flags,
			      uint32_t top)
{
	return compute_sides(df, os, ns, match_flags, 1, 0, top);
}

void hd_diff_release(struct hd_diff *df)
{
	hd_figures_release(&df->fold);
	hd_figures_release(&df->fnew);
	hd_peak_diff_release(&df->peak);
	hd_match_release(&df->match);
	hd_vec_release(&df->rows);
	hd_vec_release(&df->values);
	hd_arena_release(&df->arena);
}

const struct hd_figure_row *hd_diff_row(const struct hd_diff *df, const char *name)
{
	size_t i;

	for (i = 0; i < df->rows.len; i++) {
		const struct hd_figure_row *r = &HD_VEC_AT(&df->rows, struct hd_figure_row, i);
		if (strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

/* ---- changes of shape (diff.h) ------------------------------------------ */

double hd_value_diff_ratio(const struct hd_value_diff *vd)
{
	if (vd->status != HD_STATUS_MATCHED || vd->old_bytes <= 0 ||
	    vd->new_bytes < 0)
		return 0;
	return (double)vd->new_bytes / (double)vd->old_bytes;
}

/* The ratio x 100, rounded, of a resized entry; UINT32_MAX when it has
 * none (an old size of 0) or it is too large to group. */
static uint32_t ratio100(const struct hd_value_diff *vd)
{
	double r = hd_value_diff_ratio(vd);

	if (r <= 0 || r * 100 > 1e9)
		return UINT32_MAX;
	return (uint32_t)(r * 100 + 0.5);
}

static int cmp_by_ratio(const void *pa, const void *pb)
{
	const struct hd_value_diff *a = *(const struct hd_value_diff *const *)pa;
	const struct hd_value_diff *b = *(const struct hd_value_diff *const *)pb;
	uint32_t x = ratio100(a), y = ratio100(b);

	if (x != y)
		return x < y ? -1 : 1;
	return a->old_v < b->old_v ? -1 : a->old_v > b->old_v;
}

static int cmp_groups(const void *pa, const void *pb)
{
	const struct hd_scale_group *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return a->ratio100 < b->ratio100 ? -1 : a->ratio100 > b->ratio100;
}

static int cmp_others(const void *pa, const void *pb)
{
	const struct hd_value_diff *a = *(const struct hd_value_diff *const *)pa;
	const struct hd_value_diff *b = *(const struct hd_value_diff *const *)pb;
	/* (a delta is never INT64_MIN: both sizes it joins are >= 0) */
	uint64_t x = hd_magnitude(a->delta), y = hd_magnitude(b->delta);

	if (x != y)
		return x > y ? -1 : 1;
	return a->old_v < b->old_v ? -1 : a->old_v > b->old_v;
}

void hd_diff_scaling(const struct hd_diff *df, struct hd_scaling *sc)
{
	const struct hd_value_diff **rs;
	uint32_t i, k, n = 0, min, n_one;

	memset(sc, 0, sizeof(*sc));
	sc->n_matched = df->n_matched;
	rs = hd_xmalloc(((size_t)df->n_listed + 2) * sizeof(*rs));
	for (i = 0; i < df->n_listed; i++) {
		const struct hd_value_diff *vd =
			&HD_VEC_AT(&df->values, struct hd_value_diff, i);

		if (vd->status == HD_STATUS_MATCHED && vd->old_bytes >= 0 &&
		    vd->new_bytes >= 0 && vd->old_bytes != vd->new_bytes)
			rs[n++] = vd;
	}
	sc->n_resized = n;
	sc->shown = n >= HD_SCALING_MIN_VALUES &&
		    (uint64_t)n * 100 >= (uint64_t)df->n_matched * HD_SCALING_MIN_PERCENT;
	qsort(rs, n, sizeof(*rs), cmp_by_ratio);
	min = n / 100 > HD_SCALING_GROUP_MIN ? n / 100 : HD_SCALING_GROUP_MIN;
	sc->groups = hd_xcalloc((size_t)n + 2, sizeof(*sc->groups));
	sc->others = hd_xmalloc(((size_t)n + 1) * sizeof(*sc->others));
	/* the unchanged sizes are x1.00 */
	n_one = df->n_matched - n;
	for (i = 0; i < n; i = k) {
		uint32_t r = ratio100(rs[i]), c = 0;
		struct hd_scale_group g = { r, 0, 0, 0 };

		for (k = i; k < n && ratio100(rs[k]) == r; k++)
			c++;
		if (r == 100)
			c += n_one;
		if (r != UINT32_MAX && c >= min) {
			g.n = c;
			for (c = i; c < k; c++) {
				g.old_bytes = hd_sat_add(g.old_bytes, rs[c]->old_bytes);
				g.new_bytes = hd_sat_add(g.new_bytes, rs[c]->new_bytes);
			}
			sc->groups[sc->n_groups++] = g;
		} else {
			for (c = i; c < k; c++)
				sc->others[sc->n_others++] = rs[c];
		}
		if (r == 100)
			n_one = 0;
	}
	if (n_one)
		sc->groups[sc->n_groups++] = (struct hd_scale_group){
			100, n_one, 0, 0 };
	qsort(sc->groups, sc->n_groups, sizeof(*sc->groups), cmp_groups);
	qsort(sc->others, sc->n_others, sizeof(*sc->others), cmp_others);
	free(rs);
}

void hd_scaling_release(struct hd_scaling *sc)
{
	free(sc->groups);
	free(sc->others);
	memset(sc, 0, sizeof(*sc));
}

void hd_diff_programs(const struct hd_diff *df, struct hd_programs *p)
{
	const uint32_t *c = df->match.count;
	uint32_t small;

	memset(p, 0, sizeof(*p));
	p->n_old = df->match.n_old;
	p->n_new = df->match.n_new;
	p->by_structure = c[HD_MATCH_EXACT] + c[HD_MATCH_STRUCTURAL] +
			  c[HD_MATCH_CANONICAL] + c[HD_MATCH_GRAPH];
	small = p->n_old < p->n_new ? p->n_old : p->n_new;
	p->different = small >= HD_SAME_PROGRAM_MIN &&
		       (uint64_t)p->by_structure * 100 <
			       (uint64_t)small * HD_SAME_PROGRAM_PERCENT;
}
