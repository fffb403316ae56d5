/*
 * parse_alloc.c - the allocations section ("allocation N: ...", its
 * value lines, "Total bytes used"), the memo of shape sizes, and the
 * filing of the values under their keys (docs/format.md,
 * "Allocations").
 */
#include "parse_int.h"

/* ---- model helpers ---------------------------------------------- */

/* The hash of shape without its layout. */
static uint64_t bare_hash(struct hd_slice shape)
{
	return hd_hash64(hd_shape_strip_layout(shape));
}

/* The hashes of a shape the loose keys of canon.h use (hd_alloc_value's
 * shape_hash and bare_hash), worked out without a memo. */
static void hash_shape(struct hd_slice shape, struct shape_hashes *out)
{
	if (!out)
		return;
	out->whole = hd_hash64(shape);
	out->bare = bare_hash(shape);
}

/* hd_shape_logical_bytes of a shape longer than SHAPE_MEMO_TEXT, and
 * its hashes when out is not NULL. */
static int64_t long_shape_bytes(struct parser *ps, struct hd_slice shape,
				struct shape_hashes *out)
{
	struct long_memo *m;
	uint64_t h;

	if (shape.n > LONG_MEMO_TEXT) {
		hash_shape(shape, out);
		return hd_shape_logical_bytes(shape);
	}
	h = hd_hash64(shape);
	m = &ps->long_memo[h & (LONG_MEMO_SLOTS - 1)];
	if (m->len == shape.n && m->hash == h &&
	    hd_bytes_eq(m->text, shape.p, shape.n)) {
		if (out)
			*out = (struct shape_hashes){ h, m->bare };
		return m->bytes;
	}
	if (m->cap < shape.n) {
		free(m->text);
		m->cap = m->cap * 2 > shape.n ? m->cap * 2 : (uint32_t)shape.n;
		m->text = hd_xmalloc(m->cap);
	}
	m->hash = h;
	m->bare = bare_hash(shape);
	m->len = (uint32_t)shape.n;
	memcpy(m->text, shape.p, shape.n);
	m->bytes = hd_shape_logical_bytes(shape);
	if (out)
		*out = (struct shape_hashes){ h, m->bare };
	return m->bytes;
}

/*
 * The memo slot index of shape (1 to SHAPE_MEMO_TEXT bytes): its first
 * and last 16 bytes (8, or the bytes one by one, for a shorter shape)
 * and length, mixed by multiplies; the top bits depend on every bit.
 * Only where a shape is looked for: a middle byte left out or a
 * collision costs a miss, never a wrong hit (the text is compared).
 */
static inline uint32_t memo_index(struct hd_slice shape)
{
	const char *p = shape.p;
	size_t n = shape.n, i;
	uint64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, h;

	if (n >= 16) {
		a0 = load64(p);
		a1 = load64(p + 8);
		b0 = load64(p + n - 16);
		b1 = load64(p + n - 8);
	} else if (n >= 8) {
		a0 = load64(p);
		a1 = load64(p + n - 8);
	} else {
		for (i = 0; i < n; i++)
			a0 = a0 << 8 | (unsigned char)p[i];
	}
	h = (a0 ^ n) * 0x9e3779b97f4a7c15ull + a1 * 0xc2b2ae3d27d4eb4full +
	    b0 * 0x165667b19e3779f9ull + b1 * 0xd6e8feb86659fd93ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h >> 54) & (SHAPE_MEMO_SLOTS - 1);
}

/* The memo slot of shape (1 to SHAPE_MEMO_TEXT bytes); *hit says
 * whether it holds shape (hd_scan_same: hd_bytes_eq calls memcmp past
 * 32 bytes).  Inlined in its two callers (one a value line, one an
 * instruction line). */
static inline __attribute__((always_inline)) struct shape_memo *
memo_slot(struct parser *ps, struct hd_slice shape, int *hit)
{
	struct shape_memo *m = &ps->memo[memo_index(shape)];

	*hit = m->len == shape.n && hd_scan_same(m->text, shape.p, shape.n);
	return m;
}

/* hd_shape_logical_bytes(shape) through the memo slot m (hit: it holds
 * shape already, and its hash; else shape is hashed and filed there). */
