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
	size_t rowbytes;
	int unit;                  /* bytes per pixel for the filters, at least 1 */
	unsigned char plte[256][3];
	int nplte;
};

/* Rows as they inflate: unfiltered against the previous one, turned into
 * RGBA, handed to the caller. */
struct png_rows {
	const struct png_head *g;
	unsigned char *cur, *prev, *rgba;
	size_t have;
	int y, bad, stop;
	int (*row)(void *ctx, int y, const unsigned char *rgba, int w);
	void *ctx;
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

const char *png_strerror(int e)
{
	switch (e) {
	case PNG_OK: return "ok";
	case PNG_E_LAYOUT: return "a PNG depth or colour type that is not read";
	case PNG_E_INTERLACED: return "an interlaced PNG is not read";
	case PNG_E_TOO_LARGE: return "the PNG image has too many pixels";
	case PNG_E_DATA: return "the PNG image's data is damaged";
	default: return "not a PNG image";
	}
}

static int png_layout(struct png_head *g)
{
	static const int chans[7] = { 1, 0, 3, 1, 2, 0, 4 };

	if (g->ctype < 0 || g->ctype > 6 || chans[g->ctype] == 0)
		return -1;
	g->channels = chans[g->ctype];
	if (!(g->depth == 8 || g->depth == 16 ||
	      ((g->ctype == 0 || g->ctype == 3) && (g->depth == 1 || g->depth == 2 || g->depth == 4))) ||
	    (g->ctype == 3 && g->depth == 16))
		return -1;
	g->rowbytes = ((size_t)g->w * (size_t)g->channels * (size_t)g->depth + 7) / 8;
	g->unit = g->channels * g->depth / 8 > 0 ? g->channels * g->depth / 8 : 1;
	return 0;
}

/* Walks the chunks: IHDR and PLTE read; fn (when given) gets each IDAT's
 * data and may stop the walk by returning nonzero. */
static int png_chunks(const unsigned char *p, size_t n, struct png_head *g,
		      int (*fn)(void *ctx, const unsigned char *d, size_t len), void *ctx)
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
		} else if (memcmp(type, "IDAT", 4) == 0 && fn && fn(ctx, d, len) != 0) {
			return 0;
		} else if (memcmp(type, "IEND", 4) == 0) {
			return 0;
		}
		off += 12 + len;
	}
	return 0;
}

static unsigned png_sample(const struct png_head *g, const unsigned char *line, int x, int k)
{
	if (g->depth == 8)
		return line[(size_t)x * (size_t)g->channels + (size_t)k];
	if (g->depth == 16)
		return line[((size_t)x * (size_t)g->channels + (size_t)k) * 2];
	/* 1, 2 or 4 bits, one channel: packed from the high bits. */
	{
		size_t bit = (size_t)x * (size_t)g->depth;
		unsigned v = line[bit / 8] >> (8 - g->depth - (int)(bit % 8)) & ((1u << g->depth) - 1);

		return g->ctype == 3 ? v : v * 255 / ((1u << g->depth) - 1);
	}
}

static void png_rgba_row(const struct png_head *g, const unsigned char *line, unsigned char *out)
{
	for (int x = 0; x < g->w; x++, out += 4) {
		unsigned v = png_sample(g, line, x, 0);

		switch (g->ctype) {
		case 0:
			out[0] = out[1] = out[2] = (unsigned char)v;
			out[3] = 255;
			break;
		case 3:
			memcpy(out, (int)v < g->nplte ? g->plte[v] : g->plte[0], 3);
			out[3] = (int)v < g->nplte ? 255 : 0;
			break;
		case 4:
			out[0] = out[1] = out[2] = (unsigned char)v;
			out[3] = (unsigned char)png_sample(g, line, x, 1);
			break;
		default:  /* 2 and 6: RGB, with alpha for 6 */
			out[0] = (unsigned char)v;
			out[1] = (unsigned char)png_sample(g, line, x, 1);
			out[2] = (unsigned char)png_sample(g, line, x, 2);
			out[3] = g->ctype == 6 ? (unsigned char)png_sample(g, line, x, 3) : 255;
			break;
		}
	}
}

static int png_paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

static void png_row_done(struct png_rows *r)
{
	const struct png_head *g = r->g;
	unsigned char *line = r->cur + 1, *up = r->prev + 1, *tmp;
	int f = r->cur[0];

	for (size_t i = 0; i < g->rowbytes; i++) {
		int a = i >= (size_t)g->unit ? line[i - (size_t)g->unit] : 0, b = up[i];
		int c = i >= (size_t)g->unit ? up[i - (size_t)g->unit] : 0;

		switch (f) {
		case 0: break;
		case 1: line[i] = (unsigned char)(line[i] + a); break;
		case 2: line[i] = (unsigned char)(line[i] + b); break;
		case 3: line[i] = (unsigned char)(line[i] + (a + b) / 2); break;
		case 4: line[i] = (unsigned char)(line[i] + png_paeth(a, b, c)); break;
		default: r->bad = 1; return;
		}
	}
	png_rgba_row(g, line, r->rgba);
	if (r->row(r->ctx, r->y, r->rgba, g->w) != 0)
		r->stop = 1;
	tmp = r->prev;
	r->prev = r->cur;
	r->cur = tmp;
	r->have = 0;
	r->y++;
}

