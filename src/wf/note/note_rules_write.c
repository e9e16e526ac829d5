/* The note workflow's model roles, offline (seed 001): the brief
 * (audience, goal, constraints, tone, keywords) and the writer (title,
 * body, tags of a social-media note). A topic is placed in a category by
 * its words (travel, food, study…); the category gives the audience,
 * tone, section headings and one concrete point per section, and the
 * topic's keywords, the evidence (popular titles and tags) and the
 * reviewer's feedback shape the rest. The wording varies with a hash of
 * the topic and the feedback, and every pick turns with facts.attempt,
 * so a rewrite differs. The same categories tell how clear a request is
 * (clarity): whether it names a subject at all, a category, an audience
 * and specifics, and what to ask when it does not. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "util/xmalloc.h"
#include "text/words.h"
#include "text/script.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

struct note_rules_cat {
	const char *keys;        /* '|'-separated words of a topic */
	const char *tag;
	const char *audience;
	const char *tone;
	const char *heads[4];
	const char *points[4];
};

static const struct note_rules_cat note_rules_cats[] = {
	{ "旅行|旅游|一日游|游玩|游记|春游|秋游|出游|露营|徒步|自驾|景点|打卡|度假|citywalk|古镇|海边|爬山|赏花|樱花|踏青|野餐|花期",
	  "旅行", "爱出游的年轻人", "轻松实用",
	  { "出发前准备", "路线怎么排", "拍照与打卡", "避坑提醒" },
	  { "提前看好天气和开放时间，门票尽量线上预约", "按区域把地点串起来，一天两三个点就够，不赶路才玩得开心",
	    "早上光线柔和、人也少，是出片的好时候", "热门时段排队久，尽量错峰出行，随身带水和充电宝" } },
	{ "美食|做饭|菜谱|烘焙|早餐|午餐|晚餐|餐厅|探店|咖啡|奶茶|甜品|食谱|减脂餐|火锅|家常菜|快手菜|做法|"
	  "红烧肉|番茄炒蛋|麻婆豆腐|绿豆沙|便当|饺子|蛋糕|面包|小龙虾|烧烤",
	  "美食", "爱吃也爱做饭的人", "亲切有烟火气",
	  { "准备食材", "关键步骤", "味道的小秘诀", "怎么搭配更好吃" },
	  { "食材不求多，新鲜是第一位，调料提前备好就不会手忙脚乱", "火候和顺序最关键，难熟的先下锅，一步一步来",
	    "出锅前尝一下再调味，一点点糖就能把鲜味提起来", "配一道清爽的小菜或饮品，满足感翻倍" } },
	{ "学习|考研|考试|备考|英语|读书|读书笔记|自律|大学|留学|考证|雅思|托福|单词|复习|错题本|教资|法考|"
	  "图书馆|四六级|高数",
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
	{ "健身|减脂|跑步|瑜伽|减肥|运动|增肌|塑形|马拉松|拉伸|普拉提|体态|跳绳|马甲线|燃脂|深蹲",
	  "健身", "想动起来的健身新手", "积极鼓励",
	  { "从哪里开始", "训练安排", "吃得对", "坚持与恢复" },
	  { "先从每周三次、每次 30 分钟开始，动作标准比重量重要", "力量和有氧交替安排，训练前后都要热身和拉伸",
	    "蛋白质吃够、少喝含糖饮料，比节食管用", "睡够觉、给肌肉留出恢复时间，进步才稳定" } },
	{ "宝宝|育儿|母婴|孩子|亲子|辅食|带娃|早教|幼儿园|新生儿",
	  "育儿", "新手爸妈", "温柔耐心",
	  { "先了解孩子", "日常怎么做", "好用的小物", "爸妈也要放松" },
	  { "每个孩子节奏不同，别急着和别人家比较", "固定作息能让孩子有安全感，大人也轻松很多",
	    "东西不在多，安全、好清洗是第一标准", "照顾好自己的情绪，孩子会感受到" } },
	{ "宠物|萌宠|猫|狗|铲屎|仓鼠|兔子|狗粮|猫粮|遛狗|领养|疫苗|驱虫",
	  "萌宠", "养宠物的铲屎官", "温柔有爱",
	  { "到家前的准备", "日常照顾", "好用的用品", "健康提醒" },
	  { "先备好窝、食盆水盆和猫砂盆或尿垫，给它一个能躲起来的角落", "定时定量喂食，换粮用七天慢慢过渡，每天陪玩十几分钟",
	    "用品挑安全、好清洗的，不必一次买齐，缺什么再补", "按时驱虫和打疫苗，食欲、精神不对劲早点去医院" } },
	{ "数码|手机|电脑|相机|耳机|软件|app|科技|平板|键盘|智能|AI工具|手表",
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

/* A food topic that judges a place or a dish rather than cooks it. */
static const struct note_rules_cat note_rules_food_review = {
	"测评|探店|评测|餐厅|小馆|好吃|必吃|值得", "探店", "爱吃的朋友", "真实直接",
	{ "先说结论", "招牌和口味", "环境与排队", "人均和建议" },
	{ "先看招牌菜和口碑最集中的那几道，点单不容易踩雷", "味道按自己的口味判断，辣度、咸淡可以让店家调整",
	  "饭点排队久，错开高峰或提前取号更省时间", "按人均预算点菜，两三人点四五道刚好，不够再加" } };

/* How many of the '|'-separated keys the text has (ASCII case ignored). */
static size_t note_rules_cat_hits(const char *text, const char *keys)
{
	size_t n = 0;

	while (*keys) {
		size_t len = strcspn(keys, "|");
		char *k = xstrndup(keys, len);

		n += len > 0 && strcasestr(text, k) != NULL;
		free(k);
		keys += len + (keys[len] == '|');
	}
	return n;
}

/* The category with the most of its words in the text (the first of
 * those tied): 跳绳减脂打卡 is fitness, though travel has 打卡 too. */
static const struct note_rules_cat *note_rules_cat_for(const char *text)
{
	const struct note_rules_cat *best = &note_rules_cats[OFFLINE_N(note_rules_cats) - 1];
	size_t most = 0;

	for (size_t i = 0; i + 1 < OFFLINE_N(note_rules_cats); i++) {
		size_t n = note_rules_cat_hits(text, note_rules_cats[i].keys);

		if (n > most)
			most = n, best = &note_rules_cats[i];
	}
	/* 番茄炒蛋怎么做好吃 cooks, 重庆火锅测评 judges. */
	if (strcmp(best->tag, "美食") == 0 && words_match_any(text, note_rules_food_review.keys) &&
	    !words_match_any(text, "做|自制|食谱|菜谱"))
		return &note_rules_food_review;
	return best;
}

/* The topic: the subject of facts.topic, else of the user's message (a
 * request's wording taken off: note_rules_request.c), at most 60
 * characters. NULL when there is none; else the caller frees it. */
static char *note_rules_topic(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *t = phrase_str(facts, "topic");
	char *subject, *out;

	if (t == NULL && text && *text)
		t = text;
	if (t == NULL) {
		snprintf(err, errlen, "the offline writer needs a topic");
		return NULL;
	}
	subject = note_rules_request_subject(t);
	out = phrase_truncate(subject, 60);
	free(subject);
	return out;
}

static char *note_rules_goal(const char *topic)
{
	if (words_match_any(topic, "攻略|指南|教程|怎么|如何|方法|技巧"))
		return xasprintf("给出一份能照着做的%s方法，读完就能上手", topic);
	if (words_match_any(topic, "推荐|好物|清单|合集|必买"))
		return xasprintf("整理值得入手的%s清单，帮读者少走弯路", topic);
	if (words_match_any(topic, "测评|对比|体验|评测"))
		return xasprintf("用真实体验讲清%s的优缺点，帮读者做决定", topic);
	return xasprintf("分享关于%s的真实经验，让读者愿意收藏和互动", topic);
}

static json_t *note_rules_brief_en(const json_t *facts, const char *topic);

json_t *note_rules_task_brief(const json_t *facts, const char *text, char *err, size_t errlen)
{
	char *topic = note_rules_topic(facts, text, err, errlen);
	const char *notes;
	const struct note_rules_cat *cat;
	json_t *constraints, *kw, *sent, *v, *j;
	char *all, *goal;
	size_t i;

	if (topic == NULL)
		return NULL;
	if (strcmp(text_lang(topic), "zh") != 0) {
		j = note_rules_brief_en(facts, topic);
		free(topic);
		return j;
	}
	notes = phrase_str(facts, "notes");
	all = xasprintf("%s %s", topic, notes ? notes : "");
	cat = note_rules_cat_for(all);
	constraints = json_pack("[s, s, s, s]", "标题不超过 20 字", "正文分 3 到 5 个小节，每节有小标题",
				"使用 3 到 8 个话题标签", "语言口语化，不夸大、不虚构效果");
	sent = phrase_sentences(notes, 3);
	json_array_foreach(sent, i, v) {
		char *line = phrase_truncate(json_string_value(v), 80);

		phrase_add_unique(constraints, line);
		free(line);
	}
	json_decref(sent);
	kw = note_rules_topic_subject(topic, 0);
	for (i = json_array_size(kw); i-- > 0;)
		if (phrase_generic(json_string_value(json_array_get(kw, i))) || json_array_size(kw) > 6)
			json_array_remove(kw, i);
	if (cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1])
		phrase_add_unique(kw, cat->tag);
	goal = note_rules_goal(topic);
	j = json_pack("{s:s, s:s, s:o, s:s, s:o}", "audience",
		      phrase_str(facts, "audience") ? phrase_str(facts, "audience") : cat->audience,
		      "goal", goal, "constraints", constraints, "tone",
		      phrase_str(facts, "tone") ? phrase_str(facts, "tone") : cat->tone, "keywords", kw);
	free(goal);
	free(all);
	free(topic);
	return j;
}

/* ---- the note ---- */

/* English notes: the same kinds of topic, by English words. */
struct note_rules_en_cat {
	const char *keys, *tag, *audience;
	const char *heads[3];
	const char *points[3];
};

static const struct note_rules_en_cat note_rules_en_cats[] = {
	{ "travel|trip|hike|hiking|camping|beach|city|tour|weekend in|road trip|visit", "travel",
	  "anyone planning a trip",
	  { "Before you go", "Planning the route", "Avoiding the crowds" },
	  { "Check the weather and opening hours, and book tickets online where you can.",
	    "Group the places by area and keep to two or three a day, so nothing is rushed.",
	    "Go early in the morning: the light is soft and the queues are short." } },
	{ "food|recipe|cook|cooking|bake|baking|breakfast|dinner|lunch|meal|coffee|noodle|hot pot|dish",
	  "food", "home cooks",
	  { "What you need", "The key steps", "Getting the taste right" },
	  { "Fewer but fresher ingredients; have the seasonings measured before you start.",
	    "Heat and order matter most: what takes longest goes in first.",
	    "Taste before serving; a pinch of sugar or salt at the end lifts the flavour." } },
	{ "study|exam|learn|learning|vocabulary|ielts|toefl|reading|revision|college|homework",
	  "study", "students",
	  { "Set the goal", "Method and rhythm", "Staying with it" },
	  { "Break the big goal into weekly pieces you can tick off.",
	    "Work 25 minutes, rest 5: it beats pushing through tired.",
	    "Find a study partner to check in with, and never skip two days in a row." } },
	{ "dog|dogs|puppy|cat|cats|kitten|pet|pets|hamster|rabbit", "pets", "pet owners",
	  { "Before it comes home", "Daily care", "Health" },
	  { "Have a bed, food and water bowls and a quiet corner ready on the first day.",
	    "Feed at fixed times, change food over a week, and play with it every day.",
	    "Keep vaccinations and deworming on schedule; see a vet when appetite or energy drops." } },
	{ "phone|laptop|camera|headphones|earbuds|keyboard|tablet|app|software|gadget|smartwatch|tech",
	  "tech", "people choosing a gadget",
	  { "The short answer", "What matters in daily use", "Buying advice" },
	  { "Choose by what you mostly do with it; specs beyond that are rarely felt.",
	    "Battery, screen and how it feels in the hand matter more than benchmarks.",
	    "Wait for a sale or a trade-in offer, and read the warranty terms first." } },
	{ "fitness|workout|running|run|yoga|gym|strength|stretch|stretching|pilates|fat loss|muscle",
	  "fitness", "beginners who want to move more",
	  { "Where to start", "The weekly plan", "Recovery" },
	  { "Start with three 30-minute sessions a week; good form beats heavy weights.",
	    "Alternate strength and cardio, and warm up and stretch every time.",
	    "Sleep enough and give muscles a day to recover; progress comes from rest too." } },
};

/* The brief of an English topic, in English: the kind's readers, a goal
 * by what the topic asks for, the rules of the platform. */
static json_t *note_rules_brief_en(const json_t *facts, const char *topic)
{
	const char *audience = "readers curious about the topic", *kind = NULL;
	json_t *kw = note_rules_topic_subject(topic, 0);
	char *goal;
	json_t *j;

	for (size_t i = 0; kind == NULL && i < OFFLINE_N(note_rules_en_cats); i++)
		if (words_match_any(topic, note_rules_en_cats[i].keys))
			audience = note_rules_en_cats[i].audience, kind = note_rules_en_cats[i].tag;
	if (kind)
		phrase_add_unique(kw, kind);
	if (words_match_any(topic, "guide|how to|tips|plan|itinerary|tutorial"))
		goal = xasprintf("A guide to %s that readers can follow step by step", topic);
	else if (words_match_any(topic, "best|picks|list|recommend"))
		goal = xasprintf("A short list of %s worth trying, so readers choose faster", topic);
	else
		goal = xasprintf("Share first-hand experience of %s that readers will want to save", topic);
	j = json_pack("{s:s, s:s, s:[s, s, s, s], s:s, s:o}", "audience",
		      phrase_str(facts, "audience") ? phrase_str(facts, "audience") : audience,
		      "goal", goal, "constraints", "a title of at most 60 characters",
		      "3 to 5 sections, each with a heading", "3 to 8 tags",
		      "plain words: no exaggeration, nothing made up", "tone",
		      phrase_str(facts, "tone") ? phrase_str(facts, "tone") : "friendly and practical",
		      "keywords", kw);
	free(goal);
	return j;
}

struct note_rules_note {
	char *topic;
	int zh;
	const struct note_rules_cat *cat;
	const struct note_rules_en_cat *en;   /* English topics: their kind, or NULL */
	const json_t *brief;      /* borrowed, may be NULL */
	const json_t *evidence;   /* borrowed, may be NULL */
	char *feedback;           /* "" when none */
	json_t *banned;           /* words the feedback asks to leave out */
	json_t *words;            /* the topic's words that name its subject */
	json_t *said;             /* the corpus lines the note has used */
	uint64_t h;
	unsigned rot;             /* facts.attempt - 1: a rewrite turns every pick */
	struct buf body;
};

static const char *const note_rules_title_hooks[] = {
	"%s｜新手也能照做", "%s，一篇讲清楚", "收藏！%s全攻略", "%s｜亲测有用",
	"%s避坑指南", "关于%s，我想说的都在这了",
};
static const char *const note_rules_en_title_hooks[] = {
	"%s: what actually worked", "%s, step by step", "%s: a practical guide",
};

static char *note_rules_en_capital(const char *s)
{
	char *t = xstrdup(s);

	if (*t >= 'a' && *t <= 'z')
		*t = (char)(*t - 'a' + 'A');
	return t;
}

static char *note_rules_note_title(struct note_rules_note *n)
{
	size_t first = (size_t)((n->h + n->rot) % OFFLINE_N(note_rules_title_hooks));
	char *t;

	if (!n->zh) {
		char *cap = note_rules_en_capital(n->topic);

		t = phrase_chars(cap) > 40 ? xstrdup(cap)
			: xasprintf(note_rules_en_title_hooks[(n->h + n->rot) % OFFLINE_N(note_rules_en_title_hooks)], cap);
		free(cap);
		return t;
	}
	if (phrase_chars(n->topic) > 16)
		return xstrdup(n->topic);
	for (size_t i = 0; i < OFFLINE_N(note_rules_title_hooks); i++) {
		t = xasprintf(note_rules_title_hooks[(first + i) % OFFLINE_N(note_rules_title_hooks)], n->topic);
		if (phrase_chars(t) <= 20)
			return t;
		free(t);
	}
	return xstrdup(n->topic);
}

/* Whether s has a word the feedback asks to leave out. */
static int note_rules_banned(const struct note_rules_note *n, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(n->banned, i, v)
		if (phrase_has(s, json_string_value(v)))
			return 1;
	return 0;
}

static int note_rules_ends(const char *s)
{
	size_t n = strlen(s);

	return n >= 3 && (strcmp(s + n - 3, "。") == 0 || strcmp(s + n - 3, "）") == 0 ||
			  strcmp(s + n - 3, "！") == 0 || strcmp(s + n - 3, "？") == 0);
}

/* A section: a heading and its lines, those with a banned word left out.
 * Returns whether anything was written. */
static int note_rules_section(struct note_rules_note *n, size_t *no, const char *head,
			   const char *const *lines, size_t nlines)
{
	static const char *const numbers[] = { "一", "二", "三", "四", "五", "六" };
	size_t kept = 0;

	for (size_t i = 0; i < nlines; i++)
		kept += lines[i] && *lines[i] && !note_rules_banned(n, lines[i]);
	if (kept == 0 || note_rules_banned(n, head) || *no >= OFFLINE_N(numbers))
		return 0;
	if (n->zh)
		buf_printf(&n->body, "%s、%s\n", numbers[(*no)++], head);
	else
		buf_printf(&n->body, "%zu. %s\n", ++*no, head);
	for (size_t i = 0; i < nlines; i++)
		if (lines[i] && *lines[i] && !note_rules_banned(n, lines[i]))
			buf_printf(&n->body, "%s%s\n", lines[i], n->zh && !note_rules_ends(lines[i]) ? "。" : "");
	buf_adds(&n->body, "\n");
	return 1;
}

/* A note's title up to its first separator: the heading of its points. */
static char *note_rules_source_head(const char *title)
{
	static const char *const seps[] = { "｜", "，", "：", "！", "？", "（", "|", ",", ":" };
	size_t cut = strlen(title);

	for (size_t i = 0; i < OFFLINE_N(seps); i++) {
		const char *p = strstr(title, seps[i]);

		if (p && (size_t)(p - title) >= 6 && (size_t)(p - title) < cut)
			cut = (size_t)(p - title);
	}
	return xstrndup(title, cut);
}

/* 1 when a string of list is at least `at` alike text (phrase_alike). */
static int note_rules_alike_any(const json_t *list, const char *text, double at)
{
	const json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (phrase_alike(json_string_value(v), text) >= at)
			return 1;
	return 0;
}

/* Notes whose titles start this alike make one section (教资备考3个月上岸经验
 * and 教资备考6个月上岸经验, 居家45分钟燃脂 and 居家15分钟燃脂); a corpus line
 * this alike one the note has used is not used again (notes written from
 * one template differ only in a name: 可乐现在每天… and 橘子现在每天…). */
#define NOTE_RULES_HEADS_ALIKE 0.6

/* The points of the notes whose titles start alike head (at most four, none
 * alike one the note has used), and the attribution of the notes they
 * come from, in lines (the caller frees lines[nl - 1], the attribution).
 * Returns the lines. */
static size_t note_rules_head_lines(struct note_rules_note *n, const char *head, const char **lines)
{
	const json_t *points = json_object_get(n->evidence, "points");
	json_t *srcs = json_object(), *p;
	struct buf attr;
	size_t i, nl = 0;

	buf_init(&attr, 512);
	json_array_foreach(points, i, p) {
		const char *src = json_string_value(json_object_get(p, "source")) ?: "";
		const char *text = json_string_value(json_object_get(p, "text")) ?: "";
		char *h = note_rules_source_head(src);

		if (nl < 4 && phrase_alike(h, head) >= NOTE_RULES_HEADS_ALIKE &&
		    !note_rules_banned(n, text) && !note_rules_alike_any(n->said, text, PHRASE_ALIKE)) {
			lines[nl++] = text;
			json_array_append_new(n->said, json_string(text));
			if (!json_object_get(srcs, src) && json_object_size(srcs) < 2) {
				json_object_set_new(srcs, src, json_true());
				buf_printf(&attr, "%s《%s》，%lld 赞", attr.len ? "；" : "（出自笔记", src,
					   (long long)json_integer_value(json_object_get(p, "likes")));
			}
		}
		free(h);
	}
	buf_adds(&attr, "）");
	lines[nl++] = xstrdup(attr.data);
	buf_free(&attr);
	json_decref(srcs);
	return nl;
}

/* The evidence's points, grouped under the heading of the notes they
 * come from (notes whose titles start alike share one: the first's), at most three
 * groups, each attributed. Returns the groups written. */
static size_t note_rules_note_points(struct note_rules_note *n, size_t *no)
{
	const json_t *points = json_object_get(n->evidence, "points");
	size_t i, groups = 0, np = json_array_size(points);
	json_t *done = json_array();   /* the sections' headings */

	/* A rewrite (attempt 2, 3…) starts from another note's points. */
	for (i = 0; i < np; i++) {
		const json_t *p = json_array_get(points, (i + n->rot) % np);
		char *head = note_rules_source_head(json_string_value(json_object_get(p, "source")) ?: "");
		const char *lines[5] = { 0 };
		size_t nl;

		if (groups < 3 && *head && !note_rules_alike_any(done, head, NOTE_RULES_HEADS_ALIKE)) {
			json_array_append_new(done, json_string(head));
			nl = note_rules_head_lines(n, head, lines);
			if (nl > 1)
				groups += (size_t)note_rules_section(n, no, head, lines, nl);
			free((char *)lines[nl - 1]);
		}
		free(head);
	}
	json_decref(done);
	return groups;
}

/* The opening: what the note is and who it is for (unless the feedback
 * banned a word of the audience: 不要提宠物 and 养宠物的铲屎官). */
static void note_rules_note_opening(struct note_rules_note *n, size_t sources)
{
	const char *who = phrase_str(n->brief, "audience");

	if (who == NULL)
		who = n->zh ? n->cat->audience : n->en ? n->en->audience : "anyone curious about it";
	if (note_rules_banned(n, who))
		who = NULL;
	if (!n->zh) {
		char *cap = note_rules_en_capital(n->topic);

		buf_printf(&n->body, "%s%s%s, with the practical points that matter most.\n\n", cap,
			   who ? " — written for " : "", who ? who : "");
		free(cap);
		return;
	}
	buf_printf(&n->body, sources ? "关于%s，我把本地笔记库里相关的热门笔记翻了一遍，挑出能直接用的经验整理在下面"
				     : "关于%s，整理了几条实用的经验", n->topic);
	if (who)
		buf_printf(&n->body, "，特别适合%s", who);
	buf_adds(&n->body, sources ? "。\n\n" : "。细节请以实际情况为准。\n\n");
}

/* The sections of a note of no category, written from the brief. */
static const char *const note_rules_general_heads[] = { "这篇想讲清楚什么", "你提到的要求" };

/* Without evidence: the kind of topic's own advice, or the brief. */
static void note_rules_note_from_brief(struct note_rules_note *n, size_t *no)
{
	const json_t *cons = json_object_get(n->brief, "constraints");
	const char *lines[2] = { 0 };
	size_t i;

	if (!n->zh) {
		for (i = 0; n->en && i < 3; i++)
			note_rules_section(n, no, n->en->heads[i], &n->en->points[i], 1);
		if (n->en == NULL) {
			lines[0] = phrase_str(n->brief, "goal");
			note_rules_section(n, no, "What this note is for", lines, 1);
		}
		return;
	}
	if (n->cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1]) {
		for (i = 0; i < 4; i++)   /* a rewrite in another order */
			note_rules_section(n, no, n->cat->heads[(i + n->rot) % 4],
					&n->cat->points[(i + n->rot) % 4], 1);
		return;
	}
	lines[0] = phrase_str(n->brief, "goal");
	note_rules_section(n, no, note_rules_general_heads[0], lines, 1);
	/* What the person added to the request (after the fixed rules). */
	for (i = 4; i < json_array_size(cons); i++) {
		lines[0] = json_string_value(json_array_get(cons, i));
		note_rules_section(n, no, note_rules_general_heads[1], lines, 1);
	}
}

static void note_rules_note_closing(struct note_rules_note *n)
{
	const char *tone = phrase_str(n->brief, "tone");

	if (!n->zh) {
		buf_adds(&n->body, "Which of these would you try first? Tell me in the comments.");
		return;
	}
	if (tone == NULL)
		tone = n->cat->tone;
	if (words_match_any(tone, "干货|专业|客观|实用|利落|真诚"))
		buf_adds(&n->body, "先收藏，用的时候翻出来对照着做。");
	else
		buf_adds(&n->body, "你最想先试哪一条？评论区聊聊～");
}

static void note_rules_note_body(struct note_rules_note *n)
{
	size_t no = 0, sources;
	struct buf head = n->body, rest;

	/* The sections first, to know whether the evidence had any. */
	buf_init(&n->body, PHRASE_TEXT_MAX);
	sources = n->zh ? note_rules_note_points(n, &no) : 0;
	/* Too few notes for three sections: the kind of topic's advice adds
	 * the rest, its last (the pitfalls) first. */
	for (size_t i = 0; sources && n->cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1] && i < 4 &&
	     (no < 3 || i == 0); i++)
		note_rules_section(n, &no, n->cat->heads[(i + 3) % 4], &n->cat->points[(i + 3) % 4], 1);
	if (sources == 0)
		note_rules_note_from_brief(n, &no);
	note_rules_note_closing(n);
	rest = n->body;
	n->body = head;
	note_rules_note_opening(n, sources);
	buf_adds(&n->body, rest.data);
	buf_free(&rest);
}

