/*
 * parse_live.c - HloLiveRange: the instruction sequence, the buffer live
 * ranges, the peak lines and the stack-trace breakdown (docs/format.md,
 * "Live ranges").
 */
#include "parse_int.h"

/* ---- Part B: HloLiveRange ----------------------------------------- */

int hd_ps_live_range_header(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("HloLiveRange (max ") - 1));
	int64_t max;

	if (ps->d->sections & HD_SEC_LIVE_RANGE)
		return hd_ps_error(ps, "second HloLiveRange section");
	if (take_i64(ps, &t, &max) || take_lit(&t, "):") || t.n || max < 0)
		return hd_ps_bad_line(ps, l, "bad HloLiveRange header", "'HloLiveRange (max T):'");
	ps->d->live_max = max;
	ps->d->sections |= HD_SEC_LIVE_RANGE;
	ps->sec = SEC_LIVE_RANGE;
	return 0;
}

/* Adds one to the decimal number ps->seq_text. */
static inline void next_seq_text(struct parser *ps)
{
	size_t k = ps->seq_n;

	while (k > 0 && ps->seq_text[k - 1] == '9')
		ps->seq_text[--k] = '0';
	if (k > 0) {
		ps->seq_text[k - 1]++;
		return;
	}
	/* 99..9 + 1 */
	memmove(ps->seq_text + 1, ps->seq_text, ps->seq_n++);
	ps->seq_text[0] = '1';
}

/* Files NAME (n bytes at t) as the next position of the sequence. */
static inline void file_sequence(struct parser *ps, const char *t, size_t n)
{
	*PUSH(&ps->d->sequence, struct hd_slice) = hd_slice_make(t, n);
	next_seq_text(ps);
}

/*
 * The sequence lines from q on, while each is "    I:NAME" with the
 * next number (ps->seq_text) and its '\n' (a line hd_ps_sequence_line
 * reads at once), read as it reads them and counted (ps->line): their
 * bytes, for parse_lines to pass over.  Such a line has no NUL byte.
 * The first other line is left to parse_lines.
 */
static int sequence_lines(struct parser *ps, const char *q)
{
	const char *from = q;

	while (q - from < LINES_AHEAD_MAX &&
	       ps->end - q > (ptrdiff_t)(ps->seq_n + 6) &&
	       hd_bytes_eq(q, "    ", 4) && q[ps->seq_n + 4] == ':' &&
	       hd_bytes_eq(q + 4, ps->seq_text, ps->seq_n)) {
		const char *t = q + ps->seq_n + 5;
		size_t n = name_span(hd_slice_make(t, (size_t)(ps->end - t)),
				     ps->end);

		/* a longer name is left to parse_lines (as in usual_uses) */
		if (n == 0 || n >= (size_t)LINES_AHEAD_MAX || t + n == ps->end ||
		    t[n] != '\n')
			break;
		ps->line++;
		file_sequence(ps, t, n);
		q = t + n + 1;
	}
	return (int)(q - from);
}

/*
 * "    I:NAME", I the number of sequence lines before.  The line is
 * compared with that number's digits and ':' (ps->seq_text, kept
 * counting), which is what reading I and checking it finds for every
 * line in order; anything else (another number, leading zeros, a
 * malformed line) is read and checked as the number it has.
 */
