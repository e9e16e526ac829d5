/* The feedback's edits of a note's body (note_feedback.h): a section
 * added about what the person asked for, from the research's points or
 * the corpus notes about it, credited as the writer credits; a longer or
 * shorter body; who the note is for in its opening; the points numbered
 * as a list or steps; the tone of the closing line and the headings. The
 * person's paragraphs are never changed: an edit that would have to
 * change one is declined saying so. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "text/words.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note_feedback_int.h"
#include "wf/note/note_rules.h"

#define NOTE_FEEDBACK_N(a) (sizeof(a) / sizeof((a)[0]))
#define NOTE_FEEDBACK_SHORTER 0.85   /* a shorter body: at most this share of the refused one */
#define NOTE_FEEDBACK_LONGER 1.1     /* a longer body already: at least this share of it */

/* ---- where points come from ---- */

static int note_feedback_has_digit(const char *s)
{
	return strpbrk(s, "0123456789") != NULL;
}


/* A candidate line: its text and the note it comes from. */
struct note_feedback_pick {
	json_t *lines;      /* strings */
	json_t *sources;    /* {title: likes}, in order */
};

/* The share of line's Chinese character pairs that text has too; -1
 * when line has none (English: not measured this way). */
static double note_feedback_covered(const char *line, const char *text)
{
	size_t own = note_rules_overlap(line, line);

	return own ? (double)note_rules_overlap(line, text) / (double)own : -1;
}

#define NOTE_FEEDBACK_SAID 0.7   /* a line this covered by the body says nothing new */

/* 1 when line is said by the body (its text and its lines) already: the
 * same, alike one of its lines, or most of its words there (a table's row
 * said again). */
static int note_feedback_said_already(const char *body, const json_t *lines, const char *line)
{
	double cov = note_feedback_covered(line, body);
	size_t j, n = phrase_chars(line), m;
	const json_t *l;

	if (cov >= NOTE_FEEDBACK_SAID || strstr(body, line))
		return 1;
	/* A line that alike shares most of its pairs with the body, and is
	 * about as long. */
	if (cov >= 0 && cov < NOTE_FEEDBACK_SAID / 2)
		return 0;
	json_array_foreach(lines, j, l) {
		m = phrase_chars(json_string_value(l));
		if (m * 5 >= n * 3 && n * 5 >= m * 3 && phrase_alike(json_string_value(l), line) >= PHRASE_ALIKE)
			return 1;
	}
	return 0;
}

/* A line from source that could be added: it has a term (any when
 * terms is NULL), none of the words left out, and is not said yet. Put
 * in cands as {text, source, likes}. */
static void note_feedback_offer(const struct note_feedback_run *r, json_t *cands, const json_t *terms,
				const char *line, const char *source, json_int_t likes, const char *body,
				const json_t *lines)
{
	const json_t *t;
	size_t i;
	int has = terms == NULL;

	if (!line || phrase_chars(line) < 6 || json_array_size(cands) >= 64)
		return;
	/* A price alone says nothing of the topic: 泳衣约200元 is not a
	 * sunscreen's budget. */
	json_array_foreach(terms, i, t)
		has |= note_feedback_has_term(line, json_string_value(t)) &&
		       (strcmp(json_string_value(t), NOTE_FEEDBACK_PRICE) != 0 || phrase_has_any(line, r->topic_words));
	if (!has || phrase_has_any(line, r->banned) || phrase_has_any(source, r->banned) ||
	    note_feedback_said_already(body, lines, line))
		return;
	json_array_append_new(cands, json_pack("{s:s, s:s, s:I}", "text", line, "source", source, "likes", likes));
}

/* Takes a candidate unless one alike is taken, or it would be a third
 * note. */
static void note_feedback_take(const struct note_feedback_run *r, struct note_feedback_pick *k,
			       const json_t *cand)
{
	const char *line = json_string_value(json_object_get(cand, "text"));
	const char *source = json_string_value(json_object_get(cand, "source"));
	const json_t *t;
	size_t i;

	if (json_array_size(k->lines) >= r->add_lines)
		return;
	json_array_foreach(k->lines, i, t)
		if (!strcmp(json_string_value(t), line) || phrase_alike(json_string_value(t), line) >= PHRASE_ALIKE)
			return;
	if (json_object_size(k->sources) >= 2 && !json_object_get(k->sources, source))
		return;
	json_array_append_new(k->lines, json_string(line));
	if (!json_object_get(k->sources, source))
		json_object_set(k->sources, source, json_object_get(cand, "likes"));
}

