/* dumps.c - dumps for the unit tests (dumps.h). */
#include "dumps.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/canon.h"
#include "hlodiff/diag.h"
#include "hlodiff/load.h"
#include "hlodiff/parse.h"
#include "tap.h"

static void (*visit_check)(const char *path);
static int visit_corpus;
static unsigned visited;

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".txt") != 0)
		return 0;
	if (visit_corpus && !strstr(path, "buffer-assignment") &&
	    !strstr(path, "/seeds/"))
		return 0;
	visit_check(path);
	visited++;
	return 0;
}

static unsigned each_dump(const char *dir, int corpus,
			  void (*check)(const char *path))
{
	visit_check = check;
	visit_corpus = corpus;
	visited = 0;
	nftw(dir, visit, 16, FTW_PHYS);
	return visited;
}

unsigned tap_each_test_dump(void (*check)(const char *path))
{
	const char *src = getenv("HD_SRCDIR");
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/tests/data", src ? src : ".");
	return each_dump(dir, 0, check);
}

int tap_each_corpus_dump(void (*check)(const char *path))
{
	const char *corpus = getenv("HD_CORPUS");

	if (!corpus || !*corpus)
		return -1;
	return (int)each_dump(corpus, 1, check);
}

void tap_parse_exact(struct tap_parsed *t, const char *name,
		     const char *text, size_t n, unsigned flags)
{
	t->copy = malloc(n ? n : 1);
	if (!t->copy)
		bail("out of memory");
	memcpy(t->copy, text, n);
	t->rc = tap_parse_buffer(&t->d, name, t->copy, n, flags);
}

int tap_parse_buffer(struct hd_dump *d, const char *name, const char *data,
		     size_t n, unsigned flags)
{
	return hd_load_parse(d, name, data, n, flags);
}

void tap_parsed_release(struct tap_parsed *t)
{
	hd_dump_release(&t->d);
	free(t->copy);
	t->copy = NULL;
}

void tap_text_put(struct tap_text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->n + n + 1 > t->cap) {
		t->cap = 2 * (t->n + n + 1);
		t->p = realloc(t->p, t->cap);
		if (!t->p)
			abort();
	}
	memcpy(t->p + t->n, s, n + 1);
	t->n += n;
}

void tap_text_temps(struct tap_text *t, unsigned n)
{
	char line[160];
	unsigned i;

	tap_text_put(t, "BufferAssignment:\n");
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line),
			 "allocation %u: size 16, preallocated-temp:\n"
			 " value: <%u v.%u @0> (size=16,offset=0): f32[4]{0}\n",
			 i, i, i);
		tap_text_put(t, line);
	}
	tap_text_put(t, "\nTotal bytes used: 16 (16B)\n\nUsed values:\n");
}

char *tap_first_message(const char *name, const char *text, size_t n,
			int *rc)
{
	struct hd_diag_held h;
	struct tap_parsed t;
	char *nl;

	hd_diag_hold(&h);
	tap_parse_exact(&t, name, text, n, 0);
	hd_diag_unhold(&h);
	*rc = t.rc;
	tap_parsed_release(&t);
	if (!h.buf)
		return strdup("");
	nl = strchr(h.buf, '\n');
	if (nl)
		*nl = '\0';
	return h.buf;
}
