/*
 * table.c - key -> index tables on uthash, nodes from an arena.
 */
#include "hlodiff/table.h"

#include <xxhash.h>

#undef HASH_FUNCTION
#define HASH_FUNCTION(keyptr, keylen, hashv) \
	((hashv) = (unsigned)XXH3_64bits((keyptr), (keylen)))
/* Short chains: a lookup costs one or two cache misses, not five. */
#define HASH_BKT_CAPACITY_THRESH 4U
#include <uthash.h>

struct hd_table_node {
	UT_hash_handle hh;
	int64_t ikey;       /* storage for integer keys */
	uint32_t idx;
};

void hd_table_init(struct hd_table *t, struct hd_arena *arena)
{
	t->head = NULL;
	t->arena = arena;
}

static uint32_t table_put_bytes(struct hd_table *t, const void *key,
				size_t len, struct hd_table_node *node)
{
	struct hd_table_node *found = NULL;
	unsigned hashv;

	HASH_VALUE(key, len, hashv);
	HASH_FIND_BYHASHVALUE(hh, t->head, key, len, hashv, found);
	if (found)
		return found->idx;
	HASH_ADD_KEYPTR_BYHASHVALUE(hh, t->head, key, len, hashv, node);
	return HD_NONE;
}

uint32_t hd_table_put(struct hd_table *t, struct hd_slice key, uint32_t idx)
{
	struct hd_table_node *found = NULL;
	struct hd_table_node *node;
	const char *k = key.p ? key.p : "";
	unsigned hashv;

	HASH_VALUE(k, key.n, hashv);
	HASH_FIND_BYHASHVALUE(hh, t->head, k, key.n, hashv, found);
	if (found)
		return found->idx;
	node = hd_arena_alloc(t->arena, sizeof(*node));
	node->idx = idx;
	HASH_ADD_KEYPTR_BYHASHVALUE(hh, t->head, k, key.n, hashv, node);
	return HD_NONE;
}

uint32_t hd_table_get(const struct hd_table *t, struct hd_slice key)
{
	struct hd_table_node *found = NULL;
	const char *k = key.p ? key.p : "";

	HASH_FIND(hh, t->head, k, key.n, found);
	return found ? found->idx : HD_NONE;
}

uint32_t hd_table_put_i64(struct hd_table *t, int64_t key, uint32_t idx)
{
	struct hd_table_node *node = hd_arena_alloc(t->arena, sizeof(*node));
	uint32_t old;

	node->ikey = key;
	node->idx = idx;
	old = table_put_bytes(t, &node->ikey, sizeof(node->ikey), node);
	/* On a hit the node is simply left unused in the arena. */
	return old;
}

uint32_t hd_table_get_i64(const struct hd_table *t, int64_t key)
{
	struct hd_table_node *found = NULL;

	HASH_FIND(hh, t->head, &key, sizeof(key), found);
	return found ? found->idx : HD_NONE;
}

void hd_table_release(struct hd_table *t)
{
	/* Nodes belong to the arena; only uthash's bucket array is ours. */
	HASH_CLEAR(hh, t->head);
}
