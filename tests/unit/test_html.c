/*
 * test_html.c - the live-bytes timeline (src/timeline.c) and the HTML
 * memory picture (src/html.c).
 *
 *	test_html                        run the TAP tests
 *	test_html OLD NEW OUT [TOP_N]    write the page for OLD vs NEW to OUT
 *	                                 (for tests/t0810 until hlodiff has
 *	                                 --html); exit 0, or 2 on error
 *
 * Expected numbers were worked out by hand from tests/data/seed-000.txt
 * (live ranges walked, shapes sized), never taken from hlodiff output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diff.h"
#include "hlodiff/figures.h"
#include "hlodiff/html.h"
#include "hlodiff/parse.h"
#include "hlodiff/timeline.h"
#include "tap/tap.h"

#define SYNTH_VALUES 1000000
#define SYNTH_PER_ALLOC 1000
#define PAGE_LIMIT (5 * 1024 * 1024)

static char *seed_path(int n)
{
	static char path[4096];
	const char *dir = getenv("HD_SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/data/seed-%03d.txt",
		 dir && *dir ? dir : ".", n);
	return path;
}

static void load_path(struct hd_dump *d, const char *path)
{
	if (hd_parse_file(d, path, HD_PARSE_NO_SIBLINGS) < 0)
		bail("cannot parse %s", path);
}

static void load_text(struct hd_dump *d, const char *name, const char *text,
		      size_t len)
{
	if (hd_parse_buffer(d, name, text, len, 0) < 0)
		bail("cannot parse %s", name);
}

/* The page for old vs new in a malloc'd NUL-terminated string. */
static char *page_of(const struct hd_dump *old, const struct hd_dump *new_dump,
		     const char *rules, int top_n, size_t *len)
{
	struct hd_diff df;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (f == NULL)
		bail("open_memstream failed");
	hd_diff_compute(&df, old, new_dump, 0);
	hd_report_html(f, &df, rules, top_n);
	if (fclose(f) != 0)
		bail("cannot write the page to memory");
	hd_diff_release(&df);
	if (len)
		*len = n;
	return buf;
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;
	size_t len = strlen(needle);

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += len;
	}
	return n;
}

/* ---- timeline on seed 000 ------------------------------------------- */

static int64_t at_space(const struct hd_timeline *tl, int64_t space, int64_t t)
{
	int i = hd_timeline_space_index(tl, space);

	return i < 0 ? -1 : hd_timeline_at(tl, (uint32_t)i, t);
}

/*
 * Seed 000: the bytes held per allocation colour (the union of the
 * [offset, offset + size) of the values live at t in each allocation),
 * as tests/py/peak_held.py reads them from the text: at t=15 space 0
 * 17920, space 1 1536, space 2 0, space 6 512 (19968 in all, the held
 * peak); at t=16 space 0 16896; space 2 holds 4 over 2-4; space 6 has
 * its maximum 512 first at t=10, space 1 its 1536 first at t=12.
 */
static void test_seed_timeline(void)
{
	struct hd_dump d;
	struct hd_timeline tl;
	struct hd_figures f;
	struct hd_timeline_point pts[8];
	int64_t t, best = -1, best_t = -1;
	size_t n;
	uint32_t s;

	load_path(&d, seed_path(0));
	hd_timeline_compute(&tl, &d);
	ok(tl.has, "seed 000: timeline computed");
	is_int(16, tl.t_max, "seed 000: T = 16");
	is_int(4, tl.n_spaces, "seed 000: four memory spaces");
	is_int(0, tl.spaces[0].space, "space 0 first");
	is_int(6, tl.spaces[3].space, "space 6 last");
	is_int(17920, at_space(&tl, 0, 15), "space 0 at t=15");
	is_int(1536, at_space(&tl, 1, 15), "space 1 at t=15");
	is_int(512, at_space(&tl, 6, 15), "space 6 at t=15");
	is_int(0, at_space(&tl, 2, 15), "space 2 at t=15");
	is_int(4, at_space(&tl, 2, 3), "space 2 at t=3");
	is_int(16896, at_space(&tl, 0, 16), "space 0 at t=16");
	for (t = 0; t <= tl.t_max; t++) {
		int64_t v = 0;

		for (s = 0; s < tl.n_spaces; s++)
			v += hd_timeline_at(&tl, s, t);
		if (v > best) {
			best = v;
			best_t = t;
		}
	}
	hd_figures_compute(&f, &d);
	is_int(19968, best, "max of all spaces is 19968");
	is_int(15, best_t, "max of all spaces at t=15");
	is_int(f.peak_bytes, best, "the chart's maximum is the figures' peak_bytes");
	is_int(f.peak_time, best_t, "at the figures' peak_time");
	hd_figures_release(&f);
	is_int(512, tl.spaces[3].max_bytes, "space 6 maximum 512");
	is_int(10, tl.spaces[3].max_time, "space 6 maximum first at t=10");
	is_int(1536, tl.spaces[1].max_bytes, "space 1 maximum 1536");
	is_int(12, tl.spaces[1].max_time, "space 1 maximum first at t=12");
	is_int(0, tl.unsized, "every range placed");

	/* 17 times in 4 buckets of 5: [0,5) [5,10) [10,15) [15,17). */
	n = hd_timeline_downsample(&tl, 0, 4, pts);
	is_int(4, (long long)n, "downsample to 4 points");
	is_int(15, pts[3].t, "last bucket starts at 15");
	is_int(17, pts[3].t_end, "last bucket ends at 17");
	is_int(17920, pts[3].bytes, "bucket maximum keeps the peak");
	hd_timeline_release(&tl);
	hd_dump_release(&d);
}

