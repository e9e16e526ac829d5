/* The clauses of the offline planner (graph_rules.h), one handler each:
 * add, remove, connect, disconnect and rename. Each finds what its
 * clause names on the canvas as the earlier clauses left it, appends its
 * operations to the patch and says what it did; or it fails with a reply
 * that says why (a name not found, with the close ones; a name that fits
 * several nodes, listed; two nodes without slots that fit). Parameters
 * are in graph_rules_param.c. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "json/pointer.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules_int.h"

static const char *const gr_item_seps[] = {
	"和", "与", "、", "以及", "及", "，", ",", "and", "plus", "as well as", "&", NULL
};
static const char *const gr_pair_seps[] = {
	"接到", "连到", "连向", "到", "和", "与", "跟", "至", "→", "->", "into", "to", "and",
	"with", "from", NULL
};

/* -- emitting --------------------------------------------------------------- */

char *gr_path(const char *array, const char *id, const char *rest)
{
	char *esc = ptr_escape(id), *r = xasprintf("/%s/%s%s", array, esc, rest ? rest : "");

	free(esc);
	return r;
}

static void gr_emit(struct gr_plan *p, const char *op, const char *path, json_t *value_new)
{
	json_t *o = json_pack("{s:s, s:s}", "op", op, "path", path);

	if (value_new)
		json_object_set_new(o, "value", value_new);
	json_array_append_new(p->patch, o);
}

size_t gr_emit_node(struct gr_plan *p, const json_t *def)
{
	const char *type = json_string_value(json_object_get(def, "type"));
	char *lid = gr_local_id(p, type);
	size_t k;

	gr_emit(p, "add", "/nodes/-", json_pack("{s:s, s:s}", "localId", lid, "type", type));
	k = gr_node_add(p, lid, type, 1);
	p->last_ref = k;
	free(lid);
	return k;
}

static void gr_emit_edge(struct gr_plan *p, size_t s, const char *sh, size_t t, const char *th)
{
	const struct gr_node *a = &p->nodes[s], *b = &p->nodes[t];

	gr_emit(p, "add", "/edges/-", json_pack("{s:s, s:s, s:s, s:s}",
		a->added ? "sourceLocalId" : "source", a->id, "sourceHandle", sh,
		b->added ? "targetLocalId" : "target", b->id, "targetHandle", th));
	gr_edge_add(p, NULL, s, sh, t, th);
}

/* 1 when operation o of the patch mentions the node id (its add, an edge
 * to or from it, a path under it). */
static int gr_op_mentions(const json_t *o, const char *id)
{
	const json_t *v = json_object_get(o, "value");
	static const char *const keys[] = { "localId", "source", "target", "sourceLocalId",
					    "targetLocalId", NULL };
	const char *path = json_string_value(json_object_get(o, "path"));
	char *under = gr_path("nodes", id, "/");
	int hit = path && strncmp(path, under, strlen(under)) == 0;

	free(under);
	for (size_t i = 0; keys[i] && !hit && json_is_object(v); i++)
		hit = json_is_string(json_object_get(v, keys[i])) &&
		      strcmp(json_string_value(json_object_get(v, keys[i])), id) == 0;
	return hit;
}

/* Takes out of the patch the operations of edge e (one this patch added). */
static void gr_drop_edge_op(struct gr_plan *p, const struct gr_edge *e)
{
	const char *sid = p->nodes[e->src].id, *tid = p->nodes[e->dst].id;
	json_t *o;
	size_t i;

	json_array_foreach(p->patch, i, o) {
		const json_t *v = json_object_get(o, "value");
		const char *s = json_string_value(json_object_get(v, "source")) ?:
				json_string_value(json_object_get(v, "sourceLocalId"));
		const char *t = json_string_value(json_object_get(v, "target")) ?:
				json_string_value(json_object_get(v, "targetLocalId"));

		if (s && t && !strcmp(s, sid) && !strcmp(t, tid) &&
		    !strcmp(json_string_value(json_object_get(v, "sourceHandle")) ?: "", e->sh) &&
		    !strcmp(json_string_value(json_object_get(v, "targetHandle")) ?: "", e->th)) {
			json_array_remove(p->patch, i);
			return;
		}
	}
}

