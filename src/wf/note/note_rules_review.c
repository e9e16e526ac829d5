/* The note workflow's review and its router's proposal, offline (seed 001
 * §4). The review scores the note by dimension, each from what can be
 * counted in it: information density (sections, length, numbers, the
 * brief's keywords and the popular tags used), readability (sentence and
 * paragraph length, headings), platform fit (title length and hook, tag
 * count, a closing that invites replies), text-image alignment (each plan
 * bound to a paragraph whose words its prompt shares), style consistency
 * (the share of prompts with the set's common style phrase) and image
 * completeness (images made of those planned). Text off the topic (none
 * of the topic's subject words, few of the brief's keywords), a word the
 * person's feedback asked to leave out, and repeated sections cap the
 * dimension they spoil, so such a draft fails the gate; the same checks
 * alone (review_checks: the caps and their reasons) bound a model's
 * review. The router proposes to
 * rerun the research once, widened, when it found too little; otherwise
 * it agrees with the deterministic target. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "util/xmalloc.h"
#include "text/script.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))
#define OFFLINE_PASS_OVERALL 0.7
#define OFFLINE_PASS_DIM 0.6

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

static double note_rules_info_density(const json_t *facts, const char *body)
{
	size_t secs = note_rules_headings(json_object_get(facts, "paragraphs"));
	size_t chars = phrase_chars(body), digits = note_rules_digit_runs(body), seen = 0, all = 0, i;
	double v = secs >= 3 ? 0.35 : secs == 2 ? 0.25 : secs == 1 ? 0.15 : 0.05;
	const json_t *w;

	v += chars >= 250 && chars <= 1500 ? 0.25 : chars >= 120 ? 0.15 : 0.05;
	v += 0.05 * (double)(digits > 4 ? 4 : digits);
	json_array_foreach(json_object_get(facts, "keywords"), i, w)
		if (i < 5 && json_is_string(w))
			all++, seen += strstr(body, json_string_value(w)) != NULL;
	json_array_foreach(json_object_get(facts, "evidenceTags"), i, w)
		if (i < 3 && json_is_string(w))
			all++, seen += strstr(body, json_string_value(w)) != NULL;
	v += all ? 0.2 * (double)seen / (double)all : 0.1;
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
	v = avg <= 30 ? 0.5 : avg <= 60 ? 0.5 - 0.3 * (avg - 30) / 30 : 0.1;
	json_array_foreach(json_object_get(facts, "paragraphs"), i, p)
		if (phrase_chars(note_rules_text_of(p)) > longest)
			longest = phrase_chars(note_rules_text_of(p));
	v += longest <= 160 ? 0.3 : longest <= 300 ? 0.15 : 0;
	v += note_rules_headings(json_object_get(facts, "paragraphs")) >= 2 ? 0.2 : 0;
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
	double v = tc >= 6 && tc <= 20 ? 0.35 : tc > 0 && tc <= 28 ? 0.2 : 0.05;
	const json_t *w;

	v += tags >= 3 && tags <= 8 ? 0.25 : tags >= 1 && tags <= 10 ? 0.1 : 0;
	v += note_rules_has_word(title, hooks, OFFLINE_N(hooks)) ? 0.15 : 0;
	v += note_rules_has_word(last, invites, OFFLINE_N(invites)) ? 0.15 : 0;
	json_array_foreach(json_object_get(facts, "keywords"), i, w)
		if (json_is_string(w) && strstr(title, json_string_value(w))) {
			v += 0.1;
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
		return 0.3;
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
	return note_rules_round2(0.3 + 0.7 * (double)aligned / (double)json_array_size(plans));
}

/* The phrase (between commas) most prompts share, as a share of them. */
static double note_rules_consistency(const json_t *facts)
{
	const json_t *plans = json_object_get(facts, "imagePlans"), *plan;
	json_t *counts = json_object(), *c;
	size_t i, best = 0, n = json_array_size(plans);
	const char *k;

	if (n == 0)
		return 0.4;
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
	return note_rules_round2(0.4 + 0.6 * (double)best / (double)n);
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

/* Records that dim may score at most max (the lowest of such caps). */
static void note_rules_cap(json_t *caps, const char *dim, double max)
{
	const json_t *was = json_object_get(caps, dim);

	if (was == NULL || json_number_value(was) > max)
		json_object_set_new(caps, dim, json_real(note_rules_round2(max)));
}

static void note_rules_apply_caps(json_t *scores, const json_t *caps)
{
	const char *dim;
	json_t *max;

	json_object_foreach((json_t *)caps, dim, max)
		if (json_number_value(json_object_get(scores, dim)) > json_number_value(max))
			json_object_set(scores, dim, max);
}

/* Every word the person's feedback asked to leave out. New reference. */
static json_t *note_rules_banned_all(const json_t *facts)
{
	return note_rules_feedbacks_banned(json_object_get(facts, "feedback"), NULL);
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
	return 0.7 * (all ? (double)seen / (double)all : 1) + 0.3 * (kall ? (double)kseen / (double)kall : 1);
}

/* The first word the feedback asked to leave out that the note still has
 * (title, body or tags), or NULL. New string. */
static char *note_rules_contradiction(const json_t *facts, const char *title, const char *body)
{
	const json_t *fb = json_object_get(facts, "feedback"), *f, *t;
	char *found = NULL;
	size_t i, j, k;
	json_t *banned, *w;

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
	return found;
}

/* How many lines of the body (headings and paragraphs, six characters or
 * more) repeat an earlier one: the same line, or (twelve characters or
 * more, not in brackets) one alike it, a template's line with another
 * name in it. */
static size_t note_rules_repeats(const char *body)
{
	json_t *seen = json_array(), *v;
	char *copy = xstrdup(body), *save = NULL;
	size_t n = 0, i;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t chars;
		int rep = 0, aside;

		while (*l == ' ' || *l == '\t')
			l++;
		if ((chars = phrase_chars(l)) < 6)
			continue;
		/* A line in brackets (where a point comes from) is not said twice
		 * by naming another note in the same words. */
		aside = strncmp(l, "（", strlen("（")) == 0 || *l == '(';
		json_array_foreach(seen, i, v) {
			const char *e = json_string_value(v);

			if (strcmp(e, l) == 0 || (chars >= 12 && !aside && phrase_alike(e, l) >= PHRASE_ALIKE))
				rep = 1;
		}
		n += (size_t)rep;
		json_array_append_new(seen, json_string(l));
	}
	free(copy);
	json_decref(seen);
	return n;
}

