/*
 * test_breakdown.c - the byte breakdown (src/breakdown.c).
 *
 * Three parts:
 *   1. hd_by_parse: the key lists it takes and its exact error messages.
 *   2. Two small hand-written dumps whose every number was added up by
 *      hand: op_name splitting (brackets, empty elements), "(self)",
 *      "(no metadata)", two-level source, memory space, kind, bytes
 *      moving between nodes when a value's op_name changes, folding into
 *      "N others", the at-peak tree with an unresolved peak line.
 *   3. Real corpus pairs ($HD_CORPUS; skipped when unset) and the
 *      examples/ pair: for every key, every node's old and new bytes are
 *      the sums of its children's, and the root is the sum of the value
 *      sizes of each dump (added up here from the allocations' value
 *      lines) or, at the peak, the sum of the stated peak lines.
 *
 * Golden reports: text (and one JSON and one Markdown) renderings are
 * compared with golden/by/ byte for byte; HD_UPDATE_GOLDEN=1 rewrites
 * them.  Paths: $HD_SRCDIR (default ".") and $HD_CORPUS.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/breakdown.h"
#include "hlodiff/diff.h"
#include "hlodiff/figures.h"
#include "hlodiff/json.h"
#include "hlodiff/parse.h"
#include "tap/tap.h"

#define PATH_LEN 4096

/* ---- hand-written dumps ---------------------------------------------- */

/*
 * Old: p parameter (no metadata) 1024; a 1024 and b 2048 under
 * jit(f)/jit(g/h) (b ends there, so it becomes "(self)"); c 512 under
 * jit(f)/loop['x/y']; d 256 (op_name "jit(f)//d/"); e 128 in space 1.
 * Sum of value sizes 4992.  Peak lines: p 1024, a 1024, ghost 100 (no
 * such value), e 128 = 2276.  Held at 5 (all live): p 1024, in
 * allocation 1 the union [0, 3072) of a, b, c, d (c and d share a's
 * bytes) 3072, e 128 = 4224.
 */
static const char old_text[] =
	"BufferAssignment:\n"
	"allocation 0: size 1024, parameter 0, shape |f32[256]| at ShapeIndex {}:\n"
	" value: <1 p @0> (size=1024,offset=0): f32[256]{0}\n"
	"allocation 1: size 4096, preallocated-temp:\n"
	" value: <2 a @0> (size=1024,offset=0): f32[256]{0}\n"
	" value: <3 b @0> (size=2048,offset=1024): f32[512]{0}\n"
	" value: <4 c @0> (size=512,offset=0): f32[128]{0}\n"
	" value: <5 d @0> (size=256,offset=0): f32[64]{0}\n"
	"allocation 2: size 128, color 1, preallocated-temp:\n"
	" value: <6 e @1> (size=128,offset=0): f32[32]{0:S(1)}\n"
	"\n"
	"Total bytes used: 5248 (5.1KiB)\n"
	"\n"
	"Used values:\n"
	"<1 p @0>\n positions:\n  p\n uses:\n  a, operand 0\n"
	" from instruction: %p = f32[256]{0} parameter(0)\n"
	"<2 a @0>\n positions:\n  a\n uses:\n"
	" from instruction: %a = f32[256]{0} negate(%p), metadata={op_name=\"jit(f)/jit(g/h)/a\" source_file=\"x.py\" source_line=3}\n"
	"<3 b @0>\n positions:\n  b\n uses:\n"
	" from instruction: %b = f32[512]{0} broadcast(%p), metadata={op_name=\"jit(f)/jit(g/h)\" source_file=\"x.py\" source_line=3}\n"
	"<4 c @0>\n positions:\n  c\n uses:\n"
	" from instruction: %c = f32[128]{0} slice(%p), metadata={op_name=\"jit(f)/loop['x/y']/c\" source_file=\"y.py\"}\n"
	"<5 d @0>\n positions:\n  d\n uses:\n"
	" from instruction: %d = f32[64]{0} slice(%p), metadata={op_name=\"jit(f)//d/\" source_file=\"x.py\" source_line=10}\n"
	"<6 e @1>\n positions:\n  e\n uses:\n"
	" from instruction: %e = f32[32]{0:S(1)} slice(%p), metadata={op_name=\"jit(f)/e\" source_file=\"y.py\" source_line=7}\n"
	"\n\n"
	"HloLiveRange (max 6):\n"
	"  InstructionSequence:\n    0:p\n    1:a\n    2:b\n    3:c\n    4:d\n    5:e\n"
	"  BufferLiveRange:\n"
	"    p{}:0-6\n    a{}:1-6\n    b{}:2-6\n    c{}:3-6\n    d{}:4-6\n    e{}:5-6\n"
	"  Live ranges at 5 (peak):\n"
	"    p{}: 1024 bytes (cumulative: 1024 bytes)\n"
	"    a{}: 1024 bytes (cumulative: 2048 bytes)\n"
	"    ghost{}: 100 bytes (cumulative: 2148 bytes)\n"
	"    e{}: 128 bytes (cumulative: 2276 bytes)\n";

