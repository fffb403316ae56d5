/*
 * test_input.c - pages of a mapped dump (src/input.c): given back, the
 * bytes stay readable; mapped ahead (hd_input_map_ahead), they are read
 * without a page fault each, where the kernel has MADV_POPULATE_READ; a
 * pass (hd_input_pass_at) maps ahead and gives back behind as it moves;
 * ranges outside the input and inputs that are not mapped are left alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hlodiff/input.h"
#include "tap/tap.h"

#define MIB ((size_t)1 << 20)
/* not a whole number of pages: the last page is only partly filled */
#define FILE_BYTES (8 * MIB + 1234)

static unsigned char byte_at(size_t i)
{
	return (unsigned char)('a' + (i * 7 + i / 4096) % 26);
}

static char *write_file(void)
{
	static char path[] = "/tmp/hlodiff-test-input-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	size_t i;

	if (fd < 0)
		bail("mkstemp: cannot make a file in /tmp");
	f = fdopen(fd, "wb");
	if (!f)
		bail("fdopen failed");
	for (i = 0; i < FILE_BYTES; i++)
		putc(byte_at(i), f);
	if (fclose(f) != 0)
		bail("cannot write %s", path);
	return path;
}

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Reads one byte of every page of [from, to) of in; returns the bytes
 * that differ from the file's. */
static size_t touch(const struct hd_input *in, size_t from, size_t to)
{
	size_t i, bad = 0;

	for (i = from; i < to; i += 4096)
		bad += (unsigned char)in->data[i] != byte_at(i);
	return bad;
}

static size_t wrong_bytes(const struct hd_input *in)
{
	size_t i, bad = 0;

	for (i = 0; i < in->len; i++)
		bad += (unsigned char)in->data[i] != byte_at(i);
	return bad;
}

/* Does this kernel know MADV_POPULATE_READ (Linux 5.14)? */
static int kernel_populates(void)
{
#ifdef __linux__
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	if (p == MAP_FAILED)
		return 0;
	ok = madvise(p, (size_t)page, 22 /* MADV_POPULATE_READ */) == 0;
	munmap(p, (size_t)page);
	return ok;
#else
	return 0;
#endif
}

int main(void)
{
	char *path = write_file();
	struct hd_input in, plain;
	char buf[64];
	long before, mapped_faults, faulted;

	plan_lazy();
	if (hd_input_open(&in, path) != 0)
		bail("cannot open %s", path);
	ok(in.mapped, "a regular file is mapped");
	is_int(FILE_BYTES, (long long)in.len, "its length");

	/* all pages given back: none is mapped now, the bytes are the same */
	hd_input_give_back(&in, in.data, in.data + in.len);
	is_int(0, (long long)wrong_bytes(&in), "bytes after the pages were given back");
	hd_input_give_back(&in, in.data, in.data + in.len);

	if (kernel_populates()) {
		hd_input_map_ahead(&in, in.data + MIB, in.data + 5 * MIB);
		before = minor_faults();
		is_int(0, (long long)touch(&in, MIB, 5 * MIB), "bytes of the 4 MiB mapped ahead");
		mapped_faults = minor_faults() - before;
		before = minor_faults();
		is_int(0, (long long)touch(&in, 5 * MIB, 8 * MIB), "bytes of the 3 MiB after them");
		faulted = minor_faults() - before;
		diag("page faults: %ld reading 4 MiB mapped ahead, %ld reading 3 MiB not",
		     mapped_faults, faulted);
		ok(mapped_faults <= 2, "4 MiB mapped ahead are read with at most 2 page faults (%ld)",
		   mapped_faults);
		/* faulted is not asserted: how many pages one fault maps
		 * (fault-around, huge page-cache folios) is the kernel's choice */
	} else {
		skip("the kernel does not know MADV_POPULATE_READ");
	}

	/* a pass: at 0 it maps [0, 4 MiB) and is next due at 2 MiB; at 6 MiB
	 * it maps the rest and gives back [0, 5 MiB) */
	hd_input_give_back(&in, in.data, in.data + in.len);
	{
		struct hd_input_pass pass = HD_INPUT_PASS_INIT;

		hd_input_pass_at(&in, &pass, in.data);
		is_int((long long)(4 * MIB), (long long)pass.mapped, "pass at 0: mapped to 4 MiB");
		is_int((long long)(2 * MIB), (long long)pass.next, "pass at 0: next due at 2 MiB");
		hd_input_pass_at(&in, &pass, in.data + MIB);
		is_int((long long)(4 * MIB), (long long)pass.mapped, "pass at 1 MiB: nothing due");
		hd_input_pass_at(&in, &pass, in.data + 6 * MIB);
		is_int(FILE_BYTES, (long long)pass.mapped, "pass at 6 MiB: mapped to the end");
		is_int((long long)(5 * MIB), (long long)pass.given, "pass at 6 MiB: [0, 5 MiB) given back");
		is_int((long long)(10 * MIB), (long long)pass.next, "pass at 6 MiB: next due for a give-back at 10 MiB");
		if (kernel_populates()) {
			before = minor_faults();
			is_int(0, (long long)touch(&in, 6 * MIB, in.len), "bytes the pass mapped ahead");
			mapped_faults = minor_faults() - before;
			ok(mapped_faults <= 2, "read with at most 2 page faults (%ld)", mapped_faults);
		} else {
			skip("the kernel does not know MADV_POPULATE_READ");
		}
		before = minor_faults();
		is_int(0, (long long)touch(&in, 0, MIB), "bytes the pass gave back");
		faulted = minor_faults() - before;
		ok(faulted > 0, "pages given back come in again by page faults (%ld)", faulted);
		hd_input_pass_at(&in, &pass, in.data - 1);
		hd_input_pass_at(&in, &pass, in.data + in.len);
		is_int((long long)(5 * MIB), (long long)pass.given, "pointers outside the input change nothing");
	}

	/* the last, partly filled page; ranges outside the input; empty */
	hd_input_give_back(&in, in.data, in.data + in.len);
	hd_input_map_ahead(&in, in.data + in.len - 100, in.data + in.len);
	hd_input_map_ahead(&in, in.data - 4096, in.data + 4096);
	hd_input_map_ahead(&in, in.data, in.data + in.len + 4096);
	hd_input_map_ahead(&in, in.data + 4096, in.data + 4096);
	hd_input_map_ahead(&in, in.data + 8192, in.data + 4096);
	hd_input_map_ahead(&in, in.data, in.data + in.len);
	is_int(0, (long long)wrong_bytes(&in), "bytes after mapping ahead odd ranges");

	/* an input that is not a mapped file: nothing happens */
	memset(&plain, 0, sizeof(plain));
	memset(buf, 'x', sizeof(buf));
	plain.data = buf;
	plain.len = sizeof(buf);
	hd_input_map_ahead(&plain, buf, buf + sizeof(buf));
	hd_input_give_back(&plain, buf, buf + sizeof(buf));
	{
		struct hd_input_pass pass = HD_INPUT_PASS_INIT;

		hd_input_pass_at(&plain, &pass, buf);
		ok(pass.next == SIZE_MAX && pass.mapped == 0 && pass.given == 0,
		   "a pass over a buffer in memory is never due");
	}
	ok(buf[0] == 'x' && buf[63] == 'x', "a buffer in memory is left as it was");

	hd_input_release(&in);
	unlink(path);
	return tap_tests_failed() != 0;
}
