/* OpenAI-compatible services (DeepSeek, Qwen's compatible mode, OpenAI):
 * chat completions, plain or streamed, with JSON mode; image generation;
 * web search as Qwen offers it (a chat completion with enable_search);
 * embeddings; function calling (tools sent, tool_calls read back with
 * their arguments parsed). The requests and the reading of the replies live here; the
 * HTTP side (keys, limits, retries) is http.c's. Inpainting (the image
 * and its mask) and pictures guided by a reference image (the reference
 * as the image, no mask) go to /images/edits as multipart forms. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "json/dump.h"
#include "prov/http.h"
#include "prov/prov.h"
#include "prov/sse_delta.h"
#include "util/xmalloc.h"
#include "util/pngio.h"

#define OPENAI_EMBED_BATCH 10   /* the smallest batch limit among the services (DashScope v3) */

static const char openai_search_prompt[] =
	"Search the web for the question below and answer with the facts that bear on it: "
	"short sentences, with dates, figures and names where they matter, in the language "
	"of the question. Say so plainly when nothing reliable is found.";

/* -- replies ------------------------------------------------------------------------ */

/* A JSON object from a reply body, or NULL after prov_fail. New reference. */
static json_t *openai_parse(struct http_reply *r, struct prov_answer *a)
{
	json_t *j = json_loadb(r->body.data ? r->body.data : "", r->body.len, 0, NULL); /* new */

	if (!json_is_object(j)) {
		json_decref(j);
		prov_fail(a, PROV_BAD_ANSWER, "the provider's reply is not a JSON object");
		return NULL;
	}
	return j;
}

/* choices[0].message.content into a->text, usage into a->usage. */
static int openai_chat_read(struct http_reply *r, struct prov_answer *a)
{
	json_t *j = openai_parse(r, a);   /* new */
	json_t *msg, *usage;              /* borrowed */
	const char *text;

	if (j == NULL)
		return -1;
	msg = json_object_get(json_array_get(json_object_get(j, "choices"), 0), "message");
	text = json_string_value(json_object_get(msg, "content"));
	usage = json_object_get(j, "usage");
	if (json_is_object(usage))
		a->usage = json_incref(usage);
	if (text == NULL) {
		const char *refusal = json_string_value(json_object_get(msg, "refusal"));

		if (refusal)
			prov_fail(a, PROV_REFUSED, "the model refused: %.160s", refusal);
		else
			prov_fail(a, PROV_BAD_ANSWER, "the reply has no choices[0].message.content");
		json_decref(j);
		return -1;
	}
	a->text = xstrdup(text);
	json_decref(j);
	return 0;
}

/* One entry of message.tool_calls, {id, type, function: {name, arguments:
 * a JSON string}}, as {"id", "name", "arguments": object}: new reference,
 * or NULL when it is malformed. */
static json_t *openai_tool_call(const json_t *tc, size_t i)
{
	const json_t *fn = json_object_get(tc, "function");
	const char *name = json_string_value(json_object_get(fn, "name"));
	const char *args = json_string_value(json_object_get(fn, "arguments"));
	const char *id = json_string_value(json_object_get(tc, "id"));
	json_t *obj;
	char gen[32];

	if (name == NULL || *name == '\0')
		return NULL;
	obj = args && *args ? json_loads(args, JSON_REJECT_DUPLICATES, NULL) : json_object();
	if (!json_is_object(obj)) {
		json_decref(obj);
		return NULL;
	}
	if (id == NULL || *id == '\0') {
		snprintf(gen, sizeof gen, "call_%zu", i + 1);
		id = gen;
	}
	return json_pack("{s:s, s:s, s:o}", "id", id, "name", name, "arguments", obj);
}

/* message.tool_calls into a->tool_calls: 0, none 1, or -1 after prov_fail
 * (one call's arguments that do not parse spoil the whole answer). */
static int openai_tool_calls_read(const json_t *msg, struct prov_answer *a)
{
	const json_t *tcs = json_object_get(msg, "tool_calls"), *tc;
	json_t *out;
	size_t i;

	if (!json_is_array(tcs) || json_array_size(tcs) == 0)
		return 1;
	out = json_array();
	json_array_foreach(tcs, i, tc) {
		json_t *one = openai_tool_call(tc, i);

		if (one == NULL) {
			json_decref(out);
			return prov_fail(a, PROV_BAD_ANSWER,
					 "the reply's tool call %zu has no name or bad arguments", i);
		}
		json_array_append_new(out, one);
	}
	a->tool_calls = out;
	return 0;
}

