/*
 * dump.h - the model of one buffer-assignment dump: what the dump says,
 * nothing derived (derived numbers live in figures.h; the digest of the
 * text kept beside the records is said at struct hd_dump's tallies).
 *
 * Layout: flat arrays (struct hd_vec) of records; records refer to each
 * other by uint32 index (HD_NONE = no such record), never by pointer.
 * Strings are slices into the input buffers (or the dump's arena) and stay
 * valid until hd_dump_release().  A value's name and index are copies in
 * the arena, so that lookups by key never touch the input; the input's
 * pages may have been given back after the parse (input.h) and come back
 * from the page cache when a slice into them is read.
 *
 * Values are keyed "name{index}" everywhere, the way BufferLiveRange lines
 * print them.  For lookups the key is normalised to the name alone when
 * the index is "{}" (instruction names are unique in a module, so this is
 * unambiguous), which keeps every key a contiguous slice: see
 * hd_value_key_of().
 */
#ifndef HLODIFF_DUMP_H
#define HLODIFF_DUMP_H

#include <stdint.h>

#include "hlodiff/arena.h"
#include "hlodiff/index.h"
#include "hlodiff/input.h"
#include "hlodiff/shape.h"
#include "hlodiff/slice.h"
#include "hlodiff/table.h"

/* Allocation header flags, in the order XLA prints them. */
enum hd_alloc_flags {
	HD_ALLOC_COLOR = 1u << 0,        /* ", color C" was printed */
	HD_ALLOC_PAGE = 1u << 1,         /* ", page P" (newest XLA) */
	HD_ALLOC_PARAMETER = 1u << 2,    /* ", parameter N, shape |S| at ShapeIndex I" */
	HD_ALLOC_OUTPUT = 1u << 3,       /* ", output shape is |S|" */
	HD_ALLOC_CONSTANT = 1u << 4,
	HD_ALLOC_THREAD_LOCAL = 1u << 5,
	HD_ALLOC_MAYBE_LIVE_OUT = 1u << 6,
	HD_ALLOC_TEMP = 1u << 7,         /* ", preallocated-temp" */
};

/* The allocation kinds figures and rules speak of (derived from flags). */
enum hd_alloc_kind {
	HD_KIND_PARAMETER,
	HD_KIND_OUTPUT,       /* output shape or maybe-live-out, not a parameter */
	HD_KIND_CONSTANT,
	HD_KIND_THREAD_LOCAL,
	HD_KIND_TEMP,
	HD_KIND_OTHER,        /* none of the flags above */
	HD_KIND_COUNT
};

struct hd_alloc {
	int64_t index;          /* N of "allocation N:" */
	int64_t size;
	int64_t color;          /* 0 when not printed */
	uint32_t flags;         /* enum hd_alloc_flags */
	int64_t param_number;   /* -1 unless HD_ALLOC_PARAMETER */
	struct hd_slice param_shape, param_index;
	uint32_t value_first;   /* first entry in dump->alloc_values */
	uint32_t value_count;
	uint32_t line;
};

/* One " value: <...> (size=S,offset=O): SHAPE" line of an allocation
 * (its line number: hd_value_lines.listed_line).  64 bytes, a cache
 * line: the passes after the load read these records scattered. */
struct hd_alloc_value {
	uint32_t value;         /* index into dump->values */
	uint32_t alloc;         /* index into dump->allocs */
	int64_t size, offset;
	struct hd_slice shape;  /* with layout */
	int64_t shape_bytes;    /* hd_shape_logical_bytes(shape), -1 without one */
	/* XXH3-64 of shape and of hd_shape_strip_layout(shape) (the loose
	 * keys of canon.h hash them) */
	uint64_t shape_hash, bare_hash;
};

