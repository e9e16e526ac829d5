"""Chaos soak: many concurrent threads (the image workflow and the test
workflow with pauses) through a real lighttpd with several workers, for a
bounded time, while workers are killed at random moments with SIGKILL and
SIGTERM and clients hang up and reconnect. Pauses are answered by confirms
that lighttpd sends to whichever worker it likes.

The workers share one listening socket under a prefork parent (the
shipped lighttpd configuration), so a killed worker may cost the request
it was serving and nothing else. Every request of the soak is recorded,
and every answer that is not 2xx, every connection dropped and every
stream cut or ending in an error event counts as a failure, unless it was
on a worker killed with SIGKILL: its X-AiVista-Worker header names that
worker, or, dropped before any header, the worker's "accepted a request
from port P" log line (log/worker.log) names it. Each SIGKILLed worker
excuses at most one request, the one it was serving; a SIGTERMed worker
finishes its request and excuses none.

At the end every thread is driven to completion, and a checker proves:
each thread completed; what every client received (durable events, by id)
equals the thread's stored log, with no gap, no duplicate and the same
order; no transaction or lock is left in the environment (db_stat); a new
worker opens the environment with no manual recovery.

CHAOS_SECONDS (default 20) sets the length, CHAOS_CLIENTS (default 9) the
number of concurrent clients, CHAOS_WORKERS (default 3) the workers."""

import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avtest import SSEReader  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")
SECONDS = float(os.environ.get("CHAOS_SECONDS", "20"))
CLIENTS = int(os.environ.get("CHAOS_CLIENTS", "9"))
WORKERS = int(os.environ.get("CHAOS_WORKERS", "3"))
KILLS = os.environ.get("CHAOS_KILL", "1") == "1"
HANGUPS = os.environ.get("CHAOS_HANGUP", "1") == "1"


class Thread:
    def __init__(self, tid):
        self.tid = tid
        self.events = {}       # id -> data
        self.order = []        # ids in the order received
        self.dupes = 0
        self.done = False

    def take(self, ev):
        if "id" not in ev:
            return
        i = int(ev["id"])
        if i in self.events:
            self.dupes += 1
            if os.environ.get("CHAOS_DEBUG"):
                sys.stderr.write("dupe %s id %d %s\n" % (self.tid[:25], i, str(ev["data"])[:80]))
        self.events[i] = ev["data"]
        self.order.append(i)
        d = ev["data"]
        if isinstance(d, dict) and d.get("type") == "workflow_complete":
            self.done = True

    @property
    def last(self):
        return max(self.events) if self.events else 0


# Last events a stream ends with when the worker ends it.
FINAL = ("[DONE]", "workflow_yield", "workflow_paused")

RECORDS = []
RECORDS_LOCK = threading.Lock()


class Record:
    """One request of the soak and how it ended."""

    def __init__(self, method, path):
        self.method, self.path = method, path
        self.port = None        # the client's local port (REMOTE_PORT at the worker)
        self.status = None
        self.pid = None         # X-AiVista-Worker
        self.failure = None     # None, or what went wrong
        self.t0 = time.time()
        with RECORDS_LOCK:
            RECORDS.append(self)

    def fail(self, what):
        if self.failure is None:
            self.failure = what
            self.t1 = time.time()


