/* normalizeImageData (see imgnorm.h): where the bytes come from, then
 * what they are. */
#include "config.h"
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sodium.h>
#include "conf/conf.h"
#include "media/fetch.h"
#include "media/imgin.h"
#include "media/imgnorm.h"
#include "media/svgcheck.h"
#include "store/store.h"
#include "util/log.h"
#include "util/safename.h"
#include "util/pngio.h"
#include "util/xmalloc.h"

void imgnorm_free(struct imgnorm *out)
{
	if (out == NULL)
		return;
	free(out->data);
	out->data = NULL;
	out->len = 0;
}

static int imgnorm_fail(struct imgnorm *out, char *err, size_t errlen, const char *msg)
{
	imgnorm_free(out);
	snprintf(err, errlen, "%s", msg);
	return -1;
}

const char *imgnorm_sniff(const unsigned char *p, size_t n)
{
	const char *m = imgin_sniff(p, n);

	return m && strcmp(m, "image/svg+xml") != 0 ? m : NULL;
}

/* Strict base64 into out (standard alphabet, padding optional,
 * whitespace allowed, nothing after it). */
static int imgnorm_base64(const char *b, size_t n, size_t max, struct imgnorm *out, char *err,
			  size_t errlen)
{
	size_t cap = n / 4 * 3 + 3, got = 0;
	const char *end = NULL;

	if (n / 2 > max / 3 * 4 + 64)
		return imgnorm_fail(out, err, errlen, "the attachment is larger than allowed");
	out->data = xmalloc(cap);
	if (sodium_base642bin(out->data, cap, b, n, " \t\r\n", &got, &end,
			      sodium_base64_VARIANT_ORIGINAL) != 0 || (end && (size_t)(end - b) != n)) {
		end = NULL;
		if (sodium_base642bin(out->data, cap, b, n, " \t\r\n", &got, &end,
				      sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0 ||
		    (end && (size_t)(end - b) != n))
			return imgnorm_fail(out, err, errlen, "the attachment's data is not valid base64");
	}
	out->len = got;
	if (got == 0)
		return imgnorm_fail(out, err, errlen, "the attachment's data is empty");
	if (got > max)
		return imgnorm_fail(out, err, errlen, "the attachment is larger than allowed");
	return 0;
}

/* data: a data URL (its type into decl) or bare base64. */
static int imgnorm_from_data(const char *s, size_t max, char *decl, size_t decllen,
			     struct imgnorm *out, char *err, size_t errlen)
{
	if (strncasecmp(s, "data:", 5) == 0) {
		const char *comma = strchr(s, ',');

		if (comma == NULL || comma - s < 12 || strncasecmp(comma - 7, ";base64", 7) != 0)
			return imgnorm_fail(out, err, errlen,
					    "a data URL must be data:<type>;base64,<data>");
		imgin_canon_type(s + 5, decl, decllen);
		s = comma + 1;
	}
	return imgnorm_base64(s, strlen(s), max, out, err, errlen);
}

/* "api/assets/<id>" in a URL of this server, or NULL. */
static const char *imgnorm_asset_id(const char *s)
{
	const char *p = strstr(s, "/api/assets/");

	if (p)
		p += strlen("/api/assets/");
	else if (strncmp(s, "api/assets/", 11) == 0)
		p = s + 11;
	return p;
}

static int imgnorm_from_asset(struct imgnorm_from *from, const char *aid, struct imgnorm *out,
			      char *err, size_t errlen)
{
	char id[STORE_ASSET_ID_LEN + 1], *ctype = NULL;
	void *data = NULL;
	int rc;

	if (strlen(aid) < STORE_ASSET_ID_LEN ||
	    (aid[STORE_ASSET_ID_LEN] != '\0' && aid[STORE_ASSET_ID_LEN] != '?'))
		return imgnorm_fail(out, err, errlen, "the URL does not name a stored file");
	snprintf(id, sizeof id, "%.*s", STORE_ASSET_ID_LEN, aid);
	if (from->asset_ours == NULL || !from->asset_ours(from->ctx, id))
		return imgnorm_fail(out, err, errlen,
				    "the stored file belongs to another conversation; attach the file itself");
	rc = from->store ? store_asset_get(from->store, id, &ctype, &data, &out->len)
			 : STORE_UNAVAILABLE;
	free(ctype);
	if (rc == STORE_NOTFOUND)
		return imgnorm_fail(out, err, errlen, "no stored file with that URL");
	if (rc) {
		log_error("reading asset %s: %s", id, store_strerror(rc));
		from->store_rc = rc;
		return imgnorm_fail(out, err, errlen, "the stored file cannot be read");
	}
	out->data = data;
	return 0;
}

static int imgnorm_from_fetch(struct imgnorm_from *from, const char *url, struct imgnorm *out,
			      char *err, size_t errlen)
{
	struct fetch_result fr;

	if (fetch_image(from->conf, url, &fr) < 0) {
		snprintf(err, errlen, "%s", fr.error);
		fetch_result_free(&fr);
		return -1;
	}
	out->data = fr.data;
	out->len = fr.len;
	return 0;
}

/* A path among the caller's files (the orchestrate workspace's). */
static int imgnorm_from_path(struct imgnorm_from *from, const char *path, struct imgnorm *out,
			     char *err, size_t errlen)
{
	void *data = NULL;
	int rc = from->path_get ? from->path_get(from->ctx, path, &data, &out->len)
				: IMGNORM_NOT_A_PATH;

	if (rc == IMGNORM_NOT_A_PATH)
		return imgnorm_fail(out, err, errlen,
				    "the URL is neither a data URL, an http(s) URL, nor a workspace path");
	if (rc != 0)
		return imgnorm_fail(out, err, errlen, "no file at that path in the workspace");
	out->data = data;
	return 0;
}

/* The bytes of att, from whichever form it has; decl gets the data URL's
 * type when there is one. */
static int imgnorm_bytes(struct imgnorm_from *from, const json_t *att, char *decl,
			 size_t decllen, struct imgnorm *out, char *err, size_t errlen)
{
	const char *data = json_string_value(json_object_get(att, "data"));
	const char *url = json_string_value(json_object_get(att, "url"));
	const char *path = json_string_value(json_object_get(att, "path"));
	size_t max = (size_t)from->conf->max_body_bytes;
	const char *aid;

	if (data && *data)
		return imgnorm_from_data(data, max, decl, decllen, out, err, errlen);
	if (path && *path)
		return imgnorm_from_path(from, path, out, err, errlen);
	if (url == NULL || *url == '\0')
		return imgnorm_fail(out, err, errlen, "the attachment has neither data nor a URL");
	if ((aid = imgnorm_asset_id(url)) != NULL)
		return imgnorm_from_asset(from, aid, out, err, errlen);
	if (strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0)
		return imgnorm_from_fetch(from, url, out, err, errlen);
	if (strncasecmp(url, "data:", 5) == 0)
		return imgnorm_from_data(url, max, decl, decllen, out, err, errlen);
	return imgnorm_from_path(from, url, out, err, errlen);
}

/* UTF-8 text without NUL (jansson's check). */
static int imgnorm_is_text(const unsigned char *p, size_t n)
{
	json_t *s;

	if (memchr(p, 0, n) != NULL)
		return 0;
	s = json_stringn((const char *)p, n);
	json_decref(s);
	return s != NULL;
}

/* A file that is not a picture (IMGNORM_ANY_FILE). */
static int imgnorm_other(struct imgnorm *out, const char *decl, const char *sniff, char *err,
			 size_t errlen)
{
	char msg[160];

	if (sniff) {  /* an SVG picture */
		if (*decl && strcmp(decl, sniff) != 0) {
			snprintf(msg, sizeof msg, "the attachment is declared as %s but is an SVG picture",
				 decl);
			return imgnorm_fail(out, err, errlen, msg);
		}
		snprintf(out->mime, sizeof out->mime, "%s", sniff);
		return 0;
	}
	if (strncmp(decl, "image/", 6) == 0) {
		snprintf(msg, sizeof msg, "the attachment is declared as %s but is not a picture", decl);
		return imgnorm_fail(out, err, errlen, msg);
	}
	if (imgnorm_is_text(out->data, out->len)) {
		snprintf(out->mime, sizeof out->mime, "%s",
			 *decl && strlen(decl) < sizeof out->mime ? decl : "text/plain");
		return 0;
	}
	if (strncmp(decl, "text/", 5) == 0) {
		snprintf(msg, sizeof msg, "the attachment is declared as %s but is not UTF-8 text", decl);
		return imgnorm_fail(out, err, errlen, msg);
	}
	snprintf(out->mime, sizeof out->mime, "application/octet-stream");
	return 0;
}

/* A PNG's chunks, as pngio reads them (lengths, CRCs, IEND, the header);
 * its size is the reader's business (OCR has its own limits). */
static int imgnorm_png(struct imgnorm *out, char *err, size_t errlen)
{
	static const struct pngio_limits any = { 0, LLONG_MAX };
	struct pngio_info info;
	char why[256];

	if (strcmp(out->mime, "image/png") != 0 ||
	    pngio_info(out->data, out->len, &any, &info, why, sizeof why) == PNGIO_OK)
		return 0;
	return imgnorm_fail(out, err, errlen, why);
}

/* What the bytes are, against what was declared. */
static int imgnorm_type(struct imgnorm *out, const char *decl, int flags, char *err, size_t errlen)
{
	const char *img = imgnorm_sniff(out->data, out->len);
	const char *any = imgin_sniff(out->data, out->len);
	char msg[160];

	if (img) {
		if (*decl && strcmp(decl, img) != 0) {
			snprintf(msg, sizeof msg, "the attachment is declared as %s but its bytes are %s",
				 decl, img);
			return imgnorm_fail(out, err, errlen, msg);
		}
		snprintf(out->mime, sizeof out->mime, "%s", img);
		return imgnorm_png(out, err, errlen);
	}
	if (flags & IMGNORM_ANY_FILE)
		return imgnorm_other(out, decl, any, err, errlen);
	return imgnorm_fail(out, err, errlen, any ? "an SVG picture is not accepted here: "
			    "attach a PNG, JPEG, GIF or WebP picture"
			    : "the attachment is not a picture (PNG, JPEG, GIF or WebP)");
}

static const char *imgnorm_ext(const char *mime)
{
	static const char *const map[][2] = {
		{ "image/png", "png" }, { "image/jpeg", "jpg" }, { "image/gif", "gif" },
		{ "image/webp", "webp" }, { "image/svg+xml", "svg" }, { "text/plain", "txt" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i][0], mime) == 0)
			return map[i][1];
	return strncmp(mime, "text/", 5) == 0 ? "txt" : "bin";
}

