/* The offline planner of graph_edit (graph_rules.h): a request cut into
 * clauses, each clause's verb found (the earliest of the table below that
 * is not a noun there, as in "它的替换内容"), and its handler run against
 * the canvas as the clauses before it left it. A clause without a verb
 * belongs to the one before it ("add an image generator and a preview"),
 * or after "then" takes the verb before it ("connect A to B, then B to
 * C"). A clause that cannot be planned is taken back whole and named in
 * the reply with why; the others stand, so the reply says exactly what
 * the patch does and what it does not. Questions and a broken canvas are
 * answered before any clause is planned (graph_rules_ask.c). */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/script.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules.h"
#include "wf/graph_edit/graph_rules_int.h"

enum gr_intent { GR_NONE, GR_ADD, GR_REMOVE, GR_CONNECT, GR_DISCONNECT, GR_SET, GR_RENAME,
		 GR_REPLACE, GR_ENABLE, GR_DISABLE };

typedef int (*gr_handler)(struct gr_plan *, const char *, size_t, const char *, size_t);

static const gr_handler gr_handlers[] = {
	[GR_ADD] = gr_op_add, [GR_REMOVE] = gr_op_remove, [GR_CONNECT] = gr_op_connect,
	[GR_DISCONNECT] = gr_op_disconnect, [GR_SET] = gr_op_set, [GR_RENAME] = gr_op_rename,
	[GR_REPLACE] = gr_op_replace, [GR_ENABLE] = gr_op_enable, [GR_DISABLE] = gr_op_disable,
};

/* A verb; len: the bytes that are the verb when the entry also holds what
 * must follow it ("加" before a count). */
struct gr_verb {
	const char *w;
	enum gr_intent in;
	size_t len;
};