/*
 * New: p, c, d, e as before; a grows to 2048 and its op_name moves to
 * jit(f)/jit(k)/a; b is gone; z (add, 64) is new under jit(f)/jit(k).
 * Sum of value sizes 1024 + 2048 + 512 + 256 + 128 + 64 = 4032.  Peak
 * lines: p 1024, a 2048, e 128 = 3200.  Held at 5: p 1024, allocation 1
 * [0, 2560) (d and z inside a) 2560, e 128 = 3712.
 */
static const char new_text[] =
	"BufferAssignment:\n"
	"allocation 0: size 1024, parameter 0, shape |f32[256]| at ShapeIndex {}:\n"
	" value: <1 p @0> (size=1024,offset=0): f32[256]{0}\n"
	"allocation 1: size 4096, preallocated-temp:\n"
	" value: <2 a @0> (size=2048,offset=0): f32[512]{0}\n"
	" value: <4 c @0> (size=512,offset=2048): f32[128]{0}\n"
	" value: <5 d @0> (size=256,offset=0): f32[64]{0}\n"
	" value: <7 z @0> (size=64,offset=256): f32[16]{0}\n"
	"allocation 2: size 128, color 1, preallocated-temp:\n"
	" value: <6 e @1> (size=128,offset=0): f32[32]{0:S(1)}\n"
	"\n"
	"Total bytes used: 5248 (5.1KiB)\n"
	"\n"
	"Used values:\n"
	"<1 p @0>\n positions:\n  p\n uses:\n  a, operand 0\n"
	" from instruction: %p = f32[256]{0} parameter(0)\n"
	"<2 a @0>\n positions:\n  a\n uses:\n"
	" from instruction: %a = f32[512]{0} negate(%p), metadata={op_name=\"jit(f)/jit(k)/a\" source_file=\"x.py\" source_line=3}\n"
	"<4 c @0>\n positions:\n  c\n uses:\n"
	" from instruction: %c = f32[128]{0} slice(%p), metadata={op_name=\"jit(f)/loop['x/y']/c\" source_file=\"y.py\"}\n"
	"<5 d @0>\n positions:\n  d\n uses:\n"
	" from instruction: %d = f32[64]{0} slice(%p), metadata={op_name=\"jit(f)//d/\" source_file=\"x.py\" source_line=10}\n"
	"<6 e @1>\n positions:\n  e\n uses:\n"
	" from instruction: %e = f32[32]{0:S(1)} slice(%p), metadata={op_name=\"jit(f)/e\" source_file=\"y.py\" source_line=7}\n"
	"<7 z @0>\n positions:\n  z\n uses:\n"
	" from instruction: %z = f32[16]{0} add(%d, %d), metadata={op_name=\"jit(f)/jit(k)/z\" source_file=\"x.py\" source_line=12}\n"
	"\n\n"
	"HloLiveRange (max 6):\n"
	"  InstructionSequence:\n    0:p\n    1:a\n    2:c\n    3:d\n    4:e\n    5:z\n"
	"  BufferLiveRange:\n"
	"    p{}:0-6\n    a{}:1-6\n    c{}:2-6\n    d{}:3-6\n    e{}:4-6\n    z{}:5-6\n"
	"  Live ranges at 5 (peak):\n"
	"    p{}: 1024 bytes (cumulative: 1024 bytes)\n"
	"    a{}: 2048 bytes (cumulative: 3072 bytes)\n"
	"    e{}: 128 bytes (cumulative: 3200 bytes)\n";

/* ---- helpers --------------------------------------------------------- */

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

static void load_text(struct hd_dump *d, const char *name, const char *text)
{
	if (hd_parse_buffer(d, name, text, strlen(text), 0) < 0)
		bail("cannot parse %s", name);
}

