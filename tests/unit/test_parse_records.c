/*
 * test_parse_records.c - a record's " positions:" line, its first
 * position (the value's own name), its " uses:" line and its usual use
 * lines ("  NAME, operand D") are read with the line before them
 * (next_line_is, first_position, usual_uses in src/parse_values.c): the
 * values get the same positions and kept uses (HD_PARSE_KEEP_USES) as
 * when each line is read on its own, every line is counted (the record lines and
 * the messages say the same lines), and lines of any other form (CRLF,
 * an index, two digits, "(none)", a NUL, the input's end) are read as
 * before.  So are the lines of an instruction sequence (sequence_lines in
 * src/parse_live.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

#define VALUES 4

/* The records of a made-up dump of VALUES values (tap_text_temps: the
 * first line of the records is line 2 * VALUES + 6). */
static const char *const records[VALUES] = {
	/* the usual: one position, three usual uses */
	"<0 v.0 @0>\n positions:\n  v.0\n uses:\n"
	"  a.1, operand 0\n  b.2, operand 1\n  c.3, operand 2\n"
	" from instruction: %v.0 = f32[4]{0} add(%a, %b)\n",
	/* two positions, the uses in other forms between usual ones */
	"<1 v.1 @0>\n positions:\n  v.1\n  t.9 {1}\n uses:\n"
	"  d.4, operand 3\n  e.5, operand 12\n  f.6, operand 0 {}\n"
	"  g.7, operand 1\r\n  h.8, operand 2\n"
	" from instruction: %v.1 = f32[4]{0} add(%a, %b)\n",
	/* no uses */
	"<2 v.2 @0>\n positions:\n  v.2\n uses:\n  (none)\n"
	" from instruction: %v.2 = f32[4]{0} add(%a, %b)\n",
	/* a first position of another name, CRLF " positions:" */
	"<3 v.3 @0>\n positions:\r\n  w.3\n uses:\n  i.9, operand 4\n"
	" from instruction: %v.3 = f32[4]{0} add(%a, %b)\n",
};

struct want_use {
	unsigned value;
	const char *name;
	long long operand;
	const char *index;
};

static const struct want_use want_uses[] = {
	{ 0, "a.1", 0, "" }, { 0, "b.2", 1, "" }, { 0, "c.3", 2, "" },
	{ 1, "d.4", 3, "" }, { 1, "e.5", 12, "" }, { 1, "f.6", 0, "{}" },
	{ 1, "g.7", 1, "" }, { 1, "h.8", 2, "" },
	{ 3, "i.9", 4, "" },
};

static const unsigned want_positions[VALUES] = { 1, 2, 1, 1 };

/* The dump's text: the head and the records (heap). */
static char *dump_text(void)
{
	struct tap_text t = { NULL, 0, 0 };
	unsigned i;

	tap_text_temps(&t, VALUES);
	for (i = 0; i < VALUES; i++)
		tap_text_put(&t, records[i]);
	return t.p;
}

/* The line of text at which the record of value v starts. */
static unsigned record_line(const char *text, unsigned v)
{
	char want[32];
	unsigned line = 1;
	const char *p = text;

	snprintf(want, sizeof(want), "<%u ", v);
	for (;;) {
		if (strncmp(p, want, strlen(want)) == 0)
			return line;
		p = strchr(p, '\n');
		if (!p)
			return 0;
		p++;
		line++;
	}
}

static void test_kept(void)
{
	char *text = dump_text();
	struct tap_parsed t;
	size_t k = 0, i;
	unsigned v;

	tap_parse_exact(&t, "records", text, strlen(text), HD_PARSE_KEEP_USES);
	is_int(0, t.rc, "the records parse");
	is_int(VALUES, (long long)t.d.values.len, "%d values", VALUES);
	for (v = 0; v < VALUES && t.rc == 0; v++) {
		uint32_t x = hd_dump_value_by_id(&t.d, v);
		const struct hd_value_uses *vu;
		const struct hd_value_positions *vp;

		if (!ok(x != HD_NONE, "value %u", v))
			continue;
		is_int(record_line(text, v), HD_VALUE_LINES(&t.d, x).record_line,
		       "value %u: its record's line", v);
		vp = &HD_VALUE_POSITIONS(&t.d, x);
		is_int(want_positions[v], vp->pos_count, "value %u: positions", v);
		if (vp->pos_count)
			ok(hd_slice_eq_cstr(HD_POSITION(&t.d, vp->pos_first).name,
					    v == 3 ? "w.3" : (v == 0 ? "v.0" :
					    v == 1 ? "v.1" : "v.2")),
			   "value %u: first position", v);
		vu = &HD_VALUE_USES(&t.d, x);
		for (i = 0; i < vu->use_count; i++, k++) {
			const struct hd_use *u = &HD_USE(&t.d, vu->use_first + i);

			if (k >= sizeof(want_uses) / sizeof(want_uses[0])) {
				ok(0, "value %u: no more uses", v);
				break;
			}
			ok(want_uses[k].value == v &&
			   hd_slice_eq_cstr(u->name, want_uses[k].name) &&
			   u->operand == want_uses[k].operand &&
			   hd_slice_eq_cstr(u->index, want_uses[k].index),
			   "use %zu: %s, operand %lld %s of value %u", k,
			   want_uses[k].name, want_uses[k].operand,
			   want_uses[k].index, v);
		}
	}
	is_int((long long)(sizeof(want_uses) / sizeof(want_uses[0])),
	       (long long)k, "every use kept");
	tap_parsed_release(&t);
	free(text);
}

