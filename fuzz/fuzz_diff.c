/*
 * fuzz_diff.c - libFuzzer target: the comparison of two dumps, the
 * default rules evaluated on it, and the diff reports.
 *
 * The input is OLD, then the separator FUZZ_DIFF_SEP (four NUL bytes,
 * which no dump may contain), then NEW; OLD keeps its final newline.
 * Without a separator the input is compared with itself, and then
 * nothing may differ: every value matched, none added, removed or
 * changed.  Odd-sized inputs are matched by name only.
 *
 * OLD is parsed with HD_PARSE_CANON (the parser computes the canonical
 * hashes as a diff does), NEW without.  Compared with itself, when bit 2
 * of the size is set, both are hashed first and every hash must agree:
 * the parser's results are the ones hd_canon_compute gets from the text.
 * The diff then hashes OLD from its text (the parser's results are taken
 * once); otherwise the diff uses them.
 *
 * When bit 3 of the size is set, the partial diff the text report gets
 * (hd_diff_compute_sides_top) is made as well: its text report must be
 * the whole diff's byte for byte, and once completed (hd_diff_complete)
 * its JSON report with every value too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/canon.h"
#include "hlodiff/diff.h"
#include "hlodiff/dump.h"
#include "hlodiff/match.h"
#include "hlodiff/parse.h"
#include "hlodiff/report.h"
#include "hlodiff/rules.h"
#include "hlodiff/report_verdict.h"

#include "fuzz.h"

#define FUZZ_DIFF_SEP "\0\0\0\0"
#define FUZZ_DIFF_SEP_LEN 4

static struct hd_rules *rules;

static int same_u64(const uint64_t *a, const uint64_t *b, size_t n)
{
	return n == 0 || memcmp(a, b, n * sizeof(*a)) == 0;
}

/* The hashes of one text, parsed with and without HD_PARSE_CANON, agree. */
static void check_fused_hashes(const struct hd_dump *fused,
			       const struct hd_dump *plain)
{
	struct hd_canon a, b;

	hd_canon_compute(&a, fused);
	hd_canon_compute(&b, plain);
	fuzz_check(a.n_insns == b.n_insns && a.n_values == b.n_values);
	fuzz_check(same_u64(a.insn_canon, b.insn_canon, a.n_insns));
	fuzz_check(same_u64(a.insn_struct, b.insn_struct, a.n_insns));
	fuzz_check(same_u64(a.insn_loose, b.insn_loose, HD_LOOSE_PARTS * (size_t)a.n_insns));
	fuzz_check(same_u64(a.value_canon, b.value_canon, a.n_values));
	fuzz_check(same_u64(a.value_struct, b.value_struct, a.n_values));
	fuzz_check(a.n_cyclic == b.n_cyclic);
	hd_canon_release(&a);
	hd_canon_release(&b);
}

/* A report of df rendered into memory (free it). */
static char *render(int json, const struct hd_diff *df,
		    const struct hd_report_opts *opts)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		abort();
	if (json)
		hd_report_diff_json(f, df, opts);
	else
		hd_report_diff_text(f, df, opts);
	fclose(f);
	return text;
}

static void check_same_report(int json, const struct hd_diff *whole,
			      const struct hd_diff *part,
			      const struct hd_report_opts *opts)
{
	char *a = render(json, whole, opts), *b = render(json, part, opts);

	fuzz_check(strcmp(a, b) == 0);
	free(a);
	free(b);
}

/* The partial diff reports what the whole one does (bit 3 above). */
static void check_partial(const struct hd_dump *old,
			  const struct hd_dump *new_dump, unsigned flags,
			  const struct hd_diff *whole, uint32_t top)
{
	struct hd_diff_side os, ns;
	struct hd_report_opts opts;
	struct hd_diff part;

	hd_diff_side_prepare(&os, old);
	hd_diff_side_prepare(&ns, new_dump);
	hd_diff_compute_sides_top(&part, &os, &ns, flags, top);
	memset(&opts, 0, sizeof(opts));
	opts.top_n = (int)top;
	check_same_report(0, whole, &part, &opts);
	hd_diff_complete(&part);
	opts.all = 1;
	check_same_report(1, whole, &part, &opts);
	hd_diff_release(&part);
	hd_diff_side_release(&os);
	hd_diff_side_release(&ns);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	if (hd_rules_load_default(&rules) != 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *sep = size >= FUZZ_DIFF_SEP_LEN ?
		memmem(text, size, FUZZ_DIFF_SEP, FUZZ_DIFF_SEP_LEN) : NULL;
	size_t old_len = sep ? (size_t)(sep - text) : size;
	const char *new_text = sep ? sep + FUZZ_DIFF_SEP_LEN : text;
	size_t new_len = sep ? size - old_len - FUZZ_DIFF_SEP_LEN : size;
	struct hd_dump old, new_dump;
	struct hd_report_opts opts;
	struct hd_verdicts *v;
	struct hd_diff df;
	unsigned flags = (size & 1) ? HD_MATCH_BY_NAME_ONLY : 0;
	int rc_old, rc_new;
	struct hd_canon_pre *pre;
	struct hd_parse_hooks hooks;
	struct hd_parse_opts popts = { 0, &hooks };

	fuzz_msgs_reset();
	pre = hd_canon_pre_new();
	hooks = hd_canon_pre_hooks(pre);
	rc_old = hd_parse_buffer_opts(&old, "old.txt", text, old_len, &popts);
	old.canon_pre = pre;
	fuzz_check_parse_msgs(rc_old, "old.txt");
	fuzz_msgs_reset();
	rc_new = hd_parse_buffer(&new_dump, "new.txt", new_text, new_len, 0);
	fuzz_check_parse_msgs(rc_new, "new.txt");
	if (rc_old == 0 && rc_new == 0) {
		if (!sep && (size & 4))
			check_fused_hashes(&old, &new_dump);
		hd_diff_compute(&df, &old, &new_dump, flags);
		if (size & 8)
			check_partial(&old, &new_dump, flags, &df, 5);
		if (!sep) {
			fuzz_check(df.n_added == 0);
			fuzz_check(df.n_removed == 0);
			fuzz_check(df.n_changed == 0);
			fuzz_check(df.n_matched == old.values.len);
		}
		v = hd_rules_eval(rules, &df, "jit_fuzz");
		if (!sep)
			fuzz_check(hd_verdicts_status(v, 1) == 0);
		memset(&opts, 0, sizeof(opts));
		opts.top_n = 5;
		opts.all = (int)((size >> 1) & 1);
		opts.color = (int)((size >> 2) & 1);
		hd_report_diff_text(fuzz_null(), &df, &opts);
		hd_report_diff_json(fuzz_null(), &df, &opts);
		hd_verdicts_report_text(fuzz_null(), v, opts.color);
		hd_verdicts_free(v);
		hd_diff_release(&df);
	}
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
	return 0;
}
