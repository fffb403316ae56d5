/*
 * parse_insn.c - a record's " from instruction:" line: the instruction
 * text, its shape, opcode, operands and metadata={...} (docs/format.md,
 * "`Used values:` and a record").
 */
#include "parse_int.h"

/* val without its quotes when it is a quoted string. */
static inline struct hd_slice unquote(struct hd_slice val)
{
	if (val.n >= 2 && val.p[0] == '"' && val.p[val.n - 1] == '"')
		val = hd_slice_make(val.p + 1, val.n - 2);
	return val;
}

/* An instruction source with nothing known: no op_name, file or line. */
static void no_source(struct hd_insn_source *src)
{
	src->op_name = src->source_file = HD_SLICE_NULL;
	src->source_line = -1;
}

/*
 * One "key=value" item of metadata={...}.  Inlined, and the key checked
 * first: most items (source_end_line, source_column ...) are none of
 * the three kept, and cost a compare of lengths.
 */
static inline __attribute__((always_inline)) void
metadata_item(struct hd_insn_source *src, struct hd_slice key,
	      struct hd_slice val)
{
	if (IS(key, "op_name"))
		src->op_name = unquote(val);
	else if (IS(key, "source_file"))
		src->source_file = unquote(val);
	else if (IS(key, "source_line"))
		hd_parse_i64(unquote(val), &src->source_line);
}

/* Splits "key=value" attributes of metadata={...} (space separated). */
static void read_metadata(struct hd_insn_source *src, struct hd_slice m)
{

	while (m.n) {
		size_t eq, end;
		struct hd_slice key, val;

		while (m.n && m.p[0] == ' ')
			m = tail(m, 1);
		eq = balanced_until(m, '=', ' ');
		key = hd_slice_make(m.p, eq);
		if (eq >= m.n || m.p[eq] != '=') {
			m = tail(m, eq);
			continue;
		}
		m = tail(m, eq + 1);
		end = balanced_until(m, ' ', ' ');
		val = hd_slice_make(m.p, end);
		m = tail(m, end);
		metadata_item(src, key, val);
	}
}

/*
 * skip_string(r, 0) for the string opening at r.p[0], inlined for the
 * usual one: its first '"' (found 32 bytes at a time while the input,
 * which ends at limit, holds them, the bytes past r masked) with no
 * backslash before it.  Anything else takes skip_string.
 */
static inline size_t metadata_string_end(struct hd_slice r, const char *limit)
{
	size_t i;

	for (i = 1; i < r.n && limit - (r.p + i) >= 32; i += 32) {
		uint32_t m = hd_scan_eq_mask(r.p + i, '"') |
			     (uint32_t)hd_scan_eq_mask(r.p + i + 16, '"') << 16;

		if (r.n - i < 32)
			m &= ((uint32_t)1 << (r.n - i)) - 1;
		if (m) {
			size_t j = i + (size_t)__builtin_ctz(m);

			if (r.p[j - 1] != '\\')
				return j + 1;
			break;
		}
	}
	return skip_string(r, 0);
}

/*
 * A string item of the usual metadata: the value from v.p[0] (its
 * opening quote) to the closing one, which a ' ' or a closing bracket
 * must follow.  Returns the index past the quote, or 0.
 */
static inline size_t usual_string(struct hd_slice v, const char *limit)
{
	size_t e = metadata_string_end(v, limit);

	return e < v.n && (v.p[e] == ' ' || is_closer(v.p[e])) ? e : 0;
}

/*
 * The string item key (up to its opening quote) of the usual metadata,
 * if *r starts with it: its value to *out, *r past it.  Returns -1 when
 * it is not in the usual form, 1 when no ' ' follows it (the metadata
 * ends there), else 0, with *r past the ' ' (or as it was, without the
 * item).
 */
static inline int usual_string_item(struct hd_slice *r, size_t key_len,
				    struct hd_slice *out, const char *limit)
{
	struct hd_slice v = tail(*r, key_len - 1);    /* from the quote */
	size_t e = usual_string(v, limit);

	if (!e)
		return -1;
	*out = hd_slice_make(v.p + 1, e - 2);
	*r = tail(v, e);
	if (r->p[0] != ' ')
		return 1;
	*r = tail(*r, 1);
	return 0;
}

#define USUAL_STRING_ITEM(r, key, out, limit) \
	(STARTS(*(r), key) ? usual_string_item((r), sizeof(key) - 1, (out), \
					       (limit)) : 0)

