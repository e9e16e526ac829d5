/* Running steps: one node per step, one commit per step (see engine.h). */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "engine/engine.h"
#include "engine/run.h"
#include "json/patch.h"
#include "text/msg.h"
#include "util/budget.h"
#include "util/clock.h"
#include "util/log.h"

static const char *run_str(const json_t *rec, const char *key)
{
	const char *s = json_string_value(json_object_get(rec, key));

	return s ? s : "";
}

/* The top-level fields a step changed, with their new values (null for a
 * removed one): the "changes" of state_update. New reference. */
static json_t *run_changes(const json_t *before, const json_t *after)
{
	json_t *ch = json_object(), *v;
	const char *k;

	json_object_foreach((json_t *)after, k, v)
		if (!json_equal(v, json_object_get(before, k)))
			json_object_set(ch, k, v);
	json_object_foreach((json_t *)before, k, v)
		if (json_object_get(after, k) == NULL)
			json_object_set_new(ch, k, json_null());
	return ch;
}

/* A changed field whose value passes this as JSON text is named in
 * state_update's "omitted" instead of echoed: a workflow's own events
 * carry what people need, GET /api/threads/{id} the whole state. */
#define RUN_CHANGE_INLINE_MAX ((size_t)256 << 10)

/* Moves the large values out of changes (borrowed): the names of the
 * fields left out, a new array, or NULL when none was. */
static json_t *run_changes_trim(json_t *changes)
{
	json_t *omitted = NULL, *v;
	const char *k;
	void *tmp;

	json_object_foreach_safe(changes, tmp, k, v) {
		if (patch_bytes(v, RUN_CHANGE_INLINE_MAX) <= RUN_CHANGE_INLINE_MAX)
			continue;
		if (omitted == NULL)
			omitted = json_array();
		json_array_append_new(omitted, json_string(k));
		json_object_del(changes, k);
	}
	return omitted;
}

/* An engine event; those about the thread as a whole name it. */
static json_t *run_event(struct run *run, const char *type, const char *node)
{
	static const char *const whole[] = { "ask_user", "workflow_paused", "workflow_complete",
					     "workflow_yield", "error" };
	json_t *ev = sse_event_new(type);

	if (node)
		json_object_set_new(ev, "node", json_string(node));
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
		if (strcmp(type, whole[i]) == 0)
			json_object_set_new(ev, "threadId", json_string(run->tid_str));
	return ev;
}

/* Options given by id only get their label in the thread's language. */
static void run_option_labels(json_t *opts, const char *lang)
{
	size_t i;
	json_t *o;
	char id[64];

	json_array_foreach(opts, i, o) {
		const char *oid = json_string_value(json_object_get(o, "id"));

		if (oid == NULL || json_object_get(o, "label"))
			continue;
		snprintf(id, sizeof id, "option.%s", oid);
		json_object_set_new(o, "label", json_string(msg_get(lang, id)));
	}
}

/* The ask_user and workflow_paused events of an interrupt, and the pending
 * interrupt kept on the record. */
