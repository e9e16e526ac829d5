/* The note workflow's supervisor (seed 001 §4, §5.1, §9): the stages in
 * order with their completion flags, the deterministic route (the first
 * stage not complete), the limits on an optional model router (only back
 * or the same stage; only review_agent when the target is review_agent;
 * none past maxIterations or after a severe error), the
 * requirement-clarity questions
 * (each key asked once, agentClarificationKeys; a request whose words
 * name no subject is asked its topic, note_vague.h; an answer is an
 * option's id or label, the person's words or both, and a topic left
 * unanswered is the first option, said so), and the fallback path after
 * a severe error (the failed stage again, on the offline rules). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "wf/note/note.h"
#include "wf/note/note_vague.h"
#include "util/jnum.h"

const struct note_stage note_stages[NOTE_NSTAGES] = {
	{ "brief_compiler_agent", "briefComplete", "brief", 0.08, "需求分析" },
	{ "research_evidence_agent", "evidenceComplete", "research", 0.18, "趋势研究" },
	{ "reference_intelligence_agent", "referenceIntelligenceComplete", "reference", 0.28,
	  "参考图解析" },
	{ "writer_agent", "contentComplete", "writing", 0.38, "文案创作" },
	{ "layout_planner_agent", "layoutComplete", "layout", 0.52, "版式规划" },
	{ "image_planner_agent", "imagePlanComplete", "image_planning", 0.6, "图片规划" },
	{ "image_agent", "imagesComplete", "image_generation", 0.72, "图片生成" },
	{ "review_agent", "reviewComplete", "review", 0.9, "质量审核" },
};

int note_stage_index(const char *agent)
{
	if (agent == NULL)
		return -1;
	if (strcmp(agent, "END") == 0)
		return NOTE_NSTAGES;
	for (int i = 0; i < NOTE_NSTAGES; i++)
		if (strcmp(agent, note_stages[i].agent) == 0)
			return i;
	return -1;
}

const char *note_route_next(const json_t *state)
{
	for (int i = 0; i < NOTE_NSTAGES; i++)
		if (!json_is_true(json_object_get(state, note_stages[i].flag)))
			return note_stages[i].agent;
	return "END";
}

int note_severe(const json_t *state)
{
	return json_is_true(json_object_get(json_object_get(state, "lastError"), "severe"));
}

const char *note_route_check(const json_t *state, const char *target, const char *proposal,
			     char *why, size_t whylen)
{
	int ti = note_stage_index(target), pi = note_stage_index(proposal);

	*why = '\0';
	if (ti < 0)
		return "END";
	if (pi < 0)
		return snprintf(why, whylen, "unknown stage %s", proposal ? proposal : "(none)"), target;
	if (pi == ti)
		return pi == NOTE_NSTAGES ? "END" : note_stages[pi].agent;
	if (json_integer_value(json_object_get(state, "iterationCount")) >=
	    json_integer_value(json_object_get(state, "maxIterations")))
		return snprintf(why, whylen, "maxIterations reached: the deterministic route is forced"),
		       target;
	if (note_severe(state) || json_is_true(json_object_get(state, "routerForced")))
		return snprintf(why, whylen, "after a severe error the deterministic route is forced"),
		       target;
	if (ti == note_stage_index("review_agent"))
		return snprintf(why, whylen, "the target is review_agent: only review_agent may follow"),
		       target;
	if (pi > ti)
		return snprintf(why, whylen, "%s would skip %s", proposal, target), target;
	return note_stages[pi].agent;
}

void note_route_reset_from(json_t *state, const char *agent)
{
	int from = note_stage_index(agent);

	for (int i = from < 0 ? NOTE_NSTAGES : from; i < NOTE_NSTAGES; i++)
		note_set_flag(state, note_stages[i].flag, 0);
}

const char *note_review_weakest(const json_t *scores, double overall)
{
	const char *low = NULL, *k;
	double lv = 2;
	json_t *v;

	json_object_foreach((json_t *)scores, k, v)
		if (json_is_number(v) && note_dim_owner(k) && json_number_value(v) < lv) {
			lv = json_number_value(v);
			low = k;
		}
	if (low && (lv < NOTE_PASS_DIM || overall < NOTE_PASS_OVERALL))
		return low;
	return NULL;
}

/* ---- decisions ---- */

