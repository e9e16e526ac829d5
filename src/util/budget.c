/* Work in a child process under a CPU, memory and time budget (see
 * budget.h). The child speaks once: a 4-byte header (what the work
 * returned) and then its result, or its error message; the pipe's end of
 * file says it is done. The parent's verdict comes from how the child
 * ended (wait4 gives the signal and the CPU it used), from what it said
 * on its standard error (a second pipe: how an allocator that failed says
 * so) and from what the parent itself did to it (killed it when the time
 * was up, the client left or the answer grew past its cap). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include "util/budget.h"
#include "util/clock.h"

/* AddressSanitizer's shadow and allocator reserve terabytes of address
 * space: there the memory limit is RLIMIT_DATA, which counts only the
 * writable private mappings made after the child starts. Its heap, mapped
 * before, grows past it unseen: in such a build (tests, never a
 * deployment) the CPU and time limits alone stop a child that allocates. */
#if defined(__SANITIZE_ADDRESS__)
#define BUDGET_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUDGET_ASAN 1
#endif
#endif
#ifdef BUDGET_ASAN
#define BUDGET_RLIMIT_MEM RLIMIT_DATA
#else
#define BUDGET_RLIMIT_MEM RLIMIT_AS
#endif

/* The header before the result: what the work returned. */
#define BUDGET_HEAD 4
/* An error message from the child, at most. */
#define BUDGET_ERR_MAX 512

static struct {
	long cpu_ms;
	long long memory_bytes;
	long time_ms;
	int client_fd;
	void (*tick)(void *ctx);
	int (*stop)(void *ctx);
	void *ctx;
} budget_proc = { 10000, 512LL << 20, 20000, -1, NULL, NULL, NULL };

void budget_configure(long cpu_ms, long long memory_bytes, long time_ms)
{
	budget_proc.cpu_ms = cpu_ms;
	budget_proc.memory_bytes = memory_bytes;
	budget_proc.time_ms = time_ms;
}

void budget_watch(int client_fd)
{
	budget_proc.client_fd = client_fd;
}

void budget_ticker(void (*tick)(void *ctx), int (*stop)(void *ctx), void *ctx)
{
	budget_proc.tick = tick;
	budget_proc.stop = stop;
	budget_proc.ctx = ctx;
}

/* The ticker's turn: 1 when it asks the work to stop. */
static int budget_tick(long long *next)
{
	long long now = clock_mono_ms();

	if (now < *next)
		return 0;
	*next = now + BUDGET_TICK_MS;
	if (budget_proc.tick)
		budget_proc.tick(budget_proc.ctx);
	return budget_proc.stop && budget_proc.stop(budget_proc.ctx);
}

void budget_current(struct budget *b, size_t max_result)
{
	b->cpu_ms = budget_proc.cpu_ms;
	b->memory_bytes = budget_proc.memory_bytes;
	b->time_ms = budget_proc.time_ms;
	b->client_fd = budget_proc.client_fd;
	b->max_result = max_result;
}

int budget_exceeded(int rc)
{
	return rc == BUDGET_OVER_CPU || rc == BUDGET_OVER_MEMORY || rc == BUDGET_OVER_TIME;
}

/* The memory the process holds now, as its limit counts it: the address
 * space (statm's size), or under AddressSanitizer data and stack. */
static unsigned long long budget_base(void)
{
	unsigned long size = 0, rss, shared, text, lib, data = 0;
	FILE *f = fopen("/proc/self/statm", "re");
	long page = sysconf(_SC_PAGESIZE);

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu %lu %lu %lu %lu", &size, &rss, &shared, &text, &lib, &data) != 6)
		size = data = 0;
	fclose(f);
#ifdef BUDGET_ASAN
	return (unsigned long long)data * (unsigned long long)page;
#else
	return (unsigned long long)size * (unsigned long long)page;
#endif
}

/* Lowers a limit of the child to v (never above the hard limit it has). */
static void budget_lower(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) == 0 && rl.rlim_max != RLIM_INFINITY) {
		if (hard > rl.rlim_max)
			hard = rl.rlim_max;
		if (soft > hard)
			soft = hard;
	}
	rl.rlim_cur = soft;
	rl.rlim_max = hard;
	setrlimit(resource, &rl);
}

/* The child's signals as a fresh process has them: the worker's handlers
 * (stop after the request, a prefork parent gone) and any sanitizer's or
 * fuzzer's would keep it alive or make it write files. */
