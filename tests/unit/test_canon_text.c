/*
 * test_canon_text.c - the canonical text of instructions (canon.h,
 * hd_canon_insn_text and hd_canon_name) against a plain byte-by-byte
 * reference: the algorithm canon.c had before its block scanning (SSE2
 * masks, whole-run copies, name fast paths), kept here as the
 * definition.
 *
 * Texts are random mixes of the bytes and pieces that matter (%names
 * with and without id parts, GPU constants, strings with escapes, JSON
 * id keys, brackets, ", ", comments, metadata={...}) at every length
 * around the 16- and 32-byte blocks.  Each field lives in its own
 * allocation of exactly its size, so a read past a slice is caught by
 * the sanitizer build (make check-san).  Then every instruction of the
 * dumps in tests/data and the corpus ($HD_SRCDIR, $HD_CORPUS; the corpus
 * is skipped when unset): its text equals the reference and its
 * canonical hash is the XXH3-64 of that text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

/* ------------------------------------------------------------------ */
/* The reference                                                        */

struct rbuf {
	char *p;
	size_t n, cap;
};

static void radd(struct rbuf *b, const char *s, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			bail("out of memory");
	}
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void raddc(struct rbuf *b, char c)
{
	radd(b, &c, 1);
}

static int r_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t r_constant_prefix(const char *p, size_t n)
{
	static const char word[] = "constant";
	size_t w = sizeof(word) - 1, i;

	if (n <= w + 1 || memcmp(p, word, w) != 0 || p[w] != '_')
		return 0;
	i = w;
	while (i < n && p[i] == '_') {
		size_t j = i + 1;

		while (j < n && r_digit(p[j]))
			j++;
		if (j == i + 1)
			return 0;
		i = j;
	}
	if (i < n && p[i] != '.')
		return 0;
	return i;
}

static void r_name(struct rbuf *b, const char *p, size_t n)
{
	size_t i = 0, part;

	if (n == 0)
		return;
	part = r_constant_prefix(p, n);
	if (part) {
		radd(b, "constant", 8);
		i = part;
	} else {
		while (i < n && p[i] != '.')
			raddc(b, p[i++]);
	}
	while (i < n) {
		size_t start = i + 1, j = start;

		while (j < n && r_digit(p[j]))
			j++;
		if (j > start && (j == n || p[j] == '.')) {
			i = j;
			continue;
		}
		raddc(b, '.');
		if (j > start && p[j] == '_')
			start = j;
		for (i = start; i < n && p[i] != '.'; i++)
			raddc(b, p[i]);
	}
}

static size_t r_skip_string(const char *s, size_t n, size_t open)
{
	size_t i;

	for (i = open + 1; i < n; i++) {
		size_t bs = 0;

		if (s[i] != '"')
			continue;
		while (i - bs > open + 1 && s[i - bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			return i + 1;
	}
	return n;
}

static int r_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       r_digit(c) || c == '_' || c == '.' || c == '-';
}

static size_t r_name_span(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && r_name_char(s[i]))
		i++;
	return i;
}

static void r_operands(struct rbuf *b, const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (s[i] == '"') {
			j = r_skip_string(s, n, i);
			radd(b, s + i, j - i);
			i = j;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			for (j = i + 2; j + 1 < n; j++)
				if (s[j] == '*' && s[j + 1] == '/')
					break;
			i = j + 1 < n ? j + 2 : n;
		} else if (s[i] == '%') {
			j = r_name_span(s + i + 1, n - i - 1);
			raddc(b, '%');
			r_name(b, s + i + 1, j);
			i += 1 + j;
		} else {
			raddc(b, s[i++]);
		}
	}
}

static int r_id_key(const char *s, size_t n)
{
	static const char *const keys[] = {
		"\"operation_queue_id\"", "\"wait_on_operation_queues\"",
		"\"fusion_id\"",
	};
	size_t k;

	for (k = 0; k < 3; k++)
		if (strlen(keys[k]) == n && memcmp(keys[k], s, n) == 0)
			return 1;
	return 0;
}

