/*
 * index.h - a flat open-addressing hash index from a key to a record.
 *
 * The dump's hot lookups (value by "name{index}" key, instruction by
 * name: one or two per line of a dump with millions of lines) use this
 * instead of hd_table (uthash, which stays for everything else).  A slot
 * is 8 bytes, { 32-bit hash, uint32 record index }, in one array; the key
 * itself is not stored.  On a hash match the caller's key_of(ctx, idx)
 * gives the record's own key to compare with, so a lookup touches one
 * cache line of slots and, on a hit, the record's key.  Growth doubles the
 * array and rehashes from the stored hashes (keys are never re-read).
 * Linear probing, load at most 0.7: 12 to 23 bytes per entry.
 *
 * Invariant: slots is NULL (mask 0, count 0) or holds mask + 1 slots, a
 * power of two, of which count have idx != HD_NONE.
 */
#ifndef HLODIFF_INDEX_H
#define HLODIFF_INDEX_H

#include <stdint.h>
#include <string.h>

#include "hlodiff/slice.h"
#include "hlodiff/table.h"

struct hd_index_slot {
	uint32_t hash;
	uint32_t idx;           /* HD_NONE: empty */
};

struct hd_index {
	struct hd_index_slot *slots;
	uint32_t mask;
	uint32_t count;
};

#define HD_INDEX_INIT { NULL, 0, 0 }

/* The key of record idx (a slice that stays valid while the index lives). */
typedef struct hd_slice (*hd_index_key_fn)(const void *ctx, uint32_t idx);

static inline uint64_t hd_index_mix(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	__uint128_t r = (__uint128_t)(a ^ 0xa0761d6478bd642full) *
			(b ^ 0xe7037ed1a0b428dbull);

	return (uint64_t)r ^ (uint64_t)(r >> 64);
#else
	uint64_t r = (a ^ 0xa0761d6478bd642full) * 0x9e3779b97f4a7c15ull;

	r ^= (b ^ 0xe7037ed1a0b428dbull) + (r >> 29);
	r *= 0xbf58476d1ce4e5b9ull;
	return r ^ (r >> 32);
#endif
}

/*
 * The hash the index files key under: a small multiply-mix hash in the
 * manner of wyhash, inline because it runs for most lines of a dump
 * (keys are short names; reads stay within the key).
 */
static inline uint32_t hd_index_hash(struct hd_slice key)
{
	const unsigned char *p = (const unsigned char *)key.p;
	size_t n = key.n, i;
	uint64_t a, b, h = 0x8ebc6af09c88c6e3ull ^ n;

	if (n <= 16) {
		if (n >= 4) {
			uint32_t w[4];
			size_t q = (n >> 3) << 2;

			memcpy(&w[0], p, 4);
			memcpy(&w[1], p + q, 4);
			memcpy(&w[2], p + n - 4, 4);
			memcpy(&w[3], p + n - 4 - q, 4);
			a = (uint64_t)w[0] << 32 | w[1];
			b = (uint64_t)w[2] << 32 | w[3];
		} else if (n) {
			a = (uint64_t)p[0] << 16 | (uint64_t)p[n >> 1] << 8 | p[n - 1];
			b = 0;
		} else {
			a = b = 0;
		}
	} else {
		for (i = 0; i + 16 < n; i += 16) {
			memcpy(&a, p + i, 8);
			memcpy(&b, p + i + 8, 8);
			h = hd_index_mix(a ^ 0x589965cc75374cc3ull, b ^ h);
		}
		memcpy(&a, p + n - 16, 8);
		memcpy(&b, p + n - 8, 8);
	}
	h = hd_index_mix(0x1d8e4e27c47d124full ^ n,
			 hd_index_mix(a ^ 0xa0761d6478bd642full, b ^ h));
	return (uint32_t)(h ^ (h >> 32));
}

/* Record with this key (hash = hd_index_hash(key)), or HD_NONE. */
static inline uint32_t hd_index_find(const struct hd_index *x, uint32_t hash,
				     struct hd_slice key, hd_index_key_fn key_of,
				     const void *ctx)
{
	uint32_t i;

	if (!x->slots)
		return HD_NONE;
	for (i = hash & x->mask;; i = (i + 1) & x->mask) {
		const struct hd_index_slot *s = &x->slots[i];

		if (s->idx == HD_NONE)
			return HD_NONE;
		if (s->hash == hash && hd_slice_eq(key_of(ctx, s->idx), key))
			return s->idx;
	}
}

/* The first record filed under hash (the likely one), or HD_NONE; for
 * prefetching, it reads no key. */
static inline uint32_t hd_index_first(const struct hd_index *x, uint32_t hash)
{
	uint32_t i;

	if (!x->slots)
		return HD_NONE;
	for (i = hash & x->mask;; i = (i + 1) & x->mask)
		if (x->slots[i].idx == HD_NONE || x->slots[i].hash == hash)
			return x->slots[i].idx;
}

/* Starts loading the slots a lookup of hash reads first. */
static inline void hd_index_prefetch(const struct hd_index *x, uint32_t hash)
{
	if (x->slots)
		__builtin_prefetch(&x->slots[hash & x->mask]);
}

/*
 * Files idx under hash without looking for the key: the caller knows it
 * is absent (hd_index_find said so).  idx must not be HD_NONE.
 */
void hd_index_add(struct hd_index *x, uint32_t hash, uint32_t idx);

/* Files idx under key unless the key is present.  Returns HD_NONE when
 * it did, else the record already filed (the index is unchanged). */
uint32_t hd_index_put(struct hd_index *x, struct hd_slice key, uint32_t idx,
		      hd_index_key_fn key_of, const void *ctx);

void hd_index_release(struct hd_index *x);

#endif
