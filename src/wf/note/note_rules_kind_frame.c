/* The wording of the kinds of note (note_rules_kind.c): a kind's frame,
 * the body written from the topic's own words when no note about the
 * topic has the kind's shape (a checklist's three groups, a recipe's
 * 用料 / 步骤 / 小贴士, a trip's days by time of day, a comparison's
 * criteria, a how-to's steps), each line true of any topic of the kind;
 * the opening line, which says so when nothing could be quoted; the
 * brief's goal; titles; and the headings the templates show. Chinese and
 * English; a topic's words are said once (wordcut_join), a title is cut
 * between words (wordcut_prefix). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/phrase.h"
#include "text/words.h"
#include "text/wordcut.h"
#include "util/xmalloc.h"
#include "wf/note/note_rules_kind_int.h"

#define NRK_N(a) (sizeof(a) / sizeof((a)[0]))

struct nrk_frame_sec {
	const char *head;           /* "{}" is the subject */
	const char *lines[4];
};

static const struct nrk_frame_sec nrk_frame_zh[][3] = {
	[NOTE_RULES_KIND_CHECKLIST] = {
		{ "{}清单：先分三栏", { "1. 必备：没有就不行的{}，写在最上面，一般5到8样", "2. 看情况：按天数、人数和季节增减",
				  "3. 可以不买：能借、能租或到了再买的，先不列" } },
		{ "{}每样写清3件事", { "1. 为什么需要：说不出用处的先划掉", "2. 要几件：先按1个人1天的量写，再按天数和人数乘",
				   "3. 大概多少钱：每样写上价格，总预算一加就出来" } } },
	[NOTE_RULES_KIND_RECIPE] = {
		{ "{}用料", { "1. 主料：按1次吃完的量写清克数或个数", "2. 配料：每样写上用量，开火前全部称好放在手边" } },
		{ "做{}的步骤", { "1. 备料：食材洗净、处理好，按用到的顺序摆好", "2. 加热：难熟的先下，易熟的后下，火候和时间按菜谱来",
			       "3. 收尾：出锅前1分钟尝一下或看一下状态，再决定要不要补" } },
		{ "做{}的小贴士", { "1. 第1次先做半份，成功了再按需要加量", "2. 做的时候记下时间和用量，下次照着调" } } },
	[NOTE_RULES_KIND_COMPARE] = {
		{ "{}对比：先定比哪3项", { "1. 预算：先定一个上限，超出的{}直接不看",
					 "2. 用途：写下最常用的2到3个场景，只比和这些有关的几项",
					 "3. 短板：每个选项写一条最不能接受的缺点" } },
		{ "{}怎么选", { "1. 按上面3项逐个划掉不合适的", "2. 剩下的里面挑最便宜的那个，拿不准就先借来或买小份试用" } } },
	[NOTE_RULES_KIND_HOWTO] = {
		{ "{}的步骤", { "1. 先定一个小目标：7天内把{}做到什么程度，写下来",
			      "2. 找一个靠谱的示范照着做一遍：教程、课程或做过的人的经验",
			      "3. 每次只改一个地方，记下结果，再决定下一步" } },
		{ "{}要注意", { "1. 别一开始就追求全套，先完整做完一遍", "2. 每7天对照一次目标，没有进展就换个方法" } } },
};

/* In English "{}" is the topic, cut short (note_rules_kind_label); "{2}"
 * its last two words. */
