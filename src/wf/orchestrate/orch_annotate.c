/* image_annotate: a picture of the workspace with rectangles and labels
 * drawn over it, as an SVG document at the picture's own size with the
 * picture embedded as a data URL, so it needs nothing else to show (and
 * api/assets/<id>?format=png rasterises it). Labels are text, escaped for
 * XML, in a font list with Chinese fallbacks, so the browser draws them in
 * its own fonts. Regions are clipped to the picture; one that is not a
 * rectangle with a positive size, or that lies wholly outside, is an
 * error naming it. */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "media/imgnorm.h"
#include "media/imgsize.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_tool_util.h"
#include "wf/orchestrate/orch_ws.h"

#define ORCH_ANN_REGIONS 500     /* regions in one call */
#define ORCH_ANN_LABEL 200       /* bytes of one label */
#define ORCH_ANN_FONTS "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', " \
	"'Hiragino Sans GB', 'Microsoft YaHei', 'WenQuanYi Micro Hei', system-ui, sans-serif"

static const char *const orch_ann_colours[] = {
	"#e5484d", "#0091ff", "#30a46c", "#f76b15", "#8e4ec6", "#d6409f", "#12a594", "#c2a300",
};

struct orch_ann_region {
	double x, y, w, h;       /* clipped */
	const char *label;       /* borrowed from the arguments, may be NULL */
};

struct orch_ann {
	int w, h;                /* the picture */
	struct orch_ann_region *r;
	size_t n;
	int clipped;
};

/* A number as SVG wants it: at most two decimals, no trailing zeros. */
static void orch_ann_num(struct buf *b, double v)
{
	char s[48];
	size_t n;

	snprintf(s, sizeof s, "%.2f", v);
	n = strlen(s);
	while (n > 0 && s[n - 1] == '0')
		s[--n] = '\0';
	if (n > 0 && s[n - 1] == '.')
		s[--n] = '\0';
	buf_adds(b, strcmp(s, "-0") == 0 ? "0" : s);
}

/* Text escaped for XML; control characters, which XML 1.0 cannot hold,
 * become spaces. */
static void orch_ann_escape(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '&')
			buf_adds(b, "&amp;");
		else if (ch == '<')
			buf_adds(b, "&lt;");
		else if (ch == '>')
			buf_adds(b, "&gt;");
		else if (ch == '"')
			buf_adds(b, "&quot;");
		else if (ch == '\'')
			buf_adds(b, "&apos;");
		else if (ch < 0x20 || ch == 0x7f)
			buf_adds(b, " ");
		else
			buf_add(b, s, 1);
	}
}

/* A label's width in ems, roughly: wide (CJK) characters one em, others
 * six tenths. */
static double orch_ann_ems(const char *s)
{
	double ems = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xc0) == 0x80)
			continue;
		ems += *p >= 0xe1 ? 1.0 : 0.6;
	}
	return ems;
}

/* One region of the arguments, checked and clipped. NULL, or an error
 * (new). */
static json_t *orch_ann_region(struct orch_ann *a, size_t i, const json_t *v)
{
	const char *type = json_string_value(json_object_get(v, "type"));
	const json_t *lv = json_object_get(v, "label");
	const char *keys[] = { "x", "y", "width", "height" };
	double d[4], x1, y1;
	struct orch_ann_region *r = &a->r[i];

	if (!json_is_object(v))
		return orch_tool_error("bad_args", "region %zu must be an object", i);
	if (json_object_get(v, "type") && (type == NULL || strcmp(type, "rectangle") != 0))
		return orch_tool_error("bad_args", "region %zu: type must be \"rectangle\"", i);
	for (int k = 0; k < 4; k++) {
		const json_t *n = json_object_get(v, keys[k]);

		if (!json_is_number(n) || !isfinite(d[k] = json_number_value(n)))
			return orch_tool_error("bad_args", "region %zu: %s must be a number", i, keys[k]);
	}
	if (d[2] <= 0 || d[3] <= 0)
		return orch_tool_error("bad_args", "region %zu: width and height must be positive", i);
	if (lv && !json_is_null(lv) && (!json_is_string(lv) || json_string_length(lv) > ORCH_ANN_LABEL ||
					json_string_length(lv) != strlen(json_string_value(lv))))
		return orch_tool_error("bad_args", "region %zu: label must be text of at most %d bytes",
				       i, ORCH_ANN_LABEL);
	r->x = fmax(0, d[0]);
	r->y = fmax(0, d[1]);
	x1 = fmin(a->w, d[0] + d[2]);
	y1 = fmin(a->h, d[1] + d[3]);
	if (x1 <= r->x || y1 <= r->y)
		return orch_tool_error("bad_args", "region %zu lies outside the picture (%d x %d)", i,
				       a->w, a->h);
	r->w = x1 - r->x;
	r->h = y1 - r->y;
	r->label = json_string_value(lv);
	a->clipped += r->x != d[0] || r->y != d[1] || r->w != d[2] || r->h != d[3];
	return NULL;
}

