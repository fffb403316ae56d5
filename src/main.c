/*
 * main.c - the command line: parses options and wires the stages for
 * each command (stat; a pair of dumps; two directories; golden update
 * and check).  The work is done by the library: parse, diff, rules,
 * report (one pair), batch (many modules, threads, golden files).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hlodiff/batch.h"
#include "hlodiff/breakdown.h"
#include "hlodiff/diag.h"
#include "hlodiff/diff.h"
#include "hlodiff/figures.h"
#include "hlodiff/filename.h"
#include "hlodiff/golden.h"
#include "hlodiff/load.h"
#include "hlodiff/match.h"
#include "hlodiff/parallel.h"
#include "hlodiff/parse.h"
#include "hlodiff/report.h"
#include "hlodiff/rules.h"

#ifndef HLODIFF_VERSION
#define HLODIFF_VERSION "0.3.4"
#endif

#define DEFAULT_TOP_N 20
#define MODULE_MAX 512

enum command { CMD_DIFF, CMD_STAT, CMD_GOLDEN_UPDATE, CMD_GOLDEN_CHECK };
enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	int cmd;                 /* enum command */
	enum hd_format format;   /* of standard output */
	const char *file_out[HD_FORMAT_COUNT];  /* --json=FILE, --markdown FILE ... */
	int color;               /* enum color_mode */
	int strict;
	int strict_module;       /* --strict-module */
	int allow_incomplete;
	int by_name;
	enum hd_by_key by_keys[HD_BY_MAX_KEYS];
	int by_nkeys;            /* 0: no --by */
	int at_peak;
	int top_n_given;         /* -n was on the command line */
	const char *html_path;
	const char *rules_path;  /* NULL: the built-in default rules */
	int no_rules;
	int werror;
	int jobs;                /* -j; 0: the number of online processors */
	int allow_new;           /* golden check: a module without golden is ok */
	int gz;                  /* golden update: write .golden.gz */
	int summary_only;        /* --summary */
	int pr;                  /* --pr: Markdown in the pull-request form */
	const char *markdown_pr; /* --markdown-pr FILE */
	const char *full_report; /* --full-report WHERE */
	struct hd_report_opts report;
	const char **source_prefix; /* --source-prefix OLD=NEW, in order */
	const char **args;       /* positional arguments */
	int nargs;
};

