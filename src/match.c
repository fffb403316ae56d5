/*
 * match.c - pairs the values of two dumps (see match.h).
 *
 * Every pass looks only at values that earlier passes left unpaired.
 * Grouping by a key uses a uthash table from the 64-bit key to the group
 * (nodes from one array, cleared between passes); groups are numbered in
 * the order of their first old member in schedule order, so the result
 * never depends on hash order.  The two dumps are canonicalised on two
 * threads at once.
 *
 * Schedule order of a value: live-range start (XLA derives it from the
 * sequence position of the defining instruction; values without a live
 * range come last), then HloValue id.  Its "place" is its rank in that
 * order divided by the number of values, a number in [0, 1) comparable
 * across the two dumps.
 */
#include "hlodiff/match.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/canon.h"
#include "hlodiff/parallel.h"
#include "hlodiff/diag.h"

/* Keys are 64-bit hashes already: fold them, do not hash them again
 * (keymap_put and keymap_get pass key_hash; this is what HASH_CLEAR
 * and the other macros would use). */
#undef HASH_FUNCTION
#define HASH_FUNCTION(keyptr, keylen, hashv) do { \
		uint64_t k_; \
		memcpy(&k_, (keyptr), sizeof(k_)); \
		(void)(keylen); \
		(hashv) = key_hash(k_); \
	} while (0)
#include <uthash.h>
/*
 * uthash.h defines its table sizing unconditionally (a definition made
 * before the include is silently replaced: the header is a system
 * header, so no redefinition warning), so they are replaced here, after
 * it; the macros are expanded where HASH_ADD is used.  A new table gets
 * as many buckets as keymap_reset planned for the pass (km->log2 in the
 * scope of keymap_put), so it never doubles while it fills, each
 * doubling rehashing every node (from 32 buckets, a dozen times for a
 * big dump).  With at most two keys a bucket on average, a chain of 16
 * is as good as impossible for 64-bit hashes, so the threshold only
 * guards against a degenerate key set.
 */
#undef HASH_INITIAL_NUM_BUCKETS
#undef HASH_INITIAL_NUM_BUCKETS_LOG2
#undef HASH_BKT_CAPACITY_THRESH
#define HASH_INITIAL_NUM_BUCKETS (1U << HASH_INITIAL_NUM_BUCKETS_LOG2)
#define HASH_INITIAL_NUM_BUCKETS_LOG2 (km->log2)
#define HASH_BKT_CAPACITY_THRESH 16U

/* One side (old or new) of the match. */
struct side {
	const struct hd_dump *d;
	struct hd_canon c;
	uint32_t n;
	uint32_t *order;     /* values in schedule order */
	uint32_t *rank;      /* value -> position in order */
	uint32_t *gpos;      /* free_list[r] -> its group in the current
			      * pass (HD_NONE: none), by place r */
	uint32_t *free_list; /* unpaired values in schedule order */
	uint32_t n_free;
	uint32_t *partner;   /* the match's old_to_new or new_to_old */
	uint64_t *loose;     /* looser keys of the values unpaired when they
			      * were made: HD_LOOSE_COUNT per row */
	uint32_t *loose_row; /* value -> its row in loose */
};

/* What hd_match_side_new prepares: one side before the match. */
struct hd_match_side {
	struct side s;
};

struct group {
	uint32_t n_old, n_new;
	uint32_t first_old, first_new;  /* lowest-ranked members */
	uint32_t at_old, at_new;        /* offsets of the member lists */
	uint32_t fill_old, fill_new;    /* next free place while filling */
};

/*
 * Key -> group table of a pass: uthash, with its nodes taken from one
 * array sized for the most values a pass groups (no allocation per
 * entry; uthash allocates only its bucket array).  Cleared between
 * passes.
 */
struct keynode {
	UT_hash_handle hh;
	uint64_t key;
	uint32_t val;
};

struct keymap {
	struct keynode *head;
	struct keynode *nodes;
	size_t used, cap;
	unsigned log2;          /* buckets of the next table, log2 */
};

/* Keys are well-mixed 64-bit hashes: the bucket hash is their fold. */
static unsigned key_hash(uint64_t key)
{
	return (unsigned)(key ^ (key >> 32));
}

