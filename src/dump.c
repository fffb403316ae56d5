/*
 * dump.c - the model's life cycle and lookups.
 */
#include "hlodiff/dump.h"

#include <stdint.h>
#include <string.h>

#include "hlodiff/bytes.h"
#include "hlodiff/canon.h"
#include "hlodiff/parse.h"
#include "hlodiff/shape.h"

/* The record sizes dump.h promises (64-bit targets). */
_Static_assert(sizeof(void *) != 8 || sizeof(struct hd_value) == 64,
	       "struct hd_value is 64 bytes");
_Static_assert(sizeof(void *) != 8 || sizeof(struct hd_insn) == 128,
	       "struct hd_insn is 128 bytes");
_Static_assert(sizeof(void *) != 8 || sizeof(struct hd_live_range) == 24,
	       "struct hd_live_range is 24 bytes");

void hd_dump_init(struct hd_dump *d)
{
	memset(d, 0, sizeof(*d));
	d->allocs.elem = sizeof(struct hd_alloc);
	d->alloc_values.elem = sizeof(struct hd_alloc_value);
	d->values.elem = sizeof(struct hd_value);
	d->positions.elem = sizeof(struct hd_position);
	d->uses.elem = sizeof(struct hd_use);
	d->value_lines.elem = sizeof(struct hd_value_lines);
	d->value_colors.elem = sizeof(int64_t);
	d->value_positions.elem = sizeof(struct hd_value_positions);
	d->value_uses.elem = sizeof(struct hd_value_uses);
	d->insns.elem = sizeof(struct hd_insn);
	d->insn_sources.elem = sizeof(struct hd_insn_source);
	d->sequence.elem = sizeof(struct hd_slice);
	d->live_ranges.elem = sizeof(struct hd_live_range);
	d->unknown_ranges.elem = sizeof(struct hd_unknown_range);
	d->peak.elem = sizeof(struct hd_peak_entry);
	d->id_slots.elem = sizeof(uint32_t);
	d->alloc_slots.elem = sizeof(uint32_t);
	d->copy_starts.elem = sizeof(uint32_t);
	d->id_limit = 1 << 16;
	d->live_max = -1;
	d->peak_time = -1;
	d->stack_total = -1;
	hd_table_init(&d->value_by_id, &d->arena);
	hd_table_init(&d->alloc_by_index, &d->arena);
}

void hd_dump_release(struct hd_dump *d)
{
	int i;

	hd_table_release(&d->value_by_id);
	hd_index_release(&d->value_by_key);
	hd_index_release(&d->insn_by_name);
	hd_table_release(&d->alloc_by_index);
	hd_vec_release(&d->id_slots);
	hd_vec_release(&d->alloc_slots);
	hd_vec_release(&d->allocs);
	hd_vec_release(&d->alloc_values);
	hd_vec_release(&d->values);
	hd_vec_release(&d->positions);
	hd_vec_release(&d->uses);
	hd_vec_release(&d->value_lines);
	hd_vec_release(&d->value_colors);
	hd_vec_release(&d->value_positions);
	hd_vec_release(&d->value_uses);
	hd_vec_release(&d->insns);
	hd_vec_release(&d->insn_sources);
	hd_vec_release(&d->sequence);
	hd_vec_release(&d->live_ranges);
	hd_vec_release(&d->unknown_ranges);
	hd_vec_release(&d->peak);
	hd_vec_release(&d->copy_starts);
	hd_canon_pre_free(d->canon_pre);
	d->canon_pre = NULL;
	for (i = 0; i < d->n_inputs; i++)
		hd_input_release(&d->inputs[i]);
	d->n_inputs = 0;
	hd_arena_release(&d->arena);
}

struct hd_slice hd_insn_first_operand(const struct hd_insn *in)
{
	struct hd_slice ops = in->operands;
	const char *p = ops.n ? memchr(ops.p, '%', ops.n) : NULL, *s;

	if (!p)
		return HD_SLICE_NULL;
	for (s = ++p; p < ops.p + ops.n && hd_name_char[(unsigned char)*p]; p++)
		;
	return hd_slice_make(s, (size_t)(p - s));
}

size_t hd_op_name_part_end(struct hd_slice op, size_t i)
{
	int depth = 0;

	for (; i < op.n; i++) {
		char c = op.p[i];

		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == '/' && depth == 0)
			break;
	}
	return i;
}

struct hd_insn_source hd_insn_source_of(const struct hd_dump *d, uint32_t i)
{
	struct hd_insn_source s;

	if (i < d->insn_sources.len)
		return HD_INSN_SOURCE(d, i);
	hd_parse_insn_source(&HD_INSN(d, i), &s);
	return s;
}

const struct hd_insn_source *hd_insn_sources(const struct hd_dump *d,
					     struct hd_insn_source **owned)
{
	size_t i;

	*owned = NULL;
	if (d->insn_sources.len == d->insns.len && d->insns.len)
		return d->insn_sources.data;
	*owned = hd_xmalloc((d->insns.len + 1) * sizeof(**owned));
	for (i = 0; i < d->insns.len; i++)
		hd_parse_insn_source(&HD_INSN(d, i), &(*owned)[i]);
	return *owned;
}

