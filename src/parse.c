/*
 * parse.c - one pass over the lines of a buffer-assignment dump: the
 * line loop, the dispatch of each line to the reader of its section,
 * the messages, the checks at the end and the API of parse.h.
 *
 * Each line is classified by its prefix (docs/format.md, "The shape of
 * a dump") and handed to one small function that fills the model.  The
 * parser keeps a little state (the current section, allocation and
 * value record) so that lines whose meaning depends on their context
 * (two- and four-space lines) are read the right way.  Nothing is
 * copied: every string is a slice of the input.
 */
#include "parse_int.h"

#include "hlodiff/filename.h"
#include "hlodiff/str.h"

/* ---- messages ---------------------------------------------------- */

static int no_nul_left(struct parser *ps);

/*
 * A message about the current line into msg: -1 instead when a NUL byte
 * is left in the input, which no_nul_left has reported (a NUL explains
 * any later error better than the error itself).
 */
static int line_message(struct parser *ps, char *msg, size_t n,
			const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static int line_message(struct parser *ps, char *msg, size_t n,
			const char *fmt, va_list ap)
{
	/* two values of one name, met before this line, are the error */
	if (hd_ps_file_pending(ps, 1) || no_nul_left(ps))
		return -1;
	vsnprintf(msg, n, fmt, ap);
	return 0;
}

int hd_ps_error(struct parser *ps, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = line_message(ps, msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rc == 0)
		hd_error(ps->file, ps->line, "%s", msg);
	return -1;
}

/* Error about a malformed line of a known kind, quoting its start. */
int hd_ps_bad_line(struct parser *ps, struct hd_slice l, const char *what,
		    const char *expected)
{
	char q[PARSE_QUOTE_MAX + 8];

	hd_quote(q, sizeof(q), l.p, l.n, PARSE_QUOTE_MAX);
	return hd_ps_error(ps, "%s in '%s' (expected %s)", what, q, expected);
}

/* The hd_sections bit of the section the parser is in. */
static uint32_t section_bit(const struct parser *ps)
{
	switch (ps->sec) {
	case SEC_AFTER_TOTAL: return HD_SEC_TOTAL;
	case SEC_USED_VALUES: return HD_SEC_USED_VALUES;
	case SEC_LIVE_RANGE: return HD_SEC_LIVE_RANGE;
	case SEC_SEQUENCE: return HD_SEC_SEQUENCE;
	case SEC_BUFFER_LIVE: return HD_SEC_BUFFER_LIVE;
	case SEC_PEAK: case SEC_PEAK_UNKNOWN: return HD_SEC_PEAK;
	case SEC_STACK_TREE: return HD_SEC_STACK_TREE;
	default: return HD_SEC_ALLOCATIONS;
	}
}

/*
 * The dump breaks off in section bit: an input error, or with
 * HD_PARSE_ALLOW_INCOMPLETE a warning (the first one only) and a mark in
 * dump->incomplete that keeps the figures of that section out.
 */
static int truncation(struct parser *ps, uint32_t bit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int truncation(struct parser *ps, uint32_t bit, const char *fmt, ...)
{
	struct hd_dump *d = ps->d;
	char msg[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = line_message(ps, msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rc)
		return -1;
	if (!(ps->flags & HD_PARSE_ALLOW_INCOMPLETE)) {
		hd_error(ps->file, ps->line, "%s", msg);
		return -1;
	}
	if (!d->incomplete) {
		d->incomplete_file = ps->file;
		d->incomplete_line = ps->line;
		d->incomplete_why = hd_arena_strndup(&d->arena, msg, strlen(msg));
		hd_warning(ps->file, ps->line, "%s; read as incomplete (--allow-incomplete)", msg);
	}
	d->incomplete |= bit;
	return 0;
}

static void note_unknown(struct parser *ps)
{
	struct hd_dump *d = ps->d;

	if (d->n_unknown < HD_UNKNOWN_SHOWN) {
		d->unknown_lines[d->n_unknown] = ps->line;
		d->unknown_files[d->n_unknown] = ps->file;
	}
	d->n_unknown++;
}

int hd_ps_unknown_line(struct parser *ps, struct hd_slice l)
{
	char q[PARSE_QUOTE_MAX + 8];

	if (ps->flags & HD_PARSE_STRICT) {
		hd_quote(q, sizeof(q), l.p, l.n, PARSE_QUOTE_MAX);
		return hd_ps_error(ps, "unknown line '%s' (--strict)", q);
	}
	note_unknown(ps);
	return 0;
}

/* ---- dispatch ------------------------------------------------------ */

static int begin_wrapped(struct parser *ps, struct hd_slice l)
{
	struct hd_slice name = tail(l, (sizeof("*** Begin ") - 1));

	if (hd_ends_with(name.p, name.n, " ***"))
		name.n -= 4;
	ps->d->sections |= HD_SEC_STDOUT_WRAPPER;
	ps->wrapped = 1;
	if (hd_ends_with(name.p, name.n, "-buffer-assignment.txt")) {
		if (ps->modules_seen++) {
			if (hd_ps_file_pending(ps, 1) || no_nul_left(ps))
				return -1;
			hd_warning(ps->file, ps->line,
				   "more than one module in this stream; only the first is read");
			ps->sec = SEC_DONE;
		}
		return 0;
	}
	if (hd_ends_with(name.p, name.n, "-buffer-assignment-values.txt") ||
	    hd_ends_with(name.p, name.n, "-live-range.txt"))
		return 0;
	ps->sec = SEC_SKIP_WRAPPED;
	return 0;
}

static int end_wrapped(struct parser *ps)
{
	ps->wrapped = 0;
	if (ps->sec == SEC_SKIP_WRAPPED)
		ps->sec = SEC_START;
	return 0;
}

static int two_space_line(struct parser *ps, struct hd_slice l)
{
	if (ps->sec == SEC_USED_VALUES)
		return hd_ps_record_body(ps, l);
	if (ps->sec == SEC_ALLOCATIONS && STARTS(l, "  value: "))
		return hd_ps_reuse_value(ps, l);
	if (ps->sec >= SEC_LIVE_RANGE && ps->sec <= SEC_STACK_TREE) {
		/* the many "    " lines first: no header below starts so */
		if (STARTS(l, "    ")) {
			switch (ps->sec) {
			case SEC_SEQUENCE: return hd_ps_sequence_line(ps, l);
			case SEC_BUFFER_LIVE: return hd_ps_buffer_live_line(ps, l);
			case SEC_PEAK: return hd_ps_peak_line(ps, l);
			case SEC_STACK_TREE: return hd_ps_stack_line(ps, l);
			default: return hd_ps_unknown_line(ps, l);
			}
		}
		if (STARTS(l, "  InstructionSequence:") && l.n == 22) {
			ps->d->sections |= HD_SEC_SEQUENCE;
			ps->sec = SEC_SEQUENCE;
			return 0;
		}
		if (STARTS(l, "  BufferLiveRange:") && l.n == 18) {
			ps->d->sections |= HD_SEC_BUFFER_LIVE;
			ps->sec = SEC_BUFFER_LIVE;
			return 0;
		}
		if (STARTS(l, "  Live ranges at "))
			return hd_ps_peak_header(ps, l);
		if (STARTS(l, "  Peak memory could not be determined")) {
			ps->d->peak_style = HD_PEAK_UNDETERMINED;
			ps->sec = SEC_PEAK_UNKNOWN;
			return 0;
		}
		if (STARTS(l, "  Stack trace breakdown for peak usage: "))
			return hd_ps_stack_header(ps, l);
		if (ps->sec == SEC_STACK_TREE)
			return hd_ps_stack_line(ps, l);
	}
	return hd_ps_unknown_line(ps, l);
}

static int one_space_line(struct parser *ps, struct hd_slice l)
{
	if (STARTS(l, " value: "))
		return hd_ps_alloc_value(ps, l);
	if (STARTS(l, " from instruction: "))
		return hd_ps_from_instruction(ps, l);
	if (ps->sec == SEC_USED_VALUES && ps->part != REC_NONE && ps->part != REC_DONE) {
		if (IS(l, " positions:")) {
			ps->part = REC_POSITIONS;
			return 0;
		}
		if (IS(l, " uses:")) {
			ps->part = REC_USES;
			return 0;
		}
		if (IS(l, " uses are not initialized yet.")) {
			ps->part = REC_USES;
			return 0;
		}
	}
	if (ps->sec == SEC_ALLOCATIONS && ps->alloc != HD_NONE &&
	    IS(l, " reused by buffers of a different color:")) {
		ps->in_reuse = 1;
		return 0;
	}
	return hd_ps_unknown_line(ps, l);
}

static int top_level_line(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;

	if (IS(l, "BufferAssignment:")) {
		if (d->sections & HD_SEC_ALLOCATIONS)
			return hd_ps_error(ps, "second 'BufferAssignment:' section");
		d->sections |= HD_SEC_ALLOCATIONS;
		ps->sec = SEC_ALLOCATIONS;
		return 0;
	}
	if (l.p[0] == '<')   /* no other kind below starts with '<' */
		return hd_ps_record(ps, l);
	if (STARTS(l, "allocation "))
		return hd_ps_allocation(ps, l);
	if (STARTS(l, "Total bytes used: "))
		return hd_ps_total(ps, l);
	if (IS(l, "Used values:")) {
		if (d->sections & HD_SEC_USED_VALUES)
			return hd_ps_error(ps, "second 'Used values:' section");
		d->sections |= HD_SEC_USED_VALUES;
		ps->sec = SEC_USED_VALUES;
		ps->part = REC_NONE;
		/* most records name a new instruction: no doublings */
		hd_index_reserve(&d->insn_by_name,
				 (uint64_t)d->insn_by_name.count + ps->plain_values);
		return 0;
	}
	if (STARTS(l, "HloLiveRange (max "))
		return hd_ps_live_range_header(ps, l);
	if (STARTS(l, "HloLiveRange not available")) {
		d->sections |= HD_SEC_LIVE_RANGE_NA;
		return 0;
	}
	return hd_ps_unknown_line(ps, l);
}

/* Is this a first line that a dump (or one of its split parts) may have? */
static int plausible_start(struct hd_slice l)
{
	return IS(l, "BufferAssignment:") ||
	       STARTS(l, "Total bytes used: ") || STARTS(l, "HloLiveRange") ||
	       STARTS(l, "*** Begin ") || IS(l, "Used values:");
}

/*
 * What parse_line does before a line goes to its kind, for the lines
 * that the test there sends here: 1 when the line goes to its kind
 * after all, else what parse_line returns (the line is read here).
 */
static __attribute__((noinline)) int
parse_line_rare(struct parser *ps, struct hd_slice l)
{
	if (ps->sec == SEC_DONE)
		return 0;
	if (l.n && l.p[0] == '*') {
		if (STARTS(l, "*** Begin "))
			return begin_wrapped(ps, l);
		if (STARTS(l, "*** End "))
			return end_wrapped(ps);
	}
	if (ps->sec == SEC_SKIP_WRAPPED)
		return 0;
	if (l.n == 0)
		return 0;
	if (ps->sec == SEC_START && !plausible_start(l)) {
		char q[PARSE_QUOTE_MAX + 8];
		hd_quote(q, sizeof(q), l.p, l.n, PARSE_QUOTE_MAX);
		return hd_ps_error(ps, "not a buffer-assignment dump: first line is '%s' (expected 'BufferAssignment:')", q);
	}
	return 1;
}

/*
 * A line read in a section (SEC_ALLOCATIONS to SEC_STACK_TREE: not the
 * start, a wrapped block skipped or the end) that is not empty and does
 * not start with '*' goes to its kind at once, after one test of the
 * state and two of the line; any other line goes through
 * parse_line_rare's five tests first, as every line did.
 */
static inline __attribute__((always_inline)) int
parse_line(struct parser *ps, struct hd_slice l)
{
	if (__builtin_expect(!((unsigned)ps->sec - SEC_ALLOCATIONS <
			       SEC_SKIP_WRAPPED - SEC_ALLOCATIONS &&
			       l.n && l.p[0] != '*'), 0)) {
		int rc = parse_line_rare(ps, l);

		if (rc <= 0)
			return rc;
	}
	if (l.p[0] != ' ')
		return top_level_line(ps, l);
	if (l.n >= 2 && l.p[1] == ' ')
		return two_space_line(ps, l);
	return one_space_line(ps, l);
}

/* Reports the NUL byte at nul, which no dump contains, at its line and
 * column. */
static int report_nul(struct parser *ps, const char *nul)
{
	const char *p = ps->data, *line_start = ps->data;
	uint64_t line = 1;

	while ((p = memchr(p, '\n', (size_t)(nul - p))) != NULL) {
		line++;
		p++;
		line_start = p;
	}
	hd_error_col(ps->file, line, (uint64_t)(nul - line_start) + 1,
		     "NUL byte in input (expected a text dump)");
	return -1;
}

/*
 * Looks for a NUL byte in the input up to upto that was not looked at
 * yet.  A NUL anywhere in the input is the error reported, whatever else
 * is wrong with it: each line is checked as its end is looked for
 * (hd_scan_line_end), and every other message first checks the rest
 * (no_nul_left).
 */
static int check_nul_upto(struct parser *ps, const char *upto)
{
	const char *nul;

	if (upto <= ps->checked)
		return 0;
	nul = memchr(ps->checked, '\0', (size_t)(upto - ps->checked));
	if (nul)
		return report_nul(ps, nul);
	ps->checked = upto;
	return 0;
}

static int no_nul_left(struct parser *ps)
{
	return check_nul_upto(ps, ps->end);
}

/*
 * The line at p that hd_scan_line_end found no '\n' for (nl NULL) or a NUL
 * byte in (at nl): the NUL is the error; a partial last line is not
 * read (truncation).  Returns -1 after an error, else 0: the lines are
 * over.  ps->line counts the line already.
 */
static __attribute__((noinline, cold)) int
last_line(struct parser *ps, const char *nl)
{
	if (nl)
		return report_nul(ps, nl);
	ps->checked = ps->end;
	return truncation(ps, section_bit(ps),
			  "dump ends in the middle of a line (truncated? expected a final newline)");
}

static int parse_lines(struct parser *ps)
{
	const char *p = ps->data, *end = ps->end;
	/* a line ending at an offset past watch is due the window's move
	 * (none for an input that is not mapped) */
	size_t watch = ps->in ? 0 : SIZE_MAX;

	ps->line = 0;
	while (p < end) {
		const char *nl;
		struct hd_slice l;
		int rc;

		/* a peak line's end was found ahead (look_ahead) */
		if (ps->a_used < ps->a_scanned &&
		    ps->ahead[ps->a_used % AHEAD_RING].line == p)
			nl = ps->ahead[ps->a_used % AHEAD_RING].nl;
		else
			nl = hd_scan_line_end(p, end);

		ps->line++;
		if (__builtin_expect(!nl || *nl == '\0', 0)) {
			if (last_line(ps, nl))
				return -1;
			break;
		}
		/* [data, end of this line) has no NUL */
		ps->checked = nl + 1;
		if ((size_t)(nl - ps->data) >= watch) {
			hd_input_pass_at(ps->in, &ps->pass, p);
			/* next may lie past the input (SIZE_MAX: nothing
			 * more to do, e.g. for an input read into memory) */
			watch = ps->pass.next < (size_t)(end - ps->in->data) ?
				ps->pass.next + (size_t)(ps->in->data - ps->data) :
				SIZE_MAX;
		}
		l = hd_slice_make(p, (size_t)(nl - p));
		if (l.n && l.p[l.n - 1] == '\r')
			l.n--;
		rc = parse_line(ps, l);
		if (__builtin_expect(rc != 0, 0)) {
			if (rc < 0)
				return -1;
			/* the next lines, rc bytes with their '\n' (no NUL),
			 * were read (and counted) with this one
			 * (next_line_is); the window moves at the line after
			 * them */
			nl += rc;
			ps->checked = nl + 1;
		}
		p = nl + 1;
	}
	ps->d->n_lines += ps->line;
	return no_nul_left(ps);
}

static void parser_init(struct parser *ps, struct hd_dump *d, const char *file,
			unsigned flags)
{
	memset(ps, 0, sizeof(*ps));
	ps->d = d;
	ps->file = file;
	ps->flags = flags;
	ps->sec = SEC_START;
	ps->alloc = HD_NONE;
	ps->record = HD_NONE;
	ps->pending.elem = sizeof(struct pending_key);
}

/* Every value line of an allocation has a "Used values" record (counted
 * as the lines and records were filed, not by a walk over the values). */
static int check_records(struct parser *ps)
{
	struct hd_dump *d = ps->d;
	uint32_t listed = (uint32_t)d->n_listed;
	uint32_t recorded = (uint32_t)d->n_listed_records;

	/* a split companion with records of other values: another module's */
	if (recorded < listed && ps->in && ps->in != &d->inputs[0] &&
	    d->n_records > recorded)
		return hd_ps_error(ps, "%llu of its records name no value of the allocations "
			    "in %s (expected the companion of the same module)",
			    (unsigned long long)(d->n_records - recorded), d->inputs[0].name);
	if (recorded < listed)
		return truncation(ps, HD_SEC_USED_VALUES, "'Used values' ends after %u of %u value records (truncated dump?)",
			    recorded, listed);
	return 0;
}

/* The stack-trace tree accounts for all of its header's bytes. */
static int check_stack_tree(struct parser *ps)
{
	int64_t total = ps->d->stack_total;

	if (ps->stack_nodes == 0)
		return total == 0 ? 0 :
			truncation(ps, HD_SEC_STACK_TREE, "stack-trace breakdown has no nodes for its %lld bytes (truncated dump?)",
			     (long long)total);
	if (ps->stack_left > 0)
		return truncation(ps, HD_SEC_STACK_TREE, "stack-trace breakdown ends with %lld bytes still to account for (truncated dump?)",
			    (long long)ps->stack_left);
	if (ps->stack_top != total)
		return truncation(ps, HD_SEC_STACK_TREE, "stack-trace nodes add up to %lld bytes but the header says %lld (truncated dump?)",
			    (long long)ps->stack_top, (long long)total);
	return 0;
}

/* Checks, at the end of one file, that no section in it broke off. */
static int check_complete(struct parser *ps)
{
	struct hd_dump *d = ps->d;
	uint32_t here = d->sections & ~ps->file_sections;

	if (ps->sec == SEC_USED_VALUES && ps->part != REC_NONE && ps->part != REC_DONE &&
	    truncation(ps, HD_SEC_USED_VALUES, "dump ends inside a value record (expected ' from instruction: ...')"))
		return -1;
	if ((here & HD_SEC_USED_VALUES) && check_records(ps))
		return -1;
	if ((here & HD_SEC_LIVE_RANGE) && d->live_max > 0 && !(here & HD_SEC_SEQUENCE) &&
	    truncation(ps, HD_SEC_LIVE_RANGE, "HloLiveRange ends before its 'InstructionSequence:' (truncated dump?)"))
		return -1;
	if ((here & HD_SEC_SEQUENCE) && (int64_t)d->sequence.len != d->live_max &&
	    truncation(ps, HD_SEC_SEQUENCE, "instruction sequence has %zu of %lld entries (truncated dump?)",
		       d->sequence.len, (long long)d->live_max))
		return -1;
	if ((here & HD_SEC_SEQUENCE) && !(here & HD_SEC_BUFFER_LIVE) &&
	    truncation(ps, HD_SEC_BUFFER_LIVE, "HloLiveRange ends before 'BufferLiveRange:' (truncated dump?)"))
		return -1;
	if ((here & HD_SEC_PEAK) && d->peak.len == 0 && d->peak_style != HD_PEAK_UNDETERMINED &&
	    truncation(ps, HD_SEC_PEAK, "peak section has no lines (truncated dump?)"))
		return -1;
	if ((here & HD_SEC_STACK_TREE) && check_stack_tree(ps))
		return -1;
	if ((here & HD_SEC_STACK_TREE) && d->peak_style == HD_PEAK_CUMULATIVE && d->peak.len &&
	    HD_PEAK_ENTRY(d, d->peak.len - 1).cumulative != d->stack_total)
		return truncation(ps, HD_SEC_PEAK, "peak lines add up to %lld bytes but the stack-trace breakdown counts %lld (truncated dump?)",
			    (long long)HD_PEAK_ENTRY(d, d->peak.len - 1).cumulative,
			    (long long)d->stack_total);
	return 0;
}

/* Checks that the parse ended in a state a whole dump can end in. */
static int finish(struct parser *ps)
{
	struct hd_dump *d = ps->d;

	/* one entry for every value, those without a record too */
	if ((ps->flags & HD_PARSE_KEEP_USES) && d->values.len)
		hd_ps_value_uses_of(d, (uint32_t)(d->values.len - 1));
	if (check_complete(ps))
		return -1;
	if (!(d->sections & (HD_SEC_ALLOCATIONS | HD_SEC_TOTAL | HD_SEC_USED_VALUES |
			     HD_SEC_LIVE_RANGE | HD_SEC_LIVE_RANGE_NA)))
		return hd_ps_error(ps, "no buffer-assignment content found (expected 'BufferAssignment:')");
	return 0;
}

/*
 * The model's big arrays of a large dump are reserved at once
 * (hd_vec_expect) instead of growing through malloc to the size at
 * which they move into a reservation anyway.  An array is expected to
 * grow that far when the input has at least `per` bytes for each of its
 * bytes: about half the input a typical large dump has per array byte,
 * so that a dump of another mix still fills most of them.  An array that
 * stays small costs one 2 MiB page instead of a few 4 KiB ones.
 */
#define EXPECT_FROM ((size_t)2 << 20)

static void expect_big(struct hd_dump *d, size_t len)
{
	static const struct { size_t off, per; } big[] = {
		{ offsetof(struct hd_dump, insns), 3 },
		{ offsetof(struct hd_dump, values), 5 },
		{ offsetof(struct hd_dump, value_lines), 29 },
		{ offsetof(struct hd_dump, alloc_values), 5 },
		{ offsetof(struct hd_dump, live_ranges), 17 },
		{ offsetof(struct hd_dump, positions), 10 },
		{ offsetof(struct hd_dump, allocs), 11 },
		{ offsetof(struct hd_dump, peak), 22 },
		{ offsetof(struct hd_dump, sequence), 27 },
		{ offsetof(struct hd_dump, value_colors), 46 },
		{ offsetof(struct hd_dump, value_positions), 46 },
	};
	size_t i;

	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		if (len / big[i].per >= EXPECT_FROM)
			hd_vec_expect((struct hd_vec *)((char *)d + big[i].off));
	/* the arena keeps the values' names; past 64 MiB it grows by
	 * blocks of that size anyway (arena.c) */
	if (len / 16 >= EXPECT_FROM)
		hd_arena_expect(&d->arena, len / 16 < ((size_t)64 << 20) ?
				len / 16 : (size_t)64 << 20);
}

static const struct hd_parse_hooks no_hooks;

static int parse_one(struct hd_dump *d, struct hd_input *in, const char *name,
		     const char *data, size_t len, const struct hd_parse_opts *o)
{
	struct parser ps;
	int rc, i;

	parser_init(&ps, d, name, o->flags);
	ps.hooks = o->hooks ? o->hooks : &no_hooks;
	if (ps.hooks->input)
		ps.hooks->input(ps.hooks->ctx, len);
	ps.in = in;
	ps.file_sections = d->sections;
	/* Dense numbering: ids stay well below the byte count of the dump. */
	if (d->values.len == 0 && d->allocs.len == 0 && (int64_t)(len / 16) > d->id_limit)
		d->id_limit = (int64_t)(len / 16);
	if (len == 0) {
		hd_error(name, 0, "empty file (expected a buffer-assignment dump)");
		return -1;
	}
	ps.data = ps.checked = data;
	ps.end = data + len;
	expect_big(d, len);
	if (len / 64 >= EXPECT_FROM) {
		hd_vec_expect(&ps.pending);
		hd_vec_expect(&d->id_slots);
		hd_vec_expect(&d->alloc_slots);
	}
	ps.memo = hd_xcalloc(SHAPE_MEMO_SLOTS, sizeof(*ps.memo));
	ps.long_memo = hd_xcalloc(LONG_MEMO_SLOTS, sizeof(*ps.long_memo));
	rc = parse_lines(&ps) ? -1 : finish(&ps);
	/* the values of a dump that ends in its allocations */
	if (hd_ps_file_pending(&ps, rc == 0))
		rc = -1;
	hd_vec_release(&ps.pending);
	for (i = 0; i < LONG_MEMO_SLOTS; i++)
		free(ps.long_memo[i].text);
	free(ps.long_memo);
	free(ps.memo);
	return rc;
}

int hd_parse_buffer_opts(struct hd_dump *d, const char *name, const char *data,
			 size_t len, const struct hd_parse_opts *o)
{
	hd_dump_init(d);
	d->name = name;
	return parse_one(d, NULL, name, data, len, o);
}

int hd_parse_buffer(struct hd_dump *d, const char *name, const char *data,
		    size_t len, unsigned flags)
{
	struct hd_parse_opts o = { flags, NULL };

	return hd_parse_buffer_opts(d, name, data, len, &o);
}

/* "X-buffer-assignment.txt[.gz]" -> "X" + suffix (+ ".gz" with gz), or
 * NULL if not that form: either file of a split dump may be compressed. */
static char *sibling_path(struct hd_arena *a, const char *path, const char *suffix,
			  int gz)
{
	static const char ba[] = "-buffer-assignment.txt";
	size_t n = strlen(path), k = sizeof(ba) - 1;

	if (hd_ends_with(path, n, ".gz"))
		n -= 3;
	if (!hd_ends_with(path, n, ba))
		return NULL;
	return hd_arena_printf(a, "%.*s%s%s", (int)(n - k), path, suffix, gz ? ".gz" : "");
}

/*
 * Whether the companion just read (0 values, 1 live ranges) is of the main
 * file's module, else why not into why.  Every record of a values file is
 * a value of the allocations.  A live-range file names the values of the
 * allocations that are not thread-local; a dump may have a few of those
 * without a range, or ranges of values without an allocation, but a file
 * of another module has both.
 */
static int companion_mismatch(const struct hd_dump *d, int kind, char *why, size_t n)
{
	const struct hd_value *first = NULL;
	uint64_t i, bad = 0;

	for (i = 0; i < d->values.len; i++) {
		const struct hd_value *v = &HD_VALUE(d, i);
		int off;

		if (kind == 0)
			off = (v->flags & HD_VALUE_RECORD) && !(v->flags & HD_VALUE_IN_ALLOC);
		else
			off = (v->flags & HD_VALUE_IN_ALLOC) && !(v->flags & HD_VALUE_LIVE) &&
			      !(HD_ALLOC(d, HD_ALLOC_VALUE(d, v->alloc_value).alloc).flags &
				HD_ALLOC_THREAD_LOCAL);
		if (off && !bad++)
			first = v;
	}
	if (!bad || (kind == 1 && d->unknown_ranges.len == 0))
		return 0;
	if (kind == 0)
		snprintf(why, n, "%llu of its records name no value of the allocations "
			 "(the first: <%lld %.*s>)", (unsigned long long)bad,
			 (long long)first->id, (int)first->name.n, first->name.p);
	else
		snprintf(why, n, "%llu values of the allocations have no live range "
			 "(the first: '%.*s') and %llu live ranges name no value",
			 (unsigned long long)bad, (int)first->name.n, first->name.p,
			 (unsigned long long)d->unknown_ranges.len);
	return 1;
}

static int parse_input_into(struct hd_dump *d, const char *path,
			    const struct hd_parse_opts *o)
{
	struct hd_input *in = &d->inputs[d->n_inputs];

	if (hd_input_open(in, path))
		return -1;
	d->n_inputs++;
	return parse_one(d, in, in->name, in->data, in->len, o);
}

int hd_parse_file(struct hd_dump *d, const char *path, unsigned flags)
{
	struct hd_parse_opts o = { flags, NULL };

	return hd_parse_file_opts(d, path, &o);
}

int hd_parse_file_opts(struct hd_dump *d, const char *path,
		       const struct hd_parse_opts *o)
{
	unsigned flags = o->flags;
	static const char *const suffixes[] = {
		"-buffer-assignment-values.txt", "-live-range.txt",
	};
	uint32_t main_sections;
	size_t i;

	hd_dump_init(d);
	d->name = hd_display_name(path);
	if (parse_input_into(d, path, o))
		return -1;
	if ((flags & HD_PARSE_NO_SIBLINGS) || strcmp(path, "-") == 0)
		return 0;
	/* Newest XLA splits the dump: read the companions when present. */
	main_sections = d->sections;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *sib = sibling_path(&d->arena, path, suffixes[i], 0), why[200];
		uint32_t had = d->sections;

		if (!sib)
			continue;
		if (i == 0 && (had & (HD_SEC_TOTAL | HD_SEC_USED_VALUES)))
			continue;
		if (i == 1 && (had & (HD_SEC_LIVE_RANGE | HD_SEC_LIVE_RANGE_NA)))
			continue;
		if (!hd_is_regular_file(sib)) {
			char *gz = sibling_path(&d->arena, path, suffixes[i], 1);
			if (!hd_is_regular_file(gz)) {
				/* a split dump read without it: say what it leaves out */
				if (main_sections == HD_SEC_ALLOCATIONS) {
					d->missing |= i == 0 ? HD_SEC_TOTAL | HD_SEC_USED_VALUES :
						      HD_SEC_LIVE_RANGE;
					d->missing_files[i] = sib;
				}
				continue;
			}
			sib = gz;
		}
		if (parse_input_into(d, sib, o))
			return -1;
		if (companion_mismatch(d, (int)i, why, sizeof(why))) {
			hd_error(sib, 0, "not the companion of %s: %s (expected the %s "
				 "of the same module)", path, why, suffixes[i] + 1);
			return -1;
		}
	}
	return 0;
}

void hd_parse_report_unknown(const struct hd_dump *d)
{
	char lines[256];
	size_t o = 0;
	uint64_t i, shown;

	if (d->n_unknown == 0)
		return;
	shown = d->n_unknown < HD_UNKNOWN_SHOWN ? d->n_unknown : HD_UNKNOWN_SHOWN;
	for (i = 0; i < shown && o < sizeof(lines) - 24; i++)
		o += (size_t)snprintf(lines + o, sizeof(lines) - o, "%s%llu",
				      i ? ", " : "", (unsigned long long)d->unknown_lines[i]);
	hd_warning(d->unknown_files[0], 0, "%llu unknown line%s skipped (%s %s%s)",
		   (unsigned long long)d->n_unknown, d->n_unknown == 1 ? "" : "s",
		   shown == 1 ? "line" : "first at lines", lines,
		   d->n_unknown > shown ? ", ..." : "");
}
