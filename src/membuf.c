/*
 * membuf.c - a stdio stream writing into a growing hd_vec (membuf.h).
 */
#include "hlodiff/membuf.h"

#include <string.h>
#include <sys/types.h>

#include "hlodiff/diag.h"

static FILE *opened(FILE *f)
{
	if (!f)
		hd_die("out of memory");
	return f;
}

static ssize_t membuf_write(void *cookie, const char *buf, size_t size)
{
	struct hd_membuf *m = cookie;
	struct hd_vec *v = &m->text;

	if (size == 0)
		return 0;
	/* room for the NUL after it (hd_vec_reserve dies when out of
	 * memory, as every allocation here does) */
	hd_vec_reserve(v, v->len + size + 1);
	memcpy((char *)v->data + v->len, buf, size);
	v->len += size;
	((char *)v->data)[v->len] = '\0';
	return (ssize_t)size;
}

FILE *hd_membuf_open(struct hd_membuf *m)
{
	static const cookie_io_functions_t io = { NULL, membuf_write, NULL, NULL };

	memset(m, 0, sizeof(*m));
	m->text.elem = 1;
	return opened(fopencookie(m, "w", io));
}

FILE *hd_memstream_open(char **p, size_t *n)
{
	return opened(open_memstream(p, n));
}

void hd_memstream_close(FILE *f)
{
	if (fclose(f) != 0)
		hd_die("out of memory");
}

const char *hd_membuf_text(const struct hd_membuf *m)
{
	return m->text.len ? (const char *)m->text.data : "";
}

size_t hd_membuf_len(const struct hd_membuf *m)
{
	return m->text.len;
}

void hd_membuf_release(struct hd_membuf *m)
{
	hd_vec_release(&m->text);
}
