/* What a node may do during its step (see graph.h). */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sodium.h>
#include "engine/run.h"
#include "media/imgin.h"
#include "text/msg.h"
#include "util/clock.h"
#include "util/log.h"

void step_emit(struct step_ctx *c, json_t *ev)
{
	json_array_append_new(c->run->pending, ev);
}

void step_emit_live(struct step_ctx *c, json_t *ev)
{
	if (run_sse(c->run) == 0)
		sse_event(c->run->sse, 0, ev);
	json_decref(ev);
}

int step_keepalive(struct step_ctx *c)
{
	if (run_sse(c->run) < 0)
		return -1;
	return sse_keepalive(c->run->sse);
}

json_t *step_event(struct step_ctx *c, const char *type)
{
	json_t *ev = sse_event_new(type);

	json_object_set_new(ev, "node", json_string(c->node));
	return ev;
}

void step_thought(struct step_ctx *c, const char *id, ...)
{
	char msg[512];
	json_t *ev = step_event(c, "thought_log");
	va_list ap;

	va_start(ap, id);
	vsnprintf(msg, sizeof msg, msg_get(step_lang(c), id), ap);
	va_end(ap);
	json_object_set_new(ev, "message", json_string(msg));
	step_emit(c, ev);
}

json_t *step_interrupt_new(const char *kind, const char *question, const char *resume_node,
			   json_t *editable)
{
	json_t *opts = json_pack("[{s:s}, {s:s}, {s:s}]", "id", "approve", "id", "reject", "id",
				 "modify");

	return json_pack("{s:s, s:s, s:s, s:o, s:s, s:b, s:o}", "kind", kind, "question", question,
			 "resume", resume_node, "options", opts, "selectionType", "single",
			 "allowCustomInput", 1, "editable", editable ? editable : json_object());
}

const char *step_lang(const struct step_ctx *c)
{
	return c->run && c->run->lang[0] ? c->run->lang : "zh";
}

struct step_asset {
	const uint8_t *tid;
	const char *ctype;
	const void *data;
	size_t len;
	char id[STORE_ASSET_ID_LEN + 1];
};

static int step_asset_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct step_asset *a = p;

	return store_asset_put(s, txn, a->tid, a->ctype, a->data, a->len, a->id);
}

int step_asset_put(struct step_ctx *c, const char *ctype, const void *data, size_t len,
		   char *id, size_t idlen)
{
	struct step_asset a = { c->run->tid, ctype, data, len, "" };
	int rc = store_txn(c->run->st, step_asset_fn, &a);

	if (rc == STORE_OVER_BUDGET) {
		/* The input's or the step's, not the store's: the engine ends the
		 * request with request_too_large (413 before the stream). */
		log_warn("storing an asset of %zu bytes: %s", len, store_strerror(rc));
		snprintf(c->err_code, sizeof c->err_code, "request_too_large");
		return -1;
	}
	if (rc) {
		log_error("storing an asset: %s", store_strerror(rc));
		if (rc != STORE_FULL)
			step_store_failed(c, rc);
		return -1;
	}
	snprintf(id, idlen, "%s", a.id);
	return 0;
}

int step_asset_ours(struct step_ctx *c, const char *id)
{
	uint8_t tid[STORE_TID];

	return id && store_asset_thread(id, tid) == 0 &&
	       sodium_memcmp(tid, c->run->tid, STORE_TID) == 0;
}

void step_store_failed(struct step_ctx *c, int rc)
{
	if (c->run->store_rc == 0)
		c->run->store_rc = rc ? rc : EIO;
}

enum node_rc step_fail(struct step_ctx *c, const char *code, const char *fmt, ...)
{
	va_list ap;

	snprintf(c->err_code, sizeof c->err_code, "%s", code);
	va_start(ap, fmt);
	vsnprintf(c->err_msg, sizeof c->err_msg, fmt, ap);
	va_end(ap);
	return NODE_ERROR;
}

int step_png_check(struct step_ctx *c, struct imgin *im, long max_side, long long *budget,
		   const char *what, char *err, size_t n)
{
	int rc = imgin_png_check(im, max_side, budget);

	if (rc == IMGIN_TOO_LARGE)
		snprintf(c->err_code, sizeof c->err_code, "image_too_large");
	if (rc < 0)
		snprintf(err, n, "%s: %s", what, im->error);
	return rc < 0 ? -1 : 0;
}
