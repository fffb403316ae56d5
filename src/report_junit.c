/*
 * report_junit.c - JUnit XML: the rules of each module as test cases,
 * for CI test reports (Jenkins, GitLab, GitHub test reporters).
 *
 *   <testsuites name="hlodiff" tests= failures= errors= skipped=>
 *     <testsuite name="MODULE" tests= failures= errors= skipped=>
 *       <properties> old and new file </properties>
 *       <testcase classname="hlodiff.MODULE" name="RULE (FILE:LINE)">
 *         <failure type="error" message="NUMBERS">DETAILS</failure>
 *       </testcase>
 *
 * A violated error rule is a <failure> (with werror a violated warning
 * rule too); a violated warning rule otherwise passes and says so in
 * <system-out>, since a test report has no "passed with a warning" and a
 * <skipped> would claim it was not checked; a rule that could not be
 * evaluated (not applicable) is <skipped>.  No timestamps or durations:
 * the same inputs give the same bytes.
 */
#include "hlodiff/report.h"

#include <inttypes.h>
#include <string.h>

#include "hlodiff/format.h"
#include "hlodiff/verdict.h"
#include "report_common.h"

void hd_xml_escape(FILE *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, k;

	for (i = 0; i < n; i++) {
		unsigned char c = u[i];

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if (c >= 0x80 && (k = hd_utf8_length(u + i, n - i)) > 0) {
				fwrite(u + i, 1, k, out);
				i += k - 1;
			} else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
				   c >= 0x7f) {
				fputc('?', out);
			} else {
				fputc(c, out);
			}
		}
	}
}

static void xml_str(FILE *out, const char *s)
{
	hd_xml_escape(out, s, strlen(s));
}

static void counts_attrs(FILE *out, const struct hd_junit_counts *c)
{
	fprintf(out, " tests=\"%" PRIu32 "\" failures=\"%" PRIu32 "\" errors=\"%"
		PRIu32 "\" skipped=\"%" PRIu32 "\"", c->tests, c->failures,
		c->errors, c->skipped);
}

void hd_report_junit_begin(FILE *out, const struct hd_junit_counts *c)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hlodiff\"", out);
	counts_attrs(out, c);
	fputs(">\n", out);
}

void hd_report_junit_end(FILE *out)
{
	fputs("</testsuites>\n", out);
}

/* What a verdict counts as in the suite's attributes. */
static void count_verdict(struct hd_junit_counts *c, const struct hd_verdict *vd,
			  int werror)
{
	c->tests++;
	if (vd->result == HD_VERDICT_NA)
		c->skipped++;
	else if (hd_rc_fails(vd, werror))
		c->failures++;
}

/* The lines that account for a violation, one per line. */
static void details(FILE *out, const struct hd_verdicts *v,
		    const struct hd_verdict *vd)
{
	char buf[HD_RC_LINE];
	uint32_t i;

	hd_rc_numbers(buf, sizeof(buf), vd);
	xml_str(out, buf);
	fputc('\n', out);
	for (i = 0; hd_rc_detail(buf, sizeof(buf), v, vd, i) == 0; i++) {
		fputs("  ", out);
		xml_str(out, buf);
		fputc('\n', out);
	}
}

static void testcase(FILE *out, const char *label, const struct hd_verdicts *v,
		     const struct hd_verdict *vd, int werror)
{
	char where[HD_RC_LINE], numbers[HD_RC_LINE];

	hd_rc_where(where, sizeof(where), v, vd);
	hd_rc_numbers(numbers, sizeof(numbers), vd);
	fputs("    <testcase classname=\"hlodiff.", out);
	xml_str(out, label);
	fputs("\" name=\"", out);
	xml_str(out, vd->rule->text);
	fputs(" (", out);
	xml_str(out, where);
	fputs(")\"", out);
	if (vd->result == HD_VERDICT_PASS) {
		fputs("/>\n", out);
		return;
	}
	fputs(">\n", out);
	if (vd->result == HD_VERDICT_NA) {
		fputs("      <skipped message=\"", out);
		xml_str(out, numbers);
		fputs("\"/>\n", out);
	} else if (hd_rc_fails(vd, werror)) {
		fprintf(out, "      <failure type=\"%s\" message=\"",
			hd_severity_name(vd->rule->severity));
		xml_str(out, numbers);
		fputs("\">", out);
		details(out, v, vd);
		fputs("</failure>\n", out);
	} else {
		fputs("      <system-out>warning: ", out);
		details(out, v, vd);
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

static void property(FILE *out, const char *name, const char *value)
{
	fprintf(out, "      <property name=\"%s\" value=\"", name);
	xml_str(out, value);
	fputs("\"/>\n", out);
}

void hd_report_diff_junit(FILE *out, const struct hd_diff *df,
			  const struct hd_report_opts *opts,
			  struct hd_junit_counts *counts)
{
	const struct hd_verdicts *v = opts->verdicts;
	const char *label = hd_rc_label(df, opts);
	struct hd_junit_counts c = { 0, 0, 0, 0 };
	size_t i;

	if (v)
		for (i = 0; i < v->verdicts.len; i++)
			count_verdict(&c, &HD_VERDICT(v, i), opts->werror);
	else
		c.tests = 1;
	fputs("  <testsuite name=\"", out);
	xml_str(out, label);
	fputc('"', out);
	counts_attrs(out, &c);
	fputs(">\n    <properties>\n", out);
	property(out, "old", df->old->name);
	property(out, "new", df->new_dump->name);
	if (v)
		property(out, "rules", v->rules->name);
	fputs("    </properties>\n", out);
	if (!v) {
		fputs("    <testcase classname=\"hlodiff.", out);
		xml_str(out, label);
		fputs("\" name=\"compared (no rules)\"/>\n", out);
	}
	for (i = 0; v && i < v->verdicts.len; i++)
		testcase(out, label, v, &HD_VERDICT(v, i), opts->werror);
	fputs("  </testsuite>\n", out);
	if (counts) {
		counts->tests += c.tests;
		counts->failures += c.failures;
		counts->errors += c.errors;
		counts->skipped += c.skipped;
	}
}
