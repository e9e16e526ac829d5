/* Questions about the canvas, answered from the canvas by the offline
 * planner (graph_rules.h): how many nodes and edges, which nodes there
 * are, what feeds a node and what it feeds, which nodes are not
 * connected, which have problems. And the canvas's own problems (what
 * graph_validate finds in the workflow the person sent), said for people,
 * with the patch that mends them when asked ("fix the canvas"). */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules_int.h"
#include "wf/graph_edit/graph_validate.h"

#define GR_LIST_MAX 24     /* nodes or edges named in one answer */

static int gr_has(const char *t, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (gr_find(t, strlen(t), words[i]) >= 0)
			return 1;
	return 0;
}

/* -- the canvas's problems ----------------------------------------------------- */

static json_t *gr_defs_find(void *ctx, const char *type)
{
	const json_t *d;
	size_t i;

	json_array_foreach((json_t *)ctx, i, d)
		if (!strcmp(json_string_value(json_object_get(d, "type")) ?: "", type))
			return (json_t *)d;
	return NULL;
}

/* graph_validate's errors for the canvas of facts. New reference. */
static json_t *gr_canvas_errors(const struct gr_plan *p)
{
	json_t *wf = json_deep_copy(json_object_get(p->facts, "workflow")), *errs;
	struct graph_defs defs = { gr_defs_find, (void *)p->defs };

	if (!json_is_object(wf) || !json_is_array(p->defs)) {
		json_decref(wf);
		return json_array();
	}
	if (!json_object_get(wf, "name"))
		json_object_set_new(wf, "name", json_string("canvas"));
	if (!json_object_get(wf, "edges"))
		json_object_set_new(wf, "edges", json_array());
	if (!json_object_get(wf, "viewport"))
		json_object_set_new(wf, "viewport", json_pack("{s:i, s:i, s:i}", "x", 0, "y", 0, "zoom", 1));
	errs = graph_validate(wf, &defs, GRAPH_VALIDATE_NO_POSITION, 20);
	json_decref(wf);
	return errs;
}

/* The item of the canvas a path is under: "edges" or "nodes", its index. */
static const char *gr_path_item(const char *path, long *idx)
{
	const char *arr = !strncmp(path, "/edges/", 7) ? "edges" : !strncmp(path, "/nodes/", 7) ?
			  "nodes" : NULL;

	*idx = arr ? strtol(path + 7, NULL, 10) : -1;
	return arr;
}

static const char *gr_item_id(const struct gr_plan *p, const char *arr, long idx)
{
	const json_t *it = json_array_get(json_object_get(json_object_get(p->facts, "workflow"), arr),
					  (size_t)idx);

	return json_string_value(json_object_get(it, "id")) ?: "?";
}

/* One error said for people. */
static void gr_problem_say(const struct gr_plan *p, const json_t *e, struct buf *b)
{
	const char *code = json_string_value(json_object_get(e, "code")) ?: "";
	const char *path = json_string_value(json_object_get(e, "path")) ?: "";
	const char *msg = json_string_value(json_object_get(e, "message")) ?: code;
	long idx;
	const char *arr = gr_path_item(path, &idx), *id = arr ? gr_item_id(p, arr, idx) : "";
	int edge = arr && !strcmp(arr, "edges");

	if (!p->zh)
		buf_printf(b, "%s %s: %s.", edge ? "edge" : arr ? "node" : "the workflow", id, msg);
	else if (!strcmp(code, "dangling_edge"))
		buf_printf(b, "连线 %s 连到了画布上不存在的节点。", id);
	else if (!strcmp(code, "unknown_type"))
		buf_printf(b, "节点 %s 的类型在节点库里没有。", id);
	else if (!strcmp(code, "unknown_handle"))
		buf_printf(b, "连线 %s 用了节点上没有的槽。", id);
	else if (!strcmp(code, "type_mismatch"))
		buf_printf(b, "连线 %s 两端的数据类型不相合。", id);
	else if (!strcmp(code, "slot_taken") || !strcmp(code, "duplicate_edge"))
		buf_printf(b, "连线 %s 连到了已经被占用的输入。", id);
	else if (!strcmp(code, "self_loop"))
		buf_printf(b, "连线 %s 从节点连回了它自己。", id);
	else if (!strcmp(code, "out_of_range") || !strcmp(code, "not_allowed") ||
		 !strcmp(code, "unknown_param"))
		buf_printf(b, "节点 %s 的参数 %s 无效。", id, strrchr(path, '/') + 1);
	else
		buf_printf(b, "%s 处有问题（%s）。", *path ? path : "工作流", code);
}