/* A reply to a call with tools: the tool calls, the text, or both. */
static int openai_chat_read_tools(struct http_reply *r, struct prov_answer *a)
{
	json_t *j = openai_parse(r, a);   /* new */
	json_t *msg, *usage;              /* borrowed */
	const char *text;
	int rc;

	if (j == NULL)
		return -1;
	msg = json_object_get(json_array_get(json_object_get(j, "choices"), 0), "message");
	usage = json_object_get(j, "usage");
	if (json_is_object(usage))
		a->usage = json_incref(usage);
	text = json_string_value(json_object_get(msg, "content"));
	rc = openai_tool_calls_read(msg, a);
	if (rc == 1 && text == NULL)
		rc = prov_fail(a, PROV_BAD_ANSWER, "the reply has neither content nor tool_calls");
	if (rc >= 0 && text)
		a->text = xstrdup(text);
	json_decref(j);
	return rc < 0 ? -1 : 0;
}

/* -- chat ------------------------------------------------------------------------------ */

struct openai_chat {
	const struct chat_call *call;
	struct prov_answer *a;
	struct sse_delta sse;
};

static int openai_mentions_json(const json_t *messages)
{
	size_t i;
	json_t *m;      /* borrowed */

	json_array_foreach(messages, i, m) {
		const char *s = json_string_value(json_object_get(m, "content"));

		if (s && strcasestr(s, "json"))
			return 1;
	}
	return 0;
}

/* The messages to send: the call's, or, for a call made only of a task
 * and facts, one user message holding them. JSON mode needs the word
 * "json" in the messages (the services refuse it otherwise): a short
 * system line says it when the caller's prompt does not. New reference. */
static json_t *openai_messages_new(const struct chat_call *c)
{
	json_t *m;

	if (json_is_array(c->messages) && json_array_size(c->messages) > 0) {
		m = json_deep_copy(c->messages);
	} else {
		char *facts = c->facts ? jtext(c->facts, JSON_COMPACT) : NULL;
		char *text = xasprintf("%s%s%s", c->task ? c->task : "chat", facts ? "\n" : "",
				       facts ? facts : "");

		m = json_array();
		json_array_append_new(m, json_pack("{s:s, s:s}", "role", "user", "content", text));
		free(text);
		free(facts);
	}
	if (c->json_mode && !openai_mentions_json(m))
		json_array_insert_new(m, 0, json_pack("{s:s, s:s}", "role", "system", "content",
						      "Answer with one JSON object."));
	return m;
}

static json_t *openai_chat_body(const struct conf_provider *cf, const struct chat_call *c)
{
	double t = c->temperature < 0 ? 0 : c->temperature > 2 ? 2 : c->temperature;
	json_t *b = json_object();      /* new */

	json_object_set_new(b, "model", json_string(cf->model));
	json_object_set_new(b, "messages", openai_messages_new(c));
	json_object_set_new(b, "temperature", json_real(t));
	json_object_set_new(b, "stream", json_boolean(c->stream && c->tools == NULL));
	if (json_array_size(c->tools) > 0)
		json_object_set_new(b, "tools", json_deep_copy(c->tools));
	if (c->stream && c->tools == NULL)
		json_object_set_new(b, "stream_options", json_pack("{s:b}", "include_usage", 1));
	if (c->json_mode)
		json_object_set_new(b, "response_format", json_pack("{s:s}", "type", "json_object"));
	return b;
}

static int openai_chat_stream(struct http_xfer *x, const char *p, size_t n, void *ctx)
{
	struct openai_chat *st = ctx;

	return sse_delta_feed(&st->sse, p, n, st->a);
}

static void openai_chat_reply(struct http_xfer *x, struct http_reply *r, void *ctx)
{
	struct openai_chat *st = ctx;
	const char *body = r->body.data ? r->body.data : "";

	if (st->call->tools) {
		openai_chat_read_tools(r, st->a);
		return;
	}
	if (!st->call->stream) {
		openai_chat_read(r, st->a);
		return;
	}
	/* An event stream sent without its media type is read here whole;
	 * a plain JSON reply to a streamed request is read as one. */
	if (strncmp(body, "data:", 5) == 0 && sse_delta_feed(&st->sse, body, r->body.len, st->a) < 0)
		return;
	if (r->body.len == 0 || strncmp(body, "data:", 5) == 0)
		sse_delta_finish(&st->sse, st->a);
	else if (openai_chat_read(r, st->a) == 0 && st->sse.delta)
		st->sse.delta(st->sse.ctx, st->a->text);
}

