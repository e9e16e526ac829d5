/* The note workflow's model roles, offline (seed 001): the brief
 * (audience, goal, constraints, tone, keywords) and the writer (title,
 * body, tags of a social-media note). A topic is placed in a category by
 * its words (travel, food, study…), which gives the audience and tone,
 * and asks for a kind of note (note_rules_kind.c): a checklist, a recipe,
 * a trip day by day, a comparison, a how-to, written from the lines of
 * the evidence's notes about the topic, each credited; a note of
 * experience has the category's sections, or the points of those notes
 * grouped by the note they come from. Titles and tags are cut and joined
 * between words (text/wordcut.h). The wording varies with a hash of
 * the topic and the feedback, and every pick turns with facts.attempt,
 * so a rewrite differs. The same categories tell how clear a request is
 * (clarity): whether it names a subject at all, a category, an audience
 * and specifics, and what to ask when it does not. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "json/dump.h"
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "wf/note/note_rules_reader.h"
#include "util/xmalloc.h"
#include "text/words.h"
#include "text/wordcut.h"
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
	  { "提前3到7天看好天气和开放时间，热门景点的门票尽量线上预约", "按区域把地点串起来，一天两三个点就够，不赶路才玩得开心",
	    "早上8点前光线柔和、人也少，是出片的好时候", "热门时段排队常要1小时，尽量错峰出行，随身带水和充电宝" } },
	{ "美食|做饭|菜谱|烘焙|早餐|午餐|晚餐|餐厅|探店|咖啡|奶茶|甜品|食谱|减脂餐|火锅|家常菜|快手菜|做法|"
	  "红烧肉|番茄炒蛋|麻婆豆腐|绿豆沙|便当|饺子|蛋糕|面包|小龙虾|烧烤",
	  "美食", "爱吃也爱做饭的人", "亲切有烟火气",
	  { "准备食材", "关键步骤", "味道的小秘诀", "怎么搭配更好吃" },
	  { "食材不求多，新鲜是第一位，2到3样调料提前备好就不会手忙脚乱", "火候和顺序最关键，难熟的先下锅，葱姜蒜爆香30秒就够",
	    "出锅前尝一下再调味，放2克糖就能把鲜味提起来", "配1道清爽的凉菜或1杯无糖茶，解腻又不抢味" } },
	{ "学习|考研|考试|备考|英语|读书|读书笔记|自律|大学|留学|考证|雅思|托福|单词|复习|错题本|教资|法考|"
	  "图书馆|四六级|高数",
	  "学习", "正在努力的学生党", "干货真诚",
	  { "先定目标", "方法与节奏", "工具和资料", "坚持下去的办法" },
	  { "把大目标拆成每周2到3个能完成的小目标，完成一个划掉一个", "专注 25 分钟再休息 5 分钟，比硬撑效率高",
	    "资料在精不在多，一本主教材加一套真题反复用", "找个搭子互相打卡，允许偶尔偷懒，但别连续断两天" } },
	{ "职场|上班|通勤|面试|办公|效率|副业|简历|工作|升职|汇报|加班",
	  "职场", "想提升效率的职场人", "干脆利落",
	  { "先理清问题", "具体做法", "常用工具", "心态调整" },
	  { "动手前先花5分钟写下要解决的问题和截止时间，优先级一目了然", "最重要的1件事放在精力最好的上午，琐事集中到下午处理",
	    "日程、待办和笔记各用一个工具，别来回切换", "每周五花10分钟把完成的事记下来，复盘时会发现自己做了很多" } },
	{ "护肤|美妆|化妆|穿搭|发型|香水|口红|衣服|搭配|防晒|底妆|美甲",
	  "变美", "爱美的女生", "种草分享",
	  { "先了解自己", "选择要点", "步骤和手法", "小心踩雷" },
	  { "先弄清肤质、肤色和身形，适合自己的才是最好的", "看成分表前5位和衣服的版型，比看牌子和价格更靠谱",
	    "少量多次、由浅到深，每次只取1颗黄豆大小，出错也容易补救", "新品先在耳后试用3天，没问题再上脸，别一次囤太多" } },
	{ "健身|减脂|跑步|瑜伽|减肥|运动|增肌|塑形|马拉松|拉伸|普拉提|体态|跳绳|马甲线|燃脂|深蹲",
	  "健身", "想动起来的健身新手", "积极鼓励",
	  { "从哪里开始", "训练安排", "吃得对", "坚持与恢复" },
	  { "先从每周三次、每次 30 分钟开始，动作标准比重量重要", "力量和有氧交替安排，练前热身5分钟，练完拉伸10分钟",
	    "蛋白质每公斤体重吃够1.2克、少喝含糖饮料，比节食管用", "每晚睡够7小时，同一块肌肉练完隔48小时再练，进步才稳定" } },
	{ "宝宝|育儿|母婴|孩子|亲子|辅食|带娃|早教|幼儿园|新生儿",
	  "育儿", "新手爸妈", "温柔耐心",
	  { "先了解孩子", "日常怎么做", "好用的小物", "爸妈也要放松" },
	  { "每个孩子节奏不同，会走会说早晚差两三个月都常见，别急着和别人家比较", "固定作息能让孩子有安全感，睡前流程控制在30分钟内，大人也轻松很多",
	    "东西不在多，安全、好清洗是第一标准，先买3到5样最常用的", "每天给自己留半小时，照顾好自己的情绪，孩子会感受到" } },
	{ "宠物|萌宠|猫|狗|铲屎|仓鼠|兔子|狗粮|猫粮|遛狗|领养|疫苗|驱虫",
	  "萌宠", "养宠物的铲屎官", "温柔有爱",
	  { "到家前的准备", "日常照顾", "好用的用品", "健康提醒" },
	  { "先备好窝、食盆水盆和猫砂盆或尿垫，给它一个能躲起来的角落", "定时定量喂食，换粮用七天慢慢过渡，每天陪玩十几分钟",
	    "用品挑安全、好清洗的，先买5样最常用的，缺什么再补", "每3个月驱一次虫、按时打疫苗，超过一天不吃东西就去医院" } },
	{ "数码|手机|电脑|相机|耳机|软件|app|科技|平板|键盘|智能|AI工具|手表",
	  "数码", "数码爱好者", "客观专业",
	  { "先说结论", "核心体验", "适合谁", "购买建议" },
	  { "先写下最常用的2到3个用途，参数够用就好", "续航、屏幕和手感这些日常体验比跑分更重要",
	    "预算、使用场景和生态决定了它适不适合你", "等618、双11大促或以旧换新更划算，买前看清7天无理由和保修政策" } },
	{ "家居|收纳|装修|租房|布置|清洁|绿植|改造|卧室|厨房|断舍离",
	  "家居", "想把家变舒服的人", "温馨实用",
	  { "先做规划", "收纳与布置", "好物推荐", "日常维护" },
	  { "先量好长宽高、定风格，再决定买什么，大件家具留出60厘米过道", "常用的放在伸手就够到的高度，不常用的收进柜子，台面只留3样东西",
	    "选多功能、好打理的小物，新买1件就清出1件", "每天花十分钟归位，比周末大扫除轻松得多" } },
	{ "", "经验分享", "对这个话题感兴趣的朋友", "亲切真诚",
	  { "为什么值得一试", "我的做法", "需要注意的地方", "写在最后" },
	  { "它能实实在在解决一些日常的小麻烦", "从最简单的一步开始，边做边调整",
	    "别一开始就追求完美，先完成再完善", "找到适合自己的节奏最重要" } },
};

/* A food topic that judges a place or a dish rather than cooks it. */
static const struct note_rules_cat note_rules_food_review = {
	"测评|探店|评测|餐厅|小馆|好吃|必吃|值得", "探店", "爱吃的朋友", "真实直接",
	{ "先说结论", "招牌和口味", "环境与排队", "人均和建议" },
	{ "先点招牌菜和评价里提得最多的2到3道，点单不容易踩雷", "辣度、咸淡可以让店家调整，第一次去先点微辣，不够再要1碟辣椒",
	  "饭点排队常要1小时，11点前或下午2点后去，或者提前线上取号", "按人均预算点菜，两三人点四五道刚好，不够再加" } };

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
	out = wordcut_prefix(subject, 60, 1);
	if (*out == '\0') {   /* one word longer than that */
		free(out);
		out = phrase_truncate(subject, 60);
	}
	free(subject);
	return out;
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
	goal = note_rules_kind_goal(note_rules_kind_of(topic), topic, 1);
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
	  { "Check the weather 3 days ahead, and book tickets online.",
	    "Group places by area: 2 or 3 a day, nothing rushed.",
	    "Go before 8 a.m.: soft light, short queues." } },
	{ "food|recipe|cook|cooking|bake|baking|breakfast|dinner|lunch|meal|coffee|noodle|hot pot|dish",
	  "food", "home cooks",
	  { "What you need", "The key steps", "Getting the taste right" },
	  { "Fewer, fresher ingredients; measure 2 or 3 seasonings first.",
	    "Order matters: slowest first; garlic needs 30 seconds.",
	    "Taste first; half a teaspoon of sugar lifts the flavour." } },
	{ "study|exam|learn|learning|vocabulary|ielts|toefl|reading|revision|college|homework",
	  "study", "students",
	  { "Set the goal", "Method and rhythm", "Staying with it" },
	  { "Break the goal into 2 or 3 weekly pieces to tick off.",
	    "Work 25 minutes, rest 5; it beats pushing on tired.",
	    "Check in with a partner; never skip 2 days in a row." } },
	{ "dog|dogs|puppy|cat|cats|kitten|pet|pets|hamster|rabbit", "pets", "pet owners",
	  { "Before it comes home", "Daily care", "Health" },
	  { "Ready on day 1: a bed, 2 bowls and a quiet corner.",
	    "Fixed meals, new food over 7 days, 15 minutes of play.",
	    "Deworm every 3 months; a day without food means the vet." } },
	{ "phone|laptop|camera|headphones|earbuds|keyboard|tablet|app|software|gadget|smartwatch|tech",
	  "tech", "people choosing a gadget",
	  { "The short answer", "What matters in daily use", "Buying advice" },
	  { "List the 2 or 3 things you do most; choose by those.",
	    "Battery, screen and feel beat benchmarks.",
	    "Wait for a sale or trade-in; check the 7-day return rule." } },
	{ "fitness|workout|running|run|yoga|gym|strength|stretch|stretching|pilates|fat loss|muscle",
	  "fitness", "beginners who want to move more",
	  { "Where to start", "The weekly plan", "Recovery" },
	  { "Start with 3 sessions of 30 minutes a week; form first.",
	    "Alternate strength and cardio; warm up 5, stretch 10.",
	    "Sleep 7 hours; rest a muscle 48 hours between sessions." } },
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
	goal = note_rules_kind_goal(note_rules_kind_of(topic), topic, 0);
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
	enum note_rules_kind kind;
	json_t *about;            /* the evidence's points from notes about the topic */
	int shaped;               /* the body has its kind's shape from those notes */
	char *feedback;           /* "" when none */
	json_t *banned;           /* words the feedback asks to leave out */
	json_t *words;            /* the topic's words that name its subject */
	json_t *said;             /* the corpus lines the note has used */
	uint64_t h;
	unsigned rot;             /* facts.attempt - 1: a rewrite turns every pick */
	struct buf body;
};

