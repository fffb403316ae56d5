/*
 * test_figures.c - figures (src/figures.c) on the five seed dumps and on
 * small hand-written dumps.
 *
 * Every expected number was read from the dump text by hand (allocation
 * sizes added up, live ranges walked), never taken from hlodiff output.
 * Seeds are found at $HD_SRCDIR/tests/data/seed-00N.txt.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/figures.h"
#include "hlodiff/parse.h"
#include "tap/tap.h"

static char *seed_path(int n)
{
	static char path[4096];
	const char *dir = getenv("HD_SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/data/seed-%03d.txt",
		 dir && *dir ? dir : ".", n);
	return path;
}

/* Parses seed n into d and computes f; bails when the seed is missing. */
static void load_seed(int n, struct hd_dump *d, struct hd_figures *f)
{
	if (hd_parse_file(d, seed_path(n), HD_PARSE_NO_SIBLINGS) < 0)
		bail("cannot parse %s", seed_path(n));
	hd_figures_compute(f, d);
}

/* Parses an in-memory dump (text must outlive d) and computes f. */
static void load_text(const char *name, const char *text,
		      struct hd_dump *d, struct hd_figures *f)
{
	if (hd_parse_buffer(d, name, text, strlen(text), 0) < 0)
		bail("cannot parse %s", name);
	hd_figures_compute(f, d);
}

static void done(struct hd_dump *d, struct hd_figures *f)
{
	hd_figures_release(f);
	hd_dump_release(d);
}

static const struct hd_copy *copy_at(const struct hd_figures *f, size_t i)
{
	return &HD_VEC_AT(&f->copies, struct hd_copy, i);
}

static const struct hd_color_bytes *color_at(const struct hd_figures *f,
					     size_t i)
{
	return &HD_VEC_AT(&f->by_color, struct hd_color_bytes, i);
}

/* "name" of copy i as a C string (static buffer). */
static const char *copy_name(const struct hd_figures *f, size_t i)
{
	static char buf[128];
	const struct hd_copy *c = copy_at(f, i);

	snprintf(buf, sizeof(buf), "%.*s", (int)c->name.n, c->name.p);
	return buf;
}

/*
 * Seed 000 (TPU, _normal): allocations 512 + 16384 + 512 + 8704 + 66048
 * + 4 + 512; colour 0 = allocs 0,1,2,4; one prefetch Arg_0.1 -> VMEM.
 */
