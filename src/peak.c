/*
 * peak.c - the values at the old and the new peak, matched.
 */
#include "hlodiff/peak.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/format.h"
#include "hlodiff/keysort.h"

const char *hd_peak_role_name(enum hd_peak_role r)
{
	static const char *const names[] = { "both", "entered", "left" };

	return (unsigned)r < 3 ? names[r] : "?";
}

/*
 * Fills bytes_at[v] (size d->values.len, 0 = not held) with the bytes
 * each value holds at the held peak (figures.h: bytes several values
 * share go to one of them, so the entries add up to the peak), marks the
 * values live then in bits (a bit per value), and describes the side.
 */
static void peak_side(struct hd_peak_side *s, int64_t *bytes_at,
		      uint64_t *bits, const struct hd_dump *d,
		      const struct hd_figures *f)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->max = d->live_max;
	if (f->has_peak) {
		s->has = 1;
		s->time = f->peak_time;
		s->bytes = f->peak_bytes;
		hd_figures_held_at_peak(f, bytes_at, bits);
		for (i = 0; i < (d->values.len + 63) / 64; i++)
			s->count += (uint32_t)__builtin_popcountll(bits[i]);
		if (s->time >= 0 && (size_t)s->time < d->sequence.len)
			s->at = HD_SEQ(d, s->time);
	}
}

/* What the order of the entries v reads (keysort.h's context). */
struct peak_sort {
	const struct hd_dump *old, *new_dump;
	const struct hd_peak_value *v;
};

/* The record of the value whose key names entry e: the new one's when
 * there is one. */
static const struct hd_value *key_record(const struct peak_sort *ps,
					 const struct hd_peak_value *e)
{
	if (e->new_v != HD_NONE)
		return &HD_VALUE(ps->new_dump, e->new_v);
	return &HD_VALUE(ps->old, e->old_v);
}

static struct hd_slice peak_key(const struct peak_sort *ps, const struct hd_peak_value *e)
{
	return hd_value_key_of(key_record(ps, e));
}

/* Entries ia and ib by |delta| descending, then role, then name. */
static int cmp_peak(void *ctx, uint32_t ia, uint32_t ib)
{
	const struct peak_sort *ps = ctx;
	const struct hd_peak_value *a = &ps->v[ia], *b = &ps->v[ib];
	int c;
	uint64_t ma = hd_magnitude(a->delta), mb = hd_magnitude(b->delta);

	if (ma != mb)
		return ma < mb ? 1 : -1;
	if (a->role != b->role)
		return (int)a->role - (int)b->role;
	c = hd_slice_cmp(peak_key(ps, a), peak_key(ps, b));
	if (c)
		return c;
	if (a->old_v != b->old_v)
		return a->old_v < b->old_v ? -1 : 1;
	return (a->new_v > b->new_v) - (a->new_v < b->new_v);
}

/*
 * The entries' keys are read in the records of the values, scattered
 * over the dump, and then in their text: sort_peak prefetches the record
 * of the entry KEY_AHEAD places ahead, and its text half as far ahead,
 * once the record is in.
 */
#define KEY_AHEAD 16

/* Sorts p->values by cmp_peak, stably (keysort.h). */
static void sort_peak(struct hd_peak_diff *p, const struct hd_dump *old,
		      const struct hd_dump *new_dump)
{
	struct peak_sort ps = { old, new_dump, p->values.data };
	size_t n = p->values.len, i;
	struct hd_key_item *items;

	if (n < 2)
		return;
	items = hd_xmalloc(n * sizeof(*items));
	for (i = 0; i < n; i++) {
		const struct hd_peak_value *e = &ps.v[i];

		if (i + KEY_AHEAD < n)
			__builtin_prefetch(&key_record(&ps, &ps.v[i + KEY_AHEAD])->name);
		if (i + KEY_AHEAD / 2 < n)
			__builtin_prefetch(key_record(&ps, &ps.v[i + KEY_AHEAD / 2])->name.p);
		hd_key_item_set(&items[i], ~hd_magnitude(e->delta), e->role,
				peak_key(&ps, e), (uint32_t)i);
	}
	hd_key_sort(items, n, cmp_peak, &ps);
	hd_key_apply(p->values.data, sizeof(struct hd_peak_value), items, n);
	free(items);
}

