/* Model calls from a node: the providers with the node's hooks (streamed
 * pieces become live message_delta events, image task progress becomes
 * image_progress events, waits send keep-alives), the node's remaining
 * time as the call's limit, and the model answer cache. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "engine/run.h"
#include "prov/prov.h"
#include "prov/vendors.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/jnum.h"
#include "util/xmalloc.h"

struct app *step_app(struct step_ctx *c)
{
	return c->run->app;
}

struct prov *step_prov(struct step_ctx *c)
{
	return c->run->app->prov;
}

const struct conf *step_conf(struct step_ctx *c)
{
	return &c->run->app->conf;
}

const void *step_wf_conf(struct step_ctx *c)
{
	return c->run->wf->conf ? conf_section_values(step_conf(c), c->run->wf->conf) : NULL;
}

struct store *step_store(struct step_ctx *c)
{
	return c->run->st;
}

long step_time_left(struct step_ctx *c)
{
	long long left = c->deadline_ms - clock_mono_ms();

	return left < 1 ? 1 : (long)left;
}

static void step_on_delta(void *ctx, const char *text)
{
	struct step_ctx *c = ctx;
	json_t *ev = step_event(c, "message_delta");

	json_object_set_new(ev, "content", json_string(text));
	step_emit_live(c, ev);
}

static void step_on_progress(void *ctx, int task, const char *status, double progress)
{
	struct step_ctx *c = ctx;
	json_t *ev = step_event(c, "image_progress");

	json_object_set_new(ev, "taskId", json_integer(task + 1));
	json_object_set_new(ev, "status", json_string(status));
	json_object_set_new(ev, "progress", jnum_real(progress, JNUM_SCORE));
	json_object_set_new(ev, "url", json_null());
	json_object_set_new(ev, "errorMessage", json_null());
	/* Goes out with the step's events, or at the next wait (a tick). */
	if (run_sse(c->run) == 0)
		sse_event_later(c->run->sse, ev);
	json_decref(ev);
}

static void step_on_tick(void *ctx)
{
	step_keepalive(ctx);
}

static int step_on_stop(void *ctx)
{
	return step_cancelled(ctx);
}

void step_hooks(struct step_ctx *c, struct prov_hooks *h)
{
	h->delta = step_on_delta;
	h->progress = step_on_progress;
	h->tick = step_on_tick;
	h->stop = step_on_stop;
	h->ctx = c;
}

/* The cache key of a chat call: everything that shapes the answer. */
static char *step_chat_key(const struct conf_provider *cf, const struct chat_call *call)
{
	json_t *k = json_pack("{s:s, s:s, s:s, s:O, s:O, s:f, s:b}", "kind", cf->kind, "model",
			      cf->model, "task", call->task ? call->task : "",
			      "messages", call->messages ? call->messages : json_null(),
			      "facts", call->facts ? call->facts : json_null(), "t", call->temperature,
			      "json", call->json_mode);
	char *s = jtext(k, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(k);
	return s;
}

int step_chat(struct step_ctx *c, const struct chat_call *call, struct prov_answer *out)
{
	const struct conf *cf = step_conf(c);
	struct chat_call timed = *call;
	struct prov_hooks h;
	json_t *hit = NULL;
	char *key = NULL;
	int cacheable = !prov_kind_by_rules(cf->prov[PROV_CHAT].kind) && cf->cache_model_ttl > 0 &&
			!call->stream && call->tools == NULL && c->run->st;
	int rc;

	if (timed.timeout_ms <= 0 || timed.timeout_ms > step_time_left(c))
		timed.timeout_ms = step_time_left(c);
	if (cacheable) {
		key = step_chat_key(&cf->prov[PROV_CHAT], call);
		if (key && store_cache_get(c->run->st, "chat", key, &hit) == 0) {
			prov_answer_init(out);
			out->text = strdup(json_string_value(json_object_get(hit, "text")) ?: "");
			out->json = json_incref(json_object_get(hit, "json"));
			json_decref(hit);
			free(key);
			return 0;
		}
	}
	step_hooks(c, &h);
	rc = prov_chat(step_prov(c), &timed, &h, out);
	if (rc == 0 && key && out->text) {
		json_t *v = json_pack("{s:s, s:O}", "text", out->text, "json",
				      out->json ? out->json : json_null());

		store_cache_put(c->run->st, "chat", key, v, cf->cache_model_ttl * 1000LL);
		json_decref(v);
	}
	free(key);
	return rc;
}

int step_chat_many(struct step_ctx *c, const struct chat_call *calls, size_t n,
		   struct prov_answer *out)
{
	struct chat_call *timed = xcalloc(n ? n : 1, sizeof *timed);
	struct prov_hooks h;
	int rc;

	for (size_t i = 0; i < n; i++) {
		timed[i] = calls[i];
		timed[i].stream = 0;
		if (timed[i].timeout_ms <= 0 || timed[i].timeout_ms > step_time_left(c))
			timed[i].timeout_ms = step_time_left(c);
	}
	step_hooks(c, &h);
	h.delta = NULL;
	rc = prov_chat_many(step_prov(c), timed, n, &h, out);
	free(timed);
	return rc;
}

int step_images(struct step_ctx *c, const struct image_call *calls, size_t n,
		struct prov_answer *out)
{
	struct prov_hooks h;

	step_hooks(c, &h);
	return prov_image_many(step_prov(c), calls, n, &h, out);
}
