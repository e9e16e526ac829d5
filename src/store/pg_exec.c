/* The PostgreSQL backend's one statement and its result as a store
 * result (see pg.h): what the connection (pg_conn.c), the records
 * (pg_kv.c), the statistics (pg_stats.c) and the notifications
 * (pg_notify.c) all run their SQL through. */
#include "config.h"
#ifdef HAVE_LIBPQ
#include <string.h>
#include "store/pg.h"
#include "util/log.h"

static const char *const pg_tables[STORE_NTABLES] = {
	[STORE_T_THREADS] = "av_threads", [STORE_T_CKPTS] = "av_ckpts",
	[STORE_T_EVENTS] = "av_events", [STORE_T_ASSETS] = "av_assets",
	[STORE_T_EXPIRY] = "av_expiry", [STORE_T_CACHE] = "av_cache",
};

const char *pg_table(int table)
{
	return pg_tables[table];
}

int pg_fail(struct store *s, PGresult *res, const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	int rc = STORE_ERROR;

	if (PG(s)->conn == NULL || PQstatus(PG(s)->conn) != CONNECTION_OK)
		rc = STORE_UNAVAILABLE;
	else if (state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0))
		rc = STORE_RETRY;
	else if (state && (strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0))
		rc = STORE_BUSY;
	else if (state && strcmp(state, "23505") == 0)
		rc = STORE_EXISTS;
	else if (state && strncmp(state, "53", 2) == 0)
		rc = STORE_FULL;
	else if (state && (strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0))
		rc = STORE_UNAVAILABLE;
	if (rc != STORE_RETRY && rc != STORE_EXISTS)
		log_error("postgresql: %s: %s", what,
			  PG(s)->conn ? PQerrorMessage(PG(s)->conn) : "no connection");
	if (rc == STORE_UNAVAILABLE)
		s->panicked = 1;
	PQclear(res);
	return rc;
}

int pg_cmd(struct store *s, const char *sql, const char *what)
{
	PGresult *res = PQexec(PG(s)->conn, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(s, res, what);
	PQclear(res);
	return 0;
}
#endif
