/*
 * figures.c - numbers derived from one dump.
 *
 * Everything is one or two linear passes over the model's arrays.  The
 * recomputed peak uses a difference array over the live-range times
 * (O(ranges + T), no sorting); only the distinct colours are sorted.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/figures.h"
#include "hlodiff/format.h"
#include "hlodiff/keysort.h"
#include "hlodiff/shape.h"

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

/* The place of x in the k ascending xs. */
static uint32_t find_x(const int64_t *xs, uint32_t k, int64_t x)
{
	uint32_t lo = 0, hi = k;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (xs[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The colours of the allocations, ascending, distinct; *n their number. */
static int64_t *alloc_colors(const struct hd_dump *d, uint32_t *n)
{
	int64_t *c = hd_xmalloc((d->allocs.len ? d->allocs.len : 1) * sizeof(*c));
	size_t i, m = 0;

	for (i = 0; i < d->allocs.len; i++)
		if (m == 0 || HD_ALLOC(d, i).color != c[m - 1])
			c[m++] = HD_ALLOC(d, i).color;
	qsort(c, m, sizeof(*c), cmp_i64);
	for (i = 0, *n = 0; i < m; i++)
		if (*n == 0 || c[i] != c[*n - 1])
			c[(*n)++] = c[i];
	return c;
}

/* Allocation totals: alloc_bytes, by_color (ascending colour), by_kind,
 * the aliased ones. */
static void sum_allocs(struct hd_figures *f, const struct hd_dump *d)
{
	uint32_t n_colors, c = 0;
	int64_t *colors = alloc_colors(d, &n_colors);
	size_t i;

	for (i = 0; i < n_colors; i++)
		((struct hd_color_bytes *)hd_vec_push(&f->by_color))->color = colors[i];
	for (i = 0; i < d->allocs.len; i++) {
		const struct hd_alloc *a = &HD_ALLOC(d, i);
		enum hd_alloc_kind k = hd_alloc_kind_of(a->flags);
		struct hd_color_bytes *cb;

		/* most allocations have the colour of the one before */
		if (a->color != colors[c])
			c = find_x(colors, n_colors, a->color);
		cb = &HD_VEC_AT(&f->by_color, struct hd_color_bytes, c);
		cb->bytes = hd_sat_add(cb->bytes, a->size);
		cb->allocs++;
		f->alloc_bytes = hd_sat_add(f->alloc_bytes, a->size);
		f->by_kind[k] = hd_sat_add(f->by_kind[k], a->size);
		f->allocs_by_kind[k]++;
		if (hd_alloc_is_aliased(a)) {
			f->aliased_bytes = hd_sat_add(f->aliased_bytes, a->size);
			f->aliased_params++;
		}
	}
	free(colors);
}

/* Counts and value_bytes: the model's tallies (dump.h). */
static void count_things(struct hd_figures *f, const struct hd_dump *d)
{
	f->n_allocs = d->allocs.len;
	f->n_values = d->alloc_values.len;
	f->n_live_ranges = d->live_ranges.len;
	f->value_bytes = d->value_bytes;
	f->n_records = d->n_records;
}

/*
 * The dump's own peak: the last cumulative figure, or the sum of the
 * lines in the older plain style.  Absent when the dump has no peak
 * section or says the peak could not be determined.
 */
static void stated_peak(struct hd_figures *f, const struct hd_dump *d)
{
	size_t i;

	f->stated_values = (uint32_t)d->peak.len;
	if (d->peak_style == HD_PEAK_CUMULATIVE) {
		f->has_stated = 1;
		if (d->peak.len)
			f->stated_bytes = HD_PEAK_ENTRY(d, d->peak.len - 1).cumulative;
	} else if (d->peak_style == HD_PEAK_PLAIN) {
		f->has_stated = 1;
		for (i = 0; i < d->peak.len; i++)
			f->stated_bytes = hd_sat_add(f->stated_bytes,
						     HD_PEAK_ENTRY(d, i).bytes);
	}
	if (f->has_stated)
		f->stated_time = d->peak_time;
}

/*
 * Logical bytes of the whole shape of the instruction that defines
 * value v (the size XLA uses to choose the peak time, FORMAT.md section
 * 5): from the instruction's " from instruction:" shape, else from the
 * value "name{}" (a tuple table's value line shows the whole tuple),
 * else -1.  A value printed without an index is its instruction's whole
 * shape, so its own size serves.
 */
static int64_t whole_bytes(const struct hd_dump *d, uint32_t v, int64_t own)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	uint32_t insn = val->insn;
	uint32_t table;

	if (insn == HD_NONE)
		insn = hd_dump_insn_by_name(d, val->name);
	if (insn != HD_NONE)
		return HD_INSN(d, insn).shape_bytes;
	if (!(val->flags & HD_VALUE_INDEXED) || val->index_n == 2)
		return own;
	table = hd_dump_value_by_key(d, val->name);
	return table == HD_NONE ? -1 : hd_value_logical_bytes(d, table);
}

/* Sizes of one live range's value (-1 = unknown). */
struct range_size {
	int64_t own, whole;
};

/* Does k (hd_figures_kept) hold both sizes? */
static inline int kept_both(uint64_t k)
{
	return (uint32_t)k != 0 && (uint32_t)(k >> 32) != 0;
}

/* The kept sizes of value v as hd_figures_compute_kept's array has
 * them: from there, else from the record. */
static inline uint64_t kept_of(const struct hd_dump *d,
			       const uint64_t *kept, uint32_t v)
{
	if (kept)
		return kept[v];
	return hd_figures_kept(&HD_VALUE(d, v));
}

/*
 * The sizes of live range i's value.  Worked out again each time they
 * are needed rather than kept for every range (16 bytes a range, much
 * of the peak memory on a dump of many small values):
 * the peak time needs them all once, the bytes at a time only those of
 * the ranges live then.  Where the parser kept both in the value record
 * (the value line's and the instruction's shape_bytes, which is what
 * hd_value_logical_bytes and whole_bytes return for them), they are read there,
 * inline and without a look at those two records: on a large dump they
 * are most of what the passes over the live ranges read.
 */
static inline struct range_size range_size(const struct hd_dump *d,
					   const uint64_t *kept, size_t i)
{
	uint32_t v = HD_LIVE_RANGE(d, i).value;
	struct range_size s = { -1, -1 };

	uint64_t k;

	if (v == HD_NONE)
		return s;
	k = kept_of(d, kept, v);
	if (kept_both(k)) {
		s.own = hd_size_kept((uint32_t)k);
		s.whole = hd_size_kept((uint32_t)(k >> 32));
		return s;
	}
	s.own = hd_value_logical_bytes(d, v);
	s.whole = whole_bytes(d, v, s.own);
	return s;
}

/*
 * xla_peak_time reads, for each range, its value record and then the
 * value's allocation entry and instruction: cache misses in random
 * order on a large dump.  It fetches ahead in two stages of prefetches
 * (nothing waits for them, so their misses overlap with the work):
 * RANGE_AHEAD ranges ahead the value record's sizes and the entries of
 * the two difference arrays at the range's end (its start's follow the
 * ranges, mostly in order of start); half as far, once the record is
 * in, the value line and instruction of a value whose sizes the record
 * does not keep.
 */
#define RANGE_AHEAD 16

/* The first stage for range i. */
static inline __attribute__((always_inline)) void
fetch_range_record(const struct hd_dump *d, const uint64_t *kept,
		   const int64_t *diff, const int64_t *at, size_t i,
		   int64_t max)
{
	const struct hd_live_range *lr = &HD_LIVE_RANGE(d, i);

	if (lr->value != HD_NONE && kept) {
		__builtin_prefetch(&kept[lr->value]);
	} else if (lr->value != HD_NONE) {
		const char *rec = (const char *)&HD_VALUE(d, lr->value);

		/* own_kept and whole_kept, side by side in one line */
		__builtin_prefetch(rec + offsetof(struct hd_value, own_kept));
	}
	if (lr->start >= 0 && lr->start <= lr->end && lr->start <= max) {
		int64_t e = lr->end < max ? lr->end : max;

		__builtin_prefetch(&diff[e + 2]);
		__builtin_prefetch(&at[e + 1]);
	}
}

/* The second stage for range i. */
static inline __attribute__((always_inline)) void
fetch_range_sizes(const struct hd_dump *d, const uint64_t *kept,
		  size_t i)
{
	uint32_t v = HD_LIVE_RANGE(d, i).value;
	const struct hd_value *val;
	uint64_t k;

	if (v == HD_NONE)
		return;
	k = kept_of(d, kept, v);
	if (kept_both(k))
		return;
	val = &HD_VALUE(d, v);
	if (val->alloc_value != HD_NONE)
		__builtin_prefetch(&HD_ALLOC_VALUE(d, val->alloc_value).shape_bytes);
	if (val->insn != HD_NONE)
		__builtin_prefetch(&HD_INSN(d, val->insn).shape_bytes);
}

/* Both stages ahead of range i of n: primed for the first ranges at
 * i == 0. */
static inline __attribute__((always_inline)) void
fetch_range(const struct hd_dump *d, const uint64_t *kept,
	    const int64_t *diff, const int64_t *at, size_t i, size_t n,
	    int64_t max)
{
	size_t j;

	if (i == 0) {
		for (j = 0; j < RANGE_AHEAD && j < n; j++)
			fetch_range_record(d, kept, diff, at, j, max);
		for (j = 0; j < RANGE_AHEAD / 2 && j < n; j++)
			fetch_range_sizes(d, kept, j);
	}
	if (i + RANGE_AHEAD < n)
		fetch_range_record(d, kept, diff, at, i + RANGE_AHEAD, max);
	if (i + RANGE_AHEAD / 2 < n)
		fetch_range_sizes(d, kept, i + RANGE_AHEAD / 2);
}

/* Clamps a range to [0, T]; returns 0 if nothing is left of it. */
static int clamp_range(const struct hd_live_range *lr, int64_t max,
		       int64_t *start, int64_t *end)
{
	*start = lr->start;
	*end = lr->end < max ? lr->end : max;
	return *start >= 0 && *start <= *end;
}

/*
 * The bytes live at each time (what live_bytes_at2 adds up) as a
 * difference array over the times: +b at a range's start, -b after its
 * end, b as live_bytes_at2 weighs the range.  xla_peak_time fills it in
 * the pass it makes anyway, and the bytes at a time are then its prefix
 * sum, without a second pass over the ranges (each a cache miss or
 * two).  overflow: an entry went beyond int64 (only hostile shapes do);
 * then the second pass is made after all, which says exactly which sum
 * does not fit.
 */
struct live_diff {
	int64_t *at;            /* T + 3 entries */
	int64_t *peak;          /* T + 3 entries: xla_peak_time's own
				 * difference array */
	int overflow;
};

/*
 * The peak time the way XLA chooses it (HloLiveRange, FORMAT.md section
 * 5).  XLA sweeps start events at `start` and end events at `end + 1`,
 * sorted so that at one time all starts come before all ends, weighs
 * each value by the logical size of its defining instruction's *whole*
 * shape, and keeps the first time the running sum strictly exceeds the
 * best so far.  The running sum after the starts of time t is the sum
 * over ranges with start <= t <= end + 1, so a difference array with +w
 * at start and -w at end + 2 gives the same first maximum (times without
 * a start never exceed an earlier one).  A value whose whole shape is
 * unknown weighs its own size.
 *
 * This rule, not the naive one (own value sizes, inclusive ranges, first
 * maximum), is what gives the stated time of the corpus dumps.
 *
 * Returns -1 when the sizes add up beyond int64 (only hostile shapes
 * do), so the caller leaves the figure absent rather than wrong.
 *
 * The same pass fills ld (see struct live_diff) for the bytes live at
 * a time.  Its own difference array is ld->peak, zero.
 */
static int64_t xla_peak_time(const struct hd_dump *d, const uint64_t *kept,
			     uint32_t *unsized, struct live_diff *ld)
{
	int64_t max = d->live_max, t, run = 0, best = -1, best_t = 0;
	int64_t *diff = ld->peak;
	size_t i;
	int overflow = 0, plain = d->peak_style == HD_PEAK_PLAIN;

	for (i = 0; i < d->live_ranges.len; i++) {
		int64_t start, end, w, b;
		struct range_size sz;
		int in;

		fetch_range(d, kept, diff, ld->at, i, d->live_ranges.len, max);
		sz = range_size(d, kept, i);
		w = sz.whole >= 0 ? sz.whole : sz.own;
		b = plain && sz.whole >= 0 ? sz.whole : sz.own;

		if (sz.own < 0)
			(*unsized)++;

		in = clamp_range(&HD_LIVE_RANGE(d, i), max, &start, &end);
		if (in && b > 0) {
			ld->overflow |= __builtin_add_overflow(ld->at[start], b,
							       &ld->at[start]);
			ld->overflow |= __builtin_sub_overflow(ld->at[end + 1], b,
							       &ld->at[end + 1]);
		}
		if (w <= 0 || !in)
			continue;
		overflow |= __builtin_add_overflow(diff[start], w, &diff[start]);
		overflow |= __builtin_sub_overflow(diff[end + 2], w, &diff[end + 2]);
	}
	for (t = 0; t <= max + 1 && !overflow; t++) {
		overflow |= __builtin_add_overflow(run, diff[t], &run);
		if (run > best) {
			best = run;
			best_t = t;
		}
	}
	return overflow ? -1 : best_t;
}

/*
 * Bytes live at time t (start <= t <= end): the values' own logical
 * sizes, except in the plain peak style where XLA printed (and summed)
 * the whole instruction shape of each value.  Unknown sizes add 0.
 * At the stated time this gives the stated peak bytes of the corpus
 * dumps, cumulative and plain.
 *
 * Worked out at two times in one pass (sum[0] at t[0], sum[1] at t[1]);
 * only when live_bytes_from_diff overflows.  Returns -1 when a sum does
 * not fit in int64.
 */
static int live_bytes_at2(const struct hd_dump *d, const uint64_t *kept,
			  const int64_t t[2], int64_t sum[2])
{
	int plain = d->peak_style == HD_PEAK_PLAIN;
	size_t i;
	int k;

	sum[0] = sum[1] = 0;
	for (i = 0; i < d->live_ranges.len; i++) {
		int64_t s, e, b;
		int in = clamp_range(&HD_LIVE_RANGE(d, i), d->live_max, &s, &e);
		int live[2] = { in && t[0] >= s && t[0] <= e,
				in && t[1] >= s && t[1] <= e };
		struct range_size sz;

		if (!live[0] && !live[1])
			continue;
		sz = range_size(d, kept, i);
		b = plain && sz.whole >= 0 ? sz.whole : sz.own;
		for (k = 0; k < 2; k++)
			if (live[k] && b > 0 &&
			    __builtin_add_overflow(sum[k], b, &sum[k]))
				return -1;
	}
	return 0;
}

/*
 * live_bytes_at2 from the difference array: the same sums, or -1 when
 * a prefix sum goes beyond int64 (then the caller asks live_bytes_at2,
 * as a sum that fits may have a prefix on the way that does not).
 * Without an overflow anywhere, the prefix at t is exactly the sum of
 * the positive bytes live at t, so it fits, and live_bytes_at2 adds up
 * the same numbers without an overflow.  No range is live outside [0, T].
 */
static int live_bytes_from_diff(const struct live_diff *ld, int64_t max,
				const int64_t t[2], int64_t sum[2])
{
	int64_t run = 0, x, hi = t[0] > t[1] ? t[0] : t[1];
	int overflow = ld->overflow;

	sum[0] = sum[1] = 0;
	for (x = 0; x <= hi && x <= max && !overflow; x++) {
		overflow |= __builtin_add_overflow(run, ld->at[x], &run);
		if (x == t[0])
			sum[0] = run;
		if (x == t[1])
			sum[1] = run;
	}
	return overflow ? -1 : 0;
}

/*
 * Peak recomputed from BufferLiveRange.  Needs "HloLiveRange (max T)"
 * and at least one range; T must not exceed the number of input lines
 * (the InstructionSequence prints T lines), which bounds the array.
 * Absent when the sizes add up beyond int64.
 */
static void recomputed_peak(struct hd_figures *f, const struct hd_dump *d,
			    const uint64_t *kept)
{
	struct live_diff ld;
	struct hd_vec mem = HD_VEC_INIT(int64_t);
	int64_t t[2], sum[2];
	size_t n;
	int ok;

	if (d->live_max < 0 || d->live_ranges.len == 0 ||
	    (uint64_t)d->live_max > d->n_lines)
		return;
	/* the two difference arrays in one block, on 2 MiB pages where
	 * the kernel can (arena.h): they are written at random times, and
	 * 4 KiB pages would each take a fault and miss the TLB */
	n = (size_t)d->live_max + 3;
	ld.at = hd_vec_block_zeroed(&mem, sizeof(*ld.at), 2 * n);
	ld.peak = ld.at + n;
	ld.overflow = 0;
	t[0] = xla_peak_time(d, kept, &f->recomputed_unsized, &ld);
	t[1] = f->has_stated ? f->stated_time : -1;
	ok = t[0] >= 0 && (live_bytes_from_diff(&ld, d->live_max, t, sum) == 0 ||
			   live_bytes_at2(d, kept, t, sum) == 0);
	hd_vec_release(&mem);
	if (!ok) {
		f->recomputed_unsized = 0;
		return;
	}
	f->has_recomputed = 1;
	f->recomputed_time = t[0];
	f->recomputed_bytes = sum[0];
	if (f->has_stated) {
		f->recomputed_at_stated = sum[1];
		f->stated_agrees = sum[1] == f->stated_bytes &&
			sum[0] == f->stated_bytes;
	}
}

/* ---- the memory held (FORMAT.md section 5.1) ---------------------------- */

/*
 * The bytes held at time t: per allocation, the size of the union of
 * [offset, offset + size) over its values live at t, summed.  One sweep
 * over the start and end events, bucketed by time (T is bounded by the
 * input's lines): at each t the starts of t are applied, the totals
 * read, then the ends of t removed, so ranges that touch at t are both
 * held there.  Most values share no byte with a value of their
 * allocation live at a same time (found per allocation by offset, see
 * mark_shared): they add their size while live.  The others of an
 * allocation go into a segment tree over their distinct offsets (cover
 * count and covered length per node, the union of rectangles' classic),
 * so each of their events costs O(log k).
 */

/* One live range taking part.  Half a cache line: the sort moves the
 * items, and what only the sweep needs is kept beside them. */
struct held_item {
	int64_t offset, stop;   /* [offset, stop) in its allocation */
	uint32_t start, end;    /* clamped to [0, T] (held_usable: T < 2^32) */
	uint32_t alloc;         /* index into dump->allocs */
	uint32_t value;         /* index into dump->values */
};

/* The tree of an allocation with values that share bytes. */
struct held_alloc {
	uint32_t k;             /* distinct endpoints */
	int64_t *xs;            /* k endpoints, ascending */
	int32_t *cnt;           /* tree nodes (1-based, 2 * pow2 entries) */
	int64_t *len;
	uint32_t leaves;        /* pow2 >= k - 1 */
};

static void seg_update(struct held_alloc *a, uint32_t node, uint32_t nl,
		       uint32_t nr, uint32_t l, uint32_t r, int dlt)
{
	if (r <= nl || nr <= l)
		return;
	if (l <= nl && nr <= r) {
		a->cnt[node] += dlt;
	} else {
		uint32_t mid = nl + (nr - nl) / 2;

		seg_update(a, 2 * node, nl, mid, l, r, dlt);
		seg_update(a, 2 * node + 1, mid, nr, l, r, dlt);
	}
	if (a->cnt[node] > 0) {
		uint32_t hi = nr < a->k ? nr : a->k - 1;

		a->len[node] = nl < hi ? a->xs[hi] - a->xs[nl] : 0;
	} else if (nr - nl == 1) {
		a->len[node] = 0;
	} else {
		a->len[node] = a->len[2 * node] + a->len[2 * node + 1];
	}
}

/* By allocation, offset, end offset, then start time. */
static int cmp_item(const void *pa, const void *pb)
{
	const struct held_item *a = pa, *b = pb;

	if (a->alloc != b->alloc)
		return a->alloc < b->alloc ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	if (a->stop != b->stop)
		return a->stop < b->stop ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

/* Which live ranges held_items gathers: all, or those live at time at
 * in allocations of colour color (any when color < 0). */
struct held_filter {
	int all;
	int64_t at, color;
};

/* Does live range i pass f?  Its value line's index in *k. */
static int held_pick(const struct hd_dump *d, size_t i,
		     const struct held_filter *f, uint32_t *k,
		     uint32_t *unplaced)
{
	const struct hd_live_range *lr = &HD_LIVE_RANGE(d, i);
	const struct hd_alloc_value *av;
	int64_t s, e, stop;

	/* most ranges are not live at a given time: out before their
	 * value record is read (the clamped range only ends sooner) */
	if (!f->all && (lr->start > f->at || lr->end < f->at))
		return 0;
	*k = lr->value != HD_NONE ? HD_VALUE(d, lr->value).alloc_value : HD_NONE;
	/* a value without a value line has no bytes to hold */
	if (*k == HD_NONE) {
		(*unplaced)++;
		return 0;
	}
	av = &HD_ALLOC_VALUE(d, *k);
	if (!clamp_range(lr, d->live_max, &s, &e) || av->size <= 0 ||
	    av->offset < 0 || __builtin_add_overflow(av->offset, av->size, &stop))
		return 0;
	return f->all || (f->at >= s && f->at <= e &&
			  (f->color < 0 || HD_ALLOC(d, av->alloc).color == f->color));
}

/* How far ahead held_items asks for the value line of an item it is to
 * place (the lines are scattered: one cache miss after another). */
#define HELD_AHEAD 16

/* Live range i, whose value line is k, as an item. */
static void held_item_of(const struct hd_dump *d, uint32_t i, uint32_t k,
			 struct held_item *x)
{
	const struct hd_live_range *lr = &HD_LIVE_RANGE(d, i);
	const struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, k);
	int64_t start, end;

	clamp_range(lr, d->live_max, &start, &end);
	x->start = (uint32_t)start;
	x->end = (uint32_t)end;
	x->offset = av->offset;
	x->stop = av->offset + av->size;
	x->alloc = av->alloc;
	x->value = lr->value;
}

/*
 * Memory the passes of a sweep use one after another (the picked
 * ranges, the sort's numbers, the events): one block, elements of one
 * byte, whatever it holds.  A block fresh from the system costs a page
 * fault and a zeroed page per page first touched, more than the passes'
 * own work in it.
 */
static void *scratch_get(struct hd_vec *s, size_t size)
{
	hd_vec_reserve(s, size);
	return s->data;
}

/* Items grouped by allocation: group g is it[group[g], group[g + 1]). */
struct held_set {
	struct held_item *it;
	size_t n, n_groups;
	uint32_t *group;
};

static void held_set_free(struct held_set *set)
{
	free(set->it);
	free(set->group);
	memset(set, 0, sizeof(*set));
}

/* How held_radix packs a field: less its minimum, shifted right by the
 * low bits all items agree on, in bits bits. */
struct held_field {
	int64_t min, max;
	uint64_t differ;        /* bits that differ from the first item's */
	unsigned shift, bits;
};

static void field_see(struct held_field *hf, int64_t v, int64_t first)
{
	hf->min = v < hf->min ? v : hf->min;
	hf->max = v > hf->max ? v : hf->max;
	hf->differ |= (uint64_t)v ^ (uint64_t)first;
}

static void field_done(struct held_field *hf)
{
	uint64_t span;

	hf->shift = hf->differ ? (unsigned)__builtin_ctzll(hf->differ) : 0;
	span = ((uint64_t)hf->max - (uint64_t)hf->min) >> hf->shift;
	hf->bits = span ? 64 - (unsigned)__builtin_clzll(span) : 0;
}

static uint64_t field_key(const struct held_field *hf, int64_t v)
{
	return ((uint64_t)v - (uint64_t)hf->min) >> hf->shift;
}

/* The ranges of start, size and offset (hf[0..2], least significant
 * first: by offset and size is by offset and stop) over it[0, n); a
 * start already in order (the live ranges mostly come by start) needs
 * no pass: its bits are 0. */
static void field_ranges(const struct held_item *it, size_t n,
			 struct held_field hf[3])
{
	int64_t s0 = it[0].start, z0 = it[0].stop - it[0].offset, o0 = it[0].offset;
	int starts_ascend = 1;
	size_t i;

	hf[0] = (struct held_field){ s0, s0, 0, 0, 0 };
	hf[1] = (struct held_field){ z0, z0, 0, 0, 0 };
	hf[2] = (struct held_field){ o0, o0, 0, 0, 0 };
	for (i = 1; i < n; i++) {
		starts_ascend &= it[i].start >= it[i - 1].start;
		field_see(&hf[0], it[i].start, s0);
		field_see(&hf[1], it[i].stop - it[i].offset, z0);
		field_see(&hf[2], it[i].offset, o0);
	}
	for (i = 0; i < 3; i++)
		field_done(&hf[i]);
	if (starts_ascend)
		hf[0].bits = 0;
}

/* The number pass [f, g) of held_radix sorts item x by: its fields g - 1
 * down to f. */
static uint64_t item_key(const struct held_field hf[3], int f, int g,
			 const struct held_item *x)
{
	int64_t v[3];
	uint64_t key = 0;
	int h;

	v[0] = x->start;
	v[1] = x->stop - x->offset;
	v[2] = x->offset;
	for (h = g - 1; h >= f; h--)
		if (hf[h].bits)
			key = (key << hf[h].bits) | field_key(&hf[h], v[h]);
	return key;
}

/* Puts it[perm[i]] at i for each i, in place, cycle by cycle (a copy
 * of the items would be fresh memory, whose pages cost more to fault in
 * than the moves); perm is spent. */
static void held_permute(struct held_item *it, uint32_t *perm, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		struct held_item x;

		if (perm[i] == i)
			continue;
		x = it[i];
		for (j = i; (k = perm[j]) != i; j = k) {
			it[j] = it[k];
			perm[j] = (uint32_t)j;
		}
		it[j] = x;
		perm[j] = (uint32_t)j;
	}
}

/*
 * Sorts it[0, n) (one allocation) as a stable sort by cmp_item, with
 * radix sorts, from the least significant field up: each pass sorts
 * numbers made of the fields it takes (as many as fit) above the
 * item's place in the order so far, so a pass is stable and the order
 * total.  0 when a field does not fit beside the place (the caller
 * sorts otherwise).
 */
static int held_radix(struct held_item *it, size_t n, struct hd_vec *sc)
{
	struct held_field hf[3];
	unsigned ib = 64 - (unsigned)__builtin_clzll(n - 1);
	uint64_t *a = scratch_get(sc, 2 * n * (sizeof(*a) + sizeof(uint32_t)));
	uint64_t *b = a + n, *r, mask = ((uint64_t)1 << ib) - 1;
	uint32_t *perm = (uint32_t *)(a + 2 * n), *next = perm + n;
	int f = 0, g;
	size_t i;

	field_ranges(it, n, hf);
	for (i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	while (f < 3 && hf[f].bits + ib <= 64) {
		unsigned bits = hf[f].bits;

		for (g = f + 1; g < 3 && bits + hf[g].bits + ib <= 64; g++)
			bits += hf[g].bits;
		if (bits) {
			/* the keys made in the items' order, then put in
			 * the order so far: a gather of 8 bytes, not items */
			for (i = 0; i < n; i++)
				b[i] = item_key(hf, f, g, &it[i]);
			for (i = 0; i < n; i++)
				a[i] = (b[perm[i]] << ib) | i;
			r = hd_key_radix_sort(a, b, n, ib, bits);
			for (i = 0; i < n; i++)
				next[i] = perm[r[i] & mask];
			memcpy(perm, next, n * sizeof(*perm));
		}
		f = g;
	}
	if (f == 3)
		held_permute(it, perm, n);
	return f == 3;
}

/* Sorts it[0, n) (one allocation) by cmp_item, stably: by held_radix
 * (a comparison sort of many costs several times more), else qsort. */
static void held_sort(struct held_item *it, size_t n, struct hd_vec *sc)
{
	if (n > 1 && !held_radix(it, n, sc))
		qsort(it, n, sizeof(*it), cmp_item);
}

/*
 * The live ranges that pass f, as items grouped by allocation (a
 * counting sort: a pass over the ranges to pick and count them, one to
 * place them), each sorted by cmp_item.  The first pass keeps only
 * the picked ranges' numbers, not their items: a second copy of them
 * all would be memory at the peak of a diff.
 */
static void held_items(const struct hd_dump *d, const struct held_filter *f,
		       struct held_set *set, uint32_t *unplaced,
		       struct hd_vec *sc)
{
	size_t nr = d->live_ranges.len, na = d->allocs.len, i, n = 0, g = 0;
	uint32_t *first = hd_xcalloc(na + 1, sizeof(*first));
	uint32_t *picked = scratch_get(sc, 2 * (nr ? nr : 1) * sizeof(*picked));
	uint32_t *line = picked + nr;

	for (i = 0; i < nr; i++)
		if (held_pick(d, i, f, &line[n], unplaced)) {
			first[HD_ALLOC_VALUE(d, line[n]).alloc + 1]++;
			picked[n++] = (uint32_t)i;
		}
	set->n = n;
	set->group = hd_xmalloc((n + 1) * sizeof(*set->group));
	for (i = 0; i < na; i++) {
		uint32_t c = first[i + 1];

		if (c)
			set->group[g++] = first[i];
		first[i + 1] = first[i] + c;
	}
	set->group[g] = (uint32_t)n;
	set->n_groups = g;
	set->it = hd_xmalloc((n ? n : 1) * sizeof(*set->it));
	for (i = 0; i < n; i++) {
		if (i + HELD_AHEAD < n)
			__builtin_prefetch(&HD_ALLOC_VALUE(d, line[i + HELD_AHEAD]));
		held_item_of(d, picked[i], line[i],
			     &set->it[first[HD_ALLOC_VALUE(d, line[i]).alloc]++]);
	}
	free(first);
	for (g = 0; g < set->n_groups; g++)
		held_sort(set->it + set->group[g],
			  set->group[g + 1] - set->group[g], sc);
}

/* How many items of other intervals after one in offset order
 * mark_shared compares it with before it puts the whole allocation in
 * the tree. */
#define SHARED_SCAN 64

/*
 * Marks in shared[] the items of it[0, n) (one allocation, in cmp_item's
 * order) that share a byte with another live at a same time.  Items of
 * one interval (a slot the allocator reuses) follow each other by start:
 * one overlaps another in time when the latest end before it reaches its
 * start or the next start is within its range.  Against the items of
 * other intervals that start inside it, each is compared, up to
 * SHARED_SCAN of them; past that, the whole allocation goes into the
 * tree.
 */
static void mark_shared(const struct held_item *it, unsigned char *shared,
			size_t n)
{
	size_t k, j, g, scanned;

	for (g = 0; g < n; g = j) {
		int64_t max_end = INT64_MIN;

		for (j = g; j < n && it[j].offset == it[g].offset &&
		     it[j].stop == it[g].stop; j++)
			;
		for (k = g; k < j; k++) {
			if ((k > g && max_end >= it[k].start) ||
			    (k + 1 < j && it[k + 1].start <= it[k].end))
				shared[k] = 1;
			if (it[k].end > max_end)
				max_end = it[k].end;
		}
		/* the intervals after this one that start inside it */
		scanned = 0;
		for (k = j; k < n && it[k].offset < it[g].stop; k++) {
			size_t q;

			for (q = g; q < j; q++) {
				if (++scanned > SHARED_SCAN) {
					memset(shared, 1, n);
					return;
				}
				if (it[k].start <= it[q].end && it[q].start <= it[k].end)
					shared[k] = shared[q] = 1;
			}
		}
	}
}

/* Makes the tree of the shared items of it[0, n) (one allocation): its
 * endpoints into xs (room for 2n); returns how many it wrote there. */
static size_t make_tree(struct held_alloc *a, const struct held_item *it,
			const unsigned char *shared, size_t n, int64_t *xs)
{
	size_t j, k = 0;

	for (j = 0; j < n; j++)
		if (shared[j]) {
			xs[k++] = it[j].offset;
			xs[k++] = it[j].stop;
		}
	qsort(xs, k, sizeof(*xs), cmp_i64);
	a->xs = xs;
	a->k = 0;
	for (j = 0; j < k; j++)
		if (a->k == 0 || xs[j] != xs[a->k - 1])
			xs[a->k++] = xs[j];
	for (a->leaves = 1; a->leaves < a->k - 1; a->leaves *= 2)
		;
	return k;
}

/* What an item's start or end changes in colour slot color: its bytes,
 * or, shared (tree not HD_NONE), what its segments change in the tree.
 * The sweep reads these in order rather than the items, scattered over
 * memory. */
struct held_event {
	union {
		int64_t bytes;                  /* not shared */
		struct { uint32_t lo, hi; };    /* elementary segments */
	};
	uint32_t color, tree;
};

/* The state of one sweep (hd_held_sweep). */
struct held_sweep {
	const struct hd_dump *d;
	struct hd_held *h;
	struct held_set set;
	struct hd_vec scratch;          /* by_start, by_end, at_start, at_end */
	unsigned char *shared;          /* per item: in its allocation's tree */
	struct held_alloc *trees;
	uint32_t *tree_of, n_trees;     /* tree of an allocation, or HD_NONE */
	int64_t *xs_pool, *len_pool;
	int32_t *cnt_pool;
	uint32_t *at_start, *at_end;    /* end of each time's bucket */
	struct held_event *by_start, *by_end; /* by time, read in order */
	int64_t *run, total, best;      /* held per colour and in all */
};

/* Why d has no held peak, or NULL. */
static const char *held_usable(const struct hd_dump *d)
{
	if (d->sections & HD_SEC_LIVE_RANGE_NA)
		return "no live ranges ('HloLiveRange not available')";
	if (d->live_max < 0 || d->live_ranges.len == 0)
		return "no live ranges (no BufferLiveRange section)";
	if ((uint64_t)d->live_max > d->n_lines)
		return "an 'HloLiveRange (max T)' beyond its line count";
	/* the items keep their times in 32 bits (a dump of 2^32 lines) */
	if (d->live_max >= UINT32_MAX)
		return "an 'HloLiveRange (max T)' beyond 32 bits";
	if (d->allocs.len == 0)
		return "no allocations";
	return NULL;
}

/* Per allocation: who shares bytes, and whether it needs a tree;
 * returns the endpoints the trees need. */
static size_t held_mark(struct held_sweep *sw)
{
	size_t i, g, m, n_x = 0;

	sw->shared = hd_xcalloc(sw->set.n ? sw->set.n : 1, 1);
	sw->tree_of = hd_xmalloc(sw->d->allocs.len * sizeof(*sw->tree_of));
	for (i = 0; i < sw->d->allocs.len; i++)
		sw->tree_of[i] = HD_NONE;
	for (g = 0; g < sw->set.n_groups; g++) {
		size_t lo = sw->set.group[g], hi = sw->set.group[g + 1];
		const struct held_item *x = &sw->set.it[lo];

		mark_shared(x, sw->shared + lo, hi - lo);
		for (i = lo, m = 0; i < hi; i++)
			m += sw->shared[i];
		if (m) {
			sw->tree_of[x->alloc] = sw->n_trees++;
			n_x += 2 * m;
		}
	}
	return n_x;
}

/* The trees of the allocations held_mark found shared bytes in. */
static void held_trees(struct held_sweep *sw, size_t n_x)
{
	size_t i, j, g, n_nodes = 0;

	if (!sw->n_trees)
		return;
	sw->trees = hd_xcalloc(sw->n_trees, sizeof(*sw->trees));
	sw->xs_pool = hd_xmalloc(n_x * sizeof(*sw->xs_pool));
	n_x = 0;
	for (g = 0; g < sw->set.n_groups; g++) {
		uint32_t tree = sw->tree_of[sw->set.it[sw->set.group[g]].alloc];
		struct held_alloc *a;

		i = sw->set.group[g];
		j = sw->set.group[g + 1];
		if (tree == HD_NONE)
			continue;
		a = &sw->trees[tree];
		n_x += make_tree(a, sw->set.it + i, sw->shared + i, j - i,
				 sw->xs_pool + n_x);
		n_nodes += 2 * (size_t)a->leaves;
	}
	sw->cnt_pool = hd_xcalloc(n_nodes, sizeof(*sw->cnt_pool));
	sw->len_pool = hd_xcalloc(n_nodes, sizeof(*sw->len_pool));
	n_nodes = 0;
	for (i = 0; i < sw->n_trees; i++) {
		sw->trees[i].cnt = sw->cnt_pool + n_nodes;
		sw->trees[i].len = sw->len_pool + n_nodes;
		n_nodes += 2 * (size_t)sw->trees[i].leaves;
	}
}

/* The event of item i, of colour slot color and (shared) tree tree. */
static struct held_event held_event_of(const struct held_sweep *sw, size_t i,
				       uint32_t color, uint32_t tree)
{
	const struct held_item *x = &sw->set.it[i];
	struct held_event e;

	e.color = color;
	e.tree = sw->shared[i] ? tree : HD_NONE;
	if (e.tree == HD_NONE) {
		e.bytes = x->stop - x->offset;
	} else {
		const struct held_alloc *a = &sw->trees[tree];

		e.lo = find_x(a->xs, a->k, x->offset);
		e.hi = find_x(a->xs, a->k, x->stop);
	}
	return e;
}

/* The scratch bytes of held_events: n events twice, T + 2 buckets twice. */
static size_t held_events_bytes(size_t n, size_t T)
{
	return 2 * n * sizeof(struct held_event) + 2 * (T + 2) * sizeof(uint32_t);
}

/* The events bucketed by time (a counting sort); at_start[t] and
 * at_end[t] are left at the end of time t's bucket. */
static void held_events(struct held_sweep *sw, size_t T)
{
	const struct held_item *it = sw->set.it;
	size_t i, g;

	sw->by_start = scratch_get(&sw->scratch, held_events_bytes(sw->set.n, T));
	sw->by_end = sw->by_start + sw->set.n;
	sw->at_start = (uint32_t *)(sw->by_end + sw->set.n);
	sw->at_end = sw->at_start + T + 2;
	memset(sw->at_start, 0, 2 * (T + 2) * sizeof(*sw->at_start));
	for (i = 0; i < sw->set.n; i++) {
		sw->at_start[it[i].start + 1]++;
		sw->at_end[it[i].end + 1]++;
	}
	for (i = 0; i <= T; i++) {
		sw->at_start[i + 1] += sw->at_start[i];
		sw->at_end[i + 1] += sw->at_end[i];
	}
	for (g = 0; g < sw->set.n_groups; g++) {
		uint32_t alloc = it[sw->set.group[g]].alloc;
		uint32_t color = find_x(sw->h->colors, sw->h->n_colors,
					HD_ALLOC(sw->d, alloc).color);

		for (i = sw->set.group[g]; i < sw->set.group[g + 1]; i++) {
			struct held_event e = held_event_of(sw, i, color,
							    sw->tree_of[alloc]);

			sw->by_start[sw->at_start[it[i].start]++] = e;
			sw->by_end[sw->at_end[it[i].end]++] = e;
		}
	}
}

/* A shared item's start (dlt 1) or end (-1), event e: what its tree's
 * union gains or loses. */
static int64_t tree_change(const struct held_sweep *sw,
			   const struct held_event *e, int dlt)
{
	struct held_alloc *a = &sw->trees[e->tree];
	int64_t before = a->len[1];

	seg_update(a, 1, 0, a->leaves, e->lo, e->hi, dlt);
	return a->len[1] - before;
}

/*
 * Applies the events list[*p, end) (dlt 1: starts, -1: ends); the
 * reason when the bytes overflow, else NULL.  Inlined: it runs a few
 * events a call, once or twice a time.
 */
static inline __attribute__((always_inline)) const char *
held_apply(struct held_sweep *sw, const struct held_event *list, uint32_t *p,
	   uint32_t end, int dlt)
{
	uint32_t i;

	for (i = *p; i < end; i++) {
		const struct held_event *e = &list[i];
		int64_t change = e->tree != HD_NONE ? tree_change(sw, e, dlt) :
				 dlt > 0 ? e->bytes : -e->bytes;
		uint32_t c = e->color;

		if (__builtin_add_overflow(sw->total, change, &sw->total) ||
		    __builtin_add_overflow(sw->run[c], change, &sw->run[c]))
			return "bytes held that add up beyond int64";
	}
	*p = i;
	return NULL;
}

/* The totals at t: the peaks so far, and fn's call. */
static void held_settle(struct held_sweep *sw, int64_t t, hd_held_fn fn,
			void *ctx)
{
	struct hd_held *h = sw->h;
	uint32_t c;

	if (sw->total > sw->best) {
		sw->best = sw->total;
		h->time = t;
	}
	/* a dump has a few colours: each is looked at each time */
	for (c = 0; c < h->n_colors; c++)
		if (sw->run[c] > h->color_bytes[c]) {
			h->color_bytes[c] = sw->run[c];
			h->color_time[c] = t;
		}
	if (fn) {
		struct hd_held_state st;

		st.colors = h->colors;
		st.n_colors = h->n_colors;
		st.held = sw->run;
		st.total = sw->total;
		fn(ctx, t, &st);
	}
}

/*
 * The sweep over the times 0..T: at t the ends before t, the starts of
 * t, then the totals.  The reason when there is no figure.
 */
static const char *held_run(struct held_sweep *sw, size_t T, hd_held_fn fn,
			    void *ctx)
{
	uint32_t ps = 0, pe = 0;
	const char *why = NULL;
	int64_t t;

	sw->run = hd_xcalloc(sw->h->n_colors, sizeof(*sw->run));
	sw->best = -1;
	for (t = 0; t <= (int64_t)T; t++) {
		why = held_apply(sw, sw->by_end, &pe, t ? sw->at_end[t - 1] : 0, -1);
		if (!why)
			why = held_apply(sw, sw->by_start, &ps, sw->at_start[t], 1);
		if (why)
			break;
		held_settle(sw, t, fn, ctx);
	}
	sw->h->bytes = sw->best;
	return why;
}

static void held_sweep_free(struct held_sweep *sw)
{
	held_set_free(&sw->set);
	free(sw->trees);
	free(sw->tree_of);
	free(sw->shared);
	hd_vec_release(&sw->scratch);
	free(sw->xs_pool);
	free(sw->cnt_pool);
	free(sw->len_pool);
	free(sw->run);
}

/* The sweep (hd_held_sweep); its items, sorted, into *keep when keep
 * is not NULL and there is a figure. */
static const char *held_sweep_keep(const struct hd_dump *d, struct hd_held *h,
				   hd_held_fn fn, void *ctx,
				   struct held_set *keep)
{
	struct held_sweep sw = { .d = d, .h = h, .scratch.elem = 1 };
	struct held_filter all = { 1, 0, -1 };
	const char *why;

	memset(h, 0, sizeof(*h));
	h->time = -1;
	why = held_usable(d);
	if (why)
		return why;
	h->t_max = d->live_max;
	h->colors = alloc_colors(d, &h->n_colors);
	h->color_bytes = hd_xcalloc(h->n_colors, sizeof(*h->color_bytes));
	/* a colour nothing was held in keeps 0 at time 0 */
	h->color_time = hd_xcalloc(h->n_colors, sizeof(*h->color_time));
	/* sized for the most it holds, the events (a range has at most
	 * one), so the passes before them use the same pages */
	scratch_get(&sw.scratch, held_events_bytes(d->live_ranges.len,
						   (size_t)d->live_max));
	held_items(d, &all, &sw.set, &h->unplaced, &sw.scratch);
	if (sw.set.n == 0) {
		why = "no live range of a value in an allocation";
	} else {
		held_trees(&sw, held_mark(&sw));
		held_events(&sw, (size_t)d->live_max);
		why = held_run(&sw, (size_t)d->live_max, fn, ctx);
	}
	if (!why && keep) {
		*keep = sw.set;
		memset(&sw.set, 0, sizeof(sw.set));
	}
	held_sweep_free(&sw);
	if (why) {
		hd_held_release(h);
		h->time = -1;
		return why;
	}
	h->has = 1;
	return NULL;
}

const char *hd_held_sweep(const struct hd_dump *d, struct hd_held *h,
			  hd_held_fn fn, void *ctx)
{
	return held_sweep_keep(d, h, fn, ctx, NULL);
}

void hd_held_release(struct hd_held *h)
{
	free(h->colors);
	free(h->color_bytes);
	free(h->color_time);
	h->colors = NULL;
	h->color_bytes = NULL;
	h->color_time = NULL;
	h->n_colors = 0;
	h->has = 0;
}

/*
 * Do the values of items a and b (one allocation, one offset) hold
 * their bytes in this order in hd_held_values_at: the larger first, then
 * the one live first, then by name and index (not by value index, which
 * depends on how the model was made; it only breaks a last tie)?
 */
static int piece_before(const struct hd_dump *d, const struct held_item *a,
			const struct held_item *b)
{
	int c;

	if (a->stop != b->stop)
		return a->stop > b->stop;
	if (a->start != b->start)
		return a->start < b->start;
	c = hd_slice_cmp(hd_value_key_of(&HD_VALUE(d, a->value)),
			 hd_value_key_of(&HD_VALUE(d, b->value)));
	if (c)
		return c < 0;
	return a->value < b->value;
}

/* Orders it[0, n), the items of one allocation at one offset, as
 * piece_before says (by insertion: such runs are short). */
static void order_run(const struct hd_dump *d, struct held_item *it, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct held_item x = it[i];

		for (j = i; j > 0 && piece_before(d, &x, &it[j - 1]); j--)
			it[j] = it[j - 1];
		it[j] = x;
	}
}

/*
 * The bytes each of it[0, n) holds (items live at one time, in the
 * sweep's order: by allocation, then offset), each run of one offset
 * first ordered as the bytes go to its values: added to bytes_at, bits
 * set, and pushed to pieces (struct hd_held_piece), those not NULL.
 * Returns their sum.
 */
static int64_t held_assign(const struct hd_dump *d, struct held_item *it,
			   size_t n, int64_t *bytes_at, uint64_t *bits,
			   struct hd_vec *pieces)
{
	int64_t sum = 0, end = 0;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && it[j].alloc == it[i].alloc &&
		     it[j].offset == it[i].offset; j++)
			;
		if (j - i > 1)
			order_run(d, it + i, j - i);
		if (i == 0 || it[i].alloc != it[i - 1].alloc)
			end = it[i].offset;
		for (; i < j; i++) {
			const struct held_item *p = &it[i];
			int64_t from = p->offset > end ? p->offset : end;
			int64_t got = p->stop > from ? p->stop - from : 0;

			if (p->stop > end)
				end = p->stop;
			sum = hd_sat_add(sum, got);
			if (bytes_at)
				bytes_at[p->value] = hd_sat_add(bytes_at[p->value], got);
			if (bits)
				bits[p->value / 64] |= (uint64_t)1 << (p->value % 64);
			if (pieces)
				*(struct hd_held_piece *)hd_vec_push(pieces) =
					(struct hd_held_piece){ p->value, got };
		}
	}
	return sum;
}