static void run_pause(struct run *run, struct commit *c, json_t *intr, const char *node)
{
	unsigned char rnd[4];
	char iid[48];
	json_t *ask, *paused;
	const struct conf *cf = &run->app->conf;

	randombytes_buf(rnd, sizeof rnd);
	snprintf(iid, sizeof iid, "int-%ld-%02x%02x%02x%02x",
		 (long)json_integer_value(json_object_get(run->rec, "step")) + 1,
		 rnd[0], rnd[1], rnd[2], rnd[3]);
	json_object_set_new(intr, "interruptId", json_string(iid));
	json_object_set_new(intr, "node", json_string(node));
	if (cf->hitl_timeout_ms > 0)
		json_object_set_new(intr, "deadline",
				    json_integer(clock_wall_ms() + cf->hitl_timeout_ms));
	ask = run_event(run, "ask_user", node);
	json_object_set(ask, "question", json_object_get(intr, "question"));
	run_option_labels(json_object_get(intr, "options"), run->lang);
	json_object_set(ask, "options", json_object_get(intr, "options"));
	json_object_set(ask, "selectionType", json_object_get(intr, "selectionType"));
	json_object_set(ask, "allowCustomInput", json_object_get(intr, "allowCustomInput"));
	json_object_set_new(ask, "context", json_pack("{s:b, s:O}", "__hitl", 1, "kind",
						      json_object_get(intr, "kind")));
	/* The workflow's own context of the pause (what changed since the last draft…). */
	if (json_is_object(json_object_get(intr, "context")))
		json_object_update_missing(json_object_get(ask, "context"), json_object_get(intr, "context"));
	json_object_set_new(ask, "interruptId", json_string(iid));
	json_object_set(ask, "editable", json_object_get(intr, "editable"));
	if (json_object_get(intr, "deadline"))
		json_object_set(ask, "deadline", json_object_get(intr, "deadline"));
	/* Why a pause came again (an edit that did not pass its checks). */
	if (json_object_get(intr, "errors"))
		json_object_set(ask, "errors", json_object_get(intr, "errors"));
	json_array_append_new(c->events, ask);
	paused = run_event(run, "workflow_paused", node);
	json_object_set_new(paused, "interruptId", json_string(iid));
	json_object_set_new(paused, "content", json_string(msg_get(run->lang, "pause.waiting")));
	json_array_append_new(c->events, paused);
	json_object_set_new(c->changes, "status", json_string("paused"));
	json_object_set_new(c->changes, "next", json_null());
	json_object_set(c->changes, "interrupt", intr);
}

/* A pause whose answer goes to a node, or an end, that the workflow does
 * not declare as a step from this node fails as bad_route (NODE_NEXT is
 * checked in run_outcome). */
static enum node_rc run_route_check(struct run *run, struct step_ctx *ctx, enum node_rc rc)
{
	const char *to = NULL;

	if (rc == NODE_END)
		to = WF_END;
	else if (rc == NODE_INTERRUPT)
		to = json_string_value(json_object_get(ctx->interrupt, "resume"));
	else
		return rc;
	if (to && (rc == NODE_END || wf_node(run->wf, to)) && wf_edge_ok(run->wf, ctx->node, to))
		return rc;
	return step_fail(ctx, "bad_route", "node %s may not %s %s", ctx->node,
			 rc == NODE_END ? "end the run:" : "pause for", to ? to : "(none)");
}

static void run_outcome(struct run *run, struct commit *c, struct step_ctx *ctx, enum node_rc rc)
{
	json_t *ev;

	switch (rc) {
	case NODE_NEXT:
		if (wf_node(run->wf, ctx->next) && wf_edge_ok(run->wf, ctx->node, ctx->next)) {
			json_object_set_new(c->changes, "next", json_string(ctx->next));
			break;
		}
		step_fail(ctx, "bad_route", "node %s routed to %s node %s", ctx->node,
			  wf_node(run->wf, ctx->next) ? "undeclared" : "unknown",
			  ctx->next ? ctx->next : "(none)");
		/* fall through */
	case NODE_ERROR:
	case NODE_ABORT:
		ev = run_event(run, "error", ctx->node);
		json_object_set_new(ev, "code", json_string(ctx->err_code[0] ? ctx->err_code : "node_failed"));
		json_object_set_new(ev, "message", json_string(msg_error(run->lang, ctx->err_code)));
		json_object_set_new(ev, "detail", json_string(ctx->err_msg));
		json_array_append_new(c->events, ev);
		json_object_set_new(c->changes, "status", json_string(rc == NODE_ABORT ? "aborted" : "error"));
		json_object_set_new(c->changes, "next", json_null());
		break;
	case NODE_INTERRUPT:
		run_pause(run, c, ctx->interrupt, ctx->node);
		break;
	case NODE_END:
		ev = run_event(run, "workflow_complete", NULL);
		if (json_is_object(json_object_get(run->state, "result")))
			json_object_update_missing(ev, json_object_get(run->state, "result"));
		json_array_append_new(c->events, ev);
		json_object_set_new(c->changes, "status", json_string("done"));
		json_object_set_new(c->changes, "next", json_null());
		break;
	}
}

