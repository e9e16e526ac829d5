/* graph_edit's apply and validation (wf/graph_edit/graph_apply.h) on hostile
 * patches: the input is a JSON patch in the graph editor's dialect
 * (localIds, ids in paths, new nodes and edges), applied to a small fixed
 * workflow against the shipped node library (etc/nodes.json: from
 * $AIVISTA_NODES, else $top_srcdir/etc/nodes.json, else ./etc/nodes.json).
 * Beyond no crash and no leak, it checks what must hold: the workflow
 * given is never changed; a failure has errors, each with index, op,
 * path, code and message; a success validates again without error, its
 * ids are unique and never all digits, and every localId maps to a node
 * of the result. */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <sodium.h>
#include "wf/graph_edit/graph_apply.h"

static const char fz_wf[] = "{\"name\": \"w\", \"nodes\": ["
	"{\"id\": \"n_text\", \"type\": \"core:TextInput\", \"position\": {\"x\": 0, \"y\": 0}},"
	"{\"id\": \"n_chat\", \"type\": \"llm:Chat\", \"position\": {\"x\": 320, \"y\": 0},"
	" \"data\": {\"configValues\": {\"temperature\": 0.5}}},"
	"{\"id\": \"n_view\", \"type\": \"io:TextPreview\", \"position\": {\"x\": 640, \"y\": 0}}],"
	" \"edges\": ["
	"{\"id\": \"e_a\", \"source\": \"n_text\", \"sourceHandle\": \"text\", \"target\": \"n_chat\","
	" \"targetHandle\": \"prompt\"},"
	"{\"id\": \"e_b\", \"source\": \"n_chat\", \"sourceHandle\": \"text\", \"target\": \"n_view\","
	" \"targetHandle\": \"text\"}], \"viewport\": {\"x\": 0, \"y\": 0, \"zoom\": 1}}";

static json_t *fz_lib;   /* type -> definition */
static json_t *fz_base;

static json_t *fz_find(void *ctx, const char *type)
{
	return json_object_get(ctx, type);
}

static json_t *fz_load_library(void)
{
	const char *env = getenv("AIVISTA_NODES"), *top = getenv("top_srcdir");
	char path[4096];
	json_t *arr, *lib = json_object(), *d;
	size_t i;

	if (env)
		snprintf(path, sizeof path, "%s", env);
	else
		snprintf(path, sizeof path, "%s/etc/nodes.json", top ? top : ".");
	arr = json_load_file(path, 0, NULL);
	if (arr == NULL)
		arr = json_load_file("etc/nodes.json", 0, NULL);
	json_array_foreach(arr, i, d)
		if (json_is_string(json_object_get(d, "type")))
			json_object_set(lib, json_string_value(json_object_get(d, "type")), d);
	json_decref(arr);
	if (json_object_size(lib) == 0) {
		fprintf(stderr, "fuzz_graph_apply: no node library (set AIVISTA_NODES)\n");
		abort();
	}
	return lib;
}

static void fz_check_errors(const json_t *errors)
{
	size_t i;
	json_t *e;

	if (json_array_size(errors) == 0)
		abort();
	json_array_foreach(errors, i, e)
		if (!json_is_integer(json_object_get(e, "index")) || !json_is_string(json_object_get(e, "op")) ||
		    !json_is_string(json_object_get(e, "path")) || !json_is_string(json_object_get(e, "code")) ||
		    !json_is_string(json_object_get(e, "message")))
			abort();
}

static void fz_check_result(const struct graph_apply_result *r, const struct graph_defs *defs)
{
	json_t *again = graph_validate(r->workflow, defs, GRAPH_VALIDATE_NO_POSITION, 0);
	json_t *seen = json_object(), *n, *v;
	const char *k;
	size_t i;

	if (json_array_size(again) != 0)
		abort();
	json_array_foreach(json_object_get(r->workflow, "nodes"), i, n) {
		const char *id = json_string_value(json_object_get(n, "id"));

		if (id == NULL || strspn(id, "0123456789") == strlen(id) || json_object_get(seen, id))
			abort();
		json_object_set_new(seen, id, json_true());
	}
	json_object_foreach(r->id_map, k, v)
		if (!json_is_string(v))
			abort();
	json_decref(seen);
	json_decref(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct graph_defs defs;
	struct graph_apply_opts o = { &defs, 0, NULL, NULL };
	struct graph_apply_result r;
	json_t *patch, *copy;

	if (fz_lib == NULL) {
		if (sodium_init() < 0)
			abort();
		fz_lib = fz_load_library();
		fz_base = json_loads(fz_wf, 0, NULL);
	}
	defs.find = fz_find;
	defs.ctx = fz_lib;
	if (size == 0)
		return 0;
	o.allow_position = data[0] & 1;
	patch = json_loadb((const char *)data + 1, size - 1, 0, NULL);
	if (patch == NULL)
		return 0;
	copy = json_deep_copy(fz_base);
	if (graph_apply(fz_base, patch, &o, &r) == 0)
		fz_check_result(&r, &defs);
	else
		fz_check_errors(r.errors);
	if (!json_equal(copy, fz_base))
		abort();
	graph_apply_result_free(&r);
	json_decref(copy);
	json_decref(patch);
	return 0;
}
