/*
 * input.c - bytes of one dump: mmap for files, read() for pipes and
 * stdin, zlib for .gz.
 */
#include "hlodiff/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "hlodiff/arena.h"
#include "hlodiff/diag.h"
#include "hlodiff/filename.h"
#include "hlodiff/str.h"

#define READ_CHUNK_MIN (64 * 1024)

static int fail_errno(struct hd_input *in, const char *what)
{
	hd_error(in->path, 0, "%s: %s", what, strerror(errno));
	return -1;
}

/* in's bytes become buf[0, len), of a heap block with HD_INPUT_PAD bytes
 * after them, zeroed here. */
static void adopt(struct hd_input *in, char *buf, size_t len)
{
	memset(buf + len, 0, HD_INPUT_PAD);
	in->owned = buf;
	in->data = buf;
	in->len = len;
}

static int is_gzip(const char *data, size_t len)
{
	return len >= 2 && (unsigned char)data[0] == 0x1f &&
	       (unsigned char)data[1] == 0x8b;
}

/*
 * Reads all of fd into a heap buffer that doubles as it fills.  Stops
 * early at a NUL byte in text (not gzip) input: the parser rejects it
 * there anyway, and an endless stream such as /dev/zero would otherwise
 * fill memory.
 */
static int read_all(struct hd_input *in, int fd)
{
	size_t cap = READ_CHUNK_MIN, len = 0;
	char *buf = hd_xmalloc(cap + HD_INPUT_PAD);

	for (;;) {
		ssize_t got;

		if (cap - len < READ_CHUNK_MIN / 2) {
			if (cap > SIZE_MAX / 2 - HD_INPUT_PAD) {
				free(buf);
				hd_error(in->path, 0, "input too large");
				return -1;
			}
			cap *= 2;
			buf = hd_xrealloc(buf, cap + HD_INPUT_PAD);
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return fail_errno(in, "cannot read");
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len >= 2 && !is_gzip(buf, len) &&
		    memchr(buf + len - (size_t)got, '\0', (size_t)got))
			break;
	}
	adopt(in, buf, len);
	return 0;
}

/* Inflates in when it is gzip (possibly multi-member) into a new heap
 * buffer, which then replaces its bytes. */
static int maybe_inflate(struct hd_input *in)
{
	const char *src = in->data;
	size_t srclen = in->len, cap = srclen * 4 + READ_CHUNK_MIN, len = 0;
	z_stream zs;
	char *buf;
	int rc;

	if (!is_gzip(src, srclen))
		return 0;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 32) != Z_OK) {
		hd_error(in->path, 0, "cannot start zlib");
		return -1;
	}
	buf = hd_xmalloc(cap + HD_INPUT_PAD);
	zs.next_in = (Bytef *)(uintptr_t)src;
	for (;;) {
		size_t in_left = srclen - (size_t)((const char *)zs.next_in - src);
		zs.avail_in = in_left > UINT32_MAX ? UINT32_MAX : (uInt)in_left;
		if (cap - len < READ_CHUNK_MIN) {
			cap *= 2;
			buf = hd_xrealloc(buf, cap + HD_INPUT_PAD);
		}
		zs.next_out = (Bytef *)buf + len;
		zs.avail_out = (uInt)((cap - len) > UINT32_MAX ? UINT32_MAX : (cap - len));
		{
			uInt before = zs.avail_out;
			rc = inflate(&zs, Z_NO_FLUSH);
			len += before - zs.avail_out;
		}
		if (rc == Z_STREAM_END) {
			size_t left = srclen - (size_t)((const char *)zs.next_in - src);
			if (left == 0)
				break;
			/* Another gzip member follows. */
			if (inflateReset(&zs) != Z_OK)
				break;
			continue;
		}
		if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
			rc = Z_DATA_ERROR;
			break;
		}
		if (rc != Z_OK)
			break;
	}
	inflateEnd(&zs);
	if (rc != Z_STREAM_END) {
		free(buf);
		hd_error(in->path, 0,
			 "corrupt or truncated gzip data (expected a complete .gz file)");
		return -1;
	}
	if (in->mapped)
		munmap((void *)(uintptr_t)in->data, in->map_len);
	free(in->owned);
	in->mapped = 0;
	adopt(in, buf, len);
	return 0;
}

