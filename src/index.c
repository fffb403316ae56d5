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

/* Room for one more entry at load <= 0.7. */
static void reserve_one(struct hd_index *x)
{
	uint64_t cap = x->slots ? (uint64_t)x->mask + 1 : 0;
	struct hd_index_slot *old = x->slots;
	struct hd_vec fresh = HD_VEC_INIT(struct hd_index_slot);
	uint64_t newcap, i;

	if ((uint64_t)(x->count + 1) * 10 <= cap * 7)
		return;
	newcap = cap ? cap * 2 : INDEX_MIN_SLOTS;
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

void hd_index_add(struct hd_index *x, uint32_t hash, uint32_t idx)
{
	reserve_one(x);
	put_slot(x->slots, x->mask, hash, idx);
	x->count++;
}

uint32_t hd_index_put(struct hd_index *x, struct hd_slice key, uint32_t idx,
		      hd_index_key_fn key_of, const void *ctx)
{
	uint32_t hash = hd_index_hash(key);
	uint32_t found = hd_index_find(x, hash, key, key_of, ctx);

	if (found != HD_NONE)
		return found;
	hd_index_add(x, hash, idx);
	return HD_NONE;
}

void hd_index_release(struct hd_index *x)
{
	hd_vec_release(&x->store);
	x->slots = NULL;
	x->mask = 0;
	x->count = 0;
}
