/* Packing stored records with zstd and the project's dictionary (pack.h).
 * One compression and one decompression context per process, made on
 * first use and kept (a worker packs a few records per step); the
 * dictionaries are digested once. A mutex keeps them to one caller at a
 * time. */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "store/pack.h"
#include "store/store.h"
#include "store/zdict.h"
#include "util/log.h"

/* Level 1: with the dictionary, records come out about a tenth larger
 * than at level 3, for a sixth of the memory (the digested dictionary of
 * level 3 takes 440 KiB in every worker). */
#define STORE_PACK_LEVEL 1
#define STORE_PACK_MAX_DICTS 8

const struct store_zdict *const store_zdicts[] = { &store_zdict_1, NULL };

static struct {
	pthread_once_t once;
	pthread_mutex_t lock;
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
	ZSTD_CDict *cdict;
	ZSTD_DDict *ddicts[STORE_PACK_MAX_DICTS];
	int ready;
} store_pack_state = { PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, { NULL }, 0 };

static void store_pack_init(void)
{
	const struct store_zdict *newest = store_zdicts[0];
	int ok;

	store_pack_state.cctx = ZSTD_createCCtx();
	store_pack_state.dctx = ZSTD_createDCtx();
	store_pack_state.cdict = ZSTD_createCDict(newest->data, newest->len, STORE_PACK_LEVEL);
	ok = store_pack_state.cctx && store_pack_state.dctx && store_pack_state.cdict;
	for (int i = 0; ok && store_zdicts[i] && i < STORE_PACK_MAX_DICTS; i++) {
		store_pack_state.ddicts[i] = ZSTD_createDDict(store_zdicts[i]->data, store_zdicts[i]->len);
		ok = store_pack_state.ddicts[i] != NULL;
	}
	/* Frames carry the dictionary's id, their size and a checksum of
	 * their content (4 bytes): a damaged record is an error, never other
	 * text. */
	if (ok)
		ok = !ZSTD_isError(ZSTD_CCtx_refCDict(store_pack_state.cctx, store_pack_state.cdict)) &&
		     !ZSTD_isError(ZSTD_CCtx_setParameter(store_pack_state.cctx, ZSTD_c_checksumFlag, 1)) &&
		     !ZSTD_isError(ZSTD_CCtx_setParameter(store_pack_state.cctx, ZSTD_c_contentSizeFlag, 1)) &&
		     !ZSTD_isError(ZSTD_CCtx_setParameter(store_pack_state.cctx, ZSTD_c_dictIDFlag, 1));
	store_pack_state.ready = ok;
	if (!ok)
		log_error("store: cannot set up zstd with dictionary %u", newest->id);
}

static int store_pack_begin(void)
{
	pthread_once(&store_pack_state.once, store_pack_init);
	if (!store_pack_state.ready)
		return STORE_ERROR;
	pthread_mutex_lock(&store_pack_state.lock);
	return 0;
}

static void store_pack_end(void)
{
	pthread_mutex_unlock(&store_pack_state.lock);
}

int store_pack(const void *in, size_t len, void **out, size_t *outlen)
{
	size_t cap = ZSTD_compressBound(len), n;
	void *p = malloc(cap);
	int rc;

	if (p == NULL)
		return ENOMEM;
	rc = store_pack_begin();
	if (rc) {
		free(p);
		return rc;
	}
	n = ZSTD_compress2(store_pack_state.cctx, p, cap, in, len);
	store_pack_end();
	if (ZSTD_isError(n)) {
		log_error("store: packing a record of %zu bytes: %s", len, ZSTD_getErrorName(n));
		free(p);
		return STORE_ERROR;
	}
	*out = realloc(p, n) ?: p;
	*outlen = n;
	return 0;
}

int store_is_packed(const void *v, size_t vlen)
{
	const unsigned char *b = v;

	return vlen >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd;
}

static ZSTD_DDict *store_pack_ddict(unsigned id)
{
	for (int i = 0; store_zdicts[i] && i < STORE_PACK_MAX_DICTS; i++)
		if (store_zdicts[i]->id == id)
			return store_pack_state.ddicts[i];
	return NULL;
}

static int store_unpack_frame(const void *v, size_t vlen, char **out, size_t *outlen)
{
	unsigned long long size = ZSTD_getFrameContentSize(v, vlen);
	unsigned id = ZSTD_getDictID_fromFrame(v, vlen);
	ZSTD_DDict *dd = store_pack_ddict(id);
	size_t n;
	char *p;

	if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR || size > (1ull << 30)) {
		log_error("store: a packed record without a valid size");
		return STORE_ERROR;
	}
	if (dd == NULL) {
		log_error("store: a record packed with dictionary %u, which this build does not have", id);
		return STORE_ERROR;
	}
	p = malloc((size_t)size + 1);
	if (p == NULL)
		return ENOMEM;
	n = ZSTD_decompress_usingDDict(store_pack_state.dctx, p, (size_t)size, v, vlen, dd);
	if (ZSTD_isError(n) || n != size) {
		log_error("store: a corrupt packed record: %s",
			  ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size");
		free(p);
		return STORE_ERROR;
	}
	p[n] = '\0';
	*out = p;
	*outlen = n;
	return 0;
}

int store_unpack(const void *v, size_t vlen, void **out, size_t *outlen)
{
	char *p;
	int rc;

	*out = NULL;
	*outlen = 0;
	if (!store_is_packed(v, vlen)) {
		p = malloc(vlen + 1);
		if (p == NULL)
			return ENOMEM;
		memcpy(p, v, vlen);
		p[vlen] = '\0';
		*out = p;
		*outlen = vlen;
		return 0;
	}
	rc = store_pack_begin();
	if (rc)
		return rc;
	rc = store_unpack_frame(v, vlen, &p, outlen);
	store_pack_end();
	if (rc == 0)
		*out = p;
	return rc;
}
