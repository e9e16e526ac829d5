/* The chat workflow's pure parts: the routing table (the seed's examples,
 * our own sentences in Chinese and English, the tricky ones: idioms, a
 * weekday that is not a question of time, what is new), the choice
 * between the model's route and the rules (bad answers, low confidence,
 * gates), the offline image prompts (the wrapper gone, the style kept),
 * the places a question names and their zones, and the clock's answers
 * against known instants in known zones and against the system clock. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tap.h"
#include "text/msg.h"
#include "text/rules.h"
#include "wf/chat/chat.h"
#include "wf/chat/chat_zones.h"
#include "wf/intents.h"

struct route_case {
	const char *text;
	const char *route;
};

static const struct route_case route_cases[] = {
	/* The seed's own examples (§2, §3, §7.1). */
	{ "生成美少女", "image_gen" },
	{ "生成代码", "chat" },
	{ "可以生成超绝美少女吗", "image_gen" },
	{ "你能生成吗", "chat" },
	{ "画夕阳风景", "image_gen" },
	{ "画饼图", "chat" },
	{ "画一张猫", "image_gen" },
	{ "绘三幅山水", "image_gen" },
	{ "帮我画一只狗", "image_gen" },
	{ "生成一张照片", "image_gen" },
	{ "我记得你画过一张图", "chat" },
	{ "上次生成的那张呢", "chat" },
	{ "你不能画画吗", "chat" },
	{ "现在几点", "time_query" },
	{ "今天几号", "time_query" },
	{ "今天星期几", "time_query" },
	{ "给我一个当前的时间戳", "time_query" },
	{ "搜一下杭州亚运会", "web_search" },
	{ "今天的新闻", "web_search" },
	{ "今天发生了什么", "web_search" },
	{ "最新的科技资讯", "web_search" },
	{ "实时的股票数据", "web_search" },
	{ "微博热搜是什么", "web_search" },
	{ "帮我联网搜一下油价", "web_search" },
	{ "现在的黄金价格", "web_search" },
	{ "2026年3月发生了什么大事", "web_search" },
	{ "2026年3月的世界杯预选赛", "web_search" },
	{ "search for the latest rust release", "web_search" },
	/* The tricky ones. */
	{ "老板又在画饼了", "chat" },
	{ "生成一份会议纪要", "chat" },
	{ "我想起小时候画过的一幅画", "chat" },
	{ "以前我很喜欢画画", "chat" },
	{ "我无法生成报告怎么办", "chat" },
	{ "这部动画片好看吗", "chat" },
	{ "画家梵高的生平", "chat" },
	{ "生成一段 Python 代码", "chat" },
	{ "帮我画一个流程图", "chat" },
	{ "几点钟开会比较好", "chat" },
	/* Our own, in Chinese. */
	{ "帮我画一只在月光下奔跑的狐狸", "image_gen" },
	{ "请画一座雪山下的木屋", "image_gen" },
	{ "来张图：海边的灯塔", "image_gen" },
	{ "给我画个赛博朋克风格的城市夜景", "image_gen" },
	{ "生成一张水彩风格的猫咪头像", "image_gen" },
	{ "创作一幅秋天的油画", "image_gen" },
	{ "制作一张生日贺卡图", "image_gen" },
	{ "画两张壁纸，主题是星空", "image_gen" },
	{ "生成穿汉服的少女站在桃花树下", "image_gen" },
	{ "能生成一只戴帽子的柴犬吗", "image_gen" },
	{ "现在几点了", "time_query" },
	{ "北京时间是多少", "time_query" },
	{ "今天是几号", "time_query" },
	{ "明天星期几", "time_query" },
	{ "礼拜几了今天", "time_query" },
	{ "Unix 时间戳是多少", "time_query" },
	{ "明天北京天气怎么样", "web_search" },
	{ "最近有什么新闻", "web_search" },
	{ "今日头条有哪些", "web_search" },
	{ "上网查一下比特币的价格", "web_search" },
	{ "现在的美元汇率是多少", "web_search" },
	{ "实时路况信息", "web_search" },
	{ "搜索一下附近的咖啡店", "web_search" },
	{ "昨天发生了什么", "web_search" },
	{ "帮我写一首关于春天的诗", "chat" },
	{ "解释一下量子纠缠", "chat" },
	{ "你好", "chat" },
	{ "谢谢你的帮助", "chat" },
	{ "把这段话翻译成英文", "chat" },
	{ "推荐几本科幻小说", "chat" },
	{ "生成一份周报模板", "chat" },
	{ "帮我总结一下这篇文章", "chat" },
	{ "我不会画画，有什么入门建议", "chat" },
	{ "上次画的图颜色太暗了", "chat" },
	{ "回忆一下我们刚才生成的内容", "chat" },
	{ "Python 的列表推导式怎么写", "chat" },
	/* Our own, in English. */
	{ "draw a cat sleeping on a windowsill", "image_gen" },
	{ "paint a sunset over the ocean", "image_gen" },
	{ "generate an image of a red fox in snow", "image_gen" },
	{ "create a poster for a jazz night", "image_gen" },
	{ "sketch a robot reading a book", "image_gen" },
	{ "make a logo for my bakery", "image_gen" },
	{ "what time is it", "time_query" },
	{ "what's the date today", "time_query" },
	{ "what day is it today", "time_query" },
	{ "give me the current unix timestamp", "time_query" },
	{ "what is today's date", "time_query" },
	{ "search the web for electric car prices", "web_search" },
	{ "what are the latest headlines", "web_search" },
	{ "today's weather in Paris", "web_search" },
	{ "look up the population of Canada", "web_search" },
	{ "breaking news about the election", "web_search" },
	{ "write a haiku about autumn", "chat" },
	{ "explain how TCP handshakes work", "chat" },
	{ "hello there", "chat" },
	{ "thanks a lot", "chat" },
	{ "how do I reverse a list in Python", "chat" },
	{ "what is the capital of France", "chat" },
	{ "generate a SQL query for monthly sales", "chat" },
	{ "can you summarize this paragraph", "chat" },
	/* More of our own, both languages. */
	{ "画一幅水墨风格的竹林", "image_gen" },
	{ "给我来一张赛博朋克城市的壁纸", "image_gen" },
	{ "帮忙画个生日蛋糕", "image_gen" },
	{ "今天几月几号", "time_query" },
	{ "现在是什么时候了", "time_query" },
	{ "最近有什么热点事件", "web_search" },
	{ "查一下明天上海的天气", "web_search" },
	{ "用 Go 写一个 HTTP 服务", "chat" },
	{ "paint me a watercolor of Venice", "image_gen" },
	{ "search for cheap flights to Tokyo", "web_search" },
	{ "what's the current time in UTC", "time_query" },
	{ "tell me a joke", "chat" },
	/* Idioms and figures of speech are not pictures. */
	{ "老板又给我们画了个饼", "chat" },
	{ "别再画大饼了", "chat" },
	{ "这一笔真是画龙点睛", "chat" },
	{ "再加这段就是画蛇添足", "chat" },
	{ "不要画地为牢", "chat" },
	{ "考前帮我画个重点", "chat" },
	{ "这件事终于画上了句号", "chat" },
	{ "let's draw conclusions from the survey", "chat" },
	{ "time to draw a line under this project", "chat" },
	{ "back to the drawing board", "chat" },
	{ "the report paints a bleak picture of the economy", "chat" },
	{ "帮我画一个饼干", "image_gen" },
	{ "帮我做一张海报，主题是爵士音乐节", "image_gen" },
	{ "画个圈圈诅咒你", "chat" },
	{ "能不能帮我画个赛博朋克风格的城市夜景呀", "image_gen" },
	{ "draw a dragon over the mountains", "image_gen" },
	/* The date or the time asked for, not a time to do something. */
	{ "星期几发工资比较好", "chat" },
	{ "我现在没时间", "chat" },
	{ "几月几号去旅游最合适", "chat" },
	{ "今天是星期几？", "time_query" },
	{ "东京现在几点", "time_query" },
	{ "纽约时间", "time_query" },
	{ "伦敦当地时间是多少", "time_query" },
	{ "Tokyo time?", "time_query" },
	{ "what's the local time in Sydney", "time_query" },
	{ "巴黎时装周是什么时间", "chat" },
	/* What is new: a search. */
	{ "what's new with Rust", "web_search" },
	{ "latest iPhone", "web_search" },
	{ "Tesla news", "web_search" },
	{ "手机有什么新消息", "web_search" },
	{ "最新款的电动车有哪些", "web_search" },
};

