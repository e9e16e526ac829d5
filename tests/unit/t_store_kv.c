/* The store's records through the backend interface alone, once per
 * backend: Berkeley DB in a fresh directory under /tmp, then PostgreSQL in
 * a fresh database on the server AIVISTA_TEST_PGDSN names (created and
 * dropped here; without AIVISTA_TEST_PGDSN, or in a build without libpq,
 * that run is skipped and says why). Each case is one table: key-value
 * puts, gets, deletes and scans in byte order, thread records and their
 * expiry index, checkpoints, the event log, assets, caches, pruning and
 * the transaction helper's rollback and retry. Nothing here names a
 * backend's own types. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "teststore.h"
#include "conf/conf.h"
#include "store/backend.h"
#include "util/xmalloc.h"

#define KV_T0 1000000000000LL   /* an arbitrary wall time (ms) */
/* Keys of the thread-keyed tables start with a thread ID. */
#define KV_K1 "k1-a-thread-id.."
#define KV_KTXN "txn-a-thread-id."

struct kv_fx {
	const char *backend;
	struct teststore ts;
	struct conf conf;
	struct store *s;
};

static void kv_tid(uint8_t tid[STORE_TID], unsigned n)
{
	memset(tid, 0x5a, STORE_TID);
	tid[14] = (uint8_t)(n >> 8);
	tid[15] = (uint8_t)n;
}

/* --- the fixtures: one store per backend ----------------------------------- */

/* Sets f up for backend; 0, or -1 with why (the run is skipped). */
static int kv_fx_init(struct kv_fx *f, const char *backend, char *why, size_t whylen)
{
	memset(f, 0, sizeof *f);
	f->backend = backend;
	teststore_dir(&f->ts, &f->conf, "t_store_kv");
	teststore_set(&f->conf.store_backend, backend);
	f->conf.thread_ttl = 60;
	f->conf.done_ttl = 30 * 24 * 3600;
	f->conf.history = 20;
	if (strcmp(backend, "postgresql") != 0)
		return 0;
	return teststore_pg_new(&f->ts, &f->conf, "t_store_kv", why, whylen);
}

static void kv_fx_done(struct kv_fx *f)
{
	teststore_free(&f->ts, &f->conf, f->s);
	f->s = NULL;
}

/* --- key-value tables ------------------------------------------------------- */

struct kv_collect {
	char out[512];
};

/* Appends each key's last byte (hex) and value length. */
static int kv_collect_fn(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	struct kv_collect *c = ctx;
	size_t n = strlen(c->out);

	snprintf(c->out + n, sizeof c->out - n, "%s%02x:%zu", n ? " " : "", k[klen - 1], vlen);
	return 0;
}

/* Keys: a 3-byte prefix then one byte; the prefix 01 02 03 has 00, 7f, 80
 * and ff (byte order, not signed chars); its neighbours one each. */
static const uint8_t kv_keys[][4] = {
	{ 1, 2, 2, 0xff }, { 1, 2, 3, 0x00 }, { 1, 2, 3, 0x7f }, { 1, 2, 3, 0x80 },
	{ 1, 2, 3, 0xff }, { 1, 2, 4, 0x00 },
};

enum kv_op { KV_SCAN, KV_SCAN_KEYS, KV_DEL_RANGE, KV_DEL_PREFIX };

