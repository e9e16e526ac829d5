/* A reject's feedback item by item (src/wf/note/note_feedback*.c), as
 * tables: how phrasings in Chinese and English split into instructions
 * (the issue's own among them), the words a subject is found by, and
 * each kind done on a draft or declined with its reason, the person's
 * paragraphs kept word for word, every "done" true of the draft. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "text/seg.h"
#include "text/wordcut.h"
#include "util/buf.h"
#include "wf/note/note_feedback.h"
#include "wf/note/note.h"

/* Items written as "kind:arg" joined by " | "; a title's kind is
 * title.<op>. */
static const struct {
	const char *feedback, *want;
} item_cases[] = {
	{ "太长了，语气再活泼一点，加上预算", "shorter: | tone:活泼 | add:预算" },
	{ "多讲讲怎么看SPF和PA", "more:SPF和PA" },
	{ "不要提猫", "remove:猫" },
	{ "用清单的形式", "format:list" },
	{ "标题改成周末苏州慢游", "title.set:周末苏州慢游" },
	{ "too long, and don't mention the price", "shorter: | remove:price" },
	{ "不要提宠物", "remove:宠物" },
	{ "别写价格", "remove:价格" },
	{ "删掉猫咪的内容", "remove:猫咪" },
	{ "多写点预算", "more:预算" },
	{ "详细说说交通", "more:交通" },
	{ "say more about the budget", "more:budget" },
	{ "补充一下住宿", "add:住宿" },
	{ "加一段拍照的内容", "add:拍照" },
	{ "add a section on prices", "add:prices" },
	{ "加预算", "add:预算" },
	{ "精简一点", "shorter:" },
	{ "make it shorter", "shorter:" },
	{ "别写太长", "shorter:" },
	{ "太短了", "longer:" },
	{ "再详细点", "longer:" },
	{ "longer please", "longer:" },
	{ "加点细节", "longer:" },
	{ "正式一点", "tone:正式" },
	{ "more casual", "tone:casual" },
	{ "不要太正式", "tone:活泼" },
	{ "less formal", "tone:casual" },
	{ "写给学生党看", "audience:学生党" },
	{ "面向上班族", "audience:上班族" },
	{ "for beginners", "audience:beginners" },
	{ "分步骤写", "format:steps" },
	{ "step by step", "format:steps" },
	{ "做成表格", "format:table" },
	{ "as a list", "format:list" },
	{ "标题短一点", "title.shorter:" },
	{ "标题加上平价", "title.add:平价" },
	{ "标题里要有「跟练」", "title.add:跟练" },
	{ "标题换个说法", "title.rephrase:" },
	{ "换个标题吧", "title.rephrase:" },
	{ "give it a different title", "title.rephrase:" },
	{ "change the title to Weekend in Suzhou", "title.set:Weekend in Suzhou" },
	{ "太长了再活泼一点", "shorter: | tone:活泼" },
	{ "make it shorter and more casual", "shorter: | tone:casual" },
	{ "say more about SPF and PA", "more:SPF and PA" },
	{ "语气温柔一点，并且写给新手妈妈", "tone:温柔 | audience:新手妈妈" },
	{ "我觉得不太行", "other:我觉得不太行" },
	{ "谢谢！", "" },
	{ "", "" },
	{ "太长了。太长了", "shorter:" },
};

static char *items_text(const json_t *items)
{
	struct buf b;
	const json_t *it;
	size_t i;

	buf_init(&b, 4096);
	json_array_foreach(items, i, it) {
		const char *op = json_string_value(json_object_get(it, "op"));

		buf_printf(&b, "%s%s%s%s:%s", i ? " | " : "", json_string_value(json_object_get(it, "kind")),
			   op ? "." : "", op ? op : "", json_string_value(json_object_get(it, "arg")));
	}
	return b.data ? buf_steal(&b) : strdup("");
}

