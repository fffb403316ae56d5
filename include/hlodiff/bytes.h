/*
 * bytes.h - byte helpers the parser, canonical hashing and writers
 * share: the bytes of HLO names as a table (scan.h classifies them 16
 * at a time), and a copy of a few bytes without a call, for writers of
 * many short pieces (canonical texts, JSON).
 */
#ifndef HLODIFF_BYTES_H
#define HLODIFF_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 1 for the bytes of HLO names, [A-Za-z0-9_.-] */
extern const unsigned char hd_name_char[256];

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
