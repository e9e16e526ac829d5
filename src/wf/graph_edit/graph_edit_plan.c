/* graph_edit's retrieval and planning: the node definitions relevant to
 * the request, and the model's patch for it. The model gets a system
 * prompt of ours (the dialect, its rules, examples) and the facts as the
 * user message; the rules beside the prompt answer the same task when no
 * model is configured. The answer may be {"patch", "reply"}, a bare
 * array of operations, or either inside a ```json fence. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "json/dump.h"
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/retrieve.h"
#include "text/msg.h"
#include "util/buf.h"
#include "util/jnum.h"
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_edit_common.h"
#include "wf/graph_edit/graph_rules.h"
#include "wf/graph_edit/graph_nodes.h"

#define GE_SYSTEM \
	"You edit AI workflows (graphs of typed nodes joined by edges) for a person. The user " \
	"message is JSON: text (the request), lang, workflow (the current nodes and edges), " \
	"definitions (the node types you may use, with their inputs, outputs and configValues), " \
	"and, when a previous answer failed, errors and previousPatch (correct it), or feedback " \
	"(the person's words about your last proposal).\n" \
	"Answer only a JSON object: {\"patch\": [RFC 6902 operations], \"reply\": \"one or two " \
	"sentences in the request's language saying what the patch does\"}. If the request " \
	"cannot be done, give an empty patch and say why in reply, and what can be asked.\n" \
	"Rules of the patch:\n" \
	"- A new node: {\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"localId\": \"a\", " \
	"\"type\": \"namespace:Name\", \"displayName\"?: \"...\", \"data\"?: {\"configValues\": {...}}}}. " \
	"Never give id or position: the server generates ids and places nodes. localIds are short " \
	"names like \"a\", \"prompt1\", never all digits, each used once.\n" \
	"- A new edge: {\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"source\" (a node id) or " \
	"\"sourceLocalId\", \"sourceHandle\": an output slot of the source, \"target\" or " \
	"\"targetLocalId\", \"targetHandle\": an input slot of the target}}. Never give id. The " \
	"slots' data types must fit: the same type, INTEGER into FLOAT, anything into or out of " \
	"WILDCARD; an input that is not multi takes one edge.\n" \
	"- Paths may name an existing node or edge by its id, or a new node by its localId, " \
	"instead of an index: /nodes/<id>/data/configValues/<param>, /nodes/<id>/displayName, " \
	"/nodes/<id>, /edges/<id>.\n" \
	"- Remove a node: {\"op\": \"remove\", \"path\": \"/nodes/<id>\"} (its edges go with it). " \
	"Rename: {\"op\": \"add\", \"path\": \"/nodes/<id>/displayName\", \"value\": \"...\"}. Set a " \
	"parameter: {\"op\": \"add\", \"path\": \"/nodes/<id>/data/configValues/<param>\", " \
	"\"value\": ...} within the parameter's type and range. Use only types from definitions.\n" \
	"Examples.\n" \
	"1. \"add a text input and an LLM chat and connect them\": {\"patch\": [{\"op\": \"add\", " \
	"\"path\": \"/nodes/-\", \"value\": {\"localId\": \"a\", \"type\": \"core:TextInput\"}}, " \
	"{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"localId\": \"b\", \"type\": " \
	"\"llm:Chat\"}}, {\"op\": \"add\", \"path\": \"/edges/-\", \"value\": {\"sourceLocalId\": " \
	"\"a\", \"sourceHandle\": \"text\", \"targetLocalId\": \"b\", \"targetHandle\": \"prompt\"}}], " \
	"\"reply\": \"Added a text input and an LLM chat, the text going into the prompt.\"}\n" \
	"2. \"把温度设为 0.3\" with node n_Ab3 of type llm:Chat: {\"patch\": [{\"op\": \"add\", " \
	"\"path\": \"/nodes/n_Ab3/data/configValues/temperature\", \"value\": 0.3}], \"reply\": " \
	"\"已把 LLM 对话的温度设为 0.3。\"}\n" \
	"3. \"delete the preview and the edge into the chat\" with nodes n_P1 and edge e_Q2: " \
	"{\"patch\": [{\"op\": \"remove\", \"path\": \"/nodes/n_P1\"}, {\"op\": \"remove\", \"path\": " \
	"\"/edges/e_Q2\"}], \"reply\": \"Removed the preview node and the chat's input edge.\"}"

const struct graph_edit_prompt graph_edit_plan_prompt = {
	"graph_plan", 0.2, GE_SYSTEM, graph_rules_plan,
};

/* -- retrieve --------------------------------------------------------------- */