static const struct http_cb openai_chat_cb = {
	.reply = openai_chat_reply,
	.stream = openai_chat_stream,
};

static int openai_count_ok(const struct prov_answer *out, size_t n)
{
	int ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += out[i].status == PROV_OK;
	return ok;
}

static int openai_chat(struct prov *p, const struct conf_provider *cf, const struct chat_call *calls,
		       size_t n, const struct prov_hooks *h, struct prov_answer *out)
{
	struct http *hh = http_new(prov_conf(p), h);
	struct openai_chat *st = xcalloc(n ? n : 1, sizeof *st);
	int ok;

	for (size_t i = 0; i < n; i++) {
		/* A call may name its own provider (chat_call.provider). */
		const struct conf_provider *pc = calls[i].provider ? calls[i].provider : cf;
		char *url = http_url(pc->base_url, "chat/completions");
		json_t *body = openai_chat_body(pc, &calls[i]);    /* new */
		struct http_xfer *x = http_add(hh, pc, calls[i].timeout_ms, &openai_chat_cb, &st[i],
					       &out[i]);

		st[i].call = &calls[i];
		st[i].a = &out[i];
		sse_delta_init(&st[i].sse, (size_t)pc->max_response_bytes, h ? h->delta : NULL,
			       h ? h->ctx : NULL);
		http_xfer_send(x, "POST", url, body,
			       HTTP_AUTH | (calls[i].stream && !calls[i].tools ? HTTP_STREAM : 0), 0);
		json_decref(body);
		free(url);
	}
	http_run(hh);
	http_free(hh);
	for (size_t i = 0; i < n; i++)
		sse_delta_free(&st[i].sse);
	free(st);
	ok = openai_count_ok(out, n);
	return ok;
}

/* -- images ------------------------------------------------------------------------------ */

struct openai_image {
	struct prov_answer *a;
	int downloading;
};

/* data[0].b64_json, decoded (standard base64 with padding). */
static int openai_image_b64(const char *b64, struct prov_answer *a)
{
	size_t n = strlen(b64), max = n / 4 * 3 + 3, len = 0;
	unsigned char *bin = xmalloc(max);
	const char *end = NULL, *mime;

	if (sodium_base642bin(bin, max, b64, n, " \r\n", &len, &end,
			      sodium_base64_VARIANT_ORIGINAL) != 0 || end != b64 + n || len == 0) {
		free(bin);
		return prov_fail(a, PROV_BAD_ANSWER, "the image's base64 does not decode");
	}
	mime = http_image_sniff(bin, len);
	if (mime == NULL) {
		free(bin);
		return prov_fail(a, PROV_BAD_ANSWER, "the provider's image is in no known format");
	}
	a->data = bin;
	a->len = len;
	snprintf(a->mime, sizeof a->mime, "%s", mime);
	return 0;
}

static void openai_image_reply(struct http_xfer *x, struct http_reply *r, void *ctx)
{
	struct openai_image *st = ctx;
	json_t *j, *d;          /* new, borrowed */
	const char *b64, *url, *revised;

	if (st->downloading) {
		http_take_image(r, st->a);
		return;
	}
	if ((j = openai_parse(r, st->a)) == NULL)
		return;
	d = json_array_get(json_object_get(j, "data"), 0);
	b64 = json_string_value(json_object_get(d, "b64_json"));
	url = json_string_value(json_object_get(d, "url"));
	revised = json_string_value(json_object_get(d, "revised_prompt"));
	if (revised)
		st->a->revised_prompt = xstrdup(revised);
	if (b64) {
		openai_image_b64(b64, st->a);
	} else if (url && (strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0)) {
		st->downloading = 1;
		http_xfer_send(x, "GET", url, NULL, HTTP_DOWNLOAD, 0);
	} else {
		prov_fail(st->a, PROV_BAD_ANSWER, "the reply has no image (data[0].b64_json or url)");
	}
	json_decref(j);
}

static const struct http_cb openai_image_cb = { .reply = openai_image_reply };

static json_t *openai_image_body(const struct conf_provider *cf, const struct image_call *c)
{
	char size[32];

	snprintf(size, sizeof size, "%dx%d", c->width > 0 ? c->width : 1024,
		 c->height > 0 ? c->height : 1024);
	return json_pack("{s:s?, s:s, s:s, s:i, s:s}", "model", cf->model, "prompt", c->prompt,
			 "size", size, "n", 1, "response_format", "b64_json");   /* new */
}

