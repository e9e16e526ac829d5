/* PNG pixels in and out: every colour type at bit depths 1 to 16 (not
 * interlaced) read row by row as RGBA, so a caller can sample a large
 * image without holding it; RGBA written. For the reference-image
 * analysis of the note workflow and the inpainting masks sent to a
 * provider. */
#ifndef AV_PNG_H
#define AV_PNG_H
#include <stddef.h>
#include "util/buf.h"

enum png_error {
	PNG_OK = 0,
	PNG_E_FORMAT = -1,      /* not a PNG, or its header is damaged */
	PNG_E_LAYOUT = -2,      /* a depth / colour type combination PNG does not define */
	PNG_E_INTERLACED = -3,  /* interlaced: not read */
	PNG_E_TOO_LARGE = -4,   /* more pixels than allowed */
	PNG_E_DATA = -5,        /* the pixel data does not inflate or unfilter */
};

/* A message for an error, in English. */
const char *png_strerror(int e);

/* Reads the image, calling row(ctx, y, rgba, w) for each row in order
 * (rgba: w * 4 bytes, lent for the call; alpha 255 where the image has
 * none). A row callback returning nonzero stops the reading (PNG_OK).
 * *w and *h get the size. */
int png_read_rows(const unsigned char *p, size_t n, long max_pixels, int *w, int *h,
		  int (*row)(void *ctx, int y, const unsigned char *rgba, int w), void *ctx);

struct png_image {
	int w, h;
	unsigned char *rgba;   /* w * h * 4 bytes, malloc'd */
};

/* The whole image. PNG_OK, or an error with why filled. */
int png_decode(const unsigned char *p, size_t n, long max_pixels, struct png_image *out,
	       char *why, size_t whylen);
void png_image_free(struct png_image *img);
/* The image as an RGBA PNG appended to out. 0, or -1 past out's cap. */
int png_encode(const struct png_image *img, struct buf *out);

#endif