static const struct gr_verb gr_verbs[] = {
	{ "添加", GR_ADD, 0 }, { "新增", GR_ADD, 0 }, { "新建", GR_ADD, 0 }, { "创建", GR_ADD, 0 },
	{ "增加", GR_ADD, 0 }, { "加上", GR_ADD, 0 }, { "加入", GR_ADD, 0 }, { "插入", GR_ADD, 0 },
	{ "放一个", GR_ADD, 3 }, { "来一个", GR_ADD, 3 }, { "建一个", GR_ADD, 3 },
	{ "加一个", GR_ADD, 3 }, { "加个", GR_ADD, 3 }, { "接一个", GR_ADD, 3 }, { "接个", GR_ADD, 3 },
	{ "再接一个", GR_ADD, 6 }, { "插一个", GR_ADD, 3 }, { "插个", GR_ADD, 3 }, { "要一个", GR_ADD, 3 },
	{ "want a", GR_ADD, 4 }, { "want an", GR_ADD, 4 }, { "need a", GR_ADD, 4 },
	{ "need an", GR_ADD, 4 }, { "give me a", GR_ADD, 7 }, { "加两个", GR_ADD, 3 }, { "加三个", GR_ADD, 3 },
	{ "add", GR_ADD, 0 }, { "create", GR_ADD, 0 }, { "insert", GR_ADD, 0 }, { "put", GR_ADD, 0 },
	{ "place", GR_ADD, 0 }, { "include", GR_ADD, 0 }, { "插到", GR_ADD, 0 }, { "插在", GR_ADD, 0 },
	{ "放在", GR_ADD, 0 }, { "放到", GR_ADD, 0 }, { "加在", GR_ADD, 0 }, { "加到", GR_ADD, 0 },
	{ "append", GR_ADD, 0 }, { "prepend", GR_ADD, 0 }, { "followed by", GR_ADD, 0 },
	{ "替换成", GR_REPLACE, 0 }, { "替换为", GR_REPLACE, 0 }, { "换成", GR_REPLACE, 0 },
	{ "换为", GR_REPLACE, 0 }, { "替换", GR_REPLACE, 0 }, { "replace", GR_REPLACE, 0 },
	{ "swap", GR_REPLACE, 0 }, { "enable", GR_ENABLE, 0 }, { "turn on", GR_ENABLE, 0 },
	{ "switch on", GR_ENABLE, 0 }, { "打开", GR_ENABLE, 0 }, { "开启", GR_ENABLE, 0 },
	{ "启用", GR_ENABLE, 0 }, { "disable", GR_DISABLE, 0 }, { "turn off", GR_DISABLE, 0 },
	{ "switch off", GR_DISABLE, 0 }, { "关闭", GR_DISABLE, 0 }, { "关掉", GR_DISABLE, 0 },
	{ "停用", GR_DISABLE, 0 }, { "禁用", GR_DISABLE, 0 },
	{ "删除", GR_REMOVE, 0 }, { "删掉", GR_REMOVE, 0 }, { "删去", GR_REMOVE, 0 },
	{ "去掉", GR_REMOVE, 0 }, { "移除", GR_REMOVE, 0 }, { "拿掉", GR_REMOVE, 0 }, { "删", GR_REMOVE, 0 },
	{ "remove", GR_REMOVE, 0 }, { "delete", GR_REMOVE, 0 }, { "drop", GR_REMOVE, 0 },
	{ "erase", GR_REMOVE, 0 },
	{ "断开", GR_DISCONNECT, 0 }, { "取消连接", GR_DISCONNECT, 0 }, { "解除连接", GR_DISCONNECT, 0 },
	{ "断掉", GR_DISCONNECT, 0 }, { "disconnect", GR_DISCONNECT, 0 }, { "unlink", GR_DISCONNECT, 0 },
	{ "detach", GR_DISCONNECT, 0 }, { "unplug", GR_DISCONNECT, 0 },
	{ "连接", GR_CONNECT, 0 }, { "连到", GR_CONNECT, 0 }, { "连上", GR_CONNECT, 0 },
	{ "连起来", GR_CONNECT, 0 }, { "接到", GR_CONNECT, 0 }, { "接上", GR_CONNECT, 0 },
	{ "接入", GR_CONNECT, 0 }, { "相连", GR_CONNECT, 0 }, { "连向", GR_CONNECT, 0 },
	{ "连", GR_CONNECT, 0 }, { "connect", GR_CONNECT, 0 }, { "link", GR_CONNECT, 0 },
	{ "wire", GR_CONNECT, 0 }, { "plug", GR_CONNECT, 0 }, { "hook up", GR_CONNECT, 0 },
	{ "feed", GR_CONNECT, 0 }, { "feeds", GR_CONNECT, 0 }, { "chain", GR_CONNECT, 0 },
	{ "pipe", GR_CONNECT, 0 }, { "route", GR_CONNECT, 0 }, { "send", GR_CONNECT, 0 },
	{ "串起来", GR_CONNECT, 0 }, { "串联", GR_CONNECT, 0 }, { "接在", GR_CONNECT, 0 },
	{ "输入到", GR_CONNECT, 0 }, { "传给", GR_CONNECT, 0 }, { "送到", GR_CONNECT, 0 },
	{ "设置为", GR_SET, 0 }, { "设置成", GR_SET, 0 }, { "设为", GR_SET, 0 }, { "设成", GR_SET, 0 },
	{ "改成", GR_SET, 0 }, { "改为", GR_SET, 0 }, { "调成", GR_SET, 0 }, { "调为", GR_SET, 0 },
	{ "调到", GR_SET, 0 }, { "调整为", GR_SET, 0 }, { "设定为", GR_SET, 0 }, { "设置", GR_SET, 0 },
	{ "set", GR_SET, 0 }, { "change", GR_SET, 0 }, { "adjust", GR_SET, 0 }, { "用", GR_SET, 0 },
	{ "翻译成", GR_SET, 0 }, { "翻成", GR_SET, 0 }, { "译成", GR_SET, 0 }, { "translate it into", GR_SET, 0 },
	{ "translate it to", GR_SET, 0 },
	{ "重命名为", GR_RENAME, 0 }, { "重命名成", GR_RENAME, 0 }, { "重命名", GR_RENAME, 0 },
	{ "改名为", GR_RENAME, 0 }, { "改名成", GR_RENAME, 0 }, { "改名", GR_RENAME, 0 },
	{ "命名为", GR_RENAME, 0 }, { "的名字改成", GR_RENAME, 0 }, { "的名字改为", GR_RENAME, 0 },
	{ "的名称改为", GR_RENAME, 0 }, { "的名称改成", GR_RENAME, 0 }, { "rename", GR_RENAME, 0 },
};

