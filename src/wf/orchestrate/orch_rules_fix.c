/* The offline coder: each code file again, under fixed/, with the
 * reviewer's issues (from the inputs, else its own review) fixed where
 * the change is mechanical (strcpy, strcat, sprintf and gets to their
 * bounded forms when the destination is an array named in place, NULL
 * checks after allocations, bare except, comparisons with None, var) and
 * a comment saying what to change above every other issue. A bounded
 * form with sizeof is written only for a destination declared as a char
 * array in the same file. A return that left memory or a file behind
 * releases it first, and a NULL check added after an allocation releases
 * what the function allocated before it: a fix adds no leak. Loops one
 * past the end stop at the end, and a string's allocation gets its NUL's
 * byte. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

struct orch_fix {
	const char *lang;
	enum orch_src_lang sl;
	struct orch_src src;
	struct orch_fn fns[256];
	size_t nfn;
	struct buf out;
	int fixed, noted;
};

/* The two arguments of the call at open ('(') when the first is a plain
 * identifier: 0 with a and rest (the text after the first comma, up to the
 * closing parenthesis) and *end after it; -1 otherwise. */
static int orch_fix_args(const char *open, char *a, size_t alen, char *rest, size_t rlen,
			 const char **end)
{
	const char *p = open + 1, *comma = NULL;
	int depth = 1;

	for (; *p && depth > 0; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == ',' && depth == 1 && !comma)
			comma = p;
		else if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; *p && *p != q; p++)
				if (*p == '\\' && p[1])
					p++;
		}
	}
	if (depth != 0 || !comma)
		return -1;
	if ((size_t)(comma - open - 1) >= alen || (size_t)(p - comma) >= rlen)
		return -1;
	snprintf(a, alen, "%.*s", (int)(comma - open - 1), open + 1);
	for (char *s = a; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return -1;
	while (comma[1] == ' ')
		comma++;
	snprintf(rest, rlen, "%.*s", (int)(p - 1 - comma - 1), comma + 1);
	*end = p;
	return a[0] ? 0 : -1;
}

/* Whether name is declared as a char array in the file ("char name[64];"):
 * only then is sizeof(name) its size. */
static int orch_fix_is_array(const struct orch_src *src, const char *name)
{
	static const char *const types[] = { "char ", "static char ", "unsigned char ",
		"static unsigned char " };
	char decl[80];

	snprintf(decl, sizeof(decl), "%s[", name);
	for (size_t i = 0; i < src->n; i++) {
		const char *t = src->code[i] + strspn(src->code[i], " \t"), *at;

		for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++)
			if (strncmp(t, types[k], strlen(types[k])) == 0 && (at = strstr(t, decl)) &&
			    (at[-1] == ' ' || at[-1] == ','))
				return 1;
	}
	return 0;
}

/* A string call rewritten to its bounded form in line; 0 when done. */
static int orch_fix_string(const struct orch_src *src, char *line, size_t cap, const char *fn)
{
	char *at = (char *)orch_src_call(line, fn), a[64], rest[512];
	const char *end;
	char *tail;
	struct buf b;

	if (!at || orch_fix_args(strchr(at, '('), a, sizeof(a), rest, sizeof(rest), &end) ||
	    !orch_fix_is_array(src, a))
		return -1;
	buf_init(&b, cap);
	buf_add(&b, line, (size_t)(at - line));
	if (strcmp(fn, "strcpy") == 0)
		buf_printf(&b, "snprintf(%s, sizeof(%s), \"%%s\", %s)", a, a, rest);
	else if (strcmp(fn, "strcat") == 0)
		buf_printf(&b, "strncat(%s, %s, sizeof(%s) - strlen(%s) - 1)", a, rest, a, a);
	else
		buf_printf(&b, "snprintf(%s, sizeof(%s), %s)", a, a, rest);
	tail = xstrdup(end);
	buf_adds(&b, tail);
	free(tail);
	snprintf(line, cap, "%s", b.data);
	buf_free(&b);
	return 0;
}

