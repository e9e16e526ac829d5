"""Two hosts on one PostgreSQL database.

Two independent lighttpd instances, each with its own directory, port,
pool of workers and [store] host_id, and no file in common but a copy of
the first one's thread key (thread IDs signed on one host verify on the
other), share one PostgreSQL database (only under make
check-postgresql: without AIVISTA_TEST_STORE=postgresql the test skips
and says so).

A note thread starts on host A and pauses; its pause is confirmed on host
B while a client follows the thread on host A (GET /api/agent/stream
from the pause's last event): that follower sees the continuation, up to
the next pause, within a short time, and its events equal the stored log.

Then a short soak: image threads started alternately on both hosts and,
on each host, a slow thread whose worker is killed with SIGKILL in the
middle of a step (lighttpd's prefork parent starts a new one). Every
thread is driven on from the host it started on until it is done; what
every client received equals the stored log (replayed from 0, on both
hosts), and every thread ends done.
"""
import json
import os
import shutil
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avtest import SSEReader  # noqa: E402
from avevents import ask, data, durable, events, types  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")
WORKERS = 2
FOLLOW_S = 10.0
IMAGES = ["赛博朋克风格的猫", "watercolour landscape", "油画 向日葵", "cyberpunk city"]
JSON = {"Content-Type": "application/json"}


def host(t, top, name, store, key):
    """A lighttpd of its own under top/name on the shared database."""
    d = os.path.join(top, name)
    os.makedirs(d)
    settings = {"store": dict(store, dir=os.path.join(d, "store"), key_file=key,
                              host_id="host-" + name),
                "server": {"keepalive_ms": "500"}}
    return avtest.Lighttpd(t, d, workers=WORKERS, worker=TEST_WORKER, settings=settings).start()


class Client:
    """One thread as its clients saw it: durable events by id."""

    def __init__(self, lt, tid=None):
        self.lt, self.tid, self.events, self.dupes = lt, tid, {}, 0

    def take(self, evs):
        for e in durable(evs):
            i = int(e["id"])
            self.dupes += i in self.events
            self.events[i] = e["data"]

    @property
    def last(self):
        return max(self.events) if self.events else 0


def post(lt, path, obj):
    st, h, body = lt.request("POST", path, json.dumps(obj), JSON, timeout=120)
    return st, events(body) if st == 200 else []


def stored_log(lt, tid):
    st, _, body = lt.request("GET", "/api/agent/stream?threadId=%s&lastEventId=0" % tid,
                             timeout=120)
    return [(int(e["id"]), e["data"]) for e in durable(events(body))] if st == 200 else None


def status(lt, tid):
    st, _, body = lt.request("GET", "/api/threads/" + tid)
    return json.loads(body) if st == 200 else {}


def drive(c, limit=40):
    """Moves c's thread on (catching up, confirming pauses with approve)
    until it is done; True when it is."""
    for _ in range(limit):
        st = status(c.lt, c.tid)
        if st.get("status") == "done" and c.last >= st.get("lastEventId", 0):
            return True
        if st.get("status") == "paused" and st.get("interrupt") and c.last >= st["lastEventId"]:
            code, evs = post(c.lt, "/api/agent/confirm", {
                "threadId": c.tid, "interruptId": st["interrupt"]["interruptId"],
                "action": "approve"})
        else:
            code, _, body = c.lt.request(
                "GET", "/api/agent/stream?threadId=%s&lastEventId=%d" % (c.tid, c.last),
                timeout=120)
            evs = events(body) if code == 200 else []
        c.take(evs)
        if code != 200:
            time.sleep(0.2)
    return status(c.lt, c.tid).get("status") == "done"


def follow(lt, tid, last, out):
    """A follower on lt from last: out gets (events, seconds it took)."""
    t0 = time.monotonic()
    resp = avtest.http_open(lt.port, "GET", "/api/agent/stream?threadId=%s&lastEventId=%d"
                            % (tid, last), timeout=60)
    try:
        out.append((list(SSEReader(resp)), time.monotonic() - t0))
    finally:
        resp.close()


