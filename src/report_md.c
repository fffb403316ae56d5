/*
 * report_md.c - the Markdown report of a diff: a PR comment or a page
 * of $GITHUB_STEP_SUMMARY (GitHub-flavoured Markdown).
 *
 * Layout: a heading, one verdict line, the figures that changed, the
 * violated rules with what accounts for them, the peak explained with
 * its values in a <details> section, the top movers in another, and the
 * breakdown (breakdown.h) when one was asked for.  Names are written as
 * code spans; in table cells '|' is escaped, as GFM needs.
 */
#include "hlodiff/report.h"

#include <inttypes.h>
#include <string.h>

#include "hlodiff/format.h"
#include "hlodiff/verdict.h"
#include "report_common.h"

#define LABEL_MAX 1100
#define NUM_MAX 48

/*
 * Writes s[0..n) as a code span: backticks become ', line ends spaces,
 * and in a table cell (cell != 0) '|' becomes "\|".
 */
static void md_code(FILE *out, const char *s, size_t n, int cell)
{
	size_t i;

	fputc('`', out);
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '`')
			c = '\'';
		else if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c == '|' && cell)
			fputc('\\', out);
		fputc(c, out);
	}
	if (n == 0)
		fputc(' ', out);
	fputc('`', out);
}

static void md_code_str(FILE *out, const char *s, int cell)
{
	md_code(out, s, strlen(s), cell);
}

static void heading_start(FILE *out, int level)
{
	int i;

	for (i = 0; i < level && i < 6; i++)
		fputc('#', out);
	fputc(' ', out);
}

static int level_of(const struct hd_report_opts *o)
{
	return o->md_level > 0 ? o->md_level : 2;
}

/* The verdict line: rule counts and the two files. */
static void verdict_line(FILE *out, const struct hd_diff *df,
			 const struct hd_report_opts *o)
{
	const struct hd_verdicts *v = o->verdicts;

	if (!v) {
		fputs("No rules checked", out);
	} else {
		/* with werror a violated warning rule counts as an error */
		uint32_t errors = v->n_error + (o->werror ? v->n_warn : 0);
		uint32_t warnings = o->werror ? 0 : v->n_warn;

		if (errors)
			fprintf(out, ":x: **%" PRIu32 " rule%s failed**", errors,
				errors == 1 ? "" : "s");
		else if (warnings)
			fprintf(out, ":warning: **%" PRIu32 " warning%s**", warnings,
				warnings == 1 ? "" : "s");
		else
			fputs(":white_check_mark: **no rule violated**", out);
		if (errors && warnings)
			fprintf(out, ", %" PRIu32 " warning%s", warnings,
				warnings == 1 ? "" : "s");
		fprintf(out, " (%" PRIu32 " passed", v->n_pass);
		if (v->n_na)
			fprintf(out, ", %" PRIu32 " not applicable", v->n_na);
		fputs(")", out);
	}
	fputs(": ", out);
	md_code_str(out, df->old->name, 0);
	fputs(" → ", out);
	md_code_str(out, df->new_dump->name, 0);
	fputs("\n\n", out);
}

static void cell_num(FILE *out, int has, int64_t v)
{
	if (has)
		fprintf(out, " %" PRId64 " |", v);
	else
		fputs(" - |", out);
}

/* A bytes cell: "16384 (16.0KiB)", "-" when unknown. */
static void cell_bytes(FILE *out, int has, int64_t v)
{
	char b[NUM_MAX + HD_HUMAN_MAX];

	if (!has) {
		fputs(" - |", out);
		return;
	}
	hd_rc_bytes_h(b, sizeof(b), v, 0);
	fprintf(out, " %s |", b);
}

/* The figure rows that changed (total and peak always). */
static void figures_table(FILE *out, const struct hd_diff *df)
{
	char legend[256];
	size_t i, same = 0;

	fputs("| figure | old | new | delta | % |\n|:---|---:|---:|---:|---:|\n", out);
	for (i = 0; i < df->rows.len; i++) {
		const struct hd_figure_row *r = &HD_VEC_AT(&df->rows, struct hd_figure_row, i);
		int both = r->has_old && r->has_new;
		char p[NUM_MAX];

		if (both && r->old_v == r->new_v && strcmp(r->name, "total_bytes") != 0 &&
		    strcmp(r->name, "peak_bytes") != 0) {
			same++;
			continue;
		}
		fprintf(out, "| %s |", r->name);
		if (r->is_bytes) {
			cell_bytes(out, r->has_old, r->old_v);
			cell_bytes(out, r->has_new, r->new_v);
		} else {
			cell_num(out, r->has_old, r->old_v);
			cell_num(out, r->has_new, r->new_v);
		}
		if (both) {
			char dh[NUM_MAX + HD_HUMAN_MAX];

			hd_percent(p, sizeof(p), r->old_v, r->new_v);
			if (hd_rc_row_is_time(r))
				p[0] = '\0';	/* a program position */
			if (r->is_bytes)
				hd_rc_delta_h(dh, sizeof(dh), hd_delta(r->old_v, r->new_v));
			else
				hd_signed(dh, sizeof(dh), hd_delta(r->old_v, r->new_v));
			fprintf(out, " %s | %s |\n", dh, p);
		} else {
			fputs(" - | |\n", out);
		}
	}
	if (same)
		fprintf(out, "\n%zu other figure%s unchanged.\n", same, same == 1 ? "" : "s");
	if (hd_rc_spaces_legend(legend, sizeof(legend), df))
		fprintf(out, "\n%s.\n", legend);
	fputc('\n', out);
}

