/*
 * report_common.c - the words of rule verdicts for the Markdown, JUnit
 * and GitHub renderers (report_common.h).  They follow the text report
 * of verdict.c, so every format says the same thing.
 */
#include "report_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hlodiff/figures.h"
#include "hlodiff/format.h"
#include "hlodiff/shape.h"

#define NUM_MAX 48
#define LABEL_MAX 512

int hd_rc_fails(const struct hd_verdict *vd, int werror)
{
	return vd->result == HD_VERDICT_VIOLATED &&
		(vd->rule->severity == HD_SEV_ERROR || werror);
}

const char *hd_rc_outcome(const struct hd_verdict *vd, int werror)
{
	if (vd->result == HD_VERDICT_PASS)
		return "passed";
	if (vd->result == HD_VERDICT_NA)
		return "not applicable";
	return hd_rc_fails(vd, werror) ? "error" : "warning";
}

void hd_rc_numbers(char *buf, size_t n, const struct hd_verdict *vd)
{
	const struct hd_rule *r = vd->rule;
	char d[NUM_MAX], p[NUM_MAX], a[NUM_MAX];
	int len;

	if (vd->result == HD_VERDICT_NA) {
		snprintf(buf, n, "%s: not applicable (%s)", r->metric.label,
			 vd->na_reason ? vd->na_reason : "no data");
		return;
	}
	hd_percent(p, sizeof(p), vd->old_v, vd->new_v);
	len = snprintf(buf, n, "%s: %" PRId64 " -> %" PRId64 " (%s%s%s)",
		       r->metric.label, vd->old_v, vd->new_v,
		       hd_signed(d, sizeof(d), vd->delta), p[0] ? ", " : "", p);
	if (len < 0 || (size_t)len >= n)
		return;
	buf += len;
	n -= (size_t)len;
	switch (r->cond) {
	case HD_COND_GROWS_PCT:
		snprintf(buf, n, "; %s%% of %" PRId64 " allows %s",
			 hd_pct_text(p, sizeof(p), r->pct), vd->old_v,
			 hd_signed(a, sizeof(a), vd->allowed));
		break;
	case HD_COND_GROWS_BY:
		snprintf(buf, n, "; allowed %s", hd_signed(a, sizeof(a), vd->allowed));
		break;
	case HD_COND_ABOVE:
		snprintf(buf, n, "; ceiling %" PRId64, vd->allowed);
		break;
	case HD_COND_ANY_NEW:
		snprintf(buf, n, "; %" PRIu32 " new", vd->n_new_total);
		break;
	}
}

void hd_rc_where(char *buf, size_t n, const struct hd_verdicts *v,
		 const struct hd_verdict *vd)
{
	snprintf(buf, n, "%s:%" PRIu32, v->rules->name, vd->rule->line);
}

/* "+DELTA NAME OLD -> NEW (added) (was X) [waived]" of contributor i. */
static void contrib_line(char *buf, size_t n, const struct hd_verdicts *v,
			 const struct hd_verdict *vd, uint32_t i)
{
	const struct hd_contrib *c = &HD_VEC_AT(&v->contribs, struct hd_contrib,
						vd->contrib_first + i);
	const struct hd_value_diff *x = c->vd;
	const struct hd_diff *df = v->df;
	char label[LABEL_MAX], was[LABEL_MAX + 8], d[NUM_MAX], o[NUM_MAX], nw[NUM_MAX];

	was[0] = '\0';
	if (x->new_v != HD_NONE)
		hd_value_label(label, sizeof(label), df->new_dump, x->new_v);
	else
		hd_value_label(label, sizeof(label), df->old, x->old_v);
	if (x->old_v != HD_NONE && x->new_v != HD_NONE) {
		char ol[LABEL_MAX];

		hd_value_label(ol, sizeof(ol), df->old, x->old_v);
		if (strcmp(ol, label) != 0)
			snprintf(was, sizeof(was), " (was %s)", ol);
	}
	snprintf(o, sizeof(o), "%" PRId64, c->old_bytes);
	snprintf(nw, sizeof(nw), "%" PRId64, c->new_bytes);
	if (vd->rule->cond == HD_COND_ABOVE)
		snprintf(buf, n, "%s %s%s%s%s", nw, label,
			 x->status != HD_STATUS_MATCHED ? " (" : "",
			 x->status != HD_STATUS_MATCHED ?
				 hd_status_name((enum hd_value_status)x->status) : "",
			 x->status != HD_STATUS_MATCHED ? ")" : "");
	else
		snprintf(buf, n, "%s %s %s -> %s%s%s%s%s%s",
			 hd_signed(d, sizeof(d), c->delta), label,
			 x->old_v == HD_NONE ? "-" : o,
			 x->new_v == HD_NONE ? "-" : nw,
			 x->status != HD_STATUS_MATCHED ? " (" : "",
			 x->status != HD_STATUS_MATCHED ?
				 hd_status_name((enum hd_value_status)x->status) : "",
			 x->status != HD_STATUS_MATCHED ? ")" : "", was,
			 c->waived ? " [waived]" : "");
}

