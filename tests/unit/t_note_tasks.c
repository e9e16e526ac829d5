/* The note workflow's offline tasks through the provider's ops, as tables:
 * how clear a request is and what to ask (never a key asked before); the
 * layout (canvas from the reference's shape, image count from the layout
 * preference); image plans bound to paragraphs, in one style, carrying
 * the reference palette, different on a new attempt, in the style the
 * person asked for (换成水彩风, use a watercolor style); the review's
 * dimensions and verdict, and the drafts it sends back (off the topic,
 * a section repeated, the feedback contradicted; not the topic's words the
 * person asked to leave out); the router's proposal; a rewrite of the
 * note that differs from the first draft; a removal the person asked for,
 * done and said as it is; and the note templates for a topic. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "noteask.h"
#include "prov/prov.h"
#include "wf/note/note_rules.h"
#include "wf/note/note.h"

static const char *s(const json_t *j, const char *k)
{
	return json_string_value(json_object_get(j, k));
}

static double n(const json_t *j, const char *k)
{
	return json_number_value(json_object_get(j, k));
}

struct clarity_case {
	const char *facts;
	double lo, hi;
	const char *key;        /* NULL: nothing to ask */
	const char *type;
};

static const struct clarity_case clarity_cases[] = {
	{ "{\"topic\": \"写点东西\"}", 0.1, 0.2, "topic", "lifestyle" },
	{ "{\"topic\": \"帮我写一篇小红书笔记吧\"}", 0.1, 0.2, "topic", "lifestyle" },
	{ "{\"topic\": \"write something\"}", 0.1, 0.2, "topic", "lifestyle" },
	{ "{\"topic\": \"写点东西\", \"asked\": [\"topic\"]}", 0.1, 0.2, NULL, "lifestyle" },
	{ "{\"topic\": \"春游攻略\"}", 0.7, 0.8, NULL, "travel" },
	{ "{\"topic\": \"周末三天成都旅游，预算 2000 元\"}", 0.8, 1.0, NULL, "travel" },
	{ "{\"topic\": \"新手养猫清单\"}", 0.7, 0.85, NULL, "pets" },
	{ "{\"topic\": \"量子计算入门\"}", 0.4, 0.55, "audience", "lifestyle" },
	{ "{\"topic\": \"量子计算入门\", \"audience\": \"大学生\"}", 0.55, 0.7, NULL, "lifestyle" },
	{ "{\"topic\": \"量子计算入门\", \"asked\": [\"audience\"]}", 0.4, 0.55, NULL, "lifestyle" },
};

static void test_clarity(void)
{
	for (size_t i = 0; i < sizeof clarity_cases / sizeof clarity_cases[0]; i++) {
		const struct clarity_case *k = &clarity_cases[i];
		json_t *j = noteask_text("clarity", k->facts);
		double v = n(j, "requirementClarity");

		ok(v >= k->lo && v <= k->hi, "clarity of %s: %.2f in [%.2f, %.2f]", k->facts, v, k->lo, k->hi);
		is_str(s(j, "key"), k->key, "  ... asks %s", k->key ? k->key : "nothing");
		is_str(s(j, "contentType"), k->type, "  ... content type %s", k->type);
		if (k->key)
			ok(json_array_size(json_object_get(j, "options")) >= 3 && s(j, "question"),
			   "  ... with a question and options");
		json_decref(j);
	}
}

static const char pars[] =
	"[{\"id\": \"p1\", \"index\": 0, \"text\": \"关于春游攻略，今天一次讲清楚。\", \"heading\": \"\"},"
	" {\"id\": \"p2\", \"index\": 1, \"text\": \"一、出发前准备\\n提前看好天气，门票线上预约。\", \"heading\": \"一、出发前准备\"},"
	" {\"id\": \"p3\", \"index\": 2, \"text\": \"二、路线怎么排\\n一天两三个点就够。\", \"heading\": \"二、路线怎么排\"},"
	" {\"id\": \"p4\", \"index\": 3, \"text\": \"三、拍照与打卡\\n早上光线柔和。\", \"heading\": \"三、拍照与打卡\"},"
	" {\"id\": \"p5\", \"index\": 4, \"text\": \"你最想先试哪一条？评论区聊聊～\", \"heading\": \"\"}]";

