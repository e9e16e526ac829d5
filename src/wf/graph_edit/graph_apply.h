/* Applying a graph_edit patch to a workflow: the project's dialect of
 * RFC 6902 (docs/workflows.md, "Patches"), all or nothing, on a copy.
 *
 * The dialect. A new node is {"op": "add", "path": "/nodes/-", "value":
 * {"localId"?, "type", "displayName"?, "data"?}}: never "id" (generated
 * here) nor "position" (the layout's). A new edge is {"op": "add",
 * "path": "/edges/-", "value": {"source" | "sourceLocalId",
 * "sourceHandle", "target" | "targetLocalId", "targetHandle"}}: never
 * "id". Paths may name an existing node or edge by its id, or a node by a
 * localId of the same patch, instead of an array index ("/nodes/n_x/
 * data/configValues/temperature", "/edges/e_y"); only under /nodes and
 * /edges; an all-digit segment is always an index.
 *
 * The steps: every node of the copy gets data.configValues (objects);
 * the patch is rewritten (localIds taken and checked, ids generated:
 * "n_" / "e_" + 12 base64url characters from libsodium's randombytes,
 * unique in the workflow; edge localIds resolved); the rewritten patch is
 * applied (json/patch.h) with the id hook; edges left to or from a node
 * that is gone are removed, after all operations, so "/edges/N" in the
 * patch meant what it said (an edge the patch itself added to a removed
 * node is an error instead); then graph_validate (no positions needed).
 * What the patch may create is bounded by max_patch_bytes (patch.h's byte
 * budget: patch_too_large) and every string of the result by
 * max_string_bytes (string_too_long).
 *
 * Errors are {"index", "op", "path", "code", "message"}: the operation's
 * index (-1 for the patch as a whole, or when a validation error cannot be
 * traced to one operation), its "op", a JSON Pointer, a stable code and an
 * English sentence (for logs and models). Codes of the dialect, beside
 * those of patch.h and graph_validate.h:
 *   bad_value            a new node or edge that is not an object;
 *   bad_local_id         a localId that is not a non-empty string, or is
 *                        all digits, "-", or longer than 128 bytes;
 *   duplicate_local_id   a localId used twice in one patch;
 *   unknown_local_id     sourceLocalId / targetLocalId naming no new node;
 *   id_given             an "id" in a new node or edge;
 *   position_given       a "position" in a new node (unless allowed);
 *   edge_to_removed_node an edge the patch adds to a node it removes. */
#ifndef AV_WF_GRAPH_APPLY_H
#define AV_WF_GRAPH_APPLY_H
#include <stddef.h>
#include <jansson.h>
#include "wf/graph_edit/graph_validate.h"

#define GRAPH_APPLY_MAX_OPS 1000

struct graph_apply_opts {
	const struct graph_defs *defs;  /* the node library (graph_nodes_find) */
	int allow_position;             /* a person's patch may place a new node */
	/* Ids: NULL gives the random ones; tests give their own (the
	 * function writes a NUL-terminated id of at most 64 bytes). */
	void (*new_id)(void *ctx, const char *prefix, char *out, size_t outlen);
	void *id_ctx;
	size_t max_patch_bytes;         /* 0: PATCH_MAX_BYTES */
	size_t max_string_bytes;        /* 0: GRAPH_STRING_MAX */
};

/* What changed, counted by comparing the ids before and after. */
struct graph_apply_counts {
	int nodes_added, nodes_removed, nodes_changed;
	int edges_added, edges_removed;
};

struct graph_apply_result {
	json_t *workflow;      /* new reference: the result, NULL when errors */
	json_t *patch;         /* new reference: the patch as applied (ids filled in),
				* NULL when the patch was not an array */
	json_t *id_map;        /* new reference: {localId: id} */
	json_t *errors;        /* new reference: [] when it applied */
	int removed_edges;     /* edges removed with their nodes */
	struct graph_apply_counts counts;
};

/* Applies patch (borrowed) to wf (borrowed, unchanged). 0 when the
 * result is valid, else -1 with r->errors filled. r needs
 * graph_apply_result_free either way. */
int graph_apply(const json_t *wf, const json_t *patch, const struct graph_apply_opts *o,
		struct graph_apply_result *r);
void graph_apply_result_free(struct graph_apply_result *r);

/* A random id: prefix + 12 base64url characters (never all digits,
 * since the prefix is not). out must hold 64 bytes. */
void graph_apply_random_id(void *ctx, const char *prefix, char *out, size_t outlen);

/* 1 when s may be a localId (see bad_local_id). */
int graph_apply_local_id_ok(const char *s);

#endif
