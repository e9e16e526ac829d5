#!/usr/bin/env python3
"""contrib/quickstart as a user runs it: start, status, a second instance
side by side, stop. It reuses the worker make built (AIVISTA_WORKER), and
keeps all its state in a temporary AIVISTA_HOME."""

import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avtest import pool_workers, proc_alive, proc_children  # noqa: E402

WORKERS = 2


class Instance:
    """One contrib/quickstart home (quickstart_pg.py's runs on PostgreSQL)."""
    timeout = 180

    def __init__(self, t, home, conf=None):
        self.t = t
        self.home = home
        self.port = avtest.free_port()
        self.env = avtest.clean_env(AIVISTA_HOME=home, AIVISTA_PORT=self.port,
                                    AIVISTA_WORKERS=WORKERS, AIVISTA_WORKER=avtest.worker_path(),
                                    LIGHTTPD=avtest.lighttpd_path())
        if conf:
            self.env["AIVISTA_CONF"] = conf
        t.cleanup(self.force_stop)

    def run(self, *args):
        p = subprocess.run(["bash", avtest.src_path("contrib", "quickstart")] + list(args),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=self.env, timeout=self.timeout)
        out = p.stdout.decode(errors="replace")
        return p.returncode, out

    def start(self):
        """contrib/quickstart start; a port taken meanwhile by another test
        is replaced by a new one."""
        for attempt in range(3):
            rc, out = self.run("start")
            if rc == 0 or "already in use" not in out:
                break
            self.port = avtest.free_port()
            self.env["AIVISTA_PORT"] = str(self.port)
        return rc, out

    def get(self, path):
        return avtest.http_request(self.port, "GET", path)

    def lighttpd_pid(self):
        try:
            with open(os.path.join(self.home, "run", "lighttpd.pid")) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def force_stop(self):
        if self.lighttpd_pid() and proc_alive(self.lighttpd_pid()):
            rc, out = self.run("stop")
            if rc:
                self.t.diag(out)


def test_private(t, a):
    """The store and the logs are the user's alone."""
    for rel in ("store", "log"):
        p = os.path.join(a.home, rel)
        t.is_(oct(avtest.file_mode(p)), oct(0o700), "%s/ is created 0700" % rel)
    for rel in ("log/access.log", "log/error.log", "log/worker.log"):
        p = os.path.join(a.home, rel)
        m = avtest.file_mode(p) if os.path.exists(p) else None
        t.ok(m is not None and m & 0o077 == 0,
             "%s is readable by its owner only (%s)" % (rel, oct(m) if m is not None else "missing"))


def thread_requests(a):
    """Starts a thread, then reads it back by every URL that names it.
    Returns its ID."""
    status, _, body = avtest.http_request(
        a.port, "POST", "/api/agent/stream",
        json.dumps({"workflow": "image", "input": {"text": "水彩风景"}}),
        {"Content-Type": "application/json"}, timeout=60)
    tid = None
    for ev in avtest.SSEReader(iter([body])):
        if isinstance(ev["data"], dict) and ev["data"].get("threadId"):
            tid = ev["data"]["threadId"]
            break
    if tid:
        a.get("/api/threads/" + tid)
        a.get("/api/threads/" + tid + "/history")
        a.get("/api/agent/stream?threadId=%s&lastEventId=0" % tid)
    return tid


def test_access_log(t, a):
    """Thread IDs are bearer credentials: after requests that carry one in
    the path and in the query, the access log has the requests but not
    the ID."""
    tid = thread_requests(a)
    log = os.path.join(a.home, "log", "access.log")

    def logged():
        text = avtest.tail(log, 1000000)
        return text if text.count("GET /api/threads/* ") >= 2 else None
    text = avtest.wait_for(logged, 10) or avtest.tail(log, 1000000)
    t.ok(tid is not None, "a thread was started through the quickstart")
    if not t.ok(text.count("GET /api/threads/* ") >= 2 and "GET /api/agent/stream " in text,
                "the access log has the requests, thread paths masked"):
        t.diag(text[-2000:])
    t.ok(tid is not None and tid not in text and "threadId" not in text,
         "the access log has neither the thread ID nor the query string")
    half = tid[:20] if tid else "-"
    t.ok(half not in text, "...nor any part of the ID")


def test_worker_log(t, a, pid):
    """A worker's crash leaves a line in log/worker.log (lighttpd's
    server.breakagelog; a daemonized lighttpd otherwise sends the workers'
    standard error to /dev/null), and the worker is replaced."""
    before = pool_workers(pid)
    if not before:
        t.ok(False, "a worker to kill")
        return
    victim = before[0]
    os.kill(victim, signal.SIGKILL)
    log = os.path.join(a.home, "log", "worker.log")
    line = avtest.wait_for(lambda: [l for l in avtest.tail(log, 1000000).splitlines()
                                    if "worker %d killed by signal 9" % victim in l], 10)
    t.ok(line, "a worker killed with SIGKILL: worker.log says so (%s)" % (line or ["no line"])[0])
    after = avtest.wait_for(lambda: len(pool_workers(pid)) == WORKERS and victim not in
                            pool_workers(pid) and pool_workers(pid), 10)
    t.ok(after, "...and it is replaced (%s -> %s)" % (before, after))
    status, _, _ = a.get("/api/health")
    t.is_(status, 200, "...and health answers")


