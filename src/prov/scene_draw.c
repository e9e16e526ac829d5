/* The scene of an offline picture (svg_int.h): a background the words
 * choose (scene.h), drawn as a sky and a ground with a few shapes of its
 * own and a few props; the subjects the words ask for as colour emoji
 * bitmaps standing on the ground or in the sky; the colours the words
 * name; the style as one SVG filter over the whole scene; the light an
 * adjustment asks (darker, brighter) as a veil over it. Every choice of
 * place and size comes from the prompt's generator, so another seed is
 * another composition of the same things. Integers only. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "prov/emoji_table.h"
#include "prov/scene.h"
#include "prov/svg_int.h"

struct scene;

/* A background: its sky and ground gradients (0xRRGGBB, top to bottom),
 * where the horizon is (percent of the height), its props and how many
 * (in the sky, or along the horizon), and what else it draws. */
struct scene_bg {
	const char *name;
	unsigned sky[2], ground[2];
	int horizon;
	const char *sky_props;          /* glyphs, concatenated */
	int nsky;
	const char *shore_props;
	int nshore;
	void (*behind)(struct svg_ctx *c, const struct scene *s);   /* before the ground */
	void (*over)(struct svg_ctx *c, const struct scene *s);     /* on it */
};

struct scene {
	const struct scene_bg *bg;
	const char *style;              /* NULL: none */
	int night, dusk, light;         /* light: -1 darker, 1 brighter, 0 as it is */
	int strength;                   /* style strength, percent */
	unsigned sky[2], ground[2];
	int horizon;                    /* in pixels */
	int m;                          /* the shorter side */
};

static int scene_min(int a, int b)
{
	return a < b ? a : b;
}

/* a towards b by pct percent. */
static unsigned scene_mix(unsigned a, unsigned b, int pct)
{
	unsigned out = 0;

	for (int s = 16; s >= 0; s -= 8) {
		int x = (int)(a >> s & 255), y = (int)(b >> s & 255);

		out |= (unsigned)(x + (y - x) * pct / 100) << s;
	}
	return out;
}

/* The background's colours in the style's tones (the glyphs get the
 * style's filter): lighter for watercolour, richer for oil, grey ink on
 * paper for ink wash, pale pencil for a sketch, few levels for pixels. */
static unsigned scene_tone(const struct scene *s, unsigned rgb)
{
	int r = (int)(rgb >> 16 & 255), g = (int)(rgb >> 8 & 255), b = (int)(rgb & 255);
	int y = (r * 30 + g * 59 + b * 11) / 100;
	const char *st = s->style ? s->style : "";

	if (strcmp(st, "watercolour") == 0)
		return scene_mix(rgb, 0xffffff, 30);
	if (strcmp(st, "inkwash") == 0)
		return scene_mix((unsigned)(y * 0x10000 + y * 0x100 + y), 0xf4ecd8, 25);
	if (strcmp(st, "sketch") == 0)
		return scene_mix((unsigned)(y * 0x10000 + y * 0x100 + y), 0xfafafa, 70);
	if (strcmp(st, "pixel") == 0)
		return (unsigned)((r + 32) / 64 * 63 << 16 | (g + 32) / 64 * 63 << 8 | (b + 32) / 64 * 63);
	if (strcmp(st, "oil") == 0) {
		r = y + (r - y) * 3 / 2, g = y + (g - y) * 3 / 2, b = y + (b - y) * 3 / 2;
		r = r < 0 ? 0 : r > 255 ? 255 : r, g = g < 0 ? 0 : g > 255 ? 255 : g;
		b = b < 0 ? 0 : b > 255 ? 255 : b;
		return (unsigned)(r << 16 | g << 8 | b);
	}
	return rgb;
}

static void scene_rgbhex(const struct scene *s, char out[8], unsigned rgb)
{
	rgb = scene_tone(s, rgb);
	svg_hex(out, (int)(rgb >> 16 & 255), (int)(rgb >> 8 & 255), (int)(rgb & 255));
}

static unsigned scene_rgb(const unsigned char c[3])
{
	return (unsigned)c[0] << 16 | (unsigned)c[1] << 8 | c[2];
}

