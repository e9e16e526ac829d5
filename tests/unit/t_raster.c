/* SVG to PNG (raster.c), as tables: the offline provider's pictures for
 * several prompts and sizes come out as PNG files of the width asked for,
 * with pictures in them (many colours, not one); an SVG that points at a
 * file or an http URL draws without loading either (the file's red never
 * shows, the listening socket gets no connection); malformed, empty and
 * oversized requests are refused with a code and a reason, and nothing is
 * written to stderr. Widths asked for are snapped to a few sizes. Drawn
 * in a child under a budget, a picture comes out the same, an SVG librsvg
 * cannot read keeps its code, and a filter chain that would take minutes
 * is stopped by its CPU time. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "tap.h"
#include "media/raster.h"
#include "prov/svg.h"
#include "util/clock.h"
#include "util/pngio.h"

static const struct pngio_limits roomy = { 8192, 256LL << 20 };

/* Distinct colours among the pixels, up to a small ceiling. */
static int colours(const struct pngio_image *img, int ceiling)
{
	unsigned seen[64];
	int n = 0;

	for (long i = 0; i < (long)img->w * img->h && n < ceiling && n < 64; i += 7) {
		const unsigned char *p = img->rgba + i * 4;
		unsigned c = (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
		int j = 0;

		while (j < n && seen[j] != c)
			j++;
		if (j == n)
			seen[n++] = c;
	}
	return n;
}

/* Renders svg at width and decodes the PNG; the return code of raster. */
static int render(const char *svg, size_t len, int width, struct pngio_image *img, int *w, int *h,
		  char *err, size_t errlen)
{
	struct buf out;
	char why[160];
	int rc;

	memset(img, 0, sizeof *img);
	buf_init(&out, 96u << 20);
	rc = raster_svg_png(svg, len, width, &out, w, h, err, errlen);
	if (rc == RASTER_OK &&
	    (out.len < 8 || memcmp(out.data, "\x89PNG\r\n\x1a\n", 8) != 0 ||
	     pngio_decode((unsigned char *)out.data, out.len, &roomy, img, why, sizeof why) != 0)) {
		snprintf(err, errlen, "the output is not a PNG");
		rc = 99;
	}
	buf_free(&out);
	return rc;
}

/* ---- the offline provider's pictures ---- */

struct offline_case {
	const char *prompt;
	int svg_w, svg_h;     /* the SVG's size (svg_render) */
	int width;            /* asked for; 0 none */
	int want_w, want_h;
};

static const struct offline_case offline_cases[] = {
	{ "一只在海边奔跑的金毛犬", 1024, 1024, 512, 512, 512 },
	{ "a lighthouse at dawn", 1024, 1024, 0, 1024, 1024 },
	{ "赛博朋克城市夜景，霓虹灯", 1024, 768, 300, 300, 225 },
	{ "水彩风格的猫", 768, 1024, 64, 64, 85 },
	{ "雪山下的小木屋", 512, 128, 4096, 4096, 1024 },
	{ "sunset over the desert", 4096, 2048, 0, 2048, 1024 },
};

static void test_offline(void)
{
	for (size_t i = 0; i < sizeof offline_cases / sizeof offline_cases[0]; i++) {
		const struct offline_case *k = &offline_cases[i];
		struct pngio_image img;
		struct buf svg;
		char err[200] = "";
		int w = 0, h = 0, rc, n;

		buf_init(&svg, 1 << 20);
		if (svg_render(k->prompt, k->svg_w, k->svg_h, &svg) != 0)
			exit(99);
		rc = render(svg.data, svg.len, k->width, &img, &w, &h, err, sizeof err);
		is_int(rc, RASTER_OK, "%s, %dx%d asked %d: %s", k->prompt, k->svg_w, k->svg_h,
		       k->width, rc ? err : "a PNG");
		ok(w == k->want_w && h == k->want_h && img.w == w && img.h == h,
		   "  ... %dx%d (reported %dx%d, in the file %dx%d)", k->want_w, k->want_h, w, h,
		   img.w, img.h);
		n = img.rgba ? colours(&img, 32) : 0;
		ok(n >= 16, "  ... a picture, not a flat colour (%d colours seen)", n);
		ok(img.rgba && img.rgba[3] == 255 && img.rgba[((long)img.w * img.h - 1) * 4 + 3] == 255,
		   "  ... opaque corners: the background fills the canvas");
		pngio_image_free(&img);
		buf_free(&svg);
	}
}

/* ---- nothing outside the document is loaded ---- */

/* A 4x4 pure red PNG at path. */
static void write_red_png(const char *path)
{
	unsigned char px[4 * 4 * 4];
	struct pngio_image img = { 4, 4, px };
	struct buf b;
	FILE *f = fopen(path, "wb");

	for (size_t i = 0; i < sizeof px; i += 4)
		memcpy(px + i, "\xff\x00\x00\xff", 4);
	buf_init(&b, 1 << 16);
	if (f == NULL || pngio_encode(&img, &b) != 0 || fwrite(b.data, 1, b.len, f) != b.len)
		exit(99);
	fclose(f);
	buf_free(&b);
}

static int listen_local(int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 8) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &al) != 0)
		exit(99);
	*port = ntohs(a.sin_port);
	return fd;
}

