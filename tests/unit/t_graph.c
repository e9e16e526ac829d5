/* The engine (src/engine/) on a real store in a fresh directory under
 * /tmp (or a fresh PostgreSQL database under make check-postgresql:
 * teststore.h), with a workflow of its own and requests written to memory:
 * routing between nodes (next, end, an unknown node, a node that fails,
 * max_iterations), budgets (steps_per_request, the stream budget),
 * decisions at a pause (approve/reject/modify checked against what the
 * interrupt declared editable, a confirm repeated replays instead of
 * deciding twice) and leases (free, held, taken over from a dead owner,
 * crashes counted per step, a step that crashed too often fails). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>
#include "tap.h"
#include "memio.h"
#include "teststore.h"
#include "app.h"
#include "conf/conf.h"
#include "fcgi/req.h"
#include "engine/engine.h"
#include "engine/run.h"
#include "store/store.h"
#include "util/xmalloc.h"

/* --- the workflow: state.route says where node "a" goes ------------------ */

static void gr_trail(struct step_ctx *c)
{
	json_t *t = json_object_get(c->state, "trail");

	if (!json_is_array(t)) {
		t = json_array();
		json_object_set_new(c->state, "trail", t);
	}
	json_array_append_new(t, json_string(c->node));
}

static void gr_sleep_30ms(void)
{
	struct timespec ts = { 0, 30 * 1000000L };

	nanosleep(&ts, NULL);
}

static enum node_rc gr_a(struct step_ctx *c)
{
	const char *route = json_string_value(json_object_get(c->state, "route"));

	gr_trail(c);
	if (strcmp(route, "fail") == 0)
		return step_fail(c, "gr_broken", "node a failed on purpose");
	if (strcmp(route, "end") == 0)
		return NODE_END;
	if (strcmp(route, "bogus") == 0)
		c->next = "no_such_node";
	else if (strcmp(route, "chain") == 0)
		c->next = "b";
	else if (strcmp(route, "loop") == 0)
		c->next = "loop";
	else if (strcmp(route, "slow") == 0) {
		gr_sleep_30ms();
		c->next = "slow";
	}
	else
		c->next = "ask";
	return NODE_NEXT;
}

static enum node_rc gr_b(struct step_ctx *c)
{
	gr_trail(c);
	c->next = "c";
	return NODE_NEXT;
}

static enum node_rc gr_c(struct step_ctx *c)
{
	gr_trail(c);
	return NODE_END;
}

static enum node_rc gr_loop(struct step_ctx *c)
{
	gr_trail(c);
	c->next = "loop";
	return NODE_NEXT;
}

/* Three slow steps, then the end. */
static enum node_rc gr_slow(struct step_ctx *c)
{
	gr_trail(c);
	gr_sleep_30ms();
	if (json_array_size(json_object_get(c->state, "trail")) >= 4)
		return NODE_END;
	c->next = "slow";
	return NODE_NEXT;
}

static enum node_rc gr_ask(struct step_ctx *c)
{
	gr_trail(c);
	c->interrupt = step_interrupt_new("content", "ok?", "after",
					  json_pack("{s:s, s:i}", "title", "draft", "count", 2));
	return NODE_INTERRUPT;
}

/* Records the decision it resumes with. */
static enum node_rc gr_after(struct step_ctx *c)
{
	json_t *d = json_object_get(c->state, "decisions");

	gr_trail(c);
	if (!json_is_array(d)) {
		d = json_array();
		json_object_set_new(c->state, "decisions", d);
	}
	json_array_append_new(d, json_string(c->resume ? json_string_value(json_object_get(c->resume,
											   "action")) : "none"));
	return NODE_END;
}

static const struct wf_node gr_nodes[] = {
	{ "a", gr_a, 0 }, { "b", gr_b, 0 }, { "c", gr_c, 0 }, { "loop", gr_loop, 0 },
	{ "slow", gr_slow, 0 }, { "ask", gr_ask, 0 }, { "after", gr_after, 0 },
};

static json_t *gr_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	(void)c;
	if (!json_is_string(json_object_get(input, "route"))) {
		snprintf(err, errlen, "route is missing");
		return NULL;
	}
	return json_pack("{s:O}", "route", json_object_get(input, "route"));
}

