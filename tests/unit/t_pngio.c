/* PNG in and out through libpng (pngio.c), as tables: every colour type
 * and depth libpng can write, interlaced or not, read back as the RGBA
 * the samples mean; an RGBA round trip; malformed files built here chunk
 * by chunk (two IHDR, IHDR after IDAT, bad CRCs, truncated IDAT, huge
 * and zero sizes, a palette without PLTE, bad depths, not a PNG) refused
 * with a reason and nothing on stderr; lying chunk lengths (the 44-byte
 * file whose tEXt declares 2 GB, lengths over 2^31-1, one byte past the
 * end), files cut before IEND and bad CRCs in critical chunks refused by
 * every entry point at once, without memory, while ancillary chunks after
 * IDAT, bytes after IEND and what libpng merely complains about are read,
 * and ancillary chunks over 1 MiB (declared or inflated) are not; the
 * limits checked before any row is read. */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <png.h>
#include <zlib.h>
#include "tap.h"
#include "util/pngio.h"

static const struct pngio_limits roomy = { 4096, 64L << 20 };

/* ---- files written by libpng from samples ---- */

struct fmt_case {
	const char *name;
	int ctype, depth, interlace, ntrans;  /* ntrans: palette entries with tRNS alpha */
};

static const struct fmt_case fmt_cases[] = {
	{ "grey 1", PNG_COLOR_TYPE_GRAY, 1, 0, 0 },
	{ "grey 2", PNG_COLOR_TYPE_GRAY, 2, 0, 0 },
	{ "grey 4", PNG_COLOR_TYPE_GRAY, 4, 0, 0 },
	{ "grey 8", PNG_COLOR_TYPE_GRAY, 8, 0, 0 },
	{ "grey 16", PNG_COLOR_TYPE_GRAY, 16, 0, 0 },
	{ "grey+alpha 8", PNG_COLOR_TYPE_GRAY_ALPHA, 8, 0, 0 },
	{ "grey+alpha 16", PNG_COLOR_TYPE_GRAY_ALPHA, 16, 0, 0 },
	{ "RGB 8", PNG_COLOR_TYPE_RGB, 8, 0, 0 },
	{ "RGB 16", PNG_COLOR_TYPE_RGB, 16, 0, 0 },
	{ "RGBA 8", PNG_COLOR_TYPE_RGB_ALPHA, 8, 0, 0 },
	{ "RGBA 16", PNG_COLOR_TYPE_RGB_ALPHA, 16, 0, 0 },
	{ "palette 1", PNG_COLOR_TYPE_PALETTE, 1, 0, 0 },
	{ "palette 2", PNG_COLOR_TYPE_PALETTE, 2, 0, 0 },
	{ "palette 4 with tRNS", PNG_COLOR_TYPE_PALETTE, 4, 0, 5 },
	{ "palette 8 with tRNS", PNG_COLOR_TYPE_PALETTE, 8, 0, 40 },
	{ "grey 4, interlaced", PNG_COLOR_TYPE_GRAY, 4, 1, 0 },
	{ "RGB 8, interlaced", PNG_COLOR_TYPE_RGB, 8, 1, 0 },
	{ "RGBA 16, interlaced", PNG_COLOR_TYPE_RGB_ALPHA, 16, 1, 0 },
	{ "palette 8 with tRNS, interlaced", PNG_COLOR_TYPE_PALETTE, 8, 1, 40 },
};

#define FW 13   /* odd sizes: partial bytes at low depths, every Adam7 pass */
#define FH 11

static int fmt_channels(int ctype)
{
	return ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_PALETTE ? 1
	       : ctype == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : ctype == PNG_COLOR_TYPE_RGB ? 3 : 4;
}

static unsigned fmt_sample(const struct fmt_case *k, int x, int y, int c)
{
	unsigned max = k->depth == 16 ? 65535u : (1u << k->depth) - 1;

	return ((unsigned)x * 7919u + (unsigned)y * 104729u + (unsigned)c * 31337u) % (max + 1);
}

static void fmt_palette(int i, png_color *pc, unsigned char *alpha)
{
	pc->red = (png_byte)(i * 3);
	pc->green = (png_byte)(255 - i);
	pc->blue = (png_byte)(i * 7);
	*alpha = (unsigned char)(255 - i * 6);
}

