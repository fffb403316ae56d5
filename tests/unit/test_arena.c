/*
 * test_arena.c - growable arrays (src/arena.c): every element pushed is
 * read back, zeroed on push, through the move of a big array into its
 * own address-space reservation (at 4 MiB) and its growth in place,
 * and with the reservation refused (address space limited), on malloc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "hlodiff/arena.h"
#include "tap/tap.h"

/* Arrays of this many bytes or more get a reservation (arena.c). */
#define BIG ((size_t)4 << 20)

/* Can a 64-bit process reserve 64 GiB of address space here? */
static int room_to_reserve(void)
{
	struct rlimit r;

	if (SIZE_MAX <= 0xffffffffu)
		return 0;
	return getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur == RLIM_INFINITY;
}

struct item {
	uint64_t a, b;
	uint32_t c;
};

/* Pushes n items, each zeroed on arrival, then filled from its index. */
static size_t push_items(struct hd_vec *v, size_t n)
{
	size_t i, not_zero = 0;

	for (i = 0; i < n; i++) {
		struct item *it = hd_vec_push(v);

		not_zero += it->a || it->b || it->c;
		it->a = i;
		it->b = ~(uint64_t)i;
		it->c = (uint32_t)(i * 7u);
	}
	return not_zero;
}

/* Items that do not hold what push_items wrote. */
static size_t wrong_items(const struct hd_vec *v)
{
	size_t i, bad = 0;

	for (i = 0; i < v->len; i++) {
		const struct item *it = &HD_VEC_AT(v, struct item, i);

		bad += it->a != i || it->b != ~(uint64_t)i ||
		       it->c != (uint32_t)(i * 7u);
	}
	return bad;
}

static void check(size_t n)
{
	struct hd_vec v = HD_VEC_INIT(struct item);
	size_t dirty = push_items(&v, n);

	is_int((long long)n, (long long)v.len, "%zu items: all kept", n);
	is_int(0, (long long)dirty, "%zu items: each zeroed when pushed", n);
	is_int(0, (long long)wrong_items(&v), "%zu items: read back", n);
	ok(v.cap >= v.len, "%zu items: capacity %zu holds them", n, v.cap);
	if (v.cap * sizeof(struct item) < BIG)
		is_int(0, (long long)v.mapped, "%zu items: a small array stays with malloc", n);
	else if (!room_to_reserve())
		skip("%zu items: address space limited, a big array may stay with malloc", n);
	else
		ok(v.mapped >= v.cap * sizeof(struct item),
		   "%zu items: a big array grows in its own reservation (%zu bytes)",
		   n, v.mapped);
	hd_vec_release(&v);
	ok(v.data == NULL && v.len == 0 && v.cap == 0 && v.mapped == 0,
	   "%zu items: released", n);
}

/* hd_vec_reserve on a big array, then pushes up to it: no move. */
static void check_reserve(void)
{
	struct hd_vec v = HD_VEC_INIT(struct item);
	const size_t n = 600000;
	void *before;

	hd_vec_reserve(&v, n);
	before = v.data;
	push_items(&v, n);
	ok(v.data == before, "reserved %zu items: pushing them does not move the array", n);
	is_int(0, (long long)wrong_items(&v), "reserved %zu items: read back", n);
	hd_vec_release(&v);
}

/*
 * hd_vec_block: a small block comes from malloc; a big one is mapped at
 * its size rounded up to 2 MiB (no reservation to grow in); both hold
 * every element written.
 */
static void check_block(size_t n)
{
	struct hd_vec v = HD_VEC_INIT(struct item);
	struct item *a = hd_vec_block(&v, sizeof(*a), n);
	size_t bytes = n * sizeof(*a), huge = (size_t)2 << 20, i, bad = 0;

	for (i = 0; i < n; i++)
		a[i] = (struct item){ i, ~(uint64_t)i, (uint32_t)i };
	for (i = 0; i < n; i++)
		bad += a[i].a != i || a[i].b != ~(uint64_t)i || a[i].c != (uint32_t)i;
	is_int(0, (long long)bad, "block of %zu items: read back", n);
	if (bytes < BIG)
		is_int(0, (long long)v.mapped, "block of %zu items: from malloc", n);
	else if (!room_to_reserve())
		skip("block of %zu items: address space limited", n);
	else
		is_int((long long)((bytes + huge - 1) / huge * huge), (long long)v.mapped,
		       "block of %zu items: mapped at its size in 2 MiB", n);
	hd_vec_release(&v);
}

/*
 * hd_vec_block_zeroed: every byte zero, from malloc (memory malloc had
 * before, dirtied here first) and from a fresh mapping alike.
 */
static void check_block_zeroed(size_t n)
{
	struct hd_vec v = HD_VEC_INIT(struct item);
	size_t bytes = n * sizeof(struct item), i, bad = 0;
	unsigned char *dirty = malloc(bytes), *a;

	if (dirty)
		memset(dirty, 0xa5, bytes);
	free(dirty);
	a = hd_vec_block_zeroed(&v, sizeof(struct item), n);
	for (i = 0; i < bytes; i++)
		bad += a[i] != 0;
	is_int(0, (long long)bad, "zeroed block of %zu items (%s): every byte 0",
	       n, v.mapped ? "mapped" : "malloc");
	hd_vec_release(&v);
}

/* Address space this process uses now, in bytes; 0 if unknown. */
static size_t address_space_now(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%lu", &pages) != 1)
		pages = 0;
	fclose(f);
	return (size_t)pages * 4096;
}

