/* graph_edit's apply, repair and publish: the planned (or the person's)
 * patch applied on a copy of the workflow (graph_apply.h), a failure sent
 * back to the model once, then refused with patch_rejected; a valid
 * result laid out (graph_layout.h), recorded as a version and published
 * as workflow_update. A patch turn does it all in one step ("edit"). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "text/msg.h"
#include "wf/graph_edit/graph_apply.h"
#include "wf/graph_edit/graph_edit_common.h"
#include "wf/graph_edit/graph_layout.h"
#include "wf/graph_edit/graph_nodes.h"

/* The last words of a refusal: the first error's message. */
static void ge_rejected_event(struct step_ctx *c, json_t *errors, json_t *patch)
{
	json_t *ev = step_event(c, "patch_rejected"), *first = json_array_get(errors, 0);
	char *msg = msg_fmt(step_lang(c), "graph.rejected",
			    json_string_value(json_object_get(first, "message")) ?: "",
			    (int)json_array_size(errors));

	json_object_set_new(ev, "errors", errors);
	json_object_set_new(ev, "patch", patch);
	json_object_set_new(ev, "message", json_string(msg));
	step_emit(c, ev);
	graph_edit_message(c, msg);
	free(msg);
}

enum node_rc graph_edit_refused(struct step_ctx *c, json_t *errors, json_t *patch)
{
	json_t *plan = json_object_get(c->state, "plan");
	int by_model = strcmp(json_string_value(json_object_get(plan, "source")) ?: "", "model") == 0;

	if (by_model && json_integer_value(json_object_get(plan, "attempt")) < 2) {
		graph_edit_say(c, "thought_log", "graph.plan.repair", (int)json_array_size(errors));
		json_object_set_new(c->state, "repair", json_pack("{s:o, s:o}", "errors", errors,
								   "previousPatch", patch));
		c->next = "plan";
		return NODE_NEXT;
	}
	json_object_set_new(c->state, "repair", json_null());
	ge_rejected_event(c, errors, patch);
	return NODE_END;
}

/* The options of every apply: the library and the limits. */
static void ge_opts(struct step_ctx *c, struct graph_defs *defs, int allow_position,
		    struct graph_apply_opts *o)
{
	memset(o, 0, sizeof *o);
	o->defs = defs;
	o->allow_position = allow_position;
	o->max_patch_bytes = (size_t)graph_edit_conf(c)->max_patch_bytes;
	o->max_string_bytes = (size_t)graph_edit_conf(c)->max_string_bytes;
}

int graph_edit_patch_fits(struct step_ctx *c, const json_t *wf, const json_t *patch, char *err,
			  size_t n)
{
	struct graph_defs defs;
	struct graph_apply_opts o;
	struct graph_apply_result r;
	json_t *e;
	size_t i;
	int fits = 1;

	if (graph_edit_defs(c, &defs) < 0)
		return 0;   /* the step says library_unavailable */
	ge_opts(c, &defs, 1, &o);
	graph_apply(wf, patch, &o, &r);
	json_array_foreach(r.errors, i, e)
		if (fits && strcmp(json_string_value(json_object_get(e, "code")) ?: "",
				   "patch_too_large") == 0) {
			fits = 0;
			snprintf(err, n, "patch operation %lld (%s): %s",
				 (long long)json_integer_value(json_object_get(e, "index")),
				 json_string_value(json_object_get(e, "op")) ?: "",
				 json_string_value(json_object_get(e, "message")) ?: "");
			snprintf(c->err_code, sizeof c->err_code, "patch_too_large");
		}
	graph_apply_result_free(&r);
	return fits ? 0 : -1;
}

/* Applies patch (borrowed) to the state's workflow: the result in
 * state.pending and 1, or 0 when it was refused (errors copied out). */
static int ge_try(struct step_ctx *c, const json_t *patch, int allow_position, json_t **errors)
{
	struct graph_defs defs;
	struct graph_apply_opts o;
	struct graph_apply_result r;
	int ok;

	ge_opts(c, &defs, allow_position, &o);
	if (graph_edit_defs(c, &defs) < 0) {
		*errors = json_pack("[{s:i, s:s, s:s, s:s, s:s}]", "index", -1, "op", "", "path", "",
				    "code", "library_unavailable", "message",
				    "the node library could not be loaded");
		return 0;
	}
	ok = graph_apply(json_object_get(c->state, "workflow"), patch, &o, &r) == 0;
	if (ok)
		json_object_set_new(c->state, "pending", json_pack("{s:O, s:O, s:O, s:i, s:{s:i, s:i, s:i, s:i, s:i}}",
			"workflow", r.workflow, "patch", r.patch, "idMap", r.id_map, "removedEdges",
			r.removed_edges, "counts", "nodesAdded", r.counts.nodes_added, "nodesRemoved",
			r.counts.nodes_removed, "nodesChanged", r.counts.nodes_changed, "edgesAdded",
			r.counts.edges_added, "edgesRemoved", r.counts.edges_removed));
	else
		*errors = json_incref(r.errors);
	graph_apply_result_free(&r);
	return ok;
}

/* The person's answer to the pause: reject plans again with their words,
 * modify takes their patch. 1 when the node is done (c->next set). */
