/* The image plans pause's feedback, as tables: a reject's words split into
 * items (move, swap, drop, redraw, style, tone, count, other), each item
 * made on the plans or declined with its reason (no fifth picture, the
 * last one, no paragraph left), pictures named as the person saw them,
 * a model's plans that already made a change left as they are, the cover
 * always first; the edits of a prompt (style, tone, subject, cover); the
 * layout's entries following their pictures; the cover line and captions
 * cut between words; and which requests name no subject. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "text/seg.h"
#include "util/buf.h"
#include "wf/note/note_plans_feedback.h"
#include "wf/note/note_rules.h"
#include "wf/note/note_vague.h"
#include "wf/note/note.h"

/* ---- splitting ---- */

/* An item as a short line: "reorder 3>1", "swap 2,1", "drop 3", "drop
 * last", "describe 1 一只橘猫", "style 水彩", "style !水彩", "tone 暖色调",
 * "count +1", "count =2", "other 不好看"; items joined by " | ". */
static void item_line(struct buf *b, const json_t *it)
{
	const char *kind = json_string_value(json_object_get(it, "kind"));
	int which = (int)json_integer_value(json_object_get(it, "which"));
	char w[16];

	if (which == NOTE_PF_LAST)
		snprintf(w, sizeof w, "last");
	else if (which == NOTE_PF_COVER)
		snprintf(w, sizeof w, "cover");
	else
		snprintf(w, sizeof w, "%d", which);
	if (b->len)
		buf_adds(b, " | ");
	if (strcmp(kind, "reorder") == 0 && json_object_get(it, "swap"))
		buf_printf(b, "swap %d,%d", (int)json_integer_value(json_array_get(json_object_get(it, "swap"), 0)),
			   (int)json_integer_value(json_array_get(json_object_get(it, "swap"), 1)));
	else if (strcmp(kind, "reorder") == 0)
		buf_printf(b, "reorder %d>%d", (int)json_integer_value(json_object_get(it, "from")),
			   (int)json_integer_value(json_object_get(it, "to")));
	else if (strcmp(kind, "drop") == 0)
		buf_printf(b, "drop %s", w);
	else if (strcmp(kind, "describe") == 0)
		buf_printf(b, "describe %s %s", w, json_string_value(json_object_get(it, "subject")));
	else if (strcmp(kind, "style") == 0 && json_object_get(it, "tone"))
		buf_printf(b, "tone %s", note_rules_plan_tone_label((int)json_integer_value(json_object_get(it, "tone")), 0));
	else if (strcmp(kind, "style") == 0)
		buf_printf(b, "style %s%s", json_is_true(json_object_get(it, "refused")) ? "!" : "",
			   note_rules_plan_style_label((int)json_integer_value(json_object_get(it, "style")), 0));
	else if (strcmp(kind, "count") == 0 && json_object_get(it, "add"))
		buf_printf(b, "count +%d", (int)json_integer_value(json_object_get(it, "add")));
	else if (strcmp(kind, "count") == 0)
		buf_printf(b, "count =%d", (int)json_integer_value(json_object_get(it, "total")));
	else
		buf_printf(b, "%s %s", kind, json_string_value(json_object_get(it, "text")));
}

