/* The chat workflow's model roles, offline: the route (the intent rules
 * of seed 004), a conversational reply composed from what the user wrote
 * and what the workflow found (search facts, the local time, what was
 * read of the pictures that came with it), and
 * extractive summaries. The reply says plainly that it comes from the
 * offline mode and which provider would answer open questions. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "prov/offline.h"
#include "text/rules.h"
#include "util/xmalloc.h"
#include "util/jnum.h"
#include "text/script.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

static const char *offline_route_label(enum rules_route_kind k, int zh)
{
	static const char *const zh_labels[] = { "图片生成", "联网搜索", "时间查询", "普通对话" };
	static const char *const en_labels[] = { "image generation", "web search", "time query",
						 "conversation" };

	return k <= RULES_ROUTE_CHAT ? (zh ? zh_labels[k] : en_labels[k]) : "chat";
}

json_t *offline_task_route(const json_t *facts, const char *text, char *err, size_t errlen)
{
	struct rules_decision d = rules_route(text);
	int zh = strcmp(text_lang(text), "zh") == 0;
	double conf = d.m.confidence;
	/* A plain conversation is as sure as the bar the caller sets. */
	double floor = json_number_value(json_object_get(facts, "minConfidence"));
	struct buf why;
	json_t *j;

	buf_init(&why, 1024);
	if (d.kind != RULES_ROUTE_CHAT)
		phrase_say(&why, zh, "命中%s规则 %s", "Matched the %s rule %s",
			    offline_route_label(d.kind, zh), d.m.rule);
	else if (conf > 0)
		phrase_say(&why, zh, "图片规则 %s 排除了生图，按普通对话处理",
			    "The picture rule %s excludes an image: plain conversation", d.m.rule);
	else
		phrase_say(&why, zh, "没有命中图片、搜索或时间规则，按普通对话处理",
			    "No picture, search or time rule matched: plain conversation");
	if (d.kind == RULES_ROUTE_CHAT && conf < floor)
		conf = floor;
	j = json_pack("{s:s, s:f, s:s, s:s}", "route", d.route, "confidence", jnum_round(conf, JNUM_SCORE), "reason", why.data,
		      "rule", d.m.rule);
	buf_free(&why);
	return j;
}

/* ---- chat ---- */

struct offline_chat {
	const json_t *facts;
	const char *text;
	int zh;
	uint64_t h;
	size_t turns;          /* earlier user turns in history */
	const char *previous;  /* the last earlier user message, borrowed */
	json_t *kw;            /* the text's keywords */
	struct buf out;
};

static const char *offline_msg_text(const json_t *m)
{
	const char *s = json_string_value(m);

	if (s == NULL && json_is_object(m)) {
		const char *role = json_string_value(json_object_get(m, "role"));

		if (role && strcmp(role, "user") != 0)
			return NULL;
		s = json_string_value(json_object_get(m, "content"));
	}
	return s;
}

static void offline_chat_history(struct offline_chat *c)
{
	const json_t *hist = json_object_get(c->facts, "history"), *m;
	size_t i;

	json_array_foreach(hist, i, m) {
		const char *s = offline_msg_text(m);

		/* The current message may be the history's last entry. */
		if (s && *s && strcmp(s, c->text) != 0) {
			c->turns++;
			c->previous = s;
		}
	}
}

static void offline_chat_kw(struct offline_chat *c, const char *sep, size_t max)
{
	phrase_join(&c->out, c->kw, sep, max);
}

/* Who is speaking, and which provider would say more. */
static void offline_chat_offline_note(struct offline_chat *c)
{
	phrase_say(&c->out, c->zh,
		    "我是 AiVista 的离线助手，目前没有接入语言模型，没法可靠地回答开放性的问题。"
		    "要获得完整回答，请在配置的 [provider.chat] 中设置 kind = openai"
		    "（例如 DeepSeek：base_url = https://api.deepseek.com）并提供 API key。",
		    "I am AiVista's offline assistant: no language model is connected, so I cannot "
		    "reliably answer open questions. For full answers, set kind = openai in "
		    "[provider.chat] (DeepSeek, for example: base_url = https://api.deepseek.com) "
		    "and provide an API key.");
}

static void offline_chat_can_do(struct offline_chat *c)
{
	static const char *const zh[] = {
		"离线模式下我可以：画图（比如“画一只水彩风格的猫”）、写小红书笔记、告诉你现在的时间。",
		"不联网也能用的功能：生成示意图（说“画一张……”）、写图文笔记、查询当前时间。",
		"现在可以试试：让我画一幅画、写一篇笔记，或者问我现在几点。",
	};
	static const char *const en[] = {
		"Offline I can draw (try \"draw a cat in watercolor style\"), write notes, and tell the time.",
		"Without a model I can still render pictures, draft notes and give you the current time.",
		"You can ask me to draw something, write a note, or tell you the time.",
	};

	buf_adds(&c->out, phrase_pick(c->zh ? zh : en, 3, c->h, 1));
}

