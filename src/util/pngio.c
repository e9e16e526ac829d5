/* PNG reading and writing with libpng (see pngio.h). A file is walked
 * chunk by chunk (pngio_walk) before libpng reads a byte of it, because
 * libpng believes a declared length before it has the bytes. Every
 * libpng call that can fail runs under one setjmp in pngio_job_run or
 * pngio_write; what they allocate hangs off the job and is freed in
 * pngio_job_end whichever way they left. */
#include "config.h"
#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <zlib.h>
#include "util/pngio.h"
#include "util/xmalloc.h"

/* An ancillary chunk (iCCP, zTXt, ...) inflated, in bytes, and how many
 * unknown or text chunks are kept: enough for real files, no more. */
#define PNGIO_CHUNK_MALLOC_MAX (1L << 20)
#define PNGIO_CHUNK_CACHE_MAX 64
#define PNGIO_SIDE_MAX 0x7fffffffL  /* PNG's own bound */
#define PNGIO_LEN_MAX 0x7fffffffUL  /* PNG's bound on a chunk's length */

enum pngio_mode { PNGIO_HEAD, PNGIO_ROWS, PNGIO_WHOLE };

struct pngio_job {
	png_structp png;
	png_infop info;
	const unsigned char *p;     /* the file, read through pngio_read_cb */
	size_t n, off;
	struct buf *out;            /* writing: where the file goes */
	const struct pngio_limits *lim;
	int over_limit;             /* libpng warned about a user limit */
	char *why;
	size_t whylen;
	struct pngio_info head;
	unsigned char *row;         /* one RGBA row */
	unsigned char *image;       /* or the whole image */
	png_bytep *rows;
};

static void pngio_error_cb(png_structp png, png_const_charp msg)
{
	struct pngio_job *j = png_get_error_ptr(png);

	snprintf(j->why, j->whylen, "the PNG image is damaged: %s", msg);
	png_longjmp(png, 1);
}

/* What libpng calls a benign error but that means an ancillary chunk
 * would take more than PNGIO_CHUNK_MALLOC_MAX: its declared length over
 * the limit (libpng would then allocate and zero it anyway), an
 * allocation that failed, a compressed chunk (zTXt, iTXt, iCCP) that
 * inflates past the limit. */
static const char *const pngio_fatal[] = {
	"too large", "memory", "truncated", "exceeds application limits",
};

/* Warnings are dropped (real files carry harmless iCCP, sRGB or gAMA
 * complaints), but for a user limit passed (libpng then refuses the IHDR
 * as invalid) and the ones in pngio_fatal, which stop the reading. */
static void pngio_warning_cb(png_structp png, png_const_charp msg)
{
	struct pngio_job *j = png_get_error_ptr(png);

	if (strstr(msg, "exceeds user limit"))
		j->over_limit = 1;
	for (size_t i = 0; i < sizeof pngio_fatal / sizeof pngio_fatal[0]; i++)
		if (strstr(msg, pngio_fatal[i]) && j->why) {
			snprintf(j->why, j->whylen, "the PNG image is damaged: %s (an ancillary chunk "
				 "may take at most %ld bytes)", msg, PNGIO_CHUNK_MALLOC_MAX);
			png_longjmp(png, 1);
		}
}

static void pngio_read_cb(png_structp png, png_bytep out, size_t len)
{
	struct pngio_job *j = png_get_io_ptr(png);

	if (len > j->n - j->off)
		png_error(png, "the file ends early");
	memcpy(out, j->p + j->off, len);
	j->off += len;
}

static void pngio_write_cb(png_structp png, png_bytep d, size_t len)
{
	struct pngio_job *j = png_get_io_ptr(png);

	if (buf_add(j->out, d, len) < 0)
		png_error(png, "the image is larger than its buffer");
}

static void pngio_flush_cb(png_structp png)
{
	(void)png;
}

static long pngio_side(const struct pngio_limits *lim)
{
	return lim->max_side > 0 && lim->max_side < PNGIO_SIDE_MAX ? lim->max_side : PNGIO_SIDE_MAX;
}

static int pngio_over_side(struct pngio_job *j)
{
	snprintf(j->why, j->whylen, "the PNG image is wider or taller than %ld pixels",
		 pngio_side(j->lim));
	return PNGIO_E_TOO_LARGE;
}

/* Everything before the first IDAT, then the size against the budget. */
static int pngio_head(struct pngio_job *j)
{
	png_uint_32 w, h;
	int depth, ctype, interlace;
	size_t stored, rgba;

	png_read_info(j->png, j->info);
	png_get_IHDR(j->png, j->info, &w, &h, &depth, &ctype, &interlace, NULL, NULL);
	j->head.w = (int)w;
	j->head.h = (int)h;
	j->head.depth = depth;
	j->head.ctype = ctype;
	j->head.interlaced = interlace != PNG_INTERLACE_NONE;
	stored = png_get_rowbytes(j->png, j->info);
	rgba = (size_t)w * 4;
	if (stored < rgba)
		stored = rgba;
	/* At most 2^31-1 rows of 2^34 bytes: past long long, the largest. */
	j->head.bytes = h && stored > (size_t)(LLONG_MAX / h) ? LLONG_MAX
			: (long long)h * (long long)stored;
	if (j->head.bytes > j->lim->max_bytes) {
		snprintf(j->why, j->whylen, "the PNG image's pixels take %lld bytes once inflated, "
			 "more than the %lld allowed", j->head.bytes, j->lim->max_bytes > 0 ?
			 j->lim->max_bytes : 0);
		return PNGIO_E_TOO_LARGE;
	}
	return PNGIO_OK;
}

