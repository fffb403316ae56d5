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
 * Linear probing, load at most 0.7: 12 to 23 bytes per entry.  Keys that
 * are 64-bit hashes themselves (find64, put64) are compared whole.
 *
 * Invariant: slots is NULL (mask 0, count 0) or holds mask + 1 slots, a
 * power of two, of which count have idx != HD_NONE.
 */
#ifndef HLODIFF_INDEX_H
#define HLODIFF_INDEX_H

#include <stdint.h>
#include <string.h>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

#include "hlodiff/arena.h"
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
	struct hd_vec store;    /* owns slots: a big table gets its own
				   mapping with 2 MiB pages (arena.h) */
};

#define HD_INDEX_INIT { NULL, 0, 0, HD_VEC_INIT(struct hd_index_slot) }

/* The key of record idx (a slice that stays valid while the index lives). */
typedef struct hd_slice (*hd_index_key_fn)(const void *ctx, uint32_t idx);

/*
 * The project's hash of a text, XXH3-64, compiled inline here because it
 * runs for most lines of a dump (keys are short names).  What one phase
 * hashes and keeps (hd_insn.name_hash, hd_alloc_value.shape_hash) a
 * later phase takes for its own hash of the same text: all of them are
 * this function.
 */
static inline uint64_t hd_hash64(struct hd_slice s)
{
	return XXH3_64bits(s.n ? s.p : "", s.n);
}

/* The hash the index files key under: the low 32 bits of hd_hash64. */
static inline uint32_t hd_index_hash(struct hd_slice key)
{
	return (uint32_t)hd_hash64(key);
}

/*
 * The probe of every lookup and put (x has slots): the slot of the
 * record filed under hash that is_key(arg, idx) accepts, or the empty
 * slot where it would go.  Always inlined with is_key a constant, so
 * that each caller's comparison inlines too.
 */
static inline __attribute__((always_inline)) struct hd_index_slot *
hd_index_probe(const struct hd_index *x, uint32_t hash,
	       int (*is_key)(const void *arg, uint32_t idx), const void *arg)
{
	uint32_t i;

	for (i = hash & x->mask;; i = (i + 1) & x->mask) {
		struct hd_index_slot *s = &x->slots[i];

		if (s->idx == HD_NONE || (s->hash == hash && is_key(arg, s->idx)))
			return s;
	}
}


/* A text key and how a record's is read, for hd_index_probe. */
struct hd_index_text_key {
	struct hd_slice key;
	hd_index_key_fn key_of;
	const void *ctx;
};

static inline int hd_index_is_text(const void *arg, uint32_t idx)
{
	const struct hd_index_text_key *k = arg;

	return hd_slice_eq(k->key_of(k->ctx, idx), k->key);
}

/* Record with this key (hash = hd_index_hash(key)), or HD_NONE. */
static inline uint32_t hd_index_find(const struct hd_index *x, uint32_t hash,
				     struct hd_slice key, hd_index_key_fn key_of,
				     const void *ctx)
{
	struct hd_index_text_key k = { key, key_of, ctx };

	if (!x->slots)
		return HD_NONE;
	return hd_index_probe(x, hash, hd_index_is_text, &k)->idx;
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

/* Files idx under key unless the key is present.  Returns HD_NONE when
 * it did, else the record already filed (the index is unchanged). */
uint32_t hd_index_put(struct hd_index *x, struct hd_slice key, uint32_t idx,
		      hd_index_key_fn key_of, const void *ctx);

/* The same with hash = hd_index_hash(key) known. */
uint32_t hd_index_put_hashed(struct hd_index *x, uint32_t hash,
			     struct hd_slice key, uint32_t idx,
			     hd_index_key_fn key_of, const void *ctx);

/* The same with the key that of record idx, read (key_of) only when
 * its hash is met: filing many records, their keys stay unread. */
uint32_t hd_index_put_own(struct hd_index *x, uint32_t hash, uint32_t idx,
			  hd_index_key_fn key_of, const void *ctx);

/*
 * Room for n entries in all, made at once: the slots the entries put
 * one at a time would grow to, without the doublings on the way.
 */
void hd_index_reserve(struct hd_index *x, uint64_t n);

/* Room for one more entry (load at most 0.7). */
static inline void hd_index_reserve_one(struct hd_index *x)
{
	if (!x->slots || (uint64_t)(x->count + 1) * 10 >
			 ((uint64_t)x->mask + 1) * 7)
		hd_index_reserve(x, (uint64_t)x->count + 1);
}

/* The put of every key kind: idx filed under hash unless a record there
 * is the key (is_key, as hd_index_probe); HD_NONE, or that record. */
static inline __attribute__((always_inline)) uint32_t
hd_index_put_with(struct hd_index *x, uint32_t hash, uint32_t idx,
		  int (*is_key)(const void *arg, uint32_t idx), const void *arg)
{
	struct hd_index_slot *s;

	hd_index_reserve_one(x);
	s = hd_index_probe(x, hash, is_key, arg);
	if (s->idx != HD_NONE)
		return s->idx;
	s->hash = hash;
	s->idx = idx;
	x->count++;
	return HD_NONE;
}

/* Bits of the slot a hash files under, for filing many in slot order:
 * the home slot is hash & hd_index_mask(x) (slots made, e.g. by
 * hd_index_reserve). */
static inline uint32_t hd_index_mask(const struct hd_index *x)
{
	return x->mask;
}

/*
 * Indexes keyed by a well-mixed 64-bit hash, compared whole in place of
 * a text (names told apart by their XXH3-64, the text not read again):
 * key64_of gives record idx's key, the slot keeps 32 bits of it.
 */
typedef uint64_t (*hd_index_key64_fn)(const void *ctx, uint32_t idx);

/* The hash a 64-bit key files under (folded: any of its bits count). */
static inline uint32_t hd_index_hash64(uint64_t key)
{
	return (uint32_t)(key ^ key >> 32);
}

/* A 64-bit key and how a record's is read, for hd_index_probe. */
struct hd_index_key64 {
	uint64_t key;
	hd_index_key64_fn key_of;
	const void *ctx;
};

static inline int hd_index_is_key64(const void *arg, uint32_t idx)
{
	const struct hd_index_key64 *k = arg;

	return k->key_of(k->ctx, idx) == k->key;
}

/* Record with this 64-bit key, or HD_NONE. */
static inline uint32_t hd_index_find64(const struct hd_index *x, uint64_t key,
				       hd_index_key64_fn key_of,
				       const void *ctx)
{
	struct hd_index_key64 k = { key, key_of, ctx };

	if (!x->slots)
		return HD_NONE;
	return hd_index_probe(x, hd_index_hash64(key), hd_index_is_key64,
			      &k)->idx;
}

/* hd_index_put for a 64-bit key: files idx unless a record has key
 * (returns HD_NONE), else gives that record.  Inline, as find64, so that
 * key_of inlines too: a match pass puts every value. */
static inline uint32_t hd_index_put64(struct hd_index *x, uint64_t key,
				      uint32_t idx, hd_index_key64_fn key_of,
				      const void *ctx)
{
	struct hd_index_key64 k = { key, key_of, ctx };

	return hd_index_put_with(x, hd_index_hash64(key), idx,
				 hd_index_is_key64, &k);
}

/* Empties the index, sized for n entries in the memory it has when that
 * is enough: one index serves pass after pass. */
void hd_index_reset(struct hd_index *x, uint64_t n);

void hd_index_release(struct hd_index *x);

#endif