static void usage(FILE *out)
{
	fputs("usage: hlodiff [options] OLD NEW           compare two buffer-assignment dumps\n"
	      "       hlodiff [options] OLD_DIR NEW_DIR   compare every module of two dump directories\n"
	      "       hlodiff stat [options] DUMP         figures of one dump\n"
	      "       hlodiff golden update [options] DIR DUMP...  write one golden file per module\n"
	      "       hlodiff golden check [options] DIR DUMP...   compare dumps with their goldens\n"
	      "\n"
	      "DUMP is an XLA *-buffer-assignment.txt file ('-' reads standard input;\n"
	      ".gz files are read transparently), a golden file, or (golden commands) a\n"
	      "directory of dumps.\n"
	      "\n"
	      "options:\n"
	      "  --format F    standard output as text, json, markdown, junit or github\n"
	      "  --json        the same as --format json\n"
	      "  --text FILE, --json=FILE, --markdown FILE, --junit FILE, --github FILE\n"
	      "                also write that format to FILE (any number of them)\n"
	      "  --color[=WHEN]  colour the text on a terminal: auto (default), always, never\n"
	      "  --all         list every value, unchanged ones included\n"
	      "  -n N          list the N values that changed most (default 20, 0 = all)\n"
	      "  --by KEYS     where the bytes went: a tree by KEYS (op_name, source,\n"
	      "                opcode, memory-space, kind; two as KEY1,KEY2)\n"
	      "  --at-peak     with --by: only the values live at the peak\n"
	      "  --rules FILE  the rules to check (default: the built-in rules/default.rules)\n"
	      "  --no-rules    check no rules (exit 0 whatever changed)\n"
	      "  --werror      rules of warning severity fail too (exit 1)\n"
	      "  --html FILE   also write a self-contained HTML report to FILE (for\n"
	      "                directories: one page, a table linking to each module)\n"
	      "  --source-prefix OLD=NEW  show a value's source path that starts with\n"
	      "                OLD as NEW (repeatable): repository paths for annotations\n"
	      "  --by-name     match values by exact name{index} only\n"
	      "  --strict      treat lines the parser does not know as errors\n"
	      "  --strict-module  one pair: differently named modules, or dumps that\n"
	      "                look like two different programs, are an error (exit 2)\n"
	      "  --allow-incomplete  read a truncated dump as far as it goes (its\n"
	      "                partial figures are left out) instead of exit 2\n"
	      "  -j N          compare N modules at once (default: the number of processors)\n"
	      "  --summary     many modules: only the summary table on standard output\n"
	      "  --pr          Markdown in the pull-request form: failing modules first,\n"
	      "                sections folded, under 60,000 characters\n"
	      "  --markdown-pr FILE  also write the pull-request Markdown to FILE\n"
	      "  --full-report WHERE  where the full report is, named in the\n"
	      "                pull-request Markdown (a URL, a file)\n"
	      "  --allow-new   golden check: a module without a golden is not an error\n"
	      "  --gz          golden update: write gzip-compressed DIR/MODULE.golden.gz\n"
	      "  --help        show this help\n"
	      "  --version     show the version\n"
	      "\n"
	      "exit status: 0 compared (or read) fine, 1 a rule was violated,\n"
	      "2 usage or input error (also: a module without a golden).\n", out);
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

/* ---- options ------------------------------------------------------------- */

/*
 * The value of option a: after '=' in "--opt=VALUE", else the next
 * argument (*i advances).  NULL when missing.
 */
static const char *opt_value(const char *a, int argc, char **argv, int *i)
{
	const char *eq = strchr(a, '=');

	if (eq)
		return eq + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

/* Does argument a name option name, alone or as "name=..."? */
static int is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);

	return strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

/* --text FILE, --json=FILE, --markdown FILE, --junit FILE, --github FILE */
static int file_output(struct options *o, const char *a, int argc, char **argv,
		       int *i)
{
	static const struct { const char *opt; enum hd_format f; } outs[] = {
		{ "--text", HD_FORMAT_TEXT }, { "--markdown", HD_FORMAT_MARKDOWN },
		{ "--md", HD_FORMAT_MARKDOWN }, { "--junit", HD_FORMAT_JUNIT },
		{ "--github", HD_FORMAT_GITHUB }, { "--json", HD_FORMAT_JSON },
	};
	size_t k;
	const char *v;

	for (k = 0; k < sizeof(outs) / sizeof(outs[0]); k++) {
		if (!is_opt(a, outs[k].opt))
			continue;
		if (outs[k].f == HD_FORMAT_JSON && !strchr(a, '=')) {
			o->format = HD_FORMAT_JSON;   /* --json alone: the old flag */
			return 0;
		}
		v = opt_value(a, argc, argv, i);
		if (!v || !*v)
			return usage_error("%s needs a file name", outs[k].opt);
		if (strcmp(v, "-") == 0)
			return usage_error("%s writes a file; for standard output use --format %s",
					   outs[k].opt, hd_format_name(outs[k].f));
		o->file_out[outs[k].f] = v;
		return 0;
	}
	return 1;
}

static int color_option(struct options *o, const char *a)
{
	const char *eq = strchr(a, '=');

	if (!eq || strcmp(eq + 1, "always") == 0)
		o->color = COLOR_ALWAYS;
	else if (strcmp(eq + 1, "auto") == 0)
		o->color = COLOR_AUTO;
	else if (strcmp(eq + 1, "never") == 0)
		o->color = COLOR_NEVER;
	else
		return usage_error("--color takes auto, always or never, not '%s'", eq + 1);
	return 0;
}

/* Options with a value; returns 1 when a is none of them. */
static int value_option(struct options *o, const char *a, int argc, char **argv,
			int *i)
{
	const char *v;
	char err[256];

	if (is_opt(a, "--format")) {
		if (!(v = opt_value(a, argc, argv, i)))
			return usage_error("%s needs a format", a);
		if (hd_format_parse(v, &o->format))
			return usage_error("unknown format '%s' (expected text, json, markdown, junit or github)", v);
	} else if (strcmp(a, "--by") == 0) {
		if (!(v = opt_value(a, argc, argv, i)))
			return usage_error("%s needs a key list", a);
		if (hd_by_parse(v, o->by_keys, &o->by_nkeys, err, sizeof(err)))
			return usage_error("--by: %s", err);
	} else if (is_opt(a, "--rules")) {
		if (!(v = opt_value(a, argc, argv, i)))
			return usage_error("%s needs a file name", a);
		o->rules_path = v;
	} else if (is_opt(a, "--markdown-pr")) {
		if (!(v = opt_value(a, argc, argv, i)) || !*v)
			return usage_error("%s needs a file name", "--markdown-pr");
		o->markdown_pr = v;
	} else if (is_opt(a, "--full-report")) {
		if (!(v = opt_value(a, argc, argv, i)) || !*v)
			return usage_error("%s needs a URL or a file name", "--full-report");
		o->full_report = v;
	} else if (is_opt(a, "--html")) {
		if (!(v = opt_value(a, argc, argv, i)))
			return usage_error("%s needs a file name", a);
		o->html_path = v;
	} else if (is_opt(a, "--source-prefix")) {
		if (!(v = opt_value(a, argc, argv, i)))
			return usage_error("%s needs OLD=NEW", a);
		if (!strchr(v, '=') || v[0] == '=')
			return usage_error("--source-prefix takes OLD=NEW (a path prefix of the dump, "
					   "then what to show instead), not '%s'", v);
		o->source_prefix[o->report.n_source_prefix++] = v;
		o->report.source_prefix = o->source_prefix;
	} else if (strcmp(a, "-n") == 0) {
		if (!(v = opt_value(a, argc, argv, i)))
			return usage_error("%s needs a number", a);
		if (parse_count(v, &o->report.top_n))
			return usage_error("-n takes a whole number >= 0, not '%s'", v);
		o->top_n_given = 1;
	} else if (strncmp(a, "-j", 2) == 0 || is_opt(a, "--jobs")) {
		v = a[1] == 'j' && a[2] ? a + 2 : opt_value(a, argc, argv, i);
		if (!v || parse_count(v, &o->jobs) || o->jobs < 1)
			return usage_error("-j takes a whole number >= 1, not '%s'", v ? v : "");
	} else {
		return 1;
	}
	return 0;
}

/* Flags without a value; returns 1 when a is none of them. */
static int flag_option(struct options *o, const char *a)
{
	static const struct { const char *name; size_t off; } flags[] = {
		{ "--all", offsetof(struct options, report.all) },
		{ "--strict", offsetof(struct options, strict) },
		{ "--strict-module", offsetof(struct options, strict_module) },
		{ "--allow-incomplete", offsetof(struct options, allow_incomplete) },
		{ "--no-rules", offsetof(struct options, no_rules) },
		{ "--werror", offsetof(struct options, werror) },
		{ "--at-peak", offsetof(struct options, at_peak) },
		{ "--by-name", offsetof(struct options, by_name) },
		{ "--allow-new", offsetof(struct options, allow_new) },
		{ "--gz", offsetof(struct options, gz) },
		{ "--summary", offsetof(struct options, summary_only) },
		{ "--pr", offsetof(struct options, pr) },
	};
	size_t k;

	for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (strcmp(a, flags[k].name) == 0) {
			*(int *)((char *)o + flags[k].off) = 1;
			return 0;
		}
	return 1;
}

/* Returns -1 to continue, else an exit status. */
static int parse_options(struct options *o, int argc, char **argv, int first)
{
	int i, only_args = 0, st;

	for (i = first; i < argc; i++) {
		const char *a = argv[i];

		if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
			o->args[o->nargs++] = a;
		} else if (strcmp(a, "--") == 0) {
			only_args = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return HD_EXIT_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("hlodiff %s\n", HLODIFF_VERSION);
			return HD_EXIT_OK;
		} else if (is_opt(a, "--color")) {
			if (color_option(o, a))
				return HD_EXIT_TROUBLE;
		} else {
			st = flag_option(o, a);
			if (st == 1)
				st = file_output(o, a, argc, argv, &i);
			if (st == 1)
				st = value_option(o, a, argc, argv, &i);
			if (st == 1)
				return usage_error("unknown option '%s'", a);
			if (st)
				return HD_EXIT_TROUBLE;
		}
	}
	return -1;
}

