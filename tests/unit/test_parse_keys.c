/*
 * test_parse_keys.c - the values of the allocations section are filed
 * under their keys when the section is over (file_pending in
 * src/parse.c), yet two values of one key are reported as if found at
 * the line of the later one: that line, the first such pair when there
 * are several, before any error met after it and after any met before
 * it, a NUL byte anywhere still first; and the values are found by key
 * afterwards (live ranges, lookups).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/parse.h"
#include "tap/tap.h"

/* The first message parsing text prints (heap, "" if none); *rc. */
static char *first_message(const char *text, int *rc)
{
	size_t n = strlen(text);
	char *copy = malloc(n + 1), *nl;
	struct hd_diag_held h;
	struct hd_dump d;

	memcpy(copy, text, n + 1);
	hd_diag_hold(&h);
	*rc = hd_parse_buffer(&d, "keys", copy, n, 0);
	hd_diag_unhold(&h);
	hd_dump_release(&d);
	free(copy);
	if (!h.buf)
		return strdup("");
	nl = strchr(h.buf, '\n');
	if (nl)
		*nl = '\0';
	return h.buf;
}

/* The first message starts with want. */
static void is_message(const char *text, const char *want, const char *what)
{
	int rc;
	char *got = first_message(text, &rc);

	if (!ok(rc != 0 && strncmp(got, want, strlen(want)) == 0, "%s", what))
		diag("got '%s' (rc %d), want '%s'", got, rc, want);
	free(got);
}

#define HEAD "BufferAssignment:\nallocation 0: size 64, preallocated-temp:\n"

int main(void)
{
	plan_lazy();
	is_message(HEAD
		   " value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <2 b.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <3 a.1 @0> (size=4,offset=0): f32[]\n",
		   "hlodiff: keys:5: two values named 'a.1' (ids 1 and 3)",
		   "a dump ending in its allocations: the later value's line");
	is_message(HEAD
		   " value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <3 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <4 b.1 @0> (size=x,offset=0): f32[]\n",
		   "hlodiff: keys:4: two values named 'a.1' (ids 1 and 3)",
		   "before an error on a later line");
	is_message(HEAD
		   " value: <1 a.1 @0> (size=x,offset=0): f32[]\n"
		   " value: <3 a.1 @0> (size=4,offset=0): f32[]\n",
		   "hlodiff: keys:3: bad value line",
		   "after an error on an earlier line");
	is_message(HEAD
		   " value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <2 b.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <3 b.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <4 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <5 a.1 @0> (size=4,offset=0): f32[]\n",
		   "hlodiff: keys:5: two values named 'b.1' (ids 2 and 3)",
		   "of two pairs, the one whose later value comes first");
	is_message(HEAD
		   " value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <2 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <3 a.1 @0> (size=4,offset=0): f32[]\n",
		   "hlodiff: keys:4: two values named 'a.1' (ids 1 and 2)",
		   "three of one key: the first two");
	is_message(HEAD
		   " value: <1 t.1{0} @0> (size=4,offset=0): f32[]\n"
		   " value: <2 t.1{1} @0> (size=4,offset=0): f32[]\n"
		   " value: <3 u.1{} @0> (size=4,offset=0): f32[]\n"
		   " value: <4 u.1 @0> (size=4,offset=0): f32[]\n",
		   "hlodiff: keys:6: two values named 'u.1' (ids 3 and 4)",
		   "name{} and name are one key, name{0} and name{1} two");
	is_message(HEAD
		   " value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <3 a.1 @0> (size=4,offset=0): f32[]\n"
		   "\nTotal bytes used: 64 (64B)\n\nUsed values:\n"
		   "<1 a.1 @0>\n",
		   "hlodiff: keys:4: two values named 'a.1' (ids 1 and 3)",
		   "when the allocations are followed by more");
	is_message(HEAD
		   " value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		   " value: <3 a.1 @0> (size=4,offset=0): f32[]\n"
		   "\nHloLiveRange (max 1):\n  InstructionSequence:\n    0:a.1\n"
		   "  BufferLiveRange:\n    a.1{}:0-1\n",
		   "hlodiff: keys:4: two values named 'a.1' (ids 1 and 3)",
		   "before a live range is looked up");
	{
		static const char text[] = HEAD
			" value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
			" value: <3 a.1 @0> (size=4,offset=0): f32[]\n"
			"x\0y\n";
		size_t n = sizeof(text) - 1;
		char *copy = malloc(n);
		struct hd_diag_held h;
		struct hd_dump d;
		int rc;

		memcpy(copy, text, n);
		hd_diag_hold(&h);
		rc = hd_parse_buffer(&d, "keys", copy, n, 0);
		hd_diag_unhold(&h);
		ok(rc != 0 && h.buf &&
		   strncmp(h.buf, "hlodiff: keys:5:2: NUL byte", 27) == 0,
		   "a NUL byte after them is the error still");
		free(h.buf);
		hd_dump_release(&d);
		free(copy);
	}
	{
		static const char text[] = HEAD
			" value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
			" value: <2 t.1{0} @0> (size=4,offset=0): f32[]\n"
			" value: <3 t.1{} @0> (size=4,offset=0): f32[]\n"
			"\nHloLiveRange (max 1):\n  InstructionSequence:\n    0:a.1\n"
			"  BufferLiveRange:\n    a.1{}:0-1\n    t.1{0}:0-1\n    t.1:1-1\n";
		size_t n = sizeof(text) - 1;
		char *copy = malloc(n);
		struct hd_dump d;
		int rc;

		memcpy(copy, text, n);
		rc = hd_parse_buffer(&d, "keys", copy, n, HD_PARSE_ALLOW_INCOMPLETE);
		ok(rc == 0 && d.live_ranges.len == 3 &&
		   HD_LIVE_RANGE(&d, 0).value == 0 &&
		   HD_LIVE_RANGE(&d, 1).value == 1 &&
		   HD_LIVE_RANGE(&d, 2).value == 2,
		   "the live ranges find the values filed at once");
		ok(hd_dump_value_by_key(&d, hd_slice_make("t.1{0}", 6)) == 1 &&
		   hd_dump_value_by_key(&d, hd_slice_make("t.1{}", 5)) == 2 &&
		   hd_dump_value_by_key(&d, hd_slice_make("a.1", 3)) == 0 &&
		   hd_dump_value_by_key(&d, hd_slice_make("b.1", 3)) == HD_NONE,
		   "and so do lookups after the parse");
		hd_dump_release(&d);
		free(copy);
	}
	{
		/* a dump that ends in its allocations files them too */
		static const char text[] = HEAD
			" value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
			" value: <2 b.1 @0> (size=4,offset=0): f32[]\n";
		size_t n = sizeof(text) - 1;
		char *copy = malloc(n);
		struct hd_dump d;
		int rc;

		memcpy(copy, text, n);
		rc = hd_parse_buffer(&d, "keys", copy, n, 0);
		ok(rc == 0 && hd_dump_value_by_key(&d, hd_slice_make("b.1", 3)) == 1 &&
		   hd_dump_value_by_key(&d, hd_slice_make("a.1", 3)) == 0,
		   "values of a dump that ends in its allocations are found");
		hd_dump_release(&d);
		free(copy);
	}
	return 0;
}
