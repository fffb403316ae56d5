/*
 * arena.c - bump allocator and growable arrays.
 */
#include "hlodiff/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hlodiff/diag.h"

#define ARENA_MIN_BLOCK (256 * 1024)
#define ARENA_ALIGN 16

struct hd_arena_block {
	struct hd_arena_block *prev;
	size_t used, cap;
	/* data follows, aligned */
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

static void out_of_memory(size_t n)
{
	hd_die("out of memory (asked for %zu bytes)", n);
}

/*
 * A big block from malloc (BIG_FROM bytes or more) is fresh memory,
 * most often a mapping of its own, that the kernel backs with 4 KiB
 * pages: a page fault per 4 KiB on first touch.  Asking for 2 MiB pages
 * on the whole 2 MiB steps inside it (the edges keep 4 KiB pages) makes
 * that one fault per 2 MiB where the block is still untouched, which
 * matters for the large tables of the hashing after a load (canon.c).
 * A hint only: the memory is the same, and free() gives it back.
 */
#define BIG_FROM ((size_t)2 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void *advise_big(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);

	if (n >= BIG_FROM && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)n;
#endif
	return p;
}

/*
 * A big block (BIG_FROM bytes or more) that is not grown by realloc
 * later is placed at a 2 MiB boundary, so that all of its whole 2 MiB
 * steps can take 2 MiB pages (from plain malloc, a mapping starts just
 * past a 4 KiB page, and a block of under 4 MiB often had no whole
 * aligned step at all: its pages faulted in 4 KiB at a time).  The
 * address space skipped before the boundary is never touched; free()
 * takes the block as from malloc.  NULL when refused.
 */
static void *alloc_big(size_t n)
{
	size_t size;
	void *p;

	if (n > SIZE_MAX - HUGE_PAGE)
		return NULL;
	size = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	p = aligned_alloc(HUGE_PAGE, size);
	return p ? advise_big(p, size) : NULL;
}

void *hd_xmalloc(size_t n)
{
	void *p = n >= BIG_FROM ? alloc_big(n) : malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *hd_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return advise_big(q, n);
}

void *hd_xcalloc(size_t count, size_t size)
{
	size_t n;
	void *p;

	if (!__builtin_mul_overflow(count, size, &n) && n >= BIG_FROM) {
		/* a fresh mapping's pages come zeroed from the kernel;
		 * memory malloc had before is zeroed here */
		p = alloc_big(n);
		if (!p)
			out_of_memory(n);
		memset(p, 0, n);
		return p;
	}
	p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return advise_big(p, count * size);
}

void *hd_xzalloc_aligned(size_t align, size_t n)
{
	size_t size = (n + align - 1) & ~(align - 1);
	void *p;

	if (size < n)
		out_of_memory(n);
	p = aligned_alloc(align, size ? size : align);
	if (!p)
		out_of_memory(n);
	memset(p, 0, size ? size : align);
	return p;
}

/* Adds a block able to hold at least n bytes. */
static struct hd_arena_block *arena_grow(struct hd_arena *a, size_t n)
{
	size_t cap = ARENA_MIN_BLOCK;
	struct hd_arena_block *b;

	/* Blocks double with the arena so the block count stays logarithmic. */
	if (a->total / 2 > cap)
		cap = a->total / 2;
	if (cap > (size_t)64 << 20)
		cap = (size_t)64 << 20;
	if (n > cap)
		cap = n;
	if (cap > SIZE_MAX - sizeof(*b))
		out_of_memory(n);
	/* hd_xmalloc: a big block gets 2 MiB pages (advise_big) */
	b = hd_xmalloc(sizeof(*b) + cap);
	b->prev = a->head;
	b->used = 0;
	b->cap = cap;
	a->head = b;
	a->total += cap;
	return b;
}

