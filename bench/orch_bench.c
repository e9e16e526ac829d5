/* Orchestrate workflow benchmark, in-process on a real store:
 *
 *   orch_bench offline DIR [RUNS]
 *     code-review-and-fix runs (four stages, three groups, offline rules
 *     and real tools over an attached C file): stages per second;
 *   orch_bench overlap DIR [RUNS] [DELAY_MS]
 *     the same three stages run as one parallel group and as three groups
 *     one after the other, in the same run, against a fake
 *     OpenAI-compatible server (a thread here) that waits DELAY_MS before
 *     each answer: the wall time of the stages (first stage request to
 *     last stage answer, as the server saw them) and the ratio. A group
 *     of three should take about one delay, the sequence three.
 *
 * AIVISTA_KB_AGENTS and AIVISTA_KB_TEMPLATES name etc/agents.json and
 * etc/templates.json. */
#include "config.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sodium.h>
#include "json/dump.h"
#include "api/api.h"
#include "inproc.h"
#include "prov/prov.h"
#include "store/store.h"
#include "wf/orchestrate/orch.h"

static const char orch_c_file[] =
	"#include <stdlib.h>\n#include <string.h>\n\nchar *dup(const char *s)\n{\n"
	"\tchar *p = malloc(strlen(s) + 1);\n\tstrcpy(p, s);\n\treturn p;\n}\n";

/* ---- the fake model server ---- */

struct orch_fake {
	int fd, port;
	long delay_ms;
	pthread_mutex_t mu;
	double first_us, last_us;   /* the stages' first request and last answer */
	long stage_calls;
};

static struct orch_fake fake = { .mu = PTHREAD_MUTEX_INITIALIZER };

static const char *orch_plan_json(int sequential)
{
	return sequential
	       ? "{\"analysis\":\"bench\",\"estimatedComplexity\":\"low\",\"subtasks\":["
		 "{\"id\":\"a\",\"description\":\"x\",\"agent\":\"documenter\",\"inputs\":[],\"priority\":1},"
		 "{\"id\":\"b\",\"description\":\"x\",\"agent\":\"documenter\",\"inputs\":[],\"priority\":1},"
		 "{\"id\":\"c\",\"description\":\"x\",\"agent\":\"documenter\",\"inputs\":[],\"priority\":1}],"
		 "\"executionOrder\":[[\"a\"],[\"b\"],[\"c\"]]}"
	       : "{\"analysis\":\"bench\",\"estimatedComplexity\":\"low\",\"subtasks\":["
		 "{\"id\":\"a\",\"description\":\"x\",\"agent\":\"documenter\",\"inputs\":[],\"priority\":1},"
		 "{\"id\":\"b\",\"description\":\"x\",\"agent\":\"documenter\",\"inputs\":[],\"priority\":1},"
		 "{\"id\":\"c\",\"description\":\"x\",\"agent\":\"documenter\",\"inputs\":[],\"priority\":1}],"
		 "\"executionOrder\":[[\"a\",\"b\",\"c\"]]}";
}

/* Reads one request (headers, then Content-Length bytes). New string. */
static char *orch_fake_read(int c)
{
	size_t cap = 1 << 16, len = 0, want = 0;
	char *b = malloc(cap + 1), *hdr_end = NULL;
	ssize_t n;

	while (b && (hdr_end == NULL || len < want)) {
		if (len == cap) {
			char *nb = realloc(b, (cap *= 2) + 1);

			if (nb == NULL)
				break;
			b = nb;
		}
		if ((n = read(c, b + len, cap - len)) <= 0)
			break;
		len += (size_t)n;
		b[len] = '\0';
		if (hdr_end == NULL && (hdr_end = strstr(b, "\r\n\r\n")) != NULL) {
			const char *cl = strcasestr(b, "Content-Length:");

			want = (size_t)(hdr_end - b) + 4 + (cl ? strtoul(cl + 15, NULL, 10) : 0);
		}
	}
	if (b)
		b[len] = '\0';
	return b;
}

