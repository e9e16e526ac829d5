/* The prefork parent (-w N): the process a web server or a service
 * manager starts keeps the listening socket and forks N workers that all
 * accept on it. A worker killed in the middle of a request loses that
 * request only: connections still waiting in the socket's queue go to the
 * next worker that accepts, which a socket per worker cannot offer.
 *
 * The parent does nothing but wait for signals: it never opens the store
 * or a library that keeps state, so each child starts up as a fresh
 * worker. Signals are blocked and taken with sigtimedwait(), which leaves
 * no window between checking for work and waiting for it. */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include "heir.h"
#include "prefork.h"
#include "util/clock.h"
#include "util/log.h"

/* A child that lived less than this died young: the next start waits
 * PREFORK_DELAY_MS, doubled for each further young death up to
 * PREFORK_DELAY_MAX_MS, so a worker that cannot start does not spin. */
#define PREFORK_YOUNG_MS 2000
#define PREFORK_DELAY_MS 100
#define PREFORK_DELAY_MAX_MS 10000

struct prefork_slot {
	pid_t pid;			/* 0: not running */
	long long started_ms;
	long long due_ms;		/* when to start it again */
	int young_deaths;
};

static sigset_t prefork_old_mask;

static void prefork_signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGUSR1);
}

/* In the child: the parent's blocked signals back as they were, and
 * PREFORK_PARENT_GONE if the parent goes away (see prefork.h). */
static void prefork_child_setup(pid_t parent)
{
	sigprocmask(SIG_SETMASK, &prefork_old_mask, NULL);
#ifdef HAVE_SYS_PRCTL_H
	prctl(PR_SET_PDEATHSIG, PREFORK_PARENT_GONE);
#endif
	if (getppid() != parent)
		raise(PREFORK_PARENT_GONE);
}

/* Returns 1 in the new child, 0 in the parent (also when fork failed:
 * the slot is tried again later). */
static int prefork_spawn(struct prefork_slot *s, long long now)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid == 0) {
		prefork_child_setup(parent);
		return 1;
	}
	if (pid < 0) {
		log_error("cannot fork a worker: %s", strerror(errno));
		s->due_ms = now + PREFORK_DELAY_MAX_MS;
		return 0;
	}
	s->pid = pid;
	s->started_ms = now;
	log_info("worker %ld started", (long)pid);
	return 0;
}

static void prefork_log_end(pid_t pid, int status)
{
	if (WIFSIGNALED(status))
		log_error("worker %ld killed by signal %d", (long)pid, WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		log_error("worker %ld exited with status %d", (long)pid, WEXITSTATUS(status));
	else
		log_info("worker %ld exited", (long)pid);
}

static void prefork_ended(struct prefork_slot *s, int status, long long now)
{
	int delay = 0;

	prefork_log_end(s->pid, status);
	if (now - s->started_ms < PREFORK_YOUNG_MS) {
		int shift = s->young_deaths < 7 ? s->young_deaths : 7;

		delay = PREFORK_DELAY_MS << shift;
		if (delay > PREFORK_DELAY_MAX_MS)
			delay = PREFORK_DELAY_MAX_MS;
		s->young_deaths++;
	} else {
		s->young_deaths = 0;
	}
	s->pid = 0;
	s->due_ms = now + delay;
}

/* Reaps every child that ended; returns how many. */
static int prefork_reap(struct prefork_slot *slots, int n, long long now)
{
	int status, count = 0;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (int i = 0; i < n; i++) {
			if (slots[i].pid == pid) {
				prefork_ended(&slots[i], status, now);
				count++;
				break;
			}
		}
	}
	return count;
}

/* Starts the slots that are due; returns 1 in a new child. Sets *wait_ms
 * to the time until the next slot is due (-1: none waits). */
static int prefork_fill(struct prefork_slot *slots, int n, long long *wait_ms)
{
	long long now = clock_mono_ms();

	*wait_ms = -1;
	for (int i = 0; i < n; i++) {
		if (slots[i].pid != 0)
			continue;
		if (slots[i].due_ms <= now) {
			if (prefork_spawn(&slots[i], now))
				return 1;
		}
		if (slots[i].pid == 0 &&
		    (*wait_ms < 0 || slots[i].due_ms - now < *wait_ms))
			*wait_ms = slots[i].due_ms - now;
	}
	return 0;
}

/* Waits for a signal at most wait_ms (-1: one second, to look again). */
static int prefork_wait(const sigset_t *set, long long wait_ms)
{
	struct timespec ts;

	if (wait_ms < 0 || wait_ms > 1000)
		wait_ms = 1000;
	ts.tv_sec = (time_t)(wait_ms / 1000);
	ts.tv_nsec = (long)(wait_ms % 1000) * 1000000L;
	return sigtimedwait(set, NULL, &ts);
}

/* Passes sig on to every child and waits until all have ended. */
static void prefork_stop(struct prefork_slot *slots, int n, int sig)
{
	int left = 0, status;
	pid_t pid;

	log_info("stopping %d workers", n);
	for (int i = 0; i < n; i++) {
		if (slots[i].pid != 0) {
			kill(slots[i].pid, sig == SIGUSR1 ? SIGUSR1 : SIGTERM);
			left++;
		}
	}
	while (left > 0 && (pid = waitpid(-1, &status, 0)) != -1) {
		for (int i = 0; i < n; i++) {
			if (slots[i].pid == pid) {
				slots[i].pid = 0;
				left--;
			}
		}
	}
}

int prefork_run(int n, int *is_child)
{
	static struct prefork_slot slots[PREFORK_MAX];
	sigset_t set;
	long long wait_ms;
	int sig = 0;

	*is_child = 0;
	if (n < 1 || n > PREFORK_MAX) {
		log_error("the number of workers must be 1 to %d, not %d", PREFORK_MAX, n);
		return 2;
	}
	prefork_signal_set(&set);
	sigprocmask(SIG_BLOCK, &set, &prefork_old_mask);
	memset(slots, 0, sizeof slots);
	log_info("prefork parent: %d workers", n);
	while (sig != SIGTERM && sig != SIGINT && sig != SIGUSR1) {
		if (prefork_fill(slots, n, &wait_ms)) {
			*is_child = 1;
			return 0;
		}
		sig = prefork_wait(&set, wait_ms);
		if (sig == SIGCHLD || sig < 0)
			prefork_reap(slots, n, clock_mono_ms());
		if (sig < 0 && heir_orphaned())
			sig = SIGTERM;
	}
	prefork_stop(slots, n, sig);
	sigprocmask(SIG_SETMASK, &prefork_old_mask, NULL);
	log_info("prefork parent stopped");
	return 0;
}
