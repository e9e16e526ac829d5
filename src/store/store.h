/* The Berkeley DB environment shared by every worker process: opened once
 * per process (DB_REGISTER + DB_RECOVER so a crashed peer is recovered),
 * with deadlock detection, lock and transaction timeouts, failchk for dead
 * processes, and regular checkpoints with automatic log removal. */
#ifndef AV_STORE_H
#define AV_STORE_H
#include <stddef.h>
#include <db.h>
#include "conf/conf.h"

struct store {
	DB_ENV *env;
	int sync;                /* durability = sync */
	long long last_ckpt_ms;
	int panicked;            /* DB_RUNRECOVERY seen: this process must exit */
};

/* Opens (creating) the environment in conf->store_dir. NULL on failure,
 * with err filled. */
struct store *store_open(const struct conf *c, char *err, size_t errlen);
void store_close(struct store *s);
/* 0 when the environment answers; else -1 with err filled. */
int store_ping(struct store *s, char *err, size_t errlen);
/* Checkpoints if a while has passed since the last one; old log files go
 * with it. Cheap to call on every request. */
void store_maintain(struct store *s);
/* Runs fn inside a transaction, retrying on deadlock or lock timeout a
 * bounded number of times. fn returns 0 or a Berkeley DB error. Returns
 * 0, or the last error (DB_RUNRECOVERY marks the store panicked). */
int store_txn(struct store *s, int (*fn)(struct store *s, DB_TXN *txn, void *ctx), void *ctx);

#endif