static int64_t memo_bytes(struct shape_memo *m, struct hd_slice shape,
			  int hit)
{
	if (hit)
		return m->bytes;
	m->hash = hd_hash64(shape);
	m->len = (uint32_t)shape.n;
	m->plain = 0;
	m->bare_known = 0;
	memcpy(m->text, shape.p, shape.n);
	m->bytes = hd_shape_logical_bytes(shape);
	return m->bytes;
}

/* hd_shape_logical_bytes(shape), through the memo; and the shape's
 * hashes when out is not NULL. */
static int64_t shape_bytes(struct parser *ps, struct hd_slice shape,
			   struct shape_hashes *out)
{
	struct shape_memo *m;
	int64_t bytes;
	int hit;

	if (shape.n == 0) {
		hash_shape(shape, out);
		return hd_shape_logical_bytes(shape);
	}
	if (shape.n > SHAPE_MEMO_TEXT)
		return long_shape_bytes(ps, shape, out);
	m = memo_slot(ps, shape, &hit);
	bytes = memo_bytes(m, shape, hit);
	if (out) {
		if (!m->bare_known) {
			m->bare = bare_hash(shape);
			m->bare_known = 1;
		}
		*out = (struct shape_hashes){ m->hash, m->bare };
	}
	return bytes;
}

/*
 * An instruction's shape at the start of t: its length (balanced_until
 * ' ', which the caller checks) and logical bytes.  The text up to the
 * first ' ' is looked up in the memo first: a shape marked plain there
 * ends at that ' ' whatever follows (the scan reads no further), so it
 * needs no scan.  A shape scanned here that ends at the first ' ' is
 * marked plain.
 */
size_t hd_ps_insn_shape(struct parser *ps, struct hd_slice t, int64_t *bytes)
{
	size_t k, n;
	struct shape_memo *m = NULL;
	int hit = 0;

	k = find_either(t, 0, ' ', ' ');

	if (k > 0 && k < t.n && k <= SHAPE_MEMO_TEXT) {
		m = memo_slot(ps, hd_slice_make(t.p, k), &hit);
		if (hit && m->plain) {
			*bytes = m->bytes;
			return k;
		}
	}
	n = balanced_until(t, ' ', ' ');
	if (n == 0 || n == t.n)
		return n;
	if (n != k || !m) {
		*bytes = shape_bytes(ps, hd_slice_make(t.p, n), NULL);
		return n;
	}
	*bytes = memo_bytes(m, hd_slice_make(t.p, n), hit);
	m->plain = 1;
	return n;
}

/*
 * The values of the allocations section (most of a dump's) are filed
 * under their keys when the section is over, all at once: the index is
 * made at its final size once, without the doublings on the way, and
 * filled in the order of the entries' home slots (a counting sort on
 * their top PENDING_BUCKET_BITS bits), a few KiB of slots at a time,
 * where one value line after another missed the cache on a random slot
 * of an index of up to 8 MiB.  Nothing looks a value up by key before
 * (value_for finds values by id); a lookup by key (live ranges, peak)
 * or a value made after the section files them first.
 *
 * Two values of one key are an error at the line of the later one, as
 * if it had been found there: of all such values the earliest is
 * reported, before any error met after it (line_message files them
 * first).  With report 0 (a parse given up already) they are filed
 * silently.  Returns -1 after an error.
 */
#define PENDING_BUCKET_BITS 11

