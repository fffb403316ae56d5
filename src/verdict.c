/*
 * verdict.c - evaluates a rule set against a diff into verdicts, data
 * that report_verdict.c and the report formats write (docs/rules.md).
 *
 * One evaluation: mark the values and copies the waivers in scope cover,
 * then for each rule in scope take the metric's old and new numbers,
 * decide the condition in exact integer arithmetic, and for a violation
 * keep what accounts for it: the values with the largest byte change as
 * the metric counts them, or the copies of NEW that no copy of OLD
 * matches.  Every pass is linear in the values (times the number of
 * contributors kept, HD_VERDICT_TOP).
 */
#include "hlodiff/verdict.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/figures.h"
#include "hlodiff/format.h"
#include "hlodiff/index.h"
#include "hlodiff/shape.h"

__extension__ typedef __int128 hd_i128;

enum side { OLD, NEW };

struct eval {
	const struct hd_rules *r;
	const struct hd_diff *df;
	const char *module;
	struct hd_verdicts *v;
	const struct hd_dump *d[2];
	const struct hd_figures *f[2];
	uint8_t *waived[2];        /* per value; NULL without waivers
				    * (none waived): see is_waived */
	int64_t *held[2];          /* per value: held at the peak (held_per_value) */
	int64_t held_color[2];     /* ... of this colour, -1 the whole peak */
	int64_t *stated[2];        /* per value: bytes in the peak section */
	int64_t *recomputed[2];    /* per value: live at the recomputed peak */
	uint8_t *copy_matched;     /* per copy of NEW */
	uint8_t *copy_waived[2];   /* per copy */
	/* per instruction, its op_name and source, read (hd_insn_sources)
	 * when a waiver or filter first asks: once per instruction, not
	 * once per value and rule */
	struct hd_sources sources[2];
	struct hd_vec buf;         /* char: scratch for fnmatch */
	int lost_done;             /* v->lost is filled (find_lost_aliases) */
};

/* ---- the condition ------------------------------------------------------ */

static int64_t clamp_i128(hd_i128 x)
{
	if (x > INT64_MAX)
		return INT64_MAX;
	if (x < INT64_MIN)
		return INT64_MIN;
	return (int64_t)x;
}

int hd_rule_violated(const struct hd_rule *r, int64_t old_v, int64_t new_v,
		     int64_t *allowed)
{
	const struct hd_rule *p;
	int64_t a;
	int all = hd_cond_violated(r, old_v, new_v, allowed);

	for (p = r->and_next; p; p = p->and_next)
		if (!hd_cond_violated(p, old_v, new_v, &a))
			all = 0;
	return all;
}

int hd_cond_violated(const struct hd_rule *r, int64_t old_v, int64_t new_v,
		     int64_t *allowed)
{
	int64_t delta = hd_delta(old_v, new_v);

	*allowed = 0;
	switch (r->cond) {
	case HD_COND_GROWS_PCT:
		if (old_v > 0)
			*allowed = clamp_i128((hd_i128)old_v * r->pct /
					      (100 * (hd_i128)HD_PCT_ONE));
		if (delta <= 0)
			return 0;
		if (old_v <= 0)
			return 1;
		return (hd_i128)delta * 100 * HD_PCT_ONE > (hd_i128)old_v * r->pct;
	case HD_COND_GROWS_BY:
		*allowed = r->amount;
		return delta > r->amount;
	case HD_COND_ABOVE:
		*allowed = r->amount;
		return new_v > r->amount;
	}
	return 0;
}

/* ---- scope, globs, waivers ---------------------------------------------- */

static int in_scope(const struct eval *e, int32_t module)
{
	if (module < 0)
		return 1;
	return e->module &&
		fnmatch(HD_MODULE_SCOPE(e->r, module).glob, e->module, 0) == 0;
}

/* fnmatch over a + b (slices, not NUL-terminated). */
static int glob2(struct eval *e, const char *glob, struct hd_slice a,
		 struct hd_slice b)
{
	char *buf;

	hd_vec_reserve(&e->buf, a.n + b.n + 1);
	buf = e->buf.data;
	if (a.n)
		memcpy(buf, a.p, a.n);
	if (b.n)
		memcpy(buf + a.n, b.p, b.n);
	buf[a.n + b.n] = '\0';
	return fnmatch(glob, buf, 0) == 0;
}

/* name= matches the instruction name or name{index}. */
static int name_matches(struct eval *e, const char *glob, struct hd_slice name,
			struct hd_slice index)
{
	return glob2(e, glob, name, HD_SLICE_NULL) ||
		(index.n && glob2(e, glob, name, index));
}

static struct hd_slice insn_op_name(const struct hd_dump *d, uint32_t insn)
{
	return insn == HD_NONE ? HD_SLICE_NULL :
				 hd_insn_source_of(d, insn).op_name;
}