static int load_file(struct hd_dump *d, const char *path)
{
	if (hd_parse_file(d, path, HD_PARSE_NO_SIBLINGS) < 0) {
		hd_dump_release(d);
		return -1;
	}
	return 0;
}

/* The node at the path of names (NULL-terminated) below the root. */
static const struct hd_by_node *node_at(const struct hd_breakdown *b, ...)
{
	const struct hd_by_node *n = hd_breakdown_root(b);
	const char *name;
	va_list ap;

	va_start(ap, b);
	while (n && (name = va_arg(ap, const char *)) != NULL) {
		const struct hd_by_node *found = NULL;
		uint32_t i;
		for (i = 0; i < n->child_count; i++)
			if (strcmp(hd_breakdown_child(b, n, i)->name, name) == 0)
				found = hd_breakdown_child(b, n, i);
		n = found;
	}
	va_end(ap);
	return n;
}

static long long old_of(const struct hd_by_node *n)
{
	return n ? n->old_bytes : -1;
}

static long long new_of(const struct hd_by_node *n)
{
	return n ? n->new_bytes : -1;
}

/*
 * Counts the nodes below n whose bytes are not the sums of their
 * children's, or whose children are out of order, or that have more than
 * top_n + 1 children (top_n > 0); the first problem goes to *why.
 */
static int bad_nodes(const struct hd_breakdown *b, const struct hd_by_node *n,
		     int top_n, char *why, size_t wn)
{
	long long so = 0, sn = 0;
	int bad = 0;
	uint32_t i;

	for (i = 0; i < n->child_count; i++) {
		const struct hd_by_node *c = hd_breakdown_child(b, n, i);
		so += c->old_bytes;
		sn += c->new_bytes;
		bad += bad_nodes(b, c, top_n, why, wn);
	}
	if (n->child_count && (so != n->old_bytes || sn != n->new_bytes)) {
		if (!bad && !why[0])
			snprintf(why, wn, "'%s': %lld/%lld but children add up to %lld/%lld",
				 n->name, (long long)n->old_bytes, (long long)n->new_bytes, so, sn);
		bad++;
	}
	if (top_n > 0 && n->child_count > (uint32_t)top_n + 1) {
		if (!why[0])
			snprintf(why, wn, "'%s' shows %u children with top_n %d",
				 n->name, n->child_count, top_n);
		bad++;
	}
	return bad;
}

static int tree_ok(const struct hd_breakdown *b, int top_n, const char *what)
{
	char why[512] = "";
	int bad = bad_nodes(b, hd_breakdown_root(b), top_n, why, sizeof(why));

	if (!ok(bad == 0, "%s: every node is the sum of its children", what))
		diag("%d bad node(s); first: %s", bad, why);
	return bad == 0;
}

/* Sum of size= over every value line of d, from the allocations. */
static long long model_value_bytes(const struct hd_dump *d)
{
	long long s = 0;
	size_t i;

	for (i = 0; i < d->alloc_values.len; i++)
		s += HD_ALLOC_VALUE(d, i).size;
	return s;
}

/* Sum of the bytes of d's peak lines. */
/* The held peak of the figures (figures.h; checked against an
 * independent reading in t1000): the tree at the peak adds up to it. */
static long long model_peak_bytes(const struct hd_dump *d)
{
	struct hd_figures f;
	long long s;

	hd_figures_compute(&f, d);
	s = f.has_peak ? f.peak_bytes : 0;
	hd_figures_release(&f);
	return s;
}

/* ---- golden files ---------------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				bail("out of memory");
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

/* Compares text (len bytes) with golden/by/name; rewrites the golden
 * file instead with HD_UPDATE_GOLDEN=1. */
static void is_golden(const char *name, const char *text, size_t len)
{
	char path[PATH_LEN];
	char *want;
	size_t wlen = 0, i;

	snprintf(path, sizeof(path), "%s/golden/by/%s", env_or("HD_SRCDIR", "."), name);
	if (strcmp(env_or("HD_UPDATE_GOLDEN", ""), "1") == 0) {
		FILE *f = fopen(path, "wb");
		ok(f && fwrite(text, 1, len, f) == len && fclose(f) == 0,
		   "golden/by/%s (golden updated)", name);
		return;
	}
	want = read_all(path, &wlen);
	if (!want) {
		ok(0, "golden/by/%s matches", name);
		diag("cannot read %s", path);
		return;
	}
	for (i = 0; i < len && i < wlen && text[i] == want[i]; i++)
		;
	if (!ok(len == wlen && i == len, "golden/by/%s matches", name)) {
		size_t ls = i;
		while (ls > 0 && text[ls - 1] != '\n')
			ls--;
		diag("first difference at byte %zu; line there:\n  got:  %.*s\n  want: %.*s",
		     i, (int)strcspn(text + ls, "\n"), text + ls,
		     (int)(ls < wlen ? strcspn(want + ls, "\n") : 0), ls < wlen ? want + ls : "");
	}
	free(want);
}