/* ---- the page on seed 000 ------------------------------------------- */

static void test_seed_page(void)
{
	static const char *const spaces[] = { "0", "1", "2", "6" };
	static const char *const sides[] = { "old", "new" };
	struct hd_dump d;
	char needle[128], *page;
	size_t i, j;
	int all = 1;

	load_path(&d, seed_path(0));
	page = page_of(&d, &d, NULL, 0, NULL);
	is_int(8, count_of(page, "<path"), "8 paths: 2 sides x 4 spaces");
	for (i = 0; i < 2; i++)
		for (j = 0; j < 4; j++) {
			snprintf(needle, sizeof(needle),
				 "<path class=\"curve\" data-side=\"%s\" data-space=\"%s\"",
				 sides[i], spaces[j]);
			if (count_of(page, needle) != 1) {
				diag("not once: %s", needle);
				all = 0;
			}
		}
	ok(all, "one curve per side and memory space");
	is_int(2, count_of(page, "class=\"peak-marker\""), "two peak markers");
	is_int(1, count_of(page, "class=\"peak-marker\" data-side=\"old\" data-time=\"15\""),
	       "old peak marker at the stated time 15");
	is_int(1, count_of(page, "class=\"peak-marker\" data-side=\"new\" data-time=\"15\""),
	       "new peak marker at the stated time 15");
	ok(strstr(page, "no rules evaluated") != NULL, "no rules: says so");
	is_int(0, count_of(page, "src=") + count_of(page, "href=") +
	       count_of(page, "url(") + count_of(page, "@import"),
	       "no external resource");
	is_int(0, count_of(page, "http"), "no URL in the page");
	ok(strstr(page, "No value differs.") != NULL, "a dump against itself: no movers");
	is_int(1, count_of(page, "<script>"), "one inline script");
	ok(strncmp(page, "<!DOCTYPE html>", 15) == 0, "starts with the doctype");
	ok(strstr(page, "</html>\n") != NULL, "ends the document");
	free(page);

	page = page_of(&d, &d, "<p id=\"r\">rule &amp; result</p>", 0, NULL);
	ok(strstr(page, "<p id=\"r\">rule &amp; result</p>") != NULL,
	   "the rules fragment is copied as is");
	ok(strstr(page, "no rules evaluated") == NULL, "and replaces the note");
	free(page);
	hd_dump_release(&d);
}

/* ---- escaping, no live ranges ---------------------------------------- */

static void test_escape_fn(void)
{
	static const char in[] = "a<b>&\"c'\x01\td\n\x7f\xc3\xa9";
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (f == NULL)
		bail("open_memstream failed");
	hd_html_escape(f, in, sizeof(in) - 1);
	fclose(f);
	is_string("a&lt;b&gt;&amp;&quot;c&#39;?\td\n?\xc3\xa9", buf,
		  "hd_html_escape: entities, control characters masked, UTF-8 kept");
	free(buf);
}

static const char small_head[] =
	"BufferAssignment:\n"
	"allocation 0: size %d, preallocated-temp:\n"
	" value: <1 add.1 @0> (size=%d,offset=0): f32[%d]{0}\n"
	"\n"
	"Total bytes used: %d (%dB)\n"
	"\n"
	"Used values:\n"
	"<1 add.1 @0>\n"
	" positions:\n"
	"  add.1\n"
	" uses:\n"
	" from instruction: %%add.1 = f32[%d]{0} add(), "
	"metadata={op_name=\"jit(f)/<lambda>/a&b'\"}\n";

