/* Stopping a run (POST /api/threads/{id}/cancel): the request leaves a
 * cancel mark in the thread's record, which every worker can see; the
 * worker running the thread looks for it between steps and, through the
 * model calls' stop hook, while a call is in flight, and ends the run with
 * status aborted, keeping what the node had (a streamed reply's text). A
 * thread that has no live run (it yielded, its worker died, or it is
 * paused) is aborted by the request itself. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "fcgi/sse.h"
#include "engine/engine.h"
#include "engine/run.h"
#include "text/msg.h"
#include "util/clock.h"

#define CANCEL_POLL_MS 250
#define CANCEL_NOT_RUNNING EALREADY

int run_cancel_asked(struct run *run, int fresh)
{
	long long now = clock_mono_ms();
	json_t *rec = NULL;

	if (run == NULL || run->st == NULL)
		return 0;
	if (!fresh && run->cancel_seen_ms && now - run->cancel_seen_ms < CANCEL_POLL_MS)
		return run->cancel_asked;
	run->cancel_seen_ms = now;
	if (store_thread_get(run->st, NULL, run->tid, &rec, 0) == 0) {
		run->cancel_asked = json_is_object(json_object_get(rec, "cancel"));
		json_decref(rec);
	}
	return run->cancel_asked;
}

int step_cancelled(struct step_ctx *c)
{
	return run_cancel_asked(c->run, 0);
}

enum node_rc step_cancelled_abort(struct step_ctx *c)
{
	snprintf(c->err_code, sizeof c->err_code, "cancelled");
	snprintf(c->err_msg, sizeof c->err_msg, "the run was stopped on request (POST cancel)");
	return NODE_ABORT;
}

/* The error event of a run aborted by the request itself. */
static json_t *cancel_event(struct run *run, const char *node)
{
	json_t *ev = sse_event_new("error");

	json_object_set_new(ev, "node", json_string(node));
	json_object_set_new(ev, "threadId", json_string(run->tid_str));
	json_object_set_new(ev, "code", json_string("cancelled"));
	json_object_set_new(ev, "message", json_string(msg_error(run->lang, "cancelled")));
	json_object_set_new(ev, "detail", json_string("the run was stopped on request (POST cancel)"));
	return ev;
}

/* Decides in the transaction (it may run again on a deadlock retry, so
 * it rebuilds its changes and events each time). */
static int cancel_check(struct commit *c, json_t *rec)
{
	const char *status = json_string_value(json_object_get(rec, "status")) ?: "";
	int running = strcmp(status, "running") == 0;
	const char *node = json_string_value(json_object_get(rec, "next"));
	json_t *intr = json_object_get(rec, "interrupt");

	json_object_clear(c->changes);
	json_array_clear(c->events);
	if (!running && strcmp(status, "paused") != 0)
		return CANCEL_NOT_RUNNING;
	if (running && !lease_free(rec, clock_wall_ms())) {
		json_object_set_new(c->changes, "cancel", json_pack("{s:I}", "at",
								   (json_int_t)clock_wall_ms()));
		return 0;
	}
	if (node == NULL && json_is_object(intr))
		node = json_string_value(json_object_get(intr, "node"));
	json_array_append_new(c->events, cancel_event(c->run, node ? node : ""));
	json_object_set_new(c->changes, "status", json_string("aborted"));
	json_object_set_new(c->changes, "next", json_null());
	json_object_set_new(c->changes, "interrupt", json_null());
	json_object_set_new(c->changes, "lease", json_null());
	json_object_set_new(c->changes, "cancel", json_null());
	return 0;
}

enum problem engine_cancel(struct req *r, const char *id)
{
	struct run run;
	struct commit c;
	enum problem p = PB_OK;
	json_t *out;
	int rc;

	if (run_open(&run, r, id)) {
		run_free(&run);
		return r->failed;
	}
	commit_init(&c, &run);
	c.check = cancel_check;
	rc = commit_run(&c);
	if (rc == CANCEL_NOT_RUNNING) {
		p = req_fail(r, PB_NOT_RUNNING, "thread %s is %s: there is no run to stop", id,
			     json_string_value(json_object_get(run.rec, "status")) ?: "idle");
	} else if (rc) {
		p = req_fail(r, PB_STORE_UNAVAILABLE, "the cancel could not be recorded");
	} else {
		int now = json_object_get(c.changes, "status") != NULL;

		out = json_pack("{s:s, s:s, s:s}", "threadId", id, "status",
				now ? "aborted" : "running", "cancel", now ? "done" : "requested");
		req_send_json(r, now ? 200 : 202, "application/json", out);
		json_decref(out);
	}
	commit_free(&c);
	run_free(&run);
	return p;
}
