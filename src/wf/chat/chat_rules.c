/* The chat workflow's offline rules (see chat_rules.h): the note request
 * rule, the route rules and their answer to the "route" task, the rules
 * of the "image_prompt" and "vision" tasks, and its table of offline
 * rules by task. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/msg.h"
#include "text/phrase.h"
#include "text/rules_int.h"
#include "text/script.h"
#include "util/buf.h"
#include "util/jnum.h"
#include "wf/chat/chat_rules.h"
#include "wf/chat/chat_zones.h"
#include "wf/intents.h"

/* What the note workflow writes: 小红书笔记, 文案, 种草, a Xiaohongshu post. */
#define CHAT_RULES_NOTE_KINDS \
	"小红书|笔记|文案|种草|图文|(?i:xiaohongshu|rednote|\\bnotes?\\b|\\bposts?\\b)"

static pcre2_code *chat_rules_note_code;
static pcre2_code *chat_rules_place_code[2];   /* chat_rules_place_time */

int chat_rules_note_request(const char *text)
{
	if (!intents_other_task(text))
		return 0;
	if (chat_rules_note_code == NULL)
		chat_rules_note_code = rules_compile("note_kinds", CHAT_RULES_NOTE_KINDS);
	return rules_any(chat_rules_note_code, text);
}

void chat_rules_free(void)
{
	pcre2_code_free(chat_rules_note_code);
	chat_rules_note_code = NULL;
	chat_prompt_free();
	chat_offline_free();
	for (size_t k = 0; k < 2; k++) {
		pcre2_code_free(chat_rules_place_code[k]);
		chat_rules_place_code[k] = NULL;
	}
}

static const char *chat_rules_label(const char *route, int zh)
{
	static const struct {
		const char *route, *zh, *en;
	} labels[] = {
		{ "image_gen", "图片生成", "image generation" },
		{ "web_search", "联网搜索", "web search" },
		{ "time_query", "时间查询", "time query" },
	};

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (strcmp(labels[i].route, route) == 0)
			return zh ? labels[i].zh : labels[i].en;
	return zh ? "普通对话" : "conversation";
}

static struct chat_route chat_route_by(const char *route, const struct rules_match *m,
				       const char *why)
{
	struct chat_route r = { route, m->confidence, "rules", why, m->rule, NULL };

	return r;
}

/* The time of a place: a place the clock knows (chat_zones.h) with a word
 * of time right after it (纽约时间, 伦敦当地时间是多少, Tokyo time) or
 * before it ("the time in Sydney"). */
static struct rules_match chat_rules_place_time(const char *text)
{
	static const char *const res[2] = {
		"^\\s*(?:现在|当地|那边|那里|目前|此刻|此时)?的?\\s*(?:时间|几点|时刻)|^\\s*(?:local\\s+)?time\\b",
		"\\btime\\s+(?:is\\s+it\\s+)?(?:(?:right\\s+)?now\\s+)?(?:in|at)\\s*$",
	};
	struct chat_zone_hit hits[4];
	size_t n = chat_zones_find(text, hits, 4), ov[4];
	struct rules_match m = { 0, "none", 0 };

	for (size_t k = 0; k < 2; k++)
		if (chat_rules_place_code[k] == NULL)
			chat_rules_place_code[k] = rules_compile("place_time", res[k]);
	for (size_t i = 0; i < n && !m.matched; i++) {
		size_t end = hits[i].start + hits[i].len;

		if (rules_find(chat_rules_place_code[0], text + end, strlen(text + end), 0, ov) ||
		    rules_find(chat_rules_place_code[1], text, hits[i].start, 0, ov))
			m = (struct rules_match){ 1, "place_time", 0.85 };
	}
	return m;
}

struct chat_route chat_route_rules(const char *text, const struct chat_gates *g, double floor)
{
	struct rules_match img = intents_image(text), m;
	struct chat_route r;

	if (g->image && img.matched)
		return chat_route_by("image_gen", &img, "chat.route.rules.matched");
	if ((m = intents_time(text)).matched || (m = chat_rules_place_time(text)).matched)
		return chat_route_by("time_query", &m, "chat.route.rules.matched");
	if (g->search && (m = intents_search(text)).matched)
		return chat_route_by("web_search", &m, "chat.route.rules.matched");
	if (!img.matched && img.confidence > 0) {
		/* An exclusion (recalling, the past, cannot) said why it is not a picture. */
		r = chat_route_by("chat", &img, "chat.route.rules.excluded");
	} else {
		m = (struct rules_match){ 0, "none", floor };
		r = chat_route_by("chat", &m, img.matched || intents_search(text).matched
						  ? "chat.route.rules.gated" : "chat.route.rules.none");
	}
	if (r.confidence < floor)
		r.confidence = floor;
	return r;
}

