/* The body of a kind of note, offline (note_rules.h,
 * note_rules_kind_body()): the kind's shape from the lines of the notes
 * about the topic (note_rules_kind_shape.c), else what those notes say and
 * the kind's frame (note_rules_kind_frame.c). Above the files of the
 * kinds, which share note_rules_kind_int.h. */
#include "config.h"
#include <stdlib.h>
#include "text/words.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note_rules_kind_int.h"

/* The subject words joined (without a space in Chinese); the places of
 * them in *place, else the same. */
static char *nrk_subject(const struct note_rules_kind_note *k, char **place)
{
	struct buf b, p;
	const json_t *w;
	size_t i;

	buf_init(&b, 1024);
	buf_init(&p, 1024);
	json_array_foreach(k->subject, i, w) {
		const char *s = json_string_value(w) ?: "";

		buf_printf(&b, "%s%s", i && !k->zh ? " " : "", s);
		if (words_match_any(s, NRK_PLACES))
			buf_printf(&p, "%s%s", p.len && !k->zh ? " " : "", s);
	}
	if (b.len == 0)
		buf_adds(&b, k->topic);
	*place = p.len ? buf_steal(&p) : xstrdup(b.data);
	buf_free(&p);
	return buf_steal(&b);
}

/* What the notes about the topic say, before the frame: they are about
 * it, though not in the kind's shape. The lines of the note with the most
 * of the subject (the first of those), then of the others like it. */
static void nrk_about_lines(struct nrk *r)
{
	struct nrk_sec s = { 0 };
	int best = 0;

	for (size_t i = 0; i < r->n; i++)
		best = r->pt[i].hits > best ? r->pt[i].hits : best;
	for (size_t i = 0; i < r->n && s.n < 4; i++)
		if (r->pt[i].hits == best)
			nrk_add(&s, nrk_untip(r->pt[i].text), r->pt[i].src, r->pt[i].likes, 0);
	nrk_section_of(r->o, "：笔记里的经验", "What notes about it say", &s);
}

void note_rules_kind_body(struct buf *b, const struct note_rules_kind_note *k, size_t *sources, int *shaped)
{
	struct nrk_out o = { b, k, NULL, NULL, 0, 0, json_array(), json_object(), json_object() };
	struct nrk r = { &o, NULL, 0, 0 };
	int done = 0;

	o.subject = nrk_subject(k, &o.place);
	nrk_read(&r, k->about);
	switch (k->kind) {
	case NOTE_RULES_KIND_CHECKLIST: done = nrk_checklist(&r); break;
	case NOTE_RULES_KIND_RECIPE: done = nrk_recipe(&r); break;
	case NOTE_RULES_KIND_TRIP: done = nrk_trip(&r); break;
	case NOTE_RULES_KIND_COMPARE: done = nrk_compare(&r); break;
	case NOTE_RULES_KIND_HOWTO: done = nrk_howto(&r); break;
	default: break;
	}
	if (!done) {
		if (r.n)
			nrk_about_lines(&r);
		nrk_frame(&o, note_rules_kind_days(k->topic));
	}
	*shaped = done;
	*sources = json_object_size(o.credited);
	nrk_free(&r);
	free(o.subject);
	free(o.place);
	json_decref(o.written);
	json_decref(o.pending);
	json_decref(o.credited);
}
