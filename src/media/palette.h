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
	/* Means over what was counted: luma and saturation in [0, 1], warmth
	 * (red minus blue) in [-1, 1]. */
	double brightness, saturation, warmth;
};

/* Why there are no colours. */
enum palette_rc {
	PALETTE_OK = 0,
	PALETTE_UNSUPPORTED,   /* a format whose pixels cannot be read here */
	PALETTE_TOO_LARGE,     /* beyond the caller's limits */
	PALETTE_BAD_HEADER,    /* not a PNG this can read */
	PALETTE_BAD_DATA,      /* the pixel data does not decode */
	PALETTE_NO_COLOUR,     /* nothing opaque, or an SVG naming no colour */
};

/* PALETTE_OK with at least one colour, or why not (and why in words). */
enum palette_rc palette_of(const unsigned char *p, size_t n, const char *mime,
			   const struct pngio_limits *lim, struct palette *out, char *why,
			   size_t whylen);

#endif
