/* The store's Berkeley DB backend, each case in a fresh environment under
 * /tmp: opening, thread records and their expiry index, pruning
 * (tombstones, other threads left alone, the max), checkpoints (kept
 * window, diffs, history, size), the event log, assets, the transaction
 * retry, a request's budget (what checkpoints, events and assets count,
 * a put past it refused, failed and retried transactions giving their
 * bytes back), many processes opening one new environment at once, and
 * the log directory staying bounded over many commits. Berkeley DB only (its
 * environment, regions and log files), so not in make check-postgresql:
 * the same records through the backend interface, on both backends, are
 * t_store_kv's. */
#include "config.h"
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>
#include "tap.h"
#include "teststore.h"
#include "conf/conf.h"
#include "store/bdb.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define ST_T0 1000000000000LL          /* an arbitrary wall time (ms) */
#define ST_DAY_MS (24LL * 3600 * 1000)
#define ST_TOMBSTONE_MS (7 * ST_DAY_MS)
#define ST_FULL_EVERY 8                 /* ckpt.c: a whole state every 8th step */
#define ST_FORKS 50
#define ST_COMMITS 100000
#define ST_LOG_LIMIT (8LL << 20)
/* While commits pour in: a checkpoint (in its thread) may wait a second for
 * pages a transaction holds, and the log grows by that second's writing. */
#define ST_LOG_RUN_LIMIT (64LL << 20)

struct fx {
	struct teststore ts;
	struct conf conf;
	struct store *s;
};

/* A fresh directory and a configuration pointing at it (not opened yet). */
static void fx_init(struct fx *f, long thread_ttl, long done_ttl, long history)
{
	memset(f, 0, sizeof *f);
	teststore_dir(&f->ts, &f->conf, "t_store");
	f->conf.thread_ttl = thread_ttl;
	f->conf.done_ttl = done_ttl;
	f->conf.history = history;
}

/* 1: the cases run on a store made before a thread's records shared one
 * B-tree (its ckpts.db made first, as such a store has it). */
static int st_old_layout;

static void st_make_old_layout(const char *dir)
{
	DB_ENV *env = NULL;
	DB *db = NULL;

	if (db_env_create(&env, 0) != 0 ||
	    env->open(env, dir, DB_CREATE | DB_INIT_TXN | DB_INIT_LOCK | DB_INIT_LOG | DB_INIT_MPOOL,
		      0600) != 0 ||
	    db_create(&db, env, 0) != 0 ||
	    db->open(db, NULL, "ckpts.db", NULL, DB_BTREE, DB_CREATE | DB_AUTO_COMMIT, 0600) != 0)
		tap_bail("cannot make a store of the old layout in %s", dir);
	db->close(db, 0);
	env->close(env, 0);
}

static void fx_open(struct fx *f)
{
	if (st_old_layout && f->s == NULL)
		st_make_old_layout(f->conf.store_dir);
	f->s = teststore_open(&f->conf);
}

static void fx_done(struct fx *f)
{
	teststore_free(&f->ts, &f->conf, f->s);
	f->s = NULL;
}

/* Thread n's random part: adjacent n are adjacent keys, so a scan that
 * overruns one thread's records lands in the next one's. */
static void st_tid(uint8_t tid[STORE_TID], unsigned n)
{
	memset(tid, 0x5a, STORE_TID);
	tid[12] = (uint8_t)(n >> 24);
	tid[13] = (uint8_t)(n >> 16);
	tid[14] = (uint8_t)(n >> 8);
	tid[15] = (uint8_t)n;
}

struct st_count_ctx {
	int table;
	const void *prefix;
	size_t plen;
	long n;
};

static int st_count_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	((struct st_count_ctx *)ctx)->n++;
	return 0;
}

static int st_count_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_count_ctx *c = p;

	c->n = 0;
	return store_kv_scan(txn, c->table, c->prefix, c->plen, c->plen, 0, STORE_KV_KEYS,
			     st_count_visit, c);
}

/* Records of a table whose key starts with prefix (all of them for plen 0). */
static long st_count(struct store *s, int table, const void *prefix, size_t plen)
{
	struct st_count_ctx c = { table, prefix, plen, 0 };

	return store_txn(s, st_count_fn, &c) == 0 ? c.n : -1;
}

/* Records in one Berkeley DB file, whatever their keys. */
static long st_count_file(DB *db)
{
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	long n = 0;
	int rc;

	if (db == NULL || db->cursor(db, NULL, &c, 0) != 0)
		return -1;
	k.flags = DB_DBT_REALLOC;
	v.flags = DB_DBT_PARTIAL;
	while ((rc = c->get(c, &k, &v, DB_NEXT)) == 0)
		n++;
	free(k.data);
	c->close(c);
	return rc == DB_NOTFOUND ? n : -1;
}

/* Expiry index entries for one thread; *exp gets the last one's time. */
static long st_count_expiry(struct store *s, const uint8_t tid[STORE_TID], long long *exp)
{
	uint8_t kbuf[8 + STORE_TID];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	long n = 0;

	if (BDB(s)->db[STORE_T_EXPIRY]->cursor(BDB(s)->db[STORE_T_EXPIRY], NULL, &c, 0) != 0)
		return -1;
	k.data = kbuf;
	k.ulen = sizeof kbuf;
	k.flags = DB_DBT_USERMEM;
	v.flags = DB_DBT_PARTIAL;
	while (c->get(c, &k, &v, DB_NEXT) == 0)
		if (k.size == sizeof kbuf && memcmp(kbuf + 8, tid, STORE_TID) == 0) {
			n++;
			if (exp) {
				*exp = 0;
				for (int i = 0; i < 8; i++)
					*exp = *exp << 8 | kbuf[i];
			}
		}
	c->close(c);
	return n;
}

static long long st_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* --- thread records ------------------------------------------------------- */

struct st_put {
	const uint8_t *tid;
	json_t *rec;
};

static int st_put_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_put *sp = p;

	return store_thread_put(s, txn, sp->tid, sp->rec);
}

/* Writes a new record (rec borrowed; gains its "exp"). */
static int st_put_rec(struct store *s, const uint8_t tid[STORE_TID], json_t *rec)
{
	struct st_put sp = { tid, rec };

	return store_txn(s, st_put_fn, &sp);
}

static int st_put_thread(struct store *s, const uint8_t tid[STORE_TID], const char *status,
			 long long updated)
{
	json_t *rec = json_pack("{s:s, s:I, s:s}", "status", status, "updated", (json_int_t)updated,
				"workflow", "test");
	int rc = st_put_rec(s, tid, rec);

	json_decref(rec);
	return rc;
}

static const char *st_status(struct store *s, const uint8_t tid[STORE_TID])
{
	static char buf[32];
	const char *st;
	json_t *rec;

	if (store_thread_get(s, NULL, tid, &rec, 0) != 0)
		return "(none)";
	st = json_string_value(json_object_get(rec, "status"));
	snprintf(buf, sizeof buf, "%s", st ? st : "(no status)");
	json_decref(rec);
	return buf;
}

static void t_open(void)
{
	static const char *const files[] = { "threads.db", "expiry.db", "cache.db", "__db.register",
					     "log.0000000001" };
	static const char *const old_files[] = { "ckpts.db", "events.db", "assets.db" };
	struct fx f;
	char path[256], err[512] = "";
	struct stat st;
	struct store *s;

	fx_init(&f, 60, 3600, 20);
	snprintf(path, sizeof path, "%s/env", f.ts.dir);
	teststore_set(&f.conf.store_dir, path);
	s = store_open(&f.conf, err, sizeof err);
	ok(s != NULL, "open: a missing store directory is created (%s)", err);
	if (s == NULL)
		tap_bail("cannot go on without a store");
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0700, "open: the directory is private (0700)");
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/env/%s", f.ts.dir, files[i]);
		ok(stat(path, &st) == 0, "open: %s exists", files[i]);
	}
	for (size_t i = 0; i < sizeof old_files / sizeof old_files[0]; i++) {
		snprintf(path, sizeof path, "%s/env/%s", f.ts.dir, old_files[i]);
		ok(stat(path, &st) != 0, "open: no %s (a thread's records are in threads.db)",
		   old_files[i]);
	}
	{
		u_int32_t page = 0;

		BDB(s)->db[STORE_T_THREADS]->get_pagesize(BDB(s)->db[STORE_T_THREADS], &page);
		is_int(page, 16384, "open: threads.db has 16 KiB pages (a thread's records on one)");
	}
	is_int(store_ping(s, err, sizeof err), 0, "ping: the environment answers");
	ok(s->thread_ttl_ms == 60000 && s->done_ttl_ms == 3600000 && s->history == 20,
	   "open: ttls and history taken from the configuration");
	store_close(s);
	s = store_open(&f.conf, err, sizeof err);
	ok(s != NULL && store_ping(s, err, sizeof err) == 0, "open: an existing store opens again");
	store_close(s);

	snprintf(path, sizeof path, "%s/plain-file", f.ts.dir);
	fclose(fopen(path, "w"));
	teststore_set(&f.conf.store_dir, path);
	err[0] = '\0';
	s = store_open(&f.conf, err, sizeof err);
	ok(s == NULL && strstr(err, path) != NULL, "open: a file in the way fails, naming the path");
	store_close(s);
	fx_done(&f);
}

struct st_ttl_case {
	const char *status;
	long long ttl_ms;
};

