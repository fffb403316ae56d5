/*
 * report_verdict.c - the verdicts of a rule set as text, JSON and HTML
 * (report_verdict.h; docs/rules.md).  verdict.c decides; this only
 * writes what it decided.
 */
#include "hlodiff/report_verdict.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/format.h"
#include "hlodiff/html.h"
#include "hlodiff/json.h"
#include "hlodiff/label.h"
#include "hlodiff/shape.h"
#include "report_common.h"

#define LABEL_MAX 512
#define NUM_MAX 48

static const char *result_name(int result)
{
	static const char *const names[] = { "passed", "violated",
					      "not_applicable" };

	return names[result];
}

static const char *cond_name(int cond)
{
	static const char *const names[] = { "grows_percent", "grows_by",
					     "above", "any_new", "any_lost" };

	return names[cond];
}

/* The "name{index}" of a value diff and the old one's when it was
 * renamed (else *was is NULL), whole, from hd_xmalloc: JSON has them
 * so, the text cuts them (contrib_label). */
static char *contrib_label_whole(const struct hd_diff *df,
				 const struct hd_value_diff *x, char **was)
{
	char *label = x->new_v != HD_NONE ?
		hd_value_label_dup(df->new_dump, x->new_v) :
		hd_value_label_dup(df->old, x->old_v);

	*was = NULL;
	if (x->old_v != HD_NONE && x->new_v != HD_NONE) {
		*was = hd_value_label_dup(df->old, x->old_v);
		if (strcmp(*was, label) == 0) {
			free(*was);
			*was = NULL;
		}
	}
	return label;
}

/* contrib_label_whole cut to buf and was (was "" when not renamed). */
static void contrib_label(char *buf, size_t n, const struct hd_diff *df,
			  const struct hd_value_diff *x, char *was, size_t wn)
{
	char *w, *label = contrib_label_whole(df, x, &w);

	snprintf(buf, n, "%s", label);
	snprintf(was, wn, "%s", w ? w : "");
	free(label);
	free(w);
}

struct copy_info {
	const struct hd_copy *c;
	struct hd_slice shape, op_name, source, source_op_name;
};

static void copy_info(const struct hd_dump *d, const struct hd_copy *c,
		      struct copy_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->c = c;
	if (c->insn != HD_NONE) {
		const struct hd_insn *in = &HD_INSN(d, c->insn);
		uint32_t src;

		hd_shape_tuple_element(in->shape, 0, &ci->shape);
		ci->op_name = hd_insn_source_of(d, c->insn).op_name;
		ci->source = hd_insn_first_operand(in);
		src = ci->source.n ? hd_dump_insn_by_name(d, ci->source) : HD_NONE;
		if (src != HD_NONE)
			ci->source_op_name = hd_insn_source_of(d, src).op_name;
	}
	if (!ci->shape.n && c->value != HD_NONE)
		ci->shape = hd_value_shape(d, c->value);
}

static const struct hd_copy *new_copy(const struct hd_verdicts *v, uint32_t i)
{
	uint32_t k = HD_VEC_AT(&v->new_copies, uint32_t, i);

	return &HD_VEC_AT(&v->df->fnew.copies, struct hd_copy, k);
}

/* ---- text --------------------------------------------------------------- */

static const char *sev_word(int severity)
{
	return severity == HD_SEV_ERROR ? "error" : "warning";
}

/* "N grew by +X" / "none grew" (or shrank) */
static char *moved(char *buf, size_t n, uint32_t count, int64_t bytes,
		   const char *verb)
{
	char d[NUM_MAX];

	if (count == 0)
		snprintf(buf, n, "none %s", verb);
	else
		snprintf(buf, n, "%" PRIu32 " %s by %s", count, verb,
			 hd_signed(d, sizeof(d), bytes));
	return buf;
}

