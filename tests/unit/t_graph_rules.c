/* The offline planner of graph_edit (wf/graph_edit/graph_rules.h), as tables:
 * requests in Chinese and English against small canvases built from the
 * shipped node library (etc/nodes.json), each with the operations it
 * must give (op, path and the value members that matter) or an empty
 * patch, and a word its reply must hold. Then the property the workflow
 * relies on: every patch the rules give applies (json/patch.h, with a
 * hook that reads ids and localIds) and, once ids are given to new nodes
 * and edges and the edges of removed nodes dropped, validates
 * (graph_validate.h). Repairs of failed patches close the file. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "json/patch.h"
#include "wf/graph_edit/graph_rules.h"
#include "wf/graph_edit/graph_validate.h"

static json_t *defs;     /* the library, in file order */

#define N(id, type) "{\"id\": \"" id "\", \"type\": \"" type "\", \"data\": {\"configValues\": {}}}"
#define E(id, s, sh, t, th) "{\"id\": \"" id "\", \"source\": \"" s "\", \"sourceHandle\": \"" sh \
	"\", \"target\": \"" t "\", \"targetHandle\": \"" th "\"}"

static const char *const canvases[] = {
	/* 0: empty */
	"{\"nodes\": [], \"edges\": []}",
	/* 1: text -> chat, a preview */
	"{\"nodes\": [" N("n_text", "core:TextInput") ", " N("n_chat", "llm:Chat") ", "
	N("n_prev", "io:TextPreview") "], \"edges\": [" E("e_1", "n_text", "text", "n_chat", "prompt") "]}",
	/* 2: template -> image generator, an image preview */
	"{\"nodes\": [" N("n_tpl", "llm:PromptTemplate") ", " N("n_gen", "image:Generate") ", "
	N("n_view", "io:ImagePreview") "], \"edges\": [" E("e_2", "n_tpl", "prompt", "n_gen", "prompt") "]}",
	/* 3: two chats, one named */
	"{\"nodes\": [" N("n_c1", "llm:Chat") ", {\"id\": \"n_c2\", \"type\": \"llm:Chat\", \"displayName\":"
	" \"Critic\", \"data\": {\"configValues\": {}}}], \"edges\": []}",
};

struct rcase {
	int canvas;
	const char *text;
	const char *ops;    /* "op path k=v k=v | ..."; "" for an empty patch */
	const char *word;   /* in the reply */
};

