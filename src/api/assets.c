/* GET /api/assets/{id}: the images and files workflows produced or were
 * given, immutable, with an ETag, and a policy that keeps an SVG from
 * running script. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "store/store.h"

enum problem api_asset_get(struct req *r)
{
	char *ctype = NULL, etag[64], extra[512];
	const char *inm = req_param(r, "HTTP_IF_NONE_MATCH");
	void *data = NULL;
	size_t len = 0;
	int rc;

	if (r->app->store == NULL)
		return req_fail(r, PB_STORE_UNAVAILABLE, APP_STORE_DOWN);
	snprintf(etag, sizeof etag, "\"%s\"", r->captures[0]);
	/* An SVG could carry script: the policy lets it show, never run. */
	snprintf(extra, sizeof extra,
		 "ETag: %s\r\nCache-Control: private, max-age=31536000, immutable\r\n"
		 "Content-Security-Policy: default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
		 "sandbox\r\n", etag);
	/* Looked up first: a 304 says the asset exists, so only one that does gets it. */
	rc = store_asset_get(r->app->store, r->captures[0], &ctype, &data, &len);
	if (rc == DB_NOTFOUND)
		return req_fail(r, PB_NOT_FOUND, "no asset %s", r->captures[0]);
	if (rc)
		return req_fail(r, PB_STORE_UNAVAILABLE, "reading the asset: %s", db_strerror(rc));
	if (inm && strstr(inm, etag))
		req_send_headers(r, 304, ctype, extra);
	else if (req_send_headers(r, 200, ctype, extra) == 0 && strcmp(r->method, "HEAD") != 0)
		req_write(r, data, len);
	free(ctype);
	free(data);
	return PB_OK;
}