enum hd_value_flags {
	HD_VALUE_PHI = 1u << 0,         /* " (phi)" */
	HD_VALUE_HAS_COLOR = 1u << 1,   /* " @C" printed */
	HD_VALUE_INDEXED = 1u << 2,     /* short form printed {IDX} (tuple-shaped instruction) */
	HD_VALUE_IN_ALLOC = 1u << 3,    /* listed as a value line of an allocation */
	HD_VALUE_RECORD = 1u << 4,      /* has a "Used values:" record */
	HD_VALUE_LIVE = 1u << 5,        /* has a BufferLiveRange line */
};

struct hd_value {
	int64_t id;
	struct hd_slice name;   /* defining instruction name */
	int64_t live_start, live_end;   /* valid with HD_VALUE_LIVE */
	uint32_t flags;         /* enum hd_value_flags */
	uint32_t alloc_value;   /* first entry in dump->alloc_values, or HD_NONE */
	uint32_t insn;          /* defining instruction, or HD_NONE */
	/* The sizes the figures weigh a live range by (figures.c), kept
	 * by the parser so that the pass over the live ranges need not
	 * read the value line's and the instruction's records as well:
	 * own = its value line's shape_bytes, whole = its instruction's
	 * shape_bytes, each as hd_size_keep() encodes it; 0 when not kept
	 * (too big, or not known). */
	uint32_t own_kept, whole_kept;
	/* The length of its index, "{}" or "{0,1}" (always with braces):
	 * hd_value_index().  Any other than "{}" follows name in memory,
	 * so that hd_value_key_of() is name + index. */
	uint32_t index_n;
};

/* A value's index ("{}" or "{0,1}"). */
static inline struct hd_slice hd_value_index(const struct hd_value *v)
{
	if (v->index_n == 2)
		return hd_slice_make("{}", 2);
	return hd_slice_make(v->name.p + v->name.n, v->index_n);
}

/*
 * Where a value was read (dump->value_lines, one per value, filled by
 * the parser): kept apart from struct hd_value, whose records every pass
 * after the load reads scattered, so that those stay 64 bytes, a cache
 * line.
 */
struct hd_value_lines {
	uint32_t line;          /* first line that named this value */
	uint32_t record_line;   /* line of its "<...>" record, 0 if none */
	uint32_t listed_line;   /* line of its value line in an allocation,
				   0 if none */
};

/* A value's " @C" (dump->value_colors, one int64_t per value; 0 when not
 * printed: HD_VALUE_HAS_COLOR) and its record's positions
 * (dump->value_positions, one per value): entries pos_first ..
 * pos_first + pos_count - 1 of dump->positions.  Apart from struct
 * hd_value for its size, like hd_value_lines. */
struct hd_value_positions {
	uint32_t pos_first, pos_count;
};

/* A value's use lines, with HD_PARSE_KEEP_USES (dump->value_uses, one
 * per value): entries use_first .. use_first + use_count - 1 of
 * dump->uses. */
struct hd_value_uses {
	uint32_t use_first, use_count;
};

/* A size b >= -1 (-1 = unknown) as hd_value keeps it: b + 2, or 0 when
 * that does not fit in 32 bits. */
static inline uint32_t hd_size_keep(int64_t b)
{
	return b >= -1 && b <= (int64_t)0xfffffffd ? (uint32_t)(b + 2) : 0;
}

/* The size a non-zero hd_size_keep() result stands for. */
static inline int64_t hd_size_kept(uint32_t k)
{
	return (int64_t)k - 2;
}

/* "  NAME" or "  NAME {IDX}" under " positions:" */
struct hd_position {
	struct hd_slice name, index;   /* index empty when not printed */
};

/* "  NAME, operand K" [" {IDX}"] under " uses:" */
struct hd_use {
	struct hd_slice name, index;
	int64_t operand;
};

enum hd_insn_flags {
	HD_INSN_COPY_START = 1u << 0,   /* opcode is "copy-start" */
	/* attrs say cross_program_prefetch_index= or is_cross_program_prefetch=true */
	HD_INSN_CROSS_PROGRAM_PREFETCH = 1u << 1,
};

/*
 * A defining instruction (" from instruction: %name = SHAPE opcode(...), ...").
 * 128 bytes, two cache lines: canonical hashing reads these records
 * after the load.  What only reports read (op_name, source file and
 * line) is read from its attributes when asked for (hd_insn_source_of).
 */
