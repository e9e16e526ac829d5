/* The embedded offline provider: the default vendor for every role, so
 * the product runs and is tested with no key and no network. Chat calls
 * are answered from the call's facts, with the JSON shapes a real model is
 * asked for: by the rules the call carries (a workflow's own tasks, kept
 * beside its prompts in src/wf/), else by the generic tasks of the table
 * below (conversation, summaries); images are scenes of what the
 * prompt asks (svg.c, scene.c), in a reference image's dominant colours when the call
 * has one (media/palette.c); web search and embeddings are not offered, and callers
 * take their fallback paths. Deterministic: the same call always gets
 * the same answer. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "prov/offline.h"
#include "prov/prov.h"
#include "prov/svg.h"
#include "media/palette.h"
#include "media/pixels.h"
#include "util/xmalloc.h"

struct offline_task {
	const char *name;
	offline_task_fn fn;
	const char *reply;   /* prose tasks: the member that is the reply text */
};

static const struct offline_task offline_tasks[] = {
	{ "chat", offline_task_chat, "reply" },
	{ "summarize", offline_task_summarize, NULL },
};

static const struct offline_task *offline_task_find(const char *name)
{
	for (size_t i = 0; i < sizeof offline_tasks / sizeof offline_tasks[0]; i++)
		if (strcmp(offline_tasks[i].name, name) == 0)
			return &offline_tasks[i];
	return NULL;
}

/* A message's text: a string, or the first text part of a parts array. */
static const char *offline_content(const json_t *m)
{
	const json_t *c = json_object_get(m, "content"), *part;
	size_t i;

	if (json_is_string(c))
		return json_string_value(c);
	json_array_foreach(c, i, part) {
		const char *type = json_string_value(json_object_get(part, "type"));

		if (type && strcmp(type, "text") == 0 && json_is_string(json_object_get(part, "text")))
			return json_string_value(json_object_get(part, "text"));
	}
	return NULL;
}

/* facts.text, else the last user message, else "". Borrowed. */
static const char *offline_call_text(const struct chat_call *c)
{
	const char *t = json_string_value(json_object_get(c->facts, "text"));
	size_t n = json_array_size(c->messages);

	if (t)
		return t;
	while (n-- > 0) {
		const json_t *m = json_array_get(c->messages, n);
		const char *role = json_string_value(json_object_get(m, "role"));

		if (role && strcmp(role, "user") == 0 && (t = offline_content(m)) != NULL)
			return t;
	}
	return "";
}

/* Streams text as a real model would: a few pieces, each ending on a
 * character boundary. */
static void offline_stream(const struct prov_hooks *h, const char *text)
{
	size_t len = strlen(text), step = len / 4 + 1, at = 0, end;

	while (at < len) {
		char *piece;

		end = at + step < len ? at + step : len;
		while (end < len && ((unsigned char)text[end] & 0xC0) == 0x80)
			end++;
		piece = xstrndup(text + at, end - at);
		h->delta(h->ctx, piece);
		free(piece);
		at = end;
	}
}

/* An agent's rules answer {"toolCalls": [{name, arguments}]} or {"answer":
 * text}, as a model with tools would: the calls get ids ("call_1", ...)
 * in order. 1 when j is not of that shape, 0 when it was read, -1 after
 * prov_fail. */
static int offline_tool_answer(const json_t *j, struct prov_answer *a)
{
	const json_t *calls = json_object_get(j, "toolCalls"), *tc;
	const char *answer = json_string_value(json_object_get(j, "answer"));
	size_t i;

	if (json_is_array(calls) && json_array_size(calls) > 0) {
		a->tool_calls = json_array();
		json_array_foreach(calls, i, tc) {
			const char *name = json_string_value(json_object_get(tc, "name"));
			json_t *args = json_object_get(tc, "arguments");
			char id[32];

			if (name == NULL || (args && !json_is_object(args)))
				return prov_fail(a, PROV_BAD_ANSWER, "offline: tool call %zu is malformed", i);
			snprintf(id, sizeof id, "call_%zu", i + 1);
			json_array_append_new(a->tool_calls,
					      json_pack("{s:s, s:s, s:o}", "id", id, "name", name,
							"arguments", args ? json_incref(args) : json_object()));
		}
		return 0;
	}
	if (answer == NULL)
		return 1;
	a->text = xstrdup(answer);
	return 0;
}

