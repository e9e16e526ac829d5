/* The execution of an orchestrate plan: groups in order; within a group
 * one step advances every unfinished stage by one iteration of its tool
 * loop, with one batch of model calls for all of them, so their requests
 * overlap on the curl multi engine. Each stage's progress (messages, tool
 * results, iteration) and its result are in the state the engine
 * commits after the step: a worker killed in the middle of a group re-runs
 * only unfinished stages, each from its last committed iteration. A
 * failed stage is retried ([workflow.orchestrate] stage_retries, with
 * backoff), skipped (its dependents are told) or ends the run (abort). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "json/dump.h"
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "prov/vendors.h"
#include "text/msg.h"
#include "util/clock.h"
#include "util/jnum.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch.h"
#include "wf/orchestrate/orch_rules.h"
#include "wf/orchestrate/orch_tools.h"

#define ORCH_BATCH_MAX 16
#define ORCH_BACKOFF_MS 250

/* The function definitions of the agent's tools (orch_tools.h), for the
 * model. New reference. */
json_t *orch_tools_for(const json_t *agent)
{
	json_t *out = json_array(), *t;
	size_t i;

	json_array_foreach(json_object_get(agent, "tools"), i, t) {
		json_t *schema = orch_tool_schema(json_string_value(t));

		if (schema)
			json_array_append_new(out, schema);
	}
	return out;
}

json_t *orch_tool_call(struct step_ctx *c, const char *stage_id, const char *name,
		       const json_t *args)
{
	return orch_tool_run(c, stage_id, name, args);
}

/* An agent's offline rules (orch_rules.h); the planner's are its own. */
prov_rules_fn orch_agent_rules(const char *agent_id)
{
	return orch_rules_for(agent_id);
}

static json_t *orch_stages(struct step_ctx *c)
{
	return json_object_get(c->state, "stages");
}

static json_t *orch_ev(struct step_ctx *c, const char *type, const char *stage_id)
{
	json_t *ev = step_event(c, type);

	if (stage_id)
		json_object_set_new(ev, "stageId", json_string(stage_id));
	return ev;
}

static void orch_progress(struct step_ctx *c, const char *agent)
{
	json_t *order = json_object_get(json_object_get(c->state, "plan"), "executionOrder");
	json_t *ev = step_event(c, "workflow_progress"), *st;
	size_t done = 0, total = json_object_size(orch_stages(c));
	json_int_t g = json_integer_value(json_object_get(c->state, "groupIndex"));
	const char *id;

	json_object_foreach(orch_stages(c), id, st) {
		const char *s = json_string_value(json_object_get(st, "status")) ?: "";

		done += strcmp(s, "done") == 0 || strcmp(s, "failed") == 0 || strcmp(s, "skipped") == 0;
	}
	json_object_set_new(ev, "phase", json_string("execute"));
	json_object_set_new(ev, "progress", jnum_real(total ? (double)done / total : 1.0, JNUM_SCORE));
	json_object_set_new(ev, "currentAgent", agent ? json_string(agent) : json_null());
	json_object_set_new(ev, "group", json_integer(g + 1));
	json_object_set_new(ev, "groups", json_integer((json_int_t)json_array_size(order)));
	json_object_set_new(ev, "done", json_integer((json_int_t)done));
	json_object_set_new(ev, "total", json_integer((json_int_t)total));
	step_emit(c, ev);
}

/* The stage's end and its stage_end event; extra (stolen, NULL: none)
 * adds its members to the event (reason, reasons). */
static void orch_stage_end(struct step_ctx *c, const char *id, json_t *st, const char *status,
			   const char *summary, json_t *extra)
{
	json_t *ev = orch_ev(c, "stage_end", id);
	json_int_t began = json_integer_value(json_object_get(st, "startedAt"));

	json_object_set_new(st, "status", json_string(status));
	json_object_set_new(st, "endedAt", json_integer(clock_wall_ms()));
	json_object_del(st, "messages");
	json_object_del(st, "repair");
	json_object_set_new(ev, "status", json_string(status));
	json_object_set_new(ev, "duration", json_integer(began ? clock_wall_ms() - began : 0));
	json_object_set(ev, "toolsUsed", json_object_get(st, "toolsUsed"));
	json_object_set_new(ev, "summary", json_string(summary ? summary : ""));
	if (extra)
		json_object_update(ev, extra);
	json_decref(extra);
	step_emit(c, ev);
	orch_progress(c, json_string_value(json_object_get(st, "agent")));
}

