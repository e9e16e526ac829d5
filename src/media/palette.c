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
	double luma, sat, warm;         /* sums over what was counted */
	int step;                       /* every step-th pixel of every step-th row */
};

static void palette_add(struct palette_hist *h, unsigned r, unsigned g, unsigned b)
{
	unsigned bin = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4;
	unsigned mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
	unsigned mn = r < g ? (r < b ? r : b) : (g < b ? g : b);

	h->luma += (0.299 * r + 0.587 * g + 0.114 * b) / 255.0;
	h->sat += mx ? (double)(mx - mn) / mx : 0;
	h->warm += ((double)r - (double)b) / 255.0;
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
	if (h->total) {
		out->brightness = h->luma / (double)h->total;
		out->saturation = h->sat / (double)h->total;
		out->warmth = h->warm / (double)h->total;
	}
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

static enum palette_rc palette_png(const unsigned char *p, size_t n, const struct pngio_limits *lim,
				   struct palette_hist *h, char *why, size_t whylen)
{
	struct pngio_info info;
	uint64_t pixels;
	int rc = pngio_info(p, n, lim, &info, why, whylen);

	if (rc != PNGIO_OK)
		return rc == PNGIO_E_TOO_LARGE ? PALETTE_TOO_LARGE : PALETTE_BAD_HEADER;
	pixels = (uint64_t)info.w * (uint64_t)info.h;
	h->step = 1;
	while (pixels / ((uint64_t)h->step * (uint64_t)h->step) > PALETTE_SAMPLES)
		h->step++;
	rc = pngio_read_rows(p, n, lim, NULL, palette_row, h, why, whylen);
	return rc == PNGIO_OK ? PALETTE_OK : rc == PNGIO_E_TOO_LARGE ? PALETTE_TOO_LARGE
								      : PALETTE_BAD_DATA;
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

/* "#rrggbb" or "#rgb" at p (after the '#'); 0 when it is not one. */
static int palette_hex_colour(const unsigned char *p, const unsigned char *end, unsigned rgb[3])
{
	int n = 0, v[6];

	while (n < 7 && p + n < end && palette_hex(p[n]) >= 0)
		n++;
	if (n != 6 && n != 3)
		return 0;
	for (int i = 0; i < n; i++)
		v[i] = palette_hex(p[i]);
	for (int k = 0; k < 3; k++)
		rgb[k] = n == 6 ? (unsigned)(v[2 * k] * 16 + v[2 * k + 1]) : (unsigned)(v[k] * 17);
	return 1;
}

/* Every colour the source names counts once: fill="#..." and
 * stop-color:#..., not the #ids of url(#...) or href="#...". */
static void palette_svg(const unsigned char *p, size_t n, struct palette_hist *h)
{
	const unsigned char *end = p + (n > PALETTE_SVG_MAX ? PALETTE_SVG_MAX : n);
	unsigned rgb[3];

	for (const unsigned char *q = p + 1; q < end; q++)
		if (*q == '#' && (q[-1] == '"' || q[-1] == '\'' || q[-1] == ':' || q[-1] == ' ') &&
		    !(q - p >= 6 && memcmp(q - 6, "href=", 5) == 0) && palette_hex_colour(q + 1, end, rgb))
			palette_add(h, rgb[0], rgb[1], rgb[2]);
}

enum palette_rc palette_of(const unsigned char *p, size_t n, const char *mime,
			   const struct pngio_limits *lim, struct palette *out, char *why,
			   size_t whylen)
{
	struct palette_hist *h = xcalloc(1, sizeof *h);
	enum palette_rc rc = PALETTE_OK;

	memset(out, 0, sizeof *out);
	*why = '\0';
	if (mime && strcmp(mime, "image/png") == 0)
		rc = palette_png(p, n, lim, h, why, whylen);
	else if (mime && strcmp(mime, "image/svg+xml") == 0)
		palette_svg(p, n, h);
	else
		rc = PALETTE_UNSUPPORTED, snprintf(why, whylen, "the pixels of %s cannot be read here",
						   mime ? mime : "this image");
	if (rc == PALETTE_OK)
		palette_take(h, out);
	free(h);
	if (rc == PALETTE_OK && out->n == 0) {
		rc = PALETTE_NO_COLOUR;
		snprintf(why, whylen, "the image names no opaque colour");
	}
	return rc;
}
