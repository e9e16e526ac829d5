/* The size of a picture from its header alone (no pixel decoded): PNG
 * (IHDR), JPEG (the first start-of-frame marker), GIF (the logical
 * screen), WebP (VP8, VP8L and VP8X). For drawing over a picture at its
 * own size (the orchestrate workflow's image_annotate) without decoding
 * it. */
#ifndef AV_IMGSIZE_H
#define AV_IMGSIZE_H
#include <stddef.h>

/* *w and *h from the bytes (n of them, borrowed). 0, or -1 when the
 * type is not one of the four or the header is cut short or says 0. */
int imgsize_read(const unsigned char *p, size_t n, int *w, int *h);

#endif