static void *orch_fake_conn(void *arg)
{
	int c = (int)(long)arg;
	char *req = orch_fake_read(c);
	int plan = req && strstr(req, "response_format") != NULL;
	double t0 = bench_now_us();
	json_t *ans;
	char *body, head[256];

	usleep((useconds_t)fake.delay_ms * 1000);
	ans = json_pack("{s:[{s:i, s:s, s:{s:s, s:s}}]}", "choices", "index", 0, "finish_reason", "stop",
			"message", "role", "assistant", "content",
			plan ? orch_plan_json(req && strstr(req, "SEQUENTIAL") != NULL) : "Done.");
	body = jtext(ans, JSON_COMPACT);
	snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
		 "Content-Length: %zu\r\nConnection: close\r\n\r\n", strlen(body));
	if (write(c, head, strlen(head)) < 0 || write(c, body, strlen(body)) < 0)
		perror("orch_bench: fake server write");
	if (!plan) {
		pthread_mutex_lock(&fake.mu);
		if (fake.first_us == 0 || t0 < fake.first_us)
			fake.first_us = t0;
		if (bench_now_us() > fake.last_us)
			fake.last_us = bench_now_us();
		fake.stage_calls++;
		pthread_mutex_unlock(&fake.mu);
	}
	free(body);
	json_decref(ans);
	free(req);
	close(c);
	return NULL;
}

static void *orch_fake_loop(void *arg)
{
	(void)arg;
	for (;;) {
		int c = accept(fake.fd, NULL, NULL);
		pthread_t th;

		if (c < 0)
			continue;
		if (pthread_create(&th, NULL, orch_fake_conn, (void *)(long)c) == 0)
			pthread_detach(th);
		else
			close(c);
	}
	return NULL;
}

static int orch_fake_start(long delay_ms)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof a;
	pthread_t th;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fake.delay_ms = delay_ms;
	fake.fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fake.fd < 0 || bind(fake.fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    listen(fake.fd, 64) < 0 || getsockname(fake.fd, (struct sockaddr *)&a, &al) < 0)
		return perror("orch_bench: fake server"), -1;
	fake.port = ntohs(a.sin_port);
	return pthread_create(&th, NULL, orch_fake_loop, NULL) == 0 ? 0 : -1;
}

/* ---- runs ---- */

static int orch_open(struct app *app, const char *dir, int real)
{
	const char *agents = getenv("AIVISTA_KB_AGENTS"), *templates = getenv("AIVISTA_KB_TEMPLATES");
	char url[64];

	if (bench_open(app, dir, "write_nosync") < 0)
		return -1;
	((struct orch_conf *)conf_section_values(&app->conf, &orch_conf_section))->confirm_plan = 0;
	if (agents) {
		free(app->conf.kb_agents);
		app->conf.kb_agents = strdup(agents);
	}
	if (templates) {
		free(app->conf.kb_templates);
		app->conf.kb_templates = strdup(templates);
	}
	if (real) {
		struct conf_provider *pv = &app->conf.prov[PROV_CHAT];

		snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", fake.port);
		free(pv->kind);
		pv->kind = strdup("openai");
		free(pv->base_url);
		pv->base_url = strdup(url);
		free(pv->api_key);
		pv->api_key = strdup("sk-bench");
		pv->retries = 0;
		app->conf.cache_model_ttl = 0;
		prov_free(app->prov);
		app->prov = prov_new(&app->conf);
	}
	return 0;
}

static int orch_run(struct app *app, struct sink *out, const char *input)
{
	char *body = NULL;

	if (asprintf(&body, "{\"workflow\":\"orchestrate\",\"input\":%s}", input) < 0)
		return -1;
	bench_call(app, out, "POST", "/api/agent/stream", body, api_stream_post);
	free(body);
	if (strstr(out->b.data ? out->b.data : "", "\"success\":true") == NULL) {
		fprintf(stderr, "a run did not succeed: %.400s\n", out->b.data ? out->b.data : "");
		return -1;
	}
	store_maintain(app->store);
	return 0;
}

