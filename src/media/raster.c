/* SVG to PNG through librsvg and cairo (see raster.h). librsvg, cairo
 * and GLib are loaded the first time a picture is drawn (dlopen), not
 * when the worker starts: most workers never draw one, and the libraries
 * cost every process that loads them about a megabyte. */
#include "config.h"
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <gio/gio.h>
#include <librsvg/rsvg.h>
#include "media/raster.h"

/* librsvg's soname; its dependencies bring cairo, GIO and GLib. */
#define RASTER_LIB "librsvg-2.so.2"

#define RASTER_FUNCS(X) X(g_memory_input_stream_new_from_data) X(g_object_unref) \
	X(g_clear_error) X(rsvg_handle_new_from_stream_sync) X(rsvg_handle_set_dpi) \
	X(rsvg_handle_get_intrinsic_size_in_pixels) X(rsvg_handle_get_intrinsic_dimensions) \
	X(rsvg_handle_render_document) X(cairo_image_surface_create) X(cairo_create) \
	X(cairo_scale) X(cairo_status) X(cairo_status_to_string) X(cairo_destroy) \
	X(cairo_surface_flush) X(cairo_surface_write_to_png_stream) X(cairo_surface_destroy)

static struct {
	int tried, ok;
	char err[256];
#define RASTER_FIELD(f) __typeof__(&f) f;
	RASTER_FUNCS(RASTER_FIELD)
#undef RASTER_FIELD
} rl;

