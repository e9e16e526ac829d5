/* PNG pixels in and out, for images that go to a provider that wants a
 * particular form (an inpainting mask as transparency). 8-bit images of
 * every colour type but interlaced ones are read; RGBA is written. */
#ifndef AV_PNG_H
#define AV_PNG_H
#include <stddef.h>
#include "util/buf.h"

struct png_image {
	int w, h;
	unsigned char *rgba;   /* w * h * 4 bytes, malloc'd */
};

/* 0, or -1 with why filled (not a PNG, a depth or layout not read, larger
 * than max_pixels, damaged data). */
int png_decode(const unsigned char *p, size_t n, long max_pixels, struct png_image *out,
	       char *why, size_t whylen);
void png_image_free(struct png_image *img);
/* The image as an RGBA PNG appended to out. 0, or -1 past out's cap. */
int png_encode(const struct png_image *img, struct buf *out);

#endif
