/*
 * diff.h - the comparison of two dumps: figure deltas and per-value
 * changes.  A plain struct; printing is the reports' job.
 */
#ifndef HLODIFF_DIFF_H
#define HLODIFF_DIFF_H

#include <stdint.h>

#include "hlodiff/dump.h"
#include "hlodiff/figures.h"
#include "hlodiff/match.h"
#include "hlodiff/peak.h"

enum hd_value_status {
	HD_STATUS_MATCHED,
	HD_STATUS_ADDED,
	HD_STATUS_REMOVED,
};

/* What differs between two matched values. */
enum hd_change_flags {
	HD_CHANGE_SIZE = 1u << 0,    /* size= in the allocation */
	HD_CHANGE_SHAPE = 1u << 1,   /* element type or dimensions */
	HD_CHANGE_LAYOUT = 1u << 2,  /* layout other than memory space */
	HD_CHANGE_SPACE = 1u << 3,   /* memory space (colour) */
	HD_CHANGE_KIND = 1u << 4,    /* allocation kind */
	HD_CHANGE_LIVE = 1u << 5,    /* live-range length */
};

struct hd_value_diff {
	uint32_t old_v, new_v;       /* HD_NONE on the missing side */
	uint8_t status;              /* enum hd_value_status */
	uint8_t how;                 /* enum hd_match_how */
	uint32_t changes;            /* enum hd_change_flags */
	int64_t old_bytes, new_bytes; /* size= of the value line; -1 if none */
	int64_t delta;               /* new - old, missing side counted 0 */
};

/* One figure compared: a metric name, as rules name it. */
struct hd_figure_row {
	const char *name;            /* "total_bytes", "space1_bytes", ... */
	int has_old, has_new;
	int64_t old_v, new_v;
	int is_bytes;                /* print human-readable bytes */
};

struct hd_diff {
	const struct hd_dump *old, *new_dump;
	struct hd_figures fold, fnew;
	struct hd_match match;
	struct hd_vec rows;          /* struct hd_figure_row */
	struct hd_vec values;        /* struct hd_value_diff: changed, added and
					removed first by |delta| descending, then
					unchanged matched values */
	uint32_t n_matched, n_added, n_removed, n_changed;
	uint32_t n_listed;           /* leading entries of values that differ */
	/* Made by hd_diff_compute_sides_top: values holds the n_listed
	 * differing entries alone, and only the first n_top of them are in
	 * order (the others in no particular order) until hd_diff_complete. */
	int partial;
	uint32_t n_top;
	/* Made by hd_diff_compute_sides_listed: values[n_listed, len), the
	 * entries that do not differ, are in listing order, not sorted,
	 * until hd_diff_complete. */
	int rest_unsorted;
	struct hd_peak_diff peak;    /* the peak explained */
	struct hd_arena arena;
};

/* Compares old with new.  Returns 0. */
int hd_diff_compute(struct hd_diff *df, const struct hd_dump *old,
		    const struct hd_dump *new_dump, unsigned match_flags);
void hd_diff_release(struct hd_diff *df);

/*
 * The same in two steps, for callers that prepare each dump on a thread
 * of its own (each right after loading it): hd_diff_side_prepare
 * computes one dump's figures and match side (match.h), reading nothing
 * but d; hd_diff_compute_sides compares two prepared sides and takes
 * them over (they are left empty).  hd_diff_side_release frees a side
 * that was prepared but not compared.  hd_diff_compute is these, one
 * side after the other.
 */
struct hd_diff_side {
	const struct hd_dump *d;
	struct hd_figures f;
	struct hd_match_side *ms;
};
void hd_diff_side_prepare(struct hd_diff_side *s, const struct hd_dump *d);
/*
 * hd_diff_side_prepare in steps: hd_diff_side_begin, then each step
 * once, in any order, or at once on different threads (they write
 * different parts of s and read only the dump), except that
 * HD_SIDE_FIGURES must not run at the same time as HD_SIDE_ORDER: when
 * it follows it, it reads the sizes the order gathered
 * (hd_match_side_kept), not the value records.
 */
enum hd_side_step {
	HD_SIDE_CANON,      /* the match side's canonical hashes */
	HD_SIDE_ORDER,      /* the match side's schedule order */
	HD_SIDE_FIGURES,    /* the dump's figures */
	HD_SIDE_STEPS
};
void hd_diff_side_begin(struct hd_diff_side *s, const struct hd_dump *d);
void hd_diff_side_step(struct hd_diff_side *s, enum hd_side_step step);
void hd_diff_side_release(struct hd_diff_side *s);
int hd_diff_compute_sides(struct hd_diff *df, struct hd_diff_side *old,
			  struct hd_diff_side *new_side, unsigned match_flags);
