"""Chaos soak: many concurrent threads (the image workflow and the test
workflow with pauses) through a real lighttpd with several workers, for a
bounded time, while workers are killed at random moments with SIGKILL and
SIGTERM and clients hang up and reconnect. Pauses are answered by confirms
that lighttpd sends to whichever worker it likes.

At the end every thread is driven to completion, and a checker proves:
each thread completed; what every client received (durable events, by id)
equals the thread's stored log, with no gap, no duplicate and the same
order; no transaction or lock is left in the environment (db_stat); a new
worker opens the environment with no manual recovery.

CHAOS_SECONDS (default 20) sets the length, CHAOS_CLIENTS (default 6) the
number of concurrent clients."""

import http.client
import json
import os
import random
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
CLIENTS = int(os.environ.get("CHAOS_CLIENTS", "6"))
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


def stream(port, method, path, body, th, hangup_after=None, timeout=60, started=None):
    """Reads one stream into th (a new thread's stream: th None, and the
    Thread made from its thread_start is appended to started); hangs up
    early after that many events. Returns True when it ended normally."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        if resp.status != 200:
            resp.read()
            return False
        n = 0
        for ev in SSEReader(resp):
            if th is None and isinstance(ev["data"], dict) and ev["data"].get("type") == "thread_start":
                th = Thread(ev["data"]["threadId"])
                started.append(th)
            if th is not None:
                th.take(ev)
            n += 1
            if hangup_after is not None and n >= hangup_after:
                return False
        return True
    except (OSError, http.client.HTTPException, ValueError):
        return False
    finally:
        conn.close()


def thread_status(port, tid):
    try:
        status, _, body = avtest.http_request(port, "GET", "/api/threads/" + tid, timeout=30)
        return json.loads(body) if status == 200 else None
    except (OSError, http.client.HTTPException, ValueError):
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
    while KILLS and time.time() < deadline:
        time.sleep(rng.uniform(0.5, 1.5))
        pids = lt.worker_pids()
        if not pids:
            continue
        pid = rng.choice(pids)
        sig = rng.choice([signal.SIGKILL, signal.SIGKILL, signal.SIGTERM])
        try:
            os.kill(pid, sig)
            kills.append(sig)
        except ProcessLookupError:
            pass


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
    status, _, body = avtest.http_request(port, "GET", "/api/agent/stream?threadId=%s&lastEventId=0"
                                          % tid, timeout=60)
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


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    d = t.tmpdir("chaos")
    lt = avtest.Lighttpd(t, d, workers=4, worker=TEST_WORKER,
                         settings={"server": {"keepalive_ms": "500"}}).start()
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
    t.diag("threads started: %d, workers killed: %d (%d SIGKILL, %d SIGTERM)" % (
        len(threads), len(kills), sum(1 for s in kills if s == signal.SIGKILL),
        sum(1 for s in kills if s == signal.SIGTERM)))
    t.ok(len(threads) >= CLIENTS and len(kills) >= 3, "the soak ran threads while killing workers")
    avtest.wait_for(lambda: len(lt.worker_pids()) >= 4 or None, 30)
    unfinished = [th.tid for th in threads if not finish(port, th, rng)]
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
    stat = db_stat_active(os.path.join(d, "store"))
    if stat is None:
        t.skip("db_stat is not installed", "no transaction or lock left")
    else:
        t.is_(stat, (0, 0), "no transaction or lock left behind (db_stat: active txns, locks)")
    w = avtest.Worker(t, d, name="after", binary=TEST_WORKER,
                      settings={"store": {"dir": os.path.join(d, "store")}}).start()
    h = w.request("GET", "/api/health").json()
    t.is_(h["store"]["reachable"], True, "a new worker opens the environment without manual recovery")
    w.kill()


avtest.run(main)
