/*
 * test_shape.c - shape strings (src/shape.c) against FORMAT.md section 7.
 *
 * Expected sizes are worked out by hand from the shapes: elements times
 * the element size, 8 bytes per tuple element; the corpus-derived ones
 * are the "Live ranges at" byte counts printed by XLA for that shape.
 */
#include <stdlib.h>
#include <string.h>

#include "hlodiff/shape.h"
#include "tap/tap.h"

static struct hd_slice S(const char *s)
{
	return hd_slice_cstr(s);
}

static long long bytes(const char *s)
{
	return hd_shape_logical_bytes(S(s));
}

static long long space(const char *s)
{
	return hd_shape_memory_space(S(s));
}

/* The i-th tuple element as a C string in buf ("<none>" when absent). */
static const char *element(const char *shape, int64_t i, char *buf,
			   size_t bufsz)
{
	struct hd_slice out;

	if (hd_shape_tuple_element(S(shape), i, &out) < 0 || out.n >= bufsz)
		return "<none>";
	memcpy(buf, out.p, out.n);
	buf[out.n] = '\0';
	return buf;
}

static const char *subshape(const char *shape, const char *index, char *buf,
			    size_t bufsz)
{
	struct hd_slice out;

	if (hd_shape_subshape(S(shape), S(index), &out) < 0 || out.n >= bufsz)
		return "<none>";
	memcpy(buf, out.p, out.n);
	buf[out.n] = '\0';
	return buf;
}

static const char *strip(const char *shape, char *buf, size_t bufsz)
{
	struct hd_slice out = hd_shape_strip_layout(S(shape));

	if (out.n >= bufsz)
		return "<too long>";
	memcpy(buf, out.p, out.n);
	buf[out.n] = '\0';
	return buf;
}

/* Seed 000's copy-start tuple. */
#define CS "(u32[2]{0:T(128)S(1)}, u32[2]{0:T(128)}, u32[]{:S(2)})"
/* Seed 001's while.9 shape, with an index marker before element 5. */
#define WHILE9 "(s32[], u32[32,16]{1,0}, u32[32,16]{1,0}, u32[], u32[], " \
	"/*index=5*/u32[], u32[4]{0}, u32[4]{0})"

static void test_sizes(void)
{
	is_int(2048, bytes("f32[16,32]{1,0:T(8,128)}"),
	       "f32[16,32] tiled is 2048 logical bytes (no padding)");
	is_int(24, bytes(CS), "copy-start tuple of 3 is 24 bytes");
	is_int(64, bytes(WHILE9), "while tuple of 8 with /*index=5*/ is 64");
	is_int(0, bytes("()"), "empty tuple is 0");
	is_int(4, bytes("u32[]"), "u32 scalar is 4");
	is_int(4, bytes("u32[]{:T(128)S(6)}"), "scalar with layout is 4");
	is_int(1, bytes("pred[]"), "pred is 1");
	is_int(8192, bytes("f32[64,32]{0,1:T(8,128)S(1)}"), "f32[64,32] is 8192");
	is_int(20, bytes("f32[1,5]{1,0:T(1,128)}"), "f32[1,5] is 20");
	is_int(32, bytes("u32[4,2]{0,1:T(2,128)}"), "u32[4,2] is 32");
	is_int(6, bytes("bf16[3]"), "bf16[3] is 6");
	is_int(6, bytes("s16[3]"), "s16[3] is 6");
	is_int(3, bytes("u8[3]"), "u8[3] is 3");
	is_int(24, bytes("s64[3]"), "s64[3] is 24");
	is_int(24, bytes("c64[3]"), "c64[3] is 24");
	is_int(48, bytes("c128[3]"), "c128[3] is 48");
	is_int(3, bytes("f8e4m3fn[3]"), "f8 types are 1 byte");
	is_int(3, bytes("f8e8m0fnu[3]"), "f8e8m0fnu is 1 byte");
	is_int(5, bytes("s4[5]"), "s4 without E() is a byte per element");
	is_int(3, bytes("s4[5]{0:E(4)}"), "s4[5] with E(4) packs to ceil(20/8)=3");
	is_int(1, bytes("u2[3]{0:E(2)}"), "u2[3] with E(2) packs to 1");
	is_int(2, bytes("f4e2m1fn[4]{0:E(4)}"), "f4e2m1fn[4] with E(4) is 2");
	is_int(4, bytes("f6e2m3fn[4]"), "f6e2m3fn without E() is a byte each");
	is_int(0, bytes("token[]"), "token is 0");
	is_int(8, bytes("opaque[]"), "opaque is pointer size 8 (ByteSizeOf)");
	is_int(0, bytes("f32[0,7]"), "zero-sized dimension gives 0");
}