/* ---- glyphs ---- */

/* Glyphs that belong in the sky rather than on the ground. */
static const char scene_flying[] =
	"☀🌞🌝🌛🌙🌚⭐🌟🌠☁⛅🌤🌦🌧⛈🌩🌨❄🌈⚡🪐☄🌕🌑🌌✈🛩🛫🚁🚀🛸🛰🪂🎈🪁🐦🕊🦅🦉🦜🦋🐝🐞🦇🐉🐲👼🧚🎆🎇✨👻";

static const struct emoji_glyph *scene_glyph_at(const char *chars)
{
	for (size_t i = 0; i < emoji_nglyphs; i++)
		if (strcmp(emoji_glyphs[i].chars, chars) == 0)
			return &emoji_glyphs[i];
	return NULL;
}

/* One placed glyph, h pixels high, centred on x, its foot at y; its
 * character and name in a title, its bitmap as a data: URI. */
static void scene_glyph(struct svg_ctx *c, const struct scene *s, const struct emoji_glyph *g, int x,
			int y, int h)
{
	const char *name = strcmp(c->lang, "zh") == 0 ? g->name_zh : g->name_en;
	int w = h * g->w / (g->h ? g->h : 1);

	svg_put(c, "<g class=\"av-glyph\" data-cp=\"%s\"><title>%s ", g->cp, g->chars);
	svg_escape(c, name, strlen(name), 80);
	svg_put(c, "</title><image x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"preserveAspectRatio=\"xMidYMid meet\"", x - w / 2, y - h, w, h);
	if (s->style)
		svg_put(c, " filter=\"url(#av-style-%s)\"%s", s->style, strcmp(s->style, "pixel") == 0
			? " image-rendering=\"optimizeSpeed\""
			: strcmp(s->style, "watercolour") == 0 ? " opacity=\"0.85\"" : "");
	svg_put(c, " xlink:href=\"data:image/png;base64,");
	svg_add(c, g->png64, strlen(g->png64));
	svg_put(c, "\"/></g>\n");
}

/* The n-th glyph of a string of glyphs (each one code point). */
static const struct emoji_glyph *scene_nth(const char *glyphs, int n)
{
	char one[8];
	const char *p = glyphs;
	size_t len;

	for (;;) {
		len = 1;
		while (((unsigned char)p[len] & 0xC0) == 0x80)
			len++;
		if (n-- == 0 || p[len] == '\0')
			break;
		p += len;
	}
	memcpy(one, p, len < sizeof one ? len : sizeof one - 1);
	one[len < sizeof one ? len : sizeof one - 1] = '\0';
	return scene_glyph_at(one);
}

static int scene_count(const char *glyphs)
{
	int n = 0;

	for (const char *p = glyphs; *p; p++)
		n += ((unsigned char)*p & 0xC0) != 0x80;
	return n;
}

static void scene_props(struct svg_ctx *c, const struct scene *s)
{
	const struct scene_bg *bg = s->bg;
	int nsky = bg->nsky ? svg_rand(&c->rng, 1, bg->nsky) : 0;
	int nshore = bg->nshore ? svg_rand(&c->rng, bg->nshore / 2 + 1, bg->nshore) : 0;
	const char *sky = s->night && !strstr(bg->sky_props, "🌙") ? "🌙" : bg->sky_props;

	svg_put(c, "<g class=\"av-props\">\n");
	for (int i = 0; i < nsky; i++) {
		const struct emoji_glyph *g = scene_nth(sky, svg_rand(&c->rng, 0, scene_count(sky) - 1));
		int h = s->m * svg_rand(&c->rng, 8, 14) / 100;

		if (g)
			scene_glyph(c, s, g, c->w * (2 * i + 1) / (2 * nsky) + svg_rand(&c->rng, -c->w / 12, c->w / 12),
				    svg_rand(&c->rng, h + s->m / 40, s->horizon * 55 / 100), h);
	}
	for (int i = 0; i < nshore; i++) {
		const struct emoji_glyph *g = scene_nth(bg->shore_props,
							svg_rand(&c->rng, 0, scene_count(bg->shore_props) - 1));
		int h = s->m * svg_rand(&c->rng, 10, 18) / 100;

		if (g)
			scene_glyph(c, s, g, c->w * (2 * i + 1) / (2 * nshore) + svg_rand(&c->rng, -c->w / 16, c->w / 16),
				    s->horizon + svg_rand(&c->rng, 0, s->m / 30), h);
	}
	svg_put(c, "</g>\n");
}

