/* The offline provider through its ops: every task's JSON shape, that
 * answers are deterministic and follow their input, the planner's and
 * the critic's decisions, streaming, and the pictures (determinism,
 * inpainting composition, no active content, escaping). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "prov/prov.h"
#include "text/rules.h"
#include "prov/svg.h"
#include "wf/chat/chat_rules.h"
#include "wf/image/image_rules.h"
#include "wf/intents.h"
#include "wf/note/note_rules.h"

/* One chat call, carrying a workflow's rules for its tasks as the
 * workflow does (none for the provider's generic tasks); facts is stolen.
 * The answer must be freed. */
static int ask_with(const char *task, prov_rules_fn rules, json_t *facts, int json_mode,
		    struct prov_answer *a)
{
	struct chat_call c = { 0 };

	c.task = task;
	c.rules = rules;
	c.facts = facts;
	c.json_mode = json_mode;
	prov_answer_init(a);
	prov_offline_ops.chat(NULL, NULL, &c, 1, NULL, a);
	json_decref(facts);
	return a->status;
}

static int ask(const char *task, json_t *facts, int json_mode, struct prov_answer *a)
{
	prov_rules_fn rules = image_rules_for(task) ?: note_rules_for(task) ?: chat_rules_for(task);

	return ask_with(task, rules, facts, json_mode, a);
}

/* A call of one of the provider's generic tasks: no rules with it. */
static int ask_generic(const char *task, json_t *facts, int json_mode, struct prov_answer *a)
{
	return ask_with(task, NULL, facts, json_mode, a);
}

static const char *jstr(const json_t *j, const char *key)
{
	return json_string_value(json_object_get(j, key));
}

static double jnum(const json_t *j, const char *key)
{
	return json_number_value(json_object_get(j, key));
}

/* text is the compact dump of json, as a real model's reply in JSON mode. */
static int same_as_text(const struct prov_answer *a)
{
	json_t *j = json_loads(a->text ? a->text : "", 0, NULL);
	int eq = j && json_equal(j, a->json);

	json_decref(j);
	return eq;
}

struct intent_case {
	const char *facts;
	const char *action;
	double min_conf, max_conf;
	const char *subject;   /* NULL: not checked */
	const char *style;
};

static const struct intent_case intent_cases[] = {
	{ "{\"text\": \"把背景换成星空\", \"hasMask\": true}", "inpainting", 0.9, 0.9, "星空", NULL },
	{ "{\"text\": \"再调整一下\", \"lastResult\": {\"imageUrl\": \"/api/assets/a\"}}",
	  "adjust_parameters", 0.8, 0.9, NULL, NULL },
	/* An adjustment with nothing to adjust: the planner says so. */
	{ "{\"text\": \"再调整一下\"}", "adjust_parameters", 0.55, 0.65, "", NULL },
	/* The adjustment keeps the last picture's subject and style. */
	{ "{\"text\": \"再调整一下，风格强度 90\", \"lastResult\": {\"imageUrl\": \"/api/assets/a\"}, "
	  "\"lastIntent\": {\"subject\": \"海边小镇\", \"style\": \"吉卜力\"}}", "adjust_parameters",
	  0.8, 0.9, "海边小镇", "吉卜力" },
	{ "{\"text\": \"风格强度 40\", \"lastResult\": {\"imageUrl\": \"/api/assets/a\"}, "
	  "\"lastIntent\": {\"subject\": \"猫\", \"style\": \"\"}}", "adjust_parameters", 0.8, 0.9,
	  "猫", "" },
	{ "{\"text\": \"暖色调的客厅\"}", "generate_image", 0.6, 0.8, "暖色调的客厅", NULL },
	/* A change to "here" without a mask: inpainting, which asks for one. */
	{ "{\"text\": \"修改这里\"}", "inpainting", 0.7, 0.85, NULL, NULL },
	{ "{\"text\": \"把这里换成一朵向日葵\"}", "inpainting", 0.7, 0.85, "向日葵", NULL },
	/* In an image studio a description is a picture request. */
	{ "{\"text\": \"一只在海边奔跑的金毛犬\"}", "generate_image", 0.6, 0.8, "在海边奔跑的金毛犬", "" },
	{ "{\"text\": \"来张图：雪山下的小木屋\"}", "generate_image", 0.85, 0.95, "雪山下的小木屋", "" },
	{ "{\"text\": \"a lighthouse at dawn\"}", "generate_image", 0.6, 0.8, "lighthouse at dawn", "" },
	/* Nothing to picture. */
	{ "{\"text\": \"谢谢\"}", "unknown", 0.0, 0.3, "", "" },
	{ "{\"text\": \"帮我写一首诗\"}", "unknown", 0.0, 0.3, NULL, NULL },
	{ "{\"text\": \"今天天气怎么样\"}", "unknown", 0.0, 0.3, NULL, NULL },
	{ "{\"text\": \"你好\"}", "unknown", 0.0, 0.3, NULL, NULL },
	{ "{\"text\": \"\"}", "unknown", 0.0, 0.3, NULL, NULL },
	{ "{\"text\": \"😀😀\"}", "unknown", 0.0, 0.3, NULL, NULL },
	{ "{\"text\": \"帮我画一只赛博朋克风格的猫\"}", "generate_image", 0.9, 1.0, "猫", "赛博朋克" },
	{ "{\"text\": \"draw a fox in watercolor style\"}", "generate_image", 0.8, 1.0, "fox",
	  "watercolor" },
	{ "{\"text\": \"水彩风格的小镇\"}", "generate_image", 0.7, 0.8, "小镇", "水彩" },
	{ "{\"text\": \"一只戴帽子的柴犬\"}", "generate_image", 0.6, 0.8, "戴帽子的柴犬", NULL },
	{ "{\"text\": \"记得上次画的图吗\"}", "unknown", 0.0, 0.5, NULL, NULL },
};

