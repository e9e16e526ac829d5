/* Layout benchmark: graph_layout() on random workflows (tests/unit/gen_dag.h)
 * of 50, 200 and 1,000 nodes with twice as many edges, nodes listed in
 * their order along the edges and shuffled. Prints the time to lay out
 * everything and to place a tenth of the nodes beside the others (median
 * and p95 over repeats), beside a baseline measured in the same run: a
 * JSON round trip (dump and load) of the same workflow, which every turn
 * pays anyway; and the crossings between adjacent columns beside those of
 * the same columns in the workflow's order.
 *
 *   layout_bench [REPEATS]     (default 100; a quarter of that for 1,000 nodes)
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "json/dump.h"
#include "wf/graph_edit/graph_layout.h"
#include "../tests/unit/gen_dag.h"

static json_t *bench_defs;

static double bench_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void bench_size(const json_t *node, void *ctx, int *w, int *h)
{
	const char *type = json_string_value(json_object_get(node, "type"));

	graph_node_size(type ? json_object_get(bench_defs, type) : NULL, w, h);
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median and p95 of t (sorted in place), in ms. */
static void bench_stats(double *t, int n, double *med, double *p95)
{
	qsort(t, (size_t)n, sizeof *t, bench_cmp);
	*med = t[n / 2] / 1e3;
	*p95 = t[(int)(0.95 * (n - 1))] / 1e3;
}

/* The laid-out workflow with every tenth node's position taken away. */
static json_t *bench_tenth_unplaced(const json_t *laid)
{
	json_t *wf = json_deep_copy(laid), *nodes = json_object_get(wf, "nodes");

	for (size_t i = 0; i < json_array_size(nodes); i += 10)
		json_object_del(json_array_get(nodes, i), "position");
	return wf;
}

static void bench_one(int n, int shuffled, int repeats)
{
	json_t *wf = dag_workflow(n, 2 * n, 1000 + (uint64_t)n, shuffled), *laid = NULL, *part;
	double *all = calloc((size_t)repeats, sizeof *all), *some = calloc((size_t)repeats, sizeof *some);
	double *base = calloc((size_t)repeats, sizeof *base), am, ap, sm, sp, bm, bp;
	char err[128];

	for (int r = 0; r < repeats; r++) {
		json_t *copy = json_deep_copy(wf);
		double t0 = bench_us();
		char *text;

		graph_layout(copy, GRAPH_LAYOUT_ALL, bench_size, NULL, err, sizeof err);
		all[r] = bench_us() - t0;
		part = bench_tenth_unplaced(copy);
		t0 = bench_us();
		graph_layout(part, GRAPH_LAYOUT_NEW, bench_size, NULL, err, sizeof err);
		some[r] = bench_us() - t0;
		t0 = bench_us();
		text = jtext(copy, JSON_COMPACT);
		json_decref(json_loads(text, 0, NULL));
		base[r] = bench_us() - t0;
		free(text);
		json_decref(part);
		json_decref(laid);
		laid = copy;
	}
	bench_stats(all, repeats, &am, &ap);
	bench_stats(some, repeats, &sm, &sp);
	bench_stats(base, repeats, &bm, &bp);
	printf("%5d %5d %-8s | %7.2f %7.2f | %7.2f %7.2f | %7.2f %7.2f | %9lld %11lld\n",
	       n, 2 * n, shuffled ? "shuffled" : "ordered", am, ap, sm, sp, bm, bp,
	       graph_layout_crossings(laid, 0), graph_layout_crossings(laid, 1));
	json_decref(wf), json_decref(laid);
	free(all), free(some), free(base);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 50, 200, 1000 };
	int repeats = argc > 1 ? atoi(argv[1]) : 100;

	if (repeats < 2)
		repeats = 2;
	bench_defs = json_loads(DAG_DEFS, 0, NULL);
	printf("workflow layout, ms (median, p95 over %d repeats; %d for 1,000 nodes);\n"
	       "baseline: a JSON round trip of the same workflow\n",
	       repeats, repeats / 4 > 2 ? repeats / 4 : 2);
	printf("                     | lay out all     | place a tenth   | JSON round trip |"
	       " crossings\n"
	       "nodes edges order    |  median     p95 |  median     p95 |  median     p95 |"
	       "    layout input order\n");
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int shuffled = 0; shuffled <= 1; shuffled++)
			bench_one(sizes[i], shuffled,
				  sizes[i] >= 1000 ? (repeats / 4 > 2 ? repeats / 4 : 2) : repeats);
	json_decref(bench_defs);
	return 0;
}
