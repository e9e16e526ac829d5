/* The dominant colours of image bytes (src/media/palette.c), as a table:
 * PNG pixels by frequency, transparent pixels left out, SVG source
 * colours, types whose pixels cannot be read; and pictures drawn in
 * them (svg_render_palette). */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "media/palette.h"
#include "prov/svg.h"

/* A w x h PNG: the first `first` pixels in colour a, the rest in b. */
static void t_png(struct buf *out, int w, int h, int first, const unsigned char a[4],
		  const unsigned char b[4])
{
	struct pngio_image img = { w, h, malloc((size_t)w * h * 4) };

	for (int i = 0; i < w * h; i++)
		memcpy(img.rgba + i * 4, i < first ? a : b, 4);
	buf_init(out, 1 << 20);
	pngio_encode(&img, out);
	free(img.rgba);
}

struct case_ {
	const char *name;
	int first;                     /* pixels of colour a, of 100 */
	unsigned char a[4], b[4];
	int n;                         /* colours expected */
	const char *top;               /* the most frequent, "#rrggbb" */
	int share;                     /* its share, percent */
};

static const struct case_ cases[] = {
	{ "three quarters orange", 75, { 240, 140, 60, 255 }, { 30, 60, 200, 255 }, 2, "#f08c3c", 75 },
	{ "one quarter orange", 25, { 240, 140, 60, 255 }, { 30, 60, 200, 255 }, 2, "#1e3cc8", 75 },
	{ "one colour", 100, { 10, 160, 64, 255 }, { 0, 0, 0, 255 }, 1, "#0aa040", 100 },
	{ "transparent pixels are left out", 90, { 255, 0, 0, 0 }, { 0, 0, 255, 255 }, 1, "#0000ff", 100 },
	{ "nearby shades are one colour, their mean", 50, { 240, 140, 60, 255 }, { 242, 142, 62, 255 }, 1,
	  "#f18d3d", 100 },
};

static void t_hex(char out[8], const unsigned char rgb[3])
{
	snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

int main(void)
{
	const struct pngio_limits lim = { 4096, 1 << 26 }, tiny = { 4, 1 << 26 };
	const char *svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect fill=\"#10A040\"/>"
			  "<rect fill=\"#10a040\"/><rect fill=\"#ffffff\"/><rect fill=\"#12345\"/></svg>";
	struct palette p, q;
	struct buf b, s1, s2, s3;
	char why[160], hex[8];

	if (sodium_init() < 0)
		return 99;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct case_ *c = &cases[i];

		t_png(&b, 10, 10, c->first, c->a, c->b);
		ok(palette_of((unsigned char *)b.data, b.len, "image/png", &lim, &p, why, sizeof why) == 0,
		   "%s: read (%s)", c->name, why);
		is_int(p.n, c->n, "%s: %d colours", c->name, c->n);
		t_hex(hex, p.rgb[0]);
		is_str(hex, c->top, "%s: the first is %s", c->name, c->top);
		is_int((int)(p.share[0] * 100 + 0.5), c->share, "%s: its share", c->name);
		buf_free(&b);
	}

	t_png(&b, 10, 10, 50, cases[0].a, cases[0].b);
	ok(palette_of((unsigned char *)b.data, b.len, "image/png", &tiny, &p, why, sizeof why) == PALETTE_TOO_LARGE &&
	   p.n == 0 && why[0], "a PNG over the limits: no colours, and why (%s)", why);
	buf_free(&b);
	ok(palette_of((const unsigned char *)svg, strlen(svg), "image/svg+xml", &lim, &p, why, sizeof why) == 0,
	   "SVG: read");
	t_hex(hex, p.rgb[0]);
	ok(p.n == 2 && strcmp(hex, "#10a040") == 0 && (int)(p.share[0] * 100 + 0.5) == 67,
	   "SVG: its #rrggbb colours by mentions, cut ones ignored (%d, %s)", p.n, hex);
	ok(palette_of((const unsigned char *)"\xff\xd8\xff\xe0", 4, "image/jpeg", &lim, &p, why, sizeof why) == PALETTE_UNSUPPORTED &&
	   strstr(why, "image/jpeg"), "JPEG: no colours, and why (%s)", why);

	/* Pictures in the colours: the same prompt, another palette, another picture. */
	t_png(&b, 10, 10, 100, cases[0].a, cases[0].b);
	palette_of((unsigned char *)b.data, b.len, "image/png", &lim, &p, why, sizeof why);
	buf_free(&b);
	t_png(&b, 10, 10, 0, cases[0].a, cases[0].b);
	palette_of((unsigned char *)b.data, b.len, "image/png", &lim, &q, why, sizeof why);
	buf_free(&b);
	buf_init(&s1, 1 << 20);
	buf_init(&s2, 1 << 20);
	buf_init(&s3, 1 << 20);
	svg_render_palette("海边的灯塔", 64, 64, (const unsigned char (*)[3])p.rgb, p.n, &s1);
	svg_render_palette("海边的灯塔", 64, 64, (const unsigned char (*)[3])q.rgb, q.n, &s2);
	svg_render_palette("海边的灯塔", 64, 64, (const unsigned char (*)[3])p.rgb, p.n, &s3);
	ok(strstr(s1.data, "#f08c3c") && !strstr(s1.data, "#1e3cc8"), "the orange palette's picture is orange");
	ok(strstr(s2.data, "#1e3cc8") && !strstr(s2.data, "#f08c3c"), "the blue palette's picture is blue");
	ok(s1.len == s3.len && memcmp(s1.data, s3.data, s1.len) == 0, "the same palette, the same bytes");
	buf_init(&b, 1 << 20);
	svg_render("海边的灯塔", 64, 64, &b);
	ok(strcmp(b.data, s1.data) != 0 && !strstr(b.data, "#f08c3c"), "without one, the prompt's colours");
	buf_free(&b);
	buf_free(&s1);
	buf_free(&s2);
	buf_free(&s3);
	return tap_done();
}