def main(t):
    if avtest.lighttpd_path() is None:
        t.skip_all("no lighttpd (set LIGHTTPD or install lighttpd)")
    d = t.tmpdir("quickstart")
    a = Instance(t, os.path.join(d, "a"))

    rc, out = a.start()
    if not t.is_(rc, 0, "start: exit status 0"):
        t.diag(out, avtest.tail(os.path.join(a.home, "log", "error.log")))
        raise avtest.SetupError("contrib/quickstart start failed")
    t.like(out, r"http://127\.0\.0\.1:%d/" % a.port, "start: prints the URL")
    t.like(out, r"quickstart stop", "start: says how to stop")
    status, headers, body = a.get("/api/health")
    t.is_(status, 200, "health through the quickstart's lighttpd: 200")
    j = json.loads(body) if status == 200 else {}
    t.is_((j.get("status"), (j.get("store") or {}).get("reachable")), ("ok", True),
          "health: ok, store reachable")
    status, headers, body = a.get("/")
    t.ok(status == 200 and b"<title>AiVista</title>" in body, "the app is served at /")

    pid = a.lighttpd_pid()
    parents = proc_children(pid) if pid else []
    workers = pool_workers(pid) if pid else []
    t.ok(pid and proc_alive(pid), "lighttpd runs, pid file in AIVISTA_HOME/run")
    t.is_(len(parents), 1, "lighttpd runs one process, the prefork parent")
    t.is_(len(workers), WORKERS, "AIVISTA_WORKERS=%d workers under it" % WORKERS)
    home_files = [os.path.join(a.home, p) for p in
                  ("aivista.conf", "lighttpd.conf", "store", "log/error.log")]
    t.ok(all(os.path.exists(p) for p in home_files),
         "state in AIVISTA_HOME: aivista.conf, lighttpd.conf, store/, log/")
    with open(os.path.join(a.home, "aivista.conf")) as f:
        conf = f.read()
    t.like(conf, r"(?m)^dir = %s$" % os.path.join(a.home, "store"),
           "the generated aivista.conf keeps the store in AIVISTA_HOME")

    test_private(t, a)
    test_access_log(t, a)
    test_worker_log(t, a, pid)

    rc, out = a.run("status")
    t.is_(rc, 0, "status while running: exit status 0")
    t.like(out, r"running at http://127\.0\.0\.1:%d/" % a.port, "status: says running, and where")
    rc, out = a.run("start")
    t.ok(rc == 0 and "already running" in out and a.lighttpd_pid() == pid,
         "start again: says it already runs, same lighttpd")

    # A second instance beside the first, with its own configuration.
    bconf = avtest.write_file(os.path.join(d, "b.conf"), avtest.conf_from_sample({
        "store": {"dir": os.path.join(d, "b-store")},
        "provider.chat": {"kind": "openai", "api_key": "not-used-by-health"}}))
    b = Instance(t, os.path.join(d, "b"), conf=bconf)
    rc, out = b.start()
    if not t.is_(rc, 0, "second instance (other AIVISTA_HOME and AIVISTA_PORT): starts"):
        t.diag(out)
    status, headers, body = b.get("/api/health")
    j = json.loads(body) if status == 200 else {}
    t.is_(status, 200, "second instance: health 200")
    t.is_((j.get("providers") or {}).get("chat"), "openai",
          "second instance: runs with AIVISTA_CONF")
    t.ok(os.path.isdir(os.path.join(d, "b-store")), "second instance: its store where AIVISTA_CONF says")
    rc, out = b.run("stop")
    t.is_(rc, 0, "second instance: stops")
    status, headers, body = a.get("/api/health")
    t.is_(status, 200, "the first instance still answers")

    rc, out = a.run("stop")
    t.is_(rc, 0, "stop: exit status 0")
    t.ok(not proc_alive(pid), "stop: lighttpd is gone")
    t.is_([p for p in parents + workers if proc_alive(p)], [], "stop: its workers are gone")
    try:
        a.get("/api/health")
        refused = False
    except OSError:
        refused = True
    t.ok(refused, "stop: nothing listens on the port any more")
    rc, out = a.run("status")
    t.is_(rc, 3, "status when stopped: exit status 3")
    t.like(out, r"not running", "status when stopped: says not running")
    rc, out = a.run("stop")
    t.is_(rc, 0, "stop when stopped: exit status 0")

    rc, out = a.run("bogus")
    t.is_(rc, 2, "an unknown command: usage, exit status 2")
    rc, out = a.run("--help")
    t.ok(rc == 0 and "AIVISTA_WORKER" in out and "AIVISTA_HOME" in out,
         "--help documents the environment variables")


if __name__ == "__main__":
    avtest.run(main)
