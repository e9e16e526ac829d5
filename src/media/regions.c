/* Element detection by segmentation (see regions.h). The grid keeps the
 * work bounded whatever the picture's size (at most REGIONS_GRID cells on
 * the longer side); the boxes are then measured again on the pixels. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media/regions.h"
#include "util/xmalloc.h"

#define REGIONS_GRID 320         /* cells on the longer side, at most */
#define REGIONS_DIFF 48          /* channel difference that is not background */
#define REGIONS_MERGE_MAX 1500   /* regions compared for merging, at most */

struct regions_box {
	int x0, y0, x1, y1;      /* pixels, x1 and y1 excluded */
	long fg;                 /* foreground pixels inside */
	int alive;
};

struct regions_ctx {
	const struct pixels *px;
	unsigned char bg[3];
	int cell, gw, gh;
	unsigned char *grid;     /* gw * gh: 1 = has foreground, 2 = visited */
};

/* The pixel at i over white (transparent pixels are background). */
static void regions_rgb(const struct pixels *px, size_t i, unsigned char out[3])
{
	const unsigned char *p = px->rgba + i * 4;
	unsigned a = p[3];

	for (int k = 0; k < 3; k++)
		out[k] = (unsigned char)((p[k] * a + 255u * (255u - a)) / 255u);
}

/* The most common colour, at 4 bits a channel, averaged within its bin. */
static void regions_background(struct regions_ctx *r)
{
	size_t n = (size_t)r->px->w * r->px->h;
	long *count = xcalloc(4096, sizeof(long));
	long long *sum = xcalloc(4096 * 3, sizeof(long long));
	int best = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c[3];
		int bin;

		regions_rgb(r->px, i, c);
		bin = (c[0] >> 4) << 8 | (c[1] >> 4) << 4 | c[2] >> 4;
		count[bin]++;
		for (int k = 0; k < 3; k++)
			sum[bin * 3 + k] += c[k];
	}
	for (int b = 1; b < 4096; b++)
		if (count[b] > count[best])
			best = b;
	for (int k = 0; k < 3; k++)
		r->bg[k] = count[best] ? (unsigned char)(sum[best * 3 + k] / count[best]) : 255;
	free(count);
	free(sum);
}

static int regions_is_fg(const struct regions_ctx *r, int x, int y)
{
	unsigned char c[3];

	regions_rgb(r->px, (size_t)y * r->px->w + x, c);
	for (int k = 0; k < 3; k++)
		if (abs((int)c[k] - r->bg[k]) > REGIONS_DIFF)
			return 1;
	return 0;
}

static void regions_make_grid(struct regions_ctx *r)
{
	int side = r->px->w > r->px->h ? r->px->w : r->px->h;

	r->cell = (side + REGIONS_GRID - 1) / REGIONS_GRID;
	if (r->cell < 2)
		r->cell = 2;
	r->gw = (r->px->w + r->cell - 1) / r->cell;
	r->gh = (r->px->h + r->cell - 1) / r->cell;
	r->grid = xcalloc((size_t)r->gw * r->gh, 1);
	for (int y = 0; y < r->px->h; y++)
		for (int x = 0; x < r->px->w; x++)
			if (regions_is_fg(r, x, y))
				r->grid[(y / r->cell) * r->gw + x / r->cell] = 1;
}

/* One connected region of cells (8 neighbours) from (gx, gy), as a box in
 * pixels. stack holds gw * gh cell indexes. */
static struct regions_box regions_flood(struct regions_ctx *r, int gx, int gy, int *stack)
{
	struct regions_box b = { gx, gy, gx + 1, gy + 1, 0, 1 };
	size_t top = 0;

	stack[top++] = gy * r->gw + gx;
	r->grid[gy * r->gw + gx] = 2;
	while (top > 0) {
		int i = stack[--top], cx = i % r->gw, cy = i / r->gw;

		b.x0 = cx < b.x0 ? cx : b.x0;
		b.y0 = cy < b.y0 ? cy : b.y0;
		b.x1 = cx + 1 > b.x1 ? cx + 1 : b.x1;
		b.y1 = cy + 1 > b.y1 ? cy + 1 : b.y1;
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++) {
				int nx = cx + dx, ny = cy + dy;

				if (nx < 0 || ny < 0 || nx >= r->gw || ny >= r->gh ||
				    r->grid[ny * r->gw + nx] != 1)
					continue;
				r->grid[ny * r->gw + nx] = 2;
				stack[top++] = ny * r->gw + nx;
			}
	}
	return b;
}