static const struct chat_gates all_on = { 1, 1 };

static void check_route_table(void)
{
	for (size_t i = 0; i < sizeof route_cases / sizeof route_cases[0]; i++) {
		struct chat_route r = chat_route_rules(route_cases[i].text, &all_on, 0.6);

		is_str(r.route, route_cases[i].route, "rules route \"%s\"", route_cases[i].text);
	}
	ok(sizeof route_cases / sizeof route_cases[0] >= 70 + 28 + 10, "the table has %zu sentences",
	   sizeof route_cases / sizeof route_cases[0]);
	/* A plain conversation is as sure as [workflow.chat] route_min_confidence. */
	ok(chat_route_rules("你好", &all_on, 0.8).confidence == 0.8 &&
	   chat_route_rules("你好", &all_on, 0.3).confidence == 0.3,
	   "the rules' plain conversation is as sure as the configured bar");
}

struct pick_case {
	const char *model;       /* the model's answer as JSON, NULL: the call failed */
	const char *text;
	struct chat_gates g;
	const char *route;
	const char *source;
	const char *fallback;    /* NULL: none */
};

static const struct pick_case pick_cases[] = {
	/* The model is taken when sure, whatever the rules would say. */
	{ "{\"route\": \"chat\", \"confidence\": 0.9, \"reason\": \"idiom\"}", "画饼", { 1, 1 },
	  "chat", "model", NULL },
	{ "{\"route\": \"image_gen\", \"confidence\": 0.8}", "一只猫在月亮上", { 1, 1 }, "image_gen",
	  "model", NULL },
	{ "{\"route\": \"web_search\", \"confidence\": 0.6}", "英伟达股价", { 1, 1 }, "web_search",
	  "model", NULL },
	{ "{\"route\": \"time_query\", \"confidence\": 1}", "what's the hour", { 1, 1 }, "time_query",
	  "model", NULL },
	/* Failure, bad answers, low confidence: the rules. */
	{ NULL, "帮我画一只猫", { 1, 1 }, "image_gen", "rules", "chat.route.model_failed" },
	{ "{\"oops\": 1}", "帮我画一只猫", { 1, 1 }, "image_gen", "rules", "chat.route.model_bad" },
	{ "{\"route\": \"paint\", \"confidence\": 0.9}", "现在几点", { 1, 1 }, "time_query", "rules",
	  "chat.route.model_bad" },
	{ "{\"route\": \"chat\", \"confidence\": \"high\"}", "搜一下新闻", { 1, 1 }, "web_search",
	  "rules", "chat.route.model_bad" },
	{ "{\"route\": \"chat\", \"confidence\": 1.5}", "搜一下新闻", { 1, 1 }, "web_search", "rules",
	  "chat.route.model_bad" },
	{ "{\"route\": \"chat\", \"confidence\": 0.59}", "画夕阳风景", { 1, 1 }, "image_gen", "rules",
	  "chat.route.model_unsure" },
	{ "{\"route\": \"image_gen\", \"confidence\": 0.3}", "老板又在画饼了", { 1, 1 }, "chat", "rules",
	  "chat.route.model_unsure" },
	/* Gates: a closed route is not taken by the model nor by the rules. */
	{ "{\"route\": \"image_gen\", \"confidence\": 0.95}", "帮我画一只猫", { 0, 1 }, "chat", "rules",
	  "chat.route.model_gated" },
	{ "{\"route\": \"web_search\", \"confidence\": 0.95}", "搜一下新闻", { 1, 0 }, "chat", "rules",
	  "chat.route.model_gated" },
	{ NULL, "画一张今天的新闻海报", { 0, 1 }, "web_search", "rules", "chat.route.model_failed" },
	{ NULL, "画一张今天的新闻海报", { 1, 1 }, "image_gen", "rules", "chat.route.model_failed" },
	{ NULL, "搜索一下现在几点", { 1, 1 }, "time_query", "rules", "chat.route.model_failed" },
	{ NULL, "搜一下今天的新闻", { 1, 0 }, "chat", "rules", "chat.route.model_failed" },
};

