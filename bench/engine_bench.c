/* Engine benchmark: threads of the test workflow (three counting steps, a
 * draft, a pause, the decision, the end), run either in-process (the
 * engine called directly, output discarded) or through a web server over
 * HTTP with libcurl. Prints steps/s, checkpoint bytes, resume (confirm)
 * latency percentiles and peak RSS, each beside a baseline measured in the
 * same run: in-process, a bare Berkeley DB commit of a thread record;
 * over HTTP, GET /api/health.
 *
 *   engine_bench inproc DIR [THREADS] [sync|write_nosync]
 *   engine_bench http URL [THREADS]       (URL = http://127.0.0.1:8080)
 *   engine_bench scale DIR STORED [SAMPLE]
 *
 * scale: stores STORED paused threads, then confirms SAMPLE of them picked
 * at random and prints the resume latency, so runs with different STORED
 * show whether resuming stays flat as the store grows; then reads the
 * store's files into the operating system's file cache and confirms SAMPLE
 * others ("cached:"): the first figure includes what the disk costs when
 * the system dropped the pages meanwhile, the second is the store's own. One thread is run
 * to its pause; the others are copies of its records under their own IDs
 * (seed.h), BENCH_SEED_BATCH (default 500) per transaction, so a million
 * take minutes, not hours.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <curl/curl.h>
#include <sodium.h>
#include "json/jalloc.h"
#include "app.h"
#include "fcgi/req.h"
#include "engine/engine.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/log.h"

extern const struct workflow wf_test;

#include "inproc.h"
#include "seed.h"

#include "api/api.h"

static int bench_baseline_fn(struct store *s, struct store_txn *txn, void *ctx)
{
	uint8_t tid[STORE_TID] = { 0 };
	json_t *rec = json_pack("{s:s, s:I, s:s}", "status", "running", "updated",
				(json_int_t)clock_wall_ms(), "workflow", "test");
	int rc;

	memcpy(tid, ctx, sizeof(int));
	rc = store_thread_put(s, txn, tid, rec);
	json_decref(rec);
	return rc;
}

static int bench_inproc(const char *dir, int threads, const char *durability)
{
	static struct app app;
	struct sink out;
	double *lat = calloc((size_t)threads, sizeof *lat), t0, t1, b0, b1;
	long long ckpt_bytes = 0, steps = 0;
	struct rusage ru;
	char tid[128], iid[64], body[512];

	if (bench_open(&app, dir, durability) < 0)
		return 1;
	buf_init(&out.b, 1 << 22);

	b0 = bench_now_us();
	for (int i = 0; i < threads * 8; i++) {
		store_txn(app.store, bench_baseline_fn, &i);
		store_maintain(app.store);
	}
	b1 = bench_now_us();

	t0 = bench_now_us();
	for (int i = 0; i < threads; i++) {
		double c0;
		uint8_t raw[TID_RAW];

		bench_call(&app, &out, "POST", "/api/agent/stream",
			   "{\"workflow\":\"test\",\"input\":{\"topic\":\"春游攻略\",\"steps\":3}}",
			   api_stream_post);
		if (bench_field(out.b.data, "threadId", tid, sizeof tid) < 0 ||
		    bench_field(out.b.data, "interruptId", iid, sizeof iid) < 0) {
			fprintf(stderr, "no pause in: %.300s\n", out.b.data);
			return 1;
		}
		snprintf(body, sizeof body,
			 "{\"threadId\":\"%s\",\"interruptId\":\"%s\",\"action\":\"approve\"}", tid, iid);
		c0 = bench_now_us();
		bench_call(&app, &out, "POST", "/api/agent/confirm", body, api_confirm);
		lat[i] = bench_now_us() - c0;
		if (strstr(out.b.data, "[DONE]") == NULL) {
			fprintf(stderr, "thread did not finish: %.300s\n", out.b.data);
			return 1;
		}
		tid_verify(app.keys, tid, raw);
		ckpt_bytes += store_ckpt_bytes(app.store, raw);
		steps += 7; /* prepare, count x3, draft, review, finish */
		store_maintain(app.store); /* as the worker does between requests */
	}
	t1 = bench_now_us();
	getrusage(RUSAGE_SELF, &ru);
	printf("in-process, durability %s, %d threads of 7 steps (one pause each)\n", durability, threads);
	printf("  baseline: bare thread-record commits      %10.0f commits/s\n",
	       threads * 8 / ((b1 - b0) / 1e6));
	printf("  node steps                                %10.0f steps/s  (%.2f x baseline commit rate)\n",
	       steps / ((t1 - t0) / 1e6), (steps / ((t1 - t0) / 1e6)) / (threads * 8 / ((b1 - b0) / 1e6)));
	printf("  checkpoint bytes per thread (full history) %9.0f B  (%.0f B per step)\n",
	       (double)ckpt_bytes / threads, (double)ckpt_bytes / steps);
	printf("  resume (confirm -> done, 3 steps) p50 %8.3f ms  p99 %8.3f ms\n",
	       bench_pct(lat, threads, 0.5) / 1e3, bench_pct(lat, threads, 0.99) / 1e3);
	printf("  peak RSS %ld KiB\n", ru.ru_maxrss);
	buf_free(&out.b);
	store_close(app.store);
	free(lat);
	return 0;
}

