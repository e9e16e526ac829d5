/* The Berkeley DB backend's tables, read and written inside the caller's
 * transaction. With one B-tree for a thread's records (bdb.h), a key of a
 * thread-keyed table is stored as the thread ID, the table's tag, then the
 * rest of the key; callers see their own keys. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "store/bdb.h"
#include "util/xmalloc.h"

/* Keys are short (a thread, a number, a hash): a buffer of this size holds
 * any of them, with its tag. */
#define BDB_KEY_MAX 256

/* Where one table's keys live. */
struct bdb_at {
	DB *db;
	int tag;          /* -1: the table's keys as they are */
};

static struct bdb_at bdb_table(struct store_txn *t, int table)
{
	static const int tags[STORE_NTABLES] = {
		[STORE_T_THREADS] = BDB_TAG_THREAD, [STORE_T_CKPTS] = BDB_TAG_CKPT,
		[STORE_T_EVENTS] = BDB_TAG_EVENT, [STORE_T_ASSETS] = BDB_TAG_ASSET,
		[STORE_T_EXPIRY] = -1, [STORE_T_CACHE] = -1,
	};
	struct bdb *b = BDB(t->s);
	struct bdb_at at = { b->db[table], -1 };

	if (b->one_tree && tags[table] >= 0)
		at = (struct bdb_at){ b->db[STORE_T_THREADS], tags[table] };
	return at;
}

/* k as stored (out holds BDB_KEY_MAX bytes): its length, or 0 when it is
 * empty (k may then be NULL) or does not fit. A key shorter than a thread ID gets no tag: a scan's start
 * (bdb_dbt refuses it as a record's key). */
static size_t bdb_key_in(const struct bdb_at *at, uint8_t *out, const void *k, size_t klen)
{
	if (klen == 0 || klen + 1 > BDB_KEY_MAX)
		return 0;
	if (at->tag < 0 || klen < STORE_TID) {
		memcpy(out, k, klen);
		return klen;
	}
	memcpy(out, k, STORE_TID);
	out[STORE_TID] = (uint8_t)at->tag;
	memcpy(out + STORE_TID + 1, (const uint8_t *)k + STORE_TID, klen - STORE_TID);
	return klen + 1;
}

/* A stored key as its table's (in place): its length, or 0 when it belongs
 * to another table of the same B-tree. */
static size_t bdb_key_out(const struct bdb_at *at, uint8_t *k, size_t klen)
{
	if (at->tag < 0)
		return klen;
	if (klen <= STORE_TID || k[STORE_TID] != at->tag)
		return 0;
	memmove(k + STORE_TID, k + STORE_TID + 1, klen - STORE_TID - 1);
	return klen - 1;
}

/* A DBT for k as stored, in buf. */
static int bdb_dbt(const struct bdb_at *at, DBT *key, uint8_t *buf, const void *k, size_t klen)
{
	size_t n = bdb_key_in(at, buf, k, klen);

	if ((n == 0 && klen > 0) || (at->tag >= 0 && klen < STORE_TID))
		return EINVAL;
	memset(key, 0, sizeof *key);
	key->data = buf;
	key->size = (u_int32_t)n;
	return 0;
}

int bdb_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
	    unsigned flags)
{
	struct bdb_at at = bdb_table(t, table);
	uint8_t buf[BDB_KEY_MAX];
	DBT key, val = { 0 };
	u_int32_t f = 0;
	int rc;

	*v = NULL;
	*vlen = 0;
	if ((rc = bdb_dbt(&at, &key, buf, k, klen)) != 0)
		return rc;
	if (flags & STORE_RMW)
		f |= DB_RMW;
	if (flags & STORE_READ_COMMITTED)
		f |= DB_READ_COMMITTED;
	val.flags = DB_DBT_MALLOC;
	rc = at.db->get(at.db, BDB_TXN(t), &key, &val, f);
	if (rc == 0) {
		*v = val.data ? val.data : xmalloc(1);
		*vlen = val.size;
	}
	return bdb_rc(rc, "reading");
}

int bdb_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v, size_t vlen,
	    unsigned flags)
{
	struct bdb_at at = bdb_table(t, table);
	uint8_t buf[BDB_KEY_MAX];
	DBT key, val = { 0 };
	int rc = bdb_dbt(&at, &key, buf, k, klen);

	if (rc)
		return rc;
	val.data = (void *)v;
	val.size = (u_int32_t)vlen;
	return bdb_rc(at.db->put(at.db, BDB_TXN(t), &key, &val,
				 flags & STORE_KV_NEW ? DB_NOOVERWRITE : 0),
		      "writing");
}

