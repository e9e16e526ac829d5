/* Replaying a thread's durable events to a client that (re)connects, then
 * running the thread if it is runnable, or following it while another
 * worker runs it, until it pauses, ends or the stream's time is up. */
#include "config.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "graph/run.h"
#include "util/clock.h"

#define FOLLOW_BATCH 256
#define FOLLOW_BATCH_BYTES (1u << 20)
#define FOLLOW_POLL_US 50000

/* Sends every stored event after *after. 0, or a store error. */
static int follow_drain(struct run *run, long long *after)
{
	for (;;) {
		json_t *batch, *pair;
		size_t i, n;
		int rc = store_events_after(run->st, run->tid, *after, FOLLOW_BATCH, FOLLOW_BATCH_BYTES,
					    &batch);

		if (rc)
			return rc;
		n = json_array_size(batch);
		json_array_foreach(batch, i, pair) {
			const char *text = json_string_value(json_array_get(pair, 1));
			long long seq = json_integer_value(json_array_get(pair, 0));

			if (sse_event_batch(run->sse, seq, text, strlen(text), i + 1 < n) < 0)
				break;
			*after = seq;
		}
		json_decref(batch);
		if (n < FOLLOW_BATCH || run->sse->broken)
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
	int rc = store_thread_get(run->st, NULL, run->tid, &rec, DB_READ_COMMITTED);

	if (rc == 0) {
		json_decref(run->rec);
		run->rec = rec;
	}
	return rc;
}

enum problem run_follow(struct run *run, long long after)
{
	if (run_sse(run) < 0)
		return PB_OK;
	for (;;) {
		const char *status;

		if (follow_drain(run, &after) != 0 || follow_reload(run) != 0)
			return req_fail(run->r, PB_STORE_UNAVAILABLE, "the event log cannot be read");
		if (run->sse->broken)
			return PB_OK;
		if (json_integer_value(json_object_get(run->rec, "seq")) > after)
			continue;
		status = json_string_value(json_object_get(run->rec, "status"));
		if (status == NULL || strcmp(status, "running") != 0) {
			if (status && (strcmp(status, "done") == 0 || strcmp(status, "error") == 0 ||
				       strcmp(status, "aborted") == 0))
				sse_done(run->sse);
			return PB_OK;
		}
		if (lease_free(run->rec, clock_wall_ms()) && follow_take(run) == 0)
			return run_loop(run);
		if (clock_mono_ms() - run->t0 >= run_budget_ms(run)) {
			json_t *ev = sse_event_new("workflow_yield");

			json_object_set_new(ev, "threadId", json_string(run->tid_str));
			json_object_set_new(ev, "content", json_string("reconnect to continue"));
			sse_retry(run->sse, 500);
			sse_event(run->sse, 0, ev);
			json_decref(ev);
			return PB_OK;
		}
		usleep(FOLLOW_POLL_US);
		if (sse_keepalive(run->sse) < 0)
			return PB_OK;
	}
}
