/* The orchestrate tools (orch_tools.c, orch_find.c, orch_annotate.c) on
 * a real store: their function definitions; each tool's results and
 * errors as tables (write_file, read_file by lines, glob patterns with **,
 * grep with its limits: a bad pattern, one that backtracks past PCRE2's
 * match limit, the cap on matches and on a line's length); image_annotate's
 * SVG checked for well-formedness, boxes where asked and clipped, labels
 * escaped, and drawn by librsvg (raster.c) to a PNG of the picture's size
 * with the boxes' colours on their edges and the picture inside them. */
#include "config.h"
#include "orchfix.h"
#include "media/raster.h"
#include "wf/orchestrate/orch_tools.h"
#include "wf/orchestrate/orch_ws.h"

/* The tool's result; "" when it is an error, else the error's code. */
static json_t *run(struct ofx *f, const char *tool, const char *args)
{
	json_t *a = json_loads(args, JSON_ALLOW_NUL, NULL), *out;

	if (a == NULL)
		tap_bail("bad JSON in the test: %s", args);
	out = orch_tool_run(&f->c, "s1", tool, a);
	json_decref(a);
	return out;
}

static const char *code(const json_t *r)
{
	const char *e = json_string_value(json_object_get(r, "error"));

	return e ? e : "";
}

static void test_schemas(void)
{
	const char *names[] = { "read_file", "glob", "grep", "write_file", "image_annotate" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		json_t *s = orch_tool_schema(names[i]);
		json_t *fn = json_object_get(s, "function");

		ok(orch_tool_known(names[i]), "%s is known", names[i]);
		ok(s && strcmp(json_string_value(json_object_get(s, "type")), "function") == 0 &&
		   strcmp(json_string_value(json_object_get(fn, "name")), names[i]) == 0 &&
		   json_string_value(json_object_get(fn, "description")) &&
		   json_is_array(json_object_get(json_object_get(fn, "parameters"), "required")),
		   "%s: a function definition with its parameters", names[i]);
		json_decref(s);
	}
	ok(!orch_tool_known("rm") && orch_tool_schema("rm") == NULL && !orch_tool_known(NULL),
	   "rm is not a tool");
}

struct tool_case {
	const char *tool;
	const char *args;
	const char *code;    /* "" success, else the error's code */
	const char *key;     /* on success: a field to check (NULL: none) */
	const char *want;    /* its value as JSON text */
};

static const struct tool_case write_cases[] = {
	{ "write_file", "{\"path\": \"src/fix.c\", \"content\": \"int x;\\n\"}", "", "size", "7" },
	{ "write_file", "{\"path\": \"t/test_x.py\", \"content\": \"assert 1\\n\"}", "", "mimeType",
	  "\"text/x-python\"" },
	{ "write_file", "{\"path\": \"notes.md\", \"content\": \"# 标题\\n\", \"mimeType\": \"text/markdown\"}",
	  "", "mimeType", "\"text/markdown\"" },
	{ "write_file", "{\"path\": \"../escape.c\", \"content\": \"x\"}", "bad_path", NULL, NULL },
	{ "write_file", "{\"path\": \"/etc/passwd\", \"content\": \"x\"}", "bad_path", NULL, NULL },
	{ "write_file", "{\"path\": \"a\\\\b.c\", \"content\": \"x\"}", "bad_path", NULL, NULL },
	{ "write_file", "{\"path\": \"a.c\"}", "bad_args", NULL, NULL },
	{ "write_file", "{\"path\": \"a.c\", \"content\": 3}", "bad_args", NULL, NULL },
	{ "write_file", "{\"path\": \"a.c\", \"content\": \"a\\u0000b\"}", "bad_args", NULL, NULL },
	{ "write_file", "{\"path\": \"a.png\", \"content\": \"x\", \"mimeType\": \"image/png\"}", "bad_args",
	  NULL, NULL },
	{ "write_file", "[]", "bad_args", NULL, NULL },
	{ "rm", "{\"path\": \"a.c\"}", "unknown_tool", NULL, NULL },
	{ "read_file", "{\"path\": \"src/fix.c\"}", "", "content", "\"int x;\\n\"" },
	{ "read_file", "{\"path\": \"lines.txt\", \"offset\": 1, \"limit\": 2}", "", "content",
	  "\"two\\nthree\\n\"" },
	{ "read_file", "{\"path\": \"lines.txt\", \"offset\": 3}", "", "content", "\"four\\nfive\"" },
	{ "read_file", "{\"path\": \"lines.txt\", \"limit\": 1}", "", "nextOffset", "1" },
	{ "read_file", "{\"path\": \"lines.txt\"}", "", "lines", "5" },
	{ "read_file", "{\"path\": \"lines.txt\", \"offset\": 9}", "", "content", "\"\"" },
	{ "read_file", "{\"path\": \"blob.bin\"}", "", "binary", "true" },
	{ "read_file", "{\"path\": \"latin1.txt\"}", "", "binary", "true" },
	{ "read_file", "{\"path\": \"missing.c\"}", "not_found", NULL, NULL },
	{ "read_file", "{\"path\": \"/etc/passwd\"}", "bad_path", NULL, NULL },
	{ "read_file", "{\"path\": \"src/../lines.txt\"}", "bad_path", NULL, NULL },
	{ "read_file", "{\"path\": \"lines.txt\", \"offset\": -1}", "bad_args", NULL, NULL },
	{ "read_file", "{\"path\": \"lines.txt\", \"limit\": 0}", "bad_args", NULL, NULL },
};

