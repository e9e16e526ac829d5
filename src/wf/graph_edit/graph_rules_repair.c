/* The offline planner's answer to a failed patch (facts.errors and
 * facts.previousPatch): the previous patch gone through once more
 * against the canvas, mending what can be mended without guessing what
 * was meant: a node type that does not exist becomes the closest known
 * one, an edge whose slots are missing, taken or of types that do not fit
 * gets the slots that fit best between the same two nodes, a parameter
 * out of range is brought to the nearest bound, "id" and "position" the
 * dialect does not take are dropped. What cannot be mended (an edge to a
 * node that is not there, a type nothing is close to) gives an empty
 * patch and the errors in words. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "json/pointer.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_nodes.h"
#include "wf/graph_edit/graph_rules_int.h"

struct gr_fix {
	struct gr_plan p;
	json_t *map;      /* the previous patch's localIds -> ours */
	int fixes;
};

/* "image:ImageGen" -> "image Image Gen". New string. */
static char *gr_type_words(const char *type)
{
	const char *n = strchr(type, ':');
	struct buf b;

	buf_init(&b, 256);
	if (n)
		buf_add(&b, type, (size_t)(n - type));
	for (n = n ? n + 1 : type; *n; n++) {
		if (isupper((unsigned char)*n) && b.len)
			buf_adds(&b, " ");
		buf_add(&b, n, 1);
	}
	return buf_steal(&b);
}

static size_t gr_fix_node_of(struct gr_fix *f, const json_t *v, const char *key, const char *lkey)
{
	const char *id = json_string_value(json_object_get(v, lkey));

	if (id && json_is_string(json_object_get(f->map, id)))
		id = json_string_value(json_object_get(f->map, id));
	else if (!id)
		id = json_string_value(json_object_get(v, key));
	return gr_node_by_id(&f->p, id);
}

static int gr_fix_node(struct gr_fix *f, const json_t *v)
{
	const char *type = json_string_value(json_object_get(v, "type"));
	const char *old = json_string_value(json_object_get(v, "localId")) ?:
			  json_string_value(json_object_get(v, "id"));
	const json_t *def = gr_def_find(&f->p, type);
	size_t k;

	if (!def && type) {
		char *w = gr_type_words(type);

		def = gr_def_best(&f->p, w);
		free(w);
		if (def) {
			f->fixes++;
			gr_done(&f->p, "把未知类型 %s 换成了「%s」(%s)", "replaced the unknown type %s with "
				"\"%s\" (%s)", type, gr_def_label(def, f->p.zh),
				json_string_value(json_object_get(def, "type")));
		}
	}
	if (!def)
		return gr_fail(&f->p, "节点类型 %s 不存在，也没有相近的类型。", "The node type %s does "
			       "not exist and none is close to it.", type ? type : "(none)");
	f->fixes += json_object_get(v, "id") || json_object_get(v, "position");
	k = gr_emit_node(&f->p, def);
	if (json_is_object(json_object_get(v, "data")))
		json_object_set(json_object_get(json_array_get(f->p.patch,
			json_array_size(f->p.patch) - 1), "value"), "data", json_object_get(v, "data"));
	if (old)
		json_object_set_new(f->map, old, json_string(f->p.nodes[k].id));
	return 0;
}

/* Whether the edge's own slots can stay. */
static int gr_fix_slots_ok(struct gr_fix *f, size_t s, const char *sh, size_t t, const char *th)
{
	const json_t *in = json_object_get(json_object_get(f->p.nodes[t].def, "inputs"), th ?: "");

	if (!sh || !th || !in || !gr_types_fit(gr_slot_type(&f->p, s, sh, 0),
					       gr_slot_type(&f->p, t, th, 1)))
		return 0;
	for (size_t i = 0; i < f->p.ne; i++)
		if (!f->p.edges[i].removed && f->p.edges[i].dst == t && !strcmp(f->p.edges[i].th, th) &&
		    !json_is_true(json_object_get(in, "multi")))
			return 0;
	return 1;
}

