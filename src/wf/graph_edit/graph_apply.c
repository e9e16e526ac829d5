/* Applying a graph_edit patch (see graph_apply.h): the dialect rewritten
 * into plain RFC 6902 with generated ids, applied with the id hook, edges
 * of removed nodes cleaned up, the result validated. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sodium.h>
#include "json/patch.h"
#include "json/pointer.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_apply.h"

struct ga {
	const struct graph_apply_opts *o;
	json_t *ids;        /* every node and edge id in use or generated: id -> true */
	json_t *map;        /* localId -> node id */
	json_t *new_nodes;  /* generated node id -> its operation's index */
	json_t *new_edges;  /* generated edge id -> its operation's index */
	json_t *errors;     /* borrowed from the result */
};

__attribute__((format(printf, 6, 7)))
static void ga_err(struct ga *g, long index, const char *op, const char *path, const char *code,
		   const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	json_array_append_new(g->errors, json_pack("{s:I, s:s, s:s, s:s, s:s}", "index",
						   (json_int_t)index, "op", op ? op : "", "path",
						   path ? path : "", "code", code, "message", msg));
}

void graph_apply_random_id(void *ctx, const char *prefix, char *out, size_t outlen)
{
	unsigned char raw[9];
	char b64[16];

	(void)ctx;
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(b64, sizeof b64, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	snprintf(out, outlen, "%s%s", prefix, b64);
}

int graph_apply_local_id_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0, digits = strspn(s ? s : "", "0123456789");

	return n > 0 && n <= GRAPH_ID_MAX && digits < n && strcmp(s, "-") != 0;
}

/* A fresh id, unique among the ids in use. */
static void ga_new_id(struct ga *g, const char *prefix, char *out, size_t outlen)
{
	for (int tries = 0; tries < 100; tries++) {
		if (g->o->new_id)
			g->o->new_id(g->o->id_ctx, prefix, out, outlen);
		else
			graph_apply_random_id(NULL, prefix, out, outlen);
		if (json_object_get(g->ids, out) == NULL)
			break;
	}
	json_object_set_new(g->ids, out, json_true());
}

static void ga_note_ids(struct ga *g, const json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		const char *id = json_string_value(json_object_get(v, "id"));

		if (id)
			json_object_set_new(g->ids, id, json_true());
	}
}

/* Every node gets data.configValues, so "add" under it has a parent. */
static void ga_ensure_data(json_t *node)
{
	json_t *data = json_object_get(node, "data");

	if (!json_is_object(node))
		return;
	if (data == NULL) {
		data = json_object();
		json_object_set_new(node, "data", data);
	}
	if (json_is_object(data) && json_object_get(data, "configValues") == NULL)
		json_object_set_new(data, "configValues", json_object());
}

static const char *ga_op_name(const json_t *op)
{
	return json_string_value(json_object_get(op, "op")) ?: "";
}

static int ga_is_add_to(const json_t *op, const char *path)
{
	return json_is_object(op) && strcmp(ga_op_name(op), "add") == 0 &&
	       strcmp(json_string_value(json_object_get(op, "path")) ?: "", path) == 0;
}

/* First pass: each new node's localId, checked, and its generated id. */
static void ga_scan_node(struct ga *g, size_t i, const json_t *op)
{
	const json_t *value = json_object_get(op, "value"), *lid = json_object_get(value, "localId");
	char id[64];

	if (!json_is_object(value))
		return;
	ga_new_id(g, "n_", id, sizeof id);
	json_object_set_new(g->new_nodes, id, json_integer((json_int_t)i));
	if (lid == NULL)
		return;
	if (!json_is_string(lid) || !graph_apply_local_id_ok(json_string_value(lid)))
		ga_err(g, (long)i, "add", "/nodes/-/localId", "bad_local_id",
		       "localId must be a non-empty string that is not all digits");
	else if (json_object_get(g->map, json_string_value(lid)))
		ga_err(g, (long)i, "add", "/nodes/-/localId", "duplicate_local_id",
		       "localId \"%s\" is used twice in the patch", json_string_value(lid));
	else
		json_object_set_new(g->map, json_string_value(lid), json_string(id));
}

/* The id generated for operation i (the pass above went in order). */
static const char *ga_node_id_of(struct ga *g, size_t i)
{
	const char *k;
	json_t *v;

	json_object_foreach(g->new_nodes, k, v)
		if ((size_t)json_integer_value(v) == i)
			return k;
	return NULL;
}

