/* JSON Pointer and JSON Patch: pointers parsed, escaped and resolved;
 * each operation's successes and failures with the error's index, op,
 * path and code; the array hook (a token resolved to an index, one left
 * unresolved); all or nothing; bounds on copies and depth; the byte
 * budget (what add, replace, copy and move put in, counted whole each
 * time; a 2 MB string copied 500 times refused early); equality as "test"
 * means it. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "tap.h"
#include "json/patch.h"
#include "json/pointer.h"

static json_t *t_json(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &je);

	if (!j)
		tap_bail("bad JSON in the table: %s: %s", text, je.text);
	return j;
}

/* -- pointers --------------------------------------------------------------- */

struct parse_case {
	const char *text;
	int rc;
	size_t n;
	const char *tokens;   /* joined with "|" */
};

static const struct parse_case parse_cases[] = {
	{ "", 0, 0, "" },
	{ "/", 0, 1, "" },
	{ "/foo", 0, 1, "foo" },
	{ "/foo/0", 0, 2, "foo|0" },
	{ "/foo/", 0, 2, "foo|" },
	{ "//", 0, 2, "|" },
	{ "/a~1b", 0, 1, "a/b" },
	{ "/m~0n", 0, 1, "m~n" },
	{ "/~01", 0, 1, "~1" },
	{ "/~10", 0, 1, "/0" },
	{ "/c%d/e^f", 0, 2, "c%d|e^f" },
	{ "foo", -1, 0, NULL },
	{ "#/foo", -1, 0, NULL },
	{ "/a~", -1, 0, NULL },
	{ "/a~2", -1, 0, NULL },
	{ "/~/x", -1, 0, NULL },
};

static void t_parse(void)
{
	for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
		const struct parse_case *c = &parse_cases[i];
		char err[128] = "", joined[128] = "";
		struct ptr p;
		int rc = ptr_parse(&p, c->text, err, sizeof err);

		if (c->rc) {
			ok(rc == -1 && err[0], "parse \"%s\" fails (%s)", c->text, err);
		} else {
			for (size_t k = 0; rc == 0 && k < p.n; k++) {
				if (k)
					strcat(joined, "|");
				strcat(joined, p.tok[k]);
			}
			ok(rc == 0 && p.n == c->n && strcmp(joined, c->tokens) == 0,
			   "parse \"%s\": %zu tokens \"%s\"", c->text, p.n, joined);
		}
		ptr_free(&p);
	}
}

struct escape_case {
	const char *token, *escaped;
};

static const struct escape_case escape_cases[] = {
	{ "foo", "foo" }, { "a/b", "a~1b" }, { "m~n", "m~0n" }, { "~1", "~01" },
	{ "/~", "~1~0" }, { "", "" }, { "节点", "节点" },
};

static void t_escape(void)
{
	for (size_t i = 0; i < sizeof escape_cases / sizeof escape_cases[0]; i++) {
		const struct escape_case *c = &escape_cases[i];
		char *e = ptr_escape(c->token), *text = malloc(strlen(e) + 2);
		struct ptr p;

		is_str(e, c->escaped, "escape \"%s\"", c->token);
		sprintf(text, "/%s", e);
		ok(ptr_parse(&p, text, NULL, 0) == 0 && p.n == 1 && strcmp(p.tok[0], c->token) == 0,
		   "escape \"%s\" reads back", c->token);
		ptr_free(&p);
		free(text);
		free(e);
	}
}

struct index_case {
	const char *tok;
	int rc;
	size_t idx;
};

static const struct index_case index_cases[] = {
	{ "0", 1, 0 }, { "7", 1, 7 }, { "12", 1, 12 }, { "01", -1, 0 }, { "00", -1, 0 },
	{ "1e0", 0, 0 }, { "-", 0, 0 }, { "-1", 0, 0 }, { "", 0, 0 }, { " 1", 0, 0 },
	{ "n1", 0, 0 }, { "99999999999999999999999", -1, 0 },
};

static void t_index(void)
{
	for (size_t i = 0; i < sizeof index_cases / sizeof index_cases[0]; i++) {
		const struct index_case *c = &index_cases[i];
		size_t idx = 12345;
		int rc = ptr_token_index(c->tok, &idx);

		ok(rc == c->rc && (rc != 1 || idx == c->idx), "token \"%s\": %d (want %d)", c->tok,
		   rc, c->rc);
	}
}

struct get_case {
	const char *ptr;
	enum ptr_rc rc;
	const char *want;
};

