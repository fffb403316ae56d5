/*
 * label.h - the label of a value, "name{index}", as every report and
 * the rules write it.  Kept apart from the reports so that verdicts and
 * renderers of every format share one spelling.
 */
#ifndef HLODIFF_LABEL_H
#define HLODIFF_LABEL_H

#include <stddef.h>
#include <stdint.h>

#include "hlodiff/dump.h"

/* Writes "name{index}" of value v of d ("{}" for a non-tuple value) to
 * buf, NUL-terminated and cut to n - 1 bytes; returns its whole length,
 * as snprintf does. */
int hd_value_label(char *buf, size_t n, const struct hd_dump *d, uint32_t v);

/* The same, whole, in memory from hd_xmalloc (the caller frees it): for
 * JSON, which is read by programs and so is never cut. */
char *hd_value_label_dup(const struct hd_dump *d, uint32_t v);

#endif