static void test_items(void)
{
	for (size_t i = 0; i < sizeof item_cases / sizeof item_cases[0]; i++) {
		json_t *items = note_feedback_items(item_cases[i].feedback);
		char *got = items_text(items);

		is_str(got, item_cases[i].want, "items of \"%s\"", item_cases[i].feedback);
		free(got);
		json_decref(items);
	}
	{
		json_t *items = note_feedback_items("不要提宠物");
		const json_t *w = json_object_get(json_array_get(items, 0), "words");
		char *s = json_dumps(w, JSON_COMPACT);

		ok(strstr(s, "\"猫\"") && strstr(s, "\"狗\""), "不要提宠物 brings the kind's words: %s", s);
		free(s);
		json_decref(items);
	}
	{
		char *big = malloc(100001);
		json_t *items;

		for (size_t i = 0; i < 100000; i++)
			big[i] = "ab, "[i % 4];
		big[100000] = '\0';
		items = note_feedback_items(big);
		ok(json_array_size(items) <= NOTE_FEEDBACK_ITEMS_MAX, "a long feedback gives at most %d items",
		   NOTE_FEEDBACK_ITEMS_MAX);
		json_decref(items);
		free(big);
	}
}

static void test_terms(void)
{
	json_t *it = json_pack("{s:s, s:s}", "kind", "more", "arg", "SPF和PA"), *t = note_feedback_terms(it);
	char *s = json_dumps(t, JSON_COMPACT);

	ok(json_array_size(t) >= 2 && !strcmp(json_string_value(json_array_get(t, 0)), "SPF") && strstr(s, "\"PA\""),
	   "terms of SPF和PA: %s", s);
	free(s);
	json_decref(t);
	json_object_set_new(it, "arg", json_string("预算"));
	t = note_feedback_terms(it);
	s = json_dumps(t, JSON_COMPACT);
	ok(strstr(s, "人均") && strstr(s, "价格"), "terms of 预算 say the same in other words: %s", s);
	free(s);
	json_decref(t);
	json_decref(it);
	ok(!note_feedback_has_term("a paper bag", "PA") && note_feedback_has_term("看 PA++ 就够", "PA") &&
	   note_feedback_has_term("人均1500", "人均"), "an ASCII term is a whole word, a Chinese one as it is");
}

/* ---- applying ---- */

static const char draft_zh[] =
	"关于防晒怎么选，我把本地笔记库里相关的热门笔记翻了一遍，挑出能直接用的经验整理在下面，特别适合爱美的女生。\n\n"
	"一、防晒怎么选\n新品先在耳后试用三天，不过敏再上脸。\n看成分表前五位，那才是主要成分，营销词看看就好。\n"
	"防晒要在出门前十五分钟涂，量要够，一元硬币大小才有效。\n（出自笔记《防晒怎么选？5款实测对比》，3333 赞）\n\n"
	"二、带猫出门也别忘了\n猫咪怕晒，出门时间别太长。\n夏天遛弯选早晚。\n\n"
	"三、小心踩雷\n新品先小范围试用，别一次囤太多。\n\n"
	"你最想先试哪一条？评论区聊聊～";

static const char mine_zh[] = "我自己的经验\n我家的猫也跟着我晒太阳，所以我只买温和的。";

static const char draft_en[] =
	"Choosing a laptop — written for people choosing a gadget, with the practical points that matter most.\n\n"
	"1. The short answer\nChoose by what you mostly do with it; specs beyond that are rarely felt.\n"
	"Check the price history before you buy.\n\n"
	"2. What matters in daily use\nBattery, screen and how it feels in the hand matter more than benchmarks.\n\n"
	"3. Buying advice\nWait for a sale or a trade-in offer, and read the warranty terms first.\n\n"
	"Which of these would you try first? Tell me in the comments.";

static json_t *ctx_new(const char *lang, const char *topic, const char *body, int with_notes)
{
	json_t *ctx = json_pack("{s:s, s:s, s:{s:s, s:s, s:[s, s]}, s:[], s:s}", "lang", lang, "topic", topic,
				"previous", "title", "防晒怎么选，一篇讲清楚", "body", body, "tags", "防晒", "猫咪",
				"locked", "source", "rules");

	json_object_set_new(ctx, "points", json_pack("[{s:s, s:s, s:i}, {s:s, s:s, s:i}]",
		"text", "防晒要在出门前十五分钟涂，量要够，一元硬币大小才有效。", "source", "防晒怎么选？5款实测对比",
		"likes", 3333, "text", "底妆前用保湿喷雾压一压，粉底少量多次。", "source", "干皮夏天底妆不脱妆秘诀",
		"likes", 239));
	if (with_notes)
		json_object_set_new(ctx, "notes", json_pack("[{s:s, s:s, s:i}]", "title", "防晒怎么选？平价篇",
			"body", "学生党预算有限，人均一百元就能买到好用的防晒。贵的不一定适合你。", "likes", 420));
	return ctx;
}

