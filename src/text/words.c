/* Keyword lists (see words.h). */
#include "config.h"
#include <string.h>
#include "text/words.h"

int words_match_any(const char *text, const char *alternatives)
{
	char word[64];
	const char *p = alternatives, *bar;
	size_t n;

	while (text && p && *p) {
		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		if (n > 0 && n < sizeof word) {
			memcpy(word, p, n);
			word[n] = '\0';
			if (strcasestr(text, word))
				return 1;
		}
		p += n + (bar != NULL);
	}
	return 0;
}
