/* review_agent: the final gate (seed 001 §4, §9), never skipped. It scores
 * the note by dimension (the model's or the rules' scores; image
 * completeness is always counted here, it is a fact, not an opinion),
 * sends quality_score, and decides: every dimension at NOTE_PASS_DIM or
 * more and the mean at NOTE_PASS_OVERALL or more passes, and the creative
 * is complete; otherwise the work goes back to the stage owning the
 * weakest dimension, also when the review "passes in words" (approved)
 * but the scores do not, while iterationCount < maxIterations; past that
 * the person decides at a last pause (note_quality.c): publish the best
 * draft as it is, or stop. The review never rewrites the person's text:
 * the writer keeps it (note_write.c), and the review names the person's
 * paragraphs as theirs. A model's scores are bounded by the workflow's
 * own checks (the rules' review_checks: the draft and each section on
 * the topic and concrete, no line said twice, nothing the feedback asked
 * against), so an off-topic or hollow note a model scores high still
 * fails, its overall under the gate, for the reason the checks found.
 * What it says is in the thread's language: in an English thread a
 * model's reasons written in Chinese are left out. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/xmalloc.h"
#include "text/msg.h"
#include "text/script.h"
#include "wf/note/note.h"

/* The texts of the evidence points (state.evidencePack.points). New
 * reference. */
static json_t *note_review_points(const json_t *st)
{
	const json_t *p;
	json_t *out = json_array();
	size_t i;

	json_array_foreach(json_object_get(json_object_get(st, "evidencePack"), "points"), i, p) {
		const json_t *t = json_is_string(p) ? p : json_object_get(p, "text");

		if (json_is_string(t))
			json_array_append(out, (json_t *)t);
	}
	return out;
}

/* The facts of the review. Beside the draft: the thread's language (the
 * reasons are said in it), the person's own paragraphs (mine: named as
 * theirs, never to be replaced), the points of the notes about the topic
 * (evidence: a section that uses one is on the topic) and the drafts the
 * person refused with how long each was (refused: state.refusedLengths,
 * [{feedback, chars}], when the state keeps them). */
static json_t *note_review_facts(const struct step_ctx *c)
{
	const json_t *st = c->state;
	const json_t *content = json_object_get(st, "generatedContent"), *im;
	const json_t *an = json_array_get(json_object_get(st, "referenceAnalyses"), 0);
	const json_t *mine = json_object_get(json_object_get(st, "personEdits"), "paragraphs");
	const json_t *refused = json_object_get(st, "refusedLengths");
	json_t *images = json_array(), *f;
	size_t i;

	json_array_foreach(json_object_get(st, "generatedImages"), i, im)
		json_array_append_new(images, json_pack("{s:O, s:O}", "sequence",
			json_object_get(im, "sequence"), "status", json_object_get(im, "status")));
	f = json_pack("{s:O, s:O, s:O, s:O, s:O, s:o, s:O, s:O, s:O, s:b, s:s, s:o}", "title",
		json_object_get(content, "title"), "body", json_object_get(content, "body"), "tags",
		json_object_get(content, "tags"), "paragraphs", json_object_get(st, "bodyBlocks"),
		"imagePlans", json_object_get(st, "imagePlans"), "images", images, "keywords",
		json_object_get(json_object_get(st, "creativeBrief"), "keywords") ?: json_null(),
		"evidenceTags", json_object_get(json_object_get(st, "evidencePack"), "tags") ?: json_null(),
		"palette", json_object_get(json_object_get(an, "styleTokens"), "colorPalette") ?: json_null(),
		"hasReference", json_array_size(json_object_get(st, "referenceInputs")) > 0,
		"topic", note_str(st, "topic") ?: "", "feedback", note_user_replies(st));
	json_object_set_new(f, "lang", json_string(step_lang(c)));
	json_object_set_new(f, "mine", json_is_array(mine) ? json_deep_copy(mine) : json_array());
	json_object_set_new(f, "evidence", note_review_points(st));
	json_object_set_new(f, "refused", json_is_array(refused) ? json_deep_copy(refused) : json_array());
	return f;
}

/* A score in [0, 1]: models also answer on 0-10 and 0-100 scales. */
static double note_unit(double v)
{
	if (v > 10)
		v /= 100;
	else if (v > 1)
		v /= 10;
	return v < 0 ? 0 : v > 1 ? 1 : (double)(long)(v * 100 + 0.5) / 100;
}

static double note_completeness(const json_t *st)
{
	size_t planned = json_array_size(json_object_get(st, "imagePlans")), done = 0, i;
	const json_t *im;

	json_array_foreach(json_object_get(st, "generatedImages"), i, im)
		done += strcmp(json_string_value(json_object_get(im, "status")) ?: "", "done") == 0;
	if (planned == 0)
		return 1;
	return (double)(long)((double)(done > planned ? planned : done) * 100 / (double)planned + 0.5) / 100;
}

/* The scores of every dimension: the answer's, the rules' for those it
 * lacks, image completeness counted. *overall: their mean. */
