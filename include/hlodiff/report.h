/*
 * report.h - renderers: pure functions of (dump/figures or diff, rule
 * verdicts, options) that write one report format to a stream.
 *
 * Formats (docs: README "Output formats", docs/json.md, docs/ci.md):
 *
 *   text      the report for people (report.c); on a terminal in colour,
 *             which each writer adds as it writes (hd_report_opts.color)
 *   json      one JSON object, "schema": 1 (report.c; docs/json.md)
 *   markdown  a PR comment or $GITHUB_STEP_SUMMARY page (report_md.c)
 *   junit     JUnit XML, one test case per rule per module
 *             (report_junit.c)
 *   github    GitHub Actions workflow commands, one annotation per
 *             violated rule (report_github.c)
 *
 * One pair of dumps is rendered by the hd_report_diff_* functions.  Many
 * modules at once (directory mode, golden check) are rendered in two
 * steps, so that each module can be compared on its own thread: a
 * worker renders the per-module part of every format it was asked for
 * into a buffer (the same hd_report_diff_* functions) and keeps the
 * numbers of the summary table in a struct hd_module_report; the
 * hd_report_batch_* functions then write the whole document from those,
 * modules in order.  The same inputs always give the same bytes.
 */
#ifndef HLODIFF_REPORT_H
#define HLODIFF_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hlodiff/breakdown.h"
#include "hlodiff/diff.h"
#include "hlodiff/dump.h"
#include "hlodiff/figures.h"
#include "hlodiff/membuf.h"
#include "hlodiff/report_opts.h"
#include "hlodiff/rules.h"

enum hd_format {
	HD_FORMAT_TEXT,
	HD_FORMAT_JSON,
	HD_FORMAT_MARKDOWN,
	HD_FORMAT_JUNIT,
	HD_FORMAT_GITHUB,
	HD_FORMAT_COUNT,
	/* not a format of its own: text with ANSI colours, standard output only */
	HD_FORMAT_TEXT_COLOR = HD_FORMAT_COUNT,
	HD_PART_COUNT
};

/* "text", "json", "markdown", "junit", "github". */
const char *hd_format_name(enum hd_format f);
/* Parses a format name; returns 0, or -1 when s is none of them. */
int hd_format_parse(const char *s, enum hd_format *out);

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

/*
 * Markdown: a heading (opts->md_level), a one-line verdict, the figures
 * that changed, the violations with what accounts for them, the top
 * movers and the values at the peak in collapsible <details> sections,
 * the peak explained, and the breakdown when opts->breakdown is set.
 */
void hd_report_diff_markdown(FILE *out, const struct hd_diff *df,
			     const struct hd_report_opts *opts);

/*
 * JUnit: one <testsuite> element for the module (no XML declaration):
 * one <testcase> per rule evaluated.  A violated error rule (or, with
 * werror, warning rule) has a <failure>; a violated warning rule passes
 * with the violation in <system-out>; a rule that could not be
 * evaluated is <skipped>.  Without rules, one test case "compared".
 * Counts for the enclosing <testsuites> are added to *counts (may be
 * NULL).
 */
struct hd_junit_counts {
	uint32_t tests, failures, errors, skipped;
};
void hd_report_diff_junit(FILE *out, const struct hd_diff *df,
			  const struct hd_report_opts *opts,
			  struct hd_junit_counts *counts);
/* The document around suites: declaration and <testsuites>. */
void hd_report_junit_begin(FILE *out, const struct hd_junit_counts *c);
void hd_report_junit_end(FILE *out);
/* Writes s[0..n) escaped for XML text and attributes (&, <, >, ", '
 * as entities; control bytes other than TAB, LF and CR as '?'). */
void hd_xml_escape(FILE *out, const char *s, size_t n);

/*
 * GitHub Actions: "::error file=F,line=L,title=T::MESSAGE" ("::warning"
 * for warning rules unless werror) for each violated rule, F:L the rule's
 * place in its rules file (no file= for the built-in rules).  Nothing
 * when no rule is violated.
 */
void hd_report_diff_github(FILE *out, const struct hd_diff *df,
			   const struct hd_report_opts *opts);
/* The escapes of workflow commands: message data (%, CR, LF) and
 * property values (also ':' and ','). */
