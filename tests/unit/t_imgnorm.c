/* normalizeImageData (imgnorm.c) as a table, media alone (no thread, no
 * files of a caller): data URLs and bare base64, each picture type
 * sniffed from its bytes, a declared type that disagrees, bad base64,
 * non-images where an image is required and the other files allowed
 * without that, a PNG whose chunks lie or that ends before IEND refused,
 * and a path or an asset URL refused when the caller reads none; then,
 * through the orchestrate workspace (orch_ws_attachment), the forms read
 * from the store: a workspace path, this thread's asset URL in four
 * spellings, another thread's asset (refused), a loopback http URL
 * (refused by the fetcher's address rules); names made safe; picture
 * sizes read from headers (imgsize.c). */
#include "config.h"
#include <zlib.h>
#include "orchfix.h"
#include "media/imgnorm.h"
#include "media/imgsize.h"
#include "wf/orchestrate/orch_ws.h"

static const unsigned char jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0 };
static const unsigned char gif[] = "GIF89a\x01\x00\x01\x00\x00\x00\x00;";
static const unsigned char webp[] = "RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00";
static const char svg[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>";
static const char text[] = "hello 世界\n";
static const unsigned char binary[] = { 0, 1, 2, 3, 0xfe, 0xff };

/* Payloads named in the table: PNG JPEG GIF WEBP SVG TEXT BIN. */
struct payload {
	const char *key;
	const unsigned char *p;
	size_t n;
};

struct case_ {
	const char *name;
	const char *att;      /* JSON; "@KEY" in a string becomes that payload's base64 */
	int flags;
	const char *mime;     /* expected type, or NULL: refused */
	const char *err;      /* a phrase the error holds */
};

static const struct case_ cases[] = {
	{ "data URL", "{\"data\": \"data:image/png;base64,@PNG\"}", 0, "image/png", NULL },
	{ "bare base64", "{\"data\": \"@PNG\"}", 0, "image/png", NULL },
	{ "bare base64 with its declared type", "{\"data\": \"@PNG\", \"mimeType\": \"image/png\"}", 0,
	  "image/png", NULL },
	{ "JPEG sniffed", "{\"data\": \"@JPEG\"}", 0, "image/jpeg", NULL },
	{ "image/jpg is image/jpeg", "{\"data\": \"@JPEG\", \"mimeType\": \"image/jpg\"}", 0,
	  "image/jpeg", NULL },
	{ "GIF sniffed", "{\"data\": \"data:image/gif;base64,@GIF\"}", 0, "image/gif", NULL },
	{ "WebP sniffed", "{\"data\": \"@WEBP\"}", 0, "image/webp", NULL },
	{ "octet-stream claims nothing", "{\"data\": \"@PNG\", \"mimeType\": \"application/octet-stream\"}",
	  0, "image/png", NULL },
	{ "data URL declaring JPEG over PNG bytes", "{\"data\": \"data:image/jpeg;base64,@PNG\"}", 0,
	  NULL, "declared as image/jpeg" },
	{ "mimeType declaring GIF over PNG bytes", "{\"data\": \"@PNG\", \"mimeType\": \"image/gif\"}", 0,
	  NULL, "declared as image/gif" },
	{ "mimeType and data URL disagree",
	  "{\"data\": \"data:image/png;base64,@PNG\", \"mimeType\": \"image/webp\"}", 0, NULL,
	  "different types" },
	{ "bad base64", "{\"data\": \"!!!not base64!!!\"}", 0, NULL, "not valid base64" },
	{ "base64 then junk", "{\"data\": \"@PNG$$\"}", 0, NULL, "not valid base64" },
	{ "data URL without base64", "{\"data\": \"data:image/png,abcd\"}", 0, NULL,
	  "data:<type>;base64" },
	{ "no data, no URL", "{\"data\": \"\"}", 0, NULL, "neither data nor a URL" },
	{ "not an object", "[\"@PNG\"]", 0, NULL, "must be an object" },
	{ "text where a picture is required", "{\"data\": \"@TEXT\"}", 0, NULL, "not a picture" },
	{ "SVG where a picture is required", "{\"data\": \"@SVG\"}", 0, NULL, "SVG" },
	{ "binary where a picture is required", "{\"data\": \"@BIN\"}", 0, NULL, "not a picture" },
	{ "text as any file", "{\"data\": \"@TEXT\"}", IMGNORM_ANY_FILE, "text/plain", NULL },
	{ "text with its declared type", "{\"data\": \"@TEXT\", \"mimeType\": \"text/markdown\"}",
	  IMGNORM_ANY_FILE, "text/markdown", NULL },
	{ "binary as any file", "{\"data\": \"@BIN\"}", IMGNORM_ANY_FILE, "application/octet-stream",
	  NULL },
	{ "SVG as any file", "{\"data\": \"@SVG\"}", IMGNORM_ANY_FILE, "image/svg+xml", NULL },
	{ "picture as any file", "{\"data\": \"@PNG\"}", IMGNORM_ANY_FILE, "image/png", NULL },
	{ "binary declared as text", "{\"data\": \"@BIN\", \"mimeType\": \"text/plain\"}",
	  IMGNORM_ANY_FILE, NULL, "not UTF-8 text" },
	{ "text declared as a picture", "{\"data\": \"@TEXT\", \"mimeType\": \"image/png\"}",
	  IMGNORM_ANY_FILE, NULL, "declared as image/png but is not a picture" },
	{ "a PNG whose tEXt declares 2 GB in 44 bytes", "{\"data\": \"@LIE\"}", IMGNORM_ANY_FILE,
	  NULL, "declares 2147483647 bytes" },
	{ "a PNG cut before IEND", "{\"data\": \"@CUT\"}", IMGNORM_ANY_FILE, NULL, "IEND" },
	{ "a path, with no files to read it from", "{\"path\": \"in/a.png\"}", 0, NULL,
	  "nor a workspace path" },
	{ "an asset URL, with no thread whose assets it may read",
	  "{\"url\": \"api/assets/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}", 0,
	  NULL, "another conversation" },
};

/* The 44-byte PNG: 1x1 RGB, then a tEXt chunk that declares 2^31-1 bytes
 * and brings 3. */
static void lie_png(unsigned char out[44])
{
	static const unsigned char head[] = "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\1\0\0\0\1\x08\x02\0\0\0";
	uLong crc = crc32(0, head + 12, 17);

	memcpy(out, head, 29);
	out[29] = (unsigned char)(crc >> 24), out[30] = (unsigned char)(crc >> 16);
	out[31] = (unsigned char)(crc >> 8), out[32] = (unsigned char)crc;
	memcpy(out + 33, "\x7f\xff\xff\xfftEXtab", 11);
}

/* The attachment JSON with each @KEY replaced by its payload's base64. */
static json_t *expand(const char *tmpl, const struct payload *pl, size_t npl)
{
	char out[65536];
	size_t o = 0;

	for (const char *s = tmpl; *s && o + 1 < sizeof out;) {
		size_t k = 0;

		if (*s == '@')
			while (k < npl && strncmp(s + 1, pl[k].key, strlen(pl[k].key)) != 0)
				k++;
		if (*s != '@' || k == npl) {
			out[o++] = *s++;
			continue;
		}
		sodium_bin2base64(out + o, sizeof out - o, pl[k].p, pl[k].n,
				  sodium_base64_VARIANT_ORIGINAL);
		o += strlen(out + o);
		s += 1 + strlen(pl[k].key);
	}
	out[o] = '\0';
	return json_loads(out, 0, NULL);
}

static void test_table(struct ofx *f, const struct payload *pl, size_t npl)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct case_ *t = &cases[i];
		json_t *att = expand(t->att, pl, npl);
		struct imgnorm_from alone = { .conf = &f->app.conf };
		struct imgnorm im;
		char err[256] = "";
		int rc = imgnorm_attachment_flags(&alone, att, t->flags, &im, err, sizeof err);

		if (t->mime) {
			ok(rc == 0 && strcmp(im.mime, t->mime) == 0, "%s: %s (%s)", t->name, t->mime,
			   rc == 0 ? im.mime : err);
		} else {
			ok(rc == -1 && strstr(err, t->err) != NULL && im.data == NULL,
			   "%s: refused, \"%s\" (%s)", t->name, t->err, err);
		}
		imgnorm_free(&im);
		json_decref(att);
	}
}

