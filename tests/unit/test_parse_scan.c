/*
 * test_parse_scan.c - the parser's 16-byte scanners (scan.h, parse_int.h) read
 * the same fields wherever they lie in the input.
 *
 * The scanners look at 16 bytes at a time while the input holds them and
 * byte by byte (or memchr) in its last bytes; a field near the end of the
 * buffer takes the second way, the same field with a line after it the
 * first.  Each dump here is parsed from a heap copy of exactly its length
 * (no padding: ASan in check-san sees any read past it) both ways, with
 * field lengths stepped across the block sizes, and the model is checked
 * against the values written into the text.  The line scan is the NUL
 * check too: a NUL byte at any place is reported at its line and column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/parse.h"
#include "hlodiff/shape.h"
#include "tap/dumps.h"
#include "tap/tap.h"

/* A line that may follow the ones under test: another allocation. */
static const char next_alloc[] = "allocation 9: size 1, thread-local:\n";

static int slice_is(struct hd_slice s, const char *want)
{
	return s.n == strlen(want) && (s.n == 0 || memcmp(s.p, want, s.n) == 0);
}

/* A run of n name bytes, varied so no block is uniform. */
static void make_name(char *buf, size_t n)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz_.-0123456789ABCDEF";
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = chars[(i * 7 + n) % (sizeof(chars) - 1)];
	buf[0] = 'a';
	buf[n] = '\0';
}

/*
 * Numbers of 1 to 19 digits as an offset (the last number of its line)
 * and a value id, at the end of the input and with a line after them.
 */
static void test_numbers(void)
{
	char text[512], digits[32];
	int d, tail, bad = 0;

	for (d = 1; d <= 19; d++) {
		for (tail = 0; tail < 2; tail++) {
			struct tap_parsed t;
			uint64_t v = 0, id = 0;
			int k;

			for (k = 0; k < d; k++) {
				digits[k] = (char)('1' + (k * 3 + d) % 9);
				v = v * 10 + (uint64_t)(digits[k] - '0');
				if (k < 9)
					id = v;
			}
			digits[d] = '\0';
			snprintf(text, sizeof(text),
				 "BufferAssignment:\n"
				 "allocation 0: size 4, constant:\n"
				 " value: <%.*s x.1 @0> (size=4,offset=%s): f32[]\n%s",
				 d < 10 ? d : 9, digits, digits,
				 tail ? next_alloc : "");
			tap_parse_exact(&t, "scan", text, strlen(text), 0);
			if (t.rc != 0 || t.d.alloc_values.len != 1 ||
			    HD_ALLOC_VALUE(&t.d, 0).offset != (int64_t)v ||
			    HD_VALUE(&t.d, 0).id != (int64_t)id) {
				diag("%d digits, %s: rc %d", d, tail ? "line after" : "at the end", t.rc);
				bad++;
			}
			tap_parsed_release(&t);
		}
	}
	is_int(0, bad, "offsets and ids of 1 to 19 digits, at the end and not");
}

/* One " from instruction:" record for a value named name. */
static void insn_dump(char *text, size_t size, const char *name,
		      const char *shape, const char *op_name, int tail)
{
	snprintf(text, size,
		 "BufferAssignment:\n"
		 "allocation 0: size 4, constant:\n"
		 " value: <7 %s @0> (size=4,offset=0): f32[]\n"
		 "Used values:\n"
		 "<7 %s @0>\n"
		 " positions:\n"
		 "  %s\n"
		 " uses:\n"
		 " from instruction: %%%s = %s fusion(%%p.1, %%q), kind=kLoop, "
		 "backend_config=\"{\\\"a\\\":[1,(2]}\", metadata={op_name=\"%s\" "
		 "source_file=\"f.py\" source_line=%d}\n%s",
		 name, name, name, name, shape, op_name, 40 + (int)strlen(name),
		 tail ? "<8 y.2 @0>\n positions:\n  y.2\n uses:\n"
			" from instruction: %y.2 = f32[] parameter(0)\n" : "");
}

