/* Opening and looking after the shared Berkeley DB environment (see
 * bdb.h), and its transactions. The cache is [store] cache_kb, set by
 * the process that creates the environment (the others join it as it is):
 * small by default, since every page a worker touches in the shared region
 * counts in its resident size, and the operating system's file cache holds
 * what does not fit. */
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
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include "store/bdb.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/xmalloc.h"

#define STORE_LOG_FILE_BYTES (1u << 20)
#define STORE_THREADS 1024
#define STORE_LOCK_TIMEOUT_US 2000000
#define STORE_TXN_TIMEOUT_US 10000000
#define STORE_FAILCHK_MS 5000
#define BDB_POKE_COMMITS 64     /* commits after which maintain wakes the checkpoint thread */
#define STORE_FAILCHK_WAIT_MS 3000  /* a failchk before an open, at most */

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
	DB_ENV *env = BDB(s)->env;
	int rc;

	env->app_private = s;
	env->set_errcall(env, store_errcall);
	env->set_msgcall(env, store_msgcall);
	if ((rc = env->set_cachesize(env, 0, (u_int32_t)c->store_cache_kb * 1024u, 1)) ||
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
	BDB(s)->sync = strcmp(c->durability, "sync") == 0;
	return rc;
}

/* Resumes read a table's pages at random (thread IDs are random): no
 * read-ahead, so a page missing from the operating system's file cache
 * costs one page of disk, not a window of neighbours that evict pages
 * still wanted (at a million stored threads, half the bytes read). */
static void store_db_random(DB *db)
{
	int fd;

	if (db->fd(db, &fd) == 0)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
}

/* The page size of threads.db when it holds all of a thread's records
 * (it applies when the file is made): a thread's records (2 to 4 KiB)
 * share a page, and the B-tree is a level shallower and its internal
 * pages few enough to stay cached, so resuming a thread whose pages the
 * operating system dropped reads one page from the disk, not one leaf
 * and one internal page. Measured the same as 4 KiB pages at 1,000
 * stored threads (bench/run). */
#define BDB_THREADS_PAGE 16384

/* A store made before a thread's records shared one B-tree has ckpts.db. */
static int store_one_tree(const char *dir)
{
	char path[4200];

	snprintf(path, sizeof path, "%s/ckpts.db", dir);
	return access(path, F_OK) != 0;
}

/* The databases, created on first use in one transaction each, so many
 * workers starting at once agree. */
static int store_open_dbs(struct store *s)
{
	static const char *const files[STORE_NTABLES] = {
		[STORE_T_THREADS] = "threads.db", [STORE_T_CKPTS] = "ckpts.db",
		[STORE_T_EVENTS] = "events.db", [STORE_T_ASSETS] = "assets.db",
		[STORE_T_EXPIRY] = "expiry.db", [STORE_T_CACHE] = "cache.db",
	};
	struct bdb *b = BDB(s);
	int rc = 0;

	b->one_tree = store_one_tree(s->conf->store_dir);
	for (size_t i = 0; i < STORE_NTABLES && rc == 0; i++) {
		if (b->one_tree && (i == STORE_T_CKPTS || i == STORE_T_EVENTS || i == STORE_T_ASSETS))
			continue;
		rc = db_create(&b->db[i], b->env, 0);
		if (rc == 0 && i == STORE_T_THREADS && b->one_tree)
			rc = b->db[i]->set_pagesize(b->db[i], BDB_THREADS_PAGE);
		if (rc == 0)
			rc = b->db[i]->open(b->db[i], NULL, files[i], NULL, DB_BTREE,
					    DB_CREATE | DB_AUTO_COMMIT | DB_THREAD, STORE_FILE_MODE);
		if (rc == 0)
			store_db_random(b->db[i]);
	}
	return rc;
}

static void store_env_close(struct store *s);

