/* writer_agent and layout_planner_agent (seed 001 §2, §5.2). The writer
 * drafts {title, body, tags} from the brief, the evidence and any
 * feedback (the person's, after a reject; the review's, after a quality
 * loop), sends it as a message and a content_update, and pauses (kind
 * content): approve goes on, reject drafts again differently (the
 * attempt counter turns the wording, the feedback shapes it), modify
 * takes the person's edits. A person outranks the review: what they wrote
 * or edited (state.personEdits) is kept word for word by every later
 * draft, which may only add to it or change the rest; a draft is never
 * one already refused (by the person or the review) unless the writer
 * says it could not do otherwise; and the next pause says what changed
 * (ask_user.context.changes). Whoever wrote the draft, each instruction
 * of a reject's feedback is then done on it or declined by name
 * (note_feedback.h), in a progress line each and in the next pause
 * (ask_user.context.feedback). The layout planner cuts the body into
 * paragraphs and plans the canvas, the images and the text on them. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "text/phrase.h"
#include "kb/kb.h"
#include "kb/shelf.h"
#include "wf/note/note.h"
#include "wf/note/note_feedback.h"
#include "wf/note/note_rules.h"

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

	const json_t *mine = json_object_get(json_object_get(st, "personEdits"), "paragraphs");

	if (feedback)
		json_object_set_new(f, "feedback", json_string(feedback));
	if (json_is_object(json_object_get(st, "noteTemplate")))
		json_object_set(f, "template", json_object_get(st, "noteTemplate"));
	if (json_is_object(prev))
		json_object_set_new(f, "previous", json_pack("{s:O, s:O, s:O}", "title",
			json_object_get(prev, "title"), "body", json_object_get(prev, "body"), "tags",
			json_object_get(prev, "tags")));
	/* What the person said stands for the run; what they wrote is theirs. */
	json_object_set_new(f, "replies", note_user_replies(st));
	if (json_array_size(mine))
		json_object_set_new(f, "keep", json_deep_copy(mine));
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

/* The content pause; changes (stolen, may be NULL): what changed since
 * the draft before, and report (stolen, may be NULL): what became of each
 * item of the person's feedback, for ask_user.context. */
static enum node_rc note_writer_pause(struct step_ctx *c, json_t *changes, json_t *report)
{
	json_t *content = json_object_get(c->state, "generatedContent");

	json_object_set_new(c->state, "pendingConfirmation", json_pack("{s:s, s:O, s:I}", "type",
		"content", "data", content, "timestamp", (json_int_t)clock_wall_ms()));
	c->interrupt = step_interrupt_new("content", msg_get(step_lang(c), "note.ask.content"), "writer_agent",
					  json_deep_copy(content));
	if (changes || report)
		json_object_set_new(c->interrupt, "context", json_object());
	if (changes)
		json_object_set_new(json_object_get(c->interrupt, "context"), "changes", changes);
	if (report)
		json_object_set_new(json_object_get(c->interrupt, "context"), "feedback", report);
	return NODE_INTERRUPT;
}

/* The draft with what the person wrote kept: their title, their tags,
 * their paragraphs word for word in their places (prev: the draft they
 * are in). Steals content; new reference. */
static json_t *note_writer_keep(const json_t *st, json_t *content, const json_t *prev)
{
	const json_t *mine = json_object_get(st, "personEdits");
	const json_t *pars = json_object_get(mine, "paragraphs");
	char *body;

	if (json_is_string(json_object_get(mine, "title")))
		json_object_set(content, "title", json_object_get(mine, "title"));
	if (json_is_array(json_object_get(mine, "tags")))
		json_object_set(content, "tags", json_object_get(mine, "tags"));
	if (json_array_size(pars) && json_is_string(json_object_get(prev, "body"))) {
		body = note_rules_person_merge(json_string_value(json_object_get(prev, "body")), pars,
					       json_string_value(json_object_get(content, "body")));
		json_object_set_new(content, "body", json_string(body));
		free(body);
	}
	return content;
}

/* ---- the person's feedback, item by item (note_feedback.h) ---- */

/* What a draft of this round is shaped by: the items of the person's
 * feedback (reported), what they asked before (done again on every
 * draft, a model's too, not reported), and the facts the items are done
 * with. */
