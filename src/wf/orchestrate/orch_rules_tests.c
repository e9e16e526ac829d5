/* The offline test writer: for each code file, a test file in its
 * language that loads the file and checks each of its functions is there
 * with the number of parameters it was written with (C: a TAP program
 * that includes the file; JavaScript: node:test; Python: unittest). What
 * the functions should return is not known without a model, and the
 * answer says so. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

/* The file name without folder and extension, as an identifier. */
static void orch_test_base(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/'), *b = slash ? slash + 1 : path;
	const char *dot = strrchr(b, '.');
	size_t n = dot ? (size_t)(dot - b) : strlen(b), o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++)
		out[o++] = isalnum((unsigned char)b[i]) ? b[i] : '_';
	out[o] = '\0';
}

static int orch_test_has_main(const struct orch_fn *fns, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(fns[i].name, "main") == 0)
			return 1;
	return 0;
}

static void orch_test_c(struct buf *b, const char *path, const struct orch_fn *fns, size_t n)
{
	size_t count = 0;

	buf_printf(b, "/* Tests of %s: each function is defined and links. */\n", path);
	if (orch_test_has_main(fns, n))
		buf_adds(b, "#define main tested_main\n");
	buf_printf(b, "#include \"../%s\"\n", path);
	if (orch_test_has_main(fns, n))
		buf_adds(b, "#undef main\n");
	buf_adds(b, "#include <stdio.h>\n\nstatic const struct {\n\tconst char *name;\n"
		 "\tvoid (*fn)(void);\n} tested[] = {\n");
	for (size_t i = 0; i < n; i++)
		if (strcmp(fns[i].name, "main") != 0) {
			buf_printf(b, "\t{ \"%s\", (void (*)(void))%s },\n", fns[i].name, fns[i].name);
			count++;
		}
	buf_printf(b, "};\n\nint main(void)\n{\n\tint failed = 0;\n\n\tprintf(\"1..%zu\\n\");\n"
		   "\tfor (size_t i = 0; i < %zu; i++) {\n"
		   "\t\tint ok = tested[i].fn != NULL;\n\n"
		   "\t\tprintf(\"%%s %%zu - %%s is defined\\n\", ok ? \"ok\" : \"not ok\", i + 1, "
		   "tested[i].name);\n\t\tfailed += !ok;\n\t}\n\treturn failed != 0;\n}\n",
		   count, count);
}

static void orch_test_js(struct buf *b, const char *path, const struct orch_fn *fns, size_t n)
{
	buf_printf(b, "// Tests of %s: each function is exported with its parameters.\n"
		   "const test = require('node:test');\nconst assert = require('node:assert');\n"
		   "const mod = require('../%s');\n", path, path);
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "\ntest('%s takes %d parameters', () => {\n"
			   "  assert.strictEqual(typeof mod.%s, 'function');\n"
			   "  assert.strictEqual(mod.%s.length, %d);\n});\n",
			   fns[i].name, fns[i].params, fns[i].name, fns[i].name, fns[i].params);
}

static void orch_test_py(struct buf *b, const char *path, const char *base,
			 const struct orch_src *src, const struct orch_fn *fns, size_t n)
{
	buf_printf(b, "\"\"\"Tests of %s: each function is there with its parameters.\"\"\"\n"
		   "import importlib.util\nimport inspect\nimport os\nimport unittest\n\n"
		   "SPEC = importlib.util.spec_from_file_location(\n    \"%s\", os.path.join("
		   "os.path.dirname(__file__), \"..\", \"%s\"))\nMOD = importlib.util.module_from_spec(SPEC)\n"
		   "SPEC.loader.exec_module(MOD)\n\n\nclass Test_%s(unittest.TestCase):\n",
		   path, base, path, base);
	for (size_t i = 0; i < n; i++) {
		if (src->line[fns[i].line - 1][0] == ' ' || src->line[fns[i].line - 1][0] == '\t')
			continue;   /* methods: their class would be needed */
		buf_printf(b, "    def test_%s(self):\n        self.assertTrue(callable(MOD.%s))\n"
			   "        self.assertEqual(len(inspect.signature(MOD.%s).parameters), %d)\n\n",
			   fns[i].name, fns[i].name, fns[i].name, fns[i].params);
	}
	buf_adds(b, "\nif __name__ == \"__main__\":\n    unittest.main()\n");
}