static void offline_chat_greeting(struct offline_chat *c)
{
	static const char *const zh[] = { "你好！", "嗨，你好！", "你好呀！" };
	static const char *const en[] = { "Hello!", "Hi there!", "Hey, hello!" };

	buf_adds(&c->out, phrase_pick(c->zh ? zh : en, 3, c->h, 0));
	if (c->turns)
		phrase_say(&c->out, c->zh, "我们已经聊了 %zu 轮。", " We have talked for %zu turns.",
			    c->turns);
	phrase_say(&c->out, c->zh, "我是 AiVista 的离线助手。", " I am AiVista's offline assistant. ");
	offline_chat_can_do(c);
	phrase_say(&c->out, c->zh, "想做点什么？", " What would you like to do?");
}

static void offline_chat_time(struct offline_chat *c, const json_t *t)
{
	static const char *const keys[] = { "date", "weekday", "time", "timezone" };
	const char *s = json_string_value(t);
	int n = 0;

	phrase_say(&c->out, c->zh, "现在是", "It is now");
	if (s)
		buf_printf(&c->out, " %s", s);
	for (size_t i = 0; s == NULL && i < OFFLINE_N(keys); i++) {
		const char *v = phrase_str(t, keys[i]);

		if (v)
			buf_printf(&c->out, "%s%s", n++ ? " " : " ", v);
	}
	if (s == NULL && n == 0 && phrase_str(t, "iso"))
		buf_printf(&c->out, " %s", phrase_str(t, "iso"));
	if (json_is_integer(json_object_get(t, "unix")))
		phrase_say(&c->out, c->zh, "，Unix 时间戳 %lld", ", Unix timestamp %lld",
			    (long long)json_integer_value(json_object_get(t, "unix")));
	phrase_say(&c->out, c->zh, "。（来自服务器的本地时钟）", ". (From the server's clock.)");
}

/* The facts' sentences that share most keywords with the question, in
 * their own order. */
static json_t *offline_chat_pick_facts(struct offline_chat *c, const json_t *sf)
{
	struct buf all;
	json_t *sent, *out = json_array(), *v, *w;
	size_t i, k;
	int score[32];

	buf_init(&all, PHRASE_TEXT_MAX);
	if (json_is_string(sf))
		buf_adds(&all, json_string_value(sf));
	json_array_foreach(sf, i, v) {
		const char *s = json_is_string(v) ? json_string_value(v) : phrase_str(v, "snippet");

		if (s == NULL)
			s = phrase_str(v, "content");
		if (s)
			buf_printf(&all, "%s\n", s);
	}
	sent = phrase_sentences(all.data, 32);
	json_array_foreach(sent, i, v) {
		score[i] = 0;
		json_array_foreach(c->kw, k, w)
			score[i] += phrase_has(json_string_value(v), json_string_value(w));
	}
	/* Keep the best three: a sentence stays if fewer than three beat it. */
	json_array_foreach(sent, i, v) {
		int better = 0;

		for (k = 0; k < json_array_size(sent); k++)
			better += score[k] > score[i] || (score[k] == score[i] && k < i);
		if (better < 3)
			json_array_append(out, v);
	}
	json_decref(sent);
	buf_free(&all);
	return out;
}

static void offline_chat_search(struct offline_chat *c, const json_t *sf)
{
	json_t *picked = offline_chat_pick_facts(c, sf), *v;
	size_t i;

	phrase_say(&c->out, c->zh, "关于「", "On \"");
	offline_chat_kw(c, c->zh ? "、" : ", ", 3);
	phrase_say(&c->out, c->zh, "」，检索到的资料要点：\n", "\", the search found:\n");
	json_array_foreach(picked, i, v) {
		char *s = phrase_truncate(json_string_value(v), 160);

		buf_printf(&c->out, "%zu. %s\n", i + 1, s);
		free(s);
	}
	if (json_array_size(picked) == 0)
		phrase_say(&c->out, c->zh, "（检索结果为空）\n", "(nothing usable)\n");
	phrase_say(&c->out, c->zh,
		    "以上由离线助手从检索结果中摘录，没有经过语言模型整理；"
		    "配置 [provider.chat] 后可以得到综合回答。",
		    "These lines are quoted from the search results by the offline assistant; with a "
		    "model configured in [provider.chat] you get a composed answer.");
	json_decref(picked);
}

/* What kind of thing the question needs, said in one sentence: 1 when
 * there was something to say. */
static int offline_chat_need(struct offline_chat *c)
{
	if (rules_note_request(c->text))
		phrase_say(&c->out, c->zh,
			    "小红书笔记请到「笔记写作」页去写：离线也能按你给的主题整理出一篇带配图的笔记。",
			    "For a Xiaohongshu note, use the Note writer page: even offline it writes one "
			    "on your topic, with pictures. ");
	else if (rules_search_intent(c->text).matched)
		phrase_say(&c->out, c->zh,
			    "这类实时信息需要联网搜索：请在 [provider.search] 中配置 kind = dashscope。",
			    "Live information needs web search: set kind = dashscope in [provider.search]. ");
	else if (rules_image_intent(c->text).matched)
		phrase_say(&c->out, c->zh, "要画图，可以直接说“画一张……”，离线模式会生成一幅 SVG 示意图。",
			    "To get a picture, say \"draw ...\": offline I render an SVG picture. ");
	else if (rules_time_intent(c->text).matched)
		phrase_say(&c->out, c->zh, "时间问题由本地时钟回答，再问一次“现在几点”即可。",
			    "Time questions are answered from the local clock: ask \"what time is it\". ");
	else
		return 0;
	return 1;
}

