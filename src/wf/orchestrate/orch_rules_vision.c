/* The offline vision agents: vision-analyzer reads the text of the
 * attached picture with OCR (or, when its stage asks for elements, finds
 * them as vision-processor does), vision-processor finds the elements by
 * segmentation, vision-annotator draws the boxes of the stages before it
 * with the image_annotate tool. */
#include "config.h"
#include <stdlib.h>
#include <string.h>

#include "media/ocr.h"
#include "media/pixels.h"
#include "media/regions.h"
#include "wf/orchestrate/orch_rules_int.h"

#define ORCH_MAX_ELEMENTS 60
#define ORCH_MAX_BOXES 200

/* The picture of the facts, decoded: 0, or -1 with the answer to give in
 * *why (new reference). */
static int orch_picture(const json_t *facts, struct pixels *px, const char **path, json_t **why)
{
	const char *lang = orch_lang(facts);
	const json_t *att = orch_image_attachment(facts);
	const struct pngio_limits lim = { OCR_MAX_SIDE, (long long)OCR_MAX_SIDE * OCR_MAX_SIDE * 4 };
	unsigned char *bytes;
	size_t len;
	char err[256];
	int rc;

	*path = json_string_value(json_object_get(att, "path"));
	bytes = att ? orch_attachment_bytes(att, &len) : NULL;
	if (!bytes) {
		*why = orch_decline(lang, orch_say(lang, "no_image"));
		return -1;
	}
	rc = pixels_decode(bytes, len, json_string_value(json_object_get(att, "mimeType")), &lim, px,
			   err, sizeof(err));
	free(bytes);
	if (rc) {
		*why = orch_answer_new(orch_sayf(lang, "bad_image", *path ? *path : "", err));
		return -1;
	}
	if (!*path)
		*path = "";
	return 0;
}

static json_t *orch_offline_note_answer(const json_t *facts, char *lead, const json_t *data,
					const char *cannot)
{
	const char *lang = orch_lang(facts);
	char *note = orch_sayf(lang, "offline", orch_say(lang, cannot));
	json_t *a = orch_answer_data(lead, data, note);

	free(lead);
	free(note);
	return a;
}

static const char *orch_element_words(const char *lang, const char *type, const char *en)
{
	static const struct { const char *type, *zh; } zh[] = {
		{ "text", "一行文字或类似文字的标记" }, { "button", "填充的长条，形如按钮或标签" },
		{ "icon", "图标大小的小标记" }, { "image", "多种颜色的区域，像照片或图片" },
		{ "shape", "形状或色块" },
	};

	if (strcmp(lang, "en") == 0)
		return en;
	for (size_t i = 0; i < sizeof(zh) / sizeof(zh[0]); i++)
		if (strcmp(zh[i].type, type) == 0)
			return zh[i].zh;
	return en;
}

static json_t *orch_detect(const json_t *facts)
{
	const char *lang = orch_lang(facts), *path;
	struct pixels px;
	json_t *why, *found, *el, *a;
	size_t i;

	if (orch_picture(facts, &px, &path, &why))
		return why;
	found = regions_detect(&px, ORCH_MAX_ELEMENTS);
	pixels_free(&px);
	json_array_foreach(json_object_get(found, "elements"), i, el) {
		const char *t = json_string_value(json_object_get(el, "type"));
		const char *d = json_string_value(json_object_get(el, "description"));

		json_object_set_new(el, "description", json_string(orch_element_words(lang, t, d)));
	}
	json_object_set_new(found, "type", json_string("detection"));
	json_object_set_new(found, "image", json_string(path));
	a = orch_offline_note_answer(facts, orch_sayf(lang, "det_done", path,
		(int)json_integer_value(json_object_get(json_object_get(found, "imageSize"), "width")),
		(int)json_integer_value(json_object_get(json_object_get(found, "imageSize"), "height")),
		(int)json_array_size(json_object_get(found, "elements"))), found, "det_cannot");
	json_decref(found);
	return a;
}

/* A stage that asks for elements rather than text. */
static int orch_wants_detection(const json_t *facts)
{
	static const char *const words[] = { "element", "detect", "button", "元素", "检测", "控件",
		"按钮" };
	const char *d = orch_fact_str(json_object_get(facts, "stage"), "description");

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(d, words[i]))
			return 1;
	return 0;
}

