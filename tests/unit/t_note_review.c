/* The note review read as a reader reads a note, through the offline
 * provider's ops as the workflow calls it, as tables: what counts as
 * concrete (real lines of the notes corpus and of the offline writer);
 * the parts of a body judged one by one; good drafts of each kind
 * (checklist, recipe, trip, comparison, how-to, English) that pass, and
 * drafts a reader would put down that never pass: hollow sections, a
 * section off the topic, two lines alike, the feedback contradicted
 * (a word left in, longer after 太长了, no list after 列个清单); the
 * person's own paragraphs named as theirs with advice, never to replace;
 * the brief's keywords the person asked to leave out not counted as
 * missing; English threads reviewed in English throughout; and the same
 * checks alone (review_checks) bounding a model's scores. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "noteask.h"
#include "prov/prov.h"
#include "text/script.h"
#include "text/seg.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"
#include "wf/note/note_rules_reader.h"

static double num(const json_t *j, const char *k)
{
	return json_number_value(json_object_get(j, k));
}

static double dim(const json_t *j, const char *k)
{
	return num(json_object_get(j, "scores"), k);
}

/* The strings of list joined, for messages and searches. The caller frees it. */
static char *joined(const json_t *list)
{
	char *s = json_dumps(list, JSON_COMPACT);

	return s ? s : strdup("");
}

/* ---- concrete ---- */

static const struct { const char *line; int concrete; } concrete_cases[] = {
	/* the notes corpus (etc/notes.json): concrete */
	{ "人均100元吃得很饱，分量足，老板还会送小菜。", 1 },
	{ "主粮换粮要七天过渡，新旧粮按比例慢慢替换，不然容易软便。", 1 },
	{ "从公交总站出来步行十分钟就到，早上八点前人最少，樱花沿着步道开了一整排。", 1 },
	{ "老街一定要早上去，九点以后旅行团就到了，拍照全是人头。", 1 },
	{ "出门包里放好尿不湿、湿巾、备用衣服和小零食，再带一个安抚玩具。", 1 },
	{ "调料比例记住：两勺生抽、一勺蚝油、半勺糖，基本不会出错。", 1 },
	{ "自制鸡胸肉干：切薄片，烤箱八十度烘两个小时，不加任何调料。", 1 },
	{ "疫苗一共打三针，每针间隔三到四周，打完一周内不要洗澡。", 1 },
	{ "别熬夜，睡够七个小时，第二天的记忆效果差很多。", 1 },
	{ "第一天建议住在古城附近，到哪都方便，地铁两站就是老城区。", 1 },
	{ "看成分表前五位，那才是主要成分，营销词看看就好。", 1 },
	{ "旧手机可以当监控摄像头或者电子相框，装个App就行。", 1 },
	{ "猫砂盆要放在安静的角落，和食盆水盆分开，猫咪才愿意用。", 1 },
	{ "出租屋不能打孔就用无痕挂钩和伸缩杆，退租也不留痕迹。", 1 },
	{ "底妆前用保湿喷雾压一压，粉底少量多次，用湿的美妆蛋拍开。", 1 },
	{ "交通卡直接用手机开通，公交地铁都能刷，比买单程票省事。", 1 },
	{ "绿萝、龟背竹、虎皮兰都很好养，一周浇一次水就行。", 1 },
	{ "掉毛季每天梳毛五分钟，家里地上的毛少了一大半。", 1 },
	/* the offline writer's template lines: advice any topic could get */
	{ "提前看好天气和开放时间，门票尽量线上预约。", 0 },
	{ "早上光线柔和、人也少，是出片的好时候。", 0 },
	{ "食材不求多，新鲜是第一位，调料提前备好就不会手忙脚乱。", 0 },
	{ "火候和顺序最关键，难熟的先下锅，一步一步来。", 0 },
	{ "出锅前尝一下再调味，一点点糖就能把鲜味提起来。", 0 },
	{ "配一道清爽的小菜或饮品，满足感翻倍。", 0 },
	{ "把大目标拆成每周能完成的小目标，完成一个划掉一个。", 0 },
	{ "按自己的主要用途来选，参数够用就好。", 0 },
	{ "等大促或以旧换新更划算，买前看清售后政策。", 0 },
	{ "每个孩子节奏不同，别急着和别人家比较。", 0 },
	{ "用品挑安全、好清洗的，不必一次买齐，缺什么再补。", 0 },
	{ "它能实实在在解决一些日常的小麻烦。", 0 },
	{ "从最简单的一步开始，边做边调整。", 0 },
	{ "找到适合自己的节奏最重要。", 0 },
	{ "一、出发前准备\n提前看好天气和开放时间，门票尽量线上预约。", 0 },
	/* lines the offline writer also has, concrete */
	{ "按区域把地点串起来，一天两三个点就够，不赶路才玩得开心。", 1 },
	{ "先备好窝、食盆水盆和猫砂盆或尿垫，给它一个能躲起来的角落。", 1 },
	{ "专注 25 分钟再休息 5 分钟，比硬撑效率高。", 1 },
	/* lists and steps */
	{ "二、步骤\n1. 焯水\n2. 炒糖色\n3. 小火炖", 1 },
	{ "第一步：先把肉焯水，捞出洗净。", 1 },
	{ "（出自笔记《第一次去泉州》，954 赞）", 0 },
	/* English */
	{ "A three-season tent under 2 kg costs about $150.", 1 },
	{ "Keep to two or three places a day, so nothing is rushed.", 1 },
	{ "Pack a pot, a mug, a spoon and a lighter.", 1 },
	{ "Book the ferry to Miyajima the day before.", 1 },
	{ "Check the weather and opening hours, and book tickets online where you can.", 0 },
	{ "Go early in the morning: the light is soft and the queues are short.", 0 },
	{ "1. Before you go\nFind the rhythm that works for you.", 0 },
	{ "1. Must-haves: what you cannot do without.\n2. Extras: by weather, people and days.\n"
	  "3. Skip what you can buy or rent there.", 0 },
	{ "- tent\n- sleeping bag\n- headlamp", 1 },
};

