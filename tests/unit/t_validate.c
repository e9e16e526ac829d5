/* Workflow validation (wf/graph_edit/graph_validate.h), as tables: a valid workflow
 * has no errors; each rule broken once gives its code at its path; a
 * CONVERTIBLE_ANY slot takes the type of its first edge, keeps it while
 * connected and refuses edges of another type; the number of errors is
 * capped; every string of the workflow (names, labels, displayName,
 * parameter values, ids, members kept as they are, member names) is
 * bounded, the one too long named by its path. The definitions are a
 * small library of the test's own. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "json/patch.h"
#include "wf/graph_edit/graph_validate.h"

static const char defs_json[] = "{"
	"\"core:Text\": {\"type\": \"core:Text\", \"inputs\": {},"
	"  \"outputs\": {\"text\": {\"type\": \"STRING\"}},"
	"  \"configValues\": {\"value\": {\"type\": \"STRING\", \"default\": \"\"}}},"
	"\"core:Int\": {\"type\": \"core:Int\", \"inputs\": {},"
	"  \"outputs\": {\"value\": {\"type\": \"INTEGER\"}}, \"configValues\": {}},"
	"\"llm:Chat\": {\"type\": \"llm:Chat\","
	"  \"inputs\": {\"prompt\": {\"type\": \"STRING\", \"required\": true},"
	"              \"history\": {\"type\": \"ARRAY\"}},"
	"  \"outputs\": {\"text\": {\"type\": \"STRING\"}},"
	"  \"configValues\": {\"temperature\": {\"type\": \"FLOAT\", \"default\": 0.7, \"min\": 0, \"max\": 2},"
	"                   \"mode\": {\"type\": \"ENUM\", \"default\": \"a\", \"options\": [\"a\", \"b\"]}}},"
	"\"text:Join\": {\"type\": \"text:Join\","
	"  \"inputs\": {\"texts\": {\"type\": \"STRING\", \"multi\": true}},"
	"  \"outputs\": {\"text\": {\"type\": \"STRING\"}}, \"configValues\": {}},"
	"\"util:Math\": {\"type\": \"util:Math\","
	"  \"inputs\": {\"a\": {\"type\": \"FLOAT\"}, \"b\": {\"type\": \"FLOAT\"}},"
	"  \"outputs\": {\"result\": {\"type\": \"FLOAT\"}}, \"configValues\": {}},"
	"\"io:Preview\": {\"type\": \"io:Preview\","
	"  \"inputs\": {\"value\": {\"type\": \"WILDCARD\"}}, \"outputs\": {}, \"configValues\": {}},"
	"\"util:Parse\": {\"type\": \"util:Parse\","
	"  \"inputs\": {\"text\": {\"type\": \"STRING\"}},"
	"  \"outputs\": {\"value\": {\"type\": \"WILDCARD\"}}, \"configValues\": {}},"
	"\"core:Any\": {\"type\": \"core:Any\","
	"  \"inputs\": {\"items\": {\"type\": \"CONVERTIBLE_ANY\", \"multi\": true}},"
	"  \"outputs\": {\"out\": {\"type\": \"CONVERTIBLE_ANY\"}}, \"configValues\": {}}"
	"}";

static json_t *defs_lib;

static json_t *defs_find(void *ctx, const char *type)
{
	return json_object_get(ctx, type);
}

static struct graph_defs defs = { defs_find, NULL };

#define N(id, type) "{\"id\": \"" id "\", \"type\": \"" type "\", \"position\": {\"x\": 0, \"y\": 0}}"
#define E(id, s, sh, t, th) "{\"id\": \"" id "\", \"source\": \"" s "\", \"sourceHandle\": \"" sh \
	"\", \"target\": \"" t "\", \"targetHandle\": \"" th "\"}"

static const char base_wf[] = "{\"name\": \"w\", \"description\": \"d\", \"nodes\": ["
	N("n_text", "core:Text") ", " N("n_int", "core:Int") ", "
	"{\"id\": \"n_chat\", \"type\": \"llm:Chat\", \"position\": {\"x\": 1, \"y\": 2},"
	" \"displayName\": \"Chat\", \"data\": {\"label\": \"c\", \"configValues\": {\"temperature\": 0.3}}}, "
	N("n_join", "text:Join") ", " N("n_math", "util:Math") ", " N("n_view", "io:Preview") ", "
	N("n_parse", "util:Parse") ", " N("n_spare", "core:Text") "], \"edges\": ["
	E("e_0", "n_text", "text", "n_chat", "prompt") ", "
	E("e_1", "n_chat", "text", "n_join", "texts") ", "
	E("e_2", "n_text", "text", "n_join", "texts") ", "
	E("e_3", "n_int", "value", "n_math", "a") ", "
	E("e_4", "n_chat", "text", "n_view", "value") "],"
	" \"viewport\": {\"x\": 0, \"y\": 0, \"zoom\": 1}, \"extra\": {\"kept\": true}}";

struct vcase {
	const char *path;     /* the member to change; "" for the whole */
	const char *value;    /* its new JSON value; NULL deletes it */
	unsigned flags;
	size_t nerr;          /* how many errors */
	const char *code, *at;  /* the first error */
};

