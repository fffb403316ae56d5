/*
 * report_verdict.h - the verdicts of a rule set (verdict.h) written as
 * text, JSON and HTML.
 */
#ifndef HLODIFF_REPORT_VERDICT_H
#define HLODIFF_REPORT_VERDICT_H

#include <stdio.h>

#include "hlodiff/json.h"
#include "hlodiff/verdict.h"

/*
 * The "rules:" section of the text report: a summary line, each
 * violation with old, new, delta, percent and the values (or copies)
 * that account for it, one line per passed or not applicable rule, and
 * the waivers with their reasons.  Starts with "rules:", no blank line
 * before it.  color: violations, passes and the rest in their pens
 * (hd_report_opts.color).
 */
void hd_verdicts_report_text(FILE *out, const struct hd_verdicts *v, int color);
/* Writes one JSON value (an object); see docs/rules.md for the schema. */
void hd_verdicts_report_json(struct hd_json *j, const struct hd_verdicts *v);
/* An HTML fragment (summary and one table row per rule) for the page. */
void hd_verdicts_report_html(FILE *out, const struct hd_verdicts *v);

#endif
