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
/* note_rules_write.c: the words a feedback asks to leave out ("不要提宠物":
 * 宠物 and the kind's words 猫, 狗…), each once. New reference. */
json_t *note_rules_feedback_banned(const char *feedback);
/* The same over several replies: every word each of the strings of list
 * (borrowed; not strings are skipped) asked to leave out, and those of
 * first (may be NULL). New reference. */
json_t *note_rules_feedbacks_banned(const json_t *list, const char *first);

/* note_rules_person.c: what the person said outranks the rules. */
/* The topic without its clauses (cut at ，、；) that name a banned word;
 * the topic as it is when every clause does. The caller frees it. */
char *note_rules_person_topic(const char *topic, const json_t *banned);
/* The paragraphs of an edited body the person wrote or changed: those
 * not in the body they were shown, and those of before (the person's
 * from an earlier edit) still there word for word. New reference. */
json_t *note_rules_person_locked(const char *shown, const char *edited, const json_t *before);
/* A new draft's body around the person's paragraphs (locked), each kept
 * word for word in its place in prev: the other paragraphs of prev are
 * replaced by the draft's (a section by a section), the draft's other
 * sections added after them (at most three); when every paragraph of prev
 * is the person's, prev is kept to the byte and the sections follow. The
 * draft's paragraphs like a locked one are left out. The caller frees it. */
char *note_rules_person_merge(const char *prev, const json_t *locked, const char *draft);
/* What changed from one {title, body, tags} to the next: {added, removed,
 * changed} (sections by their heading, else their first words), title
 * {from, to} and tags {added, removed} when they changed. New reference. */
json_t *note_rules_person_changes(const json_t *before, const json_t *after);
/* 1 when such changes are none. */
int note_rules_person_none(const json_t *changes);
/* A print of a draft's title, body and tags (hex). The caller frees it. */
char *note_rules_person_print(const json_t *content);

#endif