static void png_rows_feed(struct png_rows *r, const unsigned char *d, size_t n)
{
	size_t row = r->g->rowbytes + 1;

	while (n > 0 && !r->bad && !r->stop && r->y < r->g->h) {
		size_t take = row - r->have < n ? row - r->have : n;

		memcpy(r->cur + r->have, d, take);
		r->have += take;
		d += take;
		n -= take;
		if (r->have == row)
			png_row_done(r);
	}
}

struct png_inflate {
	z_stream z;
	struct png_rows *rows;
	int end;
};

/* One IDAT's data through the inflater. Nonzero to stop the walk. */
static int png_idat(void *ctx, const unsigned char *d, size_t len)
{
	struct png_inflate *in = ctx;
	unsigned char out[16384];
	int rc;

	in->z.next_in = (unsigned char *)d;
	in->z.avail_in = (uInt)len;
	do {
		in->z.next_out = out;
		in->z.avail_out = sizeof out;
		rc = inflate(&in->z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
			return in->rows->bad = 1;
		png_rows_feed(in->rows, out, sizeof out - in->z.avail_out);
		if (rc == Z_STREAM_END || in->rows->y >= in->rows->g->h || in->rows->bad ||
		    in->rows->stop)
			return in->end = 1;
	} while (in->z.avail_in > 0 || in->z.avail_out == 0);
	return 0;
}

int png_read_rows(const unsigned char *p, size_t n, long max_pixels, int *w, int *h,
		  int (*row)(void *ctx, int y, const unsigned char *rgba, int w), void *ctx)
{
	struct png_head g;
	struct png_rows r;
	struct png_inflate in;
	int rc;

	memset(&g, 0, sizeof g);
	*w = *h = 0;
	if (png_chunks(p, n, &g, NULL, NULL) < 0 || g.w <= 0 || g.h <= 0)
		return PNG_E_FORMAT;
	*w = g.w;
	*h = g.h;
	if (png_layout(&g) < 0)
		return PNG_E_LAYOUT;
	if (g.interlace)
		return PNG_E_INTERLACED;
	if ((long long)g.w * g.h > max_pixels)
		return PNG_E_TOO_LARGE;
	memset(&r, 0, sizeof r);
	memset(&in, 0, sizeof in);
	r.g = &g;
	r.row = row;
	r.ctx = ctx;
	r.cur = xcalloc(g.rowbytes + 1, 1);
	r.prev = xcalloc(g.rowbytes + 1, 1);
	r.rgba = xmalloc((size_t)g.w * 4);
	in.rows = &r;
	if (inflateInit(&in.z) == Z_OK) {
		png_chunks(p, n, &g, png_idat, &in);
		inflateEnd(&in.z);
	} else {
		r.bad = 1;
	}
	rc = r.bad || (!r.stop && r.y < g.h) ? PNG_E_DATA : PNG_OK;
	free(r.cur);
	free(r.prev);
	free(r.rgba);
	return rc;
}

static int png_keep_row(void *ctx, int y, const unsigned char *rgba, int w)
{
	struct png_image *img = ctx;

	memcpy(img->rgba + (size_t)y * (size_t)w * 4, rgba, (size_t)w * 4);
	return 0;
}

int png_decode(const unsigned char *p, size_t n, long max_pixels, struct png_image *out,
	       char *why, size_t whylen)
{
	struct png_head g;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&g, 0, sizeof g);
	/* The size first, so the buffer exists before the rows arrive. */
	if (png_chunks(p, n, &g, NULL, NULL) < 0 || g.w <= 0 || g.h <= 0) {
		snprintf(why, whylen, "%s", png_strerror(PNG_E_FORMAT));
		return PNG_E_FORMAT;
	}
	if ((long long)g.w * g.h > max_pixels) {
		snprintf(why, whylen, "%s", png_strerror(PNG_E_TOO_LARGE));
		return PNG_E_TOO_LARGE;
	}
	out->rgba = xcalloc((size_t)g.w * (size_t)g.h, 4);
	rc = png_read_rows(p, n, max_pixels, &out->w, &out->h, png_keep_row, out);
	if (rc != PNG_OK) {
		snprintf(why, whylen, "%s", png_strerror(rc));
		png_image_free(out);
	}
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
