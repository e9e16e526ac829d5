/* The offline agents of orchestrate (orch_rules*.c), as tables: the
 * registry of rules; the code review's rules on small C, JavaScript and
 * Python files with known issues, each found at its line and nothing on
 * clean code; and each agent on facts built here, with the tool calls it
 * asks for and the answer it gives once the tools have run. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "prov/prov.h"
#include "util/buf.h"
#include "util/pngio.h"
#include "media/ocr.h"
#include "media/raster.h"
#include "wf/orchestrate/orch_rules.h"
#include "wf/orchestrate/orch_rules_int.h"

/* ---- the registry ---- */

static void test_registry(void)
{
	static const char *const agents[] = { "coordinator", "evaluator", "code-reviewer", "debugger",
		"architect", "vision-analyzer", "vision-processor", "vision-annotator", "coder",
		"test-writer", "documenter" };

	for (size_t i = 0; i < sizeof(agents) / sizeof(agents[0]); i++)
		ok(orch_rules_for(agents[i]) != NULL, "%s has rules", agents[i]);
	ok(orch_rules_for("planner") == NULL, "the planner has none here");
	ok(orch_rules_for("nobody") == NULL && orch_rules_for(NULL) == NULL, "unknown ids have none");
}

/* ---- review rules ---- */

struct review_case {
	const char *name, *path, *source;
	const char *want;      /* "line:rule line:rule ..." in order, "" for none */
};

static const struct review_case reviews[] = {
	{ "C issues", "copy.c",
	  "#include <stdlib.h>\n"
	  "#include <string.h>\n"
	  "/* TODO: handle long names */\n"
	  "char *copy(const char *s)\n"
	  "{\n"
	  "\tchar *p = malloc(strlen(s) + 1);\n"
	  "\tstrcpy(p, s);\n"
	  "\treturn p;\n"
	  "}\n"
	  "void greet(char *out, const char *name)\n"
	  "{\n"
	  "\tsprintf(out, \"hello %s\", name);\n"
	  "\tprintf(\"strcpy(x) in a string is fine\\n\");\n"
	  "\tchar line[80];\n"
	  "\tgets(line);\n"
	  "\tout = realloc(out, 10);\n"
	  "\tsystem(line);\n"
	  "}\n",
	  "3:todo 6:unchecked-alloc 7:unsafe-string 12:unsafe-string 15:gets 16:realloc-leak "
	  "17:command-exec" },
	{ "C clean", "clean.c",
	  "#include <stdlib.h>\n"
	  "/* We never call strcpy( here; no work is left. */\n"
	  "char *make(size_t n)\n"
	  "{\n"
	  "\tchar *p = malloc(n);\n"
	  "\n"
	  "\tif (p == NULL)\n"
	  "\t\treturn NULL;\n"
	  "\tsnprintf(p, n, \"%s\", \"sprintf(\");\n"
	  "\tmy_strcpy(p, \"x\");\n"
	  "\treturn p;\n"
	  "}\n",
	  "" },
	{ "JavaScript issues", "app.js",
	  "var count = 0;\n"
	  "function run(code, el, html) {\n"
	  "  if (code == null) return;\n"
	  "  eval(code);\n"
	  "  el.innerHTML = html;\n"
	  "  // FIXME: count twice\n"
	  "  return count != 1;\n"
	  "}\n",
	  "1:no-var 3:loose-equality 4:eval 5:inner-html 6:todo 7:loose-equality" },
	{ "JavaScript clean", "ok.js",
	  "const same = (a, b) => a === b;\n"
	  "const text = \"eval(x) == y\";\n"
	  "// nothing left to do\n"
	  "function show(el, t) { el.textContent = t; return t !== ''; }\n",
	  "" },
	{ "Python issues", "tool.py",
	  "import subprocess\n"
	  "def load(path, seen=[]):\n"
	  "    try:\n"
	  "        return eval(open(path).read())\n"
	  "    except:\n"
	  "        return None\n"
	  "def check(x):\n"
	  "    # XXX slow\n"
	  "    subprocess.run(x, shell=True)\n"
	  "    return x == None\n",
	  "2:mutable-default 4:eval 5:bare-except 8:todo 9:shell-true 10:none-comparison" },
	{ "Python clean", "fine.py",
	  "def load(path, seen=None):\n"
	  "    \"\"\"eval( and except: in a docstring\n"
	  "    are words, not code == None.\"\"\"\n"
	  "    try:\n"
	  "        return int(path)\n"
	  "    except ValueError:\n"
	  "        return seen is None\n",
	  "" },
};

