/* The offline code reviewer and fixer on small C, JavaScript and Python
 * files, as a table: the defects a careful reader finds (memory or a file
 * not released on an error path, use after free, double free, loops and
 * indexes one past the end, an allocation one byte short of a string,
 * results used unchecked, division by a length that may be zero), each at
 * its line and nothing else, clean files without any; then the fixer's
 * patches of those defects, line by line. Compiling and running a fixed
 * file under AddressSanitizer is tests/integ/orch_table.py's. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "prov/prov.h"
#include "util/buf.h"
#include "wf/orchestrate/orch_rules.h"
#include "wf/orchestrate/orch_rules_int.h"

struct review_case {
	const char *name, *path, *source;
	const char *want;      /* "line:rule ..." in order, "" for none */
};

static const struct review_case cases[] = {
	{ "C: leak on the error paths", "first.c",
	  "#include <stdio.h>\n"
	  "#include <stdlib.h>\n"
	  "char *first_line(const char *path)\n"
	  "{\n"
	  "\tchar *buf = malloc(256);\n"
	  "\tFILE *f;\n"
	  "\n"
	  "\tif (buf == NULL)\n"
	  "\t\treturn NULL;\n"
	  "\tf = fopen(path, \"r\");\n"
	  "\tif (f == NULL)\n"
	  "\t\treturn NULL;\n"
	  "\tif (fgets(buf, 256, f) == NULL) {\n"
	  "\t\tfclose(f);\n"
	  "\t\treturn NULL;\n"
	  "\t}\n"
	  "\tfclose(f);\n"
	  "\treturn buf;\n"
	  "}\n",
	  "12:leak-on-error-path 15:leak-on-error-path" },
	{ "C: the second allocation's failure", "pair.c",
	  "#include <stdlib.h>\n"
	  "int pair(size_t n, char **a_out, char **b_out)\n"
	  "{\n"
	  "\tchar *a = malloc(16);\n"
	  "\tchar *b = malloc(n);\n"
	  "\n"
	  "\t*a_out = a;\n"
	  "\t*b_out = b;\n"
	  "\treturn 0;\n"
	  "}\n",
	  "4:unchecked-alloc 5:unchecked-alloc" },
	{ "C: use after free and double free", "uaf.c",
	  "#include <stdlib.h>\n"
	  "#include <string.h>\n"
	  "int use(char *p, size_t n)\n"
	  "{\n"
	  "\tfree(p);\n"
	  "\treturn (int)strlen(p) + (int)n;\n"
	  "}\n"
	  "void twice(char *q)\n"
	  "{\n"
	  "\tfree(q);\n"
	  "\tfree(q);\n"
	  "}\n",
	  "6:use-after-free 11:double-free" },
	{ "C: free on an error path is no use after free", "ok_free.c",
	  "#include <stdlib.h>\n"
	  "int fill(char *p, int bad)\n"
	  "{\n"
	  "\tif (bad) {\n"
	  "\t\tfree(p);\n"
	  "\t\treturn -1;\n"
	  "\t}\n"
	  "\tp[0] = 'x';\n"
	  "\tfree(p);\n"
	  "\tp = NULL;\n"
	  "\treturn 0;\n"
	  "}\n",
	  "" },
	{ "C: off by one", "bounds.c",
	  "#include <stdlib.h>\n"
	  "#include <string.h>\n"
	  "int sum(const int *v, size_t n)\n"
	  "{\n"
	  "\tint s = 0;\n"
	  "\n"
	  "\tif (n == 0)\n"
	  "\t\treturn 0;\n"
	  "\tfor (size_t i = 0; i <= n; i++)\n"
	  "\t\ts += v[i];\n"
	  "\treturn s / (int)n;\n"
	  "}\n"
	  "char *copy(const char *s)\n"
	  "{\n"
	  "\tchar *p = malloc(strlen(s));\n"
	  "\n"
	  "\tif (p == NULL)\n"
	  "\t\treturn NULL;\n"
	  "\tmemcpy(p, s, strlen(s) + 1);\n"
	  "\treturn p;\n"
	  "}\n",
	  "9:off-by-one 15:off-by-one" },
	{ "C: division by a count nothing checks, a read unchecked", "avg.c",
	  "#include <stdio.h>\n"
	  "double mean(const double *v, int count)\n"
	  "{\n"
	  "\tdouble t = 0;\n"
	  "\n"
	  "\tfor (int i = 0; i < count; i++)\n"
	  "\t\tt += v[i];\n"
	  "\treturn t / count;\n"
	  "}\n"
	  "int ask(char *line, int size)\n"
	  "{\n"
	  "\tfgets(line, size, stdin);\n"
	  "\treturn line[0];\n"
	  "}\n",
	  "8:division-by-zero 12:unchecked-return" },
	{ "C: clean", "good.c",
	  "#include <stdio.h>\n"
	  "#include <stdlib.h>\n"
	  "double mean(const double *v, int n)\n"
	  "{\n"
	  "\tdouble t = 0;\n"
	  "\n"
	  "\tif (n <= 0)\n"
	  "\t\treturn 0;\n"
	  "\tfor (int i = 0; i < n; i++)\n"
	  "\t\tt += v[i];\n"
	  "\treturn t / n;\n"
	  "}\n"
	  "char *line(FILE *in)\n"
	  "{\n"
	  "\tchar *buf = malloc(128);\n"
	  "\n"
	  "\tif (buf == NULL)\n"
	  "\t\treturn NULL;\n"
	  "\tif (fgets(buf, 128, in) == NULL) {\n"
	  "\t\tfree(buf);\n"
	  "\t\treturn NULL;\n"
	  "\t}\n"
	  "\treturn buf;\n"
	  "}\n",
	  "" },
	{ "JavaScript: bounds, null, empty", "stats.js",
	  "function average(xs) {\n"
	  "  let total = 0;\n"
	  "  for (let i = 0; i <= xs.length; i++) {\n"
	  "    total += xs[i];\n"
	  "  }\n"
	  "  return total / xs.length;\n"
	  "}\n"
	  "function title(doc) {\n"
	  "  return doc.querySelector('h1').textContent;\n"
	  "}\n"
	  "function year(s) {\n"
	  "  return s.match(/(\\d{4})/)[1];\n"
	  "}\n"
	  "module.exports = { average, title, year };\n",
	  "3:off-by-one 6:division-by-zero 9:unchecked-null 12:unchecked-null" },
	{ "JavaScript: clean", "fine.js",
	  "function average(xs) {\n"
	  "  if (xs.length === 0) return 0;\n"
	  "  let total = 0;\n"
	  "  for (let i = 0; i < xs.length; i++) total += xs[i];\n"
	  "  return total / xs.length;\n"
	  "}\n"
	  "function title(doc) {\n"
	  "  const h = doc.querySelector('h1');\n"
	  "  return h ? h.textContent : '';\n"
	  "}\n"
	  "module.exports = { average, title };\n",
	  "" },
	{ "Python: empty input, bounds, None", "calc.py",
	  "import re\n"
	  "\n"
	  "def mean(xs):\n"
	  "    return sum(xs) / len(xs)\n"
	  "\n"
	  "def pairs(xs):\n"
	  "    out = []\n"
	  "    for i in range(len(xs) + 1):\n"
	  "        out.append(xs[i])\n"
	  "    return out\n"
	  "\n"
	  "def last(xs):\n"
	  "    return xs[len(xs)]\n"
	  "\n"
	  "def version(text):\n"
	  "    return re.match(r\"v(\\d+)\", text).group(1)\n",
	  "4:division-by-zero 8:off-by-one 13:off-by-one 16:unchecked-none" },
	{ "C: a freed node read for its next, a count by sizeof", "list.c",
	  "#include <stdlib.h>\n"
	  "struct node { struct node *next; };\n"
	  "void drop(struct node *node)\n"
	  "{\n"
	  "\tint a[4], k = (int)(sizeof(a) / sizeof(a[0]));\n"
	  "\n"
	  "\twhile (node != NULL && k-- > 0) {\n"
	  "\t\tfree(node);\n"
	  "\t\tnode = node->next;\n"
	  "\t}\n"
	  "}\n",
	  "9:use-after-free" },
	{ "C: a file left open when the allocation fails", "load.c",
	  "#include <stdio.h>\n"
	  "#include <stdlib.h>\n"
	  "int load(const char *path, size_t n, char **out)\n"
	  "{\n"
	  "\tFILE *fp = fopen(path, \"rb\");\n"
	  "\tchar *buf;\n"
	  "\n"
	  "\tif (fp == NULL)\n"
	  "\t\treturn -1;\n"
	  "\tbuf = malloc(n);\n"
	  "\tif (buf == NULL)\n"
	  "\t\treturn -1;\n"
	  "\tif (fread(buf, 1, n, fp) != n) {\n"
	  "\t\tfree(buf);\n"
	  "\t\tfclose(fp);\n"
	  "\t\treturn -1;\n"
	  "\t}\n"
	  "\tfclose(fp);\n"
	  "\t*out = buf;\n"
	  "\treturn 0;\n"
	  "}\n",
	  "12:leak-on-error-path" },
	{ "JavaScript: last index, a fetch unchecked", "load.js",
	  "async function load(url, xs) {\n"
	  "  for (let i = 0; i <= xs.length - 1; i++) console.log(xs[i]);\n"
	  "  const res = await fetch(url);\n"
	  "  return res.json();\n"
	  "}\n",
	  "3:unchecked-return" },
	{ "Python: a file never closed", "read.py",
	  "def first(path):\n"
	  "    f = open(path)\n"
	  "    return f.readline()\n"
	  "\n"
	  "def second(path):\n"
	  "    with open(path) as f:\n"
	  "        return f.readline()\n",
	  "2:resource-leak" },
	{ "Python: clean", "calc_ok.py",
	  "def mean(xs):\n"
	  "    if not xs:\n"
	  "        return 0.0\n"
	  "    return sum(xs) / len(xs)\n"
	  "\n"
	  "def last(xs):\n"
	  "    return xs[len(xs) - 1]\n"
	  "\n"
	  "def half(n):\n"
	  "    return n / 2\n",
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
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *issues = orch_review_text(cases[i].path, cases[i].source, "en");
		char *got = issues_string(issues);

		is_str(got, cases[i].want, "%s: each defect at its line, nothing else", cases[i].name);
		free(got);
		json_decref(issues);
	}
}

