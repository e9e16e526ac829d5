/* The PostgreSQL backend's tables: binary keys and values passed as
 * parameters, every statement inside the caller's transaction. */
#include "config.h"
#ifdef HAVE_LIBPQ
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/pg.h"
#include "util/xmalloc.h"

#define PG_SCAN_BATCH 256L

/* Runs sql with n binary parameters; binary results. */
static PGresult *pg_exec(struct store_txn *t, const char *sql, int n, const void *const *vals,
			 const size_t *lens)
{
	const char *pv[4];
	int pl[4], pf[4];

	for (int i = 0; i < n; i++) {
		pv[i] = vals[i];
		pl[i] = (int)lens[i];
		pf[i] = 1;
	}
	return PQexecParams(PG(t->s)->conn, sql, n, NULL, pv, pl, pf, 1);
}

int pg_get(struct store_txn *t, int table, const void *k, size_t klen, void **v, size_t *vlen,
	   unsigned flags)
{
	const void *vals[1] = { k };
	char sql[128];
	PGresult *res;

	*v = NULL;
	*vlen = 0;
	snprintf(sql, sizeof sql, "SELECT v FROM %s WHERE k = $1%s", pg_table(table),
		 flags & STORE_RMW ? " FOR UPDATE" : "");
	res = pg_exec(t, sql, 1, vals, &klen);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(t->s, res, "reading");
	if (PQntuples(res) == 0) {
		PQclear(res);
		return STORE_NOTFOUND;
	}
	*vlen = (size_t)PQgetlength(res, 0, 0);
	*v = xmalloc(*vlen ? *vlen : 1);
	memcpy(*v, PQgetvalue(res, 0, 0), *vlen);
	PQclear(res);
	return 0;
}

int pg_put(struct store_txn *t, int table, const void *k, size_t klen, const void *v, size_t vlen,
	   unsigned flags)
{
	const void *vals[2] = { k, v ? v : "" };
	size_t lens[2] = { klen, vlen };
	char sql[160];
	PGresult *res;
	int none;

	snprintf(sql, sizeof sql, "INSERT INTO %s (k, v) VALUES ($1, $2) ON CONFLICT (k) DO %s",
		 pg_table(table), flags & STORE_KV_NEW ? "NOTHING" : "UPDATE SET v = EXCLUDED.v");
	res = pg_exec(t, sql, 2, vals, lens);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return pg_fail(t->s, res, "writing");
	none = strcmp(PQcmdTuples(res), "0") == 0;
	PQclear(res);
	return none ? STORE_EXISTS : 0;
}

int pg_del(struct store_txn *t, int table, const void *k, size_t klen)
{
	const void *vals[1] = { k };
	char sql[96];
	PGresult *res;
	int none;

	snprintf(sql, sizeof sql, "DELETE FROM %s WHERE k = $1", pg_table(table));
	res = pg_exec(t, sql, 1, vals, &klen);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return pg_fail(t->s, res, "deleting");
	none = strcmp(PQcmdTuples(res), "0") == 0;
	PQclear(res);
	return none ? STORE_NOTFOUND : 0;
}

/* The first key past every key that starts with p (plen bytes): *hlen 0
 * when there is none. */
static void pg_upper(const uint8_t *p, size_t plen, uint8_t *hi, size_t *hlen)
{
	size_t n = plen;

	memcpy(hi, p, plen);
	while (n > 0 && hi[n - 1] == 0xff)
		n--;
	if (n > 0)
		hi[n - 1]++;
	*hlen = n;
}

int pg_scan(struct store_txn *t, int table, const void *from, size_t flen, size_t plen, long max,
	    unsigned flags, store_scan_fn fn, void *ctx)
{
	uint8_t start[256], hi[256];
	size_t slen = flen, hlen = 0;
	long seen = 0;
	int first = 1;

	if (flen > sizeof start)
		return EINVAL;
	if (flen)
		memcpy(start, from, flen);
	if (plen)
		pg_upper(from, plen, hi, &hlen);
	for (;;) {
		long want = max > 0 && max - seen < PG_SCAN_BATCH ? max - seen : PG_SCAN_BATCH;
		const void *vals[2] = { start, hi };
		size_t lens[2] = { slen, hlen };
		char sql[256];
		PGresult *res;
		int n, got = 0;

		if (want <= 0)
			return 0;
		snprintf(sql, sizeof sql, "SELECT k, %s FROM %s WHERE k %s $1%s ORDER BY k LIMIT %ld%s",
			 flags & STORE_KV_KEYS ? "''::bytea" : "v", pg_table(table), first ? ">=" : ">",
			 hlen ? " AND k < $2" : "", want, flags & STORE_RMW ? " FOR UPDATE" : "");
		res = pg_exec(t, sql, hlen ? 2 : 1, vals, lens);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
			return pg_fail(t->s, res, "reading a range");
		n = PQntuples(res);
		for (int i = 0; i < n && got == 0; i++) {
			const uint8_t *k = (const uint8_t *)PQgetvalue(res, i, 0);
			size_t kl = (size_t)PQgetlength(res, i, 0);

			got = fn(k, kl, PQgetvalue(res, i, 1), (size_t)PQgetlength(res, i, 1), ctx);
			seen++;
			if (i == n - 1 && kl <= sizeof start) {
				memcpy(start, k, kl);
				slen = kl;
			}
		}
		PQclear(res);
		first = 0;
		if (got != 0)
			return got == 1 ? 0 : got;
		if (n < want)
			return 0;
	}
}

int pg_del_range(struct store_txn *t, int table, const void *lo, size_t lolen, const void *hi,
		 size_t hilen)
{
	const void *vals[2] = { lo, hi };
	size_t lens[2] = { lolen, hilen };
	char sql[128];
	PGresult *res;

	snprintf(sql, sizeof sql, "DELETE FROM %s WHERE k >= $1%s", pg_table(table),
		 hi ? " AND k < $2" : "");
	res = pg_exec(t, sql, hi ? 2 : 1, vals, lens);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return pg_fail(t->s, res, "deleting a range");
	PQclear(res);
	return 0;
}
#endif