/* One attachment (JSON text) read: its type, or "" with err. */
static const char *norm(struct ofx *f, const char *json, char *err, size_t errlen,
			struct imgnorm *im)
{
	json_t *att = json_loads(json, 0, NULL);
	int rc = orch_ws_attachment(&f->c, att, IMGNORM_IMAGE, im, err, errlen);

	json_decref(att);
	return rc == 0 ? im->mime : "";
}

static void test_sources(struct ofx *f, const unsigned char *png, size_t pnglen)
{
	char err[256] = "", id[STORE_ASSET_ID_LEN + 1], other[STORE_ASSET_ID_LEN + 1], js[512];
	struct imgnorm im;

	is_int(orch_ws_put(&f->c, "in/a.png", "image/png", png, pnglen, NULL, err, sizeof err), 0,
	       "a picture in the workspace");
	is_str(norm(f, "{\"url\": \"in/a.png\"}", err, sizeof err, &im), "image/png",
	       "url: a workspace path");
	ok(im.len == pnglen && memcmp(im.data, png, pnglen) == 0, "the same bytes");
	ok(strncmp(im.name, "image-", 6) == 0, "no name: one from the content (%s)", im.name);
	imgnorm_free(&im);
	is_str(norm(f, "{\"path\": \"in/a.png\", \"name\": \"shot.png\"}", err, sizeof err, &im),
	       "image/png", "path: a workspace path");
	is_str(im.name, "shot.png", "its name");
	imgnorm_free(&im);
	is_str(norm(f, "{\"path\": \"../in/a.png\"}", err, sizeof err, &im), "", "path with ..");
	is_str(norm(f, "{\"url\": \"in/none.png\"}", err, sizeof err, &im), "", "a missing file");
	ok(strstr(err, "no file") != NULL, "says no file (%s)", err);

	if (step_asset_put(&f->c, "image/png", png, pnglen, id, sizeof id) < 0)
		tap_bail("step_asset_put");
	const char *forms[] = { "api/assets/%s", "/api/assets/%s", "https://example.com/api/assets/%s",
				"http://192.0.2.1/x/api/assets/%s?format=png" };
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char url[256];

		snprintf(url, sizeof url, forms[i], id);
		snprintf(js, sizeof js, "{\"url\": \"%s\"}", url);
		is_str(norm(f, js, err, sizeof err, &im), "image/png", "our asset URL %s, from the store",
		       forms[i]);
		imgnorm_free(&im);
	}
	snprintf(js, sizeof js, "{\"url\": \"api/assets/%.*sA\"}", STORE_ASSET_ID_LEN - 1, id);
	if (id[STORE_ASSET_ID_LEN - 1] == 'A')
		js[strlen(js) - 3] = 'B';
	is_str(norm(f, js, err, sizeof err, &im), "", "an asset URL of this thread that names nothing");

	json_t *keep = json_deep_copy(f->c.state);
	uint8_t tid[STORE_TID];
	memcpy(tid, f->run.tid, sizeof tid);
	ofx_thread(f);
	if (step_asset_put(&f->c, "image/png", png, pnglen, other, sizeof other) < 0)
		tap_bail("step_asset_put");
	memcpy(f->run.tid, tid, sizeof tid);
	json_decref(f->c.state);
	f->c.state = keep;
	snprintf(js, sizeof js, "{\"url\": \"/api/assets/%s\"}", other);
	is_str(norm(f, js, err, sizeof err, &im), "", "another thread's asset is refused");
	ok(strstr(err, "another conversation") != NULL, "and says why (%s)", err);

	is_str(norm(f, "{\"url\": \"http://127.0.0.1:9/a.png\"}", err, sizeof err, &im), "",
	       "a loopback URL is refused by the fetcher");
	ok(*err != '\0', "with a reason (%s)", err);
	f->app.conf.max_body_bytes = 10;
	sodium_bin2base64(js, sizeof js, png, pnglen < 300 ? pnglen : 300,
			  sodium_base64_VARIANT_ORIGINAL);
	json_t *att = json_pack("{s:s}", "data", js);
	ok(orch_ws_attachment(&f->c, att, IMGNORM_IMAGE, &im, err, sizeof err) == -1 &&
	   strstr(err, "larger"),
	   "past max_body_bytes (%s)", err);
	json_decref(att);
	f->app.conf.max_body_bytes = 16777216;
}