static void check_pick(void)
{
	for (size_t i = 0; i < sizeof pick_cases / sizeof pick_cases[0]; i++) {
		const struct pick_case *pc = &pick_cases[i];
		json_t *m = pc->model ? json_loads(pc->model, 0, NULL) : NULL;
		struct chat_route r = chat_route_pick(m, pc->text, 0.6, &pc->g);

		is_str(r.route, pc->route, "pick %zu \"%s\": route", i, pc->text);
		is_str(r.source, pc->source, "pick %zu: source", i);
		is_str(r.fallback ? r.fallback : "(none)", pc->fallback ? pc->fallback : "(none)",
		       "pick %zu: why the model was not taken", i);
		ok(r.confidence >= 0.0 && r.confidence <= 1.0, "pick %zu: confidence %.2f in [0, 1]", i,
		   r.confidence);
		ok(r.why == NULL || msg_find("zh", r.why) != NULL, "pick %zu: the reason is in the catalogue",
		   i);
		json_decref(m);
	}
}

struct time_case {
	long long t;
	const char *tz;
	const char *lang;
	const char *date, *time, *weekday, *offset;
};

static const struct time_case time_cases[] = {
	{ 1700000000, "UTC", "en", "2023-11-14", "22:13:20", "Tuesday", "+0000" },
	{ 1700000000, "Asia/Shanghai", "zh", "2023年11月15日", "06:13:20", "星期三", "+0800" },
	{ 1700000000, "America/New_York", "en", "2023-11-14", "17:13:20", "Tuesday", "-0500" },
	{ 1719835200, "America/New_York", "en", "2024-07-01", "08:00:00", "Monday", "-0400" },
	{ 0, "UTC", "zh", "1970年1月1日", "00:00:00", "星期四", "+0000" },
	{ 1709208000, "Asia/Tokyo", "en", "2024-02-29", "21:00:00", "Thursday", "+0900" },
};

