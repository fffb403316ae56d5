/*
 * fuzz_rules.c - libFuzzer target: the rules-file parser, and the rules
 * it accepts evaluated against a fixed diff (examples/jit_normal-0021.txt
 * vs examples/jit_normal-0041.txt, read once at start-up from
 * FUZZ_SRCDIR, the repository root given at build time), with the
 * verdicts rendered as text and JSON.
 *
 * Oracles: a rejected file prints at least one error naming it; an
 * accepted one prints none.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hlodiff/diff.h"
#include "hlodiff/json.h"
#include "hlodiff/parse.h"
#include "hlodiff/rules.h"
#include "hlodiff/report_verdict.h"

#include "fuzz.h"

#ifndef FUZZ_SRCDIR
#define FUZZ_SRCDIR "."
#endif

#define NAME "fuzz.rules"

static struct hd_dump old, new_dump;
static struct hd_diff df;
static int have_diff;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (hd_parse_file(&old, FUZZ_SRCDIR "/examples/jit_normal-0021.txt", 0) == 0 &&
	    hd_parse_file(&new_dump, FUZZ_SRCDIR "/examples/jit_normal-0041.txt", 0) == 0) {
		hd_diff_compute(&df, &old, &new_dump, 0);
		have_diff = 1;
	} else {
		fprintf(stderr, "fuzz_rules: no example dumps under %s: rules are "
			"parsed but not evaluated\n", FUZZ_SRCDIR);
	}
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hd_rules *r = NULL;
	struct hd_verdicts *v;
	struct hd_json j;
	int rc;

	fuzz_msgs_reset();
	rc = hd_rules_load_buffer(&r, NAME, (const char *)data, size);
	fuzz_check_parse_msgs(rc, NAME);
	if (rc != 0) {
		fuzz_check(r == NULL);
		return 0;
	}
	fuzz_check(r != NULL);
	if (have_diff) {
		v = hd_rules_eval(r, &df, (size & 1) ? "jit_normal" : NULL);
		fuzz_check(hd_verdicts_status(v, 0) <= 1);
		hd_verdicts_report_text(fuzz_null(), v, (int)((size >> 1) & 1));
		hd_json_init(&j, fuzz_null());
		hd_verdicts_report_json(&j, v);
		hd_json_finish(&j);
		hd_verdicts_free(v);
	}
	hd_rules_free(r);
	return 0;
}