/* The name as one safe path segment, or one made from the content. */
static void imgnorm_name(struct imgnorm *out, const char *name)
{
	unsigned char h[4];
	size_t n = 0;

	if (name) {
		for (; name[n] && n + 1 < sizeof out->name; n++) {
			unsigned char ch = (unsigned char)name[n];

			out->name[n] = ch < 0x20 || ch == 0x7f || ch == '/' || ch == '\\' ? '_' : (char)ch;
		}
		/* Cut on a character boundary. */
		while (n > 0 && name[n] && ((unsigned char)name[n] & 0xc0) == 0x80)
			n--;
		out->name[n] = '\0';
		safename_strip(out->name);
	}
	if (out->name[0] == '\0' || strcmp(out->name, ".") == 0 || strcmp(out->name, "..") == 0) {
		crypto_generichash(h, sizeof h, out->data, out->len, NULL, 0);
		snprintf(out->name, sizeof out->name, "%s-%02x%02x%02x%02x.%s",
			 strncmp(out->mime, "image/", 6) == 0 ? "image" : "file", h[0], h[1], h[2], h[3],
			 imgnorm_ext(out->mime));
	}
}

/* An SVG picture against [media] svg_* (svgcheck.h). */
static int imgnorm_svg(struct imgnorm_from *from, struct imgnorm *out, char *err, size_t errlen)
{
	struct svgcheck_limits lim;
	int rc;

	if (strcmp(out->mime, "image/svg+xml") != 0)
		return 0;
	svgcheck_limits_conf(from->conf, &lim);
	rc = svgcheck(&lim, out->data, out->len, err, errlen);
	if (rc == SVGCHECK_OK)
		return 0;
	from->too_large = rc == SVGCHECK_TOO_LARGE;
	imgnorm_free(out);
	return -1;
}

int imgnorm_attachment_flags(struct imgnorm_from *from, const json_t *att, int flags,
			     struct imgnorm *out, char *err, size_t errlen)
{
	char decl[64] = "", given[64];

	memset(out, 0, sizeof *out);
	if (!json_is_object(att))
		return imgnorm_fail(out, err, errlen, "an attachment must be an object");
	if (imgnorm_bytes(from, att, decl, sizeof decl, out, err, errlen) < 0)
		return -1;
	imgin_canon_type(json_string_value(json_object_get(att, "mimeType")), given, sizeof given);
	if (*given && *decl && strcmp(given, decl) != 0)
		return imgnorm_fail(out, err, errlen,
				    "the attachment's mimeType and its data URL name different types");
	if (imgnorm_type(out, *decl ? decl : given, flags, err, errlen) < 0)
		return -1;
	if (imgnorm_svg(from, out, err, errlen) < 0)
		return -1;
	imgnorm_name(out, json_string_value(json_object_get(att, "name")));
	return 0;
}

int imgnorm_attachment(struct imgnorm_from *from, const json_t *att, struct imgnorm *out,
		       char *err, size_t errlen)
{
	return imgnorm_attachment_flags(from, att, IMGNORM_IMAGE, out, err, errlen);
}
