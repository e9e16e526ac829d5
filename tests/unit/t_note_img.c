/* What note_img.c reads from image bytes, as tables: sizes from PNG,
 * JPEG, GIF, WebP (VP8, VP8L, VP8X) and SVG headers; PNG pixels of every
 * colour type and of bit depths 1 to 16, rows written with each of the
 * five filters (so unfiltering is checked against a known picture);
 * transparent pixels left out; interlaced read, truncated, oversized,
 * doubled-IHDR and garbage input told apart; SVG source colours; and the analysis labelled as
 * metadata-only. The PNGs are made here, with zlib. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tap.h"
#include "util/buf.h"
#include "util/pngio.h"
#include "wf/note/note.h"

/* ---- a small PNG writer ---- */

static void put32(struct buf *b, uint32_t v)
{
	unsigned char p[4] = { v >> 24, v >> 16, v >> 8, v };

	buf_add(b, p, 4);
}

static void chunk(struct buf *b, const char *type, const unsigned char *d, size_t n)
{
	uLong crc = crc32(0, (const Bytef *)type, 4);

	crc = crc32(crc, d, (uInt)n);
	put32(b, (uint32_t)n);
	buf_add(b, type, 4);
	buf_add(b, d, n);
	put32(b, (uint32_t)crc);
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* raw: h rows of rowbytes; row y is written with filter y % 5 when
 * cycle, else 0. unit: bytes per pixel for the filters. */
static void png_make(struct buf *out, int w, int h, int depth, int ctype, int interlace,
		     const unsigned char *raw, size_t rowbytes, int unit, int cycle,
		     const unsigned char *plte, size_t nplte)
{
	unsigned char ihdr[13] = { w >> 24, w >> 16, w >> 8, w, h >> 24, h >> 16, h >> 8, h,
				   (unsigned char)depth, (unsigned char)ctype, 0, 0,
				   (unsigned char)interlace };
	size_t flen = (rowbytes + 1) * (size_t)h;
	unsigned char *f = calloc(flen + 1, 1), *z;
	uLongf zlen = compressBound(flen);

	for (int y = 0; y < h; y++) {
		const unsigned char *row = raw + (size_t)y * rowbytes, *up = y ? row - rowbytes : NULL;
		unsigned char *o = f + (size_t)y * (rowbytes + 1);
		int ft = cycle ? y % 5 : 0;

		o[0] = (unsigned char)ft;
		for (size_t i = 0; i < rowbytes; i++) {
			int a = i >= (size_t)unit ? row[i - unit] : 0, b = up ? up[i] : 0;
			int c = up && i >= (size_t)unit ? up[i - unit] : 0;
			int pred = ft == 1 ? a : ft == 2 ? b : ft == 3 ? (a + b) / 2 : ft == 4 ? paeth(a, b, c) : 0;

			o[1 + i] = (unsigned char)(row[i] - pred);
		}
	}
	z = malloc(zlen);
	compress(z, &zlen, f, flen);
	buf_init(out, 1 << 24);
	buf_add(out, "\x89PNG\r\n\x1a\n", 8);
	chunk(out, "IHDR", ihdr, 13);
	if (plte)
		chunk(out, "PLTE", plte, nplte);
	chunk(out, "IDAT", z, zlen);
	chunk(out, "IEND", (const unsigned char *)"", 0);
	free(f);
	free(z);
}

static const struct pngio_limits lim = { 8192, 64L << 20 };

static void read_png(struct buf *b, struct note_img_info *in)
{
	note_img_read((const unsigned char *)b->data, b->len, "image/png", &lim, in);
}

/* Left half red, right half blue, 8-bit RGB, every filter in turn. */
static void test_rgb_filters(void)
{
	int w = 40, h = 30;
	unsigned char *raw = malloc((size_t)w * 3 * h);
	struct note_img_info in;
	struct buf b;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			unsigned char *p = raw + ((size_t)y * w + x) * 3;

			p[0] = x < w / 2 ? 220 : 30;
			p[1] = x < w / 2 ? 40 : 90;
			p[2] = x < w / 2 ? 50 : 200;
		}
	png_make(&b, w, h, 8, 2, 0, raw, (size_t)w * 3, 3, 1, NULL, 0);
	read_png(&b, &in);
	is_str(in.method, "png-pixels", "RGB with all five filters: pixels read");
	is_int(in.width * 1000 + in.height, 40030, "  ... 40x30");
	is_int(in.npalette, 2, "  ... two colours");
	ok(in.palette[0].share == 0.5 && in.palette[1].share == 0.5, "  ... half each");
	ok((in.palette[0].r == 220 && in.palette[0].g == 40 && in.palette[0].b == 50) ||
	   (in.palette[1].r == 220 && in.palette[1].g == 40 && in.palette[1].b == 50),
	   "  ... the red exactly (unfiltered right)");
	ok((in.palette[0].b == 200 && in.palette[0].r == 30) || (in.palette[1].b == 200 && in.palette[1].r == 30),
	   "  ... the blue exactly");
	buf_free(&b);
	free(raw);
}

