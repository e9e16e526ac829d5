/* Random workflows for the layout's unit test and benchmark: acyclic
 * graphs from a seeded generator (splitmix64), so a failure can be run
 * again. Most edges join nodes a few steps apart, as a person's workflow
 * does; some jump anywhere further on. */
#ifndef AV_GEN_DAG_H
#define AV_GEN_DAG_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>

/* The definitions of the generated nodes' types. */
#define DAG_DEFS \
	"{\"t:Small\": {\"inputs\": {\"in\": {}}, \"outputs\": {\"out\": {}}}," \
	" \"t:Big\": {\"inputs\": {\"a\": {}, \"b\": {}, \"c\": {}}, \"outputs\": {\"x\": {}, \"y\": {}}," \
	"  \"configValues\": {\"p\": {}, \"q\": {}, \"r\": {}, \"s\": {}}}," \
	" \"t:Source\": {\"inputs\": {}, \"outputs\": {\"out\": {}}, \"configValues\": {\"v\": {}}}}"

static inline uint64_t dag_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline int dag_below(uint64_t *s, int k)
{
	return (int)(dag_next(s) % (uint64_t)k);
}

/* n nodes "n0".."n<n-1>" and m edges, most from a lower number to a
 * higher one, back_pct in a hundred from a higher number to a lower one
 * or to the node itself (closing cycles); shuffled: the nodes array in a
 * random order, else by number. New reference. */
static inline json_t *dag_graph(int n, int m, uint64_t seed, int shuffled, int back_pct)
{
	static const char *types[] = { "t:Small", "t:Small", "t:Big", "t:Source" };
	json_t *nodes = json_array(), *edges = json_array();
	int *order = malloc(sizeof *order * (size_t)(n + 1));
	char id[32], s[32], t[32];

	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; shuffled && i > 0; i--) {
		int j = dag_below(&seed, i + 1), k = order[i];

		order[i] = order[j], order[j] = k;
	}
	for (int i = 0; i < n; i++) {
		snprintf(id, sizeof id, "n%d", order[i]);
		json_array_append_new(nodes, json_pack("{s:s, s:s}", "id", id, "type",
						       types[dag_below(&seed, 4)]));
	}
	for (int e = 0; e < m && n > 1; e++) {
		int u = dag_below(&seed, n - 1), room = n - 1 - u;
		int span = dag_below(&seed, 10) < 7 && room > 6 ? 6 : room;
		int v = u + 1 + dag_below(&seed, span), k;

		if (dag_below(&seed, 100) < back_pct)
			k = v, v = dag_below(&seed, v + 1), u = k;
		snprintf(id, sizeof id, "e%d", e);
		snprintf(s, sizeof s, "n%d", u), snprintf(t, sizeof t, "n%d", v);
		json_array_append_new(edges, json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", id,
						       "source", s, "sourceHandle", "out", "target", t,
						       "targetHandle", "in"));
	}
	free(order);
	return json_pack("{s:s, s:o, s:o}", "name", "generated", "nodes", nodes, "edges", edges);
}

/* An acyclic one: every edge from a lower number to a higher one. */
static inline json_t *dag_workflow(int n, int m, uint64_t seed, int shuffled)
{
	return dag_graph(n, m, seed, shuffled, 0);
}

#endif
