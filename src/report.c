/*
 * report.c - the text and JSON reports of one dump (stat) and of a diff.
 *
 * Pure functions of their inputs: the same dump or diff always gives the
 * same bytes, which the golden tests pin.
 */
#include "hlodiff/report.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/format.h"
#include "hlodiff/json.h"
#include "hlodiff/report_verdict.h"
#include "hlodiff/label.h"
#include "hlodiff/shape.h"
#include "report_common.h"

#define JSON_SCHEMA 1
#define LABEL_MAX 512

/* ---- stat, text ------------------------------------------------------ */

static const char *section_names(const struct hd_dump *d, char *buf, size_t n)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < hd_section_word_count; i++) {
		if (!(d->sections & hd_section_words[i].bit))
			continue;
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", hd_section_words[i].name);
		if (o >= n)
			break;
	}
	return buf;
}

static void text_bytes_line(FILE *out, const char *label, int64_t bytes,
			    const char *extra)
{
	char h[HD_HUMAN_MAX];

	hd_print_line(out, "  %-24s %15" PRId64 "  %-10s%s", label, bytes,
		hd_human_bytes(h, sizeof(h), bytes), extra ? extra : "");
}

static void stat_text_totals(FILE *out, const struct hd_dump *d,
			     const struct hd_figures *f)
{
	char extra[128];
	size_t i;
	int k;

	if (f->has_total)
		text_bytes_line(out, "total bytes", f->total_bytes, f->total_mismatch ?
				"  (differs from the sum of allocation sizes)" : NULL);
	else
		fprintf(out, "  %-24s %15s\n", "total bytes", "(not in dump)");
	if (!f->has_total || f->total_mismatch)
		text_bytes_line(out, "sum of allocation sizes", f->alloc_bytes, NULL);
	fprintf(out, "\nby memory space\n");
	for (i = 0; i < f->by_color.len; i++) {
		const struct hd_color_bytes *c = &HD_VEC_AT(&f->by_color, struct hd_color_bytes, i);
		char label[48], sp[40];
		hd_rc_space_text(sp, sizeof(sp), hd_rc_platform(d), c->color);
		snprintf(label, sizeof(label), "space %s", sp);
		snprintf(extra, sizeof(extra), "  %u allocation%s", c->allocs,
			 c->allocs == 1 ? "" : "s");
		text_bytes_line(out, label, c->bytes, extra);
	}
	fprintf(out, "\nby allocation kind\n");
	for (k = 0; k < HD_KIND_COUNT; k++) {
		if (!f->allocs_by_kind[k])
			continue;
		snprintf(extra, sizeof(extra), "  %u allocation%s", f->allocs_by_kind[k],
			 f->allocs_by_kind[k] == 1 ? "" : "s");
		text_bytes_line(out, hd_alloc_kind_name((enum hd_alloc_kind)k),
				f->by_kind[k], extra);
	}
}

/* The label of the value a peak gap is about, or the name it gives. */
static void gap_label(char *lab, size_t n, const struct hd_dump *d,
		      const struct hd_peak_gap *g)
{
	if (g->value != HD_NONE)
		hd_value_label(lab, n, d, g->value);
	else
		snprintf(lab, n, "%.*s%.*s", (int)g->name.n, g->name.p,
			 (int)g->index.n, g->index.p ? g->index.p : "");
}

/* How many values hd_report shows for a stated peak that differs. */
#define GAPS_SHOWN 5

/* The stated peak against the held one, when they differ by more than
 * 1%: by how much, the totals per reason and the values that account
 * for it. */
static void text_peak_gap(FILE *out, const char *indent,
			  const struct hd_dump *d, const struct hd_figures *f)
{
	struct hd_vec gaps = HD_VEC_INIT(struct hd_peak_gap);
	int64_t by_reason[HD_GAP_REASON_COUNT];
	char dd[32], pc[32], lab[LABEL_MAX];
	size_t i;
	int r;

	if (!hd_peak_stated_differs(f))
		return;
	hd_peak_explain(d, f, &gaps, by_reason);
	fprintf(out, "%sstated - held: %s (%s of held)",
		indent, hd_signed(dd, sizeof(dd), hd_delta(f->peak_bytes, f->stated_bytes)),
		hd_percent(pc, sizeof(pc), f->peak_bytes, f->stated_bytes));
	if (f->stated_time != f->peak_time)
		fprintf(out, "; stated at time %" PRId64 ", held peak at %" PRId64,
			f->stated_time, f->peak_time);
	fputc('\n', out);
	for (r = 0; r < HD_GAP_REASON_COUNT; r++)
		if (by_reason[r])
			fprintf(out, "%s  %15s  %s\n", indent,
				hd_signed(dd, sizeof(dd), by_reason[r]),
				hd_peak_gap_words(r));
	for (i = 0; i < gaps.len && i < GAPS_SHOWN; i++) {
		const struct hd_peak_gap *g = &HD_VEC_AT(&gaps, struct hd_peak_gap, i);

		gap_label(lab, sizeof(lab), d, g);
		hd_print_line(out, "%s  %15s  %s: held %" PRId64 ", stated %" PRId64 " (%s)",
			      indent, hd_signed(dd, sizeof(dd), hd_delta(g->held, g->stated)),
			      lab, g->held, g->stated, hd_peak_gap_name(g->reason));
	}
	if (gaps.len > GAPS_SHOWN)
		fprintf(out, "%s  %15s  %zu other value%s\n", indent, "...",
			gaps.len - GAPS_SHOWN, gaps.len - GAPS_SHOWN == 1 ? "" : "s");
	hd_vec_release(&gaps);
}