static int gr_fix_edge(struct gr_fix *f, const json_t *v)
{
	size_t s = gr_fix_node_of(f, v, "source", "sourceLocalId");
	size_t t = gr_fix_node_of(f, v, "target", "targetLocalId");
	const char *sh = json_string_value(json_object_get(v, "sourceHandle"));
	const char *th = json_string_value(json_object_get(v, "targetHandle"));

	if (s == (size_t)-1 || t == (size_t)-1)
		return gr_fail(&f->p, "上一个补丁的一条连线连到了不存在的节点。", "An edge of the last "
			       "patch joins a node that is not there.");
	if (!gr_fix_slots_ok(f, s, sh, t, th)) {
		f->fixes++;
		return gr_link(&f->p, s, t);
	}
	f->fixes += json_object_get(v, "id") != NULL;
	json_array_append_new(f->p.patch, json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s}}", "op", "add",
		"path", "/edges/-", "value", f->p.nodes[s].added ? "sourceLocalId" : "source",
		f->p.nodes[s].id, "sourceHandle", sh, f->p.nodes[t].added ? "targetLocalId" : "target",
		f->p.nodes[t].id, "targetHandle", th));
	gr_edge_add(&f->p, NULL, s, sh, t, th);
	return 0;
}

/* A value brought into its declared range, or NULL. New reference. */
static json_t *gr_fix_clamp(const json_t *decl, const json_t *v)
{
	const json_t *mn = json_object_get(decl, "min"), *mx = json_object_get(decl, "max");
	const char *t = json_string_value(json_object_get(decl, "type"));
	double x = json_number_value(v);

	if (!json_is_number(v) || !t || (strcmp(t, "INTEGER") && strcmp(t, "FLOAT")))
		return NULL;
	x = json_is_number(mn) && x < json_number_value(mn) ? json_number_value(mn) : x;
	x = json_is_number(mx) && x > json_number_value(mx) ? json_number_value(mx) : x;
	return strcmp(t, "INTEGER") ? json_real(x) : json_integer((json_int_t)x);
}

/* "/nodes/<x>/data/configValues/<param>": the value checked again. */
static int gr_fix_param(struct gr_fix *f, const json_t *op, const char *path)
{
	const char *rest = path + strlen("/nodes/"), *cv = strstr(rest, "/data/configValues/");
	char *id = xstrndup(rest, (size_t)(cv - rest)), *sub, *at;
	const char *mapped = json_string_value(json_object_get(f->map, id));
	size_t k = gr_node_by_id(&f->p, mapped ? mapped : id);
	const char *param = cv + strlen("/data/configValues/");
	const json_t *v = json_object_get(op, "value"), *decl;
	json_t *nv = NULL;
	char why[256];

	free(id);
	if (k == (size_t)-1)
		return gr_fail(&f->p, "上一个补丁改的节点不存在。", "The last patch sets a parameter "
			       "of a node that is not there.");
	if (!(decl = json_object_get(json_object_get(f->p.nodes[k].def, "configValues"), param)) &&
	    (param = gr_param_find(f->p.nodes[k].def, param)))
		decl = json_object_get(json_object_get(f->p.nodes[k].def, "configValues"), param), f->fixes++;
	if (!decl)
		return gr_fail(&f->p, "「%s」没有这个参数。", "\"%s\" has no such parameter.",
			       gr_node_label(&f->p, k));
	if (graph_param_check(decl, v, why, sizeof why) && !(nv = gr_fix_clamp(decl, v)))
		return gr_fail(&f->p, "「%s」的参数 %s 的值不合要求（%s）。", "The value of \"%s\"'s %s "
			       "does not fit (%s).", gr_node_label(&f->p, k), param, why);
	if (nv) {
		char *txt = jtext(nv, JSON_ENCODE_ANY);

		f->fixes++;
		gr_done(&f->p, "把「%s」的 %s 调到允许的范围内（%s）", "brought \"%s\" %s into its range (%s)",
			gr_node_label(&f->p, k), param, txt);
		free(txt);
	}
	sub = xasprintf("/data/configValues/%s", param);
	at = gr_path("nodes", f->p.nodes[k].id, sub);
	json_array_append_new(f->p.patch, json_pack("{s:s, s:s, s:O}", "op", "add", "path", at,
						    "value", nv ? nv : v));
	json_decref(nv);
	free(at);
	free(sub);
	return 0;
}