/* Every issue's message in both languages, none left as a catalogue id. */
static void test_messages(void)
{
	static const char *const langs[] = { "en", "zh" };

	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			json_t *issues = orch_review_text(cases[i].path, cases[i].source, langs[l]), *is;
			size_t k;
			int good = 1;

			json_array_foreach(issues, k, is) {
				const char *m = json_string_value(json_object_get(is, "message")) ?: "";

				good &= strncmp(m, "r.", 2) != 0 && strlen(m) > 10;
			}
			ok(good, "%s (%s): every message written out", cases[i].name, langs[l]);
			json_decref(issues);
		}
}

/* ---- the fixer ---- */

static json_t *fix_facts(const char *path, const char *text)
{
	json_t *f = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{}, s:[], s:[], s:[], s:i, s:i, s:s}",
			      "agent", "coder", "task", "fix it", "stage", "id", "fix", "description",
			      "fix", "inputs", "attachments", "workspace", "toolResults", "iteration", 1,
			      "maxIterations", 5, "lang", "en");
	size_t n = strlen(text), cap = n * 2 + 8;
	char *d = malloc(cap);
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)text[i] << 16 | (i + 1 < n ? (unsigned char)text[i + 1] << 8 : 0) |
			     (i + 2 < n ? (unsigned char)text[i + 2] : 0);

		d[o++] = b64[v >> 18 & 63];
		d[o++] = b64[v >> 12 & 63];
		d[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
		d[o++] = i + 2 < n ? b64[v & 63] : '=';
	}
	d[o] = '\0';
	json_array_append_new(json_object_get(f, "attachments"), json_pack("{s:s, s:s, s:i, s:s}",
		"path", path, "mimeType", "text/x-c", "size", (int)n, "data", d));
	free(d);
	return f;
}

