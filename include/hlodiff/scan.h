/*
 * scan.h - scanning text 16 bytes at a time, the one place that knows
 * the vector instructions.
 *
 * The scanners of the parser, the canonical hashing and the JSON writer
 * classify blocks of 16 bytes into bit masks (bit k: byte k of the
 * block) and take the bits in order, so plain bytes cost a few
 * instructions per block, not per byte.  They do it through hd_v16 and
 * the hd_v_* operations below: SSE2 where the compiler targets it, else
 * the portable hd_p_* operations, which compute the same bytes with
 * loops (tests/unit/test_scan.c checks one against the other).  The
 * hd_p_* operations are always defined as that reference.
 *
 * A vector's byte is 0xff where a test holds, 0 where it does not;
 * hd_v_mask gathers the top bits.  Loads read 16 bytes at p: a caller
 * that scans near the end of its input checks that they are readable.
 */
#ifndef HLODIFF_SCAN_H
#define HLODIFF_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hlodiff/bytes.h"
#include "hlodiff/slice.h"

/* ---- the portable operations (the reference) ---------------------- */

typedef struct {
	unsigned char b[16];
} hd_p16;

static inline hd_p16 hd_p_load(const char *p)
{
	hd_p16 x;

	memcpy(x.b, p, 16);
	return x;
}

static inline void hd_p_store(char *o, hd_p16 x)
{
	memcpy(o, x.b, 16);
}

/* Bytes 0-7 from lo, 8-15 from hi, little-endian. */
static inline hd_p16 hd_p_from64(uint64_t lo, uint64_t hi)
{
	hd_p16 x;
	int k;

	for (k = 0; k < 8; k++) {
		x.b[k] = (unsigned char)(lo >> (8 * k));
		x.b[k + 8] = (unsigned char)(hi >> (8 * k));
	}
	return x;
}

static inline hd_p16 hd_p_test(const unsigned char *t)
{
	hd_p16 x;
	int k;

	for (k = 0; k < 16; k++)
		x.b[k] = t[k] ? 0xff : 0;
	return x;
}

static inline hd_p16 hd_p_eq(hd_p16 x, char c)
{
	unsigned char t[16];
	int k;

	for (k = 0; k < 16; k++)
		t[k] = x.b[k] == (unsigned char)c;
	return hd_p_test(t);
}

/* Bytes in [lo, hi] as unsigned bytes. */
static inline hd_p16 hd_p_in_range(hd_p16 x, char lo, char hi)
{
	unsigned char t[16];
	int k;

	for (k = 0; k < 16; k++)
		t[k] = x.b[k] >= (unsigned char)lo && x.b[k] <= (unsigned char)hi;
	return hd_p_test(t);
}

/* Name bytes (hd_name_char). */
static inline hd_p16 hd_p_name(hd_p16 x)
{
	unsigned char t[16];
	int k;

	for (k = 0; k < 16; k++)
		t[k] = hd_name_char[x.b[k]];
	return hd_p_test(t);
}

/* Bytes where a and b agree. */
static inline hd_p16 hd_p_same(hd_p16 a, hd_p16 b)
{
	unsigned char t[16];
	int k;

	for (k = 0; k < 16; k++)
		t[k] = a.b[k] == b.b[k];
	return hd_p_test(t);
}

static inline hd_p16 hd_p_or(hd_p16 a, hd_p16 b)
{
	int k;

	for (k = 0; k < 16; k++)
		a.b[k] |= b.b[k];
	return a;
}

static inline hd_p16 hd_p_and(hd_p16 a, hd_p16 b)
{
	int k;

	for (k = 0; k < 16; k++)
		a.b[k] &= b.b[k];
	return a;
}

/* ~a & b */
static inline hd_p16 hd_p_andnot(hd_p16 a, hd_p16 b)
{
	int k;

	for (k = 0; k < 16; k++)
		a.b[k] = (unsigned char)(~a.b[k] & b.b[k]);
	return a;
}

/* Every byte or'ed (and'ed) with c: folds byte classes before a
 * compare ('[' | 0x20 is '{'). */
static inline hd_p16 hd_p_or_byte(hd_p16 x, char c)
{
	int k;

	for (k = 0; k < 16; k++)
		x.b[k] |= (unsigned char)c;
	return x;
}

static inline hd_p16 hd_p_and_byte(hd_p16 x, char c)
{
	int k;

	for (k = 0; k < 16; k++)
		x.b[k] &= (unsigned char)c;
	return x;
}