int hd_ps_sequence_line(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 4);
	size_t len = ps->d->sequence.len, n;
	int64_t i;

	if (!ps->seq_n)
		ps->seq_n = (size_t)snprintf(ps->seq_text, sizeof(ps->seq_text),
					     "%zu", len);
	if (t.n > ps->seq_n && t.p[ps->seq_n] == ':' &&
	    hd_bytes_eq(t.p, ps->seq_text, ps->seq_n)) {
		t = skip(t, ps->seq_n + 1);
		n = name_span(t, ps->end);
		if (n == 0 || n != t.n)
			return hd_ps_bad_line(ps, l, "bad sequence line", "'    I:NAME'");
	} else {
		if (take_i64(ps, &t, &i) || take_lit(&t, ":"))
			return hd_ps_bad_line(ps, l, "bad sequence line", "'    I:NAME'");
		n = name_span(t, ps->end);
		if (n == 0 || n != t.n)
			return hd_ps_bad_line(ps, l, "bad sequence line", "'    I:NAME'");
		if (i != (int64_t)len)
			return hd_ps_error(ps, "sequence position %lld out of order (expected %zu)",
				    (long long)i, len);
	}
	file_sequence(ps, t.p, n);
	return t.p + n < ps->end && t.p[n] == '\n' ?
	       sequence_lines(ps, t.p + n + 1) : 0;
}

/* Splits "name{idx}" (or "name") into name, index, key. */
static int split_key(struct parser *ps, struct hd_slice s,
		     struct hd_slice *name, struct hd_slice *index,
		     struct hd_slice *key)
{
	size_t n = name_span(s, ps->end);

	if (n == 0)
		return -1;
	*name = hd_slice_make(s.p, n);
	*index = skip(hd_slice_make(s.p, s.n), n);
	if (index->n && index_span(*index) != index->n)
		return -1;
	*key = hd_value_key(s);
	return 0;
}

/*
 * A value with two BufferLiveRange lines would be counted twice in the
 * recomputed peak: an error, naming the first line.
 */
static int second_live_range(struct parser *ps, const struct hd_live_range *r,
			     struct hd_slice name, struct hd_slice index)
{
	const struct hd_dump *d = ps->d;
	char q[PARSE_QUOTE_MAX + 8];
	uint32_t first = 0;
	size_t i;

	for (i = 0; i + 1 < d->live_ranges.len; i++)
		if (HD_LIVE_RANGE(d, i).value == r->value) {
			first = HD_LIVE_RANGE(d, i).line;
			break;
		}
	hd_quote(q, sizeof(q), name.p, name.n + index.n, PARSE_QUOTE_MAX);
	return hd_ps_error(ps, "second live range for '%s' (first at line %u)", q, first);
}

/*
 * Each peak line looks a value up by its key: three dependent cache
 * misses (index slot, value record, the key's bytes) on a large dump
 * (a BufferLiveRange line mostly names the value after the last one's:
 * live_value).  The lookups of the lines ahead are started in three
 * stages, each some lines before the next (look_ahead), so that their
 * misses overlap with the reading of other lines instead of following
 * one another.  The scan that finds each key also finds the line's ':'
 * and end, which the line's reading takes from it (parse_lines,
 * colon_ahead) instead of looking for them again.
 */

/*
 * The first ':', '\n' or '\0' in [p, end), NULL when there is none: a
 * live-range or peak line's colon, or the end of a line without one.
 */
static const char *find_colon_or_end(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == ':' || *p == '\n' || *p == '\0')
			return p;
	return NULL;
}

/* Scans the line at ps->scan_at into the next entry of ps->ahead and
 * starts loading its index slot; at a line that is not "    KEY:..."
 * (or a partial one) the scan is done. */
static void scan_ahead(struct parser *ps)
{
	const char *p = ps->scan_at, *colon, *nl;
	struct hashed_key *a;
	struct hd_slice key;

	if (ps->end - p < 5 || memcmp(p, "    ", 4) != 0 ||
	    !(colon = find_colon_or_end(p + 4, ps->end)) || *colon != ':' ||
	    !(nl = hd_scan_line_end(colon + 1, ps->end)) || *nl != '\n') {
		ps->scan_done = 1;
		return;
	}
	key = hd_value_key(hd_slice_make(p + 4, (size_t)(colon - p - 4)));
	a = &ps->ahead[ps->a_scanned++ % AHEAD_RING];
	*a = (struct hashed_key){ key.p, key.n, hd_index_hash(key), p, colon,
				  nl, HD_NONE };
	hd_index_prefetch(&ps->d->value_by_key, a->hash);
	ps->scan_at = nl + 1;
}