/* The sentences of a note's body, each with its mark. New reference. */
static json_t *note_feedback_sentences(const char *body)
{
	static const char *const ends[] = { "。", "！", "？", "\n" };
	json_t *out = json_array();
	const char *p = body ? body : "", *start = p;

	while (*p) {
		size_t n = 0;

		for (size_t k = 0; k < NOTE_FEEDBACK_N(ends) && n == 0; k++)
			if (strncmp(p, ends[k], strlen(ends[k])) == 0)
				n = strlen(ends[k]);
		p += n ? n : 1;
		if (n || *p == '\0') {
			char *s = xstrndup(start, (size_t)(p - start));
			size_t l = strlen(s);

			if (l && s[l - 1] == '\n')
				s[l - 1] = '\0';
			if (*s)
				json_array_append_new(out, json_string(s));
			free(s);
			start = p;
		}
	}
	return out;
}

#define NOTE_FEEDBACK_SEEN_MAX 240   /* sentences of the corpus notes looked at for one item */

/* Lines about terms (all of the research's points when NULL): the
 * research's points first, then the corpus notes the caller found; those
 * with a number (a price, a time, an amount) before those without. */
static void note_feedback_gather(const struct note_feedback_run *r, struct note_feedback_pick *k,
				 const json_t *terms)
{
	json_t *cands = json_array(), *lines;
	char *body = note_feedback_body_text(&r->body);
	const json_t *p, *s;
	size_t i, j, seen = 0;

	lines = note_feedback_lines(body);
	json_array_foreach(json_object_get(r->ctx, "points"), i, p)
		note_feedback_offer(r, cands, terms, json_string_value(json_object_get(p, "text")),
				    json_string_value(json_object_get(p, "source")) ?: "",
				    json_integer_value(json_object_get(p, "likes")), body, lines);
	json_array_foreach(terms ? json_object_get(r->ctx, "notes") : NULL, i, p) {
		json_t *sent = note_feedback_sentences(json_string_value(json_object_get(p, "body")));

		json_array_foreach(sent, j, s)
			if (++seen <= NOTE_FEEDBACK_SEEN_MAX)
				note_feedback_offer(r, cands, terms, json_string_value(s),
						    json_string_value(json_object_get(p, "title")) ?: "",
						    json_integer_value(json_object_get(p, "likes")), body, lines);
		json_decref(sent);
	}
	for (int pass = 0; pass < 2; pass++)
		json_array_foreach(cands, i, p)
			if (note_feedback_has_digit(json_string_value(json_object_get(p, "text"))) == !pass)
				note_feedback_take(r, k, p);
	json_decref(cands);
	json_decref(lines);
	free(body);
}

/* Where points come from, as the writer says it: （出自笔记《a》，N 赞；《b》，M 赞）. */
static char *note_feedback_credit(const struct note_feedback_run *r, const json_t *sources)
{
	const char *title;
	json_t *likes;
	struct buf b;

	buf_init(&b, 4096);
	json_object_foreach((json_t *)sources, title, likes) {
		if (r->zh)
			buf_printf(&b, "%s《%s》，%lld 赞", b.len ? "；" : "（出自笔记", title,
				   (long long)json_integer_value(likes));
		else
			buf_printf(&b, "%s\"%s\", %lld likes", b.len ? "; " : "(From the notes ", title,
				   (long long)json_integer_value(likes));
	}
	buf_adds(&b, r->zh ? "）" : ")");
	return buf_steal(&b);
}

/* The titles of the sources, 《a》《b》 joined for a report. */
static char *note_feedback_source_names(const json_t *sources)
{
	const char *title;
	json_t *v;
	struct buf b;

	buf_init(&b, 4096);
	json_object_foreach((json_t *)sources, title, v)
		buf_printf(&b, "%s%s", b.len ? "》《" : "", title);
	return b.data ? buf_steal(&b) : xstrdup("");
}

/* Adds a section (heading, the lines, the credit) before the closing
 * line, numbered on from the body's sections. Returns its heading. The
 * caller frees it. */