static void test_intent(void)
{
	struct prov_answer a;
	struct chat_call c = { 0 };
	json_t *msgs;

	for (size_t i = 0; i < sizeof intent_cases / sizeof intent_cases[0]; i++) {
		const struct intent_case *k = &intent_cases[i];
		double conf;

		ask("intent", json_loads(k->facts, 0, NULL), 1, &a);
		conf = jnum(a.json, "confidence");
		ok(a.status == PROV_OK && jstr(a.json, "action") &&
		   strcmp(jstr(a.json, "action"), k->action) == 0 && conf >= k->min_conf - 1e-9 &&
		   conf <= k->max_conf + 1e-9, "intent %s -> %s %.2f", k->facts, jstr(a.json, "action"), conf);
		if (k->subject)
			is_str(jstr(a.json, "subject"), k->subject, "intent subject of %s", k->facts);
		if (k->style)
			is_str(jstr(a.json, "style"), k->style, "intent style of %s", k->facts);
		if (i == 0)
			ok(jstr(a.json, "reasoning") && *jstr(a.json, "reasoning") &&
			   json_is_string(json_object_get(a.json, "style")) && same_as_text(&a),
			   "intent has reasoning and style, and text is its JSON");
		prov_answer_free(&a);
	}
	/* Without facts, the last user message is the text. */
	msgs = json_loads("[{\"role\": \"user\", \"content\": \"你好\"}, {\"role\": \"assistant\", "
			  "\"content\": \"你好！\"}, {\"role\": \"user\", \"content\": \"画一张海报\"}]", 0, NULL);
	c.task = "intent";
	c.rules = image_rules_for("intent");
	c.messages = msgs;
	prov_answer_init(&a);
	prov_offline_ops.chat(NULL, NULL, &c, 1, NULL, &a);
	is_str(jstr(a.json, "action"), "generate_image", "intent from the last user message");
	prov_answer_free(&a);
	json_decref(msgs);
}

static void test_route(void)
{
	struct prov_answer a;

	ask("route", json_pack("{s:s}", "text", "搜一下今天的新闻"), 1, &a);
	ok(a.status == PROV_OK && strcmp(jstr(a.json, "route"), "web_search") == 0 &&
	   strcmp(jstr(a.json, "rule"), "search_verb") == 0 &&
	   json_is_real(json_object_get(a.json, "confidence")) && jstr(a.json, "reason") != NULL,
	   "route: search, with rule, confidence and reason");
	prov_answer_free(&a);
	ask("route", json_pack("{s:s}", "text", "你好"), 1, &a);
	is_str(jstr(a.json, "route"), "chat", "route: a greeting is chat");
	prov_answer_free(&a);
	ask("route", json_pack("{s:s}", "text", "帮我画一只猫"), 1, &a);
	is_str(jstr(a.json, "route"), "image_gen", "route: a picture request");
	prov_answer_free(&a);
}

