/* The note workflow's model roles, offline (seed 001): the brief
 * (audience, goal, constraints, tone, keywords) and the writer (title,
 * body, tags of a social-media note). A topic is placed in a category by
 * its words (travel, food, study…); the category gives the audience,
 * tone, section headings and one concrete point per section, and the
 * topic's keywords, the evidence (popular titles and tags) and the
 * reviewer's feedback shape the rest. The wording varies with a hash of
 * the topic and the feedback, so a rewrite after feedback differs. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prov/offline.h"
#include "util/xmalloc.h"
#include "util/words.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

struct offline_cat {
	const char *keys;        /* '|'-separated words of a topic */
	const char *tag;
	const char *audience;
	const char *tone;
	const char *heads[4];
	const char *points[4];
};

static const struct offline_cat offline_cats[] = {
	{ "旅行|旅游|春游|秋游|出游|露营|徒步|自驾|景点|打卡|度假|citywalk|古镇|海边|爬山",
	  "旅行", "爱出游的年轻人", "轻松实用",
	  { "出发前准备", "路线怎么排", "拍照与打卡", "避坑提醒" },
	  { "提前看好天气和开放时间，门票尽量线上预约", "按区域把地点串起来，一天两三个点就够，不赶路才玩得开心",
	    "早上光线柔和、人也少，是出片的好时候", "热门时段排队久，尽量错峰出行，随身带水和充电宝" } },
	{ "美食|做饭|菜谱|烘焙|早餐|午餐|晚餐|餐厅|探店|咖啡|奶茶|甜品|食谱|减脂餐|火锅",
	  "美食", "爱吃也爱做饭的人", "亲切有烟火气",
	  { "准备食材", "关键步骤", "味道的小秘诀", "怎么搭配更好吃" },
	  { "食材不求多，新鲜是第一位，调料提前备好就不会手忙脚乱", "火候和顺序最关键，难熟的先下锅，一步一步来",
	    "出锅前尝一下再调味，一点点糖就能把鲜味提起来", "配一道清爽的小菜或饮品，满足感翻倍" } },
	{ "学习|考研|考试|备考|英语|读书|笔记|自律|大学|留学|考证|雅思|托福|单词|复习",
	  "学习", "正在努力的学生党", "干货真诚",
	  { "先定目标", "方法与节奏", "工具和资料", "坚持下去的办法" },
	  { "把大目标拆成每周能完成的小目标，完成一个划掉一个", "专注 25 分钟再休息 5 分钟，比硬撑效率高",
	    "资料在精不在多，一本主教材加一套真题反复用", "找个搭子互相打卡，允许偶尔偷懒，但别连续断两天" } },
	{ "职场|上班|通勤|面试|办公|效率|副业|简历|工作|升职|汇报|加班",
	  "职场", "想提升效率的职场人", "干脆利落",
	  { "先理清问题", "具体做法", "常用工具", "心态调整" },
	  { "动手前先写下要解决的问题和截止时间，优先级一目了然", "重要的事放在精力最好的时段，琐事集中处理",
	    "日程、待办和笔记各用一个工具，别来回切换", "把完成的事记下来，复盘时会发现自己做了很多" } },
	{ "护肤|美妆|化妆|穿搭|发型|香水|口红|衣服|搭配|防晒|底妆|美甲",
	  "变美", "爱美的女生", "种草分享",
	  { "先了解自己", "选择要点", "步骤和手法", "小心踩雷" },
	  { "先弄清肤质、肤色和身形，适合自己的才是最好的", "看成分和版型，比看牌子和价格更靠谱",
	    "少量多次、由浅到深，出错也容易补救", "新品先小范围试用，别一次囤太多" } },
	{ "健身|减脂|跑步|瑜伽|减肥|运动|增肌|塑形|马拉松|拉伸|普拉提|体态",
	  "健身", "想动起来的健身新手", "积极鼓励",
	  { "从哪里开始", "训练安排", "吃得对", "坚持与恢复" },
	  { "先从每周三次、每次 30 分钟开始，动作标准比重量重要", "力量和有氧交替安排，训练前后都要热身和拉伸",
	    "蛋白质吃够、少喝含糖饮料，比节食管用", "睡够觉、给肌肉留出恢复时间，进步才稳定" } },
	{ "宝宝|育儿|母婴|孩子|亲子|辅食|带娃|早教|幼儿园|新生儿",
	  "育儿", "新手爸妈", "温柔耐心",
	  { "先了解孩子", "日常怎么做", "好用的小物", "爸妈也要放松" },
	  { "每个孩子节奏不同，别急着和别人家比较", "固定作息能让孩子有安全感，大人也轻松很多",
	    "东西不在多，安全、好清洗是第一标准", "照顾好自己的情绪，孩子会感受到" } },
	{ "数码|手机|电脑|相机|耳机|软件|app|科技|平板|键盘|智能",
	  "数码", "数码爱好者", "客观专业",
	  { "先说结论", "核心体验", "适合谁", "购买建议" },
	  { "按自己的主要用途来选，参数够用就好", "续航、屏幕和手感这些日常体验比跑分更重要",
	    "预算、使用场景和生态决定了它适不适合你", "等大促或以旧换新更划算，买前看清售后政策" } },
	{ "家居|收纳|装修|租房|布置|清洁|绿植|改造|卧室|厨房|断舍离",
	  "家居", "想把家变舒服的人", "温馨实用",
	  { "先做规划", "收纳与布置", "好物推荐", "日常维护" },
	  { "先量尺寸、定风格，再决定买什么，避免冲动消费", "常用的放在顺手处，不常用的收进柜子，台面保持清爽",
	    "选多功能、好打理的小物，少即是多", "每天花十分钟归位，比周末大扫除轻松得多" } },
	{ "", "经验分享", "对这个话题感兴趣的朋友", "亲切真诚",
	  { "为什么值得一试", "我的做法", "需要注意的地方", "写在最后" },
	  { "它能实实在在解决一些日常的小麻烦", "从最简单的一步开始，边做边调整",
	    "别一开始就追求完美，先完成再完善", "找到适合自己的节奏最重要" } },
};

