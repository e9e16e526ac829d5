/* The store: threads, checkpoints, events, assets, caches, expiry and
 * pruning, behind one interface whatever holds them. [store] backend picks
 * the backend: "bdb", the Berkeley DB environment in [store] dir shared by
 * every worker process of one host (bdb.h), or "postgresql", a PostgreSQL
 * database that several hosts share ([store] dsn). Nothing here names a
 * backend's own types: transactions are struct store_txn, results the
 * STORE_* codes below (or an errno value from the caller's own code). */
#ifndef AV_STORE_H
#define AV_STORE_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>
#include "conf/conf.h"

/* Results: 0, one of these, or a positive errno value. */
enum {
	STORE_OK = 0,
	STORE_NOTFOUND = -9001,    /* no such record */
	STORE_EXISTS = -9002,      /* the record exists (a put that must not overwrite) */
	STORE_RETRY = -9003,       /* deadlock or serialisation failure: run the transaction again */
	STORE_BUSY = -9004,        /* a lock not granted in time */
	STORE_FULL = -9005,        /* a thread's assets are full, or the disk is */
	STORE_UNAVAILABLE = -9006, /* the store cannot be reached or must be reopened */
	STORE_ERROR = -9007,       /* any other failure (the backend logged it) */
	STORE_UNSUPPORTED = -9008, /* not built with that backend, or not offered by it */
	STORE_OVER_BUDGET = -9009, /* the request would write more than its budget allows */
};
/* A fixed description of rc (a STORE_* code or an errno value). */
const char *store_strerror(int rc);

/* Read flags. */
#define STORE_RMW 1             /* read for update: the write lock is taken now */
#define STORE_READ_COMMITTED 2  /* a read that needs no repeatable view */

struct store_ops;
struct store_backend;
struct store_txn;               /* a transaction: the backend's own */