static void store_close_dbs(struct store *s)
{
	struct bdb *b = BDB(s);

	for (size_t i = 0; i < STORE_NTABLES; i++) {
		if (b->db[i])
			b->db[i]->close(b->db[i], 0);
		b->db[i] = NULL;
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
	int rc = db_env_create(&BDB(s)->env, 0);

	if (rc == 0)
		rc = store_configure(s, s->conf);
	if (rc == 0)
		rc = BDB(s)->env->open(BDB(s)->env, s->conf->store_dir, flags, STORE_FILE_MODE);
	if (rc == 0 && (rc = BDB(s)->env->failchk(BDB(s)->env, 0)) != 0 && rc != DB_RUNRECOVERY)
		rc = BDB(s)->env->failchk(BDB(s)->env, 0);
	if (rc != 0)
		log_warn("failchk before opening the store: %s", db_strerror(rc));
	if (BDB(s)->env)
		BDB(s)->env->close(BDB(s)->env, 0);
	BDB(s)->env = NULL;
	return rc;
}

/* store_env_failchk in a child process, given STORE_FAILCHK_WAIT_MS: a
 * process killed while it held one of the environment's mutexes leaves
 * it held for good, and joining the environment then waits for it
 * forever. 0 when failchk ran clean; -1 when it could not (the child was
 * stopped, or failchk wants recovery): the open then recovers.
 *
 * The child lets go of the directory lock it inherits (lock: the parent
 * holds it) and dies with its parent: a parent killed while it waits must
 * not leave a child stuck on that mutex and holding the lock, which kept
 * every other worker from opening the store. */
static int store_env_failchk_bounded(struct store *s, int lock)
{
	long long until = clock_mono_ms() + STORE_FAILCHK_WAIT_MS;
	int status = 0;
	pid_t parent = getpid(), pid = fork(), got;

	if (pid == 0) {
		close(lock);
#ifdef HAVE_SYS_PRCTL_H
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		if (getppid() != parent)
			_exit(1);
		_exit(store_env_failchk(s) == 0 ? 0 : 1);
	}
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
	if (store_env_in_use(s->conf->store_dir, &pid) > 0 && store_env_failchk_bounded(s, lock) == 0)
		flags |= DB_FAILCHK;
	rc = db_env_create(&BDB(s)->env, 0);
	if (rc == 0)
		rc = store_configure(s, s->conf);
	if (rc == 0)
		rc = BDB(s)->env->open(BDB(s)->env, s->conf->store_dir, flags, STORE_FILE_MODE);
	close(lock);
	if (rc == 0)
		rc = store_open_dbs(s);
	if (rc != 0)
		store_env_close(s);
	return rc;
}

static void store_env_close(struct store *s)
{
	bdb_ckpt_stop(s);
	store_close_dbs(s);
	if (BDB(s)->env)
		BDB(s)->env->close(BDB(s)->env, 0);
	BDB(s)->env = NULL;
}

int bdb_open(struct store *s, char *err, size_t errlen)
{
	const struct conf *c = s->conf;
	char path[4200];
	int rc, fresh;

	store_umask_apply(c);
	if (mkdir(c->store_dir, STORE_DIR_MODE) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", c->store_dir, strerror(errno));
		return STORE_ERROR;
	}
	snprintf(path, sizeof path, "%s/threads.db", c->store_dir);
	fresh = access(path, F_OK) != 0;
	s->version_found = store_version_check(c->store_dir, err, errlen);
	if (s->version_found < 0)
		return STORE_ERROR;
	s->be = xcalloc(1, sizeof(struct bdb));
	rc = store_env_open(s);
	if (rc != 0) {
		snprintf(err, errlen, "cannot open the store in %s: %s", c->store_dir, db_strerror(rc));
		bdb_close(s);
		return STORE_ERROR;
	}
	if (s->version_found != STORE_VERSION &&
	    store_version_write(c->store_dir, STORE_VERSION, err, errlen) < 0) {
		bdb_close(s);
		return STORE_ERROR;
	}
	if (s->version_found != STORE_VERSION && !fresh)
		log_info("the store in %s was version %d: its records are read as they are, and it "
			 "is marked version %d", c->store_dir, s->version_found, STORE_VERSION);
	/* A recovery this open ran panics the other processes' handles, not
	 * this new one. */
	s->panicked = 0;
	BDB(s)->last_failchk_ms = clock_mono_ms();
	return 0;
}

void bdb_close(struct store *s)
{
	if (s->be == NULL)
		return;
	store_env_close(s);
	free(s->be);
	s->be = NULL;
}

int bdb_reopen(struct store *s)
{
	int rc;

	store_env_close(s);
	rc = store_env_open(s);
	if (rc != 0) {
		log_error("the Berkeley DB environment could not be reopened: %s", db_strerror(rc));
		return STORE_UNAVAILABLE;
	}
	return 0;
}

int bdb_rc(int rc, const char *what)
{
	switch (rc) {
	case 0:
		return 0;
	case DB_NOTFOUND:
		return STORE_NOTFOUND;
	case DB_KEYEXIST:
		return STORE_EXISTS;
	case DB_LOCK_DEADLOCK:
		return STORE_RETRY;
	case DB_LOCK_NOTGRANTED:
		return STORE_BUSY;
	case DB_RUNRECOVERY:
		return STORE_UNAVAILABLE;
	case ENOSPC:
		return STORE_FULL;
	}
	if (rc > 0)
		return rc;
	log_error("berkeley db: %s: %s", what, db_strerror(rc));
	return STORE_ERROR;
}

int bdb_begin(struct store *s, struct store_txn *t)
{
	DB_TXN *txn = NULL;
	int rc;

	if (BDB(s)->env == NULL)
		return STORE_UNAVAILABLE;
	rc = BDB(s)->env->txn_begin(BDB(s)->env, NULL, &txn, 0);
	t->h = txn;
	return bdb_rc(rc, "beginning a transaction");
}

int bdb_commit(struct store_txn *t)
{
	DB_TXN *txn = t->h;
	int rc = txn->commit(txn, 0);

	t->h = NULL;
	if (rc == 0)
		BDB(t->s)->commits++;
	return bdb_rc(rc, "committing");
}

void bdb_abort(struct store_txn *t)
{
	DB_TXN *txn = t->h;

	if (txn)
		txn->abort(txn);
	t->h = NULL;
}

/* A lock held too long may belong to a dead process: release it. */
int bdb_before_retry(struct store *s, int rc)
{
	if (rc == STORE_BUSY && BDB(s)->env->failchk(BDB(s)->env, 0) == DB_RUNRECOVERY)
		return STORE_UNAVAILABLE;
	return 0;
}

void bdb_maintain(struct store *s)
{
	struct bdb *b = BDB(s);
	long long now = clock_mono_ms();
	int rc = 0;

	if (b->env == NULL)
		return;
	/* Checkpoints (which flush the cache and let old logs go) run in a
	 * thread of their own; here its failures are reported. */
	if (b->ck == NULL && (rc = bdb_ckpt_start(s)) != 0)
		log_warn("cannot start the checkpoint thread: %s", strerror(rc));
	if (b->commits >= BDB_POKE_COMMITS) {
		bdb_ckpt_poke(s);
		b->commits = 0;
	}
	rc = bdb_ckpt_failure(s);
	/* A dead process's transactions and locks are released here too. */
	if (rc == 0 && now - b->last_failchk_ms >= STORE_FAILCHK_MS) {
		b->last_failchk_ms = now;
		rc = b->env->failchk(b->env, 0);
	}
	if (rc == DB_RUNRECOVERY)
		s->panicked = 1;
	else if (rc != 0)
		log_warn("store maintenance: %s", db_strerror(rc));
}

const struct store_ops store_bdb_ops = {
	.open = bdb_open,
	.close = bdb_close,
	.reopen = bdb_reopen,
	.begin = bdb_begin,
	.commit = bdb_commit,
	.abort = bdb_abort,
	.before_retry = bdb_before_retry,
	.maintain = bdb_maintain,
	.get = bdb_get,
	.put = bdb_put,
	.del = bdb_del,
	.scan = bdb_scan,
	.del_range = bdb_del_range,
	.stats = bdb_stats,
	.backup = bdb_backup,
};
