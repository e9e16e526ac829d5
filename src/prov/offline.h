/* Internal to the offline provider (offline*.c): its tasks and the text
 * functions they share. Every task builds its answer from the call's facts
 * with rules, the user's own words and a hash of the input (to vary the
 * wording), so the same facts always give the same answer. */
#ifndef AV_OFFLINE_H
#define AV_OFFLINE_H
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "prov/prov.h"
#include "text/phrase.h"

/* A task: facts borrowed (may be NULL); text is facts.text or, without
 * it, the last user message ("" when neither). New reference, or NULL
 * with a reason in err. */
typedef prov_rules_fn offline_task_fn;

/* offline_chat.c: the generic tasks. "chat": {reply}, from facts.time
 * (the clock's facts), facts.searchFacts (a text or texts to quote) or
 * the message itself; "summarize": {summary, keywords}. */
json_t *offline_task_chat(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *offline_task_summarize(const json_t *facts, const char *text, char *err, size_t errlen);

#endif