static const struct rcase cases[] = {
	/* add */
	{ 0, "添加一个文本输入节点", "add /nodes/- type=core:TextInput localId=textinput1", "文本输入" },
	{ 0, "add a text input", "add /nodes/- type=core:TextInput", "Text input" },
	{ 0, "add an image generator and a preview",
	  "add /nodes/- type=image:Generate | add /nodes/- type=io:TextPreview", "Generate image" },
	{ 0, "两个随机数节点", "", "添加" },
	{ 0, "添加两个随机数节点",
	  "add /nodes/- type=util:RandomInteger localId=randominteger1 | add /nodes/- localId=randominteger2",
	  "2 个" },
	{ 0, "add three text inputs", "add /nodes/- type=core:TextInput | add /nodes/- | add /nodes/-",
	  "3" },
	{ 0, "创建一个大模型对话节点", "add /nodes/- type=llm:Chat localId=chat1", "大模型对话" },
	{ 0, "添加一个抠图节点", "add /nodes/- type=image:RemoveBackground", "抠图" },
	{ 0, "add an LLM", "add /nodes/- type=llm:Chat", "LLM chat" },
	{ 0, "add a regex replace node", "add /nodes/- type=text:RegexReplace", "Regex replace" },
	{ 0, "帮我创建一个A节点和一个B节点，然后连接它们", "", "A" },
	{ 0, "add a flux capacitor", "", "flux capacitor" },
	{ 1, "再加一个文本输入", "add /nodes/- type=core:TextInput localId=textinput1", "textinput1" },
	/* combinations */
	{ 0, "帮我创建一个文本输入节点和一个大模型对话节点，然后连接它们",
	  "add /nodes/- type=core:TextInput | add /nodes/- type=llm:Chat | add /edges/- "
	  "sourceLocalId=textinput1 sourceHandle=text targetLocalId=chat1 targetHandle=prompt", "prompt" },
	{ 0, "add a text input and an LLM chat, then connect them",
	  "add /nodes/- | add /nodes/- | add /edges/- sourceLocalId=textinput1 targetLocalId=chat1 "
	  "targetHandle=prompt", "connected" },
	{ 0, "添加文本输入、大模型对话和文本预览，然后连接它们",
	  "add /nodes/- | add /nodes/- | add /nodes/- type=io:TextPreview | add /edges/- "
	  "targetHandle=prompt | add /edges/- sourceLocalId=chat1 sourceHandle=text "
	  "targetLocalId=textpreview1 targetHandle=text", "文本预览" },
	{ 1, "connect the chat to the preview and set temperature to 0.3",
	  "add /edges/- source=n_chat sourceHandle=text target=n_prev targetHandle=text | add "
	  "/nodes/n_chat/data/configValues/temperature =0.3", "0.3" },
	{ 0, "添加一个生成图片节点，再添加一个图片预览，然后把生成图片接到图片预览",
	  "add /nodes/- type=image:Generate | add /nodes/- type=io:ImagePreview | add /edges/- "
	  "sourceLocalId=generate1 sourceHandle=image targetLocalId=imagepreview1 targetHandle=image",
	  "图片预览" },
	{ 1, "add a summariser then connect it to the preview",
	  "add /nodes/- type=llm:Summarize | add /edges/- sourceLocalId=summarize1 sourceHandle=summary "
	  "target=n_prev targetHandle=text", "Summarise" },
	/* delete */
	{ 1, "删除文本预览节点", "remove /nodes/n_prev", "文本预览" },
	{ 1, "remove the preview", "remove /nodes/n_prev", "Deleted" },
	{ 2, "删除提示词节点", "remove /nodes/n_tpl", "提示词模板" },
	{ 1, "delete the image generator", "", "no" },
	{ 3, "删除大模型对话", "", "Critic" },
	{ 3, "delete Critic", "remove /nodes/n_c2", "Critic" },
	{ 1, "删除文本输入和文本预览", "remove /nodes/n_text | remove /nodes/n_prev", "删除了" },
	/* connect */
	{ 1, "连接大模型对话和文本预览",
	  "add /edges/- source=n_chat sourceHandle=text target=n_prev targetHandle=text", "text" },
	{ 1, "把大模型对话接到文本预览", "add /edges/- source=n_chat target=n_prev", "文本预览" },
	{ 2, "connect the image generator to the image preview",
	  "add /edges/- source=n_gen sourceHandle=image target=n_view targetHandle=image", "image" },
	{ 2, "connect the prompt template to the image preview", "", "BINARY" },
	{ 1, "连接文本输入和大模型对话", "add /edges/- source=n_text target=n_chat targetHandle=system",
	  "system" },
	{ 1, "连接它们", "", "哪两个" },
	/* disconnect */
	{ 1, "断开文本输入和大模型对话的连接", "remove /edges/e_1", "断开" },
	{ 2, "disconnect the prompt template from the image generator", "remove /edges/e_2", "Removed" },
	{ 1, "断开大模型对话和文本预览", "", "没有连线" },
	{ 1, "delete the edge between the text input and the chat", "remove /edges/e_1", "Removed" },
	/* parameters */
	{ 1, "把 temperature 设为 0.3", "add /nodes/n_chat/data/configValues/temperature =0.3", "0.3" },
	{ 1, "set temperature to 0.3", "add /nodes/n_chat/data/configValues/temperature =0.3",
	  "Temperature" },
	{ 1, "温度改成0.5", "add /nodes/n_chat/data/configValues/temperature =0.5", "温度" },
	{ 2, "把宽度设为1024", "add /nodes/n_gen/data/configValues/width =1024", "1024" },
	{ 1, "把温度设为5", "", "0 到 2" },
	{ 2, "set the style to anime", "add /nodes/n_gen/data/configValues/style =\"anime\"", "anime" },
	{ 2, "set the style to sketch", "", "watercolor" },
	{ 3, "set temperature to 0.2", "", "Critic" },
	{ 3, "把Critic的温度设为0.2", "add /nodes/n_c2/data/configValues/temperature =0.2", "Critic" },
	{ 1, "set max tokens to 512", "add /nodes/n_chat/data/configValues/max_tokens =512", "512" },
	{ 1, "把文本预览的按 Markdown 显示设为打开", "add /nodes/n_prev/data/configValues/markdown =true",
	  "Markdown" },
	{ 0, "add an LLM and set temperature to 0.9",
	  "add /nodes/- type=llm:Chat localId=chat1", "0.9" },
	{ 2, "set steps to lots", "", "INTEGER" },
	/* rename */
	{ 1, "把大模型对话重命名为写作助手", "add /nodes/n_chat/displayName =\"写作助手\"", "写作助手" },
	{ 3, "rename Critic to Reviewer", "replace /nodes/n_c2/displayName =\"Reviewer\"", "Reviewer" },
	{ 0, "add a text input and rename it to Topic",
	  "add /nodes/- | add /nodes/textinput1/displayName =\"Topic\"", "Topic" },
	/* not understood */
	{ 1, "你好", "", "例如" },
	{ 1, "make it faster", "", "For example" },
	{ 1, "怎么添加节点？", "", "例如" },
	{ 1, "what can you do?", "", "connect" },
};