/*
 * The end of the decimal number that the literal key (n bytes) at r.p[i]
 * is followed by, or 0 when r has something else there.
 */
static inline __attribute__((always_inline)) size_t
key_digits(struct hd_slice r, size_t i, const char *key, size_t n)
{
	size_t j;

	if (!starts(skip(r, i), key, n))
		return 0;
	for (j = i + n; j < r.n && (unsigned)(r.p[j] - '0') < 10; j++)
		;
	return j > i + n ? j : 0;
}

#define KEY_DIGITS(r, i, lit) key_digits((r), (i), (lit), sizeof(lit) - 1)

/*
 * The tail XLA prints after source_line,
 * " source_end_line=N source_column=N source_end_column=N}" followed by
 * ',' or the end, read literally: the offset of its '}' (no item there
 * is one read_metadata keeps), or 0 for anything else.
 */
static inline __attribute__((always_inline)) size_t
usual_plain_tail(struct hd_slice r)
{
	size_t j = KEY_DIGITS(r, 0, " source_end_line=");

	if (j)
		j = KEY_DIGITS(r, j, " source_column=");
	if (j)
		j = KEY_DIGITS(r, j, " source_end_column=");
	if (j && j < r.n && r.p[j] == '}' && (j + 1 == r.n || r.p[j + 1] == ','))
		return j;
	return 0;
}

/*
 * The fast path of find_metadata: the usual metadata, {op_name="..."
 * source_file="..." source_line=N ...} (any of the three may be left
 * out, in this order, one ' ' between items), read straight through,
 * its tail by usual_plain_tail: the items come out as read_metadata
 * reads them.  Returns -1 for anything else, and the caller reads the
 * items from the start with read_metadata, which keeps again whatever
 * was kept here.  m starts at the '{'.
 */
static int read_metadata_usual(struct hd_insn_source *src,
			       struct hd_slice *meta, struct hd_slice m,
			       const char *limit)
{
	struct hd_slice r = tail(m, 1), v;
	size_t e;
	int rc;

	rc = USUAL_STRING_ITEM(&r, "op_name=\"", &src->op_name, limit);
	if (rc == 0)
		rc = USUAL_STRING_ITEM(&r, "source_file=\"", &src->source_file,
				       limit);
	if (rc < 0)
		return -1;
	if (rc > 0)
		goto close;
	if (STARTS(r, "source_line=")) {
		v = tail(r, 12);
		e = name_span(v, limit);
		if (e >= v.n || (v.p[e] != ' ' && !is_closer(v.p[e])))
			return -1;
		hd_parse_i64(hd_slice_make(v.p, e), &src->source_line);
		r = tail(v, e);
		if (r.p[0] == ' ') {
			size_t close = usual_plain_tail(r);

			if (!close)
				return -1;
			r = tail(r, close);
		}
	}
close:
	if (!r.n || r.p[0] != '}' || (r.n > 1 && r.p[1] != ','))
		return -1;
	*meta = hd_slice_make(m.p + 1, (size_t)(r.p - m.p) - 1);
	return 0;
}

/*
 * The first ", metadata={" in a, or NULL: memmem, but the attributes
 * before metadata are short and the call cost more than the search.  A
 * match has ',' at j and 'm' at j + 2: those j are found 16 at a time
 * (whole blocks inside a) and checked in order, memmem reads the rest.
 */
static const char *find_comma_metadata(struct hd_slice a)
{
	size_t i = 0;

	for (; i + 18 <= a.n; i += 16) {
		unsigned m = hd_scan_eq_mask(a.p + i, ',') & hd_scan_eq_mask(a.p + i + 2, 'm');

		for (; m; m &= m - 1) {
			size_t j = i + (size_t)__builtin_ctz(m);

			if (STARTS(tail(a, j), ", metadata={"))
				return a.p + j;
		}
	}
	return i < a.n ? memmem(a.p + i, a.n - i, ", metadata={", 12) : NULL;
}

/*
 * Finds metadata={...} among the attributes.  XLA prints metadata before
 * backend_config and frontend attributes, so the first ", metadata={" is
 * the attribute (memmem keeps this a fast scan of long lines).
 */