static int offline_chat_one(const struct chat_call *c, const struct prov_hooks *h,
			    struct prov_answer *a)
{
	const char *name = c->task ? c->task : "chat";
	const struct offline_task *t = offline_task_find(name);
	/* A prose answer of a call's own rules is their "reply", as the
	 * generic chat's is. */
	struct offline_task own = { name, c->rules, "reply" };
	char err[200] = "";
	json_t *j;
	int rc;

	if (c->rules)
		t = &own;
	if (t == NULL)
		return prov_fail(a, PROV_BAD_ANSWER, "offline provider has no rule for task %s", name);
	a->by_rules = 1;
	j = t->fn(c->facts, offline_call_text(c), err, sizeof err);
	if (j == NULL)
		return prov_fail(a, PROV_BAD_ANSWER, "offline %s: %s", t->name,
				 *err ? err : "could not compose an answer");
	if (c->tools && !c->json_mode && (rc = offline_tool_answer(j, a)) <= 0) {
		json_decref(j);
		if (rc < 0)
			return -1;
	} else if (t->reply && !c->json_mode && json_is_string(json_object_get(j, t->reply))) {
		a->text = xstrdup(json_string_value(json_object_get(j, t->reply)));
		json_decref(j);
	} else {
		a->json = j;
		a->text = jdump(j);
	}
	if (a->text == NULL && a->tool_calls == NULL)
		return prov_fail(a, PROV_BAD_ANSWER, "offline %s: the answer does not serialise", t->name);
	a->status = PROV_OK;
	if (c->stream && h && h->delta && a->text)
		offline_stream(h, a->text);
	return 0;
}

static int offline_chat(struct prov *p, const struct conf_provider *cf, const struct chat_call *calls,
			size_t n, const struct prov_hooks *h, struct prov_answer *out)
{
	int ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += offline_chat_one(&calls[i], h, &out[i]) == 0;
	return ok;
}

static void offline_progress(const struct prov_hooks *h, size_t i, const char *status, double v)
{
	if (h && h->progress)
		h->progress(h->ctx, (int)i, status, v);
}

/* Room for the picture and, for an inpainting, both images in base64. */
static size_t offline_image_cap(const struct image_call *c)
{
	size_t cap = SVG_SCENE_MAX;

	if (c->base && c->mask)
		cap += (c->base_len / 3 + 2) * 4 + (c->mask_len / 3 + 2) * 4 + 1024;
	return cap;
}

/* A picture in the reference image's colours; the prompt's own colours
 * when they cannot be read (a->ref_note says why). */
static int offline_ref_render(const struct image_call *c, const struct pngio_limits *lim,
			      struct svg_opts *o, struct buf *b, struct prov_answer *a)
{
	struct palette pal;
	char why[120];

	if (palette_of(c->ref, c->ref_len, c->ref_mime, lim, &pal, why, sizeof why) != PALETTE_OK) {
		snprintf(a->ref_note, sizeof a->ref_note, "the reference's colours were not used: %s", why);
		return svg_render_opts(c->prompt, c->width, c->height, o, b);
	}
	a->ref_used = 1;
	o->rgb = (const unsigned char (*)[3])pal.rgb;
	o->ncolours = pal.n;
	return svg_render_opts(c->prompt, c->width, c->height, o, b);
}

/* The box around the mask's white pixels (PNG or JPEG, within lim), for
 * the new subjects to stand in; none when the mask cannot be read or is
 * all black. */
static void offline_mask_box(const struct image_call *c, const struct pngio_limits *lim,
			     struct svg_opts *o)
{
	struct pixels px;
	char err[160];
	int x0, y0, x1 = -1, y1 = -1;