/* What pngio must give for one pixel: 8 bits a channel, RGBA. */
static void fmt_expect(const struct fmt_case *k, int x, int y, unsigned char out[4])
{
	unsigned v[4];
	int ch = fmt_channels(k->ctype);

	for (int c = 0; c < ch; c++) {
		v[c] = fmt_sample(k, x, y, c);
		if (k->ctype != PNG_COLOR_TYPE_PALETTE)
			v[c] = k->depth == 16 ? v[c] >> 8 : v[c] * 255 / ((1u << k->depth) - 1);
	}
	if (k->ctype == PNG_COLOR_TYPE_PALETTE) {
		png_color pc;
		unsigned char a;

		fmt_palette((int)v[0], &pc, &a);
		out[0] = pc.red, out[1] = pc.green, out[2] = pc.blue;
		out[3] = (int)v[0] < k->ntrans ? a : 255;
	} else if (ch <= 2) {
		out[0] = out[1] = out[2] = (unsigned char)v[0];
		out[3] = ch == 2 ? (unsigned char)v[1] : 255;
	} else {
		out[0] = (unsigned char)v[0], out[1] = (unsigned char)v[1], out[2] = (unsigned char)v[2];
		out[3] = ch == 4 ? (unsigned char)v[3] : 255;
	}
}

/* Packs row y as stored: high bits first below 8, big-endian at 16. */
static void fmt_row(const struct fmt_case *k, int y, unsigned char *row, size_t rowbytes)
{
	int ch = fmt_channels(k->ctype);

	memset(row, 0, rowbytes);
	for (int x = 0; x < FW; x++)
		for (int c = 0; c < ch; c++) {
			unsigned v = fmt_sample(k, x, y, c);
			size_t i = (size_t)x * (size_t)ch + (size_t)c;

			if (k->depth == 16) {
				row[i * 2] = (unsigned char)(v >> 8);
				row[i * 2 + 1] = (unsigned char)v;
			} else if (k->depth == 8) {
				row[i] = (unsigned char)v;
			} else {
				size_t bit = i * (size_t)k->depth;

				row[bit / 8] |= (unsigned char)(v << (8 - k->depth - bit % 8));
			}
		}
}

static void fmt_write_cb(png_structp png, png_bytep d, size_t n)
{
	buf_add(png_get_io_ptr(png), d, n);
}

static void fmt_flush_cb(png_structp png)
{
	(void)png;
}

static void fmt_write(const struct fmt_case *k, struct buf *out)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	size_t rowbytes = ((size_t)FW * (size_t)fmt_channels(k->ctype) * (size_t)k->depth + 7) / 8;
	unsigned char *row = malloc(rowbytes);
	png_color plte[256];
	unsigned char trans[256];

	buf_init(out, 1 << 20);
	if (setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "libpng could not write %s\n", k->name);
		exit(99);
	}
	png_set_write_fn(png, out, fmt_write_cb, fmt_flush_cb);
	png_set_IHDR(png, info, FW, FH, k->depth, k->ctype, k->interlace ? PNG_INTERLACE_ADAM7
		     : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (k->ctype == PNG_COLOR_TYPE_PALETTE) {
		for (int i = 0; i < (1 << k->depth); i++)
			fmt_palette(i, &plte[i], &trans[i]);
		png_set_PLTE(png, info, plte, 1 << k->depth);
		if (k->ntrans)
			png_set_tRNS(png, info, trans, k->ntrans, NULL);
	}
	png_write_info(png, info);
	for (int pass = png_set_interlace_handling(png); pass > 0; pass--)
		for (int y = 0; y < FH; y++) {
			fmt_row(k, y, row, rowbytes);
			png_write_row(png, row);
		}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
}