static void text_contribs(FILE *out, const struct hd_verdicts *v,
			  const struct hd_verdict *vd)
{
	char label[LABEL_MAX], was[LABEL_MAX], g[NUM_MAX * 2], s[NUM_MAX * 2];
	char d[NUM_MAX], o[NUM_MAX], n[NUM_MAX];
	int ceiling = vd->rule->cond == HD_COND_ABOVE;
	uint32_t i;

	if (vd->n_contrib == 0)
		return;
	if (ceiling)
		fputs("    largest values in NEW:\n", out);
	else if (vd->rule->metric.source == HD_MSRC_VALUE_COUNT)
		fprintf(out, "    values added (%" PRIu32 " added, %" PRIu32
			" removed), largest first:\n", vd->n_grown, vd->n_shrunk);
	else
		fprintf(out, "    top values by growth (sums of value sizes: %s, %s):\n",
			moved(g, sizeof(g), vd->n_grown, vd->grown, "grew"),
			moved(s, sizeof(s), vd->n_shrunk, vd->shrunk, "shrank"));
	for (i = 0; i < vd->n_contrib; i++) {
		const struct hd_contrib *c = &HD_VEC_AT(&v->contribs, struct hd_contrib,
							vd->contrib_first + i);
		const struct hd_value_diff *x = c->vd;

		contrib_label(label, sizeof(label), v->df, x, was, sizeof(was));
		snprintf(o, sizeof(o), "%" PRId64, c->old_bytes);
		snprintf(n, sizeof(n), "%" PRId64, c->new_bytes);
		if (ceiling)
			fprintf(out, "    %12s  %s", n, label);
		else
			fprintf(out, "    %12s  %s  %s -> %s",
				hd_signed(d, sizeof(d), c->delta), label,
				x->old_v == HD_NONE ? "-" : o,
				x->new_v == HD_NONE ? "-" : n);
		if (x->status != HD_STATUS_MATCHED)
			fprintf(out, " (%s)", hd_status_name(x->status));
		if (was[0])
			fprintf(out, " (was %s)", was);
		fprintf(out, "%s\n", c->waived ? " [waived]" : "");
	}
}

static void text_copies(FILE *out, const struct hd_verdicts *v,
			const struct hd_verdict *vd)
{
	uint32_t i;

	for (i = 0; i < vd->n_new_copies; i++) {
		const struct hd_copy *c = new_copy(v, vd->copy_first + i);
		struct copy_info ci;

		char src[40], dst[40];

		copy_info(v->df->new_dump, c, &ci);
		hd_rc_space_text(src, sizeof(src), hd_rc_platform(v->df->new_dump), c->src_space);
		hd_rc_space_text(dst, sizeof(dst), hd_rc_platform(v->df->new_dump), c->dst_space);
		fprintf(out, "    new %s %.*s: %.*s, %" PRId64 " bytes, space %s -> %s",
			hd_copy_class_name(c->cls), (int)c->name.n,
			c->name.p, (int)ci.shape.n, ci.shape.p, c->bytes, src, dst);
		if (ci.op_name.n)
			fprintf(out, ", op_name \"%.*s\"", (int)ci.op_name.n,
				ci.op_name.p);
		if (ci.source.n) {
			fprintf(out, ", from %.*s", (int)ci.source.n, ci.source.p);
			if (ci.source_op_name.n)
				fprintf(out, " (op_name \"%.*s\")",
					(int)ci.source_op_name.n, ci.source_op_name.p);
		}
		fputc('\n', out);
	}
	if (vd->n_new_total > vd->n_new_copies)
		fprintf(out, "    ... and %" PRIu32 " more\n",
			vd->n_new_total - vd->n_new_copies);
}

static void text_lost(FILE *out, const struct hd_verdicts *v,
		      const struct hd_verdict *vd)
{
	char line[LABEL_MAX * 2];
	uint32_t i;

	for (i = 0; i < vd->n_lost; i++) {
		hd_lost_alias_text(line, sizeof(line), v, vd->lost_first + i);
		fprintf(out, "    %s\n", line);
	}
	if (vd->n_lost_total > vd->n_lost)
		fprintf(out, "    ... and %" PRIu32 " more\n",
			vd->n_lost_total - vd->n_lost);
}

/* "metric: old -> new (+delta, +pct%); <threshold>" */
static void text_numbers(FILE *out, const struct hd_verdict *vd)
{
	const struct hd_rule *r = vd->rule;
	char d[NUM_MAX], p[NUM_MAX], threshold[256];

	hd_percent(p, sizeof(p), vd->old_v, vd->new_v);
	fprintf(out, "    %s: %" PRId64 " -> %" PRId64 " (%s%s%s)",
		r->metric.label, vd->old_v, vd->new_v,
		hd_signed(d, sizeof(d), vd->delta), p[0] ? ", " : "", p);
	hd_rc_threshold(threshold, sizeof(threshold), vd);
	fprintf(out, "%s\n", threshold);
}