static void table(struct ofx *f, const struct tool_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct tool_case *t = &cases[i];
		json_t *r = run(f, t->tool, t->args), *want = NULL;
		char *got = NULL;

		if (t->key) {
			want = json_loads(t->want, JSON_DECODE_ANY, NULL);
			got = json_dumps(json_object_get(r, t->key), JSON_ENCODE_ANY);
		}
		ok(strcmp(code(r), t->code) == 0 &&
		   (!t->key || json_equal(json_object_get(r, t->key), want)),
		   "%s %s: %s%s%s (got %s %s)", t->tool, t->args, *t->code ? t->code : "ok",
		   t->key ? ", " : "", t->key ? t->key : "", code(r), got ? got : "");
		free(got);
		json_decref(want);
		json_decref(r);
	}
}

static void test_files(struct ofx *f)
{
	char err[256];
	size_t big = (1u << 20) + 1;
	char *huge = xmalloc(big + 1);
	json_t *args, *r;

	orch_ws_put(&f->c, "lines.txt", "text/plain", "one\ntwo\nthree\nfour\nfive", 23, NULL, err,
		    sizeof err);
	orch_ws_put(&f->c, "blob.bin", "application/octet-stream", "\x00\x01\x02", 3, NULL, err,
		    sizeof err);
	orch_ws_put(&f->c, "latin1.txt", "text/plain", "caf\xe9", 4, NULL, err, sizeof err);
	table(f, write_cases, sizeof write_cases / sizeof write_cases[0]);
	is_str(json_string_value(json_object_get(orch_ws_entry(&f->c, "src/fix.c"), "stage")), "s1",
	       "write_file records the stage");

	memset(huge, 'x', big);
	huge[big] = '\0';
	args = json_pack("{s:s, s:s}", "path", "huge.txt", "content", huge);
	r = orch_tool_run(&f->c, "s1", "write_file", args);
	is_str(code(r), "too_large", "write_file past 1 MiB");
	json_decref(r);
	/* A long file read in pieces: 300 KiB of lines of 100 bytes. */
	for (size_t i = 0; i < 300 * 1024; i++)
		huge[i] = i % 100 == 99 ? '\n' : 'a';
	huge[300 * 1024] = '\0';
	json_object_set_new(args, "content", json_string(huge));
	json_object_set_new(args, "path", json_string("long.txt"));
	json_decref(orch_tool_run(&f->c, "s1", "write_file", args));
	json_decref(args);
	r = run(f, "read_file", "{\"path\": \"long.txt\"}");
	ok(json_is_true(json_object_get(r, "truncated")) &&
	   json_string_length(json_object_get(r, "content")) <= (256u << 10) &&
	   json_integer_value(json_object_get(r, "nextOffset")) ==
	   (json_int_t)json_string_length(json_object_get(r, "content")) / 100,
	   "read_file returns at most 256 KiB, whole lines, and where to go on");
	json_decref(r);
	free(huge);
}