static void test_concrete(void)
{
	for (size_t i = 0; i < sizeof concrete_cases / sizeof concrete_cases[0]; i++)
		is_int(note_rules_reader_concrete(concrete_cases[i].line), concrete_cases[i].concrete,
		       "concrete: %s", concrete_cases[i].line);
}

/* ---- units ---- */

static const struct { const char *body, *labels; } unit_cases[] = {
	{ "开头一句。\n\n一、出发前准备\n提前看好天气。\n\n二、路线\n一天两三个点。\n\n你最想先试哪一条？评论区聊聊～",
	  "[\"一、出发前准备\",\"二、路线\"]" },
	{ "一、学生党手机怎么选\n预算3000元的话，优先看处理器。\n\n（出自笔记《学生党手机怎么选》，13624 赞）\n\n"
	  "二、购买建议\n等大促更划算。",
	  "[\"一、学生党手机怎么选\",\"二、购买建议\"]" },
	{ "红烧肉我家这样做，肥而不腻，第一次做也不会失手。\n\n材料：五花肉 500 克，冰糖 30 克，生抽 2 勺。\n\n"
	  "1. 五花肉切块，冷水下锅，焯水 3 分钟，捞出洗净。\n2. 小火炒冰糖到枣红色。",
	  "[\"材料：五花肉 500 克…\",\"1. 五花肉切块，冷水下锅…\"]" },
};

static void test_units(void)
{
	for (size_t i = 0; i < sizeof unit_cases / sizeof unit_cases[0]; i++) {
		json_t *u = note_rules_reader_units(unit_cases[i].body), *labels = json_array(), *x;
		char *got;
		size_t k;

		json_array_foreach(u, k, x)
			json_array_append(labels, json_object_get(x, "label"));
		got = joined(labels);
		is_str(got, unit_cases[i].labels, "units %zu: %s", i, got);
		free(got);
		json_decref(labels);
		json_decref(u);
	}
}

/* ---- drafts ---- */

/* A draft's facts as the review gets them: its paragraphs, image plans
 * bound to the headed ones in one style, all images made; more: further
 * facts (a JSON object's text, may be NULL). New reference. */
static json_t *facts_for(const char *topic, const char *title, const char *body, const char *tags,
			 const char *keywords, const char *more)
{
	json_t *pars = note_paragraphs(body), *plans = json_array(), *images = json_array(), *p, *f;
	size_t i, seq = 0;

	json_array_foreach(pars, i, p) {
		const char *h = json_string_value(json_object_get(p, "heading"));
		char prompt[512];

		if (!*h || seq == 3)
			continue;
		snprintf(prompt, sizeof prompt, "%s，清新日系摄影，柔和自然光", h);
		seq++;
		json_array_append_new(plans, json_pack("{s:I, s:O, s:s}", "sequence", (json_int_t)seq,
						       "paragraphId", json_object_get(p, "id"), "prompt", prompt));
		json_array_append_new(images, json_pack("{s:I, s:s}", "sequence", (json_int_t)seq, "status", "done"));
	}
	f = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:[]}", "topic", topic, "title", title,
		      "body", body, "tags", json_loads(tags, 0, NULL), "keywords", json_loads(keywords, 0, NULL),
		      "paragraphs", pars, "imagePlans", plans, "images", images, "feedback");
	if (more) {
		json_t *m = json_loads(more, 0, NULL);

		if (m)
			json_object_update(f, m);
		json_decref(m);
	}
	return f;
}

