/* The orchestrate tools that find things in the workspace: glob over its
 * paths and grep over its text files (see orch_tools.h). grep's patterns
 * come from a model, so they are bounded: their length, PCRE2's match,
 * depth and heap limits on every line, the bytes searched and the matches
 * returned. */
#include "config.h"
#define PCRE2_CODE_UNIT_WIDTH 8
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcre2.h>
#include "wf/orchestrate/orch_tool_util.h"
#include "wf/orchestrate/orch_ws.h"

#define ORCH_GLOB_MAX 512            /* bytes of a glob pattern */
#define ORCH_GREP_PATTERN_MAX 1000   /* bytes of a regular expression */
#define ORCH_GREP_MATCHES 200        /* matching lines returned */
#define ORCH_GREP_LINE 300           /* bytes of each line returned */
#define ORCH_GREP_BYTES (64u << 20)  /* bytes searched in one call */
#define ORCH_GREP_MATCH_LIMIT 100000
#define ORCH_GREP_DEPTH_LIMIT 2000
#define ORCH_GREP_HEAP_KIB 4096

/* --- glob ------------------------------------------------------------------ */

/* One segment of the pattern (pn bytes) against one of the path. */
static int orch_glob_seg(const char *p, size_t pn, const char *s, size_t sn)
{
	char pb[ORCH_GLOB_MAX + 1], sb[ORCH_WS_PATH_MAX + 1];

	if (pn > ORCH_GLOB_MAX || sn > ORCH_WS_PATH_MAX)
		return 0;
	memcpy(pb, p, pn);
	pb[pn] = '\0';
	memcpy(sb, s, sn);
	sb[sn] = '\0';
	return fnmatch(pb, sb, 0) == 0;
}

static size_t orch_seg_len(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash ? (size_t)(slash - s) : strlen(s);
}

int orch_glob_match(const char *p, const char *s)
{
	size_t pn, sn;

	if (*p == '\0')
		return *s == '\0';
	pn = orch_seg_len(p);
	if (pn == 2 && p[0] == '*' && p[1] == '*') {
		const char *rest = p[2] == '/' ? p + 3 : p + 2;

		if (*rest == '\0')       /* a trailing ** : everything below */
			return *s != '\0';
		for (const char *t = s;; t++) {
			if (orch_glob_match(rest, t))
				return 1;
			if ((t = strchr(t, '/')) == NULL)
				return 0;
		}
	}
	if (*s == '\0')
		return 0;
	sn = orch_seg_len(s);
	if (!orch_glob_seg(p, pn, s, sn))
		return 0;
	if (p[pn] == '\0' || s[sn] == '\0')
		return p[pn] == '\0' && s[sn] == '\0';
	return orch_glob_match(p + pn + 1, s + sn + 1);
}

/* A glob argument (borrowed from v) or NULL. */
static const char *orch_glob_arg(const json_t *v)
{
	const char *s = json_string_value(v);

	if (s == NULL || *s == '\0' || *s == '/' || json_string_length(v) != strlen(s) ||
	    strlen(s) > ORCH_GLOB_MAX)
		return NULL;
	return s;
}

json_t *orch_tool_glob(struct step_ctx *c, const json_t *args)
{
	const char *pat = orch_glob_arg(json_object_get(args, "pattern"));
	json_t *files, *paths, *f;
	size_t i;

	if (pat == NULL)
		return orch_tool_error("bad_args", "pattern must be a relative glob pattern of at most "
				       "%d bytes", ORCH_GLOB_MAX);
	files = orch_ws_list(c);
	paths = json_array();
	json_array_foreach(files, i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));

		if (orch_glob_match(pat, path))
			json_array_append_new(paths, json_string(path));
	}
	json_decref(files);
	return json_pack("{s:s, s:I, s:o}", "pattern", pat, "count",
			 (json_int_t)json_array_size(paths), "paths", paths);
}

/* --- grep ------------------------------------------------------------------ */

struct orch_grep {
	pcre2_code *re;
	pcre2_match_data *md;
	pcre2_match_context *mc;
	json_t *matches;
	size_t searched;          /* bytes */
	int files, truncated;
	json_t *error;            /* a match that went past the limits */
};

static json_t *orch_grep_compile(struct orch_grep *g, const json_t *args)
{
	const json_t *pv = json_object_get(args, "pattern");
	const char *pat = json_string_value(pv);
	uint32_t opts = PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C;
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE off;
	int code;

	if (pat == NULL || *pat == '\0' || json_string_length(pv) > ORCH_GREP_PATTERN_MAX)
		return orch_tool_error("bad_args", "pattern must be a regular expression of 1 to %d bytes",
				       ORCH_GREP_PATTERN_MAX);
	if (json_is_true(json_object_get(args, "ignoreCase")))
		opts |= PCRE2_CASELESS;
	g->re = pcre2_compile((PCRE2_SPTR)pat, json_string_length(pv), opts, &code, &off, NULL);
	if (g->re == NULL) {
		pcre2_get_error_message(code, msg, sizeof msg);
		return orch_tool_error("bad_pattern", "%s at offset %zu", (char *)msg, (size_t)off);
	}
	g->md = pcre2_match_data_create_from_pattern(g->re, NULL);
	g->mc = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(g->mc, ORCH_GREP_MATCH_LIMIT);
	pcre2_set_depth_limit(g->mc, ORCH_GREP_DEPTH_LIMIT);
	pcre2_set_heap_limit(g->mc, ORCH_GREP_HEAP_KIB);
	return NULL;
}

