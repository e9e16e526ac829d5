/* writer_agent and layout_planner_agent (seed 001 §2, §5.2). The writer
 * drafts {title, body, tags} from the brief, the evidence and any
 * feedback (the person's, after a reject; the review's, after a quality
 * loop), sends it as a message and a content_update, and pauses (kind
 * content): approve goes on, reject drafts again differently (the
 * attempt counter turns the wording, the feedback shapes it), modify
 * takes the person's edits. The layout planner cuts the body into
 * paragraphs and plans the canvas, the images and the text on them. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "wf/note/note.h"

#define NOTE_TITLE_MAX 200      /* bytes */
#define NOTE_BODY_MAX 20000
#define NOTE_TAG_MAX 64
#define NOTE_TAGS_MAX 10

static json_int_t note_counter(const json_t *st, const char *obj, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(st, obj), key));
}

static void note_counter_set(json_t *st, const char *obj, const char *key, json_int_t v)
{
	json_object_set_new(json_object_get(st, obj), key, json_integer(v));
}

/* Tags as text without '#', not empty, each at most NOTE_TAG_MAX bytes.
 * NULL when v is not an array of strings. New reference. */
static json_t *note_tags_clean(const json_t *v)
{
	json_t *out, *t;
	size_t i;

	if (!json_is_array(v))
		return NULL;
	out = json_array();
	json_array_foreach(v, i, t) {
		const char *s = json_string_value(t);

		if (s == NULL) {
			json_decref(out);
			return NULL;
		}
		while (*s == '#' || *s == ' ')
			s++;
		if (*s && strlen(s) <= NOTE_TAG_MAX && json_array_size(out) < NOTE_TAGS_MAX)
			json_array_append_new(out, json_string(s));
	}
	return out;
}

/* {title, body, tags} when j has them with the right types and sizes. */
static json_t *note_content_clean(const json_t *j)
{
	const char *title = json_string_value(json_object_get(j, "title"));
	const char *body = json_string_value(json_object_get(j, "body"));
	json_t *tags = note_tags_clean(json_object_get(j, "tags"));

	if (title == NULL || body == NULL || tags == NULL || !*title || !*body ||
	    strlen(title) > NOTE_TITLE_MAX || strlen(body) > NOTE_BODY_MAX) {
		json_decref(tags);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:o}", "title", title, "body", body, "tags", tags);
}

/* What the writer is told to change: the person's words after a reject,
 * and the review's suggestions when the quality loop sent work here. */
static char *note_writer_feedback(const json_t *st, const char *user)
{
	char *hint = note_review_hint(st, "writer_agent"), *out;

	if (user == NULL)
		return hint;
	out = xasprintf("%s%s%s", user, hint ? "；" : "", hint ? hint : "");
	free(hint);
	return out;
}

static json_t *note_writer_facts(const json_t *st, const char *feedback)
{
	const json_t *ev = json_object_get(st, "evidencePack");
	json_t *f = json_pack("{s:s, s:O, s:{s:O, s:O, s:O, s:O, s:O}, s:I}", "topic",
		note_str(st, "topic") ?: "", "brief", json_object_get(st, "creativeBrief") ?: json_null(),
		"evidence", "titles", json_object_get(ev, "titles") ?: json_null(), "tags",
		json_object_get(ev, "tags") ?: json_null(), "summary", json_object_get(ev, "summary") ?: json_null(),
		"points", json_object_get(ev, "points") ?: json_null(), "covered",
		json_object_get(ev, "covered") ?: json_null(), "attempt", note_counter(st, "attempts", "writer_agent"));
	const json_t *prev = json_object_get(st, "generatedContent");

	if (feedback)
		json_object_set_new(f, "feedback", json_string(feedback));
	if (json_is_object(json_object_get(st, "noteTemplate")))
		json_object_set(f, "template", json_object_get(st, "noteTemplate"));
	if (json_is_object(prev))
		json_object_set_new(f, "previous", json_pack("{s:O}", "title", json_object_get(prev, "title")));
	return f;
}

static void note_content_events(struct step_ctx *c, const json_t *content)
{
	json_t *ev = note_event(c, "content_update", NULL);
	struct buf tags;
	size_t i;

	buf_init(&tags, 4096);
	for (i = 0; i < json_array_size(json_object_get(content, "tags")); i++)
		buf_printf(&tags, "%s#%s", i ? " " : "",
			   json_string_value(json_array_get(json_object_get(content, "tags"), i)));
	note_say(c, "note.draft", json_string_value(json_object_get(content, "title")),
		     json_string_value(json_object_get(content, "body")), tags.data);
	buf_free(&tags);
	json_object_update(ev, (json_t *)content);
	step_emit(c, ev);
}