int hd_ps_file_pending(struct parser *ps, int report)
{
	struct hd_dump *d = ps->d;
	size_t n = ps->pending.len, i, buckets;
	const struct pending_key *pk = ps->pending.data;
	struct pending_key *sorted;
	uint32_t *start, mask, shift = 0, dup = HD_NONE, dup_other = HD_NONE;

	if (n == 0)
		return 0;
	/* the sorted copy follows the entries, in the pending array's
	 * memory (already mapped with 2 MiB pages for a large dump) */
	hd_vec_reserve(&ps->pending, 2 * n);
	pk = ps->pending.data;
	ps->pending.len = 0;    /* the error below comes back here */
	hd_index_reserve(&d->value_by_key, (uint64_t)d->value_by_key.count + n);
	mask = hd_index_mask(&d->value_by_key);
	while ((mask >> shift) >= (1u << PENDING_BUCKET_BITS))
		shift++;
	buckets = (size_t)(mask >> shift) + 1;
	start = hd_xcalloc(buckets + 1, sizeof(*start));
	for (i = 0; i < n; i++)
		start[((pk[i].hash & mask) >> shift) + 1]++;
	for (i = 0; i < buckets; i++)
		start[i + 1] += start[i];
	/* stable: the values of one key stay in the order they were made */
	sorted = (struct pending_key *)ps->pending.data + n;
	for (i = 0; i < n; i++)
		sorted[start[(pk[i].hash & mask) >> shift]++] = pk[i];
	for (i = 0; i < n; i++) {
		uint32_t other = hd_dump_index_value_hashed(d, sorted[i].v,
							    sorted[i].hash);

		if (other != HD_NONE && sorted[i].v < dup) {
			dup = sorted[i].v;
			dup_other = other;
		}
	}
	free(start);
	if (dup == HD_NONE)
		return 0;
	if (report) {
		const struct hd_value *val = &HD_VALUE(d, dup);
		struct hd_slice key = hd_value_key_of(val);
		uint64_t line = ps->line;
		char a[80];

		hd_quote(a, sizeof(a), key.p, key.n, 60);
		ps->line = HD_VALUE_LINES(d, dup).line;
		hd_ps_error(ps, "two values named '%s' (ids %lld and %lld)", a,
		     (long long)HD_VALUE(d, dup_other).id, (long long)val->id);
		ps->line = line;
	}
	return -1;
}

/* The error for value v (id) named key here but otherwise before. */
static __attribute__((noinline, cold)) int
value_renamed(struct parser *ps, uint32_t v, int64_t id, struct hd_slice key)
{
	struct hd_dump *d = ps->d;
	struct hd_slice had = hd_value_key_of(&HD_VALUE(d, v));
	char a[80], b[80];

	hd_quote(a, sizeof(a), had.p, had.n, 60);
	hd_quote(b, sizeof(b), key.p, key.n, 60);
	if (ps->in && ps->in != &d->inputs[0] &&
	    (HD_VALUE(d, v).flags & HD_VALUE_IN_ALLOC))
		return hd_ps_error(ps, "value %lld is named '%s' here but '%s' in %s:%u "
				   "(expected the companion of the same module)",
				   (long long)id, b, a, d->inputs[0].name,
				   HD_VALUE_LINES(d, v).listed_line);
	return hd_ps_error(ps, "value %lld is named '%s' here but '%s' at line %u",
			   (long long)id, b, a, HD_VALUE_LINES(d, v).line);
}

/* The error for a new value (id) named key, as value other is. */
static __attribute__((noinline, cold)) int
value_named_twice(struct parser *ps, uint32_t other, int64_t id,
		  struct hd_slice key)
{
	struct hd_dump *d = ps->d;
	char a[80];

	hd_quote(a, sizeof(a), key.p, key.n, 60);
	if (ps->in && ps->in != &d->inputs[0] &&
	    (HD_VALUE(d, other).flags & HD_VALUE_IN_ALLOC))
		return hd_ps_error(ps, "two values named '%s' (id %lld here, %lld in %s:%u; "
				   "expected the companion of the same module)", a,
				   (long long)id, (long long)HD_VALUE(d, other).id,
				   d->inputs[0].name,
				   HD_VALUE_LINES(d, other).listed_line);
	return hd_ps_error(ps, "two values named '%s' (ids %lld and %lld)", a,
			   (long long)HD_VALUE(d, other).id, (long long)id);
}

/*
 * Finds or creates the value with this id.  name_index is the short form
 * "name{idx}" or "name".  On a name mismatch with an earlier mention it
 * reports an error.
 */
