/* The node library (wf/graph_edit/graph_nodes.h), as tables: the shipped
 * etc/nodes.json loads and passes its own check (at least 40 definitions
 * in at least 5 namespaces) and its search finds what people ask for, in
 * Chinese and English; each broken definition is refused with a message
 * naming the entry and what is wrong; a broken file is named too; the
 * names of types and slots; parameters against their declarations. */
#include "config.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/shelf.h"
#include "wf/graph_edit/graph_nodes.h"

/* A good definition; each broken case changes one member of it. */
static const char base_def[] =
	"{\"id\": \"llm:Chat\", \"type\": \"llm:Chat\", \"name_zh\": \"对话\", \"name_en\": \"Chat\","
	" \"description_zh\": \"对话\", \"description_en\": \"Chat\", \"category\": \"llm\","
	" \"keywords\": [\"chat\"],"
	" \"inputs\": {\"prompt\": {\"type\": \"STRING\", \"required\": true, \"multi\": false}},"
	" \"outputs\": {\"text\": {\"type\": \"STRING\"}},"
	" \"configValues\": {"
	"   \"temperature\": {\"type\": \"FLOAT\", \"default\": 0.7, \"min\": 0, \"max\": 2},"
	"   \"max_tokens\": {\"type\": \"INTEGER\", \"default\": 10, \"min\": 1, \"max\": 100},"
	"   \"mode\": {\"type\": \"ENUM\", \"default\": \"a\", \"options\": [\"a\", \"b\"]},"
	"   \"json\": {\"type\": \"BOOLEAN\", \"default\": false},"
	"   \"model\": {\"type\": \"STRING\", \"default\": \"m\"}}}";

struct broken_case {
	const char *where;   /* dotted members of the definition to change */
	const char *value;   /* its new JSON value; NULL deletes it */
	const char *msg;     /* the whole message for the third definition */
};

static const struct broken_case broken_cases[] = {
	{ "configValues.temperature.default", "3",
	  "node 3 (llm:Chat): configValues.temperature: default 3 above max 2" },
	{ "configValues.temperature.default", "-0.5",
	  "node 3 (llm:Chat): configValues.temperature: default -0.5 below min 0" },
	{ "configValues.temperature.default", "\"hot\"",
	  "node 3 (llm:Chat): configValues.temperature: default must be a number" },
	{ "configValues.temperature.min", "5",
	  "node 3 (llm:Chat): configValues.temperature: min 5 above max 2" },
	{ "configValues.max_tokens.default", "1.5",
	  "node 3 (llm:Chat): configValues.max_tokens: default must be a whole number" },
	{ "configValues.max_tokens.max", "100.5",
	  "node 3 (llm:Chat): configValues.max_tokens: \"max\" must be a whole number" },
	{ "configValues.mode.default", "\"c\"",
	  "node 3 (llm:Chat): configValues.mode: default \"c\" is not one of the options" },
	{ "configValues.mode.options", "[]",
	  "node 3 (llm:Chat): configValues.mode: ENUM needs \"options\", a list of strings" },
	{ "configValues.mode.options", "[\"a\", \"a\"]",
	  "node 3 (llm:Chat): configValues.mode: option \"a\" twice" },
	{ "configValues.model.options", "[\"m\"]",
	  "node 3 (llm:Chat): configValues.model: \"options\" only for ENUM" },
	{ "configValues.model.min", "1",
	  "node 3 (llm:Chat): configValues.model: \"min\" only for INTEGER and FLOAT" },
	{ "configValues.json.default", NULL,
	  "node 3 (llm:Chat): configValues.json: no \"default\"" },
	{ "configValues.json.default", "0",
	  "node 3 (llm:Chat): configValues.json: default must be true or false" },
	{ "configValues.json.type", "\"BOOL\"",
	  "node 3 (llm:Chat): configValues.json: \"type\" must be one of STRING, INTEGER, FLOAT, "
	  "BOOLEAN, ENUM" },
	{ "configValues.json.step", "1",
	  "node 3 (llm:Chat): configValues.json: unknown member \"step\"" },
	{ "configValues.2x", "{\"type\": \"BOOLEAN\", \"default\": true}",
	  "node 3 (llm:Chat): configValues.2x: not a valid parameter name" },
	{ "configValues", "[]",
	  "node 3 (llm:Chat): \"configValues\" must be an object of parameters" },
	{ "inputs.prompt.type", "\"TEXT\"",
	  "node 3 (llm:Chat): inputs.prompt: \"type\" must be one of STRING, INTEGER, FLOAT, BOOLEAN, "
	  "OBJECT, ARRAY, BINARY, WILDCARD, CONVERTIBLE_ANY" },
	{ "inputs.prompt.multi", "\"yes\"",
	  "node 3 (llm:Chat): inputs.prompt: \"multi\" must be true or false" },
	{ "outputs.text.multi", "true",
	  "node 3 (llm:Chat): outputs.text: unknown member \"multi\"" },
	{ "outputs.text.required", "true",
	  "node 3 (llm:Chat): outputs.text: unknown member \"required\"" },
	{ "inputs.my-slot", "{\"type\": \"STRING\"}",
	  "node 3 (llm:Chat): inputs.my-slot: not a valid slot name" },
	{ "inputs.prompt", "\"STRING\"", "node 3 (llm:Chat): inputs.prompt: must be an object" },
	{ "outputs", NULL, "node 3 (llm:Chat): \"outputs\" must be an object of slots" },
	{ "ouputs", "{}", "node 3 (llm:Chat): unknown member \"ouputs\"" },
	{ "type", "\"Chat\"", "node 3 (llm:Chat): \"type\" must read namespace:Name" },
	{ "type", "\"LLM:Chat\"", "node 3 (llm:Chat): \"type\" must read namespace:Name" },
	{ "type", "\"llm:Chat Bot\"", "node 3 (llm:Chat): \"type\" must read namespace:Name" },
	{ "type", "\"llm:Talk\"", "node 3 (llm:Chat): \"id\" must be the type, \"llm:Talk\"" },
	{ "inputs", "{}", NULL },   /* an output alone is enough */
};