struct store {
	const struct store_backend *backend;   /* its row in store_backends[] (backends.h) */
	const struct store_ops *ops;
	void *be;                /* the backend's own state */
	long thread_ttl_ms, done_ttl_ms, history;
	long long tombstone_ttl_ms;
	long long max_events;        /* per thread */
	long long max_asset_bytes;   /* per thread */
	int panicked;            /* unusable until reopened (a panic, a lost connection) */
	int reopens;             /* times it was reopened */
	const struct conf *conf; /* what it was opened with (it outlives the store) */
	int version_found;       /* the version it had before this open (1: none recorded) */
	struct store_rec_cache *rec_cache; /* the last thread record written (rec_cache.h) */
	long long req_max, req_used; /* the request's budget (store_request_budget) */
	int req_over;            /* a put was refused since the budget was set */
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
 * records, and the version file. Version 3: checkpoints and a step's
 * events (one record a step) packed with zstd (pack.h); the plain records
 * of versions 1 and 2 read as they are. Version 4: on Berkeley DB, a new
 * store keeps a thread's records in one B-tree (bdb.h); a store made
 * before keeps its B-tree per table, read as it is. */
#define STORE_VERSION 4
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

/* Opens the store [store] backend names: for bdb, (creating) the
 * environment in conf->store_dir after checking its version
 * (store_version_check: a newer store is refused before its environment is
 * touched) and marking an older one; for postgresql, a connection to
 * [store] dsn, creating or upgrading the schema. NULL on failure, with err
 * filled (a backend this build lacks says so). c must outlive the store. */
struct store *store_open(const struct conf *c, char *err, size_t errlen);
void store_close(struct store *s);
/* The name of its backend's row: "bdb", "postgresql". */
const char *store_backend_name(const struct store *s);
/* Closes and opens the backend again (recovering a panicked environment,
 * reconnecting a lost connection). 0, or STORE_UNAVAILABLE: the next use
 * tries again (store_usable). */
int store_reopen(struct store *s);
/* Berkeley DB only: 1 when another process has the environment in dir
 * open (*pid: one of them), 0 when none has, -1 when it cannot be told. */
int store_env_in_use(const char *dir, long *pid);
/* 1 when the store is unusable and only a new worker process can use it
 * again (a Berkeley DB environment that could not be reopened); a
 * PostgreSQL store whose server is away is tried again at its next use. */
int store_needs_restart(const struct store *s);
/* Before using the store outside store_txn: reopens one that panicked or
 * lost its connection. 0 when usable, else STORE_UNAVAILABLE. */
int store_usable(struct store *s);
/* 0 when the store answers (reopened if it had to be); else -1 with err
 * filled. */
int store_ping(struct store *s, char *err, size_t errlen);
/* The backend's upkeep between requests (Berkeley DB: checkpoints and
 * failchk every few seconds). Cheap otherwise: the worker calls it after
 * each request, once the client has its answer, never inside one. */
void store_maintain(struct store *s);
/* Runs fn inside a transaction, retrying on STORE_RETRY (deadlock,
 * serialisation failure) or STORE_BUSY (lock timeout) a bounded number of
 * times. fn returns 0, a STORE_* code or an errno value; a nonzero one
 * rolls the transaction back. When the store became unusable (a panic, a
 * lost connection: STORE_UNAVAILABLE, before or during fn), it is reopened
 * once and fn runs again: fn must change nothing outside the transaction
 * but its own outputs. Every write goes through here. Returns 0, or the
 * last error (STORE_UNAVAILABLE: it could not be reopened). */
int store_txn(struct store *s, int (*fn)(struct store *s, struct store_txn *txn, void *ctx),
	      void *ctx);

/* The bytes one request may add to the store ([store] max_request_bytes):
 * from this call on, checkpoints, events and assets count what they write
 * (their JSON text or their bytes, before compression); a put that would
 * pass max fails with STORE_OVER_BUDGET, and a transaction that fails or
 * is tried again gives back what it counted. max 0: no budget (between
 * requests). Resets the count. */
void store_request_budget(struct store *s, long long max);
/* 1 when a put was refused for the budget since it was set (the caller
 * may have handled the failure as its own). */
int store_request_over(const struct store *s);
/* The bytes counted since the budget was set. */
long long store_request_used(const struct store *s);

/* Backups: Berkeley DB copies the environment into the empty directory
 * dir and recovers the copy there; PostgreSQL answers STORE_UNSUPPORTED
 * (pg_dump is the tool). 0, or an error with err filled. */
int store_backup(struct store *s, const char *dir, char *err, size_t errlen);
/* Berkeley DB: catastrophic recovery of a copy store_backup made, in
 * private memory, so it opens as it is. 0, or an error with err filled. */
int store_backup_recover(const char *dir, char *err, size_t errlen);
/* Berkeley DB recovery (catastrophic with fatal) of the environment in dir,
 * which no process may have open, then removal of its shared regions. 0,
 * or an error with err filled. */
int store_recover_dir(const char *dir, int fatal, char *err, size_t errlen);


/* Store keys: a thread's random part, then a big-endian number, so one
 * thread's records are adjacent and in order. */
#define STORE_TID 16
void store_key(uint8_t *out, const uint8_t tid[STORE_TID], uint64_t n, int nbytes);

/* Waits until a transaction that changed thread tid (its record or its
 * events) commits in any process, or ms pass: 1 when woken, 0 otherwise.
 * PostgreSQL listens on the thread's channel (LISTEN/NOTIFY, on the
 * worker's own connection) and waits on its socket; a backend that cannot
 * wake a waiter sleeps at most STORE_POLL_MS, and the caller polls. */
#define STORE_POLL_MS 50
int store_wait(struct store *s, const uint8_t tid[STORE_TID], int ms);
/* Stops what store_wait listens to (a follower that leaves). */
void store_unwatch(struct store *s);

/* --- threads (threads.c) ------------------------------------------------ */
/* *rec: new reference. STORE_NOTFOUND when there is none. flags: 0,
 * STORE_RMW (read for update: the write lock is taken now, avoiding
 * deadlocks) or STORE_READ_COMMITTED.
 * Without txn, the read runs in a store_txn of its own. */
int store_thread_get(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], json_t **rec,
		     unsigned flags);
/* Writes rec (borrowed), setting its "exp" from status and "updated", and
 * moving its entry in the expiry index. rec must not change afterwards:
 * the store keeps a reference, and the next read of the same bytes gets a
 * copy of it rather than parsing them. */
int store_thread_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], json_t *rec);
void store_expiry_key(uint8_t key[8 + STORE_TID], long long exp, const uint8_t tid[STORE_TID]);

