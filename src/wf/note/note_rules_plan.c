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
 * feedback or an earlier reply) replaces the set's style. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "text/script.h"
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

/* The first sentence of a paragraph after its heading, at most max
 * characters. The caller frees it. */
static char *note_rules_lead(const json_t *par, size_t max)
{
	const char *text = note_rules_par_str(par, "text"), *nl = strchr(text, '\n');
	json_t *sent = phrase_sentences(*note_rules_par_str(par, "heading") && nl ? nl + 1 : text, 1);
	char *out = phrase_truncate(json_string_value(json_array_get(sent, 0)) ?: "", max);

	json_decref(sent);
	return out;
}

static char *note_rules_focus(const json_t *par, const char *fallback)
{
	json_t *kw = phrase_keywords(note_rules_par_str(par, "text"), 4), *v;
	char *out = NULL;
	size_t i;

	json_array_foreach(kw, i, v)
		if (out == NULL && !phrase_generic(json_string_value(v)) &&
		    phrase_chars(json_string_value(v)) <= 6)
			out = xstrdup(json_string_value(v));
	json_decref(kw);
	return out ? out : xstrdup(fallback);
}

static json_t *note_rules_cover_spec(const char *title, const json_t *opening, const char *density,
				  const char *placement, json_t *overlays)
{
	char *focus = note_rules_focus(opening, title), *short_title = phrase_truncate(title, 14);
	json_t *spec = json_pack("{s:i, s:s, s:s, s:s, s:s, s:[{s:s, s:s+}, {s:s, s:s+}, {s:s, s:s}]}",
		"imageSeq", 1, "role", "cover", "paragraphId", note_rules_par_str(opening, "id"),
		"visualFocus", focus, "textDensity", density, "blocks",
		"area", "title", "instruction", "大字标题：", short_title,
		"area", "visual_focus", "instruction", "主视觉：", focus,
		"area", "footer", "instruction", "底部留出话题标签条");

	json_array_append_new(overlays, json_pack("{s:i, s:s, s:s}", "imageSeq", 1, "titleText",
						  short_title, "placement", placement));
	free(focus);
	free(short_title);
	return spec;
}

static json_t *note_rules_section_spec(int seq, const json_t *sec, const char *density,
				    json_t *overlays, size_t last)
{
	const char *heading = note_rules_par_str(sec, "heading");
	char *focus = note_rules_focus(sec, heading), *lead = note_rules_lead(sec, 24);
	char *head = phrase_truncate(*heading ? heading : lead, 16);
	json_t *spec = json_pack("{s:i, s:s, s:s, s:s, s:s, s:[{s:s, s:s}, {s:s, s:s+}]}", "imageSeq",
		seq, "role", last ? "summary" : "content", "paragraphId", note_rules_par_str(sec, "id"),
		"visualFocus", focus, "textDensity", density, "blocks", "area", "title", "instruction",
		head, "area", "visual_focus", "instruction", "画面主体：", focus);
	json_t *ov = json_pack("{s:i, s:s, s:s}", "imageSeq", seq, "titleText", head, "placement",
			       "bottom");

	if (strcmp(density, "low") != 0) {
		json_array_append_new(json_object_get(spec, "blocks"),
				      json_pack("{s:s, s:s+}", "area", "body", "instruction", "要点：", lead));
		json_object_set_new(ov, "bodyText", json_string(lead));
	}
	json_array_append_new(overlays, ov);
	free(focus);
	free(lead);
	free(head);
	return spec;
}

