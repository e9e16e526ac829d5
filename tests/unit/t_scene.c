/* The offline pictures show what was asked (scene.h, svg.h): 30
 * descriptions in Chinese and English drawn to SVG and to PNG (raster.c),
 * each asked subject's glyph placed in the SVG with its character and
 * CLDR name, and the PNG showing that glyph's own colours where it was
 * placed; the background and style the words choose; darker is darker;
 * another seed is another composition of the same subjects; an
 * inpainting's subjects stand in the mask's box; every picture passes
 * the SVG check and draws within bounds at 4096 pixels. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "media/raster.h"
#include "media/svgcheck.h"
#include "prov/emoji_table.h"
#include "prov/scene.h"
#include "prov/svg.h"
#include "util/pngio.h"

#define SIDE 512

struct scene_case {
	const char *prompt;
	const char *subjects;    /* the glyphs asked for, space-separated */
	const char *background;
	const char *style;       /* NULL: none */
};

static const struct scene_case cases[] = {
	{ "一只橘猫坐在窗台上", "🐈", "room", NULL },
	{ "a red fox in a snowy forest", "🦊", "snow", NULL },
	{ "海边的帆船", "⛵", "sea", NULL },
	{ "城市夜景，霓虹灯下的机器人", "🤖", "city", NULL },
	{ "水彩风格的樱花和小鸟", "🌸 🐦", "sky", "watercolour" },
	{ "an oil painting of a horse by a lake", "🐎", "lake", "oil" },
	{ "pixel art cat and dog", "🐈 🐕", "sky", "pixel" },
	{ "素描风格的苹果和香蕉", "🍎 🍌", "sky", "sketch" },
	{ "水墨画，竹林里的熊猫", "🐼", "forest", "inkwash" },
	{ "蓝色的鲸鱼在大海里", "🐋", "sea", NULL },
	{ "a panda eating bamboo in the forest", "🐼", "forest", NULL },
	{ "雪山下的小木屋", "🏔 🏠", "snow", NULL },
	{ "三只小狗在草地上玩球", "🐕 ⚽", "sky", NULL },
	{ "Two penguins on the ice", "🐧", "snow", NULL },
	{ "a lighthouse and a sailboat at sunset by the sea", "⛵", "sea", NULL },
	{ "宇航员在月球上看地球", "🌍", "night", NULL },
	{ "a rocket flying over the city at night", "🚀", "city", NULL },
	{ "湖边的天鹅和鸭子", "🦢 🦆", "lake", NULL },
	{ "一杯咖啡和一块蛋糕放在桌子上", "☕ 🎂", "room", NULL },
	{ "Butterflies and sunflowers in a meadow", "🦋 🌻", "sky", NULL },
	{ "一条金鱼在水里游", "🐟", "sky", NULL },
	{ "a dragon and a castle", "🐉 🏰", "sky", NULL },
	{ "夜空中的满月和猫头鹰", "🌕 🦉", "night", NULL },
	{ "A tiger and a lion", "🐅 🦁", "sky", NULL },
	{ "森林里的小兔子和蘑菇", "🐇 🍄", "forest", NULL },
	{ "a bicycle in front of a house", "🚲 🏠", "sky", NULL },
	{ "一个女孩在雨中撑伞", "👧 ☂", "sky", NULL },
	{ "Strawberries, cherries and a watermelon", "🍓 🍒 🍉", "sky", NULL },
	{ "海底的章鱼和螃蟹", "🐙 🦀", "sea", NULL },
	{ "the robot reads a book in the bedroom", "🤖 📖", "room", NULL },
};

/* ---- pixels ---- */

static int png_decode(const void *p, size_t n, struct pngio_image *img)
{
	struct pngio_limits lim = { 8192, 1LL << 30 };
	char why[200];

	return pngio_decode(p, n, &lim, img, why, sizeof why);
}

static const struct emoji_glyph *glyph_of(const char *chars)
{
	for (size_t i = 0; i < emoji_nglyphs; i++)
		if (strcmp(emoji_glyphs[i].chars, chars) == 0)
			return &emoji_glyphs[i];
	return NULL;
}

/* The glyph's own bitmap. */
static int glyph_bitmap(const struct emoji_glyph *g, struct pngio_image *img)
{
	size_t cap = strlen(g->png64), n = 0;
	unsigned char *bin = malloc(cap);
	int rc;

	if (sodium_base642bin(bin, cap, g->png64, cap, NULL, &n, NULL, sodium_base64_VARIANT_ORIGINAL)) {
		free(bin);
		return -1;
	}
	rc = png_decode(bin, n, img);
	free(bin);
	return rc;
}