static const struct vcase cases[] = {
	{ "/extra", "{}", 0, 0, NULL, NULL },
	{ "/name", NULL, 0, 1, "missing_field", "/name" },
	{ "/name", "3", 0, 1, "bad_type", "/name" },
	{ "/description", "[]", 0, 1, "bad_type", "/description" },
	{ "/nodes", "{}", 0, 1, "bad_type", "/nodes" },   /* not every edge dangling too */
	{ "/edges", NULL, 0, 1, "missing_field", "/edges" },
	{ "/viewport", NULL, 0, 1, "missing_field", "/viewport" },
	{ "/viewport/zoom", "0", 0, 1, "bad_value", "/viewport/zoom" },
	{ "/viewport/x", "\"0\"", 0, 1, "bad_type", "/viewport/x" },
	{ "/nodes/7", "\"n\"", 0, 1, "bad_type", "/nodes/7" },
	{ "/nodes/7/postion", "{}", 0, 1, "unknown_field", "/nodes/7/postion" },
	{ "/nodes/7/id", NULL, 0, 1, "missing_field", "/nodes/7/id" },
	{ "/nodes/7/id", "7", 0, 1, "bad_type", "/nodes/7/id" },
	{ "/nodes/7/id", "\"123\"", 0, 1, "bad_id", "/nodes/7/id" },
	{ "/nodes/7/id", "\"-\"", 0, 1, "bad_id", "/nodes/7/id" },
	{ "/nodes/7/id", "\"\"", 0, 1, "bad_id", "/nodes/7/id" },
	{ "/nodes/7/id", "\"n_text\"", 0, 1, "duplicate_id", "/nodes/7/id" },
	{ "/nodes/7/type", "\"Text\"", 0, 1, "unknown_type", "/nodes/7/type" },
	{ "/nodes/7/type", "\"core:Nope\"", 0, 1, "unknown_type", "/nodes/7/type" },
	{ "/nodes/7/type", "\"text:Text\"", 0, 1, "unknown_type", "/nodes/7/type" },
	{ "/nodes/7/position", NULL, 0, 1, "missing_field", "/nodes/7/position" },
	{ "/nodes/7/position", NULL, GRAPH_VALIDATE_NO_POSITION, 0, NULL, NULL },
	{ "/nodes/7/position", "[1, 2]", GRAPH_VALIDATE_NO_POSITION, 1, "bad_type", "/nodes/7/position" },
	{ "/nodes/7/position/x", "\"1\"", 0, 1, "bad_type", "/nodes/7/position/x" },
	{ "/nodes/7/position/y", NULL, 0, 1, "missing_field", "/nodes/7/position/y" },
	{ "/nodes/7/displayName", "1", 0, 1, "bad_type", "/nodes/7/displayName" },
	{ "/nodes/7/data", "[]", 0, 1, "bad_type", "/nodes/7/data" },
	{ "/nodes/7/data", "{\"label\": 1}", 0, 1, "bad_type", "/nodes/7/data/label" },
	{ "/nodes/7/data", "{\"config\": {}}", 0, 1, "unknown_field", "/nodes/7/data/config" },
	{ "/nodes/7/data", "{\"configValues\": {\"value\": 3}}", 0, 1, "bad_type",
	  "/nodes/7/data/configValues/value" },
	{ "/nodes/2/data/configValues/temperature", "3", 0, 1, "out_of_range",
	  "/nodes/2/data/configValues/temperature" },
	{ "/nodes/2/data/configValues/temperature", "2", 0, 0, NULL, NULL },
	{ "/nodes/2/data/configValues/mode", "\"z\"", 0, 1, "not_allowed",
	  "/nodes/2/data/configValues/mode" },
	{ "/nodes/2/data/configValues/top~1k", "1", 0, 1, "unknown_param",
	  "/nodes/2/data/configValues/top~1k" },
	{ "/nodes/2/data/configValues", "[]", 0, 1, "bad_type", "/nodes/2/data/configValues" },
	{ "/edges/0", "[]", 0, 1, "bad_type", "/edges/0" },
	{ "/edges/0/weight", "1", 0, 1, "unknown_field", "/edges/0/weight" },
	{ "/edges/1/id", "\"e_0\"", 0, 1, "duplicate_id", "/edges/1/id" },
	{ "/edges/1/id", "\"01\"", 0, 1, "bad_id", "/edges/1/id" },
	{ "/edges/0/targetHandle", NULL, 0, 1, "missing_field", "/edges/0/targetHandle" },
	{ "/edges/0/source", "\"ghost\"", 0, 1, "dangling_edge", "/edges/0/source" },
	{ "/edges/0/target", "\"ghost\"", 0, 1, "dangling_edge", "/edges/0/target" },
	{ "/edges/0/target", "\"n_text\"", 0, 1, "self_loop", "/edges/0/target" },
	{ "/edges/0/sourceHandle", "\"nope\"", 0, 1, "unknown_handle", "/edges/0/sourceHandle" },
	{ "/edges/0/targetHandle", "\"text\"", 0, 1, "unknown_handle", "/edges/0/targetHandle" },
	{ "/edges/-", E("e_5", "n_text", "text", "n_chat", "prompt"), 0, 1, "duplicate_edge", "/edges/5" },
	{ "/edges/-", E("e_5", "n_spare", "text", "n_chat", "prompt"), 0, 1, "slot_taken",
	  "/edges/5/targetHandle" },
	{ "/edges/-", E("e_5", "n_spare", "text", "n_join", "texts"), 0, 0, NULL, NULL },
	{ "/edges/-", E("e_5", "n_int", "value", "n_chat", "history"), 0, 1, "type_mismatch", "/edges/5" },
	{ "/edges/-", E("e_5", "n_chat", "text", "n_math", "b"), 0, 1, "type_mismatch", "/edges/5" },
	{ "/edges/-", E("e_5", "n_math", "result", "n_math", "b"), 0, 1, "self_loop", "/edges/5/target" },
	{ "/edges/-", E("e_5", "n_parse", "value", "n_math", "b"), 0, 0, NULL, NULL },
	{ "", "[]", 0, 1, "bad_type", "" },
};

