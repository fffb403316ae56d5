/*
 * timeline.h - live bytes over program order, per memory space.
 *
 * For one dump: at each time t of the flattened schedule (0..T, T from
 * "HloLiveRange (max T)"), the bytes held by the values live then, one
 * curve per memory space (allocation colour): the sweep of figures.h
 * (hd_held_sweep), so that the chart and the reports show one figure.
 *
 * A dump without a usable live-range section gives a timeline with
 * has == 0 (nothing allocated); the reason is in why.  T is bounded by
 * the number of input lines, as in figures.c, so a made-up "max T"
 * cannot make the arrays huge.
 */
#ifndef HLODIFF_TIMELINE_H
#define HLODIFF_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "hlodiff/dump.h"

/* Distinct memory spaces kept apart; further colours share one series
 * whose space is HD_TIMELINE_OTHER. */
#define HD_TIMELINE_MAX_SPACES 16
#define HD_TIMELINE_OTHER (-1)

struct hd_timeline_space {
	int64_t space;          /* colour, or HD_TIMELINE_OTHER */
	int64_t max_bytes;      /* maximum of the curve */
	int64_t max_time;       /* first time of that maximum */
};

struct hd_timeline {
	int has;                /* 1 when the curves below exist */
	const char *why;        /* static reason when has == 0 */
	int64_t t_max;          /* T: the curves cover times 0..T */
	uint32_t n_spaces;
	struct hd_timeline_space spaces[HD_TIMELINE_MAX_SPACES]; /* ascending
				   space, HD_TIMELINE_OTHER last */
	int64_t *bytes;         /* n_spaces rows of stride entries; row s,
				   entry t (0..T) = live bytes at t */
	size_t stride;          /* t_max + 2 */
	uint32_t unsized;       /* ranges whose value size is unknown (skipped) */
};

/* One point of a downsampled curve: the bucket [t, t_end) and the
 * maximum of the curve over it. */
struct hd_timeline_point {
	int64_t t, t_end;
	int64_t bytes;
};

/*
 * Computes the curves of d into tl (initialised by the call).  Returns 0,
 * also when the dump has no live ranges (then tl->has == 0).
 */
int hd_timeline_compute(struct hd_timeline *tl, const struct hd_dump *d);
void hd_timeline_release(struct hd_timeline *tl);

/* Index of space in tl->spaces, -1 when the dump has none of it. */
int hd_timeline_space_index(const struct hd_timeline *tl, int64_t space);

/* Live bytes of series s (index into tl->spaces) at time t; 0 outside
 * 0..T. */
int64_t hd_timeline_at(const struct hd_timeline *tl, uint32_t s, int64_t t);

/*
 * Cuts 0..T into at most max_points buckets of equal width (the last may
 * be shorter) and stores each bucket's maximum in out (room for
 * max_points entries), so that every peak of the curve survives.
 * Returns the number of points written (0 when tl->has == 0).
 */
size_t hd_timeline_downsample(const struct hd_timeline *tl, uint32_t s,
			      size_t max_points,
			      struct hd_timeline_point *out);

/* Memory space of value v as the timeline counts it: its printed colour
 * "@C", else the S(n) of its shape, else 0. */
int64_t hd_timeline_value_space(const struct hd_dump *d, uint32_t v);

#endif
