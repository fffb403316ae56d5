/*
 * gen-dump - write a synthetic XLA buffer-assignment dump (G1 layout).
 *
 *	gen-dump --size BYTES[K|M|G] --seed N [--variant V] [-o FILE]
 *
 * The dump describes a made-up TPU training step (a transformer with L
 * layers: forward pass with scan-style while loops, VMEM prefetches and
 * SMEM scalar copies, backward pass, optimizer updates donated to the
 * parameters) in the grammar of shared/FORMAT.md sections 3-6: allocations
 * with value lines, "Total bytes used", "Used values:" records, then the
 * HloLiveRange part with the schedule, every live range and the peak.
 *
 * L is chosen so that the output is close to BYTES.  Output is a pure
 * function of (size, seed, variant).  Variant 0 is the base compile; any
 * other variant is "the same program recompiled with a change": instruction
 * suffixes renumbered, different HloValue ids, non-temp allocations in
 * another order, some shapes grown or shrunk, a few instructions removed
 * (bypassed) or added, and one extra prefetch.
 *
 * Invariants of the output:
 *  - "Total bytes used" is exactly the sum of all allocation sizes;
 *  - every value with a live range has one BufferLiveRange line;
 *  - the peak time is chosen by XLA's rule (FORMAT.md section 5 quirk, as
 *    src/figures.c reproduces it: each value weighs its defining
 *    instruction's whole shape and counts through end + 1, first maximum),
 *    and the peak lines list exactly the values
 *    live then (start <= t <= end) with their own logical sizes, sorted
 *    by bytes desc then (name, index), with correct cumulative sums;
 *  - within an allocation, offset + size never exceeds the allocation
 *    size, and temp values sharing bytes are never live at the same time
 *    (a donated parameter and the update written over it do overlap, at
 *    the update's time, as in-place updates do).
 *
 * Exit status: 0 on success, 2 on usage or I/O error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Utilities                                                           */

static void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("gen-dump: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		die("out of memory (%zu bytes)", n);
	return q;
}

/* Grow *pp (element size es, capacity *cap) to hold at least need items. */
static void grow(void *pp, size_t *cap, size_t need, size_t es)
{
	void **p = pp;
	size_t c = *cap ? *cap : 64;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	*p = xrealloc(*p, c * es);
	*cap = c;
}

#define VEC(T, name)    \
	static T *name; \
	static size_t name##_n, name##_cap