static int open_regular(struct hd_input *in, int fd, size_t size)
{
	void *p;

	if (size == 0) {
		adopt(in, hd_xmalloc(HD_INPUT_PAD), 0);
		return 0;
	}
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return read_all(in, fd);
#ifdef MADV_SEQUENTIAL
	madvise(p, size, MADV_SEQUENTIAL);
#endif
	in->mapped = 1;
	in->map_len = size;
	in->data = p;
	in->len = size;
	return 0;
}

int hd_input_open(struct hd_input *in, const char *path)
{
	struct stat st;
	int fd, rc;

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->name = hd_display_name(path);
	if (strcmp(path, "-") == 0) {
		rc = read_all(in, STDIN_FILENO);
		return rc ? rc : maybe_inflate(in);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail_errno(in, "cannot open");
	if (fstat(fd, &st) < 0) {
		rc = fail_errno(in, "cannot stat");
		close(fd);
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		hd_error(path, 0, "is a directory (expected a buffer-assignment dump file)");
		return -1;
	}
	if (S_ISREG(st.st_mode))
		rc = open_regular(in, fd, (size_t)st.st_size);
	else
		rc = read_all(in, fd);
	close(fd);
	return rc ? rc : maybe_inflate(in);
}

void hd_input_release(struct hd_input *in)
{
	if (in->mapped && in->data)
		munmap((void *)(uintptr_t)in->data, in->map_len);
	free(in->owned);
	in->data = NULL;
	in->owned = NULL;
	in->mapped = 0;
	in->len = 0;
}

/*
 * Gives back the whole pages of [from, to) of a mapped input (from
 * rounded up, to down).  A private read-only mapping of a file holds
 * clean copies of the page cache, dropped and refetched without loss.
 */
void hd_input_give_back(const struct hd_input *in, const char *from,
			const char *to)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t lo, hi;

	if (!in->mapped || page <= 0 || !in->data || from < in->data ||
	    to > in->data + in->len || from >= to)
		return;
	/* mmap returned a page-aligned address, so offsets align too */
	lo = ((size_t)(from - in->data) + (size_t)page - 1) & ~((size_t)page - 1);
	hi = (size_t)(to - in->data) & ~((size_t)page - 1);
#ifdef MADV_DONTNEED
	if (hi > lo)
		(void)madvise((void *)(uintptr_t)(in->data + lo), hi - lo, MADV_DONTNEED);
#endif
}

/* Linux's value; older headers lack the name (the kernel then says EINVAL) */
#if defined(__linux__) && !defined(MADV_POPULATE_READ)
#define MADV_POPULATE_READ 22
#endif

void hd_input_map_ahead(const struct hd_input *in, const char *from,
			const char *to)
{
#ifdef MADV_POPULATE_READ
	long page = sysconf(_SC_PAGESIZE);
	size_t lo, hi, len;

	if (!in->mapped || page <= 0 || !in->data || from < in->data ||
	    to > in->data + in->len || from >= to)
		return;
	/* whole pages from the one holding from to the one holding to - 1:
	 * the last page of the file is mapped, if only partly filled */
	len = ((in->len + (size_t)page - 1) & ~((size_t)page - 1));
	lo = (size_t)(from - in->data) & ~((size_t)page - 1);
	hi = ((size_t)(to - in->data) + (size_t)page - 1) & ~((size_t)page - 1);
	if (hi > len)
		hi = len;
	(void)madvise((void *)(uintptr_t)(in->data + lo), hi - lo,
		      MADV_POPULATE_READ);
#else
	(void)in;
	(void)from;
	(void)to;
#endif
}

void hd_input_pass_at(const struct hd_input *in, struct hd_input_pass *p,
		      const char *at)
{
	size_t off = (size_t)((uintptr_t)at - (uintptr_t)in->data);
	size_t map_due, give_due;

	if (!in->mapped || !in->data) {
		p->next = SIZE_MAX;
		return;
	}
	if ((uintptr_t)at < (uintptr_t)in->data || off >= in->len)
		return;
	if (off < p->next)
		return;
	if (p->mapped < in->len && off + HD_MAP_AHEAD / 2 > p->mapped) {
		size_t to = in->len - off > HD_MAP_AHEAD ? off + HD_MAP_AHEAD : in->len;

		hd_input_map_ahead(in, in->data + (p->mapped > off ? p->mapped : off),
				   in->data + to);
		p->mapped = to;
	}
	if (off >= p->given + HD_GIVE_BACK_STEP + HD_GIVE_BACK_LAG) {
		hd_input_give_back(in, in->data + p->given, at - HD_GIVE_BACK_LAG);
		p->given = off - HD_GIVE_BACK_LAG;
	}
	map_due = p->mapped < in->len ? p->mapped - HD_MAP_AHEAD / 2 : SIZE_MAX;
	give_due = p->given + HD_GIVE_BACK_STEP + HD_GIVE_BACK_LAG;
	p->next = map_due < give_due ? map_due : give_due;
}