struct note_writer_round {
	json_t *items;     /* this round's, or NULL */
	json_t *earlier;   /* asked before: note_writer_earlier */
	json_t *ctx;       /* note_feedback_apply's */
	json_t *report;    /* the last draft's */
};

#define NOTE_WRITER_NOTES_MAX 20      /* corpus notes looked at for one subject */
#define NOTE_WRITER_SEARCHES_MAX 16   /* corpus searches for one round's items */

/* The corpus notes with a subject word of the topic (less the words
 * left out). New reference. */
static json_t *note_writer_topic_notes(struct step_ctx *c, struct kb *kb, const json_t *banned)
{
	char *topic = note_rules_person_topic(note_str(c->state, "topic") ?: "", banned);
	json_t *own = note_rules_topic_subject(topic, 0), *out = json_array(), *got, *d;
	const json_t *w;
	size_t i, k;

	json_array_foreach(own, i, w) {
		got = note_corpus_having(kb, json_string_value(w), NOTE_WRITER_NOTES_MAX);
		json_array_foreach(got, k, d)
			if (json_array_size(out) < NOTE_WRITER_NOTES_MAX)
				json_array_append(out, d);
		json_decref(got);
	}
	json_decref(own);
	free(topic);
	return out;
}

/* The corpus notes about the subjects of the more/add items, those about
 * the topic too (as the research keeps them). New reference. */
static json_t *note_writer_notes(struct step_ctx *c, const json_t *items, const json_t *banned)
{
	char err[256] = "";
	struct kb *kb = kb_shelf_get(step_app(c), &note_corpus_def, err, sizeof err);
	json_t *found = json_array(), *terms, *got, *d, *own, *out;
	char *topic;
	const json_t *it, *t;
	size_t i, j, k, searches = 0;

	json_array_foreach(items, i, it) {
		const char *kind = json_string_value(json_object_get(it, "kind")) ?: "";

		if (kb == NULL || (strcmp(kind, "more") != 0 && strcmp(kind, "add") != 0))
			continue;
		terms = note_feedback_terms(it);
		json_array_foreach(terms, j, t) {
			if (++searches > NOTE_WRITER_SEARCHES_MAX)
				break;
			/* A price is looked for in the notes about the topic. */
			got = strcmp(json_string_value(t), NOTE_FEEDBACK_PRICE) == 0
				? note_writer_topic_notes(c, kb, banned)
				: note_corpus_having(kb, json_string_value(t), NOTE_WRITER_NOTES_MAX);
			json_array_foreach(got, k, d)
				if (json_array_size(found) < NOTE_WRITER_NOTES_MAX * 2)
					json_array_append(found, d);
			json_decref(got);
		}
		json_decref(terms);
	}
	if (kb == NULL || json_array_size(found) == 0)
		return found;
	topic = note_rules_person_topic(note_str(c->state, "topic") ?: "", banned);
	own = note_rules_topic_subject(topic, 0);
	out = note_corpus_relevant(kb_items(kb), found, own, 0.5);
	free(topic);
	json_decref(own);
	json_decref(found);
	return out;
}

/* What the person asked before this round: the removals of every reply
 * (a removal stands for the run, as the review reads it) and the items of
 * their earlier feedback on drafts (state.contentFeedback, each measured
 * against the draft it refused), done again on every later draft, a
 * rewrite after the review included. New reference. */
static json_t *note_writer_earlier(const json_t *st, const char *feedback)
{
	json_t *replies = note_user_replies(st), *out = json_array(), *items, *it;
	const json_t *mine = json_object_get(st, "contentFeedback"), *e;
	size_t n = json_array_size(replies), m = json_array_size(mine), i, j;

	/* This round's feedback is the last of both: it is reported, not
	 * done again here. */
	if (feedback && n && strcmp(json_string_value(json_array_get(replies, n - 1)) ?: "", feedback) == 0)
		n--;
	if (feedback && m)
		m--;
	for (i = 0; i < n; i++) {
		items = note_feedback_items(json_string_value(json_array_get(replies, i)));
		json_array_foreach(items, j, it)
			if (strcmp(json_string_value(json_object_get(it, "kind")) ?: "", "remove") == 0)
				json_array_append(out, it);
		json_decref(items);
	}
	for (i = 0; i < m; i++) {
		e = json_array_get(mine, i);
		json_array_foreach(json_object_get(e, "items"), j, it)
			if (strcmp(json_string_value(json_object_get(it, "kind")) ?: "", "remove") != 0 &&
			    strcmp(json_string_value(json_object_get(it, "kind")) ?: "", "other") != 0)
				json_array_append(out, it);
	}
	json_decref(replies);
	return out;
}