/* The op_name of value v of side s (empty without an instruction). */
static struct hd_slice value_op_name(struct eval *e, int s, uint32_t v)
{
	const struct hd_insn_source *src =
		hd_value_source(e->d[s], v, &e->sources[s]);

	return src ? src->op_name : HD_SLICE_NULL;
}

static int waiver_matches(struct eval *e, const struct hd_waiver *w,
			  struct hd_slice name, struct hd_slice index,
			  struct hd_slice op_name)
{
	if (w->field == HD_FILTER_NAME)
		return name_matches(e, w->glob, name, index);
	return glob2(e, w->glob, op_name, HD_SLICE_NULL);
}

/*
 * Is (name, index, op_name) waived?  Counts the hit on every waiver that
 * matches through the counter picked by what (0 old value, 1 new value,
 * 2 new copy, 3 lost alias, -1 none).
 */
static int waived_by(struct eval *e, struct hd_slice name,
		     struct hd_slice index, struct hd_slice op_name, int what)
{
	size_t i;
	int hit = 0;

	for (i = 0; i < e->v->waivers.len; i++) {
		struct hd_waiver_use *u =
			&HD_VEC_AT(&e->v->waivers, struct hd_waiver_use, i);

		if (!waiver_matches(e, u->waiver, name, index, op_name))
			continue;
		hit = 1;
		if (what == 0)
			u->n_old++;
		else if (what == 1)
			u->n_new++;
		else if (what == 2)
			u->n_copies++;
		else if (what == 3)
			u->n_aliases++;
	}
	return hit;
}

static void mark_waived_values(struct eval *e, int s)
{
	const struct hd_dump *d = e->d[s];
	size_t i;

	/* without waivers no value is waived: no array, which would be a
	 * byte per value written (zeroed) for nothing */
	if (e->v->waivers.len == 0)
		return;
	e->waived[s] = hd_xcalloc(d->values.len + 1, 1);
	for (i = 0; i < d->values.len; i++) {
		const struct hd_value *val = &HD_VALUE(d, i);

		e->waived[s][i] = (uint8_t)waived_by(e, val->name, hd_value_index(val),
						     value_op_name(e, s, (uint32_t)i), s);
	}
}

/* Is value v of side s waived (mark_waived_values)? */
static int is_waived(const struct eval *e, int s, uint32_t v)
{
	return e->waived[s] && e->waived[s][v];
}

static const struct hd_copy *copy_at(const struct hd_figures *f, size_t k)
{
	return &HD_VEC_AT(&f->copies, struct hd_copy, k);
}

static void mark_waived_copies(struct eval *e, int s)
{
	const struct hd_figures *f = e->f[s];
	size_t k;

	e->copy_waived[s] = hd_xcalloc(f->copies.len + 1, 1);
	if (e->v->waivers.len == 0)
		return;
	for (k = 0; k < f->copies.len; k++) {
		const struct hd_copy *c = copy_at(f, k);

		e->copy_waived[s][k] = (uint8_t)waived_by(
			e, c->name, hd_slice_cstr("{0}"),
			insn_op_name(e->d[s], c->insn), s == NEW ? 2 : -1);
	}
}

/* ---- per-value numbers -------------------------------------------------- */

static int64_t value_bytes(const struct hd_dump *d, uint32_t v)
{
	int64_t b = hd_value_size(d, v);

	return b > 0 ? b : 0;
}

/* The allocation holding value v, or NULL. */
static const struct hd_alloc *value_alloc(const struct hd_dump *d, uint32_t v)
{
	uint32_t av = HD_VALUE(d, v).alloc_value;

	if (av == HD_NONE)
		return NULL;
	return &HD_ALLOC(d, HD_ALLOC_VALUE(d, av).alloc);
}

static int alloc_passes(const struct hd_metric *m, const struct hd_alloc *a)
{
	if ((m->filters & HD_FILTER_SPACE) && a->color != m->space)
		return 0;
	if ((m->filters & HD_FILTER_KIND) &&
	    (int)hd_alloc_kind_of(a->flags) != m->kind)
		return 0;
	return 1;
}

/*
 * source= matches "file:line" of the value's defining instruction (its
 * metadata source_file and source_line); no metadata matches nothing.
 */
static int source_matches(struct eval *e, const char *glob, int s,
			  uint32_t v)
{
	const struct hd_insn_source *in =
		hd_value_source(e->d[s], v, &e->sources[s]);
	char line[32];

	if (!in || in->source_file.n == 0)
		return 0;
	if (in->source_line < 0)
		return glob2(e, glob, in->source_file, HD_SLICE_NULL);
	snprintf(line, sizeof(line), ":%" PRId64, in->source_line);
	return glob2(e, glob, in->source_file, hd_slice_cstr(line));
}

