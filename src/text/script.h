/* Scripts and languages of text: the one UTF-8 decoder and the three
 * questions the product asks of text (is it Han, which language is it, is
 * it written without spaces). */
#ifndef AV_TEXT_SCRIPT_H
#define AV_TEXT_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

/* What text_utf8_next stores for a byte that starts no valid sequence. */
#define TEXT_CP_BAD 0xffffffffu

/* Decodes the code point at p (p < end) into *cp and returns its length;
 * returns 1 with TEXT_CP_BAD for a byte that does not start a valid
 * sequence (overlong, surrogate, out of range, truncated). */
size_t text_utf8_next(const unsigned char *p, const unsigned char *end, uint32_t *cp);

/* True for a code point of the Han script (ideographs, compatibility
 * ideographs, radicals, 々 and 〇); kana, Hangul and CJK punctuation are
 * not Han. */
int text_is_han(uint32_t cp);

/* True when the UTF-8 string s (NULL: none) has a Han letter. */
int text_has_han(const char *s);

/* "zh" or "en": Han letters against Latin letters, punctuation, digits,
 * emoji and other scripts ignored. A Chinese sentence with an English word
 * or two is Chinese (four Latin letters weigh as one Han letter); text with
 * neither, or NULL, is "zh", the product's language. */
const char *text_lang(const char *text);

/* True for a code point of a script written without spaces between words:
 * Han, kana (the middle dot ・ aside) and Hangul syllables. */
int text_no_spaces(uint32_t cp);

#endif