static void text_violation(FILE *out, const struct hd_verdicts *v,
			   const struct hd_verdict *vd, int c)
{
	const struct hd_rule *r = vd->rule;
	enum hd_pen pen = r->severity == HD_SEV_ERROR ? HD_PEN_RED : HD_PEN_YELLOW;

	fprintf(out, "%s  %s %s:%" PRIu32 ": %s%s\n", hd_rc_ink(c, pen), sev_word(r->severity),
		v->rules->name, r->line, r->text, hd_rc_ink_end(c, pen));
	text_numbers(out, vd);
	text_contribs(out, v, vd);
	text_copies(out, v, vd);
	text_lost(out, v, vd);
}

static void text_summary(FILE *out, const struct hd_verdicts *v, int c)
{
	enum hd_pen pen = v->n_error ? HD_PEN_RED : v->n_warn ? HD_PEN_YELLOW : HD_PEN_GREEN;

	fprintf(out, "%srules: %s", hd_rc_ink(c, pen), v->rules->name);
	if (v->module)
		fprintf(out, ", module %s", v->module);
	fprintf(out, ": %" PRIu32 " violated", v->n_error + v->n_warn);
	if (v->n_error + v->n_warn)
		fprintf(out, " (%" PRIu32 " error, %" PRIu32 " warning)",
			v->n_error, v->n_warn);
	fprintf(out, ", %" PRIu32 " passed", v->n_pass);
	if (v->n_na)
		fprintf(out, ", %" PRIu32 " not applicable", v->n_na);
	fprintf(out, "%s\n", hd_rc_ink_end(c, pen));
}

/* The line of a passed rule (green) or one not applicable (dim). */
static void text_pass(FILE *out, const struct hd_verdicts *v,
		      const struct hd_verdict *vd, int c)
{
	enum hd_pen pen = vd->result == HD_VERDICT_PASS ? HD_PEN_GREEN : HD_PEN_DIM;
	char d[NUM_MAX], parts[256];

	fprintf(out, "%s  %s %s:%" PRIu32 ": %s (", hd_rc_ink(c, pen),
		vd->result == HD_VERDICT_PASS ? "ok" : "n/a", v->rules->name,
		vd->rule->line, vd->rule->text);
	if (vd->result == HD_VERDICT_NA)
		fprintf(out, "%s", vd->na_reason);
	else if (vd->rule->cond == HD_COND_ANY_NEW)
		fputs("0 new", out);
	else if (vd->rule->cond == HD_COND_ANY_LOST)
		fprintf(out, "%" PRId64 " -> %" PRId64 " aliased, 0 lost", vd->old_v,
			vd->new_v);
	else
		fprintf(out, "%" PRId64 " -> %" PRId64 ", %s%s", vd->old_v, vd->new_v,
			hd_signed(d, sizeof(d), vd->delta),
			hd_verdict_parts_text(parts, sizeof(parts), vd));
	fprintf(out, ")%s\n", hd_rc_ink_end(c, pen));
}

void hd_verdicts_report_text(FILE *out, const struct hd_verdicts *v, int c)
{
	size_t i;

	text_summary(out, v, c);
	for (i = 0; i < v->verdicts.len; i++)
		if (HD_VERDICT(v, i).result == HD_VERDICT_VIOLATED)
			text_violation(out, v, &HD_VERDICT(v, i), c);
	for (i = 0; i < v->verdicts.len; i++)
		if (HD_VERDICT(v, i).result != HD_VERDICT_VIOLATED)
			text_pass(out, v, &HD_VERDICT(v, i), c);
	for (i = 0; i < v->waivers.len; i++) {
		const struct hd_waiver_use *u =
			&HD_VEC_AT(&v->waivers, struct hd_waiver_use, i);

		fprintf(out, "%s  waived %s:%" PRIu32 ": %s (values: %" PRIu32
			" in OLD, %" PRIu32 " in NEW; copies: %" PRIu32 " in NEW)%s\n",
			hd_rc_ink(c, HD_PEN_DIM), v->rules->name, u->waiver->line,
			u->waiver->text, u->n_old, u->n_new, u->n_copies,
			hd_rc_ink_end(c, HD_PEN_DIM));
		if (u->n_aliases)
			fprintf(out, "    and %" PRIu32 " lost alias%s of OLD\n",
				u->n_aliases, u->n_aliases == 1 ? "" : "es");
	}
}

