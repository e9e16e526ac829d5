/* Human decisions on a paused thread: POST /api/agent/confirm, a pause
 * whose deadline passed, and joining a thread (GET /api/agent/stream),
 * which is where a passed deadline is noticed. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/engine.h"
#include "engine/run.h"
#include "text/msg.h"
#include "util/clock.h"
#include "util/log.h"

struct decision {
	const char *interrupt_id;
	const char *action;
	const json_t *payload;
	int automatic;
	char detail[256];
};

static int decide_type_ok(const json_t *want, const json_t *got)
{
	if (json_is_number(want))
		return json_is_number(got);
	return json_typeof(want) == json_typeof(got);
}

/* A payload may carry "feedback" (text) with any action, and with
 * "modify" any of the fields the interrupt declared editable, each of the
 * same JSON type as its current value. */
static int decide_payload_ok(struct decision *d, const json_t *editable)
{
	const char *k;
	json_t *v;
	int edits = 0;

	if (d->payload == NULL || json_is_null(d->payload))
		return strcmp(d->action, "modify") == 0 ? (snprintf(d->detail, sizeof d->detail,
			"modify needs a payload with the fields to change"), 0) : 1;
	if (!json_is_object(d->payload))
		return snprintf(d->detail, sizeof d->detail, "payload must be an object"), 0;
	json_object_foreach((json_t *)d->payload, k, v) {
		json_t *cur = json_object_get(editable, k);

		if (strcmp(k, "feedback") == 0) {
			if (!json_is_string(v))
				return snprintf(d->detail, sizeof d->detail, "feedback must be text"), 0;
			continue;
		}
		if (strcmp(d->action, "modify") != 0)
			return snprintf(d->detail, sizeof d->detail, "only modify changes fields (%s)", k), 0;
		if (cur == NULL)
			return snprintf(d->detail, sizeof d->detail, "field %s is not editable here", k), 0;
		if (!decide_type_ok(cur, v))
			return snprintf(d->detail, sizeof d->detail, "field %s has the wrong type", k), 0;
		edits++;
	}
	if (strcmp(d->action, "modify") == 0 && edits == 0)
		return snprintf(d->detail, sizeof d->detail, "modify changes no editable field"), 0;
	return 1;
}

/* Inside the transaction: the thread must still wait for this very
 * interrupt. EALREADY: it was answered; ENOENT: it waits for nothing or
 * for another; EINVAL: the payload does not fit. */
static int decide_check(struct commit *c, json_t *rec)
{
	struct decision *d = (struct decision *)c->check_arg;
	json_t *intr = json_object_get(rec, "interrupt"), *answers = json_object_get(rec, "answers");
	const char *status = json_string_value(json_object_get(rec, "status"));
	json_t *ans;

	if (json_object_get(answers, d->interrupt_id))
		return EALREADY;
	if (status == NULL || strcmp(status, "paused") != 0 ||
	    strcmp(json_string_value(json_object_get(intr, "interruptId")) ?: "", d->interrupt_id) != 0)
		return ENOENT;
	if (!decide_payload_ok(d, json_object_get(intr, "editable")))
		return EINVAL;
	json_object_set_new(c->changes, "status", json_string("running"));
	json_object_set(c->changes, "next", json_object_get(intr, "resume"));
	json_object_set_new(c->changes, "interrupt", json_null());
	json_object_set_new(c->changes, "resume",
			    json_pack("{s:s, s:O, s:s, s:O, s:b}", "interruptId", d->interrupt_id, "kind",
				      json_object_get(intr, "kind"), "action", d->action, "payload",
				      d->payload ? d->payload : json_null(), "automatic", d->automatic));
	answers = json_deep_copy(answers);
	if (!json_is_object(answers)) {
		json_decref(answers);
		answers = json_object();
	}
	ans = json_pack("{s:s, s:I, s:I}", "action", d->action, "seq",
			json_integer_value(json_object_get(rec, "seq")) + 1, "at",
			(json_int_t)clock_wall_ms());
	json_object_set_new(answers, d->interrupt_id, ans);
	json_object_set_new(c->changes, "answers", answers);
	json_array_clear(c->events);
	json_array_append_new(c->events, json_pack("{s:s, s:I, s:O, s:s, s:s}", "type", "thought_log",
		"timestamp", (json_int_t)clock_wall_ms(), "node", json_object_get(intr, "resume"),
		"message", msg_get(c->run->lang, d->automatic ? "decide.timeout" : "decide.received"),
		"decision", d->action));
	json_object_del(c->changes, "visits");
	run_agent_start(c->run, c->events, c->changes, rec,
			json_string_value(json_object_get(intr, "resume")));
	return 0;
}