struct layout_case {
	const char *pref, *ref;
	int images;
	const char *aspect;
};

static const struct layout_case layout_cases[] = {
	{ "balanced", "null", 3, "3:4" },
	{ "dense", "null", 2, "3:4" },
	{ "visual-first", "null", 4, "3:4" },
	{ "balanced", "{\"orientation\": \"landscape\", \"aspect\": \"16:9\"}", 3, "4:3" },
	{ "balanced", "{\"orientation\": \"square\", \"aspect\": \"1:1\"}", 3, "1:1" },
	{ "balanced", "{\"orientation\": \"portrait\", \"aspect\": \"9:16\"}", 3, "9:16" },
};

static void test_layout(void)
{
	for (size_t i = 0; i < sizeof layout_cases / sizeof layout_cases[0]; i++) {
		const struct layout_case *k = &layout_cases[i];
		char *facts = NULL;
		json_t *j, *specs;

		if (asprintf(&facts, "{\"title\": \"春游攻略\", \"paragraphs\": %s, \"layoutPreference\": \"%s\", "
			     "\"reference\": %s}", pars, k->pref, k->ref) < 0)
			return;
		j = noteask_text("layout", facts);
		specs = json_object_get(j, "layoutSpec");
		is_int(json_array_size(specs), k->images, "layout %s, reference %s: %d images", k->pref, k->ref,
		       k->images);
		is_str(s(json_object_get(j, "canvas"), "aspect"), k->aspect, "  ... canvas %s", k->aspect);
		is_str(s(json_array_get(specs, 0), "role"), "cover", "  ... the first is the cover");
		is_int(json_array_size(json_object_get(j, "textOverlayPlan")), k->images, "  ... text for each");
		json_decref(j);
		free(facts);
	}
	{
		json_t *j = noteask_text("layout", "{\"title\": \"x\", \"paragraphs\": []}");

		ok(j == NULL, "layout without paragraphs: no answer");
		json_decref(j);
	}
}

/* Image plans for the 春游 paragraphs; more: further facts ("" or ", ..."). */
static json_t *plans_with(int attempt, const char *palette, const char *more)
{
	char *facts = NULL, *specs;
	json_t *lay, *j = NULL;

	if (asprintf(&facts, "{\"title\": \"春游攻略\", \"paragraphs\": %s}", pars) < 0)
		return NULL;
	lay = noteask_text("layout", facts);
	free(facts);
	specs = json_dumps(json_object_get(lay, "layoutSpec"), JSON_COMPACT);
	if (asprintf(&facts, "{\"title\": \"春游攻略\", \"topic\": \"春游攻略\", \"paragraphs\": %s, "
		     "\"layoutSpec\": %s, \"attempt\": %d, \"palette\": %s%s}", pars, specs, attempt,
		     palette, more) >= 0)
		j = noteask_text("image_plans", facts);
	free(facts);
	free(specs);
	json_decref(lay);
	return j;
}

static json_t *plans_for(int attempt, const char *palette)
{
	return plans_with(attempt, palette, "");
}

/* A style the person asks for replaces the set's style. */
struct style_case {
	const char *more;
	const char *style;      /* in every prompt; NULL: the set's own style (any) */
	const char *absent;     /* in no prompt, or NULL */
};

static const struct style_case style_cases[] = {
	{ ", \"feedback\": \"换成水彩风\"", "手绘水彩风格", "换成" },
	{ ", \"feedback\": \"改成油画风格\"", "油画风格", "改成" },
	{ ", \"feedback\": \"use a watercolor style\"", "手绘水彩风格", "use a" },
	{ ", \"feedback\": \"Switch to Watercolour, please\"", "手绘水彩风格", "Switch" },
	{ ", \"attempt\": 3, \"feedback\": \"换成水彩风\"", "手绘水彩风格", NULL },
	{ ", \"feedback\": \"再换一版\", \"replies\": [\"改成油画风格\", \"再换一版\"]", "油画风格", NULL },
	{ ", \"feedback\": \"改成水墨\", \"replies\": [\"改成油画风格\", \"改成水墨\"]", "水墨风格", "油画" },
	{ ", \"feedback\": \"不要水彩\"", NULL, "水彩" },
	{ ", \"attempt\": 2, \"feedback\": \"不要水彩风\"", NULL, "水彩" },
	{ ", \"attempt\": 3, \"feedback\": \"不要水彩风\"", NULL, "水彩" },
	{ ", \"attempt\": 4, \"feedback\": \"不要水彩风\"", NULL, "水彩" },
	{ ", \"attempt\": 5, \"feedback\": \"不要水彩风\"", NULL, "水彩" },
	{ ", \"attempt\": 6, \"feedback\": \"no watercolor\"", NULL, "水彩" },
};

