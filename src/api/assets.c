/* GET /api/assets/{id}: the images and files workflows produced or were
 * given, sent by api_asset_send (asset_send.c); markup a browser would
 * show as a page of this site is sent as a download; with ?format=png,
 * as a PNG (asset_png.c). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "store/store.h"
#include "util/xmalloc.h"

/* The media type without parameters or blanks: its length from *t on. */
static size_t api_asset_type_len(const char **t)
{
	size_t n;

	*t += strspn(*t, " \t");
	n = strcspn(*t, ";");
	while (n > 0 && ((*t)[n - 1] == ' ' || (*t)[n - 1] == '\t'))
		n--;
	return n;
}

static int api_asset_type_in(const char *t, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncasecmp(t, *list, n) == 0)
			return 1;
	return 0;
}

/* Pictures a browser draws and text it shows as text: anything else a
 * user stored (markup, any XML type with SVG among them, script, types
 * nobody knows) is sent as a download, never shown as a page of this
 * site. The app reads files with fetch and shows pictures with <img>,
 * which both ignore the attachment. */
int api_asset_active(const char *ctype)
{
	static const char *const passive[] = { "image/png", "image/jpeg", "image/gif", "image/webp",
					       "text/plain", NULL };
	size_t n;

	if (ctype == NULL)
		return 1;
	n = api_asset_type_len(&ctype);
	return !api_asset_type_in(ctype, n, passive);
}

/* The type an asset is sent as: its own, but for a text type that a
 * browser would run as script (a <script> element ignores a download),
 * which goes as plain text. New string. */
static char *api_asset_served_type(const char *ctype)
{
	static const char *const script[] = { "text/javascript", "application/javascript",
					      "application/ecmascript", "text/ecmascript",
					      "application/x-javascript", "text/jscript",
					      "module", NULL };
	const char *t = ctype ? ctype : "application/octet-stream";
	size_t n = api_asset_type_len(&t);

	if (api_asset_type_in(t, n, script))
		return xstrdup("text/plain; charset=utf-8");
	return xstrdup(ctype ? ctype : "application/octet-stream");
}

enum problem api_asset_get(struct req *r)
{
	char *ctype = NULL, *served, *format = req_query_get(r, "format");
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
	/* Shown by the app as a picture or as text, never as a page. */
	served = api_asset_served_type(ctype);
	api_asset_send(r, r->captures[0], served, data, len,
		       api_asset_active(ctype) ? "Content-Disposition: attachment\r\n" : NULL);
	free(served);
	free(ctype);
	free(data);
	return PB_OK;
}