/* Where clauses end; a part without a verb joins the clause before it. */
static const char *const gr_clause_seps[] = {
	"然后", "接着", "并且", "再把", "再将", "再", "，", "。", "；", "！", ". ", ";",
	",", "\n", "and then", "then", "and", "also", "after that", NULL
};

/* Whether the word at s + at follows "的" or an article: a name, not a verb. */
static int gr_verb_noun(const char *s, size_t at)
{
	static const char *const art[] = { "the ", "a ", "an ", NULL };

	if (at >= 3 && !memcmp(s + at - 3, "的", 3))
		return 1;
	for (size_t i = 0; art[i]; i++) {
		size_t l = strlen(art[i]);

		if (at >= l && !strncasecmp(s + at - l, art[i], l) &&
		    (at == l || !isalnum((unsigned char)s[at - l - 1])))
			return 1;
	}
	return 0;
}

/* The earliest verb of [s, s+n): its intent, place and length. */
static enum gr_intent gr_verb(const char *s, size_t n, size_t *at, size_t *len)
{
	enum gr_intent in = GR_NONE;
	long best = -1;

	for (size_t i = 0; i < sizeof gr_verbs / sizeof gr_verbs[0]; i++) {
		long p = gr_find(s, n, gr_verbs[i].w);
		size_t l = gr_verbs[i].len ? gr_verbs[i].len : strlen(gr_verbs[i].w);

		/* "总结用要点列表": a setting after a name; not "用B替换A" (a
		 * replacement) nor a clause that starts with it. */
		if (p >= 0 && !strcmp(gr_verbs[i].w, "用") &&
		    (p == 0 || gr_find(s + p, n - (size_t)p, "替换") >= 0 || gr_find(s + p, n - (size_t)p, "换") >= 0))
			continue;
		/* "它的替换内容", "the replace node": a noun here, not the verb. */
		while (p >= 0 && gr_verb_noun(s, (size_t)p)) {
			long q = gr_find(s + p + 1, n - (size_t)p - 1, gr_verbs[i].w);

			p = q < 0 ? -1 : p + 1 + q;
		}

		if (p < 0 || (best >= 0 && (p > best || (p == best && l <= *len))))
			continue;
		best = p, *len = l, in = gr_verbs[i].in;
	}
	*at = best < 0 ? 0 : (size_t)best;
	return in;
}

/* A question about the editor rather than a command. */
static int gr_question(const char *s)
{
	static const char *const ask[] = { "怎么", "如何", "为什么", "什么", "哪些", "how", "what",
					   "why", "which", "when", NULL };
	int q = strstr(s, "?") || strstr(s, "？") || strstr(s, "吗");

	for (size_t i = 0; q && ask[i]; i++)
		if (gr_find(s, strlen(s), ask[i]) >= 0)
			return 1;
	return 0;
}

struct gr_span {
	size_t from, to;
	int then;      /* after "then" without a verb: the verb before it again */
};

/* Separators after which a part without a verb is a new clause. */
static int gr_then_sep(const char *sep)
{
	static const char *const then[] = { "然后", "接着", "再把", "再将", "再", "；", ";", "。",
					    "and then", "then", "also", "after that", NULL };

	for (size_t i = 0; then[i]; i++)
		if (!strcmp(sep, then[i]))
			return 1;
	return 0;
}

/* A part without a verb that sets another value after a "set" clause. */
static int gr_set_more(const char *prev, size_t pn, const char *q, size_t qn)
{
	size_t at, vl;

	return gr_verb(prev, pn, &at, &vl) == GR_SET &&
	       (gr_find(q, qn, "to") > 0 || gr_find(q, qn, "为") > 0 || gr_find(q, qn, "成") > 0 ||
		gr_find(q, qn, "用") > 0);
}

