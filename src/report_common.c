/*
 * report_common.c - the words of rule verdicts for the Markdown, JUnit
 * and GitHub renderers (report_common.h).  They follow the text report
 * of verdict.c, so every format says the same thing.
 */
#include "report_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/figures.h"
#include "hlodiff/filename.h"
#include "hlodiff/format.h"
#include "hlodiff/keysort.h"
#include "hlodiff/label.h"
#include "hlodiff/shape.h"
#include "hlodiff/str.h"

#define NUM_MAX 48
#define LABEL_MAX 512

static const char *const inks[] = { "", "\033[31m", "\033[32m", "\033[33m",
				     "\033[1m", "\033[2m" };

const char *hd_rc_ink(int color, enum hd_pen p)
{
	return color ? inks[p] : "";
}

const char *hd_rc_ink_end(int color, enum hd_pen p)
{
	return color && p != HD_PEN_NONE ? "\033[0m" : "";
}

enum hd_pen hd_rc_sign_pen(const char *num)
{
	if (num[0] == '+')
		return HD_PEN_RED;
	return num[0] == '-' && num[1] >= '0' && num[1] <= '9' ? HD_PEN_GREEN : HD_PEN_NONE;
}

char *hd_rc_cell(char *buf, size_t n, int color, enum hd_pen p, int width,
		 const char *s)
{
	int pad = abs(width) - (int)strlen(s);

	pad = pad > 0 ? pad : 0;
	snprintf(buf, n, "%*s%s%s%s%*s", width > 0 ? pad : 0, "", hd_rc_ink(color, p), s,
		 hd_rc_ink_end(color, p), width < 0 ? pad : 0, "");
	return buf;
}

int hd_rc_fails(const struct hd_verdict *vd, int werror)
{
	return vd->result == HD_VERDICT_VIOLATED &&
		(vd->rule->severity == HD_SEV_ERROR || werror);
}

/* SEP then what condition r allows ("P% of OLD allows +A", "allowed
 * +A", "ceiling A"); nothing for a condition without a threshold.
 * Returns what snprintf returns. */
static int cond_words(char *buf, size_t n, const char *sep,
		      const struct hd_rule *r, int64_t old_v, int64_t allowed)
{
	char p[NUM_MAX], a[NUM_MAX];

	switch (r->cond) {
	case HD_COND_GROWS_PCT:
		return snprintf(buf, n, "%s%s%% of %" PRId64 " allows %s", sep,
				hd_pct_text(p, sizeof(p), r->pct), old_v,
				hd_signed(a, sizeof(a), allowed));
	case HD_COND_GROWS_BY:
		return snprintf(buf, n, "%sallowed %s", sep,
				hd_signed(a, sizeof(a), allowed));
	case HD_COND_ABOVE:
		return snprintf(buf, n, "%sceiling %" PRId64, sep, allowed);
	default:
		return 0;
	}
}

void hd_rc_int_cell(char *buf, size_t n, int has, int64_t v)
{
	if (has)
		snprintf(buf, n, "%" PRId64, v);
	else
		snprintf(buf, n, "-");
}

void hd_rc_threshold(char *buf, size_t n, const struct hd_verdict *vd)
{
	const struct hd_rule *r = vd->rule;

	if (r->and_next)
		hd_verdict_parts_text(buf, n, vd);
	else if (r->cond == HD_COND_ANY_NEW)
		snprintf(buf, n, "; %" PRIu32 " new", vd->n_new_total);
	else if (r->cond == HD_COND_ANY_LOST)
		snprintf(buf, n, "; %" PRIu32 " lost", vd->n_lost_total);
	else
		cond_words(buf, n, "; ", r, vd->old_v, vd->allowed);
}

