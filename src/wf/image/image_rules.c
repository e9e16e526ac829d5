/* The image workflow's model roles, offline: the planner's intent (seed
 * 000: action, subject, style, confidence, reasoning), the prompt writer
 * and the critic. The critic scores what can be measured in the final
 * prompt and parameters (seed 000 v1 §3.4): subject present, style
 * present, retrieved styles used, sizes in range. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "wf/image/image_crit.h"
#include "wf/image/image_intent.h"
#include "wf/image/image_named.h"
#include "wf/image/image_rules.h"
#include "wf/intents.h"
#include "util/xmalloc.h"
#include "util/jnum.h"
#include "text/script.h"

static const char *image_rules_style_name(const struct image_style *st, int zh)
{
	return st ? (zh ? st->zh : st->en) : "";
}

/* The subject, at most 200 characters. The caller frees it. */
static char *image_rules_subject(const char *text)
{
	char *s = image_subject(text), *t = phrase_truncate(s, 200);

	free(s);
	return t;
}

/* The subject, without the words that name a style of the library
 * (named: {start, end}, or NULL). The caller frees it. */
static char *image_rules_subject_named(const char *text, const json_t *named)
{
	char *s, *t;

	if (named == NULL)
		return image_rules_subject(text);
	s = image_subject_cut(text, (size_t)json_integer_value(json_object_get(named, "start")),
			      (size_t)json_integer_value(json_object_get(named, "end")));
	t = phrase_truncate(s, 200);
	free(s);
	return t;
}

/* The last picture again ("重新生成", "再来一张"), or in another style
 * ("换成水彩风格", "make it pixel art"): generate_image and
 * adjust_parameters of the last picture. NULL when the text asks neither. */
static const char *image_rules_intent_again(const json_t *facts, const char *text, int zh,
					struct buf *why, double *conf)
{
	int last = phrase_present(json_object_get(facts, "lastResult"));
	const json_t *named = json_object_get(facts, "namedStyle");
	const struct image_style *st;
	const char *name;
	struct rules_match m = image_regenerate(text);

	if (m.matched) {
		*conf = last ? m.confidence : 0.3;
		phrase_say(why, zh, last ? "要求重新生成上一张图，沿用上次的主体和风格" :
			    "要求重新生成，但还没有图片", last ? "It asks for the last picture again, "
			    "with the same subject and style" : "It asks to regenerate, but there is no "
			    "picture yet");
		return last ? "generate_image" : "unknown";
	}
	m = image_restyle(text, &st);
	name = image_rules_style_name(st, zh);
	if (!m.matched && (m = image_named_restyle(named, text)).matched)
		name = phrase_str(named, "name");
	if (m.matched && (last || strcmp(m.rule, "restyle") == 0)) {
		*conf = last ? m.confidence : 0.6;
		phrase_say(why, zh, last ? "要求把上一张图换成「%s」风格" : "要求换成「%s」风格，但还没有图片",
			    last ? "It asks for the last picture in the style \"%s\"" : "It asks for the "
			    "style \"%s\", but there is no picture yet", name);
		return "adjust_parameters";
	}
	return NULL;
}

/* What the context decides: nothing to read, a mask, a change to one
 * region without a mask, an edit of the last picture (or of none yet), a
 * greeting or small talk. NULL when it decides nothing. */
static const char *image_rules_intent_context(const json_t *facts, const char *text, int zh,
					  struct buf *why, double *conf)
{
	struct rules_match m;
	const char *action;

