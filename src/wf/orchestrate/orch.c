/* The orchestrate workflow (seed 003): the run's input, the plan (the
 * planner agent, or a template's plan) with its checks and one repair
 * round, the pause on the plan (approve / reject with feedback / modify,
 * re-checked), the execution (orch_exec.c) and the result. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "text/msg.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "media/imgnorm.h"
#include "wf/orchestrate/orch.h"
#include "wf/orchestrate/orch_ws.h"

#define ORCH_TASK_MAX 8000
#define ORCH_REPLANS_MAX 3
#define ORCH_ATTACH_MAX 8
/* The first bytes of a text attachment the planner reads. */
#define ORCH_HEAD_MAX 4096

static int orch_known(void *ctx, const char *agent)
{
	return kb_find(ctx, agent) != NULL;
}

static const json_t *orch_template(struct step_ctx *c, const char *id)
{
	char err[160];
	struct kb *t = id ? orch_templates(step_app(c), err, sizeof err) : NULL;

	return t ? kb_find(t, id) : NULL;
}

/* The attachments of the input, checked by their bytes (normalizeImageData,
 * any file allowed) and landed in the workspace under their names; the
 * state lists them {path, mimeType, size}. The workspace lives in the
 * state, so it is the new state while they land. 0, or -1 with err. */
static int orch_land(struct step_ctx *c, json_t *state, const json_t *atts, char *err,
		     size_t errlen)
{
	json_t *saved = c->state, *a;
	size_t i;
	int rc = 0;

	if (atts && !json_is_null(atts) && (!json_is_array(atts) ||
					    json_array_size(atts) > ORCH_ATTACH_MAX))
		return snprintf(err, errlen, "attachments: a list of at most %d files", ORCH_ATTACH_MAX),
		       -1;
	c->state = state;
	json_array_foreach(atts, i, a) {
		struct imgnorm im;
		char why[256];

		if (orch_ws_attachment(c, a, IMGNORM_ANY_FILE, &im, why, sizeof why) < 0) {
			snprintf(err, errlen, "attachments[%zu]: %s", i, why);
			rc = -1;
			break;
		}
		rc = orch_ws_put(c, im.name, im.mime, im.data, im.len, NULL, why, sizeof why);
		if (rc == 0)
			json_array_append_new(json_object_get(state, "attachments"), json_pack(
				"{s:s, s:s, s:I}", "path", im.name, "mimeType", im.mime, "size",
				(json_int_t)im.len));
		else
			snprintf(err, errlen, "attachments[%zu]: %s", i, why);
		imgnorm_free(&im);
		if (rc < 0)
			break;
	}
	c->state = saved;
	return rc;
}

static int orch_has_image(const json_t *state)
{
	size_t i;
	json_t *a;

	json_array_foreach(json_object_get(state, "attachments"), i, a)
		if (strncmp(json_string_value(json_object_get(a, "mimeType")) ?: "", "image/", 6) == 0)
			return 1;
	return 0;
}

static json_t *orch_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	const char *task = json_string_value(json_object_get(input, "task"));
	const char *tpl = json_string_value(json_object_get(input, "template"));
	const char *es = json_string_value(json_object_get(input, "errorStrategy"));
	const json_t *t = orch_template(c, tpl);
	json_t *st;

	if (task == NULL || *task == '\0' || strlen(task) > ORCH_TASK_MAX)
		return snprintf(err, errlen, "task: a text of 1 to %d bytes is required", ORCH_TASK_MAX),
		       NULL;
	if (tpl && t == NULL)
		return snprintf(err, errlen, "template: no template %s", tpl), NULL;
	if (es && strcmp(es, "retry") && strcmp(es, "skip") && strcmp(es, "abort"))
		return snprintf(err, errlen, "errorStrategy: retry, skip or abort"), NULL;
	if (es == NULL)
		es = t ? json_string_value(json_object_get(t, "errorStrategy")) : NULL;
	st = json_pack("{s:s, s:s?, s:s, s:[], s:{}, s:{}, s:i, s:i}", "task", task, "template", tpl,
		       "errorStrategy", es ? es : "abort", "attachments", "stages", "workspace",
		       "groupIndex", 0, "replans", 0);
	if (orch_land(c, st, json_object_get(input, "attachments"), err, errlen) < 0) {
		json_decref(st);
		return NULL;
	}
	if (json_is_true(json_object_get(t, "needsImage")) && !orch_has_image(st)) {
		char *m = msg_fmt(step_lang(c), "orch.error.template_needs_image", tpl);

		snprintf(err, errlen, "%s", m);
		free(m);
		json_decref(st);
		return NULL;
	}
	return st;
}

