/* What a prompt's words ask to be drawn (see scene.h): subjects from the
 * emoji table's words, found on ICU's word boundaries (text/seg.h) so a
 * word inside another is not taken for it, the longest run of words
 * first; a Chinese word the table lacks falls back to its head, the end
 * of the word (橘猫 → 猫). Backgrounds and styles from small keyword
 * tables. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "prov/emoji_table.h"
#include "prov/scene.h"
#include "text/seg.h"

/* The longest word looked up, in bytes, and the most words in a run. */
#define SCENE_WORD_MAX 64
#define SCENE_RUN_MAX 4

static int scene_word_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct emoji_word *)elem)->word);
}

static const struct emoji_word *scene_lookup_exact(const char *w)
{
	return bsearch(w, emoji_words, emoji_nwords, sizeof emoji_words[0], scene_word_cmp);
}

/* The English singular of the last word of w, in place, when the plural
 * is not a word itself: "cats" → "cat", "ponies" → "pony", "wolves" →
 * "wolf", "foxes" → "fox". 1 when it changed w. */
static const struct emoji_word *scene_lookup_singular(char *w)
{
	static const struct { const char *end, *repl; } rules[] = {
		{ "ies", "y" }, { "ves", "f" }, { "ves", "fe" }, { "ches", "ch" }, { "shes", "sh" },
		{ "xes", "x" }, { "ses", "s" }, { "oes", "o" }, { "'s", "" }, { "s", "" },
	};
	size_t n = strlen(w);
	char tmp[SCENE_WORD_MAX + 4];
	const struct emoji_word *e;

	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		size_t k = strlen(rules[i].end);

		if (n <= k + 1 || strcmp(w + n - k, rules[i].end) != 0)
			continue;
		memcpy(tmp, w, n - k);
		strcpy(tmp + n - k, rules[i].repl);
		if ((e = scene_lookup_exact(tmp)) != NULL)
			return e;
	}
	return NULL;
}

/* s[0, n) folded into out: ASCII lower case, runs of spaces as one,
 * trimmed. 0, or -1 when it does not fit. */
static int scene_fold(const char *s, size_t n, char *out, size_t outlen)
{
	size_t k = 0;
	int space = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '-' || ch == '_') {
			space = k > 0;
			continue;
		}
		if (k + 2 >= outlen)
			return -1;
		if (space)
			out[k++] = ' ';
		space = 0;
		out[k++] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
	}
	out[k] = '\0';
	return k ? 0 : -1;
}

static const struct emoji_word *scene_lookup(const char *s, size_t n)
{
	char w[SCENE_WORD_MAX + 4];
	const struct emoji_word *e;

	if (n > SCENE_WORD_MAX || scene_fold(s, n, w, sizeof w) < 0)
		return NULL;
	if ((e = scene_lookup_exact(w)) != NULL)
		return e;
	return (unsigned char)w[0] < 0x80 ? scene_lookup_singular(w) : NULL;
}

/* A Han word's head: its shorter endings, longest first (橘猫 → 猫). */
static const struct emoji_word *scene_lookup_head(const char *s, size_t n)
{
	const struct emoji_word *e;

	if ((unsigned char)s[0] < 0x80)
		return NULL;
	for (size_t i = 1; i < n; i++) {
		if (((unsigned char)s[i] & 0xC0) == 0x80)
			continue;
		if ((e = scene_lookup(s + i, n - i)) != NULL)
			return e;
	}
	return NULL;
}

static int scene_add(const char **out, size_t n, const struct emoji_word *e)
{
	const char *g = emoji_glyphs[e->glyph].chars;

	for (size_t i = 0; i < n; i++)
		if (out[i] == g)
			return 0;
	out[n] = g;
	return 1;
}

/* The entry for the words starting at words[i]: the longest run that is
 * a word of the table, in *used the number of words it took. */
static const struct emoji_word *scene_run(const char *text, const struct text_word *words,
					  size_t count, size_t i, size_t *used)
{
	const struct emoji_word *e;

	for (size_t j = count - i < SCENE_RUN_MAX ? count - i : SCENE_RUN_MAX; j > 0; j--) {
		size_t end = words[i + j - 1].off + words[i + j - 1].len;

		if ((e = scene_lookup(text + words[i].off, end - words[i].off)) != NULL) {
			*used = j;
			return e;
		}
	}
	*used = 1;
	return scene_lookup_head(text + words[i].off, words[i].len);
}

size_t scene_subjects(const char *text, const char **out, size_t max)
{
	struct text_word *words;
	size_t count = 0, n = 0, used;

	if (text == NULL || max == 0)
		return 0;
	words = text_seg_split(text, strlen(text), &count);
	for (size_t i = 0; i < count && n < max; i += used) {
		const struct emoji_word *e = scene_run(text, words, count, i, &used);

		if (e)
			n += scene_add(out, n, e);
	}
	free(words);
	return n;
}

const char *scene_emoji_for(const char *word)
{
	const struct emoji_word *e;
	const char *g[1];

	if (word == NULL || *word == '\0')
		return NULL;
	if ((e = scene_lookup(word, strlen(word))) != NULL)
		return emoji_glyphs[e->glyph].chars;
	return scene_subjects(word, g, 1) ? g[0] : NULL;
}