struct hd_insn {
	struct hd_slice name;       /* without '%' */
	struct hd_slice shape;      /* result shape with layout */
	struct hd_slice opcode;
	struct hd_slice operands;   /* text between the opcode's parentheses */
	struct hd_slice attrs;      /* text after "), " to the end of line, may be empty */
	struct hd_slice text;       /* the whole instruction text */
	/* inside metadata={...}, as bytes meta_at .. meta_at + meta_n - 1
	 * of text (hd_insn_metadata); meta_at 0 when there is none (text
	 * starts with "%NAME = ", so a metadata never starts there), and
	 * when the parse had no HD_PARSE_CANON: canonical hashing, its one
	 * reader, then walks the metadata item as any other */
	uint32_t meta_at, meta_n;
	int64_t shape_bytes;        /* hd_shape_logical_bytes(shape) */
	uint64_t name_hash;         /* XXH3-64 of name */
	uint32_t flags;             /* enum hd_insn_flags */
};

/* What an instruction's metadata says of where it came from
 * (hd_insn_source_of). */
struct hd_insn_source {
	struct hd_slice op_name;    /* metadata op_name, unescaped only if no escapes */
	struct hd_slice source_file;
	int64_t source_line;        /* -1 when absent */
};

/* The text inside an instruction's metadata={...}, empty if none. */
static inline struct hd_slice hd_insn_metadata(const struct hd_insn *in)
{
	return in->meta_at ? hd_slice_make(in->text.p + in->meta_at, in->meta_n) :
			     HD_SLICE_NULL;
}

/* The first %NAME among an instruction's operands, without the '%'
 * (empty when there is none): a copy-start's source. */
struct hd_slice hd_insn_first_operand(const struct hd_insn *in);

/* "    NAME{IDX}:START-END".  24 bytes; the name of a range that names
 * no value is in dump->unknown_ranges. */
struct hd_live_range {
	int64_t start, end;
	uint32_t value;             /* HD_NONE when no value has this key */
	uint32_t line;
};

/* The name of a live range whose key names no value. */
struct hd_unknown_range {
	uint32_t range;             /* index into dump->live_ranges */
	struct hd_slice name, index;    /* key: hd_value_key(name + index) */
};

enum hd_peak_style {
	HD_PEAK_ABSENT,        /* no peak section */
	HD_PEAK_CUMULATIVE,    /* "NAME{IDX}: B bytes (cumulative: S bytes)" */
	HD_PEAK_PLAIN,         /* older "NAME: B bytes" */
	HD_PEAK_UNDETERMINED,  /* "Peak memory could not be determined ..." */
};

struct hd_peak_entry {
	struct hd_slice name, index;  /* index empty in the plain style */
	int64_t bytes;
	int64_t cumulative;         /* -1 in the plain style */
	uint32_t value;             /* HD_NONE when unresolved */
	uint32_t line;
};

/* Which sections the dump had. */
enum hd_sections {
	HD_SEC_ALLOCATIONS = 1u << 0,    /* "BufferAssignment:" */
	HD_SEC_TOTAL = 1u << 1,          /* "Total bytes used:" */
	HD_SEC_USED_VALUES = 1u << 2,
	HD_SEC_LIVE_RANGE = 1u << 3,     /* "HloLiveRange (max T):" */
	HD_SEC_SEQUENCE = 1u << 4,
	HD_SEC_BUFFER_LIVE = 1u << 5,
	HD_SEC_PEAK = 1u << 6,
	HD_SEC_STACK_TREE = 1u << 7,
	HD_SEC_LIVE_RANGE_NA = 1u << 8,  /* "HloLiveRange not available ..." */
	HD_SEC_STDOUT_WRAPPER = 1u << 9, /* "*** Begin FILE ***" */
};

#define HD_UNKNOWN_SHOWN 10

struct hd_canon_pre;        /* canon.h */