/* The smaller of each two bytes, unsigned. */
static inline hd_p16 hd_p_min(hd_p16 a, hd_p16 b)
{
	int k;

	for (k = 0; k < 16; k++)
		if (b.b[k] < a.b[k])
			a.b[k] = b.b[k];
	return a;
}

/* Bit k: the top bit of byte k. */
static inline unsigned hd_p_mask(hd_p16 x)
{
	unsigned m = 0;
	int k;

	for (k = 0; k < 16; k++)
		m |= (unsigned)(x.b[k] >> 7) << k;
	return m;
}

/* ---- the operations the scanners use ------------------------------ */

#ifdef __SSE2__
#include <emmintrin.h>

#define HD_SCAN_SSE2 1

typedef __m128i hd_v16;

static inline hd_v16 hd_v_load(const char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static inline void hd_v_store(char *o, hd_v16 x)
{
	_mm_storeu_si128((__m128i *)(void *)o, x);
}

static inline hd_v16 hd_v_from64(uint64_t lo, uint64_t hi)
{
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

static inline hd_v16 hd_v_eq(hd_v16 x, char c)
{
	return _mm_cmpeq_epi8(x, _mm_set1_epi8(c));
}

/* Signed compare after moving lo to -128. */
static inline hd_v16 hd_v_in_range(hd_v16 x, char lo, char hi)
{
	__m128i y = _mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - (unsigned char)lo)));

	return _mm_cmplt_epi8(y, _mm_set1_epi8(
		(char)(-128 + ((unsigned char)hi - (unsigned char)lo) + 1)));
}

/* [0-9], [a-z] after folding case with | 0x20, [-.], '_'. */
static inline hd_v16 hd_v_name(hd_v16 x)
{
	return _mm_or_si128(
		_mm_or_si128(hd_v_in_range(x, '0', '9'),
			     hd_v_in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 'z')),
		_mm_or_si128(hd_v_in_range(x, '-', '.'), hd_v_eq(x, '_')));
}

static inline hd_v16 hd_v_same(hd_v16 a, hd_v16 b)
{
	return _mm_cmpeq_epi8(a, b);
}

static inline hd_v16 hd_v_or(hd_v16 a, hd_v16 b)
{
	return _mm_or_si128(a, b);
}

static inline hd_v16 hd_v_and(hd_v16 a, hd_v16 b)
{
	return _mm_and_si128(a, b);
}

static inline hd_v16 hd_v_andnot(hd_v16 a, hd_v16 b)
{
	return _mm_andnot_si128(a, b);
}

static inline hd_v16 hd_v_or_byte(hd_v16 x, char c)
{
	return _mm_or_si128(x, _mm_set1_epi8(c));
}

static inline hd_v16 hd_v_and_byte(hd_v16 x, char c)
{
	return _mm_and_si128(x, _mm_set1_epi8(c));
}

static inline hd_v16 hd_v_min(hd_v16 a, hd_v16 b)
{
	return _mm_min_epu8(a, b);
}

static inline unsigned hd_v_mask(hd_v16 x)
{
	return (unsigned)_mm_movemask_epi8(x);
}

#else

#define HD_SCAN_SSE2 0

typedef hd_p16 hd_v16;

#define hd_v_load hd_p_load
#define hd_v_store hd_p_store
#define hd_v_from64 hd_p_from64
#define hd_v_eq hd_p_eq
#define hd_v_in_range hd_p_in_range
#define hd_v_name hd_p_name
#define hd_v_same hd_p_same
#define hd_v_or hd_p_or
#define hd_v_and hd_p_and
#define hd_v_andnot hd_p_andnot
#define hd_v_or_byte hd_p_or_byte
#define hd_v_and_byte hd_p_and_byte
#define hd_v_min hd_p_min
#define hd_v_mask hd_p_mask

#endif

/* ---- scanners built on them ---------------------------------------- */

/* Mask of the bytes of the 16 at p that equal c. */
static inline unsigned hd_scan_eq_mask(const char *p, char c)
{
	return hd_v_mask(hd_v_eq(hd_v_load(p), c));
}

/* Mask of the bytes of the 16 at p that are not name bytes. */
static inline unsigned hd_scan_not_name_mask(const char *p)
{
	return hd_v_mask(hd_v_name(hd_v_load(p))) ^ 0xffffu;
}

/*
 * The length of the run of name bytes (hd_name_char) at p[0, n).  Whole
 * blocks inside p[0, n), then the last bytes in one more block when the
 * input, which ends at limit, holds 16 bytes there (the bytes past n
 * masked), else byte by byte.
 */
