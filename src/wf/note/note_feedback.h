/* A person's feedback on a draft of the note workflow (a reject's
 * payload.feedback), item by item: the words are split into instructions
 * (remove X, say more about Y, add Y, shorter, longer, a tone, who it is
 * for, a format, the title's wording, and anything else kept whole), each
 * of which is then done on a draft, or declined by name with the reason;
 * every claim of the report is checked against the draft it speaks of.
 * It works on any draft, the offline writer's or a model's, so what the
 * person asked for does not depend on which one wrote it. Pure but for
 * the catalogue's wording (text/msg.h). */
#ifndef AV_WF_NOTE_FEEDBACK_H
#define AV_WF_NOTE_FEEDBACK_H
#include <stddef.h>
#include <jansson.h>

#define NOTE_FEEDBACK_ITEMS_MAX 12     /* instructions read from one feedback */
#define NOTE_FEEDBACK_READ_MAX 2000    /* bytes of a feedback read */
#define NOTE_FEEDBACK_TERMS_MAX 24
#define NOTE_FEEDBACK_ADD_LINES 3      /* lines of a section added for more/add */

/* The instructions of a feedback, in order, each once: [{kind, arg,
 * text}], text the person's own words for it, kind one of
 *   "remove"   arg the word (don't mention X, 不要提X…), and words: it
 *              and, for a kind of topic (宠物), that kind's words
 *              (note_rules_feedback_banned)
 *   "more"     arg the subject to say more about (多讲讲Y, say more about Y)
 *   "add"      arg what to add (加上Y, 补充Y, add Y)
 *   "shorter", "longer"   arg "" (chars: see note_feedback_mark)
 *   "tone"     arg the tone word (活泼, 正式, casual…)
 *   "audience" arg who the note is for (学生党, beginners)
 *   "format"   arg "list", "steps" or "table"
 *   "title"    op "set" (arg the title), "shorter", "add" (arg the
 *              words to add) or "rephrase" (another title, none given)
 *   "other"    arg the clause, so it can be declined by name.
 * Clauses are cut at ，。；,; and at joining words (再, 并且, and, also…)
 * when both sides are instructions. At most NOTE_FEEDBACK_ITEMS_MAX; NULL
 * or "" gives []. New reference. */
json_t *note_feedback_items(const char *feedback);

/* The words a more/add item's subject is found by in notes: its own
 * words (SPF和PA: SPF, PA) and a few that say the same (预算: 人均,
 * 花费, 价格…), at most NOTE_FEEDBACK_TERMS_MAX. New reference. */
json_t *note_feedback_terms(const json_t *item);

/* The group of a tone word: 0 lively (活泼, casual…), 1 formal (正式,
 * professional…), 2 warm (温柔, gentle…), 3 direct (干货, to the
 * point…); -1 for none. */
int note_feedback_tone_group(const char *word);

/* A term that stands for any price (100元, 50 块, ¥30, $12). */
#define NOTE_FEEDBACK_PRICE "<price>"

/* 1 when text has term: an ASCII term as a whole word, case ignored (PA
 * is not in "paper"), another as it is; NOTE_FEEDBACK_PRICE any price. */
int note_feedback_has_term(const char *text, const char *term);

/* Marks items with what the draft the person refused was, so they can
 * be done again on a later draft and measured against it: "chars" (its
 * body's characters) on shorter and longer, "base" (its lines about the
 * subject) on more. refused ({title, body, tags}) is borrowed. */
void note_feedback_mark(json_t *items, const json_t *refused);

/* Does or declines each of items (borrowed) on content ({title, body,
 * tags}: edited in place) and returns the report, one entry an item:
 * [{kind, arg, text, done, said}], said one line in the thread's language
 * saying what was done, or that it was not and why. ctx (borrowed):
 *   lang      "zh" or "en"
 *   topic     the topic
 *   previous  the draft the person refused ({title, body, tags})
 *   locked    the person's own paragraphs: kept word for word, and an
 *             item that would change one is declined saying so
 *   points    the research's evidence points [{text, source, likes}]
 *   notes     notes of the corpus about the items' subjects [{title,
 *             body, likes}], those the caller found about the topic
 *   source    "model" or "rules": who wrote the draft.
 * Once all are applied, each item is checked against the content: an
 * entry is done only when the draft does what it says. New reference. */
json_t *note_feedback_apply(json_t *content, const json_t *items, const json_t *ctx);

/* ---- note_feedback_body.c: the body as paragraphs (for the above) ---- */

/* A paragraph of a body being edited. */
struct note_feedback_par {
	char *text;
	int locked;   /* the person's, word for word */
	int fresh;    /* added by this round's feedback */
};

struct note_feedback_body {
	struct note_feedback_par *p;
	size_t n, alloc;
};

/* The body's blank-line separated paragraphs, those equal to a string of
 * locked (borrowed, may be NULL) marked locked. */
void note_feedback_body_read(struct note_feedback_body *b, const char *body, const json_t *locked);
/* The paragraphs joined by blank lines. The caller frees it. */
char *note_feedback_body_text(const struct note_feedback_body *b);
void note_feedback_body_free(struct note_feedback_body *b);
/* Inserts text (copied) at i (i >= n: at the end); returns its index. */
size_t note_feedback_body_insert(struct note_feedback_body *b, size_t i, const char *text, int fresh);
void note_feedback_body_remove(struct note_feedback_body *b, size_t i);
/* Replaces paragraph i's text (copied). */
void note_feedback_body_set(struct note_feedback_body *b, size_t i, const char *text);
/* 1 when paragraph text is a section: a short first line (its heading)
 * above more lines. */
int note_feedback_is_section(const char *text);
/* 1 for a line saying where points come from: （出自笔记《…》） or (From …). */
int note_feedback_is_credit(const char *line);
/* The lines of text, each a new string in a new array. */
json_t *note_feedback_lines(const char *text);
/* The strings of lines joined by "\n". The caller frees it. */
char *note_feedback_join(const json_t *lines);
/* The number the next section heading takes after the body's ("三、" when
 * the last is 二、, "3. " after 2.), "" when the sections are not
 * numbered. The caller frees it. */
char *note_feedback_next_number(const struct note_feedback_body *b);
/* Numbers the sections the writer wrote one after another (一、二、三、
 * or 1. 2. 3.) once some were cut or added; the person's keep theirs,
 * and the count goes on from them. */
void note_feedback_renumber(struct note_feedback_body *b);
/* Characters of the body as its text has them (blank lines included). */
size_t note_feedback_body_chars(const struct note_feedback_body *b);

#endif
