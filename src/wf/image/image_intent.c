/* What a message asks of the last picture (see image_intent.h): adjust
 * it, draw it again, or change one region of it, each one pattern of the
 * rule engine (text/rules_int.h) compiled on first use. */
#include "config.h"
#include "text/rules_int.h"
#include "wf/image/image_intent.h"

/* A place in the picture pointed at, and the verbs that change one. */
#define IMAGE_REGION_PLACE \
	"这里|这儿|这块|这一块|这部分|这一部分|这个(?:地方|区域|部分|位置|角落)|此处|这边|那里|那儿|" \
	"那块|那部分|选中的?(?:区域|部分|地方)|涂抹的?(?:区域|部分|地方)|框选的?(?:区域|部分)"
#define IMAGE_REGION_VERB \
	"修改|修|改|换|替换|重绘|重画|擦|去掉|删掉|抹掉|涂|加上|添加|加个|放|变|画"

#define IMAGE_ADJUST_WORDS \
	"调整|再调|调一下|更亮|更暗|亮一点|暗一点|亮一些|暗一些|调亮|调暗|" \
	"风格强度|强度|分辨率|尺寸|对比度|饱和度|色调|清晰度|参数|放大|缩小|" \
	"\\bbrighter\\b|\\bdarker\\b|\\bresolution\\b|\\bcontrast\\b|" \
	"\\bsaturation\\b|\\badjust|\\btweak"

enum image_intent_pat {
	IMAGE_PAT_ADJUST,
	IMAGE_PAT_ADJUST_LEAD,
	IMAGE_PAT_REGION_EDIT,
	IMAGE_PAT_REGENERATE,
	IMAGE_NPATS
};

static const struct {
	const char *name;
	const char *re;
} image_intent_pats[IMAGE_NPATS] = {
	[IMAGE_PAT_ADJUST] = { "adjust", IMAGE_ADJUST_WORDS },
	/* The message opens with the adjustment: 再调整一下…, 风格强度 90, make it brighter. */
	[IMAGE_PAT_ADJUST_LEAD] = { "adjust_lead",
		"^[\\s\\p{P}\\p{S}]*(?:请|帮我|麻烦)?\\s*(?:再|重新)?\\s*"
		"(?:把它|把图片?|将图片?|图片|画面|整体|整张图?)?\\s*(?:\\bmake\\s+it\\s+)?"
		"(?:" IMAGE_ADJUST_WORDS ")" },
	/* A change to one place in the picture: a place pointed at (这里, this
	 * part) near a verb of change, or repainting by name. */
	[IMAGE_PAT_REGION_EDIT] = { "region_edit",
		"局部重绘|局部修改|局部重画|重绘(?:这|那|选中|涂抹)|"
		"(?:" IMAGE_REGION_PLACE ").{0,8}?(?:" IMAGE_REGION_VERB ")|"
		"(?:" IMAGE_REGION_VERB ").{0,6}?(?:" IMAGE_REGION_PLACE ")|"
		"\\b(?:inpaint(?:ing)?|repaint)\\b|"
		"\\b(?:change|replace|edit|fix|modify|remove|erase|redraw)\\b.{0,24}?"
		"\\b(?:here|there|this\\s+(?:part|area|region|spot|bit|corner))\\b" },
	/* The whole message asks for the last picture again: 重新生成, 再来一张,
	 * 换一张, regenerate, try again. */
	[IMAGE_PAT_REGENERATE] = { "regenerate",
		"^[\\s\\p{P}\\p{S}]*(?:(?:请你?|帮我|麻烦你?|给我)\\s*)?"
		"(?:(?:重新生成|重新画|重新来|重新做|重画|重来|重做|重新|再生成|再画|再来)"
		"(?:\\s*(?:一[张幅次遍下个]|[张幅个]))?|换\\s*(?:一[张幅个]|[张幅个]))"
		"(?:图片?|吧|呀|啊|哦|看看|试试)*[\\s\\p{P}\\p{S}]*\\z|"
		"^[\\s\\p{P}\\p{S}]*(?:please\\s+)?(?:re-?generate(?:\\s+(?:it|this|the\\s+(?:image|picture)))?|"
		"redo(?:\\s+it)?|retry|try\\s+again|again|another(?:\\s+one)?|one\\s+more|"
		"(?:generate|draw|make)\\s+(?:it\\s+)?(?:again|another(?:\\s+one)?))"
		"(?:[\\s,，]*please)?[\\s\\p{P}\\p{S}]*\\z" },
};

static pcre2_code *image_intent_code[IMAGE_NPATS];
static int image_intent_ready;

static void image_intent_init(void)
{
	if (image_intent_ready)
		return;
	image_intent_ready = 1;
	for (size_t i = 0; i < IMAGE_NPATS; i++)
		image_intent_code[i] = rules_compile(image_intent_pats[i].name, image_intent_pats[i].re);
}

void image_intent_free(void)
{
	for (size_t i = 0; i < IMAGE_NPATS; i++) {
		pcre2_code_free(image_intent_code[i]);
		image_intent_code[i] = NULL;
	}
	image_intent_ready = 0;
	image_subject_free();
	image_nonpic_free();
}

/* A match of one pattern as a rule with its confidence. */
static struct rules_match image_intent_hit(enum image_intent_pat which, const char *text,
					   const char *rule, double confidence)
{
	struct rules_match m = { 0, "none", 0.0 };
	size_t ov[4];

	if (text == NULL)
		return m;
	image_intent_init();
	if (rules_find(image_intent_code[which], text, rules_text_len(text), 0, ov)) {
		m.matched = 1;
		m.rule = rule;
		m.confidence = confidence;
	}
	return m;
}

struct rules_match image_adjust_intent(const char *text)
{
	struct rules_match m = image_intent_hit(IMAGE_PAT_ADJUST_LEAD, text, "adjust_lead", 0.85);

	return m.matched ? m : image_intent_hit(IMAGE_PAT_ADJUST, text, "adjust", 0.7);
}

struct rules_match image_region_edit(const char *text)
{
	return image_intent_hit(IMAGE_PAT_REGION_EDIT, text, "region_edit", 0.8);
}

struct rules_match image_regenerate(const char *text)
{
	return image_intent_hit(IMAGE_PAT_REGENERATE, text, "regenerate", 0.9);
}
