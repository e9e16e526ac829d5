/* Structural edits of the offline planner (graph_rules.h): a node put
 * between two connected nodes (the edge rewired through it on slots that
 * fit), after or before one node, a node replaced by another type keeping
 * the edges that still fit, nodes chained in order, and several sources
 * connected to one node by their slots ("the image and its mask into the
 * inpaint"). What cannot be done of such an edit is said with why, and
 * the rest is kept: a node that could not be wired in stays added. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules_int.h"

static const char *const gr_and_seps[] = { "和", "与", "跟", "、", "以及", "，", ",", "and",
					   "&", "plus", NULL };
static const char *const gr_dir_seps[] = { "连到", "接到", "连向", "输入到", "送到", "传给", "到",
					   "→", "->", "into", "onto", "to", NULL };

/* -- saying what edges were made ------------------------------------------ */

/* "A.x → B.y, B.z → C.w" of the edges from index from on. */
static void gr_edges_say(const struct gr_plan *p, size_t from, struct buf *b)
{
	int first = 1;

	for (size_t i = from; i < p->ne; i++) {
		const struct gr_edge *e = &p->edges[i];

		if (e->removed)
			continue;
		buf_printf(b, p->zh ? "%s「%s」.%s → 「%s」.%s" : "%s\"%s\".%s → \"%s\".%s",
			   first ? "" : (p->zh ? "，" : ", "), gr_node_label(p, e->src), e->sh,
			   gr_node_label(p, e->dst), e->th);
		first = 0;
	}
}

/* Undoes the edges made since (ops, ne) and brings back edge keep. */
static void gr_unwire(struct gr_plan *p, size_t ops, size_t ne, struct gr_edge *keep)
{
	while (json_array_size(p->patch) > ops)
		json_array_remove(p->patch, json_array_size(p->patch) - 1);
	for (size_t i = ne; i < p->ne; i++)
		p->edges[i].removed = 1;
	if (keep)
		keep->removed = 0;
}

/* The live edge from s to t (to t's slot th when th), or NULL. */
static struct gr_edge *gr_edge_between(struct gr_plan *p, size_t s, size_t t)
{
	for (size_t i = 0; i < p->ne; i++)
		if (!p->edges[i].removed && p->edges[i].src == s && p->edges[i].dst == t)
			return &p->edges[i];
	return NULL;
}

/* -- insert ------------------------------------------------------------------ */

/* Node x (just added) between s and t: the edge s -> t, when there is one,
 * goes through x on the slots it used; else s -> x -> t by type. 0, or -1
 * with p->why (nothing wired then). */
static int gr_wire_between(struct gr_plan *p, size_t s, size_t x, size_t t)
{
	struct gr_edge *e = gr_edge_between(p, s, t);
	size_t ops = json_array_size(p->patch), ne = p->ne;
	char *sh = e ? xstrdup(e->sh) : NULL, *th = e ? xstrdup(e->th) : NULL;
	int rc;

	if (e)
		gr_edge_drop(p, e);
	rc = gr_link_on(p, s, sh, x, NULL) || gr_link_on(p, x, NULL, t, th) ? -1 : 0;
	if (rc && e) {
		/* Another output slot of s may still fit x. */
		gr_unwire(p, ops, ne, NULL);
		rc = gr_link_on(p, s, NULL, x, NULL) || gr_link_on(p, x, NULL, t, th) ? -1 : 0;
	}
	if (rc)
		gr_unwire(p, ops, ne, e);
	if (rc && e && !e->id)
		gr_unwire(p, ops, ne, NULL);
	if (!rc && e && !e->id)          /* an edge an earlier clause made, said there */
		buf_printf(&p->undone, p->zh ? "%s「%s」.%s → 「%s」.%s" : "%s\"%s\".%s → \"%s\".%s",
			   p->undone.len ? (p->zh ? "，" : ", ") : "", gr_node_label(p, e->src), e->sh,
			   gr_node_label(p, e->dst), e->th);
	free(sh), free(th);
	return rc;
}

/* Node x after s: s feeds x, and what s fed from that slot now comes from
 * x when x's output fits it. */
