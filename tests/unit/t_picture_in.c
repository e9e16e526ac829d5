/* The pictures a request brings, through each workflow's input hook (chat
 * attachments, an image workflow's mask and base image, note references,
 * orchestrate attachments), as one table: a PNG whose chunk lies about
 * its length, a data URL or mimeType that names another type than the
 * bytes, an SVG where a vision model needs pixels, and another thread's
 * stored asset are refused with a reason, and nothing is stored for them;
 * the same thread's assets and honest pictures are taken. */
#include "config.h"
#include <zlib.h>
#include "orchfix.h"
#include "wf/chat/chat.h"
#include "wf/image/image.h"
#include "wf/note/note.h"
#include "wf/orchestrate/orch.h"

struct pic_case {
	const struct workflow *wf;
	const char *input;     /* JSON; @KEY in a string becomes that value (see pic_values) */
	const char *refused;   /* a phrase of the reason, or NULL: accepted */
};

static const struct pic_case cases[] = {
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"data\": \"@PNG\"}]}", NULL },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"data\": \"@PNG\", \"mimeType\": "
	  "\"image/png\"}]}", NULL },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"url\": \"@OWN\"}]}", NULL },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"data\": \"@LIE\"}]}",
	  "declares 2147483647 bytes" },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"data\": \"@JPEG_PNG\"}]}",
	  "declared as image/jpeg" },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"data\": \"@PNG\", \"mimeType\": "
	  "\"image/jpeg\"}]}", "declared as image/jpeg" },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"data\": \"@SVG\"}]}", "SVG" },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"url\": \"@OWN_SVG\"}]}", "SVG" },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"url\": \"@OTHER\"}]}",
	  "another conversation" },
	{ &wf_chat, "{\"text\": \"看图\", \"attachments\": [{\"url\": \"@OTHER_URL\"}]}",
	  "another conversation" },
	{ &wf_image, "{\"maskData\": {\"base64\": \"@PNG\", \"imageUrl\": \"@OWN\"}}", NULL },
	{ &wf_image, "{\"maskData\": {\"base64\": \"@LIE\", \"imageUrl\": \"@OWN\"}}",
	  "declares 2147483647 bytes" },
	{ &wf_image, "{\"maskData\": {\"base64\": \"@PNG\", \"imageUrl\": \"@LIE\"}}",
	  "declares 2147483647 bytes" },
	{ &wf_image, "{\"maskData\": {\"base64\": \"@JPEG_PNG\", \"imageUrl\": \"@OWN\"}}",
	  "declared as image/jpeg" },
	{ &wf_image, "{\"maskData\": {\"base64\": \"@PNG\", \"imageUrl\": \"@OTHER\"}}",
	  "another conversation" },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImageUrl\": \"@PNG\"}", NULL },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImages\": [\"@OWN\", {\"url\": \"@OWN_ID\"}]}",
	  NULL },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImageUrl\": \"@LIE\"}",
	  "declares 2147483647 bytes" },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImageUrl\": \"@JPEG_PNG\"}",
	  "declared as image/jpeg" },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImageUrl\": \"@OTHER\"}", "another conversation" },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImages\": [{\"url\": \"@OTHER_ID\"}]}",
	  "another conversation" },
	{ &wf_note, "{\"topic\": \"秋天\", \"referenceImages\": [\"@OTHER_URL\"]}",
	  "another conversation" },
	{ &wf_orchestrate, "{\"task\": \"读图\", \"attachments\": [{\"data\": \"@PNG\"}]}", NULL },
	{ &wf_orchestrate, "{\"task\": \"读图\", \"attachments\": [{\"data\": \"@LIE\"}]}",
	  "declares 2147483647 bytes" },
	{ &wf_orchestrate, "{\"task\": \"读图\", \"attachments\": [{\"data\": \"@JPEG_PNG\"}]}",
	  "declared as image/jpeg" },
	{ &wf_orchestrate, "{\"task\": \"读图\", \"attachments\": [{\"url\": \"@OTHER\"}]}",
	  "another conversation" },
};

/* The 44-byte PNG: 1x1 RGB, then a tEXt chunk that declares 2^31-1 bytes
 * and brings 3. */
static void pic_lie(unsigned char out[44])
{
	static const unsigned char head[] = "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\1\0\0\0\1\x08\x02\0\0\0";
	uLong crc = crc32(0, head + 12, 17);

	memcpy(out, head, 29);
	out[29] = (unsigned char)(crc >> 24), out[30] = (unsigned char)(crc >> 16);
	out[31] = (unsigned char)(crc >> 8), out[32] = (unsigned char)crc;
	memcpy(out + 33, "\x7f\xff\xff\xfftEXtab", 11);
}

