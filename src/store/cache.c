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

int store_cache_get(struct store *s, const char *ns, const char *text, json_t **out)
{
	uint8_t key[STORE_CACHE_KEY];
	DBT k = { 0 }, v = { 0 };
	int rc;

	*out = NULL;
	store_cache_key(key, ns, text);
	k.data = key;
	k.size = sizeof key;
	v.flags = DB_DBT_MALLOC;
	rc = s->cache->get(s->cache, NULL, &k, &v, DB_READ_COMMITTED);
	if (rc)
		return rc;
	if (v.size > 8 && store_cache_exp(&v) > clock_wall_ms())
		*out = json_loadb((const char *)v.data + 8, v.size - 8, 0, NULL);
	free(v.data);
	return *out ? 0 : DB_NOTFOUND;
}

int store_cache_put(struct store *s, const char *ns, const char *text, const json_t *value,
		    long long ttl_ms)
{
	uint8_t key[STORE_CACHE_KEY];
	long long exp = clock_wall_ms() + ttl_ms;
	char *json = json_dumps(value, JSON_COMPACT);
	size_t n = json ? strlen(json) : 0;
	uint8_t *buf;
	DBT k = { 0 }, v = { 0 };
	int rc;

	if (json == NULL)
		return EINVAL;
	buf = xmalloc(8 + n);
	for (int i = 7; i >= 0; i--, exp >>= 8)
		buf[i] = (uint8_t)(exp & 0xff);
	memcpy(buf + 8, json, n);
	free(json);
	store_cache_key(key, ns, text);
	k.data = key;
	k.size = sizeof key;
	v.data = buf;
	v.size = (u_int32_t)(8 + n);
	rc = s->cache->put(s->cache, NULL, &k, &v, 0);
	free(buf);
	return rc;
}

int store_cache_prune(struct store *s, int max)
{
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	long long now = clock_wall_ms();
	int n = 0, seen = 0, rc;

	/* Entries are in hash order: look at a window from a random place. */
	rc = s->cache->cursor(s->cache, NULL, &c, 0);
	if (rc)
		return -1;
	{
		uint8_t start[STORE_CACHE_KEY];

		randombytes_buf(start, sizeof start);
		k.data = start;
		k.size = sizeof start;
		k.ulen = sizeof start;
		k.flags = DB_DBT_USERMEM;
		v.flags = DB_DBT_MALLOC;
		rc = c->get(c, &k, &v, DB_SET_RANGE);
		while (rc == 0 && seen++ < max * 8 && n < max) {
			if (store_cache_exp(&v) <= now && c->del(c, 0) == 0)
				n++;
			free(v.data);
			v.data = NULL;
			rc = c->get(c, &k, &v, DB_NEXT);
		}
		free(v.data);
	}
	c->close(c);
	return n;
}