static int gr_wire_after(struct gr_plan *p, size_t s, size_t x)
{
	size_t ne0 = p->ne, nfed = 0, fed[16];

	for (size_t i = 0; i < p->ne && nfed < 16; i++)
		if (!p->edges[i].removed && p->edges[i].src == s)
			fed[nfed++] = i;
	for (size_t i = 0; i < nfed; i++) {
		struct gr_edge *e = &p->edges[fed[i]];

		if (!gr_wire_between(p, s, x, e->dst))
			return 0;
		buf_reset(&p->why);
	}
	for (size_t i = ne0; i < p->ne; i++)
		if (!p->edges[i].removed)
			return 0;
	return gr_link(p, s, x);
}

/* Node x before t: what fed t now feeds x, and x feeds t. */
static int gr_wire_before(struct gr_plan *p, size_t x, size_t t)
{
	for (size_t i = 0; i < p->ne; i++) {
		struct gr_edge *e = &p->edges[i];

		if (e->removed || e->dst != t)
			continue;
		if (!gr_wire_between(p, e->src, x, t))
			return 0;
		buf_reset(&p->why);
	}
	return gr_link(p, x, t);
}

enum gr_where { GR_BETWEEN, GR_AFTER, GR_BEFORE };

struct gr_marker {
	const char *w;
	enum gr_where where;
	int en;       /* English: the place follows the word */
};

static const struct gr_marker gr_markers[] = {
	{ "之间", GR_BETWEEN, 0 }, { "中间", GR_BETWEEN, 0 }, { "between", GR_BETWEEN, 1 },
	{ "in between", GR_BETWEEN, 1 }, { "的后面", GR_AFTER, 0 }, { "后面", GR_AFTER, 0 },
	{ "之后", GR_AFTER, 0 }, { "后边", GR_AFTER, 0 }, { "后", GR_AFTER, 0 },
	{ "right after", GR_AFTER, 1 }, { "after", GR_AFTER, 1 }, { "behind", GR_AFTER, 1 },
	{ "downstream of", GR_AFTER, 1 }, { "的前面", GR_BEFORE, 0 }, { "前面", GR_BEFORE, 0 },
	{ "之前", GR_BEFORE, 0 }, { "前边", GR_BEFORE, 0 }, { "in front of", GR_BEFORE, 1 },
	{ "right before", GR_BEFORE, 1 }, { "before", GR_BEFORE, 1 }, { "ahead of", GR_BEFORE, 1 },
	{ "upstream of", GR_BEFORE, 1 },
};

/* The first marker in [s, s+n): its entry and place, or NULL. */
static const struct gr_marker *gr_marker_in(const char *s, size_t n, long *at)
{
	const struct gr_marker *best = NULL;
	long b = -1;

	for (size_t i = 0; i < sizeof gr_markers / sizeof gr_markers[0]; i++) {
		long k = gr_find(s, n, gr_markers[i].w);

		if (k >= 0 && (b < 0 || k < b || (k == b && strlen(gr_markers[i].w) > strlen(best->w))))
			b = k, best = &gr_markers[i];
	}
	*at = b;
	return best;
}

/* The place words without "在", "to", "the" around them. */
static void gr_place_trim(const char **s, size_t *n)
{
	static const char *const lead[] = { "在", "到", "于", "放在", "at", "to", "the", "of", NULL };
	int again = 1;

	gr_trim(s, n);
	while (again) {
		again = 0;
		for (size_t i = 0; lead[i]; i++) {
			size_t l = strlen(lead[i]);

			if (*n > l && gr_find(*s, l + ((*s)[l] == ' '), lead[i]) == 0) {
				*s += l, *n -= l, again = 1;
				gr_trim(s, n);
			}
		}
	}
}

/* The node to add: one definition, or -1 with p->why. */
static int gr_what(struct gr_plan *p, const char *s, size_t n, const json_t **def)
{
	char *name = gr_name_clean(s, n, NULL);
	struct buf b;

	if (!*name) {
		free(name);
		*def = NULL;
		return gr_fail(p, "要添加什么节点？", "Which node should I add?");
	}
	*def = gr_def_best(p, name);
	if (*def) {
		free(name);
		return 0;
	}
	buf_init(&b, 2048);
	gr_def_close(p, name, 3, &b);
	gr_fail(p, "没有找到叫「%s」的节点类型；相近的有：%s。", "No node type is called \"%s\"; "
		"close ones: %s.", name, b.data);
	buf_free(&b);
	free(name);
	return -1;
}