enum render { R_TEXT, R_JSON, R_MARKDOWN };

static void golden_report(const char *name, const struct hd_breakdown *b, enum render r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct hd_json j;

	if (!f)
		bail("open_memstream failed");
	if (r == R_TEXT) {
		hd_breakdown_report_text(f, b);
	} else if (r == R_JSON) {
		hd_json_init(&j, f);
		hd_breakdown_report_json(&j, b);
		hd_json_finish(&j);
	} else {
		hd_breakdown_report_markdown(f, b);
	}
	fclose(f);
	is_golden(name, buf, len);
	free(buf);
}

/* ---- 1. key lists ---------------------------------------------------- */

static void parse_ok(const char *spec, int n, enum hd_by_key k0, enum hd_by_key k1)
{
	enum hd_by_key keys[HD_BY_MAX_KEYS] = { HD_BY_KIND, HD_BY_KIND };
	char err[256] = "";
	int nkeys = -1, rc = hd_by_parse(spec, keys, &nkeys, err, sizeof(err));

	if (!ok(rc == 0 && nkeys == n && keys[0] == k0 && (n < 2 || keys[1] == k1),
		"by '%s' parses to %d key(s)", spec, n))
		diag("rc %d, nkeys %d, keys %d %d, err '%s'", rc, nkeys, keys[0], keys[1], err);
}

static void parse_bad(const char *spec, const char *message)
{
	enum hd_by_key keys[HD_BY_MAX_KEYS];
	char err[256] = "";
	int nkeys = 0;

	is_int(-1, hd_by_parse(spec, keys, &nkeys, err, sizeof(err)),
	       "by '%s' is refused", spec);
	is_string(message, err, "by '%s': message", spec);
}

static void test_parse(void)
{
	parse_ok("op_name", 1, HD_BY_OP_NAME, 0);
	parse_ok("source", 1, HD_BY_SOURCE, 0);
	parse_ok("opcode", 1, HD_BY_OPCODE, 0);
	parse_ok("memory-space", 1, HD_BY_MEMORY_SPACE, 0);
	parse_ok("kind", 1, HD_BY_KIND, 0);
	parse_ok("memory-space,op_name", 2, HD_BY_MEMORY_SPACE, HD_BY_OP_NAME);
	parse_ok(" kind , opcode ", 2, HD_BY_KIND, HD_BY_OPCODE);
	parse_bad("x", "unknown key 'x' (expected op_name, source, opcode, memory-space or kind)");
	parse_bad("op_name,memory_space",
		  "unknown key 'memory_space' (expected op_name, source, opcode, memory-space or kind)");
	parse_bad("", "empty key in '' (expected op_name, source, opcode, memory-space or kind)");
	parse_bad("op_name,", "empty key in 'op_name,' (expected op_name, source, opcode, memory-space or kind)");
	parse_bad("op_name,op_name", "key 'op_name' given twice");
	parse_bad("op_name,source,kind", "too many keys in 'op_name,source,kind' (at most 2)");
}

/* ---- 2. hand-written dumps ------------------------------------------- */

static struct hd_breakdown *by(const struct hd_diff *df, const char *spec,
			       int at_peak, int top_n)
{
	enum hd_by_key keys[HD_BY_MAX_KEYS];
	int n;

	if (hd_by_parse(spec, keys, &n, NULL, 0))
		bail("bad key list '%s'", spec);
	return hd_breakdown_diff(df, keys, n, at_peak, top_n);
}

static struct hd_breakdown *by_dump(const struct hd_dump *d, const char *spec, int top_n)
{
	enum hd_by_key keys[HD_BY_MAX_KEYS];
	int n;

	if (hd_by_parse(spec, keys, &n, NULL, 0))
		bail("bad key list '%s'", spec);
	return hd_breakdown_dump(d, keys, n, top_n);
}