/* The cell box in pixels, tightened to the foreground pixels inside. */
static void regions_tighten(const struct regions_ctx *r, struct regions_box *b)
{
	int x0 = b->x0 * r->cell, y0 = b->y0 * r->cell;
	int x1 = b->x1 * r->cell, y1 = b->y1 * r->cell;
	int tx0 = r->px->w, ty0 = r->px->h, tx1 = 0, ty1 = 0;

	x1 = x1 > r->px->w ? r->px->w : x1;
	y1 = y1 > r->px->h ? r->px->h : y1;
	b->fg = 0;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++) {
			if (!regions_is_fg(r, x, y))
				continue;
			b->fg++;
			tx0 = x < tx0 ? x : tx0;
			ty0 = y < ty0 ? y : ty0;
			tx1 = x + 1 > tx1 ? x + 1 : tx1;
			ty1 = y + 1 > ty1 ? y + 1 : ty1;
		}
	if (b->fg == 0) {
		b->alive = 0;
		return;
	}
	b->x0 = tx0, b->y0 = ty0, b->x1 = tx1, b->y1 = ty1;
}

/* Close boxes: on one line (vertical overlap) with a gap under a line
 * height, or overlapping. */
static int regions_close(const struct regions_box *a, const struct regions_box *b)
{
	int ha = a->y1 - a->y0, hb = b->y1 - b->y0;
	int gap = (ha < hb ? ha : hb) / 2 + 1;
	int vover = (a->y1 < b->y1 ? a->y1 : b->y1) - (a->y0 > b->y0 ? a->y0 : b->y0);
	int hgap = a->x1 <= b->x0 ? b->x0 - a->x1 : b->x1 <= a->x0 ? a->x0 - b->x1 : 0;
	int vgap = a->y1 <= b->y0 ? b->y0 - a->y1 : b->y1 <= a->y0 ? a->y0 - b->y1 : 0;

	if (hgap == 0 && vgap == 0)
		return 1;
	return vover * 2 > (ha < hb ? ha : hb) && hgap <= gap;
}

static void regions_merge(struct regions_box *bx, size_t n)
{
	int changed = 1;

	while (changed) {
		changed = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; bx[i].alive && j < n; j++) {
				if (!bx[j].alive || !regions_close(&bx[i], &bx[j]))
					continue;
				bx[i].x0 = bx[j].x0 < bx[i].x0 ? bx[j].x0 : bx[i].x0;
				bx[i].y0 = bx[j].y0 < bx[i].y0 ? bx[j].y0 : bx[i].y0;
				bx[i].x1 = bx[j].x1 > bx[i].x1 ? bx[j].x1 : bx[i].x1;
				bx[i].y1 = bx[j].y1 > bx[i].y1 ? bx[j].y1 : bx[i].y1;
				bx[i].fg += bx[j].fg;
				bx[j].alive = 0;
				changed = 1;
			}
	}
}

/* Noise: a speck of a few pixels. */
static int regions_speck(const struct regions_box *b)
{
	return b->x1 - b->x0 < 3 || b->y1 - b->y0 < 3 || b->fg < 6;
}

static int regions_by_area(const void *a, const void *b)
{
	const struct regions_box *x = a, *y = b;
	long ax = (long)(x->x1 - x->x0) * (x->y1 - x->y0);
	long ay = (long)(y->x1 - y->x0) * (y->y1 - y->y0);

	if (x->alive != y->alive)
		return y->alive - x->alive;
	if (ax != ay)
		return ax < ay ? 1 : -1;
	return x->y0 != y->y0 ? x->y0 - y->y0 : x->x0 - y->x0;
}

/* The connected regions of the grid, tightened, specks dropped, merged;
 * *n set. */
static struct regions_box *regions_find(struct regions_ctx *r, size_t *n)
{
	size_t cells = (size_t)r->gw * r->gh, cap = 64;
	struct regions_box *bx = xmalloc(cap * sizeof(*bx));
	int *stack = xmalloc(cells * sizeof(int));

	*n = 0;
	for (int gy = 0; gy < r->gh; gy++)
		for (int gx = 0; gx < r->gw; gx++) {
			if (r->grid[gy * r->gw + gx] != 1)
				continue;
			if (*n == cap) {
				cap *= 2;
				bx = xrealloc(bx, cap * sizeof(*bx));
			}
			bx[*n] = regions_flood(r, gx, gy, stack);
			regions_tighten(r, &bx[*n]);
			(*n)++;
		}
	free(stack);
	for (size_t i = 0; i < *n; i++)
		if (bx[i].alive && regions_speck(&bx[i]))
			bx[i].alive = 0;
	/* Merging compares every pair: a noisy picture keeps its largest regions. */
	if (*n > REGIONS_MERGE_MAX) {
		qsort(bx, *n, sizeof(*bx), regions_by_area);
		*n = REGIONS_MERGE_MAX;
	}
	regions_merge(bx, *n);
	return bx;
}

struct regions_look {
	double fill;             /* foreground share of the box */
	int colours;             /* distinct foreground colours, 4 bits a channel */
	unsigned char main[3];   /* the most common foreground colour */
};

