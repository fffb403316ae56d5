/*
 * test_index.c - the flat hash index (src/index.c): hd_index_put and
 * hd_index_put_hashed file a key once and give back the record already
 * filed, hd_index_find finds every key through the doublings, and keys
 * that share a 32-bit hash (forced through put_hashed) are told apart
 * by their bytes.  hd_index_reserve makes the slots the puts one at a
 * time would reach, at once; hd_index_put_own files a record under its
 * own key, read only on a hash met.  hd_index_put64 and hd_index_find64
 * file and find records by a 64-bit key, told apart by the whole key
 * when their folded hashes collide; hd_index_reset empties an index for
 * another pass, in its memory when that is enough.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hlodiff/index.h"
#include "tap/tap.h"

#define N 5000

static char names[N][16];

static struct hd_slice key_of(const void *ctx, uint32_t idx)
{
	(void)ctx;
	return hd_slice_make(names[idx], strlen(names[idx]));
}

static struct hd_slice name(uint32_t i)
{
	return key_of(NULL, i);
}

static uint64_t keys64[N];

static uint64_t key64_of(const void *ctx, uint32_t idx)
{
	return ((const uint64_t *)ctx)[idx];
}

/* put64 and find64 through the doublings, and keys of one hash. */
static void check_key64(void)
{
	struct hd_index x = HD_INDEX_INIT;
	uint32_t i, bad_put = 0, bad_find = 0, bad_again = 0;

	for (i = 0; i < N; i++)
		keys64[i] = (i + 1) * 0x9e3779b97f4a7c15u;
	for (i = 0; i < N; i++)
		bad_put += hd_index_put64(&x, keys64[i], i, key64_of,
					  keys64) != HD_NONE;
	is_int(bad_put, 0, "put64: every new key filed");
	is_int(x.count, N, "put64: one entry each");
	ok(hd_index_mask(&x) + 1 >= N * 10 / 7, "put64 grows the slots");
	for (i = 0; i < N; i++) {
		bad_find += hd_index_find64(&x, keys64[i], key64_of, keys64) != i;
		bad_again += hd_index_put64(&x, keys64[i], N + i, key64_of,
					    keys64) != i;
	}
	is_int(bad_find, 0, "find64 finds every key after the doublings");
	is_int(bad_again, 0, "put64 of a filed key gives its record");
	is_int(x.count, N, "and files nothing");
	is_int(hd_index_find64(&x, 12345, key64_of, keys64), HD_NONE,
	       "find64: an absent key is not found");
	hd_index_release(&x);

	/* (i << 32) | i folds to hash 0, low 32 bits apart or not */
	for (i = 0; i < 100; i++)
		keys64[i] = (uint64_t)i << 32 | i;
	keys64[100] = (uint64_t)7 << 32 | 5;
	keys64[101] = (uint64_t)9 << 32 | 5;
	is_int(hd_index_hash64(keys64[3]), hd_index_hash64(keys64[99]),
	       "keys (i << 32) | i share a hash");
	for (i = 0, bad_put = 0; i < 102; i++)
		bad_put += hd_index_put64(&x, keys64[i], i, key64_of,
					  keys64) != HD_NONE;
	is_int(bad_put, 0, "keys of one hash, or of one low half, filed");
	for (i = 0, bad_find = 0; i < 102; i++)
		bad_find += hd_index_find64(&x, keys64[i], key64_of, keys64) != i;
	is_int(bad_find, 0, "and found by the whole key");
	is_int(hd_index_find64(&x, (uint64_t)100 << 32 | 100, key64_of,
			       keys64), HD_NONE,
	       "an absent key of the shared hash is not found");

	/* reset: emptied, sized for the pass, in the same memory */
	{
		const void *mem = x.slots;
		uint32_t big;

		hd_index_reset(&x, 10);
		is_int(x.count, 0, "reset empties the index");
		is_int(hd_index_mask(&x) + 1, 256, "sized for 10: the least");
		ok(x.slots == mem, "in the memory it had");
		is_int(hd_index_find64(&x, keys64[5], key64_of, keys64), HD_NONE,
		       "a key filed before the reset is not found");
		is_int(hd_index_put64(&x, keys64[5], 5, key64_of, keys64),
		       HD_NONE, "and is filed again");
		is_int(hd_index_find64(&x, keys64[5], key64_of, keys64), 5,
		       "then found");
		is_int(x.count, 1, "alone");
		hd_index_reset(&x, N);
		big = hd_index_mask(&x) + 1;
		ok(big >= N * 10 / 7 && big < 2 * N * 10 / 7,
		   "reset to more entries makes their slots");
		is_int(x.count, 0, "empty");
		is_int(hd_index_find64(&x, keys64[5], key64_of, keys64), HD_NONE,
		       "with nothing found");
	}
	hd_index_release(&x);
}

