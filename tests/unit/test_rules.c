/*
 * test_rules.c - the rules language (src/rules.c, src/verdict.c).
 *
 * Without arguments: the TAP tests below.  Expected numbers come from the
 * dump texts (tests/rules/synth-*.txt, documented in gen-synth.py, and
 * the seeds), added up by hand, never from hlodiff's output.
 *
 * With arguments it is a small driver for the shell tests, so the rules
 * can be tested end to end before (and independently of) main.c:
 *
 *	test_rules --load RULES              exit 0, or 2 after the errors
 *	test_rules --eval [--json] [--werror] [--module NAME | --module-from-path]
 *	           RULES|--default OLD NEW   report on stdout, exit 0/1/2
 *	test_rules --module-name PATH        prints hd_module_name_from_path
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hlodiff/diff.h"
#include "hlodiff/filename.h"
#include "hlodiff/json.h"
#include "hlodiff/parse.h"
#include "hlodiff/rules.h"
#include "hlodiff/verdict.h"
#include "hlodiff/report_verdict.h"
#include "tap/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- driver ------------------------------------------------------------- */

struct drive {
	int json, werror, from_path;
	const char *module, *rules, *old_path, *new_path;
};

static int drive_eval(const struct drive *o)
{
	struct hd_rules *r;
	struct hd_dump old, nw;
	struct hd_diff df;
	struct hd_verdicts *v;
	char mod[256];
	const char *module = o->module;
	int st;

	if (o->rules ? hd_rules_load(&r, o->rules) : hd_rules_load_default(&r))
		return 2;
	if (hd_parse_file(&old, o->old_path, 0) | hd_parse_file(&nw, o->new_path, 0)) {
		hd_dump_release(&old);
		hd_dump_release(&nw);
		hd_rules_free(r);
		return 2;
	}
	if (o->from_path)
		module = hd_module_name_from_path(o->new_path, mod, sizeof(mod)) == 0 ?
			mod : NULL;
	hd_diff_compute(&df, &old, &nw, 0);
	v = hd_rules_eval(r, &df, module);
	if (o->json) {
		struct hd_json j;

		hd_json_init(&j, stdout);
		hd_verdicts_report_json(&j, v);
		hd_json_finish(&j);
	} else {
		hd_verdicts_report_text(stdout, v, 0);
	}
	st = hd_verdicts_status(v, o->werror);
	hd_verdicts_free(v);
	hd_diff_release(&df);
	hd_dump_release(&old);
	hd_dump_release(&nw);
	hd_rules_free(r);
	return st;
}

static int drive_usage(void)
{
	fputs("usage: test_rules [--load RULES | --module-name PATH |\n"
	      "       --eval [--json] [--werror] [--module NAME|--module-from-path]"
	      " RULES|--default OLD NEW]\n", stderr);
	return 2;
}

static int driver(int argc, char **argv)
{
	struct drive o;
	char buf[256];
	int i, rest = 0, dflt = 0;
	const char *pos[3];

	memset(&o, 0, sizeof(o));
	if (argc == 3 && strcmp(argv[1], "--load") == 0) {
		struct hd_rules *r;
		if (hd_rules_load(&r, argv[2]))
			return 2;
		hd_rules_free(r);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--module-name") == 0) {
		int rc = hd_module_name_from_path(argv[2], buf, sizeof(buf));
		printf("%d %s\n", rc, buf);
		return 0;
	}
	if (strcmp(argv[1], "--eval") != 0)
		return drive_usage();
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			o.json = 1;
		else if (strcmp(argv[i], "--werror") == 0)
			o.werror = 1;
		else if (strcmp(argv[i], "--module-from-path") == 0)
			o.from_path = 1;
		else if (strcmp(argv[i], "--module") == 0 && i + 1 < argc)
			o.module = argv[++i];
		else if (strcmp(argv[i], "--default") == 0 && rest == 0)
			dflt = 1, pos[rest++] = NULL;
		else if (rest < 3)
			pos[rest++] = argv[i];
		else
			return drive_usage();
	}
	if (rest != 3)
		return drive_usage();
	o.rules = dflt ? NULL : pos[0];
	o.old_path = pos[1];
	o.new_path = pos[2];
	return drive_eval(&o);
}


/* ---- helpers ------------------------------------------------------------ */

static const char *src_path(const char *rel)
{
	static char path[4][4096];
	static int slot;
	const char *dir = getenv("HD_SRCDIR");

	slot = (slot + 1) % 4;
	snprintf(path[slot], sizeof(path[slot]), "%s/%s",
		 dir && *dir ? dir : ".", rel);
	return path[slot];
}

/*
 * Runs fn(arg) with stderr sent to a temporary file; returns what was
 * written (malloc'ed, NUL-terminated) and stores fn's result in *rc.
 */
static char *capture_stderr(int (*fn)(const void *), const void *arg, int *rc)
{
	FILE *tmp = tmpfile();
	int saved;
	long n;
	char *buf;

	if (!tmp)
		bail("tmpfile failed");
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	*rc = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = ftell(tmp);
	buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(tmp);
	if (n > 0 && fread(buf, 1, (size_t)n, tmp) != (size_t)n)
		bail("cannot read back stderr");
	fclose(tmp);
	return buf;
}

static int load_text_fn(const void *arg)
{
	struct hd_rules *r;
	int rc = hd_rules_load_buffer(&r, "t.rules", arg, strlen(arg));

	hd_rules_free(r);
	return rc;
}

/* Loads text; returns the stderr output (caller frees) and the result. */
static char *load_errors(const char *text, int *rc)
{
	return capture_stderr(load_text_fn, text, rc);
}

static struct hd_rules *load_ok(const char *text)
{
	struct hd_rules *r;
	int rc;
	char *err = capture_stderr(load_text_fn, text, &rc);

	if (rc != 0)
		diag("unexpected error for '%s':\n%s", text, err);
	free(err);
	if (hd_rules_load_buffer(&r, "t.rules", text, strlen(text)))
		bail("cannot load '%s'", text);
	return r;
}

struct pair {
	struct hd_dump old, nw;
	struct hd_diff df;
};

static void pair_load(struct pair *p, const char *old_rel, const char *new_rel)
{
	if (hd_parse_file(&p->old, src_path(old_rel), HD_PARSE_NO_SIBLINGS) ||
	    hd_parse_file(&p->nw, src_path(new_rel), HD_PARSE_NO_SIBLINGS))
		bail("cannot parse %s / %s", old_rel, new_rel);
	hd_diff_compute(&p->df, &p->old, &p->nw, 0);
}

static void pair_release(struct pair *p)
{
	hd_diff_release(&p->df);
	hd_dump_release(&p->old);
	hd_dump_release(&p->nw);
}

/* One rule (plus optional waivers before it) evaluated: the verdict of
 * the last rule of text. */
struct one {
	struct hd_verdict vd;    /* rule and na_reason cleared (freed) */
	char why[128];           /* the na_reason */
	int status, status_werror;
};

