/* graph_edit's versions: every workflow published is stored once as a
 * JSON asset of the thread (assets are kept by content, so the same
 * workflow twice is one asset), and the state keeps only the list
 * {"versions": [{"version", "asset"}], "at"}: at most [workflow.graph_edit]
 * history entries, whatever the length of the checkpoint history, so the
 * state stays small however large the workflows. Undo and redo move "at"
 * and publish the version found there under a new, higher number; a new
 * edit after an undo drops the versions after "at". */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "conf/conf.h"
#include "store/store.h"
#include "text/msg.h"
#include "util/jnum.h"
#include "wf/graph_edit/graph_edit_common.h"

static json_t *ge_versions(struct step_ctx *c, long *at)
{
	json_t *h = json_object_get(c->state, "history");

	if (!json_is_object(h)) {
		h = json_pack("{s:[], s:i}", "versions", "at", -1);
		json_object_set_new(c->state, "history", h);
	}
	*at = (long)json_integer_value(json_object_get(h, "at"));
	return json_object_get(h, "versions");
}

static void ge_set_at(struct step_ctx *c, long at)
{
	json_object_set_new(json_object_get(c->state, "history"), "at", json_integer(at));
}

int graph_edit_history_push(struct step_ctx *c, const json_t *wf, json_int_t version)
{
	long at, max = graph_edit_conf(c)->history;
	json_t *versions = ge_versions(c, &at);
	char *text = jtext(wf, JSON_COMPACT | JSON_SORT_KEYS | JNUM_DUMP), id[128];
	const char *shown = json_string_value(json_object_get(json_array_get(versions, (size_t)at), "asset"));

	if (text == NULL)
		return -1;
	if (step_asset_put(c, "application/json", text, strlen(text), id, sizeof id) < 0) {
		free(text);
		return -1;
	}
	free(text);
	if (at >= 0 && shown && strcmp(shown, id) == 0)
		return 0;
	while ((long)json_array_size(versions) > at + 1)
		json_array_remove(versions, json_array_size(versions) - 1);
	json_array_append_new(versions, json_pack("{s:I, s:s}", "version", version, "asset", id));
	while ((long)json_array_size(versions) > max)
		json_array_remove(versions, 0);
	ge_set_at(c, (long)json_array_size(versions) - 1);
	return 0;
}

/* The workflow stored as a version: new reference, or NULL. */
static json_t *ge_load(struct step_ctx *c, const json_t *entry)
{
	const char *id = json_string_value(json_object_get(entry, "asset"));
	char *ctype = NULL;
	void *data = NULL;
	size_t len = 0;
	json_t *wf = NULL;
	int rc;

	if (id == NULL)
		return NULL;
	rc = store_asset_get(step_store(c), id, &ctype, &data, &len);
	if (rc == 0)
		wf = json_loadb(data, len, 0, NULL);
	else if (rc != STORE_NOTFOUND)
		step_store_failed(c, rc);
	free(ctype);
	free(data);
	return wf;
}

static void ge_restored(struct step_ctx *c, json_t *wf, const char *cmd, json_int_t from)
{
	json_int_t version = json_integer_value(json_object_get(c->state, "version")) + 1;
	char id[48], *summary;
	json_t *ev = step_event(c, "workflow_update");

	snprintf(id, sizeof id, "graph.%s.done", cmd);
	summary = msg_fmt(step_lang(c), id, (int)from);
	json_object_set_new(ev, "workflow", json_deep_copy(wf));
	json_object_set_new(ev, "patch", json_array());
	json_object_set_new(ev, "idMap", json_object());
	json_object_set_new(ev, "removedEdges", json_integer(0));
	json_object_set_new(ev, "summary", json_string(summary));
	json_object_set_new(ev, "version", json_integer(version));
	json_object_set_new(ev, "reply", json_string(summary));
	json_object_set_new(ev, "command", json_string(cmd));
	json_object_set_new(ev, "restoredVersion", json_integer(from));
	step_emit(c, ev);
	free(summary);
	json_object_set_new(c->state, "workflow", wf);
	json_object_set_new(c->state, "version", json_integer(version));
}

enum node_rc graph_edit_history(struct step_ctx *c)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(c->state, "turn"), "command")) ?: "";
	int undo = strcmp(cmd, "undo") == 0;
	long at, to;
	json_t *versions = ge_versions(c, &at), *wf;

	to = undo ? at - 1 : at + 1;
	if (to < 0 || to >= (long)json_array_size(versions)) {
		graph_edit_say(c, "message", undo ? "graph.undo.none" : "graph.redo.none");
		return NODE_END;
	}
	wf = ge_load(c, json_array_get(versions, (size_t)to));
	if (wf == NULL) {
		graph_edit_say(c, "message", "graph.version.lost");
		return NODE_END;
	}
	ge_set_at(c, to);
	ge_restored(c, wf, undo ? "undo" : "redo",
		    json_integer_value(json_object_get(json_array_get(versions, (size_t)to), "version")));
	return NODE_END;
}
