/* The workflow layout: the node size formula; small graphs by hand (a
 * chain, a diamond, cycles, parts, self-loops, repeated edges, missing
 * ends, new nodes beside placed ones); crossings counted on hand-placed
 * nodes; random DAGs of 10, 100 and 1,000 nodes from a seeded generator:
 * no boxes overlap, every edge goes left to right, and crossings are no
 * more than those of the same columns in the workflow's order. */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>
#include "tap.h"
#include "wf/graph_edit/graph_layout.h"
#include "gen_dag.h"

/* Definitions the size function looks types up in (gen_dag.h). */
static json_t *lay_defs;

/* JSON written with single quotes, for readable tables. */
static json_t *lay_json(const char *text)
{
	char *s = strdup(text);
	json_error_t e;
	json_t *j;

	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	j = json_loads(s, 0, &e);
	if (!j)
		tap_bail("bad JSON in the table: %s: %s", e.text, text);
	free(s);
	return j;
}

static void lay_size(const json_t *node, void *ctx, int *w, int *h)
{
	const char *type = json_string_value(json_object_get(node, "type"));

	graph_node_size(type ? json_object_get(ctx, type) : NULL, w, h);
}

struct size_case {
	const char *name;
	const char *def; /* NULL: no definition */
	int w, h;
};

static const struct size_case size_cases[] = {
	{ "no definition: one slot each way", NULL, 240, 72 },
	{ "nothing declared", "{}", 240, 48 },
	{ "inputs decide", "{'inputs': {'a': {}, 'b': {}, 'c': {}}, 'outputs': {'x': {}}}", 240, 120 },
	{ "outputs decide", "{'inputs': {'a': {}}, 'outputs': {'x': {}, 'y': {}}}", 240, 96 },
	{ "parameters add", "{'inputs': {'a': {}}, 'outputs': {'x': {}},"
	  " 'configValues': {'t': {}, 'k': {}}}", 240, 128 },
	{ "only parameters", "{'configValues': {'seed': {}}}", 240, 76 },
};

static void lay_test_sizes(void)
{
	for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++) {
		const struct size_case *c = &size_cases[i];
		json_t *def = c->def ? lay_json(c->def) : NULL;
		int w = 0, h = 0;

		graph_node_size(def, &w, &h);
		ok(w == c->w && h == c->h, "size, %s: %dx%d (want %dx%d)", c->name, w, h, c->w, c->h);
		json_decref(def);
	}
}

/* Boxes of every node with a position; 1 when two overlap (named in why). */
static int lay_overlaps(const json_t *wf, char *why, size_t len)
{
	const json_t *nodes = json_object_get(wf, "nodes");
	size_t n = json_array_size(nodes);
	int *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
	int *w = calloc(n + 1, sizeof *w), *h = calloc(n + 1, sizeof *h), found = 0;

	for (size_t i = 0; i < n; i++) {
		const json_t *node = json_array_get(nodes, i), *pos = json_object_get(node, "position");

		if (!json_is_object(pos))
			continue; /* not a node, or not placed: no box */
		x[i] = (int)json_integer_value(json_object_get(pos, "x"));
		y[i] = (int)json_integer_value(json_object_get(pos, "y"));
		lay_size(node, lay_defs, &w[i], &h[i]);
	}
	for (size_t i = 0; i < n && !found; i++)
		for (size_t j = i + 1; j < n && !found; j++)
			if (w[i] && w[j] && x[i] < x[j] + w[j] && x[j] < x[i] + w[i] && y[i] < y[j] + h[j] &&
			    y[j] < y[i] + h[i]) {
				snprintf(why, len, "nodes %zu and %zu overlap", i, j);
				found = 1;
			}
	free(x), free(y), free(w), free(h);
	return found;
}

static const json_t *lay_node(const json_t *wf, const char *id)
{
	size_t i;
	const json_t *node;

	json_array_foreach(json_object_get(wf, "nodes"), i, node) {
		const char *nid = json_string_value(json_object_get(node, "id"));

		if (nid && strcmp(nid, id) == 0)
			return node;
	}
	return NULL;
}

static int lay_coord(const json_t *wf, const char *id, const char *axis)
{
	const json_t *pos = json_object_get(lay_node(wf, id), "position");
	const json_t *v = json_object_get(pos, axis);

	return json_is_integer(v) ? (int)json_integer_value(v) : -999999;
}

/* Edges between two distinct existing nodes whose source is not left of
 * their target. */