	if (pixels_decode(c->mask, c->mask_len, NULL, lim, &px, err, sizeof err) < 0)
		return;
	x0 = px.w, y0 = px.h;
	for (int y = 0; y < px.h; y++)
		for (int x = 0; x < px.w; x++) {
			const unsigned char *p = px.rgba + ((size_t)y * px.w + x) * 4;

			if (p[3] < 128 || p[0] + p[1] + p[2] < 3 * 128)
				continue;
			x0 = x < x0 ? x : x0, y0 = y < y0 ? y : y0;
			x1 = x > x1 ? x : x1, y1 = y > y1 ? y : y1;
		}
	if (x1 >= 0) {
		o->mask_w = px.w, o->mask_h = px.h;
		o->box_x = x0, o->box_y = y0, o->box_w = x1 - x0 + 1, o->box_h = y1 - y0 + 1;
	}
	pixels_free(&px);
}

static int offline_image_one(const struct image_call *c, const struct pngio_limits *lim, size_t i,
			     const struct prov_hooks *h, struct prov_answer *a)
{
	const char *prompt = c->prompt ? c->prompt : "";
	char err[200] = "the picture passed its size cap";
	int inpaint = c->base && c->mask, refused;
	struct svg_opts o = { 0 };
	struct buf b;
	int rc;

	offline_progress(h, i, "generating", 0.5);
	if (c->mask && !c->base) {
		offline_progress(h, i, "failed", 1.0);
		return prov_fail(a, PROV_REFUSED, "an inpainting needs the base image as well as the mask");
	}
	buf_init(&b, offline_image_cap(c));
	o.seed = c->seed;
	o.subject = c->subject;
	if (inpaint) {
		offline_mask_box(c, lim, &o);
		rc = svg_inpaint(prompt, c->base, c->base_len, c->base_mime, c->mask, c->mask_len,
				 c->mask_mime, c->width, c->height, &o, &b, err, sizeof err);
	} else if (c->ref && c->ref_len) {
		rc = offline_ref_render(c, lim, &o, &b, a);
	} else {
		rc = svg_render_opts(prompt, c->width, c->height, &o, &b);
	}
	if (rc) {
		buf_free(&b);
		offline_progress(h, i, "failed", 1.0);
		refused = inpaint && (!svg_mime_ok(c->base_mime) || !svg_mime_ok(c->mask_mime) ||
				      c->base_len == 0 || c->mask_len == 0);
		return prov_fail(a, refused ? PROV_REFUSED : PROV_TOO_LARGE, "%s", err);
	}
	a->len = b.len;
	a->data = (unsigned char *)buf_steal(&b);
	snprintf(a->mime, sizeof a->mime, "image/svg+xml");
	a->revised_prompt = xstrdup(prompt);
	a->status = PROV_OK;
	offline_progress(h, i, "done", 1.0);
	return 0;
}

static int offline_image(struct prov *p, const struct conf_provider *cf, const struct image_call *calls,
			 size_t n, const struct prov_hooks *h, struct prov_answer *out)
{
	/* A reference's pixels are read within the [server] limits for
	 * references; called without a provider set, within small ones. */
	struct pngio_limits lim = { 4096, 1 << 26 };
	int ok = 0;

	if (p) {
		lim.max_side = prov_conf(p)->reference_max_side;
		lim.max_bytes = prov_conf(p)->reference_max_pixel_bytes;
	}

	for (size_t i = 0; i < n; i++)
		ok += offline_image_one(&calls[i], &lim, i, h, &out[i]) == 0;
	return ok;
}

static int offline_search(struct prov *p, const struct conf_provider *cf, const char *query,
			  long timeout_ms, const struct prov_hooks *h, struct prov_answer *out)
{
	return prov_fail(out, PROV_UNAVAILABLE,
			 "web search is offline: no search provider is configured "
			 "([provider.search] kind = dashscope)");
}

static int offline_embed(struct prov *p, const struct conf_provider *cf, const json_t *texts,
			 const struct prov_hooks *h, struct prov_answer *out)
{
	return prov_fail(out, PROV_UNAVAILABLE,
			 "no embeddings provider is configured: retrieval is lexical");
}

const struct prov_ops prov_offline_ops = {
	offline_chat, offline_image, offline_search, offline_embed,
};
