/*
 * format.h - number formatting shared by every report.
 */
#ifndef HLODIFF_FORMAT_H
#define HLODIFF_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HD_HUMAN_MAX 32

/*
 * Bytes as XLA's HumanReadableNumBytes prints them: "512B", "90.5KiB",
 * "214.09MiB", "-1.00GiB".  Returns buf.
 */
char *hd_human_bytes(char *buf, size_t n, int64_t bytes);

/* Signed delta with thousands grouping off: "+1234", "-5", "0". */
char *hd_signed(char *buf, size_t n, int64_t v);

/*
 * Percent change from old to new with one decimal ("+12.5%", "-3.0%",
 * "0.0%"); "new" when old is 0 and new is not; "" when both are 0.
 */
char *hd_percent(char *buf, size_t n, int64_t old_v, int64_t new_v);

/* Overflow-safe new - old (saturates at INT64_MIN/MAX). */
int64_t hd_delta(int64_t old_v, int64_t new_v);
/* Overflow-safe a + b (saturates at INT64_MIN/MAX).  Inline: sums of
 * sizes in the figures' and the parser's loops call it per value. */
static inline int64_t hd_sat_add(int64_t a, int64_t b)
{
	int64_t s;

	if (__builtin_add_overflow(a, b, &s))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return s;
}

/* |v| as an unsigned number (exact for INT64_MIN too): the order of a
 * change by its size. */
static inline uint64_t hd_magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/*
 * Length of the well-formed UTF-8 sequence at p (n bytes available), or
 * 0 (overlong forms, surrogates, code points above U+10FFFF, truncated).
 */
size_t hd_utf8_length(const unsigned char *p, size_t n);

/* Replaces control bytes and bytes of invalid UTF-8 in s by '?', in place,
 * so text from a dump cannot reach a terminal as escape sequences. */
void hd_mask_text(char *s);

/* printf one report line (at most 4095 bytes) with its trailing spaces
 * removed, then a newline. */
void hd_print_line(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
