/* Pictures as pixels: PNG through pngio (libpng), JPEG through libjpeg,
 * both decoded to 8-bit RGBA under the caller's limits, which are checked
 * against the header before any pixel is decoded. For the offline vision
 * rules (OCR, element detection). Nothing goes to stderr: a library's
 * complaint comes back in err. */
#ifndef AV_PIXELS_H
#define AV_PIXELS_H
#include <stddef.h>
#include "util/pngio.h"

struct pixels {
	int w, h;
	unsigned char *rgba;     /* w * h * 4 bytes, malloc'd; NULL when empty */
};

/* "image/png" or "image/jpeg" from the first bytes, NULL for anything else. */
const char *pixels_sniff(const unsigned char *data, size_t len);
/* data (len bytes, borrowed) decoded into out. mime may be NULL (then the
 * bytes say); a mime that the bytes contradict is an error, as is any type
 * other than PNG and JPEG. lim bounds each side and the decoded bytes
 * (w * h * 4). 0, or -1 with err filled and out empty. */
int pixels_decode(const unsigned char *data, size_t len, const char *mime,
		  const struct pngio_limits *lim, struct pixels *out, char *err, size_t errlen);
/* Frees the pixels; out empty again. NULL or empty does nothing. */
void pixels_free(struct pixels *px);

#endif
