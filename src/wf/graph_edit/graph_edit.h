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
 * Files: graph_edit.c (input, node table), graph_edit_common.h and .c
 * (what the nodes share), graph_edit_plan.c (retrieve, plan),
 * graph_edit_apply.c (apply, edit, publish), graph_edit_history.c
 * (versions, undo, redo). */
#ifndef AV_WF_GRAPH_EDIT_H
#define AV_WF_GRAPH_EDIT_H
#include <jansson.h>
#include "engine/graph.h"
#include "text/msg.h"
#include "wf/graph_edit/graph_edit_common.h"

extern const struct workflow wf_graph_edit;
/* Its words (graph_edit_msg.c). The descriptor needs their number as a
 * constant: GRAPH_EDIT_NMSGS, checked against the rows where they are written. */
#define GRAPH_EDIT_NMSGS 33
extern const struct msg_def graph_edit_msgs[];
extern const size_t graph_edit_nmsgs;

/* [workflow.graph_edit]: the keys this workflow declares (its descriptor's
 * conf), read into struct graph_edit_conf (graph_edit_common.h). */
extern const struct conf_section graph_edit_conf_section;

#endif