static void note_rules_tag_add(struct note_rules_note *n, json_t *tags, const char *s)
{
	while (s && *s == '#')
		s++;
	if (json_array_size(tags) < 8 && s && phrase_chars(s) <= 12 && !note_rules_banned(n, s))
		phrase_add_unique(tags, s);
}

static json_t *note_rules_note_tags(struct note_rules_note *n)
{
	json_t *tags = json_array(), *v;
	size_t i;

	json_array_foreach(n->words, i, v)
		note_rules_tag_add(n, tags, json_string_value(v));
	/* A short topic is a tag as it is (#春游攻略). */
	if (n->zh && phrase_chars(n->topic) <= 8 && !strchr(n->topic, ' '))
		note_rules_tag_add(n, tags, n->topic);
	if (!n->zh) {
		if (n->en)
			note_rules_tag_add(n, tags, n->en->tag);
		return tags;
	}
	if (n->cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1])
		note_rules_tag_add(n, tags, n->cat->tag);
	if (json_is_true(json_object_get(n->evidence, "covered")))
		json_array_foreach(json_object_get(n->evidence, "tags"), i, v)
			if (i < 2)
				note_rules_tag_add(n, tags, json_string_value(v));
	return tags;
}

static char *note_rules_feedback(const json_t *facts)
{
	const json_t *f = json_object_get(facts, "feedback");

	if (json_is_string(f))
		return xstrdup(json_string_value(f));
	if (phrase_present(f)) {
		char *s = jtext(f, JSON_COMPACT);

		return s ? s : xstrdup("");
	}
	return xstrdup("");
}

