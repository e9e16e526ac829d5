/* The image agent workflow (seed 000, second version, with the first
 * version's details): its input, multi-turn context, the planner and the
 * retrieval (rag) node, and the node table. Execution, review and the
 * result's components are in image_run.c. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/retrieve.h"
#include "media/imgin.h"
#include "prov/prov.h"
#include "prov/vendors.h"
#include "text/script.h"
#include "store/store.h"
#include "util/clock.h"
#include "text/msg.h"
#include "wf/image/image.h"
#include "wf/image/image_adjust.h"
#include "wf/image/image_intent.h"
#include "wf/image/image_named.h"
#include "wf/image/image_rules.h"
#include "util/jnum.h"
#include "util/xmalloc.h"

#define IMAGE_TEXT_MAX 4000
#define IMAGE_MESSAGES_MAX 50   /* seed 000 §7.4 */
#define IMAGE_CONTEXT 5         /* seed 000 §5.2: the last five messages */
#define IMAGE_RAG_LIMIT 3
#define IMAGE_RAG_MIN 0.6

int image_zh(const json_t *state)
{
	return json_is_true(json_object_get(state, "zh"));
}


const char *image_set_error(struct step_ctx *c, const char *code, const char *message)
{
	json_object_set_new(c->state, "error", json_pack("{s:s, s:s, s:s}", "code", code, "message",
							 message, "node", c->node));
	return "error_handler";
}

json_int_t image_retry_count(const json_t *state)
{
	return json_integer_value(json_object_get(json_object_get(state, "metadata"), "retryCount"));
}

/* Appends a message, keeping at most IMAGE_MESSAGES_MAX (oldest dropped). */
static void image_push_message(json_t *state, const char *role, const char *content)
{
	json_t *msgs = json_object_get(state, "messages");

	json_array_append_new(msgs, json_pack("{s:s, s:s, s:I}", "role", role, "content", content,
					      "timestamp", (json_int_t)clock_wall_ms()));
	while (json_array_size(msgs) > IMAGE_MESSAGES_MAX)
		json_array_remove(msgs, 0);
}

/* The base image of an inpainting request: this thread's asset, or any
 * other form imgin_load reads, checked like the mask. 0, or -1 with err. */
static int image_base_in(struct step_ctx *c, const char *url, long long *budget,
			 struct imgin *base, char *err, size_t n)
{
	const struct conf *cf = step_conf(c);
	char id[64];

	memset(base, 0, sizeof *base);
	if (imgin_asset_ref(url, id, sizeof id) && !step_asset_ours(c, id))
		return snprintf(err, n, "maskData.imageUrl: the stored picture belongs to another "
				"conversation; send the picture itself"), -1;
	if (imgin_load(step_store(c), cf, url, (size_t)cf->fetch_max_bytes, base) < 0) {
		if (base->store_rc)
			step_store_failed(c, base->store_rc);
		return snprintf(err, n, "maskData.imageUrl: %s", base->error), -1;
	}
	if (step_png_check(c, base, cf->inpaint_max_side, budget, "maskData.imageUrl", err, n) < 0) {
		imgin_free(base);
		return -1;
	}
	return 0;
}

/* The mask and the base image of an inpainting request, both checked,
 * then stored once as assets: the state keeps their ids. */
static int image_mask_in(struct step_ctx *c, const json_t *mask, json_t *user, char *err, size_t n)
{
	const struct conf *cf = step_conf(c);
	const char *b64 = json_string_value(json_object_get(mask, "base64"));
	const char *url = json_string_value(json_object_get(mask, "imageUrl"));
	json_t *coords = json_object_get(mask, "coordinates");
	struct imgin m, base;
	long long budget = cf->inpaint_max_pixel_bytes;
	char id[64], bid[64];
	int rc = -1;

	if (!json_is_object(mask) || b64 == NULL)
		return snprintf(err, n, "maskData.base64 (a PNG mask as a data URL or base64) is required"), -1;
	if (url == NULL || *url == '\0')
		return snprintf(err, n, "maskData.imageUrl (the image to repaint) is required"), -1;
	if (coords && !json_is_array(coords))
		return snprintf(err, n, "maskData.coordinates must be an array of points"), -1;
	if (imgin_decode(b64, (size_t)cf->mask_max_bytes, &m) < 0)
		return snprintf(err, n, "maskData.base64: %s", m.error), -1;
	if (step_png_check(c, &m, cf->inpaint_max_side, &budget, "maskData.base64", err, n) < 0 ||
	    image_base_in(c, url, &budget, &base, err, n) < 0) {
		imgin_free(&m);
		return -1;
	}
	if (step_asset_put(c, m.mime, m.data, m.len, id, sizeof id) < 0)
		snprintf(err, n, "the mask could not be stored");
	else if (base.asset[0] == '\0' &&
		 step_asset_put(c, base.mime, base.data, base.len, bid, sizeof bid) < 0)
		snprintf(err, n, "the base image could not be stored");
	else
		rc = 0;
	if (rc == 0) {
		json_object_set_new(user, "maskAsset", json_string(id));
		json_object_set_new(user, "baseAsset", json_string(base.asset[0] ? base.asset : bid));
		if (coords)
			json_object_set(user, "coordinates", coords);
	}
	imgin_free(&m);
	imgin_free(&base);
	return rc;
}

