/*
 * index.c - flat open-addressing hash index (see index.h).
 */
#include "hlodiff/index.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/diag.h"

#define INDEX_MIN_SLOTS 256u

static void put_slot(struct hd_index_slot *slots, uint32_t mask,
		     uint32_t hash, uint32_t idx)
{
	uint32_t i = hash & mask;

	while (slots[i].idx != HD_NONE)
		i = (i + 1) & mask;
	slots[i].hash = hash;
	slots[i].idx = idx;
}

/* Moves the entries to newcap slots (a power of two, more than now),
 * rehashing. */
static __attribute__((noinline)) void grow_to(struct hd_index *x,
					      uint64_t newcap)
{
	uint64_t cap = x->slots ? (uint64_t)x->mask + 1 : 0;
	struct hd_index_slot *old = x->slots;
	struct hd_vec fresh = HD_VEC_INIT(struct hd_index_slot);
	uint64_t i;

	/* count < HD_NONE, so 2^32 slots always suffice */
	if (newcap > ((uint64_t)1 << 32))
		HD_BUG("index too large");
	hd_vec_reserve(&fresh, (size_t)newcap);
	fresh.len = (size_t)newcap;
	x->slots = fresh.data;
	memset(x->slots, 0xff, (size_t)newcap * sizeof(*x->slots));
	x->mask = (uint32_t)(newcap - 1);
	for (i = 0; i < cap; i++)
		if (old[i].idx != HD_NONE)
			put_slot(x->slots, x->mask, old[i].hash, old[i].idx);
	hd_vec_release(&x->store);
	x->store = fresh;
}

/* Doubles the slots (or makes the first ones), rehashing. */
static void grow(struct hd_index *x)
{
	grow_to(x, x->slots ? ((uint64_t)x->mask + 1) * 2 : INDEX_MIN_SLOTS);
}

/* Room for one more entry at load <= 0.7. */
static inline void reserve_one(struct hd_index *x)
{
	uint64_t cap = x->slots ? (uint64_t)x->mask + 1 : 0;

	if ((uint64_t)(x->count + 1) * 10 > cap * 7)
		grow(x);
}

/* The slots the doublings of reserve_one reach for n entries from cap. */
static uint64_t slots_for(uint64_t n, uint64_t cap)
{
	uint64_t want = cap ? cap : INDEX_MIN_SLOTS;

	while (n * 10 > want * 7)
		want *= 2;
	return want;
}

void hd_index_reserve(struct hd_index *x, uint64_t n)
{
	uint64_t cap = x->slots ? (uint64_t)x->mask + 1 : 0;

	if (n * 10 > cap * 7)
		grow_to(x, slots_for(n, cap));
}

void hd_index_reset(struct hd_index *x, uint64_t n)
{
	uint64_t want = slots_for(n, 0);

	x->count = 0;
	if (want > x->store.cap) {
		hd_index_release(x);
		grow_to(x, want);
		return;
	}
	x->mask = (uint32_t)(want - 1);
	memset(x->slots, 0xff, (size_t)want * sizeof(*x->slots));
}

void hd_index_add(struct hd_index *x, uint32_t hash, uint32_t idx)
{
	reserve_one(x);
	put_slot(x->slots, x->mask, hash, idx);
	x->count++;
}

/*
 * One probe: the room is made first (so a key already present may grow
 * the table a lookup earlier than it would have; no result changes),
 * then the key's run of slots is walked to the key or the empty slot
 * that takes it.
 */
uint32_t hd_index_put(struct hd_index *x, struct hd_slice key, uint32_t idx,
		      hd_index_key_fn key_of, const void *ctx)
{
	return hd_index_put_hashed(x, hd_index_hash(key), key, idx, key_of, ctx);
}

/*
 * The probe of the puts: idx filed under hash, or the entry already
 * there under the same key.  The key is key, or with key NULL idx's own
 * (key_of), read only when a slot of the same hash is met.  Inlined into
 * each put with key a constant NULL or not.
 */
static inline __attribute__((always_inline)) uint32_t
put_probe(struct hd_index *x, uint32_t hash, const struct hd_slice *key,
	  uint32_t idx, hd_index_key_fn key_of, const void *ctx)
{
	uint32_t i;

	reserve_one(x);
	for (i = hash & x->mask;; i = (i + 1) & x->mask) {
		struct hd_index_slot *s = &x->slots[i];

		if (s->idx == HD_NONE) {
			s->hash = hash;
			s->idx = idx;
			x->count++;
			return HD_NONE;
		}
		if (s->hash == hash &&
		    hd_slice_eq(key_of(ctx, s->idx),
				    key ? *key : key_of(ctx, idx)))
			return s->idx;
	}
}

uint32_t hd_index_put_hashed(struct hd_index *x, uint32_t hash,
			     struct hd_slice key, uint32_t idx,
			     hd_index_key_fn key_of, const void *ctx)
{
	return put_probe(x, hash, &key, idx, key_of, ctx);
}

uint32_t hd_index_put_own(struct hd_index *x, uint32_t hash, uint32_t idx,
			  hd_index_key_fn key_of, const void *ctx)
{
	return put_probe(x, hash, NULL, idx, key_of, ctx);
}

void hd_index_release(struct hd_index *x)
{
	hd_vec_release(&x->store);
	x->slots = NULL;
	x->mask = 0;
	x->count = 0;
}
