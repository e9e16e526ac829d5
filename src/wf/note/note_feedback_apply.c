/* Doing a feedback's items on a draft (note_feedback.h): the order that
 * lets one item not undo another (what is removed goes first, a shorter
 * body is cut last and never by what this round added), removals and the
 * title here, the body's edits in note_feedback_edit.c; and the check of
 * every claim against the draft once all are done, so a report never
 * says a change was made that is not in the draft. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/msg.h"
#include "text/phrase.h"
#include "text/wordcut.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note_feedback_int.h"
#include "wf/note/note_rules.h"

#define NOTE_FEEDBACK_TITLE_ZH 20   /* characters of a title */
#define NOTE_FEEDBACK_TITLE_EN 60

void note_feedback_mark(json_t *items, const json_t *refused)
{
	const char *body = json_string_value(json_object_get(refused, "body")) ?: "";
	json_t *it, *terms;
	size_t i;

	json_array_foreach(items, i, it) {
		const char *kind = json_string_value(json_object_get(it, "kind")) ?: "";

		if (strcmp(kind, "shorter") == 0 || strcmp(kind, "longer") == 0)
			json_object_set_new(it, "chars", json_integer((json_int_t)phrase_chars(body)));
		if (strcmp(kind, "more") == 0) {
			terms = note_feedback_terms(it);
			json_object_set_new(it, "base", json_integer((json_int_t)note_feedback_lines_having(body, terms)));
			json_decref(terms);
		}
	}
}

/* ---- remove ---- */

/* 1 when s has any of words. */
static int note_feedback_any(const char *s, const json_t *words)
{
	return phrase_has_any(s, words);
}

/* Text without its clauses (cut after ，；。、！？ , . ;) that have any of
 * words; a clause separator left at the end becomes a full stop. The
 * caller frees it. */
static char *note_feedback_without_clauses(const char *text, const json_t *words, int zh)
{
	static const char *const seps[] = { "，", "；", "。", "、", "！", "？", ", ", "; ", ". ", "! ", "? " };
	struct buf out;
	const char *p = text, *start = text;
	size_t n;

	buf_init(&out, PHRASE_TEXT_MAX);
	for (;; p++) {
		size_t sep = 0;

		for (size_t i = 0; *p && i < sizeof seps / sizeof seps[0] && sep == 0; i++)
			if (strncmp(p, seps[i], strlen(seps[i])) == 0)
				sep = strlen(seps[i]);
		if (*p && sep == 0)
			continue;
		{
			char *clause = xstrndup(start, (size_t)(p - start) + sep);

			if (!note_feedback_any(clause, words))
				buf_adds(&out, clause);
			free(clause);
		}
		if (*p == '\0')
			break;
		p += sep - 1;
		start = p + 1;
	}
	n = out.len;
	while (n && out.data[n - 1] == ' ')
		n--;
	if (out.data)
		out.data[n] = '\0', out.len = n;
	if (n >= 3 && (memcmp(out.data + n - 3, "，", 3) == 0 || memcmp(out.data + n - 3, "；", 3) == 0 ||
		       memcmp(out.data + n - 3, "、", 3) == 0)) {
		out.len = n - 3;
		out.data[out.len] = '\0';
		buf_adds(&out, "。");
	} else if (n && (out.data[n - 1] == ',' || out.data[n - 1] == ';')) {
		out.data[n - 1] = '.';
	}
	(void)zh;
	return out.data ? buf_steal(&out) : xstrdup("");
}

/* A section without the lines that have any of words: NULL when the
 * section goes (its heading or where it comes from has one, or no point
 * is left). The caller frees it. */
