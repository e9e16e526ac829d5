/* Picture turns (seed 004 §7.2, §7.3): the images a turn brings
 * (attachments: a data URL or base64 in data; this thread's asset URL or
 * an http(s) URL, fetched under [fetch]'s rules, in url; a PNG, JPEG, GIF
 * or WebP picture of the type it declares) are kept as assets of the
 * thread; "描述一下刚才生成的图片" brings the thread's last generated
 * picture. The vision node has [provider.vision] describe them (OpenAI-
 * compatible image_url parts); offline, the image reader (type, size,
 * colours) stands in and its "vision" rules (chat_rules.c) say what it
 * found and that it cannot see more. If the question also
 * asks for live facts, the search runs too; the chat model then answers
 * with both. */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "conf/conf.h"
#include "media/imgin.h"
#include "prov/prov.h"
#include "util/clock.h"
#include "util/pngio.h"
#include "util/safename.h"
#include "util/xmalloc.h"
#include "wf/chat/chat_common.h"
#include "wf/chat/chat_rules.h"
#include "wf/note/note.h"

#define CHAT_ATTACH_MAX 4
#define CHAT_VISION_TIMEOUT_MS 60000

/* The longest attachment name kept (bytes), as the orchestrate workspace's. */
#define CHAT_NAME_MAX 255

static const char chat_vision_system[] =
	"你是视觉助手。请用用户的语言客观描述图片：主体、场景、文字、颜色和构图；不要编造看不清的细节。";

/* The picture an attachment brings, checked: its bytes of the type it
 * declares (the data URL's, and mimeType), a PNG's chunks and size within
 * the limits, a stored one this thread's own, no SVG (a vision model
 * reads pixels). 0, or -1 with err. */
static int chat_attach_load(struct step_ctx *c, const json_t *a, const char *what,
			    long long *budget, struct imgin *im, char *err, size_t n)
{
	const struct conf *cf = step_conf(c);
	const char *data = json_string_value(json_object_get(a, "data"));
	const char *url = json_string_value(json_object_get(a, "url"));
	char id[64];
	int rc;

	memset(im, 0, sizeof *im);
	if (!json_is_object(a) || (data == NULL) == (url == NULL))
		return snprintf(err, n, "%s: give data (a data URL or base64) or url", what), -1;
	if (url && imgin_asset_ref(url, id, sizeof id) && !step_asset_ours(c, id))
		return snprintf(err, n, "%s: the stored picture belongs to another conversation; "
				"attach the picture itself", what), -1;
	rc = data ? imgin_decode(data, (size_t)cf->max_body_bytes, im)
		  : imgin_load(step_store(c), cf, url, (size_t)cf->fetch_max_bytes, im);
	if (rc == 0)
		rc = imgin_type_check(im, json_string_value(json_object_get(a, "mimeType")));
	if (rc < 0) {
		if (im->store_rc)
			step_store_failed(c, im->store_rc);
		return snprintf(err, n, "%s: %s", what, im->error), -1;
	}
	if (strcmp(im->mime, "image/svg+xml") == 0) {
		imgin_free(im);
		return snprintf(err, n, "%s: an SVG picture is not accepted here: attach a PNG, JPEG, "
				"GIF or WebP picture", what), -1;
	}
	if (step_png_check(c, im, cf->reference_max_side, budget, what, err, n) < 0) {
		imgin_free(im);
		return -1;
	}
	return 0;
}

/* One attachment as an asset of the thread: {assetId, mime, name}. */
static json_t *chat_attach_one(struct step_ctx *c, const json_t *a, size_t i, long long *budget,
			       char *err, size_t n)
{
	const char *name = json_string_value(json_object_get(a, "name"));
	char what[48], id[64];
	struct imgin im;
	json_t *out = NULL;

	snprintf(what, sizeof what, "attachments[%zu]", i);
	if (chat_attach_load(c, a, what, budget, &im, err, n) < 0)
		return NULL;
	if (im.asset[0])
		snprintf(id, sizeof id, "%s", im.asset);
	if (im.asset[0] || step_asset_put(c, im.mime, im.data, im.len, id, sizeof id) == 0)
		out = json_pack("{s:s, s:s, s:o}", "assetId", id, "mime", im.mime, "name",
				safename_json(name, CHAT_NAME_MAX));
	else
		snprintf(err, n, "%s could not be stored", what);
	imgin_free(&im);
	return out;
}

int chat_attachments_in(struct step_ctx *c, json_t *user, const json_t *att, char *err, size_t n)
{
	long long budget = step_conf(c)->reference_max_pixel_bytes;
	json_t *images = json_array(), *a, *one;
	size_t i;

	if (!json_is_array(att) || json_array_size(att) > CHAT_ATTACH_MAX) {
		json_decref(images);
		return snprintf(err, n, "attachments must be an array of at most %d images",
				CHAT_ATTACH_MAX), -1;
	}
	json_array_foreach(att, i, a) {
		if ((one = chat_attach_one(c, a, i, &budget, err, n)) == NULL) {
			json_decref(images);
			return -1;
		}
		json_array_append_new(images, one);
	}
	json_object_set_new(user, "images", images);
	return 0;
}

