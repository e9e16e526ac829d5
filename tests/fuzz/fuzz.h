/* Helpers shared by the fuzz targets: request streams over the input. */
#ifndef AV_FUZZ_H
#define AV_FUZZ_H
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include "fcgi/io.h"
#include "util/buf.h"

struct fuzz_io {
	const char *in;
	size_t len, pos;
	struct buf out;
};

/* Copies bytes up to a NUL (or the end, or n - 1) into dst. */
static inline void fuzz_take(const char **p, const char *end, char *dst, size_t n)
{
	size_t i = 0;

	while (*p < end && **p && i + 1 < n)
		dst[i++] = *(*p)++;
	dst[i] = '\0';
	if (*p < end)
		(*p)++;
}

static inline ssize_t fuzz_read(void *ctx, char *p, size_t n)
{
	struct fuzz_io *io = ctx;
	size_t k = io->len - io->pos < n ? io->len - io->pos : n;

	memcpy(p, io->in + io->pos, k);
	io->pos += k;
	return (ssize_t)k;
}

static inline int fuzz_write(void *ctx, const char *p, size_t n)
{
	struct fuzz_io *io = ctx;

	buf_reset(&io->out);
	return buf_add(&io->out, p, n < 4096 ? n : 4096);
}

static inline int fuzz_flush(void *ctx)
{
	return 0;
}

static inline void fuzz_io_init(struct fuzz_io *io, const char *in, size_t len)
{
	io->in = in;
	io->len = len;
	io->pos = 0;
	buf_init(&io->out, 1 << 16);
}

static inline void fuzz_io_free(struct fuzz_io *io)
{
	buf_free(&io->out);
}

static inline struct io_in fuzz_in(struct fuzz_io *io)
{
	struct io_in in = { fuzz_read, io };
	return in;
}

static inline struct io_out fuzz_out(struct fuzz_io *io)
{
	struct io_out out = { fuzz_write, fuzz_flush, io };
	return out;
}

#endif