struct glob_case {
	const char *pattern;
	const char *paths;   /* JSON array, or NULL: bad_args */
};

static const struct glob_case glob_cases[] = {
	{ "*.c", "[\"a.c\"]" },
	{ "?.c", "[\"a.c\"]" },
	{ "src/*.c", "[\"src/main.c\"]" },
	{ "src/**/*.c", "[\"src/main.c\", \"src/util/buf.c\"]" },
	{ "**/*.c", "[\"a.c\", \"src/main.c\", \"src/util/buf.c\"]" },
	{ "**/buf.*", "[\"src/util/buf.c\", \"src/util/buf.h\"]" },
	{ "src/**", "[\"src/main.c\", \"src/util/buf.c\", \"src/util/buf.h\"]" },
	{ "src/util/buf.[ch]", "[\"src/util/buf.c\", \"src/util/buf.h\"]" },
	{ "**/*.md", "[\"docs/读我.md\"]" },
	{ "docs/*", "[\"docs/读我.md\"]" },
	{ "*", "[\"a.c\"]" },
	{ "nothing/**", "[]" },
	{ "/etc/*", NULL },
	{ "", NULL },
};

static void test_glob(struct ofx *f)
{
	const char *files[] = { "a.c", "src/main.c", "src/util/buf.c", "src/util/buf.h", "docs/读我.md" };
	char err[256], args[128];

	ofx_thread(f);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		orch_ws_put(&f->c, files[i], "text/plain", "x", 1, NULL, err, sizeof err);
	for (size_t i = 0; i < sizeof glob_cases / sizeof glob_cases[0]; i++) {
		const struct glob_case *t = &glob_cases[i];
		json_t *r, *want = t->paths ? json_loads(t->paths, 0, NULL) : NULL;
		char *got;

		snprintf(args, sizeof args, "{\"pattern\": \"%s\"}", t->pattern);
		r = run(f, "glob", args);
		got = json_dumps(json_object_get(r, "paths"), JSON_ENCODE_ANY);
		ok(want ? json_equal(json_object_get(r, "paths"), want)
			: strcmp(code(r), "bad_args") == 0,
		   "glob %s -> %s (%s)", t->pattern, t->paths ? t->paths : "bad_args",
		   got ? got : code(r));
		free(got);
		json_decref(want);
		json_decref(r);
	}
}

