/* The note workflow's review and its router's proposal, offline (seed 001
 * §4). The review scores the note by dimension, each from what can be
 * counted in it: information density (sections, length, numbers, the
 * brief's keywords and the popular tags used, less the words the person
 * asked to leave out), readability (sentence and paragraph length,
 * headings), platform fit (title length and hook, tag count, a closing
 * that invites replies), text-image alignment (each plan bound to a
 * paragraph whose words its prompt shares), style consistency (the share
 * of prompts with the set's common style phrase) and image completeness
 * (images made of those planned). Then it reads the note as a reader
 * would (note_rules_reader.c): the draft off the topic, a section off it
 * or hollow (no item, number or step), a line said twice, and the
 * person's feedback contradicted (a word they asked to leave out, longer
 * after "太长了", no list after "列个清单") each cap the dimension they
 * spoil, and an off-topic or hollow draft caps the overall under the
 * gate, so such a draft never passes; the same checks alone
 * (review_checks: the caps and their reasons) bound a model's review.
 * Reasons and suggestions are in the thread's language (facts.lang, else
 * the topic's), and a paragraph the person wrote (facts.mine) is named as
 * theirs, with advice to them, never as something to replace. The router
 * proposes to rerun the research once, widened, when it found too
 * little; otherwise it agrees with the deterministic target. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/msg.h"
#include "text/phrase.h"
#include "text/script.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"
#include "wf/note/note_rules_reader.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))
#define OFFLINE_PASS_OVERALL 0.7
#define OFFLINE_PASS_DIM 0.6

/* The weights of the counted dimensions: what each part adds to its
 * dimension's score at best, the parts of a dimension adding up to 1 (a
 * part met in part adds less, as its function says); the image
 * dimensions and the topic's share start from a floor and earn the rest
 * by a share. Tiers run from the worst to the best. */
static const struct note_rules_weights {
	/* information density */
	double secs[4];          /* 0, 1, 2, 3 or more headed sections */
	double length[3];        /* the body: under 120 characters, 120 or more, 250 to 1500 */
	double per_number;       /* each number in the body, four at most */
	double words;            /* the brief's keywords and the popular tags, all used */
	double no_words;         /* ... when there are none to use */
	/* readability */
	double sentences;        /* sentences of 30 characters or fewer on average */
	double sentences_drop;   /* lost as the average goes from 30 to 60 */
	double sentences_long;   /* an average over 60 */
	double paragraph[3];     /* the longest paragraph: over 300 characters, 300 or fewer, 160 or fewer */
	double headings;         /* two headings or more */
	/* platform fit */
	double title[3];         /* the title: empty or over 28 characters, 1 to 28, 6 to 20 */
	double tags[3];          /* tags: none or over 10, 1 to 10, 3 to 8 */
	double hook;             /* a hook in the title (攻略, ！, a number) */
	double invite;           /* the last line invites replies */
	double keyword;          /* a keyword of the brief in the title */
	/* text-image alignment, style consistency */
	double align_none, align_floor, align_share;    /* no plan; plans bound to their paragraph */
	double style_none, style_floor, style_share;    /* no plan; prompts sharing a phrase */
	/* the share of the topic a draft covers */
	double topic_subject, topic_keywords;
} nrw = {
	.secs = { 0.05, 0.15, 0.25, 0.35 },
	.length = { 0.05, 0.15, 0.25 },
	.per_number = 0.05,
	.words = 0.2,
	.no_words = 0.1,
	.sentences = 0.5,
	.sentences_drop = 0.3,
	.sentences_long = 0.1,
	.paragraph = { 0, 0.15, 0.3 },
	.headings = 0.2,
	.title = { 0.05, 0.2, 0.35 },
	.tags = { 0, 0.1, 0.25 },
	.hook = 0.15,
	.invite = 0.15,
	.keyword = 0.1,
	.align_none = 0.3, .align_floor = 0.3, .align_share = 0.7,
	.style_none = 0.4, .style_floor = 0.4, .style_share = 0.6,
	.topic_subject = 0.7, .topic_keywords = 0.3,
};

static double note_rules_round2(double v)
{
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	return (double)(long)(v * 100 + 0.5) / 100;
}

static const char *note_rules_text_of(const json_t *par)
{
	return json_string_value(json_object_get(par, "text")) ?: "";
}

