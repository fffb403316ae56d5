/*
 * html.c - the memory picture (html.h).
 *
 * The page is written section by section, each by its own function.
 * SVG geometry is in the constants below.  Every part is bounded: curves
 * come downsampled from timeline.c, bars and tables stop at the limits of
 * html.h, so the page size does not grow with the dumps.
 */
#include "hlodiff/html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/breakdown.h"
#include "hlodiff/format.h"
#include "hlodiff/membuf.h"
#include "report_common.h"
#include "hlodiff/timeline.h"

/* Timeline chart (SVG user units). */
#define TL_W 960.0
#define TL_LEFT 84.0      /* y axis labels */
#define TL_RIGHT 16.0
#define TL_TOP 60.0       /* legend and peak labels */
#define TL_GAP 36.0       /* panel title above each panel */
#define TL_PANEL 140.0    /* height of one memory-space panel */
#define TL_BOTTOM 40.0    /* x axis labels */
#define TL_XTICKS 8       /* about this many x ticks */
#define TL_FRAC_EXTRA 24.0 /* two more rows of x labels (schedules differ) */

/* Peak bars. */
#define BAR_W 960.0
#define BAR_H 460.0
#define BAR_TOP 44.0      /* bar totals above the bars */
#define BAR_BOTTOM 28.0   /* "old" / "new" below */
#define BAR_WIDTH 130.0
#define BAR_OLD_X 300.0
#define BAR_NEW_X 530.0
#define BAR_LABEL_MIN 12.0 /* segment height that gets a label */
#define BAR_LABEL_MAX 40   /* bytes of a name in a bar label */

#define OLD_COLOR "#2b6cb0"
#define NEW_COLOR "#c53030"
#define OTHERS_COLOR "#cbd5e0"

enum side { OLD, NEW };

static const char *const side_name[2] = { "old", "new" };
static const char *const side_color[2] = { OLD_COLOR, NEW_COLOR };

/* ---- text -------------------------------------------------------------- */

void hd_html_escape(FILE *out, const char *p, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		const char *rep;

		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			rep = (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ?
				"?" : NULL;
		}
		if (rep == NULL)
			continue;
		fwrite(p + start, 1, i - start, out);
		fputs(rep, out);
		start = i + 1;
	}
	fwrite(p + start, 1, n - start, out);
}

/* Escapes s cut at max bytes (on a UTF-8 character boundary), with an
 * ellipsis when cut. */
static void esc_cut(FILE *out, struct hd_slice s, size_t max)
{
	size_t n = s.n;

	if (n <= max) {
		hd_html_escape(out, s.p, n);
		return;
	}
	n = max;
	while (n > 0 && ((unsigned char)s.p[n] & 0xC0) == 0x80)
		n--;
	hd_html_escape(out, s.p, n);
	fputs("&#8230;", out);
}

static void esc_text(FILE *out, struct hd_slice s)
{
	esc_cut(out, s, HD_HTML_TEXT_MAX);
}

static void esc_cstr(FILE *out, const char *s)
{
	hd_html_escape(out, s, strlen(s));
}

/* "name{index}" of value v, each part cut at max bytes. */
static void esc_value(FILE *out, const struct hd_dump *d, uint32_t v,
		      size_t max)
{
	const struct hd_value *val = &HD_VALUE(d, v);

	esc_cut(out, val->name, max);
	esc_cut(out, hd_value_index(val), max);
}

/*
 * Label of a pair: the new value, "(was OLD)" when the old one is named
 * differently; the old value when there is no new one.
 */
static void esc_pair(FILE *out, const struct hd_diff *df, uint32_t ov,
		     uint32_t nv, size_t max)
{
	const struct hd_value *o, *n;

	if (nv == HD_NONE) {
		esc_value(out, df->old, ov, max);
		return;
	}
	esc_value(out, df->new_dump, nv, max);
	if (ov == HD_NONE)
		return;
	o = &HD_VALUE(df->old, ov);
	n = &HD_VALUE(df->new_dump, nv);
	if (hd_slice_eq(o->name, n->name) && o->index_n == n->index_n &&
	    hd_slice_eq(hd_value_index(o), hd_value_index(n)))
		return;
	fputs(" (was ", out);
	esc_value(out, df->old, ov, max);
	fputc(')', out);
}

static const char *human(char *buf, int64_t bytes)
{
	return hd_human_bytes(buf, HD_HUMAN_MAX, bytes);
}

/* Human bytes with a '+' on a positive delta. */
static const char *human_signed(char *buf, int64_t bytes)
{
	if (bytes <= 0)
		return human(buf, bytes);
	buf[0] = '+';
	hd_human_bytes(buf + 1, HD_HUMAN_MAX - 1, bytes);
	return buf;
}

/* A table cell with the bytes and their human form ("16384 (16.0KiB)"),
 * the exact number as sort key; "-" for an unknown size (< 0 when
 * unknown_ok). */
static void bytes_cell(FILE *out, int64_t bytes, int unknown_ok)
{
	char b[32 + HD_HUMAN_MAX];

	if (unknown_ok && bytes < 0) {
		fputs("<td class=\"n\" data-v=\"-1\">-</td>", out);
		return;
	}
	hd_rc_bytes_h(b, sizeof(b), bytes, 0);
	fprintf(out, "<td class=\"n\" data-v=\"%" PRId64 "\" title=\"%" PRId64
		" bytes\">%s</td>", bytes, bytes, b);
}

static void delta_cell(FILE *out, int64_t delta)
{
	char b[32 + HD_HUMAN_MAX];

	hd_rc_delta_h(b, sizeof(b), delta);
	fprintf(out, "<td class=\"n%s\" data-v=\"%" PRId64 "\" title=\"%+" PRId64
		" bytes\">%s</td>", delta > 0 ? " pos" : delta < 0 ? " neg" : "",
		delta, delta, b);
}

