/*
 * rules.h - the rules language: load a rules file, evaluate it against a
 * diff, report the verdicts.  The language is documented in
 * docs/rules.md; the model behind the opaque types is in verdict.h.
 *
 *	struct hd_rules *r;
 *	if (hd_rules_load(&r, path) < 0)          (or hd_rules_load_default)
 *		return HD_EXIT_TROUBLE;           (message already printed)
 *	v = hd_rules_eval(r, &df, module);        (module may be NULL)
 *	hd_verdicts_report_text(stdout, v, 0); (1: in colour)
 *	status = hd_verdicts_status(v, werror);   (0 or 1)
 *	hd_verdicts_free(v);                      (before df and r)
 *	hd_rules_free(r);
 *
 * Errors: a rules file that does not parse is reported on stderr, one
 * message per bad line (at most HD_RULES_MAX_ERRORS), each as
 * "hlodiff: FILE:LINE:COL: what is wrong (did you mean '...'?)" followed
 * by the source line and a caret under the offending token.  Loading
 * then returns -1 and nothing is kept; the caller exits 2.
 */
#ifndef HLODIFF_RULES_H
#define HLODIFF_RULES_H

#include <stddef.h>
#include <stdio.h>

struct hd_diff;
struct hd_json;
struct hd_rules;
struct hd_verdicts;

/* Limits; each has its own error message. */
#define HD_RULES_MAX_BYTES (1u << 20)   /* size of a rules file */
#define HD_RULES_MAX_LINE 4096          /* bytes in one line */
#define HD_RULES_MAX_TOKENS 64          /* tokens in one line */
#define HD_RULES_MAX_RULES 10000        /* rules + waivers in one file */
#define HD_RULES_MAX_ERRORS 10          /* errors shown before giving up */

/* The name the built-in rules go by in FILE:LINE positions. */
#define HD_RULES_DEFAULT_NAME "<default.rules>"

/* The text of rules/default.rules, compiled in: the Makefile makes its C
 * source from the file (BUILD/gen/default_rules.c). */
extern const char hd_default_rules_text[];
extern const size_t hd_default_rules_len;

/*
 * Loads the rules file at path ("-" = standard input).  Returns 0 and
 * stores a new rule set in *out, or prints every error and returns -1
 * (*out = NULL).
 */
int hd_rules_load(struct hd_rules **out, const char *path);
/* The built-in default rules (rules/default.rules).  Returns 0. */
int hd_rules_load_default(struct hd_rules **out);
/* Rules from memory; name is used in messages and FILE:LINE.  The text
 * is copied.  Returns 0 or -1 as hd_rules_load. */
int hd_rules_load_buffer(struct hd_rules **out, const char *name,
			 const char *text, size_t len);
void hd_rules_free(struct hd_rules *r);
/* Number of rules (waivers not counted). */
size_t hd_rules_count(const struct hd_rules *r);

/*
 * Evaluates every rule in scope for module_name against df: the rules
 * outside any module block, plus those of the blocks whose glob matches
 * module_name (NULL = unscoped rules only).  Waivers in scope apply.
 * Never fails (out of memory exits, see arena.h).  r and df must outlive
 * the result.
 */
struct hd_verdicts *hd_rules_eval(const struct hd_rules *r,
				  const struct hd_diff *df,
				  const char *module_name);
void hd_verdicts_free(struct hd_verdicts *v);

/* 0, or 1 when an error rule (or, with werror, any rule) is violated. */
int hd_verdicts_status(const struct hd_verdicts *v, int werror);

#endif