/* agent_end of node, its content in the thread's language. */
static json_t *run_agent_end(struct run *run, const char *node)
{
	json_t *ev = run_event(run, "agent_end", node);
	char *done = msg_fmt(run->lang, "step.end", msg_agent_in(run->lang, run->wf->name, node));

	json_object_set_new(ev, "agent", json_string(node));
	json_object_set_new(ev, "content", json_string(done));
	free(done);
	return ev;
}

static void run_ctx_init(struct run *run, struct step_ctx *ctx, const struct wf_node *node)
{
	long t = node->timeout_ms ? node->timeout_ms : run->app->conf.node_timeout_ms;
	json_t *resume = json_object_get(run->rec, "resume");

	memset(ctx, 0, sizeof *ctx);
	ctx->run = run;
	ctx->node = node->name;
	ctx->state = run->state;
	ctx->resume = json_is_object(resume) ? resume : NULL;
	ctx->deadline_ms = clock_mono_ms() + t;
}

/* Runs the node; a cancel asked while it ran ends the run there, unless
 * the node completed the workflow. After a node that goes on to the next
 * one within CANCEL_POLL_MS of the last commit there is no look of its
 * own: a request that came meanwhile stays in the record this step's
 * commit reads, and the next step ends the run. A node that pauses or
 * fails always looks, since its commit ends the run. */
static void run_step_tick(void *ctx)
{
	step_keepalive(ctx);
}

/* The client left (the stream broke) or the run was cancelled. */
static int run_step_stop(void *ctx)
{
	struct step_ctx *c = ctx;

	return (c->run->r->sse && c->run->sse->broken) || step_cancelled(c);
}

static enum node_rc run_step_node(struct run *run, const struct wf_node *node, struct step_ctx *ctx)
{
	enum node_rc nrc;

	/* Work under a budget in a child (a drawing, OCR) keeps the stream
	 * alive and stops with the run. */
	budget_ticker(run_step_tick, run_step_stop, ctx);
	nrc = node->run(ctx);
	budget_ticker(NULL, NULL, NULL);

	if (nrc != NODE_END && nrc != NODE_ABORT && run_cancel_asked(run, nrc != NODE_NEXT)) {
		json_decref(ctx->interrupt);
		ctx->interrupt = NULL;
		nrc = step_cancelled_abort(ctx);
	}
	return nrc;
}

/* Starts the commit that fails the thread at node: an error event (code,
 * the message of the code in the run's language, detail) and the status
 * "error", with the lease let go. The caller adds its own changes,
 * commits and frees c. */
static void run_fail_commit(struct run *run, struct commit *c, const char *node, const char *code,
			    const char *detail)
{
	json_t *ev;

	commit_init(c, run);
	c->need_lease = 1;
	c->release = 1;
	ev = run_event(run, "error", node);
	json_object_set_new(ev, "code", json_string(code));
	json_object_set_new(ev, "message", json_string(msg_error(run->lang, code)));
	json_object_set_new(ev, "detail", json_string(detail));
	json_array_append_new(c->events, ev);
	json_object_set_new(c->changes, "status", json_string("error"));
	json_object_set_new(c->changes, "next", json_null());
}

/* The step would store more than one request may ([store]
 * max_request_bytes): nothing of it is kept, and the thread ends at its
 * last checkpoint with an error event request_too_large (a new turn may
 * follow). 0 or the store's error. */
