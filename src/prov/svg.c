/* Deterministic SVG pictures (see svg.h): the document around a scene
 * (scene_draw.c) — its size, its title, a badge saying it is an offline
 * preview — and, for an inpainting, the base image and the mask the new
 * scene is drawn through. A BLAKE2b hash of the prompt and a seed
 * (libsodium's crypto_generichash) seeds the generator the scene draws
 * its composition from, so the bytes are the same on every machine. */
#include "config.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sodium.h>
#include "prov/svg.h"
#include "prov/svg_int.h"
#include "util/xmalloc.h"
#include "text/script.h"
#include "text/words.h"

/* Seed 0 is the prompt's own picture; another seed, another composition. */
static void svg_rng_init(struct svg_rng *r, const char *prompt, unsigned seed)
{
	crypto_generichash_state st;
	unsigned char s[4] = { (unsigned char)seed, (unsigned char)(seed >> 8),
			       (unsigned char)(seed >> 16), (unsigned char)(seed >> 24) };

	crypto_generichash_init(&st, NULL, 0, sizeof r->seed);
	crypto_generichash_update(&st, (const unsigned char *)prompt, strlen(prompt));
	if (seed)
		crypto_generichash_update(&st, s, sizeof s);
	crypto_generichash_final(&st, r->seed, sizeof r->seed);
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
int svg_rand(struct svg_rng *r, int lo, int hi)
{
	uint32_t v = 0;

	if (hi <= lo)
		return lo;
	for (int i = 0; i < 4; i++)
		v = v << 8 | svg_rng_byte(r);
	return lo + (int)(v % (uint32_t)(hi - lo + 1));
}

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
void svg_put(struct svg_ctx *c, const char *fmt, ...)
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

/* "#rrggbb" of three components in [0, 255], as "#%02x%02x%02x" wrote it. */
void svg_hex(char out[8], int r, int g, int b)
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

static int svg_min(int a, int b)
{
	return a < b ? a : b;
}

/* ---- text ---- */

void svg_add(struct svg_ctx *c, const char *s, size_t n)
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
void svg_escape(struct svg_ctx *c, const char *s, size_t len, size_t max)
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

/* A badge in the top left corner, so that a downloaded or shared picture
 * says what it is: a preview drawn without an image model. In the
 * language of the request's own words (the prompt may add English style
 * words to a Chinese request). */
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

static void svg_begin(struct svg_ctx *c, struct buf *out, const char *prompt, int w, int h,
		      const struct svg_opts *o)
{
	memset(c, 0, sizeof *c);
	c->out = out;
	c->w = svg_side(w);
	c->h = svg_side(h);
	c->lang = strcmp(text_lang(prompt), "zh") == 0 ? "zh" : "en";
	if (sodium_init() < 0)
		c->rc = -1;
	svg_rng_init(&c->rng, o->subject ? o->subject : prompt, o->seed);
	svg_put(c, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", c->w, c->h, c->w, c->h);
	svg_escape(c, prompt, strlen(prompt), 200);
	svg_put(c, "</title>\n");
}

int svg_render(const char *prompt, int width, int height, struct buf *out)
{
	return svg_render_opts(prompt, width, height, NULL, out);
}

int svg_render_palette(const char *prompt, int width, int height, const unsigned char (*rgb)[3],
		       int ncolours, struct buf *out)
{
	struct svg_opts o = { 0 };

	o.rgb = rgb;
	o.ncolours = rgb ? ncolours : 0;
	return svg_render_opts(prompt, width, height, &o, out);
}

int svg_render_opts(const char *prompt, int width, int height, const struct svg_opts *o,
		    struct buf *out)
{
	static const struct svg_opts none;
	struct svg_ctx c;

	if (prompt == NULL)
		prompt = "";
	if (o == NULL)
		o = &none;
	svg_begin(&c, out, prompt, width, height, o);
	scene_draw(&c, prompt, o->subject, o->rgb, o->ncolours, NULL);
	svg_badge(&c, o->subject && *o->subject ? o->subject : prompt);
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

/* The mask's box (in the mask's pixels) in the picture's, which the mask
 * is stretched over. */
static void svg_box(const struct svg_ctx *c, const struct svg_opts *o, struct scene_box *box)
{
	if (o->mask_w <= 0 || o->mask_h <= 0 || o->box_w <= 0 || o->box_h <= 0)
		return;
	box->set = 1;
	box->x = (int)((long long)o->box_x * c->w / o->mask_w);
	box->y = (int)((long long)o->box_y * c->h / o->mask_h);
	box->w = (int)((long long)o->box_w * c->w / o->mask_w);
	box->h = (int)((long long)o->box_h * c->h / o->mask_h);
	if (box->w < 1)
		box->w = 1;
	if (box->h < 1)
		box->h = 1;
}

int svg_inpaint(const char *prompt, const unsigned char *base, size_t base_len,
		const char *base_mime, const unsigned char *mask, size_t mask_len,
		const char *mask_mime, int width, int height, const struct svg_opts *o,
		struct buf *out, char *err, size_t errlen)
{
	static const struct svg_opts none;
	struct scene_box box = { 0 };
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
	if (o == NULL)
		o = &none;
	svg_begin(&c, out, prompt, width, height, o);
	svg_box(&c, o, &box);
	svg_put(&c, "<defs><mask id=\"mask\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" "
		"width=\"%d\" height=\"%d\">\n", c.w, c.h);
	svg_image(&c, mask, mask_len, mm);
	svg_put(&c, "</mask></defs>\n");
	svg_image(&c, base, base_len, bm);
	svg_put(&c, "<g mask=\"url(#mask)\">\n");
	scene_draw(&c, prompt, o->subject, o->rgb, o->ncolours, &box);
	svg_put(&c, "</g>\n</svg>\n");
	if (c.rc)
		snprintf(err, errlen, "the picture passed its size cap");
	return c.rc;
}
