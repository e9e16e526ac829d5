/* Small caches in the store, shared by every worker: a value (JSON) under
 * a hashed key, with an expiry. Retrieval results and model answers for
 * identical prompts live here (seed 000 §7.2 / §8.2). Expired entries are
 * ignored when read and removed a few at a time by store_cache_prune. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "json/dump.h"
#include "store/backend.h"
#include "util/clock.h"
#include "util/xmalloc.h"

#define STORE_CACHE_KEY 16

static void store_cache_key(uint8_t key[STORE_CACHE_KEY], const char *ns, const char *text)
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, NULL, 0, STORE_CACHE_KEY);
	crypto_generichash_update(&st, (const unsigned char *)ns, strlen(ns) + 1);
	crypto_generichash_update(&st, (const unsigned char *)text, strlen(text));
	crypto_generichash_final(&st, key, STORE_CACHE_KEY);
}

static long long store_cache_exp(const void *v, size_t vlen)
{
	const uint8_t *p = v;
	long long e = 0;

	for (size_t i = 0; i < 8 && i < vlen; i++)
		e = e << 8 | p[i];
	return e;
}

/* One read or write of an entry, in the transaction store_txn gives. */
struct store_cache_op {
	uint8_t key[STORE_CACHE_KEY];
	void *v;              /* get: the value read (malloc'd); put: the value */
	size_t vlen;
	int put;
};

static int store_cache_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_cache_op *op = p;

	if (op->put)
		return store_kv_put(txn, STORE_T_CACHE, op->key, sizeof op->key, op->v, op->vlen, 0);
	free(op->v);
	op->v = NULL;
	return store_kv_get(txn, STORE_T_CACHE, op->key, sizeof op->key, &op->v, &op->vlen,
			    STORE_READ_COMMITTED);
}

int store_cache_get(struct store *s, const char *ns, const char *text, json_t **out)
{
	struct store_cache_op op = { .put = 0 };
	int rc;

	*out = NULL;
	store_cache_key(op.key, ns, text);
	rc = store_txn(s, store_cache_fn, &op);
	if (rc == 0 && op.vlen > 8 && store_cache_exp(op.v, op.vlen) > clock_wall_ms())
		*out = json_loadb((const char *)op.v + 8, op.vlen - 8, 0, NULL);
	free(op.v);
	if (rc)
		return rc;
	return *out ? 0 : STORE_NOTFOUND;
}

int store_cache_put(struct store *s, const char *ns, const char *text, const json_t *value,
		    long long ttl_ms)
{
	struct store_cache_op op = { .put = 1 };
	long long exp = clock_wall_ms() + ttl_ms;
	char *json = jdump(value);
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
	op.v = buf;
	op.vlen = 8 + n;
	rc = store_txn(s, store_cache_fn, &op);
	free(buf);
	return rc;
}

struct store_cache_prune_ctx {
	int max, n;
	long long now;
	uint8_t (*due)[STORE_CACHE_KEY];   /* the expired keys seen */
};

static int store_cache_prune_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen,
				   void *ctx)
{
	struct store_cache_prune_ctx *pc = ctx;

	if (pc->n >= pc->max)
		return 1;
	if (klen == STORE_CACHE_KEY && store_cache_exp(v, vlen) <= pc->now)
		memcpy(pc->due[pc->n++], k, STORE_CACHE_KEY);
	return 0;
}

static int store_cache_prune_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_cache_prune_ctx *pc = p;
	uint8_t start[STORE_CACHE_KEY];
	int rc;

	pc->n = 0;
	/* Entries are in hash order: look at a window from a random place. */
	randombytes_buf(start, sizeof start);
	rc = store_kv_scan(txn, STORE_T_CACHE, start, sizeof start, 0, (long)pc->max * 8, 0,
			   store_cache_prune_visit, pc);
	for (int i = 0; rc == 0 && i < pc->n; i++)
		if ((rc = store_kv_del(txn, STORE_T_CACHE, pc->due[i], STORE_CACHE_KEY)) ==
		    STORE_NOTFOUND)
			rc = 0;
	return rc;
}

int store_cache_prune(struct store *s, int max)
{
	struct store_cache_prune_ctx pc = { max, 0, clock_wall_ms(), NULL };
	int rc;

	if (max <= 0)
		return 0;
	pc.due = xcalloc((size_t)max, sizeof *pc.due);
	rc = store_txn(s, store_cache_prune_fn, &pc);
	free(pc.due);
	return rc == 0 ? pc.n : -1;
}