static const struct nrk_frame_sec nrk_frame_en[][3] = {
	[NOTE_RULES_KIND_CHECKLIST] = {
		{ "The checklist: {}", { "1. Must-haves: the 5 to 8 things you cannot do without.", "2. Extras: by weather, people and days.",
					"3. Skip what you can buy or rent there." } },
		{ "Each item: 3 notes", { "1. Why you need it.", "2. How many: 1 per person per day to start.",
					 "3. A rough price, to add up the budget." } } },
	[NOTE_RULES_KIND_RECIPE] = {
		{ "Ingredients: {}", { "1. Main ones in grams or pieces, for 2.", "2. Measure the extras before you cook." } },
		{ "Steps", { "1. Prep: wash, cut and line it all up.", "2. Cook: the slowest things go in first.",
			    "3. Finish: taste 1 minute before the end." } },
		{ "Tips", { "1. The first time, make 1 small batch.", "2. Note times and amounts for next time." } } },
	[NOTE_RULES_KIND_COMPARE] = {
		{ "Side by side: {}", { "1. Budget: set a ceiling first.", "2. Use: list the 2 or 3 things you do most.",
				       "3. Downside: name the 1 flaw you cannot take." } },
		{ "How to choose", { "1. Cross out what fails those 3 points.", "2. Take the cheapest left, or try one first." } } },
	[NOTE_RULES_KIND_HOWTO] = {
		{ "Steps: {}", { "1. Set 1 goal you can check in 7 days.", "2. Follow 1 good example all the way through.",
				"3. Change 1 thing at a time; note the result." } },
		{ "Watch out for: {2}", { "1. Finish 1 full round before refining.",
					 "2. Check the goal every 7 days; if stuck, change the method." } } },
};

/* A trip's days: the first, a middle one, a second middle one (of four
 * days or more), the last, and a day trip; morning, afternoon, evening.
 * "{}" is the place. */
static const char *const nrk_days_zh[5][3] = {
	{ "上午：到{}后先把行李放到住处，选步行10分钟内能到地铁或公交站的地方", "下午：先逛离住处最近的一片，同一片区域的地方串起来走，不跨区赶路",
	  "晚上：留给当地的小吃或夜景，早点休息" },
	{ "上午：最想去的地方放在早上，9点前到人少、光线也好", "下午：换一个片区，中间留出喝茶或歇脚的时间",
	  "晚上：找一家本地人常去的馆子，提前看好营业时间" },
	{ "上午：去一处稍远的地方，8点前出发，避开返程高峰", "下午：回到住处附近，补上前几天错过的地方",
	  "晚上：整理照片和行李，给最后一天留足体力" },
	{ "上午：退房后把行李寄存在住处，轻装在附近再走走", "下午：买点{}的特产，提前2小时出发去车站或机场", NULL },
	{ "上午：最想去的地方放在早上，9点前到人少、光线也好", "下午：同一片区域的地方串起来走，不跨区赶路",
	  "晚上：留给当地的小吃或夜景" },
};
static const char *const nrk_days_en[5][3] = {
	{ "Morning: arrive; stay within 10 minutes of transport.", "Afternoon: the nearest sights, one area at a time.",
	  "Evening: local food, then an early night." },
	{ "Morning: your top sight first, before 9 a.m.", "Afternoon: a new area, with time for a rest.",
	  "Evening: where locals eat; check opening hours." },
	{ "Morning: the one place further out; leave by 8.", "Afternoon: back for what you missed earlier.",
	  "Evening: pack, and keep energy for the last day." },
	{ "Morning: check out, leave bags, a last walk.", "Afternoon: head back with 2 hours to spare.", NULL },
	{ "Morning: your top sight first, before 9 a.m.", "Afternoon: link places in one area.",
	  "Evening: end with local food or the night view." },
};

const char *nrk_frame_slot(int zh, int d, int days, int slot)
{
	int which = days <= 1 ? 4 : d <= 1 ? 0 : d >= days ? 3 : d == 3 && days >= 4 ? 2 : 1;

	if (slot < 0 || slot > 2)
		return NULL;
	return zh ? nrk_days_zh[which][slot] : nrk_days_en[which][slot];
}

static void nrk_frame_trip(struct nrk_out *o, int days)
{
	static const char *const nums[] = { "一", "二", "三", "四", "五" };
	struct nrk_sec s = { 0 };
	char *h;

	days = days <= 0 ? 2 : days > 5 ? 5 : days;
	o->plain = 1;
	for (int d = 1; d <= days; d++) {
		for (int slot = 0; slot < 3; slot++) {
			const char *line = nrk_frame_slot(o->k->zh, d, days, slot);
			char *l = line ? nrk_fill(line, o->place) : NULL;

			nrk_add(&s, l, NULL, 0, 0);
			free(l);
		}
		if (o->k->zh)
			h = days == 1 ? xasprintf("%s一天怎么走", o->place) : xasprintf("%s第%s天", o->place, nums[d - 1]);
		else
			h = days == 1 ? xstrdup("The day") : xasprintf("Day %d", d);
		nrk_section(o, h, &s);
		free(h);
	}
	nrk_add(&s, o->k->zh ? "热门景点大多要提前预约，出发前7天把门票和车票订好"
		: "Book popular sights and trains 7 days ahead.",
		NULL, 0, 0);
	h = o->k->zh ? xasprintf("%s行程小贴士", o->place) : xstrdup("Tips");
	nrk_section(o, h, &s);
	free(h);
}