static size_t note_rules_headings(const json_t *pars)
{
	size_t i, n = 0;
	const json_t *p;

	json_array_foreach(pars, i, p)
		n += json_string_length(json_object_get(p, "heading")) > 0;
	return n;
}

static size_t note_rules_digit_runs(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (*s >= '0' && *s <= '9' && (s[1] < '0' || s[1] > '9'))
			n++;
	return n;
}

/* Every word the person's feedback asked to leave out. New reference. */
static json_t *note_rules_banned_all(const json_t *facts)
{
	return note_rules_feedbacks_banned(json_object_get(facts, "feedback"), NULL);
}

/* A keyword the person asked to leave out, or one of the words they did:
 * not missing when the note does not have it. */
static int note_rules_unwanted(const char *w, const json_t *banned)
{
	const json_t *b;
	size_t i;

	json_array_foreach(banned, i, b)
		if (phrase_has(w, json_string_value(b)) || phrase_has(json_string_value(b), w))
			return 1;
	return 0;
}

static double note_rules_info_density(const json_t *facts, const char *body)
{
	size_t secs = note_rules_headings(json_object_get(facts, "paragraphs"));
	size_t chars = phrase_chars(body), digits = note_rules_digit_runs(body), seen = 0, all = 0, i;
	double v = nrw.secs[secs > 3 ? 3 : secs];
	json_t *banned = note_rules_banned_all(facts);
	const json_t *w;

	v += nrw.length[chars >= 250 && chars <= 1500 ? 2 : chars >= 120 ? 1 : 0];
	v += nrw.per_number * (double)(digits > 4 ? 4 : digits);
	json_array_foreach(json_object_get(facts, "keywords"), i, w)
		if (i < 5 && json_is_string(w) && !note_rules_unwanted(json_string_value(w), banned))
			all++, seen += strstr(body, json_string_value(w)) != NULL;
	json_array_foreach(json_object_get(facts, "evidenceTags"), i, w)
		if (i < 3 && json_is_string(w) && !note_rules_unwanted(json_string_value(w), banned))
			all++, seen += strstr(body, json_string_value(w)) != NULL;
	json_decref(banned);
	v += all ? nrw.words * (double)seen / (double)all : nrw.no_words;
	return note_rules_round2(v);
}

static double note_rules_readability(const json_t *facts, const char *body)
{
	json_t *sents = phrase_sentences(body, 200), *s;
	size_t i, total = 0, longest = 0;
	double avg, v;
	const json_t *p;

	json_array_foreach(sents, i, s)
		total += phrase_chars(json_string_value(s));
	avg = json_array_size(sents) ? (double)total / (double)json_array_size(sents) : 100;
	json_decref(sents);
	v = avg <= 30 ? nrw.sentences : avg <= 60 ? nrw.sentences - nrw.sentences_drop * (avg - 30) / 30
					       : nrw.sentences_long;
	json_array_foreach(json_object_get(facts, "paragraphs"), i, p)
		if (phrase_chars(note_rules_text_of(p)) > longest)
			longest = phrase_chars(note_rules_text_of(p));
	v += nrw.paragraph[longest <= 160 ? 2 : longest <= 300 ? 1 : 0];
	v += note_rules_headings(json_object_get(facts, "paragraphs")) >= 2 ? nrw.headings : 0;
	return note_rules_round2(v);
}

static int note_rules_has_word(const char *text, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(text, words[i]))
			return 1;
	return 0;
}

static double note_rules_platform_fit(const json_t *facts, const char *title, const char *body)
{
	static const char *const hooks[] = { "！", "｜", "？", "攻略", "必看", "收藏", "指南", "清单",
					     "技巧", "!", "?", ":", "0", "1", "2", "3", "4", "5", "6",
					     "7", "8", "9" };
	static const char *const invites[] = { "评论", "收藏", "关注", "聊聊", "你", "comment", "you" };
	size_t tc = phrase_chars(title), tags = json_array_size(json_object_get(facts, "tags")), i;
	const char *last = strrchr(body, '\n') ? strrchr(body, '\n') : body;
	double v = nrw.title[tc >= 6 && tc <= 20 ? 2 : tc > 0 && tc <= 28 ? 1 : 0];
	const json_t *w;

	v += nrw.tags[tags >= 3 && tags <= 8 ? 2 : tags >= 1 && tags <= 10 ? 1 : 0];
	v += note_rules_has_word(title, hooks, OFFLINE_N(hooks)) ? nrw.hook : 0;
	v += note_rules_has_word(last, invites, OFFLINE_N(invites)) ? nrw.invite : 0;
	json_array_foreach(json_object_get(facts, "keywords"), i, w)
		if (json_is_string(w) && strstr(title, json_string_value(w))) {
			v += nrw.keyword;
			break;
		}
	return note_rules_round2(v);
}

