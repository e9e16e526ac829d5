/* Pictures as pixels (see pixels.h). libjpeg reports a fatal error by
 * calling error_exit, which must not return: ours jumps back to the
 * decoder with the message kept, and its warnings are dropped instead of
 * printed. */
#include "config.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "media/pixels.h"
#include "util/xmalloc.h"

struct pixels_jerr {
	struct jpeg_error_mgr mgr;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
};

const char *pixels_sniff(const unsigned char *data, size_t len)
{
	static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	if (len >= 8 && memcmp(data, png, 8) == 0)
		return "image/png";
	if (len >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff)
		return "image/jpeg";
	return NULL;
}

static void pixels_jerr_exit(j_common_ptr cinfo)
{
	struct pixels_jerr *e = (struct pixels_jerr *)cinfo->err;

	cinfo->err->format_message(cinfo, e->msg);
	longjmp(e->jump, 1);
}

static void pixels_jerr_quiet(j_common_ptr cinfo)
{
	(void)cinfo;
}

static void pixels_jerr_quiet_level(j_common_ptr cinfo, int level)
{
	(void)cinfo;
	(void)level;
}

/* One decoded scanline (RGB or CMYK) into the RGBA row. Adobe's CMYK
 * JPEGs store the channels inverted, which is what libjpeg hands back. */
static void pixels_jpeg_row(const unsigned char *in, int comps, int w, unsigned char *out)
{
	for (int x = 0; x < w; x++, in += comps, out += 4) {
		if (comps == 4) {
			out[0] = (unsigned char)(in[0] * in[3] / 255);
			out[1] = (unsigned char)(in[1] * in[3] / 255);
			out[2] = (unsigned char)(in[2] * in[3] / 255);
		} else {
			out[0] = in[0];
			out[1] = in[1];
			out[2] = in[2];
		}
		out[3] = 255;
	}
}

static int pixels_jpeg_check(const struct jpeg_decompress_struct *ci,
			     const struct pngio_limits *lim, char *err, size_t errlen)
{
	long long bytes = (long long)ci->image_width * ci->image_height * 4;

	if (ci->image_width == 0 || ci->image_height == 0) {
		snprintf(err, errlen, "the JPEG picture has no pixels");
		return -1;
	}
	if ((long)ci->image_width > lim->max_side || (long)ci->image_height > lim->max_side ||
	    bytes > lim->max_bytes) {
		snprintf(err, errlen, "the JPEG picture is too large (%ux%u)", ci->image_width,
			 ci->image_height);
		return -1;
	}
	return 0;
}

/* The decoding proper, between setjmp and the cleanup; volatile because
 * a longjmp may come back while they are set. */
static int pixels_jpeg_read(struct jpeg_decompress_struct *ci, const struct pngio_limits *lim,
			    struct pixels *out, unsigned char *volatile *rowp, char *err,
			    size_t errlen)
{
	jpeg_read_header(ci, TRUE);
	if (pixels_jpeg_check(ci, lim, err, errlen))
		return -1;
	ci->out_color_space = ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK
		? JCS_CMYK : JCS_RGB;
	jpeg_start_decompress(ci);
	*rowp = xmalloc((size_t)ci->output_width * ci->output_components);
	out->w = (int)ci->output_width;
	out->h = (int)ci->output_height;
	out->rgba = xmalloc((size_t)out->w * out->h * 4);
	while (ci->output_scanline < ci->output_height) {
		JSAMPROW r = *rowp;
		int y = (int)ci->output_scanline;

		if (jpeg_read_scanlines(ci, &r, 1) != 1)
			break;
		pixels_jpeg_row(*rowp, ci->output_components, out->w,
				out->rgba + (size_t)y * out->w * 4);
	}
	jpeg_finish_decompress(ci);
	return 0;
}

static int pixels_jpeg(const unsigned char *data, size_t len, const struct pngio_limits *lim,
		       struct pixels *out, char *err, size_t errlen)
{
	struct jpeg_decompress_struct ci;
	struct pixels_jerr je;
	unsigned char *volatile row = NULL;
	volatile int rc = -1;

	memset(&ci, 0, sizeof(ci));
	ci.err = jpeg_std_error(&je.mgr);
	je.mgr.error_exit = pixels_jerr_exit;
	je.mgr.output_message = pixels_jerr_quiet;
	je.mgr.emit_message = pixels_jerr_quiet_level;
	if (setjmp(je.jump)) {
		snprintf(err, errlen, "not a JPEG picture libjpeg can read: %s", je.msg);
		pixels_free(out);
		goto done;
	}
	jpeg_create_decompress(&ci);
	jpeg_mem_src(&ci, data, (unsigned long)len);
	rc = pixels_jpeg_read(&ci, lim, out, &row, err, errlen);
	if (rc)
		pixels_free(out);
done:
	jpeg_destroy_decompress(&ci);
	free(row);
	return rc;
}

static int pixels_png(const unsigned char *data, size_t len, const struct pngio_limits *lim,
		      struct pixels *out, char *err, size_t errlen)
{
	struct pngio_image img = { 0, 0, NULL };

	if (pngio_decode(data, len, lim, &img, err, errlen) != PNGIO_OK)
		return -1;
	out->w = img.w;
	out->h = img.h;
	out->rgba = img.rgba;
	return 0;
}

int pixels_decode(const unsigned char *data, size_t len, const char *mime,
		  const struct pngio_limits *lim, struct pixels *out, char *err, size_t errlen)
{
	const char *type = data ? pixels_sniff(data, len) : NULL;

	memset(out, 0, sizeof(*out));
	if (!type) {
		snprintf(err, errlen, "not a PNG or JPEG picture");
		return -1;
	}
	if (mime && *mime && strcmp(mime, type) != 0 &&
	    !(strcmp(mime, "image/jpg") == 0 && strcmp(type, "image/jpeg") == 0)) {
		snprintf(err, errlen, "declared as %s but the bytes are %s", mime, type);
		return -1;
	}
	if (strcmp(type, "image/png") == 0)
		return pixels_png(data, len, lim, out, err, errlen);
	return pixels_jpeg(data, len, lim, out, err, errlen);
}

void pixels_free(struct pixels *px)
{
	if (!px)
		return;
	free(px->rgba);
	px->rgba = NULL;
	px->w = px->h = 0;
}