void nrk_frame(struct nrk_out *o, int days)
{
	const struct nrk_frame_sec *secs;
	struct nrk_sec s = { 0 };

	if (o->k->kind == NOTE_RULES_KIND_TRIP) {
		nrk_frame_trip(o, days);
		return;
	}
	if (o->k->kind != NOTE_RULES_KIND_CHECKLIST && o->k->kind != NOTE_RULES_KIND_RECIPE &&
	    o->k->kind != NOTE_RULES_KIND_COMPARE && o->k->kind != NOTE_RULES_KIND_HOWTO)
		return;
	secs = o->k->zh ? nrk_frame_zh[o->k->kind] : nrk_frame_en[o->k->kind];
	for (size_t i = 0; i < 3 && secs[i].head; i++) {
		char *label = note_rules_kind_label(o->k->topic, o->k->subject, o->k->zh, strstr(secs[i].head, "{2}") != NULL);
		char *h = nrk_fill(secs[i].head, o->k->zh ? o->subject : label);

		if (strstr(h, "{2}")) {
			char *two = xstrndup(h, (size_t)(strstr(h, "{2}") - h));

			free(h);
			h = xasprintf("%s%s", two, label);
			free(two);
		}
		free(label);

		for (size_t j = 0; j < NRK_N(secs[i].lines) && secs[i].lines[j]; j++) {
			char *l = nrk_fill(secs[i].lines[j], o->subject);

			nrk_add(&s, l, NULL, 0, 0);
			free(l);
		}
		nrk_section(o, h, &s);
		free(h);
	}
}

/* ---- the opening ---- */

static const char *const nrk_nouns_zh[] = { "经验", "清单", "做法", "行程", "对比", "步骤" };
static const char *const nrk_nouns_en[] = { "note", "checklist", "recipe", "plan", "comparison", "how-to" };

static char *nrk_capital(const char *s)
{
	char *t = xstrdup(s);

	if (*t >= 'a' && *t <= 'z')
		*t = (char)(*t - 'a' + 'A');
	return t;
}

/* Openings: {t} the topic, {n} the kind's noun, {w} who it is for; four
 * wordings each, a rewrite taking the next. Each says whether the notes
 * about the topic could be quoted. */
enum { NRK_OPEN_SHAPED, NRK_OPEN_LOOSE, NRK_OPEN_NONE, NRK_OPEN_NONE_EXP };