static json_t *ga_rewrite_node(struct ga *g, size_t i, const json_t *op)
{
	const json_t *value = json_object_get(op, "value");
	json_t *out, *v;

	if (!json_is_object(value)) {
		ga_err(g, (long)i, "add", "/nodes/-", "bad_value", "a new node must be an object");
		return NULL;
	}
	if (json_object_get(value, "id")) {
		ga_err(g, (long)i, "add", "/nodes/-/id", "id_given",
		       "a new node must not carry an id: the server generates it (use localId)");
		return NULL;
	}
	if (json_object_get(value, "position") && !g->o->allow_position) {
		ga_err(g, (long)i, "add", "/nodes/-/position", "position_given",
		       "a new node must not carry a position: the layout places it");
		return NULL;
	}
	v = json_deep_copy(value);
	json_object_del(v, "localId");
	json_object_set_new(v, "id", json_string(ga_node_id_of(g, i)));
	ga_ensure_data(v);
	out = json_deep_copy(op);
	json_object_set_new(out, "value", v);
	return out;
}

/* source / sourceLocalId (end "source") of a new edge, into v. */
static int ga_edge_end(struct ga *g, size_t i, json_t *v, const char *end)
{
	char lkey[32], path[48];
	json_t *lid, *id;

	snprintf(lkey, sizeof lkey, "%sLocalId", end);
	snprintf(path, sizeof path, "/edges/-/%s", lkey);
	lid = json_object_get(v, lkey);
	if (lid == NULL)
		return 0;
	if (json_object_get(v, end)) {
		ga_err(g, (long)i, "add", path, "bad_value", "give %s or %s, not both", end, lkey);
		return -1;
	}
	id = json_object_get(g->map, json_string_value(lid) ?: "");
	if (id == NULL) {
		ga_err(g, (long)i, "add", path, "unknown_local_id",
		       "%s names no node added by this patch", lkey);
		return -1;
	}
	json_object_set(v, end, id);
	json_object_del(v, lkey);
	return 0;
}

static json_t *ga_rewrite_edge(struct ga *g, size_t i, const json_t *op)
{
	const json_t *value = json_object_get(op, "value");
	json_t *out, *v;
	char id[64];

	if (!json_is_object(value)) {
		ga_err(g, (long)i, "add", "/edges/-", "bad_value", "a new edge must be an object");
		return NULL;
	}
	if (json_object_get(value, "id")) {
		ga_err(g, (long)i, "add", "/edges/-/id", "id_given",
		       "a new edge must not carry an id: the server generates it");
		return NULL;
	}
	v = json_deep_copy(value);
	if (ga_edge_end(g, i, v, "source") < 0 || ga_edge_end(g, i, v, "target") < 0) {
		json_decref(v);
		return NULL;
	}
	ga_new_id(g, "e_", id, sizeof id);
	json_object_set_new(g->new_edges, id, json_integer((json_int_t)i));
	json_object_set_new(v, "id", json_string(id));
	out = json_deep_copy(op);
	json_object_set_new(out, "value", v);
	return out;
}