/* ---- page ---------------------------------------------------------------- */

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"
	"color:#1a202c;background:#fff;margin:0 auto;max-width:1100px;padding:12px 24px 40px}\n"
	"h1{font-size:20px;margin:8px 0 4px}\n"
	"h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #e2e8f0;"
	"padding-bottom:4px}\n"
	".files{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;"
	"word-break:break-all;margin:4px 0}\n"
	".note{color:#4a5568;font-style:italic}\n"
	".tree,.tree ul{list-style:none;padding-left:1.2em}\n"
	".tree .num{color:#4a5568;font-variant-numeric:tabular-nums}\n"
	".rules td.bad{color:#c53030;font-weight:bold}.rules td.warn{color:#b7791f}\n"
	"table{border-collapse:collapse;font-size:13px}\n"
	"th,td{padding:3px 8px;border-bottom:1px solid #edf2f7;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#f7fafc;font-weight:600}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".pos{color:#c53030}.neg{color:#2f855a}\n"
	".mono,td.v{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}\n"
	".mono{word-break:break-all}td.v{overflow-wrap:break-word}\n"
	"td.op{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;max-width:22em;"
	"white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\n"
	"#movers th{cursor:pointer;user-select:none}\n"
	"#movers th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
	"#movers th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	"svg{display:block;width:100%;height:auto;max-width:960px}\n"
	"svg text{font:11px system-ui,sans-serif;fill:#2d3748}\n"
	"svg .title{font-weight:600;font-size:12px}\n"
	".curve{fill:none;stroke-width:1.6;stroke-linejoin:round}\n"
	".grid{stroke:#e2e8f0;stroke-width:1}\n"
	".frame{fill:none;stroke:#a0aec0;stroke-width:1}\n"
	".seg{stroke:#fff;stroke-width:.5}\n"
	".swatch{display:inline-block;width:10px;height:10px;border-radius:2px;"
	"margin-right:6px}\n"
	"input[type=search]{font:inherit;padding:4px 8px;width:340px;margin:4px 8px 8px 0}\n";

/* The page up to its body: the title (escaped), then when df is not
 * NULL its two files; the styles, and more CSS after them. */
static void page_head(FILE *out, const char *title, const struct hd_diff *df,
		      const char *more)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", out);
	esc_cstr(out, title);
	if (df) {
		esc_cstr(out, df->old->name);
		fputs(" &#8594; ", out);
		esc_cstr(out, df->new_dump->name);
	}
	fputs("</title>\n<style>\n", out);
	fputs(css, out);
	fputs(more, out);
	fputs("</style>\n</head>\n<body>\n", out);
}

/* "4.21KiB at t=15 of 16 (select_multiply_fusion)" or "none". */
static void peak_side_html(FILE *out, const struct hd_peak_side *s)
{
	char h[HD_HUMAN_MAX];

	if (!s->has) {
		fputs("none", out);
		return;
	}
	fprintf(out, "<b>%s</b> at t=%" PRId64 " of %" PRId64, human(h, s->bytes),
		s->time, s->max);
	if (s->at.n) {
		fputs(" (<span class=\"mono\">", out);
		esc_text(out, s->at);
		fputs("</span>)", out);
	}
}

/* A side's stated peak (XLA's lines) beside the held one, where they
 * differ by more than 1%; why is in `hlodiff stat` (docs/peak.md). */
static void stated_html(FILE *out, const char *which, const struct hd_figures *f)
{
	char h[HD_HUMAN_MAX], d[HD_HUMAN_MAX + 2], pc[32];

	if (!f->has_peak && f->peak_why) {
		fprintf(out, "<p>%s: no peak_bytes: ", which);
		esc_cstr(out, f->peak_why);
		fputs("</p>\n", out);
		return;
	}
	if (!hd_peak_stated_differs(f))
		return;
	fprintf(out, "<p>%s: XLA's stated peak %s at t=%" PRId64 ", %s (%s) against the"
		" bytes held</p>\n", which, human(h, f->stated_bytes), f->stated_time,
		human_signed(d, hd_delta(f->peak_bytes, f->stated_bytes)),
		hd_percent(pc, sizeof(pc), f->peak_bytes, f->stated_bytes));
}

static void section_summary(FILE *out, const struct hd_diff *df, const char *title)
{
	const struct hd_peak_diff *p = &df->peak;
	char h[HD_HUMAN_MAX], pc[32];

	fputs("<h1>", out);
	esc_cstr(out, title ? title : "hlodiff: the memory picture");
	fputs("</h1>\n<p class=\"files\">old: ", out);
	esc_cstr(out, df->old->name);
	fputs("<br>new: ", out);
	esc_cstr(out, df->new_dump->name);
	fprintf(out, "</p>\n<p>values: %u matched (%u changed), %u added, %u removed</p>\n",
		df->n_matched, df->n_changed, df->n_added, df->n_removed);
	fputs("<p>peak: old ", out);
	peak_side_html(out, &p->old_side);
	fputs(" &#8594; new ", out);
	peak_side_html(out, &p->new_side);
	if (p->old_side.has && p->new_side.has) {
		int64_t d = hd_delta(p->old_side.bytes, p->new_side.bytes);
		fprintf(out, "; change <span class=\"%s\">%s (%s)</span>",
			d > 0 ? "pos" : d < 0 ? "neg" : "", human_signed(h, d),
			hd_percent(pc, sizeof(pc), p->old_side.bytes, p->new_side.bytes));
	}
	fputs("</p>\n", out);
	stated_html(out, "old", &df->fold);
	stated_html(out, "new", &df->fnew);
}

/* ---- timeline ------------------------------------------------------------ */

struct chart {
	struct hd_timeline tl[2];
	const struct hd_peak_side *peak[2];
	int64_t spaces[2 * HD_TIMELINE_MAX_SPACES]; /* union, ascending */
	uint32_t n_spaces;
	int64_t tx;             /* x axis spans times 0..tx */
	/* Schedules of different lengths: each side's times 0..txs[side]
	 * span the whole axis (a position is a share of its program) */
	int frac;
	int64_t txs[2];
	double height;
	struct hd_timeline_point *pts;
	int platform;           /* enum hd_platform: names the spaces */
};

/* x of time t of side's schedule. */
static double xpos(const struct chart *c, int side, double t)
{
	double tx = (double)(c->frac ? c->txs[side] : c->tx);

	if (t < 0)
		t = 0;
	if (t > tx)
		t = tx;
	return TL_LEFT + t / tx * (TL_W - TL_LEFT - TL_RIGHT);
}

static double panel_top(uint32_t p)
{
	return TL_TOP + p * (TL_GAP + TL_PANEL) + TL_GAP;
}

/* Union of the two sides' spaces, ascending, HD_TIMELINE_OTHER last. */
static void union_spaces(struct chart *c)
{
	uint32_t s, i, j;
	int side;

	c->n_spaces = 0;
	for (side = OLD; side <= NEW; side++)
		for (s = 0; s < c->tl[side].n_spaces; s++) {
			int64_t sp = c->tl[side].spaces[s].space;
			for (i = 0; i < c->n_spaces && c->spaces[i] != sp; i++)
				;
			if (i == c->n_spaces)
				c->spaces[c->n_spaces++] = sp;
		}
	for (i = 1; i < c->n_spaces; i++) {
		int64_t sp = c->spaces[i];
		for (j = i; j > 0 && sp != HD_TIMELINE_OTHER &&
		     (c->spaces[j - 1] == HD_TIMELINE_OTHER || c->spaces[j - 1] > sp); j--)
			c->spaces[j] = c->spaces[j - 1];
		c->spaces[j] = sp;
	}
}

static void space_label(FILE *out, int label_platform, int64_t space)
{
	if (space == HD_TIMELINE_OTHER)
		fputs("other memory spaces", out);
	else if (hd_rc_space_name((enum hd_platform)label_platform, space))
		fprintf(out, "memory space %" PRId64 " (%s)", space,
			hd_rc_space_name((enum hd_platform)label_platform, space));
	else
		fprintf(out, "memory space %" PRId64, space);
}

