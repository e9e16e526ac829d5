/* What a reference image tells without a vision model: its media type,
 * byte size and pixel size (PNG IHDR, JPEG SOF, GIF, WebP VP8/VP8L/VP8X,
 * SVG width/height or viewBox), and, where the pixels can be read here,
 * its dominant colours, brightness, saturation and warmth: PNG (read by
 * libpng through pngio.c, row by row, every colour type and depth,
 * within the caller's limits) and SVG (the colours its source names). JPEG, GIF
 * and WebP pixels would need their decoders; their analysis says so. The
 * result is labelled metadata-only: it never claims to see what the
 * picture shows. */
#include "config.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/pngio.h"
#include "util/xmalloc.h"
#include "wf/note.h"
#include "util/jnum.h"

#define NOTE_IMG_MAX_SIDE 20000
#define NOTE_IMG_BINS 4096          /* 4 bits per channel */

static int note_size_ok(long w, long h)
{
	return w > 0 && h > 0 && w <= NOTE_IMG_MAX_SIDE && h <= NOTE_IMG_MAX_SIDE;
}

/* The size as libpng reads it: the one IHDR, in its place, or nothing. */
static int note_png_size(const unsigned char *p, size_t n, int *w, int *h)
{
	static const struct pngio_limits lim = { NOTE_IMG_MAX_SIDE, LLONG_MAX };
	struct pngio_info info;
	char why[160];

	if (n < 8 || memcmp(p, "\x89PNG\r\n\x1a\n", 8) ||
	    pngio_info(p, n, &lim, &info, why, sizeof why) != PNGIO_OK)
		return -1;
	*w = info.w;
	*h = info.h;
	return note_size_ok(*w, *h) ? 0 : -1;
}

/* The first start-of-frame segment (SOF0..SOF15 but DHT, JPG, DAC). */
static int note_jpeg_size(const unsigned char *p, size_t n, int *w, int *h)
{
	size_t i = 2;

	if (n < 4 || p[0] != 0xff || p[1] != 0xd8)
		return -1;
	while (i + 9 < n) {
		unsigned m;
		size_t len;

		if (p[i] != 0xff)
			return -1;
		m = p[i + 1];
		if (m == 0xff) {
			i++;
			continue;
		}
		len = (size_t)p[i + 2] << 8 | p[i + 3];
		if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc) {
			*h = p[i + 5] << 8 | p[i + 6];
			*w = p[i + 7] << 8 | p[i + 8];
			return note_size_ok(*w, *h) ? 0 : -1;
		}
		if (len < 2)
			return -1;
		i += 2 + len;
	}
	return -1;
}

static int note_webp_size(const unsigned char *p, size_t n, int *w, int *h)
{
	if (n < 30 || memcmp(p, "RIFF", 4) || memcmp(p + 8, "WEBP", 4))
		return -1;
	if (memcmp(p + 12, "VP8 ", 4) == 0) {
		*w = (p[26] | p[27] << 8) & 0x3fff;
		*h = (p[28] | p[29] << 8) & 0x3fff;
	} else if (memcmp(p + 12, "VP8L", 4) == 0 && p[20] == 0x2f) {
		uint32_t b = (uint32_t)p[21] | (uint32_t)p[22] << 8 | (uint32_t)p[23] << 16 |
			     (uint32_t)p[24] << 24;

		*w = (int)(b & 0x3fff) + 1;
		*h = (int)((b >> 14) & 0x3fff) + 1;
	} else if (memcmp(p + 12, "VP8X", 4) == 0) {
		*w = (int)(p[24] | p[25] << 8 | p[26] << 16) + 1;
		*h = (int)(p[27] | p[28] << 8 | p[29] << 16) + 1;
	} else {
		return -1;
	}
	return note_size_ok(*w, *h) ? 0 : -1;
}

/* A number attribute of the root <svg ...> element. */
static double note_svg_attr(const char *svg, const char *name)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof pat, " %s=\"", name);
	p = strstr(svg, pat);
	return p ? strtod(p + strlen(pat), NULL) : 0;
}

