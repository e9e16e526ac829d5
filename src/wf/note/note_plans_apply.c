/* The items of a reject's feedback at the image plans pause made on the
 * plans (note_plans_feedback.h). Each plan is first tagged with the
 * picture it was among the plans shown (by the paragraph it serves), so
 * an item names pictures as the person saw them even when a model
 * re-planned; an item the new plans already satisfy (a model that moved
 * the picture itself) is reported done without being made twice; an item
 * that cannot be made (no such picture, the last picture, no paragraph
 * left for another) is declined with the reason, in the thread's
 * language. Afterwards the first picture is the cover. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/msg.h"
#include "text/phrase.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note_plans_feedback.h"
#include "wf/note/note_rules.h"

#define PF_MAX_TONES 8

struct pf_apply {
	json_t *plans;                 /* being changed */
	const struct note_plans_fb *fb;
	size_t nshown;
	json_t *report;
};

static const char *pf_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key)) ?: "";
}

static int pf_int(const json_t *o, const char *key)
{
	return (int)json_integer_value(json_object_get(o, key));
}

/* The catalogue's formats are not literals; its table test checks that
 * both languages take the same arguments. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/* One line of the report; fmt is the catalogue's id. */
static void pf_report(struct pf_apply *a, const json_t *it, const char *arg, int done, const char *id, ...)
{
	const char *fmt = msg_get(a->fb->lang, id);
	va_list ap;
	char *said;

	va_start(ap, id);
	if (vasprintf(&said, fmt, ap) < 0)
		said = xstrdup(fmt);
	va_end(ap);
	json_array_append_new(a->report, json_pack("{s:s, s:s, s:b, s:s, s:s}", "kind", pf_str(it, "kind"), "arg",
						   arg, "done", done, "said", said, "text", pf_str(it, "text")));
	free(said);
}
#pragma GCC diagnostic pop

/* The place (0-based) of the picture shown as number n, or -1. */
static int pf_find(const struct pf_apply *a, int n)
{
	const json_t *pl;
	size_t i;

	json_array_foreach(a->plans, i, pl)
		if (pf_int(pl, "_from") == n)
			return (int)i;
	return -1;
}

/* Where picture ref r is now: a number as shown, the last, the cover. */
static int pf_place(const struct pf_apply *a, int r)
{
	if (r == NOTE_PF_COVER)
		return json_array_size(a->plans) ? 0 : -1;
	if (r == NOTE_PF_LAST && pf_find(a, (int)a->nshown) >= 0)
		return pf_find(a, (int)a->nshown);   /* the last as the person saw it */
	if (r == NOTE_PF_LAST)
		return (int)json_array_size(a->plans) - 1;
	return pf_find(a, r);
}

/* The number a picture had as shown, or its place now (1-based). */
static int pf_shown_no(const struct pf_apply *a, int place)
{
	int from = pf_int(json_array_get(a->plans, (size_t)place), "_from");

	return from > 0 ? from : place + 1;
}

/* The picture ref r is not there: it never was, or an item took it out. */
static void pf_missing(struct pf_apply *a, const json_t *it, const char *arg, int r, const char *verb_id)
{
	if (r > 0 && (size_t)r > a->nshown)
		pf_report(a, it, arg, 0, "note.plans.fb.no_picture", r, a->nshown,
			  msg_get(a->fb->lang, verb_id));
	else
		pf_report(a, it, arg, 0, "note.plans.fb.gone", r, msg_get(a->fb->lang, verb_id));
}

static void pf_move(struct pf_apply *a, int from, int to)
{
	json_t *pl = json_incref(json_array_get(a->plans, (size_t)from));

	json_array_remove(a->plans, (size_t)from);
	json_array_insert_new(a->plans, (size_t)to, pl);
}