struct mctx {
	struct hd_match *m;
	struct side o, n;
	struct keymap map;
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

/* Sort item: key packs (live start, id), see side_order. */
struct order_item {
	uint64_t key;
	uint32_t v;
};

/*
 * Stable LSD radix sort of items by key, 8 bits a pass, skipping the
 * passes whose digit is the same for all items.  tmp holds n items.
 */
static void radix_sort(struct order_item *a, struct order_item *tmp,
		       uint32_t n)
{
	uint32_t count[256], i;
	int shift;

	for (shift = 0; shift < 64; shift += 8) {
		uint32_t sum = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xff]++;
		if (n == 0 || count[(a[0].key >> shift) & 0xff] == n)
			continue;
		for (i = 0; i < 256; i++) {
			uint32_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(a[i].key >> shift) & 0xff]++] = a[i];
		memcpy(a, tmp, n * sizeof(*a));
	}
}

/*
 * Sorts the values of one side into schedule order (see top): key =
 * live start + 1 (0xffffffff without a live range) in the high half,
 * id in the low half.  Starts and ids beyond 32 bits are clamped, which
 * only coarsens the order (ties then fall back to dump order).
 */
static void side_order(struct side *s)
{
	struct order_item *a = hd_xmalloc((s->n + 1) * sizeof(*a));
	struct order_item *tmp = hd_xmalloc((s->n + 1) * sizeof(*a));
	uint32_t i;

	for (i = 0; i < s->n; i++) {
		const struct hd_value *v = &HD_VALUE(s->d, i);
		uint64_t start = 0xffffffffu, id;

		if ((v->flags & HD_VALUE_LIVE) && v->live_start >= 0)
			start = v->live_start < 0xfffffffe ?
				(uint64_t)v->live_start + 1 : 0xfffffffe;
		id = v->id < 0 ? 0 : v->id > 0xffffffff ? 0xffffffff :
							(uint64_t)v->id;
		a[i].key = start << 32 | id;
		a[i].v = i;
	}
	radix_sort(a, tmp, s->n);
	for (i = 0; i < s->n; i++) {
		s->order[i] = a[i].v;
		s->rank[a[i].v] = i;
		s->free_list[i] = a[i].v;
	}
	s->n_free = s->n;
	free(a);
	free(tmp);
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

static void keymap_init(struct keymap *km, size_t max_entries)
{
	km->head = NULL;
	km->used = 0;
	km->cap = max_entries + 1;
	km->log2 = 5;
	km->nodes = hd_xmalloc(km->cap * sizeof(struct keynode));
}

/* Empties the table for a pass of at most n entries, and sizes the
 * next one for them: about n / 2 buckets, at least 32. */
static void keymap_reset(struct keymap *km, size_t n)
{
	HASH_CLEAR(hh, km->head);
	km->used = 0;
	km->log2 = 5;
	while (km->log2 < 30 && ((size_t)2 << km->log2) < n)
		km->log2++;
	if (n + 1 > km->cap) {
		km->cap = n + 1;
		km->nodes = hd_xrealloc(km->nodes, km->cap * sizeof(struct keynode));
	}
}

/* Inserts key -> val unless present; returns the value stored before, or
 * HD_NONE when it inserted. */
static uint32_t keymap_put(struct keymap *km, uint64_t key, uint32_t val)
{
	struct keynode *found = NULL, *node;
	unsigned h = key_hash(key);

	HASH_FIND_BYHASHVALUE(hh, km->head, &key, sizeof(key), h, found);
	if (found)
		return found->val;
	if (km->used == km->cap)
		HD_BUG("keymap overflow");
	node = &km->nodes[km->used++];
	node->key = key;
	node->val = val;
	HASH_ADD_BYHASHVALUE(hh, km->head, key, sizeof(node->key), h, node);
	return HD_NONE;
}

static uint32_t keymap_get(const struct keymap *km, uint64_t key)
{
	struct keynode *found = NULL;

	HASH_FIND_BYHASHVALUE(hh, km->head, &key, sizeof(key), key_hash(key),
			      found);
	return found ? found->val : HD_NONE;
}

static void keymap_release(struct keymap *km)
{
	HASH_CLEAR(hh, km->head);
	free(km->nodes);
}

static struct group *grp(struct mctx *x, uint32_t g)
{
	return &HD_VEC_AT(&x->groups, struct group, g);
}

/* Drops the values paired since the last call from the free list. */
static void side_compact(struct side *s)
{
	uint32_t i, k = 0;

	for (i = 0; i < s->n_free; i++)
		if (s->partner[s->free_list[i]] == HD_NONE)
			s->free_list[k++] = s->free_list[i];
	s->n_free = k;
}

/*
 * Where a pass finds the key of a value: an array by value (the canon
 * hashes), or key k of the value's row of loose keys.
 */
struct keysrc {
	const uint64_t *by_value;
	const uint64_t *rows;
	const uint32_t *row_of;
	int k;
};

static struct keysrc by_value(const uint64_t *keys)
{
	struct keysrc ks = { keys, NULL, NULL, 0 };

	return ks;
}

static struct keysrc loose_key(const struct side *s, int k)
{
	struct keysrc ks = { NULL, s->loose, s->loose_row, k };

	return ks;
}

static inline uint64_t key_of(const struct keysrc *ks, uint32_t v)
{
	if (ks->by_value)
		return ks->by_value[v];
	return ks->rows[(size_t)ks->row_of[v] * HD_LOOSE_COUNT + ks->k];
}

/* The member lists of the groups group_by made (from the gpos it
 * left), in schedule order. */
static void fill_lists(struct mctx *x)
{
	uint32_t r, g, at_o = 0, at_n = 0;

	/* Member lists: offsets, then filled in schedule order. */
	for (g = 0; g < x->groups.len; g++) {
		struct group *p = grp(x, g);

		p->at_old = at_o;
		p->at_new = at_n;
		p->fill_old = at_o;
		p->fill_new = at_n;
		at_o += p->n_old;
		at_n += p->n_new;
	}
	for (r = 0; r < x->o.n_free; r++)
		x->olist[grp(x, x->o.gpos[r])->fill_old++] = x->o.free_list[r];
	for (r = 0; r < x->n.n_free; r++) {
		g = x->n.gpos[r];
		if (g != HD_NONE)
			x->nlist[grp(x, g)->fill_new++] = x->n.free_list[r];
	}
}

/*
 * Groups the unpaired values of both sides by key (okey per old value,
 * nkey per new value): counts and first members, and with lists the
 * member lists in schedule order.  Groups exist for keys that have at
 * least one old member; new values with no such key get HD_NONE.
 */
static void group_by(struct mctx *x, const struct keysrc *okey,
		     const struct keysrc *nkey, int lists)
{
	uint32_t r, g;

	side_compact(&x->o);
	side_compact(&x->n);
	keymap_reset(&x->map, x->o.n_free);
	x->groups.len = 0;
	for (r = 0; r < x->o.n_free; r++) {
		uint32_t v = x->o.free_list[r];

		g = keymap_put(&x->map, key_of(okey, v), (uint32_t)x->groups.len);
		if (g == HD_NONE) {
			struct group *ng = hd_vec_push(&x->groups);

			g = (uint32_t)x->groups.len - 1;
			ng->first_old = v;
			ng->first_new = HD_NONE;
		}
		grp(x, g)->n_old++;
		x->o.gpos[r] = g;
	}
	for (r = 0; r < x->n.n_free; r++) {
		uint32_t v = x->n.free_list[r];

		g = keymap_get(&x->map, key_of(nkey, v));
		x->n.gpos[r] = g;
		if (g != HD_NONE && grp(x, g)->n_new++ == 0)
			grp(x, g)->first_new = v;
	}
	if (lists)
		fill_lists(x);
}

/* Pairs every group that has exactly one member on each side (its
 * first ones: no member lists needed). */
static void pass_unique(struct mctx *x, struct keysrc okey,
			struct keysrc nkey, enum hd_match_how how)
{
	uint32_t g;

	group_by(x, &okey, &nkey, 0);
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
		double d = dist(po, pn);

		if (ro > rn && dist(place(&x->o, ol[i + 1]), pn) < d) {
			i++;
			continue;
		}
		if (rn > ro && dist(place(&x->n, nl[j + 1]), po) < d) {
			j++;
			continue;
		}
		pair(x, ol[i], nl[j], how);
		i++;
		j++;
	}
}

