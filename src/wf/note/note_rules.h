/* The note workflow's rules, which stand in for its model calls (the
 * prompts of note_llm.c) with no model configured or when a reply cannot
 * be used: the brief, how clear a request is and the writer
 * (note_rules_write.c; the kinds of note it writes: note_rules_kind*.c),
 * the layout and the image plans (note_rules_plan.c),
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
/* The review's own checks (the draft or a section off the topic, a hollow
 * section, a line said twice, against the feedback; note_rules_reader.h)
 * without its counts: {caps: {dimension: most it may score}, overallCap
 * (when the overall may score at most that), failReasons, suggestions}. */
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

/* note_rules_kind.c: the kind of note a topic asks for, and its body. */
enum note_rules_kind {
	NOTE_RULES_KIND_EXPERIENCE,  /* the default: sections of first-hand points */
	NOTE_RULES_KIND_CHECKLIST,   /* 装备清单, packing list: items, why, rough price */
	NOTE_RULES_KIND_RECIPE,      /* 做法, recipe: 用料 with quantities, numbered steps, tips */
	NOTE_RULES_KIND_TRIP,        /* 三日游, itinerary: day by day, by time of day */
	NOTE_RULES_KIND_COMPARE,     /* 怎么选, vs: a table of the options, then how to choose */
	NOTE_RULES_KIND_HOWTO,       /* 怎么提分, how to: numbered steps about the subject */
};
/* The kind a topic asks for by its words (Chinese or English). */
enum note_rules_kind note_rules_kind_of(const char *topic);
/* "experience", "checklist", "recipe", "trip", "compare", "howto". Static. */
const char *note_rules_kind_name(enum note_rules_kind kind);
/* The days a topic asks for (三日游 3, 三天两夜 3, 周末 2, 一日游 1, "3 days
 * in" 3), 0 when it names none. */
int note_rules_kind_days(const char *topic);
/* The points of evidence.points (borrowed) that come from notes about the
 * topic: those whose source title or tags have one of the subject words
 * (strings), each a copy with "hits" (how many of the words). New
 * reference. */
json_t *note_rules_kind_about(const json_t *points, const json_t *subject);

/* A note of a kind, as the writer has it. */
struct buf;
struct note_rules_kind_note {
	enum note_rules_kind kind;
	const char *topic;        /* the topic the note is about */
	int zh;                   /* written in Chinese, else English */
	const json_t *subject;    /* the topic's subject words (strings) */
	const json_t *about;      /* note_rules_kind_about's points */
	const json_t *banned;     /* lines with one of these words are left out */
	unsigned rot;             /* a rewrite's turn: another note or wording */
};
/* The sections of a note of the kind (not EXPERIENCE), appended to b:
 * from the about points of the kind's shape, credited to their notes;
 * without them the kind's frame, built from the topic's own words, with
 * the about points as tips. *sources: the notes credited; *shaped: 1 when
 * the shape came from them. */
void note_rules_kind_body(struct buf *b, const struct note_rules_kind_note *k, size_t *sources,
			  int *shaped);
/* The opening line of such a note: what it is and who it is for (who may
 * be NULL); when no note about the topic had the kind's shape, it says
 * so. Appended to b, with the blank line after it. */
void note_rules_kind_opening(struct buf *b, const struct note_rules_kind_note *k, size_t sources,
			     int shaped, const char *who);
/* The section headings a note of the kind has, as the templates show
 * them; NULL for EXPERIENCE (the category's). New reference. */
json_t *note_rules_kind_heads(enum note_rules_kind kind, int zh);
/* What a heading calls the topic: in Chinese its subject words (the
 * first, or with last the last, when together they are longer than six
 * characters); in English the topic without "how to", cut between words
 * to 28 characters, or with last its last two words. The caller frees it. */
char *note_rules_kind_label(const char *topic, const json_t *subject, int zh, int last);
/* The brief's goal for the topic: the kind's promise, the topic's words
 * said once. The caller frees it. */
