/*
 * report_common.h - helpers shared by the report renderers of this
 * directory (report_md.c, report_junit.c, report_github.c,
 * report_batch.c): the words of a rule verdict as the text report
 * writes them (report_verdict.c), for formats that lay them out differently,
 * and the pens of the text report.  Not part of the API.
 */
#ifndef HLODIFF_REPORT_COMMON_H
#define HLODIFF_REPORT_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hlodiff/diff.h"
#include "hlodiff/report_opts.h"
#include "hlodiff/verdict.h"

#define HD_RC_LINE 1024

/* ---- colour: the text report on a terminal (hd_report_opts.color) ---- */

enum hd_pen { HD_PEN_NONE, HD_PEN_RED, HD_PEN_GREEN, HD_PEN_YELLOW, HD_PEN_BOLD, HD_PEN_DIM };

/* The ANSI escape that starts pen p, and the one that ends it; "" when
 * color is 0 or p is HD_PEN_NONE, so plain text stays byte for byte. */
const char *hd_rc_ink(int color, enum hd_pen p);
const char *hd_rc_ink_end(int color, enum hd_pen p);
/* Growth red, shrinkage green: the pen of a signed number ("+3", "-2.0%";
 * none for "0" or "-"). */
enum hd_pen hd_rc_sign_pen(const char *num);
/* s in pen p, padded with spaces to width bytes (on the right when width
 * < 0), the padding outside the pen; returns buf. */
char *hd_rc_cell(char *buf, size_t n, int color, enum hd_pen p, int width,
		 const char *s);

/* Does the verdict fail the run (a violated error rule, or any violated
 * rule with werror)? */
int hd_rc_fails(const struct hd_verdict *vd, int werror);

/* v in decimal, or "-" when the figure is absent (!has). */
void hd_rc_int_cell(char *buf, size_t n, int has, int64_t v);

/* "; THRESHOLD": what the rule of a verdict allows ("; 10% of OLD allows
 * +N", "; ceiling N", ...), or the parts of an 'and' rule. */
void hd_rc_threshold(char *buf, size_t n, const struct hd_verdict *vd);

/* "METRIC: OLD -> NEW (+DELTA, +P%); THRESHOLD" as in the text report. */
void hd_rc_numbers(char *buf, size_t n, const struct hd_verdict *vd);

/* "rules/x.rules:12" (the rules file and the rule's line). */
void hd_rc_where(char *buf, size_t n, const struct hd_verdicts *v,
		 const struct hd_verdict *vd);

/*
 * Line i (0-based) of what accounts for a violation: its contributing
 * values ("+DELTA NAME OLD -> NEW (added) (was X)") then its new copies
 * ("new prefetch NAME: SHAPE, B bytes, space S -> D"), then "... and N
 * more".  Returns 0 and fills buf, or -1 when there is no line i.
 */
int hd_rc_detail(char *buf, size_t n, const struct hd_verdicts *v,
		 const struct hd_verdict *vd, uint32_t i);

/* The module's label: opts->label, else the verdicts' module name,
 * else the NEW dump's display name. */
const char *hd_rc_label(const struct hd_diff *df,
			const struct hd_report_opts *opts);

/* "size,shape,layout,space,kind,live-range": what changed (diff.h). */
void hd_rc_change_words(char *buf, size_t n, uint32_t changes);

/* "added", "removed", "changed", "same" for a value diff. */
const char *hd_rc_value_verb(const struct hd_value_diff *x);

/* "NEW (was OLD)" label of a value diff or a peak entry's two sides. */
void hd_rc_pair_label(char *buf, size_t n, const struct hd_diff *df,
		      uint32_t old_v, uint32_t new_v);

/* ---- what a value is and where it came from ---------------------------- */

/* Width an op_name is shortened to in text, Markdown and GitHub. */
#define HD_RC_OP_WIDTH 64

/*
 * op_name shortened for people: a leading "jit(NAME)/jit(main)/" (JAX's
 * outer function and its main computation, the same for every value of
 * a module) is dropped; what is left, when longer than width bytes,
 * keeps its last '/' components that fit after ".../" (the last one cut
 * from the left when even it does not fit).  Empty when op is.
 */
void hd_rc_short_op_name(char *buf, size_t n, struct hd_slice op, size_t width);

/* FILE:LINE of a source ("FILE" without a line), FILE mapped by
 * opts->source_prefix (the first OLD=NEW whose OLD starts it); "" when
 * there is no file. */
void hd_rc_source_text(char *buf, size_t n, const struct hd_insn_source *s,
		       const struct hd_report_opts *opts);

/* The source a value diff is shown with: the new value's, else (no new
 * value, or no op_name nor file there) the old one's. */
struct hd_insn_source hd_rc_diff_source(const struct hd_diff *df, uint32_t old_v,
					uint32_t new_v);

/*
 * hd_rc_diff_source of each of the first n value diffs of df, for a
 * report that lists many: read in each dump's order, the pages behind
 * given back, and copied.  Read in the listing's order instead, they
 * would map most of both dumps back in.
 */