struct hd_dump {
	const char *name;           /* display name of the main file */
	/* the module name a golden file records (golden.h); empty in a
	 * parsed dump, whose file name says it */
	struct hd_slice module;
	struct hd_arena arena;
	struct hd_input inputs[3];  /* main file, -values.txt, -live-range.txt */
	int n_inputs;

	struct hd_vec allocs;       /* struct hd_alloc */
	struct hd_vec alloc_values; /* struct hd_alloc_value */
	struct hd_vec values;       /* struct hd_value, in order of first mention */
	struct hd_vec positions;    /* struct hd_position */
	struct hd_vec value_lines;  /* struct hd_value_lines, per value */
	struct hd_vec value_colors; /* int64_t, per value */
	struct hd_vec value_positions; /* struct hd_value_positions, per value */
	struct hd_vec uses;         /* struct hd_use, with HD_PARSE_KEEP_USES */
	struct hd_vec value_uses;   /* struct hd_value_uses, per value, with
				       HD_PARSE_KEEP_USES */
	struct hd_vec insns;        /* struct hd_insn, unique by name */
	/* struct hd_insn_source, per instruction, in a model built from a
	 * golden file (golden.h), which has no attribute text; empty in a
	 * parsed dump, whose metadata is read again when asked for */
	struct hd_vec insn_sources;
	struct hd_vec sequence;     /* struct hd_slice: instruction names, time order */
	struct hd_vec live_ranges;  /* struct hd_live_range */
	struct hd_vec unknown_ranges; /* struct hd_unknown_range, ascending */
	struct hd_vec peak;         /* struct hd_peak_entry */

	/*
	 * Every model holds the text's digest in hd_alloc_value
	 * (shape_bytes, shape_hash, bare_hash), hd_insn (shape_bytes,
	 * name_hash, flags) and hd_value (own_kept, whole_kept), and these
	 * tallies, so that the figures need not walk the shapes' text or
	 * whole record arrays again, nor canonical hashing hash the names
	 * and shapes again (by then the input pages may be released, see
	 * input.h).  The parser fills them while each line is in cache; a
	 * model built otherwise (golden.c) by hd_dump_derive_facts.
	 */
	uint64_t n_records;         /* values with HD_VALUE_RECORD */
	uint64_t n_listed;          /* values with HD_VALUE_IN_ALLOC */
	uint64_t n_listed_records;  /* values with both */
	int64_t value_bytes;        /* sum of alloc_values' size, saturating */
	struct hd_vec copy_starts;  /* uint32: insns with HD_INSN_COPY_START,
				       ascending */

	/* With HD_PARSE_CANON (parse.h): the canonical hashes the parser
	 * computed while each instruction was in cache (canon.h), for
	 * hd_canon_compute; NULL otherwise. */
	struct hd_canon_pre *canon_pre;

	uint32_t sections;          /* enum hd_sections */
	int64_t total_bytes;        /* valid with HD_SEC_TOTAL */
	uint32_t total_line;
	int64_t live_max;           /* T of "HloLiveRange (max T)", -1 if absent */
	int peak_style;             /* enum hd_peak_style */
	int64_t peak_time;          /* -1 unless HD_PEAK_CUMULATIVE/PLAIN */
	int64_t stack_total;        /* "Stack trace breakdown ...: N bytes", -1 */

	uint64_t n_lines;           /* lines read, all files */
	uint64_t n_unknown;         /* lines the parser did not know */
	/* A dump read with HD_PARSE_ALLOW_INCOMPLETE that broke off: the
	 * sections (enum hd_sections) cut short, where, and why. */
	uint32_t incomplete;
	const char *incomplete_file;
	uint64_t incomplete_line;
	const char *incomplete_why;
	/* A split dump (newest XLA) whose companion is not beside the main
	 * file: the sections (enum hd_sections) it would have given, and
	 * its expected path ([0] values, [1] live ranges; NULL if read). */
	uint32_t missing;
	const char *missing_files[2];
	uint64_t unknown_lines[HD_UNKNOWN_SHOWN]; /* first ones, 1-based */
	const char *unknown_files[HD_UNKNOWN_SHOWN];

