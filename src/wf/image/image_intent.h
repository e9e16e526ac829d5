/* The image workflow's keyword rules: which style a message names, what
 * its picture is of, and whether it adjusts, restyles, redraws or changes
 * one region of the last picture. The planner's offline rules
 * (image_rules.c) answer with them, and the planner (image.c) checks a
 * model's intent against them. image_intent.c holds the adjustment rules,
 * image_subject.c the style lexicon, the restyle and the subject.
 *
 * Built on the rule engine of text/rules_int.h: PCRE2 patterns compiled
 * on first use and kept for the life of the process (image_intent_free()
 * releases them); workers are single-threaded. Text that is not valid
 * UTF-8 simply matches less; nothing here fails on bad input. */
#ifndef AV_IMAGE_INTENT_H
#define AV_IMAGE_INTENT_H
#include "text/rules.h"

/* A style from the lexicon, with its name in both languages. */
struct image_style {
	const char *zh;
	const char *en;
	const char *pattern;       /* the alternation that finds it */
};

/* The style the text names first (by position), or NULL. Lent. */
const struct image_style *image_style(const char *text);
/* The same, with the byte offset where it is named in *start. */
const struct image_style *image_style_at(const char *text, size_t *start);
/* Does text name the style st (any of its words: 宫崎骏 for 吉卜力)? */
int image_style_in(const struct image_style *st, const char *text);
/* "Make it brighter", "change the resolution": an edit of the last picture.
 * rule "adjust_lead" when the message opens with it (再调整一下…, 风格强度
 * 90), "adjust" when the words come later, where they may describe a new
 * picture instead (暖色调的客厅, 一只放大镜). */
struct rules_match image_adjust_intent(const char *text);
/* The message asks for the last picture in another style, the one it
 * names (*style, from the lexicon): rule "restyle" when a verb of change
 * says so (换成水彩风格, 改成油画风, make it pixel art), "style_only" when the
 * message is nothing but a style (水彩风格, 再来一张油画风的). Not matched,
 * *style NULL, otherwise. */
struct rules_match image_restyle(const char *text, const struct image_style **style);
/* The same for a style named at bytes [start, end) of text (a style of
 * the library, image_named.h): "restyle" with a verb of change, else
 * "style_only" when the rest of the message is filler words. */
struct rules_match image_restyle_span(const char *text, size_t start, size_t end);
/* The whole message asks for the last picture again: "重新生成", "再来一张",
 * "换一张", "regenerate", "try again". */
struct rules_match image_regenerate(const char *text);
/* "修改这里", "把这里换成…", "replace this part": a change to one region
 * of the picture, which needs a mask to say where. */
struct rules_match image_region_edit(const char *text);
/* Nothing to picture: work on a text (rule "text_task": translate this,
 * 润色这段文字), placeholder text ("placeholder"), no letters at all
 * ("no_letters"), or Latin words no language has ("gibberish": asdfgh,
 * qwerty). Not matched otherwise. */
struct rules_match image_not_picture(const char *text);
/* What a picture request is of: the text minus the command words, measure
 * words, style words and trailing particles. Never NULL; may be "". The
 * caller frees it. */
char *image_subject(const char *text);
/* The subject of text without the bytes [start, end) (where a style of the
 * library is named, image_named.h). The caller frees it. */
char *image_subject_cut(const char *text, size_t start, size_t end);

/* Where the words of a text begin and end (text/seg.h: ICU's words and
 * the word list's), so a style or a name counts only as whole words. */
struct image_bounds {
	size_t n;
	unsigned char *inside;   /* 1 at a byte offset inside a word */
};
void image_bounds_init(struct image_bounds *b, const char *s, size_t n);
/* 1 when byte offset off is not inside a word (the ends of the text are). */
int image_bounds_ok(const struct image_bounds *b, size_t off);
void image_bounds_free(struct image_bounds *b);

/* Releases the compiled patterns of both files (they are compiled again
 * if used later). */
void image_intent_free(void);
/* image_subject.c's and image_nonpic.c's parts of it. */
void image_subject_free(void);
void image_nonpic_free(void);

#endif
