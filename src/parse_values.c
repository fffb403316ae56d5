/*
 * parse_values.c - the "Used values:" records: "<ID NAME>", positions
 * and uses (docs/format.md, "The total and the value records").
 */
#include "parse_int.h"

/* ---- Part A': Used values ------------------------------------------ */

/*
 * Records come in id order, but their values were made in the order of
 * the allocations, so each record's value (and its key, which the short
 * form is checked against) is a cache miss.  Start loading the value of
 * the 4th id with a value after this one, and the key of the next.
 */
static void prefetch_records(struct parser *ps, int64_t id)
{
	const struct hd_dump *d = ps->d;
	const uint32_t *slot = d->id_slots.data;
	size_t n = d->id_slots.len, stop, i;

	if (id < 0 || (uint64_t)id >= n)
		return;
	/* the ids ahead already found stay, those passed go */
	while (ps->n_ahead_ids &&
	       ps->ahead_ids[ps->ahead_first] <= (size_t)id) {
		ps->ahead_first = (ps->ahead_first + 1) % 4;
		ps->n_ahead_ids--;
	}
	if (ps->ids_scanned <= (size_t)id) {
		ps->ids_scanned = (size_t)id + 1;
		ps->n_ahead_ids = 0;
	}
	stop = n - (size_t)id > 64 ? (size_t)id + 64 : n;
	for (i = ps->ids_scanned; i < stop && ps->n_ahead_ids < 4; i++)
		if (slot[i] != HD_NONE) {
			ps->ahead_ids[(ps->ahead_first + ps->n_ahead_ids++) % 4] = i;
			if (ps->n_ahead_ids == 4) {
				prefetch_value(d, slot[i]);
				/* the record writes these too */
				__builtin_prefetch(&HD_VALUE_LINES(d, slot[i]));
				__builtin_prefetch(&HD_VALUE_POSITIONS(d, slot[i]));
			}
		}
	ps->ids_scanned = i;
	if (ps->n_ahead_ids)
		__builtin_prefetch(
			HD_VALUE(d, slot[ps->ahead_ids[ps->ahead_first]]).name.p);
}

/* Value v's entry of d->value_uses (HD_PARSE_KEEP_USES), the array
 * grown with zeroed entries up to it. */
struct hd_value_uses *hd_ps_value_uses_of(struct hd_dump *d, uint32_t v)
{
	while (d->value_uses.len <= v)
		PUSH(&d->value_uses, struct hd_value_uses);
	return &HD_VALUE_USES(d, v);
}

/* Keeps use u of the value whose record is read (HD_PARSE_KEEP_USES). */
static void keep_use(struct parser *ps, struct hd_use u)
{
	*PUSH(&ps->d->uses, struct hd_use) = u;
	hd_ps_value_uses_of(ps->d, ps->record)->use_count++;
}

/*
 * The line after l, when it is exactly the literal lit (n bytes, its
 * '\n' the last) and l ended at a '\n': n, else 0.  A record's
 * " positions:" and " uses:" lines, whose reading is a change of
 * ps->part, are read so with the line before them (the caller makes
 * the change, as one_space_line would): the caller counts the line
 * (ps->line) and adds n to what it returns, the bytes of the lines
 * after l that it read, which parse_lines then passes over.
 */
static inline __attribute__((always_inline)) int
next_line_is(const struct parser *ps, struct hd_slice l, const char *lit,
	     size_t n)
{
	const char *q = l.p + l.n;

	return ps->end - q > (ptrdiff_t)n && q[0] == '\n' &&
	       hd_bytes_eq(q + 1, lit, n) ? (int)n : 0;
}

static int first_position(struct parser *ps, const char *q,
			  struct hd_slice name);