/* Checks the instruction of a dump made by insn_dump. */
static int insn_ok(const char *text, const char *name, const char *shape,
		   const char *op_name)
{
	struct tap_parsed t;
	const struct hd_insn *in;
	struct hd_insn_source src;
	int good;

	tap_parse_exact(&t, "scan", text, strlen(text), 0);
	good = t.rc == 0 && t.d.insns.len >= 1;
	if (good) {
		in = &HD_INSN(&t.d, 0);
		src = hd_insn_source_of(&t.d, 0);
		good = slice_is(in->name, name) && slice_is(in->shape, shape) &&
		       slice_is(in->opcode, "fusion") &&
		       slice_is(in->operands, "%p.1, %q") &&
		       slice_is(src.op_name, op_name) &&
		       slice_is(src.source_file, "f.py") &&
		       src.source_line == 40 + (int64_t)strlen(name) &&
		       in->shape_bytes == hd_shape_logical_bytes(in->shape);
	}
	tap_parsed_release(&t);
	return good;
}

/*
 * Names of 1 to 40 bytes and op_name strings of 0 to 40 bytes (with an
 * escaped quote at each place), in the last line of the input and not.
 */
static void test_insn_text(void)
{
	static const char *const shapes[] = {
		"f32[]", "bf16[512,2048]{1,0:T(8,128)(2,1)}",
		"(f32[], s32[4]{0})", "f32[8]{0:T(128) S(1)}",
	};
	char text[2048], name[64], op[64];
	size_t len, k;
	int tail, bad = 0;

	for (len = 1; len <= 40; len++) {
		make_name(name, len);
		for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++)
			for (tail = 0; tail < 2; tail++) {
				insn_dump(text, sizeof(text), name, shapes[k], "jit(f)/x", tail);
				if (!insn_ok(text, name, shapes[k], "jit(f)/x")) {
					diag("name %zu bytes, shape %s, %s", len, shapes[k],
					     tail ? "line after" : "at the end");
					bad++;
				}
			}
	}
	is_int(0, bad, "instruction names and shapes, at the end and not");
	bad = 0;
	for (len = 0; len <= 40; len++) {
		size_t q;

		for (q = 0; q <= len; q++) {
			make_name(op, len);
			/* an escaped quote at q (the string stays one string) */
			if (q + 2 <= len) {
				op[q] = '\\';
				op[q + 1] = '"';
			}
			for (tail = 0; tail < 2; tail++) {
				insn_dump(text, sizeof(text), "n.1", "f32[]", op, tail);
				if (!insn_ok(text, "n.1", "f32[]", op)) {
					diag("op_name %zu bytes, quote at %zu, %s", len, q,
					     tail ? "line after" : "at the end");
					bad++;
				}
			}
		}
	}
	is_int(0, bad, "op_name strings with escaped quotes, at the end and not");
}

/* A shape seen twice (the second time found by the memo) reads the same,
 * and a longer text that starts like a memoised shape is not cut short. */
