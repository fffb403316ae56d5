/*
 * test_membuf.c - the memory stream of membuf.c: what is written comes
 * back byte for byte, NUL-terminated, through stdio's buffer and past
 * the size where the text moves into a reservation of its own (2 MiB,
 * arena.c), in pieces of 1 byte to more than stdio's buffer; a stream
 * written nothing gives "".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/membuf.h"
#include "tap/tap.h"

static void test_empty(void)
{
	struct hd_membuf m;
	FILE *f = hd_membuf_open(&m);

	if (!f)
		bail("hd_membuf_open failed");
	ok(fclose(f) == 0 && hd_membuf_len(&m) == 0 &&
	   strcmp(hd_membuf_text(&m), "") == 0,
	   "a stream written nothing: length 0, text \"\"");
	hd_membuf_release(&m);
}

/* The byte at offset i of the text written below. */
static char byte_at(size_t i)
{
	return (char)('!' + (i * 31 + i / 977) % 94);
}

#define PIECE_MAX 88573

static void test_pieces(void)
{
	size_t total = (size_t)5 << 20, at = 0, piece = 1, i, bad = 0;
	char *buf = malloc(PIECE_MAX);
	struct hd_membuf m;
	FILE *f = hd_membuf_open(&m);
	const char *t;
	int wrote = 1;

	if (!f || !buf)
		bail("out of memory");
	/* pieces of 1, 4, 13 ... 88573 bytes (past stdio's buffer), again */
	while (at < total) {
		size_t n = piece < total - at ? piece : total - at;

		for (i = 0; i < n; i++)
			buf[i] = byte_at(at + i);
		wrote &= fwrite(buf, 1, n, f) == n;
		at += n;
		piece = piece * 3 + 1 > PIECE_MAX ? 1 : piece * 3 + 1;
	}
	wrote &= fprintf(f, "%s=%d", "end", 42) == 6;
	ok(wrote && fclose(f) == 0,
	   "5 MiB and a printf written in pieces of 1 to 88573 bytes");
	t = hd_membuf_text(&m);
	for (i = 0; i < total; i++)
		bad += t[i] != byte_at(i);
	ok(hd_membuf_len(&m) == total + 6 && bad == 0 &&
	   memcmp(t + total, "end=42", 6) == 0 && t[total + 6] == '\0',
	   "the text comes back byte for byte, NUL-terminated (%zu bytes, %zu differ)",
	   hd_membuf_len(&m), bad);
	hd_membuf_release(&m);
	ok(hd_membuf_len(&m) == 0 && strcmp(hd_membuf_text(&m), "") == 0,
	   "released: empty again");
	free(buf);
}

int main(void)
{
	plan(4);
	test_empty();
	test_pieces();
	return 0;
}