static int note_rules_starts_any(const char *s, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(s, words[i], strlen(words[i])) == 0)
			return 1;
	return 0;
}

/* The words after "不要提", "别写", "don't mention"… up to punctuation;
 * a word of a kind of topic (宠物) brings that kind's words (猫, 狗…). */
json_t *note_rules_feedback_banned(const char *feedback)
{
	static const char *const asks[] = { "不要提到", "不要提", "别提", "不要写", "别写", "不要出现",
		"去掉", "删掉", "不提", "don't mention ", "do not mention ", "without ", "no " };
	static const char stops[] = ",.;!? \n";   /* bytes: ASCII only */
	static const char *const wide[] = { "，", "。", "、", "；", "！", "？", "和" };
	json_t *banned = json_array();

	for (size_t i = 0; i < OFFLINE_N(asks); i++) {
		const char *p = feedback;

		while ((p = strstr(p, asks[i])) != NULL) {
			size_t len = 0;
			char *w;

			p += strlen(asks[i]);
			while (p[len] && !strchr(stops, p[len]) && !note_rules_starts_any(p + len, wide, OFFLINE_N(wide)))
				len++;
			if (len == 0)
				continue;
			w = xstrndup(p, len);
			phrase_add_unique(banned, w);
			for (size_t c = 0; c + 1 < OFFLINE_N(note_rules_cats); c++)
				if (strcmp(note_rules_cats[c].tag, w) == 0 || words_match_any(w, note_rules_cats[c].keys)) {
					char *keys = xstrdup(note_rules_cats[c].keys), *save = NULL;

					for (char *k = strtok_r(keys, "|", &save); k; k = strtok_r(NULL, "|", &save))
						phrase_add_unique(banned, k);
					phrase_add_unique(banned, note_rules_cats[c].tag);
					free(keys);
				}
			free(w);
		}
	}
	return banned;
}

