/* GET /api/assets/{id}?format=png[&width=N][&download=1]: a picture as a
 * PNG people can post. A PNG asset is sent as it is. An SVG asset is
 * drawn (media/raster.c) on the first request for a width, in a child
 * process under the [media] budget (util/budget.h), and the PNG kept as an
 * asset of the same thread, so the workflow that made the SVG pays nothing
 * and later requests, from any worker, send the kept file: the store's
 * cache remembers which PNG asset an (SVG, width) became, or that drawing
 * it failed, so a picture that cannot be drawn within the budget costs one
 * attempt, not one a request. Widths are snapped to a few sizes
 * (raster_width_snap), so a picture has at most a few drawings. Assets are
 * content-addressed and librsvg draws the same bytes each time, so two
 * workers drawing the same picture at once store it once. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "api/api.h"
#include "app.h"
#include "fcgi/req.h"
#include "media/raster.h"
#include "store/store.h"
#include "util/budget.h"
#include "util/log.h"

#define ASSET_PNG_NS "asset.png"
/* How long the cache remembers a drawing; past it the picture is drawn
 * again, into the same asset. */
#define ASSET_PNG_TTL_MS (30LL * 24 * 3600 * 1000)
/* How long it remembers a drawing that failed; within it, and while the
 * [media] budget is not raised, the answer is the same 422 at once. */
#define ASSET_PNG_FAIL_TTL_MS (24LL * 3600 * 1000)
/* The largest PNG a drawing may give. */
#define ASSET_PNG_MAX ((size_t)RASTER_MAX_PIXEL_BYTES + (1u << 20))

struct asset_png_ask {
	int width;              /* 0: the picture's own */
	int download;
};

/* What the query asks for: PB_OK, or the problem with r failed. */
static enum problem asset_png_params(struct req *r, const char *format, struct asset_png_ask *a)
{
	char *width = req_query_get(r, "width"), *dl = req_query_get(r, "download");
	enum problem p = PB_OK;
	char *end = NULL;
	long w = 0;

	if (strcmp(format, "png") != 0)
		p = req_fail(r, PB_BAD_FORMAT, "format must be png");
	else if (width && (width[0] < '0' || width[0] > '9' || strlen(width) > 6 ||
			   (w = strtol(width, &end, 10), *end != '\0') || w < RASTER_MIN_WIDTH ||
			   w > RASTER_MAX_WIDTH))
		p = req_fail(r, PB_BAD_PARAM, "width must be a whole number from %d to %d",
			     RASTER_MIN_WIDTH, RASTER_MAX_WIDTH);
	else if (dl && strcmp(dl, "0") != 0 && strcmp(dl, "1") != 0)
		p = req_fail(r, PB_BAD_PARAM, "download must be 0 or 1");
	a->width = raster_width_snap((int)w);
	a->download = dl && strcmp(dl, "1") == 0;
	free(width);
	free(dl);
	return p;
}

/* The PNG sent, as an attachment when asked, named by its own id (the
 * start of an id names the thread, the same for all its pictures). */
static void asset_png_send(struct req *r, const char *png_id, const void *data, size_t len,
			   const struct asset_png_ask *a)
{
	char more[128] = "";

	if (a->download)
		snprintf(more, sizeof more,
			 "Content-Disposition: attachment; filename=\"aivista-%.8s.png\"\r\n",
			 png_id + STORE_ASSET_ID_LEN - 8);
	api_asset_send(r, png_id, "image/png", data, len, more);
}

/* 1 when the media type ctype (parameters aside, any case) is type. */
static int asset_png_type_is(const char *ctype, const char *type)
{
	size_t n = strlen(type);

	return strncasecmp(ctype, type, n) == 0 && (ctype[n] == '\0' || ctype[n] == ';' ||
						     ctype[n] == ' ');
}

/* The cache's name for a drawing of svg_id at width. */
static void asset_png_key(char *key, size_t n, const char *svg_id, int width)
{
	snprintf(key, n, "%s %d", svg_id, width);
}

/* A failure remembered (hit borrowed) stands while the [media] budget is
 * no larger than the one it was made under: 1 with the problem reported in
 * *p, else 0 (the picture is drawn again). */