/* A stage (re)starts its loop: the first messages, no tool results. */
static void orch_stage_begin(struct step_ctx *c, const char *id, json_t *st, const json_t *agent)
{
	json_t *facts, *ev;

	json_object_set_new(st, "iteration", json_integer(0));
	json_object_set_new(st, "toolResults", json_array());
	facts = orch_stage_facts(c, agent, id);
	json_object_set_new(st, "messages", orch_stage_messages(agent, facts));
	json_decref(facts);
	if (strcmp(json_string_value(json_object_get(st, "status")) ?: "", "running") == 0)
		return;
	json_object_set_new(st, "status", json_string("running"));
	json_object_set_new(st, "startedAt", json_integer(clock_wall_ms()));
	ev = orch_ev(c, "stage_start", id);
	json_object_set(ev, "agent", json_object_get(st, "agent"));
	json_object_set(ev, "group", json_object_get(st, "group"));
	step_emit(c, ev);
}

/* A repair round: the answer that failed its expectation and the reasons,
 * after the stage's first messages, so the agent answers again knowing
 * what was wrong. */
static void orch_stage_repair(struct step_ctx *c, json_t *st, const json_t *reasons,
			      const char *answer)
{
	json_t *msgs = json_object_get(st, "messages");
	char *list = orch_expect_join(reasons);
	char *ask = msg_fmt(step_lang(c), "orch.expect.repair", list);

	json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "assistant", "content",
					      answer ? answer : ""));
	json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "user", "content", ask));
	free(ask);
	free(list);
}

static void orch_stage_retry_event(struct step_ctx *c, const char *id, json_int_t attempt,
				   const char *code, const char *why, const json_t *reasons)
{
	json_t *ev = orch_ev(c, "stage_retry", id);

	json_object_set_new(ev, "attempt", json_integer(attempt));
	json_object_set_new(ev, "reason", json_string(code));
	json_object_set_new(ev, "message", json_string(why));
	if (reasons)
		json_object_set(ev, "reasons", (json_t *)reasons);
	step_emit(c, ev);
}

/* A failed attempt, by the run's error strategy. reasons (borrowed, NULL:
 * none) and answer (NULL: none) are those of an answer that did not meet
 * its expectation: a retry is then a repair round. -1: the run ends. */
static int orch_stage_failed(struct step_ctx *c, const char *id, json_t *st, const json_t *agent,
			     const char *code, const char *why, const json_t *reasons,
			     const char *answer)
{
	const char *strategy = json_string_value(json_object_get(c->state, "errorStrategy")) ?: "abort";
	json_int_t attempts = json_integer_value(json_object_get(st, "attempts")) + 1;
	char *msg;

	json_object_set_new(st, "attempts", json_integer(attempts));
	json_object_set_new(st, "error", json_pack("{s:s, s:s, s:O?}", "code", code, "message", why,
						   "reasons", reasons));
	if (strcmp(strategy, "retry") == 0 && attempts <= orch_conf(c)->stage_retries) {
		json_object_set_new(st, "notBefore",
				    json_integer(clock_mono_ms() + (ORCH_BACKOFF_MS << (attempts - 1))));
		if (reasons)
			json_object_set(st, "repair", (json_t *)reasons);
		else
			json_object_del(st, "repair");
		orch_stage_begin(c, id, st, agent);
		if (reasons)
			orch_stage_repair(c, st, reasons, answer);
		orch_stage_retry_event(c, id, attempts, code, why, reasons);
		return 0;
	}
	msg = msg_fmt(step_lang(c), "orch.stage.failed", id, why);
	orch_stage_end(c, id, st, strcmp(strategy, "skip") == 0 ? "skipped" : "failed", msg,
		       json_pack("{s:s, s:O?}", "reason", code, "reasons", reasons));
	free(msg);
	if (strcmp(strategy, "skip") == 0 || strcmp(strategy, "retry") == 0)
		return strcmp(strategy, "skip") == 0 ? 0 : -1;
	return -1;
}

static void orch_add_used(json_t *st, const char *name)
{
	json_t *used = json_object_get(st, "toolsUsed"), *v;
	size_t i;

	json_array_foreach(used, i, v)
		if (strcmp(json_string_value(v), name) == 0)
			return;
	json_array_append_new(used, json_string(name));
}

/* The answer asked for tools: run them, with their events, and extend
 * the loop's messages and tool results. */
