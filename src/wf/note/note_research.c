/* The note workflow's first two agents. brief_compiler_agent turns the
 * request into a structured brief (audience, goal, constraints, tone,
 * keywords; brief_ready), asking who the note is for when that cannot be
 * told. research_evidence_agent gathers evidence with five tools, each a
 * tool_call / tool_result pair with its toolCallId (seed 001 §6.1):
 * searchNotes, analyzeTopTags, getTopTitles and getTrendReport over the
 * local corpus of notes, and webSearch through the search provider
 * (offline: unavailable, and the result says the evidence is local only).
 * A second run (the router's rerun) widens the search to every keyword
 * and the category's tag. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/retrieve.h"
#include "kb/shelf.h"
#include "prov/prov.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "wf/note/note.h"

#define NOTE_SEARCH_LIMIT 30
#define NOTE_SHOW_ITEMS 10
#define NOTE_WEB_MAX 4000
#define NOTE_RELEVANCE_FLOOR 0.5   /* the share of the topic's word weight a note must exceed */
#define NOTE_POINTS_MAX 48         /* a recipe or a three-day plan is a dozen lines */

/* ---- brief_compiler_agent ---- */

static json_t *note_brief_facts(const json_t *st)
{
	json_t *f = json_pack("{s:s}", "topic", note_str(st, "topic") ?: "");
	struct buf notes;
	size_t i;
	json_t *m;

	if (note_str(st, "audience"))
		json_object_set(f, "audience", json_object_get(st, "audience"));
	if (note_str(st, "tone"))
		json_object_set(f, "tone", json_object_get(st, "tone"));
	/* What the person added after the first message (answers). */
	buf_init(&notes, 4096);
	json_array_foreach(json_object_get(st, "messages"), i, m)
		if (i > 0 && strcmp(json_string_value(json_object_get(m, "role")) ?: "", "user") == 0)
			buf_printf(&notes, "%s。", json_string_value(json_object_get(m, "content")) ?: "");
	if (notes.len)
		json_object_set_new(f, "notes", json_string(notes.data));
	buf_free(&notes);
	return f;
}

static json_t *note_str_array(const json_t *v, size_t max)
{
	json_t *out = json_array(), *e;
	size_t i;

	json_array_foreach(v, i, e)
		if (json_array_size(out) < max && json_is_string(e) && json_string_length(e) > 0)
			json_array_append(out, e);
	return out;
}

static void note_brief_clean(json_t *brief, int rules)
{
	json_object_set_new(brief, "keywords", note_str_array(json_object_get(brief, "keywords"), 8));
	json_object_set_new(brief, "constraints", note_str_array(json_object_get(brief, "constraints"),
								 10));
	json_object_set_new(brief, "source", json_string(rules ? "rules" : "model"));
}

enum node_rc note_brief_compiler(struct step_ctx *c)
{
	static const char *const need[] = { "audience", "goal", "tone", NULL };
	json_t *facts, *brief, *ev;
	struct buf kw;
	int rules = 0;

	if (note_decision(c, "clarification"))
		note_clarify_answer(c);
	else if (note_clarify(c, "audience"))
		return NODE_INTERRUPT;
	facts = note_brief_facts(c->state);
	brief = note_ask(c, "brief", facts, need, &rules);
	json_decref(facts);
	if (brief == NULL)
		return note_to_supervisor(c);
	note_brief_clean(brief, rules);
	json_object_set(c->state, "creativeBrief", brief);
	ev = note_event(c, "brief_ready", NULL);
	json_object_set_new(ev, "brief", brief);
	step_emit(c, ev);
	buf_init(&kw, 1024);
	for (size_t i = 0; i < json_array_size(json_object_get(brief, "keywords")); i++)
		buf_printf(&kw, "%s%s", i ? (strcmp(step_lang(c), "en") == 0 ? ", " : "、") : "",
			   json_string_value(json_array_get(json_object_get(brief, "keywords"), i)));
	note_say(c, "note.brief",
		     json_string_value(json_object_get(brief, "audience")),
		     json_string_value(json_object_get(brief, "goal")),
		     json_string_value(json_object_get(brief, "tone")), kw.data);
	buf_free(&kw);
	note_set_flag(c->state, "briefComplete", 1);
	return note_supervise(c, NULL);
}

/* ---- research_evidence_agent: the tools ---- */

/* Words that say what kind of note it is, not what it is about: as
 * search words they match every guide and every list. */