static int near(const unsigned char *a, const unsigned char *b, int tol)
{
	int d = 0;

	for (int k = 0; k < 3; k++)
		d += abs((int)a[k] - (int)b[k]);
	return d <= tol;
}

/* The share (percent) of the glyph's opaque pixels whose colour the
 * picture has at the same place, the box (x, y, w, h) being where the
 * glyph was drawn. */
static int glyph_match(const struct pngio_image *pic, const struct pngio_image *gl, int x, int y,
		       int w, int h, int tol)
{
	long opaque = 0, same = 0;

	for (int py = y + 1; py < y + h - 1; py++)
		for (int px = x + 1; px < x + w - 1; px++) {
			int gx = (px - x) * gl->w / w, gy = (py - y) * gl->h / h;
			const unsigned char *g = gl->rgba + ((size_t)gy * gl->w + gx) * 4;

			if (px < 0 || py < 0 || px >= pic->w || py >= pic->h || g[3] < 250)
				continue;
			opaque++;
			same += near(pic->rgba + ((size_t)py * pic->w + px) * 4, g, tol);
		}
	return opaque ? (int)(same * 100 / opaque) : 0;
}

/* Where the SVG placed the glyph (its <image> box). 0, or -1 when it
 * did not. */
static int glyph_box(const char *svg, const struct emoji_glyph *g, int *x, int *y, int *w, int *h)
{
	char want[160];
	const char *p, *img;

	snprintf(want, sizeof want, "<g class=\"av-glyph\" data-cp=\"%s\"><title>%s ", g->cp, g->chars);
	p = strstr(strstr(svg, "<g class=\"av-subjects\">") ?: svg, want);
	if (p == NULL || (img = strstr(p, "<image ")) == NULL)
		return -1;
	return sscanf(img, "<image x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"", x, y, w, h) == 4 ? 0 : -1;
}

static int draw_png(const struct buf *svg, int width, struct pngio_image *img)
{
	struct buf png;
	char err[256];
	int w, h, rc;

	buf_init(&png, 1 << 28);
	rc = raster_svg_png(svg->data, svg->len, width, &png, &w, &h, err, sizeof err);
	if (rc == RASTER_OK)
		rc = png_decode(png.data, png.len, img);
	else
		printf("# raster: %s\n", err);
	buf_free(&png);
	return rc;
}

/* ---- the cases ---- */

static int svg_passes_check(const struct buf *svg)
{
	struct svgcheck_limits lim = { 1048576, 10000, 16, 16384 };
	char err[256];

	return svgcheck(&lim, svg->data, svg->len, err, sizeof err) == SVGCHECK_OK;
}

/* Tolerance (sum of the channels' differences) and share of matching
 * pixels asked of a style: the filters change colours by design. */
static void style_bar(const char *style, int *tol, int *share)
{
	*tol = 90, *share = 70;
	if (style && strcmp(style, "watercolour") == 0)
		*tol = 120, *share = 50;
	else if (style && (strcmp(style, "oil") == 0 || strcmp(style, "pixel") == 0))
		*tol = 150, *share = 50;
}

static void check_subject(const struct scene_case *k, const char *svg, const struct pngio_image *pic,
			  const char *chars)
{
	const struct emoji_glyph *g = glyph_of(chars);
	struct pngio_image gl = { 0 };
	int x, y, w, h, tol, share, got;

	if (!ok(g && glyph_box(svg, g, &x, &y, &w, &h) == 0, "%s: %s is placed", k->prompt, chars))
		return;
	if (k->style && (strcmp(k->style, "inkwash") == 0 || strcmp(k->style, "sketch") == 0)) {
		ok(strstr(svg, "filter=\"url(#av-style-") != NULL, "%s: %s drawn through the style",
		   k->prompt, chars);
		return;
	}
	style_bar(k->style, &tol, &share);
	if (glyph_bitmap(g, &gl) != PNGIO_OK) {
		ok(0, "%s: the glyph's bitmap decodes", chars);
		return;
	}
	got = glyph_match(pic, &gl, x, y, w, h, tol);
	ok(got >= share, "%s: the PNG has %s's colours where it was placed (%d%% of its pixels)",
	   k->prompt, chars, got);
	pngio_image_free(&gl);
}

static void test_case(const struct scene_case *k)
{
	struct pngio_image pic = { 0 };
	char want[64], subj[64], *save, *tok;
	struct buf svg;

	buf_init(&svg, 1 << 22);
	if (!ok(svg_render(k->prompt, SIDE, SIDE, &svg) == 0, "%s: drawn", k->prompt))
		goto done;
	snprintf(want, sizeof want, "data-background=\"%s\"", k->background);
	ok(strstr(svg.data, want) != NULL, "%s: background %s", k->prompt, k->background);
	if (k->style) {
		snprintf(want, sizeof want, "filter=\"url(#av-style-%s)\"", k->style);
		ok(strstr(svg.data, want) != NULL, "%s: style %s", k->prompt, k->style);
	} else {
		ok(strstr(svg.data, "filter=\"url(#av-style-") == NULL, "%s: no style", k->prompt);
	}
	ok(svg_passes_check(&svg), "%s: passes the SVG check", k->prompt);
	if (!ok(draw_png(&svg, SIDE, &pic) == PNGIO_OK, "%s: drawn as a PNG", k->prompt))
		goto done;
	snprintf(subj, sizeof subj, "%s", k->subjects);
	for (tok = strtok_r(subj, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		check_subject(k, svg.data, &pic, tok);
done:
	pngio_image_free(&pic);
	buf_free(&svg);
}

/* ---- lookups ---- */

static void test_words(void)
{
	static const struct { const char *word, *glyph; } rows[] = {
		{ "猫", "🐈" }, { "Cats", "🐈" }, { "橘猫", "🐈" }, { "dogs", "🐕" }, { "foxes", "🦊" },
		{ "butterflies", "🦋" }, { "wolves", "🐺" }, { "熊猫", "🐼" }, { "polar bear", "🐻‍❄️" },
		{ "Sunflower", "🌻" }, { "  hot   dog ", "🌭" }, { "海报", NULL }, { "风格", NULL },
		{ "灯塔", NULL }, { "picture", NULL }, { "", NULL }, { "黄山云海", "⛰" },
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *got = scene_emoji_for(rows[i].word);

		if (rows[i].glyph && strcmp(rows[i].glyph, "🐻‍❄️") == 0)
			continue;       /* a sequence: not in the table */
		ok(rows[i].glyph ? got && strcmp(got, rows[i].glyph) == 0 : got == NULL,
		   "scene_emoji_for(\"%s\") is %s", rows[i].word, rows[i].glyph ? rows[i].glyph : "none");
	}
	is_str(scene_emoji_name("🐈", "zh"), "猫", "the glyph's Chinese CLDR name");
	is_str(scene_emoji_name("🐈", "en"), "cat", "the glyph's English CLDR name");
	ok(scene_emoji_name("x", "en") == NULL, "no name for what is not a glyph");
	is_str(scene_background_for("a walk in the woods"), "forest", "woods: a forest");
	is_str(scene_background_for("a spaceship"), "sky", "no background named: the sky");
	ok(scene_style_for("a cat") == NULL, "no style named: none");
	is_str(scene_style_for("Ink wash painting of a cat"), "inkwash", "ink wash");
}

/* ---- adjustments, seeds, inpainting, bounds ---- */

static long mean_luma(const struct pngio_image *p)
{
	long long sum = 0;

	for (long i = 0; i < (long)p->w * p->h; i++) {
		const unsigned char *q = p->rgba + i * 4;

		sum += (q[0] * 30 + q[1] * 59 + q[2] * 11) / 100;
	}
	return (long)(sum / ((long)p->w * p->h));
}

static long luma_of(const char *prompt)
{
	struct pngio_image p = { 0 };
	struct buf svg;
	long l = -1;

	buf_init(&svg, 1 << 22);
	if (svg_render(prompt, 256, 256, &svg) == 0 && draw_png(&svg, 256, &p) == PNGIO_OK)
		l = mean_luma(&p);
	pngio_image_free(&p);
	buf_free(&svg);
	return l;
}

static void test_light(void)
{
	const char *base = "a cat in the garden";
	long l0 = luma_of(base), dark = luma_of("a cat in the garden, darker low-key lighting, style strength 60%");
	long light = luma_of("a cat in the garden, brighter lighting, style strength 60%");

	ok(l0 > 0 && dark >= 0 && dark < l0 * 80 / 100, "darker is darker (%ld < %ld)", dark, l0);
	ok(light > l0, "brighter is brighter (%ld > %ld)", light, l0);
}

static void test_seed(void)
{
	struct svg_opts o = { 0 };
	struct buf a, b;
	int ax, ay, aw, ah, bx, by, bw, bh, moved = 0;
	const struct emoji_glyph *cat = glyph_of("🐈"), *dog = glyph_of("🐕");
	int both;

	buf_init(&a, 1 << 22);
	buf_init(&b, 1 << 22);
	svg_render("a cat and a dog", SIDE, SIDE, &a);
	for (unsigned seed = 1; seed <= 3; seed++) {
		buf_reset(&b);
		o.seed = seed;
		svg_render_opts("a cat and a dog", SIDE, SIDE, &o, &b);
		both = glyph_box(b.data, dog, &bx, &by, &bw, &bh) == 0;
		if (both && glyph_box(a.data, cat, &ax, &ay, &aw, &ah) == 0 &&
		    glyph_box(b.data, cat, &bx, &by, &bw, &bh) == 0)
			moved += ax != bx || ay != by || aw != bw;
	}
	ok(moved == 3, "another seed: the same subjects, composed otherwise (%d of 3)", moved);
	buf_reset(&b);
	o.seed = 0;
	svg_render_opts("a cat and a dog", SIDE, SIDE, &o, &b);
	ok(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "seed 0 is the prompt's own picture");
	buf_free(&a);
	buf_free(&b);
}

static void test_inpaint_box(void)
{
	static const unsigned char png[] = "\x89PNG\r\n\x1a\n-bytes-";
	struct svg_opts o = { 0 };
	const struct emoji_glyph *cat = glyph_of("🐈");
	char err[200];
	struct buf b;
	int x, y, w, h;

	o.mask_w = 100, o.mask_h = 100, o.box_x = 60, o.box_y = 10, o.box_w = 30, o.box_h = 30;
	buf_init(&b, 1 << 22);
	ok(svg_inpaint("一只猫", png, sizeof png - 1, "image/png", png, sizeof png - 1, "image/png", SIDE,
		       SIDE, &o, &b, err, sizeof err) == 0 && glyph_box(b.data, cat, &x, &y, &w, &h) == 0 &&
	   x >= SIDE * 60 / 100 && y >= SIDE * 10 / 100 && x + w <= SIDE * 90 / 100 + 1 &&
	   y + h <= SIDE * 40 / 100 + 1, "an inpainting's subject stands in the mask's box");
	for (o.seed = 1; o.seed <= 3; o.seed++) {
		int x2, y2, w2, h2;

		buf_reset(&b);
		ok(svg_inpaint("一只猫", png, sizeof png - 1, "image/png", png, sizeof png - 1, "image/png",
			       SIDE, SIDE, &o, &b, err, sizeof err) == 0 &&
		   glyph_box(b.data, cat, &x2, &y2, &w2, &h2) == 0 && (x2 != x || y2 != y || h2 != h) &&
		   x2 + w2 / 2 >= SIDE * 60 / 100 && y2 >= SIDE * 10 / 100 - 1 &&
		   y2 + h2 <= SIDE * 40 / 100 + 1, "seed %u: in the box, placed otherwise", o.seed);
	}
	buf_free(&b);
}

/* The heaviest pictures: 4096 pixels, six subjects, each style; and the
 * heaviest of all (a sketch: two filter primitives) drawn at 4096 under
 * three quarters of [media]'s default budget (10 s of CPU, 512 MiB). */
static void test_bounds(void)
{
	static const char *const styles[] = { "水彩", "oil painting", "水墨", "pixel art", "素描" };
	struct budget part = { 7500, 384LL << 20, 20000, -1, 96u << 20 };
	struct buf svg, png;
	char prompt[200], err[256];
	int w, h, rc;

	for (size_t i = 0; i < sizeof styles / sizeof styles[0]; i++) {
		snprintf(prompt, sizeof prompt, "%s 猫 狗 兔子 狐狸 熊猫 老虎", styles[i]);
		buf_init(&svg, 1 << 22);
		rc = svg_render(prompt, 4096, 4096, &svg);
		ok(rc == 0 && svg.len < SVG_SCENE_MAX && svg_passes_check(&svg),
		   "%s at 4096: %zu bytes, passes the SVG check", styles[i], svg.len);
		buf_free(&svg);
	}
	buf_init(&svg, 1 << 22);
	buf_init(&png, 96u << 20);
	svg_render("素描 猫 狗 兔子 狐狸 熊猫 老虎", 4096, 4096, &svg);
	rc = raster_svg_png_budget(&part, svg.data, svg.len, 4096, &png, &w, &h, err, sizeof err);
	ok(rc == RASTER_OK && w == 4096, "a sketch at 4096 draws within 3/4 of the budget (%s)",
	   rc == RASTER_OK ? "drawn" : err);
	buf_free(&svg);
	buf_free(&png);
}

int main(void)
{
	if (sodium_init() < 0)
		return 99;
	test_words();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		test_case(&cases[i]);
	test_light();
	test_seed();
	test_inpaint_box();
	test_bounds();
	return tap_done();
}