/* ---- shared -------------------------------------------------------------- */

static unsigned parse_flags(const struct options *o)
{
	return (o->strict ? HD_PARSE_STRICT : 0) |
	       (o->allow_incomplete ? HD_PARSE_ALLOW_INCOMPLETE : 0);
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

/* Colour for standard output? (--color, NO_COLOR, a terminal) */
static int use_color(const struct options *o)
{
	const char *no = getenv("NO_COLOR");

	if (o->color == COLOR_ALWAYS)
		return 1;
	if (o->color == COLOR_NEVER || (no && *no))
		return 0;
	return isatty(STDOUT_FILENO);
}

/* The format of standard output: the text in colour when asked. */
static enum hd_format stdout_format(const struct options *o)
{
	return o->format == HD_FORMAT_TEXT && use_color(o) ? HD_FORMAT_TEXT_COLOR : o->format;
}

/* The formats whose parts must be rendered: standard output and files. */
static unsigned wanted_formats(const struct options *o)
{
	unsigned f = 1u << stdout_format(o);
	int k;

	for (k = 0; k < HD_FORMAT_COUNT; k++)
		if (o->file_out[k])
			f |= 1u << k;
	if (o->markdown_pr)
		f |= 1u << HD_FORMAT_MARKDOWN;
	return f;
}

static void batch_opts(const struct options *o, const struct hd_rules *rules,
		       struct hd_batch_opts *b)
{
	memset(b, 0, sizeof(*b));
	b->parse_flags = parse_flags(o);
	b->match_flags = o->by_name ? HD_MATCH_BY_NAME_ONLY : 0;
	memcpy(b->by_keys, o->by_keys, sizeof(b->by_keys));
	b->by_nkeys = o->by_nkeys;
	b->at_peak = o->at_peak;
	b->rules = rules;
	b->werror = o->werror;
	b->report = o->report;
	b->formats = wanted_formats(o);
	b->md_level = 3;
	b->html_top_n = o->report.all ? 0 : o->top_n_given ? o->report.top_n : 0;
	b->jobs = o->jobs;
}

/* Writes one document in format f to out. */
typedef void (*render_fn)(FILE *out, enum hd_format f, const void *ctx);

/* One document in format f to the file at path.  Returns 0, or -1 after
 * printing why it could not be written. */
static int write_doc(const char *path, render_fn render, enum hd_format f,
		     const void *ctx)
{
	FILE *out = fopen(path, "w");

	if (!out) {
		hd_error(path, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	render(out, f, ctx);
	if (ferror(out) | fclose(out)) {
		hd_error(path, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Every --FORMAT FILE document.  Returns 0, or -1 when one could not be
 * written. */
static int emit_files(const struct options *o, render_fn render, const void *ctx)
{
	int k, bad = 0;

	for (k = 0; k < HD_FORMAT_COUNT; k++)
		if (o->file_out[k] && write_doc(o->file_out[k], render, (enum hd_format)k, ctx))
			bad = 1;
	return bad ? -1 : 0;
}

/* ---- stat ---------------------------------------------------------------- */

static int cmd_stat(const struct options *o)
{
	struct hd_dump d;
	struct hd_figures f;
	struct hd_report_opts ro;
	struct hd_breakdown *b = NULL;

	if (o->nargs != 1)
		return usage_error("%s", "stat takes one dump");
	if (o->format != HD_FORMAT_TEXT && o->format != HD_FORMAT_JSON)
		return usage_error("%s", "stat writes text or json");
	if (hd_load_dump(&d, o->args[0], parse_flags(o)) < 0) {
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
	if (o->format == HD_FORMAT_JSON) {
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

/* ---- one pair -------------------------------------------------------------- */

/* The module the NEW dump (else the OLD one) belongs to, for the rules'
 * module scopes; "" when the names say nothing. */
static void pair_module(const struct options *o, char *buf, size_t n)
{
	int64_t counter;
	int k;

	for (k = 1; k >= 0; k--) {
		const char *p = o->args[k];

		if (hd_is_golden_name(p)) {
			hd_file_module(p, buf, n, &counter);
			return;
		}
		if (hd_module_name_from_path(p, buf, n) == 0)
			return;
	}
	buf[0] = '\0';
}

struct pair_render {
	const struct hd_module_report *m;
	int pr;                  /* Markdown in the pull-request form */
	const char *full_report;
};

static void render_pair(FILE *out, enum hd_format f, const void *ctx)
{
	const struct pair_render *r = ctx;
	const struct hd_module_report *m = r->m;

	if (f == HD_FORMAT_JUNIT)
		hd_report_junit_begin(out, &m->junit);
	if (m->part[f] && f == HD_FORMAT_MARKDOWN && r->pr)
		hd_report_pair_pr(out, m->part[f], m->part_len[f], r->full_report);
	else if (m->part[f])
		fwrite(m->part[f], 1, m->part_len[f], out);
	if (f == HD_FORMAT_JUNIT)
		hd_report_junit_end(out);
}

static int cmd_pair(const struct options *o, const struct hd_rules *rules)
{
	struct hd_batch_opts bo;
	struct hd_module_report m;
	struct hd_job job;
	char module[MODULE_MAX];
	int status;

	if (strcmp(o->args[0], "-") == 0 && strcmp(o->args[1], "-") == 0)
		return usage_error("%s", "only one of OLD and NEW can be '-'");
	pair_module(o, module, sizeof(module));
	batch_opts(o, rules, &bo);
	bo.md_level = 2;
	bo.jobs = 1;
	bo.html_path = o->html_path;
	memset(&job, 0, sizeof(job));
	job.module = module[0] ? module : NULL;
	job.label = module[0] ? module : NULL;
	job.old_path = o->args[0];
	job.new_path = o->args[1];
	hd_batch_compare(&bo, &job, 1, &m);
	status = m.status;
	if (m.state == HD_MODULE_COMPARED) {
		struct pair_render r = { &m, o->pr, o->full_report };

		render_pair(stdout, stdout_format(o), &r);
		if (emit_files(o, render_pair, &r))
			status = HD_EXIT_TROUBLE;
		r.pr = 1;
		if (o->markdown_pr &&
		    write_doc(o->markdown_pr, render_pair, HD_FORMAT_MARKDOWN, &r))
			status = HD_EXIT_TROUBLE;
		if (o->strict_module && m.other_program) {
			fprintf(stderr, "hlodiff: %s: %s (--strict-module)\n",
				o->args[1],
				m.other_program & HD_OTHER_MODULE ?
					"not the module of OLD (expected a compile of the same module)" :
					"looks like another program than OLD (few values matched by structure)");
			status = HD_EXIT_TROUBLE;
		}
	}
	hd_module_report_release(&m);
	return status;
}

/* ---- many modules ------------------------------------------------------------ */

static void render_batch(FILE *out, enum hd_format f, const void *ctx)
{
	hd_report_batch(out, f, ctx);
}

static void render_batch_html(FILE *out, enum hd_format f, const void *ctx)
{
	(void)f;
	hd_report_batch_html(out, ctx);
}

/* Compares the jobs and writes every report; returns the exit status. */
static int run_batch(const struct options *o, const struct hd_rules *rules,
		     const struct hd_vec *jobs, const char *what,
		     const char *old_root, const char *new_root)
{
	struct hd_batch_opts bo;
	struct hd_module_report *mods;
	struct hd_batch_report br;
	size_t i;
	int status = 0;

	batch_opts(o, rules, &bo);
	bo.html_parts = o->html_path != NULL;
	mods = hd_xcalloc(jobs->len + 1, sizeof(*mods));
	hd_batch_compare(&bo, jobs->data, jobs->len, mods);
	for (i = 0; i < jobs->len; i++) {
		if (mods[i].status > status)
			status = mods[i].status;
		if (mods[i].state == HD_MODULE_ONLY_NEW && mods[i].status)
			hd_error(mods[i].new_name, 0, "no golden for module '%s' in %s "
				 "(write one with 'hlodiff golden update', or pass --allow-new)",
				 mods[i].label, old_root);
	}
	memset(&br, 0, sizeof(br));
	br.what = what;
	br.old_root = old_root;
	br.new_root = new_root;
	br.mods = mods;
	br.n = jobs->len;
	br.status = status;
	br.werror = o->werror;
	br.summary_only = o->summary_only;
	br.pr = o->pr;
	br.full_report = o->full_report;
	hd_report_batch(stdout, stdout_format(o), &br);
	br.summary_only = 0;
	if (emit_files(o, render_batch, &br))
		status = HD_EXIT_TROUBLE;
	br.pr = 1;
	if (o->markdown_pr &&
	    write_doc(o->markdown_pr, render_batch, HD_FORMAT_MARKDOWN, &br))
		status = HD_EXIT_TROUBLE;
	if (o->html_path && write_doc(o->html_path, render_batch_html, HD_FORMAT_TEXT, &br))
		status = HD_EXIT_TROUBLE;
	for (i = 0; i < jobs->len; i++)
		hd_module_report_release(&mods[i]);
	free(mods);
	return status;
}

static int is_dir(const char *path)
{
	struct stat st;

	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmd_dirs(const struct options *o, const struct hd_rules *rules)
{
	struct hd_arena arena = HD_ARENA_INIT;
	struct hd_vec old_files = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec new_files = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec jobs = HD_VEC_INIT(struct hd_job);
	int no, nn, status = HD_EXIT_TROUBLE;

	no = hd_scan_dir(o->args[0], 1, &old_files, &arena);
	nn = no < 0 ? -1 : hd_scan_dir(o->args[1], 1, &new_files, &arena);
	if (no == 0 || nn == 0)
		hd_error(o->args[no == 0 ? 0 : 1], 0,
			 "no *-buffer-assignment.txt dumps or golden files in this directory");
	if (no > 0 && nn > 0) {
		hd_pair_files_by_content(&jobs, &arena, &old_files, &new_files, 0, 0, 0,
					 parse_flags(o), o->jobs);
		status = run_batch(o, rules, &jobs, "directories", o->args[0], o->args[1]);
	}
	hd_vec_release(&old_files);
	hd_vec_release(&new_files);
	hd_vec_release(&jobs);
	hd_arena_release(&arena);
	return status;
}

/* ---- golden files -------------------------------------------------------------- */

/* The dumps named by args[first..]: files as given, directories scanned.
 * Returns the number, or -1 after an error. */
static int collect_dumps(const struct options *o, int first, struct hd_vec *files,
			 struct hd_arena *arena)
{
	int i, n = 0;

	for (i = first; i < o->nargs; i++) {
		const char *p = o->args[i];

		if (is_dir(p)) {
			int k = hd_scan_dir(p, 0, files, arena);

			if (k < 0)
				return -1;
			if (k == 0)
				hd_warning(p, 0, "no *-buffer-assignment.txt dumps in this directory");
			n += k;
		} else if (strcmp(p, "-") == 0) {
			usage_error("%s", "golden commands read dumps from files, not '-'");
			return -1;
		} else {
			hd_add_file(p, files, arena);
			n++;
		}
	}
	if (n == 0)
		hd_error(NULL, 0, "no dumps to read");
	return n ? n : -1;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *p = strdup(path), *s;
	int bad = 0;

	if (!p)
		hd_die("out of memory");
	for (s = p + 1; !bad && *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		bad = mkdir(p, 0777) != 0 && errno != EEXIST;
		*s = '/';
	}
	if (!bad)
		bad = mkdir(p, 0777) != 0 && errno != EEXIST;
	if (bad || !is_dir(p)) {
		hd_error(path, 0, "cannot create the directory: %s",
			 bad ? strerror(errno) : "not a directory");
		bad = 1;
	}
	free(p);
	return bad ? -1 : 0;
}

static int cmd_golden_update(const struct options *o)
{
	struct hd_arena arena = HD_ARENA_INIT;
	struct hd_vec none = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec files = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec jobs = HD_VEC_INIT(struct hd_job);
	struct hd_golden_out *out = NULL;
	int status = HD_EXIT_TROUBLE;
	size_t i;

	if (collect_dumps(o, 1, &files, &arena) < 0 || make_dirs(o->args[0]))
		goto done;
	hd_pair_files(&jobs, &arena, &none, &files, 0, 0, 1);
	out = hd_xcalloc(jobs.len + 1, sizeof(*out));
	hd_batch_write_goldens(o->args[0], o->gz, parse_flags(o) | HD_PARSE_CANON,
			       o->jobs, jobs.data,
			       jobs.len, out);
	status = HD_EXIT_OK;
	for (i = 0; i < jobs.len; i++) {
		const struct hd_golden_out *g = &out[i];

		if (g->status) {
			status = HD_EXIT_TROUBLE;
			continue;
		}
		printf("wrote %s: %lld bytes", g->path, (long long)g->golden_bytes);
		if (g->dump_bytes > 0)
			printf(", %.1f%% of %s (%lld bytes)",
			       100.0 * (double)g->golden_bytes / (double)g->dump_bytes,
			       g->dump, (long long)g->dump_bytes);
		putchar('\n');
		free(g->path);
	}
done:
	free(out);
	hd_vec_release(&none);
	hd_vec_release(&files);
	hd_vec_release(&jobs);
	hd_arena_release(&arena);
	return status;
}

static int cmd_golden_check(const struct options *o, const struct hd_rules *rules)
{
	struct hd_arena arena = HD_ARENA_INIT;
	struct hd_vec scanned = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec goldens = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec files = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec jobs = HD_VEC_INIT(struct hd_job);
	const char *new_root;
	int status = HD_EXIT_TROUBLE;
	size_t i;

	if (o->html_path) {
		status = usage_error("%s", "--html writes the report of one pair or of two directories, not of golden check");
		goto done;
	}
	if (!is_dir(o->args[0])) {
		hd_error(o->args[0], 0, "not a directory (expected the directory of the golden files)");
		goto done;
	}
	if (hd_scan_dir(o->args[0], 1, &scanned, &arena) < 0 ||
	    collect_dumps(o, 1, &files, &arena) < 0)
		goto done;
	for (i = 0; i < scanned.len; i++)
		if (HD_VEC_AT(&scanned, struct hd_module_file, i).golden)
			*(struct hd_module_file *)hd_vec_push(&goldens) =
				HD_VEC_AT(&scanned, struct hd_module_file, i);
	hd_pair_files_by_content(&jobs, &arena, &goldens, &files, 0,
				 o->allow_new ? 0 : HD_EXIT_TROUBLE, 1, parse_flags(o),
				 o->jobs);
	new_root = o->nargs == 2 ? o->args[1] :
		hd_arena_printf(&arena, "%d paths", o->nargs - 1);
	status = run_batch(o, rules, &jobs, "golden", o->args[0], new_root);
done:
	hd_vec_release(&scanned);
	hd_vec_release(&goldens);
	hd_vec_release(&files);
	hd_vec_release(&jobs);
	hd_arena_release(&arena);
	return status;
}

/* ---- dispatch -------------------------------------------------------------------- */

static int check_usage(const struct options *o)
{
	if (o->at_peak && !o->by_nkeys)
		return usage_error("%s", "--at-peak goes with --by KEYS");
	if (o->pr && o->format != HD_FORMAT_MARKDOWN && !o->file_out[HD_FORMAT_MARKDOWN])
		return usage_error("%s", "--pr shapes the Markdown report: add --format markdown or --markdown FILE (or use --markdown-pr FILE)");
	if ((o->pr || o->markdown_pr || o->full_report) &&
	    (o->cmd == CMD_STAT || o->cmd == CMD_GOLDEN_UPDATE))
		return usage_error("%s", "--pr, --markdown-pr and --full-report go with a comparison");
	if (o->cmd == CMD_GOLDEN_UPDATE || o->cmd == CMD_GOLDEN_CHECK) {
		if (o->nargs < 2)
			return usage_error("golden %s takes a directory and at least one dump",
					   o->cmd == CMD_GOLDEN_UPDATE ? "update" : "check");
	} else if (o->cmd == CMD_DIFF && o->nargs > 2) {
		return usage_error("too many arguments: '%s'", o->args[2]);
	} else if (o->cmd == CMD_DIFF && o->nargs < 2) {
		return usage_error("%s", "expected two dumps: OLD NEW");
	} else if (o->cmd == CMD_STAT && o->nargs > 1) {
		return usage_error("too many arguments: '%s'", o->args[1]);
	}
	return -1;
}

static int run(struct options *o)
{
	struct hd_rules *rules = NULL;
	int status, dirs;

	if (o->cmd == CMD_STAT)
		return cmd_stat(o);
	if (!o->jobs)
		o->jobs = hd_online_cpus();
	if (o->cmd == CMD_GOLDEN_UPDATE)
		return cmd_golden_update(o);
	dirs = o->cmd == CMD_DIFF ? is_dir(o->args[0]) + is_dir(o->args[1]) : 0;
	if (dirs == 1)
		return usage_error("%s", "OLD and NEW must both be dumps or both be directories");
	if (load_rules(o, &rules))
		return HD_EXIT_TROUBLE;
	if (o->cmd == CMD_GOLDEN_CHECK)
		status = cmd_golden_check(o, rules);
	else if (dirs)
		status = cmd_dirs(o, rules);
	else
		status = cmd_pair(o, rules);
	hd_rules_free(rules);
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

/* The command word(s) at argv[1..]: sets o->cmd, returns the first
 * argument after them, or -1 for a bad golden subcommand. */
static int command(struct options *o, int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "stat") == 0) {
		o->cmd = CMD_STAT;
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "golden") == 0) {
		if (argc > 2 && strcmp(argv[2], "update") == 0)
			o->cmd = CMD_GOLDEN_UPDATE;
		else if (argc > 2 && strcmp(argv[2], "check") == 0)
			o->cmd = CMD_GOLDEN_CHECK;
		else
			return -1;
		return 3;
	}
	o->cmd = CMD_DIFF;
	return 1;
}

int main(int argc, char **argv)
{
	struct options o;
	int first, status;

	memset(&o, 0, sizeof(o));
	o.report.top_n = DEFAULT_TOP_N;
	o.args = calloc((size_t)argc + 2, sizeof(*o.args));
	o.source_prefix = calloc((size_t)argc + 2, sizeof(*o.source_prefix));
	if (!o.args || !o.source_prefix)
		return HD_EXIT_TROUBLE;
	first = command(&o, argc, argv);
	if (first < 0) {
		status = usage_error("%s", "golden takes 'update' or 'check' (hlodiff golden update|check DIR DUMP...)");
	} else {
		status = parse_options(&o, argc, argv, first);
		if (status < 0)
			status = check_usage(&o);
		if (status < 0)
			status = run(&o);
	}
	free(o.args);
	free(o.source_prefix);
	return finish(status);
}