static const struct offline_cat *offline_cat_for(const char *text)
{
	for (size_t i = 0; i + 1 < OFFLINE_N(offline_cats); i++)
		if (words_match_any(text, offline_cats[i].keys))
			return &offline_cats[i];
	return &offline_cats[OFFLINE_N(offline_cats) - 1];
}

/* The topic: facts.topic, else the user's message, at most 60
 * characters. NULL when there is none; else the caller frees it. */
static char *offline_topic(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *t = offline_str(facts, "topic");

	if (t == NULL && text && *text)
		t = text;
	if (t == NULL) {
		snprintf(err, errlen, "the offline writer needs a topic");
		return NULL;
	}
	return offline_truncate(t, 60);
}

static char *offline_goal(const char *topic)
{
	if (words_match_any(topic, "攻略|指南|教程|怎么|如何|方法|技巧"))
		return xasprintf("给出一份能照着做的%s方法，读完就能上手", topic);
	if (words_match_any(topic, "推荐|好物|清单|合集|必买"))
		return xasprintf("整理值得入手的%s清单，帮读者少走弯路", topic);
	if (words_match_any(topic, "测评|对比|体验|评测"))
		return xasprintf("用真实体验讲清%s的优缺点，帮读者做决定", topic);
	return xasprintf("分享关于%s的真实经验，让读者愿意收藏和互动", topic);
}

json_t *offline_task_brief(const json_t *facts, const char *text, char *err, size_t errlen)
{
	char *topic = offline_topic(facts, text, err, errlen);
	const char *notes;
	const struct offline_cat *cat;
	json_t *constraints, *kw, *sent, *v, *j;
	char *all, *goal;
	size_t i;

	if (topic == NULL)
		return NULL;
	notes = offline_str(facts, "notes");
	all = xasprintf("%s %s", topic, notes ? notes : "");
	cat = offline_cat_for(all);
	constraints = json_pack("[s, s, s, s]", "标题不超过 20 字", "正文分 3 到 5 个小节，每节有小标题",
				"使用 3 到 8 个话题标签", "语言口语化，不夸大、不虚构效果");
	sent = offline_sentences(notes, 3);
	json_array_foreach(sent, i, v) {
		char *line = offline_truncate(json_string_value(v), 80);

		offline_add_unique(constraints, line);
		free(line);
	}
	json_decref(sent);
	kw = offline_keywords(all, 6);
	offline_add_unique(kw, cat->tag);
	goal = offline_goal(topic);
	j = json_pack("{s:s, s:s, s:o, s:s, s:o}", "audience",
		      offline_str(facts, "audience") ? offline_str(facts, "audience") : cat->audience,
		      "goal", goal, "constraints", constraints, "tone",
		      offline_str(facts, "tone") ? offline_str(facts, "tone") : cat->tone, "keywords", kw);
	free(goal);
	free(all);
	free(topic);
	return j;
}