static int lay_back_edges(const json_t *wf)
{
	size_t i;
	const json_t *e;
	int back = 0;

	json_array_foreach(json_object_get(wf, "edges"), i, e) {
		const char *s = json_string_value(json_object_get(e, "source"));
		const char *t = json_string_value(json_object_get(e, "target"));

		if (s && t && strcmp(s, t) != 0 && lay_node(wf, s) && lay_node(wf, t) &&
		    lay_coord(wf, s, "x") >= lay_coord(wf, t, "x"))
			back++;
	}
	return back;
}

/* "a<b b=c": a left of b, b in the same column as c. */
static int lay_relations(const json_t *wf, const char *rel, char *why, size_t len)
{
	char a[16], b[16], op;
	int used;

	while (rel && sscanf(rel, " %15[^<=]%c%15s%n", a, &op, b, &used) == 3) {
		int xa = lay_coord(wf, a, "x"), xb = lay_coord(wf, b, "x");

		if (op == '<' ? !(xa < xb) : xa != xb) {
			snprintf(why, len, "%s%c%s but x %d, %d", a, op, b, xa, xb);
			return 0;
		}
		rel += used;
	}
	return 1;
}

/* In "new only" mode, nodes that had a position still have it. */
static int lay_kept(const json_t *before, const json_t *after)
{
	const json_t *nb = json_object_get(before, "nodes"), *na = json_object_get(after, "nodes");

	for (size_t i = 0; i < json_array_size(nb); i++) {
		const json_t *p = json_object_get(json_array_get(nb, i), "position");

		if (json_is_number(json_object_get(p, "x")) && json_is_number(json_object_get(p, "y")) &&
		    !json_equal(p, json_object_get(json_array_get(na, i), "position")))
			return 0;
	}
	return 1;
}

struct layout_case {
	const char *name;
	enum graph_layout_mode mode;
	const char *wf;
	int placed;     /* what graph_layout returns */
	int back;       /* edges not drawn left to right */
	const char *rel;
};

#define N(id) "{'id': '" id "', 'type': 't:Small'}"
#define NB(id) "{'id': '" id "', 'type': 't:Big'}"
#define NP(id, x, y) "{'id': '" id "', 'type': 't:Small', 'position': {'x': " #x ", 'y': " #y "}}"
#define E(s, t) "{'id': 'e" s t "', 'source': '" s "', 'sourceHandle': 'out', 'target': '" t \
	"', 'targetHandle': 'in'}"

