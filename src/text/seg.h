/* Word segmentation of UTF-8 text. Chinese (and any text) goes through
 * ICU's dictionary-based word break for "zh"; then consecutive pieces
 * whose concatenation is a word of our own list (etc/words.txt, [kb]
 * words) are joined, the longest first, so the words ICU's dictionary
 * splits (金毛犬, 测评…) stay whole. Spaces, punctuation and emoji
 * are not words; English words are ICU's words, case kept (callers that
 * need lower case fold it). Invalid UTF-8 separates words. A process opens
 * one break iterator, on first use, and keeps it until exit. */
#ifndef AV_TEXT_SEG_H
#define AV_TEXT_SEG_H

#include <stddef.h>
#include <jansson.h>

/* Text is segmented in parts of at most this many bytes, cut between
 * words where possible. */
#define TEXT_SEG_CHUNK 4096
/* The longest listed word, in bytes, and the most pieces joined into one. */
#define TEXT_SEG_WORD_MAX 64
#define TEXT_SEG_JOIN_MAX 8

/* One word: n bytes at word (not NUL-terminated); han is 1 when it
 * starts with a Han character. */
typedef void (*text_seg_fn)(void *ctx, const char *word, size_t n, int han);

/* Calls fn for each word of the len bytes at text, in order. Returns the
 * number of words. */
size_t text_seg(const char *text, size_t len, text_seg_fn fn, void *ctx);

/* The words of a NUL-terminated string (NULL: none): a new array of
 * strings. */
json_t *text_seg_words(const char *text);

/* A word's place in the text given to text_seg_split. */
struct text_word {
	size_t off, len;
};

/* The words of the n bytes at s, in order: a new array the caller frees,
 * its length in *count (NULL with 0 for none). */
struct text_word *text_seg_split(const char *s, size_t n, size_t *count);

/* Reads the word list: one word a line, blank lines and lines starting
 * with # ignored, surrounding spaces trimmed. Replaces the list in use.
 * path NULL clears the list (ICU's words only). 0, or -1 with err naming
 * the file (and line) and what is wrong; on error the list in use is kept. */
int text_seg_load(const char *path, char *err, size_t errlen);

/* The number of words in the list in use. */
size_t text_seg_listed_count(void);

/* True when the n bytes at w are a word of the list. */
int text_seg_listed(const char *w, size_t n);

/* Closes the break iterator and frees the list (also done at exit). */
void text_seg_close(void);

#endif