/*
 * Before a peak line (at line) is read: keeps the lines
 * ahead of it going through the three stages above, about one line a
 * stage each time, so that the loads of each stage have had the reading
 * of 16 lines to arrive.  At the first such line (or any line that is
 * not the next one scanned) the scan starts over there.  Only hints: the
 * lines are then read as usual, with the hashes and ends found here.
 */
static void look_ahead(struct parser *ps, const char *line)
{
	const struct hd_dump *d = ps->d;

	if (ps->a_used == ps->a_scanned ||
	    ps->ahead[ps->a_used % AHEAD_RING].line != line) {
		ps->a_used = ps->a_name = ps->a_value = ps->a_scanned = 0;
		ps->scan_at = line;
		ps->scan_done = 0;
	}
	while (!ps->scan_done && ps->a_scanned - ps->a_used < AHEAD_SCAN)
		scan_ahead(ps);
	while (ps->a_value < ps->a_scanned &&
	       ps->a_value - ps->a_used < AHEAD_VALUE) {
		struct hashed_key *a = &ps->ahead[ps->a_value++ % AHEAD_RING];

		a->v = hd_index_first(&d->value_by_key, a->hash);
		if (a->v != HD_NONE)
			prefetch_value(d, a->v);
	}
	while (ps->a_name < ps->a_value &&
	       ps->a_name - ps->a_used < AHEAD_NAME) {
		const struct hashed_key *a = &ps->ahead[ps->a_name++ % AHEAD_RING];

		if (a->v != HD_NONE)
			__builtin_prefetch(HD_VALUE(d, a->v).name.p);
	}
}

/* The first ':' of line l (a peak line, l.n >= 4) after its indent, or
 * NULL: as look_ahead found it when it scanned this line. */
static inline const char *colon_ahead(const struct parser *ps, struct hd_slice l)
{
	const struct hashed_key *a = &ps->ahead[ps->a_used % AHEAD_RING];

	if (ps->a_used < ps->a_scanned && a->line == l.p)
		return a->colon;
	return memchr(l.p + 4, ':', l.n - 4);
}

/* The value whose key is name_index, with the hash worked out ahead
 * (look_ahead) when this is the line it was worked out for. */
static inline __attribute__((always_inline)) uint32_t
value_by_key_ahead(struct parser *ps, struct hd_slice name_index)
{
	struct hd_slice key = hd_value_key(name_index);

	if (ps->a_used < ps->a_scanned) {
		const struct hashed_key *a = &ps->ahead[ps->a_used % AHEAD_RING];

		if (a->p == key.p && a->n == key.n) {
			ps->a_used++;
			return hd_dump_value_by_hash(ps->d, a->hash, key);
		}
	}
	return hd_dump_value_by_key(ps->d, name_index);
}

/*
 * BufferLiveRange lists values in id order (docs/format.md, "Live
 * ranges"), most of them with a live range: a line's value is mostly
 * the next one by id after the previous line's (live_id), or one of the
 * few after it
 * (values of thread-local allocations have no live range).  Each
 * candidate is taken when its key is the line's, as the index lookup
 * would (keys are unique in it, and every value is filed by the time
 * a live range is read); LIVE_TRIES of them, then the key is looked up
 * (hashed) as before, and the next line's candidates follow the value
 * found.  The values and names of the ids ahead start loading here, as
 * look_ahead does for the peak lines: LIVE_AHEAD_VALUE id slots ahead
 * the value, LIVE_AHEAD_NAME the name.
 */
#define LIVE_TRIES 3
#define LIVE_SLOTS 64           /* empty id slots passed at most */
#define LIVE_AHEAD_VALUE 24
#define LIVE_AHEAD_NAME 12

