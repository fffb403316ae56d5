/*
 * test_scan.c - the scanning seam (include/hlodiff/scan.h): each vector
 * operation against its portable reference (hd_p_*) on random blocks and
 * on blocks holding every byte value; each scanner against a byte-by-byte
 * reading written here, at lengths 0 to 70 with the match at every
 * position, the text ending at the end of a page-like buffer whose next
 * page is not readable (a scanner that reads past what it may faults);
 * and no vector intrinsic or __SSE2__ test in src/ or include/ outside
 * scan.[ch].
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hlodiff/scan.h"
#include "tap/tap.h"

#define MAXLEN 70

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 32);
}

/* A byte from a small alphabet that the scanners care about, or any. */
static char pick(void)
{
	static const char alpha[] = "aZ09_.-%\"\\:\n {}()[],=|/* \x80\xff\x01";

	if (rnd() % 4 == 0)
		return (char)(rnd() & 0xff);
	return alpha[rnd() % (sizeof(alpha) - 1)];
}

/* ---- the operations ---- */

static int same16(hd_v16 v, hd_p16 p)
{
	char a[16], b[16];

	hd_v_store(a, v);
	hd_p_store(b, p);
	return memcmp(a, b, 16) == 0 && hd_v_mask(v) == hd_p_mask(p);
}

/* Every operation on the block at a (and the one at b), vector against
 * portable; the failures counted into *bad with the first one named. */
static void ops_on(const char *a, const char *b, int *bad, const char **what)
{
	hd_v16 x = hd_v_load(a), y = hd_v_load(b);
	hd_p16 px = hd_p_load(a), py = hd_p_load(b);
	static const char cs[] = { 0, '\n', '"', '%', '{', (char)0x80, (char)0xff, 'a' };
	static const char rg[][2] = {
		{ '0', '9' }, { 'a', 'z' }, { 'a', 'f' }, { 0x20, 0x7e }, { '-', '.' },
		{ 0, 0x7f }, { (char)0x80, (char)0xff },
	};
	uint64_t w0, w1;
	size_t k;

#define CHECK(v, p, name) \
	do { if (!same16((v), (p))) { (*bad)++; *what = (name); } } while (0)
	CHECK(x, px, "load");
	CHECK(hd_v_name(x), hd_p_name(px), "name");
	CHECK(hd_v_same(x, y), hd_p_same(px, py), "same");
	CHECK(hd_v_or(x, y), hd_p_or(px, py), "or");
	CHECK(hd_v_and(x, y), hd_p_and(px, py), "and");
	CHECK(hd_v_andnot(x, y), hd_p_andnot(px, py), "andnot");
	CHECK(hd_v_min(x, y), hd_p_min(px, py), "min");
	for (k = 0; k < sizeof(cs); k++) {
		CHECK(hd_v_eq(x, cs[k]), hd_p_eq(px, cs[k]), "eq");
		CHECK(hd_v_or_byte(x, cs[k]), hd_p_or_byte(px, cs[k]), "or_byte");
		CHECK(hd_v_and_byte(x, cs[k]), hd_p_and_byte(px, cs[k]), "and_byte");
	}
	for (k = 0; k < sizeof(rg) / sizeof(rg[0]); k++)
		CHECK(hd_v_in_range(x, rg[k][0], rg[k][1]),
		      hd_p_in_range(px, rg[k][0], rg[k][1]), "in_range");
	memcpy(&w0, a, 8);
	memcpy(&w1, b + 8, 8);
	CHECK(hd_v_from64(w0, w1), hd_p_from64(w0, w1), "from64");
#undef CHECK
}

static void test_ops(void)
{
	char a[16], b[16];
	int bad = 0, i, k;
	const char *what = "";
	unsigned allname = 0;

	for (i = 0; i < 20000; i++) {
		for (k = 0; k < 16; k++) {
			a[k] = pick();
			b[k] = rnd() % 3 ? a[k] : pick();
		}
		ops_on(a, b, &bad, &what);
	}
	ok(bad == 0, "20000 random blocks: every operation equals the portable one%s%s",
	   bad ? ", not " : "", what);

	bad = 0;
	for (i = 0; i < 256; i += 16) {
		for (k = 0; k < 16; k++) {
			a[k] = (char)(i + k);
			b[k] = (char)(255 - i - k);
		}
		ops_on(a, b, &bad, &what);
		ops_on(b, a, &bad, &what);
	}
	ok(bad == 0, "every byte value: every operation equals the portable one%s%s",
	   bad ? ", not " : "", what);

	/* the name class against its definition, [A-Za-z0-9_.-] */
	bad = 0;
	for (i = 0; i < 256; i += 16) {
		for (k = 0; k < 16; k++) {
			int c = i + k, want = isalnum(c) || c == '_' || c == '.' || c == '-';

			a[k] = (char)c;
			if (c >= 0x80)
				want = 0;
			if (want)
				allname++;
			if (!!hd_name_char[c] != want)
				bad++;
		}
		if (hd_v_mask(hd_v_name(hd_v_load(a))) !=
		    hd_p_mask(hd_p_name(hd_p_load(a))))
			bad++;
	}
	ok(bad == 0 && allname == 65, "name bytes are [A-Za-z0-9_.-] (%u of them)", allname);
}

/* ---- the scanners, against readings byte by byte ---- */

