/*
 * test_canon_cached.c - the hashes the parser and canonical hashing keep
 * so that later phases need not read the input text again (dump.h:
 * hd_insn.name_hash, hd_alloc_value.shape_hash and bare_hash; canon.h:
 * insn_loose) are the hashes of that text.
 *
 * For every dump in tests/data and the corpus ($HD_SRCDIR, $HD_CORPUS;
 * the corpus is skipped when unset): each kept hash equals the XXH3-64
 * of its text, and the canonical hashes and loose keys of every value
 * are the same with the kept hashes as with d->shape_facts cleared
 * (then canon.c hashes the text itself, as for a model built by
 * golden.c; with them it takes the hash of a 2-byte index "{}" as a
 * constant instead of reading it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/parse.h"
#include "hlodiff/shape.h"
#include "tap/dumps.h"
#include "tap/tap.h"

static unsigned n_dumps, n_values, n_bad;

static uint64_t hash_of(struct hd_slice s)
{
	return XXH3_64bits(s.n ? s.p : "", s.n);
}

static void bad(const char *path, const char *what, uint32_t i)
{
	if (n_bad++ < 5)
		diag("%s: %s %u differs", path, what, i);
}

/* The kept hashes against the text they stand for. */
static void check_kept(const char *path, const struct hd_dump *d,
		       const struct hd_canon *c)
{
	uint32_t i;

	for (i = 0; i < d->insns.len; i++) {
		const struct hd_insn *in = &HD_INSN(d, i);
		uint64_t op = hash_of(in->opcode);

		if (in->name_hash != hash_of(in->name))
			bad(path, "name_hash of instruction", i);
		if (c->insn_loose[2 * (size_t)i] != op)
			bad(path, "opcode hash of instruction", i);
	}
	for (i = 0; i < d->alloc_values.len; i++) {
		const struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, i);

		if (av->shape_hash != hash_of(av->shape) ||
		    av->bare_hash != hash_of(hd_shape_strip_layout(av->shape)))
			bad(path, "shape hashes of value line", i);
	}
}

static void check_dump(const char *path)
{
	struct hd_dump d;
	struct hd_canon kept, text;
	uint64_t a[HD_LOOSE_COUNT], b[HD_LOOSE_COUNT];
	uint32_t v;

	if (hd_parse_file(&d, path, HD_PARSE_NO_SIBLINGS |
					    HD_PARSE_ALLOW_INCOMPLETE)) {
		hd_dump_release(&d);
		return;
	}
	if (!d.shape_facts) {
		hd_dump_release(&d);
		return;
	}
	hd_canon_compute(&kept, &d);
	check_kept(path, &d, &kept);
	d.shape_facts = 0;
	hd_canon_compute(&text, &d);
	for (v = 0; v < kept.n_values; v++) {
		if (kept.value_canon[v] != text.value_canon[v] ||
		    kept.value_struct[v] != text.value_struct[v])
			bad(path, "value hash of value", v);
		d.shape_facts = 1;
		hd_canon_loose(&kept, &d, v, a, NULL);
		d.shape_facts = 0;
		hd_canon_loose(&text, &d, v, b, NULL);
		if (memcmp(a, b, sizeof(a)) != 0)
			bad(path, "loose keys of value", v);
		n_values++;
	}
	n_dumps++;
	hd_canon_release(&kept);
	hd_canon_release(&text);
	hd_dump_release(&d);
}

int main(void)
{
	unsigned before;

	plan(2);
	tap_each_test_dump(check_dump);
	ok(n_dumps > 0 && n_bad == 0,
	   "tests/data: %u dumps, %u values: kept hashes are the text's",
	   n_dumps, n_values);
	before = n_dumps;
	if (tap_each_corpus_dump(check_dump) < 0) {
		skip("HD_CORPUS not set");
		return 0;
	}
	ok(n_dumps > before && n_bad == 0,
	   "corpus: %u dumps, %u values in all: kept hashes are the text's",
	   n_dumps - before, n_values);
	return 0;
}
