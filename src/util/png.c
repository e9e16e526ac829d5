/* PNG reading and writing with zlib (see png.h). */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "util/png.h"
#include "util/xmalloc.h"

struct png_head {
	int w, h, depth, ctype, interlace, channels;
	unsigned char plte[256][3];
	int nplte;
	struct buf idat;
};

static uint32_t png_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void png_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* IHDR, PLTE and the IDAT data gathered. */
static int png_chunks(const unsigned char *p, size_t n, struct png_head *g)
{
	size_t off = 8;

	if (n < 8 || memcmp(p, "\x89PNG\r\n\x1a\n", 8) != 0)
		return -1;
	while (off + 12 <= n) {
		size_t len = png_be32(p + off);
		const unsigned char *type = p + off + 4, *d = p + off + 8;

		if (len > n - off - 12)
			return -1;
		if (memcmp(type, "IHDR", 4) == 0 && len >= 13) {
			g->w = (int)png_be32(d);
			g->h = (int)png_be32(d + 4);
			g->depth = d[8];
			g->ctype = d[9];
			g->interlace = d[12];
		} else if (memcmp(type, "PLTE", 4) == 0 && len % 3 == 0 && len <= 768) {
			memcpy(g->plte, d, len);
			g->nplte = (int)(len / 3);
		} else if (memcmp(type, "IDAT", 4) == 0 && buf_add(&g->idat, d, len) < 0) {
			return -1;
		} else if (memcmp(type, "IEND", 4) == 0) {
			return 0;
		}
		off += 12 + len;
	}
	return 0;
}

static int png_paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undoes the row filters in place: raw holds h rows of 1 + stride bytes. */
static int png_unfilter(unsigned char *raw, int h, size_t stride, int unit)
{
	for (int y = 0; y < h; y++) {
		unsigned char *line = raw + (size_t)y * (stride + 1) + 1;
		const unsigned char *up = y ? line - stride - 1 : NULL;
		int f = line[-1];

		for (size_t i = 0; i < stride; i++) {
			int a = i >= (size_t)unit ? line[i - (size_t)unit] : 0, b = up ? up[i] : 0;
			int c = up && i >= (size_t)unit ? up[i - (size_t)unit] : 0;

			switch (f) {
			case 0: break;
			case 1: line[i] = (unsigned char)(line[i] + a); break;
			case 2: line[i] = (unsigned char)(line[i] + b); break;
			case 3: line[i] = (unsigned char)(line[i] + (a + b) / 2); break;
			case 4: line[i] = (unsigned char)(line[i] + png_paeth(a, b, c)); break;
			default: return -1;
			}
		}
	}
	return 0;
}

static void png_to_rgba(const struct png_head *g, const unsigned char *raw, size_t stride,
			unsigned char *out)
{
	for (int y = 0; y < g->h; y++) {
		const unsigned char *s = raw + (size_t)y * (stride + 1) + 1;

		for (int x = 0; x < g->w; x++, out += 4) {
			const unsigned char *px = s + (size_t)x * (size_t)g->channels;

			switch (g->ctype) {
			case 0: out[0] = out[1] = out[2] = px[0]; out[3] = 255; break;
			case 4: out[0] = out[1] = out[2] = px[0]; out[3] = px[1]; break;
			case 3:
				memcpy(out, px[0] < g->nplte ? g->plte[px[0]] : g->plte[0], 3);
				out[3] = 255;
				break;
			case 2: memcpy(out, px, 3); out[3] = 255; break;
			default: memcpy(out, px, 4); break;
			}
		}
	}
}

static int png_fail(char *why, size_t n, const char *msg)
{
	snprintf(why, n, "%s", msg);
	return -1;
}

int png_decode(const unsigned char *p, size_t n, long max_pixels, struct png_image *out,
	       char *why, size_t whylen)
{
	static const int chans[7] = { 1, 0, 3, 1, 2, 0, 4 };
	struct png_head g;
	unsigned char *raw = NULL;
	uLongf rawlen;
	size_t stride;
	int rc = -1;

	memset(&g, 0, sizeof g);
	memset(out, 0, sizeof *out);
	buf_init(&g.idat, n);
	if (png_chunks(p, n, &g) < 0 || g.w <= 0 || g.h <= 0)
		png_fail(why, whylen, "not a PNG image");
	else if (g.depth != 8 || g.ctype > 6 || chans[g.ctype] == 0 || g.interlace)
		png_fail(why, whylen, "only 8-bit, non-interlaced PNG images are read");
	else if ((long long)g.w * g.h > max_pixels)
		png_fail(why, whylen, "the PNG image has too many pixels");
	else {
		g.channels = chans[g.ctype];
		stride = (size_t)g.w * (size_t)g.channels;
		rawlen = (uLongf)((stride + 1) * (size_t)g.h);
		raw = xmalloc(rawlen);
		if (uncompress(raw, &rawlen, (const Bytef *)g.idat.data, (uLong)g.idat.len) != Z_OK ||
		    rawlen != (stride + 1) * (size_t)g.h || png_unfilter(raw, g.h, stride, g.channels) < 0) {
			png_fail(why, whylen, "the PNG image's data is damaged");
		} else {
			out->w = g.w;
			out->h = g.h;
			out->rgba = xmalloc((size_t)g.w * (size_t)g.h * 4);
			png_to_rgba(&g, raw, stride, out->rgba);
			rc = 0;
		}
	}
	free(raw);
	buf_free(&g.idat);
	return rc;
}

void png_image_free(struct png_image *img)
{
	free(img->rgba);
	img->rgba = NULL;
}

static int png_chunk(struct buf *out, const char *type, const unsigned char *d, size_t len)
{
	unsigned char head[8], crc[4];
	uLong c = crc32(0L, (const Bytef *)type, 4);

	png_put32(head, (uint32_t)len);
	memcpy(head + 4, type, 4);
	c = crc32(c, d, (uInt)len);
	png_put32(crc, (uint32_t)c);
	return buf_add(out, head, 8) < 0 || buf_add(out, d, len) < 0 || buf_add(out, crc, 4) < 0 ? -1 : 0;
}

int png_encode(const struct png_image *img, struct buf *out)
{
	size_t stride = (size_t)img->w * 4, rawlen = (stride + 1) * (size_t)img->h;
	unsigned char ihdr[13], *raw = xmalloc(rawlen);
	uLongf zlen = compressBound((uLong)rawlen);
	unsigned char *z = xmalloc(zlen);
	int rc;

	for (int y = 0; y < img->h; y++) {
		raw[(size_t)y * (stride + 1)] = 0;
		memcpy(raw + (size_t)y * (stride + 1) + 1, img->rgba + (size_t)y * stride, stride);
	}
	png_put32(ihdr, (uint32_t)img->w);
	png_put32(ihdr + 4, (uint32_t)img->h);
	ihdr[8] = 8;
	ihdr[9] = 6;
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	rc = compress2(z, &zlen, raw, (uLong)rawlen, 6) == Z_OK ? 0 : -1;
	if (rc == 0)
		rc = buf_add(out, "\x89PNG\r\n\x1a\n", 8) < 0 || png_chunk(out, "IHDR", ihdr, 13) < 0 ||
		     png_chunk(out, "IDAT", z, zlen) < 0 || png_chunk(out, "IEND", (const unsigned char *)"", 0) < 0
			     ? -1 : 0;
	free(raw);
	free(z);
	return rc;
}