/* Where subject i of n goes: its slot across the region, its height. */
static void scene_place(struct svg_ctx *c, const struct scene *s, const struct scene_box *box,
			const struct emoji_glyph *g, int slot, int n)
{
	int fly = strstr(scene_flying, g->chars) != NULL;
	int rx = 0, rw = c->w, h, x, y;

	if (box && box->set) {
		/* In the mask's box, its slot's free room spent by the seed. */
		rx = box->x, rw = box->w;
		h = scene_min(box->h * 85 / 100, rw * 90 / 100 / n) * svg_rand(&c->rng, 80, 100) / 100;
		x = rx + rw * (2 * slot + 1) / (2 * n);
		x += svg_rand(&c->rng, -1, 1) * scene_min(rw / n - h * g->w / (g->h ? g->h : 1), rw / n) / 3;
		y = box->y + box->h / 2 + h / 2 + svg_rand(&c->rng, -1, 1) * (box->h - h) / 3;
	} else {
		h = s->m * (n == 1 ? 44 : n == 2 ? 34 : n <= 4 ? 26 : 20) / 100;
		h = h * svg_rand(&c->rng, 88, 108) / 100;
		/* At most 85% of the slot high (a glyph is up to 1.06 times as
		 * wide), moved by at most 5% of it: neighbours never overlap. */
		h = scene_min(h, rw * 85 / 100 / n);
		x = rw * (2 * slot + 1) / (2 * n) + svg_rand(&c->rng, -rw / (20 * n), rw / (20 * n));
		if (fly)
			y = scene_min(s->horizon * svg_rand(&c->rng, 45, 70) / 100, s->horizon - s->m / 40) + h / 2;
		else
			y = s->horizon + (c->h - s->horizon) * svg_rand(&c->rng, 45, 75) / 100;
		if (y > c->h - s->m / 40)
			y = c->h - s->m / 40;
		if (y - h < s->m / 40)
			y = h + s->m / 40;
		if (!fly)
			svg_put(c, "<ellipse cx=\"%d\" cy=\"%d\" rx=\"%d\" ry=\"%d\" fill=\"#000000\" "
				"opacity=\"0.22\"/>\n", x, y - h / 30, h * 38 / 100, h / 14 + 1);
	}
	scene_glyph(c, s, g, x, y, h);
}

static void scene_subjects_draw(struct svg_ctx *c, const struct scene *s, const char *prompt,
				const struct scene_box *box)
{
	const char *found[SCENE_MAX_SUBJECTS];
	int slot[SCENE_MAX_SUBJECTS];
	size_t n = scene_subjects(prompt, found, SCENE_MAX_SUBJECTS);

	/* Another seed puts them in another order. */
	for (size_t i = 0; i < n; i++)
		slot[i] = (int)i;
	for (size_t i = n; i > 1; i--) {
		int j = svg_rand(&c->rng, 0, (int)i - 1), t = slot[i - 1];

		slot[i - 1] = slot[j], slot[j] = t;
	}
	svg_put(c, "<g class=\"av-subjects\">\n");
	for (size_t i = 0; i < n; i++) {
		const struct emoji_glyph *g = scene_glyph_at(found[i]);

		if (g)
			scene_place(c, s, box, g, slot[i], (int)n);
	}
	svg_put(c, "</g>\n");
}

/* ---- backgrounds ---- */

