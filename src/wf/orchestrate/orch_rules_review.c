/* The offline code reviewer: fixed rules over the lines of C, JavaScript
 * and Python files (allocations used unchecked, unsafe string functions,
 * eval, loose comparisons, bare except, TODO comments, long functions,
 * ...), each issue at its line. Strings and comments are told apart from
 * code first (orch_rules_scan.c), so a rule never fires on words in a
 * string. Nothing is compiled or run. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

struct orch_rev {
	const char *path, *lang;
	const struct orch_src *src;
	json_t *issues;
};

static void orch_issue_new(struct orch_rev *r, size_t line, const char *rule,
			   const char *severity, char *message)
{
	json_array_append_new(r->issues, json_pack("{s:s, s:i, s:s, s:s, s:s}", "file", r->path,
		"line", (int)line + 1, "rule", rule, "severity", severity, "message", message));
	free(message);
}

/* The variable an allocation's result goes to ("buf" in "char *buf =
 * malloc(...)", "p->data" in "p->data = malloc(...)"), or 0. */
int orch_src_assigned(const char *code, const char *call, char *out, size_t len)
{
	const char *eq = call, *e, *b;

	while (eq > code && eq[-1] != '=')
		eq--;
	if (eq == code || (eq - 1 > code && strchr("=!<>", eq[-2])))
		return 0;
	for (const char *p = eq; p < call; p++)
		if (!isspace((unsigned char)*p) && *p != '(' && *p != ')' && *p != '*' &&
		    !isalnum((unsigned char)*p) && *p != '_')
			return 0;
	e = eq - 1;
	while (e > code && isspace((unsigned char)e[-1]))
		e--;
	b = e;
	while (b > code && (isalnum((unsigned char)b[-1]) || b[-1] == '_' || b[-1] == '.' ||
			    b[-1] == '>' || (b[-1] == '-' && b[0] == '>')))
		b--;
	if (b == e)
		return 0;
	snprintf(out, len, "%.*s", (int)(e - b), b);
	return 1;
}

/* Whether one of the lines from..from+3 checks var against NULL. */
static int orch_checked(const struct orch_src *s, size_t from, const char *var)
{
	char pat[6][96];

	snprintf(pat[0], sizeof(pat[0]), "!%s", var);
	snprintf(pat[1], sizeof(pat[1]), "%s == NULL", var);
	snprintf(pat[2], sizeof(pat[2]), "%s != NULL", var);
	snprintf(pat[3], sizeof(pat[3]), "NULL == %s", var);
	snprintf(pat[4], sizeof(pat[4]), "if (%s)", var);
	snprintf(pat[5], sizeof(pat[5]), "assert(%s", var);
	for (size_t i = from; i < s->n && i < from + 4; i++)
		for (size_t k = 0; k < 6; k++)
			if (strstr(s->code[i], pat[k]))
				return 1;
	return 0;
}

static void orch_rev_alloc(struct orch_rev *r, size_t i)
{
	static const char *const fns[] = { "malloc", "calloc", "realloc", "strdup", "fopen" };
	const char *code = r->src->code[i];

	for (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++) {
		const char *call = orch_src_call(code, fns[k]);
		char var[80];

		if (!call || !orch_src_assigned(code, call, var, sizeof(var)))
			continue;
		if (k == 2) {
			const char *args = strchr(call, '(') + 1;

			while (isspace((unsigned char)*args))
				args++;
			if (strncmp(args, var, strlen(var)) == 0 &&
			    (args[strlen(var)] == ',' || isspace((unsigned char)args[strlen(var)]))) {
				orch_issue_new(r, i, "realloc-leak", "medium",
					       orch_sayf(r->lang, "r.realloc_leak"));
				continue;
			}
		}
		if (!orch_checked(r->src, i, var))
			orch_issue_new(r, i, "unchecked-alloc", "high",
				       orch_sayf(r->lang, "r.unchecked_alloc", fns[k]));
	}
}

static void orch_rev_c(struct orch_rev *r, size_t i)
{
	static const char *const unsafe[] = { "strcpy", "strcat", "sprintf", "vsprintf" };
	const char *code = r->src->code[i];

	orch_rev_alloc(r, i);
	for (size_t k = 0; k < sizeof(unsafe) / sizeof(unsafe[0]); k++)
		if (orch_src_call(code, unsafe[k]))
			orch_issue_new(r, i, "unsafe-string", "medium",
				       orch_sayf(r->lang, "r.unsafe_string", unsafe[k]));
	if (orch_src_call(code, "gets"))
		orch_issue_new(r, i, "gets", "high", orch_sayf(r->lang, "r.gets"));
	if (orch_src_call(code, "system"))
		orch_issue_new(r, i, "command-exec", "medium", orch_sayf(r->lang, "r.system", "system"));
	if (orch_src_call(code, "popen"))
		orch_issue_new(r, i, "command-exec", "medium", orch_sayf(r->lang, "r.system", "popen"));
}

/* The first loose == or != in JavaScript code (not ===, !==, <=, >=). */
static const char *orch_loose_eq(const char *code, int *neg)
{
	for (const char *p = code; p[0] && p[1]; p++) {
		if (p[1] != '=' || p[2] == '=')
			continue;
		if (p[0] == '=' && (p == code || !strchr("=!<>", p[-1]))) {
			*neg = 0;
			return p;
		}
		if (p[0] == '!') {
			*neg = 1;
			return p;
		}
	}
	return NULL;
}

