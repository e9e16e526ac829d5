/* Statistics of the PostgreSQL backend (aivista-admin stats): the records
 * counted by the server, threads by status read from their records, and
 * the database's size. Read-only, at read committed. */
#include "config.h"
#ifdef HAVE_LIBPQ
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/pg.h"

/* One number a query answers in text, or -1. */
static long long pg_number(struct store *s, const char *sql)
{
	PGresult *res = PQexec(PG(s)->conn, sql);
	long long n = -1;

	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		n = PQgetisnull(res, 0, 0) ? 0 : atoll(PQgetvalue(res, 0, 0));
	PQclear(res);
	return n;
}

static int pg_stats_threads(struct store *s, struct store_stats *st)
{
	PGresult *res = PQexec(PG(s)->conn, "SELECT convert_from(v, 'UTF8')::json->>'status', "
			       "count(*) FROM av_threads GROUP BY 1");

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(s, res, "counting threads");
	for (int r = 0; r < PQntuples(res); r++) {
		const char *status = PQgetvalue(res, r, 0);
		long long n = atoll(PQgetvalue(res, r, 1));
		int i;

		for (i = 0; i < STORE_NSTATUS; i++)
			if (!PQgetisnull(res, r, 0) && strcmp(status, store_stats_status_name(i)) == 0)
				break;
		if (i < STORE_NSTATUS)
			st->threads_by_status[i] += n;
		else
			st->threads_other += n;
		st->threads += n;
	}
	PQclear(res);
	return 0;
}

int pg_stats(struct store *s, struct store_stats *st, char *err, size_t errlen)
{
	struct { long long *out; const char *sql; } counts[] = {
		{ &st->checkpoints, "SELECT count(*) FROM av_ckpts" },
		{ &st->events, "SELECT coalesce(sum((convert_from(v, 'UTF8')::json->>'seq')::bigint), 0) "
			       "FROM av_threads" },
		{ &st->event_records, "SELECT count(*) FROM av_events" },
		{ &st->assets, "SELECT count(*) FROM av_assets" },
		{ &st->asset_bytes, "SELECT sum(length(v)) FROM av_assets" },
		{ &st->cache_entries, "SELECT count(*) FROM av_cache" },
		{ &st->db_bytes, "SELECT pg_database_size(current_database())" },
		{ &st->active_txns, "SELECT count(*) FROM pg_stat_activity WHERE datname = "
				    "current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()" },
	};

	if (PG(s)->conn == NULL || PQstatus(PG(s)->conn) != CONNECTION_OK) {
		snprintf(err, errlen, "cannot read the store: %s", store_strerror(STORE_UNAVAILABLE));
		return -1;
	}
	snprintf(st->dir, sizeof st->dir, "postgresql database %s on %s", PQdb(PG(s)->conn),
		 PQhost(PG(s)->conn) ? PQhost(PG(s)->conn) : "the local socket");
	st->version = (int)pg_number(s, "SELECT value FROM av_meta WHERE name = 'schema_version'");
	st->version_current = PG_SCHEMA_VERSION;
	if (pg_stats_threads(s, st) != 0) {
		snprintf(err, errlen, "cannot read the store: %s", PQerrorMessage(PG(s)->conn));
		return -1;
	}
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		if ((*counts[i].out = pg_number(s, counts[i].sql)) < 0) {
			snprintf(err, errlen, "cannot read the store: %s", PQerrorMessage(PG(s)->conn));
			return -1;
		}
	}
	return 0;
}
#endif