static const char *const nrk_open_zh[4][4] = {
	[NRK_OPEN_SHAPED] = { "关于{t}，翻了几篇相关的高赞笔记，把能直接照着用的{n}整理在下面{w}。",
		"{t}，这篇把高赞笔记里靠谱的{n}挑出来整理好了{w}。",
		"{t}：下面的{n}都来自真实的高赞笔记，每条都注明了出处{w}。",
		"想弄清{t}？这份{n}从几篇高赞笔记里整理而来，照着用就行{w}。" },
	[NRK_OPEN_LOOSE] = { "关于{t}{w}，相关的笔记里没有现成的{n}：先把笔记里提到的经验列在前面，再按{n}的样子补上要点。",
		"{t}{w}：手头的笔记没有写成{n}，先列出它们说到的经验，再按{n}的样子把要点补齐。",
		"关于{t}{w}，还没有现成的{n}可以照搬：笔记里的经验放在前面，后面按{n}的顺序补上要点。",
		"关于{t}{w}：笔记里只有零散的经验、没有完整的{n}，先整理经验，再按{n}的样子列要点。" },
	[NRK_OPEN_NONE] = { "关于{t}{w}，手头还没有可以直接引用的实测经验，下面先按{n}的样子列出要点，细节请以实际情况为准。",
		"{t}{w}：还没有找到能直接引用的实测经验，先按{n}的样子把要点列出来，细节请以实际情况为准。",
		"关于{t}{w}，暂时没有能引用的真实经验，这里先按{n}的框架列要点，具体细节按自己的情况调整。",
		"{t}{w}：还没有现成的实测经验可以引用，先给一个{n}的框架，细节请按实际情况补充。" },
	[NRK_OPEN_NONE_EXP] = { "关于{t}，手头还没有可以直接引用的实测经验，下面是几条通用的要点{w}，细节请以实际情况为准。",
		"{t}：还没有找到能直接引用的实测经验，先整理几条通用的要点{w}，细节请以实际情况为准。",
		"关于{t}，暂时没有能引用的真实经验，先说几条通用的做法{w}，具体按自己的情况调整。",
		"{t}还没有现成的实测经验可以引用，这里先列几条通用的要点{w}，细节请按实际情况补充。" },
};
static const char *const nrk_open_en[4][4] = {
	[NRK_OPEN_SHAPED] = { "{t}, with the practical points that matter most{w}.",
		"{t}: the points from first-hand notes, each credited{w}.",
		"{t}, put together from notes by people who have done it{w}.",
		"{t}: what first-hand notes say, in order{w}." },
	[NRK_OPEN_LOOSE] = { "{t}{w}: the notes about it have no ready {n}, so what they say comes first, then the {n} laid out from the topic.",
		"{t}{w}: no note has a full {n} yet; what they do say comes first, then the {n} laid out from the topic.",
		"{t}{w}: the notes only touch on it, so their points come first and the {n} follows from the topic.",
		"{t}{w}: nothing ready-made in the notes; their points first, then a {n} laid out from the topic." },
	[NRK_OPEN_NONE] = { "{t}{w}: there is no first-hand note on it to quote yet, so this {n} is laid out from the topic itself; "
		"check the details for your own case.",
		"{t}{w}: nothing first-hand to quote on it yet, so this {n} is laid out from the topic itself; check the "
		"details for your own case.",
		"{t}{w}: no first-hand note to quote yet; here is a {n} laid out from the topic, to adjust to your own case.",
		"{t}{w}: nothing first-hand on it yet, so take this {n} as a starting frame and fill in your own details." },
	[NRK_OPEN_NONE_EXP] = { "{t}{w}: there is no first-hand note on it to quote yet, so these are the general points; "
		"check the details for your own case.",
		"{t}{w}: nothing first-hand to quote on it yet, so here are the general points; check the details for your "
		"own case.",
		"{t}{w}: no first-hand note to quote yet; here are general points to adjust to your own case.",
		"{t}{w}: nothing first-hand on it yet, so take these general points as a start." },
};

/* tmpl with {t}, {n} and {w} filled in. The caller frees it. */
static char *nrk_fill3(const char *tmpl, const char *t, const char *n, const char *w)
{
	char *a = xstrdup(tmpl), *b;
	const char *keys[] = { "{t}", "{n}", "{w}" }, *vals[] = { t, n, w };

	for (size_t i = 0; i < 3; i++) {
		struct buf o;
		const char *p = a, *q;

		buf_init(&o, 4096);
		while ((q = strstr(p, keys[i])) != NULL) {
			buf_add(&o, p, (size_t)(q - p));
			buf_adds(&o, vals[i]);
			p = q + 3;
		}
		buf_adds(&o, p);
		b = buf_steal(&o);
		free(a);
		a = b;
	}
	return a;
}

void note_rules_kind_opening(struct buf *b, const struct note_rules_kind_note *k, size_t sources, int shaped,
			     const char *who)
{
	int which = sources == 0 ? (k->kind == NOTE_RULES_KIND_EXPERIENCE ? NRK_OPEN_NONE_EXP : NRK_OPEN_NONE)
				 : shaped ? NRK_OPEN_SHAPED : NRK_OPEN_LOOSE;
	char *t = k->zh ? xstrdup(k->topic) : nrk_capital(k->topic);
	char *w = !who ? xstrdup("") : k->zh ? xasprintf("，特别适合%s", who) : xasprintf(" — written for %s", who);
	char *line = nrk_fill3((k->zh ? nrk_open_zh : nrk_open_en)[which][k->rot % 4], t,
			       (k->zh ? nrk_nouns_zh : nrk_nouns_en)[k->kind], w);

	buf_printf(b, "%s\n\n", line);
	free(line);
	free(t);
	free(w);
}

