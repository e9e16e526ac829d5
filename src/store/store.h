/* The Berkeley DB environment shared by every worker process: opened once
 * per process (DB_REGISTER + DB_FAILCHK: a dead peer's transactions and
 * locks are cleaned up by failchk; recovery only when failchk cannot),
 * with deadlock detection, lock and transaction timeouts, failchk for dead
 * processes, and regular checkpoints with automatic log removal. A
 * process that finds the environment panicked reopens it (see store_txn). */
#ifndef AV_STORE_H
#define AV_STORE_H
#include <stddef.h>
#include <db.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>
#include "conf/conf.h"

struct store {
	DB_ENV *env;
	DB *threads;             /* tid -> thread record (JSON) */
	DB *ckpts;               /* tid + step -> checkpoint (JSON: full state or diff) */
	DB *events;              /* tid + seq -> durable event (JSON text) */
	DB *assets;              /* tid + content hash -> type + bytes */
	DB *expiry;              /* expiry ms + tid -> nothing: the pruning order */
	DB *cache;               /* hash of (namespace, key) -> expiry + JSON */
	long thread_ttl_ms, done_ttl_ms, history;
	long long tombstone_ttl_ms;
	long long max_events;        /* per thread */
	long long max_asset_bytes;   /* per thread */
	int sync;                /* durability = sync */
	long long last_ckpt_ms;
	int txns_since_ckpt;
	int panicked;            /* DB_RUNRECOVERY seen and not yet reopened */
	int reopens;             /* times the environment was reopened after a panic */
	const struct conf *conf; /* what it was opened with (it outlives the store) */
	int version_found;       /* the version it had before this open (1: none recorded) */
};

/* Modes the store's files and directory are created with: the umask of
 * [store] umask (0077 or 0007, set by store_umask_apply) takes away the
 * rest, so they come out 0600/0700 or 0660/0770. */
#define STORE_FILE_MODE 0666
#define STORE_DIR_MODE 0777
/* Sets the process's umask to c's [store] umask (octal); returns the
 * previous one. The workers and aivista-admin call it before they create
 * anything in the store; store_open calls it too. */
mode_t store_umask_apply(const struct conf *c);

/* --- the format version (version.c) ---------------------------------------
 * The store's records carry a format version: the number in the file
 * STORE_VERSION_FILE of the store directory. A store without the file is
 * version 1. A worker opens stores from STORE_VERSION_OLDEST to
 * STORE_VERSION as they are (marking an older one STORE_VERSION: its
 * records are read as they are) and refuses a newer one; one older than
 * STORE_VERSION_OLDEST needs aivista-admin upgrade. Version 2: version 1's
 * records, and the version file. */
#define STORE_VERSION 2
#define STORE_VERSION_OLDEST 1
#define STORE_VERSION_FILE "store.version"
enum store_compat {
	STORE_COMPAT_SAME,     /* this version's */
	STORE_COMPAT_MARK,     /* older, read as it is; opening marks it STORE_VERSION */
	STORE_COMPAT_UPGRADE,  /* older than STORE_VERSION_OLDEST: aivista-admin upgrade */
	STORE_COMPAT_NEWER,    /* written by a newer version: refused */
	STORE_COMPAT_BAD,      /* not a version (< 1) */
};
/* The version in text ("2" or "2\n"), or -1. */
int store_version_parse(const char *text);
/* dir's version: 1 without a version file; -1 with err filled when the
 * file cannot be read or holds no version. */
int store_version_read(const char *dir, char *err, size_t errlen);
/* Writes version as dir's (a new file renamed over the old one). 0, or -1
 * with err filled. */
int store_version_write(const char *dir, int version, char *err, size_t errlen);
enum store_compat store_version_compat(int version);
/* dir's version when this build opens it as it is (SAME or MARK); else -1
 * with err filled, saying what to do. */
int store_version_check(const char *dir, char *err, size_t errlen);

/* Opens (creating) the environment in conf->store_dir, after checking
 * its version (store_version_check: a newer store is refused before its
 * environment is touched) and marking an older one. NULL on failure,
 * with err filled. c must outlive the store. */
struct store *store_open(const struct conf *c, char *err, size_t errlen);
void store_close(struct store *s);
/* Closes every handle and opens the environment again (recovering it when
 * it panicked). 0, or a Berkeley DB error: the handles are then closed
 * and the next use tries again (store_usable). */
int store_reopen(struct store *s);
/* 1 when another process has the environment in dir open (*pid: one of
 * them), 0 when none has, -1 when it cannot be told. */
int store_env_in_use(const char *dir, long *pid);
/* Before using the handles outside store_txn: reopens a panicked
 * environment. 0 when usable, else DB_RUNRECOVERY. */
int store_usable(struct store *s);
/* 0 when the environment answers (reopened if it had panicked); else -1
 * with err filled. */
int store_ping(struct store *s, char *err, size_t errlen);
/* Checkpoints once 2 MiB of log have been written since the last one (old
 * log files go with it) and runs failchk every few seconds. Cheap
 * otherwise: the worker calls it after each request, once the client has
 * its answer, never inside one. */