#define CAMPING_TOPIC "周末去莫干山露营装备清单"
#define CAMPING_GOOD "周末去莫干山露营，这份装备清单按睡、吃、穿分好了，照着带不会漏。\n\n" \
	"一、睡得好\n帐篷选三季帐，两人用 2 千克以内，入门款 300 元左右。\n睡袋看舒适温度，山里夜里 10 度上下，选 5 度的更稳。\n" \
	"防潮垫一定要带，充气垫 100 元起。\n\n" \
	"二、吃得上\n卡式炉加 2 罐气罐够一晚，套锅选 2 到 3 人的。\n保温箱装冰袋，肉和饮料能放一天。\n\n" \
	"三、穿和用\n冲锋衣、抓绒和速干衣分三层，早晚温差大。\n头灯、驱蚊液、充电宝放进随身包。\n\n" \
	"你还会带什么？评论区聊聊～"
/* The offline writer's draft for the same topic, as it was. */
#define CAMPING_HOLLOW "关于周末去莫干山露营装备清单，整理了几条实用的经验，特别适合爱出游的年轻人。\n\n" \
	"一、出发前准备\n提前看好天气和开放时间，门票尽量线上预约。\n\n" \
	"二、路线怎么排\n按区域把地点串起来，一天两三个点就够，不赶路才玩得开心。\n\n" \
	"三、拍照与打卡\n早上光线柔和、人也少，是出片的好时候。\n\n" \
	"四、避坑提醒\n热门时段排队久，尽量错峰出行，随身带水和充电宝。\n\n" \
	"先收藏，用的时候翻出来对照着做。"
#define RECIPE_TOPIC "红烧肉的家常做法"
#define RECIPE_GOOD "红烧肉我家这样做，肥而不腻，第一次做也不会失手。\n\n" \
	"一、用料\n五花肉 500 克，冰糖 30 克，生抽 2 勺，老抽 1 勺，料酒 2 勺，姜 3 片。\n\n" \
	"二、步骤\n1. 五花肉切块，冷水下锅焯水 3 分钟。\n2. 小火炒冰糖到枣红色，下肉翻炒上色。\n" \
	"3. 加热水没过肉，小火炖 60 分钟，大火收汁。\n\n" \
	"三、小窍门\n收汁的最后 2 分钟不停翻动，糖色才均匀不发苦。\n\n" \
	"你家红烧肉放不放八角？评论区聊聊～"
#define RECIPE_HOLLOW "关于红烧肉的家常做法，整理了几条实用的经验。\n\n" \
	"一、准备食材\n食材不求多，新鲜是第一位，调料提前备好就不会手忙脚乱。\n\n" \
	"二、关键步骤\n火候和顺序最关键，难熟的先下锅，一步一步来。\n\n" \
	"三、味道的小秘诀\n出锅前尝一下再调味，一点点糖就能把鲜味提起来。\n\n" \
	"你最想先试哪一条？评论区聊聊～"
#define TRIP_TOPIC "苏州三日游怎么安排"
#define TRIP_GOOD "苏州三日游，按天排好了，照着走不累也不赶。\n\n" \
	"一、第一天：古城\n上午拙政园，门票 70 元，8 点半开门就进，人最少。\n下午平江路，步行 10 分钟到观前街吃饭。\n\n" \
	"二、第二天：博物馆\n苏州博物馆免费，提前 7 天在小程序预约。\n晚上去山塘街，人均 80 元吃一顿苏帮菜。\n\n" \
	"三、第三天：太湖\n坐地铁加公交 1 个半小时到东山，租自行车沿湖骑一圈。\n\n" \
	"你会先去哪一站？评论区聊聊～"
#define PHONE_TOPIC "学生党手机怎么选"
#define PHONE_GOOD "学生党手机怎么选？按预算分三步，照着看不踩坑。\n\n" \
	"一、先定预算\n2000 元档看续航和屏幕，3000 元档处理器会好一截。\n\n" \
	"二、重点看三样\n处理器、内存和电池最要紧，外观和跑分其次。\n\n" \
	"三、买前看清\n大促和以旧换新能省 300 元左右，保修至少 1 年。\n\n" \
	"你现在用的是哪款？评论区聊聊～"