static json_t *content_new(const char *title, const char *body)
{
	return json_pack("{s:s, s:s, s:[s, s]}", "title", title, "body", body, "tags", "防晒", "猫咪");
}

/* The report of one feedback on one draft. */
static json_t *run(json_t *content, json_t *ctx, const char *feedback)
{
	json_t *items = note_feedback_items(feedback);
	json_t *rep = note_feedback_apply(content, items, ctx);

	json_decref(items);
	return rep;
}

static const char *body_of(const json_t *c)
{
	return json_string_value(json_object_get(c, "body"));
}

static const char *said_of(const json_t *rep, size_t i)
{
	return json_string_value(json_object_get(json_array_get(rep, i), "said")) ?: "";
}

static int done_of(const json_t *rep, size_t i)
{
	return json_is_true(json_object_get(json_array_get(rep, i), "done"));
}

static size_t chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static void test_issue_examples(void)
{
	json_t *ctx = ctx_new("zh", "防晒怎么选", draft_zh, 1), *c = content_new("防晒怎么选｜亲测有用", draft_zh);
	json_t *rep = run(c, ctx, "太长了，语气再活泼一点，加上预算");
	const char *b = body_of(c);

	ok(json_array_size(rep) == 3 && done_of(rep, 0) && done_of(rep, 1) && done_of(rep, 2),
	   "太长了，语气再活泼一点，加上预算: three items, each done (%s / %s / %s)", said_of(rep, 0), said_of(rep, 1),
	   said_of(rep, 2));
	ok(chars(b) < chars(draft_zh), "  ... the body is shorter than the refused one (%zu < %zu)", chars(b), chars(draft_zh));
	ok(strstr(b, "预算") && strstr(b, "人均一百元") && strstr(b, "（出自笔记《防晒怎么选？平价篇》，420 赞）"),
	   "  ... a section on 预算 from the note that has it, credited");
	ok(strstr(b, "姐妹们冲就完事了") && strstr(said_of(rep, 1), "活泼"), "  ... the closing line is lively: %s",
	   said_of(rep, 1));
	json_decref(rep);
	json_decref(c);

	c = content_new("防晒怎么选", draft_zh);
	rep = run(c, ctx, "多讲讲怎么看SPF和PA");
	ok(json_array_size(rep) == 1 && !done_of(rep, 0) &&
	   strstr(said_of(rep, 0), "笔记库里没有关于「SPF和PA」的内容，这一稿没有补上"),
	   "多讲讲怎么看SPF和PA with nothing on it: declined by name (%s)", said_of(rep, 0));
	is_str(body_of(c), draft_zh, "  ... and the draft is left as it was");
	json_decref(rep);
	json_decref(c);
	json_decref(ctx);
}

/* One kind on the Chinese draft: the report and a check of the body. */
static const struct {
	const char *feedback;
	int done;
	const char *said, *body_has, *body_lacks;
} kind_cases[] = {
	{ "不要提猫", 1, "删去「猫」", "一、防晒怎么选", "猫" },
	{ "不要提雪山", 1, "「雪山」本来就不在文案里", "猫咪怕晒", NULL },
	{ "不要提耳后", 1, "删去「耳后」", "看成分表前五位", "耳后" },
	{ "用清单的形式", 1, "编号清单", "① 新品先在耳后试用三天", NULL },
	{ "分步骤写", 1, "分步骤", "第1步：新品先在耳后试用三天", NULL },
	{ "做成表格", 0, "放不下表格", "新品先在耳后试用三天", "|" },
	{ "写给学生党看", 1, "适合学生党", "特别适合学生党。", "特别适合爱美的女生" },
	{ "正式一点", 1, "正式", "以上内容供参考", "评论区聊聊" },
	{ "太长了", 1, "正文从", "关于防晒怎么选，特别适合爱美的女生。", "翻了一遍" },
	{ "多讲讲预算", 1, "多写了", "人均一百元", NULL },
	{ "我觉得不太行", 0, "看不出要怎么改", NULL, NULL },
	{ "再详细点", 1, "补了一节", "底妆前用保湿喷雾", NULL },
};