#define GET_DOC "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"m~n\": 8, \"k\\\"l\": 6, " \
	"\" \": 7, \"n\": {\"x\": {\"y\": null}}, \"s\": \"str\"}"

static const struct get_case get_cases[] = {
	{ "", PTR_OK, GET_DOC },
	{ "/foo", PTR_OK, "[\"bar\", \"baz\"]" },
	{ "/foo/0", PTR_OK, "\"bar\"" },
	{ "/foo/1", PTR_OK, "\"baz\"" },
	{ "/", PTR_OK, "0" },
	{ "/a~1b", PTR_OK, "1" },
	{ "/m~0n", PTR_OK, "8" },
	{ "/k\"l", PTR_OK, "6" },
	{ "/ ", PTR_OK, "7" },
	{ "/n/x/y", PTR_OK, "null" },
	{ "/foo/2", PTR_OUT_OF_RANGE, NULL },
	{ "/foo/-", PTR_OUT_OF_RANGE, NULL },
	{ "/foo/01", PTR_BAD_INDEX, NULL },
	{ "/foo/bar", PTR_BAD_INDEX, NULL },
	{ "/nope", PTR_NOT_FOUND, NULL },
	{ "/n/x/y/z", PTR_NOT_FOUND, NULL },
	{ "/s/0", PTR_NOT_FOUND, NULL },
};

static void t_get(void)
{
	json_t *doc = t_json(GET_DOC);

	for (size_t i = 0; i < sizeof get_cases / sizeof get_cases[0]; i++) {
		const struct get_case *c = &get_cases[i];
		char err[128] = "";
		struct ptr p;
		json_t *got = NULL, *want = c->want ? t_json(c->want) : NULL;
		enum ptr_rc rc;

		if (ptr_parse(&p, c->ptr, NULL, 0) != 0)
			tap_bail("bad pointer in the table: %s", c->ptr);
		rc = ptr_get(doc, &p, NULL, &got, err, sizeof err);
		ok(rc == c->rc && (rc != PTR_OK || json_equal(got, want)) && (rc == PTR_OK || err[0]),
		   "get \"%s\": %d (want %d) %s", c->ptr, rc, c->rc, err);
		json_decref(want);
		ptr_free(&p);
	}
	json_decref(doc);
}

/* -- the hook: nodes and edges by id ---------------------------------------- */

static long t_hook(void *ctx, const char *array_ptr, const json_t *array, const char *token)
{
	size_t i;
	const json_t *x;
	int *calls = ctx;

	(*calls)++;
	if (strcmp(array_ptr, "/nodes") != 0 && strcmp(array_ptr, "/edges") != 0)
		return -1;
	if (strcmp(token, "far") == 0)
		return 99;
	json_array_foreach(array, i, x)
		if (json_is_string(json_object_get(x, "id")) &&
		    strcmp(json_string_value(json_object_get(x, "id")), token) == 0)
			return (long)i;
	return -1;
}

/* -- patches ---------------------------------------------------------------- */

struct patch_case {
	const char *name;
	int hook;
	const char *doc, *patch;
	const char *want;          /* NULL: must fail */
	enum patch_code code;
	long index;
	const char *op, *path;
};

#define GRAPH "{\"nodes\": [{\"id\": \"n1\", \"x\": 1}, {\"id\": \"n2\", \"x\": 2}], " \
	"\"edges\": [{\"id\": \"e1\", \"source\": \"n1\"}], \"meta\": {\"list\": [{\"id\": \"n1\"}]}}"

/* The rest of a case that must apply. */
#define PASSES PATCH_OK, 0, NULL, NULL

