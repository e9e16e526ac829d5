/* One HTTP request as the worker sees it: CGI parameters, the body (read
 * to EOF under the configured cap), the decoded query, the route captures
 * and the response. Everything a request allocates hangs off it and is
 * freed by req_free(). */
#ifndef AV_REQ_H
#define AV_REQ_H
#include <jansson.h>
#include "conf/conf.h"
#include "fcgi/io.h"
#include "fcgi/problem.h"
#include "fcgi/sse.h"
#include "util/buf.h"

#define REQ_MAX_CAPTURES 4

struct sse;
struct app;

struct req {
	const struct conf *conf;
	struct app *app;          /* the worker's; borrowed */
	char **envp;              /* NAME=value, NULL-terminated; borrowed */
	struct io_in in;
	struct io_out out;
	const char *method;       /* borrowed from envp */
	const char *uri;          /* REQUEST_URI; borrowed */
	char *path;               /* raw path, from the "/api/" segment on */
	char *query;              /* raw query string, or NULL */
	char *captures[REQ_MAX_CAPTURES]; /* decoded route captures */
	int ncaptures;
	struct buf body;
	int body_read;
	int headers_sent;
	int status;               /* status sent, for the log */
	struct sse *sse;          /* set once the response is an event stream */
	struct sse sse_store;     /* its storage: lives as long as the request */
	enum problem failed;      /* set by req_fail, reported once by the dispatcher */
	char detail[512];
};

/* Parses the request line parts out of envp. PB_OK or the problem. */
enum problem req_init(struct req *r, const struct conf *c, char **envp,
		      struct io_in in, struct io_out out);
void req_free(struct req *r);
/* A CGI parameter, or NULL. Borrowed. */
const char *req_param(const struct req *r, const char *name);
/* Reads the body to EOF, checking Content-Length and the cap. */
enum problem req_read_body(struct req *r);
/* Reads and parses the body as one JSON value (object or array) under the
 * size and depth limits. *out: new reference. Reports nothing itself;
 * detail[] says what was wrong. */
enum problem req_body_json(struct req *r, json_t **out, char *detail, size_t detail_len);
/* The decoded value of a query parameter, or NULL (absent or undecodable).
 * Caller frees. */
char *req_query_get(const struct req *r, const char *key);
/* Writes a status line and headers; extra (may be NULL) is more header
 * lines, each ending in \r\n. */
int req_send_headers(struct req *r, int status, const char *content_type, const char *extra);
/* Headers plus a JSON body (not stolen). */
int req_send_json(struct req *r, int status, const char *content_type, const json_t *j);
/* The same with other header lines than "Cache-Control: no-store" (extra,
 * each line ending in \r\n; NULL: that one). */
int req_send_json_with(struct req *r, int status, const char *content_type, const json_t *j,
		       const char *extra);
int req_write(struct req *r, const char *p, size_t n);
/* Records why the request failed, for the dispatcher to report once
 * (problem_send). Returns p, so a handler can "return req_fail(...)". */
enum problem req_fail(struct req *r, enum problem p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Exposed for tests: true when text nests arrays/objects no deeper than max. */
int req_json_depth_ok(const char *p, size_t n, long max);
/* Exposed for tests: true when a Content-Type value (NULL: none) may be
 * read as JSON: application/json, parameters allowed. */
int req_content_type_json(const char *ct);
/* Exposed for tests: parses a Content-Length value; -1 when it is not one. */
long long req_parse_length(const char *s);

#endif