static void budget_child_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGPIPE, SIGXCPU,
				    SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM, SIGCHLD };
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void budget_child_limits(const struct budget *b, unsigned long long base)
{
	budget_lower(RLIMIT_CORE, 0, 0);
	if (b->cpu_ms > 0) {
		rlim_t s = (rlim_t)((b->cpu_ms + 999) / 1000);

		/* SIGXCPU at the limit; SIGKILL a second later if it is caught. */
		budget_lower(RLIMIT_CPU, s, s + 1);
	}
	if (b->memory_bytes > 0)
		budget_lower(BUDGET_RLIMIT_MEM, (rlim_t)(base + (unsigned long long)b->memory_bytes),
			     (rlim_t)(base + (unsigned long long)b->memory_bytes));
}

static void budget_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			_exit(3);
		c += k;
		n -= (size_t)k;
	}
}

/* The child: limits, the work, the answer, _exit. Never returns. */
__attribute__((noreturn))
static void budget_child(const struct budget *b, unsigned long long base, pid_t parent, int wfd,
			 budget_fn fn, void *arg)
{
	char err[BUDGET_ERR_MAX] = "";
	struct buf out;
	int32_t rc;

	budget_child_signals();
#ifdef HAVE_SYS_PRCTL_H
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_DUMPABLE, 0);
#endif
	if (getppid() != parent)
		_exit(2);
	budget_child_limits(b, base);
	buf_init(&out, b->max_result);
	rc = fn(arg, &out, err, sizeof err);
	budget_write_all(wfd, &rc, sizeof rc);
	if (rc == 0)
		budget_write_all(wfd, out.data, out.len);
	else
		budget_write_all(wfd, err, strnlen(err, sizeof err));
	_exit(0);
}

/* Why the parent stopped the child, before it ended by itself. */
enum budget_kill { BUDGET_KILL_NONE, BUDGET_KILL_TIME, BUDGET_KILL_GONE, BUDGET_KILL_SIZE,
		   BUDGET_KILL_IO };

/* The end of what the child wrote to its standard error: how a library
 * that gives up says why (an allocation that failed, a heap found
 * corrupt). */
struct budget_said {
	char text[1024];
	size_t len;
};

/* Reads what the child's standard error (fd, non-blocking) has, keeping
 * the last bytes; -1 at its end. */
static int budget_hear(int fd, struct budget_said *s)
{
	char chunk[4096];
	ssize_t k = read(fd, chunk, sizeof chunk);
	size_t n, keep = sizeof s->text - 1;

	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (k <= 0)
		return -1;
	n = (size_t)k > keep ? keep : (size_t)k;
	if (s->len + n > keep) {
		memmove(s->text, s->text + (s->len + n - keep), keep - n);
		s->len = keep - n;
	}
	memcpy(s->text + s->len, chunk + (size_t)k - n, n);
	s->len += n;
	s->text[s->len] = '\0';
	return 0;
}

/* One read of the answer into got: 1 at its end, 0, or why to stop. */
static int budget_take(int rfd, struct buf *got, enum budget_kill *why)
{
	char chunk[16384];
	ssize_t k = read(rfd, chunk, sizeof chunk);

	if (k == 0)
		return 1;
	if (k < 0 && errno != EINTR && errno != EAGAIN)
		*why = BUDGET_KILL_IO;
	else if (k > 0 && buf_add(got, chunk, (size_t)k) < 0)
		*why = BUDGET_KILL_SIZE;
	return 0;
}

/* Reads the child's answer into got until its end, and its standard
 * error into said, watching the clock and the client; kills the child
 * when it must stop. */
static enum budget_kill budget_read(const struct budget *b, int rfd, int efd, pid_t pid,
				    struct buf *got, struct budget_said *said)
{
	long long deadline = b->time_ms > 0 ? clock_mono_ms() + b->time_ms : 0;
	struct pollfd p[3] = { { rfd, POLLIN, 0 }, { efd, POLLIN, 0 },
			       { b->client_fd, POLLRDHUP, 0 } };
	nfds_t nfds = b->client_fd >= 0 ? 3 : 2;
	enum budget_kill why = BUDGET_KILL_NONE;
	long long next_tick = clock_mono_ms() + BUDGET_TICK_MS;