/* The user's message of the turn: the words typed, after what an
 * adjustment sent as data asks (said in the thread's language). */
static void image_push_user(struct step_ctx *c, json_t *state, const json_t *user, const char *t)
{
	const json_t *adj = json_object_get(user, "adjust");
	char *said, *both;

	if (adj == NULL) {
		if (*t)
			image_push_message(state, "user", t);
		return;
	}
	said = image_adjust_said(adj, step_lang(c));
	if (*t) {
		both = xasprintf("%s%s%s", said, strcmp(step_lang(c), "zh") == 0 ? "；" : "; ", t);
		free(said);
		said = both;
	}
	image_push_message(state, "user", said);
	free(said);
}

/* Checks a turn's input and puts it in the state as userInput. */
/* input.n (1 to IMAGE_CANDIDATES_MAX pictures) and input.seed (a whole
 * number from 0 to 2^31 - 1), kept in user. 0, or -1 with err. */
static int image_many_in(const json_t *input, json_t *user, char *err, size_t n)
{
	const json_t *k = json_object_get(input, "n"), *s = json_object_get(input, "seed");

	if (k && !json_is_null(k)) {
		if (!json_is_integer(k) || json_integer_value(k) < 1 || json_integer_value(k) > IMAGE_CANDIDATES_MAX)
			return snprintf(err, n, "n must be a whole number of pictures from 1 to %d",
					IMAGE_CANDIDATES_MAX), -1;
		json_object_set_new(user, "n", json_integer(json_integer_value(k)));
	}
	if (s && !json_is_null(s)) {
		if (!json_is_integer(s) || json_integer_value(s) < 0 || json_integer_value(s) > 2147483647)
			return snprintf(err, n, "seed must be a whole number from 0 to 2147483647"), -1;
		json_object_set_new(user, "seed", json_integer(json_integer_value(s)));
	}
	return 0;
}

static int image_take_input(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			    size_t n)
{
	json_t *text = json_object_get(input, "text"), *mask = json_object_get(input, "maskData");
	json_t *adjust = json_object_get(input, "adjust"), *user;
	int has_mask = mask && !json_is_null(mask), has_adjust = adjust && !json_is_null(adjust);
	const char *t;

	if (text && !json_is_string(text))
		return snprintf(err, n, "text must be a string"), -1;
	t = text ? json_string_value(text) : "";
	if (strlen(t) > IMAGE_TEXT_MAX)
		return snprintf(err, n, "text is longer than %d bytes", IMAGE_TEXT_MAX), -1;
	if (*t == '\0' && !has_mask && !has_adjust)
		return snprintf(err, n, "send a description of the picture (text), paint a mask "
			 "(maskData) on an image to change it, or adjust the last picture (adjust)"), -1;
	if (has_mask && has_adjust)
		return snprintf(err, n, "adjust and maskData do not come together: a repaint is "
			 "maskData with the words for the region (text)"), -1;
	user = json_pack("{s:s}", "text", t);
	if ((has_mask && image_mask_in(c, mask, user, err, n) < 0) ||
	    image_adjust_take(c, adjust, user, err, n) < 0 || image_many_in(input, user, err, n) < 0) {
		json_decref(user);
		return -1;
	}
	json_object_set_new(state, "userInput", user);
	json_object_set_new(state, "zh", json_boolean(strcmp(step_lang(c), "zh") == 0));
	image_push_user(c, state, user, t);
	return 0;
}

static void image_reset_turn(json_t *state)
{
	static const char *const fields[] = { "intent", "enhancedPrompt", "executionResult",
					      "qualityCheck", "error" };

	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		json_object_set_new(state, fields[i], json_null());
	json_object_set_new(state, "uiComponents", json_array());
	json_object_set_new(state, "metadata", json_pack("{s:i, s:I}", "retryCount", 0, "startTime",
							 (json_int_t)clock_wall_ms()));
}

static int image_size(const json_t *input, const char *key, json_int_t *out, char *err, size_t n)
{
	json_t *v = json_object_get(input, key);

	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 64 || json_integer_value(v) > 4096)
		return snprintf(err, n, "%s must be a whole number of pixels from 64 to 4096", key), -1;
	*out = json_integer_value(v);
	return 0;
}

static json_t *image_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	json_t *state = json_pack("{s:[], s:{s:i, s:i, s:i}, s:n}", "messages", "params", "width",
				  1024, "height", 1024, "styleStrength", 70, "lastResult");
	json_int_t w = 1024, h = 1024;

	if (image_size(input, "width", &w, err, errlen) < 0 ||
	    image_size(input, "height", &h, err, errlen) < 0 ||
	    image_take_input(c, state, input, err, errlen) < 0) {
		json_decref(state);
		return NULL;
	}
	json_object_set_new(json_object_get(state, "params"), "width", json_integer(w));
	json_object_set_new(json_object_get(state, "params"), "height", json_integer(h));
	image_reset_turn(state);
	return state;
}