static json_t *orch_ann_regions(struct orch_ann *a, const json_t *regions)
{
	const json_t *v;
	json_t *err;
	size_t i;

	if (!json_is_array(regions) || json_array_size(regions) == 0 ||
	    json_array_size(regions) > ORCH_ANN_REGIONS)
		return orch_tool_error("bad_args", "regions must be an array of 1 to %d rectangles",
				       ORCH_ANN_REGIONS);
	a->n = json_array_size(regions);
	a->r = xcalloc(a->n, sizeof *a->r);
	json_array_foreach(regions, i, v)
		if ((err = orch_ann_region(a, i, v)) != NULL)
			return err;
	return NULL;
}

static void orch_ann_label(struct buf *b, const struct orch_ann *a, const struct orch_ann_region *r,
			   const char *colour, double fs)
{
	double lw = orch_ann_ems(r->label) * fs + fs * 0.6, lh = fs * 1.35;
	double top = r->y >= lh ? r->y - lh : r->y;
	double x = fmax(0, fmin(r->x, a->w - lw));

	buf_adds(b, "<g class=\"label\"><rect x=\"");
	orch_ann_num(b, x);
	buf_adds(b, "\" y=\"");
	orch_ann_num(b, top);
	buf_adds(b, "\" width=\"");
	orch_ann_num(b, lw);
	buf_adds(b, "\" height=\"");
	orch_ann_num(b, lh);
	buf_printf(b, "\" fill=\"%s\" fill-opacity=\"0.85\"/><text x=\"", colour);
	orch_ann_num(b, x + fs * 0.3);
	buf_adds(b, "\" y=\"");
	orch_ann_num(b, top + fs * 1.05);
	buf_adds(b, "\" fill=\"#ffffff\">");
	orch_ann_escape(b, r->label);
	buf_adds(b, "</text></g>\n");
}

static void orch_ann_box(struct buf *b, const struct orch_ann_region *r, const char *colour)
{
	buf_adds(b, "<rect class=\"box\" x=\"");
	orch_ann_num(b, r->x);
	buf_adds(b, "\" y=\"");
	orch_ann_num(b, r->y);
	buf_adds(b, "\" width=\"");
	orch_ann_num(b, r->w);
	buf_adds(b, "\" height=\"");
	orch_ann_num(b, r->h);
	buf_printf(b, "\" stroke=\"%s\"/>\n", colour);
}

/* The document; -1 past the buffer's cap. */
static int orch_ann_svg(struct buf *b, const struct orch_ann *a, const char *mime,
			const unsigned char *img, size_t len)
{
	size_t ncol = sizeof orch_ann_colours / sizeof orch_ann_colours[0];
	size_t b64n = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_ORIGINAL);
	double side = a->w < a->h ? a->w : a->h;
	double sw = fmax(2, side / 300), fs = fmin(64, fmax(12, side / 40));
	char *b64 = xmalloc(b64n);

	sodium_bin2base64(b64, b64n, img, len, sodium_base64_VARIANT_ORIGINAL);
	buf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		   "<image x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"none\" "
		   "xlink:href=\"data:%s;base64,", a->w, a->h, a->w, a->h, a->w, a->h, mime);
	buf_adds(b, b64);
	free(b64);
	buf_adds(b, "\"/>\n<g fill=\"none\" stroke-width=\"");
	orch_ann_num(b, sw);
	buf_adds(b, "\">\n");
	for (size_t i = 0; i < a->n; i++)
		orch_ann_box(b, &a->r[i], orch_ann_colours[i % ncol]);
	buf_adds(b, "</g>\n<g font-family=\"" ORCH_ANN_FONTS "\" font-size=\"");
	orch_ann_num(b, fs);
	buf_adds(b, "\">\n");
	for (size_t i = 0; i < a->n; i++)
		if (a->r[i].label && *a->r[i].label)
			orch_ann_label(b, a, &a->r[i], orch_ann_colours[i % ncol], fs);
	return buf_adds(b, "</g>\n</svg>\n");
}