	while (why == BUDGET_KILL_NONE) {
		long long left = deadline ? deadline - clock_mono_ms() : -1;
		int n;

		if (deadline && left <= 0) {
			why = BUDGET_KILL_TIME;
			break;
		}
		if (budget_tick(&next_tick)) {
			why = BUDGET_KILL_GONE;
			break;
		}
		n = poll(p, nfds, deadline && left < BUDGET_TICK_MS ? (int)left : BUDGET_TICK_MS);
		if (n < 0 && errno != EINTR)
			why = BUDGET_KILL_IO;
		if (n <= 0)
			continue;
		if (p[1].revents && budget_hear(efd, said) < 0)
			p[1].fd = -1;  /* its end: poll no more */
		if (nfds == 3 && (p[2].revents & POLLNVAL))
			nfds = 2;      /* not a descriptor: nothing to watch */
		else if (nfds == 3 && (p[2].revents & (POLLRDHUP | POLLHUP | POLLERR)))
			why = BUDGET_KILL_GONE;
		if (why == BUDGET_KILL_NONE && p[0].revents && budget_take(rfd, got, &why))
			return BUDGET_KILL_NONE;
	}
	kill(pid, SIGKILL);
	return why;
}

/* Reaps pid: 0 with its status and CPU time, or -1 (nothing to reap: the
 * process ignores SIGCHLD and the kernel reaped it). */
static int budget_reap(pid_t pid, int *status, long long *cpu_ms)
{
	struct rusage ru;
	pid_t got;

	memset(&ru, 0, sizeof ru);
	while ((got = wait4(pid, status, 0, &ru)) < 0 && errno == EINTR)
		;
	*cpu_ms = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
		  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	return got == pid ? 0 : -1;
}

/* Whether what the child said names an allocation that failed: xmalloc,
 * Rust, GLib, C++, AddressSanitizer, or a thread whose stack could not be
 * mapped. */
static int budget_said_memory(const struct budget_said *said)
{
	static const char *const marks[] = { "out of memory", "memory allocation of",
		"failed to allocate", "trying to allocate", "bad_alloc", "Cannot allocate memory",
		"Thread creation failed", "allocation-size-too-big" };

	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (strstr(said->text, marks[i]))
			return 1;
	return 0;
}

/* The last line the child said, for a message: p and its length. */
static int budget_said_last(const struct budget_said *said, const char **p)
{
	size_t end = said->len, start;

	while (end > 0 && (said->text[end - 1] == '\n' || said->text[end - 1] == ' '))
		end--;
	start = end;
	while (start > 0 && said->text[start - 1] != '\n')
		start--;
	*p = said->text + start;
	return (int)(end - start > 200 ? 200 : end - start);
}

/* The verdict on a child that the parent did not stop. */
static int budget_ended(const struct budget *b, int status, long long cpu_ms, size_t got,
			const struct budget_said *said, char *err, size_t errlen)
{
	long cpu_s = b->cpu_ms > 0 ? (b->cpu_ms + 999) / 1000 : 0;
	const char *last;
	int n;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got >= BUDGET_HEAD)
		return BUDGET_OK;
	if (WIFSIGNALED(status) && cpu_s > 0 && (WTERMSIG(status) == SIGXCPU ||
	    (WTERMSIG(status) == SIGKILL && cpu_ms >= cpu_s * 1000 - 500))) {
		snprintf(err, errlen, "stopped at its limit of %ld s of CPU time", cpu_s);
		return BUDGET_OVER_CPU;
	}
	if (b->memory_bytes > 0 && budget_said_memory(said)) {
		snprintf(err, errlen, "stopped: it needed more than its %lld MiB of memory",
			 b->memory_bytes >> 20);
		return BUDGET_OVER_MEMORY;
	}
	n = budget_said_last(said, &last);
	if (WIFSIGNALED(status))
		snprintf(err, errlen, "the work crashed (signal %d, %s)%s%.*s", WTERMSIG(status),
			 strsignal(WTERMSIG(status)), n ? ": " : "", n, last);
	else
		snprintf(err, errlen, "the work ended without an answer (exit status %d)%s%.*s",
			 WEXITSTATUS(status), n ? ": " : "", n, last);
	return BUDGET_FAILED;
}

/* The verdict on a child the parent stopped. */
static int budget_stopped(const struct budget *b, enum budget_kill why, char *err, size_t errlen)
{
	switch (why) {
	case BUDGET_KILL_TIME:
		snprintf(err, errlen, "stopped after %ld ms, its time limit", b->time_ms);
		return BUDGET_OVER_TIME;
	case BUDGET_KILL_GONE:
		snprintf(err, errlen, "stopped: the client left or the run was stopped");
		return BUDGET_CLIENT_GONE;
	case BUDGET_KILL_SIZE:
		snprintf(err, errlen, "stopped: the result passed %zu bytes", b->max_result);
		return BUDGET_FAILED;
	default:
		snprintf(err, errlen, "stopped: its answer could not be read");
		return BUDGET_FAILED;
	}
}