	*conf = 0.1;
	if (intents_blank(text)) {
		phrase_say(why, zh, "输入为空或只有表情符号，看不出要画什么",
			    "The message is empty or only emoji: nothing to draw");
		return "unknown";
	}
	if (json_is_true(json_object_get(facts, "hasMask"))) {
		*conf = 0.9;
		phrase_say(why, zh, "带有蒙版：在涂抹的区域局部重绘",
			    "A mask came with the message: repaint the masked area");
		return "inpainting";
	}
	m = image_region_edit(text);
	if (m.matched) {
		*conf = m.confidence;
		phrase_say(why, zh, "要修改图片的某个区域，但没有蒙版标出是哪里",
			    "It asks to change one region of the picture, but no mask says which");
		return "inpainting";
	}
	action = image_rules_intent_again(facts, text, zh, why, conf);
	if (action)
		return action;
	m = image_adjust_intent(text);
	/* Adjustment words after a picture request describe the new picture. */
	if (m.matched && strcmp(m.rule, "adjust_lead") != 0 && intents_image(text).matched)
		m.matched = 0;
	if (m.matched && phrase_present(json_object_get(facts, "lastResult"))) {
		*conf = m.confidence;
		phrase_say(why, zh, "已有上一张图，且要求调整（亮度、尺寸、风格强度等）",
			    "There is a last picture and the message asks to adjust it");
		return "adjust_parameters";
	}
	if (m.matched && strcmp(m.rule, "adjust_lead") == 0) {
		*conf = 0.6;
		phrase_say(why, zh, "要求调整，但还没有可以调整的图片",
			    "It asks for an adjustment, but there is no picture to adjust yet");
		return "adjust_parameters";
	}
	if (intents_greeting(text) || intents_small_talk(text)) {
		*conf = 0.15;
		phrase_say(why, zh, "这是一句寒暄，不是画面描述", "This is small talk, not a picture request");
		return "unknown";
	}
	return NULL;
}

/* Nothing to picture in the request or in what it asks to draw (画一个
 * qwerty). */
static struct rules_match image_rules_nothing(const char *text)
{
	struct rules_match m = image_not_picture(text);
	char *subject;

	if (m.matched)
		return m;
	subject = image_subject(text);
	if (*subject && strcmp(subject, text) != 0)
		m = image_not_picture(subject);
	free(subject);
	return m;
}

/* What the words say, once the context decided nothing. In an image
 * studio a description is a picture request: only text with nothing to
 * picture (a question, a search, another kind of task) is not. */
static const char *image_rules_intent_words(const char *text, const json_t *named, int zh,
					    struct buf *why, double *conf)
{
	struct rules_match m = image_rules_nothing(text);
	const struct image_style *st;
	char *subject;
	int concrete;

	if (m.matched) {
		*conf = m.confidence;
		phrase_say(why, zh, "没有可画的内容（规则 %s）：这是对文字的处理、占位文字或无意义的字符",
			    "Nothing to picture (rule %s): work on a text, placeholder text or letters "
			    "that spell no words", m.rule);
		return "unknown";
	}
	m = intents_image(text);
	if (m.matched) {
		*conf = m.confidence;
		phrase_say(why, zh, "命中生图规则 %s", "Matched the picture rule %s", m.rule);
		return "generate_image";
	}
	if (m.confidence > 0) {
		*conf = 0.3;
		phrase_say(why, zh, "说的是以前的图或做不到的事（规则 %s），不是新的画图请求",
			    "It refers to an earlier picture or an inability (rule %s), not a new request",
			    m.rule);
		return "unknown";
	}
	if (intents_other_task(text) || intents_search(text).matched ||
	    intents_time(text).matched) {
		*conf = 0.25;
		phrase_say(why, zh, "这是别的任务（写作、查询、解释等），不是画面描述",
			    "This asks for another kind of task (writing, looking up, explaining), "
			    "not a picture");
		return "unknown";
	}
	st = image_style(text);
	if (st || named) {
		*conf = 0.75;
		phrase_say(why, zh, "没有画图指令，但提到了风格「%s」，按画面描述处理",
			    "No explicit command, but it names the style \"%s\": taken as a description",
			    named ? phrase_str(named, "name") : image_rules_style_name(st, zh));
		return "generate_image";
	}
	if (phrase_question(text)) {
		*conf = 0.3;
		phrase_say(why, zh, "这是一个提问，不是画面描述", "This is a question, not a description");
		return "unknown";
	}
	subject = image_subject(text);
	concrete = phrase_chars(subject) >= (strcmp(text_lang(subject), "zh") == 0 ? 1u : 3u) &&
		   phrase_chars(text) <= 80;
	free(subject);
	if (concrete) {
		*conf = 0.7;
		phrase_say(why, zh, "没有画图指令，但这是一段画面描述，按生图请求处理",
			    "No command word, but the text describes a picture: taken as a picture request");
		return "generate_image";
	}
	*conf = 0.2;
	phrase_say(why, zh, "看不出要画的内容", "Could not tell what to draw");
	return "unknown";
}

