/* The two routes that call tools (seed 004 §1, §4, §5, §6.2):
 *   image_gen: a progress message, the model rewrites the request into an
 *     image prompt, the image provider draws it, the picture becomes an
 *     asset of the thread and the answer carries its URL (never a Markdown
 *     image in the text). A failure goes to the search check, then chat.
 *   web_search: a progress message, facts from the search provider (Qwen
 *     with enable_search, not streamed); empty facts ask again as a
 *     search-chat; facts go into the chat node's system message. A failure
 *     goes to chat without facts. With the offline search provider the
 *     local notes corpus stands in, only its notes about the question's
 *     topic count (state.searchNotes), and the turn says it is offline. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "conf/conf.h"
#include "kb/shelf.h"
#include "prov/prov.h"
#include "prov/vendors.h"
#include "text/msg.h"
#include "text/phrase.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "wf/chat/chat_common.h"
#include "wf/intents.h"
#include "wf/note/note.h"

#define CHAT_PROMPT_TIMEOUT_MS 15000
#define CHAT_FACTS_MAX 16000
#define CHAT_CORPUS_HITS 4

static const char chat_image_prompt_system[] =
	"把用户的请求改写成一段用于图片生成的提示词：保留主体、风格、构图和色彩，去掉“帮我画”之类的指令词。"
	"只返回 JSON：{\"prompt\": \"...\"}";

/* The route answered by another after a failure: said in a thought and
 * kept in state.route (from: the route that failed). */
static void chat_reroute(struct step_ctx *c, const char *to)
{
	json_t *r = json_object_get(c->state, "route");

	if (json_object_get(r, "from") == NULL)
		json_object_set(r, "from", json_object_get(r, "route"));
	json_object_set_new(r, "route", json_string(to));
	step_thought(c, "chat.fallback", c->node, to);
	c->next = to;
}

/* tool_call and tool_result events with one id. */
static void chat_tool_event(struct step_ctx *c, const char *type, const char *tool, const char *id,
			    const char *key, json_t *v)
{
	json_t *ev = step_event(c, type);

	json_object_set_new(ev, "tool", json_string(tool));
	json_object_set_new(ev, "toolCallId", json_string(id));
	json_object_set_new(ev, key, v);
	step_emit(c, ev);
}

static char *chat_image_prompt(struct step_ctx *c)
{
	const char *text = chat_text(c->state);
	json_t *msgs = json_pack("[{s:s, s:s}, {s:s, s:s}]", "role", "system", "content",
				 chat_image_prompt_system, "role", "user", "content", text);
	json_t *facts = json_pack("{s:s}", "text", text);
	struct chat_call call = { .task = "image_prompt", .rules = chat_rules_image_prompt,
				  .messages = msgs, .facts = facts, .temperature = 0.5,
				  .json_mode = 1, .timeout_ms = CHAT_PROMPT_TIMEOUT_MS };
	struct prov_answer a;
	const char *p;
	char *out;

	step_chat(c, &call, &a);
	p = json_string_value(json_object_get(a.json, "prompt"));
	if (a.status != PROV_OK || p == NULL || *p == '\0') {
		step_thought(c, "chat.image.prompt_kept", prov_status_name(a.status));
		p = text;
	}
	out = strdup(p);
	prov_answer_free(&a);
	json_decref(msgs);
	json_decref(facts);
	return out;
}

/* The picture as an asset of the thread: its URL (static buffer of the
 * caller), or -1. */
static int chat_image_store(struct step_ctx *c, const struct prov_answer *a, char *url, size_t n)
{
	char id[64];

	if (step_asset_put(c, a->mime, a->data, a->len, id, sizeof id) < 0)
		return -1;
	snprintf(url, n, "api/assets/%s", id);
	return 0;
}

/* After a failed picture: the search check, then chat (seed 004 §1). */
static enum node_rc chat_image_fallback(struct step_ctx *c)
{
	struct chat_gates g = chat_gates_of(c);

	chat_reroute(c, g.search && intents_search(chat_text(c->state)).matched ? "web_search"
										      : "chat");
	return NODE_NEXT;
}

enum node_rc chat_image_gen(struct step_ctx *c)
{
	char *prompt, url[128], tid[64];
	struct image_call call = { 0 };
	struct prov_answer a;
	enum node_rc rc;
	int ok;

