/* A small workflow for the engine's tests and benchmarks, built only into
 * the test worker: a few counting steps, a draft, a pause for the human
 * (approve / reject / modify), and the end. Input knobs make it slow, make
 * it loop, fail, or crash the process in a node, so tests can kill workers
 * mid-step and hit limits. */
#include "config.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "engine/graph.h"
#include "util/clock.h"

static json_int_t wt_int(const json_t *state, const char *key)
{
	return json_integer_value(json_object_get(state, key));
}

static int wt_fails_here(struct step_ctx *c)
{
	const char *f = json_string_value(json_object_get(c->state, "fail"));

	return f && strcmp(f, c->node) == 0;
}

/* "crash": a node's name: the process dies there (SIGSEGV), each time. */
static void wt_crash_here(struct step_ctx *c)
{
	const char *f = json_string_value(json_object_get(c->state, "crash"));

	/* A crash as the kernel ends it: the default action, not a sanitizer's
	 * handler (which would report it as a defect). */
	if (f && strcmp(f, c->node) == 0) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
}

/* Sleeps for the configured time in slices, with keep-alives. */
static void wt_sleep(struct step_ctx *c)
{
	long long until = clock_mono_ms() + wt_int(c->state, "sleepMs");

	while (clock_mono_ms() < until) {
		usleep(20000);
		step_keepalive(c);
	}
}

static json_t *wt_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	json_t *topic = json_object_get(input, "topic"), *steps = json_object_get(input, "steps");
	json_t *sleep = json_object_get(input, "sleepMs"), *st;

	if (topic && !json_is_string(topic))
		return snprintf(err, errlen, "topic must be a string"), NULL;
	if (steps && (!json_is_integer(steps) || json_integer_value(steps) < 0 ||
		      json_integer_value(steps) > 1000))
		return snprintf(err, errlen, "steps must be a whole number from 0 to 1000"), NULL;
	if (sleep && (!json_is_integer(sleep) || json_integer_value(sleep) < 0 ||
		      json_integer_value(sleep) > 600000))
		return snprintf(err, errlen, "sleepMs must be a whole number of milliseconds"), NULL;
	st = json_pack("{s:s, s:I, s:I, s:b, s:b, s:i, s:i, s:[]}", "topic",
		       topic ? json_string_value(topic) : "spring outing", "steps",
		       steps ? json_integer_value(steps) : 0, "sleepMs",
		       sleep ? json_integer_value(sleep) : 0, "pause",
		       !json_is_false(json_object_get(input, "pause")), "loop",
		       json_is_true(json_object_get(input, "loop")), "count", 0, "attempt", 1,
		       "decisions");
	if (json_is_string(json_object_get(input, "fail")))
		json_object_set(st, "fail", json_object_get(input, "fail"));
	if (json_is_string(json_object_get(input, "crash")))
		json_object_set(st, "crash", json_object_get(input, "crash"));
	if (json_is_string(json_object_get(input, "blob"))) {
		const char *blob = json_string_value(json_object_get(input, "blob"));
		char id[64];

		if (step_asset_put(c, "text/plain", blob, strlen(blob), id, sizeof id) < 0) {
			json_decref(st);
			return snprintf(err, errlen, "the blob could not be stored"), NULL;
		}
		json_object_set_new(st, "blobAsset", json_string(id));
	}
	return st;
}

static const char *wt_turn(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			   size_t errlen)
{
	json_t *topic = json_object_get(input, "topic");

	if (!json_is_string(topic))
		return snprintf(err, errlen, "topic (a string) is required"), NULL;
	json_object_set(state, "topic", topic);
	json_object_set_new(state, "turns", json_integer(wt_int(state, "turns") + 1));
	json_object_set_new(state, "attempt", json_integer(1));
	return "draft";
}

static enum node_rc wt_prepare(struct step_ctx *c)
{
	json_t *ev;

	wt_crash_here(c);
	ev = step_event(c, "thought_log");
	if (wt_fails_here(c))
		return step_fail(c, "test_failure", "asked to fail in %s", c->node);
	json_object_set_new(ev, "message", json_string("preparing"));
	step_emit(c, ev);
	c->next = wt_int(c->state, "steps") > 0 || json_is_true(json_object_get(c->state, "loop"))
			  ? "count" : "draft";
	return NODE_NEXT;
}

