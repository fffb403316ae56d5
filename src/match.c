/*
 * match.c - pairs the values of two dumps (see match.h).
 *
 * Grouping by a key uses a hash index from the 64-bit key to the group
 * (see struct part); groups are numbered in the order of their
 * first old member in schedule order, so the result never depends on
 * hash order.
 *
 * Every pass pairs values only inside a group, and a group's pairs
 * depend on nothing but its own members.  So a pass runs as two "parts",
 * on two threads when it is big, each with the groups of half the keys
 * (split by a bit of the mixed key, not by thread timing): the pairs are
 * the same as with one part.
 *
 * A value's "place" is its rank in schedule order (match.h) divided by
 * the number of values, a number in [0, 1) comparable across the two
 * dumps.
 */
#include "hlodiff/match.h"
#include "hlodiff/keysort.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/bytes.h"
#include "hlodiff/canon.h"
#include "hlodiff/figures.h"
#include "hlodiff/index.h"
#include "hlodiff/parallel.h"
#include "hlodiff/diag.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* One side (old or new) of the match. */
struct side {
	const struct hd_dump *d;
	struct hd_canon c;
	uint32_t n;
	uint32_t *rank;      /* value -> position in order */
	uint32_t *free_list; /* unpaired values in schedule order */
	uint64_t *keys;      /* the current pass's key of free_list[r] */
	uint32_t n_free;
	uint32_t *partner;   /* the match's old_to_new or new_to_old */
	uint64_t *loose;     /* looser keys of the values unpaired when they
			      * were made: HD_LOOSE_COUNT per value, a row
			      * for each place of the free list then
			      * (the paired ones' rows are not written) */
	uint32_t *row;       /* by place r: the row of free_list[r] in
			      * loose (NULL before side_loose); kept in
			      * step with the free list as it shrinks */
	struct hd_vec mem;   /* where keys, rank and free_list are */
	struct hd_vec loose_mem; /* where loose is */
	uint64_t *kept;      /* hd_match_side_kept: in keys, which the
			      * match does not use before it starts */
};

/* One side prepared for the match (match.h). */
struct hd_match_side {
	struct side s;
};

/* The values of both sides with one key in a pass. */
struct group {
	uint64_t key;
	uint32_t n_old, n_new;
	uint32_t first_old, first_new;  /* lowest-ranked members */
	uint32_t at_old, at_new;        /* offsets of the member lists (while
					 * fill_lists fills them, their ends,
					 * moving down) */
};

/* 32 bytes, so that a group, read at random by each lookup, is in one
 * cache line. */
_Static_assert(sizeof(struct group) == 32, "struct group is 32 bytes");

struct mctx;

/*
 * The groups of one part of a pass (see top): the unpaired values whose
 * key is in the part, by their place r in the side's free list, and the
 * index from key to group (a group's key is its record's).  Arrays are
 * sized for all values of a side at the start, so a pass allocates
 * nothing but the index's growth past its largest pass so far.
 */
struct part {
	struct mctx *x;
	struct hd_index table;          /* key -> group */
	struct group *groups;           /* in order of first old member */
	struct hd_vec group_mem;        /* where groups is (see part_init) */
	struct hd_vec mem;              /* where the other arrays are */
	uint32_t n_groups;
	uint32_t *o_at, *n_at;          /* own places r, ascending */
	uint32_t *o_grp, *n_grp;        /* their groups (HD_NONE: none) */
	uint32_t n_o, n_n;
	uint32_t *olist, *nlist;        /* members, by group, rank order */
	uint32_t *lists;                /* where o_grp, olist, n_grp and
					 * nlist go (part_lists) */
	uint32_t n_olist, n_nlist;      /* their lengths */
	uint32_t count[HD_MATCH_HOW_COUNT]; /* pairs made by this part */
};

/*
 * Where a pass finds the key of the value at place r of the free list:
 * at[v * stride] of the value v there, in an array by value (the canon
 * hashes, stride 1), or (by_row) key k of the value's row of loose keys
 * (at = loose + k, stride HD_LOOSE_COUNT, row row[r]).
 */
struct keysrc {
	const uint64_t *at;
	size_t stride;
	int by_row;
	int sparse;             /* key 0: the value takes no part in the
				 * pass (it stays free) */
};

/* One pass over the groups of a key: what it needs and what it does. */
struct pass {
	struct keysrc okey, nkey;
	int lists;                      /* needs the member lists */
	enum hd_match_how how;
	void (*body)(struct part *p, const struct pass *ps);
};

struct mctx {
	struct hd_match *m;
	struct side o, n;
	struct part part[2];
	const struct pass *pass;        /* the one running */
	int labels_later;               /* HD_MATCH_LABELS_LATER */
};

/* In how[]: a structural pair whose names were not compared yet
 * (HD_MATCH_LABELS_LATER); hd_match_label tells exact from structural. */
#define LABEL_LATER 0x80

/* The part (0 or 1) of a key when a pass has two: its top bit once
 * more mixed, so that it does not follow the bits of its slot. */
static unsigned key_part(uint64_t key)
{
	return (unsigned)((key * 0x9e3779b97f4a7c15u) >> 63);
}

const char *hd_match_how_name(enum hd_match_how how)
{
	static const char *const names[HD_MATCH_HOW_COUNT] = {
		"none", "exact", "structural", "canonical", "loose",
		"schedule", "name", "graph",
	};

	return (unsigned)how < HD_MATCH_HOW_COUNT ? names[how] : "?";
}

/* ------------------------------------------------------------------ */
/* Schedule order                                                      */

/* Bits needed for x (0 for 0). */
static unsigned bit_width(uint64_t x)
{
	return x ? 64 - (unsigned)__builtin_clzll(x) : 0;
}

/* A value's id clamped to [0, 0xffffffff]. */
static uint64_t clamped_id(const struct hd_value *v)
{
	return v->id < 0 ? 0 : v->id > 0xffffffff ? 0xffffffff :
						     (uint64_t)v->id;
}

/* A value's live start + 1 clamped to 0xfffffffe, or HD_NONE without a
 * live range. */
static uint64_t sched_start(const struct hd_value *v)
{
	if (!(v->flags & HD_VALUE_LIVE) || v->live_start < 0)
		return HD_NONE;
	return v->live_start < 0xfffffffe ? (uint64_t)v->live_start + 1 :
					    0xfffffffe;
}

/*
 * The block where side_loose puts the loose keys, room for a row for
 * every value: hd_match_side_order sorts in it first (16 bytes a
 * value, a row takes 36), so that the two write the same pages, not two
 * fresh blocks the kernel faults in and zeroes.
 */
static uint64_t *side_loose_block(struct side *s)
{
	_Static_assert(HD_LOOSE_COUNT * sizeof(uint64_t) + sizeof(uint32_t) >=
		       2 * sizeof(uint64_t), "a row holds two sort items");
	if (!s->loose_mem.data)
		hd_vec_block(&s->loose_mem, 1, ((size_t)s->n + 1) *
			     (HD_LOOSE_COUNT * sizeof(uint64_t) +
			      sizeof(uint32_t)));
	return s->loose_mem.data;
}

/*
 * Sorts the values of one side into schedule order: by live start + 1
 * (clamped to 0xfffffffe; values without a live range after all
 * others), then by id (clamped to [0, 0xffffffff]); ties in dump
 * order (the sort is stable).  Each item is one number: the value's
 * index in its low bits, above them the start and the id, each in as
 * few bits as its largest value needs, which keeps the items at 8 bytes
 * and the radix passes few.  Where the three do not fit in 64 bits
 * (hostile ids and starts), the items are sorted by id, then stably by
 * start.
 */
