/* What the person said outranks the workflow's own rules (issue: a
 * person's decision is final). Pure text rules the writer and the review
 * share: the topic without the clauses the person asked to leave out
 * ("不要提猫" on 春天去苏州旅行，带上家里的猫 leaves 春天去苏州旅行), the
 * paragraphs a person wrote or edited at a content pause (kept word for
 * word by every later draft), a new draft merged around them, what changed
 * from one draft to the next, section by section, and a print of a draft,
 * so the writer never offers one already refused. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "text/phrase.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"

#define NOTE_PERSON_ADDED_MAX 3          /* sections a merge adds after the person's text */
#define NOTE_PERSON_LABEL_MAX 20         /* characters of a section's label */
#define NOTE_PERSON_BODY_MAX 20000       /* bytes: the writer's own limit */

/* ---- the topic ---- */

/* The length of the clause at p (up to a separator) and of the separator. */
static size_t note_rules_person_clause(const char *p, size_t *seplen)
{
	static const char *const seps[] = { "，", "、", "；", "。", ",", ";" };
	size_t n = 0;

	for (; p[n]; n++)
		for (size_t i = 0; i < sizeof seps / sizeof seps[0]; i++)
			if (strncmp(p + n, seps[i], strlen(seps[i])) == 0) {
				*seplen = strlen(seps[i]);
				return n;
			}
	*seplen = 0;
	return n;
}

char *note_rules_person_topic(const char *topic, const json_t *banned)
{
	struct buf b;
	const char *p = topic ? topic : "";
	size_t len, sep, dropped = 0;
	char *out, *clause;

	buf_init(&b, 4096);
	while (*p) {
		len = note_rules_person_clause(p, &sep);
		clause = xstrndup(p, len);
		if (len && phrase_has_any(clause, banned))
			dropped++;
		else if (len)
			buf_printf(&b, "%s%s", b.len ? "，" : "", clause);
		free(clause);
		p += len + sep;
	}
	/* Every clause names it: the subject itself was refused, the topic stays. */
	out = xstrdup(dropped && b.len ? b.data : topic ? topic : "");
	buf_free(&b);
	return out;
}

/* ---- the person's paragraphs ---- */

static int note_rules_person_in(const json_t *list, const char *text)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (strcmp(json_string_value(v) ?: "", text) == 0)
			return 1;
	return 0;
}

/* The texts of a body's paragraphs. New reference. */
static json_t *note_rules_person_texts(const char *body)
{
	json_t *pars = note_paragraphs(body), *out = json_array(), *p;
	size_t i;

	json_array_foreach(pars, i, p)
		json_array_append(out, json_object_get(p, "text"));
	json_decref(pars);
	return out;
}

json_t *note_rules_person_locked(const char *shown, const char *edited, const json_t *before)
{
	json_t *was = note_rules_person_texts(shown), *now = note_rules_person_texts(edited);
	json_t *out = json_array(), *v;
	size_t i;

	json_array_foreach(now, i, v)
		if (!note_rules_person_in(was, json_string_value(v)) ||
		    note_rules_person_in(before, json_string_value(v)))
			json_array_append(out, v);
	json_decref(was);
	json_decref(now);
	return out;
}

/* ---- merging a new draft around them ---- */

static int note_rules_person_alike_any(const json_t *list, const char *text)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (strcmp(json_string_value(v), text) == 0 ||
		    phrase_alike(json_string_value(v), text) >= PHRASE_ALIKE)
			return 1;
	return 0;
}

struct note_rules_person_merge {
	json_t *out;          /* the paragraphs written, in order */
	json_t *headed;       /* the draft's sections that may go in */
	json_t *plain;        /* the draft's paragraphs without a heading */
	size_t nh, np;        /* of those, taken so far */
	size_t kept_last;     /* out's length after the last paragraph not to move past */
};

/* The draft's paragraphs that are neither the person's nor like them, nor
 * already in prev, split into sections and plain paragraphs. */