static const char *str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k)) ?: "";
}

static void check_time(void)
{
	for (size_t i = 0; i < sizeof time_cases / sizeof time_cases[0]; i++) {
		const struct time_case *tc = &time_cases[i];
		json_t *f = chat_time_facts((time_t)tc->t, tc->tz, tc->lang);
		char *text = chat_time_text(f, tc->lang);

		is_str(str(f, "date"), tc->date, "%s %lld: date", tc->tz, tc->t);
		is_str(str(f, "time"), tc->time, "%s %lld: time", tc->tz, tc->t);
		is_str(str(f, "weekday"), tc->weekday, "%s %lld: weekday", tc->tz, tc->t);
		is_str(str(f, "utcOffset"), tc->offset, "%s %lld: offset", tc->tz, tc->t);
		is_str(str(f, "timezone"), tc->tz, "%s: zone named", tc->tz);
		is_int(json_integer_value(json_object_get(f, "unix")), tc->t, "%s: unix", tc->tz);
		ok(strstr(text, tc->date) && strstr(text, tc->weekday) && strstr(text, tc->time),
		   "the answer says the date, the weekday and the time: %s", text);
		free(text);
		json_decref(f);
	}
}

/* Against the system clock: the facts of now are now. */
static void check_now(void)
{
	time_t before = time(NULL);
	json_t *f = chat_time_facts(before, "", "en");
	time_t after = time(NULL);
	long long u = json_integer_value(json_object_get(f, "unix"));
	struct tm tm;
	char want[16];

	localtime_r(&before, &tm);
	strftime(want, sizeof want, "%Y-%m-%d", &tm);
	ok(u >= before && u <= after, "unix timestamp %lld is the clock's", u);
	is_str(str(f, "date"), want, "the server's zone gives the local date");
	is_str(getenv("TZ") ? "set" : "unset", getenv("TZ") ? "set" : "unset",
	       "TZ is as it was");
	json_decref(f);
	setenv("TZ", "Europe/Paris", 1);
	f = chat_time_facts((time_t)1700000000, "Asia/Shanghai", "en");
	is_str(getenv("TZ"), "Europe/Paris", "a zone asked for puts TZ back afterwards");
	json_decref(f);
	unsetenv("TZ");
}

