/*
 * json.h - a streaming JSON writer with deterministic layout.
 *
 * Keys are written in the order the caller writes them; output is
 * indented two spaces per level.  Strings are escaped per RFC 8259;
 * invalid UTF-8 bytes are written as \ufffd so output is always valid.
 */
#ifndef HLODIFF_JSON_H
#define HLODIFF_JSON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hlodiff/slice.h"

#define HD_JSON_MAX_DEPTH 64

#define HD_JSON_BUF 8192

struct hd_json {
	FILE *out;
	size_t len;                   /* bytes in buf, not yet written to out */
	char buf[HD_JSON_BUF];        /* written out when full and by hd_json_finish */
	int depth;
	int count[HD_JSON_MAX_DEPTH]; /* items written at each depth */
	int after_key;
	int compact_depth;            /* depths >= this are written on one line (0 = never) */
};

void hd_json_init(struct hd_json *j, FILE *out);
void hd_json_begin_object(struct hd_json *j);
void hd_json_end_object(struct hd_json *j);
void hd_json_begin_array(struct hd_json *j);
void hd_json_end_array(struct hd_json *j);
void hd_json_int(struct hd_json *j, int64_t v);
void hd_json_bool(struct hd_json *j, int v);
void hd_json_null(struct hd_json *j);
void hd_json_str(struct hd_json *j, const char *s);
void hd_json_slice(struct hd_json *j, struct hd_slice s);
/* The string a followed by b (as hd_json_slice of the two joined). */
void hd_json_slice_cat(struct hd_json *j, struct hd_slice a, struct hd_slice b);
/* A raw, already valid JSON token (e.g. a number with a fraction). */
void hd_json_raw(struct hd_json *j, const char *token);
/*
 * The functions that take a key take its length, from the inline
 * wrappers below: where the key is a literal (as nearly every one is)
 * strlen is worked out by the compiler, not called for each member.
 */
void hd_json_key_n(struct hd_json *j, const char *key, size_t n);
void hd_json_key_int_n(struct hd_json *j, const char *key, size_t n, int64_t v);
void hd_json_key_opt_int_n(struct hd_json *j, const char *key, size_t n,
			   int has, int64_t v);
void hd_json_key_str_n(struct hd_json *j, const char *key, size_t n,
		       const char *s);
void hd_json_key_slice_n(struct hd_json *j, const char *key, size_t n,
			 struct hd_slice s);

/* A key; the next call writes its value. */
static inline void hd_json_key(struct hd_json *j, const char *key)
{
	hd_json_key_n(j, key, strlen(key));
}

/* A member "key": value, the value null when absent (has == 0, s ==
 * NULL, or an empty slice). */
static inline void hd_json_key_int(struct hd_json *j, const char *key, int64_t v)
{
	hd_json_key_int_n(j, key, strlen(key), v);
}

static inline void hd_json_key_opt_int(struct hd_json *j, const char *key,
				       int has, int64_t v)
{
	hd_json_key_opt_int_n(j, key, strlen(key), has, v);
}

static inline void hd_json_key_str(struct hd_json *j, const char *key,
				   const char *s)
{
	hd_json_key_str_n(j, key, strlen(key), s);
}

static inline void hd_json_key_slice(struct hd_json *j, const char *key,
				     struct hd_slice s)
{
	hd_json_key_slice_n(j, key, strlen(key), s);
}

/* Writes the final newline and what is buffered to out.  Nothing
 * reaches out before: between hd_json_init and this call, write to out
 * only through j. */
void hd_json_finish(struct hd_json *j);

#endif