static void orch_run_tools(struct step_ctx *c, const char *id, json_t *st, const struct prov_answer *a)
{
	json_t *calls = json_array(), *msgs = json_object_get(st, "messages"), *tc;
	size_t i;

	json_array_foreach(a->tool_calls, i, tc) {
		char *args = jtext(json_object_get(tc, "arguments"), JSON_COMPACT);

		json_array_append_new(calls, json_pack("{s:O, s:s, s:{s:O, s:s}}", "id",
			json_object_get(tc, "id"), "type", "function", "function", "name",
			json_object_get(tc, "name"), "arguments", args ? args : "{}"));
		free(args);
	}
	json_array_append_new(msgs, json_pack("{s:s, s:s?, s:o}", "role", "assistant", "content",
					      a->text, "tool_calls", calls));
	json_array_foreach(a->tool_calls, i, tc) {
		const char *name = json_string_value(json_object_get(tc, "name"));
		const json_t *args = json_object_get(tc, "arguments");
		json_t *ev = orch_ev(c, "tool_call", id), *res;
		json_int_t n = json_integer_value(json_object_get(c->state, "toolCalls")) + 1;
		char *dump, eid[96];

		/* The model's ids are its own (two stages may both say
		 * "call_1"): the events number the thread's calls. */
		json_object_set_new(c->state, "toolCalls", json_integer(n));
		snprintf(eid, sizeof eid, "%.64s-%lld", id, (long long)n);
		json_object_set_new(ev, "tool", json_string(name));
		json_object_set_new(ev, "toolCallId", json_string(eid));
		json_object_set(ev, "toolInput", (json_t *)args);
		step_emit(c, ev);
		res = orch_tool_call(c, id, name, args);
		ev = orch_ev(c, "tool_result", id);
		json_object_set_new(ev, "tool", json_string(name));
		json_object_set_new(ev, "toolCallId", json_string(eid));
		json_object_set(ev, "toolOutput", res);
		step_emit(c, ev);
		dump = jtext(res, JSON_COMPACT);
		json_array_append_new(msgs, json_pack("{s:s, s:O, s:s}", "role", "tool", "tool_call_id",
						      json_object_get(tc, "id"), "content", dump ? dump : "{}"));
		free(dump);
		json_array_append_new(json_object_get(st, "toolResults"),
				      json_pack("{s:s, s:O, s:o}", "name", name, "arguments", args, "result", res));
		orch_add_used(st, name);
	}
}

static const json_t *orch_exec_subtask(struct step_ctx *c, const char *id)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(json_object_get(c->state, "plan"), "subtasks"), i, s)
		if (strcmp(json_string_value(json_object_get(s, "id")) ?: "", id) == 0)
			return s;
	return NULL;
}

/* An answer whose structured data says the agent declined the step:
 * {"declined": true, "reason": words}. */
static int orch_declined(const json_t *sd)
{
	return json_is_object(sd) && json_is_true(json_object_get(sd, "declined"));
}

/* A declined step: skipped with the agent's reason, which its dependents
 * and the result are given; not retried (it would say the same). */
static void orch_stage_declined(struct step_ctx *c, const char *id, json_t *st, json_t *ctx)
{
	const char *r = json_string_value(json_object_get(json_object_get(ctx, "structuredData"),
							  "reason")) ?: "";
	char *msg = msg_fmt(step_lang(c), "orch.stage.declined", r);

	json_object_set_new(st, "context", ctx);
	json_object_set_new(st, "skipReason", json_pack("{s:s, s:s}", "code", "declined", "message",
							*r ? r : msg));
	orch_stage_end(c, id, st, "skipped", msg, json_pack("{s:s}", "reason", "declined"));
	free(msg);
}

/* A final answer: its StageContext; a declined step is skipped, else the
 * answer is checked against the subtask's expectation, and one that does
 * not meet it is a failure (bad_output). -1: the run ends. */
static int orch_stage_result(struct step_ctx *c, const char *id, json_t *st, const json_t *agent,
			     const char *text)
{
	json_t *ctx = orch_stage_context(c, id, st, text), *reasons;
	char sum[160];
	int rc = 0;

	if (orch_declined(json_object_get(ctx, "structuredData"))) {
		orch_stage_declined(c, id, st, ctx);
		return 0;
	}
	reasons = orch_expect_reasons(json_object_get(orch_exec_subtask(c, id), "expect"),
				      json_object_get(ctx, "structuredData"), step_lang(c));
	if (json_array_size(reasons)) {
		char *list = orch_expect_join(reasons);
		char *why = msg_fmt(step_lang(c), "orch.stage.bad_output", list);

		json_decref(ctx);
		rc = orch_stage_failed(c, id, st, agent, "bad_output", why, reasons, text);
		free(why);
		free(list);
	} else {
		json_object_set_new(st, "context", ctx);
		snprintf(sum, sizeof sum, "%.150s", text ? text : "");
		orch_stage_end(c, id, st, "done", sum, NULL);
	}
	json_decref(reasons);
	return rc;
}