static void test_optimize(void)
{
	struct prov_answer a, b;
	const char *p;

	ask("optimize_prompt", json_pack("{s:s}", "text", "画一只水彩风格的猫"), 1, &a);
	p = jstr(a.json, "prompt");
	ok(p && strstr(p, "猫") && strstr(p, "水彩") && strlen(p) > strlen("猫，水彩风格"),
	   "optimize: subject, style and more: %s", p ? p : "");
	ask("optimize_prompt", json_pack("{s:s}", "text", "画一只水彩风格的猫"), 1, &b);
	is_str(b.text, a.text, "optimize is deterministic");
	prov_answer_free(&a);
	prov_answer_free(&b);
	ask("optimize_prompt", json_pack("{s:s, s:s}", "text", "draw a lighthouse", "style",
					 "oil painting"), 1, &a);
	p = jstr(a.json, "prompt");
	ok(p && strstr(p, "lighthouse") && strstr(p, "oil painting") && !strstr(p, "，"),
	   "optimize in English stays English: %s", p ? p : "");
	prov_answer_free(&a);
}

struct critique_case {
	const char *facts;
	int passed;
	double min_score, max_score;
	int suggestions;      /* 1: some, 0: none */
};

static const struct critique_case critique_cases[] = {
	{ "{\"prompt\": \"猫，水彩风格，柔和的自然光\", \"subject\": \"猫\", \"style\": \"水彩\", "
	  "\"retrievedStyles\": [\"水彩\"], \"width\": 1024, \"height\": 1024, \"action\": \"generate_image\"}",
	  1, 0.95, 1.0, 0 },
	{ "{\"prompt\": \"猫，柔和的自然光\", \"subject\": \"猫\", \"style\": \"水彩\", "
	  "\"retrievedStyles\": [{\"style\": \"油画\", \"prompt\": \"厚涂笔触\"}], \"width\": 1024, "
	  "\"height\": 768, \"action\": \"generate_image\"}", 1, 0.6, 0.79, 1 },
	{ "{\"prompt\": \"风景\", \"subject\": \"猫\", \"style\": \"水彩\", \"width\": 5000, \"height\": 100}",
	  0, 0.0, 0.59, 1 },
	{ "{\"prompt\": \"a cat, watercolor style, soft light\", \"subject\": \"cat\", \"style\": \"水彩\", "
	  "\"retrievedStyles\": [], \"width\": 512, \"height\": 512, \"action\": \"inpainting\"}",
	  1, 0.8, 1.0, 0 },
	/* The asked style named by another of its words (宫崎骏 for 吉卜力), its
	 * retrieved fragment in the prompt: the style is used. */
	{ "{\"prompt\": \"宫崎骏风格的海边小镇, hand-painted Japanese animation film look\", "
	  "\"subject\": \"海边小镇\", \"style\": \"吉卜力\", \"retrievedStyles\": [{\"style\": \"吉卜力风\", "
	  "\"prompt\": \"hand-painted Japanese animation film look\"}], \"width\": 1024, \"height\": 1024, "
	  "\"action\": \"generate_image\"}", 1, 0.95, 1.0, 0 },
	/* A retrieved style whose name the prompt does not carry, but its fragment. */
	{ "{\"prompt\": \"雪山下的小木屋, epic science fiction concept art, sleek spacecraft\", "
	  "\"subject\": \"雪山下的小木屋\", \"style\": \"\", \"retrievedStyles\": [{\"style\": \"科幻\", "
	  "\"prompt\": \"epic science fiction concept art, sleek spacecraft\"}], \"width\": 1024, "
	  "\"height\": 1024, \"action\": \"generate_image\"}", 1, 0.85, 1.0, 0 },
};