int64_t hd_held_values_at(const struct hd_dump *d, int64_t t, int64_t color,
			  int64_t *bytes_at, uint64_t *bits)
{
	struct held_filter f = { 0, t, color };
	struct hd_vec sc = HD_VEC_INIT(char);
	struct held_set set;
	uint32_t unplaced = 0;
	int64_t sum;

	held_items(d, &f, &set, &unplaced, &sc);
	hd_vec_release(&sc);
	sum = held_assign(d, set.it, set.n, bytes_at, bits, NULL);
	held_set_free(&set);
	return sum;
}

/* The values held at the peak time, from the sweep's sorted items (a
 * subset of a stable sort is in its own stable order), into f. */
static void held_peak_pieces(struct hd_figures *f, const struct hd_dump *d,
			     struct held_set *set)
{
	size_t i, m = 0;

	for (i = 0; i < set->n; i++)
		if (set->it[i].start <= f->peak_time && f->peak_time <= set->it[i].end)
			set->it[m++] = set->it[i];
	hd_vec_reserve(&f->peak_pieces, m);
	held_assign(d, set->it, m, NULL, NULL, &f->peak_pieces);
}

void hd_figures_held_at_peak(const struct hd_figures *f, int64_t *bytes_at,
			     uint64_t *bits)
{
	size_t i;

	if (!f->has_peak)
		return;
	for (i = 0; i < f->peak_pieces.len; i++) {
		const struct hd_held_piece *p =
			&HD_VEC_AT(&f->peak_pieces, struct hd_held_piece, i);

		if (bytes_at)
			bytes_at[p->value] = hd_sat_add(bytes_at[p->value], p->bytes);
		if (bits)
			bits[p->value / 64] |= (uint64_t)1 << (p->value % 64);
	}
}

