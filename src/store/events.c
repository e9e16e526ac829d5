/* The durable event log: per thread, a gapless sequence of events, each
 * stored as the exact JSON text the live stream sent, so a replay is the
 * same bytes with the same ids. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "store/backend.h"

int store_event_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
		    long long seq, const char *json, size_t len)
{
	uint8_t key[STORE_TID + 8];

	store_key(key, tid, (uint64_t)seq, 8);
	store_touched(txn, tid);
	return store_kv_put(txn, STORE_T_EVENTS, key, sizeof key, json, len, STORE_KV_NEW);
}

static long long store_event_seq(const uint8_t *key)
{
	long long n = 0;

	for (int i = 0; i < 8; i++)
		n = n << 8 | key[STORE_TID + i];
	return n;
}

struct store_events_batch {
	json_t *out;
	int max;
	size_t max_bytes, bytes;
};

static int store_events_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	struct store_events_batch *b = ctx;
	json_t *pair;

	if (klen != STORE_TID + 8)
		return 0;
	if ((int)json_array_size(b->out) >= b->max || b->bytes >= b->max_bytes)
		return 1;
	pair = json_pack("[I, s#]", (json_int_t)store_event_seq(k), (const char *)v, (int)vlen);
	/* Never skip one: a gap would break replays. */
	if (pair == NULL)
		return EINVAL;
	json_array_append_new(b->out, pair);
	b->bytes += vlen;
	return 0;
}

/* One batch in one short read transaction: nothing is held once it returns,
 * so the caller can write to a slow client freely. */
static int store_events_batch(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
			      long long after, int max, size_t max_bytes, json_t *out)
{
	struct store_events_batch b = { out, max, max_bytes, 0 };
	uint8_t key[STORE_TID + 8];

	store_key(key, tid, (uint64_t)after + 1, 8);
	return store_kv_scan(txn, STORE_T_EVENTS, key, sizeof key, STORE_TID, (long)max + 1, 0,
			     store_events_visit, &b);
}

struct store_events_ctx {
	const uint8_t *tid;
	long long after;
	int max;
	size_t max_bytes;
	json_t *out;
};

static int store_events_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_events_ctx *e = p;

	json_array_clear(e->out);
	return store_events_batch(s, txn, e->tid, e->after, e->max, e->max_bytes, e->out);
}

int store_events_after(struct store *s, const uint8_t tid[STORE_TID], long long after, int max,
		       size_t max_bytes, json_t **out)
{
	struct store_events_ctx e = { tid, after, max, max_bytes, json_array() };
	int rc = store_txn(s, store_events_fn, &e);

	if (rc) {
		json_decref(e.out);
		e.out = NULL;
	}
	*out = e.out;
	return rc;
}