static struct hd_slice find_metadata(struct hd_slice a,
				     struct hd_insn_source *src,
				     const char *limit)
{
	static const char key[] = "metadata={";
	const char *at = NULL;
	struct hd_slice m, meta = HD_SLICE_NULL;
	size_t end;

	if (STARTS(a, "metadata={")) {
		at = a.p;
	} else {
		const char *hit = find_comma_metadata(a);
		if (hit)
			at = hit + 2;
	}
	if (!at)
		return meta;
	m = tail(a, (size_t)(at - a.p) + sizeof(key) - 2); /* from '{' */
	if (read_metadata_usual(src, &meta, m, limit) == 0)
		return meta;
	no_source(src);
	end = balanced_until(m, ',', ',');
	if (end < 2 || m.p[end - 1] != '}')
		return meta;
	meta = hd_slice_make(m.p + 1, end - 2);
	read_metadata(src, meta);
	return meta;
}

/* Keeps meta, a slice of in->text or none, as in->meta_at and meta_n
 * (none when it does not fit in 32 bits: canonical hashing then walks
 * the metadata item as it walks any other). */
static void keep_metadata(struct hd_insn *in, struct hd_slice meta)
{
	size_t at;

	if (!meta.p)
		return;
	at = (size_t)(meta.p - in->text.p);
	if (at > 0 && at <= UINT32_MAX && meta.n <= UINT32_MAX) {
		in->meta_at = (uint32_t)at;
		in->meta_n = (uint32_t)meta.n;
	}
}

/*
 * The opcode's end in t: the first '(', ' ' or ',' (what a search for
 * the first '(' or ' ' and then for a ',' before it finds), or t.n.
 * 16 bytes at a time in whole blocks inside t.
 */