static void test_critique(void)
{
	struct prov_answer a;

	for (size_t i = 0; i < sizeof critique_cases / sizeof critique_cases[0]; i++) {
		const struct critique_case *k = &critique_cases[i];
		double s;
		int passed;

		ask("critique", json_loads(k->facts, 0, NULL), 1, &a);
		s = jnum(a.json, "score");
		passed = json_is_true(json_object_get(a.json, "passed"));
		ok(a.status == PROV_OK && passed == k->passed && s >= k->min_score - 1e-9 &&
		   s <= k->max_score + 1e-9 && passed == (s >= 0.6 - 1e-9), "critique %zu: passed %d, score %.2f",
		   i, passed, s);
		ok((json_array_size(json_object_get(a.json, "suggestions")) > 0) == k->suggestions &&
		   json_is_array(json_object_get(a.json, "suggestions")) && jstr(a.json, "feedback"),
		   "critique %zu: feedback and %s suggestions", i, k->suggestions ? "some" : "no");
		prov_answer_free(&a);
	}
}

struct chat_case {
	const char *facts;
	const char *want[3];   /* substrings of the reply */
};

static const struct chat_case chat_cases[] = {
	{ "{\"text\": \"你好\"}", { "你好", "离线" } },
	{ "{\"text\": \"量子计算是什么？\"}", { "量子计算", "[provider.chat]", "离线助手" } },
	{ "{\"text\": \"What is quantum computing?\"}", { "quantum", "offline", "[provider.chat]" } },
	{ "{\"text\": \"今天有什么新闻\", \"searchFacts\": \"央行宣布降息0.25个百分点。股市今日上涨。\"}",
	  { "降息", "检索" } },
	{ "{\"text\": \"我最近在学做蛋糕\", \"history\": [{\"role\": \"user\", \"content\": \"推荐几本烘焙书\"}]}",
	  { "蛋糕", "烘焙" } },
	/* A note request: what the assistant can do, in words that name no page
	 * (the reply's suggest code is the page's to word). */
	{ "{\"text\": \"帮我写一篇关于周末露营装备的小红书笔记\"}", { "小红书笔记是 AiVista 擅长", "我记下了" } },
	{ "{\"text\": \"Please write a Xiaohongshu post about camping gear\"}",
	  { "Writing Xiaohongshu notes is something AiVista does" } },
};

static void test_chat(void)
{
	struct prov_answer a, b;

	for (size_t i = 0; i < sizeof chat_cases / sizeof chat_cases[0]; i++) {
		int all = 1;

		ask("chat", json_loads(chat_cases[i].facts, 0, NULL), 0, &a);
		for (int k = 0; k < 3 && chat_cases[i].want[k]; k++)
			all &= a.text && strstr(a.text, chat_cases[i].want[k]) != NULL;
		ok(a.status == PROV_OK && all, "chat reply to %s", chat_cases[i].facts);
		if (!all)
			printf("# reply: %s\n", a.text ? a.text : "(none)");
		prov_answer_free(&a);
	}
	ask("chat", json_pack("{s:s}", "text", "帮我写一篇关于周末露营装备的小红书笔记"), 0, &a);
	ok(a.text && !strstr(a.text, "试试") && !strstr(a.text, "写图文笔记") && !strstr(a.text, "写小红书笔记、"),
	   "a note request is sent to the note writer, not told to try writing a note");
	ok(a.text && !strstr(a.text, "笔记写作") && !strstr(a.text, "「") && !strstr(a.text, "页"),
	   "and the reply names no page of the app: %s", a.text ? a.text : "");
	prov_answer_free(&a);
	ask("chat", json_pack("{s:s}", "text", "帮我想想周末去哪里玩"), 0, &a);
	ask("chat", json_pack("{s:s}", "text", "我想学习摄影"), 0, &b);
	ok(a.text && b.text && strcmp(a.text, b.text) != 0, "different messages, different replies");
	prov_answer_free(&b);
	ask("chat", json_pack("{s:s}", "text", "帮我想想周末去哪里玩"), 0, &b);
	is_str(b.text, a.text, "the same message, the same reply");
	prov_answer_free(&a);
	prov_answer_free(&b);
	ask("chat", json_pack("{s:s}", "text", "你好"), 1, &a);
	ok(a.json && jstr(a.json, "reply") && same_as_text(&a), "chat in JSON mode: {reply}");
	prov_answer_free(&a);
}

/* The provider's own chat, for calls that carry no rules: generic, from
 * the text and the facts alone. */
