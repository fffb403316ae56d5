/*
 * test_json.c - the JSON writer (src/json.c): layout, string escapes
 * (RFC 8259; invalid UTF-8 as \ufffd), integers at their limits, and
 * output past its buffer (a string longer than it, items across its
 * end), each compared with the text written out by hand.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/json.h"
#include "tap/tap.h"

#ifndef HD_JSON_BUF
#define HD_JSON_BUF 8192
#endif

struct mem {
	char *text;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m, struct hd_json *j)
{
	m->text = NULL;
	m->len = 0;
	m->f = open_memstream(&m->text, &m->len);
	if (!m->f)
		bail("open_memstream failed");
	hd_json_init(j, m->f);
}

/* Finishes j and compares what it wrote with want (want_len bytes). */
static void mem_check(struct mem *m, struct hd_json *j, const char *want,
		      size_t want_len, const char *what)
{
	hd_json_finish(j);
	fclose(m->f);
	if (!ok(m->len == want_len && memcmp(m->text, want, want_len) == 0,
		"%s", what))
		diag("got %zu bytes '%.200s', want %zu bytes '%.200s'", m->len,
		     m->text, want_len, want);
	free(m->text);
}

#define CHECK(m, j, lit, what) mem_check((m), (j), (lit), sizeof(lit) - 1, (what))

static void test_layout(void)
{
	struct mem m;
	struct hd_json j;

	mem_open(&m, &j);
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "a", 1);
	hd_json_key(&j, "b");
	hd_json_begin_array(&j);
	hd_json_bool(&j, 1);
	hd_json_bool(&j, 0);
	hd_json_null(&j);
	hd_json_raw(&j, "1.5");
	hd_json_end_array(&j);
	hd_json_key(&j, "empty");
	hd_json_begin_object(&j);
	hd_json_end_object(&j);
	hd_json_key_str(&j, "none", NULL);
	hd_json_key_slice(&j, "s", hd_slice_make("xy", 2));
	hd_json_key_opt_int(&j, "o", 0, 5);
	hd_json_end_object(&j);
	CHECK(&m, &j, "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    false,\n"
		      "    null,\n    1.5\n  ],\n  \"empty\": {},\n"
		      "  \"none\": null,\n  \"s\": \"xy\",\n  \"o\": null\n}\n",
	      "objects, arrays, literals, two spaces a level");

	mem_open(&m, &j);
	hd_json_begin_array(&j);
	j.compact_depth = 2;
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "x", 1);
	hd_json_key_int(&j, "y", 2);
	hd_json_end_object(&j);
	hd_json_begin_object(&j);
	hd_json_key_int(&j, "x", 3);
	hd_json_end_object(&j);
	j.compact_depth = 0;
	hd_json_end_array(&j);
	CHECK(&m, &j, "[\n  {\"x\": 1, \"y\": 2},\n  {\"x\": 3}\n]\n",
	      "compact depth: one line an object");
}

static void test_strings(void)
{
	static const char s[] = "q\" b\\ n\n t\t r\r c\x01 d\x7f e\xc3\xa9 "
				"k\xe2\x82\xac g\xf0\x9f\x98\x80 bad\xff cut\xe2\x82";
	struct mem m;
	struct hd_json j;

	mem_open(&m, &j);
	hd_json_str(&j, s);
	CHECK(&m, &j, "\"q\\\" b\\\\ n\\n t\\t r\\r c\\u0001 d\\u007f "
		      "e\xc3\xa9 k\xe2\x82\xac g\xf0\x9f\x98\x80 bad\\ufffd "
		      "cut\\ufffd\\ufffd\"\n",
	      "escapes, UTF-8 kept, invalid bytes as \\ufffd");
	mem_open(&m, &j);
	hd_json_slice(&j, hd_slice_make("a\0b", 3));
	CHECK(&m, &j, "\"a\\u0000b\"\n", "a NUL inside a slice");
	mem_open(&m, &j);
	hd_json_key_str(&j, "k\"", "");
	CHECK(&m, &j, "\"k\\\"\": \"\"\n", "an escaped key, an empty string");
}

/* The expected JSON of one byte of the escape tests below. */
static size_t want_byte(char *o, unsigned char c)
{
	if (c == '"' || c == '\\')
		return (size_t)sprintf(o, "\\%c", c);
	if (c == '\n')
		return (size_t)sprintf(o, "\\n");
	if (c < 0x20 || c == 0x7f)
		return (size_t)sprintf(o, "\\u%04x", c);
	if (c >= 0x80)
		return (size_t)sprintf(o, "\\ufffd");   /* a lone byte */
	*o = (char)c;
	return 1;
}

/*
 * Strings of 1 to 40 bytes with one byte to escape at every place: the
 * writer finds plain runs 16 bytes at a time where a whole block fits
 * and byte by byte after, so each place of a block and of its tail is
 * met.  Each string is a buffer of its exact size (ASan sees a read
 * past it).
 */