/* An adjustment keeps the last picture's subject and style. */
static void image_rules_intent_keep(const json_t *facts, char **subject, const char **style)
{
	const json_t *last = json_object_get(facts, "lastIntent");
	const char *s = phrase_str(last, "subject"), *st = phrase_str(last, "style");

	/* Without the last intent the words are about the change, not a subject. */
	free(*subject);
	*subject = xstrdup(s ? s : "");
	if (last)
		*style = st ? st : "";
}

json_t *image_rules_task_intent(const json_t *facts, const char *text, char *err, size_t errlen)
{
	int zh = strcmp(text_lang(text), "zh") == 0;
	struct buf why;
	double conf;
	const char *action, *style;
	const struct image_style *st;
	const json_t *named = json_object_get(facts, "namedStyle");
	char *subject;
	json_t *j;

	if (!json_is_object(named) || phrase_str(named, "name") == NULL)
		named = NULL;
	buf_init(&why, 1024);
	action = image_rules_intent_context(facts, text, zh, &why, &conf);
	if (action == NULL)
		action = image_rules_intent_words(text, named, zh, &why, &conf);
	/* Nothing to picture has no subject. */
	subject = strcmp(action, "unknown") ? image_rules_subject_named(text, named) : xstrdup("");
	style = named ? phrase_str(named, "name") : image_rules_style_name(image_style(text), zh);
	if (strcmp(action, "adjust_parameters") == 0 || (strcmp(action, "generate_image") == 0 &&
							 image_regenerate(text).matched))
		image_rules_intent_keep(facts, &subject, &style);
	/* A new style named for the last picture replaces its style. */
	if (strcmp(action, "adjust_parameters") == 0 && image_restyle(text, &st).matched)
		style = image_rules_style_name(st, zh);
	else if (strcmp(action, "adjust_parameters") == 0 && image_named_restyle(named, text).matched)
		style = phrase_str(named, "name");
	if (strcmp(action, "unknown") != 0)
		phrase_say(&why, zh, "。主体：%s；风格：%s", ". Subject: %s; style: %s",
			    *subject ? subject : (zh ? "未指定" : "unspecified"),
			    *style ? style : (zh ? "未指定" : "unspecified"));
	j = json_pack("{s:s, s:s, s:s, s:f, s:s}", "action", action, "subject", subject,
		      "style", style, "confidence", jnum_round(conf, JNUM_SCORE), "reasoning", why.data ? why.data : "");
	free(subject);
	buf_free(&why);
	return j;
}

static const char *const image_rules_comp_zh[] = {
	"主体居中，构图平衡", "三分法构图，留白自然", "近景特写，细节丰富", "广角全景，层次分明",
	"对称构图，视觉稳定", "低角度仰拍，画面有张力",
};
static const char *const image_rules_comp_en[] = {
	"centered subject, balanced composition", "rule of thirds, natural negative space",
	"close-up, rich detail", "wide panorama, clear depth", "symmetrical composition",
	"low-angle shot, dynamic framing",
};
static const char *const image_rules_light_zh[] = {
	"柔和的自然光", "金色时刻的暖光", "电影感的侧逆光", "清晨薄雾中的散射光", "冷暖对比的霓虹光",
	"明亮的漫射光",
};
static const char *const image_rules_light_en[] = {
	"soft natural light", "warm golden-hour light", "cinematic rim light",
	"misty morning light", "contrasting neon light", "bright diffuse light",
};
static const char *const image_rules_quality_zh[] = {
	"高清细节，画质精致", "色彩和谐，质感细腻", "层次丰富，锐利清晰", "细节饱满，氛围感强",
};
static const char *const image_rules_quality_en[] = {
	"highly detailed, high resolution", "harmonious colors, fine texture",
	"rich layers, sharp focus", "detailed, atmospheric",
};

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