static void t_threads(void)
{
	static const struct st_ttl_case ttls[] = {
		{ "running", 60000 }, { "paused", 60000 }, { "done", 3600000 },
		{ "failed", 3600000 }, { "expired", ST_TOMBSTONE_MS },
	};
	struct fx f;
	uint8_t tid[STORE_TID];
	json_t *rec, *got;
	long long exp = 0;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	for (size_t i = 0; i < sizeof ttls / sizeof ttls[0]; i++) {
		st_tid(tid, (unsigned)i);
		rec = json_pack("{s:s, s:I, s:s, s:{s:i}}", "status", ttls[i].status, "updated",
				(json_int_t)ST_T0, "title", "caf\xc3\xa9 \"q\"\n", "visits", "a", 2);
		is_int(st_put_rec(f.s, tid, rec), 0, "thread %s: put", ttls[i].status);
		is_int(json_integer_value(json_object_get(rec, "exp")), ST_T0 + ttls[i].ttl_ms,
		       "thread %s: exp = updated + its ttl", ttls[i].status);
		is_int(store_thread_get(f.s, NULL, tid, &got, 0), 0, "thread %s: get", ttls[i].status);
		ok(json_equal(got, rec), "thread %s: the record round-trips", ttls[i].status);
		ok(st_count_expiry(f.s, tid, &exp) == 1 && exp == ST_T0 + ttls[i].ttl_ms,
		   "thread %s: one expiry entry, at exp", ttls[i].status);
		json_decref(got);
		json_decref(rec);
	}

	/* The index is lazy: an update that runs the expiry past the entry
	 * leaves the entry where it was (the pruner moves it when it comes
	 * due); one that brings the expiry before it moves it, never adding
	 * another. */
	st_tid(tid, 0);
	store_thread_get(f.s, NULL, tid, &rec, 0);
	json_object_set_new(rec, "updated", json_integer(ST_T0 + 5000));
	is_int(st_put_rec(f.s, tid, rec), 0, "update: put");
	ok(st_count_expiry(f.s, tid, &exp) == 1 && exp == ST_T0 + 60000,
	   "update a little later: the entry stays at the old expiry");
	is_int(json_integer_value(json_object_get(rec, "exp")), ST_T0 + 5000 + 60000,
	       "update a little later: the record has the exact expiry");
	json_object_set_new(rec, "updated", json_integer(ST_T0 + 120000));
	is_int(st_put_rec(f.s, tid, rec), 0, "update far later: put");
	ok(st_count_expiry(f.s, tid, &exp) == 1 && exp == ST_T0 + 60000,
	   "update far later: the entry still stays (the pruner moves it)");
	json_object_set_new(rec, "status", json_string("done"));
	json_object_set_new(rec, "updated", json_integer(ST_T0 + 180000));
	is_int(st_put_rec(f.s, tid, rec), 0, "update to done: put");
	ok(st_count_expiry(f.s, tid, &exp) == 1 && exp == ST_T0 + 60000,
	   "update to done (a longer ttl): the entry still stays");
	store_thread_get(f.s, NULL, tid, &got, 0);
	json_object_set_new(got, "status", json_string("running"));
	json_object_set_new(got, "updated", json_integer(ST_T0 - 30000));
	is_int(st_put_rec(f.s, tid, got), 0, "update to an earlier expiry: put");
	ok(st_count_expiry(f.s, tid, &exp) == 1 && exp == ST_T0 + 30000,
	   "update to an earlier expiry: the entry moves there, still one");
	json_decref(got);
	json_decref(rec);
	is_int(st_count(f.s, STORE_T_EXPIRY, NULL, 0), (long)(sizeof ttls / sizeof ttls[0]),
	       "update: the index holds one entry per thread");

	/* A thread whose lazy entry comes due while it is still alive is
	 * indexed again at its real expiry, not pruned. */
	st_tid(tid, 77);
	rec = json_pack("{s:s, s:I}", "status", "running", "updated", (json_int_t)ST_T0);
	st_put_rec(f.s, tid, rec);
	json_object_set_new(rec, "updated", json_integer(ST_T0 + 30000));
	st_put_rec(f.s, tid, rec);
	json_decref(rec);
	store_prune(f.s, ST_T0 + 70000, 100);
	is_int(store_thread_get(f.s, NULL, tid, &got, 0), 0, "lazy index: a live thread survives pruning");
	is_str(json_string_value(json_object_get(got, "status")), "running", "lazy index: still running");
	json_decref(got);
	ok(st_count_expiry(f.s, tid, &exp) == 1 && exp == ST_T0 + 90000,
	   "lazy index: re-indexed at its real expiry");
	store_prune(f.s, ST_T0 + 95000, 100);
	store_thread_get(f.s, NULL, tid, &got, 0);
	is_str(json_string_value(json_object_get(got, "status")), "expired",
	       "lazy index: pruned once really expired");
	json_decref(got);

	st_tid(tid, 999);
	rec = json_object();
	got = rec;
	is_int(store_thread_get(f.s, NULL, tid, &got, 0), STORE_NOTFOUND, "get of an unknown thread: STORE_NOTFOUND");
	ok(got == NULL, "and *rec is NULL");
	json_decref(rec);
	fx_done(&f);
}

/* --- a thread with something in every table ------------------------------- */

struct st_fill {
	const uint8_t *tid;
	char asset[STORE_ASSET_ID_LEN + 1];
};

static int st_fill_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_fill *sf = p;
	json_t *prev = NULL;
	int rc = 0;

	for (long step = 0; step < 3 && rc == 0; step++) {
		json_t *meta = json_pack("{s:i}", "step", (int)step);
		json_t *state = json_pack("{s:i, s:s}", "n", (int)step, "text", "hello");

		rc = store_ckpt_put(s, txn, sf->tid, step, meta, state, prev);
		json_decref(meta);
		json_decref(prev);
		prev = state;
	}
	json_decref(prev);
	for (long long seq = 1; seq <= 5 && rc == 0; seq++)
		rc = store_event_put(s, txn, sf->tid, seq, "{\"e\":1}", 7);
	if (rc == 0)
		rc = store_asset_put(s, txn, sf->tid, "text/plain", "other", 5, sf->asset);
	if (rc == 0)
		rc = store_asset_put(s, txn, sf->tid, "image/png", sf->tid, STORE_TID, sf->asset);
	return rc;
}

static void st_fill(struct store *s, const uint8_t tid[STORE_TID], char asset[STORE_ASSET_ID_LEN + 1])
{
	struct st_fill sf = { tid, "" };

	if (store_txn(s, st_fill_fn, &sf) != 0)
		tap_bail("cannot fill a thread");
	memcpy(asset, sf.asset, sizeof sf.asset);
}

/* "ckpts events assets" counts, e.g. "3 5 2". */
static const char *st_counts(struct store *s, const uint8_t tid[STORE_TID])
{
	static char buf[64];

	snprintf(buf, sizeof buf, "%ld %ld %ld", st_count(s, STORE_T_CKPTS, tid, STORE_TID),
		 st_count(s, STORE_T_EVENTS, tid, STORE_TID), st_count(s, STORE_T_ASSETS, tid, STORE_TID));
	return buf;
}

static int st_asset_exists(struct store *s, const char *id)
{
	char *ctype = NULL;
	void *data = NULL;
	size_t len = 0;
	int rc = store_asset_get(s, id, &ctype, &data, &len);

	free(ctype);
	free(data);
	return rc == 0;
}

static void t_prune(void)
{
	struct fx f;
	uint8_t a[STORE_TID], b[STORE_TID], c[STORE_TID];
	char asset_a[STORE_ASSET_ID_LEN + 1], asset_b[STORE_ASSET_ID_LEN + 1];
	char asset_c[STORE_ASSET_ID_LEN + 1];
	long long now = ST_T0 + 120000, exp = 0;
	json_t *rec;

	fx_init(&f, 60, 30 * 24 * 3600, 20);
	fx_open(&f);
	st_tid(a, 7);   /* expires after 60 s */
	st_tid(b, 8);   /* done, kept 30 days; its keys follow a's */
	st_tid(c, 6);   /* running, updated far later; its keys precede a's */
	st_put_thread(f.s, a, "running", ST_T0);
	st_put_thread(f.s, b, "done", ST_T0);
	st_put_thread(f.s, c, "running", ST_T0 + 100 * ST_DAY_MS);
	st_fill(f.s, a, asset_a);
	st_fill(f.s, b, asset_b);
	st_fill(f.s, c, asset_c);
	is_str(st_counts(f.s, a), "3 5 2", "prune: thread filled (ckpts events assets)");
	if (st_old_layout)
		ok(st_count_file(BDB(f.s)->db[STORE_T_THREADS]) == 3 &&
		   st_count_file(BDB(f.s)->db[STORE_T_CKPTS]) == 9 &&
		   st_count_file(BDB(f.s)->db[STORE_T_EVENTS]) == 15 &&
		   st_count_file(BDB(f.s)->db[STORE_T_ASSETS]) == 6,
		   "prune: a store of the old layout keeps each table in its own file");
	else
		ok(st_count_file(BDB(f.s)->db[STORE_T_THREADS]) == 3 * (1 + 3 + 5 + 2) &&
		   BDB(f.s)->db[STORE_T_CKPTS] == NULL && BDB(f.s)->db[STORE_T_EVENTS] == NULL &&
		   BDB(f.s)->db[STORE_T_ASSETS] == NULL,
		   "prune: a thread's records are in one file (threads.db)");

	is_int(store_prune(f.s, ST_T0 + 59999, 100), 0, "prune: nothing is due before the ttl");
	is_int(store_prune(f.s, now, 100), 1, "prune: the one expired thread is pruned");
	is_str(st_status(f.s, a), "expired", "prune: a tombstone with status expired is left");
	is_str(st_counts(f.s, a), "0 0 0", "prune: its checkpoints, events and assets are gone");
	ok(!st_asset_exists(f.s, asset_a), "prune: its asset no longer answers");
	is_str(st_counts(f.s, b), "3 5 2", "prune: the next thread's records are untouched");
	is_str(st_counts(f.s, c), "3 5 2", "prune: the previous thread's records are untouched");
	ok(st_asset_exists(f.s, asset_b) && st_asset_exists(f.s, asset_c),
	   "prune: the other threads' assets still answer");
	is_str(st_status(f.s, b), "done", "prune: an unexpired done thread stays");
	ok(st_count_expiry(f.s, a, &exp) == 1 && exp == now + ST_TOMBSTONE_MS,
	   "prune: the tombstone is indexed at its own expiry");
	is_int(store_prune(f.s, now, 100), 0, "prune: pruning again at once does nothing");

	is_int(store_prune(f.s, now + ST_TOMBSTONE_MS + 1, 100), 1, "prune: the tombstone expires");
	ok(store_thread_get(f.s, NULL, a, &rec, 0) == STORE_NOTFOUND, "prune: then the record is gone");
	is_int(st_count_expiry(f.s, a, NULL), 0, "prune: and so is its expiry entry");
	is_str(st_status(f.s, b), "done", "prune: the done thread is still there");
	is_str(st_status(f.s, c), "running", "prune: the later thread is still there");

	is_int(store_prune(f.s, ST_T0 + 31 * ST_DAY_MS, 100), 1, "prune: done threads go after done_ttl");
	is_str(st_status(f.s, b), "expired", "prune: ... leaving a tombstone");
	is_str(st_counts(f.s, c), "3 5 2", "prune: the running thread still has its records");
	fx_done(&f);
}

