/* POST /api/agent/confirm: approve, reject or modify at a pause. */
#include "config.h"
#include "api/api.h"
#include "fcgi/req.h"
#include "engine/engine.h"

enum problem api_confirm(struct req *r)
{
	const char *tid, *iid, *action;
	json_t *body;
	enum problem p;

	if (api_body_object(r, &body))
		return r->failed;
	if (api_opt_string(r, body, "threadId", &tid) || api_opt_string(r, body, "interruptId", &iid) ||
	    api_opt_string(r, body, "action", &action))
		p = r->failed;
	else if (!tid || !iid || !action)
		p = req_fail(r, PB_BAD_REQUEST, "threadId, interruptId and action are required");
	else
		p = engine_confirm(r, tid, iid, action, json_object_get(body, "payload"));
	json_decref(body);
	return p;
}