/* Sets (or deletes) the member at a dotted path of doc. */
static void set_member(json_t *doc, const char *where, const char *value)
{
	char buf[128], *save = NULL, *seg, *next;
	json_t *o = doc;

	snprintf(buf, sizeof buf, "%s", where);
	for (seg = strtok_r(buf, ".", &save); (next = strtok_r(NULL, ".", &save)) != NULL;
	     seg = next)
		o = json_object_get(o, seg);
	if (value)
		json_object_set_new(o, seg, json_loads(value, JSON_DECODE_ANY, NULL));
	else
		json_object_del(o, seg);
}

static json_t *three_defs(const struct broken_case *c)
{
	json_t *docs = json_array(), *d;

	for (int i = 0; i < 3; i++) {
		d = json_loads(base_def, 0, NULL);
		if (i < 2) {   /* two good ones of other types first */
			char t[32];

			snprintf(t, sizeof t, "core:Good%d", i);
			json_object_set_new(d, "id", json_string(t));
			json_object_set_new(d, "type", json_string(t));
		} else if (c) {
			set_member(d, c->where, c->value);
		}
		json_array_append_new(docs, d);
	}
	return docs;
}

static void test_broken(void)
{
	char err[512];
	json_t *docs = three_defs(NULL);

	is_int(graph_nodes_check(docs, err, sizeof err), 0, "check: the base definitions are good");
	json_decref(docs);
	for (size_t i = 0; i < sizeof broken_cases / sizeof broken_cases[0]; i++) {
		const struct broken_case *c = &broken_cases[i];
		int rc;

		docs = three_defs(c);
		err[0] = '\0';
		rc = graph_nodes_check(docs, err, sizeof err);
		if (c->msg) {
			is_int(rc, -1, "check: %s = %s is refused", c->where, c->value ? c->value : "(none)");
			is_str(err, c->msg, "  ... saying so");
		} else {
			is_int(rc, 0, "check: %s = %s is fine (%s)", c->where, c->value, err);
		}
		json_decref(docs);
	}
}