/*
 * With the address space limited to 1 GiB more than is in use, the
 * 64 GiB reservation is refused: a big array must stay with malloc and
 * keep every element.
 */
static void check_refused_reservation(void)
{
	struct hd_vec v = HD_VEC_INIT(struct item);
	const size_t n = 1500000;
	size_t now = address_space_now();
	struct rlimit old, lim;

	if (!now || getrlimit(RLIMIT_AS, &old) != 0) {
		skip("no /proc/self/statm or RLIMIT_AS: refused reservation");
		skip("no /proc/self/statm or RLIMIT_AS: refused reservation");
		return;
	}
	lim = old;
	lim.rlim_cur = now + ((size_t)1 << 30);
	if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur)
		lim.rlim_cur = old.rlim_cur;
	if (setrlimit(RLIMIT_AS, &lim) != 0) {
		skip("cannot set RLIMIT_AS: refused reservation");
		skip("cannot set RLIMIT_AS: refused reservation");
		return;
	}
	push_items(&v, n);
	is_int(0, (long long)v.mapped,
	       "address space limited: a %zu-item array stays with malloc", n);
	is_int(0, (long long)(wrong_items(&v) + (v.len != n)),
	       "address space limited: all %zu items kept", n);
	hd_vec_release(&v);
	setrlimit(RLIMIT_AS, &old);
}

/*
 * hd_xzalloc_aligned: aligned as asked and zeroed, for sizes that are
 * not a multiple of the alignment too (canon.c's structs embed an
 * XXH3_state_t, which needs 64).
 */
static void check_aligned(void)
{
	static const size_t sizes[] = { 0, 1, 63, 64, 65, 1000, 4096 + 7 };
	size_t i, k, misaligned = 0, nonzero = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = hd_xzalloc_aligned(64, sizes[i]);

		misaligned += ((uintptr_t)p & 63) != 0;
		for (k = 0; k < sizes[i]; k++)
			nonzero += p[k] != 0;
		memset(p, 0xa5, sizes[i]);
		free(p);
	}
	is_int(0, (long long)misaligned, "aligned allocations: all on 64 bytes");
	is_int(0, (long long)nonzero, "aligned allocations: all bytes zero");
}

/*
 * hd_vec_expect: an empty array reserved at once (where the address
 * space allows) takes pushes as any other, and one already holding
 * items is left as it is.
 */
static void check_expect(void)
{
	struct hd_vec v = HD_VEC_INIT(struct item);
	struct hd_vec w = HD_VEC_INIT(struct item);
	size_t dirty, n = 300000;

	hd_vec_expect(&v);
	if (room_to_reserve())
		ok(v.mapped > 0 && v.cap * sizeof(struct item) <= v.mapped,
		   "expected array: reserved at once (%zu bytes)", v.mapped);
	else
		skip("expected array: address space limited, it may stay with malloc");
	dirty = push_items(&v, n);
	is_int(0, (long long)dirty, "expected array: each item zeroed when pushed");
	is_int(0, (long long)wrong_items(&v), "expected array: %zu items read back", n);
	hd_vec_release(&v);
	push_items(&w, 10);
	{
		void *had = w.data;

		hd_vec_expect(&w);
		ok(w.data == had && w.mapped == 0 && w.len == 10,
		   "expected array with items: left as it was");
	}
	hd_vec_release(&w);
}

/*
 * hd_arena_expect and the big blocks of hd_xmalloc/hd_xcalloc: what
 * is packed after the hint reads back, the strings packed before it
 * stay; a big calloc is zero, a big malloc is usable to its end.
 */
static void check_big_blocks(void)
{
	struct hd_arena a = { 0 };
	const char *first = hd_arena_pack(&a, "before", 6), *p = NULL;
	size_t i, bad = 0, nonzero = 0;
	unsigned char *z;

	hd_arena_expect(&a, (size_t)8 << 20);
	for (i = 0; i < 100000; i++) {
		char s[16];
		int n = snprintf(s, sizeof(s), "name.%zu", i);

		p = hd_arena_pack(&a, s, (size_t)n);
		bad += memcmp(p, s, (size_t)n) != 0;
	}
	ok(bad == 0 && memcmp(first, "before", 6) == 0 && memcmp(p, "name.99999", 10) == 0,
	   "arena after an expected size: packed strings read back");
	hd_arena_release(&a);

	z = hd_xcalloc(3 << 20, 1);
	for (i = 0; i < ((size_t)3 << 20); i++)
		nonzero += z[i] != 0;
	is_int(0, (long long)nonzero, "big calloc: all bytes zero");
	memset(z, 0xa5, (size_t)3 << 20);
	free(z);
	z = hd_xmalloc(((size_t)5 << 20) + 3);
	memset(z, 0x5a, ((size_t)5 << 20) + 3);
	ok(z[0] == 0x5a && z[((size_t)5 << 20) + 2] == 0x5a, "big malloc: usable to its last byte");
	free(z);
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 16, 17, 1000, 262144, 262145, 1500000 };
	size_t i;

	plan(6 * (int)(sizeof(sizes) / sizeof(sizes[0])) + 4 + 2 * 3 + 2 + 2 + 4 + 3);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check(sizes[i]);
	check_block(1000);
	check_block(262144);
	check_block(1000001);
	check_block_zeroed(1000);
	check_block_zeroed(1000001);
	check_reserve();
	check_refused_reservation();
	check_aligned();
	check_expect();
	check_big_blocks();
	return 0;
}
