/*
 * report_batch.c - reports of many modules at once (directory mode,
 * golden check): the summary table and the modules' own parts, in every
 * format; the format names.
 *
 * The modules' parts were rendered by the workers (report.h); this file
 * only lays them out, in module order, so the output does not depend on
 * which thread finished first.
 */
#include "hlodiff/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/arena.h"
#include "hlodiff/format.h"
#include "hlodiff/html.h"
#include "hlodiff/json.h"
#include "hlodiff/membuf.h"
#include "hlodiff/str.h"
#include "report_common.h"

#define NUM_MAX 48
#define LABEL_COL_MIN 6
#define LABEL_COL_MAX 40

static const char *const format_names[HD_FORMAT_COUNT] = {
	"text", "json", "markdown", "junit", "github",
};

const char *hd_format_name(enum hd_format f)
{
	return (unsigned)f < HD_FORMAT_COUNT ? format_names[f] : "?";
}

int hd_format_parse(const char *s, enum hd_format *out)
{
	int i;

	for (i = 0; i < HD_FORMAT_COUNT; i++)
		if (strcmp(s, format_names[i]) == 0) {
			*out = (enum hd_format)i;
			return 0;
		}
	if (strcmp(s, "md") == 0) {
		*out = HD_FORMAT_MARKDOWN;
		return 0;
	}
	return -1;
}

const char *hd_module_state_name(enum hd_module_state s)
{
	static const char *const names[] = {
		"compared", "only_old", "only_new", "failed",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* ---- words shared by the formats ----------------------------------------- */

struct tally {
	size_t compared, only_old, only_new, failed, violated, warned;
};

static void tally(const struct hd_batch_report *b, struct tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];

		if (m->state == HD_MODULE_COMPARED)
			t->compared++;
		else if (m->state == HD_MODULE_ONLY_OLD)
			t->only_old++;
		else if (m->state == HD_MODULE_ONLY_NEW)
			t->only_new++;
		else
			t->failed++;
		if (m->state == HD_MODULE_COMPARED && m->status == 1)
			t->violated++;
		else if (m->state == HD_MODULE_COMPARED && m->n_warn)
			t->warned++;
	}
}

static int is_golden(const struct hd_batch_report *b)
{
	return b->what && strcmp(b->what, "golden") == 0;
}

/* "only in OLD" / "no dump", ... for a module that was not compared. */
static const char *absent_words(const struct hd_batch_report *b,
				const struct hd_module_report *m)
{
	if (m->state == HD_MODULE_ONLY_OLD)
		return is_golden(b) ? "no dump" : "only in OLD";
	if (m->state == HD_MODULE_ONLY_NEW)
		return is_golden(b) ? (m->status ? "no golden" : "new (no golden)") :
			"only in NEW";
	return "not read (input error)";
}

/* The verdict column: "FAIL: 2 errors", "ok", "ok, 1 warning", ...;
 * returns its pen in the text report: failures red, warnings yellow,
 * passes green. */
static enum hd_pen verdict_words(char *buf, size_t n, const struct hd_batch_report *b,
				 const struct hd_module_report *m)
{
	if (m->state != HD_MODULE_COMPARED) {
		snprintf(buf, n, "%s", absent_words(b, m));
		return m->state == HD_MODULE_FAILED ||
		       (m->state == HD_MODULE_ONLY_NEW && is_golden(b) && m->status) ?
		       HD_PEN_RED : HD_PEN_NONE;
	}
	if (!m->has_rules) {
		snprintf(buf, n, "compared");
		return HD_PEN_NONE;
	}
	if (m->status) {
		snprintf(buf, n, "FAIL: %" PRIu32 " error%s%s", m->n_error,
			 m->n_error == 1 ? "" : "s", m->n_warn ? ", warnings" : "");
		return HD_PEN_RED;
	}
	if (m->n_warn)
		snprintf(buf, n, "ok, %" PRIu32 " warning%s", m->n_warn,
			 m->n_warn == 1 ? "" : "s");
	else
		snprintf(buf, n, "ok");
	return m->n_warn ? HD_PEN_YELLOW : HD_PEN_GREEN;
}

