/*
 * figures.h - numbers derived from one dump (the model only states).
 *
 * Everything here is computed from struct hd_dump; nothing is read from
 * anywhere else.  A figure that the dump does not allow to compute is
 * marked absent (has_* = 0), never guessed.
 */
#ifndef HLODIFF_FIGURES_H
#define HLODIFF_FIGURES_H

#include <stdint.h>

#include "hlodiff/arena.h"
#include "hlodiff/dump.h"

/* The held peak of one allocation colour (hd_figures.peak_by_color). */
struct hd_peak_space {
	int64_t color;
	int64_t bytes;
	int64_t time;       /* first time of the maximum */
};

struct hd_color_bytes {
	int64_t color;
	int64_t bytes;      /* sum of allocation sizes of this colour */
	uint32_t allocs;    /* number of allocations of this colour */
};

enum hd_copy_class {
	HD_COPY_PREFETCH,               /* into memory space 1 from 0 */
	HD_COPY_EVICTION,               /* into 0 from 1 */
	HD_COPY_CROSS_PROGRAM_PREFETCH, /* cross_program_prefetch_index / is_cross_program_prefetch */
	HD_COPY_HOST_OFFLOAD,           /* into 5 */
	HD_COPY_HOST_RELOAD,            /* from 5 */
	HD_COPY_OTHER,
	HD_COPY_CLASS_COUNT
};

/* One copy-start instruction. */
struct hd_copy {
	uint32_t insn;          /* index into dump->insns, HD_NONE if known only
				   from a value line (no Used values section) */
	uint32_t value;         /* the {0} (destination) value, HD_NONE if none */
	struct hd_slice name;   /* instruction name */
	enum hd_copy_class cls;
	int64_t src_space;      /* -1 when unknown */
	int64_t dst_space;      /* -1 when unknown */
	int64_t bytes;          /* size= of the destination value, else its
				   logical size, -1 when unknown */
};

/* The bytes one value holds at the held peak (hd_figures.peak_pieces). */
struct hd_held_piece {
	uint32_t value;
	int64_t bytes;
};

struct hd_figures {
	int has_total;
	int64_t total_bytes;        /* "Total bytes used" as stated */
	int64_t alloc_bytes;        /* sum of all allocation sizes */
	int total_mismatch;         /* has_total && total_bytes != alloc_bytes */

	struct hd_vec by_color;     /* struct hd_color_bytes, ascending colour */
	int64_t by_kind[HD_KIND_COUNT];
	uint32_t allocs_by_kind[HD_KIND_COUNT];

	uint64_t n_allocs;
	uint64_t n_values;          /* value lines inside allocations */
	uint64_t n_records;         /* "Used values:" records */
	uint64_t n_live_ranges;     /* BufferLiveRange lines */
	int64_t value_bytes;        /* sum of size= over value lines */

	/*
	 * The peak of the memory held (FORMAT.md section 5.1, docs/peak.md):
	 * at each time t, per allocation the size of the union of [offset,
	 * offset + size) over its values live at t, summed; the maximum
	 * over t and the first t reaching it.  Absent (has_peak 0, why in
	 * peak_why) without live ranges or allocations.
	 */
	int has_peak;
	int64_t peak_time;
	int64_t peak_bytes;
	const char *peak_why;       /* static text when !has_peak */
	struct hd_vec peak_by_color; /* struct hd_peak_space, ascending
				       allocation colour, each with its own
				       time */
	uint32_t peak_unplaced;     /* live ranges of values without a value
				       line (no bytes to hold) */
	/* The bytes each value holds at peak_time (struct hd_held_piece,
	 * hd_held_values_at's), made from the sweep's own items; read them
	 * with hd_figures_held_at_peak. */
	struct hd_vec peak_pieces;

	/* The dump's own peak (HloLiveRange "Live ranges at t (peak)"),
	 * what XLA printed: kept beside the computed one. */
	int has_stated;
	int64_t stated_time;
	int64_t stated_bytes;       /* last cumulative, or the sum of the plain lines */
	uint32_t stated_values;     /* lines in the peak section */