/* A stage whose condition does not hold: skipped before it starts, with
 * the reason its dependents are told. */
static void orch_stage_unmet(struct step_ctx *c, const char *id, json_t *st, const json_t *sub)
{
	const json_t *cond = json_object_get(sub, "condition");
	const char *path = json_string_value(json_object_get(cond, "path")) ?: "";
	char *msg = msg_fmt(step_lang(c), "orch.stage.condition_not_met",
			    json_string_value(json_object_get(cond, "input")) ?: "",
			    *path ? path : "\"\"",   /* the whole structured data */
			    json_string_value(json_object_get(cond, "test")) ?: "");

	json_object_set_new(st, "skipReason", json_pack("{s:s, s:s}", "code", "condition_not_met",
							"message", msg));
	orch_stage_end(c, id, st, "skipped", msg,
		       json_pack("{s:s, s:O}", "reason", "condition_not_met", "condition", cond));
	free(msg);
}

/* One answer into its stage. -1: the run ends (abort). */
static int orch_stage_answer(struct step_ctx *c, const char *id, json_t *st, const json_t *agent,
			     const struct prov_answer *a)
{
	json_int_t it = json_integer_value(json_object_get(st, "iteration")) + 1;
	json_int_t max = json_integer_value(json_object_get(agent, "maxIterations"));

	if (a->status != PROV_OK)
		return orch_stage_failed(c, id, st, agent, prov_status_name(a->status), a->error, NULL,
					 NULL);
	json_object_set_new(st, "iteration", json_integer(it));
	if (a->tool_calls) {
		orch_run_tools(c, id, st, a);
		if (it >= max)
			return orch_stage_failed(c, id, st, agent, "max_iterations",
						 msg_get(step_lang(c), "orch.stage.max_iterations"), NULL,
						 NULL);
		return 0;
	}
	return orch_stage_result(c, id, st, agent, a->text);
}

struct orch_batch {
	size_t n;
	const char *ids[ORCH_BATCH_MAX];
	const json_t *agents[ORCH_BATCH_MAX];
	char tasks[ORCH_BATCH_MAX][64];
	struct chat_call calls[ORCH_BATCH_MAX];
	json_t *facts[ORCH_BATCH_MAX], *tools[ORCH_BATCH_MAX];
	struct conf_provider provs[ORCH_BATCH_MAX];
	struct prov_answer out[ORCH_BATCH_MAX];
};

/* The provider of an agent's calls: its modelOverride's [provider.NAME]
 * with the model it names; a vision agent without one, [provider.vision]
 * when that is a real model; else NULL (the chat role's). The model is
 * borrowed from the agent. */
static const struct conf_provider *orch_provider(struct step_ctx *c, const json_t *agent,
						 struct conf_provider *slot)
{
	const json_t *mo = json_object_get(agent, "modelOverride");
	const struct conf *cf = step_conf(c);
	const struct conf_provider *pv;
	const char *model;

	if (mo == NULL) {
		pv = &cf->prov[PROV_VISION];
		return strcmp(json_string_value(json_object_get(agent, "layer")) ?: "", "vision") == 0 &&
		       !prov_kind_by_rules(pv->kind) ? pv : NULL;
	}
	pv = conf_provider_named(cf, json_string_value(json_object_get(mo, "provider")));
	if (pv == NULL)
		return NULL;   /* orch_agents() refuses such a registry */
	*slot = *pv;
	model = json_string_value(json_object_get(mo, "model"));
	if (model && *model)
		slot->model = (char *)model;
	return slot;
}

static void orch_batch_add(struct step_ctx *c, struct orch_batch *b, const char *id, json_t *st,
			   const json_t *agent)
{
	size_t i = b->n++;
	const char *aid = json_string_value(json_object_get(agent, "id"));

	b->ids[i] = id;
	b->agents[i] = agent;
	snprintf(b->tasks[i], sizeof b->tasks[i], "agent:%s", aid);
	b->facts[i] = orch_stage_facts(c, agent, id);
	b->tools[i] = orch_tools_for(agent);
	memset(&b->calls[i], 0, sizeof b->calls[i]);
	b->calls[i].task = b->tasks[i];
	b->calls[i].rules = orch_agent_rules(aid);
	b->calls[i].messages = json_object_get(st, "messages");
	b->calls[i].facts = b->facts[i];
	b->calls[i].tools = b->tools[i];
	b->calls[i].temperature = 0.2;
	b->calls[i].provider = orch_provider(c, agent, &b->provs[i]);
}

