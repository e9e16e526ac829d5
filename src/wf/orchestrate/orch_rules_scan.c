/* The source scanner of the offline reviewer, coder, test writer and
 * architect: lines split into code and comments (strings blanked, so
 * that a word in a string or a comment is never taken for code), and the
 * functions of C, JavaScript and Python with their lines. A scanner, not
 * a parser: it reads what the rules need and nothing runs. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

enum orch_scan_state { SCAN_CODE, SCAN_LINE_COMMENT, SCAN_BLOCK_COMMENT, SCAN_STRING, SCAN_TRIPLE };

struct orch_scan {
	struct orch_src *s;
	enum orch_src_lang lang;
	enum orch_scan_state st;
	char quote;
	struct buf line, code, comment;
	size_t alloc;
};

enum orch_src_lang orch_src_lang_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	static const struct { const char *ext; enum orch_src_lang lang; } map[] = {
		{ ".c", ORCH_SRC_C }, { ".h", ORCH_SRC_C }, { ".js", ORCH_SRC_JS },
		{ ".mjs", ORCH_SRC_JS }, { ".cjs", ORCH_SRC_JS }, { ".ts", ORCH_SRC_JS },
		{ ".py", ORCH_SRC_PY },
	};

	if (!dot)
		return ORCH_SRC_NONE;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(dot, map[i].ext) == 0)
			return map[i].lang;
	return ORCH_SRC_NONE;
}

static void orch_scan_push(struct orch_scan *sc)
{
	struct orch_src *s = sc->s;

	if (s->n == sc->alloc) {
		sc->alloc = sc->alloc ? sc->alloc * 2 : 64;
		s->line = xrealloc(s->line, sc->alloc * sizeof(char *));
		s->code = xrealloc(s->code, sc->alloc * sizeof(char *));
		s->comment = xrealloc(s->comment, sc->alloc * sizeof(char *));
	}
	s->line[s->n] = xstrdup(sc->line.data ? sc->line.data : "");
	s->code[s->n] = xstrdup(sc->code.data ? sc->code.data : "");
	s->comment[s->n] = xstrdup(sc->comment.data ? sc->comment.data : "");
	s->n++;
	buf_reset(&sc->line);
	buf_reset(&sc->code);
	buf_reset(&sc->comment);
	if (sc->st == SCAN_LINE_COMMENT || (sc->st == SCAN_STRING && sc->quote != '`'))
		sc->st = SCAN_CODE;
}

/* One character in code: it may open a comment or a string. Returns how
 * many characters it took. */
static size_t orch_scan_code(struct orch_scan *sc, const char *p)
{
	int py = sc->lang == ORCH_SRC_PY;

	if ((!py && p[0] == '/' && p[1] == '/') || (py && p[0] == '#')) {
		sc->st = SCAN_LINE_COMMENT;
		return py ? 1 : 2;
	}
	if (!py && p[0] == '/' && p[1] == '*') {
		sc->st = SCAN_BLOCK_COMMENT;
		return 2;
	}
	if (py && (p[0] == '"' || p[0] == '\'') && p[1] == p[0] && p[2] == p[0]) {
		sc->st = SCAN_TRIPLE;
		sc->quote = p[0];
		buf_add(&sc->code, p, 3);
		return 3;
	}
	if (p[0] == '"' || p[0] == '\'' || (sc->lang == ORCH_SRC_JS && p[0] == '`')) {
		sc->st = SCAN_STRING;
		sc->quote = p[0];
	}
	buf_add(&sc->code, p, 1);
	return 1;
}

/* One character inside a string: blanked; an escape takes two. */
static size_t orch_scan_string(struct orch_scan *sc, const char *p)
{
	if (p[0] == '\\' && p[1] && p[1] != '\n') {
		buf_adds(&sc->code, "  ");
		return 2;
	}
	if (sc->st == SCAN_TRIPLE && p[0] == sc->quote && p[1] == p[0] && p[2] == p[0]) {
		buf_add(&sc->code, p, 3);
		sc->st = SCAN_CODE;
		return 3;
	}
	if (sc->st == SCAN_STRING && p[0] == sc->quote) {
		buf_add(&sc->code, p, 1);
		sc->st = SCAN_CODE;
		return 1;
	}
	buf_adds(&sc->code, " ");
	return 1;
}

