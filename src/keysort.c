/*
 * keysort.c - stable sort by numbers and a string prefix (keysort.h).
 */
#include "hlodiff/keysort.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/parallel.h"

/* The 8 bytes at p as a big-endian number (one load, not 8). */
static uint64_t be_load(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	w = __builtin_bswap64(w);
#elif !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
#error "byte order unknown"
#endif
	return w;
}

/* The first n * 8 bytes of s (zero-padded) as n big-endian numbers. */
static void prefix_words(struct hd_slice s, uint64_t *w, unsigned n)
{
	unsigned char pad[32] = { 0 };
	const unsigned char *b = (const unsigned char *)s.p;
	unsigned k;

	/* Keys are mostly shorter than the prefix: copy them to a zeroed
	 * buffer (reading past a slice's end could leave its mapping). */
	if (s.n < (size_t)n * 8) {
		if (s.n)
			memcpy(pad, s.p, s.n);
		b = pad;
	}
	for (k = 0; k < n; k++)
		w[k] = be_load(b + 8 * k);
}

void hd_key_item_set(struct hd_key_item *it, uint64_t w0, uint32_t w1,
		     struct hd_slice s, uint32_t idx)
{
	it->w0 = w0;
	it->w1 = w1;
	prefix_words(s, it->p, 3);
	it->idx = idx;
}

struct ksort {
	int (*full)(void *ctx, uint32_t a, uint32_t b);
	void *ctx;
};

/*
 * Is a before b?  Zero-padded big-endian prefixes order as the strings
 * do whenever they differ (a shorter string pads with 0, below any byte
 * that makes the other greater); equal prefixes say nothing.
 */
static inline int before(const struct ksort *k, const struct hd_key_item *a,
			 const struct hd_key_item *b)
{
	int c;

	if (a->w0 != b->w0)
		return a->w0 < b->w0;
	if (a->w1 != b->w1)
		return a->w1 < b->w1;
	if (a->p[0] != b->p[0])
		return a->p[0] < b->p[0];
	if (a->p[1] != b->p[1])
		return a->p[1] < b->p[1];
	if (a->p[2] != b->p[2])
		return a->p[2] < b->p[2];
	c = k->full(k->ctx, a->idx, b->idx);
	if (c)
		return c < 0;
	return a->idx < b->idx;
}

/*
 * Merges the sorted runs l[0, nl) and r[0, nr) into dst, ties from l
 * (stable).  r may be the end of dst itself (merge below): the writes
 * stay behind the reads of r, and what is left of r is then in place.
 */
static void merge_runs(const struct ksort *k, const struct hd_key_item *l,
		       size_t nl, const struct hd_key_item *r, size_t nr,
		       struct hd_key_item *dst)
{
	const struct hd_key_item *le = l + nl, *re = r + nr;

	while (l < le && r < re)
		*dst++ = before(k, r, l) ? *r++ : *l++;
	memcpy(dst, l, (size_t)(le - l) * sizeof(*l));
	dst += le - l;
	if (dst != r)
		memmove(dst, r, (size_t)(re - r) * sizeof(*r));
}

/* Puts t into the sorted items[0, y], at its place, the ones after it
 * one up (items[y] is free). */
static void insert_sorted(const struct ksort *ks, struct hd_key_item *items,
			  size_t y, struct hd_key_item t)
{
	for (; y > 0 && before(ks, &t, &items[y - 1]); y--)
		items[y] = items[y - 1];
	items[y] = t;
}

/* Sorts a[0, n) with tmp[0, n / 2) as scratch. */
static void msort(const struct ksort *k, struct hd_key_item *a,
		  struct hd_key_item *tmp, size_t n)
{
	size_t h = n / 2;

	if (n < 2)
		return;
	msort(k, a, tmp, h);
	msort(k, a + h, tmp, n - h);
	memcpy(tmp, a, h * sizeof(*a));   /* the left run moves out */
	merge_runs(k, tmp, h, a + h, n - h, a);
}

