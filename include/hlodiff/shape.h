/*
 * shape.h - XLA shape strings (docs/format.md, "Shapes") read on demand.
 *
 * Shapes stay text in the model; these functions walk the text.  They
 * never read outside the slice and cap nesting at HD_SHAPE_MAX_DEPTH.
 */
#ifndef HLODIFF_SHAPE_H
#define HLODIFF_SHAPE_H

#include <stdint.h>

#include "hlodiff/slice.h"

#define HD_SHAPE_MAX_DEPTH 256

/*
 * Logical size in bytes as XLA's ShapeUtil::ByteSizeOf(shape, 8): element
 * count times element size (sub-byte types packed when the layout has
 * E(bits)), bounded dynamic dims at their bound, a tuple 8 bytes per
 * element, token 0.  Returns -1 when the shape cannot be read (unknown
 * element type, unbounded dim '?', overflow).
 */
int64_t hd_shape_logical_bytes(struct hd_slice shape);

/*
 * Memory space of an array shape: the S(n) item of its layout, 0 when
 * absent; -1 for a tuple or an unreadable shape.
 */
int64_t hd_shape_memory_space(struct hd_slice shape);

/* Is the shape a tuple "( ... )"? */
int hd_shape_is_tuple(struct hd_slice shape);

/*
 * The i-th element (0-based) of a tuple shape, without the
 * "/ *index=N* /" marker.  Returns 0 and stores it, -1 if absent.
 */
int hd_shape_tuple_element(struct hd_slice shape, int64_t i,
			   struct hd_slice *out);

/*
 * Subshape at a ShapeIndex written "{}" or "{1,0}".  Returns 0 and
 * stores it, -1 if the index does not fit the shape.
 */
int hd_shape_subshape(struct hd_slice shape, struct hd_slice index,
		      struct hd_slice *out);

/*
 * Length of the shape at the start of s (bracket-balanced up to the first
 * space, ',' or ')' at depth 0).  0 if s does not start with a shape.
 */
size_t hd_shape_span(struct hd_slice s);

/* The shape without its layout ("f32[4,2]{1,0:T(8)}" -> "f32[4,2]") for
 * array shapes; tuples are returned unchanged. */
struct hd_slice hd_shape_strip_layout(struct hd_slice shape);

#endif
