/*
 * match.h - pairs the values of two dumps of one program (old, new).
 *
 * A cascade of passes from strict to loose; each pair records the pass
 * that made it.  Every pass looks only at the values the earlier passes
 * left.  The content keys come from canon.h (canonical and structural
 * hashes, looser keys).
 *
 *   exact       same name{index} and same structural hash (hence same
 *               canonical hash).  Inside a group of identical
 *               computations (same structural hash, as many on each
 *               side) the name is trusted only where it agrees with the
 *               schedule-order alignment of the group.
 *   structural  structural hash unique on both sides (or one member
 *               left on each side once the exact pairs are made).
 *   canonical   canonical hash unique on both sides.
 *   graph       shape left out (docs/matching.md): in rounds, keys
 *               unique on both sides made of the operands and users
 *               already paired and of the metadata; then ties of as
 *               many members a side aligned by schedule order
 *               ("schedule"), each followed by the rounds again.
 *   loose       unique on both sides, by opcode + shape + op_name, then
 *               stripped name + opcode + shape without layout, then
 *               opcode + shape without layout.
 *   schedule    values still tied under one of the keys above (tried
 *               in the same order) are aligned by schedule order: live
 *               range start (the sequence position of the defining
 *               instruction), then value id; with unequal counts the
 *               longer side skips the members furthest in relative
 *               place.
 *   name        same name{index} with different content.
 *   (none)      whatever is left is removed (old) or added (new).
 *
 * Deterministic: the same two dumps always give the same pairs, whatever
 * the order of allocations in the files.  Linear in the number of values
 * and the size of the instruction texts (canon.h; a radix sort per side,
 * flat hash tables for the groups), with no allocation per value.
 */
#ifndef HLODIFF_MATCH_H
#define HLODIFF_MATCH_H

#include <stdint.h>

#include "hlodiff/dump.h"

/* The passes, in the order they run. */
enum hd_match_how {
	HD_MATCH_NONE = 0,        /* unmatched: added or removed */
	HD_MATCH_EXACT,           /* same name{index} and same structural hash */
	HD_MATCH_STRUCTURAL,      /* unique structural (Merkle) hash on both sides */
	HD_MATCH_CANONICAL,       /* unique canonical hash on both sides */
	HD_MATCH_LOOSE,           /* unique looser key (opcode + shape + ...) */
	HD_MATCH_SCHEDULE,        /* tied candidates aligned by schedule order */
	HD_MATCH_NAME,            /* same name{index}, different content */
	HD_MATCH_GRAPH,           /* by the graph and metadata, shape aside
				   * (runs after canonical, numbered last) */
	HD_MATCH_HOW_COUNT
};

enum hd_match_flags {
	HD_MATCH_BY_NAME_ONLY = 1u << 0, /* only exact name{index} pairs ("exact"
					  * when the structural hash agrees,
					  * else "name") */
	HD_MATCH_LABELS_LATER = 1u << 1, /* the same pairs, but a pair of
					  * the structural pass alone in its
					  * group is not told exact (same
					  * name) until hd_match_label: its
					  * how holds a mark till then */
};

struct hd_match {
	uint32_t n_old, n_new;
	uint32_t *old_to_new;     /* n_old entries, HD_NONE if removed */
	uint32_t *new_to_old;     /* n_new entries, HD_NONE if added */
	uint8_t *how;             /* n_old entries, enum hd_match_how */
	uint32_t count[HD_MATCH_HOW_COUNT]; /* pairs made by each pass;
					     * count[HD_MATCH_NONE] = n_removed */
	uint32_t n_added, n_removed;  /* new / old values left unpaired */
	struct hd_vec mem;            /* where old_to_new, new_to_old and how are */
};

/*
 * Pairs the values (dump->values, by index) of old and new.  Returns 0,
 * or -1 on failure (out of memory is fatal and does not return).
 */
int hd_match_values(struct hd_match *m, const struct hd_dump *old,
		    const struct hd_dump *new_dump, unsigned flags);
void hd_match_release(struct hd_match *m);
/* Tells the pairs HD_MATCH_LABELS_LATER left apart, exact or structural
 * (a no-op on a match made without it). */
void hd_match_label(struct hd_match *m, const struct hd_dump *old,
		    const struct hd_dump *new_dump);

/*
 * The same in steps, for callers that prepare each dump on a thread of
 * its own: hd_match_side_begin makes a side, then hd_match_side_canon
 * (the dump's canonical hashes, canon.h) and hd_match_side_order (its
 * values' schedule order) complete it, in either order, or at once on
 * two threads: they write different parts of the side and read only
 * the dump.  hd_match_values_sides pairs two prepared sides (old first)
 * and uses them up (each must still be freed with hd_match_side_free,
 * which accepts NULL).  hd_match_values is these, one side after the
 * other.
 */
struct hd_match_side;
struct hd_match_side *hd_match_side_begin(const struct hd_dump *d);
void hd_match_side_canon(struct hd_match_side *ms);
void hd_match_side_order(struct hd_match_side *ms);
/* What hd_match_side_order gathers from the value records while it
 * reads them all for the schedule order, for hd_figures_compute_kept:
 * hd_figures_kept() of each value (NULL before the order is made).  It
 * is in memory the match uses later: valid until the side is handed to
 * hd_match_values_sides. */
const uint64_t *hd_match_side_kept(const struct hd_match_side *ms);
int hd_match_values_sides(struct hd_match *m, struct hd_match_side *old,
			  struct hd_match_side *new_side, unsigned flags);
void hd_match_side_free(struct hd_match_side *ms);
/* "exact", "structural", ... (the word used in reports and JSON). */
const char *hd_match_how_name(enum hd_match_how how);

#endif