static const struct layout_case layout_cases[] = {
	{ "chain", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "," N("c") "], 'edges': ["
	  E("a", "b") "," E("b", "c") "]}", 3, 0, "a<b b<c" },
	{ "chain given backwards", GRAPH_LAYOUT_ALL, "{'nodes': [" N("c") "," N("b") "," N("a") "],"
	  " 'edges': [" E("b", "c") "," E("a", "b") "]}", 3, 0, "a<b b<c" },
	{ "diamond", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "," N("c") "," N("d") "],"
	  " 'edges': [" E("a", "b") "," E("a", "c") "," E("b", "d") "," E("c", "d") "]}", 4, 0,
	  "a<b b=c c<d" },
	{ "cycle of three: one edge turned back", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b")
	  "," N("c") "], 'edges': [" E("a", "b") "," E("b", "c") "," E("c", "a") "]}", 3, 1,
	  "a<b b<c" },
	{ "cycle of two", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "], 'edges': ["
	  E("a", "b") "," E("b", "a") "]}", 2, 1, "a<b" },
	{ "disconnected parts", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("c") "," N("b") ","
	  N("d") "," N("e") "], 'edges': [" E("a", "b") "," E("c", "d") "]}", 5, 0,
	  "a<b c<d a=c a=e b=d" },
	{ "self-loop ignored", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "], 'edges': ["
	  E("a", "a") "," E("a", "b") "]}", 2, 0, "a<b" },
	{ "duplicate edges", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "], 'edges': ["
	  E("a", "b") "," E("a", "b") "," E("a", "b") "]}", 2, 0, "a<b" },
	{ "edge to a missing node ignored", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "],"
	  " 'edges': [" E("a", "zz") "," E("zz", "b") "," E("a", "b") "]}", 2, 0, "a<b" },
	{ "long edge over two layers", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "," N("c")
	  "," N("d") "], 'edges': [" E("a", "b") "," E("b", "c") "," E("c", "d") "," E("a", "d") "]}",
	  4, 0, "a<b b<c c<d" },
	{ "a source sits next to its consumer", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b")
	  "," N("c") "," N("s") "], 'edges': [" E("a", "b") "," E("b", "c") "," E("s", "c") "]}", 4,
	  0, "s=b a<s" },
	{ "tall nodes in one layer", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," NB("b") "," NB("c")
	  "," NB("d") "," N("e") "], 'edges': [" E("a", "b") "," E("a", "c") "," E("a", "d") ","
	  E("b", "e") "," E("d", "e") "]}", 5, 0, "b=c c=d a<b d<e" },
	{ "entries that are not nodes, a repeated id", GRAPH_LAYOUT_ALL, "{'nodes': [1, 'x', "
	  N("a") "," N("a") "," N("b") "], 'edges': [" E("a", "b") "]}", 3, 0, "a<b" },
	{ "no edges at all", GRAPH_LAYOUT_ALL, "{'nodes': [" N("a") "," N("b") "," N("c") "]}", 3,
	  0, "a=b b=c" },
	{ "empty workflow", GRAPH_LAYOUT_ALL, "{'nodes': [], 'edges': []}", 0, 0, NULL },
	{ "all: positions replaced", GRAPH_LAYOUT_ALL, "{'nodes': [" NP("a", 900, 900) ","
	  NP("b", 0, 0) "], 'edges': [" E("a", "b") "]}", 2, 0, "a<b" },
	{ "new only: all placed already", GRAPH_LAYOUT_NEW, "{'nodes': [" NP("a", 0, 0) ","
	  NP("b", 400, 0) "], 'edges': [" E("a", "b") "]}", 0, 0, "a<b" },
	{ "new only: a node after the last", GRAPH_LAYOUT_NEW, "{'nodes': [" NP("a", 0, 0) ","
	  NP("b", 320, 0) "," N("c") "], 'edges': [" E("a", "b") "," E("b", "c") "]}", 1, 0,
	  "b<c" },
	{ "new only: a node feeding the first goes left", GRAPH_LAYOUT_NEW, "{'nodes': ["
	  NP("a", 0, 0) "," NP("b", 320, 0) "," N("n") "], 'edges': [" E("a", "b") "," E("n", "a")
	  "]}", 1, 0, "n<a" },
	{ "new only: a new chain beside tall old nodes", GRAPH_LAYOUT_NEW, "{'nodes': ["
	  NP("a", 0, 0) "," NP("b", 0, 150) "," N("x") "," NB("y") "," N("z") "], 'edges': ["
	  E("x", "y") "," E("y", "z") "]}", 3, 0, "x<y y<z a<x" },
	{ "new only: a new node between placed ones", GRAPH_LAYOUT_NEW, "{'nodes': ["
	  NP("a", 0, 0) "," NP("c", 320, 0) "," N("b") "], 'edges': [" E("a", "b") "," E("b", "c")
	  "]}", 1, 1, "a<b" },
	{ "new only: a position that is not numeric", GRAPH_LAYOUT_NEW, "{'nodes': ["
	  NP("a", 0, 0) ", {'id': 'b', 'type': 't:Small', 'position': {'x': 'left', 'y': 0}}],"
	  " 'edges': [" E("a", "b") "]}", 1, 0, "a<b" },
	{ "new only: placed nodes at odd coordinates", GRAPH_LAYOUT_NEW, "{'nodes': ["
	  NP("a", -37.5, 12.25) "," NP("b", 260.75, -400) "," N("c") "," N("d") "], 'edges': ["
	  E("a", "c") "," E("b", "d") "]}", 2, 0, "a<c b<d" },
};

static void lay_run_case(const struct layout_case *c)
{
	json_t *before = lay_json(c->wf), *wf = json_deep_copy(before), *again = json_deep_copy(before);
	char err[128] = "", why[128] = "";
	int placed = graph_layout(wf, c->mode, lay_size, lay_defs, err, sizeof err);

	is_int(placed, c->placed, "%s: nodes placed %s", c->name, err);
	ok(!lay_overlaps(wf, why, sizeof why), "%s: no overlaps %s", c->name, why);
	ok(lay_back_edges(wf) <= c->back, "%s: at most %d edge(s) right to left (%d)", c->name,
	   c->back, lay_back_edges(wf));
	ok(lay_relations(wf, c->rel, why, sizeof why), "%s: columns %s %s", c->name,
	   c->rel ? c->rel : "", why);
	if (c->mode == GRAPH_LAYOUT_NEW)
		ok(lay_kept(before, wf), "%s: placed nodes kept where they were", c->name);
	graph_layout(again, c->mode, lay_size, lay_defs, err, sizeof err);
	ok(json_equal(wf, again), "%s: the same again", c->name);
	json_decref(before), json_decref(wf), json_decref(again);
}