static int note_svg_size(const unsigned char *p, size_t n, int *w, int *h)
{
	size_t lim = n < 4096 ? n : 4096;
	char *head = xstrndup((const char *)p, lim), *svg = strstr(head, "<svg"), *end;
	double x = 0, y = 0;

	if (svg && (end = strchr(svg, '>')) != NULL) {
		*end = '\0';
		x = note_svg_attr(svg, "width");
		y = note_svg_attr(svg, "height");
		if (x <= 0 || y <= 0) {
			const char *vb = strstr(svg, " viewBox=\"");
			double a, b;

			if (vb && sscanf(vb + 10, "%lf %lf %lf %lf", &a, &b, &x, &y) != 4)
				x = y = 0;
		}
	}
	free(head);
	*w = (int)x;
	*h = (int)y;
	return note_size_ok(*w, *h) ? 0 : -1;
}

int note_img_size(const unsigned char *p, size_t n, int *w, int *h)
{
	*w = *h = 0;
	if (n >= 10 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0)) {
		*w = p[6] | p[7] << 8;
		*h = p[8] | p[9] << 8;
		return note_size_ok(*w, *h) ? 0 : -1;
	}
	if (note_png_size(p, n, w, h) == 0 || note_jpeg_size(p, n, w, h) == 0 ||
	    note_webp_size(p, n, w, h) == 0 || note_svg_size(p, n, w, h) == 0)
		return 0;
	*w = *h = 0;
	return -1;
}

/* ---- colours ---- */

struct note_hist {
	uint32_t count[NOTE_IMG_BINS];
	uint64_t sum[NOTE_IMG_BINS][3];
	uint64_t pixels;
	double luma, sat, warm;
};

static void note_hist_add(struct note_hist *hs, unsigned r, unsigned g, unsigned b)
{
	unsigned bin = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4;
	unsigned mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
	unsigned mn = r < g ? (r < b ? r : b) : (g < b ? g : b);

	hs->count[bin]++;
	hs->sum[bin][0] += r;
	hs->sum[bin][1] += g;
	hs->sum[bin][2] += b;
	hs->pixels++;
	hs->luma += (0.299 * r + 0.587 * g + 0.114 * b) / 255.0;
	hs->sat += mx ? (double)(mx - mn) / mx : 0;
	hs->warm += ((double)r - (double)b) / 255.0;
}

/* The most frequent bins, each as its pixels' mean colour. */
static void note_hist_result(struct note_hist *hs, struct note_img_info *out)
{
	out->npalette = 0;
	if (hs->pixels == 0)
		return;
	for (int k = 0; k < NOTE_IMG_PALETTE; k++) {
		unsigned best = 0;

		for (unsigned b = 1; b < NOTE_IMG_BINS; b++)
			if (hs->count[b] > hs->count[best])
				best = b;
		if (hs->count[best] == 0 || (double)hs->count[best] / (double)hs->pixels < 0.01)
			break;
		out->palette[k].r = (unsigned char)(hs->sum[best][0] / hs->count[best]);
		out->palette[k].g = (unsigned char)(hs->sum[best][1] / hs->count[best]);
		out->palette[k].b = (unsigned char)(hs->sum[best][2] / hs->count[best]);
		out->palette[k].share = jnum_round((double)hs->count[best] / (double)hs->pixels, JNUM_SCORE);
		hs->count[best] = 0;
		out->npalette++;
	}
	out->brightness = jnum_round(hs->luma / (double)hs->pixels, JNUM_SCORE);
	out->saturation = jnum_round(hs->sat / (double)hs->pixels, JNUM_SCORE);
	out->warmth = jnum_round(hs->warm / (double)hs->pixels, JNUM_SCORE);
}

/* ---- PNG pixels ---- */

/* Every step-th pixel of every step-th row goes into the histogram;
 * transparent ones are left out. */
struct note_png_sample {
	struct note_hist *hs;
	int step;
};

static int note_png_row(void *ctx, int y, const unsigned char *rgba, int w)
{
	struct note_png_sample *s = ctx;

	if (y % s->step == 0)
		for (int x = 0; x < w; x += s->step)
			if (rgba[x * 4 + 3] >= 128)
				note_hist_add(s->hs, rgba[x * 4], rgba[x * 4 + 1], rgba[x * 4 + 2]);
	return 0;
}

/* out->width and out->height (libpng's, from note_img_size) choose the
 * sampling step before the rows come. */
