/* What the offline planner's files share (orch_plan_rules.c chooses a
 * plan from the task, orch_plan_edit.c applies a person's feedback to a
 * plan and orders any plan by its inputs): the roles the planner knows
 * (an agent, the words that call for it, its step's words in both
 * languages, and which stages it reads), the words of its analyses. Not
 * a contract for other modules: orch.h is. */
#ifndef AV_WF_ORCH_PLAN_INT_H
#define AV_WF_ORCH_PLAN_INT_H
#include <stddef.h>
#include <jansson.h>

/* Which stages a role reads: a maker reads nothing before it; a fixer
 * (coder, annotator) reads the makers; the test writer the code or the
 * findings; a reader (documenter < evaluator < coordinator) everything
 * before it, so it runs after them. */
enum orch_rank { ORCH_MAKER = 1, ORCH_FIXER, ORCH_TESTER, ORCH_DOCS, ORCH_JUDGE, ORCH_MERGE };

struct orch_role {
	const char *agent, *id;
	enum orch_rank rank;
	const char *en, *zh;          /* the step's description */
	const char *name_en, *name_zh; /* what people call the step */
	const char *words[16];         /* words of a task or feedback that name it */
};

/* The role of an agent id, or NULL. */
const struct orch_role *orch_role_of(const char *agent);
/* The roles, in the table's order, for a loop: NULL past the end. */
const struct orch_role *orch_role_at(size_t i);
/* Whether text names the role (words matched at a word start for Latin
 * letters, anywhere for Chinese); its place in *at (may be NULL). */
int orch_role_named(const struct orch_role *r, const char *text, size_t *at);
/* Whether one of words occurs in text as orch_role_named matches. */
int orch_text_has(const char *text, const char *const *words, size_t *at);

/* "zh" or "en" from the facts' lang. */
const char *orch_plan_lang(const json_t *facts);
/* The words of the planner in lang (the stand-in model's words). */
const char *orch_plan_say(const char *lang, const char *id);
char *orch_plan_sayf(const char *lang, const char *id, ...);

/* A new step of role r with inputs (stolen), its id unique in plan. */
json_t *orch_plan_step_new(const json_t *plan, const struct orch_role *r, json_t *inputs,
			   const char *lang);
/* Adds role r's step to plan with the inputs its rank reads, and adds it
 * to the inputs of the readers after it; the step's id is returned (lent
 * by the plan). */
const char *orch_plan_add_role(json_t *plan, const struct orch_role *r, const char *lang);
/* Removes the step id, from the order and from every input and
 * condition. */
void orch_plan_remove(json_t *plan, const char *id);
/* executionOrder from the steps' inputs: each step in the group after
 * its last input. A merge step's description names its inputs again. */
void orch_plan_order(json_t *plan, const char *lang);
/* estimatedComplexity by the plan's size. */
void orch_plan_complexity(json_t *plan);
/* The plan's groups as people read them ("review → fix, tests →
 * summary"). Caller frees. */
char *orch_plan_outline(const json_t *plan, const char *lang);

/* The feedback of a rejected plan applied to it (orch_plan_edit.c): a new
 * plan whose analysis says what was added, removed or changed, or, when
 * nothing in the feedback could be applied, the same plan with an
 * analysis that says so. New reference. */
json_t *orch_plan_feedback(const json_t *prev, const char *feedback, const char *lang);

#endif