static inline __attribute__((always_inline)) int
value_for(struct parser *ps, int64_t id, struct hd_slice name,
	  struct hd_slice index, struct hd_slice key, int indexed,
	  uint32_t *out)
{
	struct hd_dump *d = ps->d;
	/* the id's slot when it has one already: read here and written
	 * below for a new value, not looked up a second time to file it */
	uint32_t *slot = hd_dump_flat_slot(&d->id_slots, d->id_limit, id);
	uint32_t v = slot ? *slot : hd_dump_value_by_id(d, id), hash;
	struct hd_value *val;

	if (v != HD_NONE) {
		val = &HD_VALUE(d, v);
		struct hd_slice had = hd_value_key_of(val);

		if (!name_eq(had, key))
			return value_renamed(ps, v, id, key);
		*out = v;
		return 0;
	}
	v = (uint32_t)d->values.len;
	if (v == HD_NONE)
		return hd_ps_error(ps, "too many values");
	if (index.n > UINT32_MAX)
		return hd_ps_error(ps, "value index too long (expected under 4 GiB)");
	hash = hd_index_hash(key);
	if (ps->sec != SEC_ALLOCATIONS) {
		if (pending_filed(ps))
			return -1;
		/* the key's slots load while the value is made */
		hd_index_prefetch(&d->value_by_key, hash);
	}
	val = PUSH(&d->values, struct hd_value);
	val->id = id;
	/*
	 * The name (and printed index) are copied into the arena, packed:
	 * every later mention of the value compares keys there, in a few
	 * MiB of memory, instead of in the input far behind the cursor.
	 */
	{
		size_t n = name.n + (indexed ? index.n : 0);
		const char *c = hd_arena_pack(&d->arena, name.p, n);

		val->name = hd_slice_make(c, name.n);
		val->index_n = (uint32_t)index.n;
	}
	*PUSH(&d->value_colors, int64_t) = 0;
	PUSH(&d->value_positions, struct hd_value_positions);
	val->flags = indexed ? HD_VALUE_INDEXED : 0;
	ps->plain_values += key.n == name.n;
	val->alloc_value = HD_NONE;
	val->insn = HD_NONE;
	PUSH(&d->value_lines, struct hd_value_lines)->line = (uint32_t)ps->line;
	if (slot)
		*slot = v;
	else
		hd_dump_slot_put(&d->id_slots, &d->value_by_id, d->id_limit, id, v);
	if (ps->sec == SEC_ALLOCATIONS) {
		*PUSH(&ps->pending, struct pending_key) =
			(struct pending_key){ hash, v };
	} else {
		uint32_t other = hd_dump_index_value_hashed(d, v, hash);

		if (other != HD_NONE)
			return value_named_twice(ps, other, id, key);
	}
	*out = v;
	return 0;
}

/*
 * The end of a short form after its name and index: " (phi)" and
 * " @C", each if there.  The usual " @C>", one digit, is read at once
 * (what the reading of a number makes of it).
 */
static inline __attribute__((always_inline)) int
take_phi_color(struct parser *ps, struct hd_slice line, struct hd_slice *t,
	       int *phi, int64_t *color, int *has_color)
{
	if (t->n >= 4 && t->p[0] == ' ' && t->p[1] == '@' &&
	    (unsigned)(t->p[2] - '0') < 10 && t->p[3] == '>') {
		*color = t->p[2] - '0';
		*has_color = 1;
		*t = skip(*t, 3);
		return 0;
	}
	if (take_lit(t, " (phi)") == 0)
		*phi = 1;
	if (take_lit(t, " @") == 0) {
		if (take_i64(ps, t, color))
			return hd_ps_bad_line(ps, line, "bad colour", "' @N'");
		*has_color = 1;
	}
	return 0;
}

/*
 * Parses the short form "<ID NAME[{IDX}][ (phi)][ @C]>" at the start of
 * *s, advances past it, and returns the value index in *out.  record:
 * the short form of a "Used values" record, which mostly names a value
 * made already by its value line.
 */
static inline __attribute__((always_inline)) int
take_short_form(struct parser *ps, struct hd_slice line,
		struct hd_slice *s, uint32_t *out, int record)
{
	struct hd_slice t = *s;
	struct hd_slice name = HD_SLICE_NULL, index = default_index(), key;
	int64_t id, color = 0;
	int phi = 0, has_color = 0, indexed = 0;
	size_t n;
	uint32_t v = HD_NONE;
	struct hd_value *val;