static void test_grep(struct ofx *f)
{
	char err[256], *many = xmalloc(600 * 8 + 1), longline[2000];
	json_t *r, *m;
	size_t n = 0;

	orch_ws_put(&f->c, "src/main.c", "text/x-c", "#include \"buf.h\"\nint main(void)\n{\n\tstrcpy(a, b);\n}\n",
		    50, NULL, err, sizeof err);
	orch_ws_put(&f->c, "src/util/buf.h", "text/x-c", "struct buf;\nvoid buf_free(struct buf *b);\n",
		    41, NULL, err, sizeof err);
	orch_ws_put(&f->c, "docs/读我.md", "text/markdown", "你好，世界\nHello World\n", 28, NULL, err,
		    sizeof err);
	orch_ws_put(&f->c, "bin.dat", "application/octet-stream", "buf\0buf", 7, NULL, err, sizeof err);
	r = run(f, "grep", "{\"pattern\": \"buf\"}");
	m = json_object_get(r, "matches");
	ok(json_array_size(m) == 3 &&
	   strcmp(json_string_value(json_object_get(json_array_get(m, 0), "path")), "src/main.c") == 0 &&
	   json_integer_value(json_object_get(json_array_get(m, 0), "line")) == 1 &&
	   json_integer_value(json_object_get(json_array_get(m, 2), "line")) == 2,
	   "grep buf: three lines with path and line, the binary file passed over");
	json_decref(r);
	r = run(f, "grep", "{\"pattern\": \"\\\\bstr(cpy|cat)\\\\s*\\\\(\", \"glob\": \"**/*.c\"}");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(r, "matches"), 0), "text")),
	       "\tstrcpy(a, b);", "grep with a glob: the line's text");
	json_decref(r);
	r = run(f, "grep", "{\"pattern\": \"世界\"}");
	is_int(json_integer_value(json_object_get(r, "count")), 1, "grep in Chinese");
	json_decref(r);
	r = run(f, "grep", "{\"pattern\": \"hello\", \"ignoreCase\": true, \"path\": \"docs/读我.md\"}");
	is_int(json_integer_value(json_object_get(r, "count")), 1, "grep ignoring case, one file");
	json_decref(r);
	r = run(f, "grep", "{\"pattern\": \"hello\", \"path\": \"docs/读我.md\"}");
	is_int(json_integer_value(json_object_get(r, "count")), 0, "grep with case");
	json_decref(r);

	const struct tool_case errs[] = {
		{ "grep", "{\"pattern\": \"(\"}", "bad_pattern", NULL, NULL },
		{ "grep", "{\"pattern\": \"\"}", "bad_args", NULL, NULL },
		{ "grep", "{}", "bad_args", NULL, NULL },
		{ "grep", "{\"pattern\": \"x\", \"path\": \"none.c\"}", "not_found", NULL, NULL },
		{ "grep", "{\"pattern\": \"x\", \"path\": \"../x\"}", "bad_path", NULL, NULL },
		{ "grep", "{\"pattern\": \"x\", \"glob\": \"/x\"}", "bad_args", NULL, NULL },
	};
	table(f, errs, sizeof errs / sizeof errs[0]);

	memset(longline, 'a', sizeof longline);
	memcpy(longline + 1990, "b\n", 2);
	orch_ws_put(&f->c, "evil.txt", "text/plain", longline, sizeof longline, NULL, err, sizeof err);
	r = run(f, "grep", "{\"pattern\": \"^(a+)+$\", \"path\": \"evil.txt\"}");
	is_str(code(r), "pattern_too_complex", "catastrophic backtracking stops at the match limit");
	json_decref(r);
	r = run(f, "grep", "{\"pattern\": \"a{1000}\", \"path\": \"evil.txt\"}");
	ok(json_string_length(json_object_get(json_array_get(json_object_get(r, "matches"), 0), "text")) == 300,
	   "a long line comes back cut to 300 bytes");
	json_decref(r);

	for (int i = 0; i < 600; i++)
		n += (size_t)snprintf(many + n, 9, "hit %03d\n", i);
	orch_ws_put(&f->c, "many.txt", "text/plain", many, n, NULL, err, sizeof err);
	r = run(f, "grep", "{\"pattern\": \"^hit\", \"path\": \"many.txt\"}");
	ok(json_array_size(json_object_get(r, "matches")) == 200 &&
	   json_is_true(json_object_get(r, "truncated")), "at most 200 matches, then truncated");
	json_decref(r);
	free(many);
}

/* --- image_annotate --------------------------------------------------------- */

/* A tiny check that text is well-formed XML: one root, tags closed in
 * order, attributes quoted, no raw '<' and every '&' an entity. */
static int xml_entity(const char *s)
{
	const char *ents[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };

	for (size_t i = 0; i < 5; i++)
		if (strncmp(s, ents[i], strlen(ents[i])) == 0)
			return (int)strlen(ents[i]);
	return 0;
}