static const struct patch_case patch_cases[] = {
	/* add */
	{ "add a member", 0, "{\"a\": 1}", "[{\"op\": \"add\", \"path\": \"/b\", \"value\": [2]}]",
	  "{\"a\": 1, \"b\": [2]}", PASSES },
	{ "add replaces a member", 0, "{\"a\": 1}", "[{\"op\": \"add\", \"path\": \"/a\", \"value\": 3}]",
	  "{\"a\": 3}", PASSES },
	{ "add inserts into an array", 0, "[1, 3]", "[{\"op\": \"add\", \"path\": \"/1\", \"value\": 2}]",
	  "[1, 2, 3]", PASSES },
	{ "add appends with -", 0, "{\"a\": [1]}", "[{\"op\": \"add\", \"path\": \"/a/-\", \"value\": 2}]",
	  "{\"a\": [1, 2]}", PASSES },
	{ "add at the end index", 0, "[1]", "[{\"op\": \"add\", \"path\": \"/1\", \"value\": 2}]", "[1, 2]", PASSES },
	{ "add the whole document", 0, "{\"a\": 1}", "[{\"op\": \"add\", \"path\": \"\", \"value\": [1]}]",
	  "[1]", PASSES },
	{ "add past the end", 0, "[1]", "[{\"op\": \"add\", \"path\": \"/2\", \"value\": 2}]", NULL,
	  PATCH_OUT_OF_RANGE, 0, "add", "/2" },
	{ "add under a missing parent", 0, "{}", "[{\"op\": \"add\", \"path\": \"/a/b\", \"value\": 1}]",
	  NULL, PATCH_PATH_NOT_FOUND, 0, "add", "/a/b" },
	{ "add with a name into an array", 0, "[]", "[{\"op\": \"add\", \"path\": \"/x\", \"value\": 1}]",
	  NULL, PATCH_BAD_INDEX, 0, "add", "/x" },
	{ "add with a leading zero", 0, "[1, 2]", "[{\"op\": \"add\", \"path\": \"/01\", \"value\": 1}]",
	  NULL, PATCH_BAD_INDEX, 0, "add", "/01" },
	{ "add into a string", 0, "{\"s\": \"t\"}", "[{\"op\": \"add\", \"path\": \"/s/x\", \"value\": 1}]",
	  NULL, PATCH_PATH_NOT_FOUND, 0, "add", "/s/x" },
	{ "add without a value", 0, "{}", "[{\"op\": \"add\", \"path\": \"/a\"}]", NULL,
	  PATCH_BAD_OPERATION, 0, "add", "/a" },
	/* remove */
	{ "remove a member", 0, "{\"a\": 1, \"b\": 2}", "[{\"op\": \"remove\", \"path\": \"/a\"}]",
	  "{\"b\": 2}", PASSES },
	{ "remove an element", 0, "[1, 2, 3]", "[{\"op\": \"remove\", \"path\": \"/1\"}]", "[1, 3]", PASSES },
	{ "remove a missing member", 0, "{\"a\": 1}", "[{\"op\": \"remove\", \"path\": \"/b\"}]", NULL,
	  PATCH_PATH_NOT_FOUND, 0, "remove", "/b" },
	{ "remove past the end", 0, "[1]", "[{\"op\": \"remove\", \"path\": \"/1\"}]", NULL,
	  PATCH_OUT_OF_RANGE, 0, "remove", "/1" },
	{ "remove -", 0, "[1]", "[{\"op\": \"remove\", \"path\": \"/-\"}]", NULL,
	  PATCH_OUT_OF_RANGE, 0, "remove", "/-" },
	{ "remove the whole document", 0, "{}", "[{\"op\": \"remove\", \"path\": \"\"}]", NULL,
	  PATCH_BAD_OPERATION, 0, "remove", "" },
	/* replace */
	{ "replace a member", 0, "{\"a\": 1}", "[{\"op\": \"replace\", \"path\": \"/a\", \"value\": null}]",
	  "{\"a\": null}", PASSES },
	{ "replace an element", 0, "[1, 2]", "[{\"op\": \"replace\", \"path\": \"/0\", \"value\": {}}]",
	  "[{}, 2]", PASSES },
	{ "replace the whole document", 0, "{\"a\": 1}",
	  "[{\"op\": \"replace\", \"path\": \"\", \"value\": 7}]", "7", PASSES },
	{ "replace a missing member", 0, "{}", "[{\"op\": \"replace\", \"path\": \"/a\", \"value\": 1}]",
	  NULL, PATCH_PATH_NOT_FOUND, 0, "replace", "/a" },
	{ "replace at -", 0, "[1]", "[{\"op\": \"replace\", \"path\": \"/-\", \"value\": 1}]",
	  NULL, PATCH_OUT_OF_RANGE, 0, "replace", "/-" },
	/* move */
	{ "move a member", 0, "{\"a\": {\"b\": 1}, \"c\": {}}",
	  "[{\"op\": \"move\", \"from\": \"/a/b\", \"path\": \"/c/d\"}]", "{\"a\": {}, \"c\": {\"d\": 1}}", PASSES },
	{ "move an element later", 0, "[\"all\", \"grass\", \"cows\", \"eat\"]",
	  "[{\"op\": \"move\", \"from\": \"/1\", \"path\": \"/3\"}]", "[\"all\", \"cows\", \"eat\", \"grass\"]", PASSES },
	{ "move to the same place", 0, "{\"a\": 1}", "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/a\"}]",
	  "{\"a\": 1}", PASSES },
	{ "move into its own child", 0, "{\"a\": {\"b\": {}}}",
	  "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/a/b/c\"}]", NULL, PATCH_MOVE_INTO_CHILD, 0,
	  "move", "/a/b/c" },
	{ "move the root into a child", 0, "{\"a\": {}}",
	  "[{\"op\": \"move\", \"from\": \"\", \"path\": \"/a/b\"}]", NULL, PATCH_MOVE_INTO_CHILD, 0,
	  "move", "/a/b" },
	{ "move to a sibling with a longer name", 0, "{\"a\": 1}",
	  "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/ab\"}]", "{\"ab\": 1}", PASSES },
	{ "move from a missing place", 0, "{}", "[{\"op\": \"move\", \"from\": \"/x\", \"path\": \"/y\"}]",
	  NULL, PATCH_PATH_NOT_FOUND, 0, "move", "/x" },
	{ "move without from", 0, "{}", "[{\"op\": \"move\", \"path\": \"/y\"}]", NULL,
	  PATCH_BAD_OPERATION, 0, "move", "" },
	/* copy */
	{ "copy a member", 0, "{\"a\": {\"b\": [1]}}", "[{\"op\": \"copy\", \"from\": \"/a\", \"path\": \"/c\"}]",
	  "{\"a\": {\"b\": [1]}, \"c\": {\"b\": [1]}}", PASSES },
	{ "copy is deep", 0, "{\"a\": {\"b\": 1}}",
	  "[{\"op\": \"copy\", \"from\": \"/a\", \"path\": \"/c\"}, "
	  "{\"op\": \"replace\", \"path\": \"/c/b\", \"value\": 2}]", "{\"a\": {\"b\": 1}, \"c\": {\"b\": 2}}", PASSES },
	{ "copy into its own child", 0, "{\"a\": {}}", "[{\"op\": \"copy\", \"from\": \"/a\", \"path\": \"/a/b\"}]",
	  "{\"a\": {\"b\": {}}}", PASSES },
	{ "copy from a missing place", 0, "{}", "[{\"op\": \"copy\", \"from\": \"/x\", \"path\": \"/y\"}]",
	  NULL, PATCH_PATH_NOT_FOUND, 0, "copy", "/x" },
	{ "copy from an ill-typed from", 0, "{}", "[{\"op\": \"copy\", \"from\": 1, \"path\": \"/y\"}]",
	  NULL, PATCH_BAD_OPERATION, 0, "copy", "" },
	/* test */
	{ "test a value", 0, "{\"a\": {\"b\": 1, \"c\": [1, 2]}}",
	  "[{\"op\": \"test\", \"path\": \"/a\", \"value\": {\"c\": [1, 2], \"b\": 1}}]",
	  "{\"a\": {\"b\": 1, \"c\": [1, 2]}}", PASSES },
	{ "test an integer against a real", 0, "{\"a\": 1}",
	  "[{\"op\": \"test\", \"path\": \"/a\", \"value\": 1.0}]", "{\"a\": 1}", PASSES },
	{ "test a number against a string", 0, "{\"a\": 10}",
	  "[{\"op\": \"test\", \"path\": \"/a\", \"value\": \"10\"}]", NULL, PATCH_TEST_FAILED, 0, "test",
	  "/a" },
	{ "test the order of an array", 0, "[1, 2]", "[{\"op\": \"test\", \"path\": \"\", \"value\": [2, 1]}]",
	  NULL, PATCH_TEST_FAILED, 0, "test", "" },
	{ "test null against false", 0, "[null]", "[{\"op\": \"test\", \"path\": \"/0\", \"value\": false}]",
	  NULL, PATCH_TEST_FAILED, 0, "test", "/0" },
	/* the operations themselves */
	{ "not an array", 0, "{}", "{\"op\": \"add\"}", NULL, PATCH_BAD_PATCH, -1, "", "" },
	{ "not an object", 0, "{}", "[3]", NULL, PATCH_BAD_OPERATION, 0, "", "" },
	{ "no op", 0, "{}", "[{\"path\": \"/a\"}]", NULL, PATCH_BAD_OPERATION, 0, "", "" },
	{ "unknown op", 0, "{}", "[{\"op\": \"spam\", \"path\": \"/a\"}]", NULL, PATCH_BAD_OPERATION, 0,
	  "spam", "" },
	{ "no path", 0, "{}", "[{\"op\": \"add\", \"value\": 1}]", NULL, PATCH_BAD_OPERATION, 0, "add", "" },
	{ "path not a string", 0, "{}", "[{\"op\": \"remove\", \"path\": null}]", NULL,
	  PATCH_BAD_OPERATION, 0, "remove", "" },
	{ "bad pointer", 0, "{}", "[{\"op\": \"add\", \"path\": \"a\", \"value\": 1}]", NULL,
	  PATCH_BAD_POINTER, 0, "add", "a" },
	{ "bad escape", 0, "{}", "[{\"op\": \"add\", \"path\": \"/a~2\", \"value\": 1}]", NULL,
	  PATCH_BAD_POINTER, 0, "add", "/a~2" },
	{ "members not used are ignored", 0, "{}",
	  "[{\"op\": \"add\", \"path\": \"/a\", \"value\": 1, \"from\": 7, \"xyz\": []}]", "{\"a\": 1}", PASSES },
	{ "the error names the failing operation", 0, "{\"a\": [1]}",
	  "[{\"op\": \"add\", \"path\": \"/b\", \"value\": 1}, {\"op\": \"test\", \"path\": \"/b\", \"value\": 1}, "
	  "{\"op\": \"remove\", \"path\": \"/a/5\"}, {\"op\": \"add\", \"path\": \"/c\", \"value\": 1}]",
	  NULL, PATCH_OUT_OF_RANGE, 2, "remove", "/a/5" },
	/* the hook */
	{ "hook: a node by id", 1, GRAPH,
	  "[{\"op\": \"replace\", \"path\": \"/nodes/n2/x\", \"value\": 5}]",
	  "{\"nodes\": [{\"id\": \"n1\", \"x\": 1}, {\"id\": \"n2\", \"x\": 5}], "
	  "\"edges\": [{\"id\": \"e1\", \"source\": \"n1\"}], \"meta\": {\"list\": [{\"id\": \"n1\"}]}}", PASSES },
	{ "hook: remove a node and an edge by id", 1, GRAPH,
	  "[{\"op\": \"remove\", \"path\": \"/nodes/n1\"}, {\"op\": \"remove\", \"path\": \"/edges/e1\"}]",
	  "{\"nodes\": [{\"id\": \"n2\", \"x\": 2}], \"edges\": [], \"meta\": {\"list\": [{\"id\": \"n1\"}]}}", PASSES },
	{ "hook: an id added by an earlier operation", 1, GRAPH,
	  "[{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"id\": \"n9\"}}, "
	  "{\"op\": \"add\", \"path\": \"/nodes/n9/x\", \"value\": 9}, "
	  "{\"op\": \"move\", \"from\": \"/nodes/n9\", \"path\": \"/nodes/0\"}]",
	  "{\"nodes\": [{\"id\": \"n9\", \"x\": 9}, {\"id\": \"n1\", \"x\": 1}, {\"id\": \"n2\", \"x\": 2}], "
	  "\"edges\": [{\"id\": \"e1\", \"source\": \"n1\"}], \"meta\": {\"list\": [{\"id\": \"n1\"}]}}", PASSES },
	{ "hook: an id removed by an earlier operation", 1, GRAPH,
	  "[{\"op\": \"remove\", \"path\": \"/nodes/n2\"}, {\"op\": \"replace\", \"path\": \"/nodes/n2/x\", "
	  "\"value\": 1}]", NULL, PATCH_PATH_NOT_FOUND, 1, "replace", "/nodes/n2/x" },
	{ "hook: an unknown id", 1, GRAPH, "[{\"op\": \"remove\", \"path\": \"/nodes/zz\"}]", NULL,
	  PATCH_PATH_NOT_FOUND, 0, "remove", "/nodes/zz" },
	{ "hook: an id past the end", 1, GRAPH, "[{\"op\": \"remove\", \"path\": \"/nodes/far\"}]", NULL,
	  PATCH_OUT_OF_RANGE, 0, "remove", "/nodes/far" },
	{ "hook: only the arrays it knows", 1, GRAPH, "[{\"op\": \"remove\", \"path\": \"/meta/list/n1\"}]",
	  NULL, PATCH_PATH_NOT_FOUND, 0, "remove", "/meta/list/n1" },
	{ "hook: all digits are an index", 1,
	  "{\"nodes\": [{\"id\": \"1\"}, {\"id\": \"0\"}]}",
	  "[{\"op\": \"test\", \"path\": \"/nodes/1/id\", \"value\": \"0\"}]",
	  "{\"nodes\": [{\"id\": \"1\"}, {\"id\": \"0\"}]}", PASSES },
	{ "hook: leading zeros stay an error", 1, "{\"nodes\": [{\"id\": \"01\"}]}",
	  "[{\"op\": \"remove\", \"path\": \"/nodes/01\"}]", NULL, PATCH_BAD_INDEX, 0, "remove", "/nodes/01" },
	{ "hook: copy from a node by id", 1, GRAPH,
	  "[{\"op\": \"copy\", \"from\": \"/nodes/n2/x\", \"path\": \"/nodes/n1/y\"}]",
	  "{\"nodes\": [{\"id\": \"n1\", \"x\": 1, \"y\": 2}, {\"id\": \"n2\", \"x\": 2}], "
	  "\"edges\": [{\"id\": \"e1\", \"source\": \"n1\"}], \"meta\": {\"list\": [{\"id\": \"n1\"}]}}", PASSES },
	{ "no hook: an id is a bad index", 0, GRAPH, "[{\"op\": \"remove\", \"path\": \"/nodes/n1\"}]", NULL,
	  PATCH_BAD_INDEX, 0, "remove", "/nodes/n1" },
};