void hd_rc_numbers(char *buf, size_t n, const struct hd_verdict *vd)
{
	const struct hd_rule *r = vd->rule;
	char d[NUM_MAX], p[NUM_MAX];
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
	hd_rc_threshold(buf + len, n - (size_t)len, vd);
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
	char st[32] = "";

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
	if (x->status != HD_STATUS_MATCHED)
		snprintf(st, sizeof(st), " (%s)",
			 hd_status_name((enum hd_value_status)x->status));
	if (vd->rule->cond == HD_COND_ABOVE)
		snprintf(buf, n, "%s %s%s", nw, label, st);
	else
		snprintf(buf, n, "%s %s %s -> %s%s%s%s",
			 hd_signed(d, sizeof(d), c->delta), label,
			 x->old_v == HD_NONE ? "-" : o,
			 x->new_v == HD_NONE ? "-" : nw, st, was,
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
	{
		enum hd_platform pf = hd_rc_platform(d);
		char src[40], dst[40];

		hd_rc_space_text(src, sizeof(src), pf, c->src_space);
		hd_rc_space_text(dst, sizeof(dst), pf, c->dst_space);
		snprintf(buf, n, "new %s %.*s: %.*s, %" PRId64 " bytes, space %s -> %s",
			 hd_copy_class_name(c->cls), (int)c->name.n,
			 c->name.p ? c->name.p : "", (int)shape.n, shape.p ? shape.p : "",
			 c->bytes, src, dst);
	}
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
	if (vd->n_new_total > vd->n_new_copies)
		i--;
	i -= vd->n_new_copies;
	if (i < vd->n_lost) {
		hd_lost_alias_text(buf, n, v, vd->lost_first + i);
		return 0;
	}
	if (i == vd->n_lost && vd->n_lost_total > vd->n_lost) {
		snprintf(buf, n, "... and %" PRIu32 " more",
			 vd->n_lost_total - vd->n_lost);
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
	 * would be most of the cost of a --json line) */
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
	/* a label longer than buf is cut, as hd_value_label cuts it */
	if (strcmp(ol, buf) != 0 && len < n &&
	    snprintf(buf + len, n - len, " (was %s)", ol) < 0)
		buf[len] = '\0';
}

/* ---- what a value is and where it came from ---------------------------- */

void hd_rc_short_op_name(char *buf, size_t n, struct hd_slice op, size_t width)
{
	size_t at = 0, e, cut, len;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (!op.n || !op.p)
		return;
	/* "jit(NAME)/jit(main)/": the same for every value of a module */
	if (hd_starts_with(op.p, op.n, "jit(")) {
		e = hd_op_name_part_end(op, 0);
		if (e < op.n && hd_starts_with(op.p + e + 1, op.n - e - 1, "jit(main)/"))
			at = e + 1 + strlen("jit(main)/");
	}
	len = op.n - at;
	if (width < 8)
		width = 8;
	if (len > width) {
		/* the last components that fit after ".../" */
		size_t room = width - 4, k = op.n;

		cut = op.n;
		while (k > at) {
			size_t j = k;

			while (j > at && op.p[j - 1] != '/')
				j--;
			if (op.n - j > room)
				break;
			cut = j;
			if (j == at)
				break;
			k = j - 1;
		}
		if (cut == op.n) {	/* even the last does not fit */
			cut = op.n - room;
			while (cut < op.n && ((unsigned char)op.p[cut] & 0xc0) == 0x80)
				cut++;	/* not inside a UTF-8 sequence */
		}
		snprintf(buf, n, ".../%.*s", (int)(op.n - cut), op.p + cut);
		return;
	}
	snprintf(buf, n, "%.*s", (int)len, op.p + at);
}

void hd_rc_source_text(char *buf, size_t n, const struct hd_insn_source *s,
		       const struct hd_report_opts *opts)
{
	struct hd_slice f = s->source_file;
	const char *repl = NULL;
	size_t repl_n = 0;
	int i;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (!f.n || !f.p)
		return;
	for (i = 0; opts && i < opts->n_source_prefix; i++) {
		const char *m = opts->source_prefix[i];
		const char *eq = strchr(m, '=');
		size_t k;

		if (!eq)
			continue;
		k = (size_t)(eq - m);
		if (k <= f.n && memcmp(f.p, m, k) == 0) {
			repl = eq + 1;
			repl_n = strlen(repl);
			f.p += k;
			f.n -= k;
			break;
		}
	}
	if (s->source_line >= 0)
		snprintf(buf, n, "%.*s%.*s:%" PRId64, (int)repl_n, repl ? repl : "",
			 (int)f.n, f.p, s->source_line);
	else
		snprintf(buf, n, "%.*s%.*s", (int)repl_n, repl ? repl : "",
			 (int)f.n, f.p);
}

/* The source of value v of d (its instruction's metadata); all empty
 * (source_line -1) when it has no instruction. */
static struct hd_insn_source value_source(const struct hd_dump *d, uint32_t v)
{
	struct hd_insn_source s = { HD_SLICE_NULL, HD_SLICE_NULL, -1 };
	uint32_t insn;

	if (v == HD_NONE)
		return s;
	insn = HD_VALUE(d, v).insn;
	if (insn == HD_NONE)
		return s;
	return hd_insn_source_of(d, insn);
}

struct hd_insn_source hd_rc_diff_source(const struct hd_diff *df, uint32_t old_v,
					uint32_t new_v)
{
	struct hd_insn_source s = value_source(df->new_dump, new_v);

	if (s.op_name.n || s.source_file.n)
		return s;
	return value_source(df->old, old_v);
}

/* The instruction of value v of d, HD_NONE if none. */
static uint32_t value_insn(const struct hd_dump *d, uint32_t v)
{
	return v == HD_NONE ? HD_NONE : HD_VALUE(d, v).insn;
}

static struct hd_slice copy_slice(struct hd_arena *a, struct hd_slice s)
{
	return s.n ? hd_slice_make(hd_arena_pack(a, s.p, s.n), s.n) : s;
}

/*
 * The sources of the value diffs x[0, n) whose instruction on side d is
 * known and that have none yet (no op_name nor file), read by
 * instruction: in the dump's order.
 */
static void sources_side(struct hd_rc_sources *s, const struct hd_dump *d,
			 const struct hd_value_diff *x, uint32_t n, int old)
{
	struct hd_input_pass pass[3] = HD_DUMP_PASS_SPARSE;
	const struct hd_insn_source none = { HD_SLICE_NULL, HD_SLICE_NULL, -1 };
	struct hd_insn_source src = none;
	unsigned ib = n > 1 ? 64 - (unsigned)__builtin_clzll(n - 1) : 1;
	uint64_t *a = hd_xmalloc(2 * ((size_t)n + 1) * sizeof(*a)), *r;
	uint64_t mask = ((uint64_t)1 << ib) - 1, prev = UINT64_MAX;
	uint32_t i, m = 0;

	/* (instruction, entry) in one number: sorted, by instruction */
	for (i = 0; i < n; i++) {
		uint32_t insn = value_insn(d, old ? x[i].old_v : x[i].new_v);

		if (s->of[i].op_name.n || s->of[i].source_file.n)
			continue;
		s->of[i] = none;        /* a line alone is not shown */
		if (insn < d->insns.len)
			a[m++] = (uint64_t)insn << ib | i;
	}
	r = hd_key_radix_sort(a, a + n + 1, m, ib, 32);
	for (i = 0; i < m; i++) {
		if (r[i] >> ib != prev) {
			uint32_t insn = (uint32_t)(r[i] >> ib);

			prev = insn;
			hd_dump_pass_at(d, pass, HD_INSN(d, insn).text.p);
			src = hd_insn_source_of(d, insn);
			src.op_name = copy_slice(&s->text, src.op_name);
			src.source_file = copy_slice(&s->text, src.source_file);
		}
		s->of[r[i] & mask] = src;
	}
	free(a);
}

void hd_rc_sources_read(struct hd_rc_sources *s, const struct hd_diff *df,
			uint32_t n)
{
	const struct hd_value_diff *x = df->values.data;

	s->text = (struct hd_arena)HD_ARENA_INIT;
	/* none yet: sources_side fills each in */
	s->of = hd_xcalloc((size_t)n + 1, sizeof(*s->of));
	/* as hd_rc_diff_source: the new value's, else the old one's */
	sources_side(s, df->new_dump, x, n, 0);
	sources_side(s, df->old, x, n, 1);
}

void hd_rc_sources_release(struct hd_rc_sources *s)
{
	free(s->of);
	hd_arena_release(&s->text);
	s->of = NULL;
}

void hd_rc_shape_pair(char *buf, size_t n, const struct hd_diff *df,
		      uint32_t old_v, uint32_t new_v)
{
	struct hd_slice o = old_v != HD_NONE ? hd_value_shape(df->old, old_v) : HD_SLICE_NULL;
	struct hd_slice w = new_v != HD_NONE ? hd_value_shape(df->new_dump, new_v) : HD_SLICE_NULL;

	if (n == 0)
		return;
	if (o.n && w.n && !hd_slice_eq(o, w))
		snprintf(buf, n, "%.*s -> %.*s", (int)o.n, o.p, (int)w.n, w.p);
	else if (w.n)
		snprintf(buf, n, "%.*s", (int)w.n, w.p);
	else if (o.n)
		snprintf(buf, n, "%.*s", (int)o.n, o.p);
	else
		buf[0] = '\0';
}

void hd_rc_bytes_h(char *buf, size_t n, int64_t bytes, int unknown_ok)
{
	char h[HD_HUMAN_MAX];

	if (unknown_ok && bytes < 0)
		snprintf(buf, n, "-");
	else if (hd_magnitude(bytes) < 1024)	/* "512 (512B)" says nothing more */
		snprintf(buf, n, "%" PRId64, bytes);
	else
		snprintf(buf, n, "%" PRId64 " (%s)", bytes,
			 hd_human_bytes(h, sizeof(h), bytes));
}

void hd_rc_delta_h(char *buf, size_t n, int64_t delta)
{
	char h[HD_HUMAN_MAX];

	if (hd_magnitude(delta) < 1024) {
		hd_signed(buf, n, delta);
		return;
	}
	hd_human_bytes(h, sizeof(h), delta);
	snprintf(buf, n, delta > 0 ? "+%" PRId64 " (+%s)" : "%" PRId64 " (%s)",
		 delta, h);
}

/* ---- memory spaces ------------------------------------------------------- */

/* Value lines looked at for a tiled layout: TPU dumps tile nearly every
 * array, from the first allocations on. */
#define PLATFORM_PROBE 64

static int has_tiling(struct hd_slice s)
{
	return s.n && s.p && memmem(s.p, s.n, ":T(", 3) != NULL;
}

enum hd_platform hd_rc_platform(const struct hd_dump *d)
{
	size_t i, n;

	n = d->alloc_values.len < PLATFORM_PROBE ? d->alloc_values.len : PLATFORM_PROBE;
	for (i = 0; i < n; i++)
		if (has_tiling(HD_ALLOC_VALUE(d, i).shape))
			return HD_PLATFORM_TPU;
	n = d->insns.len < PLATFORM_PROBE ? d->insns.len : PLATFORM_PROBE;
	for (i = 0; i < n; i++)
		if (has_tiling(HD_INSN(d, i).shape))
			return HD_PLATFORM_TPU;
	return HD_PLATFORM_UNKNOWN;
}

enum hd_platform hd_rc_diff_platform(const struct hd_diff *df)
{
	enum hd_platform a = hd_rc_platform(df->old), b = hd_rc_platform(df->new_dump);

	if (a == b || b == HD_PLATFORM_UNKNOWN)
		return a;
	if (a == HD_PLATFORM_UNKNOWN)
		return b;
	return HD_PLATFORM_UNKNOWN;
}

const char *hd_rc_platform_name(enum hd_platform p)
{
	switch (p) {
	case HD_PLATFORM_TPU: return "tpu";
	case HD_PLATFORM_GPU: return "gpu";
	case HD_PLATFORM_CPU: return "cpu";
	case HD_PLATFORM_UNKNOWN: break;
	}
	return NULL;
}

/* FORMAT.md section 8; 5 is XLA's host memory space on every platform. */
const char *hd_rc_space_name(enum hd_platform p, int64_t s)
{
	if (s == 5)
		return "host";
	if (p == HD_PLATFORM_TPU) {
		switch (s) {
		case 0: return "HBM";
		case 1: return "VMEM";
		case 2: return "sync flags";
		case 6: return "SMEM";
		}
	} else if (p == HD_PLATFORM_GPU) {
		switch (s) {
		case 0: return "device";
		case 1: return "collective";
		case 2: return "temp";
		}
	}
	return NULL;
}

void hd_rc_space_text(char *buf, size_t n, enum hd_platform p, int64_t s)
{
	const char *name = hd_rc_space_name(p, s);

	if (s < 0)
		snprintf(buf, n, "?");
	else if (name)
		snprintf(buf, n, "%" PRId64 " (%s)", s, name);
	else
		snprintf(buf, n, "%" PRId64, s);
}

int hd_rc_spaces_legend(char *buf, size_t n, const struct hd_diff *df)
{
	enum hd_platform pf = hd_rc_diff_platform(df);
	const char *pn = hd_rc_platform_name(pf);
	size_t i, o;
	int named = 0;

	if (n == 0)
		return 0;
	o = (size_t)snprintf(buf, n, "memory spaces%s%s%s:", pn ? " (" : "",
			     pf == HD_PLATFORM_TPU ? "TPU" : pf == HD_PLATFORM_GPU ? "GPU" :
			     pf == HD_PLATFORM_CPU ? "CPU" : "", pn ? ")" : "");
	for (i = 0; i < df->rows.len && o < n; i++) {
		const struct hd_figure_row *r = &HD_VEC_AT(&df->rows, struct hd_figure_row, i);
		const char *name;
		char *end;
		long long sp;

		if (strncmp(r->name, "space", 5) != 0)
			continue;
		sp = strtoll(r->name + 5, &end, 10);
		if (end == r->name + 5 || strcmp(end, "_bytes") != 0)
			continue;
		name = hd_rc_space_name(pf, sp);
		if (!name)
			continue;
		o += (size_t)snprintf(buf + o, n - o, "%s %lld %s", named ? "," : "", sp, name);
		named++;
	}
	if (!named)
		buf[0] = '\0';
	return named;
}

int hd_rc_row_is_time(const struct hd_figure_row *r)
{
	size_t k = strlen(r->name);

	return k >= 5 && strcmp(r->name + k - 5, "_time") == 0;
}

/* ---- changes of shape, other programs ---------------------------------- */

/* "+1.20GiB", "-512B", "0" for a byte delta. */
static void signed_bytes(char *buf, size_t n, int64_t delta)
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

int64_t hd_rc_scale_group(char *ratio, size_t rn, char *delta, size_t dn,
			  const struct hd_scale_group *g)
{
	int64_t d = hd_delta(g->old_bytes, g->new_bytes);

	snprintf(ratio, rn, "x%" PRIu32 ".%02" PRIu32, g->ratio100 / 100,
		 g->ratio100 % 100);
	signed_bytes(delta, dn, d);
	return d;
}

void hd_rc_scaling_other(char *buf, size_t n, const struct hd_diff *df,
			 const struct hd_value_diff *vd)
{
	char label[512], d[40];
	double r = hd_value_diff_ratio(vd);

	hd_rc_pair_label(label, sizeof(label), df, vd->old_v, vd->new_v);
	signed_bytes(d, sizeof(d), vd->delta);
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

void hd_rc_put_notes(FILE *out, const struct hd_diff *df, const char *before,
		     const char *after)
{
	char buf[640];

	if (hd_rc_module_note(buf, sizeof(buf), df))
		fprintf(out, "%s%s%s", before, buf, after);
	if (hd_rc_programs_note(buf, sizeof(buf), df))
		fprintf(out, "%s%s%s", before, buf, after);
}

/* ---- verdicts, as every format words them ----------------------------- */

/* "1.5" for a percentage kept in millionths. */
char *hd_pct_text(char *buf, size_t n, int64_t pct)
{
	int64_t whole = pct / HD_PCT_ONE, frac = pct % HD_PCT_ONE;
	int len = snprintf(buf, n, "%" PRId64, whole);

	if (frac && len > 0 && (size_t)len < n) {
		char f[16];
		int k = snprintf(f, sizeof(f), "%06" PRId64, frac);

		while (k > 0 && f[k - 1] == '0')
			f[--k] = '\0';
		snprintf(buf + len, n - (size_t)len, ".%s", f);
	}
	return buf;
}

static const struct hd_lost_alias *lost_at(const struct hd_verdicts *v,
					   uint32_t i)
{
	return &HD_VEC_AT(&v->lost, struct hd_lost_alias, i);
}

int hd_lost_alias_text(char *buf, size_t n, const struct hd_verdicts *v,
		       uint32_t i)
{
	const struct hd_lost_alias *l = lost_at(v, i);
	const struct hd_alloc *a = &HD_ALLOC(v->df->old, l->old_alloc);
	struct hd_slice name, op;
	char who[LABEL_MAX], in_new[96];

	hd_alias_names(v->df->old, l->old_alloc, &name, &op);
	who[0] = '\0';
	if (name.n && op.n)
		snprintf(who, sizeof(who), ", %.*s (op_name \"%.*s\")",
			 (int)name.n, name.p, (int)op.n, op.p);
	else if (name.n)
		snprintf(who, sizeof(who), ", %.*s", (int)name.n, name.p);
	if (l->new_alloc == HD_NONE)
		snprintf(in_new, sizeof(in_new), "not a parameter of NEW");
	else
		snprintf(in_new, sizeof(in_new), "NEW's allocation %" PRId64
			 " (%" PRId64 " bytes) is not reused by an output",
			 HD_ALLOC(v->df->new_dump, l->new_alloc).index,
			 HD_ALLOC(v->df->new_dump, l->new_alloc).size);
	return snprintf(buf, n, "lost alias parameter %" PRId64 " %.*s: %.*s, %"
			PRId64 " bytes%s; %s", a->param_number,
			(int)a->param_index.n, a->param_index.p ? a->param_index.p : "",
			(int)a->param_shape.n, a->param_shape.p ? a->param_shape.p : "",
			a->size, who, in_new);
}

char *hd_verdict_parts_text(char *buf, size_t n, const struct hd_verdict *vd)
{
	const struct hd_rule *part;
	size_t len = 0;
	int64_t allowed;

	if (n)
		buf[0] = '\0';
	if (!vd->rule->and_next || vd->result == HD_VERDICT_NA)
		return buf;
	for (part = vd->rule; part && len < n; part = part->and_next) {
		int over = hd_cond_violated(part, vd->old_v, vd->new_v, &allowed);
		int k = cond_words(buf + len, n - len,
				   part == vd->rule ? "; " : " and ", part,
				   vd->old_v, allowed);

		if (k < 0)
			break;
		len += (size_t)k;
		if (len < n) {
			k = snprintf(buf + len, n - len, " (%s)",
				     over ? "exceeded" : "within");
			len += k > 0 ? (size_t)k : 0;
		}
	}
	return buf;
}