static void pf_do_swap(struct pf_apply *a, const json_t *it)
{
	const json_t *sw = json_object_get(it, "swap");
	int r1 = (int)json_integer_value(json_array_get(sw, 0)), r2 = (int)json_integer_value(json_array_get(sw, 1));
	int p1 = pf_place(a, r1), p2 = pf_place(a, r2);
	json_t *x;
	char arg[32];

	snprintf(arg, sizeof arg, "%d<->%d", r1 == NOTE_PF_COVER ? 1 : r1, r2 == NOTE_PF_COVER ? 1 : r2);
	if (p1 < 0 || p2 < 0 || p1 == p2) {
		pf_missing(a, it, arg, p1 < 0 ? r1 : r2, "note.plans.fb.verb.move");
		return;
	}
	if (r1 > 0 && r2 > 0 && p1 == r2 - 1 && p2 == r1 - 1) {
		pf_report(a, it, arg, 1, "note.plans.fb.swapped", r1, r2);
		return;   /* already the other way round */
	}
	x = json_incref(json_array_get(a->plans, (size_t)p1));
	json_array_set(a->plans, (size_t)p1, json_array_get(a->plans, (size_t)p2));
	json_array_set_new(a->plans, (size_t)p2, x);
	pf_report(a, it, arg, 1, "note.plans.fb.swapped", pf_shown_no(a, p2), pf_shown_no(a, p1));
}

static void pf_do_reorder(struct pf_apply *a, const json_t *it)
{
	int r = pf_int(it, "from"), to = pf_int(it, "to"), p, n = (int)json_array_size(a->plans);
	char arg[32];

	if (json_object_get(it, "swap")) {
		pf_do_swap(a, it);
		return;
	}
	snprintf(arg, sizeof arg, "%d->%d", r == NOTE_PF_COVER ? 1 : r, to == NOTE_PF_LAST ? n : to);
	p = pf_place(a, r);
	if (p < 0) {
		pf_missing(a, it, arg, r, "note.plans.fb.verb.move");
		return;
	}
	to = to == NOTE_PF_LAST ? n : to;
	if (to < 1 || to > n) {
		pf_report(a, it, arg, 0, "note.plans.fb.no_place", to, (size_t)n);
		return;
	}
	if (p != to - 1)
		pf_move(a, p, to - 1);
	pf_report(a, it, arg, 1, to == 1 ? "note.plans.fb.cover" : "note.plans.fb.moved",
		  pf_shown_no(a, to - 1), to);
}

static void pf_do_drop(struct pf_apply *a, const json_t *it)
{
	int r = pf_int(it, "which"), p = pf_place(a, r), no;
	char arg[16];

	snprintf(arg, sizeof arg, "%d", r == NOTE_PF_LAST ? (int)json_array_size(a->plans) : r == NOTE_PF_COVER ? 1 : r);
	if (p < 0 && r > 0 && (size_t)r <= a->nshown) {
		pf_report(a, it, arg, 1, "note.plans.fb.dropped", r);
		return;   /* not among the plans any more: already dropped */
	}
	if (p < 0) {
		pf_missing(a, it, arg, r, "note.plans.fb.verb.drop");
		return;
	}
	if (json_array_size(a->plans) <= 1) {
		pf_report(a, it, arg, 0, "note.plans.fb.last_one");
		return;
	}
	no = pf_shown_no(a, p);
	json_array_remove(a->plans, (size_t)p);
	pf_report(a, it, arg, 1, "note.plans.fb.dropped", no);
}

static void pf_set_str_new(json_t *o, const char *key, char *s)
{
	json_object_set_new(o, key, json_string(s));
	free(s);
}

static void pf_do_describe(struct pf_apply *a, const json_t *it)
{
	int r = pf_int(it, "which"), p = pf_place(a, r);
	const char *subject = pf_str(it, "subject");
	json_t *pl;
	char *arg;

	arg = xasprintf("%d: %s", r == NOTE_PF_COVER ? 1 : r == NOTE_PF_LAST ? (int)json_array_size(a->plans) : r,
			subject);
	if (p < 0) {
		pf_missing(a, it, arg, r, "note.plans.fb.verb.describe");
		free(arg);
		return;
	}
	pl = json_array_get(a->plans, (size_t)p);
	json_object_set_new(pl, "_asked", json_string(subject));
	if (!phrase_has(pf_str(pl, "prompt"), subject)) {
		pf_set_str_new(pl, "prompt", note_rules_plan_resubject(pf_str(pl, "prompt"), subject));
		pf_set_str_new(pl, "description", note_rules_plan_redescribe(pf_str(pl, "description"), subject, p == 0));
	}
	pf_report(a, it, arg, 1, "note.plans.fb.described", p + 1, subject);
	free(arg);
}

