/* What a picture request is of, and in which style (see image_intent.h):
 * the style lexicon (Chinese and English names of the styles the style
 * library knows), the restyle of the last picture, and the subject
 * extraction, a fixed sequence of removals (style words, the command,
 * measure words, "a picture of", trailing particles), each taken only
 * between whole words (text/seg.h). A step that would leave nothing is
 * skipped, so "画一张海报" keeps "海报". */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/rules_int.h"
#include "text/seg.h"
#include "wf/image/image_intent.h"
#include "util/buf.h"
#include "util/xmalloc.h"

static const struct image_style image_styles[] = {
	{ "赛博朋克", "cyberpunk", "赛博朋克|赛博|\\bcyber\\s*punk\\b" },
	{ "蒸汽朋克", "steampunk", "蒸汽朋克|\\bsteam\\s*punk\\b" },
	{ "蒸汽波", "vaporwave", "蒸汽波|\\bvapou?r\\s*wave\\b" },
	{ "水彩", "watercolor", "水彩|\\bwater\\s*colou?rs?\\b" },
	{ "油画", "oil painting", "油画|\\boil\\s+paint(?:ing)?\\b" },
	{ "像素", "pixel art", "像素|\\bpixel(?:\\s*art)?\\b|\\b8-?bit\\b" },
	{ "动漫", "anime", "动漫|二次元|日漫|漫画风|\\banime\\b|\\bmanga\\b" },
	{ "写实", "photorealistic", "超写实|写实|真实感|照片级|\\bphoto-?realistic\\b|"
				    "\\bhyper-?realistic\\b|\\brealistic\\b" },
	{ "水墨", "ink wash", "水墨|国画|中国画|\\bink\\s+wash\\b|\\bsumi-?e\\b" },
	{ "极简", "minimalist", "极简|简约|\\bminimalist\\b|\\bminimal\\b" },
	{ "复古", "retro", "复古|怀旧|\\bretro\\b|\\bvintage\\b" },
	{ "素描", "pencil sketch", "素描|铅笔画|\\bpencil\\s+sketch\\b|\\bcharcoal\\b" },
	{ "3D渲染", "3D render", "3D渲染|三维|\\bC4D\\b|\\b3D(?:\\s+render)?\\b|\\bblender\\b" },
	{ "扁平插画", "flat illustration", "扁平|\\bflat\\s+(?:design|illustration)\\b" },
	{ "印象派", "impressionist", "印象派|\\bimpressionis[mt]\\b" },
	{ "吉卜力", "Studio Ghibli", "吉卜力|宫崎骏|\\bghibli\\b" },
	{ "科幻", "sci-fi", "科幻|未来感|未来主义|\\bsci-?fi\\b|\\bfuturistic\\b" },
	{ "童话", "fairy tale", "童话|\\bfairy\\s*tale\\b" },
	{ "哥特", "gothic", "哥特|\\bgothic\\b" },
	{ "波普", "pop art", "波普|\\bpop\\s+art\\b" },
	{ "浮世绘", "ukiyo-e", "浮世绘|\\bukiyo-?e\\b" },
	{ "霓虹", "neon", "霓虹|\\bneon\\b" },
};

#define IMAGE_NSTYLES (sizeof(image_styles) / sizeof(image_styles[0]))

/* What may follow a style's word inside the same word: 水墨画, 写实主义,
 * 印象派, 复古风. A style named counts only as whole words (the callout (?C1) at
 * the end of the patterns checks it), so 霓虹灯 is a lamp, 油画棒 a crayon,
 * and 水墨画风格的山 loses 水墨画风格的, not 水墨画风. */
#define IMAGE_STYLE_SUFFIX "(?:画|主义|派|艺术|风)?"

struct image_subject_step {
	const char *name;
	const char *re;       /* NULL: built from the style lexicon */
	const char *with;
	int global;
	int may_empty;        /* a clean-up step: it may leave nothing ("你能生成吗") */
};

#define IMAGE_MEASURE \
	"^\\s*(?:(?:[一两二三四五六七八九十几百\\d]+|这|那)\\s*" \
	"[张幅副帧个只位条座朵棵片份套组对群头匹辆栋间]|一些|一点|[个只](?!人)(?=\\S)|" \
	"[张幅](?=\\s*(?:图|画|照片|相片|插画|壁纸)))"