static void pass_align(struct mctx *x, struct keysrc okey,
		       struct keysrc nkey)
{
	uint32_t g;

	group_by(x, &okey, &nkey, 1);
	for (g = 0; g < x->groups.len; g++) {
		const struct group *p = grp(x, g);

		if (p->n_old > 0 && p->n_new > 0)
			align_group(x, p, HD_MATCH_SCHEDULE);
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
 * Pairs the free members of group p when exactly one is left on each
 * side: "exact" when the names agree, else how.
 */
static void pair_last(struct mctx *x, const struct group *p,
		      enum hd_match_how how)
{
	uint32_t k, o = HD_NONE, n = HD_NONE, fo = 0, fn = 0;

	for (k = 0; k < p->n_old; k++)
		if (free_old(x, x->olist[p->at_old + k])) {
			o = x->olist[p->at_old + k];
			fo++;
		}
	for (k = 0; k < p->n_new; k++)
		if (free_new(x, x->nlist[p->at_new + k])) {
			n = x->nlist[p->at_new + k];
			fn++;
		}
	if (fo == 1 && fn == 1)
		pair(x, o, n, same_key(x, o, n) ? HD_MATCH_EXACT : how);
}

/*
 * The first two passes over the structural groups (same structural hash,
 * hence same canonical hash):
 *   exact       same name{index} within a group.  In a group of equal
 *               size on both sides (identical computations) the name is
 *               trusted only where it agrees with the schedule-order
 *               alignment of the group; the rest is left to the
 *               schedule pass.
 *   structural  a group left with one free member on each side.
 * Names are looked up only in groups of unequal size, so the common
 * case costs no lookup.
 */
static void pass_exact_structural(struct mctx *x)
{
	uint32_t g, k;

	struct keysrc ok = by_value(x->o.c.value_struct);
	struct keysrc nk = by_value(x->n.c.value_struct);

	group_by(x, &ok, &nk, 1);
	for (g = 0; g < x->groups.len; g++) {
		const struct group *p = grp(x, g);

		if (p->n_new == 0)
			continue;
		if (p->n_old == p->n_new) {
			for (k = 0; p->n_old > 1 && k < p->n_old; k++) {
				uint32_t o = x->olist[p->at_old + k];
				uint32_t n = x->nlist[p->at_new + k];

				if (same_key(x, o, n))
					pair(x, o, n, HD_MATCH_EXACT);
			}
		} else {
			for (k = 0; k < p->n_old; k++) {
				uint32_t o = x->olist[p->at_old + k];
				uint32_t n = same_name(x, o);

				/* n free now was free at group_by: it is
				 * in this group iff it has the key */
				if (n != HD_NONE && free_new(x, n) &&
				    x->n.c.value_struct[n] ==
					    x->o.c.value_struct[o])
					pair(x, o, n, HD_MATCH_EXACT);
			}
		}
		pair_last(x, p, HD_MATCH_STRUCTURAL);
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
		     x->o.c.value_struct[o] == x->n.c.value_struct[w] ?
			     HD_MATCH_EXACT : HD_MATCH_NAME);
	}
}

static void side_init(struct side *s, const struct hd_dump *d)
{
	memset(s, 0, sizeof(*s));
	s->d = d;
	s->n = (uint32_t)d->values.len;
	hd_canon_compute(&s->c, d);
	/* The matcher needs the value hashes and the per-instruction parts
	 * of the loose keys, not the instructions' own hashes. */
	free(s->c.insn_canon);
	free(s->c.insn_struct);
	s->c.insn_canon = s->c.insn_struct = NULL;
	s->order = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->rank = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->gpos = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	s->free_list = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	side_order(s);
}

struct hd_match_side *hd_match_side_new(const struct hd_dump *d)
{
	struct hd_match_side *ms = hd_xmalloc(sizeof(*ms));

