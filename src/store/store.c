/* The store's front: opening the backend [store] backend names (its row
 * in store_backends[], backends.h), the one
 * transaction helper every read and write goes through, and the key-value
 * calls the records use, passed on to the backend. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "store/backend.h"
#include "store/backends.h"
#include "store/rec_cache.h"
#include "util/log.h"
#include "util/xmalloc.h"

#define STORE_TXN_TRIES 8

const char *store_strerror(int rc)
{
	static const struct { int rc; const char *text; } texts[] = {
		{ STORE_OK, "ok" },
		{ STORE_NOTFOUND, "not found" },
		{ STORE_EXISTS, "already exists" },
		{ STORE_RETRY, "deadlock or serialisation failure" },
		{ STORE_BUSY, "lock not granted in time" },
		{ STORE_FULL, "no space left" },
		{ STORE_UNAVAILABLE, "the store is unavailable" },
		{ STORE_ERROR, "store error" },
		{ STORE_UNSUPPORTED, "not supported by this store" },
		{ STORE_OVER_BUDGET, "more than the request may store ([store] max_request_bytes)" },
	};

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		if (texts[i].rc == rc)
			return texts[i].text;
	return rc > 0 ? strerror(rc) : "unknown store error";
}

mode_t store_umask_apply(const struct conf *c)
{
	mode_t m = (mode_t)strtol(c->store_umask ? c->store_umask : "0077", NULL, 8);

	return umask(m & 0777);
}

void store_key(uint8_t *out, const uint8_t tid[STORE_TID], uint64_t n, int nbytes)
{
	memcpy(out, tid, STORE_TID);
	for (int i = nbytes - 1; i >= 0; i--, n >>= 8)
		out[STORE_TID + i] = (uint8_t)(n & 0xff);
}

/* The row of the backend c names, when this build has it; else NULL
 * with err filled. */
static const struct store_backend *store_pick(const struct conf *c, char *err, size_t errlen)
{
	const struct store_backend *b = store_backend_of(c);
	char names[128];

	if (b && b->ops)
		return b;
	if (b) {
		snprintf(err, errlen, "[store] backend = %s, but this build has no %s", b->name,
			 b->missing);
		return NULL;
	}
	store_backend_names(names, sizeof names, ", ", " or ");
	snprintf(err, errlen, "[store] backend = %s: unknown (%s)", c->store_backend, names);
	return NULL;
}

struct store *store_open(const struct conf *c, char *err, size_t errlen)
{
	const struct store_backend *b = store_pick(c, err, errlen);
	struct store *s;

	if (b == NULL)
		return NULL;
	s = xcalloc(1, sizeof *s);
	s->backend = b;
	s->ops = b->ops;
	s->conf = c;
	s->thread_ttl_ms = c->thread_ttl * 1000;
	s->tombstone_ttl_ms = c->tombstone_ttl * 1000LL;
	s->max_events = c->max_events;
	s->max_asset_bytes = c->max_asset_bytes;
	s->done_ttl_ms = c->done_ttl * 1000;
	s->history = c->history;
	if (s->ops->open(s, err, errlen) != 0) {
		free(s);
		return NULL;
	}
	s->panicked = 0;
	return s;
}

void store_close(struct store *s)
{
	if (s == NULL)
		return;
	s->ops->close(s);
	store_rec_cache_free(s->rec_cache);
	free(s);
}

const char *store_backend_name(const struct store *s)
{
	return s->backend->name;
}

int store_reopen(struct store *s)
{
	int rc = s->ops->reopen(s);

	if (rc != 0) {
		s->panicked = 1;
		log_error("the store could not be reopened: %s", store_strerror(rc));
		return STORE_UNAVAILABLE;
	}
	s->panicked = 0;
	s->reopens++;
	log_warn("the store was reopened after a panic or a lost connection (%d so far)",
		 s->reopens);
	return 0;
}

int store_needs_restart(const struct store *s)
{
	return s->panicked && !(s->backend->flags & STORE_RECONNECTS);
}

int store_usable(struct store *s)
{
	if (s->panicked)
		return store_reopen(s) == 0 ? 0 : STORE_UNAVAILABLE;
	return 0;
}

static int store_ping_fn(struct store *s, struct store_txn *txn, void *ctx)
{
	return 0;
}

int store_ping(struct store *s, char *err, size_t errlen)
{
	int rc = store_txn(s, store_ping_fn, NULL);

	if (rc != 0) {
		snprintf(err, errlen, "%s", store_strerror(rc));
		return -1;
	}
	return 0;
}

void store_maintain(struct store *s)
{
	if (store_usable(s) != 0)
		return;
	s->ops->maintain(s);
}

void store_request_budget(struct store *s, long long max)
{
	s->req_max = max > 0 ? max : 0;
	s->req_used = 0;
	s->req_over = 0;
}

int store_request_over(const struct store *s)
{
	return s->req_over;
}

long long store_request_used(const struct store *s)
{
	return s->req_used;
}

int store_request_charge(struct store *s, size_t n)
{
	if (s->req_max > 0 && (long long)n > s->req_max - s->req_used) {
		s->req_over = 1;
		return STORE_OVER_BUDGET;
	}
	s->req_used += (long long)n;
	return 0;
}

void store_request_refund(struct store *s, size_t n)
{
	s->req_used = (long long)n < s->req_used ? s->req_used - (long long)n : 0;
}

/* An unusable store is reopened once per store_txn, and the transaction
 * runs again in the new one. */
