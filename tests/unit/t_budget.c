/* Work in a child process under a budget (util/budget.c), as a table: a
 * child that answers hands back its bytes (or its error), one that spins
 * is stopped by its CPU time, one that allocates by its memory, one that
 * sleeps by the clock, one that says too much by the cap, one that
 * crashes is reported as crashed, and one that aborts with words that
 * are not about memory is a crash with those words, not a memory limit;
 * each within about its limit. Then: a
 * client that leaves stops the work at once, while bytes waiting on the
 * connection do not; the child runs no atexit handler of the parent and
 * changes none of its memory; and no child is left, not even a zombie. */
#include "config.h"
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "tap.h"
#include "util/budget.h"
#include "util/clock.h"
#include "util/xmalloc.h"

static int t_global = 1;
static pid_t t_main_pid;
static char t_atexit_file[] = "/tmp/t_budget.atexit.XXXXXX";

static int t_answer(void *arg, struct buf *out, char *err, size_t errlen)
{
	t_global = 2;   /* the child's copy only */
	return buf_adds(out, arg);
}

static int t_refuse(void *arg, struct buf *out, char *err, size_t errlen)
{
	snprintf(err, errlen, "the work says no");
	return 7;
}

static int t_spin(void *arg, struct buf *out, char *err, size_t errlen)
{
	volatile unsigned long n = 0;

	for (;;)
		n++;
	return 0;
}

/* Allocates and touches memory until the allocator gives up (xmalloc
 * then aborts, as it would in a render). */
static int t_hog(void *arg, struct buf *out, char *err, size_t errlen)
{
	for (int i = 0; i < 16384; i++)
		memset(xmalloc(1 << 20), i, 1 << 20);
	return buf_adds(out, "nothing stopped it");
}

static int t_sleep(void *arg, struct buf *out, char *err, size_t errlen)
{
	sleep(30);
	return 0;
}

/* A child gone wrong: its buffer's cap overwritten, it sends 256 KiB. */
static int t_chatty(void *arg, struct buf *out, char *err, size_t errlen)
{
	char block[4096];

	memset(block, 'x', sizeof block);
	out->cap = 1 << 30;
	for (int i = 0; i < 64; i++)
		buf_add(out, block, sizeof block);
	return 0;
}

static int t_crash(void *arg, struct buf *out, char *err, size_t errlen)
{
	raise(SIGSEGV);
	return 0;
}

/* Aborts as glibc does on a heap found corrupt: not a memory limit. */
static int t_corrupt(void *arg, struct buf *out, char *err, size_t errlen)
{
	fputs("some warning first\nfree(): invalid pointer\n", stderr);
	abort();
	return 0;
}

struct budget_case {
	const char *name;
	budget_fn fn;
	void *arg;
	long cpu_ms;
	long long memory_bytes;
	long time_ms;
	size_t max_result;
	int rc, work_rc;
	const char *want;     /* in out (work_rc 0) or err */
	long max_ms;          /* wall-clock time it may take */
};

#if defined(__SANITIZE_ADDRESS__)
static const int t_asan = 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
static const int t_asan = 1;
#else
static const int t_asan = 0;
#endif
#else
static const int t_asan = 0;
#endif

static const struct budget_case cases[] = {
	{ "a child that answers", t_answer, "hello from the child", 5000, 256LL << 20, 10000, 1024,
	  BUDGET_OK, 0, "hello from the child", 3000 },
	{ "a child whose work fails", t_refuse, NULL, 5000, 256LL << 20, 10000, 1024,
	  BUDGET_OK, 7, "the work says no", 3000 },
	{ "a child that spins", t_spin, NULL, 1000, 256LL << 20, 20000, 1024,
	  BUDGET_OVER_CPU, -1, "CPU time", 6000 },
	{ "a child that allocates past 64 MiB", t_hog, NULL, 20000, 64LL << 20, 20000, 1024,
	  BUDGET_OVER_MEMORY, -1, "64 MiB", 8000 },
	{ "a child that sleeps", t_sleep, NULL, 5000, 256LL << 20, 300, 1024,
	  BUDGET_OVER_TIME, -1, "300 ms", 2000 },
	{ "a child that says too much", t_chatty, NULL, 5000, 256LL << 20, 10000, 65536,
	  BUDGET_FAILED, -1, "65536 bytes", 3000 },
	{ "a child that crashes", t_crash, NULL, 5000, 256LL << 20, 10000, 1024,
	  BUDGET_FAILED, -1, "crashed", 3000 },
	{ "a child that aborts, not for memory", t_corrupt, NULL, 5000, 256LL << 20, 10000, 1024,
	  BUDGET_FAILED, -1, "(signal 6, Aborted): free(): invalid pointer", 3000 },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct budget_case *k = &cases[i];
		struct budget b = { k->cpu_ms, k->memory_bytes, k->time_ms, -1, k->max_result };
		char err[512] = "";
		struct buf out;
		int work_rc = -1, rc;
		long long t0 = clock_mono_ms(), ms;

		if (t_asan && k->fn == t_hog) {
			/* Its shadow and its heap are mapped before the child starts:
			 * no rlimit counts what the heap takes; the time limit stops it. */
			for (int n = 0; n < 5; n++)
				printf("ok %d # SKIP %s: AddressSanitizer's heap is not limited by an "
				       "rlimit (docs/configuration.md, [media])\n", ++tap_n, k->name);
			continue;
		}
		buf_init(&out, k->max_result);
		rc = budget_run(&b, k->fn, k->arg, &out, &work_rc, err, sizeof err);
		ms = clock_mono_ms() - t0;
		is_int(rc, k->rc, "%s: %s", k->name, rc == BUDGET_OK && work_rc == 0 ? "answered" : err);
		is_int(work_rc, k->work_rc, "  ... the work's own code");
		ok(strstr(rc == BUDGET_OK && work_rc == 0 ? (out.data ? out.data : "") : err, k->want),
		   "  ... says \"%s\"", k->want);
		ok(ms <= k->max_ms, "  ... in %lld ms (at most %ld)", ms, k->max_ms);
		ok(rc == BUDGET_OK || out.len == 0, "  ... and out is left as it was when it fails");
		buf_free(&out);
	}
	is_int(t_global, 1, "the child's writes to memory stay in the child");
}

