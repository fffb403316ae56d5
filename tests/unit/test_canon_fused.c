/*
 * test_canon_fused.c - canonical hashing done while parsing
 * (HD_PARSE_CANON, canon.h: hd_canon_pre) gives exactly what
 * hd_canon_compute gives from the instruction texts.
 *
 * For every dump in tests/data and the corpus ($HD_SRCDIR, $HD_CORPUS;
 * the corpus is skipped when unset), parsed with and without the flag:
 * the instructions' canonical and structural hashes, their loose parts,
 * the values' hashes, defining instructions and loose keys, and the
 * count of cyclic instructions are equal; each canonical hash is the
 * XXH3-64 of hd_canon_insn_text; the fused computation read no
 * instruction text (n_walked 0) and a second one of the same dump reads
 * them all and still agrees.  Then small made-up dumps whose one long
 * operand list is past the records' budget (from the start, and found
 * in the middle of the list), with operands that resolve to an
 * instruction, to a position and to nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/golden.h"
#include "hlodiff/load.h"
#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

static unsigned n_dumps, n_insns, n_values, n_bad;

static void bad(const char *name, const char *what, uint32_t i)
{
	if (n_bad++ < 5)
		diag("%s: %s %u differs", name, what, i);
}

/* a (from the text) against b (fused) for dump d. */
static void compare(const char *name, const struct hd_dump *d,
		    const struct hd_canon *a, const struct hd_canon *b)
{
	uint64_t ka[HD_LOOSE_COUNT], kb[HD_LOOSE_COUNT];
	char *buf = NULL;
	size_t cap = 0;
	uint32_t i;

	if (a->n_insns != b->n_insns || a->n_values != b->n_values ||
	    a->n_cyclic != b->n_cyclic) {
		bad(name, "counts of dump", 0);
		return;
	}
	for (i = 0; i < a->n_insns; i++) {
		size_t n = hd_canon_insn_text(&HD_INSN(d, i), &buf, &cap);

		if (a->insn_canon[i] != b->insn_canon[i] ||
		    b->insn_canon[i] != XXH3_64bits(buf ? buf : "", n))
			bad(name, "canonical hash of instruction", i);
		if (a->insn_struct[i] != b->insn_struct[i])
			bad(name, "structural hash of instruction", i);
		if (memcmp(&a->insn_loose[HD_LOOSE_PARTS * (size_t)i],
			   &b->insn_loose[HD_LOOSE_PARTS * (size_t)i],
			   HD_LOOSE_PARTS * sizeof(uint64_t)))
			bad(name, "loose parts of instruction", i);
		n_insns++;
	}
	for (i = 0; i < a->n_values; i++) {
		if (a->value_canon[i] != b->value_canon[i] ||
		    a->value_struct[i] != b->value_struct[i] ||
		    a->value_insn[i] != b->value_insn[i])
			bad(name, "hashes of value", i);
		hd_canon_loose(a, d, i, ka, NULL);
		hd_canon_loose(b, d, i, kb, NULL);
		if (memcmp(ka, kb, sizeof(ka)) != 0)
			bad(name, "loose keys of value", i);
		n_values++;
	}
	free(buf);
}

/*
 * Parses name (a file, or text when given) with and without the flag
 * and compares; the fused computation must have read walked
 * instructions' texts (-1: any number).  Returns 0, -1 if either parse
 * failed.
 */
static int check_one(const char *name, const char *text, long walked)
{
	/* a text is parsed from copies of exactly its bytes: the pre-walk's
	 * 16- and 32-byte loads must stay inside them (ASan) */
	struct tap_parsed pt = { .copy = NULL }, ft = { .copy = NULL };
	struct hd_dump *plain = &pt.d, *fused = &ft.d;
	struct hd_canon a, b, again;
	unsigned flags = HD_PARSE_NO_SIBLINGS | HD_PARSE_ALLOW_INCOMPLETE;
	int rc;

	if (text) {
		tap_parse_exact(&pt, name, text, strlen(text), flags);
		tap_parse_exact(&ft, name, text, strlen(text),
				flags | HD_PARSE_CANON);
		rc = pt.rc | ft.rc;
	} else {
		rc = hd_parse_file(plain, name, flags) |
		     hd_load_dump(fused, name, flags | HD_PARSE_CANON);
	}
	if (rc) {
		tap_parsed_release(&pt);
		tap_parsed_release(&ft);
		return -1;
	}
	if (plain->canon_pre || !fused->canon_pre)
		bad(name, "parse keeps hashes only with the flag, dump", 0);
	hd_canon_compute(&a, plain);
	hd_canon_compute(&b, fused);
	if (a.n_walked != a.n_insns)
		bad(name, "walked count without the flag, dump", 0);
	if (fused->insns.len && walked >= 0 && b.n_walked != (uint32_t)walked) {
		diag("%s: read %u instruction texts, wanted %ld", name,
		     b.n_walked, walked);
		n_bad++;
	}
	compare(name, plain, &a, &b);
	/* taken once: a second computation reads the texts */
	hd_canon_compute(&again, fused);
	if (again.n_walked != again.n_insns)
		bad(name, "walked count of the second computation, dump", 0);
	compare(name, fused, &a, &again);
	n_dumps++;
	hd_canon_release(&a);
	hd_canon_release(&b);
	hd_canon_release(&again);
	tap_parsed_release(&pt);
	tap_parsed_release(&ft);
	return 0;
}

