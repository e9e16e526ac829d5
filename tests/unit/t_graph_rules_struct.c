/* The offline planner's structural edits and answers (graph_rules.h), as a
 * table: a node put between two connected nodes (the edge removed, two
 * edges through the new node on slots that fit), after or before a node,
 * a node replaced keeping the edges that fit, chains, several sources into
 * one node by their slots, settings by the meaning of their values,
 * questions answered from the canvas, parts not done named with why, a
 * broken canvas said to be broken. Each row lists operations the patch
 * must hold (in any order) and how many it has, and words of the reply.
 * Then the layout of such results (graph_layout.h): a node inserted into
 * an edge lies between its two ends and overlaps no box. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/graph_edit/graph_layout.h"
#include "wf/graph_edit/graph_rules.h"

static json_t *defs;

#define N(id, type) "{\"id\": \"" id "\", \"type\": \"" type "\", \"data\": {\"configValues\": {}}}"
#define E(id, s, sh, t, th) "{\"id\": \"" id "\", \"source\": \"" s "\", \"sourceHandle\": \"" sh \
	"\", \"target\": \"" t "\", \"targetHandle\": \"" th "\"}"

static const char *const canvases[] = {
	/* 0: text input -> summary -> preview; an image input and a remover apart */
	"{\"nodes\": [" N("n_in", "core:TextInput") ", " N("n_sum", "llm:Summarize") ", "
	N("n_prev", "io:TextPreview") ", " N("n_img", "io:ImageInput") ", "
	N("n_rb", "image:RemoveBackground") "], \"edges\": [" E("e1", "n_in", "text", "n_sum", "text")
	", " E("e2", "n_sum", "summary", "n_prev", "text") "]}",
	/* 1: image input -> remover; an inpaint */
	"{\"nodes\": [" N("n_img", "io:ImageInput") ", " N("n_rb", "image:RemoveBackground") ", "
	N("n_ip", "image:Inpaint") "], \"edges\": [" E("e1", "n_img", "image", "n_rb", "image") "]}",
	/* 2: three loose nodes */
	"{\"nodes\": [" N("n_a", "core:TextInput") ", " N("n_b", "llm:Translate") ", "
	N("n_c", "io:TextPreview") "], \"edges\": []}",
	/* 3: an edge to a missing node */
	"{\"nodes\": [" N("n_in", "core:TextInput") "], \"edges\": [" E("e_bad", "n_in", "text", "n_gone",
	"text") "]}",
	/* 4: text input -> translate -> summary -> preview */
	"{\"nodes\": [" N("n_in", "core:TextInput") ", " N("n_tr", "llm:Translate") ", "
	N("n_sum", "llm:Summarize") ", " N("n_prev", "io:TextPreview") "], \"edges\": ["
	E("e1", "n_in", "text", "n_tr", "text") ", " E("e2", "n_tr", "text", "n_sum", "text") ", "
	E("e3", "n_sum", "summary", "n_prev", "text") "]}",
	/* 5: image input -> remover -> image preview */
	"{\"nodes\": [" N("n_img", "io:ImageInput") ", " N("n_rb", "image:RemoveBackground") ", "
	N("n_prev", "io:ImagePreview") "], \"edges\": [" E("e1", "n_img", "image", "n_rb", "image") ", "
	E("e2", "n_rb", "image", "n_prev", "image") "]}",
	/* 6: empty */
	"{\"nodes\": [], \"edges\": []}",
};

struct scase {
	int canvas;
	const char *text;
	int nops;           /* operations in the patch */
	const char *ops;    /* "op path k=v | ...", each somewhere in the patch */
	const char *word;   /* in the reply */
};

