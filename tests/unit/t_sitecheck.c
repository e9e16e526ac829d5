/* The site checks: which Host headers the site answers to ([server]
 * allowed_hosts), which Origin headers are this site's, and how the
 * dispatcher reports either before it routes. Table-driven. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "memio.h"
#include "api/api.h"
#include "conf/conf.h"
#include "fcgi/req.h"
#include "fcgi/sitecheck.h"

struct host_case {
	const char *name;
	const char *host;        /* the Host header; NULL: none */
	const char *server_name; /* SERVER_NAME; NULL: none */
	const char *allowed;     /* [server] allowed_hosts */
	int want;
};

static const struct host_case host_cases[] = {
	{ "SERVER_NAME itself", "app.example", "app.example", "", 1 },
	{ "SERVER_NAME with a port", "app.example:8080", "app.example", "", 1 },
	{ "names compare in any case", "APP.Example", "app.example", "", 1 },
	{ "a trailing dot is the same name", "app.example.", "app.example", "", 1 },
	{ "another name", "evil.example", "app.example", "", 0 },
	{ "another name, with a port", "evil.example:8080", "app.example", "", 0 },
	{ "a longer name is another", "app.example.evil.example", "app.example", "", 0 },
	{ "localhost", "localhost:8080", "app.example", "", 1 },
	{ "127.0.0.1", "127.0.0.1", "app.example", "", 1 },
	{ "[::1] with a port", "[::1]:8080", "app.example", "", 1 },
	{ "[::1] without one", "[::1]", "app.example", "", 1 },
	{ "another loopback address is not a name of ours", "127.0.0.2", "app.example", "", 0 },
	{ "no Host header (HTTP/1.0, scripts)", NULL, "app.example", "", 1 },
	{ "no SERVER_NAME: the loopback names only", "app.example", NULL, "", 0 },
	{ "no SERVER_NAME, localhost", "localhost", NULL, "", 1 },
	{ "IPv6 SERVER_NAME in brackets", "[2001:db8::1]:443", "[2001:db8::1]", "", 1 },
	{ "IPv6 SERVER_NAME without brackets", "[2001:db8::1]", "2001:db8::1", "", 1 },
	{ "IPv6, another address", "[2001:db8::2]", "[2001:db8::1]", "", 0 },
	{ "user info is no host of ours", "evil.example@app.example", "app.example", "", 0 },
	{ "a path is no host", "app.example/x", "app.example", "", 0 },
	{ "spaces are no host", "app.example x", "app.example", "", 0 },
	{ "the list: a listed name", "b.example", "app.example", "a.example, b.example", 1 },
	{ "the list: a port in the entry is ignored", "a.example:9000", "x", "a.example:443", 1 },
	{ "the list replaces SERVER_NAME", "app.example", "app.example", "a.example", 0 },
	{ "the list: loopback still answers", "127.0.0.1:8080", "app.example", "a.example", 1 },
	{ "the list: an IPv6 entry without brackets", "[2001:db8::1]:80", "x", "2001:db8::1", 1 },
	{ "the list: empty entries are skipped", "b.example", "x", " , b.example,, ", 1 },
	{ "*: any host", "evil.example", "app.example", "*", 1 },
	{ "* among names", "evil.example", "app.example", "a.example, *", 1 },
	{ "a list of commas is empty", "app.example", "app.example", " , ", 1 },
};

struct origin_case {
	const char *name;
	const char *origin;      /* NULL: no Origin header */
	const char *host;
	const char *server_name;
	const char *allowed;
	int want;
};