static void note_decision_events(struct step_ctx *c, const char *pick, const char *reason,
				 const char *source, const char *refused)
{
	int i = note_stage_index(pick);
	json_t *ev = note_event(c, "supervisor_decision", "supervisor");

	json_object_set_new(ev, "decision", json_string(pick));
	json_object_set_new(ev, "reason", json_string(reason));
	json_object_set_new(ev, "source", json_string(source));
	if (refused && *refused)
		json_object_set_new(ev, "refused", json_string(refused));
	step_emit(c, ev);
	ev = note_event(c, "workflow_progress", "supervisor");
	json_object_set_new(ev, "phase", json_string(i >= 0 && i < NOTE_NSTAGES ? note_stages[i].phase
										: "complete"));
	json_object_set_new(ev, "progress", jnum_real(i >= 0 && i < NOTE_NSTAGES ? note_stages[i].progress
										 : 1.0, JNUM_SCORE));
	json_object_set_new(ev, "currentAgent", json_string(i < NOTE_NSTAGES ? pick : c->node));
	step_emit(c, ev);
	json_object_set_new(c->state, "currentAgent", json_string(i < NOTE_NSTAGES ? pick : c->node));
	json_object_set_new(c->state, "supervisorDecision", json_pack("{s:s, s:s, s:s}", "nextAgent",
		pick, "reason", reason, "source", source));
}

/* The router's proposal, checked; the target when it is refused or fails. */
static const char *note_route_model(struct step_ctx *c, const char *target, char *why, size_t n,
				    const char **source, char *said, size_t saidlen)
{
	static const char *const need[] = { "nextAgent", NULL };
	json_t *flags = json_object(), *facts, *j;
	const char *pick = target;
	int rules = 0;

	for (int i = 0; i < NOTE_NSTAGES; i++)
		json_object_set(flags, note_stages[i].flag, json_object_get(c->state, note_stages[i].flag));
	facts = json_pack("{s:s, s:s, s:o, s:I, s:b, s:I, s:I}", "target", target, "lastAgent", c->node,
		"completed", flags, "evidenceCount", json_integer_value(json_object_get(
		json_object_get(c->state, "evidencePack"), "sampleSize")), "widened",
		json_is_true(json_object_get(c->state, "researchWidened")), "iterationCount",
		note_int(c->state, "iterationCount"), "maxIterations", note_int(c->state, "maxIterations"));
	j = note_ask_soft(c, "note_route", facts, need, &rules);
	if (j) {
		pick = note_route_check(c->state, target, json_string_value(json_object_get(j, "nextAgent")),
					why, n);
		if (*why == '\0')
			*source = rules ? "router_rules" : "model";
		snprintf(said, saidlen, "%s", json_string_value(json_object_get(j, "reason")) ?: "");
	}
	json_decref(j);
	json_decref(facts);
	return pick;
}

/* The end; reason: why, when it is not the review passing. */
static enum node_rc note_decide_end(struct step_ctx *c, const char *reason)
{
	note_decision_events(c, "END", reason ? reason : msg_get(step_lang(c), "note.route.end"), "rules",
			     NULL);
	return NODE_END;
}

/* A stage by its phase in the thread's language; the supervisor's own
 * first step is understanding the request. */
static const char *note_stage_name(struct step_ctx *c, const char *agent)
{
	int i = note_stage_index(agent);
	char id[64];

	snprintf(id, sizeof id, "stage.%s", i >= 0 && i < NOTE_NSTAGES ? note_stages[i].phase : "intake");
	return msg_get(step_lang(c), id);
}

enum node_rc note_supervise(struct step_ctx *c, const char *reason)
{
	const char *target = note_route_next(c->state), *pick = target, *source = "rules";
	char why[256] = "", said[256] = "", *text;
	int pi;

	if (strcmp(target, "END") == 0)
		return note_decide_end(c, reason);
	if (json_is_true(json_object_get(c->state, "modelRouter")))
		pick = note_route_model(c, target, why, sizeof why, &source, said, sizeof said);
	pi = note_stage_index(pick);
	if (pi < note_stage_index(target))
		note_route_reset_from(c->state, pick);
	if (reason)
		text = xstrdup(reason);
	else if (pi < note_stage_index(target))
		text = msg_fmt(step_lang(c), "note.route.rerun", note_stage_name(c, pick), said);
	else
		text = msg_fmt(step_lang(c), "note.route.next", note_stage_name(c, c->node),
			       note_stage_name(c, pick));
	note_decision_events(c, pick, text, source, why);
	free(text);
	if (strcmp(pick, "writer_agent") == 0)
		note_prompt_get(c);
	c->next = note_stages[pi].agent;
	return NODE_NEXT;
}

/* ---- clarity (seed 001 §5.1) ---- */

static int note_asked(const json_t *state, const char *key)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(state, "agentClarificationKeys"), i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), key) == 0)
			return 1;
	return 0;
}

