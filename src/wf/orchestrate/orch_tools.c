/* The orchestrate tools (see orch_tools.h): their table with the function
 * definitions a model is given, the dispatch, and the two file tools,
 * read_file and write_file. glob and grep are in orch_find.c,
 * image_annotate in orch_annotate.c, what the tools share in
 * orch_tool_util.c. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_tools.h"
#include "wf/orchestrate/orch_ws.h"

#define ORCH_READ_MAX (256u << 10)   /* bytes of text one read_file returns */
#define ORCH_WRITE_MAX (1u << 20)    /* bytes write_file accepts */

static json_t *orch_tool_read(struct step_ctx *c, const char *stage, const json_t *args);
static json_t *orch_tool_write(struct step_ctx *c, const char *stage, const json_t *args);
static json_t *orch_tool_glob_run(struct step_ctx *c, const char *stage, const json_t *args);
static json_t *orch_tool_grep_run(struct step_ctx *c, const char *stage, const json_t *args);

struct orch_tool {
	const char *name;
	const char *description;
	const char *parameters;   /* JSON schema */
	json_t *(*run)(struct step_ctx *c, const char *stage, const json_t *args);
};

static const struct orch_tool orch_tools[] = {
	{ "read_file", "Read a text file of the workspace, by lines.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"path\":{\"type\":\"string\",\"description\":\"relative workspace path\"},"
	  "\"offset\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"lines to skip\"},"
	  "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"lines to return\"}},"
	  "\"required\":[\"path\"]}", orch_tool_read },
	{ "glob", "List workspace paths matching a glob pattern (* and ? within a path segment, "
	  "[...] classes, ** for any number of segments).",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"pattern\":{\"type\":\"string\",\"description\":\"e.g. src/**/*.c\"}},"
	  "\"required\":[\"pattern\"]}", orch_tool_glob_run },
	{ "grep", "Search the workspace's text files for lines matching a regular expression "
	  "(PCRE2, UTF-8).",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"pattern\":{\"type\":\"string\"},"
	  "\"path\":{\"type\":\"string\",\"description\":\"one file to search\"},"
	  "\"glob\":{\"type\":\"string\",\"description\":\"the files to search\"},"
	  "\"ignoreCase\":{\"type\":\"boolean\"}},"
	  "\"required\":[\"pattern\"]}", orch_tool_grep_run },
	{ "write_file", "Write a text file to the workspace (at most 1 MiB); it becomes a file "
	  "people can download.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"path\":{\"type\":\"string\",\"description\":\"relative workspace path\"},"
	  "\"content\":{\"type\":\"string\"},"
	  "\"mimeType\":{\"type\":\"string\",\"description\":\"a text type; by default from the name\"}},"
	  "\"required\":[\"path\",\"content\"]}", orch_tool_write },
	{ "image_annotate", "Draw rectangles with labels over a picture of the workspace; the "
	  "annotated picture is stored as an SVG file in the workspace.",
	  "{\"type\":\"object\",\"properties\":{"
	  "\"image_path\":{\"type\":\"string\",\"description\":\"the picture's workspace path\"},"
	  "\"regions\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
	  "\"type\":{\"type\":\"string\",\"enum\":[\"rectangle\"]},"
	  "\"x\":{\"type\":\"number\"},\"y\":{\"type\":\"number\"},"
	  "\"width\":{\"type\":\"number\"},\"height\":{\"type\":\"number\"},"
	  "\"label\":{\"type\":\"string\"}},"
	  "\"required\":[\"x\",\"y\",\"width\",\"height\"]}},"
	  "\"output_path\":{\"type\":\"string\",\"description\":\"default annotated/<name>.svg\"}},"
	  "\"required\":[\"image_path\",\"regions\"]}", orch_tool_annotate },
};

static const struct orch_tool *orch_tool_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof orch_tools / sizeof orch_tools[0]; i++)
		if (strcmp(orch_tools[i].name, name) == 0)
			return &orch_tools[i];
	return NULL;
}

int orch_tool_known(const char *name)
{
	return orch_tool_find(name) != NULL;
}

json_t *orch_tool_schema(const char *name)
{
	const struct orch_tool *t = orch_tool_find(name);

	if (t == NULL)
		return NULL;
	return json_pack("{s:s, s:{s:s, s:s, s:o}}", "type", "function", "function", "name", t->name,
			 "description", t->description, "parameters",
			 json_loads(t->parameters, 0, NULL));
}

json_t *orch_tool_run(struct step_ctx *c, const char *stage_id, const char *name,
		      const json_t *args)
{
	const struct orch_tool *t = orch_tool_find(name);

	if (t == NULL)
		return orch_tool_error("unknown_tool", "there is no tool named %s", name ? name : "");
	if (!json_is_object(args))
		return orch_tool_error("bad_args", "the arguments of %s must be an object", t->name);
	return t->run(c, stage_id, args);
}

static json_t *orch_tool_glob_run(struct step_ctx *c, const char *stage, const json_t *args)
{
	(void)stage;
	return orch_tool_glob(c, args);
}

static json_t *orch_tool_grep_run(struct step_ctx *c, const char *stage, const json_t *args)
{
	(void)stage;
	return orch_tool_grep(c, args);
}

/* --- read_file ------------------------------------------------------------ */

/* An optional integer argument at least min: 0 (with *out), or -1. */
static int orch_tool_int(const json_t *args, const char *key, long long min, long long *out)
{
	const json_t *v = json_object_get(args, key);

	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min)
		return -1;
	*out = json_integer_value(v);
	return 0;
}

/* Where line number `line` (0-based) starts, or len. */
static size_t orch_line_start(const char *p, size_t len, long long line)
{
	size_t i = 0;

	for (; line > 0 && i < len; line--) {
		const char *nl = memchr(p + i, '\n', len - i);

		i = nl ? (size_t)(nl - p) + 1 : len;
	}
	return i;
}