static enum node_rc wt_count(struct step_ctx *c)
{
	json_int_t n = wt_int(c->state, "count") + 1;
	json_t *ev = step_event(c, "thought_log"), *tick = step_event(c, "progress");
	char msg[64];

	json_object_set_new(tick, "content", json_string("counting"));
	step_emit_live(c, tick);
	wt_sleep(c);
	if (wt_fails_here(c))
		return step_fail(c, "test_failure", "asked to fail in %s", c->node);
	snprintf(msg, sizeof msg, "count %lld", (long long)n);
	json_object_set_new(ev, "message", json_string(msg));
	step_emit(c, ev);
	json_object_set_new(c->state, "count", json_integer(n));
	c->next = json_is_true(json_object_get(c->state, "loop")) || n < wt_int(c->state, "steps")
			  ? "count" : "draft";
	return NODE_NEXT;
}

static enum node_rc wt_draft(struct step_ctx *c)
{
	const char *topic = json_string_value(json_object_get(c->state, "topic"));
	char title[256], body[512];
	json_t *draft, *ev;

	if (wt_fails_here(c))
		return step_fail(c, "test_failure", "asked to fail in %s", c->node);
	snprintf(title, sizeof title, "%s · draft %lld", topic, (long long)wt_int(c->state, "attempt"));
	snprintf(body, sizeof body, "A note about %s, after %lld counting steps.", topic,
		 (long long)wt_int(c->state, "count"));
	draft = json_pack("{s:s, s:s, s:[s, s]}", "title", title, "body", body, "tags", topic, "test");
	json_object_set(c->state, "draft", draft);
	ev = step_event(c, "content_update");
	json_object_update(ev, draft);
	step_emit(c, ev);
	if (!json_is_true(json_object_get(c->state, "pause"))) {
		json_decref(draft);
		c->next = "finish";
		return NODE_NEXT;
	}
	c->interrupt = step_interrupt_new("content", strcmp(step_lang(c), "en") == 0
					  ? "The draft is ready: continue?" : "文案已生成，是否继续？",
					  "review", draft);
	return NODE_INTERRUPT;
}

static enum node_rc wt_review(struct step_ctx *c)
{
	const char *action = json_string_value(json_object_get(c->resume, "action"));
	json_t *payload = json_object_get(c->resume, "payload");

	if (action == NULL)
		return step_fail(c, "no_decision", "review runs only after a decision");
	json_array_append_new(json_object_get(c->state, "decisions"), json_string(action));
	if (strcmp(action, "reject") == 0) {
		json_object_set_new(c->state, "attempt", json_integer(wt_int(c->state, "attempt") + 1));
		c->next = "draft";
		return NODE_NEXT;
	}
	if (strcmp(action, "modify") == 0) {
		json_t *draft = json_deep_copy(json_object_get(c->state, "draft"));
		const char *k;
		json_t *v;

		json_object_foreach(payload, k, v)
			if (strcmp(k, "feedback") != 0)
				json_object_set(draft, k, v);
		json_object_set_new(c->state, "draft", draft);
	}
	c->next = "finish";
	return NODE_NEXT;
}

static enum node_rc wt_finish(struct step_ctx *c)
{
	wt_crash_here(c);
	if (wt_fails_here(c))
		return step_fail(c, "test_failure", "asked to fail in %s", c->node);
	json_object_set(c->state, "result", json_object_get(c->state, "draft"));
	return NODE_END;
}

static const struct wf_node wt_nodes[] = {
	{ "prepare", wt_prepare, 0 },
	{ "count", wt_count, 0 },
	{ "draft", wt_draft, 0 },
	{ "review", wt_review, 0 },
	{ "finish", wt_finish, 0 },
};

static const char *const wt_text_fields[] = { "topic", NULL };

const struct workflow wf_test = {
	.name = "test",
	.nodes = wt_nodes,
	.nnodes = sizeof wt_nodes / sizeof wt_nodes[0],
	.start = "prepare",
	.text_fields = wt_text_fields,
	.init = wt_init,
	.turn = wt_turn,
};
