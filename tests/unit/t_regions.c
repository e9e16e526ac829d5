/* Element detection by segmentation (regions.c), as a table of pictures
 * made here: known rectangles (filled bars, small squares, hollow frames,
 * many-coloured patches, rows of letter-like marks) on plain or coloured
 * backgrounds, each found as an element whose box overlaps the rectangle
 * (intersection over union at least 0.8), with the expected type, and no
 * other element; the same pixels give the same answer; the cap holds. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "media/regions.h"

struct rect {
	int x, y, w, h;
	int kind;              /* 0 filled, 1 hollow frame, 2 many colours, 3 marks (letters) */
	unsigned char c[3];
	const char *type;      /* expected element type */
};

struct pic_case {
	const char *name;
	int w, h;
	unsigned char bg[3];
	struct rect r[5];
	int n;
};

static const struct pic_case cases[] = {
	{ "one bar on white", 640, 480, { 255, 255, 255 },
	  { { 100, 100, 200, 40, 0, { 30, 90, 200 }, "button" } }, 1 },
	{ "bar, icon and photo", 800, 600, { 255, 255, 255 },
	  { { 50, 40, 240, 50, 0, { 200, 30, 30 }, "button" },
	    { 600, 60, 24, 24, 0, { 20, 20, 20 }, "icon" },
	    { 300, 250, 220, 160, 2, { 0, 0, 0 }, "image" } }, 3 },
	{ "frame on a dark background", 500, 400, { 20, 24, 30 },
	  { { 120, 100, 200, 180, 1, { 240, 240, 240 }, "shape" } }, 1 },
	{ "a line of marks and a bar", 700, 300, { 250, 250, 250 },
	  { { 40, 50, 300, 24, 3, { 0, 0, 0 }, "text" },
	    { 40, 200, 150, 40, 0, { 0, 150, 80 }, "button" } }, 2 },
};

static void paint(unsigned char *px, int w, const struct rect *r)
{
	unsigned seed = 12345;

	for (int y = r->y; y < r->y + r->h; y++)
		for (int x = r->x; x < r->x + r->w; x++) {
			unsigned char *p = px + ((size_t)y * w + x) * 4;
			int edge = x < r->x + 3 || y < r->y + 3 || x >= r->x + r->w - 3 || y >= r->y + r->h - 3;
			/* marks: 8-pixel letters with 6-pixel gaps, a thin stroke pattern */
			int mark = (x - r->x) % 14 < 8 && ((x - r->x) % 14 < 2 || (y - r->y) % 12 < 2);

			if ((r->kind == 1 && !edge) || (r->kind == 3 && !mark))
				continue;
			if (r->kind == 2) {
				seed = seed * 1103515245u + 12345u;
				p[0] = (unsigned char)(seed >> 16);
				p[1] = (unsigned char)(seed >> 8);
				p[2] = (unsigned char)(seed >> 24);
			} else {
				memcpy(p, r->c, 3);
			}
			p[3] = 255;
		}
}

static struct pixels picture(const struct pic_case *c)
{
	struct pixels px = { c->w, c->h, malloc((size_t)c->w * c->h * 4) };

	for (int i = 0; i < c->w * c->h; i++) {
		memcpy(px.rgba + i * 4, c->bg, 3);
		px.rgba[i * 4 + 3] = 255;
	}
	for (int i = 0; i < c->n; i++)
		paint(px.rgba, c->w, &c->r[i]);
	return px;
}

static double iou(const struct rect *r, const json_t *bb)
{
	int x = (int)json_integer_value(json_object_get(bb, "x"));
	int y = (int)json_integer_value(json_object_get(bb, "y"));
	int w = (int)json_integer_value(json_object_get(bb, "width"));
	int h = (int)json_integer_value(json_object_get(bb, "height"));
	int ix = (r->x + r->w < x + w ? r->x + r->w : x + w) - (r->x > x ? r->x : x);
	int iy = (r->y + r->h < y + h ? r->y + r->h : y + h) - (r->y > y ? r->y : y);
	double inter = ix > 0 && iy > 0 ? (double)ix * iy : 0;

	return inter / ((double)r->w * r->h + (double)w * h - inter);
}

static void check_case(const struct pic_case *c)
{
	struct pixels px = picture(c);
	json_t *out = regions_detect(&px, 20), *again = regions_detect(&px, 20);
	json_t *els = json_object_get(out, "elements");

	is_int(json_array_size(els), c->n, "%s: %d elements", c->name, c->n);
	for (int i = 0; i < c->n; i++) {
		size_t k;
		json_t *el, *best = NULL;
		double b = 0;

		json_array_foreach(els, k, el) {
			double v = iou(&c->r[i], json_object_get(el, "boundingBox"));

			if (v > b)
				b = v, best = el;
		}
		ok(b >= 0.8, "%s: rectangle %d found (IoU %.2f)", c->name, i, b);
		is_str(best ? json_string_value(json_object_get(best, "type")) : NULL, c->r[i].type,
		       "%s: rectangle %d is %s", c->name, i, c->r[i].type);
	}
	ok(json_equal(out, again), "%s: the same answer twice", c->name);
	is_int(json_integer_value(json_object_get(json_object_get(out, "imageSize"), "width")), c->w,
	       "%s: imageSize", c->name);
	json_decref(out);
	json_decref(again);
	free(px.rgba);
}

static void check_edges(void)
{
	struct pixels none = { 0, 0, NULL };
	const struct pic_case *c = &cases[1];
	struct pixels px = picture(c);
	json_t *out = regions_detect(&none, 10), *capped = regions_detect(&px, 2);
	json_t *els = json_object_get(capped, "elements");

	is_int(json_array_size(json_object_get(out, "elements")), 0, "no picture: no elements");
	is_int(json_array_size(els), 2, "the cap keeps 2 elements");
	ok(json_array_size(els) == 2 &&
	   strcmp(json_string_value(json_object_get(json_array_get(els, 0), "type")), "button") == 0 &&
	   strcmp(json_string_value(json_object_get(json_array_get(els, 1), "type")), "image") == 0,
	   "the cap keeps the largest, in reading order");
	json_decref(out);
	json_decref(capped);
	free(px.rgba);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
	check_edges();
	return tap_done();
}
