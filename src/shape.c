/*
 * shape.c - XLA shape strings (docs/format.md, "Shapes") read on demand.
 *
 * One recursive-descent walker (struct walk) reads a shape and, on the
 * way, works out its logical size and memory space (struct shape_info).
 * Every public function is a thin wrapper around it.  The walker never
 * reads past w->end, and recursion (tuple elements, b(...), the P(...)
 * physical shape of a layout) is capped at HD_SHAPE_MAX_DEPTH levels, so
 * hostile nesting costs neither stack nor time beyond the input length.
 */
#include <stdint.h>
#include <string.h>

#include "hlodiff/shape.h"
#include "hlodiff/str.h"

/* Bytes of one tuple index table entry (ShapeUtil::ByteSizeOf pointer size). */
#define POINTER_SIZE 8

struct walk {
	const char *p, *end;
	int depth;              /* shapes currently open */
};

struct shape_info {
	int64_t bytes;          /* logical bytes, -1 when unknown */
	int64_t space;          /* S(n) of an array, 0 if absent, -1 tuple */
	int64_t count;          /* tuple: number of elements */
	int is_tuple;
};

static int walk_shape(struct walk *w, struct shape_info *info);

/* A walker over s; an empty slice may have p == NULL, and NULL + 0 is
 * undefined, so its end is p itself. */
static struct walk walk_of(struct hd_slice s, int depth)
{
	struct walk w;

	w.p = s.p;
	w.end = s.n ? s.p + s.n : s.p;
	w.depth = depth;
	return w;
}

static int at_end(const struct walk *w)
{
	return w->p >= w->end;
}

static int peek(const struct walk *w)
{
	return at_end(w) ? -1 : (unsigned char)*w->p;
}

/* Consumes c if it is next.  Returns 1 if it did. */
static int eat(struct walk *w, char c)
{
	if (at_end(w) || *w->p != c)
		return 0;
	w->p++;
	return 1;
}

/* Consumes the n bytes s if they are next.  Returns 1 if it did. */
static int eat_n(struct walk *w, const char *s, size_t n)
{
	if ((size_t)(w->end - w->p) < n || memcmp(w->p, s, n) != 0)
		return 0;
	w->p += n;
	return 1;
}

/* Consumes the string literal lit if it is next. */
#define eat_str(w, lit) eat_n((w), (lit), sizeof(lit) - 1)

static int is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

/*
 * Reads a non-negative decimal integer.  Returns 0 and stores it
 * (INT64_MAX when it overflows, so callers treat the size as unknown),
 * -1 if no digit is next.
 */