struct name_case {
	const char *given;    /* NULL: none */
	const char *want;     /* "image-": a name from the content */
};

static const struct name_case names[] = {
	{ "photo.png", "photo.png" },
	{ "../../etc/passwd", ".._.._etc_passwd" },
	{ "a\\b.png", "a_b.png" },
	{ "..", "image-" },
	{ ".", "image-" },
	{ "", "image-" },
	{ NULL, "image-" },
	{ "截图 1.png", "截图 1.png" },
};

static void test_names(struct ofx *f, const unsigned char *png, size_t pnglen)
{
	char b64[4096], err[256];

	sodium_bin2base64(b64, sizeof b64, png, pnglen, sodium_base64_VARIANT_ORIGINAL);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		json_t *att = json_pack("{s:s}", "data", b64);
		struct imgnorm im;

		if (names[i].given)
			json_object_set_new(att, "name", json_string(names[i].given));
		orch_ws_attachment(&f->c, att, IMGNORM_IMAGE, &im, err, sizeof err);
		ok(strncmp(im.name, names[i].want, strlen(names[i].want)) == 0 &&
		   orch_ws_path_ok(im.name) && !strchr(im.name, '/'),
		   "name %s -> %s (%s)", names[i].given ? names[i].given : "(none)", names[i].want,
		   im.name);
		if (strcmp(names[i].want, "image-") == 0)
			ok(strlen(im.name) == strlen("image-12345678.png") && strstr(im.name, ".png"),
			   "made from the content hash: %s", im.name);
		imgnorm_free(&im);
		json_decref(att);
	}
}

