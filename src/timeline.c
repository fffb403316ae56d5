/*
 * timeline.c - bytes held over program order, per memory space.
 *
 * The curves are the sweep of the figures (figures.h, hd_held_sweep), so
 * that the chart and the reports show one figure: at each time, per
 * allocation colour, the bytes held by the values live then.
 */
#include "hlodiff/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "hlodiff/figures.h"

int64_t hd_timeline_value_space(const struct hd_dump *d, uint32_t v)
{
	int64_t s = hd_value_space(d, v);

	/* a shape's unknown space counts as 0; a colour is as printed */
	if (HD_VALUE(d, v).flags & HD_VALUE_HAS_COLOR)
		return s;
	return s >= 0 ? s : 0;
}

/* What the sweep's callback needs.  Colour c of the sweep (ascending)
 * is slot c, up to the slot of HD_TIMELINE_OTHER (the rest). */
struct fill {
	struct hd_timeline *tl;
	int64_t t_max;
	int other;              /* slot of HD_TIMELINE_OTHER, -1 if none */
};

/* The series and rows, at the sweep's first call (it knows the
 * colours then: one sweep, not one for them and one for the curves). */
static void fill_start(struct fill *fl, const struct hd_held_state *st)
{
	struct hd_timeline *tl = fl->tl;
	uint32_t c, n = st->n_colors;

	tl->n_spaces = n < HD_TIMELINE_MAX_SPACES ? n : HD_TIMELINE_MAX_SPACES;
	for (c = 0; c < tl->n_spaces; c++) {
		tl->spaces[c].space = c + 1 < HD_TIMELINE_MAX_SPACES || n == HD_TIMELINE_MAX_SPACES ?
			st->colors[c] : HD_TIMELINE_OTHER;
		tl->spaces[c].max_bytes = -1;
	}
	tl->has = 1;
	tl->t_max = fl->t_max;
	tl->stride = (size_t)fl->t_max + 2;
	tl->bytes = hd_xcalloc(tl->n_spaces * tl->stride, sizeof(*tl->bytes));
	fl->other = n > HD_TIMELINE_MAX_SPACES ? HD_TIMELINE_MAX_SPACES - 1 : -1;
}

/* The bytes held at t, per slot, into the rows (figures.c's sweep). */
static void fill_at(void *ctx, int64_t t, const struct hd_held_state *st)
{
	struct fill *fl = ctx;
	struct hd_timeline *tl = fl->tl;
	uint32_t c, s, n;
	int64_t named = 0;

	if (!tl->has)
		fill_start(fl, st);
	n = fl->other >= 0 ? (uint32_t)fl->other : tl->n_spaces;
	for (c = 0; c < st->n_colors && c < n; c++) {
		tl->bytes[c * tl->stride + (size_t)t] = st->held[c];
		named += st->held[c];
	}
	if (fl->other >= 0)
		tl->bytes[(size_t)fl->other * tl->stride + (size_t)t] = st->total - named;
	for (s = 0; s < tl->n_spaces; s++) {
		int64_t b = tl->bytes[s * tl->stride + (size_t)t];

		if (b > tl->spaces[s].max_bytes) {
			tl->spaces[s].max_bytes = b;
			tl->spaces[s].max_time = t;
		}
	}
}

int hd_timeline_compute(struct hd_timeline *tl, const struct hd_dump *d)
{
	struct hd_held h;
	struct fill fl = { tl, d->live_max, -1 };
	const char *why;

	memset(tl, 0, sizeof(*tl));
	tl->t_max = -1;
	why = hd_held_sweep(d, &h, fill_at, &fl);
	if (why) {
		/* the curves of a sweep that gave up are not the figure's */
		free(tl->bytes);
		memset(tl, 0, sizeof(*tl));
		tl->t_max = -1;
		tl->why = why;
		return 0;
	}
	tl->unsized = h.unplaced;
	hd_held_release(&h);
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
