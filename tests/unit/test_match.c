/*
 * test_match.c - canonical forms (canon.h) and value matching (match.h).
 *
 * Needs HD_SRCDIR (the repo root; "." by default) for tests/data and
 * scripts/recompile-twin (run with python3; those checks are skipped
 * when python3 is missing), and HD_CORPUS for the metadata-only pairs of
 * the corpus (skipped when unset).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/diag.h"
#include "hlodiff/match.h"
#include "hlodiff/parse.h"
#include "tap.h"

#define N_SEEDS 5

static const char *srcdir;
static char tmpdir[256];
static int have_python;

/* "name{index}" of value v into buf. */
static const char *key_of(const struct hd_dump *d, uint32_t v, char *buf,
			  size_t n)
{
	const struct hd_value *val = &HD_VALUE(d, v);

	snprintf(buf, n, "%.*s%.*s", (int)val->name.n, val->name.p,
		 (int)val->index_n, hd_value_index(val).p);
	return buf;
}

/* Parses path; bails out when it does not parse. */
static void parse_or_bail(struct hd_dump *d, const char *path)
{
	if (hd_parse_file(d, path, 0) != 0)
		bail("cannot parse %s", path);
}

/* ------------------------------------------------------------------ */
/* hd_canon_name                                                        */

static void test_names(void)
{
	static const char *const cases[][2] = {
		{ "fusion.21", "fusion" },
		{ "copy-start.3", "copy-start" },
		{ "copy-start", "copy-start" },
		{ "get-tuple-element.4", "get-tuple-element" },
		{ "main.336", "main" },
		{ "region_0.193.clone.clone", "region_0.clone.clone" },
		{ "region_0.193.clone.clone.5_spmd", "region_0.clone.clone._spmd" },
		{ "param.8.0", "param" },
		{ "while.11.0", "while" },
		{ "Arg_0.1", "Arg_0" },
		{ "Arg_0.1.0", "Arg_0" },
		{ "p.4", "p" },
		{ "p.4.lhs.clone", "p.lhs.clone" },
		{ "constant_99_0", "constant" },
		{ "constant_99", "constant" },
		{ "constant_x_1", "constant_x_1" },
		{ "wide.wide.param.3", "wide.wide.param" },
		{ "splash_mha_fwd_e4.1", "splash_mha_fwd_e4" },
		{ "lhs", "lhs" },
	};
	char out[64];
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = hd_canon_name(out, hd_slice_cstr(cases[i][0]));
		out[n] = '\0';
		is_string(cases[i][1], out, "canon name %s", cases[i][0]);
	}
}

/* ------------------------------------------------------------------ */
/* Canonical and structural hashes on small synthetic dumps             */

/* A dump with one value defined by the instruction text insn. */
static int parse_one_insn(struct hd_dump *d, const char *name,
			  const char *insn, char *buf, size_t n)
{
	snprintf(buf, n,
		 "BufferAssignment:\n"
		 "allocation 0: size 16, preallocated-temp:\n"
		 " value: <0 %s @0> (size=16,offset=0): f32[4]{0}\n"
		 "\n"
		 "Total bytes used: 16 (16B)\n"
		 "\n"
		 "Used values:\n"
		 "<0 %s @0>\n"
		 " positions:\n"
		 "  %s\n"
		 " uses:\n"
		 " from instruction: %s\n",
		 name, name, name, insn);
	return hd_parse_buffer(d, "<test>", buf, strlen(buf), 0);
}

/* Canonical hash of the instruction text insn defining value name. */
static uint64_t canon_of(const char *name, const char *insn)
{
	static char buf[4096];
	struct hd_dump d;
	struct hd_canon c;
	uint64_t h = 0;

	if (parse_one_insn(&d, name, insn, buf, sizeof(buf)) != 0 ||
	    d.insns.len != 1) {
		diag("cannot parse instruction %s", insn);
		hd_dump_release(&d);
		return 0;
	}
	hd_canon_compute(&c, &d);
	h = c.insn_canon[0];
	hd_canon_release(&c);
	hd_dump_release(&d);
	return h;
}

