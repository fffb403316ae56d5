/*
 * input.h - the bytes of one dump.
 *
 * A regular file is mapped with mmap; standard input ("-"), pipes and
 * other non-regular files are read with read() into a buffer that grows
 * by doubling.  Files whose name ends in ".gz" (or whose content starts
 * with the gzip magic) are inflated into memory with zlib.
 *
 * The buffer handed out is followed by at least HD_INPUT_PAD readable
 * bytes that are zero only when the buffer was read/inflated; for mapped
 * files no padding is promised, so scanners must stay within [data,
 * data+len).
 */
#ifndef HLODIFF_INPUT_H
#define HLODIFF_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define HD_INPUT_PAD 64

struct hd_input {
	const char *path;    /* as given ("-" for stdin) */
	const char *name;    /* for messages: "<stdin>" for "-" */
	const char *data;
	size_t len;
	int mapped;          /* 1 if data is an mmap of the file */
	size_t map_len;
	char *owned;         /* heap buffer when not mapped */
};

/*
 * Opens and reads path.  On failure prints "hlodiff: PATH: reason" and
 * returns -1 (missing file, directory, unreadable, corrupt .gz).
 */
int hd_input_open(struct hd_input *in, const char *path);
void hd_input_release(struct hd_input *in);

/*
 * A front-to-back pass over a mapped dump (the parser; canonical hashing
 * when it has to read the instruction lines again, canon.h) keeps only a
 * window of it resident.  Ahead of the pass, HD_MAP_AHEAD bytes of pages are mapped in
 * one call (madvise MADV_POPULATE_READ, Linux 5.14 and later) instead of
 * by a page fault every 64 KiB; behind it, the pages more than
 * HD_GIVE_BACK_LAG back are given back every HD_GIVE_BACK_STEP bytes
 * (MADV_DONTNEED: a page touched again comes back from the page cache).
 * Inputs read or inflated into memory are left alone (their pages would
 * come back zeroed).
 */
#define HD_MAP_AHEAD ((size_t)4 << 20)
#define HD_GIVE_BACK_STEP ((size_t)4 << 20)
#define HD_GIVE_BACK_LAG ((size_t)1 << 20)

struct hd_input_pass {
	size_t given;   /* [0, given) given back, up to whole pages */
	size_t mapped;  /* mapped ahead up to here */
	size_t next;    /* hd_input_pass_at has nothing to do before here */
};

#define HD_INPUT_PASS_INIT { 0, 0, 0 }
/* A pass that reads a line here and there: nothing is mapped ahead
 * (pages come in by faults, as read), only given back behind. */
#define HD_INPUT_PASS_SPARSE { 0, SIZE_MAX, 0 }

/*
 * The pass p over in has come to at (a byte of in; other pointers are
 * ignored): maps ahead and gives back behind as due.  Cheap when nothing
 * is due (at before in->data + p->next).
 */
void hd_input_pass_at(const struct hd_input *in, struct hd_input_pass *p,
		      const char *at);

/*
 * What a pass does, for any range: gives back the whole pages inside
 * [from, to), maps the pages holding [from, to).  Both do nothing for
 * inputs that are not mapped files or pointers outside in; where the
 * kernel does not know MADV_POPULATE_READ the pages come in by faults.
 */
void hd_input_give_back(const struct hd_input *in, const char *from,
			const char *to);
void hd_input_map_ahead(const struct hd_input *in, const char *from,
			const char *to);

/*
 * For a file XLA writes next to a dump, which users pass by mistake (told
 * apart by its first non-empty lines; data, len: the start of the file):
 * prints "hlodiff: PATH: this is ...; pass ..." naming the dump to pass,
 * and returns -1; else 0.
 */
int hd_input_refuse_other(const char *path, const char *data, size_t len);

#endif
