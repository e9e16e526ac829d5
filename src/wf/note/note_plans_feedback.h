/* A reject's feedback at the image plans pause, item by item: what it
 * asks (move, drop or redraw a picture, another style or tone, more or
 * fewer pictures, or something else), each item made on the plans or
 * declined with the reason, and the report the next plans pause carries
 * (ask_user.context.feedback: [{kind, arg, done, said}]). Pure: the
 * workflow (note_images.c) emits the report's sentences as progress. */
#ifndef AV_WF_NOTE_PLANS_FEEDBACK_H
#define AV_WF_NOTE_PLANS_FEEDBACK_H
#include <stddef.h>
#include <jansson.h>

/* A picture named in the feedback: its number as shown (1, 2…), or one
 * of these. */
#define NOTE_PF_LAST (-1)    /* 最后一张, the last picture */
#define NOTE_PF_COVER (-2)   /* 封面, the cover: the first as it stands */

/* The items of a feedback, in order, each {kind, text (the words it came
 * from), ...}: reorder {from, to} or {swap: [a, b]}; drop {which};
 * describe {which, subject}; style {style, refused} or {tone}; count
 * {add} or {total}; other. Pictures are numbered as shown, or
 * NOTE_PF_LAST / NOTE_PF_COVER. New reference ([] for no feedback). */
json_t *note_plans_feedback_split(const char *feedback);

/* 1 when items has at least one item and none of kind other: every item
 * is a change made on the plans shown. */
int note_plans_feedback_all_known(const json_t *items);

struct note_plans_fb {
	const json_t *shown;  /* the plans the person rejected (borrowed) */
	const json_t *pars;   /* the note's paragraphs {id, index, text, heading} */
	const char *topic;
	const char *lang;     /* of the report's sentences: "zh" or "en" */
	size_t max;           /* the most pictures a note may have */
};

/* Makes each item on plans (an array of plan objects, changed in place:
 * plans from the model or the rules after the reject), or finds it
 * already made, or declines it; afterwards the first plan is the cover
 * (its prompt and description say so), and each plan carries "_from",
 * the number it had among the shown plans (0 for a picture added). The
 * report: [{kind, arg, done, said, text}], one per item (arg: what it
 * names, "3->1", "2", "1: 一只橘猫"; said: what was done or why not, in
 * fb->lang; text: the person's words it came from). New reference. */
json_t *note_plans_feedback_apply(json_t *plans, const json_t *items, const struct note_plans_fb *fb);

/* What the person asked of single pictures and of the set's tone, to be
 * kept when the plans are drawn again: asks is {subjects: {paragraphId:
 * subject}, tones: [tone]} (note_rules_plan_tone_asked's numbers), in
 * the state. remember adds what a report made on plans (after
 * note_plans_feedback_apply, before the plans are cleaned; asks changed
 * in place); keep makes it on new plans (changed in place). */
void note_plans_feedback_remember(json_t *asks, const json_t *plans, const json_t *items, const json_t *report);
void note_plans_feedback_keep(json_t *plans, const json_t *asks);

/* The layout's entries (layoutSpec, textOverlayPlan: objects with
 * imageSeq) for plans after note_plans_feedback_apply: each follows its
 * picture (imageSeq renumbered), a dropped picture's entry goes, the
 * cover's title line stays on the first picture and a picture that is no
 * longer the cover gets its paragraph's line (pars: the note's
 * paragraphs). New reference. */
json_t *note_plans_feedback_rekey(const json_t *entries, const json_t *plans, const json_t *pars);

#endif