static void lay_test_errors(void)
{
	const char *bad[] = { "{}", "{'nodes': {}}", "[]", "{'nodes': 'a'}" };
	char err[128];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		json_t *wf = lay_json(bad[i]);

		err[0] = 0;
		ok(graph_layout(wf, GRAPH_LAYOUT_ALL, NULL, NULL, err, sizeof err) == -1 && err[0],
		   "no nodes array refused: %s (%s)", bad[i], err);
		is_int(graph_layout_crossings(wf, 0), -1, "no crossings without nodes: %s", bad[i]);
		json_decref(wf);
	}
}

static void lay_size_broken(const json_t *node, void *ctx, int *w, int *h)
{
	*w = -10, *h = 0;
}

/* A size function giving nonsense: boxes of 1 x 1, layers 1 + 80 apart. */
static void lay_test_broken_sizes(void)
{
	json_t *wf = lay_json("{'nodes': [" N("a") "," N("b") "," N("c") "], 'edges': ["
			      E("a", "b") "," E("b", "c") "]}");
	char err[128];

	is_int(graph_layout(wf, GRAPH_LAYOUT_ALL, lay_size_broken, NULL, err, sizeof err), 3,
	       "sizes below 1: placed");
	ok(lay_coord(wf, "a", "x") == 0 && lay_coord(wf, "b", "x") == 1 + GRAPH_LAYER_GAP &&
	   lay_coord(wf, "c", "x") == 2 * (1 + GRAPH_LAYER_GAP),
	   "sizes below 1: taken as 1 (x %d, %d, %d)", lay_coord(wf, "a", "x"),
	   lay_coord(wf, "b", "x"), lay_coord(wf, "c", "x"));
	json_decref(wf);
}

struct cross_case {
	const char *name;
	const char *wf;
	long long by_y, by_input;
};

static const struct cross_case cross_cases[] = {
	{ "parallel", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) "," NP("c", 300, 0) ","
	  NP("d", 300, 100) "], 'edges': [" E("a", "c") "," E("b", "d") "]}", 0, 0 },
	{ "one crossing", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) "," NP("c", 300, 0) ","
	  NP("d", 300, 100) "], 'edges': [" E("a", "d") "," E("b", "c") "]}", 1, 1 },
	{ "crossing by y, not by input order", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) ","
	  NP("d", 300, 100) "," NP("c", 300, 0) "], 'edges': [" E("a", "d") "," E("b", "c") "]}",
	  1, 0 },
	{ "two against two", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) "," NP("c", 300, 0)
	  "," NP("d", 300, 100) "], 'edges': [" E("a", "c") "," E("a", "d") "," E("b", "c") ","
	  E("b", "d") "]}", 1, 1 },
	{ "edges sharing an end do not cross", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) ","
	  NP("c", 300, 50) "], 'edges': [" E("a", "c") "," E("b", "c") "]}", 0, 0 },
	{ "only adjacent columns count", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) ","
	  NP("m", 300, 0) "," NP("c", 600, 0) "," NP("d", 600, 100) "], 'edges': [" E("a", "d") ","
	  E("b", "c") "]}", 0, 0 },
	{ "right to left edges do not count", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) ","
	  NP("c", 300, 0) "," NP("d", 300, 100) "], 'edges': [" E("d", "a") "," E("c", "b") "]}",
	  0, 0 },
	{ "three by three, reversed", "{'nodes': [" NP("a", 0, 0) "," NP("b", 0, 100) ","
	  NP("c", 0, 200) "," NP("x", 300, 0) "," NP("y", 300, 100) "," NP("z", 300, 200) "],"
	  " 'edges': [" E("a", "z") "," E("b", "y") "," E("c", "x") "]}", 3, 3 },
};

static void lay_test_crossings(void)
{
	for (size_t i = 0; i < sizeof cross_cases / sizeof cross_cases[0]; i++) {
		const struct cross_case *c = &cross_cases[i];
		json_t *wf = lay_json(c->wf);

		is_int(graph_layout_crossings(wf, 0), c->by_y, "crossings by y: %s", c->name);
		is_int(graph_layout_crossings(wf, 1), c->by_input, "crossings by input: %s", c->name);
		json_decref(wf);
	}
}

/* Random DAGs: every node placed, no overlaps, every edge left to right,
 * crossings no more than those of the same columns in input order. */
struct dag_case {
	int n;
	uint64_t seed;
	int shuffled;
};

static const struct dag_case dag_cases[] = {
	{ 10, 1, 0 }, { 10, 2, 1 }, { 10, 3, 1 },
	{ 100, 4, 0 }, { 100, 5, 1 }, { 100, 6, 1 },
	{ 1000, 7, 0 }, { 1000, 8, 1 },
};

