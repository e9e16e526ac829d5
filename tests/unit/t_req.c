/* The request layer: parameters, body reading under the cap, Content-Length
 * checks, JSON limits and errors, query decoding. Table-driven. */
#include "config.h"
#include <stdlib.h>
#include "tap.h"
#include "memio.h"
#include "conf/conf.h"
#include "fcgi/req.h"

static struct conf conf;

struct body_case {
	const char *name;
	const char *content_length; /* NULL: absent */
	const char *body;
	size_t chunk;
	enum problem want;
};

static const struct body_case body_cases[] = {
	{ "exact length", "5", "hello", 0, PB_OK },
	{ "exact length, read in 1-byte chunks", "5", "hello", 1, PB_OK },
	{ "no Content-Length, read to EOF", NULL, "hello", 2, PB_OK },
	{ "empty body, length 0", "0", "", 0, PB_OK },
	{ "length larger than the body", "10", "hello", 0, PB_BAD_LENGTH },
	{ "length smaller than the body", "3", "hello", 0, PB_BAD_LENGTH },
	{ "negative length", "-1", "hello", 0, PB_BAD_LENGTH },
	{ "length with junk", "5x", "hello", 0, PB_BAD_LENGTH },
	{ "length with a plus sign", "+5", "hello", 0, PB_BAD_LENGTH },
	{ "absurd length", "99999999999999999999", "hello", 0, PB_BAD_LENGTH },
	{ "declared over the cap", "2049", "", 0, PB_TOO_LARGE },
	{ "undeclared body over the cap", NULL, NULL, 100, PB_TOO_LARGE },
};

static char big[2050];

static enum problem run_body(const struct body_case *c, struct buf *got)
{
	char cl[64], *envp[4] = { "REQUEST_METHOD=POST", "REQUEST_URI=/api/x", NULL, NULL };
	struct memio m;
	struct req r;
	enum problem p;

	if (c->content_length) {
		snprintf(cl, sizeof cl, "CONTENT_LENGTH=%s", c->content_length);
		envp[2] = cl;
	}
	memio_init(&m, c->body ? c->body : big, c->chunk);
	req_init(&r, &conf, envp, memio_in(&m), memio_out(&m));
	p = req_read_body(&r);
	buf_reset(got);
	if (r.body.data)
		buf_adds(got, r.body.data);
	req_free(&r);
	buf_free(&m.out);
	return p;
}

struct json_case {
	const char *name;
	const char *body;
	const char *content_type; /* NULL: application/json; NO_TYPE: none sent */
	enum problem want;
};

#define NO_TYPE "(none)"

