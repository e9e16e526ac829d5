/* Replaying a thread's durable events to a client that (re)connects, then
 * running the thread if it is runnable, or following it while another
 * worker runs it, until it pauses, ends or the stream's time is up.
 * Following holds a worker, so one thread has at most [server]
 * max_followers: each is a place {"<pid>": until} in the thread record,
 * counted by every worker, and a place whose process died or whose time
 * passed is free again.
 *
 * Replaying a long log holds a worker too, for as long as the client takes
 * to read it: a replay of FOLLOW_REPLAY_SMALL bytes or more takes one of
 * the host's [server] max_replays places (util/hostslot.h, a file in the
 * store directory) before its stream starts and gives it back once it
 * has caught up with the log (or ended); a shorter one fits in the
 * buffers between the worker and the client and is not counted. A replay
 * stops, with a workflow_yield the client reconnects on, when the
 * request's time is used. */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/engine.h"
#include "engine/run.h"
#include "util/clock.h"
#include "util/hostslot.h"
#include "util/log.h"

#define FOLLOW_BATCH 256
#define FOLLOW_BATCH_BYTES (1u << 20)
/* A follower waits for the thread's next commit this long at most: woken
 * at once by a store that tells (PostgreSQL), else polling every
 * STORE_POLL_MS. */
#define FOLLOW_WAIT_MS 250
#define FOLLOW_SLACK_MS 5000   /* a place outlives the stream's budget by this much */
#define FOLLOW_REPLAY_SMALL (256u << 10) /* a replay of fewer bytes takes no replay place */
/* Events read to tell a short replay: more than this many is a long one
 * (an event is more than 64 bytes: type and timestamp alone take 40). */
#define FOLLOW_REPLAY_SMALL_EVENTS (FOLLOW_REPLAY_SMALL / 64)
#define FOLLOW_REPLAY_FILE "replays.lock" /* in the store directory */

/* One stream's progress through the log. */
struct follow {
	struct run *run;
	long long after;  /* the last event sent */
	int joined;       /* holds a follower's place in the thread record */
	int replay;       /* the replay place held (its descriptor), or -1 */
	json_t *first;    /* the replay's first batch, read before the stream starts */
};

/* One follower's place: taken (join), or given back. */
struct follow_place {
	const uint8_t *tid;
	int max;
	int join;
	long long until;
	int full;     /* out: every place is taken */
};

static int follow_place_live(const char *pid, const json_t *until, long long now)
{
	long p = strtol(pid, NULL, 10);

	return p > 0 && p != (long)getpid() && json_integer_value(until) >= now &&
	       (kill((pid_t)p, 0) == 0 || errno == EPERM);
}

/* In a transaction: drops dead places and this process's, then takes one
 * for it if asked and one is free. */
static int follow_place_fn(struct store *s, struct store_txn *txn, void *ctx)
{
	struct follow_place *fp = ctx;
	long long now = clock_wall_ms();
	json_t *rec, *live = json_object(), *v;
	const char *k;
	char me[24];
	int rc = store_thread_get(s, txn, fp->tid, &rec, STORE_RMW);

	fp->full = 0;
	if (rc) {
		json_decref(live);
		return rc;
	}
	json_object_foreach(json_object_get(rec, "followers"), k, v)
		if (follow_place_live(k, v, now))
			json_object_set(live, k, v);
	if (fp->join && (long)json_object_size(live) >= fp->max)
		fp->full = 1;
	else if (fp->join) {
		snprintf(me, sizeof me, "%ld", (long)getpid());
		json_object_set_new(live, me, json_integer(fp->until));
	}
	json_object_set_new(rec, "followers", live);
	rc = fp->full ? 0 : store_thread_put(s, txn, fp->tid, rec);
	json_decref(rec);
	return rc;
}

/* Takes a place to follow the thread. PB_OK, or the problem reported. */
static enum problem follow_enter(struct run *run, int *joined)
{
	struct follow_place fp = { run->tid, (int)run->app->conf.max_followers, 1,
				   clock_wall_ms() + run_budget_ms(run) + FOLLOW_SLACK_MS, 0 };
	int rc = store_txn(run->st, follow_place_fn, &fp);

	if (rc)
		return req_fail(run->r, PB_STORE_UNAVAILABLE, "the thread cannot be followed now");
	if (fp.full)
		return req_fail(run->r, PB_OVERLOADED, "thread %s already has %ld followers "
				"([server] max_followers): try again shortly", run->tid_str,
				run->app->conf.max_followers);
	*joined = 1;
	return PB_OK;
}

static void follow_leave(struct run *run, int *joined)
{
	struct follow_place fp = { run->tid, 0, 0, 0, 0 };

	if (*joined)
		store_txn(run->st, follow_place_fn, &fp);
	*joined = 0;
}

/* True when the thread runs in another live worker: this stream would wait. */
static int follow_would_wait(const struct run *run)
{
	const char *status = json_string_value(json_object_get(run->rec, "status"));

	return status && strcmp(status, "running") == 0 && !lease_free(run->rec, clock_wall_ms());
}

/* True when the request has used its time. */
static int follow_spent(const struct run *run)
{
	return clock_mono_ms() - run->t0 >= run_budget_ms(run);
}