static int orch_offline(const char *dir, int runs)
{
	struct app app = { 0 };
	struct sink out;
	char b64[1024], *input = NULL;
	double t0, t1;

	sodium_bin2base64(b64, sizeof b64, (const unsigned char *)orch_c_file, strlen(orch_c_file),
			  sodium_base64_VARIANT_ORIGINAL);
	if (orch_open(&app, dir, 0) < 0 ||
	    asprintf(&input, "{\"task\":\"review this C file and fix it\",\"template\":"
		     "\"code-review-and-fix\",\"attachments\":[{\"name\":\"dup.c\",\"mimeType\":"
		     "\"text/x-c\",\"data\":\"%s\"}]}", b64) < 0)
		return 1;
	buf_init(&out.b, 1 << 24);
	orch_run(&app, &out, input);    /* the registry and templates loaded outside the timing */
	t0 = bench_now_us();
	for (int i = 0; i < runs; i++)
		if (orch_run(&app, &out, input) < 0)
			return 1;
	t1 = bench_now_us();
	printf("offline code-review-and-fix runs in-process (write_nosync), %d runs of 4 stages\n", runs);
	printf("  %8.1f runs/s  %8.1f stages/s  (%.2f ms a run)\n", runs / ((t1 - t0) / 1e6),
	       4.0 * runs / ((t1 - t0) / 1e6), (t1 - t0) / 1e3 / runs);
	free(input);
	buf_free(&out.b);
	store_close(app.store);
	return 0;
}

/* The mean wall time of the stages of RUNS runs, in ms. */
static double orch_stages_ms(struct app *app, struct sink *out, int runs, int sequential)
{
	double sum = 0;
	const char *input = sequential ? "{\"task\":\"three notes, SEQUENTIAL\"}"
				       : "{\"task\":\"three notes, together\"}";

	for (int i = 0; i < runs; i++) {
		pthread_mutex_lock(&fake.mu);
		fake.first_us = fake.last_us = 0;
		fake.stage_calls = 0;
		pthread_mutex_unlock(&fake.mu);
		if (orch_run(app, out, input) < 0)
			return -1;
		pthread_mutex_lock(&fake.mu);
		sum += (fake.last_us - fake.first_us) / 1e3;
		pthread_mutex_unlock(&fake.mu);
	}
	return sum / runs;
}

static int orch_overlap(const char *dir, int runs, long delay_ms)
{
	struct app app = { 0 };
	struct sink out;
	double par, seq;

	if (orch_fake_start(delay_ms) < 0 || orch_open(&app, dir, 1) < 0)
		return 1;
	buf_init(&out.b, 1 << 24);
	par = orch_stages_ms(&app, &out, runs, 0);
	seq = orch_stages_ms(&app, &out, runs, 1);
	if (par < 0 || seq < 0)
		return 1;
	printf("three stages against a fake model answering after %ld ms, %d runs each\n", delay_ms,
	       runs);
	printf("  %-44s %8.1f ms  (%.2f delays)\n", "baseline: three groups, one after the other", seq,
	       seq / delay_ms);
	printf("  %-44s %8.1f ms  (%.2f delays)\n", "one parallel group of three", par, par / delay_ms);
	printf("  the parallel group takes %.2f of the sequential time (%.2f x faster)\n", par / seq,
	       seq / par);
	buf_free(&out.b);
	store_close(app.store);
	return 0;
}

int main(int argc, char **argv)
{
	if (sodium_init() < 0)
		return 1;
	if (argc >= 3 && strcmp(argv[1], "offline") == 0)
		return orch_offline(argv[2], argc > 3 ? atoi(argv[3]) : 50);
	if (argc >= 3 && strcmp(argv[1], "overlap") == 0)
		return orch_overlap(argv[2], argc > 3 ? atoi(argv[3]) : 10, argc > 4 ? atol(argv[4]) : 50);
	fprintf(stderr, "usage: orch_bench offline DIR [RUNS] | overlap DIR [RUNS] [DELAY_MS]\n");
	return 2;
}