static int gr_fix_op(struct gr_fix *f, const json_t *op)
{
	const char *name = json_string_value(json_object_get(op, "op"));
	const char *path = json_string_value(json_object_get(op, "path"));
	const json_t *v = json_object_get(op, "value");

	if (name && path && !strcmp(name, "add") && !strcmp(path, "/nodes/-") && json_is_object(v))
		return gr_fix_node(f, v);
	if (name && path && !strcmp(name, "add") && !strcmp(path, "/edges/-") && json_is_object(v))
		return gr_fix_edge(f, v);
	if (name && path && (!strcmp(name, "add") || !strcmp(name, "replace")) &&
	    !strncmp(path, "/nodes/", 7) && strstr(path, "/data/configValues/"))
		return gr_fix_param(f, op, path);
	if (name && path && !strcmp(name, "remove") && !strncmp(path, "/nodes/", 7)) {
		size_t k = gr_node_by_id(&f->p, path + 7);

		if (k != (size_t)-1)
			f->p.nodes[k].removed = 1;
	}
	json_array_append(f->p.patch, (json_t *)op);
	return 0;
}

/* The errors in words, at most three. */
static void gr_fix_explain(struct gr_fix *f, const json_t *errors, struct buf *b)
{
	const json_t *e;
	size_t i;

	buf_adds(b, f->p.zh ? "上一个补丁没能应用：" : "The last patch could not be applied: ");
	json_array_foreach(errors, i, e) {
		if (i == 3)
			break;
		buf_printf(b, f->p.zh ? "%s第 %lld 步（%s %s）：%s" : "%sstep %lld (%s %s): %s",
			   i ? (f->p.zh ? "；" : "; ") : "", (long long)json_integer_value(json_object_get(e, "index")),
			   json_string_value(json_object_get(e, "op")) ?: "",
			   json_string_value(json_object_get(e, "path")) ?: "",
			   json_string_value(json_object_get(e, "message")) ?:
			   json_string_value(json_object_get(e, "code")) ?: "");
	}
	buf_adds(b, f->p.zh ? "。" : ". ");
}

/* How the refusal ends: the canvas's own problems when it has some (no
 * patch can pass then), else a way to ask again. */
static void gr_repair_tail(struct gr_plan *p, struct buf *b)
{
	struct buf pb;
	size_t bad;

	buf_init(&pb, GR_REPLY_MAX);
	bad = gr_canvas_problems(p, &pb);
	if (bad)
		buf_printf(b, p->zh ? "画布本身有 %zu 处问题，任何修改都无法通过校验：%s说“修复画布”可以删掉坏的"
			   "连线和节点。这次没有做任何修改。" : " The canvas itself has %zu problem(s), so no "
			   "change can pass the checks: %s Say \"fix the canvas\" to drop the broken edges and "
			   "nodes. Nothing was changed this time.", bad, pb.data);
	else
		buf_adds(b, p->zh ? "这次没有做任何修改，请换个说法再试，例如“连接文本输入和大模型对话”。" :
			 " Nothing was changed this time; try saying it another way, for example "
			 "\"connect the text input to the LLM chat\".");
	buf_free(&pb);
}

json_t *gr_repair(const json_t *facts, int zh)
{
	const json_t *prev = json_object_get(facts, "previousPatch"), *op;
	struct gr_fix f = { .map = json_object() };
	struct buf b;
	json_t *ans;
	int rc = json_array_size(prev) ? 0 : -1;
	size_t i;

	gr_plan_init(&f.p, facts, zh);
	buf_init(&b, GR_REPLY_MAX * 2);
	json_array_foreach(prev, i, op)
		if (!rc)
			rc = gr_fix_op(&f, op);
	if (!rc && f.fixes) {
		buf_adds(&b, zh ? "修正了上一个补丁：" : "Mended the last patch: ");
		buf_adds(&b, f.p.done.len ? f.p.done.data : zh ? "去掉了新节点和连线不该带的 id 和 position" :
			 "dropped the id and position that new nodes and edges do not take");
		buf_adds(&b, zh ? "。" : ".");
		ans = json_pack("{s:O, s:s}", "patch", f.p.patch, "reply", b.data);
	} else {
		gr_fix_explain(&f, json_object_get(facts, "errors"), &b);
		if (rc && f.p.why.len)
			buf_adds(&b, f.p.why.data);
		gr_repair_tail(&f.p, &b);
		ans = json_pack("{s:[], s:s}", "patch", "reply", b.data);
	}
	buf_free(&b);
	json_decref(f.map);
	gr_plan_free(&f.p);
	return ans;
}