def test_note(t, a, b):
    code, evs = post(a, "/api/agent/stream", {"workflow": "note",
                                              "input": {"topic": "周末去杭州春游的攻略"}})
    start = data(evs, "thread_start")
    tid = start[0]["threadId"] if start else None
    q = ask(evs)
    t.ok(code == 200 and tid and q and types(evs)[-1] == "workflow_paused",
         "a note thread started on host A pauses (%s)" % code)
    if not (tid and q):
        return
    t.is_(status(b, tid).get("status"), "paused", "host B reads the thread host A started")
    last = int(durable(evs)[-1]["id"])
    # The follower joins once host B runs the thread: after the confirm's
    # first event.
    t0 = time.monotonic()
    resp = avtest.http_open(b.port, "POST", "/api/agent/confirm", json.dumps(
        {"threadId": tid, "interruptId": q["interruptId"], "action": "approve"}), JSON, timeout=120)
    code, reader, evs2, out = resp.status, iter(SSEReader(resp)), [], []
    fol = threading.Thread(target=follow, args=(a, tid, last, out))
    try:
        evs2.append(next(reader))
        fol.start()
        evs2 += list(reader)
    except StopIteration:
        fol.start()
    finally:
        resp.close()
    t.ok(code == 200 and types(evs2)[-1:] == ["workflow_paused"] and ask(evs2),
         "its pause confirmed on host B: the thread runs on to the next pause (%s)" % code)
    fol.join(FOLLOW_S + 30)
    took = time.monotonic() - t0
    got = out[0][0] if out else []
    t.ok(got and types(got)[-1] == "workflow_paused" and ask(got) and
         ask(got)["interruptId"] == ask(evs2)["interruptId"],
         "a follower on host A sees the continuation up to the next pause")
    t.ok(out and took < FOLLOW_S, "... within %.0f s (%.2f s)" % (FOLLOW_S, took))
    log = stored_log(a, tid)
    t.is_([(int(e["id"]), e["data"]) for e in durable(got)], [e for e in log if e[0] > last],
          "the follower's events equal the stored log after the pause")
    t.is_([(int(e["id"]), e["data"]) for e in durable(evs2)], [e for e in log if e[0] > last],
          "so do host B's confirm's")


def test_slow_and_kill(t, lt, name, clients):
    """Starts a slow test thread on lt and kills its worker with SIGKILL
    during the second step."""
    body = json.dumps({"workflow": "test", "input": {"topic": "soak " + name, "steps": 3,
                                                     "sleepMs": 700, "pause": False}})
    resp = avtest.http_open(lt.port, "POST", "/api/agent/stream", body, JSON, timeout=60)
    pid = int(resp.getheader("X-AiVista-Worker") or 0)
    c, counts = Client(lt), 0
    try:
        for ev in SSEReader(resp):
            d = ev["data"]
            c.take([ev])
            if isinstance(d, dict) and d.get("type") == "thread_start":
                c.tid = d["threadId"]
                clients.append(c)
            if isinstance(d, dict) and d.get("type") == "agent_start" and d.get("node") == "count":
                counts += 1
                if counts == 2:
                    break
        killed = pid in lt.worker_pids() and counts == 2
        if killed:
            os.kill(pid, signal.SIGKILL)
    finally:
        resp.close()
    t.ok(killed and c.tid, "host %s: a worker (%d) killed with SIGKILL in the middle of a step"
         % (name, pid))


def image(lt, text, clients, lock):
    code, evs = post(lt, "/api/agent/stream", {"workflow": "image", "input": {"text": text}})
    start = data(evs, "thread_start")
    if start:
        c = Client(lt, start[0]["threadId"])
        c.take(evs)
        with lock:
            clients.append(c)


def test_soak(t, hosts):
    clients, lock, runs = [], threading.Lock(), []
    for i, text in enumerate(IMAGES):
        runs.append(threading.Thread(target=image, args=(hosts[i % 2], text, clients, lock)))
    for r in runs:
        r.start()
    slow = []
    for lt, name in zip(hosts, "AB"):
        test_slow_and_kill(t, lt, name, slow)
    for r in runs:
        r.join(120)
    t.is_(len(clients), len(IMAGES), "every image thread started (alternately on both hosts)")
    every = clients + slow
    for lt in hosts:
        avtest.wait_for(lambda: len(lt.worker_pids()) >= WORKERS or None, 30)
    unfinished = [c.tid for c in every if not drive(c)]
    t.is_(unfinished, [], "every thread driven on to done (%d threads)" % len(every))
    bad = []
    for c in every:
        for lt in hosts:
            if sorted(c.events.items()) != stored_log(lt, c.tid):
                bad.append((c.tid[:20], lt.port))
    t.is_(bad, [], "every client's events equal the stored log, replayed on either host")
    t.is_(sum(c.dupes for c in every), 0, "no client received an event twice")
    done = [status(hosts[i % 2], c.tid).get("status") for i, c in enumerate(every)]
    t.is_(sorted(set(done)), ["done"], "every thread is done, read on either host")


def main(t):
    if avtest.store_backend() != "postgresql":
        raise avtest.SkipAll("two hosts need a shared PostgreSQL database: run under "
                             "make check-postgresql (AIVISTA_TEST_STORE=postgresql)")
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    top = t.tmpdir("hosts")
    store = avtest.store_settings(os.path.join(top, "shared"))
    key_a = os.path.join(top, "a.key")
    a = host(t, top, "a", store, key_a)
    t.ok(os.path.exists(key_a), "host A made its thread key")
    key_b = os.path.join(top, "b.key")
    shutil.copy2(key_a, key_b)
    b = host(t, top, "b", store, key_b)
    t.ok(a.port != b.port and not set(a.worker_pids()) & set(b.worker_pids()),
         "two lighttpd instances, ports %d and %d, workers %s and %s"
         % (a.port, b.port, a.worker_pids(), b.worker_pids()))
    test_note(t, a, b)
    test_soak(t, [a, b])


avtest.run(main)
