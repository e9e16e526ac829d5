/* Text in pictures through Tesseract (see ocr.h). The picture is given to
 * Tesseract as 8-bit grey, alpha flattened over white, which is what its
 * own binarisation starts from; the lines come from its result iterator
 * with their boxes and confidences. The reading runs in a child process
 * under the [media] budget (util/budget.h), so no picture can hold the
 * worker: the engine, with its language data, is made in the worker and
 * kept (the child inherits it), the recognition happens in the child,
 * whose answer comes back as JSON text. */
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/dump.h"
#include "media/ocr.h"
#include "text/script.h"
#include "util/budget.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

/* The JSON of the lines read, at most. */
#define OCR_MAX_RESULT (8u << 20)

#ifdef HAVE_TESSERACT
#include <tesseract/capi.h>

static TessBaseAPI *ocr_api;
static char ocr_langs[64];

int ocr_available(void)
{
	return 1;
}

void ocr_shutdown(void)
{
	if (ocr_api) {
		TessBaseAPIEnd(ocr_api);
		TessBaseAPIDelete(ocr_api);
	}
	ocr_api = NULL;
	ocr_langs[0] = '\0';
}

/* The engine for langs, made once and kept. */
static TessBaseAPI *ocr_engine(const char *langs, char *err, size_t errlen)
{
	if (ocr_api && strcmp(ocr_langs, langs) == 0)
		return ocr_api;
	ocr_shutdown();
	ocr_api = TessBaseAPICreate();
	/* Tesseract prints its debugging to stderr unless told otherwise. */
	TessBaseAPISetVariable(ocr_api, "debug_file", "/dev/null");
	if (TessBaseAPIInit3(ocr_api, NULL, langs) != 0) {
		snprintf(err, errlen, "Tesseract has no language data for %s", langs);
		TessBaseAPIDelete(ocr_api);
		ocr_api = NULL;
		return NULL;
	}
	TessBaseAPISetVariable(ocr_api, "debug_file", "/dev/null");
	TessBaseAPISetPageSegMode(ocr_api, PSM_AUTO);
	snprintf(ocr_langs, sizeof(ocr_langs), "%s", langs);
	return ocr_api;
}

/* RGBA to grey (Rec. 601 weights), transparent pixels over white. */
static unsigned char *ocr_grey(const struct pixels *px)
{
	size_t n = (size_t)px->w * px->h;
	unsigned char *g = xmalloc(n);

	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = px->rgba + i * 4;
		unsigned a = p[3];
		unsigned y = (299u * p[0] + 587u * p[1] + 114u * p[2]) / 1000u;

		g[i] = (unsigned char)((y * a + 255u * (255u - a)) / 255u);
	}
	return g;
}

/* Whether the UTF-8 character at p (n bytes left) is Han. */
static int ocr_han_at(const char *p, size_t n)
{
	uint32_t cp = 0;

	if (n == 0 || text_utf8_next((const unsigned char *)p, (const unsigned char *)p + n, &cp) == 0)
		return 0;
	return text_is_han(cp);
}

/* Tesseract writes Han text with a space between characters: the spaces
 * between two Han characters go, the others stay. Trailing blanks go. */
static char *ocr_clean(const char *t)
{
	size_t n = strlen(t);
	char *out = xmalloc(n + 1);
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (t[i] == ' ' && o > 0 && i + 1 < n) {
			size_t back = o;

			while (back > 0 && ((unsigned char)out[back - 1] & 0xc0) == 0x80)
				back--;
			if (ocr_han_at(out + back, o - back) &&
			    ocr_han_at(t + i + 1, n - i - 1))
				continue;
		}
		out[o++] = t[i];
	}
	while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\n' || out[o - 1] == '\r'))
		o--;
	out[o] = '\0';
	return out;
}

static json_t *ocr_box(int l, int t, int r, int b)
{
	return json_pack("{s:i, s:i, s:i, s:i}", "x", l, "y", t, "width", r - l, "height", b - t);
}