json_t *note_rules_task_layout(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const json_t *pars = json_object_get(facts, "paragraphs"), *ref = json_object_get(facts, "reference");
	const char *pref = phrase_str(facts, "layoutPreference");
	const char *title = phrase_str(facts, "title") ?: phrase_str(facts, "topic") ?: text;
	json_t *sections, *specs, *overlays, *ref_b = json_object_get(ref, "brightness");
	size_t n, i;

	if (json_array_size(pars) == 0) {
		snprintf(err, errlen, "the layout needs the note's paragraphs");
		return NULL;
	}
	sections = note_rules_sections(pars);
	n = note_rules_image_count(pref, json_array_size(sections));
	specs = json_array();
	overlays = json_array();
	json_array_append_new(specs, note_rules_cover_spec(title ? title : "", json_array_get(pars, 0),
		note_rules_density(pref), json_number_value(ref_b) > 0.6 ? "top" : "center", overlays));
	for (i = 1; i < n; i++)
		json_array_append_new(specs, note_rules_section_spec((int)i + 1, json_array_get(sections, i - 1),
			note_rules_density(pref), overlays, i + 1 == n && n > 2));
	json_decref(sections);
	return json_pack("{s:o, s:i, s:o, s:o, s:s}", "canvas", note_rules_canvas(ref), "imageCount",
			 (int)n, "layoutSpec", specs, "textOverlayPlan", overlays, "reason",
			 ref && json_object_get(ref, "orientation") ? "画幅跟随参考图，配图数量按版式偏好与小节数"
								    : "默认 3:4 竖版，配图数量按版式偏好与小节数");
}

/* ---- image plans ---- */

static const char *const note_rules_styles[] = {
	"清新日系摄影风格，自然光", "明亮杂志风插画，干净线条", "温暖胶片质感，柔和颗粒",
	"简约扁平插画，大色块", "治愈系手绘水彩，留白",
};
/* Styles a person may ask for, by the words that name them. */
static const struct { const char *words, *style; } note_rules_asked_styles[] = {
	{ "水彩|watercolor|watercolour", "手绘水彩风格，柔和晕染，留白" },
	{ "油画|oil painting|oil-painting", "油画风格，厚涂笔触，浓郁色彩" },
	{ "水墨|国画|ink painting", "中国水墨风格，淡墨晕染，大片留白" },
	{ "胶片|film", "温暖胶片质感，柔和颗粒" },
	{ "扁平|flat", "简约扁平插画，大色块" },
	{ "日系|japanese", "清新日系摄影风格，自然光" },
	{ "像素|pixel", "像素艺术风格，复古配色" },
	{ "赛博朋克|cyberpunk", "赛博朋克风格，霓虹灯光" },
	{ "3D|C4D", "3D 卡通渲染，柔和光影" },
	{ "插画|illustration", "明亮杂志风插画，干净线条" },
	{ "写实|摄影|photo|realistic", "写实摄影风格，自然光" },
};

/* Whether text names w right after a refusal (不要水彩, no watercolor). */
static int note_rules_refused(const char *text, const char *w)
{
	static const char *const nos[] = { "不要", "别", "不用", "不想", "不喜欢", "去掉", "no ", "not ",
					   "don't ", "without " };
	const char *at = strcasestr(text, w);

	for (size_t i = 0; at && i < OFFLINE_N(nos); i++) {
		const char *p = strstr(text, nos[i]);

		while (p && p < at) {
			if (at - p <= (ptrdiff_t)strlen(nos[i]) + 6)
				return 1;
			p = strstr(p + 1, nos[i]);
		}
	}
	return 0;
}

/* The index of the style text asks for (换成水彩风, use a watercolor
 * style) or refuses (不要水彩, with *refused set), or -1. */
static int note_rules_style_named(const char *text, int *refused)
{
	for (size_t i = 0; text && *text && i < OFFLINE_N(note_rules_asked_styles); i++) {
		char *words = xstrdup(note_rules_asked_styles[i].words), *save = NULL;

		for (char *w = strtok_r(words, "|", &save); w; w = strtok_r(NULL, "|", &save))
			if (phrase_has(text, w)) {
				*refused = note_rules_refused(text, w);
				free(words);
				return (int)i;
			}
		free(words);
	}
	return -1;
}

/* The style text asks for, or NULL (none, or one it refuses). */
static const char *note_rules_style_in(const char *text)
{
	int no = 0, i = note_rules_style_named(text, &no);

	return i >= 0 && !no ? note_rules_asked_styles[i].style : NULL;
}

