/* The dominant colours of an image, for pictures drawn in a reference
 * image's colours (the offline provider): PNG pixels read through
 * pngio.c within the caller's limits (every few pixels sampled on large
 * images, transparent ones left out), counted in a 4-bit-per-channel
 * histogram whose fullest bins, each as the mean of its pixels, are the
 * palette; SVG by the #rrggbb colours its source names. JPEG, GIF and
 * WebP pixels would need their decoders: no colours, and why. The same
 * bytes always give the same palette. */
#ifndef AV_PALETTE_H
#define AV_PALETTE_H
#include <stddef.h>
#include "util/pngio.h"

#define PALETTE_MAX 5

struct palette {
	int n;                              /* colours found, most frequent first */
	unsigned char rgb[PALETTE_MAX][3];
	double share[PALETTE_MAX];          /* of the pixels (or colour mentions) counted */
};

/* 0 with at least one colour, or -1 with why. */
int palette_of(const unsigned char *p, size_t n, const char *mime, const struct pngio_limits *lim,
	       struct palette *out, char *why, size_t whylen);

#endif
