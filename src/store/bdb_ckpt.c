/* Berkeley DB checkpoints in a thread of the worker's own, never on the
 * request path.
 *
 * A checkpoint writes the cache's dirty pages; a page another process's
 * transaction holds at that moment makes Berkeley DB 5.3 sleep a whole
 * second and look again, holding its checkpoint mutex. Asked for between
 * two requests, that second kept the worker from the next one, and every
 * other worker that asked meanwhile queued on the mutex: with two busy
 * workers, both stood still about once per checkpoint. Here a thread asks
 * every BDB_CKPT_EVERY_MS; the one process that holds a lock on
 * threads.db runs it (the others skip), and Berkeley DB itself checkpoints
 * only once STORE_CKPT_KBYTES of log were written since the last one.
 *
 * The environment is opened DB_THREAD, so the thread may use it beside the
 * request path (bdb_maintain wakes it every 64 commits, so
 * a fast stream of commits does not outrun it). It blocks every signal (they stay the main thread's), it
 * never logs (the log belongs to the main thread, which reports what the
 * thread saw from bdb_maintain), and it is stopped before the environment
 * is closed. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include "store/bdb.h"
#include "util/xmalloc.h"

#define BDB_CKPT_EVERY_MS 500
/* A checkpoint that took this long waited on pages: the log written
 * meanwhile is kept until the next one, so the next is not left for 2 MiB
 * more of log (which a burst that stopped would never write). */
#define BDB_CKPT_SLOW_MS 200

struct bdb_ckpt {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	int poked;
	int force;            /* the last checkpoint was slow: force the next */
	int fd;               /* threads.db, flock()ed while checkpointing */
	DB_ENV *env;
	int rc;               /* the last failure, for the main thread; 0: none */
};

static void bdb_ckpt_deadline(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_nsec += (long)(BDB_CKPT_EVERY_MS % 1000) * 1000000L;
	ts->tv_sec += BDB_CKPT_EVERY_MS / 1000 + ts->tv_nsec / 1000000000L;
	ts->tv_nsec %= 1000000000L;
}

static long long bdb_ckpt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void bdb_ckpt_once(struct bdb_ckpt *ck)
{
	long long t0;
	int rc;

	if (ck->fd >= 0 && flock(ck->fd, LOCK_EX | LOCK_NB) < 0)
		return;
	t0 = bdb_ckpt_now_ms();
	rc = ck->env->txn_checkpoint(ck->env, ck->force ? 0 : STORE_CKPT_KBYTES, 0,
				     ck->force ? DB_FORCE : 0);
	ck->force = bdb_ckpt_now_ms() - t0 >= BDB_CKPT_SLOW_MS;
	if (ck->fd >= 0)
		flock(ck->fd, LOCK_UN);
	if (rc != 0)
		__atomic_store_n(&ck->rc, rc, __ATOMIC_RELAXED);
}

static void *bdb_ckpt_main(void *p)
{
	struct bdb_ckpt *ck = p;
	struct timespec due;

	pthread_mutex_lock(&ck->mu);
	while (!ck->stop) {
		bdb_ckpt_deadline(&due);
		while (!ck->stop && !ck->poked &&
		       pthread_cond_timedwait(&ck->cv, &ck->mu, &due) != ETIMEDOUT)
			;
		if (ck->stop)
			break;
		ck->poked = 0;
		pthread_mutex_unlock(&ck->mu);
		bdb_ckpt_once(ck);
		pthread_mutex_lock(&ck->mu);
		if (__atomic_load_n(&ck->rc, __ATOMIC_RELAXED) == DB_RUNRECOVERY)
			break;   /* the main thread reopens the environment */
	}
	pthread_mutex_unlock(&ck->mu);
	return NULL;
}

int bdb_ckpt_start(struct store *s)
{
	struct bdb *b = BDB(s);
	struct bdb_ckpt *ck;
	pthread_condattr_t ca;
	sigset_t all, old;
	char path[4200];
	int rc;

	if (b->ck || b->env == NULL)
		return 0;
	ck = xcalloc(1, sizeof *ck);
	ck->env = b->env;
	snprintf(path, sizeof path, "%s/threads.db", s->conf->store_dir);
	ck->fd = open(path, O_RDONLY | O_CLOEXEC);
	pthread_mutex_init(&ck->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ck->cv, &ca);
	pthread_condattr_destroy(&ca);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&ck->th, NULL, bdb_ckpt_main, ck);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		if (ck->fd >= 0)
			close(ck->fd);
		pthread_cond_destroy(&ck->cv);
		pthread_mutex_destroy(&ck->mu);
		free(ck);
		return rc;
	}
	b->ck = ck;
	return 0;
}

int bdb_ckpt_failure(struct store *s)
{
	struct bdb_ckpt *ck = BDB(s)->ck;

	return ck ? __atomic_exchange_n(&ck->rc, 0, __ATOMIC_RELAXED) : 0;
}

/* Sets one of the thread's flags (poked, stop) and wakes it. */
static void bdb_ckpt_tell(struct bdb_ckpt *ck, int *flag)
{
	pthread_mutex_lock(&ck->mu);
	*flag = 1;
	pthread_cond_signal(&ck->cv);
	pthread_mutex_unlock(&ck->mu);
}

void bdb_ckpt_poke(struct store *s)
{
	struct bdb_ckpt *ck = BDB(s)->ck;

	if (ck)
		bdb_ckpt_tell(ck, &ck->poked);
}

void bdb_ckpt_stop(struct store *s)
{
	struct bdb_ckpt *ck = BDB(s)->ck;

	if (ck == NULL)
		return;
	bdb_ckpt_tell(ck, &ck->stop);
	pthread_join(ck->th, NULL);
	if (ck->fd >= 0)
		close(ck->fd);
	pthread_cond_destroy(&ck->cv);
	pthread_mutex_destroy(&ck->mu);
	free(ck);
	BDB(s)->ck = NULL;
}