/* The attachments as the planner sees them: a text file with its first
 * bytes (a log's stack trace, a file's kind), cut on a character. New
 * reference. */
static json_t *orch_plan_attachments(struct step_ctx *c)
{
	json_t *out = json_deep_copy(json_object_get(c->state, "attachments")), *a;
	size_t i;

	if (out == NULL)
		return json_array();
	json_array_foreach(out, i, a) {
		const char *path = json_string_value(json_object_get(a, "path"));
		char *mime = NULL;
		void *data = NULL;
		size_t len = 0;

		if (path && orch_ws_get(c, path, &mime, &data, &len) == 0 && mime &&
		    strncmp(mime, "image/", 6) != 0) {
			size_t n = len < ORCH_HEAD_MAX ? len : ORCH_HEAD_MAX;
			char *head = xstrndup(data, n);

			/* cut before a character the limit splits */
			while (n > 0 && n < len && (((const unsigned char *)data)[n] & 0xC0) == 0x80)
				head[--n] = '\0';
			if (strlen(head) == n)   /* text, not binary */
				json_object_set_new(a, "head", json_string(head));
			free(head);
		}
		free(mime);
		free(data);
	}
	return out;
}

static json_t *orch_plan_facts(struct step_ctx *c, struct kb *agents, struct kb *templates,
			       const json_t *errors)
{
	json_t *as = json_array(), *ts = json_array(), *d, *facts;
	size_t i;

	json_array_foreach(kb_items(agents), i, d)
		if (strcmp(json_string_value(json_object_get(d, "id")), "planner") != 0)
			json_array_append_new(as, json_pack("{s:O, s:O}", "id", json_object_get(d, "id"),
							    "description", json_object_get(d, "description")));
	json_array_foreach(templates ? kb_items(templates) : NULL, i, d)
		json_array_append(ts, d);
	facts = json_pack("{s:O, s:o, s:o, s:o, s:O?, s:O?, s:s}", "task",
			  json_object_get(c->state, "task"), "attachments", orch_plan_attachments(c),
			  "agents", as, "templates", ts, "errors", errors, "feedback",
			  json_object_get(c->state, "feedback"), "lang", step_lang(c) ?: "zh");
	/* The plan a person rejected, so that the feedback applies to it. */
	if (json_object_get(c->state, "feedback") && json_object_get(c->state, "plan"))
		json_object_set(facts, "plan", json_object_get(c->state, "plan"));
	return facts;
}

/* One planner call; the plan or NULL with the answer's status. */
static json_t *orch_plan_ask(struct step_ctx *c, struct kb *agents, struct kb *templates,
			     const json_t *errors, char *why, size_t n)
{
	json_t *facts = orch_plan_facts(c, agents, templates, errors);
	const json_t *planner = kb_find(agents, "planner");
	char *text = jtext(facts, JSON_COMPACT);
	json_t *msgs = json_pack("[{s:s, s:O}, {s:s, s:s}]", "role", "system", "content",
				 json_object_get(planner, "systemPrompt"), "role", "user", "content",
				 text ? text : "{}");
	struct chat_call call = { .task = "plan", .rules = orch_plan_rules, .messages = msgs,
				  .facts = facts, .json_mode = 1, .temperature = 0.2 };
	struct prov_answer a;
	json_t *plan = NULL;

	if (step_chat(c, &call, &a) == 0)
		plan = json_incref(a.json);
	else
		snprintf(why, n, "%s", prov_status_name(a.status));
	prov_answer_free(&a);
	json_decref(msgs);
	json_decref(facts);
	free(text);
	return plan;
}

static void orch_plan_set(struct step_ctx *c, json_t *plan, struct kb *agents)
{
	json_t *stages = json_object(), *grp, *v;
	size_t g, k;

	json_object_set_new(c->state, "plan", plan);
	json_array_foreach(json_object_get(plan, "executionOrder"), g, grp)
		json_array_foreach(grp, k, v) {
			size_t i;
			json_t *s;

			json_array_foreach(json_object_get(plan, "subtasks"), i, s)
				if (json_equal(json_object_get(s, "id"), v))
					json_object_set_new(stages, json_string_value(v), json_pack(
						"{s:s, s:O, s:I, s:i, s:i, s:[], s:[]}", "status", "waiting",
						"agent", json_object_get(s, "agent"), "group", (json_int_t)g + 1,
						"iteration", 0, "attempts", 0, "toolsUsed", "toolResults"));
		}
	json_object_set_new(c->state, "stages", stages);
	json_object_set_new(c->state, "groupIndex", json_integer(0));
}