/* Cells of the summary row: total old, new, delta, %, peak old, new. */
static void row_cells(const struct hd_module_report *m, char c[6][NUM_MAX])
{
	int both = m->has_total[0] && m->has_total[1];

	hd_rc_int_cell(c[0], NUM_MAX, m->has_total[0], m->total[0]);
	hd_rc_int_cell(c[1], NUM_MAX, m->has_total[1], m->total[1]);
	if (both) {
		hd_signed(c[2], NUM_MAX, hd_delta(m->total[0], m->total[1]));
		hd_percent(c[3], NUM_MAX, m->total[0], m->total[1]);
	} else {
		snprintf(c[2], NUM_MAX, "-");
		c[3][0] = '\0';
	}
	hd_rc_int_cell(c[4], NUM_MAX, m->has_peak[0], m->peak[0]);
	hd_rc_int_cell(c[5], NUM_MAX, m->has_peak[1], m->peak[1]);
}

/* One line: "3 compared, 1 only in NEW; 1 failed a rule". */
static void tally_line(char *buf, size_t n, const struct hd_batch_report *b)
{
	struct tally t;
	size_t o;

	tally(b, &t);
	o = (size_t)snprintf(buf, n, "%zu compared", t.compared);
	if (t.only_old && o < n)
		o += (size_t)snprintf(buf + o, n - o, ", %zu %s", t.only_old,
				      is_golden(b) ? "without a dump" : "only in OLD");
	if (t.only_new && o < n)
		o += (size_t)snprintf(buf + o, n - o, ", %zu %s", t.only_new,
				      is_golden(b) ? "without a golden" : "only in NEW");
	if (t.failed && o < n)
		o += (size_t)snprintf(buf + o, n - o, ", %zu not read", t.failed);
	if (o < n)
		snprintf(buf + o, n - o, "; %zu failed a rule%s", t.violated,
			 t.warned ? ", some warned" : "");
}

/* Does module i have a note that module i - 1 (of the same group) did
 * not already give? */
static int new_note(const struct hd_batch_report *b, size_t i)
{
	const char *n = b->mods[i].note;

	return n && (i == 0 || !b->mods[i - 1].note ||
		     strcmp(b->mods[i - 1].note, n) != 0 ||
		     strcmp(b->mods[i - 1].module, b->mods[i].module) != 0);
}

/* ---- text ---------------------------------------------------------------- */

static int label_width(const struct hd_batch_report *b)
{
	size_t i, w = LABEL_COL_MIN;

	for (i = 0; i < b->n; i++)
		if (strlen(b->mods[i].label) > w)
			w = strlen(b->mods[i].label);
	return (int)(w > LABEL_COL_MAX ? LABEL_COL_MAX : w);
}

static void text_summary(FILE *out, const struct hd_batch_report *b, int color)
{
	const char *bold = hd_rc_ink(color, HD_PEN_BOLD), *end = hd_rc_ink_end(color, HD_PEN_BOLD);
	char line[512], c[6][NUM_MAX], verdict[128], vc[160];
	int w = label_width(b);
	size_t i;

	tally_line(line, sizeof(line), b);
	fprintf(out, "%shlodiff: %zu module%s, %s -> %s: %s%s\n", bold, b->n,
		b->n == 1 ? "" : "s", b->old_root, b->new_root, line, end);
	fprintf(out, "%-*s %15s %15s %15s %8s %15s %15s  %s\n", w, "module", "total old",
		"total new", "delta", "%", "peak old", "peak new", "verdict");
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];

		row_cells(m, c);
		hd_rc_cell(vc, sizeof(vc), color, verdict_words(verdict, sizeof(verdict), b, m),
			   0, verdict);
		fprintf(out, "%-*s %15s %15s %15s %8s %15s %15s  %s\n", w, m->label,
			c[0], c[1], c[2], c[3], c[4], c[5], vc);
	}
	for (i = 0; i < b->n; i++)
		if (new_note(b, i))
			fprintf(out, "%snote: %s: %s%s\n", hd_rc_ink(color, HD_PEN_DIM),
				b->mods[i].module, b->mods[i].note, hd_rc_ink_end(color, HD_PEN_DIM));
}