size_t gr_canvas_problems(struct gr_plan *p, struct buf *b)
{
	json_t *errs = gr_canvas_errors(p), *e;
	size_t i, n = json_array_size(errs);

	json_array_foreach(errs, i, e) {
		if (i >= 8) {
			buf_printf(b, p->zh ? "还有 %zu 处。" : " And %zu more.", n - i);
			break;
		}
		if (i && !p->zh)
			buf_adds(b, " ");
		gr_problem_say(p, e, b);
	}
	json_decref(errs);
	return n;
}

/* Removes what an error is about: the edge, the node of an unknown type,
 * the invalid parameter. */
static void gr_fix_one(struct gr_plan *p, const json_t *e, json_t *seen, struct buf *said)
{
	const char *code = json_string_value(json_object_get(e, "code")) ?: "";
	const char *path = json_string_value(json_object_get(e, "path")) ?: "";
	long idx;
	const char *arr = gr_path_item(path, &idx), *id;
	char *op = NULL;

	if (!arr)
		return;
	id = gr_item_id(p, arr, idx);
	if (!strcmp(arr, "edges"))
		op = gr_path("edges", id, NULL);
	else if (!strcmp(code, "unknown_type"))
		op = gr_path("nodes", id, NULL);
	else if (strstr(path, "/configValues/"))
		op = gr_path("nodes", id, strstr(path, "/data/configValues/"));
	if (!op || json_object_get(seen, op)) {
		free(op);
		return;
	}
	json_object_set_new(seen, op, json_true());
	json_array_append_new(p->patch, json_pack("{s:s, s:s}", "op", "remove", "path", op));
	buf_printf(said, "%s%s %s%s", said->len ? (p->zh ? "、" : ", ") : "",
		   !strcmp(arr, "edges") ? (p->zh ? "连线" : "edge") : (p->zh ? "节点" : "node"), id,
		   strstr(op, "/configValues/") ? strstr(op, "/configValues/") + 13 : "");
	free(op);
}

int gr_canvas_fix(struct gr_plan *p, const char *text)
{
	static const char *const fix[] = { "修复", "修一下", "修好", "清理", "fix", "repair",
					   "clean up", "clean", "remove the broken", "删掉坏", "删除坏",
					   "删掉无效", "删除无效", NULL };
	json_t *errs, *seen, *e;
	size_t i, before = json_array_size(p->patch);
	struct buf said;

	if (!gr_has(text, fix))
		return 0;
	errs = gr_canvas_errors(p);
	seen = json_object();
	buf_init(&said, 2048);
	json_array_foreach(errs, i, e)
		gr_fix_one(p, e, seen, &said);
	gr_done(p, "修复了画布：去掉了 %zu 处坏的连线、节点或参数（%s）",
		"fixed the canvas: removed %zu broken edges, nodes or parameters (%s)",
		json_array_size(p->patch) - before, said.data);
	buf_free(&said);
	json_decref(seen);
	json_decref(errs);
	return 1;
}

/* -- answers ---------------------------------------------------------------------- */

static int gr_is_question(const char *t)
{
	static const char *const qw[] = { "?", "？", "吗", "呢", "哪", "几", "多少", "什么", "谁",
		"是否", "有没有", "how", "what", "which", "where", "who", "is there", "are there",
		"does", "do any", "list", "show me", "tell me", "count", NULL };

	return gr_has(t, qw);
}

static void gr_say_nodes(const struct gr_plan *p, const size_t *idx, size_t n, struct buf *b)
{
	gr_node_list(p, idx, n < GR_LIST_MAX ? n : GR_LIST_MAX, b);
	if (n > GR_LIST_MAX)
		buf_printf(b, p->zh ? " 等 %zu 个" : " and %zu more", n - GR_LIST_MAX);
}

static size_t gr_live(const struct gr_plan *p, size_t *idx, size_t *edges)
{
	size_t k = 0;

	*edges = 0;
	for (size_t i = 0; i < p->nn; i++)
		if (!p->nodes[i].removed)
			idx[k++] = i;
	for (size_t i = 0; i < p->ne; i++)
		*edges += !p->edges[i].removed;
	return k;
}