static void test_canonical(void)
{
	uint64_t base = canon_of("fusion.21",
		"%fusion.21 = f32[4]{0} fusion(%p.1, %get-tuple-element.3), "
		"kind=kLoop, calls=%fused_computation.32, "
		"metadata={op_name=\"jit(f)/add\" source_file=\"a.py\" source_line=10}, "
		"backend_config={\"operation_queue_id\":\"3\",\"wait_on_operation_queues\":[1,2],"
		"\"fusion_backend_config\":{\"kind\":\"__triton\"}}");

	ok(base != 0, "canonical hash of a fusion");
	is_int(1, base == canon_of("fusion.57",
		"%fusion.57 = f32[4]{0} fusion(%p.9, %get-tuple-element.71), "
		"kind=kLoop, calls=%fused_computation.4, "
		"metadata={op_name=\"jit(f)/add\" source_file=\"b.py\" source_line=99}, "
		"backend_config={\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],"
		"\"fusion_backend_config\":{\"kind\":\"__triton\"}}"),
	       "ids, metadata and queue ids do not change the canonical hash");
	is_int(1, base == canon_of("fusion.21",
		"%fusion.21 = f32[4]{0} fusion(%p.1, %get-tuple-element.3), "
		"kind=kLoop, calls=%fused_computation.32, "
		"backend_config={\"operation_queue_id\":\"3\",\"wait_on_operation_queues\":[1,2],"
		"\"fusion_backend_config\":{\"kind\":\"__triton\"}}"),
	       "no metadata at all is the same as any metadata");
	is_int(0, base == canon_of("fusion.21",
		"%fusion.21 = f32[4]{0} fusion(%p.1, %get-tuple-element.3), "
		"kind=kInput, calls=%fused_computation.32, "
		"backend_config={\"operation_queue_id\":\"3\",\"wait_on_operation_queues\":[1,2],"
		"\"fusion_backend_config\":{\"kind\":\"__triton\"}}"),
	       "kind= changes the canonical hash");
	is_int(0, base == canon_of("fusion.21",
		"%fusion.21 = f32[4]{0} fusion(%p.1, %get-tuple-element.3), "
		"kind=kLoop, calls=%fused_computation.32, "
		"backend_config={\"operation_queue_id\":\"3\",\"wait_on_operation_queues\":[1,2],"
		"\"fusion_backend_config\":{\"kind\":\"__other\"}}"),
	       "the rest of backend_config counts");
	is_int(0, base == canon_of("fusion.21",
		"%fusion.21 = f32[4]{1:T(4)} fusion(%p.1, %get-tuple-element.3), "
		"kind=kLoop, calls=%fused_computation.32, "
		"backend_config={\"operation_queue_id\":\"3\",\"wait_on_operation_queues\":[1,2],"
		"\"fusion_backend_config\":{\"kind\":\"__triton\"}}"),
	       "the layout counts");
	is_int(0, base == canon_of("fusion.21",
		"%fusion.21 = f32[4]{0} fusion(%q.1, %get-tuple-element.3), "
		"kind=kLoop, calls=%fused_computation.32, "
		"backend_config={\"operation_queue_id\":\"3\",\"wait_on_operation_queues\":[1,2],"
		"\"fusion_backend_config\":{\"kind\":\"__triton\"}}"),
	       "operand names (without ids) count");
	is_int(1, canon_of("all-reduce-start.1",
		"%all-reduce-start.1 = f32[4]{0} all-reduce-start(%p.1), channel_id=5, "
		"replica_groups={{0,1}}, to_apply=%add.3.clone, "
		"control-predecessors={%x.1}") ==
		canon_of("all-reduce-start.7",
		"%all-reduce-start.7 = f32[4]{0} all-reduce-start(%p.3), channel_id=9, "
		"replica_groups={{0,1}}, to_apply=%add.8.clone"),
	       "channel ids and control predecessors do not count");
}

/* Two copies of two parameters whose names strip alike. */
static const char two_copies[] =
	"BufferAssignment:\n"
	"allocation 0: size 16, parameter 0, shape |f32[4]| at ShapeIndex {}:\n"
	" value: <0 p.1 @0> (size=16,offset=0): f32[4]{0}\n"
	"allocation 1: size 16, parameter 1, shape |f32[4]| at ShapeIndex {}:\n"
	" value: <1 p.2 @0> (size=16,offset=0): f32[4]{0}\n"
	"allocation 2: size 32, preallocated-temp:\n"
	" value: <2 copy.1 @0> (size=16,offset=0): f32[4]{0}\n"
	" value: <3 copy.2 @0> (size=16,offset=16): f32[4]{0}\n"
	"\n"
	"Total bytes used: 64 (64B)\n"
	"\n"
	"Used values:\n"
	"<0 p.1 @0>\n positions:\n  p.1\n uses:\n  copy.1, operand 0\n"
	" from instruction: %p.1 = f32[4]{0} parameter(0)\n"
	"<1 p.2 @0>\n positions:\n  p.2\n uses:\n  copy.2, operand 0\n"
	" from instruction: %p.2 = f32[4]{0} parameter(1)\n"
	"<2 copy.1 @0>\n positions:\n  copy.1\n uses:\n"
	" from instruction: %copy.1 = f32[4]{0} copy(%p.1)\n"
	"<3 copy.2 @0>\n positions:\n  copy.2\n uses:\n"
	" from instruction: %copy.2 = f32[4]{0} copy(%p.2)\n";