/* Whether an English word of four letters or more of a is also in b. */
static int note_rules_en_overlap(const char *a, const char *b)
{
	json_t *kw = phrase_keywords(a, 12), *w;
	size_t i;
	int hit = 0;

	json_array_foreach(kw, i, w)
		hit |= strcmp(text_lang(json_string_value(w)), "zh") != 0 && strlen(json_string_value(w)) >= 4 &&
		       phrase_has(b, json_string_value(w));
	json_decref(kw);
	return hit;
}

static double note_rules_alignment(const json_t *facts)
{
	const json_t *plans = json_object_get(facts, "imagePlans"), *pars = json_object_get(facts,
										       "paragraphs");
	const json_t *plan, *p;
	size_t i, j, aligned = 0;

	if (json_array_size(plans) == 0)
		return nrw.align_none;
	json_array_foreach(plans, i, plan) {
		const char *pid = json_string_value(json_object_get(plan, "paragraphId")) ?: "";
		char *both = xasprintf("%s %s", json_string_value(json_object_get(plan, "prompt")) ?: "",
				       json_string_value(json_object_get(plan, "description")) ?: "");

		json_array_foreach(pars, j, p)
			if (strcmp(json_string_value(json_object_get(p, "id")) ?: "", pid) == 0 &&
			    (note_rules_overlap(note_rules_text_of(p), both) >= 1 ||
			     note_rules_en_overlap(note_rules_text_of(p), both))) {
				aligned++;
				break;
			}
		free(both);
	}
	return note_rules_round2(nrw.align_floor +
				 nrw.align_share * (double)aligned / (double)json_array_size(plans));
}

/* The phrase (between commas) most prompts share, as a share of them. */
static double note_rules_consistency(const json_t *facts)
{
	const json_t *plans = json_object_get(facts, "imagePlans"), *plan;
	json_t *counts, *c;
	size_t i, best = 0, n = json_array_size(plans);
	const char *k;

	if (n == 0)
		return nrw.style_none;
	counts = json_object();
	json_array_foreach(plans, i, plan) {
		json_t *mine = json_object();
		char *p = xstrdup(json_string_value(json_object_get(plan, "prompt")) ?: ""), *save = NULL;

		for (char *seg = strtok_r(p, ",，", &save); seg; seg = strtok_r(NULL, ",，", &save))
			json_object_set_new(mine, seg, json_true());
		json_object_foreach(mine, k, c)
			json_object_set_new(counts, k, json_integer(json_integer_value(json_object_get(counts,
											       k)) + 1));
		json_decref(mine);
		free(p);
	}
	json_object_foreach(counts, k, c)
		if ((size_t)json_integer_value(c) > best)
			best = (size_t)json_integer_value(c);
	json_decref(counts);
	return note_rules_round2(nrw.style_floor + nrw.style_share * (double)best / (double)n);
}

static double note_rules_completeness(const json_t *facts)
{
	const json_t *imgs = json_object_get(facts, "images"), *im;
	size_t i, done = 0, planned = json_array_size(json_object_get(facts, "imagePlans"));

	if (planned == 0)
		return 1.0;
	json_array_foreach(imgs, i, im)
		done += json_is_string(json_object_get(im, "status")) &&
			strcmp(json_string_value(json_object_get(im, "status")), "done") == 0;
	return note_rules_round2((double)(done > planned ? planned : done) / (double)planned);
}

/* What the review found beyond its counts, said in the thread's language:
 * caps on the dimensions it spoils, a cap on the overall score, reasons
 * and suggestions. */
