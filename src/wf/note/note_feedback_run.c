/* The draft a feedback's items are done on (note_feedback_int.h): what
 * every kind of item reads of it (its length, its closing paragraph, the
 * lines having some words, the draft as it is now) and the report entry
 * each one gives. Below the files that do the items
 * (note_feedback_apply.c, note_feedback_edit.c, note_feedback_style.c). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "wf/note/note_feedback_int.h"

json_t *note_feedback_said(int done, char *said)
{
	json_t *e = json_pack("{s:b, s:s}", "done", done, "said", said ? said : "");

	free(said);
	return e;
}

size_t note_feedback_draft_chars(const json_t *draft)
{
	return phrase_chars(json_string_value(json_object_get(draft, "body")) ?: "");
}

int note_feedback_draft_has(const json_t *draft, const char *word)
{
	const json_t *t;
	size_t i;

	if (phrase_has(json_string_value(json_object_get(draft, "title")), word) ||
	    phrase_has(json_string_value(json_object_get(draft, "body")), word))
		return 1;
	json_array_foreach(json_object_get(draft, "tags"), i, t)
		if (phrase_has(json_string_value(t), word))
			return 1;
	return 0;
}

const json_t *note_feedback_now(struct note_feedback_run *r)
{
	char *body = note_feedback_body_text(&r->body);

	json_object_set_new(r->content, "body", json_string(body));
	free(body);
	return r->content;
}

size_t note_feedback_closing(const struct note_feedback_run *r)
{
	const struct note_feedback_par *p;

	if (r->body.n < 2)
		return r->body.n;
	p = &r->body.p[r->body.n - 1];
	if (p->locked || strchr(p->text, '\n') || note_feedback_is_section(p->text))
		return r->body.n;
	return r->body.n - 1;
}

size_t note_feedback_lines_having(const char *body, const json_t *terms)
{
	json_t *lines = note_feedback_lines(body), *l, *t;
	size_t i, j, n = 0;

	json_array_foreach(lines, i, l) {
		int has = 0;

		json_array_foreach(terms, j, t)
			has |= note_feedback_has_term(json_string_value(l), json_string_value(t));
		n += (size_t)has;
	}
	json_decref(lines);
	return n;
}

/* The length the item is measured against: the refused draft's it was
 * marked with (note_feedback_mark), else the draft before this one. */
size_t note_feedback_before(const struct note_feedback_run *r, const json_t *item)
{
	const json_t *chars = json_object_get(item, "chars");

	if (json_is_integer(chars) && json_integer_value(chars) >= 0)
		return (size_t)json_integer_value(chars);
	return note_feedback_draft_chars(r->prev ? r->prev : r->entry);
}
