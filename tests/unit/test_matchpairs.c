/*
 * test_matchpairs.c - prints the value pairs hd_match_values() makes,
 * for tests/t0310-twin.t (not a TAP test on its own).
 *
 *   test_matchpairs [--by-name] OLD NEW
 *	one line per value: "OLDKEY NEWKEY HOW", "OLDKEY - removed" or
 *	"- NEWKEY added"; keys are name{index} with the braces always
 *	printed.  Then "# how N" count lines.  Exit 0, 2 on input error.
 *   test_matchpairs --time OLD NEW
 *	parses both dumps, then matches them, and prints the seconds each
 *	step took ("parse S", "match S", "ratio R").
 *   test_matchpairs --canon DUMP
 *	one line per value: key, canonical and structural hashes, and the
 *	canonical text of its instruction (NULs shown as '|').
 *
 * Without arguments it skips (prove may run every unit binary).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hlodiff/canon.h"
#include "hlodiff/match.h"
#include "hlodiff/parse.h"
#include "tap.h"

static void print_key(const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);

	printf("%.*s%.*s", (int)val->name.n, val->name.p, (int)val->index_n,
	       hd_value_index(val).p);
}

static int print_pairs(const char *a, const char *b, unsigned flags)
{
	struct hd_dump old, new_dump;
	struct hd_match m;
	uint32_t i;
	int rc = 0;

	if (hd_parse_file(&old, a, 0) != 0)
		rc = 2;
	if (hd_parse_file(&new_dump, b, 0) != 0)
		rc = 2;
	if (rc == 0) {
		hd_match_values(&m, &old, &new_dump, flags);
		for (i = 0; i < m.n_old; i++) {
			print_key(&old, i);
			if (m.old_to_new[i] == HD_NONE) {
				printf(" - removed\n");
				continue;
			}
			putchar(' ');
			print_key(&new_dump, m.old_to_new[i]);
			printf(" %s\n", hd_match_how_name((enum hd_match_how)m.how[i]));
		}
		for (i = 0; i < m.n_new; i++) {
			if (m.new_to_old[i] != HD_NONE)
				continue;
			printf("- ");
			print_key(&new_dump, i);
			printf(" added\n");
		}
		for (i = 1; i < HD_MATCH_HOW_COUNT; i++)
			printf("# %s %u\n",
			       hd_match_how_name((enum hd_match_how)i), m.count[i]);
		printf("# added %u\n# removed %u\n", m.n_added, m.n_removed);
		hd_match_release(&m);
	}
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
	return rc;
}

static int print_canon(const char *path)
{
	struct hd_dump d;
	struct hd_canon c;
	char *buf = NULL;
	size_t cap = 0, n, k;
	uint32_t i;

	if (hd_parse_file(&d, path, 0) != 0) {
		hd_dump_release(&d);
		return 2;
	}
	hd_canon_compute(&c, &d);
	for (i = 0; i < c.n_values; i++) {
		print_key(&d, i);
		printf(" %016llx %016llx ",
		       (unsigned long long)c.value_canon[i],
		       (unsigned long long)c.value_struct[i]);
		if (c.value_insn[i] == HD_NONE) {
			printf("(no instruction)\n");
			continue;
		}
		n = hd_canon_insn_text(&HD_INSN(&d, c.value_insn[i]), &buf, &cap);
		for (k = 0; k < n; k++)
			putchar(buf[k] ? buf[k] : '|');
		putchar('\n');
	}
	printf("# cyclic %u\n", c.n_cyclic);
	free(buf);
	hd_canon_release(&c);
	hd_dump_release(&d);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int print_times(const char *a, const char *b)
{
	struct hd_dump old, new_dump;
	struct hd_match m;
	double t0, t1, t2;
	int rc = 0;

	t0 = now();
	if (hd_parse_file(&old, a, 0) != 0)
		rc = 2;
	if (hd_parse_file(&new_dump, b, 0) != 0)
		rc = 2;
	t1 = now();
	if (rc == 0) {
		hd_match_values(&m, &old, &new_dump, 0);
		t2 = now();
		printf("parse %.4f\nmatch %.4f\nratio %.3f\n", t1 - t0, t2 - t1,
		       (t2 - t1) / (t1 - t0));
		hd_match_release(&m);
	}
	hd_dump_release(&old);
	hd_dump_release(&new_dump);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--time") == 0)
		return print_times(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--canon") == 0)
		return print_canon(argv[2]);
	if (argc == 4 && strcmp(argv[1], "--by-name") == 0)
		return print_pairs(argv[2], argv[3], HD_MATCH_BY_NAME_ONLY);
	if (argc == 3)
		return print_pairs(argv[1], argv[2], 0);
	if (argc == 1)
		skip_all("helper for t0310-twin.t: needs OLD NEW arguments");
	fprintf(stderr, "usage: test_matchpairs [--by-name|--time] OLD NEW | --canon DUMP\n");
	return 2;
}
