/* The orchestrate workspace (see orch_ws.h): path rules, the files of a
 * thread kept as its assets with their index in the state, and a run's
 * attachments read by media/imgnorm.c from this workspace and thread. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "store/store.h"
#include "util/log.h"
#include "util/safename.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_ws.h"

/* One segment of a path: not empty, not "." or "..". */
static int orch_ws_segment_ok(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	return 1;
}

int orch_ws_path_ok(const char *path)
{
	size_t n, start = 0;

	if (path == NULL || (n = strlen(path)) == 0 || n > ORCH_WS_PATH_MAX)
		return 0;
	for (size_t i = 0; i <= n; i++) {
		unsigned char ch = (unsigned char)path[i];

		if (i < n && (ch < 0x20 || ch == 0x7f || ch == '\\' || safename_invisible(path + i)))
			return 0;
		if (i == n || ch == '/') {
			if (!orch_ws_segment_ok(path + start, i - start))
				return 0;
			start = i + 1;
		}
	}
	return 1;
}

const char *orch_ws_path_json(const json_t *v)
{
	const char *s = json_string_value(v);

	if (s == NULL || json_string_length(v) != strlen(s) || !orch_ws_path_ok(s))
		return NULL;
	return s;
}

/* The workspace object of the state (borrowed), created when asked. */
static json_t *orch_ws_map(struct step_ctx *c, int create)
{
	json_t *ws;

	if (!json_is_object(c->state))
		return NULL;
	ws = json_object_get(c->state, "workspace");
	if (!json_is_object(ws) && create) {
		ws = json_object();
		json_object_set_new(c->state, "workspace", ws);
	}
	return json_is_object(ws) ? ws : NULL;
}

/* Bytes held by the workspace, leaving out the file at skip. */
static long long orch_ws_bytes(const json_t *ws, const char *skip)
{
	const char *k;
	json_t *v;
	long long sum = 0;

	json_object_foreach((json_t *)ws, k, v)
		if (strcmp(k, skip) != 0)
			sum += json_integer_value(json_object_get(v, "size"));
	return sum;
}

/* The quotas for a file of len bytes at path: 0, or -1 with err. */
static int orch_ws_quota(struct step_ctx *c, const json_t *ws, const char *path, size_t len,
			 char *err, size_t errlen)
{
	long long cap = c->run ? step_conf(c)->max_asset_bytes : 0;

	if (json_object_get(ws, path) == NULL && json_object_size(ws) >= ORCH_WS_MAX_FILES) {
		snprintf(err, errlen, "too_many_files: the workspace holds %d files, its limit",
			 ORCH_WS_MAX_FILES);
		return -1;
	}
	if (cap > 0 && orch_ws_bytes(ws, path) + (long long)len > cap) {
		snprintf(err, errlen, "too_large: %zu bytes would take the workspace past its %lld bytes",
			 len, cap);
		return -1;
	}
	return 0;
}

int orch_ws_put(struct step_ctx *c, const char *path, const char *mime, const void *data,
		size_t len, const char *stage_id, char *err, size_t errlen)
{
	char id[STORE_ASSET_ID_LEN + 1];
	json_t *ws, *e;

	if (!orch_ws_path_ok(path)) {
		snprintf(err, errlen, "bad_path: a workspace path is relative, '/'-separated, "
			 "at most %d bytes, without '..', '.', empty segments, backslashes or "
			 "control characters", ORCH_WS_PATH_MAX);
		return -1;
	}
	if ((ws = orch_ws_map(c, 1)) == NULL) {
		snprintf(err, errlen, "store_failed: the thread has no state to hold a workspace");
		return -1;
	}
	if (orch_ws_quota(c, ws, path, len, err, errlen) < 0)
		return -1;
	if (step_asset_put(c, mime && *mime ? mime : "application/octet-stream", data, len, id,
			   sizeof id) < 0) {
		snprintf(err, errlen, "store_failed: the file %s could not be stored", path);
		return -1;
	}
	e = json_pack("{s:s, s:s, s:I}", "assetId", id, "mimeType",
		      mime && *mime ? mime : "application/octet-stream", "size", (json_int_t)len);
	if (stage_id)
		json_object_set_new(e, "stage", json_string(stage_id));
	json_object_set_new(ws, path, e);
	return 0;
}

const json_t *orch_ws_entry(struct step_ctx *c, const char *path)
{
	const json_t *ws = orch_ws_map(c, 0);
	const json_t *e = path && ws ? json_object_get(ws, path) : NULL;

	return json_is_object(e) ? e : NULL;
}

int orch_ws_get(struct step_ctx *c, const char *path, char **mime, void **data, size_t *len)
{
	const json_t *e = orch_ws_entry(c, path);
	const char *id = json_string_value(json_object_get(e, "assetId"));
	int rc;

	*mime = NULL;
	*data = NULL;
	*len = 0;
	if (id == NULL)
		return -1;
	rc = store_asset_get(step_store(c), id, mime, data, len);
	if (rc == 0)
		return 0;
	if (rc != STORE_NOTFOUND) {
		log_error("reading workspace file %s: %s", path, store_strerror(rc));
		step_store_failed(c, rc);
	}
	return -1;
}

static int orch_ws_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *orch_ws_list(struct step_ctx *c)
{
	const json_t *ws = orch_ws_map(c, 0);
	json_t *out = json_array(), *v;
	const char *k, **keys;
	size_t n = 0;

	if (ws == NULL)
		return out;
	keys = xcalloc(json_object_size(ws) + 1, sizeof *keys);
	json_object_foreach((json_t *)ws, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof *keys, orch_ws_cmp);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_deep_copy(json_object_get(ws, keys[i]));

		json_object_set_new(e, "path", json_string(keys[i]));
		json_array_append_new(out, e);
	}
	free(keys);
	return out;
}

/* imgnorm's path reader: a file of this workspace. */
static int orch_ws_path_read(void *ctx, const char *path, void **data, size_t *len)
{
	char *mime = NULL;

	if (!orch_ws_path_ok(path))
		return IMGNORM_NOT_A_PATH;
	if (orch_ws_get(ctx, path, &mime, data, len) < 0)
		return IMGNORM_NO_FILE;
	free(mime);
	return 0;
}

static int orch_ws_asset_ours(void *ctx, const char *id)
{
	return step_asset_ours(ctx, id);
}

int orch_ws_attachment(struct step_ctx *c, const json_t *att, int flags, struct imgnorm *out,
		       char *err, size_t errlen)
{
	struct imgnorm_from from = { .conf = step_conf(c), .store = step_store(c),
				     .asset_ours = orch_ws_asset_ours,
				     .path_get = orch_ws_path_read, .ctx = c };
	int rc = imgnorm_attachment_flags(&from, att, flags, out, err, errlen);

	if (from.store_rc)
		step_store_failed(c, from.store_rc);
	if (from.too_large)
		snprintf(c->err_code, sizeof c->err_code, "image_too_large");
	return rc;
}
