/*
 * batch.c - many modules at once (batch.h): directory scans, pairing by
 * module name, comparisons on a thread pool.
 */
#include "hlodiff/batch.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/diag.h"
#include "hlodiff/diff.h"
#include "hlodiff/filename.h"
#include "hlodiff/str.h"
#include "hlodiff/parallel.h"
#include "hlodiff/golden.h"
#include "hlodiff/load.h"
#include "hlodiff/html.h"
#include "hlodiff/input.h"
#include "hlodiff/match.h"
#include "hlodiff/membuf.h"
#include "hlodiff/parse.h"
#include "hlodiff/rules.h"
#include "hlodiff/verdict.h"
#include "hlodiff/report_verdict.h"
#include "report_common.h"

#define MODULE_MAX 512
#define UNNAMED "unnamed"

/* ---- names ----------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
	return hd_ends_with(s, strlen(s), suffix);
}

int hd_is_dump_name(const char *path)
{
	return ends_with(path, "-buffer-assignment.txt") ||
		ends_with(path, "-buffer-assignment.txt.gz");
}

int hd_is_golden_name(const char *path)
{
	return ends_with(path, HD_GOLDEN_SUFFIX) ||
		ends_with(path, HD_GOLDEN_SUFFIX ".gz");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* '/', control bytes and a leading '.' become '_'. */
static void make_safe(char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (s[i] == '/' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f ||
		    (i == 0 && s[i] == '.'))
			s[i] = '_';
}

/* The number after "module_" in a dump's base name, -1 if none. */
static int64_t module_counter(const char *base)
{
	const char *p = base;

	while ((p = strstr(p, "module_")) != NULL) {
		const char *q = p + 7;
		int64_t v = 0;

		while (*q >= '0' && *q <= '9' && v < INT64_MAX / 10)
			v = v * 10 + (*q++ - '0');
		if (q > p + 7 && (*q == '.' || *q == '-'))
			return v;
		p += 7;
	}
	return -1;
}

/* "NAME#N" -> NAME and N (a golden's base name without its suffix). */
static void split_ordinal(char *name, int64_t *counter)
{
	char *hash = strrchr(name, '#');
	char *end;
	long v;

	*counter = 1;
	if (!hash || !hash[1])
		return;
	errno = 0;
	v = strtol(hash + 1, &end, 10);
	if (errno || *end || v < 1)
		return;
	*counter = v;
	*hash = '\0';
}

int hd_file_module(const char *path, char *buf, size_t n, int64_t *counter)
{
	const char *base = base_name(path);
	size_t len = strlen(base);
	int golden = hd_is_golden_name(base);

	if (n == 0)
		return 0;
	if (golden) {
		len -= ends_with(base, ".gz") ? strlen(HD_GOLDEN_SUFFIX ".gz") :
			strlen(HD_GOLDEN_SUFFIX);
		if (len >= n)
			len = n - 1;
		memcpy(buf, base, len);
		buf[len] = '\0';
		split_ordinal(buf, counter);
	} else {
		*counter = module_counter(base);
		if (hd_module_name_from_path(path, buf, n) < 0)
			buf[0] = '\0';
	}
	if (!buf[0])
		snprintf(buf, n, "%s", UNNAMED);
	make_safe(buf);
	return golden;
}

/* ---- files ----------------------------------------------------------------- */

void hd_add_file(const char *path, struct hd_vec *files, struct hd_arena *arena)
{
	struct hd_module_file *f = hd_vec_push(files);
	char module[MODULE_MAX];

	f->path = hd_arena_strndup(arena, path, strlen(path));
	f->golden = hd_file_module(path, module, sizeof(module), &f->counter);
	f->module = hd_arena_strndup(arena, module, strlen(module));
}

int hd_scan_dir(const char *dir, int goldens, struct hd_vec *files,
		struct hd_arena *arena)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	size_t dlen = strlen(dir);
	int found = 0;

	if (!dp) {
		hd_error(dir, 0, "cannot read the directory: %s", strerror(errno));
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		char *path;

		if (e->d_name[0] == '.')
			continue;
		if (!hd_is_dump_name(e->d_name) &&
		    !(goldens && hd_is_golden_name(e->d_name)))
			continue;
		path = hd_arena_printf(arena, "%s%s%s", dir,
				       dlen && dir[dlen - 1] == '/' ? "" : "/", e->d_name);
		if (!hd_is_regular_file(path))
			continue;
		hd_add_file(path, files, arena);
		found++;
	}
	closedir(dp);
	return found;
}

/* ---- pairing --------------------------------------------------------------- */

static int cmp_files(const void *a, const void *b)
{
	const struct hd_module_file *x = a, *y = b;
	int c = strcmp(x->module, y->module);

	if (c)
		return c;
	if (x->counter != y->counter)
		return x->counter < y->counter ? -1 : 1;
	return strcmp(x->path, y->path);
}

static void sort_files(struct hd_vec *v)
{
	if (v->len > 1)
		qsort(v->data, v->len, sizeof(struct hd_module_file), cmp_files);
}

#define FILE_AT(v, i) (&HD_VEC_AT(v, struct hd_module_file, i))

/* The end of the files of v from i on that have the given module. */
static size_t group_end(const struct hd_vec *v, size_t i, const char *module)
{
	while (i < v->len && strcmp(FILE_AT(v, i)->module, module) == 0)
		i++;
	return i;
}

