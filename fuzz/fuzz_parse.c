/*
 * fuzz_parse.c - libFuzzer target: the dump parser, then the figures and
 * the stat reports of what it read.
 *
 * The input is one dump.  It is parsed twice, leniently and with
 * HD_PARSE_STRICT, and the two must agree: strict succeeds exactly when
 * the lenient parse succeeds with no unknown line.  A failed parse must
 * print an error naming the input; a successful one must not.  Figures
 * are then checked for internal consistency (the by-colour and by-kind
 * sums add up to the allocation total unless it saturated).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hlodiff/dump.h"
#include "hlodiff/figures.h"
#include "hlodiff/parse.h"
#include "hlodiff/report.h"

#include "fuzz.h"

#define NAME "fuzz.txt"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

static void check_figures(const struct hd_dump *d, const struct hd_figures *f)
{
	int64_t by_color = 0, by_kind = 0;
	uint64_t allocs = 0, copies = 0;
	int saturated = 0;
	size_t i;

	fuzz_check(f->n_allocs == d->allocs.len);
	fuzz_check(f->n_values == d->alloc_values.len);
	for (i = 0; i < f->by_color.len; i++) {
		const struct hd_color_bytes *c =
			&HD_VEC_AT(&f->by_color, struct hd_color_bytes, i);
		if (i > 0)
			fuzz_check(HD_VEC_AT(&f->by_color, struct hd_color_bytes,
					     i - 1).color < c->color);
		saturated |= __builtin_add_overflow(by_color, c->bytes, &by_color);
		allocs += c->allocs;
	}
	fuzz_check(allocs == f->n_allocs);
	allocs = 0;
	for (i = 0; i < HD_KIND_COUNT; i++) {
		saturated |= __builtin_add_overflow(by_kind, f->by_kind[i], &by_kind);
		allocs += f->allocs_by_kind[i];
	}
	fuzz_check(allocs == f->n_allocs);
	if (!saturated && f->alloc_bytes != INT64_MAX) {
		fuzz_check(by_color == f->alloc_bytes);
		fuzz_check(by_kind == f->alloc_bytes);
	}
	for (i = 0; i < HD_COPY_CLASS_COUNT; i++)
		copies += f->copies_by_class[i];
	fuzz_check(copies == f->copies.len);
	fuzz_check(f->total_mismatch == (f->has_total && f->total_bytes != f->alloc_bytes));
	if (f->has_recomputed) {
		fuzz_check(f->recomputed_time >= 0);
		fuzz_check(f->recomputed_time <= d->live_max + 1);
		fuzz_check(f->recomputed_bytes >= 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct hd_dump d, strict;
	struct hd_figures f;
	struct hd_report_opts opts;
	int rc, rc_strict;

	fuzz_msgs_reset();
	rc = hd_parse_buffer(&d, NAME, text, size, 0);
	if (rc == 0)
		hd_parse_report_unknown(&d);
	fuzz_check_parse_msgs(rc, NAME);

	fuzz_msgs_reset();
	rc_strict = hd_parse_buffer(&strict, NAME, text, size, HD_PARSE_STRICT);
	fuzz_check_parse_msgs(rc_strict, NAME);
	fuzz_check((rc_strict == 0) == (rc == 0 && d.n_unknown == 0));
	if (rc_strict == 0)
		fuzz_check(strict.n_unknown == 0);
	hd_dump_release(&strict);

	if (rc == 0) {
		hd_figures_compute(&f, &d);
		check_figures(&d, &f);
		memset(&opts, 0, sizeof(opts));
		opts.top_n = 3;
		opts.all = (int)(size & 1);
		hd_report_stat_text(fuzz_null(), &d, &f, &opts);
		hd_report_stat_json(fuzz_null(), &d, &f, &opts);
		hd_figures_release(&f);
	}
	hd_dump_release(&d);
	return 0;
}
