/*
 * slice.h - (pointer, length) views into an input buffer.
 *
 * A slice never owns its bytes and is never NUL-terminated by contract;
 * it stays valid as long as the buffer it points into (the mapped dump or
 * the arena).  An empty slice has n == 0 (p may be NULL).
 */
#ifndef HLODIFF_SLICE_H
#define HLODIFF_SLICE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct hd_slice {
	const char *p;
	size_t n;
};

#define HD_SLICE_NULL ((struct hd_slice){ NULL, 0 })

static inline struct hd_slice hd_slice_make(const char *p, size_t n)
{
	struct hd_slice s = { p, n };
	return s;
}

static inline struct hd_slice hd_slice_cstr(const char *s)
{
	return hd_slice_make(s, strlen(s));
}

/*
 * Are the n bytes at a and b equal?  For the parser's literal line
 * prefixes and memoised shapes, where a memcmp call cost more than the
 * compare: up to 32 bytes they are compared inline, 8 bytes at a time (the last
 * load overlapping), 4 (two overlapping) below 8, one by one below 4;
 * longer ones by memcmp.  Reads only the n bytes of each.
 */
static inline __attribute__((always_inline)) int
hd_bytes_eq(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	uint32_t h[4];
	size_t i;

	if (n > 32)
		return memcmp(a, b, n) == 0;
	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return 0;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		memcpy(&h[0], a, 4);
		memcpy(&h[1], b, 4);
		memcpy(&h[2], a + n - 4, 4);
		memcpy(&h[3], b + n - 4, 4);
		return ((h[0] ^ h[1]) | (h[2] ^ h[3])) == 0;
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Do a and b hold the same bytes?  Inline up to 32 bytes (hd_bytes_eq):
 * the index lookups of every value line, record and live range compare
 * keys this way, too often for a memcmp call each. */
static inline int hd_slice_eq(struct hd_slice a, struct hd_slice b)
{
	return a.n == b.n && hd_bytes_eq(a.p, b.p, a.n);
}

static inline int hd_slice_eq_cstr(struct hd_slice a, const char *s)
{
	return hd_slice_eq(a, hd_slice_cstr(s));
}

static inline int hd_slice_starts(struct hd_slice a, const char *prefix)
{
	size_t n = strlen(prefix);
	return a.n >= n && memcmp(a.p, prefix, n) == 0;
}

/* Byte-order comparison, shorter first on a common prefix. */
int hd_slice_cmp(struct hd_slice a, struct hd_slice b);

/* hd_parse_i64 for what its inline part leaves: a sign, 18 digits or more. */
int hd_parse_i64_slow(struct hd_slice s, int64_t *out);

/*
 * Parses a decimal int64 (optional '-') at the start of s.  On success
 * stores the value, returns the number of bytes used (> 0).  Returns 0 if
 * s does not start with a digit (after the sign), -1 on overflow.
 * Inline for the common case, a number of fewer than 18 digits.
 */
static inline int hd_parse_i64(struct hd_slice s, int64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;

	while (i < s.n && i < 17 && (unsigned char)(s.p[i] - '0') < 10)
		v = v * 10 + (unsigned)(s.p[i++] - '0');
	if (i == 0 || (i < s.n && (unsigned char)(s.p[i] - '0') < 10))
		return hd_parse_i64_slow(s, out);
	*out = (int64_t)v;
	return (int)i;
}

#endif