static void t_prune_max(void)
{
	static const int steps[][2] = { { 3, 3 }, { 3, 3 }, { 3, 3 }, { 3, 1 }, { 3, 0 }, { 0, 0 } };
	struct fx f;
	uint8_t tid[STORE_TID];
	long long now = ST_T0 + 3600000;
	int expired = 0;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	for (unsigned i = 0; i < 10; i++) {
		st_tid(tid, i);
		st_put_thread(f.s, tid, "running", ST_T0 + i);
	}
	st_tid(tid, 100);
	st_put_thread(f.s, tid, "running", now);   /* not due */
	is_int(store_prune(f.s, now, 0), 0, "prune max 0: nothing");
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		is_int(store_prune(f.s, now, steps[i][0]), steps[i][1], "prune max %d (call %zu): %d pruned",
		       steps[i][0], i + 1, steps[i][1]);
	for (unsigned i = 0; i < 10; i++) {
		st_tid(tid, i);
		expired += strcmp(st_status(f.s, tid), "expired") == 0;
	}
	is_int(expired, 10, "prune max: all ten due threads are tombstones");
	st_tid(tid, 100);
	is_str(st_status(f.s, tid), "running", "prune max: the thread not due stays");
	fx_done(&f);
}

/* --- checkpoints ------------------------------------------------------------ */

/* The state after step i: one field changes per step, a field comes and goes,
 * a large conversation never changes. */
static json_t *st_state_next(const json_t *prev, long i)
{
	json_t *s;
	char key[16];

	if (prev == NULL) {
		s = json_pack("{s:[s, s], s:s, s:i}", "messages", "hello", "caf\xc3\xa9 \xe2\x9c\x93",
			      "scratch", "x", "counter", 0);
		for (int k = 0; k < 7; k++) {
			snprintf(key, sizeof key, "f%d", k);
			json_object_set_new(s, key, json_integer(0));
		}
		return s;
	}
	s = json_deep_copy(prev);
	snprintf(key, sizeof key, "f%ld", i % 7);
	json_object_set_new(s, key, i % 5 == 0 ? json_pack("{s:[i]}", "nested", (int)i) : json_integer(i));
	if (i % 10 == 3)
		json_object_del(s, "scratch");
	if (i % 10 == 6)
		json_object_set_new(s, "scratch", json_sprintf("s%ld", i));
	return s;
}

static json_t *st_meta(long i)
{
	return json_pack("{s:i, s:i, s:s, s:s, s:s, s:I}", "step", (int)i, "parent", (int)i - 1, "node",
			 "n", "next", "m", "status", "running", "ts", (json_int_t)(ST_T0 + i));
}

struct st_ckpt {
	const uint8_t *tid;
	long step;
	const json_t *meta, *state, *prev;
};

static int st_ckpt_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_ckpt *c = p;

	return store_ckpt_put(s, txn, c->tid, c->step, c->meta, c->state, c->prev);
}

/* 0: the stored state and meta at step equal the expected ones; else the rc
 * (or -1 for a difference). */
static int st_ckpt_check(struct store *s, const uint8_t tid[STORE_TID], long step, const json_t *want,
			 const json_t *want_meta)
{
	json_t *state = NULL, *meta = NULL;
	int rc = store_ckpt_get(s, NULL, tid, step, &state, &meta);

	if (rc == 0 && (!json_equal(state, want) || !json_equal(meta, want_meta)))
		rc = -1;
	json_decref(state);
	json_decref(meta);
	return rc;
}

struct st_window_case {
	long history, steps;
};

/* Puts steps 0..steps-1, checking as it goes; states[] and metas[] get
 * every step's expected state and meta (new references). */
static void st_ckpt_fill(struct fx *f, const uint8_t tid[STORE_TID], long steps, json_t **states,
			 json_t **metas)
{
	long bad_now = 0, bad_count = 0, max_count = 0, limit = f->conf.history + ST_FULL_EVERY;

	for (long i = 0; i < steps; i++) {
		struct st_ckpt c = { tid, i, NULL, NULL, i ? states[i - 1] : NULL };
		long n;

		states[i] = st_state_next(c.prev, i);
		metas[i] = st_meta(i);
		c.state = states[i];
		c.meta = metas[i];
		if (store_txn(f->s, st_ckpt_fn, &c) != 0)
			tap_bail("store_ckpt_put step %ld", i);
		bad_now += st_ckpt_check(f->s, tid, i, states[i], metas[i]) != 0;
		n = st_count(f->s, STORE_T_CKPTS, tid, STORE_TID);
		bad_count += n > limit;
		max_count = n > max_count ? n : max_count;
	}
	is_int(bad_now, 0, "history %ld: each step reads back exactly right after its put",
	       f->conf.history);
	is_int(bad_count, 0, "history %ld: never more than history + %d stored (most: %ld)",
	       f->conf.history, ST_FULL_EVERY, max_count);
}

static void t_ckpt_window(const struct st_window_case *wc)
{
	json_t *states[64], *metas[64];
	long oldest = wc->steps - wc->history, bad_kept = 0, bad_gone = 0, bad_base = 0;
	uint8_t tid[STORE_TID], other[STORE_TID];
	struct fx f;

	if (oldest < 0)
		oldest = 0;
	fx_init(&f, 60, 3600, wc->history);
	fx_open(&f);
	st_tid(tid, 1);
	st_tid(other, 2);
	st_fill(f.s, other, (char[STORE_ASSET_ID_LEN + 1]){ 0 });
	st_ckpt_fill(&f, tid, wc->steps, states, metas);
	for (long i = 0; i < wc->steps; i++) {
		int rc = st_ckpt_check(f.s, tid, i, states[i], metas[i]);

		if (i >= oldest)
			bad_kept += rc != 0;
		else if (i < oldest - ST_FULL_EVERY)
			bad_gone += rc != STORE_NOTFOUND;
		else
			bad_base += rc != 0 && rc != STORE_NOTFOUND;
	}
	is_int(bad_kept, 0, "history %ld, %ld steps: the last %ld steps are exact (state and meta)",
	       wc->history, wc->steps, wc->steps - oldest);
	is_int(bad_gone, 0, "history %ld, %ld steps: steps before the kept window give STORE_NOTFOUND",
	       wc->history, wc->steps);
	is_int(bad_base, 0, "history %ld, %ld steps: a kept base step is exact or STORE_NOTFOUND",
	       wc->history, wc->steps);
	is_int(st_count(f.s, STORE_T_CKPTS, other, STORE_TID), 3, "history %ld: another thread's checkpoints untouched",
	       wc->history);
	for (long i = 0; i < wc->steps; i++) {
		json_decref(states[i]);
		json_decref(metas[i]);
	}
	fx_done(&f);
}