/* A request that names no subject (写点东西给大家看看, write something
 * for me) is asked its topic whatever the clarity answer said: the
 * answer is made to say so, with the topic options of the rules. */
static void note_clarity_vague(struct step_ctx *c, json_t *j)
{
	json_t *facts, *r;
	char err[128];

	if (!note_vague(note_str(c->state, "topic")) || !json_is_true(json_object_get(j, "hasSubject")))
		return;
	json_object_set_new(j, "hasSubject", json_false());
	json_object_set_new(j, "category", json_null());
	json_object_set_new(j, "missing", json_pack("[s]", "topic"));
	json_object_set_new(j, "reason", json_string(msg_get(step_lang(c), "note.clarify.vague")));
	if (json_number_value(json_object_get(j, "requirementClarity")) > 0.15)
		json_object_set_new(j, "requirementClarity", json_real(0.15));
	if (note_asked(c->state, "topic"))
		return;
	facts = json_pack("{s:s}", "topic", "");
	r = note_rules(c, "clarity", facts, err, sizeof err);
	json_object_set_new(j, "key", json_string("topic"));
	json_object_set(j, "options", json_is_array(json_object_get(r, "options")) ? json_object_get(r, "options")
										   : json_array());
	json_decref(r);
	json_decref(facts);
}

/* The clarity task's answer for the request as it stands. */
static void note_rate_clarity(struct step_ctx *c)
{
	static const char *const need[] = { "requirementClarity", NULL };
	json_t *facts = json_pack("{s:s, s:O}", "topic", note_str(c->state, "topic") ?: "", "asked",
				  json_object_get(c->state, "agentClarificationKeys"));
	json_t *j;
	int rules = 0;

	if (note_str(c->state, "audience"))
		json_object_set(facts, "audience", json_object_get(c->state, "audience"));
	if (note_str(c->state, "tone"))
		json_object_set(facts, "tone", json_object_get(c->state, "tone"));
	j = note_ask_soft(c, "clarity", facts, need, &rules);
	json_decref(facts);
	if (j == NULL)
		return;
	note_clarity_vague(c, j);
	json_object_set(c->state, "requirementClarity", json_object_get(j, "requirementClarity"));
	if (json_is_string(json_object_get(j, "contentType")))
		json_object_set(c->state, "contentType", json_object_get(j, "contentType"));
	json_object_set_new(c->state, "clarity", j);
}

static void note_intake(struct step_ctx *c)
{
	json_t *ev, *cl;
	char *said;
	double v;

	note_rate_clarity(c);
	cl = json_object_get(c->state, "clarity");
	v = json_number_value(json_object_get(c->state, "requirementClarity"));
	ev = note_event(c, "intent_detected", "supervisor");
	json_object_set_new(ev, "intent", json_string("create_note"));
	json_object_set_new(ev, "confidence", json_real(v >= NOTE_CLARITY_ASK ? 0.9 : 0.6));
	json_object_set_new(ev, "requirementClarity", jnum_real(v, JNUM_SCORE));
	said = msg_fmt(step_lang(c), "note.intent", note_str(c->state, "topic"));
	json_object_set_new(ev, "content", json_string(said));
	free(said);
	step_emit(c, ev);
	ev = note_event(c, "content_type_detected", "supervisor");
	json_object_set(ev, "contentType", json_object_get(c->state, "contentType"));
	json_object_set(ev, "category", json_object_get(cl, "category"));
	json_object_set_new(ev, "content", json_string(json_string_value(json_object_get(cl, "reason"))
						      ?: msg_get(step_lang(c), "note.type_by_words")));
	step_emit(c, ev);
	json_object_set_new(c->state, "intakeDone", json_true());
	note_prompt_set(c, note_int(json_object_get(c->state, "workingPrompt"), "version") ? "clarified topic"
			: "request", json_pack("{s:s}", "topic", note_str(c->state, "topic") ?: ""));
}

/* The clarity answer's options, each labelled in the thread's language
 * when the catalogue knows its id ("note.option.<id>"). New reference. */
static json_t *note_pause_options(struct step_ctx *c, const json_t *cl)
{
	json_t *opts = json_deep_copy(json_object_get(cl, "options")), *o;
	char id[80];
	size_t i;

	if (!json_is_array(opts)) {
		json_decref(opts);
		return json_array();
	}
	json_array_foreach(opts, i, o) {
		snprintf(id, sizeof id, "note.option.%s", json_string_value(json_object_get(o, "id")) ?: "");
		if (json_is_object(o) && msg_find(step_lang(c), id))
			json_object_set_new(o, "label", json_string(msg_find(step_lang(c), id)));
	}
	return opts;
}

