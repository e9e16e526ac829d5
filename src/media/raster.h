/* SVG pictures as PNG files people can post: librsvg parses and draws
 * the document into a cairo image surface, cairo writes the PNG. The SVG
 * may come from anyone, so it is loaded with no base file: librsvg then
 * loads nothing but data: URLs (no file, no http, no relative href), and
 * the pixels are bounded before any is allocated. Errors come back as a
 * code with a message; nothing is written to stderr. The libraries are
 * loaded on the first drawing (librsvg-2.so.2, at run time): when they
 * cannot be, the drawing fails with RASTER_E_RENDER saying why. */
#ifndef AV_RASTER_H
#define AV_RASTER_H
#include <stddef.h>
#include "util/budget.h"
#include "util/buf.h"

/* Widths a caller may ask for, in pixels. */
#define RASTER_MIN_WIDTH 64
#define RASTER_MAX_WIDTH 4096
/* Without a width: the picture's own width, no wider than this. */
#define RASTER_DEFAULT_MAX 2048
/* The height that follows from the width and the picture's proportions
 * is bounded too, and so are the bytes of the pixels (4 a pixel): a
 * 4096 x 4096 picture, 64 MiB, at most. */
#define RASTER_MAX_HEIGHT 4096
#define RASTER_MAX_PIXEL_BYTES (64LL << 20)

enum raster_error {
	RASTER_OK = 0,
	RASTER_E_SIZE = -1,    /* the width asked for, or the size it leads to, is out of bounds */
	RASTER_E_SVG = -2,     /* not an SVG librsvg can read */
	RASTER_E_RENDER = -3,  /* drawing or writing the PNG failed (out's cap included) */
	RASTER_E_BUDGET = -4,  /* stopped by its budget: CPU, memory or time (err says which) */
	RASTER_E_GONE = -5,    /* stopped because the client left */
	RASTER_E_SYSTEM = -6,  /* no process could be started for it */
};

/* The SVG svg (len bytes) drawn width pixels wide (0: its own width,
 * capped at RASTER_DEFAULT_MAX), its height in proportion, as a PNG
 * appended to out. RASTER_OK with the size in *w and *h, or an error
 * with err filled (out is then left as it was). */
int raster_svg_png(const void *svg, size_t len, int width, struct buf *out, int *w, int *h,
		   char *err, size_t errlen);
/* The same drawn in a child process under b (util/budget.h), which is how
 * a request draws a picture someone sent: librsvg is loaded in the child
 * only. The codes above, or RASTER_E_BUDGET, RASTER_E_GONE or
 * RASTER_E_SYSTEM; a crash of the child is RASTER_E_RENDER. */
int raster_svg_png_budget(const struct budget *b, const void *svg, size_t len, int width,
			  struct buf *out, int *w, int *h, char *err, size_t errlen);

/* The widths a picture is drawn at, so that one picture has a few
 * drawings, not one per pixel of width: a width asked for
 * (RASTER_MIN_WIDTH..RASTER_MAX_WIDTH) rounded up to the next of 256, 512,
 * 1024, 1080 (the width social sites post at), 2048 and 4096; 0 (the
 * picture's own width) stays 0. */
int raster_width_snap(int width);

#endif
