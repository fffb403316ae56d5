/*
 * filename.c - what the file name of a dump says: the module's name, as
 * XLA spells it in the names of its dumps (filename.h).
 */
#include "hlodiff/filename.h"

#include <string.h>
#include <sys/stat.h>

#include "hlodiff/str.h"

/* Offset just past "module_<digits>." in s[0..n), or 0 when absent: at
 * the start, after "<digits>." (a timestamp) or after "__". */
static size_t after_module_prefix(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i++) {
		size_t k = i + 7;
		int ok_before = i == 0 ||
			(i >= 2 && s[i - 1] == '_' && s[i - 2] == '_');

		if (i > 0 && s[i - 1] == '.') {
			size_t j = 0;
			while (j < i - 1 && hd_is_digit(s[j]))
				j++;
			ok_before = j == i - 1 && j > 0;
		}
		if (!ok_before || memcmp(s + i, "module_", 7) != 0)
			continue;
		while (k < n && hd_is_digit(s[k]))
			k++;
		if (k > i + 7 && k < n && s[k] == '.')
			return k + 1;
		if (k > i + 7 && k == n)
			return n;
	}
	return 0;
}

/*
 * Length of s[0..n) without the stage after its last '.'; a GPU stage
 * "sm_8.0_gpu_..." has a '.' of its own.  0 when s is all stage.
 */
static size_t without_stage(const char *s, size_t n)
{
	size_t dot = n, k;

	while (dot > 0 && s[dot - 1] != '.')
		dot--;
	if (dot == 0)
		return 0;
	dot--;
	if (dot + 1 < n && hd_is_digit(s[dot + 1])) {
		k = dot;
		while (k > 0 && hd_is_digit(s[k - 1]))
			k--;
		if (k < dot && k >= 3 && memcmp(s + k - 3, "sm_", 3) == 0) {
			if (k == 3)
				return 0;
			if (s[k - 4] == '.')
				return k - 4;
		}
	}
	return dot;
}

/* Length without a trailing ".cl_<digits>". */
static size_t without_cl(const char *s, size_t n)
{
	size_t k = n;

	while (k > 0 && hd_is_digit(s[k - 1]))
		k--;
	if (k < n && k >= 4 && memcmp(s + k - 4, ".cl_", 4) == 0)
		return k - 4;
	return n;
}

static int copy_name(char *buf, size_t n, const char *s, size_t len)
{
	if (n == 0)
		return -1;
	if (len >= n) {
		memcpy(buf, s, n - 1);
		buf[n - 1] = '\0';
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	return len ? 0 : -1;
}

int hd_module_name_from_path(const char *path, char *buf, size_t n)
{
	const char *base, *s;
	size_t len, start;

	if (n)
		buf[0] = '\0';
	if (!path || strcmp(path, "-") == 0)
		return -1;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	len = strlen(base);
	if (hd_ends_with(base, len, ".gz"))
		len -= 3;
	if (hd_ends_with(base, len, "-buffer-assignment.txt"))
		len -= strlen("-buffer-assignment.txt");
	else if (hd_ends_with(base, len, "-buffer-assignment-values.txt"))
		len -= strlen("-buffer-assignment-values.txt");
	else if (hd_ends_with(base, len, "-memory-usage-report.txt"))
		len -= strlen("-memory-usage-report.txt");
	else if (hd_ends_with(base, len, ".txt"))
		return copy_name(buf, n, base, len - 4);
	else
		return copy_name(buf, n, base, len);
	start = after_module_prefix(base, len);
	if (start == 0) {
		size_t k = without_stage(base, len);
		return copy_name(buf, n, base, without_cl(base, k ? k : len));
	}
	s = base + start;
	len -= start;
	len = without_cl(s, without_stage(s, len));
	return copy_name(buf, n, s, len);
}

int hd_is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
