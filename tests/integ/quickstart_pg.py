#!/usr/bin/env python3
"""contrib/quickstart with AIVISTA_STORE=postgresql: its own PostgreSQL
cluster under AIVISTA_HOME/pg (initdb as an unprivileged user when run as
root, a Unix socket there), the workers on it; an image thread and a note
thread whose pauses are confirmed, found in PostgreSQL with psql on the
cluster's socket; stop leaves nothing running, and a second start finds
the threads again. Skips, saying so, when PostgreSQL is not installed."""

import base64
import json
import os
import pwd
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import pgcluster  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quickstart  # noqa: E402
from avevents import ask, data, durable, events, types  # noqa: E402
from avtest import pool_workers, proc_alive, proc_children  # noqa: E402

WORKERS = 2
JSON = {"Content-Type": "application/json"}


class Instance(quickstart.Instance):
    """A quickstart home on PostgreSQL (AIVISTA_STORE=postgresql)."""
    timeout = 300

    def __init__(self, t, home, **env):
        super().__init__(t, home)
        self.env.update(AIVISTA_STORE="postgresql", **env)

    def request(self, method, path, body=None, timeout=120):
        return avtest.http_request(self.port, method, path,
                                   json.dumps(body) if body is not None else None,
                                   JSON if body is not None else None, timeout=timeout)

    def pid_in(self, rel):
        try:
            with open(os.path.join(self.home, rel)) as f:
                return int(f.readline().strip())
        except (OSError, ValueError):
            return None

    def force_stop(self):
        if os.path.isdir(self.home):
            rc, out = self.run("stop")
            if rc:
                self.t.diag(out)

    def psql(self, sql):
        """Rows of sql in the quickstart's database, through its socket."""
        r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-h",
                                   os.path.join(self.home, "pg"), "-U", "postgres", "-d",
                                   "aivista", "-c", sql], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("psql: " + r.stderr)
        return [line.split("\t") for line in r.stdout.splitlines() if line]


def raw_hex(tid):
    """The store key of a thread ID: its random part (src/engine/tid.h)."""
    part = tid.split(".")[1]
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).hex()


def stored(a, tid):
    """(workflow, status, last event id) of tid as PostgreSQL holds it,
    when its event log has a record for each step (at least one, at most
    one an event)."""
    k = raw_hex(tid)
    rows = a.psql("SELECT convert_from(v, 'UTF8')::json->>'workflow', "
                  "convert_from(v, 'UTF8')::json->>'status', "
                  "convert_from(v, 'UTF8')::json->>'seq' FROM av_threads "
                  "WHERE k = '\\x%s'::bytea" % k)
    n = a.psql("SELECT count(*) FROM av_events WHERE substring(k FROM 1 FOR 16) = '\\x%s'::bytea"
               % k)
    if not rows or not 1 <= int(n[0][0]) <= int(rows[0][2] or 0):
        return None
    return (rows[0][0], rows[0][1], int(rows[0][2]))


def replayed(a, tid):
    st, _, body = a.request("GET", "/api/agent/stream?threadId=%s&lastEventId=0" % tid)
    return len(durable(events(body))) if st == 200 else -1


def test_image_thread(t, a):
    st, _, body = a.request("POST", "/api/agent/stream",
                            {"workflow": "image", "input": {"text": "水彩风景"}})
    evs = events(body) if st == 200 else []
    start = data(evs, "thread_start")
    t.ok(st == 200 and start and types(evs)[-1] == "[DONE]",
         "an image thread runs to [DONE] (%s)" % st)
    return start[0]["threadId"] if start else None


def test_note_thread(t, a):
    """A note thread, each pause confirmed with approve until it is done."""
    st, _, body = a.request("POST", "/api/agent/stream",
                            {"workflow": "note", "input": {"topic": "周末去杭州春游的攻略"}})
    evs = events(body) if st == 200 else []
    start = data(evs, "thread_start")
    tid = start[0]["threadId"] if start else None
    t.ok(tid and ask(evs) and "workflow_paused" in types(evs),
         "a note thread pauses for a decision (%s)" % st)
    pauses = 0
    while tid and evs and "workflow_paused" in types(evs) and pauses < 6:
        q = data(evs, "ask_user")[-1]
        st, _, body = a.request("POST", "/api/agent/confirm", {
            "threadId": tid, "interruptId": q["interruptId"], "action": "approve"})
        evs = events(body) if st == 200 else []
        pauses += 1
    t.ok(pauses >= 1 and evs and "workflow_paused" not in types(evs) and
         types(evs)[-1] == "[DONE]", "its pauses confirmed (%d), it runs to the end" % pauses)
    return tid


def test_missing(t, d):
    """No PostgreSQL where AIVISTA_PG_BIN points: a plain error, nothing runs."""
    m = Instance(t, os.path.join(d, "missing"), AIVISTA_PG_BIN=os.path.join(d, "no-such-dir"))
    rc, out = m.start()
    t.ok(rc == 1 and "install the Debian package postgresql" in out,
         "no PostgreSQL binaries: start fails and says to install postgresql")
    t.ok(m.pid_in("run/lighttpd.pid") is None, "...and starts no lighttpd")