json_t *image_rules_task_optimize(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *given = phrase_str(facts, "style");
	const struct image_style *st = image_style(given ? given : text);
	int zh = strcmp(text_lang(text), "zh") == 0;
	const char *style = st ? image_rules_style_name(st, zh) : given;
	char *subject = image_rules_subject(text);
	uint64_t h = phrase_hash(text, style ? style : "");
	struct buf b;
	json_t *j;

	if (*subject == '\0') {
		free(subject);
		subject = phrase_truncate(*text ? text : (zh ? "一幅画" : "a picture"), 120);
	}
	buf_init(&b, PHRASE_TEXT_MAX);
	buf_adds(&b, subject);
	if (style)
		phrase_say(&b, zh, "，%s风格", ", %s style", style);
	if (zh)
		buf_printf(&b, "，%s，%s，%s", phrase_pick(image_rules_comp_zh, OFFLINE_N(image_rules_comp_zh), h, 0),
			   phrase_pick(image_rules_light_zh, OFFLINE_N(image_rules_light_zh), h, 1),
			   phrase_pick(image_rules_quality_zh, OFFLINE_N(image_rules_quality_zh), h, 2));
	else
		buf_printf(&b, ", %s, %s, %s", phrase_pick(image_rules_comp_en, OFFLINE_N(image_rules_comp_en), h, 0),
			   phrase_pick(image_rules_light_en, OFFLINE_N(image_rules_light_en), h, 1),
			   phrase_pick(image_rules_quality_en, OFFLINE_N(image_rules_quality_en), h, 2));
	j = json_pack("{s:s}", "prompt", b.data);
	buf_free(&b);
	free(subject);
	return j;
}

/* ---- critique ---- */

/* The most points for a picture that shows none of its subject. */
#define IMAGE_RULES_UNSEEN_MAX 50

/* At least half of what's keywords appear in the prompt (or all of it). */
static int image_rules_mentions(const char *prompt, const char *what)
{
	json_t *kw;
	size_t i, found = 0, n;
	json_t *v;

	if (what == NULL || *what == '\0')
		return 0;
	if (phrase_has(prompt, what))
		return 1;
	kw = phrase_keywords(what, 8);
	n = json_array_size(kw);
	json_array_foreach(kw, i, v)
		found += phrase_has(prompt, json_string_value(v));
	json_decref(kw);
	return n > 0 && found * 2 >= n;
}

/* A style in either of its languages, or by any word of it (宫崎骏 for
 * 吉卜力). */
static int image_rules_style_named(const char *prompt, const char *style)
{
	const struct image_style *st = image_style(style);

	if (image_rules_mentions(prompt, style))
		return 1;
	return st && (phrase_has(prompt, st->zh) || phrase_has(prompt, st->en) ||
		      image_style_in(st, prompt));
}

static int image_rules_retrieved_used(const char *prompt, const json_t *item)
{
	const char *name = json_string_value(item), *p = NULL;

	if (json_is_object(item)) {
		name = phrase_str(item, "style");
		if (name == NULL)
			name = phrase_str(item, "name");
		p = phrase_str(item, "prompt");
	}
	return (name && image_rules_style_named(prompt, name)) || (p && image_rules_mentions(prompt, p));
}

/* The asked style is in the prompt by name, or through a retrieved style
 * of the same kind whose fragment the prompt carries. */
static int image_rules_style_used(const char *prompt, const char *style, const json_t *retrieved)
{
	const struct image_style *st = image_style(style);
	const json_t *item;
	size_t i;

	if (image_rules_style_named(prompt, style))
		return 1;
	json_array_foreach(retrieved, i, item) {
		const char *name = json_is_object(item) ? phrase_str(item, "style") : json_string_value(item);

		if (name && ((st && image_style(name) == st) || phrase_has(name, style)) &&
		    image_rules_retrieved_used(prompt, item))
			return 1;
	}
	return 0;
}

struct image_rules_crit {
	int points;        /* out of 100 */
	int zh;
	struct buf feedback;
	json_t *suggestions;
	json_t *defects;   /* what no score may overlook: the checks that failed */
	json_t *scene;     /* what the picture shows (image_crit.h), or NULL */
	int unseen;        /* the picture shows none of the subject it could show */
};

static void image_rules_crit_note(struct image_rules_crit *c, int pts, const char *line)
{
	c->points += pts;
	buf_printf(&c->feedback, "%s%s", c->feedback.len ? (c->zh ? "；" : "; ") : "", line);
}