/* The mask arrives as painted (white = repaint); an images/edits service
 * wants the area to repaint transparent, on the image's own size. Both
 * are decoded within lim ([server] inpaint_max_side and
 * inpaint_max_pixel_bytes, for the two together). */
static int openai_mask(const struct image_call *c, const struct pngio_limits *lim, struct buf *img,
		       struct buf *mask, char *why, size_t n)
{
	struct pngio_image base, m;
	struct pngio_limits left = *lim;
	int rc = -1;

	if (c->base_mime == NULL || strcmp(c->base_mime, "image/png") != 0 ||
	    c->mask_mime == NULL || strcmp(c->mask_mime, "image/png") != 0)
		return snprintf(why, n, "this provider repaints PNG images with a PNG mask"), -1;
	if (pngio_decode(c->base, c->base_len, &left, &base, why, n) < 0)
		return -1;
	left.max_bytes -= (long long)base.w * base.h * 4;
	if (pngio_decode(c->mask, c->mask_len, &left, &m, why, n) == 0) {
		if (m.w != base.w || m.h != base.h) {
			snprintf(why, n, "the mask (%dx%d) is not the size of the image (%dx%d)", m.w, m.h,
				 base.w, base.h);
		} else {
			for (size_t i = 0; i < (size_t)m.w * (size_t)m.h; i++) {
				unsigned char *px = m.rgba + i * 4;
				int white = px[3] >= 128 && (px[0] * 299 + px[1] * 587 + px[2] * 114) / 1000 >= 128;

				px[0] = px[1] = px[2] = 0;
				px[3] = white ? 0 : 255;
			}
			rc = pngio_encode(&base, img) == 0 && pngio_encode(&m, mask) == 0 ? 0 : -1;
			if (rc < 0)
				snprintf(why, n, "the image is too large to send");
		}
		pngio_image_free(&m);
	}
	pngio_image_free(&base);
	return rc;
}

/* An inpainting: POST images/edits as a multipart form. */
static void openai_edit(struct http *hh, const struct conf_provider *cf, const struct image_call *c,
			const struct pngio_limits *lim, struct openai_image *st, struct prov_answer *a)
{
	struct buf img, mask;
	char size[32], why[200], *url;

	buf_init(&img, (size_t)cf->max_response_bytes);
	buf_init(&mask, (size_t)cf->max_response_bytes);
	snprintf(size, sizeof size, "%dx%d", c->width > 0 ? c->width : 1024,
		 c->height > 0 ? c->height : 1024);
	if (c->base == NULL || c->mask == NULL || c->prompt == NULL) {
		prov_fail(a, PROV_REFUSED, "inpainting needs an image, a mask and a prompt");
	} else if (openai_mask(c, lim, &img, &mask, why, sizeof why) < 0) {
		prov_fail(a, PROV_REFUSED, "%s", why);
	} else {
		struct http_part parts[] = {
			{ "model", cf->model, strlen(cf->model), NULL, NULL },
			{ "prompt", c->prompt, strlen(c->prompt), NULL, NULL },
			{ "n", "1", 1, NULL, NULL },
			{ "size", size, strlen(size), NULL, NULL },
			{ "response_format", "b64_json", 8, NULL, NULL },
			{ "image", img.data, img.len, "image.png", "image/png" },
			{ "mask", mask.data, mask.len, "mask.png", "image/png" },
		};

		url = http_url(cf->base_url, "images/edits");
		http_xfer_send_form(http_add(hh, cf, c->timeout_ms, &openai_image_cb, st, a), url, parts,
				    sizeof parts / sizeof parts[0], HTTP_AUTH);
		free(url);
	}
	buf_free(&img);
	buf_free(&mask);
}

/* A picture guided by a reference image: POST images/edits as a
 * multipart form with the reference as the image and no mask (the
 * services that take several references read the same field). */
static void openai_ref(struct http *hh, const struct conf_provider *cf, const struct image_call *c,
		       struct openai_image *st, struct prov_answer *a)
{
	char size[32], name[32], *url;
	const char *ext = strchr(c->ref_mime ? c->ref_mime : "", '/');

