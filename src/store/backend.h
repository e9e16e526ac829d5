/* What a store backend provides (inside src/store/ only): transactions and
 * ordered key-value tables. The records (threads.c, ckpt.c, events.c,
 * assets.c, cache.c, prune.c) are built on these alone, so both backends
 * hold the same records under the same keys. Keys compare as bytes. The
 * keys of the first four tables start with the thread ID (a backend may
 * keep a thread's records together), and a range deleted from one of them
 * lies within one thread. */
#ifndef AV_STORE_BACKEND_H
#define AV_STORE_BACKEND_H
#include "store/store.h"

enum store_table {
	STORE_T_THREADS,   /* tid -> thread record (JSON) */
	STORE_T_CKPTS,     /* tid + step -> checkpoint (JSON: full state or diff) */
	STORE_T_EVENTS,    /* tid + seq -> durable event (JSON text) */
	STORE_T_ASSETS,    /* tid + content hash -> type + bytes */
	STORE_T_EXPIRY,    /* expiry ms + tid -> nothing: the pruning order */
	STORE_T_CACHE,     /* hash of (namespace, key) -> expiry + JSON */
	STORE_NTABLES
};

/* Flags beyond STORE_RMW and STORE_READ_COMMITTED. */
#define STORE_KV_NEW 4    /* put: STORE_EXISTS when the key is there */
#define STORE_KV_KEYS 8   /* scan: the values are not needed (vlen 0) */

struct store_txn {
	struct store *s;
	void *h;          /* the backend's transaction handle, if it has one */
};

/* Counts n bytes a put is about to write against the request's budget
 * (store_request_budget): 0, or STORE_OVER_BUDGET (nothing counted). */
int store_request_charge(struct store *s, size_t n);
/* Gives back n bytes counted for a put that wrote nothing. */
void store_request_refund(struct store *s, size_t n);

/* A scan's visitor: 0 to go on, 1 to stop, anything else an error that
 * ends the scan and is returned. k and v are valid during the call only. */
typedef int (*store_scan_fn)(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx);

/* A backend's calls; its name and what it can do are its row in
 * store_backends[] (backends.h). Every function returns 0 or a STORE_*
 * code (or an errno value). */
struct store_ops {
	/* Fills s->be. err filled on failure. */
	int (*open)(struct store *s, char *err, size_t errlen);
	void (*close)(struct store *s);
	/* Drops and reopens the backend's handles. */
	int (*reopen)(struct store *s);
	int (*begin)(struct store *s, struct store_txn *t);
	int (*commit)(struct store_txn *t);
	void (*abort)(struct store_txn *t);
	/* Before another try after STORE_BUSY or STORE_RETRY: 0, or
	 * STORE_UNAVAILABLE when the store must be reopened first. */
	int (*before_retry)(struct store *s, int rc);
	void (*maintain)(struct store *s);
	/* *v: malloc'd (caller frees). */
	int (*get)(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
		   unsigned flags);
	int (*put)(struct store_txn *t, int table, const void *k, size_t klen, const void *v,
		   size_t vlen, unsigned flags);
	/* STORE_NOTFOUND when absent. */
	int (*del)(struct store_txn *t, int table, const void *k, size_t klen);
	/* Keys from `from` upwards, in order, while their first plen bytes
	 * equal from's, at most max of them (0: no bound). STORE_RMW locks
	 * what is read. */
	int (*scan)(struct store_txn *t, int table, const void *from, size_t flen, size_t plen,
		    long max, unsigned flags, store_scan_fn fn, void *ctx);
	/* Deletes the keys k with lo <= k < hi (hi NULL: no upper end). */
	int (*del_range)(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
			 size_t hilen);
	int (*stats)(struct store *s, struct store_stats *st, char *err, size_t errlen);
	/* Optional (NULL: followers poll). touched: thread tid changed in t,
	 * waiters are told once t commits; wait: up to ms for a change to tid
	 * committed by any process, 1 when told, 0 when the time passed;
	 * unwatch: stops listening. */
	void (*touched)(struct store_txn *t, const uint8_t tid[STORE_TID]);
	int (*wait)(struct store *s, const uint8_t tid[STORE_TID], int ms);
	void (*unwatch)(struct store *s);
	/* With STORE_CAN_BACKUP only. */
	int (*backup)(struct store *s, const char *dir, char *err, size_t errlen);
};

extern const struct store_ops store_bdb_ops;
#ifdef HAVE_LIBPQ
extern const struct store_ops store_pg_ops;
#endif

/* Shorthands for the records' code. */
#define STORE_OPS(t) ((t)->s->ops)
int store_kv_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
		 unsigned flags);
int store_kv_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v,
		 size_t vlen, unsigned flags);
int store_kv_del(struct store_txn *t, int table, const void *k, size_t klen);
int store_kv_scan(struct store_txn *t, int table, const void *from, size_t flen, size_t plen,
		  long max, unsigned flags, store_scan_fn fn, void *ctx);
int store_kv_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		       size_t hilen);
/* Marks thread tid changed in t (store_wait's waiters are told at commit). */
void store_touched(struct store_txn *t, const uint8_t tid[STORE_TID]);
/* The bytes (keys and stored values) thread tid's records in table take,
 * or -1 on error. */
long long store_thread_bytes(struct store *s, int table, const uint8_t tid[STORE_TID]);
/* Deletes every key that starts with prefix. */
int store_kv_del_prefix(struct store_txn *t, int table, const void *prefix, size_t plen);

#endif