/* The key of the entry of item it (hd_key_select_keyed). */
static void set_peak_key(void *ctx, struct hd_key_item *it)
{
	const struct peak_sort *ps = ctx;

	hd_key_item_set(it, it->w0, it->w1, peak_key(ps, &ps->v[it->idx]),
			it->idx);
}

/*
 * The first top entries of sort_peak's order to the front of p->values,
 * in that order, the others after them in the order they had (see
 * hd_peak_diff_compute_top).  The order is by the numbers (|delta|,
 * role) first: only the entries whose numbers are as good as the k-th
 * best have their keys read (hd_key_select_keyed; the records and texts
 * of the others are scattered over the dumps).
 * Where a sum of the deltas could saturate, the reports' sum of the
 * others would depend on their order: then all are sorted.
 */
static void top_peak(struct hd_peak_diff *p, const struct hd_dump *old,
		     const struct hd_dump *new_dump, uint32_t top)
{
	struct peak_sort ps = { old, new_dump, p->values.data };
	const struct hd_peak_value *v = p->values.data;
	size_t n = p->values.len, k = top < n ? top : n, i, j, m = 0;
	struct hd_key_item *items;

	if (k == n) {
		sort_peak(p, old, new_dump);
		return;
	}
	/* An entry whose delta is 0 comes after every other (|delta|
	 * first): where k others have one, the first k are among those
	 * alone, and only they are given items.  At a peak most values are
	 * live on both sides at the same size. */
	for (i = 0; i < n; i++)
		m += v[i].delta != 0;
	if (m < k)
		m = n;
	items = hd_xmalloc((m ? m : 1) * sizeof(*items));
	for (i = 0, j = 0; i < n; i++)
		if (m == n || v[i].delta != 0)
			hd_key_item_set(&items[j++], ~hd_magnitude(v[i].delta),
					v[i].role, HD_SLICE_NULL, (uint32_t)i);
	/* the entries left out add 0 to any sum */
	if (hd_key_magnitudes_overflow(items, m)) {
		free(items);
		sort_peak(p, old, new_dump);
		return;
	}
	hd_key_select_keyed(items, m, k, set_peak_key, cmp_peak, &ps);
	hd_key_apply_front(p->values.data, sizeof(struct hd_peak_value), n,
			   items, k);
	free(items);
}

static void add_entry(struct hd_peak_diff *p, uint32_t ov, uint32_t nv,
		      int64_t ob, int64_t nb)
{
	struct hd_peak_value *e = hd_vec_push(&p->values);

	e->old_v = ov;
	e->new_v = nv;
	e->old_bytes = ob;
	e->new_bytes = nb;
	e->delta = hd_delta(ob, nb);
	if (ob > 0 && nb > 0) {
		e->role = HD_PEAK_BOTH;
		p->n_both++;
	} else if (nb > 0) {
		e->role = HD_PEAK_ENTERED;
		p->n_entered++;
	} else {
		e->role = HD_PEAK_LEFT;
		p->n_left++;
	}
}

/* How far ahead compute fetches the new bytes of an old value's
 * partner (scattered over an array by new value). */
#define NB_AHEAD 32

/* The set bits of bits[0, n_words), ascending (bits_next). */
struct bit_cursor {
	const uint64_t *bits;
	size_t w, n_words;
	uint64_t x;             /* the bits of word w not taken yet */
};

static void bits_start(struct bit_cursor *b, const uint64_t *bits, size_t n)
{
	b->bits = bits;
	b->w = 0;
	b->n_words = (n + 63) / 64;
	b->x = b->n_words ? bits[0] : 0;
}

/* The next set bit's place, or HD_NONE after the last. */
static uint32_t bits_next(struct bit_cursor *b)
{
	uint32_t v;

	while (!b->x) {
		if (++b->w >= b->n_words)
			return HD_NONE;
		b->x = b->bits[b->w];
	}
	v = (uint32_t)(b->w * 64 + (unsigned)__builtin_ctzll(b->x));
	b->x &= b->x - 1;
	return v;
}

/*
 * The old values that may have an entry (live at either peak): those
 * peak_side marked on the old side, and the partners of those it marked
 * on the new side, in obits (a bit per old value; nbits the new side's
 * marks, n_new bits).
 */
