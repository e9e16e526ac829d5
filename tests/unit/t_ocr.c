/* Offline OCR (ocr.c) on pictures made here: lines of known English and
 * Chinese text drawn by librsvg (raster.c) from an SVG, decoded as PNG
 * (pixels.c), read by Tesseract. Each line must be found with its words
 * (case and spaces aside) and its box inside the band where it was drawn.
 * A picture of noise, which keeps Tesseract busy for minutes, is stopped
 * by the [media] budget the process was given (the reading runs in a
 * child). Without Tesseract, or without its language data, the test says
 * so and skips. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "media/ocr.h"
#include "media/pixels.h"
#include "media/raster.h"
#include "util/budget.h"
#include "util/buf.h"
#include "util/clock.h"

struct line_case {
	const char *text;      /* drawn */
	const char *want;      /* what the OCR text must contain (spaces removed, lower case) */
	const char *font;
	int x, baseline, size;
};

struct ocr_case {
	const char *name, *langs;
	int w, h;
	struct line_case lines[3];
	int n;
};

static const struct ocr_case cases[] = {
	{ "English lines", "eng", 900, 260, {
		{ "Invoice Total 4200", "invoicetotal4200", "DejaVu Sans", 40, 80, 48 },
		{ "Open the door quickly", "openthedoorquickly", "DejaVu Sans", 40, 190, 44 } }, 2 },
	{ "Chinese and English", "chi_sim+eng", 900, 260, {
		{ "欢迎使用系统", "欢迎使用系统", "WenQuanYi Micro Hei", 40, 90, 56 },
		{ "Hello 2026", "hello2026", "DejaVu Sans", 40, 200, 48 } }, 2 },
};

static char *squash(const char *s)
{
	char *o = malloc(strlen(s) + 1), *p = o;

	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			*p++ = (char)tolower((unsigned char)*s);
	*p = '\0';
	return o;
}

static int make_picture(const struct ocr_case *c, struct pixels *px)
{
	struct buf svg, png;
	int w, h, rc;
	char err[256];
	static const struct pngio_limits lim = { 4096, 64LL << 20 };

	buf_init(&svg, 1 << 16);
	buf_printf(&svg, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'>"
		   "<rect width='100%%' height='100%%' fill='white'/>", c->w, c->h);
	for (int i = 0; i < c->n; i++)
		buf_printf(&svg, "<text x='%d' y='%d' font-family='%s' font-size='%d' fill='black'>%s</text>",
			   c->lines[i].x, c->lines[i].baseline, c->lines[i].font, c->lines[i].size,
			   c->lines[i].text);
	buf_adds(&svg, "</svg>");
	buf_init(&png, 1 << 24);
	rc = raster_svg_png(svg.data, svg.len, 0, &png, &w, &h, err, sizeof(err));
	if (rc == RASTER_OK)
		rc = pixels_decode((unsigned char *)png.data, png.len, "image/png", &lim, px, err, sizeof(err));
	if (rc)
		printf("# %s: %s\n", c->name, err);
	buf_free(&svg);
	buf_free(&png);
	return rc;
}

/* The region whose text holds want, or NULL. */
static const json_t *find_line(const json_t *regions, const char *want)
{
	size_t i;
	json_t *r;

	json_array_foreach(regions, i, r) {
		char *t = squash(json_string_value(json_object_get(r, "text")));
		int hit = strstr(t, want) != NULL;

		free(t);
		if (hit)
			return r;
	}
	return NULL;
}

static void check_line(const struct ocr_case *c, const struct line_case *l, const json_t *regions)
{
	const json_t *r = find_line(regions, l->want), *bb = json_object_get(r, "boundingBox");
	int x = (int)json_integer_value(json_object_get(bb, "x"));
	int y = (int)json_integer_value(json_object_get(bb, "y"));
	int w = (int)json_integer_value(json_object_get(bb, "width"));
	int h = (int)json_integer_value(json_object_get(bb, "height"));
	double conf = json_number_value(json_object_get(r, "confidence"));

	if (!ok(r != NULL, "%s: \"%s\" is read", c->name, l->text)) {
		char *dump = json_dumps(regions, 0);

		printf("# read: %s\n", dump);
		free(dump);
		return;
	}
	ok(x >= l->x - 4 && x <= l->x + l->size, "%s: \"%s\" starts where it was drawn (x %d)",
	   c->name, l->text, x);
	ok(y >= l->baseline - l->size * 5 / 4 && y + h <= l->baseline + l->size / 2 && h > l->size / 3,
	   "%s: \"%s\" box is in its band (y %d, height %d)", c->name, l->text, y, h);
	ok(x + w <= c->w && w > l->size, "%s: \"%s\" box width %d", c->name, l->text, w);
	ok(conf > 0.5 && conf <= 1.0, "%s: \"%s\" confidence %.2f", c->name, l->text, conf);
}

int main(void)
{
	if (!ocr_available()) {
		printf("ok 1 # SKIP built without Tesseract (libtesseract-dev)\n");
		tap_n = 1;
		return tap_done();
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ocr_case *c = &cases[i];
		struct pixels px;
		char err[256];
		json_t *out;

		if (make_picture(c, &px))
			tap_bail("%s: the picture could not be made", c->name);
		out = ocr_read(&px, c->langs, err, sizeof(err));
		if (!out && strstr(err, "language data")) {
			printf("ok %d # SKIP %s\n", ++tap_n, err);
			pixels_free(&px);
			continue;
		}
		ok(out != NULL, "%s: read (%s)", c->name, out ? "" : err);
		is_int(json_integer_value(json_object_get(json_object_get(out, "imageSize"), "width")),
		       c->w, "%s: imageSize", c->name);
		for (int k = 0; k < c->n; k++)
			check_line(c, &c->lines[k], json_object_get(out, "textRegions"));
		json_decref(out);
		pixels_free(&px);
	}
	{
		/* Noise from a fixed generator: one pixel in five black, which
		 * Tesseract reads for many seconds as would-be letters. */
		struct pixels noise = { 1500, 1500, malloc(1500 * 1500 * 4) };
		unsigned x = 12345;
		char err[256] = "";
		long long t0 = clock_mono_ms();
		json_t *out;

		for (long i = 0; i < 1500L * 1500; i++) {
			x = x * 1103515245u + 12345u;
			memset(noise.rgba + i * 4, ((x >> 16) & 0x7fff) % 100 < 20 ? 0 : 255, 3);
			noise.rgba[i * 4 + 3] = 255;
		}
		budget_configure(1000, 512LL << 20, 3000);
		out = ocr_read(&noise, "chi_sim+eng", err, sizeof(err));
		ok(out == NULL && strstr(err, "stopped") && strstr(err, "CPU"),
		   "a noise picture under 1 s of CPU: %s", out ? "read to its end" : err);
		ok(clock_mono_ms() - t0 < 6000, "  ... in %lld ms", clock_mono_ms() - t0);
		json_decref(out);
		free(noise.rgba);
	}
	{
		struct pixels big = { OCR_MAX_SIDE + 1, 10, (unsigned char *)"" };
		char err[256] = "";

		ok(ocr_read(&big, "eng", err, sizeof(err)) == NULL && strstr(err, "too large"),
		   "a picture past the bounds is refused (%s)", err);
	}
	ocr_shutdown();
	return tap_done();
}
