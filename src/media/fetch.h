/* Fetching an image that a user names by URL (a base image to repaint):
 * http(s) only, every address the name resolves to checked before any
 * connection (loopback, private, link-local, metadata and other
 * non-public ranges refused unless the configuration allows them), the
 * connection pinned to the checked address, redirects followed by hand
 * and checked the same way, a size cap, an image content type. */
#ifndef AV_FETCH_H
#define AV_FETCH_H
#include <stddef.h>
#include <sys/socket.h>
#include "conf/conf.h"

struct fetch_result {
	unsigned char *data;   /* malloc'd */
	size_t len;
	char mime[64];
	char error[256];
};

/* 0 with out filled, or -1 with out->error. out is zeroed first. */
int fetch_image(const struct conf *c, const char *url, struct fetch_result *out);
void fetch_result_free(struct fetch_result *r);
/* True when an address is public (fetching it is allowed by default). */
int fetch_addr_public(const struct sockaddr *sa);
/* For a link that comes from outside but is fetched by other means (a
 * provider's image, see http.c): 0 when it is an http(s) URL with a host,
 * *trusted set when [fetch] lets its host be at any address (allow_private,
 * allow_hosts); the caller then checks every address it connects to with
 * fetch_addr_public unless trusted. Else -1 with err. */
int fetch_url_trust(const struct conf *c, const char *url, int *trusted, char *err, size_t errlen);

#endif