static json_t *note_scores(struct step_ctx *c, const json_t *answer, const json_t *facts,
			   double *overall)
{
	const json_t *given = json_object_get(answer, "scores");
	json_t *scores = json_object(), *rules = NULL;
	char err[256];
	double sum = 0;

	for (size_t i = 0; i < NOTE_NDIMS; i++) {
		const json_t *v = json_object_get(given, note_dims[i].dim);

		if (!json_is_number(v)) {
			if (rules == NULL)
				rules = note_rules(c, "review", facts, err, sizeof err);
			v = json_object_get(json_object_get(rules, "scores"), note_dims[i].dim);
		}
		json_object_set_new(scores, note_dims[i].dim, json_real(note_unit(json_number_value(v))));
	}
	json_object_set_new(scores, "imageCompleteness", json_real(note_completeness(c->state)));
	for (size_t i = 0; i < NOTE_NDIMS; i++)
		sum += json_number_value(json_object_get(scores, note_dims[i].dim));
	*overall = (double)(long)(sum / NOTE_NDIMS * 100 + 0.5) / 100;
	json_decref(rules);
	return scores;
}

/* list's strings after those of first, in answer[key]. */
static void note_lead_with(json_t *answer, const char *key, const json_t *first)
{
	json_t *all = json_deep_copy(first), *v;
	size_t i;

	json_array_foreach(json_object_get(answer, key), i, v)
		if (json_is_string(v))
			json_array_append(all, v);
	json_object_set_new(answer, key, all);
}

/* An off-topic or hollow draft scores under the gate overall, whatever
 * its dimensions' mean (the checks' overallCap). */
static void note_review_cap(const json_t *checks, double *overall)
{
	const json_t *cap = json_object_get(checks, "overallCap");

	if (json_is_number(cap) && json_number_value(cap) < *overall)
		*overall = json_number_value(cap);
}

/* In an English thread, a model's reasons and suggestions written in
 * Chinese are left out (the checks' own, in English, are added after). */
static void note_review_in_lang(const struct step_ctx *c, json_t *answer)
{
	static const char *const keys[] = { "failReasons", "suggestions" };

	if (strcmp(step_lang(c), "en") != 0)
		return;
	for (size_t k = 0; k < 2; k++) {
		json_t *kept = json_array(), *v;
		size_t i;

		json_array_foreach(json_object_get(answer, keys[k]), i, v)
			if (json_is_string(v) && !text_has_han(json_string_value(v)))
				json_array_append(kept, v);
		json_object_set_new(answer, keys[k], kept);
	}
}

/* A failing review with no reason left says which dimensions fail, from
 * the catalogue, in the thread's language. */
static void note_review_say_dims(const struct step_ctx *c, json_t *answer, const json_t *scores)
{
	json_t *reasons = json_object_get(answer, "failReasons");
	char id[64], *r;

	if (json_array_size(reasons) > 0)
		return;
	reasons = json_array();
	for (size_t i = 0; i < NOTE_NDIMS; i++) {
		double v = json_number_value(json_object_get(scores, note_dims[i].dim));

		if (v >= NOTE_PASS_DIM)
			continue;
		snprintf(id, sizeof id, "note.review.dim.%s", note_dims[i].dim);
		r = msg_fmt(step_lang(c), id, note_dims[i].dim, v);
		json_array_append_new(reasons, json_string(r));
		free(r);
	}
	json_object_set_new(answer, "failReasons", reasons);
}

/* A model's scores bounded by the workflow's own checks (on the topic, not
 * against the feedback, no repeated sections): a dimension a check spoils
 * scores at most what the check allows, whatever the model said, and the
 * checks' reasons lead the answer's. Returns the dimensions it lowered and
 * sets *overall again; *why: the checks' first reason, or NULL. */
static json_t *note_review_bound(struct step_ctx *c, const json_t *facts, json_t *answer,
				 json_t *scores, double *overall, char **why)
{
	char err[256];
	json_t *checks = note_rules(c, "review_checks", facts, err, sizeof err);
	json_t *lowered = json_array(), *max;
	const json_t *reasons = json_object_get(checks, "failReasons");
	const char *dim;
	double sum = 0;

	*why = json_array_size(reasons) ? xstrdup(json_string_value(json_array_get(reasons, 0))) : NULL;
	json_object_foreach(json_object_get(checks, "caps"), dim, max) {
		if (json_number_value(json_object_get(scores, dim)) <= json_number_value(max))
			continue;
		json_object_set(scores, dim, max);
		json_array_append_new(lowered, json_string(dim));
	}
	if (json_is_array(reasons))
		note_lead_with(answer, "failReasons", reasons);
	if (json_is_array(json_object_get(checks, "suggestions")))
		note_lead_with(answer, "suggestions", json_object_get(checks, "suggestions"));
	for (size_t i = 0; i < NOTE_NDIMS; i++)
		sum += json_number_value(json_object_get(scores, note_dims[i].dim));
	*overall = (double)(long)(sum / NOTE_NDIMS * 100 + 0.5) / 100;
	note_review_cap(checks, overall);
	json_decref(checks);
	return lowered;
}

