/* The benchmarks' load generator (see http_load.h). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>
#include "http_load.h"

struct load_xfer {
	CURL *h;
	int idx;
	double start, first;
	char tail[64];      /* enough to find the check string across chunks */
	int found;
	const char *check;
	size_t bytes;
};

static double load_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static size_t load_sink(char *p, size_t size, size_t n, void *ctx)
{
	struct load_xfer *x = ctx;
	size_t len = size * n;

	if (x->first == 0)
		x->first = load_now_ms();
	x->bytes += len;
	if (x->check && !x->found) {
		size_t cl = strlen(x->check);

		if (memmem(p, len, x->check, cl))
			x->found = 1;
		else if (len >= sizeof x->tail)
			memcpy(x->tail, p + len - (sizeof x->tail - 1), sizeof x->tail - 1);
	}
	return len;
}

static void load_start(CURLM *m, struct load_xfer *x, const char *url, const char *body,
		       struct curl_slist *hdr, int idx)
{
	curl_easy_reset(x->h);
	curl_easy_setopt(x->h, CURLOPT_URL, url);
	curl_easy_setopt(x->h, CURLOPT_WRITEFUNCTION, load_sink);
	curl_easy_setopt(x->h, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(x->h, CURLOPT_PRIVATE, x);
	if (body) {
		curl_easy_setopt(x->h, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(x->h, CURLOPT_HTTPHEADER, hdr);
	}
	x->idx = idx;
	x->first = 0;
	x->found = 0;
	x->bytes = 0;
	x->start = load_now_ms();
	curl_multi_add_handle(m, x->h);
}

int load_run(const char *url, const char *body, int n, int concurrency, const char *check,
	     struct load_result *out)
{
	CURLM *m = curl_multi_init();
	struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
	struct load_xfer *xs = calloc((size_t)concurrency, sizeof *xs);
	int started = 0, done = 0, running = 0;
	double t0 = load_now_ms();

	memset(out, 0, sizeof *out);
	out->n = n;
	out->first_ms = calloc((size_t)n, sizeof(double));
	out->total_ms = calloc((size_t)n, sizeof(double));
	for (int i = 0; i < concurrency && started < n; i++) {
		xs[i].h = curl_easy_init();
		xs[i].check = check;
		load_start(m, &xs[i], url, body, hdr, started++);
	}
	while (done < n) {
		CURLMsg *msg;
		int left;

		curl_multi_perform(m, &running);
		while ((msg = curl_multi_info_read(m, &left)) != NULL) {
			struct load_xfer *x;
			long code = 0;

			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
			curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &code);
			out->total_ms[x->idx] = load_now_ms() - x->start;
			out->first_ms[x->idx] = (x->first ? x->first : load_now_ms()) - x->start;
			out->bytes += x->bytes;
			if (msg->data.result != CURLE_OK || code != 200 || (check && !x->found))
				out->failed++;
			curl_multi_remove_handle(m, x->h);
			done++;
			if (started < n)
				load_start(m, x, url, body, hdr, started++);
		}
		if (done < n)
			curl_multi_poll(m, NULL, 0, 100, NULL);
	}
	out->wall_s = (load_now_ms() - t0) / 1e3;
	for (int i = 0; i < concurrency; i++)
		if (xs[i].h)
			curl_easy_cleanup(xs[i].h);
	free(xs);
	curl_slist_free_all(hdr);
	curl_multi_cleanup(m);
	return 0;
}

void load_result_free(struct load_result *r)
{
	free(r->first_ms);
	free(r->total_ms);
}

static int load_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double load_pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof *v, load_cmp);
	return n ? v[(int)((n - 1) * p)] : 0;
}