/* Does value v of side s pass the name/op_name/source filters of m? */
static int value_passes(struct eval *e, const struct hd_metric *m, int s,
			uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(e->d[s], v);

	if ((m->filters & HD_FILTER_NAME) &&
	    !name_matches(e, m->name_glob, val->name, hd_value_index(val)))
		return 0;
	if ((m->filters & HD_FILTER_OP_NAME) &&
	    !glob2(e, m->op_glob, value_op_name(e, s, v), HD_SLICE_NULL))
		return 0;
	if ((m->filters & HD_FILTER_SOURCE) &&
	    !source_matches(e, m->source_glob, s, v))
		return 0;
	return 1;
}

/* Bytes each value holds at the held peak of colour color (-1: the
 * whole peak), so that they add up to the figure. */
static int64_t *held_per_value(const struct hd_dump *d,
			       const struct hd_figures *f, int64_t color)
{
	int64_t *a = hd_xcalloc(d->values.len + 1, sizeof(*a));
	const struct hd_peak_space *sp;

	if (color < 0)
		hd_figures_held_at_peak(f, a, NULL);
	else if (f->has_peak && (sp = hd_figures_peak_space(f, color)) != NULL)
		hd_held_values_at(d, sp->time, color, a, NULL);
	return a;
}

/* "spaceN_peak_bytes": N in *color. */
static int space_peak_row(const char *row, int64_t *color)
{
	char *end;
	long long c;

	if (strncmp(row, "space", 5) != 0)
		return 0;
	c = strtoll(row + 5, &end, 10);
	if (end == row + 5 || strcmp(end, "_peak_bytes") != 0)
		return 0;
	*color = c;
	return 1;
}

static int64_t *peak_bytes_per_value(const struct hd_dump *d)
{
	int64_t *a = hd_xcalloc(d->values.len + 1, sizeof(*a));
	size_t i;

	for (i = 0; i < d->peak.len; i++) {
		const struct hd_peak_entry *p = &HD_PEAK_ENTRY(d, i);
		if (p->value != HD_NONE && p->bytes > 0)
			a[p->value] = hd_sat_add(a[p->value], p->bytes);
	}
	return a;
}

/* Logical bytes of each value live at the recomputed peak time. */
static int64_t *recomputed_per_value(const struct hd_dump *d,
				     const struct hd_figures *f)
{
	int64_t *a = hd_xcalloc(d->values.len + 1, sizeof(*a));
	int64_t t = f->recomputed_time;
	size_t i;

	if (!f->has_recomputed)
		return a;
	for (i = 0; i < d->values.len; i++) {
		const struct hd_value *val = &HD_VALUE(d, i);
		int64_t b;

		if (!(val->flags & HD_VALUE_LIVE) || val->live_start > t ||
		    val->live_end < t)
			continue;
		b = hd_shape_logical_bytes(hd_value_shape(d, (uint32_t)i));
		a[i] = b > 0 ? b : 0;
	}
	return a;
}

/*
 * Bytes of value v (side s) as metric m counts them: 0 when m does not
 * count v or does not attribute itself to values (allocations, copies).
 */
static int64_t counted(struct eval *e, const struct hd_metric *m, int s,
		       uint32_t v)
{
	const struct hd_dump *d = e->d[s];
	const struct hd_alloc *a;
	int64_t color = -1;

	if (v == HD_NONE)
		return 0;
	switch (m->source) {
	case HD_MSRC_ROW:
		if (strcmp(m->row, "total_bytes") == 0)
			return value_bytes(d, v);
		if (strcmp(m->row, "peak_bytes") == 0 || space_peak_row(m->row, &color)) {
			if (!e->held[s] || e->held_color[s] != color) {
				free(e->held[s]);
				e->held[s] = held_per_value(d, e->f[s], color);
				e->held_color[s] = color;
			}
			return e->held[s][v];
		}
		if (strcmp(m->row, "stated_peak_bytes") == 0) {
			if (!e->stated[s])
				e->stated[s] = peak_bytes_per_value(d);
			return e->stated[s][v];
		}
		if (strcmp(m->row, "recomputed_peak_bytes") == 0) {
			if (!e->recomputed[s])
				e->recomputed[s] = recomputed_per_value(d, e->f[s]);
			return e->recomputed[s][v];
		}
		return 0;
	case HD_MSRC_ALLOC:
		a = value_alloc(d, v);
		return a && alloc_passes(m, a) ? value_bytes(d, v) : 0;
	case HD_MSRC_VALUES:
		if (is_waived(e, s, v))
			return 0;
		a = value_alloc(d, v);
		if (!a || !alloc_passes(m, a) || !value_passes(e, m, s, v))
			return 0;
		return value_bytes(d, v);
	case HD_MSRC_VALUE_COUNT:
		return is_waived(e, s, v) ? 0 : value_bytes(d, v);
	}
	return 0;
}