static void test_dynamic_and_layouts(void)
{
	is_int(40, bytes("f32[<=10]"), "bounded dim counts at its bound");
	is_int(80, bytes("f32[2,<=10]{1,0}"), "bounded dim among static ones");
	is_int(-1, bytes("f32[?,4]"), "unbounded dim is unknown");
	is_int(8, bytes("(f32[?])"),
	       "a tuple holding an unbounded dim still has an index table");
	is_int(16, bytes("f32[4]{0:T(2)(1,2)L(4)#(s32)*(u64)E(32)S(3)M(8)}"),
	       "every layout item parses (E(32) on f32 = 16)");
	is_int(3, space("f32[4]{0:T(2)(1,2)L(4)#(s32)*(u64)E(32)S(3)M(8)}"),
	       "S(3) found after other items");
	is_int(16, bytes("f32[4]{0:T(2,128)SC(0:1,2)(1:3)S(1)}"),
	       "split configs are skipped");
	is_int(1, space("f32[4]{0:T(2,128)SC(0:1,2)(1:3)S(1)}"),
	       "memory space after split configs");
	is_int(16, bytes("f32[4]{0:P(f32[8]{0:S(7)})S(2)}"),
	       "physical shape P(...) is read and skipped");
	is_int(2, space("f32[4]{0:P(f32[8]{0:S(7)})S(2)}"),
	       "memory space is the outer S, not the physical shape's");
	is_int(16, bytes("f32[4]{0:D(D,C+~)}"), "sparse D(...) is skipped");
	is_int(16, bytes("f32[4]{0:Q(1)(2)}"), "unknown item is skipped");
	is_int(5, space("f32[4]{0:Q(1)(2)S(5)}"), "S after an unknown item");
	is_int(16, bytes("b(f32[4]{0:S(1)})"), "buffer b(...) has its array's size");
	is_int(1, space("b(f32[4]{0:S(1)})"), "buffer b(...) has its array's space");
}

static void test_memory_space(void)
{
	is_int(1, space("u32[64]{0:T(128)S(1)}"), "S(1) is memory space 1");
	is_int(0, space("u32[64]{0:T(128)}"), "no S() is memory space 0");
	is_int(0, space("u32[]"), "scalar without layout is 0");
	is_int(2, space("u32[]{:S(2)}"), "scalar S(2)");
	is_int(6, space("u32[]{:T(128)S(6)}"), "scalar T then S(6)");
	is_int(-1, space(CS), "a tuple has no memory space");
	is_int(-1, space("f32[4"), "unreadable shape has no memory space");
}

static void test_tuples(void)
{
	char buf[256];

	ok(hd_shape_is_tuple(S(CS)), "copy-start shape is a tuple");
	ok(!hd_shape_is_tuple(S("u32[2]{0}")), "array is not a tuple");
	is_string("u32[2]{0:T(128)S(1)}", element(CS, 0, buf, sizeof(buf)),
		  "tuple element 0");
	is_string("u32[2]{0:T(128)}", element(CS, 1, buf, sizeof(buf)),
		  "tuple element 1");
	is_string("u32[]{:S(2)}", element(CS, 2, buf, sizeof(buf)),
		  "tuple element 2");
	is_string("<none>", element(CS, 3, buf, sizeof(buf)),
		  "tuple element 3 is absent");
	is_string("u32[]", element(WHILE9, 5, buf, sizeof(buf)),
		  "element 5 comes without its /*index=5*/ marker");
	is_string("u32[4]{0}", element(WHILE9, 7, buf, sizeof(buf)),
		  "last element after the marker");
	is_string("<none>", element("()", 0, buf, sizeof(buf)),
		  "empty tuple has no element 0");
	is_string("u32[2]{0:T(128)}", subshape(CS, "{1}", buf, sizeof(buf)),
		  "subshape {1}");
	is_string(CS, subshape(CS, "{}", buf, sizeof(buf)),
		  "subshape {} is the shape itself");
	is_string("s32[]", subshape("((f32[2], s32[]), u8[1])", "{0,1}",
				    buf, sizeof(buf)), "nested subshape {0,1}");
	is_string("<none>", subshape(CS, "{3}", buf, sizeof(buf)),
		  "subshape out of range");
	is_string("<none>", subshape("u32[2]", "{0}", buf, sizeof(buf)),
		  "subshape of an array");
	is_string("<none>", subshape(CS, "{x}", buf, sizeof(buf)),
		  "malformed index");
}