/* Whether every plan's prompt is in style k (want 1) or none is (want 0). */
static int pf_all_styled(const struct pf_apply *a, int k, int want)
{
	const json_t *pl;
	size_t i;

	json_array_foreach(a->plans, i, pl)
		if (note_rules_plan_style_clash(pf_str(pl, "prompt"), k) != want)
			return 0;
	return 1;
}

static void pf_do_style(struct pf_apply *a, const json_t *it)
{
	int en = strcmp(a->fb->lang, "en") == 0, k = pf_int(it, "style"), t = pf_int(it, "tone");
	int tone = json_object_get(it, "tone") != NULL, refused = json_is_true(json_object_get(it, "refused"));
	const char *label = tone ? note_rules_plan_tone_label(t, en) : note_rules_plan_style_label(k, en);
	json_t *pl;
	size_t i;

	json_array_foreach(a->plans, i, pl) {
		const char *pr = pf_str(pl, "prompt");

		pf_set_str_new(pl, "prompt", tone ? note_rules_plan_retone(pr, t) : refused
			       ? note_rules_plan_unstyle(pr, k) : note_rules_plan_restyle(pr, k));
	}
	if (tone)
		pf_report(a, it, label, 1, "note.plans.fb.toned", label);
	else if (refused && !pf_all_styled(a, k, 0))
		pf_report(a, it, label, 0, "note.plans.fb.unstyle_failed", label);
	else
		pf_report(a, it, label, 1, refused ? "note.plans.fb.unstyled" : "note.plans.fb.styled", label);
}

/* The first paragraph heading a section that no plan shows, or -1. */
static int pf_free_paragraph(const struct pf_apply *a)
{
	const json_t *par, *pl;
	size_t i, k;
	int any = -1;

	json_array_foreach(a->fb->pars, i, par) {
		int used = 0;

		json_array_foreach(a->plans, k, pl)
			used |= strcmp(pf_str(pl, "paragraphId"), pf_str(par, "id")) == 0;
		if (used || i == 0)
			continue;
		if (*pf_str(par, "heading"))
			return (int)i;
		if (any < 0)
			any = (int)i;
	}
	return any;
}

/* A composition no plan of the set uses yet, else the next in turn. */
static size_t pf_composition(const struct pf_apply *a)
{
	size_t n = note_rules_plan_ncompositions();

	for (size_t k = 0; k < n; k++) {
		const json_t *pl;
		size_t i;
		int used = 0;

		json_array_foreach(a->plans, i, pl)
			used |= strstr(pf_str(pl, "prompt"), note_rules_plan_composition(k, 0)) != NULL ||
				strstr(pf_str(pl, "prompt"), note_rules_plan_composition(k, 1)) != NULL;
		if (!used)
			return k;
	}
	return json_array_size(a->plans);
}

/* Adds one picture; 0, or -1 with why not in why (a catalogue id; its
 * argument in *n). */
static int pf_add_one(struct pf_apply *a, json_t *names, const char **why)
{
	int pi = pf_free_paragraph(a);
	const json_t *par = json_array_get(a->fb->pars, (size_t)(pi < 0 ? 0 : pi));
	const json_t *like = json_array_get(a->plans, json_array_size(a->plans) - 1);
	json_t *plan;
	char *name;

	if (json_array_size(a->plans) >= a->fb->max) {
		*why = "note.plans.fb.max";
		return -1;
	}
	if (pi < 0 || like == NULL) {
		*why = "note.plans.fb.no_paragraph";
		return -1;
	}
	plan = note_rules_plan_extra(par, (size_t)pi, a->fb->topic ? a->fb->topic : "", pf_str(like, "prompt"),
				     pf_composition(a));
	json_object_set_new(plan, "_from", json_integer(0));
	json_array_append_new(a->plans, plan);
	name = note_rules_line(*pf_str(par, "heading") ? pf_str(par, "heading") : pf_str(par, "text"),
			       strcmp(a->fb->lang, "en") == 0 ? 32 : 16);
	json_array_append_new(names, json_string(name));
	free(name);
	return 0;
}

