/* The chat workflow's offline rules: what answers its model calls when
 * the offline provider stands in for the models (each call carries its
 * rules, chat_call.rules), the route rules the router falls back to, and
 * the keyword rule that tells a request for a Xiaohongshu note, which the
 * reply's suggest code points to the note view. The intent rules are the
 * ones the workflows share (wf/intents.h). */
#ifndef AV_WF_CHAT_RULES_H
#define AV_WF_CHAT_RULES_H
#include <stddef.h>
#include <jansson.h>
#include "prov/prov.h"

/* ---- the route rules (chat_rules.c) ---- */

struct chat_gates {
	int image;     /* [workflow.chat] image_gen on and the image provider usable */
	int search;    /* [workflow.chat] web_search on and the search provider usable */
};

struct chat_route {
	const char *route;      /* "image_gen", "web_search", "time_query", "chat" (static) */
	double confidence;
	const char *source;     /* "model" or "rules" */
	const char *why;        /* the rules' reason: a catalogue id (static), or NULL when the
				 * model's own reason stands */
	const char *rule;       /* the deciding rule's name when source is rules */
	const char *fallback;   /* why the model's route was not taken: a catalogue id
				 * (static), NULL when it was or there was none */
};

/* The rules alone, in seed 004 §6.1's order (image, time, search), each
 * behind its gate (the router falls back to them, and the fallback chains
 * use them too: an image that failed asks them with the image gate
 * closed); a plain conversation is as sure as floor, the bar a route must
 * clear ([workflow.chat] route_min_confidence). */
struct chat_route chat_route_rules(const char *text, const struct chat_gates *g, double floor);

/* ---- the rules by task ---- */

/* The message asks to write what the note workflow writes: "帮我写一篇…的
 * 小红书笔记", "write a Xiaohongshu post about…". */
int chat_rules_note_request(const char *text);

/* The rules of the "route" task (chat_route.c's prompt): {route,
 * confidence, reason, rule} by the intent rules in seed 004 §6.1's order,
 * every route open (the router applies its gates to the answer); a plain
 * conversation is as sure as facts.minConfidence. New reference. */
json_t *chat_rules_route(const json_t *facts, const char *text, char *err, size_t errlen);
/* The rules of the "chat" task (chat_reply.c): {reply}, composed from
 * what the user wrote and what the workflow found (facts.history,
 * facts.searchFacts, facts.vision), saying that it is the offline
 * assistant and what it can do. New reference. */
json_t *chat_rules_reply(const json_t *facts, const char *text, char *err, size_t errlen);

/* The requests the offline reply to text offers to click (a greeting,
 * small talk, "what can you do"): an array of strings in the thread's
 * language (facts.lang), each one that works offline, or NULL when the
 * reply offers none. The same facts give the same examples. New
 * reference. */
json_t *chat_rules_examples(const json_t *facts, const char *text);

/* The rules of the "image_prompt" task (chat_tools.c): {prompt}, the
 * request rewritten by chat_prompt_rewrite. New reference. */
json_t *chat_rules_image_prompt(const json_t *facts, const char *text, char *err, size_t errlen);
/* The rules of the "vision" task (chat_vision.c): what the image reader
 * found in facts.images, and that it cannot see more: {description}. New
 * reference. */
json_t *chat_rules_vision(const json_t *facts, const char *text, char *err, size_t errlen);

/* The workflow's rules by task name ("route", "chat", "image_prompt",
 * "vision"), or NULL. */
prov_rules_fn chat_rules_for(const char *task);

/* A picture request as an image prompt (chat_prompt.c): without its
 * wrapper (请帮我画一张…吗, "can you draw me …, please"), keeping the
 * subject, its style and its details; a style said in a clause of its own
 * joins the subject. The caller frees it. */
char *chat_prompt_rewrite(const char *text);

/* Releases the compiled patterns (they are compiled again if used later). */
void chat_rules_free(void);
void chat_prompt_free(void);
void chat_offline_free(void);

#endif