static int gr_place_node(struct gr_plan *p, const json_t *def, enum gr_where where, size_t s,
			 size_t t)
{
	size_t x = gr_emit_node(p, def), ne = p->ne;
	int rc;
	struct buf w;

	p->quiet++;
	buf_reset(&p->undone);
	rc = where == GR_BETWEEN ? gr_wire_between(p, s, x, t) :
	     where == GR_AFTER ? gr_wire_after(p, s, x) : gr_wire_before(p, x, s);
	p->quiet--;
	buf_init(&w, 2048);
	if (rc == 0) {
		gr_edges_say(p, ne, &w);
		if (p->undone.len)
			buf_printf(&w, p->zh ? "（取代了 %s）" : " (in place of %s)", p->undone.data);
		buf_reset(&p->undone);
		if (!w.len)
			buf_adds(&w, "");
		if (where == GR_BETWEEN)
			gr_done(p, "在「%s」和「%s」之间插入了「%s」(%s)：%s",
				"inserted \"%s\" (%s) between \"%s\" and \"%s\": %s", p->zh ?
				gr_node_label(p, s) : gr_node_label(p, x), p->zh ? gr_node_label(p, t) :
				p->nodes[x].id, p->zh ? gr_node_label(p, x) : gr_node_label(p, s), p->zh ?
				p->nodes[x].id : gr_node_label(p, t), w.data);
		else
			gr_done(p, "在「%s」%s加了「%s」(%s)：%s", "added \"%s\" (%s) %s \"%s\": %s",
				p->zh ? gr_node_label(p, s) : gr_node_label(p, x), p->zh ?
				(where == GR_AFTER ? "后面" : "前面") : p->nodes[x].id, p->zh ?
				gr_node_label(p, x) : (where == GR_AFTER ? "after" : "before"), p->zh ?
				p->nodes[x].id : gr_node_label(p, s), w.data);
	} else {
		buf_adds(&w, p->why.data);
		gr_done(p, "添加了「%s」(%s)", "added \"%s\" (%s)", gr_node_label(p, x), p->nodes[x].id);
		if (where == GR_BETWEEN)
			gr_fail(p, "「%s」没能接在「%s」和「%s」之间：%s", "\"%s\" could not be connected "
				"between \"%s\" and \"%s\": %s", gr_node_label(p, x), gr_node_label(p, s),
				gr_node_label(p, t), w.data);
		else
			gr_fail(p, "「%s」没能接在「%s」%s：%s", "\"%s\" could not be connected %s \"%s\": %s",
				gr_node_label(p, x), p->zh ? gr_node_label(p, s) : (where == GR_AFTER ?
				"after" : "before"), p->zh ? (where == GR_AFTER ? "后面" : "前面") :
				gr_node_label(p, s), w.data);
		gr_note(p);
	}
	buf_free(&w);
	p->last_from = x, p->last_to = x + 1;
	return 0;
}

int gr_struct_add(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an, int *rc)
{
	long at, bat;
	const struct gr_marker *m = gr_marker_in(a, an, &at), *mb = gr_marker_in(b, bn, &bat);
	const char *pl, *what, *l, *r, *ms = a;
	size_t pn, wn, ln, rn, ml = an, s, t = 0;
	const json_t *def;

	if (!m && !mb)
		return 0;
	if (!m || (mb && bn))
		m = mb, at = bat, ms = b, ml = bn;
	if (m->en)
		pl = ms + at + strlen(m->w), pn = ml - (size_t)at - strlen(m->w), what = ms,
		wn = (size_t)at;
	else
		pl = ms, pn = (size_t)at, what = ms + at + strlen(m->w), wn = ml - (size_t)at - strlen(m->w);
	gr_trim(&what, &wn);
	if (!m->en && !wn) {
		/* "加一个X接在A后面": the place starts after the verb of placing. */
		static const char *const put[] = { "接在", "放在", "连在", "插在", "加在", "接到", "放到",
						   NULL };
		const char *x, *y;
		size_t xn, yn;

		if (gr_split2(pl, pn, put, &x, &xn, &y, &yn))
			what = x, wn = xn, pl = y, pn = yn;
	}
	if (!wn)
		what = ms == a ? b : a, wn = ms == a ? bn : an;
	gr_place_trim(&pl, &pn);
	gr_trim(&what, &wn);
	*rc = -1;
	if (gr_what(p, what, wn, &def))
		return 1;
	if (m->where == GR_BETWEEN) {
		if (!gr_split2(pl, pn, gr_and_seps, &l, &ln, &r, &rn))
			return gr_fail(p, "要插在哪两个节点之间？", "Between which two nodes?"), 1;
		if (gr_pick(p, l, ln, &s) || gr_pick(p, r, rn, &t))
			return 1;
		/* "between B and A" when the edge runs A -> B. */
		if (!gr_edge_between(p, s, t) && gr_edge_between(p, t, s)) {
			size_t k = s;

			s = t, t = k;
		}
	} else if (gr_pick(p, pl, pn, &s)) {
		return 1;
	}
	*rc = gr_place_node(p, def, m->where, s, t);
	return 1;
}