int hd_ps_record(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = l;
	struct hd_value *val;
	uint32_t v = HD_NONE;

	if (ps->sec != SEC_USED_VALUES)
		return hd_ps_error(ps, "value record outside 'Used values:' (expected 'Used values:' before it)");
	if (ps->part != REC_NONE && ps->part != REC_DONE)
		return hd_ps_error(ps, "value record starts before the previous one ended (expected ' from instruction: ...')");
	if (hd_ps_record_short_form(ps, l, &t, &v))
		return -1;
	if (t.n)
		return hd_ps_bad_line(ps, l, "text after value record", "'<ID NAME>' alone");
	val = &HD_VALUE(ps->d, v);
	if (val->flags & HD_VALUE_RECORD)
		return hd_ps_error(ps, "second record for value %lld (first at line %u)",
			    (long long)val->id,
			    HD_VALUE_LINES(ps->d, v).record_line);
	val->flags |= HD_VALUE_RECORD;
	ps->d->n_records++;
	ps->d->n_listed_records += (val->flags & HD_VALUE_IN_ALLOC) != 0;
	prefetch_records(ps, val->id);
	/* The instruction is most likely the value's namesake: start
	 * loading its index slot for the " from instruction:" line. */
	ps->record_hash = hd_hash64(val->name);
	hd_index_prefetch(&ps->d->insn_by_name, (uint32_t)ps->record_hash);
	HD_VALUE_LINES(ps->d, v).record_line = (uint32_t)ps->line;
	HD_VALUE_POSITIONS(ps->d, v).pos_first = (uint32_t)ps->d->positions.len;
	if (ps->flags & HD_PARSE_KEEP_USES)
		hd_ps_value_uses_of(ps->d, v)->use_first = (uint32_t)ps->d->uses.len;
	ps->record = v;
	ps->part = REC_HEADER;
	/* mostly " positions:" next (as one_space_line reads it) */
	if (next_line_is(ps, l, " positions:\n", 12)) {
		ps->line++;
		ps->part = REC_POSITIONS;
		return 12 + first_position(ps, l.p + l.n + 13, val->name);
	}
	return 0;
}

/* Does the use line's name (n bytes at t) go on as the usual use does,
 * ", operand D" (one digit)?  11 bytes are readable after the name. */
static inline int usual_use_tail(const char *t, size_t n)
{
	return hd_bytes_eq(t + n, ", operand ", 10) &&
	       (unsigned)(t[n + 10] - '0') < 10;
}

/* Keeps the usual use "NAME, operand D" (the name n bytes at t) with
 * HD_PARSE_KEEP_USES. */
static inline void keep_usual_use(struct parser *ps, const char *t, size_t n)
{
	if (ps->flags & HD_PARSE_KEEP_USES)
		keep_use(ps, (struct hd_use){ hd_slice_make(t, n), HD_SLICE_NULL,
					     t[n + 10] - '0' });
}

/*
 * The use lines from q on, while each is the usual "  NAME, operand D"
 * (one digit) and its '\n', read as parse_use reads that line (in a
 * record's uses, which ps->part says already) and counted (ps->line):
 * their bytes, for parse_lines to pass over.  Such a line has no NUL
 * byte.  The first other line (another form, a " from instruction:",
 * the input's end) is left to parse_lines.
 */
static int usual_uses(struct parser *ps, const char *q)
{
	const char *from = q;

	while (ps->end - q > 14 && q[0] == ' ' && q[1] == ' ' &&
	       q - from < LINES_AHEAD_MAX) {
		const char *t = q + 2;
		size_t n = name_span(hd_slice_make(t, (size_t)(ps->end - t)),
				     ps->end);

		/* a longer name is left to parse_lines: what the readers
		 * return adds up in an int (LINES_AHEAD_MAX) */
		if (n == 0 || n >= (size_t)LINES_AHEAD_MAX ||
		    ps->end - (t + n) < 12 || !usual_use_tail(t, n) ||
		    t[n + 11] != '\n')
			break;
		ps->line++;
		keep_usual_use(ps, t, n);
		q = t + n + 12;
	}
	return (int)(q - from);
}

/* The lines after l (" uses:" ending at a '\n') that usual_uses
 * reads, their bytes. */
static inline int uses_after(struct parser *ps, struct hd_slice l)
{
	const char *q = l.p + l.n;

	return q < ps->end && *q == '\n' ? usual_uses(ps, q + 1) : 0;
}

