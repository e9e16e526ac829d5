/* The note workflow's layout and image plans, offline (seed 001 §2). The
 * layout picks the canvas from the reference images' shape (3:4 portrait,
 * the platform's feed ratio, when there is none), how many images the
 * layout preference allows (dense 2, balanced 3, visual-first one per
 * section plus the cover), which paragraph each image serves and what
 * text goes over it. The image plans write one prompt per image from its
 * paragraph's own words, one style for the whole set (so the set looks
 * like one note), a composition per image and the reference palette by
 * colour names; a new attempt turns the style and the compositions. A
 * style the person asked for (换成水彩风, use a watercolor style; in the
 * feedback or an earlier reply) replaces the set's style. When every
 * item of a reject's feedback names a change the workflow makes itself
 * (move, drop, redraw one picture, a style, a count: note_plans_feedback.c),
 * the plans shown are kept, so nothing the person did not ask about
 * changes. The text over a picture (the cover line, a section's heading
 * and first point) is cut between words (text/wordcut.h), and a note
 * written in English gets its plans and text in English. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "text/script.h"
#include "text/wordcut.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))
#define OFFLINE_MAX_IMAGES 6

/* The length of the Han character at p, or 0 for anything else. */
static size_t note_rules_han_len(const unsigned char *p)
{
	uint32_t cp;
	size_t n = text_utf8_next(p, p + strnlen((const char *)p, 4), &cp);

	return text_is_han(cp) ? n : 0;
}

size_t note_rules_overlap(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)(a ? a : "");
	json_t *seen = json_object();
	size_t n = 0, lim = 4000;

	while (*p && lim-- > 0) {
		char pair[9];
		size_t n1 = note_rules_han_len(p), n2 = n1 ? note_rules_han_len(p + n1) : 0;

		if (n2 == 0) {
			p++;
			continue;
		}
		memcpy(pair, p, n1 + n2);
		pair[n1 + n2] = '\0';
		if (json_object_get(seen, pair) == NULL && b && strstr(b, pair)) {
			json_object_set_new(seen, pair, json_true());
			n++;
		}
		p += n1;
	}
	json_decref(seen);
	return n;
}

/* ---- the layout ---- */

static const char *note_rules_par_str(const json_t *par, const char *key)
{
	return json_string_value(json_object_get(par, key)) ?: "";
}

/* The paragraphs that head a section; without headings, all but the first. */
static json_t *note_rules_sections(const json_t *pars)
{
	json_t *out = json_array(), *p;
	size_t i;

	json_array_foreach(pars, i, p)
		if (*note_rules_par_str(p, "heading"))
			json_array_append(out, p);
	if (json_array_size(out) == 0)
		json_array_foreach(pars, i, p)
			if (i > 0)
				json_array_append(out, p);
	return out;
}

static json_t *note_rules_canvas(const json_t *ref)
{
	const char *o = phrase_str(ref, "orientation"), *aspect = phrase_str(ref, "aspect");

	if (o && strcmp(o, "landscape") == 0)
		return json_pack("{s:i, s:i, s:s}", "width", 1024, "height", 768, "aspect", "4:3");
	if (o && strcmp(o, "square") == 0)
		return json_pack("{s:i, s:i, s:s}", "width", 1024, "height", 1024, "aspect", "1:1");
	if (aspect && strcmp(aspect, "9:16") == 0)
		return json_pack("{s:i, s:i, s:s}", "width", 576, "height", 1024, "aspect", "9:16");
	return json_pack("{s:i, s:i, s:s}", "width", 768, "height", 1024, "aspect", "3:4");
}

static size_t note_rules_image_count(const char *pref, size_t sections)
{
	size_t n = 3;

	if (pref && strcmp(pref, "dense") == 0)
		n = 2;
	else if (pref && strcmp(pref, "visual-first") == 0)
		n = sections + 1;
	if (n > sections + 1)
		n = sections + 1;
	return n > OFFLINE_MAX_IMAGES ? OFFLINE_MAX_IMAGES : n < 1 ? 1 : n;
}

static const char *note_rules_density(const char *pref)
{
	if (pref && strcmp(pref, "dense") == 0)
		return "high";
	if (pref && strcmp(pref, "visual-first") == 0)
		return "low";
	return "medium";
}

/* How many characters of text fit over a picture: English letters are
 * about half as wide as Chinese characters. */
static size_t note_rules_fit(size_t zh, int en)
{
	return en ? zh * 2 : zh;
}