struct note_rules_found {
	const json_t *facts;
	const char *lang;       /* "zh" or "en" */
	json_t *caps, *reasons, *sugg;
	double overall;         /* the most the overall may score; 1: no cap */
};

/* Records that dim may score at most max (the lowest of such caps). */
static void note_rules_cap(json_t *caps, const char *dim, double max)
{
	const json_t *was = json_object_get(caps, dim);

	if (was == NULL || json_number_value(was) > max)
		json_object_set_new(caps, dim, json_real(note_rules_round2(max)));
}

static void note_rules_cap_overall(struct note_rules_found *f, double max)
{
	if (max < f->overall)
		f->overall = note_rules_round2(max);
}

static void note_rules_apply_caps(json_t *scores, const json_t *caps)
{
	const char *dim;
	json_t *max;

	json_object_foreach((json_t *)caps, dim, max)
		if (json_number_value(json_object_get(scores, dim)) > json_number_value(max))
			json_object_set(scores, dim, max);
}

/* A reason and its suggestion (either may be NULL), both stolen. */
static void note_rules_said(struct note_rules_found *f, char *reason, char *hint)
{
	if (reason)
		json_array_append_new(f->reasons, json_string(reason));
	if (hint)
		json_array_append_new(f->sugg, json_string(hint));
	free(reason);
	free(hint);
}

/* The thread's language: facts.lang, else the topic's. Static. */
static const char *note_rules_review_lang(const json_t *facts)
{
	const char *l = phrase_str(facts, "lang");

	if (l && (strcmp(l, "en") == 0 || strcmp(l, "zh") == 0))
		return strcmp(l, "en") == 0 ? "en" : "zh";
	return text_lang(phrase_str(facts, "topic") ?: phrase_str(facts, "title") ?: "");
}

/* The topic as a reason names it. The caller frees it. */
static char *note_rules_topic_said(const json_t *facts)
{
	return note_rules_reader_cut(phrase_str(facts, "topic") ?: "", 40);
}

/* At most four labels, each quoted as the language quotes. The caller
 * frees it. */
static char *note_rules_labels(const char *lang, const json_t *labels)
{
	int en = strcmp(lang, "en") == 0;
	struct buf b;
	const json_t *l;
	size_t i;

	buf_init(&b, 4096);
	json_array_foreach(labels, i, l) {
		if (i == 4) {
			buf_adds(&b, "…");
			break;
		}
		buf_printf(&b, en ? "%s\"%s\"" : "%s「%s」", i && en ? ", " : "", json_string_value(l));
	}
	return buf_steal(&b) ?: xstrdup("");
}

/* The share of the topic's subject words in the title and body, and of
 * the brief's first keywords: 1 when there are none to look for. What
 * the person asked to leave out is not looked for: their removal beats
 * the topic (不要提猫 on a trip with the cat). */
static double note_rules_topic_share(const json_t *facts, const char *title, const char *body)
{
	json_t *banned = note_rules_banned_all(facts), *subject, *w;
	char *topic = note_rules_person_topic(phrase_str(facts, "topic") ?: "", banned);
	size_t i, seen = 0, all = 0, kseen = 0, kall = 0;

	subject = note_rules_topic_subject(topic, 0);
	free(topic);
	json_array_foreach(subject, i, w)
		if (!phrase_has_any(json_string_value(w), banned))
			all++, seen += phrase_has(title, json_string_value(w)) ||
				       phrase_has(body, json_string_value(w));
	json_decref(subject);
	json_array_foreach(json_object_get(facts, "keywords"), i, w)
		if (i < 5 && json_is_string(w) && !phrase_has_any(json_string_value(w), banned))
			kall++, kseen += phrase_has(title, json_string_value(w)) ||
					 phrase_has(body, json_string_value(w));
	json_decref(banned);
	if (all && seen == 0)
		return 0;
	return nrw.topic_subject * (all ? (double)seen / (double)all : 1) +
	       nrw.topic_keywords * (kall ? (double)kseen / (double)kall : 1);
}

/* The first word the feedback asked to leave out that the note still has
 * (title, body or tags), or NULL. New string. */