static void old_candidates(uint64_t *obits, const uint64_t *nbits,
			   size_t n_new, const struct hd_match *m)
{
	struct bit_cursor b;
	uint32_t v, o;

	bits_start(&b, nbits, n_new);
	while ((v = bits_next(&b)) != HD_NONE)
		if ((o = m->new_to_old[v]) != HD_NONE)
			obits[o / 64] |= (uint64_t)1 << (o % 64);
}

/* hd_peak_diff_compute, partial when partial (hd_peak_diff_compute_top). */
static void compute(struct hd_peak_diff *p, const struct hd_dump *old,
		    const struct hd_figures *fold,
		    const struct hd_dump *new_dump,
		    const struct hd_figures *fnew, const struct hd_match *m,
		    int partial, uint32_t top)
{
	/* ob and nb in one block, on 2 MiB pages where the kernel can
	 * (arena.h): one page fault where 4 KiB pages take 512 */
	struct hd_vec mem = HD_VEC_INIT(int64_t);
	size_t no = old->values.len, nn = new_dump->values.len;
	size_t n = no + 1 + nn + 1, wo = (no + 63) / 64, wn = (nn + 63) / 64;
	int64_t *ob = hd_vec_block_zeroed(&mem, sizeof(*ob), n);
	int64_t *nb = ob + no + 1;
	/* a bit per value of each side for the values live at its peak,
	 * and on the old side their partners': the values not live at
	 * either peak (most) are not looked at */
	uint64_t *obits = hd_xcalloc(wo + wn + 1, sizeof(uint64_t));
	uint64_t *nbits = obits + wo;
	struct bit_cursor cur, ahead;
	uint32_t i, a;
	int k;

	memset(p, 0, sizeof(*p));
	p->values.elem = sizeof(struct hd_peak_value);
	peak_side(&p->old_side, ob, obits, old, fold);
	peak_side(&p->new_side, nb, nbits, new_dump, fnew);
	/* an entry per value live at either peak at most: room for them
	 * at once, not grown by copies */
	hd_vec_reserve(&p->values, (size_t)p->old_side.count +
			p->new_side.count);
	old_candidates(obits, nbits, nn, m);
	/* ahead runs NB_AHEAD candidates before cur, fetching */
	bits_start(&cur, obits, no);
	bits_start(&ahead, obits, no);
	for (k = 0; k < NB_AHEAD; k++)
		bits_next(&ahead);
	while ((i = bits_next(&cur)) != HD_NONE) {
		uint32_t nv = m->old_to_new[i];
		int64_t nbytes;

		if ((a = bits_next(&ahead)) != HD_NONE &&
		    m->old_to_new[a] != HD_NONE)
			__builtin_prefetch(&nb[m->old_to_new[a]]);
		nbytes = nv != HD_NONE ? nb[nv] : 0;
		if (ob[i] > 0 || nbytes > 0)
			add_entry(p, i, nv, ob[i], nbytes);
	}
	bits_start(&cur, nbits, nn);
	while ((i = bits_next(&cur)) != HD_NONE)
		if (nb[i] > 0 && m->new_to_old[i] == HD_NONE)
			add_entry(p, HD_NONE, i, 0, nb[i]);
	free(obits);
	if (partial) {
		p->partial = 1;
		top_peak(p, old, new_dump, top);
	} else {
		sort_peak(p, old, new_dump);
	}
	hd_vec_release(&mem);
}

void hd_peak_diff_compute(struct hd_peak_diff *p, const struct hd_dump *old,
			  const struct hd_figures *fold,
			  const struct hd_dump *new_dump,
			  const struct hd_figures *fnew,
			  const struct hd_match *m)
{
	compute(p, old, fold, new_dump, fnew, m, 0, 0);
}

void hd_peak_diff_compute_top(struct hd_peak_diff *p,
			      const struct hd_dump *old,
			      const struct hd_figures *fold,
			      const struct hd_dump *new_dump,
			      const struct hd_figures *fnew,
			      const struct hd_match *m, uint32_t top)
{
	compute(p, old, fold, new_dump, fnew, m, 1, top);
}

/* The order is a total one (entries differ in old_v or new_v), so the
 * sort of the partial list is the sort of the whole one. */
void hd_peak_diff_complete(struct hd_peak_diff *p, const struct hd_dump *old,
			   const struct hd_dump *new_dump)
{
	if (!p->partial)
		return;
	sort_peak(p, old, new_dump);
	p->partial = 0;
}

void hd_peak_diff_release(struct hd_peak_diff *p)
{
	hd_vec_release(&p->values);
}