#define PHONE_QUANZHOU "学生党手机怎么选，我把相关的热门笔记翻了一遍。\n\n" \
	"一、学生党手机怎么选\n预算3000元的话，优先看处理器和内存，外观其次。\n" \
	"（出自笔记《学生党手机怎么选？3000元内推荐》，13624 赞）\n\n" \
	"二、手机摄影技巧\n拍照记得打开网格线，把主体放在三分线上，构图马上好看。\n\n" \
	"三、第一次去泉州\n老街一定要早上去，九点以后旅行团就到了，拍照全是人头。\n" \
	"交通卡直接用手机开通，公交地铁都能刷，比买单程票省事。\n" \
	"（出自笔记《第一次去泉州，这些坑千万别踩》，954 赞）\n\n" \
	"先收藏，用的时候翻出来对照着做。"
#define PHONE_EVIDENCE "{\"evidence\": [\"预算3000元的话，优先看处理器和内存，外观其次。\", " \
	"\"老街一定要早上去，九点以后旅行团就到了，拍照全是人头。\", " \
	"\"交通卡直接用手机开通，公交地铁都能刷，比买单程票省事。\"]}"
#define STUDY_TOPIC "考研英语阅读怎么提分"
#define STUDY_GOOD "考研英语阅读提分，我只做了三件事，两个月从 26 分到 36 分。\n\n" \
	"一、长难句\n每天拆 3 个长难句，先找主干，再看从句和插入语。\n\n" \
	"二、真题\n近十年真题做两遍，第一遍每篇限时 18 分钟。\n\n" \
	"三、错题复盘\n错题按题型分：细节题、推断题、主旨题，考前一周只看错题。\n\n" \
	"你现在阅读能拿几分？评论区聊聊～"
#define STUDY_GENERIC "考研英语阅读怎么提分？一次讲清楚。\n\n" \
	"一、先定目标\n把大目标拆成每周能完成的小目标，完成一个划掉一个。\n\n" \
	"二、长难句\n每天拆 3 个长难句，先找主干，再看从句和插入语。\n\n" \
	"三、阅读心态\n阅读找到适合自己的节奏最重要，别和别人比较。\n\n" \
	"你现在阅读能拿几分？评论区聊聊～"
#define TAGS_CAMPING "[\"露营\", \"莫干山\", \"装备清单\"]"
#define TAGS_RECIPE "[\"红烧肉\", \"家常菜\", \"美食\"]"
#define TAGS_TRIP "[\"苏州\", \"三日游\", \"旅行\"]"
#define TAGS_PHONE "[\"手机\", \"学生党\", \"数码\"]"
#define TAGS_STUDY "[\"考研英语\", \"阅读\", \"考研\"]"

struct draft_case {
	const char *name, *topic, *title, *body, *tags, *keywords, *more;
	int approved;
	double overall_max;       /* the overall at most this */
	const char *reason;       /* a failReason has this, or NULL */
	const char *named;        /* and names this, or NULL */
	const char *not_named;    /* no failReason names this, or NULL */
};