/* Commits the decision and streams the continuation; an interrupt
 * answered before replays that answer's events instead. */
static enum problem decide_run(struct run *run, struct decision *d)
{
	struct req *r = run->r;
	struct commit c;
	enum problem p = PB_OK;
	int rc;

	commit_init(&c, run);
	c.take_lease = 1;
	c.check = decide_check;
	c.check_arg = d;
	rc = commit_run(&c);
	if (rc == 0) {
		log_info("thread %s: %s %s", run->tid_str, d->interrupt_id, d->action);
		run_send_committed(run, &c);
		p = run_loop(run);
	} else if (rc == EALREADY) {
		json_t *rec = c.rec_new;
		long long at = json_integer_value(json_object_get(
			json_object_get(json_object_get(rec, "answers"), d->interrupt_id), "seq"));

		json_decref(run->rec);
		run->rec = json_incref(rec);
		p = run_follow(run, at - 1);
	} else if (rc == ENOENT) {
		p = req_fail(r, PB_NOT_PAUSED, "thread %s is not waiting for decision %s", run->tid_str,
			     d->interrupt_id);
	} else if (rc == EINVAL) {
		p = req_fail(r, PB_BAD_REQUEST, "%s", d->detail);
	} else if (rc == EBUSY) {
		p = req_fail(r, PB_BUSY, "thread %s is busy", run->tid_str);
	} else {
		p = req_fail(r, PB_STORE_UNAVAILABLE, "the decision could not be recorded: %s",
			     store_strerror(rc));
	}
	commit_free(&c);
	return p;
}

enum problem engine_confirm(struct req *r, const char *id, const char *interrupt_id,
			    const char *action, const json_t *payload)
{
	struct decision d = { interrupt_id, action, payload, 0, "" };
	struct run run;
	enum problem p;

	if (strcmp(action, "approve") && strcmp(action, "reject") && strcmp(action, "modify"))
		return req_fail(r, PB_BAD_REQUEST, "action must be approve, reject or modify");
	p = run_open(&run, r, id);
	if (p == PB_OK)
		p = decide_run(&run, &d);
	run_free(&run);
	return p;
}

int engine_parse_last_id(const char *s, long long last, long long *out)
{
	char *end;

	*out = 0;
	if (s == NULL || *s == '\0')
		return 0;
	if (strlen(s) > 18 || strspn(s, "0123456789") != strlen(s))
		return -1;
	*out = strtoll(s, &end, 10);
	return *out <= last ? 0 : -1;
}

enum problem engine_join(struct req *r, const char *id, const char *last_id)
{
	struct run run;
	enum problem p = run_open(&run, r, id);
	long long after = 0, last;
	json_t *intr;

	if (p) {
		run_free(&run);
		return p;
	}
	last = json_integer_value(json_object_get(run.rec, "seq"));
	if (engine_parse_last_id(last_id, last, &after) < 0) {
		run_free(&run);
		return req_fail(r, PB_BAD_EVENT_ID, "Last-Event-ID must be a number from 0 to %lld "
				"(this thread's last event)", last);
	}
	intr = json_object_get(run.rec, "interrupt");
	if (json_is_object(intr) && json_object_get(intr, "deadline") &&
	    json_integer_value(json_object_get(intr, "deadline")) < clock_wall_ms()) {
		char iid[64];
		struct decision d = { iid, r->app->conf.hitl_default, NULL, 1, "" };

		/* A copy: run.rec, which holds the original, changes with every commit. */
		snprintf(iid, sizeof iid, "%s", json_string_value(json_object_get(intr, "interruptId")) ?: "");

		/* Replay what the client missed first, then the continuation. */
		if (run_sse(&run) == 0 && after < last)
			p = run_follow(&run, after);
		if (p == PB_OK && !run.sse->broken)
			p = decide_run(&run, &d);
	} else {
		p = run_follow(&run, after);
	}
	run_free(&run);
	return p;
}