	snprintf(size, sizeof size, "%dx%d", c->width > 0 ? c->width : 1024,
		 c->height > 0 ? c->height : 1024);
	snprintf(name, sizeof name, "reference.%.8s", ext && strcmp(ext, "/svg+xml") ? ext + 1 : "img");
	if (c->ref_mime == NULL || strncmp(c->ref_mime, "image/", 6) != 0 ||
	    strcmp(c->ref_mime, "image/svg+xml") == 0) {
		/* The services read raster images only: the prompt alone. */
		snprintf(a->ref_note, sizeof a->ref_note, "a %s reference cannot be sent to this provider",
			 c->ref_mime ? c->ref_mime : "typeless");
		return;
	}
	struct http_part parts[] = {
		{ "model", cf->model, strlen(cf->model), NULL, NULL },
		{ "prompt", c->prompt, strlen(c->prompt), NULL, NULL },
		{ "n", "1", 1, NULL, NULL },
		{ "size", size, strlen(size), NULL, NULL },
		{ "response_format", "b64_json", 8, NULL, NULL },
		{ "image", c->ref, c->ref_len, name, c->ref_mime },
	};

	a->ref_used = 1;
	url = http_url(cf->base_url, "images/edits");
	http_xfer_send_form(http_add(hh, cf, c->timeout_ms, &openai_image_cb, st, a), url, parts,
			    sizeof parts / sizeof parts[0], HTTP_AUTH);
	free(url);
}

static int openai_image(struct prov *p, const struct conf_provider *cf, const struct image_call *calls,
			size_t n, const struct prov_hooks *h, struct prov_answer *out)
{
	struct http *hh = http_new(prov_conf(p), h);
	struct openai_image *st = xcalloc(n ? n : 1, sizeof *st);
	char *url = http_url(cf->base_url, "images/generations");
	const struct pngio_limits lim = { prov_conf(p)->inpaint_max_side,
					  prov_conf(p)->inpaint_max_pixel_bytes };
	int ok;

	for (size_t i = 0; i < n; i++) {
		const struct image_call *c = &calls[i];
		json_t *body;

		st[i].a = &out[i];
		if (c->base || c->mask) {
			openai_edit(hh, cf, c, &lim, &st[i], &out[i]);
			continue;
		}
		if (c->prompt == NULL || c->prompt[0] == '\0') {
			prov_fail(&out[i], PROV_REFUSED, "an image needs a prompt");
			continue;
		}
		if (c->ref && c->ref_len) {
			openai_ref(hh, cf, c, &st[i], &out[i]);
			if (out[i].ref_used)
				continue;
		}
		body = openai_image_body(cf, c);
		if (body == NULL) {
			prov_fail(&out[i], PROV_REFUSED, "the prompt is not valid UTF-8");
			continue;
		}
		http_xfer_send(http_add(hh, cf, c->timeout_ms, &openai_image_cb, &st[i], &out[i]),
			       "POST", url, body, HTTP_AUTH, 0);
		json_decref(body);
	}
	http_run(hh);
	http_free(hh);
	free(st);
	free(url);
	ok = openai_count_ok(out, n);
	return ok;
}

/* -- web search ---------------------------------------------------------------------------- */

static void openai_search_reply(struct http_xfer *x, struct http_reply *r, void *ctx)
{
	struct prov_answer *a = ctx;

	if (openai_chat_read(r, a) < 0)
		return;
	if (a->text[strspn(a->text, " \t\r\n")] == '\0')
		prov_fail(a, PROV_BAD_ANSWER, "the search gave no facts");
}

static const struct http_cb openai_search_cb = { .reply = openai_search_reply };

static int openai_search(struct prov *p, const struct conf_provider *cf, const char *query,
			 long timeout_ms, const struct prov_hooks *h, struct prov_answer *out)
{
	struct http *hh;
	char *url;
	json_t *body;

	if (query == NULL || query[0] == '\0')
		return prov_fail(out, PROV_REFUSED, "a search needs a question");
	hh = http_new(prov_conf(p), h);
	url = http_url(cf->base_url, "chat/completions");
	body = json_pack("{s:s?, s:[{s:s, s:s}, {s:s, s:s}], s:b, s:b}", "model", cf->model,
			 "messages", "role", "system", "content", openai_search_prompt,
			 "role", "user", "content", query, "enable_search", 1, "stream", 0); /* new */
	if (body == NULL) {
		prov_fail(out, PROV_REFUSED, "the question is not valid UTF-8");
	} else {
		http_xfer_send(http_add(hh, cf, timeout_ms, &openai_search_cb, out, out), "POST", url,
			       body, HTTP_AUTH, 0);
		http_run(hh);
	}
	json_decref(body);
	http_free(hh);
	free(url);
	return out->status == PROV_OK ? 0 : -1;
}

