/* Validation of a workflow against the node definitions (see
 * graph_validate.h). One pass over the shape and the nodes, then one over
 * the edges in order, which is what gives CONVERTIBLE_ANY slots the type
 * of their first edge. */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_nodes.h"
#include "wf/graph_edit/graph_validate.h"

#define GV_ANY "CONVERTIBLE_ANY"

struct gv {
	json_t *errors;                  /* new reference, returned */
	size_t max;
	size_t max_string;               /* the longest string allowed, in bytes */
	const struct graph_defs *defs;
	unsigned flags;
	json_t *nodes, *edges;           /* borrowed; NULL when not arrays */
	json_t *index;                   /* new: node id -> its index (first one) */
	json_t *conv;                    /* new: per node {"inputs": {}, "outputs": {}} */
	json_t *taken;                   /* new: "target\nhandle" -> 1, and edge keys */
};

/* -- errors ---------------------------------------------------------------- */

__attribute__((format(printf, 4, 5)))
static void gv_err(struct gv *g, const char *path, const char *code, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (json_array_size(g->errors) >= g->max)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	json_array_append_new(g->errors, json_pack("{s:s, s:s, s:s}", "path", path, "code", code,
						   "message", msg));
}

/* A member name as a JSON Pointer segment ('~' as ~0, '/' as ~1), cut
 * short to fit. */