	struct hd_vec id_slots;        /* uint32 values index by id (dense ids) */
	int64_t id_limit;              /* ids below this use id_slots */
	struct hd_table value_by_id;   /* id -> values index for ids >= id_limit */
	/* The two lookups done for nearly every line use the flat index
	 * (index.h), not uthash; fill them with hd_dump_index_value/_insn. */
	struct hd_index value_by_key;  /* key -> values index */
	struct hd_index insn_by_name;  /* name -> insns index */
	struct hd_vec alloc_slots;     /* uint32 allocs index by allocation number */
	struct hd_table alloc_by_index; /* the same for numbers >= id_limit */
};

#define HD_ALLOC(d, i) HD_VEC_AT(&(d)->allocs, struct hd_alloc, i)
#define HD_ALLOC_VALUE(d, i) HD_VEC_AT(&(d)->alloc_values, struct hd_alloc_value, i)
#define HD_VALUE(d, i) HD_VEC_AT(&(d)->values, struct hd_value, i)
#define HD_INSN(d, i) HD_VEC_AT(&(d)->insns, struct hd_insn, i)
#define HD_INSN_SOURCE(d, i) HD_VEC_AT(&(d)->insn_sources, struct hd_insn_source, i)
#define HD_POSITION(d, i) HD_VEC_AT(&(d)->positions, struct hd_position, i)
#define HD_USE(d, i) HD_VEC_AT(&(d)->uses, struct hd_use, i)
#define HD_VALUE_LINES(d, i) HD_VEC_AT(&(d)->value_lines, struct hd_value_lines, i)
#define HD_VALUE_COLOR(d, i) HD_VEC_AT(&(d)->value_colors, int64_t, i)
#define HD_VALUE_POSITIONS(d, i) HD_VEC_AT(&(d)->value_positions, struct hd_value_positions, i)
#define HD_VALUE_USES(d, i) HD_VEC_AT(&(d)->value_uses, struct hd_value_uses, i)
#define HD_LIVE_RANGE(d, i) HD_VEC_AT(&(d)->live_ranges, struct hd_live_range, i)
#define HD_UNKNOWN_RANGE(d, i) HD_VEC_AT(&(d)->unknown_ranges, struct hd_unknown_range, i)
#define HD_PEAK_ENTRY(d, i) HD_VEC_AT(&(d)->peak, struct hd_peak_entry, i)
#define HD_SEQ(d, i) HD_VEC_AT(&(d)->sequence, struct hd_slice, i)

void hd_dump_init(struct hd_dump *d);
void hd_dump_release(struct hd_dump *d);

/* The sections' names as reports and golden files print them. */
struct hd_section_word {
	uint32_t bit;           /* enum hd_sections */
	const char *name;       /* "allocations", "used-values", ... */
};
extern const struct hd_section_word hd_section_words[];
extern const size_t hd_section_word_count;

/* The figures an incomplete dump leaves out, in words ("" if none). */
const char *hd_incomplete_affects(uint32_t incomplete);
/* The figures a missing split companion (dump->missing bits) leaves out. */
const char *hd_missing_affects(uint32_t missing);

/* Kind of an allocation from its flags (parameter wins over output).
 * Inline: the figures and the diff ask once per value. */
static inline enum hd_alloc_kind hd_alloc_kind_of(uint32_t flags)
{
	if (flags & HD_ALLOC_PARAMETER)
		return HD_KIND_PARAMETER;
	if (flags & (HD_ALLOC_OUTPUT | HD_ALLOC_MAYBE_LIVE_OUT))
		return HD_KIND_OUTPUT;
	if (flags & HD_ALLOC_CONSTANT)
		return HD_KIND_CONSTANT;
	if (flags & HD_ALLOC_THREAD_LOCAL)
		return HD_KIND_THREAD_LOCAL;
	if (flags & HD_ALLOC_TEMP)
		return HD_KIND_TEMP;
	return HD_KIND_OTHER;
}
const char *hd_alloc_kind_name(enum hd_alloc_kind k);