void hd_match_side_order(struct hd_match_side *ms)
{
	struct side *s = &ms->s;
	uint64_t *a = side_loose_block(s);
	uint64_t *tmp = a + s->n + 1;
	uint64_t *kept = s->keys;
	uint64_t *sorted;
	uint64_t max_start = 0, max_id = 0, v_mask;
	unsigned id_bits, start_bits, v_bits = bit_width(s->n);
	uint32_t i;

	for (i = 0; i < s->n; i++) {
		const struct hd_value *v = &HD_VALUE(s->d, i);
		uint64_t start = sched_start(v), id = clamped_id(v);

		if (start != HD_NONE && start > max_start)
			max_start = start;
		if (id > max_id)
			max_id = id;
		a[i] = start;
		tmp[i] = id; /* tmp is the sort's scratch, free till then */
		kept[i] = hd_figures_kept(v);
	}
	s->kept = kept;
	/* No live range sorts last: just after the latest start. */
	id_bits = bit_width(max_id);
	start_bits = bit_width(max_start + 1);
	v_mask = ((uint64_t)1 << v_bits) - 1;
	if (start_bits + id_bits + v_bits <= 64) {
		for (i = 0; i < s->n; i++) {
			uint64_t start = a[i] == HD_NONE ? max_start + 1 : a[i];
			a[i] = (start << id_bits | tmp[i]) << v_bits | i;
		}
		sorted = hd_key_radix_sort(a, tmp, s->n, v_bits, start_bits + id_bits);
	} else {
		uint64_t *other;

		for (i = 0; i < s->n; i++)
			a[i] = tmp[i] << v_bits | i;
		sorted = hd_key_radix_sort(a, tmp, s->n, v_bits, id_bits);
		other = sorted == a ? tmp : a;
		for (i = 0; i < s->n; i++) {
			uint32_t v = (uint32_t)(sorted[i] & v_mask);
			uint64_t start = sched_start(&HD_VALUE(s->d, v));

			if (start == HD_NONE)
				start = max_start + 1;
			sorted[i] = start << v_bits | v;
		}
		sorted = hd_key_radix_sort(sorted, other, s->n, v_bits, start_bits);
	}
	for (i = 0; i < s->n; i++) {
		uint32_t v = (uint32_t)(sorted[i] & v_mask);

		s->rank[v] = i;
		s->free_list[i] = v;
	}
	s->n_free = s->n;
}

static double place(const struct side *s, uint32_t v)
{
	return (double)s->rank[v] / (double)(s->n ? s->n : 1);
}

/* ------------------------------------------------------------------ */
/* Pairing and grouping                                                */

/* Pairs o and n; p counts it (each part writes only its own members'
 * entries). */
static void pair(struct part *p, uint32_t o, uint32_t n,
		 enum hd_match_how how)
{
	struct mctx *x = p->x;

	x->o.partner[o] = n;
	x->n.partner[n] = o;
	x->m->how[o] = (uint8_t)how;
	p->count[how & ~LABEL_LATER]++;
}

static int free_old(const struct mctx *x, uint32_t o)
{
	return x->o.partner[o] == HD_NONE;
}

static int free_new(const struct mctx *x, uint32_t n)
{
	return x->n.partner[n] == HD_NONE;
}

static struct keysrc by_value(const uint64_t *keys)
{
	struct keysrc ks = { keys, 1, 0, 0 };

	return ks;
}

static struct keysrc loose_key(const struct side *s, int k)
{
	struct keysrc ks = { s->loose + k, HD_LOOSE_COUNT, 1, 0 };

	return ks;
}

/* How far ahead side_keys fetches a value's partner entry and key: the
 * loop is short, and at 16 ahead the fetches came too late. */
#define KEYS_AHEAD 64

/* What side_keys works on, in locals: the stores through the arrays
 * would otherwise make the compiler load the side's fields again for
 * every value. */
struct keys_run {
	uint32_t *fl, *row, *a0, *a1;
	uint64_t *keys;
	const uint32_t *partner;
	const uint64_t *at;
	size_t stride;
	uint32_t n, k, n0, n1;
};

/* The loop of side_keys: the key found by row or by value (by_row),
 * the rows kept in step (rows), the values of key 0 left out
 * (sparse). */
static void keys_loop(struct keys_run *w, int by_row, int rows, int sparse)
{
	uint32_t *fl = w->fl, *row = w->row, *a0 = w->a0, *a1 = w->a1;
	uint64_t *keys = w->keys;
	const uint32_t *partner = w->partner;
	const uint64_t *at = w->at;
	size_t stride = w->stride;
	uint32_t i, k = 0, n0 = 0, n1 = 0, n = w->n;

	for (i = 0; i < n; i++) {
		uint32_t v = fl[i];
		uint64_t key;
		unsigned part;

		if (i + KEYS_AHEAD < n) {
			uint32_t va = fl[i + KEYS_AHEAD];

			__builtin_prefetch(&partner[va]);
			__builtin_prefetch(&at[(size_t)(by_row ? row[i + KEYS_AHEAD] :
							va) * stride]);
		}
		if (partner[v] != HD_NONE)
			continue;
		key = at[(size_t)(by_row ? row[i] : v) * stride];
		part = key_part(key);
		fl[k] = v;
		if (rows)
			row[k] = row[i];
		keys[k] = key;
		if (sparse && key == 0) {
			k++;
			continue;
		}
		a0[n0] = k;
		a1[n1] = k;
		n0 += part ^ 1;
		n1 += part;
		k++;
	}
	w->k = k;
	w->n0 = n0;
	w->n1 = n1;
}

/*
 * Drops the values paired since the last pass from the free list of s,
 * and takes the key of every value left, by place: one pass of
 * scattered reads with nothing waiting on them, instead of one inside
 * each hash step of each part.  The places r of the keys of each part
 * of a pass in two go to at[0] and at[1] (ascending), their numbers to
 * n_at[0] and n_at[1] (without a branch: both writes are always made,
 * and the count of the key's part grows).
 */
static void side_keys(struct side *s, const struct keysrc *ks,
		      uint32_t *const at[2], uint32_t n_at[2])
{
	struct keys_run w = { s->free_list, s->row, at[0], at[1], s->keys,
			      s->partner, ks->at, ks->stride, s->n_free,
			      0, 0, 0 };

	keys_loop(&w, ks->by_row, s->row != NULL, ks->sparse);
	s->n_free = w.k;
	n_at[0] = w.n0;
	n_at[1] = w.n1;
}

static void *old_keys_thread(void *arg)
{
	struct mctx *x = arg;
	uint32_t *const at[2] = { x->part[0].o_at, x->part[1].o_at };
	uint32_t n[2];

	side_keys(&x->o, &x->pass->okey, at, n);
	x->part[0].n_o = n[0];
	x->part[1].n_o = n[1];
	return NULL;
}

static void *new_keys_thread(void *arg)
{
	struct mctx *x = arg;
	uint32_t *const at[2] = { x->part[0].n_at, x->part[1].n_at };
	uint32_t n[2];

	side_keys(&x->n, &x->pass->nkey, at, n);
	x->part[0].n_n = n[0];
	x->part[1].n_n = n[1];
	return NULL;
}

static void part_init(struct part *p, struct mctx *x)
{
	memset(p, 0, sizeof(*p));
	p->x = x;
	/* a group per old value; the arrays of a side and of a part are
	 * each one block on 2 MiB pages where the kernel can (arena.h) */
	p->groups = hd_vec_block(&p->group_mem, sizeof(*p->groups), x->o.n + 1);
	p->table = (struct hd_index)HD_INDEX_INIT;
	p->o_at = hd_vec_block(&p->mem, 1, 3 * ((size_t)x->o.n + 1 + x->n.n + 1) *
			    sizeof(uint32_t));
	p->n_at = p->o_at + x->o.n + 1;
	p->lists = p->n_at + x->n.n + 1;
}

/*
 * The arrays of a pass after o_at and n_at, each as long as this pass
 * needs (part_run), one after the other: sized for all values of a side,
 * each would start pages of its own that the kernel zeroes, where a part
 * fills about half of each.
 */
static void part_lists(struct part *p)
{
	p->o_grp = p->lists;
	p->olist = p->o_grp + p->n_o + 1;
	p->n_grp = p->olist + p->n_o + 1;
	p->nlist = p->n_grp + p->n_n + 1;
}

static void part_release(struct part *p)
{
	hd_vec_release(&p->group_mem);
	hd_index_release(&p->table);
	hd_vec_release(&p->mem);
}