/* The held peak into f (figures.h), and the values held then. */
static void held_peak(struct hd_figures *f, const struct hd_dump *d)
{
	struct hd_held h;
	struct held_set set;
	uint32_t i;

	memset(&set, 0, sizeof(set));
	f->peak_why = held_sweep_keep(d, &h, NULL, NULL, &set);
	f->peak_unplaced = h.unplaced;
	if (f->peak_why)
		return;
	f->has_peak = 1;
	f->peak_bytes = h.bytes;
	f->peak_time = h.time;
	hd_vec_reserve(&f->peak_by_color, h.n_colors);
	for (i = 0; i < h.n_colors; i++) {
		struct hd_peak_space *sp = hd_vec_push(&f->peak_by_color);

		sp->color = h.colors[i];
		sp->bytes = h.color_bytes[i];
		sp->time = h.color_time[i];
	}
	hd_held_release(&h);
	held_peak_pieces(f, d, &set);
	held_set_free(&set);
}

static enum hd_copy_class classify(int cross, int64_t src, int64_t dst)
{
	if (cross)
		return HD_COPY_CROSS_PROGRAM_PREFETCH;
	if (dst == 1 && src == 0)
		return HD_COPY_PREFETCH;
	if (dst == 0 && src == 1)
		return HD_COPY_EVICTION;
	if (dst == 5)
		return HD_COPY_HOST_OFFLOAD;
	if (src == 5)
		return HD_COPY_HOST_RELOAD;
	return HD_COPY_OTHER;
}