	chat_progress(c, "chat.image.progress");
	prompt = chat_image_prompt(c);
	snprintf(tid, sizeof tid, "image_gen_%lld", clock_wall_ms());
	chat_tool_event(c, "tool_call", "image_gen", tid, "toolInput",
			json_pack("{s:s}", "prompt", prompt));
	call.prompt = prompt;
	call.timeout_ms = step_time_left(c);
	step_images(c, &call, 1, &a);
	ok = a.status == PROV_OK && chat_image_store(c, &a, url, sizeof url) == 0;
	chat_tool_event(c, "tool_result", "image_gen", tid, "toolOutput",
			ok ? json_pack("{s:b, s:s}", "ok", 1, "url", url)
			   : json_pack("{s:b, s:s}", "ok", 0, "error", prov_status_name(a.status)));
	chat_tool_record(c, "image_gen", json_pack("{s:s}", "prompt", prompt), ok);
	if (ok) {
		char *done = msg_fmt(step_lang(c), "chat.image.done", prompt);

		rc = chat_finish(c, done, url);
		free(done);
	} else {
		step_thought(c, "chat.image.failed", prov_status_name(a.status));
		rc = chat_image_fallback(c);
	}
	prov_answer_free(&a);
	free(prompt);
	return rc;
}

/* ---- web search ---- */

/* Words that say how to search, not what about (搜一下, latest, news). */
static int chat_search_generic(const char *w)
{
	static const char *const words[] = {
		"搜索", "搜一下", "搜搜", "一下", "帮我", "查一下", "查查", "最新", "最近", "新闻", "资讯",
		"消息", "动态", "进展", "情况", "联网", "上网", "热点", "实时", "有什么", "什么", "哪些",
		"新消息", "新动态", "新进展", "新闻", "最新消息",
		"search", "latest", "news", "new", "newest", "what's", "whats", "what", "look", "recent",
		"updates", "update", "headlines", "happening", "going", "notes", "today", "current",
	};

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcasecmp(w, words[i]) == 0)
			return 1;
	return 0;
}

/* A keyword without the words of searching around it: 育儿新闻 → 育儿,
 * 最新款手机 → 手机. The caller frees it. */
static char *chat_search_bare(const char *w)
{
	static const char *const heads[] = { "最新款的", "最新款", "最新的", "最新", "最近的", "最近" };
	static const char *const tails[] = { "的最新进展", "最新进展", "的最新消息", "最新消息", "的新闻",
					     "的消息", "新闻", "资讯", "消息", "动态", "进展" };
	size_t n = strlen(w);

	for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
		if (strncmp(w, heads[i], strlen(heads[i])) == 0 && n > strlen(heads[i])) {
			w += strlen(heads[i]);
			n -= strlen(heads[i]);
			break;
		}
	for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		size_t tl = strlen(tails[i]);

		if (n > tl && strncmp(w + n - tl, tails[i], tl) == 0) {
			n -= tl;
			break;
		}
	}
	return xstrndup(w, n);
}

/* What the search is about: the query's keywords without the words of
 * searching. New reference. */
static json_t *chat_search_topic(const char *query)
{
	json_t *kw = phrase_keywords(query, 8), *out = json_array(), *w;
	size_t i;

	json_array_foreach(kw, i, w) {
		char *bare = chat_search_bare(json_string_value(w));

		if (phrase_chars(bare) >= 2 && !chat_search_generic(bare) && json_array_size(out) < 4)
			phrase_add_unique(out, bare);
		free(bare);
	}
	json_decref(kw);
	return out;
}

/* A note is about the topic when its title or one of its tags names one
 * of the topic's words, or its body names one of them twice (a word in
 * passing is not what a note is about). */
static int chat_search_about(const json_t *note, const json_t *topic)
{
	const char *body = json_string_value(json_object_get(note, "body")), *p;
	const json_t *tag, *w;
	size_t i;

	if (phrase_has_any(json_string_value(json_object_get(note, "title")), topic))
		return 1;
	json_array_foreach(json_object_get(note, "tags"), i, tag)
		if (phrase_has_any(json_string_value(tag), topic))
			return 1;
	json_array_foreach(topic, i, w) {
		const char *s = json_string_value(w);

		if (body && s && *s && (p = strcasestr(body, s)) && strcasestr(p + strlen(s), s))
			return 1;
	}
	return 0;
}