static size_t orch_scan_one(struct orch_scan *sc, const char *p)
{
	switch (sc->st) {
	case SCAN_CODE:
		return orch_scan_code(sc, p);
	case SCAN_LINE_COMMENT:
		buf_add(&sc->comment, p, 1);
		return 1;
	case SCAN_BLOCK_COMMENT:
		if (p[0] == '*' && p[1] == '/') {
			sc->st = SCAN_CODE;
			buf_adds(&sc->code, " ");
			return 2;
		}
		buf_add(&sc->comment, p, 1);
		return 1;
	default:
		return orch_scan_string(sc, p);
	}
}

void orch_src_split(struct orch_src *s, const char *text, enum orch_src_lang lang)
{
	struct orch_scan sc = { .s = s, .lang = lang, .st = SCAN_CODE };
	const char *p = text ? text : "";

	memset(s, 0, sizeof(*s));
	buf_init(&sc.line, 1 << 20);
	buf_init(&sc.code, 1 << 20);
	buf_init(&sc.comment, 1 << 20);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		buf_add(&sc.line, p, len && p[len - 1] == '\r' ? len - 1 : len);
		for (size_t i = 0; i < len;)
			i += orch_scan_one(&sc, p + i);
		orch_scan_push(&sc);
		p += len + (eol ? 1 : 0);
	}
	buf_free(&sc.line);
	buf_free(&sc.code);
	buf_free(&sc.comment);
}

void orch_src_free(struct orch_src *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->line[i]);
		free(s->code[i]);
		free(s->comment[i]);
	}
	free(s->line);
	free(s->code);
	free(s->comment);
	memset(s, 0, sizeof(*s));
}

static int orch_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

const char *orch_src_call(const char *code, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(code, name); p; p = strstr(p + 1, name)) {
		const char *q = p + n;

		if (p > code && (orch_ident_char((unsigned char)p[-1]) || p[-1] == '.'))
			continue;
		if (orch_ident_char((unsigned char)*q))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '(')
			return p;
	}
	return NULL;
}

static int orch_keyword(const char *w)
{
	static const char *const kw[] = { "if", "for", "while", "switch", "catch", "return",
		"sizeof", "else", "do", "with", "function", NULL };

	for (size_t i = 0; kw[i]; i++)
		if (strcmp(w, kw[i]) == 0)
			return 1;
	return 0;
}

/* Whether one parameter's text (n bytes) counts: not empty, not "void"
 * alone (C), not Python's bare * or / markers. *stop set for JavaScript
 * at the first default or rest parameter, where Function.length stops. */
static int orch_param_counts(const char *p, size_t n, enum orch_src_lang lang, int *stop)
{
	while (n > 0 && isspace((unsigned char)*p))
		p++, n--;
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	if (n == 0 || (n == 4 && strncmp(p, "void", 4) == 0 && lang == ORCH_SRC_C))
		return 0;
	if (lang == ORCH_SRC_PY && n == 1 && (*p == '*' || *p == '/'))
		return 0;
	if (lang == ORCH_SRC_JS && (memchr(p, '=', n) || (n >= 3 && strncmp(p, "...", 3) == 0)))
		*stop = 1;
	return !*stop;
}

/* The parameters between the '(' at open and its ')', as the language
 * counts them (C: all; JavaScript: Function.length; Python: every name). */
static int orch_params(const char *open, enum orch_src_lang lang)
{
	int depth = 0, count = 0, stop = 0;
	const char *start = open + 1;

	for (const char *p = open; *p; p++) {
		if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == ']' || *p == '}') {
			if (--depth == 0) {
				count += orch_param_counts(start, (size_t)(p - start), lang, &stop);
				break;
			}
		} else if (depth == 1 && *p == ',') {
			count += orch_param_counts(start, (size_t)(p - start), lang, &stop);
			start = p + 1;
		}
	}
	return count;
}

/* The identifier that ends just before end (spaces skipped), into out. */
static const char *orch_word_before(const char *begin, const char *end, char *out, size_t len)
{
	const char *e = end, *b;

	while (e > begin && isspace((unsigned char)e[-1]))
		e--;
	b = e;
	while (b > begin && orch_ident_char((unsigned char)b[-1]))
		b--;
	snprintf(out, len, "%.*s", (int)(e - b), b);
	return b;
}