/* input.variationOf: another picture like one this thread made (a
 * candidate, say): that picture becomes the last result, and the turn
 * regenerates it (its prompt, a seed after its own). *turn_input becomes
 * the input to take (new reference). 0, or -1 with err. */
static int image_variation_of(json_t *state, const json_t *input, json_t **turn_input, char *err,
			      size_t n)
{
	const json_t *v = json_object_get(input, "variationOf"), *p, *found = NULL;
	size_t i;

	*turn_input = json_incref((json_t *)input);
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > 64)
		return snprintf(err, n, "variationOf must be the id of a picture of this thread"), -1;
	if (json_object_get(input, "text") || json_object_get(input, "maskData") ||
	    json_object_get(input, "adjust"))
		return snprintf(err, n, "variationOf takes no text, maskData or adjust: it is another "
				"picture like the one it names"), -1;
	json_array_foreach(json_object_get(state, "pictures"), i, p)
		if (strcmp(json_string_value(json_object_get(p, "assetId")) ?: "", json_string_value(v)) == 0)
			found = p;
	if (found == NULL)
		return snprintf(err, n, "variationOf: this thread made no picture %s (or not among its "
				"last ones)", json_string_value(v)), -1;
	json_object_set_new(state, "lastResult", json_pack("{s:s+, s:O, s:{s:O, s:O, s:O}}", "imageUrl",
		"api/assets/", json_string_value(v), "taskType", json_object_get(found, "taskType"),
		"metadata", "prompt", json_object_get(found, "prompt"), "seed", json_object_get(found, "seed"),
		"assetId", v));
	json_decref(*turn_input);
	*turn_input = json_deep_copy(input);
	json_object_del(*turn_input, "variationOf");
	json_object_set_new(*turn_input, "adjust", json_pack("{s:s}", "kind", "regenerate"));
	return 0;
}

/* A new turn on a finished thread: the last result becomes context. */
static const char *image_turn(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			      size_t errlen)
{
	json_t *last = json_object_get(state, "executionResult"), *params = json_object_get(state, "params"), *in;
	json_int_t w = json_integer_value(json_object_get(params, "width"));
	json_int_t h = json_integer_value(json_object_get(params, "height"));
	int rc;

	/* An adjustment next keeps this result's subject, style and prompt. */
	if (json_is_object(last)) {
		json_object_set(state, "lastResult", last);
		json_object_set(state, "lastIntent", json_object_get(state, "intent"));
		json_object_set(state, "lastPrompt", json_object_get(state, "enhancedPrompt"));
		json_object_set(state, "lastInput", json_object_get(state, "userInput"));
	}
	/* The size on any turn: this picture's and the next ones'. */
	if (image_size(input, "width", &w, err, errlen) < 0 || image_size(input, "height", &h, err, errlen) < 0 ||
	    image_variation_of(state, input, &in, err, errlen) < 0)
		return NULL;
	rc = image_take_input(c, state, in, err, errlen);
	json_decref(in);
	if (rc < 0)
		return NULL;
	json_object_set_new(params, "width", json_integer(w));
	json_object_set_new(params, "height", json_integer(h));
	image_reset_turn(state);
	return "planner";
}

/* The planner's model messages: the seed's system prompt, the last five
 * messages, and the last result when the user asks to adjust it. */
static json_t *image_planner_messages(const json_t *state, int adjust)
{
	json_t *msgs = json_array(), *hist = json_object_get(state, "messages"), *m;
	json_t *last = json_object_get(state, "lastResult");
	size_t n = json_array_size(hist), i;

	json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "system", "content",
		"你是一个专业的 AI 图像生成助手。请分析用户的输入，识别用户的意图。\n"
		"可能的意图类型：generate_image（生成新图片）、inpainting（修改图片的某个区域，通常伴随蒙版数据）、"
		"adjust_parameters（调整生成参数，如风格强度、尺寸）。\n"
		"请以 JSON 格式返回：{\"action\": \"generate_image\" | \"inpainting\" | \"adjust_parameters\" | "
		"\"unknown\", \"subject\": \"主要对象\", \"style\": \"风格关键词\", \"confidence\": 0.0-1.0, "
		"\"reasoning\": \"分析理由\"}\n如果检测到蒙版数据，则 action 必须为 \"inpainting\"。"));
	if (adjust && json_is_object(last))
		json_array_append_new(msgs, json_pack("{s:s, s:s+}", "role", "assistant", "content",
			"上一次生成的结果：", json_string_value(json_object_get(last, "imageUrl")) ?: ""));
	for (i = n > IMAGE_CONTEXT ? n - IMAGE_CONTEXT : 0; i < n; i++) {
		m = json_array_get(hist, i);
		json_array_append_new(msgs, json_pack("{s:O, s:O}", "role", json_object_get(m, "role"),
						      "content", json_object_get(m, "content")));
	}
	return msgs;
}