/* Lookups; HD_NONE when absent.  name_index is "name{idx}" as printed in
 * BufferLiveRange lines or the short form. */
uint32_t hd_dump_value_by_key(const struct hd_dump *d, struct hd_slice name_index);
uint32_t hd_dump_insn_by_name(const struct hd_dump *d, struct hd_slice name);
/* In one probe: the instruction filed under name (with its
 * hd_index_hash), or HD_NONE after filing i under it, which must be
 * the index of the next instruction, with that name (the parser). */
uint32_t hd_dump_insn_put_hashed(struct hd_dump *d, uint32_t hash,
				 struct hd_slice name, uint32_t i);
/* hd_dump_value_by_key with the hd_index_hash of the key (hd_value_key
 * of name_index) already known. */
uint32_t hd_dump_value_by_hash(const struct hd_dump *d, uint32_t hash,
			       struct hd_slice key);

/*
 * Files value v under its key / instruction i under its name (the
 * record must be in place).  Returns HD_NONE, or the record already
 * filed under that key (then nothing changes).
 */
uint32_t hd_dump_index_value(struct hd_dump *d, uint32_t v);
uint32_t hd_dump_index_insn(struct hd_dump *d, uint32_t i);
/* hd_dump_index_value with the hd_index_hash of the value's key known. */
uint32_t hd_dump_index_value_hashed(struct hd_dump *d, uint32_t v,
				   uint32_t hash);

/*
 * Index maps from a non-negative integer (value id, allocation number) to
 * a record index: a flat array for numbers below d->id_limit (dumps number
 * densely), a hash table above it (so a hostile id costs no memory).
 * hd_dump_slot_put returns the index already stored, or HD_NONE after
 * storing idx.
 */
/* key's place in the flat array when it has one already (a number below
 * limit that the array reaches), else NULL: where hd_dump_slot_get reads
 * it and hd_dump_slot_put would write it. */
static inline uint32_t *hd_dump_flat_slot(struct hd_vec *slots, int64_t limit,
					  int64_t key)
{
	return key >= 0 && key < limit && (uint64_t)key < slots->len ?
	       &HD_VEC_AT(slots, uint32_t, key) : NULL;
}

static inline uint32_t hd_dump_slot_get(const struct hd_vec *slots,
					const struct hd_table *big,
					int64_t limit, int64_t key)
{
	if (key >= 0 && key < limit)
		return (uint64_t)key < slots->len ? HD_VEC_AT(slots, uint32_t, key) : HD_NONE;
	return hd_table_get_i64(big, key);
}

uint32_t hd_dump_slot_put(struct hd_vec *slots, struct hd_table *big,
			  int64_t limit, int64_t key, uint32_t idx);

/*
 * Where instruction i came from: op_name, source file and line of its
 * metadata, as the parser reads them (read again from the instruction's
 * attributes, which stay in the input; from dump->insn_sources in a
 * model that has them).  Reports ask for the values they show; the
 * golden writer and canonical hashing without the parser's pre-walk
 * (canon.h) ask for every instruction, and read each metadata again.
 */
struct hd_insn_source hd_insn_source_of(const struct hd_dump *d, uint32_t i);

/* The end of the '/'-separated part of an op_name that starts at op.p[i]:
 * the first '/' outside (), [] and {} from i, or op.n. */
size_t hd_op_name_part_end(struct hd_slice op, size_t i);

/*
 * Every instruction's source, for a pass that asks for all of them: each
 * metadata read once.  d->insn_sources when the model has them, else an
 * array made now, which *owned then holds (free it; NULL otherwise).
 */
const struct hd_insn_source *hd_insn_sources(const struct hd_dump *d,
					     struct hd_insn_source **owned);

/*
 * Every instruction's source of one dump, made at the first ask
 * (hd_insn_sources), for a pass that asks for many values' sources.
 * Zeroed to start; hd_sources_release frees what was made.
 */
struct hd_sources {
	const struct hd_insn_source *all;
	struct hd_insn_source *owned;
};