struct px_case {
	const char *name;
	int depth, ctype, unit;
	size_t rowbytes;              /* for a 4x2 picture */
	unsigned char rows[2][32];
	const unsigned char *plte;
	size_t nplte;
	int npal;
	unsigned char r, g, b;        /* the first colour */
	double share;
};

static const unsigned char plte2[] = { 10, 200, 10, 250, 250, 0 };

static const struct px_case px_cases[] = {
	{ "gray 8", 8, 0, 1, 4, { { 0, 0, 255, 255 }, { 0, 0, 255, 255 } }, NULL, 0, 2, 0, 0, 0, 0.5 },
	{ "gray 1", 1, 0, 1, 1, { { 0xF0 }, { 0xF0 } }, NULL, 0, 1, 255, 255, 255, 1.0 },
	{ "gray 16", 16, 0, 2, 8, { { 128, 1, 128, 2, 128, 3, 128, 4 }, { 128, 0, 128, 0, 128, 0, 128, 0 } },
	  NULL, 0, 1, 128, 128, 128, 1.0 },
	{ "palette 2-bit", 2, 3, 1, 1, { { 0x55 }, { 0x55 } }, plte2, 6, 1, 250, 250, 0, 1.0 },
	{ "palette 8-bit", 8, 3, 1, 4, { { 0, 0, 0, 1 }, { 0, 0, 0, 0 } }, plte2, 6, 2, 10, 200, 10, 0.88 },
	{ "gray+alpha, half transparent", 8, 4, 2, 8, { { 200, 255, 200, 255, 9, 0, 9, 0 },
	  { 200, 255, 200, 255, 9, 0, 9, 0 } }, NULL, 0, 1, 200, 200, 200, 1.0 },
	{ "RGBA, transparent ignored", 8, 6, 4, 16, { { 1, 2, 3, 255, 1, 2, 3, 255, 9, 9, 9, 0, 9, 9, 9, 0 },
	  { 1, 2, 3, 255, 1, 2, 3, 255, 9, 9, 9, 0, 9, 9, 9, 0 } }, NULL, 0, 1, 1, 2, 3, 1.0 },
	{ "RGB 16", 16, 2, 6, 24, { { 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0,
	  0, 0, 0, 0 }, { 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0 } },
	  NULL, 0, 1, 255, 0, 0, 1.0 },
};

static void test_pixel_formats(void)
{
	for (size_t i = 0; i < sizeof px_cases / sizeof px_cases[0]; i++) {
		const struct px_case *k = &px_cases[i];
		unsigned char raw[64];
		struct note_img_info in;
		struct buf b;

		memcpy(raw, k->rows[0], k->rowbytes);
		memcpy(raw + k->rowbytes, k->rows[1], k->rowbytes);
		png_make(&b, 4, 2, k->depth, k->ctype, 0, raw, k->rowbytes, k->unit, 1, k->plte, k->nplte);
		read_png(&b, &in);
		is_int(in.npalette, k->npal, "%s: %d colour(s)", k->name, k->npal);
		ok(in.npalette > 0 && in.palette[0].r == k->r && in.palette[0].g == k->g &&
		   in.palette[0].b == k->b, "  ... first #%02x%02x%02x (got #%02x%02x%02x)", k->r, k->g,
		   k->b, in.palette[0].r, in.palette[0].g, in.palette[0].b);
		ok(in.npalette > 0 && in.palette[0].share > k->share - 0.02 &&
		   in.palette[0].share < k->share + 0.02, "  ... share %.2f", k->share);
		buf_free(&b);
	}
}

