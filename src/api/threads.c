/* GET /api/threads/{id} (status, state, pending decision),
 * GET /api/threads/{id}/history (checkpoints, newest first) and
 * POST /api/threads/{id}/cancel (stop the run in progress). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "engine/engine.h"

static json_t *api_thread_view(const char *id, const json_t *rec)
{
	json_t *intr = json_object_get(rec, "interrupt"), *pending = json_null();

	if (json_is_object(intr)) {
		pending = json_deep_copy(intr);
		json_object_del(pending, "resume");
	}
	return json_pack("{s:s, s:O, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:o}", "threadId", id,
			 "workflow", json_object_get(rec, "workflow"), "lang",
			 json_string_value(json_object_get(rec, "lang")) ?: "zh", "status",
			 json_object_get(rec, "status"), "step", json_object_get(rec, "step"),
			 "nextNode", json_object_get(rec, "next") ?: json_null(), "lastEventId",
			 json_object_get(rec, "seq"), "createdAt", json_object_get(rec, "created"),
			 "updatedAt", json_object_get(rec, "updated"), "interrupt", pending);
}

enum problem api_thread_get(struct req *r)
{
	uint8_t tid[STORE_TID];
	json_t *rec, *view, *state = NULL;

	if (engine_resolve(r, r->captures[0], tid, &rec))
		return r->failed;
	if (store_ckpt_get(r->app->store, NULL, tid, (long)json_integer_value(json_object_get(rec, "step")),
			   &state, NULL) != 0) {
		json_decref(rec);
		return req_fail(r, PB_STORE_UNAVAILABLE, "the thread's state cannot be read");
	}
	view = api_thread_view(r->captures[0], rec);
	json_object_set_new(view, "state", state);
	req_send_json(r, 200, "application/json", view);
	json_decref(view);
	json_decref(rec);
	return PB_OK;
}

enum problem api_thread_history(struct req *r)
{
	uint8_t tid[STORE_TID];
	json_t *rec, *hist, *out;
	int rc;

	if (engine_resolve(r, r->captures[0], tid, &rec))
		return r->failed;
	rc = store_ckpt_history(r->app->store, NULL, tid,
				(long)json_integer_value(json_object_get(rec, "step")),
				r->app->conf.history, &hist);
	json_decref(rec);
	if (rc)
		return req_fail(r, PB_STORE_UNAVAILABLE, "the history cannot be read");
	out = json_pack("{s:s, s:o}", "threadId", r->captures[0], "checkpoints", hist);
	req_send_json(r, 200, "application/json", out);
	json_decref(out);
	return PB_OK;
}

enum problem api_thread_cancel(struct req *r)
{
	return engine_cancel(r, r->captures[0]);
}