/* annotated/<the picture's name without its extension>.svg */
static void orch_ann_out_path(const char *src, char *out, size_t outlen)
{
	const char *base = strrchr(src, '/');
	const char *dot;
	int n;

	base = base ? base + 1 : src;
	dot = strrchr(base, '.');
	n = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
	if (n > 200)
		n = 200;
	while (n > 0 && ((unsigned char)base[n] & 0xc0) == 0x80)
		n--;
	snprintf(out, outlen, "annotated/%.*s.svg", n, base);
	if (!orch_ws_path_ok(out))
		snprintf(out, outlen, "annotated/image.svg");
}

/* The picture at path with its type and size: NULL, or an error (new). */
static json_t *orch_ann_load(struct step_ctx *c, const char *path, struct orch_ann *a,
			     unsigned char **data, size_t *len, const char **mime)
{
	char *stored = NULL;

	if (orch_ws_get(c, path, &stored, (void **)data, len) < 0)
		return orch_tool_error("not_found", "no file %s in the workspace", path);
	free(stored);
	*mime = imgnorm_sniff(*data, *len);
	if (*mime == NULL || imgsize_read(*data, *len, &a->w, &a->h) < 0)
		return orch_tool_error("bad_image", "%s is not a PNG, JPEG, GIF or WebP picture "
				       "whose size can be read", path);
	return NULL;
}

static json_t *orch_ann_store(struct step_ctx *c, const char *stage, const json_t *args,
			      const char *src, const struct orch_ann *a, struct buf *svg)
{
	const json_t *ov = json_object_get(args, "output_path");
	char out[ORCH_WS_PATH_MAX + 1], err[256];
	const char *id;

	if (ov && !json_is_null(ov)) {
		const char *p = orch_ws_path_json(ov);

		if (p == NULL)
			return orch_tool_error("bad_path", "output_path must be a relative workspace path");
		snprintf(out, sizeof out, "%s", p);
	} else
		orch_ann_out_path(src, out, sizeof out);
	if (orch_ws_put(c, out, "image/svg+xml", svg->data, svg->len, stage, err, sizeof err) < 0)
		return orch_tool_ws_error(err);
	id = json_string_value(json_object_get(orch_ws_entry(c, out), "assetId"));
	return json_pack("{s:s, s:s, s:s, s:s+, s:I, s:i, s:i, s:i, s:s}", "path", out, "mimeType",
			 "image/svg+xml", "assetId", id, "url", "api/assets/", id, "regions",
			 (json_int_t)a->n, "clipped", a->clipped, "width", a->w, "height", a->h,
			 "source", src);
}

json_t *orch_tool_annotate(struct step_ctx *c, const char *stage_id, const json_t *args)
{
	const char *src = orch_ws_path_json(json_object_get(args, "image_path"));
	struct orch_ann a = { 0 };
	unsigned char *img = NULL;
	const char *mime = NULL;
	struct buf svg;
	size_t len = 0;
	json_t *out;

	if (src == NULL)
		return orch_tool_error("bad_path", "image_path must be a relative workspace path");
	buf_init(&svg, 0);
	out = orch_ann_load(c, src, &a, &img, &len, &mime);
	if (out == NULL)
		out = orch_ann_regions(&a, json_object_get(args, "regions"));
	if (out == NULL) {
		buf_init(&svg, len / 3 * 4 + 8 + a.n * 2048 + 8192);
		out = orch_ann_svg(&svg, &a, mime, img, len) < 0
		      ? orch_tool_error("too_large", "the annotated picture would be too large")
		      : orch_ann_store(c, stage_id, args, src, &a, &svg);
	}
	buf_free(&svg);
	free(img);
	free(a.r);
	return out;
}
