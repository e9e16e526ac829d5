/* The Berkeley DB backend's tables: one B-tree per table, read and written
 * inside the caller's transaction. */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "store/bdb.h"
#include "util/xmalloc.h"

static DB *bdb_table(struct store_txn *t, int table)
{
	return BDB(t->s)->db[table];
}

int bdb_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
	    unsigned flags)
{
	DB *db = bdb_table(t, table);
	DBT key = { 0 }, val = { 0 };
	u_int32_t f = 0;
	int rc;

	if (flags & STORE_RMW)
		f |= DB_RMW;
	if (flags & STORE_READ_COMMITTED)
		f |= DB_READ_COMMITTED;
	key.data = (void *)k;
	key.size = (u_int32_t)klen;
	val.flags = DB_DBT_MALLOC;
	*v = NULL;
	*vlen = 0;
	rc = db->get(db, BDB_TXN(t), &key, &val, f);
	if (rc == 0) {
		*v = val.data ? val.data : xmalloc(1);
		*vlen = val.size;
	}
	return bdb_rc(rc, "reading");
}

int bdb_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v, size_t vlen,
	    unsigned flags)
{
	DB *db = bdb_table(t, table);
	DBT key = { 0 }, val = { 0 };

	key.data = (void *)k;
	key.size = (u_int32_t)klen;
	val.data = (void *)v;
	val.size = (u_int32_t)vlen;
	return bdb_rc(db->put(db, BDB_TXN(t), &key, &val, flags & STORE_KV_NEW ? DB_NOOVERWRITE : 0),
		      "writing");
}

int bdb_del(struct store_txn *t, int table, const void *k, size_t klen)
{
	DB *db = bdb_table(t, table);
	DBT key = { 0 };

	key.data = (void *)k;
	key.size = (u_int32_t)klen;
	return bdb_rc(db->del(db, BDB_TXN(t), &key, 0), "deleting");
}

/* Keys are short (a thread, a number, a hash): a buffer of this size holds
 * any of them. */
#define BDB_KEY_MAX 256

/* A cursor walk from `from` (or the first key) over the keys that share
 * its first plen bytes: calls fn for each while it answers 0, or (del_below)
 * deletes each key below hi. */
static int bdb_walk(struct store_txn *t, int table, const void *from, size_t flen, size_t plen,
		    long max, unsigned flags, int del_below, const void *hi, size_t hilen,
		    store_scan_fn fn, void *ctx)
{
	DB *db = bdb_table(t, table);
	uint8_t key[BDB_KEY_MAX];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	long n = 0;
	int rc, stop = 0, ferr = 0;

	if (flen > sizeof key)
		return EINVAL;
	rc = db->cursor(db, BDB_TXN(t), &c, 0);
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
			rc = c->del(c, 0);
		} else {
			int got = fn(key, k.size, v.data, v.size, ctx);

			if (got != 0)
				stop = 1;
			if (got != 0 && got != 1)
				ferr = got;
		}
		if (!(flags & STORE_KV_KEYS)) {
			free(v.data);
			v.data = NULL;
		}
		n++;
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
	return bdb_walk(t, table, from, flen, plen, max, flags, 0, NULL, 0, fn, ctx);
}

int bdb_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		  size_t hilen)
{
	return bdb_walk(t, table, lo, lolen, 0, 0, STORE_KV_KEYS, 1, hi, hilen, NULL, NULL);
}
