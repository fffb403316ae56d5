/*
 * timeline.c - live bytes over program order, per memory space.
 *
 * One pass sizes every live range and gives it a space slot, one pass
 * writes +size at start and -size at end + 1 into the slot's difference
 * array, and one prefix sum per slot turns it into the curve: linear in
 * ranges + spaces * T.
 */
#include "hlodiff/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/format.h"
#include "hlodiff/shape.h"

int64_t hd_timeline_value_space(const struct hd_dump *d, uint32_t v)
{
	int64_t s = hd_value_space(d, v);

	/* a shape's unknown space counts as 0; a colour is as printed */
	if (HD_VALUE(d, v).flags & HD_VALUE_HAS_COLOR)
		return s;
	return s >= 0 ? s : 0;
}

/*
 * Slot of space in tl->spaces, adding it when new.  Once
 * HD_TIMELINE_MAX_SPACES - 1 named spaces exist, every further colour
 * goes to one HD_TIMELINE_OTHER slot.
 */
static uint32_t slot_of(struct hd_timeline *tl, int64_t space)
{
	uint32_t i;

	for (i = 0; i < tl->n_spaces; i++)
		if (tl->spaces[i].space == space)
			return i;
	if (tl->n_spaces >= HD_TIMELINE_MAX_SPACES - 1)
		space = HD_TIMELINE_OTHER;
	for (i = 0; i < tl->n_spaces; i++)
		if (tl->spaces[i].space == space)
			return i;
	tl->spaces[tl->n_spaces].space = space;
	return tl->n_spaces++;
}

/* Does space a come before b (ascending, HD_TIMELINE_OTHER last)? */
static int space_before(int64_t a, int64_t b)
{
	if (a == HD_TIMELINE_OTHER)
		return 0;
	if (b == HD_TIMELINE_OTHER)
		return 1;
	return a < b;
}

/*
 * Sorts tl->spaces (at most HD_TIMELINE_MAX_SPACES, insertion sort) and
 * stores in remap[old slot] the new slot.
 */