static const struct origin_case origin_cases[] = {
	{ "no Origin (curl, scripts)", NULL, "app.example", "app.example", "", 1 },
	{ "the same host and port", "http://127.0.0.1:8080", "127.0.0.1:8080", "127.0.0.1", "", 1 },
	{ "https, default port, Host without one", "https://app.example", "app.example", "x", "", 1 },
	{ "http, default port, Host without one", "http://app.example", "app.example", "x", "", 1 },
	{ "the default port written in Host", "https://app.example", "app.example:443", "x", "", 1 },
	{ "the default port written in both", "http://app.example:80", "app.example", "x", "", 1 },
	{ "upper case in the Origin", "HTTPS://App.Example", "app.example", "x", "", 1 },
	{ "another site", "https://evil.example", "app.example", "app.example", "", 0 },
	{ "another port", "http://127.0.0.1:9999", "127.0.0.1:8080", "127.0.0.1", "", 0 },
	{ "a port where Host has none", "http://app.example:8080", "app.example", "x", "", 0 },
	{ "no port where Host has one", "http://app.example", "app.example:8080", "x", "", 0 },
	{ "a subdomain is another site", "https://evil.app.example", "app.example", "x", "", 0 },
	{ "a suffix is another site", "https://app.example.evil.example", "app.example", "x", "", 0 },
	{ "null (a sandboxed page, a file)", "null", "app.example", "app.example", "", 0 },
	{ "another scheme", "chrome-extension://abcdef", "app.example", "app.example", "", 0 },
	{ "not a URL", "app.example", "app.example", "app.example", "", 0 },
	{ "empty", "", "app.example", "app.example", "", 0 },
	{ "user info", "http://evil@app.example", "app.example", "x", "", 0 },
	{ "a path", "http://app.example/x", "app.example", "x", "", 0 },
	{ "IPv6", "http://[::1]:8080", "[::1]:8080", "x", "", 1 },
	{ "IPv6, another port", "http://[::1]:8081", "[::1]:8080", "x", "", 0 },
	{ "no Host: SERVER_NAME", "https://app.example", NULL, "app.example", "", 1 },
	{ "no Host: another site", "https://evil.example", NULL, "app.example", "", 0 },
	{ "a name allowed_hosts lists", "https://b.example", "a.example", "x", "a.example, b.example", 1 },
	{ "a name allowed_hosts lists, any port", "http://b.example:8443", "a.example", "x", "b.example", 1 },
	{ "* lists no origin", "https://evil.example", "app.example", "x", "*", 0 },
	{ "loopback names are not origins of ours", "http://localhost:3000", "app.example", "x", "", 0 },
};

struct dispatch_case {
	const char *name;
	const char *method;
	const char *host;
	const char *origin;
	const char *want_status; /* the status line's start */
	const char *want_code;
};

/* Paths that do not exist: a request that passes the checks gets 404, so
 * the handlers (which need a whole worker) are never reached. */
static const struct dispatch_case dispatch_cases[] = {
	{ "another host", "GET", "evil.example", NULL, "Status: 421 Misdirected Request", "misdirected_request" },
	{ "another host, before the method is looked at", "POST", "evil.example:80", NULL,
	  "Status: 421 ", "misdirected_request" },
	{ "a POST from another site", "POST", "app.example", "https://evil.example", "Status: 403 ",
	  "foreign_origin" },
	{ "a DELETE from another site", "DELETE", "app.example", "null", "Status: 403 ", "foreign_origin" },
	{ "a GET from another site is only a read", "GET", "app.example", "https://evil.example",
	  "Status: 404 ", "not_found" },
	{ "a POST from the site", "POST", "app.example", "https://app.example", "Status: 404 ", "not_found" },
	{ "a POST without Origin", "POST", "app.example", NULL, "Status: 404 ", "not_found" },
};

static void run_dispatch(const struct dispatch_case *c, struct conf *conf)
{
	char m[32], h[128], o[128];
	char *envp[] = { m, "REQUEST_URI=/api/nowhere", "SERVER_NAME=app.example", h, o, NULL };
	struct memio mi;
	struct req r;

	snprintf(m, sizeof m, "REQUEST_METHOD=%s", c->method);
	snprintf(h, sizeof h, "HTTP_HOST=%s", c->host);
	snprintf(o, sizeof o, "HTTP_ORIGIN=%s", c->origin ? c->origin : "");
	if (c->origin == NULL)
		envp[4] = NULL;
	memio_init(&mi, "", 0);
	req_init(&r, conf, envp, memio_in(&mi), memio_out(&mi));
	api_dispatch(&r);
	buf_add(&mi.out, "", 1);
	ok(strncmp(mi.out.data, c->want_status, strlen(c->want_status)) == 0,
	   "dispatch: %s: %s", c->name, c->want_status);
	ok(strstr(mi.out.data, c->want_code) != NULL, "dispatch: %s: code %s", c->name, c->want_code);
	req_free(&r);
	buf_free(&mi.out);
}

int main(void)
{
	struct conf conf;

	for (size_t i = 0; i < sizeof host_cases / sizeof host_cases[0]; i++) {
		const struct host_case *c = &host_cases[i];

		is_int(sitecheck_host_ok(c->host, c->server_name, c->allowed), c->want, "host: %s (%s)",
		       c->name, c->host ? c->host : "none");
	}
	for (size_t i = 0; i < sizeof origin_cases / sizeof origin_cases[0]; i++) {
		const struct origin_case *c = &origin_cases[i];

		is_int(sitecheck_origin_ok(c->origin, c->host, c->server_name, c->allowed), c->want,
		       "origin: %s (%s)", c->name, c->origin ? c->origin : "none");
	}
	conf_init(&conf);
	for (size_t i = 0; i < sizeof dispatch_cases / sizeof dispatch_cases[0]; i++)
		run_dispatch(&dispatch_cases[i], &conf);
	conf_free(&conf);
	return tap_done();
}