/* -- replace ------------------------------------------------------------------ */

struct gr_old_edge {
	size_t other;
	char *mine, *theirs;
	int in;           /* into the old node */
};

/* The edges of the old node, copied. */
static size_t gr_old_edges(struct gr_plan *p, size_t k, struct gr_old_edge *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ne && n < max; i++) {
		const struct gr_edge *e = &p->edges[i];

		if (e->removed || (e->src != k && e->dst != k))
			continue;
		out[n].in = e->dst == k;
		out[n].other = out[n].in ? e->src : e->dst;
		out[n].mine = xstrdup(out[n].in ? e->th : e->sh);
		out[n].theirs = xstrdup(out[n].in ? e->sh : e->th);
		n++;
	}
	return n;
}

/* One old edge on the new node x: the slot of the same name first. */
static int gr_rewire(struct gr_plan *p, const struct gr_old_edge *o, size_t x)
{
	const char *same = json_object_get(json_object_get(p->nodes[x].def, o->in ? "inputs" :
							   "outputs"), o->mine) ? o->mine : NULL;

	if (o->in)
		return (same && !gr_link_on(p, o->other, o->theirs, x, same)) ||
		       !gr_link_on(p, o->other, o->theirs, x, NULL) ? 0 : -1;
	return (same && !gr_link_on(p, x, same, o->other, o->theirs)) ||
	       !gr_link_on(p, x, NULL, o->other, o->theirs) ? 0 : -1;
}

static void gr_replace_do(struct gr_plan *p, size_t k, const json_t *def)
{
	struct gr_old_edge old[32];
	size_t n = gr_old_edges(p, k, old, 32), x, ne;
	struct buf lost, kept;
	char *was = xstrdup(gr_node_label(p, k)), *wid = xstrdup(p->nodes[k].id);

	gr_node_drop(p, k);
	x = gr_emit_node(p, def);
	ne = p->ne;
	buf_init(&lost, 2048);
	buf_init(&kept, 2048);
	p->quiet++;
	for (size_t i = 0; i < n; i++) {
		if (gr_rewire(p, &old[i], x) == 0)
			continue;
		buf_printf(&lost, p->zh ? "%s「%s」.%s → 「%s」.%s" : "%s\"%s\".%s → \"%s\".%s",
			   lost.len ? (p->zh ? "，" : ", ") : "",
			   old[i].in ? gr_node_label(p, old[i].other) : was,
			   old[i].in ? old[i].theirs : old[i].mine, old[i].in ? was :
			   gr_node_label(p, old[i].other), old[i].in ? old[i].mine : old[i].theirs);
	}
	p->quiet--;
	buf_reset(&p->why);
	gr_edges_say(p, ne, &kept);
	if (kept.len)
		gr_done(p, "把「%s」(%s) 换成了「%s」(%s)，保留的连线：%s",
			"replaced \"%s\" (%s) with \"%s\" (%s), keeping %s", was, wid,
			gr_node_label(p, x), p->nodes[x].id, kept.data);
	else
		gr_done(p, "把「%s」(%s) 换成了「%s」(%s)", "replaced \"%s\" (%s) with \"%s\" (%s)", was,
			wid, gr_node_label(p, x), p->nodes[x].id);
	if (lost.len) {
		gr_fail(p, "这些连线没能保留，因为「%s」没有类型相合且空着的槽：%s。",
			"these edges could not be kept, since \"%s\" has no free slot whose type fits: "
			"%s.", gr_node_label(p, x), lost.data);
		gr_note(p);
	}
	for (size_t i = 0; i < n; i++)
		free(old[i].mine), free(old[i].theirs);
	buf_free(&lost), buf_free(&kept);
	free(was), free(wid);
	p->last_from = x, p->last_to = x + 1;
}

