/* Thread records and the expiry index that orders them for pruning. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "store/backend.h"
#include "store/rec_cache.h"
#include "util/log.h"

/* Keeps text (taken) and rec (a new reference: the caller no longer
 * changes it, store.h) as tid's last record (rec_cache.h). */
static void store_thread_cache_put(struct store *s, const uint8_t tid[STORE_TID], char *text,
				   json_t *rec)
{
	store_rec_cache_free(s->rec_cache);
	s->rec_cache = store_rec_cache_new(tid, STORE_TID, text, rec);
}

/* New reference: the record the bytes v hold, from the cache when they
 * are its text. */
static json_t *store_thread_parse(struct store *s, const uint8_t tid[STORE_TID], const void *v,
				  size_t vlen)
{
	json_t *rec = store_rec_cache_match(s->rec_cache, tid, STORE_TID, v, vlen);
	json_error_t jerr;

	if (rec)
		return rec;
	rec = json_loadb(v, vlen, 0, &jerr);
	if (rec == NULL)
		log_error("corrupt thread record: %s", jerr.text);
	return rec;
}

static int store_thread_read(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
			     json_t **rec, unsigned flags)
{
	void *v = NULL;
	size_t vlen = 0;
	int rc;

	*rec = NULL;
	rc = store_kv_get(txn, STORE_T_THREADS, tid, STORE_TID, &v, &vlen, flags);
	if (rc != 0)
		return rc;
	*rec = store_thread_parse(s, tid, v, vlen);
	free(v);
	return *rec ? 0 : STORE_NOTFOUND;
}

struct store_thread_get_ctx {
	const uint8_t *tid;
	json_t **rec;
	unsigned flags;
};

static int store_thread_get_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_thread_get_ctx *g = p;

	json_decref(*g->rec);
	return store_thread_read(s, txn, g->tid, g->rec, g->flags);
}

int store_thread_get(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], json_t **rec,
		     unsigned flags)
{
	struct store_thread_get_ctx g = { tid, rec, flags };

	if (txn)
		return store_thread_read(s, txn, tid, rec, flags);
	*rec = NULL;
	return store_txn(s, store_thread_get_fn, &g);
}

/* How long a record lives after its last update, by status. */
static long long store_thread_ttl(struct store *s, const char *status)
{
	if (strcmp(status, "running") == 0 || strcmp(status, "paused") == 0)
		return s->thread_ttl_ms;
	if (strcmp(status, "expired") == 0)
		return s->tombstone_ttl_ms;
	return s->done_ttl_ms;
}

/* Expiry index key: the time first (big-endian), so a cursor walks the
 * oldest first; then the thread. */
void store_expiry_key(uint8_t key[8 + STORE_TID], long long exp, const uint8_t tid[STORE_TID])
{
	for (int i = 7; i >= 0; i--, exp >>= 8)
		key[i] = (uint8_t)(exp & 0xff);
	memcpy(key + 8, tid, STORE_TID);
}

static int store_expiry_del(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long long exp)
{
	uint8_t key[8 + STORE_TID];
	int rc;

	store_expiry_key(key, exp, tid);
	rc = store_kv_del(txn, STORE_T_EXPIRY, key, sizeof key);
	return rc == STORE_NOTFOUND ? 0 : rc;
}

static int store_expiry_add(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long long exp)
{
	uint8_t key[8 + STORE_TID];

	store_expiry_key(key, exp, tid);
	return store_kv_put(txn, STORE_T_EXPIRY, key, sizeof key, "", 0, 0);
}

/* The expiry index is lazy: an update moves a thread's entry only when its
 * expiry comes before the entry (a shorter ttl); one that runs past it
 * leaves the entry where it is, so a commit writes no index page, and
 * resuming a thread paused long ago touches no page of the index where
 * its old entry sits. The pruner checks the record's own "exp" when the
 * entry comes due and re-indexes a thread that is still alive: once per
 * ttl at most, off the request's path. */
int store_thread_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], json_t *rec)
{
	const char *status = json_string_value(json_object_get(rec, "status"));
	long long updated = json_integer_value(json_object_get(rec, "updated"));
	long long iexp = json_integer_value(json_object_get(rec, "iexp"));
	long long exp = updated + store_thread_ttl(s, status ? status : "running");
	char *text;
	int rc = 0;

	json_object_set_new(rec, "exp", json_integer(exp));
	if (iexp == 0 || exp < iexp) {
		if (iexp)
			rc = store_expiry_del(s, txn, tid, iexp);
		if (rc == 0)
			rc = store_expiry_add(s, txn, tid, exp);
		if (rc)
			return rc;
		json_object_set_new(rec, "iexp", json_integer(exp));
	}
	text = jdump(rec);
	if (text == NULL)
		return ENOMEM;
	store_touched(txn, tid);
	rc = store_kv_put(txn, STORE_T_THREADS, tid, STORE_TID, text, strlen(text), 0);
	if (rc == 0)
		store_thread_cache_put(s, tid, text, rec);
	else
		free(text);
	return rc;
}
