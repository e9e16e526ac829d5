/* The kinds of note the offline writer writes (note_rules_kind.c), as
 * tables: the kind a topic asks for (Chinese and English) and the days a
 * trip asks for; then notes written offline from the shipped corpus
 * (etc/notes.json, the notes the research step would find: those with
 * the topic's own words, kept by relevance) have their kind's shape: a
 * checklist's items with prices and a budget, a recipe's 用料 with
 * quantities and numbered steps, a trip's 第一天 / 第二天 by time of day,
 * a comparison's table, a how-to's steps about the subject itself;
 * nothing in them comes from a note not about the topic; a topic the
 * corpus does not cover says so in one line and quotes no note; titles,
 * goals and tags say no word twice and cut none. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "noteask.h"
#include "kb/kb.h"
#include "prov/prov.h"
#include "text/wordcut.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"

/* A comment line of the TAP output for each line of text. */
static void diag(const char *fmt, ...)
{
	char text[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
		printf("# %s\n", l);
}

static const struct { const char *topic, *kind; } kind_cases[] = {
	{ "周末去莫干山露营装备清单", "checklist" },
	{ "新手养猫清单", "checklist" },
	{ "去三亚带什么", "checklist" },
	{ "宿舍必备好物", "checklist" },
	{ "跑步装备", "checklist" },
	{ "packing list for a beach weekend", "checklist" },
	{ "camping gear essentials", "checklist" },
	{ "红烧肉的做法", "recipe" },
	{ "番茄炒蛋怎么做好吃", "recipe" },
	{ "可乐鸡翅", "recipe" },
	{ "夏天自制绿豆沙", "recipe" },
	{ "一周减脂餐食谱", "recipe" },
	{ "easy breakfast recipes", "recipe" },
	{ "how to make banana bread", "recipe" },
	{ "成都三日游", "trip" },
	{ "成都三天两夜怎么玩", "trip" },
	{ "周末去杭州春游的攻略", "trip" },
	{ "第一次去长沙旅游", "trip" },
	{ "杭州西湖春季一日游", "trip" },
	{ "a weekend hiking trip", "trip" },
	{ "3 days in Kyoto itinerary", "trip" },
	{ "防晒怎么选", "compare" },
	{ "学生党手机怎么选", "compare" },
	{ "平板还是笔记本", "compare" },
	{ "智能手表对比", "compare" },
	{ "iPhone vs Android", "compare" },
	{ "choosing a laptop for college", "compare" },
	{ "考研英语阅读怎么提分", "howto" },
	{ "雅思单词怎么背", "howto" },
	{ "猫咪挑食怎么办", "howto" },
	{ "小户型收纳技巧", "howto" },
	{ "新手跑步入门", "howto" },
	{ "读书笔记怎么做", "howto" },
	{ "how to train a puppy", "howto" },
	{ "重庆火锅测评", "experience" },
	{ "武汉东湖看樱花", "experience" },
	{ "领养代替购买的故事", "experience" },
	{ "跳绳减脂打卡", "experience" },
	{ "上海咖啡探店", "experience" },
	{ "这款面霜用起来怎么样", "experience" },
	{ "my first year with a cat", "experience" },
};

static const struct { const char *topic; int days; } days_cases[] = {
	{ "成都三日游", 3 }, { "成都三天两夜怎么玩", 3 }, { "苏州周末怎么玩", 2 }, { "杭州西湖一日游", 1 },
	{ "泉州5天3晚攻略", 5 }, { "3 days in Kyoto", 3 }, { "a two-day trip to Paris", 2 },
	{ "a weekend in Lisbon", 2 }, { "春天去苏州", 0 }, { "第一天去哪", 0 }, { "跳绳21天打卡", 7 },
};

static void test_kinds(void)
{
	for (size_t i = 0; i < sizeof kind_cases / sizeof kind_cases[0]; i++)
		is_str(note_rules_kind_name(note_rules_kind_of(kind_cases[i].topic)), kind_cases[i].kind, "kind of %s",
		       kind_cases[i].topic);
	for (size_t i = 0; i < sizeof days_cases / sizeof days_cases[0]; i++)
		is_int(note_rules_kind_days(days_cases[i].topic), days_cases[i].days, "days of %s", days_cases[i].topic);
}

/* ---- notes written from the shipped corpus ---- */

static const struct kb_field fields[] = {
	{ "title", 3, KB_SHOW | KB_REQUIRED },
	{ "tags", 2, KB_SHOW | KB_REQUIRED },
	{ "body", 1, KB_REQUIRED },
	{ NULL, 0, 0 },
};

static struct kb *corpus;

/* The evidence the research step gathers for a topic: the notes with the
 * brief's keywords that are the topic's own, kept by relevance, and
 * their points. New reference. */
static json_t *evidence_for(const char *topic, const json_t *brief)
{
	json_t *own = json_array(), *found = json_array(), *w, *d, *kept, *points;
	size_t i, j;

	json_array_foreach(json_object_get(brief, "keywords"), i, w)
		if (strstr(topic, json_string_value(w)))
			json_array_append(own, w);
	json_array_foreach(own, i, w) {
		json_t *has = note_corpus_having(corpus, json_string_value(w), 30);

		json_array_foreach(has, j, d)
			json_array_append(found, d);
		json_decref(has);
	}
	kept = note_corpus_relevant(kb_items(corpus), found, own, 0.5);
	points = note_corpus_points(kept, 48);
	d = json_pack("{s:o, s:b, s:[]}", "points", points, "covered", json_array_size(kept) > 0, "tags");
	json_decref(own);
	json_decref(found);
	json_decref(kept);
	return d;
}

/* The first draft of a topic, as the workflow's writer gets it offline. */
static json_t *draft_for(const char *topic)
{
	json_t *f = json_pack("{s:s}", "topic", topic), *brief = noteask("brief", f), *note;

	json_object_set_new(f, "brief", brief);
	json_object_set_new(f, "evidence", evidence_for(topic, brief));
	note = noteask("note", f);
	json_decref(f);
	return note;
}

static const char *s(const json_t *j, const char *k)
{
	return json_string_value(json_object_get(j, k)) ?: "";
}

/* Whether a corpus note's title or tags have one of the words. */
static int about(const json_t *doc, const json_t *words)
{
	const json_t *w, *t;
	size_t i, j;

	json_array_foreach(words, i, w) {
		if (strstr(s(doc, "title"), json_string_value(w)))
			return 1;
		json_array_foreach(json_object_get(doc, "tags"), j, t)
			if (strstr(json_string_value(t), json_string_value(w)))
				return 1;
	}
	return 0;
}

/* Whether body has a line of the corpus: whole, after its label
 * ("小贴士：…") or after its day ("第一天上午：…" as "上午：…"). */
static int quotes(const char *body, const char *line)
{
	const char *colon = strstr(line, "："), *day = strstr(line, "天");

	if (strlen(line) >= 24 && strstr(body, line))
		return 1;
	if (colon && strlen(colon + 3) >= 24 && strstr(body, colon + 3))
		return 1;
	return strncmp(line, "第", 3) == 0 && day && day - line <= 9 && strlen(day + 3) >= 24 &&
	       strstr(body, day + 3);
}

/* The first sentence of the corpus in body only notes not about the
 * topic's words have ("" for none), and how many sentences of the corpus
 * the body has at all. */
static const char *foreign_in(const char *body, const json_t *words, size_t *quoted)
{
	static char found[512];
	json_t *mine = json_object(), *theirs = json_object(), *d, *v;
	const char *k;
	size_t i;

	json_array_foreach(kb_items(corpus), i, d) {
		char *b = strdup(s(d, "body")), *save = NULL;

		for (char *l = strtok_r(b, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (quotes(body, l))
				json_object_set_new(about(d, words) ? mine : theirs, l, json_true());
		free(b);
	}
	*quoted = json_object_size(mine) + json_object_size(theirs);
	found[0] = '\0';
	json_object_foreach(theirs, k, v)
		if (!json_object_get(mine, k) && !found[0])
			snprintf(found, sizeof found, "%s", k);
	json_decref(mine);
	json_decref(theirs);
	return found;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* Lines of body that start with a number and a dot: "1. …". */
static size_t numbered(const char *body)
{
	size_t n = 0;

	for (const char *p = body; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += p[0] >= '1' && p[0] <= '9' && p[1] == '.' && p[2] == ' ';
	return n;
}

/* The shape a kind's body must have, each must-have string there. */
static const struct {
	const char *topic;
	const char *must[5];
	size_t steps;        /* "1. " lines at least */
	const char *never;   /* another topic's words (NULL: none checked) */
} shape_cases[] = {
	{ "周末去莫干山露营装备清单", { "帐篷：", "300元左右", "睡袋：", "合计约", NULL }, 5, "门票" },
	{ "新手养猫清单", { "猫砂盆：", "元", "合计约", NULL }, 5, NULL },
	{ "红烧肉的做法", { "用料", "五花肉500克", "冰糖30克", "小贴士", NULL }, 5, "鸡胸肉" },
	{ "番茄炒蛋怎么做好吃", { "用料", "鸡蛋3个", "小贴士", NULL }, 4, "里脊" },
	{ "麻婆豆腐的家常做法", { "用料", "豆瓣酱", NULL }, 4, "北京探店" },
	{ "成都三日游", { "第一天", "第二天", "第三天", "上午：", "下午：" }, 0, "泉州" },
	{ "苏州周末怎么玩", { "第一天", "第二天", "拙政园", NULL }, 0, "第三天" },
	{ "防晒怎么选", { " | ", "物理防晒 | ", "化学防晒 | ", "SPF", "怎么选" }, 0, NULL },
	{ "学生党手机怎么选", { " | ", "怎么选", NULL }, 0, "泉州" },
	{ "考研英语阅读怎么提分", { "长难句", "真题", "同义替换", NULL }, 5, "番茄钟" },
	{ "雅思口语怎么准备", { "Part 2", NULL }, 4, NULL },
};

static void test_shapes(void)
{
	for (size_t i = 0; i < sizeof shape_cases / sizeof shape_cases[0]; i++) {
		const char *topic = shape_cases[i].topic, *body, *bad;
		json_t *note = draft_for(topic), *words = note_rules_topic_subject(topic, 0);
		size_t quoted, k;
		int all = 1;

		body = s(note, "body");
		for (k = 0; k < 5 && shape_cases[i].must[k]; k++)
			if (!strstr(body, shape_cases[i].must[k]))
				all = 0, diag("%s: no %s", topic, shape_cases[i].must[k]);
		ok(all, "%s: the body has its kind's shape", topic);
		ok(numbered(body) >= shape_cases[i].steps, "%s: at least %zu numbered lines (%zu)", topic,
		   shape_cases[i].steps, numbered(body));
		bad = foreign_in(body, words, &quoted);
		is_str(bad, "", "%s: no line from a note not about the topic", topic);
		ok(quoted > 0 && strstr(body, "（出自笔记《"), "%s: quotes notes about it (%zu lines), credited", topic,
		   quoted);
		ok(shape_cases[i].never == NULL || !strstr(body, shape_cases[i].never), "%s: nothing of %s", topic,
		   shape_cases[i].never ? shape_cases[i].never : "");
		if (!all)
			diag("%s", body);
		json_decref(words);
		json_decref(note);
	}
}

/* Topics the corpus has nothing on: one line says so, no note's line is
 * in the note, and it still has the kind's shape. */
static const struct { const char *topic, *says, *shape; } uncovered_cases[] = {
	{ "周末去千岛湖钓鱼装备清单", "还没有", "清单" },
	{ "电动牙刷怎么选", "还没有", "对比" },
	{ "英语演讲怎么练", "还没有", "的步骤" },
	{ "packing list for a beach weekend", "no first-hand note", "The checklist" },
	{ "how to train a puppy", "no first-hand note", "Steps" },
};

static void test_uncovered(void)
{
	for (size_t i = 0; i < sizeof uncovered_cases / sizeof uncovered_cases[0]; i++) {
		const char *topic = uncovered_cases[i].topic, *body;
		json_t *note = draft_for(topic), *words = note_rules_topic_subject(topic, 0);
		size_t quoted;

		body = s(note, "body");
		is_int(count(body, uncovered_cases[i].says), 1, "%s: one line says the corpus has nothing", topic);
		foreign_in(body, words, &quoted);
		is_int(quoted, 0, "%s: no note's line in it", topic);
		ok(strstr(body, uncovered_cases[i].shape) && numbered(body) >= 3, "%s: the kind's shape (%s), steps",
		   topic, uncovered_cases[i].shape);
		ok(!strstr(body, "出自笔记") && !strstr(body, "笔记库") && !strstr(body, "门票预约"),
		   "%s: no credit, no corpus talk, no other kind's template", topic);
		json_decref(words);
		json_decref(note);
	}
}

/* Whether text says a word of what kind of note it is more often than
 * the topic does (露营装备清单推荐清单, 新手养狗指南避坑指南). */
static int twice(const char *topic, const char *text)
{
	static const char *const words[] = { "清单", "攻略", "指南", "做法", "对比", "guide", "plan", "list" };

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t in = count(topic, words[i]);

		if (count(text, words[i]) > (in ? in : 1))
			return 1;
	}
	return 0;
}

/* Titles, goals and tags: no word said twice, no word cut. */
static const char *const word_topics[] = {
	"周末去莫干山露营装备清单", "新手养猫清单", "露营装备清单推荐", "五道快手菜的做法", "成都攻略",
	"新手养狗指南", "a weekend guide to Kyoto", "weekend hiking guide", "packing list for a beach weekend",
};

static void test_words(void)
{
	for (size_t i = 0; i < sizeof word_topics / sizeof word_topics[0]; i++) {
		const char *topic = word_topics[i];
		json_t *f = json_pack("{s:s}", "topic", topic), *brief = noteask("brief", f), *note, *t;
		const char *goal = s(brief, "goal");
		size_t k;
		int cut = 0;

		json_object_set_new(f, "brief", brief);
		note = noteask("note", f);
		ok(!wordcut_repeats(goal) && !twice(topic, goal) && !strstr(goal, "guide to a weekend guide"),
		   "%s: the goal says no word twice (%s)", topic, goal);
		ok(!wordcut_repeats(s(note, "title")) && !twice(topic, s(note, "title")),
		   "%s: the title says no word twice (%s)", topic, s(note, "title"));
		json_array_foreach(json_object_get(note, "tags"), k, t) {
			const char *at = strstr(topic, json_string_value(t));

			cut |= at && (!wordcut_at_boundary(topic, (size_t)(at - topic)) ||
				      !wordcut_at_boundary(topic, (size_t)(at - topic) + json_string_length(t)));
		}
		ok(!cut, "%s: no tag cuts a word of the topic", topic);
		json_decref(note);
		json_decref(f);
	}
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[512] = "";

	test_kinds();
	snprintf(path, sizeof path, "%s/etc/notes.json", top && *top ? top : ".");
	corpus = kb_load(path, fields, err, sizeof err);
	if (corpus == NULL)
		tap_bail("etc/notes.json: %s", err);
	test_shapes();
	test_uncovered();
	test_words();
	kb_free(corpus);
	return tap_done();
}