static void ge_add_type(json_t *types, const char *t)
{
	size_t i;
	json_t *v;

	json_array_foreach(types, i, v)
		if (strcmp(json_string_value(v), t) == 0)
			return;
	json_array_append_new(types, json_string(t));
}

/* English endings people put on what a node does ("translator",
 * "summariser", "previews"), each with the endings the library's names
 * and keywords use. */
static const char *const ge_endings[][2] = {
	{ "ator", "ate" }, { "ators", "ate" }, { "ifier", "ify" }, { "ifiers", "ify" }, { "isers", "ize" }, { "izers", "ize" }, { "iser", "ize" },
	{ "izer", "ize" }, { "ise", "ize" }, { "ised", "ize" }, { "ies", "y" }, { "ers", "" },
	{ "er", "" }, { "er", "e" }, { "ors", "" }, { "or", "" }, { "s", "" }, { "ing", "" },
	{ "ing", "e" },
};

/* The request with, after it, the other forms of its English words, so
 * that the lexical retrieval finds "Translate" for "translator". New
 * string. */
static char *ge_query(const char *text)
{
	struct buf b;
	const char *p = text;

	buf_init(&b, strlen(text) * 3 + 64);
	buf_adds(&b, text);
	while (*p) {
		size_t n = 0;

		while (p[n] && ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
			n++;
		for (size_t i = 0; n >= 4 && i < sizeof ge_endings / sizeof ge_endings[0]; i++) {
			size_t l = strlen(ge_endings[i][0]);

			if (n > l + 2 && strncasecmp(p + n - l, ge_endings[i][0], l) == 0)
				buf_printf(&b, " %.*s%s", (int)(n - l), p, ge_endings[i][1]);
		}
		p += n ? n : 1;
	}
	return buf_steal(&b);
}

enum node_rc graph_edit_retrieve(struct step_ctx *c)
{
	const char *text = json_string_value(json_object_get(json_object_get(c->state, "turn"), "text")) ?: "";
	const char *name_key = strcmp(step_lang(c), "zh") == 0 ? "name_zh" : "name_en";
	char err[256];
	struct kb *kb = graph_nodes(step_app(c), err, sizeof err);
	struct kb_retrieve_info info;
	json_t *types = json_array(), *hits, *h, *n;
	struct buf names;
	size_t i;
	char *query;

	if (kb == NULL) {
		json_decref(types);
		return step_fail(c, "library_unavailable", "%s", msg_error(step_lang(c), "library_unavailable"));
	}
	query = ge_query(text);
	hits = kb_retrieve(step_app(c), kb, query, GRAPH_EDIT_RETRIEVE, 0.0, &info);
	free(query);
	buf_init(&names, 4096);
	json_array_foreach(hits, i, h) {
		ge_add_type(types, json_string_value(json_object_get(h, "id")));
		buf_printf(&names, "%s%s", i ? (strcmp(step_lang(c), "zh") == 0 ? "、" : ", ") : "",
			   json_string_value(json_object_get(h, name_key)) ?: "");
	}
	if (json_array_size(hits) > 0)
		graph_edit_say(c, "thought_log", "graph.retrieve.found", (int)json_array_size(hits),
			       kb_method_words(step_lang(c), info.method), names.data);
	else
		graph_edit_say(c, "thought_log", "graph.retrieve.none",
			       kb_method_words(step_lang(c), info.method));
	json_array_foreach(json_object_get(json_object_get(c->state, "workflow"), "nodes"), i, n)
		if (json_is_string(json_object_get(n, "type")) &&
		    graph_nodes_find(kb, json_string_value(json_object_get(n, "type"))))
			ge_add_type(types, json_string_value(json_object_get(n, "type")));
	buf_free(&names);
	json_decref(hits);
	json_object_set_new(c->state, "types", types);
	c->next = "plan";
	return NODE_NEXT;
}

/* -- facts ------------------------------------------------------------------ */

static json_t *ge_compact_node(const json_t *n)
{
	json_t *out = json_pack("{s:O, s:O}", "id", json_object_get(n, "id"), "type",
				json_object_get(n, "type")), *data = json_object_get(n, "data"), *d;

	if (json_object_get(n, "displayName"))
		json_object_set(out, "displayName", json_object_get(n, "displayName"));
	if (json_is_object(data)) {
		d = json_object();
		if (json_is_object(json_object_get(data, "configValues")) &&
		    json_object_size(json_object_get(data, "configValues")) > 0)
			json_object_set(d, "configValues", json_object_get(data, "configValues"));
		if (json_object_get(data, "label"))
			json_object_set(d, "label", json_object_get(data, "label"));
		if (json_object_size(d) > 0)
			json_object_set(out, "data", d);
		json_decref(d);
	}
	return out;
}

/* The workflow as the model needs it: no positions, no viewport. */
static json_t *ge_compact(const json_t *wf)
{
	json_t *nodes = json_array(), *edges = json_array(), *v;
	static const char *const ek[] = { "id", "source", "sourceHandle", "target", "targetHandle" };
	size_t i;

	json_array_foreach(json_object_get(wf, "nodes"), i, v)
		json_array_append_new(nodes, ge_compact_node(v));
	json_array_foreach(json_object_get(wf, "edges"), i, v) {
		json_t *e = json_object();

		for (size_t k = 0; k < 5; k++)
			if (json_object_get(v, ek[k]))
				json_object_set(e, ek[k], json_object_get(v, ek[k]));
		json_array_append_new(edges, e);
	}
	return json_pack("{s:o, s:o}", "nodes", nodes, "edges", edges);
}

static json_t *ge_facts(struct step_ctx *c)
{
	char err[256];
	struct kb *kb = graph_nodes(step_app(c), err, sizeof err);
	json_t *defs = json_array(), *t, *d;
	json_t *repair = json_object_get(c->state, "repair"), *fb = json_object_get(c->state, "feedback");
	json_t *facts;
	size_t i;

	json_array_foreach(json_object_get(c->state, "types"), i, t)
		if (kb && (d = graph_nodes_find(kb, json_string_value(t))))
			json_array_append(defs, d);
	facts = json_pack("{s:O, s:s, s:o, s:o}", "text",
			  json_object_get(json_object_get(c->state, "turn"), "text"), "lang", step_lang(c),
			  "workflow", ge_compact(json_object_get(c->state, "workflow")), "definitions", defs);
	if (json_is_object(repair)) {
		json_object_set(facts, "errors", json_object_get(repair, "errors"));
		json_object_set(facts, "previousPatch", json_object_get(repair, "previousPatch"));
	}
	if (json_is_string(fb))
		json_object_set(facts, "feedback", fb);
	return facts;
}

/* -- the answer --------------------------------------------------------------- */

/* {patch, reply} from a parsed value: an object with a patch, or a bare
 * array. 0 or -1. */
static int ge_answer_value(const json_t *j, json_t **patch, const char **reply)
{
	if (json_is_array(j)) {
		*patch = json_incref((json_t *)j);
		return 0;
	}
	if (json_is_object(j) && json_is_array(json_object_get(j, "patch"))) {
		*patch = json_incref(json_object_get(j, "patch"));
		*reply = json_string_value(json_object_get(j, "reply"));
		return 0;
	}
	return -1;
}

/* The text inside the first ``` fence (after its info string). */
static json_t *ge_unfence(const char *text)
{
	const char *a = strstr(text, "```"), *b;

	if (a == NULL || (a = strchr(a + 3, '\n')) == NULL || (b = strstr(a + 1, "```")) == NULL)
		return NULL;
	return json_loadb(a + 1, (size_t)(b - a - 1), 0, NULL);
}

/* The patch (new reference) and reply (copied into state.plan) of an
 * answer; NULL when it holds none. */
static json_t *ge_answer(const struct prov_answer *a, char **reply)
{
	json_t *j = a->text ? json_loads(a->text, 0, NULL) : NULL, *patch = NULL;
	const char *r = NULL;

	if (ge_answer_value(j, &patch, &r) < 0 && a->text) {
		json_decref(j);
		j = ge_unfence(a->text);
		if (ge_answer_value(j, &patch, &r) < 0)
			ge_answer_value(a->json, &patch, &r);
	}
	*reply = xstrdup(r ? r : "");
	json_decref(j);
	return patch;
}

static json_t *ge_messages(const json_t *facts)
{
	char *user = jtext(facts, JSON_COMPACT | JNUM_DUMP);
	json_t *m = json_pack("[{s:s, s:s}, {s:s, s:s}]", "role", "system", "content",
			      graph_edit_plan_prompt.system, "role", "user", "content", user ? user : "{}");

	free(user);
	return m;
}

static enum node_rc ge_propose(struct step_ctx *c, json_t *patch, const char *reply)
{
	json_t *plan = json_object_get(c->state, "plan");

	json_object_set(plan, "patch", patch);
	json_object_set_new(plan, "reply", json_string(reply));
	graph_edit_say(c, "thought_log", "graph.plan.done", (int)json_array_size(patch));
	if (!graph_edit_conf(c)->confirm) {
		c->next = "apply";
		return NODE_NEXT;
	}
	c->interrupt = step_interrupt_new("patch", msg_get(step_lang(c), "graph.ask.patch"), "apply",
					  json_pack("{s:O}", "patch", patch));
	return NODE_INTERRUPT;
}

enum node_rc graph_edit_plan(struct step_ctx *c)
{
	json_t *facts = ge_facts(c), *msgs = ge_messages(facts), *patch;
	int attempt = json_is_object(json_object_get(c->state, "repair")) ? 2 : 1;
	struct chat_call call = { .task = graph_edit_plan_prompt.task, .rules = graph_edit_plan_prompt.rules,
				  .messages = msgs, .facts = facts,
				  .temperature = graph_edit_plan_prompt.temperature, .json_mode = 1,
				  .timeout_ms = graph_edit_conf(c)->plan_timeout_ms };
	struct prov_answer a;
	enum node_rc rc;
	char *reply;

	step_chat(c, &call, &a);
	json_decref(msgs);
	json_decref(facts);
	if (a.status != PROV_OK && !(a.status == PROV_BAD_ANSWER && a.text)) {
		prov_answer_free(&a);
		return step_fail(c, "plan_failed", "%s", msg_error(step_lang(c), "plan_failed"));
	}
	patch = ge_answer(&a, &reply);
	prov_answer_free(&a);
	json_object_set_new(c->state, "plan", json_pack("{s:i, s:s, s:s}", "attempt", attempt, "source",
							 "model", "reply", reply));
	if (patch == NULL) {
		free(reply);
		return graph_edit_refused(c, json_pack("[{s:i, s:s, s:s, s:s, s:s}]", "index", -1, "op", "",
			"path", "", "code", "bad_answer", "message",
			"the answer holds no JSON patch: answer {\"patch\": [...], \"reply\": \"...\"}"),
			json_array());
	}
	if (json_array_size(patch) == 0) {
		if (*reply)
			graph_edit_message(c, reply);
		else
			graph_edit_say(c, "message", "graph.plan.nothing");
		json_object_set_new(c->state, "repair", json_null());
		rc = NODE_END;
	} else {
		rc = ge_propose(c, patch, reply);
	}
	free(reply);
	json_decref(patch);
	return rc;
}