/*
 * The same for a reader of the top top values alone (the text report
 * with its "N others" line): values is left partial (see partial in
 * struct hd_diff), which spares the sort of the unchanged values and of
 * the differing ones past the top; the values at the peak likewise
 * (peak.h); and the match's how of the structural pairs is not told
 * exact yet (HD_MATCH_LABELS_LATER), nor the entries' how.
 * hd_diff_complete then makes it what hd_diff_compute_sides makes, for
 * readers of the rest (a no-op on a complete diff); pointers into
 * values do not survive it.
 */
int hd_diff_compute_sides_top(struct hd_diff *df, struct hd_diff_side *old,
			      struct hd_diff_side *new_side,
			      unsigned match_flags, uint32_t top);
void hd_diff_complete(struct hd_diff *df);
/*
 * hd_diff_compute_sides for a reader of the differing entries alone
 * (values[0, n_listed): a report without --all): those are sorted, the
 * others listed and counted but left in listing order (rest_unsorted),
 * which spares their sort, most of a whole listing's on a recompile
 * where most entries do not differ.  hd_diff_complete then sorts
 * them, making it what hd_diff_compute_sides makes; pointers into
 * values[n_listed, len) do not survive it.
 */
int hd_diff_compute_sides_listed(struct hd_diff *df, struct hd_diff_side *old,
				 struct hd_diff_side *new_side,
				 unsigned match_flags);
/* The row named name, or NULL. */
const struct hd_figure_row *hd_diff_row(const struct hd_diff *df, const char *name);
/* "matched", "added", "removed". */
const char *hd_status_name(enum hd_value_status s);

/* Appends the figure rows of one dump's figures (used by stat, too):
 * fills rows with has_old only (new side absent) when nf is NULL. */
void hd_figure_rows(struct hd_vec *rows, struct hd_arena *arena,
		    const struct hd_figures *of, const struct hd_figures *nf);

/* ---- changes of shape (docs/matching.md) -------------------------------- */

/* new_bytes / old_bytes of a matched entry; 0 when either is unknown or
 * old_bytes is 0. */
double hd_value_diff_ratio(const struct hd_value_diff *vd);

/*
 * The scaling summary: the matched values grouped by their size ratio
 * (to two decimals).  A group of at least HD_SCALING_GROUP_MIN values
 * (or a hundredth of the resized ones, if more) is listed; the values of
 * smaller groups are the "others", listed by name.  It is shown when
 * many values changed size: at least HD_SCALING_MIN_VALUES, and at least
 * HD_SCALING_MIN_PERCENT percent of the matched values.
 */
#define HD_SCALING_MIN_VALUES 10
#define HD_SCALING_MIN_PERCENT 20
#define HD_SCALING_GROUP_MIN 3
#define HD_SCALING_OTHERS_SHOWN 10  /* others named in text and Markdown */

struct hd_scale_group {
	uint32_t ratio100;           /* new / old bytes x 100, rounded */
	uint32_t n;                  /* values (the unchanged ones in x1.00) */
	int64_t old_bytes, new_bytes; /* of the resized values among them */
};

struct hd_scaling {
	uint32_t n_matched;          /* matched values */
	uint32_t n_resized;          /* of them, those whose size= changed */
	int shown;                   /* many changed size (see above) */
	struct hd_scale_group *groups; /* most values first, then ratio */
	uint32_t n_groups;
	const struct hd_value_diff **others; /* largest |delta| first */
	uint32_t n_others;
};
/* Fills sc from the differing entries of df (a partial diff has them
 * all); hd_scaling_release frees it. */
void hd_diff_scaling(const struct hd_diff *df, struct hd_scaling *sc);
void hd_scaling_release(struct hd_scaling *sc);

/*
 * How much of each side the content and the graph paired (passes exact,
 * structural, canonical, graph: not the guesses by shape, schedule or
 * name).  Two dumps are told different programs when those pairs are
 * fewer than HD_SAME_PROGRAM_PERCENT percent of the smaller side's
 * values (and that side has at least HD_SAME_PROGRAM_MIN values).
 */
#define HD_SAME_PROGRAM_PERCENT 50
#define HD_SAME_PROGRAM_MIN 4

struct hd_programs {
	uint32_t n_old, n_new;       /* values of each side */
	uint32_t by_structure;       /* pairs by content and graph */
	int different;               /* see above */
};
void hd_diff_programs(const struct hd_diff *df, struct hd_programs *p);

#endif