static enum node_rc note_writer_pause(struct step_ctx *c)
{
	json_t *content = json_object_get(c->state, "generatedContent");

	json_object_set_new(c->state, "pendingConfirmation", json_pack("{s:s, s:O, s:I}", "type",
		"content", "data", content, "timestamp", (json_int_t)clock_wall_ms()));
	c->interrupt = step_interrupt_new("content", msg_get(step_lang(c), "note.ask.content"), "writer_agent",
					  json_deep_copy(content));
	return NODE_INTERRUPT;
}

static enum node_rc note_writer_draft(struct step_ctx *c, const char *user_feedback)
{
	static const char *const need[] = { "title", "body", "tags", NULL };
	char *fb = note_writer_feedback(c->state, user_feedback), err[256] = "";
	json_t *facts = note_writer_facts(c->state, fb), *j, *content;
	int rules = 0;

	free(fb);
	j = note_ask(c, "note", facts, need, &rules);
	if (j == NULL) {
		json_decref(facts);
		return note_to_supervisor(c);
	}
	content = note_content_clean(j);
	if (json_is_string(json_object_get(j, "feedbackApplied")))
		note_progress(c, "%s", json_string_value(json_object_get(j, "feedbackApplied")));
	json_decref(j);
	if (content == NULL) {
		note_tick(c, "note.draft.rules");
		j = note_rules(c, "note", facts, err, sizeof err);
		content = note_content_clean(j);
		json_decref(j);
		rules = 1;
	}
	json_decref(facts);
	if (content == NULL)
		return note_abort(c, "writer_failed", msg_error(step_lang(c), "writer_failed"));
	json_object_set_new(c->state, "contentSource", json_string(rules ? "rules" : "model"));
	json_object_set_new(c->state, "generatedContent", content);
	note_creative_sync(c->state);
	note_content_events(c, content);
	return note_writer_pause(c);
}

/* The person's edits over the draft; NULL (and why) when they break it. */
static json_t *note_writer_edits(const json_t *draft, const json_t *payload, const char *lang,
				  char *why, size_t n)
{
	json_t *next = json_deep_copy(draft), *out;
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)payload, k, v)
		if (strcmp(k, "title") == 0 || strcmp(k, "body") == 0 || strcmp(k, "tags") == 0)
			json_object_set(next, k, v);
	out = note_content_clean(next);
	json_decref(next);
	if (out == NULL)
		snprintf(why, n, "%s", msg_get(lang, "note.edit.invalid"));
	return out;
}

static enum node_rc note_writer_decide(struct step_ctx *c, const char *action)
{
	json_t *draft = json_object_get(c->state, "generatedContent"), *edited;
	json_int_t n;
	char why[128];

	json_object_set_new(c->state, "pendingConfirmation", json_null());
	if (note_feedback(c))
		note_push_message(c->state, "user", note_feedback(c));
	if (strcmp(action, "reject") == 0) {
		n = note_counter(c->state, "regenerations", "content") + 1;
		if (n > NOTE_MAX_REGENERATIONS)
			return note_abort(c, "regeneration_limit", msg_get(step_lang(c), "note.draft.limit"));
		note_counter_set(c->state, "regenerations", "content", n);
		note_counter_set(c->state, "attempts", "writer_agent",
				 note_counter(c->state, "attempts", "writer_agent") + 1);
		if (note_feedback(c))
			note_prompt_set(c, "feedback on the draft", json_pack("{s:o}", "feedback",
					note_user_replies(c->state)));
		return note_writer_draft(c, note_feedback(c));
	}
	if (strcmp(action, "modify") == 0) {
		edited = note_writer_edits(draft, json_object_get(c->resume, "payload"), step_lang(c),
					   why, sizeof why);
		if (edited == NULL) {
			note_say(c, "note.edit_failed", why);
			return note_writer_pause(c);
		}
		json_object_set_new(c->state, "generatedContent", edited);
		json_object_set_new(c->state, "contentSource", json_string("user"));
		note_creative_sync(c->state);
		note_content_events(c, edited);
	} else {
		note_say(c, "note.draft.confirmed");
	}
	note_set_flag(c->state, "contentComplete", 1);
	return note_supervise(c, NULL);
}

enum node_rc note_writer(struct step_ctx *c)
{
	const char *action = note_decision(c, "content");

	if (action)
		return note_writer_decide(c, action);
	return note_writer_draft(c, NULL);
}

/* ---- layout_planner_agent ---- */

