/*
 * verdict.h - the parsed rule model and the results of evaluating it.
 *
 * Shared by src/rules.c (which builds the model from a rules file) and
 * src/verdict.c (which evaluates it against a struct hd_diff and prints
 * the verdicts), and read by tests/unit/test_rules.c.  Callers outside
 * those use the opaque API of rules.h.  The language is documented in
 * docs/rules.md.
 *
 * Ownership: every string and array of a struct hd_rules lives in its
 * arena and vectors and is freed by hd_rules_free().  A struct
 * hd_verdicts points into the rules and into the diff it was computed
 * from (names, copies, values): both must outlive it.
 */
#ifndef HLODIFF_VERDICT_H
#define HLODIFF_VERDICT_H

#include <stdint.h>

#include "hlodiff/arena.h"
#include "hlodiff/diff.h"
#include "hlodiff/rules.h"

enum hd_severity {
	HD_SEV_ERROR,   /* violation: exit status 1 */
	HD_SEV_WARN,    /* violation: reported; fatal with --werror */
};

/* Where a metric's two numbers come from. */
enum hd_metric_source {
	HD_MSRC_ROW,         /* a figure row of the diff by name (row) */
	HD_MSRC_ALLOC,       /* allocation sizes, filtered by space/kind */
	HD_MSRC_VALUES,      /* size= of value lines filtered by name,
			      * op_name, space, kind; waivers apply */
	HD_MSRC_VALUE_COUNT, /* number of value lines; waivers apply */
	HD_MSRC_COPIES,      /* copy-starts of one class; waivers apply */
	HD_MSRC_ALIASES,     /* donated parameters (figures.h
			      * hd_alloc_is_aliased): bytes or number */
};

/* Filters of bytes(...). */
enum hd_filter_flags {
	HD_FILTER_SPACE = 1u << 0,    /* colour of the allocation */
	HD_FILTER_KIND = 1u << 1,     /* kind of the allocation */
	HD_FILTER_NAME = 1u << 2,     /* glob on the value's name */
	HD_FILTER_OP_NAME = 1u << 3,  /* glob on the defining op_name */
	HD_FILTER_SOURCE = 1u << 4,   /* glob on the defining "file:line" */
};

struct hd_metric {
	int source;             /* enum hd_metric_source */
	int is_bytes;           /* amounts take a unit (B, KiB, ...) */
	const char *row;        /* HD_MSRC_ROW: row name in struct hd_diff */
	const char *label;      /* canonical spelling for reports */
	unsigned filters;       /* enum hd_filter_flags */
	int64_t space;          /* with HD_FILTER_SPACE */
	int kind;               /* enum hd_alloc_kind, with HD_FILTER_KIND */
	const char *name_glob;  /* with HD_FILTER_NAME */
	const char *op_glob;    /* with HD_FILTER_OP_NAME */
	const char *source_glob; /* with HD_FILTER_SOURCE */
	int copy_class;         /* enum hd_copy_class, HD_MSRC_COPIES */
};

enum hd_cond {
	HD_COND_GROWS_PCT,   /* new - old > old * pct; any growth from 0 */
	HD_COND_GROWS_BY,    /* new - old > amount */
	HD_COND_ABOVE,       /* new > amount */
	HD_COND_ANY_NEW,     /* a copy of NEW not matched to one of OLD */
	HD_COND_ANY_LOST,    /* a parameter aliased in OLD is not in NEW */
};

/* Percentages are kept exactly, in millionths of a percent. */
#define HD_PCT_ONE 1000000

struct hd_rule {
	int severity;           /* enum hd_severity */
	struct hd_metric metric;
	int cond;               /* enum hd_cond */
	int64_t amount;         /* GROWS_BY, ABOVE: bytes or a count */
	int64_t pct;            /* GROWS_PCT: percent * HD_PCT_ONE */
	const char *text;       /* the rule as written, comment stripped */
	const char *reason;     /* because "...", or NULL */
	uint32_t line;
	int32_t module;         /* index into rules->modules, -1 = all */
	/* 'and' CONDITION: the next part (its cond, amount and pct); the
	 * rule is violated only when every part is */
	const struct hd_rule *and_next;
};

struct hd_waiver {
	unsigned field;         /* HD_FILTER_NAME or HD_FILTER_OP_NAME */
	const char *glob;
	const char *reason;
	const char *text;       /* as written */
	uint32_t line;
	int32_t module;         /* index into rules->modules, -1 = all */
};

struct hd_module_scope {
	const char *glob;
	uint32_t line;
};

struct hd_rules {
	const char *name;       /* file name for FILE:LINE */
	struct hd_arena arena;
	struct hd_vec rules;    /* struct hd_rule, file order */
	struct hd_vec waivers;  /* struct hd_waiver, file order */
	struct hd_vec modules;  /* struct hd_module_scope */
};