static void test_escape_places(void)
{
	static const unsigned char odd[] = { '"', '\\', '\n', 0x01, 0x1f, 0x7f, 0xff };
	size_t len, at, k, bad = 0, tried = 0;

	for (len = 1; len <= 40; len++)
		for (at = 0; at < len; at++)
			for (k = 0; k < sizeof(odd); k++) {
				char *s = malloc(len), want[512];
				size_t i, w = 0;
				struct mem m;
				struct hd_json j;

				for (i = 0; i < len; i++)
					s[i] = (char)(i == at ? odd[k] : ' ' + (i * 7) % 95);
				want[w++] = '"';
				for (i = 0; i < len; i++)
					w += want_byte(want + w, (unsigned char)s[i]);
				want[w++] = '"';
				want[w++] = '\n';
				mem_open(&m, &j);
				hd_json_slice(&j, hd_slice_make(s, len));
				hd_json_finish(&j);
				fclose(m.f);
				tried++;
				if (m.len != w || memcmp(m.text, want, w) != 0) {
					if (bad++ == 0)
						diag("len %zu, byte 0x%02x at %zu: got '%.*s'",
						     len, odd[k], at, (int)m.len, m.text);
				}
				free(m.text);
				free(s);
			}
	ok(bad == 0 && tried == 40 * 41 / 2 * sizeof(odd),
	   "a byte to escape at each of the places of 1- to 40-byte strings (%zu strings)",
	   tried);
}

/* The text j wrote for one item written by put, as a new string. */
static char *written(void (*put)(struct hd_json *, const char *, size_t, size_t),
		     const char *s, size_t n, size_t cut, size_t *len)
{
	struct mem m;
	struct hd_json j;

	mem_open(&m, &j);
	put(&j, s, n, cut);
	hd_json_finish(&j);
	fclose(m.f);
	*len = m.len;
	return m.text;
}

static void put_whole(struct hd_json *j, const char *s, size_t n, size_t cut)
{
	(void)cut;
	hd_json_slice(j, hd_slice_make(s, n));
}

/* Each piece in a buffer of its exact size (ASan sees a read past it). */
static void put_cat(struct hd_json *j, const char *s, size_t n, size_t cut)
{
	char *a = malloc(cut + 1), *b = malloc(n - cut + 1);

	memcpy(a, s, cut);
	memcpy(b, s + cut, n - cut);
	hd_json_slice_cat(j, hd_slice_make(a, cut), hd_slice_make(b, n - cut));
	free(a);
	free(b);
}

/*
 * hd_json_slice_cat writes what hd_json_slice writes of the two joined,
 * wherever they are cut: plain strings, escapes, UTF-8 sequences cut in
 * two (valid joined), and pieces longer than its stack room and than
 * the buffer.
 */
static void test_slice_cat(void)
{
	static const char mixed[] = "ab\"\xc3\xa9k\xe2\x82\xac\xf0\x9f\x98\x80\xff\n"
				    "fusion.123{0,1}";
	size_t big = 2 * HD_JSON_BUF + 5, sizes[4], n, cut, k, bad = 0, tried = 0;
	char *plain = malloc(big);
	const char *texts[4];

	for (k = 0; k < big; k++)
		plain[k] = (char)('a' + k % 26);
	texts[0] = mixed;
	sizes[0] = sizeof(mixed) - 1;
	texts[1] = plain;
	sizes[1] = 40;
	texts[2] = plain;
	sizes[2] = 300;
	texts[3] = plain;
	sizes[3] = big;
	for (k = 0; k < 4; k++)
		for (n = 0; n <= sizes[k]; n += n < 48 ? 1 : 97)
			for (cut = 0; cut <= n; cut += cut < 48 || n - cut < 48 ? 1 : 89) {
				size_t la, lb;
				char *a = written(put_whole, texts[k], n, cut, &la);
				char *b = written(put_cat, texts[k], n, cut, &lb);

				tried++;
				if (la != lb || memcmp(a, b, la) != 0) {
					if (bad++ == 0)
						diag("%zu bytes cut at %zu: got '%.*s', want '%.*s'",
						     n, cut, (int)(lb < 200 ? lb : 200), b,
						     (int)(la < 200 ? la : 200), a);
				}
				free(a);
				free(b);
			}
	ok(bad == 0, "a string in two pieces as the two joined, cut anywhere (%zu cuts)",
	   tried);
	free(plain);
}

/* Plain strings of 0 to 40 bytes, each in a buffer of its size. */
static void test_plain_lengths(void)
{
	size_t len, i, bad = 0;

	for (len = 0; len <= 40; len++) {
		char *s = malloc(len + 1), want[64];
		struct mem m;
		struct hd_json j;

		for (i = 0; i < len; i++)
			s[i] = (char)(' ' + (i * 7) % 95);
		for (i = 0; i < len; i++)       /* no quote or backslash */
			if (s[i] == '"' || s[i] == '\\')
				s[i] = '~';
		want[0] = '"';
		memcpy(want + 1, s, len);
		memcpy(want + 1 + len, "\"\n", 2);
		mem_open(&m, &j);
		hd_json_slice(&j, hd_slice_make(s, len));
		hd_json_finish(&j);
		fclose(m.f);
		if (m.len != len + 3 || memcmp(m.text, want, len + 3) != 0)
			bad++;
		free(m.text);
		free(s);
	}
	ok(bad == 0, "plain strings of 0 to 40 bytes as they are");
}

