/*
 * test_parse_metadata.c - an instruction's metadata={...}: op_name,
 * source_file and source_line as the parser keeps them, for the usual
 * form (read straight through, read_metadata_usual in src/parse_insn.c) and
 * every way out of it into the item loop: other orders, repeated keys,
 * two spaces, escaped quotes, brackets inside strings, unknown and
 * uppercase keys, a bad or empty number, empty strings, a long tail; each
 * with and without a backend_config after it.  The values are those of
 * the parser before the usual form had its own path (b76a241).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/canon.h"
#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

struct meta_case {
	const char *metadata;   /* inside metadata={...} */
	const char *op_name;    /* NULL: none kept (empty slice) */
	const char *source_file;
	long long source_line;  /* -1: none */
};

static const struct meta_case cases[] = {
	{ "op_name=\"jit(f)/a/b\" source_file=\"/x/f.py\" source_line=41",
	  "jit(f)/a/b", "/x/f.py", 41 },
	{ "op_name=\"jit(f)/a/b\" source_file=\"/x/f.py\" source_line=41 "
	  "source_end_line=42 source_column=17 source_end_column=50",
	  "jit(f)/a/b", "/x/f.py", 41 },
	{ "source_file=\"f.py\" source_line=7", NULL, "f.py", 7 },
	{ "op_name=\"only\"", "only", NULL, -1 },
	{ "", NULL, NULL, -1 },
	{ "op_name=\"q\\\"uote\" source_file=\"f.py\" source_line=3",
	  "q\\\"uote", "f.py", 3 },
	{ "source_line=5 op_name=\"z\"", "z", NULL, 5 },
	{ "op_name=\"a\" op_name=\"b\"", "b", NULL, -1 },
	{ "op_name=\"a\"  source_file=\"two spaces\" source_line=9",
	  "a", "two spaces", 9 },
	{ "op_name=\"f(x)/{y}/[z]\" source_line=12", "f(x)/{y}/[z]", NULL, 12 },
	{ "Op_name=\"upper\" source_line=2", NULL, NULL, 2 },
	{ "op_name=\"a\" source_file=\"f\" source_line=1 source_end_line=1 "
	  "source_column=1 source_end_column=1 profile_type={1} "
	  "deduplicated_name=\"fusion.1\" scheduling_name=\"fusion.1\"",
	  "a", "f", 1 },
	{ "op_name=\"a\" source_file=\"f\" source_line=", "a", "f", -1 },
	{ "op_name=\"\"", NULL, NULL, -1 },
	{ "op_name=\"a\" source_file=\"\" source_line=0", "a", NULL, 0 },
	{ "op_name=\"a\" stack_frame_id=3 source_line=8", "a", NULL, 8 },
	/* the usual tail, read literally (usual_plain_tail), with numbers
	 * long enough to run past 64 bytes, and near misses of it */
	{ "op_name=\"a\" source_file=\"f\" source_line=1 "
	  "source_end_line=123456789012 source_column=123456789012 "
	  "source_end_column=123456789012", "a", "f", 1 },
	{ "op_name=\"a\" source_file=\"f\" source_line=1 "
	  "source_end_line=2 source_column=3 source_end_column=", "a", "f", 1 },
	{ "op_name=\"a\" source_file=\"f\" source_line=1 "
	  "source_end_line=2 source_column=x3 source_end_column=4", "a", "f", 1 },
	{ "op_name=\"a\" source_file=\"f\" source_line=1 "
	  "source_end_line=2 source_column=3 source_end_column=4 "
	  "op_name=\"b\"", "b", "f", 1 },
	{ "op_name=\"a\" source_file=\"f\" source_line=1 "
	  "source_end_line=2 source_column=3", "a", "f", 1 },
	/* items after op_name that newer XLA prints (usual_items) */
	{ "op_name=\"a\" stack_frame_id=3", "a", NULL, -1 },
	{ "op_name=\"a\" source_file=\"f\" source_line=4 "
	  "scheduling_name=\"fusion.2\"", "a", "f", 4 },
	{ "scheduling_name=\"fusion.2\"", NULL, NULL, -1 },
	{ "deduplicated_name=\"x\" scheduling_name=\"y\"", NULL, NULL, -1 },
	{ "scheduling_name=\"y\" op_name=\"late\"", "late", NULL, -1 },
	{ "op_name=\"a\" scheduling_name=\"y\" op_name=\"b\"", "b", NULL, -1 },
	{ "op_name=\"a\" scheduling_name=\"q\\\"x\"", "a", NULL, -1 },
	{ "op_name=\"a\" k=(1)", "a", NULL, -1 },
	{ "op_name=\"a\" =3", "a", NULL, -1 },
	{ "op_name=\"a\"  stack_frame_id=3", "a", NULL, -1 },
};

