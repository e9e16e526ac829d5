/* A small load generator on curl multi for the benchmarks: N requests,
 * C at a time, each timed to its first body byte and to its end. */
#ifndef AV_HTTP_LOAD_H
#define AV_HTTP_LOAD_H
#include <stddef.h>

struct load_result {
	int n, failed;
	double wall_s;
	double *first_ms;   /* per request: time to the first body byte */
	double *total_ms;   /* per request: time to the end */
	size_t bytes;
};

/* body NULL: GET. check: a string every good answer contains, or NULL. */
int load_run(const char *url, const char *body, int n, int concurrency, const char *check,
	     struct load_result *out);
void load_result_free(struct load_result *r);
double load_pct(double *v, int n, double p);

#endif
