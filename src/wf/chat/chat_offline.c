/* The chat workflow's reply without a model: the rules of its "chat" task
 * (chat_rules.h), which the offline provider answers with. The reply is
 * composed from what the user wrote and what the workflow found (search
 * facts, what was read of the pictures that came with it, the earlier
 * turns), says plainly that it comes from the offline assistant, what the
 * assistant can do without a model, and which provider would answer open
 * questions. The same facts always give the same reply. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "text/script.h"
#include "wf/chat/chat_rules.h"
#include "wf/intents.h"

struct chat_offline {
	const json_t *facts;
	const char *text;
	int zh;
	uint64_t h;
	size_t turns;          /* earlier user turns in history */
	const char *previous;  /* the last earlier user message, borrowed */
	json_t *kw;            /* the text's keywords */
	struct buf out;
};

static const char *chat_offline_msg_text(const json_t *m)
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

static void chat_offline_history(struct chat_offline *c)
{
	const json_t *hist = json_object_get(c->facts, "history"), *m;
	size_t i;

	json_array_foreach(hist, i, m) {
		const char *s = chat_offline_msg_text(m);

		/* The current message may be the history's last entry. */
		if (s && *s && strcmp(s, c->text) != 0) {
			c->turns++;
			c->previous = s;
		}
	}
}

/* Who is speaking, and which provider would say more. */
static void chat_offline_who(struct chat_offline *c)
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

static void chat_offline_can_do(struct chat_offline *c)
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

static void chat_offline_greeting(struct chat_offline *c)
{
	static const char *const zh[] = { "你好！", "嗨，你好！", "你好呀！" };
	static const char *const en[] = { "Hello!", "Hi there!", "Hey, hello!" };

	buf_adds(&c->out, phrase_pick(c->zh ? zh : en, 3, c->h, 0));
	if (c->turns)
		phrase_say(&c->out, c->zh, "我们已经聊了 %zu 轮。", " We have talked for %zu turns.",
			    c->turns);
	phrase_say(&c->out, c->zh, "我是 AiVista 的离线助手。", " I am AiVista's offline assistant. ");
	chat_offline_can_do(c);
	phrase_say(&c->out, c->zh, "想做点什么？", " What would you like to do?");
}

/* The facts' sentences that share most keywords with the question, in
 * their own order: facts are a text, or passages (strings, or objects
 * with a snippet or a content). */
static json_t *chat_offline_pick_facts(struct chat_offline *c, const json_t *sf)
{
	struct buf all;
	json_t *sent, *out, *v;
	size_t i;

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
	out = phrase_best(sent, c->kw, 3);
	json_decref(sent);
	buf_free(&all);
	return out;
}

static void chat_offline_search(struct chat_offline *c, const json_t *sf)
{
	json_t *picked = chat_offline_pick_facts(c, sf), *v;
	size_t i;

	phrase_say(&c->out, c->zh, "关于「", "On \"");
	phrase_join(&c->out, c->kw, c->zh ? "、" : ", ", 3);
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
 * there was something to say. A note request is answered by what the
 * assistant offers; the reply's suggest code (chat.c) lets the page link
 * to where it is done. */
static int chat_offline_need(struct chat_offline *c)
{
	if (chat_rules_note_request(c->text))
		phrase_say(&c->out, c->zh,
			    "写小红书笔记是 AiVista 擅长的事：给出主题，离线也能整理出一篇带配图的笔记。",
			    "Writing Xiaohongshu notes is something AiVista does well: give it your topic "
			    "and, even offline, it drafts one with pictures. ");
	else if (intents_search(c->text).matched)
		phrase_say(&c->out, c->zh,
			    "这类实时信息需要联网搜索：请在 [provider.search] 中配置 kind = dashscope。",
			    "Live information needs web search: set kind = dashscope in [provider.search]. ");
	else if (intents_image(c->text).matched)
		phrase_say(&c->out, c->zh, "要画图，可以直接说“画一张……”，离线模式会生成一幅 SVG 示意图。",
			    "To get a picture, say \"draw ...\": offline I render an SVG picture. ");
	else if (intents_time(c->text).matched)
		phrase_say(&c->out, c->zh, "时间问题由本地时钟回答，再问一次“现在几点”即可。",
			    "Time questions are answered from the local clock: ask \"what time is it\". ");
	else
		return 0;
	return 1;
}

static void chat_offline_question(struct chat_offline *c)
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
	chat_offline_need(c);
	chat_offline_who(c);
}

static void chat_offline_statement(struct chat_offline *c)
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
	if (!chat_offline_need(c))
		chat_offline_can_do(c);
	phrase_say(&c->out, c->zh, "需要更深入的讨论时，可以配置 [provider.chat] 接入语言模型。",
		    " For a deeper conversation, configure a model in [provider.chat].");
}

/* Pictures came with the question: what was read of them (facts.vision,
 * which says itself what it cannot see), then any search facts. */
static void chat_offline_vision(struct chat_offline *c, const json_t *vision, const json_t *sf)
{
	buf_adds(&c->out, json_string_value(vision));
	buf_adds(&c->out, "\n");
	if (phrase_present(sf))
		chat_offline_search(c, sf);
}

json_t *chat_rules_reply(const json_t *facts, const char *text, char *err, size_t errlen)
{
	struct chat_offline c = { facts, text, strcmp(text_lang(text), "zh") == 0,
				  phrase_hash(text, "chat"), 0, NULL, NULL, { 0 } };
	const json_t *sf = json_object_get(facts, "searchFacts");
	const json_t *vision = json_object_get(facts, "vision");
	json_t *j;

	buf_init(&c.out, PHRASE_TEXT_MAX);
	chat_offline_history(&c);
	c.kw = phrase_keywords(text, 5);
	c.h ^= c.turns;
	if (intents_blank(text) && !json_is_string(vision))
		phrase_say(&c.out, c.zh, "你好像还没有输入内容。", "Your message seems empty. ");
	if (json_is_string(vision))
		chat_offline_vision(&c, vision, sf);
	else if (intents_blank(text) || intents_greeting(text))
		chat_offline_greeting(&c);
	else if (phrase_present(sf))
		chat_offline_search(&c, sf);
	else if (phrase_question(text))
		chat_offline_question(&c);
	else
		chat_offline_statement(&c);
	j = json_pack("{s:s}", "reply", c.out.data ? c.out.data : "");
	json_decref(c.kw);
	buf_free(&c.out);
	return j;
}