static struct one eval_text(const char *text, const struct hd_diff *df,
			    const char *module)
{
	struct hd_rules *r = load_ok(text);
	struct hd_verdicts *v = hd_rules_eval(r, df, module);
	struct one o;

	memset(&o, 0, sizeof(o));
	o.vd.result = -1;
	if (v->verdicts.len)
		o.vd = HD_VERDICT(v, v->verdicts.len - 1);
	if (o.vd.na_reason)
		snprintf(o.why, sizeof(o.why), "%s", o.vd.na_reason);
	o.vd.rule = NULL;
	o.vd.na_reason = NULL;
	o.status = hd_verdicts_status(v, 0);
	o.status_werror = hd_verdicts_status(v, 1);
	hd_verdicts_free(v);
	hd_rules_free(r);
	return o;
}

static int eval_result(const char *text, const struct hd_diff *df)
{
	return eval_text(text, df, NULL).vd.result;
}

/* The text report of rules text on df, malloc'ed. */
static char *report_text(const char *text, const struct hd_diff *df,
			 const char *module)
{
	struct hd_rules *r = load_ok(text);
	struct hd_verdicts *v = hd_rules_eval(r, df, module);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	hd_verdicts_report_text(f, v, 0);
	fclose(f);
	hd_verdicts_free(v);
	hd_rules_free(r);
	return buf;
}

static int contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* ---- module names ------------------------------------------------------- */

static void test_module_names(void)
{
	static const struct {
		const char *path, *want;
		int rc;
	} cases[] = {
		{ "module_0035.jit_splash_attention_kernel.cl_772339112.after_optimizations-buffer-assignment.txt",
		  "jit_splash_attention_kernel", 0 },
		{ "/x/y/module_0041.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
		  "jit__full_run", 0 },
		{ "d/module_0021.jit__truncated_normal.cpu_after_optimizations-buffer-assignment.txt",
		  "jit__truncated_normal", 0 },
		{ "1712345678901234.module_0007.jit_f.after_optimizations-buffer-assignment.txt",
		  "jit_f", 0 },
		{ "module_12345.jit_g.cpu_after_optimizations-buffer-assignment.txt.gz",
		  "jit_g", 0 },
		{ "justabyte-ppost-kernel__module_0035.jit_splash_attention_kernel.cl_772339112.after_optimizations-buffer-assignment.txt",
		  "jit_splash_attention_kernel", 0 },
		{ "module_0001.jit_a.b.sm_9.0_gpu_after_optimizations-buffer-assignment-values.txt",
		  "jit_a.b", 0 },
		{ "module_0003.after_optimizations-buffer-assignment.txt", "", -1 },
		{ "module_0003.sm_8.0_gpu_after_optimizations-buffer-assignment.txt", "", -1 },
		{ "examples/jit_normal-0041.txt", "jit_normal-0041", 0 },
		{ "seed-000.txt.gz", "seed-000", 0 },
		{ "-", "", -1 },
	};
	char buf[256], tiny[4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int rc = hd_module_name_from_path(cases[i].path, buf, sizeof(buf));
		is_string(cases[i].want, buf, "module name of %s", cases[i].path);
		is_int(cases[i].rc, rc, "module name status of %s", cases[i].path);
	}
	is_int(-1, hd_module_name_from_path("module_0001.jit_long.cpu_after_optimizations-buffer-assignment.txt",
					    tiny, sizeof(tiny)),
	       "module name: -1 when the buffer is too small");
	is_string("jit", tiny, "module name: cut and NUL-terminated");
	is_int(-1, hd_module_name_from_path(NULL, buf, sizeof(buf)),
	       "module name: NULL path");
}

/* ---- parsing ------------------------------------------------------------ */

