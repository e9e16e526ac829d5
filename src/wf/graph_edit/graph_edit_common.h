/* What the graph_edit workflow's nodes share (see graph_edit.h): its
 * limits, its configuration, the events they say, the node library and
 * the summary of a change (graph_edit_common.c), and the nodes themselves
 * (graph_edit_plan.c, graph_edit_apply.c, graph_edit_history.c). The
 * workflow's descriptor (graph_edit.c) stands above them all. */
#ifndef AV_WF_GRAPH_EDIT_COMMON_H
#define AV_WF_GRAPH_EDIT_COMMON_H
#include <jansson.h>
#include "engine/graph.h"
#include "prov/prov.h"

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

/* [workflow.graph_edit]: the keys this workflow declares (its descriptor's conf). */
struct graph_edit_conf {
	long confirm;
	long history;
	long max_nodes;
	long max_edges;
	long plan_timeout_ms;
	long max_patch_bytes;
	long max_string_bytes;
};
const struct graph_edit_conf *graph_edit_conf(struct step_ctx *c);

#endif