static const char small_live[] =
	"\n\nHloLiveRange (max 2):\n"
	"  InstructionSequence:\n"
	"    0:add.1\n"
	"    1:x\n"
	"  BufferLiveRange:\n"
	"    add.1{}:0-2\n"
	"  Live ranges at 0 (peak):\n"
	"    add.1{}: %d bytes (cumulative: %d bytes)\n";

/* A one-value dump of f32[elems], with or without the live-range part. */
static size_t small_dump(char *buf, size_t n, int elems, int live)
{
	int b = 4 * elems, len;

	len = snprintf(buf, n, small_head, b, b, elems, b, b, elems);
	if (live)
		len += snprintf(buf + len, n - (size_t)len, small_live, b, b);
	return (size_t)len;
}

static void test_escape_and_omit(void)
{
	char a[2048], b[2048], *page;
	struct hd_dump old, new_dump;

	load_text(&old, "old<1>.txt", a, small_dump(a, sizeof(a), 16, 1));
	load_text(&new_dump, "new&2.txt", b, small_dump(b, sizeof(b), 32, 1));
	page = page_of(&old, &new_dump, NULL, 0, NULL);
	ok(strstr(page, "jit(f)/&lt;lambda&gt;/a&amp;b&#39;") != NULL,
	   "op_name escaped in the movers table");
	ok(strstr(page, "<lambda>") == NULL, "no raw '<lambda>'");
	ok(strstr(page, "old&lt;1&gt;.txt") != NULL && strstr(page, "new&amp;2.txt") != NULL,
	   "file names escaped");
	is_int(1, count_of(page, "<tr><td class=\"n\" data-v=\"1\">1</td><td>changed</td>"),
	       "one mover row");
	is_int(2, count_of(page, "<path"), "one curve per side");
	is_int(1, count_of(page, "data-side=\"new\" data-time=\"0\""), "new peak at 0");
	free(page);
	hd_dump_release(&old);
	hd_dump_release(&new_dump);

	load_text(&old, "old", a, small_dump(a, sizeof(a), 16, 0));
	load_text(&new_dump, "new", b, small_dump(b, sizeof(b), 32, 0));
	page = page_of(&old, &new_dump, NULL, 0, NULL);
	is_int(0, count_of(page, "<path"), "no live ranges: no curve");
	ok(strstr(page, "id=\"timeline-omitted\"") != NULL,
	   "no live ranges: chart omitted with a note");
	ok(strstr(page, "id=\"timeline-chart\"") == NULL, "no live ranges: no chart");
	free(page);
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
}

/* ---- a million values --------------------------------------------------- */

struct text {
	char *p;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->cap - t->len < 256) {
		t->cap = t->cap ? 2 * t->cap : 1 << 20;
		t->p = realloc(t->p, t->cap);
		if (t->p == NULL)
			bail("out of memory");
	}
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->cap - t->len)
		bail("line too long");
	t->len += (size_t)n;
}

/*
 * SYNTH_VALUES values, SYNTH_PER_ALLOC per allocation, the values of
 * every fifth allocation in memory space 1; value i lives from i to i + 3 * (i % 97), every
 * thousandth to the end, so that thousands are live at any time.  No
 * peak section (the peak is recomputed); T = SYNTH_VALUES.
 */
static void synth_dump(struct text *t)
{
	int i, T = SYNTH_VALUES;

	put(t, "BufferAssignment:\n");
	for (i = 0; i < SYNTH_VALUES; i++) {
		int elems = 16 + (i % 4093) * 8;
		int sp = (i / SYNTH_PER_ALLOC) % 5 == 0;
		if (i % SYNTH_PER_ALLOC == 0)
			put(t, "allocation %d: size %d, %spreallocated-temp:\n",
			    i / SYNTH_PER_ALLOC, 4 * 33000, sp ? "color 1, " : "");
		put(t, " value: <%d fusion.%d @%d> (size=%d,offset=0): f32[%d]{0%s}\n",
		    i, i, sp, 4 * elems, elems, sp ? ":S(1)" : "");
	}
	put(t, "\nTotal bytes used: 1 (1B)\n\n\nHloLiveRange (max %d):\n"
	    "  InstructionSequence:\n", T);
	for (i = 0; i < T; i++)
		put(t, "    %d:fusion.%d\n", i, i);
	put(t, "  BufferLiveRange:\n");
	for (i = 0; i < SYNTH_VALUES; i++) {
		int end = i % 1000 == 0 ? T : i + 3 * (i % 97);
		put(t, "    fusion.%d{}:%d-%d\n", i, i, end > T ? T : end);
	}
}