/* A clarification pause about key: the question of the catalogue for the
 * key (else the clarity answer's) and the answer's options, answered by
 * approve with the text (feedback), or reject to go on as is. */
static void note_pause_for(struct step_ctx *c, const char *key)
{
	json_t *cl = json_object_get(c->state, "clarity");
	char qid[80];
	const char *q;
	json_t *opts = note_pause_options(c, cl);

	snprintf(qid, sizeof qid, "note.ask.%s", key);
	q = msg_find(step_lang(c), qid) ?: json_string_value(json_object_get(cl, "question"))
					   ?: msg_get(step_lang(c), "note.ask.more");
	json_array_append_new(json_object_get(c->state, "agentClarificationKeys"), json_string(key));
	json_object_set_new(c->state, "clarificationRounds",
			    json_integer(note_int(c->state, "clarificationRounds") + 1));
	json_object_set_new(c->state, "pendingConfirmation", json_pack("{s:s, s:s, s:s, s:O, s:I}",
		"type", "clarification", "key", key, "question", q, "options", opts, "timestamp",
		(json_int_t)clock_wall_ms()));
	json_object_set_new(c->state, "currentAgent", json_string(c->node));
	note_ask_user_call(c, key, q, opts);
	c->interrupt = step_interrupt_new("clarification", q, c->node, json_object());
	json_object_set_new(c->interrupt, "options", opts);
	note_say(c, "note.clarify", key, q);
}

int note_clarify(struct step_ctx *c, const char *key)
{
	json_t *cl = json_object_get(c->state, "clarity");
	double v = json_number_value(json_object_get(c->state, "requirementClarity"));
	double bar = strcmp(c->node, "supervisor") == 0 ? NOTE_CLARITY_ASK : NOTE_CLARITY_AGENT;

	if (!json_is_object(cl) || note_asked(c->state, key) || v >= bar ||
	    strcmp(json_string_value(json_object_get(cl, "key")) ?: "", key) != 0)
		return 0;
	note_pause_for(c, key);
	return 1;
}

/* An answer to a clarification: the option picked (its label, as the
 * pause showed it) and the words typed, each NULL when absent. */
struct note_answer {
	char *picked, *typed;
};

/* The label of the option line names (by its id or its label), or NULL. */
static const char *note_option_named(const json_t *opts, const char *line)
{
	const json_t *o;
	size_t i;

	json_array_foreach(opts, i, o) {
		const char *id = json_string_value(json_object_get(o, "id")) ?: "";
		const char *label = json_string_value(json_object_get(o, "label")) ?: id;

		if ((*id && strcasecmp(line, id) == 0) || strcmp(line, label) == 0)
			return label;
	}
	return NULL;
}

/* The answer of c->resume: the app sends the option picked (its id) on
 * the first line and what the person typed after it; a client may send
 * either alone. */