static const struct {
	const char *feedback, *want;
} splits[] = {
	{ "把第三张放到第一张", "reorder 3>1" },
	{ "第二张和第一张换一下", "swap 2,1" },
	{ "封面用第二张", "reorder 2>1" },
	{ "第三张做封面", "reorder 3>1" },
	{ "把第一张放到最后", "reorder 1>-1" },
	{ "第三张放到最前面", "reorder 3>1" },
	{ "swap the first two", "swap 1,2" },
	{ "use the second picture as the cover", "reorder 2>1" },
	{ "move picture 3 to the front", "reorder 3>1" },
	{ "去掉第三张", "drop 3" },
	{ "不要第二张", "drop 2" },
	{ "第二张不要了", "drop 2" },
	{ "去掉第二张和第三张", "drop 2 | drop 3" },
	{ "少一张", "drop last" },
	{ "drop the last picture", "drop last" },
	{ "remove image 2", "drop 2" },
	{ "第一张改成一只橘猫在窗边", "describe 1 一只橘猫在窗边" },
	{ "第二张画帐篷", "describe 2 帐篷" },
	{ "封面改成日落下的帐篷吧", "describe cover 日落下的帐篷" },
	{ "make the cover a sunset", "describe cover a sunset" },
	{ "change the second picture to a tent by the lake", "describe 2 a tent by the lake" },
	{ "风格换成水彩", "style 水彩" },
	{ "in watercolour", "style 水彩" },
	{ "不要水彩", "style !水彩" },
	{ "第二张改成水彩风", "style 水彩" },
	{ "色调暖一点", "tone 暖色调" },
	{ "更简约", "tone 更简约" },
	{ "warmer, more minimal", "tone 暖色调 | tone 更简约" },
	{ "多加一张", "count +1" },
	{ "再加两张", "count +2" },
	{ "add one more picture", "count +1" },
	{ "只要两张", "count =2" },
	{ "两张就够了", "count =2" },
	{ "only two pictures", "count =2" },
	{ "不好看", "other 不好看" },
	{ "把第三张放到第一张，去掉第二张，风格换成水彩", "reorder 3>1 | drop 2 | style 水彩" },
	{ "把第三张放到第一张然后去掉第二张", "reorder 3>1 | drop 2" },
	{ "drop the last picture and make the cover a sunset", "drop last | describe cover a sunset" },
	{ "", "" },
};

static void test_split(void)
{
	for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++) {
		json_t *items = note_plans_feedback_split(splits[i].feedback), *it;
		struct buf b;
		size_t k;

		buf_init(&b, 512);
		buf_adds(&b, "");
		json_array_foreach(items, k, it)
			item_line(&b, it);
		is_str(b.data, splits[i].want, "split 「%s」", splits[i].feedback);
		buf_free(&b);
		json_decref(items);
	}
	{
		json_t *items = note_plans_feedback_split(NULL);

		ok(json_is_array(items) && json_array_size(items) == 0, "split: no feedback, no items");
		json_decref(items);
	}
}

/* ---- applying ---- */

static const char *const pars_json =
	"[{\"id\": \"p0\", \"index\": 0, \"text\": \"关于周末去莫干山露营，整理了几条经验。\", \"heading\": \"\"},"
	" {\"id\": \"p1\", \"index\": 1, \"text\": \"一、出发前准备\\n提前看好天气。\", \"heading\": \"一、出发前准备\"},"
	" {\"id\": \"p2\", \"index\": 2, \"text\": \"二、路线怎么排\\n一天两三个点就够。\", \"heading\": \"二、路线怎么排\"},"
	" {\"id\": \"p3\", \"index\": 3, \"text\": \"三、拍照与打卡\\n早上光线柔和。\", \"heading\": \"三、拍照与打卡\"}]";

static json_t *shown_plans(void)
{
	return json_pack("[{s:i, s:s, s:s, s:i, s:s, s:s}, {s:i, s:s, s:s, s:i, s:s, s:s},"
			 " {s:i, s:s, s:s, s:i, s:s, s:s}]",
		"sequence", 1, "role", "cover", "paragraphId", "p0", "paragraphIndex", 0, "description", "封面：莫干山",
		"prompt", "莫干山，露营，近景特写，温暖胶片质感，柔和颗粒，小红书封面配图，画面上方留出文字区域",
		"sequence", 2, "role", "content", "paragraphId", "p1", "paragraphIndex", 1, "description", "配图：出发前准备",
		"prompt", "出发前准备，天气，俯拍平铺，温暖胶片质感，柔和颗粒，小红书内页配图，画面下方留出文字区域",
		"sequence", 3, "role", "summary", "paragraphId", "p2", "paragraphIndex", 2, "description", "配图：路线怎么排",
		"prompt", "路线怎么排，人物背影远景，温暖胶片质感，柔和颗粒，小红书内页配图，画面下方留出文字区域");
}

