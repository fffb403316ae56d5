/*
 * label.c - the "name{index}" label of a value (label.h).
 */
#include "hlodiff/label.h"

#include <string.h>

int hd_value_label(char *buf, size_t n, const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	size_t a = val->name.n, b = val->index_n;

	/* snprintf("%.*s%.*s") without the format walk: it is called for
	 * every value a JSON report lists */
	if (n == 0)
		return (int)(a + b);
	if (a > n - 1)
		a = n - 1;
	if (b > n - 1 - a)
		b = n - 1 - a;
	memcpy(buf, val->name.p, a);
	memcpy(buf + a, hd_value_index(val).p, b);
	buf[a + b] = '\0';
	return (int)(val->name.n + val->index_n);
}

char *hd_value_label_dup(const struct hd_dump *d, uint32_t v)
{
	const struct hd_value *val = &HD_VALUE(d, v);
	size_t n = val->name.n + val->index_n + 1;
	char *buf = hd_xmalloc(n);

	hd_value_label(buf, n, d, v);
	return buf;
}