static void image_rules_crit_suggest(struct image_rules_crit *c, const char *zh, const char *en)
{
	json_array_append_new(c->suggestions, json_string(c->zh ? zh : en));
}

/* A failed check: no points, and a defect that bounds a model's score. */
static void image_rules_crit_defect(struct image_rules_crit *c, const char *zh, const char *en)
{
	image_rules_crit_note(c, 0, c->zh ? zh : en);
	json_array_append_new(c->defects, json_string(c->zh ? zh : en));
}

/* The subject's and the style's points, shared between the prompt and,
 * when the picture can be read, the picture. */
static int image_rules_crit_share(const struct image_rules_crit *c, int points)
{
	return c->scene ? points / 2 : points;
}

static void image_rules_crit_words(struct image_rules_crit *c, const json_t *facts, const char *prompt)
{
	const char *subject = phrase_str(facts, "subject"), *style = phrase_str(facts, "style");

	if (phrase_chars(prompt) >= 2)
		image_rules_crit_note(c, 10, c->zh ? "提示词完整" : "the prompt is there");
	else
		image_rules_crit_suggest(c, "补充画面描述，提示词太短", "write a fuller prompt");
	if (subject && image_rules_mentions(prompt, subject)) {
		image_rules_crit_note(c, image_rules_crit_share(c, 30),
				      c->zh ? "主体已写入提示词" : "the subject is in the prompt");
	} else {
		image_rules_crit_defect(c, "提示词里找不到主体", "the subject is missing from the prompt");
		image_rules_crit_suggest(c, "在提示词中写明要画的主体", "name the subject in the prompt");
	}
	if (style == NULL) {
		image_rules_crit_note(c, image_rules_crit_share(c, 10),
				      c->zh ? "未指定风格" : "no style was asked for");
		image_rules_crit_suggest(c, "建议增加更具体的风格描述", "add a specific style");
	} else if (image_rules_style_used(prompt, style, json_object_get(facts, "retrievedStyles"))) {
		image_rules_crit_note(c, image_rules_crit_share(c, 20),
				      c->zh ? "风格已体现" : "the style is in the prompt");
	} else {
		image_rules_crit_defect(c, "提示词没有体现要求的风格", "the asked style is missing");
		image_rules_crit_suggest(c, "把要求的风格写进提示词", "put the asked style in the prompt");
	}
}

static void image_rules_crit_retrieved(struct image_rules_crit *c, const json_t *facts, const char *prompt)
{
	const json_t *r = json_object_get(facts, "retrievedStyles"), *v;
	size_t i, used = 0, n = json_array_size(r);
	char line[160];

	if (n == 0) {
		image_rules_crit_note(c, 10, c->zh ? "没有检索到风格参考" : "no style references were retrieved");
		return;
	}
	json_array_foreach(r, i, v)
		used += image_rules_retrieved_used(prompt, v);
	snprintf(line, sizeof line, c->zh ? "检索到的 %zu 个风格用上了 %zu 个" :
		 "%2$zu of the %1$zu retrieved styles are used", n, used);
	image_rules_crit_note(c, (int)(20 * used / n), line);
	if (used < n)
		image_rules_crit_suggest(c, "把检索到的风格提示词加入最终提示词",
				     "use the retrieved style phrases in the prompt");
}

static int image_rules_side_ok(const json_t *v)
{
	json_int_t n = json_integer_value(v);

	return v == NULL || json_is_null(v) || (json_is_integer(v) && n >= 256 && n <= 2048);
}