const struct hd_insn_source *hd_value_source(const struct hd_dump *d,
					     uint32_t v, struct hd_sources *s)
{
	uint32_t i = HD_VALUE(d, v).insn;

	if (i == HD_NONE)
		return NULL;
	if (!s->all)
		s->all = hd_insn_sources(d, &s->owned);
	return &s->all[i];
}

void hd_sources_release(struct hd_sources *s)
{
	free(s->owned);
	s->all = NULL;
	s->owned = NULL;
}

const struct hd_section_word hd_section_words[] = {
	{ HD_SEC_ALLOCATIONS, "allocations" },
	{ HD_SEC_TOTAL, "total" },
	{ HD_SEC_USED_VALUES, "used-values" },
	{ HD_SEC_LIVE_RANGE, "live-range" },
	{ HD_SEC_SEQUENCE, "sequence" },
	{ HD_SEC_BUFFER_LIVE, "buffer-live-ranges" },
	{ HD_SEC_PEAK, "peak" },
	{ HD_SEC_STACK_TREE, "stack-trace" },
	{ HD_SEC_LIVE_RANGE_NA, "live-range-not-available" },
	{ HD_SEC_STDOUT_WRAPPER, "stdout-wrapper" },
};
const size_t hd_section_word_count =
	sizeof(hd_section_words) / sizeof(hd_section_words[0]);

const char *hd_incomplete_affects(uint32_t incomplete)
{
	if (incomplete & HD_SEC_ALLOCATIONS)
		return "all figures (the allocations broke off)";
	if (incomplete & HD_SEC_USED_VALUES)
		return "copy-start counts and classes, op_name and source of the "
		       "values without a record, and their canonical matching";
	if (incomplete & (HD_SEC_LIVE_RANGE | HD_SEC_SEQUENCE | HD_SEC_BUFFER_LIVE))
		return "the recomputed peak and the peak explanation";
	if (incomplete & HD_SEC_PEAK)
		return "the stated peak";
	if (incomplete & HD_SEC_STACK_TREE)
		return "nothing (the stack-trace tree feeds no figure)";
	return "";
}

const char *hd_missing_affects(uint32_t missing)
{
	if (missing & HD_SEC_USED_VALUES)
		return "the stated total bytes and the value records (op_name and "
		       "source, copy-start classes, canonical matching)";
	if (missing & HD_SEC_LIVE_RANGE)
		return "the live ranges: the stated and recomputed peak and the "
		       "peak explanation";
	return "";
}

const char *hd_alloc_kind_name(enum hd_alloc_kind k)
{
	static const char *const names[HD_KIND_COUNT] = {
		"parameter", "output", "constant", "thread-local", "temp", "other",
	};

	return (unsigned)k < HD_KIND_COUNT ? names[k] : "?";
}

/* Inlined into the lookups (hd_index_find, which call it for every hash
 * met) at -O2, where the pointer to it is a constant there.  Not
 * always_inline: GCC -O1 refuses that for a function called through a
 * pointer and stops the build. */
static inline struct hd_slice value_key_of(const void *ctx, uint32_t v)
{
	return hd_value_key_of(&HD_VALUE((const struct hd_dump *)ctx, v));
}

static inline struct hd_slice insn_name_of(const void *ctx, uint32_t i)
{
	return HD_INSN((const struct hd_dump *)ctx, i).name;
}

uint32_t hd_dump_value_by_key(const struct hd_dump *d, struct hd_slice name_index)
{
	struct hd_slice key = hd_value_key(name_index);

	return hd_dump_value_by_hash(d, hd_index_hash(key), key);
}

uint32_t hd_dump_value_by_hash(const struct hd_dump *d, uint32_t hash,
			       struct hd_slice key)
{
	return hd_index_find(&d->value_by_key, hash, key, value_key_of, d);
}

uint32_t hd_dump_index_value(struct hd_dump *d, uint32_t v)
{
	return hd_index_put(&d->value_by_key, hd_value_key_of(&HD_VALUE(d, v)),
			    v, value_key_of, d);
}

uint32_t hd_dump_index_value_hashed(struct hd_dump *d, uint32_t v,
				   uint32_t hash)
{
	return hd_index_put_own(&d->value_by_key, hash, v, value_key_of, d);
}

uint32_t hd_dump_index_insn(struct hd_dump *d, uint32_t i)
{
	return hd_index_put(&d->insn_by_name, HD_INSN(d, i).name, i,
			    insn_name_of, d);
}

uint32_t hd_dump_slot_put(struct hd_vec *slots, struct hd_table *big,
			  int64_t limit, int64_t key, uint32_t idx)
{
	uint32_t *slot;

	if (key < 0 || key >= limit)
		return hd_table_put_i64(big, key, idx);
	if (!(slot = hd_dump_flat_slot(slots, limit, key))) {
		size_t old = slots->len;
		hd_vec_reserve(slots, (size_t)key + 1);
		memset((uint32_t *)slots->data + old, 0xff,
		       ((size_t)key + 1 - old) * sizeof(uint32_t));
		slots->len = (size_t)key + 1;
		slot = &HD_VEC_AT(slots, uint32_t, key);
	}
	if (*slot != HD_NONE)
		return *slot;
	*slot = idx;
	return HD_NONE;
}