static int note_generic_word(const char *w)
{
	static const char *const words[] = { "攻略", "指南", "推荐", "清单", "教程", "测评", "合集",
		"技巧", "方法", "心得", "经验", "日记", "分享", "好物", "避坑", "笔记", "经验分享",
		"生活记录", "干货分享" };

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(w, words[i]) == 0)
			return 1;
	return 0;
}

/* The words to search for: the brief's keywords that name the subject
 * (two, or all when widened, with the category's tag). New reference. */
static json_t *note_research_words(const json_t *st, int widened)
{
	json_t *out = json_array(), *v;
	const json_t *kw = json_object_get(json_object_get(st, "creativeBrief"), "keywords");
	const char *cat = json_string_value(json_object_get(json_object_get(st, "clarity"), "category"));
	size_t i;

	json_array_foreach(kw, i, v)
		if (json_is_string(v) && !note_generic_word(json_string_value(v)) &&
		    (widened || json_array_size(out) < 4))
			json_array_append(out, v);
	if (widened && cat)
		json_array_append_new(out, json_string(cat));
	if (json_array_size(out) == 0)
		json_array_append_new(out, json_string(note_str(st, "topic") ?: ""));
	return out;
}

/* The topic's own words: the brief's keywords that name the subject and
 * occur in the topic itself (all of them that name the subject when none
 * does). Evidence must have these. New reference. */
static json_t *note_topic_words(const json_t *st)
{
	const char *topic = note_str(st, "topic") ?: "";
	const json_t *kw = json_object_get(json_object_get(st, "creativeBrief"), "keywords");
	json_t *own = json_array(), *any = json_array(), *v;
	size_t i;

	json_array_foreach(kw, i, v)
		if (json_is_string(v) && !note_generic_word(json_string_value(v))) {
			json_array_append(any, v);
			if (strcasestr(topic, json_string_value(v)))
				json_array_append(own, v);
		}
	if (json_array_size(own)) {
		json_decref(any);
		return own;
	}
	json_decref(own);
	return any;
}

static char *note_join(const json_t *words, const char *sep)
{
	struct buf b;
	size_t i;
	json_t *w;

	buf_init(&b, 4096);
	json_array_foreach(words, i, w)
		buf_printf(&b, "%s%s", i ? sep : "", json_string_value(w) ?: "");
	return buf_steal(&b);
}

static void note_add_notes(json_t *into, json_t *more)
{
	size_t i, j;
	json_t *d, *e;

	json_array_foreach(more, i, d) {
		int dup = 0;

		json_array_foreach(into, j, e)
			dup |= json_equal(json_object_get(e, "id"), json_object_get(d, "id"));
		if (!dup && json_array_size(into) < NOTE_SEARCH_LIMIT * 2)
			json_array_append(into, d);
	}
	json_decref(more);
}

static json_t *note_items(const json_t *notes)
{
	json_t *out = json_array(), *d;
	size_t i;

	json_array_foreach(notes, i, d)
		if (i < NOTE_SHOW_ITEMS)
			json_array_append_new(out, json_pack("{s:O, s:O, s:O, s:O, s:O, s:O*}", "id",
				json_object_get(d, "id"), "title", json_object_get(d, "title"), "likes",
				json_object_get(d, "likes"), "tags", json_object_get(d, "tags"), "date",
				json_object_get(d, "date"), "method", json_object_get(d, "method")));
	return out;
}

/* searchNotes: the matching notes (new reference). */
static json_t *note_tool_search(struct note_tool *t, struct kb *kb, const json_t *words,
				const json_t *own, const char *err, int widened)
{
	struct kb_retrieve_info info = { 0 };
	char *kw = note_join(words, " ");
	json_t *notes = json_array(), *w, *found;
	size_t i;

	note_tool_call(t, NULL, "searchNotes", json_pack("{s:s, s:i, s:b}", "keyword", kw, "limit",
						   NOTE_SHOW_ITEMS, "widened", widened));
	if (kb) {
		json_array_foreach(own, i, w)
			note_add_notes(notes, note_corpus_having(kb, json_string_value(w), NOTE_SEARCH_LIMIT));
		note_add_notes(notes, note_corpus_search(step_app(t->c), kb, kw, NOTE_SEARCH_LIMIT, &info));
		json_array_foreach(words, i, w)
			if (widened || json_array_size(notes) < 5)
				note_add_notes(notes, note_corpus_by_tag(kb, json_string_value(w), 20));
		found = notes;
		notes = note_corpus_relevant(kb_items(kb), found, own, NOTE_RELEVANCE_FLOOR);
		note_tool_result(t, NULL, "searchNotes", json_pack("{s:s, s:O, s:f, s:I, s:I, s:o, s:s, s:s}",
			"keyword", kw, "topicWords", own, "relevanceFloor", NOTE_RELEVANCE_FLOOR, "matched",
			(json_int_t)json_array_size(found), "total", (json_int_t)json_array_size(notes),
			"items", note_items(notes), "method", kb_method_name(info.method), "retrieval",
			kb_method_words(step_lang(t->c), info.method)));
		json_decref(found);
	} else {
		note_tool_result(t, NULL, "searchNotes", json_pack("{s:s, s:s, s:[]}", "keyword", kw, "error",
							     err, "items"));
	}
	free(kw);
	return notes;
}