static void sort_spaces(struct hd_timeline *tl, uint8_t *remap)
{
	uint8_t order[HD_TIMELINE_MAX_SPACES];
	struct hd_timeline_space sorted[HD_TIMELINE_MAX_SPACES];
	uint32_t i, j;

	for (i = 0; i < tl->n_spaces; i++) {
		uint8_t k = (uint8_t)i;
		for (j = i; j > 0 && space_before(tl->spaces[k].space,
						 tl->spaces[order[j - 1]].space); j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	for (i = 0; i < tl->n_spaces; i++) {
		sorted[i] = tl->spaces[order[i]];
		remap[order[i]] = (uint8_t)i;
	}
	memcpy(tl->spaces, sorted, tl->n_spaces * sizeof(sorted[0]));
}

/*
 * Per live range: its logical size (-1 = skip) and its space slot.
 * Counts unsized ranges.  Slots are final (sorted) on return.
 */
static void size_ranges(struct hd_timeline *tl, const struct hd_dump *d,
			int64_t *size, uint8_t *slot)
{
	uint8_t remap[HD_TIMELINE_MAX_SPACES] = { 0 };
	size_t i;

	for (i = 0; i < d->live_ranges.len; i++) {
		uint32_t v = HD_LIVE_RANGE(d, i).value;
		int64_t b = -1;

		if (v != HD_NONE)
			b = hd_shape_logical_bytes(hd_value_shape(d, v));
		size[i] = b;
		slot[i] = 0;
		if (b < 0) {
			tl->unsized++;
			continue;
		}
		slot[i] = (uint8_t)slot_of(tl, hd_timeline_value_space(d, v));
		tl->spaces[slot[i]].ranges++;
	}
	sort_spaces(tl, remap);
	for (i = 0; i < d->live_ranges.len; i++)
		slot[i] = remap[slot[i]];
}

/* Adds each sized range to its slot's difference array (clamped to
 * [0, T]), then turns every row into its prefix sums and finds its
 * maximum. */
static void fill_curves(struct hd_timeline *tl, const struct hd_dump *d,
			const int64_t *size, const uint8_t *slot)
{
	int64_t max = tl->t_max, t;
	size_t i;
	uint32_t s;

	for (i = 0; i < d->live_ranges.len; i++) {
		const struct hd_live_range *lr = &HD_LIVE_RANGE(d, i);
		int64_t start = lr->start, end = lr->end, *row;

		if (size[i] <= 0)
			continue;
		if (start < 0 || end > max) {
			tl->clamped++;
			start = start < 0 ? 0 : start;
			end = end > max ? max : end;
		}
		if (start > end)
			continue;
		row = tl->bytes + slot[i] * tl->stride;
		row[start] = hd_sat_add(row[start], size[i]);
		row[end + 1] = hd_sat_add(row[end + 1], -size[i]);
	}
	for (s = 0; s < tl->n_spaces; s++) {
		int64_t *row = tl->bytes + s * tl->stride, run = 0;
		struct hd_timeline_space *sp = &tl->spaces[s];

		sp->max_bytes = -1;
		for (t = 0; t <= max; t++) {
			run = hd_sat_add(run, row[t]);
			row[t] = run;
			if (run > sp->max_bytes) {
				sp->max_bytes = run;
				sp->max_time = t;
			}
		}
		row[max + 1] = 0;
	}
}

int hd_timeline_compute(struct hd_timeline *tl, const struct hd_dump *d)
{
	int64_t *size;
	uint8_t *slot;

	memset(tl, 0, sizeof(*tl));
	tl->t_max = -1;
	if (d->live_max < 0 || d->live_ranges.len == 0) {
		tl->why = "the dump has no BufferLiveRange section";
		return 0;
	}
	if ((uint64_t)d->live_max > d->n_lines) {
		tl->why = "'HloLiveRange (max T)' exceeds the dump's line count";
		return 0;
	}
	size = hd_xmalloc(d->live_ranges.len * sizeof(*size));
	slot = hd_xmalloc(d->live_ranges.len * sizeof(*slot));
	size_ranges(tl, d, size, slot);
	if (tl->n_spaces == 0) {
		tl->why = "no live range has a known size";
	} else {
		tl->has = 1;
		tl->t_max = d->live_max;
		tl->stride = (size_t)d->live_max + 2;
		tl->bytes = hd_xcalloc(tl->n_spaces * tl->stride, sizeof(*tl->bytes));
		fill_curves(tl, d, size, slot);
	}
	free(size);
	free(slot);
	return 0;
}

void hd_timeline_release(struct hd_timeline *tl)
{
	free(tl->bytes);
	tl->bytes = NULL;
	tl->has = 0;
}

int hd_timeline_space_index(const struct hd_timeline *tl, int64_t space)
{
	uint32_t i;

	for (i = 0; i < tl->n_spaces; i++)
		if (tl->spaces[i].space == space)
			return (int)i;
	return -1;
}

int64_t hd_timeline_at(const struct hd_timeline *tl, uint32_t s, int64_t t)
{
	if (!tl->has || s >= tl->n_spaces || t < 0 || t > tl->t_max)
		return 0;
	return tl->bytes[s * tl->stride + (size_t)t];
}

size_t hd_timeline_downsample(const struct hd_timeline *tl, uint32_t s,
			      size_t max_points,
			      struct hd_timeline_point *out)
{
	const int64_t *row;
	uint64_t n, width;
	size_t k = 0;
	int64_t t;

	if (!tl->has || s >= tl->n_spaces || max_points == 0)
		return 0;
	row = tl->bytes + s * tl->stride;
	n = (uint64_t)tl->t_max + 1;
	width = (n + max_points - 1) / max_points;
	for (t = 0; (uint64_t)t < n; t += (int64_t)width) {
		int64_t end = t + (int64_t)width, u, best = row[t];

		if ((uint64_t)end > n)
			end = (int64_t)n;
		for (u = t + 1; u < end; u++)
			if (row[u] > best)
				best = row[u];
		out[k].t = t;
		out[k].t_end = end;
		out[k].bytes = best;
		k++;
	}
	return k;
}
