/* How a note run ends when the review does not pass (seed 001 §4, §9):
 * the person decides, not the machine alone. Every reviewed draft is
 * scored and the best one kept (state.bestDraft; a person's edit starts
 * the count again, their text outranks an older score); every draft the
 * review or the person refused is remembered by its print
 * (state.refusedDrafts), so the writer never offers it again. When
 * maxIterations is reached, or a pause is rejected a fourth time
 * (regeneration_limit), the run stops at a last pause of kind quality:
 * the best draft, the review's reasons and two choices. approve publishes
 * it as it is (workflow_complete with quality {passed: false, reasons,
 * publishedBy: "person"}); reject, or a deadline that passes, stops the
 * run (aborted, the draft kept in state.creative). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "text/phrase.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"

#define NOTE_REFUSED_MAX 24      /* prints kept */

/* What a best draft keeps of the state, and puts back. */
static const char *const note_quality_keys[] = {
	"generatedContent", "generatedImages", "generatedImageAssetIds", "generatedImagePaths",
	"imagePlans", "qualityScores",
};
#define NOTE_QUALITY_NKEYS (sizeof note_quality_keys / sizeof note_quality_keys[0])

void note_quality_refuse(json_t *state)
{
	const json_t *content = json_object_get(state, "generatedContent");
	json_t *list = json_object_get(state, "refusedDrafts");
	char *print;

	if (!json_is_object(content))
		return;
	if (!json_is_array(list)) {
		list = json_array();
		json_object_set_new(state, "refusedDrafts", list);
	}
	print = note_rules_person_print(content);
	if (!note_quality_refused(state, content))
		json_array_append_new(list, json_string(print));
	while (json_array_size(list) > NOTE_REFUSED_MAX)
		json_array_remove(list, 0);
	free(print);
}

int note_quality_refused(const json_t *state, const json_t *content)
{
	char *print = note_rules_person_print(content);
	const json_t *v;
	size_t i;
	int found = 0;

	json_array_foreach(json_object_get(state, "refusedDrafts"), i, v)
		found |= strcmp(json_string_value(v) ?: "", print) == 0;
	free(print);
	return found;
}

void note_quality_track(json_t *state)
{
	const json_t *best = json_object_get(state, "bestDraft");
	double overall = json_number_value(json_object_get(json_object_get(state, "qualityScores"), "overall"));
	json_t *keep;

	/* As high as the best: the later draft, which has the latest words. */
	if (json_is_object(best) && json_number_value(json_object_get(best, "overall")) > overall)
		return;
	keep = json_pack("{s:f}", "overall", overall);
	for (size_t i = 0; i < NOTE_QUALITY_NKEYS; i++)
		json_object_set_new(keep, note_quality_keys[i],
				    json_deep_copy(json_object_get(state, note_quality_keys[i])) ?: json_null());
	json_object_set_new(state, "bestDraft", keep);
}

/* The best draft back in the state (when there is one). */
static void note_quality_restore(json_t *state)
{
	const json_t *best = json_object_get(state, "bestDraft");

	if (!json_is_object(best))
		return;
	for (size_t i = 0; i < NOTE_QUALITY_NKEYS; i++)
		json_object_set_new(state, note_quality_keys[i],
				    json_deep_copy(json_object_get(best, note_quality_keys[i])) ?: json_null());
}

/* Why the draft did not pass: the review's reasons, else (a fourth reject
 * before any review) the rejects themselves. New reference. */
static json_t *note_quality_reasons(struct step_ctx *c, const char *code)
{
	const json_t *r = json_object_get(json_object_get(c->state, "qualityScores"), "failReasons");
	char *said;
	json_t *out;

	if (json_array_size(r))
		return json_deep_copy(r);
	said = msg_fmt(step_lang(c), strcmp(code, "regeneration_limit") == 0 ? "note.quality.rejects"
			: "note.quality.low", NOTE_MAX_REGENERATIONS + 1);
	out = json_pack("[s]", said);
	free(said);
	return out;
}

static void note_quality_show(struct step_ctx *c, const json_t *content)
{
	json_t *ev = note_event(c, "content_update", NULL);

	json_object_update(ev, (json_t *)content);
	step_emit(c, ev);
}

