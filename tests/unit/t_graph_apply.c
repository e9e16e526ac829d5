/* Applying graph_edit patches (wf/graph_edit/graph_apply.h), as tables: each
 * case is a patch over one small workflow and what must come of it (how
 * many nodes and edges, the edges removed with their nodes, or the first
 * error's index, op, path and code). Then the ids: random ones are unique,
 * prefixed and never all digits; localIds map to them; edges get the
 * mapped ids. The definitions are a small library of the test's own. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "wf/graph_edit/graph_apply.h"

static const char defs_json[] = "{"
	"\"core:Text\": {\"type\": \"core:Text\", \"inputs\": {},"
	"  \"outputs\": {\"text\": {\"type\": \"STRING\"}},"
	"  \"configValues\": {\"value\": {\"type\": \"STRING\", \"default\": \"\"}}},"
	"\"core:Int\": {\"type\": \"core:Int\", \"inputs\": {},"
	"  \"outputs\": {\"value\": {\"type\": \"INTEGER\"}}, \"configValues\": {}},"
	"\"llm:Chat\": {\"type\": \"llm:Chat\","
	"  \"inputs\": {\"prompt\": {\"type\": \"STRING\", \"required\": true}},"
	"  \"outputs\": {\"text\": {\"type\": \"STRING\"}},"
	"  \"configValues\": {\"temperature\": {\"type\": \"FLOAT\", \"default\": 0.7, \"min\": 0, \"max\": 2}}},"
	"\"io:Preview\": {\"type\": \"io:Preview\","
	"  \"inputs\": {\"value\": {\"type\": \"WILDCARD\"}}, \"outputs\": {}, \"configValues\": {}}"
	"}";

static json_t *defs_find(void *ctx, const char *type)
{
	return json_object_get(ctx, type);
}

/* Ids the tests can predict: prefix + a counter spelled in letters. */
static void seq_id(void *ctx, const char *prefix, char *out, size_t outlen)
{
	int *n = ctx;

	snprintf(out, outlen, "%sid%c", prefix, 'a' + (*n)++ % 26);
}

#define N(id, type) "{\"id\": \"" id "\", \"type\": \"" type "\", \"position\": {\"x\": 0, \"y\": 0}}"
#define E(id, s, sh, t, th) "{\"id\": \"" id "\", \"source\": \"" s "\", \"sourceHandle\": \"" sh \
	"\", \"target\": \"" t "\", \"targetHandle\": \"" th "\"}"

/* text -> chat -> view, and a spare text. */
static const char base_wf[] = "{\"name\": \"w\", \"nodes\": ["
	N("n_text", "core:Text") ", " N("n_chat", "llm:Chat") ", " N("n_view", "io:Preview") ", "
	N("n_spare", "core:Text") "], \"edges\": ["
	E("e_0", "n_text", "text", "n_chat", "prompt") ", "
	E("e_1", "n_chat", "text", "n_view", "value") "],"
	" \"viewport\": {\"x\": 0, \"y\": 0, \"zoom\": 1}}";

#define ADDN(lid, type) "{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"localId\": \"" lid \
	"\", \"type\": \"" type "\"}}"

struct acase {
	const char *name;
	const char *patch;
	int ok;
	int nodes, edges, removed;      /* when ok */
	long index;                     /* the first error, when not */
	const char *op, *path, *code;
};

