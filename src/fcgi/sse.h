/* The Server-Sent Events writer: whole events framed as in the design
 * (an "id:" line only for durable events, "data:" split on every line
 * break so no payload can start a field), keep-alive comments when the
 * stream is quiet, and a failed write remembered so the caller can stop
 * working for a client that left.
 *
 * Each flush is a FastCGI record the web server (and then the client)
 * wakes up for, so output is flushed at the end of a step (the step's
 * events together), not per write: the headers go with the first event,
 * [DONE] with the end of the request, progress written "later" with the
 * step's events. Steps that end within SSE_BATCH_MS (10 ms) of the last
 * flush share the next one: six offline steps done in a millisecond are
 * two writes, not six. Nothing waits behind that for long: every wait (a
 * model call's poll, a follower's poll, a lease wait) calls
 * sse_keepalive, which flushes whatever is pending, and so does the end
 * of the response. */
#ifndef AV_SSE_H
#define AV_SSE_H
#include <jansson.h>
#include "util/buf.h"

struct req;

struct sse {
	struct req *r;
	long keepalive_ms;
	long long last_write_ms;
	int broken;  /* a write failed: the client is gone */
	long long sent;  /* events written */
	int unflushed;   /* written but not yet flushed (headers included) */
	int flushes;
	long long last_flush_ms;
};

/* Writes the stream's headers (flushed with what follows) and attaches the
 * writer to the request. */
int sse_start(struct sse *s, struct req *r);
/* Frames one event into out: "id: N\n" when id > 0, then one "data: " line
 * per line of data, then a blank line. Pure; for the writer and tests. */
int sse_frame(struct buf *out, long long id, const char *data, size_t len);
/* Writes one event (JSON, compact) and flushes. 0, or -1 once the client
 * is gone. ev is borrowed. */
int sse_event(struct sse *s, long long id, const json_t *ev);
/* Events committed together go out together: each written whole, one
 * flush after the last (more = 0). */
int sse_event_batch(struct sse *s, long long id, const char *data, size_t len, int more);
int sse_flush(struct sse *s);
/* The end of a step's events: flushed if this is the stream's first flush
 * or SSE_BATCH_MS passed since the last one, else left for the next. */
int sse_step_end(struct sse *s);
/* ": text\n\n". */
int sse_comment(struct sse *s, const char *text);
/* Before or during a wait: flushes what is pending, else writes a
 * keep-alive comment if nothing was written for keepalive_ms. */
int sse_keepalive(struct sse *s);
/* "retry: ms\n\n": how long a client waits before reconnecting. */
int sse_retry(struct sse *s, long ms);
/* "data: [DONE]\n\n": the thread has finished (flushed by the end of the
 * request). */
int sse_done(struct sse *s);
/* A live event (no id) flushed with the next flush or wait, not now. */
int sse_event_later(struct sse *s, const json_t *ev);
/* A new event object {"type", "timestamp"}: new reference. */
json_t *sse_event_new(const char *type);

#endif