static void image_rules_crit_params(struct image_rules_crit *c, const json_t *facts)
{
	const json_t *w = json_object_get(facts, "width"), *h = json_object_get(facts, "height");
	const json_t *strength = json_object_get(facts, "styleStrength");
	const char *action = phrase_str(facts, "action");
	json_int_t wi = json_integer_value(w), hi = json_integer_value(h);
	int ok = image_rules_side_ok(w) && image_rules_side_ok(h) &&
		 (wi == 0 || hi == 0 || (wi <= 4 * hi && hi <= 4 * wi)) &&
		 (strength == NULL || json_is_null(strength) ||
		  (json_is_number(strength) && json_number_value(strength) >= 0 &&
		   json_number_value(strength) <= 100));

	if (ok) {
		image_rules_crit_note(c, 15, c->zh ? "参数在合理范围" : "the parameters are in range");
	} else {
		image_rules_crit_defect(c, "参数超出合理范围", "a parameter is out of range");
		image_rules_crit_suggest(c, "尺寸保持在 256–2048 像素、宽高比不超过 4:1，风格强度在 0–100 之间",
				     "keep the sides within 256-2048 px, the aspect ratio within 4:1 "
				     "and the style strength within 0-100");
	}
	if (action == NULL || strcmp(action, "generate_image") == 0 ||
	    strcmp(action, "inpainting") == 0 || strcmp(action, "adjust_parameters") == 0)
		c->points += 5;
}

/* Names joined for a sentence ("猫、狗", "cat, dog"). */
static void image_rules_crit_names(const struct image_rules_crit *c, const json_t *names, struct buf *b)
{
	const json_t *v;
	size_t i;

	json_array_foreach(names, i, v)
		buf_printf(b, "%s%s", i ? (c->zh ? "、" : ", ") : "", json_string_value(v));
}

/* The subject in the picture: its glyphs, all, some or none. */
static void image_rules_crit_scene_subject(struct image_rules_crit *c, const json_t *facts)
{
	const json_t *asked = json_object_get(c->scene, "asked"), *shown = json_object_get(c->scene, "shown");
	const json_t *missing = json_object_get(c->scene, "missing");
	size_t n = json_array_size(asked), k = json_array_size(shown);
	struct buf b;

	buf_init(&b, 512);
	if (!phrase_present(json_object_get(facts, "subject"))) {
		image_rules_crit_note(c, 15, c->zh ? "没有指定主体" : "no subject was asked for");
	} else if (n > 0 && k == n) {
		buf_adds(&b, c->zh ? "画面里有要求的主体：" : "the picture shows the subject: ");
		image_rules_crit_names(c, shown, &b);
		image_rules_crit_note(c, 15, b.data);
	} else if (k > 0) {
		buf_adds(&b, c->zh ? "画面里缺少：" : "the picture lacks: ");
		image_rules_crit_names(c, missing, &b);
		image_rules_crit_note(c, (int)(15 * k / n), b.data);
		image_rules_crit_suggest(c, "重新生成，或换个说法描述缺少的主体",
					 "regenerate, or describe the missing subjects another way");
	} else if (n > 0) {
		buf_adds(&b, c->zh ? "画面里没有要求的主体：" : "the picture shows none of the subject: ");
		image_rules_crit_names(c, missing, &b);
		image_rules_crit_defect(c, b.data, b.data);
		c->unseen = 1;
		image_rules_crit_suggest(c, "重新生成，或换个说法描述主体", "regenerate, or describe the subject another way");
	} else {
		buf_printf(&b, c->zh ? "画面里没有「%s」：离线图库没有它的图形" :
			   "the picture does not show \"%s\": the offline pictures have no glyph for it",
			   json_string_value(json_array_get(missing, 0)));
		image_rules_crit_note(c, 0, b.data);
		image_rules_crit_suggest(c, "用更具体的事物描述主体（例如动物、植物、建筑）",
					 "describe the subject with concrete things (animals, plants, buildings)");
	}
	buf_free(&b);
}

/* The style in the picture: the filter asked for, applied or not. */
static void image_rules_crit_scene_style(struct image_rules_crit *c, const json_t *facts)
{
	const char *style = phrase_str(facts, "style");
	const char *want = json_string_value(json_object_get(c->scene, "styleAsked"));
	const char *got = json_string_value(json_object_get(c->scene, "styleApplied"));
	char line[320];

	if (style == NULL) {
		image_rules_crit_note(c, 5, c->zh ? "画面未加风格滤镜" : "no style filter in the picture");
	} else if (want && got && strcmp(want, got) == 0) {
		snprintf(line, sizeof line, c->zh ? "画面应用了「%s」滤镜" : "the picture has the %s filter", want);
		image_rules_crit_note(c, 10, line);
	} else if (want) {
		snprintf(line, sizeof line, c->zh ? "画面没有应用「%s」滤镜" : "the picture lacks the %s filter", want);
		image_rules_crit_note(c, 0, line);
		image_rules_crit_suggest(c, "重新生成以应用要求的风格", "regenerate to apply the asked style");
	} else {
		snprintf(line, sizeof line, c->zh ? "离线画面没有「%s」风格的滤镜，风格只写进了提示词" :
			 "the offline picture has no filter for the style \"%s\": it is in the prompt only",
			 style);
		image_rules_crit_note(c, 0, line);
	}
}