/* The line's first ORCH_GREP_LINE bytes, cut on a character boundary. */
static json_t *orch_grep_text(const char *p, size_t n)
{
	if (n > ORCH_GREP_LINE) {
		n = ORCH_GREP_LINE;
		while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80)
			n--;
	}
	return json_stringn(p, n);
}

/* One line: 1 when it matches, 0 when not, -1 past the limits. */
static int orch_grep_line(struct orch_grep *g, const char *p, size_t n)
{
	int rc = pcre2_match(g->re, (PCRE2_SPTR)p, n, 0, PCRE2_NO_UTF_CHECK, g->md, g->mc);

	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT)
		g->error = orch_tool_error("pattern_too_complex", "the pattern needs more work than "
					   "allowed on one line; make it simpler");
	else
		g->error = orch_tool_error("bad_pattern", "matching failed (PCRE2 error %d)", rc);
	return -1;
}

/* The lines of one text file. 0, or -1 to stop. */
static int orch_grep_file(struct orch_grep *g, const char *path, const char *p, size_t len)
{
	size_t i = 0;
	long line = 0;

	g->files++;
	while (i < len) {
		const char *nl = memchr(p + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - p) : len, n = end - i;
		int m;

		line++;
		if (n > 0 && p[i + n - 1] == '\r')
			n--;
		if ((m = orch_grep_line(g, p + i, n)) < 0)
			return -1;
		if (m && json_array_size(g->matches) >= ORCH_GREP_MATCHES) {
			g->truncated = 1;
			return -1;
		}
		if (m)
			json_array_append_new(g->matches, json_pack("{s:s, s:i, s:o}", "path", path, "line",
								   (int)line, "text",
								   orch_grep_text(p + i, n)));
		i = end + 1;
	}
	return 0;
}

/* The files to search: one path, a glob's, or all. New reference, or
 * NULL with *err (new). */
static json_t *orch_grep_files(struct step_ctx *c, const json_t *args, json_t **err)
{
	const json_t *pv = json_object_get(args, "path"), *gv = json_object_get(args, "glob");
	json_t *all = orch_ws_list(c), *out = json_array(), *f;
	const char *path = orch_ws_path_json(pv), *glob = orch_glob_arg(gv);
	size_t i;

	*err = NULL;
	if (pv && !json_is_null(pv) && path == NULL)
		*err = orch_tool_error("bad_path", "path must be a relative workspace path");
	else if (gv && !json_is_null(gv) && glob == NULL)
		*err = orch_tool_error("bad_args", "glob must be a relative glob pattern");
	else if (path && orch_ws_entry(c, path) == NULL)
		*err = orch_tool_error("not_found", "no file %s in the workspace", path);
	json_array_foreach(all, i, f) {
		const char *p = json_string_value(json_object_get(f, "path"));

		if (*err == NULL && (path ? strcmp(p, path) == 0 : !glob || orch_glob_match(glob, p)))
			json_array_append_new(out, json_string(p));
	}
	json_decref(all);
	if (*err) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* Searches each text file (binary ones are passed over) until the end,
 * the limits, or the byte budget. */
static void orch_grep_run(struct step_ctx *c, struct orch_grep *g, const json_t *files)
{
	const json_t *f;
	size_t i;

	json_array_foreach(files, i, f) {
		const char *path = json_string_value(f);
		char *mime = NULL;
		void *data = NULL;
		size_t len = 0;
		int stop = 0;

		if (orch_ws_get(c, path, &mime, &data, &len) == 0 && orch_tool_is_text(data, len)) {
			if (g->searched + len > ORCH_GREP_BYTES) {
				g->truncated = 1;
				stop = 1;
			} else {
				g->searched += len;
				stop = orch_grep_file(g, path, data, len) < 0;
			}
		}
		free(mime);
		free(data);
		if (stop)
			break;
	}
}

json_t *orch_tool_grep(struct step_ctx *c, const json_t *args)
{
	struct orch_grep g = { 0 };
	json_t *files, *out;

	g.matches = json_array();
	out = orch_grep_compile(&g, args);
	if (out == NULL && (files = orch_grep_files(c, args, &out)) != NULL) {
		orch_grep_run(c, &g, files);
		json_decref(files);
		out = g.error ? g.error
		      : json_pack("{s:I, s:i, s:O}", "count", (json_int_t)json_array_size(g.matches),
				  "filesSearched", g.files, "matches", g.matches);
		if (!g.error && g.truncated)
			json_object_set_new(out, "truncated", json_true());
	}
	json_decref(g.matches);
	pcre2_match_context_free(g.mc);
	pcre2_match_data_free(g.md);
	pcre2_code_free(g.re);
	return out;
}
