/*
 * report_common.h - helpers shared by the report renderers of this
 * directory (report_md.c, report_junit.c, report_github.c,
 * report_batch.c): the words of a rule verdict as the text report
 * writes them (verdict.c), for formats that lay them out differently.
 * Not part of the API.
 */
#ifndef HLODIFF_REPORT_COMMON_H
#define HLODIFF_REPORT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "hlodiff/report.h"
#include "hlodiff/verdict.h"

#define HD_RC_LINE 1024

/* Does the verdict fail the run (a violated error rule, or any violated
 * rule with werror)? */
int hd_rc_fails(const struct hd_verdict *vd, int werror);

/* "error", "warning", "passed", "not applicable" for a verdict, as it
 * counts: a violated warning rule is an "error" with werror. */
const char *hd_rc_outcome(const struct hd_verdict *vd, int werror);

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

/* Rule counts of a verdict set: errors and warnings as they count with
 * werror (a violated warning rule counts as an error). */
void hd_rc_counts(const struct hd_verdicts *v, int werror, uint32_t *errors,
		  uint32_t *warnings);

/* "size,shape,layout,space,kind,live-range": what changed (diff.h). */
void hd_rc_change_words(char *buf, size_t n, uint32_t changes);

/* "added", "removed", "changed", "same" for a value diff. */
const char *hd_rc_value_verb(const struct hd_value_diff *x);

/* "NEW (was OLD)" label of a value diff or a peak entry's two sides. */
void hd_rc_pair_label(char *buf, size_t n, const struct hd_diff *df,
		      uint32_t old_v, uint32_t new_v);

/* ---- changes of shape, other programs (diff.h, docs/matching.md) ---- */

/* "x2.00" for a ratio x 100 (hd_scale_group). */
void hd_rc_ratio(char *buf, size_t n, uint32_t ratio100);
/* "+1.20GiB", "-512B", "0" for a byte delta. */
void hd_rc_signed_bytes(char *buf, size_t n, int64_t delta);
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
/* The module name of a dump ("" when unknown): the one a golden file
 * records, else hd_module_name_from_path of a file named as XLA names
 * buffer-assignment dumps; only a JAX module's name ("jit_...",
 * "pmap_...") counts. */
void hd_rc_module_of(char *buf, size_t n, const struct hd_dump *d);

#endif
