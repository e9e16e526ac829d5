/* Keyword lists written as "a|b|c" (rule tables, style families). */
#ifndef AV_WORDS_H
#define AV_WORDS_H

/* True when text contains any of the '|'-separated words, ignoring ASCII
 * case. */
int words_match_any(const char *text, const char *alternatives);

#endif