static void t_patch_case(const struct patch_case *c)
{
	int calls = 0;
	struct patch_opts o = { .hook = { c->hook ? t_hook : NULL, &calls } };
	json_t *doc = t_json(c->doc), *patch = t_json(c->patch), *before = json_deep_copy(doc);
	json_t *want = c->want ? t_json(c->want) : NULL, *got;
	struct patch_error e;

	got = patch_apply(doc, patch, &o, &e);
	if (want) {
		ok(got && json_equal(got, want) && e.code == PATCH_OK, "%s%s%s", c->name,
		   got ? "" : ": ", got ? "" : e.message);
	} else {
		ok(!got && e.code == c->code && e.index == c->index && strcmp(e.op, c->op) == 0 &&
		   strcmp(e.path, c->path) == 0 && e.message[0],
		   "%s: %s at %ld, op \"%s\", path \"%s\": %s", c->name, patch_code_name(e.code),
		   e.index, e.op, e.path, e.message);
	}
	ok(json_equal(doc, before), "%s: the input is untouched", c->name);
	json_decref(got);
	json_decref(want);
	json_decref(before);
	json_decref(patch);
	json_decref(doc);
}

static void t_patches(void)
{
	for (size_t i = 0; i < sizeof patch_cases / sizeof patch_cases[0]; i++)
		t_patch_case(&patch_cases[i]);
}