static void test_kinds(void)
{
	for (size_t i = 0; i < sizeof kind_cases / sizeof kind_cases[0]; i++) {
		json_t *ctx = ctx_new("zh", "防晒怎么选", draft_zh, 1), *c = content_new("防晒怎么选", draft_zh);
		json_t *rep = run(c, ctx, kind_cases[i].feedback);
		const char *b = body_of(c);

		ok(json_array_size(rep) == 1 && done_of(rep, 0) == kind_cases[i].done && strstr(said_of(rep, 0), kind_cases[i].said) &&
		   (!kind_cases[i].body_has || strstr(b, kind_cases[i].body_has)) &&
		   (!kind_cases[i].body_lacks || !strstr(b, kind_cases[i].body_lacks)),
		   "%s: %s (%s)", kind_cases[i].feedback, kind_cases[i].done ? "done" : "declined", said_of(rep, 0));
		json_decref(rep);
		json_decref(c);
		json_decref(ctx);
	}
}

#define LONG_TITLE "周末去莫干山露营的装备清单和一路上要注意的所有事情"

static void test_titles(void)
{
	const char *title;
	char *tags;
	json_t *ctx = ctx_new("zh", "春天去苏州旅行", draft_zh, 0), *c = content_new("防晒怎么选｜亲测有用", draft_zh);
	json_t *rep = run(c, ctx, "标题改成周末苏州慢游");

	ok(done_of(rep, 0) && !strcmp(json_string_value(json_object_get(c, "title")), "周末苏州慢游"),
	   "标题改成周末苏州慢游: the title is set (%s)", said_of(rep, 0));
	json_decref(rep);
	rep = run(c, ctx, "标题改成" LONG_TITLE);
	title = json_string_value(json_object_get(c, "title"));
	ok(done_of(rep, 0) && chars(title) <= 20 && strstr(said_of(rep, 0), "截短") &&
	   strncmp(LONG_TITLE, title, strlen(title)) == 0 && wordcut_at_boundary(LONG_TITLE, strlen(title)),
	   "a title over 20 characters is cut at a word boundary: %s", title);
	json_decref(rep);
	json_object_set_new(c, "title", json_string("防晒怎么选｜亲测有用"));
	json_object_set_new(json_object_get(ctx, "previous"), "title", json_string("防晒怎么选｜亲测有用"));
	rep = run(c, ctx, "标题短一点");
	ok(done_of(rep, 0) && !strcmp(json_string_value(json_object_get(c, "title")), "防晒怎么选"),
	   "标题短一点: its first part (%s)", json_string_value(json_object_get(c, "title")));
	json_decref(rep);
	rep = run(c, ctx, "标题换个说法");
	title = json_string_value(json_object_get(c, "title"));
	ok(done_of(rep, 0) && strcmp(title, "防晒怎么选") != 0 && strstr(title, "春天去苏州旅行") && !wordcut_repeats(title),
	   "标题换个说法: another title, about the topic (%s)", title);
	json_decref(rep);
	json_object_set_new(c, "title", json_string("带猫去苏州｜春天慢游"));
	rep = run(c, ctx, "不要提猫");
	tags = json_dumps(json_object_get(c, "tags"), 0);
	ok(done_of(rep, 0) && !strstr(json_string_value(json_object_get(c, "title")), "猫") && !strstr(tags, "猫"),
	   "不要提猫 takes 猫 out of the title and the tags: %s %s", json_string_value(json_object_get(c, "title")), tags);
	free(tags);
	json_decref(rep);
	json_decref(c);
	json_decref(ctx);
}