static void test_hand_dump(const struct hd_dump *old)
{
	struct hd_breakdown *b = by_dump(old, "op_name", 0);
	const struct hd_by_node *n;

	ok(!hd_breakdown_is_diff(b), "one dump: not a diff");
	is_int(4992, old_of(hd_breakdown_root(b)), "one dump: root is the sum of value sizes");
	is_int(1024, old_of(node_at(b, "(no metadata)", NULL)), "parameter without metadata");
	is_int(3968, old_of(node_at(b, "jit(f)", NULL)), "jit(f) holds five values");
	is_int(3072, old_of(node_at(b, "jit(f)", "jit(g/h)", NULL)), "jit(g/h) kept whole (no split inside parentheses)");
	is_int(1024, old_of(node_at(b, "jit(f)", "jit(g/h)", "a", NULL)), "a under jit(g/h)");
	is_int(2048, old_of(node_at(b, "jit(f)", "jit(g/h)", "(self)", NULL)), "b ends at jit(g/h): (self)");
	is_int(512, old_of(node_at(b, "jit(f)", "loop['x/y']", "c", NULL)), "brackets kept whole");
	is_int(256, old_of(node_at(b, "jit(f)", "d", NULL)), "empty path elements dropped");
	n = node_at(b, "jit(f)", NULL);
	ok(n && n->child_count == 4 &&
	   strcmp(hd_breakdown_child(b, n, 0)->name, "jit(g/h)") == 0 &&
	   strcmp(hd_breakdown_child(b, n, 3)->name, "e") == 0,
	   "one dump: children by bytes descending");
	tree_ok(b, 0, "one dump by op_name");
	golden_report("hand-stat.op_name.txt", b, R_TEXT);
	hd_breakdown_free(b);

	b = by_dump(old, "source", 0);
	is_int(3072, old_of(node_at(b, "x.py", "line 3", NULL)), "source: file then line");
	is_int(512, old_of(node_at(b, "y.py", "(no line)", NULL)), "source: no line");
	is_int(1024, old_of(node_at(b, "(no source)", NULL)), "source: none");
	hd_breakdown_free(b);

	b = by_dump(old, "memory-space,kind", 0);
	is_int(128, old_of(node_at(b, "space 1", "temp", NULL)), "memory-space,kind: space 1 temp");
	is_int(1024, old_of(node_at(b, "space 0", "parameter", NULL)), "memory-space,kind: space 0 parameter");
	tree_ok(b, 0, "one dump by memory-space,kind");
	hd_breakdown_free(b);

	b = by_dump(old, "opcode", 2);
	n = hd_breakdown_root(b);
	ok(n->child_count == 3, "top 2 of 4 opcodes + others");
	n = hd_breakdown_child(b, n, 2);
	ok(n && n->folded == 2 && strcmp(n->name, "2 others") == 0 && n->old_bytes == 1024 + 896,
	   "others: broadcast 2048 and negate 1024 shown, parameter 1024 and slice 896 folded");
	tree_ok(b, 2, "one dump by opcode, top 2");
	hd_breakdown_free(b);

	b = by_dump(old, "opcode", 3);
	is_int(4, hd_breakdown_root(b)->child_count, "one extra child is shown, not folded");
	hd_breakdown_free(b);
}

