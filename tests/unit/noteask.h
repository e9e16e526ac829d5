/* The note workflow's offline tasks asked as the workflow asks them, for
 * the unit tests of its rules (t_note_kind, t_note_review, t_note_tasks):
 * a call through the offline provider's ops, carrying the task's rules
 * and facts in JSON mode. */
#ifndef AV_NOTEASK_H
#define AV_NOTEASK_H
#include <jansson.h>
#include "prov/prov.h"
#include "wf/note/note_rules.h"

/* The offline provider's answer to the workflow's task with facts
 * (borrowed). New reference (NULL when the rules gave none). */
__attribute__((unused))
static json_t *noteask(const char *task, json_t *facts)
{
	struct chat_call c = { 0 };
	struct prov_answer a;
	json_t *j;

	c.task = task;
	c.rules = note_rules_for(task);
	c.facts = facts;
	c.json_mode = 1;
	prov_answer_init(&a);
	prov_offline_ops.chat(NULL, NULL, &c, 1, NULL, &a);
	j = json_incref(a.json);
	prov_answer_free(&a);
	return j;
}

/* The same, stealing facts. */
__attribute__((unused))
static json_t *noteask_new(const char *task, json_t *facts)
{
	json_t *j = noteask(task, facts);

	json_decref(facts);
	return j;
}

/* The same with facts as JSON text. */
__attribute__((unused))
static json_t *noteask_text(const char *task, const char *facts)
{
	return noteask_new(task, json_loads(facts, 0, NULL));
}

#endif
