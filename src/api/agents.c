/* GET /api/agents: the orchestrate workflow's agent registry
 * (etc/agents.json, checked at load), for the app and for planning by
 * hand; ?q=TEXT gives the agents that best fit TEXT. Answered like every
 * library (kb_answer.h). */
#include "config.h"
#include "api/api.h"
#include "api/kb_answer.h"
#include "app.h"
#include "fcgi/req.h"
#include "kb/kb.h"
#include "wf/orchestrate/orch.h"

enum problem api_agents(struct req *r)
{
	char err[160];
	struct kb *kb = orch_agents(r->app, err, sizeof err);

	if (kb == NULL)
		return req_fail(r, PB_INTERNAL, "%s", err);
	return api_kb_answer(r, kb, "agents");
}