/* The write_file call of one file's tests, or NULL (no function); *nfn
 * counts the functions. */
static json_t *orch_test_call(const char *path, const char *text, int *nfn)
{
	enum orch_src_lang sl = orch_src_lang_of(path);
	struct orch_src src;
	struct orch_fn fns[256];
	size_t n;
	char base[96], *dest = NULL;
	struct buf b;
	json_t *call = NULL;

	orch_src_split(&src, text, sl);
	n = orch_src_functions(&src, sl, fns, 256);
	buf_init(&b, 4u << 20);
	if (n > 0) {
		orch_test_base(path, base, sizeof(base));
		if (sl == ORCH_SRC_C)
			orch_test_c(&b, path, fns, n), dest = xasprintf("tests/test_%s.c", base);
		else if (sl == ORCH_SRC_JS)
			orch_test_js(&b, path, fns, n), dest = xasprintf("tests/%s.test.js", base);
		else
			orch_test_py(&b, path, base, &src, fns, n), dest = xasprintf("tests/test_%s.py", base);
		call = orch_call_new("write_file", json_pack("{s:s, s:s}", "path", dest, "content", b.data));
		*nfn += (int)n;
	}
	free(dest);
	buf_free(&b);
	orch_src_free(&src);
	return call;
}

static json_t *orch_test_calls(const json_t *facts, int *nfn, json_t **answer)
{
	json_t *files = orch_files_or_read(facts, answer), *calls, *f;
	size_t i;

	*nfn = 0;
	if (!files)
		return NULL;
	calls = json_array();
	json_array_foreach(files, i, f) {
		const char *t = json_string_value(json_object_get(f, "text"));
		json_t *c = t ? orch_test_call(json_string_value(json_object_get(f, "path")), t, nfn) : NULL;

		if (c)
			json_array_append_new(calls, c);
	}
	json_decref(files);
	return calls;
}

static json_t *orch_test_done(const json_t *facts, const char *lang)
{
	json_t *calls, *ignored, *t, *a;
	struct buf names;
	int nfn, n = 0;
	size_t i;
	char *lead, *note;

	calls = orch_test_calls(facts, &nfn, &ignored);
	json_decref(calls);
	json_decref(ignored);
	buf_init(&names, 1 << 16);
	json_array_foreach(json_object_get(facts, "toolResults"), i, t)
		if (strcmp(orch_fact_str(t, "name"), "write_file") == 0 &&
		    !json_object_get(json_object_get(t, "result"), "error"))
			buf_printf(&names, "%s%s", n++ ? ", " : "",
				   orch_fact_str(json_object_get(t, "arguments"), "path"));
	lead = orch_sayf(lang, "test_done", n, names.data ? names.data : "", nfn);
	note = orch_sayf(lang, "offline", orch_say(lang, "test_cannot"));
	a = orch_answer_data(lead, NULL, note);
	free(lead);
	free(note);
	buf_free(&names);
	return a;
}

json_t *orch_rules_test_writer(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts);
	json_t *answer, *calls;
	int nfn;

	if (orch_tool_result(facts, "write_file", NULL))
		return orch_test_done(facts, lang);
	if (!(calls = orch_test_calls(facts, &nfn, &answer)))
		return answer;
	if (json_array_size(calls) == 0) {
		json_decref(calls);
		return orch_decline(lang, orch_say(lang, "test_none"));
	}
	return orch_calls_new(calls);
}