static int note_png_colours(const unsigned char *p, size_t n, const struct pngio_limits *lim,
			    struct note_img_info *out)
{
	struct note_png_sample s = { xcalloc(1, sizeof *s.hs), 1 };
	uint64_t pixels = (uint64_t)out->width * (uint64_t)out->height;
	struct pngio_info info;
	char why[160];
	int rc;

	while (pixels / ((uint64_t)s.step * (uint64_t)s.step) > 1024 * 1024)
		s.step++;
	memset(&info, 0, sizeof info);
	rc = pngio_read_rows(p, n, lim, &info, note_png_row, &s, why, sizeof why);
	if (rc == PNGIO_E_TOO_LARGE)
		snprintf(out->why, sizeof out->why, "图片太大，未读取像素");
	else if (rc != PNGIO_OK && info.w == 0)
		snprintf(out->why, sizeof out->why, "PNG 文件头不完整或不受支持");
	else if (rc != PNGIO_OK || s.hs->pixels == 0)
		snprintf(out->why, sizeof out->why, "PNG 像素数据无法解压");
	else
		note_hist_result(s.hs, out);
	free(s.hs);
	return out->npalette > 0 ? 0 : -1;
}

/* ---- SVG source colours ---- */

static int note_hex(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* "#rrggbb" or "#rgb" at p (after the '#'); 0 when it is not one. */
static int note_hex_colour(const char *p, const char *end, unsigned rgb[3])
{
	int n = 0, v[6];

	while (n < 7 && p + n < end && note_hex((unsigned char)p[n]) >= 0)
		n++;
	if (n != 6 && n != 3)
		return 0;
	for (int i = 0; i < n; i++)
		v[i] = note_hex((unsigned char)p[i]);
	for (int k = 0; k < 3; k++)
		rgb[k] = n == 6 ? (unsigned)(v[2 * k] * 16 + v[2 * k + 1]) : (unsigned)(v[k] * 17);
	return 1;
}

static int note_svg_colours(const unsigned char *p, size_t n, struct note_img_info *out)
{
	const char *s = (const char *)p, *end = s + n;
	struct note_hist *hs = xcalloc(1, sizeof *hs);
	unsigned rgb[3];

	for (const char *q = s; q < end; q++) {
		/* fill="#..." and stop-color="#...", not #ids in url(#...) or href="#..." */
		if (*q == '#' && q > s && (q[-1] == '"' || q[-1] == '\'' || q[-1] == ':' || q[-1] == ' ') &&
		    !(q - s >= 6 && memcmp(q - 6, "href=", 5) == 0) && note_hex_colour(q + 1, end, rgb))
			note_hist_add(hs, rgb[0], rgb[1], rgb[2]);
	}
	note_hist_result(hs, out);
	free(hs);
	if (out->npalette == 0)
		snprintf(out->why, sizeof out->why, "SVG 源码里没有写明颜色");
	return out->npalette > 0 ? 0 : -1;
}

void note_img_read(const unsigned char *p, size_t n, const char *mime, const struct pngio_limits *lim,
		   struct note_img_info *out)
{
	memset(out, 0, sizeof *out);
	snprintf(out->mime, sizeof out->mime, "%s", mime ? mime : "");
	out->bytes = n;
	out->brightness = out->saturation = -1;
	snprintf(out->method, sizeof out->method, "header");
	note_img_size(p, n, &out->width, &out->height);
	if (strcmp(out->mime, "image/png") == 0) {
		if (note_png_colours(p, n, lim, out) == 0)
			snprintf(out->method, sizeof out->method, "png-pixels");
	} else if (strcmp(out->mime, "image/svg+xml") == 0) {
		if (note_svg_colours(p, n, out) == 0)
			snprintf(out->method, sizeof out->method, "svg-source");
	} else {
		snprintf(out->why, sizeof out->why, "%s 的像素需要对应的解码器，只读取了文件头",
			 *out->mime ? out->mime : "这种格式");
	}
}

/* ---- the analysis ---- */

static const char *note_aspect(int w, int h, char *buf, size_t n)
{
	static const struct { const char *name; double r; } known[] = {
		{ "3:4", 0.75 }, { "9:16", 0.5625 }, { "2:3", 2.0 / 3 }, { "1:1", 1.0 },
		{ "4:3", 4.0 / 3 }, { "3:2", 1.5 }, { "16:9", 16.0 / 9 },
	};
	double r;

	if (w <= 0 || h <= 0)
		return NULL;
	r = (double)w / h;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (r > known[i].r * 0.97 && r < known[i].r * 1.03)
			return known[i].name;
	snprintf(buf, n, "%.2f:1", r);
	return buf;
}

static json_t *note_style_tokens(const struct note_img_info *in, json_t *hexes)
{
	const char *mood = "柔和自然", *light = "均匀光";
	json_t *kw = json_array();

	if (in->npalette == 0)
		return json_pack("{s:o, s:n, s:n, s:o}", "colorPalette", hexes, "mood", "lighting",
				 "styleKeywords", kw);
	if (in->brightness > 0.65)
		mood = in->saturation > 0.45 ? "明快活泼" : "清新淡雅", light = "高调光";
	else if (in->brightness < 0.35)
		mood = "沉稳暗调", light = "低调光";
	json_array_append_new(kw, json_string(in->warmth > 0.08 ? "暖色调" : in->warmth < -0.08 ? "冷色调"
											 : "中性色调"));
	json_array_append_new(kw, json_string(in->saturation > 0.45 ? "高饱和" : in->saturation < 0.2
					      ? "低饱和" : "中等饱和"));
	return json_pack("{s:o, s:s, s:s, s:o}", "colorPalette", hexes, "mood", mood, "lighting", light,
			 "styleKeywords", kw);
}

static json_t *note_layout_tokens(int w, int h, const char *aspect)
{
	const char *o = w <= 0 ? NULL : w < h * 0.97 ? "portrait" : w > h * 1.03 ? "landscape" : "square";
	const char *hint = o == NULL ? "尺寸未知，按默认 3:4 竖版"
		: strcmp(o, "portrait") == 0 ? "竖版，和信息流的 3:4 封面一致"
		: strcmp(o, "square") == 0 ? "方图，适合做内页或九宫格" : "横版，封面需裁成竖版或上下拼接";

	return json_pack("{s:o, s:o, s:s}", "orientation", o ? json_string(o) : json_null(), "aspect",
			 aspect ? json_string(aspect) : json_null(), "layout", hint);
}

json_t *note_img_analysis(const struct note_img_info *in)
{
	json_t *hexes = json_array(), *pal = json_array(), *j;
	char asp[32], hex[8];
	const char *aspect = note_aspect(in->width, in->height, asp, sizeof asp);

	for (int i = 0; i < in->npalette; i++) {
		snprintf(hex, sizeof hex, "#%02X%02X%02X", in->palette[i].r, in->palette[i].g,
			 in->palette[i].b);
		json_array_append_new(hexes, json_string(hex));
		json_array_append_new(pal, json_pack("{s:s, s:f}", "hex", hex, "share", in->palette[i].share));
	}
	j = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:o}", "analysisMethod", "metadata-only", "source",
		      in->method, "limitations", "未使用视觉模型：只读取了文件格式、尺寸和像素颜色统计，"
		      "画面内容、文字和物体没有识别", "mime", in->mime, "bytes", (json_int_t)in->bytes,
		      "width", in->width > 0 ? json_integer(in->width) : json_null(), "height",
		      in->height > 0 ? json_integer(in->height) : json_null());
	json_object_set_new(j, "palette", pal);
	json_object_set_new(j, "brightness", in->brightness >= 0 ? json_real(in->brightness) : json_null());
	json_object_set_new(j, "saturation", in->saturation >= 0 ? json_real(in->saturation) : json_null());
	json_object_set_new(j, "temperature", in->npalette == 0 ? json_null() : json_string(
		in->warmth > 0.08 ? "warm" : in->warmth < -0.08 ? "cool" : "neutral"));
	json_object_set_new(j, "styleTokens", note_style_tokens(in, hexes));
	json_object_set_new(j, "layoutTokens", note_layout_tokens(in->width, in->height, aspect));
	json_object_set_new(j, "confidence", json_real(in->npalette ? 0.5 : in->width ? 0.3 : 0.1));
	if (*in->why)
		json_object_set_new(j, "colourNote", json_string(in->why));
	return j;
}