/* f: HD_FORMAT_TEXT, or HD_FORMAT_TEXT_COLOR for a terminal. */
static void text_batch(FILE *out, const struct hd_batch_report *b, enum hd_format f)
{
	int color = f == HD_FORMAT_TEXT_COLOR;
	size_t i;

	text_summary(out, b, color);
	if (b->summary_only)
		return;
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];

		if (!m->part[f])
			continue;
		fprintf(out, "\n%s== %s: %s -> %s%s\n", hd_rc_ink(color, HD_PEN_BOLD), m->label,
			m->old_name, m->new_name, hd_rc_ink_end(color, HD_PEN_BOLD));
		fwrite(m->part[f], 1, m->part_len[f], out);
	}
}

/* ---- JSON ---------------------------------------------------------------- */

/* A module's own JSON document as the value of the current key, its
 * lines indented to the depth they are written at. */
static void json_embed(struct hd_json *j, const char *text, size_t n)
{
	size_t i, extra = 0, depth = (size_t)j->depth;
	char *buf;
	size_t o = 0;

	while (n && text[n - 1] == '\n')
		n--;
	for (i = 0; i < n; i++)
		extra += text[i] == '\n';
	buf = hd_xmalloc(n + extra * depth * 2 + 1);
	for (i = 0; i < n; i++) {
		buf[o++] = text[i];
		if (text[i] == '\n') {
			memset(buf + o, ' ', depth * 2);
			o += depth * 2;
		}
	}
	buf[o] = '\0';
	hd_json_raw(j, buf);
	free(buf);
}

static void json_pair(struct hd_json *j, const char *key, int has_old,
		      int64_t old_v, int has_new, int64_t new_v)
{
	hd_json_key(j, key);
	hd_json_begin_object(j);
	hd_json_key_opt_int(j, "old", has_old, old_v);
	hd_json_key_opt_int(j, "new", has_new, new_v);
	hd_json_key_opt_int(j, "delta", has_old && has_new,
			    has_old && has_new ? hd_delta(old_v, new_v) : 0);
	hd_json_end_object(j);
}

static void json_module(struct hd_json *j, const struct hd_batch_report *b,
			const struct hd_module_report *m)
{
	char verdict[128];

	verdict_words(verdict, sizeof(verdict), b, m);
	hd_json_begin_object(j);
	hd_json_key_str(j, "module", m->label);
	hd_json_key_str(j, "name", m->module);
	hd_json_key_str(j, "state", hd_module_state_name((enum hd_module_state)m->state));
	hd_json_key_int(j, "status", m->status);
	hd_json_key_str(j, "verdict", verdict);
	hd_json_key_str(j, "old", m->old_name);
	hd_json_key_str(j, "new", m->new_name);
	hd_json_key_str(j, "note", m->note);
	json_pair(j, "total_bytes", m->has_total[0], m->total[0], m->has_total[1], m->total[1]);
	json_pair(j, "peak_bytes", m->has_peak[0], m->peak[0], m->has_peak[1], m->peak[1]);
	hd_json_key(j, "rules");
	if (m->has_rules) {
		hd_json_begin_object(j);
		hd_json_key_int(j, "errors", m->n_error);
		hd_json_key_int(j, "warnings", m->n_warn);
		hd_json_key_int(j, "passed", m->n_pass);
		hd_json_key_int(j, "not_applicable", m->n_na);
		hd_json_end_object(j);
	} else {
		hd_json_null(j);
	}
	hd_json_key(j, "report");
	if (m->part[HD_FORMAT_JSON])
		json_embed(j, m->part[HD_FORMAT_JSON], m->part_len[HD_FORMAT_JSON]);
	else
		hd_json_null(j);
	hd_json_end_object(j);
}

static void json_batch(FILE *out, const struct hd_batch_report *b)
{
	struct hd_json j;
	struct tally t;
	size_t i;

	tally(b, &t);
	hd_json_init(&j, out);
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "schema", 1);
	hd_json_key_str(&j, "mode", b->what);
	hd_json_key_str(&j, "old", b->old_root);
	hd_json_key_str(&j, "new", b->new_root);
	hd_json_key_int(&j, "status", b->status);
	hd_json_key(&j, "summary");
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "modules", (int64_t)b->n);
	hd_json_key_int(&j, "compared", (int64_t)t.compared);
	hd_json_key_int(&j, "only_old", (int64_t)t.only_old);
	hd_json_key_int(&j, "only_new", (int64_t)t.only_new);
	hd_json_key_int(&j, "failed", (int64_t)t.failed);
	hd_json_key_int(&j, "violated", (int64_t)t.violated);
	hd_json_end_object(&j);
	hd_json_key(&j, "modules");
	hd_json_begin_array(&j);
	for (i = 0; i < b->n; i++)
		json_module(&j, b, &b->mods[i]);
	hd_json_end_array(&j);
	hd_json_end_object(&j);
	hd_json_finish(&j);
}