/* Downsampled to HD_HTML_MAX_POINTS, every curve keeps its maximum. */
static void check_downsample(const struct hd_timeline *tl)
{
	struct hd_timeline_point *pts = malloc(HD_HTML_MAX_POINTS * sizeof(*pts));
	uint32_t s;
	size_t n = 0, k;
	int kept = 1;

	if (pts == NULL)
		bail("out of memory");
	for (s = 0; s < tl->n_spaces; s++) {
		int64_t best = -1;
		n = hd_timeline_downsample(tl, s, HD_HTML_MAX_POINTS, pts);
		for (k = 0; k < n; k++)
			best = pts[k].bytes > best ? pts[k].bytes : best;
		kept &= best == tl->spaces[s].max_bytes;
	}
	ok(n > HD_HTML_MAX_POINTS / 2 && n <= HD_HTML_MAX_POINTS,
	   "1M times downsampled to at most %d points (%zu)", HD_HTML_MAX_POINTS, n);
	ok(kept, "downsampled curves keep their maxima");
	free(pts);
}

static void test_million(void)
{
	struct text t = { NULL, 0, 0 };
	struct hd_dump big, small;
	struct hd_timeline tl;
	struct hd_figures f;
	char needle[128], *page;
	size_t len;

	synth_dump(&t);
	load_text(&big, "synthetic", t.p, t.len);
	is_int(SYNTH_VALUES, (long long)big.values.len, "synthetic dump: 1M values");
	hd_timeline_compute(&tl, &big);
	ok(tl.has && tl.n_spaces == 2, "synthetic dump: two memory spaces");
	check_downsample(&tl);
	hd_timeline_release(&tl);
	load_path(&small, seed_path(0));

	page = page_of(&small, &big, NULL, 0, &len);
	diag("seed 000 vs 1M values: %zu bytes", len);
	ok(len < PAGE_LIMIT, "seed 000 vs 1M values: page under 5 MB");
	is_int(HD_HTML_MAX_ROWS, count_of(page, "<tr><td class=\"n\" data-v="),
	       "movers table cut at HD_HTML_MAX_ROWS");
	ok(strstr(page, "id=\"movers-cut\"") != NULL, "with a note");
	is_int(HD_HTML_MAX_SEGMENTS + 1, count_of(page, "data-side=\"new\" x="),
	       "new bar: 50 values plus others");
	free(page);

	page = page_of(&big, &small, NULL, 0, &len);
	diag("1M values vs seed 000: %zu bytes", len);
	hd_figures_compute(&f, &big);
	snprintf(needle, sizeof(needle), "class=\"peak-marker\" data-side=\"old\" "
		 "data-time=\"%lld\" data-stated=\"0\"", (long long)f.peak_time);
	is_int(1, count_of(page, needle), "no peak stated: marker at the held peak's time");
	hd_figures_release(&f);
	ok(len < PAGE_LIMIT, "1M values vs seed 000: page under 5 MB");
	ok(count_of(page, " data-side=\"old\" data-space=\"0\"") == 1 &&
	   count_of(page, " data-side=\"old\" data-space=\"1\"") == 1,
	   "one curve per memory space of the big side");
	free(page);

	hd_dump_release(&small);
	hd_dump_release(&big);
	free(t.p);
}

/* ---- write mode ----------------------------------------------------------- */

static int write_page(int argc, char **argv)
{
	struct hd_dump old, new_dump;
	struct hd_diff df;
	FILE *out;
	int bad, top_n = argc > 4 ? atoi(argv[4]) : 0;

	bad = hd_parse_file(&old, argv[1], 0) < 0;
	bad |= hd_parse_file(&new_dump, argv[2], 0) < 0;
	if (bad)
		return 2;
	out = fopen(argv[3], "w");
	if (out == NULL) {
		perror(argv[3]);
		return 2;
	}
	hd_diff_compute(&df, &old, &new_dump, 0);
	hd_report_html(out, &df, NULL, top_n);
	bad = ferror(out);
	bad |= fclose(out) != 0;
	hd_diff_release(&df);
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
	return bad ? 2 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4)
		return write_page(argc, argv);
	plan_lazy();
	test_seed_timeline();
	test_seed_page();
	test_escape_fn();
	test_escape_and_omit();
	test_million();
	return 0;
}
