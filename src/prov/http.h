/* The HTTP engine of the model providers: a set of transfers run together
 * on one curl multi handle, in one loop, so N slow calls (image tasks
 * polled for a minute) take the time of one. A transfer answers one
 * prov_answer and is a small state machine: after each exchange a
 * callback of the vendor reads the reply and either ends the transfer or
 * sets the next exchange, possibly after a delay (poll a task again, then
 * download the image). The engine owns what every call shares: the key in
 * the Authorization header, the time limits, the retries with backoff on
 * connection errors, 429 and 5xx (honouring Retry-After), the size cap,
 * and the mapping of failures to prov_status. A file a provider's answer
 * links to is downloaded under the [fetch] address rules, as a URL a user
 * gives is: the link comes from outside, only the configured base URLs are
 * trusted. */
#ifndef AV_PROV_HTTP_H
#define AV_PROV_HTTP_H
#include <stddef.h>
#include <jansson.h>
#include "conf/conf.h"
#include "prov/prov.h"
#include "util/buf.h"

struct http;            /* transfers run together */
struct http_xfer;       /* one transfer: the exchanges behind one answer */

enum http_flag {
	HTTP_AUTH = 1 << 0,      /* send Authorization: Bearer <the role's key> */
	HTTP_STREAM = 1 << 1,    /* a 2xx text/event-stream body goes to cb->stream as it comes */
	HTTP_DOWNLOAD = 1 << 2,  /* a file (an image the provider made): a few
				  * http(s) redirects are followed, each hop and every
				  * address connected to checked by the [fetch] rules, no
				  * proxy, no connection shared; never with HTTP_AUTH */
};

/* The reply to the current exchange. */
struct http_reply {
	long status;
	struct buf body;        /* the body, capped (empty when it was streamed) */
	char ctype[128];        /* the Content-Type header, or "" */
};

struct http_cb {
	/* A 2xx reply. Fills the answer or fails it (prov_fail), or sets the
	 * next exchange with http_xfer_send; the transfer ends when it
	 * returns without doing so. It may take the body (buf_steal). */
	void (*reply)(struct http_xfer *x, struct http_reply *r, void *ctx);
	/* HTTP_STREAM: the bytes of a 2xx event stream as they arrive. 0, or
	 * -1 to stop the transfer (after prov_fail on its answer). */
	int (*stream)(struct http_xfer *x, const char *p, size_t n, void *ctx);
	/* The transfer has ended, however (its answer tells). May be NULL. */
	void (*done)(struct http_xfer *x, void *ctx);
};

/* c: the configuration whose [fetch] rules downloads follow; hooks (may
 * be NULL) get tick calls while the set runs. Both borrowed. */
struct http *http_new(const struct conf *c, const struct prov_hooks *hooks);
/* Frees the set and every transfer in it. http_free(NULL) does nothing. */
void http_free(struct http *h);

/* A new transfer answering *answer, under cf's key, retries and cap (cf
 * and answer are borrowed and must outlive the set). timeout_ms bounds
 * the whole transfer, every exchange, wait and retry included; 0: the
 * role's timeout_ms. Nothing happens until http_xfer_send. */
struct http_xfer *http_add(struct http *h, const struct conf_provider *cf, long timeout_ms,
			   const struct http_cb *cb, void *ctx, struct prov_answer *answer);
/* Sets the next exchange of x: method "GET" or "POST", url (copied),
 * body sent as JSON (borrowed, serialised here; NULL: none), flags
 * (enum http_flag), started delay_ms from now. */
void http_xfer_send(struct http_xfer *x, const char *method, const char *url, const json_t *body,
		    int flags, long delay_ms);
/* One part of a multipart form (copied by http_xfer_send_form). */
struct http_part {
	const char *name;
	const void *data;
	size_t len;
	const char *filename;   /* NULL: a plain field */
	const char *type;       /* NULL: none */
};

/* Sets the next exchange of x as a multipart/form-data POST. */
void http_xfer_send_form(struct http_xfer *x, const char *url, const struct http_part *parts,
			 size_t n, int flags);
/* Runs every transfer to its end. */
void http_run(struct http *h);

/* Milliseconds left before x's deadline (0 when past). */
long http_xfer_left_ms(const struct http_xfer *x);

/* base and path joined with one '/'. New string. */
char *http_url(const char *base, const char *path);
/* The media type of image bytes by their signature (PNG, JPEG, GIF,
 * WebP), or NULL. */
const char *http_image_sniff(const void *p, size_t n);
/* A downloaded image into the answer: data, len and mime (the
 * Content-Type must be an image type, or a generic one over bytes that are
 * recognisably an image). Takes the body. 0, or -1 after prov_fail. */
int http_take_image(struct http_reply *r, struct prov_answer *a);

#endif