	side_init(&ms->s, d);
	return ms;
}

static void *side_new_thread(void *arg)
{
	struct hd_match_side **slot = arg;

	*slot = hd_match_side_new((*slot)->s.d);
	return NULL;
}

/*
 * Loose keys of the values still unpaired (hd_canon_loose), visited in
 * dump order, which follows the input text and so keeps the reads of
 * shapes close together.
 */
static void side_loose(struct side *s)
{
	uint32_t v, rows = 0;

	for (v = 0; v < s->n; v++)
		rows += s->partner[v] == HD_NONE;
	s->loose = hd_xmalloc(((size_t)rows + 1) * HD_LOOSE_COUNT *
			      sizeof(uint64_t));
	s->loose_row = hd_xmalloc((s->n + 1) * sizeof(uint32_t));
	for (v = 0, rows = 0; v < s->n; v++) {
		if (s->partner[v] != HD_NONE)
			continue;
		s->loose_row[v] = rows;
		hd_canon_loose(&s->c, s->d, v,
			       &s->loose[(size_t)rows++ * HD_LOOSE_COUNT]);
	}
}

static void *side_loose_thread(void *arg)
{
	side_loose(arg);
	return NULL;
}

/* The loose keys of both sides, the new side's on a second thread (each
 * reads its own dump and writes its own arrays). */
static void sides_loose(struct mctx *x)
{
	hd_run_two(side_loose_thread, &x->o, side_loose_thread, &x->n, 1);
}

static void side_release(struct side *s)
{
	free(s->loose);
	free(s->loose_row);
	hd_canon_release(&s->c);
	free(s->order);
	free(s->rank);
	free(s->gpos);
	free(s->free_list);
}

/* The cascade of match.h, strict to loose. */
static void cascade(struct mctx *x)
{
	const struct hd_canon *oc = &x->o.c, *nc = &x->n.c;
	int k;

	pass_exact_structural(x);
	pass_unique(x, by_value(oc->value_canon), by_value(nc->value_canon),
		    HD_MATCH_CANONICAL);
	sides_loose(x);
	for (k = 0; k < HD_LOOSE_COUNT; k++)
		pass_unique(x, loose_key(&x->o, k), loose_key(&x->n, k),
			    HD_MATCH_LOOSE);
	pass_align(x, by_value(oc->value_struct), by_value(nc->value_struct));
	pass_align(x, by_value(oc->value_canon), by_value(nc->value_canon));
	/* The stem key pairs only when unique: aligning ops of one stem whose
	 * shapes differ by schedule order alone would be a guess. */
	for (k = 0; k < HD_LOOSE_STEM; k++)
		pass_align(x, loose_key(&x->o, k), loose_key(&x->n, k));
	pass_name(x);
}

void hd_match_side_free(struct hd_match_side *ms)
{
	if (!ms)
		return;
	side_release(&ms->s);
	free(ms);
}

int hd_match_values_sides(struct hd_match *m, struct hd_match_side *old,
			  struct hd_match_side *new_side, unsigned flags)
{
	struct mctx x;
	uint32_t i;

