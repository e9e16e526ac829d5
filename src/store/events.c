/* The durable event log: per thread, a gapless sequence of events, each
 * stored as the exact JSON text the live stream sent, so a replay is the
 * same bytes with the same ids. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "store/store.h"

int store_event_put(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], long long seq,
		    const char *json, size_t len)
{
	uint8_t key[STORE_TID + 8];
	DBT k = { 0 }, v = { 0 };

	store_key(key, tid, (uint64_t)seq, 8);
	k.data = key;
	k.size = sizeof key;
	v.data = (void *)json;
	v.size = (u_int32_t)len;
	return s->events->put(s->events, txn, &k, &v, DB_NOOVERWRITE);
}

static long long store_event_seq(const uint8_t *key)
{
	long long n = 0;

	for (int i = 0; i < 8; i++)
		n = n << 8 | key[STORE_TID + i];
	return n;
}

/* One batch in one short read transaction: nothing is held once it returns,
 * so the caller can write to a slow client freely. */
static int store_events_batch(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID],
			      long long after, int max, size_t max_bytes, json_t *out)
{
	uint8_t key[STORE_TID + 8];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	size_t bytes = 0;
	int rc;

	rc = s->events->cursor(s->events, txn, &c, 0);
	if (rc)
		return rc;
	store_key(key, tid, (uint64_t)after + 1, 8);
	k.data = key;
	k.size = k.ulen = sizeof key;
	k.flags = DB_DBT_USERMEM;
	v.flags = DB_DBT_MALLOC;
	rc = c->get(c, &k, &v, DB_SET_RANGE);
	while (rc == 0 && k.size == sizeof key && memcmp(key, tid, STORE_TID) == 0 &&
	       (int)json_array_size(out) < max && bytes < max_bytes) {
		json_t *pair = json_pack("[I, s#]", (json_int_t)store_event_seq(key),
					 (const char *)v.data, (int)v.size);

		if (pair == NULL) {
			/* Never skip one: a gap would break replays. */
			rc = EINVAL;
			break;
		}
		json_array_append_new(out, pair);
		bytes += v.size;
		free(v.data);
		v.data = NULL;
		rc = c->get(c, &k, &v, DB_NEXT);
	}
	free(v.data);
	c->close(c);
	return rc == DB_NOTFOUND ? 0 : rc;
}

struct store_events_ctx {
	const uint8_t *tid;
	long long after;
	int max;
	size_t max_bytes;
	json_t *out;
};

static int store_events_fn(struct store *s, DB_TXN *txn, void *p)
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