uint32_t hd_dump_insn_put_hashed(struct hd_dump *d, uint32_t hash,
				 struct hd_slice name, uint32_t i)
{
	return hd_index_put_hashed(&d->insn_by_name, hash, name, i,
				   insn_name_of, d);
}

uint32_t hd_dump_insn_by_name(const struct hd_dump *d, struct hd_slice name)
{
	return hd_index_find(&d->insn_by_name, hd_index_hash(name), name,
			     insn_name_of, d);
}

struct hd_slice hd_value_shape(const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	struct hd_slice sub = HD_SLICE_NULL;

	if (val->alloc_value != HD_NONE)
		return HD_ALLOC_VALUE(d, val->alloc_value).shape;
	if (val->insn != HD_NONE &&
	    hd_shape_subshape(HD_INSN(d, val->insn).shape, hd_value_index(val), &sub) == 0)
		return sub;
	return HD_SLICE_NULL;
}

void hd_dump_pass_at(const struct hd_dump *d, struct hd_input_pass pass[3],
		     const char *at)
{
	uintptr_t p = (uintptr_t)at;
	int k;

	for (k = 0; k < d->n_inputs && k < 3; k++) {
		const struct hd_input *in = &d->inputs[k];
		uintptr_t lo = (uintptr_t)in->data;

		if (p >= lo && p - lo < in->len) {
			hd_input_pass_at(in, &pass[k], at);
			return;
		}
	}
}

void hd_dump_derive_facts(struct hd_dump *d)
{
	size_t i;

	d->n_records = d->n_listed = d->n_listed_records = 0;
	d->value_bytes = 0;
	d->copy_starts.len = 0;
	for (i = 0; i < d->alloc_values.len; i++) {
		struct hd_alloc_value *av = &HD_ALLOC_VALUE(d, i);
		struct hd_slice bare = hd_shape_strip_layout(av->shape);

		av->shape_bytes = av->shape.n ? hd_shape_logical_bytes(av->shape) : -1;
		av->shape_hash = hd_hash64(av->shape);
		av->bare_hash = bare.n == av->shape.n ? av->shape_hash : hd_hash64(bare);
		if (__builtin_add_overflow(d->value_bytes, av->size, &d->value_bytes))
			d->value_bytes = INT64_MAX;
	}
	for (i = 0; i < d->insns.len; i++) {
		struct hd_insn *in = &HD_INSN(d, i);

		in->shape_bytes = hd_shape_logical_bytes(in->shape);
		in->name_hash = hd_hash64(in->name);
		in->flags = 0;
		if (hd_slice_eq_cstr(in->opcode, "copy-start")) {
			in->flags |= HD_INSN_COPY_START;
			if (hd_attrs_cross_program_prefetch(in->attrs))
				in->flags |= HD_INSN_CROSS_PROGRAM_PREFETCH;
			*(uint32_t *)hd_vec_push(&d->copy_starts) = (uint32_t)i;
		}
	}
	for (i = 0; i < d->values.len; i++) {
		struct hd_value *val = &HD_VALUE(d, i);
		int listed = (val->flags & HD_VALUE_IN_ALLOC) != 0;
		int recorded = (val->flags & HD_VALUE_RECORD) != 0;

		d->n_listed += (uint64_t)listed;
		d->n_records += (uint64_t)recorded;
		d->n_listed_records += (uint64_t)(listed && recorded);
		val->own_kept = val->alloc_value != HD_NONE ?
			hd_size_keep(HD_ALLOC_VALUE(d, val->alloc_value).shape_bytes) : 0;
		val->whole_kept = val->insn != HD_NONE ?
			hd_size_keep(HD_INSN(d, val->insn).shape_bytes) : 0;
	}
}

/* Is the text `key` an attribute of attrs (at its start or after ' ')? */
static int has_attr(struct hd_slice attrs, const char *key, size_t n)
{
	const char *p, *end;

	if (!attrs.n)   /* attrs.p may be NULL: no arithmetic on it */
		return 0;
	p = attrs.p;
	end = attrs.p + attrs.n;
	while ((size_t)(end - p) >= n &&
	       (p = memmem(p, (size_t)(end - p), key, n)) != NULL) {
		if (p == attrs.p || p[-1] == ' ')
			return 1;
		p++;
	}
	return 0;
}

int hd_attrs_cross_program_prefetch(struct hd_slice attrs)
{
	static const char k1[] = "cross_program_prefetch_index=";
	static const char k2[] = "is_cross_program_prefetch=true";

	return has_attr(attrs, k1, sizeof(k1) - 1) ||
	       has_attr(attrs, k2, sizeof(k2) - 1);
}
