/* The words of an image plan's prompt and how a person's feedback changes
 * them, shared by the offline planner (note_rules_plan.c) and the image
 * planner's feedback (note_plans_feedback.c). A prompt the rules write is
 * "subjects，composition，style[，tone][，palette]，role" (", " between
 * the parts in English); a person may name another style (换成水彩风, in
 * watercolour), a tone (色调暖一点, more minimal), another subject for one
 * picture, or move a picture to or from the cover. Each change here edits
 * the part it names and keeps the rest of the prompt, so the set still
 * looks like one note; on a prompt a model wrote, whose parts are not
 * known, the change is added as a clause of its own. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/phrase.h"
#include "text/script.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note_rules.h"

#define PLAN_N(a) (sizeof(a) / sizeof((a)[0]))

/* The rules' own styles, one per set, in both languages. */
static const struct { const char *zh, *en; } plan_styles[] = {
	{ "清新日系摄影风格，自然光", "fresh Japanese-style photography, natural light" },
	{ "明亮杂志风插画，干净线条", "bright magazine illustration, clean lines" },
	{ "温暖胶片质感，柔和颗粒", "warm film look, soft grain" },
	{ "简约扁平插画，大色块", "simple flat illustration, large blocks of colour" },
	{ "治愈系手绘水彩，留白", "gentle hand-painted watercolour, white space" },
};

/* Styles a person may ask for, by the words that name them. */
static const struct { const char *words, *zh, *en, *label_zh, *label_en; } plan_asked[] = {
	{ "水彩|watercolor|watercolour", "手绘水彩风格，柔和晕染，留白", "hand-painted watercolour, soft washes, white space",
	  "水彩", "watercolour" },
	{ "油画|oil painting|oil-painting", "油画风格，厚涂笔触，浓郁色彩", "oil painting, thick brushstrokes, rich colour",
	  "油画", "oil painting" },
	{ "水墨|国画|ink painting|ink wash", "中国水墨风格，淡墨晕染，大片留白", "Chinese ink wash, pale ink, wide white space",
	  "水墨", "ink wash" },
	{ "胶片|film look|film grain|analog film", "温暖胶片质感，柔和颗粒", "warm film look, soft grain", "胶片", "film" },
	{ "扁平|flat illustration|flat style|flat design", "简约扁平插画，大色块", "simple flat illustration, large blocks of colour",
	  "扁平插画", "flat illustration" },
	{ "日系|japanese style|japanese-style", "清新日系摄影风格，自然光", "fresh Japanese-style photography, natural light",
	  "日系", "Japanese style" },
	{ "像素|pixel art|pixel-art", "像素艺术风格，复古配色", "pixel art, retro palette", "像素", "pixel art" },
	{ "赛博朋克|cyberpunk", "赛博朋克风格，霓虹灯光", "cyberpunk, neon light", "赛博朋克", "cyberpunk" },
	{ "3D|C4D", "3D 卡通渲染，柔和光影", "3D cartoon render, soft light and shade", "3D", "3D" },
	{ "插画|illustration style|illustrated", "明亮杂志风插画，干净线条", "bright magazine illustration, clean lines",
	  "插画", "illustration" },
	{ "写实|摄影|photographic|photorealistic|realistic|photo style", "写实摄影风格，自然光",
	  "realistic photography, natural light", "写实摄影", "realistic photography" },
};

/* Tones a person may ask for; those of one axis replace each other. */
static const struct { const char *words, *zh, *en, *label_zh, *label_en; int axis; } plan_tones[] = {
	{ "暖一点|暖一些|更暖|暖色|暖调|温暖一点|warmer|warm tone|warm colour|warm color", "暖色调，柔和暖光",
	  "warm tones, soft warm light", "暖色调", "warmer tones", 0 },
	{ "冷一点|冷一些|更冷|冷色|冷调|清冷|cooler|cool tone|cool colour|cool color", "冷色调，清透蓝灰",
	  "cool tones, clear blue-grey light", "冷色调", "cooler tones", 0 },
	{ "亮一点|亮一些|更亮|明亮一点|提亮|brighter|lighter", "明亮通透，高调光线", "bright and airy, high-key light",
	  "更明亮", "brighter light", 1 },
	{ "暗一点|暗一些|更暗|darker|moodier", "低调暗部，氛围感光影", "low-key, moody light", "更暗的氛围光",
	  "darker, moodier light", 1 },
	{ "简约|简洁|极简|干净一点|清爽一点|simpler|minimal|cleaner", "简约构图，大面积留白",
	  "minimal composition, plenty of empty space", "更简约", "a more minimal look", 2 },
	{ "鲜艳|饱和度高|色彩丰富|更艳|vivid|more colourful|more colorful", "色彩鲜艳，高饱和", "vivid, saturated colours",
	  "更鲜艳", "more vivid colours", 3 },
	{ "柔和|淡一点|素一点|淡雅|softer|muted|pastel", "柔和淡雅，低饱和", "soft, muted colours", "更柔和",
	  "softer colours", 3 },
};