/* Whether style is one the feedback refuses (不要水彩 and a watercolour). */
static int note_rules_style_clash(const char *feedback, const char *style)
{
	int no = 0, i = note_rules_style_named(feedback, &no);
	char *words;
	int clash = 0;

	if (i < 0 || !no)
		return 0;
	words = xstrdup(note_rules_asked_styles[i].words);
	for (char *save = NULL, *w = strtok_r(words, "|", &save); w; w = strtok_r(NULL, "|", &save))
		clash |= phrase_has(style, w);
	free(words);
	return clash;
}

/* The style the person asked for: in this feedback, else the latest of
 * their earlier replies; NULL when none did. */
static const char *note_rules_asked_style(const json_t *facts)
{
	const json_t *replies = json_object_get(facts, "replies");
	const char *s = note_rules_style_in(phrase_str(facts, "feedback"));

	for (size_t i = json_array_size(replies); s == NULL && i > 0; i--)
		s = note_rules_style_in(json_string_value(json_array_get(replies, i - 1)));
	return s;
}

static const char *const note_rules_compositions[] = {
	"近景特写", "俯拍平铺", "人物背影远景", "居中留白构图", "三分法构图",
};

static const struct { const char *name; int r, g, b; } note_rules_colours[] = {
	{ "红", 220, 50, 50 }, { "橙", 240, 140, 40 }, { "黄", 240, 210, 60 }, { "绿", 60, 160, 80 },
	{ "青", 40, 170, 170 }, { "蓝", 50, 100, 210 }, { "紫", 140, 80, 190 }, { "粉", 240, 150, 180 },
	{ "棕", 140, 90, 50 }, { "米白", 240, 230, 210 }, { "白", 250, 250, 250 }, { "灰", 128, 128, 128 },
	{ "黑", 20, 20, 20 },
};

static const char *note_rules_colour_name(const char *hex)
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
			name = note_rules_colours[i].name;
		}
	}
	return name;
}

