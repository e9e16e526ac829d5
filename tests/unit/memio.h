/* In-memory request streams for unit tests: the body comes from a string
 * in chunks of a chosen size; the response goes to a buffer, and can be
 * made to fail after a number of writes (a client that left). */
#ifndef AV_MEMIO_H
#define AV_MEMIO_H
#include <string.h>
#include <sys/types.h>
#include "fcgi/io.h"
#include "util/buf.h"

struct memio {
	const char *in;
	size_t in_len, in_pos, chunk;
	struct buf out;
	int writes_left;  /* -1: never fail */
	int flushes;
};

static inline ssize_t memio_read(void *ctx, char *p, size_t n)
{
	struct memio *m = ctx;
	size_t k = m->in_len - m->in_pos;

	if (k > n)
		k = n;
	if (m->chunk && k > m->chunk)
		k = m->chunk;
	memcpy(p, m->in + m->in_pos, k);
	m->in_pos += k;
	return (ssize_t)k;
}

static inline int memio_write(void *ctx, const char *p, size_t n)
{
	struct memio *m = ctx;

	if (m->writes_left == 0)
		return -1;
	if (m->writes_left > 0)
		m->writes_left--;
	return buf_add(&m->out, p, n);
}

static inline int memio_flush(void *ctx)
{
	struct memio *m = ctx;

	m->flushes++;
	return m->writes_left == 0 ? -1 : 0;
}

static inline void memio_init(struct memio *m, const char *in, size_t chunk)
{
	memset(m, 0, sizeof *m);
	m->in = in ? in : "";
	m->in_len = strlen(m->in);
	m->chunk = chunk;
	m->writes_left = -1;
	buf_init(&m->out, 1 << 24);
}

static inline struct io_in memio_in(struct memio *m)
{
	struct io_in in = { memio_read, m };
	return in;
}

static inline struct io_out memio_out(struct memio *m)
{
	struct io_out out = { memio_write, memio_flush, m };
	return out;
}

#endif