/* Largest value of the panel's curves (at least 1). */
static int64_t panel_max(const struct chart *c, int64_t space)
{
	int64_t m = 1;
	int side;

	for (side = OLD; side <= NEW; side++) {
		int i = hd_timeline_space_index(&c->tl[side], space);
		if (i >= 0 && c->tl[side].spaces[i].max_bytes > m)
			m = c->tl[side].spaces[i].max_bytes;
	}
	return m;
}

static double ypos(double top, int64_t ymax, int64_t v)
{
	return top + TL_PANEL - (double)v / (double)ymax * TL_PANEL;
}

/*
 * One curve as a step path: each downsampled bucket [t, t_end) at its
 * maximum.
 */
static void curve_path(FILE *out, struct chart *c, int side, uint32_t idx,
		       double top, int64_t ymax)
{
	const struct hd_timeline *tl = &c->tl[side];
	const struct hd_timeline_space *sp = &tl->spaces[idx];
	size_t n = hd_timeline_downsample(tl, idx, HD_HTML_MAX_POINTS, c->pts), k;
	char h[HD_HUMAN_MAX];

	fprintf(out, "<path class=\"curve\" data-side=\"%s\" data-space=\"%" PRId64
		"\" stroke=\"%s\"%s d=\"", side_name[side], sp->space,
		side_color[side], side == OLD ? " stroke-dasharray=\"6 3\"" : "");
	for (k = 0; k < n; k++) {
		double y = ypos(top, ymax, c->pts[k].bytes);
		if (k == 0)
			fprintf(out, "M%.1f %.1f", xpos(c, side, (double)c->pts[k].t), y);
		else
			fprintf(out, "V%.1f", y);
		fprintf(out, "H%.1f", xpos(c, side, (double)c->pts[k].t_end));
	}
	fprintf(out, "\"><title>%s, ", side_name[side]);
	space_label(out, c->platform, sp->space);
	fprintf(out, ": max %s at t=%" PRId64 "</title></path>\n",
		human(h, sp->max_bytes), sp->max_time);
}

/* Panel title with both sides' maxima. */
static void panel_title(FILE *out, const struct chart *c, int64_t space,
			double top)
{
	char h[HD_HUMAN_MAX];
	int side;

	fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"%.1f\">", TL_LEFT, top - 9);
	space_label(out, c->platform, space);
	for (side = OLD; side <= NEW; side++) {
		int i = hd_timeline_space_index(&c->tl[side], space);
		fprintf(out, "%s %s ", side == OLD ? " &#8212;" : ",", side_name[side]);
		if (i < 0)
			fputs("none", out);
		else
			fprintf(out, "max %s at t=%" PRId64,
				human(h, c->tl[side].spaces[i].max_bytes),
				c->tl[side].spaces[i].max_time);
	}
	fputs("</text>\n", out);
}

/* One memory-space panel: title, grid with y labels, frame, curves. */
static void chart_panel(FILE *out, struct chart *c, uint32_t p)
{
	int64_t space = c->spaces[p], ymax = panel_max(c, space);
	double top = panel_top(p);
	char h[HD_HUMAN_MAX];
	int k, side;

	panel_title(out, c, space, top);
	for (k = 0; k <= 4; k++) {
		int64_t v = (int64_t)((double)ymax * k / 4.0);
		double y = ypos(top, ymax, v);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			TL_LEFT, TL_W - TL_RIGHT, y, y, TL_LEFT - 6, y + 4, human(h, v));
	}
	fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\"/>\n",
		TL_LEFT, top, TL_W - TL_LEFT - TL_RIGHT, TL_PANEL);
	for (side = NEW; side >= OLD; side--) {
		int i = hd_timeline_space_index(&c->tl[side], space);
		if (i >= 0)
			curve_path(out, c, side, (uint32_t)i, top, ymax);
	}
}

/* 1, 2 or 5 times a power of ten, about span / TL_XTICKS. */
static int64_t nice_step(int64_t span)
{
	int64_t raw = span / TL_XTICKS, mag = 1;

	if (raw < 1)
		return 1;
	while (mag <= INT64_MAX / 10 && mag * 10 <= raw)
		mag *= 10;
	if (raw <= mag)
		return mag;
	if (raw <= 2 * mag)
		return 2 * mag;
	if (raw <= 5 * mag)
		return 5 * mag;
	return 10 * mag;
}

/* y of the x axis: the bottom of the last panel. */
static double axis_y(const struct chart *c)
{
	return c->height - TL_BOTTOM - (c->frac ? TL_FRAC_EXTRA : 0);
}

/* Schedules of different lengths: ticks at shares of each program, with
 * the step of each side under each. */
static void chart_xaxis_frac(FILE *out, const struct chart *c)
{
	double y = axis_y(c);
	int k, side;

	for (k = 0; k <= 4; k++) {
		double f = k / 4.0, x = TL_LEFT + f * (TL_W - TL_LEFT - TL_RIGHT);

		fprintf(out, "<text class=\"xtick\" data-frac=\"%.2f\" x=\"%.1f\" "
			"y=\"%.1f\" text-anchor=\"middle\">%d%%</text>\n",
			f, x, y + 14, k * 25);
		for (side = OLD; side <= NEW; side++)
			fprintf(out, "<text class=\"xtick-%s\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\" fill=\"%s\">%s %" PRId64 "</text>\n",
				side_name[side], x, y + 26 + 11 * side, side_color[side],
				side_name[side], (int64_t)(f * (double)c->tl[side].t_max));
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">program "
		"position as a share of each schedule (old %" PRId64 " steps, new %"
		PRId64 ")</text>\n", (TL_LEFT + TL_W - TL_RIGHT) / 2, y + 52,
		c->tl[OLD].t_max, c->tl[NEW].t_max);
}

static void chart_xaxis(FILE *out, const struct chart *c)
{
	double y = axis_y(c);
	int64_t step = nice_step(c->tx), t;

	if (c->frac) {
		chart_xaxis_frac(out, c);
		return;
	}
	for (t = 0; t <= c->tx; t += step) {
		fprintf(out, "<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%" PRId64 "</text>\n",
			xpos(c, OLD, (double)t), y + 14, t);
		if (t > INT64_MAX - step)
			break;
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">program order "
		"(position in the instruction sequence)</text>\n",
		(TL_LEFT + TL_W - TL_RIGHT) / 2, y + 32);
}

static void chart_legend(FILE *out)
{
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"14\" y2=\"14\" stroke=\"%s\" "
		"stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
		"<text x=\"%.1f\" y=\"18\">old</text>\n",
		TL_LEFT, TL_LEFT + 30, OLD_COLOR, TL_LEFT + 36);
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"14\" y2=\"14\" stroke=\"%s\" "
		"stroke-width=\"2\"/><text x=\"%.1f\" y=\"18\">new</text>\n",
		TL_LEFT + 80, TL_LEFT + 110, NEW_COLOR, TL_LEFT + 116);
}

/*
 * The peak of one side: a vertical line at the middle of its time step
 * across all panels, a label on its own row, and a dot on each of the
 * side's curves.
 */