/* The interrupt ID of the pause the template thread stopped at. */
static int bench_scale_template(struct app *app, struct sink *out, struct seed_tpl *t, char *iid,
				size_t n)
{
	char tid[128];

	bench_call(app, out, "POST", "/api/agent/stream",
		   "{\"workflow\":\"test\",\"input\":{\"topic\":\"规模\"}}", api_stream_post);
	if (bench_field(out->b.data, "threadId", tid, sizeof tid) < 0 ||
	    bench_field(out->b.data, "interruptId", iid, n) < 0 || seed_load(app, tid, t) < 0) {
		fprintf(stderr, "no paused template thread: %.300s\n", out->b.data);
		return -1;
	}
	return 0;
}

/* The IDs of a seeded store and the interrupt they paused at, kept beside
 * it in DIR.ids (the interrupt first, then one ID a line, an empty line
 * for one already confirmed), so later runs with other settings resume
 * from the same store without seeding it again. */
static void bench_ids_path(char *path, size_t n, const char *dir)
{
	snprintf(path, n, "%s.ids", dir);
}

static int bench_ids_save(const char *dir, const char *iid, char (*tids)[TID_LEN + 1], int n)
{
	char path[4200];
	FILE *f;

	bench_ids_path(path, sizeof path, dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fprintf(f, "%s\n", iid);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\n", tids[i]);
	return fclose(f) == 0 ? 0 : -1;
}

/* The number of IDs read into tids (up to max), or -1 with no such file. */
static int bench_ids_load(const char *dir, char *iid, size_t iidlen, char (*tids)[TID_LEN + 1],
			  int max)
{
	char path[4200], line[256];
	int n = 0;
	FILE *f;

	bench_ids_path(path, sizeof path, dir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(line, sizeof line, f) == NULL) {
		fclose(f);
		return -1;
	}
	line[strcspn(line, "\n")] = '\0';
	snprintf(iid, iidlen, "%.*s", (int)iidlen - 1, line);
	while (n < max && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(tids[n++], TID_LEN + 1, "%.*s", TID_LEN, line);
	}
	fclose(f);
	return n;
}

/* Seeds the store with stored copies (or, BENCH_SCALE_KEEP set, reuses the
 * ones DIR.ids names): the number of IDs in tids, or -1. */
static int bench_scale_seed(struct app *app, struct sink *out, const char *dir, int stored,
			    char (*tids)[TID_LEN + 1], char *iid, size_t iidlen)
{
	int batch = getenv("BENCH_SEED_BATCH") ? atoi(getenv("BENCH_SEED_BATCH")) : 500, n;
	int keep = getenv("BENCH_SCALE_KEEP") != NULL;
	struct seed_tpl t;
	double t0 = bench_now_us();

	if (keep && (n = bench_ids_load(dir, iid, iidlen, tids, stored)) > 0) {
		fprintf(stderr, "resuming the %d stored threads %s.ids names\n", n, dir);
		return n;
	}
	if (bench_scale_template(app, out, &t, iid, iidlen) < 0 ||
	    seed_copy(app, &t, stored, batch > 0 ? batch : 500, tids) < 0)
		return -1;
	seed_free(&t);
	fprintf(stderr, "stored %d paused threads (copies of one run to its pause, %d per transaction) "
			"in %.1f s\n", stored, batch, (bench_now_us() - t0) / 1e6);
	if (keep && bench_ids_save(dir, iid, tids, stored) < 0)
		fprintf(stderr, "cannot write %s.ids\n", dir);
	return stored;
}

static double bench_tv_ms(const struct timeval *a, const struct timeval *b)
{
	return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_usec - a->tv_usec) / 1e3;
}