/* Runs every check of the critic on facts. */
static void image_rules_crit_run(struct image_rules_crit *c, const json_t *facts, const char *text)
{
	const char *prompt = phrase_str(facts, "prompt");

	const char *lang = phrase_str(facts, "lang");
	const json_t *comp = json_object_get(facts, "composition");

	if (prompt == NULL)
		prompt = text ? text : "";
	c->zh = lang ? strcmp(lang, "zh") == 0 : (strcmp(text_lang(prompt), "zh") == 0 ||
		strcmp(text_lang(phrase_str(facts, "subject")), "zh") == 0);
	c->suggestions = json_array();
	c->defects = json_array();
	c->scene = json_is_object(comp) ? image_crit_scene(comp, phrase_str(facts, "subject"),
							   phrase_str(facts, "style"), c->zh ? "zh" : "en")
					: NULL;
	buf_init(&c->feedback, 4096);
	image_rules_crit_words(c, facts, prompt);
	if (c->scene) {
		image_rules_crit_scene_subject(c, facts);
		image_rules_crit_scene_style(c, facts);
	}
	image_rules_crit_retrieved(c, facts, prompt);
	image_rules_crit_params(c, facts);
}

json_t *image_rules_task_critique(const json_t *facts, const char *text, char *err, size_t errlen)
{
	struct image_rules_crit c = { 0 };
	double score;
	json_t *j;

	image_rules_crit_run(&c, facts, text);
	/* A picture without what was asked does not pass, whatever else is right. */
	if (c.unseen && c.points > IMAGE_RULES_UNSEEN_MAX)
		c.points = IMAGE_RULES_UNSEEN_MAX;
	score = c.points / 100.0;
	if (score < 0.6)
		image_rules_crit_suggest(&c, "重新生成", "regenerate");
	else if (score < 0.8 && json_array_size(c.suggestions) == 0)
		image_rules_crit_suggest(&c, "可以尝试调整参数以获得更好效果",
				     "adjusting the parameters may improve it");
	else if (score >= 0.8)
		json_array_clear(c.suggestions);
	phrase_say(&c.feedback, c.zh, "。评分 %d/100，%s", ". Score %d/100: %s", c.points,
		    score < 0.6 ? (c.zh ? "建议重新生成" : "regenerate") :
		    score < 0.8 ? (c.zh ? "通过，可以优化" : "passed, could be better") :
		    (c.zh ? "质量良好" : "good"));
	j = json_pack("{s:b, s:f, s:s, s:o, s:b}", "passed", score >= 0.6, "score", jnum_round(score, JNUM_SCORE),
		      "feedback", c.feedback.data, "suggestions", c.suggestions,
		      "needsRegeneration", score < 0.6);
	if (c.scene)
		json_object_set_new(j, "picture", c.scene);
	json_decref(c.defects);
	buf_free(&c.feedback);
	return j;
}

json_t *image_rules_critique_checks(const json_t *facts)
{
	struct image_rules_crit c = { 0 };
	json_t *j;

	image_rules_crit_run(&c, facts, "");
	j = json_pack("{s:o, s:o}", "defects", c.defects, "suggestions", c.suggestions);
	json_decref(c.scene);
	buf_free(&c.feedback);
	return j;
}

prov_rules_fn image_rules_for(const char *task)
{
	static const struct { const char *task; prov_rules_fn fn; } tasks[] = {
		{ "intent", image_rules_task_intent },
		{ "optimize_prompt", image_rules_task_optimize },
		{ "critique", image_rules_task_critique },
	};

	for (size_t i = 0; task && i < sizeof tasks / sizeof tasks[0]; i++)
		if (strcmp(tasks[i].task, task) == 0)
			return tasks[i].fn;
	return NULL;
}