static void violation(FILE *out, const struct hd_verdicts *v,
		      const struct hd_verdict *vd, int werror)
{
	char buf[HD_RC_LINE], where[HD_RC_LINE];
	uint32_t i;

	hd_rc_where(where, sizeof(where), v, vd);
	fprintf(out, "- %s ", hd_rc_fails(vd, werror) ? ":x:" : ":warning:");
	md_code_str(out, vd->rule->text, 0);
	fputs(" (", out);
	md_code_str(out, where, 0);
	fputs(")", out);
	if (vd->rule->severity == HD_SEV_WARN && werror)
		fputs(" fails with `--werror`", out);
	if (vd->rule->reason) {
		fputs(" because ", out);
		md_code_str(out, vd->rule->reason, 0);
	}
	hd_rc_numbers(buf, sizeof(buf), vd);
	fputs("<br>\n  ", out);
	md_code_str(out, buf, 0);
	fputc('\n', out);
	for (i = 0; hd_rc_detail(buf, sizeof(buf), v, vd, i) == 0; i++) {
		fputs("  - ", out);
		md_code_str(out, buf, 0);
		fputc('\n', out);
	}
}

static void rules_section(FILE *out, const struct hd_report_opts *o)
{
	const struct hd_verdicts *v = o->verdicts;
	size_t i;

	if (!v || v->n_error + v->n_warn == 0)
		return;
	heading_start(out, level_of(o) + 1);
	fputs("Rules violated (", out);
	md_code_str(out, v->rules->name, 0);
	fputs(")\n\n", out);
	for (i = 0; i < v->verdicts.len; i++)
		if (HD_VERDICT(v, i).result == HD_VERDICT_VIOLATED)
			violation(out, v, &HD_VERDICT(v, i), o->werror);
	fputc('\n', out);
}

static void peak_side(FILE *out, const char *which, const struct hd_peak_side *s)
{
	char h[HD_HUMAN_MAX];

	fprintf(out, "%s ", which);
	if (!s->has) {
		fputs("none", out);
		return;
	}
	fprintf(out, "**%" PRId64 "** bytes (%s) held at %" PRId64 " of %" PRId64,
		s->bytes, hd_human_bytes(h, sizeof(h), s->bytes), s->time, s->max);
	if (s->at.n) {
		fputs(" (", out);
		md_code(out, s->at.p, s->at.n, 0);
		fputc(')', out);
	}
}

/* A side's stated peak where it differs from the held one by more than
 * 1%: by how much, and the reasons with their bytes (docs/peak.md). */
static void stated_gap(FILE *out, const char *which, const struct hd_dump *d,
		       const struct hd_figures *f)
{
	struct hd_vec gaps = HD_VEC_INIT(struct hd_peak_gap);
	int64_t by_reason[HD_GAP_REASON_COUNT];
	char dd[NUM_MAX], pc[NUM_MAX];
	const char *sep = ": ";
	int r;

	if (!f->has_peak && f->peak_why) {
		fprintf(out, "%s has no peak_bytes: %s.\n\n", which, f->peak_why);
		return;
	}
	if (!hd_peak_stated_differs(f))
		return;
	hd_peak_explain(d, f, &gaps, by_reason);
	fprintf(out, "%s stated peak (XLA's lines) %" PRId64 " at %" PRId64
		", stated - held **%s** (%s)", which, f->stated_bytes, f->stated_time,
		hd_signed(dd, sizeof(dd), hd_delta(f->peak_bytes, f->stated_bytes)),
		hd_percent(pc, sizeof(pc), f->peak_bytes, f->stated_bytes));
	for (r = 0; r < HD_GAP_REASON_COUNT; r++)
		if (by_reason[r]) {
			fprintf(out, "%s%s %s", sep, hd_peak_gap_name(r),
				hd_signed(dd, sizeof(dd), by_reason[r]));
			sep = ", ";
		}
	fputs(" (`hlodiff stat` names the values).\n\n", out);
	hd_vec_release(&gaps);
}