static void gv_seg(const char *s, char *out, size_t outlen)
{
	size_t o = 0;

	for (; s && *s && o + 3 < outlen; s++) {
		if (*s == '~' || *s == '/') {
			out[o++] = '~';
			out[o++] = *s == '~' ? '0' : '1';
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

/* -- members --------------------------------------------------------------- */

/* A required string member: the string, or NULL after an error. */
static const char *gv_string(struct gv *g, const json_t *obj, const char *key,
			     const char *at)
{
	const json_t *v = json_object_get(obj, key);
	char path[160];

	snprintf(path, sizeof path, "%s/%s", at, key);
	if (v == NULL)
		gv_err(g, path, "missing_field", "%s has no \"%s\"", *at ? at : "the workflow", key);
	else if (!json_is_string(v))
		gv_err(g, path, "bad_type", "\"%s\" must be a string", key);
	return json_string_value(v);
}

static void gv_opt_string(struct gv *g, const json_t *obj, const char *key, const char *at)
{
	const json_t *v = json_object_get(obj, key);
	char path[160];

	snprintf(path, sizeof path, "%s/%s", at, key);
	if (v && !json_is_string(v))
		gv_err(g, path, "bad_type", "\"%s\" must be a string", key);
}

/* A required member of a JSON type (an object or an array, said in
 * what): the value, or NULL after an error. */
static json_t *gv_member(struct gv *g, const json_t *obj, const char *key, const char *at,
			 int (*is)(const json_t *), const char *what)
{
	json_t *v = json_object_get(obj, key);
	char path[160];

	snprintf(path, sizeof path, "%s/%s", at, key);
	if (v == NULL)
		gv_err(g, path, "missing_field", "%s has no \"%s\"", *at ? at : "the workflow", key);
	else if (!is(v))
		gv_err(g, path, "bad_type", "\"%s\" must be %s", key, what);
	return v && is(v) ? v : NULL;
}

static int gv_is_object(const json_t *v) { return json_is_object(v); }
static int gv_is_array(const json_t *v) { return json_is_array(v); }

static int gv_is_number(const json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v));
}

static void gv_unknown_members(struct gv *g, const json_t *obj, const char *const *keys,
			       const char *at)
{
	const char *k;
	json_t *v;
	char seg[96], path[256];

	json_object_foreach((json_t *)obj, k, v) {
		size_t i;

		for (i = 0; keys[i] && strcmp(keys[i], k) != 0; i++)
			;
		if (keys[i] == NULL) {
			gv_seg(k, seg, sizeof seg);
			snprintf(path, sizeof path, "%s/%s", at, seg);
			gv_err(g, path, "unknown_field", "\"%.64s\" is not a member here", k);
		}
	}
}

/* -- strings, wherever they are ------------------------------------------ */

/* The end of path (length at) grown by one segment: a member name or an
 * index. Cut short when the buffer is full: the start still says where. */
static size_t gv_path_push(char *path, size_t at, size_t size, const char *key, size_t index)
{
	char seg[96];

	if (key)
		gv_seg(key, seg, sizeof seg);
	else
		snprintf(seg, sizeof seg, "%zu", index);
	if (at + 1 + strlen(seg) + 1 > size)
		return at;
	path[at] = '/';
	memcpy(path + at + 1, seg, strlen(seg) + 1);
	return at + 1 + strlen(seg);
}

static void gv_string_long(struct gv *g, const char *path, const char *what, size_t len)
{
	gv_err(g, path, "string_too_long", "%s of %zu bytes, longer than the %zu allowed", what, len,
	       g->max_string);
}

/* Every string in v, member names too, against g->max_string; path holds
 * v's pointer (at bytes of it). */
static void gv_strings(struct gv *g, const json_t *v, char *path, size_t at, size_t size)
{
	const char *k;
	const json_t *x;
	size_t i, end;

	if (json_array_size(g->errors) >= g->max)
		return;
	if (json_is_string(v) && json_string_length(v) > g->max_string)
		gv_string_long(g, path, "a string", json_string_length(v));
	json_array_foreach(v, i, x) {
		end = gv_path_push(path, at, size, NULL, i);
		gv_strings(g, x, path, end, size);
		path[at] = '\0';
	}
	json_object_foreach((json_t *)v, k, x) {
		end = gv_path_push(path, at, size, k, 0);
		if (strlen(k) > g->max_string)
			gv_string_long(g, path, "a member name", strlen(k));
		gv_strings(g, x, path, end, size);
		path[at] = '\0';
	}
}

int graph_strings_ok(const json_t *v, size_t max_string, const char *prefix, char *err,
		     size_t errlen)
{
	struct gv g = { .errors = json_array(), .max = 1,
			.max_string = max_string ? max_string : GRAPH_STRING_MAX };
	char path[512];
	json_t *e;

	snprintf(path, sizeof path, "%s", prefix ? prefix : "");
	gv_strings(&g, v, path, strlen(path), sizeof path);
	e = json_array_get(g.errors, 0);
	if (e)
		snprintf(err, errlen, "%s: %s", json_string_value(json_object_get(e, "path")),
			 json_string_value(json_object_get(e, "message")));
	json_decref(g.errors);
	return e ? -1 : 0;
}

int graph_id_ok(const char *id)
{
	size_t n = id ? strlen(id) : 0;

	return n > 0 && n <= GRAPH_ID_MAX && strcmp(id, "-") != 0 && strspn(id, "0123456789") < n;
}

/* -- the workflow, the viewport --------------------------------------------- */

static void gv_viewport(struct gv *g, const json_t *wf)
{
	const json_t *vp = gv_member(g, wf, "viewport", "", gv_is_object, "an object");
	static const char *const xyz[] = { "x", "y", "zoom" };

	for (size_t i = 0; vp && i < 3; i++) {
		json_t *v = gv_member(g, vp, xyz[i], "/viewport", gv_is_number, "a number");

		if (v && i == 2 && json_number_value(v) <= 0)
			gv_err(g, "/viewport/zoom", "bad_value", "zoom must be above 0");
	}
}

static void gv_position(struct gv *g, const json_t *node, const char *at)
{
	const json_t *pos;
	char pat[64];

	if ((g->flags & GRAPH_VALIDATE_NO_POSITION) && json_object_get(node, "position") == NULL)
		return;
	pos = gv_member(g, node, "position", at, gv_is_object, "an object {x, y}");
	snprintf(pat, sizeof pat, "%s/position", at);
	if (pos) {
		gv_member(g, pos, "x", pat, gv_is_number, "a number");
		gv_member(g, pos, "y", pat, gv_is_number, "a number");
	}
}

/* -- nodes ------------------------------------------------------------------ */

static void gv_params(struct gv *g, const json_t *def, const json_t *cv, const char *at)
{
	const json_t *decls = json_object_get(def, "configValues");
	const char *k, *code;
	json_t *v;
	char seg[96], path[256], why[160];

	json_object_foreach((json_t *)cv, k, v) {
		const json_t *decl = json_object_get(decls, k);

		gv_seg(k, seg, sizeof seg);
		snprintf(path, sizeof path, "%s/data/configValues/%s", at, seg);
		if (decl == NULL)
			gv_err(g, path, "unknown_param", "%s has no parameter \"%.64s\"",
			       json_string_value(json_object_get(def, "type")), k);
		else if ((code = graph_param_check(decl, v, why, sizeof why)) != NULL)
			gv_err(g, path, code, "%.64s: %s", k, why);
	}
}

/* data.convertibleTypes as recorded: {"inputs"?: {slot: TYPE},
 * "outputs"?: {slot: TYPE}} over CONVERTIBLE_ANY slots; copied to the
 * node's entry of g->conv when it is well formed. */
static void gv_conv_read(struct gv *g, size_t i, const json_t *def, const json_t *ct,
			 const char *at)
{
	static const char *const sides[] = { "inputs", "outputs" };
	char path[160];

	for (int s = 0; s < 2; s++) {
		const json_t *m = json_object_get(ct, sides[s]);
		const char *slot;
		json_t *t;

		json_object_foreach((json_t *)m, slot, t) {
			const char *decl = json_string_value(json_object_get(json_object_get(
						json_object_get(def, sides[s]), slot), "type"));
			const char *tv = json_string_value(t);

			if (decl && strcmp(decl, GV_ANY) == 0 && graph_data_type_known(tv) &&
			    strcmp(tv, GV_ANY) != 0 && strcmp(tv, "WILDCARD") != 0)
				json_object_set(json_object_get(json_array_get(g->conv, i), sides[s]),
						slot, t);
		}
		if (m && !json_is_object(m)) {
			snprintf(path, sizeof path, "%s/data/convertibleTypes/%s", at, sides[s]);
			gv_err(g, path, "bad_type", "must be an object of slot: type");
		}
	}
}

static void gv_data(struct gv *g, size_t i, const json_t *node, const json_t *def,
		    const char *at)
{
	static const char *const keys[] = { "configValues", "label", "convertibleTypes", NULL };
	const json_t *data = json_object_get(node, "data"), *cv, *ct;
	char dat[80], path[160];

	if (data == NULL)
		return;
	snprintf(dat, sizeof dat, "%s/data", at);
	if (!json_is_object(data)) {
		gv_err(g, dat, "bad_type", "\"data\" must be an object");
		return;
	}
	gv_unknown_members(g, data, keys, dat);
	gv_opt_string(g, data, "label", dat);
	cv = json_object_get(data, "configValues");
	ct = json_object_get(data, "convertibleTypes");
	snprintf(path, sizeof path, "%s/configValues", dat);
	if (cv && !json_is_object(cv))
		gv_err(g, path, "bad_type", "\"configValues\" must be an object");
	else if (cv && def)
		gv_params(g, def, cv, at);
	snprintf(path, sizeof path, "%s/convertibleTypes", dat);
	if (ct && !json_is_object(ct))
		gv_err(g, path, "bad_type", "\"convertibleTypes\" must be an object");
	else if (ct && def)
		gv_conv_read(g, i, def, ct, at);
}

static void gv_node_id(struct gv *g, size_t i, const json_t *node, const char *at)
{
	const char *id = gv_string(g, node, "id", at);
	char path[80];

	snprintf(path, sizeof path, "%s/id", at);
	if (id == NULL)
		return;
	if (!graph_id_ok(id))
		gv_err(g, path, "bad_id", "a node id must be 1 to %d bytes, not all digits and not "
		       "\"-\"", GRAPH_ID_MAX);
	else if (json_object_get(g->index, id))
		gv_err(g, path, "duplicate_id", "node id \"%s\" is also node %lld's", id,
		       (long long)json_integer_value(json_object_get(g->index, id)));
	else
		json_object_set_new(g->index, id, json_integer((json_int_t)i));
}

/* The node's definition: borrowed, or NULL after an error. */
static json_t *gv_node_def(struct gv *g, const json_t *node, const char *at)
{
	const char *type = gv_string(g, node, "type", at);
	json_t *def;
	char path[80];

	if (type == NULL)
		return NULL;
	snprintf(path, sizeof path, "%s/type", at);
	if (!graph_type_name_ok(type)) {
		gv_err(g, path, "unknown_type", "type \"%.80s\" must read namespace:Name", type);
		return NULL;
	}
	def = g->defs->find(g->defs->ctx, type);
	if (def == NULL)
		gv_err(g, path, "unknown_type", "no node type \"%.80s\"", type);
	return def;
}

static void gv_node(struct gv *g, size_t i, const json_t *node)
{
	static const char *const keys[] = { "id", "type", "position", "data", "displayName", NULL };
	json_t *def;
	char at[40];

	json_array_append_new(g->conv, json_pack("{s:{}, s:{}}", "inputs", "outputs"));
	snprintf(at, sizeof at, "/nodes/%zu", i);
	if (!json_is_object(node)) {
		gv_err(g, at, "bad_type", "a node must be an object");
		return;
	}
	gv_unknown_members(g, node, keys, at);
	gv_node_id(g, i, node, at);
	def = gv_node_def(g, node, at);
	gv_position(g, node, at);
	gv_opt_string(g, node, "displayName", at);
	gv_data(g, i, node, def, at);
}

/* -- edges ------------------------------------------------------------------ */

/* One end of an edge, once found. */
struct gv_end {
	size_t node;
	const json_t *def;
	const char *slot;
	const json_t *decl;    /* the slot's declaration */
};

/* The node an edge's source or target names: 0 with *i, or -1 after an
 * error. */
static int gv_edge_node(struct gv *g, const char *id, const char *at, const char *key,
			size_t *i)
{
	json_t *ix = json_object_get(g->index, id);
	char path[80];

	snprintf(path, sizeof path, "%s/%s", at, key);
	if (ix == NULL) {
		gv_err(g, path, "dangling_edge", "no node \"%.80s\"", id);
		return -1;
	}
	*i = (size_t)json_integer_value(ix);
	return 0;
}

/* The slot an end names on its node: 0, or -1 after an error (or when
 * the node has no definition, already reported). */
static int gv_edge_slot(struct gv *g, struct gv_end *e, const char *side, const char *at,
			const char *key)
{
	const char *type = json_string_value(json_object_get(json_array_get(g->nodes, e->node),
							     "type"));
	char path[80];

	e->def = type ? g->defs->find(g->defs->ctx, type) : NULL;
	if (e->def == NULL)
		return -1;
	e->decl = json_object_get(json_object_get(e->def, side), e->slot);
	if (e->decl)
		return 0;
	snprintf(path, sizeof path, "%s/%s", at, key);
	gv_err(g, path, "unknown_handle", "%s has no %s \"%.64s\"",
	       json_string_value(json_object_get(e->def, "type")),
	       side[0] == 'i' ? "input" : "output", e->slot);
	return -1;
}

/* The type an end has now: its declared type, or for a CONVERTIBLE_ANY
 * slot the one it took (still CONVERTIBLE_ANY when none yet). */
static const char *gv_end_type(struct gv *g, const struct gv_end *e, const char *side)
{
	const char *t = json_string_value(json_object_get(e->decl, "type"));
	json_t *took;

	if (strcmp(t, GV_ANY) != 0)
		return t;
	took = json_object_get(json_object_get(json_array_get(g->conv, e->node), side), e->slot);
	return took ? json_string_value(took) : GV_ANY;
}

static void gv_take(struct gv *g, const struct gv_end *e, const char *side, const char *t)
{
	json_object_set_new(json_object_get(json_array_get(g->conv, e->node), side), e->slot,
			    json_string(t));
}

/* Whether out can feed in, recording what CONVERTIBLE_ANY ends take. */
static int gv_types_fit(struct gv *g, const struct gv_end *src, const struct gv_end *dst)
{
	const char *s = gv_end_type(g, src, "outputs"), *t = gv_end_type(g, dst, "inputs");
	int s_any = strcmp(s, GV_ANY) == 0, t_any = strcmp(t, GV_ANY) == 0;

	if (strcmp(s, "WILDCARD") == 0 || strcmp(t, "WILDCARD") == 0 || (s_any && t_any))
		return 1;
	if (t_any)
		return gv_take(g, dst, "inputs", s), 1;
	if (s_any)
		return gv_take(g, src, "outputs", t), 1;
	return strcmp(s, t) == 0 || (strcmp(s, "INTEGER") == 0 && strcmp(t, "FLOAT") == 0);
}

/* Twice the same slots, or a second edge into a single input. */
static int gv_edge_taken(struct gv *g, const struct gv_end *src, const struct gv_end *dst,
			 const char *at)
{
	char key[600], slot[300], path[80];

	snprintf(key, sizeof key, "%zu\n%s\n%zu\n%s", src->node, src->slot, dst->node, dst->slot);
	snprintf(slot, sizeof slot, "%zu\n%s", dst->node, dst->slot);
	if (json_object_get(g->taken, key)) {
		gv_err(g, at, "duplicate_edge", "the same slots are already joined");
		return -1;
	}
	json_object_set_new(g->taken, key, json_true());
	snprintf(path, sizeof path, "%s/targetHandle", at);
	if (json_object_get(g->taken, slot) && !json_is_true(json_object_get(dst->decl, "multi"))) {
		gv_err(g, path, "slot_taken", "input \"%.64s\" takes one edge and has one already",
		       dst->slot);
		return -1;
	}
	json_object_set_new(g->taken, slot, json_true());
	return 0;
}

static void gv_edge_id(struct gv *g, const json_t *edge, const char *at, json_t *seen,
		       size_t j)
{
	const char *id = gv_string(g, edge, "id", at);
	char path[80];

	snprintf(path, sizeof path, "%s/id", at);
	if (id == NULL)
		return;
	if (!graph_id_ok(id))
		gv_err(g, path, "bad_id", "an edge id must be 1 to %d bytes, not all digits and "
		       "not \"-\"", GRAPH_ID_MAX);
	else if (json_object_get(seen, id))
		gv_err(g, path, "duplicate_id", "edge id \"%s\" is also edge %lld's", id,
		       (long long)json_integer_value(json_object_get(seen, id)));
	else
		json_object_set_new(seen, id, json_integer((json_int_t)j));
}

/* The ends of an edge, found: 0, or -1 (errors reported). */
static int gv_edge_ends(struct gv *g, const json_t *edge, const char *at, struct gv_end *src,
			struct gv_end *dst)
{
	const char *s = gv_string(g, edge, "source", at), *t = gv_string(g, edge, "target", at);
	char path[80];
	int bad = 0;

	src->slot = gv_string(g, edge, "sourceHandle", at);
	dst->slot = gv_string(g, edge, "targetHandle", at);
	if (!s || !t || !src->slot || !dst->slot)
		return -1;
	bad |= gv_edge_node(g, s, at, "source", &src->node);
	bad |= gv_edge_node(g, t, at, "target", &dst->node);
	if (bad)
		return -1;
	snprintf(path, sizeof path, "%s/target", at);
	if (src->node == dst->node)
		return gv_err(g, path, "self_loop", "an edge cannot join node \"%.80s\" to itself", s),
		       -1;
	bad |= gv_edge_slot(g, src, "outputs", at, "sourceHandle");
	bad |= gv_edge_slot(g, dst, "inputs", at, "targetHandle");
	return bad ? -1 : 0;
}

static void gv_edge(struct gv *g, size_t j, const json_t *edge, json_t *seen)
{
	static const char *const keys[] = {
		"id", "source", "sourceHandle", "target", "targetHandle", NULL,
	};
	struct gv_end src, dst;
	char at[40];

	snprintf(at, sizeof at, "/edges/%zu", j);
	if (!json_is_object(edge)) {
		gv_err(g, at, "bad_type", "an edge must be an object");
		return;
	}
	gv_unknown_members(g, edge, keys, at);
	gv_edge_id(g, edge, at, seen, j);
	if (gv_edge_ends(g, edge, at, &src, &dst) < 0 || gv_edge_taken(g, &src, &dst, at) < 0)
		return;
	if (!gv_types_fit(g, &src, &dst))
		gv_err(g, at, "type_mismatch", "%s output \"%.64s\" (%s) cannot feed input \"%.64s\" "
		       "(%s)", json_string_value(json_object_get(src.def, "type")), src.slot,
		       gv_end_type(g, &src, "outputs"), dst.slot, gv_end_type(g, &dst, "inputs"));
}

/* -- CONVERTIBLE_ANY: what a slot took holds while it is connected -------- */

/* Forgets recorded types of slots no edge is connected to any more. */
static void gv_conv_prune(struct gv *g)
{
	json_t *linked = json_object(), *e;
	size_t j;

	json_array_foreach(g->edges, j, e) {
		json_t *s = json_object_get(g->index, json_string_value(json_object_get(e, "source")) ?: "");
		json_t *t = json_object_get(g->index, json_string_value(json_object_get(e, "target")) ?: "");
		char key[300];

		snprintf(key, sizeof key, "outputs\n%lld\n%s", s ? (long long)json_integer_value(s) : -1LL,
			 json_string_value(json_object_get(e, "sourceHandle")) ?: "");
		json_object_set_new(linked, key, json_true());
		snprintf(key, sizeof key, "inputs\n%lld\n%s", t ? (long long)json_integer_value(t) : -1LL,
			 json_string_value(json_object_get(e, "targetHandle")) ?: "");
		json_object_set_new(linked, key, json_true());
	}
	json_array_foreach(g->conv, j, e) {
		static const char *const sides[] = { "inputs", "outputs" };

		for (int s = 0; s < 2; s++) {
			json_t *m = json_object_get(e, sides[s]), *v;
			const char *slot;
			void *tmp;
			char key[300];

			json_object_foreach_safe(m, tmp, slot, v) {
				snprintf(key, sizeof key, "%s\n%zu\n%s", sides[s], j, slot);
				if (!json_object_get(linked, key))
					json_object_del(m, slot);
			}
		}
	}
	json_decref(linked);
}

/* Writes each node's taken types into its data. */
static void gv_conv_write(struct gv *g)
{
	json_t *node, *c;
	size_t i;

	json_array_foreach(g->nodes, i, node) {
		json_t *data = json_object_get(node, "data");

		c = json_array_get(g->conv, i);
		if (!json_is_object(node) || (data && !json_is_object(data)))
			continue;
		if (json_object_size(json_object_get(c, "inputs")) == 0)
			json_object_del(c, "inputs");
		if (json_object_size(json_object_get(c, "outputs")) == 0)
			json_object_del(c, "outputs");
		if (json_object_size(c) > 0 && data == NULL)
			json_object_set_new(node, "data", data = json_object());
		if (json_object_size(c) > 0)
			json_object_set(data, "convertibleTypes", c);
		else if (data)
			json_object_del(data, "convertibleTypes");
	}
}

/* -- the whole ------------------------------------------------------------- */

json_t *graph_validate(json_t *wf, const struct graph_defs *defs, unsigned flags,
		       size_t max_errors)
{
	return graph_validate_bounded(wf, defs, flags, max_errors, 0);
}

json_t *graph_validate_bounded(json_t *wf, const struct graph_defs *defs, unsigned flags,
			       size_t max_errors, size_t max_string)
{
	struct gv g = {
		.errors = json_array(), .max = max_errors ? max_errors : GRAPH_VALIDATE_MAX_ERRORS,
		.max_string = max_string ? max_string : GRAPH_STRING_MAX,
		.defs = defs, .flags = flags, .index = json_object(), .conv = json_array(),
		.taken = json_object(),
	};
	json_t *seen = json_object(), *v;
	char path[512] = "";
	size_t i;

	if (!json_is_object(wf)) {
		gv_err(&g, "", "bad_type", "a workflow must be a JSON object");
		goto done;
	}
	gv_strings(&g, wf, path, 0, sizeof path);
	gv_string(&g, wf, "name", "");
	gv_opt_string(&g, wf, "description", "");
	g.nodes = gv_member(&g, wf, "nodes", "", gv_is_array, "an array");
	g.edges = gv_member(&g, wf, "edges", "", gv_is_array, "an array");
	gv_viewport(&g, wf);
	json_array_foreach(g.nodes, i, v)
		gv_node(&g, i, v);
	if (g.nodes == NULL)   /* every edge would dangle: say it once */
		goto done;
	gv_conv_prune(&g);
	json_array_foreach(g.edges, i, v)
		gv_edge(&g, i, v, seen);
	gv_conv_write(&g);
done:
	json_decref(seen);
	json_decref(g.index);
	json_decref(g.conv);
	json_decref(g.taken);
	return g.errors;
}