/* -- bounds ----------------------------------------------------------------- */

static void t_bounds(void)
{
	struct patch_opts o = { .max_values = 100 };
	json_t *doc = t_json("{\"a\": [1, 2, 3, 4, 5, 6, 7, 8, 9]}"), *deep = json_array(), *got;
	json_t *copies = json_array(), *add;
	struct patch_error e;

	/* Each copy doubles the document: ten values, twenty, forty, then past 100. */
	for (int i = 0; i < 8; i++)
		json_array_append_new(copies, json_pack("{s:s, s:s, s:s}", "op", "copy", "from", "",
							"path", i % 2 ? "/b" : "/c"));
	got = patch_apply(doc, copies, &o, &e);
	ok(!got && e.code == PATCH_TOO_LARGE && e.index == 3, "copies past max_values: %s at %ld",
	   patch_code_name(e.code), e.index);
	json_decref(got);
	for (int i = 0; i < PATCH_MAX_DEPTH; i++)
		deep = json_pack("[o]", deep);
	add = json_pack("[{s:s, s:s, s:O}]", "op", "add", "path", "/a", "value", deep);
	got = patch_apply(doc, add, NULL, &e);
	ok(!got && e.code == PATCH_TOO_LARGE, "a value nested past %d levels: %s", PATCH_MAX_DEPTH,
	   patch_code_name(e.code));
	json_decref(got);
	json_decref(add);
	add = json_pack("[{s:s, s:s, s:O}]", "op", "replace", "path", "/a", "value", deep);
	got = patch_apply(doc, add, NULL, &e);
	ok(!got && e.code == PATCH_TOO_LARGE && strcmp(e.op, "replace") == 0,
	   "a value nested past %d levels, by replace: %s", PATCH_MAX_DEPTH, patch_code_name(e.code));
	json_decref(got);
	json_decref(add);
	add = json_pack("[{s:s, s:s, s:O}]", "op", "add", "path", "", "value", json_array_get(deep, 0));
	got = patch_apply(doc, add, NULL, &e);
	ok(got && json_equal(got, json_array_get(deep, 0)), "a value nested exactly %d levels",
	   PATCH_MAX_DEPTH);
	json_decref(got);
	json_decref(add);
	json_decref(deep);
	json_decref(copies);
	json_decref(doc);
}

