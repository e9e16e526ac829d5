/* Store statistics for administrators (aivista-admin stats): what the
 * environment holds and what it takes on disk. Read-only, and safe while
 * workers run: every read is one short cursor walk at read-committed
 * isolation, holding no lock between records. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "store/bdb.h"
#include "util/xmalloc.h"

static long long store_file_bytes(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	if (name[0] == '/')
		snprintf(path, sizeof path, "%s", name);
	else
		snprintf(path, sizeof path, "%s/%s", dir, name);
	return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* One thread record, counted by status. */
static void store_stats_thread(struct store_stats *st, const void *data, size_t len)
{
	json_t *rec = json_loadb(data, len, 0, NULL);
	const char *status = json_string_value(json_object_get(rec, "status"));
	int i;

	for (i = 0; i < STORE_NSTATUS; i++)
		if (status && strcmp(status, store_stats_status_name(i)) == 0)
			break;
	if (i < STORE_NSTATUS)
		st->threads_by_status[i]++;
	else
		st->threads_other++;
	st->threads++;
	st->events += json_integer_value(json_object_get(rec, "seq"));
	json_decref(rec);
}

/* One walk over threads.db: the thread records by status and, when it
 * holds a thread's other records too (bdb.h), those by tag. Only thread
 * records and assets are read whole. */
static int store_stats_threads(struct store *s, struct store_stats *st)
{
	DB *db = BDB(s)->db[STORE_T_THREADS];
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 }, full = { 0 };
	int rc = db->cursor(db, NULL, &c, DB_READ_COMMITTED);

	if (rc)
		return rc;
	k.flags = DB_DBT_REALLOC;
	v.flags = DB_DBT_PARTIAL;
	full.flags = DB_DBT_REALLOC;
	while ((rc = c->get(c, &k, &v, DB_NEXT)) == 0) {
		int tag = BDB_TAG_THREAD;

		if (BDB(s)->one_tree)
			tag = k.size > STORE_TID ? ((const uint8_t *)k.data)[STORE_TID] : -1;
		if (tag == BDB_TAG_CKPT)
			st->checkpoints++;
		if (tag == BDB_TAG_EVENT)
			st->event_records++;
		if (tag != BDB_TAG_THREAD && tag != BDB_TAG_ASSET)
			continue;
		if ((rc = c->get(c, &k, &full, DB_CURRENT)) != 0)
			break;
		if (tag == BDB_TAG_THREAD) {
			store_stats_thread(st, full.data, full.size);
		} else {
			st->assets++;
			st->asset_bytes += full.size;
		}
	}
	free(k.data);
	free(full.data);
	c->close(c);
	return rc == DB_NOTFOUND ? 0 : rc;
}

/* Records in db and, when bytes is given, the size of their values. */
static int store_stats_count(DB *db, long long *n, long long *bytes)
{
	DBC *c = NULL;
	DBT k = { 0 }, v = { 0 };
	int rc = db->cursor(db, NULL, &c, DB_READ_COMMITTED);

	if (rc)
		return rc;
	*n = 0;
	if (bytes)
		*bytes = 0;
	/* Counting needs no value: a zero-length partial read skips it. */
	k.flags = DB_DBT_REALLOC;
	if (bytes)
		v.flags = DB_DBT_REALLOC;
	else
		v.flags = DB_DBT_PARTIAL;
	while ((rc = c->get(c, &k, &v, DB_NEXT)) == 0) {
		(*n)++;
		if (bytes)
			*bytes += v.size;
	}
	free(k.data);
	if (bytes)
		free(v.data);
	c->close(c);
	return rc == DB_NOTFOUND ? 0 : rc;
}

/* Log files: every one Berkeley DB still has, needed for recovery or not. */
static int store_stats_logs(struct store *s, struct store_stats *st)
{
	char **list = NULL;
	int rc = BDB(s)->env->log_archive(BDB(s)->env, &list, DB_ARCH_LOG | DB_ARCH_ABS);

	if (rc)
		return rc;
	for (char **p = list; p && *p; p++) {
		st->log_files++;
		st->log_bytes += store_file_bytes(NULL, *p);
	}
	free(list);
	return 0;
}

static void store_stats_files(struct store *s, struct store_stats *st)
{
	DB **dbs = BDB(s)->db;

	for (size_t i = 0; i < STORE_NTABLES; i++) {
		const char *file = NULL, *name = NULL;

		if (dbs[i] && dbs[i]->get_dbname(dbs[i], &file, &name) == 0 && file) {
			st->db_files++;
			st->db_bytes += store_file_bytes(st->dir, file);
		}
	}
	for (int i = 1; i < 10; i++) {
		char name[32];
		long long n;

		snprintf(name, sizeof name, "__db.%03d", i);
		if ((n = store_file_bytes(st->dir, name)) > 0) {
			st->region_files++;
			st->region_bytes += n;
		}
	}
}

int bdb_stats(struct store *s, struct store_stats *st, char *err, size_t errlen)
{
	DB_TXN_STAT *ts = NULL;
	const char *home = NULL;
	int rc;

	if (BDB(s)->env == NULL) {
		snprintf(err, errlen, "cannot read the store: %s", store_strerror(STORE_UNAVAILABLE));
		return -1;
	}
	if (BDB(s)->env->get_home(BDB(s)->env, &home) == 0 && home)
		snprintf(st->dir, sizeof st->dir, "%s", home);
	st->version = home ? store_version_read(home, err, errlen) : -1;
	rc = store_stats_threads(s, st);
	if (rc == 0 && !BDB(s)->one_tree)
		rc = store_stats_count(BDB(s)->db[STORE_T_CKPTS], &st->checkpoints, NULL);
	if (rc == 0 && !BDB(s)->one_tree)
		rc = store_stats_count(BDB(s)->db[STORE_T_EVENTS], &st->event_records, NULL);
	if (rc == 0 && !BDB(s)->one_tree)
		rc = store_stats_count(BDB(s)->db[STORE_T_ASSETS], &st->assets, &st->asset_bytes);
	if (rc == 0)
		rc = store_stats_count(BDB(s)->db[STORE_T_CACHE], &st->cache_entries, NULL);
	if (rc == 0)
		rc = store_stats_logs(s, st);
	if (rc == 0)
		rc = BDB(s)->env->txn_stat(BDB(s)->env, &ts, 0);
	if (rc) {
		snprintf(err, errlen, "cannot read the store: %s", db_strerror(rc));
		if (rc == DB_RUNRECOVERY)
			s->panicked = 1;
		return -1;
	}
	st->active_txns = ts->st_nactive;
	st->last_checkpoint = (long long)ts->st_time_ckp;
	free(ts);
	store_stats_files(s, st);
	return 0;
}