static void scene_extra_hills(struct svg_ctx *c, const struct scene *s, unsigned colour, int top, int steps, int opacity)
{
	char hex[8];

	scene_rgbhex(s, hex, colour);
	svg_put(c, "<polygon points=\"0,%d", c->h);
	for (int i = 0; i <= steps; i++)
		svg_put(c, " %d,%d", c->w * i / steps, top + svg_rand(&c->rng, 0, c->h / 10) * (i % 2 ? 1 : 2) / 2);
	svg_put(c, " %d,%d\" fill=\"%s\" opacity=\"0.%02d\"/>\n", c->w, c->h, hex, opacity);
}

static void scene_extra_sky(struct svg_ctx *c, const struct scene *s)
{
	scene_extra_hills(c, s, scene_mix(s->ground[0], 0xffffff, 15), s->horizon - c->h / 20,
			  3, 90);
}

static void scene_extra_sea(struct svg_ctx *c, const struct scene *s)
{
	char hex[8];

	scene_rgbhex(s, hex, scene_mix(s->ground[0], 0xffffff, 35));
	for (int i = 0; i < 3; i++) {
		int y = s->horizon + (c->h - s->horizon) * (i + 1) / 4, amp = c->h / 60 + 1;
		int step = c->w / 6 + 1;

		svg_put(c, "<path d=\"M0,%d", y);
		for (int x = 0; x < c->w; x += step)
			svg_put(c, " Q%d,%d %d,%d", x + step / 2, y - amp * (1 + svg_rand(&c->rng, 0, 1)), x + step, y);
		svg_put(c, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" opacity=\"0.6\"/>\n", hex,
			c->h / 200 + 1);
	}
}

static void scene_extra_snow(struct svg_ctx *c, const struct scene *s)
{
	scene_extra_hills(c, s, s->night ? 0x6b7a99 : 0xc9d8ea, s->horizon - c->h / 4, 4, 95);
	scene_extra_hills(c, s, s->night ? 0x8e9ab5 : 0xf4f8fc, s->horizon - c->h / 10, 5, 95);
}

static void scene_stars(struct svg_ctx *c, const struct scene *s)
{
	int n = svg_rand(&c->rng, 14, 24);

	for (int i = 0; i < n; i++)
		svg_put(c, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#fff8d6\" opacity=\"0.%02d\"/>\n",
			svg_rand(&c->rng, 0, c->w), svg_rand(&c->rng, 0, s->horizon * 8 / 10),
			s->m / 300 + 1, svg_rand(&c->rng, 50, 95));
}

static void scene_extra_night(struct svg_ctx *c, const struct scene *s)
{
	scene_extra_hills(c, s, 0x141a33, s->horizon - c->h / 14, 4, 95);
}

static void scene_extra_city(struct svg_ctx *c, const struct scene *s)
{
	int n = svg_rand(&c->rng, 7, 11), x = 0, windows = 0;
	char body[8], lit[8];

	scene_rgbhex(s, body, scene_mix(s->sky[1], s->night ? 0x0a0a18 : 0x3a4252, 70));
	scene_rgbhex(s, lit, s->night ? 0xffd86b : 0xcfe6ff);
	for (int i = 0; i < n && x < c->w; i++) {
		int bw = c->w / n + svg_rand(&c->rng, -c->w / (4 * n), c->w / (4 * n));
		int bh = s->horizon * svg_rand(&c->rng, 25, 65) / 100, top = s->horizon - bh;

		svg_put(c, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x, top, bw, bh,
			body);
		for (int wy = top + bh / 8; wy < s->horizon - bh / 8 && windows < 80; wy += bh / 5 + 1)
			for (int wx = x + bw / 6; wx < x + bw - bw / 6 && windows < 80; wx += bw / 3 + 1, windows++)
				svg_put(c, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
					"opacity=\"0.8\"/>\n", wx, wy, bw / 8 + 1, bh / 12 + 1, lit);
		x += bw;
	}
}

