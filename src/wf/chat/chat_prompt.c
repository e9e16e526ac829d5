/* The offline rewrite of a picture request into an image prompt (the
 * rules of the "image_prompt" task, chat_rules.h): the request's wrapper
 * goes (请帮我画一张…, 能…吗, "can you draw me a picture of …, please"),
 * what is to be drawn stays with its style and its details, and a style
 * said in a clause of its own (能帮我画一只猫吗，要水彩的) joins the
 * subject (一只水彩风格的猫). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "text/rules_int.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/chat/chat_rules.h"
#include "wf/intents.h"

#define CHAT_PROMPT_MAX 2048
#define CHAT_PROMPT_CLAUSES 8

enum chat_prompt_re {
	CHAT_PROMPT_LEAD,      /* the request before the thing: 请帮我画一张, can you draw me */
	CHAT_PROMPT_TAIL,      /* after it: 的图片吗, please? */
	CHAT_PROMPT_STYLE,     /* a clause that names a style: 要水彩的, 用油画风格, in pixel art */
	CHAT_PROMPT_EMPTY,     /* a clause that adds nothing: 谢谢, 好吗, thanks */
	CHAT_PROMPT_MEASURE,   /* a subject's leading number and measure: 一只 */
	CHAT_PROMPT_GENERIC,   /* a subject that is only "a picture": 图, 一幅画 */
	CHAT_PROMPT_TOPIC,     /* a clause that says what the picture is of: 主题是… */
	CHAT_PROMPT_KIND,      /* a subject that is a kind of picture: 壁纸, 海报 */
	CHAT_PROMPT_N
};

static const char *const chat_prompt_res[CHAT_PROMPT_N] = {
	[CHAT_PROMPT_LEAD] =
		"^[\\s\\p{P}]*(?:(?:请你?|麻烦你?|帮我|给我|为我|替我|帮忙|你能不能|你能|你可以|能不能|"
		"可不可以|可以|能否|能|我想要?|我要|想要|再|重新|直接|帮|给|来)\\s*)*"
		"(?:(?:画|绘制?|生成|制作|创作|设计|做|来|出|整)(?:出|一下)?\\s*(?:[一两二三四五六七八九十几\\d]*\\s*"
		"[张幅副帧组个])?|(?:please\\s+|kindly\\s+|(?:can|could|would|will)\\s+you\\s+(?:please\\s+)?|"
		"i\\s+(?:want|need|would\\s+like|'d\\s+like)\\s+(?:you\\s+to\\s+)?|hey\\s*,?\\s+)*"
		"(?:draw|paint|sketch|illustrate|generate|create|make|render|design|produce|give)\\s+"
		"(?:(?:me|us)\\s+)?(?:(?:an?|one|some)\\s+(?:(?:image|picture|photo|illustration|drawing|"
		"painting|artwork|render)s?\\s+(?:of|showing|with)\\s+))?)",
	[CHAT_PROMPT_TAIL] =
		"(?:(?:的)?(?:图片|照片|相片|图像)|的图|的画)?(?:吧|吗|呢|好吗|好不好|可以吗|行吗|行不行|呀|啊|哦|嘛|"
		"\\s+please|\\s+for\\s+me|\\s+thanks?(?:\\s+you)?)*[\\s\\p{P}]*$",
	[CHAT_PROMPT_STYLE] =
		"^[\\s\\p{P}]*(?:要|用|采用|画成|做成)\\s*(.+?)(?:风格的?|的)[\\s\\p{P}]*$|"
		"^[\\s\\p{P}]*风格(?:是|为|要|用)?\\s*(.+?)(?:风格)?的?[\\s\\p{P}]*$|"
		"^[\\s\\p{P}]*(.+?)风格的?[\\s\\p{P}]*$|"
		"^[\\s\\p{P}]*in\\s+(?:an?\\s+)?(.+?)\\s+style[\\s\\p{P}]*$",
	[CHAT_PROMPT_EMPTY] =
		"^[\\s\\p{P}]*(?:谢谢|多谢|拜托了?|好吗|好不好|可以吗|行吗|thanks?(?:\\s+you)?|please)?[\\s\\p{P}]*$",
	[CHAT_PROMPT_MEASURE] = "^[一两二三四五六七八九十几\\d]+\\s*[只条头匹座棵朵位名间辆艘架个片]",
	[CHAT_PROMPT_GENERIC] = "^(?:图|图片|画|画儿|照片|相片|插画|图画|作品|an?\\s+(?:image|picture|drawing|painting)|"
				"something)$",
	[CHAT_PROMPT_KIND] = "^(?:壁纸|头像|海报|插画|封面|贴纸|表情包|明信片|贺卡|logo)$",
	[CHAT_PROMPT_TOPIC] = "^(?:主题|内容|画面|画的|题材)(?:是|为|:|：)\\s*|^(?:of|showing)\\s+",
};