/* "配色：暖橙、米白" from the reference palette, or "" when there is none. */
static char *note_rules_palette_words(const json_t *palette)
{
	json_t *names = json_array(), *v;
	struct buf b;
	size_t i;

	json_array_foreach(palette, i, v)
		if (i < 4)
			phrase_add_unique(names, note_rules_colour_name(json_string_value(v)));
	buf_init(&b, 256);
	if (json_array_size(names)) {
		buf_adds(&b, "配色：");
		phrase_join(&b, names, "、", 3);
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

static void note_rules_words_into(json_t *out, const char *text, size_t take, size_t max)
{
	json_t *kw = phrase_keywords(text, take + 4), *v;
	size_t i, added = 0;

	json_array_foreach(kw, i, v)
		if (added < take && json_array_size(out) < max && !phrase_generic(json_string_value(v)) &&
		    phrase_chars(json_string_value(v)) <= 6) {
			phrase_add_unique(out, json_string_value(v));
			added++;
		}
	json_decref(kw);
}

/* The subject words of an image: the cover's from the title and the
 * topic; a section's from its heading, its own words, then the topic. */
static json_t *note_rules_subjects(const json_t *par, const char *topic, const char *title, int cover)
{
	json_t *out = json_array();
	const char *head = note_rules_unnumbered(note_rules_par_str(par, "heading"));

	if (cover) {
		note_rules_words_into(out, title ? title : topic, 3, 4);
	} else {
		if (*head && phrase_chars(head) <= 10)
			phrase_add_unique(out, head);
		note_rules_words_into(out, note_rules_par_str(par, "text"), 2, 3);
	}
	note_rules_words_into(out, topic, 1, 4);
	return out;
}

struct note_rules_plan_ctx {
	const json_t *facts, *pars;
	const char *topic, *style, *feedback;
	char *palette;
	unsigned rot;
	json_t *plans, *bindings;
};

static void note_rules_plan_one(struct note_rules_plan_ctx *x, size_t i, const json_t *spec)
{
	size_t pi;
	const json_t *par = note_rules_par_by_id(x->pars, phrase_str(spec, "paragraphId"), &pi);
	const char *role = phrase_str(spec, "role") ?: "content";
	json_t *subj = note_rules_subjects(par, x->topic, phrase_str(x->facts, "title"),
					strcmp(role, "cover") == 0), *shared = json_array(), *v;
	struct buf p;
	size_t k;

	buf_init(&p, 4096);
	phrase_join(&p, subj, "，", 4);
	buf_printf(&p, "，%s，%s", note_rules_compositions[(i + x->rot) % OFFLINE_N(note_rules_compositions)],
		   x->style);
	if (*x->palette)
		buf_printf(&p, "，%s", x->palette);
	buf_printf(&p, "，小红书%s配图，画面%s留出文字区域", strcmp(role, "cover") ? "内页" : "封面",
		   strcmp(role, "cover") ? "下方" : "上方");
	if (x->feedback)
		buf_printf(&p, "，%s", x->feedback);
	json_array_foreach(subj, k, v)
		if (strstr(note_rules_par_str(par, "text"), json_string_value(v)))
			json_array_append(shared, v);
	json_array_append_new(x->plans, json_pack("{s:I, s:s, s:s, s:i, s:s+, s:s}", "sequence",
		json_integer_value(json_object_get(spec, "imageSeq")), "role", role, "paragraphId",
		note_rules_par_str(par, "id"), "paragraphIndex", (int)pi, "description",
		strcmp(role, "cover") ? "配图：" : "封面：", phrase_str(spec, "visualFocus") ?: x->topic,
		"prompt", p.data));
	json_array_append_new(x->bindings, json_pack("{s:s, s:i, s:I, s:o}", "paragraphId",
		note_rules_par_str(par, "id"), "paragraphIndex", (int)pi, "imageSeq",
		json_integer_value(json_object_get(spec, "imageSeq")), "sharedWords", shared));
	buf_free(&p);
	json_decref(subj);
}

json_t *note_rules_task_image_plans(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const json_t *specs = json_object_get(facts, "layoutSpec"), *spec;
	struct note_rules_plan_ctx x = { .facts = facts, .pars = json_object_get(facts, "paragraphs") };
	json_int_t attempt = json_integer_value(json_object_get(facts, "attempt"));
	int no = 0;
	uint64_t h;
	size_t i;

	x.topic = phrase_str(facts, "topic") ?: phrase_str(facts, "title") ?: text;
	if (json_array_size(specs) == 0 || json_array_size(x.pars) == 0 || x.topic == NULL) {
		snprintf(err, errlen, "image plans need the layout, the paragraphs and the topic");
		return NULL;
	}
	h = phrase_hash(x.topic, "image_plans");
	x.rot = attempt > 1 ? (unsigned)((attempt - 1) % 64) : 0;
	x.style = note_rules_asked_style(facts);
	x.feedback = phrase_str(facts, "feedback");
	for (unsigned k = 0; x.style == NULL && k < OFFLINE_N(note_rules_styles); k++)
		if (!note_rules_style_clash(x.feedback, note_rules_styles[(h + x.rot + k) % OFFLINE_N(note_rules_styles)]))
			x.style = note_rules_styles[(h + x.rot + k) % OFFLINE_N(note_rules_styles)];
	if (note_rules_style_named(x.feedback, &no) >= 0)
		x.feedback = NULL;   /* applied to the style: its words are not pasted */
	x.palette = note_rules_palette_words(json_object_get(facts, "palette"));
	x.plans = json_array();
	x.bindings = json_array();
	json_array_foreach(specs, i, spec)
		if (i < OFFLINE_MAX_IMAGES)
			note_rules_plan_one(&x, i, spec);
	free(x.palette);
	return json_pack("{s:o, s:o, s:s}", "imagePlans", x.plans, "paragraphImageBindings", x.bindings,
			 "style", x.style);
}