static double lay_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void lay_test_dag(const struct dag_case *c)
{
	json_t *wf = dag_workflow(c->n, 2 * c->n, c->seed, c->shuffled);
	char err[128] = "", why[128] = "", name[64];
	double t0 = lay_ms(), ms;
	int placed = graph_layout(wf, GRAPH_LAYOUT_ALL, lay_size, lay_defs, err, sizeof err);
	long long got, base;

	ms = lay_ms() - t0;
	snprintf(name, sizeof name, "DAG of %d (seed %llu%s)", c->n, (unsigned long long)c->seed,
		 c->shuffled ? ", shuffled" : "");
	is_int(placed, c->n, "%s: every node placed %s", name, err);
	ok(!lay_overlaps(wf, why, sizeof why), "%s: no overlaps %s", name, why);
	is_int(lay_back_edges(wf), 0, "%s: every edge left to right", name);
	got = graph_layout_crossings(wf, 0), base = graph_layout_crossings(wf, 1);
	ok(got <= base, "%s: %lld crossings, %lld in input order", name, got, base);
	ok(ms < 1000, "%s: laid out in %.1f ms", name, ms);
	json_decref(wf);
}

/* A laid-out DAG with some positions taken away: those nodes placed again,
 * the others kept, nothing overlapping. */
static void lay_test_dag_new(int n, uint64_t seed)
{
	json_t *wf = dag_workflow(n, 2 * n, seed, 1), *before;
	char err[128] = "", why[128] = "";
	int removed = 0;

	graph_layout(wf, GRAPH_LAYOUT_ALL, lay_size, lay_defs, err, sizeof err);
	for (size_t i = 0; i < json_array_size(json_object_get(wf, "nodes")); i++)
		if (dag_below(&seed, 5) == 0)
			removed++, json_object_del(json_array_get(json_object_get(wf, "nodes"), i),
						   "position");
	before = json_deep_copy(wf);
	is_int(graph_layout(wf, GRAPH_LAYOUT_NEW, lay_size, lay_defs, err, sizeof err), removed,
	       "DAG of %d, new only: the %d nodes without a position placed", n, removed);
	ok(lay_kept(before, wf), "DAG of %d, new only: the others kept", n);
	ok(!lay_overlaps(wf, why, sizeof why), "DAG of %d, new only: no overlaps %s", n, why);
	json_decref(wf), json_decref(before);
}

/* Random graphs with cycles and self-loops: every node placed, no
 * overlaps, the same again; the edges drawn right to left are at most the
 * edges that close a cycle in the generator's numbering. */
static void lay_test_cyclic(int n, uint64_t seed)
{
	json_t *wf = dag_graph(n, 2 * n, seed, 1, 15), *again = json_deep_copy(wf);
	char err[128] = "", why[128] = "";
	size_t i;
	const json_t *e;
	int closing = 0;

	json_array_foreach(json_object_get(wf, "edges"), i, e)
		closing += atoi(json_string_value(json_object_get(e, "source")) + 1) >
			   atoi(json_string_value(json_object_get(e, "target")) + 1);
	is_int(graph_layout(wf, GRAPH_LAYOUT_ALL, lay_size, lay_defs, err, sizeof err), n,
	       "cyclic graph of %d: every node placed", n);
	ok(!lay_overlaps(wf, why, sizeof why), "cyclic graph of %d: no overlaps %s", n, why);
	graph_layout(again, GRAPH_LAYOUT_ALL, lay_size, lay_defs, err, sizeof err);
	ok(json_equal(wf, again), "cyclic graph of %d: the same again", n);
	ok(lay_back_edges(wf) <= closing, "cyclic graph of %d: %d edges right to left, %d close "
	   "a cycle", n, lay_back_edges(wf), closing);
	json_decref(wf), json_decref(again);
}

static void lay_test_dags(void)
{
	lay_test_cyclic(30, 21);
	lay_test_cyclic(500, 22);
	for (size_t i = 0; i < sizeof dag_cases / sizeof dag_cases[0]; i++)
		lay_test_dag(&dag_cases[i]);
	lay_test_dag_new(50, 11);
	lay_test_dag_new(300, 12);
}

int main(void)
{
	lay_defs = lay_json(DAG_DEFS);
	lay_test_sizes();
	for (size_t i = 0; i < sizeof layout_cases / sizeof layout_cases[0]; i++)
		lay_run_case(&layout_cases[i]);
	lay_test_errors();
	lay_test_broken_sizes();
	lay_test_crossings();
	lay_test_dags();
	json_decref(lay_defs);
	return tap_done();
}