static const struct workflow gr_wf = {
	.name = "graphtest",
	.nodes = gr_nodes,
	.nnodes = sizeof gr_nodes / sizeof gr_nodes[0],
	.start = "a",
	.init = gr_init,
};

/* --- the fixture: an app with a store, one request at a time ------------- */

struct fx {
	struct teststore ts;
	struct app app;
	struct tid_keys keys;
	struct memio m;
	struct req r;
	json_t *evs;           /* [{id, data}] of the last response */
};

static void fx_open(struct fx *f)
{
	memset(f, 0, sizeof *f);
	teststore_init(&f->ts, &f->app.conf, "t_graph");
	f->app.conf.max_iterations = 3;
	f->app.store = teststore_open(&f->app.conf);
	f->app.keys = &f->keys;
	f->keys.n = 1;
	randombytes_buf(f->keys.key[0], sizeof f->keys.key[0]);
}

static void fx_close(struct fx *f)
{
	json_decref(f->evs);
	teststore_free(&f->ts, &f->app.conf, f->app.store);
}

/* The events of the response in memory: {id (0: none), data}. */
static json_t *gr_parse(const char *out)
{
	json_t *evs = json_array();
	const char *p = strstr(out, "\r\n\r\n");
	long long id = 0;

	for (p = p ? p + 4 : out; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n > 4 && strncmp(p, "id: ", 4) == 0) {
			id = atoll(p + 4);
		} else if (n > 6 && strncmp(p, "data: ", 6) == 0) {
			json_t *d = json_loadb(p + 6, n - 6, JSON_DECODE_ANY, NULL);

			json_array_append_new(evs, json_pack("{s:I, s:o}", "id", (json_int_t)id, "data",
							     d ? d : json_string("?")));
			id = 0;
		}
	}
	return evs;
}

static void fx_req(struct fx *f)
{
	static char *envp[] = { "REQUEST_METHOD=POST", "REQUEST_URI=/api/agent/stream", NULL };

	memio_init(&f->m, "", 0);
	if (req_init(&f->r, &f->app.conf, envp, memio_in(&f->m), memio_out(&f->m)) != PB_OK)
		tap_bail("req_init");
	f->r.app = &f->app;
}

static enum problem fx_done(struct fx *f, enum problem p)
{
	buf_add(&f->m.out, "", 1);
	json_decref(f->evs);
	f->evs = gr_parse(f->m.out.data);
	req_free(&f->r);
	buf_free(&f->m.out);
	return p;
}

static enum problem fx_start(struct fx *f, const char *route)
{
	json_t *in = json_pack("{s:s}", "route", route);
	enum problem p;

	fx_req(f);
	p = engine_start(&f->r, &gr_wf, in);
	json_decref(in);
	return fx_done(f, p);
}

static enum problem fx_join(struct fx *f, const char *tid, const char *last)
{
	fx_req(f);
	return fx_done(f, engine_join(&f->r, tid, last));
}

static enum problem fx_confirm(struct fx *f, const char *tid, const char *iid, const char *action,
			       const char *payload)
{
	json_t *pl = payload ? json_loads(payload, JSON_DECODE_ANY, NULL) : NULL;
	enum problem p;

	fx_req(f);
	p = fx_done(f, engine_confirm(&f->r, tid, iid, action, pl));
	json_decref(pl);
	return p;
}

/* The first event of a type in the last response, or NULL. */
static json_t *fx_event(struct fx *f, const char *type)
{
	size_t i;
	json_t *e;

	json_array_foreach(f->evs, i, e) {
		json_t *d = json_object_get(e, "data");

		if (json_is_object(d) && strcmp(json_string_value(json_object_get(d, "type")) ?: "", type) == 0)
			return d;
	}
	return NULL;
}

/* The nodes that started in the last response, joined by spaces. */
static const char *fx_nodes(struct fx *f)
{
	static char out[512];
	size_t i;
	json_t *e;

	out[0] = '\0';
	json_array_foreach(f->evs, i, e) {
		json_t *d = json_object_get(e, "data");

		if (json_is_object(d) && strcmp(json_string_value(json_object_get(d, "type")) ?: "",
						"agent_start") == 0)
			snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", out[0] ? " " : "",
				 json_string_value(json_object_get(d, "node")));
	}
	return out;
}