static void orch_batch_free(struct orch_batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		json_decref(b->facts[i]);
		json_decref(b->tools[i]);
		prov_answer_free(&b->out[i]);
	}
}

/* The group's unfinished stages into the batch; the first stage waits for
 * the earliest backoff to pass. Returns the number still running. */
static size_t orch_collect(struct step_ctx *c, const json_t *grp, struct kb *agents,
			   struct orch_batch *b)
{
	size_t k, running = 0;
	json_t *v;
	long long now = clock_mono_ms(), wait = 0;

	json_array_foreach(grp, k, v) {
		const char *id = json_string_value(v);
		json_t *st = json_object_get(orch_stages(c), id);
		const char *s = json_string_value(json_object_get(st, "status")) ?: "";
		const json_t *agent = kb_find(agents, json_string_value(json_object_get(st, "agent")));
		long long nb = json_integer_value(json_object_get(st, "notBefore"));

		if (strcmp(s, "done") == 0 || strcmp(s, "failed") == 0 || strcmp(s, "skipped") == 0 ||
		    agent == NULL || b->n == ORCH_BATCH_MAX)
			continue;
		if (strcmp(s, "waiting") == 0 && !orch_cond_holds(orch_exec_subtask(c, id), orch_stages(c))) {
			orch_stage_unmet(c, id, st, orch_exec_subtask(c, id));
			continue;
		}
		running++;
		if (strcmp(s, "waiting") == 0)
			orch_stage_begin(c, id, st, agent);
		if (nb > now) {
			wait = wait == 0 || nb - now < wait ? nb - now : wait;
			continue;
		}
		orch_batch_add(c, b, id, st, agent);
	}
	if (b->n == 0 && running && wait > 0) {
		usleep((useconds_t)(wait < step_time_left(c) ? wait : step_time_left(c)) * 1000);
	}
	return running;
}

static enum node_rc orch_next_group(struct step_ctx *c, size_t ngroups)
{
	json_int_t g = json_integer_value(json_object_get(c->state, "groupIndex")) + 1;

	json_object_set_new(c->state, "groupIndex", json_integer(g));
	c->next = (size_t)g >= ngroups ? "complete" : "execute";
	return NODE_NEXT;
}

enum node_rc orch_execute(struct step_ctx *c)
{
	const json_t *order = json_object_get(json_object_get(c->state, "plan"), "executionOrder");
	json_int_t g = json_integer_value(json_object_get(c->state, "groupIndex"));
	struct orch_batch *b;
	struct kb *agents;
	char err[160];
	int abort = 0;

	if ((size_t)g >= json_array_size(order)) {
		c->next = "complete";
		return NODE_NEXT;
	}
	if ((agents = orch_agents(step_app(c), err, sizeof err)) == NULL)
		return step_fail(c, "internal", "%s", err);
	b = xcalloc(1, sizeof *b);
	if (orch_collect(c, json_array_get(order, (size_t)g), agents, b) == 0) {
		free(b);
		return orch_next_group(c, json_array_size(order));
	}
	if (b->n)
		step_chat_many(c, b->calls, b->n, b->out);
	for (size_t i = 0; i < b->n && !abort; i++)
		abort = orch_stage_answer(c, b->ids[i],
					  json_object_get(orch_stages(c), b->ids[i]), b->agents[i],
					  &b->out[i]) < 0;
	for (size_t i = 0; abort && i < b->n; i++)
		if (strcmp(json_string_value(json_object_get(json_object_get(orch_stages(c), b->ids[i]),
							     "status")) ?: "", "failed") == 0) {
			snprintf(err, sizeof err, "%s", b->ids[i]);
			break;
		}
	orch_batch_free(b);
	free(b);
	if (abort) {
		int retried = strcmp(json_string_value(json_object_get(c->state, "errorStrategy")) ?: "",
				     "retry") == 0;
		char *m = retried ? msg_fmt(step_lang(c), "orch.error.retries_exhausted", err,
					    (long long)orch_conf(c)->stage_retries)
				  : msg_fmt(step_lang(c), "orch.error.stage_failed", err);
		enum node_rc rc = step_fail(c, retried ? "retries_exhausted" : "stage_failed", "%s", m);

		free(m);
		return rc;
	}
	c->next = "execute";
	return NODE_NEXT;
}
