"""The PostgreSQL store after the server restarts.

A worker on a throw-away cluster of its own (skipped without
PostgreSQL): /api/health answers 200 and a thread is started; the server
restarts (its connections are lost); at most one request meets the lost
connection (503 store_unavailable), the ones after work on a new
connection: /api/health, reading the thread, confirming its pause.
Then a request in flight when the server goes down: its step sleeps
while the server stops, so the step's commit finds no server; the stream
ends with an error event store_unavailable (the headers were sent: a
503 before them), nothing of the step is kept, and once the server is
back the next request continues the thread from its last checkpoint to
its end, with a gapless event log: on the same worker (which stayed up),
then on another one (which need not wait for the lease to expire: the
first gives it back as soon as the server answers). Last, a worker
started while the server is away answers 503 store_unavailable (health
too, naming the backend) and, once the server is back, works at its next
try to open the store (every 5 s).
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402
import pgcluster  # noqa: E402
from avevents import ask, data, durable, events, types  # noqa: E402
from avtest import SSEReader  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")


def code(r):
    return (r.status, (avtest.problem(r.body) or {}).get("code") if r.status >= 400 else None)


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    try:
        pg = pgcluster.PgCluster().start()
    except (RuntimeError, OSError) as e:
        raise avtest.SkipAll("PostgreSQL is missing or cannot start: %s" % e)
    t.cleanup(pg.stop)
    os.environ.update(AIVISTA_TEST_PGDSN=pg.dsn, AIVISTA_TEST_STORE="postgresql")
    d = t.tmpdir("restart")
    w = avtest.Worker(t, d, name="w", binary=TEST_WORKER,
                      settings={"engine": {"steps_per_request": "0"}}).start()
    t.is_(w.request("GET", "/api/health").status, 200, "health before the restart: 200")
    r = w.request("POST", "/api/agent/stream", body=json.dumps(
        {"workflow": "test", "input": {"topic": "restart"}}),
        headers={"Content-Type": "application/json"})
    evs = events(r.body)
    tid = evs[0]["data"]["threadId"]
    t.ok(ask(evs) is not None, "a thread paused before the restart")

    pg.restart()
    first = code(w.request("GET", "/api/health"))
    t.ok(first in ((200, None), (503, "store_unavailable")),
         "the first request after the restart: 200 or 503 store_unavailable (%s)" % (first,))
    t.is_(code(w.request("GET", "/api/health")), (200, None), "the next one: 200")
    st = w.request("GET", "/api/threads/" + tid)
    t.is_((st.status, st.json().get("status")), (200, "paused"), "the thread read after the restart")
    r = w.request("POST", "/api/agent/confirm", body=json.dumps(
        {"threadId": tid, "interruptId": ask(evs)["interruptId"], "action": "approve"}),
        headers={"Content-Type": "application/json"})
    t.is_(types(events(r.body))[-1], "[DONE]", "its pause confirmed after the restart: done")
    test_in_flight(t, pg, w, w, "the same worker")
    other = avtest.Worker(t, d, name="other", binary=TEST_WORKER,
                          settings={"engine": {"steps_per_request": "0"}}).start()
    test_in_flight(t, pg, w, other, "another worker")
    t.is_(w.request("GET", "/api/health").status, 200,
          "the worker whose steps could not commit is still up and answers")
    test_down_at_start(t, pg, t.tmpdir("late"))


def test_in_flight(t, pg, w, nxt, label):
    """A step running on w while the server stops: its stream ends with
    store_unavailable; once the server is back, the next request, on nxt,
    finishes the thread at once (w gives its lease back as soon as the
    server answers: nxt does not wait for the lease to expire)."""
    body = json.dumps({"workflow": "test", "input": {"topic": "down", "steps": 2,
                                                     "sleepMs": 2500, "pause": False}})
    conn = w.connect(timeout=60)
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    reader = iter(SSEReader(conn.stream()))
    first = next(reader)
    tid = first["data"]["threadId"]
    pg.stop_server()
    evs = [first] + list(reader)
    conn.close()
    errs = data(evs, "error")
    t.ok(errs and errs[-1].get("code") == "store_unavailable" and types(evs)[-1] != "[DONE]",
         "%s: the stream in flight when the server stopped ends with an error event "
         "store_unavailable (%s)" % (label, errs[-1:] or types(evs)[-3:]))
    pg.start_server()
    t0 = time.time()
    r = nxt.request("GET", "/api/agent/stream?threadId=" + tid, headers={"Last-Event-ID": "0"},
                    timeout=60)
    took = time.time() - t0
    log = events(r.body)
    t.is_((r.status, types(log)[-1]), (200, "[DONE]"),
          "%s: the next request runs the thread to its end (%.1f s)" % (label, took))
    t.ok(took < 15, "%s: ...without waiting for the lease to expire (%.1f s)" % (label, took))
    ids = [int(e["id"]) for e in durable(log)]
    t.is_(ids, list(range(1, len(ids) + 1)),
          "%s: its event log is gapless from 1 (%d events)" % (label, len(ids)))
    sent = [(e["id"], e["data"]) for e in durable(evs)]
    t.is_([(e["id"], e["data"]) for e in durable(log)][:len(sent)], sent,
          "%s: what the interrupted stream sent as stored is the log's beginning (%d events): "
          "nothing of the step that could not commit" % (label, len(sent)))
    st = nxt.request("GET", "/api/threads/" + tid).json()
    t.is_((st.get("status"), st.get("lastEventId")), ("done", len(ids)),
          "%s: the thread is done, its last event id that of the log" % label)



def test_down_at_start(t, pg, d):
    """A worker started with no server: 503 until the server is back."""
    w = avtest.Worker(t, d, name="late", binary=TEST_WORKER)  # its database made now
    pg.stop_server()
    w.start()
    r = w.request("GET", "/api/health")
    store = (r.json() if r.body else {}).get("store") or {}
    t.is_((r.status, store.get("code"), store.get("backend")),
          (503, "store_unavailable", "postgresql"),
          "a worker started with no server: health 503 store_unavailable, backend postgresql")
    t.is_(code(w.request("POST", "/api/agent/stream", body=json.dumps(
        {"workflow": "test", "input": {"topic": "late"}}),
        headers={"Content-Type": "application/json"})), (503, "store_unavailable"),
        "...and a new thread 503 store_unavailable")
    pg.start_server()
    deadline = time.time() + 15
    while True:
        st = w.request("GET", "/api/health").status
        if st == 200 or time.time() > deadline:
            break
        time.sleep(0.5)
    t.is_(st, 200, "once the server is back the same worker opens the store (health 200)")
    r = w.request("POST", "/api/agent/stream", body=json.dumps(
        {"workflow": "test", "input": {"topic": "late", "pause": False}}),
        headers={"Content-Type": "application/json"})
    t.is_(types(events(r.body))[-1], "[DONE]", "...and runs a thread to its end")


avtest.run(main)
