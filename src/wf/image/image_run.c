/* The image agent's second half: the executor (text to image, inpainting,
 * parameter adjustment), the critic, the result's UI components (genui)
 * and the error handler (seed 000 §3.3–§4.2). */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "conf/conf.h"
#include "prov/prov.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/pngio.h"
#include "util/buf.h"
#include "text/msg.h"
#include "wf/image/image.h"
#include "wf/image/image_adjust.h"
#include "wf/image/image_crit.h"
#include "wf/image/image_rules.h"
#include "util/jnum.h"

/* The highest score a review may give a picture whose prompt failed one of
 * the critic's checks (under the 0.6 that passes). */
#define IMAGE_RULE_CAP 0.5

static const char *image_action(const json_t *state)
{
	return json_string_value(json_object_get(json_object_get(state, "intent"), "action")) ?: "";
}

static json_int_t image_param(const json_t *state, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(state, "params"), key));
}

static void image_set_retry(json_t *state, json_int_t n)
{
	json_object_set_new(json_object_get(state, "metadata"), "retryCount", json_integer(n));
}

/* A number after one of the words in text (风格强度 80, strength 80). */
static int image_number_after(const char *text, const char *const *words, long *out)
{
	for (size_t i = 0; words[i]; i++) {
		const char *p = strstr(text, words[i]);

		if (p == NULL)
			continue;
		p += strlen(words[i]);
		while (*p && !isdigit((unsigned char)*p) && (unsigned char)*p < 0x80 && *p != '\n')
			p++;
		if (isdigit((unsigned char)*p)) {
			*out = strtol(p, NULL, 10);
			return 1;
		}
	}
	return 0;
}

/* adjust_parameters: style strength and resolution from the request's
 * words, then those the adjustment sent as data names, applied to the
 * state's params. Returns a short description. */
static void image_adjust(struct step_ctx *c, char *what, size_t n)
{
	static const char *const strength[] = { "风格强度", "强度", "strength", NULL };
	const char *text = json_string_value(json_object_get(json_object_get(c->state, "userInput"),
							     "text")) ?: "";
	json_t *params = json_object_get(c->state, "params");
	long s = (long)image_param(c->state, "styleStrength"), w, h;
	const char *x;

	if (!image_number_after(text, strength, &s)) {
		if (strstr(text, "更强") || strstr(text, "加强") || strstr(text, "stronger"))
			s += 15;
		else if (strstr(text, "更弱") || strstr(text, "减弱") || strstr(text, "weaker") ||
			 strstr(text, "淡一点"))
			s -= 15;
	}
	s = s < 0 ? 0 : s > 100 ? 100 : s;
	json_object_set_new(params, "styleStrength", json_integer(s));
	for (x = text; (x = strpbrk(x, "xX*×")) != NULL; x++) {
		const char *p = x;

		while (p > text && isdigit((unsigned char)p[-1]))
			p--;
		w = strtol(p, NULL, 10);
		h = strtol(x + (strncmp(x, "×", strlen("×")) == 0 ? strlen("×") : 1), NULL, 10);
		if (w >= 64 && w <= 4096 && h >= 64 && h <= 4096) {
			json_object_set_new(params, "width", json_integer(w));
			json_object_set_new(params, "height", json_integer(h));
			break;
		}
	}
	if (strstr(text, "高清") || strstr(text, "高分辨率") || strstr(text, "HD") || strstr(text, "4k") ||
	    strstr(text, "4K")) {
		json_object_set_new(params, "width", json_integer(2048));
		json_object_set_new(params, "height", json_integer(2048));
	}
	image_adjust_params(c->state, params);
	snprintf(what, n, "styleStrength %lld, %lldx%lld",
		 (long long)image_param(c->state, "styleStrength"),
		 (long long)image_param(c->state, "width"), (long long)image_param(c->state, "height"));
}

/* Lighter or darker, as the adjustment asks (sent as data, else in its
 * words): words for the prompt, or "". */