static size_t r_json_value(const char *s, size_t n, size_t i)
{
	int depth = 0;

	while (i < n && s[i] == ' ')
		i++;
	while (i < n) {
		char c = s[i];

		if (c == '"') {
			i = r_skip_string(s, n, i);
			if (depth == 0)
				return i;
			continue;
		}
		if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (depth == 0)
				return i;
			if (--depth == 0)
				return i + 1;
		} else if (c == ',' && depth == 0) {
			return i;
		}
		i++;
	}
	return n;
}

enum { R_COPY, R_DROP, R_KEY, R_BACKEND };

static int r_key_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static size_t r_walk(struct rbuf *b, const char *s, size_t n, size_t i,
		     int mode)
{
	int depth = 0, keep = mode != R_DROP;

	while (i < n) {
		char c = s[i];
		size_t j;

		if (c == '"') {
			j = r_skip_string(s, n, i);
			if (keep)
				radd(b, s + i, j - i);
			if (mode == R_BACKEND && j < n && s[j] == ':' &&
			    r_id_key(s + i, j - i)) {
				raddc(b, ':');
				j = r_json_value(s, n, j + 1);
			}
			i = j;
			continue;
		}
		if (c == ',' && depth == 0 && i + 1 < n && s[i + 1] == ' ')
			break;
		if (c == '%' && mode == R_COPY) {
			j = r_name_span(s + i + 1, n - i - 1);
			raddc(b, '%');
			r_name(b, s + i + 1, j);
			i += 1 + j;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		if (keep)
			raddc(b, c);
		i++;
	}
	return i < n ? i : n;
}

static size_t r_metadata_end(const struct hd_insn *insn, const char *s,
			     size_t n, size_t k)
{
	struct hd_slice meta = hd_insn_metadata(insn);
	size_t end;

	if (!meta.p || meta.p != s + k + 2 || s[k + 1] != '{')
		return 0;
	end = k + 2 + meta.n;
	if (end >= n || s[end] != '}')
		return 0;
	end++;
	return end == n || (end + 1 < n && s[end] == ',') ? end : 0;
}

static void r_attrs(struct rbuf *b, const struct hd_insn *insn)
{
	const char *s = insn->attrs.p;
	size_t n = insn->attrs.n, i = 0;

	while (i < n) {
		size_t k = i, skip = 0;
		int mode;

		while (k < n && s[k] != '=')
			k++;
		mode = r_key_is(s + i, k - i, "metadata") ||
		       r_key_is(s + i, k - i, "control-predecessors") ? R_DROP :
		       r_key_is(s + i, k - i, "channel_id") ? R_KEY :
		       r_key_is(s + i, k - i, "backend_config") ? R_BACKEND :
		       R_COPY;
		if (mode == R_DROP && k < n)
			skip = r_metadata_end(insn, s, n, k);
		if (skip) {
			i = skip < n ? skip + 2 : n;
			continue;
		}
		if (mode != R_DROP) {
			radd(b, s + i, k - i);
			raddc(b, '=');
		}
		i = r_walk(b, s, n, k < n ? k + 1 : n,
			   mode == R_KEY ? R_DROP : mode);
		if (mode != R_DROP)
			raddc(b, '\0');
		if (i < n)
			i += 2;
	}
}

static void r_insn_text(struct rbuf *b, const struct hd_insn *insn)
{
	b->n = 0;
	r_name(b, insn->name.p, insn->name.n);
	raddc(b, '\0');
	radd(b, insn->opcode.p, insn->opcode.n);
	raddc(b, '\0');
	radd(b, insn->shape.p, insn->shape.n);
	raddc(b, '\0');
	r_operands(b, insn->operands.p, insn->operands.n);
	raddc(b, '\0');
	r_attrs(b, insn);
}

/* ------------------------------------------------------------------ */
/* Random texts                                                         */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* Pieces the walks treat specially, and plain filler. */
static const char *const pieces[] = {
	"%fusion.21", "%Arg_842.843", "%p.4.lhs.clone", "%constant_99_0",
	"%constant_1_2.7", "%region_0.5_spmd", "%get-tuple-element.784",
	"%fused_computation.2707", "%a", "%x.", "%.5", "%constant.12",
	"%convolution_fusion_with_a_long_name_over_32.1847",
	"%name_with_no_digits_but_long_enough_x",
	"\"operation_queue_id\":\"3\"", "\"wait_on_operation_queues\":[1,2]",
	"\"fusion_id\":{\"a\":[1]}", "\"fusion_id\": 7", "\"flag_configs\":[]",
	"\"used_scoped_memory_configs\":[{\"memory_space\":\"1\"}]",
	"\"a\\\"b\"", "\"\\\\\"", "\"x\\\\\\\"y\"", "\"", "\\", "/*index=5*/",
	"/*", "*/", "/", ", ", ",", " ", "(", ")", "[", "]", "{", "}", ":",
	"=", "%", "0", "12", ".", "_", "-", "kLoop", "abcdefghijklmnop",
	"0123456789", "xyz",
};

#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

static size_t gen(char *out, size_t cap)
{
	size_t n = 0, want = rnd(4) ? rnd(48) : rnd(200);

	while (n < want) {
		const char *p = pieces[rnd(NPIECES)];
		size_t k = strlen(p);

		if (n + k > cap)
			break;
		memcpy(out + n, p, k);
		n += k;
	}
	return n;
}

/* A copy of s in an allocation of exactly n bytes (1 when empty). */
static char *exact(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);

	if (!p)
		bail("out of memory");
	memcpy(p, s, n);
	return p;
}