/* Whether p .. arrow is only an arrow function's parameters: "(a, b) ",
 * "x ", "async (a) " — not "arr.map(x " of an expression. */
static int orch_arrow_params(const char *p, const char *arrow)
{
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "async", 5) == 0 && isspace((unsigned char)p[5]))
		p += 5;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '(') {
		int depth = 0;

		for (; p < arrow; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')' && --depth == 0)
				break;
		}
		p++;
	} else {
		while (p < arrow && orch_ident_char((unsigned char)*p))
			p++;
	}
	while (p < arrow && isspace((unsigned char)*p))
		p++;
	return p == arrow;
}

/* A brace-language header ("static int f(int a, char *b)", "function g(x)",
 * "const h = (a) =>", "method(a)") as a function, or 0. */
static int orch_header_fn(const char *h, enum orch_src_lang lang, struct orch_fn *fn)
{
	const char *open = strchr(h, '('), *arrow = strstr(h, "=>"), *kw = strstr(h, "function");
	const char *b;

	memset(fn, 0, sizeof(*fn));
	if (lang == ORCH_SRC_C) {
		if (!open || strchr(h, '=') || strncmp(h, "struct", 6) == 0)
			return 0;
	} else if (!open && !arrow) {
		return 0;
	}
	if (lang == ORCH_SRC_JS && kw && (!open || kw < open)) {
		const char *n = kw + 8;

		while (isspace((unsigned char)*n) || *n == '*')
			n++;
		b = n;
		while (orch_ident_char((unsigned char)*n))
			n++;
		snprintf(fn->name, sizeof(fn->name), "%.*s", (int)(n - b), b);
	} else if (lang == ORCH_SRC_JS && arrow) {
		const char *eq = strchr(h, '=');
		const char *colon = strchr(h, ':');
		const char *at = eq && eq < arrow ? eq : colon && colon < arrow ? colon : NULL;

		if (!at || !orch_arrow_params(at + 1, arrow))
			return 0;
		orch_word_before(h, at, fn->name, sizeof(fn->name));
		fn->params = open && open < arrow ? orch_params(open, lang) : 1;
		return fn->name[0] != '\0';
	} else {
		b = orch_word_before(h, open, fn->name, sizeof(fn->name));
		if (lang == ORCH_SRC_C) {
			const char *r = h;

			while (isspace((unsigned char)*r))
				r++;
			snprintf(fn->ret, sizeof(fn->ret), "%.*s", (int)(b - r), r);
		}
	}
	if (!fn->name[0] || orch_keyword(fn->name) || isdigit((unsigned char)fn->name[0]))
		return 0;
	fn->params = open ? orch_params(open, lang) : 0;
	return 1;
}

struct orch_walk {
	struct buf head;         /* the code since the last ; { or } */
	int head_line;           /* the line of the header's first '(' (or first word) */
	int depth;
	int open_depth[32];      /* the depth each open function's body starts at */
	size_t open_fn[32];
	int nopen;
};

static void orch_walk_open(struct orch_walk *w, enum orch_src_lang lang, struct orch_fn *out,
			   size_t max, size_t *n)
{
	struct orch_fn fn;

	if ((lang == ORCH_SRC_C && w->depth != 0) || w->nopen == 32 || *n >= max ||
	    !orch_header_fn(w->head.data ? w->head.data : "", lang, &fn))
		return;
	fn.line = w->head_line;
	out[*n] = fn;
	w->open_depth[w->nopen] = w->depth + 1;
	w->open_fn[w->nopen++] = (*n)++;
}

/* An arrow function without braces ("const f = (x) => 2 * x;"): from its
 * header's line to the ';'. */
static void orch_walk_arrow(struct orch_walk *w, int line, struct orch_fn *out, size_t max,
			    size_t *n)
{
	struct orch_fn fn;
	char *arrow = strstr(w->head.data, "=>"), keep = arrow[2];
	int found;

	arrow[2] = '\0';   /* the body is not part of the header */
	found = *n < max && orch_header_fn(w->head.data, ORCH_SRC_JS, &fn);
	arrow[2] = keep;
	if (!found)
		return;
	fn.line = w->head_line;
	fn.end = line;
	out[(*n)++] = fn;
}

