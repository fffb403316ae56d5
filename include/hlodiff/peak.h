/*
 * peak.h - the peak explained: the values live at the old and the new
 * peak, matched across the two dumps.
 *
 * The peak of a dump is the memory held (figures.h, docs/peak.md): the
 * values live at its time, each with the bytes it holds in its
 * allocation (bytes shared by several given to one), so that they add up
 * to peak_bytes.
 */
#ifndef HLODIFF_PEAK_H
#define HLODIFF_PEAK_H

#include <stdint.h>

#include "hlodiff/arena.h"
#include "hlodiff/dump.h"
#include "hlodiff/figures.h"
#include "hlodiff/match.h"

enum hd_peak_role {
	HD_PEAK_BOTH,      /* live at both peaks */
	HD_PEAK_ENTERED,   /* live at the new peak only */
	HD_PEAK_LEFT,      /* live at the old peak only */
};

struct hd_peak_value {
	uint32_t old_v, new_v;     /* HD_NONE where the value is absent */
	int64_t old_bytes, new_bytes; /* bytes at that peak, 0 when not live */
	int64_t delta;
	uint8_t role;              /* enum hd_peak_role */
};

struct hd_peak_side {
	int has;                   /* a held peak is known */
	int64_t time, bytes, max;  /* max = T of HloLiveRange */
	struct hd_slice at;        /* instruction scheduled at time, if known */
	uint32_t count;            /* values with bytes live at the peak */
};

struct hd_peak_diff {
	struct hd_peak_side old_side, new_side;
	struct hd_vec values;      /* struct hd_peak_value by |delta| descending */
	uint32_t n_both, n_entered, n_left;
	int partial;               /* hd_peak_diff_compute_top: only the
				      first top values are in order */
};

/* Computes the peak explanation from both dumps and their match. */
void hd_peak_diff_compute(struct hd_peak_diff *p, const struct hd_dump *old,
			  const struct hd_figures *fold,
			  const struct hd_dump *new_dump,
			  const struct hd_figures *fnew,
			  const struct hd_match *m);
/*
 * The same for a reader of the first top values alone (the text report
 * with its "N others" line): those are the first top of the order above,
 * the others follow in no particular order.  hd_peak_diff_complete then
 * orders them all (a no-op on a complete one).
 */
void hd_peak_diff_compute_top(struct hd_peak_diff *p,
			      const struct hd_dump *old,
			      const struct hd_figures *fold,
			      const struct hd_dump *new_dump,
			      const struct hd_figures *fnew,
			      const struct hd_match *m, uint32_t top);
void hd_peak_diff_complete(struct hd_peak_diff *p, const struct hd_dump *old,
			   const struct hd_dump *new_dump);
void hd_peak_diff_release(struct hd_peak_diff *p);
const char *hd_peak_role_name(enum hd_peak_role r);

#endif
