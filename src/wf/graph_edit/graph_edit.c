/* The graph_edit workflow (see graph_edit.h): a turn's input, checked
 * and put in the state, the node table and the descriptor. What the
 * nodes share is in graph_edit_common.c. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "conf/conf.h"
#include "wf/graph_edit/graph_apply.h"
#include "wf/graph_edit/graph_edit.h"

/* -- input ------------------------------------------------------------------ */

static json_t *ge_empty_workflow(void)
{
	return json_pack("{s:s, s:[], s:[], s:{s:i, s:i, s:i}}", "name", "untitled", "nodes", "edges",
			 "viewport", "x", 0, "y", 0, "zoom", 1);
}

static int ge_items_ok(const json_t *arr, int node, char *err, size_t n)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		if (!json_is_object(v))
			return snprintf(err, n, "workflow.%s[%zu] must be an object", node ? "nodes" : "edges",
					i), -1;
		if (node && (!json_is_string(json_object_get(v, "id")) ||
			     !json_is_string(json_object_get(v, "type"))))
			return snprintf(err, n, "workflow.nodes[%zu] needs a string id and type", i), -1;
	}
	return 0;
}

/* The canvas the person has: its shape and size (the rest is checked
 * when a patch is applied to it). New reference or NULL. */
static json_t *ge_workflow_in(const struct graph_edit_conf *gc, const json_t *wf, char *err, size_t n)
{
	json_t *nodes = json_object_get(wf, "nodes"), *edges = json_object_get(wf, "edges"), *out;

	if (!json_is_object(wf))
		return snprintf(err, n, "workflow must be an object"), NULL;
	if (!json_is_array(nodes) || (edges && !json_is_array(edges)))
		return snprintf(err, n, "workflow needs a nodes array (and an edges array)"), NULL;
	if ((long)json_array_size(nodes) > gc->max_nodes)
		return snprintf(err, n, "workflow has %zu nodes, more than the %ld allowed",
				json_array_size(nodes), gc->max_nodes), NULL;
	if ((long)json_array_size(edges) > gc->max_edges)
		return snprintf(err, n, "workflow has %zu edges, more than the %ld allowed",
				json_array_size(edges), gc->max_edges), NULL;
	if (ge_items_ok(nodes, 1, err, n) < 0 || ge_items_ok(edges, 0, err, n) < 0)
		return NULL;
	out = json_deep_copy(wf);
	if (edges == NULL)
		json_object_set_new(out, "edges", json_array());
	if (!json_is_string(json_object_get(out, "name")))
		json_object_set_new(out, "name", json_string("untitled"));
	if (json_object_get(out, "viewport") == NULL)
		json_object_set_new(out, "viewport", json_pack("{s:i, s:i, s:i}", "x", 0, "y", 0, "zoom", 1));
	return out;
}

static int ge_present(const json_t *input, const char *key)
{
	json_t *v = json_object_get(input, key);

	return v != NULL && !json_is_null(v);
}

/* The turn's one request: text, patch or command. */
static int ge_request_in(const json_t *input, json_t *turn, char *err, size_t n)
{
	json_t *text = json_object_get(input, "text"), *patch = json_object_get(input, "patch");
	const char *cmd = json_string_value(json_object_get(input, "command"));

	if (ge_present(input, "text") + ge_present(input, "patch") + ge_present(input, "command") != 1)
		return snprintf(err, n, "send exactly one of text (a request in words), patch (an array "
				"of operations) or command (\"undo\" or \"redo\")"), -1;
	if (ge_present(input, "text")) {
		if (!json_is_string(text) || json_string_length(text) == 0)
			return snprintf(err, n, "text must be a non-empty string"), -1;
		if (json_string_length(text) > GRAPH_EDIT_TEXT_MAX)
			return snprintf(err, n, "text is longer than %d bytes", GRAPH_EDIT_TEXT_MAX), -1;
		json_object_set(turn, "text", text);
	} else if (ge_present(input, "patch")) {
		if (!json_is_array(patch))
			return snprintf(err, n, "patch must be an array of RFC 6902 operations"), -1;
		if (json_array_size(patch) > GRAPH_APPLY_MAX_OPS)
			return snprintf(err, n, "patch has more than %d operations", GRAPH_APPLY_MAX_OPS), -1;
		json_object_set(turn, "patch", patch);
	} else {
		if (cmd == NULL || (strcmp(cmd, "undo") != 0 && strcmp(cmd, "redo") != 0))
			return snprintf(err, n, "command must be \"undo\" or \"redo\""), -1;
		json_object_set_new(turn, "command", json_string(cmd));
	}
	return 0;
}