static const struct draft_case draft_cases[] = {
	/* good drafts of each kind pass */
	{ "a checklist", CAMPING_TOPIC, "莫干山露营装备清单｜新手照着带", CAMPING_GOOD, TAGS_CAMPING,
	  "[\"露营\", \"装备\"]", NULL, 1, 1, NULL, NULL, NULL },
	{ "a recipe", RECIPE_TOPIC, "红烧肉家常做法｜肥而不腻", RECIPE_GOOD, TAGS_RECIPE, "[\"红烧肉\"]", NULL,
	  1, 1, NULL, NULL, NULL },
	{ "a trip day by day", TRIP_TOPIC, "苏州三日游｜按天排好了", TRIP_GOOD, TAGS_TRIP, "[\"苏州\"]", NULL,
	  1, 1, NULL, NULL, NULL },
	{ "a comparison", PHONE_TOPIC, "学生党手机怎么选｜3 步不踩坑", PHONE_GOOD, TAGS_PHONE, "[\"手机\"]", NULL,
	  1, 1, NULL, NULL, NULL },
	{ "a how-to", STUDY_TOPIC, "考研英语阅读｜两个月提 10 分", STUDY_GOOD, TAGS_STUDY,
	  "[\"考研\", \"英语\", \"阅读\"]", NULL, 1, 1, NULL, NULL, NULL },
	/* hollow and off the topic: never at the pass bar */
	{ "the offline writer's camping draft", CAMPING_TOPIC, "周末去莫干山露营装备清单，一篇讲清楚", CAMPING_HOLLOW,
	  TAGS_CAMPING, "[\"莫干山\", \"露营\", \"装备\", \"旅行\"]", NULL, 0, 0.69, "偏离主题",
	  "三、拍照与打卡", "四、避坑提醒" },
	{ "  ... its hollow section", CAMPING_TOPIC, "周末去莫干山露营装备清单，一篇讲清楚", CAMPING_HOLLOW,
	  TAGS_CAMPING, "[\"莫干山\", \"露营\", \"装备\", \"旅行\"]", NULL, 0, 0.69, "空泛", "一、出发前准备", NULL },
	{ "a hollow recipe", RECIPE_TOPIC, "红烧肉家常做法｜新手也能照做", RECIPE_HOLLOW, TAGS_RECIPE,
	  "[\"红烧肉\"]", NULL, 0, 0.69, "空泛", "二、关键步骤", NULL },
	{ "generic study tips among the subject's", STUDY_TOPIC, "考研英语阅读｜提分经验", STUDY_GENERIC, TAGS_STUDY,
	  "[\"考研\", \"英语\", \"阅读\"]", NULL, 0, 0.69, "偏离主题", "一、先定目标", "二、长难句" },
	{ "  ... and a hollow one", STUDY_TOPIC, "考研英语阅读｜提分经验", STUDY_GENERIC, TAGS_STUDY,
	  "[\"考研\", \"英语\", \"阅读\"]", NULL, 0, 0.69, "空泛", "三、阅读心态", "二、长难句" },
	{ "a section from a note on another topic", PHONE_TOPIC, "学生党手机怎么选｜亲测有用", PHONE_QUANZHOU,
	  TAGS_PHONE, "[\"手机\", \"数码\"]", PHONE_EVIDENCE, 0, 0.69, "偏离主题", "三、第一次去泉州",
	  "二、手机摄影技巧" },
	/* two lines alike anywhere, one line included */
	{ "two sentences alike in one line", TRIP_TOPIC, "苏州三日游｜按天排好了",
	  TRIP_GOOD "\n\n四、早去人少\n早上八点前到拙政园，人少好拍照，光线也柔和。早上八点前到狮子林，人少好拍照，光线也柔和。",
	  TAGS_TRIP, "[\"苏州\"]", NULL, 0, 1, "重复", "早上八点前到狮子林", NULL },
	/* the feedback contradicted */
	{ "longer after 太长了", CAMPING_TOPIC, "莫干山露营装备清单｜新手照着带", CAMPING_GOOD, TAGS_CAMPING,
	  "[\"露营\", \"装备\"]", "{\"feedback\": [\"太长了，精简一点\"], \"refused\": [{\"feedback\": "
	  "\"太长了，精简一点\", \"chars\": 150}]}", 0, 1, "比退回的那一稿", "太长了", NULL },
	{ "shorter than the refused draft after 太长了", CAMPING_TOPIC, "莫干山露营装备清单｜新手照着带", CAMPING_GOOD,
	  TAGS_CAMPING, "[\"露营\", \"装备\"]", "{\"feedback\": [\"太长了，精简一点\"], \"refused\": "
	  "[{\"feedback\": \"太长了，精简一点\", \"chars\": 900}]}", 1, 1, NULL, NULL, NULL },
	{ "no list after 列个清单", PHONE_TOPIC, "学生党手机怎么选｜3 步不踩坑", PHONE_GOOD, TAGS_PHONE,
	  "[\"手机\"]", "{\"feedback\": [\"列个清单吧，一条一条写\"]}", 0, 1, "没有列成清单", "列个清单", NULL },
	{ "a list after 分步骤写", RECIPE_TOPIC, "红烧肉家常做法｜肥而不腻", RECIPE_GOOD, TAGS_RECIPE,
	  "[\"红烧肉\"]", "{\"feedback\": [\"分步骤写\"]}", 1, 1, NULL, NULL, NULL },
	{ "a word left in after 不要提充电宝", CAMPING_TOPIC, "莫干山露营装备清单｜新手照着带", CAMPING_GOOD,
	  TAGS_CAMPING, "[\"露营\", \"装备\"]", "{\"feedback\": [\"不要提充电宝\"]}", 0, 1, "仍提到", "充电宝",
	  NULL },
};

static int reason_has(const json_t *j, const char *a, const char *b)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(j, "failReasons"), i, r)
		if (strstr(json_string_value(r), a) && (b == NULL || strstr(json_string_value(r), b)))
			return 1;
	return 0;
}