static void chart_peak(FILE *out, const struct chart *c, int side)
{
	const struct hd_peak_side *s = c->peak[side];
	double x = xpos(c, side, (double)s->time + 0.5);
	double label_y = side == OLD ? 36 : 52;
	int right = x > TL_W / 2;
	char h[HD_HUMAN_MAX];
	uint32_t p;

	fprintf(out, "<g class=\"peak-marker\" data-side=\"%s\" data-time=\"%" PRId64
		"\" data-stated=\"0\">\n<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.2\"%s/>\n",
		side_name[side], s->time, x, x, label_y + 4,
		axis_y(c), side_color[side],
		side == OLD ? " stroke-dasharray=\"2 2\"" : "");
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">%s peak "
		"at t=%" PRId64 ": %s held</text>\n", right ? x - 5 : x + 5, label_y,
		right ? "end" : "start", side_color[side], side_name[side], s->time,
		human(h, s->bytes));
	for (p = 0; p < c->n_spaces; p++) {
		int i = hd_timeline_space_index(&c->tl[side], c->spaces[p]);
		int64_t ymax = panel_max(c, c->spaces[p]);
		if (i < 0)
			continue;
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", x,
			ypos(panel_top(p), ymax,
			     hd_timeline_at(&c->tl[side], (uint32_t)i, s->time)),
			side_color[side]);
	}
	fputs("</g>\n", out);
}

static void chart_svg(FILE *out, struct chart *c)
{
	int side;
	uint32_t p;

	union_spaces(c);
	c->tx = 1;
	for (side = OLD; side <= NEW; side++) {
		c->txs[side] = c->tl[side].has ? c->tl[side].t_max + 1 : 0;
		if (c->txs[side] > c->tx)
			c->tx = c->txs[side];
	}
	c->frac = c->txs[OLD] > 0 && c->txs[NEW] > 0 && c->txs[OLD] != c->txs[NEW];
	c->height = TL_TOP + c->n_spaces * (TL_GAP + TL_PANEL) + TL_BOTTOM +
		(c->frac ? TL_FRAC_EXTRA : 0);
	c->pts = hd_xmalloc(HD_HTML_MAX_POINTS * sizeof(*c->pts));
	fprintf(out, "<svg id=\"timeline-chart\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"live bytes over "
		"program order\"", TL_W, c->height);
	if (c->frac)
		fprintf(out, " data-axis=\"share\" data-span-old=\"%" PRId64
			"\" data-span-new=\"%" PRId64 "\"", c->txs[OLD], c->txs[NEW]);
	fputs(">\n", out);
	chart_legend(out);
	for (p = 0; p < c->n_spaces; p++)
		chart_panel(out, c, p);
	chart_xaxis(out, c);
	for (side = OLD; side <= NEW; side++)
		if (c->peak[side]->has && c->tl[side].has)
			chart_peak(out, c, side);
	fputs("</svg>\n", out);
	free(c->pts);
}

static void section_timeline(FILE *out, const struct hd_diff *df)
{
	struct chart c;
	int side;

	memset(&c, 0, sizeof(c));
	hd_timeline_compute(&c.tl[OLD], df->old);
	hd_timeline_compute(&c.tl[NEW], df->new_dump);
	c.peak[OLD] = &df->peak.old_side;
	c.peak[NEW] = &df->peak.new_side;
	c.platform = hd_rc_diff_platform(df);
	fputs("<section id=\"timeline\">\n<h2>Live bytes over program order</h2>\n", out);
	fputs("<p class=\"note\">Sum of the logical sizes of the values live at each "
	      "position (BufferLiveRange, start &#8804; t &#8804; end), one panel per "
	      "memory space; each step is the maximum over its span.</p>\n", out);
	if (c.tl[OLD].has && c.tl[NEW].has && c.tl[OLD].t_max != c.tl[NEW].t_max)
		fprintf(out, "<p class=\"note\" id=\"timeline-share\">The schedules differ "
			"in length (old %" PRId64 " steps, new %" PRId64 "): each curve spans "
			"the whole width, so x is a share of its own program (50%% is step %"
			PRId64 " of old and %" PRId64 " of new), not one step number.</p>\n",
			c.tl[OLD].t_max, c.tl[NEW].t_max, c.tl[OLD].t_max / 2,
			c.tl[NEW].t_max / 2);
	for (side = OLD; side <= NEW; side++)
		if (!c.tl[side].has)
			fprintf(out, "<p class=\"note\" id=\"timeline-note-%s\">"
				"%s: no curve (%s)</p>\n", side_name[side],
				side_name[side], c.tl[side].why);
	if (c.tl[OLD].has || c.tl[NEW].has)
		chart_svg(out, &c);
	else
		fputs("<p class=\"note\" id=\"timeline-omitted\">Chart omitted: neither "
		      "dump has usable live ranges.</p>\n", out);
	fputs("</section>\n", out);
	hd_timeline_release(&c.tl[OLD]);
	hd_timeline_release(&c.tl[NEW]);
}

/* ---- peak bars ------------------------------------------------------------ */

/*
 * Layout of the two bars.  The values drawn are the HD_HTML_MAX_SEGMENTS
 * largest of each side, stacked on both bars in one order (largest of
 * the two sides at the bottom) so that a matched value sits at about the
 * same height on both; the k-th of that order gets the k-th colour, the
 * same on both sides.
 */
struct bars {
	const struct hd_diff *df;
	const struct hd_peak_side *side[2];
	/* entries of df->peak.values, stacking order */
	uint32_t order[2 * HD_HTML_MAX_SEGMENTS];
	size_t n;
	uint32_t *pos_of;       /* entry -> index in order, HD_NONE if not drawn */
	uint8_t shown[2][2 * HD_HTML_MAX_SEGMENTS];  /* order[k] drawn on that side */
	/* segment top and bottom per order index */
	double y0[2][2 * HD_HTML_MAX_SEGMENTS], y1[2][2 * HD_HTML_MAX_SEGMENTS];
	double top[2];          /* y of the top of the drawn segments */
	int64_t drawn[2];       /* bytes of the drawn segments */
	double scale;           /* pixels per byte */
	double base;            /* y of the bars' bottom */
};

struct pick {
	int64_t bytes;
	uint32_t e;             /* index into df->peak.values */
};

/* Bytes descending, then index ascending. */
static int cmp_pick(const void *pa, const void *pb)
{
	const struct pick *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return (a->e > b->e) - (a->e < b->e);
}

static const struct hd_peak_value *peak_value(const struct hd_diff *df,
					      uint32_t e)
{
	return &HD_VEC_AT(&df->peak.values, struct hd_peak_value, e);
}

static int64_t side_bytes(const struct hd_peak_value *e, int side)
{
	return side == OLD ? e->old_bytes : e->new_bytes;
}

/* Colour k of the stacking order: golden-angle hues, so neighbours
 * differ; entries not drawn are part of "others". */