static int orch_fix_gets(const struct orch_src *src, char *line, size_t cap)
{
	char *at = (char *)orch_src_call(line, "gets"), *open, *close, a[64], *tail;

	if (!at || !(open = strchr(at, '(')) || !(close = strchr(open, ')')) ||
	    close - open - 1 <= 0 || close - open - 1 >= (long)sizeof(a))
		return -1;
	snprintf(a, sizeof(a), "%.*s", (int)(close - open - 1), open + 1);
	for (char *s = a; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return -1;
	if (!orch_fix_is_array(src, a))
		return -1;
	tail = xstrdup(close + 1);
	snprintf(at, cap - (size_t)(at - line), "fgets(%s, sizeof(%s), stdin)%s", a, a, tail);
	free(tail);
	return 0;
}

/* Replaces the first from with to in line; 0 when done. */
static int orch_fix_replace(char *line, size_t cap, const char *from, const char *to)
{
	char *at = strstr(line, from), *tail;

	if (!at || strlen(line) - strlen(from) + strlen(to) >= cap)
		return -1;
	tail = xstrdup(at + strlen(from));
	snprintf(at, cap - (size_t)(at - line), "%s%s", to, tail);
	free(tail);
	return 0;
}

static int orch_fix_var(char *line, size_t cap)
{
	for (char *p = strstr(line, "var "); p; p = strstr(p + 1, "var "))
		if (p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) {
			p[0] = 'l', p[1] = 'e', p[2] = 't';
			return 0;
		}
	return -1;
}

/* The return that leaves the function enclosing line (1-based) on a
 * failed allocation, or NULL when its type does not say. */
static const char *orch_fix_return(const struct orch_fix *f, int line)
{
	for (size_t k = 0; k < f->nfn; k++) {
		const char *r = f->fns[k].ret;

		if (line < f->fns[k].line || line > f->fns[k].end)
			continue;
		if (strchr(r, '*'))
			return "return NULL;";
		if (strcmp(r, "void") == 0 || strcmp(r, "static void") == 0)
			return "return;";
		if (strstr(r, "int") || strstr(r, "long") || strstr(r, "ssize_t"))
			return "return -1;";
		return NULL;
	}
	return NULL;
}

static void orch_fix_comment(struct orch_fix *f, const char *indent, const char *msg)
{
	char *words = orch_sayf(f->lang, "fix_note", msg);

	if (f->sl == ORCH_SRC_C)
		buf_printf(&f->out, "%s/* %s */\n", indent, words);
	else
		buf_printf(&f->out, "%s%s %s\n", indent, f->sl == ORCH_SRC_PY ? "#" : "//", words);
	free(words);
	f->noted++;
}

/* The return statement on line wrapped with the release of var before it
 * ("{ free(buf); return NULL; }"): valid alone or as an if's body. */
static int orch_fix_release(char *line, size_t cap, const char *var, const char *release)
{
	char *r = (char *)orch_src_word(line, "return"), *semi, *tail;
	char *out;

	if (!r || !(semi = strchr(r, ';')) || !var || !release)
		return -1;
	tail = xstrdup(semi + 1);
	out = xasprintf("%.*s{ %s(%s); %.*s }%s", (int)(r - line), line, release, var,
			(int)(semi + 1 - r), r, tail);
	free(tail);
	if (strlen(out) >= cap) {
		free(out);
		return -1;
	}
	snprintf(line, cap, "%s", out);
	free(out);
	return 0;
}

/* The variables the function allocated before line i and still holds
 * there (not released, not handed over), with their release, into b as
 * statements at indent; their number. */
static int orch_fix_live(const struct orch_fix *f, size_t i, const char *var, struct buf *b,
			 const char *indent)
{
	static const struct { const char *fn, *release; } allocs[] = { { "malloc", "free" },
		{ "calloc", "free" }, { "realloc", "free" }, { "strdup", "free" }, { "fopen", "fclose" } };
	size_t k, a, j;
	int n = 0;

	for (k = 0; k < f->nfn && !(i + 1 >= (size_t)f->fns[k].line && i + 1 <= (size_t)f->fns[k].end); k++)
		;
	if (k == f->nfn)
		return 0;
	for (a = (size_t)f->fns[k].line - 1; a < i; a++)
		for (size_t m = 0; m < sizeof allocs / sizeof allocs[0]; m++) {
			const char *call = orch_src_call(f->src.code[a], allocs[m].fn);
			char v[80];
			int gone = 0;

			if (!call || !orch_src_assigned(f->src.code[a], call, v, sizeof v) ||
			    strcmp(v, var) == 0 || strchr(v, '.') || strstr(v, "->"))
				continue;
			for (j = a + 1; j <= i && !gone; j++) {
				const char *rel = orch_src_call(f->src.code[j], allocs[m].release);

				gone = (rel && orch_src_word(rel, v)) || (orch_src_word(f->src.code[j], "return") &&
					orch_src_word(orch_src_word(f->src.code[j], "return"), v));
			}
			if (gone)
				continue;
			if (strcmp(allocs[m].release, "fclose") == 0)
				buf_printf(b, "%s\tif (%s != NULL)\n%s\t\tfclose(%s);\n", indent, v, indent, v);
			else
				buf_printf(b, "%s\t%s(%s);\n", indent, allocs[m].release, v);
			n++;
		}
	return n;
}

/* A loop "i <= n" to "i < n", a string's malloc(strlen(s)) to + 1, a
 * Python range(len(x) + 1) to range(len(x)) and x[len(x)] to the last
 * element. 0 when done. */
static int orch_fix_bounds(char *line, size_t cap)
{
	char *p;

	if (orch_src_word(line, "for") && (p = strstr(line, "<="))) {
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
		return 0;
	}
	if ((p = strstr(line, "range(len(")) && strstr(p, ") + 1)"))
		return orch_fix_replace(p, cap - (size_t)(p - line), ") + 1)", "))");
	if ((p = strstr(line, "malloc(strlen("))) {
		int depth = 0;
		char *q, *tail;

		for (q = p + 6; *q; q++)
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 1)
				break;
		if (*q != ')' || strlen(line) + 5 >= cap)
			return -1;
		tail = xstrdup(q + 1);
		snprintf(q + 1, cap - (size_t)(q + 1 - line), " + 1%s", tail);
		free(tail);
		return 0;
	}
	if ((p = strstr(line, "[len(")) && (p = strstr(p, ")]")))
		return orch_fix_replace(p, cap - (size_t)(p - line), ")]", ") - 1]");
	return -1;
}