static void gr_ask_count(struct gr_plan *p, struct buf *ans)
{
	size_t *idx = xcalloc(p->nn + 1, sizeof *idx), ne, n = gr_live(p, idx, &ne);

	if (p->zh)
		buf_printf(ans, "画布上有 %zu 个节点、%zu 条连线", n, ne);
	else
		buf_printf(ans, "The canvas has %zu node%s and %zu edge%s", n, n == 1 ? "" : "s", ne,
			   ne == 1 ? "" : "s");
	if (n) {
		buf_adds(ans, p->zh ? "：" : ": ");
		gr_say_nodes(p, idx, n, ans);
	}
	buf_adds(ans, p->zh ? "。" : ".");
	free(idx);
}

/* "A.x → B.y" for each live edge touching k (dir 1: into k, 2: out of it,
 * 3: both; k = -1: every edge). How many. */
static size_t gr_say_edges(const struct gr_plan *p, size_t k, int dir, struct buf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ne; i++) {
		const struct gr_edge *e = &p->edges[i];

		if (e->removed || (k != (size_t)-1 && !((dir & 1 && e->dst == k) || (dir & 2 && e->src == k))))
			continue;
		if (n++ < GR_LIST_MAX)
			buf_printf(b, p->zh ? "%s「%s」.%s → 「%s」.%s" : "%s\"%s\".%s → \"%s\".%s",
				   n > 1 ? (p->zh ? "；" : "; ") : "", gr_node_label(p, e->src), e->sh,
				   gr_node_label(p, e->dst), e->th);
	}
	return n;
}

/* The required inputs of node k with no edge, as "prompt, image". */
static size_t gr_open_inputs(const struct gr_plan *p, size_t k, struct buf *b)
{
	const json_t *ins = json_object_get(p->nodes[k].def, "inputs"), *d;
	const char *slot;
	size_t n = 0;

	json_object_foreach((json_t *)ins, slot, d) {
		int fed = 0;

		if (!json_is_true(json_object_get(d, "required")))
			continue;
		for (size_t i = 0; i < p->ne && !fed; i++)
			fed = !p->edges[i].removed && p->edges[i].dst == k && !strcmp(p->edges[i].th, slot);
		if (!fed)
			buf_printf(b, "%s%s", n++ ? ", " : "", slot);
	}
	return n;
}

static void gr_ask_loose(struct gr_plan *p, struct buf *ans)
{
	size_t *idx = xcalloc(p->nn + 1, sizeof *idx), k = 0, open = 0;
	struct buf o;

	buf_init(&o, 2048);
	for (size_t i = 0; i < p->nn; i++) {
		int any = 0;
		struct buf s;

		if (p->nodes[i].removed)
			continue;
		for (size_t j = 0; j < p->ne && !any; j++)
			any = !p->edges[j].removed && (p->edges[j].src == i || p->edges[j].dst == i);
		if (!any)
			idx[k++] = i;
		buf_init(&s, 256);
		if (any && gr_open_inputs(p, i, &s))
			buf_printf(&o, p->zh ? "%s「%s」(%s) 的必需输入 %s 空着" : "%s\"%s\" (%s) has its required "
				   "input %s unconnected", open++ ? (p->zh ? "；" : "; ") : "",
				   gr_node_label(p, i), p->nodes[i].id, s.data);
		buf_free(&s);
	}
	if (k) {
		buf_adds(ans, p->zh ? "没有任何连线的节点：" : "Not connected to anything: ");
		gr_say_nodes(p, idx, k, ans);
		buf_adds(ans, p->zh ? "。" : ".");
	} else {
		buf_adds(ans, p->zh ? "每个节点都至少有一条连线。" : "Every node has at least one edge.");
	}
	if (open)
		buf_printf(ans, p->zh ? "另外，%s。" : " Also, %s.", o.data);
	buf_free(&o);
	free(idx);
}