static void test_png_refusals(void)
{
	struct note_img_info in;
	struct buf b;

	struct pngio_limits small = { 8192, 15 };

	/* 2x2 Adam7: passes 1 (1x1), 6 (1x1) and 7 (2x1), each row with its
	 * filter byte. */
	unsigned char passes[15] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3 };
	unsigned char ihdr[13] = { 0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 1 }, z[64];
	uLongf zlen = sizeof z;

	compress(z, &zlen, passes, sizeof passes);
	buf_init(&b, 1 << 20);
	buf_add(&b, "\x89PNG\r\n\x1a\n", 8);
	chunk(&b, "IHDR", ihdr, 13);
	chunk(&b, "IDAT", z, zlen);
	chunk(&b, "IEND", (const unsigned char *)"", 0);
	read_png(&b, &in);
	ok(in.npalette == 1 && in.palette[0].r == 1 && in.width == 2, "interlaced: read whole");
	note_img_read((const unsigned char *)b.data, b.len, "image/png", &small, &in);
	ok(in.npalette == 0 && strstr(in.why, "太大") && in.width == 2,
	   "over the byte limit: size read, pixels not, and why");
	b.len -= 20;
	read_png(&b, &in);
	ok(in.npalette == 0 && in.width == 0, "truncated: refused whole, no size, no colours");
	buf_free(&b);
	note_img_read((const unsigned char *)"\x89PNG\r\n\x1a\n", 8, "image/png", &lim, &in);
	ok(in.npalette == 0 && in.width == 0, "a signature alone: nothing");
	note_img_read((const unsigned char *)"hello", 5, "text/plain", &lim, &in);
	ok(in.npalette == 0 && in.width == 0 && *in.why, "not an image: nothing, and why");
}

struct size_case {
	const char *name;
	const unsigned char *bytes;
	size_t len;
	int w, h, rc;
};

static const unsigned char jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46, 0xff, 0xdb, 0x00,
	0x03, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x05, 0xa0, 0x04, 0x38, 0x03, 0x01, 0x22, 0x00, 0x02,
	0x11, 0x01, 0x03, 0x11, 0x01 };
static const unsigned char gif[] = "GIF89a\x40\x01\xf0\x00\x00\x00";
static const unsigned char vp8[] = "RIFF\0\0\0\0WEBPVP8 \0\0\0\0\0\0\0\x9d\x01\x2a\x80\x02\xe0\x01";
static const unsigned char vp8l[] = "RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f\x3f\xc0\x3f\x00\0\0\0\0\0";
static const unsigned char vp8x[] = "RIFF\0\0\0\0WEBPVP8X\0\0\0\0\0\0\0\0\x37\x04\0\xff\x05\0";
static const unsigned char svg1[] = "<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\" "
	"width=\"768\" height=\"1024\"><rect fill=\"#ff0000\"/></svg>";