/* ---- copies ------------------------------------------------------------- */

/*
 * A map from records (values or instructions) to the copy of f that has
 * each, the last one where several do (HD_NONE: none).  An index over
 * the copies, keyed by the record number a copy holds: an array by
 * record would be written whole for a few thousand copies.
 */
struct copy_map {
	const struct hd_figures *f;
	int insns;              /* keyed by instruction, else by value */
	struct hd_index x;
};

/* The record of copy k that the map is keyed by, as the index's key. */
static struct hd_slice copy_key(const void *ctx, uint32_t k)
{
	const struct copy_map *cm = ctx;
	const struct hd_copy *c = copy_at(cm->f, k);

	return hd_slice_make((const char *)(cm->insns ? &c->insn : &c->value),
			     sizeof(uint32_t));
}

static void copy_map_make(struct copy_map *cm, const struct hd_figures *f,
			  int insns)
{
	struct hd_index empty = HD_INDEX_INIT;
	size_t k;

	cm->f = f;
	cm->insns = insns;
	cm->x = empty;
	hd_index_reserve(&cm->x, f->copies.len);
	/* the index keeps the first put: last copy first */
	for (k = f->copies.len; k-- > 0;) {
		struct hd_slice key = copy_key(cm, (uint32_t)k);
		uint32_t at;

		memcpy(&at, key.p, sizeof(at));
		if (at != HD_NONE)
			hd_index_put(&cm->x, key, (uint32_t)k, copy_key, cm);
	}
}

/* The copy that has record at, or HD_NONE. */
static uint32_t copy_map_get(const struct copy_map *cm, uint32_t at)
{
	struct hd_slice key = hd_slice_make((const char *)&at, sizeof(at));

	if (at == HD_NONE)
		return HD_NONE;
	return hd_index_find(&cm->x, hd_index_hash(key), key, copy_key, cm);
}

/* Does some copy of f have no destination value? */
static int copies_without_dest(const struct hd_figures *f)
{
	size_t k;

	for (k = 0; k < f->copies.len; k++)
		if (copy_at(f, k)->value == HD_NONE)
			return 1;
	return 0;
}

static uint32_t copy_of_value(const struct hd_dump *d, uint32_t v,
			      const struct copy_map *by_insn,
			      const struct copy_map *by_value)
{
	uint32_t c = copy_map_get(by_insn, HD_VALUE(d, v).insn);

	return c != HD_NONE ? c : copy_map_get(by_value, v);
}

/*
 * A copy of NEW is matched when its destination (its {0} value, the
 * buffer it copies to) is paired by the value matcher with the
 * destination of a copy of OLD of the same class.  The matcher pairs the
 * elements of a tuple one by one, so a copy's {} may be paired with one
 * copy of the other dump and its {0} with another: the destination
 * decides.  A copy whose dump lists no destination is matched when any
 * value it defines ({}, {2}) is paired with a value of such a copy.
 * Everything else is new.
 */
static void match_copies(struct eval *e)
{
	const struct hd_dump *o = e->d[OLD], *n = e->d[NEW];
	const struct hd_match *m = &e->df->match;
	struct copy_map oi, ov, ni, nv;
	size_t v, k;

	e->copy_matched = hd_xcalloc(e->f[NEW]->copies.len + 1, 1);
	copy_map_make(&ov, e->f[OLD], 0);
	for (k = 0; k < e->f[NEW]->copies.len; k++) {
		uint32_t dest = copy_at(e->f[NEW], k)->value, ok;

		if (dest == HD_NONE || dest >= m->n_new ||
		    m->new_to_old[dest] == HD_NONE)
			continue;
		ok = copy_map_get(&ov, m->new_to_old[dest]);
		if (ok != HD_NONE &&
		    copy_at(e->f[OLD], ok)->cls == copy_at(e->f[NEW], k)->cls)
			e->copy_matched[k] = 1;
	}
	/* the rest is for copies without a destination (the usual dump
	 * has none: then no value need be read) */
	if (!copies_without_dest(e->f[NEW])) {
		hd_index_release(&ov.x);
		return;
	}
	copy_map_make(&oi, e->f[OLD], 1);
	copy_map_make(&ni, e->f[NEW], 1);
	copy_map_make(&nv, e->f[NEW], 0);
	for (v = 0; v < n->values.len && v < m->n_new; v++) {
		uint32_t c = copy_of_value(n, (uint32_t)v, &ni, &nv), ov_, ok;

		if (c == HD_NONE || copy_at(e->f[NEW], c)->value != HD_NONE)
			continue;
		ov_ = m->new_to_old[v];
		if (ov_ == HD_NONE)
			continue;
		ok = copy_of_value(o, ov_, &oi, &ov);
		if (ok != HD_NONE &&
		    copy_at(e->f[OLD], ok)->cls == copy_at(e->f[NEW], c)->cls)
			e->copy_matched[c] = 1;
	}
	hd_index_release(&oi.x);
	hd_index_release(&ov.x);
	hd_index_release(&ni.x);
	hd_index_release(&nv.x);
}