static void t_ckpt_windows(void)
{
	static const struct st_window_case cases[] = {
		{ 5, 30 }, { 1, 20 }, { 2, 9 }, { 8, 17 }, { 8, 24 }, { 20, 30 }, { 30, 30 }, { 3, 3 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		t_ckpt_window(&cases[i]);
}

struct st_hist_case {
	long latest, limit;
	long want;   /* entries; -1: all that are stored, at least history */
};

/* A read that cannot get its lock: the error comes back and nothing is
 * handed over (a caller that only checks rc must have nothing to free). */
static void st_ckpt_locked(struct fx *f, const uint8_t tid[STORE_TID])
{
	uint8_t key[STORE_TID + 4];
	DB_TXN *writer = NULL, *reader = NULL;
	void *v = NULL;
	size_t vlen = 0;
	json_t *out = NULL;
	int rc;

	store_key(key, tid, 29, 4);
	if (BDB(f->s)->env->txn_begin(BDB(f->s)->env, NULL, &writer, 0) != 0 ||
	    store_kv_get(&(struct store_txn){ f->s, writer }, STORE_T_CKPTS, key, sizeof key, &v,
			 &vlen, STORE_RMW) != 0 ||
	    BDB(f->s)->env->txn_begin(BDB(f->s)->env, NULL, &reader, DB_TXN_NOWAIT) != 0)
		tap_bail("cannot set up a lock conflict");
	free(v);
	{
		struct store_txn rt = { f->s, reader };

		rc = store_ckpt_history(f->s, &rt, tid, 29, 5, &out);
	}
	ok((rc == STORE_RETRY || rc == STORE_BUSY) && out == NULL,
	   "history under a lock conflict: the lock error, no array (rc %d)", rc);
	json_decref(out);
	reader->abort(reader);
	writer->abort(writer);
}

static void t_ckpt_history(void)
{
	static const struct st_hist_case cases[] = {
		{ 29, 3, 3 }, { 29, 1, 1 }, { 29, 0, 0 }, { 29, 5, 5 }, { 29, 100, -1 }, { 27, 2, 2 },
		{ 10, 5, 0 },
	};
	json_t *states[30], *metas[30];
	uint8_t tid[STORE_TID];
	struct fx f;

	fx_init(&f, 60, 3600, 5);
	fx_open(&f);
	st_tid(tid, 1);
	st_ckpt_fill(&f, tid, 30, states, metas);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct st_hist_case *hc = &cases[i];
		json_t *out = NULL, *e;
		long n, bad = 0;
		size_t j;
		int rc = store_ckpt_history(f.s, NULL, tid, hc->latest, hc->limit, &out);

		n = (long)json_array_size(out);
		json_array_foreach(out, j, e) {
			long step = (long)json_integer_value(json_object_get(e, "step"));
			json_t *meta = json_deep_copy(e);

			json_object_del(meta, "state");
			bad += step != hc->latest - (long)j || step < 0 ||
			       !json_equal(json_object_get(e, "state"), states[step]) ||
			       !json_equal(meta, metas[step]);
			json_decref(meta);
		}
		if (hc->want >= 0)
			ok(rc == 0 && n == hc->want && bad == 0,
			   "history(latest %ld, limit %ld): %ld entries, newest first, exact (got %ld)",
			   hc->latest, hc->limit, hc->want, n);
		else
			ok(rc == 0 && n >= 5 && n <= 5 + ST_FULL_EVERY && n <= hc->limit && bad == 0,
			   "history(latest %ld, limit %ld): every kept step, newest first, exact (got %ld)",
			   hc->latest, hc->limit, n);
		json_decref(out);
	}
	st_ckpt_locked(&f, tid);
	for (long i = 0; i < 30; i++) {
		json_decref(states[i]);
		json_decref(metas[i]);
	}
	fx_done(&f);
}

/* A state carrying a 20 KB field that never changes: the diffs leave it out. */
static void t_ckpt_bytes(void)
{
	enum { STEPS = 20, BIG = 20 * 1024 };
	char *big = xmalloc(BIG + 1);
	json_t *prev = NULL, *last = NULL;
	uint8_t tid[STORE_TID];
	long long bytes;
	struct fx f;
	long bad = 0;

	fx_init(&f, 60, 3600, 100);
	fx_open(&f);
	st_tid(tid, 1);
	/* Letters in no pattern (xorshift): packed, they still take more than
	 * half their length, so the bounds below measure the diffs. */
	for (uint32_t i = 0, x = 2463534242u; i < BIG; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		big[i] = (char)('a' + x % 26);
	}
	big[BIG] = '\0';
	for (long i = 0; i < STEPS; i++) {
		json_t *state = prev ? json_deep_copy(prev) : json_pack("{s:s}", "conversation", big);
		json_t *meta = st_meta(i);
		struct st_ckpt c = { tid, i, meta, state, prev };

		json_object_set_new(state, "counter", json_integer(i));
		if (store_txn(f.s, st_ckpt_fn, &c) != 0)
			tap_bail("store_ckpt_put step %ld", i);
		bad += st_ckpt_check(f.s, tid, i, state, meta) != 0;
		json_decref(meta);
		json_decref(prev);
		prev = state;
	}
	last = prev;
	bytes = store_ckpt_bytes(f.s, tid);
	printf("# checkpoint bytes for %d steps of a %d-byte state: %lld\n", STEPS, BIG, bytes);
	is_int(bad, 0, "ckpt bytes: every step reads back exactly");
	ok(bytes > BIG / 2 && bytes < 4LL * BIG, "ckpt bytes: %lld < 4 x %d (diffs store changed fields only)",
	   bytes, BIG);
	st_tid(tid, 2);
	is_int(store_ckpt_bytes(f.s, tid), 0, "ckpt bytes: a thread without checkpoints has 0");
	json_decref(last);
	free(big);
	fx_done(&f);
}

/* --- events ------------------------------------------------------------------ */

#define ST_EVENTS 1000

struct st_events {
	const uint8_t *tid;
	long long from, to;
	char **texts;
};

static int st_events_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_events *e = p;
	int rc = 0;

	for (long long seq = e->from; seq <= e->to && rc == 0; seq++)
		rc = store_event_put(s, txn, e->tid, seq, e->texts[seq], strlen(e->texts[seq]));
	return rc;
}

/* The log as the store keeps it: ST_OLD events first as plain records of
 * one event each (as written before steps were batched and packed), then
 * steps of 1 to 7 events, one packed record each. *records: how many. */
#define ST_OLD 100
struct st_steps {
	const uint8_t *tid;
	char **texts;
	long records;
};

static int st_steps_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_steps *e = p;
	uint8_t key[STORE_TID + 8];
	long long seq = 1;
	int rc = 0;

	e->records = 0;
	for (; seq <= ST_OLD && rc == 0; seq++, e->records++) {
		store_key(key, e->tid, (uint64_t)seq, 8);
		rc = store_kv_put(txn, STORE_T_EVENTS, key, sizeof key, e->texts[seq], strlen(e->texts[seq]),
				  STORE_KV_NEW);
	}
	for (int k = 0; seq <= ST_EVENTS && rc == 0; k++, e->records++) {
		long long last = seq + k % 7 < ST_EVENTS ? seq + k % 7 : ST_EVENTS;
		struct buf b;

		buf_init(&b, 1 << 20);
		for (; seq <= last; seq++)
			buf_add(&b, e->texts[seq], strlen(e->texts[seq]) + 1);
		rc = store_events_put(s, txn, e->tid, last, b.data, b.len);
		buf_free(&b);
	}
	return rc;
}

struct st_after_case {
	long long after;
	int max;
	size_t max_bytes;
};

/* What store_events_after promises: events after `after` in order, at most
 * max, stopping once max_bytes is reached (so at most one event past it). */
static long st_after_expect(char **texts, long long after, int max, size_t max_bytes)
{
	size_t bytes = 0;
	long n = 0;

	for (long long seq = after < 0 ? 1 : after + 1; seq <= ST_EVENTS && n < max && bytes < max_bytes; seq++) {
		bytes += strlen(texts[seq]);
		n++;
	}
	return n;
}

static void st_after_check(struct store *s, const uint8_t tid[STORE_TID], char **texts,
			   const struct st_after_case *ac)
{
	long want = st_after_expect(texts, ac->after, ac->max, ac->max_bytes), bad = 0;
	long long first = ac->after < 0 ? 1 : ac->after + 1;
	size_t bytes = 0, i;
	json_t *out = NULL, *e;
	int rc = store_events_after(s, tid, ac->after, ac->max, ac->max_bytes, &out);

	json_array_foreach(out, i, e) {
		const char *text = json_string_value(json_array_get(e, 1));
		long long seq = json_integer_value(json_array_get(e, 0));

		bad += seq != first + (long long)i || seq > ST_EVENTS || text == NULL ||
		       strcmp(text, texts[seq]) != 0;
		bytes += text ? strlen(text) : 0;
	}
	ok(rc == 0 && (long)json_array_size(out) == want && bad == 0,
	   "events after %lld (max %d, max_bytes %zu): %ld events from %lld, exact texts (got %zu, %zu bytes)",
	   ac->after, ac->max, ac->max_bytes, want, first, json_array_size(out), bytes);
	json_decref(out);
}

static void t_events(void)
{
	static const struct st_after_case cases[] = {
		{ 0, 2000, SIZE_MAX }, { -1, 2000, SIZE_MAX }, { 500, 2000, SIZE_MAX },
		{ 999, 2000, SIZE_MAX }, { 1000, 2000, SIZE_MAX }, { 5000, 10, SIZE_MAX },
		{ 0, 10, SIZE_MAX }, { 100, 1, SIZE_MAX }, { 0, 0, SIZE_MAX }, { 0, 1000, 1 },
		{ 0, 1000, 5000 }, { 700, 50, 5000 }, { 990, 1000, 100000 }, { 0, 5, 100000 },
		{ 0, 1000, 0 }, { 99, 3, SIZE_MAX }, { 100, 3, SIZE_MAX }, { 101, 2, SIZE_MAX },
		{ 102, 1, SIZE_MAX }, { 103, 7, 1 }, { 997, 1000, SIZE_MAX },
	};
	char *texts[ST_EVENTS + 1], *other_texts[ST_EVENTS + 1];
	uint8_t tid[STORE_TID], next[STORE_TID], before[STORE_TID];
	struct fx f;
	json_t *out = NULL;
	int rc;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	st_tid(tid, 10);
	st_tid(next, 11);
	st_tid(before, 9);
	texts[0] = other_texts[0] = NULL;
	for (int i = 1; i <= ST_EVENTS; i++) {
		json_t *ev = json_pack("{s:i, s:s, s:s+}", "seq", i, "type", "token", "text",
				       "caf\xc3\xa9 \"quoted\"\nline ", i % 2 ? "odd" : "even");

		json_object_set_new(ev, "pad", json_sprintf("%.*s", i % 97, "0123456789012345678901234567890123"
							    "4567890123456789012345678901234567890123"
							    "456789012345678901234567890123456789"));
		texts[i] = json_dumps(ev, JSON_COMPACT);
		other_texts[i] = xasprintf("{\"other\":%d}", i);
		json_decref(ev);
	}
	struct st_steps steps = { tid, texts, 0 };

	if ((rc = store_txn(f.s, st_steps_fn, &steps)) != 0)
		tap_bail("store_events_put: %s", store_strerror(rc));
	{
		struct st_events e1 = { next, 1, 10, other_texts }, e2 = { before, 1, 10, other_texts };

		if (store_txn(f.s, st_events_fn, &e1) != 0 || store_txn(f.s, st_events_fn, &e2) != 0)
			tap_bail("store_event_put (other threads)");
	}
	is_int(st_count(f.s, STORE_T_EVENTS, tid, STORE_TID), steps.records,
	       "events: %d stored in %ld records (%d plain, the rest one packed record a step)", ST_EVENTS,
	       steps.records, ST_OLD);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		st_after_check(f.s, tid, texts, &cases[i]);

	rc = store_events_after(f.s, next, 0, 100, SIZE_MAX, &out);
	ok(rc == 0 && json_array_size(out) == 10 &&
	   strcmp(json_string_value(json_array_get(json_array_get(out, 9), 1)), other_texts[10]) == 0,
	   "events: the next thread reads only its own 10");
	json_decref(out);
	st_tid(next, 12);
	rc = store_events_after(f.s, next, 0, 100, SIZE_MAX, &out);
	ok(rc == 0 && json_array_size(out) == 0, "events: a thread without events reads none");
	json_decref(out);

	{
		struct st_events dup = { tid, 5, 5, other_texts };

		is_int(store_txn(f.s, st_events_fn, &dup), STORE_EXISTS,
		       "events: putting an existing seq fails (DB_NOOVERWRITE)");
		st_after_check(f.s, tid, texts, &(struct st_after_case){ 4, 1, SIZE_MAX });
	}
	for (int i = 1; i <= ST_EVENTS; i++) {
		free(texts[i]);
		free(other_texts[i]);
	}
	fx_done(&f);
}