/* Random attributes: "key=value, ..." with now and then a metadata={...}
 * whose inside is the insn's metadata slice. */
static size_t gen_attrs(char *out, size_t cap, size_t *meta_at,
			size_t *meta_n)
{
	static const char *const keys[] = {
		"kind", "calls", "backend_config", "channel_id", "metadata",
		"control-predecessors", "sharding", "to_apply",
	};
	size_t n = 0, items = rnd(5), k;

	*meta_at = *meta_n = 0;
	for (k = 0; k < items && n + 400 < cap; k++) {
		const char *key = keys[rnd(8)];

		if (k)
			n += (size_t)sprintf(out + n, ", ");
		n += (size_t)sprintf(out + n, "%s=", key);
		if (!strcmp(key, "metadata") && rnd(2) && !*meta_at) {
			size_t m;

			out[n++] = '{';
			*meta_at = n;
			m = (size_t)sprintf(out + n, "op_name=\"a/b\" source_line=%u",
					    rnd(999));
			n += m;
			*meta_n = m;
			out[n++] = '}';
			continue;
		}
		n += gen(out + n, 300);
	}
	if (rnd(8) == 0)
		n += gen(out + n, 300);  /* a tail that breaks the syntax */
	return n;
}

struct fields {
	char *name, *opcode, *shape, *operands, *attrs;
};

static void check_one(struct hd_insn *in, struct rbuf *ref, char **buf,
		      size_t *cap, unsigned *bad, const char *what)
{
	size_t n;

	r_insn_text(ref, in);
	n = hd_canon_insn_text(in, buf, cap);
	if (n != ref->n || (n && memcmp(*buf, ref->p, n) != 0)) {
		if ((*bad)++ < 5)
			diag("%s: differs for operands [%.*s] attrs [%.*s]", what,
			     (int)in->operands.n, in->operands.p,
			     (int)in->attrs.n, in->attrs.p);
	}
}