/* -- checking one operation --------------------------------------------- */

static int check_member(const json_t *v, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[64];
	const json_t *m;

	if (eq == kv) {         /* "=JSON": the whole value */
		json_t *want = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
		int same = want && patch_equal(v, want);

		json_decref(want);
		return same;
	}
	snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
	m = json_object_get(v, key);
	return json_is_string(m) && strcmp(json_string_value(m), eq + 1) == 0;
}

static int check_op(const json_t *op, char *spec)
{
	char *save = NULL, *w = strtok_r(spec, " ", &save);
	const json_t *v = json_object_get(op, "value");

	if (!w || strcmp(w, json_string_value(json_object_get(op, "op")) ?: "") != 0)
		return 0;
	w = strtok_r(NULL, " ", &save);
	if (!w || strcmp(w, json_string_value(json_object_get(op, "path")) ?: "") != 0)
		return 0;
	while ((w = strtok_r(NULL, " ", &save)))
		if (!check_member(v, w))
			return 0;
	return 1;
}

/* "" when the patch is as spec says, else what differs. */
static const char *check_patch(const json_t *patch, const char *spec, char *why, size_t n)
{
	char *copy = strdup(spec), *save = NULL, *s;
	size_t i = 0;

	*why = '\0';
	for (s = strtok_r(copy, "|", &save); s; s = strtok_r(NULL, "|", &save), i++) {
		char *one = strdup(s);

		if (!check_op(json_array_get(patch, i), one))
			snprintf(why, n, "operation %zu is not \"%s\"", i, s);
		free(one);
		if (*why)
			break;
	}
	if (!*why && i != json_array_size(patch))
		snprintf(why, n, "%zu operations, want %zu", json_array_size(patch), i);
	free(copy);
	return why;
}

/* -- applying and validating ----------------------------------------------- */

static long hook_find(void *ctx, const char *array_ptr, const json_t *array, const char *tok)
{
	const json_t *e;
	size_t i;

	(void)ctx;
	if (strcmp(array_ptr, "/nodes") && strcmp(array_ptr, "/edges"))
		return -1;
	json_array_foreach(array, i, e) {
		const char *id = json_string_value(json_object_get(e, "id"));
		const char *lid = json_string_value(json_object_get(e, "localId"));

		if ((id && !strcmp(id, tok)) || (lid && !strcmp(lid, tok)))
			return (long)i;
	}
	return -1;
}

