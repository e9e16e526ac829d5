/* PNG pixels in and out through libpng: every colour type and depth,
 * interlaced or not, read as 8-bit RGBA (palettes, grey and tRNS
 * expanded, 16-bit channels cut to 8, alpha 255 where the image has
 * none); RGBA written. The size and the limits come from libpng's own
 * parse of the header (one IHDR, in its place, or the file is refused),
 * and are checked before any row is inflated: width and height through
 * png_set_user_limits, the inflated bytes against the caller's budget.
 * Before libpng sees a file, every entry point walks its chunks from the
 * signature to IEND: a declared length over 2^31-1 or past the bytes
 * present, a bad CRC in IHDR, PLTE, IDAT or IEND, or no IEND, and the
 * file is refused (PNGIO_E_FORMAT) at once; bytes after IEND are ignored.
 * An ancillary chunk that would take more than 1 MiB (declared, or
 * inflated: zTXt, iTXt, iCCP) is refused too; libpng's other complaints
 * about ancillary chunks (a bad CRC, an odd iCCP or sRGB) are not.
 * libpng reports through pngio's callbacks: nothing goes to stderr, the
 * message comes back in why. For the reference-image colours of the note
 * workflow and the inpainting base image and mask sent to a provider.
 * (libpng owns the png_ prefix, hence pngio_.) */
#ifndef AV_PNGIO_H
#define AV_PNGIO_H
#include <stddef.h>
#include "util/buf.h"

enum pngio_error {
	PNGIO_OK = 0,
	PNGIO_E_FORMAT = -1,     /* not a PNG, or libpng refuses it (the message says why) */
	PNGIO_E_TOO_LARGE = -2,  /* wider or taller than allowed, or more bytes than allowed */
};

struct pngio_limits {
	long max_side;           /* width and height, each, in pixels */
	long long max_bytes;     /* the pixels once inflated (see pngio_info.bytes) */
};

struct pngio_info {
	int w, h;
	int depth, ctype;        /* as stored: bits per channel, PNG colour type */
	int interlaced;          /* Adam7: read, but only as a whole image */
	long long bytes;         /* the inflated pixels: h rows of the larger of the stored
				  * row and w * 4 (the RGBA row given to callers) */
};

/* The header as libpng reads it (every chunk before the first IDAT),
 * checked against lim; no row is inflated. PNGIO_OK, or an error with why
 * filled. */
int pngio_info(const unsigned char *p, size_t n, const struct pngio_limits *lim,
	       struct pngio_info *out, char *why, size_t whylen);

/* Reads the image, calling row(ctx, y, rgba, w) for each row in order
 * (rgba: w * 4 bytes, lent for the call). A row callback returning
 * nonzero stops the reading (PNGIO_OK). out (may be NULL) gets the
 * header. A non-interlaced image is read one row at a time; an
 * interlaced one is decoded whole first, within the same limits. */
int pngio_read_rows(const unsigned char *p, size_t n, const struct pngio_limits *lim,
		    struct pngio_info *out,
		    int (*row)(void *ctx, int y, const unsigned char *rgba, int w), void *ctx,
		    char *why, size_t whylen);

struct pngio_image {
	int w, h;
	unsigned char *rgba;     /* w * h * 4 bytes, malloc'd */
};

/* The whole image. PNGIO_OK, or an error with why filled and out empty. */
int pngio_decode(const unsigned char *p, size_t n, const struct pngio_limits *lim,
		 struct pngio_image *out, char *why, size_t whylen);
void pngio_image_free(struct pngio_image *img);
/* The image as an 8-bit RGBA PNG appended to out. 0, or -1 past out's cap
 * (out is left as it was). */
int pngio_encode(const struct pngio_image *img, struct buf *out);

#endif
