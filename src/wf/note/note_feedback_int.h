/* What the files that apply a feedback's items share (note_feedback.h):
 * the draft being edited, and one function per kind of item. */
#ifndef AV_WF_NOTE_FEEDBACK_INT_H
#define AV_WF_NOTE_FEEDBACK_INT_H
#include <stddef.h>
#include <jansson.h>
#include "text/msg.h"
#include "wf/note/note_feedback.h"

struct note_feedback_run {
	const char *lang;          /* "zh" or "en" */
	int zh;
	const json_t *ctx;         /* borrowed: note_feedback_apply's */
	const json_t *prev;        /* borrowed: the refused draft, or NULL */
	json_t *entry;             /* the draft as it came, before any item */
	json_t *content;           /* borrowed: title and tags edited in place */
	struct note_feedback_body body;
	json_t *banned;            /* the words this round and the run asked to leave out */
	json_t *topic_words;       /* the topic's subject words, those left out aside */
	size_t add_lines;          /* lines of a section added (fewer when a shorter body is asked too) */
};

/* --- note_feedback_run.c: what every kind of item reads of the draft --- */
/* One entry of the report: {done, said}; said is stolen. New reference. */
json_t *note_feedback_said(int done, char *said);
/* The catalogue's text id in the run's language, formatted (msg_fmt):
 * note_feedback_msg(r, id, ...). The caller frees it. */
#define note_feedback_msg(r, ...) msg_fmt((r)->lang, __VA_ARGS__)
/* The body of a draft ({title, body, tags}) in characters; 0 for NULL. */
size_t note_feedback_draft_chars(const json_t *draft);
/* 1 when the draft (title, body or tags) has word, ASCII case ignored. */
int note_feedback_draft_has(const json_t *draft, const char *word);
/* The current draft, the body written back from r->body. Borrowed. */
const json_t *note_feedback_now(struct note_feedback_run *r);
/* Index of the closing paragraph (the last, a single line the writer
 * wrote), or r->body.n when there is none. */
size_t note_feedback_closing(const struct note_feedback_run *r);
/* The body length a shorter or longer item is measured against. */
size_t note_feedback_before(const struct note_feedback_run *r, const json_t *item);
/* Lines of the body having any of terms. */
size_t note_feedback_lines_having(const char *body, const json_t *terms);

/* note_feedback_style.c: the length of a list or step marker at the
 * start of line (① • - 1. 1、 第1步： Step 1:), 0 for none; *step when it
 * is a step's. */
size_t note_feedback_marker(const char *line, int *step);

/* The kinds (note_feedback_apply.c: remove, title, other;
 * note_feedback_edit.c: thing, longer, shorter; note_feedback_style.c:
 * audience, format, tone). Each does the item or says why not: {done,
 * said}. */
json_t *note_feedback_do_remove(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_title(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_shorter(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_longer(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_thing(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_audience(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_format(struct note_feedback_run *r, const json_t *item);
json_t *note_feedback_do_tone(struct note_feedback_run *r, const json_t *item);
/* Whether the draft now does what a done entry of item says. */
int note_feedback_true_edit(struct note_feedback_run *r, const json_t *item);
/* The title an item "title"/"set" gives (cut at a word boundary), or
 * NULL when it cannot be cut. The caller frees it. */
char *note_feedback_title_wanted(const struct note_feedback_run *r, const char *arg, int *cut);

#endif