static int pf_added(const struct pf_apply *a)
{
	const json_t *pl;
	size_t i;
	int n = 0;

	json_array_foreach(a->plans, i, pl)
		n += pf_int(pl, "_from") == 0;
	return n;
}

static void pf_add(struct pf_apply *a, const json_t *it, const char *arg, int n)
{
	json_t *names = json_array(), *line;
	const char *why = NULL;
	struct buf b;
	char *more;
	int k;

	for (k = 0; k < n; k++)
		if (pf_add_one(a, names, &why) < 0)
			break;
	if (k == 0) {
		pf_report(a, it, arg, 0, why, (int)a->fb->max);
		json_decref(names);
		return;
	}
	buf_init(&b, 512);
	phrase_join(&b, names, strcmp(a->fb->lang, "en") == 0 ? "\", \"" : "」「", 8);
	pf_report(a, it, arg, k == n, "note.plans.fb.added", k, json_array_size(a->plans), b.data);
	if (why) {   /* fewer than asked: the same line says why */
		char *reason = msg_fmt(a->fb->lang, why, (int)a->fb->max);

		line = json_array_get(a->report, json_array_size(a->report) - 1);
		more = xasprintf("%s%s%s", json_string_value(json_object_get(line, "said")),
				 strcmp(a->fb->lang, "en") == 0 ? "; " : "；", reason);
		json_object_set_new(line, "said", json_string(more));
		free(more);
		free(reason);
	}
	buf_free(&b);
	json_decref(names);
}

static void pf_do_count(struct pf_apply *a, const json_t *it)
{
	int add = pf_int(it, "add"), total = pf_int(it, "total"), n = (int)json_array_size(a->plans);
	char arg[16];

	snprintf(arg, sizeof arg, add ? "+%d" : "%d", add ? add : total);
	if (add) {
		if (pf_added(a) >= add)
			pf_report(a, it, arg, 1, "note.plans.fb.added_already", add);
		else
			pf_add(a, it, arg, add - pf_added(a));
		return;
	}
	if (total < 1 || (size_t)total > a->fb->max) {
		pf_report(a, it, arg, 0, "note.plans.fb.total_range", (int)a->fb->max);
		return;
	}
	if (total == n) {
		pf_report(a, it, arg, 1, "note.plans.fb.total_same", total);
		return;
	}
	if (total > n) {
		pf_add(a, it, arg, total - n);
		return;
	}
	while ((int)json_array_size(a->plans) > total)
		json_array_remove(a->plans, json_array_size(a->plans) - 1);
	pf_report(a, it, arg, 1, "note.plans.fb.kept", total, n - total);
}

/* After the items: the first picture is the cover, the others inside
 * pictures (the last a summary when there are three or more), each
 * prompt and description saying what it now is. */
static void pf_roles(struct pf_apply *a)
{
	json_t *pl;
	size_t i, n = json_array_size(a->plans);

	json_array_foreach(a->plans, i, pl) {
		const char *role = i == 0 ? "cover" : i + 1 == n && n > 2 ? "summary" : "content";
		int was = strcmp(pf_str(pl, "role"), "cover") == 0;

		if (was != (i == 0)) {
			const char *d = pf_str(pl, "description"), *colon = strstr(d, "：");
			const char *sub = colon ? colon + strlen("：") : strstr(d, ": ") ? strstr(d, ": ") + 2 : d;

			pf_set_str_new(pl, "prompt", note_rules_plan_recast(pf_str(pl, "prompt"), i == 0));
			pf_set_str_new(pl, "description", note_rules_plan_redescribe(d, sub, i == 0));
		}
		json_object_set_new(pl, "role", json_string(role));
	}
}

/* Tags each plan with the shown plan of its paragraph (in order), or 0. */
static void pf_tag(struct pf_apply *a)
{
	json_t *taken = json_array(), *pl;
	const json_t *sh;
	size_t i, k;

	json_array_foreach(a->plans, i, pl) {
		int from = 0;

		json_array_foreach(a->fb->shown, k, sh)
			if (from == 0 && !json_is_true(json_array_get(taken, k)) &&
			    strcmp(pf_str(sh, "paragraphId"), pf_str(pl, "paragraphId")) == 0)
				from = (int)k + 1;
		while (json_array_size(taken) < json_array_size(a->fb->shown))
			json_array_append_new(taken, json_false());
		if (from)
			json_array_set_new(taken, (size_t)from - 1, json_true());
		json_object_set_new(pl, "_from", json_integer(from));
	}
	json_decref(taken);
}

