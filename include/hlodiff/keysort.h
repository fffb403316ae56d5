/*
 * keysort.h - a stable sort of records by a key made of two numbers and
 * a string, for the big sorts of a diff (changed values, peak values).
 *
 * Sorting the records themselves with qsort_r costs a comparison
 * function call and, for the string, two or three cache misses (record,
 * value, input text) per comparison.  Here each record gets a compact
 * item (two numbers, the first 24 bytes of its string, its index) that
 * is sorted by merge sort with the comparison inlined; only items equal
 * in all of that go to the caller's full comparison.  The result is the
 * order of a stable sort by the full comparison.
 */
#ifndef HLODIFF_KEYSORT_H
#define HLODIFF_KEYSORT_H

#include <stddef.h>
#include <stdint.h>

#include "hlodiff/slice.h"

struct hd_key_item {
	uint64_t w0;        /* compared first, ascending */
	uint64_t p[3];      /* then the string's first 24 bytes (hd_key_item_set) */
	uint32_t w1;        /* compared between w0 and the string */
	uint32_t idx;       /* the record's index: the last tie-break */
};

/* Fills an item; s is the record's string (compared as hd_slice_cmp). */
void hd_key_item_set(struct hd_key_item *it, uint64_t w0, uint32_t w1,
		     struct hd_slice s, uint32_t idx);

/*
 * Sorts items[0, n) stably.  Items equal in w0, w1 and the 24 bytes are
 * ordered by full(ctx, idx_a, idx_b) (the caller's complete comparison
 * of the two records, < 0, 0, > 0), then by idx.
 */
void hd_key_sort(struct hd_key_item *items, size_t n,
		 int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx);
/* The same with scratch room for n items at tmp (a caller with a spent
 * buffer at hand saves the allocation and its page faults). */
void hd_key_sort_in(struct hd_key_item *items, size_t n,
		    struct hd_key_item *tmp,
		    int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx);

/*
 * The first k items of hd_key_sort's order, for callers that need no
 * more in order: they go to items[0, k), sorted; the others are left in
 * items[k, n) in no particular order.  Linear in n for small k (a big k
 * sorts them all).
 */
void hd_key_select(struct hd_key_item *items, size_t n, size_t k,
		   int (*full)(void *ctx, uint32_t a, uint32_t b), void *ctx);

/*
 * hd_key_select for items whose strings are costly to read (scattered
 * records): items[0, n) come with w0, w1 and idx alone (p zero), and
 * set_key(ctx, it) fills in the string of it (hd_key_item_set) for only
 * the items whose numbers are as good as the k-th best numbers' (no
 * other can be among the first k; all of them where k is big enough
 * for hd_key_select to sort them all, which is then done once).  Leaves
 * the first k items of the order in items[0, k); the rest of items is
 * then scratch.
 */
void hd_key_select_keyed(struct hd_key_item *items, size_t n, size_t k,
			 void (*set_key)(void *ctx, struct hd_key_item *it),
			 int (*full)(void *ctx, uint32_t a, uint32_t b),
			 void *ctx);

/*
 * Would the magnitudes of items[0, n) (~w0, as a |delta| is kept there)
 * add up beyond INT64_MAX?  The reports add up the deltas of the values
 * they do not list with saturation, in their order: a partial order is
 * then not enough.
 */
int hd_key_magnitudes_overflow(const struct hd_key_item *items, size_t n);

/*
 * Reorders the n records of elem bytes at data so that the records
 * items[0, k).idx come first, in that order, and the others follow in
 * the order they had (the first k of an hd_key_select).
 */
void hd_key_apply_front(void *data, size_t elem, size_t n,
			const struct hd_key_item *items, size_t k);

/*
 * Reorders the n records of elem bytes at data, in place, as the sorted
 * items say (record items[i].idx goes to place i).  The items' idx are
 * used up (each becomes its own place).
 */
void hd_key_apply(void *data, size_t elem, struct hd_key_item *items,
		  size_t n);
/* The same with scratch room for the n records (n * elem bytes) at copy. */
void hd_key_apply_via(void *data, size_t elem, struct hd_key_item *items,
		      size_t n, void *copy);

/*
 * Stable LSD radix sort of the numbers a[0, n) by their bits [lo, lo +
 * bits) (the other bits ride along: an index kept in the low bits makes
 * the order total).  Digits of at most 13 bits, fewer for few numbers,
 * the bits shared out evenly; a digit the same in every number costs no
 * pass.  n < 2^32, lo + bits <= 64.  The numbers move between a and
 * tmp (room for n each); returns where they end.
 */
uint64_t *hd_key_radix_sort(uint64_t *a, uint64_t *tmp, size_t n,
			    unsigned lo, unsigned bits);

#endif
