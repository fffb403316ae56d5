/*
 * canon.h - content hashes of the values of a dump that survive a
 * recompile of the same program.
 *
 * Two compiles of one program name things differently (fusion.21 becomes
 * fusion.57, HloValue ids move, metadata source lines shift).  This module
 * reduces every defining instruction to a canonical text and hashes it
 * with XXH3-64, once per instruction (tuple elements share it):
 *
 *   canonical hash  - the instruction alone: name without id suffixes
 *                     (hd_canon_name), opcode, result shape with layout
 *                     and memory space, operand list with operand names
 *                     stripped the same way, and the attributes that
 *                     define the computation (see below).
 *   structural hash - the canonical hash folded with the structural
 *                     hashes of the operands (Merkle style), so two
 *                     "copy" of different operands differ.  Computed in
 *                     dependency order (Kahn's algorithm, no recursion).
 *                     Instructions left on a cycle (operands resolved
 *                     through positions can close one, e.g. around while
 *                     loops) use the canonical hash of every operand that
 *                     is not finished yet, so the result does not depend
 *                     on the order of the records.
 *
 * Attributes: metadata={...} and control-predecessors={...} are dropped
 * (they describe the source and the schedule, not the computation);
 * channel_id keeps only its key (channel ids are handed out in order);
 * every %name (calls=, to_apply=, condition=, body=, branch_computations=
 * ...) is stripped like instruction names; backend_config is kept except
 * the values of the id-like keys "operation_queue_id",
 * "wait_on_operation_queues" and "fusion_id" (GPU stream assignment and
 * TPU fusion numbering change between compiles); everything else (kind=,
 * custom_call_target=, dimensions=, slice=, sharding=, replica_groups=,
 * frontend_attributes= ...) is kept byte for byte.
 *
 * Operand names are resolved in this order: an instruction with a record
 * in the dump (its structural hash); a position of some value, such as a
 * get-tuple-element or bitcast that defines no value of its own (the
 * structural hash of that value); otherwise the stripped name alone.
 *
 * Per value, hd_canon_loose() gives looser keys for the matcher.  All
 * arrays are owned by struct hd_canon and freed by hd_canon_release().
 *
 * Stored hashes: a dump read from a golden file (golden.h) has no
 * instruction texts.  Each of its instructions carries, as its text,
 * HD_CANON_STORED followed by its canonical and structural hash (16 hex
 * digits each, one space between), and hd_canon_compute takes those
 * instead of hashing: the value hashes and loose keys are then derived
 * exactly as for the dump the golden was made from.  The parser never
 * makes such a text (an instruction text starts with its name or '%').
 */
#ifndef HLODIFF_CANON_H
#define HLODIFF_CANON_H

#include <stddef.h>
#include <stdint.h>

#include "hlodiff/dump.h"
#include "hlodiff/parse.h"
#include "hlodiff/slice.h"

#define HD_CANON_STORED "#hashes "

/* The parts of each instruction in hd_canon's insn_loose. */
#define HD_LOOSE_PARTS 4

struct hd_canon {
	uint32_t n_insns, n_values;
	uint64_t *insn_canon;     /* n_insns: canonical hash */
	uint64_t *insn_struct;    /* n_insns: structural hash */
	uint64_t *value_canon;    /* n_values: insn canonical + index,
				   * colour, phi mark */
	uint64_t *value_struct;   /* n_values: insn structural + the same */
	uint32_t *value_insn;     /* n_values: defining insn (by record or by
				   * name), HD_NONE when unknown */
	uint64_t *insn_loose;     /* HD_LOOSE_PARTS * n_insns: the
				   * per-instruction parts of the loose and
				   * graph keys, hashed while the text is in
				   * cache: opcode hash; opcode mixed with
				   * op_name hash; source file and line; source
				   * file alone (the last two each mixed with a
				   * parameter's number, 0 when it has neither) */
	/* The operand links canonical hashing resolved, kept for the
	 * matcher's graph pass so that it need not read the operand text
	 * again: the operands of instruction i are insn_ops[insn_ops_at[i]
	 * .. insn_ops_at[i + 1]), in the order of its operand list, each
	 * the instruction the name defines, or HD_NONE (a position or a
	 * name with no record).  NULL for stored hashes (a golden). */
	uint32_t *insn_ops_at;    /* n_insns + 1 */
	uint32_t *insn_ops;
	uint32_t n_cyclic;        /* instructions hashed with broken cycles */
	uint32_t n_walked;        /* instructions whose text hd_canon_compute
				   * read: all of them, but those the parser
				   * hashed (hd_canon_pre) or stored */
	/* The storage of insn_loose and of insn_canon when they are the
	 * parser's arrays, taken whole (hd_canon_pre); else unused, and
	 * they are from malloc, as insn_struct is (hd_canon_release and
	 * hd_canon_drop_insn_hashes free them either way). */
	struct hd_vec loose_store;
	struct hd_vec canon_store;
	/* One block holding value_canon, value_struct and value_insn. */
	struct hd_vec value_store;
};

