/* Keyword lists (see words.h). The text is lower-cased once (ASCII
 * letters only, as strcasestr folds them in the C locale the worker runs
 * in) and each word is looked for with strstr, in place of a
 * case-folding search per word. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/words.h"
#include "util/xmalloc.h"

#define WORDS_STACK 1024   /* texts up to this long are folded on the stack */

static void words_fold(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i] >= 'A' && src[i] <= 'Z' ? (char)(src[i] - 'A' + 'a') : src[i];
	dst[n] = '\0';
}

static int words_find(const char *folded, const char *alternatives)
{
	char word[64];
	const char *p = alternatives, *bar;
	size_t n;

	while (p && *p) {
		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		if (n > 0 && n < sizeof word) {
			words_fold(word, p, n);
			if (strstr(folded, word))
				return 1;
		}
		p += n + (bar != NULL);
	}
	return 0;
}

int words_match_any(const char *text, const char *alternatives)
{
	char stack[WORDS_STACK + 1], *folded;
	size_t n;
	int found;

	if (text == NULL || alternatives == NULL)
		return 0;
	n = strlen(text);
	folded = n <= WORDS_STACK ? stack : xmalloc(n + 1);
	words_fold(folded, text, n);
	found = words_find(folded, alternatives);
	if (folded != stack)
		free(folded);
	return found;
}
