/* The offline provider's pictures: SVG drawn from a hash of the prompt,
 * so the same prompt always gives the same bytes and different prompts
 * give different pictures; and inpainting, which composites a new
 * rendering over a base image through the user's mask. The output is a
 * static document: no script, no event attributes, no external
 * references (images are embedded as data: URIs), all text escaped. */
#ifndef AV_SVG_H
#define AV_SVG_H
#include <stddef.h>
#include "util/buf.h"

/* Sizes outside [SVG_MIN_SIDE, SVG_MAX_SIDE] are clamped; 0 means 1024. */
#define SVG_MIN_SIDE 16
#define SVG_MAX_SIDE 4096

/* Appends the document to out. 0, or -1 when out's cap was reached (out
 * then holds a partial document the caller discards). */
int svg_render(const char *prompt, int width, int height, struct buf *out);

/* The same picture (the prompt's composition) in the colours given
 * (ncolours of them, the most frequent first: a reference image's), in
 * place of the prompt's palette; with none, svg_render. */
int svg_render_palette(const char *prompt, int width, int height, const unsigned char (*rgb)[3],
		       int ncolours, struct buf *out);

/* The base image with, where the mask is white, a new rendering for the
 * prompt. Both images are embedded with their media types. 0, or -1 with
 * a reason in err (a media type that cannot be embedded, out's cap). */
int svg_inpaint(const char *prompt, const unsigned char *base, size_t base_len,
		const char *base_mime, const unsigned char *mask, size_t mask_len,
		const char *mask_mime, int width, int height, struct buf *out,
		char *err, size_t errlen);

/* 1 for the media types svg_inpaint embeds (PNG, JPEG, GIF, WebP, BMP, SVG). */
int svg_mime_ok(const char *mime);

/* Bytes svg_inpaint needs at most beyond the images' base64 text. */
#define SVG_SCENE_MAX (256 * 1024)

#endif
