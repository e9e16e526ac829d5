/* Opening and looking after the shared Berkeley DB environment (see
 * store.h). Every opener must use the same cache size: it is fixed here. */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "store/store.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/xmalloc.h"

#define STORE_CACHE_BYTES (4u << 20)
#define STORE_LOG_FILE_BYTES (1u << 20)
#define STORE_THREADS 1024
#define STORE_LOCK_TIMEOUT_US 2000000
#define STORE_TXN_TIMEOUT_US 10000000
#define STORE_FAILCHK_MS 5000
#define STORE_FAILCHK_WAIT_MS 3000  /* a failchk before an open, at most */
#define STORE_CKPT_KBYTES 2048  /* a checkpoint only once this much log is written */
#define STORE_TXN_TRIES 8

static void store_errcall(const DB_ENV *env, const char *prefix, const char *msg)
{
	log_warn("berkeley db: %s", msg);
}

/* What failchk reports it freed after a dead process. */
static void store_msgcall(const DB_ENV *env, const char *msg)
{
	log_info("berkeley db: %s", msg);
}

/* A panic is reported as DB_EVENT_REG_PANIC when another process's open
 * found a dead one and is recovering the environment. */
static void store_panic(DB_ENV *env, u_int32_t event, void *info)
{
	struct store *s = env->app_private;

	if ((event == DB_EVENT_PANIC || event == DB_EVENT_REG_PANIC) && s && !s->panicked) {
		s->panicked = 1;
		log_error("berkeley db environment panicked: this worker reopens it");
	}
}

/* Another process is alive if it can be signalled (EPERM: alive, other user). */
static int store_isalive(DB_ENV *env, pid_t pid, db_threadid_t tid, u_int32_t flags)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

static int store_configure(struct store *s, const struct conf *c)
{
	DB_ENV *env = s->env;
	int rc;

	env->app_private = s;
	env->set_errcall(env, store_errcall);
	env->set_msgcall(env, store_msgcall);
	if ((rc = env->set_cachesize(env, 0, STORE_CACHE_BYTES, 1)) ||
	    (rc = env->set_lg_max(env, STORE_LOG_FILE_BYTES)) ||
	    (rc = env->set_lk_detect(env, DB_LOCK_DEFAULT)) ||
	    (rc = env->set_timeout(env, STORE_LOCK_TIMEOUT_US, DB_SET_LOCK_TIMEOUT)) ||
	    (rc = env->set_timeout(env, STORE_TXN_TIMEOUT_US, DB_SET_TXN_TIMEOUT)) ||
	    (rc = env->set_thread_count(env, STORE_THREADS)) ||
	    (rc = env->set_isalive(env, store_isalive)) ||
	    (rc = env->set_event_notify(env, store_panic)) ||
	    (rc = env->log_set_config(env, DB_LOG_AUTO_REMOVE, 1)))
		return rc;
	if (strcmp(c->durability, "write_nosync") == 0)
		rc = env->set_flags(env, DB_TXN_WRITE_NOSYNC, 1);
	s->sync = strcmp(c->durability, "sync") == 0;
	return rc;
}

void store_key(uint8_t *out, const uint8_t tid[STORE_TID], uint64_t n, int nbytes)
{
	memcpy(out, tid, STORE_TID);
	for (int i = nbytes - 1; i >= 0; i--, n >>= 8)
		out[STORE_TID + i] = (uint8_t)(n & 0xff);
}

/* The databases, created on first use in one transaction each, so many
 * workers starting at once agree. */
static int store_open_dbs(struct store *s)
{
	struct { DB **db; const char *file; } dbs[] = {
		{ &s->threads, "threads.db" }, { &s->ckpts, "ckpts.db" }, { &s->events, "events.db" },
		{ &s->assets, "assets.db" }, { &s->expiry, "expiry.db" }, { &s->cache, "cache.db" },
	};
	int rc = 0;

	for (size_t i = 0; i < sizeof dbs / sizeof dbs[0] && rc == 0; i++) {
		rc = db_create(dbs[i].db, s->env, 0);
		if (rc == 0)
			rc = (*dbs[i].db)->open(*dbs[i].db, NULL, dbs[i].file, NULL, DB_BTREE,
						DB_CREATE | DB_AUTO_COMMIT | DB_THREAD, STORE_FILE_MODE);
	}
	return rc;
}

static void store_env_close(struct store *s);

static void store_close_dbs(struct store *s)
{
	DB **dbs[] = { &s->threads, &s->ckpts, &s->events, &s->assets, &s->expiry, &s->cache };

	for (size_t i = 0; i < sizeof dbs / sizeof dbs[0]; i++) {
		if (*dbs[i])
			(*dbs[i])->close(*dbs[i], 0);
		*dbs[i] = NULL;
	}
}

/* One process opens at a time (a lock on the directory): a process that
 * finds the environment panicked recovers it in its open, and no other
 * one may join or recover it meanwhile. */