/* The last pause's interrupt: the draft, the reasons, publish or stop. */
static json_t *note_quality_interrupt(struct step_ctx *c, const char *code, const json_t *reasons)
{
	const json_t *content = json_object_get(c->state, "generatedContent");
	const json_t *q = json_object_get(c->state, "qualityScores");
	const char *lang = step_lang(c);
	struct buf why;
	char *question;
	json_t *intr;

	buf_init(&why, 4096);
	phrase_join(&why, reasons, strcmp(lang, "zh") == 0 ? "；" : "; ", 3);
	question = msg_fmt(lang, "note.ask.quality", why.data ? why.data : "");
	buf_free(&why);
	intr = step_interrupt_new("quality", question, "review_agent", NULL);
	free(question);
	json_object_set_new(intr, "options", json_pack("[{s:s, s:s}, {s:s, s:s}]", "id", "approve", "label",
		msg_get(lang, "note.quality.publish"), "id", "reject", "label", msg_get(lang, "note.quality.stop")));
	json_object_set_new(intr, "context", json_pack("{s:{s:O, s:O, s:O, s:O}, s:O, s:O, s:O, s:s}",
		"draft", "title", json_object_get(content, "title"), "body", json_object_get(content, "body"),
		"tags", json_object_get(content, "tags"), "imageAssetIds",
		json_object_get(c->state, "generatedImageAssetIds") ?: json_null(), "reasons", reasons,
		"overall", json_object_get(q, "overall") ?: json_null(), "scores",
		json_object_get(q, "scores") ?: json_null(), "limit", code));
	return intr;
}

enum node_rc note_quality_pause(struct step_ctx *c, const char *code)
{
	json_t *reasons;

	note_quality_restore(c->state);
	if (!json_is_object(json_object_get(c->state, "generatedContent")))
		return note_abort(c, code, msg_get(step_lang(c), strcmp(code, "regeneration_limit") == 0
						   ? "note.draft.limit" : "note.review.limit"));
	reasons = note_quality_reasons(c, code);
	note_creative_sync(c->state);
	json_object_set_new(c->state, "qualityPending", json_pack("{s:s, s:O}", "limit", code, "reasons",
								  reasons));
	json_object_set_new(c->state, "pendingConfirmation", json_pack("{s:s, s:s, s:I}", "type", "quality",
		"limit", code, "timestamp", (json_int_t)clock_wall_ms()));
	note_quality_show(c, json_object_get(c->state, "generatedContent"));
	if (strcmp(code, "regeneration_limit") == 0)
		note_say(c, "note.quality.paused.rejects", (long long)NOTE_MAX_REGENERATIONS + 1);
	else if (strcmp(code, "no_new_draft") == 0)
		note_say(c, "note.quality.paused.stuck");
	else
		note_say(c, "note.quality.paused", (long long)note_int(c->state, "maxIterations"));
	c->interrupt = note_quality_interrupt(c, code, reasons);
	json_decref(reasons);
	return NODE_INTERRUPT;
}

/* Publish as it is: every stage counts as done, the creative is
 * complete, and the result says who published it and why it did not pass. */
static enum node_rc note_quality_publish(struct step_ctx *c, const json_t *reasons)
{
	json_t *q = json_pack("{s:b, s:O, s:s}", "passed", 0, "reasons", reasons, "publishedBy", "person");

	for (int i = 0; i < NOTE_NSTAGES; i++)
		note_set_flag(c->state, note_stages[i].flag, 1);
	note_creative_status(c->state, "complete", NULL);
	json_object_set(json_object_get(c->state, "creative"), "quality", q);
	note_result(c->state);
	json_object_set_new(json_object_get(c->state, "result"), "quality", q);
	note_say(c, "note.quality.published");
	return note_supervise(c, msg_get(step_lang(c), "note.route.published"));
}

enum node_rc note_quality_decide(struct step_ctx *c)
{
	const char *action = note_decision(c, "quality");
	const json_t *pend = json_object_get(c->state, "qualityPending");
	int automatic = json_is_true(json_object_get(c->resume, "automatic"));
	char code[32];
	json_t *reasons = json_incref(json_object_get(pend, "reasons")) ?: json_array();
	enum node_rc rc;

	snprintf(code, sizeof code, "%s", json_string_value(json_object_get(pend, "limit")) ?: "max_iterations");
	json_object_set_new(c->state, "pendingConfirmation", json_null());
	if (note_feedback(c))
		note_push_message(c->state, "user", note_feedback(c));
	json_object_del(c->state, "qualityPending");
	/* A deadline's default is to stop: publishing is the person's call. */
	if (strcmp(action ? action : "", "approve") == 0 && !automatic)
		rc = note_quality_publish(c, reasons);
	else
		rc = note_abort(c, code, msg_get(step_lang(c), automatic ? "note.quality.timeout"
									: "note.quality.stopped"));
	json_decref(reasons);
	return rc;
}
