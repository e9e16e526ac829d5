/* Deterministic SVG pictures (see svg.h). A BLAKE2b hash of the prompt
 * (libsodium's crypto_generichash) seeds a small generator; from it come
 * the palette (a colour family the prompt names — sunset, sea, night,
 * cyberpunk… — or one picked by the hash; or a reference image's
 * colours), the background gradient and a
 * composition of two or three layers (orbs, ridges, waves, shards, rings,
 * rays, a grid, a sun), and the prompt's subject is the caption. No
 * floating-point trigonometry: directions come from a fixed table, so
 * the bytes are the same on every machine. */
#include "config.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sodium.h>
#include "prov/svg.h"
#include "util/xmalloc.h"
#include "text/script.h"
#include "text/words.h"

struct svg_rng {
	unsigned char seed[crypto_generichash_BYTES];
	unsigned char block[crypto_generichash_BYTES];
	size_t pos;
	uint64_t ctr;
};

struct svg_ctx {
	struct buf *out;
	struct svg_rng rng;
	int w, h;
	char pal[5][8];         /* "#rrggbb" */
	char bg[3][8];
	int rc;                 /* -1 once an append failed */
};

static void svg_rng_init(struct svg_rng *r, const char *prompt)
{
	crypto_generichash(r->seed, sizeof r->seed, (const unsigned char *)prompt, strlen(prompt),
			   NULL, 0);
	r->pos = sizeof r->block;
	r->ctr = 0;
}

static unsigned svg_rng_byte(struct svg_rng *r)
{
	unsigned char ctr[8];

	if (r->pos >= sizeof r->block) {
		for (int i = 0; i < 8; i++)
			ctr[i] = (unsigned char)(r->ctr >> (8 * i));
		crypto_generichash(r->block, sizeof r->block, ctr, sizeof ctr, r->seed, sizeof r->seed);
		r->ctr++;
		r->pos = 0;
	}
	return r->block[r->pos++];
}

/* A number in [lo, hi]. */
static int svg_rand(struct svg_rng *r, int lo, int hi)
{
	uint32_t v = 0;

	if (hi <= lo)
		return lo;
	for (int i = 0; i < 4; i++)
		v = v << 8 | svg_rng_byte(r);
	return lo + (int)(v % (uint32_t)(hi - lo + 1));
}

