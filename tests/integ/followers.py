#!/usr/bin/env python3
"""Followers of one thread are capped by [server] max_followers, across
workers: with the cap at 2, two GET /api/agent/stream of a thread another
worker runs follow it, a third gets 503 overloaded with Retry-After; a
follower killed with SIGKILL frees its place, and the next one follows.
Replaying a thread that no longer runs takes no place.

A follower on another worker sees each event soon after the runner's
client does: woken by the commit's NOTIFY on PostgreSQL (a median under
40 ms), polling every 50 ms on Berkeley DB (a median under 80 ms).

Every worker handles one request at a time, so each stream here has a
worker of its own (the test worker, one store)."""

import json
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402
from avtest import SSEReader  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")
SETTINGS = {"engine": {"steps_per_request": "0"}, "server": {"max_followers": "2",
                                                              "keepalive_ms": "200"}}


def open_stream(w, method, uri, body=b""):
    """A request whose answer is read as it comes: (conn, response, chunks)."""
    conn = w.connect(timeout=60)
    conn.begin()
    conn.send_params(fcgi_client.cgi_params(method, uri, len(body),
                                            {"Content-Type": "application/json"} if body else {}))
    conn.send_stdin(body)
    resp = fcgi_client.Response()
    return conn, resp, conn.stream(resp)


def first_event(chunks):
    """The first event of a stream (reading no further)."""
    return next(iter(SSEReader(lambda: next(chunks, b""))))


def follow(w, tid):
    """A follower: open, its headers read and its first replayed event seen."""
    conn, resp, chunks = open_stream(w, "GET", "/api/agent/stream?threadId=" + tid)
    ev = first_event(chunks)
    return conn, resp, ev


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    os.environ["AIVISTA_WORKER"] = TEST_WORKER
    d = t.tmpdir("followers")
    ws = [avtest.Worker(t, d, name="w%d" % i, settings=SETTINGS).start() for i in range(5)]
    runner, f1, f2, f3, f4 = ws

    body = json.dumps({"workflow": "test", "input": {"topic": "long", "steps": 40,
                                                     "sleepMs": 500, "pause": False}}).encode()
    rconn, rresp, rchunks = open_stream(runner, "POST", "/api/agent/stream", body)
    tid = first_event(rchunks)["data"]["threadId"]

    c1, r1, e1 = follow(f1, tid)
    c2, r2, e2 = follow(f2, tid)
    t.ok(r1.status == 200 and r2.status == 200 and e1.get("id") == "1" and e2.get("id") == "1",
         "two followers (the cap) stream the running thread")

    r3 = f3.request("GET", "/api/agent/stream?threadId=" + tid, timeout=30)
    code = (avtest.problem(r3.body) or {}).get("code")
    t.is_((r3.status, code), (503, "overloaded"), "a third follower: 503 overloaded")
    t.ok((r3.header("Retry-After") or "").isdigit(), "... with Retry-After (%r)" % r3.header("Retry-After"))
    t.like((avtest.problem(r3.body) or {}).get("detail", ""), "max_followers",
           "... saying which limit")

    f2.signal(signal.SIGKILL)
    f2.wait()
    c2.close()
    c3 = None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        conn, resp, chunks = open_stream(f3, "GET", "/api/agent/stream?threadId=" + tid)
        ev = first_event(chunks)
        if resp.status == 200:
            c3 = conn
            break
        conn.close()
        time.sleep(0.2)
    t.ok(c3 is not None, "a follower killed with SIGKILL frees its place: the next one follows")

    # The run ends; a thread that no longer runs is replayed without a place.
    rest = list(SSEReader(lambda: next(rchunks, b"")))
    t.is_(rest[-1]["data"] if rest else None, "[DONE]", "the run goes on to its end")
    rconn.close()
    for c in (c1, c3):
        if c:
            c.close()
    for f in (f1, f4):
        if not f.alive():
            t.diag("%s exited:" % f.name, avtest.tail(f.log))
    replays = [f.request("GET", "/api/agent/stream?threadId=" + tid, timeout=30) for f in (f1, f4)]
    t.is_([r.status for r in replays], [200, 200], "replays of a finished thread are not capped")

    test_wakeup(t, d)


def arrivals(chunks, out):
    """Each event's id and when it arrived, until the stream ends."""
    for ev in SSEReader(lambda: next(chunks, b"")):
        if ev.get("id"):
            out[int(ev["id"])] = time.monotonic()


def test_wakeup(t, d):
    runner, follower = [avtest.Worker(t, d, name=n, settings=SETTINGS).start() for n in ("wr", "wf")]
    body = json.dumps({"workflow": "test", "input": {"topic": "wake", "steps": 12,
                                                     "sleepMs": 200, "pause": False}}).encode()
    rconn, rresp, rchunks = open_stream(runner, "POST", "/api/agent/stream", body)
    first = first_event(rchunks)
    tid = first["data"]["threadId"]
    fconn, fresp, fchunks = open_stream(follower, "GET", "/api/agent/stream?threadId=" + tid)
    seen_r, seen_f = {}, {}
    readers = [threading.Thread(target=arrivals, args=(c, o)) for c, o in
               ((rchunks, seen_r), (fchunks, seen_f))]
    for r in readers:
        r.start()
    for r in readers:
        r.join(60)
    rconn.close()
    fconn.close()
    # The events the follower got live: those it saw after the runner's client.
    delays = [(seen_f[i] - seen_r[i]) * 1000 for i in seen_r if i in seen_f and seen_f[i] >= seen_r[i]]
    bound = 40 if avtest.store_backend() == "postgresql" else 80
    # (not statistics.median: it imports numbers, which here is tests/integ/numbers.py)
    med = sorted(delays)[len(delays) // 2] if delays else None
    t.diag("follower delays on %s (ms): %s" % (avtest.store_backend(),
                                                ", ".join("%.1f" % x for x in sorted(delays))))
    t.ok(len(delays) >= 10, "the follower saw the run live (%d events)" % len(delays))
    t.ok(med is not None and med < bound,
         "a follower on another worker sees events within %d ms (median %s ms)"
         % (bound, "%.1f" % med if med is not None else "-"))


avtest.run(main)