static char *note_feedback_add_section(struct note_feedback_run *r, const char *heading,
				       const struct note_feedback_pick *k)
{
	char *no = note_feedback_next_number(&r->body), *credit = note_feedback_credit(r, k->sources), *text;
	char *head = xasprintf("%s%s", no, heading);
	const json_t *l;
	struct buf b;
	size_t i;

	buf_init(&b, PHRASE_TEXT_MAX);
	buf_adds(&b, head);
	json_array_foreach(k->lines, i, l) {
		int step;
		const char *s = json_string_value(l);
		size_t n;

		s += note_feedback_marker(s, &step);   /* the number it had in its own note */
		n = strlen(s);
		int ends = n >= 3 && (strcmp(s + n - 3, "。") == 0 || strcmp(s + n - 3, "！") == 0 ||
				      strcmp(s + n - 3, "？") == 0);

		buf_printf(&b, "\n%s%s", s, r->zh && !ends ? "。" : "");
	}
	buf_printf(&b, "\n%s", credit);
	text = buf_steal(&b);
	note_feedback_body_insert(&r->body, note_feedback_closing(r), text, 1);
	free(text);
	free(credit);
	free(no);
	return head;
}

/* ---- more, add ---- */

json_t *note_feedback_do_thing(struct note_feedback_run *r, const json_t *item)
{
	const char *arg = json_string_value(json_object_get(item, "arg")) ?: "";
	int more = strcmp(json_string_value(json_object_get(item, "kind")) ?: "", "more") == 0;
	json_t *terms = note_feedback_terms(item), *e;
	struct note_feedback_pick k = { json_array(), json_object() };
	char *head, *names;

	if (note_feedback_true_edit(r, item)) {
		e = note_feedback_said(1, note_feedback_msg(r, more ? "note.fb.more.already" : "note.fb.add.already", arg));
		goto done;
	}
	note_feedback_gather(r, &k, terms);
	if (json_array_size(k.lines) == 0) {
		e = note_feedback_said(0, note_feedback_msg(r, "note.fb.add.none", arg));
		goto done;
	}
	head = note_feedback_add_section(r, arg, &k);
	names = note_feedback_source_names(k.sources);
	if (more)
		e = note_feedback_said(1, note_feedback_msg(r, "note.fb.more.done", arg, json_array_size(k.lines), names));
	else
		e = note_feedback_said(1, note_feedback_msg(r, "note.fb.add.done", head, names));
	free(head);
	free(names);
done:
	json_decref(terms);
	json_decref(k.lines);
	json_decref(k.sources);
	return e;
}

/* ---- longer, shorter ---- */

/* A note's title up to its first separator: the heading of its points. */
static char *note_feedback_source_head(const char *title)
{
	static const char *const seps[] = { "｜", "，", "：", "！", "？", "（", "|", ",", ":" };
	size_t cut = strlen(title);

	for (size_t i = 0; i < NOTE_FEEDBACK_N(seps); i++) {
		const char *p = strstr(title, seps[i]);

		if (p && (size_t)(p - title) >= 6 && (size_t)(p - title) < cut)
			cut = (size_t)(p - title);
	}
	return xstrndup(title, cut);
}

json_t *note_feedback_do_longer(struct note_feedback_run *r, const json_t *item)
{
	size_t before = note_feedback_before(r, item), now = note_feedback_body_chars(&r->body);
	struct note_feedback_pick k = { json_array(), json_object() };
	const char *src;
	char *head, *heading, *names;
	json_t *e;

	if ((double)now >= (double)before * NOTE_FEEDBACK_LONGER) {
		e = note_feedback_said(1, note_feedback_msg(r, "note.fb.longer.already", now, before));
		goto done;
	}
	note_feedback_gather(r, &k, NULL);
	if (json_array_size(k.lines) == 0) {
		e = note_feedback_said(0, note_feedback_msg(r, "note.fb.longer.none"));
		goto done;
	}
	src = json_object_iter_key(json_object_iter(k.sources));
	heading = note_feedback_source_head(src ? src : "");
	head = note_feedback_add_section(r, *heading ? heading : (r->zh ? "更多经验" : "More tips"), &k);
	names = note_feedback_source_names(k.sources);
	e = note_feedback_said(1, note_feedback_msg(r, "note.fb.longer.done", before,
						    note_feedback_body_chars(&r->body), head, names));
	free(heading);
	free(head);
	free(names);
done:
	json_decref(k.lines);
	json_decref(k.sources);
	return e;
}