static void test_plan_styles(void)
{
	for (size_t i = 0; i < sizeof style_cases / sizeof style_cases[0]; i++) {
		const struct style_case *k = &style_cases[i];
		json_t *j = plans_with(1, "[]", k->more), *p;
		size_t n, with = 0, without = 0, all = json_array_size(json_object_get(j, "imagePlans"));
		const char *own = s(j, "style") ?: "?";

		json_array_foreach(json_object_get(j, "imagePlans"), n, p) {
			with += strstr(s(p, "prompt"), k->style ? k->style : own) != NULL;
			without += k->absent == NULL || strstr(s(p, "prompt"), k->absent) == NULL;
		}
		ok(all > 0 && with == all, "plans%s: every prompt in %s", k->more, k->style ? k->style : own);
		ok(all > 0 && without == all, "  ... none has %s", k->absent ? k->absent : "(nothing to check)");
		if (k->style)
			ok(strstr(s(j, "style") ?: "", k->style) != NULL, "  ... the set's style is %s", s(j, "style"));
		json_decref(j);
	}
}

static void test_plans(void)
{
	json_t *a = plans_for(1, "[\"#F08C3C\", \"#F0E6D2\"]"), *b = plans_for(2, "[]"), *p;
	json_t *pa = json_object_get(a, "imagePlans"), *pb = json_object_get(b, "imagePlans");
	size_t i;
	int bound = 1, palette = 1, style = 1;

	is_int(json_array_size(pa), 3, "image plans: one per layout image");
	json_array_foreach(pa, i, p) {
		bound &= s(p, "paragraphId") != NULL && json_is_integer(json_object_get(p, "paragraphIndex"));
		palette &= strstr(s(p, "prompt"), "橙") != NULL && strstr(s(p, "prompt"), "米白") != NULL;
		style &= strstr(s(p, "prompt"), s(a, "style")) != NULL;
	}
	ok(bound, "  ... each bound to a paragraph");
	ok(palette, "  ... each carrying the reference palette by name");
	ok(style, "  ... all in one style");
	is_str(s(json_array_get(pa, 1), "paragraphId"), "p2", "  ... the second image serves 一、出发前准备");
	ok(strstr(s(json_array_get(pa, 1), "prompt"), "出发前准备") != NULL, "  ... and says so");
	is_int(json_array_size(json_object_get(a, "paragraphImageBindings")), 3, "  ... bindings for each");
	ok(strcmp(s(a, "style"), s(b, "style")) != 0 &&
	   strcmp(s(json_array_get(pa, 0), "prompt"), s(json_array_get(pb, 0), "prompt")) != 0,
	   "attempt 2: another style, other prompts");
	json_decref(a);
	json_decref(b);
}

