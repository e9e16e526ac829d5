/* The note workflow's rules, which stand in for its model calls (the
 * prompts of note_llm.c) with no model configured or when a reply cannot
 * be used: the brief, how clear a request is and the writer
 * (note_rules_write.c), the layout and the image plans (note_rules_plan.c),
 * the review and the router's proposal (note_rules_review.c), the words of
 * a topic (note_rules_topic.c). Each answers with the JSON shape the
 * workflow asks a real model for, from the call's facts only. */
#ifndef AV_NOTE_RULES_H
#define AV_NOTE_RULES_H
#include <stddef.h>
#include <jansson.h>
#include "prov/prov.h"

/* The rules of a task of the workflow ("brief", "review", ...), or NULL
 * (note_llm.c). */
prov_rules_fn note_rules_for(const char *task);

json_t *note_rules_task_brief(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *note_rules_task_note(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *note_rules_task_clarity(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *note_rules_task_layout(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *note_rules_task_image_plans(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *note_rules_task_review(const json_t *facts, const char *text, char *err, size_t errlen);
/* The review's own checks (off the topic, against the feedback, repeated
 * sections) without its counts: {caps: {dimension: most it may score},
 * failReasons, suggestions}. */
json_t *note_rules_task_review_checks(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *note_rules_task_note_route(const json_t *facts, const char *text, char *err, size_t errlen);
/* The note templates (kinds of note: audience, tone, headings) for
 * facts.topic: {chosen, templates}, best first; the first is the one the
 * offline writer uses, the others follow by how many of their words the
 * topic has; each {template, audience, tone, headings, hits, score},
 * score the share of the matched words that are the template's own. */
json_t *note_rules_task_templates(const json_t *facts, const char *text, char *err, size_t errlen);

/* The category of a topic by its words ("旅行", "美食", ...), or NULL when
 * it names none. Lent. */
const char *note_rules_note_category(const char *text);
/* How many CJK character pairs of a also occur in b (each pair of a
 * counted once): the overlap of two Chinese texts without a segmenter. */
size_t note_rules_overlap(const char *a, const char *b);
/* note_rules_topic.c: the words of a topic, in order, each once, as
 * {word, weak}: listed words kept whole, weak for words that only qualify
 * the subject (周末, 攻略, beginner…). New reference. */
json_t *note_rules_topic_words(const char *text);
/* The same words as strings: those naming the subject, or all with
 * with_weak. New reference. */
json_t *note_rules_topic_subject(const char *text, int with_weak);
/* note_rules_request.c: the subject of a request worded as an instruction
 * (写一篇…的小红书笔记, Write a note about …), or the whole text when it
 * names no other. The caller frees it. */
char *note_rules_request_subject(const char *text);
/* note_rules_note.c: the words a feedback asks to leave out ("不要提宠物":
 * 宠物 and the kind's words 猫, 狗…), each once. New reference. */
json_t *note_rules_feedback_banned(const char *feedback);

#endif
