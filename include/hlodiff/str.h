/*
 * str.h - the small tests on byte strings that every module writes
 * otherwise: one copy, inline.
 */
#ifndef HLODIFF_STR_H
#define HLODIFF_STR_H

#include <stddef.h>
#include <string.h>

/* Does s[0..n) start with prefix? */
static inline int hd_starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

/* Does s[0..n) end with suffix? */
static inline int hd_ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Is c an ASCII digit?  (isdigit depends on the locale.) */
static inline int hd_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

#endif