static const char *image_adjust_light(const json_t *state, const char *text)
{
	static const char *const brighter[] = { "更亮", "亮一点", "亮一些", "调亮", "brighter", NULL };
	static const char *const darker[] = { "更暗", "暗一点", "暗一些", "调暗", "darker", NULL };
	const char *asked = image_adjust_light_of(state);

	if (asked)
		return strcmp(asked, "brighter") == 0 ? ", brighter lighting" : ", darker low-key lighting";

	for (size_t i = 0; brighter[i]; i++)
		if (strstr(text, brighter[i]))
			return ", brighter lighting";
	for (size_t i = 0; darker[i]; i++)
		if (strstr(text, darker[i]))
			return ", darker low-key lighting";
	return "";
}

/* The prompt of an adjustment: the last picture's (rag kept it as the
 * final prompt), with the light asked for and the new strength. */
static char *image_adjust_prompt(struct step_ctx *c)
{
	const char *final = json_string_value(json_object_get(json_object_get(c->state, "enhancedPrompt"),
							      "final")) ?: "";
	const char *text = json_string_value(json_object_get(json_object_get(c->state, "userInput"),
							     "text")) ?: "";
	char *p;

	if (asprintf(&p, "%s%s, style strength %lld%%", final, image_adjust_light(c->state, text),
		     (long long)image_param(c->state, "styleStrength")) < 0)
		return NULL;
	return p;
}

/* Loads an asset the state names into an image call's base or mask. */
static int image_load_asset(struct step_ctx *c, const char *field, unsigned char **data, size_t *len,
			    char **mime)
{
	const char *id = json_string_value(json_object_get(json_object_get(c->state, "userInput"), field));
	void *d = NULL;
	int rc = id ? store_asset_get(step_store(c), id, mime, &d, len) : STORE_NOTFOUND;

	if (rc != 0 && rc != STORE_NOTFOUND)
		step_store_failed(c, rc);
	if (rc != 0)
		return -1;
	*data = d;
	return 0;
}

/* The inpainting base image and mask (PNG) against [server]
 * inpaint_max_side and inpaint_max_pixel_bytes, from their headers, before
 * a provider inflates them. 0, or -1 with why. */
static int image_inpaint_fits(struct step_ctx *c, const struct image_call *call, char *why, size_t n)
{
	const struct conf *cf = step_conf(c);
	struct pngio_limits lim = { cf->inpaint_max_side, cf->inpaint_max_pixel_bytes };
	const unsigned char *data[2] = { call->base, call->mask };
	const size_t len[2] = { call->base_len, call->mask_len };
	const char *mime[2] = { call->base_mime, call->mask_mime };
	struct pngio_info info;

	for (int k = 0; k < 2; k++) {
		if (data[k] == NULL || mime[k] == NULL || strcmp(mime[k], "image/png") != 0)
			continue;
		if (pngio_info(data[k], len[k], &lim, &info, why, n) == PNGIO_E_TOO_LARGE)
			return -1;
		lim.max_bytes -= info.bytes;
	}
	return 0;
}

static const char *image_task_type(const char *action)
{
	if (strcmp(action, "inpainting") == 0)
		return "inpainting";
	if (strcmp(action, "adjust_parameters") == 0)
		return "parameter_adjustment";
	return "text_to_image";
}

/* Candidates: input.n pictures of one request (1 to IMAGE_CANDIDATES_MAX),
 * the i-th drawn with seed base + i * IMAGE_SEED_STEP, so that the next
 * seed a regeneration takes (base + 1) is none of them. */
#define IMAGE_SEED_STEP 7919u
/* The pictures of a thread remembered for input.variationOf. */
#define IMAGE_PICTURES_KEEP 24

static int image_count(const json_t *state)
{
	json_int_t n = json_integer_value(json_object_get(json_object_get(state, "userInput"), "n"));

	return n >= 1 && n <= IMAGE_CANDIDATES_MAX ? (int)n : 1;
}