static int slice_is(struct hd_slice s, const char *want)
{
	if (!want)
		return s.n == 0;
	return s.n == strlen(want) && memcmp(s.p, want, s.n) == 0;
}

/*
 * The dump of one case: its instruction line, then pad empty lines (64
 * of them put readable bytes after the attributes, where the scanners
 * read whole blocks; none leave the attributes at the input's end).
 */
static char *case_text(const struct meta_case *c, const char *after,
		       int pad, size_t *len)
{
	static const char head[] =
		"BufferAssignment:\n"
		"allocation 0: size 4, preallocated-temp:\n"
		" value: <1 add.1 @0> (size=4,offset=0): f32[]\n\n"
		"Used values:\n<1 add.1 @0>\n positions:\n  add.1\n uses:\n"
		" from instruction: %add.1 = f32[]{:T(128)} add(%p.1, %p.2), "
		"metadata={";
	size_t n = strlen(head) + strlen(c->metadata) + strlen(after) + 4 +
		   (pad ? 64 : 0);
	char *text = malloc(n);

	n = (size_t)snprintf(text, n, "%s%s}%s\n%s", head, c->metadata, after,
			     pad ? "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
				   "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
				   "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
				   "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n" : "");
	*len = n;
	return text;
}

static void check_case(const struct meta_case *c, const char *after, int pad)
{
	const char *what = after[0] ? " + backend_config" : "";
	const char *how = pad ? "" : " (at the end)";
	size_t n;
	char *text = case_text(c, after, pad, &n);
	struct hd_dump d, plain;
	struct hd_canon cp, cc;
	int rc;

	/* the parser finds the metadata's place (and op_name) for the
	 * canonical pre-walk (HD_PARSE_CANON) only */
	rc = hd_parse_buffer(&plain, "meta", text, n, HD_PARSE_ALLOW_INCOMPLETE);
	if (ok(rc == 0 && plain.insns.len == 1, "{%s}%s%s: parses", c->metadata,
	       what, how))
		ok(hd_insn_metadata(&HD_INSN(&plain, 0)).n == 0,
		   "{%s}%s%s: no metadata place without the pre-walk",
		   c->metadata, what, how);
	rc = tap_parse_buffer(&d, "meta", text, n,
			      HD_PARSE_ALLOW_INCOMPLETE | HD_PARSE_CANON);
	if (ok(rc == 0 && d.insns.len == 1, "{%s}%s%s: parses (pre-walk)",
	       c->metadata, what, how)) {
		struct hd_insn_source in = hd_insn_source_of(&d, 0);

		ok(slice_is(in.op_name, c->op_name) &&
		   slice_is(in.source_file, c->source_file) &&
		   in.source_line == c->source_line,
		   "{%s}%s%s: op_name, source_file, source_line", c->metadata,
		   what, how);
		ok(slice_is(hd_insn_metadata(&HD_INSN(&d, 0)), c->metadata),
		   "{%s}%s%s: the metadata's text", c->metadata, what, how);
		/* the op_name and place the pre-walk took give the hashes
		 * of the metadata read again (hd_insn_source_of) and
		 * walked as any other item */
		if (plain.insns.len == 1) {
			hd_canon_compute(&cp, &plain);
			hd_canon_compute(&cc, &d);
			ok(!memcmp(cp.insn_loose, cc.insn_loose,
				   HD_LOOSE_PARTS * sizeof(uint64_t)) &&
			   cp.value_canon[0] == cc.value_canon[0],
			   "{%s}%s%s: the pre-walk's op_name, source and hashes",
			   c->metadata, what, how);
			hd_canon_release(&cp);
			hd_canon_release(&cc);
		}
	}
	hd_dump_release(&plain);
	hd_dump_release(&d);
	free(text);
}

int main(void)
{
	size_t i;

	plan_lazy();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int pad;

		for (pad = 0; pad < 2; pad++) {
			check_case(&cases[i], "", pad);
			check_case(&cases[i],
				   ", backend_config={\"flag_configs\":[]}", pad);
		}
	}
	return 0;
}
