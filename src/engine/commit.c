/* The one transaction of a step: checkpoint, durable events and thread
 * record together, or nothing (see run.h). */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "engine/engine.h"
#include "engine/run.h"
#include "util/buf.h"
#include "util/clock.h"
#include "json/dump.h"

void commit_init(struct commit *c, struct run *run)
{
	memset(c, 0, sizeof *c);
	c->run = run;
	c->changes = json_object();
	c->events = json_array();
	buf_init(&c->sent, (size_t)1 << 30);
	c->step = -1;
}

void commit_free(struct commit *c)
{
	json_decref(c->changes);
	json_decref(c->events);
	buf_free(&c->sent);
	json_decref(c->meta);
	json_decref(c->prev);
	json_decref(c->rec_new);
	memset(c, 0, sizeof *c);
}

long long run_lease_ms(const struct run *run)
{
	return run->app->conf.request_budget_ms + run->app->conf.node_timeout_ms;
}

static int commit_lease(struct commit *c, json_t *rec, long long now)
{
	if (c->need_lease && !lease_mine(rec))
		return EAGAIN;
	if (c->take_lease && !lease_free(rec, now))
		return EBUSY;
	if (c->take_lease)
		lease_count_crash(rec);
	if (c->release)
		json_object_set_new(rec, "lease", json_null());
	else if (c->need_lease || c->take_lease)
		lease_set(rec, now, run_lease_ms(c->run));
	return 0;
}

/* The step's events, each serialised once: the same texts go to the
 * store (one record for the step) and, through c->sent, to the stream. */
static int commit_events(struct commit *c, struct store *s, struct store_txn *txn, json_t *rec)
{
	long long seq = json_integer_value(json_object_get(rec, "seq"));
	size_t i;
	json_t *ev;
	int rc = 0;

	buf_reset(&c->sent);
	c->sent_first = seq + 1;
	if (json_array_size(c->events) == 0)
		return 0;
	json_array_foreach(c->events, i, ev)
		if (jdump_buf(&c->sent, ev) < 0 || buf_add(&c->sent, "", 1) < 0)
			return ENOMEM;
	seq += (long long)json_array_size(c->events);
	rc = store_events_put(s, txn, c->run->tid, seq, c->sent.data, c->sent.len);
	if (rc == 0)
		json_object_set_new(rec, "seq", json_integer(seq));
	return rc;
}

/* May run several times (deadlock retries): it changes nothing outside
 * the transaction but its own outputs. */
static int commit_fn(struct store *s, struct store_txn *txn, void *p)
{
	struct commit *c = p;
	long long now = clock_wall_ms();
	json_t *rec = NULL;
	int rc = 0;

	if (c->create)
		rec = json_deep_copy(c->changes);
	else
		rc = store_thread_get(s, txn, c->run->tid, &rec, STORE_RMW);
	if (rc == 0 && c->check)
		rc = c->check(c, rec);
	if (rc == 0)
		rc = commit_lease(c, rec, now);
	if (rc == 0 && !c->create)
		json_object_update(rec, c->changes);
	if (rc == 0 && c->step >= 0) {
		rc = store_ckpt_put(s, txn, c->run->tid, c->step, c->meta, c->run->state, c->prev);
		json_object_set_new(rec, "step", json_integer(c->step));
		lease_crash_clear(rec);
	}
	if (rc == 0)
		rc = commit_events(c, s, txn, rec);
	if (rc == 0) {
		json_object_set_new(rec, "updated", json_integer(now));
		rc = store_thread_put(s, txn, c->run->tid, rec);
	}
	json_decref(c->rec_new);
	c->rec_new = rec;
	return rc;
}

int commit_run(struct commit *c)
{
	int rc = store_txn(c->run->st, commit_fn, c);

	if (rc == 0) {
		json_decref(c->run->rec);
		c->run->rec = json_incref(c->rec_new);
		/* The commit read the record under its lock: as good as a look
		 * for a cancel request (cancel.c). */
		c->run->cancel_asked = json_is_object(json_object_get(c->rec_new, "cancel"));
		c->run->cancel_seen_ms = clock_mono_ms();
	}
	return rc;
}
