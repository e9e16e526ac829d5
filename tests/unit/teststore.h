/* The backend a unit test's store is on: Berkeley DB in the fixture's
 * directory, or, with AIVISTA_TEST_STORE=postgresql, a fresh database of
 * its own on the server AIVISTA_TEST_PGDSN names (tests/lib/pgcluster.py
 * sets both; make check-postgresql runs the tests so), created by
 * teststore_setup and dropped by teststore_done. Asked for PostgreSQL, a
 * build without libpq or a missing AIVISTA_TEST_PGDSN bails out: that run
 * must not pass on Berkeley DB unnoticed. */
#ifndef AV_TESTSTORE_H
#define AV_TESTSTORE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_LIBPQ
#include <libpq-fe.h>
#endif
#include "tap.h"
#include "conf/conf.h"
#include "util/xmalloc.h"

#define TESTSTORE_DB 64

static inline int teststore_pg(void)
{
	const char *b = getenv("AIVISTA_TEST_STORE");

	return b != NULL && strcmp(b, "postgresql") == 0;
}

#ifdef HAVE_LIBPQ
static inline void teststore_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Runs sql on the server's "postgres" database; bails out when it fails
 * and must not. */
static inline void teststore_admin(const char *sql, int must)
{
	char dsn[1100];
	PGconn *c;
	PGresult *r;

	snprintf(dsn, sizeof dsn, "%s dbname=postgres", getenv("AIVISTA_TEST_PGDSN"));
	c = PQconnectdb(dsn);
	PQsetNoticeProcessor(c, teststore_quiet, NULL);
	if (PQstatus(c) != CONNECTION_OK) {
		if (must)
			tap_bail("cannot connect to %s: %s", dsn, PQerrorMessage(c));
		PQfinish(c);
		return;
	}
	r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK && must)
		tap_bail("%s: %s", sql, PQresultErrorMessage(r));
	PQclear(r);
	PQfinish(c);
}
#endif

/* Points c at the test's backend; db (TESTSTORE_DB bytes) gets the name
 * of the database made for it, or "" on Berkeley DB. name: the test's,
 * n: which fixture of it (both in the database's name). */
static inline void teststore_setup(struct conf *c, char *db, const char *name, int n)
{
	db[0] = '\0';
	if (!teststore_pg())
		return;
#ifdef HAVE_LIBPQ
	const char *base = getenv("AIVISTA_TEST_PGDSN");
	char sql[128], dsn[1200];

	if (base == NULL || *base == '\0')
		tap_bail("AIVISTA_TEST_STORE=postgresql without AIVISTA_TEST_PGDSN "
			 "(tests/lib/pgcluster.py sets both)");
	snprintf(db, TESTSTORE_DB, "av_%s_%ld_%d", name, (long)getpid(), n);
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", db);
	teststore_admin(sql, 0);
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
	teststore_admin(sql, 1);
	snprintf(dsn, sizeof dsn, "%s dbname=%s", base, db);
	free(c->store_backend);
	c->store_backend = xstrdup("postgresql");
	free(c->store_dsn);
	c->store_dsn = xstrdup(dsn);
#else
	(void)c;
	(void)name;
	(void)n;
	tap_bail("AIVISTA_TEST_STORE=postgresql in a build without PostgreSQL support (libpq)");
#endif
}

/* Drops the database teststore_setup made, if any (after store_close). */
static inline void teststore_done(const char *db)
{
#ifdef HAVE_LIBPQ
	char sql[128];

	if (db[0] == '\0')
		return;
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", db);
	teststore_admin(sql, 0);
#else
	(void)db;
#endif
}

#endif
