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
#include "media/palette.h"
#include "util/pngio.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "util/jnum.h"

#define NOTE_IMG_MAX_SIDE 20000

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

/* ---- colours (media/palette.c) ---- */

static const char *note_img_why(enum palette_rc rc, const char *mime)
{
	switch (rc) {
	case PALETTE_TOO_LARGE: return "图片太大，未读取像素";
	case PALETTE_BAD_HEADER: return "PNG 文件头不完整或不受支持";
	case PALETTE_BAD_DATA: return "PNG 像素数据无法解压";
	case PALETTE_NO_COLOUR: return strcmp(mime, "image/svg+xml") == 0 ? "SVG 源码里没有写明颜色"
									   : "图片没有不透明的像素";
	default: return "";
	}
}

void note_img_read(const unsigned char *p, size_t n, const char *mime, const struct pngio_limits *lim,
		   struct note_img_info *out)
{
	struct palette pal;
	enum palette_rc rc;
	char why[160];

	memset(out, 0, sizeof *out);
	snprintf(out->mime, sizeof out->mime, "%s", mime ? mime : "");
	out->bytes = n;
	out->brightness = out->saturation = -1;
	snprintf(out->method, sizeof out->method, "header");
	note_img_size(p, n, &out->width, &out->height);
	if (strcmp(out->mime, "image/png") != 0 && strcmp(out->mime, "image/svg+xml") != 0) {
		snprintf(out->why, sizeof out->why, "%s 的像素需要对应的解码器，只读取了文件头",
			 *out->mime ? out->mime : "这种格式");
		return;
	}
	rc = palette_of(p, n, out->mime, lim, &pal, why, sizeof why);
	if (rc != PALETTE_OK) {
		snprintf(out->why, sizeof out->why, "%s", note_img_why(rc, out->mime));
		return;
	}
	for (int k = 0; k < pal.n && k < NOTE_IMG_PALETTE; k++) {
		out->palette[k].r = pal.rgb[k][0];
		out->palette[k].g = pal.rgb[k][1];
		out->palette[k].b = pal.rgb[k][2];
		out->palette[k].share = jnum_round(pal.share[k], JNUM_SCORE);
		out->npalette++;
	}
	out->brightness = jnum_round(pal.brightness, JNUM_SCORE);
	out->saturation = jnum_round(pal.saturation, JNUM_SCORE);
	out->warmth = jnum_round(pal.warmth, JNUM_SCORE);
	snprintf(out->method, sizeof out->method, strcmp(out->mime, "image/png") == 0 ? "png-pixels"
											: "svg-source");
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