/* Points of a section (its lines but the heading and the credit). */
static size_t note_feedback_points(const char *text)
{
	json_t *lines = note_feedback_lines(text), *l;
	size_t i, n = 0;

	json_array_foreach(lines, i, l)
		n += i > 0 && !note_feedback_is_credit(json_string_value(l));
	json_decref(lines);
	return n;
}

/* How much a reader would miss a point: a row of a table, a number or
 * an amount, a note that backs it, the topic's own words; nothing when
 * the rest of the body says it already. */
static int note_feedback_worth(const char *line, int backed, const json_t *words, const char *rest)
{
	int w = backed;

	if (note_feedback_covered(line, rest) >= NOTE_FEEDBACK_SAID)
		return -3;
	if (strchr(line, '|'))
		w += 3;
	if (note_feedback_has_digit(line))
		w += 2;
	else if (strpbrk(line, "0123456789") || words_match_any(line, "一|两|三|四|五|六|七|八|九|十|半"))
		w += 1;
	w += phrase_has_any(line, words);
	return w;
}

/* The body but line j of paragraph i. The caller frees it. */
static char *note_feedback_rest(const struct note_feedback_run *r, size_t i, const json_t *lines, size_t j)
{
	struct buf b;
	const json_t *l;
	size_t k;

	buf_init(&b, PHRASE_TEXT_MAX);
	for (k = 0; k < r->body.n; k++)
		if (k != i)
			buf_printf(&b, "%s\n", r->body.p[k].text);
	json_array_foreach(lines, k, l)
		if (k != j)
			buf_printf(&b, "%s\n", json_string_value(l));
	return b.data ? buf_steal(&b) : xstrdup("");
}

/* The opening without its middle clauses (关于X，翻了…，整理在下面，特别适合Y。
 * keeps 关于X and 特别适合Y), or NULL when it has fewer than three. The
 * caller frees it. */
static char *note_feedback_opening_short(const struct note_feedback_run *r)
{
	const struct note_feedback_par *p = r->body.n > 1 ? &r->body.p[0] : NULL;
	const char *first, *last;

	if (p == NULL || p->locked || p->fresh || note_feedback_is_section(p->text) || strchr(p->text, '\n'))
		return NULL;
	first = strstr(p->text, r->zh ? "，" : ", ");
	last = first ? strstr(first + 1, r->zh ? "，" : ", ") : NULL;
	if (last == NULL)
		return NULL;
	for (const char *q = last; (q = strstr(q + 1, r->zh ? "，" : ", ")) != NULL;)
		last = q;
	return xasprintf("%.*s%s", (int)(first - p->text), p->text, last);
}

/* A point that could be cut: where it is, what it is worth, its length. */
struct note_feedback_cut {
	size_t par, line, chars;
	int worth;
};

static int note_feedback_cut_order(const void *a, const void *b)
{
	const struct note_feedback_cut *x = a, *y = b;

	if (x->worth != y->worth)
		return x->worth < y->worth ? -1 : 1;
	if (x->par != y->par)
		return x->par > y->par ? -1 : 1;   /* the later first */
	return x->line > y->line ? -1 : x->line < y->line;
}

#define NOTE_FEEDBACK_CUTS_MAX 256

/* The points of the writer's sections, each weighed once, least worth
 * first: headings, credits, a table's first rows, the person's
 * paragraphs and what this round added are not among them. Returns how
 * many; the caller frees *out. */
static size_t note_feedback_cut_list(const struct note_feedback_run *r, const json_t *words,
				     struct note_feedback_cut **out)
{
	struct note_feedback_cut *c = xcalloc(NOTE_FEEDBACK_CUTS_MAX, sizeof *c);
	size_t n = 0;