/* The turn's seed: input.seed, else the prompt's (a regeneration's). */
static unsigned image_base_seed(const json_t *state)
{
	const json_t *s = json_object_get(json_object_get(state, "userInput"), "seed");

	if (json_is_integer(s))
		return (unsigned)json_integer_value(s);
	return (unsigned)json_integer_value(json_object_get(json_object_get(state, "enhancedPrompt"), "seed"));
}

/* Remembers a picture the thread made (for input.variationOf): its
 * asset, prompt and seed, the last IMAGE_PICTURES_KEEP of them. */
static void image_remember(struct step_ctx *c, const char *id, const char *prompt, unsigned seed,
			   const char *action)
{
	json_t *list = json_object_get(c->state, "pictures");

	if (!json_is_array(list)) {
		list = json_array();
		json_object_set_new(c->state, "pictures", list);
	}
	json_array_append_new(list, json_pack("{s:s, s:s, s:I, s:s}", "assetId", id, "prompt", prompt,
					      "seed", (json_int_t)seed, "taskType", image_task_type(action)));
	while (json_array_size(list) > IMAGE_PICTURES_KEEP)
		json_array_remove(list, 0);
}

/* Stores the image and records executionResult. */
static int image_record(struct step_ctx *c, struct prov_answer *a, const char *prompt,
			const char *action, unsigned seed)
{
	char id[64], url[128];
	json_t *meta;

	if (step_asset_put(c, a->mime, a->data, a->len, id, sizeof id) < 0)
		return -1;
	snprintf(url, sizeof url, "api/assets/%s", id);
	meta = json_pack("{s:s, s:I, s:s, s:s, s:I, s:I, s:I, s:I}", "prompt", prompt, "retryCount",
			 image_retry_count(c->state), "assetId", id, "mime", a->mime, "bytes",
			 (json_int_t)a->len, "width", image_param(c->state, "width"), "height",
			 image_param(c->state, "height"), "styleStrength",
			 image_param(c->state, "styleStrength"));
	if (a->revised_prompt)
		json_object_set_new(meta, "revisedPrompt", json_string(a->revised_prompt));
	json_object_set_new(meta, "seed", json_integer((json_int_t)seed));
	json_object_set_new(c->state, "executionResult", json_pack("{s:s, s:s, s:o}", "imageUrl", url,
						"taskType", image_task_type(action), "metadata", meta));
	image_remember(c, id, prompt, seed, action);
	return 0;
}

/* The other candidates (answers 1..n-1 that came): stored and listed,
 * with the first, as executionResult.candidates [{imageUrl, assetId,
 * seed}]. One that failed is left out. */
static void image_record_more(struct step_ctx *c, struct prov_answer *a, const struct image_call *calls,
			      int n, const char *action)
{
	json_t *res = json_object_get(c->state, "executionResult"), *meta = json_object_get(res, "metadata");
	json_t *list = json_array();
	char id[64], url[128];

	json_array_append_new(list, json_pack("{s:O, s:O, s:O}", "imageUrl", json_object_get(res, "imageUrl"),
					      "assetId", json_object_get(meta, "assetId"), "seed",
					      json_object_get(meta, "seed")));
	for (int i = 1; i < n; i++) {
		if (a[i].status != PROV_OK || step_asset_put(c, a[i].mime, a[i].data, a[i].len, id, sizeof id) < 0)
			continue;
		snprintf(url, sizeof url, "api/assets/%s", id);
		json_array_append_new(list, json_pack("{s:s, s:s, s:I}", "imageUrl", url, "assetId", id, "seed",
						      (json_int_t)calls[i].seed));
		image_remember(c, id, calls[i].prompt, calls[i].seed, action);
	}
	json_object_set_new(res, "candidates", list);
}

/* A failed call: tried again (a step of its own) while retries remain. */
static enum node_rc image_exec_failed(struct step_ctx *c, const struct prov_answer *a)
{
	json_int_t n = image_retry_count(c->state);
	char msg[320];

	if (n < image_conf(c)->max_retries) {
		image_set_retry(c->state, n + 1);
		step_thought(c, "image.retry", prov_status_name(a->status), (long long)n + 1,
			      image_conf(c)->max_retries);
		c->next = "executor";
		return NODE_NEXT;
	}
	snprintf(msg, sizeof msg, "%s: %s", prov_status_name(a->status), a->error);
	c->next = image_set_error(c, "executor_failed", msg);
	return NODE_NEXT;
}