static const struct fix_case {
	const char *name, *path;
	size_t source;          /* index into cases */
	const char *want[4];    /* texts the fixed file holds */
	const char *not[2];     /* texts it no longer holds */
} fixes[] = {
	{ "released on the error paths", "first.c", 0,
	  { "\tif (f == NULL)\n\t\t{ free(buf); return NULL; }\n",
	    "\t\tfclose(f);\n\t\t{ free(buf); return NULL; }\n", NULL },
	  { NULL } },
	{ "a failed allocation releases the earlier one", "pair.c", 1,
	  { "\tchar *a = malloc(16);\n\tif (a == NULL)\n\t\treturn -1;\n",
	    "\tchar *b = malloc(n);\n\tif (b == NULL) {\n\t\tfree(a);\n\t\treturn -1;\n\t}\n", NULL },
	  { NULL } },
	{ "the file closed when the allocation fails", "load.c", 11,
	  { "\tif (buf == NULL)\n\t\t{ fclose(fp); return -1; }\n", NULL },
	  { NULL } },
	{ "bounds", "bounds.c", 4,
	  { "for (size_t i = 0; i < n; i++)", "malloc(strlen(s) + 1)", NULL },
	  { "i <= n", NULL } },
};

static void test_fixes(void)
{
	for (size_t i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++) {
		json_t *f = fix_facts(fixes[i].path, cases[fixes[i].source].source);
		json_t *a = orch_rules_for("coder")(f, NULL, NULL, 0);
		const char *out = json_string_value(json_object_get(json_object_get(json_array_get(
			json_object_get(a, "toolCalls"), 0), "arguments"), "content"));

		ok(out != NULL, "fix %s: a fixed file is written", fixes[i].name);
		for (size_t k = 0; fixes[i].want[k]; k++)
			ok(out && strstr(out, fixes[i].want[k]), "fix %s: holds the patched text %zu",
			   fixes[i].name, k + 1);
		for (size_t k = 0; fixes[i].not[k]; k++)
			ok(out && !strstr(out, fixes[i].not[k]), "fix %s: the defect's text %zu is gone",
			   fixes[i].name, k + 1);
		if (out == NULL || getenv("SHOW_FIX")) {
			char *dump = json_dumps(a, 0);

			printf("# %s\n", out ? out : dump ? dump : "");
			free(dump);
		}
		json_decref(a);
		json_decref(f);
	}
}

int main(void)
{
	test_reviews();
	test_messages();
	test_fixes();
	return tap_done();
}