void gr_edge_drop(struct gr_plan *p, struct gr_edge *e)
{
	if (e->id) {
		char *path = gr_path("edges", e->id, NULL);

		gr_emit(p, "remove", path, NULL);
		free(path);
	} else {
		gr_drop_edge_op(p, e);
	}
	e->removed = 1;
}

/* -- naming nodes ---------------------------------------------------------- */

/* The node a phrase names: 0 with *out, or -1 with p->why. */
int gr_pick(struct gr_plan *p, const char *s, size_t n, size_t *out)
{
	char *name = gr_name_clean(s, n, NULL);
	size_t idx[8], k;
	int rc = 0;

	if (gr_pronoun(name) == 2) {
		for (k = p->nn; k-- > 0;)
			if (p->nodes[k].added && !p->nodes[k].removed)
				break;
		if (p->prev_ref < p->nn && !p->nodes[p->prev_ref].removed)
			k = p->prev_ref;
		if (k != (size_t)-1) {
			*out = k;
			goto done;
		}
	}
	k = gr_node_find(p, name, idx, 8);
	if (k == 0) {
		rc = gr_fail(p, "画布上没有找到「%s」。", "There is no \"%s\" on the canvas.", name);
	} else if (k > 1 && !(p->nodes[idx[0]].added && !p->nodes[idx[1]].added)) {
		struct buf b;

		buf_init(&b, 2048);
		gr_node_list(p, idx, k, &b);
		rc = gr_fail(p, "「%s」可以指 %s，请说明是哪一个（用名字或 id）。",
			     "\"%s\" could be %s: which one (by its name or id)?", name, b.data);
		buf_free(&b);
	} else {
		*out = idx[0];
	}
done:
	if (rc == 0)
		p->last_ref = *out;
	free(name);
	return rc;
}

/* -- add -------------------------------------------------------------------- */

static int gr_add_one(struct gr_plan *p, const char *s, size_t n)
{
	int count;
	char *name = gr_name_clean(s, n, &count);
	const json_t *def = gr_def_best(p, name);
	struct buf ids;
	int rc = 0;

	if (!def) {
		struct buf b;

		buf_init(&b, 2048);
		gr_def_close(p, name, 3, &b);
		rc = gr_fail(p, "没有找到叫「%s」的节点类型；相近的有：%s。",
			     "No node type is called \"%s\"; close ones: %s.", name, b.data);
		buf_free(&b);
		free(name);
		return rc;
	}
	buf_init(&ids, 1024);
	for (int i = 0; i < count; i++) {
		size_t k = gr_emit_node(p, def);

		buf_printf(&ids, "%s%s", i ? (p->zh ? "、" : ", ") : "", p->nodes[k].id);
	}
	if (count > 1)
		gr_done(p, "添加了 %d 个「%s」(%s)", "added %d × \"%s\" (%s)", count,
			gr_def_label(def, p->zh), ids.data);
	else
		gr_done(p, "添加了「%s」(%s)", "added \"%s\" (%s)", gr_def_label(def, p->zh), ids.data);
	buf_free(&ids);
	free(name);
	return 0;
}

/* Calls fn on each item of a list ("A和B", "A, B and C"); an item that
 * fails is noted as not done and the others go on. -1 when none was done. */
static int gr_items(struct gr_plan *p, const char *s, size_t n,
		    int (*fn)(struct gr_plan *, const char *, size_t))
{
	const char *l, *r;
	size_t ln, rn;
	int ok = 0, bad = 0;

	gr_trim(&s, &n);
	while (gr_split2(s, n, gr_item_seps, &l, &ln, &r, &rn)) {
		if (fn(p, l, ln))
			gr_note(p), bad++;
		else
			ok++;
		s = r, n = rn;
	}
	if (!n && !ok && !bad)
		return gr_fail(p, "要添加或删除什么节点？", "Which node should I add or delete?");
	if (n && fn(p, s, n))
		gr_note(p), bad++;
	else if (n)
		ok++;
	return ok ? 0 : -1;
}