/* Whether the draft (title, body or tags) has word. */
static int note_rules_draft_has(const json_t *draft, const char *title, const char *body,
				const json_t *tags, const char *word)
{
	const json_t *t;
	size_t i;

	if (draft) {
		title = json_string_value(json_object_get(draft, "title")) ?: "";
		body = json_string_value(json_object_get(draft, "body")) ?: "";
		tags = json_object_get(draft, "tags");
	}
	if (phrase_has(title, word) || phrase_has(body, word))
		return 1;
	json_array_foreach(tags, i, t)
		if (phrase_has(json_string_value(t) ?: "", word))
			return 1;
	return 0;
}

/* What became of the words the feedback asked to leave out, as it is:
 * taken out of the previous draft (facts.previous), not in it to begin
 * with, or still there (the topic is made of them). Never a removal that
 * was not made. */
static void note_rules_banned_said(const struct note_rules_note *n, struct buf *b, const json_t *now,
				   const json_t *prev, const char *title, const json_t *tags)
{
	json_t *gone = json_array(), *still = json_array(), *never = json_array(), *w;
	size_t i;

	json_array_foreach(now, i, w) {
		const char *s = json_string_value(w);

		if (note_rules_draft_has(NULL, title, n->body.data, tags, s))
			json_array_append(still, w);
		else if (note_rules_draft_has(prev, NULL, NULL, NULL, s))
			json_array_append(gone, w);
		else if (phrase_has(n->feedback, s))  /* the person's own word, not one of its kind */
			json_array_append(never, w);
	}
	if (json_array_size(gone)) {
		buf_adds(b, n->zh ? "已按反馈删去「" : "Taken out, as asked: ");
		phrase_join(b, gone, "、", 3);
		buf_adds(b, n->zh ? "」。" : ". ");
	}
	if (json_array_size(still)) {
		buf_adds(b, n->zh ? "主题本身就是「" : "Still in the note, because the topic is about it: ");
		phrase_join(b, still, "、", 3);
		buf_adds(b, n->zh ? "」，没能完全不提。" : ". ");
	}
	if (json_array_size(never) || json_array_size(gone) + json_array_size(still) == 0) {
		buf_adds(b, n->zh ? "文案里本来就没有「" : "Not in the draft to begin with: ");
		phrase_join(b, json_array_size(never) ? never : now, "、", json_array_size(never) ? 3 : 1);
		buf_adds(b, n->zh ? "」，这一稿也没有写。" : ". ");
	}
	json_decref(gone);
	json_decref(still);
	json_decref(never);
}