static void test_parse_forms(void)
{
	static const struct {
		const char *text;
		int source, cond, is_bytes;
		unsigned filters;
		int64_t amount, pct, space;
	} cases[] = {
		{ "error total_bytes grows by more than 1%", HD_MSRC_ROW, HD_COND_GROWS_PCT, 1, 0, 0, HD_PCT_ONE, 0 },
		{ "warn peak_bytes grows by more than 64 MiB", HD_MSRC_ROW, HD_COND_GROWS_BY, 1, 0, 64 << 20, 0, 0 },
		{ "error bytes(space=vmem) above 16 MiB", HD_MSRC_ALLOC, HD_COND_ABOVE, 1, HD_FILTER_SPACE, 16 << 20, 0, 1 },
		{ "error bytes(space=1) above 16 MiB", HD_MSRC_ALLOC, HD_COND_ABOVE, 1, HD_FILTER_SPACE, 16 << 20, 0, 1 },
		{ "error space6_bytes above 1.5 KiB", HD_MSRC_ALLOC, HD_COND_ABOVE, 1, HD_FILTER_SPACE, 1536, 0, 6 },
		{ "error bytes(space=hbm) grows by more than 0.5%", HD_MSRC_ALLOC, HD_COND_GROWS_PCT, 1, HD_FILTER_SPACE, 0, HD_PCT_ONE / 2, 0 },
		{ "error bytes(space=host) above 0 B", HD_MSRC_ALLOC, HD_COND_ABOVE, 1, HD_FILTER_SPACE, 0, 0, 5 },
		{ "error bytes(space=smem) above 2 GiB", HD_MSRC_ALLOC, HD_COND_ABOVE, 1, HD_FILTER_SPACE, INT64_C(2) << 30, 0, 6 },
		{ "error bytes(kind=temp, space=1) above 1 TiB", HD_MSRC_ALLOC, HD_COND_ABOVE, 1, HD_FILTER_SPACE | HD_FILTER_KIND, INT64_C(1) << 40, 0, 1 },
		{ "error temp_bytes grows by more than 12.345678%", HD_MSRC_ALLOC, HD_COND_GROWS_PCT, 1, HD_FILTER_KIND, 0, 12345678, 0 },
		{ "error allocations grows by more than 3", HD_MSRC_ROW, HD_COND_GROWS_BY, 0, 0, 3, 0, 0 },
		{ "error values above 1000", HD_MSRC_VALUE_COUNT, HD_COND_ABOVE, 0, 0, 1000, 0, 0 },
		{ "error new prefetches", HD_MSRC_COPIES, HD_COND_ANY_NEW, 0, 0, 0, 0, 0 },
		{ "warn evictions grows by more than 50%", HD_MSRC_COPIES, HD_COND_GROWS_PCT, 0, 0, 0, 50 * HD_PCT_ONE, 0 },
		{ "error bytes(op_name=\"*/attention/*\") grows by more than 5%", HD_MSRC_VALUES, HD_COND_GROWS_PCT, 1, HD_FILTER_OP_NAME, 0, 5 * HD_PCT_ONE, 0 },
		{ "error bytes(name=\"fusion.*\", space=vmem) grows by more than 1 KiB  # trailing comment", HD_MSRC_VALUES, HD_COND_GROWS_BY, 1, HD_FILTER_NAME | HD_FILTER_SPACE, 1024, 0, 1 },
		{ "\terror\ttotal_bytes  grows by more than 250 % because \"the \\\"budget\\\"\"\r", HD_MSRC_ROW, HD_COND_GROWS_PCT, 1, 0, 0, 250 * HD_PCT_ONE, 0 },
		{ "error total_bytes grows by more than 1MiB", HD_MSRC_ROW, HD_COND_GROWS_BY, 1, 0, 1 << 20, 0, 0 },
		{ "error total_bytes grows by more than 0.25 KiB", HD_MSRC_ROW, HD_COND_GROWS_BY, 1, 0, 256, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct hd_rules *r = load_ok(cases[i].text);
		const struct hd_rule *rule;

		if (!ok(hd_rules_count(r) == 1, "parses: %s", cases[i].text)) {
			hd_rules_free(r);
			continue;
		}
		rule = &HD_RULE(r, 0);
		ok(rule->metric.source == cases[i].source &&
		   rule->cond == cases[i].cond &&
		   rule->metric.is_bytes == cases[i].is_bytes &&
		   rule->metric.filters == cases[i].filters &&
		   rule->amount == cases[i].amount && rule->pct == cases[i].pct &&
		   rule->metric.space == cases[i].space,
		   "model of: %s", cases[i].text);
		hd_rules_free(r);
	}
}

static void test_parse_details(void)
{
	struct hd_rules *r = load_ok(
		"# a comment line\n"
		"\n"
		"error total_bytes grows by more than 1% because \"tight HBM\"   # why\n"
		"waive op_name=\"*/rng/*\" because \"RNG state is tuned separately\"\n"
		"module \"jit_train*\" {\n"
		"  warn bytes(kind=temp) grows by more than 2 MiB\n"
		"  waive name=\"copy-start*\" because \"MSA\"\n"
		"}\n"
		"error bytes(name=\"a\\\\b\") above 1 B\n");
	const struct hd_rule *a, *b, *c;
	const struct hd_waiver *w0, *w1;

	is_int(3, (long long)hd_rules_count(r), "details: 3 rules");
	is_int(2, (long long)r->waivers.len, "details: 2 waivers");
	a = &HD_RULE(r, 0);
	b = &HD_RULE(r, 1);
	c = &HD_RULE(r, 2);
	w0 = &HD_WAIVER(r, 0);
	w1 = &HD_WAIVER(r, 1);
	is_string("error total_bytes grows by more than 1% because \"tight HBM\"",
		  a->text, "rule text as written, comment stripped");
	is_string("tight HBM", a->reason, "rule reason");
	is_int(3, a->line, "rule line");
	is_int(-1, a->module, "unscoped rule");
	is_int(0, b->module, "rule in module block 0");
	is_string("jit_train*", HD_MODULE_SCOPE(r, 0).glob, "module glob");
	is_string("bytes(kind=temp)", b->metric.label, "metric label as written");
	is_int(HD_SEV_WARN, b->severity, "severity warn");
	is_int(-1, c->module, "rule after the block is unscoped again");
	is_string("a\\b", c->metric.name_glob, "string escapes unescaped");
	is_string("*/rng/*", w0->glob, "waiver glob");
	is_int(HD_FILTER_OP_NAME, w0->field, "waiver on op_name");
	is_string("RNG state is tuned separately", w0->reason, "waiver reason");
	is_int(0, w1->module, "waiver in module block");
	is_int(HD_FILTER_NAME, w1->field, "waiver on name");
	hd_rules_free(r);

	r = load_ok("");
	is_int(0, (long long)hd_rules_count(r), "an empty file is a valid rule set");
	hd_rules_free(r);
	r = load_ok("error total_bytes grows by more than 1%");
	is_int(1, (long long)hd_rules_count(r), "last line without a newline");
	hd_rules_free(r);
}

/*
 * Every error, its position and its message (first stderr line).  The
 * caret lines are pinned by the golden files of t0410.
 */
static void test_parse_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "eror total_bytes grows by more than 1%",
		  "hlodiff: t.rules:1:1: unknown directive 'eror' (did you mean 'error'?); a line starts with error, warn, waive, module or '}'" },
		{ "warning total_bytes grows by more than 1%",
		  "hlodiff: t.rules:1:1: unknown directive 'warning' (did you mean 'warn'?); a line starts with error, warn, waive, module or '}'" },
		{ "\n\nerror totl_bytes grows by more than 1%",
		  "hlodiff: t.rules:3:7: unknown metric 'totl_bytes' (did you mean 'total_bytes'?)" },
		{ "error vmem_bytes above 1 MiB",
		  "hlodiff: t.rules:1:7: unknown metric 'vmem_bytes' (did you mean 'bytes(space=vmem)'?)" },
		{ "error prefetch above 1",
		  "hlodiff: t.rules:1:7: unknown metric 'prefetch' (did you mean 'prefetches'?)" },
		{ "error total_bytes grow by more than 1%",
		  "hlodiff: t.rules:1:19: unknown condition 'grow' (did you mean 'grows'?); conditions: 'grows by more than', 'above'" },
		{ "error total_bytes",
		  "hlodiff: t.rules:1:18: missing condition after 'total_bytes': 'grows by more than N%', 'grows by more than N MiB' or 'above N MiB'" },
		{ "error total_bytes grows more than 1%",
		  "hlodiff: t.rules:1:25: expected 'by more than' after 'grows'" },
		{ "error total_bytes grows by more than x",
		  "hlodiff: t.rules:1:38: expected a number or a percentage" },
		{ "error total_bytes grows by more than 64",
		  "hlodiff: t.rules:1:40: 'total_bytes' is in bytes: give a unit, e.g. '64 MiB' (units: B, KiB, MiB, GiB, TiB)" },
		{ "error total_bytes grows by more than 64 MB",
		  "hlodiff: t.rules:1:41: unknown unit 'MB' (did you mean 'MiB'?); units: B, KiB, MiB, GiB, TiB (binary)" },
		{ "error total_bytes grows by more than 64 kb",
		  "hlodiff: t.rules:1:41: unknown unit 'kb' (did you mean 'KiB'?); units: B, KiB, MiB, GiB, TiB (binary)" },
		{ "error allocations grows by more than 3 KiB",
		  "hlodiff: t.rules:1:40: 'allocations' is a count: drop the unit" },
		{ "error values grows by more than 1.5",
		  "hlodiff: t.rules:1:33: 'values' is a count: give a whole number" },
		{ "error total_bytes grows by more than 0.3 B",
		  "hlodiff: t.rules:1:38: not a whole number of bytes" },
		{ "error total_bytes grows by more than 0.0000001%",
		  "hlodiff: t.rules:1:38: at most 6 decimals in a percentage" },
		{ "error total_bytes grows by more than 99999999999999999999 B",
		  "hlodiff: t.rules:1:38: number too large" },
		{ "error total_bytes grows by more than 9999999999 GiB",
		  "hlodiff: t.rules:1:38: amount too large" },
		{ "error total_bytes above 5%",
		  "hlodiff: t.rules:1:26: 'above' takes an amount such as '16 MiB', not a percentage (for growth: 'grows by more than N%')" },
		{ "error total_bytes grows by more than -1%",
		  "hlodiff: t.rules:1:38: unexpected character '-'" },
		{ "error total_bytes grows by more than 1% extra",
		  "hlodiff: t.rules:1:41: unexpected 'extra' after the rule" },
		{ "error bytes(spcae=1) above 1 B",
		  "hlodiff: t.rules:1:13: unknown filter 'spcae' (did you mean 'space'?); filters: space, kind, name, op_name, source" },
		{ "error bytes(space=vmme) above 1 B",
		  "hlodiff: t.rules:1:19: unknown memory space 'vmme' (did you mean 'vmem'?); give a number or hbm, vmem, host, smem" },
		{ "error bytes(kind=tmp) above 1 B",
		  "hlodiff: t.rules:1:18: unknown allocation kind 'tmp' (did you mean 'temp'?); kinds: parameter, output, constant, thread_local, temp, other" },
		{ "error bytes(space=1, space=2) above 1 B",
		  "hlodiff: t.rules:1:22: filter 'space' given twice" },
		{ "error bytes() above 1 B",
		  "hlodiff: t.rules:1:13: bytes() needs a filter: space=, kind=, name=, op_name= or source=" },
		{ "error bytes above 1 B",
		  "hlodiff: t.rules:1:13: expected '(' after 'bytes', e.g. bytes(space=vmem) or bytes(op_name=\"*attention*\")" },
		{ "error bytes(name=attn) above 1 B",
		  "hlodiff: t.rules:1:18: name= takes a quoted glob, e.g. name=\"*attention*\"" },
		{ "error bytes(name=\"\") above 1 B",
		  "hlodiff: t.rules:1:18: empty glob" },
		{ "error bytes(space=1 above 1 B",
		  "hlodiff: t.rules:1:21: expected ',' or ')' after a filter" },
		{ "error bytes(space 1) above 1 B",
		  "hlodiff: t.rules:1:19: expected '=' after 'space'" },
		{ "error bytes(space=1.5) above 1 B",
		  "hlodiff: t.rules:1:19: a memory space is a whole number" },
		{ "error bytes(op_name=\"x) above 1 B",
		  "hlodiff: t.rules:1:21: string not closed (add '\"')" },
		{ "error bytes(op_name=\"a\\nb\") above 1 B",
		  "hlodiff: t.rules:1:23: unknown escape in a string (only \\\" and \\\\)" },
		{ "error new total_bytes",
		  "hlodiff: t.rules:1:11: 'new' takes a kind of copy, not 'total_bytes'; kinds: prefetches, evictions, cross_program_prefetches, host_offloads, host_reloads, other_copies" },
		{ "error new prefetch",
		  "hlodiff: t.rules:1:11: 'new' takes a kind of copy, not 'prefetch' (did you mean 'prefetches'?); kinds: prefetches, evictions, cross_program_prefetches, host_offloads, host_reloads, other_copies" },
		{ "error new prefetches grows by more than 1",
		  "hlodiff: t.rules:1:22: unexpected 'grows' after the rule" },
		{ "error total_bytes above 1 B because",
		  "hlodiff: t.rules:1:36: expected a quoted reason after 'because'" },
		{ "waive name=\"copy-start*\"",
		  "hlodiff: t.rules:1:25: a waiver needs a reason: add because \"why\"" },
		{ "waive name=\"copy-start*\" because \"\"",
		  "hlodiff: t.rules:1:34: the reason is empty" },
		{ "waive nmae=\"x\" because \"y\"",
		  "hlodiff: t.rules:1:7: a waiver matches name=\"GLOB\" or op_name=\"GLOB\", not 'nmae' (did you mean 'name'?)" },
		{ "module \"a*\" {\nmodule \"b*\" {\n}\n}",
		  "hlodiff: t.rules:2:1: module blocks do not nest (close the block of line 1 first)" },
		{ "module a {\n}",
		  "hlodiff: t.rules:1:8: expected a quoted module-name glob, e.g. module \"jit_train*\" {" },
		{ "module \"a*\"\n",
		  "hlodiff: t.rules:1:12: expected '{' at the end of the module line" },
		{ "module \"a*\" { error total_bytes above 1 B\n}",
		  "hlodiff: t.rules:1:15: unexpected 'error' after the '{' (rules go on the lines below)" },
		{ "error total_bytes above 1 B\n}\n",
		  "hlodiff: t.rules:2:1: '}' without a module block" },
		{ "module \"a*\" {\nerror total_bytes above 1 B\n",
		  "hlodiff: t.rules:1:13: module block not closed (add '}' on a line of its own)" },
		{ "error total_bytes above 1 B\x01",
		  "hlodiff: t.rules:1:28: unexpected byte 0x01" },
		{ "(error)",
		  "hlodiff: t.rules:1:1: expected a rule ('error ...', 'warn ...'), 'waive', 'module' or '}'" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int rc;
		char *err = load_errors(cases[i].text, &rc);
		char *nl = strchr(err, '\n');

		if (nl)
			*nl = '\0';
		is_int(-1, rc, "rejected: %s", cases[i].want + 17);
		is_string(cases[i].want, err, "message: %s", cases[i].want + 17);
		free(err);
	}
}