static const struct {
	const char *feedback;
	const char *order;      /* the shown numbers of the plans after, 0 for an added one */
	const char *done;       /* each item's done, as 1 and 0 */
	const char *said;       /* a piece of the report's sentences, in order, "" for none */
	const char *cover_has;  /* a piece of the first plan's prompt */
	const char *all_have;   /* a piece every prompt has, or NULL */
} applies[] = {
	{ "把第三张放到第一张", "3 1 2", "1", "已把第3张图换作封面", "小红书封面配图", NULL },
	{ "把第三张放到第一张，去掉第二张", "3 1", "11", "已去掉第2张图", "路线怎么排", NULL },
	{ "去掉第二张，把第三张放到第一张", "3 1", "11", "已把第3张图换作封面", "路线怎么排", NULL },
	{ "第二张和第一张换一下", "2 1 3", "1", "已把第2张和第1张图对调", "出发前准备", NULL },
	{ "去掉第五张", "1 2 3", "0", "没有第5张图（共3张），无法删除", "莫干山", NULL },
	{ "去掉第二张，去掉第二张", "1 3", "11", "已去掉第2张图", "莫干山", NULL },
	{ "把第五张放到第一张", "1 2 3", "0", "没有第5张图", "莫干山", NULL },
	{ "只要一张，去掉第一张", "1", "10", "只剩一张图了", "莫干山", NULL },
	{ "第一张改成一只橘猫在窗边", "1 2 3", "1", "第1张图改画：一只橘猫在窗边", "一只橘猫在窗边，近景特写", NULL },
	{ "第二张画帐篷", "1 2 3", "1", "第2张图改画：帐篷", "莫干山", NULL },
	{ "风格换成水彩", "1 2 3", "1", "整组配图改为水彩风格", "莫干山", "手绘水彩风格" },
	{ "色调暖一点", "1 2 3", "1", "整组配图调整为暖色调", "莫干山", "暖色调" },
	{ "多加一张", "1 2 3 0", "1", "对应段落「三、拍照与打卡」", "莫干山", "温暖胶片质感" },
	{ "再加两张", "1 2 3 0", "0", "每个段落都已有配图", "莫干山", NULL },
	{ "只要两张", "1 2", "1", "只保留前 2 张图", "莫干山", NULL },
	{ "只要三张", "1 2 3", "1", "现在正好是 3 张图", "莫干山", NULL },
	{ "少一张", "1 2", "1", "已去掉第3张图", "莫干山", NULL },
	{ "不好看", "1 2 3", "0", "「不好看」没有说要怎么改哪张图", "莫干山", NULL },
};

/* A feedback applied to plans: the paragraphs (pars_json), the plans the
 * person was shown (shown_plans), the plans changed (a copy of those, or
 * the plans given), the feedback's items and the report. */
struct applied {
	json_t *pars, *shown, *plans, *items, *report;
};

/* Applies feedback, said in lang, to plans (stolen) or, when NULL, to a
 * copy of the shown plans. */
static void applied_run(struct applied *a, json_t *plans, const char *feedback, const char *lang)
{
	struct note_plans_fb fb = { NULL, NULL, "周末去莫干山露营", lang, 6 };

	a->pars = json_loads(pars_json, 0, NULL);
	a->shown = shown_plans();
	a->plans = plans ? plans : json_deep_copy(a->shown);
	fb.shown = a->shown, fb.pars = a->pars;
	a->items = note_plans_feedback_split(feedback);
	a->report = note_plans_feedback_apply(a->plans, a->items, &fb);
}