/* The same program after a recompile: ids renumbered, records swapped. */
static const char two_copies_twin[] =
	"BufferAssignment:\n"
	"allocation 0: size 16, parameter 1, shape |f32[4]| at ShapeIndex {}:\n"
	" value: <5 p.7 @0> (size=16,offset=0): f32[4]{0}\n"
	"allocation 1: size 16, parameter 0, shape |f32[4]| at ShapeIndex {}:\n"
	" value: <4 p.8 @0> (size=16,offset=0): f32[4]{0}\n"
	"allocation 2: size 32, preallocated-temp:\n"
	" value: <6 copy.2 @0> (size=16,offset=0): f32[4]{0}\n"
	" value: <7 copy.1 @0> (size=16,offset=16): f32[4]{0}\n"
	"\n"
	"Total bytes used: 64 (64B)\n"
	"\n"
	"Used values:\n"
	"<4 p.8 @0>\n positions:\n  p.8\n uses:\n  copy.2, operand 0\n"
	" from instruction: %p.8 = f32[4]{0} parameter(0)\n"
	"<5 p.7 @0>\n positions:\n  p.7\n uses:\n  copy.1, operand 0\n"
	" from instruction: %p.7 = f32[4]{0} parameter(1)\n"
	"<6 copy.2 @0>\n positions:\n  copy.2\n uses:\n"
	" from instruction: %copy.2 = f32[4]{0} copy(%p.8)\n"
	"<7 copy.1 @0>\n positions:\n  copy.1\n uses:\n"
	" from instruction: %copy.1 = f32[4]{0} copy(%p.7)\n";

static uint32_t value_named(const struct hd_dump *d, const char *key)
{
	return hd_dump_value_by_key(d, hd_slice_cstr(key));
}

static void test_structural(void)
{
	struct hd_dump d, t;
	struct hd_canon c;
	struct hd_match m;
	uint32_t c1, c2;

	if (hd_parse_buffer(&d, "<two copies>", two_copies,
			    sizeof(two_copies) - 1, 0) != 0 ||
	    hd_parse_buffer(&t, "<twin>", two_copies_twin,
			    sizeof(two_copies_twin) - 1, 0) != 0)
		bail("cannot parse the synthetic dumps");
	hd_canon_compute(&c, &d);
	c1 = value_named(&d, "copy.1");
	c2 = value_named(&d, "copy.2");
	ok(c1 != HD_NONE && c2 != HD_NONE, "both copies are values");
	if (c1 != HD_NONE && c2 != HD_NONE) {
		ok(c.value_canon[c1] == c.value_canon[c2],
		   "copy(%%p.1) and copy(%%p.2) have the same canonical hash");
		ok(c.value_struct[c1] != c.value_struct[c2],
		   "... but different structural hashes");
	}
	hd_canon_release(&c);

	/* The twin swapped the copies' names: content decides, not names. */
	hd_match_values(&m, &d, &t, 0);
	is_int(4, m.n_old - m.n_removed, "all four values of the twin paired");
	is_int(0, m.n_added, "nothing added");
	if (c1 != HD_NONE && c2 != HD_NONE) {
		is_int(value_named(&t, "copy.2"), m.old_to_new[c1],
		       "copy.1 of p.1 pairs with copy.2 of p.8 (same parameter 0)");
		is_int(value_named(&t, "copy.1"), m.old_to_new[c2],
		       "copy.2 of p.2 pairs with copy.1 of p.7 (same parameter 1)");
		is_int(HD_MATCH_STRUCTURAL, m.how[c1], "paired by structure");
	}
	hd_match_release(&m);

	hd_match_values(&m, &d, &t, HD_MATCH_BY_NAME_ONLY);
	is_int(2, m.n_old - m.n_removed, "--by-name pairs only the copies");
	if (c1 != HD_NONE)
		is_int(HD_MATCH_NAME, m.how[c1],
		       "--by-name: same name, other content is 'name'");
	hd_match_release(&m);
	hd_dump_release(&d);
	hd_dump_release(&t);
}