static const struct image_subject_step image_subject_steps[] = {
	{ "style", NULL, "", 1, 0 },
	{ "replace_to", "^.*?(?:换成|改成|替换成|替换为|变成|改为|换为|\\breplace\\s+(?:(?:it|them|(?:this|that|the)(?:\\s+\\w+)?)\\s+)?with\\b|"
			"\\bturn\\s+(?:it\\s+)?into\\b|\\bchange\\s+(?:it\\s+)?(?:to|into)\\b)\\s*", "", 0, 0 },
	{ "zh_command", "^[\\s\\p{P}\\p{S}]*(?:(?:请你?|麻烦你?|帮我|给我|为我|帮忙|我想要?|我要|想要|"
			"能不能|可不可以|可以|能否|你能|你可以|能|再|重新|直接)\\s*)*"
			"(?:(?:来|给|要|整)(?=\\s*(?:[画绘生一两几]|[张幅]\\s*(?:图|画|照片|相片|插画|壁纸))))?"
			"(?:画|绘制(?![者员])|绘(?!本)|生成(?![器者])|制作(?![人者方])|创作(?![者人])|设计(?![师者]))?"
			"(?:一下|出来|出)?", "", 0, 0 },
	{ "en_command", "^\\s*(?:(?:please|can\\s+you|could\\s+you|would\\s+you|i\\s+want(?:\\s+you)?|"
			"i'd\\s+like(?:\\s+you)?|i\\s+need|show\\s+me|give\\s+me)\\s+)*"
			"(?:to\\s+)?(?:(?:draw|paint|sketch|illustrate|"
			"generate|create|make|render|design)\\b\\s*)?(?:(?:me|us)\\b\\s*)?", "", 0, 0 },
	{ "en_picture_of", "^(?:an?\\s+|the\\s+|some\\s+)?(?:image|picture|photo|illustration|drawing|"
			   "painting|portrait|poster|wallpaper)s?\\s+of\\s+", "", 0, 0 },
	{ "measure", IMAGE_MEASURE, "", 0, 0 },
	{ "picture_lead", "^(?:(?:图片|图像|照片|相片|插画)(?:[，,：:]|内容[是为]|主题[是为]|关于)?|"
			  "(?:图|画)(?:[，,：:]|内容[是为]|主题[是为]))\\s*", "", 0, 0 },
	{ "measure_again", IMAGE_MEASURE, "", 0, 0 },
	{ "en_article", "^(?:an?|the|some)\\s+", "", 0, 0 },
	{ "picture_tail", "的?(?:图片|图像|照片|插画|画作)\\z|的(?:画|图)\\z|"
			  "\\s+(?:image|picture|photo|illustration)s?\\z", "", 0, 0 },
	{ "tail", "[\\s\\p{P}\\p{S}吗呢吧啊呀嘛哦哟]+\\z", "", 0, 1 },
	{ "head", "^[\\s\\p{P}\\p{S}]+", "", 0, 1 },
	{ "de", "^的|的\\z", "", 1, 1 },
	{ "spaces", "\\s{2,}", " ", 1, 1 },
};

#define IMAGE_NSTEPS (sizeof(image_subject_steps) / sizeof(image_subject_steps[0]))

/* A change of the whole picture's style: a verb of change (换成, 改成,
 * make it, turn it into, instead), or nothing but the style and filler
 * words once the style is taken out (水彩风格, 再来一张油画风的, pixel art
 * version). */
#define IMAGE_RESTYLE_VERB \
	"换成|改成|变成|改为|换为|转成|转为|换个|换种|切换|改用|换用|" \
	"用.{0,12}?(?:风格|画风|风)(?:重新|再)|" \
	"\\bmake\\s+it\\b|\\bturn\\s+it\\s+into\\b|\\bchange\\s+(?:it|the\\s+style)\\s+(?:to|into)\\b|" \
	"\\bswitch\\s+(?:it\\s+)?to\\b|\\bredo\\s+it\\b|\\binstead\\b"
#define IMAGE_RESTYLE_FILLER \
	"^[\\s\\p{P}\\p{S}]*(?:(?:请|帮我|给我|再|重新|来|要|用|换|试试|试一下|一张|一幅|一版|的|吧|呀|啊|" \
	"版本?|\\bplease\\b|\\bin\\b|\\ban?\\b|\\bthe\\b|\\bversion\\b|\\btry\\b|\\bstyle\\b|" \
	"\\bnow\\b)[\\s\\p{P}\\p{S}]*)*\\z"