/* --- assets ---------------------------------------------------------------- */

struct st_asset {
	const uint8_t *tid;
	const char *ctype;
	const void *data;
	size_t len;
	char id[STORE_ASSET_ID_LEN + 1];
};

static int st_asset_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_asset *a = p;

	return store_asset_put(s, txn, a->tid, a->ctype, a->data, a->len, a->id);
}

static int st_asset_put(struct store *s, const uint8_t *tid, const char *ctype, const void *data,
			size_t len, char id[STORE_ASSET_ID_LEN + 1])
{
	struct st_asset a = { tid, ctype, data, len, "" };
	int rc = store_txn(s, st_asset_fn, &a);

	memcpy(id, a.id, sizeof a.id);
	return rc;
}

static int st_asset_same(struct store *s, const char *id, const char *ctype, const void *data, size_t len)
{
	char *got_ctype = NULL;
	void *got = NULL;
	size_t got_len = 0;
	int same = store_asset_get(s, id, &got_ctype, &got, &got_len) == 0 &&
		   strcmp(got_ctype, ctype) == 0 && got_len == len && memcmp(got, data, len) == 0;

	free(got_ctype);
	free(got);
	return same;
}

static void t_asset_bad_ids(struct store *s, const char *good)
{
	char ids[12][80];
	const char *names[12];
	uint8_t rnd[32];
	int n = 0;

#define ST_BAD(name_, ...) (snprintf(ids[n], sizeof ids[n], __VA_ARGS__), names[n++] = (name_))
	ST_BAD("empty", "%s", "");
	ST_BAD("garbage", "%s", "../../etc/passwd");
	ST_BAD("one character short", "%.42s", good);
	ST_BAD("one character long", "%sA", good);
	ST_BAD("'+' inside", "+%s", good + 1);
	ST_BAD("'/' inside", "%.10s/%s", good, good + 11);
	ST_BAD("padding '='", "%.42s=", good);
	ST_BAD("43 '!'", "%s", "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
	ST_BAD("a space inside", "%.20s %s", good, good + 21);
	randombytes_buf(rnd, sizeof rnd);
	sodium_bin2base64(ids[n], sizeof ids[n], rnd, sizeof rnd, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	names[n++] = "well-formed, no such asset";
	ST_BAD("another thread's prefix", "%c%s", good[0] == 'A' ? 'B' : 'A', good + 1);
#undef ST_BAD
	for (int i = 0; i < n; i++) {
		char *ctype = NULL;
		void *data = NULL;
		size_t len = 0;

		is_int(store_asset_get(s, ids[i], &ctype, &data, &len), STORE_NOTFOUND, "asset id %s: STORE_NOTFOUND",
		       names[i]);
	}
}

static void t_assets(void)
{
	enum { MIB = 1 << 20 };
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
	char id1[STORE_ASSET_ID_LEN + 1], id2[STORE_ASSET_ID_LEN + 1], id3[STORE_ASSET_ID_LEN + 1];
	char id4[STORE_ASSET_ID_LEN + 1], idbig[STORE_ASSET_ID_LEN + 1], idempty[STORE_ASSET_ID_LEN + 1];
	char ctype[300];
	uint8_t a[STORE_TID], b[STORE_TID];
	unsigned char *big = xmalloc(MIB);
	struct fx f;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	st_tid(a, 1);
	st_tid(b, 2);
	is_int(st_asset_put(f.s, a, "image/png", png, sizeof png - 1, id1), 0, "asset: put");
	is_int((long)strlen(id1), STORE_ASSET_ID_LEN, "asset: the id is %d characters", STORE_ASSET_ID_LEN);
	is_int(st_asset_put(f.s, a, "image/png", png, sizeof png - 1, id2), 0, "asset: same bytes again");
	is_str(id2, id1, "asset: same bytes, same id");
	is_int(st_count(f.s, STORE_T_ASSETS, a, STORE_TID), 1, "asset: stored once");
	is_int(st_asset_put(f.s, b, "image/png", png, sizeof png - 1, id3), 0, "asset: same bytes, other thread");
	ok(strcmp(id3, id1) != 0, "asset: another thread gets another id");
	is_int(st_asset_put(f.s, a, "image/png", png, sizeof png - 2, id4), 0, "asset: one byte fewer");
	ok(strcmp(id4, id1) != 0, "asset: different bytes, different id");
	ok(st_asset_same(f.s, id1, "image/png", png, sizeof png - 1), "asset: type and bytes round-trip");

	randombytes_buf(big, MIB);
	memset(big + 1000, 0, 5000);
	big[0] = big[MIB - 1] = 0;
	is_int(st_asset_put(f.s, a, "application/octet-stream", big, MIB, idbig), 0, "asset: 1 MiB put");
	ok(st_asset_same(f.s, idbig, "application/octet-stream", big, MIB),
	   "asset: 1 MiB with NUL bytes round-trips");
	is_int(st_asset_put(f.s, a, "text/plain", "", 0, idempty), 0, "asset: empty put");
	ok(st_asset_same(f.s, idempty, "text/plain", "", 0), "asset: empty round-trips");
	memset(ctype, 't', 255);
	ctype[255] = '\0';
	is_int(st_asset_put(f.s, b, ctype, "x", 1, id4), 0, "asset: a 255-byte content type");
	ok(st_asset_same(f.s, id4, ctype, "x", 1), "asset: ... round-trips");
	strcat(ctype, "t");
	is_int(st_asset_put(f.s, b, ctype, "y", 1, id4), EINVAL, "asset: a 256-byte content type is refused");
	t_asset_bad_ids(f.s, id1);
	free(big);
	fx_done(&f);
}

/* --- store_txn --------------------------------------------------------------- */

struct st_script {
	const int *rcs;
	int n, calls;
	const uint8_t *tid;   /* when set: each call writes a record named after it */
};

static int st_script_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_script *sc = p;
	int rc = sc->rcs[sc->calls < sc->n ? sc->calls : sc->n - 1];

	if (sc->tid) {
		uint8_t tid[STORE_TID];
		json_t *rec = json_pack("{s:s, s:I, s:i}", "status", "running", "updated",
					(json_int_t)ST_T0, "call", sc->calls);
		int prc;

		memcpy(tid, sc->tid, STORE_TID);
		tid[0] = (uint8_t)sc->calls;
		prc = store_thread_put(s, txn, tid, rec);
		json_decref(rec);
		if (prc)
			return prc;
	}
	sc->calls++;
	return rc;
}

struct st_txn_case {
	const char *name;
	int rcs[4], n;
	int want_rc, min_calls, max_calls;
};

static void t_txn(void)
{
	static const struct st_txn_case cases[] = {
		{ "success", { 0 }, 1, 0, 1, 1 },
		{ "two deadlocks, then success", { STORE_RETRY, STORE_RETRY, 0 }, 3, 0, 3, 3 },
		{ "lock not granted, then success", { STORE_BUSY, 0 }, 2, 0, 2, 2 },
		{ "deadlock, not granted, success", { STORE_RETRY, STORE_BUSY, 0 }, 3, 0, 3, 3 },
		{ "deadlock every time: gives up", { STORE_RETRY }, 1, STORE_RETRY, 3, 16 },
		{ "not granted every time: gives up", { STORE_BUSY }, 1, STORE_BUSY, 3, 16 },
		{ "not found: not retried", { STORE_NOTFOUND }, 1, STORE_NOTFOUND, 1, 1 },
		{ "EINVAL: not retried", { EINVAL }, 1, EINVAL, 1, 1 },
		{ "key exists: not retried", { STORE_EXISTS }, 1, STORE_EXISTS, 1, 1 },
		{ "panic, then success: reopened, run again", { STORE_UNAVAILABLE, 0 }, 2, 0, 2, 2 },
		{ "panic every time: one reopen, then gives up", { STORE_UNAVAILABLE }, 1, STORE_UNAVAILABLE, 2, 2 },
	};
	static const int two_fail[] = { STORE_RETRY, STORE_RETRY, 0 };
	uint8_t tid[STORE_TID];
	struct fx f;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct st_txn_case *tc = &cases[i];
		struct st_script sc = { tc->rcs, tc->n, 0, NULL };
		long long t0 = st_now_us();
		int rc = store_txn(f.s, st_script_fn, &sc);

		ok(rc == tc->want_rc && sc.calls >= tc->min_calls && sc.calls <= tc->max_calls,
		   "store_txn, %s: rc %d after %d calls (%.0f ms)", tc->name, rc, sc.calls,
		   (st_now_us() - t0) / 1000.0);
	}
	/* What an attempt that failed wrote is rolled back. */
	{
		struct st_script sc = { two_fail, 3, 0, tid };
		json_t *rec;

		st_tid(tid, 1);
		is_int(store_txn(f.s, st_script_fn, &sc), 0, "store_txn: retried writes commit once");
		for (int call = 0; call < 3; call++) {
			tid[0] = (uint8_t)call;
			rec = NULL;
			if (call < 2)
				ok(store_thread_get(f.s, NULL, tid, &rec, 0) == STORE_NOTFOUND,
				   "store_txn: attempt %d (deadlocked) left nothing", call + 1);
			else
				ok(store_thread_get(f.s, NULL, tid, &rec, 0) == 0 &&
				   json_integer_value(json_object_get(rec, "call")) == 2,
				   "store_txn: the attempt that succeeded is stored");
			json_decref(rec);
		}
	}
	fx_done(&f);
}

