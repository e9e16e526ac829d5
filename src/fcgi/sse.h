/* The Server-Sent Events writer: whole events framed as in the design
 * (an "id:" line only for durable events, "data:" split on every line
 * break so no payload can start a field), flushed one by one, keep-alive
 * comments when the stream is quiet, and a failed write remembered so the
 * caller can stop working for a client that left. */
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
};

/* Sends the stream's headers and attaches the writer to the request. */
int sse_start(struct sse *s, struct req *r);
/* Frames one event into out: "id: N\n" when id > 0, then one "data: " line
 * per line of data, then a blank line. Pure; for the writer and tests. */
int sse_frame(struct buf *out, long long id, const char *data, size_t len);
/* Writes one event (JSON, compact) and flushes. 0, or -1 once the client
 * is gone. ev is borrowed. */
int sse_event(struct sse *s, long long id, const json_t *ev);
/* The same with an already encoded payload (replay from the store). */
int sse_event_raw(struct sse *s, long long id, const char *data, size_t len);
/* Events committed together go out together: each written whole, one
 * flush after the last (more = 0). */
int sse_event_batch(struct sse *s, long long id, const char *data, size_t len, int more);
int sse_flush(struct sse *s);
/* ": text\n\n". */
int sse_comment(struct sse *s, const char *text);
/* A keep-alive comment if nothing was written for keepalive_ms. */
int sse_keepalive(struct sse *s);
/* "retry: ms\n\n": how long a client waits before reconnecting. */
int sse_retry(struct sse *s, long ms);
/* "data: [DONE]\n\n": the thread has finished. */
int sse_done(struct sse *s);
/* A new event object {"type", "timestamp"}: new reference. */
json_t *sse_event_new(const char *type);

#endif
