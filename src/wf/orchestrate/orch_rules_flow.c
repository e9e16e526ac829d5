/* The offline reviewer's rules that read a function as a whole rather
 * than a line: memory or a file not released on an error path (a return
 * between the allocation and its free, fclose or hand-over), a use after
 * free, loops and indexes one past the end, allocations one byte short
 * of a string, results that may be NULL or None used unchecked, and a
 * division by a length or a count that nothing checks against zero (an
 * empty input). Each issue names its line and, where the fixer needs it,
 * the variable ("symbol") and its release ("release"). A scanner, not a
 * compiler: it reads the blanked code lines of orch_rules_scan.c. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

struct orch_flow {
	const char *path, *lang;
	const struct orch_src *s;
	enum orch_src_lang sl;
	json_t *issues;
};

static int orch_id_char(int c)
{
	return isalnum(c) || c == '_';
}

const char *orch_src_word(const char *code, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(code, w); p; p = strstr(p + 1, w))
		if ((p == code || (!orch_id_char((unsigned char)p[-1]) && p[-1] != '.' &&
				   !(p[-1] == '>' && p > code + 1 && p[-2] == '-'))) &&
		    !orch_id_char((unsigned char)p[n]))
			return p;
	return NULL;
}

static void orch_flow_issue(struct orch_flow *f, size_t line, const char *rule,
			    const char *severity, const char *symbol, const char *release, char *msg)
{
	json_t *is, *o;
	size_t k;

	/* A line inside nested functions is read once for each of them. */
	json_array_foreach(f->issues, k, o)
		if (json_integer_value(json_object_get(o, "line")) == (json_int_t)line + 1 &&
		    strcmp(json_string_value(json_object_get(o, "rule")) ?: "", rule) == 0 &&
		    strcmp(json_string_value(json_object_get(o, "symbol")) ?: "", symbol ? symbol : "") == 0) {
			free(msg);
			return;
		}
	is = json_pack("{s:s, s:i, s:s, s:s, s:s}", "file", f->path, "line", (int)line + 1,
			       "rule", rule, "severity", severity, "message", msg);

	if (symbol)
		json_object_set_new(is, "symbol", json_string(symbol));
	if (release)
		json_object_set_new(is, "release", json_string(release));
	json_array_append_new(f->issues, is);
	free(msg);
}

/* Whether code assigns var anew ("var = ...", not "==", not "*var ="). */
static int orch_flow_assigns(const char *code, const char *var)
{
	const char *p = orch_src_word(code, var);

	for (; p; p = orch_src_word(p + 1, var)) {
		const char *q = p + strlen(var);

		if (p > code && p[-1] == '*')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (q[0] == '=' && q[1] != '=')
			return 1;
	}
	return 0;
}

/* Whether code checks var against NULL (or for truth). */
static int orch_flow_checks(const char *code, const char *var)
{
	char pat[5][96];

	snprintf(pat[0], sizeof pat[0], "!%s", var);
	snprintf(pat[1], sizeof pat[1], "%s == NULL", var);
	snprintf(pat[2], sizeof pat[2], "NULL == %s", var);
	snprintf(pat[3], sizeof pat[3], "%s != NULL", var);
	snprintf(pat[4], sizeof pat[4], "if (%s)", var);
	for (size_t k = 0; k < 5; k++)
		if (strstr(code, pat[k]))
			return 1;
	return 0;
}

/* The release call of var in code (free, fclose), or NULL. */
static int orch_flow_releases(const char *code, const char *var, const char *release)
{
	const char *c = orch_src_call(code, release);

	for (; c; c = orch_src_call(c + 1, release)) {
		const char *a = strchr(c, '(') + 1;

		while (*a == ' ')
			a++;
		if (strncmp(a, var, strlen(var)) == 0 && !orch_id_char((unsigned char)a[strlen(var)]))
			return 1;
	}
	return 0;
}