static void note_rules_person_candidates(struct note_rules_person_merge *m, const char *draft,
					 const json_t *locked, const json_t *prev)
{
	json_t *pars = note_paragraphs(draft), *p;
	size_t i;

	json_array_foreach(pars, i, p) {
		const char *text = json_string_value(json_object_get(p, "text"));

		if (note_rules_person_alike_any(locked, text) || note_rules_person_in(prev, text))
			continue;
		json_array_append(*json_string_value(json_object_get(p, "heading")) ? m->headed : m->plain,
				  json_object_get(p, "text"));
	}
	json_decref(pars);
}

/* The paragraphs of prev, the person's kept, each of the others replaced
 * by the draft's next of its kind (a section by a section, a plain
 * paragraph by a plain one) or dropped when there is none. */
static void note_rules_person_slots(struct note_rules_person_merge *m, const json_t *prev,
				    const json_t *locked)
{
	json_t *p;
	size_t i;

	json_array_foreach(prev, i, p) {
		const char *text = json_string_value(p);
		json_t *heads = note_paragraphs(text);
		int headed = *json_string_value(json_object_get(json_array_get(heads, 0), "heading")) != '\0';

		json_decref(heads);
		if (note_rules_person_in(locked, text)) {
			json_array_append(m->out, p);
			m->kept_last = json_array_size(m->out);
		} else if (headed && m->nh < json_array_size(m->headed)) {
			json_array_append(m->out, json_array_get(m->headed, m->nh++));
			m->kept_last = json_array_size(m->out);
		} else if (!headed && m->np < json_array_size(m->plain)) {
			json_array_append(m->out, json_array_get(m->plain, m->np++));
		}
	}
}

static char *note_rules_person_join(const json_t *pars)
{
	struct buf b;
	json_t *v;
	size_t i;
	char *out;

	buf_init(&b, NOTE_PERSON_BODY_MAX * 2);
	json_array_foreach(pars, i, v)
		buf_printf(&b, "%s%s", i ? "\n\n" : "", json_string_value(v));
	out = xstrdup(b.data ? b.data : "");
	buf_free(&b);
	return out;
}

static const char *note_rules_person_unnumbered(const char *s);

/* How many sections of a body have a numbered heading (一、 1.). */
static size_t note_rules_person_numbered(const char *body)
{
	json_t *pars = note_paragraphs(body), *p;
	size_t i, n = 0;

	json_array_foreach(pars, i, p) {
		const char *h = json_string_value(json_object_get(p, "heading")) ?: "";

		n += *h && note_rules_person_unnumbered(h) != h;
	}
	json_decref(pars);
	return n;
}

/* A section numbered n (1-based) in the style of its own ordinal: the
 * sections added after the person's go on from their numbers. */
