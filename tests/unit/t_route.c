/* Route matching: exact paths, captures, 404 versus 405, hostile segments. */
#include "config.h"
#include <stdlib.h>
#include "tap.h"
#include "memio.h"
#include "conf/conf.h"
#include "fcgi/req.h"
#include "fcgi/route.h"

static enum problem h_a(struct req *r) { return PB_OK; }
static enum problem h_b(struct req *r) { return PB_OK; }
static enum problem h_c(struct req *r) { return PB_OK; }
static enum problem h_d(struct req *r) { return PB_OK; }

static const struct route table[] = {
	{ "GET", "/api/health", h_a },
	{ "GET", "/api/threads/*", h_b },
	{ "GET", "/api/threads/*/history", h_c },
	{ "POST", "/api/agent/stream", h_d },
	{ "GET", "/api/agent/stream", h_a },
};

struct route_case {
	const char *method, *uri;
	enum problem (*want)(struct req *);
	enum problem why;
	const char *capture;
};

static const struct route_case cases[] = {
	{ "GET", "/api/health", h_a, PB_OK, NULL },
	{ "HEAD", "/api/health", h_a, PB_OK, NULL },
	{ "POST", "/api/health", NULL, PB_METHOD, NULL },
	{ "GET", "/api/healthz", NULL, PB_NOT_FOUND, NULL },
	{ "GET", "/api/health/", NULL, PB_NOT_FOUND, NULL },
	{ "GET", "/api/threads/v1.abc.def", h_b, PB_OK, "v1.abc.def" },
	{ "GET", "/api/threads/v1.abc.def/history", h_c, PB_OK, "v1.abc.def" },
	{ "GET", "/api/threads/", NULL, PB_NOT_FOUND, NULL },
	{ "GET", "/api/threads/a%2Fb", NULL, PB_NOT_FOUND, NULL },
	{ "GET", "/api/threads/a%00b", NULL, PB_NOT_FOUND, NULL },
	{ "GET", "/api/threads/x%20y", h_b, PB_OK, "x y" },
	{ "POST", "/api/agent/stream", h_d, PB_OK, NULL },
	{ "GET", "/api/agent/stream?threadId=x", h_a, PB_OK, NULL },
	{ "DELETE", "/api/agent/stream", NULL, PB_METHOD, NULL },
	{ "GET", "/", NULL, PB_NOT_FOUND, NULL },
};

int main(void)
{
	struct conf conf;

	conf_init(&conf);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct route_case *c = &cases[i];
		char m_[64], u_[256], *envp[3] = { m_, u_, NULL };
		const struct route *rt;
		struct memio m;
		struct req r;
		enum problem why;

		snprintf(m_, sizeof m_, "REQUEST_METHOD=%s", c->method);
		snprintf(u_, sizeof u_, "REQUEST_URI=%s", c->uri);
		memio_init(&m, "", 0);
		req_init(&r, &conf, envp, memio_in(&m), memio_out(&m));
		rt = route_match(table, sizeof table / sizeof table[0], &r, &why);
		ok((rt ? rt->handler : NULL) == c->want, "%s %s: handler", c->method, c->uri);
		if (!rt)
			is_str(problem_code(why), problem_code(c->why), "%s %s: why", c->method, c->uri);
		if (c->capture)
			is_str(r.ncaptures ? r.captures[0] : NULL, c->capture, "%s %s: capture",
			       c->method, c->uri);
		req_free(&r);
		buf_free(&m.out);
	}
	conf_free(&conf);
	return tap_done();
}
