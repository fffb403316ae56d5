/*
 * format.c - number formatting shared by every report.
 */
#include "hlodiff/format.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

char *hd_human_bytes(char *buf, size_t n, int64_t bytes)
{
	static const char units[] = "KMGTPE";
	uint64_t mag;
	const char *sign = bytes < 0 ? "-" : "";
	int unit = 0;

	if (bytes == INT64_MIN) {
		snprintf(buf, n, "-8E");
		return buf;
	}
	mag = (uint64_t)(bytes < 0 ? -bytes : bytes);
	if (mag < 1024) {
		snprintf(buf, n, "%s%" PRIu64 "B", sign, mag);
		return buf;
	}
	/* Integer steps while at least 1 MiB, as XLA does, then one /1024.0. */
	while (mag >= 1024 * 1024 && unit < 5) {
		mag /= 1024;
		unit++;
	}
	snprintf(buf, n, unit == 0 ? "%s%.1f%ciB" : "%s%.2f%ciB", sign,
		 (double)mag / 1024.0, units[unit]);
	return buf;
}

char *hd_signed(char *buf, size_t n, int64_t v)
{
	snprintf(buf, n, v > 0 ? "+%" PRId64 : "%" PRId64, v);
	return buf;
}

int64_t hd_delta(int64_t old_v, int64_t new_v)
{
	int64_t d;

	if (__builtin_sub_overflow(new_v, old_v, &d))
		return new_v > old_v ? INT64_MAX : INT64_MIN;
	return d;
}

char *hd_percent(char *buf, size_t n, int64_t old_v, int64_t new_v)
{
	double pct;

	if (old_v == 0) {
		snprintf(buf, n, "%s", new_v == 0 ? "" : "new");
		return buf;
	}
	pct = ((double)new_v - (double)old_v) * 100.0 / (double)(old_v < 0 ? -old_v : old_v);
	if (pct > -0.05 && pct < 0.05)
		pct = 0.0;
	snprintf(buf, n, pct > 0 ? "+%.1f%%" : "%.1f%%", pct);
	return buf;
}

/*
 * Length of the well-formed UTF-8 sequence at p (n bytes available), or
 * 0: no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629).
 */
size_t hd_utf8_length(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t len, k;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (len > n || p[1] < lo || p[1] > hi)
		return 0;
	for (k = 2; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

void hd_mask_text(char *s)
{
	size_t i = 0, n = strlen(s);

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		/* the bytes of a character kept, 0 for a byte masked */
		size_t len = c < 0x80 ? c >= 0x20 && c != 0x7f :
			     hd_utf8_length((const unsigned char *)s + i, n - i);

		if (len)
			i += len;
		else
			s[i++] = '?';
	}
}

void hd_print_line(FILE *out, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = (int)sizeof(buf) - 1;
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	fwrite(buf, 1, (size_t)n, out);
	fputc('\n', out);
}