static json_t *orch_ocr(const json_t *facts)
{
	const char *lang = orch_lang(facts), *path;
	struct pixels px;
	json_t *why, *found, *a;
	char err[256];

	if (!ocr_available()) {
		char *none = orch_sayf(lang, "ocr_none", lang[0] == 'e'
				       ? "this server was built without Tesseract"
				       : "服务器编译时没有 Tesseract");

		a = orch_decline(lang, none);
		free(none);
		return a;
	}
	if (orch_picture(facts, &px, &path, &why))
		return why;
	found = ocr_read(&px, "chi_sim+eng", err, sizeof(err));
	if (!found) {
		a = orch_answer_new(orch_sayf(lang, "ocr_failed", err));
		pixels_free(&px);
		return a;
	}
	json_object_set_new(found, "type", json_string("ocr"));
	json_object_set_new(found, "image", json_string(path));
	a = orch_offline_note_answer(facts, orch_sayf(lang, "ocr_done", path, px.w, px.h,
		(int)json_array_size(json_object_get(found, "textRegions"))), found, "ocr_cannot");
	pixels_free(&px);
	json_decref(found);
	return a;
}

json_t *orch_rules_vision_analyzer(const json_t *facts, const char *text, char *err, size_t errlen)
{
	return orch_wants_detection(facts) ? orch_detect(facts) : orch_ocr(facts);
}

json_t *orch_rules_vision_processor(const json_t *facts, const char *text, char *err, size_t errlen)
{
	return orch_detect(facts);
}

/* One rectangle for image_annotate from a region of OCR or detection. */
static json_t *orch_box_region(const json_t *item, const char *label_key)
{
	const json_t *bb = json_object_get(item, "boundingBox");
	const char *label = json_string_value(json_object_get(item, label_key));
	json_t *x = json_object_get(bb, "x"), *y = json_object_get(bb, "y");
	json_t *w = json_object_get(bb, "width"), *h = json_object_get(bb, "height");

	if (!json_is_number(x) || !json_is_number(y) || !json_is_number(w) || !json_is_number(h) ||
	    json_number_value(w) <= 0 || json_number_value(h) <= 0)
		return NULL;
	return json_pack("{s:s, s:O, s:O, s:O, s:O, s:s}", "type", "rectangle", "x", x, "y", y,
			 "width", w, "height", h, "label", label ? label : "");
}

static json_t *orch_boxes(const json_t *facts)
{
	json_t *out = json_array(), *texts = orch_inputs_array(facts, "textRegions");
	json_t *els = orch_inputs_array(facts, "elements"), *item;
	size_t i;

	json_array_foreach(texts, i, item) {
		json_t *r = orch_box_region(item, "text");

		if (r && json_array_size(out) < ORCH_MAX_BOXES)
			json_array_append(out, r);
		json_decref(r);
	}
	json_array_foreach(els, i, item) {
		json_t *r = orch_box_region(item, "type");

		if (r && json_array_size(out) < ORCH_MAX_BOXES)
			json_array_append(out, r);
		json_decref(r);
	}
	json_decref(texts);
	json_decref(els);
	return out;
}

/* The picture the boxes were found on: an input's structuredData.image,
 * else the first image attachment. */
static const char *orch_annotate_target(const json_t *facts)
{
	const char *id, *p;
	json_t *ctx;

	json_object_foreach(json_object_get(facts, "inputs"), id, ctx) {
		p = json_string_value(json_object_get(json_object_get(ctx, "structuredData"), "image"));
		if (p && *p)
			return p;
	}
	return json_string_value(json_object_get(orch_image_attachment(facts), "path"));
}

/* After the tool ran: what it made, or why it failed. */
static json_t *orch_annotated(const json_t *facts, const json_t *result)
{
	const char *lang = orch_lang(facts), *made = orch_result_path(result);
	const json_t *last = NULL;
	size_t i;
	json_t *t;

	if (json_object_get(result, "error") || !made) {
		const char *m = json_string_value(json_object_get(result, "message"));

		return orch_answer_new(orch_sayf(lang, "ann_failed", m ? m : orch_fact_str(result, "error")));
	}
	json_array_foreach(json_object_get(facts, "toolResults"), i, t)
		if (strcmp(orch_fact_str(t, "name"), "image_annotate") == 0)
			last = t;
	return orch_offline_note_answer(facts, orch_sayf(lang, "ann_done",
		(int)json_array_size(json_object_get(json_object_get(last, "arguments"), "regions")),
		orch_fact_str(json_object_get(last, "arguments"), "image_path"), made), NULL,
		"ann_cannot");
}

json_t *orch_rules_vision_annotator(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *target;
	const json_t *done = orch_tool_result(facts, "image_annotate", NULL);
	json_t *boxes;

	if (done)
		return orch_annotated(facts, done);
	target = orch_annotate_target(facts);
	if (!target)
		return orch_decline(lang, orch_say(lang, "no_image"));
	boxes = orch_boxes(facts);
	if (json_array_size(boxes) == 0) {
		json_decref(boxes);
		return orch_answer_data(orch_say(lang, "ann_none"), NULL, NULL);
	}
	return orch_calls_new(json_pack("[o]", orch_call_new("image_annotate",
		json_pack("{s:s, s:o}", "image_path", target, "regions", boxes))));
}