/* The patch in plain RFC 6902, ids in; NULL when an operation is wrong. */
static json_t *ga_rewrite(struct ga *g, const json_t *patch)
{
	json_t *out = json_array(), *op, *w;
	size_t i;

	json_array_foreach(patch, i, op)
		if (ga_is_add_to(op, "/nodes/-"))
			ga_scan_node(g, i, op);
	json_array_foreach(patch, i, op) {
		if (ga_is_add_to(op, "/nodes/-"))
			w = ga_rewrite_node(g, i, op);
		else if (ga_is_add_to(op, "/edges/-"))
			w = ga_rewrite_edge(g, i, op);
		else
			w = json_deep_copy(op);
		if (w)
			json_array_append_new(out, w);
	}
	if (json_array_size(g->errors) > 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

static long ga_find_id(const json_t *arr, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (strcmp(json_string_value(json_object_get(v, "id")) ?: "", id) == 0)
			return (long)i;
	return -1;
}

/* The hook: "/nodes/<id or localId>", "/edges/<id>". */
static long ga_hook(void *ctx, const char *array_ptr, const json_t *array, const char *token)
{
	struct ga *g = ctx;
	long at;

	if (strcmp(array_ptr, "/edges") == 0)
		return ga_find_id(array, token);
	if (strcmp(array_ptr, "/nodes") != 0)
		return -1;
	at = ga_find_id(array, token);
	if (at < 0 && json_is_string(json_object_get(g->map, token)))
		at = ga_find_id(array, json_string_value(json_object_get(g->map, token)));
	return at;
}

static json_t *ga_id_set(const json_t *arr)
{
	json_t *set = json_object(), *v;
	size_t i;

	json_array_foreach(arr, i, v)
		if (json_is_string(json_object_get(v, "id")))
			json_object_set(set, json_string_value(json_object_get(v, "id")), v);
	return set;
}

/* Edges to or from a node that was there (or added) and is gone. */
static int ga_cleanup(struct ga *g, const json_t *before, json_t *doc)
{
	json_t *edges = json_object_get(doc, "edges"), *alive = ga_id_set(json_object_get(doc, "nodes"));
	json_t *known = ga_id_set(json_object_get(before, "nodes")), *e;
	int removed = 0;

	for (size_t i = json_array_size(edges); i-- > 0;) {
		const char *ends[2], *eid;
		int gone = 0;

		e = json_array_get(edges, i);
		ends[0] = json_string_value(json_object_get(e, "source"));
		ends[1] = json_string_value(json_object_get(e, "target"));
		for (int k = 0; k < 2; k++)
			if (ends[k] && !json_object_get(alive, ends[k]) &&
			    (json_object_get(known, ends[k]) || json_object_get(g->new_nodes, ends[k])))
				gone = 1;
		if (!gone)
			continue;
		eid = json_string_value(json_object_get(e, "id")) ?: "";
		if (json_object_get(g->new_edges, eid)) {
			ga_err(g, (long)json_integer_value(json_object_get(g->new_edges, eid)), "add",
			       "/edges/-", "edge_to_removed_node",
			       "the edge joins a node that the same patch removes");
			continue;
		}
		json_array_remove(edges, i);
		removed++;
	}
	json_decref(alive);
	json_decref(known);
	return removed;
}

/* The last operation whose path names this node or edge by id or localId. */
static long ga_op_naming(struct ga *g, const json_t *patch, const char *array, const char *id)
{
	char want[200], alt[200] = "";
	const char *k;
	json_t *v;

	snprintf(want, sizeof want, "/%s/%s", array, id);
	json_object_foreach(g->map, k, v)
		if (strcmp(json_string_value(v), id) == 0)
			snprintf(alt, sizeof alt, "/%s/%s", array, k);
	for (size_t i = json_array_size(patch); i-- > 0;) {
		const char *p = json_string_value(json_object_get(json_array_get(patch, i), "path")) ?: "";
		size_t wn = strlen(want), an = strlen(alt);

		if ((strncmp(p, want, wn) == 0 && (p[wn] == '\0' || p[wn] == '/')) ||
		    (an && strncmp(p, alt, an) == 0 && (p[an] == '\0' || p[an] == '/')))
			return (long)i;
	}
	return -1;
}

/* Which operation brought in what a validation error points at. */
static long ga_trace(struct ga *g, const json_t *patch, const json_t *doc, const char *path)
{
	const char *arrays[2] = { "nodes", "edges" };
	json_t *gen[2] = { g->new_nodes, g->new_edges };

	for (int k = 0; k < 2; k++) {
		size_t n = strlen(arrays[k]), idx;
		char tok[32];
		const char *id;

		if (path[0] != '/' || strncmp(path + 1, arrays[k], n) != 0 || path[n + 1] != '/')
			continue;
		snprintf(tok, sizeof tok, "%.*s", (int)strcspn(path + n + 2, "/"), path + n + 2);
		if (ptr_token_index(tok, &idx) != 1)
			return -1;
		id = json_string_value(json_object_get(json_array_get(json_object_get(doc, arrays[k]),
								      idx), "id"));
		if (id == NULL)
			return -1;
		if (json_object_get(gen[k], id))
			return (long)json_integer_value(json_object_get(gen[k], id));
		return ga_op_naming(g, patch, arrays[k], id);
	}
	return -1;
}

static void ga_validate(struct ga *g, const json_t *orig_patch, json_t *doc)
{
	json_t *errs = graph_validate_bounded(doc, g->o->defs, GRAPH_VALIDATE_NO_POSITION, 0,
					      g->o->max_string_bytes), *e;
	size_t i;

	json_array_foreach(errs, i, e) {
		const char *path = json_string_value(json_object_get(e, "path")) ?: "";
		long at = ga_trace(g, orig_patch, doc, path);

		ga_err(g, at, at >= 0 ? ga_op_name(json_array_get(orig_patch, (size_t)at)) : "", path,
		       json_string_value(json_object_get(e, "code")) ?: "invalid", "%s",
		       json_string_value(json_object_get(e, "message")) ?: "");
	}
	json_decref(errs);
}

static void ga_count_array(const json_t *before, const json_t *after, int *added, int *removed,
			   int *changed)
{
	json_t *b = ga_id_set(before), *a = ga_id_set(after), *v;
	const char *k;

	json_object_foreach(a, k, v) {
		json_t *was = json_object_get(b, k);

		if (was == NULL)
			++*added;
		else if (changed && !json_equal(was, v))
			++*changed;
	}
	json_object_foreach(b, k, v)
		if (json_object_get(a, k) == NULL)
			++*removed;
	json_decref(a);
	json_decref(b);
}

static void ga_count(const json_t *before, const json_t *after, struct graph_apply_counts *c)
{
	memset(c, 0, sizeof *c);
	ga_count_array(json_object_get(before, "nodes"), json_object_get(after, "nodes"),
		       &c->nodes_added, &c->nodes_removed, &c->nodes_changed);
	ga_count_array(json_object_get(before, "edges"), json_object_get(after, "edges"),
		       &c->edges_added, &c->edges_removed, NULL);
}

static json_t *ga_prepare(const json_t *wf)
{
	json_t *copy = json_deep_copy(wf), *n;
	size_t i;

	json_array_foreach(json_object_get(copy, "nodes"), i, n)
		ga_ensure_data(n);
	return copy;
}

static json_t *ga_run(struct ga *g, const json_t *wf, const json_t *patch, struct graph_apply_result *r)
{
	struct patch_opts po = { { ga_hook, g }, 0, g->o->max_patch_bytes };
	struct patch_error pe;
	json_t *before = ga_prepare(wf), *doc;

	ga_note_ids(g, json_object_get(before, "nodes"));
	ga_note_ids(g, json_object_get(before, "edges"));
	r->patch = ga_rewrite(g, patch);
	doc = r->patch ? patch_apply(before, r->patch, &po, &pe) : NULL;
	if (r->patch && doc == NULL)
		json_array_append_new(g->errors, patch_error_json(&pe));
	if (doc) {
		r->removed_edges = ga_cleanup(g, before, doc);
		if (json_array_size(g->errors) == 0)
			ga_validate(g, patch, doc);
		ga_count(before, doc, &r->counts);
	}
	json_decref(before);
	if (json_array_size(g->errors) > 0) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int graph_apply(const json_t *wf, const json_t *patch, const struct graph_apply_opts *o,
		struct graph_apply_result *r)
{
	struct ga g = { o, json_object(), json_object(), json_object(), json_object(), NULL };

	memset(r, 0, sizeof *r);
	r->errors = json_array();
	g.errors = r->errors;
	if (!json_is_array(patch))
		ga_err(&g, -1, "", "", "bad_patch", "the patch must be an array of operations");
	else if (json_array_size(patch) > GRAPH_APPLY_MAX_OPS)
		ga_err(&g, -1, "", "", "too_large", "the patch has more than %d operations",
		       GRAPH_APPLY_MAX_OPS);
	else if (!json_is_array(json_object_get(wf, "nodes")) || !json_is_array(json_object_get(wf, "edges")))
		ga_err(&g, -1, "", "", "bad_workflow", "the workflow must have nodes and edges arrays");
	else
		r->workflow = ga_run(&g, wf, patch, r);
	r->id_map = g.map;
	json_decref(g.ids);
	json_decref(g.new_nodes);
	json_decref(g.new_edges);
	return r->workflow ? 0 : -1;
}

void graph_apply_result_free(struct graph_apply_result *r)
{
	json_decref(r->workflow);
	json_decref(r->patch);
	json_decref(r->id_map);
	json_decref(r->errors);
	memset(r, 0, sizeof *r);
}
