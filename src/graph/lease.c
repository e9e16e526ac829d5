/* Leases: one run per thread at a time. The lease in the thread record
 * names the owning process and an expiry; a lease whose process is dead or
 * whose time is up may be taken over. */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include "graph/engine.h"

int lease_mine(const json_t *rec)
{
	json_t *l = json_object_get(rec, "lease");

	return json_is_object(l) && json_integer_value(json_object_get(l, "pid")) == getpid();
}

int lease_free(const json_t *rec, long long now_ms)
{
	json_t *l = json_object_get(rec, "lease");
	pid_t pid;

	if (!json_is_object(l))
		return 1;
	pid = (pid_t)json_integer_value(json_object_get(l, "pid"));
	/* This process handles one request at a time: a lease of its own is
	 * left over from an earlier request that did not release it. */
	if (pid == getpid())
		return 1;
	if (json_integer_value(json_object_get(l, "until")) < now_ms)
		return 1;
	return pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH);
}

/* The lease names another process that no longer exists. */
static int lease_dead(const json_t *rec)
{
	json_t *l = json_object_get(rec, "lease");
	pid_t pid;

	if (!json_is_object(l))
		return 0;
	pid = (pid_t)json_integer_value(json_object_get(l, "pid"));
	return pid > 0 && pid != getpid() && kill(pid, 0) < 0 && errno == ESRCH;
}

void lease_count_crash(json_t *rec)
{
	json_t *step = json_object_get(rec, "step");
	json_t *crash = json_object_get(rec, "crash");
	long n = 1;

	if (!lease_dead(rec))
		return;
	if (json_is_object(crash) && json_equal(json_object_get(crash, "step"), step))
		n = (long)json_integer_value(json_object_get(crash, "n")) + 1;
	json_object_set_new(rec, "crash", json_pack("{s:O, s:i}", "step", step ? step : json_null(),
						    "n", (int)n));
}

void lease_crash_clear(json_t *rec)
{
	json_object_del(rec, "crash");
}

long lease_crashes(const json_t *rec)
{
	json_t *crash = json_object_get(rec, "crash");

	if (!json_is_object(crash) || !json_equal(json_object_get(crash, "step"), json_object_get(rec, "step")))
		return 0;
	return (long)json_integer_value(json_object_get(crash, "n"));
}

void lease_set(json_t *rec, long long now_ms, long long ms)
{
	json_object_set_new(rec, "lease", json_pack("{s:i, s:I}", "pid", (int)getpid(), "until",
						    (json_int_t)(now_ms + ms)));
}
