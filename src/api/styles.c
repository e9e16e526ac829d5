/* GET /api/styles: the style library the image workflow retrieves from,
 * for the browser to list; with ?q=TEXT, what a search for TEXT finds,
 * so people can see why a style was or was not added to a prompt. The
 * library changes only when its file does, so answers are cacheable and
 * carry an ETag made from the file's digest (and the query). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <sodium.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "kb/kb.h"
#include "util/jnum.h"

#define API_STYLES_RESULTS 10

/* The ETag: the file's digest, or a digest of it and the query. */
static void api_styles_etag(const struct kb *kb, const char *q, char *out, size_t outlen)
{
	unsigned char h[16];
	char hex[33];
	crypto_generichash_state st;

	if (q == NULL) {
		snprintf(out, outlen, "\"%s\"", kb_digest(kb));
		return;
	}
	crypto_generichash_init(&st, NULL, 0, sizeof h);
	crypto_generichash_update(&st, (const unsigned char *)kb_digest(kb), strlen(kb_digest(kb)));
	crypto_generichash_update(&st, (const unsigned char *)"?q=", 3);
	crypto_generichash_update(&st, (const unsigned char *)q, strlen(q));
	crypto_generichash_final(&st, h, sizeof h);
	sodium_bin2hex(hex, sizeof hex, h, sizeof h);
	snprintf(out, outlen, "\"%s\"", hex);
}

/* True when the If-None-Match header names this ETag (or is "*"). */
static int api_styles_fresh(struct req *r, const char *etag)
{
	const char *inm = req_param(r, "HTTP_IF_NONE_MATCH");

	return inm && (strstr(inm, etag) != NULL || strcmp(inm, "*") == 0);
}

/* True when the query string has a "q" parameter, decodable or not. */
static int api_styles_has_q(const struct req *r)
{
	const char *p = r->query;

	return p && (strncmp(p, "q=", 2) == 0 || strcmp(p, "q") == 0 || strstr(p, "&q=") != NULL);
}

static int api_styles_utf8(const char *q)
{
	json_t *j = json_string(q);   /* new reference; NULL when not UTF-8 */
	int ok = j != NULL;

	json_decref(j);
	return ok;
}

/* The body: new reference. */
static json_t *api_styles_body(const struct kb *kb, const char *q)
{
	if (q)
		return json_pack("{s:s, s:o}", "query", q, "results",
				 kb_search(kb, q, API_STYLES_RESULTS, 0));
	return json_pack("{s:O, s:I}", "styles", kb_items(kb), "count", (json_int_t)kb_count(kb));
}

static void api_styles_send(struct req *r, const struct kb *kb, const char *q)
{
	char etag[40], extra[160];
	json_t *j;
	char *s;

	api_styles_etag(kb, q, etag, sizeof etag);
	snprintf(extra, sizeof extra, "ETag: %s\r\nCache-Control: public, max-age=300\r\n", etag);
	if (api_styles_fresh(r, etag)) {
		req_send_headers(r, 304, "application/json", extra);
		return;
	}
	j = api_styles_body(kb, q);
	s = json_dumps(j, JNUM_DUMP);
	json_decref(j);
	if (s && req_send_headers(r, 200, "application/json", extra) == 0 &&
	    strcmp(r->method, "HEAD") != 0 && req_write(r, s, strlen(s)) == 0)
		req_write(r, "\n", 1);
	free(s);
}

enum problem api_styles(struct req *r)
{
	struct kb *kb = kb_styles(r->app);
	char *q = req_query_get(r, "q");

	if (kb == NULL) {
		free(q);
		return req_fail(r, PB_INTERNAL, "the style library could not be loaded (the worker "
			       "log says why)");
	}
	if (q == NULL && api_styles_has_q(r))
		return req_fail(r, PB_BAD_REQUEST, "q is not valid URL-encoded text");
	if (q && !api_styles_utf8(q)) {
		free(q);
		return req_fail(r, PB_BAD_REQUEST, "q is not UTF-8 text");
	}
	api_styles_send(r, kb, q);
	free(q);
	return PB_OK;
}