static int red_pixels(const struct pngio_image *img)
{
	int n = 0;

	for (long i = 0; i < (long)img->w * img->h; i++) {
		const unsigned char *p = img->rgba + i * 4;

		n += p[0] > 200 && p[1] < 60 && p[2] < 60;
	}
	return n;
}

struct external_case {
	const char *name;
	const char *body;      /* %1$s: the red file's path, %2$d: the port */
};

static const struct external_case external_cases[] = {
	{ "an absolute file: URL", "<image x='0' y='0' width='64' height='64' href='file://%1$s'/>" },
	{ "a plain path", "<image x='0' y='0' width='64' height='64' xlink:href='%1$s'/>" },
	{ "a relative name", "<image x='0' y='0' width='64' height='64' href='red.png'/>" },
	{ "an http URL", "<image x='0' y='0' width='64' height='64' href='http://127.0.0.1:%2$d/red.png'/>" },
	{ "a CSS import over http", "<style>@import url(http://127.0.0.1:%2$d/a.css);</style>" },
	{ "a use of another file", "<use href='file://%1$s#x'/><use href='http://127.0.0.1:%2$d/b.svg#x'/>" },
	{ "a filter image", "<filter id='f'><feImage href='file://%1$s'/></filter>"
	  "<rect width='64' height='64' filter='url(#f)'/>" },
	{ "an XInclude", "<text x='0' y='60' fill='#ff0000' font-size='60'>"
	  "<xi:include xmlns:xi='http://www.w3.org/2001/XInclude' href='file://%1$s.txt' "
	  "parse='text'/></text>" },
};

static void test_external(void)
{
	char dir[] = "/tmp/t_raster.XXXXXX", red[80], txt[90], body[600], svg[1200], err[200];
	int port, lfd;
	FILE *f;

	if (mkdtemp(dir) == NULL)
		exit(99);
	snprintf(red, sizeof red, "%s/red.png", dir);
	write_red_png(red);
	/* Text an XInclude would draw in red. */
	snprintf(txt, sizeof txt, "%s.txt", red);
	f = fopen(txt, "w");
	if (f == NULL || fputs("WWWWWWWW", f) < 0 || fclose(f) != 0)
		exit(99);
	lfd = listen_local(&port);
	/* A relative name would be looked up beside the process, if anywhere. */
	if (chdir(dir) != 0)
		exit(99);
	for (size_t i = 0; i < sizeof external_cases / sizeof external_cases[0]; i++) {
		const struct external_case *k = &external_cases[i];
		struct pngio_image img;
		int w = 0, h = 0, rc, conn;

		snprintf(body, sizeof body, k->body, red, port);
		snprintf(svg, sizeof svg, "<svg xmlns='http://www.w3.org/2000/svg' "
			 "xmlns:xlink='http://www.w3.org/1999/xlink' width='64' height='64'>"
			 "<rect width='64' height='64' fill='#ffffff'/>%s</svg>", body);
		rc = render(svg, strlen(svg), 0, &img, &w, &h, err, sizeof err);
		conn = accept(lfd, NULL, NULL);
		ok(rc == RASTER_OK && img.rgba && red_pixels(&img) == 0,
		   "%s: drawn without it (%s, %d red pixels)", k->name, rc ? err : "a PNG",
		   img.rgba ? red_pixels(&img) : -1);
		ok(conn < 0 && (errno == EAGAIN || errno == EWOULDBLOCK),
		   "  ... no connection to the listening port");
		if (conn >= 0)
			close(conn);
		pngio_image_free(&img);
	}
	/* The file itself draws red when embedded as data: (the check can fail). */
	{
		static const char data_svg[] =
			"<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'>"
			"<image width='64' height='64' preserveAspectRatio='none' href='data:image/png;base64,"
			"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
			"'/></svg>";
		struct pngio_image img;
		int w, h, rc = render(data_svg, strlen(data_svg), 0, &img, &w, &h, err, sizeof err);

		ok(rc == RASTER_OK && img.rgba && red_pixels(&img) == 64 * 64,
		   "a data: image is drawn (%d red pixels of %d)", img.rgba ? red_pixels(&img) : -1,
		   64 * 64);
		pngio_image_free(&img);
	}
	close(lfd);
	unlink(red);
	unlink(txt);
	if (chdir("/") != 0 || rmdir(dir) != 0)
		exit(99);
}