/* Room for the key "name{0}" of most copies (copies_batch). */
#define DEST_KEY_MAX 256

/* The key "name{0}" in buf (DEST_KEY_MAX bytes), or in memory of its
 * own for a longer name (the caller frees key.p when it is not buf). */
static struct hd_slice dest_key(char *buf, struct hd_slice name)
{
	char *key = buf;

	if (name.n + 3 > DEST_KEY_MAX)
		key = hd_xmalloc(name.n + 3);
	memcpy(key, name.p, name.n);
	memcpy(key + name.n, "{0}", 3);
	return hd_slice_make(key, name.n + 3);
}

/* A copy whose bytes would take its class total beyond int64 (a
 * hostile shape) counts as one of unknown size. */
static void add_copy(struct hd_figures *f, const struct hd_copy *c)
{
	struct hd_copy *slot = hd_vec_push(&f->copies);
	int64_t sum;

	*slot = *c;
	f->copies_by_class[c->cls]++;
	if (c->bytes > 0) {
		if (__builtin_add_overflow(f->copy_bytes_by_class[c->cls],
					   c->bytes, &sum))
			slot->bytes = -1;
		else
			f->copy_bytes_by_class[c->cls] = sum;
	}
}

/*
 * What copy_from_insn reads from a copy-start's tuple shape: its
 * element 0 (DEST, as an offset into the text) and the memory spaces
 * of elements 0 and 1.  Walking the shape text is the figures' main
 * cost on a dump with many copies, and the copies of a program mostly
 * share a few shapes: a memo of the last shape read for each length
 * (mod SHAPE_MEMO) answers the others after a compare of the text, with
 * the same result (it depends on nothing but the text).
 */