static pcre2_code *chat_prompt_code[CHAT_PROMPT_N];

static const pcre2_code *chat_prompt_re(enum chat_prompt_re which)
{
	if (chat_prompt_code[which] == NULL)
		chat_prompt_code[which] = rules_compile("chat_prompt", chat_prompt_res[which]);
	return chat_prompt_code[which];
}

void chat_prompt_free(void)
{
	rules_table_free(chat_prompt_code, CHAT_PROMPT_N);
}

/* A clause without its wrapper: [*a, *b) narrowed. */
static void chat_prompt_unwrap(const char *s, size_t *a, size_t *b)
{
	size_t ov[4];

	if (rules_find(chat_prompt_re(CHAT_PROMPT_LEAD), s + *a, *b - *a, 0, ov) && ov[1] > 0 &&
	    ov[1] < *b - *a)
		*a += ov[1];
	if (rules_find(chat_prompt_re(CHAT_PROMPT_TAIL), s + *a, *b - *a, 0, ov) && ov[0] > 0)
		*b = *a + ov[0];
}

/* The style a clause names on its own ("要水彩的" → 水彩), or 0. */
static int chat_prompt_style(const char *s, size_t a, size_t b, size_t *sa, size_t *sb)
{
	pcre2_match_data *md;
	int n, got = 0;

	md = pcre2_match_data_create_from_pattern(chat_prompt_re(CHAT_PROMPT_STYLE), NULL);
	n = pcre2_match(chat_prompt_re(CHAT_PROMPT_STYLE), (PCRE2_SPTR)(s + a), b - a, 0, 0, md, NULL);
	for (int g = 1; n > 0 && g < n && !got; g++) {
		PCRE2_SIZE *o = pcre2_get_ovector_pointer(md);

		if (o[2 * g] != PCRE2_UNSET && o[2 * g + 1] > o[2 * g]) {
			*sa = a + o[2 * g];
			*sb = a + o[2 * g + 1];
			got = 1;
		}
	}
	pcre2_match_data_free(md);
	return got;
}

static int chat_prompt_sep(const char *p, size_t *len)
{
	static const char *const seps[] = { "，", "。", "；", "！", "？", "\n" };

	if (*p == ',' || *p == ';' || *p == '!' || *p == '?' || *p == '\n' ||
	    (*p == '.' && (p[1] == ' ' || p[1] == '\0')))
		return (*len = 1);
	for (size_t i = 0; i < sizeof seps / sizeof seps[0]; i++)
		if (strncmp(p, seps[i], strlen(seps[i])) == 0)
			return (*len = strlen(seps[i])) > 0;
	return 0;
}

struct chat_prompt_clause {
	size_t a, b;
};

/* [a, b) without the spaces around it. */
static struct chat_prompt_clause chat_prompt_trim(const char *s, size_t a, size_t b)
{
	while (a < b && (s[a] == ' ' || s[a] == '\t'))
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	return (struct chat_prompt_clause){ a, b };
}

static size_t chat_prompt_split(const char *s, size_t n, struct chat_prompt_clause *cl, size_t max)
{
	size_t k = 0, start = 0, len;

	for (size_t i = 0; i < n && k < max; i++) {
		if (!chat_prompt_sep(s + i, &len))
			continue;
		if (i > start)
			cl[k++] = chat_prompt_trim(s, start, i);
		start = i + len;
		i += len - 1;
	}
	if (start < n && k < max)
		cl[k++] = chat_prompt_trim(s, start, n);
	return k;
}

/* The clause that asks for the picture: the first the picture rules
 * match, else the first. */
static size_t chat_prompt_main(const char *s, const struct chat_prompt_clause *cl, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		char *c = xstrndup(s + cl[i].a, cl[i].b - cl[i].a);
		int hit = intents_image(c).matched;

		free(c);
		if (hit)
			return i;
	}
	return 0;
}

/* subject with the style put in: after a leading 一只 (一只水彩风格的猫),
 * else before it. */