static void applied_free(struct applied *a)
{
	json_decref(a->report);
	json_decref(a->items);
	json_decref(a->plans);
	json_decref(a->shown);
	json_decref(a->pars);
}

/* The shown numbers of plans, as "3 1 2". */
static void order_of(const json_t *plans, struct buf *b)
{
	const json_t *pl;
	size_t i;

	json_array_foreach(plans, i, pl)
		buf_printf(b, "%s%d", i ? " " : "", (int)json_integer_value(json_object_get(pl, "_from")));
}

static void test_apply_one(size_t i)
{
	struct applied a;
	json_t *v;
	struct buf order, done, said;
	size_t k;
	int all = 1;

	applied_run(&a, NULL, applies[i].feedback, "zh");
	buf_init(&order, 64);
	buf_init(&done, 16);
	buf_init(&said, 1024);
	buf_adds(&done, "");
	order_of(a.plans, &order);
	json_array_foreach(a.report, k, v) {
		buf_adds(&done, json_is_true(json_object_get(v, "done")) ? "1" : "0");
		buf_printf(&said, "%s/", json_string_value(json_object_get(v, "said")));
	}
	is_str(order.data, applies[i].order, "apply 「%s」: the pictures in order", applies[i].feedback);
	is_str(done.data, applies[i].done, "  ... each item done or declined (%s)", said.data);
	ok(strstr(said.data, applies[i].said) != NULL, "  ... and says 「%s」", applies[i].said);
	ok(strstr(json_string_value(json_object_get(json_array_get(a.plans, 0), "prompt")), applies[i].cover_has) &&
	   strcmp(json_string_value(json_object_get(json_array_get(a.plans, 0), "role")), "cover") == 0,
	   "  ... the first is the cover, with 「%s」", applies[i].cover_has);
	json_array_foreach(a.plans, k, v)
		if (applies[i].all_have && !strstr(json_string_value(json_object_get(v, "prompt")), applies[i].all_have))
			all = 0;
	ok(all, "  ... every prompt has 「%s」", applies[i].all_have ? applies[i].all_have : "");
	buf_free(&order);
	buf_free(&done);
	buf_free(&said);
	applied_free(&a);
}

static void test_apply(void)
{
	for (size_t i = 0; i < sizeof applies / sizeof applies[0]; i++)
		test_apply_one(i);
}

/* A model that already moved the third picture to the front and drew it
 * in watercolour: both found done, nothing made twice. */
static void test_model_did_it(void)
{
	struct applied a;
	json_t *plans;
	struct buf order;

	plans = json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s, s:s}]",
		"role", "cover", "paragraphId", "p2", "prompt", "A winding route through bamboo, watercolour, soft washes",
		"role", "content", "paragraphId", "p0", "prompt", "Tents on a hill, watercolour",
		"role", "content", "paragraphId", "p1", "prompt", "A backpack and a map, watercolour");
	applied_run(&a, plans, "move the third picture to the front, in watercolour", "en");
	buf_init(&order, 64);
	order_of(a.plans, &order);
	is_str(order.data, "3 1 2", "a model's plans already in the order asked: kept");
	ok(json_is_true(json_object_get(json_array_get(a.report, 0), "done")) &&
	   json_is_true(json_object_get(json_array_get(a.report, 1), "done")),
	   "  ... both items done, said in English (%s)",
	   json_string_value(json_object_get(json_array_get(a.report, 0), "said")));
	is_str(json_string_value(json_object_get(json_array_get(a.plans, 1), "prompt")), "Tents on a hill, watercolour",
	       "  ... a prompt already in watercolour is left as it is");
	buf_free(&order);
	applied_free(&a);
}

