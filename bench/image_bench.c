/* Image workflow benchmark: whole `image` threads (planner, rag, executor,
 * critic, genui) with the offline provider, in-process and over HTTP,
 * beside the rates of GET /api/health and of a bare FastCGI responder
 * measured in the same run.
 *
 *   image_bench inproc DIR [THREADS]
 *   image_bench http URL [THREADS] [CONCURRENCY] [BARE_URL]
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <curl/curl.h>
#include <sodium.h>
#include "json/jalloc.h"
#include "api/api.h"
#include "http_load.h"
#include "inproc.h"
#include "engine/tid.h"
#include "store/store.h"

#define IMAGE_STEPS 5

static const char *const image_texts[] = {
	"赛博朋克风格的猫", "水彩风格的江南小镇", "cyberpunk city at night", "油画 向日葵",
	"像素风格的城堡", "a watercolor fox in the snow", "水墨 山水", "极简风格的咖啡杯",
};
#define IMAGE_NTEXTS (sizeof image_texts / sizeof image_texts[0])

static void image_body(char *out, size_t n, int i)
{
	snprintf(out, n, "{\"workflow\":\"image\",\"input\":{\"text\":\"%s %d\"}}",
		 image_texts[i % IMAGE_NTEXTS], i);
}

/* What thread tid_text's checkpoints and event log take in the store:
 * keys and stored (packed) values. */
static long long image_stored(struct store *s, const char *tid_text, struct app *app)
{
	uint8_t tid[TID_RAW];

	if (tid_verify(app->keys, tid_text, tid) < 0)
		return 0;
	return store_ckpt_bytes(s, tid) + store_events_bytes(s, tid);
}

static int image_inproc(const char *dir, int threads)
{
	static struct app app;
	struct sink out;
	double *first = calloc((size_t)threads, sizeof *first), *total = calloc((size_t)threads,
										 sizeof *total);
	double t0, t1;
	long long stored = 0, svg = 0;
	struct rusage ru;
	char body[256], tid[128];

	if (bench_open(&app, dir, "write_nosync") < 0)
		return 1;
	buf_init(&out.b, 1 << 24);
	t0 = bench_now_us();
	for (int i = 0; i < threads; i++) {
		double s0 = bench_now_us();

		image_body(body, sizeof body, i);
		bench_call(&app, &out, "POST", "/api/agent/stream", body, api_stream_post);
		total[i] = (bench_now_us() - s0) / 1e3;
		first[i] = (out.first_us - s0) / 1e3;
		if (strstr(out.b.data, "[DONE]") == NULL || strstr(out.b.data, "SmartCanvas") == NULL) {
			fprintf(stderr, "thread %d did not finish: %.300s\n", i, out.b.data);
			return 1;
		}
		if (i % 16 == 0 && bench_field(out.b.data, "threadId", tid, sizeof tid) == 0)
			stored += image_stored(app.store, tid, &app), svg++;
		store_maintain(app.store);
	}
	t1 = bench_now_us();
	getrusage(RUSAGE_SELF, &ru);
	printf("image threads in-process (offline provider, write_nosync), %d threads\n", threads);
	printf("  %8.0f threads/s  %8.0f steps/s\n", threads / ((t1 - t0) / 1e6),
	       threads * IMAGE_STEPS / ((t1 - t0) / 1e6));
	printf("  first event p50 %7.3f ms  p99 %7.3f ms;  [DONE] p50 %7.3f ms  p99 %7.3f ms\n",
	       bench_pct(first, threads, 0.5), bench_pct(first, threads, 0.99),
	       bench_pct(total, threads, 0.5), bench_pct(total, threads, 0.99));
	printf("  stored per thread (checkpoints + events, not the picture) %.0f B\n",
	       svg ? (double)stored / (double)svg : 0);
	printf("  peak RSS %ld KiB\n", ru.ru_maxrss);
	store_close(app.store);
	return 0;
}

static void image_report(const char *what, struct load_result *r, double base_rate)
{
	double rate = r->n / r->wall_s;

	printf("  %-34s %8.0f /s", what, rate);
	if (base_rate > 0)
		printf("  (%.3f x the bare responder)", rate / base_rate);
	printf("  first p50 %6.2f ms p99 %6.2f ms, end p50 %6.2f ms p99 %6.2f ms, failed %d\n",
	       load_pct(r->first_ms, r->n, 0.5), load_pct(r->first_ms, r->n, 0.99),
	       load_pct(r->total_ms, r->n, 0.5), load_pct(r->total_ms, r->n, 0.99), r->failed);
}

static int image_http(const char *base, int threads, int conc, const char *bare)
{
	char url[512], hurl[512], body[256];
	struct load_result br = { 0 }, hr, ir;
	double bare_rate = 0;

	snprintf(url, sizeof url, "%s/api/agent/stream", base);
	snprintf(hurl, sizeof hurl, "%s/api/health", base);
	image_body(body, sizeof body, 0);
	printf("over HTTP (%s), %d at a time\n", base, conc);
	if (bare) {
		load_run(bare, NULL, threads * 4, conc, "ok", &br);
		bare_rate = br.n / br.wall_s;
		image_report("baseline: bare FastCGI responder", &br, 0);
	}
	load_run(hurl, NULL, threads * 4, conc, "reachable", &hr);
	image_report("GET /api/health", &hr, bare_rate);
	load_run(url, body, threads, conc, "[DONE]", &ir);
	image_report("image threads (POST, to [DONE])", &ir, bare_rate);
	printf("  %8.0f steps/s\n", ir.n * IMAGE_STEPS / ir.wall_s);
	load_result_free(&br);
	load_result_free(&hr);
	load_result_free(&ir);
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 3 ? atoi(argv[3]) : 1000;

	jalloc_install();
	if (argc < 3 || (strcmp(argv[1], "inproc") && strcmp(argv[1], "http"))) {
		fprintf(stderr, "usage: image_bench inproc DIR [THREADS]\n"
				"       image_bench http URL [THREADS] [CONCURRENCY] [BARE_URL]\n");
		return 2;
	}
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	if (threads <= 0)
		threads = 1000;
	if (strcmp(argv[1], "inproc") == 0)
		return image_inproc(argv[2], threads);
	return image_http(argv[2], threads, argc > 4 ? atoi(argv[4]) : 4, argc > 5 ? argv[5] : NULL);
}