static void test_parse_limits(void)
{
	char *text, *err;
	size_t i, n;
	int rc;

	/* a line too long */
	text = malloc(HD_RULES_MAX_LINE + 64);
	memset(text, ' ', HD_RULES_MAX_LINE + 10);
	memcpy(text, "error total_bytes above 1 B", 27);
	text[HD_RULES_MAX_LINE + 10] = '\0';
	err = load_errors(text, &rc);
	is_int(-1, rc, "a line over the limit is an error");
	ok(contains(err, "t.rules:1:4097: line longer than 4096 bytes"),
	   "line too long: position and message");
	free(err);
	free(text);

	/* more errors than shown */
	n = HD_RULES_MAX_ERRORS + 5;
	text = calloc(n, 8);
	for (i = 0; i < n; i++)
		strcat(text, "bogus\n");
	err = load_errors(text, &rc);
	is_int(-1, rc, "many errors: rejected");
	ok(contains(err, "t.rules:10:1: unknown directive") &&
	   !contains(err, "t.rules:11:1:") &&
	   contains(err, "hlodiff: t.rules: too many errors, giving up"),
	   "many errors: the first ten, then a stop");
	free(err);
	free(text);

	/* several errors in one file, each reported */
	err = load_errors("eror a\nerror total_bytes above 1 B\nwarn peak_bytes above 1\n", &rc);
	ok(contains(err, "t.rules:1:1:") && contains(err, "t.rules:3:"),
	   "every bad line is reported, not only the first");
	free(err);

	/* too many rules */
	n = HD_RULES_MAX_RULES + 1;
	text = malloc(n * 21 + 1);
	for (i = 0; i < n; i++)
		memcpy(text + i * 21, "error values above 1\n", 21);
	text[n * 21] = '\0';
	err = load_errors(text, &rc);
	ok(rc == -1 && contains(err, ":10001:1: more than 10000 rules and waivers in one file"),
	   "more rules than the limit");
	free(err);
	free(text);

	/* the caret under the offending token */
	err = load_errors("error\ttotl_bytes grows by more than 1%\n", &rc);
	is_string("hlodiff: t.rules:1:7: unknown metric 'totl_bytes' (did you mean 'total_bytes'?)\n"
		  "    1 | error\ttotl_bytes grows by more than 1%\n"
		  "      |      \t^~~~~~~~~~\n", err,
		  "source line and caret (tabs kept for alignment)");
	free(err);
}