static const struct { const char *zh, *en; } plan_compositions[] = {
	{ "近景特写", "close-up" }, { "俯拍平铺", "flat lay from above" }, { "人物背影远景", "a figure from behind, wide shot" },
	{ "居中留白构图", "centred, with white space" }, { "三分法构图", "rule-of-thirds composition" },
};

static const struct { const char *zh, *en; } plan_roles[2] = {
	{ "小红书内页配图，画面下方留出文字区域", "inside picture of a social media note, space for text at the bottom" },
	{ "小红书封面配图，画面上方留出文字区域", "cover picture of a social media note, space for text at the top" },
};

static const struct { const char *zh, *en; } plan_labels[2] = {
	{ "配图：", "Picture: " }, { "封面：", "Cover: " },
};

int note_rules_plan_en(const char *text)
{
	return strcmp(text_lang(text), "en") == 0;
}

size_t note_rules_plan_nstyles(void)
{
	return PLAN_N(plan_styles);
}

const char *note_rules_plan_style(size_t i, int en)
{
	i %= PLAN_N(plan_styles);
	return en ? plan_styles[i].en : plan_styles[i].zh;
}

size_t note_rules_plan_ncompositions(void)
{
	return PLAN_N(plan_compositions);
}

const char *note_rules_plan_composition(size_t i, int en)
{
	i %= PLAN_N(plan_compositions);
	return en ? plan_compositions[i].en : plan_compositions[i].zh;
}

const char *note_rules_plan_role(int cover, int en)
{
	return en ? plan_roles[!!cover].en : plan_roles[!!cover].zh;
}

const char *note_rules_plan_label(int cover, int en)
{
	return en ? plan_labels[!!cover].en : plan_labels[!!cover].zh;
}

/* The first of the |-separated words found in text (ASCII case ignored),
 * as a pointer into text; NULL when none is. *wlen: the word's length. */
static const char *plan_words_in(const char *text, const char *words, size_t *wlen)
{
	const char *w = words, *best = NULL;

	while (text && *text && w && *w) {
		const char *bar = strchr(w, '|');
		size_t n = bar ? (size_t)(bar - w) : strlen(w);
		char one[64];
		const char *at;

		if (n > 0 && n < sizeof one) {
			memcpy(one, w, n);
			one[n] = '\0';
			at = strcasestr(text, one);
			if (at && (best == NULL || at < best)) {
				best = at;
				*wlen = n;
			}
		}
		w = bar ? bar + 1 : NULL;
	}
	return best;
}

/* Whether the words right before at refuse what follows (不要水彩, no
 * watercolour). */
static int plan_refused_before(const char *text, const char *at)
{
	static const char *const nos[] = { "不要", "别", "不用", "不想", "不喜欢", "去掉", "no ", "not ",
					    "don't ", "without ", "less " };

	for (size_t i = 0; i < PLAN_N(nos); i++) {
		const char *p = strstr(text, nos[i]);

		while (p && p < at) {
			if (at - p <= (ptrdiff_t)strlen(nos[i]) + 6)
				return 1;
			p = strstr(p + 1, nos[i]);
		}
	}
	return 0;
}

int note_rules_plan_style_asked(const char *text, int *refused)
{
	const char *first = NULL;
	int k = -1;
	size_t n = 0;

	for (size_t i = 0; i < PLAN_N(plan_asked); i++) {
		const char *at = plan_words_in(text, plan_asked[i].words, &n);

		if (at && (first == NULL || at < first)) {
			first = at;
			k = (int)i;
		}
	}
	if (refused)
		*refused = first ? plan_refused_before(text, first) : 0;
	return k;
}

const char *note_rules_plan_asked_style(int k, int en)
{
	if (k < 0 || (size_t)k >= PLAN_N(plan_asked))
		return NULL;
	return en ? plan_asked[k].en : plan_asked[k].zh;
}

const char *note_rules_plan_style_label(int k, int en)
{
	if (k < 0 || (size_t)k >= PLAN_N(plan_asked))
		return "";
	return en ? plan_asked[k].label_en : plan_asked[k].label_zh;
}