/* The answer of a child that ended by itself, handed over. */
static int budget_answer(const struct buf *got, struct buf *out, int *work_rc, char *err,
			 size_t errlen)
{
	int32_t rc;

	memcpy(&rc, got->data, sizeof rc);
	*work_rc = rc;
	if (rc != 0) {
		snprintf(err, errlen, "%.*s", (int)(got->len - BUDGET_HEAD), got->data + BUDGET_HEAD);
		return BUDGET_OK;
	}
	if (buf_add(out, got->data + BUDGET_HEAD, got->len - BUDGET_HEAD) < 0) {
		snprintf(err, errlen, "the result (%zu bytes) does not fit the space given",
			 got->len - BUDGET_HEAD);
		return BUDGET_FAILED;
	}
	return BUDGET_OK;
}

/* The child's end: its standard error to efd, then the work. */
__attribute__((noreturn))
static void budget_fork_child(const struct budget *b, unsigned long long base, pid_t parent,
			      const int fds[2], const int efds[2], budget_fn fn, void *arg)
{
	close(fds[0]);
	close(efds[0]);
	if (dup2(efds[1], 2) < 0)
		_exit(2);
	close(efds[1]);
	budget_child(b, base, parent, fds[1], fn, arg);
}

/* Two pipes, the answer's (fds) and the child's standard error's (efds,
 * whose reading end does not block): 0, or -1 with neither. */
static int budget_pipes(int fds[2], int efds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(efds, O_CLOEXEC) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	fcntl(efds[0], F_SETFL, fcntl(efds[0], F_GETFL) | O_NONBLOCK);
	return 0;
}

static void budget_close_all(const int fds[2], const int efds[2])
{
	close(fds[0]);
	close(fds[1]);
	close(efds[0]);
	close(efds[1]);
}

/* Waits for the child's answer, reaps it and gives the verdict. */
static int budget_collect(const struct budget *b, pid_t pid, int rfd, int efd, struct buf *out,
			  int *work_rc, char *err, size_t errlen)
{
	size_t cap = (b->max_result > BUDGET_ERR_MAX ? b->max_result : BUDGET_ERR_MAX) + BUDGET_HEAD;
	struct budget_said said = { "", 0 };
	long long cpu_ms = 0;
	enum budget_kill why;
	struct buf got;
	int status = 0, rc;

	buf_init(&got, cap);
	why = budget_read(b, rfd, efd, pid, &got, &said);
	if (budget_reap(pid, &status, &cpu_ms) < 0 && why == BUDGET_KILL_NONE)
		status = got.len >= BUDGET_HEAD ? 0 : W_EXITCODE(1, 0);
	/* The child is gone: what is left of its standard error, to its end. */
	for (int i = 0; i < 64 && budget_hear(efd, &said) == 0; i++)
		;
	if (why != BUDGET_KILL_NONE)
		rc = budget_stopped(b, why, err, errlen);
	else
		rc = budget_ended(b, status, cpu_ms, got.len, &said, err, errlen);
	if (rc == BUDGET_OK)
		rc = budget_answer(&got, out, work_rc, err, errlen);
	buf_free(&got);
	return rc;
}

int budget_run(const struct budget *b, budget_fn fn, void *arg, struct buf *out, int *work_rc,
	       char *err, size_t errlen)
{
	unsigned long long base = b->memory_bytes > 0 ? budget_base() : 0;
	pid_t parent = getpid(), pid;
	int fds[2], efds[2], rc;

	*work_rc = -1;
	if (budget_pipes(fds, efds) < 0) {
		snprintf(err, errlen, "no pipe for the work: %s", strerror(errno));
		return BUDGET_NO_CHILD;
	}
	pid = fork();
	if (pid == 0)
		budget_fork_child(b, base, parent, fds, efds, fn, arg);
	if (pid < 0) {
		int e = errno;

		budget_close_all(fds, efds);
		snprintf(err, errlen, "no process for the work: %s", strerror(e));
		return BUDGET_NO_CHILD;
	}
	close(fds[1]);
	close(efds[1]);
	rc = budget_collect(b, pid, fds[0], efds[0], out, work_rc, err, errlen);
	close(fds[0]);
	close(efds[0]);
	return rc;
}
