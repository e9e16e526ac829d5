/* A note's body as the feedback's instructions edit it (note_feedback.h):
 * blank-line separated paragraphs, each knowing whether the person wrote
 * it (then it is kept word for word) and whether this round added it;
 * sections (a heading line above their lines), the lines that credit a
 * note, and the numbering of headings (一、二、… or 1. 2. …). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "wf/note/note_feedback.h"

#define NOTE_FEEDBACK_HEADING_MAX 30   /* characters of a heading line */
#define NOTE_FEEDBACK_PARS_MAX 400    /* paragraphs edited one by one; the rest are one */

static int note_feedback_locked_has(const json_t *locked, const char *text)
{
	const json_t *v;
	size_t i;

	json_array_foreach(locked, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), text) == 0)
			return 1;
	return 0;
}

/* Adds the n bytes at p, spaces around them trimmed, as a paragraph;
 * past NOTE_FEEDBACK_PARS_MAX, to the last one (nothing of a body is
 * ever lost). */
static void note_feedback_body_add(struct note_feedback_body *b, const char *p, size_t n, const json_t *locked)
{
	char *t, *joined;

	while (n > 0 && strchr(" \t\r\n", *p))
		p++, n--;
	while (n > 0 && strchr(" \t\r\n", p[n - 1]))
		n--;
	if (n == 0)
		return;
	t = xstrndup(p, n);
	if (b->n < NOTE_FEEDBACK_PARS_MAX) {
		size_t k = note_feedback_body_insert(b, b->n, t, 0);

		b->p[k].locked = note_feedback_locked_has(locked, t);
	} else {
		joined = xasprintf("%s\n\n%s", b->p[b->n - 1].text, t);
		note_feedback_body_set(b, b->n - 1, joined);
		b->p[b->n - 1].locked = 1;   /* too many to edit: kept as it is */
		free(joined);
	}
	free(t);
}

void note_feedback_body_read(struct note_feedback_body *b, const char *body, const json_t *locked)
{
	const char *p = body ? body : "", *next;

	memset(b, 0, sizeof *b);
	for (; p; p = next)
		note_feedback_body_add(b, p, note_paragraph_len(p, &next), locked);
}

char *note_feedback_body_text(const struct note_feedback_body *b)
{
	struct buf out;

	buf_init(&out, PHRASE_TEXT_MAX);
	for (size_t i = 0; i < b->n; i++)
		buf_printf(&out, "%s%s", out.len ? "\n\n" : "", b->p[i].text);
	return out.data ? buf_steal(&out) : xstrdup("");
}

void note_feedback_body_free(struct note_feedback_body *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->p[i].text);
	free(b->p);
	memset(b, 0, sizeof *b);
}

size_t note_feedback_body_insert(struct note_feedback_body *b, size_t i, const char *text, int fresh)
{
	if (b->n >= NOTE_FEEDBACK_PARS_MAX + 8)
		return b->n - 1;   /* a full body takes no more: the last stands for it */
	if (b->n == b->alloc) {
		b->alloc = b->alloc ? b->alloc * 2 : 16;
		b->p = xrealloc(b->p, b->alloc * sizeof *b->p);
	}
	if (i > b->n)
		i = b->n;
	memmove(b->p + i + 1, b->p + i, (b->n - i) * sizeof *b->p);
	b->p[i].text = xstrdup(text);
	b->p[i].locked = 0;
	b->p[i].fresh = fresh;
	b->n++;
	return i;
}

void note_feedback_body_remove(struct note_feedback_body *b, size_t i)
{
	if (i >= b->n)
		return;
	free(b->p[i].text);
	memmove(b->p + i, b->p + i + 1, (b->n - i - 1) * sizeof *b->p);
	b->n--;
}

void note_feedback_body_set(struct note_feedback_body *b, size_t i, const char *text)
{
	char *t = xstrdup(text);

	free(b->p[i].text);
	b->p[i].text = t;
}

static int note_feedback_ends_with(const char *s, size_t n, const char *end)
{
	size_t l = strlen(end);

	return n >= l && memcmp(s + n - l, end, l) == 0;
}

