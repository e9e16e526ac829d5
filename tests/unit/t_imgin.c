/* Image input normalisation: data URLs and bare base64, strictly decoded,
 * sniffed, size-checked, of the type they declare; which strings name a
 * stored asset. */
#include "config.h"
#include <stdlib.h>
#include <sodium.h>
#include "tap.h"
#include "media/imgin.h"
#include "store/store.h"

static const unsigned char png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
				     'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0 };

struct case_ {
	const char *name;
	const char *input;   /* "PNG" is replaced by the PNG's base64 */
	const char *mime;    /* NULL: refused */
};

static const struct case_ cases[] = {
	{ "data URL", "data:image/png;base64,PNG", "image/png" },
	{ "data URL declaring JPEG over PNG bytes", "data:image/jpeg;base64,PNG", NULL },
	{ "data URL declaring GIF over PNG bytes", "data:image/gif;base64,PNG", NULL },
	{ "data URL type in capitals", "data:Image/Png;base64,PNG", "image/png" },
	{ "data URL image/jpg over JPEG bytes", "data:image/jpg;base64,/9j/4AAQSkZJRg==", "image/jpeg" },
	{ "data URL declaring PNG over an SVG", "data:image/png;base64,"
	  "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=", NULL },
	{ "bare base64", "PNG", "image/png" },
	{ "base64 with line breaks", "PNG\n", "image/png" },
	{ "data URL, not base64", "data:image/png,abcd", NULL },
	{ "data URL of text", "data:text/plain;base64,aGVsbG8=", NULL },
	{ "garbage base64", "!!!not base64!!!", NULL },
	{ "base64 of text", "aGVsbG8gd29ybGQ=", NULL },
	{ "empty", "", NULL },
	{ "base64 then junk", "PNG$$$", NULL },
	{ "SVG", "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
	  "image/svg+xml" },
	{ "GIF", "R0lGODlhAQABAAAAACw=", "image/gif" },
	{ "JPEG", "/9j/4AAQSkZJRg==", "image/jpeg" },
};

/* A declared type (mimeType) against the bytes' own. */
static const struct {
	const char *declared;
	int rc;
} types[] = {
	{ NULL, 0 }, { "", 0 }, { "image/png", 0 }, { "Image/PNG; charset=x", 0 },
	{ "application/octet-stream", 0 }, { "image/jpeg", -1 }, { "image/svg+xml", -1 },
	{ "text/plain", -1 },
};

static void test_types(const char *b64)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		struct imgin im;
		int rc = imgin_decode(b64, 1 << 20, &im);

		if (rc == 0)
			rc = imgin_type_check(&im, types[i].declared);
		is_int(rc, types[i].rc, "PNG bytes declared as %s: %s", types[i].declared ?
		       types[i].declared : "(nothing)", rc ? im.error : "accepted");
		imgin_free(&im);
	}
}

/* Which strings name a stored asset, and its id. */
static void test_asset_refs(void)
{
	static const char id[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	static const struct {
		const char *fmt;   /* %s: the id */
		int ref;
	} refs[] = {
		{ "%s", 1 }, { "api/assets/%s", 1 }, { "/api/assets/%s", 1 },
		{ "https://example.com/x/api/assets/%s?format=png", 1 },
		{ "https://example.com/a.png?%s", 0 }, { "data:image/png;base64,%s", 0 },
		{ "api/assets/short", 0 },
	};
	char s[256], got[64];

	if (strlen(id) != STORE_ASSET_ID_LEN)
		tap_bail("STORE_ASSET_ID_LEN is not %zu", strlen(id));
	for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
		snprintf(s, sizeof s, refs[i].fmt, id);
		got[0] = '\0';
		is_int(imgin_asset_ref(s, got, sizeof got), refs[i].ref, "%s names %s", refs[i].fmt,
		       refs[i].ref ? "an asset" : "no asset");
		if (refs[i].ref)
			is_str(got, id, "  ... its id");
	}
}

int main(void)
{
	char b64[256];

	if (sodium_init() < 0)
		return 99;
	sodium_bin2base64(b64, sizeof b64, png, sizeof png, sodium_base64_VARIANT_ORIGINAL);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char in[2048], *p;
		struct imgin im;
		int rc;

		snprintf(in, sizeof in, "%s", cases[i].input);
		if ((p = strstr(in, "PNG")) != NULL && strncmp(cases[i].input, "data:image/svg", 14)) {
			char rest[512];

			snprintf(rest, sizeof rest, "%s", p + 3);
			snprintf(p, sizeof in - (size_t)(p - in), "%s%s", b64, rest);
		}
		rc = imgin_decode(in, 1 << 20, &im);
		if (cases[i].mime) {
			is_int(rc, 0, "%s: accepted", cases[i].name);
			is_str(im.mime, cases[i].mime, "%s: type from the bytes", cases[i].name);
		} else {
			is_int(rc, -1, "%s: refused (%s)", cases[i].name, im.error);
			ok(im.data == NULL && im.error[0], "%s: no data, a reason", cases[i].name);
		}
		imgin_free(&im);
	}
	{
		struct imgin im;
		char in[512];

		snprintf(in, sizeof in, "data:image/png;base64,%s", b64);
		is_int(imgin_decode(in, 16, &im), -1, "over the size limit: refused");
		ok(strstr(im.error, "larger") != NULL, "and says so (%s)", im.error);
		imgin_free(&im);
		is_int(imgin_decode(in, sizeof png, &im), 0, "exactly at the limit: accepted");
		is_int(im.len, sizeof png, "the decoded length");
		ok(im.data && memcmp(im.data, png, sizeof png) == 0, "the decoded bytes");
		imgin_free(&im);
	}
	test_types(b64);
	test_asset_refs();
	return tap_done();
}
