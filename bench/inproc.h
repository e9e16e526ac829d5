/* Running the API in-process for the benchmarks: a worker's app opened
 * on a directory, requests handed straight to a handler, output kept in
 * a buffer. */
#ifndef AV_BENCH_INPROC_H
#define AV_BENCH_INPROC_H
#include "app.h"
#include "fcgi/req.h"
#include "util/buf.h"

struct sink {
	struct buf b;
	double first_us;   /* when the first byte was written (0: none yet) */
};

/* Opens the store in dir with the given durability, loads the keys,
 * registers the test and product workflows. 0 or -1. */
int bench_open(struct app *app, const char *dir, const char *durability);
/* One request: body in, the response in out. */
void bench_call(struct app *app, struct sink *out, const char *method, const char *uri,
		const char *body, enum problem (*fn)(struct req *));
/* The text of "key":"..." in a response, or -1. */
int bench_field(const char *text, const char *key, char *out, size_t n);
double bench_now_us(void);
double bench_pct(double *v, int n, double p);

#endif
