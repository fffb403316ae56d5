/*
 * arena.h - bump allocator for one run.
 *
 * Everything a parse or a diff builds (records, interned strings, tables)
 * comes from an arena and is released at once by hd_arena_release().
 * Allocation never fails silently: on out-of-memory the program prints a
 * message and exits 2 (an input too large for this machine is an input
 * error, not a crash).
 *
 * Growable arrays (struct hd_vec) live outside the arena: they double with
 * realloc, so their cost stays linear in the number of elements.
 */
#ifndef HLODIFF_ARENA_H
#define HLODIFF_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct hd_arena_block;

struct hd_arena {
	struct hd_arena_block *head; /* newest block */
	size_t total;                /* bytes reserved in all blocks */
};

#define HD_ARENA_INIT { NULL, 0 }

/* Returns zeroed memory of at least n bytes, aligned for any object. */
void *hd_arena_alloc(struct hd_arena *a, size_t n);
/* Copies n bytes into the arena, packed: no alignment, no NUL (for
 * many short strings kept as slices). */
const char *hd_arena_pack(struct hd_arena *a, const char *s, size_t n);
/* Copies n bytes into the arena and appends a NUL. */
char *hd_arena_strndup(struct hd_arena *a, const char *s, size_t n);
/* printf into the arena. */
char *hd_arena_printf(struct hd_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hd_arena_release(struct hd_arena *a);
/* A hint that about n more bytes will be asked for: a block of at least
 * n bytes is added now unless the newest has room for them, so that a
 * big arena is one block (2 MiB pages, hd_xmalloc) instead of a chain of
 * small ones faulted in 4 KiB at a time.  Only what is used is touched. */
void hd_arena_expect(struct hd_arena *a, size_t n);

/* malloc/realloc/calloc that exit 2 with a message on failure. */
void *hd_xmalloc(size_t n);
void *hd_xrealloc(void *p, size_t n);
void *hd_xcalloc(size_t count, size_t size);
/* n zeroed bytes aligned to align (a power of two, at least
 * sizeof(void *)), freed with free(): for structs that embed a type
 * aligned beyond malloc's 16 bytes, such as XXH3_state_t (64), which
 * the compiler may store to with aligned vector stores. */
void *hd_xzalloc_aligned(size_t align, size_t n);

/*
 * A growable array of fixed-size elements.  Invariant: data holds len
 * elements of elem bytes each, cap >= len.
 */
struct hd_vec {
	void *data;
	size_t len, cap, elem;
	size_t mapped;  /* bytes of address space reserved for data, 0 when
			   data is from malloc (see hd_vec_reserve) */
};

#define HD_VEC_INIT(type) { NULL, 0, 0, sizeof(type), 0 }

/* Appends one zeroed element and returns its address (valid until the
 * next push). */
void *hd_vec_push(struct hd_vec *v);
void hd_vec_reserve(struct hd_vec *v, size_t n);
void hd_vec_release(struct hd_vec *v);

/*
 * Room for n elements of elem bytes in the empty v, for an array of a
 * size known at once that will not grow (scratch of a sort or a match
 * pass), returned.  A big one is mapped at its size, rounded up to 2 MiB,
 * and backed by 2 MiB pages where the kernel can (one page fault where
 * 4 KiB pages take 512), without the address-space reservation of a
 * growing array; else, or where the mapping is refused, malloc.
 */
void *hd_vec_block(struct hd_vec *v, size_t elem, size_t n);
/* hd_vec_block, zeroed (a fresh mapping is zero already: only memory
 * from malloc is cleared). */
void *hd_vec_block_zeroed(struct hd_vec *v, size_t elem, size_t n);

/*
 * A hint for the empty v that it is expected to grow past the size at
 * which a growing array moves into a reservation of its own (see
 * hd_vec_reserve): the reservation is made now, so that the array never
 * grows through malloc (doublings copied, and 4 KiB pages faulted in
 * and given back on the way).  Nothing is touched, and nothing happens
 * where the reservation is refused or v is not empty.
 */
void hd_vec_expect(struct hd_vec *v);
#define HD_VEC_AT(v, type, i) (((type *)(v)->data)[i])

#endif