/* ---- the condition ------------------------------------------------------ */

static void test_condition_math(void)
{
	struct hd_rule r;
	int64_t allowed;

	memset(&r, 0, sizeof(r));
	r.cond = HD_COND_GROWS_PCT;
	r.pct = HD_PCT_ONE;
	ok(!hd_rule_violated(&r, 1000, 1010, &allowed), "1%%: +1%% exactly passes");
	is_int(10, allowed, "1%% of 1000 allows 10");
	ok(hd_rule_violated(&r, 1000, 1011, &allowed), "1%%: +1.1%% violates");
	ok(!hd_rule_violated(&r, 1000, 900, &allowed), "1%%: shrinkage passes");
	ok(!hd_rule_violated(&r, 1000, 1000, &allowed), "1%%: no change passes");
	ok(hd_rule_violated(&r, 0, 1, &allowed), "1%%: any growth from 0 violates");
	ok(!hd_rule_violated(&r, 0, 0, &allowed), "1%%: 0 -> 0 passes");
	r.pct = 999999;
	ok(hd_rule_violated(&r, 1000, 1010, &allowed), "0.999999%%: +1%% violates");
	r.pct = 0;
	ok(hd_rule_violated(&r, 1000, 1001, &allowed), "0%%: any growth violates");
	ok(!hd_rule_violated(&r, 1000, 1000, &allowed), "0%%: no growth passes");
	r.pct = 1;   /* 0.000001% */
	ok(!hd_rule_violated(&r, INT64_C(100000000), INT64_C(100000000) + 1, &allowed),
	   "0.000001%% of 1e8 allows 1: growth of 1 passes");
	ok(hd_rule_violated(&r, INT64_C(100000000), INT64_C(100000000) + 2, &allowed),
	   "0.000001%% of 1e8: growth of 2 violates");
	r.pct = 50 * HD_PCT_ONE;
	ok(!hd_rule_violated(&r, INT64_MAX / 2, INT64_MAX / 2 + INT64_MAX / 4, &allowed),
	   "no overflow near INT64_MAX: 50%% exactly passes");
	ok(hd_rule_violated(&r, INT64_MAX / 2, INT64_MAX - 1, &allowed),
	   "no overflow near INT64_MAX: 100%% violates");
	r.pct = INT64_MAX;
	ok(!hd_rule_violated(&r, INT64_MAX, INT64_MAX, &allowed) && allowed == INT64_MAX,
	   "a huge percentage clamps the allowed growth");

	r.cond = HD_COND_GROWS_BY;
	r.amount = 64;
	ok(!hd_rule_violated(&r, 100, 164, &allowed), "64 B: +64 exactly passes");
	ok(hd_rule_violated(&r, 100, 165, &allowed), "64 B: +65 violates");
	ok(!hd_rule_violated(&r, 100, 0, &allowed), "64 B: shrinkage passes");
	ok(hd_rule_violated(&r, 0, 65, &allowed), "64 B: from 0 by 65 violates");
	r.amount = 0;
	ok(!hd_rule_violated(&r, INT64_MAX, INT64_MAX, &allowed), "0 B: no change passes");
	ok(hd_rule_violated(&r, INT64_MIN, INT64_MAX, &allowed), "0 B: saturated delta violates");

	r.cond = HD_COND_ABOVE;
	r.amount = 4096;
	ok(!hd_rule_violated(&r, 99999, 4096, &allowed), "above 4 KiB: 4096 exactly passes");
	ok(hd_rule_violated(&r, 0, 4097, &allowed), "above 4 KiB: 4097 violates");
	is_int(4096, allowed, "above: allowed is the ceiling");
}

/* ---- shipped rules ------------------------------------------------------ */

static void test_shipped_rules(void)
{
	static const char *const files[] = {
		"rules/default.rules", "rules/strict.rules", "rules/tpu.rules",
	};
	FILE *f = fopen(src_path("rules/default.rules"), "rb");
	char *buf;
	long n;
	struct hd_rules *r;
	size_t i;

	if (!f)
		bail("cannot open rules/default.rules (HD_SRCDIR?)");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		bail("cannot read rules/default.rules");
	fclose(f);
	is_int(n, (long long)hd_default_rules_len,
	       "built-in default rules: same length as rules/default.rules");
	ok((size_t)n == hd_default_rules_len &&
	   memcmp(buf, hd_default_rules_text, (size_t)n) == 0,
	   "built-in default rules: byte for byte rules/default.rules");
	is_int((long long)strlen(hd_default_rules_text), (long long)hd_default_rules_len,
	       "built-in default rules: no NUL inside");
	free(buf);
	is_int(0, hd_rules_load_default(&r), "built-in default rules load");
	ok(hd_rules_count(r) >= 4, "built-in default rules have rules");
	is_string(HD_RULES_DEFAULT_NAME, r->name, "built-in rules are named %s",
		  HD_RULES_DEFAULT_NAME);
	hd_rules_free(r);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		int rc = hd_rules_load(&r, src_path(files[i]));
		is_int(0, rc, "%s loads", files[i]);
		hd_rules_free(r);
	}
}

/* ---- metrics x conditions ----------------------------------------------- */

/*
 * Every metric on tests/rules/synth-old.txt -> synth-new.txt, numbers
 * added up from the dump texts (see gen-synth.py for the layout).
 */
static const struct metric_case {
	const char *metric;
	int is_bytes;
	int64_t old_v, new_v;
} metric_cases[] = {
	{ "total_bytes", 1, 13700, 17384 },
	{ "peak_bytes", 1, 9728, 12160 },           /* held at 5 (peak_held.py) */
	{ "peak_bytes(space=hbm)", 1, 9728, 12160 },
	{ "peak_bytes(space=vmem)", 1, 1024, 1280 },
	{ "space5_peak_bytes", 1, 0, 256 },
	{ "stated_peak_bytes", 1, 9216, 11520 },    /* last cumulative line */
	{ "recomputed_peak_bytes", 1, 9728, 12160 }, /* live at 5: p0.1,
						      * constant.1, attn.1, mlp.1 */
	{ "space0_bytes", 1, 12160, 15200 },
	{ "bytes(space=hbm)", 1, 12160, 15200 },
	{ "bytes(space=vmem)", 1, 1024, 1280 },
	{ "space1_bytes", 1, 1024, 1280 },
	{ "space2_bytes", 1, 4, 8 },
	{ "bytes(space=host)", 1, 0, 256 },
	{ "bytes(space=smem)", 1, 512, 640 },
	{ "parameter_bytes", 1, 1024, 1280 },
	{ "bytes(kind=parameter)", 1, 1024, 1280 },
	{ "output_bytes", 1, 2048, 2560 },
	{ "constant_bytes", 1, 512, 640 },
	{ "thread_local_bytes", 1, 256, 320 },
	{ "temp_bytes", 1, 9732, 12424 },
	{ "other_bytes", 1, 128, 160 },
	{ "bytes(kind=temp, space=0)", 1, 8192, 10240 },
	{ "bytes(space=vmem, kind=temp)", 1, 1024, 1280 },
	{ "allocations", 0, 9, 10 },
	{ "values", 0, 11, 17 },
	{ "prefetches", 0, 1, 2 },
	{ "evictions", 0, 0, 1 },
	{ "cross_program_prefetches", 0, 0, 1 },
	{ "host_offloads", 0, 0, 1 },
	{ "host_reloads", 0, 0, 1 },
	{ "other_copies", 0, 0, 1 },
	{ "bytes(name=\"attn*\")", 1, 4096, 6144 },
	{ "bytes(name=\"copy-start{0}\")", 1, 1024, 1024 },
	{ "bytes(name=\"copy-start*\")", 1, 1060, 3748 },
	{ "bytes(name=\"copy-start*\", space=vmem)", 1, 1024, 2816 },
	{ "bytes(op_name=\"*/attention/*\")", 1, 4096, 6144 },
	{ "bytes(op_name=\"jit(f)/*\")", 1, 11136, 14048 },
	{ "bytes(op_name=\"jit(f)/*\", kind=temp)", 1, 8704, 11008 },
};