/* ---- refused ---- */

struct refuse_case {
	const char *name;
	const char *svg;
	size_t len;            /* 0: strlen */
	int width;
	int rc;
	const char *why;       /* in the reason */
};

#define SQUARE "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'><rect width='100' height='100'/></svg>"

static const struct refuse_case refuse_cases[] = {
	{ "no bytes", "", 0, 0, RASTER_E_SVG, "empty" },
	{ "not XML", "this is not a picture", 0, 0, RASTER_E_SVG, "SVG" },
	{ "cut short", "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect", 0, 0,
	  RASTER_E_SVG, "SVG" },
	{ "unclosed elements", "<svg xmlns='http://www.w3.org/2000/svg'><g><rect></svg>", 0, 0,
	  RASTER_E_SVG, "SVG" },
	{ "bytes that are not text", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, 0, RASTER_E_SVG, "SVG" },
	{ "a width past the largest", SQUARE, 0, 4097, RASTER_E_SIZE, "64..4096" },
	{ "a huge width", SQUARE, 0, 1000000, RASTER_E_SIZE, "64..4096" },
	{ "a width under the smallest", SQUARE, 0, 63, RASTER_E_SIZE, "64..4096" },
	{ "a negative width", SQUARE, 0, -5, RASTER_E_SIZE, "64..4096" },
	{ "a tall picture made too tall", "<svg xmlns='http://www.w3.org/2000/svg' width='10' "
	  "height='1000'/>", 0, 2048, RASTER_E_SIZE, "204800 high" },
	{ "a tall picture by its viewBox", "<svg xmlns='http://www.w3.org/2000/svg' width='100%' "
	  "height='100%' viewBox='0 0 1 100'/>", 0, 0, RASTER_E_SIZE, "high" },
};

static void test_refused(void)
{
	FILE *errf = tmpfile();
	int saved = dup(2);
	long noise;

	if (errf == NULL || saved < 0)
		exit(99);
	fflush(stderr);
	dup2(fileno(errf), 2);
	for (size_t i = 0; i < sizeof refuse_cases / sizeof refuse_cases[0]; i++) {
		const struct refuse_case *k = &refuse_cases[i];
		struct buf out;
		char err[200] = "";
		int w = -1, h = -1, rc;

		buf_init(&out, 1 << 20);
		rc = raster_svg_png(k->svg, k->len ? k->len : strlen(k->svg), k->width, &out, &w, &h,
				    err, sizeof err);
		is_int(rc, k->rc, "%s: refused (%s)", k->name, err);
		ok(strstr(err, k->why) && out.len == 0 && w == -1 && h == -1,
		   "  ... the reason says \"%s\"; no output, no size", k->why);
		buf_free(&out);
	}
	{
		struct buf out;
		struct buf svg;
		char err[200] = "";
		int w, h, rc;

		buf_init(&svg, 1 << 20);
		buf_init(&out, 1000);
		if (svg_render("a lighthouse at dawn", 512, 512, &svg) != 0 || buf_add(&out, "kept", 4))
			exit(99);
		rc = raster_svg_png(svg.data, svg.len, 512, &out, &w, &h, err, sizeof err);
		is_int(rc, RASTER_E_RENDER, "a PNG past the output's cap: refused (%s)", err);
		ok(out.len == 4 && strcmp(out.data, "kept") == 0, "  ... the output is left as it was");
		buf_free(&out);
		buf_free(&svg);
	}
	fflush(stderr);
	noise = ftell(errf);
	dup2(saved, 2);
	close(saved);
	is_int(noise, 0, "nothing was written to stderr");
	fclose(errf);
}

