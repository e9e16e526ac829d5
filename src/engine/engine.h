/* The engine: runs a thread's steps for one request, checkpointing after
 * every step; pauses for a human and resumes on a decision; replays the
 * durable event log to a client that reconnects and follows a thread
 * another worker is running. All of it streams through one SSE writer. */
#ifndef AV_ENGINE_H
#define AV_ENGINE_H
#include <stdint.h>
#include <jansson.h>
#include "fcgi/problem.h"
#include "engine/graph.h"
#include "engine/tid.h"
#include "store/store.h"

struct req;

/* Checks a thread ID (403), finds the thread (404), checks it has not
 * expired (410). *rec: new reference. Reports through req_fail. */
enum problem engine_resolve(struct req *r, const char *id, uint8_t tid[STORE_TID], json_t **rec);
/* POST /api/agent/stream without threadId: a new thread of wf. */
enum problem engine_start(struct req *r, const struct workflow *wf, const json_t *input);
/* POST /api/agent/stream with threadId: a new user turn. enqueue: wait
 * for a busy thread instead of answering 409. */
enum problem engine_turn(struct req *r, const char *id, const json_t *input, int enqueue);
/* GET /api/agent/stream: replay after last_id (-1: the whole log), then
 * run or follow the thread. */
enum problem engine_join(struct req *r, const char *id, const char *last_id);
/* POST /api/agent/confirm. */
enum problem engine_confirm(struct req *r, const char *id, const char *interrupt_id,
			    const char *action, const json_t *payload);

/* POST /api/threads/{id}/cancel: a thread whose run is in progress on a
 * live worker gets a cancel request in its record (202): that run stops
 * at its next safe point (between steps, or at a model call's tick) with
 * status aborted. A thread running with no live worker (it yielded) or
 * paused is aborted at once (200). Anything else is 409 not_running. The
 * answer: {threadId, status, cancel: "requested" | "done"}. */
enum problem engine_cancel(struct req *r, const char *id);
/* The run's thread has a cancel request (read from the store at most
 * every CANCEL_POLL_MS unless fresh; a step's commit, which reads the
 * record under its lock, counts as a look). */
int run_cancel_asked(struct run *run, int fresh);

/* Last-Event-ID: absent or empty is 0; else whole decimal digits only, at
 * most 18 of them, not past last (the thread's last event id). 0 with
 * *out set, or -1. */
int engine_parse_last_id(const char *s, long long last, long long *out);

/* --- lease.c: who runs a thread ------------------------------------------ */
#define LEASE_HOST_MAX 64
/* This host's id ([store] host_id), copied (cut at LEASE_HOST_MAX bytes);
 * set once at start-up, "" before. lease_host: borrowed. */
void lease_host_set(const char *id);
const char *lease_host(void);
/* True when the lease in rec may be taken by this process now: none, expired,
 * or (on this host only) this process's or a dead process's. */
int lease_free(const json_t *rec, long long now_ms);
/* Sets this process's lease in rec (a copy the caller writes). */
void lease_set(json_t *rec, long long now_ms, long long ms);
int lease_mine(const json_t *rec);
/* Taking over the lease of a process that died (rec as read for the
 * take): counts it against the step the thread was at, in rec's "crash"
 * ({step, n}); a step that commits clears it (lease_crash_clear). */
void lease_count_crash(json_t *rec);
void lease_crash_clear(json_t *rec);
/* How many times the thread's current step took down the worker running it. */
long lease_crashes(const json_t *rec);

/* --- lease_back.c: leases given back late -------------------------------- */
/* Keeps tid (copied) to give its lease back later: the store was away when
 * the run ended. */
void lease_back_later(const uint8_t tid[STORE_TID]);
/* How many are kept. */
int lease_back_pending(void);
/* Gives back the leases kept that are still this process's, trying for a
 * few seconds after one was added, else once; those the store cannot take
 * yet stay for the next call. After a request. */
void lease_back_run(struct store *s);

#endif