static int asset_png_refail(struct req *r, const json_t *hit, enum problem *p)
{
	const struct conf *c = &r->app->conf;

	if (c->media_cpu_ms > json_integer_value(json_object_get(hit, "cpuMs")) ||
	    c->media_time_ms > json_integer_value(json_object_get(hit, "timeMs")) ||
	    c->media_memory_bytes > json_integer_value(json_object_get(hit, "memoryBytes")))
		return 0;
	*p = req_fail(r, problem_by_code(json_string_value(json_object_get(hit, "problem")),
					 PB_RENDER_FAILED),
		      "%s (an earlier attempt: not drawn again)",
		      json_string_value(json_object_get(hit, "failed")));
	return 1;
}

/* A drawing kept before: 1 when it was answered (the PNG sent, or the
 * failure remembered reported in *p), 0 when there is none. */
static int asset_png_kept(struct req *r, const char *svg_id, const struct asset_png_ask *a,
			  enum problem *p)
{
	char key[STORE_ASSET_ID_LEN + 16], *ctype = NULL;
	const char *png_id;
	json_t *hit = NULL;
	void *data = NULL;
	size_t len = 0;
	int sent = 0;

	asset_png_key(key, sizeof key, svg_id, a->width);
	if (store_cache_get(r->app->store, ASSET_PNG_NS, key, &hit) != 0)
		return 0;
	png_id = json_string_value(json_object_get(hit, "id"));
	if (json_is_string(json_object_get(hit, "failed")))
		sent = asset_png_refail(r, hit, p);
	else if (png_id && store_asset_get(r->app->store, png_id, &ctype, &data, &len) == 0 &&
	    asset_png_type_is(ctype, "image/png")) {
		asset_png_send(r, png_id, data, len, a);
		sent = 1;
	}
	free(ctype);
	free(data);
	json_decref(hit);
	return sent;
}

struct asset_png_put {
	uint8_t tid[STORE_TID];
	const struct buf *png;
	char id[STORE_ASSET_ID_LEN + 1];
};

static int asset_png_put_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct asset_png_put *k = p;

	return store_asset_put(s, txn, k->tid, "image/png", k->png->data, k->png->len, k->id);
}

/* Keeps the drawing as an asset of the SVG's thread and remembers it. 0,
 * STORE_FULL when the thread's assets are full, or a store error. */
static int asset_png_keep(struct req *r, const char *svg_id, const struct asset_png_ask *a,
			  const struct buf *png, char id[STORE_ASSET_ID_LEN + 1], int w, int h)
{
	struct asset_png_put k = { .png = png };
	char key[STORE_ASSET_ID_LEN + 16];
	json_t *v;
	int rc;

	if (store_asset_thread(svg_id, k.tid) != 0)
		return EINVAL;
	rc = store_txn(r->app->store, asset_png_put_fn, &k);
	if (rc)
		return rc;
	memcpy(id, k.id, sizeof k.id);
	asset_png_key(key, sizeof key, svg_id, a->width);
	v = json_pack("{s:s, s:i, s:i}", "id", k.id, "width", w, "height", h);
	/* Only a shortcut: without it the next request draws the same asset. */
	if (store_cache_put(r->app->store, ASSET_PNG_NS, key, v, ASSET_PNG_TTL_MS) != 0)
		log_warn("remembering the PNG of %s: not kept in the cache", svg_id);
	json_decref(v);
	return 0;
}

/* Remembers that drawing svg_id at a's width failed with p (detail err),
 * under the budget in force. Only a shortcut, like the drawings. */
static void asset_png_remember(struct req *r, const char *svg_id, const struct asset_png_ask *a,
			       enum problem p, const char *err)
{
	const struct conf *c = &r->app->conf;
	char key[STORE_ASSET_ID_LEN + 16];
	json_t *v = json_pack("{s:s, s:s, s:I, s:I, s:I}", "failed", err, "problem",
			      problem_code(p), "cpuMs", (json_int_t)c->media_cpu_ms, "timeMs",
			      (json_int_t)c->media_time_ms, "memoryBytes",
			      (json_int_t)c->media_memory_bytes);

