/* The orchestrate workspace (orch_ws.c) on a real store: the path rules
 * as a table (relative, '/'-separated, no "..", ".", empty segment,
 * backslash, control character or NUL, at most 255 bytes), files put, got
 * back byte for byte, replaced and listed in order with their stage, and
 * the quotas (200 files, [store] max_asset_bytes of them). */
#include "config.h"
#include "orchfix.h"
#include "wf/orchestrate/orch_ws.h"

struct path_case {
	const char *path;
	int ok;
};

static const struct path_case path_cases[] = {
	{ "a.txt", 1 },
	{ "src/main.c", 1 },
	{ "a/b/c/d/e.txt", 1 },
	{ "中文/文件.md", 1 },
	{ ".hidden", 1 },
	{ "a..b", 1 },
	{ "...", 1 },
	{ "name with spaces.txt", 1 },
	{ "", 0 },
	{ "/etc/passwd", 0 },
	{ "/", 0 },
	{ "..", 0 },
	{ "../x", 0 },
	{ "a/../b", 0 },
	{ "a/..", 0 },
	{ ".", 0 },
	{ "./a", 0 },
	{ "a/./b", 0 },
	{ "a//b", 0 },
	{ "a/", 0 },
	{ "a\\b", 0 },
	{ "..\\x", 0 },
	{ "C:\\x", 0 },
	{ "a\tb", 0 },
	{ "a\nb", 0 },
	{ "a\x7f", 0 },
	{ "a\x01", 0 },
};

static void test_paths(void)
{
	char longp[300];
	json_t *v;

	for (size_t i = 0; i < sizeof path_cases / sizeof path_cases[0]; i++) {
		char shown[64];
		size_t n = 0;

		/* Control characters shown as '^', so each case stays one TAP line. */
		for (const char *p = path_cases[i].path; *p && n + 1 < sizeof shown; p++)
			shown[n++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '^' : *p;
		shown[n] = '\0';
		is_int(orch_ws_path_ok(path_cases[i].path), path_cases[i].ok, "path rule: \"%s\"",
		       shown);
	}
	memset(longp, 'a', sizeof longp);
	longp[255] = '\0';
	is_int(orch_ws_path_ok(longp), 1, "path of 255 bytes");
	longp[255] = 'a';
	longp[256] = '\0';
	is_int(orch_ws_path_ok(longp), 0, "path of 256 bytes");
	is_int(orch_ws_path_ok(NULL), 0, "no path");
	v = json_stringn("a\0b", 3);
	ok(orch_ws_path_json(v) == NULL, "a JSON path holding NUL is refused");
	json_decref(v);
	v = json_string("dir/x.c");
	is_str(orch_ws_path_json(v), "dir/x.c", "a JSON path");
	json_decref(v);
	v = json_integer(3);
	ok(orch_ws_path_json(v) == NULL, "a path that is not a string");
	json_decref(v);
}

static void test_put_get(struct ofx *f)
{
	char err[256] = "", *mime = NULL;
	void *data = NULL;
	size_t len = 0;
	json_t *list;

	is_int(orch_ws_put(&f->c, "src/b.c", "text/x-c", "int b;\n", 7, "s2", err, sizeof err), 0,
	       "put src/b.c");
	is_int(orch_ws_put(&f->c, "a.png", "image/png", "\x89PNG", 4, NULL, err, sizeof err), 0,
	       "put a.png (an attachment: no stage)");
	is_int(orch_ws_get(&f->c, "src/b.c", &mime, &data, &len), 0, "get src/b.c");
	ok(len == 7 && memcmp(data, "int b;\n", 7) == 0, "the same bytes back");
	is_str(mime, "text/x-c", "the same type back");
	free(mime);
	free(data);
	is_int(orch_ws_get(&f->c, "nope.c", &mime, &data, &len), -1, "get a missing file");
	ok(mime == NULL && data == NULL && len == 0, "a missing file leaves nothing to free");
	is_int(orch_ws_put(&f->c, "../x", "text/plain", "x", 1, "s1", err, sizeof err), -1,
	       "put ../x is refused");
	ok(strncmp(err, "bad_path:", 9) == 0, "with bad_path (%s)", err);
	is_int(orch_ws_put(&f->c, "src/b.c", "text/x-c", "int bb;\n", 8, "s3", err, sizeof err), 0,
	       "put src/b.c again replaces it");
	list = orch_ws_list(&f->c);
	is_int(json_array_size(list), 2, "two files listed");
	is_str(json_string_value(json_object_get(json_array_get(list, 0), "path")), "a.png",
	       "sorted by path");
	ok(json_object_get(json_array_get(list, 0), "stage") == NULL, "an attachment has no stage");
	is_str(json_string_value(json_object_get(json_array_get(list, 1), "stage")), "s3",
	       "the stage that wrote it last");
	is_int(json_integer_value(json_object_get(json_array_get(list, 1), "size")), 8,
	       "its new size");
	ok(step_asset_ours(&f->c, json_string_value(json_object_get(json_array_get(list, 1),
								     "assetId"))),
	   "its asset belongs to the thread");
	json_decref(list);
}

static void test_quotas(struct ofx *f)
{
	char path[32], err[256] = "", big[5000];
	int failed = 0;

	ofx_thread(f);
	for (int i = 0; i < ORCH_WS_MAX_FILES; i++) {
		snprintf(path, sizeof path, "f/%03d.txt", i);
		failed += orch_ws_put(&f->c, path, "text/plain", path, strlen(path), "s", err,
				      sizeof err) != 0;
	}
	is_int(failed, 0, "%d files fit", ORCH_WS_MAX_FILES);
	is_int(orch_ws_put(&f->c, "f/extra.txt", "text/plain", "x", 1, "s", err, sizeof err), -1,
	       "one more does not");
	ok(strncmp(err, "too_many_files:", 15) == 0, "too_many_files (%s)", err);
	is_int(orch_ws_put(&f->c, "f/000.txt", "text/plain", "y", 1, "s", err, sizeof err), 0,
	       "replacing a file at the limit is allowed");

	ofx_thread(f);
	memset(big, 'z', sizeof big);
	f->app.conf.max_asset_bytes = 4096;
	is_int(orch_ws_put(&f->c, "one", "text/plain", big, 3000, "s", err, sizeof err), 0,
	       "3000 bytes fit in 4096");
	is_int(orch_ws_put(&f->c, "two", "text/plain", big, 2000, "s", err, sizeof err), -1,
	       "2000 more do not");
	ok(strncmp(err, "too_large:", 10) == 0, "too_large (%s)", err);
	is_int(orch_ws_put(&f->c, "one", "text/plain", big, 3500, "s", err, sizeof err), 0,
	       "replacing the 3000 with 3500 fits");
	f->app.conf.max_asset_bytes = 268435456;

	json_decref(f->c.state);
	f->c.state = json_null();
	is_int(orch_ws_put(&f->c, "x", "text/plain", "x", 1, "s", err, sizeof err), -1,
	       "no state, no workspace");
	json_t *l = orch_ws_list(&f->c);
	is_int(json_array_size(l), 0, "and an empty list");
	json_decref(l);
}

int main(void)
{
	struct ofx f;

	test_paths();
	ofx_open(&f, "t_orch_ws");
	test_put_get(&f);
	test_quotas(&f);
	ofx_close(&f);
	return tap_done();
}
