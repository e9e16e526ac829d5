/* The deadline on the worker's writes to the web server ([server]
 * write_timeout_ms). libfcgi writes with a blocking write() on the
 * connection: with a send timeout on that socket, a write that moves no
 * byte for that long fails (EAGAIN), libfcgi marks the stream in error,
 * and every later write and flush of the request fails at once, so the
 * request ends and the worker is free for the next one. A client that
 * stopped reading (the web server's buffers full) holds a worker this
 * long at most per write, not until the web server gives up. */
#ifndef AV_WTIMEOUT_H
#define AV_WTIMEOUT_H

/* Sets the deadline on a connected socket. 0, or -1 (errno). */
int wtimeout_set(int fd, long ms);
/* True when a stream error (FCGX_GetError) is that deadline passing. */
int wtimeout_passed(int err);

#endif