/* Parsing the n bytes of text fails with a first message starting so. */
static void is_message(const char *text, size_t n, const char *want,
		       const char *what)
{
	int rc;
	char *got = tap_first_message("records", text, n, &rc);

	if (!ok(rc != 0 && strncmp(got, want, strlen(want)) == 0, "%s", what))
		diag("got '%s' (rc %d), want '%s'", got, rc, want);
	free(got);
}

/* Messages at lines read with the ones before them, or right after:
 * each record after the same head, with a NUL byte put nul bytes
 * before its end (0: none). */
static void test_messages(void)
{
	static const char head[] =
		"BufferAssignment:\n"
		"allocation 0: size 16, preallocated-temp:\n"
		" value: <0 v.0 @0> (size=16,offset=0): f32[4]{0}\n"
		"\nUsed values:\n";
	/* line 6 <0>, 7 positions, 8 v.0, 9 uses, 10... uses */
	static const struct {
		const char *record;
		size_t nul;
		const char *want, *what;
	} cases[] = {
		{ "<0 v.0 @0>\n positions:\n  v.0\n uses:\n"
		  "  a.1, operand 0\n  b.2, operand 1\n  c.3, operand x\n", 0,
		  "hlodiff: records:12: bad use",
		  "a bad use after usual ones: its line" },
		{ "<0 v.0 @0>\n positions:\n  v.0\n uses:\n"
		  "  a.1, operand 0\n  b.2, operand 1\n", 0,
		  "hlodiff: records:11: dump ends inside a value record",
		  "a record ending after usual uses: the last line" },
		{ "<0 v.0 @0>\n positions:\n  v.0\n uses:\n"
		  "  a.1, operand 0\n  b.2, operand 1", 0,
		  "hlodiff: records:11: dump ends in the middle of a line",
		  "a use without its newline at the end" },
		/* "  b.2, operand\0\n" */
		{ "<0 v.0 @0>\n positions:\n  v.0\n uses:\n"
		  "  a.1, operand 0\n  b.2, operand 1\n", 3,
		  "hlodiff: records:11:15: NUL byte",
		  "a NUL byte in a use line: its line and column" },
		/* "  v.\0\n" */
		{ "<0 v.0 @0>\n positions:\n  v.0\n", 2,
		  "hlodiff: records:8:5: NUL byte",
		  "a NUL byte in a first position: its line and column" },
		{ "<0 v.0 @0>\n positions:\n  v.0\n uses:\n <1 w.1>\n", 0,
		  "hlodiff: records:10: ",
		  "an unknown line after ' uses:': its line" },
	};
	char text[512];
	size_t k, n;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text), "%s%s", head, cases[k].record);
		n = strlen(text);
		if (cases[k].nul)
			text[n - cases[k].nul] = '\0';
		is_message(text, n, cases[k].want, cases[k].what);
	}
}

/*
 * "    I:NAME" lines are read one after another (sequence_lines) while
 * each has the next number: a sequence of n lines (past 9, 99) gives the
 * n names in order; a bad line among them is reported at its line.
 */
static void test_sequence(unsigned n, unsigned bad)
{
	struct tap_text t = { NULL, 0, 0 };
	struct tap_parsed p;
	char line[64];
	unsigned i, good = 0, lines;

	tap_text_temps(&t, 1);
	tap_text_put(&t, "<0 v.0 @0>\n positions:\n  v.0\n uses:\n"
		     " from instruction: %v.0 = f32[4]{0} add(%a, %b)\n\n");
	snprintf(line, sizeof(line), "HloLiveRange (max %u):\n", n);
	tap_text_put(&t, line);
	tap_text_put(&t, "  InstructionSequence:\n");
	lines = 16;     /* the line of "    0:..." */
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), i == bad ? "    %u:s.%u x\n" :
			 "    %u:s.%u\n", i, i);
		tap_text_put(&t, line);
	}
	tap_text_put(&t, "  BufferLiveRange:\n    v.0{}:0-1\n");
	if (bad < n) {
		snprintf(line, sizeof(line), "hlodiff: records:%u: bad sequence line",
			 lines + bad);
		is_message(t.p, t.n, line, "a bad sequence line: its line");
		free(t.p);
		return;
	}
	tap_parse_exact(&p, "seq", t.p, t.n, 0);
	is_int(0, p.rc, "a sequence of %u parses", n);
	is_int(n, (long long)p.d.sequence.len, "%u sequence entries", n);
	for (i = 0; i < n && i < p.d.sequence.len; i++) {
		snprintf(line, sizeof(line), "s.%u", i);
		good += hd_slice_eq_cstr(HD_VEC_AT(&p.d.sequence, struct hd_slice, i),
					 line);
	}
	is_int(n, good, "the %u names in order", n);
	tap_parsed_release(&p);
	free(t.p);
}

int main(void)
{
	plan_lazy();
	test_kept();
	test_messages();
	test_sequence(1, ~0u);
	test_sequence(12, ~0u);
	test_sequence(105, ~0u);
	test_sequence(12, 0);
	test_sequence(12, 10);
	test_sequence(105, 100);
	return 0;
}