static size_t ref_name_span(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_' ||
			 p[i] == '.' || p[i] == '-') && (unsigned char)p[i] < 0x80)
		i++;
	return i;
}

static size_t ref_either(const char *p, size_t n, size_t i, char c1, char c2)
{
	for (; i < n; i++)
		if (p[i] == c1 || p[i] == c2)
			return i;
	return n;
}

static const char *ref_line_end(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '\n' || *p == '\0')
			return p;
	return NULL;
}

static size_t ref_string_end(const char *p, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (p[i] == '\\') {
			i++;
			continue;
		}
		if (p[i] == '"')
			return i + 1;
	}
	return n;
}

/* Page-like buffers whose last byte is followed by a page that faults. */
static char *page;
static size_t page_size;

static char *at_end(size_t n)
{
	return page + page_size - n;
}

/* Checks every scanner on the n bytes at p (which end the page). */
static void scan_all(const char *p, size_t n, int *bad, const char **what)
{
	size_t i;

	if (hd_scan_name_span(p, n, p + n) != ref_name_span(p, n)) {
		(*bad)++;
		*what = "name_span";
	}
	if (hd_scan_either(p, n, 0, ':', '\n', p + n) != ref_either(p, n, 0, ':', '\n') ||
	    (n > 3 && hd_scan_either(p, n, 3, '"', '"', p + n) !=
		      ref_either(p, n, 3, '"', '"'))) {
		(*bad)++;
		*what = "either";
	}
	if (hd_scan_line_end(p, p + n) != ref_line_end(p, p + n)) {
		(*bad)++;
		*what = "line_end";
	}
	for (i = 0; i < n; i++)
		if (p[i] == '"' && hd_scan_string_end(p, n, i) != ref_string_end(p, n, i)) {
			(*bad)++;
			*what = "string_end";
		}
	/* against a copy that differs in byte i (or none) */
	for (i = 0; i <= n; i++) {
		char c[MAXLEN + 1];
		int want = 1;

		memcpy(c, p, n);
		if (i < n) {
			c[i] ^= 1;
			want = 0;
		}
		if (hd_scan_same(p, c, n) != want) {
			(*bad)++;
			*what = "same";
		}
	}
}

static void test_scanners(void)
{
	static const char fills[] = "aZ9_.-";
	static const char stops[] = " :\n\0\"{%\x80";
	int bad = 0, runs = 0;
	const char *what = "";
	size_t n, at, f, s;

	/* a run of name bytes, one stop byte at every position */
	for (n = 0; n <= MAXLEN; n++)
		for (f = 0; f < sizeof(fills) - 1; f++)
			for (s = 0; s < sizeof(stops) - 1; s++)
				for (at = 0; at <= n; at++) {
					char *p = at_end(n);

					memset(p, fills[f], n);
					if (at < n)
						p[at] = stops[s];
					scan_all(p, n, &bad, &what);
					runs++;
				}
	ok(bad == 0, "lengths 0 to %d, a stop at every position, at a page's end "
	   "(%d texts)%s%s", MAXLEN, runs, bad ? ": not " : "", what);

	/* strings with backslashes before their quotes */
	bad = runs = 0;
	for (n = 2; n <= MAXLEN; n++)
		for (at = 1; at < n; at++)
			for (f = 0; f < 4; f++) {
				char *p = at_end(n);

				memset(p, 'x', n);
				p[0] = '"';
				p[at] = '"';
				for (s = 1; s <= f && s < at; s++)
					p[at - s] = '\\';
				scan_all(p, n, &bad, &what);
				runs++;
			}
	ok(bad == 0, "strings with 0 to 3 backslashes before a quote at every "
	   "position (%d texts)%s%s", runs, bad ? ": not " : "", what);

	bad = runs = 0;
	for (runs = 0; runs < 30000; runs++) {
		char *p;

		n = rnd() % (MAXLEN + 1);
		p = at_end(n);
		for (at = 0; at < n; at++)
			p[at] = rnd() % 8 ? fills[rnd() % 6] : pick();
		scan_all(p, n, &bad, &what);
	}
	ok(bad == 0, "%d random texts of 0 to %d bytes at a page's end%s%s", runs,
	   MAXLEN, bad ? ": not " : "", what);
}

/* No vector intrinsic and no __SSE2__ test outside scan.[ch]. */
static void test_seam(void)
{
	const char *src = getenv("HD_SRCDIR");
	char cmd[4096], line[1024];
	FILE *f;
	int stray = 0;

	if (!src) {
		skip("HD_SRCDIR unset: the sources are not at hand");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "grep -rlE '_mm_|__SSE2__|emmintrin' '%s/src' '%s/include' 2>&1", src, src);
	f = popen(cmd, "r");
	if (!f)
		bail("popen grep failed");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "/src/scan.c") || strstr(line, "/include/hlodiff/scan.h"))
			continue;
		diag("vector code outside scan.[ch]: %s", line);
		stray++;
	}
	pclose(f);
	ok(stray == 0, "no _mm_*, __SSE2__ or emmintrin.h outside scan.[ch]");
}

int main(void)
{
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	page = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || mprotect(page + page_size, page_size, PROT_NONE))
		bail("cannot map a guarded page");
	plan(7);
	diag("built %s SSE2", HD_SCAN_SSE2 ? "with" : "without");
	test_ops();
	test_scanners();
	test_seam();
	return 0;
}
