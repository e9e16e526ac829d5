/* Pruning: a few expired threads at a time, inside normal requests, so no
 * separate daemon is needed. An expired thread leaves a tombstone (its ID
 * answers 410 instead of 404) that is itself removed later. */
#include "config.h"
#include <string.h>
#include "store/backend.h"
#include "util/clock.h"

int store_thread_purge(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID])
{
	int rc = store_kv_del_prefix(txn, STORE_T_CKPTS, tid, STORE_TID);

	if (rc == 0)
		rc = store_kv_del_prefix(txn, STORE_T_EVENTS, tid, STORE_TID);
	if (rc == 0)
		rc = store_kv_del_prefix(txn, STORE_T_ASSETS, tid, STORE_TID);
	return rc;
}

struct store_prune_ctx {
	long long now;
	int done;   /* 1: one pruned; 0: nothing due */
};

struct store_prune_first {
	uint8_t key[8 + STORE_TID];
	int found;
};

/* The first entry of the expiry index. */
static int store_prune_first(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	struct store_prune_first *f = ctx;

	if (klen == sizeof f->key) {
		memcpy(f->key, k, klen);
		f->found = 1;
	}
	return 1;
}

static int store_prune_one(struct store *s, struct store_txn *txn, void *p)
{
	struct store_prune_ctx *pc = p;
	struct store_prune_first first = { .found = 0 };
	uint8_t *key = first.key;
	long long exp = 0;
	json_t *rec = NULL;
	int rc;

	pc->done = 0;
	rc = store_kv_scan(txn, STORE_T_EXPIRY, NULL, 0, 0, 1, STORE_RMW | STORE_KV_KEYS,
			   store_prune_first, &first);
	if (rc || !first.found)
		return rc;
	for (int i = 0; i < 8; i++)
		exp = exp << 8 | key[i];
	if (exp >= pc->now)
		return 0;
	rc = store_kv_del(txn, STORE_T_EXPIRY, key, sizeof first.key);
	if (rc)
		return rc;
	pc->done = 1;
	rc = store_thread_get(s, txn, key + 8, &rec, STORE_RMW);
	if (rc == STORE_NOTFOUND)
		return 0;
	if (rc == 0 && json_integer_value(json_object_get(rec, "iexp")) != exp) {
		/* A stale entry: the thread is indexed elsewhere. */
		rc = 0;
	} else if (rc == 0 && json_integer_value(json_object_get(rec, "exp")) >= pc->now) {
		/* Still alive (the index is lazy): index it at its real expiry. */
		json_object_set_new(rec, "iexp", json_integer(0));
		rc = store_thread_put(s, txn, key + 8, rec);
	} else if (rc == 0) {
		const char *st = json_string_value(json_object_get(rec, "status"));

		if (st && strcmp(st, "expired") == 0) {
			rc = store_kv_del(txn, STORE_T_THREADS, key + 8, STORE_TID);
		} else {
			rc = store_thread_purge(s, txn, key + 8);
			json_decref(rec);
			/* iexp 0: the tombstone is indexed afresh. */
			rec = json_pack("{s:s, s:I, s:I}", "status", "expired", "updated",
					(json_int_t)pc->now, "expiredAt", (json_int_t)pc->now);
			if (rc == 0)
				rc = store_thread_put(s, txn, key + 8, rec);
		}
	}
	json_decref(rec);
	return rc;
}

int store_prune(struct store *s, long long now_ms, int max)
{
	struct store_prune_ctx pc = { now_ms, 0 };
	int n = 0;

	while (n < max) {
		if (store_txn(s, store_prune_one, &pc) != 0)
			return -1;
		if (!pc.done)
			break;
		n++;
	}
	return n;
}
