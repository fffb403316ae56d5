/*
 * test_parse_metadata.c - an instruction's metadata={...}: op_name,
 * source_file and source_line as the parser keeps them, for the usual
 * form (read straight through, read_metadata_usual in src/parse.c) and
 * every way out of it into the item loop: other orders, repeated keys,
 * two spaces, escaped quotes, brackets inside strings, unknown and
 * uppercase keys, a bad or empty number, empty strings, a long tail; each
 * with and without a backend_config after it.  The values are those of
 * the parser before the usual form had its own path (b76a241).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/parse.h"
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
};

static int slice_is(struct hd_slice s, const char *want)
{
	if (!want)
		return s.n == 0;
	return s.n == strlen(want) && memcmp(s.p, want, s.n) == 0;
}

static void check_case(const struct meta_case *c, const char *after)
{
	static const char head[] =
		"BufferAssignment:\n"
		"allocation 0: size 4, preallocated-temp:\n"
		" value: <1 add.1 @0> (size=4,offset=0): f32[]\n\n"
		"Used values:\n<1 add.1 @0>\n positions:\n  add.1\n uses:\n"
		" from instruction: %add.1 = f32[]{:T(128)} add(%p.1, %p.2), "
		"metadata={";
	size_t n = strlen(head) + strlen(c->metadata) + strlen(after) + 4;
	char *text = malloc(n);
	struct hd_dump d;
	int rc;

	n = (size_t)snprintf(text, n, "%s%s}%s\n", head, c->metadata, after);
	/* the parser finds the metadata's place for the canonical
	 * pre-walk (HD_PARSE_CANON) only */
	rc = hd_parse_buffer(&d, "meta", text, n, HD_PARSE_ALLOW_INCOMPLETE);
	if (ok(rc == 0 && d.insns.len == 1, "{%s}%s: parses", c->metadata,
	       after[0] ? " + backend_config" : ""))
		ok(hd_insn_metadata(&HD_INSN(&d, 0)).n == 0,
		   "{%s}%s: no metadata place without the pre-walk",
		   c->metadata, after[0] ? " + backend_config" : "");
	hd_dump_release(&d);
	rc = hd_parse_buffer(&d, "meta", text, n,
			     HD_PARSE_ALLOW_INCOMPLETE | HD_PARSE_CANON);
	if (ok(rc == 0 && d.insns.len == 1, "{%s}%s: parses (pre-walk)",
	       c->metadata, after[0] ? " + backend_config" : "")) {
		struct hd_insn_source in = hd_insn_source_of(&d, 0);

		ok(slice_is(in.op_name, c->op_name) &&
		   slice_is(in.source_file, c->source_file) &&
		   in.source_line == c->source_line,
		   "{%s}%s: op_name, source_file, source_line", c->metadata,
		   after[0] ? " + backend_config" : "");
		ok(slice_is(hd_insn_metadata(&HD_INSN(&d, 0)), c->metadata),
		   "{%s}%s: the metadata's text", c->metadata,
		   after[0] ? " + backend_config" : "");
	}
	hd_dump_release(&d);
	free(text);
}

int main(void)
{
	size_t i;

	plan_lazy();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_case(&cases[i], "");
		check_case(&cases[i], ", backend_config={\"flag_configs\":[]}");
	}
	return 0;
}