/* The key of group g (hd_index_key64_fn). */
static uint64_t group_key(const void *ctx, uint32_t g)
{
	return ((const struct group *)ctx)[g].key;
}

/* How far ahead group_old and group_new fetch the slot of a key: the
 * keys are random, so each lookup would wait for a cache miss. */
#define SLOT_AHEAD 16

/* Groups the part's old values: a group for each key, counts, first
 * members; o_grp[i] the group of the i-th. */
static void group_old(struct part *p)
{
	const struct side *s = &p->x->o;
	uint32_t i;

	for (i = 0; i < p->n_o; i++) {
		uint32_t r = p->o_at[i], g;
		uint64_t key = s->keys[r];

		if (i + SLOT_AHEAD < p->n_o)
			hd_index_prefetch(&p->table, hd_index_hash64(
				s->keys[p->o_at[i + SLOT_AHEAD]]));
		g = hd_index_put64(&p->table, key, p->n_groups, group_key,
				   p->groups);
		if (g == HD_NONE) {
			g = p->n_groups++;
			p->groups[g] = (struct group){
				key, 0, 0, s->free_list[r], HD_NONE, 0, 0 };
		}
		p->groups[g].n_old++;
		p->o_grp[i] = g;
	}
}

/* Finds the group of each of the part's new values (HD_NONE: no old
 * value has its key). */
static void group_new(struct part *p)
{
	const struct side *s = &p->x->n;
	uint32_t i;

	for (i = 0; i < p->n_n; i++) {
		uint32_t r = p->n_at[i], g;

		if (i + SLOT_AHEAD < p->n_n)
			hd_index_prefetch(&p->table, hd_index_hash64(
				s->keys[p->n_at[i + SLOT_AHEAD]]));
		g = hd_index_find64(&p->table, s->keys[r], group_key,
				    p->groups);
		p->n_grp[i] = g;
		if (g != HD_NONE && p->groups[g].n_new++ == 0)
			p->groups[g].first_new = s->free_list[r];
	}
}

/* The member lists of the part's groups, in schedule order: each
 * group's list is filled from its end down, by the members taken last
 * to first, which leaves at_old and at_new at the lists' starts. */
static void fill_lists(struct part *p)
{
	const uint32_t *ofree = p->x->o.free_list, *nfree = p->x->n.free_list;
	uint32_t i, g, at_o = 0, at_n = 0;

	for (g = 0; g < p->n_groups; g++) {
		struct group *q = &p->groups[g];

		at_o += q->n_old;
		at_n += q->n_new;
		q->at_old = at_o;
		q->at_new = at_n;
	}
	p->n_olist = at_o;
	p->n_nlist = at_n;
	for (i = p->n_o; i-- > 0;)
		p->olist[--p->groups[p->o_grp[i]].at_old] = ofree[p->o_at[i]];
	for (i = p->n_n; i-- > 0;) {
		g = p->n_grp[i];
		if (g != HD_NONE)
			p->nlist[--p->groups[g].at_new] = nfree[p->n_at[i]];
	}
}

/*
 * One part of the running pass: groups its share of the unpaired values
 * of both sides by key (okey per old value, nkey per new value; groups
 * exist for keys that have at least one old member), with the member
 * lists if the pass needs them, then runs the pass on its groups.
 */
static void *part_run(void *arg)
{
	struct part *p = arg;
	const struct mctx *x = p->x;

	p->n_groups = 0;
	hd_index_reset(&p->table, p->n_o);
	part_lists(p);
	group_old(p);
	group_new(p);
	if (x->pass->lists)
		fill_lists(p);
	x->pass->body(p, x->pass);
	return NULL;
}

/* Below this many unpaired old values a pass runs on one thread. */
#define TWO_PARTS_MIN 8192

/* Pairs every group that has exactly one member on each side (its
 * first ones: no member lists needed). */
static void unique_body(struct part *p, const struct pass *ps)
{
	uint32_t g;

	for (g = 0; g < p->n_groups; g++) {
		const struct group *q = &p->groups[g];

		if (q->n_old == 1 && q->n_new == 1)
			pair(p, q->first_old, q->first_new, ps->how);
	}
}

/* Runs the pass of body over the values still unpaired, grouped by okey
 * and nkey (every body but unique_body reads the member lists). */
