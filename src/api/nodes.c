/* GET /api/nodes: the node definitions a graph_edit workflow may use
 * (wf/graph_edit/graph_nodes.h), for the app's palette; with ?q=TEXT, the
 * definitions that best fit TEXT with their scores, as the workflow's
 * retrieval step finds them. Answered like every library
 * (kb_answer.h), once the query is well formed. */
#include "config.h"
#include <ctype.h>
#include <string.h>
#include "api/api.h"
#include "api/kb_answer.h"
#include "app.h"
#include "fcgi/req.h"
#include "wf/graph_edit/graph_nodes.h"

/* 1 when every '%' of the query starts an escape of two hex digits:
 * libcurl's decoder keeps a malformed one as it is, and "?q=%zz" would
 * search for "%zz" instead of being refused. */
static int api_nodes_escapes_ok(const char *query)
{
	for (const char *p = query; p && (p = strchr(p, '%')) != NULL; p++)
		if (!isxdigit((unsigned char)p[1]) || !isxdigit((unsigned char)p[2]))
			return 0;
	return 1;
}

enum problem api_nodes(struct req *r)
{
	char err[160];
	struct kb *kb;

	if (!api_nodes_escapes_ok(r->query))
		return req_fail(r, PB_BAD_REQUEST, "the query is not valid URL-encoded text (a %% "
				"not followed by two hex digits)");
	kb = graph_nodes(r->app, err, sizeof err);
	if (kb == NULL)
		return req_fail(r, PB_INTERNAL, "%s", err);
	return api_kb_answer(r, kb, "nodes");
}