static json_t *note_tool_aggregate(struct note_tool *t, const char *tool, const json_t *notes,
				   const char *kw, json_t *out)
{
	note_tool_call(t, NULL, tool, json_pack("{s:s, s:I}", "keyword", kw, "sampleSize",
					  (json_int_t)json_array_size(notes)));
	note_tool_result(t, NULL, tool, json_incref(out));
	return out;
}

/* webSearch through the search provider; NULL facts when unavailable. */
static char *note_tool_web(struct note_tool *t, const char *query)
{
	struct prov_hooks h;
	struct prov_answer a;
	long left = step_time_left(t->c), lim = step_conf(t->c)->prov[PROV_SEARCH].timeout_ms;
	char *facts = NULL;

	note_tool_call(t, NULL, "webSearch", json_pack("{s:s}", "query", query));
	step_hooks(t->c, &h);
	h.delta = NULL;
	h.progress = NULL;
	prov_search(step_prov(t->c), query, lim < left ? lim : left, &h, &a);
	if (a.status == PROV_OK && a.text) {
		char *cut = note_cut(a.text, NOTE_WEB_MAX);

		note_tool_result(t, NULL, "webSearch", json_pack("{s:s, s:s}", "query", query, "facts", cut));
		facts = cut;
	} else {
		note_tool_result(t, NULL, "webSearch", json_pack("{s:s, s:s, s:s, s:s}", "query", query, "error",
			prov_status_name(a.status), "message", a.error, "fallback",
			"联网搜索不可用，只用本地笔记库的证据"));
	}
	prov_answer_free(&a);
	return facts;
}

/* ---- research_evidence_agent: the evidence pack ---- */

struct note_found {
	json_t *notes, *tags, *titles, *trend;
	char *web;
	const char *kw;
	const char *topic;
	const char *lang;    /* the thread's: the facts are said in it */
};

/* The separator of a list (、) or of clauses (；) in the language. */
static const char *note_sep(const char *lang, int clause)
{
	if (strcmp(lang, "en") == 0)
		return clause ? "; " : ", ";
	return clause ? "；" : "、";
}

static json_int_t note_avg_likes(const json_t *notes)
{
	json_int_t sum = 0;
	size_t i;
	json_t *d;

	json_array_foreach(notes, i, d)
		sum += json_integer_value(json_object_get(d, "likes"));
	return json_array_size(notes) ? sum / (json_int_t)json_array_size(notes) : 0;
}

static void note_fact(json_t *items, const char *source, char *fact)
{
	json_array_append_new(items, json_pack("{s:s, s:s}", "fact", fact, "source", source));
	free(fact);
}

static json_t *note_evidence_items(const struct note_found *f)
{
	json_t *items = json_array(), *t0 = json_array_get(json_object_get(f->titles, "titles"), 0);
	const json_t *pat = json_object_get(f->titles, "patterns"), *season;
	struct buf tags;
	size_t i;

	if (json_array_size(f->notes) == 0) {
		note_fact(items, "searchNotes", msg_fmt(f->lang, "note.ev.none", f->topic));
	} else {
		note_fact(items, "searchNotes", msg_fmt(f->lang, "note.ev.found", f->kw,
			json_array_size(f->notes), (long long)note_avg_likes(f->notes)));
		buf_init(&tags, 2048);
		for (i = 0; i < json_array_size(f->tags) && i < 4; i++)
			buf_printf(&tags, msg_get(f->lang, "note.ev.tag"), i ? note_sep(f->lang, 0) : "",
				   json_string_value(json_object_get(json_array_get(f->tags, i), "tag")),
				   (long long)json_integer_value(json_object_get(json_array_get(f->tags, i),
										"count")));
		note_fact(items, "analyzeTopTags", msg_fmt(f->lang, "note.ev.tags", tags.data));
		buf_free(&tags);
		note_fact(items, "getTopTitles", msg_fmt(f->lang, "note.ev.titles", json_string_value(json_object_get(t0, "title")) ?: "",
			(long long)json_integer_value(json_object_get(t0, "likes")),
			json_number_value(json_object_get(pat, "avgChars")),
			json_number_value(json_object_get(pat, "withNumber")) * 100));
		season = json_object_get(f->trend, "seasonPeak");
		note_fact(items, "getTrendReport", msg_fmt(f->lang, "note.ev.trend", (long long)json_integer_value(json_object_get(season, "month")),
			(long long)json_integer_value(json_object_get(season, "notes")),
			json_number_value(json_object_get(f->trend, "recentAvgLikes")),
			json_number_value(json_object_get(f->trend, "earlierAvgLikes")),
			json_string_value(json_object_get(f->trend, "trend")) ?: ""));
	}
	if (f->web)
		note_fact(items, "webSearch", msg_fmt(f->lang, "note.ev.web", f->web));
	else
		note_fact(items, "webSearch", msg_fmt(f->lang, "note.ev.noweb"));
	return items;
}