/* ---- headings, goals, titles ---- */

static int nrk_en_stop(const char *w, size_t n)
{
	static const char *const stop[] = { "a", "an", "the", "for", "of", "to", "in", "at", "on", "with", "and", "or" };

	for (size_t i = 0; i < NRK_N(stop); i++)
		if (strlen(stop[i]) == n && strncasecmp(w, stop[i], n) == 0)
			return 1;
	return 0;
}

/* The English topic short: "how to" taken off, at most 28 characters cut
 * between words, no small word at the end; with last, its last two
 * words. */
static char *nrk_label_en(const char *topic, int last)
{
	const char *t = strncasecmp(topic, "how to ", 7) == 0 ? topic + 7 : topic;
	char *cut = wordcut_prefix(t, 28, 0);
	size_t n = strlen(cut);

	for (;;) {
		size_t w = n;

		while (n > 0 && cut[n - 1] == ' ')
			n--;
		w = n;
		while (w > 0 && cut[w - 1] != ' ')
			w--;
		if (w == 0 || !nrk_en_stop(cut + w, n - w))
			break;
		n = w;
	}
	cut[n] = '\0';
	if (last) {
		int words = 0;
		size_t w = n;

		while (w > 0 && words < 2)
			if (cut[--w] == ' ' && ++words == 2)
				w++;
		if (words == 2 || w == 0)
			memmove(cut, cut + w, n - w + 1);
	}
	if (*cut == '\0') {
		free(cut);
		return xstrdup(topic);
	}
	return cut;
}

char *note_rules_kind_label(const char *topic, const json_t *subject, int zh, int last)
{
	struct buf b;
	const json_t *w;
	size_t i;

	if (!zh)
		return nrk_label_en(topic, last);
	buf_init(&b, 1024);
	json_array_foreach(subject, i, w)
		buf_adds(&b, json_string_value(w) ?: "");
	if (phrase_chars(b.data) > 6 && json_array_size(subject)) {
		buf_reset(&b);
		buf_adds(&b, json_string_value(json_array_get(subject, last ? json_array_size(subject) - 1 : 0)) ?: "");
	}
	if (b.len == 0)
		buf_adds(&b, topic);
	return buf_steal(&b);
}

json_t *note_rules_kind_heads(enum note_rules_kind kind, int zh)
{
	switch (kind) {
	case NOTE_RULES_KIND_CHECKLIST:
		return zh ? json_pack("[s, s, s]", "清单", "预算", "小贴士") : json_pack("[s, s, s]", "The checklist", "Budget", "Tips");
	case NOTE_RULES_KIND_RECIPE:
		return zh ? json_pack("[s, s, s]", "用料", "步骤", "小贴士") : json_pack("[s, s, s]", "Ingredients", "Steps", "Tips");
	case NOTE_RULES_KIND_TRIP:
		return zh ? json_pack("[s, s, s]", "第一天", "第二天", "行程小贴士") : json_pack("[s, s, s]", "Day 1", "Day 2", "Tips");
	case NOTE_RULES_KIND_COMPARE:
		return zh ? json_pack("[s, s]", "对比", "怎么选") : json_pack("[s, s]", "Side by side", "How to choose");
	case NOTE_RULES_KIND_HOWTO:
		return zh ? json_pack("[s, s]", "步骤", "要注意") : json_pack("[s, s]", "Steps", "Watch out for");
	default:
		return NULL;
	}
}

/* The subject words of a topic joined, or the topic. The caller frees it. */
static char *nrk_subject_of(const char *topic, int zh)
{
	json_t *w = note_rules_topic_subject(topic, 0), *v;
	struct buf b;
	size_t i;

	buf_init(&b, 1024);
	json_array_foreach(w, i, v)
		buf_printf(&b, "%s%s", i && !zh ? " " : "", json_string_value(v));
	json_decref(w);
	if (b.len == 0)
		buf_adds(&b, topic);
	return buf_steal(&b);
}

