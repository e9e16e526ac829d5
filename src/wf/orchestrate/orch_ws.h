/* The orchestrate workflow's workspace: the files of one thread, which the
 * agents' tools read and write. It lives in the thread's state and store,
 * never on the server's file system: c->state["workspace"] maps each path
 * to {"assetId", "mimeType", "size", "stage"?} (stage: the stage that
 * wrote the file; absent for the run's attachments), and the bytes are
 * assets of the thread (store_asset_put), downloadable as
 * api/assets/<assetId>.
 *
 * Paths are relative and '/'-separated: not empty, at most
 * ORCH_WS_PATH_MAX bytes, no leading or trailing '/', no empty segment
 * ("a//b"), no "." or ".." segment, no backslash, no control character
 * (NUL included: a JSON string holding one is refused by orch_ws_path_json)
 * nor an invisible one (safename_invisible: bidi controls).
 * A thread holds at most ORCH_WS_MAX_FILES files and at most [store]
 * max_asset_bytes of them (the sum of their sizes; the store enforces the
 * same bound over all the thread's assets). */
#ifndef AV_ORCH_WS_H
#define AV_ORCH_WS_H
#include <stddef.h>
#include <jansson.h>
#include "engine/graph.h"
#include "media/imgnorm.h"

#define ORCH_WS_PATH_MAX 255
#define ORCH_WS_MAX_FILES 200

/* 1 when path follows the rules above, else 0. */
int orch_ws_path_ok(const char *path);
/* The path a JSON value holds (borrowed, lent from v) when it is a string
 * without NUL that follows the rules; else NULL. */
const char *orch_ws_path_json(const json_t *v);

/* Stores data (len bytes, copied) at path with its media type, replacing
 * the file that was there; stage_id (may be NULL) is recorded as "stage".
 * c->state must be an object ("workspace" is created in it). 0, or -1
 * with err filled: "bad_path: ...", "too_many_files: ...", "too_large:
 * ...", "store_failed: ..." (the code, a colon, then the words). */
int orch_ws_put(struct step_ctx *c, const char *path, const char *mime, const void *data,
		size_t len, const char *stage_id, char *err, size_t errlen);
/* The bytes at path: *mime and *data malloc'd, the caller frees both.
 * 0, or -1 when there is no such file (or the store cannot read it, which
 * is then recorded with step_store_failed). */
int orch_ws_get(struct step_ctx *c, const char *path, char **mime, void **data, size_t *len);
/* The entry at path {"assetId", "mimeType", "size", "stage"?}: borrowed
 * (from c->state), or NULL. */
const json_t *orch_ws_entry(struct step_ctx *c, const char *path);
/* Every file, sorted by path: new reference [{path, mimeType, size,
 * assetId, stage?}]. */
json_t *orch_ws_list(struct step_ctx *c);

/* An attachment of the run (att borrowed) read as imgnorm reads it
 * (media/imgnorm.h, flags IMGNORM_IMAGE or IMGNORM_ANY_FILE), its paths
 * being this workspace's and its stored assets this thread's. 0 with out
 * filled, or -1 with err; a store failure is recorded
 * (step_store_failed), an SVG too large sets c->err_code image_too_large. */
int orch_ws_attachment(struct step_ctx *c, const json_t *att, int flags, struct imgnorm *out,
		       char *err, size_t errlen);

#endif