int gr_op_replace(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an)
{
	static const char *const with[] = { "with", "by", "for", "为", "成", "into", NULL };
	const char *o = b, *nw = a, *l, *r;
	size_t on = bn, nn = an, ln, rn, k;
	const json_t *def;

	if (bn >= 3 && (!strncmp(b, "用", 3) || !strncmp(b, "拿", 3))) {
		o = a, on = an, nw = b + 3, nn = bn - 3;          /* 用B替换A */
	} else if (!bn && gr_split2(a, an, with, &l, &ln, &r, &rn)) {
		o = l, on = ln, nw = r, nn = rn;
	}
	gr_trim(&o, &on);
	gr_trim(&nw, &nn);
	if (!on || !nn)
		return gr_fail(p, "要把哪个节点换成什么？例如“把摘要总结换成翻译”。",
			       "Replace which node with what? For example \"replace the summary with a "
			       "translator\".");
	if (gr_pick(p, o, on, &k) || gr_what(p, nw, nn, &def))
		return -1;
	if (!strcmp(json_string_value(json_object_get(def, "type")) ?: "", p->nodes[k].type))
		return gr_fail(p, "「%s」已经是「%s」了。", "\"%s\" is already a \"%s\".",
			       gr_node_label(p, k), gr_def_label(def, p->zh));
	gr_replace_do(p, k, def);
	return 0;
}

int gr_set_as_replace(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an,
		      int *rc)
{
	static const char *const into[] = { "into", "to", "为", "成", NULL };
	const char *o = b, *nw = a, *l, *r;
	size_t on = bn, nn = an, ln, rn, idx[2];
	const json_t *def;
	char *oname, *nname;
	int fits;

	if (!bn && gr_split2_last(a, an, into, &l, &ln, &r, &rn))
		o = l, on = ln, nw = r, nn = rn;
	gr_trim(&o, &on);
	gr_trim(&nw, &nn);
	if (on >= 3 && (!strncmp(o, "把", 3) || !strncmp(o, "将", 3)))
		o += 3, on -= 3;
	if (!on || !nn)
		return 0;
	oname = gr_name_clean(o, on, NULL);
	nname = gr_name_clean(nw, nn, NULL);
	if (strstr(oname, "'s") || strstr(oname, "的") || strstr(oname, " of ")) {
		free(oname), free(nname);
		return 0;
	}
	def = gr_def_best(p, nname);
	/* "总结用要点列表": a value of one of the node's options is a setting. */
	fits = gr_node_find(p, oname, idx, 2) == 1 && def && gr_def_score(nname, def) >= 20 &&
	       !gr_param_find(p->nodes[idx[0]].def, oname) &&
	       !gr_param_by_value(p->nodes[idx[0]].def, nname);
	free(oname), free(nname);
	if (!fits)
		return 0;
	if (!strcmp(json_string_value(json_object_get(def, "type")) ?: "", p->nodes[idx[0]].type))
		return 0;
	gr_replace_do(p, idx[0], def);
	*rc = 0;
	return 1;
}

/* -- connect several ------------------------------------------------------------ */

static const char *const gr_chain_words[] = { "依次", "按顺序", "按照顺序", "顺次", "逐个",
	"一个接一个", "串起来", "串联", "in order", "in sequence", "in a chain", "in a row",
	"one after another", "one after the other", "chain", "together", "up", NULL };

/* The slot of node k a word names, also with "input", "输出" after it. */
static const char *gr_slot_word(const struct gr_plan *p, size_t k, const char *w, int input)
{
	static const char *const tails[] = { " input", " output", " slot", "输入", "输出", "端口",
					     "口", NULL };
	const char *slot = gr_slot_named(p, k, w, input);
	size_t n = strlen(w);

	for (size_t i = 0; tails[i] && !slot; i++) {
		size_t l = strlen(tails[i]);

		if (n > l && !strcmp(w + n - l, tails[i])) {
			char *c = xstrndup(w, n - l);

			slot = gr_slot_named(p, k, c, input);
			free(c);
		}
	}
	return slot;
}

