"""The PostgreSQL store after the server restarts.

A worker on a throw-away cluster of its own (skipped without
PostgreSQL): /api/health answers 200 and a thread is started; the server
restarts (its connections are lost); at most one request meets the lost
connection (503 store_unavailable), the ones after work on a new
connection: /api/health, reading the thread, confirming its pause.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import pgcluster  # noqa: E402
from avevents import ask, events, types  # noqa: E402

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


avtest.run(main)