static enum node_rc orch_plan_ready(struct step_ctx *c)
{
	json_t *plan = json_object_get(c->state, "plan"), *ev = step_event(c, "plan_ready");
	const char *k;
	json_t *v;

	json_object_foreach(plan, k, v)
		json_object_set(ev, k, v);
	step_emit(c, ev);
	c->next = orch_conf(c)->confirm_plan ? "approve" : "execute";
	return NODE_NEXT;
}

/* A plan with a step for a vision agent and a run without a picture: 1
 * with the words saying so in err, in the thread's language. */
static int orch_no_image(struct step_ctx *c, const json_t *plan, char *err, size_t n)
{
	size_t i;
	json_t *s = NULL;
	char *m;

	if (!orch_plan_needs_image(plan) || orch_has_image(c->state))
		return 0;
	json_array_foreach(json_object_get(plan, "subtasks"), i, s)
		if (strncmp(json_string_value(json_object_get(s, "agent")) ?: "", "vision-", 7) == 0)
			break;
	m = msg_fmt(step_lang(c), "orch.error.needs_image",
		    json_string_value(json_object_get(s, "id")) ?: "?");
	snprintf(err, n, "%s", m);
	free(m);
	return 1;
}

static enum node_rc orch_plan_node(struct step_ctx *c)
{
	char err[400] = "", why[64] = "";
	struct kb *agents = orch_agents(step_app(c), err, sizeof err);
	struct kb *templates = orch_templates(step_app(c), err, sizeof err);
	const json_t *tpl = orch_template(c, json_string_value(json_object_get(c->state, "template")));
	json_t *errors = json_array(), *plan;

	if (agents == NULL)
		return json_decref(errors), step_fail(c, "internal", "%s", err);
	plan = tpl ? orch_plan_template(tpl, step_lang(c))
		   : orch_plan_ask(c, agents, templates, NULL, why, sizeof why);
	if (plan && orch_plan_check(plan, orch_known, agents, errors) && !tpl) {
		json_decref(plan);
		plan = orch_plan_ask(c, agents, templates, errors, why, sizeof why);
		json_array_clear(errors);
		if (plan)
			orch_plan_check(plan, orch_known, agents, errors);
	}
	if (plan == NULL || json_array_size(errors)) {
		char *e = jtext(errors, JSON_COMPACT);

		snprintf(err, sizeof err, "%.150s", e && plan ? e : why);
		free(e);
		json_decref(plan);
		json_decref(errors);
		{
			char *m = msg_fmt(step_lang(c), "orch.error.bad_plan", err);
			enum node_rc rc = step_fail(c, "bad_plan", "%s", m);

			free(m);
			return rc;
		}
	}
	json_decref(errors);
	if (orch_no_image(c, plan, err, sizeof err)) {
		json_decref(plan);
		return step_fail(c, "needs_image", "%s", err);
	}
	orch_plan_set(c, plan, agents);
	return orch_plan_ready(c);
}

/* The errors' messages joined, for the question. New string. */
static char *orch_error_list(const json_t *errors)
{
	struct buf b;
	size_t i;
	json_t *e;
	char *out;

	buf_init(&b, 1 << 14);
	json_array_foreach(errors, i, e)
		buf_printf(&b, "%s%s", i ? "; " : "", json_string_value(json_object_get(e, "message")) ?: "");
	out = xstrdup(b.data ? b.data : "");
	buf_free(&b);
	return out;
}

/* The pause on the plan; with errors (an edit that did not pass), the
 * question says them and the interrupt carries them. */
static enum node_rc orch_pause(struct step_ctx *c, const json_t *errors)
{
	json_t *plan = json_object_get(c->state, "plan");
	char *list = errors ? orch_error_list(errors) : NULL;
	char *q = list ? msg_fmt(step_lang(c), "orch.ask.plan_again", list)
		       : xstrdup(msg_get(step_lang(c), "orch.ask.plan"));