#define SHAPE_MEMO 16

struct copy_shape {
	const char *text;       /* the shape read (NULL: empty slot) */
	size_t n;
	size_t dst_at, dst_n;   /* element 0 in the text (dst_n 0: none) */
	int64_t dst_space, src_space;
};

/* Reads the facts of shape into *cs. */
static void read_copy_shape(struct copy_shape *cs, struct hd_slice shape)
{
	struct hd_slice dst = HD_SLICE_NULL, src = HD_SLICE_NULL;

	cs->text = shape.p;
	cs->n = shape.n;
	cs->dst_at = cs->dst_n = 0;
	cs->dst_space = cs->src_space = -1;
	if (hd_shape_tuple_element(shape, 0, &dst) == 0) {
		cs->dst_at = (size_t)(dst.p - shape.p);
		cs->dst_n = dst.n;
		cs->dst_space = hd_shape_memory_space(dst);
	}
	if (hd_shape_tuple_element(shape, 1, &src) == 0)
		cs->src_space = hd_shape_memory_space(src);
}

/* The facts of shape, from memo (SHAPE_MEMO entries) where it has the
 * same text. */
static const struct copy_shape *copy_shape_of(struct copy_shape *memo,
					      struct hd_slice shape)
{
	struct copy_shape *cs = &memo[shape.n % SHAPE_MEMO];