static const struct kv_scan_case {
	const char *name;
	enum kv_op op;
	uint8_t from[4];
	size_t flen, plen;
	uint8_t hi[4];   /* del_range: the upper end (hilen 4), none when all zero */
	long max;
	const char *want;  /* the prefix 01 02 03 scanned afterwards (for deletes) or now */
} kv_scan_cases[] = {
	{ "prefix scan in byte order", KV_SCAN, { 1, 2, 3 }, 3, 3, { 0 }, 0, "00:1 7f:2 80:3 ff:4" },
	{ "scan from a key inside the prefix", KV_SCAN, { 1, 2, 3, 0x7f }, 4, 3, { 0 }, 0, "7f:2 80:3 ff:4" },
	{ "scan with a max", KV_SCAN, { 1, 2, 3 }, 3, 3, { 0 }, 2, "00:1 7f:2" },
	{ "scan without prefix runs on", KV_SCAN, { 1, 2, 3, 0x80 }, 4, 0, { 0 }, 0, "80:3 ff:4 00:5" },
	{ "scan of keys only", KV_SCAN_KEYS, { 1, 2, 3 }, 3, 3, { 0 }, 0, "00:0 7f:0 80:0 ff:0" },
	{ "del_range lo <= k < hi", KV_DEL_RANGE, { 1, 2, 3, 0x7f }, 4, 0, { 1, 2, 3, 0xff }, 0, "00:1 ff:4" },
	{ "del_range without an upper end", KV_DEL_RANGE, { 1, 2, 3, 0x80 }, 4, 0, { 0 }, 0, "00:1 7f:2" },
	{ "del_prefix", KV_DEL_PREFIX, { 1, 2, 3 }, 3, 0, { 0 }, 0, "" },
};

struct kv_scan_ctx {
	const struct kv_scan_case *sc;
	struct kv_collect col;
};

static int kv_fill_fn(struct store *s, struct store_txn *t, void *p)
{
	static const char vals[] = "1234567890";
	int rc;

	(void)p;
	store_kv_del_range(t, STORE_T_CACHE, "", 0, NULL, 0);
	for (size_t i = 0; i < sizeof kv_keys / sizeof kv_keys[0]; i++) {
		/* The prefix's keys get values of 1..4 bytes, the others 5. */
		size_t len = kv_keys[i][2] == 3 ? (size_t)(kv_keys[i][3] == 0 ? 1 :
			     kv_keys[i][3] == 0x7f ? 2 : kv_keys[i][3] == 0x80 ? 3 : 4) : 5;

		if ((rc = store_kv_put(t, STORE_T_CACHE, kv_keys[i], 4, vals, len, 0)) != 0)
			return rc;
	}
	return 0;
}

static int kv_scan_fn(struct store *s, struct store_txn *t, void *p)
{
	struct kv_scan_ctx *c = p;
	const struct kv_scan_case *sc = c->sc;
	static const uint8_t zero[4];
	int rc = 0;

	c->col.out[0] = '\0';
	switch (sc->op) {
	case KV_SCAN:
	case KV_SCAN_KEYS:
		return store_kv_scan(t, STORE_T_CACHE, sc->from, sc->flen, sc->plen, sc->max,
				     sc->op == KV_SCAN_KEYS ? STORE_KV_KEYS : 0, kv_collect_fn, &c->col);
	case KV_DEL_RANGE:
		rc = store_kv_del_range(t, STORE_T_CACHE, sc->from, sc->flen,
					memcmp(sc->hi, zero, 4) ? sc->hi : NULL, 4);
		break;
	case KV_DEL_PREFIX:
		rc = store_kv_del_prefix(t, STORE_T_CACHE, sc->from, sc->flen);
		break;
	}
	if (rc != 0)
		return rc;
	return store_kv_scan(t, STORE_T_CACHE, kv_keys[1], 3, 3, 0, 0, kv_collect_fn, &c->col);
}

static int kv_point_fn(struct store *s, struct store_txn *t, void *p)
{
	int *step = p;
	void *v = NULL;
	size_t vlen = 0;
	int rc;

	switch (*step) {
	case 0: return store_kv_put(t, STORE_T_THREADS, KV_K1, STORE_TID, "one", 3, STORE_KV_NEW);
	case 1: return store_kv_put(t, STORE_T_THREADS, KV_K1, STORE_TID, "two", 3, STORE_KV_NEW);
	case 2: return store_kv_put(t, STORE_T_THREADS, KV_K1, STORE_TID, "three", 5, 0);
	case 3:
		rc = store_kv_get(t, STORE_T_THREADS, KV_K1, STORE_TID, &v, &vlen, STORE_RMW);
		if (rc == 0)
			rc = vlen == 5 && memcmp(v, "three", 5) == 0 ? 0 : STORE_ERROR;
		free(v);
		return rc;
	case 4: return store_kv_del(t, STORE_T_THREADS, KV_K1, STORE_TID);
	case 5: return store_kv_del(t, STORE_T_THREADS, KV_K1, STORE_TID);
	default:
		rc = store_kv_get(t, STORE_T_THREADS, KV_K1, STORE_TID, &v, &vlen, 0);
		free(v);
		return rc;
	}
}

