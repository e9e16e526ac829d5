/* The engine's entry points, one per API action (see engine.h): each
 * checks what it is given, makes one commit, then streams. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/engine.h"
#include "engine/run.h"
#include "text/msg.h"
#include "util/clock.h"
#include "util/log.h"

/* How long a request waits between looks at a thread another worker holds. */
#define ENTRY_WAIT_POLL_US 50000

/* The 413 of a request that would store more than it may, before its
 * stream starts. */
static enum problem entry_too_large(struct run *run)
{
	return req_fail(run->r, PB_REQUEST_TOO_LARGE, "the request would store more than the %ld "
			"bytes one request may ([store] max_request_bytes)",
			run->app->conf.max_request_bytes);
}

static const char *entry_status(const struct run *run)
{
	const char *s = json_string_value(json_object_get(run->rec, "status"));

	return s ? s : "";
}

static int entry_purge_fn(struct store *s, struct store_txn *txn, void *p)
{
	const struct run *run = p;

	return store_thread_purge(s, txn, run->tid);
}

/* The workflow's initial state; assets it stored for a refused input are
 * removed again. */
static json_t *entry_init(struct run *run, const json_t *input, char *err, size_t errlen,
			  enum problem *p)
{
	struct step_ctx ctx;
	json_t *state;

	memset(&ctx, 0, sizeof ctx);
	ctx.run = run;
	ctx.node = "init";
	ctx.input = input;
	state = run->wf->init(&ctx, input, err, errlen);
	if (state == NULL) {
		*p = problem_by_code(ctx.err_code, PB_BAD_REQUEST);
		store_txn(run->st, entry_purge_fn, run);
	}
	return state;
}

/* The new thread's language (see msg_thread_lang): input.lang, checked,
 * else its text, else the request's Accept-Language. */
static enum problem entry_lang(struct run *run, const json_t *input)
{
	const json_t *lang = json_object_get(input, "lang");
	const json_t *text = NULL;

	if (lang && !json_is_null(lang) && !msg_lang_ok(json_string_value(lang)))
		return req_fail(run->r, PB_BAD_LANG, "input.lang must be \"zh\" or \"en\"");
	for (const char *const *f = run->wf->text_fields; f && *f && !json_is_string(text); f++)
		text = json_object_get(input, *f);
	snprintf(run->lang, sizeof run->lang, "%s",
		 msg_thread_lang(json_string_value(lang), json_string_value(text),
				 req_param(run->r, "HTTP_ACCEPT_LANGUAGE")));
	return PB_OK;
}

enum problem engine_start(struct req *r, const struct workflow *wf, const json_t *input)
{
	struct run run;
	struct commit c;
	char err[256] = "";
	long long now = clock_wall_ms();
	json_t *ev;
	enum problem p = PB_OK;
	int rc;

	run_init(&run, r);
	if (run_store_check(r))
		return r->failed;
	run.wf = wf;
	if (entry_lang(&run, input))
		return r->failed;
	tid_new(r->app->keys, run.tid_str, run.tid);
	run.state = entry_init(&run, input, err, sizeof err, &p);
	if (run.store_rc) {
		run_free(&run);
		return req_fail(r, PB_STORE_UNAVAILABLE, "the input could not be stored");
	}
	if (run.state == NULL)
		return req_fail(r, p, "input: %s", err);
	if (store_request_over(run.st)) {
		store_txn(run.st, entry_purge_fn, &run);
		run_free(&run);
		return entry_too_large(&run);
	}
	commit_init(&c, &run);
	c.create = 1;
	c.take_lease = 1;
	json_decref(c.changes);
	c.changes = json_pack("{s:s, s:s, s:i, s:s, s:i, s:I, s:I, s:{}, s:{}, s:s}", "workflow", wf->name,
			      "status", "running", "step", 0, "next", wf->start, "seq", 0, "created",
			      (json_int_t)now, "updated", (json_int_t)now, "visits", "answers", "lang",
			      run.lang);
	c.step = 0;
	c.meta = json_pack("{s:i, s:n, s:n, s:s, s:s, s:I}", "step", 0, "parent", "node", "next",
			   wf->start, "status", "running", "ts", (json_int_t)now);
	ev = sse_event_new("thread_start");
	json_object_set_new(ev, "threadId", json_string(run.tid_str));
	json_object_set_new(ev, "workflow", json_string(wf->name));
	json_array_append_new(c.events, ev);
	run_agent_start(&run, c.events, c.changes, c.changes, wf->start);
	rc = commit_run(&c);
	if (rc == STORE_OVER_BUDGET) {
		store_txn(run.st, entry_purge_fn, &run);
		p = entry_too_large(&run);
	} else if (rc) {
		p = req_fail(r, PB_STORE_UNAVAILABLE, "the thread could not be created: %s", store_strerror(rc));
	} else {
		log_info("thread %s started (%s)", run.tid_str, wf->name);
		run_send_committed(&run, &c);
		p = run_loop(&run);
	}
	commit_free(&c);
	run_free(&run);
	return p;
}