/*
 * One half of a sort on two threads: sorts a[0, n) with scratch and
 * leaves a copy of the sorted run in out; then merges its half of the
 * two runs (l, r) into dst.
 */
struct half {
	const struct ksort *k;
	struct hd_key_item *a, *scratch, *out;
	size_t n;
	const struct hd_key_item *l, *r;
	size_t nl, nr;
	struct hd_key_item *dst;
};

static void *sort_half(void *arg)
{
	struct half *h = arg;

	msort(h->k, h->a, h->scratch, h->n);
	memcpy(h->out, h->a, h->n * sizeof(*h->a));
	return NULL;
}

static void *merge_half(void *arg)
{
	struct half *h = arg;

	merge_runs(h->k, h->l, h->nl, h->r, h->nr, h->dst);
	return NULL;
}

/*
 * How many of the first k items of the stable merge of l[0, nl) and
 * r[0, nr) come from l: the smallest i for which l[i] does not have to
 * precede r[k - i - 1] (ties go to l).  Binary search: that is false
 * for small i and true from some i on.
 */
static size_t merge_split(const struct ksort *k, const struct hd_key_item *l,
			  size_t nl, const struct hd_key_item *r, size_t nr,
			  size_t at)
{
	size_t lo = at > nr ? at - nr : 0, hi = at < nl ? at : nl;

	while (lo < hi) {
		size_t i = lo + (hi - lo) / 2, j = at - i;

		if (j > 0 && !before(k, &r[j - 1], &l[i]))
			lo = i + 1;
		else
			hi = i;
	}
	return lo;
}

/* Below this many items one thread sorts alone. */
#define PARALLEL_MIN 65536

void hd_key_sort_in(struct hd_key_item *items, size_t n,
		    struct hd_key_item *tmp,
		    int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx)
{
	struct ksort k = { full, ctx };
	size_t h = n / 2, i;
	struct half hv[2];

	if (n < 2)
		return;
	if (n < PARALLEL_MIN) {
		msort(&k, items, tmp, n);
		return;
	}
	/*
	 * The halves on two threads, each with the scratch it needs (the
	 * sort of m items needs m / 2) inside the place where it then
	 * leaves a copy of its run.  Then the two merge from the copies,
	 * one the first n / 2 items of the result, the other the rest:
	 * the split is where the stable merge of the whole would be after
	 * n / 2 items, so the result is that merge.
	 */
	hv[0] = (struct half){ &k, items, tmp, tmp, h, NULL, NULL, 0, 0, NULL };
	hv[1] = (struct half){ &k, items + h, tmp + h, tmp + h, n - h,
			       NULL, NULL, 0, 0, NULL };
	hd_run_two(sort_half, &hv[0], sort_half, &hv[1], 1);
	i = merge_split(&k, tmp, h, tmp + h, n - h, n / 2);
	hv[0].l = tmp;
	hv[0].nl = i;
	hv[0].r = tmp + h;
	hv[0].nr = n / 2 - i;
	hv[0].dst = items;
	hv[1].l = tmp + i;
	hv[1].nl = h - i;
	hv[1].r = tmp + h + (n / 2 - i);
	hv[1].nr = (n - h) - (n / 2 - i);
	hv[1].dst = items + n / 2;
	hd_run_two(merge_half, &hv[0], merge_half, &hv[1], 1);
}

void hd_key_sort(struct hd_key_item *items, size_t n,
		 int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx)
{
	struct hd_key_item *tmp;

	if (n < 2)
		return;
	/* one thread's merge sort needs n / 2 of the n */
	tmp = hd_xmalloc((n < PARALLEL_MIN ? n / 2 + 2 : n) * sizeof(*tmp));
	hd_key_sort_in(items, n, tmp, full, ctx);
	free(tmp);
}