static void test_hand_diff(const struct hd_diff *df, const struct hd_dump *old)
{
	struct hd_breakdown *b = by(df, "op_name", 0, 0);
	const struct hd_by_node *n;
	struct hd_figures f;

	ok(hd_breakdown_is_diff(b), "diff: is a diff");
	is_int(HD_BY_VALUE_BYTES, hd_breakdown_measure(b), "diff: value bytes");
	is_int(4992, old_of(hd_breakdown_root(b)), "diff: root old");
	is_int(4032, new_of(hd_breakdown_root(b)), "diff: root new");
	n = node_at(b, "jit(f)", "jit(g/h)", NULL);
	ok(old_of(n) == 3072 && new_of(n) == 0, "a's old bytes stay under its old op_name");
	n = node_at(b, "jit(f)", "jit(k)", NULL);
	ok(old_of(n) == 0 && new_of(n) == 2048 + 64, "a's new bytes go to its new op_name");
	n = node_at(b, "jit(f)", NULL);
	ok(n && strcmp(hd_breakdown_child(b, n, 0)->name, "jit(g/h)") == 0 &&
	   strcmp(hd_breakdown_child(b, n, 1)->name, "jit(k)") == 0,
	   "diff: children by |delta| descending");
	tree_ok(b, 0, "diff by op_name");
	golden_report("hand.op_name.txt", b, R_TEXT);
	golden_report("hand.op_name.json", b, R_JSON);
	golden_report("hand.op_name.md", b, R_MARKDOWN);
	hd_breakdown_free(b);

	b = by(df, "op_name", 1, 0);
	is_int(HD_BY_PEAK_BYTES, hd_breakdown_measure(b), "at peak: peak bytes");
	is_int(HD_BY_PEAK_HELD, hd_breakdown_peak_source(b, 0), "at peak: old peak held");
	is_int(4224, old_of(hd_breakdown_root(b)), "at peak: root old is the held peak");
	is_int(3712, new_of(hd_breakdown_root(b)), "at peak: root new is the held peak");
	ok(node_at(b, "(unresolved)", NULL) == NULL,
	   "at peak: nothing unresolved (the values hold the whole peak)");
	is_int(1024, new_of(node_at(b, "(no metadata)", NULL)), "at peak: p");
	tree_ok(b, 0, "diff at peak by op_name");
	golden_report("hand.op_name.peak.txt", b, R_TEXT);
	hd_breakdown_free(b);

	hd_figures_compute(&f, old);
	{
		enum hd_by_key k = HD_BY_OPCODE;
		b = hd_breakdown_dump_peak(old, &f, &k, 1, 0);
		is_int(4224, old_of(hd_breakdown_root(b)), "one dump at peak: root");
		ok(node_at(b, "(unresolved)", NULL) == NULL, "one dump at peak: nothing unresolved");
		is_int(1024, old_of(node_at(b, "negate", NULL)), "one dump at peak: a");
		hd_breakdown_free(b);
		ok(hd_breakdown_dump(old, &k, 0, 0) == NULL, "no keys: NULL");
		ok(hd_breakdown_dump(old, &k, 3, 0) == NULL, "three keys: NULL");
	}
	hd_figures_release(&f);
}

/* old_text cut before the marker (the peak section, or all of
 * HloLiveRange): a recomputed peak, or none. */
static void test_hand_no_peak(const char *marker, enum hd_by_peak want,
			      long long root)
{
	enum hd_by_key k = HD_BY_OP_NAME;
	struct hd_dump d;
	struct hd_figures f;
	struct hd_breakdown *b;
	size_t n = (size_t)(strstr(old_text, marker) - old_text);
	char *text = malloc(n + 1);

	if (!text)
		bail("out of memory");
	memcpy(text, old_text, n);
	text[n] = '\0';
	load_text(&d, "cut.txt", text);
	hd_figures_compute(&f, &d);
	b = hd_breakdown_dump_peak(&d, &f, &k, 1, 0);
	is_int(want, hd_breakdown_peak_source(b, 0), "cut before '%.14s': peak source", marker);
	is_int(root, old_of(hd_breakdown_root(b)), "cut before '%.14s': root", marker);
	ok(node_at(b, "(unresolved)", NULL) == NULL, "cut before '%.14s': nothing unresolved", marker);
	tree_ok(b, 0, "recomputed or no peak");
	hd_breakdown_free(b);
	hd_figures_release(&f);
	hd_dump_release(&d);
	free(text);
}

/* An op_name of 40 elements: the tree stops at 20 levels, the last
 * holding the rest, and its JSON fits the writer inside a report. */
