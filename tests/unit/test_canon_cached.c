/*
 * test_canon_cached.c - the hashes the parser and canonical hashing keep
 * so that later phases need not read the input text again (dump.h:
 * hd_insn.name_hash, hd_alloc_value.shape_hash and bare_hash; canon.h:
 * insn_loose) are the hashes of that text.
 *
 * For every dump in tests/data and the corpus ($HD_SRCDIR, $HD_CORPUS;
 * the corpus is skipped when unset): each kept hash equals the XXH3-64
 * of its text; hd_dump_derive_facts, which fills them for a model built
 * by golden.c, gives the parser's digest and tallies again; and the
 * canonical hashes and loose keys of every value are the same with
 * either.
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
		if (c->insn_loose[HD_LOOSE_PARTS * (size_t)i] != op)
			bad(path, "opcode hash of instruction", i);
	}
	for (i = 0; i < d->alloc_values.len; i++) {
		const struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, i);

		if (av->shape_hash != hash_of(av->shape) ||
		    av->bare_hash != hash_of(hd_shape_strip_layout(av->shape)))
			bad(path, "shape hashes of value line", i);
	}
}

/* The digest and tallies of the parser (dump.h) saved, cleared and
 * derived again by hd_dump_derive_facts: the same. */
static void check_derived(const char *path, struct hd_dump *d)
{
	size_t ni = d->insns.len, na = d->alloc_values.len, nv = d->values.len, i;
	struct hd_insn *in = malloc((ni + 1) * sizeof(*in));
	struct hd_alloc_value *av = malloc((na + 1) * sizeof(*av));
	struct hd_value *val = malloc((nv + 1) * sizeof(*val));
	uint64_t n_records = d->n_records, n_listed = d->n_listed;
	uint64_t n_listed_records = d->n_listed_records;
	int64_t value_bytes = d->value_bytes;
	size_t n_copies = d->copy_starts.len;
	uint32_t *copies = malloc((n_copies + 1) * sizeof(*copies));

	if (ni)
		memcpy(in, d->insns.data, ni * sizeof(*in));
	if (na)
		memcpy(av, d->alloc_values.data, na * sizeof(*av));
	if (nv)
		memcpy(val, d->values.data, nv * sizeof(*val));
	if (n_copies)
		memcpy(copies, d->copy_starts.data, n_copies * sizeof(*copies));
	for (i = 0; i < ni; i++) {
		HD_INSN(d, i).shape_bytes = 7;
		HD_INSN(d, i).name_hash = 7;
		HD_INSN(d, i).flags = 7;
	}
	for (i = 0; i < na; i++) {
		HD_ALLOC_VALUE(d, i).shape_bytes = 7;
		HD_ALLOC_VALUE(d, i).shape_hash = HD_ALLOC_VALUE(d, i).bare_hash = 7;
	}
	for (i = 0; i < nv; i++)
		HD_VALUE(d, i).own_kept = HD_VALUE(d, i).whole_kept = 7;
	hd_dump_derive_facts(d);
	for (i = 0; i < ni; i++)
		if (HD_INSN(d, i).shape_bytes != in[i].shape_bytes ||
		    HD_INSN(d, i).name_hash != in[i].name_hash ||
		    HD_INSN(d, i).flags != in[i].flags)
			bad(path, "derived facts of instruction", (uint32_t)i);
	for (i = 0; i < na; i++)
		if (HD_ALLOC_VALUE(d, i).shape_bytes != av[i].shape_bytes ||
		    HD_ALLOC_VALUE(d, i).shape_hash != av[i].shape_hash ||
		    HD_ALLOC_VALUE(d, i).bare_hash != av[i].bare_hash)
			bad(path, "derived facts of value line", (uint32_t)i);
	for (i = 0; i < nv; i++)
		if (HD_VALUE(d, i).own_kept != val[i].own_kept ||
		    HD_VALUE(d, i).whole_kept != val[i].whole_kept)
			bad(path, "derived sizes of value", (uint32_t)i);
	if (d->n_records != n_records || d->n_listed != n_listed ||
	    d->n_listed_records != n_listed_records ||
	    d->value_bytes != value_bytes || d->copy_starts.len != n_copies ||
	    (n_copies && memcmp(d->copy_starts.data, copies,
				n_copies * sizeof(*copies)) != 0))
		bad(path, "derived tallies", 0);
	free(in);
	free(av);
	free(val);
	free(copies);
}

static void check_dump(const char *path)
{
	struct hd_dump d;
	struct hd_canon kept, text;
	uint64_t a[HD_LOOSE_COUNT], b[HD_LOOSE_COUNT];
	uint64_t (*lk)[HD_LOOSE_COUNT];
	uint32_t v;

	if (hd_parse_file(&d, path, HD_PARSE_NO_SIBLINGS |
					    HD_PARSE_ALLOW_INCOMPLETE)) {
		hd_dump_release(&d);
		return;
	}
	hd_canon_compute(&kept, &d);
	check_kept(path, &d, &kept);
	/* the loose keys with the parser's digest, then with the derived */
	lk = malloc(((size_t)kept.n_values + 1) * sizeof(*lk));
	for (v = 0; v < kept.n_values; v++)
		hd_canon_loose(&kept, &d, v, lk[v], NULL);
	check_derived(path, &d);
	hd_canon_compute(&text, &d);
	for (v = 0; v < kept.n_values; v++) {
		if (kept.value_canon[v] != text.value_canon[v] ||
		    kept.value_struct[v] != text.value_struct[v])
			bad(path, "value hash of value", v);
		memcpy(a, lk[v], sizeof(a));
		hd_canon_loose(&text, &d, v, b, NULL);
		if (memcmp(a, b, sizeof(a)) != 0)
			bad(path, "loose keys of value", v);
		n_values++;
	}
	n_dumps++;
	free(lk);
	hd_canon_release(&kept);
	hd_canon_release(&text);
	hd_dump_release(&d);
}