static inline __attribute__((always_inline)) uint32_t
live_value(struct parser *ps, struct hd_slice name_index)
{
	const struct hd_dump *d = ps->d;
	const uint32_t *slot = d->id_slots.data;
	size_t n = d->id_slots.len, i = ps->live_id, stop, tries = 0;
	struct hd_slice key = hd_value_key(name_index);
	uint32_t v;
	int64_t id;

	stop = n - i > LIVE_SLOTS ? i + LIVE_SLOTS : n;
	for (; i < stop && tries < LIVE_TRIES; i++) {
		v = slot[i];
		if (v == HD_NONE)
			continue;
		tries++;
		if (name_eq(hd_value_key_of(&HD_VALUE(d, v)), key)) {
			ps->live_id = i + 1;
			if (n - i > LIVE_AHEAD_VALUE &&
			    slot[i + LIVE_AHEAD_VALUE] != HD_NONE)
				prefetch_value(d, slot[i + LIVE_AHEAD_VALUE]);
			if (n - i > LIVE_AHEAD_NAME &&
			    slot[i + LIVE_AHEAD_NAME] != HD_NONE)
				__builtin_prefetch(
					HD_VALUE(d, slot[i + LIVE_AHEAD_NAME]).name.p);
			return v;
		}
	}
	v = hd_dump_value_by_key(d, name_index);
	if (v != HD_NONE) {
		id = HD_VALUE(d, v).id;
		if (id >= 0 && (uint64_t)id < n && slot[id] == v)
			ps->live_id = (size_t)id + 1;
	}
	return v;
}

/*
 * The value named by the key text s (a live-range or peak line's
 * "NAME{IDX}" before its ':') into *v, and s split into name and index
 * as split_key splits it.  A value found has a key of exactly these
 * bytes, made of a name (name_span) and an index (index_span) when it
 * was made, so the split is the value's own and is not looked for
 * again; s of no value is split (and checked) by split_key.  Returns
 * -1 when that finds s malformed.
 */
static inline __attribute__((always_inline)) int
lookup_key(struct parser *ps, struct hd_slice s, uint32_t *v,
	   struct hd_slice *name, struct hd_slice *index, int live)
{
	struct hd_slice key;

	*v = live ? live_value(ps, s) : value_by_key_ahead(ps, s);
	if (*v == HD_NONE)
		return split_key(ps, s, name, index, &key);
	*name = hd_slice_make(s.p, HD_VALUE(ps->d, *v).name.n);
	*index = skip(s, name->n);
	return 0;
}

static inline __attribute__((always_inline)) int
live_line(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = skip(l, 4);
	struct hd_live_range *r;
	const char *colon;
	struct hd_slice nums, name, index;
	int64_t start, end;
	uint32_t v;

	if (pending_filed(ps))
		return -1;
	colon = t.p + hd_scan_either(t.p, t.n, 0, ':', ':', ps->end);
	if (colon == t.p + t.n)
		return hd_ps_bad_line(ps, l, "bad live range", "'    NAME{IDX}:START-END'");
	nums = skip(t, (size_t)(colon - t.p) + 1);
	if (take_i64(ps, &nums, &start) || take_lit(&nums, "-") ||
	    take_i64(ps, &nums, &end) || nums.n)
		return hd_ps_bad_line(ps, l, "bad live range", "'    NAME{IDX}:START-END'");
	if (start < 0 || end < start)
		return hd_ps_bad_line(ps, l, "live range ends before it starts", "START <= END");
	r = PUSH(&ps->d->live_ranges, struct hd_live_range);
	if (lookup_key(ps, hd_slice_make(t.p, (size_t)(colon - t.p)), &v,
		       &name, &index, 1))
		return hd_ps_bad_line(ps, l, "bad live range name", "'NAME{IDX}'");
	r->start = start;
	r->end = end;
	r->line = (uint32_t)ps->line;
	r->value = v;
	if (v == HD_NONE) {
		struct hd_unknown_range *u = PUSH(&ps->d->unknown_ranges,
						  struct hd_unknown_range);

		u->range = (uint32_t)(ps->d->live_ranges.len - 1);
		u->name = name;
		u->index = index;
	}
	if (v != HD_NONE && (HD_VALUE(ps->d, v).flags & HD_VALUE_LIVE))
		return second_live_range(ps, r, name, index);
	if (v != HD_NONE) {
		struct hd_value *val = &HD_VALUE(ps->d, v);
		val->flags |= HD_VALUE_LIVE;
		val->live_start = start;
		val->live_end = end;
	}
	return 0;
}

