/*
 * scan.c - the scanners of scan.h that are not inlined.
 */
#include "hlodiff/scan.h"

size_t hd_scan_string_end(const char *p, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		size_t k, bs = 0;

		i = hd_scan_either(p, n, i, '"', '"', p + n);
		if (i >= n)
			return n;
		for (k = i; k > 0 && p[k - 1] == '\\'; k--)
			bs++;
		if (bs % 2 == 0)
			return i + 1;
	}
	return n;
}