/* ---- widths snapped ---- */

static const struct { int asked, drawn; } snap_cases[] = {
	{ 0, 0 }, { 64, 256 }, { 255, 256 }, { 256, 256 }, { 257, 512 }, { 300, 512 },
	{ 512, 512 }, { 513, 1024 }, { 1000, 1024 }, { 1024, 1024 }, { 1025, 1080 },
	{ 1080, 1080 }, { 1081, 2048 }, { 2000, 2048 },
	{ 2049, 4096 }, { 4033, 4096 }, { 4096, 4096 },
};

static void test_snap(void)
{
	for (size_t i = 0; i < sizeof snap_cases / sizeof snap_cases[0]; i++)
		is_int(raster_width_snap(snap_cases[i].asked), snap_cases[i].drawn,
		       "width %d is drawn at %d", snap_cases[i].asked, snap_cases[i].drawn);
}

/* ---- under a budget ---- */

/* Four morphology passes of radius 400 over 2048 x 2048: minutes of CPU
 * from 400 bytes, within every count of the SVG check. */
static const char filter_bomb[] =
	"<svg xmlns='http://www.w3.org/2000/svg' width='2048' height='2048'>"
	"<filter id='f' x='0' y='0' width='1' height='1'>"
	"<feMorphology radius='400' operator='dilate'/><feMorphology radius='400' operator='erode'/>"
	"<feMorphology radius='400' operator='dilate'/><feMorphology radius='400' operator='erode'/>"
	"</filter><rect width='2048' height='2048' fill='red' filter='url(#f)'/></svg>";

static void test_budget(void)
{
	struct budget b = { 5000, 512LL << 20, 20000, -1, 96u << 20 };
	struct buf svg, here, there;
	char err[256] = "";
	int w = 0, h = 0, rc;
	long long t0;

	buf_init(&svg, 1 << 20);
	buf_init(&here, 96u << 20);
	buf_init(&there, 96u << 20);
	if (svg_render("a lighthouse at dawn", 1024, 768, &svg) != 0 ||
	    raster_svg_png(svg.data, svg.len, 512, &here, &w, &h, err, sizeof err) != RASTER_OK)
		tap_bail("drawing the offline picture: %s", err);
	rc = raster_svg_png_budget(&b, svg.data, svg.len, 512, &there, &w, &h, err, sizeof err);
	is_int(rc, RASTER_OK, "drawn in a child: %s", rc ? err : "a PNG");
	ok(w == 512 && h == 384 && there.len == here.len &&
	   memcmp(there.data, here.data, here.len) == 0,
	   "  ... %dx%d, the same bytes as drawn here (%zu)", w, h, there.len);
	rc = raster_svg_png_budget(&b, "<svg><rect", 10, 0, &there, &w, &h, err, sizeof err);
	ok(rc == RASTER_E_SVG && strstr(err, "SVG"), "an SVG librsvg cannot read: RASTER_E_SVG (%s)",
	   err);
	b.cpu_ms = 1000;
	t0 = clock_mono_ms();
	rc = raster_svg_png_budget(&b, filter_bomb, strlen(filter_bomb), 0, &there, &w, &h, err,
				   sizeof err);
	is_int(rc, RASTER_E_BUDGET, "a filter chain of %zu bytes under 1 s of CPU: %s",
	       strlen(filter_bomb), err);
	ok(strstr(err, "CPU") && clock_mono_ms() - t0 < 8000, "  ... stopped by its CPU time, in %lld ms",
	   clock_mono_ms() - t0);
	buf_free(&svg);
	buf_free(&here);
	buf_free(&there);
}

int main(void)
{
	test_offline();
	test_external();
	test_refused();
	test_snap();
	test_budget();
	return tap_done();
}