/* A BufferLiveRange line. */
int hd_ps_buffer_live_line(struct parser *ps, struct hd_slice l)
{
	return live_line(ps, l);
}

int hd_ps_peak_header(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("  Live ranges at ") - 1));
	int64_t time;

	if (ps->d->sections & HD_SEC_PEAK)
		return hd_ps_error(ps, "second peak section");
	if (take_i64(ps, &t, &time) || take_lit(&t, " (peak):") || t.n || time < 0)
		return hd_ps_bad_line(ps, l, "bad peak header", "'  Live ranges at T (peak):'");
	ps->d->peak_time = time;
	ps->d->sections |= HD_SEC_PEAK;
	ps->d->peak_style = HD_PEAK_PLAIN;
	ps->sec = SEC_PEAK;
	return 0;
}

/* Not inlined: in the line loop (parse_one), with look_ahead, it cost
 * the loop registers, and instructions on every line of the dump. */
__attribute__((noinline)) int
hd_ps_peak_line(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = skip(l, 4);
	struct hd_peak_entry *e;
	const char *colon;
	struct hd_slice rest;

	if (pending_filed(ps))
		return -1;
	look_ahead(ps, l.p);
	colon = colon_ahead(ps, l);
	if (!colon)
		return hd_ps_bad_line(ps, l, "bad peak line", "'    NAME{IDX}: B bytes (cumulative: S bytes)'");
	e = PUSH(&d->peak, struct hd_peak_entry);
	e->line = (uint32_t)ps->line;
	e->cumulative = -1;
	if (lookup_key(ps, hd_slice_make(t.p, (size_t)(colon - t.p)),
		       &e->value, &e->name, &e->index, 0))
		return hd_ps_bad_line(ps, l, "bad peak value name", "'NAME{IDX}'");
	rest = skip(t, (size_t)(colon - t.p) + 1);
	if (take_lit(&rest, " ") || take_i64(ps, &rest, &e->bytes) ||
	    take_lit(&rest, " bytes") || e->bytes < 0)
		return hd_ps_bad_line(ps, l, "bad peak line", "'    NAME{IDX}: B bytes (cumulative: S bytes)'");
	if (__builtin_add_overflow(ps->peak_sum, e->bytes, &ps->peak_sum))
		return hd_ps_error(ps, "peak lines add up to more than %lld bytes (expected a total that fits in 64 bits)",
			    (long long)INT64_MAX);
	if (rest.n) {
		if (take_lit(&rest, " (cumulative: ") ||
		    take_i64(ps, &rest, &e->cumulative) ||
		    take_lit(&rest, " bytes)") || rest.n)
			return hd_ps_bad_line(ps, l, "bad cumulative figure", "'(cumulative: S bytes)'");
		if (d->peak.len == 1)
			d->peak_style = HD_PEAK_CUMULATIVE;
		else if (d->peak_style != HD_PEAK_CUMULATIVE)
			return hd_ps_error(ps, "peak lines mix the cumulative and plain styles");
	} else if (d->peak_style == HD_PEAK_CUMULATIVE) {
		return hd_ps_error(ps, "peak lines mix the cumulative and plain styles");
	}
	return 0;
}