static void test_deep(void)
{
	char text[2048], op[512];
	enum hd_by_key k = HD_BY_OP_NAME;
	const struct hd_by_node *n;
	struct hd_dump d;
	struct hd_breakdown *b;
	struct hd_json j;
	char *buf = NULL;
	size_t len = 0, o = 0;
	FILE *f;
	int i, depth = 0;

	for (i = 0; i < 40; i++)
		o += (size_t)snprintf(op + o, sizeof(op) - o, "%sa%d", i ? "/" : "", i);
	snprintf(text, sizeof(text),
		 "BufferAssignment:\nallocation 0: size 4, preallocated-temp:\n"
		 " value: <1 x @0> (size=4,offset=0): f32[]{}\n\n"
		 "Total bytes used: 4 (4B)\n\nUsed values:\n<1 x @0>\n positions:\n  x\n uses:\n"
		 " from instruction: %%x = f32[]{} constant(1), metadata={op_name=\"%s\"}\n", op);
	load_text(&d, "deep.txt", text);
	b = hd_breakdown_dump(&d, &k, 1, 0);
	for (n = hd_breakdown_root(b); n->child_count; n = hd_breakdown_child(b, n, 0))
		depth++;
	is_int(20, depth, "deep op_name: 20 levels");
	is_string("a19/a20/a21/a22/a23/a24/a25/a26/a27/a28/a29/a30/a31/a32/a33/a34/a35/a36/a37/a38/a39",
		  n->name, "deep op_name: the last level holds the rest");
	f = open_memstream(&buf, &len);
	if (!f)
		bail("open_memstream failed");
	hd_json_init(&j, f);
	hd_json_begin_object(&j);
	hd_json_key(&j, "breakdown");
	hd_breakdown_report_json(&j, b);
	hd_json_end_object(&j);
	hd_json_finish(&j);
	fclose(f);
	ok(len > 0 && strstr(buf, "\"a19/a20/") != NULL, "deep op_name: JSON written");
	free(buf);
	hd_breakdown_free(b);
	hd_dump_release(&d);
}

static void test_hand(void)
{
	struct hd_dump old, new_dump;
	struct hd_diff df;

	load_text(&old, "old.txt", old_text);
	load_text(&new_dump, "new.txt", new_text);
	hd_diff_compute(&df, &old, &new_dump, 0);
	test_hand_dump(&old);
	test_hand_diff(&df, &old);
	/* All six values live at time 5, logical sizes = their size=. */
	test_hand_no_peak("  Live ranges at", HD_BY_PEAK_HELD, 4224);
	test_hand_no_peak("\n\nHloLiveRange", HD_BY_PEAK_NONE, 0);
	hd_diff_release(&df);
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
}

/* ---- 3. real pairs --------------------------------------------------- */

static const char *const all_specs[] = {
	"op_name", "source", "opcode", "memory-space", "kind",
	"memory-space,op_name", "kind,source", "opcode,op_name",
};

/* Every key, value bytes and at the peak, whole and folded. */
static void check_pair(const char *label, const struct hd_diff *df)
{
	long long vo = model_value_bytes(df->old), vn = model_value_bytes(df->new_dump);
	long long po = model_peak_bytes(df->old), pn = model_peak_bytes(df->new_dump);
	size_t s;

	for (s = 0; s < sizeof(all_specs) / sizeof(all_specs[0]); s++) {
		int peak, top;
		for (peak = 0; peak <= 1; peak++) {
			for (top = 0; top <= 3; top += 3) {
				struct hd_breakdown *b = by(df, all_specs[s], peak, top);
				const struct hd_by_node *r = hd_breakdown_root(b);
				char what[256];
				snprintf(what, sizeof(what), "%s by %s%s, top %d", label,
					 all_specs[s], peak ? " at peak" : "", top);
				tree_ok(b, top, what);
				if (!ok(r->old_bytes == (peak ? po : vo) && r->new_bytes == (peak ? pn : vn),
					"%s: root is the %s of each dump", what,
					peak ? "held peak" : "sum of value sizes"))
					diag("root %lld/%lld, want %lld/%lld", (long long)r->old_bytes,
					     (long long)r->new_bytes, peak ? po : vo, peak ? pn : vn);
				hd_breakdown_free(b);
			}
		}
	}
}

static void check_dump(const char *label, const struct hd_dump *d)
{
	struct hd_figures f;
	size_t s;

	hd_figures_compute(&f, d);
	for (s = 0; s < sizeof(all_specs) / sizeof(all_specs[0]); s++) {
		enum hd_by_key keys[HD_BY_MAX_KEYS];
		struct hd_breakdown *b, *p;
		char what[256];
		int n;
		hd_by_parse(all_specs[s], keys, &n, NULL, 0);
		b = hd_breakdown_dump(d, keys, n, 3);
		p = hd_breakdown_dump_peak(d, &f, keys, n, 0);
		snprintf(what, sizeof(what), "%s (one dump) by %s", label, all_specs[s]);
		tree_ok(b, 3, what);
		tree_ok(p, 0, what);
		ok(hd_breakdown_root(b)->old_bytes == model_value_bytes(d) &&
		   hd_breakdown_root(p)->old_bytes == model_peak_bytes(d),
		   "%s: roots are the value sizes and the held peak", what);
		hd_breakdown_free(b);
		hd_breakdown_free(p);
	}
	hd_figures_release(&f);
}