static const struct chat_case generic_chat_cases[] = {
	{ "{\"text\": \"现在几点\", \"time\": {\"date\": \"2024-05-01\", \"weekday\": \"星期三\", "
	  "\"time\": \"10:00:00\", \"timezone\": \"Asia/Shanghai\", \"unix\": 1714528800}}",
	  { "10:00:00", "1714528800", "星期三" } },
	{ "{\"text\": \"量子计算是什么？\"}", { "量子计算", "[provider.chat]", "离线" } },
	{ "{\"text\": \"What is quantum computing?\"}", { "quantum", "offline", "[provider.chat]" } },
	{ "{\"text\": \"今天有什么新闻\", \"searchFacts\": [\"央行宣布降息0.25个百分点。\", \"股市今日上涨。\"]}",
	  { "1. 央行宣布降息", "2. 股市今日上涨" } },
	{ "{\"text\": \"我最近在学做蛋糕\"}", { "蛋糕", "[provider.chat]" } },
};

static void test_generic_chat(void)
{
	struct prov_answer a;

	for (size_t i = 0; i < sizeof generic_chat_cases / sizeof generic_chat_cases[0]; i++) {
		int all = 1;

		ask_generic("chat", json_loads(generic_chat_cases[i].facts, 0, NULL), 0, &a);
		for (int k = 0; k < 3 && generic_chat_cases[i].want[k]; k++)
			all &= a.text && strstr(a.text, generic_chat_cases[i].want[k]) != NULL;
		ok(a.status == PROV_OK && all, "generic chat reply to %s", generic_chat_cases[i].facts);
		if (!all)
			printf("# reply: %s\n", a.text ? a.text : "(none)");
		prov_answer_free(&a);
	}
	ask_generic(NULL, json_pack("{s:s}", "text", "你好"), 0, &a);
	ok(a.status == PROV_OK && a.text && strstr(a.text, "离线"), "a call without a task is chat");
	prov_answer_free(&a);
	/* The workflow's words are the workflow's: without its rules, a
	 * greeting is not answered with what a workflow offers. */
	ask_generic("chat", json_pack("{s:s}", "text", "你好"), 0, &a);
	ok(a.text && !strstr(a.text, "画") && !strstr(a.text, "笔记"), "the generic chat offers nothing of a workflow: %s",
	   a.text ? a.text : "");
	prov_answer_free(&a);
	ask_generic("route", json_pack("{s:s}", "text", "帮我画一只猫"), 1, &a);
	ok(a.status == PROV_BAD_ANSWER && strstr(a.detail, "no rule for task route"),
	   "routing is a workflow's own task: without its rules, no answer (%s)", a.detail);
	prov_answer_free(&a);
}

struct pieces {
	int n, valid;
	char all[8192];
};

static void on_delta(void *ctx, const char *text)
{
	struct pieces *p = ctx;
	json_t *s = json_string(text);   /* NULL for invalid UTF-8 */

	p->n++;
	p->valid &= s != NULL;
	json_decref(s);
	strncat(p->all, text, sizeof p->all - strlen(p->all) - 1);
}

/* Streamed: the generic chat, and a workflow's rules whose answer is
 * {reply}: the reply's text is what streams, not its JSON. */
static void test_stream(void)
{
	json_t *facts = json_pack("{s:s}", "text", "量子计算是什么？");

	for (int own = 0; own < 2; own++) {
		struct pieces p = { 0, 1, "" };
		struct prov_hooks h = { on_delta, NULL, NULL, &p, NULL };
		struct chat_call c = { 0 };
		struct prov_answer a;

		c.task = "chat";
		c.rules = own ? chat_rules_for("chat") : NULL;
		c.facts = facts;
		c.stream = 1;
		prov_answer_init(&a);
		prov_offline_ops.chat(NULL, NULL, &c, 1, &h, &a);
		ok(p.n > 1 && p.valid, "%s: streamed in %d pieces, each valid UTF-8",
		   own ? "the workflow's rules" : "generic", p.n);
		is_str(p.all, a.text, "%s: the pieces make the whole reply",
		       own ? "the workflow's rules" : "generic");
		ok(a.text && a.text[0] != '{' && strstr(a.text, "量子计算"),
		   "%s: the reply is prose: %.40s", own ? "the workflow's rules" : "generic",
		   a.text ? a.text : "");
		prov_answer_free(&a);
	}
	json_decref(facts);
}

