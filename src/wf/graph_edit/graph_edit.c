/* The graph_edit workflow (see graph_edit.h): a turn's input, checked
 * and put in the state, the node table, and what the nodes share. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "conf/conf.h"
#include "text/msg.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_apply.h"
#include "wf/graph_edit/graph_edit.h"
#include "wf/graph_edit/graph_nodes.h"

void graph_edit_say(struct step_ctx *c, const char *type, const char *id, ...)
{
	char msg[1024];
	json_t *ev;
	va_list ap;

	va_start(ap, id);
	vsnprintf(msg, sizeof msg, msg_get(step_lang(c), id), ap);
	va_end(ap);
	if (strcmp(type, "message") == 0) {
		graph_edit_message(c, msg);
		return;
	}
	ev = step_event(c, type);
	json_object_set_new(ev, "message", json_string(msg));
	step_emit(c, ev);
}

void graph_edit_message(struct step_ctx *c, const char *text)
{
	json_t *ev = step_event(c, "message");

	json_object_set_new(ev, "role", json_string("assistant"));
	json_object_set_new(ev, "content", json_string(text));
	step_emit(c, ev);
}

int graph_edit_defs(struct step_ctx *c, struct graph_defs *defs)
{
	char err[256];
	struct kb *kb = graph_nodes(step_app(c), err, sizeof err);

	defs->find = graph_nodes_find;
	defs->ctx = kb;
	return kb ? 0 : -1;
}

/* "2 nodes" and "1 edge" as one phrase ("2 nodes and 1 edge"), or NULL
 * when both are 0. New string. */
static char *ge_nouns(const char *lang, int nodes, int edges)
{
	char *a = nodes ? msg_fmt(lang, nodes == 1 ? "graph.sum.node.one" : "graph.sum.node.many", nodes) : NULL;
	char *b = edges ? msg_fmt(lang, edges == 1 ? "graph.sum.edge.one" : "graph.sum.edge.many", edges) : NULL;
	char *both;

	if (a == NULL || b == NULL)
		return a ? a : b;
	both = msg_fmt(lang, "graph.sum.with", a, b);
	free(a);
	free(b);
	return both;
}

/* acc (freed) followed by the verb's phrase for nouns (freed). */
static char *ge_then(const char *lang, char *acc, const char *verb, char *nouns)
{
	char *phrase, *out;

	if (nouns == NULL)
		return acc;
	phrase = msg_fmt(lang, verb, nouns);
	free(nouns);
	if (acc == NULL)
		return phrase;
	out = msg_fmt(lang, "graph.sum.then", acc, phrase);
	free(acc);
	free(phrase);
	return out;
}

/* "added 2 nodes and 1 edge, and removed 1 node". */
char *graph_edit_summary(const char *lang, const struct graph_apply_counts *n)
{
	char *acc = NULL;

	acc = ge_then(lang, acc, "graph.sum.added", ge_nouns(lang, n->nodes_added, n->edges_added));
	acc = ge_then(lang, acc, "graph.sum.removed", ge_nouns(lang, n->nodes_removed, n->edges_removed));
	acc = ge_then(lang, acc, "graph.sum.changed", ge_nouns(lang, n->nodes_changed, 0));
	return acc ? acc : xstrdup(msg_get(lang, "graph.sum.none"));
}

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
static json_t *ge_workflow_in(const struct conf *cf, const json_t *wf, char *err, size_t n)
{
	json_t *nodes = json_object_get(wf, "nodes"), *edges = json_object_get(wf, "edges"), *out;

	if (!json_is_object(wf))
		return snprintf(err, n, "workflow must be an object"), NULL;
	if (!json_is_array(nodes) || (edges && !json_is_array(edges)))
		return snprintf(err, n, "workflow needs a nodes array (and an edges array)"), NULL;
	if ((long)json_array_size(nodes) > cf->graph_edit_max_nodes)
		return snprintf(err, n, "workflow has %zu nodes, more than the %ld allowed",
				json_array_size(nodes), cf->graph_edit_max_nodes), NULL;
	if ((long)json_array_size(edges) > cf->graph_edit_max_edges)
		return snprintf(err, n, "workflow has %zu edges, more than the %ld allowed",
				json_array_size(edges), cf->graph_edit_max_edges), NULL;
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
static int ge_strings_in(const struct conf *cf, const json_t *input, char *err, size_t n)
{
	static const char *const keys[] = { "workflow", "patch" };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (graph_strings_ok(json_object_get(input, keys[i]),
				     (size_t)cf->graph_edit_max_string_bytes, keys[i], err, n) < 0)
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

	if (ge_strings_in(step_conf(c), input, err, n) < 0 ||
	    ge_request_in(input, turn, err, n) < 0 || ge_layout_in(input, turn, err, n) < 0 ||
	    (ge_present(input, "workflow") &&
	     (wf = ge_workflow_in(step_conf(c), json_object_get(input, "workflow"), err, n)) == NULL) ||
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

const struct workflow wf_graph_edit = {
	.name = "graph_edit",
	.nodes = graph_edit_nodes,
	.nnodes = sizeof graph_edit_nodes / sizeof graph_edit_nodes[0],
	.start = "start",
	.init = ge_init,
	.turn = ge_turn,
};