int note_feedback_is_section(const char *text)
{
	const char *nl = strchr(text, '\n');
	char *head;
	int ok;

	if (nl == NULL || nl == text || nl[1] == '\0')
		return 0;
	head = xstrndup(text, (size_t)(nl - text));
	ok = phrase_chars(head) <= NOTE_FEEDBACK_HEADING_MAX && !note_feedback_ends_with(head, strlen(head), "。") &&
	     !note_feedback_ends_with(head, strlen(head), "！") && !note_feedback_ends_with(head, strlen(head), "？") &&
	     !note_feedback_ends_with(head, strlen(head), ".");
	free(head);
	return ok;
}

int note_feedback_is_credit(const char *line)
{
	return strncmp(line, "（出自", strlen("（出自")) == 0 || strncmp(line, "(From", 5) == 0 ||
	       strncmp(line, "(from", 5) == 0;
}

json_t *note_feedback_lines(const char *text)
{
	json_t *out = json_array();
	const char *p = text ? text : "";

	while (*p) {
		size_t n = strcspn(p, "\n");

		json_array_append_new(out, json_stringn(p, n));
		p += n + (p[n] == '\n');
	}
	return out;
}

char *note_feedback_join(const json_t *lines)
{
	struct buf out;
	const json_t *v;
	size_t i;

	buf_init(&out, PHRASE_TEXT_MAX);
	json_array_foreach(lines, i, v)
		buf_printf(&out, "%s%s", i ? "\n" : "", json_string_value(v) ?: "");
	return out.data ? buf_steal(&out) : xstrdup("");
}

static const char *const note_feedback_numerals[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九", "十" };

/* The number of a heading: 一、 → 1, "3. " → 3; 0 when none. *zh says
 * which kind. */
static int note_feedback_heading_number(const char *text, int *zh)
{
	for (size_t k = 0; k < sizeof note_feedback_numerals / sizeof note_feedback_numerals[0]; k++) {
		size_t l = strlen(note_feedback_numerals[k]);

		if (strncmp(text, note_feedback_numerals[k], l) == 0 && strncmp(text + l, "、", strlen("、")) == 0) {
			*zh = 1;
			return (int)k + 1;
		}
	}
	if (text[0] >= '1' && text[0] <= '9') {
		int n = 0;
		const char *p = text;

		while (*p >= '0' && *p <= '9' && n < 100)
			n = n * 10 + (*p++ - '0');
		if (*p == '.' && p[1] == ' ') {
			*zh = 0;
			return n;
		}
	}
	return 0;
}

char *note_feedback_next_number(const struct note_feedback_body *b)
{
	int most = 0, zh = 0;

	for (size_t i = 0; i < b->n; i++) {
		int z = 0, n = note_feedback_is_section(b->p[i].text) ? note_feedback_heading_number(b->p[i].text, &z) : 0;

		if (n > most)
			most = n, zh = z;
	}
	if (most == 0)
		return xstrdup("");
	if (zh)
		return most < 10 ? xasprintf("%s、", note_feedback_numerals[most]) : xstrdup("");
	return xasprintf("%d. ", most + 1);
}

/* The heading's text after its number (一、 or "1. "). */
static const char *note_feedback_after_number(const char *text)
{
	int zh, n = note_feedback_heading_number(text, &zh);
	const char *p = text;

	if (n == 0)
		return text;
	if (zh)
		return strstr(text, "、") + strlen("、");
	while (*p >= '0' && *p <= '9')
		p++;
	return p + 2;
}

void note_feedback_renumber(struct note_feedback_body *b)
{
	int count = 0;

	for (size_t i = 0; i < b->n; i++) {
		int zh, n = note_feedback_is_section(b->p[i].text) ? note_feedback_heading_number(b->p[i].text, &zh) : 0;
		char *t;

		if (n == 0)
			continue;
		if (b->p[i].locked || n == count + 1 || (zh && count >= 10)) {
			count = n;
			continue;
		}
		count++;
		t = zh ? xasprintf("%s、%s", note_feedback_numerals[count - 1], note_feedback_after_number(b->p[i].text))
		       : xasprintf("%d. %s", count, note_feedback_after_number(b->p[i].text));
		note_feedback_body_set(b, i, t);
		free(t);
	}
}

size_t note_feedback_body_chars(const struct note_feedback_body *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++)
		n += phrase_chars(b->p[i].text) + (i ? 2 : 0);   /* and the blank lines between */
	return n;
}
