/* Copies of a paused thread's records under new IDs (see seed.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "seed.h"
#include "engine/tid.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/jnum.h"

int seed_load(struct app *app, const char *tid, struct seed_tpl *t)
{
	uint8_t raw[TID_RAW];
	json_t *rec = NULL;
	long last;

	memset(t, 0, sizeof *t);
	if (tid_verify(app->keys, tid, raw) < 0 || store_thread_get(app->store, NULL, raw, &rec, 0))
		return -1;
	snprintf(t->tid, sizeof t->tid, "%s", tid);
	last = (long)json_integer_value(json_object_get(rec, "step"));
	json_object_del(rec, "exp");
	json_object_del(rec, "iexp");  /* each copy gets its own expiry entry */
	t->rec = jtext(rec, JNUM_DUMP);
	json_decref(rec);
	t->ckpts = json_array();
	for (long step = 0; step <= last; step++) {
		json_t *state = NULL, *meta = NULL;

		if (store_ckpt_get(app->store, NULL, raw, step, &state, &meta) == 0) {
			char *m = jtext(meta, JNUM_DUMP), *st = jtext(state, JNUM_DUMP);

			json_array_append_new(t->ckpts, json_pack("[s, s]", m, st));
			free(m);
			free(st);
		}
		json_decref(state);
		json_decref(meta);
	}
	if (store_events_after(app->store, raw, 0, 1 << 20, 1u << 30, &t->events) ||
	    json_array_size(t->ckpts) == 0) {
		seed_free(t);
		return -1;
	}
	return 0;
}

/* text with every occurrence of from replaced by to (same length: IDs). */
static char *seed_subst(const char *text, const char *from, const char *to)
{
	char *out = strdup(text), *p = out;
	size_t n = strlen(from);

	while ((p = strstr(p, from)) != NULL) {
		memcpy(p, to, n);
		p += n;
	}
	return out;
}

static json_t *seed_json(const char *text, const char *from, const char *to)
{
	char *s = seed_subst(text, from, to);
	json_t *v = json_loads(s, 0, NULL);

	free(s);
	return v;
}

struct seed_batch {
	struct app *app;
	const struct seed_tpl *t;
	char (*ids)[TID_LEN + 1];
	int from, n;
};

static int seed_one(struct store *s, struct store_txn *txn, const struct seed_tpl *t, const char *id,
		    const uint8_t raw[TID_RAW])
{
	json_t *rec = seed_json(t->rec, t->tid, id), *prev = NULL, *pair;
	size_t i;
	int rc = rec ? 0 : -1;

	json_array_foreach(t->ckpts, i, pair) {
		json_t *meta = seed_json(json_string_value(json_array_get(pair, 0)), t->tid, id);
		json_t *state = seed_json(json_string_value(json_array_get(pair, 1)), t->tid, id);
		long step = (long)json_integer_value(json_object_get(meta, "step"));

		if (rc == 0)
			rc = store_ckpt_put(s, txn, raw, step, meta, state, prev);
		json_decref(meta);
		json_decref(prev);
		prev = state;
	}
	json_decref(prev);
	json_array_foreach(t->events, i, pair) {
		char *ev = seed_subst(json_string_value(json_array_get(pair, 1)), t->tid, id);

		if (rc == 0)
			rc = store_event_put(s, txn, raw, json_integer_value(json_array_get(pair, 0)), ev,
					     strlen(ev));
		free(ev);
	}
	if (rc == 0)
		rc = store_thread_put(s, txn, raw, rec);
	json_decref(rec);
	return rc;
}

static int seed_batch_fn(struct store *s, struct store_txn *txn, void *ctx)
{
	struct seed_batch *b = ctx;
	int rc = 0;

	for (int i = b->from; i < b->from + b->n && rc == 0; i++) {
		uint8_t raw[TID_RAW];

		if (tid_verify(b->app->keys, b->ids[i], raw) < 0)
			return -1;
		rc = seed_one(s, txn, b->t, b->ids[i], raw);
	}
	return rc;
}

static int seed_raw_cmp(const void *a, const void *b)
{
	return memcmp(a, b, TID_RAW);
}

int seed_copy(struct app *app, const struct seed_tpl *t, int n, int batch, char (*ids)[TID_LEN + 1])
{
	struct seed_batch b = { app, t, ids, 0, 0 };

	uint8_t (*raw)[TID_RAW] = malloc((size_t)n * TID_RAW);

	/* In key order: each copy lands beside the one before, as a bulk
	 * load would, instead of on a random page of every table. */
	randombytes_buf(raw, (size_t)n * TID_RAW);
	qsort(raw, (size_t)n, TID_RAW, seed_raw_cmp);
	for (int i = 0; i < n; i++)
		tid_format(app->keys, raw[i], ids[i]);
	free(raw);
	for (b.from = 0; b.from < n; b.from += b.n) {
		b.n = n - b.from < batch ? n - b.from : batch;
		if (store_txn(app->store, seed_batch_fn, &b) != 0) {
			fprintf(stderr, "storing copies %d to %d failed\n", b.from, b.from + b.n);
			return -1;
		}
		store_maintain(app->store);
	}
	return 0;
}

void seed_free(struct seed_tpl *t)
{
	free(t->rec);
	json_decref(t->ckpts);
	json_decref(t->events);
	memset(t, 0, sizeof *t);
}