/* An English line cut after a word that leads into the next (a trip
 * to…): the word goes, the ellipsis stays. Takes line. */
static char *note_rules_line_tidy(char *line)
{
	static const char *const lead[] = { " a…", " an…", " the…", " to…", " of…", " and…", " for…", " in…",
					    " on…", " with…", " at…", " or…", " by…" };
	size_t n = strlen(line);

	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; i < OFFLINE_N(lead); i++) {
			size_t k = strlen(lead[i]);

			if (n > k + 1 && strcasecmp(line + n - k, lead[i]) == 0) {
				strcpy(line + n - k, "…");
				n = strlen(line);
				again = 1;
			}
		}
	}
	return line;
}

/* At most max characters of s, cut between words with an ellipsis; a
 * first word longer than that is kept whole rather than cut. The caller
 * frees it. */
char *note_rules_line(const char *s, size_t max)
{
	static const char *const marks[] = { "，", "；", "、", ", ", "; " };
	const char *at = NULL;
	char *out, *cut;

	if (s == NULL || phrase_chars(s) <= max)
		return xstrdup(s ? s : "");
	out = wordcut_prefix(s, max, 1);
	for (size_t wider = max * 2; *out == '\0' && wider <= max * 8; wider *= 2) {
		free(out);
		out = wordcut_prefix(s, wider, 1);
	}
	/* A clause that ends past the middle reads better than a cut one. */
	for (size_t i = 0; i < OFFLINE_N(marks); i++)
		for (const char *p = strstr(out, marks[i]); p; p = strstr(p + 1, marks[i]))
			if (at == NULL || p > at)
				at = p;
	if (at == NULL || phrase_chars(out) - phrase_chars(at) < max / 2)
		return note_rules_line_tidy(out);
	cut = xasprintf("%.*s…", (int)(at - out), out);
	free(out);
	return cut;
}

char *note_rules_cover_line(const char *title, int en)
{
	static const char *const seps[] = { "｜", " | ", "|", "：", ": ", " — ", "——", "，", ", " };
	size_t max = note_rules_fit(14, en);

	if (title == NULL || phrase_chars(title) <= max)
		return xstrdup(title ? title : "");
	for (size_t i = 0; i < OFFLINE_N(seps); i++) {
		const char *at = strstr(title, seps[i]);
		char *head;

		if (at == NULL || at == title)
			continue;
		head = xstrndup(title, (size_t)(at - title));
		if (phrase_chars(head) <= max)
			return head;
		free(head);
	}
	return note_rules_line(title, max);
}

/* The first sentence of a paragraph after its heading, at most max
 * characters, cut between words. The caller frees it. */
static char *note_rules_lead(const json_t *par, size_t max)
{
	const char *text = note_rules_par_str(par, "text"), *nl = strchr(text, '\n');
	json_t *sent = phrase_sentences(*note_rules_par_str(par, "heading") && nl ? nl + 1 : text, 1);
	char *out = note_rules_line(json_string_value(json_array_get(sent, 0)) ?: "", max);

	json_decref(sent);
	return out;
}

/* A heading without its numbering ("一、", "1.", "01 "). */
static const char *note_rules_unnumbered(const char *h)
{
	const char *mark = strstr(h, "、");

	if (mark && mark - h <= 6)
		return mark + strlen("、");
	while ((*h >= '0' && *h <= '9') || *h == '.' || *h == ' ')
		h++;
	return h;
}

/* Whether w says again what a word of arr says (猫咪五岁 and 猫咪五岁的日常). */
static int note_rules_said(const json_t *arr, const char *w)
{
	const json_t *v;
	size_t i;

	json_array_foreach(arr, i, v)
		if (phrase_has(json_string_value(v), w) || phrase_has(w, json_string_value(v)))
			return 1;
	return 0;
}

/* Words of a note's own sentences that say nothing a picture can show. */
static int note_rules_unpictured(const char *w)
{
	static const char *const words[] = { "关于", "整理", "这篇", "几条", "实用", "经验", "分享", "真实",
		"细节", "情况", "大家", "我们", "自己", "亲测有用", "亲测", "收藏", "建议", "注意", "practical",
		"guide", "tips", "points", "matter", "written" };

	for (size_t i = 0; i < OFFLINE_N(words); i++)
		if (strcasecmp(w, words[i]) == 0)
			return 1;
	return 0;
}

