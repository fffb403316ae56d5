/*
 * load.c - one input, dump or golden: peek, refuse what is not a dump,
 * then hand the text to the golden reader or the parser (load.h).
 */
#include "hlodiff/load.h"

#include <string.h>
#include <zlib.h>

#include "hlodiff/canon.h"
#include "hlodiff/filename.h"
#include "hlodiff/golden.h"
#include "hlodiff/input.h"
#include "hlodiff/parse.h"

/* Reads up to n bytes from the start of a regular file (inflated when it
 * is gzip).  Returns the number read, -1 when it cannot be read. */
static long peek_file(const char *path, char *buf, size_t n)
{
	gzFile g = gzopen(path, "rb");
	int got;

	if (!g)
		return -1;
	got = gzread(g, buf, (unsigned)n);
	gzclose(g);
	return got;
}

/*
 * hd_parse_file (data NULL) or hd_parse_buffer, with canonical hashing's
 * pre-walk as the parse hooks for HD_PARSE_CANON; its results go to
 * d->canon_pre, released with d either way.
 */
int hd_load_parse(struct hd_dump *d, const char *path, const char *data,
		  size_t len, unsigned flags)
{
	struct hd_canon_pre *pre = flags & HD_PARSE_CANON ? hd_canon_pre_new() : NULL;
	struct hd_parse_hooks hooks;
	struct hd_parse_opts o = { flags, NULL };
	int rc;

	if (pre) {
		hooks = hd_canon_pre_hooks(pre);
		o.hooks = &hooks;
	}
	rc = data ? hd_parse_buffer_opts(d, path, data, len, &o) :
		    hd_parse_file_opts(d, path, &o);
	d->canon_pre = pre;
	return rc;
}

int hd_load_dump(struct hd_dump *d, const char *path, unsigned flags)
{
	char head[sizeof(HD_GOLDEN_MAGIC) + 1];
	struct hd_input in;
	long n;
	int golden, rc;

	if (hd_is_regular_file(path)) {
		char first[512];
		long nf = peek_file(path, first, sizeof(first));

		if (nf > 0 && hd_input_refuse_other(path, first, (size_t)nf)) {
			hd_dump_init(d);
			return -1;
		}
		n = peek_file(path, head, sizeof(head));
		if (n < 0 || !hd_golden_any_version(head, (size_t)n)) {
			if (hd_load_parse(d, path, NULL, 0, flags))
				return -1;
			hd_parse_report_unknown(d);
			return 0;
		}
	}
	/* Goldens, standard input, pipes: read once, then decide. */
	if (hd_input_open(&in, path)) {
		hd_dump_init(d);
		return -1;
	}
	golden = hd_golden_any_version(in.data, in.len);
	if (!golden &&
	    hd_input_refuse_other(path, in.data, in.len < 512 ? in.len : 512)) {
		hd_input_release(&in);
		hd_dump_init(d);
		return -1;
	}
	rc = golden ? hd_golden_parse(d, in.name, in.data, in.len) :
		      hd_load_parse(d, in.name, in.data, in.len, flags);
	/* d adopts in */
	d->inputs[0] = in;
	d->n_inputs = 1;
	if (rc)
		return -1;
	if (golden)
		return 1;
	hd_parse_report_unknown(d);
	return 0;
}
