/* DashScope, Alibaba Cloud's own API: image generation through the
 * multimodal-generation service, which answers either at once (the image's
 * link in output.choices) or with a task to poll (GET /api/v1/tasks/{id}
 * every poll_interval_ms, at most poll_max times) until it succeeds, fails
 * or is given up; the image is then downloaded, so the answer holds bytes.
 * Every image of a batch runs as its own transfer, all in one loop. Web
 * search is Qwen with enable_search through the compatible-mode endpoint,
 * the same request as openai.c's. Chat and embeddings are offered through
 * the compatible mode as kind = openai, so not here. Inpainting (base and
 * mask) is not offered: PROV_UNAVAILABLE. A reference image goes with the
 * prompt as the message's image input (a data URL), which the image-edit
 * models (qwen-image-edit) read: the configured model must be one. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "prov/http.h"
#include "prov/prov.h"
#include "util/xmalloc.h"

#define DASHSCOPE_GENERATE "api/v1/services/aigc/multimodal-generation/generation"
#define DASHSCOPE_TASKS "api/v1/tasks/"
#define DASHSCOPE_COMPAT "compatible-mode/v1"

enum dashscope_stage { DASHSCOPE_SUBMIT, DASHSCOPE_POLL, DASHSCOPE_DOWNLOAD };

struct dashscope_task {
	const struct conf_provider *cf;
	const struct prov_hooks *hooks;
	struct prov_answer *a;
	int index;
	enum dashscope_stage stage;
	long polls;             /* polls sent */
	double progress;
	char *task_url;
};

static void dashscope_progress(struct dashscope_task *t, const char *status, double progress)
{
	t->progress = progress;
	if (t->hooks && t->hooks->progress)
		t->hooks->progress(t->hooks->ctx, t->index, status, progress);
}

/* The image link in a reply's output: a synchronous answer's
 * choices[0].message.content[k].image, or a finished task's
 * results[0].url. Borrowed from output. */
static const char *dashscope_image_url(json_t *output)
{
	json_t *msg = json_object_get(json_array_get(json_object_get(output, "choices"), 0),
				      "message");   /* borrowed */
	json_t *parts = json_object_get(msg, "content"), *part;
	size_t i;

	json_array_foreach(parts, i, part) {
		const char *u = json_string_value(json_object_get(part, "image"));

		if (u)
			return u;
	}
	return json_string_value(json_object_get(json_array_get(json_object_get(output, "results"), 0),
						 "url"));
}

static void dashscope_revised_prompt(struct dashscope_task *t, json_t *output)
{
	json_t *r = json_array_get(json_object_get(output, "results"), 0);   /* borrowed */
	const char *s = json_string_value(json_object_get(r, "actual_prompt"));

	if (s && t->a->revised_prompt == NULL)
		t->a->revised_prompt = xstrdup(s);
}

static void dashscope_download(struct dashscope_task *t, struct http_xfer *x, const char *url)
{
	if (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0) {
		prov_fail(t->a, PROV_BAD_ANSWER, "the image link is not http(s)");
		return;
	}
	t->stage = DASHSCOPE_DOWNLOAD;
	dashscope_progress(t, "downloading", 0.95);
	http_xfer_send(x, "GET", url, NULL, HTTP_DOWNLOAD, 0);
}

/* A task id goes into a URL path: only the characters DashScope uses. */
static int dashscope_task_id_ok(const char *id)
{
	size_t n = id ? strlen(id) : 0;

	return n > 0 && n < 128 && strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789-_") == n;
}

static long dashscope_interval(const struct dashscope_task *t)
{
	return t->cf->poll_interval_ms > 0 ? t->cf->poll_interval_ms : 2000;
}

static void dashscope_poll(struct dashscope_task *t, struct http_xfer *x)
{
	long max = t->cf->poll_max > 0 ? t->cf->poll_max : 60;

	if (t->polls >= max) {
		prov_fail(t->a, PROV_TIMEOUT, "the image task did not finish after %ld polls", max);
		return;
	}
	t->polls++;
	t->stage = DASHSCOPE_POLL;
	http_xfer_send(x, "GET", t->task_url, NULL, HTTP_AUTH, dashscope_interval(t));
}

/* Progress while the task runs: an estimate that rises with each poll
 * and never reaches the end before the task does. */
