/*
 * golden.h - golden files: a compact, deterministic text summary of one
 * module's buffer-assignment dump that hlodiff reads in place of the
 * dump (docs/golden.md has the format, line by line).
 *
 * A golden keeps what the figures, the matcher (canonical and
 * structural hashes, the loose keys' inputs, operand links, schedule
 * order), the peak, the rules, the breakdowns and the HTML page read
 * from a dump, and nothing else: no instruction texts, positions, uses,
 * offsets the held peak does not depend on, value ids or stack-trace
 * tree.  Loading one gives a struct hd_dump whose instructions carry
 * their stored hashes (canon.h, HD_CANON_STORED) and whose digest and
 * tallies are a parsed model's (hd_dump_derive_facts), so comparing a
 * golden made from dump D with any dump N gives the same report as
 * comparing D with N, file names aside.
 *
 * The first line is HD_GOLDEN_MAGIC; that is how a golden is told from a
 * dump.  Lines are TAB-separated fields; '#' lines are comments.
 */
#ifndef HLODIFF_GOLDEN_H
#define HLODIFF_GOLDEN_H

#include <stddef.h>
#include <stdio.h>

#include "hlodiff/dump.h"

#define HD_GOLDEN_MAGIC "hlodiff-golden 5"
#define HD_GOLDEN_SUFFIX ".golden"

/* Does the buffer start with the golden magic line? */
int hd_golden_detect(const char *data, size_t len);

/*
 * Writes the golden of d to out.  module is the module name recorded in
 * the file (NULL: none).  Computes the canonical hashes and figures of d
 * itself.  Returns 0, or -1 when out reports a write error (nothing is
 * printed: the caller names the file).
 */
int hd_golden_write(FILE *out, const struct hd_dump *d, const char *module);

/*
 * Builds d (initialised by the call) from the golden text data[0..len),
 * which must outlive d; name is used in messages.  Returns 0, or -1
 * after printing "hlodiff: NAME:LINE: what is wrong (expected ...)".
 * d must be released either way.
 */
int hd_golden_parse(struct hd_dump *d, const char *name, const char *data,
		    size_t len);

/* Does the buffer start with "hlodiff-golden " (any version)?  Tells a
 * golden of another version from a dump, so it is refused by name. */
int hd_golden_any_version(const char *data, size_t len);

#endif