	/*
	 * Peak recomputed from BufferLiveRange and logical sizes.  The time
	 * is chosen as XLA chooses it (FORMAT.md section 5 quirk; details
	 * in figures.c): each value weighed by its defining instruction's
	 * whole shape, starts counted before the frees of the same time.
	 * Bytes are the own logical sizes of the values live then (start
	 * <= t <= end), or their whole instruction shapes in the plain peak
	 * style, which is what XLA printed there.
	 */
	int has_recomputed;
	int64_t recomputed_time;    /* first time of the maximum */
	int64_t recomputed_bytes;   /* live bytes at recomputed_time */
	int64_t recomputed_at_stated; /* live bytes at stated_time */
	uint32_t recomputed_unsized;  /* live ranges whose size is unknown */
	/* Figures an incomplete dump (dump->incomplete) leaves out: the
	 * allocation-derived ones when the allocations broke off, the copy
	 * counts when 'Used values' did.  Peaks are then simply absent. */
	int allocs_partial;
	int copies_partial;
	int stated_agrees;          /* recomputed_at_stated == stated_bytes and
				       recomputed_bytes == stated_bytes */

	struct hd_vec copies;       /* struct hd_copy, in instruction order */
	uint32_t copies_by_class[HD_COPY_CLASS_COUNT];
	int64_t copy_bytes_by_class[HD_COPY_CLASS_COUNT];

	/* Donated parameters an output reuses (hd_alloc_is_aliased): the
	 * sum of their allocation sizes and their number. */
	int64_t aliased_bytes;
	uint32_t aliased_params;
};

/* Computes f from d (f is initialised by the call).  Returns 0. */
int hd_figures_compute(struct hd_figures *f, const struct hd_dump *d);
/*
 * The same, with kept[v] == hd_figures_kept(&HD_VALUE(d, v)) for every
 * value v of d (or kept NULL): the recomputed peak reads each live
 * range's sizes there, a compact array, instead of in the value records
 * (scattered over a big array: a cache miss a range).  The figures are
 * the same.
 */
int hd_figures_compute_kept(struct hd_figures *f, const struct hd_dump *d,
			    const uint64_t *kept);

/* The sizes value record val keeps for the figures (dump.h: own_kept
 * and whole_kept), packed in one number. */
static inline uint64_t hd_figures_kept(const struct hd_value *val)
{
	return (uint64_t)val->own_kept | (uint64_t)val->whole_kept << 32;
}
void hd_figures_release(struct hd_figures *f);

/*
 * Is a a parameter allocation that an output reuses, a donated
 * parameter (JAX donate_argnums, XLA's input/output alias)?  FORMAT.md
 * section 3.1: the header says both "parameter N" and "maybe-live-out"
 * (usually "output shape is" too, but not for an element of a tuple
 * output).
 */
static inline int hd_alloc_is_aliased(const struct hd_alloc *a)
{
	return (a->flags & HD_ALLOC_PARAMETER) &&
		(a->flags & HD_ALLOC_MAYBE_LIVE_OUT);
}

/* The value of allocation alloc that its parameter instruction defines
 * (opcode "parameter"), for its name and op_name; HD_NONE when no value
 * of it has a known instruction of that opcode. */
uint32_t hd_alias_param_value(const struct hd_dump *d, uint32_t alloc);
/* The indices of the aliased allocations of d, ordered by parameter
 * number and shape index (the order reports list them in: allocation
 * numbers change from compile to compile); *n is their number.  An array
 * from hd_xmalloc, for free(). */
uint32_t *hd_aliases_sorted(const struct hd_dump *d, size_t *n);
/* That value's name and its instruction's op_name (empty slices when
 * the dump does not say). */
void hd_alias_names(const struct hd_dump *d, uint32_t alloc,
		    struct hd_slice *name, struct hd_slice *op_name);

/* The held peak of colour c, NULL when no allocation has it. */
const struct hd_peak_space *hd_figures_peak_space(const struct hd_figures *f,
						  int64_t color);

/*
 * The sweep of the memory held (figures.c), shared by the figures and
 * the timeline (timeline.h) so that both give one figure.  A caller
 * that wants the whole curve passes fn: it is called at every time
 * 0..T with the bytes held then, per colour and in all.
 */
struct hd_held_state {
	const int64_t *colors;  /* ascending, distinct allocation colours */
	uint32_t n_colors;
	const int64_t *held;    /* per colour, at the time of the call */
	int64_t total;
};