static char *issues_string(const json_t *issues)
{
	struct buf b;
	size_t i;
	json_t *is;

	buf_init(&b, 1 << 16);
	json_array_foreach(issues, i, is)
		buf_printf(&b, "%s%d:%s", i ? " " : "", (int)json_integer_value(json_object_get(is, "line")),
			   json_string_value(json_object_get(is, "rule")));
	return buf_steal(&b);
}

static void test_reviews(void)
{
	for (size_t i = 0; i < sizeof(reviews) / sizeof(reviews[0]); i++) {
		const struct review_case *c = &reviews[i];
		json_t *issues = orch_review_text(c->path, c->source, "en");
		char *got = issues_string(issues);

		is_str(got, c->want, "%s: each issue at its line, no other", c->name);
		free(got);
		json_decref(issues);
	}
}

/* A C function of n body lines, for the long-function rule. */
static char *long_source(int n)
{
	struct buf b;

	buf_init(&b, 1 << 20);
	buf_adds(&b, "int total(int x)\n{\n\tint t = 0;\n");
	for (int i = 0; i < n; i++)
		buf_printf(&b, "\tt += x * %d;\n", i);
	buf_adds(&b, "\treturn t;\n}\n");
	return buf_steal(&b);
}

static void test_long_function(void)
{
	static const struct { int body; const char *want; } cases[] = {
		{ 50, "" }, { 55, "" }, { 56, "1:long-function" }, { 120, "1:long-function" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *src = long_source(cases[i].body), *got;
		json_t *issues = orch_review_text("total.c", src, "zh");

		got = issues_string(issues);
		is_str(got, cases[i].want, "a function of %d lines", cases[i].body + 5);
		free(got);
		free(src);
		json_decref(issues);
	}
}

/* ---- agents on facts ---- */

static char *b64(const void *data, size_t len)
{
	size_t n = sodium_base64_encoded_len(len, sodium_base64_VARIANT_ORIGINAL);
	char *out = malloc(n);

	sodium_bin2base64(out, n, data, len, sodium_base64_VARIANT_ORIGINAL);
	return out;
}

static json_t *facts_new(const char *agent, const char *lang)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s}, s:{}, s:[], s:[], s:[], s:i, s:i, s:s}", "agent", agent,
			 "task", "check the files", "stage", "id", "s1", "description", "do the work",
			 "inputs", "attachments", "workspace", "toolResults", "iteration", 1,
			 "maxIterations", 5, "lang", lang);
}

static void attach_text(json_t *facts, const char *path, const char *text, int with_data)
{
	json_t *a = json_pack("{s:s, s:s, s:i}", "path", path, "mimeType", "text/plain", "size",
			      (int)strlen(text));

	if (with_data) {
		char *d = b64(text, strlen(text));

		json_object_set_new(a, "data", json_string(d));
		free(d);
	}
	json_array_append_new(json_object_get(facts, "attachments"), a);
}

static void add_result(json_t *facts, const json_t *call, json_t *result)
{
	json_array_append_new(json_object_get(facts, "toolResults"), json_pack("{s:O, s:O, s:o}",
		"name", json_object_get(call, "name"), "arguments", json_object_get(call, "arguments"),
		"result", result));
}

static json_t *run(const char *agent, const json_t *facts)
{
	char err[128] = "";
	prov_rules_fn fn = orch_rules_for(agent);
	json_t *a = fn ? fn(facts, "", err, sizeof(err)) : NULL;

	if (!a)
		tap_bail("%s gave no answer: %s", agent, err);
	return a;
}

/* The structured data of an answer (its ```json fence), new reference. */
static json_t *answer_data(const json_t *a)
{
	return prov_json_from_text(json_string_value(json_object_get(a, "answer")));
}

