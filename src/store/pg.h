/* The PostgreSQL backend (inside src/store/ only), through libpq: one
 * connection per worker process to [store] dsn, a statement timeout on
 * it, and one table per table of backend.h (av_threads, av_ckpts,
 * av_events, av_assets, av_expiry, av_cache: k bytea primary key, v
 * bytea), so the records are those of the Berkeley DB backend under the
 * same keys. av_meta holds the schema version; the worker creates or
 * upgrades the schema on first use. Transactions run at read committed
 * with SELECT ... FOR UPDATE for reads for update; deadlocks and
 * serialisation failures are STORE_RETRY, lock and statement timeouts
 * STORE_BUSY, a lost connection STORE_UNAVAILABLE (store_txn reconnects). */
#ifndef AV_STORE_PG_H
#define AV_STORE_PG_H
#include <libpq-fe.h>
#include "store/backend.h"

/* Version 2: checkpoints and a step's events packed (pack.h); version
 * 1's plain records read as they are. */
#define PG_SCHEMA_VERSION 2

#define PG_CHANNEL 40   /* "av_" and a thread's 32 hex digits, NUL-ended */

struct pg {
	PGconn *conn;
	int in_txn;
	char notify[PG_CHANNEL];   /* the channel this transaction notifies at commit, or "" */
	char listen[PG_CHANNEL];   /* the channel the connection listens on, or "" */
};

#define PG(s) ((struct pg *)(s)->be)

/* pg_exec.c: a failed result as a store result (logged, the password never in it);
 * res is cleared. */
int pg_fail(struct store *s, PGresult *res, const char *what);
/* Runs a command without parameters: 0 or a store result. */
int pg_cmd(struct store *s, const char *sql, const char *what);
/* The table's name. */
const char *pg_table(int table);

int pg_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
	   unsigned flags);
int pg_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v, size_t vlen,
	   unsigned flags);
int pg_del(struct store_txn *t, int table, const void *k, size_t klen);
int pg_scan(struct store_txn *t, int table, const void *from, size_t flen, size_t plen, long max,
	    unsigned flags, store_scan_fn fn, void *ctx);
int pg_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		 size_t hilen);
int pg_stats(struct store *s, struct store_stats *st, char *err, size_t errlen);

/* pg_notify.c: followers woken by LISTEN/NOTIFY on the thread's channel. */
void pg_touched(struct store_txn *t, const uint8_t tid[STORE_TID]);
/* Before COMMIT: the NOTIFY of the channel touched, if any. 0 or a store result. */
int pg_notify_pending(struct store *s);
int pg_wait(struct store *s, const uint8_t tid[STORE_TID], int ms);
void pg_unwatch(struct store *s);

#endif