/* "NAME" or "NAME {IDX}" */
static inline __attribute__((always_inline)) int
parse_position(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 2);
	struct hd_position *p;
	const struct hd_value *val = &HD_VALUE(ps->d, ps->record);
	size_t n = val->name.n;

	/* the first position is mostly the value's own name: when that and
	 * a ' ' or the line's end are next, name_span would find it */
	if (!(t.n >= n && (t.n == n || t.p[n] == ' ') &&
	      name_eq(hd_slice_make(t.p, n), val->name)))
		n = name_span(t, ps->end);

	if (n == 0)
		return hd_ps_bad_line(ps, l, "bad position", "'  NAME' or '  NAME {IDX}'");
	p = PUSH(&ps->d->positions, struct hd_position);
	p->name = hd_slice_make(t.p, n);
	t = skip(t, n);
	if (t.n) {
		if (take_lit(&t, " ") || index_span(t) != t.n)
			return hd_ps_bad_line(ps, l, "bad position", "'  NAME {IDX}'");
		p->index = t;
	}
	if (ps->hooks->position)
		ps->hooks->position(ps->hooks->ctx, p,
				    HD_VALUE_POSITIONS(ps->d, ps->record).pos_count);
	HD_VALUE_POSITIONS(ps->d, ps->record).pos_count++;
	/* " uses:" after the last position (as one_space_line reads it) */
	if (next_line_is(ps, l, " uses:\n", 7)) {
		ps->line++;
		ps->part = REC_USES;
		return 7 + uses_after(ps, hd_slice_make(l.p + l.n + 1, 6));
	}
	return 0;
}

/*
 * After a record's " positions:" line, read with the record, the line
 * at q: when it is "  NAME" (name, the value's) and its '\n', the first
 * position as most records have it, it is read here (parse_position, as
 * hd_ps_record_body would; such a line has no NUL byte), and its length
 * is returned with those of the lines read with it.  Else 0: the line
 * is read as any other.
 */
static int first_position(struct parser *ps, const char *q,
			  struct hd_slice name)
{
	size_t k = name.n + 2;
	int rc;

	if (!(name.n < (size_t)LINES_AHEAD_MAX && ps->end - q > (ptrdiff_t)k &&
	      q[k] == '\n' && q[0] == ' ' &&
	      q[1] == ' ' && name_eq(hd_slice_make(q + 2, name.n), name)))
		return 0;
	ps->line++;
	rc = parse_position(ps, hd_slice_make(q, k));
	return rc < 0 ? rc : (int)k + 1 + rc;
}

/* "NAME, operand K" [" {IDX}"]; kept only with HD_PARSE_KEEP_USES.
 * Not inlined, as GCC chose before parse_line's fast path (inlined in
 * the line loop it cost more instructions than its call). */
static __attribute__((noinline)) int
parse_use(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 2);
	struct hd_use u;
	size_t n = name_span(t, ps->end);

	if (IS(t, "(none)"))
		return 0;
	if (n == 0)
		return hd_ps_bad_line(ps, l, "bad use", "'  NAME, operand K'");
	u = (struct hd_use){ HD_SLICE_NULL, HD_SLICE_NULL, 0 };
	u.name = hd_slice_make(t.p, n);
	t = skip(t, n);
	if (take_lit(&t, ", operand ") || take_i64(ps, &t, &u.operand))
		return hd_ps_bad_line(ps, l, "bad use", "'  NAME, operand K'");
	if (t.n) {
		if (take_lit(&t, " ") || index_span(t) != t.n)
			return hd_ps_bad_line(ps, l, "bad use", "'  NAME, operand K {IDX}'");
		u.index = t;
	}
	if (ps->flags & HD_PARSE_KEEP_USES)
		keep_use(ps, u);
	return 0;
}

int hd_ps_record_body(struct parser *ps, struct hd_slice l)
{
	if (ps->part == REC_POSITIONS)
		return parse_position(ps, l);
	if (ps->part == REC_USES)
		return parse_use(ps, l);
	return hd_ps_unknown_line(ps, l);
}