void image_bounds_init(struct image_bounds *b, const char *s, size_t n)
{
	struct text_word *w;
	size_t count;

	b->n = n;
	b->inside = xcalloc(n + 1, 1);
	w = text_seg_split(s, n, &count);
	for (size_t i = 0; i < count; i++)
		for (size_t off = w[i].off + 1; off < w[i].off + w[i].len && off < n; off++)
			b->inside[off] = 1;
	free(w);
}

int image_bounds_ok(const struct image_bounds *b, size_t off)
{
	return off >= b->n || !b->inside[off];
}

void image_bounds_free(struct image_bounds *b)
{
	free(b->inside);
	b->inside = NULL;
}

/* The callout at the end of a style pattern: the match starts and ends
 * between words, or it is given up (a positive answer backtracks). */
static int image_style_whole(pcre2_callout_block *cb, void *data)
{
	const struct image_bounds *b = data;

	return !(image_bounds_ok(b, cb->start_match) && image_bounds_ok(b, cb->current_position));
}

/* A match context whose callout checks words against b. The caller frees it. */
static pcre2_match_context *image_style_mctx(struct image_bounds *b)
{
	pcre2_match_context *mc = pcre2_match_context_create(NULL);

	if (mc)
		pcre2_set_callout(mc, image_style_whole, b);
	return mc;
}

static pcre2_code *image_style_code[IMAGE_NSTYLES];
/* All the styles in one pattern, style i as group i + 1, so that one
 * match finds the first style named; and its match data. */
static pcre2_code *image_style_any;
static pcre2_match_data *image_style_md;
static pcre2_code *image_subject_code[IMAGE_NSTEPS];
static pcre2_code *image_restyle_verb, *image_restyle_filler;
static int image_subject_ready;

/* The last text image_restyle read and its answer: a message is asked
 * the same question by the planner, by the offline planner and by the
 * checks after them. */
static struct {
	char *text;
	struct rules_match m;
	const struct image_style *style;
} image_restyle_last;
/* The last text the style step read and what it left (NULL: it could
 * not be made): image_restyle and image_subject take the style words out
 * of the same message. */
static struct {
	char *text;
	char *rest;
} image_unstyled_last;

/* Any style word, with what usually comes with it: 以…风格, in … style. */
static pcre2_code *image_style_removal(void)
{
	struct buf b;
	pcre2_code *c;

	buf_init(&b, 8192);
	buf_adds(&b, "(?:以|用|采用|带有|\\bin\\s+(?:an?\\s+)?)?(?:");
	for (size_t i = 0; i < IMAGE_NSTYLES; i++)
		buf_printf(&b, "%s%s", i ? "|" : "", image_styles[i].pattern);
	buf_adds(&b, ")" IMAGE_STYLE_SUFFIX "(?:\\s*(?:风格|画风|风|效果|质感|色调|感|\\bstyle\\b))?的?(?C1)");
	c = rules_compile("style", b.data);
	buf_free(&b);
	return c;
}

/* (style 0)|(style 1)|…: at the first place any style is named, the
 * alternation takes the first style of the lexicon named there, as the
 * lowest start over the styles one by one (ties to the first) would. */
static pcre2_code *image_style_alternation(void)
{
	struct buf b;
	pcre2_code *c;

	buf_init(&b, 8192);
	buf_adds(&b, "(?:");
	for (size_t i = 0; i < IMAGE_NSTYLES; i++)
		buf_printf(&b, "%s(%s)", i ? "|" : "", image_styles[i].pattern);
	buf_adds(&b, ")" IMAGE_STYLE_SUFFIX "(?C1)");
	c = rules_compile("styles", b.data);
	buf_free(&b);
	return c;
}

/* A step's pattern, its matches taken only between words (the callout
 * of image_style_whole): 画家 is not 画 and 家, 只有 not 只 and 有, 酒吧 not
 * 酒 and 吧. */
static pcre2_code *image_subject_step_compile(const struct image_subject_step *st)
{
	char *re = xasprintf("(?:%s)(?C1)", st->re);
	pcre2_code *c = rules_compile(st->name, re);

	free(re);
	return c;
}

