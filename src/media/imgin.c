/* Image input normalisation (see imgin.h). */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sodium.h>
#include "media/fetch.h"
#include "media/imgin.h"
#include "store/store.h"
#include "util/pngio.h"
#include "util/xmalloc.h"

void imgin_free(struct imgin *im)
{
	free(im->data);
	im->data = NULL;
	im->len = 0;
}

static int imgin_fail(struct imgin *im, const char *msg)
{
	imgin_free(im);
	snprintf(im->error, sizeof im->error, "%s", msg);
	return -1;
}

/* SVG: optional BOM, XML declaration, comments and a doctype, then <svg. */
static int imgin_is_svg(const unsigned char *p, size_t n)
{
	size_t i = 0, lim = n < 4096 ? n : 4096;

	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3;
	while (i < lim) {
		while (i < lim && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
			i++;
		if (i + 4 <= lim && memcmp(p + i, "<svg", 4) == 0)
			return 1;
		if (i + 2 <= lim && p[i] == '<' && (p[i + 1] == '?' || p[i + 1] == '!')) {
			const unsigned char *gt = memchr(p + i, '>', lim - i);

			if (gt == NULL)
				return 0;
			i = (size_t)(gt - p) + 1;
			continue;
		}
		return 0;
	}
	return 0;
}

const char *imgin_sniff(const unsigned char *p, size_t n)
{
	if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0)
		return "image/png";
	if (n >= 3 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
		return "image/jpeg";
	if (n >= 6 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0))
		return "image/gif";
	if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0)
		return "image/webp";
	if (imgin_is_svg(p, n))
		return "image/svg+xml";
	return NULL;
}

/* Strict base64 (standard alphabet, padding optional, whitespace allowed,
 * nothing after). */