/* The parent of path in doc (arrays by index, "-" past the end) and the
 * last segment, unescaped. */
static json_t *parent_of(json_t *doc, const char *path, char *last, size_t lastlen)
{
	char buf[256], *p = buf, *slash;
	size_t n;

	snprintf(buf, sizeof buf, "%s", path + 1);
	while ((slash = strchr(p, '/')) != NULL) {
		*slash = '\0';
		doc = json_is_array(doc) ? json_array_get(doc, strtoul(p, NULL, 10))
					 : json_object_get(doc, p);
		p = slash + 1;
	}
	n = strlen(p) < lastlen ? strlen(p) : lastlen - 1;
	memcpy(last, p, n);
	last[n] = '\0';
	if ((p = strstr(last, "~1")) != NULL) {
		*p = '/';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
	return doc;
}

static json_t *apply_case(const struct vcase *c)
{
	json_t *wf = json_loads(base_wf, 0, NULL), *parent, *v;
	char last[64];

	if (*c->path == '\0') {
		json_decref(wf);
		return json_loads(c->value, JSON_DECODE_ANY, NULL);
	}
	parent = parent_of(wf, c->path, last, sizeof last);
	v = c->value ? json_loads(c->value, JSON_DECODE_ANY, NULL) : NULL;
	if (json_is_array(parent) && strcmp(last, "-") == 0)
		json_array_append_new(parent, v);
	else if (json_is_array(parent))
		json_array_set_new(parent, strtoul(last, NULL, 10), v);
	else if (v)
		json_object_set_new(parent, last, v);
	else
		json_object_del(parent, last);
	return wf;
}

static void test_rules(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct vcase *c = &cases[i];
		json_t *wf = apply_case(c);
		json_t *errs = graph_validate(wf, &defs, c->flags, 0), *e = json_array_get(errs, 0);
		char *s = json_dumps(errs, JSON_COMPACT);

		is_int(json_array_size(errs), c->nerr, "%s = %s%s: %zu error(s) %s", c->path,
		       c->value ? c->value : "(none)", c->flags ? " (no position needed)" : "", c->nerr, s);
		if (c->code) {
			is_str(json_string_value(json_object_get(e, "code")), c->code, "  ... code %s", c->code);
			is_str(json_string_value(json_object_get(e, "path")), c->at, "  ... at %s", c->at);
			ok(json_string_length(json_object_get(e, "message")) > 0, "  ... with a message");
		}
		free(s);
		json_decref(errs);
		json_decref(wf);
	}
}