static const struct acase cases[] = {
	{ "two nodes and an edge by localId",
	  "[" ADDN("a", "core:Text") ", " ADDN("b", "llm:Chat") ", {\"op\": \"add\", \"path\": \"/edges/-\","
	  " \"value\": {\"sourceLocalId\": \"a\", \"sourceHandle\": \"text\", \"targetLocalId\": \"b\","
	  " \"targetHandle\": \"prompt\"}}]", 1, 6, 3, 0, 0, NULL, NULL, NULL },
	{ "an edge from an existing node to a new one",
	  "[" ADDN("v", "io:Preview") ", {\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"source\":"
	  " \"n_spare\", \"sourceHandle\": \"text\", \"targetLocalId\": \"v\", \"targetHandle\": \"value\"}}]",
	  1, 5, 3, 0, 0, NULL, NULL, NULL },
	{ "a parameter by node id",
	  "[{\"op\": \"add\", \"path\": \"/nodes/n_chat/data/configValues/temperature\", \"value\": 0.3}]",
	  1, 4, 2, 0, 0, NULL, NULL, NULL },
	{ "a parameter by localId",
	  "[" ADDN("c", "llm:Chat") ", {\"op\": \"add\", \"path\": \"/nodes/c/data/configValues/temperature\","
	  " \"value\": 1.5}]", 1, 5, 2, 0, 0, NULL, NULL, NULL },
	{ "rename by id", "[{\"op\": \"add\", \"path\": \"/nodes/n_chat/displayName\", \"value\": \"Writer\"}]",
	  1, 4, 2, 0, 0, NULL, NULL, NULL },
	{ "remove an edge by id", "[{\"op\": \"remove\", \"path\": \"/edges/e_1\"}]", 1, 4, 1, 0, 0, NULL, NULL, NULL },
	{ "remove a node takes its edges", "[{\"op\": \"remove\", \"path\": \"/nodes/n_chat\"}]", 1, 3, 0, 2, 0, NULL, NULL, NULL },
	{ "/edges/N after a node removal means the edge it meant",
	  "[{\"op\": \"remove\", \"path\": \"/nodes/n_text\"}, {\"op\": \"remove\", \"path\": \"/edges/1\"}]",
	  1, 3, 0, 1, 0, NULL, NULL, NULL },
	{ "an index still works", "[{\"op\": \"remove\", \"path\": \"/nodes/3\"}]", 1, 3, 2, 0, 0, NULL, NULL, NULL },
	{ "a new node may be removed again",
	  "[" ADDN("x", "core:Text") ", {\"op\": \"remove\", \"path\": \"/nodes/x\"}]", 1, 4, 2, 0, 0, NULL, NULL, NULL },
	{ "an edge added to a removed node",
	  "[{\"op\": \"remove\", \"path\": \"/nodes/n_view\"}, {\"op\": \"add\", \"path\": \"/edges/-\","
	  " \"value\": {\"source\": \"n_spare\", \"sourceHandle\": \"text\", \"target\": \"n_view\","
	  " \"targetHandle\": \"value\"}}]", 0, 0, 0, 0, 1, "add", "/edges/-", "edge_to_removed_node" },
	{ "duplicate localId", "[" ADDN("a", "core:Text") ", " ADDN("a", "core:Int") "]", 0, 0, 0, 0, 1,
	  "add", "/nodes/-/localId", "duplicate_local_id" },
	{ "all-digit localId", "[" ADDN("12", "core:Text") "]", 0, 0, 0, 0, 0, "add", "/nodes/-/localId",
	  "bad_local_id" },
	{ "empty localId", "[" ADDN("", "core:Text") "]", 0, 0, 0, 0, 0, "add", "/nodes/-/localId",
	  "bad_local_id" },
	{ "unknown localId",
	  "[" ADDN("a", "core:Text") ", {\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {"
	  "\"sourceLocalId\": \"a\", \"sourceHandle\": \"text\", \"targetLocalId\": \"zz\","
	  " \"targetHandle\": \"prompt\"}}]", 0, 0, 0, 0, 1, "add", "/edges/-/targetLocalId",
	  "unknown_local_id" },
	{ "a node id given by the model",
	  "[{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"id\": \"mine\", \"type\": \"core:Text\"}}]",
	  0, 0, 0, 0, 0, "add", "/nodes/-/id", "id_given" },
	{ "an edge id given by the model",
	  "[{\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"id\": \"e\", \"source\": \"n_spare\","
	  " \"sourceHandle\": \"text\", \"target\": \"n_view\", \"targetHandle\": \"value\"}}]",
	  0, 0, 0, 0, 0, "add", "/edges/-/id", "id_given" },
	{ "a position given by the model",
	  "[{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"type\": \"core:Text\", \"position\":"
	  " {\"x\": 1, \"y\": 2}}}]", 0, 0, 0, 0, 0, "add", "/nodes/-/position", "position_given" },
	{ "a node that is not an object", "[{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": 3}]",
	  0, 0, 0, 0, 0, "add", "/nodes/-", "bad_value" },
	{ "an unknown id in a path", "[{\"op\": \"remove\", \"path\": \"/nodes/n_nope\"}]", 0, 0, 0, 0, 0,
	  "remove", "/nodes/n_nope", "path_not_found" },
	{ "not an array", "{\"op\": \"add\"}", 0, 0, 0, 0, -1, "", "", "bad_patch" },
	/* Validation errors, traced to the operation that caused them. */
	{ "unknown type", "[" ADDN("a", "core:Text") ", " ADDN("b", "core:Nope") "]", 0, 0, 0, 0, 1,
	  "add", "/nodes/5/type", "unknown_type" },
	{ "incompatible data types",
	  "[" ADDN("i", "core:Int") ", " ADDN("c", "llm:Chat") ", {\"op\": \"add\", \"path\": \"/edges/-\","
	  " \"value\": {\"sourceLocalId\": \"i\", \"sourceHandle\": \"value\", \"targetLocalId\": \"c\","
	  " \"targetHandle\": \"prompt\"}}]", 0, 0, 0, 0, 2, "add", "/edges/2", "type_mismatch" },
	{ "an edge into a slot the node does not have",
	  "[" ADDN("i", "core:Int") ", {\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {"
	  "\"sourceLocalId\": \"i\", \"sourceHandle\": \"value\", \"target\": \"n_spare\","
	  " \"targetHandle\": \"text\"}}]", 0, 0, 0, 0, 1, "add", "/edges/2/targetHandle", "unknown_handle" },
	{ "a second edge into a single input",
	  "[{\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"source\": \"n_spare\", \"sourceHandle\":"
	  " \"text\", \"target\": \"n_chat\", \"targetHandle\": \"prompt\"}}]", 0, 0, 0, 0, 0, "add",
	  "/edges/2/targetHandle", "slot_taken" },
	{ "a parameter out of range",
	  "[{\"op\": \"add\", \"path\": \"/nodes/n_chat/data/configValues/temperature\", \"value\": 3}]",
	  0, 0, 0, 0, 0, "add", "/nodes/1/data/configValues/temperature", "out_of_range" },
	{ "a test that fails", "[{\"op\": \"test\", \"path\": \"/name\", \"value\": \"x\"}]", 0, 0, 0, 0, 0,
	  "test", "/name", "test_failed" },
};