int main(void)
{
	struct hd_index x = HD_INDEX_INIT;
	uint32_t i, bad_put = 0, bad_find = 0, bad_again = 0;

	plan_lazy();
	for (i = 0; i < N; i++)
		snprintf(names[i], sizeof(names[i]), "v.%u", i);

	/* even records by key, odd ones with their hash given */
	for (i = 0; i < N; i++) {
		uint32_t r = (i & 1) ?
			hd_index_put_hashed(&x, hd_index_hash(name(i)), name(i), i,
					    key_of, NULL) :
			hd_index_put(&x, name(i), i, key_of, NULL);
		bad_put += r != HD_NONE;
	}
	is_int(x.count, N, "every new key is filed");
	is_int(bad_put, 0, "no new key reported present");
	for (i = 0; i < N; i++) {
		bad_find += hd_index_find(&x, hd_index_hash(name(i)), name(i),
					  key_of, NULL) != i;
		bad_again += hd_index_put_hashed(&x, hd_index_hash(name(i)), name(i),
						 N + i, key_of, NULL) != i;
	}
	is_int(bad_find, 0, "every key found after the doublings");
	is_int(bad_again, 0, "a key filed again gives the record already filed");
	is_int(x.count, N, "and leaves the index unchanged");
	is_int(hd_index_find(&x, hd_index_hash(hd_slice_make("v.x", 3)),
			     hd_slice_make("v.x", 3), key_of, NULL), HD_NONE,
	       "an absent key is not found");
	hd_index_release(&x);

	/* one hash for all: only the bytes tell the keys apart */
	for (i = 0, bad_put = 0; i < 100; i++)
		bad_put += hd_index_put_hashed(&x, 7, name(i), i, key_of,
					       NULL) != HD_NONE;
	is_int(bad_put, 0, "keys of one hash filed");
	for (i = 0, bad_find = 0; i < 100; i++)
		bad_find += hd_index_find(&x, 7, name(i), key_of, NULL) != i;
	is_int(bad_find, 0, "keys of one hash found by their bytes");
	is_int(hd_index_put_hashed(&x, 7, name(42), 500, key_of, NULL), 42,
	       "a present key under a shared hash is found, not filed again");
	is_int(hd_index_find(&x, 7, name(100), key_of, NULL), HD_NONE,
	       "an absent key under a shared hash is not found");
	hd_index_release(&x);

	/* the same slots as the doublings, made at once */
	for (i = 0; i < N; i++)
		hd_index_put(&x, name(i), i, key_of, NULL);
	{
		struct hd_index y = HD_INDEX_INIT;

		hd_index_reserve(&y, N);
		is_int(hd_index_mask(&y), hd_index_mask(&x),
		       "reserve makes the slots the puts grow to");
		is_int(y.count, 0, "and files nothing");
		for (i = 0, bad_put = 0; i < N; i++)
			bad_put += hd_index_put_own(&y, hd_index_hash(name(i)), i,
						    key_of, NULL) != HD_NONE;
		is_int(bad_put, 0, "put_own files new keys");
		is_int(hd_index_mask(&y), hd_index_mask(&x), "without a doubling");
		for (i = 0, bad_find = 0; i < N; i++)
			bad_find += hd_index_find(&y, hd_index_hash(name(i)), name(i),
						  key_of, NULL) != i;
		is_int(bad_find, 0, "every key found after put_own");
		hd_index_reserve(&y, 10);
		is_int(hd_index_mask(&y), hd_index_mask(&x),
		       "reserving less than there is changes nothing");
		hd_index_release(&y);
	}
	hd_index_release(&x);

	/* put_own under one hash: the keys compared are the records' own */
	memcpy(names[N - 1], names[3], sizeof(names[3]));
	for (i = 0, bad_put = 0; i < 10; i++)
		bad_put += hd_index_put_own(&x, 9, i, key_of, NULL) != HD_NONE;
	is_int(bad_put, 0, "put_own: keys of one hash filed");
	is_int(hd_index_put_own(&x, 9, N - 1, key_of, NULL), 3,
	       "put_own: a record whose key is filed gives the record filed");
	is_int(x.count, 10, "and is not filed");
	hd_index_release(&x);
	check_key64();
	return 0;
}