/* "N B" or "N" for an amount of the metric. */
static char *amount(char *buf, size_t n, const struct metric_case *m, int64_t v)
{
	snprintf(buf, n, "%lld%s", (long long)v, m->is_bytes ? " B" : "");
	return buf;
}

static void check_rule(const struct hd_diff *df, const char *metric,
		       const char *cond, int want, const char *what)
{
	char text[512];
	int got;

	snprintf(text, sizeof(text), "error %s %s", metric, cond);
	got = eval_result(text, df);
	if (!is_int(want, got, "%s: %s (%s)", what, text,
		    want == HD_VERDICT_PASS ? "passes" : "violated"))
		diag("result %d", got);
}

/* pct in millionths as "12.345678%" */
static char *pct_arg(char *buf, size_t n, int64_t pct)
{
	snprintf(buf, n, "grows by more than %lld.%06lld%%",
		 (long long)(pct / HD_PCT_ONE), (long long)(pct % HD_PCT_ONE));
	return buf;
}

static void test_metric_case(const struct hd_diff *df, const struct hd_diff *rev,
			     const struct metric_case *m)
{
	struct one o;
	char text[512], a[64], c[128];
	int64_t d = m->new_v - m->old_v;

	snprintf(text, sizeof(text), "warn %s above 0%s", m->metric,
		 m->is_bytes ? " B" : "");
	o = eval_text(text, df, NULL);
	is_int(m->old_v, o.vd.old_v, "%s: old", m->metric);
	is_int(m->new_v, o.vd.new_v, "%s: new", m->metric);
	if (d <= 0) {
		snprintf(c, sizeof(c), "grows by more than 0%s", m->is_bytes ? " B" : "");
		check_rule(df, m->metric, c, HD_VERDICT_PASS, "no growth");
		check_rule(df, m->metric, "grows by more than 0%", HD_VERDICT_PASS,
			   "no growth");
		return;
	}
	/* growth by an amount: exactly at the threshold passes */
	snprintf(c, sizeof(c), "grows by more than %s", amount(a, sizeof(a), m, d));
	check_rule(df, m->metric, c, HD_VERDICT_PASS, "amount at threshold");
	snprintf(c, sizeof(c), "grows by more than %s", amount(a, sizeof(a), m, d - 1));
	check_rule(df, m->metric, c, HD_VERDICT_VIOLATED, "amount below");
	if (m->is_bytes && d % 1024 == 0) {
		snprintf(c, sizeof(c), "grows by more than %lld KiB", (long long)(d / 1024));
		check_rule(df, m->metric, c, HD_VERDICT_PASS, "KiB at threshold");
	}
	/* growth by a percentage: the smallest passing one and one below */
	if (m->old_v > 0) {
		__extension__ __int128 num = (__int128)d * 100 * HD_PCT_ONE;
		int64_t hi = (int64_t)((num + m->old_v - 1) / m->old_v);

		check_rule(df, m->metric, pct_arg(c, sizeof(c), hi), HD_VERDICT_PASS,
			   num % m->old_v == 0 ? "percent exactly at threshold" :
			   "percent just above");
		check_rule(df, m->metric, pct_arg(c, sizeof(c), hi - 1),
			   HD_VERDICT_VIOLATED, "percent just below");
	} else {
		check_rule(df, m->metric, "grows by more than 1000000%",
			   HD_VERDICT_VIOLATED, "any growth from 0");
	}
	/* ceiling on the new value */
	snprintf(c, sizeof(c), "above %s", amount(a, sizeof(a), m, m->new_v));
	check_rule(df, m->metric, c, HD_VERDICT_PASS, "ceiling at new");
	snprintf(c, sizeof(c), "above %s", amount(a, sizeof(a), m, m->new_v - 1));
	check_rule(df, m->metric, c, HD_VERDICT_VIOLATED, "ceiling below new");
	/* shrinkage (NEW -> OLD) passes every growth rule */
	snprintf(c, sizeof(c), "grows by more than 0%s", m->is_bytes ? " B" : "");
	check_rule(rev, m->metric, c, HD_VERDICT_PASS, "shrinkage");
	check_rule(rev, m->metric, "grows by more than 0%", HD_VERDICT_PASS,
		   "shrinkage");
	snprintf(c, sizeof(c), "above %s", amount(a, sizeof(a), m, m->old_v));
	check_rule(rev, m->metric, c, HD_VERDICT_PASS, "shrinkage, ceiling at new");
}

static void test_metrics(void)
{
	struct pair p, q;
	size_t i;

	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	pair_load(&q, "tests/rules/synth-new.txt", "tests/rules/synth-old.txt");
	for (i = 0; i < ARRAY_SIZE(metric_cases); i++)
		test_metric_case(&p.df, &q.df, &metric_cases[i]);
	/* a metric that is zero on both sides */
	check_rule(&p.df, "bytes(space=3)", "grows by more than 0%", HD_VERDICT_PASS,
		   "0 -> 0");
	check_rule(&p.df, "bytes(space=3)", "above 0 B", HD_VERDICT_PASS, "0 -> 0");
	pair_release(&q);
	pair_release(&p);
}

