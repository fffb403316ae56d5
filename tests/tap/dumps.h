/*
 * dumps.h - the dumps a unit test sweeps: those of tests/data (under
 * $HD_SRCDIR, else the current directory) and, when $HD_CORPUS is set,
 * the corpus's dumps (its *buffer-assignment*.txt files and seeds/, not
 * the other reports beside them, as lib.sh's corpus_dumps).
 */
#ifndef HLODIFF_TAP_DUMPS_H
#define HLODIFF_TAP_DUMPS_H

/* Calls check(path) for every dump of tests/data; returns how many. */
unsigned tap_each_test_dump(void (*check)(const char *path));

/* Calls check(path) for every corpus dump; returns how many, or -1
 * when $HD_CORPUS is not set (the caller skips). */
int tap_each_corpus_dump(void (*check)(const char *path));

#endif