static void check_dump(const char *path)
{
	(void)check_one(path, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* Made-up dumps                                                        */

/*
 * A dump of three values: big.1, a concatenate of n_ops operands
 * "%p.K" (p.2 has a record, gte.5 is a position of p.2's value, the
 * others resolve to nothing) or, with short, "%a" / "%gte.5"; p.2; and
 * pad.3, whose metadata is pad bytes long (which sets the budget).
 */
static char *made_up(unsigned n_ops, int short_names, size_t pad)
{
	struct tap_text t = { NULL, 0, 0 };
	char num[64];
	unsigned k;

	tap_text_put(&t, "BufferAssignment:\n"
		"allocation 0: size 16, preallocated-temp:\n"
		" value: <0 big.1 @0> (size=16,offset=0): f32[4]{0}\n"
		"allocation 1: size 16, preallocated-temp:\n"
		" value: <1 p.2 @0> (size=16,offset=0): f32[4]{0}\n"
		"allocation 2: size 16, preallocated-temp:\n"
		" value: <2 pad.3 @0> (size=16,offset=0): f32[4]{0}\n"
		"\nTotal bytes used: 48 (48B)\n\nUsed values:\n"
		"<0 big.1 @0>\n positions:\n  big.1\n uses:\n"
		" from instruction: %big.1 = f32[4]{0} concatenate(");
	for (k = 0; k < n_ops; k++) {
		if (k)
			tap_text_put(&t, ", ");
		if (k % 7 == 3)
			tap_text_put(&t, "%gte.5");
		else if (short_names)
			tap_text_put(&t, k % 5 == 1 ? "%p.2" : "%a");
		else {
			snprintf(num, sizeof(num), "%%p.%u", k);
			tap_text_put(&t, num);
		}
	}
	tap_text_put(&t, "), dimensions={0}\n"
		"<1 p.2 @0>\n positions:\n  p.2\n  gte.5\n uses:\n"
		" from instruction: %p.2 = f32[4]{0} parameter(0)\n"
		"<2 pad.3 @0>\n positions:\n  pad.3\n uses:\n"
		" from instruction: %pad.3 = f32[4]{0} negate(%p.2), "
		"metadata={op_name=\"");
	for (k = 0; k < pad; k++)
		tap_text_put(&t, "x");
	tap_text_put(&t, "\"}\n");
	return t.p;
}

/*
 * A dump of values each defined by its own custom-call whose
 * backend_config is pad bytes long, for every pad in pads: canonical
 * texts on both sides of XXH3's 240-byte and 1 KiB block lengths (and
 * of the 8 KiB sink, hashed in parts), where canon.c may hash with
 * other vector widths than the library's.
 */
static char *made_up_long(const size_t *pads, unsigned n)
{
	struct tap_text t = { NULL, 0, 0 };
	char line[256];
	unsigned i;
	size_t k;

	tap_text_temps(&t, n);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line),
			 "<%u v.%u @0>\n positions:\n  v.%u\n uses:\n"
			 " from instruction: %%v.%u = f32[4]{0} custom-call(), "
			 "custom_call_target=\"t\", backend_config={\"k\":\"",
			 i, i, i, i);
		tap_text_put(&t, line);
		for (k = 0; k < pads[i]; k++)
			tap_text_put(&t, k % 61 == 60 ? "," : "y");
		tap_text_put(&t, "\"}\n");
	}
	return t.p;
}

static void test_made_up_long(void)
{
	size_t pads[800];
	unsigned n = 0, k;
	char *s;

	for (k = 0; k < 700; k++)
		pads[n++] = 150 + 3 * (size_t)k;
	for (k = 0; k < 60; k++)
		pads[n++] = 8100 + (size_t)k * 3;
	s = made_up_long(pads, n);
	ok(check_one("<long texts>", s, 0) == 0 && n_bad == 0,
	   "made-up dump: canonical texts of 200 to 8.3K bytes hash as "
	   "XXH3-64 of the text");
	free(s);
}

static void test_made_up(void)
{
	char *s;
	unsigned before = n_dumps, bad_before = n_bad;

	/* the operand list is most of the input: left to hd_canon_compute
	 * from the start */
	s = made_up(4000, 0, 100);
	if (check_one("<long list>", s, 1))
		bad("<long list>", "parse", 0);
	free(s);
	/* within the budget by its bytes, past it by its names: found
	 * in the middle of the list */
	s = made_up(1000, 1, 64 << 10);
	if (check_one("<many short names>", s, 1))
		bad("<many short names>", "parse", 0);
	free(s);
	/* within the budget: nothing read again, the names that resolve
	 * to nothing included */
	s = made_up(40, 0, 64 << 10);
	if (check_one("<short list>", s, 0))
		bad("<short list>", "parse", 0);
	free(s);
	ok(n_dumps == before + 3 && n_bad == bad_before,
	   "made-up dumps: operand lists past the budget read again, the "
	   "same hashes");
}

int main(void)
{
	unsigned before;

	plan(4);
	test_made_up();
	test_made_up_long();
	tap_each_test_dump(check_dump);
	ok(n_dumps > 3 && n_bad == 0,
	   "tests/data: %u dumps, %u instructions, %u values: fused hashes "
	   "as from the text", n_dumps, n_insns, n_values);
	before = n_dumps;
	if (tap_each_corpus_dump(check_dump) < 0) {
		skip("HD_CORPUS not set");
		return 0;
	}
	ok(n_dumps > before && n_bad == 0,
	   "corpus: %u dumps, %u instructions, %u values in all: fused "
	   "hashes as from the text", n_dumps - before, n_insns, n_values);
	return 0;
}