static void test_seed0(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_seed(0, &d, &f);
	ok(f.has_total, "seed 000: has Total bytes used");
	is_int(92676, f.total_bytes, "seed 000: total bytes");
	is_int(92676, f.alloc_bytes, "seed 000: sum of allocations");
	is_int(0, f.total_mismatch, "seed 000: no total mismatch");

	is_int(4, (long long)f.by_color.len, "seed 000: four colours");
	if (f.by_color.len == 4) {
		is_int(0, color_at(&f, 0)->color, "seed 000: colours ascend (0)");
		is_int(1, color_at(&f, 1)->color, "seed 000: colours ascend (1)");
		is_int(2, color_at(&f, 2)->color, "seed 000: colours ascend (2)");
		is_int(6, color_at(&f, 3)->color, "seed 000: colours ascend (6)");
		is_int(4, color_at(&f, 0)->allocs, "seed 000: 4 allocations of colour 0");
	} else {
		skip("colour list has the wrong length");
		skip("colour list has the wrong length");
		skip("colour list has the wrong length");
		skip("colour list has the wrong length");
		skip("colour list has the wrong length");
	}
	is_int(83456, hd_figures_color_bytes(&f, 0), "seed 000: colour 0 bytes");
	is_int(8704, hd_figures_color_bytes(&f, 1), "seed 000: colour 1 bytes");
	is_int(4, hd_figures_color_bytes(&f, 2), "seed 000: colour 2 bytes");
	is_int(512, hd_figures_color_bytes(&f, 6), "seed 000: colour 6 bytes");
	is_int(0, hd_figures_color_bytes(&f, 3), "seed 000: absent colour 3 is 0");

	is_int(512, f.by_kind[HD_KIND_PARAMETER], "seed 000: parameter bytes");
	is_int(16384, f.by_kind[HD_KIND_OUTPUT], "seed 000: output bytes");
	is_int(512, f.by_kind[HD_KIND_CONSTANT], "seed 000: constant bytes");
	is_int(75268, f.by_kind[HD_KIND_TEMP], "seed 000: temp bytes");
	is_int(4, f.allocs_by_kind[HD_KIND_TEMP], "seed 000: 4 temp allocations");
	is_int(0, f.allocs_by_kind[HD_KIND_THREAD_LOCAL], "seed 000: no thread-local");

	is_int(7, (long long)f.n_allocs, "seed 000: allocations");
	is_int(15, (long long)f.n_values, "seed 000: value lines");
	is_int(15, (long long)f.n_records, "seed 000: Used values records");
	is_int(15, (long long)f.n_live_ranges, "seed 000: live ranges");
	is_int(21604, f.value_bytes, "seed 000: sum of size=");

	ok(f.has_stated, "seed 000: has a stated peak");
	is_int(15, f.stated_time, "seed 000: peak time");
	is_int(8980, f.stated_bytes, "seed 000: peak bytes");
	is_int(8, f.stated_values, "seed 000: peak lines");
	ok(f.has_recomputed, "seed 000: peak recomputed");
	is_int(15, f.recomputed_time, "seed 000: recomputed time");
	is_int(8980, f.recomputed_bytes, "seed 000: recomputed bytes");
	is_int(8980, f.recomputed_at_stated, "seed 000: recomputed at 15");
	is_int(0, f.recomputed_unsized, "seed 000: every range sized");
	ok(f.stated_agrees, "seed 000: peak agrees");

	is_int(1, (long long)f.copies.len, "seed 000: one copy-start");
	if (f.copies.len == 1) {
		const struct hd_copy *c = copy_at(&f, 0);

		is_string("copy-start", copy_name(&f, 0), "seed 000: copy name");
		is_string("prefetch", hd_copy_class_name(c->cls),
			  "seed 000: copy is a prefetch");
		is_int(0, c->src_space, "seed 000: copy source space 0");
		is_int(1, c->dst_space, "seed 000: copy destination space 1");
		is_int(512, c->bytes, "seed 000: copy bytes (size= of copy-start{0})");
		ok(c->insn != HD_NONE, "seed 000: copy has its instruction");
		ok(c->value != HD_NONE && HD_VALUE(&d, c->value).id == 325,
		   "seed 000: copy value is <325 copy-start{0}>");
	} else {
		int i;

		for (i = 0; i < 7; i++)
			skip("no single copy");
	}
	is_int(1, f.copies_by_class[HD_COPY_PREFETCH], "seed 000: 1 prefetch");
	is_int(512, f.copy_bytes_by_class[HD_COPY_PREFETCH],
	       "seed 000: prefetch bytes");
	done(&d, &f);
}

/* Seed 001 (CPU, _truncated_normal with a while loop). */
static void test_seed1(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_seed(1, &d, &f);
	is_int(9152, f.total_bytes, "seed 001: total bytes");
	is_int(9152, f.alloc_bytes, "seed 001: sum of allocations");
	is_int(1, (long long)f.by_color.len, "seed 001: one colour");
	is_int(9152, hd_figures_color_bytes(&f, 0), "seed 001: all colour 0");
	is_int(10, (long long)f.n_allocs, "seed 001: allocations");
	is_int(65, (long long)f.n_values, "seed 001: value lines");
	is_int(65, (long long)f.n_live_ranges, "seed 001: live ranges");
	is_int(27301, f.value_bytes, "seed 001: sum of size=");
	is_int(7044, f.by_kind[HD_KIND_TEMP], "seed 001: temp bytes");
	is_int(44, f.by_kind[HD_KIND_CONSTANT],
	       "seed 001: constants 4+16+16+4+4");
	is_int(45, f.stated_time, "seed 001: peak time");
	is_int(8288, f.stated_bytes, "seed 001: peak bytes");
	is_int(18, f.stated_values, "seed 001: peak lines");
	is_int(45, f.recomputed_time, "seed 001: recomputed time");
	is_int(8288, f.recomputed_bytes, "seed 001: recomputed bytes");
	ok(f.stated_agrees, "seed 001: peak agrees");
	is_int(0, (long long)f.copies.len, "seed 001: no copy-start");
	done(&d, &f);
}

/*
 * Seed 002 (TPU, mini_attention): two prefetches of parameters, the
 * second with cross_program_prefetch_index=0 (FORMAT.md section 9).
 */