static void image_subject_init(void)
{
	if (image_subject_ready)
		return;
	image_subject_ready = 1;
	for (size_t i = 0; i < IMAGE_NSTYLES; i++)
		image_style_code[i] = rules_compile(image_styles[i].zh, image_styles[i].pattern);
	image_style_any = image_style_alternation();
	if (image_style_any)
		image_style_md = pcre2_match_data_create_from_pattern(image_style_any, NULL);
	for (size_t i = 0; i < IMAGE_NSTEPS; i++)
		image_subject_code[i] = image_subject_steps[i].re
			? image_subject_step_compile(&image_subject_steps[i])
			: image_style_removal();
	image_restyle_verb = rules_compile("restyle", IMAGE_RESTYLE_VERB);
	image_restyle_filler = rules_compile("restyle_filler", IMAGE_RESTYLE_FILLER);
}

void image_subject_free(void)
{
	for (size_t i = 0; i < IMAGE_NSTYLES; i++) {
		pcre2_code_free(image_style_code[i]);
		image_style_code[i] = NULL;
	}
	for (size_t i = 0; i < IMAGE_NSTEPS; i++) {
		pcre2_code_free(image_subject_code[i]);
		image_subject_code[i] = NULL;
	}
	pcre2_code_free(image_style_any);
	pcre2_match_data_free(image_style_md);
	image_style_any = NULL;
	image_style_md = NULL;
	pcre2_code_free(image_restyle_verb);
	pcre2_code_free(image_restyle_filler);
	image_restyle_verb = image_restyle_filler = NULL;
	free(image_restyle_last.text);
	image_restyle_last.text = NULL;
	free(image_unstyled_last.text);
	free(image_unstyled_last.rest);
	image_unstyled_last.text = image_unstyled_last.rest = NULL;
	image_subject_ready = 0;
}

const struct image_style *image_style(const char *text)
{
	size_t start;

	return image_style_at(text, &start);
}

const struct image_style *image_style_at(const char *text, size_t *start)
{
	PCRE2_SIZE *v;
	size_t len;
	int rc;

	struct image_bounds b;
	pcre2_match_context *mc;

	image_subject_init();
	len = rules_text_len(text);
	if (len == 0 || image_style_md == NULL)
		return NULL;
	image_bounds_init(&b, text, len);
	mc = image_style_mctx(&b);
	rc = pcre2_match(image_style_any, (PCRE2_SPTR)text, len, 0, 0, image_style_md, mc);
	pcre2_match_context_free(mc);
	image_bounds_free(&b);
	v = pcre2_get_ovector_pointer(image_style_md);
	for (int i = 1; i < rc; i++)
		if (v[2 * i] != PCRE2_UNSET) {
			*start = v[2 * i];
			return &image_styles[i - 1];
		}
	return NULL;
}

int image_style_in(const struct image_style *st, const char *text)
{
	size_t ov[4];

	image_subject_init();
	for (size_t i = 0; st && i < IMAGE_NSTYLES; i++)
		if (st == &image_styles[i])
			return rules_find(image_style_code[i], text, rules_text_len(text), 0, ov);
	return 0;
}

/* One substitution (mc: the match context of a pattern with the word
 * callout); NULL when it could not be made. */
