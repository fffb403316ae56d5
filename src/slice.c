/*
 * slice.c - helpers for (pointer, length) views.
 */
#include "hlodiff/slice.h"

int hd_slice_cmp(struct hd_slice a, struct hd_slice b)
{
	size_t n = a.n < b.n ? a.n : b.n;
	int c = n ? memcmp(a.p, b.p, n) : 0;

	if (c)
		return c;
	return (a.n > b.n) - (a.n < b.n);
}

int hd_parse_i64_slow(struct hd_slice s, int64_t *out)
{
	size_t i = 0, fast;
	int neg = 0;
	uint64_t v = 0;
	uint64_t limit;

	if (i < s.n && s.p[i] == '-') {
		neg = 1;
		i++;
	}
	if (i >= s.n || s.p[i] < '0' || s.p[i] > '9')
		return 0;
	/* 18 digits fit in int64 whatever they are: no checks until then */
	fast = s.n - i > 18 ? i + 18 : s.n;
	for (; i < fast && (unsigned char)(s.p[i] - '0') < 10; i++)
		v = v * 10 + (unsigned)(s.p[i] - '0');
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < s.n && s.p[i] >= '0' && s.p[i] <= '9'; i++) {
		unsigned d = (unsigned)(s.p[i] - '0');
		if (v > (limit - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (neg)
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return (int)i;
}