	c->interrupt = step_interrupt_new("plan", q, "approve",
					  json_pack("{s:O, s:O}", "subtasks", json_object_get(plan, "subtasks"),
						    "executionOrder", json_object_get(plan, "executionOrder")));
	if (errors)
		json_object_set(c->interrupt, "errors", (json_t *)errors);
	free(q);
	free(list);
	return NODE_INTERRUPT;
}

/* A modify: the edited fields over the plan, checked again. */
static enum node_rc orch_modify(struct step_ctx *c, const json_t *payload)
{
	char err[400];
	struct kb *agents = orch_agents(step_app(c), err, sizeof err);
	json_t *plan = json_deep_copy(json_object_get(c->state, "plan")), *errors = json_array();
	enum node_rc rc;

	if (agents == NULL)
		return json_decref(plan), json_decref(errors), step_fail(c, "internal", "%s", err);
	if (json_object_get(payload, "subtasks"))
		json_object_set(plan, "subtasks", json_object_get(payload, "subtasks"));
	if (json_object_get(payload, "executionOrder"))
		json_object_set(plan, "executionOrder", json_object_get(payload, "executionOrder"));
	if (orch_plan_check_lang(plan, orch_known, agents, step_lang(c), errors) == 0 &&
	    orch_no_image(c, plan, err, sizeof err))
		json_array_append_new(errors, json_pack("{s:s, s:s}", "code", "needs_image", "message", err));
	if (json_array_size(errors)) {
		json_decref(plan);
		rc = orch_pause(c, errors);
	} else {
		const json_t *orig = json_object_get(c->state, "plan");

		if (!json_equal(json_object_get(plan, "subtasks"), json_object_get(orig, "subtasks")) ||
		    !json_equal(json_object_get(plan, "executionOrder"), json_object_get(orig, "executionOrder")))
			orch_plan_edited(plan, orig, step_lang(c));
		orch_plan_set(c, plan, agents);
		rc = orch_plan_ready(c);
		c->next = "execute";
	}
	json_decref(errors);
	return rc;
}

static enum node_rc orch_approve(struct step_ctx *c)
{
	const char *action = json_string_value(json_object_get(c->resume, "action"));
	const json_t *payload = json_object_get(c->resume, "payload");
	const char *fb = json_string_value(json_object_get(payload, "feedback"));
	json_int_t n = json_integer_value(json_object_get(c->state, "replans"));

	if (c->resume == NULL || action == NULL)
		return orch_pause(c, NULL);
	if (strcmp(action, "reject") == 0) {
		if (n >= ORCH_REPLANS_MAX)
		{
			char *m = msg_fmt(step_lang(c), "orch.error.replan_limit", ORCH_REPLANS_MAX);
			enum node_rc rc = step_fail(c, "replan_limit", "%s", m);

			free(m);
			return rc;
		}
		json_object_set_new(c->state, "replans", json_integer(n + 1));
		json_object_set_new(c->state, "feedback", json_string(fb ? fb : ""));
		json_object_del(c->state, "template");
		c->next = "plan";
		return NODE_NEXT;
	}
	if (strcmp(action, "modify") == 0)
		return orch_modify(c, payload);
	c->next = "execute";
	return NODE_NEXT;
}

/* Whether a stage did what the plan says: done, or skipped by its
 * condition. */
static int orch_stage_kept(const json_t *st)
{
	const char *code = json_string_value(json_object_get(json_object_get(st, "skipReason"), "code"));

	return strcmp(json_string_value(json_object_get(st, "status")) ?: "", "done") == 0 ||
	       (code && strcmp(code, "condition_not_met") == 0);
}

/* One stage's "id: why" into the run's reason, without its full stop,
 * the stages joined as the language joins clauses. */
static void orch_reason_add(struct buf *b, const char *lang, const char *id, const char *why)
{
	int zh = strcmp(lang ? lang : "zh", "en") != 0;
	char *m = msg_fmt(lang, "orch.result.failed", id, why ? why : "?");
	size_t n = strlen(m);

	if (n >= 3 && strcmp(m + n - 3, "。") == 0)
		m[n - 3] = '\0';
	else if (n && m[n - 1] == '.')
		m[n - 1] = '\0';
	buf_printf(b, "%s%s", b->len ? (zh ? "；" : "; ") : "", m);
	free(m);
}