static void stat_text_peak(FILE *out, const struct hd_dump *d,
			   const struct hd_figures *f)
{
	char h[HD_HUMAN_MAX];
	size_t i;

	fprintf(out, "\npeak\n");
	if (f->has_peak) {
		fprintf(out, "  %-24s %15" PRId64 "  %-10s  at time %" PRId64 " of %" PRId64 "\n",
			"held", f->peak_bytes, hd_human_bytes(h, sizeof(h), f->peak_bytes),
			f->peak_time, d->live_max);
		for (i = 0; i < f->peak_by_color.len; i++) {
			const struct hd_peak_space *sp =
				&HD_VEC_AT(&f->peak_by_color, struct hd_peak_space, i);
			char label[48];

			snprintf(label, sizeof(label), "  held in space %" PRId64, sp->color);
			fprintf(out, "  %-24s %15" PRId64 "  %-10s  at time %" PRId64 "\n",
				label, sp->bytes, hd_human_bytes(h, sizeof(h), sp->bytes), sp->time);
		}
		if (f->peak_unplaced)
			fprintf(out, "  %-24s %15u  live range%s of values in no allocation\n",
				"", f->peak_unplaced, f->peak_unplaced == 1 ? "" : "s");
	} else {
		fprintf(out, "  %-24s %15s  %s\n", "held", "-", f->peak_why ? f->peak_why : "");
	}
	if (f->has_stated)
		fprintf(out, "  %-24s %15" PRId64 "  %-10s  at time %" PRId64 " of %" PRId64 ", %u value%s live\n",
			"stated", f->stated_bytes, hd_human_bytes(h, sizeof(h), f->stated_bytes),
			f->stated_time, d->live_max, f->stated_values, f->stated_values == 1 ? "" : "s");
	else if (d->peak_style == HD_PEAK_UNDETERMINED)
		fprintf(out, "  %-24s %15s\n", "stated", "(could not be determined: unbounded dynamic shape)");
	else
		fprintf(out, "  %-24s %15s\n", "stated", "(not in dump)");
	if (f->has_recomputed) {
		fprintf(out, "  %-24s %15" PRId64 "  %-10s  at time %" PRId64,
			"recomputed", f->recomputed_bytes,
			hd_human_bytes(h, sizeof(h), f->recomputed_bytes), f->recomputed_time);
		if (f->has_stated)
			fprintf(out, "; %" PRId64 " at time %" PRId64 ": %s",
				f->recomputed_at_stated, f->stated_time,
				f->stated_agrees ? "agrees" : "differs");
		if (f->recomputed_unsized)
			fprintf(out, "; %u live range%s of unknown size", f->recomputed_unsized,
				f->recomputed_unsized == 1 ? "" : "s");
		fputc('\n', out);
	}
	text_peak_gap(out, "  ", d, f);
}

static void stat_text_copies(FILE *out, const struct hd_dump *d,
			     const struct hd_figures *f)
{
	enum hd_platform pf = hd_rc_platform(d);
	size_t i;

	fprintf(out, "\ncopy-start transfers  %zu\n", f->copies.len);
	for (i = 0; i < f->copies.len; i++) {
		const struct hd_copy *c = &HD_VEC_AT(&f->copies, struct hd_copy, i);
		char src[40], dst[40], bytes[32];
		hd_rc_space_text(src, sizeof(src), pf, c->src_space);
		hd_rc_space_text(dst, sizeof(dst), pf, c->dst_space);
		if (c->bytes >= 0)
			snprintf(bytes, sizeof(bytes), "%" PRId64, c->bytes);
		else
			snprintf(bytes, sizeof(bytes), "?");
		fprintf(out, "  %-24s %15s  space %s -> %s  %.*s\n",
			hd_copy_class_name(c->cls), bytes, src, dst,
			(int)c->name.n, c->name.p);
	}
}

/* The donated parameters an output reuses, when there are any. */
static void stat_text_aliases(FILE *out, const struct hd_dump *d,
			      const struct hd_figures *f)
{
	char h[HD_HUMAN_MAX], what[64];
	size_t i, n;
	uint32_t *al;

	if (!f->aliased_params || f->allocs_partial)
		return;
	fprintf(out, "\naliased parameters  %" PRIu32 "  %" PRId64 " bytes  %s"
		" (donated: an output reuses the buffer)\n", f->aliased_params,
		f->aliased_bytes, hd_human_bytes(h, sizeof(h), f->aliased_bytes));
	al = hd_aliases_sorted(d, &n);
	for (i = 0; i < n; i++) {
		const struct hd_alloc *a = &HD_ALLOC(d, al[i]);
		struct hd_slice name, op;

		hd_alias_names(d, al[i], &name, &op);
		if (a->param_number < 0)   /* an old golden file */
			snprintf(what, sizeof(what), "parameter ?");
		else
			snprintf(what, sizeof(what), "parameter %" PRId64 " %.*s",
				 a->param_number, (int)a->param_index.n,
				 a->param_index.p ? a->param_index.p : "");
		fprintf(out, "  %-24s %15" PRId64 "  %.*s", what, a->size,
			(int)a->param_shape.n, a->param_shape.p ? a->param_shape.p : "");
		if (name.n)
			fprintf(out, "  %.*s", (int)name.n, name.p);
		if (op.n)
			fprintf(out, " (op_name \"%.*s\")", (int)op.n, op.p);
		fputc('\n', out);
	}
	free(al);
}

/* "PREFIXincomplete: WHY (FILE:LINE); left out: ...END" for a cut dump. */
static void text_incomplete(FILE *out, const char *prefix, const char *end,
			    const struct hd_dump *d)
{
	int i;

	/* a split dump's companion not found beside it: not an error */
	for (i = 0; i < 2; i++)
		if (d->missing_files[i])
			fprintf(out, "%smissing: %s; left out: %s%s\n", prefix,
				d->missing_files[i],
				hd_missing_affects(i == 0 ? HD_SEC_USED_VALUES : HD_SEC_LIVE_RANGE), end);
	if (!d->incomplete)
		return;
	fprintf(out, "%sincomplete: %s (%s:%" PRIu64 "); left out: %s%s\n", prefix,
		d->incomplete_why, d->incomplete_file, d->incomplete_line,
		hd_incomplete_affects(d->incomplete), end);
}

/* The same as a JSON member, only when the dump is incomplete. */
static void json_incomplete(struct hd_json *j, const struct hd_dump *d)
{
	int i;

	if (d->missing) {
		hd_json_key(j, "missing");
		hd_json_begin_array(j);
		for (i = 0; i < 2; i++) {
			if (!d->missing_files[i])
				continue;
			hd_json_begin_object(j);
			hd_json_key_str(j, "file", d->missing_files[i]);
			hd_json_key_str(j, "left_out", hd_missing_affects(
				i == 0 ? HD_SEC_USED_VALUES : HD_SEC_LIVE_RANGE));
			hd_json_end_object(j);
		}
		hd_json_end_array(j);
	}
	if (!d->incomplete)
		return;
	hd_json_key(j, "incomplete");
	hd_json_begin_object(j);
	hd_json_key_str(j, "why", d->incomplete_why);
	hd_json_key_str(j, "file", d->incomplete_file);
	hd_json_key_int(j, "line", (int64_t)d->incomplete_line);
	hd_json_key_str(j, "left_out", hd_incomplete_affects(d->incomplete));
	hd_json_end_object(j);
}