int note_rules_plan_style_clash(const char *style, int k)
{
	size_t n;

	if (k < 0 || (size_t)k >= PLAN_N(plan_asked))
		return 0;
	return plan_words_in(style, plan_asked[k].words, &n) != NULL ||
	       strstr(style, plan_asked[k].zh) || phrase_has(style, plan_asked[k].en);
}

int note_rules_plan_tone_asked(const char *text)
{
	const char *first = NULL;
	int t = -1;
	size_t n = 0;

	for (size_t i = 0; i < PLAN_N(plan_tones); i++) {
		const char *at = plan_words_in(text, plan_tones[i].words, &n);

		if (at && !plan_refused_before(text, at) && (first == NULL || at < first)) {
			first = at;
			t = (int)i;
		}
	}
	return t;
}

const char *note_rules_plan_tone(int t, int en)
{
	if (t < 0 || (size_t)t >= PLAN_N(plan_tones))
		return NULL;
	return en ? plan_tones[t].en : plan_tones[t].zh;
}

const char *note_rules_plan_tone_label(int t, int en)
{
	if (t < 0 || (size_t)t >= PLAN_N(plan_tones))
		return "";
	return en ? plan_tones[t].label_en : plan_tones[t].label_zh;
}

/* ---- editing a prompt ---- */

/* s with the first from replaced by to (from must be in s). */
static char *plan_replace(const char *s, const char *at, size_t n, const char *to)
{
	return xasprintf("%.*s%s%s", (int)(at - s), s, to, at + n);
}

/* The separator between the parts of a prompt in its language. */
static const char *plan_sep(const char *prompt)
{
	return note_rules_plan_en(prompt) ? ", " : "，";
}

/* The first phrase of list found in prompt (either language), or NULL. */
static const char *plan_find_any(const char *prompt, const char *const *list, size_t n, size_t *len)
{
	const char *best = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *at = list[i] ? strstr(prompt, list[i]) : NULL;

		if (at && (best == NULL || at < best)) {
			best = at;
			*len = strlen(list[i]);
		}
	}
	return best;
}

/* A known style phrase of prompt: the rules' own or an asked one. */
static const char *plan_style_at(const char *prompt, size_t *len)
{
	const char *list[2 * (PLAN_N(plan_styles) + PLAN_N(plan_asked))];
	size_t n = 0;

	for (size_t i = 0; i < PLAN_N(plan_styles); i++) {
		list[n++] = plan_styles[i].zh;
		list[n++] = plan_styles[i].en;
	}
	for (size_t i = 0; i < PLAN_N(plan_asked); i++) {
		list[n++] = plan_asked[i].zh;
		list[n++] = plan_asked[i].en;
	}
	return plan_find_any(prompt, list, n, len);
}

/* s without part (at, n) and the separator before it. */
static char *plan_cut(const char *s, const char *at, size_t n)
{
	const char *from = at;

	if (from >= s + strlen("，") && strncmp(from - strlen("，"), "，", strlen("，")) == 0)
		from -= strlen("，");
	else if (from >= s + 2 && strncmp(from - 2, ", ", 2) == 0)
		from -= 2;
	else if (strncmp(at + n, "，", strlen("，")) == 0)
		n += strlen("，");
	else if (strncmp(at + n, ", ", 2) == 0)
		n += 2;
	return xasprintf("%.*s%s", (int)(from - s), s, at + n);
}

char *note_rules_plan_restyle(const char *prompt, int k)
{
	const char *to = note_rules_plan_asked_style(k, note_rules_plan_en(prompt)), *at;
	size_t n = 0;

	if (to == NULL || strstr(prompt, to) || note_rules_plan_style_clash(prompt, k))
		return xstrdup(prompt);   /* already in that style */
	at = plan_style_at(prompt, &n);
	if (at)
		return plan_replace(prompt, at, n, to);
	return xasprintf("%s%s%s", prompt, plan_sep(prompt), to);
}

char *note_rules_plan_unstyle(const char *prompt, int k)
{
	int en = note_rules_plan_en(prompt), clash;
	size_t n = 0;
	const char *at = plan_style_at(prompt, &n);
	char *style = at ? xstrndup(at, n) : NULL;

	clash = style && note_rules_plan_style_clash(style, k);
	free(style);
	if (!clash)
		return xstrdup(prompt);
	for (size_t i = 0; i < PLAN_N(plan_styles); i++)
		if (!note_rules_plan_style_clash(note_rules_plan_style(i, en), k))
			return plan_replace(prompt, at, n, note_rules_plan_style(i, en));
	return plan_cut(prompt, at, n);
}

