/* The reply that carries an asset's bytes, shared by GET /api/assets/{id}
 * (assets.c) and its PNG form (asset_png.c): immutable, with an ETag, and
 * a policy that keeps an SVG from running script. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "api/api.h"
#include "fcgi/req.h"

void api_asset_send(struct req *r, const char *id, const char *ctype, const void *data,
		    size_t len, const char *more)
{
	const char *inm = req_param(r, "HTTP_IF_NONE_MATCH");
	char etag[64], extra[768];

	snprintf(etag, sizeof etag, "\"%s\"", id);
	/* An SVG could carry script: the policy lets it show, never run. */
	snprintf(extra, sizeof extra,
		 "ETag: %s\r\nCache-Control: private, max-age=31536000, immutable\r\n"
		 "Content-Security-Policy: default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
		 "sandbox\r\n%s", etag, more ? more : "");
	if (inm && strstr(inm, etag))
		req_send_headers(r, 304, ctype, extra);
	else if (req_send_headers(r, 200, ctype, extra) == 0 && strcmp(r->method, "HEAD") != 0)
		req_write(r, data, len);
}