static void test_seed2(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_seed(2, &d, &f);
	is_int(172580, f.total_bytes, "seed 002: total bytes");
	is_int(172580, f.alloc_bytes, "seed 002: sum of allocations");
	is_int(102944, hd_figures_color_bytes(&f, 0), "seed 002: colour 0 bytes");
	is_int(69632, hd_figures_color_bytes(&f, 1), "seed 002: colour 1 bytes");
	is_int(4, hd_figures_color_bytes(&f, 2), "seed 002: colour 2 bytes");
	is_int(4608, f.by_kind[HD_KIND_THREAD_LOCAL],
	       "seed 002: 9 thread-local scalars of 512");
	is_int(9, f.allocs_by_kind[HD_KIND_THREAD_LOCAL],
	       "seed 002: 9 thread-local allocations");
	is_int(57344, f.by_kind[HD_KIND_PARAMETER], "seed 002: parameters");
	is_int(3, f.allocs_by_kind[HD_KIND_PARAMETER], "seed 002: 3 parameters");
	is_int(13, f.stated_time, "seed 002: peak time");
	is_int(43200, f.stated_bytes, "seed 002: peak bytes");
	is_int(13, f.recomputed_time, "seed 002: recomputed time");
	ok(f.stated_agrees, "seed 002: peak agrees");

	is_int(2, (long long)f.copies.len, "seed 002: two copy-starts");
	if (f.copies.len == 2) {
		is_string("copy-start.1", copy_name(&f, 0),
			  "seed 002: first in instruction order");
		is_string("prefetch", hd_copy_class_name(copy_at(&f, 0)->cls),
			  "seed 002: copy-start.1 is a prefetch");
		is_int(16384, copy_at(&f, 0)->bytes, "seed 002: copy-start.1 bytes");
		is_string("copy-start", copy_name(&f, 1), "seed 002: second copy");
		is_string("cross-program-prefetch",
			  hd_copy_class_name(copy_at(&f, 1)->cls),
			  "seed 002: copy-start is a cross-program prefetch");
		is_int(32768, copy_at(&f, 1)->bytes, "seed 002: copy-start bytes");
		is_int(0, copy_at(&f, 1)->src_space, "seed 002: source space 0");
		is_int(1, copy_at(&f, 1)->dst_space, "seed 002: destination space 1");
	} else {
		int i;

		for (i = 0; i < 8; i++)
			skip("not two copies");
	}
	is_int(1, f.copies_by_class[HD_COPY_CROSS_PROGRAM_PREFETCH],
	       "seed 002: 1 cross-program prefetch");
	is_int(32768, f.copy_bytes_by_class[HD_COPY_CROSS_PROGRAM_PREFETCH],
	       "seed 002: cross-program prefetch bytes");
	done(&d, &f);
}

/*
 * Seed 003 (TPU, _unstack): a colour-1 allocation of size 0.  The live
 * logical bytes are 96 at every time 1..7, so the naive first maximum
 * is 1; XLA printed 6, which the instruction-shape rule reproduces
 * (the four slice_reduce_fusion{i} weigh 32 each and tuple.10 starts at
 * 6, before slice_reduce_fusion{} (1-5) is freed).
 */
static void test_seed3(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_seed(3, &d, &f);
	is_int(52288, f.total_bytes, "seed 003: total bytes");
	is_int(2, (long long)f.by_color.len, "seed 003: two colours");
	is_int(0, hd_figures_color_bytes(&f, 1), "seed 003: colour 1 is empty");
	if (f.by_color.len == 2)
		is_int(1, color_at(&f, 1)->allocs, "seed 003: one colour-1 allocation");
	else
		skip("colour list has the wrong length");
	is_int(49152, f.by_kind[HD_KIND_THREAD_LOCAL],
	       "seed 003: 12 thread-local of 4096");
	is_int(2080, f.by_kind[HD_KIND_OUTPUT], "seed 003: 4 x 512 + 32 output");
	is_int(5, f.allocs_by_kind[HD_KIND_OUTPUT], "seed 003: 5 output allocations");
	is_int(32, f.by_kind[HD_KIND_TEMP], "seed 003: temp 32 + 0");
	is_int(6, f.stated_time, "seed 003: peak time");
	is_int(96, f.stated_bytes, "seed 003: peak bytes");
	is_int(6, f.recomputed_time, "seed 003: recomputed time follows XLA");
	is_int(96, f.recomputed_bytes, "seed 003: recomputed bytes");
	ok(f.stated_agrees, "seed 003: peak agrees");
	is_int(0, (long long)f.copies.len, "seed 003: no copy-start");
	done(&d, &f);
}