/* A walk over the modules of two file lists sorted by module (sort_files):
 * each step is one module, its files OLD [oi, oe) and NEW [ni, ne), one
 * side possibly empty. */
struct group_walk {
	const struct hd_vec *o, *n;
	const char *module;
	size_t oi, oe, ni, ne;
};

static void walk_start(struct group_walk *w, const struct hd_vec *o,
		       const struct hd_vec *n)
{
	memset(w, 0, sizeof(*w));
	w->o = o;
	w->n = n;
}

/* Steps to the next module; 0 when both lists are done. */
static int walk_next(struct group_walk *w)
{
	size_t i = w->oe, k = w->ne;
	const char *mo = i < w->o->len ? FILE_AT(w->o, i)->module : NULL;
	const char *mn = k < w->n->len ? FILE_AT(w->n, k)->module : NULL;
	const char *m = !mo ? mn : !mn ? mo : strcmp(mo, mn) <= 0 ? mo : mn;

	if (!m)
		return 0;
	w->module = m;
	w->oi = i;
	w->ni = k;
	w->oe = mo && strcmp(mo, m) == 0 ? group_end(w->o, i, m) : i;
	w->ne = mn && strcmp(mn, m) == 0 ? group_end(w->n, k, m) : k;
	return 1;
}

/* Several compiles of the module on a side, and some on the other: the
 * groups that pairing by content pairs. */
static int walk_several(const struct group_walk *w)
{
	size_t no = w->oe - w->oi, nn = w->ne - w->ni;

	return (no > 1 || nn > 1) && no && nn;
}

/* Where the jobs go, and the status of a module found on one side. */
struct pairing {
	struct hd_vec *jobs;
	struct hd_arena *arena;
	int only_old, only_new, golden;
};

static struct hd_job *push_job(const struct pairing *p, const char *module,
			       const char *old_path, const char *new_path)
{
	struct hd_job *j = hd_vec_push(p->jobs);

	j->module = module;
	j->old_path = old_path;
	j->new_path = new_path;
	j->absent_status = !old_path ? p->only_new : !new_path ? p->only_old : 0;
	return j;
}

/* The jobs of one module, its files paired in module-number order. */
static void pair_group(const struct pairing *p, const struct group_walk *w)
{
	size_t no = w->oe - w->oi, nn = w->ne - w->ni, k, max = no > nn ? no : nn;
	const char *note = NULL;

	if (walk_several(w) && p->golden)
		note = hd_arena_printf(p->arena, "%zu golden%s, %zu dump%s: paired in module-number order",
				       no, no == 1 ? "" : "s", nn, nn == 1 ? "" : "s");
	else if (walk_several(w))
		note = hd_arena_printf(p->arena, "%zu compile%s in OLD, %zu in NEW: paired in module-number order",
				       no, no == 1 ? "" : "s", nn);
	for (k = 0; k < max; k++) {
		struct hd_job *j = push_job(p, w->module,
					    k < no ? FILE_AT(w->o, w->oi + k)->path : NULL,
					    k < nn ? FILE_AT(w->n, w->ni + k)->path : NULL);

		j->label = max > 1 ? hd_arena_printf(p->arena, "%s#%zu", w->module, k + 1) :
			w->module;
		j->note = note;
	}
}

void hd_pair_files(struct hd_vec *jobs, struct hd_arena *arena,
		   struct hd_vec *old_files, struct hd_vec *new_files,
		   int only_old, int only_new, int golden)
{
	struct pairing p = { jobs, arena, only_old, only_new, golden };
	struct group_walk w;

	sort_files(old_files);
	sort_files(new_files);
	walk_start(&w, old_files, new_files);
	while (walk_next(&w))
		pair_group(&p, &w);
}

/* ---- pairing by content ------------------------------------------------------- */

/* What a compile is, for telling repeated compiles of one name apart. */
struct content_sig {
	int hashed;             /* file_hash holds the bytes' XXH3-64 */
	uint64_t file_hash;     /* of the (inflated) file */
	int want;               /* has no identical partner: read it */
	int ok;                 /* the file was read */
	uint64_t params;        /* hash of the parameters' numbers and shapes */
	int64_t total;          /* sum of the allocation sizes */
	uint64_t *values;       /* structural hashes of the values, sorted */
	size_t n_values;
};

struct sig_ctx {
	const char *const *paths;
	struct content_sig *sigs;
	unsigned parse_flags;
};