static void dashscope_running(struct dashscope_task *t, const char *status)
{
	double f = 0.1 + 0.8 * (1.0 - 1.0 / (1.0 + (double)t->polls / 5.0));

	dashscope_progress(t, strcmp(status, "PENDING") == 0 ? "queued" : "generating", f);
}

/* The reply to the submission: an image at once, or a task to poll. */
static void dashscope_submitted(struct dashscope_task *t, struct http_xfer *x, json_t *j)
{
	json_t *output = json_object_get(j, "output");     /* borrowed */
	const char *url = dashscope_image_url(output);
	const char *id = json_string_value(json_object_get(output, "task_id"));
	const char *status = json_string_value(json_object_get(output, "task_status"));

	dashscope_revised_prompt(t, output);
	if (url) {
		dashscope_download(t, x, url);
	} else if (dashscope_task_id_ok(id)) {
		char *path = xasprintf(DASHSCOPE_TASKS "%s", id);

		t->task_url = http_url(t->cf->base_url, path);
		free(path);
		dashscope_running(t, status ? status : "PENDING");
		dashscope_poll(t, x);
	} else {
		const char *msg = json_string_value(json_object_get(output, "message"));

		if (msg == NULL)
			msg = json_string_value(json_object_get(j, "message"));
		prov_fail(t->a, PROV_BAD_ANSWER, "the reply has neither an image nor a task%s%.160s",
			  msg ? ": " : "", msg ? msg : "");
	}
}

/* The reply to one poll. */
static void dashscope_polled(struct dashscope_task *t, struct http_xfer *x, json_t *j)
{
	json_t *output = json_object_get(j, "output");     /* borrowed */
	const char *status = json_string_value(json_object_get(output, "task_status"));
	const char *msg = json_string_value(json_object_get(output, "message"));
	const char *url;

	if (status == NULL) {
		prov_fail(t->a, PROV_BAD_ANSWER, "the task's reply has no task_status");
	} else if (strcmp(status, "SUCCEEDED") == 0) {
		dashscope_revised_prompt(t, output);
		url = dashscope_image_url(output);
		if (url)
			dashscope_download(t, x, url);
		else
			prov_fail(t->a, PROV_BAD_ANSWER, "the image task succeeded without an image");
	} else if (strcmp(status, "PENDING") == 0 || strcmp(status, "RUNNING") == 0) {
		dashscope_running(t, status);
		dashscope_poll(t, x);
	} else {
		/* FAILED, CANCELED, UNKNOWN (an expired or unknown task) */
		prov_fail(t->a, PROV_BAD_ANSWER, "the image task ended %.20s%s%.160s", status,
			  msg ? ": " : "", msg ? msg : "");
	}
}

static void dashscope_reply(struct http_xfer *x, struct http_reply *r, void *ctx)
{
	struct dashscope_task *t = ctx;
	json_t *j;

	if (t->stage == DASHSCOPE_DOWNLOAD) {
		http_take_image(r, t->a);
		return;
	}
	j = json_loadb(r->body.data ? r->body.data : "", r->body.len, 0, NULL);   /* new */
	if (!json_is_object(j))
		prov_fail(t->a, PROV_BAD_ANSWER, "the provider's reply is not a JSON object");
	else if (t->stage == DASHSCOPE_SUBMIT)
		dashscope_submitted(t, x, j);
	else
		dashscope_polled(t, x, j);
	json_decref(j);
}

static void dashscope_done(struct http_xfer *x, void *ctx)
{
	struct dashscope_task *t = ctx;

	if (t->a->status == PROV_OK)
		dashscope_progress(t, "done", 1.0);
	else
		dashscope_progress(t, "failed", t->progress);
}

static const struct http_cb dashscope_cb = {
	.reply = dashscope_reply,
	.done = dashscope_done,
};

/* The reference image as a data URL (the service's image input). New
 * string. */
static char *dashscope_data_url(const struct image_call *c)
{
	size_t pre = strlen("data:;base64,") + strlen(c->ref_mime);
	size_t n = sodium_base64_ENCODED_LEN(c->ref_len, sodium_base64_VARIANT_ORIGINAL);
	char *s = xmalloc(pre + n);

	snprintf(s, pre + 1, "data:%s;base64,", c->ref_mime);
	sodium_bin2base64(s + pre, n, c->ref, c->ref_len, sodium_base64_VARIANT_ORIGINAL);
	return s;
}