static int xml_ok(const char *s)
{
	char stack[32][32];
	int depth = 0, roots = 0;

	if (strncmp(s, "<?xml", 5) == 0 && (s = strstr(s, "?>")) != NULL)
		s += 2;
	while (s && *s) {
		if (*s == '&') {
			int n = xml_entity(s);
			if (!n)
				return 0;
			s += n;
		} else if (*s == '<' && s[1] == '/') {
			size_t n = strcspn(s + 2, ">");
			if (depth == 0 || strlen(stack[depth - 1]) != n ||
			    strncmp(stack[--depth], s + 2, n) != 0)
				return 0;
			s += n + 3;
		} else if (*s == '<') {
			size_t n = strcspn(++s, " \t\n/>");
			if (n == 0 || n >= 32 || depth == 32)
				return 0;
			if (depth == 0)
				roots++;
			snprintf(stack[depth], 32, "%.*s", (int)n, s);
			s += n;
			for (;;) {
				s += strspn(s, " \t\n");
				if (*s == '/' && s[1] == '>') {
					s += 2;
					break;
				}
				if (*s == '>') {
					s++;
					depth++;
					break;
				}
				n = strcspn(s, "= \t\n>");
				if (n == 0 || s[n] != '=' || s[n + 1] != '"')
					return 0;
				s += n + 2;
				while (*s && *s != '"') {
					if (*s == '<' || (*s == '&' && !xml_entity(s)))
						return 0;
					s++;
				}
				if (*s++ != '"')
					return 0;
			}
		} else
			s++;
	}
	return depth == 0 && roots == 1;
}