/* What was asked of a picture stays when the plans are drawn again. */
static void test_keep(void)
{
	struct applied a;
	json_t *asks = json_object(), *again = shown_plans();

	applied_run(&a, NULL, "第二张画帐篷，色调暖一点", "zh");
	note_plans_feedback_remember(asks, a.plans, a.items, a.report);
	note_plans_feedback_keep(again, asks);
	ok(strstr(json_string_value(json_object_get(json_array_get(again, 1), "prompt")), "帐篷") &&
	   strstr(json_string_value(json_object_get(json_array_get(again, 2), "prompt")), "暖色调"),
	   "new plans keep 第二张画帐篷 and the warm tone (%s)",
	   json_string_value(json_object_get(json_array_get(again, 1), "prompt")));
	json_decref(again);
	json_decref(asks);
	applied_free(&a);
}

/* ---- prompt edits ---- */

static const struct {
	const char *what, *prompt, *asked, *want;
} edits[] = {
	{ "restyle", "莫干山，近景特写，温暖胶片质感，柔和颗粒，小红书封面配图", "水彩",
	  "莫干山，近景特写，手绘水彩风格，柔和晕染，留白，小红书封面配图" },
	{ "restyle a model's prompt", "A tent at dusk, soft light", "in oil painting",
	  "A tent at dusk, soft light, oil painting, thick brushstrokes, rich colour" },
	{ "unstyle", "莫干山，近景特写，治愈系手绘水彩，留白，小红书封面配图", "不要水彩",
	  "莫干山，近景特写，清新日系摄影风格，自然光，小红书封面配图" },
	{ "retone", "莫干山，近景特写，冷色调，清透蓝灰，小红书封面配图", "暖一点",
	  "莫干山，近景特写，小红书封面配图，暖色调，柔和暖光" },
	{ "resubject", "莫干山，露营，近景特写，温暖胶片质感", "一只橘猫", "一只橘猫，近景特写，温暖胶片质感" },
	{ "resubject a model's prompt", "A tent at dusk, soft light", "a sunset", "a sunset, soft light" },
	{ "recast as cover", "路线，三分法构图，小红书内页配图，画面下方留出文字区域", "",
	  "路线，三分法构图，小红书封面配图，画面上方留出文字区域" },
};

static void test_edits(void)
{
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		char *got;
		int no = 0;

		if (strncmp(edits[i].what, "restyle", 7) == 0)
			got = note_rules_plan_restyle(edits[i].prompt, note_rules_plan_style_asked(edits[i].asked, NULL));
		else if (strcmp(edits[i].what, "unstyle") == 0)
			got = note_rules_plan_unstyle(edits[i].prompt, note_rules_plan_style_asked(edits[i].asked, &no));
		else if (strcmp(edits[i].what, "retone") == 0)
			got = note_rules_plan_retone(edits[i].prompt, note_rules_plan_tone_asked(edits[i].asked));
		else if (strncmp(edits[i].what, "resubject", 9) == 0)
			got = note_rules_plan_resubject(edits[i].prompt, edits[i].asked);
		else
			got = note_rules_plan_recast(edits[i].prompt, 1);
		is_str(got, edits[i].want, "edit: %s", edits[i].what);
		free(got);
	}
}

/* ---- the layout after the feedback ---- */

static void test_rekey(void)
{
	struct applied a;
	json_t *got, *overlays = json_pack("[{s:i, s:s, s:s}, {s:i, s:s, s:s, s:s}, {s:i, s:s, s:s, s:s}]",
		"imageSeq", 1, "titleText", "周末去莫干山露营", "placement", "center",
		"imageSeq", 2, "titleText", "一、出发前准备", "placement", "bottom", "bodyText", "提前看好天气。",
		"imageSeq", 3, "titleText", "二、路线怎么排", "placement", "bottom", "bodyText", "一天两三个点就够。");

	applied_run(&a, NULL, "把第三张放到第一张，去掉第二张", "zh");
	got = note_plans_feedback_rekey(overlays, a.plans, a.pars);
	is_int(json_array_size(got), 2, "rekey: the dropped picture's caption goes");
	is_str(json_string_value(json_object_get(json_array_get(got, 0), "titleText")), "周末去莫干山露营",
	       "  ... the cover line stays on the new cover");
	ok(json_object_get(json_array_get(got, 0), "bodyText") == NULL, "  ... which has no body text");
	ok(strncmp(json_string_value(json_object_get(json_array_get(got, 1), "titleText")), "关于周末去", 15) == 0 &&
	   json_integer_value(json_object_get(json_array_get(got, 1), "imageSeq")) == 2,
	   "  ... the old cover, now second, takes its paragraph's line (%s)",
	   json_string_value(json_object_get(json_array_get(got, 1), "titleText")));
	json_decref(got);
	json_decref(overlays);
	applied_free(&a);
}