static void test_shape_memo(void)
{
	static const char text[] =
		"BufferAssignment:\n"
		"allocation 0: size 4, constant:\n"
		" value: <1 a.1 @0> (size=4,offset=0): f32[]\n"
		" value: <2 b.1 @0> (size=4,offset=0): f32[]\n"
		" value: <3 c.1 @0> (size=4,offset=0): f32[]\n"
		"Used values:\n"
		"<1 a.1 @0>\n positions:\n  a.1\n uses:\n"
		" from instruction: %a.1 = f32[4]{0} add(%x, %y)\n"
		"<2 b.1 @0>\n positions:\n  b.1\n uses:\n"
		" from instruction: %b.1 = f32[4]{0} add(%x, %y), metadata={op_name=\"m\"}\n"
		"<3 c.1 @0>\n positions:\n  c.1\n uses:\n"
		" from instruction: %c.1 = (f32[4]{0}, f32[4]{0}) tuple(%a.1, %b.1)\n";
	struct tap_parsed t;
	const struct hd_dump *d = &t.d;

	tap_parse_exact(&t, "scan", text, sizeof(text) - 1, 0);
	ok(t.rc == 0 && d->insns.len == 3, "three instructions");
	if (t.rc == 0 && d->insns.len == 3) {
		ok(slice_is(HD_INSN(d, 0).shape, "f32[4]{0}") &&
		   slice_is(HD_INSN(d, 1).shape, "f32[4]{0}") &&
		   HD_INSN(d, 1).shape_bytes == 16, "a memoised shape reads the same");
		ok(slice_is(HD_INSN(d, 2).shape, "(f32[4]{0}, f32[4]{0})") &&
		   HD_INSN(d, 2).shape_bytes == 16 &&
		   slice_is(HD_INSN(d, 2).opcode, "tuple"),
		   "a tuple shape with spaces is scanned whole");
	} else {
		ok(0, "a memoised shape reads the same");
		ok(0, "a tuple shape with spaces is scanned whole");
	}
	tap_parsed_release(&t);
}

/* What parsing a copy of text[0, n) prints, held back (heap, or NULL). */
static char *parse_messages(const char *text, size_t n, int *rc)
{
	struct hd_diag_held h;
	struct tap_parsed t;

	hd_diag_hold(&h);
	tap_parse_exact(&t, "scan", text, n, 0);
	hd_diag_unhold(&h);
	*rc = t.rc;
	tap_parsed_release(&t);
	return h.buf;
}

/* Checks the message of a NUL at k of text[0, n): 1 if right. */
static int nul_reported(char *text, size_t n, size_t k)
{
	char want[128], *got;
	size_t i, line = 1, col = 1;
	int rc, good;

	for (i = 0; i < k; i++, col++)
		if (text[i] == '\n') {
			line++;
			col = 0;
		}
	snprintf(want, sizeof(want),
		 "hlodiff: scan:%zu:%zu: NUL byte in input (expected a text dump)\n",
		 line, col);
	text[k] = '\0';
	got = parse_messages(text, n, &rc);
	good = rc != 0 && got && strcmp(got, want) == 0;
	if (!good)
		diag("NUL at %zu: got '%s', want '%s'", k, got ? got : "", want);
	free(got);
	return good;
}

/*
 * A NUL byte at each place of a dump (lines of 1 to 200 bytes, so each
 * place of a 16-byte block and the input's last bytes), with and without
 * its final newline, and after a line that is wrong: the NUL is the
 * message, at its line and column.
 */
static void test_nul(void)
{
	char text[4096], name[256], *got;
	size_t len, n, k;
	int rc, bad = 0, cut;

	for (len = 1; len <= 200; len += 13) {
		make_name(name, len);
		insn_dump(text, sizeof(text), name, "f32[]", name, 1);
		n = strlen(text);
		got = parse_messages(text, n, &rc);
		if (rc != 0 || (got && *got)) {
			diag("name %zu bytes: does not parse: %s", len, got ? got : "");
			bad++;
		}
		free(got);
		for (cut = 0; cut < 2; cut++)
			for (k = 0; k < n - (size_t)cut; k++) {
				char saved = text[k];

				bad += !nul_reported(text, n - (size_t)cut, k);
				text[k] = saved;
			}
	}
	is_int(0, bad, "a NUL at each place, with and without the final newline");
	bad = 0;
	insn_dump(text, sizeof(text), "n.1", "f32[]", "op", 1);
	n = strlen(text);
	memcpy(strstr(text, "allocation 0"), "allocation X", 12);
	for (k = (size_t)(strstr(text, "Used values") - text); k < n; k++) {
		char saved = text[k];

		bad += !nul_reported(text, n, k);
		text[k] = saved;
	}
	is_int(0, bad, "a NUL after a wrong line is the message");
}

int main(void)
{
	plan_lazy();
	test_numbers();
	test_insn_text();
	test_shape_memo();
	test_nul();
	return 0;
}