static void chat_prompt_styled(struct buf *out, const char *subj, size_t n, const char *style,
			       size_t sn, int zh)
{
	size_t ov[4], m = 0;

	if (!zh) {
		buf_printf(out, "%.*s, %.*s style", (int)n, subj, (int)sn, style);
		return;
	}
	if (rules_find(chat_prompt_re(CHAT_PROMPT_MEASURE), subj, n, 0, ov))
		m = ov[1];
	buf_printf(out, "%.*s%.*s%s的%.*s", (int)m, subj, (int)sn, style,
		   sn >= 6 && strncmp(style + sn - 6, "风格", 6) == 0 ? "" : "风格", (int)(n - m), subj + m);
}

static int chat_prompt_zh(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0xE3)
			return 1;
	return 0;
}

/* The clause that says what a picture asked for as "a picture" is of
 * (画一张图，主题是夏天的海边): its index, or k when there is none. */
static size_t chat_prompt_topic(const char *s, const struct chat_prompt_clause *cl, size_t k,
				size_t main)
{
	size_t ov[4];

	for (size_t i = 0; i < k; i++)
		if (i != main && rules_find(chat_prompt_re(CHAT_PROMPT_TOPIC), s + cl[i].a,
					    cl[i].b - cl[i].a, 0, ov) && cl[i].a + ov[1] < cl[i].b)
			return i;
	return k;
}

/* Clause i without its wrapper and its "主题是", in [*a, *b). */
static void chat_prompt_detail(const char *s, const struct chat_prompt_clause *c, size_t *a,
			       size_t *b)
{
	size_t ov[4];

	*a = c->a, *b = c->b;
	if (rules_find(chat_prompt_re(CHAT_PROMPT_TOPIC), s + *a, *b - *a, 0, ov))
		*a += ov[1];
	chat_prompt_unwrap(s, a, b);
}

char *chat_prompt_rewrite(const char *text)
{
	size_t n = rules_text_len(text), k, main, topic, sa = 0, sb = 0, a, b, ov[4];
	int kind;
	struct chat_prompt_clause cl[CHAT_PROMPT_CLAUSES];
	int zh = chat_prompt_zh(text ? text : ""), styled = 0;
	struct buf out, rest;

	if (n == 0)
		return xstrdup("");
	k = chat_prompt_split(text, n, cl, CHAT_PROMPT_CLAUSES);
	if (k == 0)
		return xstrdup("");
	main = chat_prompt_main(text, cl, k);
	a = cl[main].a, b = cl[main].b;
	chat_prompt_unwrap(text, &a, &b);
	if (b <= a)
		a = cl[main].a, b = cl[main].b;
	/* "画一张图，主题是…": the theme is the subject; "画一张壁纸，主题是星空":
	 * a wallpaper of it. */
	kind = zh && rules_find(chat_prompt_re(CHAT_PROMPT_KIND), text + a, b - a, 0, ov);
	topic = kind || rules_find(chat_prompt_re(CHAT_PROMPT_GENERIC), text + a, b - a, 0, ov)
			? chat_prompt_topic(text, cl, k, main) : k;
	buf_init(&out, CHAT_PROMPT_MAX);
	buf_init(&rest, CHAT_PROMPT_MAX);
	if (topic < k && kind)
		buf_printf(&rest, "的%.*s", (int)(b - a), text + a);
	if (topic < k)
		chat_prompt_detail(text, &cl[topic], &a, &b);
	for (size_t i = 0; i < k; i++) {
		size_t da, db;

		if (i == main || i == topic ||
		    rules_find(chat_prompt_re(CHAT_PROMPT_EMPTY), text + cl[i].a, cl[i].b - cl[i].a, 0, ov))
			continue;
		if (!styled && chat_prompt_style(text, cl[i].a, cl[i].b, &sa, &sb)) {
			styled = 1;
			continue;
		}
		chat_prompt_detail(text, &cl[i], &da, &db);
		if (db > da)
			buf_printf(&rest, "%s%.*s", zh ? "，" : ", ", (int)(db - da), text + da);
	}
	if (styled)
		chat_prompt_styled(&out, text + a, b - a, text + sa, sb - sa, zh);
	else
		buf_printf(&out, "%.*s", (int)(b - a), text + a);
	buf_adds(&out, rest.data ? rest.data : "");
	buf_free(&rest);
	return out.data ? buf_steal(&out) : (buf_free(&out), xstrdup(""));
}
