/*
 * keysort.c - stable sort by numbers and a string prefix (keysort.h).
 */
#include "hlodiff/keysort.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/parallel.h"

/* Up to 8 bytes of s from byte at, big-endian, zero-padded. */
static uint64_t be_word(struct hd_slice s, size_t at)
{
	uint64_t w = 0;
	size_t i;

	for (i = 0; i < 8; i++) {
		unsigned char c = at + i < s.n ? (unsigned char)s.p[at + i] : 0;

		w = w << 8 | c;
	}
	return w;
}

void hd_key_item_set(struct hd_key_item *it, uint64_t w0, uint32_t w1,
		     struct hd_slice s, uint32_t idx)
{
	it->w0 = w0;
	it->w1 = w1;
	it->p[0] = be_word(s, 0);
	it->p[1] = be_word(s, 8);
	it->p[2] = be_word(s, 16);
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

/* Merges the sorted runs a[0, h) and a[h, n) with tmp[0, h) as scratch. */
static void merge(const struct ksort *k, struct hd_key_item *a,
		  struct hd_key_item *tmp, size_t h, size_t n)
{
	size_t i = 0, j = h, o = 0;

	if (h == 0 || h == n || !before(k, &a[h], &a[h - 1]))
		return;         /* already in order */
	/* The left run moves out; the merge writes behind both reads. */
	memcpy(tmp, a, h * sizeof(*a));
	while (i < h && j < n)
		a[o++] = before(k, &a[j], &tmp[i]) ? a[j++] : tmp[i++];
	while (i < h)
		a[o++] = tmp[i++];
}

/* Sorts a[0, n) with tmp[0, n / 2) as scratch. */
static void msort(const struct ksort *k, struct hd_key_item *a,
		  struct hd_key_item *tmp, size_t n)
{
	size_t h = n / 2;

	if (n <= 12) {
		size_t x, y;

		for (x = 1; x < n; x++) {
			struct hd_key_item t = a[x];

			for (y = x; y > 0 && before(k, &t, &a[y - 1]); y--)
				a[y] = a[y - 1];
			a[y] = t;
		}
		return;
	}
	msort(k, a, tmp, h);
	msort(k, a + h, tmp, n - h);
	merge(k, a, tmp, h, n);
}

/* One half of a sort on two threads. */
struct half {
	const struct ksort *k;
	struct hd_key_item *a, *tmp;
	size_t n;
};

static void *sort_half(void *arg)
{
	struct half *h = arg;

	msort(h->k, h->a, h->tmp, h->n);
	return NULL;
}

/* Below this many items one thread sorts alone. */
#define PARALLEL_MIN 65536

void hd_key_sort(struct hd_key_item *items, size_t n,
		 int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx)
{
	struct ksort k = { full, ctx };
	struct hd_key_item *tmp;
	size_t h = n / 2;
	struct half hv[2];

	if (n < 2)
		return;
	tmp = hd_xmalloc((n / 2 + 2) * sizeof(*tmp));
	if (n < PARALLEL_MIN) {
		msort(&k, items, tmp, n);
		free(tmp);
		return;
	}
	/* The halves on two threads (each with its own part of tmp: the
	 * sort of m items needs m / 2), then one merge. */
	hv[0] = (struct half){ &k, items, tmp, h };
	hv[1] = (struct half){ &k, items + h, tmp + h / 2 + 1, n - h };
	hd_run_two(sort_half, &hv[0], sort_half, &hv[1], 1);
	merge(&k, items, tmp, h, n);
	free(tmp);
}

void hd_key_apply(void *data, size_t elem, struct hd_key_item *items,
		  size_t n)
{
	char *d = data, *saved;
	size_t i, j, k;

	if (n < 2)
		return;
	/* In place, cycle by cycle: place j takes the record at items[j].idx;
	 * a place is marked done by pointing items[j].idx at itself. */
	saved = hd_xmalloc(elem);
	for (i = 0; i < n; i++) {
		if (items[i].idx == i)
			continue;
		memcpy(saved, d + i * elem, elem);
		for (j = i;; j = k) {
			k = items[j].idx;
			items[j].idx = (uint32_t)j;
			if (k == i) {
				memcpy(d + j * elem, saved, elem);
				break;
			}
			memcpy(d + j * elem, d + k * elem, elem);
		}
	}
	free(saved);
}