int gr_op_add(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	size_t from = p->nn;
	int rc = gr_items(p, an ? a : b, an ? an : bn, gr_add_one);

	p->last_from = from, p->last_to = p->nn;
	return rc;
}

/* -- remove ------------------------------------------------------------------ */

void gr_node_drop(struct gr_plan *p, size_t k)
{
	struct gr_node *n = &p->nodes[k];

	for (size_t i = 0; i < p->ne; i++)
		if (!p->edges[i].removed && (p->edges[i].src == k || p->edges[i].dst == k)) {
			if (!p->edges[i].id)
				gr_drop_edge_op(p, &p->edges[i]);
			p->edges[i].removed = 1;
		}
	if (n->added) {
		for (size_t i = json_array_size(p->patch); i-- > 0;)
			if (gr_op_mentions(json_array_get(p->patch, i), n->id))
				json_array_remove(p->patch, i);
	} else {
		char *path = gr_path("nodes", n->id, NULL);

		gr_emit(p, "remove", path, NULL);
		free(path);
	}
	n->removed = 1;
}

static void gr_remove_node(struct gr_plan *p, size_t k)
{
	gr_node_drop(p, k);
	gr_done(p, "删除了「%s」(%s)", "deleted \"%s\" (%s)", gr_node_label(p, k), p->nodes[k].id);
}

static int gr_remove_all(struct gr_plan *p, const char *s, size_t n)
{
	char *name = gr_name_clean(s, n, NULL);
	size_t idx[64], k = gr_node_find(p, name, idx, 64);

	if (!k) {
		int rc = gr_fail(p, "画布上没有找到「%s」。", "There is no \"%s\" on the canvas.", name);

		free(name);
		return rc;
	}
	for (size_t i = 0; i < k; i++)
		gr_remove_node(p, idx[i]);
	free(name);
	return 0;
}

static int gr_remove_one(struct gr_plan *p, const char *s, size_t n)
{
	static const char *const all[] = { "所有的", "所有", "全部的", "全部", "每个", "all the ",
					   "all ", "every ", NULL };
	size_t k;

	for (size_t i = 0; all[i]; i++) {
		long at = gr_find(s, n, all[i]);

		if (at >= 0 && at <= 6)
			return gr_remove_all(p, s + at + strlen(all[i]), n - (size_t)at - strlen(all[i]));
	}
	if (gr_pick(p, s, n, &k))
		return -1;
	gr_remove_node(p, k);
	return 0;
}

int gr_op_remove(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	static const char *const edge_words[] = { "连线", "连接", "edge", "edges", "connection",
						  "connections", "link", "links", "wire", NULL };

	for (size_t i = 0; edge_words[i]; i++)
		if (gr_find(b, bn, edge_words[i]) >= 0 || gr_find(a, an, edge_words[i]) >= 0)
			return gr_op_disconnect(p, b, bn, a, an);
	return gr_items(p, an ? a : b, an ? an : bn, gr_remove_one);
}

/* -- connect ----------------------------------------------------------------- */

/* How well slot out of s feeds slot in of t: 0 when it cannot. */
static int gr_slot_score(const struct gr_plan *p, size_t s, const char *out, size_t t,
			 const char *in, const json_t *decl)
{
	const char *a = gr_slot_type(p, s, out, 0), *b = gr_slot_type(p, t, in, 1);
	int taken = 0, fit;

	if (!gr_types_fit(a, b))
		return 0;
	for (size_t i = 0; i < p->ne; i++) {
		const struct gr_edge *e = &p->edges[i];

		if (e->removed || e->dst != t || strcmp(e->th, in) != 0)
			continue;
		if (e->src == s && strcmp(e->sh, out) == 0)
			return 0;
		taken = 1;
	}
	if (taken && !json_is_true(json_object_get(decl, "multi")))
		return 0;
	fit = !strcmp(a, b) ? 3 : !strcmp(a, "INTEGER") && !strcmp(b, "FLOAT") ? 2 : 1;
	return 100 * (!taken + (!taken && json_is_true(json_object_get(decl, "required")))) + 10 * fit;
}

