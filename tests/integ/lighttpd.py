#!/usr/bin/env python3
"""A real lighttpd, configured from contrib/lighttpd/aivista.conf (the
file users deploy), spawning several workers: the app's static files, the
health endpoint, error responses, and workers that keep serving after bad
requests. At the end lighttpd and every worker are gone."""

import json
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avtest import Lighttpd, proc_alive  # noqa: E402

WORKERS = 3
MAX_BODY = 65536
STREAM = "/api/agent/stream"
JSON_HDR = {"Content-Type": "application/json"}


def expect_problem(t, status, headers, body, want_status, want_code, name):
    """Checks the status, the problem code and the problem JSON; returns
    the worker that answered (X-AiVista-Worker)."""
    avtest.expect_problem(t, status, body, want_status, want_code, name)
    t.ok(avtest.problem_shaped(status, headers.get("content-type"), body), "%s: problem JSON" % name)
    return headers.get("x-aivista-worker")


def health_pids(srv, n):
    """The workers that answered n health requests in a row."""
    pids = []
    for _ in range(n):
        status, headers, body = srv.get("/api/health")
        if status != 200:
            return None
        pids.append(int(headers.get("x-aivista-worker", "0")))
    return pids


def main(t):
    d = t.tmpdir("lighttpd")
    srv = Lighttpd(t, d, workers=WORKERS,
                   settings={"server": {"max_body_bytes": str(MAX_BODY)}}).start()
    t.diag("lighttpd pid %d on port %d" % (srv.pid, srv.port))
    workers = srv.worker_pids()
    t.is_(len(workers), WORKERS, "lighttpd runs %d workers" % WORKERS)

    # Static files.
    status, headers, body = srv.get("/")
    with open(avtest.src_path("www", "index.html"), "rb") as f:
        index = f.read()
    t.is_(status, 200, "GET /: 200")
    t.ok(body == index, "GET /: serves www/index.html")
    t.like(headers.get("content-type"), r"^text/html", "GET /: text/html")
    status, headers, body = srv.get("/app.js")
    t.ok(status == 200 and headers.get("content-type", "").startswith("text/javascript"),
         "GET /app.js: served as JavaScript (ES modules need it)")

    # Health.
    status, headers, body = srv.get("/api/health")
    t.is_(status, 200, "health: 200")
    t.like(headers.get("content-type"), r"^application/json", "health: application/json")
    try:
        j = json.loads(body)
    except ValueError:
        j = {}
    t.is_(j.get("status"), "ok", "health: status ok")
    t.ok((j.get("store") or {}).get("reachable") is True, "health: store reachable")
    t.ok(j.get("pid") in workers, "health: answered by one of lighttpd's workers")
    t.is_(headers.get("x-aivista-worker"), str(j.get("pid")), "health: X-AiVista-Worker header")
    before = health_pids(srv, 5)
    t.ok(before and set(before) <= set(workers), "health five times: 200 from lighttpd's workers")

    # Errors.
    served = []
    status, headers, body = srv.get("/api/no-such-thing")
    served.append(expect_problem(t, status, headers, body, 404, "not_found", "unknown endpoint"))
    status, headers, body = srv.request("POST", "/api/health", b"{}", JSON_HDR)
    served.append(expect_problem(t, status, headers, body, 405, "method_not_allowed",
                                 "POST /api/health"))
    status, headers, body = srv.request("POST", STREAM, b'{"workflow": "chat", "input": {',
                                        JSON_HDR)
    served.append(expect_problem(t, status, headers, body, 400, "bad_json", "malformed JSON"))
    big = b'{"workflow": "chat", "input": {"text": "' + b"a" * (4 * MAX_BODY) + b'"}}'
    status, headers, body = srv.request("POST", STREAM, big, JSON_HDR)
    served.append(expect_problem(t, status, headers, body, 413, "body_too_large",
                                 "oversized body"))
    served = [int(p) for p in served if p and p.isdigit()]
    t.is_(len(served), 4, "every error came from a worker (X-AiVista-Worker)")

    # The workers survive.
    after = srv.worker_pids()
    t.is_(after, workers, "the same workers run after the bad requests (none respawned)")
    t.ok(served and all(proc_alive(p) for p in served),
         "the workers that answered bad requests are alive")
    later = health_pids(srv, 10)
    t.ok(later and set(later) <= set(workers), "health ten times after: 200 from the same workers")
    t.ok(later and set(later) & set(served),
         "a worker that answered a bad request keeps serving (same pid)")
    t.diag("workers %s; bad requests served by %s; health after by %s" %
           (workers, sorted(set(served)), sorted(set(later or []))))

    # Stop: lighttpd and every worker go.
    pid = srv.pid
    stray = srv.stop()
    t.is_(stray, [], "SIGTERM to the process group stops lighttpd and the workers")
    t.ok(not proc_alive(pid), "lighttpd is gone")
    t.is_([p for p in workers if proc_alive(p)], [], "no worker left running")
    t.is_(avtest.group_members(pid), [], "nothing left in lighttpd's process group")
    lines = avtest.tail(srv.worker_log, 200).splitlines()
    t.ok(len([l for l in lines if "worker ready" in l]) >= WORKERS,
         "the workers' standard error is in log/worker.log (server.breakagelog)")
    errors = [line for line in lines
              if "aivista[" in line and (" error " in line or "signal" in line)]
    t.is_(errors, [], "no worker logged an error")

    test_worker_log(t, t.tmpdir("lighttpd-nostore"))
    test_parent_killed(t, t.tmpdir("lighttpd-parent"))