static const unsigned char svg2[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 300 200\"/>";
static const unsigned char jbad[] = { 0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0x00 };

static const struct size_case size_cases[] = {
	{ "JPEG SOF0 after APP0 and DQT", jpeg, sizeof jpeg, 1080, 1440, 0 },
	{ "GIF", gif, sizeof gif - 1, 320, 240, 0 },
	{ "WebP VP8", vp8, sizeof vp8 - 1, 640, 480, 0 },
	{ "WebP VP8L", vp8l, sizeof vp8l - 1, 64, 256, 0 },
	{ "WebP VP8X", vp8x, sizeof vp8x - 1, 1080, 1536, 0 },
	{ "SVG width/height", svg1, sizeof svg1 - 1, 768, 1024, 0 },
	{ "SVG viewBox", svg2, sizeof svg2 - 1, 300, 200, 0 },
	{ "JPEG with a broken segment", jbad, sizeof jbad, 0, 0, -1 },
	{ "empty", (const unsigned char *)"", 0, 0, 0, -1 },
};

/* The PNG size is libpng's: the one IHDR where it belongs. A first IHDR
 * of 300x1 and a later one of 1x1 is no size at all (the header parser
 * took the first, the pixel reader sized its rows by the last). */
static void test_png_sizes(void)
{
	unsigned char raw[3] = { 9, 9, 9 }, big[13] = { 0, 0, 0x01, 0x2c, 0, 0, 0, 1, 8, 2, 0, 0, 0 };
	struct buf b, two;
	int w = -1, h = -1;

	png_make(&b, 1, 1, 8, 2, 0, raw, 3, 3, 0, NULL, 0);
	is_int(note_img_size((unsigned char *)b.data, b.len, &w, &h), 0, "PNG 1x1: read");
	is_int(w * 10000 + h, 10001, "  ... 1x1");
	buf_init(&two, 1 << 20);
	buf_add(&two, b.data, 8);
	chunk(&two, "IHDR", big, 13);
	buf_add(&two, b.data + 8, b.len - 8);
	is_int(note_img_size((unsigned char *)two.data, two.len, &w, &h), -1,
	       "PNG with IHDR 300x1 then IHDR 1x1: no size");
	buf_free(&b);
	buf_free(&two);
}

static void test_sizes(void)
{
	for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++) {
		const struct size_case *k = &size_cases[i];
		int w = -1, h = -1, rc = note_img_size(k->bytes, k->len, &w, &h);

		is_int(rc, k->rc, "%s: %s", k->name, k->rc ? "unknown" : "read");
		is_int(w * 10000 + h, k->w * 10000 + k->h, "  ... %dx%d", k->w, k->h);
	}
}

static void test_svg_and_analysis(void)
{
	static const char svg[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"30\" height=\"40\">"
		"<rect fill=\"#FF0000\"/><rect fill=\"#ff0000\"/><circle style=\"fill:#f00\"/>"
		"<use href=\"#abc\"/><rect fill=\"#0000ff\"/></svg>";
	struct note_img_info in;
	json_t *j;

	note_img_read((const unsigned char *)svg, strlen(svg), "image/svg+xml", &lim, &in);
	is_str(in.method, "svg-source", "SVG: colours from its source");
	ok(in.npalette == 2 && in.palette[0].r == 255 && in.palette[0].share == 0.75,
	   "  ... red three times of four, #abc (a reference) not a colour");
	j = note_img_analysis(&in);
	is_str(json_string_value(json_object_get(j, "analysisMethod")), "metadata-only",
	       "the analysis says it is metadata-only");
	ok(strstr(json_string_value(json_object_get(j, "limitations")), "视觉模型") != NULL,
	   "  ... and that no vision model was used");
	is_str(json_string_value(json_object_get(json_object_get(j, "layoutTokens"), "aspect")), "3:4",
	       "  ... aspect 3:4");
	is_str(json_string_value(json_object_get(json_object_get(j, "layoutTokens"), "orientation")),
	       "portrait", "  ... portrait");
	is_str(json_string_value(json_array_get(json_object_get(json_object_get(j, "styleTokens"),
								 "colorPalette"), 0)), "#FF0000",
	       "  ... palette in hex");
	is_str(json_string_value(json_object_get(j, "temperature")), "warm", "  ... warm");
	json_decref(j);
	note_img_read(jpeg, sizeof jpeg, "image/jpeg", &lim, &in);
	j = note_img_analysis(&in);
	ok(json_integer_value(json_object_get(j, "width")) == 1080 && json_object_get(j, "colourNote") &&
	   json_is_null(json_object_get(j, "brightness")),
	   "JPEG: size known, no colours, and a note saying why");
	json_decref(j);
}

int main(void)
{
	test_rgb_filters();
	test_pixel_formats();
	test_png_refusals();
	test_sizes();
	test_png_sizes();
	test_svg_and_analysis();
	return tap_done();
}
