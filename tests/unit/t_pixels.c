/* Pictures decoded to RGBA (pixels.c), as tables: PNG and JPEG files made
 * here (colour and grey JPEG, RGBA PNG) read back with their sizes and
 * colours; broken and foreign bytes, a declared type the bytes contradict
 * and pictures past the limits refused with a reason, nothing written to
 * stderr. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include "tap.h"
#include "media/pixels.h"
#include "util/buf.h"
#include "util/pngio.h"

static const struct pngio_limits roomy = { 4096, 64LL << 20 };
static const struct pngio_limits small = { 50, 64LL << 20 };
static const struct pngio_limits few_bytes = { 4096, 1000 };

/* A w x h JPEG of one colour (grey: one channel), in *len bytes (malloc'd). */
static unsigned char *make_jpeg(int w, int h, int grey, const unsigned char rgb[3], size_t *len)
{
	struct jpeg_compress_struct ci;
	struct jpeg_error_mgr jerr;
	unsigned char *out = NULL, *row = malloc((size_t)w * 3);
	unsigned long n = 0;

	ci.err = jpeg_std_error(&jerr);
	jpeg_create_compress(&ci);
	jpeg_mem_dest(&ci, &out, &n);
	ci.image_width = (JDIMENSION)w;
	ci.image_height = (JDIMENSION)h;
	ci.input_components = grey ? 1 : 3;
	ci.in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
	jpeg_set_defaults(&ci);
	jpeg_set_quality(&ci, 95, TRUE);
	jpeg_start_compress(&ci, TRUE);
	for (int x = 0; x < w; x++)
		memcpy(row + x * (grey ? 1 : 3), rgb, grey ? 1 : 3);
	while (ci.next_scanline < ci.image_height) {
		JSAMPROW r = row;

		jpeg_write_scanlines(&ci, &r, 1);
	}
	jpeg_finish_compress(&ci);
	jpeg_destroy_compress(&ci);
	free(row);
	*len = n;
	return out;
}

/* A w x h RGBA PNG of one colour, in b. */
static void make_png(int w, int h, const unsigned char rgba[4], struct buf *b)
{
	struct pngio_image img = { w, h, malloc((size_t)w * h * 4) };

	for (int i = 0; i < w * h; i++)
		memcpy(img.rgba + i * 4, rgba, 4);
	buf_init(b, 1 << 24);
	pngio_encode(&img, b);
	free(img.rgba);
}

static int near(int a, int b)
{
	return abs(a - b) <= 6;
}

struct good_case {
	const char *name, *kind, *declared;
	int w, h, grey;
	unsigned char c[4];
};

static const struct good_case good[] = {
	{ "colour JPEG", "jpeg", NULL, 33, 17, 0, { 200, 40, 90, 255 } },
	{ "grey JPEG", "jpeg", "image/jpeg", 16, 16, 1, { 120, 120, 120, 255 } },
	{ "JPEG declared as image/jpg", "jpeg", "image/jpg", 8, 8, 0, { 10, 200, 30, 255 } },
	{ "RGBA PNG", "png", NULL, 5, 3, 0, { 1, 2, 3, 128 } },
	{ "PNG declared", "png", "image/png", 40, 20, 0, { 250, 250, 0, 255 } },
};

static unsigned char *make(const struct good_case *g, size_t *len)
{
	struct buf b;

	if (strcmp(g->kind, "jpeg") == 0)
		return make_jpeg(g->w, g->h, g->grey, g->c, len);
	make_png(g->w, g->h, g->c, &b);
	*len = b.len;
	return (unsigned char *)buf_steal(&b);
}

