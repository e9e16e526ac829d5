/* Secrets out of messages (see scrub.h). Marks the bytes to hide, then
 * writes each marked run as one "***". */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/scrub.h"
#include "util/xmalloc.h"

#define SCRUB_HEAD 5
#define SCRUB_TAIL 4
#define SCRUB_MIN_KEY 8

/* Words end at spaces, quotes and the punctuation around them in JSON and
 * prose; "...", "*" and UTF-8 (an ellipsis) stay inside a word. */
static int scrub_word_char(unsigned char c)
{
	return c >= 0x80 || (!isspace(c) && !strchr("\"'`,;:()[]{}<>=", c));
}

static size_t scrub_word_start(const char *msg, size_t at)
{
	while (at > 0 && scrub_word_char((unsigned char)msg[at - 1]))
		at--;
	return at;
}

static size_t scrub_word_end(const char *msg, size_t at)
{
	while (msg[at] && scrub_word_char((unsigned char)msg[at]))
		at++;
	return at;
}

static void scrub_mark(char *hide, size_t from, size_t to)
{
	if (to > from)
		memset(hide + from, 1, to - from);
}

/* Marks every occurrence of pat (n bytes) and, with whole_word, the word
 * around it. */
static void scrub_find(const char *msg, char *hide, const char *pat, size_t n, int whole_word)
{
	for (const char *p = strstr(msg, pat); n > 0 && p; p = strstr(p + 1, pat)) {
		size_t at = (size_t)(p - msg);

		if (whole_word)
			scrub_mark(hide, scrub_word_start(msg, at), scrub_word_end(msg, at + n));
		else
			scrub_mark(hide, at, at + n);
	}
}

/* The word after each "Bearer" (any case). */
static void scrub_bearer(const char *msg, char *hide)
{
	for (const char *p = msg; (p = strcasestr(p, "bearer")) != NULL; p += 6) {
		size_t at = (size_t)(p - msg) + 6;

		at += strspn(msg + at, " \t:");
		scrub_mark(hide, at, scrub_word_end(msg, at));
	}
}

static void scrub_key_parts(const char *msg, char *hide, const char *key)
{
	size_t n = key ? strlen(key) : 0;
	char head[SCRUB_HEAD + 1], tail[SCRUB_TAIL + 1];

	if (n == 0)
		return;
	scrub_find(msg, hide, key, n, 0);
	if (n < SCRUB_MIN_KEY)
		return;
	memcpy(head, key, SCRUB_HEAD);
	head[SCRUB_HEAD] = '\0';
	memcpy(tail, key + n - SCRUB_TAIL, SCRUB_TAIL + 1);
	scrub_find(msg, hide, head, SCRUB_HEAD, 1);
	scrub_find(msg, hide, tail, SCRUB_TAIL, 1);
}

void scrub_secret(char *msg, const char *key)
{
	size_t n = strlen(msg), o = 0;
	char *hide = xcalloc(n + 1, 1);

	scrub_key_parts(msg, hide, key);
	scrub_bearer(msg, hide);
	scrub_find(msg, hide, "sk-", 3, 1);
	for (size_t i = 0; i < n;) {
		if (!hide[i]) {
			msg[o++] = msg[i++];
			continue;
		}
		while (i < n && hide[i])
			i++;
		/* "***", or fewer stars for a run shorter than that (a short
		 * key): what is written never passes what was read. */
		for (int k = 0; k < 3 && o < i; k++)
			msg[o++] = '*';
	}
	msg[o] = '\0';
	free(hide);
}
