/*
 * membuf.h - a stdio stream that writes into memory, for reports that
 * are rendered first and written out later (batch.c: one per format of
 * each module).
 *
 * open_memstream grows its buffer by realloc, zeroing each new part and
 * copying the text when the block moves: a --json report of a large
 * diff is large, and those copies and the 4 KiB page faults
 * of every fresh block cost more than rendering it.  A membuf keeps the
 * text in an hd_vec, which a big array's address-space reservation lets
 * grow in place on 2 MiB pages (arena.h).
 */
#ifndef HLODIFF_MEMBUF_H
#define HLODIFF_MEMBUF_H

#include <stddef.h>
#include <stdio.h>

#include "hlodiff/arena.h"

struct hd_membuf {
	struct hd_vec text;     /* the bytes written, NUL-terminated once
				   anything was written (text.len excludes
				   the NUL) */
};

/* A stream writing into m (set up here).  A stream into memory fails
 * only for want of memory, so these three die then, as hd_xmalloc does. */
FILE *hd_membuf_open(struct hd_membuf *m);
/* open_memstream(p, n). */
FILE *hd_memstream_open(char **p, size_t *n);
/* fclose of a stream from either of the two above. */
void hd_memstream_close(FILE *f);

/* The text written (valid after fclose of the stream; "" when none)
 * and its length. */
const char *hd_membuf_text(const struct hd_membuf *m);
size_t hd_membuf_len(const struct hd_membuf *m);

void hd_membuf_release(struct hd_membuf *m);

#endif
