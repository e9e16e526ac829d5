/* The write deadline, through the stack the worker serves with: a request
 * accepted by libfcgi on a Unix socket from a fake web server, the
 * deadline on its connection, the SSE writer on its stream, and the end
 * of the request. Nobody reads: the write fails within about the
 * deadline, the failure is the deadline, every later write, keep-alive
 * and flush fails at once, and the end of the request closes the
 * connection at once (no second wait, no lingering close). A reader that
 * takes a little at a time, each within the deadline, is served to the
 * end, however long the whole takes. */
#include "config.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "memio.h"
#include "conf/conf.h"
#include "fcgi/fcgxio.h"
#include "fcgi/req.h"
#include "fcgi/sse.h"
#include "fcgi/wtimeout.h"
#include "util/clock.h"

#define EVENT_BYTES (64 << 10)

struct deadline_case {
	const char *name;
	long deadline_ms;
	long read_every_ms;  /* 0: nobody reads */
	size_t read_bytes;   /* taken each time */
	size_t total;        /* bytes of events to write */
	int want_rc;         /* the last event's write: 0 or -1 */
	long min_ms, max_ms; /* how long the writing takes */
	long finish_max_ms;  /* how long the end of the request may take */
};

static const struct deadline_case cases[] = {
	{ "nobody reads", 300, 0, 0, 8u << 20, -1, 250, 2000, 150 },
	{ "a slow reader, each read within the deadline", 300, 30, 32 << 10, 256u << 10, 0, 300,
	  20000, 2000 },
};

/* The records a web server sends for "GET /api/agent/stream": begin
 * (responder), one parameter, the end of the parameters, the end of the
 * (empty) input. */
static const unsigned char request_records[] = {
	1, 1, 0, 1, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
	1, 4, 0, 1, 0, 19, 5, 0, 14, 3, 'R', 'E', 'Q', 'U', 'E', 'S', 'T', '_', 'M', 'E', 'T', 'H',
	'O', 'D', 'G', 'E', 'T', 0, 0, 0, 0, 0,
	1, 4, 0, 1, 0, 0, 0, 0,
	1, 5, 0, 1, 0, 0, 0, 0,
};

/* The fake web server's connection, its request sent: the fd, or -1. */
static int server_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (strlen(path) >= sizeof sa.sun_path)
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    write(fd, request_records, sizeof request_records) != (ssize_t)sizeof request_records)
		return -1;
	return fd;
}

/* A process that reads up to n bytes from fd every ms milliseconds until
 * the end; other is the worker's end, which it closes. */
static pid_t reader_start(int fd, int other, long ms, size_t n)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *buf = malloc(n);

		close(other);
		for (;;) {
			usleep((useconds_t)ms * 1000);
			if (read(fd, buf, n) <= 0)
				break;
		}
		free(buf);
		_exit(0);
	}
	return pid;
}

/* True when the peer reads to the end of the connection within 2 s. */
static int peer_sees_end(int fd)
{
	struct timeval tv = { 2, 0 };
	char buf[65536];
	ssize_t k;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	while ((k = read(fd, buf, sizeof buf)) > 0)
		;
	return k == 0;
}

/* Writes events until total bytes went or one failed: the last rc. */
static int write_events(struct sse *s, const char *data, size_t total)
{
	int rc = 0;

	for (size_t sent = 0; sent < total && rc == 0; sent += EVENT_BYTES)
		rc = sse_event_batch(s, (long long)(sent / EVENT_BYTES) + 1, data, EVENT_BYTES, 0);
	return rc;
}

static void after_failure(const struct deadline_case *dc, struct sse *s, FCGX_Stream *out,
			  const char *data)
{
	long long t0 = clock_mono_ms();

	ok(s->broken, "%s: the writer remembers it", dc->name);
	ok(wtimeout_passed(FCGX_GetError(out)), "%s: the failure is the deadline", dc->name);
	is_int(sse_event_batch(s, 999, data, EVENT_BYTES, 0), -1, "%s: a later event fails",
	       dc->name);
	is_int(sse_keepalive(s), -1, "%s: a keep-alive fails", dc->name);
	is_int(s->r->out.write(s->r->out.ctx, "x", 1), -1, "%s: a plain write fails", dc->name);
	is_int(s->r->out.flush(s->r->out.ctx), -1, "%s: a flush fails", dc->name);
	ok(clock_mono_ms() - t0 < 100, "%s: ... each at once (%lld ms for all)", dc->name,
	   clock_mono_ms() - t0);
}

/* Serves one request to the fake web server as the case says. */
static void serve(const struct deadline_case *dc, FCGX_Request *fr, const struct conf *c,
		  const char *data, int peer)
{
	int small = 4096, status;
	pid_t reader = -1;
	struct memio m;
	struct req r;
	struct sse s;
	long long t0, took;
	int rc;

	setsockopt(fr->ipcFd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
	is_int(wtimeout_set(fr->ipcFd, dc->deadline_ms), 0, "%s: the deadline is set", dc->name);
	if (dc->read_every_ms)
		reader = reader_start(peer, fr->ipcFd, dc->read_every_ms, dc->read_bytes);
	memio_init(&m, "", 0);
	req_init(&r, c, fr->envp, fcgxio_in(fr->in), fcgxio_out(fr->out));
	sse_start(&s, &r);
	t0 = clock_mono_ms();
	rc = write_events(&s, data, dc->total);
	took = clock_mono_ms() - t0;
	is_int(rc, dc->want_rc, "%s: the last write's answer", dc->name);
	ok(took >= dc->min_ms && took <= dc->max_ms, "%s: took %lld ms (%ld to %ld)", dc->name, took,
	   dc->min_ms, dc->max_ms);
	if (rc < 0)
		after_failure(dc, &s, fr->out, data);
	req_free(&r);
	buf_free(&m.out);
	t0 = clock_mono_ms();
	fcgxio_finish(fr, 1);
	took = clock_mono_ms() - t0;
	ok(took <= dc->finish_max_ms, "%s: the request ends in %lld ms (at most %ld)", dc->name, took,
	   dc->finish_max_ms);
	is_int(fr->ipcFd, -1, "%s: its connection is closed", dc->name);
	if (reader > 0)
		ok(waitpid(reader, &status, 0) == reader, "%s: the reader read to the end", dc->name);
	else
		ok(peer_sees_end(peer), "%s: the web server's end sees it closed", dc->name);
}

int main(void)
{
	char dir[] = "/tmp/t_wtimeout.XXXXXX", path[128];
	char *data = malloc(EVENT_BYTES);
	FCGX_Request fr;
	struct conf c;
	int lfd;

	/* Without the deadline a write nobody reads would wait forever. */
	alarm(30);
	if (mkdtemp(dir) == NULL || FCGX_Init() != 0)
		return 99;
	snprintf(path, sizeof path, "%s/sock", dir);
	lfd = FCGX_OpenSocket(path, 4);
	if (lfd < 0 || FCGX_InitRequest(&fr, lfd, 0) != 0)
		return 99;
	memset(data, 'e', EVENT_BYTES);
	conf_init(&c);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int peer = server_connect(path);

		if (peer < 0 || FCGX_Accept_r(&fr) != 0)
			return 99;
		serve(&cases[i], &fr, &c, data, peer);
		close(peer);
	}
	FCGX_Free(&fr, 1);
	close(lfd);
	unlink(path);
	rmdir(dir);
	conf_free(&c);
	free(data);
	return tap_done();
}