static void run_pass(struct mctx *x, struct keysrc okey, struct keysrc nkey,
		     enum hd_match_how how,
		     void (*body)(struct part *p, const struct pass *ps))
{
	struct pass ps = { okey, nkey, body != unique_body, how, body };

	/* The free lists as the last pass left them decide whether the
	 * keys are taken on two threads, the lists without the values it
	 * paired whether the two parts run on two (either way gives the
	 * same pairs). */
	x->pass = &ps;
	hd_run_two(old_keys_thread, x, new_keys_thread, x,
		   x->o.n_free >= TWO_PARTS_MIN);
	hd_run_two(part_run, &x->part[0], part_run, &x->part[1],
		   x->o.n_free >= TWO_PARTS_MIN);
	x->pass = NULL;
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
static void align_group(struct part *p, const struct group *q,
			enum hd_match_how how)
{
	const struct mctx *x = p->x;
	const uint32_t *ol = p->olist + q->at_old;
	const uint32_t *nl = p->nlist + q->at_new;
	uint32_t i = 0, j = 0, m = q->n_old, n = q->n_new;

	while (i < m && j < n) {
		uint32_t ro = m - i, rn = n - j;
		double po = place(&x->o, ol[i]), pn = place(&x->n, nl[j]);
		double d = dist(po, pn);

		if (ro > rn && dist(place(&x->o, ol[i + 1]), pn) < d) {
			i++;
			continue;
		}
		if (rn > ro && dist(place(&x->n, nl[j + 1]), po) < d) {
			j++;
			continue;
		}
		pair(p, ol[i], nl[j], how);
		i++;
		j++;
	}
}

static void align_body(struct part *p, const struct pass *ps)
{
	uint32_t g;

	for (g = 0; g < p->n_groups; g++) {
		const struct group *q = &p->groups[g];

		if (q->n_old > 0 && q->n_new > 0)
			align_group(p, q, ps->how);
	}
}

/* The new value with the same name{index} as old value o, or HD_NONE. */
static uint32_t same_name(const struct mctx *x, uint32_t o)
{
	return hd_dump_value_by_key(x->n.d, hd_value_key_of(&HD_VALUE(x->o.d, o)));
}

static int same_key(const struct mctx *x, uint32_t o, uint32_t n)
{
	return hd_slice_eq(hd_value_key_of(&HD_VALUE(x->o.d, o)),
			   hd_value_key_of(&HD_VALUE(x->n.d, n)));
}

/*
 * Pairs the free members of group q when exactly one is left on each
 * side: "exact" when the names agree, else how.
 */
static void pair_last(struct part *p, const struct group *q,
		      enum hd_match_how how)
{
	const struct mctx *x = p->x;
	uint32_t k, o = HD_NONE, n = HD_NONE, fo = 0, fn = 0;

	for (k = 0; k < q->n_old; k++)
		if (free_old(x, p->olist[q->at_old + k])) {
			o = p->olist[q->at_old + k];
			fo++;
		}
	for (k = 0; k < q->n_new; k++)
		if (free_new(x, p->nlist[q->at_new + k])) {
			n = p->nlist[q->at_new + k];
			fn++;
		}
	if (fo == 1 && fn == 1)
		pair(p, o, n, same_key(x, o, n) ? HD_MATCH_EXACT : how);
}

/*
 * A cursor that prefetches, ahead of exact_body, what comparing the keys
 * of the members of a list reads: each member's value record, and once
 * that is in (half as far ahead), its name's text (an index other than
 * "{}" follows it): the members are scattered over the dump.
 */
struct member_fetch {
	const struct hd_dump *d;
	const uint32_t *list;
	uint32_t n, rec, text;          /* length, places fetched */
};

#define MEMBERS_AHEAD 16

/* Skips the cursor ahead to place at (nothing before it is read). */
static void skip_members(struct member_fetch *f, uint32_t at)
{
	if (f->rec < at)
		f->rec = at;
	if (f->text < at)
		f->text = at;
}

/* Fetches for places up to just before `to` + MEMBERS_AHEAD. */
static void fetch_members(struct member_fetch *f, uint32_t to)
{
	uint32_t rec_to = to + MEMBERS_AHEAD, text_to = to + MEMBERS_AHEAD / 2;

	if (rec_to > f->n)
		rec_to = f->n;
	if (text_to > f->n)
		text_to = f->n;
	for (; f->rec < rec_to; f->rec++) {
		const struct hd_value *v = &HD_VALUE(f->d, f->list[f->rec]);

		__builtin_prefetch(&v->name);
	}
	for (; f->text < text_to; f->text++) {
		const struct hd_value *v = &HD_VALUE(f->d, f->list[f->text]);

		__builtin_prefetch(v->name.p);
	}
}

/*
 * The new values with the names of the old members of the groups whose
 * sizes differ on the two sides (exact_body looks their names up), by
 * place in olist: same_name of each, made a batch at a time so that the
 * cache misses of a lookup (the old record, its name's text, the index
 * slot, the new record and its text: scattered over two dumps) overlap
 * across the batch instead of coming one after the other.
 */
#define NAMES_BATCH 32

struct name_batch {
	const struct mctx *x;
	uint32_t *out;                  /* by place in olist */
	uint32_t n;
	uint32_t at[NAMES_BATCH];       /* places in olist */
	uint32_t hash[NAMES_BATCH];
	struct hd_slice key[NAMES_BATCH];
};

static void names_flush(struct name_batch *b, const uint32_t *olist)
{
	const struct hd_dump *od = b->x->o.d, *nd = b->x->n.d;
	const struct hd_index *ix = &nd->value_by_key;
	uint32_t i, c;

	for (i = 0; i < b->n; i++) {
		const struct hd_value *v = &HD_VALUE(od, olist[b->at[i]]);

		__builtin_prefetch(&v->name);
	}
	for (i = 0; i < b->n; i++) {
		const struct hd_value *v = &HD_VALUE(od, olist[b->at[i]]);

		__builtin_prefetch(v->name.p);
	}
	/* the key as hd_dump_value_by_key makes it (hd_value_key_of is
	 * normalised already) */
	for (i = 0; i < b->n; i++) {
		b->key[i] = hd_value_key_of(&HD_VALUE(od, olist[b->at[i]]));
		b->hash[i] = hd_index_hash(b->key[i]);
		hd_index_prefetch(ix, b->hash[i]);
	}
	for (i = 0; i < b->n; i++)
		if ((c = hd_index_first(ix, b->hash[i])) != HD_NONE)
			__builtin_prefetch(&HD_VALUE(nd, c).name);
	for (i = 0; i < b->n; i++)
		if ((c = hd_index_first(ix, b->hash[i])) != HD_NONE) {
			__builtin_prefetch(HD_VALUE(nd, c).name.p);
			__builtin_prefetch(&b->x->n.c.value_struct[c]);
			__builtin_prefetch(&b->x->n.partner[c]);
		}
	for (i = 0; i < b->n; i++)
		b->out[b->at[i]] = hd_dump_value_by_hash(nd, b->hash[i],
							  b->key[i]);
	b->n = 0;
}

/* Fills out[place] with same_name of the old member there, for the
 * members of the groups exact_body looks names up in. */
static void names_ahead(struct part *p, uint32_t *out)
{
	struct name_batch b;
	uint32_t g, k;

	b.x = p->x;
	b.out = out;
	b.n = 0;
	for (g = 0; g < p->n_groups; g++) {
		const struct group *q = &p->groups[g];

		if (q->n_new == 0 || q->n_old == q->n_new)
			continue;
		for (k = 0; k < q->n_old; k++) {
			b.at[b.n++] = q->at_old + k;
			if (b.n == NAMES_BATCH)
				names_flush(&b, p->olist);
		}
	}
	names_flush(&b, p->olist);
}

/*
 * The passes exact and structural (match.h) over the structural groups.
 * Names are looked up only in groups of unequal size, so the common
 * case costs no lookup.
 */
static void exact_body(struct part *p, const struct pass *ps)
{
	const struct mctx *x = p->x;
	struct member_fetch fo = { x->o.d, p->olist, p->n_olist, 0, 0 };
	struct member_fetch fn = { x->n.d, p->nlist, p->n_nlist, 0, 0 };
	/* o_grp is done with once the lists are made (fill_lists): it
	 * holds as many entries as olist */
	uint32_t *named = p->o_grp;
	uint32_t g, k;

	names_ahead(p, named);
	for (g = 0; g < p->n_groups; g++) {
		const struct group *q = &p->groups[g];

		/* With the labels left for later, the names of most
		 * groups (one member a side) are not read: no fetching
		 * ahead for them all then. */
		if (!x->labels_later) {
			fetch_members(&fo, q->at_old + q->n_old);
			fetch_members(&fn, q->at_new + q->n_new);
		}
		if (q->n_new == 0)
			continue;
		if (q->n_old == 1 && q->n_new == 1) {
			/* pair_last without its look at the partners: a
			 * member of the pass is free until its own group
			 * pairs it (the other branch pairs within the
			 * group only), so these two are */
			if (x->labels_later)
				pair(p, q->first_old, q->first_new,
				     (enum hd_match_how)(ps->how | LABEL_LATER));
			else
				pair(p, q->first_old, q->first_new,
				     same_key(x, q->first_old, q->first_new) ?
					     HD_MATCH_EXACT : ps->how);
			continue;
		}
		if (q->n_old == q->n_new) {
			/* a group of many identical computations (thousands
			 * on a large model) has its members fetched as the
			 * comparisons go; with the labels left for later,
			 * from its start on (the cursors skipped the
			 * groups before it) */
			if (x->labels_later) {
				skip_members(&fo, q->at_old);
				skip_members(&fn, q->at_new);
			}
			for (k = 0; k < q->n_old; k++) {
				uint32_t o = p->olist[q->at_old + k];
				uint32_t n = p->nlist[q->at_new + k];

				fetch_members(&fo, q->at_old + k + 1);
				fetch_members(&fn, q->at_new + k + 1);
				if (same_key(x, o, n))
					pair(p, o, n, HD_MATCH_EXACT);
			}
		} else {
			for (k = 0; k < q->n_old; k++) {
				uint32_t o = p->olist[q->at_old + k];
				uint32_t n = named[q->at_old + k];

				/* A new value with the key is in this group
				 * (and part) iff it was free at group_new;
				 * the key is checked first, as the other
				 * part may be pairing any other value. */
				if (n != HD_NONE &&
				    x->n.c.value_struct[n] ==
					    x->o.c.value_struct[o] &&
				    free_new(x, n))
					pair(p, o, n, HD_MATCH_EXACT);
			}
		}
		pair_last(p, q, ps->how);
	}
}

/* Same name{index}, whatever the content. */
static void pass_name(struct mctx *x)
{
	uint32_t r;

	/* The free list holds every unpaired value, in schedule order
	 * (passes only drop paired ones from it): the values of order
	 * that are free, without a look at the others. */
	for (r = 0; r < x->o.n_free; r++) {
		uint32_t o = x->o.free_list[r], w;

		if (!free_old(x, o))
			continue;
		w = same_name(x, o);
		if (w != HD_NONE && free_new(x, w))
			pair(&x->part[0], o, w, HD_MATCH_NAME);
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
		pair(&x->part[0], o, w,
		     x->o.c.value_struct[o] == x->n.c.value_struct[w] ?
			     HD_MATCH_EXACT : HD_MATCH_NAME);
	}
}

struct hd_match_side *hd_match_side_begin(const struct hd_dump *d)
{
	struct hd_match_side *ms = hd_xmalloc(sizeof(*ms));
	struct side *s = &ms->s;

	memset(s, 0, sizeof(*s));
	s->d = d;
	s->n = (uint32_t)d->values.len;
	s->keys = hd_vec_block(&s->mem, 1, ((size_t)s->n + 1) *
			    (sizeof(uint64_t) + 2 * sizeof(uint32_t)));
	s->rank = (uint32_t *)(s->keys + s->n + 1);
	s->free_list = s->rank + s->n + 1;
	return ms;
}

void hd_match_side_canon(struct hd_match_side *ms)
{
	struct side *s = &ms->s;

	hd_canon_compute(&s->c, s->d);
	/* The matcher needs the value hashes and the per-instruction parts
	 * of the loose keys, not the instructions' own hashes. */
	hd_canon_drop_insn_hashes(&s->c);
}

const uint64_t *hd_match_side_kept(const struct hd_match_side *ms)
{
	return ms->s.kept;
}

/*
 * Loose keys of the values still unpaired (hd_canon_loose), visited in
 * dump order, which follows the input text and so keeps the reads of
 * shapes close together.  They go in a row per place of the free list
 * (the rows of values paired by the last pass are left as they are),
 * so that a pass reads them in order of place (side_keys).  The row of
 * each place goes in row, which side_keys shrinks with the free list.
 * A thread's function: arg is the side.
 */
static void *side_loose(void *arg)
{
	struct side *s = arg;
	/* between passes, keys is scratch: a value's place, by value */
	uint32_t *place_of = (uint32_t *)(void *)s->keys;
	uint32_t v, r, n = s->n_free;
	struct hd_loose_cursor cur = { 0 };

	/* room for n + 1 rows: side_loose_block has n_free <= s->n */
	s->loose = side_loose_block(s);
	s->row = (uint32_t *)(s->loose + ((size_t)n + 1) * HD_LOOSE_COUNT);
	for (r = 0; r < n; r++) {
		place_of[s->free_list[r]] = r;
		s->row[r] = r;
	}
	for (v = 0; v < s->n; v++)
		if (s->partner[v] == HD_NONE)
			hd_canon_loose(&s->c, s->d, v,
				       &s->loose[(size_t)place_of[v] *
						 HD_LOOSE_COUNT], &cur);
	return NULL;
}

static void side_release(struct side *s)
{
	hd_vec_release(&s->loose_mem);
	hd_canon_release(&s->c);
	hd_vec_release(&s->mem);
}

/* ------------------------------------------------------------------ */
/* Shape as evidence: the graph passes                                  */

/*
 * What the graph passes know of a value left by the strict passes, none
 * of it its shape: its instruction's opcode, op_name, stripped name,
 * source and parameter number, its index, and its instruction's
 * operands (by instruction, HD_NONE when the name defines no record) and
 * users among the other free values' instructions.
 */
struct gval {
	uint64_t op, opn;       /* opcode hash; opcode mixed with op_name */
	uint64_t name, idx;     /* stripped name; index */
	uint64_t src, file;     /* source file and line; file alone; each
				 * with a parameter's number (insn_loose) */
	uint32_t insn;          /* its instruction, HD_NONE if unknown */
	uint32_t v;             /* the value */
	uint32_t ops_at, ops_n; /* its operands in gside.ops */
};

/* The keys of the graph passes (graph_key). */
enum gkey_kind {
	GK_BOTTOM,        /* operands + opcode/op_name */
	GK_BOTTOM_NAMED,  /* operands + opcode/op_name + stripped name */
	GK_META,          /* opcode/op_name + stripped name + source + param */
	GK_TOP,           /* a paired user's partner and operand position */
	GK_META_LOOSE,    /* opcode/op_name + source file + param */
	GK_BOTTOM_OPCODE, /* operands + opcode */
	GK_COUNT
};

/* One side's graph state (only the free values have entries). */
struct gside {
	struct side *s;
	uint32_t n_insns, nf;
	struct gval *gv;        /* nf entries */
	uint32_t *slot;         /* value -> its gv entry, HD_NONE */
	uint32_t *todo;         /* entries not anchored yet (graph_anchors_more) */
	uint32_t *by_insn;      /* entries, for gside_names: in the order of
				 * their instructions (the dump's order) */
	uint32_t n_todo;
	int named;              /* gside_names has read the names */
	uint32_t *ops;          /* operand instructions: canonical hashing's
				 * links (links), else read from the text */
	struct hd_vec text_ops; /* where ops is without links */
	int links;              /* ops is the canon's insn_ops */
	uint64_t param_op;      /* the opcode hash of "parameter" */
	uint32_t *anchor;       /* instruction -> its partner's instruction
				 * (old side) or itself (new side) when
				 * one of its values is paired, else HD_NONE */
	uint32_t *use_at;       /* instruction -> first of its users in uses
				 * (n_insns + 1 offsets) */
	uint64_t *uses;         /* users: gv entry << 8 | operand position */
	uint64_t *key;          /* the running key, by value */
	int sources_only;       /* keys only for values whose operands are
				 * all paired (or none is an instruction) */
	/* by key kind (and for ties, by sources_only): the number of pairs
	 * made when its step last paired nothing, UINT32_MAX before; its
	 * step then pairs nothing again until another pair is made */
	uint32_t quiet[3][GK_COUNT];
};

/* Folds x into h (the graph keys are made per value and pass: inline,
 * where canon's mix is a call). */
static inline uint64_t gmix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdu;
	return h ^ (h >> 32);
}

