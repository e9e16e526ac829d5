/* Growable, capped byte buffer (see buf.h). */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/buf.h"
#include "util/xmalloc.h"

void buf_init(struct buf *b, size_t cap)
{
	b->data = NULL;
	b->len = 0;
	b->alloc = 0;
	b->cap = cap;
}

void buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b, b->cap);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

static int buf_grow(struct buf *b, size_t need)
{
	size_t n;

	if (need > b->cap || need + 1 < need)
		return -1;
	if (need + 1 <= b->alloc)
		return 0;
	n = b->alloc ? b->alloc : 64;
	while (n < need + 1)
		n *= 2;
	if (n > b->cap + 1)
		n = b->cap + 1;
	b->data = xrealloc(b->data, n);
	b->alloc = n;
	return 0;
}

int buf_add(struct buf *b, const void *p, size_t n)
{
	if (n > b->cap - b->len || buf_grow(b, b->len + n) < 0)
		return -1;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int buf_reserve(struct buf *b, size_t n)
{
	if (n > b->cap - b->len)
		return -1;
	return buf_grow(b, b->len + n);
}

int buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	rc = buf_add(b, s, (size_t)n);
	free(s);
	return rc;
}

char *buf_steal(struct buf *b)
{
	char *p = b->data ? b->data : xstrdup("");

	buf_init(b, b->cap);
	return p;
}