/* "text: STRING, usage: OBJECT" of one side of a node. */
static void gr_slots_say(const struct gr_plan *p, size_t k, int input, struct buf *b)
{
	const json_t *slots = json_object_get(p->nodes[k].def, input ? "inputs" : "outputs"), *d;
	const char *name;
	int first = 1;

	json_object_foreach((json_t *)slots, name, d) {
		buf_printf(b, "%s%s: %s", first ? "" : ", ", name, gr_slot_type(p, k, name, input));
		first = 0;
	}
	if (first)
		buf_adds(b, p->zh ? "无" : "none");
}

static int gr_link_fail(struct gr_plan *p, size_t s, size_t t)
{
	struct buf o, i;
	int rc;

	buf_init(&o, 1024);
	buf_init(&i, 1024);
	gr_slots_say(p, s, 0, &o);
	gr_slots_say(p, t, 1, &i);
	rc = gr_fail(p, "「%s」的输出（%s）和「%s」的输入（%s）没有数据类型相合且空着的一对，无法连接。",
		     "\"%s\" (outputs %s) and \"%s\" (inputs %s) have no free pair of slots whose data "
		     "types fit, so they cannot be connected.", gr_node_label(p, s), o.data,
		     gr_node_label(p, t), i.data);
	buf_free(&o);
	buf_free(&i);
	return rc;
}

int gr_link_on(struct gr_plan *p, size_t s, const char *fo, size_t t, const char *fi)
{
	const json_t *outs = json_object_get(p->nodes[s].def, "outputs");
	const json_t *ins = json_object_get(p->nodes[t].def, "inputs"), *od, *id;
	const char *out, *in, *bo = NULL, *bi = NULL;
	int best = 0, oi = 0;

	if (s == t)
		return gr_fail(p, "不能把「%s」连到它自己。", "\"%s\" cannot be connected to itself.",
			       gr_node_label(p, s));
	json_object_foreach((json_t *)outs, out, od) {
		json_object_foreach((json_t *)ins, in, id) {
			int sc = (fo && strcmp(fo, out)) || (fi && strcmp(fi, in)) ? 0 :
				 gr_slot_score(p, s, out, t, in, id);

			/* Slots of one name belong together (image to image, mask to mask). */
			sc = sc ? sc * 10 - oi + 50 * !strcmp(out, in) : 0;
			if (sc > best)
				best = sc, bo = out, bi = in;
		}
		oi++;
	}
	if (!bo)
		return gr_link_fail(p, s, t);
	gr_emit_edge(p, s, bo, t, bi);
	if (!p->quiet)
		gr_done(p, "把「%s」的 %s 连到「%s」的 %s", "connected \"%s\".%s to \"%s\".%s",
			gr_node_label(p, s), bo, gr_node_label(p, t), bi);
	return 0;
}

int gr_link(struct gr_plan *p, size_t s, size_t t)
{
	return gr_link_on(p, s, NULL, t, NULL);
}

const char *gr_slot_named(const struct gr_plan *p, size_t k, const char *word, int input)
{
	const json_t *slots = json_object_get(p->nodes[k].def, input ? "inputs" : "outputs"), *d;
	const char *name;

	if (!word || !*word)
		return NULL;
	json_object_foreach((json_t *)slots, name, d) {
		const char *zh = json_string_value(json_object_get(d, "name_zh"));
		const char *en = json_string_value(json_object_get(d, "name_en"));

		if (!strcasecmp(word, name) || (zh && !strcmp(word, zh)) || (en && !strcasecmp(word, en)))
			return name;
	}
	return NULL;
}

