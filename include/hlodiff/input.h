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

#define HD_INPUT_PAD 64

struct hd_input {
	const char *path;    /* as given ("-" for stdin) */
	const char *name;    /* for messages: "<stdin>" for "-" */
	const char *data;
	size_t len;
	int mapped;          /* 1 if data is an mmap of the file */
	size_t map_len;
	size_t released;     /* bytes at the start given back (mapped only) */
	char *owned;         /* heap buffer when not mapped */
};

/*
 * Opens and reads path.  On failure prints "hlodiff: PATH: reason" and
 * returns -1 (missing file, directory, unreadable, corrupt .gz).
 */
int hd_input_open(struct hd_input *in, const char *path);
void hd_input_release(struct hd_input *in);

/*
 * Tells the kernel that the pages of a mapped file before upto are not
 * needed for now (madvise MADV_DONTNEED on whole pages), so that reading
 * a dump front to back keeps only a window of it resident.  The bytes
 * stay readable: a page touched again comes back from the page cache.
 * Does nothing for a buffer read or inflated into memory (there the
 * pages would come back zeroed), so it is safe on any input.
 */
void hd_input_release_before(struct hd_input *in, const char *upto);

/* A front-to-back pass gives pages back every HD_GIVE_BACK_STEP bytes,
 * up to HD_GIVE_BACK_LAG behind where it is (the parser, canonical
 * hashing). */
#define HD_GIVE_BACK_STEP ((size_t)4 << 20)
#define HD_GIVE_BACK_LAG ((size_t)1 << 20)

/*
 * The same for the whole pages inside [from, to), for a later pass that
 * reads the dump front to back again (canonical hashing).  Does not
 * change in->released; does nothing for inputs that are not mapped files
 * or pointers outside in.
 */
void hd_input_give_back(const struct hd_input *in, const char *from,
			const char *to);

/*
 * Maps the pages of [from, to) of a mapped file in one call, ahead of a
 * front-to-back pass that is about to read them (madvise
 * MADV_POPULATE_READ, Linux 5.14 and later): the same page-table work as
 * the page faults the pass would take, without a fault for every 64 KiB.
 * A pass maps HD_MAP_AHEAD bytes at a time, so the window it keeps
 * resident grows by that much at most.  Does nothing for inputs that are
 * not mapped files, for pointers outside in, or where the kernel does
 * not know the advice (the pages then come in by faults, as before).
 */
void hd_input_map_ahead(const struct hd_input *in, const char *from,
			const char *to);

#define HD_MAP_AHEAD ((size_t)4 << 20)

/* Does a file exist and is it a regular file? */
int hd_input_exists(const char *path);

#endif