/* CONVERTIBLE_ANY: takes the first edge's type, keeps it while connected. */
struct conv_case {
	const char *name;
	const char *edges;     /* the edges of text, int, any, math, view */
	const char *recorded;  /* data.convertibleTypes before, or NULL */
	const char *code;      /* the first error, or NULL */
	const char *after;     /* data.convertibleTypes after, or NULL for none */
};

static const struct conv_case conv_cases[] = {
	{ "the first edge sets the type", E("a", "t", "text", "any", "items"), NULL, NULL,
	  "{\"inputs\":{\"items\":\"STRING\"}}" },
	{ "the same type again fits", E("a", "t", "text", "any", "items") ", "
	  E("b", "t2", "text", "any", "items"), NULL, NULL, "{\"inputs\":{\"items\":\"STRING\"}}" },
	{ "another type does not", E("a", "t", "text", "any", "items") ", "
	  E("b", "i", "value", "any", "items"), NULL, "type_mismatch", "{\"inputs\":{\"items\":\"STRING\"}}" },
	{ "the other order sets INTEGER", E("b", "i", "value", "any", "items") ", "
	  E("a", "t", "text", "any", "items"), NULL, "type_mismatch", "{\"inputs\":{\"items\":\"INTEGER\"}}" },
	{ "a recorded type holds while connected", E("a", "t", "text", "any", "items"),
	  "{\"inputs\": {\"items\": \"INTEGER\"}}", "type_mismatch", "{\"inputs\":{\"items\":\"INTEGER\"}}" },
	{ "a recorded type goes with its last edge", "", "{\"inputs\": {\"items\": \"INTEGER\"}}", NULL,
	  NULL },
	{ "an output takes the type it feeds", E("a", "any", "out", "m", "a"), NULL, NULL,
	  "{\"outputs\":{\"out\":\"FLOAT\"}}" },
	{ "a WILDCARD sets nothing", E("a", "any", "out", "v", "value"), NULL, NULL, NULL },
	{ "a recorded type of a slot that is not CONVERTIBLE_ANY is dropped", "",
	  "{\"inputs\": {\"nope\": \"STRING\"}}", NULL, NULL },
};