/* Seed 000 §5.2: "再", "调整" bring the last result into the context; so
 * does a message that opens with an adjustment (风格强度 90) or asks for
 * another style (named: a style of the library the text names, or NULL). */
static int image_wants_adjust(const char *text, const json_t *named)
{
	const struct image_style *st;

	return image_named_restyle(named, text).matched || strstr(text, "再") ||
	       strstr(text, "调整") || strstr(text, "adjust") || strstr(text, "Adjust") ||
	       strstr(text, "again") ||
	       strcmp(image_adjust_intent(text).rule, "adjust_lead") == 0 ||
	       image_restyle(text, &st).matched || image_regenerate(text).matched;
}

/* The last picture again: as the turn's adjustment says, else as its
 * words do ("重新生成", "再来一张"). */
static int image_regen_asked(const json_t *state, const char *text)
{
	const char *kind = image_adjust_kind(state);

	return kind ? strcmp(kind, "regenerate") == 0 : image_regenerate(text).matched;
}

/* The rules answer when the model's reply cannot be used. */
static json_t *image_intent_by_rules(struct step_ctx *c, const json_t *facts)
{
	char err[200];

	return image_rules_task_intent(facts, json_string_value(json_object_get(facts, "text")) ?: "",
				   err, sizeof err);
}

/* Keeps the intent's fields to the seed's shape and types. */
static json_t *image_intent_clean(const json_t *raw, const char *raw_text)
{
	static const char *const actions[] = { "generate_image", "inpainting", "adjust_parameters" };
	const char *action = json_string_value(json_object_get(raw, "action"));
	json_t *conf = json_object_get(raw, "confidence");
	const char *act = "unknown";

	for (size_t i = 0; action && i < sizeof actions / sizeof actions[0]; i++)
		if (strcmp(action, actions[i]) == 0)
			act = actions[i];
	if (action && strcmp(action, "parameter_adjustment") == 0)  /* the first version's name */
		act = "adjust_parameters";
	return json_pack("{s:s, s:s, s:s, s:f, s:s, s:s}", "action", act, "subject",
			 json_string_value(json_object_get(raw, "subject")) ?: "", "style",
			 json_string_value(json_object_get(raw, "style")) ?: "", "confidence",
			 jnum_round(json_is_number(conf) ? json_number_value(conf) : 0.0, JNUM_SCORE), "reasoning",
			 json_string_value(json_object_get(raw, "reasoning")) ?: "", "rawResponse",
			 raw_text ? raw_text : "");
}

/* Asks the model; a reply that is not JSON falls back to the rules with
 * the raw answer kept (seed 000 §3.1). NULL with the error set when the
 * model failed outright. */
static json_t *image_plan(struct step_ctx *c, const json_t *facts, int adjust)
{
	json_t *msgs = image_planner_messages(c->state, adjust), *intent = NULL, *rules;
	struct chat_call call = { .task = "intent", .rules = image_rules_task_intent, .messages = msgs,
				  .facts = facts,
				  .temperature = 0.3, .json_mode = 1,
				  .timeout_ms = image_conf(c)->planner_timeout_ms };
	struct prov_answer a;

	step_chat(c, &call, &a);
	if (a.status == PROV_OK) {
		intent = image_intent_clean(a.json, a.text);
	} else if (a.status == PROV_BAD_ANSWER && a.text && (rules = image_intent_by_rules(c, facts))) {
		intent = image_intent_clean(rules, a.text);
		json_decref(rules);
		step_thought(c, "image.intent.rules");
	} else {
		char msg[320];

		snprintf(msg, sizeof msg, "%s: %s", prov_status_name(a.status), a.error);
		image_set_error(c, a.status == PROV_TIMEOUT ? "planner_timeout" : "planner_failed", msg);
	}
	prov_answer_free(&a);
	json_decref(msgs);
	return intent;
}

/* An adjustment is of the last picture: its subject stays, whatever the
 * words of the adjustment would make of it, and so does its style unless
 * the adjustment names another one (换成水彩风格): then the model's name
 * for that style, or the lexicon's. */
static void image_keep_last(json_t *state, json_t *intent, const char *text, const json_t *named)
{
	json_t *last = json_object_get(state, "lastIntent");
	const struct image_style *st;
	const char *said = json_string_value(json_object_get(intent, "style")) ?: "";

	if (!json_is_object(last))
		return;
	if (json_is_string(json_object_get(last, "subject")))
		json_object_set(intent, "subject", json_object_get(last, "subject"));
	if (image_named_restyle(named, text).matched) {
		json_object_set(intent, "style", json_object_get(named, "name"));
	} else if (!image_restyle(text, &st).matched) {
		if (json_is_string(json_object_get(last, "style")))
			json_object_set(intent, "style", json_object_get(last, "style"));
	} else if (image_style(said) != st) {
		json_object_set_new(intent, "style", json_string(image_zh(state) ? st->zh : st->en));
	}
}