static void gr_ask_errors(struct gr_plan *p, struct buf *ans)
{
	struct buf pb, o;
	size_t bad, open = 0;

	buf_init(&pb, 4096);
	buf_init(&o, 2048);
	bad = gr_canvas_problems(p, &pb);
	for (size_t i = 0; i < p->nn; i++) {
		struct buf s;

		if (p->nodes[i].removed)
			continue;
		buf_init(&s, 256);
		if (gr_open_inputs(p, i, &s))
			buf_printf(&o, p->zh ? "%s「%s」(%s) 的必需输入 %s 没有连接" : "%s\"%s\" (%s): required input "
				   "%s is not connected", open++ ? (p->zh ? "；" : "; ") : "",
				   gr_node_label(p, i), p->nodes[i].id, s.data);
		buf_free(&s);
	}
	if (bad)
		buf_printf(ans, p->zh ? "画布有 %zu 处错误：%s" : "The canvas has %zu error(s): %s", bad, pb.data);
	if (open)
		buf_printf(ans, p->zh ? "%s运行时会出错的节点：%s。" : "%sNodes that would fail when run: %s.",
			   bad && !p->zh ? " " : "", o.data);
	if (!bad && !open)
		buf_printf(ans, p->zh ? "没有发现错误：%zu 个节点都通过了校验，必需的输入也都连上了。" :
			   "No errors found: the %zu nodes pass the checks and their required inputs are "
			   "connected.", p->nn);
	buf_free(&pb);
	buf_free(&o);
}

/* The node a question names: the words before a suffix ("X的输入") or
 * after a prefix ("what feeds X"); (size_t)-1 when none fits. */
/* The node a question names by one of its patterns (a prefix before the
 * name, a suffix after it), or -1; *absent (when not NULL and still
 * NULL) takes the name a pattern held that names no node (new string). */
static size_t gr_ask_node(struct gr_plan *p, const char *t, const char *const *pre,
			  const char *const *suf, char **absent)
{
	size_t idx[2];

	for (size_t i = 0; suf[i]; i++) {
		long at = gr_find(t, strlen(t), suf[i]);

		if (at > 0) {
			static const char *const lead[] = { "画布上", "画布里", "这个", "what is ", "what's ",
				"where is ", "what does ", "where does ", "how is ", "is ", "does ",
				"which nodes is ", "tell me what ", NULL };
			char *w = gr_name_clean(t, (size_t)at, NULL);
			char *c = w;
			size_t k;

			for (const char *const *q = lead; *q; q++)
				if (!strncmp(c, *q, strlen(*q))) {
					c += strlen(*q);
					break;
				}
			w = memmove(w, c, strlen(c) + 1);
			c = gr_name_clean(w, strlen(w), NULL);
			free(w);
			w = c;
			k = gr_node_find(p, c, idx, 2);
			if (k == 0 && absent && !*absent && *w)
				*absent = xstrdup(w);
			free(w);
			if (k == 1)
				return idx[0];
		}
	}
	for (size_t i = 0; pre[i]; i++) {
		long at = gr_find(t, strlen(t), pre[i]);

		if (at >= 0) {
			const char *s = t + at + strlen(pre[i]);
			size_t n = strcspn(s, "?？");
			char *w = gr_name_clean(s, n, NULL);
			size_t k = gr_node_find(p, w, idx, 2);

			if (k == 0 && absent && !*absent && *w)
				*absent = xstrdup(w);
			free(w);
			if (k == 1)
				return idx[0];
		}
	}
	return (size_t)-1;
}