static void scene_extra_room(struct svg_ctx *c, const struct scene *s)
{
	int ww = c->w * 30 / 100, wh = s->horizon * 45 / 100;
	int wx = svg_rand(&c->rng, c->w / 10, c->w - ww - c->w / 10), wy = s->horizon / 6;
	char pane[8], frame[8];

	scene_rgbhex(s, pane, s->night ? 0x1b2350 : 0x8fcaf5);
	scene_rgbhex(s, frame, 0xf7f1e6);
	svg_put(c, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\" "
		"stroke-width=\"%d\"/>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
		"stroke-width=\"%d\"/>\n", wx, wy, ww, wh, pane, frame, s->m / 60 + 1,
		wx + ww / 2, wy, wx + ww / 2, wy + wh, frame, s->m / 90 + 1);
	svg_put(c, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#000000\" opacity=\"0.12\"/>\n",
		s->horizon, c->w, c->h / 60 + 1);
}

static void scene_extra_forest(struct svg_ctx *c, const struct scene *s)
{
	scene_extra_hills(c, s, scene_mix(s->ground[0], 0x0b2a12, 35), s->horizon - c->h / 8,
			  6, 90);
}

static void scene_extra_lake(struct svg_ctx *c, const struct scene *s)
{
	char shore[8];

	scene_extra_hills(c, s, scene_mix(s->sky[1], 0x2f5d50, 60), s->horizon - c->h / 6, 4,
			  95);
	scene_rgbhex(s, shore, s->night ? 0x1d3322 : 0x5d9a4a);
	svg_put(c, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n<rect x=\"0\" y=\"%d\" "
		"width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", s->horizon - c->h / 60, c->w,
		c->h / 60 + 1, shore, c->h - c->h / 12, c->w, c->h / 12 + 1, shore);
}

static const struct scene_bg scene_bgs[] = {
	{ "sky", { 0x4a90d9, 0xbfe3ff }, { 0x7cc36a, 0x4e9a3e }, 70, "☁☁☀", 3, "", 0, scene_extra_sky, NULL },
	{ "sea", { 0x5fa8f0, 0xd8f0ff }, { 0x1f78c2, 0x0b3d6b }, 52, "☁☁", 2, "", 0, NULL, scene_extra_sea },
	{ "snow", { 0x9dbfe6, 0xeef6ff }, { 0xffffff, 0xdfe9f3 }, 62, "❄❄❄", 5, "🌲", 3, scene_extra_snow, NULL },
	{ "night", { 0x070b24, 0x2a2f6b }, { 0x1b2238, 0x0d1020 }, 72, "🌙⭐", 3, "", 0, scene_extra_night, NULL },
	{ "city", { 0xff9e6b, 0xffd9a8 }, { 0x5a606b, 0x2f333a }, 70, "☁", 1, "", 0, scene_extra_city, NULL },
	{ "room", { 0xf3e2c7, 0xe6cfa8 }, { 0xa0714f, 0x7a5236 }, 66, "", 0, "🪴", 1, scene_extra_room, NULL },
	{ "forest", { 0x9fd4e8, 0xe4f5d0 }, { 0x3f7d3a, 0x24502a }, 64, "☁", 1, "🌲🌳🌲", 6, scene_extra_forest, NULL },
	{ "lake", { 0x8ec5ff, 0xe6f4ff }, { 0x3b8fc4, 0x1d5f86 }, 56, "☁", 2, "🌲🌳", 3, scene_extra_lake, NULL },
};

static const struct scene_bg *scene_bg_named(const char *name)
{
	for (size_t i = 0; i < sizeof scene_bgs / sizeof scene_bgs[0]; i++)
		if (strcmp(scene_bgs[i].name, name) == 0)
			return &scene_bgs[i];
	return &scene_bgs[0];
}

/* ---- words: colours, light, time of day ---- */

struct scene_colour {
	const char *words;
	unsigned rgb;
};

static const struct scene_colour scene_colours[] = {
	{ "红色|红|赤|red|crimson|scarlet", 0xd62f2f },
	{ "橙色|橘色|橙|orange", 0xf28c28 },
	{ "金色|金黄|golden|gold", 0xd4af37 },
	{ "黄色|yellow", 0xf2d026 },
	{ "绿色|绿|green", 0x3fa34d },
	{ "青色|cyan|teal|turquoise", 0x1fb5b5 },
	{ "蓝色|蓝|blue|azure", 0x2f6fd6 },
	{ "紫色|紫|purple|violet", 0x8a4fd0 },
	{ "粉色|粉红|pink", 0xf48fb1 },
	{ "棕色|褐色|brown", 0x8b5a2b },
	{ "灰色|grey|gray", 0x8a8f98 },
	{ "黑色|black", 0x202020 },
	{ "白色|white", 0xf4f4f4 },
	{ "银色|silver", 0xc0c6cc },
};