/* Up to take words naming what text is about (whole words: the topic's
 * word list), each at most max characters, added to out (at most cap). */
static void note_rules_words_into(json_t *out, const char *text, size_t take, size_t max, size_t cap)
{
	json_t *kw = note_rules_topic_subject(text, 0), *v;
	size_t i, added = 0;

	json_array_foreach(kw, i, v)
		if (added < take && json_array_size(out) < cap && !phrase_generic(json_string_value(v)) &&
		    !note_rules_unpictured(json_string_value(v)) &&
		    phrase_chars(json_string_value(v)) <= max && !note_rules_said(out, json_string_value(v))) {
			json_array_append(out, v);
			added++;
		}
	json_decref(kw);
}

/* The subject of a section's picture: its heading without the number
 * when short, else its own first words. The caller frees it. */
static char *note_rules_focus(const json_t *par, const char *fallback, int en)
{
	const char *head = note_rules_unnumbered(note_rules_par_str(par, "heading"));
	json_t *w;
	char *out;

	if (*head && phrase_chars(head) <= note_rules_fit(8, en))
		return xstrdup(head);
	w = json_array();
	note_rules_words_into(w, *head ? head : note_rules_par_str(par, "text"), 1, note_rules_fit(6, en) * 2, 1);
	if (json_array_size(w) == 0)
		note_rules_words_into(w, note_rules_par_str(par, "text"), 1, note_rules_fit(6, en) * 2, 1);
	out = xstrdup(json_string_value(json_array_get(w, 0)) ?: fallback);
	json_decref(w);
	return out;
}

/* The cover's subject: the topic's own words, two of them. */
static char *note_rules_cover_focus(const char *topic, const char *title, int en)
{
	json_t *w = json_array();
	struct buf b;

	note_rules_words_into(w, topic, 2, note_rules_fit(6, en) * 2, 2);
	if (json_array_size(w) == 0)
		note_rules_words_into(w, title, 2, note_rules_fit(6, en) * 2, 2);
	buf_init(&b, 256);
	if (json_array_size(w))
		phrase_join(&b, w, en ? " and " : "、", 2);
	else
		buf_adds(&b, title);
	json_decref(w);
	return buf_steal(&b);
}

struct note_rules_layout {
	const char *title, *topic, *density;
	int en;
	json_t *specs, *overlays;
};

static void note_rules_cover_spec(struct note_rules_layout *l, const json_t *opening, const char *placement)
{
	char *focus = note_rules_cover_focus(l->topic, l->title, l->en);
	char *line = note_rules_cover_line(l->title, l->en);

	json_array_append_new(l->specs, json_pack("{s:i, s:s, s:s, s:s, s:s, s:[{s:s, s:s+}, {s:s, s:s+}, {s:s, s:s}]}",
		"imageSeq", 1, "role", "cover", "paragraphId", note_rules_par_str(opening, "id"),
		"visualFocus", focus, "textDensity", l->density, "blocks",
		"area", "title", "instruction", l->en ? "Headline: " : "大字标题：", line,
		"area", "visual_focus", "instruction", l->en ? "Main visual: " : "主视觉：", focus,
		"area", "footer", "instruction", l->en ? "Leave a strip at the bottom for the hashtags"
						       : "底部留出话题标签条"));
	json_array_append_new(l->overlays, json_pack("{s:i, s:s, s:s}", "imageSeq", 1, "titleText", line,
						     "placement", placement));
	free(focus);
	free(line);
}

static void note_rules_section_spec(struct note_rules_layout *l, int seq, const json_t *sec, int last)
{
	const char *heading = note_rules_par_str(sec, "heading");
	char *lead = note_rules_lead(sec, note_rules_fit(24, l->en));
	char *focus = note_rules_focus(sec, *heading ? heading : lead, l->en);
	char *head = note_rules_line(*heading ? heading : lead, note_rules_fit(16, l->en));
	json_t *spec = json_pack("{s:i, s:s, s:s, s:s, s:s, s:[{s:s, s:s}, {s:s, s:s+}]}", "imageSeq",
		seq, "role", last ? "summary" : "content", "paragraphId", note_rules_par_str(sec, "id"),
		"visualFocus", focus, "textDensity", l->density, "blocks", "area", "title", "instruction",
		head, "area", "visual_focus", "instruction", l->en ? "Subject: " : "画面主体：", focus);
	json_t *ov = json_pack("{s:i, s:s, s:s}", "imageSeq", seq, "titleText", head, "placement",
			       "bottom");

	if (strcmp(l->density, "low") != 0) {
		json_array_append_new(json_object_get(spec, "blocks"),
				      json_pack("{s:s, s:s+}", "area", "body", "instruction",
						l->en ? "Key point: " : "要点：", lead));
		json_object_set_new(ov, "bodyText", json_string(lead));
	}
	json_array_append_new(l->specs, spec);
	json_array_append_new(l->overlays, ov);
	free(focus);
	free(lead);
	free(head);
}

