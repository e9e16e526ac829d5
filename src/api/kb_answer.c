/* GET on a knowledge base (see kb_answer.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <sodium.h>
#include "json/dump.h"
#include "api/kb_answer.h"
#include "fcgi/req.h"
#include "app.h"
#include "kb/kb.h"
#include "kb/retrieve.h"

/* The ETag: the file's digest, or a digest of it, the query, the limit
 * and how the search was made (method: "bm25", "hybrid", "fallback"). */
static void api_kb_etag(const struct kb *kb, const char *q, size_t limit, const char *method,
			char *out, size_t outlen)
{
	unsigned char h[16];
	char hex[33], lim[32];
	crypto_generichash_state st;

	if (q == NULL) {
		snprintf(out, outlen, "\"%s\"", kb_digest(kb));
		return;
	}
	snprintf(lim, sizeof lim, "&limit=%zu&method=%s", limit, method);
	crypto_generichash_init(&st, NULL, 0, sizeof h);
	crypto_generichash_update(&st, (const unsigned char *)kb_digest(kb), strlen(kb_digest(kb)));
	crypto_generichash_update(&st, (const unsigned char *)"?q=", 3);
	crypto_generichash_update(&st, (const unsigned char *)q, strlen(q));
	crypto_generichash_update(&st, (const unsigned char *)lim, strlen(lim));
	crypto_generichash_final(&st, h, sizeof h);
	sodium_bin2hex(hex, sizeof hex, h, sizeof h);
	snprintf(out, outlen, "\"%s\"", hex);
}

/* True when the If-None-Match header names this ETag (or is "*"). */
static int api_kb_fresh(struct req *r, const char *etag)
{
	const char *inm = req_param(r, "HTTP_IF_NONE_MATCH");

	return inm && (strstr(inm, etag) != NULL || strcmp(inm, "*") == 0);
}

/* True when the query string has parameter key, decodable or not. */
static int api_kb_has(const struct req *r, const char *key)
{
	const char *p = r->query;
	size_t n = strlen(key);

	while (p && *p) {
		if (strncmp(p, key, n) == 0 && (p[n] == '=' || p[n] == '&' || p[n] == '\0'))
			return 1;
		p = strchr(p, '&');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

static int api_kb_utf8(const char *q)
{
	json_t *j = json_string(q);   /* new reference; NULL when not UTF-8 */
	int ok = j != NULL;

	json_decref(j);
	return ok;
}

/* ?limit=N: 0 and *limit set, or -1 when it is not a whole number in
 * 1..API_KB_RESULTS_MAX. */
static int api_kb_limit(const struct req *r, size_t *limit)
{
	char *s = req_query_get(r, "limit"), *end = NULL;
	long v = s ? strtol(s, &end, 10) : API_KB_RESULTS;
	int bad = api_kb_has(r, "limit") &&
		  (s == NULL || end == s || *end != '\0' || v < 1 || v > API_KB_RESULTS_MAX);

	free(s);
	*limit = (size_t)v;
	return bad ? -1 : 0;
}

/* The body: new reference; *method says how a search was made. The
 * search is made first (its query vector is cached): the ETag depends on
 * how it was made. */
static json_t *api_kb_body(struct req *r, struct kb *kb, const char *list_key, const char *q,
			   size_t limit, enum kb_method *method)
{
	struct kb_retrieve_info info;
	json_t *res;

	*method = KB_METHOD_BM25;
	if (q == NULL)
		return json_pack("{s:O, s:I}", list_key, kb_items(kb), "count",
				 (json_int_t)kb_count(kb));
	res = kb_retrieve(r->app, kb, q, limit, 0, &info);
	*method = info.method;
	return json_pack("{s:s, s:s, s:b, s:o}", "query", q, "method",
			 info.method == KB_METHOD_HYBRID ? "hybrid" : "bm25", "fallback",
			 info.method == KB_METHOD_FALLBACK, "results", res);
}

static void api_kb_send(struct req *r, struct kb *kb, const char *list_key, const char *q,
			size_t limit)
{
	char etag[40], extra[160];
	enum kb_method method;
	json_t *j = api_kb_body(r, kb, list_key, q, limit, &method);
	char *s;

	api_kb_etag(kb, q, limit, kb_method_name(method), etag, sizeof etag);
	/* Results found without the embeddings are not kept: the next
	 * request may have them again. */
	snprintf(extra, sizeof extra, "ETag: %s\r\nCache-Control: %s\r\n", etag,
		 method == KB_METHOD_FALLBACK ? "no-store" : "public, max-age=300");
	if (api_kb_fresh(r, etag)) {
		json_decref(j);
		req_send_headers(r, 304, "application/json", extra);
		return;
	}
	s = jdump(j);
	json_decref(j);
	if (s && req_send_headers(r, 200, "application/json", extra) == 0 &&
	    strcmp(r->method, "HEAD") != 0 && req_write(r, s, strlen(s)) == 0)
		req_write(r, "\n", 1);
	free(s);
}

enum problem api_kb_answer(struct req *r, struct kb *kb, const char *list_key)
{
	char *q = req_query_get(r, "q");
	size_t limit;

	if (q == NULL && api_kb_has(r, "q"))
		return req_fail(r, PB_BAD_REQUEST, "q is not valid URL-encoded text");
	if (q && !api_kb_utf8(q)) {
		free(q);
		return req_fail(r, PB_BAD_REQUEST, "q is not UTF-8 text");
	}
	if (api_kb_limit(r, &limit) < 0) {
		free(q);
		return req_fail(r, PB_BAD_REQUEST, "limit must be a whole number from 1 to %d",
				API_KB_RESULTS_MAX);
	}
	api_kb_send(r, kb, list_key, q, limit);
	free(q);
	return PB_OK;
}