/*
 * Seed 004 (TPU, dynamic_slice): one cross-program prefetch.  Own
 * logical sizes peak at 4140 at times 5-6; XLA printed time 7 (4132),
 * which the instruction-shape rule reproduces.
 */
static void test_seed4(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_seed(4, &d, &f);
	is_int(18980, f.total_bytes, "seed 004: total bytes");
	is_int(9760, hd_figures_color_bytes(&f, 0), "seed 004: colour 0 bytes");
	is_int(8192, hd_figures_color_bytes(&f, 1), "seed 004: colour 1 bytes");
	is_int(1024, hd_figures_color_bytes(&f, 6), "seed 004: colour 6 bytes");
	is_int(18980, f.value_bytes, "seed 004: sum of size=");
	is_int(7, f.stated_time, "seed 004: peak time");
	is_int(4132, f.stated_bytes, "seed 004: peak bytes");
	is_int(7, f.stated_values, "seed 004: peak lines");
	is_int(7, f.recomputed_time, "seed 004: recomputed time follows XLA");
	is_int(4132, f.recomputed_bytes, "seed 004: recomputed bytes");
	ok(f.stated_agrees, "seed 004: peak agrees");
	is_int(1, (long long)f.copies.len, "seed 004: one copy-start");
	if (f.copies.len == 1) {
		is_string("cross-program-prefetch",
			  hd_copy_class_name(copy_at(&f, 0)->cls),
			  "seed 004: cross-program prefetch");
		is_int(8192, copy_at(&f, 0)->bytes, "seed 004: copy bytes");
	} else {
		skip("not one copy");
		skip("not one copy");
	}
	done(&d, &f);
}

/*
 * Seed 000 cut before "Total bytes used": allocations only (newest XLA
 * without its -values file).  The copy is known from copy-start{0} @1
 * alone: destination colour 1, size 512, no source, class other.
 */
static void test_allocations_only(void)
{
	struct hd_dump d;
	struct hd_figures f;
	FILE *fp = fopen(seed_path(0), "rb");
	static char buf[65536];
	size_t n;
	char *cut;

	if (!fp)
		bail("cannot open %s", seed_path(0));
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	cut = strstr(buf, "Total bytes used");
	if (!cut)
		bail("seed 000 has no Total line");
	*cut = '\0';
	load_text("seed-000-allocations", buf, &d, &f);
	is_int(0, f.has_total, "allocations only: no total");
	is_int(92676, f.alloc_bytes, "allocations only: sum of allocations");
	is_int(0, f.has_stated, "allocations only: no stated peak");
	is_int(0, f.has_recomputed, "allocations only: no recomputed peak");
	is_int(1, (long long)f.copies.len, "allocations only: one copy");
	if (f.copies.len == 1) {
		const struct hd_copy *c = copy_at(&f, 0);

		ok(c->insn == HD_NONE, "allocations only: no instruction");
		is_string("other", hd_copy_class_name(c->cls),
			  "allocations only: class other");
		is_int(-1, c->src_space, "allocations only: source unknown");
		is_int(1, c->dst_space, "allocations only: destination = colour 1");
		is_int(512, c->bytes, "allocations only: bytes from size=");
	} else {
		int i;

		for (i = 0; i < 5; i++)
			skip("not one copy");
	}
	done(&d, &f);
}

/* Every classification rule, and bytes from the shape when the {0}
 * value has no allocation. */