def test_worker_log(t, d):
    """A store that cannot be opened: the 503 the client gets has its line,
    with the reason, in log/worker.log (without server.breakagelog the
    workers' standard error is lost)."""
    blocker = avtest.write_file(os.path.join(d, "not-a-directory"), "x")
    srv = Lighttpd(t, d, workers=1, settings={"store": {"dir": os.path.join(blocker, "store")}})
    srv.port = avtest.free_port()
    srv.write_conf()
    srv.launch()

    def answered():
        try:
            return srv.get("/api/health", timeout=5)
        except OSError:
            return None
    got = avtest.wait_for(answered, avtest.START_TIMEOUT, 0.1)
    status = got[0] if got else None
    t.is_(status, 503, "a store that cannot be opened: health answers 503")
    line = avtest.wait_for(lambda: [l for l in avtest.tail(srv.worker_log, 1000).splitlines()
                                    if " error " in l and "store" in l], 10)
    t.ok(line, "...and log/worker.log has the worker's error line (%s)" % (line or ["none"])[0])
    srv.stop()


def test_parent_killed(t, d, kills=3):
    """The prefork parent killed with SIGKILL, again and again: lighttpd
    finds the socket still answering and starts no parent of its own, so
    one of the workers takes the parent's place and the pool goes on with
    fresh workers; once lighttpd stops, nothing of it is left."""
    srv = Lighttpd(t, d, workers=WORKERS).start()
    pgid = srv.proc.pid
    served = []
    for k in range(kills):
        parents = [p for p in avtest.group_members(pgid)
                   if p != srv.proc.pid and avtest.proc_children(p)]
        if len(parents) != 1:
            t.ok(False, "parent killed: one prefork parent to kill (found %s)" % parents)
            return
        os.kill(parents[0], signal.SIGKILL)

        def pool_back():
            kids = [p for p in avtest.group_members(pgid)
                    if p != srv.proc.pid and avtest.proc_children(p)]
            return kids if kids and kids != parents and \
                len(avtest.proc_children(kids[0])) == WORKERS else None
        back = avtest.wait_for(pool_back, 10)
        answers = [srv.get("/api/health") for _ in range(2 * WORKERS)]
        served.append((back, [a[0] for a in answers]))
    t.ok(all(b and codes == [200] * (2 * WORKERS) for b, codes in served),
         "the prefork parent killed %d times: each time a worker takes its place, starts %d "
         "workers, and every request is answered (%s)" % (kills, WORKERS, served))
    lines = avtest.tail(srv.worker_log, 10000).splitlines()
    t.is_(len([l for l in lines if "takes its place" in l]), kills,
          "...and worker.log says so each time")
    os.kill(srv.proc.pid, signal.SIGTERM)
    avtest.wait_exit(srv.proc, avtest.STOP_TIMEOUT)
    left = avtest.wait_for(lambda: not avtest.group_members(pgid) or None, 10)
    t.ok(left, "lighttpd stopped: the pool that took over stops too (left: %s)" %
         avtest.group_members(pgid))
    srv.stop()


if __name__ == "__main__":
    avtest.run(main)
