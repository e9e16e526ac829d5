#!/usr/bin/env python3
"""Clients that do not read, through lighttpd configured from
contrib/lighttpd/aivista.conf with its idle limit at the default (360 s).

Four connections ask for the stream of a finished thread whose event log
is about 8 MiB and never read (a small receive buffer): with
server.stream-response-body = 2 (the shipped setting: events reach the
client as they are sent) lighttpd reads from the worker only as fast as
the client takes, so a replay's writes wait. Each write has a deadline
([server] write_timeout_ms, 1 s here) and at most [server] max_replays (2)
long replays run at once: the two over the limit get 503 overloaded with
Retry-After, the two replays are abandoned within about the deadline,
/api/health answers within 1 s all the while, all four workers are free
again, a short replay is never refused, and a client that reconnects gets
the whole log, or the rest of it after Last-Event-ID.

(With stream-response-body 0 or 1 lighttpd reads the whole response
whatever the client does, in memory or temporary files: no worker waits
on a client, and a replay ends as fast as the store reads.)
"""

import http.client
import json
import os
import re
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import webservers as ws  # noqa: E402
from avtest import SSEReader  # noqa: E402

WORKERS = 4
WRITE_TIMEOUT_MS = 1000
MAX_REPLAYS = 2
TOPIC_BYTES = 4 << 20      # the thread's events carry it twice: a log of about 8 MiB
IDLE_S = 360               # lighttpd's server.max-write-idle default
ABANDONED = re.compile(r"GET /api/agent/stream: the web server took nothing for %d ms"
                       % WRITE_TIMEOUT_MS)


def stream_path(tid):
    return "/api/agent/stream?threadId=" + tid


def silent_client(port, tid):
    """A connection that asks for the thread's stream and never reads."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
               % stream_path(tid)).encode())
    return s


def peek_status(s, timeout):
    """The status of the answer on s, read without taking it off the socket
    (the window stays shut), or None."""
    s.settimeout(timeout)
    try:
        head = s.recv(12, socket.MSG_PEEK | socket.MSG_WAITALL)
    except OSError:
        return None
    m = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    return int(m.group(1)) if m else None


def read_answer(s):
    """The whole (short) answer on s: (status, headers, body)."""
    s.settimeout(10)
    resp = http.client.HTTPResponse(s, method="GET")
    resp.begin()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()


class HealthWatch(threading.Thread):
    """/api/health asked every 100 ms: (seconds, answer time, status)."""

    def __init__(self, srv):
        super().__init__(daemon=True)
        self.srv = srv
        self.samples = []
        self.halt = threading.Event()
        self.t0 = time.monotonic()

    def run(self):
        while not self.halt.is_set():
            t = time.monotonic()
            try:
                status = self.srv.request("GET", "/api/health", timeout=5)[0]
            except OSError:
                status = None
            self.samples.append((t - self.t0, time.monotonic() - t, status))
            self.halt.wait(0.1)

    def stop(self):
        self.halt.set()
        self.join(10)


def first_event_time(srv, out, i):
    """Starts a run whose step sleeps 1.5 s: how long its first event took."""
    t0 = time.monotonic()
    try:
        s = ws.TimedStream(srv, "POST", "/api/agent/stream",
                           ws.test_input(topic="free %d" % i, steps=1, sleepMs=1500), timeout=5)
        ev = s.next()
        out[i] = time.monotonic() - t0 if s.status == 200 and ev is not None else None
        s.read_all()
    except OSError:
        out[i] = None


def leave(s):
    """Closes the connection the way a closed browser tab does (RST)."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def log_lines(path, rx):
    return [l for l in avtest.tail(path, 100000).splitlines() if rx.search(l)]


def durable(body):
    return [(e["id"], e["data"]) for e in SSEReader(iter([body])) if "id" in e]


def test_abandoned(t, srv, held_at):
    """The two replays are given up within about the deadline."""
    seen = avtest.wait_for(lambda: len(log_lines(srv.worker_log, ABANDONED)) >= MAX_REPLAYS,
                           WRITE_TIMEOUT_MS / 1000 + 4)
    took = time.monotonic() - held_at
    t.ok(seen, "the %d replays nobody reads are abandoned (%.1f s after they began, "
         "write_timeout_ms %d)" % (MAX_REPLAYS, took, WRITE_TIMEOUT_MS))
    t.ok(took < WRITE_TIMEOUT_MS / 1000 + 3, "... within about the deadline (%.1f s)" % took)