static void fill_of(char *buf, size_t n, uint32_t k)
{
	if (k == HD_NONE) {
		snprintf(buf, n, "%s", OTHERS_COLOR);
		return;
	}
	snprintf(buf, n, "hsl(%u,62%%,%u%%)",
		 (unsigned)((uint64_t)k * 137508u / 1000u % 360u), k % 2 ? 62u : 48u);
}

/* Marks in chosen[] (bit = side) the HD_HTML_MAX_SEGMENTS largest
 * values of each side. */
static void choose_segments(const struct hd_diff *df, uint8_t *chosen)
{
	size_t n = df->peak.values.len, i, k;
	struct pick *tmp = hd_xmalloc((n ? n : 1) * sizeof(*tmp));
	int side;

	for (side = OLD; side <= NEW; side++) {
		k = 0;
		for (i = 0; i < n; i++) {
			int64_t b = side_bytes(peak_value(df, (uint32_t)i), side);
			if (b > 0) {
				tmp[k].bytes = b;
				tmp[k++].e = (uint32_t)i;
			}
		}
		qsort(tmp, k, sizeof(*tmp), cmp_pick);
		for (i = 0; i < k && i < HD_HTML_MAX_SEGMENTS; i++)
			chosen[tmp[i].e] |= (uint8_t)(1u << side);
	}
	free(tmp);
}

/* Fills b->order, pos_of and shown from the chosen values. */
static void order_segments(struct bars *b)
{
	size_t n = b->df->peak.values.len, i, k;
	uint8_t *chosen = hd_xcalloc(n ? n : 1, 1);
	struct pick order[2 * HD_HTML_MAX_SEGMENTS];
	int side;

	choose_segments(b->df, chosen);
	for (i = 0; i < n; i++) {
		const struct hd_peak_value *e = peak_value(b->df, (uint32_t)i);
		b->pos_of[i] = HD_NONE;
		if (!chosen[i])
			continue;
		order[b->n].bytes = e->old_bytes > e->new_bytes ? e->old_bytes : e->new_bytes;
		order[b->n++].e = (uint32_t)i;
	}
	qsort(order, b->n, sizeof(order[0]), cmp_pick);
	for (k = 0; k < b->n; k++) {
		b->order[k] = order[k].e;
		b->pos_of[order[k].e] = (uint32_t)k;
		for (side = OLD; side <= NEW; side++)
			b->shown[side][k] = (chosen[order[k].e] >> side) & 1;
	}
	free(chosen);
}

/* Scale (the larger side fills the height) and segment positions. */
static void layout_bars(struct bars *b)
{
	int64_t most = 1;
	size_t k;
	int side;

	for (side = OLD; side <= NEW; side++) {
		for (k = 0; k < b->n; k++)
			if (b->shown[side][k])
				b->drawn[side] = hd_sat_add(b->drawn[side],
					side_bytes(peak_value(b->df, b->order[k]), side));
		if (b->drawn[side] > most)
			most = b->drawn[side];
		if (b->side[side]->has && b->side[side]->bytes > most)
			most = b->side[side]->bytes;
	}
	b->base = BAR_H - BAR_BOTTOM;
	b->scale = (BAR_H - BAR_TOP - BAR_BOTTOM) / (double)most;
	for (side = OLD; side <= NEW; side++) {
		double y = b->base;
		for (k = 0; k < b->n; k++) {
			if (!b->shown[side][k])
				continue;
			b->y1[side][k] = y;
			y -= (double)side_bytes(peak_value(b->df, b->order[k]), side) *
				b->scale;
			b->y0[side][k] = y;
		}
		b->top[side] = y;
	}
}

static void bars_init(struct bars *b, const struct hd_diff *df)
{
	size_t n = df->peak.values.len;

	memset(b, 0, sizeof(*b));
	b->df = df;
	b->side[OLD] = &df->peak.old_side;
	b->side[NEW] = &df->peak.new_side;
	b->pos_of = hd_xmalloc((n ? n : 1) * sizeof(*b->pos_of));
	order_segments(b);
	layout_bars(b);
}

static double bar_x(int side)
{
	return side == OLD ? BAR_OLD_X : BAR_NEW_X;
}

/* Label beside a segment: left of the old bar, right of the new one. */
static void seg_label_open(FILE *out, int side, double y)
{
	if (side == OLD)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			BAR_OLD_X - 8, y + 4);
	else
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", BAR_NEW_X + BAR_WIDTH + 8, y + 4);
}

static void bar_segment(FILE *out, const struct bars *b, int side, size_t k)
{
	const struct hd_peak_value *e = peak_value(b->df, b->order[k]);
	int64_t bytes = side_bytes(e, side);
	double y = b->y0[side][k], h = b->y1[side][k] - y;
	char fill[48], hb[HD_HUMAN_MAX];

	fill_of(fill, sizeof(fill), (uint32_t)k);
	fprintf(out, "<rect class=\"seg\" data-side=\"%s\" x=\"%.1f\" y=\"%.2f\" "
		"width=\"%.1f\" height=\"%.2f\" fill=\"%s\"><title>", side_name[side],
		bar_x(side), y, BAR_WIDTH, h, fill);
	esc_pair(out, b->df, e->old_v, e->new_v, HD_HTML_TEXT_MAX);
	fprintf(out, ": %s %" PRId64 " bytes (%s)</title></rect>\n", side_name[side],
		bytes, hd_peak_role_name((enum hd_peak_role)e->role));
	if (h < BAR_LABEL_MIN)
		return;
	seg_label_open(out, side, y + h / 2);
	esc_value(out, side == OLD ? b->df->old : b->df->new_dump,
		  side == OLD ? e->old_v : e->new_v, BAR_LABEL_MAX);
	fprintf(out, " %s</text>\n", human(hb, bytes));
}

/* One side's bar: its segments, then "others" up to the side's bytes. */
static void peak_bar(FILE *out, const struct bars *b, int side)
{
	const struct hd_peak_side *s = b->side[side];
	double y = b->top[side], h;
	int64_t rest = s->bytes > b->drawn[side] ? s->bytes - b->drawn[side] : 0;
	uint32_t n_rest = s->count;
	char hb[HD_HUMAN_MAX];
	size_t k;

	for (k = 0; k < b->n; k++)
		if (b->shown[side][k]) {
			bar_segment(out, b, side, k);
			n_rest = n_rest ? n_rest - 1 : 0;
		}
	if (rest > 0) {
		h = (double)rest * b->scale;
		y -= h;
		fprintf(out, "<rect class=\"seg others\" data-side=\"%s\" x=\"%.1f\" "
			"y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"%s\">"
			"<title>%u other value%s: %" PRId64 " bytes</title></rect>\n", side_name[side], bar_x(side), y,
			BAR_WIDTH, h, OTHERS_COLOR, n_rest, n_rest == 1 ? "" : "s", rest);
		if (h >= BAR_LABEL_MIN) {
			seg_label_open(out, side, y + h / 2);
			fprintf(out, "%u others %s</text>\n", n_rest, human(hb, rest));
		}
	}
	fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"%s: %s at t=%" PRId64 "</text>\n", bar_x(side) + BAR_WIDTH / 2, y - 8,
		side_name[side], human(hb, hd_sat_add(b->drawn[side], rest)), s->time);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s peak</text>\n",
		bar_x(side) + BAR_WIDTH / 2, b->base + 18, side_name[side]);
}