static long long orch_line_count(const char *p, size_t len)
{
	long long n = 0;

	for (size_t i = 0; i < len; i++)
		n += p[i] == '\n';
	return len > 0 && p[len - 1] != '\n' ? n + 1 : n;
}

/* The end of the text returned from start: at most ORCH_READ_MAX bytes,
 * cut after a line when it can be, else on a character boundary. */
static size_t orch_read_cut(const char *p, size_t start, size_t end, int *cut)
{
	size_t lim = start + ORCH_READ_MAX;

	*cut = 0;
	if (end - start <= ORCH_READ_MAX)
		return end;
	*cut = 1;
	for (size_t i = lim; i > start; i--)
		if (p[i - 1] == '\n')
			return i;
	while (lim > start && ((unsigned char)p[lim] & 0xc0) == 0x80)
		lim--;
	return lim;
}

static json_t *orch_read_text(const char *path, const char *mime, const char *p, size_t len,
			      long long offset, long long limit)
{
	size_t start = orch_line_start(p, len, offset), end, next;
	json_t *out;
	int cut;

	end = limit > 0 ? start + orch_line_start(p + start, len - start, limit) : len;
	next = orch_read_cut(p, start, end, &cut);
	out = json_pack("{s:s, s:s, s:I, s:I, s:I, s:s%}", "path", path, "mimeType", mime, "size",
			(json_int_t)len, "lines", (json_int_t)orch_line_count(p, len), "offset",
			(json_int_t)offset, "content", p + start, next - start);
	if (cut || next < len) {
		json_object_set_new(out, "truncated", json_true());
		json_object_set_new(out, "nextOffset",
				    json_integer(offset + orch_line_count(p + start, next - start)));
	}
	return out;
}

static json_t *orch_tool_read(struct step_ctx *c, const char *stage, const json_t *args)
{
	const char *path = orch_ws_path_json(json_object_get(args, "path"));
	long long offset = 0, limit = 0;
	char *mime = NULL;
	void *data = NULL;
	size_t len = 0;
	json_t *out;

	(void)stage;
	if (path == NULL)
		return orch_tool_error("bad_path", "path must be a relative workspace path "
				       "without '..', '.', empty segments or a leading '/'");
	if (orch_tool_int(args, "offset", 0, &offset) < 0 || orch_tool_int(args, "limit", 1, &limit) < 0)
		return orch_tool_error("bad_args", "offset must be an integer >= 0, limit >= 1");
	if (orch_ws_get(c, path, &mime, &data, &len) < 0)
		return orch_tool_error("not_found", "no file %s in the workspace", path);
	if (orch_tool_is_text(data, len))
		out = orch_read_text(path, mime, data, len, offset, limit);
	else
		out = json_pack("{s:s, s:s, s:I, s:b}", "path", path, "mimeType", mime, "size",
				(json_int_t)len, "binary", 1);
	free(mime);
	free(data);
	return out;
}

/* --- write_file ----------------------------------------------------------- */

static const char *orch_mime_by_name(const char *path)
{
	static const char *const map[][2] = {
		{ ".c", "text/x-c" }, { ".h", "text/x-c" }, { ".js", "text/javascript" },
		{ ".mjs", "text/javascript" }, { ".ts", "text/x-typescript" },
		{ ".py", "text/x-python" }, { ".md", "text/markdown" }, { ".json", "application/json" },
		{ ".html", "text/html" }, { ".css", "text/css" }, { ".svg", "image/svg+xml" },
		{ ".xml", "application/xml" }, { ".sh", "text/x-shellscript" },
		{ ".csv", "text/csv" },
	};
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && !strchr(dot, '/') && i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i][0], dot) == 0)
			return map[i][1];
	return "text/plain";
}

/* The types write_file writes: text. */
static int orch_mime_text(const char *m)
{
	static const char *const ok[] = { "application/json", "application/javascript",
					   "application/xml", "image/svg+xml" };

	if (strncmp(m, "text/", 5) == 0 && strlen(m) > 5 && strlen(m) < 32)
		return strchr(m, ' ') == NULL && strchr(m, ';') == NULL;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (strcmp(ok[i], m) == 0)
			return 1;
	return 0;
}

static json_t *orch_tool_write(struct step_ctx *c, const char *stage, const json_t *args)
{
	const char *path = orch_ws_path_json(json_object_get(args, "path"));
	const json_t *content = json_object_get(args, "content");
	const char *mime = json_string_value(json_object_get(args, "mimeType"));
	const char *text = json_string_value(content);
	size_t len = json_string_length(content);
	char err[256];

	if (path == NULL)
		return orch_tool_error("bad_path", "path must be a relative workspace path "
				       "without '..', '.', empty segments or a leading '/'");
	if (text == NULL || strlen(text) != len)
		return orch_tool_error("bad_args", "content must be text (a string without NUL)");
	if (len > ORCH_WRITE_MAX)
		return orch_tool_error("too_large", "content is %zu bytes; write_file takes at most %u",
				       len, ORCH_WRITE_MAX);
	if (mime == NULL)
		mime = orch_mime_by_name(path);
	else if (!orch_mime_text(mime))
		return orch_tool_error("bad_args", "write_file writes text: %s is not a text type", mime);
	if (orch_ws_put(c, path, mime, text, len, stage, err, sizeof err) < 0)
		return orch_tool_ws_error(err);
	return json_pack("{s:s, s:I, s:s, s:s}", "path", path, "size", (json_int_t)len, "assetId",
			 json_string_value(json_object_get(orch_ws_entry(c, path), "assetId")),
			 "mimeType", mime);
}
