/* SSE framing as golden strings; flush per event; keep-alive timing; a
 * failed write reported and remembered. */
#include "config.h"
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "memio.h"
#include "conf/conf.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"
#include "util/jnum.h"

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

/* Numbers through the event writer: a double computed or rounded where it
 * is made is written as people write it (places < 0: not rounded). */
struct number_case {
	const char *name;
	double v;
	int places;
	const char *want;
};

static const struct number_case numbers[] = {
	{ "literal 0.85", 0.85, -1, "0.85" },
	{ "0.1 * 8.5", 0.1 * 8.5, -1, "0.85" },
	{ "85 / 100.0", 85 / 100.0, -1, "0.85" },
	{ "0.1 + 0.2", 0.1 + 0.2, -1, "0.3" },
	{ "0.07 * 3", 0.07 * 3, -1, "0.21" },
	{ "a whole real keeps its point", 1.0, -1, "1.0" },
	{ "one third as a score", 1.0 / 3, JNUM_SCORE, "0.33" },
	{ "two thirds as a score", 2.0 / 3, JNUM_SCORE, "0.67" },
	{ "0.285 rounds up as written", 0.285, JNUM_SCORE, "0.29" },
	{ "1.005 rounds up as written", 1.005, JNUM_SCORE, "1.01" },
	{ "0.125 rounds half away from zero", 0.125, JNUM_SCORE, "0.13" },
	{ "-0.125 rounds half away from zero", -0.125, JNUM_SCORE, "-0.13" },
	{ "a tiny negative is not -0.0", -0.004, JNUM_SCORE, "0.0" },
	{ "NaN is written as 0", NAN, JNUM_SCORE, "0.0" },
	{ "an average to one place", 12345.678, 1, "12345.7" },
	{ "a similarity to four places", 0.123456789, 4, "0.1235" },
	{ "progress 0.95 after steps of 0.05", 0.05 * 19, JNUM_SCORE, "0.95" },
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

	for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
		const struct number_case *nc = &numbers[i];
		char want[64];
		json_t *back;
		char *once, *twice;

		start(&m, &r, &s, &c);
		ev = sse_event_new("progress");
		json_object_set_new(ev, "v", nc->places < 0 ? json_real(nc->v) : jnum_real(nc->v, nc->places));
		snprintf(want, sizeof want, "\"v\":%s}", nc->want);
		is_int(sse_event(&s, 1, ev), 0, "number %s: written", nc->name);
		ok(strstr(m.out.data, want) != NULL, "number %s: %s", nc->name, want);
		/* A replay parses the stored text: it must write the same bytes. */
		once = json_dumps(ev, JNUM_DUMP);
		back = json_loads(once, 0, NULL);
		twice = back ? json_dumps(back, JNUM_DUMP) : NULL;
		is_str(twice ? twice : "", once, "number %s: read back, written the same", nc->name);
		free(once);
		free(twice);
		json_decref(back);
		json_decref(ev);
		req_free(&r);
		buf_free(&m.out);
	}

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
