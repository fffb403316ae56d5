/*
 * html.h - the memory picture: one self-contained HTML page for a diff.
 *
 * The page has no external resource (no CSS, script, font or image from
 * anywhere): inline CSS, inline SVG and one small inline script for the
 * movers table.  It shows, top to bottom:
 *
 *   - the two file names, the value counts and the figure rows;
 *   - live bytes over program order (timeline.h), one panel per memory
 *     space, old dashed and new solid, each curve an SVG
 *     <path class="curve" data-side="old|new" data-space="N">, and one
 *     <g class="peak-marker" data-side=".." data-time="T"> per side at the
 *     program position of its peak (stated, else recomputed);
 *   - the values live at each peak as two stacked bars (old, new) on one
 *     scale, a matched value in the same colour on both sides (the
 *     colour of the pair's place in the stacking order), joined by a band;
 *   - the rule results (a fragment rendered by the caller);
 *   - the values that moved most in a table sorted by a click on a column
 *     header and filtered by a text box.
 *
 * Size: every part is bounded whatever the dump size (curves at most
 * HD_HTML_MAX_POINTS points, bars HD_HTML_MAX_SEGMENTS values per side
 * plus "others", tables HD_HTML_MAX_ROWS rows, text cut at
 * HD_HTML_TEXT_MAX bytes), so a page stays well under 5 MB.  All text
 * from the dumps is escaped.
 */
#ifndef HLODIFF_HTML_H
#define HLODIFF_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "hlodiff/diff.h"

#define HD_HTML_MAX_POINTS 2000   /* points per curve (bucket maxima) */
#define HD_HTML_MAX_SEGMENTS 50   /* values per peak bar before "others" */
#define HD_HTML_MAX_ROWS 500      /* rows of the movers table */
#define HD_HTML_PEAK_ROWS 50      /* rows of the peak-values table */
#define HD_HTML_TEXT_MAX 160      /* bytes of one name or op_name shown */

/*
 * Writes the page for df to out.  rules_html is a trusted HTML fragment
 * with the rule results, copied as is; NULL prints "no rules evaluated".
 * top_n is the number of rows of the movers table (the values that
 * differ, by |delta|); 0 means all of them; either way at most
 * HD_HTML_MAX_ROWS, with a note when rows were left out.  Write errors
 * are left in out's error indicator for the caller to check.
 */
void hd_report_html(FILE *out, const struct hd_diff *df,
		    const char *rules_html, int top_n);

struct hd_breakdown;
/* The same with the --by breakdown as a folding tree (may be NULL). */
void hd_report_html_full(FILE *out, const struct hd_diff *df,
			 const char *rules_html,
			 const struct hd_breakdown *breakdown, int top_n);

/*
 * One page for many modules (directory mode): hd_html_page_begin (the
 * head, the styles), the caller's own content, then for each module
 * hd_report_html_module, then hd_html_page_end (the script).  A module's
 * part is the page of hd_report_html_full without head and script,
 * titled title (escaped), with every id prefixed "ID_PREFIX-" and its
 * headings one level down (h2, h3).
 */
void hd_html_page_begin(FILE *out, const char *title);
void hd_report_html_module(FILE *out, const struct hd_diff *df,
			   const char *rules_html,
			   const struct hd_breakdown *breakdown, int top_n,
			   const char *title, const char *id_prefix);
void hd_html_page_end(FILE *out);

/*
 * Writes p[0..n) escaped for HTML text and attribute values (&, <, >, ",
 * ' as entities; control characters other than tab and newline as '?').
 * For callers that render the rules fragment.
 */
void hd_html_escape(FILE *out, const char *p, size_t n);

#endif