	asset_png_key(key, sizeof key, svg_id, a->width);
	if (v && store_cache_put(r->app->store, ASSET_PNG_NS, key, v, ASSET_PNG_FAIL_TTL_MS) != 0)
		log_warn("remembering that %s cannot be drawn: not kept in the cache", svg_id);
	json_decref(v);
}

/* A drawing that failed: its problem, remembered unless the failure was
 * not the picture's (the client left, no process could start). */
static enum problem asset_png_failed(struct req *r, const char *svg_id,
				     const struct asset_png_ask *a, int rc, const char *err)
{
	enum problem p = rc == RASTER_E_SIZE ? PB_BAD_PARAM
		       : rc == RASTER_E_SYSTEM ? PB_OVERLOADED : PB_RENDER_FAILED;

	if (rc == RASTER_E_GONE) {
		log_info("drawing %s: %s", svg_id, err);
		return req_fail(r, p, "%s", err);
	}
	log_warn("drawing %s at width %d: %s", svg_id, a->width, err);
	if (rc != RASTER_E_SYSTEM)
		asset_png_remember(r, svg_id, a, p, err);
	return req_fail(r, p, "%s", err);
}

/* Draws the SVG under the budget, keeps the PNG and sends it. */
static enum problem asset_png_draw(struct req *r, const char *svg_id, const void *svg,
				   size_t len, const struct asset_png_ask *a)
{
	char err[256], id[STORE_ASSET_ID_LEN + 1];
	struct budget b;
	struct buf png;
	int w = 0, h = 0, rc;

	budget_current(&b, ASSET_PNG_MAX);
	buf_init(&png, ASSET_PNG_MAX);
	rc = raster_svg_png_budget(&b, svg, len, a->width, &png, &w, &h, err, sizeof err);
	if (rc != RASTER_OK) {
		buf_free(&png);
		return asset_png_failed(r, svg_id, a, rc, err);
	}
	rc = asset_png_keep(r, svg_id, a, &png, id, w, h);
	if (rc == STORE_FULL) {
		/* The thread's assets are full: the picture is sent, not kept. */
		log_warn("the PNG of %s is not kept: the thread's assets are full", svg_id);
		if (req_send_headers(r, 200, "image/png", "Cache-Control: no-store\r\n") == 0 &&
		    strcmp(r->method, "HEAD") != 0)
			req_write(r, png.data, png.len);
	} else if (rc == 0) {
		asset_png_send(r, id, png.data, png.len, a);
	}
	buf_free(&png);
	if (rc && rc != STORE_FULL)
		return req_fail(r, PB_STORE_UNAVAILABLE, "keeping the PNG: %s", store_strerror(rc));
	return PB_OK;
}

enum problem api_asset_png(struct req *r, const char *format)
{
	const char *id = r->captures[0];
	struct asset_png_ask a;
	char *ctype = NULL;
	void *data = NULL;
	size_t len = 0;
	enum problem p;
	int rc;

	p = asset_png_params(r, format, &a);
	if (p != PB_OK)
		return p;
	if (r->app->store == NULL)
		return req_fail(r, APP_STORE_PROBLEM(r->app), APP_STORE_DOWN);
	rc = store_asset_get(r->app->store, id, &ctype, &data, &len);
	if (rc == STORE_NOTFOUND)
		return req_fail(r, PB_NOT_FOUND, "no asset %s", id);
	if (rc)
		return req_fail(r, PB_STORE_UNAVAILABLE, "reading the asset: %s", store_strerror(rc));
	if (asset_png_type_is(ctype, "image/png") && a.width == 0)
		asset_png_send(r, id, data, len, &a);
	else if (asset_png_type_is(ctype, "image/png"))
		p = req_fail(r, PB_BAD_PARAM, "width applies to SVG pictures: this PNG is sent "
			     "at its own size (leave width out)");
	else if (!asset_png_type_is(ctype, "image/svg+xml"))
		p = req_fail(r, PB_NOT_CONVERTIBLE, "a %s asset has no PNG form", ctype);
	else if (!asset_png_kept(r, id, &a, &p))
		p = asset_png_draw(r, id, data, len, &a);
	free(ctype);
	free(data);
	return p;
}