/* ---- files that are not dumps ------------------------------------------ */

/* The next non-empty line from *p: its start and length; NULL at end. */
static const char *next_line(const char **p, const char *end, size_t *n)
{
	const char *s = *p, *e;

	while (s < end && (*s == '\n' || *s == '\r'))
		s++;
	if (s >= end)
		return NULL;
	e = memchr(s, '\n', (size_t)(end - s));
	if (!e)
		e = end;
	*p = e;
	*n = (size_t)(e - s);
	return s;
}

/*
 * Files XLA writes next to a dump that users pass by mistake, told apart
 * by their first non-empty lines: what each is, and the suffix of its
 * name that the dump's name has in its place.
 */
enum { MEMORY_USAGE, HLO_TEXT, VALUES, LIVE_RANGE };

static const struct {
	const char *what, *from;
} others[] = {
	[MEMORY_USAGE] = { "XLA's memory-usage report",
			   "-memory-usage-report.txt" },
	[HLO_TEXT] = { "an HLO module in text (HloModule ...)", ".txt" },
	[VALUES] = { "the -buffer-assignment-values.txt companion of a split "
		     "dump", "-buffer-assignment-values.txt" },
	[LIVE_RANGE] = { "the -live-range.txt companion of a split dump",
			 "-live-range.txt" },
};

/* Which of the others the file (data, len: its start) is, or -1. */
static int other_kind(const char *data, size_t len)
{
	const char *p = data, *end = data + len, *a, *b;
	size_t na, nb = 0;

	if (!(a = next_line(&p, end, &na)))
		return -1;
	if (hd_starts_with(a, na, "HloModule "))
		return HLO_TEXT;
	if (hd_starts_with(a, na, "HloLiveRange (max ") ||
	    hd_starts_with(a, na, "HloLiveRange not available"))
		return LIVE_RANGE;
	if (hd_starts_with(a, na, "Memory Space: "))
		return MEMORY_USAGE;
	if (!hd_starts_with(a, na, "Total bytes used: "))
		return -1;
	/* A dump has 'BufferAssignment:' and allocations before its total;
	 * what follows the total says which file leads with it. */
	b = next_line(&p, end, &nb);
	if (b && hd_starts_with(b, nb, "Allocations sorted by size"))
		return MEMORY_USAGE;
	if (b && hd_starts_with(b, nb, "Used values:"))
		return VALUES;
	return -1;
}

/* path with suffix `from` replaced by `to` into buf; 0, or -1 when path
 * does not end in `from`. */
static int swap_suffix(char *buf, size_t bufsz, const char *path,
		       const char *from, const char *to)
{
	size_t n = strlen(path), k = strlen(from);

	if (n < k || strcmp(path + n - k, from) != 0)
		return -1;
	return snprintf(buf, bufsz, "%.*s%s", (int)(n - k), path, to) <
	       (int)bufsz ? 0 : -1;
}

int hd_input_refuse_other(const char *path, const char *data, size_t len)
{
	static const char ba[] = "-buffer-assignment.txt";
	int k = other_kind(data, len), named;
	const char *name = hd_display_name(path), *what;
	char dump[4096];

	if (k < 0)
		return 0;
	what = others[k].what;
	named = strcmp(path, "-") != 0 &&
		swap_suffix(dump, sizeof(dump), path, others[k].from, ba) == 0;
	/* an HLO file of another stage has no dump of the same name */
	if (named && k == HLO_TEXT && !hd_is_regular_file(dump))
		named = 0;
	if (named && (k == VALUES || k == LIVE_RANGE))
		hd_error(name, 0, "this is %s; pass the matching %s (its companions are read with it)",
			 what, dump);
	else if (named)
		hd_error(name, 0, "this is %s; pass the matching %s", what, dump);
	else
		hd_error(name, 0, "this is %s; pass the module's *-buffer-assignment.txt "
			 "(XLA writes it beside this file with --xla_dump_to)", what);
	return -1;
}
