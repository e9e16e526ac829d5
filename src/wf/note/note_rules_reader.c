/* A note read as its reader reads it (note_rules_reader.h): section by
 * section, each on the topic or not and saying something concrete or
 * not; line by line, each said once; and against what the person asked
 * for. The review (note_rules_review.c) turns what is found here into
 * reasons and caps on its scores. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "text/script.h"
#include "text/wordcut.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"
#include "wf/note/note_rules_reader.h"

#define READER_N(a) (sizeof(a) / sizeof((a)[0]))
#define READER_LABEL_CHARS 14        /* a label of Chinese text */
#define READER_LABEL_LATIN 28        /* of text in Latin letters */
#define READER_CLOSING_CHARS 80      /* a last plain paragraph this short closes the note */
#define READER_SHORT_CHARS 12        /* a plain paragraph shorter says nothing to judge */
#define READER_SENTENCES_MAX 400     /* sentences compared for repeats */

/* ---- units ---- */

static int note_rules_reader_all_aside(const char *text)
{
	const char *line = text;
	int any = 0;

	while (*line) {
		size_t n = strcspn(line, "\n");

		if (n > 0 && !note_rules_reader_aside(line, n))
			return 0;
		any |= n > 0;
		line += n + (line[n] == '\n');
	}
	return any;
}

char *note_rules_reader_cut(const char *s, size_t max)
{
	char *out = wordcut_prefix(s, max, 1);

	if (*out == '\0') {
		free(out);
		out = phrase_truncate(s, max);
	}
	return out;
}

static char *note_rules_reader_label(const char *text, const char *heading)
{
	char *first, *out;

	if (heading && *heading)
		return xstrdup(heading);
	first = xstrndup(text, strcspn(text, "\n"));
	out = note_rules_reader_cut(first, strcmp(text_lang(first), "en") == 0 ? READER_LABEL_LATIN
							     : READER_LABEL_CHARS);
	free(first);
	return out;
}

/* A plain paragraph that closes a note or asks the reader something:
 * one short line with a question or an invitation. */
static int note_rules_reader_closing(const char *text)
{
	static const char *const asks[] = { "？", "?", "评论", "收藏", "关注", "留言", "comment", "follow" };

	if (strchr(text, '\n') || phrase_chars(text) > READER_CLOSING_CHARS || note_rules_reader_marker(text))
		return 0;
	for (size_t i = 0; i < READER_N(asks); i++)
		if (strcasestr(text, asks[i]))
			return 1;
	return 0;
}

json_t *note_rules_reader_units(const char *body)
{
	json_t *pars = note_paragraphs(body), *out = json_array(), *p;
	size_t i, n = json_array_size(pars), headed = n;

	json_array_foreach(pars, i, p)
		if (headed == n && *json_string_value(json_object_get(p, "heading")))
			headed = i;
	json_array_foreach(pars, i, p) {
		const char *text = json_string_value(json_object_get(p, "text"));
		const char *heading = json_string_value(json_object_get(p, "heading"));
		char *label;

		if (note_rules_reader_all_aside(text))
			continue;
		if (!*heading && ((i == 0 && (headed < n || n >= 3)) ||
				  (i == n - 1 && n >= 2 && phrase_chars(text) <= READER_CLOSING_CHARS &&
				   !strchr(text, '\n') && note_rules_reader_marker(text) == 0) ||
				  (i > 0 && note_rules_reader_closing(text)) ||
				  phrase_chars(text) < READER_SHORT_CHARS))
			continue;
		label = note_rules_reader_label(text, heading);
		json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "label", label, "text", text,
						     "heading", heading));
		free(label);
	}
	json_decref(pars);
	return out;
}

/* ---- on the topic ---- */

struct note_rules_reader_topic {
	json_t *subject;         /* the topic's subject words, less those asked away */
	unsigned fields;         /* the fields the topic is in */
	const json_t *evidence;  /* facts.evidence: points from notes about the topic */
	const json_t *mine;      /* facts.mine: the person's paragraphs */
};

static void note_rules_reader_topic_init(struct note_rules_reader_topic *t, const json_t *facts)
{
	json_t *banned = note_rules_feedbacks_banned(json_object_get(facts, "feedback"), NULL), *all, *w;
	char *topic = note_rules_person_topic(phrase_str(facts, "topic") ?: "", banned);
	size_t i;

	all = note_rules_topic_subject(topic, 0);
	t->subject = json_array();
	json_array_foreach(all, i, w)
		if (!phrase_has_any(json_string_value(w), banned))
			json_array_append(t->subject, w);
	t->fields = note_rules_reader_fields(topic, 1);
	t->evidence = json_object_get(facts, "evidence");
	t->mine = json_object_get(facts, "mine");
	json_decref(all);
	json_decref(banned);
	free(topic);
}

/* Whether text names a subject word: the word, or for a word of three
 * Chinese characters or more (one no list has: 量子计算), two of them in a
 * row (量子比特). */