static const char copies_text[] =
	"BufferAssignment:\n"
	"allocation 0: size 512, preallocated-temp:\n"
	" value: <1 copy-start{0} @0> (size=512,offset=0): f32[16]{0}\n"
	"\n"
	"Total bytes used: 512 (512B)\n"
	"\n"
	"Used values:\n"
	"<1 copy-start{0} @0>\n"
	" positions:\n"
	"  copy-start {0}\n"
	" uses:\n"
	" from instruction: %copy-start = (f32[16]{0}, f32[16]{0:S(1)}, u32[]) copy-start(%p)\n"
	"<2 copy-start.1{0} @5>\n"
	" positions:\n"
	"  copy-start.1 {0}\n"
	" uses:\n"
	" from instruction: %copy-start.1 = (f32[16]{0:S(5)}, f32[16]{0}, u32[]) copy-start(%q)\n"
	"<3 copy-start.2{0} @0>\n"
	" positions:\n"
	"  copy-start.2 {0}\n"
	" uses:\n"
	" from instruction: %copy-start.2 = (f32[16]{0}, f32[16]{0:S(5)}, u32[]) copy-start(%r)\n"
	"<4 copy-start.3{0} @1>\n"
	" positions:\n"
	"  copy-start.3 {0}\n"
	" uses:\n"
	" from instruction: %copy-start.3 = (s8[3]{0:S(1)}, s8[3]{0:S(5)}, u32[]) copy-start(%s), is_cross_program_prefetch=true\n"
	"<5 copy-start.4{0} @2>\n"
	" positions:\n"
	"  copy-start.4 {0}\n"
	" uses:\n"
	" from instruction: %copy-start.4 = (f32[2]{0:S(2)}, f32[2]{0:S(2)}, u32[]) copy-start(%t)\n";

/* Do figures a and b agree on what the parser's tallies feed? */
static int same_tallied(const struct hd_figures *a, const struct hd_figures *b)
{
	size_t i;

	if (a->n_records != b->n_records || a->value_bytes != b->value_bytes ||
	    a->n_values != b->n_values || a->copies.len != b->copies.len ||
	    memcmp(a->copies_by_class, b->copies_by_class,
		   sizeof(a->copies_by_class)) ||
	    memcmp(a->copy_bytes_by_class, b->copy_bytes_by_class,
		   sizeof(a->copy_bytes_by_class)))
		return 0;
	for (i = 0; i < a->copies.len; i++) {
		const struct hd_copy *x = copy_at(a, i), *y = copy_at(b, i);

		if (x->insn != y->insn || x->value != y->value ||
		    x->cls != y->cls || x->bytes != y->bytes ||
		    x->src_space != y->src_space || x->dst_space != y->dst_space ||
		    !hd_slice_eq(x->name, y->name))
			return 0;
	}
	return 1;
}

static void test_classes(void)
{
	static const struct {
		const char *name, *cls;
		long long src, dst, bytes;
	} want[] = {
		{ "copy-start", "eviction", 1, 0, 512 },
		{ "copy-start.1", "host-offload", 0, 5, 64 },
		{ "copy-start.2", "host-reload", 5, 0, 64 },
		{ "copy-start.3", "cross-program-prefetch", 5, 1, 3 },
		{ "copy-start.4", "other", 2, 2, 8 },
	};
	struct hd_dump d;
	struct hd_figures f;
	size_t i, n = sizeof(want) / sizeof(want[0]);

	load_text("copies", copies_text, &d, &f);
	is_int((long long)n, (long long)f.copies.len, "classes: five copies");
	for (i = 0; i < n; i++) {
		if (i >= f.copies.len) {
			skip("missing copy");
			skip("missing copy");
			skip("missing copy");
			skip("missing copy");
			skip("missing copy");
			continue;
		}
		is_string(want[i].name, copy_name(&f, i), "classes: copy %zu name", i);
		is_string(want[i].cls, hd_copy_class_name(copy_at(&f, i)->cls),
			  "classes: %s class", want[i].name);
		is_int(want[i].src, copy_at(&f, i)->src_space,
		       "classes: %s source", want[i].name);
		is_int(want[i].dst, copy_at(&f, i)->dst_space,
		       "classes: %s destination", want[i].name);
		is_int(want[i].bytes, copy_at(&f, i)->bytes,
		       "classes: %s bytes", want[i].name);
	}
	is_int(1, f.copies_by_class[HD_COPY_HOST_OFFLOAD], "classes: 1 offload");
	is_int(64, f.copy_bytes_by_class[HD_COPY_HOST_RELOAD],
	       "classes: reload bytes");
	is_int((long long)n, (long long)d.copy_starts.len,
	       "classes: five copy-starts tallied");
	{
		struct hd_figures walked;

		/* as a model built otherwise gets them (golden.c) */
		d.n_records = 0;
		d.value_bytes = 0;
		d.copy_starts.len = 0;
		hd_dump_derive_facts(&d);
		hd_figures_compute(&walked, &d);
		ok(same_tallied(&f, &walked),
		   "classes: figures from the parser's tallies = from hd_dump_derive_facts");
		hd_figures_release(&walked);
	}
	done(&d, &f);
}