	if (take_lit(&t, "<") || take_i64(ps, &t, &id) || take_lit(&t, " "))
		return hd_ps_bad_line(ps, line, "bad value short form", "'<ID NAME>'");
	/*
	 * A record names a value made already: when its id has one whose
	 * name (and printed index) are the next bytes, followed by what
	 * ends a name and an index, those are what the reading below finds
	 * (the bytes were read so when the value was made), and the value
	 * is the one value_for would check them against.
	 */
	if (record && id >= 0 &&
	    (v = hd_dump_value_by_id(ps->d, id)) != HD_NONE) {
		val = &HD_VALUE(ps->d, v);
		n = val->name.n +
		    ((val->flags & HD_VALUE_INDEXED) ? val->index_n : 0);
		if (t.n > n && (t.p[n] == ' ' || t.p[n] == '>') &&
		    name_eq(hd_slice_make(t.p, n), hd_slice_make(val->name.p, n)))
			t = skip(t, n);
		else
			v = HD_NONE;
	}
	if (v == HD_NONE) {
		n = name_span(t, ps->end);
		if (n == 0)
			return hd_ps_bad_line(ps, line, "missing value name", "'<ID NAME>'");
		name = hd_slice_make(t.p, n);
		t = skip(t, n);
		n = index_span(t);
		if (n) {
			index = hd_slice_make(t.p, n);
			indexed = 1;
			t = skip(t, n);
		}
	}
	if (take_phi_color(ps, line, &t, &phi, &color, &has_color))
		return -1;
	if (take_lit(&t, ">"))
		return hd_ps_bad_line(ps, line, "unterminated value short form", "'>'");
	if (id < 0)
		return hd_ps_bad_line(ps, line, "negative value id", "an id >= 0");
	if (v == HD_NONE) {
		key = (indexed && !(index.n == 2)) ?
		      hd_slice_make(name.p, name.n + index.n) : name;
		if (value_for(ps, id, name, index, key, indexed, &v))
			return -1;
	}
	val = &HD_VALUE(ps->d, v);
	if (phi)
		val->flags |= HD_VALUE_PHI;
	if (has_color) {
		val->flags |= HD_VALUE_HAS_COLOR;
		HD_VALUE_COLOR(ps->d, v) = color;
	}
	*s = t;
	*out = v;
	return 0;
}

int hd_ps_record_short_form(struct parser *ps, struct hd_slice line,
			    struct hd_slice *s, uint32_t *out)
{
	return take_short_form(ps, line, s, out, 1);
}

/* ---- Part A: allocations ----------------------------------------- */

/* Splits the allocation header tail on ", " outside |...|: the next
 * flag.  Inside a shape only the closing '|' is looked for. */
static struct hd_slice next_flag(struct hd_slice *s, const char *limit)
{
	size_t i = 0;
	int in_shape = 0;
	struct hd_slice tok;

	for (;; i++) {
		i = in_shape ? hd_scan_either(s->p, s->n, i, '|', '|', limit) :
			       hd_scan_either(s->p, s->n, i, '|', ',', limit);
		if (i >= s->n)
			break;
		if (s->p[i] == '|')
			in_shape = !in_shape;
		else if (i + 1 < s->n && s->p[i + 1] == ' ')
			break;
	}
	tok = hd_slice_make(s->p, i);
	*s = tail(*s, i < s->n ? i + 2 : i);
	return tok;
}

/* Reads "|SHAPE|" at the start of s into out; returns bytes used or 0.
 * The input ends at limit. */
static size_t take_bar_shape(struct hd_slice s, struct hd_slice *out,
			     const char *limit)
{
	size_t end;

	if (s.n < 2 || s.p[0] != '|')
		return 0;
	end = hd_scan_either(s.p, s.n, 1, '|', '|', limit);
	if (end >= s.n)
		return 0;
	*out = hd_slice_make(s.p + 1, end - 1);
	return end + 1;
}

static int alloc_flag(struct parser *ps, struct hd_slice line,
		      struct hd_alloc *a, struct hd_slice f, int *unknown)
{
	struct hd_slice t = f;
	size_t n;

