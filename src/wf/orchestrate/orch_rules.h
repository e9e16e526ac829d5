/* The offline agents of the orchestrate workflow: for each agent of the
 * registry but the planner, the rules that stand in for its model when
 * no model is configured (prov_rules_fn, passed with the agent's calls
 * as chat_call.rules).
 *
 * They read the facts the workflow builds for each call (a JSON object,
 * borrowed): {"agent", "task", "stage": {"id", "description"}, "inputs":
 * {stageId: StageContext}, "attachments": [{"path", "mimeType", "size",
 * "data"?: bare base64}], "workspace": [{"path", "mimeType", "size"}],
 * "toolResults": [{"name", "arguments", "result"}], "iteration",
 * "maxIterations", "lang"}. They answer (new reference) either
 * {"toolCalls": [{"name", "arguments"}]}, to call tools and be called
 * again with toolResults extended, or {"answer": text}, the text holding
 * the structured data in a ```json fence. Each answer says plainly what
 * could not be done without a model; an agent that cannot do its step at
 * all declines it, its structured data {"declined": true, "reason"} (the
 * stage is skipped with that reason, and the run does not succeed). They
 * never run anything from the files they read. */
#ifndef AV_WF_ORCH_RULES_H
#define AV_WF_ORCH_RULES_H
#include "prov/prov.h"

/* The rules of agent_id, NULL for the planner and unknown ids. */
prov_rules_fn orch_rules_for(const char *agent_id);

#endif