struct hd_rc_sources {
	struct hd_insn_source *of;      /* per value diff */
	struct hd_arena text;           /* the copies of the strings */
};

void hd_rc_sources_read(struct hd_rc_sources *s, const struct hd_diff *df,
			uint32_t n);
void hd_rc_sources_release(struct hd_rc_sources *s);

/* "OLD -> NEW" shapes with layout of a value diff; the shape alone when
 * both are the same or one side is absent; "" when none is known. */
void hd_rc_shape_pair(char *buf, size_t n, const struct hd_diff *df,
		      uint32_t old_v, uint32_t new_v);

/* "16384 (16.0KiB)": the bytes and their human form ("-" when < 0 and
 * unknown_ok; the number alone below 1 KiB). */
void hd_rc_bytes_h(char *buf, size_t n, int64_t bytes, int unknown_ok);
/* "+16384 (+16.0KiB)" for a delta. */
void hd_rc_delta_h(char *buf, size_t n, int64_t delta);

/* ---- memory spaces ------------------------------------------------------- */

enum hd_platform {
	HD_PLATFORM_UNKNOWN,
	HD_PLATFORM_TPU,   /* tiled layouts ":T(" in its shapes */
	HD_PLATFORM_GPU,   /* not recognised yet: a GPU dump says nothing */
	HD_PLATFORM_CPU,   /* of its platform but in its file name, which a
			      golden file or a renamed copy loses */
};

/* What the dump says of its platform: TPU when a shape of its first
 * allocations or instructions has a tiled layout (FORMAT.md section 8). */
enum hd_platform hd_rc_platform(const struct hd_dump *d);
/* One platform for both sides of a diff: the one they agree on, or the
 * one that is known; unknown when they differ. */
enum hd_platform hd_rc_diff_platform(const struct hd_diff *df);
/* "tpu", "gpu", "cpu", or NULL when unknown. */
const char *hd_rc_platform_name(enum hd_platform p);
/* Name of memory space s on platform p ("HBM", "VMEM", "host"), or NULL
 * when it has none. */
const char *hd_rc_space_name(enum hd_platform p, int64_t s);
/* "memory spaces (TPU): 0 HBM, 1 VMEM": the names of the spaceN_bytes
 * rows of df that have one; returns 0 and "" when none has. */
int hd_rc_spaces_legend(char *buf, size_t n, const struct hd_diff *df);
/* Is figure row r a time (a program position, no percentage)? */
int hd_rc_row_is_time(const struct hd_figure_row *r);

/* "1 (VMEM)", or "1" when the space has no name ("?" when s < 0). */
void hd_rc_space_text(char *buf, size_t n, enum hd_platform p, int64_t s);

/* ---- changes of shape, other programs (diff.h, docs/matching.md) ---- */

/* Scaling group g's ratio ("x2.00") in ratio and its byte delta
 * ("+1.20GiB", "-512B", "0") in delta; returns the delta. */
int64_t hd_rc_scale_group(char *ratio, size_t rn, char *delta, size_t dn,
			  const struct hd_scale_group *g);
/* "NEW (was OLD) x0.50 -12.0MiB": one of the scaling summary's others. */
void hd_rc_scaling_other(char *buf, size_t n, const struct hd_diff *df,
			 const struct hd_value_diff *vd);
/* The note when the two dumps look like different programs
 * (hd_diff_programs): returns 1 and fills buf, else 0. */
int hd_rc_programs_note(char *buf, size_t n, const struct hd_diff *df);
/* The note when the two dumps are of differently named modules (the
 * names their paths give, as directory mode reads them): returns 1 and
 * fills buf, else 0. */
int hd_rc_module_note(char *buf, size_t n, const struct hd_diff *df);
/* Both notes (module, programs) that apply, each as before NOTE after. */
void hd_rc_put_notes(FILE *out, const struct hd_diff *df, const char *before,
		     const char *after);
/* The module name of a dump ("" when unknown): the one a golden file
 * records, else hd_module_name_from_path of a file named as XLA names
 * buffer-assignment dumps; only a JAX module's name ("jit_...",
 * "pmap_...") counts. */
void hd_rc_module_of(char *buf, size_t n, const struct hd_dump *d);

/* ---- verdicts, as every format words them ----------------------------- */

/*
 * For a rule with 'and' parts: "; P% of OLD allows +A (exceeded) and
 * allowed +B (within)", each part's threshold and whether (old, new)
 * exceeds it; "" for a rule of one condition.  buf holds n bytes.
 */
char *hd_verdict_parts_text(char *buf, size_t n, const struct hd_verdict *vd);

/* "1.5" for a percentage kept in millionths (a rule's P%). */
char *hd_pct_text(char *buf, size_t n, int64_t pct);

/*
 * "lost alias parameter N INDEX: SHAPE, B bytes, NAME (op_name "..."),
 * WHAT IN NEW" of lost alias i of v (an index into v->lost), as every
 * format prints it.  Returns what snprintf returns.
 */
int hd_lost_alias_text(char *buf, size_t n, const struct hd_verdicts *v,
		       uint32_t i);

#endif