/* Waits, with keep-alives, for another worker's lease to end. 0 when
 * free, else -1 (*store_rc: the store's error, 0 when the time is up or
 * the client left). */
static int entry_wait_free(struct run *run, int *store_rc)
{
	*store_rc = 0;
	while (!lease_free(run->rec, clock_wall_ms())) {
		json_t *rec;

		if (clock_mono_ms() - run->t0 >= run_budget_ms(run) || run_sse(run) < 0 ||
		    sse_keepalive(run->sse) < 0)
			return -1;
		usleep(ENTRY_WAIT_POLL_US);
		if ((*store_rc = store_thread_get(run->st, NULL, run->tid, &rec, STORE_READ_COMMITTED)) != 0)
			return -1;
		json_decref(run->rec);
		run->rec = rec;
	}
	return 0;
}

static int entry_turn_check(struct commit *c, json_t *rec)
{
	const json_t *seen = c->check_arg;

	return json_equal(json_object_get(rec, "seq"), json_object_get(seen, "seq")) ? 0 : EBUSY;
}

enum problem engine_turn(struct req *r, const char *id, const json_t *input, int enqueue)
{
	struct run run;
	struct commit c;
	struct step_ctx ctx;
	char err[256] = "";
	const char *next;
	enum problem p = PB_OK;
	int rc, waited;

	if (run_open(&run, r, id)) {
		run_free(&run);
		return r->failed;
	}
	waited = enqueue ? entry_wait_free(&run, &rc) : 0;
	if (waited < 0 && rc)
		p = req_fail(r, PB_STORE_UNAVAILABLE, "the thread cannot be read");
	else if (waited < 0)
		p = req_fail(r, PB_BUSY, "thread %s stayed busy for the whole request budget", id);
	else if (!lease_free(run.rec, clock_wall_ms()) || strcmp(entry_status(&run), "running") == 0)
		p = req_fail(r, PB_BUSY, "thread %s is running: GET the stream to follow it, or send "
				 "\"multitask\": \"enqueue\"", id);
	else if (strcmp(entry_status(&run), "paused") == 0)
		p = req_fail(r, PB_NOT_PAUSED, "thread %s waits for a decision: POST /api/agent/confirm", id);
	else if (run.wf->turn == NULL)
		p = req_fail(r, PB_BAD_REQUEST, "workflow %s takes one turn per thread", run.wf->name);
	else if (store_ckpt_get(run.st, NULL, run.tid,
				(long)json_integer_value(json_object_get(run.rec, "step")), &run.state,
				NULL) != 0)
		p = req_fail(r, PB_STORE_UNAVAILABLE, "the thread's state cannot be read");
	if (p) {
		run_free(&run);
		return p;
	}
	commit_init(&c, &run);
	c.prev = json_deep_copy(run.state);
	memset(&ctx, 0, sizeof ctx);
	ctx.run = &run;
	ctx.node = "input";
	ctx.state = run.state;
	ctx.input = input;
	next = run.wf->turn(&ctx, run.state, input, err, sizeof err);
	if (run.store_rc || next == NULL || wf_node(run.wf, next) == NULL ||
	    !wf_edge_ok(run.wf, WF_START, next)) {
		commit_free(&c);
		run_free(&run);
		if (run.store_rc)
			return req_fail(r, PB_STORE_UNAVAILABLE, "the input could not be stored");
		return req_fail(r, problem_by_code(ctx.err_code, PB_BAD_REQUEST), "input: %s",
				err[0] ? err : "not accepted");
	}
	if (store_request_over(run.st)) {
		commit_free(&c);
		run_free(&run);
		return entry_too_large(&run);
	}
	c.take_lease = 1;
	c.check = entry_turn_check;
	c.check_arg = run.rec;
	c.step = (long)json_integer_value(json_object_get(run.rec, "step")) + 1;
	c.meta = json_pack("{s:i, s:i, s:s, s:s, s:s, s:I}", "step", (int)c.step, "parent",
			   (int)c.step - 1, "node", "input", "next", next, "status", "running", "ts",
			   (json_int_t)clock_wall_ms());
	json_object_set_new(c.changes, "status", json_string("running"));
	json_object_set_new(c.changes, "next", json_string(next));
	json_object_set_new(c.changes, "visits", json_object());
	run_agent_start(&run, c.events, c.changes, NULL, next);
	rc = commit_run(&c);
	if (rc == EBUSY)
		p = req_fail(r, PB_BUSY, "thread %s changed meanwhile: try again", id);
	else if (rc == STORE_OVER_BUDGET)
		p = entry_too_large(&run);
	else if (rc)
		p = req_fail(r, PB_STORE_UNAVAILABLE, "the turn could not be recorded: %s", store_strerror(rc));
	else {
		run_send_committed(&run, &c);
		p = run_loop(&run);
	}
	commit_free(&c);
	run_free(&run);
	return p;
}