/* Loads the libraries once; 0, or -1 (rl.err says why, every time). */
static int raster_lib(void)
{
	void *h;

	if (rl.tried)
		return rl.ok ? 0 : -1;
	rl.tried = 1;
	h = dlopen(RASTER_LIB, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(rl.err, sizeof rl.err, "cannot load %s: %s", RASTER_LIB, dlerror());
		return -1;
	}
#define RASTER_SYM(f) \
	if ((rl.f = (__typeof__(&f))dlsym(h, #f)) == NULL) { \
		snprintf(rl.err, sizeof rl.err, "%s has no %s", RASTER_LIB, #f); \
		return -1; \
	}
	RASTER_FUNCS(RASTER_SYM)
#undef RASTER_SYM
	rl.ok = 1;
	return 0;
}

/* The size a picture is drawn at. */
struct raster_size {
	double iw, ih;          /* its own size in pixels, or its proportions */
	int w, h;
};

/* The reason in err, on one line (libxml ends its messages with one). */
static int raster_fail(char *err, size_t errlen, int code, const char *fmt, const char *what)
{
	size_t n;

	snprintf(err, errlen, fmt, what ? what : "");
	n = strlen(err);
	while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
		err[--n] = '\0';
	return code;
}

/* The document, parsed with no base file: librsvg then resolves no
 * relative href and loads nothing but data: URLs. */
static RsvgHandle *raster_load(const void *svg, size_t len, char *err, size_t errlen)
{
	GInputStream *in = rl.g_memory_input_stream_new_from_data(svg, (gssize)len, NULL);
	GError *e = NULL;
	RsvgHandle *h = rl.rsvg_handle_new_from_stream_sync(in, NULL, RSVG_HANDLE_FLAGS_NONE, NULL,
							  &e);

	rl.g_object_unref(in);
	if (h == NULL) {
		raster_fail(err, errlen, RASTER_E_SVG, "not a readable SVG: %s",
			    e ? e->message : "librsvg refused it");
		rl.g_clear_error(&e);
		return NULL;
	}
	rl.rsvg_handle_set_dpi(h, 96.0);
	return h;
}

/* The picture's own size in pixels; for one sized in percentages, its
 * viewBox's proportions; else a square. */
static void raster_intrinsic(RsvgHandle *h, struct raster_size *sz)
{
	gboolean has_w, has_h, has_vb;
	RsvgLength lw, lh;
	RsvgRectangle vb;

	if (rl.rsvg_handle_get_intrinsic_size_in_pixels(h, &sz->iw, &sz->ih) && sz->iw >= 1 &&
	    sz->ih >= 1)
		return;
	rl.rsvg_handle_get_intrinsic_dimensions(h, &has_w, &lw, &has_h, &lh, &has_vb, &vb);
	if (has_vb && vb.width > 0 && vb.height > 0) {
		sz->iw = RASTER_DEFAULT_MAX;
		sz->ih = RASTER_DEFAULT_MAX * vb.height / vb.width;
	} else {
		sz->iw = sz->ih = RASTER_DEFAULT_MAX;
	}
}

/* A width asked for (0: none) within its bounds. */
static int raster_width_ok(int width, char *err, size_t errlen)
{
	if (width != 0 && (width < RASTER_MIN_WIDTH || width > RASTER_MAX_WIDTH)) {
		snprintf(err, errlen, "width %d is outside %d..%d", width, RASTER_MIN_WIDTH,
			 RASTER_MAX_WIDTH);
		return RASTER_E_SIZE;
	}
	return RASTER_OK;
}

/* The width asked for, or the picture's own (capped), and the height in
 * proportion, within its bounds. */
static int raster_fit(struct raster_size *sz, int width, char *err, size_t errlen)
{
	double h;

	if (width == 0)
		width = sz->iw > RASTER_DEFAULT_MAX ? RASTER_DEFAULT_MAX : (int)lround(sz->iw);
	h = round(width * sz->ih / sz->iw);
	if (!(h >= 1 && h <= RASTER_MAX_HEIGHT) ||
	    (long long)width * (long long)h * 4 > RASTER_MAX_PIXEL_BYTES) {
		snprintf(err, errlen, "a picture %d pixels wide would be %.0f high: at most %d",
			 width, h, RASTER_MAX_HEIGHT);
		return RASTER_E_SIZE;
	}
	sz->w = width;
	sz->h = (int)h;
	return RASTER_OK;
}

static cairo_status_t raster_write(void *closure, const unsigned char *data, unsigned int n)
{
	return buf_add(closure, data, n) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Draws the document scaled to the surface and writes it as a PNG. */
static int raster_draw(RsvgHandle *h, const struct raster_size *sz, struct buf *out, char *err,
		       size_t errlen)
{
	cairo_surface_t *s = rl.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sz->w, sz->h);
	cairo_t *cr = rl.cairo_create(s);
	RsvgRectangle vp = { 0, 0, sz->iw, sz->ih };
	size_t before = out->len;
	GError *e = NULL;
	int rc = RASTER_OK;

	/* The picture fills the surface: the height was rounded, so the
	 * scales differ by less than a pixel, and no edge is left empty. */
	rl.cairo_scale(cr, sz->w / sz->iw, sz->h / sz->ih);
	if (rl.cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = raster_fail(err, errlen, RASTER_E_RENDER, "cairo: %s",
				 rl.cairo_status_to_string(rl.cairo_status(cr)));
	else if (!rl.rsvg_handle_render_document(h, cr, &vp, &e))
		rc = raster_fail(err, errlen, RASTER_E_RENDER, "drawing the SVG: %s",
				 e ? e->message : "librsvg failed");
	rl.g_clear_error(&e);
	rl.cairo_destroy(cr);
	if (rc == RASTER_OK) {
		rl.cairo_surface_flush(s);
		if (rl.cairo_surface_write_to_png_stream(s, raster_write, out) != CAIRO_STATUS_SUCCESS) {
			out->len = before;
			if (out->data)
				out->data[before] = '\0';
			rc = raster_fail(err, errlen, RASTER_E_RENDER, "%s",
					 "the PNG does not fit the space given");
		}
	}
	rl.cairo_surface_destroy(s);
	return rc;
}

int raster_svg_png(const void *svg, size_t len, int width, struct buf *out, int *w, int *h,
		   char *err, size_t errlen)
{
	struct raster_size sz = { 0 };
	RsvgHandle *doc;
	int rc;

	if (svg == NULL || len == 0)
		return raster_fail(err, errlen, RASTER_E_SVG, "%s", "the SVG is empty");
	if (raster_lib() < 0)
		return raster_fail(err, errlen, RASTER_E_RENDER, "%s", rl.err);
	if (raster_width_ok(width, err, errlen) != RASTER_OK)
		return RASTER_E_SIZE;
	doc = raster_load(svg, len, err, errlen);
	if (doc == NULL)
		return RASTER_E_SVG;
	raster_intrinsic(doc, &sz);
	rc = raster_fit(&sz, width, err, errlen);
	if (rc == RASTER_OK)
		rc = raster_draw(doc, &sz, out, err, errlen);
	rl.g_object_unref(doc);
	if (rc == RASTER_OK) {
		*w = sz.w;
		*h = sz.h;
	}
	return rc;
}

int raster_width_snap(int width)
{
	static const int sizes[] = { 256, 512, 1024, 1080, 2048, 4096 };

	for (size_t i = 0; width > 0 && i < sizeof sizes / sizeof sizes[0]; i++)
		if (width <= sizes[i])
			return sizes[i];
	return width;
}

struct raster_job {
	const void *svg;
	size_t len;
	int width;
};

/* In the child: the drawing, its PNG the answer. */
static int raster_job_run(void *arg, struct buf *out, char *err, size_t errlen)
{
	const struct raster_job *j = arg;
	int w, h;

	return raster_svg_png(j->svg, j->len, j->width, out, &w, &h, err, errlen);
}

/* The size of the PNG at p (n bytes), from its IHDR. */
static int raster_png_size(const unsigned char *p, size_t n, int *w, int *h)
{
	if (n < 24 || memcmp(p + 12, "IHDR", 4) != 0)
		return -1;
	*w = (int)((uint32_t)p[16] << 24 | (uint32_t)p[17] << 16 | (uint32_t)p[18] << 8 | p[19]);
	*h = (int)((uint32_t)p[20] << 24 | (uint32_t)p[21] << 16 | (uint32_t)p[22] << 8 | p[23]);
	return 0;
}

/* A budget's verdict as a drawing's code. */
static int raster_budget_code(int brc)
{
	if (budget_exceeded(brc))
		return RASTER_E_BUDGET;
	if (brc == BUDGET_CLIENT_GONE)
		return RASTER_E_GONE;
	return brc == BUDGET_NO_CHILD ? RASTER_E_SYSTEM : RASTER_E_RENDER;
}

int raster_svg_png_budget(const struct budget *b, const void *svg, size_t len, int width,
			  struct buf *out, int *w, int *h, char *err, size_t errlen)
{
	struct raster_job j = { svg, len, width };
	size_t before = out->len;
	int brc, rc = RASTER_E_RENDER;

	if (svg == NULL || len == 0)
		return raster_fail(err, errlen, RASTER_E_SVG, "%s", "the SVG is empty");
	if (raster_width_ok(width, err, errlen) != RASTER_OK)
		return RASTER_E_SIZE;
	brc = budget_run(b, raster_job_run, &j, out, &rc, err, errlen);
	if (brc != BUDGET_OK)
		return raster_budget_code(brc);
	if (rc == RASTER_OK &&
	    raster_png_size((const unsigned char *)out->data + before, out->len - before, w, h) < 0) {
		out->len = before;
		if (out->data)
			out->data[before] = '\0';
		return raster_fail(err, errlen, RASTER_E_RENDER, "%s", "the drawing is not a PNG");
	}
	return rc;
}
