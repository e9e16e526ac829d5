/* Checkpoints: one per step, holding the step's metadata and the state.
 * Every STORE_FULL_EVERY-th step (and the first) stores the whole state;
 * the others store only the top-level fields that changed from the parent
 * ({"set": {...}, "del": [...]}), since a node changes a few fields of a
 * state that carries the whole conversation. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "store/backend.h"
#include "store/pack.h"

#define STORE_FULL_EVERY 8

static void store_ckpt_key(uint8_t key[STORE_TID + 4], const uint8_t tid[STORE_TID], long step)
{
	store_key(key, tid, (uint64_t)step, 4);
}

/* New reference: the fields of state that differ from prev. */
static json_t *store_ckpt_diff(const json_t *state, const json_t *prev)
{
	json_t *set = json_object(), *del = json_array();
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)state, k, v)
		if (!json_equal(v, json_object_get(prev, k)))
			json_object_set(set, k, v);
	json_object_foreach((json_t *)prev, k, v)
		if (json_object_get(state, k) == NULL)
			json_array_append_new(del, json_string(k));
	return json_pack("{s:o, s:o}", "set", set, "del", del);
}

/* Applies a stored diff to state (modified in place). */
static void store_ckpt_apply(json_t *state, const json_t *rec)
{
	json_t *set = json_object_get(rec, "set"), *del = json_object_get(rec, "del"), *v;
	const char *k;
	size_t i;

	json_object_foreach(set, k, v)
		json_object_set(state, k, v);
	json_array_foreach(del, i, v)
		json_object_del(state, json_string_value(v));
}

/* Drops the checkpoints older than the oldest one history keeps, but never
 * the whole-state checkpoint that the kept ones are built on. */
static int store_ckpt_trim(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
			   long step)
{
	long oldest = step - s->history + 1, base = oldest - oldest % STORE_FULL_EVERY;
	uint8_t lo[STORE_TID + 4], hi[STORE_TID + 4];

	if (base <= 1)
		return 0;
	store_ckpt_key(lo, tid, 0);
	store_ckpt_key(hi, tid, base);
	return store_kv_del_range(txn, STORE_T_CKPTS, lo, sizeof lo, hi, sizeof hi);
}

int store_ckpt_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long step,
		   const json_t *meta, const json_t *state, const json_t *prev)
{
	json_t *rec = json_deep_copy(meta);
	uint8_t key[STORE_TID + 4];
	void *packed = NULL;
	size_t plen = 0;
	char *text;
	int rc;

	if (prev == NULL || step % STORE_FULL_EVERY == 0) {
		json_object_set(rec, "full", (json_t *)state);
	}
	else {
		json_t *d = store_ckpt_diff(state, prev);

		json_object_update(rec, d);
		json_decref(d);
	}
	text = jdump(rec);
	json_decref(rec);
	if (text == NULL)
		return ENOMEM;
	rc = store_request_charge(s, strlen(text));
	if (rc == 0)
		rc = store_pack(text, strlen(text), &packed, &plen);
	free(text);
	store_ckpt_key(key, tid, step);
	if (rc == 0)
		rc = store_kv_put(txn, STORE_T_CKPTS, key, sizeof key, packed, plen, 0);
	free(packed);
	if (rc == 0)
		rc = store_ckpt_trim(s, txn, tid, step);
	return rc;
}

static int store_ckpt_read(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long step,
			   json_t **rec)
{
	uint8_t key[STORE_TID + 4];
	void *v = NULL, *text = NULL;
	size_t vlen = 0, tlen = 0;
	int rc;

	store_ckpt_key(key, tid, step);
	*rec = NULL;
	rc = store_kv_get(txn, STORE_T_CKPTS, key, sizeof key, &v, &vlen, 0);
	if (rc)
		return rc;
	rc = store_unpack(v, vlen, &text, &tlen);
	free(v);
	if (rc)
		return rc;
	*rec = json_loadb(text, tlen, 0, NULL);
	free(text);
	return *rec ? 0 : STORE_NOTFOUND;
}

static int store_ckpt_load(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long step,
			   json_t **state, json_t **meta)
{
	json_t *chain[STORE_FULL_EVERY + 1];
	int n = 0, rc = 0;
	long at = step;

	*state = NULL;
	/* Back to the nearest whole state, then forward through the diffs. */
	while (n <= STORE_FULL_EVERY) {
		rc = store_ckpt_read(s, txn, tid, at, &chain[n]);
		if (rc)
			break;
		if (json_object_get(chain[n++], "full"))
			break;
		at--;
	}
	if (rc == 0 && n > 0 && json_object_get(chain[n - 1], "full")) {
		*state = json_deep_copy(json_object_get(chain[n - 1], "full"));
		for (int i = n - 2; i >= 0; i--)
			store_ckpt_apply(*state, chain[i]);
	} else if (rc == 0) {
		rc = STORE_NOTFOUND;
	}
	if (meta && rc == 0) {
		*meta = json_deep_copy(chain[0]);
		json_object_del(*meta, "full");
		json_object_del(*meta, "set");
		json_object_del(*meta, "del");
	}
	for (int i = 0; i < n; i++)
		json_decref(chain[i]);
	return rc;
}

struct store_ckpt_get_ctx {
	const uint8_t *tid;
	long step;
	json_t **state, **meta;
};

static int store_ckpt_get_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_ckpt_get_ctx *g = p;

	json_decref(*g->state);
	if (g->meta) {
		json_decref(*g->meta);
		*g->meta = NULL;
	}
	return store_ckpt_load(s, txn, g->tid, g->step, g->state, g->meta);
}

int store_ckpt_get(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long step,
		   json_t **state, json_t **meta)
{
	struct store_ckpt_get_ctx g = { tid, step, state, meta };

	if (txn)
		return store_ckpt_load(s, txn, tid, step, state, meta);
	*state = NULL;
	if (meta)
		*meta = NULL;
	return store_txn(s, store_ckpt_get_fn, &g);
}

int store_ckpt_history(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long latest,
		       long limit, json_t **out)
{
	*out = json_array();
	for (long step = latest; step >= 0 && (long)json_array_size(*out) < limit; step--) {
		json_t *state, *meta;
		int rc = store_ckpt_get(s, txn, tid, step, &state, &meta);

		if (rc == STORE_NOTFOUND)
			break;
		if (rc) {
			json_decref(*out);
			*out = NULL;
			return rc;
		}
		json_object_set_new(meta, "state", state);
		json_array_append_new(*out, meta);
	}
	return 0;
}

long long store_ckpt_bytes(struct store *s, const uint8_t tid[STORE_TID])
{
	return store_thread_bytes(s, STORE_T_CKPTS, tid);
}
