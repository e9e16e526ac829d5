/* The intent rules: the user's own examples (seed 004 §2, §3, §7.1), the
 * exclusions, the routing order, style and subject extraction, and text
 * that is not what the rules expect (invalid UTF-8, very long, NULL). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "text/rules.h"

struct intent_case {
	const char *text;
	int matched;
	const char *rule;     /* NULL: any */
};

static const struct intent_case image_cases[] = {
	/* The seed's examples. */
	{ "生成美少女", 1, "gen_desc" },
	{ "生成代码", 0, "none" },
	{ "画夕阳风景", 1, "draw_object" },
	{ "画饼图", 0, "none" },
	{ "记得上次画的图吗", 0, "neg_recall" },
	{ "可以生成超绝美少女吗", 1, "can_gen" },
	{ "你能生成吗", 0, "none" },
	{ "帮我画一只猫", 1, "request" },
	{ "画一张海报", 1, "measure" },
	{ "draw a cat", 1, "english" },
	/* Asking for a picture without a verb of drawing. */
	{ "来张图：雪山下的小木屋", 1, "ask_picture" },
	{ "要一幅画，春天的田野", 1, "ask_picture" },
	{ "整两张壁纸", 1, "ask_picture" },
	{ "给我来一张赛博朋克城市的壁纸", 1, "ask_picture" },
	{ "要一张去北京的火车票", 0, NULL },
	{ "来张饼图", 0, NULL },
	/* Each positive rule. */
	{ "绘三幅山水", 1, "measure" },
	{ "给我画个太阳", 1, "request" },
	{ "请画一片星空", 1, "request" },
	{ "生成一张照片", 1, "gen_picture" },
	{ "生成一幅油画", 1, "gen_picture" },
	{ "制作一张海报图", 1, "make_picture" },
	{ "创作一幅画", 1, "make_picture" },
	{ "我想生成一个穿汉服的女孩", 1, "gen_desc" },
	{ "画个猫咪", 1, "draw_object" },
	{ "Generate an image of a red fox", 1, "english" },
	{ "create a picture of snowy mountains", 1, "english" },
	{ "paint a sunset over the sea", 1, "english" },
	/* Exclusions, text-type and chart objects. */
	{ "之前画的那张不好看", 0, "neg_past" },
	{ "上次生成的图片在哪", 0, "neg_past" },
	{ "我不会画画", 0, "neg_cannot" },
	{ "你无法生成图片吗", 0, "neg_cannot" },
	{ "回忆一下你生成过什么", 0, "neg_recall" },
	{ "生成一篇关于春天的文章", 0, NULL },
	{ "你能生成一篇文章吗", 0, NULL },
	{ "生成一份周报", 0, NULL },
	{ "生成一张饼图", 0, NULL },
	{ "制作一个柱状图", 0, NULL },
	{ "画一个流程图", 0, NULL },
	{ "画思维导图", 0, NULL },
	/* 画 inside a noun is not a command. */
	{ "我喜欢看动画片", 0, NULL },
	{ "这幅画面很美", 0, NULL },
	{ "今天天气怎么样", 0, NULL },
	{ "你好", 0, "none" },
	{ "", 0, "none" },
};

static const struct intent_case search_cases[] = {
	{ "搜一下今天的新闻", 1, "search_verb" },
	{ "明天天气", 1, "day_news" },
	{ "最新资讯", 1, "latest_news" },
	{ "热搜", 1, "hot_topics" },
	{ "2024年5月发生了什么", 1, "dated_events" },
	{ "你好", 0, "none" },
	{ "今天发生了什么", 1, "today_events" },
	{ "实时汇率数据", 1, "realtime" },
	{ "联网查一下油价", 1, "online" },
	{ "现在的金价是多少", 1, "current_price" },
	{ "search for rust news", 1, "english" },
	{ "what's the latest on the election", 1, "english" },
	{ "写一首关于秋天的诗", 0, "none" },
};

static const struct intent_case time_cases[] = {
	{ "现在几点", 1, "clock" },
	{ "今天星期几", 1, "weekday" },
	{ "今天几号", 1, "date" },
	{ "给我一个时间戳", 1, "timestamp" },
	{ "what time is it", 1, "english" },
	{ "today's date please", 1, "english" },
	{ "讲个笑话", 0, "none" },
};

struct route_case {
	const char *text;
	const char *route;
};

