/*
 * test_batch.c - module names of dump and golden files, pairing by module
 * (src/batch.c), the escapes of the GitHub, XML and golden formats, and
 * the golden round trip of a hand-made dump with escapes in its strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/batch.h"
#include "hlodiff/canon.h"
#include "hlodiff/golden.h"
#include "hlodiff/parse.h"
#include "hlodiff/report.h"
#include "tap/tap.h"

static const char *module_of(const char *path, long long *counter, int *golden)
{
	static char buf[256];
	int64_t c;

	*golden = hd_file_module(path, buf, sizeof(buf), &c);
	*counter = c;
	return buf;
}

static void test_names(void)
{
	static const struct {
		const char *path, *module;
		long long counter;
		int golden;
	} cases[] = {
		{ "d/module_0035.jit_attn.cl_7.after_optimizations-buffer-assignment.txt", "jit_attn", 35, 0 },
		{ "1700000000.module_0001.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt.gz", "jit_f", 1, 0 },
		{ "module_0012.cpu_after_optimizations-buffer-assignment.txt", "unnamed", 12, 0 },
		{ "x/prefix__module_00123.jit_g.cpu_after_optimizations-buffer-assignment.txt", "jit_g", 123, 0 },
		{ "g/jit_attn.golden", "jit_attn", 1, 1 },
		{ "g/jit_attn#3.golden.gz", "jit_attn", 3, 1 },
		{ "g/jit#x.golden", "jit#x", 1, 1 },
		{ ".golden", "unnamed", 1, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long long c;
		int g;
		const char *m = module_of(cases[i].path, &c, &g);

		is_string(cases[i].module, m, "module of %s", cases[i].path);
		is_int(cases[i].counter, c, "counter of %s", cases[i].path);
		is_int(cases[i].golden, g, "golden name? %s", cases[i].path);
	}
	ok(hd_is_dump_name("a-buffer-assignment.txt"), "a dump name");
	ok(hd_is_dump_name("a-buffer-assignment.txt.gz"), "a .gz dump name");
	ok(!hd_is_dump_name("a-buffer-assignment-values.txt"), "a companion is not a dump");
	ok(!hd_is_dump_name("a-live-range.txt"), "a live-range companion is not a dump");
	ok(hd_is_golden_name("a.golden") && hd_is_golden_name("a.golden.gz"), "golden names");
}

/* "label old new status" of each job, one per line. */
static void jobs_text(const struct hd_vec *jobs, char *buf, size_t n)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < jobs->len && o < n; i++) {
		const struct hd_job *j = &HD_VEC_AT(jobs, struct hd_job, i);

		o += (size_t)snprintf(buf + o, n - o, "%s %s %s %d%s\n", j->label,
				      j->old_path ? j->old_path : "-",
				      j->new_path ? j->new_path : "-", j->absent_status,
				      j->note ? " note" : "");
	}
}

static void test_pairing(void)
{
	struct hd_arena a = HD_ARENA_INIT;
	struct hd_vec o = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec n = HD_VEC_INIT(struct hd_module_file);
	struct hd_vec jobs = HD_VEC_INIT(struct hd_job);
	char buf[2048];

	hd_add_file("o/module_0029.jit_b.x-buffer-assignment.txt", &o, &a);
	hd_add_file("o/module_0021.jit_b.x-buffer-assignment.txt", &o, &a);
	hd_add_file("o/module_0003.jit_a.x-buffer-assignment.txt", &o, &a);
	hd_add_file("o/module_0005.jit_c.x-buffer-assignment.txt", &o, &a);
	hd_add_file("n/module_0041.jit_b.x-buffer-assignment.txt", &n, &a);
	hd_add_file("n/module_0007.jit_a.x-buffer-assignment.txt", &n, &a);
	hd_add_file("n/module_0009.jit_d.x-buffer-assignment.txt.gz", &n, &a);
	hd_pair_files(&jobs, &a, &o, &n, 0, 2, 0);
	jobs_text(&jobs, buf, sizeof(buf));
	is_string("jit_a o/module_0003.jit_a.x-buffer-assignment.txt n/module_0007.jit_a.x-buffer-assignment.txt 0\n"
		  "jit_b#1 o/module_0021.jit_b.x-buffer-assignment.txt n/module_0041.jit_b.x-buffer-assignment.txt 0 note\n"
		  "jit_b#2 o/module_0029.jit_b.x-buffer-assignment.txt - 0 note\n"
		  "jit_c o/module_0005.jit_c.x-buffer-assignment.txt - 0\n"
		  "jit_d - n/module_0009.jit_d.x-buffer-assignment.txt.gz 2\n",
		  buf, "pairs by module name, compiles in counter order, one-sided ones last in their group");
	hd_vec_release(&o);
	hd_vec_release(&n);
	hd_vec_release(&jobs);
	hd_arena_release(&a);
}

/* What fn writes for s, as a string. */
static const char *escaped(void (*fn)(FILE *, const char *, size_t), const char *s)
{
	static char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fn(f, s, strlen(s));
	fclose(f);
	return buf;
}

