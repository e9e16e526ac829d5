/* The PostgreSQL backend's connection, schema and transactions, and its
 * table of operations (see pg.h). */
#include "config.h"
#ifdef HAVE_LIBPQ
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include "store/pg.h"
#include "util/log.h"
#include "util/xmalloc.h"

/* The schema version recorded, 0 when none is. */
static int pg_schema_version(struct store *s)
{
	PGresult *res = PQexec(PG(s)->conn, "SELECT value FROM av_meta WHERE name = 'schema_version'");
	int v = 0;

	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		v = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return v;
}

/* Creates what is missing, in one transaction under a lock, and records
 * the version; a newer schema is refused. */
static int pg_schema(struct store *s, char *err, size_t errlen)
{
	char sql[256];
	int rc, v;

	rc = pg_cmd(s, "BEGIN", "beginning the schema");
	if (rc == 0)
		/* One worker at a time creates the schema (a lock for this
		 * transaction only). */
		rc = pg_cmd(s, "SELECT pg_advisory_xact_lock(1096373865)", "locking the schema");
	if (rc == 0)
		rc = pg_cmd(s, "CREATE TABLE IF NOT EXISTS av_meta (name text PRIMARY KEY, value text "
			    "NOT NULL)", "creating av_meta");
	for (int i = 0; rc == 0 && i < STORE_NTABLES; i++) {
		snprintf(sql, sizeof sql, "CREATE TABLE IF NOT EXISTS %s (k bytea PRIMARY KEY, v bytea "
			 "NOT NULL)", pg_table(i));
		rc = pg_cmd(s, sql, "creating a table");
	}
	v = rc == 0 ? pg_schema_version(s) : 0;
	s->version_found = v ? v : 1;
	if (rc == 0 && v > PG_SCHEMA_VERSION) {
		snprintf(err, errlen, "the database's schema is version %d, newer than this AiVista's "
			 "(%d): upgrade AiVista", v, PG_SCHEMA_VERSION);
		pg_cmd(s, "ROLLBACK", "rolling back");
		return STORE_ERROR;
	}
	if (rc == 0 && v < PG_SCHEMA_VERSION) {
		snprintf(sql, sizeof sql, "INSERT INTO av_meta VALUES ('schema_version', '%d') ON "
			 "CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", PG_SCHEMA_VERSION);
		rc = pg_cmd(s, sql, "recording the schema version");
	}
	if (rc == 0)
		rc = pg_cmd(s, "COMMIT", "committing the schema");
	else
		pg_cmd(s, "ROLLBACK", "rolling back");
	if (rc)
		snprintf(err, errlen, "cannot create the schema: %s", store_strerror(rc));
	return rc;
}

/* Connects (the password from the environment or ~/.pgpass: libpq reads
 * them) and sets the statement timeout. */
static int pg_connect(struct store *s, char *err, size_t errlen)
{
	struct pg *p = PG(s);
	char sql[96];

	p->conn = PQconnectdb(s->conf->store_dsn ? s->conf->store_dsn : "");
	p->in_txn = 0;
	p->listen[0] = p->notify[0] = '\0';
	if (PQstatus(p->conn) != CONNECTION_OK) {
		/* libpq's message names host and user, never the password. */
		snprintf(err, errlen, "cannot connect to PostgreSQL: %s", PQerrorMessage(p->conn));
		PQfinish(p->conn);
		p->conn = NULL;
		return STORE_UNAVAILABLE;
	}
	snprintf(sql, sizeof sql, "SET statement_timeout = %ld", s->conf->store_statement_timeout_ms);
	if (pg_cmd(s, sql, "setting the statement timeout") != 0 ||
	    pg_cmd(s, "SET client_min_messages = warning", "setting the messages") != 0) {
		snprintf(err, errlen, "cannot set up the PostgreSQL connection");
		return STORE_UNAVAILABLE;
	}
	return 0;
}

static void pg_disconnect(struct store *s)
{
	if (PG(s)->conn)
		PQfinish(PG(s)->conn);
	PG(s)->conn = NULL;
}

static int pg_open(struct store *s, char *err, size_t errlen)
{
	int rc;

	/* The directory still holds the key file by default. */
	store_umask_apply(s->conf);
	if (s->conf->store_dir && mkdir(s->conf->store_dir, STORE_DIR_MODE) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", s->conf->store_dir, strerror(errno));
		return STORE_ERROR;
	}
	s->be = xcalloc(1, sizeof(struct pg));
	rc = pg_connect(s, err, errlen);
	if (rc == 0)
		rc = pg_schema(s, err, errlen);
	if (rc) {
		pg_disconnect(s);
		free(s->be);
		s->be = NULL;
		return rc;
	}
	s->panicked = 0;
	return 0;
}

static void pg_close(struct store *s)
{
	if (s->be == NULL)
		return;
	pg_disconnect(s);
	free(s->be);
	s->be = NULL;
}

static int pg_reopen(struct store *s)
{
	char err[512];
	int rc;

	pg_disconnect(s);
	rc = pg_connect(s, err, sizeof err);
	if (rc) {
		log_error("%s", err);
		pg_disconnect(s);
	}
	return rc;
}

static int pg_begin(struct store *s, struct store_txn *t)
{
	if (PG(s)->conn == NULL || PQstatus(PG(s)->conn) != CONNECTION_OK) {
		s->panicked = 1;
		return STORE_UNAVAILABLE;
	}
	t->h = PG(s);
	PG(s)->in_txn = 1;
	PG(s)->notify[0] = '\0';
	return pg_cmd(s, "BEGIN", "beginning a transaction");
}

static int pg_commit(struct store_txn *t)
{
	int rc = pg_notify_pending(t->s);

	if (rc == 0)
		rc = pg_cmd(t->s, "COMMIT", "committing");

	PG(t->s)->in_txn = 0;
	return rc;
}

static void pg_abort(struct store_txn *t)
{
	if (PG(t->s)->conn && PQstatus(PG(t->s)->conn) == CONNECTION_OK)
		pg_cmd(t->s, "ROLLBACK", "rolling back");
	PG(t->s)->in_txn = 0;
}

static int pg_before_retry(struct store *s, int rc)
{
	return 0;
}

/* A connection the server dropped between requests is found here, and
 * the next use reconnects. */
static void pg_maintain(struct store *s)
{
	if (PG(s)->conn == NULL || PQstatus(PG(s)->conn) != CONNECTION_OK)
		s->panicked = 1;
}

const struct store_ops store_pg_ops = {
	.open = pg_open,
	.close = pg_close,
	.reopen = pg_reopen,
	.begin = pg_begin,
	.commit = pg_commit,
	.abort = pg_abort,
	.before_retry = pg_before_retry,
	.maintain = pg_maintain,
	.get = pg_get,
	.put = pg_put,
	.del = pg_del,
	.scan = pg_scan,
	.del_range = pg_del_range,
	.stats = pg_stats,
	.touched = pg_touched,
	.wait = pg_wait,
	.unwatch = pg_unwatch,
};
#endif
