/* The intent rules the workflows share (wf/intents.h) and the chat
 * workflow's: the user's own examples (seed 004 §2, §3, §7.1), the
 * exclusions, the routing order, the note request, and text that is not
 * what the rules expect (invalid UTF-8, very long, NULL). The image
 * workflow's own rules are tested in t_image_intent. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/chat/chat.h"
#include "wf/chat/chat_rules.h"
#include "wf/intents.h"

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

/* The routes with every feature on: the rules' own order. */
static const struct chat_gates all_open = { 1, 1 };

static void check_routes(void)
{
	for (size_t i = 0; i < sizeof route_cases / sizeof route_cases[0]; i++) {
		struct chat_route r = chat_route_rules(route_cases[i].text, &all_open, 0.6);

		is_str(r.route, route_cases[i].route, "route \"%s\"", route_cases[i].text);
	}
}

static void check_flags(const char *what, const struct flag_case *c, size_t n, int (*fn)(const char *))
{
	for (size_t i = 0; i < n; i++)
		ok(!fn(c[i].text) == !c[i].yes, "%s \"%s\" -> %d", what, c[i].text, c[i].yes);
}

static void check_text_rules(void)
{
	struct rules_match m;
	char *big;

	ok(intents_greeting("你好！"), "greeting: 你好！");
	ok(intents_greeting("hello there"), "greeting: hello there");
	ok(!intents_greeting("你好，帮我画一只猫"), "a greeting with a request is not only a greeting");
	ok(intents_blank("😀🎉 "), "emoji only is blank");
	ok(intents_blank(""), "empty is blank");
	ok(!intents_blank("猫"), "a word is not blank");
	m = intents_image("帮我画一只猫");
	ok(m.confidence > 0.5 && m.confidence <= 1.0, "a rule's confidence is in (0.5, 1]");
	/* Text the rules do not expect. */
	m = intents_image("\xff\xfe画一张\xc3");
	ok(m.matched == 0 || m.matched == 1, "invalid UTF-8 is survived");
	m = intents_image(NULL);
	ok(!m.matched && strcmp(m.rule, "none") == 0, "NULL text matches nothing");
	big = malloc(60001);
	for (int i = 0; i < 20000; i++)
		memcpy(big + 3 * i, "啊", 3);
	big[60000] = '\0';
	ok(strcmp(chat_route_rules(big, &all_open, 0.6).route, "chat") == 0,
	   "long text is routed to chat, in bounded time");
	free(big);
	intents_free();
	rules_free();
	ok(intents_image("帮我画一只猫").matched, "the rules compile again after they are freed");
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	check_intents("image", image_cases, N(image_cases), intents_image);
	check_intents("search", search_cases, N(search_cases), intents_search);
	check_intents("time", time_cases, N(time_cases), intents_time);
	check_routes();
	check_flags("small talk", small_talk_cases, N(small_talk_cases), intents_small_talk);
	check_flags("other task", other_task_cases, N(other_task_cases), intents_other_task);
	check_flags("note request", note_request_cases, N(note_request_cases), chat_rules_note_request);
	check_text_rules();
	chat_rules_free();
	intents_free();
	rules_free();
	return tap_done();
}