static void test_escapes(void)
{
	is_string("a%25b%0D%0Ac:d,e", escaped(hd_github_escape_data, "a%b\r\nc:d,e"),
		  "GitHub message data: %%, CR, LF");
	is_string("a%25b%0D%0Ac%3Ad%2Ce", escaped(hd_github_escape_property, "a%b\r\nc:d,e"),
		  "GitHub property: also : and ,");
	is_string("&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;", escaped(hd_xml_escape, "<a> & \"b\" 'c'"),
		  "XML entities");
	is_string("a?b\tc", escaped(hd_xml_escape, "a\001b\tc"), "XML: control bytes masked, TAB kept");
	is_string("\xc3\xa9?", escaped(hd_xml_escape, "\xc3\xa9\xff"), "XML: valid UTF-8 kept, a stray byte masked");
	is_string("??", escaped(hd_xml_escape, "\xc0\xaf"), "XML: an overlong form masked");
}

static void test_formats(void)
{
	enum hd_format f;
	int i;

	for (i = 0; i < HD_FORMAT_COUNT; i++)
		ok(hd_format_parse(hd_format_name((enum hd_format)i), &f) == 0 && (int)f == i,
		   "format %s parses back", hd_format_name((enum hd_format)i));
	ok(hd_format_parse("md", &f) == 0 && f == HD_FORMAT_MARKDOWN, "md is markdown");
	ok(hd_format_parse("xml", &f) < 0, "xml is no format");
}

/* A dump whose op_name holds a TAB and backslashes, written to a golden
 * and read back: the same strings, the same hashes. */
static void test_golden_escapes(void)
{
	static const char dump[] =
		"BufferAssignment:\n"
		"allocation 0: size 16, parameter 0, shape |f32[4]| at ShapeIndex {}:\n"
		" value: <0 p.1 @0> (size=16,offset=0): f32[4]{0}\n"
		"allocation 1: size 16, output shape is |f32[4]|, maybe-live-out:\n"
		" value: <1 -{} @0> (size=16,offset=0): f32[4]{0}\n"
		"\n"
		"Total bytes used: 32 (32B)\n"
		"\n"
		"Used values:\n"
		"<0 p.1 @0>\n"
		" positions:\n"
		"  p.1\n"
		" uses:\n"
		"  -, operand 0\n"
		" from instruction: %p.1 = f32[4]{0} parameter(0), metadata={op_name=\"a\tb\\\\c\" source_file=\"=\" source_line=3}\n"
		"<1 - @0>\n"
		" positions:\n"
		"  -\n"
		" uses:\n"
		" from instruction: %- = f32[4]{0} negate(%p.1), metadata={op_name=\"-\"}\n";
	struct hd_dump d, g;
	struct hd_canon cd, cg;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	uint32_t i;

	if (hd_parse_buffer(&d, "esc.txt", dump, sizeof(dump) - 1, 0)) {
		bail("the hand-made dump does not parse");
	}
	mem = open_memstream(&text, &len);
	hd_golden_write(mem, &d, "esc\tmodule");
	fclose(mem);
	ok(hd_golden_detect(text, len), "the golden starts with the magic line");
	ok(strstr(text, "module\tesc\\tmodule\n") != NULL, "a TAB in a field is written \\t");
	ok(strstr(text, "a\\tb\\\\\\\\c") != NULL, "an op_name with TAB and backslashes is escaped");
	is_int(0, hd_golden_parse(&g, "esc.golden", text, len), "the golden reads back");
	is_int((long long)d.insns.len, (long long)g.insns.len, "as many instructions");
	for (i = 0; i < d.insns.len && i < g.insns.len; i++) {
		const struct hd_insn *a = &HD_INSN(&d, i), *b = &HD_INSN(&g, i);
		struct hd_insn_source as = hd_insn_source_of(&d, i),
				      bs = hd_insn_source_of(&g, i);

		ok(hd_slice_eq(as.op_name, bs.op_name), "instruction %u: the same op_name", i);
		ok(hd_slice_eq(as.source_file, bs.source_file), "instruction %u: the same source file", i);
		ok(hd_slice_eq(a->name, b->name), "instruction %u: the same name", i);
	}
	hd_canon_compute(&cd, &d);
	hd_canon_compute(&cg, &g);
	is_int(cd.n_values, cg.n_values, "as many values");
	for (i = 0; i < cd.n_values && i < cg.n_values; i++) {
		uint32_t k = hd_dump_value_by_key(&g, hd_value_key_of(&HD_VALUE(&d, i)));

		ok(k != HD_NONE && cd.value_canon[i] == cg.value_canon[k] &&
		   cd.value_struct[i] == cg.value_struct[k],
		   "value %u: the same canonical and structural hashes", i);
	}
	hd_canon_release(&cd);
	hd_canon_release(&cg);
	hd_dump_release(&g);
	hd_dump_release(&d);
	free(text);
}

int main(void)
{
	plan_lazy();
	test_names();
	test_pairing();
	test_escapes();
	test_formats();
	test_golden_escapes();
	return 0;
}