/* What the counts above cannot see: text off the topic, a word the
 * feedback asked to leave out, repeated sections. Each caps the dimension
 * it spoils (in caps) and adds its reason and hint. */
static void note_rules_review_checks(const json_t *facts, const char *title, const char *body,
				  json_t *caps, json_t *reasons, json_t *sugg)
{
	double share = note_rules_topic_share(facts, title, body);
	char *banned = note_rules_contradiction(facts, title, body), *r;
	size_t rep = note_rules_repeats(body);

	if (share < 0.5) {
		r = xasprintf("内容偏离主题「%s」（主题词命中 %.2f）", phrase_str(facts, "topic") ?: "", share);
		json_array_append_new(reasons, json_string(r));
		json_array_append_new(sugg, json_string("围绕主题重写，标题和正文都要写到主题本身"));
		free(r);
		note_rules_cap(caps, "infoDensity", 0.1 + 0.4 * share);
		note_rules_cap(caps, "platformFit", 0.4);
	}
	if (banned) {
		r = xasprintf("与修改意见矛盾：仍提到「%s」", banned);
		json_array_append_new(reasons, json_string(r));
		json_array_append_new(sugg, json_string("按修改意见删去不要的内容，标签里也不要出现"));
		free(r);
		note_rules_cap(caps, "infoDensity", 0.3);
	}
	if (rep) {
		r = xasprintf("有 %zu 处段落或小标题重复", rep);
		json_array_append_new(reasons, json_string(r));
		json_array_append_new(sugg, json_string("删去重复的段落，每节只讲一件事"));
		free(r);
		note_rules_cap(caps, "readability", 0.3);
	}
	free(banned);
}