static int ge_layout_in(const json_t *input, json_t *turn, char *err, size_t n)
{
	json_t *l = json_object_get(input, "layout");

	if (l == NULL || json_is_null(l))
		return 0;
	if (!json_is_string(l) || (strcmp(json_string_value(l), "all") != 0 &&
				   strcmp(json_string_value(l), "new") != 0))
		return snprintf(err, n, "layout must be \"all\" (lay out every node) or \"new\""), -1;
	json_object_set(turn, "layout", l);
	return 0;
}

/* Every string the turn brings, in its workflow or its patch, within
 * [workflow.graph_edit] max_string_bytes: 0, or -1 naming the first
 * one past it. */
static int ge_strings_in(const struct graph_edit_conf *gc, const json_t *input, char *err, size_t n)
{
	static const char *const keys[] = { "workflow", "patch" };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (graph_strings_ok(json_object_get(input, keys[i]),
				     (size_t)gc->max_string_bytes, keys[i], err, n) < 0)
			return -1;
	return 0;
}

/* A patch turn's patch, tried on the workflow it will apply to: one that
 * creates too much is refused now, before the stream starts. */
static int ge_patch_in(struct step_ctx *c, const json_t *state, const json_t *wf,
		       const json_t *turn, char *err, size_t n)
{
	const json_t *patch = json_object_get(turn, "patch");

	if (patch == NULL)
		return 0;
	return graph_edit_patch_fits(c, wf ? wf : json_object_get(state, "workflow"), patch, err, n);
}

/* Checks a turn's input and puts it in the state; the node to run. */
static const char *ge_take_input(struct step_ctx *c, json_t *state, const json_t *input, char *err,
				 size_t n)
{
	json_t *turn = json_object(), *wf = NULL;
	static const char *const reset[] = { "types", "plan", "repair", "feedback", "pending" };

	if (ge_strings_in(graph_edit_conf(c), input, err, n) < 0 ||
	    ge_request_in(input, turn, err, n) < 0 || ge_layout_in(input, turn, err, n) < 0 ||
	    (ge_present(input, "workflow") &&
	     (wf = ge_workflow_in(graph_edit_conf(c), json_object_get(input, "workflow"), err, n)) == NULL) ||
	    ge_patch_in(c, state, wf, turn, err, n) < 0) {
		json_decref(turn);
		json_decref(wf);
		return NULL;
	}
	if (wf)
		json_object_set_new(state, "workflow", wf);
	for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++)
		json_object_set_new(state, reset[i], json_null());
	json_object_set_new(state, "turn", turn);
	if (json_object_get(turn, "text"))
		return "retrieve";
	return json_object_get(turn, "patch") ? "edit" : "history";
}

static json_t *ge_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	json_t *state = json_pack("{s:o, s:i, s:{s:[], s:i}}", "workflow", ge_empty_workflow(),
				  "version", 0, "history", "versions", "at", -1);

	if (ge_take_input(c, state, input, err, errlen) == NULL) {
		json_decref(state);
		return NULL;
	}
	return state;
}

/* A new thread's first node: what its input asks for, run at once (a
 * patch turn stays one step). */
static enum node_rc ge_start(struct step_ctx *c)
{
	const json_t *turn = json_object_get(c->state, "turn");

	if (json_object_get(turn, "text"))
		return graph_edit_retrieve(c);
	return json_object_get(turn, "patch") ? graph_edit_edit(c) : graph_edit_history(c);
}

static const char *ge_turn(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			   size_t errlen)
{
	return ge_take_input(c, state, input, err, errlen);
}

static const struct wf_node graph_edit_nodes[] = {
	{ "start", ge_start, 0 },
	{ "retrieve", graph_edit_retrieve, 0 },
	{ "plan", graph_edit_plan, 0 },
	{ "apply", graph_edit_apply, 0 },
	{ "publish", graph_edit_publish, 0 },
	{ "edit", graph_edit_edit, 0 },
	{ "history", graph_edit_history, 0 },
};

