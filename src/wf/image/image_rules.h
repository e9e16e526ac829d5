/* The image workflow's rules, which stand in for its model calls (the
 * planner's intent, the prompt writer, the critic) with no model
 * configured or when a reply cannot be used (image_rules.c). Each answers
 * with the JSON shape the workflow asks a real model for, from the call's
 * facts only. */
#ifndef AV_IMAGE_RULES_H
#define AV_IMAGE_RULES_H
#include <stddef.h>
#include <jansson.h>
#include "prov/prov.h"

/* The rules of a task of the workflow ("intent", "optimize_prompt",
 * "critique"), or NULL. */
prov_rules_fn image_rules_for(const char *task);

json_t *image_rules_task_intent(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *image_rules_task_optimize(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *image_rules_task_critique(const json_t *facts, const char *text, char *err, size_t errlen);
/* The critic's checks alone, which bound a model's review: {defects:
 * [what failed: the subject or the asked style missing from the prompt, a
 * parameter out of range], suggestions}, in the prompt's language. New
 * reference. */
json_t *image_rules_critique_checks(const json_t *facts);

#endif
