/* aivista-admin backup DIR: a hot backup of the store while workers run.
 * Berkeley DB's own backup (store_backup) copies the databases, then the
 * log files written meanwhile; the key file is copied beside them (without
 * it the thread IDs in the backup are worthless); then catastrophic
 * recovery runs on the copy, in private memory, as db_hotbackup does, so
 * DIR is a consistent store a worker can open as it is. A PostgreSQL store
 * is backed up with PostgreSQL's own tools (pg_dump): this says so. */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "admin/admin.h"
#include "store/backends.h"
#include "store/store.h"

/* 1 when dir is missing or empty. */
static int admin_backup_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (d == NULL)
		return errno == ENOENT;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	return empty;
}

/* Started by root: DIR is made here, with its missing parents, for the
 * store's owner, who runs the rest. */
static int admin_backup_prepare(struct admin *a, int argc, char **argv)
{
	struct stat st;

	if (argc != 2) {
		admin_error("usage: backup DIR");
		return 2;
	}
	if (geteuid() != 0 || stat(a->conf.store_dir, &st) != 0 || st.st_uid == 0)
		return 0;
	/* Missing parents too (/var/backups/aivista/DAY), the store's owner's
	 * as well, so that it can reach DIR. */
	if (admin_mkdirs(argv[1], st.st_uid, st.st_gid) < 0) {
		admin_error("cannot make %s for the store's owner: %s", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}

static int admin_backup_copy(const char *from, const char *to)
{
	char buf[4096];
	ssize_t n = 0;
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;

	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (out >= 0 && n == 0 && fsync(out) == 0)
		rc = 0;
	if (rc < 0)
		admin_error("cannot copy %s to %s: %s", from, to, strerror(errno));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

/* Catastrophic recovery on the copy, in private memory: no region files. */
static int admin_backup_recover(const char *dir)
{
	char err[512];

	if (store_backup_recover(dir, err, sizeof err) != 0) {
		admin_error("%s", err);
		return -1;
	}
	return 0;
}

static int admin_backup(struct admin *a, int argc, char **argv)
{
	const struct store_backend *b = store_backend_of(&a->conf);
	const char *dir = argv[1];
	char key[4200];
	char err[512];
	struct store *s;
	int rc;

	if (b && !(b->flags & STORE_CAN_BACKUP)) {
		admin_error("the %s store is %s; keep a copy of the key file %s with it", b->name,
			    b->backup_how, a->conf.key_file);
		return 1;
	}
	if (!admin_backup_empty(dir)) {
		admin_error("%s is not empty: back up into a new directory", dir);
		return 1;
	}
	s = admin_store_open(a);
	if (s == NULL)
		return 1;
	if (admin_mkdirs(dir, (uid_t)-1, (gid_t)-1) < 0) {
		admin_error("cannot create %s: %s", dir, strerror(errno));
		store_close(s);
		return 1;
	}
	rc = store_backup(s, dir, err, sizeof err);
	store_close(s);
	if (rc) {
		admin_error("backup of %s: %s", a->conf.store_dir, err);
		return 1;
	}
	snprintf(key, sizeof key, "%s/thread.key", dir);
	if (access(a->conf.key_file, F_OK) == 0 && admin_backup_copy(a->conf.key_file, key) < 0)
		return 1;
	/* The copy is of this version's format: the store open above marked it. */
	if (store_version_write(dir, STORE_VERSION, key, sizeof key) < 0) {
		admin_error("%s", key);
		return 1;
	}
	if (admin_backup_recover(dir) < 0)
		return 1;
	printf("%s: backup of %s, ready to use (its key file as thread.key)\n", dir,
	       a->conf.store_dir);
	return 0;
}

const struct admin_cmd admin_backup_entry = {
	.name = "backup",
	.args = "backup DIR",
	.help = "hot backup of the store and its key into DIR (new or empty)",
	.prepare = admin_backup_prepare,
	.run = admin_backup,
};