static void note_writer_round_init(struct step_ctx *c, struct note_writer_round *r, const char *feedback,
				   const json_t *prev)
{
	const json_t *st = c->state;
	json_t *replies = note_user_replies(st), *all;

	r->items = feedback ? note_feedback_items(feedback) : NULL;
	note_feedback_mark(r->items, prev);
	r->earlier = note_writer_earlier(st, feedback);
	r->report = NULL;
	r->ctx = json_pack("{s:s, s:s, s:O, s:O, s:O, s:o}", "lang", step_lang(c), "topic",
		note_str(st, "topic") ?: "", "previous", prev ? prev : json_null(), "locked",
		json_object_get(json_object_get(st, "personEdits"), "paragraphs") ?: json_null(), "points",
		json_object_get(json_object_get(st, "evidencePack"), "points") ?: json_null(), "banned",
		note_rules_feedbacks_banned(replies, NULL));
	/* The notes about what this round and the earlier ones ask to add. */
	all = json_array();
	if (r->items)
		json_array_extend(all, r->items);
	json_array_extend(all, r->earlier);
	json_object_set_new(r->ctx, "notes", note_writer_notes(c, all, json_object_get(r->ctx, "banned")));
	json_decref(all);
	json_decref(replies);
}

static void note_writer_round_free(struct note_writer_round *r)
{
	json_decref(r->items);
	json_decref(r->earlier);
	json_decref(r->ctx);
	json_decref(r->report);
}

/* A draft (by source) shaped by the round: the earlier removals done
 * again, this round's items done or declined (the report kept). */
static void note_writer_shape(struct note_writer_round *r, json_t *content, const char *source)
{
	json_object_set_new(r->ctx, "source", json_string(source));
	if (json_array_size(r->earlier))
		json_decref(note_feedback_apply(content, r->earlier, r->ctx));
	json_decref(r->report);
	r->report = r->items ? note_feedback_apply(content, r->items, r->ctx) : NULL;
}

/* One progress line per item, done or not and why; a title the person
 * asked for becomes theirs, as one they wrote would. */
static void note_writer_report(struct step_ctx *c, const struct note_writer_round *r, const json_t *content)
{
	json_t *mine = json_object_get(c->state, "personEdits");
	const json_t *e;
	size_t i;

	json_array_foreach(r->report, i, e) {
		int done = json_is_true(json_object_get(e, "done"));

		note_tick(c, done ? "note.feedback.done" : "note.feedback.not",
			  json_string_value(json_object_get(e, "text")) ?: "",
			  json_string_value(json_object_get(e, "said")) ?: "");
		if (done && json_is_object(mine) && json_object_get(mine, "title") &&
		    strcmp(json_string_value(json_object_get(e, "kind")) ?: "", "title") == 0)
			json_object_set(mine, "title", json_object_get(content, "title"));
	}
}

/* One answer of the writer, cleaned and with the person's text kept; the
 * rules' answer when the model's cannot be used. NULL when there is none;
 * *failed when the provider failed (a severe error). */
static json_t *note_writer_once(struct step_ctx *c, json_t *facts, const json_t *prev, int *rules,
				int *failed, struct note_writer_round *round)
{
	static const char *const need[] = { "title", "body", "tags", NULL };
	char err[256] = "";
	json_t *j, *content;

	j = *rules ? note_rules(c, "note", facts, err, sizeof err) : note_ask(c, "note", facts, need, rules);
	if (j == NULL && !*rules) {
		*failed = 1;
		return NULL;
	}
	content = note_content_clean(j);
	json_decref(j);
	if (content == NULL && !*rules) {
		note_tick(c, "note.draft.rules");
		j = note_rules(c, "note", facts, err, sizeof err);
		content = note_content_clean(j);
		json_decref(j);
		*rules = 1;
	}
	if (content == NULL)
		return NULL;
	content = note_writer_keep(c->state, content, prev);
	note_writer_shape(round, content, *rules ? "rules" : "model");
	return content;
}

/* Whether the person wrote any of the draft. */
static int note_writer_has_mine(const json_t *st)
{
	const json_t *mine = json_object_get(st, "personEdits");

	return json_object_get(mine, "title") || json_object_get(mine, "tags") ||
	       json_array_size(json_object_get(mine, "paragraphs"));
}