static int store_txn_reopen(struct store *s, int *reopened)
{
	s->panicked = 1;
	if (*reopened)
		return STORE_UNAVAILABLE;
	*reopened = 1;
	return store_reopen(s) == 0 ? 0 : STORE_UNAVAILABLE;
}

int store_txn(struct store *s, int (*fn)(struct store *s, struct store_txn *txn, void *ctx),
	      void *ctx)
{
	int rc = 0, reopened = 0;

	for (int attempt = 0; attempt < STORE_TXN_TRIES; attempt++) {
		struct store_txn t = { s, NULL };
		long long used = s->req_used;   /* what a failed try gives back */

		if (s->panicked && store_txn_reopen(s, &reopened) != 0)
			return STORE_UNAVAILABLE;
		rc = s->ops->begin(s, &t);
		if (rc == 0) {
			rc = fn(s, &t, ctx);
			if (rc == 0)
				rc = s->ops->commit(&t);
			else
				s->ops->abort(&t);
		}
		if (rc != 0)
			s->req_used = used;
		if (rc == STORE_UNAVAILABLE) {
			if (store_txn_reopen(s, &reopened) != 0)
				return STORE_UNAVAILABLE;
			continue;
		}
		if (rc != STORE_RETRY && rc != STORE_BUSY)
			return rc;
		if (s->ops->before_retry(s, rc) == STORE_UNAVAILABLE) {
			if (store_txn_reopen(s, &reopened) != 0)
				return STORE_UNAVAILABLE;
			continue;
		}
		usleep((useconds_t)(1000 * (1 << attempt) + rand() % 1000));
	}
	return rc;
}

int store_backup(struct store *s, const char *dir, char *err, size_t errlen)
{
	if (!(s->backend->flags & STORE_CAN_BACKUP)) {
		snprintf(err, errlen, "the %s store has no backup of its own", s->backend->name);
		return STORE_UNSUPPORTED;
	}
	return s->ops->backup(s, dir, err, errlen);
}

static const char *const store_stat_statuses[STORE_NSTATUS] = {
	"running", "paused", "done", "error", "aborted", "expired",
};

const char *store_stats_status_name(int i)
{
	return i >= 0 && i < STORE_NSTATUS ? store_stat_statuses[i] : "other";
}

int store_stats(struct store *s, struct store_stats *st, char *err, size_t errlen)
{
	memset(st, 0, sizeof *st);
	snprintf(st->backend, sizeof st->backend, "%s", s->backend->name);
	st->version_current = STORE_VERSION;
	return s->ops->stats(s, st, err, errlen);
}

int store_kv_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
		 unsigned flags)
{
	return STORE_OPS(t)->get(t, table, k, klen, v, vlen, flags);
}

int store_kv_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v,
		 size_t vlen, unsigned flags)
{
	return STORE_OPS(t)->put(t, table, k, klen, v, vlen, flags);
}

int store_kv_del(struct store_txn *t, int table, const void *k, size_t klen)
{
	return STORE_OPS(t)->del(t, table, k, klen);
}

int store_kv_scan(struct store_txn *t, int table, const void *from, size_t flen, size_t plen,
		  long max, unsigned flags, store_scan_fn fn, void *ctx)
{
	return STORE_OPS(t)->scan(t, table, from, flen, plen, max, flags, fn, ctx);
}

int store_kv_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		       size_t hilen)
{
	return STORE_OPS(t)->del_range(t, table, lo, lolen, hi, hilen);
}

void store_touched(struct store_txn *t, const uint8_t tid[STORE_TID])
{
	if (STORE_OPS(t)->touched)
		STORE_OPS(t)->touched(t, tid);
}

int store_wait(struct store *s, const uint8_t tid[STORE_TID], int ms)
{
	if (s->ops->wait && !s->panicked)
		return s->ops->wait(s, tid, ms);
	usleep((useconds_t)(ms < STORE_POLL_MS ? ms : STORE_POLL_MS) * 1000);
	return 0;
}

void store_unwatch(struct store *s)
{
	if (s->ops->unwatch && !s->panicked)
		s->ops->unwatch(s);
}

int store_kv_del_prefix(struct store_txn *t, int table, const void *prefix, size_t plen)
{
	uint8_t hi[64];
	size_t n = plen;

	if (plen > sizeof hi)
		return EINVAL;
	memcpy(hi, prefix, plen);
	/* The first key past every key with the prefix: the prefix plus one. */
	while (n > 0 && hi[n - 1] == 0xff)
		n--;
	if (n == 0)
		return store_kv_del_range(t, table, prefix, plen, NULL, 0);
	hi[n - 1]++;
	return store_kv_del_range(t, table, prefix, plen, hi, n);
}

static int store_bytes_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	*(long long *)ctx += (long long)(klen + vlen);
	return 0;
}

struct store_bytes_ctx {
	int table;
	const uint8_t *tid;
	long long total;
};

static int store_bytes_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct store_bytes_ctx *b = p;

	b->total = 0;
	return store_kv_scan(txn, b->table, b->tid, STORE_TID, STORE_TID, 0, 0, store_bytes_visit,
			     &b->total);
}

long long store_thread_bytes(struct store *s, int table, const uint8_t tid[STORE_TID])
{
	struct store_bytes_ctx b = { table, tid, 0 };

	return store_txn(s, store_bytes_fn, &b) == 0 ? b.total : -1;
}
