/* In-process API calls for the benchmarks (see inproc.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "inproc.h"
#include "engine/graph.h"
#include "engine/tid.h"
#include "prov/prov.h"
#include "store/store.h"
#include "util/log.h"
#include "util/xmalloc.h"
#include "wf/builtin.h"

extern const struct workflow wf_test;

static int bench_write(void *ctx, const char *p, size_t n)
{
	struct sink *s = ctx;

	if (s->first_us == 0)
		s->first_us = bench_now_us();
	return buf_add(&s->b, p, n) < 0 ? (buf_reset(&s->b), buf_add(&s->b, p, n)) : 0;
}

static int bench_flush(void *ctx)
{
	return 0;
}

static ssize_t bench_read(void *ctx, char *p, size_t n)
{
	const char **src = ctx;
	size_t k = strlen(*src);

	if (k > n)
		k = n;
	memcpy(p, *src, k);
	*src += k;
	return (ssize_t)k;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp);
	return n ? v[(int)((n - 1) * p)] : 0;
}

double bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

void bench_call(struct app *app, struct sink *out, const char *method, const char *uri,
		const char *body, enum problem (*fn)(struct req *))
{
	char len[32], m[32], u[512];
	char *envp[] = { m, u, len, "CONTENT_TYPE=application/json", NULL };
	const char *src = body;
	struct io_in in = { bench_read, &src };
	struct io_out o = { bench_write, bench_flush, out };
	struct req r;

	snprintf(m, sizeof m, "REQUEST_METHOD=%s", method);
	snprintf(u, sizeof u, "REQUEST_URI=%s", uri);
	snprintf(len, sizeof len, "CONTENT_LENGTH=%d", (int)strlen(body));
	buf_reset(&out->b);
	out->first_us = 0;
	req_init(&r, &app->conf, envp, in, o);
	r.app = app;
	fn(&r);
	if (r.failed)
		fprintf(stderr, "request failed: %s\n", r.detail);
	req_free(&r);
}

int bench_field(const char *text, const char *key, char *out, size_t n)
{
	char pat[64];
	const char *p;
	size_t k = 0;

	snprintf(pat, sizeof pat, "\"%s\":\"", key);
	p = text ? strstr(text, pat) : NULL;
	if (p == NULL)
		return -1;
	p += strlen(pat);
	while (p[k] && p[k] != '"' && k + 1 < n)
		k++;
	memcpy(out, p, k);
	out[k] = '\0';
	return 0;
}

int bench_open(struct app *app, const char *dir, const char *durability)
{
	/* The workflows (and their [workflow.*] keys) before the configuration. */
	wf_register(&wf_test);
	wf_builtin_register();
	conf_init(&app->conf);
	free(app->conf.store_dir);
	app->conf.store_dir = strdup(dir);
	free(app->conf.key_file);
	app->conf.key_file = malloc(strlen(dir) + 16);
	sprintf(app->conf.key_file, "%s/thread.key", dir);
	free(app->conf.durability);
	app->conf.durability = strdup(durability);
	if (getenv("AIVISTA_STORE_CACHE_KB")) /* as a worker reads it: [store] cache_kb */
		app->conf.store_cache_kb = atol(getenv("AIVISTA_STORE_CACHE_KB"));
	if (getenv("AIVISTA_KB_STYLES")) {
		free(app->conf.kb_styles);
		app->conf.kb_styles = strdup(getenv("AIVISTA_KB_STYLES"));
	}
	app->store = store_open(&app->conf, app->store_err, sizeof app->store_err);
	if (app->keys == NULL)
		app->keys = xcalloc(1, sizeof *app->keys);
	if (app->store == NULL || tid_keys_load(app->keys, app->conf.key_file, app->store_err,
						sizeof app->store_err) < 0) {
		fprintf(stderr, "%s\n", app->store_err);
		return -1;
	}
	app->prov = prov_new(&app->conf);
	log_set_level(LOG_LV_WARN);
	return 0;
}
