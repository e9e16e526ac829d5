/* What one request's run of a thread is made of (run.h): opened from the
 * thread's ID or made for a new thread, its event stream, its language,
 * and the agent_start event every entry point sends the same way. It
 * stands below the steps (engine.c), the entry points (entry.c, decide.c,
 * cancel.c) and following a thread (follow.c), which all use it. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/engine.h"
#include "engine/run.h"
#include "text/msg.h"
#include "util/clock.h"

void run_init(struct run *run, struct req *r)
{
	memset(run, 0, sizeof *run);
	run->r = r;
	run->sse = &r->sse_store;
	run->app = r->app;
	run->st = r->app->store;
	run->t0 = clock_mono_ms();
	/* Until run_free: what this request may add to the store. */
	if (run->st)
		store_request_budget(run->st, run->app->conf.max_request_bytes);
}

enum problem run_store_check(struct req *r)
{
	if (r->app->store == NULL)
		return req_fail(r, APP_STORE_PROBLEM(r->app), APP_STORE_DOWN);
	return PB_OK;
}

enum problem engine_resolve(struct req *r, const char *id, uint8_t tid[STORE_TID], json_t **rec)
{
	const char *status;
	int rc;

	*rec = NULL;
	if (run_store_check(r))
		return r->failed;
	if (tid_verify(r->app->keys, id, tid) < 0)
		return req_fail(r, PB_BAD_SIGNATURE, "the thread ID is malformed or not signed by this server");
	rc = store_thread_get(r->app->store, NULL, tid, rec, STORE_READ_COMMITTED);
	if (rc == STORE_NOTFOUND)
		return req_fail(r, PB_THREAD_NOT_FOUND, "no thread %s", id);
	if (rc)
		return req_fail(r, PB_STORE_UNAVAILABLE, "reading the thread: %s", store_strerror(rc));
	status = json_string_value(json_object_get(*rec, "status"));
	if ((status && strcmp(status, "expired") == 0) ||
	    json_integer_value(json_object_get(*rec, "exp")) < clock_wall_ms()) {
		json_decref(*rec);
		*rec = NULL;
		return req_fail(r, PB_EXPIRED, "thread %s expired after its time without activity", id);
	}
	return PB_OK;
}

enum problem run_open(struct run *run, struct req *r, const char *id)
{
	run_init(run, r);
	if (engine_resolve(r, id, run->tid, &run->rec))
		return r->failed;
	snprintf(run->tid_str, sizeof run->tid_str, "%s", id);
	run_lang_set(run);
	run->wf = wf_find(json_string_value(json_object_get(run->rec, "workflow")));
	if (run->wf == NULL)
		return req_fail(r, PB_INTERNAL, "thread %s belongs to a workflow this server no longer runs", id);
	return PB_OK;
}

void run_free(struct run *run)
{
	if (run->st)
		store_request_budget(run->st, 0);
	json_decref(run->rec);
	json_decref(run->state);
	json_decref(run->pending);
	run->rec = run->state = run->pending = NULL;
}

long run_budget_ms(const struct run *run)
{
	const struct conf *cf = &run->app->conf;

	return cf->stream_max_ms < cf->request_budget_ms ? cf->stream_max_ms : cf->request_budget_ms;
}

int run_sse(struct run *run)
{
	if (run->r->sse)
		return run->sse->broken ? -1 : 0;
	return sse_start(run->sse, run->r);
}

void run_send_committed(struct run *run, const struct commit *c)
{
	long long seq = c->sent_first;
	size_t i = 0;

	if (run_sse(run) < 0)
		return;
	while (i < c->sent.len) {
		size_t len = strlen(c->sent.data + i);

		if (sse_event_batch(run->sse, seq++, c->sent.data + i, len, 1) < 0)
			return;
		i += len + 1;
	}
	sse_step_end(run->sse);
}

void run_send_yield(struct run *run)
{
	json_t *ev = sse_event_new("workflow_yield");

	json_object_set_new(ev, "threadId", json_string(run->tid_str));
	json_object_set_new(ev, "content", json_string(msg_get(run->lang, "yield.reconnect")));
	sse_retry(run->sse, RUN_YIELD_RETRY_MS);
	sse_event(run->sse, 0, ev);
	json_decref(ev);
}

void run_lang_set(struct run *run)
{
	const char *l = json_string_value(json_object_get(run->rec, "lang"));

	snprintf(run->lang, sizeof run->lang, "%s", msg_lang_ok(l) ? l : "zh");
}

void run_agent_start(const struct run *run, json_t *events, json_t *changes, const json_t *rec,
		     const char *node)
{
	char *content = msg_fmt(run->lang, "step.start", msg_agent_in(run->lang, run->wf->name, node));
	json_t *visits = json_object_get(changes, "visits");
	json_t *ev = sse_event_new("agent_start");

	if (!json_is_object(visits)) {
		visits = json_deep_copy(json_object_get(rec, "visits"));
		if (!json_is_object(visits)) {
			json_decref(visits);
			visits = json_object();
		}
		json_object_set_new(changes, "visits", visits);
	}
	json_object_set_new(visits, node,
			    json_integer(json_integer_value(json_object_get(visits, node)) + 1));
	json_object_set_new(ev, "node", json_string(node));
	json_object_set_new(ev, "agent", json_string(node));
	json_object_set_new(ev, "content", json_string(content));
	json_array_append_new(events, ev);
	free(content);
}