/* Above this many items wanted (or an eighth of them) a selection
 * sorts them all: its insertions cost up to k moves an item. */
#define SELECT_MAX 64

static int select_sorts_all(size_t n, size_t k)
{
	return k >= n || k > SELECT_MAX || k > n / 8;
}

/*
 * The first k items of the sort of items[0, n) into items[0, k), in
 * order: items[0, k) hold the best found so far, sorted, and an item
 * that comes before the last of them takes its place (the one it puts
 * out goes where it was) and is inserted.  before() is a strict total
 * order (idx breaks every tie), so these are the sort's first k.  Most
 * items are put aside by one comparison with the k-th best.
 */
void hd_key_select(struct hd_key_item *items, size_t n, size_t k,
		   int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx)
{
	struct ksort ks = { full, ctx };
	size_t i;

	if (select_sorts_all(n, k)) {
		hd_key_sort(items, n, full, ctx);
		return;
	}
	if (k == 0)
		return;
	for (i = 1; i < k; i++)         /* the first k, by insertion */
		insert_sorted(&ks, items, i, items[i]);
	for (i = k; i < n; i++) {
		struct hd_key_item t = items[i];

		if (!before(&ks, &t, &items[k - 1]))
			continue;
		items[i] = items[k - 1];
		insert_sorted(&ks, items, k - 1, t);
	}
}

/* No order past the numbers but the index (the first round of
 * hd_key_select_keyed). */
static int no_key(void *ctx, uint32_t a, uint32_t b)
{
	(void)ctx;
	(void)a;
	(void)b;
	return 0;
}

void hd_key_select_keyed(struct hd_key_item *items, size_t n, size_t k,
			 void (*set_key)(void *ctx, struct hd_key_item *it),
			 int (*full)(void *ctx, uint32_t a, uint32_t b),
			 void *ctx)
{
	struct hd_key_item last;
	size_t i, c = 0;

	if (k == 0 || n == 0)
		return;
	if (k > n)
		k = n;
	if (select_sorts_all(n, k)) {
		/* one sort of them all, not one by the numbers first */
		for (i = 0; i < n; i++)
			set_key(ctx, &items[i]);
		hd_key_sort(items, n, full, ctx);
		return;
	}
	hd_key_select(items, n, k, no_key, NULL);
	last = items[k - 1];
	for (i = 0; i < n; i++) {
		struct hd_key_item t = items[i];

		if (t.w0 < last.w0 || (t.w0 == last.w0 && t.w1 <= last.w1)) {
			set_key(ctx, &t);
			items[c++] = t;
		}
	}
	hd_key_select(items, c, k, full, ctx);
}

int hd_key_magnitudes_overflow(const struct hd_key_item *items, size_t n)
{
	uint64_t sum = 0;
	int over = 0;
	size_t i;

	for (i = 0; i < n; i++)
		over |= __builtin_add_overflow(sum, ~items[i].w0, &sum);
	return over || sum > INT64_MAX;
}

void hd_key_apply_front(void *data, size_t elem, size_t n,
			const struct hd_key_item *items, size_t k)
{
	char *d = data, *front;
	unsigned char *taken;
	size_t i, w;

	if (k == 0)
		return;
	front = hd_xmalloc(k * elem);
	taken = hd_xcalloc(n + 1, 1);
	for (i = 0; i < k; i++) {
		memcpy(front + i * elem, d + (size_t)items[i].idx * elem, elem);
		taken[items[i].idx] = 1;
	}
	/* the others to [k, n), from the back, so none is overwritten
	 * before it is moved */
	for (i = n, w = n; i-- > 0;)
		if (!taken[i] && --w != i)
			memcpy(d + w * elem, d + i * elem, elem);
	memcpy(d, front, k * elem);
	free(taken);
	free(front);
}

/* Places [from, to) of a reordering: copy[i] = data[items[i].idx]. */
struct gather {
	char *data;
	char *copy;
	size_t elem;
	struct hd_key_item *items;
	size_t from, to;
};

