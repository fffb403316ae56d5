/*
 * match.c - pairs the values of two dumps (see match.h).
 *
 * Every pass looks only at values that earlier passes left unpaired.
 * Grouping by a key uses one hash table per pass (struct hd_table with
 * 64-bit keys); groups are visited in the order of their first old
 * member in schedule order, so the result never depends on hash order.
 *
 * Schedule order of a value: live-range start (or, without a live range,
 * the sequence position of its instruction), then sequence position, then
 * HloValue id.  Its "place" is its rank in that order divided by the
 * number of values, a number in [0, 1) comparable across the two dumps.
 */
#include "hlodiff/match.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/canon.h"
#include "hlodiff/table.h"

/* One side (old or new) of the match. */
struct side {
	const struct hd_dump *d;
	struct hd_canon c;
	uint32_t n;
	uint32_t *order;     /* values in schedule order */
	uint32_t *rank;      /* value -> position in order */
	uint32_t *group;     /* value -> group of the current pass, HD_NONE */
	uint32_t *slot;      /* value -> place in its group's member list */
	uint32_t *partner;   /* the match's old_to_new or new_to_old */
};

struct group {
	uint32_t n_old, n_new;
	uint32_t first_old, first_new;  /* lowest-ranked members */
	uint32_t at_old, at_new;        /* offsets of the member lists */
};

struct mctx {
	struct hd_match *m;
	struct side o, n;
	struct hd_arena arena;
	struct hd_vec groups;           /* struct group */
	uint32_t *olist, *nlist;        /* members, by group, rank order */
};

const char *hd_match_how_name(enum hd_match_how how)
{
	static const char *const names[HD_MATCH_HOW_COUNT] = {
		"none", "exact", "structural", "canonical", "loose",
		"schedule", "name",
	};

	return (unsigned)how < HD_MATCH_HOW_COUNT ? names[how] : "?";
}

/* ------------------------------------------------------------------ */
/* Schedule order                                                      */

struct order_key {
	int64_t start, seq, id;
	uint32_t v;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

/* Sorts the values of one side into schedule order (see top). */
static void side_order(struct side *s)
{
	struct order_key *k = hd_xmalloc((s->n ? s->n : 1) * sizeof(*k));
	uint32_t i;

	for (i = 0; i < s->n; i++) {
		const struct hd_value *v = &HD_VALUE(s->d, i);
		int64_t seq = s->c.value_seq[i];

		k[i].seq = seq >= 0 ? seq : INT64_MAX;
		k[i].start = (v->flags & HD_VALUE_LIVE) ? v->live_start : k[i].seq;
		k[i].id = v->id;
		k[i].v = i;
	}
	qsort(k, s->n, sizeof(*k), cmp_order);
	for (i = 0; i < s->n; i++) {
		s->order[i] = k[i].v;
		s->rank[k[i].v] = i;
	}
	free(k);
}

static double place(const struct side *s, uint32_t v)
{
	return (double)s->rank[v] / (double)(s->n ? s->n : 1);
}

/* ------------------------------------------------------------------ */
/* Pairing and grouping                                                */

static void pair(struct mctx *x, uint32_t o, uint32_t n,
		 enum hd_match_how how)
{
	x->o.partner[o] = n;
	x->n.partner[n] = o;
	x->m->how[o] = (uint8_t)how;
	x->m->count[how]++;
}

static int free_old(const struct mctx *x, uint32_t o)
{
	return x->o.partner[o] == HD_NONE;
}

static int free_new(const struct mctx *x, uint32_t n)
{
	return x->n.partner[n] == HD_NONE;
}

static struct group *grp(struct mctx *x, uint32_t g)
{
	return &HD_VEC_AT(&x->groups, struct group, g);
}

/*
 * Groups the unpaired values of both sides by key (okey per old value,
 * nkey per new value) and fills the member lists in schedule order.
 * Groups exist for keys that have at least one old member; new values
 * with no such key get HD_NONE.
 */
static void group_by(struct mctx *x, const uint64_t *okey,
		     const uint64_t *nkey)
{
	struct hd_table t;
	uint32_t r, g, at_o = 0, at_n = 0;

	hd_table_init(&t, &x->arena);
	x->groups.len = 0;
	for (r = 0; r < x->o.n; r++) {
		uint32_t v = x->o.order[r];

		x->o.group[v] = HD_NONE;
		if (!free_old(x, v))
			continue;
		g = hd_table_put_i64(&t, (int64_t)okey[v],
				     (uint32_t)x->groups.len);
		if (g == HD_NONE) {
			struct group *ng = hd_vec_push(&x->groups);

			g = (uint32_t)x->groups.len - 1;
			ng->first_old = v;
			ng->first_new = HD_NONE;
		}
		grp(x, g)->n_old++;
		x->o.group[v] = g;
	}
	for (r = 0; r < x->n.n; r++) {
		uint32_t v = x->n.order[r];

		x->n.group[v] = HD_NONE;
		if (!free_new(x, v))
			continue;
		g = hd_table_get_i64(&t, (int64_t)nkey[v]);
		if (g == HD_NONE)
			continue;
		if (grp(x, g)->n_new++ == 0)
			grp(x, g)->first_new = v;
		x->n.group[v] = g;
	}
	hd_table_release(&t);
	/* Member lists: offsets, then fill in rank order. */
	for (g = 0; g < x->groups.len; g++) {
		struct group *p = grp(x, g);

		p->at_old = at_o;
		p->at_new = at_n;
		at_o += p->n_old;
		at_n += p->n_new;
	}
	{
		uint32_t *fo = hd_xcalloc(x->groups.len + 1, sizeof(uint32_t));
		uint32_t *fn = hd_xcalloc(x->groups.len + 1, sizeof(uint32_t));

		for (r = 0; r < x->o.n; r++) {
			uint32_t v = x->o.order[r];

			g = x->o.group[v];
			if (g == HD_NONE)
				continue;
			x->o.slot[v] = fo[g];
			x->olist[grp(x, g)->at_old + fo[g]++] = v;
		}
		for (r = 0; r < x->n.n; r++) {
			uint32_t v = x->n.order[r];

			g = x->n.group[v];
			if (g == HD_NONE)
				continue;
			x->n.slot[v] = fn[g];
			x->nlist[grp(x, g)->at_new + fn[g]++] = v;
		}
		free(fo);
		free(fn);
	}
}

/* Pairs every group that has exactly one member on each side. */
static void pass_unique(struct mctx *x, const uint64_t *okey,
			const uint64_t *nkey, enum hd_match_how how)
{
	uint32_t g;

	group_by(x, okey, nkey);
	for (g = 0; g < x->groups.len; g++) {
		const struct group *p = grp(x, g);

		if (p->n_old == 1 && p->n_new == 1)
			pair(x, p->first_old, p->first_new, how);
	}
}

static double dist(double a, double b)
{
	return a > b ? a - b : b - a;
}

/*
 * Aligns the members of one group in schedule order.  Equal counts pair
 * in order; otherwise a two-pointer walk skips, on the longer side, a
 * member whose successor is closer in place to the other side's
 * current member.  Linear in the group size.
 */
static void align_group(struct mctx *x, const struct group *p,
			enum hd_match_how how)
{
	const uint32_t *ol = x->olist + p->at_old;
	const uint32_t *nl = x->nlist + p->at_new;
	uint32_t i = 0, j = 0, m = p->n_old, n = p->n_new;