static void test_drafts(void)
{
	for (size_t i = 0; i < sizeof draft_cases / sizeof draft_cases[0]; i++) {
		const struct draft_case *k = &draft_cases[i];
		json_t *j = noteask_new("review", facts_for(k->topic, k->title, k->body, k->tags, k->keywords, k->more));
		char *why = joined(json_object_get(j, "failReasons"));

		ok(j && json_is_true(json_object_get(j, "approved")) == k->approved,
		   "review %s: %s (overall %.2f; %s)", k->name, k->approved ? "passes" : "sent back", num(j, "overall"), why);
		if (k->overall_max < 1)
			ok(num(j, "overall") <= k->overall_max && dim(j, "infoDensity") < 0.6,
			   "  ... overall %.2f under the pass bar, infoDensity %.2f", num(j, "overall"),
			   dim(j, "infoDensity"));
		if (k->reason)
			ok(reason_has(j, k->reason, k->named), "  ... a reason says %s and names %s", k->reason,
			   k->named ? k->named : "-");
		if (k->not_named)
			ok(!reason_has(j, k->reason, k->not_named), "  ... and never names %s", k->not_named);
		if (!k->approved)
			is_str(json_string_value(json_object_get(j, "targetAgent")), "writer_agent", "  ... back to the writer");
		free(why);
		json_decref(j);
	}
}

/* ---- the person's own paragraphs ---- */

#define PERSON_RECIPE "红烧肉我家这样做，肥而不腻，第一次做也不会失手。\n\n" \
	"材料：五花肉 500 克，冰糖 30 克，生抽 2 勺，老抽 1 勺，料酒 2 勺，姜 3 片。\n\n" \
	"1. 五花肉切 3 厘米见方的块，冷水下锅，加料酒焯水 3 分钟，捞出洗净。\n" \
	"2. 锅里放 1 勺油，小火炒冰糖到枣红色，下肉翻炒 2 分钟上色。\n" \
	"3. 加生抽、老抽、姜葱八角，倒热水没过肉，大火烧开转小火炖 60 分钟。\n" \
	"4. 最后大火收汁 5 分钟，汤汁浓稠就出锅。"

static void test_mine(void)
{
	static const char mine[] = "三、我的心得\n找到适合自己的节奏最重要，别和别人比较。";
	char body[4096], more[1024];
	json_t *j, *s;
	size_t i;
	int replace = 0, advice = 0;

	snprintf(body, sizeof body, "%s\n\n%s", RECIPE_GOOD, mine);
	snprintf(more, sizeof more, "{\"mine\": [\"%s\"]}", "三、我的心得\\n找到适合自己的节奏最重要，别和别人比较。");
	j = noteask_new("review", facts_for(RECIPE_TOPIC, "红烧肉家常做法｜肥而不腻", body, TAGS_RECIPE, "[\"红烧肉\"]", more));
	ok(!json_is_true(json_object_get(j, "approved")) && num(j, "overall") < 0.7,
	   "a hollow paragraph the person wrote: still reviewed, under the bar (%.2f)", num(j, "overall"));
	ok(reason_has(j, "你写的", "三、我的心得") && reason_has(j, "原样保留", NULL),
	   "  ... the reason names it as theirs, kept as they wrote it");
	ok(!reason_has(j, "这几节", "三、我的心得"), "  ... not among the sections to fix");
	json_array_foreach(json_object_get(j, "suggestions"), i, s) {
		replace |= strstr(json_string_value(s), "三、我的心得") && strstr(json_string_value(s), "换成");
		advice |= strstr(json_string_value(s), "三、我的心得") && strstr(json_string_value(s), "不会被替换");
	}
	ok(!replace && advice, "  ... no suggestion asks to replace it, one advises the person");
	json_decref(j);
	/* A recipe the person wrote, full of numbers and steps, is not hollow. */
	j = noteask_new("review", facts_for(RECIPE_TOPIC, "红烧肉家常做法", PERSON_RECIPE, TAGS_RECIPE, "[\"红烧肉\"]",
		"{\"mine\": [\"材料：五花肉 500 克，冰糖 30 克，生抽 2 勺，老抽 1 勺，料酒 2 勺，姜 3 片。\"]}"));
	ok(!reason_has(j, "空泛", NULL) && !reason_has(j, "偏离主题", NULL) && !reason_has(j, "你写的", NULL),
	   "a recipe the person wrote with quantities and steps: neither hollow nor off the topic");
	json_decref(j);
}

/* ---- keywords the person asked to leave out ---- */

