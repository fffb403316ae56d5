/*
 * report_github.c - GitHub Actions workflow commands: one annotation per
 * violated rule, shown on the rules file in the PR's "Files changed"
 * view and in the run's summary.
 *
 *   ::error file=rules/team.rules,line=3,title=hlodiff jit_f%3A RULE::NUMBERS%0A  DETAIL
 *
 * Escapes follow the Actions toolkit (toolkit/packages/core/src/command.ts):
 * in the message '%', CR and LF become %25, %0D and %0A; in property
 * values also ':' and ',' become %3A and %2C.  The built-in rules have
 * no file in the repository, so their annotations carry no file= and
 * line= (GitHub then shows them on the run, not on a file).
 *
 * After each violation's annotation, one more per source line its top
 * values came from (the dump's source_file/source_line, mapped to a
 * repository path by --source-prefix OLD=NEW), on that line.
 */
#include "hlodiff/report.h"

#include <inttypes.h>
#include <string.h>

#include "hlodiff/verdict.h"
#include "report_common.h"

static void escape(FILE *out, const char *s, size_t n, int property)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '%')
			fputs("%25", out);
		else if (c == '\r')
			fputs("%0D", out);
		else if (c == '\n')
			fputs("%0A", out);
		else if (property && c == ':')
			fputs("%3A", out);
		else if (property && c == ',')
			fputs("%2C", out);
		else
			fputc(c, out);
	}
}

void hd_github_escape_data(FILE *out, const char *s, size_t n)
{
	escape(out, s, n, 0);
}

void hd_github_escape_property(FILE *out, const char *s, size_t n)
{
	escape(out, s, n, 1);
}

static void data_str(FILE *out, const char *s)
{
	escape(out, s, strlen(s), 0);
}

static void prop_str(FILE *out, const char *s)
{
	escape(out, s, strlen(s), 1);
}

/* A rules file GitHub can point at: not the built-in "<default.rules>"
 * and not standard input. */
static int is_repo_file(const char *name)
{
	return name[0] != '<' && strcmp(name, "-") != 0;
}

static void annotation(FILE *out, const char *label, const struct hd_verdicts *v,
		       const struct hd_verdict *vd, int werror)
{
	char buf[HD_RC_LINE];
	uint32_t i;
	int sep = 0;

	fputs(hd_rc_fails(vd, werror) ? "::error " : "::warning ", out);
	if (is_repo_file(v->rules->name)) {
		fputs("file=", out);
		prop_str(out, v->rules->name);
		fprintf(out, ",line=%" PRIu32, vd->rule->line);
		sep = 1;
	}
	fputs(sep ? ",title=" : "title=", out);
	prop_str(out, "hlodiff ");
	prop_str(out, label);
	prop_str(out, ": ");
	prop_str(out, vd->rule->text);
	fputs("::", out);
	hd_rc_numbers(buf, sizeof(buf), vd);
	data_str(out, buf);
	for (i = 0; hd_rc_detail(buf, sizeof(buf), v, vd, i) == 0; i++) {
		data_str(out, "\n  ");
		data_str(out, buf);
	}
	fputc('\n', out);
}

/* FILE:LINE of contributor i's source (mapped), "" when it has no file
 * or no line: GitHub can only point at a line. */
static void contrib_place(char *buf, size_t n, const struct hd_diff *df,
			  const struct hd_verdicts *v, const struct hd_verdict *vd,
			  uint32_t i, const struct hd_report_opts *opts,
			  struct hd_insn_source *src)
{
	const struct hd_value_diff *x;

	buf[0] = '\0';
	if (vd->result != HD_VERDICT_VIOLATED || i >= vd->n_contrib)
		return;
	x = HD_VEC_AT(&v->contribs, struct hd_contrib, vd->contrib_first + i).vd;
	*src = hd_rc_diff_source(df, x->old_v, x->new_v);
	if (src->source_file.n && src->source_line >= 0)
		hd_rc_source_text(buf, n, src, opts);
}

/*
 * One annotation per source line behind a violation: the values among
 * its top contributors that came from that line, on the line itself
 * (file= mapped by --source-prefix, so that it names a repository path).
 */
static void source_annotations(FILE *out, const struct hd_diff *df,
			       const char *label, const struct hd_verdicts *v,
			       const struct hd_verdict *vd,
			       const struct hd_report_opts *opts)
{
	char place[HD_RC_LINE], other[HD_RC_LINE], buf[HD_RC_LINE], op[HD_RC_LINE];
	struct hd_insn_source src, osrc;
	uint32_t i, k;

	for (i = 0; i < vd->n_contrib; i++) {
		char *colon;
		int seen = 0;

		contrib_place(place, sizeof(place), df, v, vd, i, opts, &src);
		if (!place[0])
			continue;
		for (k = 0; k < i && !seen; k++) {
			contrib_place(other, sizeof(other), df, v, vd, k, opts, &osrc);
			seen = strcmp(other, place) == 0;
		}
		if (seen)
			continue;	/* written with the first value from there */
		colon = strrchr(place, ':');
		if (!colon)
			continue;	/* cut to the buffer: no line left */
		fputs(hd_rc_fails(vd, opts->werror) ? "::error file=" : "::warning file=", out);
		escape(out, place, (size_t)(colon - place), 1);
		fprintf(out, ",line=%s,title=", colon + 1);
		prop_str(out, "hlodiff ");
		prop_str(out, label);
		prop_str(out, ": ");
		prop_str(out, vd->rule->text);
		fputs("::", out);
		hd_rc_short_op_name(op, sizeof(op), src.op_name, HD_RC_OP_WIDTH);
		data_str(out, "values from this line behind the violation");
		if (op[0]) {
			data_str(out, " (op_name ");
			data_str(out, op);
			data_str(out, ")");
		}
		data_str(out, ":");
		for (k = i; k < vd->n_contrib; k++) {
			contrib_place(other, sizeof(other), df, v, vd, k, opts, &osrc);
			if (strcmp(other, place) != 0 ||
			    hd_rc_detail(buf, sizeof(buf), v, vd, k) != 0)
				continue;
			data_str(out, "\n  ");
			data_str(out, buf);
		}
		fputc('\n', out);
	}
}

void hd_report_diff_github(FILE *out, const struct hd_diff *df,
			   const struct hd_report_opts *opts)
{
	const struct hd_verdicts *v = opts->verdicts;
	const char *label = hd_rc_label(df, opts);
	size_t i;

	for (i = 0; v && i < v->verdicts.len; i++)
		if (HD_VERDICT(v, i).result == HD_VERDICT_VIOLATED) {
			annotation(out, label, v, &HD_VERDICT(v, i), opts->werror);
			source_annotations(out, df, label, v, &HD_VERDICT(v, i), opts);
		}
}