/* 'new' for every kind of copy, both directions. */
static void test_any_new(void)
{
	static const char *const kinds[] = {
		"prefetches", "evictions", "cross_program_prefetches",
		"host_offloads", "host_reloads", "other_copies",
	};
	static const char *const names[] = {
		"copy-start.5", "copy-start.1", "copy-start.2",
		"copy-start.3", "copy-start.4", "copy-start.6",
	};
	struct pair p, q;
	char text[128], want[64], *rep;
	size_t i;

	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	pair_load(&q, "tests/rules/synth-new.txt", "tests/rules/synth-old.txt");
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct one o;

		snprintf(text, sizeof(text), "error new %s", kinds[i]);
		o = eval_text(text, &p.df, NULL);
		is_int(HD_VERDICT_VIOLATED, o.vd.result, "%s: violated", text);
		is_int(1, o.vd.n_new_total, "%s: exactly one new (%s)", text, names[i]);
		rep = report_text(text, &p.df, NULL);
		snprintf(want, sizeof(want), " %s: ", names[i]);
		ok(contains(rep, want), "%s: %s named in the report", text, names[i]);
		free(rep);
		is_int(HD_VERDICT_PASS, eval_result(text, &q.df),
		       "%s: passes when copies only disappear", text);
	}
	/* the old prefetch copy-start is matched, not new */
	rep = report_text("warn new prefetches", &p.df, NULL);
	ok(contains(rep, "new prefetch copy-start.5: f32[128]{0:S(1)}, 512 bytes, space 0 (HBM) -> 1 (VMEM), from attn.1 (op_name \"jit(f)/attention/dot\")"),
	   "new prefetch: name, shape, bytes, spaces, source and its op_name");
	ok(!contains(rep, "new prefetch copy-start:"), "the prefetch present in both is not new");
	free(rep);
	rep = report_text("warn new host_offloads", &p.df, NULL);
	ok(contains(rep, "new host-offload copy-start.3: f32[64]{0:S(5)}, 256 bytes, space 0 (HBM) -> 5 (host), op_name \"jit(f)/offload\", from mlp.1"),
	   "new host offload: its own op_name");
	free(rep);
	pair_release(&q);
	pair_release(&p);
}

/* The value index of key on one side, or bail. */
static uint32_t value_of(const struct hd_dump *d, const char *key)
{
	uint32_t v = hd_dump_value_by_key(d, hd_slice_cstr(key));

	if (v == HD_NONE)
		bail("no value %s", key);
	return v;
}

/*
 * The matcher pairs tuple elements one by one, so a copy's {} may go
 * with one copy of the other dump and its {0} with another.  The
 * destination decides: here OLD's copy-start{0} is paired with NEW's
 * copy-start.5{0} (so copy-start.5 is not new), and NEW's copy-start{0}
 * with nothing, while its {} stays paired with OLD's copy-start{}: NEW's
 * copy-start is the new prefetch.
 */
static void test_copy_split_pairs(void)
{
	struct pair p;
	struct hd_match *m;
	uint32_t o0, n0, n5;
	struct one o;
	char *rep;

	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	m = &p.df.match;
	o0 = value_of(&p.old, "copy-start{0}");
	n0 = value_of(&p.nw, "copy-start{0}");
	n5 = value_of(&p.nw, "copy-start.5{0}");
	ok(m->old_to_new[o0] == n0 && m->new_to_old[n5] == HD_NONE,
	   "as matched: copy-start{0} in both, copy-start.5{0} added");
	ok(m->new_to_old[value_of(&p.nw, "copy-start{}")] ==
	   value_of(&p.old, "copy-start{}"), "as matched: copy-start{} in both");
	m->old_to_new[o0] = n5;
	m->new_to_old[n5] = o0;
	m->new_to_old[n0] = HD_NONE;
	o = eval_text("error new prefetches", &p.df, NULL);
	is_int(HD_VERDICT_VIOLATED, o.vd.result, "split pairs: violated");
	is_int(1, o.vd.n_new_total, "split pairs: one new prefetch");
	rep = report_text("error new prefetches", &p.df, NULL);
	ok(contains(rep, "new prefetch copy-start: "),
	   "split pairs: the copy whose destination is unpaired is new");
	ok(!contains(rep, "new prefetch copy-start.5: "),
	   "split pairs: the copy whose destination is paired is not");
	free(rep);
	pair_release(&p);
}

/* ---- waivers ------------------------------------------------------------ */

static void test_waivers(void)
{
	struct pair p;
	struct one o;
	char *rep;

	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	o = eval_text("waive name=\"attn*\" because \"hand-tuned kernel\"\n"
		      "error bytes(op_name=\"*/attention/*\") above 0 B\n", &p.df, NULL);
	ok(o.vd.old_v == 0 && o.vd.new_v == 0 && o.vd.result == HD_VERDICT_PASS,
	   "waived values leave the value metrics");
	o = eval_text("waive op_name=\"*/attention/*\" because \"x\"\n"
		      "error values above 0\n", &p.df, NULL);
	ok(o.vd.old_v == 10 && o.vd.new_v == 16, "waived values leave the value count");
	o = eval_text("waive op_name=\"*/attention/*\" because \"x\"\n"
		      "error total_bytes above 0 B\n", &p.df, NULL);
	ok(o.vd.old_v == 13700 && o.vd.new_v == 17384,
	   "waivers do not change allocation totals");
	o = eval_text("waive name=\"copy-start.5\" because \"tuned\"\n"
		      "error new prefetches\n", &p.df, NULL);
	ok(o.vd.result == HD_VERDICT_PASS && o.vd.n_new_total == 0,
	   "a waived copy is not a new prefetch");
	o = eval_text("waive name=\"copy-start*\" because \"MSA is tuned separately\"\n"
		      "error prefetches above 0\n", &p.df, NULL);
	ok(o.vd.old_v == 0 && o.vd.new_v == 0, "waived copies leave the copy counts");
	o = eval_text("waive op_name=\"jit(f)/offload\" because \"offload planned\"\n"
		      "error new host_offloads\n", &p.df, NULL);
	ok(o.vd.result == HD_VERDICT_PASS, "a copy is waived by its op_name");
	o = eval_text("waive name=\"copy-start{0}\" because \"by name{index}\"\n"
		      "error bytes(name=\"copy-start*\") above 0 B\n", &p.df, NULL);
	ok(o.vd.old_v == 36 && o.vd.new_v == 2724, "a waiver matches name{index}");
	rep = report_text("waive name=\"copy-start*\" because \"MSA prefetches are tuned separately\"\n"
			  "error total_bytes grows by more than 1%\n", &p.df, NULL);
	ok(contains(rep, "waived t.rules:1: waive name=\"copy-start*\" because \"MSA prefetches are tuned separately\" (values: 3 in OLD, 9 in NEW; copies: 7 in NEW)"),
	   "report: the waiver, its reason and what it covered");
	ok(contains(rep, "+1280  copy-start.2{0}  - -> 1280 (added) [waived]"),
	   "report: waived values among allocation contributors are marked");
	free(rep);
	pair_release(&p);
}

/* ---- scope -------------------------------------------------------------- */

static void test_scope(void)
{
	const char *text =
		"error total_bytes above 1 B\n"
		"module \"jit_train*\" {\n"
		"  error peak_bytes above 1 B\n"
		"  waive name=\"attn*\" because \"train only\"\n"
		"}\n"
		"module \"jit_eval\" {\n"
		"  warn values above 1\n"
		"}\n";
	struct hd_rules *r = load_ok(text);
	struct pair p;
	struct hd_verdicts *v;

	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	v = hd_rules_eval(r, &p.df, NULL);
	is_int(1, (long long)v->verdicts.len, "no module: unscoped rules only");
	is_int(0, (long long)v->waivers.len, "no module: unscoped waivers only");
	hd_verdicts_free(v);
	v = hd_rules_eval(r, &p.df, "jit_train_step");
	is_int(2, (long long)v->verdicts.len, "jit_train_step: its block applies");
	is_int(1, (long long)v->waivers.len, "jit_train_step: its waiver applies");
	is_int(1, hd_verdicts_status(v, 0), "jit_train_step: an error violated");
	hd_verdicts_free(v);
	v = hd_rules_eval(r, &p.df, "jit_eval");
	is_int(2, (long long)v->verdicts.len, "jit_eval: the other block");
	is_int(HD_SEV_WARN, HD_VERDICT(v, 1).rule->severity, "jit_eval: its warn rule");
	hd_verdicts_free(v);
	v = hd_rules_eval(r, &p.df, "jit_evaluate");
	is_int(1, (long long)v->verdicts.len, "globs match the whole name");
	hd_verdicts_free(v);
	pair_release(&p);
	hd_rules_free(r);
}

