/* PNG in and out: a round trip keeps every pixel; what is not an 8-bit,
 * non-interlaced PNG is refused with a reason. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "util/png.h"

int main(void)
{
	struct png_image img = { 5, 3, NULL }, back;
	struct buf out;
	char why[128];

	img.rgba = malloc(5 * 3 * 4);
	for (int i = 0; i < 5 * 3 * 4; i++)
		img.rgba[i] = (unsigned char)(i * 37 + 11);
	buf_init(&out, 1 << 20);
	is_int(png_encode(&img, &out), 0, "an RGBA image encodes");
	ok(out.len > 8 && memcmp(out.data, "\x89PNG\r\n\x1a\n", 8) == 0, "with the PNG signature");
	is_int(png_decode((unsigned char *)out.data, out.len, 1000, &back, why, sizeof why), 0,
	       "and decodes");
	ok(back.w == 5 && back.h == 3, "to the same size");
	ok(back.rgba && memcmp(back.rgba, img.rgba, 5 * 3 * 4) == 0, "and the same pixels");
	png_image_free(&back);
	ok(png_decode((unsigned char *)out.data, out.len, 10, &back, why, sizeof why) == PNG_E_TOO_LARGE,
	   "more pixels than allowed: refused");
	ok(strstr(why, "too many") != NULL, "  because: %s", why);
	ok(png_decode((unsigned char *)out.data, out.len - 20, 1000, &back, why, sizeof why) < 0,
	   "a truncated PNG: refused");
	ok(png_decode((const unsigned char *)"GIF89a......", 12, 1000, &back, why, sizeof why) ==
	   PNG_E_FORMAT, "not a PNG: refused");
	ok(strstr(why, "not a PNG") != NULL, "  because: %s", why);
	/* The same image claiming to be interlaced, then 16 bits a channel. */
	out.data[8 + 8 + 12] = 1;
	ok(png_decode((unsigned char *)out.data, out.len, 1000, &back, why, sizeof why) ==
	   PNG_E_INTERLACED, "interlaced: refused");
	ok(strstr(why, "interlaced") != NULL, "  because: %s", why);
	out.data[8 + 8 + 12] = 0;
	out.data[8 + 8 + 8] = 16;
	ok(png_decode((unsigned char *)out.data, out.len, 1000, &back, why, sizeof why) == PNG_E_DATA,
	   "16-bit header over 8-bit rows: the data does not fit, refused");
	buf_free(&out);
	free(img.rgba);
	return tap_done();
}