/* Takes one of the host's replay places when the events after f->after
 * come to FOLLOW_REPLAY_SMALL bytes or more (the first batch, read here,
 * is kept for the stream). PB_OK, or the problem reported. */
static enum problem follow_replay_enter(struct follow *f)
{
	struct run *run = f->run;
	long long last = json_integer_value(json_object_get(run->rec, "seq"));
	static int warned;
	char path[4096];
	size_t n;
	int rc;

	if (last <= f->after)
		return PB_OK;
	if (store_events_after(run->st, run->tid, f->after, FOLLOW_REPLAY_SMALL_EVENTS,
			       FOLLOW_REPLAY_SMALL, &f->first) != 0)
		return req_fail(run->r, PB_STORE_UNAVAILABLE, "the event log cannot be read");
	n = json_array_size(f->first);
	if (n == 0 || json_integer_value(json_array_get(json_array_get(f->first, n - 1), 0)) >= last)
		return PB_OK;
	snprintf(path, sizeof path, "%s/%s", run->app->conf.store_dir, FOLLOW_REPLAY_FILE);
	rc = hostslot_take(path, run->app->conf.max_replays, &f->replay);
	if (rc < 0 && !warned++)
		log_warn("%s: %s: replays are not counted ([server] max_replays)", path, strerror(errno));
	if (rc == 1)
		return req_fail(run->r, PB_OVERLOADED, "%ld replays of long event logs are running "
				"([server] max_replays): try again shortly",
				run->app->conf.max_replays);
	return PB_OK;
}

/* Sends every stored event after f->after, or as many as the request's
 * time allows. 0, or a store error. */
static int follow_drain(struct follow *f)
{
	struct run *run = f->run;

	for (;;) {
		json_t *batch = f->first, *pair;
		size_t i, n;
		int rc = 0;

		f->first = NULL;
		if (batch == NULL)
			rc = store_events_after(run->st, run->tid, f->after, FOLLOW_BATCH,
						FOLLOW_BATCH_BYTES, &batch);
		if (rc)
			return rc;
		n = json_array_size(batch);
		json_array_foreach(batch, i, pair) {
			const char *text = json_string_value(json_array_get(pair, 1));
			long long seq = json_integer_value(json_array_get(pair, 0));

			if (sse_event_batch(run->sse, seq, text, strlen(text), i + 1 < n) < 0)
				break;
			f->after = seq;
		}
		json_decref(batch);
		if (n < FOLLOW_BATCH || run->sse->broken || follow_spent(run))
			return 0;
	}
}

/* Tries to take the lease of a runnable thread. 0: taken. */
static int follow_take(struct run *run)
{
	struct commit c;
	int rc;

	commit_init(&c, run);
	c.take_lease = 1;
	rc = commit_run(&c);
	commit_free(&c);
	return rc;
}

static int follow_reload(struct run *run)
{
	json_t *rec;
	int rc = store_thread_get(run->st, NULL, run->tid, &rec, STORE_READ_COMMITTED);

	if (rc == 0) {
		json_decref(run->rec);
		run->rec = rec;
	}
	return rc;
}

/* The request's time is used: the client is told to reconnect. */
static enum problem follow_yield(struct run *run)
{
	run_send_yield(run);
	return PB_OK;
}

static enum problem follow_loop(struct follow *f)
{
	struct run *run = f->run;

	if (run_sse(run) < 0)
		return PB_OK;
	for (;;) {
		const char *status;

		if (follow_drain(f) != 0 || follow_reload(run) != 0)
			return req_fail(run->r, PB_STORE_UNAVAILABLE, "the event log cannot be read");
		if (run->sse->broken)
			return PB_OK;
		if (json_integer_value(json_object_get(run->rec, "seq")) > f->after) {
			if (follow_spent(run))
				return follow_yield(run);
			continue;
		}
		hostslot_give(&f->replay);  /* caught up: the replay is over */
		status = json_string_value(json_object_get(run->rec, "status"));
		if (status == NULL || strcmp(status, "running") != 0) {
			if (status && (strcmp(status, "done") == 0 || strcmp(status, "error") == 0 ||
				       strcmp(status, "aborted") == 0))
				sse_done(run->sse);
			return PB_OK;
		}
		if (lease_free(run->rec, clock_wall_ms()) && follow_take(run) == 0) {
			follow_leave(run, &f->joined);
			return run_loop(run);
		}
		if (follow_spent(run))
			return follow_yield(run);
		if (!f->joined && follow_enter(run, &f->joined) != PB_OK)
			return run->r->failed;
		store_wait(run->st, run->tid, FOLLOW_WAIT_MS);
		if (sse_keepalive(run->sse) < 0)
			return PB_OK;
	}
}

enum problem run_follow(struct run *run, long long after)
{
	struct follow f = { run, after, 0, -1, NULL };
	enum problem p;

	/* Refused before the stream starts, when it is clear it would wait,
	 * or that it replays a long log and the host replays enough. */
	if ((follow_would_wait(run) && follow_enter(run, &f.joined) != PB_OK) ||
	    follow_replay_enter(&f) != PB_OK)
		p = run->r->failed;
	else
		p = follow_loop(&f);
	hostslot_give(&f.replay);
	json_decref(f.first);
	follow_leave(run, &f.joined);
	store_unwatch(run->st);
	return p;
}