static int gr_ask_links(struct gr_plan *p, const char *t, struct buf *ans)
{
	static const char *const in_pre[] = { "what feeds into", "what feeds", "what goes into",
		"what flows into", "where does the input of", "inputs of", "input of",
		"what comes into", "什么连到", "哪些节点连到", "谁连到", "什么接到", "谁接到", NULL };
	static const char *const in_suf[] = { "的输入来自", "的输入是", "的输入", "的上游", "的数据来自",
		"前面接的是什么", "前面接的什么", "前面连的是什么", "前面连的什么", "前面接了什么",
		"前面连着什么", "前面是什么", "gets its input", "get its input", "'s input", NULL };
	static const char *const out_pre[] = { "what does", "where does", "outputs of", "output of",
		NULL };
	static const char *const out_suf[] = { "连到了哪", "连到哪", "接到了哪", "接到哪", "的输出",
		"后面接的是什么", "后面接的什么", "后面连的是什么", "后面连的什么", "后面接了什么",
		"后面连着什么", "后面是什么",
		"的下游", "输出到哪", "feed into", "feed", "go to", "connect to", "'s output",
		NULL };
	static const char *const both_pre[] = { "connected to", "linked to", "wired to", NULL };
	static const char *const both_suf[] = { "连着什么", "连了什么", "接了什么", "和哪些", "跟哪些",
		"连接了哪些", "的连线", "is connected", "connected to", "linked to", "wired to",
		"hooked up to", NULL };
	static const char *const all[] = { "what feeds what", "list the edges", "the connections",
		"all edges", "all the edges", "有哪些连线", "哪些连线", "所有连线", "连线有哪些",
		"怎么连的", "how is it wired", "how are they connected", NULL };
	size_t k;
	int dir;
	char *absent = NULL;

	if (gr_has(t, all)) {
		if (!gr_say_edges(p, (size_t)-1, 3, ans))
			buf_adds(ans, p->zh ? "画布上还没有连线" : "There are no edges on the canvas yet");
		buf_adds(ans, p->zh ? "。" : ".");
		return 1;
	}
	if ((k = gr_ask_node(p, t, in_pre, in_suf, &absent)) != (size_t)-1)
		dir = 1;
	else if ((k = gr_ask_node(p, t, both_pre, both_suf, &absent)) != (size_t)-1)
		dir = 3;
	else if ((k = gr_ask_node(p, t, out_pre, out_suf, &absent)) != (size_t)-1)
		dir = 2;
	else if (absent) {
		/* "what feeds the resize node?" with none on the canvas */
		buf_printf(ans, p->zh ? "画布上没有「%s」。" : "There is no \"%s\" on the canvas.", absent);
		free(absent);
		return 1;
	} else
		return 0;
	free(absent);
	buf_printf(ans, p->zh ? "「%s」(%s) %s：" : "\"%s\" (%s) %s: ", gr_node_label(p, k), p->nodes[k].id,
		   dir == 1 ? (p->zh ? "的输入来自" : "is fed by") : dir == 2 ? (p->zh ? "连到" : "feeds") :
		   (p->zh ? "的连线" : "has these edges"));
	if (!gr_say_edges(p, k, dir, ans))
		buf_adds(ans, p->zh ? "没有" : "nothing");
	buf_adds(ans, p->zh ? "。" : ".");
	return 1;
}

/* Between two answers of one question, in English a space. */
static void gr_ask_sep(const struct gr_plan *p, struct buf *ans, int more)
{
	if (more && ans->len && !p->zh)
		buf_adds(ans, " ");
}

int gr_ask(struct gr_plan *p, const char *text, struct buf *ans)
{
	static const char *const count[] = { "多少个节点", "几个节点", "多少节点", "多少个", "几个",
		"多少条", "几条", "how many", "number of", "count the", NULL };
	static const char *const list[] = { "哪些节点", "什么节点", "有什么", "list the nodes",
		"list nodes", "what nodes", "which nodes are there", "what is on the canvas",
		"what's on the canvas", "show me the nodes", NULL };
	static const char *const loose[] = { "没连", "没有连", "未连接", "孤立", "空着", "悬空",
		"no connection", "no connections", "no edges", "no edge", "without edges",
		"without connections", "not linked", "unlinked", "on their own",
		"not connected", "unconnected", "disconnected", "isolated", "dangling", "unused",
		"loose", "not wired", NULL };
	static const char *const errs[] = { "错误", "报错", "出错", "有错", "问题", "error", "errors",
		"wrong", "broken", "problem", "problems", "invalid", "fail", "issue", "issues", NULL };
	char *t = gr_lower(text, strlen(text));
	int hit = 0;

	/* Each thing asked is answered, in this order ("how many nodes are
	 * there, and what is not connected?" gets both). */
	if (!gr_is_question(t)) {
		free(t);
		return 0;
	}
	/* "哪些节点没连上" asks for the loose ones only: a list of all the
	 * nodes answers "which nodes" alone. */
	if (gr_has(t, count) || (gr_has(t, list) && !gr_has(t, errs) && !gr_has(t, loose))) {
		gr_ask_count(p, ans);
		hit = 1;
	}
	if (gr_has(t, errs)) {
		gr_ask_sep(p, ans, hit);
		gr_ask_errors(p, ans);
		hit = 1;
	} else if (gr_has(t, loose)) {
		gr_ask_sep(p, ans, hit);
		gr_ask_loose(p, ans);
		hit = 1;
	} else if (!hit) {
		hit = gr_ask_links(p, t, ans);
	}
	free(t);
	return hit;
}