#define NOTE_WRITER_TRIES 4      /* rules' drafts to find one not refused (a model's: 2) */

/* A draft refused before, or one that only moves the sections of the
 * draft it replaces: nothing the feedback or the review named is done. */
static int note_writer_stale(const json_t *st, const json_t *content, const json_t *prev)
{
	json_t *ch;
	int none;

	if (note_quality_refused(st, content))
		return 1;
	if (!json_is_object(prev))
		return 0;
	ch = note_rules_person_changes(prev, content);
	none = note_rules_person_none(ch);
	json_decref(ch);
	return none;
}

/* A draft that is not one already refused: the writer tries again with
 * the next attempt, and says so when it cannot do otherwise. Steals
 * content; new reference. */
static json_t *note_writer_fresh(struct step_ctx *c, json_t *facts, json_t *content, const json_t *prev,
				 int *rules, const char *asked, struct note_writer_round *round)
{
	json_int_t attempt = json_integer_value(json_object_get(facts, "attempt"));
	int failed = 0;
	json_t *next;

	for (int k = 1; note_writer_stale(c->state, content, prev) && k < (*rules ? NOTE_WRITER_TRIES : 2); k++) {
		json_object_set_new(facts, "attempt", json_integer(attempt + k));
		json_object_set_new(facts, "refused", json_true());
		next = note_writer_once(c, facts, prev, rules, &failed, round);
		if (next == NULL)
			break;
		json_decref(content);
		content = next;
	}
	if (note_writer_stale(c->state, content, prev))
		note_tick(c, "note.draft.same", asked && *asked ? asked : msg_get(step_lang(c), "note.draft.same.none"),
			  note_writer_has_mine(c->state) ? msg_get(step_lang(c), "note.draft.same.kept") : "");
	return content;
}

/* What changed from prev, with why the draft came back: the review's
 * reasons after a quality loop, the person's words after a reject. */
static json_t *note_writer_changes(const json_t *st, const json_t *prev, const json_t *content,
				   const char *user_feedback)
{
	const json_t *mine = json_object_get(json_object_get(st, "personEdits"), "paragraphs"), *q, *v;
	json_t *ch, *kept = json_array();
	char *hint = note_review_hint(st, "writer_agent");
	size_t i;

	if (!json_is_object(prev)) {
		json_decref(kept);
		free(hint);
		return NULL;
	}
	ch = note_rules_person_changes(prev, content);
	q = json_object_get(st, "qualityScores");
	if (hint && json_is_array(json_object_get(q, "failReasons")))
		json_object_set(ch, "reasons", json_object_get(q, "failReasons"));
	if (user_feedback)
		json_object_set_new(ch, "feedback", json_string(user_feedback));
	json_array_foreach(mine, i, v) {
		char *l = phrase_truncate(json_string_value(v), 20);

		json_array_append_new(kept, json_string(l));
		free(l);
	}
	json_object_set_new(ch, "kept", kept);
	free(hint);
	return ch;
}

static enum node_rc note_writer_draft(struct step_ctx *c, const char *user_feedback)
{
	char *fb = note_writer_feedback(c->state, user_feedback);
	json_t *facts = note_writer_facts(c->state, fb), *content, *changes;
	json_t *prev = json_deep_copy(json_object_get(c->state, "generatedContent")), *report;
	struct note_writer_round round;
	int rules = 0, failed = 0;

	note_writer_round_init(c, &round, user_feedback, prev);
	content = note_writer_once(c, facts, prev, &rules, &failed, &round);
	if (content)
		content = note_writer_fresh(c, facts, content, prev, &rules, fb, &round);
	free(fb);
	json_decref(facts);
	if (failed || content == NULL) {
		json_decref(prev);
		note_writer_round_free(&round);
		return failed ? note_to_supervisor(c)
			      : note_abort(c, "writer_failed", msg_error(step_lang(c), "writer_failed"));
	}
	/* The review sent it back and the writer has nothing new (the draft is
	 * the person's, or every other one was refused): the person decides,
	 * at the last pause, rather than see the same draft again. */
	if (user_feedback == NULL && json_is_object(prev) && note_writer_stale(c->state, content, prev)) {
		json_decref(content);
		json_decref(prev);
		note_writer_round_free(&round);
		return note_quality_pause(c, "no_new_draft");
	}
	note_writer_report(c, &round, content);
	report = round.report ? json_incref(round.report) : NULL;
	note_writer_round_free(&round);
	changes = note_writer_changes(c->state, prev, content, user_feedback);
	json_decref(prev);
	json_object_set_new(c->state, "contentSource", json_string(rules ? "rules" : "model"));
	json_object_set_new(c->state, "generatedContent", content);
	note_creative_sync(c->state);
	note_content_events(c, content);
	return note_writer_pause(c, changes, report);
}