static void *gather_run(void *arg)
{
	struct gather *g = arg;
	size_t i;

	for (i = g->from; i < g->to; i++) {
		memcpy(g->copy + i * g->elem,
		       g->data + (size_t)g->items[i].idx * g->elem, g->elem);
		g->items[i].idx = (uint32_t)i;
	}
	return NULL;
}

/* The copy of places [from, to) back into data. */
static void *copy_back_run(void *arg)
{
	struct gather *g = arg;

	memcpy(g->data + g->from * g->elem, g->copy + g->from * g->elem,
	       (g->to - g->from) * g->elem);
	return NULL;
}

void hd_key_apply_via(void *data, size_t elem, struct hd_key_item *items,
		      size_t n, void *copy)
{
	struct gather g[2];
	size_t h = n / 2;

	if (n < 2)
		return;
	/*
	 * Not in place cycle by cycle: there each step waits for the read
	 * before (one cache miss after another).  The records are gathered
	 * into a copy, whose reads do not wait on each other, by two
	 * threads when there are many, and copied back (by two as well).
	 */
	g[0] = (struct gather){ data, copy, elem, items, 0, h };
	g[1] = (struct gather){ data, copy, elem, items, h, n };
	hd_run_two(gather_run, &g[0], gather_run, &g[1], n >= PARALLEL_MIN);
	hd_run_two(copy_back_run, &g[0], copy_back_run, &g[1],
		   n >= PARALLEL_MIN);
}

void hd_key_apply(void *data, size_t elem, struct hd_key_item *items,
		  size_t n)
{
	void *copy;

	if (n < 2)
		return;
	copy = hd_xmalloc(n * elem);
	hd_key_apply_via(data, elem, items, n, copy);
	free(copy);
}

/* Bits needed for x (0 for 0). */
static unsigned bit_width(uint64_t x)
{
	return x ? 64 - (unsigned)__builtin_clzll(x) : 0;
}

/* The digit mask of pass d of a radix sort of bits in digits of digit
 * bits: the last one may be narrower, so no bit above is sorted by. */
static uint64_t digit_mask(unsigned bits, unsigned digit, unsigned d)
{
	unsigned w = bits - d * digit < digit ? bits - d * digit : digit;

	return ((uint64_t)1 << w) - 1;
}

uint64_t *hd_key_radix_sort(uint64_t *a, uint64_t *tmp, size_t n,
			    unsigned lo, unsigned bits)
{
	/* a digit near log2(n) bits: counters that cost no more than the
	 * pass over the numbers itself */
	unsigned most = bit_width(n) < 4 ? 4 : bit_width(n) > 13 ? 13 : bit_width(n);
	unsigned passes = (bits + most - 1) / most, digit, d;
	uint32_t *count;        /* not the numbers' type: no aliasing */
	size_t i;

	if (n < 2 || passes == 0)
		return a;
	digit = (bits + passes - 1) / passes;
	count = hd_xcalloc((size_t)passes << digit, sizeof(*count));
	for (d = 0; d < passes; d++) {
		uint32_t *c = count + ((size_t)d << digit);
		unsigned shift = lo + d * digit;
		uint64_t mask = digit_mask(bits, digit, d);

		for (i = 0; i < n; i++)
			c[(a[i] >> shift) & mask]++;
	}
	for (d = 0; d < passes; d++) {
		uint32_t *c = count + ((size_t)d << digit), sum = 0, x;
		unsigned shift = lo + d * digit;
		uint64_t mask = digit_mask(bits, digit, d), *t, k;

		for (k = 0; k <= mask; k++) {
			x = c[k];
			c[k] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			tmp[c[(a[i] >> shift) & mask]++] = a[i];
		t = a;
		a = tmp;
		tmp = t;
	}
	free(count);
	return a;
}