static char *note_rules_contradiction(const json_t *facts, const char *title, const char *body)
{
	const json_t *fb = json_object_get(facts, "feedback"), *f, *t;
	char *found = NULL, *rest = xstrdup(body);
	size_t i, j, k;
	json_t *banned, *w;

	/* The person's own paragraphs are theirs to keep: a word in them is
	 * not held against the draft. */
	json_array_foreach(json_object_get(facts, "mine"), i, f) {
		const char *m = json_string_value(f);
		char *at;

		while (m && *m && (at = strstr(rest, m)) != NULL)
			memset(at, ' ', strlen(m));
	}
	body = rest;
	json_array_foreach(fb, i, f) {
		banned = note_rules_feedback_banned(json_string_value(f) ?: "");
		json_array_foreach(banned, j, w) {
			int hit = phrase_has(title, json_string_value(w)) || phrase_has(body, json_string_value(w));

			json_array_foreach(json_object_get(facts, "tags"), k, t)
				hit |= phrase_has(json_string_value(t), json_string_value(w));
			if (hit && found == NULL)
				found = xstrdup(json_string_value(w));
		}
		json_decref(banned);
	}
	free(rest);
	return found;
}

/* The whole draft off the topic: none of its subject words, or under half
 * of them and the brief's keywords. */
static void note_rules_check_topic(struct note_rules_found *f, const char *title, const char *body,
				   int mine)
{
	double share = note_rules_topic_share(f->facts, title, body);
	char *topic;

	if (share >= 0.5)
		return;
	topic = note_rules_topic_said(f->facts);
	note_rules_said(f, msg_fmt(f->lang, "note.review.offtopic", topic, share), mine
			? msg_fmt(f->lang, "note.review.offtopic.hint.mine", topic)
			: xstrdup(msg_get(f->lang, "note.review.offtopic.hint")));
	free(topic);
	note_rules_cap(f->caps, "infoDensity", 0.1 + 0.4 * share);
	note_rules_cap(f->caps, "platformFit", 0.4);
	note_rules_cap_overall(f, 0.5);
}

/* The sections judged one by one (note_rules_reader.c): those off the
 * topic and the hollow ones (no item, number or step) cap infoDensity and
 * the overall below the gate, so such a draft never passes. What the
 * person wrote is named as theirs, with advice to them, never as
 * something to replace. */
/* The message id (NULL: none) with the topic (NULL: the message has no
 * place for it) and the labels. The caller frees it. */
static char *note_rules_fmt(const char *lang, const char *id, const char *topic, const char *labels)
{
	if (id == NULL)
		return NULL;
	return topic ? msg_fmt(lang, id, topic, labels) : msg_fmt(lang, id, labels);
}

/* A reason (and a hint, hint_id NULL for none) naming the labels, the
 * topic first when the message has it (topic NULL: it has not). */
static void note_rules_name(struct note_rules_found *f, const json_t *labels, const char *topic,
			    const char *reason_id, const char *hint_id)
{
	char *l;

	if (json_array_size(labels) == 0)
		return;
	l = note_rules_labels(f->lang, labels);
	note_rules_said(f, note_rules_fmt(f->lang, reason_id, topic, l), note_rules_fmt(f->lang, hint_id, topic, l));
	free(l);
}

static void note_rules_check_sections(struct note_rules_found *f, const char *body)
{
	json_t *units = note_rules_reader_judge(f->facts, body), *u;
	json_t *off = json_array(), *hollow = json_array(), *moff = json_array(), *mhollow = json_array();
	size_t i, n = json_array_size(units), bad_off = 0, bad_hollow = 0;
	char *topic = note_rules_topic_said(f->facts);

	json_array_foreach(units, i, u) {
		int mine = json_is_true(json_object_get(u, "mine"));
		int is_off = json_is_true(json_object_get(u, "offTopic"));
		int is_hollow = !is_off && json_is_true(json_object_get(u, "hollow"));

		bad_off += (size_t)is_off, bad_hollow += (size_t)is_hollow;
		if (is_off || is_hollow)
			json_array_append(is_off ? (mine ? moff : off) : (mine ? mhollow : hollow),
					  json_object_get(u, "label"));
	}
	note_rules_name(f, off, topic, "note.review.sections.offtopic", "note.review.sections.offtopic.hint");
	note_rules_name(f, hollow, NULL, "note.review.sections.hollow", "note.review.sections.hollow.hint");
	note_rules_name(f, moff, topic, "note.review.mine.offtopic", NULL);
	note_rules_name(f, mhollow, NULL, "note.review.mine.hollow", NULL);
	json_array_extend(moff, mhollow);
	note_rules_name(f, moff, NULL, NULL, "note.review.mine.hint");
	if (bad_off) {
		note_rules_cap(f->caps, "infoDensity", 0.5 - 0.3 * (double)bad_off / (double)n);
		note_rules_cap_overall(f, 0.65 - 0.25 * (double)bad_off / (double)n);
	}
	if (bad_hollow) {
		note_rules_cap(f->caps, "infoDensity", 0.55 - 0.3 * (double)bad_hollow / (double)n);
		note_rules_cap_overall(f, 0.68 - 0.25 * (double)bad_hollow / (double)n);
	}
	free(topic);
	json_decref(units), json_decref(off), json_decref(hollow), json_decref(moff), json_decref(mhollow);
}

