/* graph_edit benchmark: one model turn's server work on workflows of 50,
 * 200 and 1,000 nodes built from the shipped node library (etc/nodes.json:
 * text nodes chained by their STRING slots, one edge into each node): a
 * patch adding ten nodes joined to the workflow and setting a parameter,
 * applied on a copy with ids generated, validated (graph_apply), and the
 * new nodes laid out beside the others (graph_layout). Median and p95
 * over repeats, beside a baseline measured in the same run: a deep copy
 * and a compact dump of the same workflow, which every turn pays anyway
 * (the state is copied and stored).
 *
 *   graph_bench NODES.JSON [REPEATS]     (default 200; a quarter for 1,000 nodes)
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include <sodium.h>
#include "json/dump.h"
#include "wf/graph_edit/graph_apply.h"
#include "wf/graph_edit/graph_layout.h"

struct bench_type {
	const char *type, *in, *out;   /* borrowed from the library */
};

static json_t *bench_lib;              /* type -> definition */
static struct bench_type bench_types[64];
static size_t bench_ntypes;

static double bench_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static json_t *bench_find(void *ctx, const char *type)
{
	return json_object_get(ctx, type);
}

static void bench_size(const json_t *node, void *ctx, int *w, int *h)
{
	graph_node_size(json_object_get(ctx, json_string_value(json_object_get(node, "type")) ?: ""), w, h);
}

/* The first slot of a STRING type in slots, or NULL. */
static const char *bench_slot(const json_t *slots)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)slots, k, v)
		if (strcmp(json_string_value(json_object_get(v, "type")) ?: "", "STRING") == 0)
			return k;
	return NULL;
}

/* The library, and its types with a STRING input and a STRING output. */
static int bench_load(const char *path)
{
	json_t *arr = json_load_file(path, 0, NULL), *d;
	size_t i;

	if (!json_is_array(arr))
		return -1;
	bench_lib = json_object();
	json_array_foreach(arr, i, d) {
		const char *t = json_string_value(json_object_get(d, "type"));
		const char *in = bench_slot(json_object_get(d, "inputs"));
		const char *out = bench_slot(json_object_get(d, "outputs"));

		json_object_set(bench_lib, t, d);
		if (in && out && bench_ntypes < 64)
			bench_types[bench_ntypes++] = (struct bench_type){ t, in, out };
	}
	json_decref(arr);
	return bench_ntypes > 0 && json_object_get(bench_lib, "core:TextInput") ? 0 : -1;
}

/* n nodes: a text input, then text nodes each fed by an earlier node. */
static json_t *bench_workflow(int n, unsigned seed)
{
	json_t *nodes = json_array(), *edges = json_array(), *wf;
	char id[32], src[32];

	json_array_append_new(nodes, json_pack("{s:s, s:s}", "id", "n_0", "type", "core:TextInput"));
	for (int i = 1; i < n; i++) {
		const struct bench_type *t = &bench_types[(unsigned)i * 7 % bench_ntypes];
		int from = (int)((seed = seed * 1103515245u + 12345u) >> 8) % i;
		const char *out = from == 0 ? "text"
				  : bench_types[(unsigned)from * 7 % bench_ntypes].out;
		char eid[32];

		snprintf(id, sizeof id, "n_%d", i);
		snprintf(src, sizeof src, "n_%d", from);
		snprintf(eid, sizeof eid, "e_%d", i);
		json_array_append_new(nodes, json_pack("{s:s, s:s}", "id", id, "type", t->type));
		json_array_append_new(edges, json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", eid, "source", src,
						       "sourceHandle", out, "target", id, "targetHandle", t->in));
	}
	wf = json_pack("{s:s, s:o, s:o, s:{s:i, s:i, s:i}}", "name", "bench", "nodes", nodes, "edges", edges,
		       "viewport", "x", 0, "y", 0, "zoom", 1);
	graph_layout(wf, GRAPH_LAYOUT_ALL, bench_size, bench_lib, src, sizeof src);
	return wf;
}

