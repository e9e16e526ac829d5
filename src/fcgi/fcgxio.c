/* A request's byte streams over libfcgi's, and its end (see fcgxio.h).
 * Once libfcgi has marked a stream in error (a write that failed or
 * passed its deadline, see wtimeout.h), every later write and flush fails
 * at once: the error is checked after each call, since libfcgi still
 * copies into its buffer while there is room. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "fcgi/fcgxio.h"

#define FCGXIO_CHUNK 65536

static ssize_t fcgxio_read(void *ctx, char *p, size_t n)
{
	int k = FCGX_GetStr(p, n > FCGXIO_CHUNK ? FCGXIO_CHUNK : (int)n, ctx);

	if (k < 0 || (k == 0 && FCGX_GetError(ctx) != 0))
		return -1;
	return k;
}

static int fcgxio_write(void *ctx, const char *p, size_t n)
{
	while (n > 0) {
		int chunk = n > FCGXIO_CHUNK ? FCGXIO_CHUNK : (int)n;

		if (FCGX_PutStr(p, chunk, ctx) != chunk || FCGX_GetError(ctx) != 0)
			return -1;
		p += chunk;
		n -= (size_t)chunk;
	}
	return 0;
}

static int fcgxio_flush(void *ctx)
{
	return FCGX_FFlush(ctx) < 0 || FCGX_GetError(ctx) != 0 ? -1 : 0;
}

struct io_in fcgxio_in(FCGX_Stream *in)
{
	struct io_in io = { fcgxio_read, in };

	return io;
}

struct io_out fcgxio_out(FCGX_Stream *out)
{
	struct io_out io = { fcgxio_write, fcgxio_flush, out };

	return io;
}

/* libfcgi ends a connection with a lingering close: shutdown, then wait
 * (up to 2 s) for the web server to close its end, so that input the
 * worker did not read does not turn into a reset that loses the response.
 * On a Unix socket whose input was read to its end (the web server has
 * nothing more to send), the response is already in the web server's
 * queue when write returns, so the wait only keeps the worker from its
 * next request: there the descriptor is closed at once. A request without
 * a body has only the empty end-of-input record left, read here; a body
 * left unread (a 413) keeps the lingering close. */
static int fcgxio_input_done(FCGX_Request *fr)
{
	const char *cl = FCGX_GetParam("CONTENT_LENGTH", fr->envp);

	if (fr->in->isClosed)
		return 1;
	if (cl && *cl && strcmp(cl, "0") != 0)
		return 0;
	return FCGX_GetChar(fr->in) == EOF && fr->in->isClosed;
}

/* A response whose write failed is lost: closing at once skips the end
 * records FCGX_Finish_r would try to write (another wait of the deadline
 * on a web server that takes nothing) and the lingering close. The web
 * server sees the response end early, and the client reconnects. */
void fcgxio_finish(FCGX_Request *fr, int quick_close)
{
	if (FCGX_GetError(fr->out) != 0) {
		FCGX_Detach(fr);
		FCGX_Free(fr, 1);
		return;
	}
	if (quick_close && fcgxio_input_done(fr))
		FCGX_Detach(fr);
	FCGX_Finish_r(fr);
}