/* What the sample cost the process, per resume: CPU time, blocks read from
 * the disk itself (not the operating system's file cache) and waits. */
static void bench_scale_usage(const struct rusage *a, const struct rusage *b, int sample)
{
	printf("       per resume: cpu %.3f ms (user %.3f)  disk reads %.1f KiB  "
	       "voluntary switches %.1f\n",
	       (bench_tv_ms(&a->ru_utime, &b->ru_utime) + bench_tv_ms(&a->ru_stime, &b->ru_stime)) /
		       sample,
	       bench_tv_ms(&a->ru_utime, &b->ru_utime) / sample,
	       (b->ru_inblock - a->ru_inblock) * 0.5 / sample,
	       (double)(b->ru_nvcsw - a->ru_nvcsw) / sample);
}

/* Reads every file of the store's directory to its end, so the operating
 * system's file cache holds it: the MiB read, or -1. */
static double bench_scale_warm(const char *dir)
{
	static char block[1 << 20];
	double mib = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[4200];
		ssize_t n;
		int fd;

		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (strstr(e->d_name, ".db") == NULL || (fd = open(path, O_RDONLY)) < 0)
			continue;
		while ((n = read(fd, block, sizeof block)) > 0)
			mib += n / 1048576.0;
		close(fd);
	}
	closedir(d);
	return mib;
}

/* Confirms sample stored threads not confirmed before, picked at random,
 * and prints the latency (what: the line's first word) and what the
 * sample cost. 0, or -1 when a thread did not finish. */
static int bench_scale_sample(struct app *app, struct sink *out, char (*tids)[TID_LEN + 1],
			      int stored, int sample, const char *iid, const char *what)
{
	double *lat = calloc((size_t)sample, sizeof *lat);
	struct rusage r0, r1;
	char body[512];

	getrusage(RUSAGE_SELF, &r0);
	for (int k = 0; k < sample; k++) {
		int i = (int)(randombytes_uniform((uint32_t)stored));
		double c0;

		if (tids[i][0] == '\0') {
			k--;
			continue;
		}
		snprintf(body, sizeof body,
			 "{\"threadId\":\"%s\",\"interruptId\":\"%s\",\"action\":\"approve\"}", tids[i],
			 iid);
		c0 = bench_now_us();
		bench_call(app, out, "POST", "/api/agent/confirm", body, api_confirm);
		lat[k] = bench_now_us() - c0;
		if (strstr(out->b.data, "[DONE]") == NULL) {
			fprintf(stderr, "a stored copy did not finish: %.300s\n", out->b.data);
			free(lat);
			return -1;
		}
		tids[i][0] = '\0';
		store_maintain(app->store);
	}
	getrusage(RUSAGE_SELF, &r1);
	printf("%s %8d stored threads: resume p50 %7.3f ms  p99 %7.3f ms\n", what, stored,
	       bench_pct(lat, sample, 0.5) / 1e3, bench_pct(lat, sample, 0.99) / 1e3);
	bench_scale_usage(&r0, &r1, sample);
	free(lat);
	return 0;
}

/* Two samples: the store as seeding left it, once written back (pages
 * the system dropped meanwhile are read from the disk), then with the store's files read into
 * the file cache first, so the figure is the store's own cost. */
static int bench_scale(const char *dir, int stored, int sample)
{
	static struct app app;
	struct sink out;
	char (*tids)[TID_LEN + 1] = calloc((size_t)stored, TID_LEN + 1), iid[64];
	double t0, mib;
	int rc;

	if (bench_open(&app, dir, "write_nosync") < 0)
		return 1;
	buf_init(&out.b, 1 << 22);
	stored = bench_scale_seed(&app, &out, dir, stored, tids, iid, sizeof iid);
	if (stored <= 0)
		return 1;
	if (sample > stored / 2)
		sample = stored / 2;
	/* Seeding leaves gigabytes of dirty pages the system writes back in
	 * the next half minute: the samples should not pay for that. */
	t0 = bench_now_us();
	sync();
	fprintf(stderr, "the seeded store written back to the disk (sync) in %.1f s\n",
		(bench_now_us() - t0) / 1e6);
	rc = bench_scale_sample(&app, &out, tids, stored, sample, iid, "scale:");
	t0 = bench_now_us();
	mib = bench_scale_warm(dir);
	if (rc == 0) {
		printf("       then the store's files (%.0f MiB) read into the file cache in %.1f s\n",
		       mib, (bench_now_us() - t0) / 1e6);
		rc = bench_scale_sample(&app, &out, tids, stored, sample, iid, "cached:");
	}
	if (getenv("BENCH_SCALE_KEEP"))
		bench_ids_save(dir, iid, tids, stored);
	buf_free(&out.b);
	store_close(app.store);
	free(tids);
	return rc == 0 ? 0 : 1;
}

