/* Which requests come from this site: the Host a request names must be
 * one the site answers to ([server] allowed_hosts), so that a page whose
 * own DNS name was pointed at this server cannot read or drive it (DNS
 * rebinding); and a state-changing request (POST, PUT, PATCH, DELETE)
 * that a browser sends from another site's page (its Origin) is refused,
 * so that a page elsewhere cannot start, confirm or cancel anything.
 * Requests without these headers (curl, scripts) pass: both attacks need
 * a browser, and a browser always sends them. */
#ifndef AV_SITECHECK_H
#define AV_SITECHECK_H
#include <stddef.h>
#include "fcgi/problem.h"

struct req;

/* PB_OK, PB_MISDIRECTED (the Host is not one the site answers to) or
 * PB_FOREIGN_ORIGIN; detail says why. Reads HTTP_HOST, HTTP_ORIGIN,
 * SERVER_NAME and the method of r, and r->conf->allowed_hosts. */
enum problem sitecheck_request(const struct req *r, char *detail, size_t n);

/* Exposed for tests. host: the Host header (NULL: none); server_name: the
 * web server's SERVER_NAME (NULL: none); allowed: [server] allowed_hosts
 * ("" or NULL: server_name and the loopback names; "*": any). True when
 * the site answers to host. */
int sitecheck_host_ok(const char *host, const char *server_name, const char *allowed);
/* Exposed for tests. True when origin (an Origin header; NULL: none) is
 * this site: the same host and port as host (the Host header; NULL: then
 * SERVER_NAME, port not compared), or a name allowed lists by name. */
int sitecheck_origin_ok(const char *origin, const char *host, const char *server_name,
			const char *allowed);

#endif