/* -- embeddings ------------------------------------------------------------------------------ */

struct openai_embed {
	struct prov_answer a;   /* this batch's */
	size_t count;
};

/* data[i].embedding placed by data[i].index: every index once. */
static int openai_embed_place(json_t *data, size_t count, json_t *vectors, struct prov_answer *a)
{
	size_t i;
	json_t *d;      /* borrowed */

	if (json_array_size(data) != count)
		return prov_fail(a, PROV_BAD_ANSWER, "the reply has %zu embeddings for %zu texts",
				 json_array_size(data), count);
	json_array_foreach(data, i, d) {
		json_t *idx = json_object_get(d, "index"), *e = json_object_get(d, "embedding");
		json_int_t k = json_is_integer(idx) ? json_integer_value(idx) : (json_int_t)i;

		if (k < 0 || (size_t)k >= count || !json_is_array(e) || json_array_size(e) == 0 ||
		    !json_is_null(json_array_get(vectors, (size_t)k)))
			return prov_fail(a, PROV_BAD_ANSWER, "the reply's embedding %zu is malformed", i);
		json_array_set(vectors, (size_t)k, e);
	}
	return 0;
}

static void openai_embed_reply(struct http_xfer *x, struct http_reply *r, void *ctx)
{
	struct openai_embed *st = ctx;
	json_t *j = openai_parse(r, &st->a);   /* new */
	json_t *vectors;

	if (j == NULL)
		return;
	vectors = json_array();
	for (size_t i = 0; i < st->count; i++)
		json_array_append_new(vectors, json_null());
	if (openai_embed_place(json_object_get(j, "data"), st->count, vectors, &st->a) == 0)
		st->a.vectors = json_incref(vectors);
	json_decref(vectors);
	json_decref(j);
}

static const struct http_cb openai_embed_cb = { .reply = openai_embed_reply };

/* The batches' answers into one: the first failure, or every vector in
 * input order. */
static void openai_embed_merge(struct openai_embed *st, size_t nb, struct prov_answer *out)
{
	out->vectors = json_array();
	for (size_t b = 0; b < nb; b++) {
		if (st[b].a.status != PROV_OK) {
			prov_fail(out, st[b].a.status, "%s", st[b].a.detail);
			out->http_status = st[b].a.http_status;
			json_decref(out->vectors);
			out->vectors = NULL;
			return;
		}
		json_array_extend(out->vectors, st[b].a.vectors);
		out->http_status = st[b].a.http_status;
	}
}

static int openai_embed(struct prov *p, const struct conf_provider *cf, const json_t *texts,
			const struct prov_hooks *h, struct prov_answer *out)
{
	size_t n = json_array_size(texts), nb = (n + OPENAI_EMBED_BATCH - 1) / OPENAI_EMBED_BATCH;
	struct openai_embed *st;
	struct http *hh;
	char *url;

	if (!json_is_array(texts))
		return prov_fail(out, PROV_REFUSED, "the texts to embed must be an array");
	for (size_t i = 0; i < n; i++)
		if (!json_is_string(json_array_get(texts, i)))
			return prov_fail(out, PROV_REFUSED, "the texts to embed must be strings");
	st = xcalloc(nb ? nb : 1, sizeof *st);
	hh = http_new(prov_conf(p), h);
	url = http_url(cf->base_url, "embeddings");
	for (size_t b = 0; b < nb; b++) {
		json_t *input = json_array(), *body;      /* new, new */

		st[b].count = b + 1 < nb ? OPENAI_EMBED_BATCH : n - b * OPENAI_EMBED_BATCH;
		for (size_t i = 0; i < st[b].count; i++)
			json_array_append(input, json_array_get(texts, b * OPENAI_EMBED_BATCH + i));
		body = json_pack("{s:s?, s:o}", "model", cf->model, "input", input);  /* steals input */
		http_xfer_send(http_add(hh, cf, 0, &openai_embed_cb, &st[b], &st[b].a), "POST", url,
			       body, HTTP_AUTH, 0);
		json_decref(body);
	}
	http_run(hh);
	openai_embed_merge(st, nb, out);
	for (size_t b = 0; b < nb; b++)
		prov_answer_free(&st[b].a);
	http_free(hh);
	free(st);
	free(url);
	return out->status == PROV_OK ? 0 : -1;
}

const struct prov_ops prov_openai_ops = {
	openai_chat,
	openai_image,
	openai_search,
	openai_embed,
};