static void check_case(const struct acase *k, const json_t *wf, const struct graph_apply_opts *o)
{
	json_t *patch = json_loads(k->patch, 0, NULL), *e;
	struct graph_apply_result r;
	int rc = graph_apply(wf, patch, o, &r);

	ok(rc == (k->ok ? 0 : -1), "%s: %s", k->name, k->ok ? "applies" : "refused");
	if (k->ok) {
		ok(json_array_size(json_object_get(r.workflow, "nodes")) == (size_t)k->nodes &&
		   json_array_size(json_object_get(r.workflow, "edges")) == (size_t)k->edges &&
		   r.removed_edges == k->removed, "%s: %d nodes, %d edges, %d removed with nodes", k->name,
		   k->nodes, k->edges, k->removed);
	} else {
		e = json_array_get(r.errors, 0);
		ok(e && json_integer_value(json_object_get(e, "index")) == k->index &&
		   strcmp(json_string_value(json_object_get(e, "op")) ?: "?", k->op) == 0 &&
		   strcmp(json_string_value(json_object_get(e, "path")) ?: "?", k->path) == 0 &&
		   strcmp(json_string_value(json_object_get(e, "code")) ?: "?", k->code) == 0,
		   "%s: error %ld %s %s %s", k->name, k->index, k->op, k->path, k->code);
		if (e == NULL || json_integer_value(json_object_get(e, "index")) != k->index ||
		    strcmp(json_string_value(json_object_get(e, "code")) ?: "", k->code) != 0) {
			char *s = json_dumps(r.errors, 0);
			printf("# got %s\n", s);
			free(s);
		}
		ok(r.workflow == NULL, "%s: no workflow", k->name);
	}
	graph_apply_result_free(&r);
	json_decref(patch);
}

/* localIds map to the generated ids, which the edge and the applied
 * patch carry; the original workflow is not touched. */