static int imgin_base64(const char *b, size_t n, size_t max, struct imgin *out)
{
	size_t cap = n / 4 * 3 + 3, got = 0;
	const char *end = NULL;

	/* Base64 is 4/3 of the bytes, plus line breaks: far more is too large
	 * before any decoding (the exact check follows it). */
	if (n / 2 > max / 3 * 4 + 64)
		return imgin_fail(out, "the image is larger than allowed");
	out->data = xmalloc(cap ? cap : 1);
	if (sodium_base642bin(out->data, cap, b, n, " \t\r\n", &got, &end,
			      sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    (end && (size_t)(end - b) != n)) {
		if (sodium_base642bin(out->data, cap, b, n, " \t\r\n", &got, &end,
				      sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0 ||
		    (end && (size_t)(end - b) != n))
			return imgin_fail(out, "the image data is not valid base64");
	}
	out->len = got;
	if (got == 0)
		return imgin_fail(out, "the image data is empty");
	if (got > max)
		return imgin_fail(out, "the image is larger than allowed");
	return 0;
}

static int imgin_check(struct imgin *out, size_t max)
{
	const char *mime = imgin_sniff(out->data, out->len);

	if (out->len > max)
		return imgin_fail(out, "the image is larger than allowed");
	if (mime == NULL)
		return imgin_fail(out, "the data is not an image (PNG, JPEG, GIF, WebP or SVG)");
	snprintf(out->mime, sizeof out->mime, "%s", mime);
	return 0;
}

void imgin_canon_type(const char *in, char *out, size_t outlen)
{
	size_t i = 0;

	out[0] = '\0';
	if (in == NULL)
		return;
	while (*in == ' ')
		in++;
	for (; in[i] && in[i] != ';' && in[i] != ',' && in[i] != ' ' && i + 1 < outlen; i++)
		out[i] = (char)tolower((unsigned char)in[i]);
	out[i] = '\0';
	if (strcmp(out, "image/jpg") == 0 || strcmp(out, "image/pjpeg") == 0)
		snprintf(out, outlen, "image/jpeg");
	if (strcmp(out, "application/octet-stream") == 0)
		out[0] = '\0';
}

int imgin_type_check(struct imgin *im, const char *declared)
{
	char decl[64], msg[160];

	imgin_canon_type(declared, decl, sizeof decl);
	if (*decl == '\0' || strcmp(decl, im->mime) == 0)
		return 0;
	snprintf(msg, sizeof msg, "the image is declared as %s but its bytes are %s", decl, im->mime);
	return imgin_fail(im, msg);
}

int imgin_decode(const char *s, size_t max, struct imgin *out)
{
	const char *comma, *decl = NULL;

	memset(out, 0, sizeof *out);
	if (s == NULL || *s == '\0')
		return imgin_fail(out, "no image data");
	if (strncasecmp(s, "data:", 5) == 0) {
		comma = strchr(s, ',');
		/* data:<type>;base64,<data>; the type must be the bytes' own. */
		if (comma == NULL || comma - s < 12 || strncasecmp(comma - 7, ";base64", 7) != 0)
			return imgin_fail(out, "a data URL must be data:<type>;base64,<data>");
		if (strncasecmp(s + 5, "image/", 6) != 0)
			return imgin_fail(out, "the data URL is not an image");
		decl = s + 5;
		s = comma + 1;
	}
	if (imgin_base64(s, strlen(s), max, out) < 0 || imgin_check(out, max) < 0)
		return -1;
	return imgin_type_check(out, decl);
}

/* "api/assets/<id>" in a URL of this server (absolute, root-relative or
 * relative, as the workflows give them), or a bare id. */
static const char *imgin_asset_id(const char *s)
{
	const char *p = strstr(s, "/api/assets/");

	if (p)
		p += strlen("/api/assets/");
	else if (strncmp(s, "api/assets/", 11) == 0)
		p = s + 11;
	else if (strlen(s) == STORE_ASSET_ID_LEN && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"abcdefghijklmnopqrstuvwxyz0123456789-_") == STORE_ASSET_ID_LEN)
		p = s;
	if (p == NULL || strlen(p) < STORE_ASSET_ID_LEN)
		return NULL;
	return p;
}

int imgin_asset_ref(const char *s, char *id, size_t idlen)
{
	const char *aid = s ? imgin_asset_id(s) : NULL;

	if (aid == NULL)
		return 0;
	snprintf(id, idlen, "%.*s", STORE_ASSET_ID_LEN, aid);
	return 1;
}

int imgin_load(struct store *st, const struct conf *c, const char *s, size_t max,
	       struct imgin *out)
{
	const char *aid = s ? imgin_asset_id(s) : NULL;

	memset(out, 0, sizeof *out);
	if (aid && st) {
		char id[STORE_ASSET_ID_LEN + 1], *ctype = NULL;
		void *data = NULL;

		int rc = STORE_NOTFOUND;

		snprintf(id, sizeof id, "%.*s", STORE_ASSET_ID_LEN, aid);
		if (strlen(aid) == STORE_ASSET_ID_LEN)
			rc = store_asset_get(st, id, &ctype, &data, &out->len);
		if (rc != 0 && rc != STORE_NOTFOUND)
			out->store_rc = rc;
		if (rc != 0)
			return imgin_fail(out, rc == STORE_NOTFOUND ? "no stored image with that id"
					       : "the stored image cannot be read");
		free(ctype);
		out->data = data;
		snprintf(out->asset, sizeof out->asset, "%s", id);
		return imgin_check(out, max);
	}
	if (s && (strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0)) {
		struct fetch_result fr;

		if (fetch_image(c, s, &fr) < 0)
			return imgin_fail(out, fr.error);
		out->data = fr.data;
		out->len = fr.len;
		return imgin_check(out, max);
	}
	return imgin_decode(s, max, out);
}

int imgin_png_check(struct imgin *im, long max_side, long long *budget)
{
	struct pngio_limits lim = { max_side, *budget };
	struct pngio_info info;
	int rc;

	if (strcmp(im->mime, "image/png") != 0)
		return 0;
	rc = pngio_info(im->data, im->len, &lim, &info, im->error, sizeof im->error);
	if (rc == PNGIO_OK) {
		*budget -= info.bytes;
		return 0;
	}
	return rc == PNGIO_E_TOO_LARGE ? IMGIN_TOO_LARGE : -1;
}