/* A part without a verb that joins two more nodes after a "connect A to
 * B" clause ("and the input to the translator"). */
static int gr_connect_more(const char *prev, size_t pn, const char *q, size_t qn)
{
	static const char *const dir[] = { "to", "into", "到", "→", "->", NULL };
	size_t at, vl;
	int pd = 0, qd = 0;

	if (gr_verb(prev, pn, &at, &vl) != GR_CONNECT)
		return 0;
	for (size_t i = 0; dir[i]; i++) {
		pd |= gr_find(prev + at + vl, pn - at - vl, dir[i]) > 0;
		qd |= gr_find(q, qn, dir[i]) > 0;
	}
	return pd && qd;
}

/* The clauses of text, at most max: their number. */
static size_t gr_clauses(const char *t, struct gr_span *out, size_t max)
{
	size_t n = strlen(t), k = 0, start = 0, i = 0;
	int then = 0;

	while (i <= n) {
		size_t l = 0;
		int sep_then = 0;

		if (i < n)
			for (size_t j = 0; gr_clause_seps[j] && !l; j++) {
				long at = gr_find(t + i, n - i, gr_clause_seps[j]);

				if (at == 0)
					l = strlen(gr_clause_seps[j]), sep_then = gr_then_sep(gr_clause_seps[j]);
			}
		if (i == n || l) {
			size_t at, vl;
			int verb = gr_verb(t + start, i - start, &at, &vl) != GR_NONE;
			const char *q = t + start;
			size_t qn = i - start;

			gr_trim(&q, &qn);
			/* "set A to 1 and B to 2": a value after "and" is a setting of its own. */
			if (k && !verb && qn && (gr_set_more(t + out[k - 1].from, out[k - 1].to - out[k - 1].from,
							      q, qn) ||
						 gr_connect_more(t + out[k - 1].from,
								 out[k - 1].to - out[k - 1].from, q, qn)))
				then = 1;
			if (k && !verb && !(then && qn && k < max))
				out[k - 1].to = i;          /* joins the clause before */
			else if (k < max && i > start && qn)
				out[k].from = start, out[k].to = i, out[k].then = !verb && then, k++;
			else if (k)
				out[k - 1].to = i;
			if (qn)
				then = sep_then;
			else
				then |= sep_then;
			start = i + l;
			i += l ? l : 1;
			continue;
		}
		i += (unsigned char)t[i] >= 0xc0 ? ((unsigned char)t[i] >= 0xf0 ? 4 :
						    (unsigned char)t[i] >= 0xe0 ? 3 : 2) : 1;
	}
	/* A first part without a verb goes with the next clause. */
	if (k > 1) {
		size_t at, vl;

		if (gr_verb(t + out[0].from, out[0].to - out[0].from, &at, &vl) == GR_NONE) {
			out[1].from = out[0].from;
			memmove(out, out + 1, (k - 1) * sizeof *out);
			k--;
		}
	}
	return k;
}

static json_t *gr_answer(json_t *patch_new, const char *reply)
{
	return json_pack("{s:o, s:s}", "patch", patch_new, "reply", reply);
}

static json_t *gr_help(int zh)
{
	return gr_answer(json_array(), zh ?
		"我能按你的话编辑画布：添加或删除节点、连接或断开两个节点、设置参数、重命名节点，"
		"在两个节点之间插入节点、替换节点、把几个节点依次连起来；也能回答画布上有几个节点、"
		"什么连到哪里、哪些没连上、哪里有错。例如：“添加一个文本输入和一个大模型对话，然后连接它们”，"
		"或“把温度设为0.3”。这次没有做任何修改。" :
		"I can edit the canvas as you say: add or delete nodes, connect or disconnect two "
		"nodes, set a parameter, rename a node, insert a node between two others, replace a "
		"node, chain nodes in order; and answer how many nodes there are, what feeds what, "
		"what is not connected and what has an error. For example: \"add a text input and an "
		"LLM chat, then connect them\", or \"set temperature to 0.3\". Nothing was changed "
		"this time.");
}