/* What of the feedback was applied and what the rules cannot apply. */
static char *note_rules_feedback_said(const struct note_rules_note *n, const json_t *prev,
				      const char *title, const json_t *tags)
{
	json_t *now = note_rules_feedback_banned(n->feedback);
	struct buf b;
	char *out;

	if (*n->feedback == '\0') {
		json_decref(now);
		return NULL;
	}
	buf_init(&b, 2048);
	if (json_array_size(now)) {
		note_rules_banned_said(n, &b, now, prev, title, tags);
	} else {
		buf_printf(&b, n->zh ? "反馈「%s」离线规则无法逐条落实，请在下一步直接修改文案。"
			   : "The feedback \"%s\" cannot be applied by the offline rules; edit the draft "
			   "directly at the next step.", n->feedback);
	}
	out = xstrdup(b.data);
	buf_free(&b);
	json_decref(now);
	return out;
}

json_t *note_rules_feedbacks_banned(const json_t *list, const char *first)
{
	json_t *all = note_rules_feedback_banned(first ? first : ""), *b, *w;
	const json_t *r;
	size_t i, j;

	json_array_foreach(list, i, r) {
		b = note_rules_feedback_banned(json_string_value(r) ?: "");
		json_array_foreach(b, j, w)
			phrase_add_unique(all, json_string_value(w));
		json_decref(b);
	}
	return all;
}