/* kb_def_load names the file, the check the entry. */
static void test_broken_file(void)
{
	char path[] = "/tmp/t_nodes_XXXXXX", err[512] = "", want[600];
	struct conf c;
	json_t *docs = three_defs(&broken_cases[0]);
	int fd = mkstemp(path);
	struct kb *kb;

	json_dumpfd(docs, fd, 0);
	close(fd);
	conf_init(&c);
	free(c.kb_nodes);
	c.kb_nodes = strdup(path);
	kb = kb_def_load(&graph_nodes_def, &c, err, sizeof err);
	snprintf(want, sizeof want, "%s: %s", path, broken_cases[0].msg);
	ok(kb == NULL, "a broken file does not load");
	is_str(err, want, "  ... and the error names the file and the entry");
	json_decref(docs);
	docs = three_defs(NULL);
	json_array_append(docs, json_array_get(docs, 0));
	fd = open(path, O_WRONLY | O_TRUNC);
	json_dumpfd(docs, fd, 0);
	close(fd);
	kb = kb_def_load(&graph_nodes_def, &c, err, sizeof err);
	ok(kb == NULL && strstr(err, path) && strstr(err, "document 4: id \"core:Good0\" is also document 1's"),
	   "a type defined twice is refused (%s)", err);
	json_decref(docs);
	unlink(path);
	conf_free(&c);
}

struct name_case {
	int (*fn)(const char *);
	const char *name;
	int want;
};

static const struct name_case name_cases[] = {
	{ graph_type_name_ok, "core:TextInput", 1 },
	{ graph_type_name_ok, "my_ns2:a_b", 1 },
	{ graph_type_name_ok, "TextInput", 0 },
	{ graph_type_name_ok, ":TextInput", 0 },
	{ graph_type_name_ok, "core:", 0 },
	{ graph_type_name_ok, "core:1Text", 0 },
	{ graph_type_name_ok, "Core:Text", 0 },
	{ graph_type_name_ok, "core:Text:More", 0 },
	{ graph_type_name_ok, "core:Text Input", 0 },
	{ graph_type_name_ok, "2d:Text", 0 },
	{ graph_slot_name_ok, "prompt", 1 },
	{ graph_slot_name_ok, "max_tokens", 1 },
	{ graph_slot_name_ok, "_x1", 1 },
	{ graph_slot_name_ok, "1x", 0 },
	{ graph_slot_name_ok, "", 0 },
	{ graph_slot_name_ok, "a-b", 0 },
	{ graph_slot_name_ok, "a/b", 0 },
	{ graph_slot_name_ok, "提示词", 0 },
	{ graph_slot_name_ok, "a234567890123456789012345678901234567890123456789012345678901234", 1 },
	{ graph_slot_name_ok, "a2345678901234567890123456789012345678901234567890123456789012345", 0 },
	{ graph_data_type_known, "CONVERTIBLE_ANY", 1 },
	{ graph_data_type_known, "BINARY", 1 },
	{ graph_data_type_known, "string", 0 },
	{ graph_data_type_known, "ENUM", 0 },
};

static void test_names(void)
{
	for (size_t i = 0; i < sizeof name_cases / sizeof name_cases[0]; i++)
		is_int(name_cases[i].fn(name_cases[i].name), name_cases[i].want, "name \"%s\"",
		       name_cases[i].name);
}

struct param_case {
	const char *decl, *value, *code;
};

static const struct param_case param_cases[] = {
	{ "{\"type\": \"FLOAT\", \"min\": 0, \"max\": 2}", "0.3", NULL },
	{ "{\"type\": \"FLOAT\", \"min\": 0, \"max\": 2}", "2", NULL },
	{ "{\"type\": \"FLOAT\", \"min\": 0, \"max\": 2}", "2.01", "out_of_range" },
	{ "{\"type\": \"FLOAT\", \"min\": 0, \"max\": 2}", "-1", "out_of_range" },
	{ "{\"type\": \"FLOAT\", \"min\": 0, \"max\": 2}", "\"0.3\"", "bad_type" },
	{ "{\"type\": \"FLOAT\"}", "1e300", NULL },
	{ "{\"type\": \"INTEGER\", \"min\": 1}", "1", NULL },
	{ "{\"type\": \"INTEGER\", \"min\": 1}", "0", "out_of_range" },
	{ "{\"type\": \"INTEGER\"}", "1.0", "bad_type" },
	{ "{\"type\": \"INTEGER\"}", "true", "bad_type" },
	{ "{\"type\": \"BOOLEAN\"}", "false", NULL },
	{ "{\"type\": \"BOOLEAN\"}", "1", "bad_type" },
	{ "{\"type\": \"STRING\"}", "\"\"", NULL },
	{ "{\"type\": \"STRING\"}", "null", "bad_type" },
	{ "{\"type\": \"ENUM\", \"options\": [\"GET\", \"POST\"]}", "\"POST\"", NULL },
	{ "{\"type\": \"ENUM\", \"options\": [\"GET\", \"POST\"]}", "\"post\"", "not_allowed" },
	{ "{\"type\": \"ENUM\", \"options\": [\"GET\", \"POST\"]}", "1", "bad_type" },
};