/* Looser keys of one value (hd_canon_loose). */
enum hd_loose_key {
	HD_LOOSE_OP_NAME,   /* opcode + value shape + op_name + index */
	HD_LOOSE_NAMED,     /* stripped name + opcode + shape without layout
			     * + index */
	HD_LOOSE_SHAPE,     /* opcode + shape without layout + index */
	HD_LOOSE_STEM,      /* name stem (no suffixes, no hex kernel hashes
			     * such as _e9701070) + opcode + index: the same
			     * op whose shape changed */
	HD_LOOSE_COUNT
};

/*
 * Fills c for dump d.  Returns 0 (out of memory exits, see arena.h).
 * Cost: linear in the size of the instruction texts (metadata skipped)
 * plus the number of values, positions and operands; no allocation per
 * element (operand names are resolved through one flat hash table).
 */
int hd_canon_compute(struct hd_canon *c, const struct hd_dump *d);
/* Frees insn_canon and insn_struct (NULL after), which the matcher does
 * not need: it keeps the values' hashes and the loose parts. */
void hd_canon_drop_insn_hashes(struct hd_canon *c);
/* Frees insn_ops_at and insn_ops (NULL after). */
void hd_canon_drop_insn_ops(struct hd_canon *c);
void hd_canon_release(struct hd_canon *c);

/*
 * Canonical hashing while the parser has each instruction in cache
 * (HD_PARSE_CANON, parse.h), so that hd_canon_compute need not read the
 * instruction texts again (by then the parser has given their pages
 * back, input.h).  Through the hooks of hd_canon_pre_hooks, every
 * instruction the parser files gets its canonical hash and insn_loose
 * parts (the same canonical text as hd_canon_compute's, one code path),
 * and the XXH3-64 and length of each operand name are kept; every
 * position is counted, and the XXH3-64 of the name is kept of those
 * operands may be resolved through by their own names: those that are
 * not their record's first and have index "{}" or none.  The operand
 * records (16 bytes a name) may take an eighth of the input's bytes, per
 * input; an instruction past that keeps none, and hd_canon_compute reads
 * its text again.  An operand name that resolves to nothing is read
 * again for its stripped form.
 *
 * The results live in d->canon_pre (freed by hd_dump_release).
 * hd_canon_compute takes them when they cover every instruction and
 * position of d: the hashes become c's arrays and the operand and
 * position records are freed once resolved.  Taken once: a second
 * hd_canon_compute of the same dump reads the text, as for a dump
 * parsed without the flag.
 */
struct hd_canon_pre *hd_canon_pre_new(void);
void hd_canon_pre_free(struct hd_canon_pre *p);
/* The parse hooks (parse.h) that feed p: budget, instructions, positions. */
struct hd_parse_hooks hd_canon_pre_hooks(struct hd_canon_pre *p);

/*
 * Where a run of hd_canon_loose calls over ascending values has fetched
 * the records of the values ahead to: each value is fetched once, not
 * once per call whose window holds it.  Start it at { 0 }; only a hint,
 * it never changes a key.
 */
struct hd_loose_cursor {
	uint32_t next;          /* the first value not fetched yet */
};

/*
 * Fills keys[HD_LOOSE_COUNT] for value v of d (c computed for d).  The
 * matcher asks only for the values its strict passes left, so these keys
 * are not precomputed; their per-instruction parts are (insn_loose): by
 * the time the matcher asks, the instruction texts are cold and their
 * pages given back, and reaching them cost several cache misses a value.
 * cur (NULL for a call on its own) is the run's cursor.
 */
void hd_canon_loose(const struct hd_canon *c, const struct hd_dump *d,
		    uint32_t v, uint64_t keys[HD_LOOSE_COUNT],
		    struct hd_loose_cursor *cur);

/*
 * How canonical hashing combines two 64-bit hashes into one (a loose key
 * is a chain of them: the named key is hd_canon_mix(shape key, XXH3 of
 * the stripped name)).  For tests that make keys from their parts.
 */
uint64_t hd_canon_mix(uint64_t h, uint64_t x);

/*
 * Writes name without its unique-id parts to out (which must hold
 * name.n bytes) and returns the length written:
 *   - every '.'-separated part that is all digits is dropped
 *     ("fusion.21" -> "fusion", "param.8.0" -> "param",
 *     "region_0.193.clone.clone" -> "region_0.clone.clone");
 *   - a part made of digits then '_' loses the digits
 *     ("region_0.5_spmd" -> "region_0._spmd");
 *   - the GPU's sanitised constants lose their "_N" groups
 *     ("constant_99_0" -> "constant");
 *   - the first part is otherwise kept ("Arg_0.1" -> "Arg_0",
 *     "p.4.lhs.clone" -> "p.lhs.clone").
 */
size_t hd_canon_name(char *out, struct hd_slice name);

/*
 * The canonical text of an instruction (fields separated by NUL bytes),
 * whose XXH3-64 is its canonical hash.  Written to *buf, grown with
 * hd_xrealloc as needed (*buf may be NULL with *cap 0; the caller frees
 * it).  Returns the length.  For tests and debugging.
 */
size_t hd_canon_insn_text(const struct hd_insn *insn, char **buf,
			  size_t *cap);

#endif