static void peak_values(FILE *out, const struct hd_diff *df,
			const struct hd_report_opts *o)
{
	const struct hd_peak_diff *p = &df->peak;
	uint32_t i, shown = 0, limit = o->top_n > 0 ? (uint32_t)o->top_n : UINT32_MAX;

	for (i = 0; i < p->values.len; i++)
		if (HD_VEC_AT(&p->values, struct hd_peak_value, i).delta != 0 || o->all)
			shown++;
	if (!shown)
		return;
	fprintf(out, "<details>\n<summary>Values at the peak that changed (%" PRIu32
		"; bytes each holds at the peak)</summary>\n\n| role | value | old | new | delta |\n"
		"|:---|:---|---:|---:|---:|\n", shown);
	shown = 0;
	for (i = 0; i < p->values.len && shown < limit; i++) {
		const struct hd_peak_value *e = &HD_VEC_AT(&p->values, struct hd_peak_value, i);
		char lab[LABEL_MAX], ob[NUM_MAX + HD_HUMAN_MAX], nb[NUM_MAX + HD_HUMAN_MAX],
		     d[NUM_MAX + HD_HUMAN_MAX];

		if (e->delta == 0 && !o->all)
			continue;
		shown++;
		hd_rc_pair_label(lab, sizeof(lab), df, e->old_v, e->new_v);
		hd_rc_bytes_h(ob, sizeof(ob), e->old_bytes, 0);
		hd_rc_bytes_h(nb, sizeof(nb), e->new_bytes, 0);
		hd_rc_delta_h(d, sizeof(d), e->delta);
		fprintf(out, "| %s | ", hd_peak_role_name((enum hd_peak_role)e->role));
		md_code_str(out, lab, 1);
		fprintf(out, " | %s | %s | %s |\n", ob, nb, d);
	}
	fputs("\n</details>\n\n", out);
}

static void peak_section(FILE *out, const struct hd_diff *df,
			 const struct hd_report_opts *o)
{
	const struct hd_peak_diff *p = &df->peak;
	char d[NUM_MAX], pc[NUM_MAX];

	heading_start(out, level_of(o) + 1);
	fputs("Peak\n\n", out);
	peak_side(out, "Old", &p->old_side);
	fputs("; ", out);
	peak_side(out, "new", &p->new_side);
	if (p->old_side.has && p->new_side.has)
		fprintf(out, ": **%s** (%s); %" PRIu32 " value%s live at both, %" PRIu32
			" entered, %" PRIu32 " left",
			hd_signed(d, sizeof(d), hd_delta(p->old_side.bytes, p->new_side.bytes)),
			hd_percent(pc, sizeof(pc), p->old_side.bytes, p->new_side.bytes),
			p->n_both, p->n_both == 1 ? "" : "s", p->n_entered, p->n_left);
	fputs(".\n\n", out);
	stated_gap(out, "Old", df->old, &df->fold);
	stated_gap(out, "New", df->new_dump, &df->fnew);
	if (p->old_side.has && p->new_side.has)
		peak_values(out, df, o);
}

/* The shape cell (old -> new when it changed) and the where cell
 * (op_name shortened, source file:line) of a mover. */
static void mover_where(FILE *out, const struct hd_diff *df,
			const struct hd_value_diff *x, const struct hd_report_opts *o)
{
	char shape[2 * LABEL_MAX], op[LABEL_MAX], src[LABEL_MAX];
	struct hd_insn_source s = hd_rc_diff_source(df, x->old_v, x->new_v);

	hd_rc_shape_pair(shape, sizeof(shape), df, x->old_v, x->new_v);
	hd_rc_short_op_name(op, sizeof(op), s.op_name, HD_RC_OP_WIDTH);
	hd_rc_source_text(src, sizeof(src), &s, o);
	fputc(' ', out);
	if (shape[0])
		md_code_str(out, shape, 1);
	fputs(" | ", out);
	if (op[0])
		md_code_str(out, op, 1);
	if (op[0] && src[0])
		fputs("<br>", out);
	if (src[0])
		md_code_str(out, src, 1);
	fputs(" |", out);
}