static void kv_case_tables(struct kv_fx *f)
{
	static const int want[] = { 0, STORE_EXISTS, 0, 0, 0, STORE_NOTFOUND, STORE_NOTFOUND };
	static const char *what[] = { "put new", "put new again: exists", "put over",
				      "get for update sees it", "del", "del again: not found",
				      "get after del: not found" };

	for (int i = 0; i < 7; i++)
		is_int(store_txn(f->s, kv_point_fn, &i), want[i], "%s: kv %s", f->backend, what[i]);
	for (size_t i = 0; i < sizeof kv_scan_cases / sizeof kv_scan_cases[0]; i++) {
		struct kv_scan_ctx c = { &kv_scan_cases[i], { "" } };

		if (store_txn(f->s, kv_fill_fn, NULL) != 0)
			tap_bail("%s: cannot fill the table", f->backend);
		is_int(store_txn(f->s, kv_scan_fn, &c), 0, "%s: kv %s runs", f->backend,
		       kv_scan_cases[i].name);
		is_str(c.col.out, kv_scan_cases[i].want, "%s: kv %s", f->backend, kv_scan_cases[i].name);
	}
}

/* --- records ------------------------------------------------------------------ */

struct kv_rec {
	const uint8_t *tid;
	json_t *rec;
	long step;
	int fail;       /* transactions: fail with this after writing */
	int tries;      /* transactions: calls so far */
	int retries;    /* transactions: return STORE_RETRY this many times */
	char asset[STORE_ASSET_ID_LEN + 1];
};

static int kv_thread_fn(struct store *s, struct store_txn *t, void *p)
{
	struct kv_rec *r = p;

	return store_thread_put(s, t, r->tid, r->rec);
}

static int kv_put_thread(struct store *s, const uint8_t *tid, const char *status, long long updated)
{
	struct kv_rec r = { .tid = tid };
	int rc;

	r.rec = json_pack("{s:s, s:I, s:s}", "status", status, "updated", (json_int_t)updated,
			  "workflow", "test");
	rc = store_txn(s, kv_thread_fn, &r);
	json_decref(r.rec);
	return rc;
}

static const char *kv_status(struct store *s, const uint8_t *tid)
{
	static char buf[32];
	json_t *rec;

	if (store_thread_get(s, NULL, tid, &rec, 0) != 0)
		return "(none)";
	snprintf(buf, sizeof buf, "%s", json_string_value(json_object_get(rec, "status")));
	json_decref(rec);
	return buf;
}

/* One thread's checkpoints (step 1..n, states {"n": step}), events (1..n)
 * and an asset, all in one transaction. */
static int kv_fill_thread_fn(struct store *s, struct store_txn *t, void *p)
{
	struct kv_rec *r = p;
	json_t *prev = NULL;
	char ev[64];
	int rc = 0;

	for (long i = 1; i <= r->step && rc == 0; i++) {
		json_t *meta = json_pack("{s:I, s:s}", "parent", (json_int_t)(i - 1), "node", "n");
		json_t *state = json_pack("{s:I, s:s}", "n", (json_int_t)i, "fixed", "same every step");

		rc = store_ckpt_put(s, t, r->tid, i, meta, state, prev);
		json_decref(meta);
		json_decref(prev);
		prev = state;
		snprintf(ev, sizeof ev, "{\"seq\":%ld}", i);
		if (rc == 0)
			rc = store_event_put(s, t, r->tid, i, ev, strlen(ev));
	}
	json_decref(prev);
	if (rc == 0)
		rc = store_asset_put(s, t, r->tid, "image/png", "PNGDATA", 7, r->asset);
	return rc;
}