/* A process that holds the client's end of the connection for ms, then
 * ends (the client leaves). */
static pid_t client_for(int fd, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep((useconds_t)ms * 1000);
		_exit(0);
	}
	if (pid < 0)
		tap_bail("fork: no client process");
	close(fd);
	return pid;
}

static void test_client(void)
{
	struct budget b = { 5000, 256LL << 20, 10000, -1, 1024 };
	char err[512] = "";
	struct buf out;
	int sv[2], work_rc = -1, rc, status;
	long long t0, ms;
	pid_t client;

	/* Bytes the worker has not read are waiting: not a client that left. */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 || write(sv[1], "pending", 7) != 7)
		tap_bail("socketpair");
	b.client_fd = sv[0];
	buf_init(&out, 1024);
	rc = budget_run(&b, t_answer, "still here", &out, &work_rc, err, sizeof err);
	ok(rc == BUDGET_OK && work_rc == 0 && out.data && strcmp(out.data, "still here") == 0,
	   "a client that is still there, with bytes unread: the work answers (%s)", err);
	buf_free(&out);
	close(sv[0]);
	close(sv[1]);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		tap_bail("socketpair");
	b.client_fd = sv[0];
	client = client_for(sv[1], 300);
	buf_init(&out, 1024);
	t0 = clock_mono_ms();
	rc = budget_run(&b, t_sleep, NULL, &out, &work_rc, err, sizeof err);
	ms = clock_mono_ms() - t0;
	is_int(rc, BUDGET_CLIENT_GONE, "a client that leaves after 300 ms: %s", err);
	ok(ms < 1500, "  ... stopped in %lld ms, not at the 10 s limit", ms);
	waitpid(client, &status, 0);
	buf_free(&out);
	close(sv[0]);

	b.client_fd = 1000;   /* not a descriptor */
	err[0] = '\0';
	buf_init(&out, 1024);
	rc = budget_run(&b, t_answer, "no connection", &out, &work_rc, err, sizeof err);
	ok(rc == BUDGET_OK && out.data && strcmp(out.data, "no connection") == 0,
	   "a descriptor that is not open is not watched: the work answers (%s)", err);
	buf_free(&out);
}

/* The ticker: counts its ticks, asks to stop from the tenth on. */
struct t_ticks {
	int ticks;
	int stop_at;
};

static void t_tick(void *ctx)
{
	((struct t_ticks *)ctx)->ticks++;
}

static int t_stop(void *ctx)
{
	struct t_ticks *k = ctx;

	return k->stop_at > 0 && k->ticks >= k->stop_at;
}

/* While the child works the stream's keep-alives go on; a run that is
 * stopped (or whose stream broke) stops the child. */
static void test_ticker(void)
{
	struct budget b = { 5000, 256LL << 20, 1000, -1, 1024 };
	struct t_ticks k = { 0, 0 };
	char err[512] = "";
	struct buf out;
	int work_rc = -1, rc;
	long long t0, ms;

	budget_ticker(t_tick, t_stop, &k);
	buf_init(&out, 1024);
	rc = budget_run(&b, t_sleep, NULL, &out, &work_rc, err, sizeof err);
	is_int(rc, BUDGET_OVER_TIME, "a child past its 1 s: over time (%s)", err);
	ok(k.ticks >= 2 && k.ticks <= 7, "  ... the ticker was called every %d ms meanwhile (%d times)",
	   BUDGET_TICK_MS, k.ticks);
	buf_free(&out);

	k.ticks = 0;
	k.stop_at = 2;
	b.time_ms = 10000;
	buf_init(&out, 1024);
	t0 = clock_mono_ms();
	rc = budget_run(&b, t_sleep, NULL, &out, &work_rc, err, sizeof err);
	ms = clock_mono_ms() - t0;
	is_int(rc, BUDGET_CLIENT_GONE, "a run stopped while its child works: the child is stopped (%s)",
	       err);
	ok(ms < 2000, "  ... in %lld ms, not at the 10 s limit", ms);
	buf_free(&out);
	budget_ticker(NULL, NULL, NULL);
}

/* Children of this process left in /proc, zombies included. */
static int children_left(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		tap_bail("no /proc");
	while ((e = readdir(d)) != NULL) {
		char path[300], buf[512], *p;
		FILE *f;
		int ppid = 0;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')')) != NULL &&
		    sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == getpid())
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

static void t_at_exit(void)
{
	FILE *f = getpid() != t_main_pid ? fopen(t_atexit_file, "a") : NULL;

	if (f) {
		fprintf(f, "%ld\n", (long)getpid());
		fclose(f);
	}
}

int main(void)
{
	int fd = mkstemp(t_atexit_file);
	FILE *f;
	char line[64] = "";

	if (fd < 0)
		tap_bail("mkstemp");
	close(fd);
	t_main_pid = getpid();
	atexit(t_at_exit);
	test_cases();
	test_client();
	test_ticker();
	is_int(children_left(), 0, "no child is left, not even a zombie");
	f = fopen(t_atexit_file, "r");
	ok(f && fgets(line, sizeof line, f) == NULL,
	   "no child ran the parent's atexit handler (%s)", line[0] ? line : "none did");
	if (f)
		fclose(f);
	unlink(t_atexit_file);
	return tap_done();
}