/* A person's edit: what they wrote or changed is theirs from now on (a
 * title, tags, the paragraphs not in the draft they were shown), and a
 * best draft from before it no longer stands for them. */
static void note_writer_lock(json_t *st, const json_t *shown, const json_t *edited, const json_t *payload)
{
	json_t *mine = json_object_get(st, "personEdits"), *pars;
	const char *k;

	if (!json_is_object(mine)) {
		mine = json_object();
		json_object_set_new(st, "personEdits", mine);
	}
	for (int i = 0; i < 2; i++) {
		k = i ? "tags" : "title";
		if (json_object_get(payload, k) && !json_equal(json_object_get(shown, k), json_object_get(edited, k)))
			json_object_set(mine, k, json_object_get(edited, k));
	}
	pars = note_rules_person_locked(json_string_value(json_object_get(shown, "body")),
					json_string_value(json_object_get(edited, "body")),
					json_object_get(mine, "paragraphs"));
	json_object_set_new(mine, "paragraphs", pars);
	json_object_del(st, "bestDraft");
}

/* A reject whose feedback leaves out a word gives back the title and the
 * tags the person wrote with that word in it: their latest word wins.
 * Their paragraphs stay theirs, word for word: the removal is declined
 * there, by name (note_feedback.h). */
static void note_writer_release(json_t *st, const char *feedback)
{
	json_t *mine = json_object_get(st, "personEdits"), *banned, *v, *w;
	size_t i, j;

	if (!json_is_object(mine) || feedback == NULL)
		return;
	banned = note_rules_feedback_banned(feedback);
	json_array_foreach(banned, j, w) {
		const char *b = json_string_value(w);

		if (phrase_has(json_string_value(json_object_get(mine, "title")) ?: "", b))
			json_object_del(mine, "title");
		json_array_foreach(json_object_get(mine, "tags"), i, v)
			if (phrase_has(json_string_value(v) ?: "", b)) {
				json_object_del(mine, "tags");
				break;
			}
	}
	json_decref(banned);
}

#define NOTE_WRITER_REMEMBER_MAX 10

/* Appends v (stolen) to the array st[key], at most the last
 * NOTE_WRITER_REMEMBER_MAX kept. */
static void note_writer_push(json_t *st, const char *key, json_t *v)
{
	json_t *a = json_object_get(st, key);

	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(st, key, a);
	}
	json_array_append_new(a, v);
	while (json_array_size(a) > NOTE_WRITER_REMEMBER_MAX)
		json_array_remove(a, 0);
}

/* A reject's feedback on a draft: its items, measured against the draft
 * (state.contentFeedback: {feedback, items}, done again on later drafts),
 * and the length of the draft it refused (state.refusedLengths:
 * {feedback, chars}, for the review). */
static void note_writer_remember(json_t *st, const json_t *draft, const char *feedback)
{
	json_t *items;

	if (feedback == NULL)
		return;
	items = note_feedback_items(feedback);
	note_feedback_mark(items, draft);
	note_writer_push(st, "contentFeedback", json_pack("{s:s, s:o}", "feedback", feedback, "items", items));
	note_writer_push(st, "refusedLengths", json_pack("{s:s, s:I}", "feedback", feedback, "chars",
			 (json_int_t)phrase_chars(json_string_value(json_object_get(draft, "body")) ?: "")));
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
		note_quality_refuse(c->state);
		if (n > NOTE_MAX_REGENERATIONS)
			return note_quality_pause(c, "regeneration_limit");
		note_counter_set(c->state, "regenerations", "content", n);
		note_writer_remember(c->state, draft, note_feedback(c));
		note_writer_release(c->state, note_feedback(c));
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
			return note_writer_pause(c, NULL, NULL);
		}
		note_writer_lock(c->state, draft, edited, json_object_get(c->resume, "payload"));
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