static void test_span_strip(void)
{
	char buf[256];
	const char *insn = CS " copy-start(%Arg_0.1)";

	is_int((long long)strlen(CS), (long long)hd_shape_span(S(insn)),
	       "span of a tuple stops at the space after it");
	is_int(9, (long long)hd_shape_span(S("u32[2]{0} %p")),
	       "span of an array stops at the space");
	is_int(6, (long long)hd_shape_span(S("f32[4], x")), "span stops at ','");
	is_int(0, (long long)hd_shape_span(S("%p")), "no shape at '%%'");
	is_int(0, (long long)hd_shape_span(S("f32[4")), "unbalanced bracket");
	is_int(0, (long long)hd_shape_span(S("f32[4}")), "mismatched bracket");
	is_string("f32[4,2]", strip("f32[4,2]{1,0:T(8)}", buf, sizeof(buf)),
		  "strip layout");
	is_string("u32[]", strip("u32[]{:S(2)}", buf, sizeof(buf)),
		  "strip scalar layout");
	is_string(CS, strip(CS, buf, sizeof(buf)), "tuples unchanged");
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"", "f32", "f32[", "f32[4", "f32[4]{", "f32[4]{0", "f32[a]",
		"F32[4]", "zz9[4]", "(f32[4]", "(f32[4],)", "(f32[4] f32[4])",
		"f32[4]{0:}", "f32[4]{0:S(}", "f32[4]{0:S(x)}", "b(f32[4]",
		"f32[4] ", " f32[4]", "f32[4]x", "f32[-1]", "(,)",
		"f32[99999999999999999999]", "f32[4294967296,4294967296]",
		"f32[4]{0:T(8,128}", "f32[4]{0:P(f32[)}",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(-1, bytes(bad[i]), "malformed or oversized '%s' is -1",
		       bad[i]);
}

/* "(" x n, "f32[1]", ")" x n */
static char *nested(size_t n, const char *open, const char *inner,
		    const char *close)
{
	size_t lo = strlen(open), li = strlen(inner), lc = strlen(close);
	char *s = malloc(n * (lo + lc) + li + 1);
	size_t i, k = 0;

	if (!s)
		bail("out of memory");
	for (i = 0; i < n; i++, k += lo)
		memcpy(s + k, open, lo);
	memcpy(s + k, inner, li);
	k += li;
	for (i = 0; i < n; i++, k += lc)
		memcpy(s + k, close, lc);
	s[k] = '\0';
	return s;
}

static void test_depth(void)
{
	char *s;

	s = nested(10000, "(", "f32[1]", ")");
	is_int(-1, bytes(s), "tuples nested 10000 deep are -1");
	is_int(-1, space(s), "memory space of 10000-deep nesting is -1");
	is_int(0, (long long)hd_shape_span(S(s)),
	       "span of 10000-deep nesting is 0 (over its bracket cap)");
	free(s);

	s = nested(10000, "f32[1]{0:P(", "f32[1]", ")}");
	is_int(-1, bytes(s), "physical shapes nested 10000 deep are -1");
	free(s);

	s = nested(10000, "b(", "f32[1]", ")");
	is_int(-1, bytes(s), "buffers nested 10000 deep are -1");
	free(s);

	s = nested(HD_SHAPE_MAX_DEPTH - 1, "(", "f32[1]", ")");
	is_int(8, bytes(s), "nesting just under the cap is read");
	free(s);

	s = nested(HD_SHAPE_MAX_DEPTH, "(", "f32[1]", ")");
	is_int(-1, bytes(s), "nesting at the cap is -1");
	free(s);
}

/* A heap copy of the first n bytes of s, with nothing after it (so a
 * sanitizer build catches any read past the slice). */
static struct hd_slice exact(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);

	if (!p)
		bail("out of memory");
	memcpy(p, s, n);
	return hd_slice_make(p, n);
}

static void test_no_overread(void)
{
	const char *text = "(f32[4]{0:S(1)}, u8[2])";
	struct hd_slice s, out;

	s = exact(text, 14);
	is_int(-1, hd_shape_logical_bytes(s),
	       "slice cut before '}' is unreadable");
	free((void *)s.p);
	s = exact(text + 1, 6);
	is_int(16, hd_shape_logical_bytes(s),
	       "slice cut before the layout reads f32[4]");
	is_int(0, hd_shape_memory_space(s), "and has memory space 0");
	free((void *)s.p);
	s = exact(text, strlen(text) - 1);
	is_int(0, (long long)hd_shape_span(s), "span of a cut tuple is 0");
	is_int(-1, hd_shape_tuple_element(s, 1, &out), "cut tuple has no element 1");
	free((void *)s.p);
}

int main(void)
{
	plan(26 + 15 + 7 + 15 + 9 + 25 + 7 + 5);
	test_sizes();
	test_dynamic_and_layouts();
	test_memory_space();
	test_tuples();
	test_span_strip();
	test_malformed();
	test_depth();
	test_no_overread();
	return 0;
}
