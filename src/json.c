/*
 * json.c - streaming JSON writer.
 */
#include "hlodiff/json.h"

#include <inttypes.h>
#include <string.h>

#include "hlodiff/diag.h"
#include "hlodiff/format.h"

void hd_json_init(struct hd_json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

static int compact(const struct hd_json *j)
{
	return j->compact_depth && j->depth >= j->compact_depth;
}

/* Separator and indentation before a new item at the current depth. */
static void item(struct hd_json *j)
{
	int i;

	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0) {
		j->count[0]++;
		return;
	}
	if (j->count[j->depth]++)
		fputc(',', j->out);
	if (compact(j)) {
		if (j->count[j->depth] > 1)
			fputc(' ', j->out);
		return;
	}
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

static void open_(struct hd_json *j, char c)
{
	item(j);
	fputc(c, j->out);
	if (j->depth + 1 >= HD_JSON_MAX_DEPTH)
		HD_BUG("JSON nesting too deep");
	j->depth++;
	j->count[j->depth] = 0;
}

static void close_(struct hd_json *j, char c)
{
	int i, had = j->count[j->depth];

	j->depth--;
	if (had && !(j->compact_depth && j->depth + 1 >= j->compact_depth)) {
		fputc('\n', j->out);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(c, j->out);
}

void hd_json_begin_object(struct hd_json *j) { open_(j, '{'); }
void hd_json_end_object(struct hd_json *j) { close_(j, '}'); }
void hd_json_begin_array(struct hd_json *j) { open_(j, '['); }
void hd_json_end_array(struct hd_json *j) { close_(j, ']'); }

static void write_string(FILE *out, const char *s, size_t n)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c == '\r') {
			fputs("\\r", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, out);
		} else {
			/* copy a well-formed UTF-8 sequence, else U+FFFD */
			size_t len = hd_utf8_length((const unsigned char *)s + i, n - i);
			if (len) {
				fwrite(s + i, 1, len, out);
				i += len - 1;
			} else {
				fputs("\\ufffd", out);
			}
		}
	}
	fputc('"', out);
}

void hd_json_key(struct hd_json *j, const char *key)
{
	item(j);
	write_string(j->out, key, strlen(key));
	fputs(": ", j->out);
	j->after_key = 1;
}

void hd_json_int(struct hd_json *j, int64_t v)
{
	item(j);
	fprintf(j->out, "%" PRId64, v);
}

void hd_json_bool(struct hd_json *j, int v)
{
	item(j);
	fputs(v ? "true" : "false", j->out);
}

void hd_json_null(struct hd_json *j)
{
	item(j);
	fputs("null", j->out);
}

void hd_json_str(struct hd_json *j, const char *s)
{
	item(j);
	write_string(j->out, s, strlen(s));
}

void hd_json_slice(struct hd_json *j, struct hd_slice s)
{
	item(j);
	write_string(j->out, s.p ? s.p : "", s.n);
}

void hd_json_raw(struct hd_json *j, const char *token)
{
	item(j);
	fputs(token, j->out);
}

void hd_json_key_int(struct hd_json *j, const char *key, int64_t v)
{
	hd_json_key(j, key);
	hd_json_int(j, v);
}

void hd_json_key_opt_int(struct hd_json *j, const char *key, int has, int64_t v)
{
	hd_json_key(j, key);
	if (has)
		hd_json_int(j, v);
	else
		hd_json_null(j);
}

void hd_json_key_str(struct hd_json *j, const char *key, const char *s)
{
	hd_json_key(j, key);
	if (s)
		hd_json_str(j, s);
	else
		hd_json_null(j);
}

void hd_json_key_slice(struct hd_json *j, const char *key, struct hd_slice s)
{
	hd_json_key(j, key);
	if (s.n)
		hd_json_slice(j, s);
	else
		hd_json_null(j);
}

void hd_json_finish(struct hd_json *j)
{
	fputc('\n', j->out);
}
