/*
 * test_keysort.c - the sort of a diff's value and peak lists
 * (keysort.h) against a plain qsort by the same full order, and the
 * selection of the first k of that order.
 *
 * Records have a number, a small number and a string; the strings are
 * made to tie often (equal, one a prefix of the other, the same first
 * 24 bytes, NUL bytes inside) so that every step of the comparison
 * decides some pairs.  Sizes go past the two-thread threshold.
 */
#include <stdlib.h>
#include <string.h>

#include "hlodiff/keysort.h"
#include "tap/tap.h"

struct rec {
	uint64_t w0;
	uint32_t w1;
	char key[40];
	size_t klen;
	int tie;            /* the full order's last word */
};

static struct rec *recs;

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int full_cmp(const struct rec *a, const struct rec *b)
{
	size_t n = a->klen < b->klen ? a->klen : b->klen;
	int c;

	if (a->w0 != b->w0)
		return a->w0 < b->w0 ? -1 : 1;
	if (a->w1 != b->w1)
		return a->w1 < b->w1 ? -1 : 1;
	c = n ? memcmp(a->key, b->key, n) : 0;
	if (c)
		return c;
	if (a->klen != b->klen)
		return a->klen < b->klen ? -1 : 1;
	return (a->tie > b->tie) - (a->tie < b->tie);
}

/* keysort's callback: the records' full order (ties left to idx). */
static int full(void *ctx, uint32_t a, uint32_t b)
{
	(void)ctx;
	return full_cmp(&recs[a], &recs[b]);
}

/* hd_key_select_keyed's callback: the record's string. */
static void set_key(void *ctx, struct hd_key_item *it)
{
	const struct rec *r = &recs[it->idx];

	(void)ctx;
	hd_key_item_set(it, it->w0, it->w1, hd_slice_make(r->key, r->klen),
			it->idx);
}

/* The reference: full order, then index (so the result is unique). */
static int ref_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int c = full_cmp(&recs[a], &recs[b]);

	return c ? c : (a > b) - (a < b);
}

static void make(size_t n)
{
	static const char *const stems[] = {
		"", "a", "fusion.", "convolution_fusion.123456", "convolution_fusion.123457",
		"get-tuple-element.", "x\0y", "x", "broadcast_multiply_fusion",
	};
	size_t i;

	recs = realloc(recs, (n + 1) * sizeof(*recs));
	if (!recs)
		bail("out of memory");
	for (i = 0; i < n; i++) {
		struct rec *r = &recs[i];
		size_t s = next() % (sizeof(stems) / sizeof(stems[0]));
		size_t sl = s == 6 ? 3 : strlen(stems[s]);
		size_t extra = next() % 4;

		memset(r, 0, sizeof(*r));
		r->w0 = next() % 3 == 0 ? ~(next() % 5) : next() % 4;
		r->w1 = (uint32_t)(next() % 2);
		memcpy(r->key, stems[s], sl);
		while (extra-- && sl < sizeof(r->key))
			r->key[sl++] = (char)('0' + next() % 3);
		r->klen = sl;
		r->tie = (int)(next() % 3);
	}
}

