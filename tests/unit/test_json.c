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

int main(void)
{
	plan_lazy();
	test_layout();
	test_strings();
	test_escape_places();
	test_integers();
	test_past_buffer();
	return 0;
}
