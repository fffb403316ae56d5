/*
 * load.h - the entry point for one input: a dump or a golden file.
 *
 * Loading sits above input, parse and golden: it peeks at the file,
 * refuses what is plainly not a dump, and hands the text to the golden
 * reader or the parser, so callers need not know which one they have.
 */
#ifndef HLODIFF_LOAD_H
#define HLODIFF_LOAD_H

#include "hlodiff/dump.h"

/*
 * Reads path ("-" = standard input, ".gz" inflated) as a golden file if
 * it starts with the magic line, else as a dump (hd_parse_file with
 * flags; the unknown-line summary is printed).  Returns 1 for a golden,
 * 0 for a dump, -1 after printing the error.  d must be released
 * either way.
 */
int hd_load_dump(struct hd_dump *d, const char *path, unsigned flags);

/* hd_parse_file (data NULL) or hd_parse_buffer, with canonical hashing's
 * pre-walk installed as the parse hooks when flags has HD_PARSE_CANON. */
int hd_load_parse(struct hd_dump *d, const char *path, const char *data,
		  size_t len, unsigned flags);

#endif
