/* Images that come in with a request (a mask, a base image, a reference):
 * a data URL, bare base64, a stored asset's id or /api/assets/ URL, or an
 * http(s) URL, turned into checked bytes with their media type (seed 003
 * §2.4's normalizeImageData, stricter: real base64 only, an image by its
 * bytes, within a size limit). */
#ifndef AV_IMGIN_H
#define AV_IMGIN_H
#include <stddef.h>
#include <stdint.h>
#include "conf/conf.h"

struct store;

struct imgin {
	unsigned char *data;  /* malloc'd */
	size_t len;
	char mime[32];        /* by the bytes, not by what the sender said */
	char error[256];
	char asset[64];       /* the asset id, when it came from the store */
	int store_rc;         /* the store failed reading it (not the sender's mistake), or 0 */
};

/* The media type of image bytes (PNG, JPEG, GIF, WebP, SVG), or NULL. */
const char *imgin_sniff(const unsigned char *p, size_t n);
/* A data URL or bare base64 only (no store, no network). A data URL's
 * type must be the type of its bytes (imgin_type_check). 0 or -1. */
int imgin_decode(const char *s, size_t max, struct imgin *out);
/* 0 when declared (a media type, parameters allowed; NULL, "" and
 * application/octet-stream claim nothing; image/jpg is image/jpeg) names
 * the type of im's bytes, else -1 with im freed and im->error saying so. */
int imgin_type_check(struct imgin *im, const char *declared);
/* A declared media type made comparable, into out: lower case, blanks
 * before it and parameters dropped, image/jpg and image/pjpeg read as
 * image/jpeg; "" for none (NULL) or application/octet-stream (which
 * claims nothing). */
void imgin_canon_type(const char *in, char *out, size_t outlen);
/* 1 when s names a stored asset as imgin_load reads it (a bare id, or
 * api/assets/<id> in a URL of this server), with its id in id (idlen:
 * STORE_ASSET_ID_LEN + 1 at least); else 0. Whose asset it is, the
 * caller asks (step_asset_ours). */
int imgin_asset_ref(const char *s, char *id, size_t idlen);
/* Any form: asset ids and this server's asset URLs are read from the
 * store, never fetched; other http(s) URLs go through fetch_image(). */
int imgin_load(struct store *st, const struct conf *c, const char *s, size_t max,
	       struct imgin *out);
void imgin_free(struct imgin *im);

#define IMGIN_TOO_LARGE (-2)
/* A PNG's header, as libpng reads it, against max_side and the bytes left
 * in *budget (its inflated pixels are taken from it); no pixel is
 * inflated. Other types pass. 0, IMGIN_TOO_LARGE, or -1 when libpng
 * refuses the file; im->error says why. */
int imgin_png_check(struct imgin *im, long max_side, long long *budget);

#endif
