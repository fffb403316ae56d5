/*
 * report.h - renderers: pure functions of (dump/figures or diff, options)
 * that write one report format to a stream.
 */
#ifndef HLODIFF_REPORT_H
#define HLODIFF_REPORT_H

#include <stdio.h>

#include "hlodiff/breakdown.h"
#include "hlodiff/diff.h"
#include "hlodiff/dump.h"
#include "hlodiff/figures.h"
#include "hlodiff/rules.h"

struct hd_report_opts {
	int top_n;          /* values listed before "N others" (0 = all) */
	int all;            /* list every value, unchanged ones included */
	const struct hd_breakdown *breakdown;
	const struct hd_verdicts *verdicts; /* rule results, NULL if none */ /* --by: JSON gets "breakdown" */
};

void hd_report_stat_text(FILE *out, const struct hd_dump *d,
			 const struct hd_figures *f,
			 const struct hd_report_opts *opts);
void hd_report_stat_json(FILE *out, const struct hd_dump *d,
			 const struct hd_figures *f,
			 const struct hd_report_opts *opts);
void hd_report_diff_text(FILE *out, const struct hd_diff *df,
			 const struct hd_report_opts *opts);
void hd_report_diff_json(FILE *out, const struct hd_diff *df,
			 const struct hd_report_opts *opts);

/* Writes "name{index}" of value v of d ("{}" for a non-tuple value). */
int hd_value_label(char *buf, size_t n, const struct hd_dump *d, uint32_t v);

#endif