static int read_uint(struct walk *w, int64_t *out)
{
	int64_t v = 0;
	int overflow = 0;

	if (!hd_is_digit(peek(w)))
		return -1;
	while (hd_is_digit(peek(w))) {
		int d = *w->p++ - '0';

		if (v > (INT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	*out = overflow ? INT64_MAX : v;
	return 0;
}

/* a * b, or -1 when either is negative or the product overflows. */
static int64_t mul_checked(int64_t a, int64_t b)
{
	if (a < 0 || b < 0)
		return -1;
	if (a != 0 && b > INT64_MAX / a)
		return -1;
	return a * b;
}

/*
 * Bytes of one element of the type named t (n bytes), as
 * ByteSizeOfPrimitiveType: sub-byte types take one byte each (packing
 * only comes from a layout's E(bits)).  -1 for a type this table does
 * not know.  token is 0; opaque is 8 because ShapeUtil::ByteSizeOf
 * returns pointer_size for OPAQUE_TYPE (XLA shape_util.cc), and the
 * dumps' live-range sizes use pointer size 8.
 */
static int64_t element_bytes(const char *t, size_t n)
{
#define TYPE(s, b) { s, sizeof(s) - 1, b }
	static const struct {
		char name[7];
		unsigned char len;
		int64_t bytes;
	} types[] = {
		/* the common ones first */
		TYPE("f32", 4), TYPE("bf16", 2), TYPE("s32", 4), TYPE("u32", 4),
		TYPE("pred", 1), TYPE("f16", 2), TYPE("s8", 1), TYPE("u8", 1),
		TYPE("s1", 1), TYPE("s2", 1), TYPE("s4", 1),
		TYPE("u1", 1), TYPE("u2", 1), TYPE("u4", 1),
		TYPE("s16", 2), TYPE("u16", 2),
		TYPE("s64", 8), TYPE("u64", 8), TYPE("f64", 8), TYPE("c64", 8),
		TYPE("c128", 16), TYPE("token", 0), TYPE("opaque", POINTER_SIZE),
	};
#undef TYPE
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].len == n && memcmp(types[i].name, t, n) == 0)
			return types[i].bytes;
	/* f8e5m2, f8e4m3fn, ..., f6e2m3fn, f6e3m2fn, f4e2m1fn */
	if (n > 2 && t[0] == 'f' && (t[1] == '8' || t[1] == '6' ||
				     t[1] == '4') && t[2] == 'e')
		return 1;
	return -1;
}

/* Skips "(...)" with nested parentheses.  Returns 0, or -1 if unbalanced. */
static int skip_parens(struct walk *w)
{
	int64_t open = 0;

	if (!eat(w, '('))
		return -1;
	open = 1;
	while (!at_end(w)) {
		char c = *w->p++;

		if (c == '(')
			open++;
		else if (c == ')' && --open == 0)
			return 0;
	}
	return -1;
}

/* Skips any number of "(...)" groups.  Returns 0, or -1 if one is
 * unbalanced. */
static int skip_groups(struct walk *w)
{
	while (peek(w) == '(')
		if (skip_parens(w) < 0)
			return -1;
	return 0;
}

/* "(" INT ")".  Returns 0 and stores the integer, -1 otherwise. */
static int paren_int(struct walk *w, int64_t *out)
{
	if (!eat(w, '(') || read_uint(w, out) < 0 || !eat(w, ')'))
		return -1;
	return 0;
}

/* "(" TYPE ")" as in #(s32) and *(u64). */
static int paren_type(struct walk *w)
{
	if (!eat(w, '(') || !is_lower(peek(w)))
		return -1;
	while (is_lower(peek(w)) || hd_is_digit(peek(w)))
		w->p++;
	return eat(w, ')') ? 0 : -1;
}

/* "P(" shape ")": the physical shape, read and discarded. */
static int layout_physical(struct walk *w)
{
	struct shape_info inner;

	if (!eat(w, '(') || walk_shape(w, &inner) < 0 || !eat(w, ')'))
		return -1;
	return 0;
}

/*
 * An item we do not know: a run of letters and punctuation other than
 * brackets, followed by balanced "(...)" groups.  Returns -1 when it
 * consumed nothing or the groups do not balance.
 */
static int layout_unknown(struct walk *w)
{
	const char *start = w->p;

	while (!at_end(w) && *w->p != '(' && *w->p != ')' &&
	       *w->p != '{' && *w->p != '}' && *w->p != '[' && *w->p != ']')
		w->p++;
	if (skip_groups(w) < 0)
		return -1;
	return w->p == start ? -1 : 0;
}

/*
 * One layout item after ':' (docs/format.md, "Shapes").  Stores E(bits) in
 * *bits and S(n) in *space when present.  Returns 0, -1 on a syntax
 * error.
 */
static int layout_item(struct walk *w, int64_t *bits, int64_t *space)
{
	int64_t v;

	if (eat_str(w, "SC"))
		return peek(w) == '(' ? skip_groups(w) : -1;
	if (w->end - w->p > 1 && w->p[1] == '(') {
		char c = *w->p;

		switch (c) {
		case 'T':
			w->p++;
			return skip_groups(w);
		case 'S':
		case 'E':
			w->p++;
			if (paren_int(w, &v) < 0)
				return -1;
			*(c == 'S' ? space : bits) = v;
			return 0;
		case 'L':
		case 'M':
			w->p++;
			return paren_int(w, &v);
		case '#':
		case '*':
			w->p++;
			return paren_type(w);
		case 'P':
			w->p++;
			return layout_physical(w);
		case 'D':
			w->p++;
			return skip_parens(w);
		default:
			break;
		}
	}
	return layout_unknown(w);
}

/*
 * Layout "{" [INT {"," INT}] [":" item+] "}".  Stores E(bits) and S(n)
 * when present.  Returns 0, -1 on a syntax error.
 */
static int walk_layout(struct walk *w, int64_t *bits, int64_t *space)
{
	int64_t v;

	if (!eat(w, '{'))
		return -1;
	if (hd_is_digit(peek(w))) {
		do {
			if (read_uint(w, &v) < 0)
				return -1;
		} while (eat(w, ','));
	}
	if (eat(w, ':')) {
		if (peek(w) == '}')
			return -1;
		while (!at_end(w) && *w->p != '}')
			if (layout_item(w, bits, space) < 0)
				return -1;
	}
	return eat(w, '}') ? 0 : -1;
}

/*
 * Dimensions "[" [dim {"," dim}] "]" with dim = INT | "<=" INT | "?".
 * Stores the element count (bounded dims at their bound), -1 when a dim
 * is unbounded or the product overflows.  Returns 0, -1 on a syntax
 * error.
 */
static int walk_dims(struct walk *w, int64_t *elements)
{
	int64_t n = 1, d;

	if (!eat(w, '['))
		return -1;
	if (eat(w, ']')) {
		*elements = 1;
		return 0;
	}
	do {
		if (eat(w, '?')) {
			n = -1;
			continue;
		}
		eat_str(w, "<=");
		if (read_uint(w, &d) < 0)
			return -1;
		n = d == INT64_MAX ? -1 : mul_checked(n, d);
	} while (eat(w, ','));
	if (!eat(w, ']'))
		return -1;
	*elements = n;
	return 0;
}

/*
 * Array "TYPE[dims]{layout}".  Logical bytes follow
 * ShapeUtil::ByteSizeOfElements: with E(bits) (bits > 0) the elements
 * are packed, ceil(elements * bits / 8), whatever the type; otherwise
 * elements times the type's byte size.
 */
static int walk_array(struct walk *w, struct shape_info *info)
{
	const char *type = w->p;
	size_t type_len;
	int64_t elements = -1, ebytes, bits = 0, space = 0;

	if (!is_lower(peek(w)))
		return -1;
	while (is_lower(peek(w)) || hd_is_digit(peek(w)))
		w->p++;
	type_len = (size_t)(w->p - type);
	if (walk_dims(w, &elements) < 0)
		return -1;
	if (peek(w) == '{' && walk_layout(w, &bits, &space) < 0)
		return -1;
	ebytes = element_bytes(type, type_len);
	info->space = space;
	if (elements < 0 || ebytes < 0) {
		info->bytes = -1;
	} else if (bits > 0 && ebytes > 0) {
		/* ceil(elements * bits / 8) without overflowing the product */
		int64_t whole = mul_checked(elements / 8, bits);
		int64_t rest = ((elements % 8) * bits + 7) / 8;

		info->bytes = whole < 0 || whole > INT64_MAX - rest ?
			-1 : whole + rest;
	} else {
		info->bytes = mul_checked(elements, ebytes);
	}
	return 0;
}

/* The separator before a tuple element: ", " plus an optional
 * "/\*index=N*\/" marker (the space is optional too). */
static int walk_separator(struct walk *w)
{
	int64_t v;

	if (!eat(w, ','))
		return -1;
	eat(w, ' ');
	if (eat_str(w, "/*index=")) {
		if (read_uint(w, &v) < 0 || !eat_str(w, "*/"))
			return -1;
	}
	return 0;
}

/*
 * Tuple "(" [shape {sep shape}] ")".  The logical size is the index
 * table alone: 8 bytes per element, as ByteSizeOfTupleIndexTable.
 */
static int walk_tuple(struct walk *w, struct shape_info *info)
{
	struct shape_info elem;
	int64_t count = 0;

	if (!eat(w, '('))
		return -1;
	if (!eat(w, ')')) {
		for (;;) {
			if (walk_shape(w, &elem) < 0)
				return -1;
			count++;
			if (eat(w, ')'))
				break;
			if (walk_separator(w) < 0)
				return -1;
		}
	}
	info->is_tuple = 1;
	info->count = count;
	info->space = -1;
	info->bytes = mul_checked(count, POINTER_SIZE);
	return 0;
}

/*
 * Any shape at w->p; advances past it.  Returns 0 and fills info, -1 on
 * a syntax error or when nesting exceeds HD_SHAPE_MAX_DEPTH.  A buffer
 * "b(S)" has the size and memory space of S.
 */
static int walk_shape(struct walk *w, struct shape_info *info)
{
	int rc;

	memset(info, 0, sizeof(*info));
	if (w->depth >= HD_SHAPE_MAX_DEPTH)
		return -1;
	w->depth++;
	if (peek(w) == '(') {
		rc = walk_tuple(w, info);
	} else if (eat_str(w, "b(")) {
		rc = walk_shape(w, info);
		if (rc == 0 && !eat(w, ')'))
			rc = -1;
	} else {
		rc = walk_array(w, info);
	}
	w->depth--;
	return rc;
}

/* Reads the whole slice as one shape.  Returns 0, -1 if it is not one. */
static int read_whole(struct hd_slice s, struct shape_info *info)
{
	struct walk w = walk_of(s, 0);

	if (s.n == 0 || walk_shape(&w, info) < 0 || !at_end(&w))
		return -1;
	return 0;
}

int64_t hd_shape_logical_bytes(struct hd_slice shape)
{
	struct shape_info info;

	if (read_whole(shape, &info) < 0)
		return -1;
	return info.bytes;
}

int64_t hd_shape_memory_space(struct hd_slice shape)
{
	struct shape_info info;

	if (read_whole(shape, &info) < 0 || info.is_tuple)
		return -1;
	return info.space;
}

int hd_shape_is_tuple(struct hd_slice shape)
{
	return shape.n >= 2 && shape.p[0] == '(' && shape.p[shape.n - 1] == ')';
}

/*
 * Walks the tuple at the start of shape up to element i and stores it.
 * Elements before i are read (and so checked); the text after element i
 * is not.  Returns 0, -1 if shape is no tuple or has no element i.
 */
int hd_shape_tuple_element(struct hd_slice shape, int64_t i,
			   struct hd_slice *out)
{
	struct walk w = walk_of(shape, 1);
	struct shape_info info;
	int64_t k;
	const char *start;

	if (i < 0 || !hd_shape_is_tuple(shape))
		return -1;
	w.p++;
	if (peek(&w) == ')')
		return -1;
	for (k = 0;; k++) {
		start = w.p;
		if (walk_shape(&w, &info) < 0)
			return -1;
		if (k == i) {
			*out = hd_slice_make(start, (size_t)(w.p - start));
			return 0;
		}
		if (eat(&w, ')') || walk_separator(&w) < 0)
			return -1;
	}
}

/*
 * Follows a ShapeIndex "{}" / "{1,0}" (spaces after commas tolerated)
 * down the nested tuples of shape.  Returns 0 and stores the subshape,
 * -1 when the index is malformed or does not fit.
 */
int hd_shape_subshape(struct hd_slice shape, struct hd_slice index,
		      struct hd_slice *out)
{
	struct walk w = walk_of(index, 0);
	struct hd_slice cur = shape;
	int64_t i;

	if (!eat(&w, '{'))
		return -1;
	if (!eat(&w, '}')) {
		do {
			eat(&w, ' ');
			if (read_uint(&w, &i) < 0 ||
			    hd_shape_tuple_element(cur, i, &cur) < 0)
				return -1;
		} while (eat(&w, ','));
		if (!eat(&w, '}'))
			return -1;
	}
	if (!at_end(&w) || cur.n == 0)
		return -1;
	*out = cur;
	return 0;
}

/* Index of the bracket c in "([{", or -1. */
static int opener(char c)
{
	return c == '(' ? 0 : c == '[' ? 1 : c == '{' ? 2 : -1;
}

static int closer(char c)
{
	return c == ')' ? 0 : c == ']' ? 1 : c == '}' ? 2 : -1;
}

/*
 * Lexical span: brackets must pair up ("(" with ")" and so on) within
 * 4 * HD_SHAPE_MAX_DEPTH levels; the shape ends at the first space, ','
 * or unmatched ')' outside all brackets.  The first byte must be '(' or
 * a lower-case letter.
 */
size_t hd_shape_span(struct hd_slice s)
{
	char stack[4 * HD_SHAPE_MAX_DEPTH];
	size_t depth = 0, i;

	if (s.n == 0 || (s.p[0] != '(' && !is_lower((unsigned char)s.p[0])))
		return 0;
	for (i = 0; i < s.n; i++) {
		char c = s.p[i];
		int k;

		if (depth == 0 && (c == ' ' || c == ',' || c == ')'))
			break;
		if ((k = opener(c)) >= 0) {
			if (depth == sizeof(stack))
				return 0;
			stack[depth++] = (char)k;
		} else if ((k = closer(c)) >= 0) {
			if (depth == 0 || stack[depth - 1] != k)
				return 0;
			depth--;
		}
	}
	return depth == 0 ? i : 0;
}

struct hd_slice hd_shape_strip_layout(struct hd_slice shape)
{
	struct walk w = walk_of(shape, 0);
	int64_t elements;

	if (shape.n == 0 || !is_lower(peek(&w)) || eat_str(&w, "b("))
		return shape;
	while (is_lower(peek(&w)) || hd_is_digit(peek(&w)))
		w.p++;
	if (walk_dims(&w, &elements) < 0)
		return shape;
	return hd_slice_make(shape.p, (size_t)(w.p - shape.p));
}