/* ---- Markdown ------------------------------------------------------------ */

static void md_cell_code(FILE *out, const char *s)
{
	fputc('`', out);
	for (; *s; s++) {
		char c = *s == '`' ? '\'' : *s;

		if (c == '|')
			fputc('\\', out);
		fputc(c == '\n' ? ' ' : c, out);
	}
	fputc('`', out);
}

static const char *md_mark(const struct hd_module_report *m)
{
	if (m->status)
		return ":x: ";
	if (m->n_warn)
		return ":warning: ";
	return "";
}

/* One module's row of the Markdown summary table. */
static void md_row(FILE *out, const struct hd_batch_report *b,
		   const struct hd_module_report *m)
{
	char c[6][NUM_MAX], verdict[128];

	row_cells(m, c);
	verdict_words(verdict, sizeof(verdict), b, m);
	fputs("| ", out);
	md_cell_code(out, m->label);
	fprintf(out, " | %s | %s | %s | %s | %s | %s | %s%s |\n", c[0], c[1], c[2],
		c[3], c[4], c[5], md_mark(m), verdict);
}

static const char md_table_head[] =
	"| module | total old | total new | delta | % | peak old | peak new | verdict |\n"
	"|:---|---:|---:|---:|---:|---:|---:|:---|\n";

/* The heading and the tally line, of the full and the pull-request form. */
static void md_heading(FILE *out, const struct hd_batch_report *b)
{
	char line[512];

	tally_line(line, sizeof(line), b);
	fprintf(out, "## hlodiff: %zu module%s\n\n%s**%s**: ", b->n, b->n == 1 ? "" : "s",
		b->status ? ":x: " : ":white_check_mark: ", line);
	md_cell_code(out, b->old_root);
	fputs(" → ", out);
	md_cell_code(out, b->new_root);
	fputs("\n\n", out);
}

static void md_summary(FILE *out, const struct hd_batch_report *b)
{
	size_t i;

	md_heading(out, b);
	fputs(md_table_head, out);
	for (i = 0; i < b->n; i++)
		md_row(out, b, &b->mods[i]);
	fputc('\n', out);
	for (i = 0; i < b->n; i++)
		if (new_note(b, i)) {
			fputs("- ", out);
			md_cell_code(out, b->mods[i].module);
			fprintf(out, ": %s\n", b->mods[i].note);
		}
}

static void md_batch(FILE *out, const struct hd_batch_report *b)
{
	size_t i;
	int notes = 0;

	md_summary(out, b);
	for (i = 0; i < b->n; i++)
		notes |= new_note(b, i);
	if (notes)
		fputc('\n', out);
	if (b->summary_only)
		return;
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];
		int fold = m->status == 0 && m->n_warn == 0;

		if (!m->part[HD_FORMAT_MARKDOWN])
			continue;
		if (fold) {
			fputs("<details>\n<summary><code>", out);
			hd_xml_escape(out, m->label, strlen(m->label));
			fputs("</code>: no rule violated</summary>\n\n", out);
		}
		fwrite(m->part[HD_FORMAT_MARKDOWN], 1, m->part_len[HD_FORMAT_MARKDOWN], out);
		if (fold)
			fputs("</details>\n\n", out);
	}
}

/* ---- Markdown for a pull request ----------------------------------------- */

/* Bytes kept back for the last lines (what was left out, and where). */
#define PR_FOOTER 2500
/* Table rows may take at most this share of the budget. */
#define PR_ROWS (HD_PR_LIMIT / 2)
/* Modules named in the line of what was left out. */
#define PR_NAMES 12

enum pr_class { PR_FAIL, PR_WARN, PR_PASS };

static enum pr_class pr_class(const struct hd_module_report *m)
{
	if (m->status)
		return PR_FAIL;
	return m->n_warn ? PR_WARN : PR_PASS;
}