	if (take_lit(&t, "color ") == 0) {
		if (take_i64(ps, &t, &a->color) || t.n)
			return hd_ps_bad_line(ps, line, "bad colour", "', color N'");
		a->flags |= HD_ALLOC_COLOR;
	} else if (take_lit(&t, "page ") == 0) {
		int64_t page;   /* checked, not kept: no figure reads it */

		if (take_i64(ps, &t, &page) || t.n)
			return hd_ps_bad_line(ps, line, "bad page", "', page N'");
		a->flags |= HD_ALLOC_PAGE;
	} else if (take_lit(&t, "parameter ") == 0) {
		if (take_i64(ps, &t, &a->param_number) || t.n)
			return hd_ps_bad_line(ps, line, "bad parameter number", "', parameter N'");
		a->flags |= HD_ALLOC_PARAMETER;
	} else if (take_lit(&t, "shape ") == 0) {
		n = take_bar_shape(t, &a->param_shape, ps->end);
		if (!n)
			return hd_ps_bad_line(ps, line, "bad parameter shape", "'shape |SHAPE| at ShapeIndex {..}'");
		t = tail(t, n);
		if (take_lit(&t, " at ShapeIndex ") || index_span(t) != t.n)
			return hd_ps_bad_line(ps, line, "bad parameter shape index", "'at ShapeIndex {..}'");
		a->param_index = t;
	} else if (take_lit(&t, "output shape is ") == 0) {
		struct hd_slice shape;   /* checked, not kept: the values have it */

		n = take_bar_shape(t, &shape, ps->end);
		if (!n || n != t.n)
			return hd_ps_bad_line(ps, line, "bad output shape", "'output shape is |SHAPE|'");
		a->flags |= HD_ALLOC_OUTPUT;
	} else if (IS(f, "constant")) {
		a->flags |= HD_ALLOC_CONSTANT;
	} else if (IS(f, "thread-local")) {
		a->flags |= HD_ALLOC_THREAD_LOCAL;
	} else if (IS(f, "maybe-live-out")) {
		a->flags |= HD_ALLOC_MAYBE_LIVE_OUT;
	} else if (IS(f, "preallocated-temp")) {
		a->flags |= HD_ALLOC_TEMP;
	} else if (starts(f, "0x", 2)) {
		/* pre-2019 dumps print the buffer address: ignored */
	} else {
		*unknown = 1;
	}
	return 0;
}

int hd_ps_allocation(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = tail(l, (sizeof("allocation ") - 1));
	struct hd_alloc *a;
	int64_t index, size = -1;
	int unknown = 0;
	uint32_t prev;

	if (ps->sec != SEC_ALLOCATIONS)
		return hd_ps_error(ps, "allocation header outside the allocations section (expected 'BufferAssignment:' before it)");
	if (take_i64(ps, &t, &index) || take_lit(&t, ": "))
		return hd_ps_bad_line(ps, l, "bad allocation header", "'allocation N: size S, ...:'");
	if (t.n == 0 || t.p[t.n - 1] != ':')
		return hd_ps_bad_line(ps, l, "allocation header does not end in ':'", "'allocation N: size S, ...:'");
	t.n--;
	if (d->allocs.len >= HD_NONE - 1)
		return hd_ps_error(ps, "too many allocations");
	a = PUSH(&d->allocs, struct hd_alloc);
	a->index = index;
	a->param_number = -1;
	a->line = (uint32_t)ps->line;
	a->value_first = (uint32_t)d->alloc_values.len;
	while (t.n) {
		struct hd_slice f = next_flag(&t, ps->end);
		struct hd_slice ft = f;
		if (take_lit(&ft, "size ") == 0) {
			if (take_i64(ps, &ft, &size) || ft.n)
				return hd_ps_bad_line(ps, l, "bad allocation size", "'size N'");
			continue;
		}
		if (alloc_flag(ps, l, a, f, &unknown))
			return -1;
	}
	if (size < 0)
		return hd_ps_bad_line(ps, l, size == -1 ? "missing or negative allocation size"
					: "negative allocation size", "'size N' with N >= 0");
	if (index < 0)
		return hd_ps_bad_line(ps, l, "negative allocation number", "N >= 0");
	if (__builtin_add_overflow(ps->alloc_sum, size, &ps->alloc_sum))
		return hd_ps_error(ps, "allocation sizes add up to more than %lld bytes (expected a total that fits in 64 bits)",
			    (long long)INT64_MAX);
	a->size = size;
	prev = hd_dump_slot_put(&d->alloc_slots, &d->alloc_by_index, d->id_limit,
				index, (uint32_t)(d->allocs.len - 1));
	if (prev != HD_NONE)
		return hd_ps_error(ps, "allocation %lld appears twice (first at line %u)",
			    (long long)index, HD_ALLOC(d, prev).line);
	ps->alloc = (uint32_t)(d->allocs.len - 1);
	ps->in_reuse = 0;
	if (unknown)
		return hd_ps_unknown_line(ps, l);
	return 0;
}

