/*
 * test_parse_shapes.c - the shape texts of value lines are kept once each
 * in the dump (keep_shape in src/parse.c): values of one shape share one
 * copy, outside the input, with the input's bytes; past the budget (a
 * thirty-second of the input, at least 1 MiB, of distinct shape bytes)
 * the shapes stay in the input, with the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

/* Is p inside the n bytes at base? */
static int inside(const char *p, const char *base, size_t n)
{
	return p >= base && p < base + n;
}

/* The shape text of value line k of text (after "): "). */
static const char *line_shape(const char *text, size_t k, size_t *len)
{
	const char *p = text;
	size_t i;

	for (i = 0; i <= k; i++)
		p = strstr(p, "): ") + 3;
	*len = strcspn(p, "\n");
	return p;
}

static void test_shared_copies(void)
{
	static const char text[] =
		"BufferAssignment:\n"
		"allocation 0: size 4096, preallocated-temp:\n"
		" value: <1 a.1 @0> (size=1024,offset=0): f32[256]{0}\n"
		" value: <2 b.1 @0> (size=1024,offset=1024): f32[256]{0}\n"
		" value: <3 c.1 @0> (size=4,offset=2048): f32[]\n"
		" value: <4 d.1 @0> (size=32,offset=2056): (f32[256]{0}, f32[256]{0}, u32[], s32[16,16,16]{2,1,0})\n"
		" value: <5 e.1 @0> (size=32,offset=2088): (f32[256]{0}, f32[256]{0}, u32[], s32[16,16,16]{2,1,0})\n";
	size_t n = sizeof(text) - 1, k, len;
	struct tap_parsed t;
	const struct hd_dump *d = &t.d;

	tap_parse_exact(&t, "shapes", text, n, HD_PARSE_ALLOW_INCOMPLETE);
	is_int(0, t.rc, "parses");
	is_int(5, (long long)d->alloc_values.len, "five value lines");
	for (k = 0; k < d->alloc_values.len && k < 5; k++) {
		struct hd_slice s = HD_ALLOC_VALUE(d, k).shape;
		const char *want = line_shape(text, k, &len);

		ok(s.n == len && memcmp(s.p, want, len) == 0,
		   "value %zu: the line's shape text", k + 1);
		ok(!inside(s.p, t.copy, n), "value %zu: kept outside the input", k + 1);
	}
	if (d->alloc_values.len == 5) {
		ok(HD_ALLOC_VALUE(d, 0).shape.p == HD_ALLOC_VALUE(d, 1).shape.p,
		   "one copy for the two f32[256]{0}");
		ok(HD_ALLOC_VALUE(d, 3).shape.p == HD_ALLOC_VALUE(d, 4).shape.p,
		   "one copy for the two tuples (longer than the memo's texts)");
		ok(HD_ALLOC_VALUE(d, 0).shape.p != HD_ALLOC_VALUE(d, 2).shape.p,
		   "another for f32[]");
	}
	tap_parsed_release(&t);
}

/* More distinct shape bytes than the budget: the first are kept, the
 * rest stay in the input; every one has its line's text. */
static void test_budget(void)
{
	enum { N = 120000 };
	size_t cap = (size_t)N * 80 + 256, n = 0, k, kept = 0, in_input = 0,
	       right = 0, kept_bytes = 0;
	char *text = malloc(cap);
	struct hd_dump d;
	int rc;

	n += (size_t)snprintf(text + n, cap - n, "BufferAssignment:\n"
			      "allocation 0: size %d, preallocated-temp:\n", N * 4);
	for (k = 0; k < N; k++)
		n += (size_t)snprintf(text + n, cap - n,
				      " value: <%zu v.%zu @0> (size=4,offset=%zu): s32[%zu]{0}\n",
				      k + 1, k + 1, 4 * k, k + 1);
	rc = hd_parse_buffer(&d, "budget", text, n, HD_PARSE_ALLOW_INCOMPLETE);
	is_int(0, rc, "%d values of distinct shapes parse", N);
	for (k = 0; k < d.alloc_values.len; k++) {
		struct hd_slice s = HD_ALLOC_VALUE(&d, k).shape;
		char want[64];
		int w = snprintf(want, sizeof(want), "s32[%zu]{0}", k + 1);

		right += s.n == (size_t)w && memcmp(s.p, want, s.n) == 0;
		if (inside(s.p, text, n)) {
			in_input++;
		} else {
			kept++;
			kept_bytes += s.n;
		}
	}
	is_int(N, (long long)right, "every value has its line's shape");
	ok(kept > 0 && in_input > 0, "some kept (%zu), the rest in the input (%zu)",
	   kept, in_input);
	ok(kept_bytes <= (1u << 20) && kept_bytes > (1u << 20) - 64,
	   "kept up to the 1 MiB budget (%zu bytes)", kept_bytes);
	hd_dump_release(&d);
	free(text);
}

int main(void)
{
	plan_lazy();
	test_shared_copies();
	test_budget();
	return 0;
}