/* ---- HTML --------------------------------------------------------------- */

/* One table row: result, where, the rule as written, old -> new. */
static void html_verdict_row(FILE *out, const struct hd_verdicts *v,
			     const struct hd_verdict *vd)
{
	const char *res = "ok", *cls = "";
	char d[NUM_MAX], parts[256];

	if (vd->result == HD_VERDICT_VIOLATED) {
		res = hd_severity_name(vd->rule->severity);
		cls = vd->rule->severity == HD_SEV_ERROR ? " class=\"bad\"" : " class=\"warn\"";
	} else if (vd->result == HD_VERDICT_NA) {
		res = "n/a";
	}
	fprintf(out, "<tr><td%s>%s</td><td>", cls, res);
	hd_html_escape(out, v->rules->name, strlen(v->rules->name));
	fprintf(out, ":%" PRIu32 "</td><td><code>", vd->rule->line);
	hd_html_escape(out, vd->rule->text, strlen(vd->rule->text));
	fputs("</code></td><td>", out);
	if (vd->rule->cond == HD_COND_ANY_NEW)
		fprintf(out, "%" PRIu32 " new", vd->n_new_total);
	else if (vd->rule->cond == HD_COND_ANY_LOST && vd->result != HD_VERDICT_NA)
		fprintf(out, "%" PRIu32 " lost", vd->n_lost_total);
	else if (vd->result == HD_VERDICT_NA)
		hd_html_escape(out, vd->na_reason, strlen(vd->na_reason));
	else
		fprintf(out, "%" PRId64 " &#8594; %" PRId64 " (%s)%s", vd->old_v,
			vd->new_v, hd_signed(d, sizeof(d), vd->delta),
			hd_verdict_parts_text(parts, sizeof(parts), vd));
	fputs("</td></tr>\n", out);
}