/* The notes corpus as the offline search: the best notes that are about
 * the topic, as [{title, body}]. New reference. */
static json_t *chat_search_corpus(struct step_ctx *c, const char *query, const json_t *topic)
{
	char err[256] = "";
	struct kb *kb = kb_shelf_get(step_app(c), &note_corpus_def, err, sizeof err);
	json_t *hits = kb && json_array_size(topic)
			       ? note_corpus_search(step_app(c), kb, query, CHAT_CORPUS_HITS * 2, NULL)
			       : NULL;
	json_t *out = json_array(), *h;
	size_t i;

	json_array_foreach(hits, i, h)
		if (json_array_size(out) < CHAT_CORPUS_HITS && chat_search_about(h, topic))
			json_array_append_new(out, json_pack("{s:s, s:s}", "title",
					      json_string_value(json_object_get(h, "title")) ?: "", "body",
					      json_string_value(json_object_get(h, "body")) ?: ""));
	json_decref(hits);
	return out;
}

/* The notes as facts for a model: one line each. The caller frees it. */
static char *chat_search_notes_text(const json_t *notes)
{
	struct buf b;
	const json_t *n;
	size_t i;

	buf_init(&b, CHAT_FACTS_MAX);
	json_array_foreach(notes, i, n)
		buf_printf(&b, "%s：%s\n", json_string_value(json_object_get(n, "title")),
			   json_string_value(json_object_get(n, "body")));
	return buf_steal(&b);
}

/* Search, then the search-chat fallback when the facts are empty. The
 * facts (the caller frees them), or NULL; *how says which answered. */
static char *chat_search_online(struct step_ctx *c, const char *query, const char **how)
{
	struct prov_hooks h;
	struct prov_answer a;
	char *facts = NULL, *ask;

	step_hooks(c, &h);
	h.delta = NULL;
	prov_search(step_prov(c), query, step_time_left(c), &h, &a);
	if (a.status == PROV_OK && a.text && *a.text) {
		*how = "search";
		facts = strdup(a.text);
	}
	prov_answer_free(&a);
	if (facts)
		return facts;
	step_thought(c, "chat.search.empty");
	ask = msg_fmt(step_lang(c), "chat.search.ask", query);
	prov_search(step_prov(c), ask, step_time_left(c), &h, &a);
	if (a.status == PROV_OK && a.text && *a.text) {
		*how = "search_chat";
		facts = strdup(a.text);
	} else {
		step_thought(c, "chat.search.failed", prov_status_name(a.status));
	}
	prov_answer_free(&a);
	free(ask);
	return facts;
}

enum node_rc chat_web_search(struct step_ctx *c)
{
	const char *query = chat_text(c->state), *how = "none";
	int offline = prov_kind_by_rules(step_conf(c)->prov[PROV_SEARCH].kind);
	char *facts, tid[64];
	int ok;

	chat_progress(c, "chat.search.progress");
	snprintf(tid, sizeof tid, "web_search_%lld", clock_wall_ms());
	chat_tool_event(c, "tool_call", "web_search", tid, "toolInput",
			json_pack("{s:s, s:b}", "query", query, "offline", offline));
	if (offline) {
		json_t *topic = chat_search_topic(query), *notes;

		chat_progress(c, "chat.search.offline");
		notes = chat_search_corpus(c, query, topic);
		facts = chat_search_notes_text(notes);
		how = "notes_corpus";
		json_object_set_new(c->state, "searchNotes", json_pack("{s:o, s:o}", "topic", topic,
				    "notes", notes));
	} else {
		facts = chat_search_online(c, query, &how);
	}
	ok = facts && *facts;
	chat_tool_event(c, "tool_result", "web_search", tid, "toolOutput",
			json_pack("{s:b, s:s, s:I}", "ok", ok, "source", how, "chars",
				  (json_int_t)(facts ? strlen(facts) : 0)));
	chat_tool_record(c, "web_search", json_pack("{s:s, s:s}", "query", query, "source", how), ok);
	if (ok) {
		char *label = offline ? msg_fmt(step_lang(c), "chat.search.offline_facts", facts)
				      : strdup(facts);

		json_object_set_new(c->state, "searchFacts", json_string(label));
		free(label);
		c->next = "chat";
	} else {
		if (offline)
			step_thought(c, "chat.search.offline_none");
		chat_reroute(c, "chat");
	}
	free(facts);
	return NODE_NEXT;
}