static uint64_t ghash(struct hd_slice s)
{
	return XXH3_64bits(s.p, s.n);
}


/* A golden's operands (golden.c): for each operand how many
 * instructions before instruction `at` its own is: a digit or letter
 * for 1 to 61 (1-9, a-z, A-Z), else the number in parentheses; '?'
 * for none. */
static void gside_golden_operands(struct gside *g, struct hd_slice t,
				  uint32_t at)
{
	size_t i = 0;

	while (i < t.n) {
		char c = t.p[i++];
		int64_t k = -1;
		uint32_t j = HD_NONE;

		if (c >= '1' && c <= '9')
			k = c - '0';
		else if (c >= 'a' && c <= 'z')
			k = 10 + (c - 'a');
		else if (c >= 'A' && c <= 'Z')
			k = 36 + (c - 'A');
		else if (c == '(') {
			int neg = i < t.n && t.p[i] == '-';

			i += (size_t)neg;
			for (k = 0; i < t.n && t.p[i] >= '0' && t.p[i] <= '9' &&
				    k < ((int64_t)1 << 40); i++)
				k = 10 * k + (t.p[i] - '0');
			while (i < t.n && t.p[i++] != ')')
				;
			k = neg ? -k : k;
			if (k == -1)    /* a one after: not "none" */
				j = at + 1 < g->n_insns ? at + 1 : HD_NONE;
		}
		if (k != -1 && (int64_t)at - k >= 0 &&
		    (int64_t)at - k < (int64_t)g->n_insns)
			j = (uint32_t)((int64_t)at - k);
		*(uint32_t *)hd_vec_push(&g->text_ops) = j;
	}
}

/* The instructions named by %NAME in the operand list of instruction
 * at (string literals skipped), appended to g->text_ops: for a dump whose
 * canonical hashes kept no operand links (a golden's stored hashes). */