static char *image_subject_subst_in(const pcre2_code *c, pcre2_match_context *mc, const char *s,
				    const char *with, int global)
{
	size_t len = strlen(s);
	PCRE2_SIZE outlen = len + 16;
	uint32_t opt = PCRE2_SUBSTITUTE_OVERFLOW_LENGTH | (global ? PCRE2_SUBSTITUTE_GLOBAL : 0);
	char *out = xmalloc(outlen);
	int rc;

	rc = pcre2_substitute(c, (PCRE2_SPTR)s, len, 0, opt, NULL, mc, (PCRE2_SPTR)with,
			      PCRE2_ZERO_TERMINATED, (PCRE2_UCHAR *)out, &outlen);
	if (rc == PCRE2_ERROR_NOMEMORY) {
		out = xrealloc(out, outlen);
		rc = pcre2_substitute(c, (PCRE2_SPTR)s, len, 0, opt & ~PCRE2_SUBSTITUTE_OVERFLOW_LENGTH,
				      NULL, mc, (PCRE2_SPTR)with, PCRE2_ZERO_TERMINATED,
				      (PCRE2_UCHAR *)out, &outlen);
	}
	if (rc < 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* A substitution of c (a pattern with the word callout) in s, whole
 * words only. The caller frees it; NULL when it could not be made. */
static char *image_subject_whole(const pcre2_code *c, const char *s, const char *with, int global)
{
	struct image_bounds b;
	pcre2_match_context *mc;
	char *out;

	image_bounds_init(&b, s, strlen(s));
	mc = image_style_mctx(&b);
	out = mc ? image_subject_subst_in(c, mc, s, with, global) : NULL;
	pcre2_match_context_free(mc);
	image_bounds_free(&b);
	return out;
}

/* s without its style words. */
static char *image_unstyle(const char *s)
{
	return image_subject_whole(image_subject_code[0], s, "", 1);
}

/* s without its style words (the first step of the subject). The caller
 * frees it; NULL when the substitution could not be made. */
static char *image_unstyled(const char *s)
{
	if (image_unstyled_last.text == NULL || strcmp(image_unstyled_last.text, s) != 0) {
		free(image_unstyled_last.text);
		free(image_unstyled_last.rest);
		image_unstyled_last.rest = image_unstyle(s);
		image_unstyled_last.text = xstrdup(s);
	}
	return image_unstyled_last.rest ? xstrdup(image_unstyled_last.rest) : NULL;
}

/* Step i of the subject on cur; NULL when it could not be made. */
static char *image_subject_step_apply(size_t i, const char *cur)
{
	if (image_subject_steps[i].re == NULL)
		return image_unstyled(cur);
	return image_subject_whole(image_subject_code[i], cur, image_subject_steps[i].with,
				   image_subject_steps[i].global);
}

static int image_subject_empty(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == '\0';
}

static struct rules_match image_restyle_read(const char *text, const struct image_style **style)
{
	struct rules_match m = { 0, "none", 0.0 };
	const struct image_style *st = image_style(text);
	size_t ov[4], len = rules_text_len(text);
	char *rest;

	*style = NULL;
	if (st == NULL)
		return m;
	if (rules_find(image_restyle_verb, text, len, 0, ov)) {
		m.rule = "restyle";
		m.confidence = 0.85;
	} else if ((rest = image_unstyled(text)) != NULL) {
		if (rules_find(image_restyle_filler, rest, strlen(rest), 0, ov)) {
			m.rule = "style_only";
			m.confidence = 0.75;
		}
		free(rest);
	}
	m.matched = m.confidence > 0;
	*style = m.matched ? st : NULL;
	return m;
}

struct rules_match image_restyle(const char *text, const struct image_style **style)
{
	if (text == NULL)
		return image_restyle_read(text, style);
	if (image_restyle_last.text == NULL || strcmp(image_restyle_last.text, text) != 0) {
		free(image_restyle_last.text);
		image_restyle_last.m = image_restyle_read(text, &image_restyle_last.style);
		image_restyle_last.text = xstrdup(text);
	}
	*style = image_restyle_last.style;
	return image_restyle_last.m;
}

char *image_subject(const char *text)
{
	char *cur, *next;

	image_subject_init();
	cur = xstrndup(text ? text : "", rules_text_len(text));
	for (size_t i = 0; i < IMAGE_NSTEPS; i++) {
		if (image_subject_code[i] == NULL)
			continue;
		next = image_subject_step_apply(i, cur);
		if (next == NULL || (image_subject_empty(next) && !image_subject_empty(cur) &&
				     !image_subject_steps[i].may_empty)) {
			free(next);
			continue;
		}
		free(cur);
		cur = next;
	}
	if (image_subject_empty(cur))
		cur[0] = '\0';
	return cur;
}

char *image_subject_cut(const char *text, size_t start, size_t end)
{
	size_t n = strlen(text ? text : "");
	char *cut, *subject;

	if (text == NULL || start >= end || end > n)
		return image_subject(text);
	cut = xasprintf("%.*s %s", (int)start, text, text + end);
	subject = image_subject(cut);
	free(cut);
	return subject;
}

struct rules_match image_restyle_span(const char *text, size_t start, size_t end)
{
	struct rules_match m = { 0, "none", 0.0 };
	size_t ov[4], n = rules_text_len(text);
	char *rest;

	if (text == NULL || start >= end || end > n)
		return m;
	image_subject_init();
	if (rules_find(image_restyle_verb, text, n, 0, ov)) {
		m.rule = "restyle";
		m.confidence = 0.85;
	} else {
		rest = xasprintf("%.*s %s", (int)start, text, text + end);
		if (rules_find(image_restyle_filler, rest, strlen(rest), 0, ov)) {
			m.rule = "style_only";
			m.confidence = 0.75;
		}
		free(rest);
	}
	m.matched = m.confidence > 0;
	return m;
}