static const struct json_case json_cases[] = {
	{ "object", "{\"a\": [1, 2, {\"b\": null}]}", "application/json", PB_OK },
	{ "with charset", "{}", "application/json; charset=utf-8", PB_OK },
	/* What a page of another site can send without a preflight is refused. */
	{ "a body without a content type is refused", "[]", NO_TYPE, PB_UNSUPPORTED_MEDIA },
	{ "an empty content type is refused", "{}", "", PB_UNSUPPORTED_MEDIA },
	{ "text/plain is refused", "{}", "text/plain", PB_UNSUPPORTED_MEDIA },
	{ "no body, no type: nothing to read", "", NO_TYPE, PB_BAD_JSON },
	{ "truncated", "{\"a\": ", NULL, PB_BAD_JSON },
	{ "trailing junk", "{} x", NULL, PB_BAD_JSON },
	{ "empty body", "", NULL, PB_BAD_JSON },
	{ "duplicate keys", "{\"a\":1,\"a\":2}", NULL, PB_BAD_JSON },
	{ "invalid UTF-8", "{\"a\":\"\xff\xfe\"}", NULL, PB_BAD_JSON },
	{ "escaped NUL", "{\"a\":\"x\\u0000y\"}", NULL, PB_BAD_JSON },
	{ "depth 8 is fine", "[[[[[[[[]]]]]]]]", NULL, PB_OK },
	{ "depth 9 is too deep", "[[[[[[[[[]]]]]]]]]", NULL, PB_JSON_TOO_DEEP },
	{ "brackets inside strings do not count", "[\"[[[[[[[[[[[[\", \"\\\"[[[[[[[[[[\"]", NULL, PB_OK },
	{ "form data is refused", "a=b", "application/x-www-form-urlencoded", PB_UNSUPPORTED_MEDIA },
	/* The media type is compared whole: type/subtype, any case, parameters after ";". */
	{ "upper case", "{}", "APPLICATION/JSON", PB_OK },
	{ "charset without a space", "{}", "application/json;charset=utf-8", PB_OK },
	{ "spaces around the type", "{}", " application/json ; charset=utf-8", PB_OK },
	{ "text/plain with charset is refused", "{}", "text/plain;charset=UTF-8", PB_UNSUPPORTED_MEDIA },
	{ "application/jsonxyz is refused", "{}", "application/jsonxyz", PB_UNSUPPORTED_MEDIA },
	{ "application/jsonp is refused", "{}", "application/jsonp", PB_UNSUPPORTED_MEDIA },
	{ "application/json-patch+json is refused", "[]", "application/json-patch+json",
	  PB_UNSUPPORTED_MEDIA },
	{ "a longer path is refused", "{}", "application/json/x", PB_UNSUPPORTED_MEDIA },
	{ "text/plainish is refused", "{}", "text/plainish", PB_UNSUPPORTED_MEDIA },
	{ "a type cut short is refused", "{}", "application/", PB_UNSUPPORTED_MEDIA },
	{ "a prefix is refused", "{}", "application/js", PB_UNSUPPORTED_MEDIA },
	{ "multipart is refused", "{}", "multipart/form-data; boundary=x", PB_UNSUPPORTED_MEDIA },
};

static enum problem run_json(const struct json_case *c, char *detail, size_t n)
{
	char ct[128], *envp[4] = { "REQUEST_METHOD=POST", "REQUEST_URI=/api/x", NULL, NULL };
	struct memio m;
	struct req r;
	json_t *j;
	enum problem p;

	if (c->content_type == NULL || strcmp(c->content_type, NO_TYPE) != 0) {
		snprintf(ct, sizeof ct, "CONTENT_TYPE=%s",
			 c->content_type ? c->content_type : "application/json");
		envp[2] = ct;
	}
	memio_init(&m, c->body, 0);
	req_init(&r, &conf, envp, memio_in(&m), memio_out(&m));
	p = req_body_json(&r, &j, detail, n);
	ok((p == PB_OK) == (j != NULL), "%s: a value exactly when it parsed", c->name);
	json_decref(j);
	req_free(&r);
	buf_free(&m.out);
	return p;
}

struct query_case {
	const char *uri;
	const char *key;
	const char *want;
};

static const struct query_case query_cases[] = {
	{ "/api/agent/stream?threadId=v1.abc.def", "threadId", "v1.abc.def" },
	{ "/api/x?a=1&b=2&c=3", "b", "2" },
	{ "/api/x?a=hello+world", "a", "hello world" },
	{ "/api/x?a=%E4%BD%A0%E5%A5%BD", "a", "\xe4\xbd\xa0\xe5\xa5\xbd" },
	{ "/api/x?a%5Bb%5D=1", "a[b]", "1" },
	{ "/api/x?flag", "flag", "" },
	{ "/api/x?a=1", "b", NULL },
	{ "/api/x?a=x%00y", "a", NULL },
	{ "/api/x", "a", NULL },
	{ "/api/x?lastEventId=12&threadId=t", "lastEventId", "12" },
};

