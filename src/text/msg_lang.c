/* The language of a new thread (see msg.h). */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text/msg.h"
#include "text/script.h"

/* True when text has a Han or a Latin letter: what text_lang weighs. */
static int msg_has_letters(const char *text)
{
	const unsigned char *p = (const unsigned char *)(text ? text : "");
	const unsigned char *end = p + strlen((const char *)p);

	while (p < end) {
		uint32_t c;

		p += text_utf8_next(p, end, &c);
		if (text_is_han(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return 1;
	}
	return 0;
}

/* A line that reads as code or a log rather than someone's words: it has
 * code's punctuation, or starts as a comment, a stack frame, a prompt. */
static int msg_code_line(const char *line)
{
	static const char *const starts[] = { "#", "//", "/*", "*", "at ", "File \"", "Traceback", "$ ",
					      ">>> ", "```", NULL };

	line += strspn(line, " \t");
	if (strpbrk(line, "{};=") != NULL)
		return 1;
	for (const char *const *s = starts; *s; s++)
		if (strncmp(line, *s, strlen(*s)) == 0)
			return 1;
	return 0;
}

/* The language of text's first line of words (with letters, not code or a
 * log): the person's own words; a log, code or a quotation pasted before
 * or after them does not make the thread another language. The whole
 * text's letters when no line reads as words. At most MSG_LINE_MAX bytes
 * of a line are weighed. */
#define MSG_LINE_MAX 512
static const char *msg_first_line_lang(const char *text)
{
	char line[MSG_LINE_MAX + 1];

	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof line, "%.*s", (int)(n < MSG_LINE_MAX ? n : MSG_LINE_MAX), p);
		if (msg_has_letters(line) && !msg_code_line(line))
			return text_lang(line);
		p += n + (p[n] == '\n');
	}
	return text_lang(text);
}

/* The q of one Accept-Language item's parameters (";q=0.5"): 1 when there
 * is none, 0 for a malformed one. */
static double msg_accept_q(const char *params, size_t n)
{
	const char *q = memchr(params, 'q', n);
	char tmp[16];
	char *end;
	double v;

	if (q == NULL)
		return 1;
	q++;
	while (q < params + n && *q == ' ')
		q++;
	if (q >= params + n || *q != '=')
		return 0;
	q++;
	n = (size_t)(params + n - q);
	if (n == 0 || n >= sizeof tmp)
		return 0;
	memcpy(tmp, q, n);
	tmp[n] = '\0';
	v = strtod(tmp, &end);
	while (*end == ' ')
		end++;
	return *end == '\0' && v >= 0 && v <= 1 ? v : 0;
}

const char *msg_accept_lang(const char *header)
{
	const char *p = header, *best = NULL;
	double best_q = 0;

	while (p && *p) {
		size_t len = strcspn(p, ","), tag;
		const char *lang = NULL;
		double q;

		while (len > 0 && *p == ' ')
			p++, len--;
		tag = strcspn(p, ";, ");
		if (tag > len)
			tag = len;
		if (tag >= 2 && strncasecmp(p, "zh", 2) == 0 && (tag == 2 || p[2] == '-'))
			lang = "zh";
		else if (tag >= 2 && strncasecmp(p, "en", 2) == 0 && (tag == 2 || p[2] == '-'))
			lang = "en";
		q = lang ? msg_accept_q(p + tag, len - tag) : 0;
		if (lang && q > best_q)
			best = lang, best_q = q;
		p += len;
		if (*p == ',')
			p++;
	}
	return best;
}

const char *msg_thread_lang(const char *lang, const char *text, const char *accept_language)
{
	const char *a;

	if (msg_lang_ok(lang))
		return strcmp(lang, "en") == 0 ? "en" : "zh";
	if (msg_has_letters(text))
		return msg_first_line_lang(text);
	a = msg_accept_lang(accept_language);
	return a ? a : "zh";
}