static void test_review(void)
{
	json_t *plans = plans_for(1, "[]"), *j;
	char *facts = NULL, *pl = json_dumps(json_object_get(plans, "imagePlans"), JSON_COMPACT);
	static const char body[] = "关于春游攻略，今天一次讲清楚。\\n\\n一、出发前准备\\n提前看好天气，门票线上预约，"
		"8 点前入园。\\n\\n二、路线怎么排\\n一天两三个点就够，步行 15 分钟。\\n\\n三、拍照与打卡\\n早上 7 点前光线柔和，人也少。"
		"\\n\\n你最想先试哪一条？评论区聊聊～";

	if (asprintf(&facts, "{\"title\": \"春游攻略｜新手也能照做\", \"body\": \"%s\", \"tags\": [\"春游\", \"旅行\", "
		     "\"踏青\"], \"paragraphs\": %s, \"imagePlans\": %s, \"images\": [{\"sequence\": 1, \"status\": "
		     "\"done\"}, {\"sequence\": 2, \"status\": \"failed\"}, {\"sequence\": 3, \"status\": \"done\"}], "
		     "\"keywords\": [\"春游\"]}", body, pars, pl) < 0)
		return;
	j = noteask_text("review", facts);
	ok(n(json_object_get(j, "scores"), "imageCompleteness") > 0.66 &&
	   n(json_object_get(j, "scores"), "imageCompleteness") < 0.68, "review: two of three images made");
	ok(n(json_object_get(j, "scores"), "platformFit") >= 0.9, "  ... a good title, tags and closing fit");
	ok(n(json_object_get(j, "scores"), "textImageAlignment") == 1.0, "  ... every plan matches its paragraph");
	ok(json_is_true(json_object_get(j, "approved")), "  ... approved (%.2f)", n(j, "overall"));
	json_decref(j);
	free(facts);
	if (asprintf(&facts, "{\"title\": \"一个非常非常非常非常非常非常非常长而且没有重点的标题\", \"body\": \"短。\", "
		     "\"tags\": [], \"paragraphs\": [], \"imagePlans\": %s, \"images\": []}", pl) < 0)
		return;
	j = noteask_text("review", facts);
	ok(!json_is_true(json_object_get(j, "approved")) && json_array_size(json_object_get(j, "failReasons")) >= 3,
	   "a thin note without images fails, with reasons");
	is_str(s(j, "targetAgent"), "image_agent", "  ... the weakest (no images) goes to image_agent");
	json_decref(j);
	free(facts);
	free(pl);
	json_decref(plans);
}

/* Drafts the gate must tell apart: on the topic, off it, repeating a
 * section, still naming what the feedback asked to leave out. */
struct check_case {
	const char *name, *topic, *title, *body, *tags, *feedback;
	int approved;
	const char *dim;        /* the dimension sent low, or NULL */
	const char *reason;     /* part of a failReason, or NULL */
};

#define CHECK_BODY "一、出发前准备\\n提前看好天气，门票线上预约，8 点前入园。\\n\\n二、路线怎么排\\n" \
	"一天两三个点就够，步行 15 分钟。\\n\\n三、拍照与打卡\\n早上 7 点前光线柔和，人也少。\\n\\n你最想先试哪一条？评论区聊聊～"