/* The pixel at x, y as 0xRRGGBB. */
static unsigned px(const struct pngio_image *img, int x, int y)
{
	const unsigned char *p = img->rgba + ((size_t)y * img->w + x) * 4;

	return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

static int near(unsigned a, unsigned b)
{
	for (int s = 0; s < 24; s += 8) {
		int d = (int)(a >> s & 0xff) - (int)(b >> s & 0xff);
		if (d < -40 || d > 40)
			return 0;
	}
	return 1;
}

static void check_raster(const char *svg, size_t len)
{
	const struct pngio_limits lim = { 8192, 256LL << 20 };
	struct pngio_image img = { 0 };
	char e[256], why[160];
	struct buf png;
	int w = 0, h = 0;

	buf_init(&png, 64u << 20);
	is_int(raster_svg_png(svg, len, 0, &png, &w, &h, e, sizeof e), RASTER_OK,
	       "librsvg draws the annotated picture (%s)", e);
	ok(w == 200 && h == 100, "a PNG of the picture's size (%d x %d)", w, h);
	if (pngio_decode((unsigned char *)png.data, png.len, &lim, &img, why, sizeof why) == PNGIO_OK) {
		ok(near(px(&img, 20, 55), 0xe5484d), "the first box's left edge is drawn (%06x)",
		   px(&img, 20, 55));
		ok(near(px(&img, 50, 55), 0x0000ff), "inside it, the picture (%06x)", px(&img, 50, 55));
		ok(near(px(&img, 150, 92), 0x0091ff), "the second box's edge, clipped (%06x)",
		   px(&img, 150, 92));
		ok(near(px(&img, 120, 60), 0xffffff), "elsewhere, the picture (%06x)", px(&img, 120, 60));
		ok(near(px(&img, 199, 92), 0x0091ff), "the clipped box ends at the picture's edge (%06x)",
		   px(&img, 199, 92));
	} else
		ok(0, "the PNG decodes: %s", why);
	pngio_image_free(&img);
	buf_free(&png);
}

static void test_annotate(struct ofx *f)
{
	size_t pnglen, len;
	unsigned char *png = ofx_png(200, 100, 0xffffff, 20, 30, 60, 40, 0x0000ff, &pnglen);
	char err[256], *mime = NULL, *svg = NULL;
	json_t *r;

	ofx_thread(f);
	orch_ws_put(&f->c, "in/pic.png", "image/png", png, pnglen, NULL, err, sizeof err);
	orch_ws_put(&f->c, "notes.txt", "text/plain", "hi", 2, NULL, err, sizeof err);
	r = run(f, "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": ["
		"{\"type\": \"rectangle\", \"x\": 20, \"y\": 30, \"width\": 60, \"height\": 40, "
		"\"label\": \"文字 <&> \\\"A\\\" 'b'\"},"
		"{\"x\": 150, \"y\": 80, \"width\": 100, \"height\": 50, \"label\": \"clip\"}]}");
	is_str(code(r), "", "image_annotate succeeds");
	is_str(json_string_value(json_object_get(r, "path")), "annotated/pic.svg", "its path");
	ok(strncmp(json_string_value(json_object_get(r, "url")), "api/assets/", 11) == 0 &&
	   strcmp(json_string_value(json_object_get(r, "url")) + 11,
		  json_string_value(json_object_get(r, "assetId"))) == 0, "its asset URL");
	ok(json_integer_value(json_object_get(r, "regions")) == 2 &&
	   json_integer_value(json_object_get(r, "clipped")) == 1 &&
	   json_integer_value(json_object_get(r, "width")) == 200, "two regions, one clipped, 200 wide");
	is_str(json_string_value(json_object_get(orch_ws_entry(&f->c, "annotated/pic.svg"), "stage")),
	       "s1", "recorded with its stage");
	json_decref(r);
	if (orch_ws_get(&f->c, "annotated/pic.svg", &mime, (void **)&svg, &len) < 0)
		tap_bail("the annotated picture is not in the workspace");
	svg = xrealloc(svg, len + 1);
	svg[len] = '\0';
	is_str(mime, "image/svg+xml", "an SVG");
	ok(xml_ok(svg), "well-formed XML");
	ok(strstr(svg, "width=\"200\" height=\"100\" viewBox=\"0 0 200 100\"") != NULL,
	   "at the picture's size");
	ok(strstr(svg, "xlink:href=\"data:image/png;base64,") != NULL, "the picture embedded");
	ok(strstr(svg, "x=\"20\" y=\"30\" width=\"60\" height=\"40\"") != NULL, "the first box where asked");
	ok(strstr(svg, "x=\"150\" y=\"80\" width=\"50\" height=\"20\"") != NULL, "the second box clipped");
	ok(strstr(svg, ">文字 &lt;&amp;&gt; &quot;A&quot; &apos;b&apos;</text>") != NULL,
	   "the label escaped");
	ok(strstr(svg, "Noto Sans CJK SC") != NULL, "fonts with Chinese fallbacks");
	check_raster(svg, len);
	free(svg);
	free(mime);

	const struct tool_case errs[] = {
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": []}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\"}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": [{\"type\": \"circle\", "
		  "\"x\": 1, \"y\": 1, \"width\": 5, \"height\": 5}]}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": [{\"x\": 1, \"y\": 1, "
		  "\"width\": 0, \"height\": 5}]}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": [{\"x\": \"1\", \"y\": 1, "
		  "\"width\": 5, \"height\": 5}]}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": [{\"x\": 500, \"y\": 1, "
		  "\"width\": 5, \"height\": 5}]}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": [{\"x\": -50, \"y\": -50, "
		  "\"width\": 10, \"height\": 10}]}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"regions\": [5]}", "bad_args", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"none.png\", \"regions\": [{\"x\": 1, \"y\": 1, "
		  "\"width\": 5, \"height\": 5}]}", "not_found", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"notes.txt\", \"regions\": [{\"x\": 1, \"y\": 1, "
		  "\"width\": 5, \"height\": 5}]}", "bad_image", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"../pic.png\", \"regions\": []}", "bad_path", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"output_path\": \"/tmp/x.svg\", "
		  "\"regions\": [{\"x\": 1, \"y\": 1, \"width\": 5, \"height\": 5}]}", "bad_path", NULL, NULL },
		{ "image_annotate", "{\"image_path\": \"in/pic.png\", \"output_path\": \"out/boxes.svg\", "
		  "\"regions\": [{\"x\": -5, \"y\": -5, \"width\": 30, \"height\": 30}]}", "", "path",
		  "\"out/boxes.svg\"" },
	};
	table(f, errs, sizeof errs / sizeof errs[0]);
	free(png);
}

int main(void)
{
	struct ofx f;

	test_schemas();
	ofx_open(&f, "t_orch_tools");
	test_files(&f);
	test_glob(&f);
	test_grep(&f);
	test_annotate(&f);
	ofx_close(&f);
	return tap_done();
}