static void test_random_texts(void)
{
	static char tmp[4096], atmp[4096];
	struct rbuf ref = { NULL, 0, 0 };
	char *buf = NULL;
	size_t cap = 0;
	unsigned bad = 0, round;

	for (round = 0; round < 40000; round++) {
		struct hd_insn in;
		struct fields f;
		size_t n, an, meta_at, meta_n;

		memset(&in, 0, sizeof(in));
		/* the name: one of the %name pieces without its '%', maybe
		 * cut short */
		n = strlen(pieces[round % 14]) - 1;
		n -= n ? rnd(n < 3 ? (uint32_t)n : 3) : 0;
		f.name = exact(pieces[round % 14] + 1, n);
		in.name = hd_slice_make(f.name, n);
		n = gen(tmp, sizeof(tmp));
		f.opcode = exact("fusion", 6);
		in.opcode = hd_slice_make(f.opcode, 6);
		f.shape = exact("f32[8]{0}", 9);
		in.shape = hd_slice_make(f.shape, 9);
		f.operands = exact(tmp, n);
		in.operands = hd_slice_make(f.operands, n);
		an = gen_attrs(atmp, sizeof(atmp), &meta_at, &meta_n);
		f.attrs = exact(atmp, an);
		in.attrs = hd_slice_make(f.attrs, an);
		/* no text here, so no metadata slice either (hd_insn keeps
		 * it as a place in the text): the round "in text" below
		 * has one */
		check_one(&in, &ref, &buf, &cap, &bad, "random");
		/* the operand text alone as attributes, too */
		in.attrs = in.operands;
		check_one(&in, &ref, &buf, &cap, &bad, "operands as attrs");
		free(f.name);
		free(f.opcode);
		free(f.shape);
		free(f.operands);
		free(f.attrs);
	}
	is_int(0, bad, "canonical texts equal the reference on random texts");
	free(ref.p);
	free(buf);
}

/*
 * As the parser makes them: every field a slice of one text
 * "%NAME = SHAPE OPCODE(OPERANDS), ATTRS" in an allocation of exactly
 * its size (the name fast paths read 32 bytes around a name anywhere in
 * the text, never past it), the name now and then a copy outside the
 * text (the parser's value-record copy), once in a while with other
 * bytes than the text's; now and then a name byte, not ')', follows the
 * operand list.
 */
static void test_in_text(void)
{
	static char ops[4096], atmp[4096], line[9000];
	struct rbuf ref = { NULL, 0, 0 };
	char *buf = NULL;
	size_t cap = 0;
	unsigned bad = 0, round;

	for (round = 0; round < 40000; round++) {
		struct hd_insn in;
		const char *piece = pieces[round % 14] + 1;
		size_t nn = strlen(piece), on, an, meta_at, meta_n, n = 0;
		size_t name_at, ops_at, attrs_at;
		char *t, *copy = NULL;

		nn -= nn ? rnd(nn < 3 ? (uint32_t)nn : 3) : 0;
		on = gen(ops, rnd(3) ? 40 : sizeof(ops));
		an = rnd(3) ? gen_attrs(atmp, sizeof(atmp), &meta_at, &meta_n) : 0;
		if (!an)
			meta_at = meta_n = 0;
		if (rnd(2))
			line[n++] = '%';
		name_at = n;
		memcpy(line + n, piece, nn);
		n += nn;
		n += (size_t)sprintf(line + n, " = f32[8]{0} fusion(");
		ops_at = n;
		memcpy(line + n, ops, on);
		n += on;
		/* the slices end where they say, even before name bytes */
		line[n++] = rnd(4) ? ')' : 'x';
		attrs_at = n + 2;
		if (an) {
			memcpy(line + n, ", ", 2);
			memcpy(line + n + 2, atmp, an);
			n += 2 + an;
		}
		t = exact(line, n);
		memset(&in, 0, sizeof(in));
		in.text = hd_slice_make(t, n);
		in.name = hd_slice_make(t + name_at, nn);
		if (rnd(3) == 0) {
			copy = exact(piece, nn);
			if (nn && rnd(8) == 0)
				copy[rnd((uint32_t)nn)] ^= 1;
			in.name = hd_slice_make(copy, nn);
		}
		in.shape = hd_slice_make(t + name_at + nn + 3, 9);
		in.opcode = hd_slice_make(t + ops_at - 7, 6);
		in.operands = hd_slice_make(t + ops_at, on);
		if (an)
			in.attrs = hd_slice_make(t + attrs_at, an);
		if (meta_at) {
			in.meta_at = (uint32_t)(attrs_at + meta_at);
			in.meta_n = (uint32_t)meta_n;
		}
		check_one(&in, &ref, &buf, &cap, &bad, "in text");
		free(t);
		free(copy);
	}
	is_int(0, bad, "canonical texts equal the reference for fields inside "
	       "their text");
	free(ref.p);
	free(buf);
}

/*
 * Every name piece at every offset from the end of slices of 1 to 80
 * bytes: the block loads near the end of a slice.
 */