	if (cs->text && cs->n == shape.n &&
	    (cs->text == shape.p || hd_bytes_eq(cs->text, shape.p, shape.n)))
		return cs;
	read_copy_shape(cs, shape);
	return cs;
}

/*
 * One copy-start instruction, its {0} value dest (HD_NONE: none):
 * spaces from its tuple shape (DEST, SRC, context), bytes from dest's
 * size= else element 0's logical size.  memo: the shapes read so far.
 */
static void copy_from_insn(struct hd_figures *f, const struct hd_dump *d,
			   uint32_t i, uint32_t dest, struct copy_shape *memo)
{
	const struct hd_insn *in = &HD_INSN(d, i);
	struct hd_copy c;
	const struct copy_shape *cs = copy_shape_of(memo, in->shape);

	memset(&c, 0, sizeof(c));
	c.insn = i;
	c.name = in->name;
	c.dst_space = cs->dst_space;
	c.src_space = cs->src_space;
	c.cls = classify((in->flags & HD_INSN_CROSS_PROGRAM_PREFETCH) != 0,
			 c.src_space, c.dst_space);
	c.value = dest;
	c.bytes = c.value != HD_NONE ? hd_value_size(d, c.value) : -1;
	if (c.bytes < 0 && cs->dst_n)
		c.bytes = hd_shape_logical_bytes(
			hd_slice_make(in->shape.p + cs->dst_at, cs->dst_n));
	add_copy(f, &c);
}