int note_rules_plan_has_tone(const char *prompt, int t)
{
	return t >= 0 && (size_t)t < PLAN_N(plan_tones) &&
	       (strstr(prompt, plan_tones[t].zh) || strstr(prompt, plan_tones[t].en));
}

char *note_rules_plan_retone(const char *prompt, int t)
{
	char *out = xstrdup(prompt), *next;

	if (t < 0 || (size_t)t >= PLAN_N(plan_tones) || note_rules_plan_has_tone(prompt, t))
		return out;
	for (size_t i = 0; i < PLAN_N(plan_tones); i++) {
		const char *at;

		if (plan_tones[i].axis != plan_tones[t].axis)
			continue;
		while ((at = strstr(out, plan_tones[i].zh)) || (at = strstr(out, plan_tones[i].en))) {
			next = plan_cut(out, at, strstr(out, plan_tones[i].zh) == at ? strlen(plan_tones[i].zh)
										 : strlen(plan_tones[i].en));
			free(out);
			out = next;
		}
	}
	next = xasprintf("%s%s%s", out, plan_sep(out), note_rules_plan_tone(t, note_rules_plan_en(out)));
	free(out);
	return next;
}

/* Where the subject of a prompt ends: before the first composition the
 * rules write, else at the end of its first clause. */
static size_t plan_subject_end(const char *prompt)
{
	const char *list[2 * PLAN_N(plan_compositions)], *at, *comma, *en;
	size_t n = 0, len = 0;

	for (size_t i = 0; i < PLAN_N(plan_compositions); i++) {
		list[n++] = plan_compositions[i].zh;
		list[n++] = plan_compositions[i].en;
	}
	at = plan_find_any(prompt, list, n, &len);
	if (at && at > prompt)
		return (size_t)(at - prompt);
	comma = strstr(prompt, "，");
	en = strstr(prompt, ", ");
	if (en && (comma == NULL || en < comma))
		comma = en;
	return comma ? (size_t)(comma - prompt) + (strncmp(comma, "，", 3) == 0 ? 3 : 2) : strlen(prompt);
}

char *note_rules_plan_resubject(const char *prompt, const char *subject)
{
	size_t end = plan_subject_end(prompt);

	if (end >= strlen(prompt))
		return xstrdup(subject);
	return xasprintf("%s%s%s", subject, plan_sep(prompt), prompt + end);
}

char *note_rules_plan_recast(const char *prompt, int cover)
{
	const char *from[2] = { plan_roles[!cover].zh, plan_roles[!cover].en };
	const char *to[2] = { plan_roles[!!cover].zh, plan_roles[!!cover].en };

	for (int l = 0; l < 2; l++) {
		const char *at = strstr(prompt, from[l]);

		if (at)
			return plan_replace(prompt, at, strlen(from[l]), to[l]);
	}
	return xstrdup(prompt);
}

char *note_rules_plan_redescribe(const char *description, const char *subject, int cover)
{
	const char *d = description ? description : "";
	int en = note_rules_plan_en(subject) && (*d == '\0' || note_rules_plan_en(d));

	for (int i = 0; i < 2; i++)
		for (int l = 0; l < 2; l++) {
			const char *label = l ? plan_labels[i].en : plan_labels[i].zh;

			if (strncmp(d, label, strlen(label)) == 0)
				return xasprintf("%s%s", note_rules_plan_label(cover, l), subject);
		}
	return xasprintf("%s%s", note_rules_plan_label(cover, en), subject);
}

/* The style, tones and palette of a prompt the rules wrote: what follows
 * its subject and composition, without the role. The caller frees it. */
static char *plan_tail(const char *like)
{
	size_t n = 0, end = plan_subject_end(like);
	const char *at = plan_style_at(like, &n), *from = at ? at : like + end;
	char *tail = xstrdup(from), *role;

	for (int c = 0; c < 2; c++)
		for (int l = 0; l < 2; l++)
			if ((role = strstr(tail, l ? plan_roles[c].en : plan_roles[c].zh)) != NULL) {
				char *cut = plan_cut(tail, role, strlen(l ? plan_roles[c].en : plan_roles[c].zh));

				free(tail);
				tail = cut;
			}
	return tail;
}

char *note_rules_plan_like(const char *subject, const char *like, size_t composition)
{
	int en = note_rules_plan_en(like);
	char *tail = plan_tail(like), *out;

	out = xasprintf("%s%s%s%s%s%s%s", subject, en ? ", " : "，", note_rules_plan_composition(composition, en),
			*tail ? (en ? ", " : "，") : "", tail, en ? ", " : "，", note_rules_plan_role(0, en));
	free(tail);
	return out;
}
