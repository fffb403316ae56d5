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

/* Files idx under the len bytes at key unless they are present: HD_NONE,
 * or the index already filed.  node holds the key when it is the node's
 * own (ikey); NULL: a node is made for a key that is new. */
static uint32_t table_put_bytes(struct hd_table *t, const void *key,
				size_t len, struct hd_table_node *node,
				uint32_t idx)
{
	struct hd_table_node *found = NULL;
	unsigned hashv;

	HASH_VALUE(key, len, hashv);
	HASH_FIND_BYHASHVALUE(hh, t->head, key, len, hashv, found);
	if (found)
		return found->idx;
	if (!node)
		node = hd_arena_alloc(t->arena, sizeof(*node));
	node->idx = idx;
	HASH_ADD_KEYPTR_BYHASHVALUE(hh, t->head, key, len, hashv, node);
	return HD_NONE;
}

static uint32_t table_get_bytes(const struct hd_table *t, const void *key,
				size_t len)
{
	struct hd_table_node *found = NULL;

	HASH_FIND(hh, t->head, key, len, found);
	return found ? found->idx : HD_NONE;
}

uint32_t hd_table_put(struct hd_table *t, struct hd_slice key, uint32_t idx)
{
	return table_put_bytes(t, key.p ? key.p : "", key.n, NULL, idx);
}

uint32_t hd_table_get(const struct hd_table *t, struct hd_slice key)
{
	return table_get_bytes(t, key.p ? key.p : "", key.n);
}

uint32_t hd_table_put_i64(struct hd_table *t, int64_t key, uint32_t idx)
{
	struct hd_table_node *node = hd_arena_alloc(t->arena, sizeof(*node));

	node->ikey = key;
	/* On a hit the node is simply left unused in the arena. */
	return table_put_bytes(t, &node->ikey, sizeof(node->ikey), node, idx);
}

uint32_t hd_table_get_i64(const struct hd_table *t, int64_t key)
{
	return table_get_bytes(t, &key, sizeof(key));
}

void hd_table_release(struct hd_table *t)
{
	/* Nodes belong to the arena; only uthash's bucket array is ours. */
	HASH_CLEAR(hh, t->head);
}