static inline size_t opcode_end(struct hd_slice t)
{
	size_t i = 0;

	for (; i + 16 <= t.n; i += 16) {
		unsigned m = hd_scan_eq_mask(t.p + i, '(') | hd_scan_eq_mask(t.p + i, ' ') |
			     hd_scan_eq_mask(t.p + i, ',');

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	while (i < t.n && t.p[i] != '(' && t.p[i] != ' ' && t.p[i] != ',')
		i++;
	return i;
}

/*
 * balanced_until(t, ',', ',') for the usual operand list, t starting at
 * its '(': when the first bracket or quote after it is the ')' that
 * closes it, and a ',' (or the end of t) follows, the scan would stop
 * right after that ')'.  Returns that index, or 0 for anything else
 * (the caller scans).
 */
static inline size_t operand_list_end(struct hd_slice t)
{
	size_t i = 1;

	for (; i + 16 <= t.n; i += 16) {
		/* brackets and quotes ('"' as both stops) */
		unsigned m = special_mask(t.p + i, '"', '"');

		if (m) {
			i += (size_t)__builtin_ctz(m);
			goto found;
		}
	}
	while (i < t.n && !balanced_special(t.p[i], '"', '"'))
		i++;
	if (i >= t.n)
		return 0;
found:
	if (t.p[i] != ')')
		return 0;
	if (i + 1 == t.n || t.p[i + 1] == ',')
		return i + 1;
	return 0;
}

/* "%name = SHAPE opcode(operands), attrs" into in and src; n is the
 * length of the name (name_span after the '%'), which the caller found. */
static int parse_insn_text(struct parser *ps, struct hd_slice l,
			   struct hd_slice text, size_t n, struct hd_insn *in)
{
	struct hd_slice t = text;

	in->text = text;
	if (t.n && t.p[0] == '%')
		t = tail(t, 1);
	if (n == 0)
		return hd_ps_bad_line(ps, l, "bad instruction", "'%NAME = SHAPE opcode(...)'");
	in->name = hd_slice_make(t.p, n);
	t = skip(t, n);
	if (take_lit(&t, " = "))
		return hd_ps_bad_line(ps, l, "bad instruction", "'%NAME = SHAPE opcode(...)'");
	n = hd_ps_insn_shape(ps, t, &in->shape_bytes);
	if (n == 0 || n == t.n)
		return hd_ps_bad_line(ps, l, "bad instruction shape", "'%NAME = SHAPE opcode(...)'");
	in->shape = hd_slice_make(t.p, n);
	t = skip(t, n + 1);
	n = opcode_end(t);
	if (n == 0 || n == t.n || t.p[n] != '(')
		return hd_ps_bad_line(ps, l, "bad instruction opcode", "'opcode(operands)'");
	in->opcode = hd_slice_make(t.p, n);
	if (IS(in->opcode, "copy-start")) {
		/* in is the last instruction filed (hd_ps_from_instruction) */
		in->flags |= HD_INSN_COPY_START;
		*PUSH(&ps->d->copy_starts, uint32_t) =
			(uint32_t)(ps->d->insns.len - 1);
	}
	t = skip(t, n);
	n = operand_list_end(t);
	if (n == 0)
		n = balanced_until(t, ',', ',');
	/* n is where the operand list "(...)" ends at depth 0 */
	if (n < 2 || t.p[n - 1] != ')') {
		if (n == t.n && t.n >= 2 && t.p[t.n - 1] == ')')
			n = t.n;
		else
			return hd_ps_bad_line(ps, l, "unbalanced operand list", "'opcode(operands)'");
	}
	in->operands = hd_slice_make(t.p + 1, n - 2);
	t = tail(t, n);
	if (t.n && take_lit(&t, ", ") == 0)
		in->attrs = t;
	else if (t.n)
		return hd_ps_bad_line(ps, l, "bad text after operands", "', attr=value, ...'");
	if (in->flags & HD_INSN_COPY_START) {
		/* what the figures read of a copy-start, kept out of the input */
		if (hd_attrs_cross_program_prefetch(in->attrs))
			in->flags |= HD_INSN_CROSS_PROGRAM_PREFETCH;
		in->shape = hd_slice_make(hd_arena_pack(&ps->d->arena, in->shape.p,
							in->shape.n), in->shape.n);
	}
	return 0;
}

static inline __attribute__((always_inline)) int
from_instruction(struct parser *ps, struct hd_slice l)
{
	struct hd_dump *d = ps->d;
	struct hd_slice text = skip(l, (sizeof(" from instruction: ") - 1));
	struct hd_slice t = text;
	struct hd_value *val;
	size_t n;
	uint32_t i;
	uint64_t hash;
	int same;

	if (ps->sec != SEC_USED_VALUES || ps->part == REC_NONE || ps->part == REC_DONE)
		return hd_ps_error(ps, "'from instruction' outside a value record (expected '<ID NAME>' before it)");
	val = &HD_VALUE(d, ps->record);
	ps->part = REC_DONE;
	if (t.n && t.p[0] == '%')
		t = tail(t, 1);
	/* the record's value is mostly named after its instruction: when
	 * its name and a ' ' are next, name_span would find that name */
	n = val->name.n;
	same = t.n > n && t.p[n] == ' ' &&
	       name_eq(hd_slice_make(t.p, n), val->name);
	if (!same)
		n = name_span(t, ps->end);
	if (d->insns.len >= HD_NONE - 1)
		return hd_ps_error(ps, "too many instructions");
	if (!same)
		same = name_eq(val->name, hd_slice_make(t.p, n));
	hash = same ? ps->record_hash : hd_hash64(hd_slice_make(t.p, n));
	/* one probe finds the instruction or files the one made below
	 * (parse_insn_text reads the same name) */
	i = n ? hd_dump_insn_put_hashed(d, (uint32_t)hash, hd_slice_make(t.p, n),
					(uint32_t)d->insns.len) : HD_NONE;
	if (i == HD_NONE) {
		struct hd_insn *in = PUSH(&d->insns, struct hd_insn);

		if (parse_insn_text(ps, l, text, n, in))
			return -1;
		i = (uint32_t)(d->insns.len - 1);
		in->name_hash = hash;
		/* the value's copy of the name serves, out of the input
		 * (in->name is the name read above) */
		if (same)
			in->name = val->name;
		if (ps->hooks->insn) {
			/* the source, for the hook, is not kept (reports read
			 * it again: hd_insn_source_of); the metadata's place
			 * spares canonical hashing a walk.  Without the hook
			 * neither is looked for: canonical hashing reads the
			 * metadata item as any other then. */
			struct hd_insn_source src;

			no_source(&src);
			keep_metadata(in, find_metadata(in->attrs, &src,
							ps->end));
			ps->hooks->insn(ps->hooks->ctx, in, &src);
		}
	}
	val->insn = i;
	val->whole_kept = hd_size_keep(HD_INSN(d, i).shape_bytes);
	return 0;
}

/* A " from instruction:" line (from_instruction). */
int hd_ps_from_instruction(struct parser *ps, struct hd_slice l)
{
	return from_instruction(ps, l);
}

void hd_parse_insn_source(const struct hd_insn *in,
			  struct hd_insn_source *out)
{
	no_source(out);
	/* no bytes past the attributes are known to be readable */
	if (in->attrs.n)
		(void)find_metadata(in->attrs, out, in->attrs.p + in->attrs.n);
}