static void test_good(void)
{
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct good_case *g = &good[i];
		size_t len;
		unsigned char *data = make(g, &len);
		struct pixels px;
		char err[256] = "";
		int rc = pixels_decode(data, len, g->declared, &roomy, &px, err, sizeof(err));
		const unsigned char *mid;

		if (!is_int(rc, 0, "%s decodes (%s)", g->name, err)) {
			free(data);
			continue;
		}
		is_int(px.w, g->w, "%s width", g->name);
		is_int(px.h, g->h, "%s height", g->name);
		mid = px.rgba + ((size_t)(px.h / 2) * px.w + px.w / 2) * 4;
		ok(near(mid[0], g->c[0]) && near(mid[1], g->c[g->grey ? 0 : 1]) &&
		   near(mid[2], g->c[g->grey ? 0 : 2]) && mid[3] == g->c[3],
		   "%s colour %d,%d,%d,%d", g->name, mid[0], mid[1], mid[2], mid[3]);
		pixels_free(&px);
		ok(px.rgba == NULL && px.w == 0, "%s freed empty", g->name);
		free(data);
	}
}

struct bad_case {
	const char *name;
	int what;              /* 0 random, 1 JPEG head only, 2 JPEG as PNG, 3 too wide, 4 too many
				* bytes, 5 PNG too wide, 6 empty, 7 JPEG body corrupt */
	const char *why;       /* a word of the error */
};

static const struct bad_case bad[] = {
	{ "foreign bytes", 0, "not a PNG or JPEG" },
	{ "JPEG cut after its header", 1, "JPEG" },
	{ "JPEG declared as PNG", 2, "declared as image/png" },
	{ "JPEG wider than the limit", 3, "too large" },
	{ "JPEG over the byte budget", 4, "too large" },
	{ "PNG wider than the limit", 5, "" },
	{ "no bytes", 6, "not a PNG or JPEG" },
	{ "JPEG with its markers broken", 7, "libjpeg" },
};

static void test_bad_one(const struct bad_case *c)
{
	static const unsigned char red[4] = { 255, 0, 0, 255 };
	unsigned char *data = NULL;
	size_t len = 0;
	const struct pngio_limits *lim = &roomy;
	const char *declared = NULL;
	struct pixels px = { 7, 7, NULL };
	char err[256] = "";
	struct buf b;
	int rc;

	if (c->what == 0) {
		data = (unsigned char *)strdup("GIF87a but not really a picture");
		len = strlen((char *)data);
	} else if (c->what == 5) {
		make_png(60, 10, red, &b);
		len = b.len;
		data = (unsigned char *)buf_steal(&b);
		lim = &small;
	} else if (c->what != 6) {
		data = make_jpeg(60, 40, 0, red, &len);
	}
	if (c->what == 1)
		len = 30;
	if (c->what == 2)
		declared = "image/png";
	if (c->what == 3)
		lim = &small;
	if (c->what == 4)
		lim = &few_bytes;
	if (c->what == 7)
		memset(data + 3, 0x00, len > 40 ? 40 : len - 3);
	rc = pixels_decode(data, len, declared, lim, &px, err, sizeof(err));
	is_int(rc, -1, "%s is refused", c->name);
	ok(strstr(err, c->why) != NULL && err[0], "%s: the reason (%s)", c->name, err);
	ok(px.rgba == NULL && px.w == 0 && px.h == 0, "%s: nothing kept", c->name);
	free(data);
}

int main(void)
{
	FILE *errs = tmpfile();
	int saved = dup(2);

	if (!errs || saved < 0)
		tap_bail("no temporary file");
	dup2(fileno(errs), 2);
	test_good();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		test_bad_one(&bad[i]);
	fflush(stderr);
	dup2(saved, 2);
	is_int(ftell(errs) < 0 ? 0 : (fseek(errs, 0, SEEK_END), ftell(errs)), 0, "nothing on stderr");
	is_str(pixels_sniff((const unsigned char *)"\xff\xd8\xff\xe0", 4), "image/jpeg", "sniff JPEG");
	ok(pixels_sniff((const unsigned char *)"\xff\xd8", 2) == NULL, "two bytes say nothing");
	return tap_done();
}
