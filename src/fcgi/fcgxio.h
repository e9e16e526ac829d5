/* A request's two byte streams (io.h) over libfcgi's, and the end of the
 * request: what the worker serves with, and what the unit tests drive
 * over a real socket. */
#ifndef AV_FCGXIO_H
#define AV_FCGXIO_H
#include <fcgiapp.h>
#include "fcgi/io.h"

/* The streams are borrowed: they live as long as libfcgi's request. */
struct io_in fcgxio_in(FCGX_Stream *in);
struct io_out fcgxio_out(FCGX_Stream *out);
/* Ends the request in FCGX_Finish_r's place. quick_close: the connection
 * is a Unix socket, closed without the lingering close once its input was
 * read to the end. A response whose write failed (its deadline passed,
 * or the web server closed the connection) is given up: the connection
 * is closed at once. */
void fcgxio_finish(FCGX_Request *fr, int quick_close);

#endif