static void check_mapping(const json_t *wf, const struct graph_apply_opts *o)
{
	json_t *patch = json_loads(cases[0].patch, 0, NULL), *copy = json_deep_copy(wf), *edge;
	struct graph_apply_result r;
	const char *a, *b;

	graph_apply(wf, patch, o, &r);
	a = json_string_value(json_object_get(r.id_map, "a"));
	b = json_string_value(json_object_get(r.id_map, "b"));
	ok(a && b && strcmp(a, "n_ida") == 0 && strcmp(b, "n_idb") == 0, "localIds map to new ids");
	edge = json_array_get(json_object_get(r.workflow, "edges"), 2);
	ok(strcmp(json_string_value(json_object_get(edge, "source")) ?: "", a ?: "-") == 0 &&
	   strcmp(json_string_value(json_object_get(edge, "target")) ?: "", b ?: "-") == 0 &&
	   strcmp(json_string_value(json_object_get(edge, "id")) ?: "", "e_idc") == 0 &&
	   json_object_get(edge, "sourceLocalId") == NULL, "the edge carries the mapped ids");
	ok(strcmp(json_string_value(json_object_get(json_object_get(json_array_get(r.patch, 0), "value"),
						    "id")) ?: "", "n_ida") == 0 &&
	   json_object_get(json_object_get(json_array_get(r.patch, 0), "value"), "localId") == NULL,
	   "the applied patch has the ids, not the localIds");
	ok(json_is_object(json_object_get(json_object_get(json_array_get(json_object_get(r.workflow,
			"nodes"), 4), "data"), "configValues")), "a new node has data.configValues");
	ok(r.counts.nodes_added == 2 && r.counts.edges_added == 1 && r.counts.nodes_removed == 0,
	   "counts: 2 nodes and 1 edge added");
	ok(json_equal(wf, copy), "the workflow given is not changed");
	graph_apply_result_free(&r);
	json_decref(patch);
	json_decref(copy);
}

/* Random ids: prefixed, unique, never all digits, never one in use. */
static void check_random_ids(const json_t *wf, const struct graph_defs *defs)
{
	struct graph_apply_opts o = { defs, 0, NULL, NULL, 0, 0 };
	json_t *patch = json_array(), *seen = json_object(), *n;
	struct graph_apply_result r;
	int bad = 0;
	size_t i;
	char lid[16];

	for (i = 0; i < 200; i++) {
		snprintf(lid, sizeof lid, "x%zu", i);
		json_array_append_new(patch, json_pack("{s:s, s:s, s:{s:s, s:s}}", "op", "add", "path",
						       "/nodes/-", "value", "localId", lid, "type", "core:Text"));
	}
	ok(graph_apply(wf, patch, &o, &r) == 0, "200 new nodes apply");
	json_array_foreach(json_object_get(r.workflow, "nodes"), i, n) {
		const char *id = json_string_value(json_object_get(n, "id"));

		if (i < 4)
			continue;
		if (id == NULL || strncmp(id, "n_", 2) != 0 || strlen(id) != 14 ||
		    strspn(id, "0123456789") == strlen(id) || json_object_get(seen, id))
			bad++;
		if (id)
			json_object_set_new(seen, id, json_true());
	}
	ok(bad == 0 && json_object_size(seen) == 200, "ids are n_ + 12 characters, all different");
	ok(graph_apply_local_id_ok("a") && graph_apply_local_id_ok("prompt1") &&
	   !graph_apply_local_id_ok("007") && !graph_apply_local_id_ok("-") &&
	   !graph_apply_local_id_ok(""), "localId rules");
	graph_apply_result_free(&r);
	json_decref(patch);
	json_decref(seen);
}

int main(void)
{
	json_t *lib = json_loads(defs_json, 0, NULL), *wf = json_loads(base_wf, 0, NULL);
	struct graph_defs defs = { defs_find, lib };
	int counter = 0;
	struct graph_apply_opts o = { &defs, 0, seq_id, &counter, 0, 0 };
	size_t i;

	if (lib == NULL || wf == NULL || sodium_init() < 0) {
		printf("Bail out! fixtures do not load\n");
		return 99;
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		counter = 0;
		check_case(&cases[i], wf, &o);
	}
	counter = 0;
	check_mapping(wf, &o);
	check_random_ids(wf, &defs);
	json_decref(lib);
	json_decref(wf);
	return tap_done();
}