static char *note_feedback_section_without(const char *text, const json_t *words)
{
	json_t *lines = note_feedback_lines(text), *kept = json_array(), *l;
	size_t i, points = 0;
	char *out = NULL;

	json_array_foreach(lines, i, l) {
		const char *s = json_string_value(l);

		if (note_feedback_any(s, words)) {
			if (i == 0 || note_feedback_is_credit(s))
				goto done;
			continue;
		}
		points += i > 0 && !note_feedback_is_credit(s);
		json_array_append(kept, l);
	}
	if (points)
		out = note_feedback_join(kept);
done:
	json_decref(lines);
	json_decref(kept);
	return out;
}

/* The paragraphs, the person's aside, without words. */
static void note_feedback_body_without(struct note_feedback_run *r, const json_t *words)
{
	for (size_t i = r->body.n; i-- > 0;) {
		struct note_feedback_par *p = &r->body.p[i];
		char *t;

		if (p->locked || !note_feedback_any(p->text, words))
			continue;
		t = note_feedback_is_section(p->text) ? note_feedback_section_without(p->text, words)
						      : note_feedback_without_clauses(p->text, words, r->zh);
		if (t && *t)
			note_feedback_body_set(&r->body, i, t);
		else
			note_feedback_body_remove(&r->body, i);
		free(t);
	}
}

/* The title without words: its parts (cut at ｜，：！？) that do not have
 * them, else the topic without the clauses that do (cut at a word
 * boundary), else the words taken out of it. The caller frees it. */
static char *note_feedback_title_without(const struct note_feedback_run *r, const char *title,
					 const json_t *words)
{
	char *kept = note_feedback_without_clauses(title, words, r->zh), *t;
	size_t max = r->zh ? NOTE_FEEDBACK_TITLE_ZH : NOTE_FEEDBACK_TITLE_EN;
	const json_t *w;
	size_t i;

	for (char *q = kept; (q = strstr(q, "｜")) != NULL;)
		memmove(q, q + 3, strlen(q + 3) + 1);
	if (phrase_chars(kept) >= 4 && !note_feedback_any(kept, words))
		return kept;
	free(kept);
	t = note_rules_person_topic(json_string_value(json_object_get(r->ctx, "topic")) ?: "", words);
	kept = wordcut_prefix(t, max, 0);
	free(t);
	if (*kept && !note_feedback_any(kept, words))
		return kept;
	free(kept);
	kept = xstrdup(title);
	json_array_foreach(words, i, w) {
		const char *s = json_string_value(w);

		for (char *q; s && *s && (q = strcasestr(kept, s)) != NULL;)
			memmove(q, q + strlen(s), strlen(q + strlen(s)) + 1);
	}
	return kept;
}

static void note_feedback_tags_without(struct note_feedback_run *r, const json_t *words)
{
	json_t *tags = json_object_get(r->content, "tags");

	for (size_t i = json_array_size(tags); i-- > 0;)
		if (note_feedback_any(json_string_value(json_array_get(tags, i)), words))
			json_array_remove(tags, i);
}

/* The first of the person's paragraphs with any of words, or NULL. */
static const char *note_feedback_locked_with(const struct note_feedback_run *r, const json_t *words)
{
	for (size_t i = 0; i < r->body.n; i++)
		if (r->body.p[i].locked && note_feedback_any(r->body.p[i].text, words))
			return r->body.p[i].text;
	return NULL;
}

/* The words of list the draft has (what), joined by 、 (at most 3). */
static char *note_feedback_joined(const json_t *list)
{
	struct buf b;

	buf_init(&b, 4096);
	phrase_join(&b, list, "、", 3);
	return b.data ? buf_steal(&b) : xstrdup("");
}

/* Appends part (stolen) to a report line, after the separator. */
static void note_feedback_part(struct buf *b, const struct note_feedback_run *r, char *part)
{
	if (b->len)
		buf_adds(b, r->zh ? "；" : "; ");
	buf_adds(b, part);
	free(part);
}

/* 1 when the draft has word outside the person's paragraphs (its title,
 * tags and the paragraphs the writer wrote). */