static char *pic_data_url(const char *type, const unsigned char *p, size_t n)
{
	size_t b64n = sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL);
	char *b64 = xmalloc(b64n), *url;

	sodium_bin2base64(b64, b64n, p, n, sodium_base64_VARIANT_ORIGINAL);
	url = xasprintf("data:%s;base64,%s", type, b64);
	free(b64);
	return url;
}

struct pic_value {
	const char *key;
	char *value;
};

/* The input with each @KEY replaced (longest key first). New reference. */
static json_t *pic_input(const char *tmpl, const struct pic_value *v, size_t nv)
{
	struct buf b;
	json_t *j;

	buf_init(&b, 1 << 20);
	for (const char *s = tmpl; *s;) {
		size_t best = nv;

		for (size_t k = 0; *s == '@' && k < nv; k++)
			if (strncmp(s + 1, v[k].key, strlen(v[k].key)) == 0 &&
			    (best == nv || strlen(v[k].key) > strlen(v[best].key)))
				best = k;
		if (best == nv) {
			buf_add(&b, s++, 1);
			continue;
		}
		buf_adds(&b, v[best].value);
		s += 1 + strlen(v[best].key);
	}
	j = json_loads(b.data, 0, NULL);
	if (j == NULL)
		tap_bail("bad case JSON: %s", tmpl);
	buf_free(&b);
	return j;
}

static long long pic_assets(struct ofx *f)
{
	struct store_stats st;
	char err[256];

	if (store_stats(f->app.store, &st, err, sizeof err) < 0)
		tap_bail("store_stats: %s", err);
	return st.assets;
}

static void pic_run(struct ofx *f, const struct pic_value *v, size_t nv)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct pic_case *k = &cases[i];
		json_t *in = pic_input(k->input, v, nv), *st;
		char err[512] = "";
		long long before = pic_assets(f);

		f->c.err_code[0] = '\0';
		f->run.wf = k->wf;
		st = k->wf->init(&f->c, in, err, sizeof err);
		if (k->refused == NULL) {
			ok(st != NULL, "%s %s: taken (%s)", k->wf->name, k->input, st ? "ok" : err);
		} else {
			ok(st == NULL && strstr(err, k->refused) != NULL, "%s %s: refused, \"%s\" (%s)",
			   k->wf->name, k->input, k->refused, err);
			is_int(pic_assets(f) - before, 0, "  ... nothing stored");
		}
		json_decref(st);
		json_decref(in);
	}
}

int main(void)
{
	static const char svg[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>";
	struct ofx f;
	size_t pnglen;
	unsigned char *png, lie[44];
	char own[STORE_ASSET_ID_LEN + 1], own_svg[STORE_ASSET_ID_LEN + 1];
	char other[STORE_ASSET_ID_LEN + 1];
	uint8_t tid[STORE_TID];

	ofx_open(&f, "t_picture_in");
	f.app.conf.max_body_bytes = 1 << 20;
	png = ofx_png(4, 3, 0xff0000, 1, 1, 1, 1, 0x00ff00, &pnglen);
	pic_lie(lie);
	memcpy(tid, f.run.tid, sizeof tid);
	ofx_thread(&f);
	if (step_asset_put(&f.c, "image/png", png, pnglen, other, sizeof other) < 0)
		tap_bail("step_asset_put");
	memcpy(f.run.tid, tid, sizeof tid);
	if (step_asset_put(&f.c, "image/png", png, pnglen, own, sizeof own) < 0 ||
	    step_asset_put(&f.c, "image/svg+xml", svg, strlen(svg), own_svg, sizeof own_svg) < 0)
		tap_bail("step_asset_put");
	json_decref(f.c.state);
	f.c.state = NULL;   /* as an init hook gets it */
	const struct pic_value v[] = {
		{ "PNG", pic_data_url("image/png", png, pnglen) },
		{ "LIE", pic_data_url("image/png", lie, sizeof lie) },
		{ "JPEG_PNG", pic_data_url("image/jpeg", png, pnglen) },
		{ "SVG", pic_data_url("image/svg+xml", (const unsigned char *)svg, strlen(svg)) },
		{ "OWN", xasprintf("api/assets/%s", own) },
		{ "OWN_ID", xstrdup(own) },
		{ "OWN_SVG", xasprintf("/api/assets/%s", own_svg) },
		{ "OTHER", xasprintf("api/assets/%s", other) },
		{ "OTHER_ID", xstrdup(other) },
		{ "OTHER_URL", xasprintf("https://aivista.example/api/assets/%s", other) },
	};
	pic_run(&f, v, sizeof v / sizeof v[0]);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		free(v[i].value);
	free(png);
	ofx_close(&f);
	return tap_done();
}
