/* svgpng: an SVG on standard input drawn as a PNG on standard output
 * (raster.c), for integration tests that need pictures with known text
 * and shapes. Exit 0, or 1 with the reason on standard error. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include "media/raster.h"
#include "util/buf.h"

static int svgpng_read(struct buf *in)
{
	char chunk[8192];
	size_t n;

	while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
		buf_add(in, chunk, n);
	return ferror(stdin) ? -1 : 0;
}

int main(void)
{
	struct buf in, out;
	char err[256];
	int w, h, rc;

	buf_init(&in, 1 << 22);
	buf_init(&out, 1 << 26);
	if (svgpng_read(&in) < 0) {
		fprintf(stderr, "svgpng: cannot read standard input\n");
		return 1;
	}
	rc = raster_svg_png(in.data, in.len, 0, &out, &w, &h, err, sizeof err);
	if (rc != RASTER_OK) {
		fprintf(stderr, "svgpng: %s\n", err);
		return 1;
	}
	rc = fwrite(out.data, 1, out.len, stdout) == out.len ? 0 : 1;
	buf_free(&in);
	buf_free(&out);
	return rc;
}