	memset(m, 0, sizeof(*m));
	memset(&x, 0, sizeof(x));
	m->n_old = old->s.n;
	m->n_new = new_side->s.n;
	m->old_to_new = hd_xmalloc((m->n_old + 1) * sizeof(uint32_t));
	m->new_to_old = hd_xmalloc((m->n_new + 1) * sizeof(uint32_t));
	m->how = hd_xcalloc(m->n_old + 1, 1);
	for (i = 0; i < m->n_old; i++)
		m->old_to_new[i] = HD_NONE;
	for (i = 0; i < m->n_new; i++)
		m->new_to_old[i] = HD_NONE;

	x.m = m;
	x.o = old->s;
	x.n = new_side->s;
	x.o.partner = m->old_to_new;
	x.n.partner = m->new_to_old;
	keymap_init(&x.map, m->n_old);
	x.groups = (struct hd_vec)HD_VEC_INIT(struct group);
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

	/* The sides are used up: their arrays go with x. */
	side_release(&x.o);
	side_release(&x.n);
	memset(&old->s, 0, sizeof(old->s));
	memset(&new_side->s, 0, sizeof(new_side->s));
	free(x.olist);
	free(x.nlist);
	hd_vec_release(&x.groups);
	keymap_release(&x.map);
	return 0;
}

/*
 * Canonicalises both dumps at once: the new side on a second thread
 * (the two are independent and read-only), the old one here.  Without a
 * thread, one after the other.  The result does not depend on which.
 */
int hd_match_values(struct hd_match *m, const struct hd_dump *old,
		    const struct hd_dump *new_dump, unsigned flags)
{
	struct hd_match_side ostub, nstub, *os = &ostub, *ns = &nstub;
	int rc;

	ostub.s.d = old;
	nstub.s.d = new_dump;
	hd_run_two(side_new_thread, &os, side_new_thread, &ns, 1);
	rc = hd_match_values_sides(m, os, ns, flags);
	hd_match_side_free(os);
	hd_match_side_free(ns);
	return rc;
}

void hd_match_release(struct hd_match *m)
{
	free(m->old_to_new);
	free(m->new_to_old);
	free(m->how);
	memset(m, 0, sizeof(*m));
}
