/* What the graph_edit workflow's nodes share (graph_edit_common.h): the
 * events they say, the node library, the summary of a change in words,
 * and the workflow's configuration. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "text/msg.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_apply.h"
#include "wf/graph_edit/graph_edit_common.h"
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

const struct graph_edit_conf *graph_edit_conf(struct step_ctx *c)
{
	return step_wf_conf(c);
}
