/* GET /api/nodes: the node definitions a graph_edit workflow may use
 * (wf/graph/graph_nodes.h), for the app's palette; with ?q=TEXT, the
 * definitions that best fit TEXT with their scores, as the workflow's
 * retrieval step finds them. Answered like every library
 * (kb_answer.h). */
#include "config.h"
#include "api/api.h"
#include "api/kb_answer.h"
#include "app.h"
#include "fcgi/req.h"
#include "wf/graph/graph_nodes.h"

enum problem api_nodes(struct req *r)
{
	char err[160];
	struct kb *kb = graph_nodes(r->app, err, sizeof err);

	if (kb == NULL)
		return req_fail(r, PB_INTERNAL, "%s", err);
	return api_kb_answer(r, kb, "nodes");
}