def exchange(port, method, path, body=None, timeout=60):
    """Sends one request: (Record, connection, response or None)."""
    rec = Record(method, path)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.connect()
        rec.port = conn.sock.getsockname()[1]
        headers = {"Content-Type": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
    except (OSError, http.client.HTTPException, ValueError) as e:
        rec.fail("dropped before an answer (%s)" % type(e).__name__)
        conn.close()
        return rec, None, None
    rec.status = resp.status
    w = resp.getheader("X-AiVista-Worker")
    rec.pid = int(w) if w and w.isdigit() else None
    if not 200 <= resp.status < 300:
        rec.fail("answered %d" % resp.status)
    return rec, conn, resp


def stream(port, method, path, body, th, hangup_after=None, timeout=60, started=None):
    """Reads one stream into th (a new thread's stream: th None, and the
    Thread made from its thread_start is appended to started); hangs up
    early after that many events. Returns True when it ended normally."""
    rec, conn, resp = exchange(port, method, path, body, timeout)
    if resp is None:
        return False
    try:
        if rec.failure:
            resp.read()
            return False
        n, last = 0, None
        for ev in SSEReader(resp):
            if th is None and isinstance(ev["data"], dict) and ev["data"].get("type") == "thread_start":
                th = Thread(ev["data"]["threadId"])
                started.append(th)
            if th is not None:
                th.take(ev)
            d = ev["data"]
            last = d.get("type") if isinstance(d, dict) else d
            if last == "error":
                rec.fail("error event %s" % (d.get("code") or d.get("message")))
            n += 1
            if hangup_after is not None and n >= hangup_after:
                return False
        if last not in FINAL:
            rec.fail("stream cut after %s" % last)
            return False
        return rec.failure is None
    except (OSError, http.client.HTTPException, ValueError) as e:
        rec.fail("stream dropped (%s)" % type(e).__name__)
        return False
    finally:
        conn.close()


def fetch(port, method, path, timeout=30):
    """(status, body) of a plain request, recorded; (None, b"") if dropped."""
    rec, conn, resp = exchange(port, method, path, None, timeout)
    if resp is None:
        return None, b""
    try:
        return resp.status, resp.read()
    except (OSError, http.client.HTTPException, ValueError) as e:
        rec.fail("dropped while reading (%s)" % type(e).__name__)
        return None, b""
    finally:
        conn.close()


def thread_status(port, tid):
    status, body = fetch(port, "GET", "/api/threads/" + tid)
    try:
        return json.loads(body) if status == 200 else None
    except ValueError:
        return None


def advance(port, th, rng):
    """One request that moves the thread on: a confirm when it waits for
    one, else a reconnect after the last id seen (which also runs it)."""
    hang = rng.choice([None, None, None, 2, 5]) if HANGUPS else None
    st = thread_status(port, th.tid)
    if st and st["status"] == "paused" and st.get("interrupt"):
        # Catch up first, as a client that reconnects does: a stream cut
        # short may have missed what led to the pause.
        if th.last < st["lastEventId"]:
            stream(port, "GET", "/api/agent/stream?threadId=%s&lastEventId=%d" % (th.tid, th.last),
                   None, th)
            return
        action = rng.choice(["approve", "approve", "reject", "modify"])
        body = {"threadId": th.tid, "interruptId": st["interrupt"]["interruptId"], "action": action}
        if action == "modify":
            body["payload"] = {"title": "改过的标题"}
        stream(port, "POST", "/api/agent/confirm", json.dumps(body), th, hang)
        return
    path = "/api/agent/stream?threadId=%s&lastEventId=%d" % (th.tid, th.last)
    stream(port, "GET", path, None, th, hang)


def client(port, deadline, rng, out, lock):
    while time.time() < deadline:
        if rng.random() < 0.4:
            inp = {"workflow": "image", "input": {"text": rng.choice(
                ["赛博朋克风格的猫", "水彩风景", "cyberpunk city", "油画 向日葵"])}}
        else:
            inp = {"workflow": "test", "input": {"topic": "chaos", "steps": rng.randint(0, 4),
                                                 "sleepMs": rng.choice([0, 50, 200])}}
        started = []
        stream(port, "POST", "/api/agent/stream", json.dumps(inp), None,
               rng.choice([None, 3, 6]) if HANGUPS else None, started=started)
        if not started:
            continue
        th = started[0]
        with lock:
            out.append(th)
        for _ in range(12):
            if th.done or time.time() > deadline:
                break
            advance(port, th, rng)


def killer(lt, deadline, rng, kills):
    """Kills a serving worker now and then; kills gets (pid, signal, time)."""
    while KILLS and time.time() < deadline:
        time.sleep(rng.uniform(0.5, 1.5))
        pids = lt.worker_pids()
        if not pids:
            continue
        pid = rng.choice(pids)
        sig = rng.choice([signal.SIGKILL, signal.SIGKILL, signal.SIGTERM])
        # The time is taken before the kill: a client can see its
        # request fail before this thread runs again after os.kill.
        when = time.time()
        try:
            os.kill(pid, sig)
            kills.append((pid, sig, when))
        except ProcessLookupError:
            pass


def accepted_by(worker_log):
    """{client port: [worker pids]} from the workers' "accepted" lines."""
    out = {}
    pat = re.compile(r"aivista\[(\d+)\] debug .*accepted a request from port (\d+)")
    for line in avtest.tail(worker_log, 10 ** 7).splitlines():
        m = pat.search(line)
        if m:
            out.setdefault(int(m.group(2)), []).append(int(m.group(1)))
    return out


def unexcused(records, kills, worker_log):
    """The failed requests no SIGKILL explains, and the number excused.
    A failure is on a killed worker when its X-AiVista-Worker header, or
    (no header) the log line of the worker that accepted its connection,
    names a worker killed with SIGKILL; each such worker excuses one. A
    worker killed while it read the request's parameters has not logged
    it yet: a failure with neither header nor log line is on a SIGKILLed
    worker whose one request is still unexcused if that kill came while
    the request was under way."""
    killed = set(pid for pid, sig, _ in kills if sig == signal.SIGKILL)
    ports = accepted_by(worker_log)
    budget = dict((pid, 1) for pid in killed)
    bad, unknown, excused = [], [], 0
    for r in records:
        if r.failure is None:
            continue
        pids = [r.pid] if r.pid else ports.get(r.port, [])
        victim = next((p for p in pids if budget.get(p, 0) > 0), None)
        if victim is not None:
            budget[victim] -= 1
            excused += 1
        elif not pids:
            unknown.append(r)
        else:
            bad.append(r)
    for r in unknown:
        victim = next((pid for pid, sig, when in kills if sig == signal.SIGKILL and
                       budget.get(pid, 0) > 0 and r.t0 <= when <= r.t1), None)
        if victim is not None:
            budget[victim] -= 1
            excused += 1
        else:
            bad.append(r)
    return bad, excused


def finish(port, th, rng):
    calm = random.Random(0)
    for _ in range(80):
        if th.done:
            return True
        advance(port, th, calm)
        if not th.done:
            time.sleep(0.1)
    return th.done


def stored_log(port, tid):
    status, body = fetch(port, "GET", "/api/agent/stream?threadId=%s&lastEventId=0" % tid, 60)
    return [(int(e["id"]), e["data"]) for e in SSEReader(iter([body])) if "id" in e]


def db_stat_active(store):
    """Active transactions and held locks, from db_stat."""
    tool = next((t for t in ("db5.3_stat", "db_stat") if subprocess.run(
        ["which", t], stdout=subprocess.DEVNULL).returncode == 0), None)
    if tool is None:
        return None
    txn = subprocess.run([tool, "-h", store, "-t"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lock = subprocess.run([tool, "-h", store, "-c"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    active = locks = None
    for line in txn.stdout.decode(errors="replace").splitlines():
        if line.rstrip().endswith("\tActive transactions"):
            active = int(line.split()[0])
    for line in lock.stdout.decode(errors="replace").splitlines():
        if line.strip().endswith("Number of current locks"):
            locks = int(line.split()[0])
    return active, locks


def test_failures(t, soak, after, kills, worker_log):
    """No failed request but those a SIGKILLed worker was serving."""
    failed = [r for r in soak if r.failure]
    bad, excused = unexcused(soak, kills, worker_log)
    kinds = {}
    for r in failed:
        k = r.failure.split(" (")[0]
        kinds[k] = kinds.get(k, 0) + 1
    t.diag("during the soak: %d requests, %d failed (%s), %d of them on a SIGKILLed worker"
           % (len(soak), len(failed), kinds, excused))
    for r in bad[:10]:
        t.diag("  %s %s: %s (worker %s, port %s)" % (r.method, r.path[:60], r.failure, r.pid, r.port))
    t.is_(len(bad), 0, "every request not on a SIGKILLed worker was answered 2xx and in full "
          "(%d requests, %d kills)" % (len(soak), len(kills)))
    late = [r for r in after if r.failure]
    for r in late[:5]:
        t.diag("  after: %s %s: %s (worker %s)" % (r.method, r.path[:60], r.failure, r.pid))
    t.is_(len(late), 0, "once the kills stop, every request succeeds (%d requests)" % len(after))


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    d = t.tmpdir("chaos")
    lt = avtest.Lighttpd(t, d, workers=WORKERS, worker=TEST_WORKER,
                         settings={"server": {"keepalive_ms": "500", "log_level": "debug"}}).start()
    t.diag("lighttpd %d, prefork parent %s, workers %s" % (lt.pid, lt.parent_pids(),
                                                          lt.worker_pids()))
    port = lt.port
    rng = random.Random(int(os.environ.get("CHAOS_SEED", "7")))
    deadline = time.time() + SECONDS
    threads, kills, lock = [], [], threading.Lock()
    workers = [threading.Thread(target=client, args=(port, deadline, random.Random(rng.random()),
                                                       threads, lock)) for _ in range(CLIENTS)]
    k = threading.Thread(target=killer, args=(lt, deadline, random.Random(rng.random()), kills))
    for w in workers + [k]:
        w.start()
    for w in workers + [k]:
        w.join()
    soak = list(RECORDS)
    t.diag("threads started: %d, requests: %d, workers killed: %d (%d SIGKILL, %d SIGTERM)" % (
        len(threads), len(soak), len(kills), sum(1 for _, s, _ in kills if s == signal.SIGKILL),
        sum(1 for _, s, _ in kills if s == signal.SIGTERM)))
    t.ok(len(threads) >= CLIENTS and len(kills) >= 3, "the soak ran threads while killing workers")
    avtest.wait_for(lambda: len(lt.worker_pids()) >= WORKERS or None, 30)
    unfinished = [th.tid for th in threads if not finish(port, th, rng)]
    test_failures(t, soak, list(RECORDS[len(soak):]), kills, lt.worker_log)
    t.is_(unfinished, [], "every thread completed once driven on (%d threads)" % len(threads))
    mismatched, gaps, dupes = [], [], 0
    for th in threads:
        log = stored_log(port, th.tid)
        ids = [i for i, _ in log]
        if ids != list(range(1, len(ids) + 1)):
            gaps.append(th.tid)
        got = sorted(th.events.items())
        if got != log:
            mismatched.append(th.tid)
            if len(mismatched) <= 3:
                mine, theirs = dict(got), dict(log)
                t.diag("%s: client has %d events, log %d; missing %s; differing %s" % (
                    th.tid[:25], len(mine), len(theirs), sorted(set(theirs) - set(mine))[:10],
                    [i for i in mine if i in theirs and mine[i] != theirs[i]][:5]))
        dupes += th.dupes
    t.is_(gaps, [], "every stored log is gapless 1..n")
    t.is_(mismatched, [], "what the clients received equals the stored logs (same ids, same events)")
    t.is_(dupes, 0, "no client received an event twice")
    statuses = {}
    for th in threads:
        st = json.loads(avtest.http_request(port, "GET", "/api/threads/" + th.tid)[2])["status"]
        statuses[st] = statuses.get(st, 0) + 1
    t.is_(list(statuses), ["done"], "every thread is done (%s)" % statuses)
    lt.stop()
    if avtest.store_backend() != "bdb":
        t.skip("db_stat is Berkeley DB's: on PostgreSQL the sessions left are checked instead",
               "no transaction or lock left")
        left = avtest.store_psql(os.path.join(d, "store"),
                                 "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                 "current_database() AND pid <> pg_backend_pid() AND "
                                 "state LIKE 'idle in transaction%'")
        t.is_(left, [["0"]], "no session left idle in a transaction (pg_stat_activity)")
    else:
        stat = db_stat_active(os.path.join(d, "store"))
        if stat is None:
            t.skip("db_stat is not installed", "no transaction or lock left")
        else:
            t.is_(stat, (0, 0), "no transaction or lock left behind (db_stat: active txns, locks)")
    w = avtest.Worker(t, d, name="after", binary=TEST_WORKER,
                      settings={"store": avtest.store_settings(os.path.join(d, "store"))}).start()
    h = w.request("GET", "/api/health").json()
    t.is_(h["store"]["reachable"], True, "a new worker opens the environment without manual recovery")
    w.kill()


avtest.run(main)