json_t *note_rules_task_layout(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const json_t *pars = json_object_get(facts, "paragraphs"), *ref = json_object_get(facts, "reference");
	const char *pref = phrase_str(facts, "layoutPreference");
	struct note_rules_layout l = { .density = note_rules_density(pref) };
	json_t *sections, *ref_b = json_object_get(ref, "brightness");
	size_t n, i;

	l.title = phrase_str(facts, "title") ?: phrase_str(facts, "topic") ?: text ?: "";
	l.topic = phrase_str(facts, "topic") ?: l.title;
	l.en = note_rules_plan_en(l.title);
	if (json_array_size(pars) == 0) {
		snprintf(err, errlen, "the layout needs the note's paragraphs");
		return NULL;
	}
	sections = note_rules_sections(pars);
	n = note_rules_image_count(pref, json_array_size(sections));
	l.specs = json_array();
	l.overlays = json_array();
	note_rules_cover_spec(&l, json_array_get(pars, 0), json_number_value(ref_b) > 0.6 ? "top" : "center");
	for (i = 1; i < n; i++)
		note_rules_section_spec(&l, (int)i + 1, json_array_get(sections, i - 1), i + 1 == n && n > 2);
	json_decref(sections);
	return json_pack("{s:o, s:i, s:o, s:o, s:s}", "canvas", note_rules_canvas(ref), "imageCount",
			 (int)n, "layoutSpec", l.specs, "textOverlayPlan", l.overlays, "reason",
			 l.en ? (ref && json_object_get(ref, "orientation")
				 ? "the canvas follows the reference; the number of pictures follows the layout preference and the sections"
				 : "3:4 portrait by default; the number of pictures follows the layout preference and the sections")
			      : ref && json_object_get(ref, "orientation") ? "画幅跟随参考图，配图数量按版式偏好与小节数"
									  : "默认 3:4 竖版，配图数量按版式偏好与小节数");
}

/* ---- image plans ---- */

/* The style text asks for (换成水彩风, use a watercolor style), or -1 (none,
 * or one it refuses). */
static int note_rules_style_in(const char *text)
{
	int no = 0, k = note_rules_plan_style_asked(text, &no);

	return k >= 0 && !no ? k : -1;
}

/* The style the person asked for: in this feedback, else the latest of
 * their earlier replies; -1 when none did. */
static int note_rules_asked_style(const json_t *facts)
{
	const json_t *replies = json_object_get(facts, "replies");
	int k = note_rules_style_in(phrase_str(facts, "feedback"));

	for (size_t i = json_array_size(replies); k < 0 && i > 0; i--)
		k = note_rules_style_in(json_string_value(json_array_get(replies, i - 1)));
	return k;
}

/* The style the feedback refuses (不要水彩), or -1. */
static int note_rules_refused_style(const char *feedback)
{
	int no = 0, k = note_rules_plan_style_asked(feedback, &no);

	return k >= 0 && no ? k : -1;
}

static const struct { const char *zh, *en; int r, g, b; } note_rules_colours[] = {
	{ "红", "red", 220, 50, 50 }, { "橙", "orange", 240, 140, 40 }, { "黄", "yellow", 240, 210, 60 },
	{ "绿", "green", 60, 160, 80 }, { "青", "teal", 40, 170, 170 }, { "蓝", "blue", 50, 100, 210 },
	{ "紫", "purple", 140, 80, 190 }, { "粉", "pink", 240, 150, 180 }, { "棕", "brown", 140, 90, 50 },
	{ "米白", "cream", 240, 230, 210 }, { "白", "white", 250, 250, 250 }, { "灰", "grey", 128, 128, 128 },
	{ "黑", "black", 20, 20, 20 },
};