/* Bands joining a value's old and new segments. */
static void peak_links(FILE *out, const struct bars *b)
{
	double xo = BAR_OLD_X + BAR_WIDTH, xn = BAR_NEW_X;
	char fill[48];
	size_t k;

	for (k = 0; k < b->n; k++) {
		if (!b->shown[OLD][k] || !b->shown[NEW][k])
			continue;
		fill_of(fill, sizeof(fill), (uint32_t)k);
		fprintf(out, "<polygon class=\"link\" points=\"%.1f,%.2f %.1f,%.2f %.1f,%.2f "
			"%.1f,%.2f\" fill=\"%s\" fill-opacity=\"0.3\"/>\n", xo, b->y0[OLD][k],
			xn, b->y0[NEW][k], xn, b->y1[NEW][k], xo, b->y1[OLD][k], fill);
	}
}

static void peak_svg(FILE *out, const struct bars *b)
{
	int side;

	fprintf(out, "<svg id=\"peak-bars\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-label=\"values live at the peaks\">\n", BAR_W, BAR_H);
	peak_links(out, b);
	for (side = OLD; side <= NEW; side++)
		if (b->side[side]->has)
			peak_bar(out, b, side);
	fputs("</svg>\n", out);
}

/* The peak values by |delta|, at most HD_HTML_PEAK_ROWS, with the
 * colour of their segment. */