/* A restyle of the last picture takes adjust_parameters whatever the model
 * made of it (it tends to read "换成水彩风格" as a new picture of "换成"); so
 * does a change of style asked with no picture yet, which has nothing to
 * adjust. */
static void image_force_restyle(const json_t *state, json_t *intent, const char *text,
				const json_t *named)
{
	const struct image_style *st;
	struct rules_match m = image_restyle(text, &st);

	if (!m.matched)
		m = image_named_restyle(named, text);
	if (!m.matched || (strcmp(m.rule, "restyle") != 0 &&
			   !json_is_object(json_object_get(state, "lastResult"))))
		return;
	json_object_set_new(intent, "action", json_string("adjust_parameters"));
	if (json_number_value(json_object_get(intent, "confidence")) < m.confidence)
		json_object_set_new(intent, "confidence", json_real(m.confidence));
}

/* "重新生成", "再来一张", "regenerate" typed as text, or a regenerate sent
 * as data: the last picture again, from the prompt it was made from (rag
 * keeps it), with its mask when it was a repaint; with no picture yet,
 * there is nothing to regenerate. */
static enum node_rc image_plan_regenerate(struct step_ctx *c)
{
	json_t *last = json_object_get(c->state, "lastResult"), *li = json_object_get(c->state,
										     "lastIntent");
	json_t *user = json_object_get(c->state, "userInput");
	json_t *prev = json_object_get(c->state, "lastInput"), *intent;
	int inpaint;

	if (!json_is_object(last) || !json_is_object(li)) {
		json_object_set_new(c->state, "intent", json_pack("{s:s, s:s, s:s, s:f, s:s, s:s}",
			"action", "unknown", "subject", "", "style", "", "confidence", 0.9, "reasoning",
			msg_get(step_lang(c), "image.regenerate.none"), "rawResponse", ""));
		c->next = image_set_error(c, "nothing_to_regenerate",
					  msg_get(step_lang(c), "image.friendly.nothing_to_regenerate"));
		return NODE_NEXT;
	}
	inpaint = strcmp(json_string_value(json_object_get(last, "taskType")) ?: "", "inpainting") == 0 &&
		  json_is_string(json_object_get(prev, "maskAsset")) &&
		  json_is_string(json_object_get(prev, "baseAsset"));
	if (inpaint) {
		json_object_set(user, "maskAsset", json_object_get(prev, "maskAsset"));
		json_object_set(user, "baseAsset", json_object_get(prev, "baseAsset"));
	}
	intent = json_deep_copy(li);
	json_object_set_new(intent, "action", json_string(inpaint ? "inpainting" : "generate_image"));
	json_object_set_new(intent, "confidence", json_real(0.9));
	json_object_set_new(intent, "reasoning", json_string(msg_get(step_lang(c),
										"image.regenerate.reason")));
	json_object_set_new(intent, "rawResponse", json_string(""));
	json_object_set_new(c->state, "intent", intent);
	step_thought(c, "image.intent.regenerate", json_string_value(json_object_get(intent, "action")));
	c->next = "rag";
	return NODE_NEXT;
}

/* What the action needs and the turn does not have (seed 000 §7.3: a
 * change to "here" without a mask). NULL when nothing is missing. */
static const char *image_missing(struct step_ctx *c, const char *action, int has_mask)
{
	if (strcmp(action, "inpainting") == 0 && !has_mask)
		return image_set_error(c, "mask_required", msg_get(step_lang(c), "image.friendly.mask_required"));
	if (strcmp(action, "adjust_parameters") == 0 &&
	    !json_is_object(json_object_get(c->state, "lastResult")))
		return image_set_error(c, "nothing_to_adjust", msg_get(step_lang(c), "image.friendly.nothing_to_adjust"));
	return NULL;
}

/* An adjustment sent as data (restyle, params): adjust_parameters as it
 * says, with no model and no keyword rules; the subject and the style
 * stay the last picture's, but for a new style. */
static enum node_rc image_plan_data(struct step_ctx *c)
{
	const json_t *adj = image_adjust_of(c->state);
	json_t *last = json_object_get(c->state, "lastIntent");
	const char *style = json_string_value(json_object_get(adj, "styleName"));
	const char *missing;
	char *said = image_adjust_said(adj, step_lang(c));
	char *why = msg_fmt(step_lang(c), "image.adjust.reason", said);

	if (style == NULL)
		style = json_string_value(json_object_get(last, "style"));
	json_object_set_new(c->state, "intent", json_pack("{s:s, s:s, s:s, s:f, s:s, s:s}",
		"action", "adjust_parameters", "subject",
		json_string_value(json_object_get(last, "subject")) ?: "", "style", style ? style : "",
		"confidence", 1.0, "reasoning", why, "rawResponse", ""));
	free(said);
	free(why);
	step_thought(c, "image.intent", "adjust_parameters", 1.0);
	missing = image_missing(c, "adjust_parameters", 0);
	c->next = missing ? missing : "rag";
	return NODE_NEXT;
}