/* "new prefetch NAME: SHAPE, B bytes, space S -> D" of new copy i. */
static void copy_line(char *buf, size_t n, const struct hd_verdicts *v,
		      const struct hd_verdict *vd, uint32_t i)
{
	uint32_t k = HD_VEC_AT(&v->new_copies, uint32_t, vd->copy_first + i);
	const struct hd_copy *c = &HD_VEC_AT(&v->df->fnew.copies, struct hd_copy, k);
	const struct hd_dump *d = v->df->new_dump;
	struct hd_slice shape = HD_SLICE_NULL;

	if (c->insn != HD_NONE)
		hd_shape_tuple_element(HD_INSN(d, c->insn).shape, 0, &shape);
	if (!shape.n && c->value != HD_NONE)
		shape = hd_value_shape(d, c->value);
	snprintf(buf, n, "new %s %.*s: %.*s, %" PRId64 " bytes, space %" PRId64
		 " -> %" PRId64, hd_copy_class_name(c->cls), (int)c->name.n,
		 c->name.p ? c->name.p : "", (int)shape.n, shape.p ? shape.p : "",
		 c->bytes, c->src_space, c->dst_space);
}

int hd_rc_detail(char *buf, size_t n, const struct hd_verdicts *v,
		 const struct hd_verdict *vd, uint32_t i)
{
	if (vd->result != HD_VERDICT_VIOLATED)
		return -1;
	if (i < vd->n_contrib) {
		contrib_line(buf, n, v, vd, i);
		return 0;
	}
	i -= vd->n_contrib;
	if (i < vd->n_new_copies) {
		copy_line(buf, n, v, vd, i);
		return 0;
	}
	if (i == vd->n_new_copies && vd->n_new_total > vd->n_new_copies) {
		snprintf(buf, n, "... and %" PRIu32 " more",
			 vd->n_new_total - vd->n_new_copies);
		return 0;
	}
	return -1;
}

const char *hd_rc_label(const struct hd_diff *df,
			const struct hd_report_opts *opts)
{
	if (opts->label)
		return opts->label;
	if (opts->verdicts && opts->verdicts->module)
		return opts->verdicts->module;
	return df->new_dump->name;
}

void hd_rc_counts(const struct hd_verdicts *v, int werror, uint32_t *errors,
		  uint32_t *warnings)
{
	*errors = v->n_error + (werror ? v->n_warn : 0);
	*warnings = werror ? 0 : v->n_warn;
}

/* Appends s[0, len) to buf at *o (n bytes in all), as much as fits
 * before the NUL that always ends it. */
static void append_word(char *buf, size_t n, size_t *o, const char *s,
			size_t len)
{
	size_t room = n - 1 - *o;

	if (len > room)
		len = room;
	memcpy(buf + *o, s, len);
	*o += len;
	buf[*o] = '\0';
}

void hd_rc_change_words(char *buf, size_t n, uint32_t c)
{
	static const struct { uint32_t bit; const char *word; } words[] = {
		{ HD_CHANGE_SIZE, "size" }, { HD_CHANGE_SHAPE, "shape" },
		{ HD_CHANGE_LAYOUT, "layout" }, { HD_CHANGE_SPACE, "space" },
		{ HD_CHANGE_KIND, "kind" }, { HD_CHANGE_LIVE, "live-range" },
	};
	size_t i, o = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	/* a call per value listed: words copied, not printed (snprintf
	 * was most of the cost of a --json line) */
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (c & words[i].bit) {
			if (o)
				append_word(buf, n, &o, ",", 1);
			append_word(buf, n, &o, words[i].word,
				    strlen(words[i].word));
		}
}