/* Picture sizes from headers (imgsize.c), one of each type. */
static const unsigned char jpeg_sof[] = { 0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1,
					  0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0, 0, 17, 8, 0, 100, 0, 200,
					  3, 1, 0x22, 0 };
static const unsigned char gif_size[] = { 'G', 'I', 'F', '8', '9', 'a', 0x2c, 0x01, 0x96, 0, 0, 0 };
static const unsigned char webp_x[] = { 'R', 'I', 'F', 'F', 30, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P',
					'8', 'X', 10, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0x02, 0, 0xdf, 0x01, 0 };

static void test_sizes(const unsigned char *png, size_t pnglen)
{
	const struct {
		const char *name;
		const unsigned char *p;
		size_t n;
		int w, h;   /* 0: unreadable */
	} t[] = {
		{ "PNG", png, pnglen, 4, 3 },
		{ "JPEG (SOF0 after APP0)", jpeg_sof, sizeof jpeg_sof, 200, 100 },
		{ "GIF", gif_size, sizeof gif_size, 300, 150 },
		{ "WebP (VP8X)", webp_x, sizeof webp_x, 640, 480 },
		{ "PNG cut short", png, 16, 0, 0 },
		{ "JPEG without a frame", jpeg, sizeof jpeg, 0, 0 },
		{ "text", (const unsigned char *)text, strlen(text), 0, 0 },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int w = -1, h = -1, rc = imgsize_read(t[i].p, t[i].n, &w, &h);

		ok(t[i].w ? rc == 0 && w == t[i].w && h == t[i].h : rc == -1,
		   "size of %s: %d x %d (got %d, %d x %d)", t[i].name, t[i].w, t[i].h, rc, w, h);
	}
}

int main(void)
{
	struct ofx f;
	size_t pnglen;
	unsigned char *png, lie[44];

	ofx_open(&f, "t_imgnorm");
	png = ofx_png(4, 3, 0xff0000, 1, 1, 1, 1, 0x00ff00, &pnglen);
	lie_png(lie);
	const struct payload pl[] = {
		{ "LIE", lie, sizeof lie }, { "CUT", png, pnglen - 12 },
		{ "PNG", png, pnglen }, { "JPEG", jpeg, sizeof jpeg }, { "GIF", gif, sizeof gif - 1 },
		{ "WEBP", webp, sizeof webp - 1 }, { "SVG", (const unsigned char *)svg, strlen(svg) },
		{ "TEXT", (const unsigned char *)text, strlen(text) },
		{ "BIN", binary, sizeof binary },
	};
	test_table(&f, pl, sizeof pl / sizeof pl[0]);
	test_sources(&f, png, pnglen);
	test_names(&f, png, pnglen);
	test_sizes(png, pnglen);
	free(png);
	ofx_close(&f);
	return tap_done();
}