/*
 * Older plain peak style: lines "NAME: B bytes" with the whole
 * instruction shape.  Ranges (own / whole bytes): a 0-2 (16/16),
 * t{} 1-1 (16/16), t{1} 1-2 (32/16), c 2-3 (8/8).  XLA's sweep
 * (starts at s, frees at e+1, starts first): 16, 48, 56, 40, 8 -> time
 * 2; naive own sizes would pick time 1 (64).  At 2: a, t{1}, c live,
 * printed as 16 + 16 + 8 = 40.
 */
static const char plain_text[] =
	"BufferAssignment:\n"
	"allocation 0: size 128, preallocated-temp:\n"
	" value: <1 a @0> (size=16,offset=0): f32[4]{0}\n"
	" value: <2 t{} @0> (size=16,offset=16): (f32[2]{0}, f32[8]{0})\n"
	" value: <3 t{1} @0> (size=32,offset=32): f32[8]{0}\n"
	" value: <4 c @0> (size=8,offset=64): f32[2]{0}\n"
	"\n"
	"Total bytes used: 128 (128B)\n"
	"\n"
	"\n"
	"HloLiveRange (max 3):\n"
	"  InstructionSequence:\n"
	"    0:a\n"
	"    1:t\n"
	"    2:c\n"
	"  BufferLiveRange:\n"
	"    a{}:0-2\n"
	"    t{}:1-1\n"
	"    t{1}:1-2\n"
	"    c{}:2-3\n"
	"  Live ranges at 2 (peak):\n"
	"    a: 16 bytes\n"
	"    t: 16 bytes\n"
	"    c: 8 bytes\n";

static void test_plain_peak(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_text("plain", plain_text, &d, &f);
	ok(f.has_stated, "plain: has a stated peak");
	is_int(2, f.stated_time, "plain: peak time");
	is_int(40, f.stated_bytes, "plain: peak bytes are the sum of the lines");
	is_int(3, f.stated_values, "plain: three lines");
	ok(f.has_recomputed, "plain: recomputed");
	is_int(2, f.recomputed_time, "plain: recomputed time is XLA's");
	is_int(40, f.recomputed_bytes, "plain: recomputed with instruction shapes");
	is_int(40, f.recomputed_at_stated, "plain: bytes at the stated time");
	ok(f.stated_agrees, "plain: agrees");
	done(&d, &f);
}

/* "Peak memory could not be determined": no stated peak, still
 * recomputed; a range whose value is unknown counts as unsized. */
static const char undetermined_text[] =
	"BufferAssignment:\n"
	"allocation 0: size 64, preallocated-temp:\n"
	" value: <1 a @0> (size=64,offset=0): f32[<=16]{0}\n"
	"\n"
	"Total bytes used: 64 (64B)\n"
	"\n"
	"\n"
	"HloLiveRange (max 2):\n"
	"  InstructionSequence:\n"
	"    0:a\n"
	"    1:b\n"
	"  BufferLiveRange:\n"
	"    a{}:0-1\n"
	"    b{}:1-2\n"
	"  Peak memory could not be determined due to unbounded dynamic shape.\n";

static void test_undetermined(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_text("undetermined", undetermined_text, &d, &f);
	is_int(0, f.has_stated, "undetermined: no stated peak");
	is_int(-1, f.stated_time, "undetermined: no peak time");
	ok(f.has_recomputed, "undetermined: recomputed");
	is_int(0, f.recomputed_time, "undetermined: first maximum at 0");
	is_int(64, f.recomputed_bytes, "undetermined: f32[<=16] is 64");
	is_int(1, f.recomputed_unsized, "undetermined: b has no size");
	is_int(0, f.stated_agrees, "undetermined: nothing to agree with");
	done(&d, &f);
}

/*
 * Own sizes that add up beyond int64 at one time, not at the peak: the
 * three elements of t are 2^62 bytes each (f32[2^60]) and live at time
 * 1, while by whole shapes (t{}'s, 3 x 8 bytes of pointers) the peak is
 * a's 4096 bytes at time 3.  The bytes at the peak are still worked out
 * (figures.c makes its second pass over the ranges when the difference
 * array of the bytes overflows).
 */