void hd_report_stat_text(FILE *out, const struct hd_dump *d,
			 const struct hd_figures *f,
			 const struct hd_report_opts *opts)
{
	char secs[256];

	(void)opts;
	fprintf(out, "%s\n", d->name);
	text_incomplete(out, "  ", "", d);
	fprintf(out, "  %-24s %s\n", "sections", section_names(d, secs, sizeof(secs)));
	fprintf(out, "  %-24s %15" PRIu64 "\n", "allocations", f->n_allocs);
	fprintf(out, "  %-24s %15" PRIu64 "  in allocations; %" PRIu64 " records, %" PRIu64 " live ranges\n",
		"values", f->n_values, f->n_records, f->n_live_ranges);
	stat_text_totals(out, d, f);
	stat_text_peak(out, d, f);
	stat_text_copies(out, d, f);
	stat_text_aliases(out, d, f);
	if (d->n_unknown)
		fprintf(out, "\nunknown lines  %" PRIu64 " (first at line %" PRIu64 ")\n",
			d->n_unknown, d->unknown_lines[0]);
}

/* ---- stat, JSON ------------------------------------------------------ */

static int cmp_slices(const void *a, const void *b)
{
	return hd_slice_cmp(*(const struct hd_slice *)a, *(const struct hd_slice *)b);
}

/* Names of copy-starts from space 0 into space 1 (cross-program ones
 * included), sorted. */
static void json_prefetch_names(struct hd_json *j, const struct hd_figures *f)
{
	struct hd_slice *names = hd_xcalloc(f->copies.len + 1, sizeof(*names));
	size_t i, n = 0;

	for (i = 0; i < f->copies.len; i++) {
		const struct hd_copy *c = &HD_VEC_AT(&f->copies, struct hd_copy, i);
		if (c->cls == HD_COPY_PREFETCH || c->cls == HD_COPY_CROSS_PROGRAM_PREFETCH)
			names[n++] = c->name;
	}
	qsort(names, n, sizeof(*names), cmp_slices);
	hd_json_begin_array(j);
	for (i = 0; i < n; i++)
		hd_json_slice(j, names[i]);
	hd_json_end_array(j);
	free(names);
}