/* Writes what put renders of module m when it fits in *room bytes
 * (taking them); returns 0 when it does not. */
static int pr_fit(FILE *out, const struct hd_batch_report *b,
		  const struct hd_module_report *m, size_t *room,
		  void (*put)(FILE *, const struct hd_batch_report *,
			      const struct hd_module_report *))
{
	char *p;
	size_t n;
	FILE *f = hd_memstream_open(&p, &n);
	int fits;

	put(f, b, m);
	hd_memstream_close(f);
	fits = n <= *room;
	if (fits) {
		fwrite(p, 1, n, out);
		*room -= n;
	}
	free(p);
	return fits;
}

/* The table of one class; rows past *room bytes are counted in *cut. */
static void pr_table(FILE *out, const struct hd_batch_report *b, enum pr_class k,
		     const char *title, size_t count, size_t *room, size_t *cut)
{
	size_t i;

	if (!count)
		return;
	fprintf(out, "### %s (%zu)\n\n", title, count);
	fputs(md_table_head, out);
	for (i = 0; i < b->n; i++)
		if (pr_class(&b->mods[i]) == k && !pr_fit(out, b, &b->mods[i], room, md_row))
			++*cut;
	fputc('\n', out);
}

/* The folded section of module m. */
static void pr_details(FILE *out, const struct hd_batch_report *b,
		       const struct hd_module_report *m)
{
	char verdict[128];

	verdict_words(verdict, sizeof(verdict), b, m);
	fputs("<details>\n<summary><code>", out);
	hd_xml_escape(out, m->label, strlen(m->label));
	fputs("</code>: ", out);
	hd_xml_escape(out, verdict, strlen(verdict));
	fputs("</summary>\n\n", out);
	if (m->part[HD_FORMAT_MARKDOWN])
		fwrite(m->part[HD_FORMAT_MARKDOWN], 1, m->part_len[HD_FORMAT_MARKDOWN], out);
	else if (m->note)
		fprintf(out, "%s\n\n", m->note);
	fputs("</details>\n\n", out);
}

/* Bytes of the names of left-out modules, and of --full-report, in the
 * last line (so that it fits in PR_FOOTER). */
#define PR_NAMES_MAX 1500
#define PR_WHERE_MAX 500

static void pr_where(FILE *out, const char *full_report)
{
	size_t n = full_report ? strlen(full_report) : 0;

	if (n > PR_WHERE_MAX) {
		n = PR_WHERE_MAX;
		while (n > 0 && ((unsigned char)full_report[n] & 0xC0) == 0x80)
			n--;
	}
	if (full_report)
		fprintf(out, "The full report: %.*s%s.", (int)n, full_report,
			full_report[n] ? "..." : "");
	else
		fputs("The full report: run hlodiff on the same inputs without `--pr`.", out);
}

void hd_report_batch_pr(FILE *out, const struct hd_batch_report *b)
{
	char *head_p;
	FILE *head;
	size_t cls[3] = { 0, 0, 0 }, head_n, i, room, rows_cut = 0, left = 0;
	size_t *left_idx = hd_xcalloc(b->n + 1, sizeof(size_t));
	int k;

	for (i = 0; i < b->n; i++)
		cls[pr_class(&b->mods[i])]++;
	head = hd_memstream_open(&head_p, &head_n);
	md_heading(head, b);
	room = PR_ROWS;
	pr_table(head, b, PR_FAIL, "Failing", cls[PR_FAIL], &room, &rows_cut);
	pr_table(head, b, PR_WARN, "Warnings", cls[PR_WARN], &room, &rows_cut);
	fprintf(head, "**%zu module%s passed** (no rule violated, or on one side "
		"only); %s listed in the full report.\n\n", cls[PR_PASS],
		cls[PR_PASS] == 1 ? "" : "s", cls[PR_PASS] == 1 ? "it is" : "they are");
	hd_memstream_close(head);
	fwrite(head_p, 1, head_n, out);
	room = HD_PR_LIMIT > head_n + PR_FOOTER ? HD_PR_LIMIT - head_n - PR_FOOTER : 0;
	free(head_p);
	/* failing modules' sections first, then the warnings'; one that does
	 * not fit is left out and named below (smaller ones after it may
	 * still fit) */
	for (k = PR_FAIL; k <= PR_WARN; k++)
		for (i = 0; i < b->n; i++)
			if (pr_class(&b->mods[i]) == (enum pr_class)k &&
			    !pr_fit(out, b, &b->mods[i], &room, pr_details))
				left_idx[left++] = i;
	fputs("---\n", out);
	if (rows_cut || left) {
		fprintf(out, "Left out to stay under %d characters:", HD_PR_LIMIT);
		if (rows_cut)
			fprintf(out, " %zu table row%s%s", rows_cut,
				rows_cut == 1 ? "" : "s", left ? "," : "");
		if (left) {
			size_t bytes = 0;

			fprintf(out, " the sections of %zu module%s (", left,
				left == 1 ? "" : "s");

			for (i = 0; i < left && i < PR_NAMES; i++) {
				const char *l = b->mods[left_idx[i]].label;

				if (bytes + strlen(l) + 4 > PR_NAMES_MAX)
					break;
				bytes += strlen(l) + 4;
				fputs(i ? ", " : "", out);
				md_cell_code(out, l);
			}
			if (left > i)
				fprintf(out, " and %zu more", left - i);
			fputc(')', out);
		}
		fputs(". ", out);
	} else {
		fputs("Left out: only the passing modules' sections. ", out);
	}
	pr_where(out, b->full_report);
	fputc('\n', out);
	free(left_idx);
}

