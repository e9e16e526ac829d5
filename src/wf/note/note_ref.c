/* Reference images (seed 001 §2, §7: referenceImageUrl, referenceImages,
 * referenceInputs) and reference_intelligence_agent. Pictures sent as
 * data URLs or base64 are stored as assets when the thread starts, so the
 * state holds their ids, not their bytes; stored assets (this thread's
 * only) and http(s) URLs are read by the agent (URLs under the [fetch]
 * rules). The analysis is what note_img.c can read without a vision
 * model, and says so. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "conf/conf.h"
#include "media/imgin.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/pngio.h"
#include "text/msg.h"
#include "wf/note/note.h"

#define NOTE_URL_MAX 2048

static int note_ref_type_ok(const char *t)
{
	return strcmp(t, "style") == 0 || strcmp(t, "layout") == 0 || strcmp(t, "content") == 0;
}

static int note_is_asset_ref(const char *s)
{
	size_t n = strlen(s);

	if (strstr(s, "/api/assets/") || strncmp(s, "api/assets/", 11) == 0)
		return 1;
	return n == STORE_ASSET_ID_LEN && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
						 "0123456789-_") == n;
}

/* One reference as the state keeps it: an asset URL or an http(s) URL.
 * New reference, or NULL with err. */
static json_t *note_ref_one(struct step_ctx *c, const char *s, const char *what, long long *budget,
			    char *err, size_t n)
{
	const struct conf *cf = step_conf(c);
	struct imgin im;
	char id[64], url[96];

	if (strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0 ||
	    note_is_asset_ref(s)) {
		if (imgin_asset_ref(s, id, sizeof id) && !step_asset_ours(c, id))
			return snprintf(err, n, "%s: the stored picture belongs to another conversation; "
					"send the picture itself", what), NULL;
		if (strlen(s) > NOTE_URL_MAX)
			return snprintf(err, n, "%s: the URL is longer than %d bytes", what, NOTE_URL_MAX),
			       NULL;
		return json_string(s);
	}
	if (imgin_decode(s, (size_t)cf->fetch_max_bytes, &im) < 0)
		return snprintf(err, n, "%s: %s (a data URL, base64, an asset id or an http(s) URL)",
				what, im.error), NULL;
	if (step_png_check(c, &im, cf->reference_max_side, budget, what, err, n) < 0) {
		imgin_free(&im);
		return NULL;
	}
	if (step_asset_put(c, im.mime, im.data, im.len, id, sizeof id) < 0) {
		imgin_free(&im);
		return snprintf(err, n, "%s: the image could not be stored", what), NULL;
	}
	imgin_free(&im);
	snprintf(url, sizeof url, "api/assets/%s", id);
	return json_string(url);
}

static int note_ref_add(struct step_ctx *c, const json_t *v, const char *what, json_t *inputs,
			long long *budget, char *err, size_t n)
{
	const char *s = json_string_value(v), *type = "style";
	json_t *url;

	if (json_is_object(v)) {
		s = json_string_value(json_object_get(v, "url"));
		type = json_string_value(json_object_get(v, "type")) ?: "style";
		if (!note_ref_type_ok(type))
			return snprintf(err, n, "%s.type must be style, layout or content", what), -1;
	}
	if (s == NULL || *s == '\0')
		return snprintf(err, n, "%s must be an image (text, or {url, type})", what), -1;
	if (json_array_size(inputs) >= NOTE_MAX_REFERENCES)
		return snprintf(err, n, "at most %d reference images", NOTE_MAX_REFERENCES), -1;
	if ((url = note_ref_one(c, s, what, budget, err, n)) == NULL)
		return -1;
	json_array_append_new(inputs, json_pack("{s:o, s:s, s:i}", "url", url, "type", type, "index",
						(int)json_array_size(inputs)));
	return 0;
}

int note_ref_inputs(struct step_ctx *c, const json_t *input, json_t *state, char *err, size_t errlen)
{
	json_t *one = json_object_get(input, "referenceImageUrl"), *list = json_object_get(input,
											 "referenceImages");
	json_t *inputs = json_object_get(state, "referenceInputs"), *v, *urls = json_array();
	char what[48];
	long long budget = step_conf(c)->reference_max_pixel_bytes;
	size_t i;

	if (list && !json_is_null(list) && !json_is_array(list))
		return json_decref(urls), snprintf(err, errlen, "referenceImages must be an array"), -1;
	if (one && !json_is_null(one)) {
		if (!json_is_string(one))
			return json_decref(urls), snprintf(err, errlen, "referenceImageUrl must be text"), -1;
		if (note_ref_add(c, one, "referenceImageUrl", inputs, &budget, err, errlen) < 0)
			return json_decref(urls), -1;
		json_object_set(state, "referenceImageUrl", json_object_get(json_array_get(inputs, 0), "url"));
	}
	json_array_foreach(list, i, v) {
		snprintf(what, sizeof what, "referenceImages[%zu]", i);
		if (note_ref_add(c, v, what, inputs, &budget, err, errlen) < 0)
			return json_decref(urls), -1;
		json_array_append(urls, json_object_get(json_array_get(inputs, json_array_size(inputs) - 1),
							"url"));
	}
	json_object_set_new(state, "referenceImages", urls);
	return 0;
}