/* Fill, colour count and main colour of a box, from at most ~4096 of its
 * pixels taken on a regular lattice. */
static struct regions_look regions_measure(const struct regions_ctx *r, const struct regions_box *b)
{
	struct regions_look lk = { 0, 0, { 0, 0, 0 } };
	int bw = b->x1 - b->x0, bh = b->y1 - b->y0;
	int step = 1, best = -1;
	long *count = xcalloc(4096, sizeof(long));

	while ((long)(bw / step) * (bh / step) > 4096)
		step++;
	lk.fill = (double)b->fg / ((double)bw * bh);
	for (int y = b->y0; y < b->y1; y += step)
		for (int x = b->x0; x < b->x1; x += step) {
			unsigned char c[3];
			int bin;

			if (!regions_is_fg(r, x, y))
				continue;
			regions_rgb(r->px, (size_t)y * r->px->w + x, c);
			bin = (c[0] >> 4) << 8 | (c[1] >> 4) << 4 | c[2] >> 4;
			if (count[bin]++ == 0)
				lk.colours++;
			if (best < 0 || count[bin] > count[best]) {
				best = bin;
				memcpy(lk.main, c, 3);
			}
		}
	free(count);
	return lk;
}

static const char *regions_kind(const struct regions_ctx *r, const struct regions_box *b,
				const struct regions_look *lk)
{
	int bw = b->x1 - b->x0, bh = b->y1 - b->y0;
	double aspect = (double)bw / bh;
	double share = (double)bw * bh / ((double)r->px->w * r->px->h);
	int line = r->px->h / 6 > 48 ? r->px->h / 6 : 48;

	if (lk->colours >= 24 && lk->fill > 0.6)
		return "image";
	if (lk->fill < 0.55 && bh <= line && aspect >= 1.2)
		return "text";
	if (lk->fill >= 0.55 && aspect >= 1.8 && aspect <= 12 && bh <= line)
		return "button";
	if (aspect >= 0.6 && aspect <= 1.67 && share < 0.02)
		return "icon";
	return "shape";
}

static const char *regions_words(const char *kind)
{
	if (strcmp(kind, "text") == 0)
		return "a line of text or text-like marks";
	if (strcmp(kind, "button") == 0)
		return "a filled bar, shaped like a button or a label";
	if (strcmp(kind, "icon") == 0)
		return "a small mark the size of an icon";
	if (strcmp(kind, "image") == 0)
		return "a many-coloured area, like a photo or a picture";
	return "a shape or block of colour";
}

static json_t *regions_element(const struct regions_ctx *r, const struct regions_box *b)
{
	struct regions_look lk = regions_measure(r, b);
	const char *kind = regions_kind(r, b, &lk);
	char colour[8];

	snprintf(colour, sizeof(colour), "#%02x%02x%02x", lk.main[0], lk.main[1], lk.main[2]);
	return json_pack("{s:s, s:s, s:{s:i, s:i, s:i, s:i}, s:f, s:s}", "type", kind,
			 "description", regions_words(kind), "boundingBox", "x", b->x0, "y", b->y0,
			 "width", b->x1 - b->x0, "height", b->y1 - b->y0,
			 "fill", (double)(int)(lk.fill * 100 + 0.5) / 100, "color", colour);
}

static int regions_by_place(const void *a, const void *b)
{
	const struct regions_box *x = a, *y = b;

	return x->y0 != y->y0 ? x->y0 - y->y0 : x->x0 - y->x0;
}


json_t *regions_detect(const struct pixels *px, size_t max_regions)
{
	struct regions_ctx r = { .px = px };
	struct regions_box *bx;
	json_t *out, *elements = json_array();
	size_t n, keep = 0;
	char bg[8];

	if (!px || !px->rgba || px->w <= 0 || px->h <= 0)
		return json_pack("{s:{s:i, s:i}, s:o}", "imageSize", "width", 0, "height", 0,
				 "elements", elements);
	regions_background(&r);
	regions_make_grid(&r);
	bx = regions_find(&r, &n);
	qsort(bx, n, sizeof(*bx), regions_by_area);
	while (keep < n && keep < max_regions && bx[keep].alive)
		keep++;
	qsort(bx, keep, sizeof(*bx), regions_by_place);
	for (size_t i = 0; i < keep; i++)
		json_array_append_new(elements, regions_element(&r, &bx[i]));
	snprintf(bg, sizeof(bg), "#%02x%02x%02x", r.bg[0], r.bg[1], r.bg[2]);
	out = json_pack("{s:{s:i, s:i}, s:s, s:o}", "imageSize", "width", px->w, "height", px->h,
			"background", bg, "elements", elements);
	free(bx);
	free(r.grid);
	return out;
}