static const struct conf_key graph_edit_conf_keys[] = {
	CONF_KEY_BOOL(struct graph_edit_conf, "confirm", confirm, "off"),
	CONF_KEY_LONG(struct graph_edit_conf, "history", history, "50", 1, 1000),
	CONF_KEY_LONG(struct graph_edit_conf, "max_nodes", max_nodes, "2000", 1, 100000),
	CONF_KEY_LONG(struct graph_edit_conf, "max_edges", max_edges, "5000", 1, 500000),
	CONF_KEY_LONG(struct graph_edit_conf, "plan_timeout_ms", plan_timeout_ms, "30000", 100, 600000),
	CONF_KEY_LONG(struct graph_edit_conf, "max_patch_bytes", max_patch_bytes, "4194304", 1024, 1L << 30),
	CONF_KEY_LONG(struct graph_edit_conf, "max_string_bytes", max_string_bytes, "16384", 64, 1L << 24),
};

const struct conf_section graph_edit_conf_section = {
	.name = "workflow.graph_edit",
	.keys = graph_edit_conf_keys,
	.nkeys = sizeof graph_edit_conf_keys / sizeof graph_edit_conf_keys[0],
	.size = sizeof(struct graph_edit_conf),
};

/* Which node may follow which (a pause names the node its answer goes
 * to: an edge from the node that paused). */
static const struct wf_edge graph_edit_edges[] = {
	{ WF_START, "start" }, { WF_START, "retrieve" }, { WF_START, "edit" },
	{ WF_START, "history" }, { "start", "plan" }, { "start", WF_END }, { "retrieve", "plan" },
	{ "plan", "apply" }, { "plan", WF_END }, { "apply", "plan" }, { "apply", "apply" },
	{ "apply", "publish" }, { "apply", WF_END }, { "publish", WF_END }, { "edit", "plan" },
	{ "edit", WF_END }, { "history", WF_END },
};

static const char *const graph_edit_text_fields[] = { "text", NULL };

/* What the input may hold (the init and turn hooks check it). */
static const char graph_edit_input_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"graph_edit input\", \"type\": \"object\", "
	"\"properties\": {\"text\": {\"type\": \"string\"}, \"lang\": {\"enum\": [\"zh\", "
	"\"en\", null]}, \"patch\": {\"type\": \"array\", \"items\": {\"type\": \"object\", "
	"\"required\": [\"op\", \"path\"]}}, \"command\": {\"enum\": [\"undo\", \"redo\"]}, "
	"\"workflow\": {\"type\": \"object\", \"required\": [\"nodes\"], "
	"\"properties\": {\"nodes\": {\"type\": \"array\"}, "
	"\"edges\": {\"type\": \"array\"}}}, \"layout\": {\"type\": \"boolean\"}}, "
	"\"oneOf\": [{\"required\": [\"text\"]}, {\"required\": [\"patch\"]}, "
	"{\"required\": [\"command\"]}]}";

/* What its state holds between steps (the fields every checkpoint has are
 * required; a node may add others). */
static const char graph_edit_state_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"graph_edit state\", \"type\": \"object\", "
	"\"properties\": {\"feedback\": {\"type\": [\"null\", \"string\"]}, "
	"\"history\": {\"type\": \"object\"}, \"pending\": {\"type\": [\"null\", \"object\"]}, "
	"\"plan\": {\"type\": [\"null\", \"object\"]}, \"repair\": {\"type\": [\"null\", "
	"\"object\"]}, \"turn\": {\"type\": \"object\"}, \"types\": {\"type\": [\"array\", "
	"\"null\"]}, \"version\": {\"type\": \"integer\"}, "
	"\"workflow\": {\"type\": \"object\"}}, \"required\": [\"feedback\", \"history\", "
	"\"pending\", \"plan\", \"repair\", \"turn\", \"types\", \"version\", \"workflow\"]}";

const struct workflow wf_graph_edit = {
	.name = "graph_edit",
	.nodes = graph_edit_nodes,
	.nnodes = sizeof graph_edit_nodes / sizeof graph_edit_nodes[0],
	.start = "start",
	.edges = graph_edit_edges,
	.nedges = sizeof graph_edit_edges / sizeof graph_edit_edges[0],
	.text_fields = graph_edit_text_fields,
	.input_schema = graph_edit_input_schema,
	.state_schema = graph_edit_state_schema,
	.conf = &graph_edit_conf_section,
	.msgs = graph_edit_msgs,
	.nmsgs = GRAPH_EDIT_NMSGS,
	.init = ge_init,
	.turn = ge_turn,
};