static int note_rules_reader_subject(const struct note_rules_reader_topic *t, const char *text)
{
	const json_t *w;
	size_t i;

	json_array_foreach(t->subject, i, w) {
		const char *s = json_string_value(w);

		if (note_rules_reader_has(text, s, strlen(s)))
			return 1;
		if ((unsigned char)*s >= 0x80 && phrase_chars(s) >= 3 && phrase_chars(s) * 3 == strlen(s))
			for (size_t k = 0; k + 6 <= strlen(s); k += 3)
				if (note_rules_reader_has(text, s + k, 6))
					return 1;
	}
	return 0;
}

static const char *note_rules_reader_point(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : json_string_value(json_object_get(v, "text"));
}

/* Whether a sentence of text is a point of the evidence about the topic. */
static int note_rules_reader_evidence(const struct note_rules_reader_topic *t, const char *text)
{
	json_t *sents = phrase_sentences(text, 24), *s;
	const json_t *e;
	size_t i, j;
	int hit = 0;

	json_array_foreach(sents, i, s) {
		const char *a = json_string_value(s);

		if (phrase_chars(a) < 8)
			continue;
		json_array_foreach(t->evidence, j, e) {
			const char *b = note_rules_reader_point(e);

			if (b && (strstr(b, a) || phrase_alike(a, b) >= PHRASE_ALIKE))
				hit = 1;
		}
	}
	json_decref(sents);
	return hit;
}

static int note_rules_reader_off(const struct note_rules_reader_topic *t, const char *text,
				 const char *heading, int hollow)
{
	unsigned hf = note_rules_reader_fields(heading, 0), kinds = note_rules_reader_kinds();
	int main = note_rules_reader_main_field(text, t->fields), foreign = main >= 0 && !(t->fields & (1u << main));
	int on;

	if (json_array_size(t->subject) == 0 && (t->fields & ~kinds) == 0)
		return 0;
	/* 三、第一次去泉州 in a note on 手机: the heading names another subject. */
	if ((hf & ~kinds) && !(hf & t->fields) && !note_rules_reader_subject(t, heading) && foreign)
		return 1;
	on = note_rules_reader_subject(t, text) || (note_rules_reader_fields(text, 0) & t->fields) ||
	     note_rules_reader_evidence(t, text);
	return !on && (hollow || foreign);
}

static int note_rules_reader_mine(const struct note_rules_reader_topic *t, const char *text)
{
	const json_t *m;
	size_t i;

	json_array_foreach(t->mine, i, m)
		if (json_is_string(m) && strcmp(json_string_value(m), text) == 0)
			return 1;
	return 0;
}

json_t *note_rules_reader_judge(const json_t *facts, const char *body)
{
	struct note_rules_reader_topic t;
	json_t *units = note_rules_reader_units(body), *out = json_array(), *u;
	size_t i;

	note_rules_reader_topic_init(&t, facts);
	json_array_foreach(units, i, u) {
		const char *text = json_string_value(json_object_get(u, "text"));
		const char *heading = json_string_value(json_object_get(u, "heading"));

		/* What a heading promises (3 个技巧) is not yet said. */
		const char *said = *heading && strchr(text, '\n') ? strchr(text, '\n') + 1 : text;
		int hollow = !note_rules_reader_concrete(said);

		json_array_append_new(out, json_pack("{s:O, s:b, s:b, s:b}", "label", json_object_get(u, "label"),
			"offTopic", note_rules_reader_off(&t, text, heading, hollow), "hollow", hollow, "mine",
			note_rules_reader_mine(&t, text)));
	}
	json_decref(t.subject);
	json_decref(units);
	return out;
}

/* ---- repeats ---- */

static void note_rules_reader_repeat_line(const char *line, json_t *seen, json_t *out, size_t max)
{
	json_t *sents = phrase_sentences(line, 64), *s, *e;
	size_t i, j;

	json_array_foreach(sents, i, s) {
		const char *a = json_string_value(s);
		size_t chars = phrase_chars(a);
		int rep = 0;

		if (chars < 6 || json_array_size(seen) >= READER_SENTENCES_MAX)
			continue;
		json_array_foreach(seen, j, e)
			rep |= strcmp(json_string_value(e), a) == 0 ||
			       (chars >= 12 && phrase_alike(json_string_value(e), a) >= PHRASE_ALIKE);
		if (rep && json_array_size(out) < max)
			phrase_add_unique(out, a);
		json_array_append(seen, s);
	}
	json_decref(sents);
}

json_t *note_rules_reader_repeats(const char *body, size_t max)
{
	json_t *seen = json_array(), *out = json_array();
	const char *line = body ? body : "";

	while (*line) {
		size_t n = strcspn(line, "\n");

		if (n > 0 && !note_rules_reader_aside(line, n)) {
			char *l = xstrndup(line, n);

			note_rules_reader_repeat_line(l, seen, out, max);
			free(l);
		}
		line += n + (line[n] == '\n');
	}
	json_decref(seen);
	return out;
}