/* 8-bit RGBA whatever is stored. */
static void pngio_rgba(struct pngio_job *j)
{
	png_set_expand(j->png);
	png_set_strip_16(j->png);
	png_set_gray_to_rgb(j->png);
	png_set_add_alpha(j->png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(j->png);
	png_read_update_info(j->png, j->info);
	if (png_get_rowbytes(j->png, j->info) != (size_t)j->head.w * 4)
		png_error(j->png, "rows are not RGBA after the transformations");
}

static void pngio_whole(struct pngio_job *j)
{
	size_t stride = (size_t)j->head.w * 4;

	j->image = xmalloc(stride * (size_t)j->head.h);
	j->rows = xmalloc(sizeof *j->rows * (size_t)j->head.h);
	for (int y = 0; y < j->head.h; y++)
		j->rows[y] = j->image + stride * (size_t)y;
	png_read_image(j->png, j->rows);
}

static int pngio_job_run(struct pngio_job *j, enum pngio_mode mode,
			 int (*row)(void *ctx, int y, const unsigned char *rgba, int w), void *ctx)
{
	int rc;

	if (setjmp(png_jmpbuf(j->png)))
		return j->over_limit ? pngio_over_side(j) : PNGIO_E_FORMAT;
	png_set_read_fn(j->png, j, pngio_read_cb);
	png_set_user_limits(j->png, (png_uint_32)pngio_side(j->lim), (png_uint_32)pngio_side(j->lim));
	png_set_chunk_malloc_max(j->png, PNGIO_CHUNK_MALLOC_MAX);
	png_set_chunk_cache_max(j->png, PNGIO_CHUNK_CACHE_MAX);
	png_set_keep_unknown_chunks(j->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
	rc = pngio_head(j);
	if (rc != PNGIO_OK || mode == PNGIO_HEAD)
		return rc;
	pngio_rgba(j);
	if (mode == PNGIO_ROWS && !j->head.interlaced) {
		j->row = xmalloc((size_t)j->head.w * 4);
		for (int y = 0; y < j->head.h; y++) {
			png_read_row(j->png, j->row, NULL);
			if (row(ctx, y, j->row, j->head.w) != 0)
				break;
		}
		return PNGIO_OK;
	}
	pngio_whole(j);
	for (int y = 0; row && y < j->head.h; y++)
		if (row(ctx, y, j->rows[y], j->head.w) != 0)
			break;
	return PNGIO_OK;
}

static uint32_t pngio_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A chunk type fit to print: its four letters, or "????". */
static void pngio_type_name(const unsigned char *t, char out[5])
{
	for (int i = 0; i < 4; i++)
		if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z')))
			return (void)snprintf(out, 5, "????");
	memcpy(out, t, 4);
	out[4] = '\0';
}

static int pngio_critical(const unsigned char *t)
{
	return memcmp(t, "IHDR", 4) == 0 || memcmp(t, "PLTE", 4) == 0 ||
	       memcmp(t, "IDAT", 4) == 0 || memcmp(t, "IEND", 4) == 0;
}

/* One chunk at p (n bytes left, 8 at least): its declared length against
 * PNG's limit and the bytes present, the CRC of a critical chunk. */
static int pngio_walk_one(const unsigned char *p, size_t n, char *why, size_t whylen)
{
	uint32_t len = pngio_be32(p);
	char name[5];

	pngio_type_name(p + 4, name);
	if (len > PNGIO_LEN_MAX)
		return snprintf(why, whylen, "the PNG image is damaged: its %s chunk declares %lu "
				"bytes, more than PNG allows", name, (unsigned long)len), PNGIO_E_FORMAT;
	if ((size_t)len + 4 > n - 8)
		return snprintf(why, whylen, "the PNG image is damaged: its %s chunk declares %lu "
				"bytes and a CRC, but only %zu follow", name, (unsigned long)len, n - 8),
		       PNGIO_E_FORMAT;
	if (pngio_critical(p + 4) &&
	    crc32(crc32(0L, Z_NULL, 0), p + 4, (uInt)len + 4) != pngio_be32(p + 8 + len))
		return snprintf(why, whylen, "the PNG image is damaged: bad CRC in its %s chunk", name),
		       PNGIO_E_FORMAT;
	return PNGIO_OK;
}

/* Every chunk from the signature to IEND, before libpng sees any, so that
 * no declared length is believed past the bytes present: data after IEND
 * is ignored, a file without one refused. */
static int pngio_walk(const unsigned char *p, size_t n, char *why, size_t whylen)
{
	size_t off = 8;

	while (n - off >= 8) {
		int rc = pngio_walk_one(p + off, n - off, why, whylen);

		if (rc != PNGIO_OK)
			return rc;
		if (memcmp(p + off + 4, "IEND", 4) == 0)
			return PNGIO_OK;
		off += 12 + pngio_be32(p + off);
	}
	snprintf(why, whylen, "the PNG image is damaged: the file ends before its IEND chunk");
	return PNGIO_E_FORMAT;
}

static int pngio_job_start(struct pngio_job *j, const unsigned char *p, size_t n,
			   const struct pngio_limits *lim, char *why, size_t whylen)
{
	memset(j, 0, sizeof *j);
	j->p = p;
	j->n = n;
	j->lim = lim;
	j->why = why;
	j->whylen = whylen;
	why[0] = '\0';
	if (n < 8 || png_sig_cmp(p, 0, 8) != 0)
		return snprintf(why, whylen, "not a PNG image"), PNGIO_E_FORMAT;
	if (pngio_walk(p, n, why, whylen) != PNGIO_OK)
		return PNGIO_E_FORMAT;
	j->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, j, pngio_error_cb, pngio_warning_cb);
	j->info = j->png ? png_create_info_struct(j->png) : NULL;
	if (j->info == NULL)
		return snprintf(why, whylen, "libpng could not start"), PNGIO_E_FORMAT;
	return PNGIO_OK;
}

static void pngio_job_end(struct pngio_job *j)
{
	if (j->png)
		png_destroy_read_struct(&j->png, &j->info, NULL);
	free(j->row);
	free(j->rows);
	free(j->image);
}

static int pngio_job(const unsigned char *p, size_t n, const struct pngio_limits *lim,
		     enum pngio_mode mode, struct pngio_info *head, struct pngio_image *keep,
		     int (*row)(void *ctx, int y, const unsigned char *rgba, int w), void *ctx,
		     char *why, size_t whylen)
{
	struct pngio_job j;
	int rc = pngio_job_start(&j, p, n, lim, why, whylen);

	if (rc == PNGIO_OK)
		rc = pngio_job_run(&j, mode, row, ctx);
	if (head)
		*head = j.head;
	if (rc == PNGIO_OK && keep) {
		keep->w = j.head.w;
		keep->h = j.head.h;
		keep->rgba = j.image;
		j.image = NULL;
	}
	pngio_job_end(&j);
	return rc;
}

int pngio_info(const unsigned char *p, size_t n, const struct pngio_limits *lim,
	       struct pngio_info *out, char *why, size_t whylen)
{
	return pngio_job(p, n, lim, PNGIO_HEAD, out, NULL, NULL, NULL, why, whylen);
}

int pngio_read_rows(const unsigned char *p, size_t n, const struct pngio_limits *lim,
		    struct pngio_info *out,
		    int (*row)(void *ctx, int y, const unsigned char *rgba, int w), void *ctx,
		    char *why, size_t whylen)
{
	return pngio_job(p, n, lim, PNGIO_ROWS, out, NULL, row, ctx, why, whylen);
}

int pngio_decode(const unsigned char *p, size_t n, const struct pngio_limits *lim,
		 struct pngio_image *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	return pngio_job(p, n, lim, PNGIO_WHOLE, NULL, out, NULL, NULL, why, whylen);
}

void pngio_image_free(struct pngio_image *img)
{
	free(img->rgba);
	img->rgba = NULL;
}

static int pngio_write(struct pngio_job *j, const struct pngio_image *img)
{
	if (setjmp(png_jmpbuf(j->png)))
		return -1;
	png_set_write_fn(j->png, j, pngio_write_cb, pngio_flush_cb);
	png_set_IHDR(j->png, j->info, (png_uint_32)img->w, (png_uint_32)img->h, 8,
		     PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(j->png, j->info);
	png_write_image(j->png, j->rows);
	png_write_end(j->png, NULL);
	return 0;
}

int pngio_encode(const struct pngio_image *img, struct buf *out)
{
	struct pngio_job j;
	char why[160];
	size_t start = out->len, stride = (size_t)img->w * 4;
	int rc = -1;

	memset(&j, 0, sizeof j);
	j.out = out;
	j.why = why;
	j.whylen = sizeof why;
	if (img->w <= 0 || img->h <= 0)
		return -1;
	j.rows = xmalloc(sizeof *j.rows * (size_t)img->h);
	for (int y = 0; y < img->h; y++)
		j.rows[y] = img->rgba + stride * (size_t)y;
	j.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &j, pngio_error_cb, pngio_warning_cb);
	j.info = j.png ? png_create_info_struct(j.png) : NULL;
	if (j.info)
		rc = pngio_write(&j, img);
	if (j.png)
		png_destroy_write_struct(&j.png, &j.info);
	free(j.rows);
	if (rc < 0 && out->data) {
		out->len = start;
		out->data[start] = '\0';
	}
	return rc;
}