static const struct scase cases[] = {
	{ 0, "在摘要总结和文本预览之间插入一个翻译节点", 4,
	  "add /nodes/- type=llm:Translate | remove /edges/e2 | add /edges/- source=n_sum "
	  "sourceHandle=summary targetLocalId=translate1 targetHandle=text | add /edges/- "
	  "sourceLocalId=translate1 sourceHandle=text target=n_prev targetHandle=text", "插入" },
	{ 0, "insert a translator between the summarizer and the preview", 4,
	  "remove /edges/e2 | add /edges/- targetLocalId=translate1 | add /edges/- target=n_prev",
	  "between" },
	{ 0, "add a translate node after the summariser", 4, "remove /edges/e2", "after" },
	{ 0, "在文本预览前面加一个去除空白", 4, "remove /edges/e2 | add /edges/- source=n_sum "
	  "targetLocalId=trim1", "前面" },
	{ 0, "insert an upscale node between the summary and the preview", 1,
	  "add /nodes/- type=image:Upscale", "could not be connected" },
	{ 0, "把摘要总结换成翻译", 4, "remove /nodes/n_sum | add /nodes/- type=llm:Translate | "
	  "add /edges/- source=n_in targetLocalId=translate1 | add /edges/- sourceLocalId=translate1 "
	  "target=n_prev", "换成" },
	{ 0, "replace the summarizer with a keyword extractor", 3,
	  "remove /nodes/n_sum | add /nodes/- type=text:Keywords | add /edges/- source=n_in",
	  "could not be kept" },
	{ 2, "chain the text input, the translator and the preview in order", 2,
	  "add /edges/- source=n_a target=n_b | add /edges/- source=n_b target=n_c", "Connected" },
	{ 2, "把文本输入、翻译和文本预览依次连起来", 2, "add /edges/- source=n_a target=n_b | "
	  "add /edges/- source=n_b target=n_c", "连到" },
	{ 2, "connect all three in order", 2, "add /edges/- source=n_a target=n_b", "Connected" },
	{ 2, "把翻译接在文本输入后面", 1, "add /edges/- source=n_a target=n_b", "连到" },
	{ 1, "把图片输入和抠图的蒙版接到局部重绘", 2, "add /edges/- source=n_img sourceHandle=image "
	  "target=n_ip targetHandle=image | add /edges/- source=n_rb sourceHandle=mask target=n_ip "
	  "targetHandle=mask", "mask" },
	{ 4, "把翻译设成日语，总结用要点列表", 2, "add /nodes/n_tr/data/configValues/target =\"ja\" | "
	  "add /nodes/n_sum/data/configValues/style =\"bullets\"", "ja" },
	{ 4, "总结用要点列表", 1, "add /nodes/n_sum/data/configValues/style =\"bullets\"", "bullets" },
	{ 4, "翻译用法语，摘要用一段话", 2, "add /nodes/n_tr/data/configValues/target =\"fr\" | "
	  "add /nodes/n_sum/data/configValues/style", "fr" },
	{ 4, "set the translator to Japanese and the summary to bullet points", 2,
	  "add /nodes/n_tr/data/configValues/target =\"ja\" | add /nodes/n_sum/data/configValues/style =\"bullets\"",
	  "ja" },
	{ 2, "用一个摘要总结替换翻译", 2, "add /nodes/- type=llm:Summarize | remove /nodes/n_b", "换成" },
	{ 4, "how many nodes are there, and what is not connected?", 0, "", "4 nodes and 3 edges" },
	{ 2, "画布上有几个节点？哪些没连上？", 0, "", "3 个节点" },
	{ 5, "删掉预览，然后把抠图连到一个新的图片预览", 3, "remove /nodes/n_prev | add /nodes/- "
	  "type=io:ImagePreview | add /edges/- source=n_rb targetLocalId=imagepreview1", "添加了「图片预览」" },
	{ 5, "connect the remover to a new image preview", 2, "add /nodes/- type=io:ImagePreview | "
	  "add /edges/- source=n_rb targetLocalId=imagepreview1", "Added" },
	{ 5, "what feeds the resize node?", 0, "", "There is no \"resize\"" },
	{ 5, "swap the preview for a save image node", 3, "remove /nodes/n_prev | add /nodes/- type=io:SaveFile",
	  "Save file" },
	{ 5, "预览前面接的是什么？", 0, "", "「抠图」.image → 「图片预览」.image" },
	{ 5, "抠图后面接的是什么？", 0, "", "连到" },
	{ 6, "加一个文本输入，接一个大模型对话，再接一个文本预览", 5, "add /edges/- "
	  "sourceLocalId=textinput1 targetLocalId=chat1 | add /edges/- sourceLocalId=chat1 "
	  "targetLocalId=textpreview1", "连到" },
	{ 6, "添加一个翻译节点，翻成英文", 1, "add /nodes/- type=llm:Translate", "(en)" },
	{ 6, "add a translate node and translate it into German", 1, "add /nodes/- type=llm:Translate", "(de)" },
	{ 0, "set the summariser's style to bullets", 1,
	  "add /nodes/n_sum/data/configValues/style =\"bullets\"", "bullets" },
	{ 2, "把翻译设成日语", 1, "add /nodes/n_b/data/configValues/target =\"ja\"", "ja" },
	{ 0, "add a translator and set its target language to Japanese", 1,
	  "add /nodes/- type=llm:Translate", "Japanese" },
	{ 0, "add a translator and a flux capacitor", 1, "add /nodes/- type=llm:Translate",
	  "flux capacitor" },
	{ 0, "how many nodes are on the canvas?", 0, "", "5 nodes" },
	{ 0, "哪些节点没有连接？", 0, "", "抠图" },
	{ 0, "what feeds the preview?", 0, "", "Summarise" },
	{ 0, "which node has an error?", 0, "", "Remove background" },
	{ 3, "add a text preview", 0, "", "e_bad" },
	{ 3, "fix the canvas", 1, "remove /edges/e_bad", "e_bad" },
};