void hd_report_pair_pr(FILE *out, const char *md, size_t n,
		       const char *full_report)
{
	size_t keep = n, open = 0, i;
	const char *p;

	if (n + PR_FOOTER > HD_PR_LIMIT) {
		keep = HD_PR_LIMIT - PR_FOOTER;
		while (keep > 0 && md[keep - 1] != '\n')
			keep--;
	}
	fwrite(md, 1, keep, out);
	if (keep == n)
		return;
	/* close what the cut left open */
	for (p = md; p < md + keep; p++) {
		if (hd_starts_with(p, (size_t)(md + keep - p), "<details>"))
			open++;
		else if (hd_starts_with(p, (size_t)(md + keep - p), "</details>") && open)
			open--;
	}
	for (i = 0; i < open; i++)
		fputs("\n</details>\n", out);
	fprintf(out, "\n---\nLeft out to stay under %d characters: the last %zu bytes of "
		"this report. ", HD_PR_LIMIT, n - keep);
	pr_where(out, full_report);
	fputc('\n', out);
}

/* ---- HTML: one page for many modules ------------------------------------- */

static void html_cstr(FILE *out, const char *s)
{
	hd_html_escape(out, s, strlen(s));
}

void hd_report_batch_html(FILE *out, const struct hd_batch_report *b)
{
	char line[512], c[6][NUM_MAX], verdict[128];
	size_t i;

	snprintf(line, sizeof(line), "hlodiff: %zu module%s", b->n, b->n == 1 ? "" : "s");
	hd_html_page_begin(out, line);
	fputs("<h1>", out);
	html_cstr(out, line);
	fputs("</h1>\n<p class=\"files\">old: ", out);
	html_cstr(out, b->old_root);
	fputs("<br>new: ", out);
	html_cstr(out, b->new_root);
	tally_line(line, sizeof(line), b);
	fputs("</p>\n<p>", out);
	html_cstr(out, line);
	fputs("</p>\n<table id=\"modules\"><thead><tr><th>module</th>"
	      "<th class=\"n\">total old</th><th class=\"n\">total new</th>"
	      "<th class=\"n\">delta</th><th class=\"n\">%</th>"
	      "<th class=\"n\">peak old</th><th class=\"n\">peak new</th>"
	      "<th>verdict</th></tr></thead><tbody>\n", out);
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];
		const char *cls = m->status ? " class=\"pos\"" : "";

		row_cells(m, c);
		verdict_words(verdict, sizeof(verdict), b, m);
		fputs("<tr><td class=\"mono\">", out);
		if (m->html)
			fprintf(out, "<a href=\"#m%zu\">", i + 1);
		html_cstr(out, m->label);
		fprintf(out, "%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			"<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			"<td class=\"n\">%s</td><td%s>", m->html ? "</a>" : "",
			c[0], c[1], c[2], c[3], c[4], c[5], cls);
		html_cstr(out, verdict);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	for (i = 0; i < b->n; i++)
		if (new_note(b, i)) {
			fputs("<p class=\"note\">", out);
			html_cstr(out, b->mods[i].module);
			fputs(": ", out);
			html_cstr(out, b->mods[i].note);
			fputs("</p>\n", out);
		}
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];

		if (!m->html)
			continue;
		fprintf(out, "<section class=\"module\" id=\"m%zu\">\n", i + 1);
		fwrite(m->html, 1, m->html_len, out);
		fputs("<p><a href=\"#modules\">&#8593; all modules</a></p>\n</section>\n", out);
	}
	hd_html_page_end(out);
}