static char *nrk_goal_zh(enum note_rules_kind kind, const char *topic)
{
	char *s, *out;

	switch (kind) {
	case NOTE_RULES_KIND_CHECKLIST:
		s = strstr(topic, "清单") ? xstrdup(topic) : wordcut_join(topic, "清单");
		out = xasprintf("列一份%s：每样写清为什么需要、大概多少钱", s);
		free(s);
		return out;
	case NOTE_RULES_KIND_RECIPE:
		return xasprintf("把%s讲清楚：用料和分量、一步一步怎么做、容易失败的地方", topic);
	case NOTE_RULES_KIND_TRIP:
		return xasprintf("把%s排成按天走的行程：每天上午、下午、晚上去哪里，花多少钱", topic);
	case NOTE_RULES_KIND_COMPARE:
		s = nrk_subject_of(topic, 1);
		out = xasprintf("把%s的几个选项放进一张表里比清楚，最后说怎么选", s);
		free(s);
		return out;
	case NOTE_RULES_KIND_HOWTO:
		return xasprintf("%s：按步骤讲清楚，读完就能照着练", topic);
	default:
		if (words_match_any(topic, "攻略|指南|教程"))
			return xasprintf("给出一份能照着做的%s，读完就能上手", topic);
		if (words_match_any(topic, "测评|体验|评测"))
			return xasprintf("用真实体验讲清%s的优缺点，帮读者做决定", topic);
		return xasprintf("分享关于%s的真实经验，让读者愿意收藏和互动", topic);
	}
}

static const char *const nrk_goals_en[] = {
	"%s: first-hand experience readers will want to save",
	"%s: each item with why it is needed and a rough price",
	"%s: ingredients with amounts, numbered steps and tips",
	"%s: a day-by-day plan, morning to evening",
	"%s: the options side by side, then how to choose",
	"%s, step by step, so readers can follow along",
};

char *note_rules_kind_goal(enum note_rules_kind kind, const char *topic, int zh)
{
	char *cap, *goal;

	if ((size_t)kind >= NRK_N(nrk_goals_en))
		kind = NOTE_RULES_KIND_EXPERIENCE;
	if (zh)
		return nrk_goal_zh(kind, topic);
	cap = nrk_capital(topic);
	goal = xasprintf(nrk_goals_en[kind], cap);
	if (wordcut_repeats(goal)) {
		free(goal);
		goal = xasprintf("%s: a note readers will want to save", cap);
	}
	free(cap);
	return goal;
}

/* Hooks of a title: before the topic, a word joined to its end without
 * saying it twice, and after. */
struct nrk_hook {
	const char *pre, *join, *post;
};