/* {"model", "input": {"messages": [{"role": "user", "content": [{"text"}]}]},
 *  "parameters": {"size": "W*H"}}; with a reference image, the content
 * is [{"image": data URL}, {"text"}], as the image-edit models take it.
 * New reference, NULL for a prompt that is not UTF-8. */
static json_t *dashscope_body(const struct conf_provider *cf, const struct image_call *c,
			      struct prov_answer *a)
{
	json_t *content = json_array(), *text = json_pack("{s:s}", "text", c->prompt);
	char size[32], *url;

	if (text == NULL) {
		json_decref(content);
		return NULL;
	}
	if (c->ref && c->ref_len && c->ref_mime && strcmp(c->ref_mime, "image/svg+xml") != 0) {
		url = dashscope_data_url(c);
		json_array_append_new(content, json_pack("{s:s}", "image", url));
		free(url);
		a->ref_used = 1;
	} else if (c->ref && c->ref_len) {
		snprintf(a->ref_note, sizeof a->ref_note, "a %s reference cannot be sent to this provider",
			 c->ref_mime ? c->ref_mime : "typeless");
	}
	json_array_append_new(content, text);
	snprintf(size, sizeof size, "%d*%d", c->width > 0 ? c->width : 1024,
		 c->height > 0 ? c->height : 1024);
	return json_pack("{s:s?, s:{s:[{s:s, s:o}]}, s:{s:s}}", "model", cf->model,
			 "input", "messages", "role", "user", "content", content,
			 "parameters", "size", size);
}

/* Checks a call; 0, or -1 after prov_fail. */
static int dashscope_check(const struct image_call *c, struct prov_answer *a)
{
	if (c->base || c->mask)
		return prov_fail(a, PROV_UNAVAILABLE, "the dashscope image provider does not repaint images");
	if (c->prompt == NULL || c->prompt[0] == '\0')
		return prov_fail(a, PROV_REFUSED, "an image needs a prompt");
	return 0;
}

static int dashscope_image(struct prov *p, const struct conf_provider *cf,
			   const struct image_call *calls, size_t n, const struct prov_hooks *h,
			   struct prov_answer *out)
{
	struct http *hh = http_new(prov_conf(p), h);
	struct dashscope_task *t = xcalloc(n ? n : 1, sizeof *t);
	char *url = http_url(cf->base_url, DASHSCOPE_GENERATE);
	int ok = 0;

	for (size_t i = 0; i < n; i++) {
		json_t *body;   /* new */

		t[i] = (struct dashscope_task){ .cf = cf, .hooks = h, .a = &out[i], .index = (int)i };
		if (dashscope_check(&calls[i], &out[i]) < 0)
			continue;
		if ((body = dashscope_body(cf, &calls[i], &out[i])) == NULL) {
			prov_fail(&out[i], PROV_REFUSED, "the prompt is not valid UTF-8");
			continue;
		}
		http_xfer_send(http_add(hh, cf, calls[i].timeout_ms, &dashscope_cb, &t[i], &out[i]),
			       "POST", url, body, HTTP_AUTH, 0);
		dashscope_progress(&t[i], "submitted", 0.0);
		json_decref(body);
	}
	http_run(hh);
	http_free(hh);
	for (size_t i = 0; i < n; i++) {
		ok += out[i].status == PROV_OK;
		free(t[i].task_url);
	}
	free(t);
	free(url);
	return ok;
}

/* Qwen's search answers through the compatible mode: the configured root
 * when it is one already, else the compatible-mode root under it. */
static int dashscope_search(struct prov *p, const struct conf_provider *cf, const char *query,
			    long timeout_ms, const struct prov_hooks *h, struct prov_answer *out)
{
	struct conf_provider compat = *cf;
	char *root = NULL;
	int rc;

	if (strstr(cf->base_url, "/" DASHSCOPE_COMPAT) == NULL)
		compat.base_url = root = http_url(cf->base_url, DASHSCOPE_COMPAT);
	rc = prov_openai_ops.search(p, &compat, query, timeout_ms, h, out);
	free(root);
	return rc;
}

const struct prov_ops prov_dashscope_ops = {
	NULL,
	dashscope_image,
	dashscope_search,
	NULL,
};
