/* The canvas as the offline planner's clauses change it: the nodes and
 * edges of facts.workflow, those the patch adds (named by localId), and
 * what it removes, so that each clause is planned against the canvas the
 * clauses before it leave. */
#include "config.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules_int.h"

const json_t *gr_def_find(const struct gr_plan *p, const char *type)
{
	const json_t *d;
	size_t i;

	if (!type)
		return NULL;
	json_array_foreach(p->defs, i, d)
		if (json_is_string(json_object_get(d, "type")) &&
		    strcmp(json_string_value(json_object_get(d, "type")), type) == 0)
			return d;
	return NULL;
}

size_t gr_node_add(struct gr_plan *p, const char *id, const char *type, int added)
{
	struct gr_node *n;

	if (p->nn == p->ncap) {
		p->ncap = p->ncap ? 2 * p->ncap : 16;
		p->nodes = xrealloc(p->nodes, p->ncap * sizeof *p->nodes);
	}
	n = &p->nodes[p->nn];
	memset(n, 0, sizeof *n);
	n->id = xstrdup(id);
	n->type = type;
	n->def = gr_def_find(p, type);
	n->added = added;
	return p->nn++;
}

size_t gr_edge_add(struct gr_plan *p, const char *id, size_t src, const char *sh, size_t dst,
		   const char *th)
{
	struct gr_edge *e;

	if (p->ne == p->ecap) {
		p->ecap = p->ecap ? 2 * p->ecap : 16;
		p->edges = xrealloc(p->edges, p->ecap * sizeof *p->edges);
	}
	e = &p->edges[p->ne];
	memset(e, 0, sizeof *e);
	e->id = id ? xstrdup(id) : NULL;
	e->src = src, e->dst = dst;
	e->sh = xstrdup(sh), e->th = xstrdup(th);
	return p->ne++;
}

size_t gr_node_by_id(const struct gr_plan *p, const char *id)
{
	for (size_t i = 0; id && i < p->nn; i++)
		if (!p->nodes[i].removed && strcmp(p->nodes[i].id, id) == 0)
			return i;
	return (size_t)-1;
}

static void gr_plan_load_nodes(struct gr_plan *p, const json_t *nodes)
{
	const json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		const char *id = json_string_value(json_object_get(n, "id"));
		const char *type = json_string_value(json_object_get(n, "type"));
		const char *dn = json_string_value(json_object_get(n, "displayName"));
		size_t k;

		if (!id || !type || p->nn >= GR_MAX_NODES)
			continue;
		k = gr_node_add(p, id, type, 0);
		if (dn && *dn)
			p->nodes[k].display = xstrdup(dn);
	}
}

static void gr_plan_load_edges(struct gr_plan *p, const json_t *edges)
{
	const json_t *e;
	size_t i;

	json_array_foreach(edges, i, e) {
		size_t s = gr_node_by_id(p, json_string_value(json_object_get(e, "source")));
		size_t t = gr_node_by_id(p, json_string_value(json_object_get(e, "target")));
		const char *sh = json_string_value(json_object_get(e, "sourceHandle"));
		const char *th = json_string_value(json_object_get(e, "targetHandle"));

		if (s != (size_t)-1 && t != (size_t)-1 && sh && th && p->ne < GR_MAX_EDGES)
			gr_edge_add(p, json_string_value(json_object_get(e, "id")), s, sh, t, th);
	}
}

void gr_plan_init(struct gr_plan *p, const json_t *facts, int zh)
{
	const json_t *wf = json_object_get(facts, "workflow");

	memset(p, 0, sizeof *p);
	p->defs = json_object_get(facts, "definitions");
	p->zh = zh;
	p->patch = json_array();
	buf_init(&p->done, GR_REPLY_MAX);
	buf_init(&p->why, GR_REPLY_MAX);
	buf_init(&p->notdone, GR_REPLY_MAX);
	buf_init(&p->undone, 1024);
	p->facts = facts;
	p->last_ref = p->prev_ref = (size_t)-1;
	gr_plan_load_nodes(p, json_object_get(wf, "nodes"));
	gr_plan_load_edges(p, json_object_get(wf, "edges"));
}

void gr_plan_free(struct gr_plan *p)
{
	for (size_t i = 0; i < p->nn; i++)
		free(p->nodes[i].id), free(p->nodes[i].display);
	for (size_t i = 0; i < p->ne; i++)
		free(p->edges[i].id), free(p->edges[i].sh), free(p->edges[i].th);
	free(p->nodes);
	free(p->edges);
	json_decref(p->patch);
	buf_free(&p->done);
	buf_free(&p->why);
	buf_free(&p->notdone);
	buf_free(&p->undone);
}

