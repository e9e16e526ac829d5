/* Small caches in the store, shared by every worker: a value (JSON) under
 * a hashed key, with an expiry. Retrieval results and model answers for
 * identical prompts live here (seed 000 §7.2 / §8.2). Expired entries are
 * ignored when read and removed a few at a time by store_cache_prune. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "store/store.h"
#include "util/clock.h"
#include "util/xmalloc.h"
#include "util/jnum.h"

#define STORE_CACHE_KEY 16

static void store_cache_key(uint8_t key[STORE_CACHE_KEY], const char *ns, const char *text)
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, NULL, 0, STORE_CACHE_KEY);
	crypto_generichash_update(&st, (const unsigned char *)ns, strlen(ns) + 1);
	crypto_generichash_update(&st, (const unsigned char *)text, strlen(text));
	crypto_generichash_final(&st, key, STORE_CACHE_KEY);
}

static long long store_cache_exp(const DBT *v)
{
	const uint8_t *p = v->data;
	long long e = 0;

	for (int i = 0; i < 8 && (u_int32_t)i < v->size; i++)
		e = e << 8 | p[i];
	return e;
}

/* One read or write of an entry, in the transaction store_txn gives. */
struct store_cache_op {
	uint8_t key[STORE_CACHE_KEY];
	DBT v;                /* get: the value read (malloc'd); put: the value */
	int put;
};

static int store_cache_fn(struct store *s, DB_TXN *txn, void *p)
{
	struct store_cache_op *op = p;
	DBT k = { 0 };

	k.data = op->key;
	k.size = sizeof op->key;
	if (op->put)
		return s->cache->put(s->cache, txn, &k, &op->v, 0);
	free(op->v.data);
	op->v.data = NULL;
	op->v.flags = DB_DBT_MALLOC;
	return s->cache->get(s->cache, txn, &k, &op->v, DB_READ_COMMITTED);
}

int store_cache_get(struct store *s, const char *ns, const char *text, json_t **out)
{
	struct store_cache_op op = { .put = 0 };
	int rc;

	*out = NULL;
	store_cache_key(op.key, ns, text);
	rc = store_txn(s, store_cache_fn, &op);
	if (rc == 0 && op.v.size > 8 && store_cache_exp(&op.v) > clock_wall_ms())
		*out = json_loadb((const char *)op.v.data + 8, op.v.size - 8, 0, NULL);
	free(op.v.data);
	if (rc)
		return rc;
	return *out ? 0 : DB_NOTFOUND;
}

int store_cache_put(struct store *s, const char *ns, const char *text, const json_t *value,
		    long long ttl_ms)
{
	struct store_cache_op op = { .put = 1 };
	long long exp = clock_wall_ms() + ttl_ms;
	char *json = json_dumps(value, JNUM_DUMP);
	size_t n = json ? strlen(json) : 0;
	uint8_t *buf;
	int rc;

	if (json == NULL)
		return EINVAL;
	buf = xmalloc(8 + n);
	for (int i = 7; i >= 0; i--, exp >>= 8)
		buf[i] = (uint8_t)(exp & 0xff);
	memcpy(buf + 8, json, n);
	free(json);
	store_cache_key(op.key, ns, text);
	op.v.data = buf;
	op.v.size = (u_int32_t)(8 + n);
	rc = store_txn(s, store_cache_fn, &op);
	free(buf);
	return rc;
}

struct store_cache_prune_ctx {
	int max, n;
	long long now;
};

static int store_cache_prune_fn(struct store *s, DB_TXN *txn, void *p)
{
	struct store_cache_prune_ctx *pc = p;
	uint8_t start[STORE_CACHE_KEY];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	int seen = 0, rc;

	pc->n = 0;
	/* Entries are in hash order: look at a window from a random place. */
	rc = s->cache->cursor(s->cache, txn, &c, 0);
	if (rc)
		return rc;
	randombytes_buf(start, sizeof start);
	k.data = start;
	k.size = sizeof start;
	k.ulen = sizeof start;
	k.flags = DB_DBT_USERMEM;
	v.flags = DB_DBT_MALLOC;
	rc = c->get(c, &k, &v, DB_SET_RANGE);
	while (rc == 0 && seen++ < pc->max * 8 && pc->n < pc->max) {
		if (store_cache_exp(&v) <= pc->now && (rc = c->del(c, 0)) == 0)
			pc->n++;
		free(v.data);
		v.data = NULL;
		if (rc == 0)
			rc = c->get(c, &k, &v, DB_NEXT);
	}
	free(v.data);
	c->close(c);
	return rc == DB_NOTFOUND ? 0 : rc;
}

int store_cache_prune(struct store *s, int max)
{
	struct store_cache_prune_ctx pc = { max, 0, clock_wall_ms() };

	return store_txn(s, store_cache_prune_fn, &pc) == 0 ? pc.n : -1;
}
