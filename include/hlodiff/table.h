/*
 * table.h - hash tables from a key to a uint32 index (uthash underneath).
 *
 * Keys are slices that must outlive the table (they point into the input
 * or the arena); nodes come from the arena given at init, so a table
 * never mallocs per entry.  uthash itself mallocs its bucket array, which
 * hd_table_release() frees.
 */
#ifndef HLODIFF_TABLE_H
#define HLODIFF_TABLE_H

#include <stdint.h>

#include "hlodiff/arena.h"
#include "hlodiff/slice.h"

#define HD_NONE UINT32_MAX

struct hd_table_node;

struct hd_table {
	struct hd_table_node *head;
	struct hd_arena *arena;
};

void hd_table_init(struct hd_table *t, struct hd_arena *arena);
/*
 * Inserts key -> idx unless the key is present.  Returns HD_NONE when it
 * inserted, else the index already stored (which is left unchanged).
 */
uint32_t hd_table_put(struct hd_table *t, struct hd_slice key, uint32_t idx);
/* Returns the index for key, or HD_NONE. */
uint32_t hd_table_get(const struct hd_table *t, struct hd_slice key);
/* Same for 64-bit integer keys (stored by value in the node). */
uint32_t hd_table_put_i64(struct hd_table *t, int64_t key, uint32_t idx);
uint32_t hd_table_get_i64(const struct hd_table *t, int64_t key);
void hd_table_release(struct hd_table *t);

#endif