typedef void (*hd_held_fn)(void *ctx, int64_t t,
			   const struct hd_held_state *st);

struct hd_held {
	int has;
	int64_t t_max;          /* T */
	int64_t bytes, time;    /* the peak and its first time */
	uint32_t n_colors;
	int64_t *colors;        /* ascending, distinct */
	int64_t *color_bytes;   /* per colour: its peak ... */
	int64_t *color_time;    /* ... and the first time of it */
	uint32_t unplaced;      /* live ranges whose value has no value line */
};

/* Runs the sweep over d into h (initialised by the call); NULL, or the
 * reason there is no figure (static text; h->has is 0 then). */
const char *hd_held_sweep(const struct hd_dump *d, struct hd_held *h,
			  hd_held_fn fn, void *ctx);
void hd_held_release(struct hd_held *h);

/*
 * The bytes each value holds at time t, added to bytes_at[v] (d's
 * values; NULL: not wanted), its bit set in bits (NULL: none), and their
 * sum returned: the bytes held at t.  Bytes several values share are
 * given to one of them (in an allocation, by offset, the larger value
 * first, then the one live first (the buffer's first owner), then by
 * name and index), so the sum is the union.  color >= 0:
 * only allocations of that colour.
 */
int64_t hd_held_values_at(const struct hd_dump *d, int64_t t, int64_t color,
			  int64_t *bytes_at, uint64_t *bits);
/* hd_held_values_at(d, f->peak_time, -1, bytes_at, bits) for the dump d
 * that f was computed from, read from f->peak_pieces (nothing without a
 * peak), without the sum. */
void hd_figures_held_at_peak(const struct hd_figures *f, int64_t *bytes_at,
			     uint64_t *bits);
/* "prefetch", "eviction", "cross-program-prefetch", "host-offload",
 * "host-reload", "other". */
const char *hd_copy_class_name(enum hd_copy_class c);
/* Bytes of colour c (0 when the dump has no allocation of that colour). */
int64_t hd_figures_color_bytes(const struct hd_figures *f, int64_t color);

/*
 * Why the stated peak and the held one differ (hd_peak_explain): value
 * by value at the stated time, its bytes held then against its bytes in
 * the stated lines, and the reason; and, when the held peak is at
 * another time, one entry (value HD_NONE, reason other-time) for the
 * held peak against the bytes held at the stated time.
 */
enum hd_peak_gap_reason {
	HD_GAP_TUPLE_TABLE,  /* element of a tuple whose line counts its pointer table */
	HD_GAP_WORKSPACE,    /* a custom-call's workspace element, not in the lines */
	HD_GAP_PADDING,      /* size= larger than the logical size the lines count */
	HD_GAP_SHARED,       /* bytes shared with a value counted already */
	HD_GAP_LEFT_OUT,     /* live at the stated time, not in its lines */
	HD_GAP_OTHER_TIME,   /* the held peak's time is another, or a value
				the lines count is not live then */
	HD_GAP_NOT_HELD,     /* in the lines, in no allocation */
	HD_GAP_SIZE,         /* the lines count another size */
	HD_GAP_REASON_COUNT
};

struct hd_peak_gap {
	uint32_t value;          /* HD_NONE: a stated line naming no value,
				    or the other-time entry (name says) */
	struct hd_slice name, index; /* the value's, or the stated line's */
	int64_t held, stated;
	int reason;              /* enum hd_peak_gap_reason */
};

/* Do the stated and the held peak differ by more than 1% of the held? */
int hd_peak_stated_differs(const struct hd_figures *f);
/*
 * The values whose held and stated bytes differ, into out (struct
 * hd_peak_gap, by |held - stated| descending, then name and index);
 * totals per reason (stated - held) in by_reason when not NULL.
 */
void hd_peak_explain(const struct hd_dump *d, const struct hd_figures *f,
		     struct hd_vec *out, int64_t by_reason[HD_GAP_REASON_COUNT]);
/* "tuple-table", "workspace", "padding", "shared", "left-out",
 * "other-time", "not-held", "size" */
const char *hd_peak_gap_name(int reason);
/* The reason in words, for the text reports. */
const char *hd_peak_gap_words(int reason);

#endif