static json_t *note_evidence(const struct note_found *f, int widened)
{
	json_t *items = note_evidence_items(f), *titles = json_array(), *tags = json_array(), *v;
	struct buf sum;
	size_t i;

	json_array_foreach(json_object_get(f->titles, "titles"), i, v)
		json_array_append(titles, json_object_get(v, "title"));
	json_array_foreach(f->tags, i, v)
		if (i < 5)
			json_array_append(tags, json_object_get(v, "tag"));
	buf_init(&sum, 4096);
	json_array_foreach(items, i, v)
		if (i < 3)
			buf_printf(&sum, "%s%s", i ? note_sep(f->lang, 1) : "",
				   json_string_value(json_object_get(v, "fact")));
	v = json_pack("{s:s, s:I, s:b, s:o, s:o, s:O, s:{s:O, s:O, s:O}, s:o, s:s}", "keyword", f->kw,
		"sampleSize", (json_int_t)json_array_size(f->notes), "widened", widened, "titles", titles,
		"tags", tags, "titlePatterns", json_object_get(f->titles, "patterns"), "trend", "trend",
		json_object_get(f->trend, "trend"), "peakMonth", json_object_get(f->trend, "peakMonth"),
		"seasonPeak", json_object_get(f->trend, "seasonPeak"), "items", items, "summary", sum.data);
	json_object_set_new(v, "webFacts", f->web ? json_string(f->web) : json_null());
	json_object_set_new(v, "points", note_corpus_points(f->notes, NOTE_POINTS_MAX));
	json_object_set_new(v, "covered", json_boolean(json_array_size(f->notes) > 0));
	buf_free(&sum);
	return v;
}

enum node_rc note_research(struct step_ctx *c)
{
	struct note_tool t = { c, 0, "" };
	struct note_found f = { 0 };
	int widened = json_is_object(json_object_get(c->state, "evidencePack"));
	char err[256] = "", *kw;
	struct kb *kb = kb_shelf_get(step_app(c), &note_corpus_def, err, sizeof err);
	json_t *words = note_research_words(c->state, widened), *own = note_topic_words(c->state), *ev;

	if (widened)
		json_object_set_new(c->state, "researchWidened", json_true());
	kw = note_join(words, " ");
	f.kw = kw;
	f.topic = note_str(c->state, "topic") ?: kw;
	f.lang = step_lang(c);
	f.notes = note_tool_search(&t, kb, words, own, err, widened);
	f.tags = note_tool_aggregate(&t, "analyzeTopTags", f.notes, kw, note_corpus_top_tags(f.notes, 8));
	f.titles = note_tool_aggregate(&t, "getTopTitles", f.notes, kw,
				       note_corpus_top_titles(f.notes, 5));
	f.trend = note_tool_aggregate(&t, "getTrendReport", f.notes, kw, note_corpus_trend(f.notes));
	f.web = note_tool_web(&t, note_str(c->state, "topic") ?: kw);
	ev = note_evidence(&f, widened);
	note_message(c, "%s", json_string_value(json_object_get(ev, "summary")));
	json_object_set_new(c->state, "evidencePack", ev);
	note_set_flag(c->state, "evidenceComplete", 1);
	json_decref(f.notes);
	json_decref(f.tags);
	json_decref(f.titles);
	json_decref(f.trend);
	json_decref(words);
	json_decref(own);
	free(f.web);
	free(kw);
	return note_supervise(c, NULL);
}
