/* The image workflow's keyword rules (wf/image/image_intent.h): style and
 * subject extraction, a change to one region, an adjustment, a
 * regeneration, a restyle of the last picture, text with nothing to
 * picture, and text that is not what the rules expect (invalid UTF-8, a
 * cut character, NULL). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/image/image_intent.h"

struct intent_case {
	const char *text;
	int matched;
	const char *rule;     /* NULL: any */
};

struct subject_case {
	const char *text;
	const char *style;    /* Chinese name, NULL: no style */
	const char *subject;
};

static const struct subject_case subject_cases[] = {
	{ "帮我画一只赛博朋克风格的猫", "赛博朋克", "猫" },
	{ "draw a cat in watercolor style", "水彩", "cat" },
	{ "画一张水墨山水", "水墨", "山水" },
	{ "生成美少女", NULL, "美少女" },
	{ "画一张海报", NULL, "海报" },
	{ "把背景换成星空", NULL, "星空" },
	{ "你能生成吗", NULL, "" },
	{ "一只像素风的小狗", "像素", "小狗" },
	{ "generate an image of a red fox", NULL, "red fox" },
	{ "可以生成超绝美少女吗", NULL, "超绝美少女" },
	{ "请画一幅油画风格的城堡！", "油画", "城堡" },
	{ "来张图：雪山下的小木屋", NULL, "雪山下的小木屋" },
	{ "来一张图，海边的灯塔", NULL, "海边的灯塔" },
	{ "一只在海边奔跑的金毛犬", NULL, "在海边奔跑的金毛犬" },
	{ "show me a red fox in the snow", NULL, "red fox in the snow" },
	{ "replace this part with a tree", NULL, "tree" },
	{ "宫崎骏风格的海边小镇", "吉卜力", "海边小镇" },
	/* A style's word is taken out whole, with what makes it a style
	 * (画, 主义, 风, 风格, 的), and never out of another word. */
	{ "水墨画风格的黄山云海", "水墨", "黄山云海" },
	{ "像素画风格的城堡", "像素", "城堡" },
	{ "极简主义的客厅", "极简", "客厅" },
	{ "写实主义油画风格的老人", "写实", "老人" },
	{ "一张复古风的海报", "复古", "海报" },
	{ "霓虹灯下的街道", NULL, "霓虹灯下的街道" },
	{ "pixelated robot", NULL, "pixelated robot" },
	/* Nor are the command, a measure word or a particle taken out of a word. */
	{ "画家在画室里作画", NULL, "画家在画室里作画" },
	{ "绘本里的小熊", NULL, "绘本里的小熊" },
	{ "只有一只猫", NULL, "只有一只猫" },
	{ "个性十足的猫", NULL, "个性十足的猫" },
	{ "设计师的工作台", NULL, "设计师的工作台" },
	{ "创作者的书桌", NULL, "创作者的书桌" },
	{ "画一个酒吧", NULL, "酒吧" },
	{ "三只小猪", NULL, "小猪" },
};

/* A change to one region of the picture, which needs a mask. */
static const struct intent_case region_cases[] = {
	{ "修改这里", 1, "region_edit" },
	{ "把这里换成一朵向日葵", 1, "region_edit" },
	{ "这块改成蓝色", 1, "region_edit" },
	{ "把选中的区域去掉", 1, "region_edit" },
	{ "局部重绘", 1, "region_edit" },
	{ "replace this part with a tree", 1, "region_edit" },
	{ "change the color here", 1, "region_edit" },
	{ "把背景换成星空", 0, "none" },
	{ "一只在海边奔跑的金毛犬", 0, "none" },
	{ "这里的风景很美", 0, "none" },
	{ "画一只猫", 0, "none" },
};

static const struct intent_case adjust_cases[] = {
	{ "再调整一下，风格强度 90", 1, "adjust_lead" },
	{ "风格强度 40", 1, "adjust_lead" },
	{ "make it brighter", 1, "adjust_lead" },
	{ "把图片调亮一点", 1, "adjust_lead" },
	/* Adjustment words inside a description: not the opening of the message. */
	{ "暖色调的客厅", 1, "adjust" },
	{ "一只放大镜", 1, "adjust" },
	{ "画一只猫", 0, "none" },
};

static const struct intent_case regenerate_cases[] = {
	{ "重新生成", 1, "regenerate" },
	{ "再来一张", 1, "regenerate" },
	{ "换一张吧", 1, "regenerate" },
	{ "请重新生成一下！", 1, "regenerate" },
	{ "regenerate", 1, "regenerate" },
	{ "Try again, please", 1, "regenerate" },
	{ "another one", 1, "regenerate" },
	/* A new description that opens with the same words. */
	{ "重新生成一只戴帽子的猫", 0, "none" },
	{ "再来一张雪山下的小木屋", 0, "none" },
	{ "another cat on the roof", 0, "none" },
	{ "换成水彩风格", 0, "none" },
};

/* Nothing to picture: work on a text, placeholder text, no letters, a
 * keyboard mash; and descriptions that are pictures. */