static void test_integers(void)
{
	struct mem m;
	struct hd_json j;

	mem_open(&m, &j);
	hd_json_begin_array(&j);
	hd_json_int(&j, 0);
	hd_json_int(&j, -1);
	hd_json_int(&j, 10);
	hd_json_int(&j, INT64_MAX);
	hd_json_int(&j, INT64_MIN);
	hd_json_end_array(&j);
	CHECK(&m, &j, "[\n  0,\n  -1,\n  10,\n  9223372036854775807,\n"
		      "  -9223372036854775808\n]\n", "integers to their limits");

	/* every number of digits, around each power of ten */
	{
		char want[4096];
		size_t at = 0;
		int64_t p = 1;
		int k, d;

		mem_open(&m, &j);
		hd_json_begin_array(&j);
		at += (size_t)sprintf(want + at, "[");
		for (k = 0; k < 19; k++) {
			for (d = -1; d <= 1; d++) {
				int64_t v = p + d;

				hd_json_int(&j, v);
				hd_json_int(&j, -v);
				at += (size_t)sprintf(want + at, "%s\n  %lld,\n  %lld",
						      at > 1 ? "," : "",
						      (long long)v, (long long)-v);
			}
			if (k < 18)     /* 10^18 is the last below INT64_MAX */
				p *= 10;
		}
		hd_json_end_array(&j);
		at += (size_t)sprintf(want + at, "\n]\n");
		mem_check(&m, &j, want, at, "integers of every length, both signs");
	}
}

/* A string longer than the buffer, and items across its end. */
static void test_past_buffer(void)
{
	size_t n = 3 * HD_JSON_BUF + 17, i, at = 0;
	char *s = malloc(n + 1), *want = malloc(2 * n + 64 * 4000);
	struct mem m;
	struct hd_json j;

	for (i = 0; i < n; i++)
		s[i] = (char)('a' + i % 26);
	s[n] = '\0';
	mem_open(&m, &j);
	hd_json_begin_array(&j);
	hd_json_str(&j, s);
	for (i = 0; i < 4000; i++)
		hd_json_int(&j, (int64_t)i * 7919);
	hd_json_end_array(&j);
	at += (size_t)sprintf(want + at, "[\n  \"%s\"", s);
	for (i = 0; i < 4000; i++)
		at += (size_t)sprintf(want + at, ",\n  %zu", i * 7919);
	at += (size_t)sprintf(want + at, "\n]\n");
	mem_check(&m, &j, want, at, "a string of 3 buffers and 4000 items after it");
	free(want);
	free(s);
}

/* Compact rows across the buffer's end, as a listing writes them. */
static void test_compact_rows(void)
{
	size_t i, at = 0, cap = 4000 * 160 + 64;
	char *want = malloc(cap);
	struct mem m;
	struct hd_json j;

	mem_open(&m, &j);
	hd_json_begin_array(&j);
	j.compact_depth = 2;
	at += (size_t)sprintf(want + at, "[");
	for (i = 0; i < 4000; i++) {
		hd_json_begin_object(&j);
		hd_json_key_str(&j, "status", i % 3 ? "matched" : "added");
		hd_json_key(&j, "old");
		if (i % 5)
			hd_json_slice_cat(&j, hd_slice_make("fusion.", 7),
					  hd_slice_make("{}", 2));
		else
			hd_json_null(&j);
		hd_json_key_int(&j, "delta", (int64_t)i * 7919 - 9000);
		hd_json_key_str(&j, i % 7 ? "k" : "a longer key, past 16 bytes", "");
		hd_json_end_object(&j);
		at += (size_t)snprintf(want + at, cap - at,
				       "%s\n  {\"status\": \"%s\", \"old\": %s, "
				       "\"delta\": %lld, \"%s\": \"\"}",
				       i ? "," : "", i % 3 ? "matched" : "added",
				       i % 5 ? "\"fusion.{}\"" : "null",
				       (long long)i * 7919 - 9000,
				       i % 7 ? "k" : "a longer key, past 16 bytes");
	}
	j.compact_depth = 0;
	hd_json_end_array(&j);
	at += (size_t)snprintf(want + at, cap - at, "\n]\n");
	mem_check(&m, &j, want, at, "4000 compact rows across the buffer's end");
	free(want);
}

int main(void)
{
	plan_lazy();
	test_layout();
	test_strings();
	test_escape_places();
	test_plain_lengths();
	test_slice_cat();
	test_integers();
	test_past_buffer();
	test_compact_rows();
	return 0;
}