/* ------------------------------------------------------------------ */
/* The name parts of the loose keys, against their definition           */

/* Is t[0, n) a hex hash: 6 or more of [0-9a-f], a digit among them? */
static int ref_hex(const char *t, size_t n)
{
	size_t i;
	int digit = 0;

	if (n < 6)
		return 0;
	for (i = 0; i < n; i++) {
		if (t[i] >= '0' && t[i] <= '9')
			digit = 1;
		else if (t[i] < 'a' || t[i] > 'f')
			return 0;
	}
	return digit;
}

/* The stem of a stripped name: its "_<hex hash>" parts dropped (parts
 * run from a '_' or '.' to the next; those before the first '_' are
 * kept). */
static size_t ref_stem(char *out, const char *s, size_t n)
{
	size_t i = 0, o = 0, j;

	while (i < n && s[i] != '_')
		out[o++] = s[i++];
	while (i < n) {
		for (j = i + 1; j < n && s[j] != '_' && s[j] != '.'; j++)
			;
		if (!(s[i] == '_' && ref_hex(s + i + 1, j - i - 1))) {
			memcpy(out + o, s + i, j - i);
			o += j - i;
		}
		i = j;
	}
	return o;
}

#define N_NAMED 1500

/*
 * Values named by random pieces (digits, hex runs, '_', '.', GPU
 * constants, 1 to 60 bytes): their NAMED key is the shape key mixed with the hash
 * of the stripped name, and their STEM key the opcode part mixed with
 * the hash of its stem, then with the index's.
 */
static void test_loose_names(void)
{
	static const char *const first[] = {
		"fusion", "a", "constant", "x_", "Arg", "splash_mha_fwd",
	};
	static const char *const more[] = {
		"_", ".", "0", "7", "12", "a", "f", "g", "e9701070", "abcdef",
		"abcde1", "_1", "-", "x", "_spmd", "9f", "constant", "A",
		"ab12", "5e", "1", "_c0ffee", "_0a1b2",
	};
	struct tap_text t = { NULL, 0, 0 };
	struct tap_parsed pt;
	struct hd_canon c;
	char (*names)[64] = calloc(N_NAMED, 64);
	char line[512], out[64], stem[64];
	uint64_t keys[HD_LOOSE_COUNT], empty = XXH3_64bits("{}", 2);
	unsigned i, n = 0, wrong = 0, tries;
	uint32_t rng = 7;

	if (!names)
		bail("out of memory");
	for (tries = 0; n < N_NAMED && tries < 100 * N_NAMED; tries++) {
		size_t len, k;
		unsigned parts;

		rng = rng * 1103515245u + 12345u;
		strcpy(names[n], first[(rng >> 8) % 6]);
		parts = (rng >> 16) % 12;
		while (parts--) {
			rng = rng * 1103515245u + 12345u;
			if (strlen(names[n]) + 8 >= 60)
				break;
			strcat(names[n], more[(rng >> 8) % 23]);
		}
		len = strlen(names[n]);
		for (k = 0; k < n && strcmp(names[k], names[n]) != 0; k++)
			;
		if (k == n && len)
			n++;
	}
	tap_text_put(&t, "BufferAssignment:\n");
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line),
			 "allocation %u: size 16, preallocated-temp:\n"
			 " value: <%u %s @0> (size=16,offset=0): f32[4]{0}\n",
			 i, i, names[i]);
		tap_text_put(&t, line);
	}
	tap_text_put(&t, "\nTotal bytes used: 16 (16B)\n\nUsed values:\n");
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line),
			 "<%u %s @0>\n positions:\n  %s\n uses:\n"
			 " from instruction: %%%s = f32[4]{0} fusion(%%p.1), "
			 "kind=kLoop\n", i, names[i], names[i], names[i]);
		tap_text_put(&t, line);
	}
	tap_parse_exact(&pt, "<made up>", t.p, t.n,
			HD_PARSE_NO_SIBLINGS | HD_PARSE_CANON);
	if (pt.rc)
		bail("made-up dump does not parse");
	hd_canon_compute(&c, &pt.d);
	if (c.n_values != n)
		bail("made-up dump: %u values of %u", c.n_values, n);
	for (i = 0; i < n; i++) {
		struct hd_slice name = HD_VALUE(&pt.d, i).name;
		uint32_t ins = c.value_insn[i];
		size_t sn, tn;

		hd_canon_loose(&c, &pt.d, i, keys, NULL);
		sn = hd_canon_name(out, name);
		tn = ref_stem(stem, out, sn);
		if (ins == HD_NONE ||
		    keys[HD_LOOSE_NAMED] !=
			    hd_canon_mix(keys[HD_LOOSE_SHAPE],
					 XXH3_64bits(out, sn)) ||
		    keys[HD_LOOSE_STEM] !=
			    hd_canon_mix(hd_canon_mix(c.insn_loose[HD_LOOSE_PARTS * ins],
						      XXH3_64bits(stem, tn)),
					 empty))
			if (wrong++ < 5)
				diag("loose keys of %.*s differ", (int)name.n,
				     name.p);
	}
	ok(n == N_NAMED && wrong == 0,
	   "loose name and stem keys of %u made-up names as defined", n);
	hd_canon_release(&c);
	tap_parsed_release(&pt);
	free(t.p);
	free(names);
}

int main(void)
{
	unsigned before;

	plan(3);
	test_loose_names();
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
