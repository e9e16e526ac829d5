/* The graph_edit workflow (seed 002): a person describes a change to a
 * workflow in words, the model answers with a patch in the project's
 * dialect of RFC 6902 (graph_apply.h), the server applies it on a copy,
 * validates, lays out and publishes the new workflow.
 *
 * Nodes: retrieve -> plan (-> pause, kind "patch", with [workflow.graph_edit]
 * confirm = on) -> apply -> publish; a failed apply goes back to plan once
 * with the errors (repair), then ends with patch_rejected. A turn that
 * brings its own patch runs "edit" (apply, layout, publish in one step);
 * {"command": "undo" | "redo"} runs "history".
 *
 * The state:
 *   workflow   the canvas as it is now (the last version, or the one the
 *              turn brought);
 *   version    the number of the last version published (0: none yet);
 *   history    {"versions": [{"version", "asset"}], "at"}: the versions
 *              kept (each stored once as a JSON asset of the thread), the
 *              one shown; at most [workflow.graph_edit] history of them;
 *   turn       {"text"?, "patch"?, "command"?, "layout"?} this turn's input;
 *   types      the node types retrieved for the request;
 *   plan       {"patch", "reply", "attempt", "source": "model" | "person"};
 *   repair     {"errors", "previousPatch"} while a plan is asked again;
 *   feedback   the person's words after a reject, for the next plan;
 *   pending    {"workflow", "patch", "idMap", "removedEdges", "counts"}
 *              between apply and publish.
 * Files: graph_edit.c (input, node table), graph_edit_plan.c (retrieve,
 * plan), graph_edit_apply.c (apply, edit, publish), graph_edit_history.c
 * (versions, undo, redo). */
#ifndef AV_WF_GRAPH_EDIT_H
#define AV_WF_GRAPH_EDIT_H
#include <jansson.h>
#include "engine/graph.h"
#include "prov/prov.h"

extern const struct workflow wf_graph_edit;

#define GRAPH_EDIT_TEXT_MAX 4000
#define GRAPH_EDIT_RETRIEVE 8

/* The plan prompt and the rules that answer the same task without a model
 * ("graph_plan", facts and answer as docs/workflows.md says): the offline
 * planner of graph_rules.h. */
struct graph_edit_prompt {
	const char *task;
	double temperature;
	const char *system;
	prov_rules_fn rules;
};
extern const struct graph_edit_prompt graph_edit_plan_prompt;

/* A catalogue message (text/msg.h) in the thread's language, formatted,
 * as an event of this node: type "thought_log" or "message". */
void graph_edit_say(struct step_ctx *c, const char *type, const char *id, ...);

/* A durable "message" {role: "assistant", content: text (borrowed)}. */
void graph_edit_message(struct step_ctx *c, const char *text);

/* A patch that could not be applied (errors and patch stolen): asked
 * again once with the errors when the model wrote it, else a
 * patch_rejected event and the end of the turn, the workflow unchanged. */
enum node_rc graph_edit_refused(struct step_ctx *c, json_t *errors, json_t *patch);

/* A person's patch (borrowed) applied to wf (borrowed) as a turn would,
 * to see whether it creates more than [workflow.graph_edit]
 * max_patch_bytes: 0 when it fits (or cannot be told: the step will
 * say why), else -1 with err and c->err_code "patch_too_large", so the
 * turn is refused with 400 before its stream starts. */
int graph_edit_patch_fits(struct step_ctx *c, const json_t *wf, const json_t *patch, char *err,
			  size_t n);

/* The node library as graph_validate wants it; 0, or -1 (the node fails
 * with library_unavailable). */
struct graph_defs;
int graph_edit_defs(struct step_ctx *c, struct graph_defs *defs);

/* The summary of what changed, in the thread's language. New string. */
struct graph_apply_counts;
char *graph_edit_summary(const char *lang, const struct graph_apply_counts *n);

/* History (graph_edit_history.c). Records wf (borrowed) as version
 * `version`, after the one shown (later ones are dropped); 0 or -1 when
 * the store failed. */
int graph_edit_history_push(struct step_ctx *c, const json_t *wf, json_int_t version);

enum node_rc graph_edit_retrieve(struct step_ctx *c);
enum node_rc graph_edit_plan(struct step_ctx *c);
enum node_rc graph_edit_apply(struct step_ctx *c);
enum node_rc graph_edit_publish(struct step_ctx *c);
enum node_rc graph_edit_edit(struct step_ctx *c);
enum node_rc graph_edit_history(struct step_ctx *c);

#endif
