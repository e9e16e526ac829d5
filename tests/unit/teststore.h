/* The store a unit test runs on, made and removed in one place: a fresh
 * directory under /tmp and a configuration pointing at it
 * (teststore_init), the store opened (teststore_open), and everything
 * closed, dropped and removed again (teststore_free).
 *
 * The backend: Berkeley DB in the fixture's directory, or, with
 * AIVISTA_TEST_STORE=postgresql, a fresh database of its own on the
 * server AIVISTA_TEST_PGDSN names (tests/lib/pgcluster.py sets both; make
 * check-postgresql runs the tests so), created by teststore_init and
 * dropped by teststore_free. Asked for PostgreSQL, a build without libpq
 * or a missing AIVISTA_TEST_PGDSN bails out: that run must not pass on
 * Berkeley DB unnoticed. A test of Berkeley DB's own takes teststore_dir
 * instead; one that runs every backend asks for PostgreSQL itself with
 * teststore_pg_new, which says why it cannot instead of bailing out. */
#ifndef AV_TESTSTORE_H
#define AV_TESTSTORE_H
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_LIBPQ
#include <libpq-fe.h>
#endif
#include "tap.h"
#include "conf/conf.h"
#include "store/store.h"
#include "util/xmalloc.h"

#define TESTSTORE_DB 64

/* One test store: where it is. */
struct teststore {
	char dir[64];               /* its directory under /tmp */
	char db[TESTSTORE_DB];      /* postgresql: the database made for it, else "" */
};

static inline int teststore_want_pg(void)
{
	const char *b = getenv("AIVISTA_TEST_STORE");

	return b != NULL && strcmp(b, "postgresql") == 0;
}

static inline void teststore_set(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
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

/* Points c at a fresh PostgreSQL database of t's own (named after name and
 * the how-manieth it is in this process): 0, or -1 with why when this run
 * cannot have one (no AIVISTA_TEST_PGDSN, a build without libpq). Bails
 * out when the server refuses it. */
static inline int teststore_pg_new(struct teststore *t, struct conf *c, const char *name,
				   char *why, size_t whylen)
{
#ifdef HAVE_LIBPQ
	static int made;
	const char *base = getenv("AIVISTA_TEST_PGDSN");
	char sql[128], dsn[1200];

	if (base == NULL || *base == '\0') {
		snprintf(why, whylen, "AIVISTA_TEST_PGDSN is not set (tests/lib/pgcluster.py sets it)");
		return -1;
	}
	snprintf(t->db, sizeof t->db, "av_%s_%ld_%d", name, (long)getpid(), ++made);
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", t->db);
	teststore_admin(sql, 0);
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", t->db);
	teststore_admin(sql, 1);
	snprintf(dsn, sizeof dsn, "%s dbname=%s", base, t->db);
	teststore_set(&c->store_backend, "postgresql");
	teststore_set(&c->store_dsn, dsn);
	return 0;
#else
	(void)t;
	(void)c;
	(void)name;
	snprintf(why, whylen, "this build has no PostgreSQL support (libpq)");
	return -1;
#endif
}

/* A fresh directory /tmp/NAME.XXXXXX in t, and c (initialised here)
 * pointing a Berkeley DB store at it, written without syncing. */
static inline void teststore_dir(struct teststore *t, struct conf *c, const char *name)
{
	memset(t, 0, sizeof *t);
	snprintf(t->dir, sizeof t->dir, "/tmp/%s.XXXXXX", name);
	if (mkdtemp(t->dir) == NULL)
		tap_bail("mkdtemp: %s", strerror(errno));
	conf_init(c);
	teststore_set(&c->store_dir, t->dir);
	teststore_set(&c->durability, "write_nosync");
}

/* teststore_dir, on the backend the environment asks for. */
static inline void teststore_init(struct teststore *t, struct conf *c, const char *name)
{
	char why[256];

	teststore_dir(t, c, name);
	if (teststore_want_pg() && teststore_pg_new(t, c, name, why, sizeof why) != 0)
		tap_bail("AIVISTA_TEST_STORE=postgresql, but %s", why);
}

/* The store c names, opened (new); bails out when it does not open. */
static inline struct store *teststore_open(const struct conf *c)
{
	char err[512];
	struct store *s = store_open(c, err, sizeof err);

	if (s == NULL)
		tap_bail("store_open %s: %s", c->store_backend && strcmp(c->store_backend, "postgresql") == 0 ?
			 c->store_dsn : c->store_dir, err);
	return s;
}

static inline int teststore_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Closes s (stolen; NULL: none), drops t's database, removes t's
 * directory and all in it, and frees c. */
static inline void teststore_free(struct teststore *t, struct conf *c, struct store *s)
{
	store_close(s);
#ifdef HAVE_LIBPQ
	if (t->db[0] != '\0') {
		char sql[128];

		snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", t->db);
		teststore_admin(sql, 0);
	}
#endif
	nftw(t->dir, teststore_rm, 16, FTW_DEPTH | FTW_PHYS);
	conf_free(c);
}

#endif