static void check(size_t n)
{
	struct hd_key_item *items = calloc(n + 1, sizeof(*items));
	uint32_t *ref = malloc((n + 1) * sizeof(*ref));
	struct rec *copy = malloc((n + 1) * sizeof(*copy));
	static const size_t ks[] = { 0, 1, 5, 20, 64, 65, 1000 };
	size_t i, k, bad = 0;

	if (!items || !ref || !copy)
		bail("out of memory");
	make(n);
	for (i = 0; i < n; i++) {
		hd_key_item_set(&items[i], recs[i].w0, recs[i].w1,
				hd_slice_make(recs[i].key, recs[i].klen),
				(uint32_t)i);
		ref[i] = (uint32_t)i;
	}
	hd_key_sort(items, n, full, NULL);
	qsort(ref, n, sizeof(*ref), ref_cmp);
	for (i = 0; i < n; i++)
		bad += items[i].idx != ref[i];
	is_int(0, (long long)bad, "%zu records: the order of a stable sort", n);

	memcpy(copy, recs, n * sizeof(*copy));
	hd_key_apply(copy, sizeof(*copy), items, n);
	for (i = 0, bad = 0; i < n; i++)
		bad += memcmp(&copy[i], &recs[ref[i]], sizeof(*copy)) != 0;
	is_int(0, (long long)bad, "%zu records: hd_key_apply moves them there", n);

	/* hd_key_select: the first k of the same order, for small and
	 * big k (a big one sorts all), and the others all still there */
	for (k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
		size_t want = ks[k] < n ? ks[k] : n;
		size_t sum = 0;

		for (i = 0; i < n; i++)
			hd_key_item_set(&items[i], recs[i].w0, recs[i].w1,
					hd_slice_make(recs[i].key, recs[i].klen),
					(uint32_t)i);
		hd_key_select(items, n, ks[k], full, NULL);
		for (i = 0, bad = 0; i < want; i++)
			bad += items[i].idx != ref[i];
		for (i = 0; i < n; i++)
			sum += items[i].idx;
		bad += sum != (n ? n * (n - 1) / 2 : 0);
		is_int(0, (long long)bad, "%zu records: hd_key_select of %zu",
		       n, ks[k]);

		/* the same with the strings filled in on demand */
		for (i = 0; i < n; i++)
			hd_key_item_set(&items[i], recs[i].w0, recs[i].w1,
					HD_SLICE_NULL, (uint32_t)i);
		hd_key_select_keyed(items, n, ks[k], set_key, full, NULL);
		for (i = 0, bad = 0; i < want; i++)
			bad += items[i].idx != ref[i];
		is_int(0, (long long)bad,
		       "%zu records: hd_key_select_keyed of %zu", n, ks[k]);
	}
	free(items);
	free(ref);
	free(copy);
}

/* hd_key_apply_front: items' first k records to the front, in order,
 * the others after them in their order. */
static void check_front(size_t n, size_t k)
{
	struct hd_key_item *items = calloc(n + 1, sizeof(*items));
	uint32_t *data = malloc((n + 1) * sizeof(*data));
	unsigned char *front = calloc(n + 1, 1);
	size_t i, at, bad = 0;

	for (i = 0; i < n; i++)
		data[i] = (uint32_t)i * 3 + 1;
	/* k records, every third from the back */
	for (i = 0; i < k; i++) {
		size_t r = n - 1 - 3 * i;

		hd_key_item_set(&items[i], 0, 0, HD_SLICE_NULL, (uint32_t)r);
		front[r] = 1;
	}
	hd_key_apply_front(data, sizeof(*data), n, items, k);
	for (i = 0; i < k; i++)
		bad += data[i] != items[i].idx * 3 + 1;
	for (i = 0, at = k; i < n; i++)
		if (!front[i])
			bad += data[at++] != (uint32_t)i * 3 + 1;
	is_int(0, (long long)bad, "hd_key_apply_front: %zu of %zu to the front", k, n);
	free(front);
	free(data);
	free(items);
}

/* hd_key_magnitudes_overflow: magnitudes (~w0) adding up to INT64_MAX
 * fit, one more does not, nor does a sum that wraps around 2^64. */
static void check_magnitudes(void)
{
	struct hd_key_item it[3];

	hd_key_item_set(&it[0], ~(uint64_t)(INT64_MAX - 5), 0, HD_SLICE_NULL, 0);
	hd_key_item_set(&it[1], ~(uint64_t)5, 0, HD_SLICE_NULL, 1);
	hd_key_item_set(&it[2], ~(uint64_t)1, 0, HD_SLICE_NULL, 2);
	is_int(0, hd_key_magnitudes_overflow(it, 2), "magnitudes up to INT64_MAX fit");
	is_int(1, hd_key_magnitudes_overflow(it, 3), "one more does not");
	/* 2^63 twice: 2^64, which wraps to 0 */
	hd_key_item_set(&it[1], ~((uint64_t)1 << 63), 0, HD_SLICE_NULL, 1);
	hd_key_item_set(&it[2], ~((uint64_t)1 << 63), 0, HD_SLICE_NULL, 2);
	is_int(1, hd_key_magnitudes_overflow(it + 1, 2), "nor a sum past 2^64");
	is_int(0, hd_key_magnitudes_overflow(it, 0), "nothing fits");
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 2, 12, 13, 1000, 65535, 65536, 200001 };
	size_t i;

	plan(16 * (int)(sizeof(sizes) / sizeof(sizes[0])) + 4 + 4);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check(sizes[i]);
	check_front(0, 0);
	check_front(10, 3);
	check_front(10, 4);
	check_front(100000, 20);
	check_magnitudes();
	free(recs);
	return 0;
}
