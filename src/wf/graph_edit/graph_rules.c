/* The offline planner of graph_edit (graph_rules.h): a request cut into
 * clauses, each clause's verb found (the earliest of the table below),
 * and its handler run against the canvas as the clauses before it left
 * it. A clause without a verb belongs to the one before it ("add an
 * image generator and a preview"). Any clause that cannot be planned
 * makes the whole answer an empty patch with the reason: a request is
 * done whole or not at all. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/script.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules.h"
#include "wf/graph_edit/graph_rules_int.h"

enum gr_intent { GR_NONE, GR_ADD, GR_REMOVE, GR_CONNECT, GR_DISCONNECT, GR_SET, GR_RENAME };

typedef int (*gr_handler)(struct gr_plan *, const char *, size_t, const char *, size_t);

static const gr_handler gr_handlers[] = {
	[GR_ADD] = gr_op_add, [GR_REMOVE] = gr_op_remove, [GR_CONNECT] = gr_op_connect,
	[GR_DISCONNECT] = gr_op_disconnect, [GR_SET] = gr_op_set, [GR_RENAME] = gr_op_rename,
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
	{ "加一个", GR_ADD, 3 }, { "加个", GR_ADD, 3 }, { "加两个", GR_ADD, 3 }, { "加三个", GR_ADD, 3 },
	{ "add", GR_ADD, 0 }, { "create", GR_ADD, 0 }, { "insert", GR_ADD, 0 }, { "put", GR_ADD, 0 },
	{ "place", GR_ADD, 0 }, { "include", GR_ADD, 0 },
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
	{ "feed", GR_CONNECT, 0 },
	{ "设置为", GR_SET, 0 }, { "设置成", GR_SET, 0 }, { "设为", GR_SET, 0 }, { "设成", GR_SET, 0 },
	{ "改成", GR_SET, 0 }, { "改为", GR_SET, 0 }, { "调成", GR_SET, 0 }, { "调为", GR_SET, 0 },
	{ "调到", GR_SET, 0 }, { "调整为", GR_SET, 0 }, { "设定为", GR_SET, 0 }, { "设置", GR_SET, 0 },
	{ "set", GR_SET, 0 }, { "change", GR_SET, 0 }, { "adjust", GR_SET, 0 },
	{ "重命名为", GR_RENAME, 0 }, { "重命名成", GR_RENAME, 0 }, { "重命名", GR_RENAME, 0 },
	{ "改名为", GR_RENAME, 0 }, { "改名成", GR_RENAME, 0 }, { "改名", GR_RENAME, 0 },
	{ "命名为", GR_RENAME, 0 }, { "的名字改成", GR_RENAME, 0 }, { "的名字改为", GR_RENAME, 0 },
	{ "的名称改为", GR_RENAME, 0 }, { "的名称改成", GR_RENAME, 0 }, { "rename", GR_RENAME, 0 },
};

/* Where clauses end; a part without a verb joins the clause before it. */
static const char *const gr_clause_seps[] = {
	"然后", "接着", "之后", "并且", "再把", "再将", "再", "，", "。", "；", "！", ". ", ";",
	",", "\n", "and then", "then", "and", "also", NULL
};

/* The earliest verb of [s, s+n): its intent, place and length. */
static enum gr_intent gr_verb(const char *s, size_t n, size_t *at, size_t *len)
{
	enum gr_intent in = GR_NONE;
	long best = -1;

	for (size_t i = 0; i < sizeof gr_verbs / sizeof gr_verbs[0]; i++) {
		long p = gr_find(s, n, gr_verbs[i].w);
		size_t l = gr_verbs[i].len ? gr_verbs[i].len : strlen(gr_verbs[i].w);

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
};

/* The clauses of text, at most max: their number. */
static size_t gr_clauses(const char *t, struct gr_span *out, size_t max)
{
	size_t n = strlen(t), k = 0, start = 0, i = 0;

	while (i <= n) {
		size_t l = 0;

		if (i < n)
			for (size_t j = 0; gr_clause_seps[j] && !l; j++) {
				long at = gr_find(t + i, n - i, gr_clause_seps[j]);

				if (at == 0)
					l = strlen(gr_clause_seps[j]);
			}
		if (i == n || l) {
			size_t at, vl;
			int verb = gr_verb(t + start, i - start, &at, &vl) != GR_NONE;

			if (k && !verb)
				out[k - 1].to = i;          /* joins the clause before */
			else if (k < max && i > start)
				out[k].from = start, out[k].to = i, k++;
			else if (k)
				out[k - 1].to = i;
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
		"我能按你的话编辑画布：添加或删除节点、连接或断开两个节点、设置参数、重命名节点。"
		"例如：“添加一个文本输入和一个大模型对话，然后连接它们”，或“把温度设为0.3”。这次没有做任何修改。" :
		"I can edit the canvas as you say: add or delete nodes, connect or disconnect two "
		"nodes, set a parameter, rename a node. For example: \"add a text input and an LLM "
		"chat, then connect them\", or \"set temperature to 0.3\". Nothing was changed this time.");
}

/* Runs the clauses; 1 when all were planned, 0 when one failed (p->why),
 * -1 when one was not understood. */
static int gr_run(struct gr_plan *p, const char *text)
{
	struct gr_span cl[32];
	size_t n = gr_clauses(text, cl, 32);

	if (!n || gr_question(text))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *s = text + cl[i].from, *b, *a;
		size_t len = cl[i].to - cl[i].from, at, vl, bn, an;
		enum gr_intent in = gr_verb(s, len, &at, &vl);

		if (in == GR_NONE)
			return -1;
		b = s, bn = at, a = s + at + vl, an = len - at - vl;
		gr_trim(&b, &bn);
		gr_trim(&a, &an);
		if (gr_handlers[in](p, b, bn, a, an))
			return 0;
	}
	return 1;
}

static json_t *gr_reply(struct gr_plan *p, int rc)
{
	struct buf r;
	json_t *ans;

	buf_init(&r, GR_REPLY_MAX + 64);
	if (rc == 1 && p->done.len) {
		buf_adds(&r, p->done.data);
		if (!p->zh)
			r.data[0] = (char)toupper((unsigned char)r.data[0]);
		buf_adds(&r, p->zh ? "。" : ".");
		ans = gr_answer(json_incref(p->patch), r.data);
	} else {
		buf_adds(&r, p->why.len ? p->why.data : "");
		buf_adds(&r, p->zh ? "这次没有做任何修改。" : " Nothing was changed this time.");
		ans = gr_answer(json_array(), r.data);
	}
	buf_free(&r);
	return ans;
}

json_t *graph_rules_plan(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *t = json_string_value(json_object_get(facts, "text"));
	const char *lang = json_string_value(json_object_get(facts, "lang"));
	struct gr_plan p;
	json_t *ans;
	int zh, rc;

	if (facts && !json_is_object(facts)) {
		snprintf(err, errlen, "graph_plan: facts must be an object");
		return NULL;
	}
	t = t ? t : text ? text : "";
	zh = lang ? strcmp(lang, "en") != 0 : strcmp(text_lang(t), "zh") == 0;
	if (json_array_size(json_object_get(facts, "errors")))
		return gr_repair(facts, zh);
	gr_plan_init(&p, facts, zh);
	rc = gr_run(&p, t);
	ans = rc < 0 ? gr_help(zh) : gr_reply(&p, rc);
	gr_plan_free(&p);
	return ans;
}
