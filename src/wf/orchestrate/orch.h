/* The orchestrate workflow (seed 003), inside: the agent registry and the
 * plan templates (orch_agents.c), the plan and its checks (orch_plan.c),
 * the StageContext and the prompts of a stage (orch_stage.c), the
 * execution of the groups (orch_exec.c) and the node table (orch.c). */
#ifndef AV_ORCH_H
#define AV_ORCH_H
#include <stddef.h>
#include <jansson.h>
#include "engine/graph.h"
#include "text/msg.h"
#include "prov/prov.h"

extern const struct workflow wf_orchestrate;
/* Its words (orch_msg.c). The descriptor needs their number as a
 * constant: ORCH_NMSGS, checked against the rows where they are written. */
#define ORCH_NMSGS 59
extern const struct msg_def orch_msgs[];
extern const size_t orch_nmsgs;

/* ---- orch_agents.c ---- */
struct app;
struct kb;
extern const struct kb_def orch_agents_def;
extern const struct kb_def orch_templates_def;
/* The worker's registry and templates (kb_shelf_get); NULL with err. */
struct kb *orch_agents(struct app *app, char *err, size_t errlen);
struct kb *orch_templates(struct app *app, char *err, size_t errlen);
/* The checks of a registry / a template file (kb_def.check): 0, or -1
 * with err naming the entry ("agent 3 (coder): ..."). */
int orch_agents_check(const json_t *docs, char *err, size_t errlen);
int orch_templates_check(const json_t *docs, char *err, size_t errlen);
/* The names of the tools an agent may list. */
int orch_agents_tool_known(const char *name);

/* ---- orch_plan.c ---- */
/* The longest subtask id (and agent or input name, and name in
 * executionOrder), in bytes, and the longest description, in characters,
 * a plan may hold, from the model or from a person's modify. */
#define ORCH_SUBTASK_ID_MAX 64
#define ORCH_SUBTASK_DESCRIPTION_MAX 2000
/* The checks of a plan {analysis, subtasks, executionOrder, ...} against
 * the registry (known(ctx, id): the agent exists). Each problem is
 * appended to errors (borrowed array) as {"code", "subtask"?, "message"};
 * returns their number. A name or a description past its limit is
 * reported alone (bad_subtask, bad_order), before any other check. */
size_t orch_plan_check(const json_t *plan, int (*known)(void *ctx, const char *agent), void *ctx,
		       json_t *errors);
/* The same with the messages in lang ("zh", "en"; orch_plan_check: "en",
 * what the planner reads), from the message catalogue. */
size_t orch_plan_check_lang(const json_t *plan, int (*known)(void *ctx, const char *agent),
			    void *ctx, const char *lang, json_t *errors);
/* The planner's offline rules (prov_rules_fn, orch_plan_rules.c): facts
 * {task, lang, attachments: [{path, mimeType, size, head?: the first
 * bytes of a text file}], agents: [{id, description}], templates: [{id,
 * subtasks, executionOrder, needsImage}], feedback?, plan?: the plan the
 * feedback rejected}. New reference. */
json_t *orch_plan_rules(const json_t *facts, const char *text, char *err, size_t errlen);
/* A template's plan with its steps in lang (borrowed template). New
 * reference. */
json_t *orch_plan_template(const json_t *tpl, const char *lang);
/* Whether a plan has a step for a vision agent (it needs a picture). */
int orch_plan_needs_image(const json_t *plan);
/* A plan edited by a person (modify): its analysis says so and outlines
 * it in lang, its complexity follows its size, and it names a template
 * only while it is still that template's plan (orig: the plan before the
 * edit). */
void orch_plan_edited(json_t *plan, const json_t *orig, const char *lang);

/* ---- orch_cond.c, orch_expect.c ---- */
/* A problem of one subtask's condition or expectation, for the plan
 * check: its code, the last part of its catalogue id ("orch.plan.<what>",
 * formatted with the subtask's id and arg) and arg. */
struct orch_flaw {
	const char *code;
	const char *what;
	char arg[128];
};
/* The checks of sub's "condition" (none: 0) against the plan's subtasks
 * and sub's own inputs (all borrowed): 0, or -1 with the problem in f. */
int orch_cond_check(const json_t *sub, const json_t *subtasks, struct orch_flaw *f);
/* Whether a condition {input, path, test, value?} holds for data, the
 * input's structuredData (borrowed; NULL: absent). 1 or 0. */
int orch_cond_test(const json_t *cond, const json_t *data);
/* Whether sub's condition holds against the run's stages (borrowed): a
 * condition on an input that is not done sees no data. 1 without one. */
int orch_cond_holds(const json_t *sub, const json_t *stages);
/* The checks of sub's "expect" (none: 0): 0, or -1 with the problem. */
int orch_expect_check(const json_t *sub, struct orch_flaw *f);
/* The reasons structuredData (borrowed; NULL: absent) does not meet
 * expect (borrowed; NULL: nothing expected), in lang. New reference, an
 * empty array when it does. */
json_t *orch_expect_reasons(const json_t *expect, const json_t *data, const char *lang);
/* The reasons joined with "; ". New string. */
char *orch_expect_join(const json_t *reasons);

/* ---- orch_stage.c ---- */
/* seed §2.5 parseStructuredOutput: the object or array in a ```json fence,
 * else the whole text as JSON, else NULL. New reference. */
json_t *orch_structured(const char *text);
/* A stage's facts for its agent (the contract's shape). New reference;
 * state borrowed. */
json_t *orch_stage_facts(struct step_ctx *c, const json_t *agent, const char *stage_id);
/* The first messages of a stage for a real model: the agent's system
 * prompt and the facts as the user's turn. New reference. */
json_t *orch_stage_messages(const json_t *agent, const json_t *facts);
/* The StageContext of a finished stage: new reference. */
json_t *orch_stage_context(struct step_ctx *c, const char *stage_id, const json_t *st,
			   const char *text);

/* ---- orch_exec.c ---- */
enum node_rc orch_execute(struct step_ctx *c);
/* Tools: the function definitions of an agent's tools (new reference),
 * and a tool run (new reference, never NULL). */
json_t *orch_tools_for(const json_t *agent);
json_t *orch_tool_call(struct step_ctx *c, const char *stage_id, const char *name,
		       const json_t *args);
/* An agent's offline rules (NULL: none). */
prov_rules_fn orch_agent_rules(const char *agent_id);

/* [workflow.orchestrate]: the keys this workflow declares (its descriptor's conf). */
struct orch_conf {
	long confirm_plan;
	long stage_retries;
};
extern const struct conf_section orch_conf_section;
const struct orch_conf *orch_conf(struct step_ctx *c);

#endif