/* Does text ask about the picture made just before ("描述一下刚才生成的图片",
 * "what is in the last picture")? */
int chat_refers_last_image(const char *text)
{
	static const char *const when[] = { "刚才", "刚刚", "上一张", "上张", "刚生成", "之前生成",
					    "last", "previous", "just made", "you made", "you generated",
					    "you drew", "just generated" };
	static const char *const what[] = { "图", "画", "照片", "image", "picture", "drawing", "photo" };
	static const char *const ask[] = { "描述", "看看", "说说", "讲讲", "是什么", "有什么", "介绍",
					   "分析", "describe", "what is in", "what's in", "tell me about",
					   "explain" };
	char low[CHAT_TEXT_MAX + 1];
	size_t i;
	int w = 0, x = 0, y = 0;

	snprintf(low, sizeof low, "%s", text ? text : "");
	for (i = 0; low[i]; i++)
		low[i] = (char)tolower((unsigned char)low[i]);
	for (i = 0; i < sizeof when / sizeof when[0]; i++)
		w |= strstr(low, when[i]) != NULL;
	for (i = 0; i < sizeof what / sizeof what[0]; i++)
		x |= strstr(low, what[i]) != NULL;
	for (i = 0; i < sizeof ask / sizeof ask[0]; i++)
		y |= strstr(low, ask[i]) != NULL;
	return w && x && y;
}

/* The image parts of the vision call and the reader's facts of each. */
static int chat_vision_parts(struct step_ctx *c, json_t *parts, json_t *facts)
{
	const struct conf *cf = step_conf(c);
	struct pngio_limits lim = { cf->reference_max_side, cf->reference_max_pixel_bytes };
	const json_t *images = json_object_get(json_object_get(c->state, "userInput"), "images"), *im;
	size_t i;
	int n = 0;

	json_array_foreach(images, i, im) {
		struct imgin in;
		struct note_img_info info;
		const char *id = json_string_value(json_object_get(im, "assetId"));

		if (imgin_load(step_store(c), cf, id ? id : "", (size_t)cf->max_asset_bytes, &in) < 0) {
			if (in.store_rc)
				step_store_failed(c, in.store_rc);
			step_thought(c, "chat.vision.unreadable", (int)i + 1, in.error);
			continue;
		}
		note_img_read(in.data, in.len, in.mime, &lim, &info);
		json_array_append_new(facts, note_img_analysis(&info));
		{
			size_t b64n = sodium_base64_encoded_len(in.len, sodium_base64_VARIANT_ORIGINAL);
			char *b64 = xmalloc(b64n);
			char *url;

			sodium_bin2base64(b64, b64n, in.data, in.len, sodium_base64_VARIANT_ORIGINAL);
			url = xasprintf("data:%s;base64,%s", in.mime, b64);
			json_array_append_new(parts, json_pack("{s:s, s:{s:s}}", "type", "image_url",
							       "image_url", "url", url));
			free(url);
			free(b64);
		}
		imgin_free(&in);
		n++;
	}
	return n;
}

/* The description: the rules' JSON member, else the model's words. */
static char *chat_vision_ask(struct step_ctx *c, json_t *parts, json_t *facts)
{
	json_t *msgs = json_pack("[{s:s, s:s}, {s:s, s:O}]", "role", "system", "content",
				 chat_vision_system, "role", "user", "content", parts);
	struct chat_call call = { .task = "vision", .rules = chat_rules_vision, .messages = msgs,
				  .facts = facts, .temperature = 0.2,
				  .timeout_ms = CHAT_VISION_TIMEOUT_MS };
	struct prov_hooks h;
	struct prov_answer a;
	const char *d;
	char *out = NULL;

	step_hooks(c, &h);
	h.delta = NULL;
	if (call.timeout_ms > step_time_left(c))
		call.timeout_ms = step_time_left(c);
	prov_vision(step_prov(c), &call, &h, &a);
	d = json_string_value(json_object_get(a.json, "description"));
	if (a.status == PROV_OK && (d || (a.text && *a.text)))
		out = xstrdup(d ? d : a.text);
	else
		step_thought(c, "chat.vision.failed", prov_status_name(a.status));
	prov_answer_free(&a);
	json_decref(msgs);
	return out;
}

enum node_rc chat_vision(struct step_ctx *c)
{
	const char *text = chat_text(c->state);
	json_t *parts = json_pack("[{s:s, s:s}]", "type", "text", "text", text);
	json_t *facts = json_pack("{s:s, s:s, s:[]}", "text", text, "lang", step_lang(c), "images");
	int n = chat_vision_parts(c, parts, json_object_get(facts, "images"));
	char *desc = n ? chat_vision_ask(c, parts, facts) : NULL;
	const char *route = json_string_value(json_object_get(json_object_get(c->state, "route"),
							      "route")) ?: "chat";

	chat_tool_record(c, "vision", json_pack("{s:i}", "images", n), desc != NULL);
	if (desc)
		json_object_set_new(c->state, "visionNotes", json_string(desc));
	free(desc);
	json_decref(parts);
	json_decref(facts);
	c->next = strcmp(route, "web_search") == 0 ? "web_search" : "chat";
	return NODE_NEXT;
}
