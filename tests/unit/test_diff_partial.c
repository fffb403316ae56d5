/*
 * test_diff_partial.c - the partial listing of a diff
 * (hd_diff_compute_sides_top) against the whole one (hd_diff_compute):
 * the differing values alone, the first top of them the whole listing's
 * first, the others the rest of its differing values (all but their how,
 * which a partial diff leaves for later); the first top values at the
 * peak the whole one's; completed (hd_diff_complete), the whole listing
 * and peak byte for byte, and the match's how.  The listing whose
 * unchanged entries are left unsorted (hd_diff_compute_sides_listed)
 * likewise.
 *
 * Each dump of tests/data (and of $HD_CORPUS when set) is compared
 * with the one before it, for several tops.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlodiff/diff.h"
#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

static const uint32_t tops[] = { 0, 1, 3, 20, UINT32_MAX };

static char prev[4096];

static const struct hd_value_diff *entry(const struct hd_diff *df, size_t i)
{
	return &HD_VEC_AT(&df->values, struct hd_value_diff, i);
}

static const struct hd_peak_value *peak_entry(const struct hd_diff *df,
					      size_t i)
{
	return &HD_VEC_AT(&df->peak.values, struct hd_peak_value, i);
}

/* Are a and b the same entry, but for how (a partial diff has not
 * told the structural pairs exact yet)? */
static int same_but_how(const struct hd_value_diff *a,
			const struct hd_value_diff *b)
{
	struct hd_value_diff x = *a, y = *b;

	x.how = y.how = 0;
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/* Is x one of the differing entries of whole past its first k? */
static int in_rest(const struct hd_diff *whole, size_t k,
		   const struct hd_value_diff *x, unsigned char *seen)
{
	size_t i;

	for (i = k; i < whole->n_listed; i++)
		if (!seen[i] && same_but_how(entry(whole, i), x)) {
			seen[i] = 1;
			return 1;
		}
	return 0;
}

static void check_top(const char *name, const struct hd_dump *old,
		      const struct hd_dump *nw, const struct hd_diff *whole,
		      uint32_t top)
{
	struct hd_diff_side os, ns;
	struct hd_diff df;
	size_t i, k, bad = 0;
	unsigned char *seen;

	hd_diff_side_prepare(&os, old);
	hd_diff_side_prepare(&ns, nw);
	hd_diff_compute_sides_top(&df, &os, &ns, 0, top);
	k = top < whole->n_listed ? top : whole->n_listed;
	bad += df.n_listed != whole->n_listed || df.values.len != df.n_listed ||
	       df.n_top < k || df.n_matched != whole->n_matched ||
	       df.n_changed != whole->n_changed;
	for (i = 0; !bad && i < k; i++)
		bad += !same_but_how(entry(&df, i), entry(whole, i));
	/* the others: each a differing entry of the rest (small inputs:
	 * a quadratic search is fine) */
	seen = calloc(whole->n_listed + 1, 1);
	if (!seen)
		bail("out of memory");
	for (i = k; !bad && i < df.values.len && df.values.len < 5000; i++)
		bad += !in_rest(whole, k, entry(&df, i), seen);
	free(seen);
	/* the peak's values: the first top as the whole one's, and all of
	 * them there */
	bad += df.peak.values.len != whole->peak.values.len;
	for (i = 0; !bad && i < k && i < df.peak.values.len; i++)
		bad += memcmp(peak_entry(&df, i), peak_entry(whole, i),
			      sizeof(struct hd_peak_value)) != 0;
	hd_diff_complete(&df);
	bad += df.peak.partial || df.peak.values.len != whole->peak.values.len;
	bad += memcmp(df.match.how, whole->match.how, whole->match.n_old) != 0;
	bad += memcmp(df.match.count, whole->match.count,
		      sizeof(whole->match.count)) != 0;
	for (i = 0; !bad && i < df.peak.values.len; i++)
		bad += memcmp(peak_entry(&df, i), peak_entry(whole, i),
			      sizeof(struct hd_peak_value)) != 0;
	bad += df.partial || df.values.len != whole->values.len;
	for (i = 0; !bad && i < df.values.len; i++)
		bad += memcmp(entry(&df, i), entry(whole, i),
			      sizeof(struct hd_value_diff)) != 0;
	is_int(0, (long long)bad, "%s: top %u, then completed", name,
	       (unsigned)top);
	hd_diff_release(&df);
}

/*
 * hd_diff_compute_sides_listed: the differing entries, the peak and the
 * match as the whole diff's; the others there (as many); completed,
 * the whole listing byte for byte.
 */
static void check_listed(const char *name, const struct hd_dump *old,
			 const struct hd_dump *nw, const struct hd_diff *whole)
{
	struct hd_diff_side os, ns;
	struct hd_diff df;
	size_t i, bad = 0;

	hd_diff_side_prepare(&os, old);
	hd_diff_side_prepare(&ns, nw);
	hd_diff_compute_sides_listed(&df, &os, &ns, 0);
	bad += df.partial || df.n_listed != whole->n_listed ||
	       df.values.len != whole->values.len ||
	       df.n_matched != whole->n_matched ||
	       df.n_changed != whole->n_changed ||
	       df.n_added != whole->n_added || df.n_removed != whole->n_removed;
	bad += df.rest_unsorted != 1;
	for (i = 0; !bad && i < df.n_listed; i++)
		bad += memcmp(entry(&df, i), entry(whole, i),
			      sizeof(struct hd_value_diff)) != 0;
	for (i = df.n_listed; !bad && i < df.values.len; i++)
		bad += entry(&df, i)->status != HD_STATUS_MATCHED ||
		       entry(&df, i)->changes != 0;
	bad += df.peak.values.len != whole->peak.values.len;
	for (i = 0; !bad && i < df.peak.values.len; i++)
		bad += memcmp(peak_entry(&df, i), peak_entry(whole, i),
			      sizeof(struct hd_peak_value)) != 0;
	bad += memcmp(df.match.how, whole->match.how, whole->match.n_old) != 0;
	hd_diff_complete(&df);
	bad += df.rest_unsorted || df.values.len != whole->values.len;
	for (i = 0; !bad && i < df.values.len; i++)
		bad += memcmp(entry(&df, i), entry(whole, i),
			      sizeof(struct hd_value_diff)) != 0;
	is_int(0, (long long)bad, "%s: differing entries sorted alone, then completed",
	       name);
	hd_diff_release(&df);
}

static void check(const char *path)
{
	struct hd_dump old, nw;
	struct hd_diff whole;
	size_t t;

	if (!prev[0]) {
		snprintf(prev, sizeof(prev), "%s", path);
		return;
	}
	if (hd_parse_file(&old, prev, HD_PARSE_NO_SIBLINGS) < 0 ||
	    hd_parse_file(&nw, path, HD_PARSE_NO_SIBLINGS) < 0)
		bail("cannot parse %s or %s", prev, path);
	hd_diff_compute(&whole, &old, &nw, 0);
	for (t = 0; t < sizeof(tops) / sizeof(tops[0]); t++)
		check_top(path, &old, &nw, &whole, tops[t]);
	check_listed(path, &old, &nw, &whole);
	hd_diff_release(&whole);
	hd_dump_release(&old);
	hd_dump_release(&nw);
	snprintf(prev, sizeof(prev), "%s", path);
}

int main(void)
{
	plan_lazy();
	tap_each_test_dump(check);
	tap_each_corpus_dump(check);
	return 0;
}