static void test_params(void)
{
	for (size_t i = 0; i < sizeof param_cases / sizeof param_cases[0]; i++) {
		json_t *d = json_loads(param_cases[i].decl, 0, NULL);
		json_t *v = json_loads(param_cases[i].value, JSON_DECODE_ANY, NULL);
		char why[160] = "";

		is_str(graph_param_check(d, v, why, sizeof why), param_cases[i].code, "param %s = %s (%s)",
		       param_cases[i].decl, param_cases[i].value, why);
		json_decref(d);
		json_decref(v);
	}
}

/* What people type and the definition that must come first. */
struct find_case {
	const char *query, *first;
};

static const struct find_case find_cases[] = {
	{ "生成图片", "image:Generate" },
	{ "画一张图", "image:Generate" },
	{ "text to image", "image:Generate" },
	{ "temperature", "llm:Chat" },
	{ "大模型对话", "llm:Chat" },
	{ "翻译成英文", "llm:Translate" },
	{ "summarise the article", "llm:Summarize" },
	{ "正则替换", "text:RegexReplace" },
	{ "局部重绘", "image:Inpaint" },
	{ "upscale", "image:Upscale" },
	{ "HTTP 请求", "io:HttpRequest" },
	{ "随机整数", "util:RandomInteger" },
	{ "文本切分", "text:Split" },
	{ "提示词模板", "llm:PromptTemplate" },
	{ "图片预览", "io:ImagePreview" },
	{ "条件分支", "core:Condition" },
	{ "embeddings", "llm:Embeddings" },
};

static void test_shipped(void)
{
	const char *top = getenv("top_srcdir");
	char path[1024], err[512] = "";
	struct conf c;
	struct kb *kb;
	json_t *ns = json_object(), *d;
	size_t i;

	snprintf(path, sizeof path, "%s/etc/nodes.json", top && *top ? top : ".");
	conf_init(&c);
	free(c.kb_nodes);
	c.kb_nodes = strdup(path);
	kb = kb_def_load(&graph_nodes_def, &c, err, sizeof err);
	if (!ok(kb != NULL, "etc/nodes.json loads and passes its check (%s)", err))
		exit(99);
	json_array_foreach(kb_items(kb), i, d) {
		const char *t = json_string_value(json_object_get(d, "type"));
		char n[64];

		snprintf(n, sizeof n, "%.*s", (int)(strchr(t, ':') - t), t);
		json_object_set_new(ns, n, json_true());
	}
	ok(kb_count(kb) >= 40, "at least 40 definitions (%zu)", kb_count(kb));
	ok(json_object_size(ns) >= 5, "in at least 5 namespaces (%zu)", json_object_size(ns));
	for (i = 0; i < sizeof find_cases / sizeof find_cases[0]; i++) {
		json_t *hits = kb_search(kb, find_cases[i].query, 3, 0);
		const char *first = json_string_value(json_object_get(json_array_get(hits, 0), "id"));

		is_str(first, find_cases[i].first, "search \"%s\" finds %s first", find_cases[i].query,
		       find_cases[i].first);
		json_decref(hits);
	}
	ok(graph_nodes_find(kb, "image:Generate") != NULL && graph_nodes_find(kb, "image:generate") == NULL,
	   "graph_nodes_find: by exact type");
	json_decref(ns);
	kb_free(kb);
	conf_free(&c);
}

int main(void)
{
	test_shipped();
	test_broken();
	test_broken_file();
	test_names();
	test_params();
	return tap_done();
}