/* The turn's pictures: input.n calls at once, each with its seed; the
 * first is the result the critic reviews, the others its candidates. */
static enum node_rc image_exec_call(struct step_ctx *c, struct image_call *call, const char *action)
{
	struct image_call calls[IMAGE_CANDIDATES_MAX];
	struct prov_answer a[IMAGE_CANDIDATES_MAX];
	int n = image_count(c->state);
	enum node_rc rc;

	for (int i = 0; i < n; i++) {
		calls[i] = *call;
		calls[i].seed = call->seed + (unsigned)i * IMAGE_SEED_STEP;
	}
	step_images(c, calls, (size_t)n, a);
	if (a[0].status != PROV_OK) {
		rc = image_exec_failed(c, &a[0]);
	} else if (image_record(c, &a[0], call->prompt, action, calls[0].seed) < 0) {
		c->next = image_set_error(c, "store_failed", "the image could not be stored");
		rc = NODE_NEXT;
	} else {
		if (n > 1)
			image_record_more(c, a, calls, n, action);
		step_thought(c, "image.done");
		c->next = "critic";
		rc = NODE_NEXT;
	}
	for (int i = 0; i < n; i++)
		prov_answer_free(&a[i]);
	return rc;
}

static const char *image_action_label(const char *action, const char *lang)
{
	if (strcmp(action, "inpainting") == 0)
		return msg_get(lang, "image.action.inpainting");
	if (strcmp(action, "adjust_parameters") == 0)
		return msg_get(lang, "image.action.adjust");
	return msg_get(lang, "image.action.generate");
}

enum node_rc image_executor(struct step_ctx *c)
{
	const struct conf *cf = step_conf(c);
	const char *action = image_action(c->state);
	const char *final = json_string_value(json_object_get(json_object_get(c->state, "enhancedPrompt"),
							      "final")) ?: "";
	struct image_call call = { .prompt = final };
	unsigned char *base = NULL, *mask = NULL;
	char *bmime = NULL, *mmime = NULL, *adj = NULL, what[128], why[200];
	enum node_rc rc;

	c->deadline_ms = clock_mono_ms() + image_conf(c)->executor_timeout_ms + cf->prov[PROV_IMAGE].timeout_ms;
	call.width = (int)image_param(c->state, "width");
	call.height = (int)image_param(c->state, "height");
	step_thought(c, "image.run", image_action_label(action, step_lang(c)));
	if (strcmp(action, "inpainting") == 0) {
		if (image_load_asset(c, "maskAsset", &mask, &call.mask_len, &mmime) < 0 ||
		    image_load_asset(c, "baseAsset", &base, &call.base_len, &bmime) < 0) {
			c->next = image_set_error(c, "mask_required", msg_get(step_lang(c), "image.friendly.mask_required"));
			return NODE_NEXT;
		}
		call.mask = mask, call.mask_mime = mmime, call.base = base, call.base_mime = bmime;
	} else if (strcmp(action, "adjust_parameters") == 0) {
		if (!json_is_object(json_object_get(c->state, "lastResult"))) {
			c->next = image_set_error(c, "nothing_to_adjust", msg_get(step_lang(c), "image.friendly.nothing_to_adjust"));
			return NODE_NEXT;
		}
		image_adjust(c, what, sizeof what);
		step_thought(c, "image.adjust", what);
		adj = image_adjust_prompt(c);
		call.prompt = adj ? adj : final;
		call.width = (int)image_param(c->state, "width");
		call.height = (int)image_param(c->state, "height");
	}
	call.timeout_ms = cf->prov[PROV_IMAGE].timeout_ms;
	/* A regeneration's seed (image_rag_again), kept by an adjustment, and
	 * the request's own words, which the prompt's styles do not change. */
	call.seed = image_base_seed(c->state);
	call.subject = json_string_value(json_object_get(json_object_get(c->state, "enhancedPrompt"),
							 "original"));
	if (call.base && image_inpaint_fits(c, &call, why, sizeof why) < 0) {
		c->next = image_set_error(c, "image_too_large", why);
		rc = NODE_NEXT;
	} else {
		rc = image_exec_call(c, &call, action);
	}
	free(base);
	free(mask);
	free(bmime);
	free(mmime);
	free(adj);
	return rc;
}