/* ---- against the feedback ---- */

static const char *const note_rules_reader_shorter[] = {
	"太长", "短一点", "短一些", "短些", "精简", "简短", "简洁一点", "少写", "缩短", "删减", "压缩",
	"字数少", "shorter", "too long", "trim", "cut it down", "more concise", "tighten",
};
static const char *const note_rules_reader_longer[] = {
	"太短", "长一点", "长一些", "多写", "写多点", "详细一点", "展开写", "扩写", "longer", "too short",
	"more detail", "expand",
};
static const char *const note_rules_reader_lists[] = {
	"列个清单", "列成清单", "做成清单", "改成清单", "清单形式", "列表", "列出来", "列一下", "分点",
	"分条", "逐条", "一条一条", "条目", "步骤", "分步", "bullet", "a list", "as a list", "list form", "checklist", "step by step", "steps",
};

/* Where in f a word of list is, not after a no (不要列表, no bullets); NULL
 * for none. */
static const char *note_rules_reader_asks(const char *f, const char *const *list, size_t n)
{
	static const char *const nos[] = { "不要", "别", "不用", "无需", "no ", "don't", "without", "not " };

	for (size_t i = 0; i < n; i++) {
		const char *at = strcasestr(f, list[i]);
		int no = 0;

		if (at == NULL)
			continue;
		for (size_t k = 0; k < READER_N(nos) && !no; k++) {
			const char *x = strcasestr(f, nos[k]);

			no = x && x < at && at - x <= 12;
		}
		if (!no)
			return at;
	}
	return NULL;
}

/* The length of the draft refused with feedback f (facts.refused), the
 * latest such; -1 when unknown. */
static long note_rules_reader_was(const json_t *facts, const char *f)
{
	const json_t *r = json_object_get(facts, "refused"), *e;
	long was = -1;
	size_t i;

	json_array_foreach(r, i, e)
		if (strcmp(json_string_value(json_object_get(e, "feedback")) ?: "", f) == 0 &&
		    json_is_integer(json_object_get(e, "chars")))
			was = (long)json_integer_value(json_object_get(e, "chars"));
	return was;
}

static void note_rules_reader_length(const json_t *facts, const char *body, json_t *out)
{
	const json_t *fb = json_object_get(facts, "feedback");
	long now = (long)phrase_chars(body);

	/* The latest reply only: "多讲讲Y" after "太长了" asks for more, and the
	 * draft refused before it is not the measure any more. */
	for (size_t i = json_array_size(fb); i-- > 0 && i + 1 == json_array_size(fb);) {
		const char *f = json_string_value(json_array_get(fb, i)) ?: "";
		int shorter = note_rules_reader_asks(f, note_rules_reader_shorter,
						     READER_N(note_rules_reader_shorter)) != NULL;
		int longer = !shorter && note_rules_reader_asks(f, note_rules_reader_longer,
								READER_N(note_rules_reader_longer));
		long was;

		if (!shorter && !longer)
			continue;
		was = note_rules_reader_was(facts, f);
		if (was >= 0 && (shorter ? now > was : now < was))
			json_array_append_new(out, json_pack("{s:s, s:s, s:I, s:I}", "kind", shorter ? "shorter" :
				"longer", "feedback", f, "chars", (json_int_t)now, "was", (json_int_t)was));
		return;
	}
}

/* Whether body has a list: three lines or more with a list marker, or two
 * steps (第一步, Step 1), a paragraph's heading aside. */
static int note_rules_reader_has_list(const char *body)
{
	json_t *pars = note_paragraphs(body), *p;
	size_t i, items = 0, steps = 0;

	json_array_foreach(pars, i, p) {
		const char *line = json_string_value(json_object_get(p, "text"));
		int first = 1;

		if (!*json_string_value(json_object_get(p, "heading")))
			first = 0;
		while (*line) {
			size_t n = strcspn(line, "\n");

			if (!first) {
				items += note_rules_reader_marker(line) > 0;
				steps += strncmp(line, "第", strlen("第")) == 0 &&
					 memmem(line, n, "步", strlen("步")) != NULL;
				steps += strncasecmp(line, "step ", 5) == 0;
			}
			first = 0;
			line += n + (line[n] == '\n');
		}
	}
	json_decref(pars);
	return items >= 3 || steps >= 2;
}

json_t *note_rules_reader_against(const json_t *facts, const char *body)
{
	json_t *out = json_array();
	const json_t *fb = json_object_get(facts, "feedback");

	note_rules_reader_length(facts, body, out);
	for (size_t i = json_array_size(fb); i-- > 0;) {
		const char *f = json_string_value(json_array_get(fb, i)) ?: "";

		if (note_rules_reader_asks(f, note_rules_reader_lists, READER_N(note_rules_reader_lists))) {
			if (!note_rules_reader_has_list(body))
				json_array_append_new(out, json_pack("{s:s, s:s}", "kind", "list", "feedback", f));
			break;
		}
	}
	return out;
}