/* Two instructions that name each other (no real HLO does; operands
 * resolved through positions could), in two record orders. */
static const char cycle_a[] =
	"BufferAssignment:\n"
	"allocation 0: size 32, preallocated-temp:\n"
	" value: <0 x.1 @0> (size=16,offset=0): f32[4]{0}\n"
	" value: <1 y.1 @0> (size=16,offset=16): f32[4]{0}\n"
	"\n"
	"Used values:\n"
	"<0 x.1 @0>\n positions:\n  x.1\n uses:\n  y.1, operand 0\n"
	" from instruction: %x.1 = f32[4]{0} negate(%y.1)\n"
	"<1 y.1 @0>\n positions:\n  y.1\n uses:\n  x.1, operand 0\n"
	" from instruction: %y.1 = f32[4]{0} negate(%x.1)\n";

static const char cycle_b[] =
	"BufferAssignment:\n"
	"allocation 0: size 32, preallocated-temp:\n"
	" value: <3 y.5 @0> (size=16,offset=0): f32[4]{0}\n"
	" value: <4 x.9 @0> (size=16,offset=16): f32[4]{0}\n"
	"\n"
	"Used values:\n"
	"<3 y.5 @0>\n positions:\n  y.5\n uses:\n  x.9, operand 0\n"
	" from instruction: %y.5 = f32[4]{0} negate(%x.9)\n"
	"<4 x.9 @0>\n positions:\n  x.9\n uses:\n  y.5, operand 0\n"
	" from instruction: %x.9 = f32[4]{0} negate(%y.5)\n";

static void test_cycle(void)
{
	struct hd_dump a, b;
	struct hd_canon ca, cb;
	struct hd_match m;
	uint32_t xa, xb;

	if (hd_parse_buffer(&a, "<cycle a>", cycle_a, sizeof(cycle_a) - 1, 0) ||
	    hd_parse_buffer(&b, "<cycle b>", cycle_b, sizeof(cycle_b) - 1, 0))
		bail("cannot parse the cycle dumps");
	hd_canon_compute(&ca, &a);
	hd_canon_compute(&cb, &b);
	is_int(2, ca.n_cyclic, "a cycle of two instructions is broken");
	xa = value_named(&a, "x.1");
	xb = value_named(&b, "x.9");
	ok(xa != HD_NONE && xb != HD_NONE &&
	   ca.value_struct[xa] == cb.value_struct[xb],
	   "the structural hash on a cycle does not depend on record order");
	hd_match_values(&m, &a, &b, 0);
	ok(xa != HD_NONE && m.old_to_new[xa] == xb, "x.1 pairs with x.9");
	is_int(0, m.n_added + m.n_removed, "cycle: nothing added or removed");
	hd_match_release(&m);
	hd_canon_release(&ca);
	hd_canon_release(&cb);
	hd_dump_release(&a);
	hd_dump_release(&b);
}

/*
 * An instruction longer than canon.c's buffers: a name of 12000 bytes,
 * 5000 unresolved operands of one stripped name, then 3 of another.  The
 * hashes must be those of the whole text and of the whole operand list,
 * computed here independently.
 */
