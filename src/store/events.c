/* The durable event log: per thread, a gapless sequence of events, each
 * stored as the exact JSON text the live stream sent, so a replay is the
 * same bytes with the same ids. A step's events are one packed record
 * keyed by its last seq (store.h), so a read from seq n starts at the
 * first record whose key is n or more. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "store/backend.h"
#include "store/pack.h"

int store_events_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
		     long long last, const char *texts, size_t len)
{
	uint8_t key[STORE_TID + 8];
	void *packed;
	size_t plen;
	int rc;

	if (len == 0 || texts[len - 1] != '\0')
		return EINVAL;
	if ((rc = store_request_charge(s, len)) != 0)
		return rc;
	rc = store_pack(texts, len, &packed, &plen);
	if (rc)
		return rc;
	store_key(key, tid, (uint64_t)last, 8);
	store_touched(txn, tid);
	rc = store_kv_put(txn, STORE_T_EVENTS, key, sizeof key, packed, plen, STORE_KV_NEW);
	free(packed);
	return rc;
}

int store_event_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
		    long long seq, const char *json, size_t len)
{
	char *texts = malloc(len + 1);
	int rc;

	if (texts == NULL)
		return ENOMEM;
	memcpy(texts, json, len);
	texts[len] = '\0';
	rc = memchr(json, '\0', len) ? EINVAL : store_events_put(s, txn, tid, seq, texts, len + 1);
	free(texts);
	return rc;
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
	long long after;
	int max;
	size_t max_bytes, bytes;
};

/* The number of texts in an unpacked record (each ends with a NUL; a
 * record written before batching is one text without it). */
static long long store_events_count(const char *p, size_t n)
{
	long long count = 0;

	for (size_t i = 0; i < n; i++)
		count += p[i] == '\0';
	return n > 0 && p[n - 1] != '\0' ? count + 1 : count;
}

static int store_events_add(struct store_events_batch *b, long long seq, const char *text, size_t len)
{
	json_t *pair;

	if ((int)json_array_size(b->out) >= b->max || b->bytes >= b->max_bytes)
		return 1;
	pair = json_pack("[I, s#]", (json_int_t)seq, text, (int)len);
	/* Never skip one: a gap would break replays. */
	if (pair == NULL)
		return EINVAL;
	json_array_append_new(b->out, pair);
	b->bytes += len;
	return 0;
}

static int store_events_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	struct store_events_batch *b = ctx;
	size_t n, i = 0;
	char *p;
	long long seq;
	int rc;

	if (klen != STORE_TID + 8)
		return 0;
	if ((int)json_array_size(b->out) >= b->max || b->bytes >= b->max_bytes)
		return 1;
	rc = store_unpack(v, vlen, (void **)&p, &n);
	if (rc)
		return rc;
	seq = store_event_seq(k) - store_events_count(p, n) + 1;
	while (rc == 0 && i < n) {
		size_t len = strnlen(p + i, n - i);

		if (seq > b->after)
			rc = store_events_add(b, seq, p + i, len);
		i += len + 1;
		seq++;
	}
	free(p);
	return rc;
}

/* One batch in one short read transaction: nothing is held once it returns,
 * so the caller can write to a slow client freely. */
static int store_events_batch(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
			      long long after, int max, size_t max_bytes, json_t *out)
{
	struct store_events_batch b = { out, after, max, max_bytes, 0 };
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

long long store_events_bytes(struct store *s, const uint8_t tid[STORE_TID])
{
	return store_thread_bytes(s, STORE_T_EVENTS, tid);
}
