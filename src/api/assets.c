/* GET /api/assets/{id}: the images and files workflows produced or were
 * given, immutable, with an ETag, and a policy that keeps an SVG from
 * running script; with ?format=png, as a PNG (asset_png.c). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "store/store.h"

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

enum problem api_asset_get(struct req *r)
{
	char *ctype = NULL, *format = req_query_get(r, "format");
	void *data = NULL;
	size_t len = 0;
	int rc;

	if (format) {
		enum problem p = api_asset_png(r, format);

		free(format);
		return p;
	}
	if (r->app->store == NULL)
		return req_fail(r, APP_STORE_PROBLEM(r->app), APP_STORE_DOWN);
	/* Looked up first: a 304 says the asset exists, so only one that does gets it. */
	rc = store_asset_get(r->app->store, r->captures[0], &ctype, &data, &len);
	if (rc == STORE_NOTFOUND)
		return req_fail(r, PB_NOT_FOUND, "no asset %s", r->captures[0]);
	if (rc)
		return req_fail(r, PB_STORE_UNAVAILABLE, "reading the asset: %s", store_strerror(rc));
	api_asset_send(r, r->captures[0], ctype, data, len, NULL);
	free(ctype);
	free(data);
	return PB_OK;
}