/* ---- the note ---- */

struct offline_note {
	char *topic;
	const struct offline_cat *cat;
	const json_t *brief;      /* borrowed, may be NULL */
	const json_t *evidence;   /* borrowed, may be NULL */
	char *feedback;           /* "" when none */
	uint64_t h;
	json_t *kw;               /* keywords for the body */
	struct buf body;
};

static const char *const offline_title_hooks[] = {
	"%s｜新手也能照做", "%s，一篇讲清楚", "收藏！%s全攻略", "%s的 4 个实用技巧",
	"%s避坑指南", "关于%s，我想说的都在这了",
};

static char *offline_note_title(struct offline_note *n)
{
	size_t first = (size_t)(n->h % OFFLINE_N(offline_title_hooks));
	char *t;

	if (offline_chars(n->topic) > 16)
		return offline_truncate(n->topic, 19);
	for (size_t i = 0; i < OFFLINE_N(offline_title_hooks); i++) {
		t = xasprintf(offline_title_hooks[(first + i) % OFFLINE_N(offline_title_hooks)], n->topic);
		if (offline_chars(t) <= 20)
			return t;
		free(t);
	}
	return xstrdup(n->topic);
}

static const char *const offline_openings[] = {
	"最近很多人问我%s，这篇把我的经验整理好了，%s可以直接收藏。",
	"关于%s，踩过坑也总结了方法，今天一次讲清楚，特别适合%s。",
	"%s其实没那么难！写给%s的一份实用分享。",
};
static const char *const offline_links[] = {
	"和「%s」有关的细节，最容易被忽略。", "如果你也关心%s，这一条值得多看两眼。",
	"做好这一步，%s就成功了一半。", "我自己在%s上踩过坑，所以特别提一下。",
	"%s方面，按自己的节奏来就好。",
};
static const char *const offline_numbers[] = { "一", "二", "三", "四", "五" };

static void offline_note_evidence(struct offline_note *n)
{
	const json_t *titles = json_object_get(n->evidence, "titles");
	const json_t *tags = json_object_get(n->evidence, "tags");
	json_t *kw;
	struct buf all;
	size_t i;
	json_t *v;

	if (json_array_size(titles) == 0 && json_array_size(tags) == 0)
		return;
	buf_init(&all, OFFLINE_TEXT_MAX);
	json_array_foreach(titles, i, v)
		buf_printf(&all, "%s\n", json_is_string(v) ? json_string_value(v) : "");
	kw = json_array_size(tags) ? json_deep_copy(tags) : offline_keywords(all.data, 2);
	buf_printf(&n->body, "我翻了 %zu 篇同类热门笔记，大家最关心的是「",
		   json_array_size(titles) ? json_array_size(titles) : json_array_size(tags));
	offline_join(&n->body, kw, "、", 2);
	buf_adds(&n->body, "」，下面就从这几点说起。\n\n");
	json_decref(kw);
	buf_free(&all);
}

static void offline_note_section(struct offline_note *n, size_t i, const char *head, const char *point)
{
	size_t nk = json_array_size(n->kw);
	const char *kw = nk ? json_string_value(json_array_get(n->kw, i % nk)) : n->topic;

	buf_printf(&n->body, "%s、%s\n%s。", offline_numbers[i], head, point);
	/* A different link sentence for each section. */
	buf_printf(&n->body, offline_links[(n->h + i) % OFFLINE_N(offline_links)], kw);
	buf_adds(&n->body, "\n\n");
}

static void offline_note_closing(struct offline_note *n)
{
	const char *tone = offline_str(n->brief, "tone");

	if (tone == NULL)
		tone = n->cat->tone;
	if (words_match_any(tone, "干货|专业|客观|实用|利落|真诚"))
		buf_adds(&n->body, "以上都是亲身经验，先收藏，用的时候翻出来对照着做。");
	else
		buf_adds(&n->body, "你最想先试哪一条？评论区聊聊～");
}