static int ge_decision(struct step_ctx *c, enum node_rc *rc)
{
	const char *kind = json_string_value(json_object_get(c->resume, "kind"));
	const char *action = json_string_value(json_object_get(c->resume, "action")) ?: "";
	const json_t *payload = json_object_get(c->resume, "payload");
	json_t *plan = json_object_get(c->state, "plan"), *edited = json_object_get(payload, "patch");
	const char *fb = json_string_value(json_object_get(payload, "feedback"));

	if (c->resume == NULL || kind == NULL || strcmp(kind, "patch") != 0)
		return 0;
	if (strcmp(action, "reject") == 0) {
		json_object_set_new(c->state, "feedback", fb && *fb ? json_string(fb) : json_null());
		json_object_set_new(c->state, "repair", json_null());
		graph_edit_say(c, "thought_log", "graph.confirm.rejected");
		c->next = "plan";
		*rc = NODE_NEXT;
		return 1;
	}
	if (strcmp(action, "modify") == 0) {
		if (!json_is_array(edited)) {
			graph_edit_say(c, "message", "graph.modify.invalid");
			c->interrupt = step_interrupt_new("patch", msg_get(step_lang(c), "graph.ask.patch"),
							  "apply", json_pack("{s:O}", "patch",
									     json_object_get(plan, "patch")));
			*rc = NODE_INTERRUPT;
			return 1;
		}
		json_object_set(plan, "patch", edited);
		json_object_set_new(plan, "source", json_string("person"));
	}
	return 0;
}

enum node_rc graph_edit_apply(struct step_ctx *c)
{
	json_t *patch, *errors = NULL;
	enum node_rc rc;

	if (ge_decision(c, &rc))
		return rc;
	patch = json_object_get(json_object_get(c->state, "plan"), "patch");
	if (!ge_try(c, patch, 0, &errors))
		return graph_edit_refused(c, errors, json_deep_copy(patch));
	json_object_set_new(c->state, "repair", json_null());
	c->next = "publish";
	return NODE_NEXT;
}

static void ge_size(const json_t *node, void *ctx, int *w, int *h)
{
	graph_node_size(graph_nodes_find(ctx, json_string_value(json_object_get(node, "type")) ?: ""), w, h);
}

static struct graph_apply_counts ge_counts(const json_t *j)
{
	struct graph_apply_counts n = {
		(int)json_integer_value(json_object_get(j, "nodesAdded")),
		(int)json_integer_value(json_object_get(j, "nodesRemoved")),
		(int)json_integer_value(json_object_get(j, "nodesChanged")),
		(int)json_integer_value(json_object_get(j, "edgesAdded")),
		(int)json_integer_value(json_object_get(j, "edgesRemoved")),
	};
	return n;
}

enum node_rc graph_edit_publish(struct step_ctx *c)
{
	json_t *pending = json_object_get(c->state, "pending"), *wf, *ev;
	const char *mode = json_string_value(json_object_get(json_object_get(c->state, "turn"), "layout"));
	json_int_t version = json_integer_value(json_object_get(c->state, "version"));
	struct graph_apply_counts n = ge_counts(json_object_get(pending, "counts"));
	struct graph_defs defs;
	char err[200], *summary;
	const char *reply;

	if (!json_is_object(pending))
		return step_fail(c, "nothing_to_publish", "no applied patch waits to be published");
	graph_edit_defs(c, &defs);
	wf = json_deep_copy(json_object_get(pending, "workflow"));
	graph_layout(wf, mode && strcmp(mode, "all") == 0 ? GRAPH_LAYOUT_ALL : GRAPH_LAYOUT_NEW,
		     defs.ctx ? ge_size : NULL, defs.ctx, err, sizeof err);
	if (graph_edit_history_push(c, json_object_get(c->state, "workflow"), version) < 0 ||
	    graph_edit_history_push(c, wf, version + 1) < 0) {
		json_decref(wf);
		return step_fail(c, "store_failed", "the new version could not be stored");
	}
	summary = graph_edit_summary(step_lang(c), &n);
	ev = step_event(c, "workflow_update");
	json_object_set_new(ev, "workflow", json_deep_copy(wf));
	json_object_set(ev, "patch", json_object_get(pending, "patch"));
	json_object_set(ev, "idMap", json_object_get(pending, "idMap"));
	json_object_set(ev, "removedEdges", json_object_get(pending, "removedEdges"));
	json_object_set_new(ev, "summary", json_string(summary));
	json_object_set_new(ev, "version", json_integer(version + 1));
	reply = json_string_value(json_object_get(json_object_get(c->state, "plan"), "reply"));
	json_object_set_new(ev, "reply", json_string(reply && *reply ? reply : summary));
	step_emit(c, ev);
	free(summary);
	json_object_set_new(c->state, "workflow", wf);
	json_object_set_new(c->state, "version", json_integer(version + 1));
	json_object_set_new(c->state, "pending", json_null());
	return NODE_END;
}

/* A turn with the person's own patch: apply, lay out, publish at once. */
enum node_rc graph_edit_edit(struct step_ctx *c)
{
	json_t *patch = json_object_get(json_object_get(c->state, "turn"), "patch"), *errors = NULL;

	json_object_set_new(c->state, "plan", json_pack("{s:O, s:s, s:i, s:s}", "patch", patch, "source",
							 "person", "attempt", 1, "reply", ""));
	if (!ge_try(c, patch, 1, &errors))
		return graph_edit_refused(c, errors, json_deep_copy(patch));
	return graph_edit_publish(c);
}