int hd_ps_stack_header(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("  Stack trace breakdown for peak usage: ") - 1));
	int64_t total;

	if (take_spaced_i64(&t, &total) || take_lit(&t, " bytes") || t.n)
		return hd_ps_bad_line(ps, l, "bad stack trace header", "'  Stack trace breakdown for peak usage: N bytes'");
	ps->d->stack_total = total;
	ps->d->sections |= HD_SEC_STACK_TREE;
	ps->sec = SEC_STACK_TREE;
	return 0;
}

/*
 * Depth of a stack-trace node line and where its name starts; -1 if the
 * line is not a node line.  Top-level nodes are "    NAME"; deeper ones
 * are "  " + one 4-column unit ("    " or "│   ") per level above the
 * parent + a connector ("├── " or "└── ").
 */
static int tree_depth(struct hd_slice l, size_t *name_at)
{
	static const char vbar[] = "\xe2\x94\x82   ";
	static const char tee[] = "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ";
	static const char ell[] = "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 ";
	size_t i = 2;
	int units = 0;

	if (STARTS(l, "    ") && l.n > 4 && l.p[4] != ' ') {
		*name_at = 4;
		return 0;
	}
	if (!STARTS(l, "  "))
		return -1;
	while (i < l.n) {
		struct hd_slice t = tail(l, i);
		if (starts(t, tee, sizeof(tee) - 1) || starts(t, ell, sizeof(ell) - 1)) {
			*name_at = i + sizeof(tee) - 1;
			return units;
		}
		if (starts(t, vbar, sizeof(vbar) - 1))
			i += sizeof(vbar) - 1;
		else if (starts(t, "    ", 4))
			i += 4;
		else
			return -1;
		units++;
	}
	return -1;
}

int hd_ps_stack_line(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t, stats;
	size_t name_at = 0, open, p;
	int64_t total, current, remaining = -1;
	int depth = tree_depth(l, &name_at);

	if (depth < 0)
		return hd_ps_unknown_line(ps, l);
	t = tail(l, name_at);
	if (t.n < 4 || t.p[t.n - 1] != ')')
		return hd_ps_bad_line(ps, l, "bad stack trace node", "'NAME (P%, total: T bytes, ...)'");
	/* the statistics are the last "( ... )" group */
	for (open = t.n - 1; open > 0 && t.p[open] != '('; open--)
		;
	if (open == 0 || t.p[open - 1] != ' ')
		return hd_ps_bad_line(ps, l, "bad stack trace node", "'NAME (P%, ...)'");
	stats = hd_slice_make(t.p + open + 1, t.n - open - 2);
	for (p = 0; p < stats.n && ((stats.p[p] >= '0' && stats.p[p] <= '9') || stats.p[p] == '.'); p++)
		;
	stats = tail(stats, p);
	if (p == 0 || take_lit(&stats, "%, "))
		return hd_ps_bad_line(ps, l, "bad stack trace percentage", "'(P%, ...)'");
	if (take_lit(&stats, "total: ") == 0) {
		if (take_spaced_i64(&stats, &total) ||
		    take_lit(&stats, " bytes, current: ") ||
		    take_spaced_i64(&stats, &current) ||
		    take_lit(&stats, " bytes, remaining: ") ||
		    take_spaced_i64(&stats, &remaining) ||
		    take_lit(&stats, " bytes") || stats.n)
			return hd_ps_bad_line(ps, l, "bad stack trace figures", "'total: T bytes, current: C bytes, remaining: R bytes'");
	} else if (take_spaced_i64(&stats, &total) ||
		   take_lit(&stats, " bytes") || stats.n) {
		return hd_ps_bad_line(ps, l, "bad stack trace figures", "'(P%, N bytes)'");
	}
	ps->stack_nodes++;
	ps->stack_left = remaining;
	if (depth == 0)
		ps->stack_top = hd_sat_add(ps->stack_top, total);
	return 0;
}