static const struct nrk_hook nrk_hooks_zh[][6] = {
	[NOTE_RULES_KIND_EXPERIENCE] = { { "", "", "｜新手也能照做" }, { "", "", "，一篇讲清楚" },
		{ "收藏！", "攻略", "" }, { "", "", "｜亲测有用" }, { "", "", "避坑指南" }, { "关于", "", "，我想说的都在这了" } },
	[NOTE_RULES_KIND_CHECKLIST] = { { "", "清单", "｜照着准备不漏" }, { "", "清单", "，一次列全" },
		{ "收藏！", "清单", "" }, { "", "清单", "｜每样都标了价" }, { "", "清单", "，照着买不踩坑" } },
	[NOTE_RULES_KIND_RECIPE] = { { "", "", "｜新手也能照做" }, { "", "", "，步骤一次讲清" }, { "收藏！", "", "" },
		{ "", "", "｜用料和步骤都在这" }, { "", "", "，照着做不翻车" } },
	[NOTE_RULES_KIND_TRIP] = { { "", "", "｜按天排好的行程" }, { "", "", "，照着走不绕路" }, { "收藏！", "", "" },
		{ "", "", "｜每天去哪都写好了" }, { "", "", "，第一次去也不慌" } },
	[NOTE_RULES_KIND_COMPARE] = { { "", "", "｜一张表看懂" }, { "", "", "，对比完再下手" }, { "收藏！", "", "" },
		{ "", "", "｜优缺点一次说清" }, { "", "", "，看完不纠结" } },
	[NOTE_RULES_KIND_HOWTO] = { { "", "", "｜一步一步来" }, { "", "", "，亲测有用的方法" }, { "收藏！", "", "" },
		{ "", "", "｜照着练就行" }, { "", "", "，少走弯路的做法" } },
};
static const struct nrk_hook nrk_hooks_en[][5] = {
	[NOTE_RULES_KIND_EXPERIENCE] = { { "", "", ": what actually worked" }, { "", "", ": a practical guide" },
		{ "", "", ", step by step" }, { "", "", ": what I wish I had known" } },
	[NOTE_RULES_KIND_CHECKLIST] = { { "", "", ": the full checklist" }, { "", "", ", item by item" },
		{ "", "", ": everything on one list" }, { "", "", ": what to get, and what it costs" } },
	[NOTE_RULES_KIND_RECIPE] = { { "", "", ", step by step" }, { "", "", ": ingredients and steps" },
		{ "", "", ": the easy way" }, { "", "", ": a recipe to keep" } },
	[NOTE_RULES_KIND_TRIP] = { { "", "", ": a day-by-day plan" }, { "", "", ", day by day" },
		{ "", "", ": where to go each day" }, { "", "", ": a plan to keep" } },
	[NOTE_RULES_KIND_COMPARE] = { { "", "", ": side by side" }, { "", "", ": how to choose" },
		{ "", "", ": the short answer" }, { "", "", ": pros and cons at a glance" } },
	[NOTE_RULES_KIND_HOWTO] = { { "", "", ", step by step" }, { "", "", ": what actually worked" },
		{ "", "", ": where to start" }, { "", "", ": a plan to follow" } },
};

/* Words that say what kind of note it is: a hook that has one the topic
 * has too would say it twice (新手养狗指南避坑指南). */
#define NRK_HOOK_WORDS "清单|攻略|指南|教程|做法|步骤|行程|对比|方法|讲清|照做|亲测|避坑|新手|一张表|" \
	"checklist|guide|step|plan|choose|side|worked|item|day|list|recipe|answer|start|keep"

static int nrk_hook_clash(const struct nrk_hook *h, const char *topic)
{
	const char *p = NRK_HOOK_WORDS;

	while (*p) {
		size_t len = strcspn(p, "|");
		char *w = xstrndup(p, len);
		int in_hook = strstr(h->pre, w) || (*h->post && phrase_has(h->post, w));

		if (in_hook && phrase_has(topic, w)) {
			free(w);
			return 1;
		}
		free(w);
		p += len + (p[len] == '|');
	}
	return 0;
}

static char *nrk_hooked(const struct nrk_hook *h, const char *topic, int zh)
{
	char *base = *h->join && !strstr(topic, h->join) ? wordcut_join(topic, h->join)
		     : zh ? xstrdup(topic) : nrk_capital(topic);
	char *t = xasprintf("%s%s%s", h->pre, base, h->post);

	free(base);
	return t;
}

char *note_rules_kind_title(enum note_rules_kind kind, const char *topic, int zh, unsigned pick, size_t max)
{
	const struct nrk_hook *hooks = zh ? nrk_hooks_zh[(size_t)kind < NRK_N(nrk_hooks_zh) ? kind : 0]
					  : nrk_hooks_en[(size_t)kind < NRK_N(nrk_hooks_en) ? kind : 0];
	size_t n = 0, cap = zh ? NRK_N(nrk_hooks_zh[0]) : NRK_N(nrk_hooks_en[0]);
	char *t;

	while (n < cap && hooks[n].post && (*hooks[n].pre || *hooks[n].join || *hooks[n].post))
		n++;
	for (size_t i = 0; i < n; i++) {
		const struct nrk_hook *h = &hooks[(pick + i) % n];

		if (nrk_hook_clash(h, topic))
			continue;
		t = nrk_hooked(h, topic, zh);
		if (phrase_chars(t) <= max && !wordcut_repeats(t))
			return t;
		free(t);
	}
	t = wordcut_prefix(topic, max, 0);
	if (*t == '\0') {   /* one word longer than a title */
		free(t);
		t = phrase_truncate(topic, max);
	}
	if (!zh) {
		char *c = nrk_capital(t);

		free(t);
		t = c;
	}
	return t;
}