json_t *note_plans_feedback_apply(json_t *plans, const json_t *items, const struct note_plans_fb *fb)
{
	struct pf_apply a = { plans, fb, json_array_size(fb->shown), json_array() };
	const json_t *it;
	size_t i;

	pf_tag(&a);
	json_array_foreach(items, i, it) {
		const char *kind = pf_str(it, "kind");

		if (strcmp(kind, "reorder") == 0)
			pf_do_reorder(&a, it);
		else if (strcmp(kind, "drop") == 0)
			pf_do_drop(&a, it);
		else if (strcmp(kind, "describe") == 0)
			pf_do_describe(&a, it);
		else if (strcmp(kind, "style") == 0)
			pf_do_style(&a, it);
		else if (strcmp(kind, "count") == 0)
			pf_do_count(&a, it);
		else
			pf_report(&a, it, pf_str(it, "text"), 0, "note.plans.fb.other", pf_str(it, "text"));
	}
	pf_roles(&a);
	return a.report;
}

/* An entry's title line: textOverlayPlan's titleText, or the
 * instruction of a layoutSpec entry's title block. Borrowed. */
static json_t *pf_title_slot(json_t *e, const char **key)
{
	json_t *b;
	size_t i;

	*key = "titleText";
	if (json_object_get(e, "titleText"))
		return e;
	*key = "instruction";
	json_array_foreach(json_object_get(e, "blocks"), i, b)
		if (strcmp(pf_str(b, "area"), "title") == 0)
			return b;
	return NULL;
}

/* The line a paragraph gives a picture: its heading, else its first
 * words, cut between words. The caller frees it. */
static char *pf_par_line(const json_t *pars, const char *id)
{
	const json_t *p;
	size_t i;

	json_array_foreach(pars, i, p)
		if (strcmp(pf_str(p, "id"), id) == 0) {
			const char *t = *pf_str(p, "heading") ? pf_str(p, "heading") : pf_str(p, "text");

			return note_rules_line(t, note_rules_plan_en(t) ? 32 : 16);
		}
	return xstrdup("");
}

/* The entry now first takes the cover's title line (and the cover's
 * placement, without body text); the old cover, now inside, takes its
 * own paragraph's line. */
static void pf_rekey_cover(json_t *out, const json_t *old_cover, const json_t *plans, const json_t *pars)
{
	json_t *e = json_array_get(out, 0), *slot, *cov = NULL, *o;
	const char *key, *ckey;
	size_t k;

	if (old_cover == NULL || e == NULL || json_equal(e, old_cover))
		return;
	json_array_foreach(out, k, o)
		if (json_equal(json_object_get(o, "_cover"), json_true()))
			cov = o;
	slot = pf_title_slot(e, &key);
	if (slot && pf_title_slot((json_t *)old_cover, &ckey))
		json_object_set(slot, key, json_object_get(pf_title_slot((json_t *)old_cover, &ckey), ckey));
	json_object_del(e, "bodyText");
	if (json_object_get(old_cover, "placement"))
		json_object_set(e, "placement", json_object_get(old_cover, "placement"));
	if (cov && (slot = pf_title_slot(cov, &key)) != NULL) {
		char *line = pf_par_line(pars, pf_str(json_array_get(plans, (size_t)json_integer_value(
			json_object_get(cov, "imageSeq")) - 1), "paragraphId"));

		json_object_set_new(slot, key, json_string(line));
		if (json_object_get(cov, "placement"))
			json_object_set_new(cov, "placement", json_string("bottom"));
		free(line);
	}
}

/* The entry of a picture added by the feedback, shaped like like (an
 * overlay's titleText, or a spec's blocks). New reference. */