/* One issue on line: fixed in place (0), or -1. A NULL check goes to after. */
static int orch_fix_issue(struct orch_fix *f, size_t i, const json_t *is, char *line, size_t cap,
			  struct buf *after, const char *indent)
{
	const char *rule = json_string_value(json_object_get(is, "rule")) ?: "";
	struct buf frees;
	int n;

	static const char *const strfns[] = { "strcpy", "strcat", "sprintf" };
	char var[80];
	const char *call, *ret;

	if (strcmp(rule, "unsafe-string") == 0) {
		for (size_t k = 0; k < 3; k++)
			if (orch_fix_string(&f->src, line, cap, strfns[k]) == 0)
				return 0;
		return -1;
	}
	if (strcmp(rule, "gets") == 0)
		return orch_fix_gets(&f->src, line, cap);
	if (strcmp(rule, "bare-except") == 0)
		return orch_fix_replace(line, cap, "except:", "except Exception:");
	if (strcmp(rule, "none-comparison") == 0)
		return orch_fix_replace(line, cap, "!= None", "is not None") == 0 ? 0
			: orch_fix_replace(line, cap, "== None", "is None");
	if (strcmp(rule, "no-var") == 0)
		return orch_fix_var(line, cap);
	if (strcmp(rule, "leak-on-error-path") == 0)
		return orch_fix_release(line, cap, json_string_value(json_object_get(is, "symbol")),
					json_string_value(json_object_get(is, "release")));
	if (strcmp(rule, "off-by-one") == 0)
		return orch_fix_bounds(line, cap);
	if (strcmp(rule, "unchecked-alloc") != 0)
		return -1;
	call = NULL;
	for (size_t k = 0; !call && k < 5; k++)
		call = orch_src_call(f->src.code[i], (const char *[]){ "malloc", "calloc", "realloc",
								       "strdup", "fopen" }[k]);
	ret = orch_fix_return(f, (int)i + 1);
	if (!call || !ret || !orch_src_assigned(f->src.code[i], call, var, sizeof(var)))
		return -1;
	buf_init(&frees, 1 << 16);
	n = orch_fix_live(f, i, var, &frees, indent);
	if (n == 0)
		buf_printf(after, "%sif (%s == NULL)\n%s\t%s\n", indent, var, indent, ret);
	else
		buf_printf(after, "%sif (%s == NULL) {\n%s%s\t%s\n%s}\n", indent, var, frees.data,
			   indent, ret, indent);
	buf_free(&frees);
	return 0;
}

static void orch_fix_line(struct orch_fix *f, size_t i, const json_t *issues, const char *path)
{
	size_t cap = strlen(f->src.line[i]) + 512, k, ind = strspn(f->src.line[i], " \t");
	char *line = xmalloc(cap), indent[64];
	struct buf after;
	json_t *is;

	snprintf(line, cap, "%s", f->src.line[i]);
	snprintf(indent, sizeof(indent), "%.*s", (int)(ind < 63 ? ind : 63), f->src.line[i]);
	buf_init(&after, 4096);
	json_array_foreach(issues, k, is) {
		const char *file = json_string_value(json_object_get(is, "file"));

		if (!file || strcmp(file, path) != 0 ||
		    json_integer_value(json_object_get(is, "line")) != (json_int_t)i + 1)
			continue;
		if (orch_fix_issue(f, i, is, line, cap, &after, indent) == 0)
			f->fixed++;
		else
			orch_fix_comment(f, indent, json_string_value(json_object_get(is, "message")));
	}
	buf_printf(&f->out, "%s\n", line);
	buf_adds(&f->out, after.data ? after.data : "");
	buf_free(&after);
	free(line);
}