/* ---- status, n/a, reports ----------------------------------------------- */

static void test_status(void)
{
	struct pair p;
	struct one o;
	char *rep;

	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	o = eval_text("warn total_bytes above 1 B\n", &p.df, NULL);
	is_int(0, o.status, "a violated warning: status 0");
	is_int(1, o.status_werror, "a violated warning with werror: status 1");
	o = eval_text("error total_bytes above 1 B\n", &p.df, NULL);
	is_int(1, o.status, "a violated error: status 1");
	o = eval_text("error total_bytes above 1 GiB\nwarn values above 1000\n", &p.df, NULL);
	ok(o.status == 0 && o.status_werror == 0, "nothing violated: status 0");
	rep = report_text("error total_bytes grows by more than 1% because \"HBM budget\"\n"
			  "warn bytes(space=vmem) above 1 KiB\n"
			  "error peak_bytes grows by more than 50%\n", &p.df, "m");
	ok(contains(rep, "rules: t.rules, module m: 2 violated (1 error, 1 warning), 1 passed\n"),
	   "report: summary line");
	ok(contains(rep, "  error t.rules:1: error total_bytes grows by more than 1% because \"HBM budget\"\n"
		    "    total_bytes: 13700 -> 17384 (+3684, +26.9%); 1% of 13700 allows +137\n"
		    "    top values by growth (sums of value sizes: 12 grew by +5728, none shrank):\n"
		    "           +2048  attn.1{}  4096 -> 6144\n"),
	   "report: rule with FILE:LINE, old, new, delta, percent, contributors");
	ok(contains(rep, "  warning t.rules:2: warn bytes(space=vmem) above 1 KiB\n"
		    "    bytes(space=vmem): 1024 -> 1280 (+256, +25.0%); ceiling 1024\n"
		    "    largest values in NEW:\n"
		    "            1280  copy-start.2{0} (added)\n"),
	   "report: ceiling with the largest values");
	ok(contains(rep, "  ok t.rules:3: error peak_bytes grows by more than 50% (9728 -> 12160, +2432)\n"),
	   "report: passed rules one line each");
	free(rep);
	pair_release(&p);
}

/* A dump without a peak section or Used values: rules that need them are
 * not applicable, never silently passed or failed. */
static void test_not_applicable(void)
{
	static const char text[] =
		"BufferAssignment:\n"
		"allocation 0: size 64, preallocated-temp:\n"
		" value: <1 a.1 @0> (size=64,offset=0): f32[16]{0}\n";
	struct hd_dump d;
	struct pair p;
	struct hd_diff df;
	struct one o;

	if (hd_parse_buffer(&d, "bare", text, strlen(text), 0))
		bail("cannot parse the bare dump");
	pair_load(&p, "tests/rules/synth-old.txt", "tests/rules/synth-new.txt");
	hd_diff_compute(&df, &p.old, &d, 0);
	o = eval_text("error peak_bytes grows by more than 1%\n", &df, NULL);
	is_int(HD_VERDICT_NA, o.vd.result, "no peak in NEW: not applicable");
	is_string("NEW has no live ranges (no BufferLiveRange section)", o.why,
		  "not applicable: the reason");
	o = eval_text("error peak_bytes above 1 B\n", &df, NULL);
	is_int(HD_VERDICT_NA, o.vd.result, "a ceiling needs NEW only: still n/a");
	o = eval_text("error new prefetches\n", &df, NULL);
	is_int(HD_VERDICT_NA, o.vd.result, "no Used values in NEW: copies n/a");
	is_string("NEW has no 'Used values' section (copies cannot be classified)",
		  o.why, "copies n/a: the reason");
	o = eval_text("error bytes(op_name=\"*\") above 0 B\n", &df, NULL);
	is_int(HD_VERDICT_NA, o.vd.result, "no Used values in NEW: op_name n/a");
	o = eval_text("error bytes(name=\"a*\") above 0 B\n", &df, NULL);
	is_int(HD_VERDICT_VIOLATED, o.vd.result, "name= works without Used values");
	o = eval_text("error total_bytes above 0 B\n", &df, NULL);
	is_int(HD_VERDICT_NA, o.vd.result, "no 'Total bytes used' in NEW: n/a");
	is_int(0, o.status, "n/a does not fail");
	hd_diff_release(&df);
	pair_release(&p);
	hd_dump_release(&d);
}

/* ---- seeds -------------------------------------------------------------- */

static void test_seed_prefetch(void)
{
	struct pair p, q, same;
	struct one o;
	char *rep;
	struct hd_rules *r;
	struct hd_verdicts *v;

	pair_load(&p, "tests/rules/seed-000-noprefetch.txt", "tests/data/seed-000.txt");
	o = eval_text("error new prefetches\n", &p.df, NULL);
	is_int(HD_VERDICT_VIOLATED, o.vd.result, "seed 000 against itself without its prefetch: new prefetch");
	is_int(1, o.status, "seed 000: exit status 1");
	rep = report_text("error new prefetches\n", &p.df, NULL);
	ok(contains(rep, "new prefetch copy-start: u32[2]{0:T(128)S(1)}, 512 bytes, space 0 (HBM) -> 1 (VMEM), from Arg_0.1 (op_name \"key\")"),
	   "seed 000: the copy-start named with shape, bytes, spaces and op_name");
	free(rep);
	pair_load(&q, "tests/data/seed-000.txt", "tests/rules/seed-000-noprefetch.txt");
	is_int(HD_VERDICT_PASS, eval_result("error new prefetches\n", &q.df),
	       "seed 000: removing the prefetch is not a new prefetch");
	pair_load(&same, "tests/data/seed-000.txt", "tests/data/seed-000.txt");
	if (hd_rules_load(&r, src_path("rules/strict.rules")))
		bail("cannot load rules/strict.rules");
	v = hd_rules_eval(r, &same.df, NULL);
	is_int(0, hd_verdicts_status(v, 1), "seed 000 against itself passes strict.rules with werror");
	hd_verdicts_free(v);
	hd_rules_free(r);
	pair_release(&same);
	pair_release(&q);
	pair_release(&p);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return driver(argc, argv);
	plan_lazy();
	test_module_names();
	test_parse_forms();
	test_parse_details();
	test_parse_errors();
	test_parse_limits();
	test_condition_math();
	test_shipped_rules();
	test_metrics();
	test_any_new();
	test_copy_split_pairs();
	test_waivers();
	test_scope();
	test_status();
	test_not_applicable();
	test_seed_prefetch();
	return 0;
}
