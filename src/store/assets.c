/* Assets: large blobs (masks, images, documents) stored once per thread,
 * keyed by the thread and a hash of the bytes, and referenced by id from
 * the state, so a state that carries a mask for 50 steps stores it once. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "store/backend.h"
#include "util/xmalloc.h"

#define STORE_ASSET_KEY (STORE_TID + 16)
#define STORE_ASSET_B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

static int store_asset_bytes_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen,
				   void *ctx)
{
	*(long long *)ctx += (long long)vlen;
	return 0;
}

/* Bytes of assets one thread holds (read whole: puts are few and a
 * thread's assets small next to the cap); -1 on failure. */
static long long store_asset_bytes(struct store *s, struct store_txn *txn,
				   const uint8_t tid[STORE_TID])
{
	long long total = 0;

	if (store_kv_scan(txn, STORE_T_ASSETS, tid, STORE_TID, STORE_TID, 0, 0,
			  store_asset_bytes_visit, &total) != 0)
		return -1;
	return total;
}

int store_asset_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
		    const char *ctype, const void *data, size_t len, char id[STORE_ASSET_ID_LEN + 1])
{
	uint8_t key[STORE_ASSET_KEY];
	size_t clen = strlen(ctype);
	long long held = 0;
	uint8_t *val;
	int rc;

	if (clen > 255)
		return EINVAL;
	if (s->max_asset_bytes > 0 && (held = store_asset_bytes(s, txn, tid)) < 0)
		return STORE_ERROR;
	if (s->max_asset_bytes > 0 && held + (long long)len > s->max_asset_bytes)
		return STORE_FULL;
	memcpy(key, tid, STORE_TID);
	crypto_generichash(key + STORE_TID, 16, data, len, NULL, 0);
	sodium_bin2base64(id, STORE_ASSET_ID_LEN + 1, key, sizeof key, STORE_ASSET_B64);
	/* Value: content-type length, content type, bytes. */
	val = xmalloc(1 + clen + len);
	val[0] = (uint8_t)clen;
	memcpy(val + 1, ctype, clen);
	memcpy(val + 1 + clen, data, len);
	rc = store_request_charge(s, 1 + clen + len);
	if (rc == 0)
		rc = store_kv_put(txn, STORE_T_ASSETS, key, sizeof key, val, 1 + clen + len,
				  STORE_KV_NEW);
	free(val);
	if (rc == STORE_EXISTS)
		store_request_refund(s, 1 + clen + len);   /* stored once: nothing added */
	return rc == STORE_EXISTS ? 0 : rc;
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
	void *v;
	size_t vlen;
};

static int store_asset_get_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_asset_get_ctx *g = p;

	free(g->v);
	g->v = NULL;
	return store_kv_get(txn, STORE_T_ASSETS, g->key, sizeof g->key, &g->v, &g->vlen,
			    STORE_READ_COMMITTED);
}

int store_asset_get(struct store *s, const char *id, char **ctype, void **data, size_t *len)
{
	struct store_asset_get_ctx g;
	uint8_t *p;
	int rc;

	memset(&g, 0, sizeof g);
	if (store_asset_key(id, g.key) != 0)
		return STORE_NOTFOUND;
	rc = store_txn(s, store_asset_get_fn, &g);
	if (rc) {
		free(g.v);
		return rc;
	}
	p = g.v;
	if (g.vlen < 1 || g.vlen < 1u + p[0]) {
		free(g.v);
		return STORE_NOTFOUND;
	}
	*ctype = xstrndup((const char *)p + 1, p[0]);
	*len = g.vlen - 1 - p[0];
	*data = xmalloc(*len ? *len : 1);
	memcpy(*data, p + 1 + p[0], *len);
	free(g.v);
	return 0;
}