/* -- the byte budget ---------------------------------------------------------- */

/* The size the budget counts is the compact JSON text (no escapes here). */
static const char *const size_cases[] = {
	"\"abc\"", "\"\"", "123", "-5", "0", "-1234567890123", "true", "false", "null", "[]", "{}",
	"[1,2]", "{\"a\":[1,true,null]}", "{\"a\":1,\"bb\":{\"c\":[[],{}]}}",
};

static void t_sizes(void)
{
	for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++) {
		json_t *v = t_json(size_cases[i]);

		ok(patch_bytes(v, 1u << 20) == strlen(size_cases[i]), "size of %s: %zu", size_cases[i],
		   patch_bytes(v, 1u << 20));
		json_decref(v);
	}
}

#define S40 "\"0123456789012345678901234567890123456789\""
#define S60 "\"012345678901234567890123456789012345678901234567890123456789\""

struct budget_case {
	const char *name;
	const char *doc, *patch;
	size_t max_bytes;
	enum patch_code code;   /* PATCH_OK: it applies */
	long index;
};

static const struct budget_case budget_cases[] = {
	{ "add: a value that fills the budget exactly", "{}",
	  "[{\"op\": \"add\", \"path\": \"/a\", \"value\": [" S40 ", " S40 ", 1234567890123456]}]",
	  104, PATCH_OK, 0 },
	{ "add: one byte more", "{}",
	  "[{\"op\": \"add\", \"path\": \"/a\", \"value\": [" S40 ", " S40 ", 12345678901234567]}]",
	  104, PATCH_OVER_BUDGET, 0 },
	{ "copy: each copy counted whole", "{\"s\": " S40 "}",
	  "[{\"op\": \"copy\", \"from\": \"/s\", \"path\": \"/a\"},"
	  " {\"op\": \"copy\", \"from\": \"/s\", \"path\": \"/b\"},"
	  " {\"op\": \"copy\", \"from\": \"/a\", \"path\": \"/c\"}]", 100, PATCH_OVER_BUDGET, 2 },
	{ "move: counted each time it is put in", "{\"s\": " S40 "}",
	  "[{\"op\": \"move\", \"from\": \"/s\", \"path\": \"/t\"},"
	  " {\"op\": \"move\", \"from\": \"/t\", \"path\": \"/s\"},"
	  " {\"op\": \"move\", \"from\": \"/s\", \"path\": \"/t\"}]", 100, PATCH_OVER_BUDGET, 2 },
	{ "move: onto itself puts nothing in", "{\"s\": " S40 "}",
	  "[{\"op\": \"move\", \"from\": \"/s\", \"path\": \"/s\"},"
	  " {\"op\": \"move\", \"from\": \"/s\", \"path\": \"/s\"},"
	  " {\"op\": \"move\", \"from\": \"/s\", \"path\": \"/s\"}]", 50, PATCH_OK, 0 },
	{ "replace: counted too", "{\"s\": 1}",
	  "[{\"op\": \"replace\", \"path\": \"/s\", \"value\": " S60 "},"
	  " {\"op\": \"replace\", \"path\": \"/s\", \"value\": " S60 "}]", 100, PATCH_OVER_BUDGET, 1 },
	{ "a whole-document copy", "{\"s\": " S40 "}",
	  "[{\"op\": \"copy\", \"from\": \"\", \"path\": \"/a\"},"
	  " {\"op\": \"copy\", \"from\": \"\", \"path\": \"/b\"}]", 100, PATCH_OVER_BUDGET, 1 },
	{ "test and remove put nothing in", "{\"s\": " S60 "}",
	  "[{\"op\": \"test\", \"path\": \"/s\", \"value\": " S60 "},"
	  " {\"op\": \"test\", \"path\": \"/s\", \"value\": " S60 "},"
	  " {\"op\": \"remove\", \"path\": \"/s\"}]", 10, PATCH_OK, 0 },
};