/* Whether one of the person's paragraphs (facts.mine) has s. */
static int note_rules_in_mine(const json_t *facts, const char *s)
{
	const json_t *m;
	size_t i;

	json_array_foreach(json_object_get(facts, "mine"), i, m)
		if (json_is_string(m) && strstr(json_string_value(m), s))
			return 1;
	return 0;
}

/* Lines said twice anywhere in the body cap readability. */
static void note_rules_check_repeats(struct note_rules_found *f, const char *body)
{
	json_t *rep = note_rules_reader_repeats(body, 20), *first;
	char *line, *l;

	if (json_array_size(rep) == 0) {
		json_decref(rep);
		return;
	}
	line = note_rules_reader_cut(json_string_value(json_array_get(rep, 0)), 24);
	first = json_pack("[s]", line);
	l = note_rules_labels(f->lang, first);
	if (note_rules_in_mine(f->facts, json_string_value(json_array_get(rep, 0))))
		note_rules_said(f, msg_fmt(f->lang, "note.review.repeated.mine", l), NULL);
	else
		note_rules_said(f, msg_fmt(f->lang, "note.review.repeated", json_array_size(rep), l),
				xstrdup(msg_get(f->lang, "note.review.repeated.hint")));
	note_rules_cap(f->caps, "readability", 0.3);
	free(l);
	free(line);
	json_decref(first);
	json_decref(rep);
}

/* What the draft does against the person's feedback: a word they asked
 * to leave out still there; longer after "太长了", shorter after "太短了";
 * no list after "列个清单". */
static void note_rules_check_feedback(struct note_rules_found *f, const char *title, const char *body)
{
	char *banned = note_rules_contradiction(f->facts, title, body);
	json_t *against = note_rules_reader_against(f->facts, body), *a;
	size_t i;

	if (banned) {
		note_rules_said(f, msg_fmt(f->lang, "note.review.banned", banned),
				xstrdup(msg_get(f->lang, "note.review.banned.hint")));
		note_rules_cap(f->caps, "infoDensity", 0.3);
		free(banned);
	}
	json_array_foreach(against, i, a) {
		const char *kind = json_string_value(json_object_get(a, "kind"));
		char id[64], hint[64];

		snprintf(id, sizeof id, "note.review.%s", kind);
		snprintf(hint, sizeof hint, "note.review.%s.hint", kind);
		if (strcmp(kind, "list") == 0)
			note_rules_said(f, msg_fmt(f->lang, id, json_string_value(json_object_get(a, "feedback"))),
					xstrdup(msg_get(f->lang, hint)));
		else
			note_rules_said(f, msg_fmt(f->lang, id, json_string_value(json_object_get(a, "feedback")),
					(long long)json_integer_value(json_object_get(a, "chars")),
					(long long)json_integer_value(json_object_get(a, "was"))),
					xstrdup(msg_get(f->lang, hint)));
		note_rules_cap(f->caps, "readability", 0.4);
	}
	json_decref(against);
}

/* What the counts above cannot see, each capping what it spoils. */
static void note_rules_review_checks(struct note_rules_found *f, const char *title, const char *body)
{
	int mine = json_array_size(json_object_get(f->facts, "mine")) > 0;

	note_rules_check_topic(f, title, body, mine);
	note_rules_check_sections(f, body);
	note_rules_check_repeats(f, body);
	note_rules_check_feedback(f, title, body);
}

