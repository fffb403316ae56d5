/*
 * batch.h - many modules at once: find the dumps of a directory, pair
 * the two sides by module name, compare the pairs on a pool of threads,
 * and write golden files.
 *
 * Files.  A directory is read one level deep (subdirectories are
 * ignored, not recursed: an XLA dump directory is flat).  Dumps are the
 * files named *-buffer-assignment.txt or *-buffer-assignment.txt.gz; the
 * split companions (-buffer-assignment-values.txt, -live-range.txt) are
 * not dumps of their own (the parser reads them beside their dump).
 * Golden files are *.golden and *.golden.gz.  Everything else is
 * ignored.
 *
 * Module names.  A dump's module is its file name without the directory,
 * timestamp, module_NNNN counter, .cl_N and stage (hd_module_name_from_path),
 * "unnamed" when XLA dropped the name; a golden's is its file name
 * without ".golden" and a "#N" suffix.  Names are made safe for file
 * names ('/', control bytes and a leading '.' become '_').
 *
 * Pairing.  Files are grouped by module name; inside a group they are
 * ordered by module counter (goldens: by their #N, none = 1), then path.
 * hd_pair_files pairs the k-th OLD file with the k-th NEW one;
 * hd_pair_files_by_content (directory mode, golden check) pairs a group
 * with more than one file on a side by what the files hold.  Such a group
 * gets labels "NAME#1", "NAME#2", ... and a note saying how each pair was
 * made; files left over are on one side only.  Labels are sorted by name, so the order of the reports
 * never depends on the directory listing.
 *
 * Threads.  hd_batch_compare runs the comparisons on opts->jobs threads.
 * Each comparison reads, compares and renders its module into its own
 * struct hd_module_report; nothing is shared but the read-only options
 * and rules (no static mutable state anywhere in the library).  Messages
 * on stderr are written whole line by line (diag.c) and may interleave
 * between modules; the reports are assembled in module order.
 */
#ifndef HLODIFF_BATCH_H
#define HLODIFF_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "hlodiff/arena.h"
#include "hlodiff/breakdown.h"
#include "hlodiff/report.h"

struct hd_rules;

/* A dump or golden file found for a module. */
struct hd_module_file {
	const char *path;
	const char *module;     /* safe module name (see top) */
	int64_t counter;        /* module_NNNN, golden #N; -1 unknown */
	int golden;             /* named *.golden[.gz] */
};

/* One comparison to make. */
struct hd_job {
	const char *label;      /* "NAME" or "NAME#k" */
	const char *module;     /* module name for the rules' scopes */
	const char *old_path;   /* NULL: no OLD file for the module */
	const char *new_path;   /* NULL: no NEW file */
	const char *note;       /* pairing note, or NULL */
	int absent_status;      /* status when a side is missing (0 or 2) */
};

struct hd_batch_opts {
	unsigned parse_flags;   /* parse.h */
	unsigned match_flags;   /* match.h */
	enum hd_by_key by_keys[HD_BY_MAX_KEYS];
	int by_nkeys;           /* 0: no breakdown */
	int at_peak;
	const struct hd_rules *rules;  /* NULL: no rules */
	int werror;
	struct hd_report_opts report;  /* top_n, all */
	unsigned formats;       /* 1u << enum hd_format: parts to render
				   (HD_FORMAT_TEXT_COLOR among them) */
	int md_level;           /* heading level of the Markdown parts */
	const char *html_path;  /* a single comparison: also write HTML */
	int html_parts;         /* many: render each module's HTML part */
	int html_top_n;         /* rows of the HTML movers table */
	int jobs;               /* threads (>= 1) */
};

/*
 * The safe module name of a file (see top) into buf; *counter gets the
 * module counter or golden number (-1 when there is none).  Returns 1
 * for a golden file name, 0 for a dump.
 */
int hd_file_module(const char *path, char *buf, size_t n, int64_t *counter);

/* Is path named like a dump (*-buffer-assignment.txt[.gz]) or a golden
 * (*.golden[.gz])? */
int hd_is_dump_name(const char *path);
int hd_is_golden_name(const char *path);

/*
 * Appends the dumps (and, with goldens, the golden files) of directory
 * dir to files (struct hd_module_file), strings in arena.  Returns the
 * number found, or -1 after printing why the directory cannot be read.
 */
int hd_scan_dir(const char *dir, int goldens, struct hd_vec *files,
		struct hd_arena *arena);

/* Appends one file given by name (a dump or golden) to files. */
void hd_add_file(const char *path, struct hd_vec *files, struct hd_arena *arena);

/*
 * Pairs old_files with new_files (see top; both are sorted) into jobs
 * (struct hd_job), strings in arena.  only_old and only_new are the
 * statuses of a module found only on the OLD or only on the NEW side;
 * golden words the notes for goldens ("1 golden, 2 dumps") instead of
 * OLD and NEW.
 */
void hd_pair_files(struct hd_vec *jobs, struct hd_arena *arena,
		   struct hd_vec *old_files, struct hd_vec *new_files,
		   int only_old, int only_new, int golden);

/*
 * As hd_pair_files, but a module with several files on a side is paired
 * by content, not by order: each file is read (parse_flags, on threads
 * threads) for its parameters' numbers and shapes, its total and the
 * structural hashes of its values (canon.h); pairs are taken greedily,
 * same content first, then same parameters, then the larger share of
 * values in common, then the nearer total, then module-number order.
 * Files with nothing in common, or unreadable, are paired in
 * module-number order.  The note names each pair and how it was made.
 */
void hd_pair_files_by_content(struct hd_vec *jobs, struct hd_arena *arena,
			      struct hd_vec *old_files, struct hd_vec *new_files,
			      int only_old, int only_new, int golden,
			      unsigned parse_flags, int threads);

/*
 * Runs the jobs on o->jobs threads; mods[i] (zeroed by the call) gets
 * job i's report, with the parts of o->formats rendered.  Release each
 * with hd_module_report_release.
 */
void hd_batch_compare(const struct hd_batch_opts *o, const struct hd_job *jobs,
		      size_t n, struct hd_module_report *mods);
void hd_module_report_release(struct hd_module_report *m);

/* A golden file written by hd_batch_write_goldens. */
struct hd_golden_out {
	const char *label;
	const char *dump;        /* the dump it was made from */
	char *path;              /* the golden (malloc'd; free it), or NULL */
	int64_t dump_bytes;      /* file sizes, -1 unknown */
	int64_t golden_bytes;
	int status;              /* 0 written, 2 failed (message printed) */
};

/*
 * Writes the golden of each job's NEW dump to DIR/LABEL.golden (".gz"
 * and gzip-compressed with gz) on jobs threads; out[i] tells how job i
 * went.  A file is replaced atomically (written beside it, renamed).
 */
void hd_batch_write_goldens(const char *dir, int gz, unsigned parse_flags,
			    int jobs, const struct hd_job *j, size_t n,
			    struct hd_golden_out *out);

#endif