static const struct intent_case nonpic_cases[] = {
	{ "把这句话改成英文", 1, "text_task" },
	{ "帮我润色这段文字", 1, "text_task" },
	{ "翻译成日语：早上好", 1, "text_task" },
	{ "translate this", 1, "text_task" },
	{ "summarise that for me", 1, "text_task" },
	{ "fix the bug in my code", 1, "text_task" },
	{ "convert this file to PDF", 1, "text_task" },
	{ "lorem ipsum dolor sit amet", 1, "placeholder" },
	{ "1234567", 1, "no_letters" },
	{ "!!! ???", 1, "no_letters" },
	{ "asdfgh qwerty", 1, "gibberish" },
	{ "zxcvbnm", 1, "gibberish" },
	{ "xkcdtlm", 1, "gibberish" },
	{ "a lighthouse at dawn", 0, "none" },
	{ "rhythm and blues band on stage", 0, "none" },
	{ "strengths of a knight", 0, "none" },
	{ "一只在海边奔跑的金毛犬", 0, "none" },
	{ "把背景换成星空", 0, "none" },
	{ "a typewriter on a desk", 0, "none" },
	{ "2024 新年海报", 0, "none" },
};

/* The text, whether it restyles the last picture, the rule, the style (zh). */
struct restyle_case {
	const char *text;
	int matched;
	const char *rule;
	const char *style;
};

static const struct restyle_case restyle_cases[] = {
	{ "换成水彩风格", 1, "restyle", "水彩" },
	{ "改成油画风，风格强度 90", 1, "restyle", "油画" },
	{ "make it pixel art", 1, "restyle", "像素" },
	{ "turn it into a watercolor", 1, "restyle", "水彩" },
	{ "in ink wash instead", 1, "restyle", "水墨" },
	{ "用水墨风格重新画", 1, "restyle", "水墨" },
	{ "水彩风格", 1, "style_only", "水彩" },
	{ "再来一张油画风的", 1, "style_only", "油画" },
	{ "pixel art version", 1, "style_only", "像素" },
	/* A new description in a style, or no style at all. */
	{ "水彩风格的向日葵花田", 0, "none", NULL },
	{ "a red fox in the snow, watercolor", 0, "none", NULL },
	{ "make it brighter", 0, "none", NULL },
	{ "换成一只狗", 0, "none", NULL },
};

static void check_intents(const char *what, const struct intent_case *c, size_t n,
			  struct rules_match (*fn)(const char *))
{
	for (size_t i = 0; i < n; i++) {
		struct rules_match m = fn(c[i].text);

		ok(m.matched == c[i].matched && (c[i].rule == NULL || strcmp(m.rule, c[i].rule) == 0),
		   "%s \"%s\" -> %d (%s)", what, c[i].text, m.matched, m.rule);
	}
}

static void check_subjects(void)
{
	for (size_t i = 0; i < sizeof subject_cases / sizeof subject_cases[0]; i++) {
		const struct subject_case *c = &subject_cases[i];
		const struct image_style *st = image_style(c->text);
		char *s = image_subject(c->text);

		ok(c->style ? st && strcmp(st->zh, c->style) == 0 : st == NULL, "style of \"%s\": %s",
		   c->text, st ? st->zh : "none");
		is_str(s, c->subject, "subject of \"%s\"", c->text);
		free(s);
	}
}

static void check_restyle(void)
{
	for (size_t i = 0; i < sizeof restyle_cases / sizeof restyle_cases[0]; i++) {
		const struct restyle_case *c = &restyle_cases[i];
		const struct image_style *st;
		struct rules_match m = image_restyle(c->text, &st);

		ok(m.matched == c->matched && strcmp(m.rule, c->rule) == 0 &&
		   (c->style ? st && strcmp(st->zh, c->style) == 0 : st == NULL),
		   "restyle \"%s\" -> %d (%s, %s)", c->text, m.matched, m.rule, st ? st->zh : "none");
	}
}

static void check_style_in(void)
{
	const struct image_style *ghibli = image_style("吉卜力");

	ok(ghibli && image_style_in(ghibli, "宫崎骏风格的海边小镇"), "吉卜力 is named by 宫崎骏");
	ok(ghibli && !image_style_in(ghibli, "海边小镇, watercolor"), "and not by another style");
	ok(!image_style_in(NULL, "宫崎骏"), "no style is in nothing");
}

/* Text the rules do not expect, and the patterns made again once freed. */
static void check_odd_text(void)
{
	const struct image_style *st;
	char *s;

	ok(image_adjust_intent("再调整一下亮度").matched, "adjust: 再调整一下亮度");
	ok(!image_regenerate(NULL).matched && !image_region_edit(NULL).matched &&
	   !image_adjust_intent(NULL).matched, "NULL text matches nothing");
	ok(!image_restyle(NULL, &st).matched && st == NULL, "NULL text restyles nothing");
	ok(image_style(NULL) == NULL, "NULL text names no style");
	ok(!image_not_picture(NULL).matched, "NULL text is not a request for nothing");
	s = image_subject(NULL);
	is_str(s, "", "NULL text has an empty subject");
	free(s);
	s = image_subject("\xe7\x8c");
	ok(s != NULL, "a subject of a cut character is survived");
	free(s);
	s = image_subject("\xff\xfe画一张\xc3水彩的猫");
	ok(s != NULL, "invalid UTF-8 is survived");
	free(s);
	image_intent_free();
	ok(image_regenerate("重新生成").matched && image_style("水彩风格") != NULL,
	   "the rules compile again after image_intent_free");
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	check_subjects();
	check_intents("region", region_cases, N(region_cases), image_region_edit);
	check_intents("adjust", adjust_cases, N(adjust_cases), image_adjust_intent);
	check_intents("regenerate", regenerate_cases, N(regenerate_cases), image_regenerate);
	check_intents("not a picture", nonpic_cases, N(nonpic_cases), image_not_picture);
	check_restyle();
	check_style_in();
	check_odd_text();
	image_intent_free();
	rules_free();
	return tap_done();
}
