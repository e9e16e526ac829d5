/* The route table, the site checks every request passes first, and the
 * single place a request's error is reported. */
#include "config.h"
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "fcgi/route.h"
#include "fcgi/sitecheck.h"

static const struct route api_routes[] = {
	{ "GET", "/api/health", api_health },
	{ "POST", "/api/agent/stream", api_stream_post },
	{ "GET", "/api/agent/stream", api_stream_get },
	{ "POST", "/api/agent/confirm", api_confirm },
	{ "GET", "/api/threads/*", api_thread_get },
	{ "GET", "/api/threads/*/history", api_thread_history },
	{ "POST", "/api/threads/*/cancel", api_thread_cancel },
	{ "GET", "/api/assets/*", api_asset_get },
	{ "GET", "/api/styles", api_styles },
	{ "GET", "/api/nodes", api_nodes },
	{ "GET", "/api/agents", api_agents },
	{ "GET", "/api/workflows", api_workflows },
};

/* Runs the handler of the route r names; a failure is recorded on r. */
static void api_route(struct req *r)
{
	enum problem p;
	const struct route *rt = route_match(api_routes, sizeof api_routes / sizeof api_routes[0],
					     r, &p);

	if (rt == NULL) {
		req_fail(r, p, p == PB_METHOD ? "%s is not allowed on %s" : "no endpoint %s%s",
			 p == PB_METHOD ? r->method : "", r->path);
		return;
	}
	p = rt->handler(r);
	if (p != PB_OK && r->failed == PB_OK)
		req_fail(r, p, "%s", problem_title(p));
}

void api_dispatch(struct req *r)
{
	char why[sizeof r->detail];
	enum problem p = sitecheck_request(r, why, sizeof why);

	/* Before routing: another host or another site's page learns nothing,
	 * not even which paths exist. */
	if (p != PB_OK)
		req_fail(r, p, "%s", why);
	else
		api_route(r);
	if (r->failed != PB_OK)
		problem_send(r, r->failed, "%s", r->detail);
}