static void note_answer_read(const struct step_ctx *c, const json_t *opts, struct note_answer *a)
{
	const char *f = note_feedback(c);
	char *s, *save = NULL;
	struct buf typed;

	a->picked = a->typed = NULL;
	if (f == NULL || strcmp(note_decision(c, "clarification") ?: "", "reject") == 0)
		return;
	s = note_cut(f, 400);
	buf_init(&typed, 512);
	for (char *line = strtok_r(s, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
		const char *named;
		size_t n;

		while (*line == ' ' || *line == '\t')
			line++;
		n = strlen(line);
		while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		if (a->picked == NULL && (named = note_option_named(opts, line)) != NULL)
			a->picked = xstrdup(named);
		else
			buf_printf(&typed, "%s%s", typed.len ? " " : "", line);
	}
	a->typed = typed.len ? buf_steal(&typed) : NULL;
	if (a->typed == NULL)
		buf_free(&typed);
	free(s);
}

/* The topic an answer gives: what was typed when it names a subject,
 * else the option picked, else (nothing, or only 随便) the first option,
 * said so. NULL when there is no option either. The caller frees it. */
static char *note_answer_topic(struct step_ctx *c, const struct note_answer *a, const json_t *opts)
{
	const char *first = json_string_value(json_object_get(json_array_get(opts, 0), "label"));

	if (a->typed && !note_vague(a->typed))
		return xstrdup(a->typed);
	if (a->picked)
		return xstrdup(a->picked);
	if (first == NULL)
		return NULL;
	note_say(c, "note.clarify.topic_default", first);
	return xstrdup(first);
}

static void note_clarify_topic(struct step_ctx *c, char *ans, int subject)
{
	char *topic = subject ? xasprintf("%s：%s", note_str(c->state, "topic") ?: "", ans) : xstrdup(ans);

	json_object_set_new(c->state, "topic", json_string(topic));
	json_object_set_new(c->state, "intakeDone", json_false());
	note_say(c, "note.clarify.topic", topic);
	free(topic);
}

void note_clarify_answer(struct step_ctx *c)
{
	json_t *pend = json_object_get(c->state, "pendingConfirmation");
	int subject = json_is_true(json_object_get(json_object_get(c->state, "clarity"), "hasSubject"));
	json_t *opts = json_incref(json_object_get(pend, "options"));
	struct note_answer a;
	char *ans = NULL, key[32];

	/* A copy: the pending record goes away now. */
	snprintf(key, sizeof key, "%s", json_string_value(json_object_get(pend, "key")) ?: "");
	note_answer_read(c, opts, &a);
	if (strcmp(key, "topic") == 0 && (a.typed || a.picked || note_vague(note_str(c->state, "topic"))))
		ans = note_answer_topic(c, &a, opts);
	else if (a.typed || a.picked)
		ans = xstrdup(a.typed ? a.typed : a.picked);
	note_ask_user_result(c, pend, ans);
	json_object_set_new(c->state, "pendingConfirmation", json_null());
	if (ans == NULL) {
		note_say(c, "note.clarify.none");
	} else if (strcmp(key, "topic") == 0) {
		note_push_message(c->state, "user", ans);
		note_clarify_topic(c, ans, subject && (a.typed || a.picked));
	} else if (strcmp(key, "audience") == 0) {
		note_push_message(c->state, "user", ans);
		json_object_set_new(c->state, "audience", json_string(ans));
		note_prompt_set(c, "clarified audience", json_pack("{s:s}", "audience", ans));
		note_rate_clarity(c);
		note_say(c, "note.clarify.audience", ans);
	}
	free(a.picked);
	free(a.typed);
	free(ans);
	json_decref(opts);
}

/* ---- the supervisor node ---- */

/* After a severe error: the failed stage again, on the offline rules;
 * if it already had that chance, the run stops. */
static enum node_rc note_fallback(struct step_ctx *c)
{
	json_t *err = json_object_get(c->state, "lastError"), *forced = json_object_get(c->state,
										     "forceRules");
	const char *agent = json_string_value(json_object_get(err, "agent")) ?: "";
	char *why;
	size_t i;
	json_t *v;

	json_array_foreach(forced, i, v)
		if (strcmp(json_string_value(v) ?: "", agent) == 0)
			return note_abort(c, "agent_failed", msg_get(step_lang(c), "note.rerun_failed"));
	if (note_stage_index(agent) < 0 || note_stage_index(agent) >= NOTE_NSTAGES)
		return note_abort(c, "agent_failed", msg_get(step_lang(c), "note.no_rerun"));
	json_array_append_new(forced, json_string(agent));
	json_object_set_new(err, "severe", json_false());
	json_object_set_new(err, "handled", json_true());
	json_object_set_new(c->state, "routerForced", json_true());
	note_route_reset_from(c->state, agent);
	why = msg_fmt(step_lang(c), "note.fallback", msg_agent(step_lang(c), agent),
		      json_string_value(json_object_get(err, "code")) ?: "error");
	note_decision_events(c, agent, why, "fallback", NULL);
	free(why);
	c->next = note_stages[note_stage_index(agent)].agent;
	return NODE_NEXT;
}

/* The reason a quality loop left for this decision, once. */
static char *note_loop_reason(json_t *state)
{
	json_t *fb = json_object_get(state, "reviewFeedback");
	const char *r = json_string_value(json_object_get(fb, "routeReason"));
	char *out = r ? xstrdup(r) : NULL;

	if (r)
		json_object_del(fb, "routeReason");
	return out;
}

enum node_rc note_supervisor(struct step_ctx *c)
{
	enum node_rc rc;
	char *reason;

	if (note_decision(c, "clarification"))
		note_clarify_answer(c);
	if (!json_is_true(json_object_get(c->state, "intakeDone")))
		note_intake(c);
	if (note_clarify(c, "topic"))
		return NODE_INTERRUPT;
	if (strcmp(note_str(c->state, "templatesTopic") ?: "", note_str(c->state, "topic") ?: "") != 0)
		note_templates(c);
	if (note_severe(c->state))
		return note_fallback(c);
	reason = note_loop_reason(c->state);
	rc = note_supervise(c, reason);
	free(reason);
	return rc;
}