/* The canvas model and the patch as they were before a clause, so that a
 * clause that fails leaves nothing half done. */
struct gr_mark {
	size_t nn, ne, ops, done;
	char *nrm, *erm;
};

static void gr_mark_take(const struct gr_plan *p, struct gr_mark *m)
{
	m->nn = p->nn, m->ne = p->ne, m->ops = json_array_size(p->patch), m->done = p->done.len;
	m->nrm = xcalloc(p->nn + 1, 1), m->erm = xcalloc(p->ne + 1, 1);
	for (size_t i = 0; i < p->nn; i++)
		m->nrm[i] = (char)p->nodes[i].removed;
	for (size_t i = 0; i < p->ne; i++)
		m->erm[i] = (char)p->edges[i].removed;
}

static void gr_mark_back(struct gr_plan *p, const struct gr_mark *m)
{
	while (json_array_size(p->patch) > m->ops)
		json_array_remove(p->patch, json_array_size(p->patch) - 1);
	for (size_t i = m->nn; i < p->nn; i++)
		p->nodes[i].removed = 1;
	for (size_t i = 0; i < m->nn; i++)
		p->nodes[i].removed = m->nrm[i];
	for (size_t i = m->ne; i < p->ne; i++)
		p->edges[i].removed = 1;
	for (size_t i = 0; i < m->ne; i++)
		p->edges[i].removed = m->erm[i];
	p->done.len = m->done;
	if (p->done.data)
		p->done.data[m->done] = '\0';
}

static void gr_mark_free(struct gr_mark *m)
{
	free(m->nrm), free(m->erm);
}

/* An adding verb that attaches what it adds after what came before:
 * "接一个", "再接一个", "接个", "followed by". */
static int gr_attach_verb(const char *v, size_t n)
{
	return (n >= 3 && !memcmp(v, "接", 3)) || (n >= 6 && !memcmp(v, "再接", 6)) ||
	       (n >= 8 && !strncasecmp(v, "followed", 8));
}

/* One clause: planned, or its part noted as not done. 1 when it was a
 * command at all. */
static int gr_clause(struct gr_plan *p, const char *s, size_t len, enum gr_intent *last)
{
	const char *b, *a;
	size_t at, vl, bn, an, attach_to, from;
	enum gr_intent in = gr_verb(s, len, &at, &vl);
	struct gr_mark m;
	int rc;

	if (in == GR_NONE && *last != GR_NONE)
		in = *last, at = vl = 0;            /* "…, then the chat to the preview" */
	if (in == GR_NONE) {
		const char *q = s;
		size_t qn = len;

		gr_trim(&q, &qn);
		if (qn)
			gr_fail(p, "没看懂「%.*s」。", "I did not understand \"%.*s\".", (int)qn, q), gr_note(p);
		return 0;
	}
	*last = in;
	p->prev_ref = p->last_ref;
	/* "接一个X" / "followed by a X": what the clause adds is attached after
	 * the node the clause before added or named. */
	attach_to = in == GR_ADD && gr_attach_verb(s + at, vl) ?
		    (p->last_to > p->last_from ? p->last_to - 1 : p->last_ref) : (size_t)-1;
	from = p->nn;
	b = s, bn = at, a = s + at + vl, an = len - at - vl;
	gr_trim(&b, &bn);
	gr_trim_light(&a, &an);
	gr_mark_take(p, &m);
	buf_reset(&p->why);
	if (in == GR_CONNECT && gr_struct_connect(p, s + at, vl, b, bn, a, an, &rc))
		;
	else if (in == GR_ADD && gr_struct_add(p, b, bn, a, an, &rc))
		;
	else
		rc = gr_handlers[in](p, b, bn, a, an);
	if (!rc && attach_to != (size_t)-1 && attach_to < from && !p->nodes[attach_to].removed)
		for (size_t i = from; i < p->nn; i++)
			if (!p->nodes[i].removed && gr_link(p, i == from ? attach_to : i - 1, i) != 0)
				gr_note(p);
	if (rc) {
		gr_mark_back(p, &m);
		gr_note(p);
	}
	gr_mark_free(&m);
	return 1;
}