/* What an offline picture holds (image_crit.h): read back from the SVG
 * stored; NULL for a picture of another kind or one that cannot be read. */
static json_t *image_critic_composition(struct step_ctx *c)
{
	const json_t *meta = json_object_get(json_object_get(c->state, "executionResult"), "metadata");
	const char *id = json_string_value(json_object_get(meta, "assetId"));
	const char *mime = json_string_value(json_object_get(meta, "mime"));
	char *amime = NULL;
	void *data = NULL;
	size_t len = 0;
	json_t *comp = NULL;
	int rc;

	if (id == NULL || mime == NULL || strcmp(mime, "image/svg+xml") != 0 || step_store(c) == NULL)
		return NULL;
	rc = store_asset_get(step_store(c), id, &amime, &data, &len);
	if (rc != 0 && rc != STORE_NOTFOUND)
		step_store_failed(c, rc);
	if (rc == 0)
		comp = image_svg_composition(data, len);
	free(data);
	free(amime);
	return comp;
}

/* What the critic reviews: the prompt the picture was made from (an
 * adjustment's included), each retrieved style with its fragment, so a
 * fragment in the prompt counts as the style used, and, for an offline
 * picture, what it shows. */
static json_t *image_critic_facts(struct step_ctx *c)
{
	const json_t *state = c->state;
	json_t *f, *comp;
	json_t *intent = json_object_get(state, "intent"), *ep = json_object_get(state, "enhancedPrompt");
	json_t *used = json_object_get(json_object_get(json_object_get(state, "executionResult"),
						       "metadata"), "prompt");
	json_t *styles = json_array(), *r;
	size_t i;

	json_array_foreach(json_object_get(ep, "retrieved"), i, r)
		json_array_append_new(styles, json_pack("{s:O, s:O}", "style", json_object_get(r, "style"),
							"prompt", json_object_get(r, "prompt")));
	f = json_pack("{s:O, s:O, s:O, s:o, s:I, s:I, s:I, s:O, s:s}", "prompt",
		      json_is_string(used) ? used : json_object_get(ep, "final"), "subject",
		      json_object_get(intent, "subject"),
		      "style", json_object_get(intent, "style"), "retrievedStyles", styles, "width",
		      image_param(state, "width"), "height", image_param(state, "height"),
		      "styleStrength", image_param(state, "styleStrength"), "action",
		      json_object_get(intent, "action"), "lang", image_zh(state) ? "zh" : "en");
	if ((comp = image_critic_composition(c)) != NULL)
		json_object_set_new(f, "composition", comp);
	return f;
}

/* A model's review bounded by the critic's own checks: a prompt that lost
 * its subject or its asked style, or parameters out of range, do not pass
 * whatever the model scored; the checks' reasons come first. */
static void image_review_bound(json_t *q, const json_t *facts)
{
	json_t *checks = image_rules_critique_checks(facts);
	json_t *defects = json_object_get(checks, "defects"), *v;
	const char *said = json_string_value(json_object_get(q, "feedback")) ?: "";
	double score = json_number_value(json_object_get(q, "score"));
	struct buf b;
	size_t i;

	if (json_array_size(defects) > 0) {
		buf_init(&b, 512);
		json_array_foreach(defects, i, v)
			buf_printf(&b, "%s%s", i ? "; " : "", json_string_value(v));
		if (*said)
			buf_printf(&b, " | %s", said);
		json_object_set_new(q, "passed", json_false());
		json_object_set_new(q, "score", json_real(jnum_round(score < IMAGE_RULE_CAP ? score
								: IMAGE_RULE_CAP, JNUM_SCORE)));
		json_object_set_new(q, "feedback", json_string(b.data));
		json_object_set(q, "ruleDefects", defects);
		json_array_extend(json_object_get(q, "suggestions"),
				  json_object_get(checks, "suggestions"));
		buf_free(&b);
	}
	json_decref(checks);
}