static enum node_rc image_planner(struct step_ctx *c)
{
	json_t *user = json_object_get(c->state, "userInput");
	const char *text = json_string_value(json_object_get(user, "text")) ?: "";
	int has_mask = json_is_string(json_object_get(user, "maskAsset"));
	json_t *named = image_named_fact(c, text);
	int adjust = image_wants_adjust(text, named) && json_is_object(json_object_get(c->state, "lastResult"));
	json_t *facts = json_pack("{s:s, s:b, s:O, s:O, s:O}", "text", text, "hasMask", has_mask,
				  "lastResult", adjust ? json_object_get(c->state, "lastResult") : json_null(),
				  "lastIntent", adjust && json_object_get(c->state, "lastIntent")
				  ? json_object_get(c->state, "lastIntent") : json_null(),
				  "namedStyle", named ? named : json_null());
	json_t *intent;
	const char *action, *missing;
	double conf;

	if (!has_mask && image_regen_asked(c->state, text)) {
		json_decref(facts);
		json_decref(named);
		return image_plan_regenerate(c);
	}
	if (image_adjust_kind(c->state)) {
		json_decref(facts);
		json_decref(named);
		return image_plan_data(c);
	}
	intent = image_plan(c, facts, adjust);
	json_decref(facts);
	if (intent)
		image_named_keep(c, intent, named, text);
	if (intent == NULL) {
		json_decref(named);
		json_object_set_new(c->state, "intent", json_pack("{s:s, s:f}", "action", "unknown",
								  "confidence", 0.0));
		c->next = "error_handler";
		return NODE_NEXT;
	}
	if (has_mask && strcmp(json_string_value(json_object_get(intent, "action")), "inpainting")) {
		json_object_set_new(intent, "action", json_string("inpainting"));
		json_object_set_new(intent, "confidence", json_real(0.9));
	}
	if (!has_mask)
		image_force_restyle(c->state, intent, text, named);
	action = json_string_value(json_object_get(intent, "action"));
	if (strcmp(action, "adjust_parameters") == 0)
		image_keep_last(c->state, intent, text, named);
	json_decref(named);
	json_object_set_new(c->state, "intent", intent);
	conf = json_number_value(json_object_get(intent, "confidence"));
	step_thought(c, "image.intent", action, conf);
	if (strcmp(action, "unknown") != 0 && conf > 0.5) {
		missing = image_missing(c, action, has_mask);
		c->next = missing ? missing : "rag";
		return NODE_NEXT;
	}
	c->next = image_set_error(c, "unknown_intent", msg_get(step_lang(c), "image.friendly.unknown_intent"));
	return NODE_NEXT;
}

/* Retrieval (kb/retrieve.h): cached per query and way of searching; a
 * search that fell back to keywords is not cached, so the next one tries
 * the embeddings again. *method says how the hits were found. A failure
 * keeps the original prompt. */
static json_t *image_retrieve(struct step_ctx *c, const char *query, double min_sim,
			      enum kb_method *method)
{
	const struct conf *cf = step_conf(c);
	const struct conf_provider *emb = &cf->prov[PROV_EMBEDDINGS];
	struct kb *kb = kb_styles(step_app(c));
	struct kb_retrieve_info info;
	char key[1400];
	json_t *hits = NULL;
	int embeds = !prov_kind_by_rules(emb->kind);

	*method = embeds ? KB_METHOD_HYBRID : KB_METHOD_BM25;
	if (kb == NULL)
		return NULL;
	snprintf(key, sizeof key, "%.2f|%s|%s|%s", min_sim, embeds ? emb->model : "bm25",
		 embeds ? emb->base_url : "", query);
	if (cf->cache_retrieval_ttl > 0 && step_store(c) &&
	    store_cache_get(step_store(c), "rag", key, &hits) == 0)
		return hits;
	hits = kb_retrieve(step_app(c), kb, query, IMAGE_RAG_LIMIT, min_sim, &info);
	*method = info.method;
	if (hits && info.method != KB_METHOD_FALLBACK && cf->cache_retrieval_ttl > 0 && step_store(c))
		store_cache_put(step_store(c), "rag", key, hits, cf->cache_retrieval_ttl * 1000LL);
	return hits;
}

static char *image_join_prompt(const char *original, const json_t *hits, int inpaint)
{
	struct buf b;
	size_t i;
	json_t *h;

	buf_init(&b, 16384);
	buf_adds(&b, original);
	if (inpaint)
		buf_adds(&b, " (in the masked area)");
	json_array_foreach(hits, i, h) {
		buf_adds(&b, ", ");
		buf_adds(&b, json_string_value(json_object_get(h, "prompt")) ?: "");
	}
	return buf_steal(&b);
}