/* One end of an edge: a node and maybe its slot ("抠图的蒙版", "the
 * remover's mask", "its mask", "mask" after a node). 0, or -1 with why. */
static int gr_end(struct gr_plan *p, const char *s, size_t n, int input, size_t prev,
		  size_t *node, const char **slot)
{
	size_t item = prev;
	static const char *const poss[] = { "的", "'s", NULL };
	static const char *const its[] = { "its ", "it's ", "它的", "其", NULL };
	const char *l, *r;
	size_t ln, rn, idx[2];
	char *w;

	*slot = NULL;
	gr_trim(&s, &n);
	if (prev == (size_t)-1 && p->prev_ref < p->nn && !p->nodes[p->prev_ref].removed)
		prev = p->prev_ref;              /* "its topic": the node named before */
	for (size_t i = 0; its[i] && prev != (size_t)-1; i++)
		if (n > strlen(its[i]) && gr_find(s, strlen(its[i]), its[i]) == 0) {
			w = gr_name_clean(s + strlen(its[i]), n - strlen(its[i]), NULL);
			*node = prev, *slot = gr_slot_word(p, prev, w, input);
			free(w);
			if (*slot)
				return 0;
		}
	if (gr_split2_last(s, n, poss, &l, &ln, &r, &rn)) {
		char *nm = gr_name_clean(l, ln, NULL);

		w = gr_name_clean(r, rn, NULL);
		if (gr_node_find(p, nm, idx, 2) == 1 && (*slot = gr_slot_word(p, idx[0], w, input))) {
			*node = idx[0];
			free(nm), free(w);
			return 0;
		}
		free(nm), free(w);
	}
	w = gr_name_clean(s, n, NULL);
	if (item != (size_t)-1 && (*slot = gr_slot_word(p, item, w, input))) {
		*node = item;
		free(w);
		return 0;
	}
	free(w);
	return gr_pick(p, s, n, node);
}

#define GR_ENDS 16

struct gr_ends {
	size_t node[GR_ENDS];
	const char *slot[GR_ENDS];
	size_t n;
	int them;         /* read from "them": a node of the other side is left out */
};

/* The items of a list, each an end. 0, or -1 with why. */
static int gr_ends_read(struct gr_plan *p, const char *s, size_t n, int input,
			const char *const *seps, struct gr_ends *e)
{
	const char *l, *r;
	size_t ln, rn, prev = (size_t)-1;

	char *w;

	e->n = 0;
	e->them = 0;
	gr_trim(&s, &n);
	w = gr_name_clean(s, n, NULL);
	if (*w && gr_pronoun(w) == 1) {          /* "them": the nodes just added */
		free(w);
		e->them = 1;
		for (size_t i = p->last_from; i < p->last_to && e->n < GR_ENDS; i++)
			if (!p->nodes[i].removed)
				e->slot[e->n] = NULL, e->node[e->n++] = i;
		for (size_t i = 0; i < p->nn && e->n < GR_ENDS && !e->n; i++)
			if (p->nodes[i].added && !p->nodes[i].removed)
				e->slot[e->n] = NULL, e->node[e->n++] = i;
		return e->n ? 0 : gr_fail(p, "“它们”指哪些节点？", "Which nodes are \"them\"?");
	}
	free(w);
	while (e->n < GR_ENDS - 1 && gr_split2(s, n, seps, &l, &ln, &r, &rn)) {
		if (gr_end(p, l, ln, input, prev, &e->node[e->n], &e->slot[e->n]))
			return -1;
		prev = e->node[e->n++];
		s = r, n = rn;
	}
	if (!n)
		return gr_fail(p, "要连接哪些节点？", "Which nodes should I connect?");
	if (gr_end(p, s, n, input, prev, &e->node[e->n], &e->slot[e->n]))
		return -1;
	e->n++;
	return 0;
}