struct prompt_case {
	const char *text, *prompt;
};

static const struct prompt_case prompt_cases[] = {
	{ "生成一张赛博朋克风格的城市海报", "赛博朋克风格的城市海报" },
	{ "能帮我画一只猫吗，要水彩的", "一只水彩风格的猫" },
	{ "请帮我画一幅水墨风格的竹林，谢谢", "水墨风格的竹林" },
	{ "给我画个赛博朋克风格的城市夜景吧", "赛博朋克风格的城市夜景" },
	{ "画一只柴犬，用油画风格", "一只油画风格的柴犬" },
	{ "画一座雪山下的木屋，背景是星空", "一座雪山下的木屋，背景是星空" },
	{ "can you draw me a picture of a lighthouse at dusk, please?", "a lighthouse at dusk" },
	{ "Please paint a fox in the snow", "a fox in the snow" },
	{ "draw a cat, in watercolor style", "a cat, watercolor style" },
	{ "Generate an image of a samurai cat, anime style", "a samurai cat, anime style" },
	{ "帮我画一张图，主题是夏天的海边，要日系清新风格", "日系清新风格的夏天的海边" },
	{ "画一幅画，画的是雨后的江南小巷", "雨后的江南小巷" },
	{ "帮我做一张海报，主题是爵士音乐节，要复古风格", "复古风格的爵士音乐节的海报" },
};

/* The places a question names, and their zones. */
struct zone_case {
	const char *text;
	const char *zones;   /* the zones found, in order, joined by spaces */
};

static const struct zone_case zone_cases[] = {
	{ "东京现在几点", "Asia/Tokyo" },
	{ "北京时间", "Asia/Shanghai" },
	{ "纽约和伦敦现在几点", "America/New_York Europe/London" },
	{ "what time is it in london?", "Europe/London" },
	{ "what time is it in the US", "America/New_York" },
	{ "tell us the time", "" },
	{ "美国现在几点", "America/New_York" },
	{ "印度尼西亚现在几点", "Asia/Jakarta" },
	{ "São Paulo time", "America/Sao_Paulo" },
	{ "Sao Paulo time", "America/Sao_Paulo" },
	{ "what time is it in Kolkata", "Asia/Kolkata" },
	{ "现在几点", "" },
};

static void check_zones(void)
{
	for (size_t i = 0; i < sizeof zone_cases / sizeof zone_cases[0]; i++) {
		struct chat_zone_hit h[4];
		size_t n = chat_zones_find(zone_cases[i].text, h, 4);
		char got[256] = "";

		for (size_t k = 0; k < n; k++)
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? " " : "",
				 chat_zones[h[k].place->zone].id);
		is_str(got, zone_cases[i].zones, "places in \"%s\"", zone_cases[i].text);
	}
	ok(chat_nzones > 300 && chat_zone_nplaces > 1000, "the table has %zu zones and %zu names",
	   chat_nzones, chat_zone_nplaces);
}

static void check_prompt_rules(void)
{
	for (size_t i = 0; i < sizeof prompt_cases / sizeof prompt_cases[0]; i++) {
		char *p = chat_prompt_rewrite(prompt_cases[i].text);

		is_str(p, prompt_cases[i].prompt, "image prompt of \"%s\"", prompt_cases[i].text);
		free(p);
	}

	char err[64];
	json_t *j = chat_rules_image_prompt(NULL, "帮我画一只赛博朋克风格的猫", err, sizeof err);

	ok(strstr(str(j, "prompt"), "猫") && !strstr(str(j, "prompt"), "帮我"),
	   "the offline image prompt keeps the subject without the command: %s", str(j, "prompt"));
	json_decref(j);
}

int main(void)
{
	msg_catalogue_add(chat_msgs, chat_nmsgs); /* as registering the workflow does */
	check_route_table();
	check_pick();
	check_time();
	check_now();
	check_prompt_rules();
	check_zones();
	chat_rules_free();
	intents_free();
	rules_free();
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