static json_t *ocr_lines(TessBaseAPI *api)
{
	json_t *regions = json_array();
	TessResultIterator *ri = TessBaseAPIGetIterator(api);

	if (!ri)
		return regions;
	do {
		const TessPageIterator *pi = TessResultIteratorGetPageIteratorConst(ri);
		char *raw = TessResultIteratorGetUTF8Text(ri, RIL_TEXTLINE);
		int l, t, r, b;

		if (raw && TessPageIteratorBoundingBox(pi, RIL_TEXTLINE, &l, &t, &r, &b)) {
			char *text = ocr_clean(raw);
			double conf = TessResultIteratorConfidence(ri, RIL_TEXTLINE) / 100.0;

			if (*text)
				json_array_append_new(regions, json_pack("{s:s, s:o, s:f}", "text", text,
					"boundingBox", ocr_box(l, t, r, b),
					"confidence", (double)(int)(conf * 100 + 0.5) / 100));
			free(text);
		}
		TessDeleteText(raw);
	} while (TessResultIteratorNext(ri, RIL_TEXTLINE));
	TessResultIteratorDelete(ri);
	return regions;
}

struct ocr_job {
	TessBaseAPI *api;
	const struct pixels *px;
};

static json_t *ocr_recognize(TessBaseAPI *api, const struct pixels *px, char *err,
			     size_t errlen)
{
	unsigned char *grey;
	json_t *regions;

	grey = ocr_grey(px);
	TessBaseAPISetImage(api, grey, px->w, px->h, 1, px->w);
	TessBaseAPISetSourceResolution(api, 96);
	if (TessBaseAPIRecognize(api, NULL) != 0) {
		snprintf(err, errlen, "Tesseract could not read the picture");
		regions = NULL;
	} else {
		regions = ocr_lines(api);
	}
	TessBaseAPIClear(api);
	free(grey);
	if (!regions)
		return NULL;
	return json_pack("{s:{s:i, s:i}, s:o}", "imageSize", "width", px->w, "height", px->h,
			 "textRegions", regions);
}

/* In the child: the reading, as JSON text. */
static int ocr_job_run(void *arg, struct buf *out, char *err, size_t errlen)
{
	const struct ocr_job *j = arg;
	json_t *found = ocr_recognize(j->api, j->px, err, errlen);
	int rc = -1;

	if (found && jdump_buf(out, found) == 0)
		rc = 0;
	else if (found)
		snprintf(err, errlen, "the text read is too long");
	json_decref(found);
	return rc;
}

/* The reading under the budget: the lines, or NULL with err. */
static json_t *ocr_budgeted(TessBaseAPI *api, const struct pixels *px, char *err, size_t errlen)
{
	struct ocr_job j = { api, px };
	struct budget b;
	struct buf res;
	json_t *found = NULL;
	char why[256];
	int wrc = -1, brc;

	budget_current(&b, OCR_MAX_RESULT);
	buf_init(&res, OCR_MAX_RESULT);
	brc = budget_run(&b, ocr_job_run, &j, &res, &wrc, why, sizeof why);
	if (brc != BUDGET_OK) {
		snprintf(err, errlen, "%s%s", brc == BUDGET_FAILED || brc == BUDGET_NO_CHILD ?
			 "Tesseract failed: " : "reading the text ", why);
		log_warn("OCR of a %dx%d picture: %s", px->w, px->h, err);
	}
	else if (wrc != 0)
		snprintf(err, errlen, "%s", why);
	else if ((found = json_loadb(res.data, res.len, 0, NULL)) == NULL)
		snprintf(err, errlen, "Tesseract's answer could not be read");
	buf_free(&res);
	return found;
}

json_t *ocr_read(const struct pixels *px, const char *langs, char *err, size_t errlen)
{
	TessBaseAPI *api;

	if (!px || !px->rgba || px->w <= 0 || px->h <= 0) {
		snprintf(err, errlen, "no picture to read");
		return NULL;
	}
	if (px->w > OCR_MAX_SIDE || px->h > OCR_MAX_SIDE ||
	    (long)px->w * px->h > OCR_MAX_PIXELS) {
		snprintf(err, errlen, "the picture is too large to read (%dx%d)", px->w, px->h);
		return NULL;
	}
	api = ocr_engine(langs && *langs ? langs : "chi_sim+eng", err, errlen);
	if (!api)
		return NULL;
	return ocr_budgeted(api, px, err, errlen);
}

#else

int ocr_available(void)
{
	return 0;
}

void ocr_shutdown(void)
{
}

json_t *ocr_read(const struct pixels *px, const char *langs, char *err, size_t errlen)
{
	(void)px;
	(void)langs;
	snprintf(err, errlen, "this server was built without Tesseract: no offline OCR");
	return NULL;
}

#endif
