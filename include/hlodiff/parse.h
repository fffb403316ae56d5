/*
 * parse.h - reads buffer-assignment dumps (docs/format.md) into struct
 * hd_dump.
 *
 * One pass over the lines of each input, dispatching on the line prefix.
 * Accepts the combined file (G1), the allocations-only newest file (G2)
 * with its "-buffer-assignment-values.txt" and "-live-range.txt"
 * companions, the "*** Begin FILE ***" stdout wrapper, CRLF line ends.
 *
 * Errors: a line that breaks the grammar of a known line kind (e.g. a
 * value line with a non-numeric size, a number beyond int64) is an input
 * error: the parser prints "hlodiff: FILE:LINE: what ... (expected ...)"
 * and hd_parse_* returns -1.  Lines of no known kind are counted in
 * dump->n_unknown (first ones kept); with HD_PARSE_STRICT they are errors.
 */
#ifndef HLODIFF_PARSE_H
#define HLODIFF_PARSE_H

#include "hlodiff/dump.h"

enum hd_parse_flags {
	HD_PARSE_STRICT = 1u << 0,     /* unknown lines are errors */
	HD_PARSE_NO_SIBLINGS = 1u << 1, /* do not look for the split companions */
	/* A dump that breaks off (truncated) is read as far as it goes, with
	 * a warning, and marked in dump->incomplete; without this flag it is
	 * an input error. */
	HD_PARSE_ALLOW_INCOMPLETE = 1u << 2,
	/* Keep the use lines of each value in dump->uses.  They are read
	 * and checked either way, but nothing in hlodiff needs them, and
	 * on a dump of many small values they were a twelfth of its
	 * memory; without this flag only each value's use_count is kept. */
	HD_PARSE_KEEP_USES = 1u << 3,
	/* For the loaders (golden.h: hd_load_dump), not the parser: compute
	 * the canonical hashes of the instructions while each is in cache,
	 * for hd_canon_compute, by installing canonical hashing's pre-walk
	 * as the parse hooks (canon.h: hd_canon_pre_hooks); costs the parse
	 * what hashing would cost later, so only for callers that hash (a
	 * diff, golden files), not for stat. */
	HD_PARSE_CANON = 1u << 4
};

/*
 * Called back as the parse goes, so that a later stage can work on each
 * instruction while its text is in cache, without the parser knowing
 * that stage.  Any of them may be NULL.  With an insn hook the parser
 * also finds where each instruction's metadata lies (hd_insn_metadata)
 * and reads its op_name and source, which it passes on.
 */
struct hd_parse_hooks {
	void *ctx;
	/* before each input (the main file, each companion) of bytes bytes */
	void (*input)(void *ctx, size_t bytes);
	/* an instruction filed, with its metadata's op_name and source */
	void (*insn)(void *ctx, const struct hd_insn *in,
		     const struct hd_insn_source *src);
	/* position pos, the k-th (from 0) of its value's record */
	void (*position)(void *ctx, const struct hd_position *pos, uint32_t k);
};

struct hd_parse_opts {
	unsigned flags;                     /* enum hd_parse_flags */
	const struct hd_parse_hooks *hooks; /* or NULL */
};

/*
 * Opens path ("-" = stdin) and parses it into d (initialised by this
 * call).  For a G2 file "X-buffer-assignment.txt" also reads
 * "X-buffer-assignment-values.txt" and "X-live-range.txt" when they exist.
 * Returns 0, or -1 after printing the error.  d must be released either
 * way.
 */
int hd_parse_file(struct hd_dump *d, const char *path, unsigned flags);
int hd_parse_file_opts(struct hd_dump *d, const char *path,
		       const struct hd_parse_opts *o);

/*
 * Parses a buffer already in memory (not copied: it must outlive d).
 * name is used in messages.  Returns 0 or -1 as above.
 */
int hd_parse_buffer(struct hd_dump *d, const char *name, const char *data,
		    size_t len, unsigned flags);
int hd_parse_buffer_opts(struct hd_dump *d, const char *name, const char *data,
			 size_t len, const struct hd_parse_opts *o);

/*
 * Prints the unknown-line summary for d on stderr ("hlodiff: FILE: N
 * unknown lines, first at 12, 40, ...").  Nothing when there were none.
 */
void hd_parse_report_unknown(const struct hd_dump *d);

/* op_name, source_file and source_line of the metadata among an
 * instruction's attributes, as the parser reads them (dump.h:
 * hd_insn_source_of). */
void hd_parse_insn_source(const struct hd_insn *in,
			  struct hd_insn_source *out);

#endif