/* --- over HTTP ----------------------------------------------------------- */

static size_t bench_curl_sink(char *p, size_t size, size_t n, void *ctx)
{
	struct buf *b = ctx;

	buf_add(b, p, size * n);
	return size * n;
}

static double bench_http(CURL *h, struct buf *b, const char *url, const char *body)
{
	struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
	double t0 = bench_now_us();

	buf_reset(b);
	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, bench_curl_sink);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, b);
	if (body) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	}
	if (curl_easy_perform(h) != CURLE_OK)
		fprintf(stderr, "request to %s failed\n", url);
	curl_slist_free_all(hdr);
	return bench_now_us() - t0;
}

static int bench_over_http(const char *base, int threads)
{
	CURL *h = curl_easy_init();
	struct buf b;
	double *lat = calloc((size_t)threads, sizeof *lat), *hl = calloc((size_t)threads, sizeof *hl);
	char url[512], curl_[512], tid[128], iid[64], body[512];
	double t0, t1;

	buf_init(&b, 1 << 22);
	snprintf(url, sizeof url, "%s/api/agent/stream", base);
	snprintf(curl_, sizeof curl_, "%s/api/agent/confirm", base);
	for (int i = 0; i < threads; i++) {
		char hurl[512];

		snprintf(hurl, sizeof hurl, "%s/api/health", base);
		hl[i] = bench_http(h, &b, hurl, NULL);
	}
	t0 = bench_now_us();
	for (int i = 0; i < threads; i++) {
		bench_http(h, &b, url, "{\"workflow\":\"test\",\"input\":{\"topic\":\"春游攻略\",\"steps\":3}}");
		if (bench_field(b.data, "threadId", tid, sizeof tid) < 0 ||
		    bench_field(b.data, "interruptId", iid, sizeof iid) < 0) {
			fprintf(stderr, "no pause in: %.300s\n", b.data ? b.data : "");
			return 1;
		}
		snprintf(body, sizeof body,
			 "{\"threadId\":\"%s\",\"interruptId\":\"%s\",\"action\":\"approve\"}", tid, iid);
		lat[i] = bench_http(h, &b, curl_, body);
		if (b.data == NULL || strstr(b.data, "[DONE]") == NULL) {
			fprintf(stderr, "thread did not finish\n");
			return 1;
		}
	}
	t1 = bench_now_us();
	printf("over HTTP (%s), %d threads of 7 steps (one pause each)\n", base, threads);
	printf("  baseline: GET /api/health             p50 %8.3f ms  p99 %8.3f ms\n",
	       bench_pct(hl, threads, 0.5) / 1e3, bench_pct(hl, threads, 0.99) / 1e3);
	printf("  node steps (2 requests per thread)    %10.0f steps/s\n", threads * 7 / ((t1 - t0) / 1e6));
	printf("  resume (confirm -> done, 3 steps)     p50 %8.3f ms  p99 %8.3f ms  (%.2f x / %.2f x health)\n",
	       bench_pct(lat, threads, 0.5) / 1e3, bench_pct(lat, threads, 0.99) / 1e3,
	       bench_pct(lat, threads, 0.5) / bench_pct(hl, threads, 0.5),
	       bench_pct(lat, threads, 0.99) / bench_pct(hl, threads, 0.99));
	buf_free(&b);
	curl_easy_cleanup(h);
	free(lat);
	free(hl);
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 3 ? atoi(argv[3]) : 0;

	jalloc_install();
	if (argc < 3 || (strcmp(argv[1], "inproc") && strcmp(argv[1], "http") &&
			 strcmp(argv[1], "scale"))) {
		fprintf(stderr, "usage: engine_bench inproc DIR [THREADS] [sync|write_nosync]\n"
				"       engine_bench http URL [THREADS]\n"
				"       engine_bench scale DIR STORED [SAMPLE]\n");
		return 2;
	}
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	if (threads <= 0)
		threads = 1000;
	if (strcmp(argv[1], "scale") == 0)
		return bench_scale(argv[2], threads, argc > 4 ? atoi(argv[4]) : 500);
	if (strcmp(argv[1], "inproc") == 0)
		return bench_inproc(argv[2], threads, argc > 4 ? argv[4] : "write_nosync");
	return bench_over_http(argv[2], threads);
}