/* --- a request's budget ------------------------------------------------------- */

enum st_rb_kind { ST_RB_BUDGET, ST_RB_EVENTS, ST_RB_CKPT, ST_RB_ASSET, ST_RB_FAILS, ST_RB_RETRIED };

/* One step: a put of n bytes (events: their text with its NUL; a
 * checkpoint: its state's one string; an asset: its data, typed
 * text/plain), or for ST_RB_BUDGET a new budget of n; then the result,
 * the bytes counted and whether a put was refused. */
struct st_rb_step {
	const char *name;
	enum st_rb_kind kind;
	size_t n;
	int want_rc;
	long long want_used;
	int want_over;
};

struct st_rb {
	const struct st_rb_step *step;
	const uint8_t *tid;
	long long seq;
	int calls;
};

static int st_rb_ckpt(struct store *s, struct store_txn *txn, const uint8_t *tid, const char *text)
{
	json_t *state = json_pack("{s:s}", "s", text), *meta = json_pack("{s:i}", "step", 0);
	int rc = store_ckpt_put(s, txn, tid, 0, meta, state, NULL);

	json_decref(state);
	json_decref(meta);
	return rc;
}

static int st_rb_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_rb *r = p;
	const struct st_rb_step *st = r->step;
	char *text = xmalloc(st->n + 1), id[STORE_ASSET_ID_LEN + 1];
	int rc;

	memset(text, 'e', st->n);
	text[st->n] = '\0';
	r->calls++;
	if (st->kind == ST_RB_CKPT)
		rc = st_rb_ckpt(s, txn, r->tid, text);
	else if (st->kind == ST_RB_ASSET)
		rc = store_asset_put(s, txn, r->tid, "text/plain", text, st->n, id);
	else {
		text[st->n - 1] = '\0';
		rc = store_events_put(s, txn, r->tid, r->seq + 1, text, st->n);
	}
	if (rc == 0 && st->kind == ST_RB_FAILS)
		rc = EINVAL;
	if (rc == 0 && st->kind == ST_RB_RETRIED && r->calls == 1)
		rc = STORE_RETRY;
	free(text);
	return rc;
}

static void t_request_budget(void)
{
	static const struct st_rb_step steps[] = {
		{ "a budget of 1000 bytes", ST_RB_BUDGET, 1000, 0, 0, 0 },
		{ "an event record of 300 bytes", ST_RB_EVENTS, 300, 0, 300, 0 },
		{ "a checkpoint: its JSON text, {\"step\":0,\"full\":{\"s\":...}}", ST_RB_CKPT, 100, 0, 426, 0 },
		{ "an asset: its type and bytes", ST_RB_ASSET, 200, 0, 637, 0 },
		{ "the same asset again: stored once, nothing added", ST_RB_ASSET, 200, 0, 637, 0 },
		{ "a transaction that fails gives its bytes back", ST_RB_FAILS, 100, EINVAL, 637, 0 },
		{ "a transaction tried twice counts once", ST_RB_RETRIED, 50, 0, 687, 0 },
		{ "a put past the budget is refused", ST_RB_EVENTS, 400, STORE_OVER_BUDGET, 687, 1 },
		{ "what is left still fits", ST_RB_EVENTS, 313, 0, 1000, 1 },
		{ "one byte more does not", ST_RB_EVENTS, 1, STORE_OVER_BUDGET, 1000, 1 },
		{ "budget 0: none, counted from 0", ST_RB_BUDGET, 0, 0, 0, 0 },
		{ "without a budget, 100 KB", ST_RB_EVENTS, 100000, 0, 100000, 0 },
	};
	uint8_t tid[STORE_TID];
	struct st_rb r = { NULL, tid, 0, 0 };
	struct fx f;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	st_tid(tid, 7);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		int rc = 0;

		r.step = &steps[i];
		r.calls = 0;
		if (steps[i].kind == ST_RB_BUDGET)
			store_request_budget(f.s, (long long)steps[i].n);
		else
			rc = store_txn(f.s, st_rb_fn, &r);
		if (rc == 0 && steps[i].kind != ST_RB_BUDGET && steps[i].kind != ST_RB_ASSET &&
		    steps[i].kind != ST_RB_CKPT)
			r.seq++;
		ok(rc == steps[i].want_rc && store_request_used(f.s) == steps[i].want_used &&
		   store_request_over(f.s) == steps[i].want_over,
		   "request budget: %s (rc %d, %lld bytes counted, refused %d)", steps[i].name, rc,
		   store_request_used(f.s), store_request_over(f.s));
	}
	is_int(st_count(f.s, STORE_T_EVENTS, tid, STORE_TID), (long)r.seq,
	       "request budget: the refused and failed puts stored nothing (%lld event records)", r.seq);
	fx_done(&f);
}

/* --- many processes ---------------------------------------------------------- */

static int st_child(const struct conf *c, unsigned i, int go)
{
	char err[512], ch;
	uint8_t tid[STORE_TID];
	struct store *s;
	json_t *rec;
	int rc;

	if (read(go, &ch, 1) != 0)
		return 3;
	s = store_open(c, err, sizeof err);
	if (s == NULL) {
		fprintf(stderr, "child %u: %s\n", i, err);
		return 4;
	}
	st_tid(tid, i);
	rec = json_pack("{s:s, s:I, s:i}", "status", "running", "updated", (json_int_t)ST_T0, "child", (int)i);
	rc = st_put_rec(s, tid, rec);
	json_decref(rec);
	if (rc)
		fprintf(stderr, "child %u: put: %s\n", i, store_strerror(rc));
	store_close(s);
	return rc ? 5 : 0;
}

static void t_many_openers(void)
{
	pid_t pids[ST_FORKS];
	char path[128];
	int go[2], clean = 0, found = 0;
	uint8_t tid[STORE_TID];
	long long t0;
	struct fx f;

	fx_init(&f, 60, 3600, 20);
	snprintf(path, sizeof path, "%s/env", f.ts.dir);   /* not there yet: they race to make it */
	teststore_set(&f.conf.store_dir, path);
	if (pipe(go) < 0)
		tap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	for (unsigned i = 0; i < ST_FORKS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			tap_bail("fork: %s", strerror(errno));
		if (pids[i] == 0) {
			close(go[1]);
			_exit(st_child(&f.conf, i, go[0]));
		}
	}
	close(go[0]);
	t0 = st_now_us();
	close(go[1]);   /* releases every child at once */
	for (unsigned i = 0; i < ST_FORKS; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0)
			clean++;
		else
			printf("# child %u: status 0x%x\n", i, status);
	}
	printf("# %d processes opened a new environment and committed in %.0f ms\n", ST_FORKS,
	       (st_now_us() - t0) / 1000.0);
	is_int(clean, ST_FORKS, "%d processes opening a new store at once all commit and exit 0", ST_FORKS);
	fx_open(&f);
	for (unsigned i = 0; i < ST_FORKS; i++) {
		json_t *rec;

		st_tid(tid, i);
		if (store_thread_get(f.s, NULL, tid, &rec, 0) == 0) {
			found += json_integer_value(json_object_get(rec, "child")) == (json_int_t)i;
			json_decref(rec);
		}
	}
	is_int(found, ST_FORKS, "the parent finds every child's record");
	is_int(st_count(f.s, STORE_T_THREADS, NULL, 0), ST_FORKS, "and no others");
	fx_done(&f);
}

/* --- a process that dies, a panic ---------------------------------------------- */

/* Results a child sends its parent through a pipe. */
struct st_report {
	int open_ok, put_rc, get_rc, panicked;
	long long nbegins;    /* transactions begun since the environment's regions were made */
};

static long long st_nbegins(struct store *s)
{
	DB_TXN_STAT *st = NULL;
	long long n;

	if (BDB(s)->env->txn_stat(BDB(s)->env, &st, 0) != 0)
		return -1;
	n = (long long)st->st_nbegins;
	free(st);
	return n;
}

/* Opens the store, begins a transaction, writes the record of tid (its
 * write lock held), tells the parent, and waits to be killed. */
