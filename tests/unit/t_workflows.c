/* The descriptors of the product's workflows (src/wf/builtin.c): each one
 * complete and consistent, so that the engine, the configuration, the
 * catalogue and the API can rely on it without knowing the workflow. */
#include "config.h"
#include <string.h>
#include <jansson.h>
#include "conf/conf.h"
#include "engine/graph.h"
#include "text/msg.h"
#include "wf/builtin.h"
#include "tap.h"

/* A node name, WF_START or WF_END. */
static int tw_known(const struct workflow *wf, const char *name)
{
	return strcmp(name, WF_START) == 0 || strcmp(name, WF_END) == 0 || wf_node(wf, name) != NULL;
}

/* Marks in seen[] every node reachable from name, following the edges
 * forwards (dir 1) or backwards (dir 0). */
static void tw_walk(const struct workflow *wf, const char *name, int dir, char *seen, char *end)
{
	for (size_t i = 0; i < wf->nedges; i++) {
		const char *a = dir ? wf->edges[i].from : wf->edges[i].to;
		const char *b = dir ? wf->edges[i].to : wf->edges[i].from;
		const struct wf_node *n = wf_node(wf, b);

		if (strcmp(a, name) != 0)
			continue;
		if (strcmp(b, dir ? WF_END : WF_START) == 0)
			*end = 1;
		if (n && !seen[n - wf->nodes]) {
			seen[n - wf->nodes] = 1;
			tw_walk(wf, b, dir, seen, end);
		}
	}
}

static void tw_edges(const struct workflow *wf)
{
	size_t bad = 0, duplicate = 0;
	char from_start[64] = "", to_end[64] = "", end = 0;

	ok(wf->edges && wf->nedges > 0, "%s: declares its edges", wf->name);
	for (size_t i = 0; i < wf->nedges; i++) {
		if (!tw_known(wf, wf->edges[i].from) || !tw_known(wf, wf->edges[i].to) ||
		    strcmp(wf->edges[i].from, WF_END) == 0 || strcmp(wf->edges[i].to, WF_START) == 0) {
			printf("# %s: edge %s -> %s\n", wf->name, wf->edges[i].from, wf->edges[i].to);
			bad++;
		}
		for (size_t j = 0; j < i; j++)
			duplicate += strcmp(wf->edges[i].from, wf->edges[j].from) == 0 &&
				     strcmp(wf->edges[i].to, wf->edges[j].to) == 0;
	}
	is_int(bad, 0, "%s: every edge joins its nodes, the start or the end", wf->name);
	is_int(duplicate, 0, "%s: no edge twice", wf->name);
	ok(wf_edge_ok(wf, WF_START, wf->start), "%s: the start node follows the start", wf->name);
	ok(!wf_edge_ok(wf, wf->start, "no such node"), "%s: an undeclared step is refused", wf->name);
	tw_walk(wf, WF_START, 1, from_start, &end);
	ok(end, "%s: a run can end", wf->name);
	end = 0;
	tw_walk(wf, WF_END, 0, to_end, &end);
	for (size_t i = 0; i < wf->nnodes && i < sizeof from_start; i++) {
		ok(from_start[i], "%s: node %s can be reached", wf->name, wf->nodes[i].name);
		ok(to_end[i], "%s: node %s can lead to the end", wf->name, wf->nodes[i].name);
	}
}

/* The input schema parses, is an object's, and has the text fields. */
static void tw_schema(const struct workflow *wf)
{
	json_t *sc = wf->input_schema ? json_loads(wf->input_schema, 0, NULL) : NULL;
	json_t *props = json_object_get(sc, "properties"), *d = wf_describe(wf);
	size_t missing = 0;

	ok(sc != NULL, "%s: its input schema is JSON", wf->name);
	is_str(json_string_value(json_object_get(sc, "type")), "object", "%s: ... of an object",
	       wf->name);
	for (const char *const *f = wf->text_fields; f && *f; f++)
		missing += json_object_get(props, *f) == NULL;
	is_int(missing, 0, "%s: its text fields are in its input schema", wf->name);
	ok(json_equal(json_object_get(d, "inputSchema"), sc), "%s: the description carries it",
	   wf->name);
	json_decref(sc);
	sc = wf->state_schema ? json_loads(wf->state_schema, 0, NULL) : NULL;
	ok(json_is_array(json_object_get(sc, "required")) &&
	   json_equal(json_object_get(d, "stateSchema"), sc),
	   "%s: its state schema is JSON, with the fields every state has, and served", wf->name);
	is_int(json_array_size(json_object_get(d, "edges")), wf->nedges,
	       "%s: the description has every edge", wf->name);
	json_decref(d);
	json_decref(sc);
}

/* Its configuration section is its own, and so are its words. */
static void tw_own(const struct workflow *wf)
{
	char want[64];
	size_t bad = 0;

	snprintf(want, sizeof want, "workflow.%s", wf->name);
	if (wf->conf)
		is_str(wf->conf->name, want, "%s: its configuration section is [%s]", wf->name, want);
	ok(wf->msgs && wf->nmsgs > 0, "%s: brings its own words", wf->name);
	for (size_t i = 0; wf->msgs && i < wf->nmsgs; i++)
		if (!wf->msgs[i].id || !wf->msgs[i].zh || !wf->msgs[i].en ||
		    msg_find("en", wf->msgs[i].id) != wf->msgs[i].en ||
		    msg_find("zh", wf->msgs[i].id) != wf->msgs[i].zh) {
			printf("# %s: %s\n", wf->name, wf->msgs[i].id ? wf->msgs[i].id : "(null)");
			bad++;
		}
	is_int(bad, 0, "%s: its %zu words are in the catalogue, in both languages", wf->name,
	       wf->nmsgs);
}

static void tw_descriptor(const struct workflow *wf)
{
	ok(wf->nnodes > 0 && wf->nnodes <= 64, "%s: has nodes", wf->name);
	ok(wf_node(wf, wf->start) != NULL, "%s: its start is one of its nodes", wf->name);
	ok(wf->init != NULL, "%s: makes a thread's first state", wf->name);
	ok(wf->text_fields && wf->text_fields[0], "%s: names the input field of the user's text",
	   wf->name);
	tw_edges(wf);
	tw_schema(wf);
	tw_own(wf);
}

int main(void)
{
	json_t *names;
	size_t i;
	json_t *v;

	wf_builtin_register();
	names = wf_names();
	is_int(json_array_size(names), 5, "five workflows are registered");
	json_array_foreach(names, i, v)
		tw_descriptor(wf_find(json_string_value(v)));
	json_decref(names);
	return tap_done();
}