static void test_banned_keywords(void)
{
	static const char body[] = "春天去苏州，三天两晚刚刚好。\n\n一、住哪里\n住在平江路附近，步行 10 分钟到地铁。\n\n"
		"二、吃什么\n人均 80 元吃一顿苏帮菜，松鼠鳜鱼必点。\n\n三、怎么走\n第一天古城，第二天园林，第三天太湖。\n\n"
		"你会先去哪？评论区聊聊～";
	json_t *a = noteask_new("review", facts_for("春天去苏州旅行，带上家里的猫", "春天去苏州旅行｜三天两晚", body,
		"[\"苏州\", \"旅行\", \"春游\"]", "[\"苏州\", \"猫\", \"旅行\"]", "{\"feedback\": [\"不要提猫\"]}"));
	json_t *b = noteask_new("review", facts_for("春天去苏州旅行，带上家里的猫", "春天去苏州旅行｜三天两晚", body,
		"[\"苏州\", \"旅行\", \"春游\"]", "[\"苏州\", \"旅行\"]", "{\"feedback\": [\"不要提猫\"]}"));

	ok(dim(a, "infoDensity") == dim(b, "infoDensity"),
	   "不要提猫: the keyword 猫 is not counted as missing (infoDensity %.2f, %.2f without it)",
	   dim(a, "infoDensity"), dim(b, "infoDensity"));
	ok(json_is_true(json_object_get(a, "approved")), "  ... and the trip without the cat passes (%.2f)",
	   num(a, "overall"));
	json_decref(a);
	json_decref(b);
}

/* ---- English ---- */

#define EN_GOOD "All the gear for a weekend of camping, sorted so nothing stays at home.\n\n" \
	"1. Sleeping\nA three-season tent under 2 kg costs about $150.\nPick a sleeping bag rated to 5°C and a foam pad.\n\n" \
	"2. Cooking\nA small gas stove with two canisters lasts the weekend.\nPack a pot, a mug and a spoon per person.\n\n" \
	"3. Clothes and light\nLayer a fleece, a rain jacket and quick-dry shirts.\nBring a headlamp and spare batteries.\n\n" \
	"What would you add? Tell me in the comments."
/* The offline writer's English draft for the topic, as it was. */
/* On the topic, and saying nothing a reader can use. */
#define EN_VAGUE "All the gear for a weekend of camping, sorted so nothing stays at home.\n\n" \
	"1. Sleeping\nA three-season tent under 2 kg costs about $150.\n\n" \
	"2. Camping comfort\nFind the rhythm that works for you and keep it simple.\n\n" \
	"3. Cooking\nA small gas stove with two canisters lasts the weekend.\n\n" \
	"What would you add? Tell me in the comments."
/* A frame of the kind with nothing in it: lists of long vague lines, a
 * heading's number that the section never gives. */
#define EN_FRAME "A weekend camping gear checklist, laid out from the topic itself.\n\n" \
	"The checklist: a weekend camping gear\n1. Must-haves: what you cannot do without.\n" \
	"2. Extras: by weather, people and days.\n3. Skip what you can buy or rent there.\n\n" \
	"Each item: 3 notes\n1. Why you need it.\n2. How many, by days or people.\n" \
	"3. A rough price, to add up the budget.\n\n" \
	"Save it for the day before; what would you add? Tell me in the comments."
#define EN_HOLLOW "A weekend camping gear checklist, written for anyone planning a trip.\n\n" \
	"1. Before you go\nCheck the weather and opening hours, and book tickets online where you can.\n\n" \
	"2. Planning the route\nGroup the places by area and keep to two or three a day, so nothing is rushed.\n\n" \
	"3. Avoiding the crowds\nGo early in the morning: the light is soft and the queues are short.\n\n" \
	"Which of these would you try first? Tell me in the comments."

static const struct {
	const char *name, *body, *more;
	int approved;
	const char *reason, *named;
} english_cases[] = {
	{ "a good English checklist", EN_GOOD, NULL, 1, NULL, NULL },
	{ "the offline writer's English draft", EN_HOLLOW, NULL, 0, "Off the topic", "2. Planning the route" },
	{ "  ... and the crowds", EN_HOLLOW, NULL, 0, "Off the topic", "3. Avoiding the crowds" },
	{ "a vague section on the topic", EN_VAGUE, NULL, 0, "Hollow sections", "2. Camping comfort" },
	{ "a frame with nothing in it", EN_FRAME, NULL, 0, "Hollow sections", "Each item: 3 notes" },
	{ "a word left in", EN_GOOD, "{\"feedback\": [\"no headlamp please\"]}", 0, "still mentions", "headlamp" },
	{ "no list after asking for one", EN_GOOD, "{\"feedback\": [\"make it a checklist\"]}", 0, "has no list",
	  "make it a checklist" },
	{ "longer after too long", EN_GOOD, "{\"feedback\": [\"too long\"], \"refused\": [{\"feedback\": "
	  "\"too long\", \"chars\": 200}]}", 0, "more than the one you sent back", "too long" },
};