/* Can the copies of side s be classified (instructions known)? */
static int copies_known(const struct hd_dump *d)
{
	if (d->incomplete & (HD_SEC_ALLOCATIONS | HD_SEC_USED_VALUES))
		return 0;
	return d->insns.len > 0 || d->values.len == 0;
}

static int64_t count_copies(const struct eval *e, int s, int cls)
{
	const struct hd_figures *f = e->f[s];
	int64_t n = 0;
	size_t k;

	for (k = 0; k < f->copies.len; k++)
		if ((int)copy_at(f, k)->cls == cls && !e->copy_waived[s][k])
			n++;
	return n;
}

/* Lists the unmatched, unwaived copies of class cls of NEW. */
static void list_new_copies(struct eval *e, struct hd_verdict *vd, int cls)
{
	const struct hd_figures *f = e->f[NEW];
	size_t k;

	vd->copy_first = (uint32_t)e->v->new_copies.len;
	for (k = 0; k < f->copies.len; k++) {
		if ((int)copy_at(f, k)->cls != cls || e->copy_matched[k] ||
		    e->copy_waived[NEW][k])
			continue;
		vd->n_new_total++;
		if (vd->n_new_copies < HD_VERDICT_MAX_COPIES) {
			*(uint32_t *)hd_vec_push(&e->v->new_copies) = (uint32_t)k;
			vd->n_new_copies++;
		}
	}
}

/* ---- lost aliases ------------------------------------------------------- */

/* An aliased parameter of OLD by parameter number and shape index,
 * and what NEW has under that key. */
struct param_key {
	int64_t number;
	struct hd_slice index;
	uint32_t new_alloc;     /* NEW's first allocation there, or HD_NONE */
	int new_aliased;        /* NEW aliases one of them */
};

static int cmp_param_key(const struct param_key *x, const struct param_key *y)
{
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return hd_slice_cmp(x->index, y->index);
}

/* The first of the n sorted keys equal to k, or NULL. */
static struct param_key *first_param(struct param_key *keys, size_t n,
				     const struct param_key *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_param_key(&keys[mid], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && cmp_param_key(&keys[lo], k) == 0 ? &keys[lo] : NULL;
}

/* Is the aliased allocation alloc of OLD waived (by its parameter
 * instruction's name or op_name)?  Counts the hit. */
static int alias_waived(struct eval *e, uint32_t alloc)
{
	const struct hd_dump *d = e->d[OLD];
	uint32_t v;

	if (e->v->waivers.len == 0)
		return 0;
	v = hd_alias_param_value(d, alloc);
	if (v == HD_NONE)
		return 0;
	return waived_by(e, HD_VALUE(d, v).name, hd_value_index(&HD_VALUE(d, v)),
			 value_op_name(e, OLD, v), 3);
}

/*
 * Fills v->lost, once: each aliased parameter of OLD, by parameter
 * number and shape index, that NEW does not alias under the same number
 * and index.  OLD's few aliased keys (sorted, equal ones adjacent) are
 * searched for each of NEW's parameters, which are many.
 */
static void find_lost_aliases(struct eval *e)
{
	const struct hd_dump *o = e->d[OLD], *n = e->d[NEW];
	struct param_key *keys, *run = NULL;
	uint32_t *al;
	size_t i, na;

	if (e->lost_done)
		return;
	e->lost_done = 1;
	al = hd_aliases_sorted(o, &na);
	keys = hd_xmalloc((na + 1) * sizeof(*keys));
	for (i = 0; i < na; i++)
		keys[i] = (struct param_key){ HD_ALLOC(o, al[i]).param_number,
					      HD_ALLOC(o, al[i]).param_index,
					      HD_NONE, 0 };
	for (i = 0; na && i < n->allocs.len; i++) {
		const struct hd_alloc *a = &HD_ALLOC(n, i);
		struct param_key k = { a->param_number, a->param_index, 0, 0 }, *hit;

		if (!(a->flags & HD_ALLOC_PARAMETER) ||
		    !(hit = first_param(keys, na, &k)))
			continue;
		if (hit->new_alloc == HD_NONE)
			hit->new_alloc = (uint32_t)i;
		hit->new_aliased |= hd_alloc_is_aliased(a);
	}
	for (i = 0; i < na; i++) {
		struct hd_lost_alias *l;

		if (!run || cmp_param_key(run, &keys[i]) != 0)
			run = &keys[i];
		if (run->new_aliased || alias_waived(e, al[i]))
			continue;
		l = hd_vec_push(&e->v->lost);
		l->old_alloc = al[i];
		l->new_alloc = run->new_alloc;
	}
	free(al);
	free(keys);
}

/* Do the aliased parameters of d have their numbers?  (A golden file
 * written before goldens kept them does not.) */
static int aliases_numbered(const struct hd_dump *d)
{
	size_t i;

	for (i = 0; i < d->allocs.len; i++)
		if (hd_alloc_is_aliased(&HD_ALLOC(d, i)) &&
		    HD_ALLOC(d, i).param_number < 0)
			return 0;
	return 1;
}

static void list_lost_aliases(struct eval *e, struct hd_verdict *vd)
{
	find_lost_aliases(e);
	vd->lost_first = 0;
	vd->n_lost_total = (uint32_t)e->v->lost.len;
	vd->n_lost = vd->n_lost_total < HD_VERDICT_MAX_COPIES ?
		vd->n_lost_total : HD_VERDICT_MAX_COPIES;
}

/* ---- metric values ------------------------------------------------------ */

struct mval {
	int has[2];
	int64_t v[2];
	const char *missing;     /* what is missing where has[] is 0 */
};

static int64_t alloc_sum(const struct eval *e, const struct hd_metric *m, int s)
{
	const struct hd_dump *d = e->d[s];
	int64_t sum = 0;
	size_t i;

	if (m->filters == HD_FILTER_SPACE)
		return hd_figures_color_bytes(e->f[s], m->space);
	if (m->filters == HD_FILTER_KIND)
		return e->f[s]->by_kind[m->kind];
	for (i = 0; i < d->allocs.len; i++)
		if (alloc_passes(m, &HD_ALLOC(d, i)))
			sum = hd_sat_add(sum, HD_ALLOC(d, i).size);
	return sum;
}

/* Sum of size= (or the number) of the value lines m counts on side s. */
static int64_t value_sum(struct eval *e, const struct hd_metric *m, int s,
			 int count_only)
{
	const struct hd_dump *d = e->d[s];
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < d->alloc_values.len; i++) {
		const struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, i);

		if (is_waived(e, s, av->value))
			continue;
		if (!count_only &&
		    (!alloc_passes(m, &HD_ALLOC(d, av->alloc)) ||
		     !value_passes(e, m, s, av->value)))
			continue;
		sum = hd_sat_add(sum, count_only ? 1 :
				 av->size > 0 ? av->size : 0);
	}
	return sum;
}