static void offline_chat_question(struct offline_chat *c)
{
	static const char *const zh[] = { "你问的是关于「%s」的问题。", "关于「%s」，",
					  "收到你关于「%s」的提问。" };
	static const char *const en[] = { "You asked about \"%s\". ", "About \"%s\": ",
					  "Your question is about \"%s\". " };
	struct buf kw;

	buf_init(&kw, 1024);
	phrase_join(&kw, c->kw, c->zh ? "、" : " ", 3);
	if (kw.len)
		buf_printf(&c->out, phrase_pick(c->zh ? zh : en, 3, c->h, 0), kw.data);
	buf_free(&kw);
	offline_chat_need(c);
	offline_chat_offline_note(c);
}

static void offline_chat_statement(struct offline_chat *c)
{
	char *echo = phrase_truncate(c->text, 40);

	if (c->previous && c->turns) {
		json_t *prev = phrase_keywords(c->previous, 2);

		if (json_array_size(prev)) {
			phrase_say(&c->out, c->zh, "接着刚才聊的「", "Following up on \"");
			phrase_join(&c->out, prev, c->zh ? "、" : ", ", 2);
			phrase_say(&c->out, c->zh, "」：", "\": ");
		}
		json_decref(prev);
	}
	phrase_say(&c->out, c->zh, "我记下了：“%s”。", "Noted: \"%s\". ", echo);
	free(echo);
	if (!offline_chat_need(c))
		offline_chat_can_do(c);
	phrase_say(&c->out, c->zh, "需要更深入的讨论时，可以配置 [provider.chat] 接入语言模型。",
		    " For a deeper conversation, configure a model in [provider.chat].");
}

/* Pictures came with the question: what was read of them (facts.vision,
 * which says itself what it cannot see), then any search facts. */
static void offline_chat_vision(struct offline_chat *c, const json_t *vision, const json_t *sf)
{
	buf_adds(&c->out, json_string_value(vision));
	buf_adds(&c->out, "\n");
	if (phrase_present(sf))
		offline_chat_search(c, sf);
}

json_t *offline_task_chat(const json_t *facts, const char *text, char *err, size_t errlen)
{
	struct offline_chat c = { facts, text, strcmp(text_lang(text), "zh") == 0,
				  phrase_hash(text, "chat"), 0, NULL, NULL, { 0 } };
	const json_t *sf = json_object_get(facts, "searchFacts"), *t = json_object_get(facts, "time");
	const json_t *vision = json_object_get(facts, "vision");
	json_t *j;

	buf_init(&c.out, PHRASE_TEXT_MAX);
	offline_chat_history(&c);
	c.kw = phrase_keywords(text, 5);
	c.h ^= c.turns;
	if (rules_blank(text) && !json_is_string(vision))
		phrase_say(&c.out, c.zh, "你好像还没有输入内容。", "Your message seems empty. ");
	if (json_is_string(vision))
		offline_chat_vision(&c, vision, sf);
	else if (rules_blank(text) || rules_greeting(text))
		offline_chat_greeting(&c);
	else if (phrase_present(t))
		offline_chat_time(&c, t);
	else if (phrase_present(sf))
		offline_chat_search(&c, sf);
	else if (phrase_question(text))
		offline_chat_question(&c);
	else
		offline_chat_statement(&c);
	j = json_pack("{s:s}", "reply", c.out.data ? c.out.data : "");
	json_decref(c.kw);
	buf_free(&c.out);
	return j;
}

/* ---- summaries ---- */

json_t *offline_task_summarize(const json_t *facts, const char *text, char *err, size_t errlen)
{
	json_t *sent = phrase_sentences(text, 64), *kw = phrase_keywords(text, 5), *v, *w;
	size_t i, k, n = json_array_size(sent), keep = n <= 2 ? 1 : n <= 6 ? 2 : 3;
	int *score = xcalloc(n ? n : 1, sizeof *score);
	struct buf b;
	json_t *j;

	json_array_foreach(sent, i, v)
		json_array_foreach(kw, k, w)
			score[i] += phrase_has(json_string_value(v), json_string_value(w));
	buf_init(&b, PHRASE_TEXT_MAX);
	json_array_foreach(sent, i, v) {
		size_t better = 0;

		for (k = 0; k < n; k++)
			better += score[k] > score[i] || (score[k] == score[i] && k < i);
		if (better < keep)
			buf_printf(&b, "%s%s", b.len && strcmp(text_lang(text), "zh") != 0 ? " " : "",
				   json_string_value(v));
	}
	{
		char *s = phrase_truncate(b.data ? b.data : "", 200);

		j = json_pack("{s:s, s:o}", "summary", s, "keywords", kw);
		free(s);
	}
	free(score);
	buf_free(&b);
	json_decref(sent);
	return j;
}