/* The first reference that could be read: shape and colours. */
static json_t *note_layout_reference(const json_t *st)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(st, "referenceAnalyses"), i, a) {
		const json_t *lt = json_object_get(a, "layoutTokens"), *sty = json_object_get(a, "styleTokens");

		if (json_object_get(a, "error"))
			continue;
		return json_pack("{s:O, s:O, s:O, s:O, s:O}", "aspect", json_object_get(lt, "aspect") ?: json_null(),
			"orientation", json_object_get(lt, "orientation") ?: json_null(), "palette",
			json_object_get(sty, "colorPalette") ?: json_null(), "mood",
			json_object_get(sty, "mood") ?: json_null(), "brightness",
			json_object_get(a, "brightness") ?: json_null());
	}
	return json_null();
}

static int note_layout_ok(const json_t *j)
{
	const json_t *specs = json_object_get(j, "layoutSpec"), *s;
	size_t i;

	if (!json_is_array(specs) || json_array_size(specs) == 0 || json_array_size(specs) > NOTE_MAX_PLANS)
		return 0;
	json_array_foreach(specs, i, s)
		if (!json_is_object(s) || !json_is_integer(json_object_get(s, "imageSeq")))
			return 0;
	return 1;
}

static json_t *note_canvas(const json_t *j)
{
	const json_t *cv = json_object_get(j, "canvas");
	json_int_t w = json_integer_value(json_object_get(cv, "width"));
	json_int_t h = json_integer_value(json_object_get(cv, "height"));

	if (w < 256 || w > 2048 || h < 256 || h > 2048)
		return json_pack("{s:i, s:i, s:s}", "width", 768, "height", 1024, "aspect", "3:4");
	return json_pack("{s:I, s:I, s:O}", "width", w, "height", h, "aspect",
			 json_object_get(cv, "aspect") ?: json_null());
}

static json_t *note_layout_plan(struct step_ctx *c, const json_t *facts)
{
	static const char *const need[] = { "layoutSpec", NULL };
	char err[256] = "";
	int rules = 0;
	json_t *j = note_ask(c, "layout", facts, need, &rules);

	if (j && !note_layout_ok(j)) {
		json_decref(j);
		note_tick(c, "note.layout.rules");
		j = note_rules(c, "layout", facts, err, sizeof err);
		if (j == NULL || !note_layout_ok(j)) {
			json_decref(j);
			json_object_set_new(c->state, "lastError", json_pack("{s:s, s:s, s:s, s:b}", "code",
				"layout_failed", "message", err, "agent", c->node, "severe", 1));
			return NULL;
		}
	}
	return j;
}

enum node_rc note_layout_planner(struct step_ctx *c)
{
	const json_t *content = json_object_get(c->state, "generatedContent");
	json_t *pars = note_paragraphs(json_string_value(json_object_get(content, "body")));
	json_t *facts = json_pack("{s:O, s:s, s:o, s:O, s:o}", "title", json_object_get(content, "title"),
		"topic", note_str(c->state, "topic") ?: "", "paragraphs", json_incref(pars),
		"layoutPreference", json_object_get(c->state, "layoutPreference"), "reference",
		note_layout_reference(c->state));
	json_t *j = note_layout_plan(c, facts), *ev;

	json_decref(facts);
	if (j == NULL) {
		json_decref(pars);
		return note_to_supervisor(c);
	}
	json_object_set_new(c->state, "bodyBlocks", pars);
	json_object_set(c->state, "layoutSpec", json_object_get(j, "layoutSpec"));
	json_object_set_new(c->state, "textOverlayPlan", json_is_array(json_object_get(j, "textOverlayPlan"))
			    ? json_incref(json_object_get(j, "textOverlayPlan")) : json_array());
	json_object_set_new(c->state, "canvas", note_canvas(j));
	ev = note_event(c, "layout_spec_ready", NULL);
	json_object_set(ev, "layoutSpec", json_object_get(c->state, "layoutSpec"));
	json_object_set(ev, "textOverlayPlan", json_object_get(c->state, "textOverlayPlan"));
	json_object_set(ev, "canvas", json_object_get(c->state, "canvas"));
	json_object_set_new(ev, "imageCount", json_integer((json_int_t)json_array_size(
							   json_object_get(c->state, "layoutSpec"))));
	step_emit(c, ev);
	note_say(c, "note.layout", json_string_value(json_object_get(
		json_object_get(c->state, "canvas"), "aspect")) ?: "3:4",
		json_array_size(json_object_get(c->state, "layoutSpec")), json_array_size(pars));
	json_decref(j);
	note_set_flag(c->state, "layoutComplete", 1);
	return note_supervise(c, NULL);
}