static void peak_table(FILE *out, const struct bars *b)
{
	const struct hd_peak_diff *p = &b->df->peak;
	size_t i, n = p->values.len < HD_HTML_PEAK_ROWS ? p->values.len : HD_HTML_PEAK_ROWS;
	char fill[48];

	if (n == 0)
		return;
	fputs("<table id=\"peak-values\"><thead><tr><th>role</th><th>value</th>"
	      "<th class=\"n\">old</th><th class=\"n\">new</th><th class=\"n\">delta</th>"
	      "</tr></thead><tbody>\n", out);
	for (i = 0; i < n; i++) {
		const struct hd_peak_value *e = peak_value(b->df, (uint32_t)i);
		fill_of(fill, sizeof(fill), b->pos_of[i]);
		fprintf(out, "<tr><td>%s</td><td class=\"v\"><span class=\"swatch\" "
			"style=\"background:%s\"></span>",
			hd_peak_role_name((enum hd_peak_role)e->role), fill);
		esc_pair(out, b->df, e->old_v, e->new_v, HD_HTML_TEXT_MAX);
		fputs("</td>", out);
		bytes_cell(out, e->old_bytes, 0);
		bytes_cell(out, e->new_bytes, 0);
		delta_cell(out, e->delta);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	if (p->values.len > n)
		fprintf(out, "<p class=\"note\">%zu of %zu values live at a peak shown "
			"(largest changes first).</p>\n", n, p->values.len);
}

static void section_peak(FILE *out, const struct hd_diff *df)
{
	const struct hd_peak_diff *p = &df->peak;
	struct bars b;

	fputs("<section id=\"peak\">\n<h2>Values live at the peak</h2>\n", out);
	if (!p->old_side.has && !p->new_side.has) {
		fputs("<p class=\"note\">Neither dump states or allows to recompute a "
		      "peak.</p>\n</section>\n", out);
		return;
	}
	fprintf(out, "<p class=\"note\">%u value%s live at both peaks, %u only at the "
		"new one, %u only at the old one.  A value has the same colour on both "
		"bars; at most %d values per bar, the rest in grey as &#8220;others&#8221;."
		"</p>\n", p->n_both, p->n_both == 1 ? "" : "s", p->n_entered, p->n_left,
		HD_HTML_MAX_SEGMENTS);
	bars_init(&b, df);
	peak_svg(out, &b);
	peak_table(out, &b);
	free(b.pos_of);
	fputs("</section>\n", out);
}

/* ---- rules ---------------------------------------------------------------- */

static void section_rules(FILE *out, const char *rules_html)
{
	fputs("<section id=\"rules\">\n<h2>Rules</h2>\n", out);
	if (rules_html)
		fputs(rules_html, out);
	else
		fputs("<p class=\"note\">no rules evaluated</p>", out);
	fputs("\n</section>\n", out);
}

/* ---- movers --------------------------------------------------------------- */

/* Memory space cell: the new value's, "0&#8594;1" when it moved. */
static void space_cell(FILE *out, const struct hd_diff *df,
		       const struct hd_value_diff *x)
{
	int64_t o = x->old_v != HD_NONE ? hd_timeline_value_space(df->old, x->old_v) : -1;
	int64_t n = x->new_v != HD_NONE ? hd_timeline_value_space(df->new_dump, x->new_v) : -1;

	enum hd_platform pf = hd_rc_diff_platform(df);
	char a[40], b[40];

	fprintf(out, "<td class=\"n\" data-v=\"%" PRId64 "\">", n >= 0 ? n : o);
	hd_rc_space_text(a, sizeof(a), pf, o);
	hd_rc_space_text(b, sizeof(b), pf, n);
	if (o >= 0 && n >= 0 && o != n)
		fprintf(out, "%s&#8594;%s", a, b);
	else
		fputs(n >= 0 ? b : a, out);
	fputs("</td>", out);
}

/* A cell of long text (op_name, shape, source) that cuts it off on the
 * page: s, cut at max bytes, as its text and its tooltip. */
static void op_cell(FILE *out, struct hd_slice s, size_t max)
{
	fputs("<td class=\"op\" title=\"", out);
	esc_cut(out, s, max);
	fputs("\">", out);
	esc_cut(out, s, max);
	fputs("</td>", out);
}

/* The shape cell (old -> new when it changed) and the source cell
 * (file:line, the whole path as tooltip) of a mover. */
static void mover_shape_source(FILE *out, const struct hd_diff *df,
			       const struct hd_value_diff *x)
{
	struct hd_insn_source s = hd_rc_diff_source(df, x->old_v, x->new_v);
	char shape[1024], src[1024];

	hd_rc_shape_pair(shape, sizeof(shape), df, x->old_v, x->new_v);
	hd_rc_source_text(src, sizeof(src), &s, NULL);
	hd_mask_text(shape);	/* a cut may have split a UTF-8 sequence */
	hd_mask_text(src);
	op_cell(out, hd_slice_cstr(shape), SIZE_MAX);
	op_cell(out, hd_slice_cstr(src), SIZE_MAX);
}

static void mover_row(FILE *out, const struct hd_diff *df, uint32_t rank,
		      const struct hd_value_diff *x)
{
	const struct hd_dump *d = x->new_v != HD_NONE ? df->new_dump : df->old;
	uint32_t v = x->new_v != HD_NONE ? x->new_v : x->old_v;
	uint32_t insn = HD_VALUE(d, v).insn;
	struct hd_slice op_name;
	char words[96];

	fprintf(out, "<tr><td class=\"n\" data-v=\"%u\">%u</td><td>%s</td><td class=\"v\">",
		rank, rank, hd_rc_value_verb(x));
	esc_pair(out, df, x->old_v, x->new_v, HD_HTML_TEXT_MAX);
	fputs("</td>", out);
	space_cell(out, df, x);
	bytes_cell(out, x->old_bytes, 1);
	bytes_cell(out, x->new_bytes, 1);
	delta_cell(out, x->delta);
	hd_rc_change_words(words, sizeof(words), x->changes);
	fprintf(out, "<td>%s</td><td>%s</td>", words,
		x->status == HD_STATUS_MATCHED ?
		hd_match_how_name((enum hd_match_how)x->how) : "");
	op_name = insn == HD_NONE ? HD_SLICE_NULL :
				    hd_insn_source_of(d, insn).op_name;
	if (op_name.n == 0)
		fputs("<td class=\"op\"></td>", out);
	else
		op_cell(out, op_name, HD_HTML_TEXT_MAX);
	mover_shape_source(out, df, x);
	fputs("</tr>\n", out);
}

static void section_movers(FILE *out, const struct hd_diff *df, int top_n)
{
	uint32_t shown = df->n_listed, i;

	if (top_n > 0 && shown > (uint32_t)top_n)
		shown = (uint32_t)top_n;
	if (shown > HD_HTML_MAX_ROWS)
		shown = HD_HTML_MAX_ROWS;
	fputs("<section id=\"movers-section\">\n<h2>Top movers</h2>\n", out);
	if (shown == 0) {
		fputs("<p class=\"note\">No value differs.</p>\n</section>\n", out);
		return;
	}
	fprintf(out, "<p><input type=\"search\" id=\"movers-filter\" placeholder=\"filter "
		"by value, status, op_name&#8230;\" aria-label=\"filter the table\">"
		"<span id=\"movers-count\">%u shown</span></p>\n", shown);
	fputs("<table id=\"movers\"><thead><tr><th class=\"n\">#</th><th>status</th>"
	      "<th>value</th><th class=\"n\">space</th><th class=\"n\">old</th>"
	      "<th class=\"n\">new</th><th class=\"n\">delta</th><th>changes</th>"
	      "<th>match</th><th>op_name</th><th>shape</th><th>source</th>"
	      "</tr></thead><tbody>\n", out);
	for (i = 0; i < shown; i++)
		mover_row(out, df, i + 1, &HD_VEC_AT(&df->values, struct hd_value_diff, i));
	fputs("</tbody></table>\n", out);
	if (shown < df->n_listed)
		fprintf(out, "<p class=\"note\" id=\"movers-cut\">The %u largest of %u values "
			"that differ are shown; the text and JSON reports list all "
			"(hlodiff -n 0).</p>\n", shown, df->n_listed);
	fputs("</section>\n", out);
}

/* ---- figures --------------------------------------------------------------- */

static void figure_cell(FILE *out, int has, int64_t v, int is_bytes)
{
	if (!has)
		fputs("<td class=\"n\">-</td>", out);
	else if (is_bytes)
		bytes_cell(out, v, 0);
	else
		fprintf(out, "<td class=\"n\">%" PRId64 "</td>", v);
}

static void section_figures(FILE *out, const struct hd_diff *df)
{
	size_t i;

	fputs("<section id=\"figures\">\n<h2>Figures</h2>\n<table><thead><tr>"
	      "<th>figure</th><th class=\"n\">old</th><th class=\"n\">new</th>"
	      "<th class=\"n\">delta</th><th class=\"n\">%</th></tr></thead><tbody>\n", out);
	for (i = 0; i < df->rows.len; i++) {
		const struct hd_figure_row *r = &HD_VEC_AT(&df->rows, struct hd_figure_row, i);
		char pc[32];
		fputs("<tr><td>", out);
		esc_cstr(out, r->name);
		fputs("</td>", out);
		figure_cell(out, r->has_old, r->old_v, r->is_bytes);
		figure_cell(out, r->has_new, r->new_v, r->is_bytes);
		if (r->has_old && r->has_new) {
			int64_t d = hd_delta(r->old_v, r->new_v);
			if (r->is_bytes)
				delta_cell(out, d);
			else
				fprintf(out, "<td class=\"n\">%+" PRId64 "</td>", d);
			hd_percent(pc, sizeof(pc), r->old_v, r->new_v);
			if (hd_rc_row_is_time(r))
				pc[0] = '\0';	/* a program position */
			fprintf(out, "<td class=\"n\">%s</td>", pc);
		} else {
			fputs("<td class=\"n\">-</td><td></td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

/* ---- script ----------------------------------------------------------------- */

/*
 * Sorting (click or Enter on a header: numbers by data-v, descending
 * first; text ascending first) and filtering (rows whose text contains
 * the box's text, case-insensitive) of the movers table.
 */
/* Every movers table of the page ("movers", or "PREFIX-movers" on the
 * page of many modules) with its filter box and count. */
static const char script[] =
	"Array.prototype.forEach.call(document.querySelectorAll(\"table[id$=movers]\"), "
	"function (table) {\n"
	"\"use strict\";\n"
	"var body = table.tBodies[0], heads = table.tHead.rows[0].cells;\n"
	"var filter = document.getElementById(table.id + \"-filter\");\n"
	"var count = document.getElementById(table.id + \"-count\");\n"
	"var col = -1, dir = 1;\n"
	"function key(row, c) {\n"
	"  var cell = row.cells[c], v = cell.getAttribute(\"data-v\");\n"
	"  return v === null ? cell.textContent.toLowerCase() : Number(v);\n"
	"}\n"
	"function sortBy(c) {\n"
	"  dir = c === col ? -dir : (heads[c].classList.contains(\"n\") ? -1 : 1);\n"
	"  col = c;\n"
	"  var rows = Array.prototype.slice.call(body.rows);\n"
	"  rows.sort(function (a, b) {\n"
	"    var x = key(a, c), y = key(b, c);\n"
	"    return (x < y ? -1 : x > y ? 1 : 0) * dir;\n"
	"  });\n"
	"  rows.forEach(function (r) { body.appendChild(r); });\n"
	"  for (var i = 0; i < heads.length; i++) heads[i].removeAttribute(\"aria-sort\");\n"
	"  heads[c].setAttribute(\"aria-sort\", dir > 0 ? \"ascending\" : \"descending\");\n"
	"}\n"
	"Array.prototype.forEach.call(heads, function (h, c) {\n"
	"  h.tabIndex = 0;\n"
	"  h.addEventListener(\"click\", function () { sortBy(c); });\n"
	"  h.addEventListener(\"keydown\", function (e) {\n"
	"    if (e.key === \"Enter\") sortBy(c);\n"
	"  });\n"
	"});\n"
	"filter.addEventListener(\"input\", function () {\n"
	"  var q = filter.value.toLowerCase(), n = 0;\n"
	"  Array.prototype.forEach.call(body.rows, function (r) {\n"
	"    var hit = r.textContent.toLowerCase().indexOf(q) >= 0;\n"
	"    r.hidden = !hit;\n"
	"    if (hit) n++;\n"
	"  });\n"
	"  count.textContent = n + \" shown\";\n"
	"});\n"
	"});\n";

/* ---- breakdown ------------------------------------------------------------ */

/* One node and, folded in <details>, its children; depth-capped. */
static void breakdown_node(FILE *out, const struct hd_breakdown *b,
			   const struct hd_by_node *nd, int depth)
{
	char o[32], nw[32], d[32];
	uint32_t i;

	snprintf(o, sizeof(o), "%" PRId64, nd->old_bytes);
	snprintf(nw, sizeof(nw), "%" PRId64, nd->new_bytes);
	hd_signed(d, sizeof(d), hd_delta(nd->old_bytes, nd->new_bytes));
	fputs(nd->child_count && depth < 64 ? "<li><details><summary>" : "<li>", out);
	hd_html_escape(out, nd->name, strlen(nd->name));
	fprintf(out, " <span class=\"num\">%s &#8594; %s (%s)</span>", o, nw, d);
	if (!nd->child_count || depth >= 64) {
		fputs("</li>\n", out);
		return;
	}
	fputs("</summary>\n<ul>\n", out);
	for (i = 0; i < nd->child_count; i++)
		breakdown_node(out, b, hd_breakdown_child(b, nd, i), depth + 1);
	fputs("</ul></details></li>\n", out);
}

static void section_breakdown(FILE *out, const struct hd_breakdown *b)
{
	if (!b)
		return;
	fputs("<section id=\"breakdown\">\n<h2>Where the bytes went</h2>\n", out);
	fprintf(out, "<p class=\"note\">%s; bytes old &#8594; new (delta).</p>\n",
		hd_breakdown_measure(b) == HD_BY_PEAK_BYTES ?
		"bytes of the values live at each peak" :
		"sum of value sizes (not total bytes: values share allocations)");
	fputs("<ul class=\"tree\">\n", out);
	breakdown_node(out, b, hd_breakdown_root(b), 0);
	fputs("</ul>\n</section>\n", out);
}

/* ---- notes and scaling (diff.h) --------------------------------------------- */

static void section_notes(FILE *out, const struct hd_diff *df)
{
	char buf[640];

	if (hd_rc_module_note(buf, sizeof(buf), df)) {
		fputs("<p class=\"note\">Note: ", out);
		esc_cstr(out, buf);
		fputs("</p>\n", out);
	}
	if (hd_rc_programs_note(buf, sizeof(buf), df)) {
		fputs("<p class=\"note\">Note: ", out);
		esc_cstr(out, buf);
		fputs("</p>\n", out);
	}
}

static void section_scaling(FILE *out, const struct hd_diff *df)
{
	struct hd_scaling sc;
	char r[32], d[40], buf[640];
	uint32_t i;

	hd_diff_scaling(df, &sc);
	if (sc.shown) {
		fprintf(out, "<section id=\"scaling\">\n<h2>Scaling</h2>\n"
			"<p>%" PRIu32 " of %" PRIu32 " matched values changed size."
			"</p>\n<table>\n<tr><th>size ratio</th><th>values</th>"
			"<th>delta</th></tr>\n", sc.n_resized, sc.n_matched);
		for (i = 0; i < sc.n_groups; i++) {
			hd_rc_scale_group(r, sizeof(r), d, sizeof(d), &sc.groups[i]);
			fprintf(out, "<tr><td>%s</td><td class=\"num\">%" PRIu32
				"</td><td class=\"num\">%s</td></tr>\n", r,
				sc.groups[i].n, d);
		}
		fputs("</table>\n", out);
		if (sc.n_others)
			fputs("<p>Others:</p>\n<ul>\n", out);
		for (i = 0; i < sc.n_others; i++) {
			hd_rc_scaling_other(buf, sizeof(buf), df, sc.others[i]);
			fputs("<li>", out);
			esc_cstr(out, buf);
			fputs("</li>\n", out);
		}
		if (sc.n_others)
			fputs("</ul>\n", out);
		fputs("</section>\n", out);
	}
	hd_scaling_release(&sc);
}

void hd_report_html(FILE *out, const struct hd_diff *df,
		    const char *rules_html, int top_n)
{
	hd_report_html_full(out, df, rules_html, NULL, top_n);
}

static void page_body(FILE *out, const struct hd_diff *df, const char *rules_html,
		      const struct hd_breakdown *breakdown, int top_n,
		      const char *title)
{
	section_summary(out, df, title);
	section_notes(out, df);
	section_scaling(out, df);
	section_timeline(out, df);
	section_peak(out, df);
	section_rules(out, rules_html);
	section_breakdown(out, breakdown);
	section_movers(out, df, top_n);
	section_figures(out, df);
}

static void page_end(FILE *out)
{
	fputs("<script>\n", out);
	fputs(script, out);
	fputs("</script>\n</body>\n</html>\n", out);
}

void hd_report_html_full(FILE *out, const struct hd_diff *df,
			 const char *rules_html,
			 const struct hd_breakdown *breakdown, int top_n)
{
	page_head(out, "hlodiff: ", df, "");
	page_body(out, df, rules_html, breakdown, top_n, NULL);
	page_end(out);
}

/* ---- many modules on one page -------------------------------------------- */

void hd_report_html_module(FILE *out, const struct hd_diff *df,
			   const char *rules_html,
			   const struct hd_breakdown *breakdown, int top_n,
			   const char *title, const char *id_prefix)
{
	char *buf = NULL, *p, *end;
	size_t len = 0;
	FILE *mem = hd_memstream_open(&buf, &len);

	page_body(mem, df, rules_html, breakdown, top_n, title);
	hd_memstream_close(mem);
	/* one page holds many: ids get the module's prefix, headings go one
	 * level down under the page's own */
	for (p = buf, end = buf + len; p < end; p++) {
		size_t left = (size_t)(end - p);

		if (left >= 5 && memcmp(p, " id=\"", 5) == 0) {
			fprintf(out, " id=\"%s-", id_prefix);
			p += 4;
		} else if (left >= 4 && p[0] == '<' && p[1] == 'h' &&
			   (p[2] == '1' || p[2] == '2') && p[3] == '>') {
			fprintf(out, "<h%c>", p[2] + 1);
			p += 3;
		} else if (left >= 5 && memcmp(p, "</h", 3) == 0 &&
			   (p[3] == '1' || p[3] == '2') && p[4] == '>') {
			fprintf(out, "</h%c>", p[3] + 1);
			p += 4;
		} else {
			fputc(*p, out);
		}
	}
	free(buf);
}

void hd_html_page_begin(FILE *out, const char *title)
{
	page_head(out, title, NULL, "h3{font-size:15px;margin:22px 0 6px}\n"
		  "section.module{border-top:3px solid #cbd5e0;margin-top:36px}\n");
}

void hd_html_page_end(FILE *out)
{
	page_end(out);
}