/* The words to leave out: those of the feedback and of every earlier
 * reply of the person (facts.replies): a removal stands for the run. */
static json_t *note_rules_note_banned(const json_t *facts, const char *feedback)
{
	return note_rules_feedbacks_banned(json_object_get(facts, "replies"), feedback);
}

json_t *note_rules_task_note(const json_t *facts, const char *text, char *err, size_t errlen)
{
	struct note_rules_note n = { 0 };
	json_t *j;
	char *title, *said;

	n.topic = note_rules_topic(facts, text, err, errlen);
	if (n.topic == NULL)
		return NULL;
	n.zh = strcmp(text_lang(n.topic), "zh") == 0;
	n.brief = json_object_get(facts, "brief");
	n.evidence = json_object_get(facts, "evidence");
	n.feedback = note_rules_feedback(facts);
	n.banned = note_rules_note_banned(facts, n.feedback);
	if (json_array_size(n.banned)) {
		/* 不要提猫 on 春天去苏州旅行，带上家里的猫: a trip, without the cat. */
		char *kept = note_rules_person_topic(n.topic, n.banned);

		free(n.topic);
		n.topic = kept;
	}
	n.cat = note_rules_cat_for(n.topic);
	for (size_t i = 0; !n.zh && n.en == NULL && i < OFFLINE_N(note_rules_en_cats); i++)
		if (words_match_any(n.topic, note_rules_en_cats[i].keys))
			n.en = &note_rules_en_cats[i];
	n.words = note_rules_topic_subject(n.topic, 0);
	n.said = json_array();
	n.h = phrase_hash(n.topic, n.feedback);
	if (json_integer_value(json_object_get(facts, "attempt")) > 1)
		n.rot = (unsigned)(json_integer_value(json_object_get(facts, "attempt")) - 1) % 64;
	buf_init(&n.body, PHRASE_TEXT_MAX);
	note_rules_note_body(&n);
	title = note_rules_note_title(&n);
	j = json_pack("{s:s, s:s, s:o}", "title", title, "body", n.body.data, "tags",
		      note_rules_note_tags(&n));
	said = note_rules_feedback_said(&n, json_object_get(facts, "previous"), title,
					json_object_get(j, "tags"));
	if (said)
		json_object_set_new(j, "feedbackApplied", json_string(said));
	free(said);
	free(title);
	free(n.topic);
	free(n.feedback);
	json_decref(n.banned);
	json_decref(n.said);
	json_decref(n.words);
	buf_free(&n.body);
	return j;
}