static const char huge_text[] =
	"BufferAssignment:\n"
	"allocation 0: size 8192, preallocated-temp:\n"
	" value: <1 t{} @0> (size=24,offset=0): (f32[1152921504606846976]{0}, f32[1152921504606846976]{0}, f32[1152921504606846976]{0})\n"
	" value: <2 t{0} @0> (size=8,offset=32): f32[1152921504606846976]{0}\n"
	" value: <3 t{1} @0> (size=8,offset=40): f32[1152921504606846976]{0}\n"
	" value: <4 t{2} @0> (size=8,offset=48): f32[1152921504606846976]{0}\n"
	" value: <5 a @0> (size=4096,offset=4096): f32[1024]{0}\n"
	"\n"
	"Total bytes used: 8192 (8KiB)\n"
	"\n"
	"\n"
	"HloLiveRange (max 4):\n"
	"  InstructionSequence:\n"
	"    0:p\n"
	"    1:t\n"
	"    2:q\n"
	"    3:a\n"
	"  BufferLiveRange:\n"
	"    t{0}:1-1\n"
	"    t{1}:1-1\n"
	"    t{2}:1-1\n"
	"    a{}:3-3\n";

static void test_huge_elsewhere(void)
{
	struct hd_dump d;
	struct hd_figures f;

	load_text("huge", huge_text, &d, &f);
	ok(f.has_recomputed, "huge elsewhere: recomputed");
	is_int(3, f.recomputed_time, "huge elsewhere: peak at a by whole shapes");
	is_int(4096, f.recomputed_bytes, "huge elsewhere: a's bytes at the peak");
	done(&d, &f);
}

static void test_names(void)
{
	is_string("prefetch", hd_copy_class_name(HD_COPY_PREFETCH), "name prefetch");
	is_string("eviction", hd_copy_class_name(HD_COPY_EVICTION), "name eviction");
	is_string("cross-program-prefetch",
		  hd_copy_class_name(HD_COPY_CROSS_PROGRAM_PREFETCH),
		  "name cross-program-prefetch");
	is_string("host-offload", hd_copy_class_name(HD_COPY_HOST_OFFLOAD),
		  "name host-offload");
	is_string("host-reload", hd_copy_class_name(HD_COPY_HOST_RELOAD),
		  "name host-reload");
	is_string("other", hd_copy_class_name(HD_COPY_OTHER), "name other");
}

/*
 * The 1-based numbers of the first line of path that contains needle and
 * of the first that starts with it (0 when none), read here line by line,
 * apart from the parser.
 */
static void lines_naming(const char *path, const char *needle,
			 unsigned *first, unsigned *starting)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	unsigned n = 0;

	*first = *starting = 0;
	if (!f)
		bail("cannot open %s", path);
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (!*first && strstr(buf, needle))
			*first = n;
		if (!*starting && strncmp(buf, needle, strlen(needle)) == 0)
			*starting = n;
	}
	fclose(f);
}

/*
 * Where each value was read (dump->value_lines: one entry per value) and
 * its use lines, kept only with HD_PARSE_KEEP_USES (dump->value_uses, one
 * entry per value then).  Seed 000: value 319 is first named on the
 * value line of its allocation, its record comes later, and it has the
 * one use "select_multiply_fusion, operand 0".
 */
static void test_uses(void)
{
	static const unsigned flags[2] = { 0, HD_PARSE_KEEP_USES };
	unsigned first, record;
	int k;

	lines_naming(seed_path(0), "<319 ", &first, &record);
	ok(first && record && first < record,
	   "seed 000 names value 319 at line %u, its record at %u", first,
	   record);
	for (k = 0; k < 2; k++) {
		struct hd_dump d;
		uint32_t v;

		if (hd_parse_file(&d, seed_path(0), HD_PARSE_NO_SIBLINGS | flags[k]) < 0)
			bail("cannot parse %s", seed_path(0));
		is_int((long long)d.values.len, (long long)d.value_lines.len,
		       "lines %d: one entry per value", k);
		v = hd_dump_value_by_id(&d, 319);
		ok(v != HD_NONE, "uses %d: value 319", k);
		if (v != HD_NONE && v < d.value_lines.len) {
			is_int(first, HD_VALUE_LINES(&d, v).line,
			       "lines %d: value 319 first named", k);
			is_int(record, HD_VALUE_LINES(&d, v).record_line,
			       "lines %d: value 319's record", k);
		}
		if (!k) {
			is_int(0, (long long)d.uses.len, "uses not kept by default");
			is_int(0, (long long)d.value_uses.len,
			       "no use entries by default");
		} else if (v != HD_NONE) {
			const struct hd_value_uses *vu = &HD_VALUE_USES(&d, v);

			is_int((long long)d.values.len, (long long)d.value_uses.len,
			       "kept uses: one entry per value");
			is_int(1, vu->use_count, "kept uses: value 319 has one use");
			if (vu->use_first < d.uses.len) {
				const struct hd_use *u = &HD_USE(&d, vu->use_first);

				ok(hd_slice_eq_cstr(u->name, "select_multiply_fusion"),
				   "kept use: name");
				is_int(0, u->operand, "kept use: operand");
				is_int(0, (long long)u->index.n, "kept use: no index");
			} else {
				ok(0, "kept use: in dump->uses");
			}
		}
		hd_dump_release(&d);
	}
}