/* ---- JUnit ---------------------------------------------------------------- */

/* A module without a comparison: one test case, an error or skipped. */
static void junit_absent(FILE *out, const struct hd_batch_report *b,
			 const struct hd_module_report *m)
{
	int error = m->status != 0;
	const char *words = absent_words(b, m);

	fputs("  <testsuite name=\"", out);
	hd_xml_escape(out, m->label, strlen(m->label));
	fprintf(out, "\" tests=\"1\" failures=\"0\" errors=\"%d\" skipped=\"%d\">\n"
		"    <testcase classname=\"hlodiff.", error, !error);
	hd_xml_escape(out, m->label, strlen(m->label));
	fprintf(out, "\" name=\"%s\">\n      <%s message=\"", error ? "compare" : "present on both sides",
		error ? "error" : "skipped");
	hd_xml_escape(out, words, strlen(words));
	if (m->note) {
		fputs(": ", out);
		hd_xml_escape(out, m->note, strlen(m->note));
	}
	fputs("\"/>\n    </testcase>\n  </testsuite>\n", out);
}

static void junit_batch(FILE *out, const struct hd_batch_report *b)
{
	struct hd_junit_counts total = { 0, 0, 0, 0 };
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];
		/* a module without its part is one test case, junit_absent */
		struct hd_junit_counts c = { 1, 0, m->status != 0, m->status == 0 };

		if (m->part[HD_FORMAT_JUNIT])
			c = m->junit;
		total.tests += c.tests;
		total.failures += c.failures;
		total.errors += c.errors;
		total.skipped += c.skipped;
	}
	hd_report_junit_begin(out, &total);
	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];

		if (m->part[HD_FORMAT_JUNIT])
			fwrite(m->part[HD_FORMAT_JUNIT], 1, m->part_len[HD_FORMAT_JUNIT], out);
		else
			junit_absent(out, b, m);
	}
	hd_report_junit_end(out);
}

/* ---- GitHub --------------------------------------------------------------- */

static void github_batch(FILE *out, const struct hd_batch_report *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct hd_module_report *m = &b->mods[i];
		const char *words;

		if (m->part[HD_FORMAT_GITHUB]) {
			fwrite(m->part[HD_FORMAT_GITHUB], 1, m->part_len[HD_FORMAT_GITHUB], out);
			continue;
		}
		if (m->state == HD_MODULE_COMPARED)
			continue;
		words = absent_words(b, m);
		fputs(m->status ? "::error title=" : "::notice title=", out);
		hd_github_escape_property(out, "hlodiff ", 8);
		hd_github_escape_property(out, m->label, strlen(m->label));
		fputs("::", out);
		hd_github_escape_data(out, words, strlen(words));
		if (m->note) {
			hd_github_escape_data(out, ": ", 2);
			hd_github_escape_data(out, m->note, strlen(m->note));
		}
		fputc('\n', out);
	}
}

void hd_report_batch(FILE *out, enum hd_format f,
		     const struct hd_batch_report *b)
{
	switch (f) {
	case HD_FORMAT_TEXT:
	case HD_FORMAT_TEXT_COLOR: text_batch(out, b, f); break;
	case HD_FORMAT_JSON: json_batch(out, b); break;
	case HD_FORMAT_MARKDOWN:
		if (b->pr)
			hd_report_batch_pr(out, b);
		else
			md_batch(out, b);
		break;
	case HD_FORMAT_JUNIT: junit_batch(out, b); break;
	case HD_FORMAT_GITHUB: github_batch(out, b); break;
	case HD_PART_COUNT: break;
	}
}