static const char *answer_text(const json_t *a)
{
	const char *t = json_string_value(json_object_get(a, "answer"));

	return t ? t : "";
}

static const char c_source[] =
	"#include <string.h>\n"
	"#include <stdlib.h>\n"
	"char name[32];\n"
	"char *dup_name(const char *s)\n"
	"{\n"
	"\tchar *p = malloc(strlen(s) + 1);\n"
	"\tstrcpy(p, s);\n"
	"\tstrcpy(name, s);\n"
	"\treturn p;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"\treturn dup_name(\"x\") == NULL;\n"
	"}\n";

static void test_reviewer(void)
{
	json_t *f = facts_new("code-reviewer", "en"), *a, *calls, *data;

	attach_text(f, "src/n.c", c_source, 0);
	a = run("code-reviewer", f);
	calls = json_object_get(a, "toolCalls");
	is_int(json_array_size(calls), 1, "reviewer: reads the file it was not given");
	is_str(json_string_value(json_object_get(json_object_get(json_array_get(calls, 0), "arguments"),
						 "path")), "src/n.c", "reviewer: read_file src/n.c");
	add_result(f, json_array_get(calls, 0), json_pack("{s:s, s:s}", "path", "src/n.c", "content", c_source));
	json_decref(a);
	a = run("code-reviewer", f);
	data = answer_data(a);
	is_int(json_array_size(json_object_get(data, "issues")), 3, "reviewer: 3 issues after reading");
	ok(strstr(answer_text(a), "without a model") != NULL, "reviewer: says it is offline");
	json_decref(data);
	json_decref(a);
	json_decref(f);
}

static void test_coder(void)
{
	json_t *f = facts_new("coder", "en"), *a, *calls, *args, *issues;
	const char *content;

	attach_text(f, "src/n.c", c_source, 1);
	issues = orch_review_text("src/n.c", c_source, "en");
	json_object_set_new(json_object_get(f, "inputs"), "review", json_pack("{s:s, s:{s:o}}",
		"textOutput", "3 issues", "structuredData", "issues", issues));
	a = run("coder", f);
	calls = json_object_get(a, "toolCalls");
	args = json_object_get(json_array_get(calls, 0), "arguments");
	content = json_string_value(json_object_get(args, "content"));
	is_str(json_string_value(json_object_get(json_array_get(calls, 0), "name")), "write_file",
	       "coder: write_file");
	is_str(json_string_value(json_object_get(args, "path")), "fixed/src/n.c", "coder: under fixed/");
	ok(content && strstr(content, "\tif (p == NULL)\n\t\treturn NULL;\n"), "coder: NULL check with the function's return");
	ok(content && strstr(content, "snprintf(name, sizeof(name), \"%s\", s);"), "coder: strcpy into an array bounded");
	ok(content && strstr(content, "/* review: strcpy() does not check") && strstr(content, "\tstrcpy(p, s);"),
	   "coder: strcpy into a pointer left with a comment");
	add_result(f, json_array_get(calls, 0), json_pack("{s:s, s:i}", "path", "fixed/src/n.c", "size", 10));
	json_decref(a);
	a = run("coder", f);
	ok(strstr(answer_text(a), "fixed/src/n.c") && strstr(answer_text(a), "Issues fixed mechanically: 2") &&
	   strstr(answer_text(a), "what to change: 1"), "coder: names the file and counts");
	json_decref(a);
	json_decref(f);
}

static void test_test_writer(void)
{
	static const struct { const char *path, *src, *dest, *must; } cases[] = {
		{ "src/n.c", c_source, "tests/test_n.c", "(void (*)(void))dup_name" },
		{ "lib/calc.py", "def add(a, b):\n    return a + b\n\nclass K:\n    def m(self):\n        pass\n",
		  "tests/test_calc.py", "len(inspect.signature(MOD.add).parameters), 2" },
		{ "web/util.js", "function clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}\n"
		  "module.exports = { clamp };\n", "tests/util.test.js", "mod.clamp.length, 3" },
		{ "web/arrow.js", "const ys = [1].map(x => x * 2);\nconst twice = (x) => 2 * x;\n"
		  "function pad(s, n = 2) { return s; }\nmodule.exports = { twice, pad };\n",
		  "tests/arrow.test.js", "mod.twice.length, 1" },
		{ "web/arrow2.js", "const ys = [1].map(x => x * 2);\nconst twice = (x) => 2 * x;\n"
		  "function pad(s, n = 2) { return s; }\nmodule.exports = { twice, pad };\n",
		  "tests/arrow2.test.js", "mod.pad.length, 1" },
		{ "lib/kw.py", "def fetch(url, *, timeout=3, **extra):\n    return url\n",
		  "tests/test_kw.py", "len(inspect.signature(MOD.fetch).parameters), 3" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *f = facts_new("test-writer", "en"), *a, *call;
		const char *content;

		attach_text(f, cases[i].path, cases[i].src, 1);
		a = run("test-writer", f);
		call = json_array_get(json_object_get(a, "toolCalls"), 0);
		content = json_string_value(json_object_get(json_object_get(call, "arguments"), "content"));
		is_str(json_string_value(json_object_get(json_object_get(call, "arguments"), "path")),
		       cases[i].dest, "test-writer: %s", cases[i].dest);
		ok(content && strstr(content, cases[i].must), "test-writer: %s checks %s", cases[i].path, cases[i].must);
		ok(!content || (!strstr(content, "MOD.m)") && !strstr(content, "mod.ys")),
		   "test-writer: %s has no test of a method or a value", cases[i].path);
		json_decref(a);
		json_decref(f);
	}
}

/* A 400 x 300 PNG with a blue bar and a black square on white, base64. */
static char *picture_b64(void)
{
	struct pngio_image img = { 400, 300, malloc(400 * 300 * 4) };
	struct buf b;
	char *out;

	memset(img.rgba, 255, 400 * 300 * 4);
	for (int y = 0; y < 300; y++)
		for (int x = 0; x < 400; x++) {
			unsigned char *p = img.rgba + (y * 400 + x) * 4;

			if (x >= 40 && x < 200 && y >= 30 && y < 70)
				p[0] = 20, p[1] = 60, p[2] = 220;
			if (x >= 300 && x < 320 && y >= 200 && y < 220)
				p[0] = p[1] = p[2] = 0;
		}
	buf_init(&b, 1 << 24);
	pngio_encode(&img, &b);
	out = b64(b.data, b.len);
	buf_free(&b);
	free(img.rgba);
	return out;
}

static void test_vision(void)
{
	json_t *f = facts_new("vision-processor", "zh"), *a, *data, *el;
	char *pic = picture_b64();

	a = run("vision-analyzer", f);
	ok(strstr(answer_text(a), "没有可读取的图片") != NULL, "analyzer: no picture said plainly");
	json_decref(a);
	json_array_append_new(json_object_get(f, "attachments"), json_pack("{s:s, s:s, s:i, s:s}",
		"path", "ui.png", "mimeType", "image/png", "size", 100, "data", pic));
	a = run("vision-processor", f);
	data = answer_data(a);
	is_int(json_array_size(json_object_get(data, "elements")), 2, "processor: 2 elements");
	el = json_array_get(json_object_get(data, "elements"), 0);
	is_str(json_string_value(json_object_get(el, "type")), "button", "processor: the bar is a button");
	is_int(json_integer_value(json_object_get(json_object_get(el, "boundingBox"), "x")), 40, "processor: its x");
	is_str(json_string_value(json_object_get(data, "image")), "ui.png", "processor: names the picture");
	ok(strstr(answer_text(a), "离线") != NULL, "processor: says it is offline (zh)");
	json_decref(a);
	json_decref(data);
	json_object_set_new(json_object_get(f, "stage"), "description", json_string("检测界面元素"));
	a = run("vision-analyzer", f);
	data = answer_data(a);
	is_str(json_string_value(json_object_get(data, "type")), "detection", "analyzer: detection when asked for elements");
	json_decref(data);
	json_decref(a);
	json_array_clear(json_object_get(f, "attachments"));
	json_array_append_new(json_object_get(f, "attachments"), json_pack("{s:s, s:s, s:i, s:s}",
		"path", "x.png", "mimeType", "image/png", "size", 4, "data", "aGVsbG8="));
	a = run("vision-processor", f);
	ok(strstr(answer_text(a), "x.png") && strstr(answer_text(a), "无法解码"), "processor: bad picture said");
	json_decref(a);
	free(pic);
	json_decref(f);
}

/* The analyser reads a line drawn by librsvg (when Tesseract is there). */
static void test_analyzer_ocr(void)
{
	static const char svg[] = "<svg xmlns='http://www.w3.org/2000/svg' width='600' height='120'>"
		"<rect width='100%' height='100%' fill='white'/><text x='30' y='80' "
		"font-family='DejaVu Sans' font-size='48'>Hello 2026</text></svg>";
	struct buf png;
	int w, h;
	char err[128], *pic;
	json_t *f, *a, *data, *r;

	if (!ocr_available()) {
		printf("ok %d # SKIP built without Tesseract\n", ++tap_n);
		return;
	}
	buf_init(&png, 1 << 24);
	if (raster_svg_png(svg, strlen(svg), 0, &png, &w, &h, err, sizeof(err)) != RASTER_OK)
		tap_bail("the picture could not be drawn: %s", err);
	pic = b64(png.data, png.len);
	f = facts_new("vision-analyzer", "en");
	json_array_append_new(json_object_get(f, "attachments"), json_pack("{s:s, s:s, s:i, s:s}",
		"path", "hello.png", "mimeType", "image/png", "size", (int)png.len, "data", pic));
	a = run("vision-analyzer", f);
	data = answer_data(a);
	r = json_array_get(json_object_get(data, "textRegions"), 0);
	ok(r && strstr(json_string_value(json_object_get(r, "text")), "Hello 2026"), "analyzer: reads Hello 2026");
	is_str(json_string_value(json_object_get(data, "type")), "ocr", "analyzer: OCR JSON");
	ok(json_integer_value(json_object_get(json_object_get(r, "boundingBox"), "x")) >= 26, "analyzer: its box");
	ok(strstr(answer_text(a), "Tesseract") != NULL, "analyzer: says how it read it");
	json_decref(data);
	json_decref(a);
	json_decref(f);
	free(pic);
	buf_free(&png);
}

static void test_annotator(void)
{
	json_t *f = facts_new("vision-annotator", "en"), *a, *call, *regions;

	a = run("vision-annotator", f);
	ok(json_object_get(a, "answer") && !json_object_get(a, "toolCalls"), "annotator: nothing to draw, no call");
	json_decref(a);
	json_object_set_new(json_object_get(f, "inputs"), "ocr", json_pack(
		"{s:s, s:{s:s, s:[{s:s, s:{s:i, s:i, s:i, s:i}, s:f}, {s:s, s:{s:i}}]}}", "textOutput", "read",
		"structuredData", "image", "scan.png", "textRegions", "text", "你好", "boundingBox", "x", 5,
		"y", 6, "width", 70, "height", 20, "confidence", 0.9, "text", "no box", "boundingBox", "x", 1));
	json_object_set_new(json_object_get(f, "inputs"), "detect", json_pack(
		"{s:{s:[{s:s, s:{s:i, s:i, s:i, s:i}}]}}", "structuredData", "elements", "type", "button",
		"boundingBox", "x", 50, "y", 60, "width", 30, "height", 10));
	a = run("vision-annotator", f);
	call = json_incref(json_array_get(json_object_get(a, "toolCalls"), 0));
	regions = json_object_get(json_object_get(call, "arguments"), "regions");
	is_str(json_string_value(json_object_get(call, "name")), "image_annotate", "annotator: image_annotate");
	is_str(json_string_value(json_object_get(json_object_get(call, "arguments"), "image_path")), "scan.png",
	       "annotator: on the analysed picture");
	is_int(json_array_size(regions), 2, "annotator: the two boxes (a region without one left out)");
	is_str(json_string_value(json_object_get(json_array_get(regions, 0), "label")), "你好", "annotator: OCR text as label");
	is_str(json_string_value(json_object_get(json_array_get(regions, 1), "label")), "button", "annotator: element type as label");
	is_int(json_integer_value(json_object_get(json_array_get(regions, 0), "width")), 70, "annotator: the box kept");
	add_result(f, call, json_pack("{s:s}", "path", "annotated/scan.svg"));
	json_decref(a);
	a = run("vision-annotator", f);
	ok(strstr(answer_text(a), "annotated/scan.svg") && strstr(answer_text(a), "Regions drawn: 2"),
	   "annotator: names the file");
	json_decref(a);
	json_array_clear(json_object_get(f, "toolResults"));
	add_result(f, call, json_pack("{s:s, s:s}", "error", "bad_image", "message", "not a picture"));
	a = run("vision-annotator", f);
	ok(strstr(answer_text(a), "not a picture") && !json_object_get(a, "toolCalls"), "annotator: tool error said");
	json_decref(a);
	json_decref(call);
	json_decref(f);
}

static void test_meta(void)
{
	json_t *f = facts_new("documenter", "en"), *a, *data, *in = NULL;

	in = json_object_get(f, "inputs");
	json_object_set_new(in, "review", json_pack("{s:s, s:{s:[{}, {}]}, s:[{s:s}], s:{s:s}}",
		"textOutput", "Reviewed 1 files. Details follow.", "structuredData", "issues",
		"generatedFiles", "path", "fixed/a.c", "metadata", "agentId", "code-reviewer"));
	json_object_set_new(in, "tests", json_pack("{s:s, s:b}", "status", "skipped", "skipped", 1));
	a = run("documenter", f);
	ok(strstr(answer_text(a), "**review** (code-reviewer): Reviewed 1 files; 2 issues; files: fixed/a.c"),
	   "documenter: the review line");
	ok(strstr(answer_text(a), "**tests** (?): skipped, no result"), "documenter: the skipped input");
	json_decref(a);
	json_object_set_new(f, "lang", json_string("zh"));
	a = run("documenter", f);
	ok(strstr(answer_text(a), "结果摘要") && strstr(answer_text(a), "2 个问题"), "documenter: in Chinese");
	json_decref(a);
	a = run("evaluator", f);
	data = answer_data(a);
	ok(json_number_value(json_object_get(data, "overall")) == 0.5, "evaluator: overall 0.5");
	ok(json_number_value(json_object_get(json_array_get(json_object_get(data, "scores"), 0), "score")) == 1.0,
	   "evaluator: the full input scores 1");
	json_decref(data);
	json_decref(a);
	a = run("coordinator", f);
	data = answer_data(a);
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(data, "inputs"), 1), "status")),
	       "skipped", "coordinator: the skipped input");
	json_decref(data);
	json_decref(a);
	json_object_set_new(in, "run", json_pack("{s:s}", "textOutput",
		"build ok\nTraceback (most recent call last)\n  File \"a.py\", line 3\nValueError: bad"));
	a = run("debugger", f);
	data = answer_data(a);
	{
		json_t *first = json_array_get(json_object_get(data, "findings"), 0);

		is_str(json_string_value(json_object_get(first, "kind")), "python-traceback", "debugger: the traceback");
		is_int(json_integer_value(json_object_get(first, "line")), 2, "debugger: at its line");
	}
	json_decref(data);
	json_decref(a);
	json_decref(f);
	f = facts_new("architect", "en");
	attach_text(f, "src/a.c", "int one(void) { return 1; }\nint two(int x) { return x; }\n", 1);
	attach_text(f, "src/b.c", "static void three(void) { }\n", 1);
	attach_text(f, "tools/run.py", "def go():\n    pass\n", 1);
	a = run("architect", f);
	data = answer_data(a);
	is_int(json_array_size(json_object_get(data, "modules")), 2, "architect: two modules");
	is_int(json_array_size(json_object_get(json_array_get(json_object_get(data, "modules"), 0), "functions")), 3,
	       "architect: src has three functions");
	ok(strstr(answer_text(a), "2 modules with 4 functions"), "architect: says so");
	json_decref(data);
	json_decref(a);
	json_decref(f);
}

int main(void)
{
	test_registry();
	test_reviews();
	test_long_function();
	test_reviewer();
	test_coder();
	test_test_writer();
	test_vision();
	test_analyzer_ocr();
	test_annotator();
	test_meta();
	return tap_done();
}
