/* Small text tools of the rules that stand in for a model (the offline
 * provider's generic tasks, the workflows' own rules): facts, hashes to
 * vary the wording deterministically, keywords, sentences, and bilingual
 * formatting. */
#ifndef AV_PHRASE_H
#define AV_PHRASE_H
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "util/buf.h"

/* Caps on what the tasks write. */
#define PHRASE_TEXT_MAX (64 * 1024)

/* The string member key of facts, borrowed; NULL when absent, not a
 * string, or empty. */
const char *phrase_str(const json_t *facts, const char *key);
/* A 64-bit hash of s and a salt (which varies the picks of one task). */
uint64_t phrase_hash(const char *s, const char *salt);
/* list[(h >> (8 * which)) % n]: a pick that differs per slot. */
const char *phrase_pick(const char *const *list, size_t n, uint64_t h, unsigned which);
/* Characters (code points). */
size_t phrase_chars(const char *s);
/* How alike two texts are, 0 to 1: the Dice coefficient of their
 * character bigrams (code points, punctuation included). Lines that differ
 * only in a name (可乐现在每天… / 橘子现在每天…) come out near 0.9. */
double phrase_alike(const char *a, const char *b);
/* Texts this alike say the same thing (phrase_alike). */
#define PHRASE_ALIKE 0.75
/* At most max characters of s, cut at a character boundary, with an
 * ellipsis when cut. The caller frees it. */
char *phrase_truncate(const char *s, size_t max);
/* Case-insensitive (ASCII) substring test; "" is never found. */
int phrase_has(const char *hay, const char *needle);
/* Whether hay has any of the strings of needles (borrowed), as above. */
int phrase_has_any(const char *hay, const json_t *needles);
/* The text's keywords, most frequent first, at most max: Chinese runs
 * cut into words by the segmenter (text/seg.h), then into phrases at
 * function words and common suffixes (攻略, 推荐…), English words
 * without stop words. New reference (an array of strings). */
json_t *phrase_keywords(const char *text, size_t max);
/* 1 for words that say what kind of text it is (攻略, 推荐, 清单…). */
int phrase_generic(const char *word);
/* The text's sentences, trimmed, at most max. New reference. */
json_t *phrase_sentences(const char *text, size_t max);
/* The keep sentences (strings, borrowed) that have most of the keywords
 * kw (borrowed), in their own order. New reference. */
json_t *phrase_best(const json_t *sentences, const json_t *kw, size_t keep);
/* Appends the strings of a JSON array joined by sep (at most max). */
void phrase_join(struct buf *b, const json_t *arr, const char *sep, size_t max);
/* Appends s to the array unless it is already there (or empty). */
void phrase_add_unique(json_t *arr, const char *s);
/* Appends the Chinese or the English format, given the same arguments. */
void phrase_say(struct buf *b, int zh, const char *zh_fmt, const char *en_fmt, ...);
/* A value that says something: not NULL, null, false, "", {} or []. */
int phrase_present(const json_t *v);
/* The text asks something (question words, a question mark, 吗/呢). */
int phrase_question(const char *text);

#endif