/* ---- reference_intelligence_agent ---- */

static const char *note_ref_kind(const char *type)
{
	if (strcmp(type, "layout") == 0)
		return "layout_ref";
	if (strcmp(type, "content") == 0)
		return "content_ref";
	return "style_ref";
}

/* One reference's analysis (new reference), or NULL with why when its
 * PNG is over the limits: the step then fails. */
static json_t *note_ref_analyse(struct step_ctx *c, const json_t *in, long long *budget, char *why,
				size_t whylen)
{
	const struct conf *cf = step_conf(c);
	const char *url = json_string_value(json_object_get(in, "url")) ?: "";
	struct pngio_limits lim = { cf->reference_max_side, *budget };
	struct note_img_info info;
	struct imgin im;
	json_t *a;
	int rc = imgin_load(step_store(c), cf, url, (size_t)cf->fetch_max_bytes, &im);

	if (rc < 0 && im.store_rc)
		step_store_failed(c, im.store_rc);
	if (rc < 0)
		return json_pack("{s:O, s:s, s:s}", "index", json_object_get(in, "index"), "url", url,
				 "error", im.error);
	if (imgin_png_check(&im, cf->reference_max_side, budget) == IMGIN_TOO_LARGE) {
		snprintf(why, whylen, "reference image %lld: %s",
			 (long long)json_integer_value(json_object_get(in, "index")) + 1, im.error);
		imgin_free(&im);
		return NULL;
	}
	note_img_read(im.data, im.len, im.mime, &lim, &info);
	imgin_free(&im);
	a = note_img_analysis(&info);
	json_object_set(a, "index", json_object_get(in, "index"));
	json_object_set_new(a, "url", json_string(url));
	json_object_set_new(a, "type", json_string(note_ref_kind(json_string_value(json_object_get(in,
									"type")) ?: "style")));
	return a;
}

/* One line per reference for the message. */
static void note_ref_line(struct buf *b, const json_t *a)
{
	const json_t *st = json_object_get(a, "styleTokens"), *lt = json_object_get(a, "layoutTokens");
	size_t i;

	buf_printf(b, "参考图 %lld：", (long long)json_integer_value(json_object_get(a, "index")) + 1);
	if (json_object_get(a, "error")) {
		buf_printf(b, "读取失败（%s）\n", json_string_value(json_object_get(a, "error")));
		return;
	}
	buf_printf(b, "%s，%lld 字节", json_string_value(json_object_get(a, "mime")),
		   (long long)json_integer_value(json_object_get(a, "bytes")));
	if (json_is_integer(json_object_get(a, "width")))
		buf_printf(b, "，%lld×%lld（%s）", (long long)json_integer_value(json_object_get(a, "width")),
			   (long long)json_integer_value(json_object_get(a, "height")),
			   json_string_value(json_object_get(lt, "aspect")) ?: "?");
	for (i = 0; i < json_array_size(json_object_get(st, "colorPalette")); i++)
		buf_printf(b, "%s%s", i ? "、" : "，主色 ",
			   json_string_value(json_array_get(json_object_get(st, "colorPalette"), i)));
	if (json_is_string(json_object_get(st, "mood")))
		buf_printf(b, "，%s", json_string_value(json_object_get(st, "mood")));
	buf_adds(b, "\n");
}

enum node_rc note_reference(struct step_ctx *c)
{
	const json_t *inputs = json_object_get(c->state, "referenceInputs"), *in;
	json_t *out = json_array();
	long long budget = step_conf(c)->reference_max_pixel_bytes;
	char why[300];
	struct buf b;
	size_t i;

	buf_init(&b, 16384);
	json_array_foreach(inputs, i, in) {
		json_t *a;

		note_tick(c, "note.ref.reading", i + 1, json_array_size(inputs));
		a = note_ref_analyse(c, in, &budget, why, sizeof why);
		if (a == NULL) {
			json_decref(out);
			buf_free(&b);
			return note_abort(c, "image_too_large", why);
		}
		note_ref_line(&b, a);
		json_array_append_new(out, a);
		step_keepalive(c);
	}
	json_object_set_new(c->state, "referenceAnalyses", out);
	if (json_array_size(inputs) == 0)
		note_say(c, "note.ref.none");
	else
		note_say(c, "note.ref.done", b.data);
	buf_free(&b);
	note_set_flag(c->state, "referenceIntelligenceComplete", 1);
	return note_supervise(c, NULL);
}
