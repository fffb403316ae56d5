/*
 * main.c - the command line: parses options and wires the stages
 * (parse -> figures -> match -> diff -> report) for each command.  No
 * logic of its own.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/breakdown.h"
#include "hlodiff/diag.h"
#include "hlodiff/diff.h"
#include "hlodiff/figures.h"
#include "hlodiff/html.h"
#include "hlodiff/parse.h"
#include "hlodiff/report.h"
#include "hlodiff/rules.h"

#ifndef HLODIFF_VERSION
#define HLODIFF_VERSION "0.1.0"
#endif

#define DEFAULT_TOP_N 20

struct options {
	int json;
	int strict;
	int by_name;
	enum hd_by_key by_keys[HD_BY_MAX_KEYS];
	int by_nkeys;       /* 0: no --by */
	int at_peak;
	int top_n_given;    /* -n was on the command line */
	const char *html_path;
	const char *rules_path;   /* NULL: the built-in default rules */
	int no_rules;
	int werror;
	struct hd_report_opts report;
	const char *args[2];
	int nargs;
};

static void usage(FILE *out)
{
	fputs("usage: hlodiff [options] OLD NEW     compare two buffer-assignment dumps\n"
	      "       hlodiff stat [options] DUMP   figures of one dump\n"
	      "\n"
	      "DUMP is an XLA *-buffer-assignment.txt file ('-' reads standard input;\n"
	      ".gz files are read transparently).\n"
	      "\n"
	      "options:\n"
	      "  --json        print one JSON object instead of text\n"
	      "  --all         list every value, unchanged ones included\n"
	      "  -n N          list the N values that changed most (default 20, 0 = all)\n"
	      "  --by KEYS     where the bytes went: a tree by KEYS (op_name, source,\n"
	      "                opcode, memory-space, kind; two as KEY1,KEY2)\n"
	      "  --at-peak     with --by: only the values live at the peak\n"
	      "  --rules FILE  the rules to check (default: the built-in rules/default.rules)\n"
	      "  --no-rules    check no rules (exit 0 whatever changed)\n"
	      "  --werror      rules of warning severity fail too (exit 1)\n"
	      "  --html FILE   also write a self-contained HTML report to FILE\n"
	      "  --by-name     match values by exact name{index} only\n"
	      "  --strict      treat lines the parser does not know as errors\n"
	      "  --help        show this help\n"
	      "  --version     show the version\n"
	      "\n"
	      "exit status: 0 compared (or read) fine, 1 a rule was violated,\n"
	      "2 usage or input error.\n", out);
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hlodiff: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'hlodiff --help'.\n", stderr);
	return HD_EXIT_TROUBLE;
}

