/* SSE framing as golden strings; flush per event; keep-alive timing; a
 * failed write reported and remembered. */
#include "config.h"
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "memio.h"
#include "conf/conf.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"

struct frame_case {
	const char *name;
	long long id;
	const char *data;
	const char *want;
};

static const struct frame_case frames[] = {
	{ "plain, no id", 0, "{\"type\":\"x\"}", "data: {\"type\":\"x\"}\n\n" },
	{ "with id", 7, "{}", "id: 7\ndata: {}\n\n" },
	{ "LF splits data lines", 0, "a\nb", "data: a\ndata: b\n\n" },
	{ "CRLF is one break", 0, "a\r\nb", "data: a\ndata: b\n\n" },
	{ "lone CR is a break", 0, "a\rb", "data: a\ndata: b\n\n" },
	{ "CR CR is two breaks", 0, "a\r\rb", "data: a\ndata: \ndata: b\n\n" },
	{ "injected fields stay data", 3, "x\nid: 99\nevent: evil\n\ndata: y",
	  "id: 3\ndata: x\ndata: id: 99\ndata: event: evil\ndata: \ndata: data: y\n\n" },
	{ "trailing newline", 0, "a\n", "data: a\ndata: \n\n" },
	{ "empty", 0, "", "data: \n\n" },
	{ "large id", 9007199254740991LL, "{}", "id: 9007199254740991\ndata: {}\n\n" },
};

static void start(struct memio *m, struct req *r, struct sse *s, struct conf *c)
{
	char *envp[] = { "REQUEST_METHOD=GET", "REQUEST_URI=/api/agent/stream", NULL };
	static char *keep[3];

	memcpy(keep, envp, sizeof envp);
	memio_init(m, "", 0);
	req_init(r, c, keep, memio_in(m), memio_out(m));
	sse_start(s, r);
}

int main(void)
{
	struct conf c;
	struct memio m;
	struct req r;
	struct sse s;
	struct buf b;
	json_t *ev;
	int flushes;

	conf_init(&c);
	buf_init(&b, 1 << 16);
	for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
		buf_reset(&b);
		sse_frame(&b, frames[i].id, frames[i].data, strlen(frames[i].data));
		is_str(b.data, frames[i].want, "frame: %s", frames[i].name);
	}
	buf_free(&b);

	c.keepalive_ms = 50;
	start(&m, &r, &s, &c);
	ok(strstr(m.out.data, "Content-Type: text/event-stream") != NULL, "stream: media type");
	ok(strstr(m.out.data, "Cache-Control: no-cache") != NULL, "stream: not cached");
	ok(strstr(m.out.data, "X-Accel-Buffering: no") != NULL, "stream: no proxy buffering");
	ok(r.sse == &s, "stream: the request knows it streams");
	flushes = m.flushes;
	ev = sse_event_new("thought_log");
	json_object_set_new(ev, "node", json_string("planner"));
	json_object_set_new(ev, "message", json_string("line one\nline two"));
	is_int(sse_event(&s, 1, ev), 0, "event: written");
	json_decref(ev);
	is_int(m.flushes, flushes + 1, "event: flushed once");
	ok(strstr(m.out.data, "id: 1\ndata: {\"type\":\"thought_log\",\"timestamp\":") != NULL,
	   "event: type and timestamp lead");
	ok(strstr(m.out.data, "\"message\":\"line one\\nline two\"") != NULL,
	   "event: JSON escapes newlines, one data line");
	buf_reset(&m.out);
	is_int(sse_keepalive(&s), 0, "keep-alive: not due yet");
	is_int(m.out.len, 0, "keep-alive: nothing written before the interval");
	usleep(70 * 1000);
	is_int(sse_keepalive(&s), 0, "keep-alive: due");
	is_str(m.out.data, ": keep-alive\n\n", "keep-alive: a comment line");
	buf_reset(&m.out);
	sse_retry(&s, 1500);
	is_str(m.out.data, "retry: 1500\n\n", "retry field");
	buf_reset(&m.out);
	sse_done(&s);
	is_str(m.out.data, "data: [DONE]\n\n", "done marker");
	buf_reset(&m.out);
	sse_comment(&s, "x\ny");
	is_str(m.out.data, ": x y\n\n", "a comment cannot break its line");

	m.writes_left = 0;
	ev = sse_event_new("progress");
	is_int(sse_event(&s, 0, ev), -1, "disconnect: a failed write is reported");
	ok(s.broken, "disconnect: remembered");
	m.writes_left = -1;
	is_int(sse_event(&s, 0, ev), -1, "disconnect: later events are refused");
	is_int(sse_keepalive(&s), -1, "disconnect: keep-alive reports it too");
	json_decref(ev);
	req_free(&r);
	buf_free(&m.out);

	start(&m, &r, &s, &c);
	problem_send(&r, PB_BUSY, "someone else is running it");
	ok(strstr(m.out.data, "data: {\"type\":\"error\",\"code\":\"thread_busy\"") != NULL,
	   "an error after the stream began is an error event");
	req_free(&r);
	buf_free(&m.out);
	conf_free(&c);
	return tap_done();
}