static void json_copies(struct hd_json *j, const struct hd_figures *f)
{
	size_t i;

	hd_json_key(j, "copies");
	hd_json_begin_array(j);
	for (i = 0; i < f->copies.len; i++) {
		const struct hd_copy *c = &HD_VEC_AT(&f->copies, struct hd_copy, i);
		hd_json_begin_object(j);
		hd_json_key(j, "name");
		hd_json_slice(j, c->name);
		hd_json_key_str(j, "class", hd_copy_class_name(c->cls));
		hd_json_key_opt_int(j, "src_space", c->src_space >= 0, c->src_space);
		hd_json_key_opt_int(j, "dst_space", c->dst_space >= 0, c->dst_space);
		hd_json_key_opt_int(j, "bytes", c->bytes >= 0, c->bytes);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
}

/* aliased_bytes, aliased_parameters and the aliases (null when the
 * allocations broke off). */
static void json_aliases(struct hd_json *j, const struct hd_dump *d,
			 const struct hd_figures *f)
{
	int whole = !f->allocs_partial;
	size_t i, n;
	uint32_t *al;

	hd_json_key_opt_int(j, "aliased_bytes", whole, f->aliased_bytes);
	hd_json_key_opt_int(j, "aliased_parameters", whole, f->aliased_params);
	hd_json_key(j, "aliases");
	if (!whole) {
		hd_json_null(j);
		return;
	}
	hd_json_begin_array(j);
	al = hd_aliases_sorted(d, &n);
	for (i = 0; i < n; i++) {
		const struct hd_alloc *a = &HD_ALLOC(d, al[i]);
		struct hd_slice name, op;

		hd_alias_names(d, al[i], &name, &op);
		hd_json_begin_object(j);
		hd_json_key_opt_int(j, "parameter", a->param_number >= 0, a->param_number);
		hd_json_key_slice(j, "shape_index", a->param_index);
		hd_json_key_slice(j, "shape", a->param_shape);
		hd_json_key_int(j, "bytes", a->size);
		hd_json_key_slice(j, "name", name);
		hd_json_key_slice(j, "op_name", op);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
	free(al);
}

/* KEY: each colour's held peak, its bytes or (time) its first time;
 * null without a held peak. */
static void json_peak_by_color(struct hd_json *j, const struct hd_figures *f,
			       const char *key, int time)
{
	char c[32];
	size_t i;

	hd_json_key(j, key);
	if (!f->has_peak) {
		hd_json_null(j);
		return;
	}
	hd_json_begin_object(j);
	for (i = 0; i < f->peak_by_color.len; i++) {
		const struct hd_peak_space *sp = &HD_VEC_AT(&f->peak_by_color, struct hd_peak_space, i);

		snprintf(c, sizeof(c), "%" PRId64, sp->color);
		hd_json_key_int(j, c, time ? sp->time : sp->bytes);
	}
	hd_json_end_object(j);
}

/* The held peak, per colour, the stated one and, where they differ by
 * more than 1%, why (docs/json.md). */
static void json_peak_figures(struct hd_json *j, const struct hd_dump *d,
			      const struct hd_figures *f)
{
	size_t i;
	int r;

	hd_json_key_opt_int(j, "peak_time", f->has_peak, f->peak_time);
	hd_json_key_opt_int(j, "peak_bytes", f->has_peak, f->peak_bytes);
	if (!f->has_peak)
		hd_json_key_str(j, "peak_absent", f->peak_why ? f->peak_why : "");
	json_peak_by_color(j, f, "peak_bytes_by_color", 0);
	json_peak_by_color(j, f, "peak_time_by_color", 1);
	hd_json_key_opt_int(j, "stated_peak_time", f->has_stated, f->stated_time);
	hd_json_key_opt_int(j, "stated_peak_bytes", f->has_stated, f->stated_bytes);
	hd_json_key(j, "stated_peak_gap");
	if (!hd_peak_stated_differs(f)) {
		hd_json_null(j);
	} else {
		struct hd_vec gaps = HD_VEC_INIT(struct hd_peak_gap);
		int64_t by_reason[HD_GAP_REASON_COUNT];
		char lab[LABEL_MAX];

		hd_peak_explain(d, f, &gaps, by_reason);
		hd_json_begin_object(j);
		hd_json_key_int(j, "delta", hd_delta(f->peak_bytes, f->stated_bytes));
		hd_json_key(j, "by_reason");
		hd_json_begin_object(j);
		for (r = 0; r < HD_GAP_REASON_COUNT; r++)
			if (by_reason[r])
				hd_json_key_int(j, hd_peak_gap_name(r), by_reason[r]);
		hd_json_end_object(j);
		hd_json_key(j, "values");
		hd_json_begin_array(j);
		for (i = 0; i < gaps.len && i < GAPS_SHOWN; i++) {
			const struct hd_peak_gap *g = &HD_VEC_AT(&gaps, struct hd_peak_gap, i);

			gap_label(lab, sizeof(lab), d, g);
			hd_json_begin_object(j);
			hd_json_key_str(j, "value", lab);
			hd_json_key_int(j, "held", g->held);
			hd_json_key_int(j, "stated", g->stated);
			hd_json_key_str(j, "reason", hd_peak_gap_name(g->reason));
			hd_json_end_object(j);
		}
		hd_json_end_array(j);
		hd_json_key_int(j, "values_total", (int64_t)gaps.len);
		hd_json_end_object(j);
		hd_vec_release(&gaps);
	}
}

static void json_figures(struct hd_json *j, const struct hd_dump *d,
			 const struct hd_figures *f)
{
	char key[32];
	size_t i;
	int k;

	/* an incomplete dump's allocation figures are partial: null */
	int whole = !f->allocs_partial;

	hd_json_key_opt_int(j, "total_bytes", f->has_total, f->total_bytes);
	hd_json_key_opt_int(j, "alloc_bytes", whole, f->alloc_bytes);
	hd_json_key_opt_int(j, "allocations", whole, (int64_t)f->n_allocs);
	hd_json_key_opt_int(j, "values", whole, (int64_t)f->n_values);
	hd_json_key_int(j, "records", (int64_t)f->n_records);
	hd_json_key_int(j, "live_ranges", (int64_t)f->n_live_ranges);
	hd_json_key(j, "bytes_by_color");
	if (whole) {
		hd_json_begin_object(j);
		for (i = 0; i < f->by_color.len; i++) {
			const struct hd_color_bytes *c = &HD_VEC_AT(&f->by_color, struct hd_color_bytes, i);
			snprintf(key, sizeof(key), "%" PRId64, c->color);
			hd_json_key_int(j, key, c->bytes);
		}
		hd_json_end_object(j);
		hd_json_key(j, "bytes_by_kind");
		hd_json_begin_object(j);
		for (k = 0; k < HD_KIND_COUNT; k++)
			hd_json_key_int(j, hd_alloc_kind_name((enum hd_alloc_kind)k), f->by_kind[k]);
		hd_json_end_object(j);
	} else {
		hd_json_null(j);
		hd_json_key(j, "bytes_by_kind");
		hd_json_null(j);
	}
	json_peak_figures(j, d, f);
	hd_json_key_opt_int(j, "live_max", d->live_max >= 0, d->live_max);
	hd_json_key(j, "recomputed_peak");
	if (f->has_recomputed) {
		hd_json_begin_object(j);
		hd_json_key_int(j, "time", f->recomputed_time);
		hd_json_key_int(j, "bytes", f->recomputed_bytes);
		hd_json_key_opt_int(j, "bytes_at_stated_time", f->has_stated, f->recomputed_at_stated);
		hd_json_key(j, "agrees");
		hd_json_bool(j, f->stated_agrees);
		hd_json_end_object(j);
	} else {
		hd_json_null(j);
	}
	hd_json_key(j, "prefetches");
	if (f->copies_partial)
		hd_json_null(j);	/* incomplete dump: not all known */
	else
		json_prefetch_names(j, f);
	json_copies(j, f);
	json_aliases(j, d, f);
}

/* "platform" (or null) and "space_names": the name of each memory space
 * of bytes_by_color that has one on it. */
static void json_spaces(struct hd_json *j, const struct hd_dump *d,
			const struct hd_figures *f)
{
	enum hd_platform pf = hd_rc_platform(d);
	const char *pn = hd_rc_platform_name(pf);
	char key[32];
	size_t i;

	hd_json_key_str(j, "platform", pn);
	hd_json_key(j, "space_names");
	hd_json_begin_object(j);
	for (i = 0; i < f->by_color.len; i++) {
		const struct hd_color_bytes *c = &HD_VEC_AT(&f->by_color, struct hd_color_bytes, i);
		const char *name = hd_rc_space_name(pf, c->color);

		if (!name)
			continue;
		snprintf(key, sizeof(key), "%" PRId64, c->color);
		hd_json_key_str(j, key, name);
	}
	hd_json_end_object(j);
}

/* The members of one dump, in stat and in each side of a diff; its
 * sections only in stat. */
static void json_dump(struct hd_json *j, const struct hd_dump *d,
		      const struct hd_figures *f, int sections)
{
	char secs[256];

	hd_json_key_str(j, "file", d->name);
	if (sections)
		hd_json_key_str(j, "sections", section_names(d, secs, sizeof(secs)));
	json_figures(j, d, f);
	hd_json_key_int(j, "unknown_lines", (int64_t)d->n_unknown);
	json_incomplete(j, d);
	json_spaces(j, d, f);
}

void hd_report_stat_json(FILE *out, const struct hd_dump *d,
			 const struct hd_figures *f,
			 const struct hd_report_opts *opts)
{
	struct hd_json j;

	hd_json_init(&j, out);
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "schema", JSON_SCHEMA);
	json_dump(&j, d, f, 1);
	if (opts && opts->breakdown) {
		hd_json_key(&j, "breakdown");
		hd_breakdown_report_json(&j, opts->breakdown);
	}
	hd_json_end_object(&j);
	hd_json_finish(&j);
}

/* ---- diff, text ------------------------------------------------------ */

static void diff_text_rows(FILE *out, const struct hd_diff *df, int c)
{
	char legend[256];
	size_t i;

	hd_print_line(out, "%-26s %15s %15s %15s %8s", "figure", "old", "new", "delta", "%");
	for (i = 0; i < df->rows.len; i++) {
		const struct hd_figure_row *r = &HD_VEC_AT(&df->rows, struct hd_figure_row, i);
		char o[32], nw[32], d[32], p[32], h[2 * HD_HUMAN_MAX + 8] = "", dc[48], pc[48];
		hd_rc_int_cell(o, sizeof(o), r->has_old, r->old_v);
		hd_rc_int_cell(nw, sizeof(nw), r->has_new, r->new_v);
		if (r->has_old && r->has_new) {
			hd_signed(d, sizeof(d), hd_delta(r->old_v, r->new_v));
			hd_percent(p, sizeof(p), r->old_v, r->new_v);
			if (hd_rc_row_is_time(r))
				p[0] = '\0';	/* a program position */
		} else {
			snprintf(d, sizeof(d), "-");
			p[0] = '\0';
		}
		/* bytes of a changed figure also in XLA's human form */
		if (r->is_bytes && r->has_old && r->has_new && r->old_v != r->new_v) {
			char ho[HD_HUMAN_MAX], hn[HD_HUMAN_MAX];
			snprintf(h, sizeof(h), "%s -> %s",
				 hd_human_bytes(ho, sizeof(ho), r->old_v),
				 hd_human_bytes(hn, sizeof(hn), r->new_v));
		}
		hd_print_line(out, "%-26s %15s %15s %s %s  %s", r->name, o, nw,
			      hd_rc_cell(dc, sizeof(dc), c, hd_rc_sign_pen(d), 15, d),
			      hd_rc_cell(pc, sizeof(pc), c, hd_rc_sign_pen(p), 8, p), h);
	}
	if (hd_rc_spaces_legend(legend, sizeof(legend), df))
		fprintf(out, "%s\n", legend);
}

/* "OLD -> NEW" in human units, "-" for a side without the value. */
static void human_pair(char *buf, size_t n, int64_t o, int64_t w)
{
	char ho[HD_HUMAN_MAX] = "-", hn[HD_HUMAN_MAX] = "-";

	if (o >= 0)
		hd_human_bytes(ho, sizeof(ho), o);
	if (w >= 0)
		hd_human_bytes(hn, sizeof(hn), w);
	snprintf(buf, n, "%s -> %s", ho, hn);
}

/* The lines under a value's row: its shape (old -> new when it changed)
 * and where it came from (op_name shortened, source file:line). */
static void text_value_detail(FILE *out, const struct hd_diff *df,
			      uint32_t old_v, uint32_t new_v,
			      const struct hd_insn_source *where,
			      const struct hd_report_opts *opts)
{
	char shape[2 * LABEL_MAX + 8], op[LABEL_MAX], src[LABEL_MAX];

	hd_rc_shape_pair(shape, sizeof(shape), df, old_v, new_v);
	hd_rc_short_op_name(op, sizeof(op), where->op_name, HD_RC_OP_WIDTH);
	hd_rc_source_text(src, sizeof(src), where, opts);
	hd_mask_text(shape);
	hd_mask_text(op);
	hd_mask_text(src);
	if (shape[0])
		fprintf(out, "           shape: %s\n", shape);
	if (op[0] || src[0])
		fprintf(out, "           %s%s%s%s%s\n", op[0] ? "op_name: " : "", op,
			op[0] && src[0] ? "; " : "", src[0] ? "source: " : "", src);
}

/* The pen of hd_rc_value_verb's word: added red, removed green, changed
 * yellow. */
static enum hd_pen verb_pen(const struct hd_value_diff *x)
{
	if (x->status == HD_STATUS_ADDED)
		return HD_PEN_RED;
	if (x->status == HD_STATUS_REMOVED)
		return HD_PEN_GREEN;
	return x->changes ? HD_PEN_YELLOW : HD_PEN_NONE;
}

static void diff_text_value(FILE *out, const struct hd_diff *df,
			    const struct hd_value_diff *x,
			    const struct hd_insn_source *where,
			    const struct hd_report_opts *opts)
{
	char label[2 * LABEL_MAX + 16], o[32], nw[32], d[32], words[96], h[80];
	char vc[32], dc[48];

	hd_rc_pair_label(label, sizeof(label), df, x->old_v, x->new_v);
	hd_rc_int_cell(o, sizeof(o), x->old_bytes >= 0, x->old_bytes);
	hd_rc_int_cell(nw, sizeof(nw), x->new_bytes >= 0, x->new_bytes);
	hd_signed(d, sizeof(d), x->delta);
	hd_rc_change_words(words, sizeof(words), x->changes);
	human_pair(h, sizeof(h), x->old_bytes, x->new_bytes);
	fprintf(out, "  %s %12s %12s %s  %-22s  %s",
		hd_rc_cell(vc, sizeof(vc), opts->color, verb_pen(x), -8, hd_rc_value_verb(x)),
		o, nw, hd_rc_cell(dc, sizeof(dc), opts->color, hd_rc_sign_pen(d), 12, d), h, label);
	if (words[0])
		fprintf(out, "  [%s]", words);
	fputc('\n', out);
	text_value_detail(out, df, x->old_v, x->new_v, where, opts);
}

static void diff_text_values(FILE *out, const struct hd_diff *df,
			     const struct hd_report_opts *opts)
{
	uint32_t shown = df->n_listed, i;
	int64_t rest = 0;
	struct hd_rc_sources src;

	if (opts->all)
		shown = (uint32_t)df->values.len;
	else if (opts->top_n > 0 && shown > (uint32_t)opts->top_n)
		shown = (uint32_t)opts->top_n;
	fprintf(out, "\nvalues: %u matched (%u changed), %u added, %u removed\n",
		df->n_matched, df->n_changed, df->n_added, df->n_removed);
	if (shown == 0)
		return;
	fprintf(out, "  sizes: size= bytes each value holds in its allocation, padding included\n");
	fprintf(out, "  %-8s %12s %12s %12s  %-22s  %s\n", "status", "old", "new", "delta",
		"old -> new", "value");
	hd_rc_sources_read(&src, df, shown);
	for (i = 0; i < shown; i++)
		diff_text_value(out, df, &HD_VEC_AT(&df->values, struct hd_value_diff, i),
				&src.of[i], opts);
	hd_rc_sources_release(&src);
	if (!opts->all && shown < df->n_listed) {
		char d[32], dc[48], h[HD_HUMAN_MAX + 1];
		for (i = shown; i < df->n_listed; i++)
			rest = hd_sat_add(rest, HD_VEC_AT(&df->values, struct hd_value_diff, i).delta);
		h[0] = rest > 0 ? '+' : '\0';
		hd_human_bytes(h + (rest > 0), sizeof(h) - 1, rest);
		hd_signed(d, sizeof(d), rest);
		fprintf(out, "  %-8s %12s %12s %s  %-22s  in %u other value%s (sum of value sizes)\n",
			"...", "", "", hd_rc_cell(dc, sizeof(dc), opts->color, hd_rc_sign_pen(d), 12, d),
			h, df->n_listed - shown,
			df->n_listed - shown == 1 ? "" : "s");
	}
}

static void peak_side_text(char *buf, size_t n, const struct hd_peak_side *s)
{
	char h[HD_HUMAN_MAX];

	if (!s->has) {
		snprintf(buf, n, "none");
		return;
	}
	snprintf(buf, n, "%" PRId64 " bytes (%s) held at %" PRId64 " of %" PRId64 "%s%.*s%s",
		 s->bytes, hd_human_bytes(h, sizeof(h), s->bytes), s->time, s->max,
		 s->at.n ? " (" : "", (int)s->at.n,
		 s->at.p ? s->at.p : "", s->at.n ? ")" : "");
}

/* A side's stated peak, and why it differs from the held one. */
static void diff_text_stated(FILE *out, const char *which,
			     const struct hd_dump *d, const struct hd_figures *f)
{
	if (!f->has_peak && f->peak_why)
		fprintf(out, "      %s: no peak_bytes: %s\n", which, f->peak_why);
	if (!f->has_stated || !hd_peak_stated_differs(f))
		return;
	fprintf(out, "      %s stated %" PRId64 " bytes at %" PRId64 "\n", which,
		f->stated_bytes, f->stated_time);
	text_peak_gap(out, "        ", d, f);
}

static void diff_text_peak(FILE *out, const struct hd_diff *df,
			   const struct hd_report_opts *opts)
{
	const struct hd_peak_diff *p = &df->peak;
	char a[LABEL_MAX], b[LABEL_MAX], d[32], pc[32];
	uint32_t i, shown = 0, limit = opts->top_n > 0 ? (uint32_t)opts->top_n : UINT32_MAX;
	int64_t rest = 0;
	uint32_t rest_n = 0;

	peak_side_text(a, sizeof(a), &p->old_side);
	peak_side_text(b, sizeof(b), &p->new_side);
	fprintf(out, "\npeak: old %s\n      new %s\n", a, b);
	diff_text_stated(out, "old", df->old, &df->fold);
	diff_text_stated(out, "new", df->new_dump, &df->fnew);
	if (!p->old_side.has || !p->new_side.has)
		return;
	fprintf(out, "      change %s (%s); %u value%s live at both, %u entered, %u left\n",
		hd_signed(d, sizeof(d), hd_delta(p->old_side.bytes, p->new_side.bytes)),
		hd_percent(pc, sizeof(pc), p->old_side.bytes, p->new_side.bytes),
		p->n_both, p->n_both == 1 ? "" : "s", p->n_entered, p->n_left);
	for (i = 0; i < p->values.len; i++) {
		const struct hd_peak_value *e = &HD_VEC_AT(&p->values, struct hd_peak_value, i);
		char lab[2 * LABEL_MAX + 16], o[32], nw[32], h[80];

		if (e->delta == 0 && !opts->all)
			continue;
		if (shown == limit && !opts->all) {
			rest = hd_sat_add(rest, e->delta);
			rest_n++;
			continue;
		}
		if (shown++ == 0) {
			fprintf(out, "  sizes: bytes each value holds at the peak\n");
			fprintf(out, "  %-8s %12s %12s %12s  %-22s  %s\n", "role", "old", "new",
				"delta", "old -> new", "value");
		}
		hd_rc_pair_label(lab, sizeof(lab), df, e->old_v, e->new_v);
		snprintf(o, sizeof(o), "%" PRId64, e->old_bytes);
		snprintf(nw, sizeof(nw), "%" PRId64, e->new_bytes);
		human_pair(h, sizeof(h), e->old_bytes, e->new_bytes);
		fprintf(out, "  %-8s %12s %12s %12s  %-22s  %s\n",
			hd_peak_role_name((enum hd_peak_role)e->role), o, nw,
			hd_signed(d, sizeof(d), e->delta), h, lab);
	}
	if (rest_n) {
		char hr[HD_HUMAN_MAX];

		hd_human_bytes(hr, sizeof(hr), rest);
		fprintf(out, "  %-8s %12s %12s %12s  %-22s  in %u other value%s (sum of value sizes)\n",
			"...", "", "", hd_signed(d, sizeof(d), rest), hr, rest_n,
			rest_n == 1 ? "" : "s");
	}
}

/* The scaling summary (diff.h), when many values changed size. */
static void diff_text_scaling(FILE *out, const struct hd_diff *df)
{
	struct hd_scaling sc;
	char r[32], d[40], buf[640];
	uint32_t i;

	hd_diff_scaling(df, &sc);
	if (sc.shown) {
		fprintf(out, "\nscaling: %" PRIu32 " of %" PRIu32
			" matched values changed size\n", sc.n_resized,
			sc.n_matched);
		for (i = 0; i < sc.n_groups; i++) {
			const struct hd_scale_group *g = &sc.groups[i];
			int64_t delta = hd_rc_scale_group(r, sizeof(r), d, sizeof(d), g);

			fprintf(out, "  %s: %" PRIu32 " value%s%s%s\n", r, g->n,
				g->n == 1 ? "" : "s", delta ? "  " : "",
				delta ? d : "");
		}
		for (i = 0; i < sc.n_others && i < HD_SCALING_OTHERS_SHOWN; i++) {
			hd_rc_scaling_other(buf, sizeof(buf), df, sc.others[i]);
			fprintf(out, "  other: %s\n", buf);
		}
		if (sc.n_others > HD_SCALING_OTHERS_SHOWN)
			fprintf(out, "  ... %" PRIu32 " others\n",
				sc.n_others - HD_SCALING_OTHERS_SHOWN);
	}
	hd_scaling_release(&sc);
}

void hd_report_diff_text(FILE *out, const struct hd_diff *df,
			 const struct hd_report_opts *opts)
{
	const char *bold = hd_rc_ink(opts->color, HD_PEN_BOLD);
	const char *end = hd_rc_ink_end(opts->color, HD_PEN_BOLD);
	char pre[2][16], note[16], note_end[8];

	snprintf(pre[0], sizeof(pre[0]), "%s--- ", bold);
	snprintf(pre[1], sizeof(pre[1]), "%s+++ ", bold);
	snprintf(note, sizeof(note), "%snote: ", hd_rc_ink(opts->color, HD_PEN_DIM));
	snprintf(note_end, sizeof(note_end), "%s\n", hd_rc_ink_end(opts->color, HD_PEN_DIM));
	fprintf(out, "%s%s%s\n%s%s%s\n", pre[0], df->old->name, end, pre[1],
		df->new_dump->name, end);
	text_incomplete(out, pre[0], end, df->old);
	text_incomplete(out, pre[1], end, df->new_dump);
	hd_rc_put_notes(out, df, note, note_end);
	diff_text_rows(out, df, opts->color);
	diff_text_values(out, df, opts);
	diff_text_scaling(out, df);
	diff_text_peak(out, df, opts);
	if (opts->verdicts) {
		fputc('\n', out);
		hd_verdicts_report_text(out, opts->verdicts, opts->color);
	}
}

/* ---- diff, JSON ------------------------------------------------------ */

/* A value's label (hd_value_label: its name and index), written from
 * the value's own text, not copied to a buffer first. */
static void json_value_label(struct hd_json *j, const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val;

	if (v == HD_NONE) {
		hd_json_null(j);
		return;
	}
	val = &HD_VALUE(d, v);
	hd_json_slice_cat(j, val->name, hd_value_index(val));
}

/* "old" and "new": the labels of a pair of values. */
static void json_pair_labels(struct hd_json *j, const struct hd_diff *df,
			     uint32_t old_v, uint32_t new_v)
{
	hd_json_key(j, "old");
	json_value_label(j, df->old, old_v);
	hd_json_key(j, "new");
	json_value_label(j, df->new_dump, new_v);
}

/*
 * The values listed are in the order of their change, scattered over
 * both dumps: each label read a value record and then its name, one
 * cache miss after another.  Entries LABELS_AHEAD on have their records
 * loaded, and half as far on (records in cache by then) their names.
 * Always inlined: GCC drops the call of a function whose only effect is
 * a prefetch.
 */
#define LABELS_AHEAD 16

static inline __attribute__((always_inline)) void
fetch_label(const struct hd_dump *d, uint32_t i, int names)
{
	const struct hd_value *v = &HD_VALUE(d, i);

	if (names) {
		__builtin_prefetch(v->name.p);
	} else {
		/* the name (the index's length is in the same line when
		 * the array is 64-byte aligned, as a big one is) */
		__builtin_prefetch(&v->name);
	}
}

static inline __attribute__((always_inline)) void
fetch_pair(const struct hd_diff *df, uint32_t old_v, uint32_t new_v, int names)
{
	if (old_v != HD_NONE)
		fetch_label(df->old, old_v, names);
	if (new_v != HD_NONE)
		fetch_label(df->new_dump, new_v, names);
}

static inline __attribute__((always_inline)) void
fetch_labels(const struct hd_diff *df, uint32_t k, int names)
{
	const struct hd_value_diff *x =
		&HD_VEC_AT(&df->values, struct hd_value_diff, k);

	fetch_pair(df, x->old_v, x->new_v, names);
}

/* fetch_labels for the peak's entry k (as scattered) */
static inline __attribute__((always_inline)) void
fetch_peak_labels(const struct hd_diff *df, size_t k, int names)
{
	const struct hd_peak_value *e =
		&HD_VEC_AT(&df->peak.values, struct hd_peak_value, k);

	fetch_pair(df, e->old_v, e->new_v, names);
}

/* Both shapes (with layout) and where the value came from, the dump's
 * op_name and source path unshortened: read by programs. */
static void json_value_where(struct hd_json *j, const struct hd_diff *df,
			     uint32_t old_v, uint32_t new_v,
			     const struct hd_insn_source *src)
{
	hd_json_key_slice(j, "old_shape", old_v != HD_NONE ?
			  hd_value_shape(df->old, old_v) : HD_SLICE_NULL);
	hd_json_key_slice(j, "new_shape", new_v != HD_NONE ?
			  hd_value_shape(df->new_dump, new_v) : HD_SLICE_NULL);
	hd_json_key_slice(j, "op_name", src->op_name);
	hd_json_key_slice(j, "source_file", src->source_file);
	hd_json_key_opt_int(j, "source_line",
			    src->source_file.n && src->source_line >= 0,
			    src->source_line);
}

static void json_value_diff(struct hd_json *j, const struct hd_diff *df,
			    const struct hd_value_diff *x,
			    const struct hd_insn_source *src)
{
	char words[96];

	hd_json_begin_object(j);
	hd_json_key_str(j, "status", hd_status_name((enum hd_value_status)x->status));
	json_pair_labels(j, df, x->old_v, x->new_v);
	hd_json_key_str(j, "how", x->status == HD_STATUS_MATCHED ?
			hd_match_how_name((enum hd_match_how)x->how) : NULL);
	hd_json_key_opt_int(j, "old_bytes", x->old_bytes >= 0, x->old_bytes);
	hd_json_key_opt_int(j, "new_bytes", x->new_bytes >= 0, x->new_bytes);
	hd_json_key_int(j, "delta", x->delta);
	hd_rc_change_words(words, sizeof(words), x->changes);
	hd_json_key_str(j, "changes", words);
	json_value_where(j, df, x->old_v, x->new_v, src);
	hd_json_end_object(j);
}

static void json_side(struct hd_json *j, const char *key, const struct hd_dump *d,
		      const struct hd_figures *f)
{
	hd_json_key(j, key);
	hd_json_begin_object(j);
	json_dump(j, d, f, 0);
	hd_json_end_object(j);
}

static void json_peak_side(struct hd_json *j, const char *key,
			   const struct hd_peak_side *s)
{
	hd_json_key(j, key);
	if (!s->has) {
		hd_json_null(j);
		return;
	}
	hd_json_begin_object(j);
	hd_json_key_int(j, "time", s->time);
	hd_json_key_int(j, "bytes", s->bytes);
	hd_json_key_int(j, "max", s->max);
	hd_json_key_slice(j, "at", s->at);
	hd_json_key(j, "stated");
	hd_json_bool(j, 0);     /* the held peak (docs/json.md) */
	hd_json_end_object(j);
}

static void json_peak(struct hd_json *j, const struct hd_diff *df)
{
	const struct hd_peak_diff *p = &df->peak;
	size_t i;

	hd_json_key(j, "peak");
	hd_json_begin_object(j);
	json_peak_side(j, "old", &p->old_side);
	json_peak_side(j, "new", &p->new_side);
	hd_json_key_int(j, "both", p->n_both);
	hd_json_key_int(j, "entered", p->n_entered);
	hd_json_key_int(j, "left", p->n_left);
	hd_json_key(j, "values");
	hd_json_begin_array(j);
	j->compact_depth = 4;
	for (i = 0; i < p->values.len; i++) {
		const struct hd_peak_value *e = &HD_VEC_AT(&p->values, struct hd_peak_value, i);

		if (i + LABELS_AHEAD < p->values.len)
			fetch_peak_labels(df, i + LABELS_AHEAD, 0);
		if (i + LABELS_AHEAD / 2 < p->values.len)
			fetch_peak_labels(df, i + LABELS_AHEAD / 2, 1);
		hd_json_begin_object(j);
		hd_json_key_str(j, "role", hd_peak_role_name((enum hd_peak_role)e->role));
		json_pair_labels(j, df, e->old_v, e->new_v);
		hd_json_key_int(j, "old_bytes", e->old_bytes);
		hd_json_key_int(j, "new_bytes", e->new_bytes);
		hd_json_key_int(j, "delta", e->delta);
		hd_json_end_object(j);
	}
	j->compact_depth = 0;
	hd_json_end_array(j);
	hd_json_end_object(j);
}

/* "programs", when the dumps look like other programs or modules
 * (docs/json.md). */
static void json_programs(struct hd_json *j, const struct hd_diff *df)
{
	struct hd_programs p;
	char a[256], b[256];

	hd_diff_programs(df, &p);
	hd_rc_module_of(a, sizeof(a), df->old);
	hd_rc_module_of(b, sizeof(b), df->new_dump);
	/* the names only when both are known and differ (as the note) */
	if (!a[0] || !b[0] || strcmp(a, b) == 0)
		a[0] = b[0] = '\0';
	if (!p.different && !a[0])
		return;
	hd_json_key(j, "programs");
	hd_json_begin_object(j);
	hd_json_key(j, "different");
	hd_json_bool(j, p.different);
	hd_json_key_int(j, "matched_by_structure", p.by_structure);
	hd_json_key_int(j, "old_values", p.n_old);
	hd_json_key_int(j, "new_values", p.n_new);
	hd_json_key_str(j, "old_module", a[0] ? a : NULL);
	hd_json_key_str(j, "new_module", b[0] ? b : NULL);
	hd_json_end_object(j);
}

/* "scaling", when many values changed size (docs/json.md). */
static void json_scaling(struct hd_json *j, const struct hd_diff *df)
{
	struct hd_scaling sc;
	char r[32];
	uint32_t i;

	hd_diff_scaling(df, &sc);
	if (!sc.shown) {
		hd_scaling_release(&sc);
		return;
	}
	hd_json_key(j, "scaling");
	hd_json_begin_object(j);
	hd_json_key_int(j, "matched", sc.n_matched);
	hd_json_key_int(j, "resized", sc.n_resized);
	hd_json_key(j, "groups");
	hd_json_begin_array(j);
	for (i = 0; i < sc.n_groups; i++) {
		const struct hd_scale_group *g = &sc.groups[i];

		hd_json_begin_object(j);
		snprintf(r, sizeof(r), "%" PRIu32 ".%02" PRIu32,
			 g->ratio100 / 100, g->ratio100 % 100);
		hd_json_key(j, "ratio");
		hd_json_raw(j, r);
		hd_json_key_int(j, "values", g->n);
		hd_json_key_int(j, "delta", hd_delta(g->old_bytes, g->new_bytes));
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
	hd_json_key(j, "others");
	hd_json_begin_array(j);
	for (i = 0; i < sc.n_others; i++) {
		const struct hd_value_diff *vd = sc.others[i];
		double ratio = hd_value_diff_ratio(vd);

		hd_json_begin_object(j);
		json_pair_labels(j, df, vd->old_v, vd->new_v);
		hd_json_key(j, "ratio");
		if (ratio > 0) {
			snprintf(r, sizeof(r), "%.4f", ratio);
			hd_json_raw(j, r);
		} else {
			hd_json_null(j);
		}
		hd_json_key_int(j, "delta", vd->delta);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
	hd_json_end_object(j);
	hd_scaling_release(&sc);
}

void hd_report_diff_json(FILE *out, const struct hd_diff *df,
			 const struct hd_report_opts *opts)
{
	struct hd_json j;
	struct hd_rc_sources src;
	uint32_t i, n = opts->all ? (uint32_t)df->values.len : df->n_listed;

	hd_json_init(&j, out);
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "schema", JSON_SCHEMA);
	json_side(&j, "old", df->old, &df->fold);
	json_side(&j, "new", df->new_dump, &df->fnew);
	hd_json_key(&j, "figures");
	hd_json_begin_array(&j);
	for (i = 0; i < df->rows.len; i++) {
		const struct hd_figure_row *r = &HD_VEC_AT(&df->rows, struct hd_figure_row, i);
		char p[32];
		hd_json_begin_object(&j);
		hd_json_key_str(&j, "name", r->name);
		hd_json_key_opt_int(&j, "old", r->has_old, r->old_v);
		hd_json_key_opt_int(&j, "new", r->has_new, r->new_v);
		hd_json_key_opt_int(&j, "delta", r->has_old && r->has_new, hd_delta(r->old_v, r->new_v));
		hd_json_key(&j, "percent");
		if (r->has_old && r->has_new && r->old_v != 0 && !hd_rc_row_is_time(r)) {
			hd_percent(p, sizeof(p), r->old_v, r->new_v);
			p[strlen(p) - 1] = '\0';
			hd_json_raw(&j, p[0] == '+' ? p + 1 : p);
		} else {
			hd_json_null(&j);
		}
		hd_json_end_object(&j);
	}
	hd_json_end_array(&j);
	hd_json_key(&j, "summary");
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "matched", df->n_matched);
	hd_json_key_int(&j, "changed", df->n_changed);
	hd_json_key_int(&j, "added", df->n_added);
	hd_json_key_int(&j, "removed", df->n_removed);
	hd_json_end_object(&j);
	json_programs(&j, df);
	hd_json_key(&j, "values");
	hd_json_begin_array(&j);
	j.compact_depth = 3;
	hd_rc_sources_read(&src, df, n);
	for (i = 0; i < n; i++) {
		if (i + LABELS_AHEAD < n)
			fetch_labels(df, i + LABELS_AHEAD, 0);
		if (i + LABELS_AHEAD / 2 < n)
			fetch_labels(df, i + LABELS_AHEAD / 2, 1);
		json_value_diff(&j, df, &HD_VEC_AT(&df->values, struct hd_value_diff, i),
				&src.of[i]);
	}
	hd_rc_sources_release(&src);
	j.compact_depth = 0;
	hd_json_end_array(&j);
	json_scaling(&j, df);
	json_peak(&j, df);
	if (opts->verdicts) {
		hd_json_key(&j, "rules");
		hd_verdicts_report_json(&j, opts->verdicts);
	}
	if (opts->breakdown) {
		hd_json_key(&j, "breakdown");
		hd_breakdown_report_json(&j, opts->breakdown);
	}
	hd_json_end_object(&j);
	hd_json_finish(&j);
}