static int note_feedback_outside_has(const struct note_feedback_run *r, const json_t *draft, const char *word)
{
	struct note_feedback_body b;
	const json_t *t;
	size_t i;
	int has = phrase_has(json_string_value(json_object_get(draft, "title")), word);

	json_array_foreach(json_object_get(draft, "tags"), i, t)
		has |= phrase_has(json_string_value(t), word);
	if (has || !phrase_has(json_string_value(json_object_get(draft, "body")), word))
		return has;
	note_feedback_body_read(&b, json_string_value(json_object_get(draft, "body")), json_object_get(r->ctx, "locked"));
	for (i = 0; i < b.n; i++)
		has |= !b.p[i].locked && phrase_has(b.p[i].text, word);
	note_feedback_body_free(&b);
	return has;
}

/* The words of a removal (its arg when it has none) that can go: those
 * the topic is made of stay, as the writer and the review keep them
 * (不要提猫 on 新手养猫清单); they go to topic (may be NULL). New
 * reference. */
static json_t *note_feedback_words(const struct note_feedback_run *r, const json_t *item, json_t *topic)
{
	const json_t *given = json_object_get(item, "words"), *w;
	json_t *all = json_array_size(given) ? json_incref((json_t *)given)
		: json_pack("[s]", json_string_value(json_object_get(item, "arg")) ?: "");
	char *kept = note_rules_person_topic(json_string_value(json_object_get(r->ctx, "topic")) ?: "", all);
	json_t *out = json_array();
	size_t i;

	json_array_foreach(all, i, w) {
		if (!phrase_has(kept, json_string_value(w)))
			json_array_append(out, (json_t *)w);
		else if (topic)
			json_array_append(topic, (json_t *)w);
	}
	free(kept);
	json_decref(all);
	return out;
}

/* What became of each word, as it is: taken out (of this draft or of the
 * refused one), kept in the person's paragraph, never there. */
static json_t *note_feedback_remove_said(struct note_feedback_run *r, const json_t *item, const json_t *words,
					 const json_t *topic)
{
	const json_t *now = note_feedback_now(r), *w;
	const char *arg = json_string_value(json_object_get(item, "arg")) ?: "";
	const char *mine = note_feedback_locked_with(r, words);
	json_t *gone = json_array(), *kept = json_array(), *stuck = json_array(), *topics = json_array();
	struct buf said;
	char *s, *snip;
	size_t i;
	int done = 1;

	json_array_foreach(words, i, w) {
		const char *x = json_string_value(w);

		done &= !note_feedback_draft_has(now, x);
		if (note_feedback_outside_has(r, now, x))
			json_array_append_new(stuck, json_string(x));
		else if (note_feedback_outside_has(r, r->entry, x) || (r->prev && note_feedback_outside_has(r, r->prev, x)))
			json_array_append_new(gone, json_string(x));
		if (mine && note_feedback_draft_has(now, x) && !note_feedback_outside_has(r, now, x))
			json_array_append_new(kept, json_string(x));
	}
	buf_init(&said, 4096);
	if (json_array_size(gone)) {
		s = note_feedback_joined(gone);
		note_feedback_part(&said, r, note_feedback_msg(r, json_array_size(kept) ? "note.fb.remove.done_else"
							     : "note.fb.remove.done", s));
		free(s);
	}
	if (json_array_size(kept)) {
		s = note_feedback_joined(kept);
		snip = phrase_truncate(mine, 16);
		for (char *q = snip; (q = strchr(q, '\n')) != NULL;)
			*q = ' ';
		note_feedback_part(&said, r, note_feedback_msg(r, "note.fb.remove.locked", s, snip));
		free(snip);
		free(s);
	}
	if (json_array_size(stuck)) {
		s = note_feedback_joined(stuck);
		note_feedback_part(&said, r, note_feedback_msg(r, "note.fb.remove.stuck", s));
		free(s);
	}
	/* The topic is made of it: it stays (the topic's words, said). */
	json_array_foreach(topic, i, w)
		if (note_feedback_draft_has(now, json_string_value(w)))
			json_array_append(topics, (json_t *)w);
	if (json_array_size(topics)) {
		s = note_feedback_joined(topics);
		note_feedback_part(&said, r, note_feedback_msg(r, "note.fb.remove.topic", s));
		free(s);
		done &= !phrase_has_any(arg, topics);
	}
	/* The person's own word, when it was never there (不要提宠物 on a
	 * draft that had 猫 but never 宠物). */
	if (*arg && !note_feedback_draft_has(r->entry, arg) && !note_feedback_draft_has(r->prev, arg) &&
	    !note_feedback_draft_has(now, arg))
		note_feedback_part(&said, r, note_feedback_msg(r, "note.fb.remove.never", arg));
	json_decref(gone);
	json_decref(kept);
	json_decref(stuck);
	json_decref(topics);
	return note_feedback_said(done, said.data ? buf_steal(&said) : xstrdup(""));
}


