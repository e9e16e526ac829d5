/* Pruning: a few expired threads at a time, inside normal requests, so no
 * separate daemon is needed. An expired thread leaves a tombstone (its ID
 * answers 410 instead of 404) that is itself removed later. */
#include "config.h"
#include <string.h>
#include "store/store.h"
#include "util/clock.h"

/* Deletes every record in db whose key starts with tid. */
static int store_purge_prefix(DB *db, DB_TXN *txn, const uint8_t tid[STORE_TID])
{
	uint8_t key[64];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	int rc = db->cursor(db, txn, &c, 0);

	if (rc)
		return rc;
	memcpy(key, tid, STORE_TID);
	k.data = key;
	k.size = STORE_TID;
	k.ulen = sizeof key;
	k.flags = DB_DBT_USERMEM;
	v.flags = DB_DBT_PARTIAL;
	rc = c->get(c, &k, &v, DB_SET_RANGE);
	while (rc == 0 && k.size >= STORE_TID && memcmp(key, tid, STORE_TID) == 0) {
		rc = c->del(c, 0);
		if (rc == 0)
			rc = c->get(c, &k, &v, DB_NEXT);
	}
	c->close(c);
	return rc == DB_NOTFOUND ? 0 : rc;
}

int store_thread_purge(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID])
{
	int rc = store_purge_prefix(s->ckpts, txn, tid);

	if (rc == 0)
		rc = store_purge_prefix(s->events, txn, tid);
	if (rc == 0)
		rc = store_purge_prefix(s->assets, txn, tid);
	return rc;
}

struct store_prune_ctx {
	long long now;
	int done;   /* 1: one pruned; 0: nothing due */
};

static int store_prune_one(struct store *s, DB_TXN *txn, void *p)
{
	struct store_prune_ctx *pc = p;
	uint8_t key[8 + STORE_TID];
	long long exp = 0;
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	json_t *rec = NULL;
	int rc;

	pc->done = 0;
	rc = s->expiry->cursor(s->expiry, txn, &c, 0);
	if (rc)
		return rc;
	k.data = key;
	k.ulen = sizeof key;
	k.flags = DB_DBT_USERMEM;
	v.flags = DB_DBT_PARTIAL;
	rc = c->get(c, &k, &v, DB_FIRST | DB_RMW);
	if (rc == 0 && k.size == sizeof key) {
		for (int i = 0; i < 8; i++)
			exp = exp << 8 | key[i];
		if (exp < pc->now) {
			rc = c->del(c, 0);
			pc->done = 1;
		}
	}
	c->close(c);
	if (rc || !pc->done)
		return rc == DB_NOTFOUND ? 0 : rc;
	rc = store_thread_get(s, txn, key + 8, &rec, DB_RMW);
	if (rc == DB_NOTFOUND)
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
			DBT tk = { .data = key + 8, .size = STORE_TID };

			rc = s->threads->del(s->threads, txn, &tk, 0);
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