json_t *chat_rules_route(const json_t *facts, const char *text, char *err, size_t errlen)
{
	static const struct chat_gates open = { 1, 1 };
	double floor = json_number_value(json_object_get(facts, "minConfidence"));
	struct chat_route r = chat_route_rules(text, &open, floor);
	int zh = strcmp(text_lang(text), "zh") == 0;
	struct buf why;
	json_t *j;

	buf_init(&why, 1024);
	if (strcmp(r.route, "chat") != 0)
		phrase_say(&why, zh, "命中%s规则 %s", "Matched the %s rule %s",
			    chat_rules_label(r.route, zh), r.rule);
	else if (strcmp(r.why, "chat.route.rules.excluded") == 0)
		phrase_say(&why, zh, "图片规则 %s 排除了生图，按普通对话处理",
			    "The picture rule %s excludes an image: plain conversation", r.rule);
	else
		phrase_say(&why, zh, "没有命中图片、搜索或时间规则，按普通对话处理",
			    "No picture, search or time rule matched: plain conversation");
	j = json_pack("{s:s, s:f, s:s, s:s}", "route", r.route, "confidence",
		      jnum_round(r.confidence, JNUM_SCORE), "reason", why.data, "rule", r.rule);
	buf_free(&why);
	return j;
}

json_t *chat_rules_image_prompt(const json_t *facts, const char *text, char *err, size_t errlen)
{
	char *subject = chat_prompt_rewrite(text);
	json_t *j = json_pack("{s:s}", "prompt", *subject ? subject : text);

	free(subject);
	return j;
}

/* The "vision" task: the image reader stands in for a vision model. */

static void chat_vision_one(struct buf *b, const char *lang, size_t i, const json_t *f)
{
	const json_t *pal = json_object_get(f, "palette"), *p;
	const char *temp = json_string_value(json_object_get(f, "temperature"));
	size_t k;
	char size[48] = "?";

	if (json_is_integer(json_object_get(f, "width")))
		snprintf(size, sizeof size, "%lld×%lld",
			 (long long)json_integer_value(json_object_get(f, "width")),
			 (long long)json_integer_value(json_object_get(f, "height")));
	buf_printf(b, msg_get(lang, "chat.vision.image"), i + 1,
		   json_string_value(json_object_get(f, "mime")) ?: "?", size,
		   (long long)json_integer_value(json_object_get(f, "bytes")));
	json_array_foreach(pal, k, p)
		buf_printf(b, "%s%s", k ? ", " : msg_get(lang, "chat.vision.colours"),
			   json_string_value(json_object_get(p, "hex")) ?: "");
	if (temp)
		buf_printf(b, msg_get(lang, "chat.vision.tone"),
			   msg_get(lang, strcmp(temp, "warm") == 0 ? "chat.vision.warm"
					 : strcmp(temp, "cool") == 0 ? "chat.vision.cool"
								     : "chat.vision.neutral"));
	buf_adds(b, msg_get(lang, "chat.vision.end"));
}

json_t *chat_rules_vision(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = json_string_value(json_object_get(facts, "lang")) ?: "zh";
	const json_t *images = json_object_get(facts, "images"), *f;
	struct buf b;
	size_t i;
	json_t *j;

	buf_init(&b, 16384);
	buf_adds(&b, msg_get(lang, "chat.vision.offline"));
	json_array_foreach(images, i, f)
		chat_vision_one(&b, lang, i, f);
	j = json_pack("{s:s}", "description", b.data ? b.data : "");
	buf_free(&b);
	return j;
}

prov_rules_fn chat_rules_for(const char *task)
{
	static const struct {
		const char *task;
		prov_rules_fn rules;
	} tasks[] = {
		{ "route", chat_rules_route },
		{ "chat", chat_rules_reply },
		{ "image_prompt", chat_rules_image_prompt },
		{ "vision", chat_rules_vision },
	};

	for (size_t i = 0; task && i < sizeof tasks / sizeof tasks[0]; i++)
		if (strcmp(tasks[i].task, task) == 0)
			return tasks[i].rules;
	return NULL;
}