static void test_english(void)
{
	for (size_t i = 0; i < sizeof english_cases / sizeof english_cases[0]; i++) {
		json_t *j = noteask_new("review", facts_for("a weekend camping gear checklist", "Gear for 2 nights: camping",
			english_cases[i].body, "[\"camping\", \"gear\", \"outdoors\"]", "[\"camping\", \"gear\"]",
			english_cases[i].more));
		char *r = joined(json_object_get(j, "failReasons")), *s = joined(json_object_get(j, "suggestions"));

		ok(j && json_is_true(json_object_get(j, "approved")) == english_cases[i].approved,
		   "English, %s: %s (%.2f; %s)", english_cases[i].name, english_cases[i].approved ? "passes" : "sent back",
		   num(j, "overall"), r);
		if (english_cases[i].reason)
			ok(reason_has(j, english_cases[i].reason, english_cases[i].named), "  ... a reason says %s%s%s",
			   english_cases[i].reason, english_cases[i].named ? " and names " : "",
			   english_cases[i].named ? english_cases[i].named : "");
		ok(!text_has_han(r) && !text_has_han(s) && !text_has_han(json_string_value(json_object_get(j, "feedback")) ?: ""),
		   "  ... every reason, suggestion and the verdict in English (%s)", s);
		free(r);
		free(s);
		json_decref(j);
	}
}

/* ---- the checks alone bound a model's scores ---- */

static void test_checks(void)
{
	json_t *bad = noteask_new("review_checks", facts_for(CAMPING_TOPIC, "周末去莫干山露营装备清单", CAMPING_HOLLOW,
		TAGS_CAMPING, "[\"露营\"]", NULL));
	json_t *good = noteask_new("review_checks", facts_for(CAMPING_TOPIC, "莫干山露营装备清单｜新手照着带", CAMPING_GOOD,
		TAGS_CAMPING, "[\"露营\"]", NULL));
	json_t *quanzhou = noteask_new("review_checks", facts_for(PHONE_TOPIC, "学生党手机怎么选", PHONE_QUANZHOU, TAGS_PHONE,
		"[\"手机\"]", PHONE_EVIDENCE));

	ok(num(json_object_get(bad, "caps"), "infoDensity") < 0.6 && num(bad, "overallCap") < 0.7 &&
	   json_array_size(json_object_get(bad, "failReasons")) > 0,
	   "review_checks on a hollow, off-topic draft: infoDensity capped at %.2f, the overall at %.2f",
	   num(json_object_get(bad, "caps"), "infoDensity"), num(bad, "overallCap"));
	ok(json_object_get(good, "overallCap") == NULL && json_object_size(json_object_get(good, "caps")) == 0 &&
	   json_array_size(json_object_get(good, "failReasons")) == 0,
	   "  ... on a good checklist: nothing capped, no reason");
	ok(num(quanzhou, "overallCap") < 0.7 && reason_has(quanzhou, "偏离主题", "三、第一次去泉州"),
	   "  ... a 泉州 section in a note on 手机: the overall capped at %.2f, the section named",
	   num(quanzhou, "overallCap"));
	json_decref(bad);
	json_decref(good);
	json_decref(quanzhou);
}

/* ---- repeats ---- */

static const struct { const char *body; size_t n; const char *first; } repeat_cases[] = {
	{ "一、出发前准备\n帐篷 300 元。\n\n一、出发前准备\n睡袋 200 元。", 1, "一、出发前准备" },
	{ "早上八点前到断桥，人少好拍照，光线也柔和。早上八点前到白堤，人少好拍照，光线也柔和。", 1,
	  "早上八点前到白堤，人少好拍照，光线也柔和。" },
	{ "（出自笔记《第一次去泉州》，954 赞）\n（出自笔记《第一次去泉州》，954 赞）", 0, NULL },
	{ "帐篷选三季帐，入门款 300 元左右。\n睡袋看舒适温度，选 5 度的更稳。", 0, NULL },
};

static void test_repeats(void)
{
	for (size_t i = 0; i < sizeof repeat_cases / sizeof repeat_cases[0]; i++) {
		json_t *r = note_rules_reader_repeats(repeat_cases[i].body, 10);

		is_int(json_array_size(r), repeat_cases[i].n, "repeats %zu: %zu", i, repeat_cases[i].n);
		if (repeat_cases[i].first)
			is_str(json_string_value(json_array_get(r, 0)), repeat_cases[i].first, "  ... the line said again");
		json_decref(r);
	}
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[512] = "";

	msg_catalogue_add(note_msgs, note_nmsgs); /* as registering the workflow does */
	snprintf(path, sizeof path, "%s/etc/words.txt", top && *top ? top : ".");
	ok(text_seg_load(path, err, sizeof err) == 0, "etc/words.txt loads (%s)", err);
	test_concrete();
	test_units();
	test_drafts();
	test_mine();
	test_banned_keywords();
	test_english();
	test_checks();
	test_repeats();
	return tap_done();
}