int bdb_del(struct store_txn *t, int table, const void *k, size_t klen)
{
	struct bdb_at at = bdb_table(t, table);
	uint8_t buf[BDB_KEY_MAX];
	DBT key;
	int rc = bdb_dbt(&at, &key, buf, k, klen);

	if (rc)
		return rc;
	return bdb_rc(at.db->del(at.db, BDB_TXN(t), &key, 0), "deleting");
}

/* A cursor walk from `from` (or the first key) over the keys that share
 * its first plen bytes, all as stored: calls fn for each of the table's
 * while it answers 0, or (del_below) deletes each key below hi. */
static int bdb_walk(struct store_txn *t, const struct bdb_at *at, const uint8_t *from, size_t flen,
		    size_t plen, long max, unsigned flags, int del_below, const uint8_t *hi,
		    size_t hilen, store_scan_fn fn, void *ctx)
{
	uint8_t key[BDB_KEY_MAX];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	long n = 0;
	int rc, stop = 0, ferr = 0;

	rc = at->db->cursor(at->db, BDB_TXN(t), &c, 0);
	if (rc)
		return bdb_rc(rc, "opening a cursor");
	if (flen)
		memcpy(key, from, flen);
	k.data = key;
	k.size = (u_int32_t)flen;
	k.ulen = sizeof key;
	k.flags = DB_DBT_USERMEM;
	if (flags & STORE_KV_KEYS)
		v.flags = DB_DBT_PARTIAL; /* keys only */
	else
		v.flags = DB_DBT_MALLOC;
	rc = c->get(c, &k, &v, (flen ? DB_SET_RANGE : DB_FIRST) | (flags & STORE_RMW ? DB_RMW : 0));
	while (rc == 0 && !stop && (max <= 0 || n < max) && k.size >= plen &&
	       (plen == 0 || memcmp(key, from, plen) == 0)) {
		if (del_below) {
			if (hi) {
				size_t m = k.size < hilen ? k.size : hilen;
				int cmp = memcmp(key, hi, m);

				if (cmp > 0 || (cmp == 0 && k.size >= hilen))
					break;
			}
			if (at->tag < 0 || (k.size > STORE_TID && key[STORE_TID] == at->tag))
				rc = c->del(c, 0);
		} else {
			size_t klen = bdb_key_out(at, key, k.size);
			int got = klen ? fn(key, klen, v.data, v.size, ctx) : 0;

			if (got != 0)
				stop = 1;
			if (got != 0 && got != 1)
				ferr = got;
			n += klen > 0;
		}
		if (!(flags & STORE_KV_KEYS)) {
			free(v.data);
			v.data = NULL;
		}
		if (rc == 0 && !stop)
			rc = c->get(c, &k, &v, DB_NEXT);
	}
	if (!(flags & STORE_KV_KEYS))
		free(v.data);
	c->close(c);
	if (ferr)
		return ferr;
	return rc == DB_NOTFOUND ? 0 : bdb_rc(rc, "walking a table");
}

int bdb_scan(struct store_txn *t, int table, const void *from, size_t flen, size_t plen, long max,
	     unsigned flags, store_scan_fn fn, void *ctx)
{
	struct bdb_at at = bdb_table(t, table);
	uint8_t f[BDB_KEY_MAX];
	size_t fl = bdb_key_in(&at, f, from, flen);

	if (fl == 0 && flen > 0)
		return EINVAL;
	if (at.tag >= 0 && plen >= STORE_TID)
		plen++;
	return bdb_walk(t, &at, f, fl, plen, max, flags, 0, NULL, 0, fn, ctx);
}

/* With one B-tree, a range never spans threads (no caller's does): a hi
 * in a later thread, or none, ends the range at the last of lo's thread's
 * keys of this table. */
int bdb_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		  size_t hilen)
{
	struct bdb_at at = bdb_table(t, table);
	uint8_t l[BDB_KEY_MAX], h[BDB_KEY_MAX];
	const uint8_t *hp = NULL;
	size_t ll = bdb_key_in(&at, l, lo, lolen), hl = 0;

	if (ll == 0 && lolen > 0)
		return EINVAL;
	if (at.tag >= 0 && lolen >= STORE_TID &&
	    (hi == NULL || hilen < STORE_TID || memcmp(hi, lo, STORE_TID) != 0)) {
		if (hi && memcmp(hi, lo, hilen < STORE_TID ? hilen : STORE_TID) <= 0)
			return 0; /* hi is below lo: nothing to delete */
		memcpy(h, lo, STORE_TID);
		h[STORE_TID] = (uint8_t)(at.tag + 1);
		hl = STORE_TID + 1;
		hp = h;
	} else if (hi) {
		if ((hl = bdb_key_in(&at, h, hi, hilen)) == 0 && hilen > 0)
			return EINVAL;
		hp = h;
	}
	return bdb_walk(t, &at, l, ll, 0, 0, STORE_KV_KEYS, 1, hp, hl, NULL, NULL);
}