json_t *note_feedback_do_remove(struct note_feedback_run *r, const json_t *item)
{
	json_t *topic = json_array(), *words = note_feedback_words(r, item, topic), *e;
	const char *title = json_string_value(json_object_get(r->content, "title")) ?: "";

	if (note_feedback_any(title, words)) {
		char *t = note_feedback_title_without(r, title, words);

		if (*t)
			json_object_set_new(r->content, "title", json_string(t));
		free(t);
	}
	note_feedback_tags_without(r, words);
	note_feedback_body_without(r, words);
	e = note_feedback_remove_said(r, item, words, topic);
	json_decref(words);
	json_decref(topic);
	return e;
}

/* ---- title ---- */

static size_t note_feedback_title_max(const struct note_feedback_run *r)
{
	return r->zh ? NOTE_FEEDBACK_TITLE_ZH : NOTE_FEEDBACK_TITLE_EN;
}

char *note_feedback_title_wanted(const struct note_feedback_run *r, const char *arg, int *cut)
{
	size_t max = note_feedback_title_max(r);
	char *t;

	*cut = phrase_chars(arg) > max;
	if (!*cut)
		return xstrdup(arg);
	t = wordcut_prefix(arg, max, 0);
	if (*t)
		return t;
	free(t);
	return NULL;
}

/* The title's first part (before ｜：，！？ - :), when it has at least four
 * characters; else NULL. The caller frees it. */
static char *note_feedback_title_head(const char *title)
{
	static const char *const seps[] = { "｜", "：", "，", "！", "？", "|", ":", " - ", ",", "!" };
	size_t cut = strlen(title);

	for (size_t i = 0; i < sizeof seps / sizeof seps[0]; i++) {
		const char *p = strstr(title, seps[i]);

		if (p && (size_t)(p - title) < cut)
			cut = (size_t)(p - title);
	}
	if (cut == strlen(title))
		return NULL;
	{
		char *h = xstrndup(title, cut);

		if (phrase_chars(h) >= 4)
			return h;
		free(h);
	}
	return NULL;
}

static json_t *note_feedback_title_set(struct note_feedback_run *r, const char *arg)
{
	const char *title = json_string_value(json_object_get(r->content, "title")) ?: "";
	int cut;
	char *t = note_feedback_title_wanted(r, arg, &cut);
	json_t *e;

	if (t == NULL)
		return note_feedback_said(0, note_feedback_msg(r, "note.fb.title.long", arg,
							       note_feedback_title_max(r)));
	if (strcmp(t, title) == 0)
		e = note_feedback_said(1, note_feedback_msg(r, "note.fb.title.already", t));
	else if (cut)
		e = note_feedback_said(1, note_feedback_msg(r, "note.fb.title.cut", t, note_feedback_title_max(r)));
	else
		e = note_feedback_said(1, note_feedback_msg(r, "note.fb.title.set", t));
	json_object_set_new(r->content, "title", json_string(t));
	free(t);
	return e;
}