void store_maintain(struct store *s);
/* Runs fn inside a transaction, retrying on deadlock or lock timeout a
 * bounded number of times. fn returns 0 or a Berkeley DB error. When the
 * environment panicked (before or during fn), it is reopened once and fn
 * runs again in the new one: fn must change nothing outside the
 * transaction but its own outputs. Returns 0, or the last error
 * (DB_RUNRECOVERY: the environment could not be reopened). */
int store_txn(struct store *s, int (*fn)(struct store *s, DB_TXN *txn, void *ctx), void *ctx);


/* Store keys: a thread's random part, then a big-endian number, so one
 * thread's records are adjacent and in order. */
#define STORE_TID 16
void store_key(uint8_t *out, const uint8_t tid[STORE_TID], uint64_t n, int nbytes);

/* --- threads (threads.c) ------------------------------------------------ */
/* *rec: new reference. DB_NOTFOUND when there is none. flags: 0 or DB_RMW
 * (read for update: the write lock is taken now, avoiding deadlocks).
 * Without txn, the read runs in a store_txn of its own. */
int store_thread_get(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], json_t **rec,
		     u_int32_t flags);
/* Writes rec (borrowed), setting its "exp" from status and "updated", and
 * moving its entry in the expiry index. */
int store_thread_put(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], json_t *rec);
void store_expiry_key(uint8_t key[8 + STORE_TID], long long exp, const uint8_t tid[STORE_TID]);

/* --- checkpoints (ckpt.c) ----------------------------------------------- */
/* Stores the checkpoint of step (meta fields plus the state). The state is
 * stored whole every few steps and as the difference from prev (the
 * parent's state; NULL for none) otherwise. Older checkpoints than
 * history are dropped. */
int store_ckpt_put(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], long step,
		   const json_t *meta, const json_t *state, const json_t *prev);
/* The state at step: new reference in *state, meta (new) when asked.
 * Without txn, the read runs in a store_txn of its own. */
int store_ckpt_get(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], long step,
		   json_t **state, json_t **meta);
/* Checkpoints newest first, each {step, parent, node, next, status, ts, state}: new. */
int store_ckpt_history(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], long latest,
		       long limit, json_t **out);
/* Bytes stored for one thread's checkpoints (benchmarks). */
long long store_ckpt_bytes(struct store *s, const uint8_t tid[STORE_TID]);

/* --- event log (events.c) ----------------------------------------------- */
int store_event_put(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], long long seq,
		    const char *json, size_t len);
/* Events after seq, at most max of them or about max_bytes, read in their
 * own short transaction: *out is a new array of [seq, "json"] pairs. */
int store_events_after(struct store *s, const uint8_t tid[STORE_TID], long long after, int max,
		       size_t max_bytes, json_t **out);

/* --- assets (assets.c) ---------------------------------------------------- */
#define STORE_ASSET_ID_LEN 43   /* base64url of tid + 16-byte hash */
/* Stores data once per thread (same bytes, same id). id gets the NUL-ended id. */
int store_asset_put(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID], const char *ctype,
		    const void *data, size_t len, char id[STORE_ASSET_ID_LEN + 1]);
/* *data (malloc'd, caller frees) and *ctype (malloc'd). DB_NOTFOUND. */
int store_asset_get(struct store *s, const char *id, char **ctype, void **data, size_t *len);
/* The thread an asset id belongs to: 0, or -1 when id is not an asset id. */
int store_asset_thread(const char *id, uint8_t tid[STORE_TID]);

/* --- caches (cache.c) ---------------------------------------------------- */
/* A cached value for text in namespace ns (new reference), or DB_NOTFOUND
 * (absent or expired). Auto-commit: no transaction needed. */
int store_cache_get(struct store *s, const char *ns, const char *text, json_t **out);
int store_cache_put(struct store *s, const char *ns, const char *text, const json_t *value,
		    long long ttl_ms);
/* Removes up to max expired entries; how many, or -1. */
int store_cache_prune(struct store *s, int max);

/* --- pruning (prune.c) ---------------------------------------------------- */
/* Removes up to max threads whose expiry has passed (their checkpoints,
 * events and assets), leaving a small tombstone so their IDs answer 410
 * for a while. Returns how many were pruned, or -1. */
int store_prune(struct store *s, long long now_ms, int max);
/* Deletes every record of one thread but its record. */
int store_thread_purge(struct store *s, DB_TXN *txn, const uint8_t tid[STORE_TID]);

/* --- statistics (stats.c) ---------------------------------------------------- */
#define STORE_NSTATUS 6   /* running, paused, done, error, aborted, expired */
struct store_stats {
	char dir[4096];
	long long threads, threads_by_status[STORE_NSTATUS], threads_other;
	long long checkpoints, events, assets, asset_bytes, cache_entries;
	long long db_files, db_bytes, log_files, log_bytes, region_files, region_bytes;
	long long active_txns, last_checkpoint;   /* time of the last checkpoint (s), 0: none */
	int version;                               /* the store's format version */
};
/* Counts what the store holds, read-only (aivista-admin stats). 0, or -1
 * with err filled. */
int store_stats(struct store *s, struct store_stats *st, char *err, size_t errlen);
/* "running", ... for an index of threads_by_status. */
const char *store_stats_status_name(int i);

#endif