static long long fx_last_id(struct fx *f)
{
	long long last = 0;
	size_t i;
	json_t *e;

	json_array_foreach(f->evs, i, e)
		if (json_integer_value(json_object_get(e, "id")) > last)
			last = json_integer_value(json_object_get(e, "id"));
	return last;
}

static void fx_tid(struct fx *f, char *tid, uint8_t raw[STORE_TID])
{
	json_t *ts = fx_event(f, "thread_start");

	snprintf(tid, TID_LEN + 1, "%s", ts ? json_string_value(json_object_get(ts, "threadId")) : "");
	if (tid_verify(f->app.keys, tid, raw) < 0)
		tap_bail("no thread_start in the response");
}

/* The thread record as stored (new reference). */
static json_t *fx_rec(struct fx *f, const uint8_t raw[STORE_TID])
{
	json_t *rec = NULL;

	if (store_thread_get(f->app.store, NULL, raw, &rec, STORE_READ_COMMITTED) != 0)
		tap_bail("the thread record cannot be read");
	return rec;
}

static const char *fx_status(struct fx *f, const uint8_t raw[STORE_TID])
{
	static char out[32];
	json_t *rec = fx_rec(f, raw);

	snprintf(out, sizeof out, "%s", json_string_value(json_object_get(rec, "status")) ?: "");
	json_decref(rec);
	return out;
}

struct gr_patch {
	const uint8_t *tid;
	json_t *set;
};

static int gr_patch_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct gr_patch *g = p;
	json_t *rec;
	int rc = store_thread_get(s, txn, g->tid, &rec, STORE_RMW);

	if (rc)
		return rc;
	json_object_update(rec, g->set);
	rc = store_thread_put(s, txn, g->tid, rec);
	json_decref(rec);
	return rc;
}

/* Sets fields of the stored thread record (set is stolen). */
static void fx_patch(struct fx *f, const uint8_t raw[STORE_TID], json_t *set)
{
	struct gr_patch g = { raw, set };

	if (store_txn(f->app.store, gr_patch_fn, &g) != 0)
		tap_bail("the thread record cannot be written");
	json_decref(set);
}