/* --- checkpoints (ckpt.c) ----------------------------------------------- */
/* Stores the checkpoint of step (meta fields plus the state). The state is
 * stored whole every few steps and as the difference from prev (the
 * parent's state; NULL for none) otherwise. Older checkpoints than
 * history are dropped. */
int store_ckpt_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long step,
		   const json_t *meta, const json_t *state, const json_t *prev);
/* The state at step: new reference in *state, meta (new) when asked.
 * Without txn, the read runs in a store_txn of its own. */
int store_ckpt_get(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long step,
		   json_t **state, json_t **meta);
/* Checkpoints newest first, each {step, parent, node, next, status, ts, state}: new. */
int store_ckpt_history(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long latest,
		       long limit, json_t **out);
/* Bytes stored for one thread's checkpoints (benchmarks). */
long long store_ckpt_bytes(struct store *s, const uint8_t tid[STORE_TID]);

/* --- event log (events.c) ----------------------------------------------- */
/* A step's events are one record, keyed by the thread and its last
 * event's seq, holding the events' JSON texts (as the live stream sent
 * them) each ended by a NUL, packed (pack.h). A record written before
 * batching holds one event's plain text under its own seq: it reads the
 * same way. */
/* Stores n events with seqs last-n+1 .. last: texts is their texts, each
 * ended by a NUL, len bytes in all (NULs included). */
int store_events_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID],
		     long long last, const char *texts, size_t len);
/* One event (text of len bytes, no NUL in it) as seq. */
int store_event_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], long long seq,
		    const char *json, size_t len);
/* Events after seq, at most max of them or about max_bytes, read in their
 * own short transaction: *out is a new array of [seq, "json"] pairs. */
int store_events_after(struct store *s, const uint8_t tid[STORE_TID], long long after, int max,
		       size_t max_bytes, json_t **out);
/* The bytes thread tid's event records take (keys and stored values), or
 * -1 on error. */
long long store_events_bytes(struct store *s, const uint8_t tid[STORE_TID]);

/* --- assets (assets.c) ---------------------------------------------------- */
#define STORE_ASSET_ID_LEN 43   /* base64url of tid + 16-byte hash */
/* Stores data once per thread (same bytes, same id). id gets the NUL-ended
 * id. STORE_FULL when the thread's assets would pass [store]
 * max_asset_bytes. */
int store_asset_put(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID], const char *ctype,
		    const void *data, size_t len, char id[STORE_ASSET_ID_LEN + 1]);
/* *data (malloc'd, caller frees) and *ctype (malloc'd). STORE_NOTFOUND. */
int store_asset_get(struct store *s, const char *id, char **ctype, void **data, size_t *len);
/* The thread an asset id belongs to: 0, or -1 when id is not an asset id. */
int store_asset_thread(const char *id, uint8_t tid[STORE_TID]);

/* --- caches (cache.c) ---------------------------------------------------- */
/* A cached value for text in namespace ns (new reference), or STORE_NOTFOUND
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
int store_thread_purge(struct store *s, struct store_txn *txn, const uint8_t tid[STORE_TID]);

/* --- statistics (stats.c) ---------------------------------------------------- */
#define STORE_NSTATUS 6   /* running, paused, done, error, aborted, expired */
struct store_stats {
	char dir[4096];
	long long threads, threads_by_status[STORE_NSTATUS], threads_other;
	long long checkpoints, assets, asset_bytes, cache_entries;
	long long events;           /* the events logged: the threads' last ids summed */
	long long event_records;    /* the records holding them (one a step) */
	long long db_files, db_bytes, log_files, log_bytes, region_files, region_bytes;
	long long active_txns, last_checkpoint;   /* time of the last checkpoint (s), 0: none */
	int version;                               /* the store's format (schema) version */
	int version_current;                       /* the one this AiVista writes */
	char backend[16];                          /* "bdb" or "postgresql" */
};
/* Counts what the store holds (for PostgreSQL: database bytes in db_bytes,
 * no files), read-only (aivista-admin stats). 0, or -1
 * with err filled. */
int store_stats(struct store *s, struct store_stats *st, char *err, size_t errlen);
/* "running", ... for an index of threads_by_status. */
const char *store_stats_status_name(int i);

#endif
