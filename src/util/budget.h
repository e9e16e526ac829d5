/* Work a request must not let run without bound (drawing an SVG someone
 * sent, reading the text of a picture) runs in a child process under a
 * budget it cannot exceed, whatever the library inside does:
 *   CPU time      RLIMIT_CPU (rounded up to whole seconds);
 *   memory        RLIMIT_AS, counted over what the worker already holds
 *                 when the child starts (the child shares it); in a build
 *                 with AddressSanitizer, whose shadow reserves terabytes of
 *                 address space, RLIMIT_DATA counted the same way
 *                 (which its heap, mapped before, escapes: there CPU
 *                 and time bound it);
 *   wall clock    SIGKILL when the time is up;
 *   the client    SIGKILL when the request's connection to the web server
 *                 closes (the client left).
 * The child is a fork of the worker: it sees its input without a copy and
 * hands back its result as bytes through a pipe, then ends with _exit(),
 * so it never touches the store whose handles it inherits, flushes no
 * stdio and runs no atexit handler. Its standard error goes to the parent,
 * which keeps its last lines for the verdict (they are not logged). The
 * parent reads the result under a cap and reaps the child (wait4 on its
 * pid alone) before budget_run returns: no child outlives the call. */
#ifndef AV_BUDGET_H
#define AV_BUDGET_H
#include <stddef.h>
#include "util/buf.h"

struct budget {
	long cpu_ms;              /* <= 0: no CPU limit */
	long long memory_bytes;   /* <= 0: no memory limit */
	long time_ms;             /* <= 0: no wall-clock limit */
	int client_fd;            /* the connection to watch; -1: none */
	size_t max_result;        /* bytes of result read at most; more fails the call */
};

enum budget_rc {
	BUDGET_OK = 0,            /* the work ran to its end; what it returned is in *work_rc */
	BUDGET_FAILED = -1,       /* the child crashed (err ends with the last line it wrote
				   * to its standard error) or said too much */
	BUDGET_OVER_CPU = -2,
	BUDGET_OVER_MEMORY = -3,  /* it ended under its memory limit saying an allocation
				   * failed, as xmalloc, GLib, Rust, C++, AddressSanitizer
				   * and a thread without room for its stack say it */
	BUDGET_OVER_TIME = -4,
	BUDGET_CLIENT_GONE = -5,
	BUDGET_NO_CHILD = -6,     /* no pipe or no process for it (the system's limits) */
};

/* The work, run in the child: appends its result to out (capped at the
 * budget's max_result) and returns 0, or returns another code with err
 * filled. It may use anything but the store. */
typedef int (*budget_fn)(void *arg, struct buf *out, char *err, size_t errlen);

/* fn(arg) in a child under b. BUDGET_OK when the work ended by itself:
 * *work_rc is what fn returned, out got its result (work_rc 0) or err its
 * message (other codes). Else an enum budget_rc with err saying what was
 * exceeded; out is then left as it was. */
int budget_run(const struct budget *b, budget_fn fn, void *arg, struct buf *out, int *work_rc,
	       char *err, size_t errlen);

/* The budget of this process's media work: the worker sets the limits
 * from its configuration ([media] cpu_ms, memory_bytes, time_ms) and the
 * connection of the request it serves (-1 between requests). Until then:
 * 10 s of CPU, 512 MiB, 20 s, no connection. */
void budget_configure(long cpu_ms, long long memory_bytes, long time_ms);
void budget_watch(int client_fd);
/* While a child works, tick(ctx) is called about every BUDGET_TICK_MS
 * (the stream's keep-alives: a client that left is found by the write),
 * and stop(ctx) asked: nonzero kills the child (BUDGET_CLIENT_GONE).
 * Set around the work of one step; NULL: none. Either may be NULL. */
#define BUDGET_TICK_MS 200
void budget_ticker(void (*tick)(void *ctx), int (*stop)(void *ctx), void *ctx);
/* That budget, with a result of at most max_result bytes. */
void budget_current(struct budget *b, size_t max_result);
/* 1 when rc (of budget_run) says the budget stopped the work: CPU,
 * memory or time; not a crash, a client that left nor a child that could
 * not start. */
int budget_exceeded(int rc);

#endif