/* Do figures a and b agree on the recomputed peak? */
static int same_peak(const struct hd_figures *a, const struct hd_figures *b)
{
	return a->has_recomputed == b->has_recomputed &&
		a->recomputed_time == b->recomputed_time &&
		a->recomputed_bytes == b->recomputed_bytes &&
		a->recomputed_at_stated == b->recomputed_at_stated &&
		a->recomputed_unsized == b->recomputed_unsized &&
		a->stated_agrees == b->stated_agrees;
}

/* Clears the sizes the parser kept in the value records (dump.h), as a
 * model built otherwise has them. */
static void forget_kept_sizes(struct hd_dump *d)
{
	size_t i;

	for (i = 0; i < d->values.len; i++) {
		HD_VALUE(d, i).own_kept = 0;
		HD_VALUE(d, i).whole_kept = 0;
	}
}

/*
 * The parser's tallies (dump.h: n_records, value_bytes, copy_starts)
 * give the figures hd_dump_derive_facts's (a dump built by golden.c)
 * give, and the sizes it keeps in the value records the peak a look-up
 * gives: each seed's figures with them and again without.
 */
static void test_tallies(void)
{
	int n;

	for (n = 0; n <= 4; n++) {
		struct hd_dump d;
		struct hd_figures with, without;

		load_seed(n, &d, &with);
		is_int((long long)with.n_records, (long long)d.n_records,
		       "seed %d: n_records tallied", n);
		d.n_records = 0;
		d.value_bytes = 0;
		d.copy_starts.len = 0;
		hd_dump_derive_facts(&d);
		hd_figures_compute(&without, &d);
		ok(same_tallied(&with, &without),
		   "seed %d: figures from the parser's tallies = from hd_dump_derive_facts", n);
		is_int((long long)d.n_listed, (long long)with.n_values,
		       "seed %d: n_listed = value lines", n);
		hd_figures_release(&without);
		forget_kept_sizes(&d);
		hd_figures_compute(&without, &d);
		ok(same_peak(&with, &without),
		   "seed %d: peak from kept sizes = peak from a look-up", n);
		hd_figures_release(&without);
		done(&d, &with);
	}
}

/* hd_size_keep: sizes -1 .. 0xfffffffd are kept (and come back), the
 * others are not (0). */
static void test_size_keep(void)
{
	static const long long kept[] = { -1, 0, 1, 4096, 0xfffffffdLL };
	static const long long not_kept[] = { -2, INT64_MIN, 0xfffffffeLL,
					      0xffffffffLL, INT64_MAX };
	size_t i;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		uint32_t k = hd_size_keep(kept[i]);

		ok(k != 0 && hd_size_kept(k) == kept[i], "size %lld kept", kept[i]);
	}
	for (i = 0; i < sizeof(not_kept) / sizeof(not_kept[0]); i++)
		is_int(0, hd_size_keep(not_kept[i]), "size %lld not kept",
		       not_kept[i]);
}

int main(void)
{
	plan_lazy();
	test_seed0();
	test_seed1();
	test_seed2();
	test_seed3();
	test_seed4();
	test_allocations_only();
	test_classes();
	test_plain_peak();
	test_undetermined();
	test_huge_elsewhere();
	test_names();
	test_uses();
	test_tallies();
	test_size_keep();
	return 0;
}