static void test_locked(void)
{
	char *body = NULL;
	json_t *ctx, *c, *rep;

	if (asprintf(&body, "%s\n\n%s", draft_zh, mine_zh) < 0)
		return;
	ctx = ctx_new("zh", "防晒怎么选", body, 0);
	json_array_append_new(json_object_get(ctx, "locked"), json_string(mine_zh));
	c = content_new("防晒怎么选", body);
	rep = run(c, ctx, "不要提猫");
	ok(!done_of(rep, 0) && strstr(said_of(rep, 0), "在你写的段落里") && strstr(said_of(rep, 0), "删去「猫」"),
	   "不要提猫 with 猫 in the person's paragraph: taken out elsewhere, declined there by name (%s)", said_of(rep, 0));
	ok(strstr(body_of(c), mine_zh) && !strstr(body_of(c), "猫咪怕晒"), "  ... the person's paragraph word for word");
	json_decref(rep);
	rep = run(c, ctx, "太长了，用清单的形式");
	ok(strstr(body_of(c), mine_zh) != NULL, "shorter and a list never touch the person's paragraph");
	json_decref(rep);
	json_decref(c);
	json_decref(ctx);
	free(body);
}

static void test_english(void)
{
	json_t *ctx = ctx_new("en", "choosing a laptop", draft_en, 0), *c = content_new("Choosing a laptop", draft_en);
	json_t *rep = run(c, ctx, "too long, and don't mention the price");

	ok(json_array_size(rep) == 2 && done_of(rep, 0) && done_of(rep, 1) && chars(body_of(c)) < chars(draft_en) &&
	   !strstr(body_of(c), "price"), "English: shorter and without the price (%s / %s)", said_of(rep, 0), said_of(rep, 1));
	ok(strstr(said_of(rep, 1), "taken out, as asked: price") != NULL, "  ... said in English");
	json_decref(rep);
	rep = run(c, ctx, "make it more casual, for beginners");
	ok(done_of(rep, 0) && done_of(rep, 1) && strstr(body_of(c), "written for beginners") &&
	   strstr(body_of(c), "go try one this week"), "English: a tone and who it is for (%s / %s)", said_of(rep, 0),
	   said_of(rep, 1));
	json_decref(rep);
	json_decref(c);
	json_decref(ctx);
}

/* Whatever the feedback, a done item is true of the draft: run every
 * phrasing of the table on the Chinese draft and check the claims the
 * report can be checked by. */
static void test_claims(void)
{
	int bad = 0;

	for (size_t i = 0; i < sizeof item_cases / sizeof item_cases[0]; i++) {
		json_t *ctx = ctx_new("zh", "防晒怎么选", draft_zh, 1), *c = content_new("防晒怎么选", draft_zh);
		json_t *rep = run(c, ctx, item_cases[i].feedback), *e;
		size_t j;

		json_array_foreach(rep, j, e) {
			const char *kind = json_string_value(json_object_get(e, "kind"));
			const char *arg = json_string_value(json_object_get(e, "arg"));

			if (!json_is_true(json_object_get(e, "done")))
				continue;
			if ((!strcmp(kind, "shorter") && chars(body_of(c)) >= chars(draft_zh)) ||
			    (!strcmp(kind, "longer") && chars(body_of(c)) <= chars(draft_zh)) ||
			    (!strcmp(kind, "remove") && strstr(body_of(c), arg)) ||
			    (!strcmp(kind, "add") && !strstr(body_of(c), arg)) || !strcmp(kind, "other")) {
				printf("# a claim not true: %s %s: %s\n", kind, arg, json_string_value(json_object_get(e, "said")));
				bad++;
			}
		}
		json_decref(rep);
		json_decref(c);
		json_decref(ctx);
	}
	is_int(bad, 0, "every done claim of the table's phrasings is true of the draft");
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[512] = "";

	msg_catalogue_add(note_msgs, note_nmsgs); /* as registering the workflow does */
	snprintf(path, sizeof path, "%s/etc/words.txt", top && *top ? top : ".");
	ok(text_seg_load(path, err, sizeof err) == 0, "etc/words.txt loads (%s)", err);
	test_items();
	test_terms();
	test_issue_examples();
	test_kinds();
	test_titles();
	test_locked();
	test_english();
	test_claims();
	text_seg_close();
	return tap_done();
}