static int store_dir_lock(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

int store_env_in_use(const char *dir, long *pid)
{
	char path[4096];
	struct flock fl;
	int fd, rc;

	snprintf(path, sizeof path, "%s/__db.register", dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	rc = fcntl(fd, F_GETLK, &fl);
	close(fd);
	if (rc < 0)
		return -1;
	if (fl.l_type == F_UNLCK)
		return 0;
	*pid = (long)fl.l_pid;
	return 1;
}

/* Joins the environment without registering and runs failchk, so a dead
 * process is cleaned up before the registering open looks for it.
 * Berkeley DB 5.3's first failchk after a death fails (EBUSY) freeing the
 * dead process's open-database entries, though it frees them: the
 * failchk that DB_REGISTER runs inside the open would then panic the
 * environment; a second one here succeeds. 0 when it ran clean. */
static int store_env_failchk(struct store *s)
{
	u_int32_t flags = DB_INIT_TXN | DB_INIT_LOCK | DB_INIT_LOG | DB_INIT_MPOOL | DB_THREAD;
	int rc = db_env_create(&s->env, 0);

	if (rc == 0)
		rc = store_configure(s, s->conf);
	if (rc == 0)
		rc = s->env->open(s->env, s->conf->store_dir, flags, STORE_FILE_MODE);
	if (rc == 0 && (rc = s->env->failchk(s->env, 0)) != 0 && rc != DB_RUNRECOVERY)
		rc = s->env->failchk(s->env, 0);
	if (rc != 0)
		log_warn("failchk before opening the store: %s", db_strerror(rc));
	if (s->env)
		s->env->close(s->env, 0);
	s->env = NULL;
	return rc;
}

/* store_env_failchk in a child process, given STORE_FAILCHK_WAIT_MS: a
 * process killed while it held one of the environment's mutexes leaves
 * it held for good, and joining the environment then waits for it
 * forever. 0 when failchk ran clean; -1 when it could not (the child was
 * stopped, or failchk wants recovery): the open then recovers. */
static int store_env_failchk_bounded(struct store *s)
{
	long long until = clock_mono_ms() + STORE_FAILCHK_WAIT_MS;
	int status = 0;
	pid_t pid = fork(), got;

	if (pid == 0)
		_exit(store_env_failchk(s) == 0 ? 0 : 1);
	if (pid < 0)
		return -1;
	while ((got = waitpid(pid, &status, WNOHANG)) == 0 && clock_mono_ms() < until)
		usleep(10000);
	if (got == 0) {
		log_warn("joining the store waits on a mutex a dead process held: recovering it");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	return got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* DB_REGISTER: a process that finds a dead one registered cleans up after
 * it. While other processes have the environment open, that is failchk
 * (DB_FAILCHK), which aborts the dead one's transactions and releases its
 * locks while the others go on; only when failchk cannot (the dead process
 * was inside the library, or joining waits on a mutex it held) does this
 * open recover the environment, and the others reopen it. With no other process, recovery is harmless and right
 * (after a crash of every process, or of the machine), and the open runs
 * it. DB_RECOVER applies only in those cases, and to an environment found
 * panicked. */
static int store_env_open(struct store *s)
{
	u_int32_t flags = DB_CREATE | DB_INIT_TXN | DB_INIT_LOCK | DB_INIT_LOG | DB_INIT_MPOOL |
			  DB_THREAD | DB_REGISTER | DB_RECOVER;
	int lock = store_dir_lock(s->conf->store_dir), rc;
	long pid = 0;

	if (lock < 0)
		return errno ? errno : EIO;
	if (store_env_in_use(s->conf->store_dir, &pid) > 0 && store_env_failchk_bounded(s) == 0)
		flags |= DB_FAILCHK;
	rc = db_env_create(&s->env, 0);
	if (rc == 0)
		rc = store_configure(s, s->conf);
	if (rc == 0)
		rc = s->env->open(s->env, s->conf->store_dir, flags, STORE_FILE_MODE);
	close(lock);
	if (rc == 0)
		rc = store_open_dbs(s);
	if (rc != 0)
		store_env_close(s);
	return rc;
}

static void store_env_close(struct store *s)
{
	store_close_dbs(s);
	if (s->env)
		s->env->close(s->env, 0);
	s->env = NULL;
}

mode_t store_umask_apply(const struct conf *c)
{
	mode_t m = (mode_t)strtol(c->store_umask ? c->store_umask : "0077", NULL, 8);

	return umask(m & 0777);
}

struct store *store_open(const struct conf *c, char *err, size_t errlen)
{
	struct store *s = xcalloc(1, sizeof *s);
	char path[4200];
	int rc, fresh;

	store_umask_apply(c);
	if (mkdir(c->store_dir, STORE_DIR_MODE) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", c->store_dir, strerror(errno));
		free(s);
		return NULL;
	}
	s->conf = c;
	snprintf(path, sizeof path, "%s/threads.db", c->store_dir);
	fresh = access(path, F_OK) != 0;
	s->version_found = store_version_check(c->store_dir, err, errlen);
	if (s->version_found < 0) {
		free(s);
		return NULL;
	}
	rc = store_env_open(s);
	if (rc != 0) {
		snprintf(err, errlen, "cannot open the store in %s: %s", c->store_dir, db_strerror(rc));
		free(s);
		return NULL;
	}
	if (s->version_found != STORE_VERSION &&
	    store_version_write(c->store_dir, STORE_VERSION, err, errlen) < 0) {
		store_env_close(s);
		free(s);
		return NULL;
	}
	if (s->version_found != STORE_VERSION && !fresh)
		log_info("the store in %s was version %d: its records are read as they are, and it "
			 "is marked version %d", c->store_dir, s->version_found, STORE_VERSION);
	/* A recovery this open ran panics the other processes' handles, not
	 * this new one. */
	s->panicked = 0;
	s->last_ckpt_ms = clock_mono_ms();
	s->thread_ttl_ms = c->thread_ttl * 1000;
	s->tombstone_ttl_ms = c->tombstone_ttl * 1000LL;
	s->max_events = c->max_events;
	s->max_asset_bytes = c->max_asset_bytes;
	s->done_ttl_ms = c->done_ttl * 1000;
	s->history = c->history;
	return s;
}

void store_close(struct store *s)
{
	if (s == NULL)
		return;
	store_env_close(s);
	free(s);
}

int store_reopen(struct store *s)
{
	int rc;

	store_env_close(s);
	rc = store_env_open(s);
	if (rc != 0) {
		log_error("the store could not be reopened: %s", db_strerror(rc));
		return rc;
	}
	s->panicked = 0;
	s->reopens++;
	log_warn("the store was reopened after a panic (%d so far)", s->reopens);
	return 0;
}

/* A panicked environment is reopened before use; 0 when usable. */
int store_usable(struct store *s)
{
	if (s->env == NULL || s->panicked)
		return store_reopen(s) == 0 ? 0 : DB_RUNRECOVERY;
	return 0;
}

static int store_ping_fn(struct store *s, DB_TXN *txn, void *ctx)
{
	return 0;
}

int store_ping(struct store *s, char *err, size_t errlen)
{
	int rc = store_txn(s, store_ping_fn, NULL);

	if (rc != 0) {
		snprintf(err, errlen, "%s", db_strerror(rc));
		return -1;
	}
	return 0;
}

void store_maintain(struct store *s)
{
	long long now = clock_mono_ms();
	int rc = 0;

	if (store_usable(s) != 0)
		return;
	/* Cheap when little log was written: Berkeley DB checks the volume
	 * itself. A checkpoint flushes the cache and lets old logs go. */
	if (s->txns_since_ckpt > 0) {
		rc = s->env->txn_checkpoint(s->env, STORE_CKPT_KBYTES, 0, 0);
		s->txns_since_ckpt = 0;
	}
	/* A dead process's transactions and locks are released here too. */
	if (rc == 0 && now - s->last_ckpt_ms >= STORE_FAILCHK_MS) {
		s->last_ckpt_ms = now;
		rc = s->env->failchk(s->env, 0);
	}
	if (rc == DB_RUNRECOVERY)
		s->panicked = 1;
	else if (rc != 0)
		log_warn("store maintenance: %s", db_strerror(rc));
}

/* A panic seen by a transaction: the environment is reopened once per
 * store_txn, and the transaction runs again in the new one. */
static int store_txn_panic(struct store *s, int *reopened)
{
	s->panicked = 1;
	if (*reopened)
		return DB_RUNRECOVERY;
	*reopened = 1;
	return store_reopen(s) == 0 ? 0 : DB_RUNRECOVERY;
}

int store_txn(struct store *s, int (*fn)(struct store *s, DB_TXN *txn, void *ctx), void *ctx)
{
	int rc = 0, reopened = 0;

	for (int attempt = 0; attempt < STORE_TXN_TRIES; attempt++) {
		DB_TXN *txn = NULL;

		if ((s->panicked || s->env == NULL) && store_txn_panic(s, &reopened) != 0)
			return DB_RUNRECOVERY;
		rc = s->env->txn_begin(s->env, NULL, &txn, 0);
		if (rc == 0) {
			rc = fn(s, txn, ctx);
			if (rc == 0)
				rc = txn->commit(txn, 0);
			else
				txn->abort(txn);
		}
		if (rc == DB_RUNRECOVERY) {
			if (store_txn_panic(s, &reopened) != 0)
				return DB_RUNRECOVERY;
			continue;
		}
		if (rc == 0)
			s->txns_since_ckpt++;
		if (rc != DB_LOCK_DEADLOCK && rc != DB_LOCK_NOTGRANTED)
			return rc;
		/* A lock held too long may belong to a dead process: release it. */
		if (rc == DB_LOCK_NOTGRANTED && s->env->failchk(s->env, 0) == DB_RUNRECOVERY) {
			if (store_txn_panic(s, &reopened) != 0)
				return DB_RUNRECOVERY;
			continue;
		}
		usleep((useconds_t)(1000 * (1 << attempt) + rand() % 1000));
	}
	return rc;
}