static const struct { const char *dim, *agent, *reason, *hint; } note_rules_dims[] = {
	{ "infoDensity", "writer_agent", "信息密度不够", "补充具体的数字、步骤或亲身细节" },
	{ "readability", "writer_agent", "可读性差", "缩短长句，每段控制在 150 字以内，加小标题" },
	{ "platformFit", "writer_agent", "不够贴合平台", "标题控制在 20 字以内并带上关键词，标签 3 到 8 个，结尾加一句互动" },
	{ "textImageAlignment", "image_planner_agent", "图文对应弱", "让每张配图对应一个段落，提示词写出段落的主体" },
	{ "styleConsistency", "image_agent", "配图风格不统一", "统一所有配图的风格和配色" },
	{ "imageCompleteness", "image_agent", "有配图生成失败", "重新生成失败的配图" },
};

static json_t *note_rules_review_verdict(json_t *scores, json_t *reasons, json_t *sugg)
{
	double sum = 0, low = 2;
	const char *target = NULL;

	for (size_t i = 0; i < OFFLINE_N(note_rules_dims); i++) {
		double v = json_number_value(json_object_get(scores, note_rules_dims[i].dim));

		sum += v;
		if (v < OFFLINE_PASS_DIM) {
			char *r = xasprintf("%s（%s %.2f）", note_rules_dims[i].reason, note_rules_dims[i].dim, v);

			json_array_append_new(reasons, json_string(r));
			json_array_append_new(sugg, json_string(note_rules_dims[i].hint));
			free(r);
			if (v < low)
				low = v, target = note_rules_dims[i].agent;
		}
	}
	sum = note_rules_round2(sum / (double)OFFLINE_N(note_rules_dims));
	return json_pack("{s:b, s:o, s:f, s:o, s:o, s:o, s:s}", "approved",
			 sum >= OFFLINE_PASS_OVERALL && target == NULL, "scores", scores, "overall", sum,
			 "failReasons", reasons, "suggestions", sugg, "targetAgent",
			 target ? json_string(target) : json_null(), "feedback",
			 target ? "有维度未达标，建议回到对应环节修改" : "各维度达标，可以发布");
}

json_t *note_rules_task_review(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *title = phrase_str(facts, "title"), *body = phrase_str(facts, "body");
	json_t *scores, *caps, *reasons, *sugg;

	if (title == NULL || body == NULL) {
		snprintf(err, errlen, "the review needs the note's title and body");
		return NULL;
	}
	caps = json_object(), reasons = json_array(), sugg = json_array();
	scores = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}",
		"infoDensity", note_rules_info_density(facts, body),
		"readability", note_rules_readability(facts, body),
		"platformFit", note_rules_platform_fit(facts, title, body),
		"textImageAlignment", note_rules_alignment(facts),
		"styleConsistency", note_rules_consistency(facts),
		"imageCompleteness", note_rules_completeness(facts));
	note_rules_review_checks(facts, title, body, caps, reasons, sugg);
	note_rules_apply_caps(scores, caps);
	json_decref(caps);
	return note_rules_review_verdict(scores, reasons, sugg);
}

json_t *note_rules_task_review_checks(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *title = phrase_str(facts, "title"), *body = phrase_str(facts, "body");
	json_t *caps, *reasons, *sugg;

	if (title == NULL || body == NULL) {
		snprintf(err, errlen, "the checks need the note's title and body");
		return NULL;
	}
	caps = json_object(), reasons = json_array(), sugg = json_array();
	note_rules_review_checks(facts, title, body, caps, reasons, sugg);
	return json_pack("{s:o, s:o, s:o}", "caps", caps, "failReasons", reasons, "suggestions", sugg);
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