static const char *row_missing(const struct eval *e, const char *row)
{
	int64_t color;

	if (e->d[OLD]->incomplete || e->d[NEW]->incomplete)
		return "incomplete dump";
	if (strcmp(row, "total_bytes") == 0)
		return "no 'Total bytes used' line";
	if (strcmp(row, "stated_peak_bytes") == 0)
		return "no peak section";
	if (strcmp(row, "peak_bytes") == 0 || space_peak_row(row, &color)) {
		int s;

		for (s = OLD; s <= NEW; s++)
			if (!e->f[s]->has_peak && e->f[s]->peak_why)
				return e->f[s]->peak_why;
		if (strcmp(row, "peak_bytes") != 0)
			return "no allocation of that memory space";
		return "no bytes held to compute the peak from";
	}
	if (strcmp(row, "recomputed_peak_bytes") == 0)
		return "no live ranges to recompute the peak from";
	return "no such figure";
}

static void metric_values(struct eval *e, const struct hd_metric *m,
			  struct mval *out)
{
	int s;

	memset(out, 0, sizeof(*out));
	for (s = OLD; s <= NEW; s++) {
		const struct hd_figure_row *row;

		/* most metrics need the allocations whole */
		out->has[s] = !(e->d[s]->incomplete & HD_SEC_ALLOCATIONS);
		out->missing = "incomplete dump (the allocations broke off)";
		switch (m->source) {
		case HD_MSRC_ROW:
			row = hd_diff_row(e->df, m->row);
			out->has[s] = row && (s == OLD ? row->has_old : row->has_new);
			out->v[s] = !row ? 0 : s == OLD ? row->old_v : row->new_v;
			out->missing = row_missing(e, m->row);
			break;
		case HD_MSRC_ALLOC:
			out->v[s] = alloc_sum(e, m, s);
			break;
		case HD_MSRC_VALUES:
			out->has[s] = out->has[s] &&
				(!(m->filters & (HD_FILTER_OP_NAME | HD_FILTER_SOURCE)) ||
				 copies_known(e->d[s]));
			out->missing = e->d[s]->incomplete ? "incomplete dump" :
				"no 'Used values' section (op_name unknown)";
			out->v[s] = value_sum(e, m, s, 0);
			break;
		case HD_MSRC_VALUE_COUNT:
			out->v[s] = value_sum(e, m, s, 1);
			break;
		case HD_MSRC_COPIES:
			out->has[s] = copies_known(e->d[s]);
			out->missing = e->d[s]->incomplete ? "incomplete dump (copies cannot all be classified)" :
				"no 'Used values' section (copies cannot be classified)";
			out->v[s] = count_copies(e, s, m->copy_class);
			break;
		case HD_MSRC_ALIASES:
			out->v[s] = m->is_bytes ? e->f[s]->aliased_bytes :
				(int64_t)e->f[s]->aliased_params;
			break;
		}
	}
}

