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
	return 0;
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
	   struct hd_slice *name, struct hd_slice *index)
{
	struct hd_slice key;

	*v = hd_dump_value_by_key(ps->d, s);
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
		       &name, &index))
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
	ps->d->peak_line = (uint32_t)ps->line;
	ps->d->sections |= HD_SEC_PEAK;
	ps->d->peak_style = HD_PEAK_PLAIN;
	ps->sec = SEC_PEAK;
	return 0;
}

/* Not inlined: in the line loop (parse_one) it cost the loop
 * registers, and instructions on every line of the dump. */
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
	colon = memchr(l.p + 4, ':', l.n - 4);
	if (!colon)
		return hd_ps_bad_line(ps, l, "bad peak line", "'    NAME{IDX}: B bytes (cumulative: S bytes)'");
	e = PUSH(&d->peak, struct hd_peak_entry);
	e->line = (uint32_t)ps->line;
	e->cumulative = -1;
	if (lookup_key(ps, hd_slice_make(t.p, (size_t)(colon - t.p)),
		       &e->value, &e->name, &e->index))
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
	struct hd_stack_node *node;
	struct hd_slice t, stats;
	size_t name_at = 0, open, p;
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
	node = PUSH(&ps->d->stack, struct hd_stack_node);
	node->depth = (uint32_t)depth;
	node->name = hd_slice_make(t.p, open - 1);
	node->line = (uint32_t)ps->line;
	node->current = node->remaining = -1;
	stats = hd_slice_make(t.p + open + 1, t.n - open - 2);
	for (p = 0; p < stats.n && ((stats.p[p] >= '0' && stats.p[p] <= '9') || stats.p[p] == '.'); p++)
		;
	node->percent = hd_slice_make(stats.p, p);
	stats = tail(stats, p);
	if (node->percent.n == 0 || take_lit(&stats, "%, "))
		return hd_ps_bad_line(ps, l, "bad stack trace percentage", "'(P%, ...)'");
	if (take_lit(&stats, "total: ") == 0) {
		if (take_spaced_i64(&stats, &node->total) ||
		    take_lit(&stats, " bytes, current: ") ||
		    take_spaced_i64(&stats, &node->current) ||
		    take_lit(&stats, " bytes, remaining: ") ||
		    take_spaced_i64(&stats, &node->remaining) ||
		    take_lit(&stats, " bytes") || stats.n)
			return hd_ps_bad_line(ps, l, "bad stack trace figures", "'total: T bytes, current: C bytes, remaining: R bytes'");
	} else if (take_spaced_i64(&stats, &node->total) ||
		   take_lit(&stats, " bytes") || stats.n) {
		return hd_ps_bad_line(ps, l, "bad stack trace figures", "'(P%, N bytes)'");
	}
	return 0;
}