static void t_budget_case(const struct budget_case *c)
{
	struct patch_opts o = { .max_bytes = c->max_bytes };
	json_t *doc = t_json(c->doc), *patch = t_json(c->patch), *got;
	struct patch_error e;

	got = patch_apply(doc, patch, &o, &e);
	if (c->code == PATCH_OK)
		ok(got != NULL, "%s%s%s", c->name, got ? "" : ": ", got ? "" : e.message);
	else
		ok(!got && e.code == c->code && e.index == c->index &&
		   strcmp(patch_code_name(e.code), "patch_too_large") == 0,
		   "%s: %s at %ld (%s)", c->name, patch_code_name(e.code), e.index, e.message);
	json_decref(got);
	json_decref(patch);
	json_decref(doc);
}

/* The attack: a 2 MB string, then 500 copies of it (1 GB), under the
 * default budget: refused at the ninth copy, 16 MiB in. */
static void t_copy_bomb(void)
{
	char *big = malloc(2000001);
	json_t *doc, *patch = json_array(), *got;
	struct patch_error e;

	memset(big, 'x', 2000000);
	big[2000000] = '\0';
	doc = json_pack("{s:s}", "s", big);
	free(big);
	for (int i = 0; i < 500; i++)
		json_array_append_new(patch, json_pack("{s:s, s:s, s:s}", "op", "copy", "from", "/s",
						       "path", i % 2 ? "/a" : "/b"));
	got = patch_apply(doc, patch, NULL, &e);
	ok(!got && e.code == PATCH_OVER_BUDGET && e.index == 8 && strstr(e.message, "16777216"),
	   "500 copies of a 2 MB string: refused at copy %ld (%s)", e.index, e.message);
	json_decref(got);
	json_decref(patch);
	json_decref(doc);
}