const char *hd_rc_value_verb(const struct hd_value_diff *x)
{
	if (x->status == HD_STATUS_ADDED)
		return "added";
	if (x->status == HD_STATUS_REMOVED)
		return "removed";
	return x->changes ? "changed" : "same";
}

void hd_rc_pair_label(char *buf, size_t n, const struct hd_diff *df,
		      uint32_t old_v, uint32_t new_v)
{
	char ol[LABEL_MAX];
	size_t len;

	if (new_v == HD_NONE) {
		hd_value_label(buf, n, df->old, old_v);
		return;
	}
	hd_value_label(buf, n, df->new_dump, new_v);
	if (old_v == HD_NONE)
		return;
	hd_value_label(ol, sizeof(ol), df->old, old_v);
	len = strlen(buf);
	if (strcmp(ol, buf) != 0 && len < n)
		snprintf(buf + len, n - len, " (was %s)", ol);
}

/* ---- changes of shape, other programs ---------------------------------- */

void hd_rc_ratio(char *buf, size_t n, uint32_t ratio100)
{
	snprintf(buf, n, "x%" PRIu32 ".%02" PRIu32, ratio100 / 100,
		 ratio100 % 100);
}

void hd_rc_signed_bytes(char *buf, size_t n, int64_t delta)
{
	char h[32];

	if (delta == 0) {
		snprintf(buf, n, "0");
		return;
	}
	hd_human_bytes(h, sizeof(h), delta == INT64_MIN ? INT64_MAX :
				     delta < 0 ? -delta : delta);
	snprintf(buf, n, "%c%s", delta < 0 ? '-' : '+', h);
}

void hd_rc_scaling_other(char *buf, size_t n, const struct hd_diff *df,
			 const struct hd_value_diff *vd)
{
	char label[512], d[40];
	double r = hd_value_diff_ratio(vd);

	hd_rc_pair_label(label, sizeof(label), df, vd->old_v, vd->new_v);
	hd_rc_signed_bytes(d, sizeof(d), vd->delta);
	if (r > 0)
		snprintf(buf, n, "%s x%.2f %s", label, r, d);
	else
		snprintf(buf, n, "%s %s", label, d);
}

int hd_rc_programs_note(char *buf, size_t n, const struct hd_diff *df)
{
	struct hd_programs p;

	hd_diff_programs(df, &p);
	if (!p.different)
		return 0;
	snprintf(buf, n, "these look like two different programs: only %"
		 PRIu32 " of %" PRIu32 " old values and of %" PRIu32
		 " new values matched by structure (%" PRIu64 "%%, %" PRIu64
		 "%%)", p.by_structure, p.n_old, p.n_new,
		 p.n_old ? (uint64_t)p.by_structure * 100 / p.n_old : 0,
		 p.n_new ? (uint64_t)p.by_structure * 100 / p.n_new : 0);
	return 1;
}

/* Is s a JAX module's name ("jit_f", "pmap_f")? */
static int jax_module(const char *s, size_t n)
{
	return (n > 4 && memcmp(s, "jit_", 4) == 0) ||
	       (n > 5 && memcmp(s, "pmap_", 5) == 0);
}

void hd_rc_module_of(char *buf, size_t n, const struct hd_dump *d)
{
	const char *base, *path = d->name;

	if (n == 0)
		return;
	buf[0] = '\0';
	/* a golden records the name its dump's file gave, or that file's
	 * name when it was not XLA's; a file name says which module only
	 * as XLA writes it: so only a JAX module's name is taken, from
	 * either, for a module's */
	if (d->module.n) {
		if (jax_module(d->module.p, d->module.n))
			snprintf(buf, n, "%.*s", (int)d->module.n, d->module.p);
		return;
	}
	if (!path)
		return;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strstr(base, "buffer-assignment") &&
	    hd_module_name_from_path(path, buf, n) == 0 &&
	    jax_module(buf, strlen(buf)))
		return;
	buf[0] = '\0';
}

int hd_rc_module_note(char *buf, size_t n, const struct hd_diff *df)
{
	char a[256], b[256];

	hd_rc_module_of(a, sizeof(a), df->old);
	hd_rc_module_of(b, sizeof(b), df->new_dump);
	if (!a[0] || !b[0] || strcmp(a, b) == 0)
		return 0;
	snprintf(buf, n, "different modules: %s (old), %s (new)", a, b);
	return 1;
}