static int parse_count(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/* Returns -1 to continue, else an exit status. */
static int parse_options(struct options *o, int argc, char **argv, int first)
{
	int i, only_args = 0;

	for (i = first; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
			if (o->nargs == 2)
				return usage_error("too many arguments: '%s'", a);
			o->args[o->nargs++] = a;
		} else if (strcmp(a, "--") == 0) {
			only_args = 1;
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--all") == 0) {
			o->report.all = 1;
		} else if (strcmp(a, "--strict") == 0) {
			o->strict = 1;
		} else if (strcmp(a, "--by") == 0) {
			char err[256];
			if (i + 1 >= argc)
				return usage_error("%s needs a key list", a);
			if (hd_by_parse(argv[++i], o->by_keys, &o->by_nkeys, err, sizeof(err)))
				return usage_error("--by: %s", err);
		} else if (strcmp(a, "--rules") == 0) {
			if (i + 1 >= argc)
				return usage_error("%s needs a file name", a);
			o->rules_path = argv[++i];
		} else if (strcmp(a, "--no-rules") == 0) {
			o->no_rules = 1;
		} else if (strcmp(a, "--werror") == 0) {
			o->werror = 1;
		} else if (strcmp(a, "--html") == 0) {
			if (i + 1 >= argc)
				return usage_error("%s needs a file name", a);
			o->html_path = argv[++i];
		} else if (strcmp(a, "--at-peak") == 0) {
			o->at_peak = 1;
		} else if (strcmp(a, "--by-name") == 0) {
			o->by_name = 1;
		} else if (strcmp(a, "-n") == 0) {
			if (i + 1 >= argc)
				return usage_error("%s needs a number", a);
			if (parse_count(argv[++i], &o->report.top_n))
				return usage_error("-n takes a whole number >= 0, not '%s'", argv[i]);
			o->top_n_given = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return HD_EXIT_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("hlodiff %s\n", HLODIFF_VERSION);
			return HD_EXIT_OK;
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}
	return -1;
}

static unsigned parse_flags(const struct options *o)
{
	return o->strict ? HD_PARSE_STRICT : 0;
}

static int load(struct hd_dump *d, const char *path, const struct options *o)
{
	if (hd_parse_file(d, path, parse_flags(o)))
		return -1;
	hd_parse_report_unknown(d);
	return 0;
}

static int cmd_stat(const struct options *o)
{
	struct hd_dump d;
	struct hd_figures f;
	struct hd_report_opts ro;
	struct hd_breakdown *b = NULL;

	if (o->nargs != 1)
		return usage_error("%s", "stat takes one dump");
	if (load(&d, o->args[0], o)) {
		hd_dump_release(&d);
		return HD_EXIT_TROUBLE;
	}
	hd_figures_compute(&f, &d);
	if (f.total_mismatch)
		hd_warning(d.name, d.total_line,
			   "'Total bytes used' is %lld but the allocation sizes add up to %lld",
			   (long long)f.total_bytes, (long long)f.alloc_bytes);
	ro = o->report;
	if (o->by_nkeys)
		b = o->at_peak ? hd_breakdown_dump_peak(&d, &f, o->by_keys, o->by_nkeys, ro.top_n)
			       : hd_breakdown_dump(&d, o->by_keys, o->by_nkeys, ro.top_n);
	ro.breakdown = b;
	if (o->json) {
		hd_report_stat_json(stdout, &d, &f, &ro);
	} else {
		hd_report_stat_text(stdout, &d, &f, &ro);
		if (b) {
			fputc('\n', stdout);
			hd_breakdown_report_text(stdout, b);
		}
	}
	hd_breakdown_free(b);
	hd_figures_release(&f);
	hd_dump_release(&d);
	return HD_EXIT_OK;
}

/* Writes the HTML report; the table shows every mover unless -n was given. */
static int write_html(const struct options *o, const struct hd_diff *df)
{
	FILE *f = fopen(o->html_path, "w");
	int top_n = o->top_n_given ? o->report.top_n : 0;

	if (!f) {
		hd_error(o->html_path, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	hd_report_html(f, df, NULL, o->report.all ? 0 : top_n);
	if (ferror(f) | fclose(f)) {
		hd_error(o->html_path, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The rules to check: --rules FILE, the built-in default, or none. */
static int load_rules(const struct options *o, struct hd_rules **rules)
{
	*rules = NULL;
	if (o->no_rules)
		return 0;
	if (o->rules_path)
		return hd_rules_load(rules, o->rules_path);
	return hd_rules_load_default(rules);
}

/* Evaluates the rules for the module the NEW dump belongs to. */
static struct hd_verdicts *check_rules(const struct options *o,
				       const struct hd_rules *rules,
				       const struct hd_diff *df)
{
	char module[512];

	if (!rules)
		return NULL;
	if (hd_module_name_from_path(o->args[1], module, sizeof(module)) < 0 &&
	    hd_module_name_from_path(o->args[0], module, sizeof(module)) < 0)
		module[0] = '\0';
	return hd_rules_eval(rules, df, module[0] ? module : NULL);
}

static int cmd_diff(const struct options *o)
{
	struct hd_dump old, new_dump;
	struct hd_diff df;
	struct hd_report_opts ro;
	struct hd_breakdown *b = NULL;
	struct hd_rules *rules;
	struct hd_verdicts *verdicts;
	int bad, status;

	if (o->nargs != 2)
		return usage_error("%s", "expected two dumps: OLD NEW");
	if (strcmp(o->args[0], "-") == 0 && strcmp(o->args[1], "-") == 0)
		return usage_error("%s", "only one of OLD and NEW can be '-'");
	if (load_rules(o, &rules))
		return HD_EXIT_TROUBLE;
	bad = load(&old, o->args[0], o);
	bad |= load(&new_dump, o->args[1], o);
	if (bad) {
		hd_dump_release(&old);
		hd_dump_release(&new_dump);
		hd_rules_free(rules);
		return HD_EXIT_TROUBLE;
	}
	hd_diff_compute(&df, &old, &new_dump, o->by_name ? HD_MATCH_BY_NAME_ONLY : 0);
	verdicts = check_rules(o, rules, &df);
	status = verdicts ? hd_verdicts_status(verdicts, o->werror) : HD_EXIT_OK;
	ro = o->report;
	ro.verdicts = verdicts;
	if (o->by_nkeys)
		b = hd_breakdown_diff(&df, o->by_keys, o->by_nkeys, o->at_peak, ro.top_n);
	ro.breakdown = b;
	if (o->json) {
		hd_report_diff_json(stdout, &df, &ro);
	} else {
		hd_report_diff_text(stdout, &df, &ro);
		if (b) {
			fputc('\n', stdout);
			hd_breakdown_report_text(stdout, b);
		}
	}
	hd_breakdown_free(b);
	if (o->html_path && write_html(o, &df))
		status = HD_EXIT_TROUBLE;
	hd_verdicts_free(verdicts);
	hd_rules_free(rules);
	hd_diff_release(&df);
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
	return status;
}

static int finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		hd_error(NULL, 0, "cannot write the report: %s", strerror(errno));
		return HD_EXIT_TROUBLE;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	int first = 1, status, is_stat = 0;

	memset(&o, 0, sizeof(o));
	o.report.top_n = DEFAULT_TOP_N;
	if (argc > 1 && strcmp(argv[1], "stat") == 0) {
		is_stat = 1;
		first = 2;
	}
	status = parse_options(&o, argc, argv, first);
	if (status >= 0)
		return finish(status);
	if (o.at_peak && !o.by_nkeys)
		return finish(usage_error("%s", "--at-peak goes with --by KEYS"));
	status = is_stat ? cmd_stat(&o) : cmd_diff(&o);
	return finish(status);
}