static void st_victim(const struct conf *c, const uint8_t tid[STORE_TID], int ready)
{
	char err[512];
	struct store *s = store_open(c, err, sizeof err);
	DB_TXN *txn = NULL;
	json_t *rec = json_pack("{s:s, s:I, s:s}", "status", "running", "updated", (json_int_t)ST_T0,
				"by", "victim");
	struct store_txn t = { s, NULL };

	if (s == NULL || BDB(s)->env->txn_begin(BDB(s)->env, NULL, &txn, 0) != 0 ||
	    (t.h = txn, store_thread_put(s, &t, tid, rec)) != 0)
		_exit(3);
	if (write(ready, "x", 1) != 1)
		_exit(4);
	for (;;)
		pause();
}

/* A process started after the death: opens, writes the record of tid,
 * reads the record of seen, and reports. */
static void st_newcomer(const struct conf *c, const uint8_t tid[STORE_TID],
			const uint8_t seen[STORE_TID], int out)
{
	struct st_report r = { 0 };
	char err[512];
	struct store *s = store_open(c, err, sizeof err);
	json_t *rec = NULL;

	if (s) {
		r.open_ok = 1;
		r.nbegins = st_nbegins(s);
		r.put_rc = st_put_thread(s, tid, "running", ST_T0);
		r.get_rc = store_thread_get(s, NULL, seen, &rec, 0);
		r.panicked = s->panicked;
		json_decref(rec);
		store_close(s);
	}
	_exit(write(out, &r, sizeof r) == (ssize_t)sizeof r ? 0 : 5);
}

static pid_t st_fork(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	return pid;
}

static void st_report_read(int fd, pid_t pid, struct st_report *r)
{
	memset(r, 0, sizeof *r);
	if (read(fd, r, sizeof *r) != (ssize_t)sizeof *r)
		memset(r, 0, sizeof *r);
	waitpid(pid, NULL, 0);
}

/* A process killed while it holds a transaction and a write lock: the
 * next process to open cleans up after it with failchk, without
 * recovery, and the processes already running never see a panic. */
static void t_dead_peer(void)
{
	uint8_t mine[STORE_TID], locked[STORE_TID], late[STORE_TID];
	int ready[2], rep[2];
	struct st_report r;
	long long before, t0;
	pid_t victim, newcomer;
	char ch;
	struct fx f;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	st_tid(mine, 1);
	st_tid(locked, 2);
	st_tid(late, 3);
	is_int(st_put_thread(f.s, mine, "paused", ST_T0), 0, "dead peer: the survivor writes before");
	if (pipe(ready) < 0 || pipe(rep) < 0)
		tap_bail("pipe: %s", strerror(errno));
	if ((victim = st_fork()) == 0)
		st_victim(&f.conf, locked, ready[1]);
	if (read(ready[0], &ch, 1) != 1)
		tap_bail("the victim did not start");
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
	before = st_nbegins(f.s);
	if ((newcomer = st_fork()) == 0)
		st_newcomer(&f.conf, late, mine, rep[1]);
	st_report_read(rep[0], newcomer, &r);
	ok(r.open_ok, "dead peer: a process started after the kill opens the store");
	ok(r.nbegins >= before && before > 0,
	   "dead peer: it opened without recovery (the regions kept: %lld transactions begun, "
	   "%lld before)", r.nbegins, before);
	is_int(r.put_rc, 0, "dead peer: the new process writes");
	is_int(r.get_rc, 0, "dead peer: and reads the survivor's record");
	t0 = st_now_us();
	is_int(st_put_thread(f.s, locked, "done", ST_T0), 0,
	       "dead peer: the survivor writes the record the dead process had locked (%.0f ms)",
	       (st_now_us() - t0) / 1000.0);
	is_str(st_status(f.s, locked), "done", "dead peer: the dead process's write was rolled back");
	is_str(st_status(f.s, late), "running", "dead peer: the survivor reads the new process's record");
	ok(f.s->panicked == 0 && st_nbegins(f.s) > r.nbegins,
	   "dead peer: the survivor never saw a panic (its regions are the same, never recovered)");
	close(ready[0]);
	close(ready[1]);
	close(rep[0]);
	close(rep[1]);
	fx_done(&f);
}

/* Another process panics the environment: the survivor reopens it and
 * goes on, its first use a read, then a write; what was committed
 * before stays. */
static void t_panic_reopen(void)
{
	uint8_t before[STORE_TID], after[STORE_TID];
	struct st_report r;
	int rep[2];
	pid_t pid;
	struct fx f;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	st_tid(before, 1);
	st_tid(after, 2);
	is_int(st_put_thread(f.s, before, "paused", ST_T0), 0, "panic: a record committed before");
	if ((pid = st_fork()) == 0) {
		char err[512];
		struct store *s = store_open(&f.conf, err, sizeof err);

		_exit(s && BDB(s)->env->set_flags(BDB(s)->env, DB_PANIC_ENVIRONMENT, 1) == 0 ? 0 : 3);
	}
	waitpid(pid, NULL, 0);
	is_str(st_status(f.s, before), "paused", "panic: the survivor's next read reopens and finds the record");
	is_int(st_put_thread(f.s, after, "running", ST_T0), 0, "panic: and its next write commits");
	is_int(f.s->panicked, 0, "panic: the survivor's store is usable again");
	if (pipe(rep) < 0)
		tap_bail("pipe: %s", strerror(errno));
	if ((pid = st_fork()) == 0)
		st_newcomer(&f.conf, before, after, rep[1]);
	st_report_read(rep[0], pid, &r);
	ok(r.open_ok && r.put_rc == 0 && r.get_rc == 0 && !r.panicked,
	   "panic: a process started afterwards opens, writes and reads the survivor's write");
	is_int(st_put_thread(f.s, after, "done", ST_T0), 0, "panic: and the survivor still writes");
	close(rep[0]);
	close(rep[1]);
	fx_done(&f);
}

/* --- the log directory over many commits ---------------------------------------- */

struct st_bump {
	uint8_t tid[STORE_TID];
	long long updated;
};

/* What a step's commit does to the thread record: read for update, change, write. */
static int st_bump_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct st_bump *b = p;
	json_t *rec = NULL;
	int rc = store_thread_get(s, txn, b->tid, &rec, STORE_RMW);

	if (rc == STORE_NOTFOUND) {
		rec = json_pack("{s:s, s:i}", "status", "running", "seq", 0);
		rc = 0;
	}
	if (rc == 0) {
		json_object_set_new(rec, "updated", json_integer(b->updated));
		json_object_set_new(rec, "seq", json_integer(json_integer_value(json_object_get(rec, "seq")) + 1));
		rc = store_thread_put(s, txn, b->tid, rec);
	}
	json_decref(rec);
	return rc;
}

static long long st_log_bytes(const char *dir, int *files)
{
	char pattern[128];
	long long total = 0;
	struct stat st;
	glob_t g;

	snprintf(pattern, sizeof pattern, "%s/log.*", dir);
	*files = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (stat(g.gl_pathv[i], &st) == 0) {
			total += st.st_size;
			(*files)++;
		}
	globfree(&g);
	return total;
}

struct st_log_run {
	long commits, failed;
	long long max_bytes;
	int max_files;
	double secs;
};

/* commits thread-record updates over 1000 threads, per_request of them per
 * request, with store_maintain after each request as the worker does (none
 * for per_request 0). The log directory is sampled every 1000 commits. */
static void st_log_run(struct fx *f, long commits, long per_request, long long base, struct st_log_run *r)
{
	long long t0 = st_now_us(), bytes;
	struct st_bump b;
	int files;

	memset(r, 0, sizeof *r);
	r->commits = commits;
	for (long i = 0; i < commits; i++) {
		st_tid(b.tid, (unsigned)(i % 1000));
		b.updated = base + i;
		r->failed += store_txn(f->s, st_bump_fn, &b) != 0;
		if (per_request && i % per_request == per_request - 1)
			store_maintain(f->s);
		if (i % 1000 == 999) {
			bytes = st_log_bytes(f->ts.dir, &files);
			r->max_bytes = bytes > r->max_bytes ? bytes : r->max_bytes;
			r->max_files = files > r->max_files ? files : r->max_files;
		}
	}
	r->secs = (st_now_us() - t0) / 1e6;
}

/* The log's bytes once the checkpoint thread has caught up: store_maintain
 * (which wakes it) every 100 ms until the log is under limit, for up to
 * 5 s. */
static long long st_log_settle(struct fx *f, long long limit, int *files)
{
	long long bytes = st_log_bytes(f->ts.dir, files);

	for (int i = 0; i < 50 && bytes >= limit; i++) {
		BDB(f->s)->commits += 64;   /* as if a request had committed: a wake-up */
		store_maintain(f->s);
		usleep(100000);
		bytes = st_log_bytes(f->ts.dir, files);
	}
	return bytes;
}

