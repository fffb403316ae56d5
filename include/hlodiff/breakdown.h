/*
 * breakdown.h - where the bytes went: the bytes of the values of one dump,
 * or of two dumps side by side, grouped into a tree by one or two keys
 * (op_name path, source file and line, opcode, memory space, allocation
 * kind), like bloaty's -d.
 *
 * What is summed (the "measure"):
 *   value_bytes  each value's size= (hd_value_size).  This is the sum of
 *                value sizes, NOT the total bytes of the allocations:
 *                values that are live at disjoint times share allocation
 *                space, so the sum is usually larger than the total.
 *                Values without a value line (no size) add nothing.
 *   peak_bytes   the bytes each value holds at the held peak (figures.h,
 *                as in peak.h).  What the peak holds beyond its values
 *                goes to one "(unresolved)" node, so the root is the
 *                peak's bytes.
 *
 * Keys of a value come from its defining instruction (dump->insns via
 * value->insn).  op_name is split on '/' outside brackets and quotes
 * ("jit(f)/while/body/dot_general" -> jit(f), while, body, dot_general);
 * source is two levels, file then "line N"; opcode is one level;
 * memory-space is the value's colour ("space N"); kind is the kind of its
 * allocation.  Missing data gets one node: "(no metadata)" (no op_name or
 * no defining instruction), "(no source)", "(unknown)" (no opcode),
 * "(no line)", "(no allocation)".  With two keys the first key's nodes
 * hold the second key's tree.
 *
 * Two dumps: old bytes are filed under the OLD value's key path and new
 * bytes under the NEW value's key path.  A matched value whose op_name (or
 * space, ...) changed therefore moves its bytes from one node to another:
 * its old node loses them, its new node gains them.
 *
 * Invariants of a finished tree: every node's old and new bytes are the
 * sums of its children's.  A node whose own values end at it while it also
 * has children (op_name "a/b" beside "a/b/c") gets a "(self)" child for
 * those values.  Children are sorted by |delta| descending, then name (one
 * dump: bytes descending, then name).  With top_n > 0 the children after
 * the first top_n are folded into one last "N others" node carrying their
 * sums (when only one would be folded it is shown instead).
 *
 * Ownership: a breakdown copies every name it shows; it does not point
 * into the dumps and may outlive them.  Out of memory exits 2 (arena.h).
 */
#ifndef HLODIFF_BREAKDOWN_H
#define HLODIFF_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hlodiff/diff.h"
#include "hlodiff/dump.h"
#include "hlodiff/figures.h"
#include "hlodiff/json.h"

enum hd_by_key { HD_BY_OP_NAME, HD_BY_SOURCE, HD_BY_OPCODE, HD_BY_MEMORY_SPACE, HD_BY_KIND };
#define HD_BY_KEY_COUNT 5
#define HD_BY_MAX_KEYS 2

enum hd_by_measure {
	HD_BY_VALUE_BYTES,   /* "value_bytes" */
	HD_BY_PEAK_BYTES,    /* "peak_bytes" */
};

/* How one side's peak bytes were found (peak_bytes only). */
enum hd_by_peak {
	HD_BY_PEAK_NONE,        /* the dump has no peak: the side is 0 */
	HD_BY_PEAK_HELD,        /* bytes held at the held peak (figures.h) */
};

/* One node of a finished tree (read-only for callers). */
struct hd_by_node {
	const char *name;          /* NUL-terminated, owned by the breakdown */
	int64_t old_bytes;         /* one dump: its bytes */
	int64_t new_bytes;         /* one dump: equal to old_bytes */
	uint32_t child_first;      /* children via hd_breakdown_child() */
	uint32_t child_count;
	uint32_t folded;           /* > 0: the "N others" node of N children */
};

struct hd_breakdown;

/*
 * Parses "op_name", "memory-space,op_name", ... into keys (room for
 * HD_BY_MAX_KEYS) and *nkeys.  Returns 0, or -1 and writes a message
 * without "hlodiff: " to err, e.g. "unknown key 'x' (expected op_name,
 * source, opcode, memory-space or kind)".
 */
int hd_by_parse(const char *spec, enum hd_by_key *keys, int *nkeys,
		char *err, size_t errlen);

/*
 * The breakdown of a diff: value_bytes, or peak_bytes of df->peak with
 * at_peak.  Returns NULL only when nkeys is not 1..HD_BY_MAX_KEYS.
 */
struct hd_breakdown *hd_breakdown_diff(const struct hd_diff *df,
				       const enum hd_by_key *keys, int nkeys,
				       int at_peak, int top_n);
/* The breakdown of one dump by value_bytes (NULL as above). */
struct hd_breakdown *hd_breakdown_dump(const struct hd_dump *d,
				       const enum hd_by_key *keys, int nkeys,
				       int top_n);
/* The breakdown of one dump by peak_bytes; f = figures of d. */
struct hd_breakdown *hd_breakdown_dump_peak(const struct hd_dump *d,
					    const struct hd_figures *f,
					    const enum hd_by_key *keys,
					    int nkeys, int top_n);

/* Readers of a finished tree. */
const struct hd_by_node *hd_breakdown_root(const struct hd_breakdown *b);
/* Child i (< n->child_count) of n. */
const struct hd_by_node *hd_breakdown_child(const struct hd_breakdown *b,
					    const struct hd_by_node *n,
					    uint32_t i);
int hd_breakdown_is_diff(const struct hd_breakdown *b);
enum hd_by_measure hd_breakdown_measure(const struct hd_breakdown *b);
/* How the old (side 0) or new (side 1) peak was found. */
enum hd_by_peak hd_breakdown_peak_source(const struct hd_breakdown *b, int side);

/*
 * Renderers.  Text: a title line naming the keys and the measure, a
 * column header, then one line per node, indented two spaces a level.
 * JSON writes one value, an object {"by": [...], "measure":
 * "value_bytes"|"peak_bytes", ["peak": ...,] "root": {...}} (nodes: name,
 * old, new, delta, percent, children; one dump: name, bytes, share,
 * children; an "N others" node adds "folded": N).  Markdown: a table
 * inside <details>, for the Markdown report.
 */
void hd_breakdown_report_text(FILE *out, const struct hd_breakdown *b);
void hd_breakdown_report_json(struct hd_json *j, const struct hd_breakdown *b);
void hd_breakdown_report_markdown(FILE *out, const struct hd_breakdown *b);

void hd_breakdown_free(struct hd_breakdown *b);

#endif