static const char *note_rules_colour_name(const char *hex, int en)
{
	unsigned r, g, b;
	long best = -1;
	const char *name = NULL;

	if (hex == NULL || sscanf(hex, "#%2x%2x%2x", &r, &g, &b) != 3)
		return NULL;
	for (size_t i = 0; i < OFFLINE_N(note_rules_colours); i++) {
		long dr = (long)r - note_rules_colours[i].r, dg = (long)g - note_rules_colours[i].g;
		long db = (long)b - note_rules_colours[i].b, d = dr * dr + dg * dg + db * db;

		if (best < 0 || d < best) {
			best = d;
			name = en ? note_rules_colours[i].en : note_rules_colours[i].zh;
		}
	}
	return name;
}

/* "配色：橙、米白" from the reference palette, or "" when there is none. */
static char *note_rules_palette_words(const json_t *palette, int en)
{
	json_t *names = json_array(), *v;
	struct buf b;
	size_t i;

	json_array_foreach(palette, i, v)
		if (i < 4)
			phrase_add_unique(names, note_rules_colour_name(json_string_value(v), en));
	buf_init(&b, 256);
	if (json_array_size(names)) {
		buf_adds(&b, en ? "palette: " : "配色：");
		phrase_join(&b, names, en ? ", " : "、", 3);
	}
	json_decref(names);
	return buf_steal(&b);
}

static const json_t *note_rules_par_by_id(const json_t *pars, const char *id, size_t *index)
{
	const json_t *p;
	size_t i;

	json_array_foreach(pars, i, p)
		if (strcmp(note_rules_par_str(p, "id"), id ? id : "") == 0) {
			*index = i;
			return p;
		}
	*index = 0;
	return json_array_get(pars, 0);
}

/* The subject words of an image: the cover's from the topic and the
 * title; a section's from its heading, its own words, then the topic. */
static json_t *note_rules_subjects(const json_t *par, const char *topic, const char *title, int cover, int en)
{
	json_t *out = json_array();
	const char *head = note_rules_unnumbered(note_rules_par_str(par, "heading"));
	size_t max = note_rules_fit(6, en) * 2;

	if (cover) {
		note_rules_words_into(out, topic, 3, max, 3);
		if (json_array_size(out) == 0)
			note_rules_words_into(out, title ? title : topic, 3, max, 3);
	} else {
		if (*head && phrase_chars(head) <= note_rules_fit(10, en))
			json_array_append_new(out, json_string(head));
		note_rules_words_into(out, note_rules_par_str(par, "text"), 2, max, 3);
	}
	note_rules_words_into(out, topic, 1, max, 4);
	if (json_array_size(out) == 0)
		json_array_append_new(out, json_string(topic));
	return out;
}

struct note_rules_plan_ctx {
	const json_t *facts, *pars;
	const char *topic, *style, *tone;
	char *palette;
	unsigned rot;
	int en;
	json_t *plans, *bindings;
};

static void note_rules_plan_one(struct note_rules_plan_ctx *x, size_t i, const json_t *spec)
{
	size_t pi, k;
	const json_t *par = note_rules_par_by_id(x->pars, phrase_str(spec, "paragraphId"), &pi);
	const char *role = phrase_str(spec, "role") ?: "content", *sep = x->en ? ", " : "，";
	int cover = strcmp(role, "cover") == 0;
	json_t *subj = note_rules_subjects(par, x->topic, phrase_str(x->facts, "title"), cover, x->en);
	json_t *shared = json_array(), *v;
	struct buf p;

	buf_init(&p, 4096);
	phrase_join(&p, subj, sep, 4);
	buf_printf(&p, "%s%s%s%s", sep, note_rules_plan_composition(i + x->rot, x->en), sep, x->style);
	if (x->tone)
		buf_printf(&p, "%s%s", sep, x->tone);
	if (*x->palette)
		buf_printf(&p, "%s%s", sep, x->palette);
	buf_printf(&p, "%s%s", sep, note_rules_plan_role(cover, x->en));
	json_array_foreach(subj, k, v)
		if (phrase_has(note_rules_par_str(par, "text"), json_string_value(v)))
			json_array_append(shared, v);
	json_array_append_new(x->plans, json_pack("{s:I, s:s, s:s, s:i, s:s+, s:s}", "sequence",
		json_integer_value(json_object_get(spec, "imageSeq")), "role", role, "paragraphId",
		note_rules_par_str(par, "id"), "paragraphIndex", (int)pi, "description",
		note_rules_plan_label(cover, x->en), phrase_str(spec, "visualFocus") ?: x->topic,
		"prompt", p.data));
	json_array_append_new(x->bindings, json_pack("{s:s, s:i, s:I, s:o}", "paragraphId",
		note_rules_par_str(par, "id"), "paragraphIndex", (int)pi, "imageSeq",
		json_integer_value(json_object_get(spec, "imageSeq")), "sharedWords", shared));
	buf_free(&p);
	json_decref(subj);
}