static void orch_walk_char(struct orch_walk *w, char c, int line, enum orch_src_lang lang,
			   struct orch_fn *out, size_t max, size_t *n)
{
	if (c == '{') {
		orch_walk_open(w, lang, out, max, n);
		w->depth++;
	} else if (c == '}') {
		if (w->nopen > 0 && w->open_depth[w->nopen - 1] == w->depth)
			out[w->open_fn[--w->nopen]].end = line;
		if (w->depth > 0)
			w->depth--;
	}
	if (c == ';' && lang == ORCH_SRC_JS && w->head.data && strstr(w->head.data, "=>"))
		orch_walk_arrow(w, line, out, max, n);
	if (c == '{' || c == '}' || c == ';') {
		buf_reset(&w->head);
		w->head_line = 0;
		return;
	}
	if (!w->head_line && (c == '(' || !isspace((unsigned char)c)))
		w->head_line = line;
	if (c == '(' && !strchr(w->head.data ? w->head.data : "", '('))
		w->head_line = line;
	buf_add(&w->head, &c, 1);
}

static size_t orch_brace_functions(const struct orch_src *s, enum orch_src_lang lang,
				   struct orch_fn *out, size_t max)
{
	struct orch_walk w = { .depth = 0 };
	size_t n = 0;

	buf_init(&w.head, 1 << 16);
	for (size_t i = 0; i < s->n; i++) {
		const char *p = s->code[i];

		while (isspace((unsigned char)*p))
			p++;
		if (lang == ORCH_SRC_C && *p == '#')
			continue;
		for (; *p; p++)
			orch_walk_char(&w, *p, (int)i + 1, lang, out, max, &n);
		orch_walk_char(&w, ' ', (int)i + 1, lang, out, max, &n);
	}
	buf_free(&w.head);
	for (size_t i = 0; i < n; i++)
		if (!out[i].end)
			out[i].end = (int)s->n;
	return n;
}

static int orch_indent(const char *line)
{
	int n = 0;

	for (; *line == ' ' || *line == '\t'; line++)
		n += *line == '\t' ? 8 - n % 8 : 1;
	return n;
}

static int orch_blank(const char *code)
{
	while (isspace((unsigned char)*code))
		code++;
	return *code == '\0';
}

/* A Python def at line i: its name and parameters (self and cls not
 * counted), the end where the indentation comes back. */
static int orch_py_def(const struct orch_src *s, size_t i, struct orch_fn *fn)
{
	const char *p = s->code[i] + strspn(s->code[i], " \t"), *open;
	int ind = orch_indent(s->code[i]);
	size_t last = i;

	if (strncmp(p, "async ", 6) == 0)
		p += 6 + strspn(p + 6, " ");
	if (strncmp(p, "def ", 4) != 0 || !(open = strchr(p, '(')))
		return 0;
	memset(fn, 0, sizeof(*fn));
	orch_word_before(p, open, fn->name, sizeof(fn->name));
	fn->params = orch_params(open, ORCH_SRC_PY);
	if (fn->params > 0 && (strncmp(open + 1, "self", 4) == 0 || strncmp(open + 1, "cls", 3) == 0))
		fn->params--;
	for (size_t j = i + 1; j < s->n; j++) {
		if (orch_blank(s->code[j]))
			continue;
		if (orch_indent(s->code[j]) <= ind)
			break;
		last = j;
	}
	fn->line = (int)i + 1;
	fn->end = (int)last + 1;
	return fn->name[0] != '\0';
}

size_t orch_src_functions(const struct orch_src *s, enum orch_src_lang lang, struct orch_fn *out,
			  size_t max)
{
	size_t n = 0;

	if (lang == ORCH_SRC_C || lang == ORCH_SRC_JS)
		return orch_brace_functions(s, lang, out, max);
	if (lang != ORCH_SRC_PY)
		return 0;
	for (size_t i = 0; i < s->n && n < max; i++)
		if (orch_py_def(s, i, &out[n]))
			n++;
	return n;
}