/* Ten new nodes, each fed by an existing one, and a parameter renamed. */
static json_t *bench_patch(int n)
{
	json_t *p = json_array();
	char lid[16], from[32];

	for (int i = 0; i < 10; i++) {
		const struct bench_type *t = &bench_types[(unsigned)i % bench_ntypes];
		int src = (i * 37) % n;

		snprintf(lid, sizeof lid, "x%d", i);
		snprintf(from, sizeof from, "n_%d", src);
		json_array_append_new(p, json_pack("{s:s, s:s, s:{s:s, s:s}}", "op", "add", "path", "/nodes/-",
						   "value", "localId", lid, "type", t->type));
		json_array_append_new(p, json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s}}", "op", "add", "path",
			"/edges/-", "value", "source", from, "sourceHandle",
			src == 0 ? "text" : bench_types[(unsigned)src * 7 % bench_ntypes].out,
			"targetLocalId", lid, "targetHandle", t->in));
	}
	json_array_append_new(p, json_pack("{s:s, s:s, s:s}", "op", "add", "path", "/nodes/n_1/displayName",
					   "value", "renamed"));
	return p;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void bench_stats(double *t, int n, double *med, double *p95)
{
	qsort(t, (size_t)n, sizeof *t, bench_cmp);
	*med = t[n / 2] / 1e3;
	*p95 = t[(int)(0.95 * (n - 1))] / 1e3;
}

static int bench_one(int n, int repeats)
{
	json_t *wf = bench_workflow(n, 7u + (unsigned)n), *patch = bench_patch(n);
	struct graph_defs defs = { bench_find, bench_lib };
	struct graph_apply_opts o = { .defs = &defs };
	double *turn = calloc((size_t)repeats, sizeof *turn), *base = calloc((size_t)repeats, sizeof *base);
	double tm, tp, bm, bp;
	int failed = 0;
	char err[128];

	for (int r = 0; r < repeats; r++) {
		struct graph_apply_result res;
		double t0 = bench_us();
		json_t *copy;
		char *text;

		if (graph_apply(wf, patch, &o, &res) == 0)
			graph_layout(res.workflow, GRAPH_LAYOUT_NEW, bench_size, bench_lib, err, sizeof err);
		else
			failed++;
		turn[r] = bench_us() - t0;
		graph_apply_result_free(&res);
		t0 = bench_us();
		copy = json_deep_copy(wf);
		text = jtext(copy, JSON_COMPACT);
		base[r] = bench_us() - t0;
		free(text);
		json_decref(copy);
	}
	bench_stats(turn, repeats, &tm, &tp);
	bench_stats(base, repeats, &bm, &bp);
	printf("%5d %5zu %7d | %8.3f %8.3f | %8.3f %8.3f | %5.1fx\n", n,
	       json_array_size(json_object_get(wf, "edges")), repeats, tm, tp, bm, bp, bm > 0 ? tm / bm : 0);
	json_decref(wf);
	json_decref(patch);
	free(turn);
	free(base);
	return failed;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 50, 200, 1000 };
	int repeats = argc > 2 ? atoi(argv[2]) : 200, failed = 0;

	if (argc < 2 || sodium_init() < 0 || bench_load(argv[1]) < 0) {
		fprintf(stderr, "usage: graph_bench NODES.JSON [REPEATS] (the node library, etc/nodes.json)\n");
		return 2;
	}
	if (repeats < 4)
		repeats = 4;
	printf("graph_edit turn: apply a 21-operation patch (10 nodes, 10 edges, a rename) + validate\n"
	       "+ lay out the new nodes, ms; baseline: deep copy + compact dump of the workflow\n");
	printf("nodes edges repeats | turn median      p95 | base median      p95 | ratio\n");
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		failed += bench_one(sizes[i], sizes[i] >= 1000 ? repeats / 4 : repeats);
	json_decref(bench_lib);
	if (failed)
		fprintf(stderr, "graph_bench: %d patches did not apply\n", failed);
	return failed ? 1 : 0;
}