static char *note_rules_person_renumber(const char *s, size_t n)
{
	static const char *const cn[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九", "十" };
	const char *rest = note_rules_person_unnumbered(s);

	if (rest == s || n == 0 || n > sizeof cn / sizeof cn[0])
		return xstrdup(s);
	if (*s >= '0' && *s <= '9')
		return xasprintf("%zu. %s", n, rest);
	return xasprintf("%s、%s", cn[n - 1], rest);
}

/* Every paragraph of prev is the person's: prev stays as it was, to the
 * byte, and the draft's new sections follow it. */
static char *note_rules_person_append(const char *prev, struct note_rules_person_merge *m)
{
	struct buf b;
	size_t n = strlen(prev), no = note_rules_person_numbered(prev);
	char *out, *s;

	while (n && (prev[n - 1] == '\n' || prev[n - 1] == ' ' || prev[n - 1] == '\r'))
		n--;
	buf_init(&b, NOTE_PERSON_BODY_MAX * 2);
	buf_printf(&b, "%.*s", (int)n, prev);
	for (; m->nh < json_array_size(m->headed) && m->nh < NOTE_PERSON_ADDED_MAX; m->nh++) {
		s = note_rules_person_renumber(json_string_value(json_array_get(m->headed, m->nh)), ++no);
		if (b.len + strlen(s) + 2 > NOTE_PERSON_BODY_MAX) {
			free(s);
			break;
		}
		buf_printf(&b, "\n\n%s", s);
		free(s);
	}
	out = xstrdup(b.data ? b.data : "");
	buf_free(&b);
	return out;
}

char *note_rules_person_merge(const char *prev, const json_t *locked, const char *draft)
{
	struct note_rules_person_merge m = { json_array(), json_array(), json_array(), 0, 0, 0 };
	json_t *before = note_rules_person_texts(prev), *p;
	char *out;
	size_t i, mine = 0;

	json_array_foreach(before, i, p)
		mine += note_rules_person_in(locked, json_string_value(p));
	note_rules_person_candidates(&m, draft, locked, before);
	if (mine == 0) {
		out = xstrdup(draft ? draft : "");
	} else if (mine == json_array_size(before)) {
		out = note_rules_person_append(prev, &m);
	} else {
		note_rules_person_slots(&m, before, locked);
		/* The draft's other sections go after the last section, before
		 * a closing line the person did not write. */
		for (size_t k = 0; m.nh < json_array_size(m.headed) && k < NOTE_PERSON_ADDED_MAX; k++)
			json_array_insert(m.out, m.kept_last++, json_array_get(m.headed, m.nh++));
		out = note_rules_person_join(m.out);
		if (strlen(out) > NOTE_PERSON_BODY_MAX) {
			free(out);
			out = xstrdup(prev);
		}
	}
	json_decref(before);
	json_decref(m.out);
	json_decref(m.headed);
	json_decref(m.plain);
	return out;
}

/* ---- what changed ---- */

/* s past a leading ordinal (一、 二、 1. 2、): sections that only moved are
 * the same sections. */
static const char *note_rules_person_unnumbered(const char *s)
{
	static const char *const cn[] = { "一", "二", "三", "四", "五", "六", "七", "八", "九", "十" };
	const char *p = s;

	for (int moved = 1; moved;) {
		moved = 0;
		for (size_t i = 0; i < sizeof cn / sizeof cn[0]; i++)
			if (strncmp(p, cn[i], strlen(cn[i])) == 0)
				p += strlen(cn[i]), moved = 1;
	}
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return s;
	if (strncmp(p, "、", strlen("、")) == 0)
		return p + strlen("、");
	if (*p == '.' || *p == ')')
		return p + 1 + (p[1] == ' ');
	return s;
}

static int note_rules_person_same(const char *a, const char *b)
{
	return strcmp(note_rules_person_unnumbered(a ? a : ""), note_rules_person_unnumbered(b ? b : "")) == 0;
}

/* A paragraph's label: its heading, else its first words. New string. */
static char *note_rules_person_label(const json_t *par)
{
	const char *h = json_string_value(json_object_get(par, "heading"));

	return phrase_truncate(h && *h ? h : json_string_value(json_object_get(par, "text")) ?: "",
			       NOTE_PERSON_LABEL_MAX);
}

/* The paragraph of list that p is another version of (the same heading,
 * or, without one, text this alike), not yet used; -1 when none. */
static long note_rules_person_match(const json_t *list, const json_t *p, const char *used)
{
	const char *h = json_string_value(json_object_get(p, "heading")) ?: "";
	const char *t = json_string_value(json_object_get(p, "text")) ?: "";
	json_t *q;
	size_t i;

	json_array_foreach(list, i, q)
		if (!used[i] && note_rules_person_same(json_string_value(json_object_get(q, "text")), t))
			return (long)i;
	json_array_foreach(list, i, q) {
		const char *qh = json_string_value(json_object_get(q, "heading")) ?: "";

		if (used[i])
			continue;
		if (*h ? note_rules_person_same(qh, h)
		       : !*qh && phrase_alike(json_string_value(json_object_get(q, "text")) ?: "", t) >= 0.5)
			return (long)i;
	}
	return -1;
}

static void note_rules_person_add_label(json_t *arr, const json_t *par)
{
	char *l = note_rules_person_label(par);

	json_array_append_new(arr, json_string(l));
	free(l);
}

static json_t *note_rules_person_sections(const char *a, const char *b)
{
	json_t *before = note_paragraphs(a), *after = note_paragraphs(b), *p;
	json_t *out = json_pack("{s:[], s:[], s:[]}", "added", "removed", "changed");
	char *used = xcalloc(json_array_size(before) + 1, 1);
	size_t i;
	long k;

	json_array_foreach(after, i, p) {
		k = note_rules_person_match(before, p, used);
		if (k < 0) {
			note_rules_person_add_label(json_object_get(out, "added"), p);
			continue;
		}
		used[k] = 1;
		if (!note_rules_person_same(json_string_value(json_object_get(json_array_get(before, (size_t)k),
									      "text")),
					    json_string_value(json_object_get(p, "text"))))
			note_rules_person_add_label(json_object_get(out, "changed"), p);
	}
	json_array_foreach(before, i, p)
		if (!used[i])
			note_rules_person_add_label(json_object_get(out, "removed"), p);
	free(used);
	json_decref(before);
	json_decref(after);
	return out;
}

static json_t *note_rules_person_tags(const json_t *a, const json_t *b)
{
	json_t *added = json_array(), *removed = json_array(), *v;
	size_t i;

	json_array_foreach(b, i, v)
		if (!note_rules_person_in(a, json_string_value(v) ?: ""))
			json_array_append(added, v);
	json_array_foreach(a, i, v)
		if (!note_rules_person_in(b, json_string_value(v) ?: ""))
			json_array_append(removed, v);
	if (json_array_size(added) + json_array_size(removed) == 0) {
		json_decref(added);
		json_decref(removed);
		return NULL;
	}
	return json_pack("{s:o, s:o}", "added", added, "removed", removed);
}

json_t *note_rules_person_changes(const json_t *before, const json_t *after)
{
	const char *t0 = json_string_value(json_object_get(before, "title")) ?: "";
	const char *t1 = json_string_value(json_object_get(after, "title")) ?: "";
	json_t *out = note_rules_person_sections(json_string_value(json_object_get(before, "body")),
						 json_string_value(json_object_get(after, "body")));
	json_t *tags = note_rules_person_tags(json_object_get(before, "tags"), json_object_get(after, "tags"));

	if (strcmp(t0, t1) != 0)
		json_object_set_new(out, "title", json_pack("{s:s, s:s}", "from", t0, "to", t1));
	if (tags)
		json_object_set_new(out, "tags", tags);
	return out;
}

int note_rules_person_none(const json_t *changes)
{
	return json_array_size(json_object_get(changes, "added")) == 0 &&
	       json_array_size(json_object_get(changes, "removed")) == 0 &&
	       json_array_size(json_object_get(changes, "changed")) == 0 &&
	       json_object_get(changes, "title") == NULL && json_object_get(changes, "tags") == NULL;
}

/* ---- a draft's print ---- */

char *note_rules_person_print(const json_t *content)
{
	unsigned char h[16];
	char hex[sizeof h * 2 + 1];
	crypto_generichash_state st;
	const char *parts[2] = { json_string_value(json_object_get(content, "title")) ?: "",
				 json_string_value(json_object_get(content, "body")) ?: "" };
	json_t *v;
	size_t i;

	crypto_generichash_init(&st, NULL, 0, sizeof h);
	for (i = 0; i < 2; i++)
		crypto_generichash_update(&st, (const unsigned char *)parts[i], strlen(parts[i]) + 1);
	json_array_foreach(json_object_get(content, "tags"), i, v)
		crypto_generichash_update(&st, (const unsigned char *)(json_string_value(v) ?: ""),
					  strlen(json_string_value(v) ?: "") + 1);
	crypto_generichash_final(&st, h, sizeof h);
	sodium_bin2hex(hex, sizeof hex, h, sizeof h);
	return xstrdup(hex);
}