	while (i < m && j < n) {
		uint32_t ro = m - i, rn = n - j;
		double po = place(&x->o, ol[i]), pn = place(&x->n, nl[j]);

		if (ro > rn && dist(place(&x->o, ol[i + 1]), pn) < dist(po, pn)) {
			i++;
			continue;
		}
		if (rn > ro && dist(place(&x->n, nl[j + 1]), po) < dist(po, pn)) {
			j++;
			continue;
		}
		pair(x, ol[i], nl[j], how);
		i++;
		j++;
	}
}

static void pass_align(struct mctx *x, const uint64_t *okey,
		       const uint64_t *nkey)
{
	uint32_t g;

	group_by(x, okey, nkey);
	for (g = 0; g < x->groups.len; g++) {
		const struct group *p = grp(x, g);

		if (p->n_old > 0 && p->n_new > 0)
			align_group(x, p, HD_MATCH_SCHEDULE);
	}
}

/* The new value with the same name{index} as old value o, or HD_NONE. */
static uint32_t same_name(const struct mctx *x, uint32_t o)
{
	return hd_dump_value_by_key(x->n.d, HD_VALUE(x->o.d, o).key);
}

/*
 * Same name{index} and same structural hash.  Within a structural group
 * of equal size on both sides (identical computations) the name is
 * trusted only where it agrees with the schedule-order alignment of the
 * group; the others are left to the schedule pass.
 */
static void pass_exact(struct mctx *x)
{
	uint32_t r;

	group_by(x, x->o.c.value_struct, x->n.c.value_struct);
	for (r = 0; r < x->o.n; r++) {
		uint32_t o = x->o.order[r], w, g;
		const struct group *p;

		if (!free_old(x, o))
			continue;
		w = same_name(x, o);
		if (w == HD_NONE || !free_new(x, w) ||
		    x->o.c.value_struct[o] != x->n.c.value_struct[w])
			continue;
		g = x->o.group[o];
		p = grp(x, g);
		/* in-order partner of o within a tied group */
		if (p->n_old == p->n_new && p->n_old > 1 &&
		    x->nlist[p->at_new + x->o.slot[o]] != w)
			continue;
		pair(x, o, w, HD_MATCH_EXACT);
	}
}

/* Same name{index}, whatever the content. */
static void pass_name(struct mctx *x)
{
	uint32_t r;

	for (r = 0; r < x->o.n; r++) {
		uint32_t o = x->o.order[r], w;

		if (!free_old(x, o))
			continue;
		w = same_name(x, o);
		if (w != HD_NONE && free_new(x, w))
			pair(x, o, w, HD_MATCH_NAME);
	}
}

/* The old behaviour: exact name{index} only. */
static void pass_by_name_only(struct mctx *x)
{
	uint32_t o;

	for (o = 0; o < x->o.n; o++) {
		uint32_t w = same_name(x, o);

		if (w == HD_NONE || !free_new(x, w))
			continue;
		pair(x, o, w,
		     x->o.c.value_canon[o] == x->n.c.value_canon[w] ?
			     HD_MATCH_EXACT : HD_MATCH_NAME);
	}
}

static void side_init(struct side *s, const struct hd_dump *d,
		      uint32_t *partner)
{
	s->d = d;
	s->n = (uint32_t)d->values.len;
	hd_canon_compute(&s->c, d);
	s->order = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->rank = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->group = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->slot = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->partner = partner;
	side_order(s);
}

static void side_release(struct side *s)
{
	hd_canon_release(&s->c);
	free(s->order);
	free(s->rank);
	free(s->group);
	free(s->slot);
}

/* The cascade of match.h, strict to loose. */
static void cascade(struct mctx *x)
{
	const struct hd_canon *oc = &x->o.c, *nc = &x->n.c;

	pass_exact(x);
	pass_unique(x, oc->value_struct, nc->value_struct,
		    HD_MATCH_STRUCTURAL);
	pass_unique(x, oc->value_canon, nc->value_canon, HD_MATCH_CANONICAL);
	pass_unique(x, oc->value_loose, nc->value_loose, HD_MATCH_LOOSE);
	pass_unique(x, oc->value_named, nc->value_named, HD_MATCH_LOOSE);
	pass_unique(x, oc->value_shape, nc->value_shape, HD_MATCH_LOOSE);
	pass_align(x, oc->value_struct, nc->value_struct);
	pass_align(x, oc->value_canon, nc->value_canon);
	pass_align(x, oc->value_loose, nc->value_loose);
	pass_align(x, oc->value_named, nc->value_named);
	pass_align(x, oc->value_shape, nc->value_shape);
	pass_name(x);
}

int hd_match_values(struct hd_match *m, const struct hd_dump *old,
		    const struct hd_dump *new_dump, unsigned flags)
{
	struct mctx x;
	uint32_t i;

	memset(m, 0, sizeof(*m));
	memset(&x, 0, sizeof(x));
	m->n_old = (uint32_t)old->values.len;
	m->n_new = (uint32_t)new_dump->values.len;
	m->old_to_new = hd_xmalloc((m->n_old + 1) * sizeof(uint32_t));
	m->new_to_old = hd_xmalloc((m->n_new + 1) * sizeof(uint32_t));
	m->how = hd_xcalloc(m->n_old + 1, 1);
	for (i = 0; i < m->n_old; i++)
		m->old_to_new[i] = HD_NONE;
	for (i = 0; i < m->n_new; i++)
		m->new_to_old[i] = HD_NONE;

	x.m = m;
	x.arena = (struct hd_arena)HD_ARENA_INIT;
	x.groups = (struct hd_vec)HD_VEC_INIT(struct group);
	side_init(&x.o, old, m->old_to_new);
	side_init(&x.n, new_dump, m->new_to_old);
	x.olist = hd_xmalloc((x.o.n + 1) * sizeof(uint32_t));
	x.nlist = hd_xmalloc((x.n.n + 1) * sizeof(uint32_t));

	if (flags & HD_MATCH_BY_NAME_ONLY)
		pass_by_name_only(&x);
	else
		cascade(&x);

	for (i = 0; i < m->n_old; i++)
		if (m->old_to_new[i] == HD_NONE)
			m->n_removed++;
	for (i = 0; i < m->n_new; i++)
		if (m->new_to_old[i] == HD_NONE)
			m->n_added++;
	m->count[HD_MATCH_NONE] = m->n_removed;

	side_release(&x.o);
	side_release(&x.n);
	free(x.olist);
	free(x.nlist);
	hd_vec_release(&x.groups);
	hd_arena_release(&x.arena);
	return 0;
}

void hd_match_release(struct hd_match *m)
{
	free(m->old_to_new);
	free(m->new_to_old);
	free(m->how);
	memset(m, 0, sizeof(*m));
}