/*
 * copy_from_insn of the instructions in[0, n), after fetching what it
 * reads in stages, each once the one before is in cache: the
 * instruction records, then their names and shapes, then the index
 * slots of the destination keys, then the values found there, then
 * their names (the lookup compares them) and value lines.  The copies
 * are scattered over the dump, and one at a time each waited for six
 * or seven cache misses in a row; a batch waits for each stage once.
 */
#define COPY_BATCH 32

static void copies_batch(struct hd_figures *f, const struct hd_dump *d,
			 const uint32_t *in, size_t n, struct copy_shape *memo)
{
	const struct hd_index *ix = &d->value_by_key;
	uint32_t hash[COPY_BATCH], first[COPY_BATCH];
	char buf[COPY_BATCH][DEST_KEY_MAX];
	struct hd_slice key[COPY_BATCH];
	size_t k;

	for (k = 0; k < n; k++) {
		__builtin_prefetch(&HD_INSN(d, in[k]).name);
		__builtin_prefetch(&HD_INSN(d, in[k]).flags);
	}
	for (k = 0; k < n; k++) {
		const struct hd_insn *x = &HD_INSN(d, in[k]);

		__builtin_prefetch(x->name.p);
		__builtin_prefetch(x->shape.p);
		if (x->shape.n)
			__builtin_prefetch(x->shape.p + x->shape.n - 1);
	}
	for (k = 0; k < n; k++) {
		key[k] = dest_key(buf[k], HD_INSN(d, in[k]).name);
		hash[k] = hd_index_hash(key[k]);
		hd_index_prefetch(ix, hash[k]);
	}
	for (k = 0; k < n; k++)
		if ((first[k] = hd_index_first(ix, hash[k])) != HD_NONE) {
			__builtin_prefetch(&HD_VALUE(d, first[k]).name);
			__builtin_prefetch(&HD_VALUE(d, first[k]).alloc_value);
		}
	for (k = 0; k < n; k++)
		if (first[k] != HD_NONE) {
			const struct hd_value *v = &HD_VALUE(d, first[k]);

			__builtin_prefetch(v->name.p);
			if (v->alloc_value != HD_NONE)
				__builtin_prefetch(&HD_ALLOC_VALUE(d, v->alloc_value).size);
		}
	for (k = 0; k < n; k++) {
		copy_from_insn(f, d, in[k],
			       hd_dump_value_by_hash(d, hash[k], key[k]), memo);
		if (key[k].p != buf[k])
			free((void *)key[k].p);
	}
}

/* "copy-start" or "copy-start.<suffix>" */
static int is_copy_start_name(struct hd_slice name)
{
	return hd_slice_eq_cstr(name, "copy-start") ||
		hd_slice_starts(name, "copy-start.");
}

/*
 * Without " from instruction:" lines (no Used values section) the
 * copies are known only from their {0} values: destination colour and
 * size, no source (never guessed), class other.
 */
static void copies_from_values(struct hd_figures *f, const struct hd_dump *d)
{
	size_t i;

	for (i = 0; i < d->values.len; i++) {
		const struct hd_value *val = &HD_VALUE(d, i);
		struct hd_copy c;

		if (!is_copy_start_name(val->name) ||
		    !hd_slice_eq_cstr(hd_value_index(val), "{0}"))
			continue;
		memset(&c, 0, sizeof(c));
		c.insn = HD_NONE;
		c.value = (uint32_t)i;
		c.name = val->name;
		c.cls = HD_COPY_OTHER;
		c.src_space = -1;
		c.dst_space = val->flags & HD_VALUE_HAS_COLOR ?
			      HD_VALUE_COLOR(d, i) : -1;
		c.bytes = hd_value_size(d, (uint32_t)i);
		if (c.bytes < 0)
			c.bytes = hd_value_logical_bytes(d, (uint32_t)i);
		add_copy(f, &c);
	}
}

static void find_copies(struct hd_figures *f, const struct hd_dump *d)
{
	struct copy_shape memo[SHAPE_MEMO];
	const uint32_t *in = d->copy_starts.data;
	size_t i;

	if (d->insns.len == 0) {
		copies_from_values(f, d);
		return;
	}
	memset(memo, 0, sizeof(memo));
	/* room for all at once: grown a copy at a time, the array would
	 * be copied at each doubling */
	hd_vec_reserve(&f->copies, d->copy_starts.len);
	for (i = 0; i < d->copy_starts.len; i += COPY_BATCH)
		copies_batch(f, d, in + i, d->copy_starts.len - i < COPY_BATCH ?
			     d->copy_starts.len - i : COPY_BATCH, memo);
}

/*
 * An incomplete dump (read with --allow-incomplete) must not show partial
 * figures as whole: the ones computed from a section that broke off are
 * marked absent.
 */
static void leave_out_partial(struct hd_figures *f, const struct hd_dump *d)
{
	uint32_t cut = d->incomplete;

	if (!cut)
		return;
	if (cut & HD_SEC_ALLOCATIONS) {
		f->allocs_partial = 1;
		f->has_total = 0;
		f->total_mismatch = 0;
	}
	if (cut & (HD_SEC_ALLOCATIONS | HD_SEC_USED_VALUES))
		f->copies_partial = 1;
	if (cut & (HD_SEC_ALLOCATIONS | HD_SEC_LIVE_RANGE | HD_SEC_SEQUENCE |
		   HD_SEC_BUFFER_LIVE | HD_SEC_PEAK)) {
		f->has_recomputed = 0;
		f->stated_agrees = 0;
		if (f->has_peak)
			f->peak_why = "an incomplete dump (its allocations or live ranges broke off)";
		f->has_peak = 0;
		f->peak_by_color.len = 0;
	}
	if (cut & (HD_SEC_ALLOCATIONS | HD_SEC_PEAK))
		f->has_stated = 0;
}

uint32_t hd_alias_param_value(const struct hd_dump *d, uint32_t alloc)
{
	const struct hd_alloc *a = &HD_ALLOC(d, alloc);
	uint32_t i;

	for (i = 0; i < a->value_count; i++) {
		uint32_t v = HD_ALLOC_VALUE(d, a->value_first + i).value;
		uint32_t in = HD_VALUE(d, v).insn;

		if (in != HD_NONE && hd_slice_eq_cstr(HD_INSN(d, in).opcode, "parameter"))
			return v;
	}
	return HD_NONE;
}

/* An aliased allocation's sort key (qsort has no context argument). */
struct alias_key {
	int64_t number, index_no;
	struct hd_slice index;
	uint32_t alloc;
};

static int cmp_alias(const void *a, const void *b)
{
	const struct alias_key *x = a, *y = b;
	int c;

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	c = hd_slice_cmp(x->index, y->index);
	if (c)
		return c;
	return x->index_no < y->index_no ? -1 : x->index_no > y->index_no;
}

uint32_t *hd_aliases_sorted(const struct hd_dump *d, size_t *n)
{
	struct alias_key *k = hd_xmalloc((d->allocs.len + 1) * sizeof(*k));
	uint32_t *a;
	size_t i, m = 0;

	for (i = 0; i < d->allocs.len; i++) {
		const struct hd_alloc *al = &HD_ALLOC(d, i);

		if (!hd_alloc_is_aliased(al))
			continue;
		k[m].number = al->param_number;
		k[m].index_no = al->index;
		k[m].index = al->param_index;
		k[m].alloc = (uint32_t)i;
		m++;
	}
	qsort(k, m, sizeof(*k), cmp_alias);
	a = hd_xmalloc((m + 1) * sizeof(*a));
	for (i = 0; i < m; i++)
		a[i] = k[i].alloc;
	free(k);
	*n = m;
	return a;
}

void hd_alias_names(const struct hd_dump *d, uint32_t alloc,
		    struct hd_slice *name, struct hd_slice *op_name)
{
	uint32_t v = hd_alias_param_value(d, alloc);