static int orch_word_at(const char *code, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(code, word); p; p = strstr(p + 1, word))
		if ((p == code || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return 1;
	return 0;
}

static void orch_rev_js(struct orch_rev *r, size_t i)
{
	const char *code = r->src->code[i], *h;
	int neg;

	if (orch_src_call(code, "eval"))
		orch_issue_new(r, i, "eval", "high", orch_sayf(r->lang, "r.eval", "eval"));
	if (strstr(code, "new Function("))
		orch_issue_new(r, i, "eval", "high", orch_sayf(r->lang, "r.eval", "Function"));
	if (orch_loose_eq(code, &neg))
		orch_issue_new(r, i, "loose-equality", "low", orch_sayf(r->lang, "r.loose_eq",
			neg ? "!=" : "==", neg ? "!==" : "==="));
	if (orch_word_at(code, "var"))
		orch_issue_new(r, i, "no-var", "low", orch_sayf(r->lang, "r.var"));
	if ((h = strstr(code, ".innerHTML"))) {
		h += 10;
		while (*h == ' ')
			h++;
		if ((h[0] == '=' && h[1] != '=') || (h[0] == '+' && h[1] == '='))
			orch_issue_new(r, i, "inner-html", "medium", orch_sayf(r->lang, "r.inner_html"));
	}
}

static void orch_rev_py(struct orch_rev *r, size_t i)
{
	const char *code = r->src->code[i], *t = code + strspn(code, " \t");

	if (strncmp(t, "except:", 7) == 0 || strncmp(t, "except :", 8) == 0)
		orch_issue_new(r, i, "bare-except", "medium", orch_sayf(r->lang, "r.bare_except"));
	if (orch_src_call(code, "eval") || orch_src_call(code, "exec"))
		orch_issue_new(r, i, "eval", "high", orch_sayf(r->lang, "r.eval",
			orch_src_call(code, "eval") ? "eval" : "exec"));
	if (strstr(code, "== None") || strstr(code, "!= None"))
		orch_issue_new(r, i, "none-comparison", "low", orch_sayf(r->lang, "r.none_cmp"));
	if ((strncmp(t, "def ", 4) == 0 || strncmp(t, "async def ", 10) == 0) &&
	    (strstr(code, "=[]") || strstr(code, "= []") || strstr(code, "={}") ||
	     strstr(code, "= {}")))
		orch_issue_new(r, i, "mutable-default", "medium", orch_sayf(r->lang, "r.mutable_default"));
	if (strstr(code, "shell=True"))
		orch_issue_new(r, i, "shell-true", "high", orch_sayf(r->lang, "r.shell_true"));
	if (strstr(code, "os.system("))
		orch_issue_new(r, i, "command-exec", "medium", orch_sayf(r->lang, "r.system", "os.system"));
}

static void orch_rev_todo(struct orch_rev *r, size_t i)
{
	static const char *const marks[] = { "TODO", "FIXME", "XXX", "HACK" };

	for (size_t k = 0; k < sizeof(marks) / sizeof(marks[0]); k++)
		if (orch_word_at(r->src->comment[i], marks[k])) {
			orch_issue_new(r, i, "todo", "low", orch_sayf(r->lang, "r.todo", marks[k]));
			return;
		}
}

static int orch_review_cmp(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t lx = json_integer_value(json_object_get(x, "line"));
	json_int_t ly = json_integer_value(json_object_get(y, "line"));

	return lx < ly ? -1 : lx > ly;
}

/* The issues by line (a stable order: the rules of a line keep theirs). */
static void orch_review_sort(json_t *issues)
{
	size_t n = json_array_size(issues), i;
	json_t **v = xcalloc(n ? n : 1, sizeof *v);

	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(issues, i));
	/* insertion sort: stable, and review lists are short */
	for (i = 1; i < n; i++)
		for (size_t k = i; k > 0 && orch_review_cmp(&v[k - 1], &v[k]) > 0; k--) {
			json_t *t = v[k];

			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	json_array_clear(issues);
	for (i = 0; i < n; i++)
		json_array_append_new(issues, v[i]);
	free(v);
}

json_t *orch_review_text(const char *path, const char *text, const char *lang)
{
	enum orch_src_lang sl = orch_src_lang_of(path);
	struct orch_src src;
	struct orch_fn fns[256];
	struct orch_rev r = { path, lang, &src, json_array() };
	size_t nf, f = 0;

	orch_src_split(&src, text, sl);
	nf = orch_src_functions(&src, sl, fns, 256);
	for (size_t i = 0; i < src.n; i++) {
		for (; f < nf && fns[f].line <= (int)i + 1; f++)
			if (fns[f].end - fns[f].line + 1 > ORCH_LONG_FUNCTION)
				orch_issue_new(&r, (size_t)fns[f].line - 1, "long-function", "medium",
					       orch_sayf(lang, "r.long_function", fns[f].name,
							 fns[f].end - fns[f].line + 1, ORCH_LONG_FUNCTION));
		if (sl == ORCH_SRC_C)
			orch_rev_c(&r, i);
		else if (sl == ORCH_SRC_JS)
			orch_rev_js(&r, i);
		else if (sl == ORCH_SRC_PY)
			orch_rev_py(&r, i);
		orch_rev_todo(&r, i);
	}
	orch_review_flow(path, &src, sl, fns, nf, lang, r.issues);
	orch_review_sort(r.issues);
	orch_src_free(&src);
	return r.issues;
}