static int fmt_check(const struct fmt_case *k, const struct pngio_image *img)
{
	for (int y = 0; y < FH; y++)
		for (int x = 0; x < FW; x++) {
			unsigned char want[4];
			const unsigned char *got = img->rgba + ((size_t)y * FW + (size_t)x) * 4;

			fmt_expect(k, x, y, want);
			if (memcmp(want, got, 4) != 0) {
				printf("# %s at %d,%d: got %u %u %u %u, want %u %u %u %u\n", k->name, x, y,
				       got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
				return 0;
			}
		}
	return 1;
}

/* Rows handed to a callback, kept to compare with the whole image. */
struct rows_seen {
	unsigned char rgba[FW * FH * 4];
	int rows, stop_after;
};

static int rows_keep(void *ctx, int y, const unsigned char *rgba, int w)
{
	struct rows_seen *s = ctx;

	if (w == FW && y >= 0 && y < FH)
		memcpy(s->rgba + (size_t)y * FW * 4, rgba, FW * 4);
	return ++s->rows == s->stop_after;
}

static void test_formats(void)
{
	for (size_t i = 0; i < sizeof fmt_cases / sizeof fmt_cases[0]; i++) {
		const struct fmt_case *k = &fmt_cases[i];
		struct pngio_image img;
		struct pngio_info info;
		struct rows_seen *seen = calloc(1, sizeof *seen);
		struct buf b;
		char why[160];
		int rc;

		fmt_write(k, &b);
		rc = pngio_decode((unsigned char *)b.data, b.len, &roomy, &img, why, sizeof why);
		ok(rc == PNGIO_OK && img.w == FW && img.h == FH && fmt_check(k, &img),
		   "%s: every pixel as RGBA (%s)", k->name, rc ? why : "ok");
		rc = pngio_read_rows((unsigned char *)b.data, b.len, &roomy, &info, rows_keep, seen, why,
				     sizeof why);
		ok(rc == PNGIO_OK && seen->rows == FH && img.rgba &&
		   memcmp(seen->rgba, img.rgba, sizeof seen->rgba) == 0 && info.depth == k->depth &&
		   info.ctype == k->ctype && info.interlaced == k->interlace,
		   "  ... the same row by row, and the header as stored");
		pngio_image_free(&img);
		free(seen);
		buf_free(&b);
	}
}

static void test_round_trip(void)
{
	struct pngio_image img = { 5, 3, NULL }, back;
	struct rows_seen seen = { .stop_after = 2 };
	struct buf out, tiny;
	char why[160];

	img.rgba = malloc(5 * 3 * 4);
	for (int i = 0; i < 5 * 3 * 4; i++)
		img.rgba[i] = (unsigned char)(i * 37 + 11);
	buf_init(&out, 1 << 20);
	is_int(pngio_encode(&img, &out), 0, "RGBA encodes");
	is_int(pngio_decode((unsigned char *)out.data, out.len, &roomy, &back, why, sizeof why), 0,
	       "  ... and decodes");
	ok(back.w == 5 && back.h == 3 && back.rgba && memcmp(back.rgba, img.rgba, 5 * 3 * 4) == 0,
	   "  ... to the same size and pixels");
	pngio_image_free(&back);
	is_int(pngio_read_rows((unsigned char *)out.data, out.len, &roomy, NULL, rows_keep, &seen, why,
			       sizeof why), 0, "a row callback may stop the reading");
	is_int(seen.rows, 2, "  ... after two rows");
	buf_init(&tiny, 40);
	buf_adds(&tiny, "keep");
	is_int(pngio_encode(&img, &tiny), -1, "past the buffer's cap: -1");
	ok(tiny.len == 4 && strcmp(tiny.data, "keep") == 0, "  ... and the buffer as it was");
	buf_free(&tiny);
	buf_free(&out);
	free(img.rgba);
}

/* ---- malformed files, chunk by chunk ---- */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* A chunk with its CRC, damaged on request. */
static void chunk(struct buf *b, const char *type, const unsigned char *d, size_t n, int bad_crc)
{
	unsigned char head[8], crc[4];
	uLong c = crc32(crc32(0, (const Bytef *)type, 4), d, (uInt)n);

	put32(head, (uint32_t)n);
	memcpy(head + 4, type, 4);
	put32(crc, (uint32_t)c ^ (bad_crc ? 1u : 0u));
	buf_add(b, head, 8);
	buf_add(b, d, n);
	buf_add(b, crc, 4);
}

static void ihdr(struct buf *b, uint32_t w, uint32_t h, int depth, int ctype, int interlace, int bad)
{
	unsigned char d[13] = { 0 };

	put32(d, w);
	put32(d + 4, h);
	d[8] = (unsigned char)depth, d[9] = (unsigned char)ctype, d[12] = (unsigned char)interlace;
	chunk(b, "IHDR", d, 13, bad);
}

/* h rows of rowbytes bytes (filter 0, all 0x80), deflated. */
static void idat(struct buf *b, size_t rowbytes, int h, size_t keep, int bad)
{
	size_t n = (rowbytes + 1) * (size_t)h;
	unsigned char *raw = malloc(n), *z;
	uLongf zlen = compressBound(n);

	memset(raw, 0x80, n);
	for (int y = 0; y < h; y++)
		raw[(size_t)y * (rowbytes + 1)] = 0;
	z = malloc(zlen);
	compress(z, &zlen, raw, n);
	chunk(b, "IDAT", z, keep && keep < zlen ? keep : zlen, bad);
	free(raw);
	free(z);
}

enum mal { M_OK, M_TWO_IHDR_BIG, M_TWO_IHDR, M_IHDR_AFTER_IDAT, M_CRC_IHDR, M_CRC_IDAT, M_CUT,
	   M_SHORT_IDAT, M_HUGE, M_OVER_BYTES, M_ZERO_W, M_ZERO_H, M_NO_PLTE, M_BAD_DEPTH, M_16_OVER_8,
	   M_INTERLACED, M_NO_IDAT, M_NOT_PNG, M_SIGNATURE, M_EMPTY };

struct mal_case {
	const char *name;
	enum mal m;
	int rc;
	const char *why;   /* a word the reason has */
};

static const struct mal_case mal_cases[] = {
	{ "a valid 4x4 RGB", M_OK, PNGIO_OK, NULL },
	{ "IHDR 1000000x1, IDAT, IHDR 1x1 (the heap overflow)", M_TWO_IHDR_BIG, PNGIO_E_TOO_LARGE, "wider" },
	{ "IHDR 8x1, then IHDR 4x4", M_TWO_IHDR, PNGIO_E_FORMAT, "IHDR" },
	{ "IHDR after IDAT", M_IHDR_AFTER_IDAT, PNGIO_E_FORMAT, "damaged" },
	{ "bad CRC in IHDR", M_CRC_IHDR, PNGIO_E_FORMAT, "CRC" },
	{ "bad CRC in IDAT", M_CRC_IDAT, PNGIO_E_FORMAT, "CRC" },
	{ "cut inside IDAT", M_CUT, PNGIO_E_FORMAT, "damaged" },
	{ "IDAT holding fewer rows than IHDR says", M_SHORT_IDAT, PNGIO_E_FORMAT, "damaged" },
	{ "2147483647x1", M_HUGE, PNGIO_E_TOO_LARGE, "wider" },
	{ "4000x4000 RGBA 16 (128 MB inflated, 64 MB allowed)", M_OVER_BYTES, PNGIO_E_TOO_LARGE, "bytes" },
	{ "zero width", M_ZERO_W, PNGIO_E_FORMAT, "damaged" },
	{ "zero height", M_ZERO_H, PNGIO_E_FORMAT, "damaged" },
	{ "palette without PLTE", M_NO_PLTE, PNGIO_E_FORMAT, "PLTE" },
	{ "RGB at 4 bits", M_BAD_DEPTH, PNGIO_E_FORMAT, "damaged" },
	{ "IHDR 16-bit over 8-bit rows", M_16_OVER_8, PNGIO_E_FORMAT, "damaged" },
	{ "interlaced 4x4 RGB", M_INTERLACED, PNGIO_OK, NULL },
	{ "no IDAT", M_NO_IDAT, PNGIO_E_FORMAT, "damaged" },
	{ "a GIF", M_NOT_PNG, PNGIO_E_FORMAT, "not a PNG" },
	{ "the signature alone", M_SIGNATURE, PNGIO_E_FORMAT, "damaged" },
	{ "nothing", M_EMPTY, PNGIO_E_FORMAT, "not a PNG" },
};

static void mal_build(enum mal m, struct buf *b)
{
	buf_init(b, 1 << 20);
	if (m == M_NOT_PNG) {
		buf_adds(b, "GIF89a\x04\0\x04\0\0\0\0;");
		return;
	}
	if (m == M_EMPTY)
		return;
	buf_add(b, "\x89PNG\r\n\x1a\n", 8);
	if (m == M_SIGNATURE)
		return;
	if (m == M_TWO_IHDR_BIG) {
		ihdr(b, 1000000, 1, 8, 2, 0, 0);
		idat(b, 3, 1, 0, 0);
		ihdr(b, 1, 1, 8, 2, 0, 0);
		chunk(b, "IEND", (const unsigned char *)"", 0, 0);
		return;
	}
	if (m == M_TWO_IHDR)
		ihdr(b, 8, 1, 8, 2, 0, 0);
	if (m == M_HUGE || m == M_OVER_BYTES || m == M_ZERO_W || m == M_ZERO_H) {
		ihdr(b, m == M_HUGE ? 0x7fffffff : m == M_OVER_BYTES ? 4000 : m == M_ZERO_W ? 0 : 4,
		     m == M_HUGE ? 1 : m == M_OVER_BYTES ? 4000 : m == M_ZERO_W ? 4 : 0,
		     m == M_OVER_BYTES ? 16 : 8, m == M_OVER_BYTES ? 6 : 2, 0, 0);
		idat(b, 12, 4, 0, 0);
	} else if (m == M_NO_PLTE) {
		ihdr(b, 4, 4, 8, 3, 0, 0);
		idat(b, 4, 4, 0, 0);
	} else if (m == M_IHDR_AFTER_IDAT) {
		idat(b, 12, 4, 0, 0);
		ihdr(b, 4, 4, 8, 2, 0, 0);
	} else {
		ihdr(b, 4, 4, m == M_16_OVER_8 ? 16 : m == M_BAD_DEPTH ? 4 : 8, 2, m == M_INTERLACED,
		     m == M_CRC_IHDR);
		if (m == M_INTERLACED) {
			/* Adam7 of 4x4: passes 1 (1x1), 4 (1x1), 5 (2x1), 6 (2x2), 7 (4x2);
			 * 2 and 3 are empty */
			static const int rb[] = { 3, 3, 6, 6, 12 }, rows[] = { 1, 1, 1, 2, 2 };
			struct buf raw;
			unsigned char *z;
			uLongf zlen;

			buf_init(&raw, 1024);
			for (int p = 0; p < 5; p++)
				for (int y = 0; y < rows[p]; y++) {
					unsigned char line[13];

					memset(line, 0x80, sizeof line);
					line[0] = 0;
					buf_add(&raw, line, (size_t)rb[p] + 1);
				}
			zlen = compressBound(raw.len);
			z = malloc(zlen);
			compress(z, &zlen, (unsigned char *)raw.data, raw.len);
			chunk(b, "IDAT", z, zlen, 0);
			free(z);
			buf_free(&raw);
		} else if (m != M_NO_IDAT) {
			idat(b, 12, m == M_SHORT_IDAT ? 2 : 4, 0, m == M_CRC_IDAT);
		}
	}
	if (m == M_CUT) {
		b->len -= 10;
		return;
	}
	chunk(b, "IEND", (const unsigned char *)"", 0, 0);
}

static int rows_count(void *ctx, int y, const unsigned char *rgba, int w)
{
	(*(int *)ctx)++;
	return 0;
}

static void test_malformed(void)
{
	FILE *err = tmpfile();
	int saved = dup(2);
	long spoke;

	if (err == NULL || saved < 0)
		exit(99);
	fflush(stderr);
	dup2(fileno(err), 2);
	for (size_t i = 0; i < sizeof mal_cases / sizeof mal_cases[0]; i++) {
		const struct mal_case *k = &mal_cases[i];
		struct pngio_image img;
		struct buf b;
		char why[160];
		int rc, rows = 0;

		mal_build(k->m, &b);
		rc = pngio_decode((unsigned char *)b.data, b.len, &roomy, &img, why, sizeof why);
		is_int(rc, k->rc, "%s: %s", k->name, rc == PNGIO_OK ? "read" : why);
		if (k->rc == PNGIO_OK) {
			ok(img.w == 4 && img.h == 4 && img.rgba[0] == 0x80 && img.rgba[3] == 255 &&
			   img.rgba[63] == 255, "  ... 4x4, grey 0x80, opaque");
		} else {
			ok(img.rgba == NULL && strstr(why, k->why) != NULL, "  ... no pixels; the reason says \"%s\"",
			   k->why);
			rc = pngio_read_rows((unsigned char *)b.data, b.len, &roomy, NULL, rows_count, &rows,
					     why, sizeof why);
			ok(rc == k->rc && (k->rc != PNGIO_E_TOO_LARGE || rows == 0),
			   "  ... row by row too%s", k->rc == PNGIO_E_TOO_LARGE ? ", before any row" : "");
		}
		pngio_image_free(&img);
		buf_free(&b);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	spoke = ftell(err);
	is_int(spoke, 0, "libpng wrote nothing on stderr");
	fclose(err);
}

/* ---- chunk lengths and CRCs, checked before libpng reads a byte ---- */

enum lie { L_44, L_80, L_FF, L_ONE_PAST, L_AT_END, L_NO_IEND, L_CRC_PLTE, L_CRC_IEND,
	   L_TEXT_AFTER, L_AFTER_IEND, L_ICCP, L_SRGB, L_CRC_TEXT, L_ZTXT_BIG, L_TEXT_BIG };

struct lie_case {
	const char *name;
	enum lie m;
	int rc;
	const char *why;   /* a word the reason has */
	int warns;         /* 1: libpng itself warns about the file (yet it is read) */
};

static const struct lie_case lie_cases[] = {
	{ "the 44-byte PNG: tEXt declaring 0x7fffffff bytes", L_44, PNGIO_E_FORMAT, "only", 0 },
	{ "tEXt declaring 0x80000000 bytes", L_80, PNGIO_E_FORMAT, "more than PNG allows", 0 },
	{ "tEXt declaring 0xffffffff bytes", L_FF, PNGIO_E_FORMAT, "more than PNG allows", 0 },
	{ "a length one byte past the end", L_ONE_PAST, PNGIO_E_FORMAT, "only", 0 },
	{ "a length up to the very end (no IEND then)", L_AT_END, PNGIO_E_FORMAT, "IEND", 0 },
	{ "cut before IEND", L_NO_IEND, PNGIO_E_FORMAT, "IEND", 0 },
	{ "bad CRC in PLTE", L_CRC_PLTE, PNGIO_E_FORMAT, "CRC in its PLTE", 0 },
	{ "bad CRC in IEND", L_CRC_IEND, PNGIO_E_FORMAT, "CRC in its IEND", 0 },
	{ "tEXt and tIME after IDAT", L_TEXT_AFTER, PNGIO_OK, NULL, 0 },
	{ "bytes after IEND", L_AFTER_IEND, PNGIO_OK, NULL, 0 },
	{ "an iCCP profile libpng complains about", L_ICCP, PNGIO_OK, NULL, 1 },
	{ "an sRGB intent libpng complains about", L_SRGB, PNGIO_OK, NULL, 1 },
	{ "bad CRC in a tEXt before IDAT (libpng skips it)", L_CRC_TEXT, PNGIO_OK, NULL, 1 },
	{ "zTXt inflating to 2 MiB (1 MiB allowed)", L_ZTXT_BIG, PNGIO_E_FORMAT, "ancillary", 1 },
	{ "tEXt of 2 MiB, all present", L_TEXT_BIG, PNGIO_E_FORMAT, "too large", 1 },
};

/* A chunk header alone, its length whatever is asked. */
static void chunk_head(struct buf *b, uint32_t len, const char *type)
{
	unsigned char head[8];

	put32(head, len);
	memcpy(head + 4, type, 4);
	buf_add(b, head, 8);
}

/* The 1x1 RGB image after the signature and IHDR: IDAT then IEND. */
static void lie_tail(struct buf *b, int bad_iend)
{
	idat(b, 3, 1, 0, 0);
	chunk(b, "IEND", (const unsigned char *)"", 0, bad_iend);
}

/* A compressed chunk: prefix, then data deflated (NULL: n bytes of 'a'). */
static void lie_zlib(struct buf *b, const char *type, const char *prefix, size_t plen,
		     const unsigned char *data, size_t n)
{
	unsigned char *raw = malloc(n), *z;
	uLongf zlen = compressBound(n);

	z = malloc(plen + zlen);
	memcpy(z, prefix, plen);
	if (data)
		memcpy(raw, data, n);
	else
		memset(raw, 'a', n);
	compress2(z + plen, &zlen, raw, n, 9);
	chunk(b, type, z, plen + zlen, 0);
	free(raw);
	free(z);
}

/* Ancillary chunks before IDAT: those of L_ICCP .. L_TEXT_BIG. */
static void lie_before(enum lie m, struct buf *b)
{
	/* A profile whose header claims 200 bytes, in 16: "too short". */
	static const unsigned char bogus[] = "\0\0\0\xc8junkjunkjunk";
	unsigned char *big;

	if (m == L_ICCP)
		lie_zlib(b, "iCCP", "p\0\0", 3, bogus, sizeof bogus - 1);
	if (m == L_SRGB)
		chunk(b, "sRGB", (const unsigned char *)"\x07", 1, 0);
	if (m == L_CRC_TEXT)
		chunk(b, "tEXt", (const unsigned char *)"k\0v", 3, 1);
	if (m == L_ZTXT_BIG)
		lie_zlib(b, "zTXt", "k\0\0", 3, NULL, 2u << 20);
	if (m == L_TEXT_BIG) {
		big = malloc(2u << 20);
		memset(big, 'x', 2u << 20);
		big[1] = 0;
		chunk(b, "tEXt", big, 2u << 20, 0);
		free(big);
	}
}

static void lie_build(enum lie m, struct buf *b)
{
	static const uint32_t lens[] = { [L_44] = 0x7fffffffu, [L_80] = 0x80000000u,
					 [L_FF] = 0xffffffffu };
	struct buf rest;

	buf_init(b, 4u << 20);
	buf_add(b, "\x89PNG\r\n\x1a\n", 8);
	ihdr(b, 1, 1, 8, m == L_CRC_PLTE ? 3 : 2, 0, 0);
	if (m == L_44 || m == L_80 || m == L_FF) {
		chunk_head(b, lens[m], "tEXt");
		buf_add(b, "ab", 3);   /* 44 bytes in all */
		return;
	}
	if (m == L_ONE_PAST || m == L_AT_END) {
		/* tEXt swallows the rest of a valid file: its length reaches one
		 * byte past the end, or the end exactly (its CRC the last 4). */
		buf_init(&rest, 1 << 20);
		buf_add(&rest, "k", 2);
		lie_tail(&rest, 0);
		chunk_head(b, (uint32_t)rest.len - (m == L_ONE_PAST ? 3 : 4), "tEXt");
		buf_add(b, rest.data, rest.len);
		buf_free(&rest);
		return;
	}
	if (m == L_CRC_PLTE) {
		chunk(b, "PLTE", (const unsigned char *)"\x80\x80\x80", 3, 1);
		idat(b, 1, 1, 0, 0);
		chunk(b, "IEND", (const unsigned char *)"", 0, 0);
		return;
	}
	lie_before(m, b);
	lie_tail(b, m == L_CRC_IEND);
	if (m == L_NO_IEND)
		b->len -= 12;
	if (m == L_TEXT_AFTER) {
		b->len -= 12;
		chunk(b, "tEXt", (const unsigned char *)"Comment\0after the pixels", 25, 0);
		chunk(b, "tIME", (const unsigned char *)"\x07\xe8\x01\x02\x03\x04\x05", 7, 0);
		chunk(b, "IEND", (const unsigned char *)"", 0, 0);
	}
	if (m == L_AFTER_IEND)
		buf_add(b, "\0\0\0\x10junk after the end", 22);
}

struct lie_read {
	const unsigned char *p;
	size_t n, off;
	int warns;
};

static void lie_read_cb(png_structp png, png_bytep out, size_t len)
{
	struct lie_read *r = png_get_io_ptr(png);

	if (len > r->n - r->off)
		png_error(png, "short");
	memcpy(out, r->p + r->off, len);
	r->off += len;
}

static void lie_warn_cb(png_structp png, png_const_charp msg)
{
	((struct lie_read *)png_get_error_ptr(png))->warns++;
}

static void lie_error_cb(png_structp png, png_const_charp msg)
{
	png_longjmp(png, 1);
}

/* Does libpng itself, under pngio's chunk limit, warn about the file's
 * header? (So that a case "libpng complains, pngio reads it" stays one.) */
static int lie_libpng_warns(const struct buf *b)
{
	struct lie_read r = { (const unsigned char *)b->data, b->len, 0, 0 };
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, lie_error_cb, lie_warn_cb);
	png_infop info = png_create_info_struct(png);

	if (setjmp(png_jmpbuf(png)) == 0) {
		png_set_read_fn(png, &r, lie_read_cb);
		png_set_chunk_malloc_max(png, 1L << 20);
		png_read_info(png, info);
	}
	png_destroy_read_struct(&png, &info, NULL);
	return r.warns > 0;
}

static long lie_maxrss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static double lie_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The three readers on one file: the worst of their codes (all must agree). */
static int lie_read_all(const struct buf *b, char *why, size_t whylen, int *agree)
{
	const unsigned char *p = (const unsigned char *)b->data;
	struct pngio_info info;
	struct pngio_image img;
	int rows = 0, a, r, d;

	a = pngio_info(p, b->len, &roomy, &info, why, whylen);
	r = pngio_read_rows(p, b->len, &roomy, NULL, rows_count, &rows, why, whylen);
	d = pngio_decode(p, b->len, &roomy, &img, why, whylen);
	*agree = a == r && r == d && (d != PNGIO_OK || (img.w == 1 && img.h == 1 && rows == 1));
	pngio_image_free(&img);
	return d;
}

static void test_chunks(void)
{
	for (size_t i = 0; i < sizeof lie_cases / sizeof lie_cases[0]; i++) {
		const struct lie_case *k = &lie_cases[i];
		struct buf b;
		char why[256] = "";
		long rss;
		double t0;
		int rc, agree;

		lie_build(k->m, &b);
		if (k->m == L_44)
			is_int(b.len, 44, "%s: 44 bytes", k->name);
		rss = lie_maxrss_kb();
		t0 = lie_now_ms();
		rc = lie_read_all(&b, why, sizeof why, &agree);
		is_int(rc, k->rc, "%s: %s", k->name, rc == PNGIO_OK ? "read" : why);
		ok(agree, "  ... the same from pngio_info, pngio_read_rows and pngio_decode");
		if (k->why)
			ok(strstr(why, k->why) != NULL, "  ... the reason says \"%s\"", k->why);
		if (k->warns)
			ok(lie_libpng_warns(&b), "  ... though libpng warns about it");
		if (k->m <= L_ONE_PAST)
			ok(lie_now_ms() - t0 < 200 && lie_maxrss_kb() - rss < 8192,
			   "  ... in %.1f ms, the peak memory grown by %ld KiB", lie_now_ms() - t0,
			   lie_maxrss_kb() - rss);
		buf_free(&b);
	}
}

/* The limits come from the header: side and bytes, at the edge. */
static void test_limits(void)
{
	struct fmt_case k = { "RGBA 16", PNG_COLOR_TYPE_RGB_ALPHA, 16, 0, 0 };
	struct pngio_limits at = { FW, (long long)FW * 8 * FH }, side = { FW - 1, 1L << 30 },
			    bytes = { FW, (long long)FW * 8 * FH - 1 };
	struct pngio_info info;
	struct buf b;
	char why[160];

	fmt_write(&k, &b);
	is_int(pngio_info((unsigned char *)b.data, b.len, &at, &info, why, sizeof why), PNGIO_OK,
	       "13x11 RGBA 16 within 13 pixels a side and 13*8*11 bytes");
	is_int(info.bytes, FW * 8 * FH, "  ... its inflated bytes are its stored rows (16 bits a channel)");
	is_int(pngio_info((unsigned char *)b.data, b.len, &side, &info, why, sizeof why),
	       PNGIO_E_TOO_LARGE, "  ... 12 pixels a side: too large");
	is_int(pngio_info((unsigned char *)b.data, b.len, &bytes, &info, why, sizeof why),
	       PNGIO_E_TOO_LARGE, "  ... one byte less: too large");
	buf_free(&b);
}

int main(void)
{
	test_formats();
	test_round_trip();
	test_malformed();
	test_chunks();
	test_limits();
	return tap_done();
}