const char *note_rules_note_category(const char *text)
{
	const struct note_rules_cat *cat = note_rules_cat_for(text ? text : "");

	return cat == &note_rules_cats[OFFLINE_N(note_rules_cats) - 1] ? NULL : cat->tag;
}

/* ---- templates ---- */

static json_t *note_rules_heads(const char *const *heads, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(heads[i]));
	return a;
}

/* The share of the matched category words that are a template's own;
 * the general template, when nothing matched, fits alone. */
static double note_rules_share(size_t hits, size_t total)
{
	if (total == 0)
		return 1.0;
	return hits >= total ? 1.0 : (double)(hits * 100 / total) / 100.0;
}

/* A candidate. */
static json_t *note_rules_template(const char *tag, const char *audience, const char *tone,
				json_t *heads, size_t hits, size_t total)
{
	json_t *t = json_pack("{s:s, s:s, s:o, s:I}", "template", tag, "audience", audience, "headings",
			      heads, "hits", (json_int_t)hits);

	if (tone)
		json_object_set_new(t, "tone", json_string(tone));
	json_object_set_new(t, "score", json_real(hits == 0 && total ? 0.0 : note_rules_share(hits, total)));
	return t;
}

/* The others after the chosen one, most hits first (table order on ties). */
static void note_rules_templates_rest(json_t *out, const size_t *hits, size_t n, size_t chosen,
				   size_t total, int en)
{
	for (size_t most = 64; most > 0; most--)
		for (size_t i = 0; i < n; i++) {
			if (i == chosen || hits[i] != most)
				continue;
			if (en)
				json_array_append_new(out, note_rules_template(note_rules_en_cats[i].tag,
					note_rules_en_cats[i].audience, NULL, note_rules_heads(note_rules_en_cats[i].heads, 3),
					hits[i], total));
			else
				json_array_append_new(out, note_rules_template(note_rules_cats[i].tag,
					note_rules_cats[i].audience, note_rules_cats[i].tone,
					note_rules_heads(note_rules_cats[i].heads, 4), hits[i], total));
		}
}

static json_t *note_rules_templates_en(const char *text)
{
	size_t hits[OFFLINE_N(note_rules_en_cats)], total = 0, chosen = OFFLINE_N(note_rules_en_cats);
	json_t *out = json_array();

	for (size_t i = 0; i < OFFLINE_N(note_rules_en_cats); i++) {
		hits[i] = note_rules_cat_hits(text, note_rules_en_cats[i].keys);
		total += hits[i];
		if (hits[i] && chosen == OFFLINE_N(note_rules_en_cats))
			chosen = i;   /* the writer's pick: the first kind the topic names */
	}
	if (chosen < OFFLINE_N(note_rules_en_cats))
		json_array_append_new(out, note_rules_template(note_rules_en_cats[chosen].tag,
			note_rules_en_cats[chosen].audience, NULL, note_rules_heads(note_rules_en_cats[chosen].heads, 3),
			hits[chosen], total));
	note_rules_templates_rest(out, hits, OFFLINE_N(note_rules_en_cats), chosen, total, 1);
	json_array_append_new(out, note_rules_template("general", "anyone curious about the topic", NULL,
		json_pack("[s]", "What this note is for"), 0, total));
	return out;
}

static json_t *note_rules_note_templates(const char *text)
{
	const struct note_rules_cat *pick, *generic = &note_rules_cats[OFFLINE_N(note_rules_cats) - 1];
	size_t hits[OFFLINE_N(note_rules_cats)], total = 0, chosen = OFFLINE_N(note_rules_cats) - 1;
	json_t *out;

	text = text ? text : "";
	if (strcmp(text_lang(text), "zh") != 0)
		return note_rules_templates_en(text);
	out = json_array();
	pick = note_rules_cat_for(text);
	for (size_t i = 0; i + 1 < OFFLINE_N(note_rules_cats); i++) {
		hits[i] = note_rules_cat_hits(text, note_rules_cats[i].keys);
		total += hits[i];
		if (pick == &note_rules_cats[i])
			chosen = i;
	}
	hits[OFFLINE_N(note_rules_cats) - 1] = 0;
	if (pick == &note_rules_food_review)
		json_array_append_new(out, note_rules_template(pick->tag, pick->audience, pick->tone,
			note_rules_heads(pick->heads, 4), note_rules_cat_hits(text, pick->keys), total));
	else if (pick != generic)
		json_array_append_new(out, note_rules_template(pick->tag, pick->audience, pick->tone,
			note_rules_heads(pick->heads, 4), hits[chosen], total));
	note_rules_templates_rest(out, hits, OFFLINE_N(note_rules_cats) - 1,
			       pick == &note_rules_food_review ? OFFLINE_N(note_rules_cats) : chosen, total, 0);
	json_array_append_new(out, note_rules_template(generic->tag, generic->audience, generic->tone,
		note_rules_heads(note_rules_general_heads, 2), 0, total));
	return out;
}

json_t *note_rules_task_templates(const json_t *facts, const char *text, char *err, size_t errlen)
{
	char *topic = note_rules_topic(facts, text, err, errlen);
	json_t *list, *j;

	if (topic == NULL)
		return NULL;
	list = note_rules_note_templates(topic);
	j = json_pack("{s:O, s:o}", "chosen", json_object_get(json_array_get(list, 0), "template"),
		      "templates", list);
	free(topic);
	return j;
}

/* ---- clarity ---- */

/* Words that ask for a note without saying what it is about, longest
 * first (so 写一篇 goes before 写). */