/* ---- contributors ------------------------------------------------------- */

/* Keeps the top HD_VERDICT_TOP of c by key (insertion into a short array). */
static void keep_top(struct hd_contrib *top, int64_t *keys, uint32_t *n,
		     const struct hd_contrib *c, int64_t key)
{
	uint32_t i = *n;

	if (i == HD_VERDICT_TOP && key <= keys[i - 1])
		return;
	if (i < HD_VERDICT_TOP)
		(*n)++;
	else
		i--;
	while (i > 0 && keys[i - 1] < key) {
		top[i] = top[i - 1];
		keys[i] = keys[i - 1];
		i--;
	}
	top[i] = *c;
	keys[i] = key;
}

/* Is value v of side s counted by the value-count metric? */
static int value_present(const struct eval *e, int s, uint32_t v)
{
	return v != HD_NONE && HD_VALUE(e->d[s], v).alloc_value != HD_NONE &&
		!is_waived(e, s, v);
}

/*
 * The values that account for a violation: for growth the largest
 * positive byte deltas (and the totals grown and shrunk), for a ceiling
 * the largest values of NEW.  For the value count only values that
 * appear or disappear count (grown/shrunk are then numbers of values).
 */
static void find_contributors(struct eval *e, struct hd_verdict *vd)
{
	const struct hd_rule *rule = vd->rule;
	int presence = rule->metric.source == HD_MSRC_VALUE_COUNT;
	struct hd_contrib top[HD_VERDICT_TOP];
	int64_t keys[HD_VERDICT_TOP];
	uint32_t n = 0, i;
	size_t k;

	for (k = 0; k < e->df->values.len; k++) {
		const struct hd_value_diff *x =
			&HD_VEC_AT(&e->df->values, struct hd_value_diff, k);
		int in_old = value_present(e, OLD, x->old_v);
		int in_new = value_present(e, NEW, x->new_v);
		struct hd_contrib c;

		if (presence && in_old == in_new)
			continue;
		c.vd = x;
		c.old_bytes = counted(e, &rule->metric, OLD, x->old_v);
		c.new_bytes = counted(e, &rule->metric, NEW, x->new_v);
		c.delta = hd_delta(c.old_bytes, c.new_bytes);
		c.waived = (x->old_v != HD_NONE && is_waived(e, OLD, x->old_v)) ||
			(x->new_v != HD_NONE && is_waived(e, NEW, x->new_v));
		if (presence ? in_new : c.delta > 0) {
			vd->grown = hd_sat_add(vd->grown, presence ? 1 : c.delta);
			vd->n_grown++;
		} else if (presence || c.delta < 0) {
			vd->shrunk = hd_sat_add(vd->shrunk, presence ? -1 : c.delta);
			vd->n_shrunk++;
		}
		if (rule->cond == HD_COND_ABOVE ? c.new_bytes > 0 :
		    presence ? in_new : c.delta > 0)
			keep_top(top, keys, &n, &c,
				 rule->cond == HD_COND_ABOVE || presence ?
				 c.new_bytes : c.delta);
	}
	vd->contrib_first = (uint32_t)e->v->contribs.len;
	vd->n_contrib = n;
	for (i = 0; i < n; i++)
		*(struct hd_contrib *)hd_vec_push(&e->v->contribs) = top[i];
}

/* ---- evaluation --------------------------------------------------------- */

static const char *na_reason(struct eval *e, const struct mval *mv,
			     int need_old)
{
	int no_old = need_old && !mv->has[OLD], no_new = !mv->has[NEW];

	return hd_arena_printf(&e->v->arena, "%s %s %s",
			       no_old && no_new ? "OLD and NEW" : no_old ? "OLD" : "NEW",
			       no_old && no_new ? "have" : "has", mv->missing);
}

int hd_verdict_read_values(const struct hd_verdict *vd)
{
	return vd->result == HD_VERDICT_VIOLATED &&
	       vd->rule->metric.source != HD_MSRC_COPIES &&
	       vd->rule->metric.source != HD_MSRC_ALIASES;
}