/* The fixed text of one file: caller frees. */
static char *orch_fix_file(const char *path, const char *text, const json_t *issues,
			   const char *lang, int *fixed, int *noted)
{
	struct orch_fix f = { .lang = lang, .sl = orch_src_lang_of(path) };

	orch_src_split(&f.src, text, f.sl);
	f.nfn = orch_src_functions(&f.src, f.sl, f.fns, 256);
	buf_init(&f.out, 4u << 20);
	for (size_t i = 0; i < f.src.n; i++)
		orch_fix_line(&f, i, issues, path);
	orch_src_free(&f.src);
	*fixed += f.fixed;
	*noted += f.noted;
	return buf_steal(&f.out);
}

/* The issues of the inputs, else the files' own review (new reference). */
static json_t *orch_fix_issues(const json_t *facts, const json_t *files, const char *lang)
{
	json_t *issues = orch_inputs_array(facts, "issues"), *f;
	size_t i;

	if (json_array_size(issues) > 0)
		return issues;
	json_array_foreach(files, i, f) {
		const char *t = json_string_value(json_object_get(f, "text"));
		json_t *found;

		if (!t)
			continue;
		found = orch_review_text(json_string_value(json_object_get(f, "path")), t, lang);
		json_array_extend(issues, found);
		json_decref(found);
	}
	return issues;
}

/* The write_file calls of the fixed files (new reference, maybe empty);
 * the counts of fixed and noted issues. NULL with *answer when the files
 * must be read first. */
static json_t *orch_fix_calls(const json_t *facts, const char *lang, int *fixed, int *noted,
			      json_t **answer)
{
	json_t *files, *issues, *calls, *f;
	size_t i;

	*fixed = *noted = 0;
	if (!(files = orch_files_or_read(facts, answer)))
		return NULL;
	issues = orch_fix_issues(facts, files, lang);
	calls = json_array();
	json_array_foreach(files, i, f) {
		const char *p = json_string_value(json_object_get(f, "path"));
		const char *t = json_string_value(json_object_get(f, "text"));
		char *out, *dest;

		if (!t)
			continue;
		out = orch_fix_file(p, t, issues, lang, fixed, noted);
		dest = xasprintf("fixed/%s", p);
		json_array_append_new(calls, orch_call_new("write_file",
			json_pack("{s:s, s:s}", "path", dest, "content", out)));
		free(out);
		free(dest);
	}
	json_decref(files);
	json_decref(issues);
	return calls;
}

/* After write_file: the answer naming what was written. */
static json_t *orch_fix_done(const json_t *facts, const char *lang)
{
	struct buf names;
	size_t i;
	json_t *t, *a, *calls, *ignored;
	int n = 0, fixed, noted;
	char *lead, *note;

	calls = orch_fix_calls(facts, lang, &fixed, &noted, &ignored);
	json_decref(calls);
	json_decref(ignored);
	buf_init(&names, 1 << 16);
	json_array_foreach(json_object_get(facts, "toolResults"), i, t) {
		if (strcmp(orch_fact_str(t, "name"), "write_file") != 0 ||
		    json_object_get(json_object_get(t, "result"), "error"))
			continue;
		buf_printf(&names, "%s%s", n++ ? ", " : "",
			   orch_fact_str(json_object_get(t, "arguments"), "path"));
	}
	lead = orch_sayf(lang, "code_done", n, names.data ? names.data : "", fixed, noted);
	note = orch_sayf(lang, "offline", orch_say(lang, "code_cannot"));
	a = orch_answer_data(lead, NULL, note);
	free(lead);
	free(note);
	buf_free(&names);
	return a;
}

json_t *orch_rules_coder(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts);
	json_t *answer, *calls;
	int fixed, noted;

	if (orch_tool_result(facts, "write_file", NULL))
		return orch_fix_done(facts, lang);
	if (!(calls = orch_fix_calls(facts, lang, &fixed, &noted, &answer)))
		return answer;
	if (json_array_size(calls) == 0) {
		json_decref(calls);
		return orch_decline(lang, orch_say(lang, "code_none"));
	}
	return orch_calls_new(calls);
}
