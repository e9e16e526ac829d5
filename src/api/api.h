/* The HTTP API under /api/: one handler per endpoint, collected in the
 * route table of dispatch.c. */
#ifndef AV_API_H
#define AV_API_H
#include "fcgi/problem.h"

struct req;

/* Answers one request: routes it, runs the handler, reports a failure
 * once. Never exits. */
void api_dispatch(struct req *r);

enum problem api_health(struct req *r);
enum problem api_stream_post(struct req *r);
enum problem api_stream_get(struct req *r);
enum problem api_confirm(struct req *r);
enum problem api_thread_get(struct req *r);
enum problem api_thread_history(struct req *r);
enum problem api_thread_cancel(struct req *r);
enum problem api_asset_get(struct req *r);
enum problem api_styles(struct req *r);
enum problem api_nodes(struct req *r);
enum problem api_agents(struct req *r);
enum problem api_workflows(struct req *r);

/* Shared by the handlers (stream.c). */
#include <jansson.h>
enum problem api_body_object(struct req *r, json_t **out);
int api_opt_string(struct req *r, const json_t *obj, const char *key, const char **out);
/* asset_send.c, for assets.c and asset_png.c: an asset's bytes with its ETag and
 * caching (a 304 for a matching If-None-Match; no body for HEAD); more:
 * header lines to add (each ending in \r\n), or NULL. */
#include <stddef.h>
void api_asset_send(struct req *r, const char *id, const char *ctype, const void *data,
		    size_t len, const char *more);
/* True when an asset of type ctype (parameters allowed) would be shown
 * by a browser as a page that can run script (HTML, XML, SVG): such a
 * one is sent as a download (Content-Disposition: attachment). */
int api_asset_active(const char *ctype);
/* GET /api/assets/{id}?format=...: the asset as a PNG (asset_png.c). */
enum problem api_asset_png(struct req *r, const char *format);

#endif