static void offline_note_body(struct offline_note *n)
{
	const char *audience = offline_str(n->brief, "audience");

	buf_printf(&n->body, offline_pick(offline_openings, OFFLINE_N(offline_openings), n->h, 1),
		   n->topic, audience ? audience : n->cat->audience);
	buf_adds(&n->body, "\n\n");
	offline_note_evidence(n);
	for (size_t i = 0; i < 4; i++)
		offline_note_section(n, i, n->cat->heads[i], n->cat->points[i]);
	if (*n->feedback) {
		const struct offline_cat *g = &offline_cats[OFFLINE_N(offline_cats) - 1];
		char *fb = offline_truncate(n->feedback, 30);

		buf_printf(&n->body, "五、补充细节\n针对反馈（%s），再补充两点：%s；%s。\n\n", fb,
			   g->points[n->h % 2], g->points[2 + (n->h >> 8) % 2]);
		free(fb);
	}
	offline_note_closing(n);
}

/* Chinese keywords of two to four characters are words; longer ones are
 * usually phrases the lexical split could not cut. */
static int offline_short_word(const char *w)
{
	return w && (!offline_zh(w) || offline_chars(w) <= 4);
}

static void offline_tag_add(json_t *tags, const char *s)
{
	while (s && *s == '#')
		s++;
	if (json_array_size(tags) < 8 && s && offline_chars(s) <= 12)
		offline_add_unique(tags, s);
}

static json_t *offline_note_tags(struct offline_note *n)
{
	static const char *const fill[] = { "经验分享", "生活记录", "干货分享" };
	json_t *tags = json_array(), *topic_kw = offline_keywords(n->topic, 3), *v;
	size_t i;

	json_array_foreach(topic_kw, i, v)
		if (offline_short_word(json_string_value(v)))
			offline_tag_add(tags, json_string_value(v));
	offline_tag_add(tags, n->cat->tag);
	json_array_foreach(json_object_get(n->evidence, "tags"), i, v)
		if (i < 3)
			offline_tag_add(tags, json_string_value(v));
	json_array_foreach(json_object_get(n->brief, "keywords"), i, v)
		if (i < 2)
			offline_tag_add(tags, json_string_value(v));
	for (i = 0; json_array_size(tags) < 3 && i < OFFLINE_N(fill); i++)
		offline_tag_add(tags, fill[i]);
	json_decref(topic_kw);
	return tags;
}

static char *offline_feedback(const json_t *facts)
{
	const json_t *f = json_object_get(facts, "feedback");

	if (json_is_string(f))
		return xstrdup(json_string_value(f));
	if (offline_present(f)) {
		char *s = json_dumps(f, JSON_COMPACT);

		return s ? s : xstrdup("");
	}
	return xstrdup("");
}

/* What the sections talk about: the topic's and the brief's keywords,
 * without words that only say what kind of note it is (攻略, 推荐…). */
static json_t *offline_note_keywords(const char *topic, const json_t *brief)
{
	json_t *all = offline_keywords(topic, 4), *kw = json_array(), *v;
	size_t i;

	json_array_foreach(json_object_get(brief, "keywords"), i, v)
		offline_add_unique(all, json_string_value(v));
	json_array_foreach(all, i, v)
		if (!offline_generic(json_string_value(v)) && offline_short_word(json_string_value(v)))
			offline_add_unique(kw, json_string_value(v));
	json_decref(all);
	return kw;
}

json_t *offline_task_note(const json_t *facts, const char *text, char *err, size_t errlen)
{
	struct offline_note n = { 0 };
	json_t *j;
	char *title;

	n.topic = offline_topic(facts, text, err, errlen);
	if (n.topic == NULL)
		return NULL;
	n.brief = json_object_get(facts, "brief");
	n.evidence = json_object_get(facts, "evidence");
	n.feedback = offline_feedback(facts);
	n.cat = offline_cat_for(n.topic);
	n.h = offline_hash(n.topic, n.feedback);
	n.kw = offline_note_keywords(n.topic, n.brief);
	buf_init(&n.body, OFFLINE_TEXT_MAX);
	offline_note_body(&n);
	title = offline_note_title(&n);
	j = json_pack("{s:s, s:s, s:o}", "title", title, "body", n.body.data, "tags",
		      offline_note_tags(&n));
	free(title);
	free(n.topic);
	free(n.feedback);
	json_decref(n.kw);
	buf_free(&n.body);
	return j;
}