static const struct emoji_glyph *scene_glyph_of(const char *glyph)
{
	for (size_t i = 0; glyph && i < emoji_nglyphs; i++)
		if (strcmp(emoji_glyphs[i].chars, glyph) == 0)
			return &emoji_glyphs[i];
	return NULL;
}

const char *scene_emoji_name(const char *glyph, const char *lang)
{
	const struct emoji_glyph *g = scene_glyph_of(glyph);

	if (g == NULL)
		return NULL;
	return lang && strcmp(lang, "zh") == 0 ? g->name_zh : g->name_en;
}

int scene_emoji_cp(const char *glyph, char *out, size_t outlen)
{
	const struct emoji_glyph *g = scene_glyph_of(glyph);

	if (g == NULL || strlen(g->cp) >= outlen)
		return -1;
	strcpy(out, g->cp);
	return 0;
}

/* ---- backgrounds and styles ---- */

struct scene_key {
	const char *name;
	const char *words;      /* '|'-separated; Latin words match whole words */
};

/* In order of preference when several are named at the same place; the
 * places first (SCENE_PLACES of them), then night and sky. */
static const struct scene_key scene_backgrounds[] = {
	{ "room", "房间|室内|屋里|卧室|客厅|书房|厨房|窗台|桌上|桌子|咖啡馆|教室|room|indoor|indoors|"
		  "bedroom|kitchen|desk|table|interior|cafe|classroom|windowsill" },
	{ "city", "城市|都市|街道|街头|街|赛博朋克|霓虹|高楼|city|street|urban|cyberpunk|neon|town|"
		  "skyline|downtown" },
	{ "snow", "雪山|雪地|雪景|下雪|雪|冰川|冰|冬天|冬日|冬|snow|snowy|ice|winter|frozen|glacier" },
	{ "sea", "大海|海边|海洋|海滩|沙滩|海浪|海上|海底|海|sea|ocean|beach|seaside|coast|shore|"
		 "underwater" },
	{ "lake", "湖泊|湖边|湖面|湖|池塘|河边|小河|河流|江|溪|lake|pond|river|stream|lakeside" },
	{ "forest", "森林|树林|丛林|林间|竹林|forest|woods|woodland|jungle|grove" },
	{ "night", "夜晚|夜空|夜景|深夜|晚上|星空|月夜|宇宙|银河|太空|夜|night|starry|midnight|galaxy|"
		   "space|cosmos|nighttime|月球|月亮|moon" },
	{ "sky", "天空|蓝天|白云|云海|草原|草地|田野|sky|cloud|clouds|meadow|field|grassland" },
};

static const struct scene_key scene_styles[] = {
	{ "inkwash", "水墨|国画|中国画|泼墨|写意|ink wash|ink painting|sumi-e|sumi|chinese painting" },
	{ "watercolour", "水彩|淡彩|watercolour|watercolor|aquarelle" },
	{ "oil", "油画|厚涂|印象派|梵高|oil painting|oil|impasto|impressionist|impressionism|van gogh" },
	{ "pixel", "像素|马赛克|8位|8-bit|8bit|16-bit|pixel art|pixel|pixelated|retro game" },
	{ "sketch", "素描|线稿|铅笔|炭笔|速写|白描|sketch|pencil|charcoal|line art|drawing" },
};

static int scene_is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Where word (n bytes) first occurs in text, a Latin word only as a whole
 * word, ignoring ASCII case; -1 when it does not. */
static long scene_find(const char *text, const char *word, size_t n)
{
	int latin = (unsigned char)word[0] < 0x80;

	for (const char *p = text; *p; p++) {
		if (strncasecmp(p, word, n) != 0)
			continue;
		if (!latin || ((p == text || !scene_is_alnum((unsigned char)p[-1])) &&
			       !scene_is_alnum((unsigned char)p[n])))
			return p - text;
	}
	return -1;
}

/* The row named earliest in text (the first row on a tie), or -1. */
static int scene_first_key(const struct scene_key *rows, size_t nrows, const char *text)
{
	long best = -1;
	int row = -1;

	for (size_t i = 0; text && i < nrows; i++) {
		const char *w = rows[i].words;

		while (*w) {
			size_t n = strcspn(w, "|");
			long at = scene_find(text, w, n);

			if (at >= 0 && (best < 0 || at < best))
				best = at, row = (int)i;
			w += n + (w[n] == '|');
		}
	}
	return row;
}

/* A place named (a city, a lake…) before the time of day or the sky:
 * "夜晚的城市" is a city at night (the picture's night comes from its
 * words, scene_draw.c). */
#define SCENE_PLACES 6

const char *scene_background_for(const char *text)
{
	int row = scene_first_key(scene_backgrounds, SCENE_PLACES, text);

	if (row < 0)
		row = scene_first_key(scene_backgrounds + SCENE_PLACES,
				      sizeof scene_backgrounds / sizeof scene_backgrounds[0] - SCENE_PLACES, text);
	else
		return scene_backgrounds[row].name;
	return row < 0 ? "sky" : scene_backgrounds[SCENE_PLACES + row].name;
}

const char *scene_style_for(const char *text)
{
	int row = scene_first_key(scene_styles, sizeof scene_styles / sizeof scene_styles[0], text);

	return row < 0 ? NULL : scene_styles[row].name;
}