/* A process id that no longer exists: a child that has exited and been reaped. */
static pid_t gr_dead_pid(void)
{
	pid_t pid = fork();

	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* --- routing ------------------------------------------------------------ */

struct gr_route {
	const char *name;
	const char *route;
	const char *nodes;       /* agent_start in order */
	const char *status;      /* of the thread afterwards */
	const char *code;        /* of the error event, or NULL for none */
};

static const struct gr_route gr_routes[] = {
	{ "a node that ends", "end", "a", "done", NULL },
	{ "next through b and c", "chain", "a b c", "done", NULL },
	{ "an unknown node", "bogus", "a", "error", "bad_route" },
	{ "a node that fails", "fail", "a", "error", "gr_broken" },
	{ "a node back to itself", "loop", "a loop loop loop loop", "error", "max_iterations" },
	{ "an interrupt pauses", "ask", "a ask", "paused", NULL },
};

static void gr_test_routes(void)
{
	struct fx f;

	fx_open(&f);
	for (size_t i = 0; i < sizeof gr_routes / sizeof gr_routes[0]; i++) {
		const struct gr_route *t = &gr_routes[i];
		char tid[TID_LEN + 1];
		uint8_t raw[STORE_TID];
		json_t *err;

		is_int(fx_start(&f, t->route), PB_OK, "route %s: the request succeeds", t->name);
		fx_tid(&f, tid, raw);
		is_str(fx_nodes(&f), t->nodes, "route %s: nodes run", t->name);
		is_str(fx_status(&f, raw), t->status, "route %s: status %s", t->name, t->status);
		err = fx_event(&f, "error");
		is_str(err ? json_string_value(json_object_get(err, "code")) : NULL, t->code,
		       "route %s: error code", t->name);
	}
	fx_close(&f);
}

/* --- budgets ------------------------------------------------------------ */

struct gr_budget_case {
	long stream_max_ms, request_budget_ms, want;
};

static const struct gr_budget_case gr_budget_cases[] = {
	{ 240000, 25000, 25000 },
	{ 5000, 25000, 5000 },
	{ 1000, 1000, 1000 },
};

struct gr_steps {
	const char *name;
	const char *route;
	long steps_per_request;
	long request_budget_ms;
	int requests;            /* to the end of the thread */
	const char *first;       /* nodes started by the first request */
};

static const struct gr_steps gr_steps_cases[] = {
	{ "no limit", "chain", 0, 25000, 1, "a b c" },
	{ "one step per request", "chain", 1, 25000, 3, "a b" },
	{ "two steps per request", "chain", 2, 25000, 2, "a b c" },
	/* The budget ends the stream after the step that used it up, never
	 * before the first. */
	{ "a 10 ms budget, 30 ms steps", "slow", 0, 10, 4, "a slow" },
};

static void gr_test_budgets(void)
{
	struct fx f;

	fx_open(&f);
	for (size_t i = 0; i < sizeof gr_budget_cases / sizeof gr_budget_cases[0]; i++) {
		const struct gr_budget_case *t = &gr_budget_cases[i];
		struct run run;

		memset(&run, 0, sizeof run);
		run.app = &f.app;
		f.app.conf.stream_max_ms = t->stream_max_ms;
		f.app.conf.request_budget_ms = t->request_budget_ms;
		is_int(run_budget_ms(&run), t->want, "stream budget: stream_max_ms %ld, request_budget_ms %ld",
		       t->stream_max_ms, t->request_budget_ms);
	}
	f.app.conf.stream_max_ms = 240000;
	for (size_t i = 0; i < sizeof gr_steps_cases / sizeof gr_steps_cases[0]; i++) {
		const struct gr_steps *t = &gr_steps_cases[i];
		char tid[TID_LEN + 1], last[24];
		uint8_t raw[STORE_TID];
		int n = 1, yields = 0, gap = 0;
		long long seen;

		f.app.conf.steps_per_request = t->steps_per_request;
		f.app.conf.request_budget_ms = t->request_budget_ms;
		fx_start(&f, t->route);
		fx_tid(&f, tid, raw);
		is_str(fx_nodes(&f), t->first, "%s: the first request starts %s", t->name, t->first);
		seen = fx_last_id(&f);
		while (strcmp(fx_status(&f, raw), "running") == 0 && n < 10) {
			yields += fx_event(&f, "workflow_yield") != NULL;
			snprintf(last, sizeof last, "%lld", seen);
			fx_join(&f, tid, last);
			gap += json_integer_value(json_object_get(json_array_get(f.evs, 0), "id")) != seen + 1;
			seen = fx_last_id(&f);
			n++;
		}
		is_int(n, t->requests, "%s: %d requests to the end", t->name, t->requests);
		is_int(yields, t->requests - 1, "%s: every request but the last yields", t->name);
		is_int(gap, 0, "%s: each request goes on from the last event id seen", t->name);
		is_str(fx_status(&f, raw), "done", "%s: the thread completes", t->name);
	}
	fx_close(&f);
}

/* --- decisions ---------------------------------------------------------- */

struct gr_decision {
	const char *name;
	const char *interrupt;   /* NULL: the one the thread waits for */
	const char *action;
	const char *payload;     /* JSON, or NULL */
	enum problem want;
	const char *detail;      /* a part of the problem's detail */
};

/* In order on one paused thread: every refusal leaves it paused. */
static const struct gr_decision gr_decisions[] = {
	{ "an unknown action", NULL, "maybe", NULL, PB_BAD_REQUEST, "approve, reject or modify" },
	{ "another interrupt", "int-9-00000000", "approve", NULL, PB_NOT_PAUSED, "not waiting" },
	{ "modify without a payload", NULL, "modify", NULL, PB_BAD_REQUEST, "needs a payload" },
	{ "a payload that is no object", NULL, "modify", "[1]", PB_BAD_REQUEST, "must be an object" },
	{ "modify a field not editable", NULL, "modify", "{\"body\": \"x\"}", PB_BAD_REQUEST,
	  "not editable" },
	{ "modify a field with another type", NULL, "modify", "{\"title\": 5}", PB_BAD_REQUEST,
	  "wrong type" },
	{ "modify only feedback", NULL, "modify", "{\"feedback\": \"nicer\"}", PB_BAD_REQUEST,
	  "no editable field" },
	{ "approve with a field", NULL, "approve", "{\"title\": \"new\"}", PB_BAD_REQUEST,
	  "only modify" },
	{ "feedback that is no text", NULL, "reject", "{\"feedback\": 1}", PB_BAD_REQUEST,
	  "feedback must be text" },
};

struct gr_accept {
	const char *action;
	const char *payload;
};

/* Decisions accepted, each on a thread of its own. */
static const struct gr_accept gr_accepts[] = {
	{ "approve", NULL },
	{ "approve", "{\"feedback\": \"fine\"}" },
	{ "reject", "{\"feedback\": \"shorter\"}" },
	{ "modify", "{\"title\": \"new\", \"count\": 2.5}" },
};

static int gr_decided(struct fx *f, const uint8_t raw[STORE_TID])
{
	json_t *rec = fx_rec(f, raw);
	int n = (int)json_object_size(json_object_get(rec, "answers"));

	json_decref(rec);
	return n;
}

static void gr_test_decisions(void)
{
	struct fx f;
	char tid[TID_LEN + 1], iid[64];
	uint8_t raw[STORE_TID];

	fx_open(&f);
	fx_start(&f, "ask");
	fx_tid(&f, tid, raw);
	snprintf(iid, sizeof iid, "%s",
		 json_string_value(json_object_get(fx_event(&f, "ask_user"), "interruptId")) ?: "");
	ok(iid[0], "a pause asks with an interruptId");
	for (size_t i = 0; i < sizeof gr_decisions / sizeof gr_decisions[0]; i++) {
		const struct gr_decision *t = &gr_decisions[i];

		is_int(fx_confirm(&f, tid, t->interrupt ? t->interrupt : iid, t->action, t->payload), t->want,
		       "decision %s: refused", t->name);
		ok(strstr(f.r.detail, t->detail) != NULL, "decision %s: says so (%s)", t->name, f.r.detail);
		ok(strcmp(fx_status(&f, raw), "paused") == 0 && gr_decided(&f, raw) == 0,
		   "decision %s: the thread still waits", t->name);
	}
	for (size_t i = 0; i < sizeof gr_accepts / sizeof gr_accepts[0]; i++) {
		const struct gr_accept *t = &gr_accepts[i];
		long long before;
		json_t *rec;
		size_t n;

		fx_start(&f, "ask");
		fx_tid(&f, tid, raw);
		snprintf(iid, sizeof iid, "%s",
			 json_string_value(json_object_get(fx_event(&f, "ask_user"), "interruptId")) ?: "");
		is_int(fx_confirm(&f, tid, iid, t->action, t->payload), PB_OK, "%s %s: accepted", t->action,
		       t->payload ? t->payload : "");
		is_str(fx_nodes(&f), "after", "%s %s: the node the interrupt named runs", t->action,
		       t->payload ? t->payload : "");
		rec = fx_rec(&f, raw);
		is_str(json_string_value(json_object_get(rec, "status")), "done", "%s: the thread completes",
		       t->action);
		before = json_integer_value(json_object_get(rec, "seq"));
		json_decref(rec);
		n = json_array_size(f.evs);
		/* The same decision again: the answer's events are replayed, nothing is decided twice. */
		is_int(fx_confirm(&f, tid, iid, t->action, t->payload), PB_OK, "%s again: 200", t->action);
		rec = fx_rec(&f, raw);
		ok(json_integer_value(json_object_get(rec, "seq")) == before && gr_decided(&f, raw) == 1,
		   "%s again: nothing new in the log, one answer", t->action);
		json_decref(rec);
		is_int(json_array_size(f.evs), n, "%s again: the same events replayed", t->action);
		is_int(fx_confirm(&f, tid, iid, strcmp(t->action, "approve") ? "approve" : "reject", NULL),
		       PB_OK, "%s, then the other action: the first answer stands", t->action);
		is_int(gr_decided(&f, raw), 1, "%s, then the other action: still one answer", t->action);
	}
	fx_close(&f);
}

/* --- leases ------------------------------------------------------------- */

enum gr_owner { GR_NONE, GR_SELF, GR_LIVE, GR_DEAD, GR_ZERO };

struct gr_lease {
	const char *name;
	enum gr_owner owner;
	long long until;         /* relative to now, ms */
	int free, mine;
	const char *host;        /* the lease's host id, NULL for none (this host: "") */
};

static const struct gr_lease gr_leases[] = {
	{ "no lease", GR_NONE, 0, 1, 0, NULL },
	{ "this process's (left over)", GR_SELF, 60000, 1, 1, NULL },
	{ "a live process's", GR_LIVE, 60000, 0, 0, NULL },
	{ "a live process's, expired", GR_LIVE, -1, 1, 0, NULL },
	{ "a dead process's", GR_DEAD, 60000, 1, 0, NULL },
	{ "no process", GR_ZERO, 60000, 1, 0, NULL },
	{ "this host's, named", GR_DEAD, 60000, 1, 0, "" },
	{ "another host's, same pid", GR_SELF, 60000, 0, 0, "host-b" },
	{ "another host's, a pid dead here", GR_DEAD, 60000, 0, 0, "host-b" },
	{ "another host's, no process", GR_ZERO, 60000, 0, 0, "host-b" },
	{ "another host's, expired", GR_DEAD, -1, 1, 0, "host-b" },
};

struct gr_crash {
	const char *name;
	enum gr_owner owner;
	int step;
	const char *before;      /* the "crash" field, JSON, or NULL */
	long want;               /* lease_crashes after lease_count_crash */
};

static const struct gr_crash gr_crashes[] = {
	{ "first crash at a step", GR_DEAD, 3, NULL, 1 },
	{ "again at the same step", GR_DEAD, 3, "{\"step\": 3, \"n\": 1}", 2 },
	{ "at a later step", GR_DEAD, 4, "{\"step\": 3, \"n\": 5}", 1 },
	{ "a live owner is no crash", GR_LIVE, 3, NULL, 0 },
	{ "no owner is no crash", GR_NONE, 3, NULL, 0 },
	{ "this process is no crash", GR_SELF, 3, "{\"step\": 3, \"n\": 1}", 1 },
};

static json_t *gr_lease_rec(enum gr_owner owner, long long until, pid_t dead, const char *host)
{
	pid_t pid = owner == GR_SELF ? getpid() : owner == GR_LIVE ? getppid() :
		    owner == GR_DEAD ? dead : 0;
	json_t *rec = json_object();

	if (owner != GR_NONE)
		json_object_set_new(rec, "lease", json_pack("{s:i, s:I}", "pid", (int)pid, "until",
							    (json_int_t)until));
	if (owner != GR_NONE && host)
		json_object_set_new(json_object_get(rec, "lease"), "host", json_string(host));
	return rec;
}

static void gr_test_leases(void)
{
	long long now = 1000000000000LL;
	pid_t dead = gr_dead_pid();
	json_t *rec;

	for (size_t i = 0; i < sizeof gr_leases / sizeof gr_leases[0]; i++) {
		const struct gr_lease *t = &gr_leases[i];

		rec = gr_lease_rec(t->owner, now + t->until, dead, t->host);
		is_int(lease_free(rec, now), t->free, "lease %s: %s", t->name, t->free ? "free" : "held");
		is_int(lease_mine(rec), t->mine, "lease %s: %s", t->name, t->mine ? "mine" : "not mine");
		json_decref(rec);
	}
	rec = gr_lease_rec(GR_LIVE, now + 60000, dead, NULL);
	lease_set(rec, now, 5000);
	ok(lease_mine(rec) && json_integer_value(json_object_get(json_object_get(rec, "lease"), "until")) ==
	   now + 5000, "lease_set: this process's, until now + ms");
	json_decref(rec);
	lease_host_set("host-a");
	rec = gr_lease_rec(GR_NONE, 0, dead, NULL);
	lease_set(rec, now, 5000);
	is_str(json_string_value(json_object_get(json_object_get(rec, "lease"), "host")), "host-a",
	       "lease_set: names this host");
	ok(lease_mine(rec), "lease_set with a host id: mine");
	lease_host_set("host-c");
	ok(!lease_mine(rec) && !lease_free(rec, now), "the same pid on another host: held, not mine");
	ok(lease_free(rec, now + 5001), "the same pid on another host: free once expired");
	json_decref(rec);
	rec = gr_lease_rec(GR_DEAD, now + 60000, dead, "host-a");
	json_object_set_new(rec, "step", json_integer(3));
	lease_count_crash(rec);
	is_int(lease_crashes(rec), 0, "crashes: a pid of another host is no crash seen from here");
	json_decref(rec);
	lease_host_set("");
	for (size_t i = 0; i < sizeof gr_crashes / sizeof gr_crashes[0]; i++) {
		const struct gr_crash *t = &gr_crashes[i];

		rec = gr_lease_rec(t->owner, now + 60000, dead, NULL);
		json_object_set_new(rec, "step", json_integer(t->step));
		if (t->before)
			json_object_set_new(rec, "crash", json_loads(t->before, 0, NULL));
		lease_count_crash(rec);
		is_int(lease_crashes(rec), t->want, "crashes %s: %ld", t->name, t->want);
		lease_crash_clear(rec);
		is_int(lease_crashes(rec), 0, "crashes %s: cleared", t->name);
		json_decref(rec);
	}
}

struct gr_takeover {
	const char *name;
	enum gr_owner owner;
	int crashes_before;      /* at the thread's step, before the takeover */
	const char *status;      /* after a join */
	const char *code;        /* of the error, or NULL */
};

/* A thread left running at node b, as by a worker that stopped there. */
static const struct gr_takeover gr_takeovers[] = {
	{ "a dead owner: taken over, the thread completes", GR_DEAD, 0, "done", NULL },
	{ "a dead owner, crashed twice (max_step_crashes 2)", GR_DEAD, 1, "done", NULL },
	{ "a dead owner, the third crash at the step", GR_DEAD, 2, "error", "step_crashed" },
	{ "a live owner: followed, not run", GR_LIVE, 0, "running", NULL },
};

static void gr_test_takeover(void)
{
	struct fx f;

	fx_open(&f);
	f.app.conf.max_step_crashes = 2;
	for (size_t i = 0; i < sizeof gr_takeovers / sizeof gr_takeovers[0]; i++) {
		const struct gr_takeover *t = &gr_takeovers[i];
		char tid[TID_LEN + 1], last[24];
		uint8_t raw[STORE_TID];
		json_t *rec, *err;
		pid_t pid;

		f.app.conf.steps_per_request = 1;
		f.app.conf.request_budget_ms = t->owner == GR_LIVE ? 300 : 25000;
		fx_start(&f, "chain");
		fx_tid(&f, tid, raw);
		snprintf(last, sizeof last, "%lld", fx_last_id(&f));
		rec = fx_rec(&f, raw);
		pid = t->owner == GR_DEAD ? gr_dead_pid() : getppid();
		fx_patch(&f, raw, json_pack("{s:s, s:{s:i, s:I}, s:{s:O, s:i}}", "status", "running", "lease",
					    "pid", (int)pid, "until", (json_int_t)(time(NULL) + 60) * 1000,
					    "crash", "step", json_object_get(rec, "step"), "n",
					    t->crashes_before));
		json_decref(rec);
		f.app.conf.steps_per_request = 0;
		fx_join(&f, tid, last);
		is_str(fx_status(&f, raw), t->status, "takeover, %s: status %s", t->name, t->status);
		err = fx_event(&f, "error");
		is_str(err ? json_string_value(json_object_get(err, "code")) : NULL, t->code,
		       "takeover, %s: error code", t->name);
		rec = fx_rec(&f, raw);
		ok(t->owner == GR_LIVE ? json_integer_value(json_object_get(json_object_get(rec, "lease"), "pid"))
		   == pid : json_is_null(json_object_get(rec, "lease")),
		   "takeover, %s: %s", t->name, t->owner == GR_LIVE ? "the lease stays the owner's" :
		   "the lease is given back");
		json_decref(rec);
	}
	fx_close(&f);
}

int main(void)
{
	if (sodium_init() < 0)
		tap_bail("sodium_init");
	wf_register(&gr_wf);
	gr_test_routes();
	gr_test_budgets();
	gr_test_decisions();
	gr_test_leases();
	gr_test_takeover();
	return tap_done();
}