/* ---- cover lines and captions ---- */

static const struct {
	const char *title;
	int en;
	const char *want;
} covers[] = {
	{ "周末去莫干山露营｜亲测有用", 0, "周末去莫干山露营｜亲测有用" },
	{ "春天去苏州旅行，带上家里的猫｜亲测有用", 0, "春天去苏州旅行，带上家里的猫" },
	{ "周末去莫干山露营装备清单推荐给第一次去的人", 0, "周末去莫干山露营装备清单…" },
	{ "A weekend camping trip to Moganshan: a practical guide", 1, "A weekend camping trip…" },
	{ "Ten quick dinners", 1, "Ten quick dinners" },
};

static const struct {
	const char *s;
	size_t max;
	const char *want;
} lines[] = {
	{ "按区域把地点串起来，一天两三个点就够，不赶路才玩得开心。", 24, "按区域把地点串起来，一天两三个点就够…" },
	{ "周末去莫干山露营", 5, "周末去…" },
	{ "Check the weather and opening hours, and book tickets online", 24, "Check the weather…" },
	{ "Photosynthesis explained", 5, "Photosynthesis…" },
};

static void test_lines(void)
{
	for (size_t i = 0; i < sizeof covers / sizeof covers[0]; i++) {
		char *got = note_rules_cover_line(covers[i].title, covers[i].en);

		is_str(got, covers[i].want, "cover line of %s", covers[i].title);
		free(got);
	}
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		char *got = note_rules_line(lines[i].s, lines[i].max);

		is_str(got, lines[i].want, "caption of %s, %zu characters", lines[i].s, lines[i].max);
		free(got);
	}
}

/* ---- requests that name no subject ---- */

static const struct {
	const char *text;
	int vague;
} vagues[] = {
	{ "帮我写一篇笔记", 1 }, { "写点东西给大家看看", 1 }, { "来一篇小红书爆款", 1 }, { "随便写点什么", 1 },
	{ "发个帖子分享一下生活", 1 }, { "write something for me", 1 }, { "随便", 1 }, { "", 1 },
	{ "写一篇关于猫的笔记", 0 }, { "量子计算入门", 0 }, { "周末去杭州西湖骑行", 0 },
	{ "Write a note about sourdough", 0 }, { "新手养猫清单", 0 },
};

static void test_vague(void)
{
	for (size_t i = 0; i < sizeof vagues / sizeof vagues[0]; i++)
		is_int(note_vague(vagues[i].text), vagues[i].vague, "「%s」 %s", vagues[i].text,
		       vagues[i].vague ? "names no subject" : "names a subject");
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[512] = "";

	msg_catalogue_add(note_msgs, note_nmsgs); /* as registering the workflow does */
	snprintf(path, sizeof path, "%s/etc/words.txt", top && *top ? top : ".");
	ok(text_seg_load(path, err, sizeof err) == 0, "etc/words.txt loads (%s)", err);
	test_split();
	test_apply();
	test_model_did_it();
	test_keep();
	test_edits();
	test_rekey();
	test_lines();
	test_vague();
	text_seg_close();
	return tap_done();
}