static void t_log_bound(void)
{
	enum { PER_REQUEST = 10, LONG_REQUEST = 20000 };
	struct st_log_run r;
	long long bytes;
	json_t *rec = NULL;
	uint8_t tid[STORE_TID];
	struct fx f;
	int files;

	fx_init(&f, 60, 3600, 20);
	fx_open(&f);
	st_log_run(&f, ST_COMMITS, PER_REQUEST, ST_T0, &r);
	bytes = st_log_settle(&f, ST_LOG_LIMIT, &files);
	printf("# %ld commits (%d per request, store_maintain after each) in %.2f s: %.0f commits/s\n",
	       r.commits, PER_REQUEST, r.secs, r.commits / r.secs);
	printf("# log directory after the run: %d log files, %lld bytes (largest seen: %d files, %lld bytes)\n",
	       files, bytes, r.max_files, r.max_bytes);
	is_int(r.failed, 0, "%ld commits: none failed", r.commits);
	ok(r.max_bytes < ST_LOG_RUN_LIMIT, "%ld commits: the log files stay under 64 MiB while they "
	   "run (%lld bytes at most)", r.commits, r.max_bytes);
	ok(bytes < ST_LOG_LIMIT, "%ld commits: then the checkpoint thread brings them under 8 MiB "
	   "(%lld bytes)", r.commits, bytes);
	st_tid(tid, 999);
	ok(store_thread_get(f.s, NULL, tid, &rec, 0) == 0 &&
	   json_integer_value(json_object_get(rec, "seq")) == ST_COMMITS / 1000,
	   "%ld commits: each thread saw its %d updates", r.commits, ST_COMMITS / 1000);
	json_decref(rec);
	is_int(st_count(f.s, STORE_T_EXPIRY, NULL, 0), 1000, "%ld commits: one expiry entry per thread", r.commits);

	/* One long request (no store_maintain): the checkpoint thread, not
	 * woken, still looks every half second. */
	st_log_run(&f, LONG_REQUEST, 0, ST_T0 + ST_COMMITS, &r);
	printf("# %ld commits in one request (no store_maintain) in %.2f s: %.0f commits/s, "
	       "log up to %d files, %lld bytes\n", r.commits, r.secs, r.commits / r.secs, r.max_files,
	       r.max_bytes);
	store_maintain(f.s);
	bytes = st_log_settle(&f, ST_LOG_LIMIT, &files);
	printf("# after the store_maintain that follows it: %d log files, %lld bytes\n", files, bytes);
	is_int(r.failed, 0, "%ld commits in one request: none failed", r.commits);
	ok(bytes < ST_LOG_LIMIT, "%ld commits in one request: the store_maintain after it lets the "
	   "checkpoint thread bring the log under 8 MiB (%lld bytes)", r.commits, bytes);
	fx_done(&f);
}

struct st_case {
	const char *name;
	void (*run)(void);
};

/* Writes text as dir's version file (NULL: removes it). */
static void st_version_file(const char *dir, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, STORE_VERSION_FILE);
	if (text == NULL) {
		unlink(path);
		return;
	}
	f = fopen(path, "w");
	if (f == NULL)
		tap_bail("%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

static char *st_read_file(const char *dir, const char *name)
{
	static char buf[64];
	char path[256];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The version file as found by a worker: what it reads, how it judges it,
 * whether it opens the store, and what the file says after. */
static void t_version(void)
{
	static const struct {
		const char *file;      /* NULL: none (a store from before versions) */
		int read;              /* store_version_read */
		enum store_compat compat;
		int opens;
		const char *after;     /* the file after the open */
		const char *err;       /* in the error, when it does not open */
	} cases[] = {
		{ NULL, 1, STORE_COMPAT_MARK, 1, "4\n", NULL },
		{ "1\n", 1, STORE_COMPAT_MARK, 1, "4\n", NULL },
		{ "2\n", 2, STORE_COMPAT_MARK, 1, "4\n", NULL },
		{ "3\n", 3, STORE_COMPAT_MARK, 1, "4\n", NULL },
		{ "4\n", 4, STORE_COMPAT_SAME, 1, "4\n", NULL },
		{ "4", 4, STORE_COMPAT_SAME, 1, "4", NULL },
		{ "5\n", 5, STORE_COMPAT_NEWER, 0, "5\n", "version 5, newer than this AiVista knows (4)" },
		{ "40\n", 40, STORE_COMPAT_NEWER, 0, "40\n", "upgrade the workers" },
		{ "0\n", -1, STORE_COMPAT_BAD, 0, "0\n", "does not hold a store version" },
		{ "", -1, STORE_COMPAT_BAD, 0, "", "does not hold a store version" },
		{ "2x\n", -1, STORE_COMPAT_BAD, 0, "2x\n", "does not hold a store version" },
		{ "-2\n", -1, STORE_COMPAT_BAD, 0, "-2\n", "does not hold a store version" },
		{ "2\n\n", -1, STORE_COMPAT_BAD, 0, "2\n\n", "does not hold a store version" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *name = cases[i].file ? cases[i].file : "(no file)";
		char err[512] = "", *after;
		struct fx f;

		fx_init(&f, 1800, 604800, 20);
		st_version_file(f.ts.dir, cases[i].file);
		is_int(store_version_read(f.ts.dir, err, sizeof err), cases[i].read,
		       "version file %s: read as %d", name, cases[i].read);
		is_int(store_version_compat(store_version_read(f.ts.dir, err, sizeof err)),
		       cases[i].compat, "version file %s: judged %d", name, cases[i].compat);
		err[0] = '\0';
		f.s = store_open(&f.conf, err, sizeof err);
		is_int(f.s != NULL, cases[i].opens, "version file %s: the store %s", name,
		       cases[i].opens ? "opens" : "is refused");
		if (cases[i].err)
			ok(strstr(err, cases[i].err) != NULL, "version file %s: the error says \"%s\" (%s)",
			   name, cases[i].err, err);
		if (!cases[i].opens)
			ok(st_read_file(f.ts.dir, "__db.001") == NULL && st_read_file(f.ts.dir,
										     "threads.db") == NULL,
			   "version file %s: the refused store's environment is not touched", name);
		after = st_read_file(f.ts.dir, STORE_VERSION_FILE);
		is_str(after ? after : "(none)", cases[i].after, "version file %s: after the open",
		       name);
		fx_done(&f);
	}
}

/* A store written before versions were recorded (a thread, no version
 * file) is read by this version as it is, and marked. */
static void t_version_old_store(void)
{
	uint8_t tid[STORE_TID];
	struct store_stats st;
	char err[512];
	struct fx f;

	fx_init(&f, 1800, 604800, 20);
	fx_open(&f);
	st_tid(tid, 7);
	is_int(st_put_thread(f.s, tid, "paused", ST_T0), 0, "old store: a thread written");
	store_close(f.s);
	f.s = NULL;
	st_version_file(f.ts.dir, NULL);
	fx_open(&f);
	is_int(f.s->version_found, 1, "old store: found without a version (1)");
	is_str(st_status(f.s, tid), "paused", "old store: its thread is read as it is");
	is_str(st_read_file(f.ts.dir, STORE_VERSION_FILE), "4\n", "old store: marked version 4");
	is_int(store_stats(f.s, &st, err, sizeof err), 0, "old store: stats");
	is_int(st.version, STORE_VERSION, "old store: stats show version %d", STORE_VERSION);
	store_close(f.s);
	f.s = NULL;
	fx_open(&f);
	is_int(f.s->version_found, STORE_VERSION, "old store: the next open finds version %d", STORE_VERSION);
	fx_done(&f);
}

/* [store] umask: the modes of what the store creates. */
static void t_umask(void)
{
	static const struct { const char *umask; int file, dir; } cases[] = {
		{ "0077", 0600, 0700 },
		{ "0007", 0660, 0770 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char sub[128], path[256];
		struct stat st;
		struct fx f;
		mode_t old = umask(022);

		fx_init(&f, 1800, 604800, 20);
		teststore_set(&f.conf.store_umask, cases[i].umask);
		snprintf(sub, sizeof sub, "%s/store", f.ts.dir);
		teststore_set(&f.conf.store_dir, sub);
		fx_open(&f);
		is_int(stat(sub, &st) == 0 ? (int)(st.st_mode & 0777) : -1, cases[i].dir,
		       "umask %s: the store directory is %04o", cases[i].umask, cases[i].dir);
		for (const char *const *n = (const char *const[]){ "threads.db", "__db.001",
								     "log.0000000001",
								     STORE_VERSION_FILE, NULL }; *n; n++) {
			snprintf(path, sizeof path, "%s/%s", sub, *n);
			is_int(stat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1, cases[i].file,
			       "umask %s: %s is %04o", cases[i].umask, *n, cases[i].file);
		}
		fx_done(&f);
		umask(old);
	}
}

static const struct st_case st_cases[] = {
	{ "version", t_version },
	{ "version old store", t_version_old_store },
	{ "umask", t_umask },
	{ "open", t_open },
	{ "threads", t_threads },
	{ "prune", t_prune },
	{ "prune max", t_prune_max },
	{ "checkpoint windows", t_ckpt_windows },
	{ "checkpoint history", t_ckpt_history },
	{ "checkpoint bytes", t_ckpt_bytes },
	{ "events", t_events },
	{ "assets", t_assets },
	{ "transactions", t_txn },
	{ "request budget", t_request_budget },
	{ "many openers", t_many_openers },
	{ "dead peer", t_dead_peer },
	{ "panic", t_panic_reopen },
	{ "log bound", t_log_bound },
};

static const struct st_case st_old_cases[] = {
	{ "version old store", t_version_old_store },
	{ "threads", t_threads },
	{ "prune", t_prune },
	{ "checkpoint windows", t_ckpt_windows },
	{ "checkpoint history", t_ckpt_history },
	{ "events", t_events },
	{ "assets", t_assets },
};

int main(int argc, char **argv)
{
	if (sodium_init() < 0)
		tap_bail("sodium_init");
	for (size_t i = 0; i < sizeof st_cases / sizeof st_cases[0]; i++) {
		long long t0 = st_now_us();

		/* A name on the command line runs that case alone. */
		if (argc > 1 && strcmp(argv[1], st_cases[i].name) != 0)
			continue;
		st_cases[i].run();
		printf("# %s: %.2f s\n", st_cases[i].name, (st_now_us() - t0) / 1e6);
	}
	/* The records' cases again on a store of the old layout. */
	st_old_layout = 1;
	for (size_t i = 0; i < sizeof st_old_cases / sizeof st_old_cases[0]; i++) {
		if (argc > 1 && strcmp(argv[1], st_old_cases[i].name) != 0)
			continue;
		printf("# %s, on a store of the old layout (a B-tree per table)\n",
		       st_old_cases[i].name);
		st_old_cases[i].run();
	}
	return tap_done();
}