static void note_rules_found_init(struct note_rules_found *f, const json_t *facts)
{
	f->facts = facts;
	f->lang = note_rules_review_lang(facts);
	f->caps = json_object(), f->reasons = json_array(), f->sugg = json_array();
	f->overall = 1;
}

/* The verdict on the scores; steals scores and f's lists. */
static json_t *note_rules_review_verdict(json_t *scores, struct note_rules_found *f)
{
	double sum = 0, low = 2;
	const char *target = NULL;
	json_t *out;

	for (size_t i = 0; i < NOTE_NDIMS; i++) {
		double v = json_number_value(json_object_get(scores, note_dims[i].dim));
		char id[64];

		sum += v;
		if (v >= OFFLINE_PASS_DIM)
			continue;
		snprintf(id, sizeof id, "note.review.dim.%s", note_dims[i].dim);
		note_rules_said(f, msg_fmt(f->lang, id, note_dims[i].dim, v), NULL);
		snprintf(id, sizeof id, "note.review.hint.%s", note_dims[i].dim);
		json_array_append_new(f->sugg, json_string(msg_get(f->lang, id)));
		if (v < low)
			low = v, target = note_dims[i].agent;
	}
	sum = note_rules_round2(sum / (double)NOTE_NDIMS);
	if (f->overall < sum)
		sum = f->overall;
	if (target == NULL && sum < OFFLINE_PASS_OVERALL)
		target = "writer_agent";
	out = json_pack("{s:b, s:o, s:f, s:o, s:o, s:o, s:s}", "approved", target == NULL, "scores", scores,
			"overall", sum, "failReasons", f->reasons, "suggestions", f->sugg, "targetAgent",
			target ? json_string(target) : json_null(), "feedback",
			msg_get(f->lang, target ? "note.review.verdict.fail" : "note.review.verdict.pass"));
	if (f->overall < 1)
		json_object_set_new(out, "overallCap", json_real(f->overall));
	json_decref(f->caps);
	return out;
}

json_t *note_rules_task_review(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *title = phrase_str(facts, "title"), *body = phrase_str(facts, "body");
	struct note_rules_found f;
	json_t *scores;

	if (title == NULL || body == NULL) {
		snprintf(err, errlen, "the review needs the note's title and body");
		return NULL;
	}
	note_rules_found_init(&f, facts);
	scores = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}",
		"infoDensity", note_rules_info_density(facts, body),
		"readability", note_rules_readability(facts, body),
		"platformFit", note_rules_platform_fit(facts, title, body),
		"textImageAlignment", note_rules_alignment(facts),
		"styleConsistency", note_rules_consistency(facts),
		"imageCompleteness", note_rules_completeness(facts));
	note_rules_review_checks(&f, title, body);
	note_rules_apply_caps(scores, f.caps);
	return note_rules_review_verdict(scores, &f);
}

json_t *note_rules_task_review_checks(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *title = phrase_str(facts, "title"), *body = phrase_str(facts, "body");
	struct note_rules_found f;
	json_t *out;

	if (title == NULL || body == NULL) {
		snprintf(err, errlen, "the checks need the note's title and body");
		return NULL;
	}
	note_rules_found_init(&f, facts);
	note_rules_review_checks(&f, title, body);
	out = json_pack("{s:o, s:o, s:o}", "caps", f.caps, "failReasons", f.reasons, "suggestions", f.sugg);
	if (f.overall < 1)
		json_object_set_new(out, "overallCap", json_real(f.overall));
	return out;
}

json_t *note_rules_task_note_route(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *target = phrase_str(facts, "target"), *last = phrase_str(facts, "lastAgent");
	json_int_t found = json_integer_value(json_object_get(facts, "evidenceCount"));

	if (target == NULL) {
		snprintf(err, errlen, "the router needs the deterministic target");
		return NULL;
	}
	if (last && strcmp(last, "research_evidence_agent") == 0 && found < 3 &&
	    !json_is_true(json_object_get(facts, "widened")))
		return json_pack("{s:s, s:s}", "nextAgent", "research_evidence_agent", "reason",
				 "本地笔记库命中太少，放宽关键词再检索一次");
	return json_pack("{s:s, s:s}", "nextAgent", target, "reason", "上一环节产出完整，按流程推进");
}