/* "connect them": the nodes the last clause added, else all this patch
 * added, in a chain. */
static int gr_link_them(struct gr_plan *p)
{
	size_t idx[64], k = 0;

	for (size_t i = p->last_from; i < p->last_to && k < 64; i++)
		if (!p->nodes[i].removed)
			idx[k++] = i;
	if (k < 2)
		for (size_t i = k = 0; i < p->nn && k < 64; i++)
			if (p->nodes[i].added && !p->nodes[i].removed)
				idx[k++] = i;
	if (k < 2)
		return gr_fail(p, "要连接哪两个节点？请说出它们的名字，例如“连接文本输入和大模型对话”。",
			       "Which two nodes should I connect? Name them, for example \"connect the "
			       "text input to the LLM chat\".");
	for (size_t i = 0; i + 1 < k; i++)
		if (gr_link(p, idx[i], idx[i + 1]))
			return -1;
	return 0;
}

/* The two names of a clause: before and after the verb ("把A接到B"), or
 * both after it ("连接A和B", "connect A to B"). 1 when there are two. */
static int gr_two(const char *b, size_t bn, const char *a, size_t an, const char **l,
		  size_t *ln, const char **r, size_t *rn)
{
	if (bn && an) {
		*l = b, *ln = bn, *r = a, *rn = an;
		return 1;
	}
	if (an && gr_split2(a, an, gr_pair_seps, l, ln, r, rn))
		return 1;
	return bn && gr_split2(b, bn, gr_pair_seps, l, ln, r, rn);
}

/* The node a connection names, or one it asks for anew ("连到一个新的图片
 * 预览", "to a new preview"): added, then its index. 0, or -1 said. */
static int gr_pick_or_new(struct gr_plan *p, const char *s, size_t n, size_t *out)
{
	static const char *const fresh[] = { "一个新的", "一个新", "新的", "新建的", "另一个", "a new ",
		"new ", "another ", NULL };
	const char *q = s;
	size_t qn = n;

	gr_trim(&q, &qn);
	for (size_t i = 0; fresh[i]; i++) {
		size_t l = strlen(fresh[i]);

		if (qn > l && !strncasecmp(q, fresh[i], l)) {
			size_t before = p->nn;

			if (gr_add_one(p, q + l, qn - l) || p->nn == before)
				return -1;
			*out = p->nn - 1;
			return 0;
		}
	}
	return gr_pick(p, s, n, out);
}

int gr_op_connect(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	const char *l, *r;
	size_t ln, rn, s, t;
	char *one;
	int them;

	if (gr_two(b, bn, a, an, &l, &ln, &r, &rn)) {
		char *rl = gr_name_clean(r, rn, NULL);

		/* "把它们连起来": one name before the verb, the rest a word. */
		them = gr_pronoun(rl) == 1 && !strcmp(rl, "起来");
		free(rl);
		if (!them)
			return gr_pick_or_new(p, l, ln, &s) || gr_pick_or_new(p, r, rn, &t) ? -1 : gr_link(p, s, t);
		a = l, an = ln;
	}
	one = gr_name_clean(an ? a : b, an ? an : bn, NULL);
	them = gr_pronoun(one) == 1;
	free(one);
	if (them)
		return gr_link_them(p);
	return gr_fail(p, "要把「%.*s」连到哪个节点？", "What should \"%.*s\" be connected to?",
		       (int)(an ? an : bn), an ? a : b);
}

/* -- disconnect --------------------------------------------------------------- */

/* The clause without the words for edges ("之间的连线", "the edge between"). */
static char *gr_unedge(const char *s, size_t n)
{
	static const char *const words[] = { "之间的连线", "之间的连接", "的连线", "的连接", "连线",
		"连接", "的所有", "所有", "the connections between", "the connection between",
		"the edges between", "the edge between", "the link between", "the links between",
		"connections between", "connection between", "edges between", "edge between",
		"the edges of", "the edge", "the connection", "all edges of", "edges of", "between",
		"connection", "edges", "edge", "link", "wire", "all", NULL };
	char *c = xstrndup(s, n);

	for (size_t i = 0; words[i]; i++) {
		long at;

		while ((at = gr_find(c, strlen(c), words[i])) >= 0)
			memmove(c + at, c + at + strlen(words[i]), strlen(c + at + strlen(words[i])) + 1);
	}
	return c;
}