/* Runs the clauses; the number of commands among them. */
static int gr_run(struct gr_plan *p, const char *text)
{
	struct gr_span cl[32];
	size_t n = gr_clauses(text, cl, 32);
	int cmds = 0;
	enum gr_intent last = GR_NONE;

	for (size_t i = 0; i < n; i++) {
		enum gr_intent in = cl[i].then ? last : GR_NONE;

		cmds += gr_clause(p, text + cl[i].from, cl[i].to - cl[i].from, &in);
		last = in;
	}
	return cmds;
}

/* What was done, then each part that was not, with why. */
static json_t *gr_reply(struct gr_plan *p)
{
	struct buf r;
	json_t *ans;
	int did = json_array_size(p->patch) > 0;

	buf_init(&r, 2 * GR_REPLY_MAX + 64);
	if (did && p->done.len) {
		buf_adds(&r, p->done.data);
		if (!p->zh)
			r.data[0] = (char)toupper((unsigned char)r.data[0]);
		buf_adds(&r, p->zh ? "。" : ".");
		if (p->notdone.len)
			buf_printf(&r, p->zh ? "没有做的部分：%s" : " Not done: %s", p->notdone.data);
		ans = gr_answer(json_incref(p->patch), r.data);
	} else {
		buf_adds(&r, p->notdone.len ? p->notdone.data : "");
		buf_adds(&r, p->zh ? "这次没有做任何修改。" : " Nothing was changed this time.");
		ans = gr_answer(json_array(), r.data);
	}
	buf_free(&r);
	return ans;
}

/* A canvas that cannot take any patch: said as such. */
static json_t *gr_broken(struct gr_plan *p, const struct buf *problems, size_t n)
{
	struct buf r;
	json_t *ans;

	buf_init(&r, 2 * GR_REPLY_MAX + 256);
	buf_printf(&r, p->zh ? "画布本身有 %zu 处问题，任何修改都无法通过校验：%s"
			       "说“修复画布”可以删掉坏的连线和节点、去掉无效的参数。这次没有做任何修改。" :
			       "The canvas itself has %zu problem(s), so no change can pass the checks: "
			       "%s Say \"fix the canvas\" to drop the broken edges and nodes and the invalid "
			       "parameters. Nothing was changed this time.", n, problems->data);
	ans = gr_answer(json_array(), r.data);
	buf_free(&r);
	return ans;
}

/* The answer for the request t on the plan p. */
static json_t *gr_plan_answer(struct gr_plan *p, const char *t)
{
	struct buf ans, problems;
	json_t *out;
	size_t bad;

	buf_init(&ans, 2 * GR_REPLY_MAX);
	buf_init(&problems, GR_REPLY_MAX);
	bad = gr_canvas_problems(p, &problems);
	if (gr_ask(p, t, &ans))
		out = gr_answer(json_array(), ans.data);
	else if (bad && gr_canvas_fix(p, t))
		out = gr_reply(p);
	else if (bad)
		out = gr_broken(p, &problems, bad);
	else if (gr_question(t) || gr_run(p, t) == 0)
		out = gr_help(p->zh);
	else
		out = gr_reply(p);
	buf_free(&ans);
	buf_free(&problems);
	return out;
}

json_t *graph_rules_plan(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *t = json_string_value(json_object_get(facts, "text"));
	const char *lang = json_string_value(json_object_get(facts, "lang"));
	struct gr_plan p;
	json_t *ans;
	int zh;

	if (facts && !json_is_object(facts)) {
		snprintf(err, errlen, "graph_plan: facts must be an object");
		return NULL;
	}
	t = t ? t : text ? text : "";
	zh = lang ? strcmp(lang, "en") != 0 : strcmp(text_lang(t), "zh") == 0;
	if (json_array_size(json_object_get(facts, "errors")))
		return gr_repair(facts, zh);
	gr_plan_init(&p, facts, zh);
	ans = gr_plan_answer(&p, t);
	gr_plan_free(&p);
	return ans;
}
