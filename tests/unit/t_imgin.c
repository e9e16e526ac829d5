/* Image input normalisation: data URLs and bare base64, strictly decoded,
 * sniffed, size-checked. */
#include "config.h"
#include <stdlib.h>
#include <sodium.h>
#include "tap.h"
#include "media/imgin.h"

static const unsigned char png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
				     'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0 };

struct case_ {
	const char *name;
	const char *input;   /* "PNG" is replaced by the PNG's base64 */
	const char *mime;    /* NULL: refused */
};

static const struct case_ cases[] = {
	{ "data URL", "data:image/png;base64,PNG", "image/png" },
	{ "data URL claiming JPEG: the bytes decide", "data:image/jpeg;base64,PNG", "image/png" },
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
	return tap_done();
}