static int op_matches(const json_t *op, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *w = strtok_r(copy, " ", &save);
	const json_t *v = json_object_get(op, "value");
	int ok_ = w && !strcmp(w, json_string_value(json_object_get(op, "op")) ?: "");

	w = ok_ ? strtok_r(NULL, " ", &save) : NULL;
	ok_ = ok_ && w && !strcmp(w, json_string_value(json_object_get(op, "path")) ?: "");
	while (ok_ && (w = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(w, '=');

		if (eq == w) {
			json_t *want = json_loads(eq + 1, JSON_DECODE_ANY, NULL);

			ok_ = want && json_equal(v, want);
			json_decref(want);
		} else {
			*eq = '\0';
			ok_ = !strcmp(json_string_value(json_object_get(v, w)) ?: "", eq + 1);
		}
	}
	free(copy);
	return ok_;
}

/* The first spec of specs no operation of patch matches, or NULL. New string. */
static char *missing_op(const json_t *patch, const char *specs)
{
	char *copy = strdup(specs), *save = NULL, *miss = NULL;

	for (char *s = strtok_r(copy, "|", &save); s && !miss; s = strtok_r(NULL, "|", &save)) {
		const json_t *op;
		size_t i;
		int hit = 0;

		while (*s == ' ')
			s++;
		json_array_foreach(patch, i, op)
			hit |= op_matches(op, s);
		if (!hit)
			miss = strdup(s);
	}
	free(copy);
	return miss;
}

static void run_case(const struct scase *c)
{
	json_t *facts = json_pack("{s:s, s:s, s:o, s:O}", "text", c->text, "lang",
				  strchr(c->text, ' ') ? "en" : "zh", "workflow",
				  json_loads(canvases[c->canvas], 0, NULL), "definitions", defs);
	char err[256], *miss;
	json_t *ans = graph_rules_plan(facts, c->text, err, sizeof err);
	const json_t *patch = json_object_get(ans, "patch");
	const char *reply = json_string_value(json_object_get(ans, "reply")) ?: "";

	is_int(json_array_size(patch), c->nops, "\"%s\": %d operations (%s)", c->text, c->nops, reply);
	miss = missing_op(patch, c->ops);
	ok(!miss, "\"%s\": the patch has %s", c->text, miss ? miss : "what it should");
	ok(strstr(reply, c->word) != NULL, "\"%s\": the reply holds \"%s\"", c->text, c->word);
	free(miss);
	json_decref(ans);
	json_decref(facts);
}

/* -- layout ------------------------------------------------------------------ */

struct lcase {
	const char *wf;
	const char *id;       /* the node placed */
	const char *left, *right; /* it lies between these two (x), or NULL */
};

#define P(id, x, y) "{\"id\": \"" id "\", \"position\": {\"x\": " #x ", \"y\": " #y "}}"
#define U(id) "{\"id\": \"" id "\"}"
#define L(s, t) "{\"source\": \"" s "\", \"target\": \"" t "\"}"

static const struct lcase lcases[] = {
	/* inserted into a -> c, with room between */
	{ "{\"nodes\": [" P("a", 0, 0) ", " P("c", 800, 0) ", " U("x") "], \"edges\": [" L("a", "x") ", "
	  L("x", "c") "]}", "x", "a", "c" },
	/* no room between: above or below, still between in x */
	{ "{\"nodes\": [" P("a", 0, 0) ", " P("c", 320, 0) ", " P("d", 640, 0) ", " U("x") "], \"edges\": ["
	  L("a", "x") ", " L("x", "c") ", " L("c", "d") "]}", "x", "a", "c" },
	/* another node sits between: placed clear of it */
	{ "{\"nodes\": [" P("a", 0, 0) ", " P("m", 330, 0) ", " P("c", 660, 0) ", " U("x") "], \"edges\": ["
	  L("a", "x") ", " L("x", "c") "]}", "x", "a", "c" },
	/* after a node: to its right, clear of its old consumer */
	{ "{\"nodes\": [" P("a", 0, 0) ", " P("b", 320, 0) ", " U("x") "], \"edges\": [" L("a", "b") ", "
	  L("a", "x") "]}", "x", "a", NULL },
	/* two new nodes inserted in a row into a -> c: both between, in order */
	{ "{\"nodes\": [" P("a", 0, 0) ", " P("c", 640, 0) ", " U("x") ", " U("y") "], \"edges\": ["
	  L("a", "x") ", " L("x", "y") ", " L("y", "c") "]}", "x", "a", "c" },
	{ "{\"nodes\": [" P("a", 0, 0) ", " P("c", 640, 0) ", " U("x") ", " U("y") "], \"edges\": ["
	  L("a", "x") ", " L("x", "y") ", " L("y", "c") "]}", "y", "x", "c" },
	/* a chain of two new nodes after a placed one */
	{ "{\"nodes\": [" P("a", 0, 0) ", " U("x") ", " U("y") "], \"edges\": [" L("a", "x") ", "
	  L("x", "y") "]}", "y", "x", NULL },
};

static const json_t *lnode(const json_t *wf, const char *id)
{
	const json_t *n;
	size_t i;

	json_array_foreach(json_object_get(wf, "nodes"), i, n)
		if (!strcmp(json_string_value(json_object_get(n, "id")), id))
			return n;
	return NULL;
}

static double lx(const json_t *wf, const char *id)
{
	return json_number_value(json_object_get(json_object_get(lnode(wf, id), "position"), "x"));
}

static int loverlap(const json_t *wf)
{
	const json_t *a, *b, *nodes = json_object_get(wf, "nodes");
	size_t i, j;

	json_array_foreach(nodes, i, a)
		json_array_foreach(nodes, j, b) {
			const json_t *pa = json_object_get(a, "position"), *pb = json_object_get(b, "position");
			double ax = json_number_value(json_object_get(pa, "x")), ay = json_number_value(json_object_get(pa, "y"));
			double bx = json_number_value(json_object_get(pb, "x")), by = json_number_value(json_object_get(pb, "y"));

			if (j > i && ax < bx + 240 && bx < ax + 240 && ay < by + 72 && by < ay + 72)
				return 1;
		}
	return 0;
}

static void run_layout(const struct lcase *c)
{
	json_t *wf = json_loads(c->wf, 0, NULL);
	char err[128];
	double x;

	graph_layout(wf, GRAPH_LAYOUT_NEW, NULL, NULL, err, sizeof err);
	x = lx(wf, c->id);
	ok(!loverlap(wf), "layout %s: no boxes overlap", c->id);
	if (c->right)
		ok(lx(wf, c->left) < x && x < lx(wf, c->right), "layout %s: between %s and %s (x %g)",
		   c->id, c->left, c->right, x);
	else
		ok(x > lx(wf, c->left) && x <= lx(wf, c->left) + 240 + GRAPH_LAYER_GAP,
		   "layout %s: right after %s (x %g)", c->id, c->left, x);
	json_decref(wf);
}

int main(void)
{
	const char *top = getenv("top_srcdir") ? getenv("top_srcdir") : getenv("srcdir");
	char path[4096];

	snprintf(path, sizeof path, "%s/etc/nodes.json", top ? top : ".");
	if (!(defs = json_load_file(path, 0, NULL)))
		tap_bail("cannot read %s", path);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	for (size_t i = 0; i < sizeof lcases / sizeof lcases[0]; i++)
		run_layout(&lcases[i]);
	json_decref(defs);
	return tap_done();
}
