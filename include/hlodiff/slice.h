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

static inline int hd_slice_eq(struct hd_slice a, struct hd_slice b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
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