	for (size_t i = 0; i < r->body.n; i++) {
		const struct note_feedback_par *p = &r->body.p[i];
		int backed = strstr(p->text, "\n（出自") || strstr(p->text, "\n(From");
		json_t *lines;
		const json_t *l;
		size_t j;

		if (p->locked || p->fresh || !note_feedback_is_section(p->text))
			continue;
		lines = note_feedback_lines(p->text);
		json_array_foreach(lines, j, l) {
			const char *s = json_string_value(l);
			char *rest;

			if (j == 0 || note_feedback_is_credit(s) || (strchr(s, '|') && j <= 3) ||
			    n >= NOTE_FEEDBACK_CUTS_MAX)
				continue;
			rest = note_feedback_rest(r, i, lines, j);
			c[n++] = (struct note_feedback_cut){ i, j, phrase_chars(s) + 1,
							     note_feedback_worth(s, backed, words, rest) };
			free(rest);
		}
		json_decref(lines);
	}
	qsort(c, n, sizeof *c, note_feedback_cut_order);
	*out = c;
	return n;
}

/* A section without the lines marked in gone, or NULL when no point is
 * left. The caller frees it. */
static char *note_feedback_without_lines(const char *text, const unsigned char *gone)
{
	json_t *lines = note_feedback_lines(text), *kept = json_array(), *l;
	size_t j, points = 0;
	char *out = NULL;

	json_array_foreach(lines, j, l) {
		if (gone[j])
			continue;
		points += j > 0 && !note_feedback_is_credit(json_string_value(l));
		json_array_append(kept, l);
	}
	if (points)
		out = note_feedback_join(kept);
	json_decref(lines);
	json_decref(kept);
	return out;
}

/* Cuts points, the least worth first, until the body is down to target
 * characters: a section keeps its last point unless that point is worth
 * nothing and two other sections stay. Returns the cuts made. */
static size_t note_feedback_cut_to(struct note_feedback_run *r, const json_t *words, size_t target)
{
	struct note_feedback_cut *c;
	size_t n = note_feedback_cut_list(r, words, &c), now = note_feedback_body_chars(&r->body), made = 0;
	size_t pars = r->body.n, sections = 0;
	size_t *left = xcalloc(pars + 1, sizeof *left);
	unsigned char **gone = xcalloc(pars + 1, sizeof *gone);

	for (size_t i = 0; i < pars; i++) {
		json_t *lines = note_feedback_lines(r->body.p[i].text);

		sections += note_feedback_is_section(r->body.p[i].text);
		left[i] = note_feedback_is_section(r->body.p[i].text) ? note_feedback_points(r->body.p[i].text) : 0;
		gone[i] = xcalloc(json_array_size(lines) + 1, 1);
		json_decref(lines);
	}
	for (size_t k = 0; k < n && now > target; k++) {
		if (left[c[k].par] == 1 && (c[k].worth > 0 || sections < 3))
			continue;
		gone[c[k].par][c[k].line] = 1;
		now -= c[k].chars < now ? c[k].chars : now;
		if (--left[c[k].par] == 0)
			sections--;
		made++;
	}
	for (size_t i = pars; i-- > 0;) {
		char *t;

		if (!note_feedback_is_section(r->body.p[i].text))
			continue;
		t = note_feedback_without_lines(r->body.p[i].text, gone[i]);
		if (t == NULL)
			note_feedback_body_remove(&r->body, i);
		else if (strcmp(t, r->body.p[i].text) != 0)
			note_feedback_body_set(&r->body, i, t);
		free(t);
	}
	for (size_t i = 0; i < pars; i++)
		free(gone[i]);
	free(gone);
	free(left);
	free(c);
	return made;
}

json_t *note_feedback_do_shorter(struct note_feedback_run *r, const json_t *item)
{
	size_t before = note_feedback_before(r, item), now = note_feedback_body_chars(&r->body), cut = 0;
	json_t *words;
	char *t;

	if ((double)now <= (double)before * 0.9)
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.shorter.already", now, before));
	words = note_rules_topic_subject(json_string_value(json_object_get(r->ctx, "topic")) ?: "", 0);
	if ((t = note_feedback_opening_short(r)) != NULL) {
		note_feedback_body_set(&r->body, 0, t);
		free(t);
		cut++;
	}
	cut += note_feedback_cut_to(r, words, (size_t)((double)before * NOTE_FEEDBACK_SHORTER));
	json_decref(words);
	now = note_feedback_body_chars(&r->body);
	if (now < before)
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.shorter.done", before, now, cut));
	return note_feedback_said(0, note_feedback_msg(r, "note.fb.shorter.none"));
}