/* The review; a failing reviewer lets the result pass (seed 000 §3.4). */
static json_t *image_review(struct step_ctx *c)
{
	json_t *facts = image_critic_facts(c), *q;
	char *fjson = jtext(facts, JSON_COMPACT);
	json_t *msgs = json_pack("[{s:s, s:s}, {s:s, s:s}]", "role", "system", "content",
		"你是一个图像质量审查助手。请评估生成的图片是否满足用户需求。评估维度：1. 是否符合用户意图；"
		"2. 是否包含用户要求的主体；3. 风格是否匹配。请以 JSON 格式返回：{\"passed\": true/false, "
		"\"score\": 0.0-1.0, \"feedback\": \"评估反馈\", \"suggestions\": [\"改进建议\"]}",
		"role", "user", "content", fjson ? fjson : "{}");
	struct chat_call call = { .task = "critique", .rules = image_rules_task_critique, .messages = msgs,
				  .facts = facts,
				  .temperature = 0.2, .json_mode = 1,
				  .timeout_ms = image_conf(c)->critic_timeout_ms };
	struct prov_answer a;

	step_chat(c, &call, &a);
	if (a.status == PROV_OK && json_is_number(json_object_get(a.json, "score"))) {
		double score = json_number_value(json_object_get(a.json, "score"));
		json_t *sugg = json_object_get(a.json, "suggestions");

		q = json_pack("{s:b, s:f, s:s, s:o}", "passed",
			      json_is_boolean(json_object_get(a.json, "passed"))
				      ? json_is_true(json_object_get(a.json, "passed")) : score >= 0.6,
			      "score", jnum_round(score, JNUM_SCORE), "feedback",
			      json_string_value(json_object_get(a.json, "feedback")) ?: "",
			      "suggestions", json_is_array(sugg) ? json_copy(sugg) : json_array());
		if (json_is_object(json_object_get(a.json, "picture")))
			json_object_set(q, "picture", json_object_get(a.json, "picture"));
		if (!a.by_rules)
			image_review_bound(q, facts);
	} else {
		q = json_pack("{s:b, s:f, s:s, s:[], s:s}", "passed", 1, "score", 0.6, "feedback",
			      msg_get(step_lang(c), "image.review.skipped"), "suggestions", "reviewError", prov_status_name(a.status));
	}
	prov_answer_free(&a);
	json_decref(msgs);
	json_decref(facts);
	free(fjson);
	return q;
}

enum node_rc image_critic(struct step_ctx *c)
{
	json_t *q;
	double score;
	int passed;
	json_int_t n = image_retry_count(c->state);

	step_thought(c, "image.review.start");
	q = image_review(c);
	json_object_set_new(c->state, "qualityCheck", q);
	score = json_number_value(json_object_get(q, "score"));
	passed = json_is_true(json_object_get(q, "passed"));
	step_thought(c, "image.review.done", score * 100,
		      msg_get(step_lang(c), passed ? "image.review.passed" : "image.review.needs_work"));
	if (!passed && n < image_conf(c)->max_retries) {
		image_set_retry(c->state, n + 1);
		c->next = "rag";
	} else {
		c->next = "genui";
	}
	return NODE_NEXT;
}

/* gen_ui_component events and the state's uiComponents. */
static void image_component(struct step_ctx *c, json_t *component)
{
	json_t *ev = step_event(c, "gen_ui_component");

	json_array_append(json_object_get(c->state, "uiComponents"), component);
	json_object_set_new(ev, "component", component);
	step_emit(c, ev);
}

/* The actions under a finished picture: regenerate is always there (seed
 * 000's executor panel), whatever the review said. */