static const struct check_case check_cases[] = {
	{ "on topic", "春游攻略", "春游攻略｜新手也能照做", "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY,
	  "[\"春游\", \"旅行\", \"踏青\"]", "[]", 1, NULL, NULL },
	{ "off topic", "重庆火锅测评", "春游攻略｜新手也能照做", "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY,
	  "[\"春游\", \"旅行\", \"踏青\"]", "[]", 0, "infoDensity", "偏离主题" },
	{ "off topic, English", "sourdough bread at home", "春游攻略｜新手也能照做",
	  "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY, "[\"春游\", \"旅行\", \"踏青\"]", "[]", 0,
	  "infoDensity", "Off the topic" },
	{ "repeated section", "春游攻略", "春游攻略｜新手也能照做", "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY
	  "\\n\\n二、路线怎么排\\n一天两三个点就够，步行 15 分钟。", "[\"春游\", \"旅行\", \"踏青\"]", "[]", 0,
	  "readability", "重复" },
	{ "a line again with another name", "春游攻略", "春游攻略｜新手也能照做",
	  "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY "\\n\\n四、早去人少\\n早上八点前到断桥，人少好拍照，光线也柔和。"
	  "\\n早上八点前到白堤，人少好拍照，光线也柔和。", "[\"春游\", \"旅行\", \"踏青\"]", "[]", 0,
	  "readability", "重复" },
	{ "feedback contradicted", "春游攻略", "春游攻略｜带上狗狗也能照做",
	  "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY, "[\"春游\", \"旅行\", \"踏青\"]",
	  "[\"不要提宠物\"]", 0, "infoDensity", "仍提到" },
	{ "feedback contradicted in a tag", "春游攻略", "春游攻略｜新手也能照做",
	  "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY, "[\"春游\", \"旅行\", \"猫咪\"]",
	  "[\"不要提宠物\"]", 0, "infoDensity", "仍提到" },
	{ "feedback followed", "春游攻略", "春游攻略｜新手也能照做", "关于春游，今天一次讲清楚。\\n\\n" CHECK_BODY,
	  "[\"春游\", \"旅行\", \"踏青\"]", "[\"不要提宠物\"]", 1, NULL, NULL },
	/* A person's removal beats the topic: the pets are not missing once
	 * they said 不要提宠物. */
	{ "a removal the topic names", "春天去苏州旅行，带上猫咪和狗狗", "苏州旅行｜新手也能照做",
	  "关于苏州旅行，今天一次讲清楚。\\n\\n" CHECK_BODY, "[\"苏州\", \"旅行\", \"踏青\"]",
	  "[\"不要提宠物\"]", 1, NULL, NULL },
};

static int has_reason(const json_t *j, const char *part)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(j, "failReasons"), i, r)
		if (strstr(json_string_value(r) ?: "", part))
			return 1;
	return 0;
}

static void test_review_checks(void)
{
	json_t *plans = plans_for(1, "[]");
	char *pl = json_dumps(json_object_get(plans, "imagePlans"), JSON_COMPACT);

	for (size_t i = 0; i < sizeof check_cases / sizeof check_cases[0]; i++) {
		const struct check_case *k = &check_cases[i];
		char *facts = NULL;
		json_t *j;

		if (asprintf(&facts, "{\"topic\": \"%s\", \"title\": \"%s\", \"body\": \"%s\", \"tags\": %s, "
			     "\"feedback\": %s, \"keywords\": [], \"paragraphs\": %s, \"imagePlans\": %s, "
			     "\"images\": [{\"sequence\": 1, \"status\": \"done\"}, {\"sequence\": 2, \"status\": "
			     "\"done\"}, {\"sequence\": 3, \"status\": \"done\"}]}", k->topic, k->title, k->body, k->tags,
			     k->feedback, pars, pl) < 0)
			break;
		j = noteask_text("review", facts);
		ok(j != NULL && json_is_true(json_object_get(j, "approved")) == k->approved,
		   "review %s: %s (overall %.2f)", k->name, k->approved ? "approved" : "sent back", n(j, "overall"));
		if (k->dim) {
			ok(n(json_object_get(j, "scores"), k->dim) <= 0.3, "  ... %s low (%.2f)", k->dim,
			   n(json_object_get(j, "scores"), k->dim));
			ok(has_reason(j, k->reason), "  ... a reason names %s", k->reason);
			is_str(s(j, "targetAgent"), "writer_agent", "  ... back to the writer");
		}
		json_decref(j);
		free(facts);
	}
	free(pl);
	json_decref(plans);
}

struct route_case {
	const char *facts, *next;
};

static const struct route_case route_cases[] = {
	{ "{\"target\": \"reference_intelligence_agent\", \"lastAgent\": \"research_evidence_agent\", "
	  "\"evidenceCount\": 1}", "research_evidence_agent" },
	{ "{\"target\": \"reference_intelligence_agent\", \"lastAgent\": \"research_evidence_agent\", "
	  "\"evidenceCount\": 1, \"widened\": true}", "reference_intelligence_agent" },
	{ "{\"target\": \"reference_intelligence_agent\", \"lastAgent\": \"research_evidence_agent\", "
	  "\"evidenceCount\": 12}", "reference_intelligence_agent" },
	{ "{\"target\": \"review_agent\", \"lastAgent\": \"image_agent\"}", "review_agent" },
};

static void test_route(void)
{
	for (size_t i = 0; i < sizeof route_cases / sizeof route_cases[0]; i++) {
		json_t *j = noteask_text("note_route", route_cases[i].facts);

		is_str(s(j, "nextAgent"), route_cases[i].next, "router: %s -> %s", route_cases[i].facts,
		       route_cases[i].next);
		json_decref(j);
	}
}

static void test_rewrite(void)
{
	json_t *a = noteask_text("note", "{\"topic\": \"春游攻略\"}");
	json_t *b = noteask_text("note", "{\"topic\": \"春游攻略\", \"attempt\": 2}");
	json_t *c = noteask_text("note", "{\"topic\": \"春游攻略\", \"attempt\": 1}");

	ok(strcmp(s(a, "body"), s(b, "body")) != 0 && strcmp(s(a, "title"), s(b, "title")) != 0,
	   "note attempt 2: another title and body");
	ok(json_equal(a, c), "attempt 1 is the first draft");
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

/* A removal the person asked for: the draft leaves the word out (and the
 * clause of the topic that names it) and keeps the rest of the subject;
 * what became of it is the writer's report (wf/note/note_feedback.h,
 * tests/unit/t_note_feedback.c), so the rules claim nothing. */
static const struct {
	const char *name, *facts, *gone, *kept, *said, *not_said;
} removal_cases[] = {
	{ "不要提猫 on a trip with the cat", "{\"topic\": \"春天去苏州旅行，带上家里的猫\", \"feedback\": \"不要提猫\", "
	  "\"previous\": {\"title\": \"春天去苏州旅行，带上家里的猫，一篇讲清楚\", \"body\": \"关于春天去苏州旅行。\", "
	  "\"tags\": [\"苏州\"]}}", "猫", "苏州", NULL, "宠物" },
	{ "a word the draft never had", "{\"topic\": \"春游攻略\", \"feedback\": \"不要提狗\", \"previous\": "
	  "{\"title\": \"春游攻略\", \"body\": \"关于春游。\", \"tags\": [\"春游\"]}}", "狗", "春游", NULL, "删去" },
	{ "a removal said before stands", "{\"topic\": \"春天去苏州旅行，带上家里的猫\", \"feedback\": "
	  "\"补充具体的数字\", \"replies\": [\"不要提猫\"]}", "猫", "苏州", NULL, "删去" },
};

static void test_removal(void)
{
	for (size_t i = 0; i < sizeof removal_cases / sizeof removal_cases[0]; i++) {
		json_t *j = noteask_text("note", removal_cases[i].facts), *t;
		char *all = json_dumps(json_object_get(j, "tags"), JSON_COMPACT);
		const char *said = s(j, "feedbackApplied");
		size_t k;
		int has = strstr(all ? all : "", removal_cases[i].gone) != NULL;

		json_array_foreach(json_object_get(j, "tags"), k, t)
			has |= strstr(json_string_value(t), removal_cases[i].gone) != NULL;
		ok(j && !has && !strstr(s(j, "title"), removal_cases[i].gone) && !strstr(s(j, "body"),
		   removal_cases[i].gone) && strstr(s(j, "title"), removal_cases[i].kept),
		   "%s: no %s in the draft, %s in its title (%s)", removal_cases[i].name, removal_cases[i].gone,
		   removal_cases[i].kept, j ? s(j, "title") : "none");
		ok(removal_cases[i].said == NULL || (said && strstr(said, removal_cases[i].said)),
		   "  ... it says %s", removal_cases[i].said ? removal_cases[i].said : "nothing of it");
		ok(said == NULL || !strstr(said, removal_cases[i].not_said), "  ... and never %s (%s)",
		   removal_cases[i].not_said, said ? said : "");
		free(all);
		json_decref(j);
	}
}

struct template_case {
	const char *topic;
	const char *chosen;
	const char *second;     /* NULL: only the general template follows */
};

static const struct template_case template_cases[] = {
	{ "周末去杭州春游的攻略", "旅行", NULL },
	{ "重庆火锅测评", "探店", "美食" },
	{ "番茄炒蛋怎么做好吃", "美食", NULL },
	{ "跳绳减脂打卡", "健身", "旅行" },
	{ "写点东西", "经验分享", NULL },
	{ "a weekend hiking trip", "travel", NULL },
	{ "how to cook for my dog", "food", "pets" },
};

/* A request worded as an instruction: its subject, as the writer uses it
 * (title and opening), and requests left whole. */
static const struct { const char *text, *subject; } request_cases[] = {
	{ "写一篇杭州西湖春季一日游的小红书笔记", "杭州西湖春季一日游" },
	{ "帮我写一篇关于新手养猫的笔记", "新手养猫" },
	{ "请写一篇成都火锅测评", "成都火锅测评" },
	{ "来一篇周末露营装备清单的小红书文案吧", "周末露营装备清单" },
	{ "杭州西湖一日游的小红书笔记", "杭州西湖一日游" },
	{ "Write a Xiaohongshu note about packing light for Kyoto", "packing light for Kyoto" },
	{ "please write me a short post on home workouts.", "home workouts" },
	/* nothing to take off, or nothing would be left */
	{ "杭州西湖春季一日游", "杭州西湖春季一日游" },
	{ "请假攻略", "请假攻略" },
	{ "写作技巧分享", "写作技巧分享" },
	{ "读书笔记怎么做", "读书笔记怎么做" },
	{ "帮我写一篇小红书笔记吧", "帮我写一篇小红书笔记吧" },
	{ "One pot pasta for busy weeks", "One pot pasta for busy weeks" },
	{ "写一篇", "写一篇" },
};

static void test_request_subject(void)
{
	for (size_t i = 0; i < sizeof request_cases / sizeof request_cases[0]; i++) {
		char *got = note_rules_request_subject(request_cases[i].text);

		is_str(got, request_cases[i].subject, "request %s: subject", request_cases[i].text);
		free(got);
	}
	{
		json_t *note = noteask_text("note", "{\"topic\": \"写一篇杭州西湖春季一日游的小红书笔记\"}");
		const char *title = s(note, "title"), *body = s(note, "body");

		ok(title && strstr(title, "杭州西湖春季一日游") && !strstr(title, "写一篇") &&
		   !strstr(title, "笔记"), "request: the title names the subject, not the request (%s)",
		   title ? title : "(none)");
		ok(body && !strstr(body, "写一篇"), "request: the body does not repeat the request");
		json_decref(note);
	}
}

/* templates: the chosen one first, the others by hits, the general one
 * last; and the chosen one is the writer's (an uncovered topic's first
 * heading is the template's first heading). */
static void test_templates(void)
{
	for (size_t i = 0; i < sizeof template_cases / sizeof template_cases[0]; i++) {
		const struct template_case *tc = &template_cases[i];
		char facts[320];
		json_t *j, *note, *list;
		size_t k;
		int in_range = 1;

		snprintf(facts, sizeof facts, "{\"topic\": \"%s\"}", tc->topic);
		j = noteask_text("templates", facts);
		list = json_object_get(j, "templates");
		is_str(s(j, "chosen"), tc->chosen, "templates %s: %s chosen", tc->topic, tc->chosen);
		is_str(s(json_array_get(list, 0), "template"), tc->chosen, "templates %s: it is first", tc->topic);
		if (tc->second)
			is_str(s(json_array_get(list, 1), "template"), tc->second, "templates %s: then %s",
			       tc->topic, tc->second);
		else
			is_int(json_array_size(list), strcmp(tc->chosen, "经验分享") && strcmp(tc->chosen, "general")
			       ? 2 : 1, "templates %s: then only the general one", tc->topic);
		for (k = 0; k < json_array_size(list); k++)
			in_range &= n(json_array_get(list, k), "score") >= 0 && n(json_array_get(list, k), "score") <= 1;
		ok(in_range, "templates %s: scores in [0, 1]", tc->topic);
		snprintf(facts, sizeof facts, "{\"topic\": \"%s\", \"brief\": {\"goal\": \"讲清楚\"}}", tc->topic);
		note = noteask_text("note", facts);
		ok(note && strstr(s(note, "body"), json_string_value(json_array_get(json_object_get(
		   json_array_get(list, 0), "headings"), 0))), "templates %s: the writer uses the chosen one",
		   tc->topic);
		json_decref(note);
		json_decref(j);
	}
}

int main(void)
{
	msg_catalogue_add(note_msgs, note_nmsgs); /* as registering the workflow does */
	test_clarity();
	test_layout();
	test_plans();
	test_plan_styles();
	test_review();
	test_review_checks();
	test_route();
	test_rewrite();
	test_removal();
	test_templates();
	test_request_subject();
	return tap_done();
}
