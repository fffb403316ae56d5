/*
 * test_parse_keys.c - the values of the allocations section are filed
 * under their keys when the section is over (file_pending in
 * src/parse_alloc.c), yet two values of one key are reported as if found at
 * the line of the later one: that line, the first such pair when there
 * are several, before any error met after it and after any met before
 * it, a NUL byte anywhere still first; and the values are found by key
 * afterwards (live ranges, lookups), also over many peak lines, CRLF
 * ends, keys it does not know, a section change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

/* The first message starts with want. */
static void is_message(const char *text, const char *want, const char *what)
{
	int rc;
	char *got = tap_first_message("keys", text, strlen(text), &rc);

	if (!ok(rc != 0 && strncmp(got, want, strlen(want)) == 0, "%s", what))
		diag("got '%s' (rc %d), want '%s'", got, rc, want);
	free(got);
}

/*
 * A dump of n values v.K, live ranges for them (K:K-K+1, every third
 * line ending in CRLF, and one for a key no value has after the n/2th),
 * then peak lines for v.0 to v.9: every range and peak entry names the
 * right value (none for v.K with K >= n).
 */
static void many_live_ranges(int n)
{
	size_t cap = (size_t)n * 160 + 1024, len = 0;
	char *text = malloc(cap);
	struct hd_dump d;
	int k, rc, right = 1;

	len += (size_t)snprintf(text + len, cap - len,
				"BufferAssignment:\nallocation 0: size 64, preallocated-temp:\n");
	for (k = 0; k < n; k++)
		len += (size_t)snprintf(text + len, cap - len,
					" value: <%d v.%d @0> (size=4,offset=0): f32[]\n", k, k);
	len += (size_t)snprintf(text + len, cap - len,
				"\nHloLiveRange (max %d):\n  InstructionSequence:\n", n + 1);
	for (k = 0; k <= n; k++)
		len += (size_t)snprintf(text + len, cap - len, "    %d:v.0\n", k);
	len += (size_t)snprintf(text + len, cap - len, "  BufferLiveRange:\n");
	for (k = 0; k < n; k++) {
		len += (size_t)snprintf(text + len, cap - len, "    v.%d{}:%d-%d%s\n",
					k, k, k + 1, k % 3 == 2 ? "\r" : "");
		if (k == n / 2)
			len += (size_t)snprintf(text + len, cap - len, "    nobody:0-1\n");
	}
	len += (size_t)snprintf(text + len, cap - len, "  Live ranges at 1 (peak):\n");
	for (k = 0; k < 10; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"    v.%d: 4 bytes (cumulative: %d bytes)\n", k, 4 * (k + 1));
	rc = hd_parse_buffer(&d, "keys", text, len, HD_PARSE_ALLOW_INCOMPLETE);
	ok(rc == 0 && d.live_ranges.len == (size_t)n + 1 && d.peak.len == 10,
	   "%d live ranges and 10 peak lines read", n);
	for (k = 0; k < n && rc == 0 && d.live_ranges.len == (size_t)n + 1; k++) {
		const struct hd_live_range *r = &HD_LIVE_RANGE(&d, k + (k > n / 2));

		if (r->value != (uint32_t)k || r->start != k || r->end != k + 1 ||
		    HD_VALUE(&d, k).live_start != k)
			right = 0;
	}
	ok(right && d.live_ranges.len == (size_t)n + 1 &&
	   HD_LIVE_RANGE(&d, n / 2 + 1).value == HD_NONE,
	   "each of %d live ranges names its value (the unknown key none)", n);
	right = 1;
	for (k = 0; k < 10 && d.peak.len == 10; k++)
		if (HD_PEAK_ENTRY(&d, k).value != (k < n ? (uint32_t)k : HD_NONE))
			right = 0;
	ok(right, "each peak line names its value");
	hd_dump_release(&d);
	free(text);
}

#define HEAD "BufferAssignment:\nallocation 0: size 64, preallocated-temp:\n"

int main(void)
{
	plan_lazy();
	many_live_ranges(5);
	many_live_ranges(300);
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
		struct hd_diag_held h;
		struct tap_parsed t;

		hd_diag_hold(&h);
		tap_parse_exact(&t, "keys", text, sizeof(text) - 1, 0);
		hd_diag_unhold(&h);
		ok(t.rc != 0 && h.buf &&
		   strncmp(h.buf, "hlodiff: keys:5:2: NUL byte", 27) == 0,
		   "a NUL byte after them is the error still");
		free(h.buf);
		tap_parsed_release(&t);
	}
	{
		static const char text[] = HEAD
			" value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
			" value: <2 t.1{0} @0> (size=4,offset=0): f32[]\n"
			" value: <3 t.1{} @0> (size=4,offset=0): f32[]\n"
			"\nHloLiveRange (max 1):\n  InstructionSequence:\n    0:a.1\n"
			"  BufferLiveRange:\n    a.1{}:0-1\n    t.1{0}:0-1\n    t.1:1-1\n";
		struct tap_parsed t;
		const struct hd_dump *d = &t.d;

		tap_parse_exact(&t, "keys", text, sizeof(text) - 1,
				HD_PARSE_ALLOW_INCOMPLETE);
		ok(t.rc == 0 && d->live_ranges.len == 3 &&
		   HD_LIVE_RANGE(d, 0).value == 0 &&
		   HD_LIVE_RANGE(d, 1).value == 1 &&
		   HD_LIVE_RANGE(d, 2).value == 2,
		   "the live ranges find the values filed at once");
		ok(hd_dump_value_by_key(d, hd_slice_make("t.1{0}", 6)) == 1 &&
		   hd_dump_value_by_key(d, hd_slice_make("t.1{}", 5)) == 2 &&
		   hd_dump_value_by_key(d, hd_slice_make("a.1", 3)) == 0 &&
		   hd_dump_value_by_key(d, hd_slice_make("b.1", 3)) == HD_NONE,
		   "and so do lookups after the parse");
		tap_parsed_release(&t);
	}
	{
		/* a dump that ends in its allocations files them too */
		static const char text[] = HEAD
			" value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
			" value: <2 b.1 @0> (size=4,offset=0): f32[]\n";
		struct tap_parsed t;

		tap_parse_exact(&t, "keys", text, sizeof(text) - 1, 0);
		ok(t.rc == 0 &&
		   hd_dump_value_by_key(&t.d, hd_slice_make("b.1", 3)) == 1 &&
		   hd_dump_value_by_key(&t.d, hd_slice_make("a.1", 3)) == 0,
		   "values of a dump that ends in its allocations are found");
		tap_parsed_release(&t);
	}
	return 0;
}