static void test_brief_note(void)
{
	struct prov_answer a, b;
	const json_t *tags;

	ask("brief", json_pack("{s:s}", "topic", "春游攻略"), 1, &a);
	ok(jstr(a.json, "audience") && jstr(a.json, "tone") && strstr(jstr(a.json, "goal"), "春游攻略") &&
	   json_array_size(json_object_get(a.json, "constraints")) >= 4 &&
	   json_is_array(json_object_get(a.json, "keywords")),
	   "brief: audience, goal, constraints, tone, keywords");
	ok(strstr(a.text, "\"春游\"") != NULL, "brief keywords come from the topic");
	prov_answer_free(&a);
	ask("brief", json_pack("{s:s, s:s, s:s}", "topic", "考研英语", "audience", "二战考生",
			       "tone", "严肃"), 1, &a);
	ok(strcmp(jstr(a.json, "audience"), "二战考生") == 0 && strcmp(jstr(a.json, "tone"), "严肃") == 0,
	   "brief keeps the given audience and tone");
	prov_answer_free(&a);

	ask("note", json_pack("{s:s}", "topic", "春游攻略"), 1, &a);
	tags = json_object_get(a.json, "tags");
	ok(jstr(a.json, "title") && json_string_length(json_object_get(a.json, "title")) > 0 &&
	   strstr(jstr(a.json, "body"), "春游") && json_array_size(tags) >= 3 && json_array_size(tags) <= 8,
	   "note: title, body, 3-8 tags");
	ask("note", json_pack("{s:s}", "topic", "春游攻略"), 1, &b);
	is_str(b.text, a.text, "note is deterministic");
	prov_answer_free(&b);
	ask("note", json_pack("{s:s}", "topic", "考研英语复习计划"), 1, &b);
	ok(strcmp(jstr(a.json, "title"), jstr(b.json, "title")) != 0 &&
	   strcmp(jstr(a.json, "body"), jstr(b.json, "body")) != 0, "another topic, another title and body");
	prov_answer_free(&b);
	ask("note", json_pack("{s:s, s:s}", "topic", "春游攻略", "feedback", "正文不够具体"), 1, &b);
	ok(!strstr(jstr(b.json, "body"), "不够具体") && !json_object_get(b.json, "feedbackApplied"),
	   "feedback is not pasted into the body (the writer agent reports each item: note_feedback.c)");
	prov_answer_free(&b);
	ask("note", json_pack("{s:s, s:s}", "topic", "春游攻略", "feedback", "不要提旅行"), 1, &b);
	ok(!strstr(jstr(b.json, "body"), "旅行") && !strstr(b.text, "\"旅行\""),
	   "不要提旅行: left out of body and tags");
	prov_answer_free(&b);
	ask("note", json_pack("{s:s, s:{s:b, s:[s, s], s:[{s:s, s:s, s:i}, {s:s, s:s, s:i}]}}", "topic",
			      "春游攻略", "evidence", "covered", 1, "tags", "踏青", "周末去哪儿", "points", "text",
			      "太子湾的郁金香四月初最好看。", "source", "春游必去的5个地方", "likes", 1200, "text",
			      "早上八点前到，人少好拍。", "source", "周末春游清单", "likes", 800), 1, &b);
	ok(strstr(b.text, "\"踏青\"") && strstr(jstr(b.json, "body"), "太子湾的郁金香四月初最好看。") &&
	   strstr(jstr(b.json, "body"), "《春游必去的5个地方》，1200 赞"),
	   "evidence shows in tags, and its points in the body, attributed");
	prov_answer_free(&b);
	prov_answer_free(&a);
}