/* Where value v of d came from (its instruction's source), or NULL when
 * it has no instruction. */
const struct hd_insn_source *hd_value_source(const struct hd_dump *d,
					     uint32_t v, struct hd_sources *s);
void hd_sources_release(struct hd_sources *s);

/* The value with this id (inline: the parser asks once per value line
 * and record). */
static inline uint32_t hd_dump_value_by_id(const struct hd_dump *d, int64_t id)
{
	return hd_dump_slot_get(&d->id_slots, &d->value_by_id, d->id_limit, id);
}

/* The normalised lookup key for name + index ("{}" -> name alone); the
 * result is a sub-slice of name_index. */
static inline struct hd_slice hd_value_key(struct hd_slice name_index)
{
	if (name_index.n >= 2 && name_index.p[name_index.n - 2] == '{' &&
	    name_index.p[name_index.n - 1] == '}')
		name_index.n -= 2;
	return name_index;
}

/* A value's normalised lookup key (see the top of this file). */
static inline struct hd_slice hd_value_key_of(const struct hd_value *v)
{
	if (v->index_n == 2)
		return v->name;
	return hd_value_key(hd_slice_make(v->name.p, v->name.n + v->index_n));
}

/*
 * Bytes the value occupies in its allocation (size= of its value line),
 * or -1 when it has no value line.  Inline, like the two below: the
 * figures and the diff ask for every value.
 */
static inline int64_t hd_value_size(const struct hd_dump *d, uint32_t v)
{
	uint32_t av = HD_VALUE(d, v).alloc_value;

	return av == HD_NONE ? -1 : HD_ALLOC_VALUE(d, av).size;
}

/* Shape of the value: its value line's shape, else the subshape of the
 * defining instruction at its index; empty when unknown. */
struct hd_slice hd_value_shape(const struct hd_dump *d, uint32_t v);

/* The memory space of value v: its " @C", else its shape's (-1 when
 * unknown).  Inline: the diff asks for every matched value. */
static inline int64_t hd_value_space(const struct hd_dump *d, uint32_t v)
{
	if (HD_VALUE(d, v).flags & HD_VALUE_HAS_COLOR)
		return HD_VALUE_COLOR(d, v);
	return hd_shape_memory_space(hd_value_shape(d, v));
}

/* hd_shape_logical_bytes(hd_value_shape(d, v)), -1 when unknown; its
 * value line's shape_bytes when it has one. */
static inline int64_t hd_value_logical_bytes(const struct hd_dump *d,
					     uint32_t v)
{
	uint32_t av = HD_VALUE(d, v).alloc_value;

	if (av != HD_NONE)
		return HD_ALLOC_VALUE(d, av).shape_bytes;
	return hd_shape_logical_bytes(hd_value_shape(d, v));
}

/*
 * Fills the digest fields and tallies above from the records, as the
 * parser fills them while it reads: for a model built otherwise
 * (golden.c), after its records are in place, so that it answers every
 * query as a parsed one does.
 */
void hd_dump_derive_facts(struct hd_dump *d);

/*
 * A front-to-back pass over the dump's text after the parse (input.h,
 * hd_input_pass_at), pass[k] for input k: at, a byte of one of the
 * inputs, has been reached.  Readers that go back to the text keep only
 * a window of it resident this way.  HD_DUMP_PASS_SPARSE starts a pass
 * that reads here and there (HD_INPUT_PASS_SPARSE for each input).
 */
#define HD_DUMP_PASS_SPARSE { HD_INPUT_PASS_SPARSE, HD_INPUT_PASS_SPARSE, \
			      HD_INPUT_PASS_SPARSE }
void hd_dump_pass_at(const struct hd_dump *d, struct hd_input_pass pass[3],
		     const char *at);
/* Do an instruction's attributes mark a cross-program prefetch
 * (cross_program_prefetch_index=, is_cross_program_prefetch=true)? */
int hd_attrs_cross_program_prefetch(struct hd_slice attrs);

#endif