/* An adjustment in a new style (its style is not the last picture's):
 * retrieved again, from the last subject in the new style. */
static int image_restyled(const json_t *state)
{
	const json_t *intent = json_object_get(state, "intent");
	const char *style = json_string_value(json_object_get(intent, "style")) ?: "";
	const char *was = json_string_value(json_object_get(json_object_get(state, "lastIntent"),
							    "style")) ?: "";

	return strcmp(json_string_value(json_object_get(intent, "action")) ?: "", "adjust_parameters") == 0 &&
	       *style && strcmp(style, was) != 0;
}

/* A regeneration: the last picture's prompt as it was used, with another
 * seed. */
static int image_rag_again(struct step_ctx *c)
{
	const char *text = json_string_value(json_object_get(json_object_get(c->state, "userInput"),
							     "text")) ?: "";
	json_t *last = json_object_get(c->state, "lastPrompt"), *ep;
	json_t *meta = json_object_get(json_object_get(c->state, "lastResult"), "metadata");
	json_t *used = json_object_get(meta, "prompt");

	if (!image_regen_asked(c->state, text) || !json_is_object(last) || !json_is_string(used))
		return 0;
	ep = json_deep_copy(last);
	json_object_set(ep, "final", used);
	/* Another composition: the next seed after the last picture's. */
	json_object_set_new(ep, "seed", json_integer(json_integer_value(json_object_get(meta, "seed")) + 1));
	json_object_set_new(c->state, "enhancedPrompt", ep);
	step_thought(c, "image.regenerate");
	c->next = "executor";
	return 1;
}

/* An adjustment redraws the last picture: its prompt, retrieved styles
 * included, is kept as it was; the executor adds the new parameters. A
 * regeneration takes the prompt the last picture was made from. */
static int image_rag_keep(struct step_ctx *c)
{
	json_t *last = json_object_get(c->state, "lastPrompt");
	json_t *intent = json_object_get(c->state, "intent");
	const char *final = json_string_value(json_object_get(last, "final"));

	if (image_rag_again(c))
		return 1;
	if (strcmp(json_string_value(json_object_get(intent, "action")) ?: "", "adjust_parameters") != 0 ||
	    final == NULL || image_restyled(c->state))
		return 0;
	json_object_set_new(c->state, "enhancedPrompt", json_deep_copy(last));
	step_thought(c, "image.keep",
		      json_string_value(json_object_get(intent, "subject")) ?: "",
		      *(json_string_value(json_object_get(intent, "style")) ?: "")
		      ? json_string_value(json_object_get(intent, "style"))
		      : msg_get(step_lang(c), "image.unspecified"));
	c->next = "executor";
	return 1;
}

static enum node_rc image_rag(struct step_ctx *c)
{
	json_t *intent = json_object_get(c->state, "intent");
	const char *text = json_string_value(json_object_get(json_object_get(c->state, "userInput"),
							     "text")) ?: "";
	const char *subject = json_string_value(json_object_get(intent, "subject")) ?: "";
	const char *style = json_string_value(json_object_get(intent, "style")) ?: "";
	json_int_t retry = image_retry_count(c->state);
	char query[1024], *final, names[512] = "";
	/* A retry after a failed review lowers the bar to let more style in. */
	double min_sim = IMAGE_RAG_MIN - 0.1 * (double)retry;
	json_t *hits, *h, *retrieved = json_array();
	const char *original = *text ? text : subject;
	enum kb_method method = KB_METHOD_BM25;
	char *restyle = NULL;
	int inpaint;
	size_t i;

	if (image_rag_keep(c)) {
		json_decref(retrieved);
		return NODE_NEXT;
	}
	if (image_restyled(c->state)) {
		restyle = image_zh(c->state) ? xasprintf("%s，%s风格", subject, style)
					     : xasprintf("%s, %s style", subject, style);
		original = restyle;
		step_thought(c, "image.restyle", style, subject);
	}
	/* A style chosen from the library is looked for by its own name. */
	if (restyle && json_object_get(image_adjust_of(c->state), "style"))
		snprintf(query, sizeof query, "%s", style);
	else
		snprintf(query, sizeof query, "%s %s %s", style, subject, restyle ? "" : text);
	inpaint = !strcmp(json_string_value(json_object_get(intent, "action")) ?: "", "inpainting");
	hits = inpaint ? json_array() : image_retrieve(c, query, min_sim < 0.3 ? 0.3 : min_sim, &method);
	hits = image_named_apply(c, hits, restyle ? style : text, style, query, inpaint, IMAGE_RAG_LIMIT);
	if (hits == NULL)
		step_thought(c, "image.rag.unavailable");
	json_array_foreach(hits, i, h) {
		json_array_append_new(retrieved, json_pack("{s:O, s:O, s:O, s:O*}", "style",
			json_object_get(h, image_zh(c->state) ? "name_zh" : "name_en"), "prompt",
			json_object_get(h, "prompt"), "similarity", json_object_get(h, "similarity"),
			"method", json_object_get(h, "method")));
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
			 json_string_value(json_object_get(h, image_zh(c->state) ? "name_zh" : "name_en")) ?: "");
	}
	if (hits && json_array_size(hits) > 0)
		step_thought(c, "image.rag.found", (int)json_array_size(hits),
			      kb_method_words(step_lang(c), method), names);
	else if (hits)
		step_thought(c, "image.rag.none", kb_method_words(step_lang(c), method));
	final = image_join_prompt(original, hits, inpaint);
	json_object_set_new(c->state, "enhancedPrompt", json_pack("{s:s, s:o, s:s}", "original",
							original, "retrieved", retrieved, "final", final));
	free(final);
	free(restyle);
	json_decref(hits);
	c->next = "executor";
	return NODE_NEXT;
}