static void test_offsets(void)
{
	struct rbuf ref = { NULL, 0, 0 };
	char *buf = NULL, tmp[256];
	size_t cap = 0, len, p, pad;
	unsigned bad = 0;

	for (p = 0; p < 14; p++)
		for (pad = 0; pad < 70; pad++)
			for (len = 0; len < 3; len++) {
				struct hd_insn in;
				const char *tail = len == 0 ? "" :
						   len == 1 ? ", \"s\"" : ")";
				size_t n = (size_t)snprintf(tmp, sizeof(tmp),
							    "%.*s%s%s", (int)pad,
							    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
							    pieces[p], tail);
				char *t = exact(tmp, n);

				memset(&in, 0, sizeof(in));
				in.operands = hd_slice_make(t, n);
				in.attrs = hd_slice_make(t, n);
				check_one(&in, &ref, &buf, &cap, &bad, "offsets");
				free(t);
			}
	is_int(0, bad, "names and strings at every offset from a slice end");
	free(ref.p);
	free(buf);
}

static void test_names(void)
{
	struct rbuf ref = { NULL, 0, 0 };
	char tmp[128], out[128];
	unsigned bad = 0, round;
	static const char alpha[] = "ab_.0123456789-constant";

	for (round = 0; round < 200000; round++) {
		size_t n = rnd(40), k, o;
		char *t;

		for (k = 0; k < n; k++)
			tmp[k] = alpha[rnd(sizeof(alpha) - 1)];
		if (rnd(4) == 0 && n > 10)
			memcpy(tmp, "constant_", 9);
		t = exact(tmp, n);
		ref.n = 0;
		r_name(&ref, t, n);
		o = hd_canon_name(out, hd_slice_make(t, n));
		if (o != ref.n || (o && memcmp(out, ref.p, o) != 0))
			if (bad++ < 5)
				diag("hd_canon_name(%.*s) differs", (int)n, t);
		free(t);
	}
	is_int(0, bad, "hd_canon_name equals the reference on random names");
	free(ref.p);
}

/* Dumps checked by check_dump, and the instructions that differed. */
static unsigned n_dumps, n_insns, n_bad;

static void check_dump(const char *path)
{
	struct rbuf ref = { NULL, 0, 0 };
	struct hd_dump d;
	struct hd_canon c;
	char *buf = NULL;
	size_t cap = 0;
	uint32_t i;

	if (hd_parse_file(&d, path, HD_PARSE_NO_SIBLINGS |
					    HD_PARSE_ALLOW_INCOMPLETE)) {
		hd_dump_release(&d);
		return;
	}
	hd_canon_compute(&c, &d);
	for (i = 0; i < c.n_insns; i++) {
		const struct hd_insn *in = &HD_INSN(&d, i);
		size_t n;

		if (hd_slice_starts(in->text, HD_CANON_STORED))
			break;
		n = hd_canon_insn_text(in, &buf, &cap);
		r_insn_text(&ref, in);
		n_insns++;
		if (n != ref.n || (n && memcmp(buf, ref.p, n) != 0) ||
		    c.insn_canon[i] != XXH3_64bits(buf, n))
			if (n_bad++ < 5)
				diag("%s: instruction %u differs", path, i);
	}
	n_dumps++;
	hd_canon_release(&c);
	hd_dump_release(&d);
	free(ref.p);
	free(buf);
}

static void test_dumps(void)
{
	unsigned before;

	tap_each_test_dump(check_dump);
	ok(n_dumps > 0 && n_bad == 0,
	   "tests/data: %u dumps, %u instructions, texts and hashes as the "
	   "reference", n_dumps, n_insns);
	before = n_dumps;
	if (tap_each_corpus_dump(check_dump) < 0) {
		skip("HD_CORPUS not set");
		return;
	}
	ok(n_dumps > before && n_bad == 0,
	   "corpus: %u dumps, %u instructions in all, texts and hashes as "
	   "the reference", n_dumps - before, n_insns);
}

int main(void)
{
	plan(6);
	test_names();
	test_offsets();
	test_random_texts();
	test_in_text();
	test_dumps();
	return 0;
}