static void kv_case_threads(struct kv_fx *f)
{
	uint8_t a[STORE_TID], b[STORE_TID];
	struct kv_rec r = { .tid = a, .step = 12 };
	char again[STORE_ASSET_ID_LEN + 1], *ctype = NULL;
	json_t *state = NULL, *meta = NULL, *evs = NULL, *hist = NULL;
	uint8_t owner[STORE_TID];
	void *data = NULL;
	size_t len = 0;

	kv_tid(a, 1);
	kv_tid(b, 2);
	is_int(kv_put_thread(f->s, a, "running", KV_T0), 0, "%s: a thread record is written", f->backend);
	is_int(kv_put_thread(f->s, b, "done", KV_T0), 0, "%s: a second one", f->backend);
	is_str(kv_status(f->s, a), "running", "%s: the record reads back", f->backend);
	is_int(store_txn(f->s, kv_fill_thread_fn, &r), 0, "%s: 12 checkpoints, events, an asset", f->backend);

	is_int(store_ckpt_get(f->s, NULL, a, 11, &state, &meta), 0, "%s: checkpoint 11 reads", f->backend);
	is_int(json_integer_value(json_object_get(state, "n")), 11, "%s: its state (from a diff)", f->backend);
	is_int(json_integer_value(json_object_get(meta, "parent")), 10, "%s: its meta", f->backend);
	json_decref(state);
	json_decref(meta);
	is_int(store_ckpt_history(f->s, NULL, a, 12, 5, &hist), 0, "%s: history", f->backend);
	is_int(json_array_size(hist), 5, "%s: history keeps to its limit", f->backend);
	is_int(json_integer_value(json_object_get(json_object_get(json_array_get(hist, 0), "state"), "n")),
	       12, "%s: history newest first", f->backend);
	json_decref(hist);

	is_int(store_events_after(f->s, a, 4, 3, 1 << 20, &evs), 0, "%s: events after 4", f->backend);
	is_int(json_array_size(evs), 3, "%s: at most max of them", f->backend);
	is_int(json_integer_value(json_array_get(json_array_get(evs, 0), 0)), 5,
	       "%s: the first after 4 is 5", f->backend);
	json_decref(evs);
	is_int(store_events_after(f->s, b, 0, 10, 1 << 20, &evs), 0, "%s: another thread's events", f->backend);
	is_int(json_array_size(evs), 0, "%s: are its own only (none)", f->backend);
	json_decref(evs);

	r.tid = a;
	is_int(store_txn(f->s, kv_fill_thread_fn, &(struct kv_rec){ .tid = a, .step = 0 }), 0,
	       "%s: the same asset again", f->backend);
	is_int(store_asset_get(f->s, r.asset, &ctype, &data, &len), 0, "%s: the asset reads", f->backend);
	ok(ctype && strcmp(ctype, "image/png") == 0 && len == 7 && memcmp(data, "PNGDATA", 7) == 0,
	   "%s: its type and bytes", f->backend);
	free(ctype);
	free(data);
	ok(store_asset_thread(r.asset, owner) == 0 && memcmp(owner, a, STORE_TID) == 0,
	   "%s: the asset id names its thread", f->backend);
	(void)again;

	is_int(store_prune(f->s, KV_T0 + 59999, 100), 0, "%s: nothing due before the ttl", f->backend);
	is_int(store_prune(f->s, KV_T0 + 120000, 100), 1, "%s: the expired thread is pruned", f->backend);
	is_str(kv_status(f->s, a), "expired", "%s: leaving a tombstone", f->backend);
	is_int(store_events_after(f->s, a, 0, 100, 1 << 20, &evs), 0, "%s: events read", f->backend);
	is_int(json_array_size(evs), 0, "%s: its events are gone", f->backend);
	json_decref(evs);
	ok(store_asset_get(f->s, r.asset, &ctype, &data, &len) == STORE_NOTFOUND,
	   "%s: its asset is gone", f->backend);
	is_str(kv_status(f->s, b), "done", "%s: the done thread stays", f->backend);
}