static void test_long_insn(void)
{
	enum { N_P = 5000, N_Q = 3, NAME_N = 12000 };
	size_t cap = 256 * 1024, o = 0, tn, k;
	char *name = malloc(NAME_N + 16), *insn = malloc(cap / 2);
	char *buf = malloc(cap), *text = NULL, *stripped = malloc(NAME_N + 16);
	uint64_t words[N_P + N_Q], hp, hq;
	struct hd_dump d;
	struct hd_canon c;
	size_t tcap = 0, sn;

	if (!name || !insn || !buf || !stripped)
		bail("out of memory");
	for (k = 0; k < NAME_N - 8; k++)
		name[k] = k % 7 == 6 ? '_' : (char)('a' + k % 26);
	memcpy(name + k, ".12.x.3", 8);         /* -> ".x" */
	o = (size_t)snprintf(insn, cap / 2, "%%%s = f32[4]{0} concatenate(", name);
	for (k = 0; k < N_P + N_Q; k++)
		o += (size_t)snprintf(insn + o, cap / 2 - o, "%s%%%s.%zu",
				      k ? ", " : "", k < N_P ? "p" : "q", k);
	snprintf(insn + o, cap / 2 - o, "), dimensions={0}");
	if (parse_one_insn(&d, name, insn, buf, cap) != 0 || d.insns.len != 1)
		bail("cannot parse the long instruction");
	hd_canon_compute(&c, &d);
	tn = hd_canon_insn_text(&HD_INSN(&d, 0), &text, &tcap);
	sn = hd_canon_name(stripped, hd_slice_cstr(name));
	ok(tn > sn && memcmp(text, stripped, sn) == 0 && text[sn] == '\0',
	   "long instruction: the text starts with the stripped name");
	is_int(NAME_N - 8 + 2, sn, "long name: .12 and .3 dropped");
	ok(c.insn_canon[0] == XXH3_64bits(text, tn),
	   "long instruction: canonical hash = XXH3 of the whole text");
	hp = XXH3_64bits("p", 1);
	hq = XXH3_64bits("q", 1);
	for (k = 0; k < N_P + N_Q; k++)
		words[k] = k < N_P ? hp : hq;
	ok(c.insn_struct[0] ==
	   XXH3_64bits_withSeed(words, sizeof(words), c.insn_canon[0]),
	   "long instruction: structural hash folds all %d operands", N_P + N_Q);
	hd_canon_release(&c);
	hd_dump_release(&d);
	free(text);
	free(name);
	free(insn);
	free(buf);
	free(stripped);
}

/* ------------------------------------------------------------------ */
/* Seeds: against themselves and against their recompile twin           */

static void seed_path(char *buf, size_t n, int i)
{
	snprintf(buf, n, "%s/tests/data/seed-%03d.txt", srcdir, i);
}

static void test_self(void)
{
	char path[512];
	int i;

	for (i = 0; i < N_SEEDS; i++) {
		struct hd_dump a, b;
		struct hd_match m;
		uint32_t v, same = 0;

		seed_path(path, sizeof(path), i);
		parse_or_bail(&a, path);
		parse_or_bail(&b, path);
		hd_match_values(&m, &a, &b, 0);
		for (v = 0; v < m.n_old; v++)
			same += m.old_to_new[v] == v && m.how[v] == HD_MATCH_EXACT;
		ok(m.n_old > 0, "seed %d has values", i);
		is_int(m.n_old, same, "seed %d against itself: every pair exact", i);
		is_int(m.n_old, m.count[HD_MATCH_EXACT], "seed %d: count[exact]", i);
		is_int(0, m.n_added + m.n_removed, "seed %d: nothing added or removed", i);
		hd_match_release(&m);
		hd_dump_release(&a);
		hd_dump_release(&b);
	}
}

/* Reads the MAPPING of recompile-twin into a table old key -> line. */
struct mapping {
	char *text;
	struct hd_arena arena;
	struct hd_table table;
	struct hd_vec news;     /* struct hd_slice, by line */
};