static json_t *find_def(void *ctx, const char *type)
{
	const json_t *d;
	size_t i;

	(void)ctx;
	json_array_foreach(defs, i, d)
		if (!strcmp(json_string_value(json_object_get(d, "type")), type))
			return (json_t *)d;
	return NULL;
}

static void resolve_end(json_t *e, const char *key, const char *lkey)
{
	const char *lid = json_string_value(json_object_get(e, lkey));

	if (lid) {
		char id[160];

		snprintf(id, sizeof id, "n_%s", lid);
		json_object_set_new(e, key, json_string(id));
		json_object_del(e, lkey);
	}
}

/* Ids for the new nodes and edges, the edges of removed nodes dropped. */
static void assign_ids(json_t *wf)
{
	json_t *nodes = json_object_get(wf, "nodes"), *edges = json_object_get(wf, "edges"), *x;
	json_t *ids = json_object();
	size_t i;

	json_array_foreach(nodes, i, x) {
		const char *lid = json_string_value(json_object_get(x, "localId"));

		if (lid) {
			char id[160];

			snprintf(id, sizeof id, "n_%s", lid);
			json_object_set_new(x, "id", json_string(id));
			json_object_del(x, "localId");
		}
		json_object_set_new(ids, json_string_value(json_object_get(x, "id")), json_true());
	}
	for (i = json_array_size(edges); i-- > 0;) {
		x = json_array_get(edges, i);
		resolve_end(x, "source", "sourceLocalId");
		resolve_end(x, "target", "targetLocalId");
		if (!json_object_get(x, "id")) {
			char id[32];

			snprintf(id, sizeof id, "e_new%zu", i);
			json_object_set_new(x, "id", json_string(id));
		}
		if (!json_object_get(ids, json_string_value(json_object_get(x, "source"))) ||
		    !json_object_get(ids, json_string_value(json_object_get(x, "target"))))
			json_array_remove(edges, i);
	}
	json_decref(ids);
}

/* "" when patch applies to the canvas and the result validates. */
static const char *apply_ok(const json_t *canvas, const json_t *patch, char *why, size_t n)
{
	struct patch_opts o = { .hook = { hook_find, NULL } };
	struct patch_error pe;
	struct graph_defs gd = { find_def, NULL };
	json_t *wf = json_deep_copy(canvas), *out, *errs;

	*why = '\0';
	json_object_set_new(wf, "name", json_string("t"));
	json_object_set_new(wf, "viewport", json_pack("{s:i, s:i, s:i}", "x", 0, "y", 0, "zoom", 1));
	out = patch_apply(wf, patch, &o, &pe);
	json_decref(wf);
	if (!out) {
		snprintf(why, n, "patch fails at %ld (%s): %s", pe.index, pe.path, pe.message);
		return why;
	}
	assign_ids(out);
	errs = graph_validate(out, &gd, GRAPH_VALIDATE_NO_POSITION, 0);
	if (json_array_size(errs)) {
		char *d = json_dumps(errs, JSON_COMPACT);

		snprintf(why, n, "invalid: %.300s", d);
		free(d);
	}
	json_decref(errs);
	json_decref(out);
	return why;
}