static void kv_case_cache(struct kv_fx *f)
{
	json_t *v = json_pack("{s:s}", "answer", "cached"), *got = NULL;

	is_int(store_cache_put(f->s, "ns", "text", v, 60000), 0, "%s: cache put", f->backend);
	is_int(store_cache_get(f->s, "ns", "text", &got), 0, "%s: cache get", f->backend);
	ok(json_equal(v, got), "%s: the cached value", f->backend);
	json_decref(got);
	got = NULL;
	is_int(store_cache_get(f->s, "other", "text", &got), STORE_NOTFOUND,
	       "%s: another namespace misses", f->backend);
	is_int(store_cache_put(f->s, "ns", "gone", v, -1000), 0, "%s: an expired entry", f->backend);
	is_int(store_cache_get(f->s, "ns", "gone", &got), STORE_NOTFOUND, "%s: reads as absent", f->backend);
	json_decref(v);
}

static int kv_txn_fn(struct store *s, struct store_txn *t, void *p)
{
	struct kv_rec *r = p;
	int rc;

	r->tries++;
	rc = store_kv_put(t, STORE_T_THREADS, KV_KTXN, STORE_TID, "x", 1, 0);
	if (rc != 0)
		return rc;
	if (r->tries <= r->retries)
		return STORE_RETRY;
	return r->fail;
}

static int kv_read_fn(struct store *s, struct store_txn *t, void *p)
{
	void *v = NULL;
	size_t vlen;
	int rc = store_kv_get(t, STORE_T_THREADS, KV_KTXN, STORE_TID, &v, &vlen, STORE_READ_COMMITTED);

	free(v);
	(void)p;
	return rc;
}

static void kv_case_txn(struct kv_fx *f)
{
	struct kv_rec r = { .fail = EINVAL };

	is_int(store_txn(f->s, kv_txn_fn, &r), EINVAL, "%s: a failing transaction returns its error",
	       f->backend);
	is_int(store_txn(f->s, kv_read_fn, NULL), STORE_NOTFOUND, "%s: and wrote nothing", f->backend);
	r = (struct kv_rec){ .retries = 2 };
	is_int(store_txn(f->s, kv_txn_fn, &r), 0, "%s: retried after STORE_RETRY", f->backend);
	is_int(r.tries, 3, "%s: run again each time", f->backend);
	is_int(store_txn(f->s, kv_read_fn, NULL), 0, "%s: the last run committed", f->backend);
	r = (struct kv_rec){ .retries = 1000 };
	is_int(store_txn(f->s, kv_txn_fn, &r), STORE_RETRY, "%s: retries are bounded", f->backend);
	ok(r.tries > 1 && r.tries < 100, "%s: a few tries (%d)", f->backend, r.tries);
	is_str(store_backend_name(f->s), f->backend, "%s: the backend's name", f->backend);
}

static const struct kv_case {
	const char *name;
	void (*run)(struct kv_fx *f);
} kv_cases[] = {
	{ "tables", kv_case_tables },
	{ "threads", kv_case_threads },
	{ "cache", kv_case_cache },
	{ "transactions", kv_case_txn },
};

static const char *const kv_backends[] = { "bdb", "postgresql" };

int main(void)
{
	if (sodium_init() < 0)
		tap_bail("sodium_init");
	for (size_t b = 0; b < sizeof kv_backends / sizeof kv_backends[0]; b++) {
		char why[256];

		for (size_t i = 0; i < sizeof kv_cases / sizeof kv_cases[0]; i++) {
			struct kv_fx f;

			if (kv_fx_init(&f, kv_backends[b], why, sizeof why) != 0) {
				printf("ok %d - %s # SKIP %s\n", ++tap_n, kv_backends[b], why);
				kv_fx_done(&f);
				break;
			}
			f.s = teststore_open(&f.conf);
			kv_cases[i].run(&f);
			kv_fx_done(&f);
		}
	}
	return tap_done();
}