static void svg_put(struct svg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* v in decimal at out (room for 12 bytes), at least width digits with
 * leading zeros, as printf's %0*d writes it. Its length. */
static size_t svg_int(char *out, int v, int width)
{
	char rev[12];
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	size_t n = 0, k = 0;

	do
		rev[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		out[k++] = '-';
	while (k + n < (size_t)width)
		out[k++] = '0';
	while (n > 0)
		out[k++] = rev[--n];
	return k;
}

/* The document is many small pieces of markup, numbers and colours:
 * svg_put is a printf of only the directives the renderer uses (%d, %02d,
 * %s, %%), writing the bytes printf would without the C library's format
 * machinery. A piece is under 1 KiB; a longer one, or another directive,
 * fails the picture. */
static void svg_put(struct svg_ctx *c, const char *fmt, ...)
{
	char tmp[1024], num[12];
	size_t n = 0, k;
	const char *p = fmt, *piece;
	int ok = 1;
	va_list ap;

	if (c->rc)
		return;
	va_start(ap, fmt);
	while (*p && ok) {
		if (*p != '%') {                  /* markup up to the next directive */
			k = strcspn(p, "%");
			piece = p;
			p += k;
		} else if (p[1] == 'd' || strncmp(p + 1, "02d", 3) == 0) {
			k = svg_int(num, va_arg(ap, int), p[1] == 'd' ? 1 : 2);
			piece = num;
			p += p[1] == 'd' ? 2 : 4;
		} else if (p[1] == 's') {
			piece = va_arg(ap, const char *);
			k = strlen(piece);
			p += 2;
		} else if (p[1] == '%') {
			piece = p;
			k = 1;
			p += 2;
		} else {
			ok = 0;
			break;
		}
		ok = n + k < sizeof tmp;
		if (ok) {
			memcpy(tmp + n, piece, k);
			n += k;
		}
	}
	va_end(ap);
	if (!ok || buf_add(c->out, tmp, n) < 0)
		c->rc = -1;
}

/* ---- colours ---- */

static int svg_hue_part(int p, int q, int t)
{
	t = (t % 360 + 360) % 360;
	if (t < 60)
		return p + (q - p) * t / 60;
	if (t < 180)
		return q;
	if (t < 240)
		return p + (q - p) * (240 - t) / 60;
	return p;
}

/* "#rrggbb" of three components in [0, 255], as "#%02x%02x%02x" wrote it. */
static void svg_hex(char out[8], int r, int g, int b)
{
	static const char digits[] = "0123456789abcdef";
	const int v[3] = { r, g, b };

	if (r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255) {
		snprintf(out, 8, "#%02x%02x%02x", (unsigned)r, (unsigned)g, (unsigned)b);
		return;
	}
	out[0] = '#';
	for (int k = 0; k < 3; k++) {
		out[1 + 2 * k] = digits[v[k] >> 4];
		out[2 + 2 * k] = digits[v[k] & 15];
	}
	out[7] = '\0';
}

/* HSL (degrees, percent, percent) to "#rrggbb", in integers. */
static void svg_hsl(char out[8], int h, int s, int l)
{
	int q, p, r, g, b;

	s = s < 0 ? 0 : s > 100 ? 100 : s;
	l = l < 0 ? 0 : l > 100 ? 100 : l;
	q = l < 50 ? l * (100 + s) / 100 : l + s - l * s / 100;
	p = 2 * l - q;
	r = svg_hue_part(p, q, h + 120);
	g = svg_hue_part(p, q, h);
	b = svg_hue_part(p, q, h - 120);
	svg_hex(out, r * 255 / 100, g * 255 / 100, b * 255 / 100);
}

struct svg_family {
	const char *keys;       /* '|'-separated words of the prompt that choose it */
	int hue_lo, hue_hi, sat_lo, sat_hi, light_lo, light_hi;
};

static const struct svg_family svg_families[] = {
	{ "赛博|cyberpunk|霓虹|neon|蒸汽波|vaporwave", 280, 330, 80, 100, 45, 60 },
	{ "水墨|ink|素描|sketch|黑白|monochrome|charcoal", 200, 220, 0, 8, 20, 70 },
	{ "夕阳|日落|黄昏|晚霞|sunset|dusk", 5, 40, 70, 95, 45, 65 },
	{ "夜|星空|宇宙|银河|night|star|space|galaxy|moon", 220, 270, 45, 75, 18, 35 },
	{ "海|湖|河|雨|ocean|sea|lake|river|rain", 185, 225, 55, 85, 35, 60 },
	{ "森林|树|草|山|forest|tree|grass|mountain", 80, 150, 40, 70, 30, 55 },
	{ "樱|花|少女|粉|sakura|cherry|flower|pink", 320, 355, 50, 80, 60, 78 },
	{ "雪|冰|冬|snow|ice|winter", 190, 210, 20, 45, 70, 88 },
	{ "沙漠|秋|复古|desert|autumn|retro|vintage", 20, 45, 40, 65, 40, 62 },
	{ "水彩|粉彩|童话|watercolor|pastel|fairy", 0, 359, 35, 55, 68, 82 },
};

static const struct svg_family *svg_family_for(const char *prompt)
{
	for (size_t i = 0; i < sizeof svg_families / sizeof svg_families[0]; i++)
		if (words_match_any(prompt, svg_families[i].keys))
			return &svg_families[i];
	return NULL;
}

static const int svg_schemes[5][5] = {
	{ 0, 25, -25, 50, -50 },     /* analogous */
	{ 0, 180, 20, 200, -20 },    /* complementary */
	{ 0, 120, 240, 30, 150 },    /* triadic */
	{ 0, 150, 210, 30, -30 },    /* split complementary */
	{ 0, 8, -8, 16, -16 },       /* nearly one hue */
};
static const int svg_light_steps[5] = { 0, 14, -14, 24, -8 };

static void svg_palette(struct svg_ctx *c, const char *prompt)
{
	const struct svg_family *f = svg_family_for(prompt);
	struct svg_rng *r = &c->rng;
	int hue, sat, light, scheme = svg_rand(r, 0, 4);

	if (f) {
		hue = svg_rand(r, f->hue_lo, f->hue_hi);
		sat = svg_rand(r, f->sat_lo, f->sat_hi);
		light = svg_rand(r, f->light_lo, f->light_hi);
	} else {
		hue = svg_rand(r, 0, 359);
		sat = svg_rand(r, 45, 85);
		light = svg_rand(r, 35, 65);
	}
	for (int i = 0; i < 5; i++)
		svg_hsl(c->pal[i], hue + svg_schemes[scheme][i], sat, light + svg_light_steps[i]);
	svg_hsl(c->bg[0], hue + svg_schemes[scheme][1] / 3, sat * 3 / 4, light / 3);
	svg_hsl(c->bg[1], hue, sat, light);
	svg_hsl(c->bg[2], hue + svg_schemes[scheme][2], sat / 2, light + (100 - light) / 2);
}

/* c towards white (pct > 0) or black (pct < 0), as "#rrggbb". */
static void svg_mix(char out[8], const unsigned char rgb[3], int pct)
{
	int v[3];

	for (int k = 0; k < 3; k++)
		v[k] = pct >= 0 ? rgb[k] + (255 - rgb[k]) * pct / 100 : rgb[k] * (100 + pct) / 100;
	svg_hex(out, v[0], v[1], v[2]);
}

/* A reference image's colours in place of the prompt's: the layers cycle
 * through them (lighter on each turn), the background runs from the
 * first, darkened, through it, to the second, lightened. */
static void svg_palette_ref(struct svg_ctx *c, const unsigned char (*rgb)[3], int n)
{
	for (int i = 0; i < 5; i++)
		svg_mix(c->pal[i], rgb[i % n], (i / n) * 25);
	svg_mix(c->bg[0], rgb[0], -60);
	svg_mix(c->bg[1], rgb[0], 0);
	svg_mix(c->bg[2], rgb[1 % n], 40);
}

/* Unit directions every 11.25 degrees, times 1024. */
static const int svg_dirs[32][2] = {
	{ 1024, 0 }, { 1004, 200 }, { 946, 392 }, { 851, 569 }, { 724, 724 }, { 569, 851 },
	{ 392, 946 }, { 200, 1004 }, { 0, 1024 }, { -200, 1004 }, { -392, 946 }, { -569, 851 },
	{ -724, 724 }, { -851, 569 }, { -946, 392 }, { -1004, 200 }, { -1024, 0 }, { -1004, -200 },
	{ -946, -392 }, { -851, -569 }, { -724, -724 }, { -569, -851 }, { -392, -946 },
	{ -200, -1004 }, { 0, -1024 }, { 200, -1004 }, { 392, -946 }, { 569, -851 }, { 724, -724 },
	{ 851, -569 }, { 946, -392 }, { 1004, -200 },
};

static int svg_min(int a, int b)
{
	return a < b ? a : b;
}

/* ---- layers ---- */

static void svg_background(struct svg_ctx *c)
{
	int d = svg_rand(&c->rng, 0, 7) * 4;
	int x1 = 50 - svg_dirs[d][0] * 50 / 1024, y1 = 50 - svg_dirs[d][1] * 50 / 1024;

	svg_put(c, "<defs><linearGradient id=\"bg\" x1=\"%d%%\" y1=\"%d%%\" x2=\"%d%%\" y2=\"%d%%\">"
		"<stop offset=\"0\" stop-color=\"%s\"/><stop offset=\"0.55\" stop-color=\"%s\"/>"
		"<stop offset=\"1\" stop-color=\"%s\"/></linearGradient>"
		"<radialGradient id=\"vg\" cx=\"50%%\" cy=\"50%%\" r=\"75%%\">"
		"<stop offset=\"0.6\" stop-color=\"#000000\" stop-opacity=\"0\"/>"
		"<stop offset=\"1\" stop-color=\"#000000\" stop-opacity=\"0.35\"/></radialGradient>"
		"</defs>\n<rect width=\"%d\" height=\"%d\" fill=\"url(#bg)\"/>\n",
		x1, y1, 100 - x1, 100 - y1, c->bg[0], c->bg[1], c->bg[2], c->w, c->h);
}

static void svg_layer_sun(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int m = svg_min(c->w, c->h);

	svg_put(c, "<defs><radialGradient id=\"sun\"><stop offset=\"0\" stop-color=\"%s\"/>"
		"<stop offset=\"0.7\" stop-color=\"%s\" stop-opacity=\"0.8\"/>"
		"<stop offset=\"1\" stop-color=\"%s\" stop-opacity=\"0\"/></radialGradient></defs>\n"
		"<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"url(#sun)\"/>\n",
		c->pal[3], c->pal[0], c->pal[0], svg_rand(r, c->w / 5, c->w * 4 / 5),
		svg_rand(r, c->h / 6, c->h / 2), svg_rand(r, m / 8, m / 4));
}

static void svg_layer_rays(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int cx = svg_rand(r, 0, c->w), cy = svg_rand(r, 0, c->h / 2);
	int n = svg_rand(r, 8, 16), far = c->w + c->h, start = svg_rand(r, 0, 31);

	for (int i = 0; i < n; i++) {
		int a = (start + i * 32 / n) % 32, b = (a + 1) % 32;

		svg_put(c, "<polygon points=\"%d,%d %d,%d %d,%d\" fill=\"%s\" opacity=\"0.%02d\"/>\n",
			cx, cy, cx + svg_dirs[a][0] * far / 1024, cy + svg_dirs[a][1] * far / 1024,
			cx + svg_dirs[b][0] * far / 1024, cy + svg_dirs[b][1] * far / 1024,
			c->pal[i % 5], svg_rand(r, 8, 22));
	}
}

static void svg_layer_orbs(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int n = svg_rand(r, 4, 9), m = svg_min(c->w, c->h);

	svg_put(c, "<defs>");
	for (int i = 0; i < n; i++)
		svg_put(c, "<radialGradient id=\"o%d\" cx=\"%d%%\" cy=\"%d%%\"><stop offset=\"0\" "
			"stop-color=\"%s\"/><stop offset=\"1\" stop-color=\"%s\" stop-opacity=\"0.2\"/>"
			"</radialGradient>", i, svg_rand(r, 25, 45), svg_rand(r, 25, 45),
			c->pal[(i + 3) % 5], c->pal[i % 5]);
	svg_put(c, "</defs>\n");
	for (int i = 0; i < n; i++)
		svg_put(c, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"url(#o%d)\" opacity=\"0.%02d\"/>\n",
			svg_rand(r, 0, c->w), svg_rand(r, 0, c->h), svg_rand(r, m / 20, m * 28 / 100), i,
			svg_rand(r, 35, 85));
}

static void svg_layer_rings(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int m = svg_min(c->w, c->h), n = svg_rand(r, 3, 7);
	int cx = svg_rand(r, c->w / 5, c->w * 4 / 5), cy = svg_rand(r, c->h / 5, c->h * 4 / 5);
	int step = svg_rand(r, m / 30 + 1, m / 12 + 2);

	for (int i = 1; i <= n; i++)
		svg_put(c, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"%d\" opacity=\"0.%02d\"/>\n", cx, cy, step * i * 2, c->pal[i % 5],
			svg_rand(r, 1, m / 60 + 2), svg_rand(r, 30, 80));
}

static void svg_layer_grid(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int cols = svg_rand(r, 6, 12), cell = c->w / cols, rows = c->h / (cell ? cell : 1);
	int shape = svg_rand(r, 0, 2);

	for (int y = 0; y < rows && y < 16; y++) {
		for (int x = 0; x < cols; x++) {
			int cx = x * cell + cell / 2, cy = y * cell + cell / 2;
			int s = cell * svg_rand(r, 15, 35) / 100;

			if (svg_rand(r, 0, 9) < 4)
				continue;
			if (shape == 0)
				svg_put(c, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" ", cx - s, cy - s,
					2 * s, 2 * s);
			else if (shape == 1)
				svg_put(c, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" ", cx, cy, s);
			else
				svg_put(c, "<polygon points=\"%d,%d %d,%d %d,%d %d,%d\" ", cx, cy - s, cx + s,
					cy, cx, cy + s, cx - s, cy);
			svg_put(c, "fill=\"%s\" opacity=\"0.%02d\"/>\n", c->pal[(x + y) % 5],
				svg_rand(r, 20, 70));
		}
	}
}

static void svg_layer_shards(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int n = svg_rand(r, 5, 10), m = svg_min(c->w, c->h);

	for (int i = 0; i < n; i++) {
		int cx = svg_rand(r, 0, c->w), cy = svg_rand(r, 0, c->h);
		int s = svg_rand(r, m / 12, m / 4), k = svg_rand(r, 3, 5), a = svg_rand(r, 0, 31);

		svg_put(c, "<polygon points=\"");
		for (int j = 0; j < k; j++) {
			int d = (a + j * 32 / k + svg_rand(r, 0, 3)) % 32, len = s * svg_rand(r, 50, 100) / 100;

			svg_put(c, "%s%d,%d", j ? " " : "", cx + svg_dirs[d][0] * len / 1024,
				cy + svg_dirs[d][1] * len / 1024);
		}
		svg_put(c, "\" fill=\"%s\" opacity=\"0.%02d\" stroke=\"%s\" stroke-width=\"%d\"/>\n",
			c->pal[i % 5], svg_rand(r, 40, 80), c->bg[2], svg_rand(r, 0, 3));
	}
}

static void svg_layer_ridges(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int layers = svg_rand(r, 2, 4);

	for (int l = 0; l < layers; l++) {
		int base = c->h * (45 + l * 40 / layers) / 100, k = svg_rand(r, 5, 9);

		svg_put(c, "<polygon points=\"0,%d", c->h);
		for (int j = 0; j <= k; j++)
			svg_put(c, " %d,%d", c->w * j / k, base + svg_rand(r, -c->h / 8, c->h / 10));
		svg_put(c, " %d,%d\" fill=\"%s\" opacity=\"0.%02d\"/>\n", c->w, c->h, c->pal[(l + 2) % 5],
			svg_rand(r, 70, 95));
	}
}

static void svg_layer_waves(struct svg_ctx *c)
{
	struct svg_rng *r = &c->rng;
	int n = svg_rand(r, 2, 4);

	for (int i = 0; i < n; i++) {
		int y = c->h * svg_rand(r, 50 + i * 10, 65 + i * 10) / 100;
		int amp = c->h * svg_rand(r, 3, 10) / 100, waves = svg_rand(r, 1, 4);
		int half = c->w / (2 * waves) + 1;

		svg_put(c, "<path d=\"M0,%d Q%d,%d %d,%d", y, half / 2, y - amp, half, y);
		for (int x = 2 * half; x <= c->w + half; x += half)
			svg_put(c, " T%d,%d", x, y);
		svg_put(c, " L%d,%d L0,%d Z\" fill=\"%s\" opacity=\"0.%02d\"/>\n", c->w + half, c->h, c->h,
			c->pal[(i + 1) % 5], svg_rand(r, 45, 80));
	}
}

typedef void (*svg_layer_fn)(struct svg_ctx *c);

/* In drawing order: far things first. */
static const svg_layer_fn svg_layers[] = {
	svg_layer_sun, svg_layer_rays, svg_layer_orbs, svg_layer_rings,
	svg_layer_grid, svg_layer_shards, svg_layer_ridges, svg_layer_waves,
};

#define SVG_NLAYERS (sizeof svg_layers / sizeof svg_layers[0])

/* The background and two or three layers the hash picks. */
static void svg_scene(struct svg_ctx *c)
{
	int pick[SVG_NLAYERS] = { 0 };
	int n = svg_rand(&c->rng, 2, 3);

	for (int i = 0; i < n; i++) {
		int k = svg_rand(&c->rng, 0, (int)SVG_NLAYERS - 1);

		while (pick[k])
			k = (k + 1) % (int)SVG_NLAYERS;
		pick[k] = 1;
	}
	svg_background(c);
	for (size_t i = 0; i < SVG_NLAYERS; i++)
		if (pick[i])
			svg_layers[i](c);
	svg_put(c, "<rect width=\"%d\" height=\"%d\" fill=\"url(#vg)\"/>\n", c->w, c->h);
}


/* ---- text ---- */

static void svg_add(struct svg_ctx *c, const char *s, size_t n)
{
	if (c->rc == 0 && buf_add(c->out, s, n) < 0)
		c->rc = -1;
}

/* The code point at s (into *cp) and its length; 0 for an invalid,
 * overlong or surrogate sequence. */
static size_t svg_utf8(const unsigned char *s, size_t len, uint32_t *cp)
{
	uint32_t v;
	size_t n = text_utf8_next(s, s + len, &v);

	if (v == TEXT_CP_BAD)
		return 0;
	*cp = v;
	return n;
}

/* Appends s[0, len) as XML character data or attribute text: the five
 * special characters as entities, line breaks as spaces, other control
 * characters, non-characters and invalid bytes left out; at most max
 * characters, then an ellipsis. */
static void svg_escape(struct svg_ctx *c, const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n, chars = 0;
	uint32_t cp;

	while (i < len) {
		n = svg_utf8(u + i, len - i, &cp);
		if (n == 0) {
			i++;
			continue;
		}
		if (chars++ == max) {
			svg_add(c, "\xe2\x80\xa6", 3);
			return;
		}
		if (cp == '&')
			svg_add(c, "&amp;", 5);
		else if (cp == '<')
			svg_add(c, "&lt;", 4);
		else if (cp == '>')
			svg_add(c, "&gt;", 4);
		else if (cp == '"')
			svg_add(c, "&quot;", 6);
		else if (cp == '\'')
			svg_add(c, "&apos;", 6);
		else if (cp == '\n' || cp == '\r' || cp == '\t')
			svg_add(c, " ", 1);
		else if (cp >= 0x20 && cp != 0x7F && cp != 0xFFFE && cp != 0xFFFF)
			svg_add(c, s + i, n);
		i += n;
	}
}

static int svg_is_sep(const char *s, size_t *n)
{
	static const char *const wide[] = { "，", "。", "；", "：", "！", "？", "、" };

	*n = 1;
	if (*s && strchr(",.;:!?|\n\r", *s))
		return 1;
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (strncmp(s, wide[i], strlen(wide[i])) == 0) {
			*n = strlen(wide[i]);
			return 1;
		}
	return 0;
}

/* The caption: the prompt's first clause, trimmed. */
static void svg_caption_span(const char *p, size_t *a, size_t *b)
{
	size_t i = 0, n;

	while (p[i] && (p[i] == ' ' || svg_is_sep(p + i, &n)))
		i += p[i] == ' ' ? 1 : n;
	*a = i;
	while (p[i] && !svg_is_sep(p + i, &n))
		i++;
	while (i > *a && p[i - 1] == ' ')
		i--;
	*b = i;
}

#define SVG_CAPTION_CHARS 24

static void svg_caption(struct svg_ctx *c, const char *prompt)
{
	size_t a, b, chars = 0;
	int m = svg_min(c->w, c->h), font = m / 16, tenths = 0;

	svg_caption_span(prompt, &a, &b);
	if (b <= a)
		return;
	/* Width in tenths of an em: Latin letters about 0.6, CJK 1. */
	for (size_t i = a; i < b && chars < SVG_CAPTION_CHARS + 1; i++) {
		if (((unsigned char)prompt[i] & 0xC0) == 0x80)
			continue;
		chars++;
		tenths += (unsigned char)prompt[i] < 0x80 ? 6 : 10;
	}
	if (font > 96)
		font = 96;
	if (tenths * font / 10 > c->w * 9 / 10)
		font = c->w * 9 / tenths;
	if (font < 8)
		font = 8;
	svg_put(c, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#000000\" "
		"fill-opacity=\"0.38\"/>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
		"font-family=\"'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif\" "
		"font-size=\"%d\" fill=\"#ffffff\">", c->h - font * 2, c->w, font * 2, c->w / 2,
		c->h - font * 2 / 3, font);
	svg_escape(c, prompt + a, b - a, SVG_CAPTION_CHARS);
	svg_put(c, "</text>\n");
}

/* A badge in the top left corner, so that a downloaded or shared picture
 * says what it is: a preview drawn without an image model. In the
 * prompt's language. */
static void svg_badge(struct svg_ctx *c, const char *prompt)
{
	int zh = strcmp(text_lang(prompt), "zh") == 0;
	int font = svg_min(c->w, c->h) / 40, pad, w;

	if (font < 8)
		font = 8;
	pad = font / 2;
	/* 4 Han letters at 1 em, or 15 Latin letters at about 0.6 em. */
	w = zh ? font * 4 + pad * 2 : font * 9 + pad * 2;
	svg_put(c, "<g aria-hidden=\"true\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"rx=\"%d\" fill=\"#000000\" fill-opacity=\"0.45\"/>\n<text x=\"%d\" y=\"%d\" "
		"font-family=\"'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif\" "
		"font-size=\"%d\" fill=\"#ffffff\">%s</text></g>\n", pad, pad, w, font + pad * 2, pad,
		pad * 2, pad * 2 + font * 9 / 10, font, zh ? "离线预览" : "Offline preview");
}

/* ---- documents ---- */

static int svg_side(int v)
{
	if (v <= 0)
		return 1024;
	return v < SVG_MIN_SIDE ? SVG_MIN_SIDE : v > SVG_MAX_SIDE ? SVG_MAX_SIDE : v;
}

static void svg_begin(struct svg_ctx *c, struct buf *out, const char *prompt, int w, int h)
{
	memset(c, 0, sizeof *c);
	c->out = out;
	c->w = svg_side(w);
	c->h = svg_side(h);
	if (sodium_init() < 0)
		c->rc = -1;
	svg_rng_init(&c->rng, prompt);
	svg_palette(c, prompt);
	svg_put(c, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", c->w, c->h, c->w, c->h);
	svg_escape(c, prompt, strlen(prompt), 200);
	svg_put(c, "</title>\n");
}

int svg_render(const char *prompt, int width, int height, struct buf *out)
{
	return svg_render_palette(prompt, width, height, NULL, 0, out);
}

int svg_render_palette(const char *prompt, int width, int height, const unsigned char (*rgb)[3],
		       int ncolours, struct buf *out)
{
	struct svg_ctx c;

	if (prompt == NULL)
		prompt = "";
	svg_begin(&c, out, prompt, width, height);
	if (rgb && ncolours > 0)
		svg_palette_ref(&c, rgb, ncolours);
	svg_scene(&c);
	svg_caption(&c, prompt);
	svg_badge(&c, prompt);
	svg_put(&c, "</svg>\n");
	return c.rc;
}

static const char *const svg_mimes[] = {
	"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/svg+xml",
};

static const char *svg_mime_canon(const char *mime)
{
	for (size_t i = 0; mime && i < sizeof svg_mimes / sizeof svg_mimes[0]; i++)
		if (strcasecmp(mime, svg_mimes[i]) == 0)
			return svg_mimes[i];
	return NULL;
}

int svg_mime_ok(const char *mime)
{
	return svg_mime_canon(mime) != NULL;
}

/* An <image> filling the canvas, its bytes as a base64 data: URI, encoded
 * in slices so no second copy of a large image is made. */
static void svg_image(struct svg_ctx *c, const unsigned char *p, size_t len, const char *mime)
{
	char b64[sodium_base64_ENCODED_LEN(3 * 1024, sodium_base64_VARIANT_ORIGINAL)];
	size_t n;

	svg_put(c, "<image x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"none\" "
		"xlink:href=\"data:%s;base64,", c->w, c->h, mime);
	for (size_t i = 0; i < len && c->rc == 0; i += n) {
		n = len - i < 3 * 1024 ? len - i : 3 * 1024;
		sodium_bin2base64(b64, sizeof b64, p + i, n, sodium_base64_VARIANT_ORIGINAL);
		svg_add(c, b64, strlen(b64));
	}
	svg_put(c, "\"/>\n");
}

int svg_inpaint(const char *prompt, const unsigned char *base, size_t base_len,
		const char *base_mime, const unsigned char *mask, size_t mask_len,
		const char *mask_mime, int width, int height, struct buf *out,
		char *err, size_t errlen)
{
	const char *bm = svg_mime_canon(base_mime), *mm = svg_mime_canon(mask_mime);
	struct svg_ctx c;

	if (bm == NULL || base_len == 0) {
		snprintf(err, errlen, "the base image cannot be embedded (%s)",
			 base_len == 0 ? "empty" : "unsupported media type");
		return -1;
	}
	if (mm == NULL || mask_len == 0) {
		snprintf(err, errlen, "the mask cannot be embedded (%s)",
			 mask_len == 0 ? "empty" : "unsupported media type");
		return -1;
	}
	if (prompt == NULL)
		prompt = "";
	svg_begin(&c, out, prompt, width, height);
	svg_put(&c, "<defs><mask id=\"mask\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" "
		"width=\"%d\" height=\"%d\">\n", c.w, c.h);
	svg_image(&c, mask, mask_len, mm);
	svg_put(&c, "</mask></defs>\n");
	svg_image(&c, base, base_len, bm);
	svg_put(&c, "<g mask=\"url(#mask)\">\n");
	svg_scene(&c);
	svg_put(&c, "</g>\n</svg>\n");
	if (c.rc)
		snprintf(err, errlen, "the picture passed its size cap");
	return c.rc;
}