static int mapping_read(struct mapping *mp, const char *path)
{
	FILE *f = fopen(path, "r");
	long len;
	char *p, *end;

	memset(mp, 0, sizeof(*mp));
	mp->news = (struct hd_vec)HD_VEC_INIT(struct hd_slice);
	hd_table_init(&mp->table, &mp->arena);
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	mp->text = hd_xmalloc((size_t)len + 1);
	if (fread(mp->text, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	mp->text[len] = '\0';
	for (p = mp->text; p < mp->text + len; p = end + 1) {
		char *sp;
		struct hd_slice *nw;

		end = strchr(p, '\n');
		if (!end)
			end = mp->text + len;
		sp = memchr(p, ' ', (size_t)(end - p));
		if (!sp)
			continue;
		nw = hd_vec_push(&mp->news);
		*nw = hd_slice_make(sp + 1, (size_t)(end - sp - 1));
		hd_table_put(&mp->table, hd_slice_make(p, (size_t)(sp - p)),
			     (uint32_t)mp->news.len - 1);
	}
	return 0;
}

static void mapping_release(struct mapping *mp)
{
	hd_table_release(&mp->table);
	hd_arena_release(&mp->arena);
	hd_vec_release(&mp->news);
	free(mp->text);
}

/*
 * Runs recompile-twin on in; returns 0 and the twin and mapping paths,
 * or -1.
 */
static int make_twin(const char *in, int tag, char *twin, char *map,
		     size_t n)
{
	char cmd[2048];

	snprintf(twin, n, "%s/twin-%d.txt", tmpdir, tag);
	snprintf(map, n, "%s/map-%d.txt", tmpdir, tag);
	snprintf(cmd, sizeof(cmd),
		 "python3 '%s/scripts/recompile-twin' --seed %d '%s' '%s' '%s'",
		 srcdir, 11 + tag, in, twin, map);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_twins(void)
{
	char path[512], twin[512], map[512], key[512];
	int i;

	for (i = 0; i < N_SEEDS; i++) {
		struct hd_dump a, b;
		struct hd_match m, m2;
		struct mapping mp;
		uint32_t v, right = 0, names = 0, by_name_ok = 0;

		if (!have_python) {
			skip("no python3 for scripts/recompile-twin");
			continue;
		}
		seed_path(path, sizeof(path), i);
		if (make_twin(path, i, twin, map, sizeof(twin)) != 0 ||
		    mapping_read(&mp, map) != 0) {
			ok(0, "recompile-twin on seed %d", i);
			continue;
		}
		parse_or_bail(&a, path);
		parse_or_bail(&b, twin);
		hd_match_values(&m, &a, &b, 0);
		for (v = 0; v < m.n_old; v++) {
			uint32_t line = hd_table_get(&mp.table,
				hd_slice_cstr(key_of(&a, v, key, sizeof(key))));
			struct hd_slice want;

			if (line == HD_NONE || m.old_to_new[v] == HD_NONE)
				continue;
			want = HD_VEC_AT(&mp.news, struct hd_slice, line);
			key_of(&b, m.old_to_new[v], key, sizeof(key));
			right += hd_slice_eq_cstr(want, key);
		}
		is_int(m.n_old, right, "seed %d twin: every value paired with its true partner", i);
		is_int(0, m.n_added + m.n_removed, "seed %d twin: nothing added or removed", i);

		hd_match_values(&m2, &a, &b, 0);
		ok(memcmp(m.old_to_new, m2.old_to_new,
			  m.n_old * sizeof(uint32_t)) == 0 &&
		   memcmp(m.how, m2.how, m.n_old) == 0,
		   "seed %d twin: matching is deterministic", i);
		hd_match_release(&m2);

		/* --by-name pairs exactly the names the twin left alone. */
		hd_match_values(&m2, &a, &b, HD_MATCH_BY_NAME_ONLY);
		for (v = 0; v < m2.n_old; v++) {
			char k2[512];

			key_of(&a, v, key, sizeof(key));
			if (hd_dump_value_by_key(&b, hd_slice_cstr(key)) != HD_NONE)
				names++;
			if (m2.old_to_new[v] != HD_NONE &&
			    strcmp(key, key_of(&b, m2.old_to_new[v], k2, sizeof(k2))) == 0)
				by_name_ok++;
		}
		is_int(names, m2.n_old - m2.n_removed, "seed %d twin: --by-name pairs every shared name", i);
		is_int(names, by_name_ok, "seed %d twin: --by-name pairs only equal names", i);
		hd_match_release(&m2);

		hd_match_release(&m);
		mapping_release(&mp);
		hd_dump_release(&a);
		hd_dump_release(&b);
		remove(twin);
		remove(map);
	}
}

/* ------------------------------------------------------------------ */
/* Schedule order with ids and live starts that do not fit one word     */

/*
 * Five equal constants (one group), their names all different across
 * the two dumps, so the schedule pass pairs them by order: live start,
 * then id, values without a live range last.  Ids past 2^32 (clamped to
 * 32 bits, not ascending) and starts near 2^32 need 32 + 32 + 3 bits
 * with the value index: more than side_order's one 64-bit item, so it
 * sorts by id, then stably by start.  The sequence would need 2^32
 * entries, hence --allow-incomplete.
 */
struct wide_value {
	const char *name;
	long long id, start;        /* start -1: no live range */
};

static int parse_wide(struct hd_dump *d, const struct wide_value *v,
		      char *buf, size_t n)
{
	size_t at = 0;
	int k;

#define W(...) (at += (size_t)snprintf(buf + at, at < n ? n - at : 0, __VA_ARGS__))
	W("BufferAssignment:\nallocation 0: size 80, preallocated-temp:\n");
	for (k = 0; k < 5; k++)
		W(" value: <%lld %s @0> (size=16,offset=%d): f32[4]{0}\n",
		  v[k].id, v[k].name, 16 * k);
	W("\nTotal bytes used: 80 (80B)\n\nUsed values:\n");
	for (k = 0; k < 5; k++)
		W("<%lld %s @0>\n positions:\n  %s\n uses:\n"
		  " from instruction: %%%s = f32[4]{0} constant({1, 2, 3, 4})\n",
		  v[k].id, v[k].name, v[k].name, v[k].name);
	W("HloLiveRange (max 4294967300):\n  InstructionSequence:\n"
	  "    0:%s\n  BufferLiveRange:\n", v[0].name);
	for (k = 0; k < 5; k++)
		if (v[k].start >= 0)
			W("    %s{}:%lld-%lld\n", v[k].name, v[k].start,
			  v[k].start + 2);
#undef W
	if (at >= n)
		bail("wide schedule dump does not fit its buffer");
	return hd_parse_buffer(d, "<wide>", buf, at, HD_PARSE_ALLOW_INCOMPLETE);
}

static void test_wide_schedule(void)
{
	static const struct wide_value old_v[5] = {
		{ "constant.1", 4294967301LL, 4294967290LL },
		{ "constant.2", 7, 4294967290LL },
		{ "constant.3", 4294967299LL, 5 },
		{ "constant.4", 3, -1 },
		{ "constant.5", 9, 4294967296LL },
	};
	static const struct wide_value new_v[5] = {
		{ "constant.11", 2, 5 },
		{ "constant.12", 4294967310LL, 4294967290LL },
		{ "constant.13", 8, -1 },
		{ "constant.14", 4294967305LL, 4294967290LL },
		{ "constant.15", 1, 4294967297LL },
	};
	/* old by (start, id): 3, 2, 1, 5, 4; new: 11, 12 and 14 (equal
	 * start and clamped id: dump order), 15, 13 */
	static const char *const want[5][2] = {
		{ "constant.3{}", "constant.11{}" },
		{ "constant.2{}", "constant.12{}" },
		{ "constant.1{}", "constant.14{}" },
		{ "constant.5{}", "constant.15{}" },
		{ "constant.4{}", "constant.13{}" },
	};
	static char ob[4096], nb[4096];
	struct hd_dump a, b;
	struct hd_match m;
	int k;

	struct hd_diag_held held = { NULL, NULL, 0 };
	int rc;

	hd_diag_hold(&held);    /* the sequence's warnings, checked here */
	rc = parse_wide(&a, old_v, ob, sizeof(ob)) != 0 ||
	     parse_wide(&b, new_v, nb, sizeof(nb)) != 0;
	hd_diag_unhold(&held);
	if (rc)
		bail("cannot parse the wide schedule dumps");
	ok(held.buf && strstr(held.buf, "read as incomplete"),
	   "wide ids and starts: read as incomplete (a short sequence)");
	free(held.buf);
	hd_match_values(&m, &a, &b, 0);
	for (k = 0; k < 5; k++) {
		uint32_t o = value_named(&a, want[k][0]);
		uint32_t n = value_named(&b, want[k][1]);

		ok(o != HD_NONE && n != HD_NONE && m.old_to_new[o] == n &&
		   m.how[o] == HD_MATCH_SCHEDULE,
		   "wide ids and starts: %s pairs with %s by schedule",
		   want[k][0], want[k][1]);
	}
	hd_match_release(&m);
	hd_dump_release(&a);
	hd_dump_release(&b);
}

/* ------------------------------------------------------------------ */
/* Corpus pairs (SOURCES.md, "Pairs / series")                          */

/* The one corpus file matching pattern (relative to HD_CORPUS). */
static int corpus_file(const char *corpus, const char *pattern, char *out,
		       size_t n)
{
	char pat[1024];
	glob_t g;
	int rc = -1;

	snprintf(pat, sizeof(pat), "%s/%s", corpus, pattern);
	if (glob(pat, 0, NULL, &g) == 0) {
		if (g.gl_pathc == 1) {
			snprintf(out, n, "%s", g.gl_pathv[0]);
			rc = 0;
		}
		globfree(&g);
	}
	return rc;
}

static const char *const metadata_pairs[][2] = {
	{ "gpu/lorraxsbx-si04-simplefused__*-buffer-assignment.txt",
	  "gpu/lorraxsbx-si04-fusedclean__*-buffer-assignment.txt" },
	{ "gpu/lorraxsbx-si04-fusedclean__*-buffer-assignment.txt",
	  "gpu/lorraxsbx-si04-simplefused2__*-buffer-assignment.txt" },
	{ "gpu/lorraxsbx-si04-simplefinal__*-buffer-assignment.txt",
	  "gpu/lorraxsbx-si04-simple3dfft__*-buffer-assignment.txt" },
	{ "gpu/lorraxsbx-si04-baseline__*-buffer-assignment.txt",
	  "gpu/lorraxsbx-si04-vcoul-bse__*-buffer-assignment.txt" },
	{ "tpu/justabyte-ppost-kernel__module_0021.*-buffer-assignment.txt",
	  "tpu/justabyte-ppost-ref__module_0021.*-buffer-assignment.txt" },
	{ "tpu/justabyte-ppost-kernel__module_0015.*-buffer-assignment.txt",
	  "tpu/justabyte-ppost-ref__module_0015.*-buffer-assignment.txt" },
	{ "tpu/justabyte-ppost-kernel__module_0004.*-buffer-assignment.txt",
	  "tpu/justabyte-ppost-ref__module_0004.*-buffer-assignment.txt" },
	{ "tpu/justabyte-ppost-kernel__module_0010.*-buffer-assignment.txt",
	  "tpu/justabyte-ppost-ref__module_0010.*-buffer-assignment.txt" },
};

#define N_META (sizeof(metadata_pairs) / sizeof(metadata_pairs[0]))

static void test_corpus(void)
{
	const char *corpus = getenv("HD_CORPUS");
	char a_path[1024], b_path[1024];
	size_t i;

	for (i = 0; i < N_META; i++) {
		struct hd_dump a, b;
		struct hd_match m;

		if (!corpus || !*corpus) {
			skip("HD_CORPUS unset");
			skip("HD_CORPUS unset");
			skip("HD_CORPUS unset");
			continue;
		}
		if (corpus_file(corpus, metadata_pairs[i][0], a_path, sizeof(a_path)) ||
		    corpus_file(corpus, metadata_pairs[i][1], b_path, sizeof(b_path))) {
			ok(0, "corpus pair %zu: files %s, %s", i,
			   metadata_pairs[i][0], metadata_pairs[i][1]);
			skip("missing file");
			skip("missing file");
			continue;
		}
		parse_or_bail(&a, a_path);
		parse_or_bail(&b, b_path);
		hd_match_values(&m, &a, &b, 0);
		ok(m.n_old > 0 && m.n_old == m.n_new,
		   "metadata-only pair %zu has the same number of values (%u, %u)",
		   i, m.n_old, m.n_new);
		is_int(0, m.n_added + m.n_removed,
		       "metadata-only pair %zu: nothing added or removed", i);
		is_int(m.n_old, m.count[HD_MATCH_EXACT],
		       "metadata-only pair %zu: every value paired exactly", i);
		hd_match_release(&m);
		hd_dump_release(&a);
		hd_dump_release(&b);
	}

	/* A real change (simple -> simplefused): most values still pair. */
	if (!corpus || !*corpus) {
		skip("HD_CORPUS unset");
		return;
	}
	if (corpus_file(corpus, "gpu/lorraxsbx-si04-simple__*-buffer-assignment.txt",
			a_path, sizeof(a_path)) ||
	    corpus_file(corpus, "gpu/lorraxsbx-si04-simplefused__*-buffer-assignment.txt",
			b_path, sizeof(b_path))) {
		ok(0, "corpus pair simple/simplefused present");
		return;
	}
	{
		struct hd_dump a, b;
		struct hd_match m;

		parse_or_bail(&a, a_path);
		parse_or_bail(&b, b_path);
		hd_match_values(&m, &a, &b, 0);
		ok(m.n_old - m.n_removed >= m.n_old * 9 / 10,
		   "real change simple -> simplefused: %u of %u values paired",
		   m.n_old - m.n_removed, m.n_old);
		hd_match_release(&m);
		hd_dump_release(&a);
		hd_dump_release(&b);
	}
}

int main(void)
{
	const char *t = getenv("TMPDIR");

	srcdir = getenv("HD_SRCDIR");
	if (!srcdir || !*srcdir)
		srcdir = ".";
	snprintf(tmpdir, sizeof(tmpdir), "%s/hd-match.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir))
		bail("cannot create a temporary directory");
	have_python = system("python3 -c '' >/dev/null 2>&1") == 0;

	plan_lazy();
	test_names();
	test_canonical();
	test_structural();
	test_cycle();
	test_long_insn();
	test_self();
	test_twins();
	test_wide_schedule();
	test_corpus();
	rmdir(tmpdir);
	return 0;
}