static void test_convertible(void)
{
	for (size_t i = 0; i < sizeof conv_cases / sizeof conv_cases[0]; i++) {
		const struct conv_case *c = &conv_cases[i];
		char text[2048];
		json_t *wf, *errs, *any;
		char *after;

		snprintf(text, sizeof text, "{\"name\": \"c\", \"viewport\": {\"x\": 0, \"y\": 0, \"zoom\": 1},"
			 " \"nodes\": [" N("t", "core:Text") ", " N("t2", "core:Text") ", " N("i", "core:Int") ", "
			 N("m", "util:Math") ", " N("v", "io:Preview") ", {\"id\": \"any\", \"type\": \"core:Any\","
			 " \"position\": {\"x\": 0, \"y\": 0}%s%s%s}], \"edges\": [%s]}",
			 c->recorded ? ", \"data\": {\"convertibleTypes\": " : "", c->recorded ? c->recorded : "",
			 c->recorded ? "}" : "", c->edges);
		wf = json_loads(text, 0, NULL);
		errs = graph_validate(wf, &defs, 0, 0);
		is_str(json_string_value(json_object_get(json_array_get(errs, 0), "code")), c->code,
		       "convertible: %s", c->name);
		any = json_object_get(json_object_get(json_array_get(json_object_get(wf, "nodes"), 5),
						      "data"), "convertibleTypes");
		after = any ? json_dumps(any, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		is_str(after, c->after, "  ... and records %s", c->after ? c->after : "nothing");
		free(after);
		json_decref(errs);
		json_decref(wf);
	}
}

static void test_cap(void)
{
	json_t *wf = json_loads(base_wf, 0, NULL), *errs;

	for (int i = 0; i < 80; i++)
		json_array_append_new(json_object_get(wf, "nodes"), json_pack("{s:s}", "type", "x"));
	errs = graph_validate(wf, &defs, 0, 0);
	is_int(json_array_size(errs), GRAPH_VALIDATE_MAX_ERRORS, "errors are capped by default");
	json_decref(errs);
	errs = graph_validate(wf, &defs, 0, 3);
	is_int(json_array_size(errs), 3, "errors are capped at the limit given");
	is_str(json_string_value(json_object_get(json_array_get(errs, 0), "path")), "/nodes/8/id",
	       "  ... in document order");
	json_decref(errs);
	json_decref(wf);
}

/* Strings: the base workflow patched with one string of len bytes (in
 * place of %s) is valid up to max, and one byte more is string_too_long
 * at path (%s there: the string). */
struct string_case {
	const char *name;
	const char *patch;
	size_t len, max;
	const char *at;     /* NULL: valid */
};

#define ADD(path, value) "[{\"op\": \"add\", \"path\": \"" path "\", \"value\": " value "}]"

static const struct string_case string_cases[] = {
	{ "a displayName at the limit", ADD("/nodes/2/displayName", "\"%s\""), 64, 64, NULL },
	{ "a displayName past it", ADD("/nodes/2/displayName", "\"%s\""), 65, 64, "/nodes/2/displayName" },
	{ "the workflow's name", ADD("/name", "\"%s\""), 65, 64, "/name" },
	{ "its description", ADD("/description", "\"%s\""), 100, 64, "/description" },
	{ "a label", ADD("/nodes/2/data/label", "\"%s\""), 65, 64, "/nodes/2/data/label" },
	{ "a parameter value", ADD("/nodes/0/data", "{\"configValues\": {\"value\": \"%s\"}}"), 65, 64,
	  "/nodes/0/data/configValues/value" },
	{ "an edge id", ADD("/edges/0/id", "\"%s\""), 65, 64, "/edges/0/id" },
	{ "a member kept as it is", ADD("/extra", "{\"deep\": [1, \"%s\"]}"), 65, 64, "/extra/deep/1" },
	{ "a member name", ADD("/extra", "{\"%s\": 1}"), 65, 64, "/extra/%s" },
	{ "the default limit", ADD("/nodes/2/displayName", "\"%s\""), GRAPH_STRING_MAX, 0, NULL },
	{ "past the default limit", ADD("/nodes/2/displayName", "\"%s\""), GRAPH_STRING_MAX + 1, 0,
	  "/nodes/2/displayName" },
	{ "15 MB", ADD("/nodes/2/displayName", "\"%s\""), 15u << 20, 0, "/nodes/2/displayName" },
};

/* The base workflow with case c's string in place: new reference. */
static json_t *string_wf(const struct string_case *c, char *str)
{
	json_t *wf = json_loads(base_wf, 0, NULL), *patch, *out;
	struct patch_error pe;
	char *text = malloc(strlen(c->patch) + c->len + 1);

	sprintf(text, c->patch, str);
	patch = json_loads(text, 0, NULL);
	out = patch_apply(wf, patch, NULL, &pe);
	if (out == NULL)
		tap_bail("%s: %s", c->name, pe.message);
	free(text);
	json_decref(patch);
	json_decref(wf);
	return out;
}

static void test_strings(void)
{
	for (size_t i = 0; i < sizeof string_cases / sizeof string_cases[0]; i++) {
		const struct string_case *c = &string_cases[i];
		char *str = malloc(c->len + 1), at[160];
		json_t *wf, *errs, *e;

		memset(str, 's', c->len);
		str[c->len] = '\0';
		wf = string_wf(c, str);
		errs = graph_validate_bounded(wf, &defs, 0, 0, c->max);
		e = json_array_get(errs, 0);
		snprintf(at, sizeof at, c->at ? c->at : "", str);
		if (c->at == NULL)
			is_int(json_array_size(errs), 0, "strings: %s (%zu bytes): valid", c->name, c->len);
		else
			ok(json_array_size(errs) == 1 &&
			   strcmp(json_string_value(json_object_get(e, "code")), "string_too_long") == 0 &&
			   strcmp(json_string_value(json_object_get(e, "path")), at) == 0 &&
			   strstr(json_string_value(json_object_get(e, "message")), "longer than"),
			   "strings: %s (%zu bytes): string_too_long at %.40s", c->name, c->len, at);
		json_decref(errs);
		json_decref(wf);
		free(str);
	}
}

/* graph_strings_ok names the first string too long by its pointer. */
static void test_strings_ok(void)
{
	json_t *patch = json_pack("[{s:s, s:s, s:{s:s, s:s}}]", "op", "add", "path", "/nodes/-",
				  "value", "type", "core:Text", "displayName",
				  "0123456789012345678901234567890123456789012345678901234567890123456789");
	char err[256] = "";

	ok(graph_strings_ok(patch, 70, "patch", err, sizeof err) == 0 && err[0] == '\0',
	   "strings_ok: 70 bytes fit 70");
	ok(graph_strings_ok(patch, 69, "patch", err, sizeof err) == -1 &&
	   strncmp(err, "patch/0/value/displayName: a string of 70 bytes", 47) == 0,
	   "strings_ok: 70 bytes past 69: %s", err);
	ok(graph_strings_ok(NULL, 69, "workflow", err, sizeof err) == 0, "strings_ok: nothing is fine");
	json_decref(patch);
}

int main(void)
{
	defs_lib = json_loads(defs_json, 0, NULL);
	if (!defs_lib)
		return 99;
	defs.ctx = defs_lib;
	test_rules();
	test_convertible();
	test_cap();
	test_strings();
	test_strings_ok();
	json_decref(defs_lib);
	return tap_done();
}