/* An allocation's value line. */
int hd_ps_alloc_value(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = skip(l, (sizeof(" value: ") - 1));
	struct hd_alloc_value *av;
	struct hd_alloc *a;
	struct hd_value *val;
	struct shape_hashes hashes;
	int64_t size, offset;
	uint32_t v = HD_NONE;

	if (ps->sec != SEC_ALLOCATIONS || ps->alloc == HD_NONE)
		return hd_ps_error(ps, "value line outside an allocation (expected an 'allocation N:' header before it)");
	if (ps->in_reuse)
		return hd_ps_error(ps, "value line after 'reused by buffers of a different color:' (expected '  value: <...> (color=C)')");
	if (take_short_form(ps, l, &t, &v, 0))
		return -1;
	if (take_lit(&t, " (size=") || take_i64(ps, &t, &size) ||
	    take_lit(&t, ",offset=") || take_i64(ps, &t, &offset) ||
	    take_lit(&t, "): "))
		return hd_ps_bad_line(ps, l, "bad value line", "' value: <ID NAME> (size=S,offset=O): SHAPE'");
	if (size < 0 || offset < 0)
		return hd_ps_bad_line(ps, l, "negative size or offset", "numbers >= 0");
	if (__builtin_add_overflow(ps->value_sum, size, &ps->value_sum))
		return hd_ps_error(ps, "value sizes add up to more than %lld bytes (expected a total that fits in 64 bits)",
			    (long long)INT64_MAX);
	a = &HD_ALLOC(d, ps->alloc);
	val = &HD_VALUE(d, v);
	if (val->flags & HD_VALUE_IN_ALLOC)
		return hd_ps_error(ps, "value %lld is listed in two allocations (first at line %u)",
			    (long long)val->id, HD_VALUE_LINES(d, v).listed_line);
	if (d->alloc_values.len >= HD_NONE - 1)
		return hd_ps_error(ps, "too many values");
	val->flags |= HD_VALUE_IN_ALLOC;
	d->n_listed++;
	d->n_listed_records += (val->flags & HD_VALUE_RECORD) != 0;
	d->value_bytes = hd_sat_add(d->value_bytes, size);
	val->alloc_value = (uint32_t)d->alloc_values.len;
	av = PUSH(&d->alloc_values, struct hd_alloc_value);
	av->value = v;
	av->alloc = ps->alloc;
	av->size = size;
	av->offset = offset;
	av->shape_bytes = shape_bytes(ps, t, &hashes);
	av->shape = t;
	val->own_kept = hd_size_keep(av->shape_bytes);
	av->shape_hash = hashes.whole;
	av->bare_hash = hashes.bare;
	HD_VALUE_LINES(d, v).listed_line = (uint32_t)ps->line;
	a->value_count++;
	return 0;
}

int hd_ps_reuse_value(struct parser *ps, struct hd_slice l)
{
	struct hd_slice t = tail(l, (sizeof("  value: ") - 1));
	int64_t color;
	uint32_t v = HD_NONE;

	if (!ps->in_reuse)
		return hd_ps_unknown_line(ps, l);
	if (take_short_form(ps, l, &t, &v, 0) || take_lit(&t, " (color=") ||
	    take_i64(ps, &t, &color) || take_lit(&t, ")") || t.n)
		return hd_ps_bad_line(ps, l, "bad reused-by value line", "'  value: <ID NAME> (color=C)'");
	return 0;       /* checked, not kept: no figure reads it */
}

int hd_ps_total(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice t = tail(l, (sizeof("Total bytes used: ") - 1));
	int64_t total;

	if (d->sections & HD_SEC_TOTAL)
		return hd_ps_error(ps, "second 'Total bytes used' line (first at line %u)", d->total_line);
	if (take_i64(ps, &t, &total))
		return hd_ps_bad_line(ps, l, "bad total", "'Total bytes used: N (HUMAN)'");
	if (total < 0)
		return hd_ps_bad_line(ps, l, "negative total", "N >= 0");
	if (t.n && (take_lit(&t, " (") || t.n == 0 || t.p[t.n - 1] != ')'))
		return hd_ps_bad_line(ps, l, "bad total", "'Total bytes used: N (HUMAN)'");
	d->total_bytes = total;
	d->total_line = (uint32_t)ps->line;
	d->sections |= HD_SEC_TOTAL;
	ps->sec = SEC_AFTER_TOTAL;
	ps->alloc = HD_NONE;
	return 0;
}
