/* The request layer (see req.h). */
#include "config.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <curl/curl.h>
#include "json/dump.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"
#include "util/xmalloc.h"

#define REQ_READ_CHUNK 16384

const char *req_param(const struct req *r, const char *name)
{
	size_t n = strlen(name);

	for (char **e = r->envp; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* Splits REQUEST_URI into path and query with libcurl's URL parser, so a
 * URI curl would not accept is refused here too. */
static enum problem req_split_uri(struct req *r)
{
	CURLU *u = curl_url();
	char *full, *path = NULL, *query = NULL;
	const char *api;
	CURLUcode rc;

	full = xasprintf("http://localhost%s", r->uri[0] == '/' ? r->uri : "/");
	rc = curl_url_set(u, CURLUPART_URL, full, 0);
	if (rc == CURLUE_OK)
		rc = curl_url_get(u, CURLUPART_PATH, &path, 0);
	if (rc == CURLUE_OK && curl_url_get(u, CURLUPART_QUERY, &query, 0) != CURLUE_OK)
		query = NULL;
	free(full);
	curl_url_cleanup(u);
	if (rc != CURLUE_OK) {
		curl_free(path);
		curl_free(query);
		return PB_BAD_REQUEST;
	}
	/* Routes are relative to the "/api/" segment, wherever the site mounts it. */
	api = strstr(path, "/api/");
	r->path = xstrdup(api ? api : path);
	r->query = query ? xstrdup(query) : NULL;
	curl_free(path);
	curl_free(query);
	return PB_OK;
}

enum problem req_init(struct req *r, const struct conf *c, char **envp,
		      struct io_in in, struct io_out out)
{
	memset(r, 0, sizeof *r);
	r->conf = c;
	r->envp = envp;
	r->in = in;
	r->out = out;
	buf_init(&r->body, (size_t)c->max_body_bytes);
	r->method = req_param(r, "REQUEST_METHOD");
	r->uri = req_param(r, "REQUEST_URI");
	if (r->method == NULL)
		r->method = "GET";
	if (r->uri == NULL)
		r->uri = req_param(r, "SCRIPT_NAME");
	if (r->uri == NULL)
		r->uri = "/";
	return req_split_uri(r);
}

void req_free(struct req *r)
{
	free(r->path);
	free(r->query);
	for (int i = 0; i < r->ncaptures; i++)
		free(r->captures[i]);
	buf_free(&r->body);
	r->path = r->query = NULL;
	r->ncaptures = 0;
}

long long req_parse_length(const char *s)
{
	long long n = 0;

	if (s == NULL || *s == '\0' || strlen(s) > 18)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

enum problem req_read_body(struct req *r)
{
	const char *cl = req_param(r, "CONTENT_LENGTH");
	long long want = -1;
	char chunk[REQ_READ_CHUNK];
	ssize_t n;

	if (r->body_read)
		return PB_OK;
	r->body_read = 1;
	if (cl && *cl) {
		want = req_parse_length(cl);
		if (want < 0)
			return PB_BAD_LENGTH;
		if (want > r->conf->max_body_bytes)
			return PB_TOO_LARGE;
	}
	while ((n = r->in.read(r->in.ctx, chunk, sizeof chunk)) > 0) {
		if (buf_add(&r->body, chunk, (size_t)n) < 0)
			return PB_TOO_LARGE;
		if (want >= 0 && (long long)r->body.len > want)
			return PB_BAD_LENGTH;
	}
	if (n < 0)
		return PB_BAD_REQUEST;
	if (want >= 0 && (long long)r->body.len != want)
		return PB_BAD_LENGTH;
	return PB_OK;
}

int req_json_depth_ok(const char *p, size_t n, long max)
{
	long depth = 0;
	int in_str = 0;

	for (size_t i = 0; i < n; i++) {
		char ch = p[i];

		if (in_str) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_str = 0;
		} else if (ch == '"') {
			in_str = 1;
		} else if (ch == '{' || ch == '[') {
			if (++depth > max)
				return 0;
		} else if (ch == '}' || ch == ']') {
			depth--;
		}
	}
	return 1;
}

/* True when ct's media type (type/subtype, before any ";" parameters,
 * spaces around it allowed) is exactly want, in any case. */
static int req_media_type_is(const char *ct, const char *want)
{
	size_t n = strlen(want), end;

	ct += strspn(ct, " \t");
	if (strncasecmp(ct, want, n) != 0)
		return 0;
	end = n + strspn(ct + n, " \t");
	return ct[end] == '\0' || ct[end] == ';';
}

int req_content_type_json(const char *ct)
{
	/* Only this: a page of another site can send text/plain, a form's
	 * types or no type at all without the browser asking first. */
	return ct != NULL && req_media_type_is(ct, "application/json");
}

static int req_content_type_ok(const struct req *r)
{
	return req_content_type_json(req_param(r, "CONTENT_TYPE"));
}

enum problem req_body_json(struct req *r, json_t **out, char *detail, size_t detail_len)
{
	enum problem p = req_read_body(r);
	json_error_t jerr;

	*out = NULL;
	if (p != PB_OK) {
		snprintf(detail, detail_len, "%s (limit %ld bytes)", problem_title(p),
			 r->conf->max_body_bytes);
		return p;
	}
	if (r->body.len > 0 && !req_content_type_ok(r)) {
		snprintf(detail, detail_len, "expected application/json");
		return PB_UNSUPPORTED_MEDIA;
	}
	if (!req_json_depth_ok(r->body.data, r->body.len, r->conf->json_max_depth)) {
		snprintf(detail, detail_len, "JSON nests deeper than %ld levels", r->conf->json_max_depth);
		return PB_JSON_TOO_DEEP;
	}
	*out = json_loadb(r->body.data ? r->body.data : "", r->body.len, JSON_REJECT_DUPLICATES, &jerr);
	if (*out == NULL) {
		snprintf(detail, detail_len, "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
		return PB_BAD_JSON;
	}
	return PB_OK;
}

/* Form-style decoding of one query component: '+' is a space, then %XX by
 * libcurl. A decoded NUL makes the value unusable. */
static char *req_query_decode(const char *p, size_t n)
{
	char *tmp = xstrndup(p, n), *dec, *out;
	int olen = 0;

	for (char *q = tmp; *q; q++)
		if (*q == '+')
			*q = ' ';
	dec = curl_easy_unescape(NULL, tmp, (int)n, &olen);
	free(tmp);
	if (dec == NULL)
		return NULL;
	if ((size_t)olen != strlen(dec)) {
		curl_free(dec);
		return NULL;
	}
	out = xstrdup(dec);
	curl_free(dec);
	return out;
}

char *req_query_get(const struct req *r, const char *key)
{
	const char *p = r->query;

	while (p && *p) {
		const char *amp = strchr(p, '&');
		size_t len = amp ? (size_t)(amp - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		size_t klen = eq ? (size_t)(eq - p) : len;
		char *k = req_query_decode(p, klen);
		int match = k && strcmp(k, key) == 0;

		free(k);
		if (match)
			return eq ? req_query_decode(eq + 1, len - klen - 1) : xstrdup("");
		p = amp ? amp + 1 : NULL;
	}
	return NULL;
}

static const char *req_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 204: return "No Content";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 413: return "Payload Too Large";
	case 415: return "Unsupported Media Type";
	case 421: return "Misdirected Request";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 503: return "Service Unavailable";
	default: return "Error";
	}
}

int req_write(struct req *r, const char *p, size_t n)
{
	return r->out.write(r->out.ctx, p, n);
}

/* An answer of the API is data, never a page: opened by itself it loads
 * nothing, and no site can frame it. An asset sends a policy of its own. */
#define REQ_POLICY "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"

int req_send_headers(struct req *r, int status, const char *content_type, const char *extra)
{
	char head[768];
	int n;

	if (r->headers_sent)
		return -1;
	r->headers_sent = 1;
	r->status = status;
	n = snprintf(head, sizeof head,
		     "Status: %d %s\r\nContent-Type: %s\r\nX-AiVista-Worker: %ld\r\n"
		     "X-Content-Type-Options: nosniff\r\nReferrer-Policy: same-origin\r\n%s",
		     status, req_reason(status), content_type, (long)getpid(),
		     extra && strstr(extra, "Content-Security-Policy:") ? "" : REQ_POLICY);
	if (n < 0 || (size_t)n >= sizeof head || req_write(r, head, (size_t)n) < 0)
		return -1;
	if (extra && req_write(r, extra, strlen(extra)) < 0)
		return -1;
	return req_write(r, "\r\n", 2);
}

int req_send_json(struct req *r, int status, const char *content_type, const json_t *j)
{
	return req_send_json_with(r, status, content_type, j, NULL);
}

int req_send_json_with(struct req *r, int status, const char *content_type, const json_t *j,
		       const char *extra)
{
	char *s = jdump(j);
	int rc = -1;

	if (s && req_send_headers(r, status, content_type,
				  extra ? extra : "Cache-Control: no-store\r\n") == 0)
		rc = req_write(r, s, strlen(s));
	if (rc == 0)
		rc = req_write(r, "\n", 1);
	free(s);
	return rc;
}

enum problem req_fail(struct req *r, enum problem p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof r->detail, fmt, ap);
	va_end(ap);
	r->failed = p;
	return p;
}