void *hd_arena_alloc(struct hd_arena *a, size_t n)
{
	struct hd_arena_block *b = a->head;
	size_t need;
	void *p;

	if (n > SIZE_MAX - ARENA_ALIGN)
		out_of_memory(n);
	need = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (b)
		b->used = (b->used + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (!b || b->used > b->cap || b->cap - b->used < need)
		b = arena_grow(a, need);
	p = b->data + b->used;
	b->used += need;
	memset(p, 0, n);
	return p;
}

void hd_arena_expect(struct hd_arena *a, size_t n)
{
	struct hd_arena_block *b = a->head;

	if (n > SIZE_MAX - ARENA_ALIGN)
		return;
	if (!b || b->used > b->cap || b->cap - b->used < n)
		arena_grow(a, n);
}

const char *hd_arena_pack(struct hd_arena *a, const char *s, size_t n)
{
	struct hd_arena_block *b = a->head;
	char *p;

	if (n == 0)
		return "";
	if (!b || b->cap - b->used < n)
		b = arena_grow(a, n);
	p = (char *)b->data + b->used;
	b->used += n;
	memcpy(p, s, n);
	return p;
}

char *hd_arena_strndup(struct hd_arena *a, const char *s, size_t n)
{
	char *p = hd_arena_alloc(a, n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *hd_arena_printf(struct hd_arena *a, const char *fmt, ...)
{
	va_list ap;
	int len;
	char *p;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		HD_BUG("vsnprintf failed");
	p = hd_arena_alloc(a, (size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return p;
}

void hd_arena_release(struct hd_arena *a)
{
	struct hd_arena_block *b = a->head;

	while (b) {
		struct hd_arena_block *prev = b->prev;
		free(b);
		b = prev;
	}
	a->head = NULL;
	a->total = 0;
}

/*
 * A big array (VEC_MAP_FROM bytes or more) moves once into its own
 * reservation of VEC_MAP_SPAN bytes of address space, where it grows in
 * place: no more copies or remaps, and the kernel may back it with 2 MiB
 * pages (MADV_HUGEPAGE), which takes one page fault where 4 KiB pages
 * take 512: the model of a large dump is written once, front to back,
 * so its faults are a large part of a parse.  Only touched pages count
 * (MAP_NORESERVE); where the reservation is refused (strict overcommit,
 * a small address space), the array stays with malloc.
 */
#define VEC_MAP_FROM ((size_t)2 << 20)
#if SIZE_MAX > 0xffffffffu
#define VEC_MAP_SPAN ((size_t)64 << 30)
#else
#define VEC_MAP_SPAN ((size_t)0)  /* 32-bit: too little address space */
#endif

/* span bytes of address space for big arrays (2 MiB pages where the
 * kernel can), or NULL.  Always a fresh mapping, never one given back
 * and reused: what lies past an array's length there reads as zeros,
 * which parse.c's PUSH relies on (it does not zero big records). */
static void *map_span(size_t span)
{
	void *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, span, MADV_HUGEPAGE);
#endif
	return p;
}

/* Moves malloc'd v into a reservation if bytes call for one; 0 if not. */
static int vec_map(struct hd_vec *v, size_t bytes)
{
	void *p;

	if (bytes < VEC_MAP_FROM || bytes > VEC_MAP_SPAN)
		return 0;
	p = map_span(VEC_MAP_SPAN);
	if (!p)
		return 0;
	if (v->len)
		memcpy(p, v->data, v->len * v->elem);
	free(v->data);
	v->data = p;
	v->mapped = VEC_MAP_SPAN;
	return 1;
}

void hd_vec_reserve(struct hd_vec *v, size_t n)
{
	size_t cap;

	if (n <= v->cap)
		return;
	cap = v->cap ? v->cap : 16;
	while (cap < n) {
		if (cap > SIZE_MAX / 2)
			out_of_memory(n);
		cap *= 2;
	}
	if (v->elem && cap > SIZE_MAX / v->elem)
		out_of_memory(cap);
	if (v->mapped) {
		if (cap * v->elem > v->mapped)
			out_of_memory(cap * v->elem);
	} else if (!vec_map(v, cap * v->elem)) {
		v->data = hd_xrealloc(v->data, cap * v->elem);
	}
	v->cap = cap;
}

void hd_vec_expect(struct hd_vec *v)
{
	/* vec_map moves the (empty) array into a reservation as growing
	 * past VEC_MAP_FROM bytes would */
	if (!v->data && v->elem && vec_map(v, VEC_MAP_FROM))
		v->cap = VEC_MAP_SPAN / v->elem;
}

void *hd_vec_block(struct hd_vec *v, size_t elem, size_t n)
{
	size_t huge = (size_t)2 << 20, bytes;

	v->elem = elem;
	if (elem && n > SIZE_MAX / elem)
		out_of_memory(n);
	bytes = n * elem;
	if (!v->data && elem && bytes >= VEC_MAP_FROM && bytes <= VEC_MAP_SPAN) {
		size_t span = (bytes + huge - 1) & ~(huge - 1);
		void *p = map_span(span);

		if (p) {
			v->data = p;
			v->mapped = span;
			v->cap = span / elem;
			return p;
		}
	}
	hd_vec_reserve(v, n);
	return v->data;
}

void *hd_vec_block_zeroed(struct hd_vec *v, size_t elem, size_t n)
{
	void *p = hd_vec_block(v, elem, n);

	if (!v->mapped)
		memset(p, 0, n * elem);
	return p;
}

void *hd_vec_push(struct hd_vec *v)
{
	void *p;

	if (v->len == v->cap)
		hd_vec_reserve(v, v->len + 1);
	p = (char *)v->data + v->len * v->elem;
	memset(p, 0, v->elem);
	v->len++;
	return p;
}

void hd_vec_release(struct hd_vec *v)
{
	if (v->mapped)
		munmap(v->data, v->mapped);
	else
		free(v->data);
	v->mapped = 0;
	v->data = NULL;
	v->len = v->cap = 0;
}