/* The clause with the chain words and leading "把" taken out. New string. */
static char *gr_unchain(const char *s, size_t n, int *chain)
{
	char *c = xstrndup(s, n);

	*chain = 0;
	for (size_t i = 0; gr_chain_words[i]; i++) {
		long at;

		while ((at = gr_find(c, strlen(c), gr_chain_words[i])) >= 0) {
			size_t l = strlen(gr_chain_words[i]);

			memmove(c + at, c + at + l, strlen(c + at + l) + 1);
			*chain |= i < 15;
		}
	}
	return c;
}

/* Links each pair; the failures noted. 0 when one link was made. */
static int gr_link_each(struct gr_plan *p, struct gr_ends *from, struct gr_ends *to,
			int chain)
{
	int made = 0;
	size_t pairs = chain ? from->n - 1 : from->n * to->n;

	for (size_t i = 0; i < pairs; i++) {
		size_t s = chain ? i : i / to->n, t = chain ? i + 1 : i % to->n;
		const char *so = chain ? NULL : from->slot[s], *ti = chain ? NULL : to->slot[t];

		const struct gr_edge *e = gr_edge_between(p, from->node[s], to->node[t]);

		if (from->node[s] == to->node[t] && (from->them || to->them || chain))
			continue;
		if (from->node[s] == to->node[t]) {
			gr_fail(p, "不能把「%s」连到它自己。", "\"%s\" cannot be connected to itself.",
				gr_node_label(p, from->node[s]));
			gr_note(p);
			continue;
		}
		if (e && (!so || !strcmp(so, e->sh)) && (!ti || !strcmp(ti, e->th))) {
			gr_fail(p, "「%s」的 %s 已经连着「%s」的 %s。", "\"%s\".%s is already connected to "
				"\"%s\".%s.", gr_node_label(p, e->src), e->sh, gr_node_label(p, e->dst), e->th);
			gr_note(p);
			continue;
		}
		if (gr_link_on(p, from->node[s], so, to->node[t], ti))
			gr_note(p);
		else
			made++;
	}
	return made ? 0 : -1;
}

static int gr_chain_them(struct gr_plan *p, const char *s)
{
	struct gr_ends e = { .n = 0 };
	char *w = gr_name_clean(s, strlen(s), NULL);
	int empty = !*w, them = gr_pronoun(w) == 1 || empty;

	free(w);
	if (!them)
		return -1;
	for (size_t i = p->last_from; i < p->last_to && e.n < GR_ENDS; i++)
		if (!p->nodes[i].removed)
			e.node[e.n++] = i;
	if (e.n < 2)
		for (size_t i = e.n = 0; i < p->nn && e.n < GR_ENDS; i++)
			if (p->nodes[i].added && !p->nodes[i].removed)
				e.node[e.n++] = i;
	if (e.n < 2 && empty)
		return gr_fail(p, "要依次连接哪些节点？请说出它们的名字，例如“把文本输入、翻译和文本预览依次连起来”。",
			       "Which nodes should I chain? Name them, for example \"chain the text "
			       "input, the translator and the preview in order\".");
	if (e.n < 2)          /* "all of them", nothing added: the canvas's nodes in their order */
		for (size_t i = e.n = 0; i < p->nn && e.n < GR_ENDS; i++)
			if (!p->nodes[i].removed)
				e.node[e.n++] = i;
	if (e.n < 2)
		return gr_fail(p, "画布上不到两个节点，没有可以依次连接的。",
			       "There are fewer than two nodes to chain.");
	for (size_t i = 0; i < e.n; i++)
		e.slot[i] = NULL;
	return gr_link_each(p, &e, &e, 1);
}

/* "把X接在Y后面", "connect X after Y", "X goes before Y": 1 when the
 * clause names a place, with *rc. */
static int gr_connect_placed(struct gr_plan *p, const char *b, size_t bn, const char *a,
			     size_t an, int *rc)
{
	long at;
	const struct gr_marker *m = gr_marker_in(a, an, &at);
	const char *pl, *x;
	size_t pn, xn, ps, xs;

	if (!m || m->where == GR_BETWEEN)
		return 0;
	if (m->en)
		pl = a + at + strlen(m->w), pn = an - (size_t)at - strlen(m->w), x = a, xn = (size_t)at;
	else
		pl = a, pn = (size_t)at, x = b, xn = bn;
	gr_trim(&x, &xn);
	if (!xn)
		x = b, xn = bn;
	gr_place_trim(&pl, &pn);
	if (xn >= 3 && (!strncmp(x, "把", 3) || !strncmp(x, "将", 3)))
		x += 3, xn -= 3;
	*rc = -1;
	if (!pn || !xn || gr_pick(p, pl, pn, &ps) || gr_pick(p, x, xn, &xs))
		return 1;
	*rc = m->where == GR_AFTER ? gr_link(p, ps, xs) : gr_link(p, xs, ps);
	return 1;
}