def test_all_free(t, srv):
    """Four runs started at once each get a worker at once."""
    out = {}
    runs = [threading.Thread(target=first_event_time, args=(srv, out, i)) for i in range(WORKERS)]
    for r in runs:
        r.start()
    for r in runs:
        r.join(30)
    times = [out.get(i) for i in range(WORKERS)]
    t.ok(all(x is not None and x < 1.0 for x in times),
         "afterwards all %d workers are free: four runs start at once (first events after %s s)"
         % (WORKERS, ", ".join("%.2f" % x if x is not None else "-" for x in times)))


def test_refused(t, socks):
    """Each is answered 503 (read whole); one answered otherwise is left
    unread, as its client would."""
    for s in socks:
        status = peek_status(s, 5)
        headers, body = {}, b""
        if status == 503:
            status, headers, body = read_answer(s)
        p = avtest.problem(body) or {}
        t.is_((status, p.get("code")), (503, "overloaded"),
              "a long replay over max_replays: 503 overloaded")
        t.ok((headers.get("retry-after") or "").isdigit(),
             "... with Retry-After (%r)" % headers.get("retry-after"))
        t.like(p.get("detail", ""), "max_replays", "... saying which limit")


def main(t):
    if not os.access(ws.TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % ws.TEST_WORKER)
    d = t.tmpdir("slowcl")
    srv = ws.LighttpdServer(t, d, workers=WORKERS, binary=ws.TEST_WORKER, write_idle=IDLE_S,
                            settings={"server": {"write_timeout_ms": str(WRITE_TIMEOUT_MS),
                                                 "max_replays": str(MAX_REPLAYS)}}).start()
    big = srv.request("POST", "/api/agent/stream", json.dumps(ws.test_input(topic="x" * TOPIC_BYTES)),
                      ws.JSON_HDR, timeout=60)
    log = durable(big[2])
    tid = log[0][1]["threadId"] if log else None
    small = srv.request("POST", "/api/agent/stream", json.dumps(ws.test_input(topic="small")),
                        ws.JSON_HDR)
    small_tid = durable(small[2])[0][1]["threadId"]
    t.ok(big[0] == 200 and len(big[2]) > 6 << 20 and tid,
         "a finished thread with a %.1f MiB event stream (%d events)" % (len(big[2]) / 2**20, len(log)))

    watch = HealthWatch(srv)
    watch.start()
    replays = [silent_client(srv.port, tid) for _ in range(MAX_REPLAYS)]
    held = [peek_status(s, 5) for s in replays]
    held_at = time.monotonic()
    t.is_(held, [200] * MAX_REPLAYS, "%d clients that do not read start their replays" % MAX_REPLAYS)
    over = [silent_client(srv.port, tid) for _ in range(WORKERS - MAX_REPLAYS)]
    test_refused(t, over)
    try:
        r = srv.request("GET", stream_path(small_tid), timeout=10)
    except OSError as e:
        r = (str(e), {}, b"")
    t.ok(r[0] == 200 and r[2].endswith(b"data: [DONE]\n\n"),
         "a short replay meanwhile is not counted: answered whole (%d bytes)" % len(r[2]))
    test_abandoned(t, srv, held_at)
    time.sleep(1)
    watch.stop()
    slow = [x for x in watch.samples if x[2] != 200 or x[1] >= 1.0]
    t.ok(len(watch.samples) >= 10 and not slow,
         "/api/health answered within 1 s throughout (%d asks, slowest %.2f s; late or failed: %s)"
         % (len(watch.samples), max((x[1] for x in watch.samples), default=0),
            ", ".join("at %.1f s: %s in %.2f s" % (x[0], x[2], x[1]) for x in slow[:5])))
    test_all_free(t, srv)

    for s in replays + over:
        leave(s)
    r = srv.request("GET", stream_path(tid), timeout=60)
    t.ok(r[0] == 200 and durable(r[2]) == log and r[2].endswith(b"data: [DONE]\n\n"),
         "a client that reconnects gets the whole log (%d of %d events)" % (len(durable(r[2])), len(log)))
    mid = log[len(log) // 2][0]
    r = srv.request("GET", stream_path(tid), headers={"Last-Event-ID": mid}, timeout=60)
    t.ok(r[0] == 200 and durable(r[2]) == [e for e in log if int(e[0]) > int(mid)],
         "... or the rest of it after Last-Event-ID %s" % mid)
    t.is_(srv.stop(), [], "lighttpd and its workers stop cleanly")


avtest.run(main)