#define PUSH(name, v)                                                  \
	do {                                                           \
		grow(&name, &name##_cap, name##_n + 1, sizeof(*name)); \
		name[name##_n++] = (v);                                \
	} while (0)

/* splitmix64: small, fast, good enough, and the same on every host. */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* 1 with probability num/den. */
static int rng_chance(struct rng *r, uint32_t num, uint32_t den)
{
	return rng_below(r, den) < num;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	struct rng r = { a * 0x2545f4914f6cdd1dULL ^ b };

	return rng_next(&r);
}

/* ------------------------------------------------------------------ */
/* Output buffer                                                       */

static char *obuf;
static size_t olen, ocap;
static FILE *ofile;
static uint64_t obytes; /* total written */

static void out_flush(void)
{
	if (olen && fwrite(obuf, 1, olen, ofile) != olen)
		die("write error: %s", strerror(errno));
	obytes += olen;
	olen = 0;
}

static void out_mem(const char *s, size_t n)
{
	if (olen + n > ocap) {
		out_flush();
		if (n > ocap) {
			if (fwrite(s, 1, n, ofile) != n)
				die("write error: %s", strerror(errno));
			obytes += n;
			return;
		}
	}
	memcpy(obuf + olen, s, n);
	olen += n;
}

#define OUT_LIT(s) out_mem(s, sizeof(s) - 1)

/* A growable string used to build lines before copying them out. */
struct sb {
	char *p;
	size_t n, cap;
};

static void sb_mem(struct sb *b, const char *s, size_t n)
{
	grow(&b->p, &b->cap, b->n + n + 1, 1);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

#define SB_LIT(b, s) sb_mem(b, s, sizeof(s) - 1)

static void sb_str(struct sb *b, const char *s)
{
	sb_mem(b, s, strlen(s));
}

static void sb_u64(struct sb *b, uint64_t v)
{
	char t[24];
	int i = (int)sizeof(t);

	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sb_mem(b, t + i, sizeof(t) - (size_t)i);
}

static void sb_fmt(struct sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_fmt(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	grow(&b->p, &b->cap, b->n + 256, 1);
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("format error");
	if ((size_t)n >= b->cap - b->n) {
		grow(&b->p, &b->cap, b->n + (size_t)n + 1, 1);
		va_start(ap, fmt);
		vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
	}
	b->n += (size_t)n;
}

static void out_sb(const struct sb *b)
{
	out_mem(b->p, b->n);
}

/* ------------------------------------------------------------------ */
/* Shapes                                                              */

enum dtype { DT_PRED, DT_S32, DT_U32, DT_F32, DT_BF16, DT_COUNT };

static const char *const dt_name[DT_COUNT] = { "pred", "s32", "u32", "f32",
					       "bf16" };
static const unsigned dt_bytes[DT_COUNT] = { 1, 4, 4, 4, 2 };

struct shape {
	uint8_t tuple;
	uint8_t dtype;
	uint8_t rank;
	uint8_t space;	/* memory space: 0, 1 (VMEM), 2 (sync), 6 (SMEM) */
	uint8_t m2m[4]; /* minor_to_major */
	uint32_t dims[4];
	uint32_t elem, nelem; /* tuple: element shape ids in telem[] */
};

VEC(struct shape, sh);
VEC(uint32_t, telem);

static uint32_t sh_add(struct shape s)
{
	PUSH(sh, s);
	return (uint32_t)(sh_n - 1);
}

/* An array shape, row-major layout (or column-major when colmajor). */
static uint32_t sh_arr(enum dtype dt, unsigned rank, const uint32_t *dims,
		       unsigned space, int colmajor)
{
	struct shape s;
	unsigned i;

	memset(&s, 0, sizeof(s));
	s.dtype = (uint8_t)dt;
	s.rank = (uint8_t)rank;
	s.space = (uint8_t)space;
	for (i = 0; i < rank; i++) {
		s.dims[i] = dims[i];
		s.m2m[i] = (uint8_t)(rank - 1 - i);
	}
	if (colmajor && rank == 2) {
		s.m2m[0] = 0;
		s.m2m[1] = 1;
	}
	return sh_add(s);
}

static uint32_t sh_scalar(enum dtype dt, unsigned space)
{
	return sh_arr(dt, 0, NULL, space, 0);
}

static uint32_t sh_tup(unsigned n, const uint32_t *elems)
{
	struct shape s;
	unsigned i;

	memset(&s, 0, sizeof(s));
	s.tuple = 1;
	s.elem = (uint32_t)telem_n;
	s.nelem = n;
	for (i = 0; i < n; i++)
		PUSH(telem, elems[i]);
	return sh_add(s);
}

/* A copy of array shape id in memory space `space`. */
static uint32_t sh_in_space(uint32_t id, unsigned space)
{
	struct shape s = sh[id];

	s.space = (uint8_t)space;
	return sh_add(s);
}

static uint64_t round_up(uint64_t v, uint64_t m)
{
	return (v + m - 1) / m * m;
}

/* Bytes the TPU-like backend gives the shape (tiling padding included). */
static uint64_t sh_padded(uint32_t id)
{
	const struct shape *s = &sh[id];
	uint64_t n = 1;
	unsigned i, minor, second;

	if (s->tuple)
		return round_up(8ULL * s->nelem, 32);
	if (s->rank == 0)
		return s->space == 2 ? 4 : 512;
	if (s->rank == 1)
		return round_up(s->dims[0], 128) * dt_bytes[s->dtype];
	minor = s->m2m[0];
	second = s->m2m[1];
	for (i = 0; i < s->rank; i++) {
		uint64_t d = s->dims[i];

		if (i == minor)
			d = round_up(d, 128);
		else if (i == second)
			d = round_up(d, s->dtype == DT_BF16 ? 16 : 8);
		n *= d;
	}
	return n * dt_bytes[s->dtype];
}

/* ByteSizeOf(shape, pointer_size=8): no padding; a tuple is its table. */
static uint64_t sh_logical(uint32_t id)
{
	const struct shape *s = &sh[id];
	uint64_t n = dt_bytes[s->dtype];
	unsigned i;

	if (s->tuple)
		return 8ULL * s->nelem;
	for (i = 0; i < s->rank; i++)
		n *= s->dims[i];
	return n;
}

static void sb_shape(struct sb *b, uint32_t id, int layout)
{
	const struct shape *s = &sh[id];
	unsigned i;

	if (s->tuple) {
		SB_LIT(b, "(");
		for (i = 0; i < s->nelem; i++) {
			if (i > 0) {
				SB_LIT(b, ", ");
				if (i % 5 == 0) {
					SB_LIT(b, "/*index=");
					sb_u64(b, i);
					SB_LIT(b, "*/");
				}
			}
			sb_shape(b, telem[s->elem + i], layout);
		}
		SB_LIT(b, ")");
		return;
	}
	sb_str(b, dt_name[s->dtype]);
	SB_LIT(b, "[");
	for (i = 0; i < s->rank; i++) {
		if (i)
			SB_LIT(b, ",");
		sb_u64(b, s->dims[i]);
	}
	SB_LIT(b, "]");
	if (!layout)
		return;
	if (s->rank == 0) {
		/* Scalars: minor_to_major is empty and "{}" is suppressed. */
		if (s->space == 2)
			SB_LIT(b, "{:S(2)}");
		else if (s->dtype == DT_PRED)
			return;
		else if (s->space) {
			SB_LIT(b, "{:T(128)S(");
			sb_u64(b, s->space);
			SB_LIT(b, ")}");
		} else
			SB_LIT(b, "{:T(128)}");
		return;
	}
	SB_LIT(b, "{");
	for (i = 0; i < s->rank; i++) {
		if (i)
			SB_LIT(b, ",");
		sb_u64(b, s->m2m[i]);
	}
	if (s->rank == 1)
		SB_LIT(b, ":T(128)");
	else if (s->dtype == DT_BF16)
		SB_LIT(b, ":T(8,128)(2,1)");
	else
		SB_LIT(b, ":T(8,128)");
	if (s->space) {
		SB_LIT(b, "S(");
		sb_u64(b, s->space);
		SB_LIT(b, ")");
	}
	SB_LIT(b, "}");
}

/* ------------------------------------------------------------------ */
/* Program model                                                       */

enum op {
	OP_PARAM,     /* entry parameter; aux = parameter number */
	OP_CONST,     /* aux = scalar literal */
	OP_FUSION,    /* aux = fusion kind, aux2 = computation number */
	OP_COPY,      /* plain copy (SMEM scalar, or one a variant adds) */
	OP_ALLREDUCE, /* aux2 = to_apply region number */
	OP_GTE,	      /* aux = tuple index */
	OP_TUPLE,
	OP_WHILE,  /* aux = trip count, aux2 = condition computation */
	OP_BPARAM, /* while body/condition parameter (phi values) */
	OP_COMPARE,
	OP_CSTART, /* copy-start: values {} {0} {2}; the source gets {1} */
	OP_CDONE,
	OP_RPARAM, /* thread-local reduction-region parameter */
	OP_RADD,   /* thread-local reduction-region root */
};

enum {
	F_REMOVED = 1,	 /* variant: bypassed, users see its operand 0 */
	F_KEEPSHAPE = 2, /* feeds a tuple/while/output: shape is fixed */
	F_REMOVABLE = 4, /* plain fusion whose operand 0 is an array */
	F_BWD = 8,	 /* backward pass (op_name transpose(jvp(...))) */
	F_DONATED = 16,	 /* parameter aliased with an output */
	F_XPREFETCH = 32 /* cross-program prefetch */
};

struct inst {
	uint32_t base;	 /* name base (bases[]) */
	uint32_t suffix; /* name suffix, 0 = none */
	uint32_t shape;
	uint32_t ops; /* first operand in opnd[] */
	uint32_t aux, aux2;
	uint32_t layer; /* for metadata */
	uint16_t nops;
	uint8_t op;
	uint8_t flags;
	uint8_t role; /* for metadata */
	uint8_t thread_local;
};

VEC(struct inst, in);
VEC(uint32_t, opnd);

/* Name bases ("fusion", "Arg_3", ...) with per-base suffix counters. */
struct base {
	char *name;
	uint32_t next;
	uint32_t shift; /* variant renumbering */
};
VEC(struct base, bases);
static uint32_t *bhash; /* open addressing: base index + 1, 0 = empty */
static size_t bhash_cap;

static uint64_t fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void bhash_put(uint32_t i)
{
	size_t m = bhash_cap - 1, j = fnv(bases[i].name) & m;

	while (bhash[j])
		j = (j + 1) & m;
	bhash[j] = i + 1;
}

/* Index of name base `name`, created (with counter `start`) if new. */
static uint32_t base_get(const char *name, uint32_t start)
{
	struct base b;
	size_t j, m;

	if (bhash_cap < 2 * (bases_n + 1)) {
		size_t k;

		free(bhash);
		bhash_cap = bhash_cap ? 2 * bhash_cap : 256;
		bhash = xrealloc(NULL, bhash_cap * sizeof(*bhash));
		memset(bhash, 0, bhash_cap * sizeof(*bhash));
		for (k = 0; k < bases_n; k++)
			bhash_put((uint32_t)k);
	}
	m = bhash_cap - 1;
	for (j = fnv(name) & m; bhash[j]; j = (j + 1) & m)
		if (strcmp(bases[bhash[j] - 1].name, name) == 0)
			return bhash[j] - 1;
	b.name = xrealloc(NULL, strlen(name) + 1);
	memcpy(b.name, name, strlen(name) + 1);
	b.next = start;
	b.shift = 0;
	PUSH(bases, b);
	bhash_put((uint32_t)(bases_n - 1));
	return (uint32_t)(bases_n - 1);
}

static struct rng R; /* program generation stream */

static uint32_t base_find(const char *name)
{
	/* first use of a base: half start unnumbered, half deep in */
	uint32_t start = rng_chance(&R, 1, 2) ? 0 : 1 + rng_below(&R, 400);

	return base_get(name, start);
}

static uint32_t comp_next = 1; /* fused_computation.K, region_N.K */
static uint32_t comp_shift;

static uint32_t new_inst(enum op op, uint32_t base, uint32_t shape)
{
	struct inst x;

	memset(&x, 0, sizeof(x));
	x.op = (uint8_t)op;
	x.base = base;
	x.suffix = bases[base].next++;
	x.shape = shape;
	x.ops = (uint32_t)opnd_n;
	PUSH(in, x);
	return (uint32_t)(in_n - 1);
}

static void add_op(uint32_t i, uint32_t operand)
{
	PUSH(opnd, operand);
	in[i].nops++;
}

/* A list of instruction indices (schedule pieces). */
struct ilist {
	uint32_t *a;
	size_t n, cap;
};

static void il_push(struct ilist *l, uint32_t i)
{
	grow(&l->a, &l->cap, l->n + 1, sizeof(*l->a));
	l->a[l->n++] = i;
}

static struct ilist s_pro;   /* parameters and constants */
static struct ilist s_fwd;   /* forward pass */
static struct ilist s_bwd;   /* backward pass, per layer in layer order */
static struct ilist s_tail;  /* loss, optimizer, root */
static struct ilist bwd_at;  /* start of each layer's part of s_bwd */
static struct ilist regions; /* thread-local instructions, id order */
static struct ilist sched;   /* the final flattened schedule */

/* ---- metadata ---- */

enum role {
	R_PARAM,
	R_LN,
	R_QKV,
	R_SCORES,
	R_SOFTMAX,
	R_ATTN,
	R_PROJ,
	R_RESID,
	R_MLP1,
	R_GELU,
	R_MLP2,
	R_SCAN,
	R_SCANBODY,
	R_ALLREDUCE,
	R_STEP,
	R_LOSS,
	R_ADAM,
	R_COPY,
	R_REDUCE,
	R_COUNT
};

static const char *const role_path[R_COUNT] = {
	"",
	"pre_self_attention_layer_norm/rms_norm/mul",
	"self_attention/query/dot_general",
	"self_attention/attention_op/dot_general",
	"self_attention/attention_op/softmax/reduce_max",
	"self_attention/attention_op/dot_general_1",
	"self_attention/out/dot_general",
	"add",
	"mlp/wi_0/dot_general",
	"mlp/gelu/tanh",
	"mlp/wo/dot_general",
	"scan_decoder_layers/while",
	"scan_decoder_layers/while/body/remat/checkpoint/mlp/add",
	"psum/all_reduce",
	"optimizer/count/add",
	"cross_entropy_with_logits/reduce_sum",
	"optimizer/adamw/update/mul",
	"copy",
	"reduce_sum",
};

static const char *const src_files[] = {
	"/home/user/src/maxtext/MaxText/layers/attentions.py",
	"/home/user/src/maxtext/MaxText/layers/linears.py",
	"/home/user/src/maxtext/MaxText/layers/normalizations.py",
	"/home/user/src/maxtext/MaxText/train.py",
	"/opt/venv/lib/python3.11/site-packages/optax/_src/transform.py",
	"/opt/venv/lib/python3.11/site-packages/flax/linen/module.py",
};
#define N_SRC_FILES (sizeof(src_files) / sizeof(src_files[0]))

static const char *const backend_configs[] = {
	"",
	"",
	", backend_config={\"flag_configs\":[],\"scoped_memory_configs\":[],"
	"\"used_scoped_memory_configs\":[],\"output_chunk_bound_config\":"
	"{\"output_chunk_bound\":[\"1\",\"8\",\"128\"]}}",
	", backend_config={\"flag_configs\":[],\"scoped_memory_configs\":"
	"[{\"memory_space\":\"1\",\"offset\":\"0\",\"size\":\"4194304\"}],"
	"\"indices_config\":{\"index_known_bits\":[{\"zeroes\":\"0\","
	"\"ones\":\"0\",\"bitwidth\":\"32\"}],\"is_index_aligned\":[false]},"
	"\"used_scoped_memory_configs\":[{\"memory_space\":\"1\",\"offset\":"
	"\"0\",\"size\":\"2097152\"}],\"convolution_algorithm_config\":"
	"{\"emitter\":\"EmitAllBatchInSublanes\"}}",
	", backend_config={\"flag_configs\":[],\"window_config\":"
	"{\"kernel_window_bounds\":[\"1\",\"8\",\"4\"],\"output_window_bounds\":"
	"[\"1\",\"4\",\"16\"],\"input_window_bounds\":[],"
	"\"estimated_cycles\":\"48213\",\"iteration_bounds\":[\"2\",\"1\",\"4\"]},"
	"\"scoped_memory_configs\":[],\"used_scoped_memory_configs\":[]}",
};
#define N_BACKEND_CONFIGS (sizeof(backend_configs) / sizeof(backend_configs[0]))

/* ---- model generation ---- */

static struct {
	uint32_t b, s, d, f, h;
} D;
static uint32_t nparams;
static uint32_t step_param; /* s32[] step counter parameter */
static uint32_t cur_layer;
static int cur_bwd;
static struct ilist *cur; /* schedule piece being written */

static uint32_t mk_param(uint32_t shape, uint32_t layer)
{
	char name[32];
	uint32_t i;

	snprintf(name, sizeof(name), "Arg_%u", nparams);
	i = new_inst(OP_PARAM, base_get(name, 0), shape);
	in[i].suffix = nparams + 1;
	in[i].aux = nparams++;
	in[i].layer = layer;
	in[i].role = R_PARAM;
	il_push(&s_pro, i);
	return i;
}

/* A reduction region (to_apply) of three thread-local values. */
static uint32_t mk_region(void)
{
	uint32_t sc = sh_scalar(DT_F32, 0);
	uint32_t a, b, c, num = comp_next++;

	a = new_inst(OP_RPARAM, base_find("lhs"), sc);
	b = new_inst(OP_RPARAM, base_find("rhs"), sc);
	in[b].aux = 1;
	c = new_inst(OP_RADD, base_find("add"), sc);
	add_op(c, a);
	add_op(c, b);
	in[a].thread_local = in[b].thread_local = in[c].thread_local = 1;
	in[a].role = in[b].role = in[c].role = R_REDUCE;
	in[a].layer = in[b].layer = in[c].layer = cur_layer;
	il_push(&regions, a);
	il_push(&regions, b);
	il_push(&regions, c);
	return num;
}

static const char *const fusion_bases[] = {
	"fusion",
	"multiply_fusion",
	"add_fusion",
	"convert_fusion",
	"transpose_fusion",
	"reduce_fusion",
	"multiply_add_fusion",
	"broadcast_multiply_fusion",
	"select_fusion",
	"exponential_fusion",
	"divide_fusion",
	"add_sqrt_fusion",
	"tanh_fusion",
	"multiply_reduce_fusion",
};
#define N_FUSION_BASES (sizeof(fusion_bases) / sizeof(fusion_bases[0]))

/* An instruction appended to the current schedule piece. */
static uint32_t emit(enum op op, const char *base, uint32_t shape,
		     enum role role)
{
	uint32_t i = new_inst(op, base_find(base), shape);

	in[i].layer = cur_layer;
	in[i].role = (uint8_t)role;
	if (cur_bwd)
		in[i].flags |= F_BWD;
	il_push(cur, i);
	return i;
}

static uint32_t fusion(uint32_t shape, enum role role, unsigned nops,
		       const uint32_t *ops)
{
	const char *base = fusion_bases[rng_below(&R, N_FUSION_BASES)];
	uint32_t i;
	unsigned k;

	if (role == R_QKV || role == R_MLP1 || role == R_MLP2 ||
	    role == R_PROJ || role == R_ATTN || role == R_SCORES)
		base = rng_chance(&R, 1, 2) ? "convolution_fusion" : "fusion";
	i = emit(OP_FUSION, base, shape, role);
	in[i].aux = rng_below(&R, 3); /* kLoop, kOutput, kInput */
	in[i].aux2 = comp_next++;
	for (k = 0; k < nops; k++)
		add_op(i, ops[k]);
	if (nops > 0 && ops[0] != UINT32_MAX && in[ops[0]].op != OP_PARAM &&
	    !sh[in[ops[0]].shape].tuple && !sh[shape].tuple)
		in[i].flags |= F_REMOVABLE;
	return i;
}

/* A multi-output fusion; its GTEs are returned in gte[0..n). */
static uint32_t fusion_multi(unsigned n, const uint32_t *shapes, enum role role,
			     unsigned nops, const uint32_t *ops, uint32_t *gte)
{
	uint32_t f = fusion(sh_tup(n, shapes), role, nops, ops);
	unsigned k;

	for (k = 0; k < n; k++) {
		gte[k] = emit(OP_GTE, "get-tuple-element", shapes[k], role);
		in[gte[k]].aux = k;
		add_op(gte[k], f);
	}
	return f;
}

static uint32_t act_shape(enum dtype dt, uint32_t last)
{
	uint32_t d[3] = { D.b, D.s, last };

	return sh_arr(dt, 3, d, 0, 0);
}

static uint32_t mat_shape(enum dtype dt, uint32_t r, uint32_t c, int colmajor)
{
	uint32_t d[2] = { r, c };

	return sh_arr(dt, 2, d, 0, colmajor);
}

/* copy-start of src into VMEM (the copy-done comes later). */
static uint32_t mk_copy_start(uint32_t src)
{
	uint32_t e[3], cs;

	e[0] = sh_in_space(in[src].shape, 1);
	e[1] = in[src].shape;
	e[2] = sh_scalar(DT_U32, 2);
	cs = new_inst(OP_CSTART, base_find("copy-start"), sh_tup(3, e));
	in[cs].layer = in[src].layer;
	in[cs].role = R_COPY;
	add_op(cs, src);
	return cs;
}

static uint32_t mk_copy_done(uint32_t cs)
{
	uint32_t cd = new_inst(OP_CDONE, base_find("copy-done"),
			       telem[sh[in[cs].shape].elem]);

	in[cd].suffix = in[cs].suffix; /* copy-start.N pairs with copy-done.N */
	in[cd].layer = in[cs].layer;
	in[cd].role = R_COPY;
	add_op(cd, cs);
	return cd;
}

static uint32_t constant(uint32_t shape, uint32_t value, enum role role)
{
	uint32_t c = emit(OP_CONST, "constant", shape, role);

	in[c].aux = value;
	return c;
}

/* A scan-style while loop carrying x and w; returns the new x (a GTE). */
static uint32_t scan_loop(uint32_t x, uint32_t w)
{
	uint32_t elems[12], init[12], next[12], gte[12], shp, tup, cp, bp;
	uint32_t cgte, lt, root, wh, out, cnt, k, n, trip, ops[2];

	n = 3 + rng_below(&R, 8);
	elems[0] = sh_scalar(DT_S32, 0);
	elems[1] = in[x].shape;
	elems[2] = in[w].shape;
	init[0] = constant(elems[0], 0, R_SCAN);
	init[1] = x;
	init[2] = w;
	for (k = 3; k < n; k++) {
		uint32_t d1[1] = { D.d };

		elems[k] = sh_arr(DT_F32, 1, d1, 0, 0);
		init[k] = fusion(elems[k], R_SCAN, 1, &x);
	}
	for (k = 0; k < n; k++)
		in[init[k]].flags =
			(uint8_t)((in[init[k]].flags | F_KEEPSHAPE) &
				  ~F_REMOVABLE);
	shp = sh_tup(n, elems);
	tup = emit(OP_TUPLE, "tuple", shp, R_SCAN);
	for (k = 0; k < n; k++)
		add_op(tup, init[k]);
	trip = 2 + rng_below(&R, 30);

	/* condition computation: parameter, gte, constant, compare */
	cp = emit(OP_BPARAM, "arg_tuple", shp, R_SCAN);
	cgte = emit(OP_GTE, "get-tuple-element", elems[0], R_SCAN);
	add_op(cgte, cp);
	ops[0] = cgte;
	ops[1] = constant(elems[0], trip, R_SCAN);
	lt = emit(OP_COMPARE, "lt", sh_scalar(DT_PRED, 0), R_SCAN);
	add_op(lt, ops[0]);
	add_op(lt, ops[1]);

	/* body computation */
	bp = emit(OP_BPARAM, "arg_tuple", shp, R_SCANBODY);
	for (k = 0; k < n; k++) {
		gte[k] =
			emit(OP_GTE, "get-tuple-element", elems[k], R_SCANBODY);
		in[gte[k]].aux = k;
		add_op(gte[k], bp);
	}
	ops[0] = gte[0];
	ops[1] = constant(elems[0], 1, R_SCANBODY);
	cnt = emit(OP_RADD, "add", elems[0], R_SCANBODY);
	add_op(cnt, ops[0]);
	add_op(cnt, ops[1]);
	next[0] = cnt;
	ops[0] = gte[1];
	ops[1] = gte[2];
	ops[0] = fusion(in[x].shape, R_SCANBODY, 2, ops);
	ops[1] = gte[1];
	next[1] = fusion(in[x].shape, R_SCANBODY, 2, ops);
	next[2] = gte[2];
	for (k = 3; k < n; k++) {
		ops[0] = gte[k];
		ops[1] = next[1];
		next[k] = fusion(elems[k], R_SCANBODY, 2, ops);
	}
	for (k = 0; k < n; k++)
		in[next[k]].flags =
			(uint8_t)((in[next[k]].flags | F_KEEPSHAPE) &
				  ~F_REMOVABLE);
	root = emit(OP_TUPLE, "tuple", shp, R_SCANBODY);
	for (k = 0; k < n; k++)
		add_op(root, next[k]);

	wh = emit(OP_WHILE, "while", shp, R_SCAN);
	in[wh].aux = trip;
	in[wh].aux2 = comp_next;
	comp_next += 2;
	add_op(wh, tup);
	out = emit(OP_GTE, "get-tuple-element", elems[1], R_SCAN);
	in[out].aux = 1;
	add_op(out, wh);
	return out;
}

struct layer_state {
	uint32_t grad_slot; /* opnd[] index to patch with the incoming grad */
	uint32_t grad_out;  /* gradient this layer's backward part produces */
	uint32_t wgrad[4];  /* weight gradients */
	uint32_t w[4];	    /* the weights they belong to */
};
static struct layer_state *layers;
static size_t layers_n, layers_cap;

/* One transformer layer: forward part into s_fwd, backward into s_bwd. */
static uint32_t gen_layer(uint32_t x, uint32_t l)
{
	struct layer_state st;
	uint32_t ln_s, wq, wk, wv, wo, w1, w2, q, k, v, sc, sm, at, o, r1;
	uint32_t h, g, y, ops[6], cs = UINT32_MAX, wq_use, shp[2], gte[2];
	uint32_t g1, g2, g3, red;

	memset(&st, 0, sizeof(st));
	cur_layer = l;
	cur_bwd = 0;
	cur = &s_fwd;
	{
		uint32_t d1[1] = { D.d };

		ln_s = mk_param(sh_arr(DT_F32, 1, d1, 0, 0), l);
	}
	wq = mk_param(mat_shape(DT_BF16, D.d, D.d, 0), l);
	wk = mk_param(mat_shape(DT_BF16, D.d, D.d, 0), l);
	wv = mk_param(mat_shape(DT_BF16, D.d, D.d, 1), l);
	wo = mk_param(mat_shape(DT_BF16, D.d, D.d, 0), l);
	w1 = mk_param(mat_shape(DT_BF16, D.d, D.f, 0), l);
	w2 = mk_param(mat_shape(DT_BF16, D.f, D.d, 1), l);

	if (l == 0 || rng_chance(&R, 1, 4)) {
		uint32_t c =
			emit(OP_COPY, "copy", sh_scalar(DT_S32, 6), R_STEP);

		add_op(c, step_param);
	}
	ops[0] = x;
	ops[1] = ln_s;
	if (rng_chance(&R, 1, 3)) {
		uint32_t d2[2] = { D.b, D.s };

		shp[0] = sh_arr(DT_F32, 2, d2, 1, 0);
		shp[1] = act_shape(DT_BF16, D.d);
		fusion_multi(2, shp, R_LN, 2, ops, gte);
		x = gte[1];
	} else {
		x = fusion(act_shape(DT_BF16, D.d), R_LN, 2, ops);
	}
	wq_use = wq;
	if (l == 0 || rng_chance(&R, 1, 2)) {
		cs = mk_copy_start(wq);
		il_push(cur, cs);
		if (l == 0)
			in[cs].flags |= F_XPREFETCH;
	}
	ops[0] = x;
	ops[1] = wk;
	k = fusion(act_shape(DT_BF16, D.d), R_QKV, 2, ops);
	ops[1] = wv;
	v = fusion(act_shape(DT_BF16, D.d), R_QKV, 2, ops);
	if (cs != UINT32_MAX) {
		wq_use = mk_copy_done(cs);
		il_push(cur, wq_use);
	}
	ops[1] = wq_use;
	q = fusion(act_shape(DT_BF16, D.d), R_QKV, 2, ops);
	{
		uint32_t d4[4] = { D.b, D.h, D.s, D.s };

		ops[0] = q;
		ops[1] = k;
		sc = fusion(sh_arr(DT_F32, 4, d4, 0, 0), R_SCORES, 2, ops);
		ops[0] = sc;
		sm = fusion(sh_arr(DT_BF16, 4, d4, 0, 0), R_SOFTMAX, 1, ops);
		in[sm].aux = 2; /* kInput */
		red = mk_region();
		in[sm].aux2 = red;
	}
	ops[0] = sm;
	ops[1] = v;
	at = fusion(act_shape(DT_BF16, D.d), R_ATTN, 2, ops);
	ops[0] = at;
	ops[1] = wo;
	o = fusion(act_shape(DT_BF16, D.d), R_PROJ, 2, ops);
	ops[0] = x;
	ops[1] = o;
	r1 = fusion(act_shape(DT_BF16, D.d), R_RESID, 2, ops);
	ops[0] = r1;
	ops[1] = w1;
	h = fusion(act_shape(DT_BF16, D.f), R_MLP1, 2, ops);
	ops[0] = h;
	g = fusion(act_shape(DT_BF16, D.f), R_GELU, 1, ops);
	ops[0] = g;
	ops[1] = w2;
	y = fusion(act_shape(DT_BF16, D.d), R_MLP2, 2, ops);
	ops[0] = r1;
	ops[1] = y;
	if (rng_chance(&R, 1, 6)) {
		/* a wide fusion: operands past index 5 get markers */
		ops[2] = q;
		ops[3] = k;
		ops[4] = v;
		ops[5] = at;
		x = fusion(act_shape(DT_BF16, D.d), R_RESID, 6, ops);
	} else {
		x = fusion(act_shape(DT_BF16, D.d), R_RESID, 2, ops);
	}
	if (l % 8 == 0)
		x = scan_loop(x, w1);
	if (l % 5 == 0) {
		uint32_t ar = emit(OP_ALLREDUCE, "all-reduce",
				   act_shape(DT_BF16, D.d), R_ALLREDUCE);

		add_op(ar, x);
		red = mk_region();
		in[ar].aux2 = red;
		x = ar;
	}

	/* backward part, scheduled later in reverse layer order */
	cur_bwd = 1;
	cur = &s_bwd;
	il_push(&bwd_at, (uint32_t)s_bwd.n);
	ops[0] = UINT32_MAX; /* gradient from the layer above: patched */
	ops[1] = h;
	ops[2] = w2;
	g1 = fusion(act_shape(DT_BF16, D.f), R_MLP2, 3, ops);
	st.grad_slot = in[g1].ops;
	ops[0] = g1;
	ops[1] = w1;
	g2 = fusion(act_shape(DT_BF16, D.d), R_MLP1, 2, ops);
	ops[0] = g2;
	ops[1] = at;
	ops[2] = wo;
	g3 = fusion(act_shape(DT_BF16, D.d), R_ATTN, 3, ops);
	st.grad_out = g3;
	/* weight gradients for the optimizer */
	ops[0] = g1;
	ops[1] = r1;
	st.wgrad[0] = fusion(in[w1].shape, R_MLP1, 2, ops);
	ops[0] = g2;
	ops[1] = h;
	st.wgrad[1] = fusion(in[w2].shape, R_MLP2, 2, ops);
	ops[0] = g3;
	ops[1] = at;
	st.wgrad[2] = fusion(in[wo].shape, R_PROJ, 2, ops);
	ops[0] = g3;
	ops[1] = x;
	st.wgrad[3] = fusion(in[wq].shape, R_QKV, 2, ops);
	st.w[0] = w1;
	st.w[1] = w2;
	st.w[2] = wo;
	st.w[3] = wq;
	grow(&layers, &layers_cap, layers_n + 1, sizeof(*layers));
	layers[layers_n++] = st;
	return x;
}

/* ------------------------------------------------------------------ */
/* Instruction text                                                    */

static int variant;

static void sb_name(struct sb *b, uint32_t i)
{
	const struct inst *x = &in[i];

	sb_str(b, bases[x->base].name);
	if (x->suffix) {
		SB_LIT(b, ".");
		sb_u64(b, (uint64_t)x->suffix + bases[x->base].shift);
	}
}

/* Follow bypassed (removed) instructions to the one really used. */
static uint32_t live_op(uint32_t i)
{
	while (in[i].flags & F_REMOVED)
		i = opnd[in[i].ops];
	return i;
}

static void sb_metadata(struct sb *b, const struct inst *x, uint32_t key)
{
	uint64_t h = mix(key, x->layer);

	SB_LIT(b, ", metadata={op_name=\"jit(train_step)/jit(main)/");
	if (x->role == R_LOSS || x->role == R_ADAM || x->role == R_STEP) {
		sb_str(b, role_path[x->role]);
	} else {
		if (x->flags & F_BWD)
			SB_LIT(b, "transpose(jvp(Transformer))/decoder/");
		else
			SB_LIT(b, "jvp(Transformer)/decoder/");
		SB_LIT(b, "layers_");
		sb_u64(b, x->layer);
		SB_LIT(b, "/");
		sb_str(b, role_path[x->role]);
	}
	SB_LIT(b, "\" source_file=\"");
	sb_str(b, src_files[(x->role + (h & 1)) % N_SRC_FILES]);
	SB_LIT(b, "\" source_line=");
	sb_u64(b, 40 + x->role * 37 + (h >> 8) % 23);
	if (h & 2) {
		SB_LIT(b, " source_end_line=");
		sb_u64(b, 41 + x->role * 37 + (h >> 8) % 23);
		SB_LIT(b, " source_column=");
		sb_u64(b, 4 + (h >> 16) % 20);
		SB_LIT(b, " source_end_column=");
		sb_u64(b, 30 + (h >> 24) % 60);
	}
	SB_LIT(b, "}");
}

static const char *const op_text[] = {
	[OP_PARAM] = "parameter",      [OP_CONST] = "constant",
	[OP_FUSION] = "fusion",	       [OP_COPY] = "copy",
	[OP_ALLREDUCE] = "all-reduce", [OP_GTE] = "get-tuple-element",
	[OP_TUPLE] = "tuple",	       [OP_WHILE] = "while",
	[OP_BPARAM] = "parameter",     [OP_COMPARE] = "compare",
	[OP_CSTART] = "copy-start",    [OP_CDONE] = "copy-done",
	[OP_RPARAM] = "parameter",     [OP_RADD] = "add",
};

static const char *const fusion_kind[3] = { "kLoop", "kOutput", "kInput" };

/* The instruction as HLO text ("%name = shape opcode(...), attrs"). */
static void sb_inst(struct sb *b, uint32_t i)
{
	const struct inst *x = &in[i];
	uint32_t k;

	SB_LIT(b, "%");
	sb_name(b, i);
	SB_LIT(b, " = ");
	sb_shape(b, x->shape, 1);
	SB_LIT(b, " ");
	sb_str(b, op_text[x->op]);
	SB_LIT(b, "(");
	switch (x->op) {
	case OP_PARAM:
	case OP_RPARAM:
		sb_u64(b, x->aux);
		break;
	case OP_BPARAM:
		SB_LIT(b, "0");
		break;
	case OP_CONST:
		sb_u64(b, x->aux);
		break;
	default:
		for (k = 0; k < x->nops; k++) {
			if (k) {
				SB_LIT(b, ", ");
				if (k % 5 == 0) {
					SB_LIT(b, "/*index=");
					sb_u64(b, k);
					SB_LIT(b, "*/");
				}
			}
			SB_LIT(b, "%");
			if (opnd[x->ops + k] == UINT32_MAX)
				SB_LIT(b, "fusion.000"); /* not patched yet */
			else
				sb_name(b, live_op(opnd[x->ops + k]));
		}
		break;
	}
	SB_LIT(b, ")");
	switch (x->op) {
	case OP_PARAM:
		if (x->layer % 3 == 0)
			SB_LIT(b, ", sharding={devices=[1,8]<=[8]}");
		else
			SB_LIT(b, ", sharding={replicated}");
		if (i == step_param) {
			SB_LIT(b, ", metadata={op_name=\"state.step\"}");
		} else {
			SB_LIT(b, ", metadata={op_name=\"state.params['params']"
				  "['decoder']['layers_");
			sb_u64(b, x->layer);
			SB_LIT(b, "']['kernel_");
			sb_u64(b, x->aux % 7);
			SB_LIT(b, "']\"}");
		}
		return;
	case OP_RPARAM:
	case OP_BPARAM:
	case OP_CDONE:
		return;
	case OP_FUSION:
		SB_LIT(b, ", kind=");
		sb_str(b, fusion_kind[x->aux % 3]);
		SB_LIT(b, ", calls=%fused_computation.");
		sb_u64(b, (uint64_t)x->aux2 + comp_shift);
		break;
	case OP_ALLREDUCE:
		SB_LIT(b, ", channel_id=");
		sb_u64(b, x->layer + 1);
		SB_LIT(b,
		       ", replica_groups={{0,1,2,3,4,5,6,7},"
		       "{8,9,10,11,12,13,14,15}}, use_global_device_ids=true,"
		       " to_apply=%region_0.");
		sb_u64(b, (uint64_t)x->aux2 + comp_shift);
		break;
	case OP_GTE:
		SB_LIT(b, ", index=");
		sb_u64(b, x->aux);
		break;
	case OP_WHILE:
		SB_LIT(b, ", condition=%region_1.");
		sb_u64(b, (uint64_t)x->aux2 + comp_shift);
		SB_LIT(b, ", body=%region_2.");
		sb_u64(b, (uint64_t)x->aux2 + 1 + comp_shift);
		break;
	case OP_COMPARE:
		SB_LIT(b, ", direction=LT");
		break;
	case OP_CSTART:
		if (x->flags & F_XPREFETCH)
			SB_LIT(b, ", cross_program_prefetch_index=0");
		return;
	default:
		break;
	}
	sb_metadata(b, x, i);
	if (x->op == OP_WHILE) {
		SB_LIT(b, ", backend_config={\"known_trip_count\":{\"n\":\"");
		sb_u64(b, x->aux);
		SB_LIT(b,
		       "\"},\"known_init_step\":{\"init\":\"0\",\"step\":"
		       "\"1\"},\"known_induction_variable\":{\"tuple_index\":"
		       "\"0\"}}");
	} else if (x->op == OP_FUSION) {
		sb_str(b, backend_configs[mix(i, 7) % N_BACKEND_CONFIGS]);
	}
}

/* ------------------------------------------------------------------ */
/* Whole program                                                       */

/* Values an instruction defines (for the size estimate). */
static uint32_t n_values(uint32_t i)
{
	const struct inst *x = &in[i];

	switch (x->op) {
	case OP_GTE:
	case OP_CDONE:
		return 0;
	case OP_TUPLE:
		return 1;
	case OP_CSTART:
		return 3;
	default:
		return sh[x->shape].tuple ? 1 + sh[x->shape].nelem : 1;
	}
}

/* Rough bytes instructions [from, to) will take in the dump. */
static uint64_t estimate(uint32_t from, uint32_t to)
{
	static struct sb b;
	uint64_t est = 0;
	uint32_t i;

	for (i = from; i < to; i++) {
		uint32_t nv = n_values(i);

		b.n = 0;
		sb_inst(&b, i);
		est += 48 + (uint64_t)nv * (b.n + 285);
	}
	return est;
}

static struct ilist root_donor; /* per root operand: donated param or -1 */
static uint32_t root_inst = UINT32_MAX;

static void gen_program(uint64_t target, uint64_t seed)
{
	uint32_t x, l, k, loss, ops[3], first, one;
	uint64_t est = 0;
	/* per-device (sharded) sizes of a mid-size model */
	static const uint32_t bs[] = { 1, 2, 4, 2, 1 };
	static const uint32_t ss[] = { 128, 256, 512, 1024, 512 };
	static const uint32_t ds[] = { 256, 512, 768, 1024, 2048 };
	static const uint32_t hs[] = { 4, 8, 16 };
	size_t nupd, stride;

	R.s = mix(seed, 0x5eed);
	D.b = bs[rng_below(&R, 5)];
	D.s = ss[rng_below(&R, 5)];
	D.d = ds[rng_below(&R, 5)];
	D.f = rng_chance(&R, 1, 2) ? 4 * D.d : D.d * 8 / 3 / 128 * 128;
	D.h = hs[rng_below(&R, 3)];

	cur = &s_pro;
	cur_layer = 0;
	step_param = mk_param(sh_scalar(DT_S32, 0), 0);
	{
		uint32_t d[3] = { D.b, D.s, D.d };

		x = mk_param(sh_arr(DT_BF16, 3, d, 0, 0), 0);
	}
	in[x].layer = 0;
	one = constant(sh_scalar(DT_F32, 0), 1, R_LOSS);

	/* layers until the estimate reaches the target (at least one) */
	for (l = 0;; l++) {
		first = (uint32_t)in_n;
		x = gen_layer(x, l);
		est += estimate(first, (uint32_t)in_n);
		if (est >= target)
			break;
	}

	/* loss, then the backward pass top-down */
	cur_bwd = 0;
	cur_layer = l;
	cur = &s_tail;
	ops[0] = x;
	ops[1] = one;
	loss = fusion(sh_scalar(DT_F32, 0), R_LOSS, 2, ops);
	in[loss].aux = 2;
	k = mk_region();
	in[loss].aux2 = k;
	in[loss].flags =
		(uint8_t)((in[loss].flags | F_KEEPSHAPE) & ~F_REMOVABLE);
	for (k = 0; k < layers_n; k++)
		opnd[layers[k].grad_slot] =
			k + 1 < layers_n ? layers[k + 1].grad_out : loss;

	/* optimizer: updates of at most ~512 weights, donated */
	cur = &s_tail;
	nupd = layers_n * 4;
	stride = nupd > 512 ? (nupd + 511) / 512 : 1;
	{
		struct ilist outs = { NULL, 0, 0 };
		uint32_t root;

		il_push(&outs, loss);
		il_push(&root_donor, UINT32_MAX);
		for (k = 0; k < nupd; k += (uint32_t)stride) {
			const struct layer_state *st = &layers[k / 4];
			uint32_t w = st->w[k % 4], u;

			cur_layer = k / 4;
			ops[0] = w;
			ops[1] = st->wgrad[k % 4];
			ops[2] = step_param;
			u = fusion(in[w].shape, R_ADAM, 3, ops);
			in[u].flags = (uint8_t)((in[u].flags | F_KEEPSHAPE) &
						~F_REMOVABLE);
			in[w].flags |= F_DONATED;
			il_push(&outs, u);
			il_push(&root_donor, w);
		}
		{
			uint32_t *es = xrealloc(NULL, outs.n * sizeof(*es));

			for (k = 0; k < outs.n; k++)
				es[k] = in[outs.a[k]].shape;
			root = emit(OP_TUPLE, "tuple",
				    sh_tup((unsigned)outs.n, es), R_LOSS);
			free(es);
		}
		for (k = 0; k < outs.n; k++)
			add_op(root, outs.a[k]);
		root_inst = root;
		free(outs.a);
	}
}

/* Flatten: prologue, forward, loss, backward top-down, optimizer. */
static void flatten(void)
{
	size_t k, j, loss_end;

	for (k = 0; k < s_pro.n; k++)
		il_push(&sched, s_pro.a[k]);
	for (k = 0; k < s_fwd.n; k++)
		il_push(&sched, s_fwd.a[k]);
	/* s_tail starts with the loss fusion */
	loss_end = 1;
	for (k = 0; k < loss_end; k++)
		il_push(&sched, s_tail.a[k]);
	for (k = bwd_at.n; k-- > 0;) {
		size_t end = k + 1 < bwd_at.n ? bwd_at.a[k + 1] : s_bwd.n;

		for (j = bwd_at.a[k]; j < end; j++)
			il_push(&sched, s_bwd.a[j]);
	}
	for (k = loss_end; k < s_tail.n; k++)
		il_push(&sched, s_tail.a[k]);
}

/* ------------------------------------------------------------------ */
/* Variants: the same program, recompiled with a change                 */

struct insertion {
	uint32_t before; /* old schedule position */
	uint32_t seq;
	uint32_t inst;
};

static int cmp_ins(const void *pa, const void *pb)
{
	const struct insertion *a = pa, *b = pb;

	if (a->before != b->before)
		return a->before < b->before ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void apply_variant(uint64_t seed)
{
	struct rng vr = { mix(seed, 0xa5a5) ^ mix((uint64_t)variant, 0x3c) };
	struct insertion *ins = NULL;
	size_t nins = 0, cap = 0, k, j, n_edit;
	uint32_t *pos, i, t;

	/* renumbered suffixes: every base shifts by its own amount */
	for (k = 0; k < bases_n; k++)
		bases[k].shift =
			1 + (uint32_t)(mix(vr.s, fnv(bases[k].name)) % 61);
	comp_shift = 1 + rng_below(&vr, 97);
	bases[base_get("copy-done", 0)].shift =
		bases[base_get("copy-start", 0)].shift;

	pos = xrealloc(NULL, in_n * sizeof(*pos));
	for (i = 0; i < in_n; i++)
		pos[i] = UINT32_MAX;
	for (t = 0; t < sched.n; t++)
		pos[sched.a[t]] = t;
	n_edit = 2 + sched.n / 3000;

	/* some shapes grow or shrink */
	for (i = 0; i < in_n; i++) {
		struct shape *s = &sh[in[i].shape];

		if (in[i].op != OP_FUSION || (in[i].flags & F_KEEPSHAPE) ||
		    s->tuple || s->rank < 2 || !rng_chance(&vr, 1, 120))
			continue;
		if (rng_chance(&vr, 1, 2) || s->dims[0] < 2 || s->dims[0] % 2)
			s->dims[0] *= 2;
		else
			s->dims[0] /= 2;
	}

	/* a few removed: users see the removed one's operand 0 */
	for (k = 0; k < n_edit; k++) {
		for (j = 0; j < 1000; j++) {
			i = sched.a[rng_below(&vr, (uint32_t)sched.n)];
			if ((in[i].flags & F_REMOVABLE) &&
			    !(in[i].flags & (F_KEEPSHAPE | F_REMOVED)) &&
			    in[i].op == OP_FUSION)
				break;
		}
		if (j < 1000)
			in[i].flags |= F_REMOVED;
	}

	/* a few added: a copy of X, used by X's next user instead of X */
	for (k = 0; k < n_edit; k++) {
		uint32_t c, x = 0, u;

		for (j = 0; j < 1000; j++) {
			x = sched.a[rng_below(&vr, (uint32_t)sched.n)];
			if (in[x].op == OP_FUSION &&
			    !(in[x].flags & F_REMOVED) &&
			    !sh[in[x].shape].tuple)
				break;
		}
		if (j == 1000)
			continue;
		c = new_inst(OP_COPY, base_find("copy"),
			     sh_in_space(in[x].shape, 0));
		in[c].layer = in[x].layer;
		in[c].role = R_COPY;
		in[c].flags = (uint8_t)(in[x].flags & F_BWD);
		add_op(c, x);
		for (t = pos[x] + 1; t < sched.n && t < pos[x] + 64; t++) {
			u = sched.a[t];
			if (in[u].flags & F_REMOVED || in[u].op == OP_TUPLE ||
			    in[u].op == OP_WHILE)
				continue;
			for (j = 0; j < in[u].nops; j++)
				if (opnd[in[u].ops + j] == x)
					break;
			if (j < in[u].nops) {
				opnd[in[u].ops + j] = c;
				break;
			}
		}
		grow(&ins, &cap, nins + 1, sizeof(*ins));
		ins[nins].before = pos[x] + 1;
		ins[nins].seq = (uint32_t)nins;
		ins[nins].inst = c;
		nins++;
	}

	/* one extra prefetch of a weight right before a fusion uses it */
	for (j = 0; j < 100000; j++) {
		uint32_t f = sched.a[rng_below(&vr, (uint32_t)sched.n)], p;
		uint32_t cs, cd;

		if (in[f].op != OP_FUSION || (in[f].flags & F_REMOVED))
			continue;
		for (k = 0; k < in[f].nops; k++) {
			p = opnd[in[f].ops + k];
			if (in[p].op == OP_PARAM && !sh[in[p].shape].tuple &&
			    sh[in[p].shape].rank == 2)
				break;
		}
		if (k == in[f].nops)
			continue;
		cs = mk_copy_start(p);
		cd = mk_copy_done(cs);
		opnd[in[f].ops + k] = cd;
		grow(&ins, &cap, nins + 2, sizeof(*ins));
		ins[nins].before = pos[f] > s_pro.n + 3 ? pos[f] - 3 : pos[f];
		ins[nins].seq = (uint32_t)nins;
		ins[nins].inst = cs;
		nins++;
		ins[nins].before = pos[f];
		ins[nins].seq = (uint32_t)nins;
		ins[nins].inst = cd;
		nins++;
		break;
	}

	/* rebuild the schedule */
	qsort(ins, nins, sizeof(*ins), cmp_ins);
	{
		struct ilist ns_l = { NULL, 0, 0 };

		j = 0;
		for (t = 0; t <= sched.n; t++) {
			while (j < nins && ins[j].before == t)
				il_push(&ns_l, ins[j++].inst);
			if (t < sched.n && !(in[sched.a[t]].flags & F_REMOVED))
				il_push(&ns_l, sched.a[t]);
		}
		free(sched.a);
		sched = ns_l;
	}
	free(ins);
	free(pos);
}

/* ------------------------------------------------------------------ */
/* Derived data: values, positions, uses, live ranges, allocations      */

#define IDX_NONE  (-1) /* non-tuple instruction: no index printed */
#define IDX_TABLE (-2) /* "{}" */
#define NO_TIME	  UINT32_MAX

struct value {
	uint64_t id;
	uint64_t size, logical, offset;
	uint32_t inst;
	int32_t idx;
	uint32_t shape;
	uint32_t alloc;
	uint32_t start, end; /* live range; start == NO_TIME: none */
	uint32_t pos, npos, use, nuse;
	uint8_t color, phi;
};

VEC(struct value, val);
static uint32_t *vfirst; /* per instruction: first value (or UINT32_MAX) */
static uint32_t *itime;	 /* per instruction: schedule time */

struct ref { /* a position (opno < 0) or a use */
	uint32_t value;
	uint32_t inst;
	int32_t idx;
	int32_t opno;
};
VEC(struct ref, refs);
static struct ref *rsorted;

enum akind { A_PARAM, A_CONST, A_TL, A_OUT, A_LIVEOUT, A_TEMP };

struct alloc {
	uint64_t size;
	uint32_t inst;	   /* A_PARAM: the parameter; A_OUT: the root */
	uint32_t first, n; /* its values, in avals[] */
	uint8_t kind;
	uint8_t color;
	uint8_t liveout;
};
VEC(struct alloc, al);
static uint32_t *avals;
static uint32_t *aorder; /* print order */

static uint32_t T; /* schedule length */
static uint32_t peak_t;

static uint32_t new_value(uint32_t i, int32_t idx, uint32_t shape, int phi)
{
	struct value v;

	memset(&v, 0, sizeof(v));
	v.inst = i;
	v.idx = idx;
	v.shape = shape;
	v.phi = (uint8_t)phi;
	v.size = sh_padded(shape);
	v.logical = sh_logical(shape);
	v.color = sh[shape].tuple ? 0 : sh[shape].space;
	v.start = NO_TIME;
	v.alloc = UINT32_MAX;
	PUSH(val, v);
	return (uint32_t)(val_n - 1);
}

/* The values instruction i defines, in id order. */
static void make_values(uint32_t i)
{
	const struct inst *x = &in[i];
	const struct shape *s = &sh[x->shape];
	int phi = x->op == OP_WHILE || x->op == OP_BPARAM;
	uint32_t k;

	switch (x->op) {
	case OP_GTE:
	case OP_CDONE:
		return;
	case OP_TUPLE:
		vfirst[i] = new_value(i, IDX_TABLE, x->shape, 0);
		return;
	case OP_CSTART:
		vfirst[i] = new_value(i, IDX_TABLE, x->shape, 0);
		new_value(i, 0, telem[s->elem], 0);
		new_value(i, 2, telem[s->elem + 2], 0);
		return;
	default:
		break;
	}
	if (!s->tuple) {
		vfirst[i] = new_value(i, IDX_NONE, x->shape, 0);
		return;
	}
	vfirst[i] = new_value(i, IDX_TABLE, x->shape, phi);
	for (k = 0; k < s->nelem; k++)
		new_value(i, (int32_t)k, telem[s->elem + k], phi);
}

static uint32_t resolve(uint32_t i);

/* The value of element k of tuple-shaped instruction i. */
static uint32_t element(uint32_t i, uint32_t k)
{
	switch (in[i].op) {
	case OP_TUPLE:
		return resolve(live_op(opnd[in[i].ops + k]));
	case OP_CSTART:
		if (k == 1)
			return resolve(live_op(opnd[in[i].ops]));
		return vfirst[i] + (k == 0 ? 1 : 2);
	default:
		return vfirst[i] + 1 + k;
	}
}

/* The value an (array) operand reference to instruction i denotes. */
static uint32_t resolve(uint32_t i)
{
	switch (in[i].op) {
	case OP_GTE:
		return element(live_op(opnd[in[i].ops]), in[i].aux);
	case OP_CDONE:
		return element(live_op(opnd[in[i].ops]), 0);
	default:
		return vfirst[i];
	}
}

static void add_ref(uint32_t value, uint32_t inst, int32_t idx, int32_t opno)
{
	struct ref r;

	r.value = value;
	r.inst = inst;
	r.idx = idx;
	r.opno = opno;
	PUSH(refs, r);
}

static int is_tuple_inst(uint32_t i)
{
	return sh[in[i].shape].tuple && in[i].op != OP_GTE &&
	       in[i].op != OP_CDONE;
}

/* Positions and uses instruction u contributes (schedule order). */
static void make_refs(uint32_t u)
{
	const struct inst *x = &in[u];
	uint32_t k, e;

	if (x->op == OP_GTE) {
		uint32_t t = live_op(opnd[x->ops]);

		add_ref(vfirst[t], u, IDX_TABLE, 0);
		add_ref(element(t, x->aux), u, IDX_NONE, -1);
		return;
	}
	if (x->op == OP_CDONE) {
		uint32_t cs = live_op(opnd[x->ops]);

		add_ref(element(cs, 0), u, IDX_NONE, -1);
		add_ref(vfirst[cs], u, IDX_TABLE, 0);
		add_ref(element(cs, 0), u, 0, 0);
		add_ref(element(cs, 1), u, 1, 0);
		add_ref(element(cs, 2), u, 2, 0);
		return;
	}
	if (x->op == OP_CSTART) {
		uint32_t src = resolve(live_op(opnd[x->ops]));

		add_ref(src, u, 1, -1);
		add_ref(src, u, IDX_NONE, 0);
		return;
	}
	for (k = 0; k < x->nops; k++) {
		uint32_t o = live_op(opnd[x->ops + k]);

		if (is_tuple_inst(o)) {
			add_ref(vfirst[o], u, IDX_TABLE, (int32_t)k);
			if (x->op == OP_WHILE)
				for (e = 0; e < sh[in[o].shape].nelem; e++)
					add_ref(element(o, e), u, (int32_t)e,
						(int32_t)k);
			continue;
		}
		if (x->op == OP_TUPLE)
			add_ref(resolve(o), u, (int32_t)k, -1);
		add_ref(resolve(o), u, IDX_NONE, (int32_t)k);
	}
}

/* ---- temp offsets: per size class, a min-heap of (free time, offset) ---- */

struct slot {
	uint32_t free_after;
	uint64_t offset;
};

struct heap {
	struct slot *a;
	size_t n, cap;
};

static void heap_push(struct heap *h, struct slot s)
{
	size_t i;

	grow(&h->a, &h->cap, h->n + 1, sizeof(*h->a));
	i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (h->a[p].free_after <= s.free_after)
			break;
		h->a[i] = h->a[p];
		i = p;
	}
	h->a[i] = s;
}

static struct slot heap_pop(struct heap *h)
{
	struct slot top = h->a[0], last = h->a[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->a[c + 1].free_after < h->a[c].free_after)
			c++;
		if (h->a[c].free_after >= last.free_after)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = last;
	return top;
}

static unsigned size_class(uint64_t n)
{
	unsigned c = 0;

	while ((1ULL << c) < n)
		c++;
	return c;
}

static uint32_t new_alloc(enum akind kind, unsigned color, uint64_t size,
			  uint32_t inst)
{
	struct alloc a;

	memset(&a, 0, sizeof(a));
	a.kind = (uint8_t)kind;
	a.color = (uint8_t)color;
	a.size = size;
	a.inst = inst;
	PUSH(al, a);
	return (uint32_t)(al_n - 1);
}

static const uint8_t temp_colors[] = { 0, 1, 2, 6 };
#define N_TEMP_COLORS sizeof(temp_colors)

static void assign_ids(uint64_t seed)
{
	struct rng r = { mix(seed, 0x1d5) ^ mix((uint64_t)variant, 0x77) };
	uint64_t id = variant ? 3 + rng_below(&r, 40) : rng_below(&r, 3);
	size_t v;

	for (v = 0; v < val_n; v++) {
		uint32_t x = rng_below(&r, 100);

		val[v].id = id++;
		if (x >= 97)
			id += 4 + rng_below(&r, 36);
		else if (x >= 85)
			id += 1 + rng_below(&r, 3);
	}
}

static void build_refs(void)
{
	uint32_t *cnt, *at;
	size_t k, v;

	/* defining positions first, then schedule order */
	for (v = 0; v < val_n; v++)
		add_ref((uint32_t)v, val[v].inst, val[v].idx, -1);
	for (k = 0; k < regions.n; k++) {
		uint32_t r = regions.a[k], j;

		if (in[r].op == OP_RADD)
			for (j = 0; j < in[r].nops; j++)
				add_ref(vfirst[opnd[in[r].ops + j]], r,
					IDX_NONE, (int32_t)j);
	}
	for (k = 0; k < T; k++)
		make_refs(sched.a[k]);

	/* stable counting sort by value, then positions before uses */
	cnt = xrealloc(NULL, (val_n + 1) * sizeof(*cnt));
	memset(cnt, 0, (val_n + 1) * sizeof(*cnt));
	for (k = 0; k < refs_n; k++)
		cnt[refs[k].value + 1]++;
	for (v = 0; v < val_n; v++)
		cnt[v + 1] += cnt[v];
	at = xrealloc(NULL, (val_n + 1) * sizeof(*at));
	memcpy(at, cnt, (val_n + 1) * sizeof(*at));
	rsorted = xrealloc(NULL, (refs_n + 1) * sizeof(*rsorted));
	for (k = 0; k < 2; k++) {
		size_t j;

		/* pass 0: positions, pass 1: uses */
		for (j = 0; j < refs_n; j++)
			if ((refs[j].opno < 0) == (k == 0))
				rsorted[at[refs[j].value]++] = refs[j];
		if (k == 0)
			for (v = 0; v < val_n; v++) {
				val[v].pos = cnt[v];
				val[v].npos = at[v] - cnt[v];
				val[v].use = at[v];
			}
	}
	for (v = 0; v < val_n; v++)
		val[v].nuse = cnt[v + 1] - val[v].use;
	free(cnt);
	free(at);
	free(refs);
	refs = NULL;
	refs_n = refs_cap = 0;
}

static void live_ranges(void)
{
	int64_t *delta, cur_b, best;
	size_t v;
	uint32_t t, k;

	for (v = 0; v < val_n; v++) {
		struct value *x = &val[v];
		uint32_t s = itime[x->inst], e, j;

		if (in[x->inst].thread_local || s == NO_TIME)
			continue;
		e = s;
		for (j = x->pos; j < x->use + x->nuse; j++) {
			uint32_t u = itime[rsorted[j].inst];

			if (u != NO_TIME && u > e)
				e = u;
		}
		if (in[x->inst].op == OP_PARAM &&
		    !(in[x->inst].flags & F_DONATED))
			e = T;
		x->start = s;
		x->end = e;
	}
	val[vfirst[root_inst]].end = T;
	for (k = 0; k < in[root_inst].nops; k++)
		val[resolve(live_op(opnd[in[root_inst].ops + k]))].end = T;

	/*
	 * The peak time the way XLA's HloLiveRange picks it: a sweep with
	 * start events at `start` and end events at `end + 1`, all starts of
	 * a time before its ends, each value weighed by the logical size of
	 * its defining instruction's whole shape, first strict maximum.
	 * (The peak lines then list the values with start <= t <= end and
	 * their own logical sizes.)
	 */
	delta = xrealloc(NULL, ((size_t)T + 3) * sizeof(*delta));
	memset(delta, 0, ((size_t)T + 3) * sizeof(*delta));
	for (v = 0; v < val_n; v++) {
		int64_t w = (int64_t)sh_logical(in[val[v].inst].shape);

		if (val[v].start == NO_TIME)
			continue;
		delta[val[v].start] += w;
		delta[val[v].end + 2] -= w;
	}
	cur_b = 0;
	best = -1;
	for (t = 0; t <= T + 1; t++) {
		cur_b += delta[t];
		if (cur_b > best) {
			best = cur_b;
			peak_t = t;
		}
	}
	free(delta);
}

static void allocations(uint64_t seed)
{
	uint32_t temp_alloc[256], *order, k, ci;
	struct heap heaps[64][N_TEMP_COLORS];
	uint64_t bump[N_TEMP_COLORS];
	int used[256];
	size_t v, n;
	struct rng r = { mix(seed, 0xa110c) ^ mix((uint64_t)variant, 0x99) };

	for (v = 0; v < val_n; v++) {
		struct value *x = &val[v];
		const struct inst *d = &in[x->inst];

		if (d->thread_local) {
			x->alloc = new_alloc(A_TL, 0, x->size, x->inst);
		} else if (d->op == OP_PARAM) {
			x->alloc = new_alloc(A_PARAM, 0, x->size, x->inst);
			al[x->alloc].liveout = (d->flags & F_DONATED) != 0;
		} else if (d->op == OP_CONST) {
			x->alloc = new_alloc(A_CONST, 0, x->size, x->inst);
		} else if (x->inst == root_inst) {
			x->alloc = new_alloc(A_OUT, 0, x->size, x->inst);
		}
	}
	/* output elements: the donated parameter's allocation, or their own */
	for (k = 0; k < in[root_inst].nops; k++) {
		uint32_t ov = resolve(live_op(opnd[in[root_inst].ops + k]));
		uint32_t p = root_donor.a[k];

		if (val[ov].alloc != UINT32_MAX)
			continue;
		if (p != UINT32_MAX) {
			struct alloc *a = &al[val[vfirst[p]].alloc];

			val[ov].alloc = val[vfirst[p]].alloc;
			if (val[ov].size > a->size)
				a->size = val[ov].size;
		} else {
			val[ov].alloc =
				new_alloc(A_LIVEOUT, 0, val[ov].size, ov);
		}
	}

	/* the rest: combined temp allocation per colour */
	memset(used, 0, sizeof(used));
	for (v = 0; v < val_n; v++)
		if (val[v].alloc == UINT32_MAX)
			used[val[v].color] = 1;
	n = al_n; /* non-temp allocations */
	for (ci = 0; ci < N_TEMP_COLORS; ci++)
		if (used[temp_colors[ci]])
			temp_alloc[temp_colors[ci]] =
				new_alloc(A_TEMP, temp_colors[ci], 0, 0);

	/* offsets in start-time order; a slot is reused once free */
	memset(heaps, 0, sizeof(heaps));
	memset(bump, 0, sizeof(bump));
	order = xrealloc(NULL, ((size_t)T + 2 + val_n) * sizeof(*order));
	{
		uint32_t *c2 = order + val_n, m = 0;
		size_t j;

		memset(c2, 0, ((size_t)T + 2) * sizeof(*c2));
		for (v = 0; v < val_n; v++)
			if (val[v].alloc == UINT32_MAX)
				c2[val[v].start + 1]++;
		for (k = 0; k <= T; k++)
			c2[k + 1] += c2[k];
		for (v = 0; v < val_n; v++)
			if (val[v].alloc == UINT32_MAX) {
				order[c2[val[v].start]++] = (uint32_t)v;
				m++;
			}
		for (j = 0; j < m; j++) {
			struct value *x = &val[order[j]];
			unsigned c = size_class(x->size);
			struct heap *h;
			struct slot s;

			for (ci = 0; ci < N_TEMP_COLORS; ci++)
				if (temp_colors[ci] == x->color)
					break;
			if (ci == N_TEMP_COLORS)
				die("internal error: colour %u", x->color);
			h = &heaps[c][ci];
			if (h->n && h->a[0].free_after < x->start) {
				s = heap_pop(h);
			} else {
				uint64_t align = c < 9 ? 1ULL << c : 512;

				s.offset = round_up(bump[ci], align);
				bump[ci] = s.offset + (1ULL << c);
			}
			s.free_after = x->end;
			heap_push(h, s);
			x->offset = s.offset;
			x->alloc = temp_alloc[x->color];
			if (s.offset + x->size > al[x->alloc].size)
				al[x->alloc].size = s.offset + x->size;
		}
	}
	free(order);
	for (k = 0; k < 64; k++)
		for (ci = 0; ci < N_TEMP_COLORS; ci++)
			free(heaps[k][ci].a);

	/* values per allocation, id order */
	{
		uint32_t *c3 = xrealloc(NULL, (al_n + 1) * sizeof(*c3));

		memset(c3, 0, (al_n + 1) * sizeof(*c3));
		for (v = 0; v < val_n; v++)
			c3[val[v].alloc + 1]++;
		for (k = 0; k < al_n; k++) {
			c3[k + 1] += c3[k];
			al[k].first = c3[k];
		}
		avals = xrealloc(NULL, (val_n + 1) * sizeof(*avals));
		for (v = 0; v < val_n; v++)
			avals[c3[val[v].alloc]++] = (uint32_t)v;
		for (k = 0; k < al_n; k++)
			al[k].n = c3[k] - al[k].first;
		free(c3);
	}

	/* print order: non-temp shuffled (XLA's partition is unstable) */
	aorder = xrealloc(NULL, al_n * sizeof(*aorder));
	for (k = 0; k < al_n; k++)
		aorder[k] = k;
	for (k = (uint32_t)n; k > 1; k--) {
		uint32_t j = rng_below(&r, k), t = aorder[k - 1];

		aorder[k - 1] = aorder[j];
		aorder[j] = t;
	}
}

static void derive(uint64_t seed)
{
	size_t i;

	vfirst = xrealloc(NULL, in_n * sizeof(*vfirst));
	itime = xrealloc(NULL, in_n * sizeof(*itime));
	for (i = 0; i < in_n; i++) {
		vfirst[i] = UINT32_MAX;
		itime[i] = NO_TIME;
	}
	T = (uint32_t)sched.n;
	for (i = 0; i < T; i++)
		itime[sched.a[i]] = (uint32_t)i;
	/* value ids: thread-local regions first, then schedule order */
	for (i = 0; i < regions.n; i++)
		make_values(regions.a[i]);
	for (i = 0; i < T; i++)
		make_values(sched.a[i]);
	assign_ids(seed);
	build_refs();
	live_ranges();
	allocations(seed);
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */

static struct sb line, tmp;

static void sb_idx(struct sb *b, int32_t idx)
{
	SB_LIT(b, "{");
	if (idx >= 0)
		sb_u64(b, (uint64_t)idx);
	SB_LIT(b, "}");
}

static void sb_short(struct sb *b, uint32_t v)
{
	const struct value *x = &val[v];

	SB_LIT(b, "<");
	sb_u64(b, x->id);
	SB_LIT(b, " ");
	sb_name(b, x->inst);
	if (x->idx != IDX_NONE)
		sb_idx(b, x->idx);
	if (x->phi)
		SB_LIT(b, " (phi)");
	SB_LIT(b, " @");
	sb_u64(b, x->color);
	SB_LIT(b, ">");
}

/* HumanReadableNumBytes (FORMAT.md 3.4). */
static void sb_human(struct sb *b, int64_t n)
{
	static const char units[] = "KMGTPE";
	uint64_t a;
	int u = 0;

	if (n == INT64_MIN) {
		SB_LIT(b, "-8E");
		return;
	}
	if (n < 0) {
		SB_LIT(b, "-");
		n = -n;
	}
	a = (uint64_t)n;
	if (a < 1024) {
		sb_u64(b, a);
		SB_LIT(b, "B");
		return;
	}
	while (a >= 1024ULL * 1024 && u < 5) {
		a /= 1024;
		u++;
	}
	sb_fmt(b, u == 0 ? "%.1f%ciB" : "%.2f%ciB", (double)a / 1024.0,
	       units[u]);
}

static void render_allocations(void)
{
	uint32_t k, j;

	OUT_LIT("BufferAssignment:\n");
	for (k = 0; k < al_n; k++) {
		const struct alloc *a = &al[aorder[k]];

		tmp.n = 0;
		SB_LIT(&tmp, "allocation ");
		sb_u64(&tmp, k);
		SB_LIT(&tmp, ": size ");
		sb_u64(&tmp, a->size);
		if (a->color) {
			SB_LIT(&tmp, ", color ");
			sb_u64(&tmp, a->color);
		}
		switch (a->kind) {
		case A_PARAM:
			SB_LIT(&tmp, ", parameter ");
			sb_u64(&tmp, in[a->inst].aux);
			SB_LIT(&tmp, ", shape |");
			sb_shape(&tmp, in[a->inst].shape, 0);
			SB_LIT(&tmp, "| at ShapeIndex {}");
			if (a->liveout)
				SB_LIT(&tmp, ", maybe-live-out");
			break;
		case A_CONST:
			SB_LIT(&tmp, ", constant");
			break;
		case A_TL:
			SB_LIT(&tmp, ", thread-local");
			break;
		case A_OUT:
			SB_LIT(&tmp, ", output shape is |");
			sb_shape(&tmp, in[a->inst].shape, 0);
			SB_LIT(&tmp, "|, maybe-live-out");
			break;
		case A_LIVEOUT:
			SB_LIT(&tmp, ", maybe-live-out");
			break;
		default:
			SB_LIT(&tmp, ", preallocated-temp");
			break;
		}
		SB_LIT(&tmp, ":\n");
		for (j = 0; j < a->n; j++) {
			uint32_t v = avals[a->first + j];

			SB_LIT(&tmp, " value: ");
			sb_short(&tmp, v);
			SB_LIT(&tmp, " (size=");
			sb_u64(&tmp, val[v].size);
			SB_LIT(&tmp, ",offset=");
			sb_u64(&tmp, val[v].offset);
			SB_LIT(&tmp, "): ");
			sb_shape(&tmp, val[v].shape, 1);
			SB_LIT(&tmp, "\n");
			if (tmp.n > 65536) {
				out_sb(&tmp);
				tmp.n = 0;
			}
		}
		out_sb(&tmp);
	}
}

static void render_used_values(void)
{
	uint32_t j, last = UINT32_MAX;
	size_t v;

	OUT_LIT("Used values:\n");
	for (v = 0; v < val_n; v++) {
		const struct value *x = &val[v];

		if (x->inst != last) {
			line.n = 0;
			sb_inst(&line, x->inst);
			SB_LIT(&line, "\n");
			last = x->inst;
		}
		tmp.n = 0;
		sb_short(&tmp, (uint32_t)v);
		SB_LIT(&tmp, "\n positions:\n");
		for (j = x->pos; j < x->pos + x->npos; j++) {
			SB_LIT(&tmp, "  ");
			sb_name(&tmp, rsorted[j].inst);
			if (rsorted[j].idx != IDX_NONE) {
				SB_LIT(&tmp, " ");
				sb_idx(&tmp, rsorted[j].idx);
			}
			SB_LIT(&tmp, "\n");
		}
		SB_LIT(&tmp, " uses:\n");
		for (j = x->use; j < x->use + x->nuse; j++) {
			SB_LIT(&tmp, "  ");
			sb_name(&tmp, rsorted[j].inst);
			SB_LIT(&tmp, ", operand ");
			sb_u64(&tmp, (uint64_t)rsorted[j].opno);
			if (rsorted[j].idx != IDX_NONE) {
				SB_LIT(&tmp, " ");
				sb_idx(&tmp, rsorted[j].idx);
			}
			SB_LIT(&tmp, "\n");
		}
		SB_LIT(&tmp, " from instruction: ");
		out_sb(&tmp);
		out_sb(&line);
	}
}

struct peak_ent {
	uint64_t bytes;
	uint32_t v;
	size_t off; /* name in the names buffer */
	const char *name;
};

static int cmp_peak(const void *pa, const void *pb)
{
	const struct peak_ent *a = pa, *b = pb;
	int c;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	/* "{}" sorts before "{0}" < "{1}" ... */
	if (val[a->v].idx != val[b->v].idx)
		return val[a->v].idx < val[b->v].idx ? -1 : 1;
	return 0;
}

static void render_live_range(void)
{
	uint32_t i, n = 0;
	size_t v;
	struct peak_ent *pk;
	uint64_t sum = 0;
	struct sb names = { NULL, 0, 0 };

	tmp.n = 0;
	SB_LIT(&tmp, "HloLiveRange (max ");
	sb_u64(&tmp, T);
	SB_LIT(&tmp, "):\n  InstructionSequence:\n");
	out_sb(&tmp);
	for (i = 0; i < T; i++) {
		tmp.n = 0;
		SB_LIT(&tmp, "    ");
		sb_u64(&tmp, i);
		SB_LIT(&tmp, ":");
		sb_name(&tmp, sched.a[i]);
		SB_LIT(&tmp, "\n");
		out_sb(&tmp);
	}
	OUT_LIT("  BufferLiveRange:\n");
	for (v = 0; v < val_n; v++) {
		if (val[v].start == NO_TIME)
			continue;
		tmp.n = 0;
		SB_LIT(&tmp, "    ");
		sb_name(&tmp, val[v].inst);
		sb_idx(&tmp, val[v].idx);
		SB_LIT(&tmp, ":");
		sb_u64(&tmp, val[v].start);
		SB_LIT(&tmp, "-");
		sb_u64(&tmp, val[v].end);
		SB_LIT(&tmp, "\n");
		out_sb(&tmp);
	}

	/* values live at the peak: bytes desc, then name, then index */
	pk = xrealloc(NULL, (val_n + 1) * sizeof(*pk));
	for (v = 0; v < val_n; v++)
		if (val[v].start != NO_TIME && val[v].start <= peak_t &&
		    peak_t <= val[v].end) {
			pk[n].bytes = val[v].logical;
			pk[n].v = (uint32_t)v;
			pk[n].off = names.n;
			sb_name(&names, val[v].inst);
			sb_mem(&names, "", 1);
			n++;
		}
	for (i = 0; i < n; i++)
		pk[i].name = names.p + pk[i].off;
	qsort(pk, n, sizeof(*pk), cmp_peak);
	tmp.n = 0;
	SB_LIT(&tmp, "  Live ranges at ");
	sb_u64(&tmp, peak_t);
	SB_LIT(&tmp, " (peak):\n");
	out_sb(&tmp);
	for (i = 0; i < n; i++) {
		sum += pk[i].bytes;
		tmp.n = 0;
		SB_LIT(&tmp, "    ");
		sb_str(&tmp, pk[i].name);
		sb_idx(&tmp, val[pk[i].v].idx);
		SB_LIT(&tmp, ": ");
		sb_u64(&tmp, pk[i].bytes);
		SB_LIT(&tmp, " bytes (cumulative: ");
		sb_u64(&tmp, sum);
		SB_LIT(&tmp, " bytes)\n");
		out_sb(&tmp);
	}
	free(pk);
	free(names.p);
}

static void render(void)
{
	uint64_t total = 0;
	size_t k;

	render_allocations();
	for (k = 0; k < al_n; k++)
		total += al[k].size;
	tmp.n = 0;
	SB_LIT(&tmp, "\nTotal bytes used: ");
	sb_u64(&tmp, total);
	SB_LIT(&tmp, " (");
	sb_human(&tmp, (int64_t)total);
	SB_LIT(&tmp, ")\n\n");
	out_sb(&tmp);
	render_used_values();
	OUT_LIT("\n\n");
	render_live_range();
}

/* ------------------------------------------------------------------ */
/* main                                                                */

static void usage(FILE *f)
{
	fputs("usage: gen-dump --size BYTES[K|M|G] --seed N [--variant V] "
	      "[-o FILE]\n"
	      "Writes a synthetic XLA buffer-assignment dump of about BYTES "
	      "bytes.\nThe output depends only on (size, seed, variant); "
	      "variant 1+ is the same\nprogram recompiled with a change.\n",
	      f);
}

static uint64_t parse_u64(const char *s, const char *what, int suffixes)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		die("bad %s '%s'", what, s);
	v = strtoull(s, &end, 10);
	if (errno)
		die("bad %s '%s'", what, s);
	if (suffixes && *end) {
		unsigned shift = 0;

		switch (*end) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		default:
			die("bad %s '%s'", what, s);
		}
		if (end[1] != '\0' &&
		    !((end[1] == 'B' || end[1] == 'b' || end[1] == 'i') &&
		      end[2] == '\0'))
			die("bad %s '%s'", what, s);
		if (v > (UINT64_MAX >> shift))
			die("%s '%s' too large", what, s);
		v <<= shift;
	} else if (*end) {
		die("bad %s '%s'", what, s);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t size = 0, seed = 0;
	int have_size = 0, have_seed = 0, i;
	const char *outpath = NULL;

	for (i = 1; i < argc; i += 2) {
		const char *a = argv[i];
		const char *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		}
		if (arg == NULL) {
			usage(stderr);
			die("option '%s' needs an argument or is unknown", a);
		}
		if (strcmp(a, "--size") == 0) {
			size = parse_u64(arg, "size", 1);
			have_size = 1;
		} else if (strcmp(a, "--seed") == 0) {
			seed = parse_u64(arg, "seed", 0);
			have_seed = 1;
		} else if (strcmp(a, "--variant") == 0) {
			uint64_t v = parse_u64(arg, "variant", 0);

			if (v > 1000000)
				die("variant too large");
			variant = (int)v;
		} else if (strcmp(a, "-o") == 0) {
			outpath = arg;
		} else {
			usage(stderr);
			die("unknown option '%s'", a);
		}
	}
	if (!have_size || !have_seed) {
		usage(stderr);
		die("--size and --seed are required");
	}
	if (size > (1ULL << 40))
		die("size too large (max 1T)");

	ocap = 4u << 20;
	obuf = xrealloc(NULL, ocap);
	if (outpath == NULL || strcmp(outpath, "-") == 0) {
		ofile = stdout;
	} else {
		ofile = fopen(outpath, "wb");
		if (ofile == NULL)
			die("cannot open '%s': %s", outpath, strerror(errno));
	}

	gen_program(size, seed);
	flatten();
	if (variant)
		apply_variant(seed);
	derive(seed);
	render();
	out_flush();
	if (fflush(ofile) != 0 || ferror(ofile))
		die("write error: %s", strerror(errno));
	if (ofile != stdout && fclose(ofile) != 0)
		die("cannot close '%s': %s", outpath, strerror(errno));
	return 0;
}