/* The title the shorter one is measured against: the refused draft's. */
static const char *note_feedback_title_before(const struct note_feedback_run *r)
{
	return json_string_value(json_object_get(r->prev ? r->prev : r->entry, "title")) ?: "";
}

static json_t *note_feedback_title_shorter(struct note_feedback_run *r)
{
	const char *title = json_string_value(json_object_get(r->content, "title")) ?: "";
	size_t chars = phrase_chars(title);
	char *t;

	if (chars < phrase_chars(note_feedback_title_before(r)))
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.title.already_short", title));
	t = note_feedback_title_head(title);
	if (t == NULL)
		t = wordcut_prefix(title, chars * 2 / 3, 0);
	if (*t == '\0' || phrase_chars(t) >= chars) {
		free(t);
		return note_feedback_said(0, note_feedback_msg(r, "note.fb.title.noshorter", title));
	}
	json_object_set_new(r->content, "title", json_string(t));
	free(t);
	return note_feedback_said(1, note_feedback_msg(r, "note.fb.title.shorter",
						       json_string_value(json_object_get(r->content, "title"))));
}

static json_t *note_feedback_title_add(struct note_feedback_run *r, const char *arg)
{
	const char *title = json_string_value(json_object_get(r->content, "title")) ?: "";
	size_t max = note_feedback_title_max(r), room;
	char *head, *base, *t;
	json_t *e;

	if (phrase_has(title, arg))
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.title.has", arg));
	head = note_feedback_title_head(title);
	room = phrase_chars(arg) + 1 < max ? max - phrase_chars(arg) - 1 : 0;
	base = wordcut_prefix(head ? head : title, room, 0);
	t = *base ? xasprintf("%s%s%s", base, r->zh ? "｜" : ": ", arg) : xstrdup(arg);
	free(head);
	free(base);
	if (phrase_chars(t) > max) {
		free(t);
		return note_feedback_said(0, note_feedback_msg(r, "note.fb.title.long", arg, max));
	}
	json_object_set_new(r->content, "title", json_string(t));
	e = note_feedback_said(1, note_feedback_msg(r, "note.fb.title.add", arg, t));
	free(t);
	return e;
}

/* Another way to say a title: the topic (less what is left out) with a
 * turn of phrase, at most the title's length, not a title offered before,
 * never a word twice. */
static const char *const note_feedback_title_turns_zh[] = {
	"%s，看这篇就够了", "%s｜照着做不踩坑", "%s，我的真实经验", "一文看懂%s", "%s｜收藏备用",
};
static const char *const note_feedback_title_turns_en[] = {
	"%s: what actually worked", "%s, the practical way", "%s: the short guide", "How I do %s",
};

static json_t *note_feedback_title_rephrase(struct note_feedback_run *r)
{
	const char *const *turns = r->zh ? note_feedback_title_turns_zh : note_feedback_title_turns_en;
	size_t nt = r->zh ? sizeof note_feedback_title_turns_zh / sizeof *turns
		: sizeof note_feedback_title_turns_en / sizeof *turns, max = note_feedback_title_max(r);
	char *topic = note_rules_person_topic(json_string_value(json_object_get(r->ctx, "topic")) ?: "", r->banned);
	const char *now = json_string_value(json_object_get(r->content, "title")) ?: "";
	char *base = NULL, *t = NULL;
	json_t *e;

	for (size_t i = 0; i < nt && t == NULL; i++) {
		size_t room = phrase_chars(turns[i]) - 2;

		free(base);
		base = wordcut_prefix(topic, max > room ? max - room : 0, 0);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		t = *base ? xasprintf(turns[i], base) : NULL;
#pragma GCC diagnostic pop
		if (t && (!strcmp(t, now) || !strcmp(t, note_feedback_title_before(r)) || wordcut_repeats(t))) {
			free(t);
			t = NULL;
		}
	}
	free(base);
	free(topic);
	if (t == NULL)
		return note_feedback_said(0, note_feedback_msg(r, "note.fb.title.noturn", now));
	json_object_set_new(r->content, "title", json_string(t));
	e = note_feedback_said(1, note_feedback_msg(r, "note.fb.title.set", t));
	free(t);
	return e;
}

