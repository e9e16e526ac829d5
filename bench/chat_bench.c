/* Chat workflow benchmark: routing decisions per second by the keyword
 * rules alone (seed 004 §2, §3, §7.1 in §6.1's order), beside a bare
 * keyword scan (strstr of one word per route) over the same sentences in
 * the same run; and whole offline chat turns (router, the route, the
 * streamed reply) through a web server, beside GET /api/health and a bare
 * FastCGI responder.
 *
 *   chat_bench rules [ROUNDS]
 *   chat_bench http URL [TURNS] [CONCURRENCY] [BARE_URL]
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include <sodium.h>
#include "http_load.h"
#include "inproc.h"
#include "text/rules.h"
#include "wf/chat/chat.h"
#include "wf/intents.h"

static const char *const chat_texts[] = {
	"帮我画一只在月光下奔跑的狐狸", "生成美少女", "画饼图", "老板又在画饼了", "生成一份会议纪要",
	"现在几点了", "今天星期几", "给我一个当前的时间戳", "搜一下最近的科技新闻", "明天北京天气怎么样",
	"2026年3月发生了什么大事", "帮我写一首关于春天的诗", "解释一下量子纠缠", "你好",
	"draw a cat sleeping on a windowsill", "what time is it", "what are the latest headlines",
	"explain how TCP handshakes work", "我想起小时候画过的一幅画", "可以生成超绝美少女吗",
};
#define CHAT_NTEXTS (sizeof chat_texts / sizeof chat_texts[0])

/* The baseline: one keyword per route, found or not. */
static const char *chat_keyword_route(const char *t)
{
	if (strstr(t, "画") || strstr(t, "draw"))
		return "image_gen";
	if (strstr(t, "几点") || strstr(t, "time"))
		return "time_query";
	if (strstr(t, "搜") || strstr(t, "latest"))
		return "web_search";
	return "chat";
}

static double chat_rate(long n, double us)
{
	return us > 0 ? n / (us / 1e6) : 0;
}

static int chat_rules(long rounds)
{
	const struct chat_gates g = { 1, 1 };
	long n = rounds * (long)CHAT_NTEXTS, agree = 0, images = 0;
	double t0, t1, t2;

	chat_route_rules(chat_texts[0], &g, 0.6);    /* patterns compiled outside the timing */
	t0 = bench_now_us();
	for (long r = 0; r < rounds; r++)
		for (size_t i = 0; i < CHAT_NTEXTS; i++)
			images += strcmp(chat_keyword_route(chat_texts[i]), "image_gen") == 0;
	t1 = bench_now_us();
	for (long r = 0; r < rounds; r++)
		for (size_t i = 0; i < CHAT_NTEXTS; i++)
			agree += strcmp(chat_route_rules(chat_texts[i], &g, 0.6).route,
					chat_keyword_route(chat_texts[i])) == 0;
	t2 = bench_now_us();
	printf("routing decisions, %ld over %zu sentences\n", n, CHAT_NTEXTS);
	printf("  %-40s %12.0f /s  (%.3f us each)\n", "baseline: one keyword per route (strstr)",
	       chat_rate(n, t1 - t0), (t1 - t0) / (double)n);
	printf("  %-40s %12.0f /s  (%.3f us each, %.4f x the baseline)\n",
	       "seed 004 rules (PCRE2, 28 patterns)", chat_rate(n, t2 - t1), (t2 - t1) / (double)n,
	       chat_rate(n, t2 - t1) / chat_rate(n, t1 - t0));
	printf("  the keyword scan agrees with the rules on %ld of %zu sentences (%ld image hits)\n",
	       agree / rounds, CHAT_NTEXTS, images / rounds);
	intents_free();
	rules_free();
	return 0;
}

static void chat_report(const char *what, struct load_result *r, double base_rate)
{
	double rate = r->n / r->wall_s;

	printf("  %-34s %8.0f /s", what, rate);
	if (base_rate > 0)
		printf("  (%.3f x the bare responder)", rate / base_rate);
	printf("  first p50 %6.2f ms p99 %6.2f ms, end p50 %6.2f ms p99 %6.2f ms, failed %d\n",
	       load_pct(r->first_ms, r->n, 0.5), load_pct(r->first_ms, r->n, 0.99),
	       load_pct(r->total_ms, r->n, 0.5), load_pct(r->total_ms, r->n, 0.99), r->failed);
}

static int chat_http(const char *base, int turns, int conc, const char *bare)
{
	static const char *const kinds[][2] = { { "chat", "你好，介绍一下你自己" },
						{ "time", "现在几点" },
						{ "image", "帮我画一只猫" },
						{ "search", "搜一下最近的育儿新闻" } };
	char url[512], hurl[512], body[256], what[64];
	struct load_result br = { 0 }, hr;
	double bare_rate = 0;

	snprintf(url, sizeof url, "%s/api/agent/stream", base);
	snprintf(hurl, sizeof hurl, "%s/api/health", base);
	printf("offline chat turns over HTTP (%s), %d at a time\n", base, conc);
	if (bare) {
		load_run(bare, NULL, turns * 4, conc, "ok", &br);
		bare_rate = br.n / br.wall_s;
		chat_report("baseline: bare FastCGI responder", &br, 0);
	}
	load_run(hurl, NULL, turns * 4, conc, "reachable", &hr);
	chat_report("GET /api/health", &hr, bare_rate);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		struct load_result r;

		snprintf(body, sizeof body, "{\"workflow\":\"chat\",\"input\":{\"text\":\"%s\"}}",
			 kinds[k][1]);
		snprintf(what, sizeof what, "chat turns, route %s", kinds[k][0]);
		load_run(url, body, turns, conc, "[DONE]", &r);
		chat_report(what, &r, bare_rate);
		load_result_free(&r);
	}
	load_result_free(&br);
	load_result_free(&hr);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "rules") && (strcmp(argv[1], "http") || argc < 3))) {
		fprintf(stderr, "usage: chat_bench rules [ROUNDS]\n"
				"       chat_bench http URL [TURNS] [CONCURRENCY] [BARE_URL]\n");
		return 2;
	}
	if (strcmp(argv[1], "rules") == 0)
		return chat_rules(argc > 2 && atol(argv[2]) > 0 ? atol(argv[2]) : 5000);
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	return chat_http(argv[2], argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : 500,
			 argc > 4 ? atoi(argv[4]) : 4, argc > 5 ? argv[5] : NULL);
}