/* Whether code hands var over: returns it, or stores it elsewhere. */
static int orch_flow_hands_over(const char *code, const char *var)
{
	const char *r = orch_src_word(code, "return"), *p;

	if (r) {
		r += 6;
		while (*r == ' ' || *r == '(')
			r++;
		if (strncmp(r, var, strlen(var)) == 0 && !orch_id_char((unsigned char)r[strlen(var)]))
			return 1;
	}
	for (p = orch_src_word(code, var); p; p = orch_src_word(p + 1, var)) {
		const char *q = p;

		while (q > code && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		if (q > code && q[-1] == '=' && (q - 1 == code || !strchr("=!<>", q[-2])) &&
		    strchr(";,)", p[strlen(var) + strspn(p + strlen(var), " ")]))
			return 1;
	}
	return 0;
}

/* ---- C: memory and files ---- */

static const struct { const char *fn, *release; } orch_flow_allocs[] = {
	{ "malloc", "free" }, { "calloc", "free" }, { "realloc", "free" }, { "strdup", "free" },
	{ "strndup", "free" }, { "fopen", "fclose" },
};

/* The allocation on line i: its variable into var and its release, or NULL. */
static const char *orch_flow_alloc_at(const char *code, char *var, size_t len)
{
	for (size_t k = 0; k < sizeof orch_flow_allocs / sizeof orch_flow_allocs[0]; k++) {
		const char *call = orch_src_call(code, orch_flow_allocs[k].fn);

		if (call && orch_src_assigned(code, call, var, len) && !strchr(var, '.') &&
		    !strstr(var, "->"))
			return orch_flow_allocs[k].release;
	}
	return NULL;
}

/* Returns between the allocation at a and the release or hand-over of
 * its variable that leave it behind. */
static void orch_flow_leaks(struct orch_flow *f, const struct orch_fn *fn, size_t a)
{
	char var[80];
	const char *rel = orch_flow_alloc_at(f->s->code[a], var, sizeof var);
	size_t end = (size_t)fn->end, r, done = 0;

	if (!rel)
		return;
	for (r = a + 1; r < end && r < f->s->n && !done; r++)
		done = orch_flow_releases(f->s->code[r], var, rel) ? r : orch_flow_hands_over(f->s->code[r], var) ? r : 0;
	if (!done)
		return;
	for (r = a + 1; r < done; r++) {
		const char *code = f->s->code[r];

		if (orch_flow_assigns(code, var) || orch_flow_hands_over(code, var))
			return;
		if (!orch_src_word(code, "return") || orch_flow_checks(code, var) ||
		    (r > a && orch_flow_checks(f->s->code[r - 1], var)))
			continue;
		orch_flow_issue(f, r, "leak-on-error-path", "high", var, rel,
				orch_sayf(f->lang, "r.leak_error_path", var, rel, (int)done + 1));
	}
}

/* Uses of a variable after its free, in the same block, before it is
 * assigned again or the block leaves. */
static void orch_flow_after_free(struct orch_flow *f, const struct orch_fn *fn, size_t i)
{
	const char *c = orch_src_call(f->s->code[i], "free"), *a;
	char var[80];
	size_t n = 0;
	int depth = 0;

	if (!c)
		return;
	a = strchr(c, '(') + 1;
	while (*a == ' ')
		a++;
	while (orch_id_char((unsigned char)a[n]) && n + 1 < sizeof var)
		n++;
	if (n == 0 || a[n] != ')')
		return;
	snprintf(var, sizeof var, "%.*s", (int)n, a);
	for (size_t j = i + 1; j < (size_t)fn->end && j < f->s->n; j++) {
		const char *code = f->s->code[j];

		if (orch_flow_assigns(code, var)) {
			const char *eq = strchr(code, '=');

			/* node = node->next reads the freed node first */
			if (eq && orch_src_word(eq + 1, var))
				orch_flow_issue(f, j, "use-after-free", "high", var, NULL,
						orch_sayf(f->lang, "r.use_after_free", var, (int)i + 1));
			return;
		}
		if (orch_flow_releases(code, var, "free")) {
			orch_flow_issue(f, j, "double-free", "high", var, NULL,
					orch_sayf(f->lang, "r.double_free", var, (int)i + 1));
			return;
		}
		if (orch_src_word(code, var)) {
			orch_flow_issue(f, j, "use-after-free", "high", var, NULL,
					orch_sayf(f->lang, "r.use_after_free", var, (int)i + 1));
			return;
		}
		for (const char *p = code; *p; p++)
			depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
		if (depth < 0 || orch_src_word(code, "return") || orch_src_word(code, "goto") ||
		    orch_src_word(code, "break") || orch_src_word(code, "continue"))
			return;
	}
}

/* ---- bounds ---- */

/* The bound of a for loop "i <= bound" in code, if the bound is a size or
 * a length: the loop variable into lv. */
static const char *orch_flow_le_bound(const char *code, char *lv, size_t len)
{
	static const char *const sizes[] = { "length", "len", "size", "count", "sizeof", "strlen",
		"n", "N", "num", "nitems", NULL };
	const char *le = strstr(code, "<="), *b, *v;

	if (!le || !orch_src_word(code, "for"))
		return NULL;
	{
		const char *semi = strchr(le, ';'), *m = strstr(le, "- 1");

		if (!m)
			m = strstr(le, "-1");
		if (m && (!semi || m < semi))
			return NULL;   /* i <= n - 1 stops at the last element */
	}
	v = le;
	while (v > code && (v[-1] == ' '))
		v--;
	b = v;
	while (b > code && orch_id_char((unsigned char)b[-1]))
		b--;
	if (b == v || (size_t)(v - b) >= len)
		return NULL;
	snprintf(lv, len, "%.*s", (int)(v - b), b);
	for (size_t k = 0; sizes[k]; k++)
		if (strlen(sizes[k]) > 1 ? strstr(le + 2, sizes[k]) != NULL
					 : orch_src_word(le + 2, sizes[k]) != NULL)
			return le + 2;
	return NULL;
}

static void orch_flow_loop(struct orch_flow *f, size_t i)
{
	char lv[64], idx[80];
	const char *bound = orch_flow_le_bound(f->s->code[i], lv, sizeof lv);

	if (!bound)
		return;
	snprintf(idx, sizeof idx, "[%s]", lv);
	for (size_t j = i; j < f->s->n && j < i + 8; j++)
		if (strstr(f->s->code[j], idx)) {
			orch_flow_issue(f, i, "off-by-one", "high", lv, NULL,
					orch_sayf(f->lang, "r.off_by_one", lv, lv));
			return;
		}
}

/* Python: range(len(x) + 1) indexing x, and x[len(x)]. */
static void orch_flow_py_bounds(struct orch_flow *f, size_t i)
{
	const char *code = f->s->code[i], *p;

	if ((p = strstr(code, "range(len(")) && strstr(p, ") + 1)"))
		orch_flow_issue(f, i, "off-by-one", "high", NULL, NULL,
				orch_sayf(f->lang, "r.off_by_one_range"));
	for (p = strstr(code, "[len("); p; p = strstr(p + 1, "[len(")) {
		const char *b = p;
		const char *close = strchr(p + 5, ')');

		while (b > code && orch_id_char((unsigned char)b[-1]))
			b--;
		if (close && close[1] == ']' && b < p && (size_t)(close - p - 5) == (size_t)(p - b) &&
		    strncmp(b, p + 5, (size_t)(p - b)) == 0)
			orch_flow_issue(f, i, "off-by-one", "high", NULL, NULL,
					orch_sayf(f->lang, "r.off_by_one_index"));
	}
}

/* C: malloc(strlen(s)) then a copy needs one byte more for the NUL. */
static void orch_flow_nul(struct orch_flow *f, size_t i)
{
	const char *p = strstr(f->s->code[i], "malloc(strlen(");
	int depth = 0;

	if (!p)
		return;
	for (p += 7; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			break;
	}
	if (*p == ')' && p[1] == ')')
		orch_flow_issue(f, i, "off-by-one", "high", NULL, NULL, orch_sayf(f->lang, "r.alloc_no_nul"));
}

/* ---- unchecked results ---- */

static void orch_flow_unchecked(struct orch_flow *f, size_t i)
{
	static const char *const c_fns[] = { "fgets", "scanf", "fscanf", "sscanf", "fread", "read",
		NULL };
	const char *code = f->s->code[i], *t = code + strspn(code, " \t"), *p;

	if (f->sl == ORCH_SRC_C) {
		for (size_t k = 0; c_fns[k]; k++)
			if (orch_src_call(t, c_fns[k]) == t)
				orch_flow_issue(f, i, "unchecked-return", "medium", NULL, NULL,
						orch_sayf(f->lang, "r.unchecked_return", c_fns[k]));
		return;
	}
	if (f->sl == ORCH_SRC_PY) {
		if (((p = strstr(code, "re.match(")) || (p = strstr(code, "re.search(")) ||
		     (p = strstr(code, "re.fullmatch("))) && strstr(p, ").group("))
			orch_flow_issue(f, i, "unchecked-none", "medium", NULL, NULL,
					orch_sayf(f->lang, "r.unchecked_none", "re.match()"));
		return;
	}
	if ((p = strstr(code, ".match(")) && strstr(p, ")["))
		orch_flow_issue(f, i, "unchecked-null", "medium", NULL, NULL,
				orch_sayf(f->lang, "r.unchecked_null", "match()"));
	else if (((p = strstr(code, "querySelector(")) || (p = strstr(code, "getElementById("))) &&
		 (strstr(p, ").") && !strstr(p, ")?.")))
		orch_flow_issue(f, i, "unchecked-null", "medium", NULL, NULL,
				orch_sayf(f->lang, "r.unchecked_null", strncmp(p, "query", 5) == 0
					  ? "querySelector()" : "getElementById()"));
}

/* Python: f = open(...) outside a with block, and no f.close() in the
 * function: the file stays open (and on an exception, always). */
static void orch_flow_py_open(struct orch_flow *f, const struct orch_fn *fn, size_t i)
{
	const char *code = f->s->code[i], *call = orch_src_call(code, "open");
	char var[80], close[96];

	if (!call || strstr(code, "with ") || !orch_src_assigned(code, call, var, sizeof var))
		return;
	snprintf(close, sizeof close, "%s.close()", var);
	for (size_t j = (size_t)fn->line - 1; j < (size_t)fn->end && j < f->s->n; j++)
		if (strstr(f->s->code[j], close))
			return;
	orch_flow_issue(f, i, "resource-leak", "medium", var, NULL,
			orch_sayf(f->lang, "r.py_open", var));
}

/* JavaScript: a fetch() whose response is read (.json(), .text()) and
 * nowhere checked (.ok, .status) in the function. */
static void orch_flow_js_fetch(struct orch_flow *f, const struct orch_fn *fn, size_t i)
{
	int read = 0;

	if (!orch_src_call(f->s->code[i], "fetch"))
		return;
	for (size_t j = (size_t)fn->line - 1; j < (size_t)fn->end && j < f->s->n; j++) {
		const char *c = f->s->code[j];

		if (strstr(c, ".ok") || strstr(c, ".status") || strstr(c, "catch"))
			return;
		read |= strstr(c, ".json()") || strstr(c, ".text()");
	}
	if (read)
		orch_flow_issue(f, i, "unchecked-return", "medium", NULL, NULL,
				orch_sayf(f->lang, "r.fetch_ok"));
}

/* ---- division by an unchecked length ---- */

/* The divisor after '/' at p, as written: "len(xs)", "xs.length", "n". */
static int orch_flow_divisor(const char *p, char *out, size_t len)
{
	const char *b = p + 1, *e;

	if (p[1] == '/' )
		b++;
	if (*b == '=')
		return 0;
	while (*b == ' ')
		b++;
	e = b;
	if (strncmp(b, "len(", 4) == 0) {
		e = strchr(b, ')');
		if (!e)
			return 0;
		e++;
	} else {
		while (orch_id_char((unsigned char)*e) || *e == '.')
			e++;
	}
	if (e == b || isdigit((unsigned char)*b) || (size_t)(e - b) >= len)
		return 0;
	snprintf(out, len, "%.*s", (int)(e - b), b);
	return 1;
}

/* Whether a divisor reads a length or a count: len(x), x.length, n,
 * count, num..., total..., size..., len... */
static int orch_flow_countish(const char *d)
{
	static const char *const stems[] = { "count", "num", "total", "size", "len", "length",
		"nitems", NULL };
	const char *last = strrchr(d, '.');
	const char *w = last ? last + 1 : d;

	if (strncmp(d, "len(", 4) == 0 || (last && strcmp(last, ".length") == 0))
		return 1;
	if (strcmp(w, "sizeof") == 0)
		return 0;   /* sizeof a[0]: never zero */
	if (strcmp(w, "n") == 0 || strcmp(w, "N") == 0)
		return 1;
	for (size_t k = 0; stems[k]; k++)
		if (strncmp(w, stems[k], strlen(stems[k])) == 0)
			return 1;
	return 0;
}

/* Whether the lines of the function before i test the divisor, or the
 * list its length is of, against empty or zero. */
static int orch_flow_guarded(const struct orch_flow *f, const struct orch_fn *fn, size_t i,
			     const char *d)
{
	char base[96];
	const char *open = strchr(d, '('), *dot = strrchr(d, '.');

	if (open)
		snprintf(base, sizeof base, "%.*s", (int)strcspn(open + 1, ")"), open + 1);
	else if (dot && strcmp(dot, ".length") == 0)
		snprintf(base, sizeof base, "%.*s", (int)(dot - d), d);
	else
		snprintf(base, sizeof base, "%s", d);
	for (size_t j = (size_t)fn->line - 1; j <= i && j < f->s->n; j++) {
		const char *code = f->s->code[j];

		if (j < i && (strstr(code, "if") || strstr(code, "?") || strstr(code, "while") ||
			      strstr(code, "assert")) && (orch_src_word(code, base) || strstr(code, d)))
			return 1;
		if (j == i && (strstr(code, " if ") || strstr(code, "?")) && orch_src_word(code, base))
			return 1;   /* x / n if n else 0 */
	}
	return 0;
}

static void orch_flow_division(struct orch_flow *f, const struct orch_fn *fn, size_t i)
{
	const char *code = f->s->code[i];
	char d[96];

	for (const char *p = strchr(code, '/'); p; p = strchr(p + 1, '/')) {
		if (p[1] == '/' && f->sl != ORCH_SRC_PY)
			break;   /* a comment the scanner left (URLs in code are rare) */
		if (!orch_flow_divisor(p, d, sizeof d) || !orch_flow_countish(d) ||
		    orch_flow_guarded(f, fn, i, d))
			continue;
		orch_flow_issue(f, i, "division-by-zero", "high", d, NULL,
				orch_sayf(f->lang, "r.div_zero", d));
		return;
	}
}

void orch_review_flow(const char *path, const struct orch_src *s, enum orch_src_lang sl,
		      const struct orch_fn *fns, size_t nf, const char *lang, json_t *issues)
{
	struct orch_flow f = { path, lang, s, sl, issues };

	for (size_t k = 0; k < nf; k++) {
		for (size_t i = (size_t)fns[k].line - 1; i < (size_t)fns[k].end && i < s->n; i++) {
			if (sl == ORCH_SRC_C) {
				orch_flow_leaks(&f, &fns[k], i);
				orch_flow_after_free(&f, &fns[k], i);
				orch_flow_nul(&f, i);
			}
			if (sl == ORCH_SRC_PY) {
				orch_flow_py_bounds(&f, i);
				orch_flow_py_open(&f, &fns[k], i);
			} else {
				orch_flow_loop(&f, i);
			}
			if (sl == ORCH_SRC_JS)
				orch_flow_js_fetch(&f, &fns[k], i);
			orch_flow_unchecked(&f, i);
			orch_flow_division(&f, &fns[k], i);
		}
	}
}
