/* Picture sizes from headers (see imgsize.h). */
#include "config.h"
#include <string.h>
#include "media/imgsize.h"

static unsigned imgsize_be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static unsigned imgsize_le16(const unsigned char *p)
{
	return (unsigned)p[1] << 8 | p[0];
}

static unsigned long imgsize_be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static int imgsize_png(const unsigned char *p, size_t n, int *w, int *h)
{
	unsigned long pw, ph;

	if (n < 24 || memcmp(p + 12, "IHDR", 4) != 0)
		return -1;
	pw = imgsize_be32(p + 16);
	ph = imgsize_be32(p + 20);
	if (pw == 0 || ph == 0 || pw > 0x7fffffffUL || ph > 0x7fffffffUL)
		return -1;
	*w = (int)pw;
	*h = (int)ph;
	return 0;
}

/* Start-of-frame markers: C0-CF but C4 (Huffman tables), C8 (reserved)
 * and CC (arithmetic conditioning). */
static int imgsize_jpeg_sof(unsigned m)
{
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc;
}

static int imgsize_jpeg(const unsigned char *p, size_t n, int *w, int *h)
{
	size_t i = 2;

	while (i + 4 <= n) {
		unsigned m, len;

		if (p[i] != 0xff)
			return -1;
		m = p[i + 1];
		if (m == 0xff) {          /* fill byte */
			i++;
			continue;
		}
		if (m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7)) {
			i += 2;           /* markers without a length */
			continue;
		}
		len = imgsize_be16(p + i + 2);
		if (len < 2)
			return -1;
		if (imgsize_jpeg_sof(m)) {
			if (i + 9 > n)
				return -1;
			*h = (int)imgsize_be16(p + i + 5);
			*w = (int)imgsize_be16(p + i + 7);
			return *w > 0 && *h > 0 ? 0 : -1;
		}
		i += 2 + len;
	}
	return -1;
}

static int imgsize_gif(const unsigned char *p, size_t n, int *w, int *h)
{
	if (n < 10)
		return -1;
	*w = (int)imgsize_le16(p + 6);
	*h = (int)imgsize_le16(p + 8);
	return *w > 0 && *h > 0 ? 0 : -1;
}

static int imgsize_webp(const unsigned char *p, size_t n, int *w, int *h)
{
	if (n >= 30 && memcmp(p + 12, "VP8 ", 4) == 0) {
		*w = (int)(imgsize_le16(p + 26) & 0x3fff);
		*h = (int)(imgsize_le16(p + 28) & 0x3fff);
	} else if (n >= 25 && memcmp(p + 12, "VP8L", 4) == 0 && p[20] == 0x2f) {
		unsigned long b = p[21] | (unsigned long)p[22] << 8 | (unsigned long)p[23] << 16 |
				  (unsigned long)p[24] << 24;

		*w = (int)(b & 0x3fff) + 1;
		*h = (int)((b >> 14) & 0x3fff) + 1;
	} else if (n >= 30 && memcmp(p + 12, "VP8X", 4) == 0) {
		*w = (int)(p[24] | p[25] << 8 | p[26] << 16) + 1;
		*h = (int)(p[27] | p[28] << 8 | p[29] << 16) + 1;
	} else
		return -1;
	return *w > 0 && *h > 0 ? 0 : -1;
}

int imgsize_read(const unsigned char *p, size_t n, int *w, int *h)
{
	*w = *h = 0;
	if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0)
		return imgsize_png(p, n, w, h);
	if (n >= 3 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
		return imgsize_jpeg(p, n, w, h);
	if (n >= 6 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0))
		return imgsize_gif(p, n, w, h);
	if (n >= 16 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0)
		return imgsize_webp(p, n, w, h);
	return -1;
}
