/*
 * test_index.c - the flat hash index (src/index.c): hd_index_put and
 * hd_index_put_hashed file a key once and give back the record already
 * filed, hd_index_find finds every key through the doublings, and keys
 * that share a 32-bit hash (forced through put_hashed) are told apart
 * by their bytes.  hd_index_reserve makes the slots the puts one at a
 * time would reach, at once; hd_index_put_own files a record under its
 * own key, read only on a hash met.
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
	return 0;
}
