/* The writer the offline pictures share: svg.c writes the document
 * around a picture, scene_draw.c the scene inside it. Within src/prov
 * only. */
#ifndef AV_SVG_INT_H
#define AV_SVG_INT_H
#include <stddef.h>
#include <stdint.h>
#include <sodium.h>
#include "util/buf.h"

/* A generator seeded from the prompt and a seed: the same pair always
 * gives the same numbers. */
struct svg_rng {
	unsigned char seed[crypto_generichash_BYTES];
	unsigned char block[crypto_generichash_BYTES];
	size_t pos;
	uint64_t ctr;
};

struct svg_ctx {
	struct buf *out;
	struct svg_rng rng;
	int w, h;
	const char *lang;       /* the prompt's: "zh" or "en" */
	int rc;                 /* -1 once an append failed */
};

/* A number in [lo, hi]. */
int svg_rand(struct svg_rng *r, int lo, int hi);
/* A printf of %d, %02d, %s and %% only, for pieces under 1 KiB. */
void svg_put(struct svg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n bytes as they are (base64 text, checked markup). */
void svg_add(struct svg_ctx *c, const char *s, size_t n);
/* s[0, len) escaped as XML text, at most max characters. */
void svg_escape(struct svg_ctx *c, const char *s, size_t len, size_t max);
/* "#rrggbb" of three components in [0, 255]. */
void svg_hex(char out[8], int r, int g, int b);

/* Where the subjects go: the whole picture, or (an inpainting) the box
 * around the mask's white pixels, in the picture's pixels. */
struct scene_box {
	int set;
	int x, y, w, h;
};

/* The scene the prompt asks for: background, props, the subjects of
 * subject (NULL: of the prompt), the style filter and the light, as one
 * group; in a reference image's colours when ncolours > 0 (rgb
 * borrowed). */
void scene_draw(struct svg_ctx *c, const char *prompt, const char *subject,
		const unsigned char (*rgb)[3], int ncolours, const struct scene_box *box);

#endif
