/* Assets: large blobs (masks, images, documents) stored once per thread,
 * keyed by the thread and a hash of the bytes, and referenced by id from
 * the state, so a state that carries a mask for 50 steps stores it once. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "store/store.h"
#include "util/xmalloc.h"

#define STORE_ASSET_KEY (STORE_TID + 16)
#define STORE_ASSET_B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

/* Bytes of assets one thread holds (read whole: puts are few and a
 * thread's assets small next to the cap). */
static long long store_asset_bytes(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID])
{
	uint8_t key[STORE_ASSET_KEY];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	long long total = 0;
	int rc;

	if (s->assets->cursor(s->assets, txn, &c, 0) != 0)
		return -1;
	memcpy(key, tid, STORE_TID);
	memset(key + STORE_TID, 0, sizeof key - STORE_TID);
	k.data = key;
	k.size = k.ulen = sizeof key;
	k.flags = DB_DBT_USERMEM;
	v.flags = DB_DBT_MALLOC;
	rc = c->get(c, &k, &v, DB_SET_RANGE);
	while (rc == 0 && memcmp(key, tid, STORE_TID) == 0) {
		total += v.size;
		free(v.data);
		v.data = NULL;
		rc = c->get(c, &k, &v, DB_NEXT);
	}
	free(v.data);
	c->close(c);
	return total;
}

int store_asset_put(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], const char *ctype,
		    const void *data, size_t len, char id[STORE_ASSET_ID_LEN + 1])
{
	uint8_t key[STORE_ASSET_KEY];
	size_t clen = strlen(ctype);
	DBT k = { 0 }, v = { 0 };
	uint8_t *val;
	int rc;

	if (clen > 255)
		return EINVAL;
	if (s->max_asset_bytes > 0 &&
	    store_asset_bytes(s, txn, tid) + (long long)len > s->max_asset_bytes)
		return ENOSPC;
	memcpy(key, tid, STORE_TID);
	crypto_generichash(key + STORE_TID, 16, data, len, NULL, 0);
	sodium_bin2base64(id, STORE_ASSET_ID_LEN + 1, key, sizeof key, STORE_ASSET_B64);
	/* Value: content-type length, content type, bytes. */
	val = xmalloc(1 + clen + len);
	val[0] = (uint8_t)clen;
	memcpy(val + 1, ctype, clen);
	memcpy(val + 1 + clen, data, len);
	k.data = key;
	k.size = sizeof key;
	v.data = val;
	v.size = (u_int32_t)(1 + clen + len);
	rc = s->assets->put(s->assets, txn, &k, &v, DB_NOOVERWRITE);
	free(val);
	return rc == DB_KEYEXIST ? 0 : rc;
}

/* The key an id stands for: 0, or -1 when id is not one. */
static int store_asset_key(const char *id, uint8_t key[STORE_ASSET_KEY])
{
	size_t got = 0;

	if (strlen(id) != STORE_ASSET_ID_LEN ||
	    sodium_base642bin(key, STORE_ASSET_KEY, id, STORE_ASSET_ID_LEN, NULL, &got, NULL,
			      STORE_ASSET_B64) != 0 || got != STORE_ASSET_KEY)
		return -1;
	return 0;
}

int store_asset_thread(const char *id, uint8_t tid[STORE_TID])
{
	uint8_t key[STORE_ASSET_KEY];

	if (store_asset_key(id, key) != 0)
		return -1;
	memcpy(tid, key, STORE_TID);
	return 0;
}

struct store_asset_get_ctx {
	uint8_t key[STORE_ASSET_KEY];
	DBT v;
};

static int store_asset_get_fn(struct store *s, DB_TXN *txn, void *p)
{
	struct store_asset_get_ctx *g = p;
	DBT k = { 0 };

	free(g->v.data);
	g->v.data = NULL;
	g->v.flags = DB_DBT_MALLOC;
	k.data = g->key;
	k.size = sizeof g->key;
	return s->assets->get(s->assets, txn, &k, &g->v, DB_READ_COMMITTED);
}

int store_asset_get(struct store *s, const char *id, char **ctype, void **data, size_t *len)
{
	struct store_asset_get_ctx g;
	uint8_t *p;
	int rc;

	memset(&g, 0, sizeof g);
	if (store_asset_key(id, g.key) != 0)
		return DB_NOTFOUND;
	rc = store_txn(s, store_asset_get_fn, &g);
	if (rc) {
		free(g.v.data);
		return rc;
	}
	p = g.v.data;
	if (g.v.size < 1u + p[0]) {
		free(g.v.data);
		return DB_NOTFOUND;
	}
	*ctype = xstrndup((const char *)p + 1, p[0]);
	*len = g.v.size - 1 - p[0];
	*data = xmalloc(*len ? *len : 1);
	memcpy(*data, p + 1 + p[0], *len);
	free(g.v.data);
	return 0;
}