static void test_other_tasks(void)
{
	struct prov_answer a;
	static const char text[] = "今天我们去了西湖。西湖的荷花开得正好，湖边人很多。中午在湖边吃了醋鱼，"
				   "味道一般。下午沿着苏堤散步，西湖的风景让人放松。晚上看了音乐喷泉。";

	ask("summarize", json_pack("{s:s}", "text", text), 1, &a);
	ok(a.status == PROV_OK && jstr(a.json, "summary") && *jstr(a.json, "summary") &&
	   strlen(jstr(a.json, "summary")) < strlen(text) && strstr(a.text, "西湖"),
	   "summarize: a shorter summary and keywords");
	prov_answer_free(&a);
	ask("haiku", json_pack("{s:s}", "text", "x"), 1, &a);
	ok(a.status == PROV_BAD_ANSWER && strstr(a.detail, "no rule for task haiku"),
	   "an unknown task is a bad answer: %s", a.detail);
	is_str(a.error, prov_status_message(PROV_BAD_ANSWER), "  clients get the generic message");
	prov_answer_free(&a);
	prov_answer_init(&a);
	prov_offline_ops.search(NULL, NULL, "今天的新闻", 0, NULL, &a);
	ok(a.status == PROV_UNAVAILABLE && strstr(a.detail, "offline"), "search is unavailable: %s", a.detail);
	prov_answer_free(&a);
	prov_answer_init(&a);
	prov_offline_ops.embed(NULL, NULL, NULL, NULL, &a);
	is_int(a.status, PROV_UNAVAILABLE, "embeddings are unavailable");
	prov_answer_free(&a);
}

/* ---- pictures ---- */

struct progress_log {
	int generating, done;
};

static void on_progress(void *ctx, int task, const char *status, double v)
{
	struct progress_log *l = ctx;

	l->generating += strcmp(status, "generating") == 0;
	l->done += strcmp(status, "done") == 0 && v == 1.0;
}

static int draw(const struct image_call *c, struct prov_answer *a, struct progress_log *l)
{
	struct prov_hooks h = { NULL, on_progress, NULL, l, NULL };

	prov_answer_init(a);
	prov_offline_ops.image(NULL, NULL, c, 1, &h, a);
	return a->status;
}

static int draw_prompt(const char *prompt, int w, int h, struct prov_answer *a)
{
	struct image_call c = { 0 };
	struct progress_log l = { 0, 0 };

	c.prompt = prompt;
	c.width = w;
	c.height = h;
	return draw(&c, a, &l);
}

/* An attribute whose name starts with "on" (onload=, onclick=…). */
static int has_event_attr(const char *s)
{
	for (const char *p = s; (p = strstr(p, "on")) != NULL; p++) {
		const char *q = p + 2;

		if (p == s || (p[-1] != ' ' && p[-1] != '\n' && p[-1] != '\t'))
			continue;
		while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))
			q++;
		if (*q == '=')
			return 1;
	}
	return 0;
}

/* Every reference is to an embedded image or to the document itself. */
static int refs_local(const char *s)
{
	for (const char *p = s; (p = strstr(p, "href=\"")) != NULL; p += 6)
		if (strncmp(p + 6, "data:", 5) != 0 && p[6] != '#')
			return 0;
	return strstr(s, "url(http") == NULL && strstr(s, "javascript:") == NULL &&
	       strstr(s, "<foreignObject") == NULL;
}

static void test_render(void)
{
	struct prov_answer a, b;
	struct image_call c = { 0 };
	struct progress_log l = { 0, 0 };
	const char *evil = "<script>alert(1)</script>&\"'";

	c.prompt = "一只赛博朋克风格的猫，霓虹灯";
	c.width = 800;
	c.height = 600;
	draw(&c, &a, &l);
	ok(a.status == PROV_OK && a.len > 500 && strcmp(a.mime, "image/svg+xml") == 0 &&
	   strncmp((const char *)a.data, "<?xml", 5) == 0 && strstr((const char *)a.data, "</svg>"),
	   "an SVG picture (%zu bytes)", a.len);
	ok(l.generating == 1 && l.done == 1, "progress: generating, then done");
	is_str(a.revised_prompt, c.prompt, "the revised prompt is the prompt");
	ok(strstr((const char *)a.data, "width=\"800\" height=\"600\""), "the asked size");
	ok(strstr((const char *)a.data, ">离线预览</text>") &&
	   !strstr((const char *)a.data, "Offline preview"),
	   "labelled as an offline preview, in the prompt's language");
	draw_prompt(c.prompt, 800, 600, &b);
	ok(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "the same prompt, the same bytes");
	prov_answer_free(&b);
	draw_prompt("夕阳下的海边小镇", 800, 600, &b);
	ok(b.status == PROV_OK && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0),
	   "another prompt, another picture");
	prov_answer_free(&b);
	draw_prompt("a lighthouse at dawn", 800, 600, &b);
	ok(b.status == PROV_OK && strstr((const char *)b.data, ">Offline preview</text>") &&
	   !strstr((const char *)b.data, "离线预览"), "an English prompt: labelled in English");
	prov_answer_free(&b);
	prov_answer_free(&a);
	draw_prompt("a lighthouse", 0, 0, &a);
	ok(strstr((const char *)a.data, "width=\"1024\" height=\"1024\""), "size 0 is 1024 x 1024");
	prov_answer_free(&a);
	draw_prompt(evil, 640, 480, &a);
	ok(a.status == PROV_OK && !strstr((const char *)a.data, "<script") &&
	   strstr((const char *)a.data, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&apos;"),
	   "the prompt is escaped in the title and caption");
	ok(!has_event_attr((const char *)a.data) && refs_local((const char *)a.data),
	   "no event attributes, no external references");
	prov_answer_free(&a);
}