#define HD_RULE(r, i) HD_VEC_AT(&(r)->rules, struct hd_rule, i)
#define HD_WAIVER(r, i) HD_VEC_AT(&(r)->waivers, struct hd_waiver, i)
#define HD_MODULE_SCOPE(r, i) HD_VEC_AT(&(r)->modules, struct hd_module_scope, i)

enum hd_verdict_result {
	HD_VERDICT_PASS,
	HD_VERDICT_VIOLATED,
	HD_VERDICT_NA,       /* the metric is missing from a dump */
};

/* A value that accounts for a metric's change (a struct hd_value_diff). */
struct hd_contrib {
	const struct hd_value_diff *vd;
	int64_t old_bytes, new_bytes;  /* as the metric counts them */
	int64_t delta;
	int waived;
};

#define HD_VERDICT_TOP 5     /* contributors kept per verdict */

struct hd_verdict {
	const struct hd_rule *rule;
	int result;              /* enum hd_verdict_result */
	const char *na_reason;   /* HD_VERDICT_NA: why */
	int has_old, has_new;
	int64_t old_v, new_v, delta;
	int64_t allowed;         /* GROWS_*: growth allowed; ABOVE: ceiling */
	/* Value attribution (metrics made of values). */
	uint32_t contrib_first, n_contrib;  /* into verdicts->contribs */
	int64_t grown, shrunk;   /* sum of positive / negative deltas (for
				    the value count: values added, -removed) */
	uint32_t n_grown, n_shrunk;
	/* Copy metrics: the copies of NEW not matched to OLD. */
	uint32_t copy_first, n_new_copies;  /* into verdicts->new_copies */
	uint32_t n_new_total;    /* new copies, not waived (may exceed the
				    ones listed: HD_VERDICT_MAX_COPIES) */
	/* 'lost aliases': the aliases of OLD that NEW lost. */
	uint32_t lost_first, n_lost;  /* into verdicts->lost */
	uint32_t n_lost_total;   /* lost, not waived (may exceed n_lost) */
};

/*
 * A parameter that OLD aliases with an output and NEW does not: the
 * same parameter number and shape index is not hd_alloc_is_aliased in
 * NEW, or NEW has no such parameter.
 */
struct hd_lost_alias {
	uint32_t old_alloc;      /* index into the old dump's allocs */
	uint32_t new_alloc;      /* NEW's allocation of that parameter and
				    index, HD_NONE when it has none */
};

#define HD_VERDICT_MAX_COPIES 20

struct hd_waiver_use {
	const struct hd_waiver *waiver;
	uint32_t n_old, n_new;   /* values it waived in each dump */
	uint32_t n_copies;       /* copies of NEW it waived */
	uint32_t n_aliases;      /* lost aliases of OLD it waived */
};

struct hd_verdicts {
	const struct hd_rules *rules;
	const struct hd_diff *df;
	const char *module;      /* NULL when unscoped */
	struct hd_arena arena;
	struct hd_vec verdicts;  /* struct hd_verdict, rule order */
	struct hd_vec contribs;  /* struct hd_contrib */
	struct hd_vec new_copies; /* uint32_t: index into df->fnew.copies */
	struct hd_vec waivers;   /* struct hd_waiver_use, in-scope waivers */
	uint32_t n_error, n_warn, n_pass, n_na;
	struct hd_vec lost;      /* struct hd_lost_alias, by parameter */
};

#define HD_VERDICT(v, i) HD_VEC_AT(&(v)->verdicts, struct hd_verdict, i)

/*
 * The condition alone: is (old, new) a violation of rule r?  Stores the
 * allowed growth (or the ceiling) in *allowed.  Exact integer arithmetic,
 * strictly "more than": growth equal to the threshold passes.  A
 * percentage rule is violated by any growth from old = 0.  HD_COND_ANY_NEW
 * is not decided here (returns 0).  With 'and' parts, violated only when
 * every part is; *allowed is the first part's.
 */
int hd_rule_violated(const struct hd_rule *r, int64_t old_v, int64_t new_v,
		     int64_t *allowed);

/* The condition of rule r alone, without its 'and' parts. */
int hd_cond_violated(const struct hd_rule *r, int64_t old_v, int64_t new_v,
		     int64_t *allowed);

/*
 * Did evaluating vd read the diff's list of values?  A violated rule
 * lists its contributor values, except the copy rules, which list
 * copy-starts.  A partial diff (diff.h) must be completed and the rules
 * evaluated again when any verdict did.
 */
int hd_verdict_read_values(const struct hd_verdict *vd);

/* "error", "warn". */
const char *hd_severity_name(int severity);

#endif