int main(void)
{
	struct buf got;
	char detail[512];

	conf_init(&conf);
	conf.max_body_bytes = 2048;
	conf.json_max_depth = 8;
	memset(big, 'x', sizeof big - 1);
	buf_init(&got, 1 << 20);

	for (size_t i = 0; i < sizeof body_cases / sizeof body_cases[0]; i++) {
		const struct body_case *c = &body_cases[i];

		is_str(problem_code(run_body(c, &got)), problem_code(c->want), "body: %s", c->name);
		if (c->want == PB_OK)
			is_str(got.data ? got.data : "", c->body, "body: %s: contents", c->name);
	}
	for (size_t i = 0; i < sizeof json_cases / sizeof json_cases[0]; i++) {
		const struct json_case *c = &json_cases[i];

		detail[0] = '\0';
		is_str(problem_code(run_json(c, detail, sizeof detail)), problem_code(c->want),
		       "json: %s", c->name);
		if (c->want == PB_BAD_JSON)
			ok(strstr(detail, "line") != NULL, "json: %s: detail names the place (%s)",
			   c->name, detail);
	}
	for (size_t i = 0; i < sizeof query_cases / sizeof query_cases[0]; i++) {
		const struct query_case *c = &query_cases[i];
		char uri[256], *envp[3] = { "REQUEST_METHOD=GET", uri, NULL };
		struct memio m;
		struct req r;
		char *v;

		snprintf(uri, sizeof uri, "REQUEST_URI=%s", c->uri);
		memio_init(&m, "", 0);
		is_int(req_init(&r, &conf, envp, memio_in(&m), memio_out(&m)), PB_OK, "query: %s parses", c->uri);
		v = req_query_get(&r, c->key);
		is_str(v, c->want, "query: %s [%s]", c->uri, c->key);
		free(v);
		req_free(&r);
		buf_free(&m.out);
	}
	{
		char *envp[3] = { "REQUEST_METHOD=GET", "REQUEST_URI=/site/sub/api/health?x=1", NULL };
		struct memio m;
		struct req r;

		memio_init(&m, "", 0);
		req_init(&r, &conf, envp, memio_in(&m), memio_out(&m));
		is_str(r.path, "/api/health", "a site mounted under a prefix still routes from /api/");
		is_str(req_param(&r, "REQUEST_METHOD"), "GET", "a CGI parameter");
		ok(req_param(&r, "REQUEST") == NULL, "a parameter is matched whole, not by prefix");
		req_free(&r);
		buf_free(&m.out);
	}
	{
		char *envp[3] = { "REQUEST_METHOD=POST", "REQUEST_URI=/api/x", NULL };
		struct memio m;
		struct req r;

		memio_init(&m, "", 0);
		req_init(&r, &conf, envp, memio_in(&m), memio_out(&m));
		problem_send(&r, PB_TOO_LARGE, "limit %d", 2048);
		ok(strstr(m.out.data, "Status: 413 ") == m.out.data, "problem: status line first");
		ok(strstr(m.out.data, "Content-Type: application/problem+json\r\n") != NULL,
		   "problem: media type");
		ok(strstr(m.out.data, "\"code\":\"body_too_large\"") != NULL, "problem: stable code");
		ok(strstr(m.out.data, "\"status\":413") != NULL, "problem: status in the body");
		req_free(&r);
		buf_free(&m.out);
	}
	/* The server's own failures: the client gets the code and a fixed
	 * message; what went wrong (a directory, a library's error) is for the
	 * log only. */
	{
		static const struct { enum problem p; const char *detail; } server_side[] = {
			{ PB_STORE_UNAVAILABLE, "cannot open the store in /var/lib/aivista: Permission denied" },
			{ PB_STORE_UNAVAILABLE, "reading the thread: DB_RUNRECOVERY: Fatal error" },
			{ PB_INTERNAL, "step failed: /srv/x/ckpts.db: Input/output error" },
		};
		char *envp[3] = { "REQUEST_METHOD=GET", "REQUEST_URI=/api/threads/x", NULL };

		for (size_t i = 0; i < sizeof server_side / sizeof server_side[0]; i++) {
			struct memio m;
			struct req r;

			memio_init(&m, "", 0);
			req_init(&r, &conf, envp, memio_in(&m), memio_out(&m));
			problem_send(&r, server_side[i].p, "%s", server_side[i].detail);
			ok(strstr(m.out.data, problem_code(server_side[i].p)) != NULL &&
			   strstr(m.out.data, "Permission") == NULL && strstr(m.out.data, "DB_") == NULL &&
			   strstr(m.out.data, "/srv") == NULL && strstr(m.out.data, "/var") == NULL,
			   "%s: the answer has the code and no path or library error (%s)",
			   problem_code(server_side[i].p), server_side[i].detail);
			req_free(&r);
			buf_free(&m.out);
		}
	}
	buf_free(&got);
	conf_free(&conf);
	return tap_done();
}