static json_t *image_actions(const char *lang)
{
	json_t *a = json_array();

	json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "id", "regenerate_btn", "label",
					   msg_get(lang, "image.button.regenerate"), "type", "button"));
	json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "id", "adjust_btn", "label",
					   msg_get(lang, "image.button.adjust"), "type", "button"));
	json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "id", "inpaint_btn", "label",
					   msg_get(lang, "image.button.inpaint"), "type", "button"));
	return a;
}

enum node_rc image_genui(struct step_ctx *c)
{
	json_t *res = json_object_get(c->state, "executionResult");
	json_t *q = json_object_get(c->state, "qualityCheck"), *sugg = json_object_get(q, "suggestions");
	const char *url = json_string_value(json_object_get(res, "imageUrl")) ?: "";
	double score = json_number_value(json_object_get(q, "score"));
	int passed = json_is_true(json_object_get(q, "passed"));
	char text[1024];
	size_t i, n;
	json_t *s, *canvas;

	n = (size_t)snprintf(text, sizeof text, msg_get(step_lang(c), "image.complete"), score * 100);
	json_array_foreach(sugg, i, s)
		if (n < sizeof text)
			n += (size_t)snprintf(text + n, sizeof text - n, " %s", json_string_value(s) ?: "");
	canvas = json_pack("{s:s, s:{s:s, s:s}}", "widgetType", "SmartCanvas", "props", "imageUrl", url,
			   "mode", "view");
	/* Several pictures asked for: all of them, the first shown large. */
	if (json_array_size(json_object_get(res, "candidates")) > 1)
		json_object_set(json_object_get(canvas, "props"), "candidates",
				json_object_get(res, "candidates"));
	image_component(c, canvas);
	image_component(c, json_pack("{s:s, s:{s:o}}", "widgetType", "ActionPanel", "props", "actions",
				     image_actions(step_lang(c))));
	image_component(c, json_pack("{s:s, s:{s:s, s:s, s:b}}", "widgetType", "AgentMessage", "props",
				     "text", text, "state", "success", "isThinking", 0));
	json_array_append_new(json_object_get(c->state, "messages"),
			      json_pack("{s:s, s:s, s:I}", "role", "assistant", "content", text,
					"timestamp", (json_int_t)clock_wall_ms()));
	json_object_set_new(c->state, "result", json_pack("{s:s, s:O, s:f, s:b}", "imageUrl", url,
				"taskType", json_object_get(res, "taskType"), "score", jnum_round(score, JNUM_SCORE), "passed", passed));
	return NODE_END;
}

/* Words a person understands, by error code. */
static const char *image_friendly(const char *code, const char *lang)
{
	char id[96];
	const char *text;

	snprintf(id, sizeof id, "image.friendly.%s", code);
	text = msg_find(lang, id);
	return text ? text : msg_get(lang, "image.friendly.other");
}

enum node_rc image_error_handler(struct step_ctx *c)
{
	json_t *err = json_object_get(c->state, "error"), *ev;
	const char *code = json_string_value(json_object_get(err, "code")) ?: "unknown_error";

	if (!json_is_object(err)) {
		json_object_set_new(c->state, "error", json_pack("{s:s, s:s, s:s}", "code", code,
								  "message", msg_get(step_lang(c), "image.friendly.other"), "node", "unknown"));
		err = json_object_get(c->state, "error");
	}
	ev = step_event(c, "error");
	json_object_set(ev, "code", json_object_get(err, "code"));
	json_object_set_new(ev, "message", json_string(image_friendly(code, step_lang(c))));
	if (strcmp(json_string_value(json_object_get(err, "message")) ?: "",
		   image_friendly(code, step_lang(c))) != 0)
		json_object_set(ev, "detail", json_object_get(err, "message"));
	json_object_set(ev, "node", json_object_get(err, "node"));
	step_emit(c, ev);
	image_component(c, json_pack("{s:s, s:{s:s, s:s, s:b}}", "widgetType", "AgentMessage", "props",
				     "state", "failed", "text", image_friendly(code, step_lang(c)), "isThinking", 0));
	json_object_set_new(c->state, "result", json_pack("{s:O}", "error", err));
	return NODE_END;
}