static const struct route_case route_cases[] = {
	{ "帮我画一只猫", "image_gen" },
	{ "搜一下今天的新闻", "web_search" },
	{ "现在几点", "time_query" },
	{ "你好", "chat" },
	{ "画一张今天的新闻海报", "image_gen" },   /* image before search */
	{ "搜索一下现在几点", "time_query" },      /* time before search (seed 004 §6.1) */
	{ "今天的天气", "web_search" },
	{ "今天星期几", "time_query" },
	{ "记得上次画的图吗", "chat" },
	{ "给我讲讲量子计算", "chat" },
	{ "老板又在画饼了", "chat" },             /* an idiom: promises, not a picture */
	{ "生成一份会议纪要", "chat" },
	{ "我想起小时候画过的一幅画", "chat" },
	{ "帮我画一个流程图", "chat" },
	{ "画一张架构图", "chat" },
	{ "画一张饼的图片", "image_gen" },
	{ "2026年3月的峰会有什么消息", "web_search" },
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

static void check_restyle(void)
{
	for (size_t i = 0; i < sizeof restyle_cases / sizeof restyle_cases[0]; i++) {
		const struct restyle_case *c = &restyle_cases[i];
		const struct rules_style *st;
		struct rules_match m = rules_restyle(c->text, &st);

		ok(m.matched == c->matched && strcmp(m.rule, c->rule) == 0 &&
		   (c->style ? st && strcmp(st->zh, c->style) == 0 : st == NULL),
		   "restyle \"%s\" -> %d (%s, %s)", c->text, m.matched, m.rule, st ? st->zh : "none");
	}
}

struct flag_case {
	const char *text;
	int yes;
};

static const struct flag_case small_talk_cases[] = {
	{ "谢谢", 1 }, { "好的！", 1 }, { "ok", 1 }, { "哈哈哈", 1 }, { "thanks!", 1 },
	{ "嗯嗯，知道了", 1 },
	{ "谢谢，帮我画一只猫", 0 }, { "好的风景", 0 }, { "一只猫", 0 }, { "", 0 },
};

static const struct flag_case other_task_cases[] = {
	{ "帮我写一首诗", 1 }, { "翻译这句话", 1 }, { "explain quantum computing", 1 },
	{ "请推荐几本书", 1 },
	{ "写实风格的猫", 0 }, { "写意山水", 0 }, { "a writer at her desk", 0 }, { "一只猫", 0 },
};

static const struct flag_case note_request_cases[] = {
	{ "帮我写一篇关于周末露营装备的小红书笔记", 1 }, { "写个种草文案", 1 },
	{ "please write a Xiaohongshu post about camping gear", 1 }, { "write a note about tea", 1 },
	{ "帮我写一首诗", 0 }, { "读书笔记怎么做", 0 }, { "小红书上的露营照片", 0 },
	{ "write a poem", 0 }, { "a notebook on the desk", 0 },
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

static void check_routes(void)
{
	for (size_t i = 0; i < sizeof route_cases / sizeof route_cases[0]; i++) {
		struct rules_decision d = rules_route(route_cases[i].text);

		is_str(d.route, route_cases[i].route, "route \"%s\"", route_cases[i].text);
	}
}

static void check_subjects(void)
{
	for (size_t i = 0; i < sizeof subject_cases / sizeof subject_cases[0]; i++) {
		const struct subject_case *c = &subject_cases[i];
		const struct rules_style *st = rules_style(c->text);
		char *s = rules_subject(c->text);

		ok(c->style ? st && strcmp(st->zh, c->style) == 0 : st == NULL, "style of \"%s\": %s",
		   c->text, st ? st->zh : "none");
		is_str(s, c->subject, "subject of \"%s\"", c->text);
		free(s);
	}
}

static void check_flags(const char *what, const struct flag_case *c, size_t n, int (*fn)(const char *))
{
	for (size_t i = 0; i < n; i++)
		ok(!fn(c[i].text) == !c[i].yes, "%s \"%s\" -> %d", what, c[i].text, c[i].yes);
}

static void check_style_in(void)
{
	const struct rules_style *ghibli = rules_style("吉卜力");

	ok(ghibli && rules_style_in(ghibli, "宫崎骏风格的海边小镇"), "吉卜力 is named by 宫崎骏");
	ok(ghibli && !rules_style_in(ghibli, "海边小镇, watercolor"), "and not by another style");
	ok(!rules_style_in(NULL, "宫崎骏"), "no style is in nothing");
}

static void check_text_rules(void)
{
	struct rules_match m;
	char *big;

	ok(rules_greeting("你好！"), "greeting: 你好！");
	ok(rules_greeting("hello there"), "greeting: hello there");
	ok(!rules_greeting("你好，帮我画一只猫"), "a greeting with a request is not only a greeting");
	ok(rules_blank("😀🎉 "), "emoji only is blank");
	ok(rules_blank(""), "empty is blank");
	ok(!rules_blank("猫"), "a word is not blank");
	ok(rules_adjust_intent("再调整一下亮度").matched, "adjust: 再调整一下亮度");
	ok(rules_adjust_intent("make it brighter").matched, "adjust: make it brighter");
	ok(!rules_adjust_intent("画一只猫").matched, "not an adjustment: 画一只猫");
	m = rules_image_intent("帮我画一只猫");
	ok(m.confidence > 0.5 && m.confidence <= 1.0, "a rule's confidence is in (0.5, 1]");
	/* Text the rules do not expect. */
	m = rules_image_intent("\xff\xfe画一张\xc3");
	ok(m.matched == 0 || m.matched == 1, "invalid UTF-8 is survived");
	m = rules_image_intent(NULL);
	ok(!m.matched && strcmp(m.rule, "none") == 0, "NULL text matches nothing");
	big = malloc(60001);
	for (int i = 0; i < 20000; i++)
		memcpy(big + 3 * i, "啊", 3);
	big[60000] = '\0';
	ok(!rules_route(big).m.matched, "long text is routed to chat, in bounded time");
	free(big);
	big = rules_subject("\xe7\x8c");
	ok(big != NULL, "a subject of a cut character is survived");
	free(big);
	rules_free();
	ok(rules_image_intent("帮我画一只猫").matched, "the rules compile again after rules_free");
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	check_intents("image", image_cases, N(image_cases), rules_image_intent);
	check_intents("search", search_cases, N(search_cases), rules_search_intent);
	check_intents("time", time_cases, N(time_cases), rules_time_intent);
	check_routes();
	check_subjects();
	check_intents("region", region_cases, N(region_cases), rules_region_edit);
	check_intents("adjust", adjust_cases, N(adjust_cases), rules_adjust_intent);
	check_intents("regenerate", regenerate_cases, N(regenerate_cases), rules_regenerate);
	check_restyle();
	check_flags("small talk", small_talk_cases, N(small_talk_cases), rules_small_talk);
	check_flags("other task", other_task_cases, N(other_task_cases), rules_other_task);
	check_flags("note request", note_request_cases, N(note_request_cases), rules_note_request);
	check_style_in();
	check_text_rules();
	rules_free();
	return tap_done();
}