void hd_github_escape_data(FILE *out, const char *s, size_t n);
void hd_github_escape_property(FILE *out, const char *s, size_t n);

/* ---- many modules ------------------------------------------------------ */

enum hd_module_state {
	HD_MODULE_COMPARED,   /* both sides read and compared */
	HD_MODULE_ONLY_OLD,   /* no NEW dump for it (golden check: no dump) */
	HD_MODULE_ONLY_NEW,   /* no OLD dump (golden check: no golden) */
	HD_MODULE_FAILED,     /* a side could not be read (status 2) */
};

/* "compared", "only_old", "only_new", "failed". */
const char *hd_module_state_name(enum hd_module_state s);

/* Why two dumps may not be two compiles of one program. */
enum hd_other_program {
	HD_OTHER_PROGRAM = 1u << 0,   /* few values matched by structure */
	HD_OTHER_MODULE = 1u << 1,    /* differently named modules */
};

/* One module of a batch: the summary numbers and its rendered parts. */
struct hd_module_report {
	size_t index;            /* place in the list of modules */
	const char *label;       /* "jit_f", or "jit_f#2" for a second compile */
	const char *module;      /* module name the rules were scoped by */
	const char *old_name;    /* display names; NULL for a missing side */
	const char *new_name;
	int state;               /* enum hd_module_state */
	int status;              /* 0, 1 or 2, as the exit status */
	const char *note;        /* e.g. pairing by order, "no golden"; NULL */
	int other_program;       /* enum hd_other_program: what the report's
				    notes say of the pair (--strict-module) */
	int has_total[2], has_peak[2];   /* [0] old, [1] new */
	int64_t total[2], peak[2];
	int has_rules;
	uint32_t n_error, n_warn, n_pass, n_na;  /* violated errors/warnings */
	struct hd_junit_counts junit;
	const char *part[HD_PART_COUNT];  /* per-module rendering, or NULL */
	size_t part_len[HD_PART_COUNT];
	struct hd_membuf part_buf[HD_PART_COUNT];  /* where part lies */
	char *html;              /* the module's part of the HTML page of many
				    modules (malloc'd), or NULL */
	size_t html_len;
};

struct hd_batch_report {
	const char *what;        /* "directories" or "golden" */
	const char *old_root, *new_root;  /* what was compared, for titles */
	const struct hd_module_report *mods;
	size_t n;
	int status;              /* the worst module status */
	int werror;
	int summary_only;        /* text, markdown: the summary table only */
	int pr;                  /* markdown: the pull-request form */
	const char *full_report; /* pr: where the full report is, or NULL */
};

/*
 * One self-contained HTML page for many modules (directory mode): a
 * table of the modules, each compared one linking to its section, then
 * the sections (mods[i].html) in module order.
 */
void hd_report_batch_html(FILE *out, const struct hd_batch_report *b);

/* The pull-request Markdown stays under this many bytes (GitHub refuses
 * comments over 65,536 characters). */
#define HD_PR_LIMIT 60000

/*
 * The pull-request form of the Markdown report of many modules: the
 * failing modules, then those with warnings, in tables; a count of the
 * passing ones; each failing and warning module's section folded in
 * <details>; all under HD_PR_LIMIT bytes, with a last line saying what
 * was left out and where the full report is (b->full_report).
 */
void hd_report_batch_pr(FILE *out, const struct hd_batch_report *b);

/*
 * The pull-request form of one pair's Markdown report md (n bytes): the
 * report itself when it fits in HD_PR_LIMIT bytes, else its first lines
 * (open <details> closed) and a line saying how much was left out and
 * where the full report is.
 */
void hd_report_pair_pr(FILE *out, const char *md, size_t n,
		       const char *full_report);

/*
 * The whole document for many modules: a summary table (module, total
 * old/new/delta/%, peak old/new, verdict) and then each module's part.
 * Text: the table, then "== LABEL: OLD -> NEW" and the module's report.
 * JSON: {"schema": 1, ..., "modules": [...]} (docs/json.md).  Markdown:
 * the table, then each module's section.  JUnit: one <testsuite> per
 * module.  GitHub: the annotations of every module, and one per module
 * that failed or has no golden.
 */
void hd_report_batch(FILE *out, enum hd_format f,
		     const struct hd_batch_report *b);

#endif