/* "chain A, B and C", "把它们依次连起来": *rc. */
static int gr_connect_chain(struct gr_plan *p, const char *s, size_t n)
{
	static const char *const seps[] = { "和", "与", "、", "，", ",", "and", "→", "->", "到", "to",
					    "then", NULL };
	struct gr_ends e;
	char *one = xstrndup(s, n);
	int rc = gr_chain_them(p, one);

	free(one);
	if (rc != -1 || p->why.len)
		return rc;
	if (gr_ends_read(p, s, n, 0, seps, &e))
		return -1;
	if (e.n < 2)
		return gr_fail(p, "要依次连接哪些节点？", "Which nodes should I chain?");
	return gr_link_each(p, &e, &e, 1);
}

/* "A和B接到C", "the image and its mask into the inpaint", "A to B to C":
 * 1 when the clause was one of these (*rc), 0 when it is a plain pair. */
static int gr_connect_lists(struct gr_plan *p, const char *s, size_t n, const char *b,
			    size_t bn, const char *a, size_t an, int *rc)
{
	static const char *const arrows[] = { "→", "->", "到", "to", "then", "into", NULL };
	struct gr_ends from, to;
	const char *l, *r, *x;
	size_t ln, rn, xn;
	int multi;

	if (gr_split2(s, n, arrows, &l, &ln, &r, &rn) && gr_split2(r, rn, arrows, &l, &ln, &r, &rn)) {
		*rc = gr_ends_read(p, s, n, 0, arrows, &from) ? -1 : gr_link_each(p, &from, &from, 1);
		return 1;
	}
	if (!gr_split2(s, n, gr_dir_seps, &l, &ln, &r, &rn) &&
	    !(bn && an && (l = b, ln = bn, r = a, rn = an)))
		return 0;
	if (ln >= 3 && (!strncmp(l, "把", 3) || !strncmp(l, "将", 3)))
		l += 3, ln -= 3;
	multi = gr_split2(l, ln, gr_and_seps, &x, &xn, &x, &xn) ||
		gr_split2(r, rn, gr_and_seps, &x, &xn, &x, &xn);
	buf_reset(&p->why);
	if (gr_ends_read(p, l, ln, 0, gr_and_seps, &from) || gr_ends_read(p, r, rn, 1, gr_and_seps, &to)) {
		/* Not a list of nodes after all: the plain connect says why. */
		if (!multi)
			buf_reset(&p->why);
		*rc = -1;
		return multi;
	}
	if (!multi && from.n == 1 && to.n == 1 && !from.slot[0] && !to.slot[0])
		return 0;
	*rc = gr_link_each(p, &from, &to, 0);
	return 1;
}

int gr_struct_connect(struct gr_plan *p, const char *v, size_t vn, const char *b, size_t bn,
		      const char *a, size_t an, int *rc)
{
	char *whole = xasprintf("%.*s %.*s", (int)bn, b, (int)an, a), *c;
	const char *s;
	size_t n;
	int chain, by_verb, mine;

	c = gr_unchain(whole, strlen(whole), &chain);
	free(whole);
	whole = gr_unchain(v, vn, &by_verb);
	free(whole);
	s = c, n = strlen(c);
	gr_trim(&s, &n);
	if (n >= 3 && (!strncmp(s, "把", 3) || !strncmp(s, "将", 3)))
		s += 3, n -= 3;
	gr_trim(&s, &n);
	if (chain || by_verb)
		*rc = gr_connect_chain(p, s, n), mine = 1;
	else
		mine = gr_connect_placed(p, b, bn, a, an, rc) || gr_connect_lists(p, s, n, b, bn, a, an, rc);
	free(c);
	return mine;
}
