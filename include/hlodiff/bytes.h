/*
 * bytes.h - byte classes the parser and canonical hashing share: the
 * bytes of HLO names as a table, and with SSE2 (where the compiler
 * targets it) the same classes for 16 bytes at a time, as vectors whose
 * bytes are 0xff where the class holds (_mm_movemask_epi8 makes a bit
 * mask of them).  And a copy of a few bytes without a call, for writers
 * of many short pieces (canonical texts, JSON).
 */
#ifndef HLODIFF_BYTES_H
#define HLODIFF_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 1 for the bytes of HLO names, [A-Za-z0-9_.-] */
extern const unsigned char hd_name_char[256];

#ifdef __SSE2__
#include <emmintrin.h>

static inline __m128i hd_v_load(const char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Bytes of x equal to c. */
static inline __m128i hd_v_eq(__m128i x, char c)
{
	return _mm_cmpeq_epi8(x, _mm_set1_epi8(c));
}

/* Bytes of x in [lo, hi] (signed compare after moving lo to -128). */
static inline __m128i hd_v_in_range(__m128i x, char lo, char hi)
{
	__m128i y = _mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - (unsigned char)lo)));

	return _mm_cmplt_epi8(y, _mm_set1_epi8((char)(-128 + (hi - lo) + 1)));
}

/* Bytes of x that are name bytes (hd_name_char). */
static inline __m128i hd_v_name(__m128i x)
{
	return _mm_or_si128(
		_mm_or_si128(hd_v_in_range(x, '0', '9'),
			     hd_v_in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 'z')),
		_mm_or_si128(hd_v_in_range(x, '-', '.'), hd_v_eq(x, '_')));
}
#endif

/*
 * Copies n <= 16 bytes from s to o without a call: where most pieces
 * are a few bytes (", %" between operands, a JSON key), the call to
 * memcpy cost more than the copy.  Two copies of fixed size that may
 * overlap, inside s[0, n) and o[0, n).
 */
static inline __attribute__((always_inline)) void
hd_copy_small(char *o, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t c, d;

	if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(o, &a, 8);
		memcpy(o + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&c, s, 4);
		memcpy(&d, s + n - 4, 4);
		memcpy(o, &c, 4);
		memcpy(o + n - 4, &d, 4);
	} else if (n) {
		o[0] = s[0];
		o[n / 2] = s[n / 2];
		o[n - 1] = s[n - 1];
	}
}

#endif