static int run_over_budget(struct run *run, const char *node)
{
	struct commit c;
	int rc;

	log_warn("thread %s: node %s would store more than [store] max_request_bytes (%ld): the "
		 "step is not kept", run->tid_str, node, run->app->conf.max_request_bytes);
	store_request_budget(run->st, 0);   /* the error itself is kept */
	run_fail_commit(run, &c, node, "request_too_large", "this step would store more than one "
			"request may ([store] max_request_bytes): it was not kept");
	json_object_set_new(c.changes, "resume", json_null());
	json_object_set_new(c.changes, "cancel", json_null());
	rc = commit_run(&c);
	if (rc == 0)
		run_send_committed(run, &c);
	commit_free(&c);
	return rc;
}

/* One step: run the node, then commit its checkpoint and events at once. */
static int run_step(struct run *run)
{
	const struct wf_node *node = wf_node(run->wf, run_str(run->rec, "next"));
	const char *name;
	long step = (long)json_integer_value(json_object_get(run->rec, "step")) + 1;
	struct step_ctx ctx;
	struct commit c;
	enum node_rc nrc;
	json_t *ev;
	long long visits;
	int rc;

	if (node == NULL)
		return EINVAL;
	name = node->name; /* static: run->rec changes with every commit */
	visits = json_integer_value(json_object_get(json_object_get(run->rec, "visits"), name));
	run_ctx_init(run, &ctx, node);
	run->store_rc = 0;
	commit_init(&c, run);
	c.need_lease = 1;
	c.prev = json_deep_copy(run->state);
	json_array_clear(run->pending);
	if (visits > run->app->conf.max_iterations)
		nrc = step_fail(&ctx, "max_iterations", "node %s ran %lld times: stopped (max_iterations)",
				name, visits);
	else if (json_is_object(json_object_get(run->rec, "cancel")))
		nrc = step_cancelled_abort(&ctx);
	else
		nrc = run_step_node(run, node, &ctx);
	if (run->store_rc || store_request_over(run->st)) {
		/* The store failed under the node, or refused what it would add:
		 * nothing of this step is kept. */
		json_decref(ctx.interrupt);
		commit_free(&c);
		return run->store_rc ? run->store_rc : run_over_budget(run, name);
	}
	json_array_extend(c.events, run->pending);
	json_array_clear(run->pending);
	ev = run_changes(c.prev, run->state);
	if (json_object_size(ev) > 0) {
		json_t *su = run_event(run, "state_update", name), *omitted = run_changes_trim(ev);

		json_object_set_new(su, "changes", ev);
		if (omitted)
			json_object_set_new(su, "omitted", omitted);
		json_array_append_new(c.events, su);
	} else {
		json_decref(ev);
	}
	json_array_append_new(c.events, run_agent_end(run, name));
	if (json_integer_value(json_object_get(run->rec, "seq")) + (json_int_t)json_array_size(c.events) +
	    2 > run->st->max_events) {
		/* The log is full: the step's events give way to the error. */
		json_array_clear(c.events);
		nrc = step_fail(&ctx, "event_limit", "the thread logged its %lld events ([store] max_events): "
				"start a new thread", run->st->max_events);
	}
	nrc = run_route_check(run, &ctx, nrc);
	run_outcome(run, &c, &ctx, nrc);
	json_object_set_new(c.changes, "resume", json_null());
	/* A run that ends takes its cancel request with it. */
	if (nrc != NODE_NEXT)
		json_object_set_new(c.changes, "cancel", json_null());
	/* The next node's start goes out with this step; a thread that stops
	 * running gives its lease back in the same commit. */
	if (json_is_string(json_object_get(c.changes, "next")))
		run_agent_start(run, c.events, c.changes, run->rec,
				json_string_value(json_object_get(c.changes, "next")));
	else
		c.release = 1;
	c.step = step;
	c.meta = json_pack("{s:i, s:i, s:s, s:O, s:O, s:I}", "step", (int)step, "parent", (int)step - 1,
			   "node", name, "next", json_object_get(c.changes, "next"), "status",
			   json_object_get(c.changes, "status") ? json_object_get(c.changes, "status")
								 : json_object_get(run->rec, "status"),
			   "ts", (json_int_t)clock_wall_ms());
	json_decref(ctx.interrupt);
	rc = commit_run(&c);
	if (rc == 0) {
		run->steps++;
		run_send_committed(run, &c);
	}
	commit_free(&c);
	return rc == STORE_OVER_BUDGET ? run_over_budget(run, name) : rc;
}