void hd_verdicts_report_html(FILE *out, const struct hd_verdicts *v)
{
	size_t i;

	fprintf(out, "<p>%" PRIu32 " violated (%" PRIu32 " error, %" PRIu32
		" warning), %" PRIu32 " passed, %" PRIu32 " not applicable.</p>\n",
		v->n_error + v->n_warn, v->n_error, v->n_warn, v->n_pass, v->n_na);
	fputs("<table class=\"rules\"><thead><tr><th>result</th><th>rule</th>"
	      "<th>as written</th><th>old &#8594; new</th></tr></thead><tbody>\n", out);
	for (i = 0; i < v->verdicts.len; i++)
		html_verdict_row(out, v, &HD_VERDICT(v, i));
	fputs("</tbody></table>\n", out);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_contribs(struct hd_json *j, const struct hd_verdicts *v,
			  const struct hd_verdict *vd)
{
	char *label, *was;
	uint32_t i;

	hd_json_key(j, "contributors");
	hd_json_begin_array(j);
	for (i = 0; i < vd->n_contrib; i++) {
		const struct hd_contrib *c = &HD_VEC_AT(&v->contribs, struct hd_contrib,
							vd->contrib_first + i);

		label = contrib_label_whole(v->df, c->vd, &was);
		hd_json_begin_object(j);
		hd_json_key_str(j, "value", label);
		hd_json_key_str(j, "was", was);
		free(label);
		free(was);
		hd_json_key_str(j, "status", hd_status_name(c->vd->status));
		hd_json_key_opt_int(j, "old_bytes", c->vd->old_v != HD_NONE, c->old_bytes);
		hd_json_key_opt_int(j, "new_bytes", c->vd->new_v != HD_NONE, c->new_bytes);
		hd_json_key_int(j, "delta", c->delta);
		hd_json_key(j, "waived");
		hd_json_bool(j, c->waived);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
}

static void json_copies(struct hd_json *j, const struct hd_verdicts *v,
			const struct hd_verdict *vd)
{
	uint32_t i;

	hd_json_key_int(j, "new_copies_total", vd->n_new_total);
	hd_json_key(j, "new_copies");
	hd_json_begin_array(j);
	for (i = 0; i < vd->n_new_copies; i++) {
		const struct hd_copy *c = new_copy(v, vd->copy_first + i);
		struct copy_info ci;

		copy_info(v->df->new_dump, c, &ci);
		hd_json_begin_object(j);
		hd_json_key_slice(j, "name", c->name);
		hd_json_key_str(j, "class", hd_copy_class_name(c->cls));
		hd_json_key_slice(j, "shape", ci.shape);
		hd_json_key_opt_int(j, "bytes", c->bytes >= 0, c->bytes);
		hd_json_key_opt_int(j, "src_space", c->src_space >= 0, c->src_space);
		hd_json_key_opt_int(j, "dst_space", c->dst_space >= 0, c->dst_space);
		hd_json_key_slice(j, "op_name", ci.op_name);
		hd_json_key_slice(j, "source", ci.source);
		hd_json_key_slice(j, "source_op_name", ci.source_op_name);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
}

/* "conditions": every part of an 'and' rule, the first included. */
static void json_and_parts(struct hd_json *j, const struct hd_verdict *vd)
{
	const struct hd_rule *part;
	char p[NUM_MAX];
	int64_t allowed;

	hd_json_key(j, "conditions");
	hd_json_begin_array(j);
	for (part = vd->rule; part; part = part->and_next) {
		int over = hd_cond_violated(part, vd->old_v, vd->new_v, &allowed);

		hd_json_begin_object(j);
		hd_json_key_str(j, "condition", cond_name(part->cond));
		if (part->cond == HD_COND_GROWS_PCT) {
			hd_json_key(j, "percent_limit");
			hd_json_raw(j, hd_pct_text(p, sizeof(p), part->pct));
		} else {
			hd_json_key_int(j, "amount", part->amount);
		}
		hd_json_key_opt_int(j, "allowed", vd->result != HD_VERDICT_NA, allowed);
		hd_json_key(j, "exceeded");
		if (vd->result == HD_VERDICT_NA)
			hd_json_null(j);
		else
			hd_json_bool(j, over);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
}

static void json_lost(struct hd_json *j, const struct hd_verdicts *v,
		      const struct hd_verdict *vd)
{
	const struct hd_dump *o = v->df->old, *n = v->df->new_dump;
	uint32_t i;

	hd_json_key_int(j, "lost_aliases_total", vd->n_lost_total);
	hd_json_key(j, "lost_aliases");
	hd_json_begin_array(j);
	for (i = 0; i < vd->n_lost; i++) {
		const struct hd_lost_alias *l = &HD_VEC_AT(&v->lost, struct hd_lost_alias, vd->lost_first + i);
		const struct hd_alloc *a = &HD_ALLOC(o, l->old_alloc);
		struct hd_slice name, op;

		hd_alias_names(o, l->old_alloc, &name, &op);
		hd_json_begin_object(j);
		hd_json_key_int(j, "parameter", a->param_number);
		hd_json_key_slice(j, "shape_index", a->param_index);
		hd_json_key_slice(j, "shape", a->param_shape);
		hd_json_key_int(j, "bytes", a->size);
		hd_json_key_slice(j, "name", name);
		hd_json_key_slice(j, "op_name", op);
		hd_json_key_str(j, "in_new", l->new_alloc == HD_NONE ?
				"absent" : "not_aliased");
		hd_json_key_opt_int(j, "new_bytes", l->new_alloc != HD_NONE,
				    l->new_alloc == HD_NONE ? 0 :
				    HD_ALLOC(n, l->new_alloc).size);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
}

static void json_threshold(struct hd_json *j, const struct hd_verdict *vd)
{
	const struct hd_rule *r = vd->rule;
	char p[NUM_MAX];

	if (r->cond == HD_COND_GROWS_PCT) {
		hd_json_key(j, "percent_limit");
		hd_json_raw(j, hd_pct_text(p, sizeof(p), r->pct));
	} else if (r->cond != HD_COND_ANY_NEW && r->cond != HD_COND_ANY_LOST) {
		hd_json_key_int(j, "amount", r->amount);
	}
	if (vd->result != HD_VERDICT_NA && r->cond != HD_COND_ANY_NEW &&
	    r->cond != HD_COND_ANY_LOST)
		hd_json_key_int(j, "allowed", vd->allowed);
	if (r->and_next)
		json_and_parts(j, vd);
}

static void json_verdict(struct hd_json *j, const struct hd_verdicts *v,
			 const struct hd_verdict *vd)
{
	const struct hd_rule *r = vd->rule;
	int na = vd->result == HD_VERDICT_NA;
	char p[NUM_MAX];

	hd_json_begin_object(j);
	hd_json_key_str(j, "rule", r->text);
	hd_json_key_int(j, "line", r->line);
	hd_json_key_str(j, "severity", hd_severity_name(r->severity));
	hd_json_key_str(j, "metric", r->metric.label);
	hd_json_key_str(j, "condition", cond_name(r->cond));
	json_threshold(j, vd);
	hd_json_key_str(j, "because", r->reason);
	hd_json_key_str(j, "result", result_name(vd->result));
	if (na)
		hd_json_key_str(j, "why", vd->na_reason);
	hd_json_key_opt_int(j, "old", vd->has_old, vd->old_v);
	hd_json_key_opt_int(j, "new", vd->has_new, vd->new_v);
	hd_json_key_opt_int(j, "delta", vd->has_old && vd->has_new, vd->delta);
	hd_json_key(j, "percent");
	if (vd->has_old && vd->has_new && vd->old_v > 0) {
		snprintf(p, sizeof(p), "%.2f",
			 ((double)vd->new_v - (double)vd->old_v) * 100.0 /
			 (double)vd->old_v);
		hd_json_raw(j, p);
	} else {
		hd_json_null(j);
	}
	if (vd->result == HD_VERDICT_VIOLATED &&
	    r->metric.source != HD_MSRC_COPIES &&
	    r->metric.source != HD_MSRC_ALIASES)
		json_contribs(j, v, vd);
	if (!na && r->metric.source == HD_MSRC_COPIES)
		json_copies(j, v, vd);
	if (!na && r->cond == HD_COND_ANY_LOST)
		json_lost(j, v, vd);
	hd_json_end_object(j);
}

static void json_waivers(struct hd_json *j, const struct hd_verdicts *v)
{
	size_t i;

	hd_json_key(j, "waivers");
	hd_json_begin_array(j);
	for (i = 0; i < v->waivers.len; i++) {
		const struct hd_waiver_use *u =
			&HD_VEC_AT(&v->waivers, struct hd_waiver_use, i);
		const struct hd_waiver *w = u->waiver;

		hd_json_begin_object(j);
		hd_json_key_str(j, "waiver", w->text);
		hd_json_key_int(j, "line", w->line);
		hd_json_key_str(j, "field", w->field == HD_FILTER_NAME ? "name" : "op_name");
		hd_json_key_str(j, "glob", w->glob);
		hd_json_key_str(j, "because", w->reason);
		hd_json_key_int(j, "old_values", u->n_old);
		hd_json_key_int(j, "new_values", u->n_new);
		hd_json_key_int(j, "new_copies", u->n_copies);
		hd_json_key_int(j, "lost_aliases", u->n_aliases);
		hd_json_end_object(j);
	}
	hd_json_end_array(j);
}

void hd_verdicts_report_json(struct hd_json *j, const struct hd_verdicts *v)
{
	size_t i;

	hd_json_begin_object(j);
	hd_json_key_str(j, "file", v->rules->name);
	hd_json_key_str(j, "module", v->module);
	hd_json_key_int(j, "errors", v->n_error);
	hd_json_key_int(j, "warnings", v->n_warn);
	hd_json_key_int(j, "passed", v->n_pass);
	hd_json_key_int(j, "not_applicable", v->n_na);
	hd_json_key(j, "verdicts");
	hd_json_begin_array(j);
	for (i = 0; i < v->verdicts.len; i++)
		json_verdict(j, v, &HD_VERDICT(v, i));
	hd_json_end_array(j);
	json_waivers(j, v);
	hd_json_end_object(j);
}