/* Whether the feedback is made only of changes the workflow makes on the
 * plans shown (facts.items, none of kind "other"): then those plans are
 * the answer, and nothing the person did not name changes. */
static int note_rules_plan_keep(const json_t *facts)
{
	const json_t *items = json_object_get(facts, "items"), *it;
	size_t i;

	if (json_array_size(items) == 0 || json_array_size(json_object_get(facts, "previous")) == 0)
		return 0;
	json_array_foreach(items, i, it)
		if (strcmp(phrase_str(it, "kind") ?: "other", "other") == 0)
			return 0;
	return 1;
}

/* The style of the set: the one asked for, else the rules' pick for the
 * topic and the attempt that the feedback does not refuse. */
static const char *note_rules_plan_style_of(const json_t *facts, uint64_t h, unsigned rot, int en)
{
	int asked = note_rules_asked_style(facts), no = note_rules_refused_style(phrase_str(facts, "feedback"));
	size_t n = note_rules_plan_nstyles();

	if (asked >= 0)
		return note_rules_plan_asked_style(asked, en);
	for (unsigned k = 0; k < n; k++)
		if (!note_rules_plan_style_clash(note_rules_plan_style(h + rot + k, en), no))
			return note_rules_plan_style(h + rot + k, en);
	return note_rules_plan_style(h + rot, en);
}

json_t *note_rules_task_image_plans(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const json_t *specs = json_object_get(facts, "layoutSpec"), *spec;
	struct note_rules_plan_ctx x = { .facts = facts, .pars = json_object_get(facts, "paragraphs") };
	json_int_t attempt = json_integer_value(json_object_get(facts, "attempt"));
	size_t i;

	if (note_rules_plan_keep(facts))
		return json_pack("{s:O, s:s}", "imagePlans", json_object_get(facts, "previous"), "kept",
				 "the feedback's changes are made on the plans shown");
	x.topic = phrase_str(facts, "topic") ?: phrase_str(facts, "title") ?: text;
	if (json_array_size(specs) == 0 || json_array_size(x.pars) == 0 || x.topic == NULL) {
		snprintf(err, errlen, "image plans need the layout, the paragraphs and the topic");
		return NULL;
	}
	x.en = note_rules_plan_en(phrase_str(facts, "title") ?: x.topic);
	x.rot = attempt > 1 ? (unsigned)((attempt - 1) % 64) : 0;
	x.style = note_rules_plan_style_of(facts, phrase_hash(x.topic, "image_plans"), x.rot, x.en);
	x.tone = note_rules_plan_tone(note_rules_plan_tone_asked(phrase_str(facts, "feedback")), x.en);
	x.palette = note_rules_palette_words(json_object_get(facts, "palette"), x.en);
	x.plans = json_array();
	x.bindings = json_array();
	json_array_foreach(specs, i, spec)
		if (i < OFFLINE_MAX_IMAGES)
			note_rules_plan_one(&x, i, spec);
	free(x.palette);
	return json_pack("{s:o, s:o, s:s}", "imagePlans", x.plans, "paragraphImageBindings", x.bindings,
			 "style", x.style);
}

json_t *note_rules_plan_extra(const json_t *par, size_t index, const char *topic, const char *like,
			      size_t composition)
{
	int en = note_rules_plan_en(like);
	json_t *subj = note_rules_subjects(par, topic, NULL, 0, en);
	struct buf b;
	char *prompt, *focus = note_rules_focus(par, topic, en);
	json_t *plan;

	buf_init(&b, 1024);
	phrase_join(&b, subj, en ? ", " : "，", 4);
	prompt = note_rules_plan_like(b.data, like, composition);
	plan = json_pack("{s:s, s:s, s:i, s:s+, s:s}", "role", "content", "paragraphId",
			 note_rules_par_str(par, "id"), "paragraphIndex", (int)index, "description",
			 note_rules_plan_label(0, en), focus, "prompt", prompt);
	free(prompt);
	free(focus);
	buf_free(&b);
	json_decref(subj);
	return plan;
}
