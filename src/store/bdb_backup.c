/* Berkeley DB's own backup and recovery, for aivista-admin backup and
 * recover. A backup: DB_ENV->backup copies the databases, then the log
 * files written meanwhile; then catastrophic recovery runs on the copy, in
 * private memory, as db_hotbackup does, so the copy is a consistent store
 * a worker can open as it is. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "store/bdb.h"
#include "util/log.h"

/* Recovery (catastrophic with fatal) in dir; private: no region files. */
static int bdb_recover_run(const char *dir, int fatal, int private)
{
	DB_ENV *env = NULL;
	int rc = db_env_create(&env, 0);

	if (rc == 0)
		rc = env->open(env, dir, DB_CREATE | DB_INIT_TXN | DB_INIT_LOCK | DB_INIT_LOG |
			       DB_INIT_MPOOL | (private ? DB_PRIVATE : 0) |
			       (fatal ? DB_RECOVER_FATAL : DB_RECOVER), 0600);
	if (env)
		env->close(env, 0);
	return rc;
}

int bdb_backup(struct store *s, const char *dir, char *err, size_t errlen)
{
	DB_ENV *env = BDB(s)->env;
	int rc;

	if (env == NULL) {
		snprintf(err, errlen, "the store is unavailable");
		return STORE_UNAVAILABLE;
	}
	/* A checkpoint first: recovery of the copy then has little log to read. */
	rc = env->txn_checkpoint(env, 0, 0, DB_FORCE);
	if (rc == 0)
		rc = env->backup(env, dir, DB_CREATE);
	if (rc) {
		snprintf(err, errlen, "backup into %s failed: %s", dir, db_strerror(rc));
		return bdb_rc(rc, "backup");
	}
	return 0;
}

/* Catastrophic recovery of a backup copy (see bdb_backup). */
int store_backup_recover(const char *dir, char *err, size_t errlen)
{
	int rc = bdb_recover_run(dir, 1, 1);

	if (rc)
		snprintf(err, errlen, "recovery of the copy in %s failed: %s", dir, db_strerror(rc));
	return rc ? STORE_ERROR : 0;
}

static void bdb_recover_errcall(const DB_ENV *env, const char *prefix, const char *msg)
{
	log_error("berkeley db: %s", msg);
}

int store_recover_dir(const char *dir, int fatal, char *err, size_t errlen)
{
	DB_ENV *env = NULL;
	int rc = db_env_create(&env, 0);

	if (rc == 0) {
		env->set_errcall(env, bdb_recover_errcall);
		rc = env->open(env, dir, DB_CREATE | DB_INIT_TXN | DB_INIT_LOCK | DB_INIT_LOG |
			       DB_INIT_MPOOL | (fatal ? DB_RECOVER_FATAL : DB_RECOVER), 0600);
	}
	if (env)
		env->close(env, 0);
	/* The shared regions go: the next worker creates them with its own
	 * settings. */
	if (rc == 0 && (rc = db_env_create(&env, 0)) == 0)
		rc = env->remove(env, dir, 0);
	if (rc)
		snprintf(err, errlen, "%s", db_strerror(rc));
	return rc ? STORE_ERROR : 0;
}
