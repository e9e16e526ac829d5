/* The engine's private view of one request's run (run_base.c, engine.c,
 * step.c, follow.c). Nothing outside src/engine/ includes this, but the
 * engine's own tests (tests/unit/t_graph.c, tests/unit/orchfix.h). */
#ifndef AV_RUN_H
#define AV_RUN_H
#include <stdint.h>
#include <jansson.h>
#include "util/buf.h"
#include "app.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"
#include "engine/graph.h"
#include "engine/tid.h"
#include "store/store.h"

struct run {
	struct req *r;
	struct app *app;
	struct store *st;
	struct sse *sse;      /* the request's event stream (its storage is the request's:
			       * an error reported after the run ends still finds it) */
	uint8_t tid[STORE_TID];
	char tid_str[TID_LEN + 1];
	const struct workflow *wf;
	json_t *rec;          /* the thread record as last committed (new ref) */
	json_t *state;        /* the current state (new ref), NULL until loaded */
	json_t *pending;      /* durable events of the step being run */
	long long t0;         /* monotonic start of the request */
	int steps;            /* steps run by this request */
	int store_rc;         /* a store error a node or hook met (step_store_failed), or 0 */
	char lang[4];         /* the thread's language, "zh" or "en" (run_lang_set) */
	long long cancel_seen_ms; /* monotonic time of the last look for a cancel request */
	int cancel_asked;     /* what that look found */
};

/* One transaction: checks, record changes, an optional checkpoint and
 * events. Built by the engine, run (and retried) by store_txn. */
struct commit {
	struct run *run;
	int create;           /* the record is new: changes is the whole record */
	int need_lease;       /* fail (EAGAIN) unless this process holds the lease */
	int take_lease;       /* take it (EBUSY when another live process holds it) */
	int release;          /* drop the lease */
	int (*check)(struct commit *c, json_t *rec); /* more checks: 0 or an errno */
	const void *check_arg;
	json_t *changes;      /* fields to set on the record */
	long step;            /* >= 0: write this checkpoint of run->state */
	json_t *meta;         /* its metadata */
	json_t *prev;         /* the parent's state, or NULL */
	json_t *events;       /* event objects to append */
	/* out */
	json_t *rec_new;      /* the record as written */
	struct buf sent;      /* the appended events' texts, each ended by a NUL */
	long long sent_first; /* the first one's seq */
};

/* --- run_base.c: the run of one request ---------------------------------- */
/* A run of r with nothing loaded; what the request may add to the store
 * is limited until run_free. */
void run_init(struct run *run, struct req *r);
/* PB_OK, or the 503 of a worker without its store (reported). */
enum problem run_store_check(struct req *r);
/* A run of an existing thread: the ID checked, the thread and its
 * workflow found (see engine_resolve). Reports through req_fail. */
enum problem run_open(struct run *run, struct req *r, const char *id);
void run_free(struct run *run);
/* How long one request may stream: the smaller of [engine]
 * request_budget_ms and [server] stream_max_ms (a web server's limit on
 * one response). */
long run_budget_ms(const struct run *run);
/* Starts the event stream if it is not started. */
int run_sse(struct run *run);
/* Streams the committed events with their ids. */
void run_send_committed(struct run *run, const struct commit *c);
/* How long a client waits before it reconnects to a run that yielded
 * (the stream's retry:). */
#define RUN_YIELD_RETRY_MS 500
/* Ends the stream of a run that used its time, the thread still running:
 * a workflow_yield event and retry: RUN_YIELD_RETRY_MS. */
void run_send_yield(struct run *run);
/* Sets run->lang from the record's "lang" ("zh" for a thread from before
 * threads had one). */
void run_lang_set(struct run *run);
/* Adds agent_start for node to events, counting the visit in changes
 * (from the visits in rec); its content names the agent (the workflow's
 * word for it, msg_agent_in) in the run's language. */
void run_agent_start(const struct run *run, json_t *events, json_t *changes, const json_t *rec,
		     const char *node);

/* --- commit.c ------------------------------------------------------------- */
void commit_init(struct commit *c, struct run *run);
void commit_free(struct commit *c);
/* Runs the commit. 0, EAGAIN (lost lease), EBUSY (leased elsewhere), or
 * the check's / the store's error. On success run->rec is the new record. */
int commit_run(struct commit *c);
long long run_lease_ms(const struct run *run);

/* --- engine.c and follow.c ------------------------------------------------ */
/* Runs steps until the thread leaves "running", the budget is used or the
 * client leaves, then ends the stream. */
enum problem run_loop(struct run *run);
/* Streams the log after `after`, then runs or follows the thread. */
enum problem run_follow(struct run *run, long long after);

#endif
