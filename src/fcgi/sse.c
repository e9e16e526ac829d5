/* Server-Sent Events writer (see sse.h). */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "json/dump.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"
#include "util/clock.h"

#define SSE_MAX_EVENT (64u << 20)
#define SSE_SCRATCH_KEEP (256u << 10)
#define SSE_BATCH_MS 10

int sse_start(struct sse *s, struct req *r)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->keepalive_ms = r->conf->keepalive_ms;
	s->last_write_ms = clock_mono_ms();
	if (req_send_headers(r, 200, "text/event-stream; charset=utf-8",
			     "Cache-Control: no-cache, no-transform\r\nX-Accel-Buffering: no\r\n") < 0) {
		s->broken = 1;
		return -1;
	}
	r->sse = s;
	/* The headers go out with the first event (or the first wait). */
	s->unflushed = 1;
	return 0;
}

/* The offset of the first CR or LF in data[i..len), else len. */
static size_t sse_line_end(const char *data, size_t i, size_t len)
{
	const char *nl = memchr(data + i, '\n', len - i), *cr = memchr(data + i, '\r', len - i);

	if (nl == NULL && cr == NULL)
		return len;
	if (nl == NULL || (cr && cr < nl))
		return (size_t)(cr - data);
	return (size_t)(nl - data);
}

int sse_frame(struct buf *out, long long id, const char *data, size_t len)
{
	size_t i = 0;
	char line[32];

	if (id > 0 && buf_add(out, line, (size_t)snprintf(line, sizeof line, "id: %lld\n", id)) < 0)
		return -1;
	/* Every line break form (CRLF, CR, LF) ends an SSE line: each one
	 * starts a new "data:" line, so the payload stays in the data field. */
	do {
		size_t start = i;

		i = sse_line_end(data, i, len);
		if (buf_adds(out, "data: ") < 0 || buf_add(out, data + start, i - start) < 0 ||
		    buf_adds(out, "\n") < 0)
			return -1;
		if (i < len && data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')
			i++;
		if (i < len)
			i++;
		else
			break;
	} while (1);
	return buf_adds(out, "\n");
}

/* Writes p; flushes unless more of the same batch follows. */
static int sse_put(struct sse *s, const char *p, size_t n, int flush)
{
	struct req *r = s->r;

	if (s->broken)
		return -1;
	if (r->out.write(r->out.ctx, p, n) < 0 || (flush && r->out.flush(r->out.ctx) < 0)) {
		s->broken = 1;
		return -1;
	}
	s->unflushed = !flush;
	s->last_write_ms = clock_mono_ms();
	if (flush) {
		s->flushes++;
		s->last_flush_ms = s->last_write_ms;
	}
	return 0;
}

static int sse_send(struct sse *s, const char *p, size_t n)
{
	return sse_put(s, p, n, 1);
}

int sse_flush(struct sse *s)
{
	if (s->broken || s->r->out.flush(s->r->out.ctx) < 0)
		return s->broken = 1, -1;
	s->unflushed = 0;
	s->flushes++;
	s->last_flush_ms = clock_mono_ms();
	return 0;
}

int sse_step_end(struct sse *s)
{
	if (s->broken)
		return -1;
	if (!s->unflushed || (s->flushes && clock_mono_ms() - s->last_flush_ms < SSE_BATCH_MS))
		return 0;
	return sse_flush(s);
}

/* The frame of one event, kept between events (a worker writes one
 * stream at a time) and let go when an event made it large. */
static struct buf sse_scratch = { NULL, 0, 0, SSE_MAX_EVENT };

int sse_event_batch(struct sse *s, long long id, const char *data, size_t len, int more)
{
	struct buf *b = &sse_scratch;
	int rc;

	buf_reset(b);
	rc = sse_frame(b, id, data, len);
	if (rc == 0)
		rc = sse_put(s, b->data, b->len, !more);
	if (b->alloc > SSE_SCRATCH_KEEP)
		buf_free(b);
	if (rc == 0)
		s->sent++;
	return rc;
}

/* One event written from its JSON: flushed unless more follows. */
static int sse_event_json(struct sse *s, long long id, const json_t *ev, int more)
{
	char *data = jdump(ev);
	int rc;

	if (data == NULL)
		return -1;
	rc = sse_event_batch(s, id, data, strlen(data), more);
	free(data);
	return rc;
}

int sse_event(struct sse *s, long long id, const json_t *ev)
{
	return sse_event_json(s, id, ev, 0);
}

int sse_comment(struct sse *s, const char *text)
{
	char line[256];
	int n = snprintf(line, sizeof line, ": %s\n\n", text);

	for (int i = 2; i < n - 2; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	return sse_send(s, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

int sse_keepalive(struct sse *s)
{
	if (s->broken)
		return -1;
	if (s->unflushed)
		return sse_flush(s);
	if (clock_mono_ms() - s->last_write_ms < s->keepalive_ms)
		return 0;
	return sse_comment(s, "keep-alive");
}

int sse_retry(struct sse *s, long ms)
{
	char line[64];
	int n = snprintf(line, sizeof line, "retry: %ld\n\n", ms);

	return sse_send(s, line, (size_t)n);
}

int sse_done(struct sse *s)
{
	static const char done[] = "data: [DONE]\n\n";

	/* The end of the response flushes it, with the end of the request. */
	return sse_put(s, done, sizeof done - 1, 0);
}

int sse_event_later(struct sse *s, const json_t *ev)
{
	return sse_event_json(s, 0, ev, 1);
}

json_t *sse_event_new(const char *type)
{
	return json_pack("{s:s, s:I}", "type", type, "timestamp", (json_int_t)clock_wall_ms());
}