static const char *const note_rules_vague[] = {
	"小红书", "写一篇", "来一篇", "something", "anything", "please", "write", "stuff",
	"帮我", "给我", "替我", "写篇", "写个", "写点", "来篇", "来点", "随便", "东西", "内容",
	"什么", "一下", "笔记", "文章", "帖子", "文案", "一篇", "一个", "一些", "有趣", "好看",
	"post", "note", "some", "about",
	"写", "发", "做", "点", "吧", "啊", "呢", "请", "能", "想", "要", "我", "你", "的", "了",
	"个", "篇", "吗",
};
static const char *const note_rules_specifics[] = {
	"周末", "假期", "一天", "两天", "三天", "预算", "新手", "学生", "上班族", "宝妈", "平价",
	"小个子", "春天", "夏天", "秋天", "冬天", "元", "公里", "分钟",
};
static const struct { const char *tag, *type; } note_rules_types[] = {
	{ "旅行", "travel" }, { "美食", "food" }, { "学习", "study" }, { "职场", "career" },
	{ "变美", "beauty" }, { "健身", "fitness" }, { "育儿", "parenting" }, { "数码", "tech" },
	{ "家居", "home" }, { "萌宠", "pets" }, { "探店", "food" },
};

/* What is left of the text without vague words, spaces and punctuation:
 * CJK characters and ASCII letters or digits, counted. */
static size_t note_rules_subject_chars(const char *text)
{
	char *t = phrase_truncate(text, 200), *p;
	size_t n = 0;

	for (char *q = t; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q - 'A' + 'a');
	for (size_t i = 0; i < OFFLINE_N(note_rules_vague); i++) {
		size_t len = strlen(note_rules_vague[i]);

		while ((p = strstr(t, note_rules_vague[i])) != NULL)
			memmove(p, p + len, strlen(p + len) + 1);
	}
	for (const unsigned char *q = (const unsigned char *)t, *end = q + strlen(t); q < end;) {
		uint32_t c;

		q += text_utf8_next(q, end, &c);
		if (text_no_spaces(c) || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			n++;  /* a letter of any script the product reads, punctuation aside */
	}
	free(t);
	return n;
}

static double note_rules_clarity_score(const char *text, const char *cat, const json_t *facts,
				    int subject)
{
	double v = 0.15, spec = 0;

	if (!subject)
		return v;
	v = 0.45 + (cat ? 0.25 : 0);
	if (phrase_str(facts, "audience"))
		v += 0.15;
	else if (cat)
		v += 0.05;
	if (phrase_str(facts, "tone"))
		v += 0.05;
	for (size_t i = 0; i < OFFLINE_N(note_rules_specifics); i++)
		if (strstr(text, note_rules_specifics[i]))
			spec += 0.05;
	for (const char *p = text; *p; p++)
		if (*p >= '0' && *p <= '9') {
			spec += 0.05;
			break;
		}
	v += spec > 0.15 ? 0.15 : spec;
	return v > 1 ? 1 : (double)(long)(v * 100 + 0.5) / 100;
}

static int note_rules_asked(const json_t *facts, const char *key)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(facts, "asked"), i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), key) == 0)
			return 1;
	return 0;
}

static json_t *note_rules_clarity_options(const char *key)
{
	if (strcmp(key, "topic") == 0)
		return json_pack("[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}, "
				 "{s:s, s:s}, {s:s, s:s}, {s:s, s:s}]",
				 "id", "travel", "label", "春日出游攻略", "id", "food", "label", "家常快手菜谱",
				 "id", "study", "label", "高效学习方法", "id", "career", "label", "职场效率技巧",
				 "id", "beauty", "label", "护肤穿搭分享", "id", "fitness", "label", "健身减脂打卡",
				 "id", "tech", "label", "数码好物测评", "id", "home", "label", "小家收纳改造");
	return json_pack("[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}]",
			 "id", "students", "label", "学生党", "id", "office", "label", "上班族",
			 "id", "beginners", "label", "新手入门", "id", "parents", "label", "宝妈宝爸",
			 "id", "experts", "label", "资深爱好者");
}

static const char *note_rules_content_type(const char *cat)
{
	for (size_t i = 0; cat && i < OFFLINE_N(note_rules_types); i++)
		if (strcmp(cat, note_rules_types[i].tag) == 0)
			return note_rules_types[i].type;
	return "lifestyle";
}

/* How clear a request is (seed 001 §5.1), what is missing, and the
 * question for the first missing key not asked before (facts.asked). */
json_t *note_rules_task_clarity(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *t = phrase_str(facts, "topic") ? phrase_str(facts, "topic") : text;
	int subject = note_rules_subject_chars(t ? t : "") >= 2;
	/* 帮我写一篇笔记: 笔记 is a word of the study category, not a subject. */
	const char *cat = subject ? note_rules_note_category(t) : NULL;
	json_t *missing = json_array(), *j;
	const char *key = NULL;
	size_t i;

	if (!subject)
		json_array_append_new(missing, json_string("topic"));
	else if (!cat && !phrase_str(facts, "audience"))
		json_array_append_new(missing, json_string("audience"));
	for (i = 0; key == NULL && i < json_array_size(missing); i++)
		if (!note_rules_asked(facts, json_string_value(json_array_get(missing, i))))
			key = json_string_value(json_array_get(missing, i));
	j = json_pack("{s:f, s:b, s:o, s:s, s:o, s:s}", "requirementClarity",
		      note_rules_clarity_score(t ? t : "", cat, facts, subject), "hasSubject", subject,
		      "category", cat ? json_string(cat) : json_null(), "contentType",
		      note_rules_content_type(cat), "missing", missing, "reason",
		      !subject ? "请求没有说明写什么主题" : !cat ? "主题明确，但看不出写给谁、属于哪一类"
								 : "主题和类别都明确");
	json_object_set_new(j, "key", key ? json_string(key) : json_null());
	if (key) {
		json_object_set_new(j, "question", json_string(strcmp(key, "topic") == 0
			? "想写哪方面的笔记？选一个方向，或者直接告诉我具体主题" : "这篇笔记主要写给谁看？"));
		json_object_set_new(j, "options", note_rules_clarity_options(key));
	}
	return j;
}