static json_t *facts_for(int canvas, const char *text)
{
	return json_pack("{s:s, s:o, s:O}", "text", text, "workflow",
			 json_loads(canvases[canvas], 0, NULL), "definitions", defs);
}

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct rcase *c = &cases[i];
		json_t *f = facts_for(c->canvas, c->text);
		char err[256] = "", why[1024];
		json_t *ans = graph_rules_plan(f, c->text, err, sizeof err);
		const json_t *patch = json_object_get(ans, "patch");
		const char *reply = json_string_value(json_object_get(ans, "reply"));

		if (!ok(json_is_array(patch) && reply, "\"%s\": an answer (%s)", c->text, err)) {
			json_decref(f);
			continue;
		}
		is_str(check_patch(patch, c->ops, why, sizeof why), "", "\"%s\": the patch (%s)",
		       c->text, reply);
		ok(strstr(reply, c->word) != NULL, "\"%s\": the reply holds \"%s\": %s", c->text,
		   c->word, reply);
		if (json_array_size(patch))
			is_str(apply_ok(json_object_get(f, "workflow"), patch, why, sizeof why), "",
			       "\"%s\": the patch applies and validates", c->text);
		json_decref(ans);
		json_decref(f);
	}
}

/* -- repair ------------------------------------------------------------------- */

struct fcase {
	int canvas;
	const char *prev;      /* the failed patch */
	const char *ops;       /* what the repair gives; "" for nothing */
	const char *word;
};

static const struct fcase fixes[] = {
	{ 2, "[{\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"source\": \"n_gen\", \"sourceHandle\": "
	  "\"url\", \"target\": \"n_view\", \"targetHandle\": \"image\"}}]",
	  "add /edges/- source=n_gen sourceHandle=image target=n_view targetHandle=image", "image" },
	{ 0, "[{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"localId\": \"a\", \"type\": "
	  "\"llm:Chatbot\", \"id\": \"x\"}}]", "add /nodes/- type=llm:Chat", "llm:Chatbot" },
	{ 1, "[{\"op\": \"add\", \"path\": \"/nodes/n_chat/data/configValues/temperature\", \"value\": 7}]",
	  "add /nodes/n_chat/data/configValues/temperature =2", "temperature" },
	{ 1, "[{\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"source\": \"n_nowhere\", "
	  "\"sourceHandle\": \"text\", \"target\": \"n_chat\", \"targetHandle\": \"prompt\"}}]", "",
	  "dangling" },
};

static void test_repair(void)
{
	for (size_t i = 0; i < sizeof fixes / sizeof fixes[0]; i++) {
		const struct fcase *c = &fixes[i];
		json_t *f = facts_for(c->canvas, "fix it"), *ans;
		char err[256] = "", why[1024];
		const json_t *patch;
		const char *reply;

		json_object_set_new(f, "lang", json_string("en"));
		json_object_set_new(f, "previousPatch", json_loads(c->prev, 0, NULL));
		json_object_set_new(f, "errors", json_pack("[{s:i, s:s, s:s, s:s, s:s}]", "index", 0,
			"op", "add", "path", "/edges/0", "code", "dangling_edge", "message",
			"dangling edge"));
		ans = graph_rules_plan(f, NULL, err, sizeof err);
		patch = json_object_get(ans, "patch");
		reply = json_string_value(json_object_get(ans, "reply"));
		is_str(check_patch(patch, c->ops, why, sizeof why), "", "repair %zu: the patch (%s)", i,
		       reply ?: "");
		ok(reply && strstr(reply, c->word), "repair %zu: the reply holds \"%s\": %s", i, c->word,
		   reply ?: "");
		if (json_array_size(patch))
			is_str(apply_ok(json_object_get(f, "workflow"), patch, why, sizeof why), "",
			       "repair %zu: the patch applies and validates", i);
		json_decref(ans);
		json_decref(f);
	}
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	json_error_t je;

	snprintf(path, sizeof path, "%s/etc/nodes.json", top && *top ? top : ".");
	defs = json_load_file(path, 0, &je);
	if (!json_is_array(defs)) {
		printf("Bail out! %s: %s\n", path, je.text);
		return 99;
	}
	test_cases();
	test_repair();
	json_t *one = json_integer(1);

	ok(graph_rules_plan(one, "x", (char[64]){0}, 64) == NULL,
	   "facts that are not an object are refused");
	json_decref(one);
	json_decref(defs);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