json_t *note_feedback_do_title(struct note_feedback_run *r, const json_t *item)
{
	const char *op = json_string_value(json_object_get(item, "op")) ?: "set";
	const char *arg = json_string_value(json_object_get(item, "arg")) ?: "";

	if (strcmp(op, "rephrase") == 0)
		return note_feedback_title_rephrase(r);
	if (strcmp(op, "shorter") == 0)
		return note_feedback_title_shorter(r);
	if (strcmp(op, "add") == 0)
		return note_feedback_title_add(r, arg);
	return note_feedback_title_set(r, arg);
}

/* ---- the items in order, and the check ---- */

static const struct {
	const char *kind;
	json_t *(*fn)(struct note_feedback_run *r, const json_t *item);
} note_feedback_kinds[] = {
	/* The order they are done in: removals first, the length last. */
	{ "remove", note_feedback_do_remove },
	{ "title", note_feedback_do_title },
	{ "more", note_feedback_do_thing },
	{ "add", note_feedback_do_thing },
	{ "longer", note_feedback_do_longer },
	{ "audience", note_feedback_do_audience },
	{ "format", note_feedback_do_format },
	{ "tone", note_feedback_do_tone },
	{ "shorter", note_feedback_do_shorter },
};

static json_t *note_feedback_do_other(struct note_feedback_run *r, const json_t *item)
{
	const char *src = json_string_value(json_object_get(r->ctx, "source")) ?: "rules";

	return note_feedback_said(0, note_feedback_msg(r, strcmp(src, "model") == 0 ? "note.fb.other.model"
							: "note.fb.other", json_string_value(json_object_get(item, "text")) ?: ""));
}

/* Whether the draft does what a done entry of item says. */
static int note_feedback_true(struct note_feedback_run *r, const json_t *item)
{
	const char *kind = json_string_value(json_object_get(item, "kind")) ?: "";
	const char *arg = json_string_value(json_object_get(item, "arg")) ?: "";
	const json_t *now = note_feedback_now(r);
	const char *title = json_string_value(json_object_get(now, "title")) ?: "";

	if (strcmp(kind, "remove") == 0) {
		json_t *topic = json_array(), *words = note_feedback_words(r, item, topic), *w;
		size_t i;
		int gone = !phrase_has_any(arg, topic);   /* the topic's own word stays */

		json_array_foreach(words, i, w)
			gone &= !note_feedback_draft_has(now, json_string_value(w));
		json_decref(words);
		json_decref(topic);
		return gone;
	}
	if (strcmp(kind, "title") == 0) {
		const char *op = json_string_value(json_object_get(item, "op")) ?: "set";
		int cut, same;
		char *t;

		if (strcmp(op, "shorter") == 0)
			return phrase_chars(title) < phrase_chars(note_feedback_title_before(r));
		if (strcmp(op, "rephrase") == 0)
			return strcmp(title, note_feedback_title_before(r)) != 0;
		if (strcmp(op, "add") == 0)
			return phrase_has(title, arg);
		t = note_feedback_title_wanted(r, arg, &cut);
		same = t && strcmp(t, title) == 0;
		free(t);
		return same;
	}
	if (strcmp(kind, "other") == 0)
		return 0;
	return note_feedback_true_edit(r, item);
}

static json_t *note_feedback_do(struct note_feedback_run *r, const json_t *item)
{
	const char *kind = json_string_value(json_object_get(item, "kind")) ?: "";

	for (size_t i = 0; i < sizeof note_feedback_kinds / sizeof note_feedback_kinds[0]; i++)
		if (strcmp(kind, note_feedback_kinds[i].kind) == 0)
			return note_feedback_kinds[i].fn(r, item);
	return note_feedback_do_other(r, item);
}