static int scene_alnum(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Where the first of words ('|'-separated; Latin ones as whole words,
 * any case) is in text, or -1. */
static long scene_where(const char *text, const char *words)
{
	long best = -1;

	while (*words) {
		size_t n = strcspn(words, "|");

		for (const char *p = text; *p; p++) {
			if (strncasecmp(p, words, n) != 0)
				continue;
			if ((unsigned char)words[0] >= 0x80 ||
			    ((p == text || !scene_alnum((unsigned char)p[-1])) && !scene_alnum((unsigned char)p[n]))) {
				if (best < 0 || p - text < best)
					best = p - text;
				break;
			}
		}
		words += n + (words[n] == '|');
	}
	return best;
}

/* The first two colours the prompt names, in its order; their number. */
static int scene_named_colours(const char *prompt, unsigned out[2])
{
	long at[2] = { -1, -1 };
	int n = 0;

	for (size_t i = 0; i < sizeof scene_colours / sizeof scene_colours[0]; i++) {
		long w = scene_where(prompt, scene_colours[i].words);

		if (w < 0)
			continue;
		if (n < 2 || w < at[1]) {
			int k = n < 2 ? n++ : 1;

			at[k] = w, out[k] = scene_colours[i].rgb;
			if (n == 2 && at[1] < at[0]) {
				long ta = at[0]; unsigned tc = out[0];

				at[0] = at[1], out[0] = out[1], at[1] = ta, out[1] = tc;
			}
		}
	}
	return n;
}

/* The style strength an adjustment wrote into the prompt ("style
 * strength 80%"), else 60. */
static int scene_strength(const char *prompt)
{
	const char *p = strstr(prompt, "style strength ");
	int v = 0;

	if (p == NULL)
		return 60;
	for (p += 15; *p >= '0' && *p <= '9' && v < 1000; p++)
		v = v * 10 + (*p - '0');
	return v > 100 ? 100 : v;
}

static void scene_read(struct svg_ctx *c, struct scene *s, const char *prompt,
		       const unsigned char (*rgb)[3], int ncolours)
{
	unsigned named[2];
	int n = scene_named_colours(prompt, named);
	long dark = scene_where(prompt, "darker|low-key|更暗|暗一点|暗一些|调暗|昏暗|暗调|dim|gloomy");
	long bright = scene_where(prompt, "brighter|更亮|亮一点|亮一些|调亮|明亮");

	s->bg = scene_bg_named(scene_background_for(prompt));
	s->style = scene_style_for(prompt);
	s->night = strcmp(s->bg->name, "night") == 0 ||
		   scene_where(prompt, "夜晚|夜空|夜景|深夜|晚上|月夜|星空|夜|night|starry|midnight|moonlit") >= 0;
	s->dusk = !s->night && scene_where(prompt, "夕阳|日落|黄昏|晚霞|落日|日出|朝霞|sunset|dusk|dawn|sunrise") >= 0;
	s->light = dark > bright ? -1 : bright > dark ? 1 : 0;
	s->strength = scene_strength(prompt);
	s->m = scene_min(c->w, c->h);
	s->horizon = c->h * (s->bg->horizon + svg_rand(&c->rng, -4, 4)) / 100;
	memcpy(s->sky, s->bg->sky, sizeof s->sky);
	memcpy(s->ground, s->bg->ground, sizeof s->ground);
	if (s->night && strcmp(s->bg->name, "room") != 0) {
		s->sky[0] = 0x070b24, s->sky[1] = 0x2a2f6b;
		s->ground[0] = scene_mix(s->ground[0], 0x05060f, 55);
		s->ground[1] = scene_mix(s->ground[1], 0x05060f, 55);
	} else if (s->dusk) {
		s->sky[0] = 0xff7e5f, s->sky[1] = 0xfeb47b;
	}
	if (n > 0) {
		s->sky[0] = scene_mix(s->sky[0], named[0], 35), s->sky[1] = scene_mix(s->sky[1], named[0], 35);
		s->ground[0] = scene_mix(s->ground[0], named[n - 1], n > 1 ? 50 : 25);
		s->ground[1] = scene_mix(s->ground[1], named[n - 1], n > 1 ? 50 : 25);
	}
	if (rgb && ncolours > 0) {
		s->sky[0] = scene_mix(scene_rgb(rgb[0]), 0x000000, 40), s->sky[1] = scene_rgb(rgb[0]);
		s->ground[0] = scene_rgb(rgb[1 % ncolours]);
		s->ground[1] = scene_mix(scene_rgb(rgb[1 % ncolours]), 0x000000, 35);
	}
}

/* ---- style filters ---- */

/* Light, washed colours; the glyph lets the paper through (scene_glyph). */
static void scene_filter_watercolour(struct svg_ctx *c, const struct scene *s)
{
	int k = s->strength / 5 + 4;    /* percent of white mixed in */

	svg_put(c, "<feColorMatrix type=\"matrix\" values=\"0.%02d 0.04 0.04 0 0.%02d 0.04 0.%02d 0.04 0 "
		"0.%02d 0.04 0.04 0.%02d 0 0.%02d 0 0 0 1 0\"/>", 92 - k, k, 92 - k, k, 92 - k, k);
}

/* Rich colours. */
static void scene_filter_oil(struct svg_ctx *c, const struct scene *s)
{
	svg_put(c, "<feColorMatrix type=\"saturate\" values=\"%d.%d\"/>", 1 + s->strength / 100,
		s->strength % 100 / 10);
}

/* Grey ink on warm paper. */
static void scene_filter_inkwash(struct svg_ctx *c, const struct scene *s)
{
	svg_put(c, "<feColorMatrix type=\"matrix\" values=\"0.36 0.55 0.18 0 -0.04 0.35 0.54 0.17 0 -0.05 "
		"0.33 0.51 0.16 0 -0.06 0 0 0 1 0\"/>");
}

/* Few colours (the glyphs are drawn unsmoothed as well). */
static void scene_filter_pixel(struct svg_ctx *c, const struct scene *s)
{
	svg_put(c, "<feComponentTransfer><feFuncR type=\"discrete\" tableValues=\"0 0.25 0.5 0.75 1\"/>"
		"<feFuncG type=\"discrete\" tableValues=\"0 0.25 0.5 0.75 1\"/>"
		"<feFuncB type=\"discrete\" tableValues=\"0 0.25 0.5 0.75 1\"/></feComponentTransfer>");
}

/* Pencil: the picture's edges, dark grey on white. */
static void scene_filter_sketch(struct svg_ctx *c, const struct scene *s)
{
	int k = s->strength / 20 + 2;

	svg_put(c, "<feConvolveMatrix order=\"3\" kernelMatrix=\"-1 -1 -1 -1 8 -1 -1 -1 -1\" "
		"preserveAlpha=\"true\"/><feColorMatrix type=\"matrix\" values=\"-%d -%d -%d 0 1 -%d -%d -%d 0 "
		"1 -%d -%d -%d 0 1 0 0 0 1 0\"/>", k, k, k, k, k, k, k, k, k);
}

struct scene_style {
	const char *name;
	void (*filter)(struct svg_ctx *c, const struct scene *s);
};

static const struct scene_style scene_styles_drawn[] = {
	{ "watercolour", scene_filter_watercolour }, { "oil", scene_filter_oil },
	{ "inkwash", scene_filter_inkwash }, { "pixel", scene_filter_pixel },
	{ "sketch", scene_filter_sketch },
};

/* The filter of the style, set on each glyph over its own box exactly
 * (no margin), the background getting the style's tones instead
 * (scene_tone): librsvg draws each primitive into a surface the size of
 * the picture (64 MiB and about a second of CPU at 4096 x 4096), so a
 * style is one or two cheap primitives chained without named results.
 * feTurbulence and feDisplacementMap (ten times slower) and
 * feGaussianBlur (which needs some 640 MiB of address space at 4096
 * against [media]'s 512) are not used. At most 4 primitives, feFunc*
 * included. */
static void scene_filter(struct svg_ctx *c, const struct scene *s)
{
	for (size_t i = 0; s->style && i < sizeof scene_styles_drawn / sizeof scene_styles_drawn[0]; i++) {
		if (strcmp(s->style, scene_styles_drawn[i].name) != 0)
			continue;
		svg_put(c, "<defs><filter id=\"av-style-%s\" x=\"0\" y=\"0\" width=\"1\" height=\"1\" "
			"color-interpolation-filters=\"sRGB\">", s->style);
		scene_styles_drawn[i].filter(c, s);
		svg_put(c, "</filter></defs>\n");
	}
}

/* ---- the scene ---- */

/* A gradient as a few flat bands, for pixel art. */
static void scene_bands(struct svg_ctx *c, const struct scene *s, const unsigned rgb[2], int y, int h)
{
	char hex[8];

	for (int i = 0; i < 6; i++) {
		scene_rgbhex(s, hex, scene_mix(rgb[0], rgb[1], i * 20));
		svg_put(c, "<rect y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", y + h * i / 6, c->w,
			h / 6 + 1, hex);
	}
}

static void scene_ground_and_sky(struct svg_ctx *c, const struct scene *s)
{
	char a[8], b[8], g0[8], g1[8];

	scene_rgbhex(s, a, s->sky[0]), scene_rgbhex(s, b, s->sky[1]);
	scene_rgbhex(s, g0, s->ground[0]), scene_rgbhex(s, g1, s->ground[1]);
	svg_put(c, "<defs><linearGradient id=\"av-sky\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
		"<stop offset=\"0\" stop-color=\"%s\"/><stop offset=\"1\" stop-color=\"%s\"/></linearGradient>"
		"<linearGradient id=\"av-ground\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" "
		"stop-color=\"%s\"/><stop offset=\"1\" stop-color=\"%s\"/></linearGradient></defs>\n",
		a, b, g0, g1);
	svg_put(c, "<rect width=\"%d\" height=\"%d\" fill=\"url(#av-sky)\"/>\n", c->w, s->horizon + 1);
	if (s->style && strcmp(s->style, "pixel") == 0)
		scene_bands(c, s, s->sky, 0, s->horizon + 1);
	if (s->night)
		scene_stars(c, s);
	if (s->bg->behind)
		s->bg->behind(c, s);
	svg_put(c, "<rect y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#av-ground)\"/>\n", s->horizon, c->w,
		c->h - s->horizon);
	if (s->style && strcmp(s->style, "pixel") == 0)
		scene_bands(c, s, s->ground, s->horizon, c->h - s->horizon);
	if (s->bg->over)
		s->bg->over(c, s);
}

static void scene_light(struct svg_ctx *c, const struct scene *s)
{
	if (s->light == 0)
		return;
	svg_put(c, "<rect class=\"av-light\" data-light=\"%s\" width=\"%d\" height=\"%d\" fill=\"%s\" "
		"opacity=\"%s\"/>\n", s->light < 0 ? "darker" : "brighter", c->w, c->h,
		s->light < 0 ? "#000000" : "#ffffff", s->light < 0 ? "0.4" : "0.3");
}

void scene_draw(struct svg_ctx *c, const char *prompt, const char *subject,
		const unsigned char (*rgb)[3], int ncolours, const struct scene_box *box)
{
	struct scene s;

	memset(&s, 0, sizeof s);
	scene_read(c, &s, prompt, rgb, ncolours);
	scene_filter(c, &s);
	svg_put(c, "<g class=\"av-scene\" data-background=\"%s\"", s.bg->name);
	if (s.style)
		svg_put(c, " data-style=\"%s\"", s.style);
	svg_put(c, ">\n");
	scene_ground_and_sky(c, &s);
	scene_props(c, &s);
	scene_subjects_draw(c, &s, subject ? subject : prompt, box);
	svg_put(c, "</g>\n");
	scene_light(c, &s);
}
