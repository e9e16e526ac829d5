/* The offline provider's pictures: a scene of what the prompt asks
 * (scene.h: its subjects as colour emoji in a background, a style, the
 * colours and light asked for), composed from a hash of the prompt and a
 * seed, so the same prompt and seed always give the same bytes and
 * another seed another composition; and inpainting, which composites a
 * new scene over a base image through the user's mask. The output is a
 * static document: no script, no event attributes, no external
 * references (images are embedded as data: URIs), all text escaped. */
#ifndef AV_SVG_H
#define AV_SVG_H
#include <stddef.h>
#include "util/buf.h"

/* Sizes outside [SVG_MIN_SIDE, SVG_MAX_SIDE] are clamped; 0 means 1024. */
#define SVG_MIN_SIDE 16
#define SVG_MAX_SIDE 4096

/* What a drawing is asked beyond the prompt; all zero: the prompt's own
 * picture in its own colours. */
struct svg_opts {
	unsigned seed;                  /* another seed, another composition */
	/* The words whose subjects are drawn and which, with the seed, choose
	 * the composition, when the prompt says more (a style's words, an
	 * adjustment's light): NULL, the prompt. */
	const char *subject;
	const unsigned char (*rgb)[3];  /* a reference image's colours (borrowed) */
	int ncolours;
	/* An inpainting: the box around the mask's white pixels, in the
	 * mask's pixels (mask_w x mask_h), where the new subjects go. */
	int mask_w, mask_h, box_x, box_y, box_w, box_h;
};

/* Appends the document to out. 0, or -1 when out's cap was reached (out
 * then holds a partial document the caller discards). */
int svg_render(const char *prompt, int width, int height, struct buf *out);

/* The picture as o asks (NULL: as svg_render draws it). */
int svg_render_opts(const char *prompt, int width, int height, const struct svg_opts *o,
		    struct buf *out);

/* The same picture (the prompt's composition) in the colours given
 * (ncolours of them, the most frequent first: a reference image's), in
 * place of the prompt's palette; with none, svg_render. */
int svg_render_palette(const char *prompt, int width, int height, const unsigned char (*rgb)[3],
		       int ncolours, struct buf *out);

/* The base image with, where the mask is white, a new scene for the
 * prompt, its subjects in o's box (o may be NULL). Both images are
 * embedded with their media types. 0, or -1 with
 * a reason in err (a media type that cannot be embedded, out's cap). */
int svg_inpaint(const char *prompt, const unsigned char *base, size_t base_len,
		const char *base_mime, const unsigned char *mask, size_t mask_len,
		const char *mask_mime, int width, int height, const struct svg_opts *o,
		struct buf *out, char *err, size_t errlen);

/* 1 for the media types svg_inpaint embeds (PNG, JPEG, GIF, WebP, BMP, SVG). */
int svg_mime_ok(const char *mime);

/* Bytes svg_inpaint needs at most beyond the images' base64 text. */
#define SVG_SCENE_MAX (256 * 1024)

#endif