static json_t *pf_rekey_new(const json_t *like, const json_t *plan, size_t seq, const json_t *pars)
{
	char *line = pf_par_line(pars, pf_str(plan, "paragraphId"));
	json_t *e;

	if (json_object_get(like, "titleText"))
		e = json_pack("{s:I, s:s, s:s}", "imageSeq", (json_int_t)seq, "titleText", line, "placement",
			      "bottom");
	else
		e = json_pack("{s:I, s:O, s:O, s:s, s:[{s:s, s:s}]}", "imageSeq", (json_int_t)seq, "role",
			      json_object_get(plan, "role"), "paragraphId", json_object_get(plan, "paragraphId"),
			      "visualFocus", line, "blocks", "area", "title", "instruction", line);
	free(line);
	return e;
}

json_t *note_plans_feedback_rekey(const json_t *entries, const json_t *plans, const json_t *pars)
{
	json_t *out = json_array(), *e, *o;
	const json_t *pl, *old, *old_cover = NULL;
	size_t i, k;

	json_array_foreach(entries, k, old)
		if (json_integer_value(json_object_get(old, "imageSeq")) == 1)
			old_cover = old;
	json_array_foreach(plans, i, pl) {
		int from = pf_int(pl, "_from");

		if (from == 0 && json_array_size(entries)) {
			json_array_append_new(out, pf_rekey_new(json_array_get(entries, 0), pl, i + 1, pars));
			continue;
		}
		json_array_foreach(entries, k, old)
			if (from > 0 && json_integer_value(json_object_get(old, "imageSeq")) == from) {
				e = json_deep_copy(old);
				json_object_set_new(e, "imageSeq", json_integer((json_int_t)i + 1));
				if (json_object_get(e, "role"))
					json_object_set(e, "role", json_object_get(pl, "role"));
				if (old == old_cover && i > 0)
					json_object_set_new(e, "_cover", json_true());
				json_array_append_new(out, e);
				break;
			}
	}
	if (json_integer_value(json_object_get(json_array_get(out, 0), "imageSeq")) == 1)
		pf_rekey_cover(out, old_cover, plans, pars);
	json_array_foreach(out, k, o)
		json_object_del(o, "_cover");
	return out;
}

/* One picture's subject, kept: the prompt and description say it. */
static void pf_keep_subject(json_t *pl, const char *subject)
{
	if (phrase_has(pf_str(pl, "prompt"), subject))
		return;
	pf_set_str_new(pl, "prompt", note_rules_plan_resubject(pf_str(pl, "prompt"), subject));
	pf_set_str_new(pl, "description", note_rules_plan_redescribe(pf_str(pl, "description"), subject,
								     strcmp(pf_str(pl, "role"), "cover") == 0));
}

void note_plans_feedback_keep(json_t *plans, const json_t *asks)
{
	const json_t *subjects = json_object_get(asks, "subjects"), *t;
	json_t *pl;
	size_t i, k;

	json_array_foreach(plans, i, pl) {
		const char *s = json_string_value(json_object_get(subjects, pf_str(pl, "paragraphId")));

		if (s)
			pf_keep_subject(pl, s);
		json_array_foreach(json_object_get(asks, "tones"), k, t)
			pf_set_str_new(pl, "prompt", note_rules_plan_retone(pf_str(pl, "prompt"),
									    (int)json_integer_value(t)));
	}
}

void note_plans_feedback_remember(json_t *asks, const json_t *plans, const json_t *items, const json_t *report)
{
	json_t *subjects = json_object_get(asks, "subjects"), *tones = json_object_get(asks, "tones");
	const json_t *pl, *it;
	size_t i;

	if (!json_is_object(subjects))
		json_object_set_new(asks, "subjects", subjects = json_object());
	if (!json_is_array(tones))
		json_object_set_new(asks, "tones", tones = json_array());
	json_array_foreach(plans, i, pl)
		if (*pf_str(pl, "_asked") && *pf_str(pl, "paragraphId"))
			json_object_set(subjects, pf_str(pl, "paragraphId"), json_object_get(pl, "_asked"));
	json_array_foreach(items, i, it)
		if (json_object_get(it, "tone") && json_is_true(json_object_get(json_array_get(report, i), "done")) &&
		    json_array_size(tones) < PF_MAX_TONES)
			json_array_append(tones, json_object_get(it, "tone"));
}
