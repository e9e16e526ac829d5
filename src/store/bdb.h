/* The Berkeley DB backend (inside src/store/ only): the environment shared
 * by every worker process of one host, opened once per process
 * (DB_REGISTER + DB_FAILCHK: a dead peer's transactions and locks are
 * cleaned up by failchk; recovery only when failchk cannot), with deadlock
 * detection, lock and transaction timeouts, failchk for dead processes,
 * and regular checkpoints with automatic log removal. A process that finds
 * the environment panicked reopens it (store_txn). One B-tree database per
 * table of backend.h. */
#ifndef AV_STORE_BDB_H
#define AV_STORE_BDB_H
#include <db.h>
#include "store/backend.h"

/* The tags, in the order a thread's records sit. */
enum { BDB_TAG_THREAD, BDB_TAG_CKPT, BDB_TAG_EVENT, BDB_TAG_ASSET };

struct bdb {
	DB_ENV *env;
	/* Per table; with one B-tree for a thread's records, the thread-keyed
	 * tables other than STORE_T_THREADS are NULL (bdb_kv.c maps them). */
	DB *db[STORE_NTABLES];
	int one_tree;            /* a thread's records in one B-tree */
	int sync;                /* durability = sync */
	long long last_failchk_ms;
	struct bdb_ckpt *ck;     /* the checkpoint thread (bdb_ckpt.c) */
	int commits;             /* since the thread was last woken */
};

/* A checkpoint only once this much log is written since the last one:
 * recovery after a crash replays at most about this much, and the log
 * files stay within a few times this size. */
#define STORE_CKPT_KBYTES 2048

#define BDB(s) ((struct bdb *)(s)->be)
#define BDB_TXN(t) ((DB_TXN *)(t)->h)

/* A Berkeley DB result as a store result (0 stays 0; an errno value stays
 * itself, ENOSPC becoming STORE_FULL). what: logged with an unexpected one. */
int bdb_rc(int rc, const char *what);
/* The transaction calls of the ops (bdb_env.c). */
int bdb_open(struct store *s, char *err, size_t errlen);
void bdb_close(struct store *s);
int bdb_reopen(struct store *s);
int bdb_begin(struct store *s, struct store_txn *t);
int bdb_commit(struct store_txn *t);
void bdb_abort(struct store_txn *t);
int bdb_before_retry(struct store *s, int rc);
void bdb_maintain(struct store *s);
/* The checkpoint thread (bdb_ckpt.c): started by the first maintain,
 * stopped before the environment closes. */
int bdb_ckpt_start(struct store *s);
void bdb_ckpt_stop(struct store *s);
/* Wakes the thread to look at once (it also looks every half second). */
void bdb_ckpt_poke(struct store *s);
/* A Berkeley DB error the thread's last checkpoint failed with (taken:
 * the next call says 0), or 0. */
int bdb_ckpt_failure(struct store *s);
/* Key-value calls (bdb_kv.c). */
int bdb_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
	    unsigned flags);
int bdb_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v, size_t vlen,
	    unsigned flags);
int bdb_del(struct store_txn *t, int table, const void *k, size_t klen);
int bdb_scan(struct store_txn *t, int table, const void *from, size_t flen, size_t plen, long max,
	     unsigned flags, store_scan_fn fn, void *ctx);
int bdb_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		  size_t hilen);
/* bdb_stats.c, bdb_backup.c */
int bdb_stats(struct store *s, struct store_stats *st, char *err, size_t errlen);
int bdb_backup(struct store *s, const char *dir, char *err, size_t errlen);

#endif