static inline size_t hd_scan_name_span(const char *p, size_t n,
				       const char *limit)
{
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		unsigned m = hd_scan_not_name_mask(p + i);

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	if (i < n && limit - (p + i) >= 16)
		return i + (size_t)__builtin_ctz(hd_scan_not_name_mask(p + i) |
						 (0xffffu << (n - i)));
	while (i < n && hd_name_char[(unsigned char)p[i]])
		i++;
	return i;
}

/*
 * The first byte of p[i, n) that is c1 or c2, or n: blocks as
 * hd_scan_name_span reads them (limit the end of the readable input).
 */
static inline size_t hd_scan_either(const char *p, size_t n, size_t i,
				    char c1, char c2, const char *limit)
{
	for (; i + 16 <= n; i += 16) {
		hd_v16 x = hd_v_load(p + i);
		unsigned m = hd_v_mask(hd_v_or(hd_v_eq(x, c1), hd_v_eq(x, c2)));

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	if (i < n && limit - (p + i) >= 16) {
		hd_v16 x = hd_v_load(p + i);
		unsigned m = hd_v_mask(hd_v_or(hd_v_eq(x, c1), hd_v_eq(x, c2))) &
			     ((1u << (n - i)) - 1);

		return m ? i + (size_t)__builtin_ctz(m) : n;
	}
	while (i < n && p[i] != c1 && p[i] != c2)
		i++;
	return i;
}

/*
 * The first '\n' or '\0' in [p, end), NULL when there is neither: the
 * end of a line, or a NUL byte before it (so the line scan is the NUL
 * check too).  The first 32 bytes (where most lines end), then 64-byte
 * runs (one test for four blocks: instruction lines run to hundreds of
 * bytes), then 16-byte blocks, then byte by byte.  The first two stages
 * test a byte by an AND with 0xf5, zero for '\n' and NUL and only 0x02
 * and 0x08 besides (no compare with each): a byte found so is looked
 * at, a 64-byte run that has one is left to the 16-byte blocks.
 */
static inline __attribute__((always_inline)) const char *
hd_scan_line_end(const char *p, const char *end)
{
	const hd_v16 zero = hd_v_from64(0, 0);

	if (end - p >= 32) {
		unsigned mask =
			hd_v_mask(hd_v_same(hd_v_and_byte(hd_v_load(p), (char)0xf5), zero)) |
			hd_v_mask(hd_v_same(hd_v_and_byte(hd_v_load(p + 16), (char)0xf5),
					    zero)) << 16;

		for (; mask; mask &= mask - 1) {
			const char *c = p + __builtin_ctz(mask);

			if (*c == '\n' || *c == '\0')
				return c;
		}
		p += 32;
	}
	for (; end - p >= 64; p += 64) {
		hd_v16 c0 = hd_v_and_byte(hd_v_load(p), (char)0xf5);
		hd_v16 c1 = hd_v_and_byte(hd_v_load(p + 16), (char)0xf5);
		hd_v16 c2 = hd_v_and_byte(hd_v_load(p + 32), (char)0xf5);
		hd_v16 c3 = hd_v_and_byte(hd_v_load(p + 48), (char)0xf5);
		hd_v16 all = hd_v_min(hd_v_min(c0, c1), hd_v_min(c2, c3));

		if (hd_v_mask(hd_v_same(all, zero)))
			break;
	}
	for (; end - p >= 16; p += 16) {
		hd_v16 b = hd_v_load(p);
		unsigned mask = hd_v_mask(hd_v_or(hd_v_eq(b, '\n'), hd_v_eq(b, '\0')));

		if (mask)
			return p + __builtin_ctz(mask);
	}
	for (; p < end; p++)
		if (*p == '\n' || *p == '\0')
			return p;
	return NULL;
}

/*
 * The index just past the string whose opening quote is p[i], or n when
 * it does not close: a '"' closes it when an even number of backslashes
 * precede it.
 */
size_t hd_scan_string_end(const char *p, size_t n, size_t i);

/* Do the n bytes at a and b agree?  From 16 bytes on, block by block,
 * the last block ending at n; hd_bytes_eq below. */
static inline int hd_scan_same(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n < 16)
		return hd_bytes_eq(a, b, n);
	for (i = 0; i + 16 < n; i += 16)
		if (hd_v_mask(hd_v_same(hd_v_load(a + i), hd_v_load(b + i))) != 0xffff)
			return 0;
	return hd_v_mask(hd_v_same(hd_v_load(a + n - 16),
				   hd_v_load(b + n - 16))) == 0xffff;
}

#endif
