/* The chat workflow's reply without a model: the rules of its "chat" task
 * (chat_rules.h), which the offline provider answers with. The reply is
 * composed from what the user wrote and what the workflow found (the
 * notes the offline search found about the question, search facts, what
 * was read of the pictures that came with it, the earlier turns), in the
 * thread's language (facts.lang). A greeting, small talk and "what can you
 * do" get a short answer saying what works offline, with requests to click
 * (chat_rules_examples); other questions are told plainly that the offline
 * assistant has no model and which provider would answer them. The same
 * facts always give the same reply. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "text/rules_int.h"
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

/* What a short message is, when it is not a request: the kinds that get
 * a short answer and requests to click. */
enum chat_offline_kind {
	CHAT_OFF_NONE,
	CHAT_OFF_ABILITY,   /* what can you do, who are you, help */
	CHAT_OFF_GREETING,
	CHAT_OFF_HOW,       /* how are you */
	CHAT_OFF_THANKS,
	CHAT_OFF_BYE,
	CHAT_OFF_LAUGH,
	CHAT_OFF_TEST,
	CHAT_OFF_OK,        /* any other small talk: ok, yes, no, 嗯 */
	CHAT_OFF_NKINDS
};

static const char *const chat_offline_kind_res[CHAT_OFF_NKINDS] = {
	[CHAT_OFF_ABILITY] =
		"你(?:都|还|到底)?(?:能|会|可以)(?:帮我)?(?:做|干|帮忙做)?(?:些)?(?:什么|啥|哪些)(?:事情?|功能)?"
		"(?:[\\s\\p{P}]|呢|呀|啊|吗|$)|你有(?:什么|哪些|啥)(?:功能|本事|能力)|你是谁|你是干什么的|"
		"你(?:会|能|可以)(?:画画|画图|作画|生成图片|查时间|看时间|搜索|联网|上网)吗|"
		"^[\\s\\p{P}]*(?:怎么用|如何使用|使用说明|帮助|功能介绍|能干嘛)[\\s\\p{P}]*$|"
		"\\bwhat\\s+(?:can|do|else\\s+can)\\s+you\\s+do\\b|\\bwhat\\s+are\\s+you\\b|\\bwho\\s+are\\s+you\\b|"
		"\\bhow\\s+(?:do\\s+i|to|can\\s+i)\\s+use\\s+(?:you|this|it)\\b|^[\\s\\p{P}]*help[\\s\\p{P}]*$|"
		"\\bwhat\\s+(?:are\\s+)?your\\s+(?:features|capabilities|skills)\\b|"
		"\\bwhat\\s+can\\s+i\\s+(?:do|ask|try)\\b",
	[CHAT_OFF_HOW] = "^[\\s\\p{P}]*(?:你好|hi|hello|hey)?[\\s\\p{P}]*(?:你好吗|你怎么样|最近(?:怎么样|好吗)|"
			 "\\bhow\\s+are\\s+you(?:\\s+doing)?\\b|\\bhow'?s\\s+it\\s+going\\b)[\\s\\p{P}\\p{S}]*$",
	[CHAT_OFF_THANKS] = "^[\\s\\p{P}\\p{S}]*(?:谢谢(?:你|您)?|多谢|感谢(?:你|您)?|辛苦(?:你)?|thanks?|thank\\s+you|"
			    "thx|ty|cheers)(?:了|啦|呀|啊|\\s+(?:a\\s+lot|so\\s+much|very\\s+much|a\\s+bunch|again))*"
			    "[\\s\\p{P}\\p{S}]*$",
	[CHAT_OFF_BYE] = "再见|拜拜|晚安|\\bbye\\b|\\bgoodbye\\b",
	[CHAT_OFF_LAUGH] = "哈哈|呵呵|嘿嘿|\\blol\\b|\\bha(?:ha)+\\b",
	[CHAT_OFF_TEST] = "测试|\\btest(?:ing)?\\b",
};

static pcre2_code *chat_offline_kind_code[CHAT_OFF_NKINDS];

void chat_offline_free(void)
{
	rules_table_free(chat_offline_kind_code, CHAT_OFF_NKINDS);
}

static int chat_offline_is(enum chat_offline_kind k, const char *text)
{
	if (chat_offline_kind_code[k] == NULL)
		chat_offline_kind_code[k] = rules_compile("chat_offline", chat_offline_kind_res[k]);
	return rules_any(chat_offline_kind_code[k], text);
}

static enum chat_offline_kind chat_offline_kind(const char *text)
{
	static const enum chat_offline_kind talk[] = { CHAT_OFF_THANKS, CHAT_OFF_BYE, CHAT_OFF_LAUGH,
						       CHAT_OFF_TEST };

