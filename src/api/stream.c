/* POST /api/agent/stream (start a thread or add a turn) and
 * GET /api/agent/stream (join, replay after Last-Event-ID, continue). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "api/api.h"
#include "fcgi/req.h"
#include "engine/engine.h"
#include "util/xmalloc.h"

/* The body as a JSON object. *out: new reference. */
enum problem api_body_object(struct req *r, json_t **out)
{
	char detail[256];
	enum problem p = req_body_json(r, out, detail, sizeof detail);

	if (p)
		return req_fail(r, p, "%s", detail);
	if (!json_is_object(*out)) {
		json_decref(*out);
		*out = NULL;
		return req_fail(r, PB_BAD_REQUEST, "the body must be a JSON object");
	}
	return PB_OK;
}

/* A string field: NULL when absent; a failure when present but not text. */
int api_opt_string(struct req *r, const json_t *obj, const char *key, const char **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		req_fail(r, PB_BAD_REQUEST, "%s must be a string", key);
		return -1;
	}
	*out = json_string_value(v);
	return 0;
}

enum problem api_stream_post(struct req *r)
{
	const char *wf_name, *tid, *multitask;
	const struct workflow *wf;
	json_t *body, *input;
	enum problem p;

	if (api_body_object(r, &body))
		return r->failed;
	input = json_object_get(body, "input");
	if (api_opt_string(r, body, "workflow", &wf_name) || api_opt_string(r, body, "threadId", &tid) ||
	    api_opt_string(r, body, "multitask", &multitask)) {
		p = r->failed;
	} else if (input && !json_is_object(input)) {
		p = req_fail(r, PB_BAD_REQUEST, "input must be an object");
	} else if (multitask && strcmp(multitask, "reject") && strcmp(multitask, "enqueue")) {
		p = req_fail(r, PB_BAD_REQUEST, "multitask must be reject or enqueue");
	} else if (tid) {
		json_t *empty = json_object();

		p = engine_turn(r, tid, input ? input : empty,
				multitask && strcmp(multitask, "enqueue") == 0);
		json_decref(empty);
	} else if (wf_name == NULL || (wf = wf_find(wf_name)) == NULL) {
		json_t *list = wf_names();
		char *names = jtext(list, JSON_COMPACT);

		p = req_fail(r, wf_name ? PB_UNKNOWN_WORKFLOW : PB_BAD_REQUEST,
			     "workflow must be one of %s", names);
		free(names);
		json_decref(list);
	} else {
		json_t *empty = json_object();

		p = engine_start(r, wf, input ? input : empty);
		json_decref(empty);
	}
	json_decref(body);
	return p;
}

enum problem api_stream_get(struct req *r)
{
	char *tid = req_query_get(r, "threadId"), *qlast = req_query_get(r, "lastEventId");
	const char *last = req_param(r, "HTTP_LAST_EVENT_ID");
	enum problem p;

	if (tid == NULL)
		p = req_fail(r, PB_BAD_REQUEST, "threadId is required");
	else
		p = engine_join(r, tid, last && *last ? last : qlast);
	free(tid);
	free(qlast);
	return p;
}