def test_unreachable(t, d):
    """Run as root, the cluster runs as nobody: a home nobody cannot reach
    is refused with a reason, before initdb."""
    if os.geteuid() != 0:
        return
    closed = os.path.join(d, "closed")
    os.makedirs(closed, mode=0o700)
    u = Instance(t, os.path.join(closed, "h"))
    rc, out = u.start()
    t.ok(rc == 1 and "cannot write" in out and "nobody" in out,
         "as root, a home the cluster's user cannot reach: a plain error")


def main(t):
    if avtest.lighttpd_path() is None:
        t.skip_all("no lighttpd (set LIGHTTPD or install lighttpd)")
    try:
        pgcluster.pg_bindir()
    except pgcluster.Missing as e:
        t.skip_all(str(e))
    d = t.tmpdir("qspg")
    # Run as root, the cluster's user (nobody) must reach AIVISTA_HOME.
    os.chmod(d, 0o755)
    test_missing(t, d)
    test_unreachable(t, d)

    a = Instance(t, os.path.join(d, "a"))
    rc, out = a.start()
    if not t.is_(rc, 0, "AIVISTA_STORE=postgresql start: exit status 0"):
        t.diag(out, avtest.tail(os.path.join(a.home, "pg", "postgresql.log")),
               avtest.tail(os.path.join(a.home, "log", "error.log")))
        raise avtest.SetupError("contrib/quickstart start (postgresql) failed")
    sock_dir = os.path.join(a.home, "pg")
    t.like(out, r"store: PostgreSQL, dsn host=%s " % sock_dir, "start: names the database")
    t.ok(os.path.exists(os.path.join(sock_dir, ".s.PGSQL.5432")),
         "the cluster listens on a Unix socket in AIVISTA_HOME/pg")
    with open(os.path.join(a.home, "aivista.conf")) as f:
        conf = f.read()
    t.like(conf, r"(?m)^backend = postgresql$", "the generated aivista.conf: backend = postgresql")
    t.like(conf, r"(?m)^dsn = host=%s port=5432 user=postgres dbname=aivista$" % sock_dir,
           "...and its dsn names the cluster's socket")
    pg_pid = a.pid_in("pg/data/postmaster.pid")
    t.ok(pg_pid and proc_alive(pg_pid), "PostgreSQL runs (pid %s)" % pg_pid)
    if os.geteuid() == 0:
        t.is_(os.stat(os.path.join(a.home, "pg", "data")).st_uid,
              pwd.getpwnam("nobody").pw_uid, "run as root, the cluster belongs to nobody")
    status, _, body = a.request("GET", "/api/health")
    j = json.loads(body) if status == 200 else {}
    t.is_((status, (j.get("store") or {}).get("reachable")), (200, True),
          "health through lighttpd: 200, store reachable")
    rc, out = a.run("status")
    t.ok(rc == 0 and "PostgreSQL cluster" in out and "runs (pid %d)" % (pg_pid or 0) in out,
         "status: says the cluster runs")

    img = test_image_thread(t, a)
    note = test_note_thread(t, a)
    for name, tid, wf in (("image", img, "image"), ("note", note, "note")):
        row = stored(a, tid) if tid else None
        t.is_(row, (wf, "done", replayed(a, tid) if tid else -2),
              "the %s thread is in PostgreSQL, done, with every event it replays" % name)
    bdb = [f for f in os.listdir(os.path.join(a.home, "store")) if f.startswith("__db")]
    t.is_(bdb, [], "no Berkeley DB environment in AIVISTA_HOME/store")

    lt_pid = a.pid_in("run/lighttpd.pid")
    procs = [lt_pid] + proc_children(lt_pid) + pool_workers(lt_pid) if lt_pid else []
    t.is_(len(pool_workers(lt_pid)) if lt_pid else 0, WORKERS, "%d workers" % WORKERS)
    rc, out = a.run("stop")
    t.ok(rc == 0 and "stopped PostgreSQL" in out, "stop: exit status 0, PostgreSQL stopped too")
    t.is_([p for p in procs + [pg_pid] if p and proc_alive(p)], [],
          "stop: lighttpd, its workers and PostgreSQL are gone")
    t.ok(not os.path.exists(os.path.join(sock_dir, ".s.PGSQL.5432")), "...and its socket")
    rc, out = a.run("status")
    t.ok(rc == 3 and "not running" in out and "cluster" in out,
         "status when stopped: exit status 3, the cluster not running")

    del a.env["AIVISTA_STORE"]
    rc, out = a.start()
    t.ok(rc == 0 and "store: PostgreSQL" in out,
         "start again without AIVISTA_STORE: the home keeps PostgreSQL")
    st, _, body = a.request("GET", "/api/threads/" + note) if note else (0, None, b"")
    t.is_(json.loads(body).get("status") if st == 200 else st, "done",
          "...and the note thread is still there, done")
    a.env["AIVISTA_STORE"] = "bdb"
    rc, out = a.run("start")
    t.ok(rc == 1 and "uses the store backend postgresql" in out,
         "AIVISTA_STORE=bdb on that home: refused, with the reason")
    rc, out = a.run("stop")
    pg_pid = a.pid_in("pg/data/postmaster.pid")
    t.ok(rc == 0 and not (pg_pid and proc_alive(pg_pid)), "stop again: PostgreSQL stopped")


if __name__ == "__main__":
    avtest.run(main)