static enum node_rc orch_complete(struct step_ctx *c)
{
	json_t *res = json_object(), *stages = json_object(), *st;
	const char *id;
	struct buf why_all;
	int failed = 0;

	buf_init(&why_all, 1 << 16);
	json_object_foreach(json_object_get(c->state, "stages"), id, st) {
		const json_t *why = json_object_get(st, "skipReason");
		const json_t *cause = why ? why : json_object_get(st, "error");
		json_t *one = json_pack("{s:O, s:O?, s:O?, s:O?}", "status", json_object_get(st, "status"),
					"context", json_object_get(st, "context"), "reason",
					json_object_get(cause, "code"), "message",
					json_object_get(cause, "message"));

		if (!orch_stage_kept(st)) {
			orch_reason_add(&why_all, step_lang(c), id, json_string_value(json_object_get(
				cause, "message")) ?: json_string_value(json_object_get(st, "status")));
			failed = 1;
		}
		json_object_set_new(stages, id, one);
	}
	json_object_set_new(res, "stages", stages);
	/* Why a run that did not succeed did not: each stage not done, with why. */
	if (failed)
		json_object_set_new(res, "reason", json_string(why_all.data ? why_all.data : ""));
	buf_free(&why_all);
	json_object_set(res, "plan", json_object_get(c->state, "plan"));
	json_object_set_new(res, "files", json_copy(json_object_get(c->state, "workspace")));
	json_object_set_new(res, "success", json_boolean(!failed));
	/* The engine's workflow_complete carries state.result: one event. */
	json_object_set_new(c->state, "result", res);
	return NODE_END;
}

static const struct wf_node orch_nodes[] = {
	{ "plan", orch_plan_node, 0 },
	{ "approve", orch_approve, 0 },
	{ "execute", orch_execute, 0 },
	{ "complete", orch_complete, 0 },
};

/* Which node may follow which (a pause names the node its answer goes
 * to: an edge from the node that paused). */
static const struct wf_edge orch_edges[] = {
	{ WF_START, "plan" }, { "plan", "approve" }, { "plan", "execute" },
	{ "approve", "approve" }, { "approve", "plan" }, { "approve", "execute" },
	{ "execute", "execute" }, { "execute", "complete" }, { "complete", WF_END },
};

static const char *const orch_text_fields[] = { "task", NULL };

/* What the input may hold (the init and turn hooks check it). */
static const char orch_input_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"orchestrate input\", \"type\": \"object\", \"required\": [\"task\"], "
	"\"properties\": {\"task\": {\"type\": \"string\"}, \"lang\": {\"enum\": [\"zh\", "
	"\"en\", null]}, \"template\": {\"type\": \"string\"}, "
	"\"errorStrategy\": {\"enum\": [\"abort\", \"skip\", \"retry\"]}, "
	"\"attachments\": {\"type\": \"array\", \"items\": {\"type\": \"object\"}}}}";

/* What its state holds between steps (the fields every checkpoint has are
 * required; a node may add others). */
static const char orch_state_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"orchestrate state\", \"type\": \"object\", "
	"\"properties\": {\"attachments\": {\"type\": \"array\"}, "
	"\"errorStrategy\": {\"type\": \"string\"}, \"groupIndex\": {\"type\": \"integer\"}, "
	"\"plan\": {\"type\": \"object\"}, \"replans\": {\"type\": \"integer\"}, "
	"\"result\": {\"type\": \"object\"}, \"stages\": {\"type\": \"object\"}, "
	"\"task\": {\"type\": \"string\"}, \"template\": {\"type\": [\"null\", \"string\"]}, "
	"\"workspace\": {\"type\": \"object\"}}, \"required\": [\"attachments\", "
	"\"errorStrategy\", \"groupIndex\", \"replans\", \"stages\", \"task\", \"template\", "
	"\"workspace\"]}";

const struct workflow wf_orchestrate = {
	.name = "orchestrate",
	.nodes = orch_nodes,
	.nnodes = sizeof orch_nodes / sizeof orch_nodes[0],
	.start = "plan",
	.edges = orch_edges,
	.nedges = sizeof orch_edges / sizeof orch_edges[0],
	.text_fields = orch_text_fields,
	.input_schema = orch_input_schema,
	.state_schema = orch_state_schema,
	.conf = &orch_conf_section,
	.msgs = orch_msgs,
	.nmsgs = ORCH_NMSGS,
	.init = orch_init,
	.turn = NULL,
};