static const struct wf_node image_nodes[] = {
	{ "planner", image_planner, 0 },
	{ "rag", image_rag, 0 },
	{ "executor", image_executor, 0 },
	{ "critic", image_critic, 0 },
	{ "genui", image_genui, 0 },
	{ "error_handler", image_error_handler, 0 },
};

/* Which node may follow which (a pause names the node its answer goes
 * to: an edge from the node that paused). */
static const struct wf_edge image_edges[] = {
	{ WF_START, "planner" }, { "planner", "rag" }, { "planner", "error_handler" },
	{ "rag", "executor" }, { "executor", "executor" }, { "executor", "critic" },
	{ "executor", "error_handler" }, { "critic", "rag" }, { "critic", "genui" },
	{ "genui", WF_END }, { "error_handler", WF_END },
};

static const char *const image_text_fields[] = { "text", NULL };

/* What the input may hold (the init and turn hooks check it). */
static const char image_input_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"image input\", \"type\": \"object\", "
	"\"properties\": {\"text\": {\"type\": \"string\"}, \"lang\": {\"enum\": [\"zh\", "
	"\"en\", null]}, \"maskData\": {\"type\": \"object\", "
	"\"properties\": {\"base64\": {\"type\": \"string\"}, "
	"\"imageUrl\": {\"type\": \"string\"}}}, \"adjust\": {\"type\": \"object\", "
	"\"required\": [\"kind\"], \"properties\": {\"kind\": {\"enum\": [\"regenerate\", "
	"\"restyle\", \"params\"]}, \"style\": {\"type\": \"string\"}, \"styleStrength\": "
	"{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 100}, \"width\": {\"type\": "
	"\"integer\", \"minimum\": 64, \"maximum\": 4096}, \"height\": {\"type\": \"integer\", "
	"\"minimum\": 64, \"maximum\": 4096}, \"light\": {\"enum\": [\"brighter\", \"darker\"]}}}, "
	"\"width\": {\"type\": \"integer\", \"minimum\": 64, \"maximum\": 4096}, "
	"\"height\": {\"type\": \"integer\", \"minimum\": 64, \"maximum\": 4096}, "
	"\"n\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 4}, "
	"\"seed\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 2147483647}, "
	"\"variationOf\": {\"type\": \"string\"}}}";

/* What its state holds between steps (the fields every checkpoint has are
 * required; a node may add others). */
static const char image_state_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"image state\", \"type\": \"object\", "
	"\"properties\": {\"enhancedPrompt\": {\"type\": [\"null\", \"object\"]}, "
	"\"error\": {\"type\": [\"null\", \"object\"]}, "
	"\"executionResult\": {\"type\": [\"null\", \"object\"]}, "
	"\"intent\": {\"type\": [\"null\", \"object\"]}, \"lastResult\": {\"type\": [\"null\", "
	"\"object\"]}, \"messages\": {\"type\": \"array\"}, "
	"\"metadata\": {\"type\": \"object\"}, \"params\": {\"type\": \"object\"}, "
	"\"qualityCheck\": {\"type\": [\"null\", \"object\"]}, "
	"\"result\": {\"type\": \"object\"}, \"uiComponents\": {\"type\": \"array\"}, "
	"\"userInput\": {\"type\": \"object\"}, \"zh\": {\"type\": \"boolean\"}}, "
	"\"required\": [\"enhancedPrompt\", \"error\", \"executionResult\", \"intent\", "
	"\"lastResult\", \"messages\", \"metadata\", \"params\", \"qualityCheck\", "
	"\"uiComponents\", \"userInput\", \"zh\"]}";

const struct workflow wf_image = {
	.name = "image",
	.nodes = image_nodes,
	.nnodes = sizeof image_nodes / sizeof image_nodes[0],
	.start = "planner",
	.edges = image_edges,
	.nedges = sizeof image_edges / sizeof image_edges[0],
	.text_fields = image_text_fields,
	.input_schema = image_input_schema,
	.state_schema = image_state_schema,
	.conf = &image_conf_section,
	.msgs = image_msgs,
	.nmsgs = IMAGE_NMSGS,
	.init = image_init,
	.turn = image_turn,
};