static void eval_rule(struct eval *e, const struct hd_rule *rule)
{
	struct hd_verdict *vd = hd_vec_push(&e->v->verdicts);
	const struct hd_metric *m = &rule->metric;
	int need_old = rule->cond != HD_COND_ABOVE ||
		m->source == HD_MSRC_COPIES;
	const struct hd_rule *part;
	struct mval mv;
	int violated;

	for (part = rule->and_next; part; part = part->and_next)
		need_old |= part->cond != HD_COND_ABOVE;

	vd->rule = rule;
	metric_values(e, m, &mv);
	vd->has_old = mv.has[OLD];
	vd->has_new = mv.has[NEW];
	vd->old_v = mv.v[OLD];
	vd->new_v = mv.v[NEW];
	vd->delta = hd_delta(vd->old_v, vd->new_v);
	if (rule->cond == HD_COND_ANY_LOST) {
		int s;

		for (s = OLD; s <= NEW; s++)
			if (mv.has[s] && !aliases_numbered(e->d[s])) {
				mv.has[s] = 0;
				mv.missing = "no parameter numbers (a golden file: write it anew)";
			}
	}
	if (!mv.has[NEW] || (need_old && !mv.has[OLD])) {
		vd->result = HD_VERDICT_NA;
		vd->na_reason = na_reason(e, &mv, need_old);
		e->v->n_na++;
		return;
	}
	if (m->source == HD_MSRC_COPIES)
		list_new_copies(e, vd, m->copy_class);
	if (rule->cond == HD_COND_ANY_LOST)
		list_lost_aliases(e, vd);
	if (rule->cond == HD_COND_ANY_NEW)
		violated = vd->n_new_total > 0;
	else if (rule->cond == HD_COND_ANY_LOST)
		violated = vd->n_lost_total > 0;
	else
		violated = hd_rule_violated(rule, vd->old_v, vd->new_v,
					    &vd->allowed);
	vd->result = violated ? HD_VERDICT_VIOLATED : HD_VERDICT_PASS;
	if (hd_verdict_read_values(vd))
		find_contributors(e, vd);
	if (!violated)
		e->v->n_pass++;
	else if (rule->severity == HD_SEV_ERROR)
		e->v->n_error++;
	else
		e->v->n_warn++;
}

static void eval_init(struct eval *e, struct hd_verdicts *v)
{
	size_t i;

	for (i = 0; i < e->r->waivers.len; i++) {
		const struct hd_waiver *w = &HD_WAIVER(e->r, i);
		struct hd_waiver_use *u;

		if (!in_scope(e, w->module))
			continue;
		u = hd_vec_push(&v->waivers);
		u->waiver = w;
	}
	e->d[OLD] = e->df->old;
	e->d[NEW] = e->df->new_dump;
	e->f[OLD] = &e->df->fold;
	e->f[NEW] = &e->df->fnew;
	mark_waived_values(e, OLD);
	mark_waived_values(e, NEW);
	mark_waived_copies(e, OLD);
	mark_waived_copies(e, NEW);
	match_copies(e);
}

static void eval_release(struct eval *e)
{
	int s;

	for (s = OLD; s <= NEW; s++) {
		free(e->waived[s]);
		free(e->held[s]);
		free(e->stated[s]);
		free(e->recomputed[s]);
		free(e->copy_waived[s]);
		hd_sources_release(&e->sources[s]);
	}
	free(e->copy_matched);
	hd_vec_release(&e->buf);
}

struct hd_verdicts *hd_rules_eval(const struct hd_rules *r,
				  const struct hd_diff *df,
				  const char *module_name)
{
	struct hd_verdicts *v = hd_xcalloc(1, sizeof(*v));
	struct eval e = { .r = r, .df = df, .v = v, .buf = HD_VEC_INIT(char) };
	size_t i;

	v->rules = r;
	v->df = df;
	v->verdicts.elem = sizeof(struct hd_verdict);
	v->contribs.elem = sizeof(struct hd_contrib);
	v->new_copies.elem = sizeof(uint32_t);
	v->waivers.elem = sizeof(struct hd_waiver_use);
	v->lost.elem = sizeof(struct hd_lost_alias);
	if (module_name)
		v->module = hd_arena_strndup(&v->arena, module_name,
					     strlen(module_name));
	e.module = v->module;
	eval_init(&e, v);
	for (i = 0; i < r->rules.len; i++)
		if (in_scope(&e, HD_RULE(r, i).module))
			eval_rule(&e, &HD_RULE(r, i));
	eval_release(&e);
	return v;
}

void hd_verdicts_free(struct hd_verdicts *v)
{
	if (!v)
		return;
	hd_vec_release(&v->verdicts);
	hd_vec_release(&v->contribs);
	hd_vec_release(&v->new_copies);
	hd_vec_release(&v->waivers);
	hd_vec_release(&v->lost);
	hd_arena_release(&v->arena);
	free(v);
}

int hd_verdicts_status(const struct hd_verdicts *v, int werror)
{
	return v->n_error || (werror && v->n_warn);
}