static void gside_operands(struct gside *g, struct hd_slice t, uint32_t at)
{
	const struct hd_dump *d = g->s->d;
	const char *p = t.p, *end = t.p + t.n, *q;

	/* (a golden's copy-start keeps its operand's %name) */
	if (t.n && t.p[0] != '%') {
		gside_golden_operands(g, t, at);
		return;
	}
	/* string literals (rare in operand lists) may hold a '%' */
	q = t.n ? memchr(p, '"', t.n) : NULL;
	while (p < end) {
		const char *pc = memchr(p, '%', (size_t)(end - p)), *e;

		if (!pc)
			break;
		if (q && q < pc) {
			for (p = q + 1; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			p = p < end ? p + 1 : end;
			q = p < end ? memchr(p, '"', (size_t)(end - p)) : NULL;
			continue;
		}
		for (e = ++pc; e < end && hd_name_char[(unsigned char)*e]; e++)
			;
		*(uint32_t *)hd_vec_push(&g->text_ops) = hd_dump_insn_by_name(
			d, hd_slice_make(pc, (size_t)(e - pc)));
		p = e;
	}
}

/* The number of values of s not paired yet. */
static uint32_t side_unpaired(const struct side *s)
{
	uint32_t r, n = 0;

	for (r = 0; r < s->n_free; r++)
		n += s->partner[s->free_list[r]] == HD_NONE;
	return n;
}

/* The arrays of g for side s with nf free values. */
static void gside_alloc(struct gside *g, struct side *s, uint32_t nf)
{
	uint32_t f;

	memset(g, 0, sizeof(*g));
	g->s = s;
	g->nf = nf;
	g->n_insns = (uint32_t)s->d->insns.len;
	g->slot = hd_xmalloc(((size_t)s->n + 1) * sizeof(*g->slot));
	memset(g->slot, 0xff, ((size_t)s->n + 1) * sizeof(*g->slot));
	g->key = hd_xmalloc(((size_t)s->n + 1) * sizeof(*g->key));
	g->anchor = hd_xmalloc(((size_t)g->n_insns + 1) * sizeof(*g->anchor));
	g->gv = hd_xcalloc((size_t)nf + 1, sizeof(*g->gv));
	g->todo = hd_xmalloc(2 * ((size_t)nf + 1) * sizeof(*g->todo));
	g->by_insn = g->todo + nf + 1;
	for (f = 0; f < nf; f++)
		g->todo[f] = f;
	g->n_todo = nf;
	memset(g->quiet, 0xff, sizeof(g->quiet));
	/* canonical hashing's operand links, else the text's (a golden) */
	g->links = s->c.insn_ops_at != NULL;
	g->param_op = hd_hash64(hd_slice_make("parameter", 9));
	g->text_ops.elem = sizeof(uint32_t);
}

/* The features of free value v's entry e (instruction i, known). */
static void gside_value(struct gside *g, struct gval *e, uint32_t i)
{
	const struct side *s = g->s;
	const struct hd_insn *in = &HD_INSN(s->d, i);
	const uint64_t *loose = &s->c.insn_loose[HD_LOOSE_PARTS * (size_t)i];

	e->op = loose[0];
	e->opn = loose[1];
	e->src = loose[2];
	e->file = loose[3];
	/* a parameter's operand is its number (in src and file) */
	if (e->op == g->param_op)
		return;
	if (g->links) {
		e->ops_at = s->c.insn_ops_at[i];
		e->ops_n = s->c.insn_ops_at[i + 1] - e->ops_at;
	} else {
		e->ops_at = (uint32_t)g->text_ops.len;
		gside_operands(g, in->operands, i);
		e->ops_n = (uint32_t)g->text_ops.len - e->ops_at;
	}
}

/* The users of the free values' instructions (struct gside's use_at,
 * uses), by instruction: a counting sort. */
static void gside_users(struct gside *g)
{
	uint32_t f, k, *cnt, *fill;

	g->use_at = hd_xcalloc((size_t)g->n_insns + 2, sizeof(*g->use_at));
	cnt = g->use_at + 1;
	for (f = 0; f < g->nf; f++)
		for (k = 0; k < g->gv[f].ops_n && k < 256; k++) {
			uint32_t j = g->ops[g->gv[f].ops_at + k];

			if (j != HD_NONE)
				cnt[j]++;
		}
	for (k = 0; k < g->n_insns; k++)
		g->use_at[k + 1] += g->use_at[k];
	g->uses = hd_xmalloc(((size_t)g->use_at[g->n_insns] + 1) *
			     sizeof(*g->uses));
	fill = hd_xmalloc(((size_t)g->n_insns + 1) * sizeof(*fill));
	memcpy(fill, g->use_at, (size_t)g->n_insns * sizeof(*fill));
	for (f = 0; f < g->nf; f++)
		for (k = 0; k < g->gv[f].ops_n && k < 256; k++) {
			uint32_t j = g->ops[g->gv[f].ops_at + k];

			if (j != HD_NONE)
				g->uses[fill[j]++] = (uint64_t)f << 8 | k;
		}
	free(fill);
}

/* Puts g->by_insn in the order of the entries' instructions (a counting
 * sort; entries without one last). */
static void gside_by_insn(struct gside *g)
{
	uint32_t *at = hd_xcalloc((size_t)g->n_insns + 2, sizeof(*at)), f, i;

	for (f = 0; f < g->nf; f++)
		at[(g->gv[f].insn == HD_NONE ? g->n_insns : g->gv[f].insn) + 1]++;
	for (i = 0; i <= g->n_insns; i++)
		at[i + 1] += at[i];
	for (f = 0; f < g->nf; f++)
		g->by_insn[at[g->gv[f].insn == HD_NONE ? g->n_insns :
			     g->gv[f].insn]++] = f;
	free(at);
}

/* The features of the nf free values of side s (see struct gval). */
static void gside_init(struct gside *g, struct side *s, uint32_t nf)
{
	const struct hd_dump *d = s->d;
	uint32_t r, f = 0;

	gside_alloc(g, s, nf);
	for (r = 0; r < s->n_free; r++) {
		uint32_t v = s->free_list[r], i = s->c.value_insn[v];
		const struct hd_value *val;
		struct gval *e;

		if (s->partner[v] != HD_NONE)
			continue;
		e = &g->gv[f];
		g->slot[v] = f++;
		val = &HD_VALUE(d, v);
		e->v = v;
		/* "{}", most values' index, without a hash */
		e->idx = val->index_n == 2 ? 0x7b7d :
					     ghash(hd_value_index(val));
		e->insn = i < g->n_insns ? i : HD_NONE;
		if (e->insn != HD_NONE)
			gside_value(g, e, i);
	}
	g->ops = g->links ? s->c.insn_ops : g->text_ops.data;
	gside_by_insn(g);
	gside_users(g);
}


/* The hash of name without its unique-id parts (hd_canon_name). */
static uint64_t gside_name(char *buf, size_t cap, struct hd_slice name)
{
	size_t n = name.n <= cap ? hd_canon_name(buf, name) : 0;

	return n ? XXH3_64bits(buf, n) : ghash(name);
}

/*
 * The stripped names of the free values (GK_BOTTOM_NAMED on), read
 * when a key first needs them: the first key pairs most values, the
 * names are read only for those it leaves.
 */
static void gside_names(struct gside *g)
{
	const struct hd_dump *d = g->s->d;
	struct hd_input_pass pass[3] = HD_DUMP_PASS_SPARSE;
	char buf[256];
	const struct gval *prev = NULL;
	uint32_t t;

	/* the values of one tuple follow each other: their instruction is
	 * read once.  The text is read front to back, keeping a window of
	 * it resident (hd_dump_pass_at): the parser gave it back. */
	for (t = 0; t < g->nf; t++) {
		struct gval *e = &g->gv[g->by_insn[t]];

		if (e->insn == HD_NONE || g->s->partner[e->v] != HD_NONE)
			continue;
		if (prev && prev->insn == e->insn) {
			e->name = prev->name;
		} else {
			hd_dump_pass_at(d, pass, HD_INSN(d, e->insn).text.p);
			e->name = gside_name(buf, sizeof(buf),
					     HD_INSN(d, e->insn).name);
		}
		prev = e;
	}
	g->named = 1;
}

static void gside_release(struct gside *g)
{
	free(g->gv);
	free(g->todo);
	free(g->slot);
	hd_vec_release(&g->text_ops);
	free(g->anchor);
	free(g->use_at);
	free(g->uses);
	free(g->key);
}

/* Sets the anchors of old value v's instruction and its partner's. */
static void anchor_pair(struct gside *go, struct gside *gn, uint32_t v)
{
	uint32_t w = go->s->partner[v], i, j;

	if (w == HD_NONE)
		return;
	i = go->s->c.value_insn[v];
	j = gn->s->c.value_insn[w];
	if (i >= go->n_insns || j >= gn->n_insns)
		return;
	/* the lowest partner, whatever the order of the values */
	if (j < go->anchor[i])
		go->anchor[i] = j;
	gn->anchor[j] = j;
}

/* The anchors of the pairs made since the last call, from the free
 * values of the old side (a pair has a member on each side). */
static void graph_anchors_more(struct gside *go, struct gside *gn)
{
	uint32_t t, k = 0;

	for (t = 0; t < go->n_todo; t++) {
		uint32_t f = go->todo[t];

		if (go->s->partner[go->gv[f].v] != HD_NONE)
			anchor_pair(go, gn, go->gv[f].v);
		else
			go->todo[k++] = f;
	}
	go->n_todo = k;
}

/* The anchors (struct gside) of both sides from the pairs made so far. */
static void graph_anchors(struct gside *go, struct gside *gn)
{
	uint32_t v;

	memset(go->anchor, 0xff, ((size_t)go->n_insns + 1) * sizeof(uint32_t));
	memset(gn->anchor, 0xff, ((size_t)gn->n_insns + 1) * sizeof(uint32_t));
	for (v = 0; v < go->s->n; v++)
		anchor_pair(go, gn, v);
}


/* Mixes the anchored operands of e into h; 0 when none is anchored (the
 * key then says nothing of the graph). */
static uint64_t graph_operands(const struct gside *g, const struct gval *e,
			       uint64_t h)
{
	uint32_t k, anchored = 0;

	h = gmix(h, e->ops_n);
	for (k = 0; k < e->ops_n; k++) {
		uint32_t j = g->ops[e->ops_at + k];
		uint32_t a = j == HD_NONE ? HD_NONE : g->anchor[j];

		h = gmix(h, a == HD_NONE ? 0x5bd1e995u : (uint64_t)a + 1);
		anchored += a != HD_NONE;
	}
	return anchored ? h : 0;
}

/* The key of free value entry e, or 0 when it has none. */
static uint64_t graph_key(const struct gside *g, const struct gval *e,
			  enum gkey_kind kind)
{
	uint64_t h = gmix((uint64_t)kind + 0x9e37, e->idx);

	if (e->insn == HD_NONE)
		return 0;
	switch (kind) {
	case GK_BOTTOM_NAMED:
		return graph_operands(g, e, gmix(gmix(h, e->opn), e->name));
	case GK_META:
		h = gmix(gmix(h, e->opn), e->name);
		return gmix(h, e->src);
	case GK_BOTTOM:
		return graph_operands(g, e, gmix(h, e->opn));
	case GK_META_LOOSE:
		if (!e->file)
			return 0;
		return gmix(gmix(h, e->opn), e->file);
	case GK_BOTTOM_OPCODE:
		return graph_operands(g, e, gmix(h, e->op));
	case GK_TOP: {
		uint64_t best = UINT64_MAX;
		uint32_t u;

		/* the user with the lowest anchor (the same user on both
		 * sides when the pairs agree), by operand position */
		for (u = g->use_at[e->insn]; u < g->use_at[e->insn + 1]; u++) {
			const struct gval *ue = &g->gv[g->uses[u] >> 8];
			uint32_t a = ue->insn == HD_NONE ? HD_NONE :
							    g->anchor[ue->insn];
			uint64_t c = ((uint64_t)a << 8) | (g->uses[u] & 0xff);

			if (a != HD_NONE && c < best)
				best = c;
		}
		if (best == UINT64_MAX)
			return 0;
		return gmix(gmix(h, e->op), best);
	}
	default:
		return 0;
	}
}

/* Are all operands of e that are instructions paired? */
static int operands_paired(const struct gside *g, const struct gval *e)
{
	uint32_t k;

	for (k = 0; k < e->ops_n; k++) {
		uint32_t j = g->ops[e->ops_at + k];

		if (j != HD_NONE && g->anchor[j] == HD_NONE)
			return 0;
	}
	return 1;
}

/*
 * Is e, a source (operands_paired), the first unpaired operand of each
 * of its unpaired users?  Aligning two sources of one user apart would
 * pair the user with nothing consistent; aligning the first lets the
 * user follow it (bottom-up) and the other operands follow the user
 * (top-down), consistently.
 */
static int first_of_users(const struct gside *g, const struct gval *e)
{
	uint32_t u, k;

	if (e->insn == HD_NONE || e->insn >= g->n_insns)
		return 1;       /* no instruction: no users to be first of */
	for (u = g->use_at[e->insn]; u < g->use_at[e->insn + 1]; u++) {
		const struct gval *ue = &g->gv[g->uses[u] >> 8];

		if (g->s->partner[ue->v] != HD_NONE)
			continue;
		for (k = 0; k < (g->uses[u] & 0xff); k++) {
			uint32_t j = g->ops[ue->ops_at + k];

			if (j != HD_NONE && j != e->insn &&
			    g->anchor[j] == HD_NONE)
				return 0;
		}
	}
	return 1;
}

/* May e's ties be aligned among the sources (graph_align)? */
static int source_ready(const struct gside *g, const struct gval *e)
{
	return operands_paired(g, e) && first_of_users(g, e);
}

/* Fills g->key for the side's free values; 0 for a value without a key
 * (it takes no part in the step: keysrc's sparse). */
static void graph_keys(struct gside *g, enum gkey_kind kind)
{
	const struct side *s = g->s;
	uint32_t r;

	for (r = 0; r < s->n_free; r++) {
		uint32_t v = s->free_list[r], f = g->slot[v];
		uint64_t k = 0;

		/* the entry of the value half as far ahead: its slot was
		 * fetched then */
		if (r + KEYS_AHEAD < s->n_free) {
			uint32_t fa = g->slot[s->free_list[r + KEYS_AHEAD / 2]];

			__builtin_prefetch(&g->slot[s->free_list[r + KEYS_AHEAD]]);
			__builtin_prefetch(&s->partner[s->free_list[r + KEYS_AHEAD]]);
			if (fa != HD_NONE)
				__builtin_prefetch(&g->gv[fa]);
		}
		if (f != HD_NONE && s->partner[v] == HD_NONE &&
		    (!g->sources_only || source_ready(g, &g->gv[f])))
			k = graph_key(g, &g->gv[f], kind);
		g->key[v] = k;
	}
}

/* align_body for groups of as many members on each side only: with
 * unequal counts, which members are the extra ones is a guess. */
static void align_equal_body(struct part *p, const struct pass *ps)
{
	uint32_t g;

	for (g = 0; g < p->n_groups; g++) {
		const struct group *q = &p->groups[g];

		if (q->n_old > 0 && q->n_old == q->n_new)
			align_group(p, q, ps->how);
	}
}

static uint32_t pairs_made(const struct mctx *x)
{
	uint32_t i, n = 0;

	for (i = 1; i < HD_MATCH_HOW_COUNT; i++)
		n += x->part[0].count[i] + x->part[1].count[i];
	return n;
}

/* Most rounds of the graph passes: each round's pairs anchor the next's. */
#define GRAPH_ROUNDS 16

/*
 * One key kind of the graph passes: anchors and (meta) names brought
 * up to date, the kind's keys made on both sides, then unique keys
 * paired (graph) or, with align, the ties aligned by schedule order.
 */
static void graph_step(struct mctx *x, struct gside *go, struct gside *gn,
		       enum gkey_kind k, int meta, int align)
{
	uint32_t before = pairs_made(x);
	uint32_t *quiet = &go->quiet[align ? 1 + go->sources_only : 0][k];
	struct keysrc okey = by_value(go->key), nkey = by_value(gn->key);

	if (*quiet == before)
		return;
	graph_anchors_more(go, gn);
	if (meta && !go->named) {
		gside_names(go);
		gside_names(gn);
	}
	graph_keys(go, k);
	graph_keys(gn, k);
	/* a value without a key takes no part */
	okey.sparse = nkey.sparse = 1;
	if (align)
		run_pass(x, okey, nkey, HD_MATCH_SCHEDULE, align_equal_body);
	else
		run_pass(x, okey, nkey, HD_MATCH_GRAPH, unique_body);
	if (pairs_made(x) == before)
		*quiet = before;
}

/* Rounds of the graph keys until one pairs nothing (at most
 * GRAPH_ROUNDS): each round's pairs anchor the next's. */
static void graph_rounds(struct mctx *x, struct gside *go, struct gside *gn)
{
	uint32_t before, round, k;

	for (round = 0; round < GRAPH_ROUNDS; round++) {
		before = pairs_made(x);
		for (k = 0; k < GK_COUNT; k++)
			graph_step(x, go, gn, (enum gkey_kind)k, k != GK_BOTTOM, 0);
		if (pairs_made(x) == before)
			break;
	}
}

/*
 * The ties of the strongest keys aligned by schedule order: of the
 * values whose operands are all paired (sources) or of all; of the
 * first key kind whose ties pair anything (every kind with all), so
 * that the rounds after it take what follows from those pairs before
 * another kind's ties are aligned apart from them.  Returns whether
 * anything was paired.
 */
static int graph_align(struct mctx *x, struct gside *go, struct gside *gn,
		       int sources, int all)
{
	uint32_t before = pairs_made(x), k;

	go->sources_only = gn->sources_only = sources;
	for (k = 0; k < GK_COUNT && (all || pairs_made(x) == before); k++) {
		if (k == GK_TOP || k == GK_BOTTOM_OPCODE)
			continue;
		graph_step(x, go, gn, (enum gkey_kind)k, 1, 1);
	}
	go->sources_only = gn->sources_only = 0;
	return pairs_made(x) != before;
}

/* How many times graph_align's ties of one kind are followed by rounds
 * before the rest are aligned all at once (each time costs a round). */
#define GRAPH_ALIGNS 8

/*
 * The graph passes (match.h): rounds of unique keys made from what is
 * paired already (operands, users) and from the metadata; then the ties
 * of the sources of what is left aligned by schedule order, so that
 * their users follow them in the rounds rather than be aligned apart,
 * and rounds again; then the same with all ties.
 */
static void pass_graph(struct mctx *x)
{
	struct gside go, gn;
	uint32_t nfo, nfn, sources, it;

	/* nothing to pair: none of the arrays below */
	nfo = side_unpaired(&x->o);
	nfn = nfo ? side_unpaired(&x->n) : 0;
	if (nfo == 0 || nfn == 0)
		return;
	gside_init(&go, &x->o, nfo);
	gside_init(&gn, &x->n, nfn);
	graph_anchors(&go, &gn);
	graph_rounds(x, &go, &gn);
	for (sources = 2; sources-- > 0;) {
		for (it = 0; it < GRAPH_ALIGNS &&
			     graph_align(x, &go, &gn, (int)sources, 0); it++)
			graph_rounds(x, &go, &gn);
	}
	if (graph_align(x, &go, &gn, 0, 1))
		graph_rounds(x, &go, &gn);
	gside_release(&go);
	gside_release(&gn);
}

/* The cascade of match.h, strict to loose. */
static void cascade(struct mctx *x)
{
	const struct hd_canon *oc = &x->o.c, *nc = &x->n.c;
	int k;

	run_pass(x, by_value(oc->value_struct), by_value(nc->value_struct),
		 HD_MATCH_STRUCTURAL, exact_body);
	run_pass(x, by_value(oc->value_canon), by_value(nc->value_canon),
		 HD_MATCH_CANONICAL, unique_body);
	pass_graph(x);
	/* only the graph pass follows operand links */
	hd_canon_drop_insn_ops(&x->o.c);
	hd_canon_drop_insn_ops(&x->n.c);
	/* the new side's on a second thread: each side reads its own dump
	 * and writes its own arrays */
	hd_run_two(side_loose, &x->o, side_loose, &x->n, 1);
	for (k = 0; k < HD_LOOSE_COUNT; k++)
		run_pass(x, loose_key(&x->o, k), loose_key(&x->n, k),
			 HD_MATCH_LOOSE, unique_body);
	run_pass(x, by_value(oc->value_struct), by_value(nc->value_struct),
		 HD_MATCH_SCHEDULE, align_body);
	run_pass(x, by_value(oc->value_canon), by_value(nc->value_canon),
		 HD_MATCH_SCHEDULE, align_body);
	/* The stem key pairs only when unique: aligning ops of one stem whose
	 * shapes differ by schedule order alone would be a guess. */
	for (k = 0; k < HD_LOOSE_STEM; k++)
		run_pass(x, loose_key(&x->o, k), loose_key(&x->n, k),
			 HD_MATCH_SCHEDULE, align_body);
	pass_name(x);
}

void hd_match_side_free(struct hd_match_side *ms)
{
	if (!ms)
		return;
	side_release(&ms->s);
	free(ms);
}

/*
 * The match's three arrays, in one block on 2 MiB pages where the
 * kernel can (arena.h), as they are written whole here.  The partners
 * start HD_NONE (all ones), how 0.
 */
static void match_arrays(struct hd_match *m)
{
	size_t no = (size_t)m->n_old + 1, nn = (size_t)m->n_new + 1;
	char *p = hd_vec_block(&m->mem, 1, (no + nn) * sizeof(uint32_t) + no);

	_Static_assert(HD_NONE == UINT32_MAX, "HD_NONE is all ones");
	m->old_to_new = (uint32_t *)(void *)p;
	m->new_to_old = m->old_to_new + no;
	m->how = (uint8_t *)(m->new_to_old + nn);
	memset(m->old_to_new, 0xff, (no + nn) * sizeof(uint32_t));
	memset(m->how, 0, no);
}

int hd_match_values_sides(struct hd_match *m, struct hd_match_side *old,
			  struct hd_match_side *new_side, unsigned flags)
{
	struct mctx x;
	uint32_t i, pairs = 0;

	memset(m, 0, sizeof(*m));
	memset(&x, 0, sizeof(x));
	m->n_old = old->s.n;
	m->n_new = new_side->s.n;
	match_arrays(m);

	x.m = m;
	x.o = old->s;
	x.n = new_side->s;
	x.o.partner = m->old_to_new;
	x.n.partner = m->new_to_old;
	x.labels_later = (flags & HD_MATCH_LABELS_LATER) != 0;
	part_init(&x.part[0], &x);
	part_init(&x.part[1], &x);

	if (flags & HD_MATCH_BY_NAME_ONLY)
		pass_by_name_only(&x);
	else
		cascade(&x);
	/* pair() counts every pair once: the values left over follow. */
	for (i = 0; i < HD_MATCH_HOW_COUNT; i++) {
		m->count[i] = x.part[0].count[i] + x.part[1].count[i];
		pairs += m->count[i];
	}
	m->n_removed = m->n_old - pairs;
	m->n_added = m->n_new - pairs;
	m->count[HD_MATCH_NONE] = m->n_removed;

	/* The sides are used up: their arrays go with x. */
	side_release(&x.o);
	side_release(&x.n);
	memset(&old->s, 0, sizeof(old->s));
	memset(&new_side->s, 0, sizeof(new_side->s));
	part_release(&x.part[0]);
	part_release(&x.part[1]);
	return 0;
}

/* The two sides one after the other: the binary prepares them on
 * threads of its own (diff.h). */
int hd_match_values(struct hd_match *m, const struct hd_dump *old,
		    const struct hd_dump *new_dump, unsigned flags)
{
	struct hd_match_side *ms[2] = { hd_match_side_begin(old),
					hd_match_side_begin(new_dump) };
	int rc, k;

	for (k = 0; k < 2; k++) {
		hd_match_side_canon(ms[k]);
		hd_match_side_order(ms[k]);
	}
	rc = hd_match_values_sides(m, ms[0], ms[1], flags);
	hd_match_side_free(ms[0]);
	hd_match_side_free(ms[1]);
	return rc;
}

void hd_match_label(struct hd_match *m, const struct hd_dump *old,
		    const struct hd_dump *new_dump)
{
	uint32_t o;

	for (o = 0; o < m->n_old; o++) {
		uint32_t n = m->old_to_new[o];

		if (!(m->how[o] & LABEL_LATER))
			continue;
		m->how[o] &= (uint8_t)~LABEL_LATER;
		if (hd_slice_eq(hd_value_key_of(&HD_VALUE(old, o)),
				hd_value_key_of(&HD_VALUE(new_dump, n)))) {
			m->count[m->how[o]]--;
			m->how[o] = HD_MATCH_EXACT;
			m->count[HD_MATCH_EXACT]++;
		}
	}
}

void hd_match_release(struct hd_match *m)
{
	hd_vec_release(&m->mem);
	memset(m, 0, sizeof(*m));
}
