/*
 * report_opts.h - what a report shows, the options every format reads.
 * Apart from report.h so that what the formats share (report_common)
 * sits below the formats.
 */
#ifndef HLODIFF_REPORT_OPTS_H
#define HLODIFF_REPORT_OPTS_H

struct hd_breakdown;
struct hd_verdicts;

struct hd_report_opts {
	int top_n;          /* values listed before "N others" (0 = all) */
	int all;            /* list every value, unchanged ones included */
	const struct hd_breakdown *breakdown; /* --by: shown when not NULL */
	const struct hd_verdicts *verdicts;   /* rule results, NULL if none */
	int werror;         /* warnings fail (junit, github, markdown words) */
	int md_level;       /* markdown: level of the report's heading (2:
			       "##"); sections go one level deeper */
	const char *label;  /* module label for markdown/junit/github, or
			       NULL (then the NEW file's name) */
	int summary_only;   /* batch text/markdown: the summary table only */
	/* --source-prefix OLD=NEW, in the order given: a value's source
	 * path that starts with OLD is shown as NEW and the rest (text,
	 * Markdown, GitHub); NULL when none */
	const char *const *source_prefix;
	int n_source_prefix;
	int color;          /* text: ANSI colours, for a terminal */
};

#endif