/* Titles of a note not in its kind's shape: they promise nothing. */
static const char *const note_rules_plain_titles[][5] = {
	{ "收藏！%s", "%s｜先收藏", "%s：要点整理", "关于%s的几个要点", "%s，先看这篇" },
	{ "%s: a starting point", "%s: the main points", "%s: where to begin", "Notes on %s", "%s, in short" },
};

/* The title: the topic and a hook of its kind, at most 20 characters (60
 * in English), cut between words; a note not in its kind's shape has a
 * plain one. A rewrite takes the next (and the next wording of the
 * opening). */
static char *note_rules_note_title(struct note_rules_note *n)
{
	size_t max = n->zh ? 20 : 60;
	const char *const *plain = note_rules_plain_titles[!n->zh];
	char *t;

	if (n->shaped)
		return note_rules_kind_title(n->kind, n->topic, n->zh, (unsigned)((n->h + n->rot) % 64), max);
	for (size_t i = 0; i < 5; i++) {
		t = xasprintf(plain[(n->rot + i) % 5], n->topic);
		if (!n->zh && *t >= 'a' && *t <= 'z')
			*t = (char)(*t - 'a' + 'A');
		if (phrase_chars(t) <= max && !wordcut_repeats(t))
			return t;
		free(t);
	}
	return note_rules_kind_title(n->kind, n->topic, n->zh, (unsigned)(n->h % 64), max);
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

/* The sections of a note of no category, written from the brief. */
static const char *const note_rules_general_heads[] = { "这篇想讲清楚什么", "你提到的要求", "What this note is for" };

/* A section: a heading and its lines, those with a banned word left out;
 * none when what is left names nothing concrete (note_rules_reader.h).
 * Returns whether anything was written. */
static int note_rules_section(struct note_rules_note *n, size_t *no, const char *head,
			   const char *const *lines, size_t nlines)
{
	static const char *const numbers[] = { "一", "二", "三", "四", "五", "六" };
	size_t kept = 0;

	struct buf said;
	int concrete;

	buf_init(&said, PHRASE_TEXT_MAX);
	for (size_t i = 0; i < nlines; i++)
		if (lines[i] && *lines[i] && !note_rules_banned(n, lines[i])) {
			kept++;
			if (!note_rules_reader_aside(lines[i], strlen(lines[i])))
				buf_printf(&said, "%s\n", lines[i]);
		}
	/* A section that names nothing concrete is one a reader skips. */
	concrete = note_rules_reader_concrete(said.data);
	buf_free(&said);
	/* The general template's purpose is written as it is: there is nothing else. */
	for (size_t i = 0; i < OFFLINE_N(note_rules_general_heads); i++)
		concrete |= head == note_rules_general_heads[i];
	if (kept == 0 || !concrete || note_rules_banned(n, head) || *no >= OFFLINE_N(numbers))
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
	const json_t *points = n->about;
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
 * groups, each attributed; with titled, only of notes whose heading names
 * the topic. Returns the groups written. */
static size_t note_rules_note_points(struct note_rules_note *n, size_t *no, int titled)
{
	const json_t *points = n->about;
	size_t i, groups = 0, np = json_array_size(points);
	json_t *done = json_array();   /* the sections' headings */

	/* A rewrite (attempt 2, 3…) starts from another note's points. */
	for (i = 0; i < np; i++) {
		const json_t *p = json_array_get(points, (i + n->rot) % np);
		char *head = note_rules_source_head(json_string_value(json_object_get(p, "source")) ?: "");
		const char *lines[5] = { 0 };
		size_t nl;

		if (groups < 3 && *head && !note_rules_alike_any(done, head, NOTE_RULES_HEADS_ALIKE) &&
		    (!titled || phrase_has_any(head, n->words))) {
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

/* The note as its kind's rules see it. */
static struct note_rules_kind_note note_rules_note_kind(const struct note_rules_note *n)
{
	struct note_rules_kind_note k = { n->kind, n->topic, n->zh, n->words, n->about, n->banned, n->rot };

	return k;
}

/* The opening: what the note is and who it is for (unless the feedback
 * banned a word of the audience: 不要提宠物 and 养宠物的铲屎官), and when no
 * note about the topic could be quoted, that it says so. */
static void note_rules_note_opening(struct note_rules_note *n, size_t sources, int shaped)
{
	const char *who = phrase_str(n->brief, "audience");
	struct note_rules_kind_note k = note_rules_note_kind(n);

	if (who == NULL)
		who = n->zh ? n->cat->audience : n->en ? n->en->audience : "anyone curious about it";
	if (note_rules_banned(n, who))
		who = NULL;
	note_rules_kind_opening(&n->body, &k, sources, shaped, who);
}


/* A section of the kind of topic's own advice, its heading naming the
 * topic ("马甲线：训练安排", "Set the goal: study plan"): advice any
 * topic of the kind could get says whose it is. */
static void note_rules_cat_section(struct note_rules_note *n, size_t *no, const char *head, const char *const *line)
{
	char *label = note_rules_kind_label(n->topic, n->words, n->zh, !n->zh);
	char *h = n->zh ? xasprintf("%s：%s", label, head) : xasprintf("%s: %s", head, label);

	note_rules_section(n, no, h, line, 1);
	free(h);
	free(label);
}

/* Without evidence: the kind of topic's own advice, or the brief. */
static void note_rules_note_from_brief(struct note_rules_note *n, size_t *no)
{
	const json_t *cons = json_object_get(n->brief, "constraints");
	const char *lines[2] = { 0 };
	size_t i;

	if (!n->zh) {
		for (i = 0; n->en && i < 3; i++)
			note_rules_cat_section(n, no, n->en->heads[i], &n->en->points[i]);
		if (n->en == NULL) {
			lines[0] = phrase_str(n->brief, "goal");
			note_rules_section(n, no, note_rules_general_heads[2], lines, 1);
		}
		return;
	}
	if (n->cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1]) {
		for (i = 0; i < 4; i++)   /* a rewrite in another order */
			note_rules_cat_section(n, no, n->cat->heads[(i + n->rot) % 4], &n->cat->points[(i + n->rot) % 4]);
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
	static const char *const zh[] = { NULL, "先收藏，用之前对照着勾一遍；你还会加什么？评论区补充～",
		"照着做一遍，做好了评论区交作业～", "先收藏，出发前再翻一遍；你会怎么排？评论区聊聊～",
		"你会怎么选？评论区聊聊～", "先收藏，照着练一周再回来对照；卡在哪一步评论区说说～" };
	static const char *const en[] = { "Which of these would you try first? Tell me in the comments.",
		"Save it for the day before; what would you add? Tell me in the comments.",
		"Try it once and tell me in the comments how it came out.",
		"Save it for the trip; how would you plan it? Tell me in the comments.",
		"Which would you choose? Tell me in the comments.",
		"Save it and try it for a week; tell me in the comments where you got stuck." };
	const char *tone = phrase_str(n->brief, "tone");

	if (!n->zh) {
		buf_adds(&n->body, en[n->kind < OFFLINE_N(en) ? n->kind : 0]);
		return;
	}
	if (n->kind != NOTE_RULES_KIND_EXPERIENCE && n->kind < OFFLINE_N(zh)) {
		buf_adds(&n->body, zh[n->kind]);
		return;
	}
	if (tone == NULL)
		tone = n->cat->tone;
	if (words_match_any(tone, "干货|专业|客观|实用|利落|真诚"))
		buf_adds(&n->body, "先收藏，用的时候翻出来对照着做。");
	else
		buf_adds(&n->body, "你最想先试哪一条？评论区聊聊～");
}

/* A note of experience: the points of the notes about the topic grouped
 * by the note they come from, the category's advice after them; without
 * any, the category's sections. Returns the notes quoted. */
static size_t note_rules_note_experience(struct note_rules_note *n)
{
	size_t no = 0, sources;

	/* Notes whose title names the topic head the sections when they can:
	 * one about it by a tag only (新手养猫清单 for 带猫咪打疫苗) heads a
	 * section that never names it. */
	sources = n->zh ? note_rules_note_points(n, &no, 1) : 0;
	if (n->zh && sources == 0)
		sources = note_rules_note_points(n, &no, 0);
	/* Too few notes for three sections: the kind of topic's advice adds
	 * the rest, its last (the pitfalls) first. */
	for (size_t i = 0; sources && n->cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1] && i < 4 &&
	     (no < 3 || i == 0); i++)
		note_rules_cat_section(n, &no, n->cat->heads[(i + 3) % 4], &n->cat->points[(i + 3) % 4]);
	if (sources == 0)
		note_rules_note_from_brief(n, &no);
	return sources;
}

static void note_rules_note_body(struct note_rules_note *n)
{
	size_t sources;
	int shaped = 1;
	struct buf head = n->body, rest;
	struct note_rules_kind_note k = note_rules_note_kind(n);

	/* The sections first, to know whether the evidence had any. */
	buf_init(&n->body, PHRASE_TEXT_MAX);
	if (n->kind == NOTE_RULES_KIND_EXPERIENCE)
		sources = note_rules_note_experience(n);
	else
		note_rules_kind_body(&n->body, &k, &sources, &shaped);
	n->shaped = shaped && sources;
	note_rules_note_closing(n);
	rest = n->body;
	n->body = head;
	note_rules_note_opening(n, sources, shaped);
	buf_adds(&n->body, rest.data);
	buf_free(&rest);
}

/* Whether a tag cut out of the topic starts or ends inside one of its
 * words (#周末去莫 of 周末去莫干山). */
static int note_rules_tag_cut(const char *topic, const char *tag)
{
	const char *at = strstr(topic, tag);

	return at && (!wordcut_at_boundary(topic, (size_t)(at - topic)) ||
		      !wordcut_at_boundary(topic, (size_t)(at - topic) + strlen(tag)));
}

static void note_rules_tag_add(struct note_rules_note *n, json_t *tags, const char *s)
{
	while (s && *s == '#')
		s++;
	if (json_array_size(tags) < 8 && s && phrase_chars(s) <= 12 && !note_rules_banned(n, s) &&
	    !note_rules_tag_cut(n->topic, s))
		phrase_add_unique(tags, s);
}

/* Two tags of the notes about the topic (the evidence's popular tags when
 * its points do not say theirs). */
static void note_rules_about_tags(struct note_rules_note *n, json_t *tags)
{
	size_t i, j, added = 0, before;
	json_t *p, *v;

	json_array_foreach(n->about, i, p)
		json_array_foreach(json_object_get(p, "tags"), j, v)
			if (added < 2 && json_is_string(v)) {
				before = json_array_size(tags);
				note_rules_tag_add(n, tags, json_string_value(v));
				added += json_array_size(tags) > before;
			}
	if (added == 0 && json_array_size(n->about))
		json_array_foreach(json_object_get(n->evidence, "tags"), i, v)
			if (i < 2)
				note_rules_tag_add(n, tags, json_string_value(v));
}

/* Fewer than three tags: the topic's other words (周末, 清单; weekend,
 * guide) make up the rest, whole words of the topic. */
static void note_rules_weak_tags(struct note_rules_note *n, json_t *tags)
{
	json_t *all = note_rules_topic_subject(n->topic, 1), *v;
	size_t i;

	json_array_foreach(all, i, v)
		if (json_array_size(tags) < 3 && phrase_chars(json_string_value(v)) >= 2)
			note_rules_tag_add(n, tags, json_string_value(v));
	json_decref(all);
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
		note_rules_weak_tags(n, tags);
		return tags;
	}
	if (n->cat != &note_rules_cats[OFFLINE_N(note_rules_cats) - 1])
		note_rules_tag_add(n, tags, n->cat->tag);
	if (json_is_true(json_object_get(n->evidence, "covered")))
		note_rules_about_tags(n, tags);
	note_rules_weak_tags(n, tags);
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
/* p past the English articles and possessives that start it ("the ",
 * "any ", "my "…): what a removal names is the word after them. */
static const char *note_rules_skip_articles(const char *p)
{
	static const char *const arts[] = { "the ", "a ", "an ", "any ", "my ", "our ", "your ", "its " };
	int again = 1;

	while (again) {
		again = 0;
		for (size_t i = 0; i < OFFLINE_N(arts); i++)
			if (strncasecmp(p, arts[i], strlen(arts[i])) == 0) {
				p += strlen(arts[i]);
				again = 1;
			}
	}
	return p;
}

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

			/* An English ask starts a word ("no " is not the end of "piano "),
			 * and its object is the word after an article ("the price"). */
			if (*asks[i] >= 'a' && *asks[i] <= 'z' && p > feedback && isalpha((unsigned char)p[-1])) {
				p += strlen(asks[i]);
				continue;
			}
			p += strlen(asks[i]);
			if (*asks[i] >= 'a' && *asks[i] <= 'z')
				p = note_rules_skip_articles(p);
			while (p[len] && !strchr(stops, p[len]) && !note_rules_starts_any(p + len, wide, OFFLINE_N(wide)))
				len++;
			if (len == 0)
				continue;
			w = xstrndup(p, len);
			phrase_add_unique(banned, w);
			/* A kind's name (宠物, 旅行) brings its words; one of its words
			 * (跳绳) is only itself. */
			for (size_t c = 0; c + 1 < OFFLINE_N(note_rules_cats); c++)
				if (strcmp(note_rules_cats[c].tag, w) == 0 ||
				    (strncmp(note_rules_cats[c].keys, w, strlen(w)) == 0 &&
				     note_rules_cats[c].keys[strlen(w)] == '|')) {
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
	char *title;

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
	n.kind = note_rules_kind_of(n.topic);
	n.about = note_rules_kind_about(json_object_get(n.evidence, "points"), n.words);
	n.said = json_array();
	n.h = phrase_hash(n.topic, n.feedback);
	if (json_integer_value(json_object_get(facts, "attempt")) > 1)
		n.rot = (unsigned)(json_integer_value(json_object_get(facts, "attempt")) - 1) % 64;
	buf_init(&n.body, PHRASE_TEXT_MAX);
	note_rules_note_body(&n);
	title = note_rules_note_title(&n);
	j = json_pack("{s:s, s:s, s:o}", "title", title, "body", n.body.data, "tags",
		      note_rules_note_tags(&n));
	free(title);
	free(n.topic);
	free(n.feedback);
	json_decref(n.banned);
	json_decref(n.said);
	json_decref(n.words);
	json_decref(n.about);
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
	enum note_rules_kind kind;
	json_t *list, *j, *heads;

	if (topic == NULL)
		return NULL;
	list = note_rules_note_templates(topic);
	/* The chosen one has the sections the writer gives its kind of note. */
	kind = note_rules_kind_of(topic);
	heads = note_rules_kind_heads(kind, strcmp(text_lang(topic), "zh") == 0);
	json_object_set_new(json_array_get(list, 0), "kind", json_string(note_rules_kind_name(kind)));
	if (heads)
		json_object_set_new(json_array_get(list, 0), "headings", heads);
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
