/* Text in pictures, offline: Tesseract's C API over decoded pixels, when
 * the worker was built with it (configure finds libtesseract) and its
 * language data is installed. One engine per process, made on first use
 * and kept for the next pictures (loading the language models is the
 * slow part); made again only when other languages are asked for. */
#ifndef AV_OCR_H
#define AV_OCR_H
#include <stddef.h>
#include <jansson.h>
#include "media/pixels.h"

/* Larger pictures are refused rather than read for seconds. */
#define OCR_MAX_SIDE 4096
#define OCR_MAX_PIXELS (12L * 1000 * 1000)

/* 1 when built with Tesseract, else 0 (the language data is checked by
 * the first ocr_read). */
int ocr_available(void);
/* The text lines of px (borrowed) in langs ("eng", "chi_sim",
 * "chi_sim+eng"; NULL: "chi_sim+eng"): new reference to
 * {"imageSize": {"width", "height"}, "textRegions": [{"text",
 * "boundingBox": {"x", "y", "width", "height"}, "confidence": 0..1}]} in
 * reading order (spaces Tesseract puts between Han characters removed),
 * or NULL with err (no Tesseract, no language data, picture too large,
 * or the reading stopped by the [media] budget: it runs in a child
 * process, see util/budget.h, and stops when the client leaves). */
json_t *ocr_read(const struct pixels *px, const char *langs, char *err, size_t errlen);
/* Ends the engine (tests, leak checks). */
void ocr_shutdown(void);

#endif