static int gr_unlink(struct gr_plan *p, size_t s, size_t t, int both)
{
	int n = 0;

	for (size_t i = 0; i < p->ne; i++) {
		struct gr_edge *e = &p->edges[i];

		if (e->removed || !((e->src == s && (!both || e->dst == t)) ||
				    (e->dst == s && (!both || e->src == t)) ||
				    (both && e->src == t && e->dst == s)))
			continue;
		gr_edge_drop(p, e);
		n++;
	}
	if (!n && both)
		return gr_fail(p, "「%s」和「%s」之间没有连线。", "\"%s\" and \"%s\" are not connected.",
			       gr_node_label(p, s), gr_node_label(p, t));
	if (!n)
		return gr_fail(p, "「%s」没有连线。", "\"%s\" has no edges.", gr_node_label(p, s));
	if (both)
		gr_done(p, "断开了「%s」和「%s」之间的 %d 条连线",
			"removed the edges between \"%s\" and \"%s\" (%d)", gr_node_label(p, s),
			gr_node_label(p, t), n);
	else
		gr_done(p, "断开了「%s」的 %d 条连线", "removed the edges of \"%s\" (%d)",
			gr_node_label(p, s), n);
	return 0;
}

int gr_op_disconnect(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	char *cb = gr_unedge(b, bn), *ca = gr_unedge(a, an);
	const char *l, *r, *sa = ca, *sb = cb;
	size_t ln, rn, s, t, la = strlen(ca), lb = strlen(cb);
	int rc;

	gr_trim(&sa, &la);
	gr_trim(&sb, &lb);
	if (la && lb && gr_split2(sb, lb, gr_pair_seps, &l, &ln, &r, &rn) == 0 &&
	    gr_split2(sa, la, gr_pair_seps, &l, &ln, &r, &rn) == 0)
		l = sb, ln = lb, r = sa, rn = la;      /* "把A从B断开" */
	else if (!gr_two(sb, lb, sa, la, &l, &ln, &r, &rn))
		l = la ? sa : sb, ln = la ? la : lb, r = NULL, rn = 0;
	if (!ln)
		rc = gr_fail(p, "要断开哪两个节点？", "Which two nodes should I disconnect?");
	else if (gr_pick(p, l, ln, &s) || (rn && gr_pick(p, r, rn, &t)))
		rc = -1;
	else
		rc = gr_unlink(p, s, rn ? t : s, rn > 0);
	free(ca);
	free(cb);
	return rc;
}

/* -- rename -------------------------------------------------------------------- */

int gr_op_rename(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	static const char *const to[] = { "为", "成", "to", "as", NULL };
	const char *l = b, *r = a;
	size_t ln = bn, rn = an, k;
	char *path, *name;

	if (!bn && !gr_split2_last(a, an, to, &l, &ln, &r, &rn))
		return gr_fail(p, "要把哪个节点改成什么名字？例如“把大模型对话重命名为写作助手”。",
			       "Rename which node to what? For example \"rename the LLM chat to Writer\".");
	gr_trim(&r, &rn);
	if (!rn)
		return gr_fail(p, "新名字是什么？", "What is the new name?");
	if (gr_pick(p, l, ln, &k))
		return -1;
	name = xstrndup(r, rn);
	path = gr_path("nodes", p->nodes[k].id, "/displayName");
	gr_emit(p, p->nodes[k].display ? "replace" : "add", path, json_string(name));
	gr_done(p, "把「%s」重命名为「%s」", "renamed \"%s\" to \"%s\"", gr_node_label(p, k), name);
	free(p->nodes[k].display);
	p->nodes[k].display = name;
	free(path);
	return 0;
}