/* The hash of file i's bytes: identical files need no reading. */
static void hash_one(void *arg, size_t i)
{
	struct sig_ctx *c = arg;
	struct hd_diag_held held;
	struct hd_input in;

	hd_diag_hold(&held);
	if (hd_input_open(&in, c->paths[i]) == 0) {
		c->sigs[i].file_hash = XXH3_64bits(in.data, in.len);
		c->sigs[i].hashed = 1;
		hd_input_release(&in);
	}
	hd_diag_unhold(&held);
	free(held.buf);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Reads file i quietly (its comparison reports its troubles later). */
static void sig_one(void *arg, size_t i)
{
	struct sig_ctx *c = arg;
	struct content_sig *s = &c->sigs[i];
	struct hd_diag_held held;
	struct hd_dump d;
	struct hd_canon cn;
	uint64_t *ph;
	size_t k, np = 0;

	if (!s->want)
		return;
	hd_diag_hold(&held);
	if (hd_load_dump(&d, c->paths[i], c->parse_flags | HD_PARSE_CANON) >= 0) {
		ph = hd_xcalloc(d.allocs.len + 1, sizeof(*ph));
		for (k = 0; k < d.allocs.len; k++) {
			const struct hd_alloc *a = &HD_VEC_AT(&d.allocs, struct hd_alloc, k);
			uint64_t h;

			s->total += a->size;
			if (!(a->flags & HD_ALLOC_PARAMETER))
				continue;
			h = XXH3_64bits_withSeed(a->param_shape.p, a->param_shape.n,
						 (uint64_t)a->param_number);
			ph[np++] = XXH3_64bits_withSeed(a->param_index.p, a->param_index.n, h);
		}
		qsort(ph, np, sizeof(*ph), cmp_u64);
		s->params = XXH3_64bits(ph, np * sizeof(*ph));
		free(ph);
		hd_canon_compute(&cn, &d);
		s->n_values = cn.n_values;
		s->values = hd_xcalloc(cn.n_values + 1, sizeof(uint64_t));
		if (cn.n_values)
			memcpy(s->values, cn.value_struct, cn.n_values * sizeof(uint64_t));
		qsort(s->values, s->n_values, sizeof(uint64_t), cmp_u64);
		hd_canon_release(&cn);
		s->ok = 1;
	}
	hd_dump_release(&d);
	hd_diag_unhold(&held);
	free(held.buf);
}

/* Values two sorted hash lists share (as multisets). */
static size_t common_values(const struct content_sig *a, const struct content_sig *b)
{
	size_t i = 0, k = 0, n = 0;

	while (i < a->n_values && k < b->n_values) {
		if (a->values[i] == b->values[k]) {
			n++;
			i++;
			k++;
		} else if (a->values[i] < b->values[k]) {
			i++;
		} else {
			k++;
		}
	}
	return n;
}

/* A possible pair of one group, ranked: same content first, then the same
 * parameters, then the share of values in common, then the nearer total,
 * then module-number order (so the result never depends on sort luck). */
struct candidate {
	size_t o, n;            /* offsets in the group */
	int same, params;
	uint32_t shared_ppm;    /* 2 * common / (values of both), per million */
	int64_t total_gap;
};

static int cmp_candidates(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->same != y->same)
		return y->same - x->same;
	if (x->params != y->params)
		return y->params - x->params;
	if (x->shared_ppm != y->shared_ppm)
		return x->shared_ppm > y->shared_ppm ? -1 : 1;
	if (x->total_gap != y->total_gap)
		return x->total_gap < y->total_gap ? -1 : 1;
	if (x->o != y->o)
		return x->o < y->o ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

static struct candidate rank_pair(const struct content_sig *a,
				  const struct content_sig *b, size_t o, size_t n)
{
	struct candidate c;
	size_t common = common_values(a, b), all = a->n_values + b->n_values;

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.n = n;
	c.params = a->params == b->params;
	c.same = c.params && a->total == b->total && common == a->n_values &&
		 common == b->n_values;
	c.shared_ppm = all ? (uint32_t)((uint64_t)common * 2000000 / all) : 1000000;
	c.total_gap = a->total > b->total ? a->total - b->total : b->total - a->total;
	return c;
}

/* "module_0021", "golden #2", or the file's base name. */
static const char *file_tag(struct hd_arena *arena, const struct hd_module_file *f)
{
	if (f->counter >= 0)
		return f->golden ? hd_arena_printf(arena, "golden #%" PRId64, f->counter) :
			hd_arena_printf(arena, "module_%04" PRId64, f->counter);
	return base_name(f->path);
}

/* How the files of one group pair: OLD file i with NEW file o_to[i]
 * (SIZE_MAX: none), for the reason how[i]. */
struct group_pairs {
	size_t no, nn;
	size_t *o_to;
	int *n_used;
	const char **how;
};

static void pairs_init(struct group_pairs *gp, size_t no, size_t nn)
{
	size_t i;

	gp->no = no;
	gp->nn = nn;
	gp->o_to = hd_xcalloc(no + 1, sizeof(size_t));
	gp->n_used = hd_xcalloc(nn + 1, sizeof(int));
	gp->how = hd_xcalloc(no + 1, sizeof(char *));
	for (i = 0; i < no; i++)
		gp->o_to[i] = SIZE_MAX;
}

static void pairs_release(struct group_pairs *gp)
{
	free(gp->how);
	free(gp->n_used);
	free(gp->o_to);
}

static void pairs_set(struct group_pairs *gp, size_t i, size_t k, const char *how)
{
	gp->o_to[i] = k;
	gp->n_used[k] = 1;
	gp->how[i] = how;
}

/* Byte-identical files first, in module-number order. */
static void pair_identical(struct group_pairs *gp, const struct content_sig *so,
			   const struct content_sig *sn)
{
	size_t i, k;

	for (i = 0; i < gp->no; i++)
		for (k = 0; k < gp->nn && so[i].hashed; k++)
			if (!gp->n_used[k] && sn[k].hashed &&
			    so[i].file_hash == sn[k].file_hash) {
				pairs_set(gp, i, k, "identical files");
				break;
			}
}

/* Then greedily, the best-ranked candidate first (cmp_candidates). */
static void pair_ranked(struct group_pairs *gp, struct hd_arena *arena,
			const struct content_sig *so, const struct content_sig *sn)
{
	struct candidate *cand = hd_xcalloc(gp->no * gp->nn + 1, sizeof(*cand));
	size_t i, k, nc = 0;

	for (i = 0; i < gp->no; i++)
		for (k = 0; k < gp->nn; k++)
			if (gp->o_to[i] == SIZE_MAX && !gp->n_used[k] && so[i].ok && sn[k].ok)
				cand[nc++] = rank_pair(&so[i], &sn[k], i, k);
	qsort(cand, nc, sizeof(*cand), cmp_candidates);
	for (i = 0; i < nc; i++) {
		const struct candidate *c = &cand[i];

		if (gp->o_to[c->o] != SIZE_MAX || gp->n_used[c->n] ||
		    (!c->params && c->shared_ppm == 0))
			continue;
		pairs_set(gp, c->o, c->n, c->same ? "same content" :
			  hd_arena_printf(arena, "%u%% of values shared%s",
					  (unsigned)(c->shared_ppm / 10000),
					  c->params ? ", same parameters" : ""));
	}
	free(cand);
}

/* What is left on both sides: module-number order. */
static void pair_leftovers(struct group_pairs *gp, const struct content_sig *so,
			   const struct content_sig *sn)
{
	size_t i, k;

	for (i = 0, k = 0; i < gp->no; i++) {
		if (gp->o_to[i] != SIZE_MAX)
			continue;
		while (k < gp->nn && gp->n_used[k])
			k++;
		if (k == gp->nn)
			break;
		pairs_set(gp, i, k, !so[i].ok || !sn[k].ok ?
			  "in module-number order (unreadable)" :
			  "in module-number order (nothing in common)");
	}
}

/* The jobs of a group paired by content, each with the group's note: how
 * every file was paired. */
static void push_paired(const struct pairing *p, const struct group_walk *w,
			const struct group_pairs *gp)
{
	const char *old_side = p->golden ? "DIR" : "OLD";
	const char *new_side = p->golden ? "the dumps" : "NEW";
	char *note_buf = NULL;
	size_t note_len = 0, i, nj = 0;
	FILE *note = hd_memstream_open(&note_buf, &note_len);
	const char *note_s;

	fprintf(note, "%zu %s in %s, %zu in %s: paired by content:",
		gp->no, p->golden ? (gp->no == 1 ? "golden" : "goldens") :
		(gp->no == 1 ? "compile" : "compiles"), old_side, gp->nn, new_side);
	for (i = 0; i < gp->no + gp->nn; i++) {
		const struct hd_module_file *fo = i < gp->no ? FILE_AT(w->o, w->oi + i) : NULL;
		const struct hd_module_file *fn = i >= gp->no ?
			(gp->n_used[i - gp->no] ? NULL : FILE_AT(w->n, w->ni + i - gp->no)) :
			gp->o_to[i] != SIZE_MAX ? FILE_AT(w->n, w->ni + gp->o_to[i]) : NULL;
		const char *sep = nj ? "," : "";
		struct hd_job *j;

		if (!fo && !fn)
			continue;
		j = push_job(p, w->module, fo ? fo->path : NULL, fn ? fn->path : NULL);
		if (fo && fn)
			fprintf(note, "%s #%zu %s -> %s %s", sep, nj + 1, file_tag(p->arena, fo),
				file_tag(p->arena, fn), gp->how[i]);
		else
			fprintf(note, "%s #%zu %s only in %s", sep, nj + 1,
				file_tag(p->arena, fo ? fo : fn), fo ? old_side : new_side);
		j->label = hd_arena_printf(p->arena, "%s#%zu", w->module, ++nj);
	}
	hd_memstream_close(note);
	note_s = hd_arena_strndup(p->arena, note_buf, note_len);
	for (i = 0; i < nj; i++)
		HD_VEC_AT(p->jobs, struct hd_job, p->jobs->len - nj + i).note = note_s;
	free(note_buf);
}

/* The jobs of one module with several files on a side, paired by content:
 * identical files, then the best-ranked candidates, then what is left in
 * module-number order, then alone. */
static void pair_group_content(const struct pairing *p, const struct group_walk *w,
			       const struct content_sig *so, const struct content_sig *sn)
{
	struct group_pairs gp;

	pairs_init(&gp, w->oe - w->oi, w->ne - w->ni);
	pair_identical(&gp, so, sn);
	pair_ranked(&gp, p->arena, so, sn);
	pair_leftovers(&gp, so, sn);
	push_paired(p, w, &gp);
	pairs_release(&gp);
}

/*
 * Which files of the several-compile groups must be read: those left
 * without a byte-identical partner when the other side has some left
 * too (pair_group_content pairs the identical ones the same way).
 */
static void mark_wanted(const struct hd_vec *old_files, const struct hd_vec *new_files,
			const size_t *first_o, const size_t *first_n,
			struct content_sig *sigs)
{
	struct group_walk w;

	walk_start(&w, old_files, new_files);
	while (walk_next(&w)) {
		struct content_sig *so = &sigs[first_o[w.oi]], *sn = &sigs[first_n[w.ni]];
		struct group_pairs gp;
		size_t a, b, lo = 0, ln = 0;

		if (!walk_several(&w))
			continue;
		pairs_init(&gp, w.oe - w.oi, w.ne - w.ni);
		pair_identical(&gp, so, sn);
		for (a = 0; a < gp.no; a++)
			lo += so[a].want = gp.o_to[a] == SIZE_MAX;
		for (b = 0; b < gp.nn; b++)
			ln += sn[b].want = !gp.n_used[b];
		for (a = 0; a < gp.no && !ln; a++)
			so[a].want = 0;
		for (b = 0; b < gp.nn && !lo; b++)
			sn[b].want = 0;
		pairs_release(&gp);
	}
}

void hd_pair_files_by_content(struct hd_vec *jobs, struct hd_arena *arena,
			      struct hd_vec *old_files, struct hd_vec *new_files,
			      int only_old, int only_new, int golden,
			      unsigned parse_flags, int threads)
{
	struct pairing p = { jobs, arena, only_old, only_new, golden };
	size_t i, np = 0, *first_o, *first_n;
	const char **paths;
	struct content_sig *sigs;
	struct group_walk w;
	struct sig_ctx c;

	sort_files(old_files);
	sort_files(new_files);
	paths = hd_xcalloc(old_files->len + new_files->len + 1, sizeof(*paths));
	first_o = hd_xcalloc(old_files->len + 1, sizeof(size_t));
	first_n = hd_xcalloc(new_files->len + 1, sizeof(size_t));
	/* pass 1: the files of groups with several compiles on a side */
	walk_start(&w, old_files, new_files);
	while (walk_next(&w)) {
		if (!walk_several(&w))
			continue;
		first_o[w.oi] = np;
		for (i = w.oi; i < w.oe; i++)
			paths[np++] = FILE_AT(old_files, i)->path;
		first_n[w.ni] = np;
		for (i = w.ni; i < w.ne; i++)
			paths[np++] = FILE_AT(new_files, i)->path;
	}
	sigs = hd_xcalloc(np + 1, sizeof(*sigs));
	c.paths = paths;
	c.sigs = sigs;
	c.parse_flags = parse_flags;
	hd_parallel_for(np, threads, hash_one, &c);
	mark_wanted(old_files, new_files, first_o, first_n, sigs);
	hd_parallel_for(np, threads, sig_one, &c);
	/* pass 2: the jobs */
	walk_start(&w, old_files, new_files);
	while (walk_next(&w)) {
		if (walk_several(&w))
			pair_group_content(&p, &w, &sigs[first_o[w.oi]], &sigs[first_n[w.ni]]);
		else
			pair_group(&p, &w);
	}
	for (i = 0; i < np; i++)
		free(sigs[i].values);
	free(sigs);
	free(first_n);
	free(first_o);
	free(paths);
}

/* ---- one comparison ------------------------------------------------------------ */

struct batch_ctx {
	const struct hd_batch_opts *o;
	const struct hd_job *jobs;
	struct hd_module_report *mods;
};

/* Writes the parts of every format asked for. */
static void render_parts(const struct hd_batch_opts *o, struct hd_module_report *m,
			 const struct hd_diff *df, const struct hd_report_opts *ro,
			 const struct hd_breakdown *b)
{
	int f;

	for (f = 0; f < HD_PART_COUNT; f++) {
		struct hd_membuf *mb = &m->part_buf[f];
		struct hd_report_opts tro = *ro;
		FILE *out;

		if (!(o->formats & (1u << f)))
			continue;
		out = hd_membuf_open(mb);
		switch (f) {
		case HD_FORMAT_TEXT:
		case HD_FORMAT_TEXT_COLOR:
			tro.color = f == HD_FORMAT_TEXT_COLOR;
			hd_report_diff_text(out, df, &tro);
			if (b) {
				fputc('\n', out);
				hd_breakdown_report_text(out, b);
			}
			break;
		case HD_FORMAT_JSON:
			hd_report_diff_json(out, df, ro);
			break;
		case HD_FORMAT_MARKDOWN:
			hd_report_diff_markdown(out, df, ro);
			break;
		case HD_FORMAT_JUNIT:
			hd_report_diff_junit(out, df, ro, &m->junit);
			break;
		case HD_FORMAT_GITHUB:
			hd_report_diff_github(out, df, ro);
			break;
		}
		hd_memstream_close(out);
		m->part[f] = hd_membuf_text(mb);
		m->part_len[f] = hd_membuf_len(mb);
	}
}

/* The rule results as an HTML table, in memory (free it); NULL without
 * rules. */
static char *rules_html(const struct hd_verdicts *v)
{
	char *rules = NULL;
	size_t len = 0;
	FILE *mem;

	if (!v)
		return NULL;
	mem = hd_memstream_open(&rules, &len);
	hd_verdicts_report_html(mem, v);
	hd_memstream_close(mem);
	return rules;
}

/* The HTML page: the diff, the rule results as a table, the breakdown
 * as a folding tree. */
static int write_html(const struct hd_batch_opts *o, const struct hd_diff *df,
		      const struct hd_verdicts *v, const struct hd_breakdown *b)
{
	FILE *f = fopen(o->html_path, "w");
	char *rules;

	if (!f) {
		hd_error(o->html_path, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	rules = rules_html(v);
	hd_report_html_full(f, df, rules, b, o->html_top_n);
	free(rules);
	if (ferror(f) | fclose(f)) {
		hd_error(o->html_path, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The module's part of the page of many modules, its ids prefixed by
 * its place in the list ("m3"). */
static void html_part(const struct hd_batch_opts *o, struct hd_module_report *m,
		      const struct hd_diff *df, const struct hd_verdicts *v,
		      const struct hd_breakdown *b)
{
	char *rules = rules_html(v), prefix[32];
	FILE *mem;

	snprintf(prefix, sizeof(prefix), "m%zu", m->index + 1);
	mem = hd_memstream_open(&m->html, &m->html_len);
	hd_report_html_module(mem, df, rules, b, o->html_top_n, m->label, prefix);
	hd_memstream_close(mem);
	free(rules);
}

/* Summary numbers of one side: total bytes and the peak (stated, else
 * recomputed, as peak.h counts it). */
static void side_numbers(struct hd_module_report *m, int s,
			 const struct hd_figures *f)
{
	m->has_total[s] = f->has_total;
	m->total[s] = f->total_bytes;
	m->has_peak[s] = f->has_peak || f->has_recomputed;
	m->peak[s] = f->has_peak ? f->peak_bytes : f->recomputed_bytes;
}

/* A module with one side: its figures fill that side of the table. */
static void compare_absent(const struct hd_batch_opts *o, const struct hd_job *j,
			   struct hd_module_report *m)
{
	struct hd_dump d;
	struct hd_figures f;
	int s = j->old_path ? 0 : 1;

	m->state = j->old_path ? HD_MODULE_ONLY_OLD : HD_MODULE_ONLY_NEW;
	m->status = j->absent_status;
	if (hd_load_dump(&d, j->old_path ? j->old_path : j->new_path,
			 o->parse_flags) < 0) {
		m->state = HD_MODULE_FAILED;
		m->status = 2;
		hd_dump_release(&d);
		return;
	}
	hd_figures_compute(&f, &d);
	side_numbers(m, s, &f);
	hd_figures_release(&f);
	hd_dump_release(&d);
}

/* One dump of a pair: loaded, then prepared for the diff (diff.h). */
struct pair_side {
	const char *path;
	unsigned parse_flags;
	struct hd_dump d;
	struct hd_diff_side prep;
	int bad;
	struct hd_diag_held held;   /* messages of the second thread */
};

/*
 * The loading of a pair on two threads.  Each thread loads its dump and
 * canonicalises it (the long steps, diff.h); the short steps of each
 * dump (its schedule order, its figures) are tasks taken by whichever
 * thread is free first once that dump is loaded: when one dump takes
 * longer (a bigger file, a busy core), the thread that finished first
 * does the other dump's short steps instead of waiting.  What is
 * computed does not depend on which thread does it.
 */
struct pair_load {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pair_side *side[2];
	int state[2];               /* LOADING, LOADED, FAILED */
	int taken[2][HD_SIDE_STEPS];
	int done[2][HD_SIDE_STEPS];
	int alone;                  /* one thread runs both in turn */
};

enum { LOADING, LOADED, FAILED };

/* The steps a thread other than the dump's own may take, in order. */
static const enum hd_side_step short_steps[] = {
	HD_SIDE_ORDER, HD_SIDE_FIGURES,
};
#define N_SHORT (sizeof(short_steps) / sizeof(short_steps[0]))

struct pair_worker {
	struct pair_load *pl;
	int k;                      /* its own side */
};

/*
 * The first short step of side s not taken yet (taking it), or -1.  The
 * figures wait for the order to be done (diff.h: they read what it
 * gathered); whoever does the order takes them next.
 */
static int take_step(struct pair_load *pl, int s)
{
	size_t i;

	if (pl->state[s] != LOADED)
		return -1;
	for (i = 0; i < N_SHORT; i++)
		if (!pl->taken[s][short_steps[i]]) {
			if (short_steps[i] == HD_SIDE_FIGURES &&
			    !pl->done[s][HD_SIDE_ORDER])
				return -1;
			pl->taken[s][short_steps[i]] = 1;
			return (int)short_steps[i];
		}
	return -1;
}

/*
 * Takes the next short step for worker k, its own dump's first; waits
 * while the other dump is still loading.  Returns the step and sets *s
 * to its side, or returns -1 when there is none left for it.
 */
static int take_task(struct pair_load *pl, int k, int *s)
{
	int step;

	pthread_mutex_lock(&pl->lock);
	for (;;) {
		*s = k;
		if ((step = take_step(pl, k)) >= 0)
			break;
		*s = 1 - k;
		if ((step = take_step(pl, 1 - k)) >= 0)
			break;
		if (pl->alone || pl->state[1 - k] != LOADING)
			break;
		pthread_cond_wait(&pl->cond, &pl->lock);
	}
	pthread_mutex_unlock(&pl->lock);
	return step;
}

static void pair_work(struct pair_load *pl, int k)
{
	struct pair_side *ps = pl->side[k];
	int s, step;

	ps->bad = hd_load_dump(&ps->d, ps->path, ps->parse_flags) < 0;
	if (!ps->bad)
		hd_diff_side_begin(&ps->prep, &ps->d);
	pthread_mutex_lock(&pl->lock);
	pl->state[k] = ps->bad ? FAILED : LOADED;
	pthread_cond_broadcast(&pl->cond);
	pthread_mutex_unlock(&pl->lock);
	if (!ps->bad)
		hd_diff_side_step(&ps->prep, HD_SIDE_CANON);
	while ((step = take_task(pl, k, &s)) >= 0) {
		hd_diff_side_step(&pl->side[s]->prep, (enum hd_side_step)step);
		pthread_mutex_lock(&pl->lock);
		pl->done[s][step] = 1;
		pthread_cond_broadcast(&pl->cond);
		pthread_mutex_unlock(&pl->lock);
	}
}

/* The second thread's work, its messages held (see load_pair). */
static void *pair_work_thread(void *arg)
{
	struct pair_worker *w = arg;
	struct pair_side *ps = w->pl->side[w->k];

	hd_diag_hold(&ps->held);
	pair_work(w->pl, w->k);
	hd_diag_unhold(&ps->held);
	return NULL;
}

/*
 * Loads and prepares OLD here and NEW on a second thread at once (they
 * are independent).  NEW's messages are held back and printed after
 * OLD's, as a run one after the other prints them.  Returns nonzero
 * when either failed to load.
 */
static int load_pair(struct pair_side *os, struct pair_side *ns)
{
	struct pair_load pl;
	struct pair_worker w = { &pl, 1 };
	pthread_t th;

	memset(&ns->prep, 0, sizeof(ns->prep));
	memset(&os->prep, 0, sizeof(os->prep));
	memset(&pl, 0, sizeof(pl));
	pthread_mutex_init(&pl.lock, NULL);
	pthread_cond_init(&pl.cond, NULL);
	pl.side[0] = os;
	pl.side[1] = ns;
	pl.state[0] = pl.state[1] = LOADING;
	if (pthread_create(&th, NULL, pair_work_thread, &w) == 0) {
		pair_work(&pl, 0);
		pthread_join(th, NULL);
	} else {
		pl.alone = 1;
		pair_work(&pl, 0);
		pair_work_thread(&w);
	}
	pthread_cond_destroy(&pl.cond);
	pthread_mutex_destroy(&pl.lock);
	hd_diag_flush(&ns->held);
	return os->bad || ns->bad;
}

/*
 * Do the parts to render read no values past the text report's top
 * (hd_diff_compute_sides_top)?  The other formats, --all, the breakdown
 * and the HTML page read them all.
 */
static int top_values_only(const struct hd_batch_opts *o)
{
	return o->formats && !(o->formats & ~(1u << HD_FORMAT_TEXT | 1u << HD_FORMAT_TEXT_COLOR)) &&
	       !o->report.all &&
	       !o->by_nkeys && !o->html_path && !o->html_parts;
}

/*
 * Do the parts to render read only the values that differ (values[0,
 * n_listed): hd_diff_compute_sides_listed)?  --json without --all
 * lists those alone.
 */
static int listed_values_only(const struct hd_batch_opts *o)
{
	return o->formats == 1u << HD_FORMAT_JSON && !o->report.all &&
	       !o->by_nkeys && !o->html_path && !o->html_parts;
}

/* Did the rules read the values (hd_verdict_read_values)? */
static int verdicts_read_values(const struct hd_verdicts *v)
{
	size_t i;

	for (i = 0; i < v->verdicts.len; i++)
		if (hd_verdict_read_values(&HD_VERDICT(v, i)))
			return 1;
	return 0;
}

/*
 * The diff of a loaded pair and its verdicts (NULL without rules).  When
 * the parts read only the top values, the diff is left partial; when
 * they read only the values that differ, the others are left unsorted.
 * Should the rules have read the values of such a diff, it is completed
 * and they are evaluated again (their contributors point into the
 * values).
 */
static struct hd_verdicts *diff_and_rules(const struct hd_batch_opts *o,
					  const struct hd_job *j,
					  struct hd_diff *df,
					  struct pair_side *os,
					  struct pair_side *ns)
{
	struct hd_verdicts *v = NULL;
	int top = o->report.top_n;

	if (top_values_only(o))
		hd_diff_compute_sides_top(df, &os->prep, &ns->prep,
					  o->match_flags,
					  top > 0 ? (uint32_t)top : UINT32_MAX);
	else if (listed_values_only(o))
		hd_diff_compute_sides_listed(df, &os->prep, &ns->prep,
					     o->match_flags);
	else
		hd_diff_compute_sides(df, &os->prep, &ns->prep, o->match_flags);
	if (!o->rules)
		return NULL;
	v = hd_rules_eval(o->rules, df, j->module);
	if ((df->partial || df->rest_unsorted) && verdicts_read_values(v)) {
		hd_verdicts_free(v);
		hd_diff_complete(df);
		v = hd_rules_eval(o->rules, df, j->module);
	}
	return v;
}

/* What the report's notes say of the pair (enum hd_other_program). */
static int other_program(const struct hd_diff *df)
{
	struct hd_programs p;
	char buf[640];

	hd_diff_programs(df, &p);
	return (p.different ? HD_OTHER_PROGRAM : 0) |
	       (hd_rc_module_note(buf, sizeof(buf), df) ? HD_OTHER_MODULE : 0);
}

static void compare_pair(const struct hd_batch_opts *o, const struct hd_job *j,
			 struct hd_module_report *m)
{
	struct pair_side os = { .path = j->old_path,
				.parse_flags = o->parse_flags | HD_PARSE_CANON },
			 ns = { .path = j->new_path,
				.parse_flags = o->parse_flags | HD_PARSE_CANON };
	struct hd_diff df;
	struct hd_report_opts ro = o->report;
	struct hd_verdicts *v = NULL;
	struct hd_breakdown *b = NULL;

	if (load_pair(&os, &ns)) {
		m->state = HD_MODULE_FAILED;
		m->status = 2;
		hd_diff_side_release(&os.prep);
		hd_diff_side_release(&ns.prep);
		goto done;
	}
	v = diff_and_rules(o, j, &df, &os, &ns);
	if (o->by_nkeys)
		b = hd_breakdown_diff(&df, o->by_keys, o->by_nkeys, o->at_peak, ro.top_n);
	ro.verdicts = v;
	ro.breakdown = b;
	ro.werror = o->werror;
	ro.md_level = o->md_level;
	ro.label = m->label;
	m->state = HD_MODULE_COMPARED;
	m->status = v ? hd_verdicts_status(v, o->werror) : 0;
	side_numbers(m, 0, &df.fold);
	side_numbers(m, 1, &df.fnew);
	m->other_program = other_program(&df);
	if (v) {
		m->has_rules = 1;
		m->n_error = v->n_error;
		m->n_warn = v->n_warn;
		m->n_pass = v->n_pass;
		m->n_na = v->n_na;
	}
	render_parts(o, m, &df, &ro, b);
	if (o->html_path && write_html(o, &df, v, b))
		m->status = 2;
	if (o->html_parts)
		html_part(o, m, &df, v, b);
	hd_breakdown_free(b);
	hd_verdicts_free(v);
	hd_diff_release(&df);
done:
	hd_dump_release(&os.d);
	hd_dump_release(&ns.d);
}

static void compare_one(void *arg, size_t i)
{
	struct batch_ctx *c = arg;
	const struct hd_job *j = &c->jobs[i];
	struct hd_module_report *m = &c->mods[i];

	m->index = i;
	m->label = j->label;
	m->module = j->module;
	m->note = j->note;
	m->old_name = j->old_path ? hd_display_name(j->old_path) : NULL;
	m->new_name = j->new_path ? hd_display_name(j->new_path) : NULL;
	if (j->old_path && j->new_path)
		compare_pair(c->o, j, m);
	else
		compare_absent(c->o, j, m);
}

void hd_batch_compare(const struct hd_batch_opts *o, const struct hd_job *jobs,
		      size_t n, struct hd_module_report *mods)
{
	struct batch_ctx c = { o, jobs, mods };

	memset(mods, 0, n * sizeof(*mods));
	hd_parallel_for(n, o->jobs, compare_one, &c);
}

void hd_module_report_release(struct hd_module_report *m)
{
	int f;

	for (f = 0; f < HD_PART_COUNT; f++)
		hd_membuf_release(&m->part_buf[f]);
	free(m->html);
	memset(m, 0, sizeof(*m));
}

/* ---- golden files ------------------------------------------------------------ */

struct golden_ctx {
	const char *dir;
	int gz;
	unsigned parse_flags;
	const struct hd_job *jobs;
	struct hd_golden_out *out;
};

/* Writes data to path through a temporary file in the same directory,
 * gzip-compressed when gz.  Returns 0, or -1 after printing why. */
static int write_file(const char *path, const char *data, size_t len, int gz)
{
	size_t n = strlen(path);
	char *tmp = hd_xmalloc(n + 16);
	int fd, bad = 0;

	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		hd_error(path, 0, "cannot write: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	if (gz) {
		gzFile g = gzdopen(fd, "wb9");

		bad = !g || (len && gzwrite(g, data, (unsigned)len) != (int)len);
		bad |= g ? gzclose(g) != Z_OK : close(fd) != 0;
	} else {
		FILE *f = fdopen(fd, "w");

		bad = !f || fwrite(data, 1, len, f) != len;
		bad |= f ? fclose(f) != 0 : close(fd) != 0;
	}
	if (!bad)
		bad = chmod(tmp, 0644) != 0 || rename(tmp, path) != 0;
	if (bad) {
		hd_error(path, 0, "cannot write: %s", strerror(errno ? errno : EIO));
		unlink(tmp);
	}
	free(tmp);
	return bad ? -1 : 0;
}

static void golden_one(void *arg, size_t i)
{
	struct golden_ctx *c = arg;
	const struct hd_job *j = &c->jobs[i];
	struct hd_golden_out *g = &c->out[i];
	struct hd_dump d;
	struct stat st;
	struct hd_membuf text;
	size_t len;
	FILE *mem;
	int kind;

	memset(g, 0, sizeof(*g));
	g->label = j->label;
	g->dump = j->new_path;
	g->status = 2;
	kind = hd_load_dump(&d, j->new_path, c->parse_flags);
	if (kind == 1)
		hd_error(j->new_path, 0, "is a golden file, not a dump");
	if (kind != 0) {
		hd_dump_release(&d);
		return;
	}
	mem = hd_membuf_open(&text);
	hd_golden_write(mem, &d, j->module);
	hd_memstream_close(mem);
	hd_dump_release(&d);
	len = strlen(c->dir) + strlen(j->label) + 32;
	g->path = hd_xmalloc(len);
	snprintf(g->path, len, "%s%s%s%s%s", c->dir,
		 c->dir[0] && c->dir[strlen(c->dir) - 1] == '/' ? "" : "/", j->label,
		 HD_GOLDEN_SUFFIX, c->gz ? ".gz" : "");
	if (write_file(g->path, hd_membuf_text(&text), hd_membuf_len(&text),
		       c->gz) == 0) {
		g->status = 0;
		g->dump_bytes = stat(j->new_path, &st) == 0 ? (int64_t)st.st_size : -1;
		g->golden_bytes = stat(g->path, &st) == 0 ? (int64_t)st.st_size : -1;
	}
	hd_membuf_release(&text);
}

void hd_batch_write_goldens(const char *dir, int gz, unsigned parse_flags,
			    int jobs, const struct hd_job *j, size_t n,
			    struct hd_golden_out *out)
{
	struct golden_ctx c = { dir, gz, parse_flags, j, out };

	hd_parallel_for(n, jobs, golden_one, &c);
}
