/* Dominant colours of image bytes (see palette.h). */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "media/palette.h"
#include "util/xmalloc.h"

#define PALETTE_BINS 4096           /* 4 bits per channel */
#define PALETTE_SAMPLES (512 * 512) /* pixels counted at most, about */
#define PALETTE_MIN_SHARE 0.01      /* a bin under this share is noise */
#define PALETTE_SVG_MAX (4 << 20)   /* SVG source bytes read */

struct palette_hist {
	uint32_t count[PALETTE_BINS];
	uint64_t sum[PALETTE_BINS][3];
	uint64_t total;
	int step;                       /* every step-th pixel of every step-th row */
};

static void palette_add(struct palette_hist *h, unsigned r, unsigned g, unsigned b)
{
	unsigned bin = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4;

	h->count[bin]++;
	h->sum[bin][0] += r;
	h->sum[bin][1] += g;
	h->sum[bin][2] += b;
	h->total++;
}

/* The fullest bins, each as its colours' mean; ties go to the lower bin. */
static void palette_take(struct palette_hist *h, struct palette *out)
{
	out->n = 0;
	while (h->total && out->n < PALETTE_MAX) {
		unsigned best = 0;

		for (unsigned b = 1; b < PALETTE_BINS; b++)
			if (h->count[b] > h->count[best])
				best = b;
		if (h->count[best] == 0 || (double)h->count[best] / (double)h->total < PALETTE_MIN_SHARE)
			break;
		for (int k = 0; k < 3; k++)
			out->rgb[out->n][k] = (unsigned char)(h->sum[best][k] / h->count[best]);
		out->share[out->n++] = (double)h->count[best] / (double)h->total;
		h->count[best] = 0;
	}
}

static int palette_row(void *ctx, int y, const unsigned char *rgba, int w)
{
	struct palette_hist *h = ctx;

	if (y % h->step == 0)
		for (int x = 0; x < w; x += h->step)
			if (rgba[x * 4 + 3] >= 128)
				palette_add(h, rgba[x * 4], rgba[x * 4 + 1], rgba[x * 4 + 2]);
	return 0;
}

static int palette_png(const unsigned char *p, size_t n, const struct pngio_limits *lim,
		       struct palette_hist *h, char *why, size_t whylen)
{
	struct pngio_info info;
	uint64_t pixels;

	if (pngio_info(p, n, lim, &info, why, whylen) != PNGIO_OK)
		return -1;
	pixels = (uint64_t)info.w * (uint64_t)info.h;
	h->step = 1;
	while (pixels / ((uint64_t)h->step * (uint64_t)h->step) > PALETTE_SAMPLES)
		h->step++;
	return pngio_read_rows(p, n, lim, NULL, palette_row, h, why, whylen) == PNGIO_OK ? 0 : -1;
}

static int palette_hex(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Every "#rrggbb" of the source counts once. */
static void palette_svg(const unsigned char *p, size_t n, struct palette_hist *h)
{
	if (n > PALETTE_SVG_MAX)
		n = PALETTE_SVG_MAX;
	for (size_t i = 0; i + 7 <= n; i++) {
		int v[6], ok = p[i] == '#';

		for (int k = 0; ok && k < 6; k++)
			ok = (v[k] = palette_hex(p[i + 1 + k])) >= 0;
		if (ok && (i + 7 == n || palette_hex(p[i + 7]) < 0))
			palette_add(h, (unsigned)(v[0] << 4 | v[1]), (unsigned)(v[2] << 4 | v[3]),
				    (unsigned)(v[4] << 4 | v[5]));
	}
}

int palette_of(const unsigned char *p, size_t n, const char *mime, const struct pngio_limits *lim,
	       struct palette *out, char *why, size_t whylen)
{
	struct palette_hist *h = xcalloc(1, sizeof *h);
	int rc = 0;

	memset(out, 0, sizeof *out);
	*why = '\0';
	if (mime && strcmp(mime, "image/png") == 0)
		rc = palette_png(p, n, lim, h, why, whylen);
	else if (mime && strcmp(mime, "image/svg+xml") == 0)
		palette_svg(p, n, h);
	else
		rc = -1, snprintf(why, whylen, "the pixels of %s cannot be read here", mime ? mime : "this image");
	if (rc == 0)
		palette_take(h, out);
	free(h);
	if (rc == 0 && out->n == 0)
		snprintf(why, whylen, "the image has no opaque colour");
	return out->n > 0 ? 0 : -1;
}
