/* aivista-admin stats [--json]: what the store holds (threads by status,
 * checkpoints, events, assets) and what it takes on disk (Berkeley DB:
 * databases, log files, the shared regions; PostgreSQL: the database's
 * size). Safe while workers run. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <jansson.h>
#include "admin/admin.h"
#include "engine/tid.h"
#include "store/backends.h"
#include "store/store.h"

static void admin_stats_text(const struct store_stats *st, const char *key_file, int keys)
{
	char when[64] = "none yet";

	if (st->last_checkpoint > 0) {
		time_t t = (time_t)st->last_checkpoint;

		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", localtime(&t));
	}
	const struct store_backend *b = store_backend_find(st->backend);
	int by_files = b && (b->flags & STORE_BY_FILES);

	printf("store             %s\n", st->dir);
	printf("backend           %s\n", st->backend);
	printf("%-18s%d (this AiVista: %d)\n", b ? b->version_name : "version", st->version,
	       st->version_current);
	printf("threads           %lld (", st->threads);
	for (int i = 0; i < STORE_NSTATUS; i++)
		printf("%s%s %lld", i ? ", " : "", store_stats_status_name(i), st->threads_by_status[i]);
	if (st->threads_other)
		printf(", other %lld", st->threads_other);
	printf(")\n");
	printf("checkpoints       %lld\n", st->checkpoints);
	printf("events            %lld (in %lld records, one a step)\n", st->events, st->event_records);
	printf("assets            %lld (%lld bytes)\n", st->assets, st->asset_bytes);
	printf("cache entries     %lld\n", st->cache_entries);
	if (!by_files) {
		printf("database size     %lld bytes\n", st->db_bytes);
	} else {
		printf("database files    %lld (%lld bytes)\n", st->db_files, st->db_bytes);
		printf("log files         %lld (%lld bytes)\n", st->log_files, st->log_bytes);
		printf("region files      %lld (%lld bytes)\n", st->region_files,
		       st->region_bytes);
	}
	printf("transactions open %lld\n", st->active_txns);
	printf("last checkpoint   %s\n", when);
	if (keys >= 0)
		printf("key file          %s (%d key%s)\n", key_file, keys, keys == 1 ? "" : "s");
	else
		printf("key file          %s (unreadable)\n", key_file);
}

static void admin_stats_json(const struct store_stats *st, const char *key_file, int keys)
{
	json_t *by = json_object(), *j;

	for (int i = 0; i < STORE_NSTATUS; i++)
		json_object_set_new(by, store_stats_status_name(i),
				    json_integer(st->threads_by_status[i]));
	json_object_set_new(by, "other", json_integer(st->threads_other));
	j = json_pack("{s:s, s:s, s:I, s:o, s:I, s:I, s:I, s:{s:I, s:I}, s:I, s:{s:I, s:I}, s:{s:I, s:I},"
		      " s:{s:I, s:I}, s:I, s:I, s:{s:s, s:i}, s:i}",
		      "store", st->dir, "backend", st->backend, "threads", (json_int_t)st->threads, "threadsByStatus", by,
		      "checkpoints", (json_int_t)st->checkpoints, "events", (json_int_t)st->events, "eventRecords", (json_int_t)st->event_records,
		      "assets", "count", (json_int_t)st->assets, "bytes", (json_int_t)st->asset_bytes,
		      "cacheEntries", (json_int_t)st->cache_entries,
		      "databaseFiles", "count", (json_int_t)st->db_files, "bytes",
		      (json_int_t)st->db_bytes,
		      "logFiles", "count", (json_int_t)st->log_files, "bytes",
		      (json_int_t)st->log_bytes,
		      "regionFiles", "count", (json_int_t)st->region_files, "bytes",
		      (json_int_t)st->region_bytes,
		      "transactionsOpen", (json_int_t)st->active_txns,
		      "lastCheckpoint", (json_int_t)st->last_checkpoint,
		      "keyFile", "path", key_file, "keys", keys, "version", st->version);
	json_dumpf(j, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(j);
}

static int admin_stats(struct admin *a, int argc, char **argv)
{
	struct store_stats st;
	struct tid_keys keys;
	char err[512];
	struct store *s;
	int json = 0, nkeys = -1, rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else {
			admin_error("usage: stats [--json]");
			return 2;
		}
	}
	s = admin_store_open(a);
	if (s == NULL)
		return 1;
	rc = store_stats(s, &st, err, sizeof err);
	store_close(s);
	if (rc < 0) {
		admin_error("%s", err);
		return 1;
	}
	/* Counting the keys never creates the file. */
	if (access(a->conf.key_file, R_OK) == 0 &&
	    tid_keys_load(&keys, a->conf.key_file, err, sizeof err) == 0)
		nkeys = keys.n;
	sodium_memzero(&keys, sizeof keys);
	if (json)
		admin_stats_json(&st, a->conf.key_file, nkeys);
	else
		admin_stats_text(&st, a->conf.key_file, nkeys);
	return 0;
}

const struct admin_cmd admin_stats_entry = {
	.name = "stats",
	.args = "stats [--json]",
	.help = "what the store holds and takes on disk (safe while workers run)",
	.run = admin_stats,
};