	*name = v == HD_NONE ? HD_SLICE_NULL : HD_VALUE(d, v).name;
	*op_name = v == HD_NONE ? HD_SLICE_NULL :
		hd_insn_source_of(d, HD_VALUE(d, v).insn).op_name;
}

int hd_figures_compute(struct hd_figures *f, const struct hd_dump *d)
{
	return hd_figures_compute_kept(f, d, NULL);
}

int hd_figures_compute_kept(struct hd_figures *f, const struct hd_dump *d,
			    const uint64_t *kept)
{
	memset(f, 0, sizeof(*f));
	f->by_color.elem = sizeof(struct hd_color_bytes);
	f->copies.elem = sizeof(struct hd_copy);
	f->peak_by_color.elem = sizeof(struct hd_peak_space);
	f->peak_pieces.elem = sizeof(struct hd_held_piece);
	f->peak_time = -1;
	f->stated_time = -1;
	f->recomputed_time = -1;

	f->has_total = (d->sections & HD_SEC_TOTAL) != 0;
	f->total_bytes = f->has_total ? d->total_bytes : 0;
	sum_allocs(f, d);
	f->total_mismatch = f->has_total && f->total_bytes != f->alloc_bytes;
	count_things(f, d);
	stated_peak(f, d);
	recomputed_peak(f, d, kept);
	held_peak(f, d);
	find_copies(f, d);
	leave_out_partial(f, d);
	return 0;
}

void hd_figures_release(struct hd_figures *f)
{
	hd_vec_release(&f->by_color);
	hd_vec_release(&f->copies);
	hd_vec_release(&f->peak_by_color);
	hd_vec_release(&f->peak_pieces);
}

const struct hd_peak_space *hd_figures_peak_space(const struct hd_figures *f,
						  int64_t color)
{
	size_t i;

	for (i = 0; i < f->peak_by_color.len; i++)
		if (HD_VEC_AT(&f->peak_by_color, struct hd_peak_space, i).color == color)
			return &HD_VEC_AT(&f->peak_by_color, struct hd_peak_space, i);
	return NULL;
}

const char *hd_copy_class_name(enum hd_copy_class c)
{
	static const char *const names[HD_COPY_CLASS_COUNT] = {
		"prefetch", "eviction", "cross-program-prefetch",
		"host-offload", "host-reload", "other",
	};

	return (unsigned)c < HD_COPY_CLASS_COUNT ? names[c] : "?";
}

/* Binary search: by_color is sorted by colour. */
int64_t hd_figures_color_bytes(const struct hd_figures *f, int64_t color)
{
	size_t lo = 0, hi = f->by_color.len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hd_color_bytes *c =
			&HD_VEC_AT(&f->by_color, struct hd_color_bytes, mid);

		if (c->color == color)
			return c->bytes;
		if (c->color < color)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* ---- the stated peak against the held one ------------------------------ */

int hd_peak_stated_differs(const struct hd_figures *f)
{
	int64_t d, base;

	if (!f->has_peak || !f->has_stated)
		return 0;
	d = f->stated_bytes - f->peak_bytes;
	if (d < 0)
		d = -d;
	base = f->peak_bytes;
	/* d > base / 100, without the rounding of the division */
	return base <= INT64_MAX / 100 ? d * 100 > base : d > base / 100;
}

const char *hd_peak_gap_name(int reason)
{
	static const char *const names[HD_GAP_REASON_COUNT] = {
		"tuple-table", "workspace", "padding", "shared", "left-out",
		"other-time", "not-held", "size",
	};

	return reason >= 0 && reason < HD_GAP_REASON_COUNT ? names[reason] : "?";
}

const char *hd_peak_gap_words(int reason)
{
	static const char *const words[HD_GAP_REASON_COUNT] = {
		"tuple element; the lines count its tuple at the pointer table",
		"custom-call workspace; the lines leave it out",
		"padding; size= is larger than the logical size the lines count",
		"shares its bytes with a value counted already; the lines count them again",
		"live at the stated time; the lines leave it out",
		"the held peak is at another time than the stated one",
		"in the lines; held in no allocation",
		"the lines count another size",
	};

	return reason >= 0 && reason < HD_GAP_REASON_COUNT ? words[reason] : "?";
}

/* Is v an element of a custom-call's tuple that looks like a workspace
 * (u8 or s8 bytes)? */
static int is_workspace(const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	struct hd_slice shape;

	if (!(val->flags & HD_VALUE_INDEXED) || val->index_n == 2 ||
	    val->insn == HD_NONE ||
	    !hd_slice_eq_cstr(HD_INSN(d, val->insn).opcode, "custom-call"))
		return 0;
	shape = hd_value_shape(d, v);
	return hd_slice_starts(shape, "u8[") || hd_slice_starts(shape, "s8[");
}

/* Why value v holds held bytes at the stated time and the lines count
 * stated bytes of it (stated_at: the lines' bytes per value). */
static int gap_reason(const struct hd_dump *d, uint32_t v, int64_t held,
		      int64_t stated, const int64_t *stated_at)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	int64_t size = hd_value_size(d, v), logical;

	if (stated == 0) {
		uint32_t table;

		if (is_workspace(d, v))
			return HD_GAP_WORKSPACE;
		if ((val->flags & HD_VALUE_INDEXED) && val->index_n != 2 &&
		    (table = hd_dump_value_by_key(d, val->name)) != HD_NONE &&
		    stated_at[table] > 0)
			return HD_GAP_TUPLE_TABLE;
		return HD_GAP_LEFT_OUT;
	}
	if (held == 0 && size <= 0)
		return HD_GAP_NOT_HELD;
	if (held < stated && held < size)
		return HD_GAP_SHARED;
	if (held == 0)
		return HD_GAP_OTHER_TIME;    /* not live then by its range */
	logical = hd_value_logical_bytes(d, v);
	if (held > stated && logical >= 0 && size > logical)
		return HD_GAP_PADDING;
	return HD_GAP_SIZE;
}

static uint64_t gap_magnitude(const struct hd_peak_gap *g)
{
	int64_t x = g->held - g->stated;

	return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

static int cmp_gap(const void *pa, const void *pb)
{
	const struct hd_peak_gap *a = pa, *b = pb;
	uint64_t ma = gap_magnitude(a), mb = gap_magnitude(b);
	int c;

	if (ma != mb)
		return ma < mb ? 1 : -1;
	c = hd_slice_cmp(a->name, b->name);
	return c ? c : hd_slice_cmp(a->index, b->index);
}

void hd_peak_explain(const struct hd_dump *d, const struct hd_figures *f,
		     struct hd_vec *out, int64_t by_reason[HD_GAP_REASON_COUNT])
{
	size_t n = d->values.len, i;
	int64_t *held, *stated, at_stated;

	out->elem = sizeof(struct hd_peak_gap);
	if (by_reason)
		memset(by_reason, 0, HD_GAP_REASON_COUNT * sizeof(*by_reason));
	if (!f->has_peak || !f->has_stated)
		return;
	held = hd_xcalloc(2 * n + 1, sizeof(*held));
	stated = held + n;
	/* value by value at the stated time; what the held peak has beyond
	 * the bytes held then is one entry of its own (other-time) */
	at_stated = hd_held_values_at(d, f->stated_time, -1, held, NULL);
	if (at_stated != f->peak_bytes) {
		struct hd_peak_gap *g = hd_vec_push(out);

		g->value = HD_NONE;
		g->name = hd_slice_make("(the held peak's other time)", 28);
		g->held = f->peak_bytes;
		g->stated = at_stated;
		g->reason = HD_GAP_OTHER_TIME;
	}
	for (i = 0; i < d->peak.len; i++) {
		const struct hd_peak_entry *e = &HD_PEAK_ENTRY(d, i);

		if (e->value != HD_NONE) {
			stated[e->value] = hd_sat_add(stated[e->value], e->bytes);
		} else if (e->bytes != 0) {
			struct hd_peak_gap *g = hd_vec_push(out);

			g->value = HD_NONE;
			g->name = e->name;
			g->index = e->index;
			g->stated = e->bytes;
			g->reason = HD_GAP_NOT_HELD;
		}
	}
	for (i = 0; i < n; i++) {
		struct hd_peak_gap *g;

		if (held[i] == stated[i])
			continue;
		g = hd_vec_push(out);
		g->value = (uint32_t)i;
		g->name = HD_VALUE(d, i).name;
		g->index = hd_value_index(&HD_VALUE(d, i));
		g->held = held[i];
		g->stated = stated[i];
		g->reason = gap_reason(d, (uint32_t)i, held[i], stated[i], stated);
	}
	free(held);
	if (by_reason)
		for (i = 0; i < out->len; i++) {
			const struct hd_peak_gap *g = &HD_VEC_AT(out, struct hd_peak_gap, i);

			by_reason[g->reason] = hd_sat_add(by_reason[g->reason],
							  g->stated - g->held);
		}
	if (out->len > 1)
		qsort(out->data, out->len, sizeof(struct hd_peak_gap), cmp_gap);
}