/* The run's words to leave out: ctx.banned and this round's removals. */
static json_t *note_feedback_banned_all(const json_t *items, const json_t *ctx)
{
	json_t *all = json_array(), *w;
	const json_t *it;
	size_t i, j;

	json_array_foreach(json_object_get(ctx, "banned"), i, w)
		phrase_add_unique(all, json_string_value(w));
	json_array_foreach(items, i, it)
		if (strcmp(json_string_value(json_object_get(it, "kind")) ?: "", "remove") == 0)
			json_array_foreach(json_object_get(it, "words"), j, w)
				phrase_add_unique(all, json_string_value(w));
	return all;
}

json_t *note_feedback_apply(json_t *content, const json_t *items, const json_t *ctx)
{
	struct note_feedback_run r = { 0 };
	json_t *report = json_array(), *slot[NOTE_FEEDBACK_ITEMS_MAX] = { 0 }, *e;
	const json_t *it;
	size_t n = json_array_size(items), i, k;

	if (n > NOTE_FEEDBACK_ITEMS_MAX)
		n = NOTE_FEEDBACK_ITEMS_MAX;
	r.lang = msg_lang_ok(json_string_value(json_object_get(ctx, "lang"))) ?
		json_string_value(json_object_get(ctx, "lang")) : "zh";
	r.zh = strcmp(r.lang, "zh") == 0;
	r.ctx = ctx;
	r.prev = json_is_object(json_object_get(ctx, "previous")) ? json_object_get(ctx, "previous") : NULL;
	r.content = content;
	if (!json_is_array(json_object_get(content, "tags")))
		json_object_set_new(content, "tags", json_array());
	r.entry = json_deep_copy(content);
	r.banned = note_feedback_banned_all(items, ctx);
	r.add_lines = NOTE_FEEDBACK_ADD_LINES;
	json_array_foreach(items, i, it)
		if (strcmp(json_string_value(json_object_get(it, "kind")) ?: "", "shorter") == 0)
			r.add_lines = 1;   /* 太长了，加上预算: the budget in a line, the rest cut */
	{
		char *topic = note_rules_person_topic(json_string_value(json_object_get(ctx, "topic")) ?: "", r.banned);

		r.topic_words = note_rules_topic_subject(topic, 0);
		free(topic);
	}
	note_feedback_body_read(&r.body, json_string_value(json_object_get(content, "body")) ?: "",
				json_object_get(ctx, "locked"));
	/* Kind by kind in the table's order, each item in its place. */
	for (k = 0; k <= sizeof note_feedback_kinds / sizeof note_feedback_kinds[0]; k++)
		for (i = 0; i < n; i++) {
			const char *kind = json_string_value(json_object_get(json_array_get(items, i), "kind")) ?: "";
			size_t at = sizeof note_feedback_kinds / sizeof note_feedback_kinds[0];

			for (size_t j = 0; j < sizeof note_feedback_kinds / sizeof note_feedback_kinds[0]; j++)
				if (strcmp(kind, note_feedback_kinds[j].kind) == 0)
					at = j;
			if (at == k)
				slot[i] = note_feedback_do(&r, json_array_get(items, i));
		}
	note_feedback_renumber(&r.body);
	note_feedback_now(&r);
	for (i = 0; i < n; i++) {
		it = json_array_get(items, i);
		e = slot[i];
		if (json_is_true(json_object_get(e, "done")) && !note_feedback_true(&r, it)) {
			json_decref(e);
			e = note_feedback_said(0, note_feedback_msg(&r, "note.fb.undone",
					       json_string_value(json_object_get(it, "text")) ?: ""));
		}
		json_object_set(e, "kind", json_object_get(it, "kind"));
		json_object_set(e, "arg", json_object_get(it, "arg"));
		json_object_set(e, "text", json_object_get(it, "text"));
		json_array_append_new(report, e);
	}
	note_feedback_body_free(&r.body);
	json_decref(r.entry);
	json_decref(r.banned);
	json_decref(r.topic_words);
	return report;
}
