/* The two byte streams of a request, as function pointers, so the request
 * layer and the SSE writer run the same over libfcgi and over a buffer in
 * the unit tests. */
#ifndef AV_IO_H
#define AV_IO_H
#include <stddef.h>
#include <sys/types.h>

struct io_in {
	/* Bytes read, 0 at end of input, -1 on error. */
	ssize_t (*read)(void *ctx, char *p, size_t n);
	void *ctx;
};

struct io_out {
	/* 0, or -1 when the peer is gone. */
	int (*write)(void *ctx, const char *p, size_t n);
	int (*flush)(void *ctx);
	void *ctx;
};

#endif