struct pair {
	const char *label;        /* golden file prefix */
	const char *old_path, *new_path;
	int in_corpus;            /* paths are relative to $HD_CORPUS */
};

static const struct pair pairs[] = {
	{ "jit_normal", "examples/jit_normal-0021.txt", "examples/jit_normal-0041.txt", 0 },
	{ "si04-simple-simplefused",
	  "gpu/lorraxsbx-si04-simple__module_0041.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
	  "gpu/lorraxsbx-si04-simplefused__module_0041.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt", 1 },
	{ "si04-b1rtol1e4-block4",
	  "gpu/lorraxsbx-si04-b1rtol1e4__module_0037.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
	  "gpu/lorraxsbx-si04-block4__module_0037.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt", 1 },
	{ "mos2-kernel-4v16",
	  "gpu/lorraxsbx-mos2-heur4gb__module_0121.jit__kernel.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
	  "gpu/lorraxsbx-mos2-heur4gb16gpu__module_0121.jit__kernel.sm_8.0_gpu_after_optimizations-buffer-assignment.txt", 1 },
};

/* Golden renderings of the real pairs (CLI equivalents in t0710). */
static void golden_pair(const char *label, const struct hd_diff *df)
{
	struct hd_breakdown *b;
	char name[256];

	if (strcmp(label, "jit_normal") == 0) {
		b = by(df, "memory-space,op_name", 0, 0);
		golden_report("jit_normal.memory-space,op_name.txt", b, R_TEXT);
		hd_breakdown_free(b);
		return;
	}
	snprintf(name, sizeof(name), "%s.op_name.n8.txt", label);
	b = by(df, "op_name", 0, 8);
	golden_report(name, b, R_TEXT);
	hd_breakdown_free(b);
	if (strcmp(label, "mos2-kernel-4v16") == 0) {
		b = by(df, "source", 0, 6);
		golden_report("mos2-kernel-4v16.source.n6.txt", b, R_TEXT);
		hd_breakdown_free(b);
	} else if (strcmp(label, "si04-simple-simplefused") == 0) {
		b = by(df, "kind,opcode", 1, 5);
		golden_report("si04-simple-simplefused.kind,opcode.peak.n5.txt", b, R_TEXT);
		hd_breakdown_free(b);
	}
}

static void test_pairs(void)
{
	const char *corpus = getenv("HD_CORPUS");
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct pair *p = &pairs[i];
		char po[PATH_LEN], pn[PATH_LEN];
		struct hd_dump old, new_dump;
		struct hd_diff df;
		const char *dir = p->in_corpus ? corpus : env_or("HD_SRCDIR", ".");

		if (!dir || !*dir) {
			skip("%s: no corpus (HD_CORPUS unset)", p->label);
			continue;
		}
		snprintf(po, sizeof(po), "%s/%s", dir, p->old_path);
		snprintf(pn, sizeof(pn), "%s/%s", dir, p->new_path);
		if (load_file(&old, po)) {
			skip("%s: cannot read %s", p->label, po);
			continue;
		}
		if (load_file(&new_dump, pn)) {
			hd_dump_release(&old);
			skip("%s: cannot read %s", p->label, pn);
			continue;
		}
		hd_diff_compute(&df, &old, &new_dump, 0);
		check_pair(p->label, &df);
		check_dump(p->label, &new_dump);
		golden_pair(p->label, &df);
		hd_diff_release(&df);
		hd_dump_release(&old);
		hd_dump_release(&new_dump);
	}
}

/* One-dump golden: stat --by opcode of seed 000. */
static void test_stat_golden(void)
{
	char path[PATH_LEN];
	struct hd_dump d;
	struct hd_breakdown *b;

	snprintf(path, sizeof(path), "%s/tests/data/seed-000.txt", env_or("HD_SRCDIR", "."));
	if (load_file(&d, path)) {
		skip("cannot read %s", path);
		return;
	}
	b = by_dump(&d, "opcode", 0);
	is_int(model_value_bytes(&d), old_of(hd_breakdown_root(b)), "seed 000 by opcode: root");
	golden_report("stat-seed-000.opcode.txt", b, R_TEXT);
	golden_report("stat-seed-000.opcode.json", b, R_JSON);
	hd_breakdown_free(b);
	hd_dump_release(&d);
}

int main(void)
{
	plan_lazy();
	test_parse();
	test_hand();
	test_deep();
	test_stat_golden();
	test_pairs();
	return 0;
}