static void test_inpaint(void)
{
	static const unsigned char base[] = "\x89PNG\r\n\x1a\nbase-image-bytes-0123456789";
	static const unsigned char mask[] = "\x89PNG\r\n\x1a\nmask-image-bytes-abcdefghij";
	char b64[256], want[300];
	struct image_call c = { 0 };
	struct progress_log l = { 0, 0 };
	struct prov_answer a;
	const char *s;

	c.prompt = "机械头盔";
	c.width = 512;
	c.height = 512;
	c.base = base;
	c.base_len = sizeof base - 1;
	c.base_mime = "image/png";
	c.mask = mask;
	c.mask_len = sizeof mask - 1;
	c.mask_mime = "image/png";
	draw(&c, &a, &l);
	s = (const char *)a.data;
	ok(a.status == PROV_OK && strstr(s, "<mask id=\"mask\"") && strstr(s, "mask=\"url(#mask)\""),
	   "an inpainting has a mask and a group drawn through it");
	sodium_bin2base64(b64, sizeof b64, base, sizeof base - 1, sodium_base64_VARIANT_ORIGINAL);
	snprintf(want, sizeof want, "data:image/png;base64,%s\"", b64);
	ok(strstr(s, want) != NULL, "the base image is embedded");
	sodium_bin2base64(b64, sizeof b64, mask, sizeof mask - 1, sodium_base64_VARIANT_ORIGINAL);
	snprintf(want, sizeof want, "data:image/png;base64,%s\"", b64);
	ok(strstr(s, want) != NULL && strstr(s, "<mask") < strstr(s, want),
	   "the mask image is embedded inside the <mask>");
	ok(!has_event_attr(s) && refs_local(s) && !strstr(s, "<script"), "the inpainting is static");
	prov_answer_free(&a);
	c.base_mime = "text/html";
	draw(&c, &a, &l);
	ok(a.status == PROV_REFUSED, "a base that is not an image is refused: %s", a.error);
	prov_answer_free(&a);
	c.base = NULL;
	c.base_mime = "image/png";
	draw(&c, &a, &l);
	ok(a.status == PROV_REFUSED, "a mask without a base is refused");
	prov_answer_free(&a);
}

static void test_svg_caps(void)
{
	struct buf b;

	buf_init(&b, 200);
	is_int(svg_render("a cat", 256, 256, &b), -1, "a picture past the buffer's cap fails cleanly");
	buf_free(&b);
	buf_init(&b, 1 << 20);
	ok(svg_render("\xff\xfe\xe7\x8c", 64, 64, &b) == 0 && !strstr(b.data, "\xff"),
	   "invalid UTF-8 in a prompt is left out of the document");
	buf_free(&b);
	buf_init(&b, 1 << 20);
	ok(svg_render("x", 100000, -5, &b) == 0 && strstr(b.data, "width=\"4096\" height=\"1024\""),
	   "sizes are clamped");
	buf_free(&b);
	ok(svg_mime_ok("IMAGE/PNG") && !svg_mime_ok("image/svg") && !svg_mime_ok(NULL), "media types");
}

static void test_images(void)
{
	test_render();
	test_inpaint();
	test_svg_caps();
}

int main(void)
{
	if (sodium_init() < 0)
		return 99;
	test_intent();
	test_route();
	test_optimize();
	test_critique();
	test_chat();
	test_generic_chat();
	test_stream();
	test_brief_note();
	test_other_tasks();
	test_images();
	chat_rules_free();
	intents_free();
	rules_free();
	return tap_done();
}
