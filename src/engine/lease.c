/* Leases: one run per thread at a time. The lease in the thread record
 * names the owning process (host id and pid) and an expiry; a lease whose
 * time is up may be taken over, and so may one whose process is dead when
 * it is on this host (a pid says nothing of a process on another host). */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "engine/engine.h"

/* This host's id ([store] host_id); "" until lease_host_set. A lease
 * without a host is one written before host ids: taken as "". */
static char lease_host_id[LEASE_HOST_MAX + 1];

void lease_host_set(const char *id)
{
	size_t n = id ? strlen(id) : 0;

	if (n > LEASE_HOST_MAX)
		n = LEASE_HOST_MAX;
	memcpy(lease_host_id, id ? id : "", n);
	lease_host_id[n] = '\0';
}

const char *lease_host(void)
{
	return lease_host_id;
}

/* The lease names a process on this host. */
static int lease_here(const json_t *l)
{
	const char *host = json_string_value(json_object_get(l, "host"));

	return strcmp(host ? host : "", lease_host_id) == 0;
}

int lease_mine(const json_t *rec)
{
	json_t *l = json_object_get(rec, "lease");

	return json_is_object(l) && lease_here(l) &&
	       json_integer_value(json_object_get(l, "pid")) == getpid();
}

int lease_free(const json_t *rec, long long now_ms)
{
	json_t *l = json_object_get(rec, "lease");
	pid_t pid;

	if (!json_is_object(l))
		return 1;
	if (json_integer_value(json_object_get(l, "until")) < now_ms)
		return 1;
	if (!lease_here(l))
		return 0;
	pid = (pid_t)json_integer_value(json_object_get(l, "pid"));
	/* This process handles one request at a time: a lease of its own is
	 * left over from an earlier request that did not release it. */
	if (pid == getpid())
		return 1;
	return pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH);
}

/* The lease names another process that no longer exists. */
static int lease_dead(const json_t *rec)
{
	json_t *l = json_object_get(rec, "lease");
	pid_t pid;

	if (!json_is_object(l) || !lease_here(l))
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
	json_object_set_new(rec, "lease", json_pack("{s:s, s:i, s:I}", "host", lease_host_id, "pid",
						    (int)getpid(), "until", (json_int_t)(now_ms + ms)));
}