char *note_rules_kind_goal(enum note_rules_kind kind, const char *topic, int zh);
/* A title of at most max characters: the topic and a hook of the kind
 * (pick turns it), joined without a word said twice, cut between words.
 * The caller frees it. */
char *note_rules_kind_title(enum note_rules_kind kind, const char *topic, int zh, unsigned pick,
			    size_t max);

/* note_rules_plan.c: text over a picture, cut between words. */
/* At most max characters of s, cut between words with an ellipsis (a
 * first word longer than that kept whole). The caller frees it. */
char *note_rules_line(const char *s, size_t max);
/* The cover line of a title: the title, or its part before a separator
 * (｜, ：, —), else the title cut between words; 14 characters, 28 in
 * English (en). The caller frees it. */
char *note_rules_cover_line(const char *title, int en);
/* A plan for one more picture of paragraph par (its index among the
 * paragraphs), its subject from the paragraph's own words, its
 * composition the composition-th, in the style, tone and palette of the
 * prompt like (another plan of the set): {role, description, paragraphId,
 * paragraphIndex, prompt}. New reference. */
json_t *note_rules_plan_extra(const json_t *par, size_t index, const char *topic, const char *like,
			      size_t composition);

/* note_rules_plan_edit.c: the words of an image prompt and their edits.
 * en: 1 for English (note_rules_plan_en of the text), else Chinese. */
int note_rules_plan_en(const char *text);
size_t note_rules_plan_nstyles(void);
/* The rules' own style i (taken modulo their number). Static. */
const char *note_rules_plan_style(size_t i, int en);
size_t note_rules_plan_ncompositions(void);
const char *note_rules_plan_composition(size_t i, int en);
/* The part of a prompt that says what the picture is for (a cover: text
 * space at the top), and the description's label (封面：, Picture: ). */
const char *note_rules_plan_role(int cover, int en);
const char *note_rules_plan_label(int cover, int en);
/* The style a person's text names (水彩, in watercolour), as an index of
 * the styles one may ask for, or -1; *refused (may be NULL) when the text
 * refuses it (不要水彩). */
int note_rules_plan_style_asked(const char *text, int *refused);
/* Its prompt phrase (NULL for no style) and its short name ("" for none). */
const char *note_rules_plan_asked_style(int k, int en);
const char *note_rules_plan_style_label(int k, int en);
/* 1 when style (a prompt's text) is in the asked style k. */
int note_rules_plan_style_clash(const char *style, int k);
/* The tone a text asks for (暖一点, more minimal), or -1; its prompt
 * phrase and short name; whether a prompt has it. */
int note_rules_plan_tone_asked(const char *text);
const char *note_rules_plan_tone(int t, int en);
const char *note_rules_plan_tone_label(int t, int en);
int note_rules_plan_has_tone(const char *prompt, int t);
/* Edits of a prompt, each a new string the caller frees: the style made
 * the asked style k (the rules' style phrase replaced, else the style
 * added); the refused style k replaced by one of the rules' own; the tone
 * t added (replacing one of the same kind: warmer replaces cooler); the
 * subject (what comes before the composition, else the first clause)
 * replaced; the role phrase made a cover's or an inside picture's. */
char *note_rules_plan_restyle(const char *prompt, int k);
char *note_rules_plan_unstyle(const char *prompt, int k);
char *note_rules_plan_retone(const char *prompt, int t);
char *note_rules_plan_resubject(const char *prompt, const char *subject);
char *note_rules_plan_recast(const char *prompt, int cover);
/* A description with a new subject, labelled as a cover's or not. */
char *note_rules_plan_redescribe(const char *description, const char *subject, int cover);
/* A prompt for subject in the style, tone and palette of the prompt like
 * (what follows its subject and composition), with the composition-th
 * composition, as an inside picture. */
char *note_rules_plan_like(const char *subject, const char *like, size_t composition);

#endif