static json_t *note_strings(const json_t *v)
{
	json_t *out = json_array(), *e;
	size_t i;

	json_array_foreach(v, i, e)
		if (json_is_string(e) && i < 10)
			json_array_append(out, e);
	return out;
}

static void note_quality_event(struct step_ctx *c, const json_t *q, const json_t *answer)
{
	json_t *ev = note_event(c, "quality_score", NULL);

	json_object_update(ev, (json_t *)q);
	json_object_set_new(ev, "threshold", json_pack("{s:f, s:f}", "overall", NOTE_PASS_OVERALL,
						       "dimension", NOTE_PASS_DIM));
	json_object_set_new(ev, "suggestions", note_strings(json_object_get(answer, "suggestions")));
	json_object_set_new(ev, "iteration", json_integer(note_int(c->state, "iterationCount")));
	step_emit(c, ev);
}

static enum node_rc note_review_pass(struct step_ctx *c, double overall)
{
	note_set_flag(c->state, "reviewComplete", 1);
	note_creative_status(c->state, "complete", NULL);
	note_result(c->state);
	note_say(c, "note.review.passed", overall);
	return note_supervise(c, NULL);
}

/* Back to the stage owning dim, as one more iteration; rule: what the
 * workflow's checks found, or NULL. */
static enum node_rc note_review_loop(struct step_ctx *c, const char *dim, double v, int approved,
				     const char *rule)
{
	const char *owner = note_dim_owner(dim);
	json_int_t it = note_int(c->state, "iterationCount") + 1;
	json_t *fb = json_object_get(c->state, "reviewFeedback");
	char *why, *rule_said;

	json_object_set_new(c->state, "iterationCount", json_integer(it));
	note_route_reset_from(c->state, owner);
	if (strcmp(owner, "writer_agent") == 0 || strcmp(owner, "image_planner_agent") == 0)
		json_object_set_new(json_object_get(c->state, "attempts"), owner, json_integer(
			json_integer_value(json_object_get(json_object_get(c->state, "attempts"), owner)) + 1));
	rule_said = rule ? msg_fmt(step_lang(c), "note.review.loop.rule", rule) : NULL;
	why = msg_fmt(step_lang(c), "note.review.loop",
		      approved ? msg_get(step_lang(c), "note.review.loop.approved") : "", dim, v,
		      rule_said ? rule_said : "", msg_agent(step_lang(c), owner), (long long)it,
		      (long long)note_int(c->state, "maxIterations"));
	free(rule_said);
	json_object_set_new(fb, "routeReason", json_string(why));
	note_message(c, "%s", why);
	free(why);
	c->next = "supervisor";
	return NODE_NEXT;
}

enum node_rc note_review(struct step_ctx *c)
{
	static const char *const need[] = { "scores", NULL };
	json_t *facts = note_review_facts(c), *answer, *scores, *q, *lowered;
	const char *weak;
	char *rule = NULL;
	double overall;
	int rules = 0, approved;
	enum node_rc rc;

	if (note_decision(c, "quality")) {
		json_decref(facts);
		return note_quality_decide(c);
	}
	answer = note_ask(c, "review", facts, need, &rules);
	if (answer == NULL) {
		json_decref(facts);
		return note_to_supervisor(c);
	}
	scores = note_scores(c, answer, facts, &overall);
	/* The rules' own answer has their checks applied already. */
	if (rules) {
		lowered = json_array();
		note_review_cap(answer, &overall);
	} else {
		note_review_in_lang(c, answer);
		lowered = note_review_bound(c, facts, answer, scores, &overall, &rule);
	}
	json_decref(facts);
	weak = note_review_weakest(scores, overall);
	if (weak)
		note_review_say_dims(c, answer, scores);
	approved = json_is_true(json_object_get(answer, "approved"));
	q = json_pack("{s:o, s:f, s:b, s:b, s:o, s:s, s:o}", "scores", scores, "overall", overall, "passed",
		      weak == NULL, "approved", approved, "failReasons",
		      note_strings(json_object_get(answer, "failReasons")), "source", rules ? "rules" : "model",
		      "lowered", lowered);
	json_object_set_new(c->state, "qualityScores", q);
	note_quality_event(c, q, answer);
	json_object_set_new(c->state, "reviewFeedback", json_pack("{s:b, s:b, s:o, s:O, s:f, s:o, s:o}",
		"approved", approved, "passed", weak == NULL, "suggestions",
		note_strings(json_object_get(answer, "suggestions")), "scores", scores, "overall", overall,
		"dimension", weak ? json_string(weak) : json_null(), "rerouteTarget",
		weak ? json_string(note_dim_owner(weak)) : json_null()));
	json_decref(answer);
	note_quality_track(c->state);
	if (weak)
		note_quality_refuse(c->state);
	if (weak == NULL)
		rc = note_review_pass(c, overall);
	else if (note_int(c->state, "iterationCount") >= note_int(c->state, "maxIterations"))
		rc = note_quality_pause(c, "max_iterations");
	else
		rc = note_review_loop(c, weak, json_number_value(json_object_get(scores, weak)), approved, rule);
	free(rule);
	return rc;
}