const char *gr_def_label(const json_t *def, int zh)
{
	const char *s = json_string_value(json_object_get(def, zh ? "name_zh" : "name_en"));

	return s && *s ? s : json_string_value(json_object_get(def, "type"));
}

const char *gr_node_label(const struct gr_plan *p, size_t i)
{
	const struct gr_node *n = &p->nodes[i];

	if (n->display)
		return n->display;
	return n->def ? gr_def_label(n->def, p->zh) : n->type;
}

static int gr_id_taken(const struct gr_plan *p, const char *id)
{
	for (size_t i = 0; i < p->nn; i++)
		if (strcmp(p->nodes[i].id, id) == 0)
			return 1;
	return 0;
}

char *gr_local_id(const struct gr_plan *p, const char *type)
{
	const char *name = type ? strchr(type, ':') : NULL;
	char base[24], *id = NULL;
	size_t k = 0;

	for (name = name ? name + 1 : "node"; *name && k < sizeof base - 1; name++)
		if (isalnum((unsigned char)*name))
			base[k++] = (char)tolower((unsigned char)*name);
	base[k] = '\0';
	if (!k || isdigit((unsigned char)base[0]))
		snprintf(base, sizeof base, "node");
	for (int i = 1;; i++) {
		free(id);
		id = xasprintf("%s%d", base, i);
		if (!gr_id_taken(p, id))
			return id;
	}
}

static const json_t *gr_slot_decl(const struct gr_plan *p, size_t node, const char *slot,
				  int input)
{
	return json_object_get(json_object_get(p->nodes[node].def, input ? "inputs" : "outputs"),
			       slot);
}

/* A CONVERTIBLE_ANY slot takes the declared type of the other end of its
 * first live edge (one step only: two such slots in a row stay open). */
const char *gr_slot_type(const struct gr_plan *p, size_t node, const char *slot, int input)
{
	const char *t = json_string_value(json_object_get(gr_slot_decl(p, node, slot, input),
							  "type"));

	if (!t || strcmp(t, "CONVERTIBLE_ANY") != 0)
		return t;
	for (size_t i = 0; i < p->ne; i++) {
		const struct gr_edge *e = &p->edges[i];
		const char *o = NULL;

		if (e->removed)
			continue;
		if (input && e->dst == node && strcmp(e->th, slot) == 0)
			o = json_string_value(json_object_get(gr_slot_decl(p, e->src, e->sh, 0), "type"));
		else if (!input && e->src == node && strcmp(e->sh, slot) == 0)
			o = json_string_value(json_object_get(gr_slot_decl(p, e->dst, e->th, 1), "type"));
		else
			continue;
		return o ? o : t;
	}
	return t;
}

int gr_types_fit(const char *out, const char *in)
{
	if (!out || !in)
		return 0;
	if (!strcmp(out, "WILDCARD") || !strcmp(in, "WILDCARD") || !strcmp(out, "CONVERTIBLE_ANY") ||
	    !strcmp(in, "CONVERTIBLE_ANY"))
		return 1;
	return strcmp(out, in) == 0 || (!strcmp(out, "INTEGER") && !strcmp(in, "FLOAT"));
}

static void gr_vsay(struct buf *b, int zh, const char *fzh, const char *fen, va_list ap)
{
	char tmp[1024];

	vsnprintf(tmp, sizeof tmp, zh ? fzh : fen, ap);
	buf_adds(b, tmp);
}

void gr_done(struct gr_plan *p, const char *zh, const char *en, ...)
{
	va_list ap;

	if (p->done.len)
		buf_adds(&p->done, p->zh ? "；" : "; ");
	va_start(ap, en);
	gr_vsay(&p->done, p->zh, zh, en, ap);
	va_end(ap);
}

int gr_fail(struct gr_plan *p, const char *zh, const char *en, ...)
{
	va_list ap;

	buf_reset(&p->why);
	va_start(ap, en);
	gr_vsay(&p->why, p->zh, zh, en, ap);
	va_end(ap);
	return -1;
}

void gr_note(struct gr_plan *p)
{
	if (!p->why.len || (p->notdone.len && strstr(p->notdone.data, p->why.data))) {
		buf_reset(&p->why);
		return;
	}
	if (p->notdone.len)
		buf_adds(&p->notdone, p->zh ? "" : " ");
	buf_add(&p->notdone, p->why.data, p->why.len);
	buf_reset(&p->why);
}