/* Gives the lease back; when the store is away, later (lease_back.c), so
 * that the thread need not wait for the lease to expire. */
static void run_release(struct run *run)
{
	struct commit c;

	commit_init(&c, run);
	c.need_lease = 1;
	c.release = 1;
	if (commit_run(&c) == STORE_UNAVAILABLE)
		lease_back_later(run->tid);
	commit_free(&c);
}

static void run_end_stream(struct run *run, int yielded)
{
	const char *status = run_str(run->rec, "status");

	if (run_sse(run) < 0)
		return;
	if (strcmp(status, "done") == 0 || strcmp(status, "error") == 0 ||
	    strcmp(status, "aborted") == 0)
		sse_done(run->sse);
	else if (yielded)
		run_send_yield(run);
}

/* The step the thread is at took down the worker running it more than
 * [engine] max_step_crashes times: the thread fails instead of taking down
 * another. 0 when it did not. */
static int run_crashed(struct run *run)
{
	long n = lease_crashes(run->rec);
	const char *node = run_str(run->rec, "next");
	struct commit c;

	if (n <= run->app->conf.max_step_crashes)
		return 0;
	log_error("thread %s: node %s took down a worker %ld times: the thread fails", run->tid_str,
		  node, n);
	run_fail_commit(run, &c, node, "step_crashed", "this step stopped the server process running "
			"it again and again ([engine] max_step_crashes)");
	if (commit_run(&c) == 0)
		run_send_committed(run, &c);
	commit_free(&c);
	return 1;
}

enum problem run_loop(struct run *run)
{
	const struct conf *cf = &run->app->conf;
	/* The stream also ends before a web server's limit on one response
	 * (mod_fcgid's FcgidBusyTimeout): the client reconnects on retry:. */
	long budget = run_budget_ms(run);
	int yielded = 0, rc = 0;

	if (run->state == NULL &&
	    store_ckpt_get(run->st, NULL, run->tid,
			   (long)json_integer_value(json_object_get(run->rec, "step")), &run->state,
			   NULL) != 0) {
		run_release(run);
		return req_fail(run->r, PB_STORE_UNAVAILABLE, "the thread's checkpoint cannot be read");
	}
	if (run->pending == NULL)
		run->pending = json_array();
	if (run_crashed(run)) {
		run_end_stream(run, 0);
		return PB_OK;
	}
	while (strcmp(run_str(run->rec, "status"), "running") == 0) {
		if (run->sse->broken)
			break;
		if ((cf->steps_per_request && run->steps >= cf->steps_per_request) ||
		    (run->steps > 0 && clock_mono_ms() - run->t0 >= budget)) {
			yielded = 1;
			break;
		}
		rc = run_step(run);
		if (rc)
			break;
	}
	if (rc == EAGAIN) {
		log_warn("thread %s: lease lost to another worker", run->tid_str);
		return PB_OK;
	}
	if (rc) {
		log_error("thread %s: step failed: %s", run->tid_str, rc == EINVAL ? "unknown node" : store_strerror(rc));
		run_release(run);
		return req_fail(run->r, rc == EINVAL ? PB_INTERNAL : PB_STORE_UNAVAILABLE,
				"the step could not be committed; the thread resumes from its last checkpoint");
	}
	if (strcmp(run_str(run->rec, "status"), "running") == 0)
		run_release(run);
	run_end_stream(run, yielded);
	return PB_OK;
}