	if (chat_offline_is(CHAT_OFF_ABILITY, text))
		return CHAT_OFF_ABILITY;
	if (chat_offline_is(CHAT_OFF_HOW, text))
		return CHAT_OFF_HOW;
	if (intents_blank(text) || intents_greeting(text))
		return CHAT_OFF_GREETING;
	if (chat_offline_is(CHAT_OFF_THANKS, text))
		return CHAT_OFF_THANKS;
	if (!intents_small_talk(text))
		return CHAT_OFF_NONE;
	for (size_t i = 0; i < sizeof talk / sizeof talk[0]; i++)
		if (chat_offline_is(talk[i], text))
			return talk[i];
	return CHAT_OFF_OK;
}

static int chat_offline_zh(const json_t *facts, const char *text)
{
	const char *lang = phrase_str(facts, "lang");

	return strcmp(lang ? lang : text_lang(text), "zh") == 0;
}

/* Requests that work offline, one of each kind (a picture, the time
 * somewhere, the built-in notes, which are in Chinese). */
json_t *chat_rules_examples(const json_t *facts, const char *text)
{
	static const char *const zh[3][2] = {
		{ "画一只水彩风格的猫", "生成一张赛博朋克风格的城市海报" },
		{ "东京现在几点", "纽约和伦敦现在几点" },
		{ "搜一下减脂餐", "搜一下手冲咖啡" },
	};
	static const char *const en[3][2] = {
		{ "Draw a cat in watercolor style", "Paint a lighthouse at sunset in oil painting style" },
		{ "What time is it in Tokyo?", "What time is it in New York and London?" },
		{ "Search the notes for 减脂餐", "Search the notes for 手冲咖啡" },
	};
	enum chat_offline_kind k = text ? chat_offline_kind(text) : CHAT_OFF_NONE;
	int z = chat_offline_zh(facts, text ? text : "");
	uint64_t h = phrase_hash(text ? text : "", "examples");
	json_t *out;

	if (k == CHAT_OFF_NONE || k == CHAT_OFF_BYE)
		return NULL;
	out = json_array();
	for (size_t i = 0; i < 3; i++)
		json_array_append_new(out, json_string(z ? zh[i][(h >> i) & 1] : en[i][(h >> i) & 1]));
	return out;
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

/* One line of what works offline, after a statement. */
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

/* Everything that works offline, in one line, after a greeting. */
static void chat_offline_all(struct chat_offline *c)
{
	phrase_say(&c->out, c->zh, "离线也能用的有：画图、查世界各地的时间、在内置笔记里找资料、写小红书笔记。",
		    "What works offline: drawing pictures, the time anywhere in the world, searching "
		    "the built-in notes and writing Xiaohongshu notes. ");
}

/* "What can you do": each thing that works offline, with an example. */
static void chat_offline_ability(struct chat_offline *c)
{
	phrase_say(&c->out, c->zh,
		    "我是 AiVista 的离线助手，没有接入语言模型时能做这些：\n"
		    "· 画图：说出画面和风格，比如“画一只水彩风格的猫”\n"
		    "· 查时间：本地或世界各地的城市、国家，比如“东京现在几点”\n"
		    "· 找资料：在内置的笔记里搜（没有联网），比如“搜一下减脂餐”\n"
		    "· 写小红书笔记：给出主题，离线也能写出带配图的笔记\n"
		    "开放式的问答需要在配置的 [provider.chat] 中接入语言模型。",
		    "I am AiVista's offline assistant. Without a language model I can:\n"
		    "· draw pictures: describe the scene and a style, e.g. \"draw a cat in watercolor style\"\n"
		    "· tell the time here or in any city or country, e.g. \"what time is it in Tokyo\"\n"
		    "· search the built-in notes (no web; the notes are in Chinese), e.g. \"search the notes for 减脂餐\"\n"
		    "· write Xiaohongshu notes with pictures from a topic\n"
		    "Open questions need a language model in [provider.chat].");
}

static void chat_offline_greeting(struct chat_offline *c)
{
	static const char *const zh[] = { "你好！", "嗨，你好！", "你好呀！" };
	static const char *const en[] = { "Hello! ", "Hi there! ", "Hey, hello! " };

	if (intents_blank(c->text))
		phrase_say(&c->out, c->zh, "你好像还没有输入内容。", "Your message seems empty. ");
	else
		buf_adds(&c->out, phrase_pick(c->zh ? zh : en, 3, c->h, 0));
	phrase_say(&c->out, c->zh, "我是 AiVista 的离线助手。", "I am AiVista's offline assistant. ");
	chat_offline_all(c);
	phrase_say(&c->out, c->zh, "点下面的例子试试，或者直接告诉我想做什么。",
		    "Try one of the examples below, or just tell me what you would like.");
}

/* Small talk: a short answer in kind, then what to try. */
static void chat_offline_talk(struct chat_offline *c, enum chat_offline_kind k)
{
	static const struct {
		const char *zh, *en;
	} said[CHAT_OFF_NKINDS] = {
		[CHAT_OFF_HOW] = { "我很好，谢谢！", "I'm fine, thanks! " },
		[CHAT_OFF_THANKS] = { "不客气！", "You're welcome! " },
		[CHAT_OFF_BYE] = { "再见，随时回来！", "Bye, come back any time!" },
		[CHAT_OFF_LAUGH] = { "😄 ", "😄 " },
		[CHAT_OFF_TEST] = { "收到，我在（离线模式）。", "Received: I'm here (offline mode). " },
		[CHAT_OFF_OK] = { "好的。", "OK. " },
	};

	phrase_say(&c->out, c->zh, "%s", "%s", c->zh ? said[k].zh : said[k].en);
	if (k == CHAT_OFF_BYE)
		return;
	phrase_say(&c->out, c->zh, "离线也能画图、查各地时间、搜内置笔记，点下面的例子试试。",
		    "Offline I can still draw, tell the time anywhere and search the built-in notes: "
		    "try an example below.");
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

/* The note's sentences that name the topic (at most two), else its first. */
static void chat_offline_note_lines(struct buf *b, const json_t *note, const json_t *topic)
{
	json_t *sent = phrase_sentences(phrase_str(note, "body"), 16);
	json_t *best = phrase_best(sent, topic, 2), *v;
	size_t i;

	json_array_foreach(best, i, v) {
		char *s = phrase_truncate(json_string_value(v), 80);

		buf_printf(b, "%s%s", i ? " " : "", s);
		free(s);
	}
	json_decref(best);
	json_decref(sent);
}

/* The offline search's answer (facts.searchNotes {topic, notes}): the
 * built-in notes about the question, each by its title, or that there
 * are none. */
static void chat_offline_notes(struct chat_offline *c, const json_t *sn)
{
	const json_t *topic = json_object_get(sn, "topic"), *notes = json_object_get(sn, "notes"), *n;
	struct buf t;
	size_t i;

	buf_init(&t, 1024);
	phrase_join(&t, topic, c->zh ? "、" : ", ", 4);
	if (t.len == 0)
		phrase_say(&c->out, c->zh, "你想搜什么？说出要找的内容，比如“搜一下减脂餐”。",
			    "What should I look for? Say what, e.g. \"search the notes for 减脂餐\". ");
	else if (json_array_size(notes) == 0)
		phrase_say(&c->out, c->zh, "离线模式没有联网搜索，内置笔记里也没有关于「%s」的内容。",
			    "Offline there is no web search, and nothing in the built-in notes is about "
			    "\"%s\". ", t.data);
	else
		phrase_say(&c->out, c->zh, "离线模式没有联网搜索，以下来自内置笔记中关于「%s」的内容：\n",
			    "Offline there is no web search; from the built-in notes about \"%s\":\n",
			    t.data);
	json_array_foreach(notes, i, n) {
		buf_printf(&c->out, c->zh ? "%zu. 《%s》：" : "%zu. \"%s\": ", i + 1,
			   phrase_str(n, "title") ?: "");
		chat_offline_note_lines(&c->out, n, topic);
		buf_adds(&c->out, "\n");
	}
	phrase_say(&c->out, c->zh, "要查实时信息，请在配置的 [provider.search] 中接入联网搜索（例如 kind = dashscope）。",
		    "For live information, configure web search in [provider.search] (kind = dashscope, "
		    "for example).");
	buf_free(&t);
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
	if (!c->zh && c->out.len && c->out.data[c->out.len - 1] != ' ')
		buf_adds(&c->out, " ");
	phrase_say(&c->out, c->zh, "需要更深入的讨论时，可以配置 [provider.chat] 接入语言模型。",
		    "For a deeper conversation, configure a model in [provider.chat].");
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
	struct chat_offline c = { facts, text, chat_offline_zh(facts, text),
				  phrase_hash(text, "chat"), 0, NULL, NULL, { 0 } };
	const json_t *sf = json_object_get(facts, "searchFacts");
	const json_t *sn = json_object_get(facts, "searchNotes");
	const json_t *vision = json_object_get(facts, "vision");
	enum chat_offline_kind k = chat_offline_kind(text);
	json_t *j;

	buf_init(&c.out, PHRASE_TEXT_MAX);
	chat_offline_history(&c);
	c.kw = phrase_keywords(text, 5);
	c.h ^= c.turns;
	if (json_is_string(vision))
		chat_offline_vision(&c, vision, sf);
	else if (json_is_object(sn))
		chat_offline_notes(&c, sn);
	else if (phrase_present(sf))
		chat_offline_search(&c, sf);
	else if (k == CHAT_OFF_ABILITY)
		chat_offline_ability(&c);
	else if (k == CHAT_OFF_GREETING)
		chat_offline_greeting(&c);
	else if (k != CHAT_OFF_NONE)
		chat_offline_talk(&c, k);
	else if (phrase_question(text))
		chat_offline_question(&c);
	else
		chat_offline_statement(&c);
	j = json_pack("{s:s}", "reply", c.out.data ? c.out.data : "");
	json_decref(c.kw);
	buf_free(&c.out);
	return j;
}
