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

/* The slots the doublings of hd_index_reserve_one reach for n entries
 * from cap. */
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

/* Is idx's own key (own->key_of) the key of record r?  For a put that
 * files a record by its own key, read only when a hash is met. */
struct own_key {
	uint32_t idx;
	hd_index_key_fn key_of;
	const void *ctx;
};

static inline int is_own(const void *arg, uint32_t r)
{
	const struct own_key *k = arg;

	return hd_slice_eq(k->key_of(k->ctx, r), k->key_of(k->ctx, k->idx));
}

uint32_t hd_index_put_hashed(struct hd_index *x, uint32_t hash,
			     struct hd_slice key, uint32_t idx,
			     hd_index_key_fn key_of, const void *ctx)
{
	struct hd_index_text_key k = { key, key_of, ctx };

	return hd_index_put_with(x, hash, idx, hd_index_is_text, &k);
}

uint32_t hd_index_put_own(struct hd_index *x, uint32_t hash, uint32_t idx,
			  hd_index_key_fn key_of, const void *ctx)
{
	struct own_key k = { idx, key_of, ctx };

	return hd_index_put_with(x, hash, idx, is_own, &k);
}

void hd_index_release(struct hd_index *x)
{
	hd_vec_release(&x->store);
	x->slots = NULL;
	x->mask = 0;
	x->count = 0;
}