static void t_budget(void)
{
	t_sizes();
	for (size_t i = 0; i < sizeof budget_cases / sizeof budget_cases[0]; i++)
		t_budget_case(&budget_cases[i]);
	t_copy_bomb();
}

/* -- equality and the error as JSON ----------------------------------------- */

struct equal_case {
	const char *a, *b;
	int equal;
};

static const struct equal_case equal_cases[] = {
	{ "1", "1", 1 }, { "1", "1.0", 1 }, { "1.5", "1.5", 1 }, { "1", "1.5", 0 },
	{ "1", "\"1\"", 0 }, { "null", "false", 0 }, { "true", "true", 1 }, { "\"a\"", "\"b\"", 0 },
	{ "{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"a\": 1}", 1 }, { "{\"a\": 1}", "{\"a\": 1, \"b\": 2}", 0 },
	{ "[1, 2]", "[2, 1]", 0 }, { "[{\"a\": [1.0]}]", "[{\"a\": [1]}]", 1 }, { "{}", "[]", 0 },
	{ "9007199254740993", "9007199254740992.0", 0 }, { "-0.0", "0", 1 },
};

static void t_equal(void)
{
	for (size_t i = 0; i < sizeof equal_cases / sizeof equal_cases[0]; i++) {
		const struct equal_case *c = &equal_cases[i];
		json_t *a = t_json(c->a), *b = t_json(c->b);

		ok(patch_equal(a, b) == c->equal && patch_equal(b, a) == c->equal, "%s %s %s", c->a,
		   c->equal ? "==" : "!=", c->b);
		json_decref(a);
		json_decref(b);
	}
}

static void t_error_json(void)
{
	json_t *doc = t_json("{}"), *patch = t_json("[{\"op\": \"remove\", \"path\": \"/x~1y\"}]");
	json_t *j, *got;
	struct patch_error e;
	char *s;

	got = patch_apply(doc, patch, NULL, &e);
	j = patch_error_json(&e);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	ok(!got && s && strstr(s, "\"code\":\"path_not_found\",\"index\":0,") &&
	   strstr(s, "\"op\":\"remove\",\"path\":\"/x~1y\"}") && json_is_string(json_object_get(j, "message")),
	   "the error as JSON: %s", s);
	free(s);
	json_decref(j);
	json_decref(patch);
	json_decref(doc);
}

int main(void)
{
	t_parse();
	t_escape();
	t_index();
	t_get();
	t_patches();
	t_bounds();
	t_budget();
	t_equal();
	t_error_json();
	return tap_done();
}