static void mover_row(FILE *out, const struct hd_diff *df,
		      const struct hd_value_diff *x, const struct hd_report_opts *o)
{
	char lab[LABEL_MAX], words[96], d[NUM_MAX + HD_HUMAN_MAX];

	hd_rc_pair_label(lab, sizeof(lab), df, x->old_v, x->new_v);
	hd_rc_change_words(words, sizeof(words), x->changes);
	fprintf(out, "| %s | ", hd_rc_value_verb(x));
	md_code_str(out, lab, 1);
	fputs(" |", out);
	cell_bytes(out, x->old_bytes >= 0, x->old_bytes);
	cell_bytes(out, x->new_bytes >= 0, x->new_bytes);
	hd_rc_delta_h(d, sizeof(d), x->delta);
	fprintf(out, " %s | %s |", d, words);
	mover_where(out, df, x, o);
	fputc('\n', out);
}

static void movers_section(FILE *out, const struct hd_diff *df,
			   const struct hd_report_opts *o)
{
	uint32_t shown = df->n_listed, i;
	int64_t rest = 0;
	char d[NUM_MAX + HD_HUMAN_MAX];

	if (o->all)
		shown = (uint32_t)df->values.len;
	else if (o->top_n > 0 && shown > (uint32_t)o->top_n)
		shown = (uint32_t)o->top_n;
	fprintf(out, "<details>\n<summary>Top movers: %" PRIu32 " values matched (%"
		PRIu32 " changed), %" PRIu32 " added, %" PRIu32 " removed</summary>\n\n",
		df->n_matched, df->n_changed, df->n_added, df->n_removed);
	if (shown == 0) {
		fputs("No value changed.\n\n</details>\n\n", out);
		return;
	}
	fputs("Sizes are `size=`: the bytes each value holds in its allocation, "
	      "padding included.\n\n", out);
	fputs("| status | value | old | new | delta | what changed | shape | op_name, source |\n"
	      "|:---|:---|---:|---:|---:|:---|:---|:---|\n", out);
	for (i = 0; i < shown; i++)
		mover_row(out, df, &HD_VEC_AT(&df->values, struct hd_value_diff, i), o);
	if (!o->all && shown < df->n_listed) {
		for (i = shown; i < df->n_listed; i++)
			rest = hd_sat_add(rest, HD_VEC_AT(&df->values, struct hd_value_diff, i).delta);
		hd_rc_delta_h(d, sizeof(d), rest);
		fprintf(out, "| … | %" PRIu32 " other value%s (sum of value sizes) | | | %s | | | |\n",
			df->n_listed - shown, df->n_listed - shown == 1 ? "" : "s", d);
	}
	fputs("\n</details>\n\n", out);
}

/* The scaling summary (diff.h), when many values changed size. */
static void scaling_section(FILE *out, const struct hd_diff *df)
{
	struct hd_scaling sc;
	char r[32], d[40], buf[640];
	uint32_t i;

	hd_diff_scaling(df, &sc);
	if (sc.shown) {
		fprintf(out, "<details>\n<summary>Scaling: %" PRIu32 " of %" PRIu32
			" matched values changed size</summary>\n\n"
			"| size ratio | values | delta |\n|:---|---:|---:|\n",
			sc.n_resized, sc.n_matched);
		for (i = 0; i < sc.n_groups; i++) {
			hd_rc_scale_group(r, sizeof(r), d, sizeof(d), &sc.groups[i]);
			fprintf(out, "| %s | %" PRIu32 " | %s |\n", r, sc.groups[i].n, d);
		}
		if (sc.n_others)
			fputs("\nOthers:\n\n", out);
		for (i = 0; i < sc.n_others && i < HD_SCALING_OTHERS_SHOWN; i++) {
			hd_rc_scaling_other(buf, sizeof(buf), df, sc.others[i]);
			fputs("- ", out);
			md_code_str(out, buf, 0);
			fputc('\n', out);
		}
		if (sc.n_others > HD_SCALING_OTHERS_SHOWN)
			fprintf(out, "- … %" PRIu32 " others\n",
				sc.n_others - HD_SCALING_OTHERS_SHOWN);
		fputs("\n</details>\n\n", out);
	}
	hd_scaling_release(&sc);
}

void hd_report_diff_markdown(FILE *out, const struct hd_diff *df,
			     const struct hd_report_opts *opts)
{
	heading_start(out, level_of(opts));
	if (level_of(opts) <= 2)
		fputs("hlodiff: ", out);
	md_code_str(out, hd_rc_label(df, opts), 0);
	fputs("\n\n", out);
	hd_rc_put_notes(out, df, "> **Note:** ", "\n\n");
	verdict_line(out, df, opts);
	figures_table(out, df);
	rules_section(out, opts);
	peak_section(out, df, opts);
	movers_section(out, df, opts);
	scaling_section(out, df);
	if (opts->breakdown) {
		hd_breakdown_report_markdown(out, opts->breakdown);
		fputc('\n', out);
	}
}
