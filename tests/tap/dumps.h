/*
 * dumps.h - dumps for the unit tests.  The ones a test sweeps: those of
 * tests/data (under
 * $HD_SRCDIR, else the current directory) and, when $HD_CORPUS is set,
 * the corpus's dumps (its *buffer-assignment*.txt files and seeds/, not
 * the other reports beside them, as lib.sh's corpus_dumps).
 */
#ifndef HLODIFF_TAP_DUMPS_H
#define HLODIFF_TAP_DUMPS_H

#include <stddef.h>

#include "hlodiff/dump.h"

/* Calls check(path) for every dump of tests/data; returns how many. */
unsigned tap_each_test_dump(void (*check)(const char *path));

/* Calls check(path) for every corpus dump; returns how many, or -1
 * when $HD_CORPUS is not set (the caller skips). */
int tap_each_corpus_dump(void (*check)(const char *path));

/*
 * A dump parsed from a text in memory, as hd_parse_buffer parses it, from
 * a heap copy of exactly its n bytes (no NUL after them: a read past the
 * end is an AddressSanitizer error, as past a mapped file).  Its slices
 * point into the copy, so tap_parsed_release frees both.
 */
struct tap_parsed {
	struct hd_dump d;
	char *copy;
	int rc;                 /* hd_parse_buffer's */
};

void tap_parse_exact(struct tap_parsed *t, const char *name,
		     const char *text, size_t n, unsigned flags);
/* hd_parse_buffer, with canonical hashing's pre-walk installed as the
 * parse hooks for HD_PARSE_CANON, as the loader (hd_load_dump) does. */
int tap_parse_buffer(struct hd_dump *d, const char *name, const char *data,
		     size_t n, unsigned flags);
void tap_parsed_release(struct tap_parsed *t);

/*
 * Parses the n bytes of text (tap_parse_exact, flags 0) with its
 * messages held back; returns the first of them, without its newline
 * (heap; "" when none), and hd_parse_buffer's result in *rc.
 */
char *tap_first_message(const char *name, const char *text, size_t n,
			int *rc);

/* A text made up by a test, grown as pieces are put (NUL-terminated;
 * free p when done).  Start with { NULL, 0, 0 }. */
struct tap_text {
	char *p;
	size_t n, cap;
};

/* Appends the string s to t (aborts when out of memory). */
void tap_text_put(struct tap_text *t, const char *s);

/*
 * Appends the head of a made-up dump: n preallocated-temp allocations
 * of 16 bytes, allocation I holding the one f32[4] value <I v.I @0>,
 * the total and "Used values:"; the test writes the records.
 */
void tap_text_temps(struct tap_text *t, unsigned n);

#endif
