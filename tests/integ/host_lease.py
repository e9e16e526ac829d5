"""Run leases across hosts ([store] host_id).

Test workers share one store (PostgreSQL under make check-postgresql);
two of them say they are host-a, one host-b. A host-a worker is killed
with SIGKILL in the middle of a step, twice: the other host-a worker takes
the thread over at once (its pid is dead on this host), while the host-b
worker does not take the lease before it expires (a pid says nothing of a
process on another host) and takes it once it has. Both finish the thread
with the same log the clients received.
"""
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402
from avtest import SSEReader  # noqa: E402
from avevents import durable, events, types  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")

# The lease is set request_budget_ms + node_timeout_ms ahead at every step.
BUDGET_MS = 9000
NODE_MS = 3000
LEASE_S = (BUDGET_MS + NODE_MS) / 1000.0
STEP_MS = 1200


def settings(host):
    return {"engine": {"steps_per_request": "0", "request_budget_ms": str(BUDGET_MS),
                       "node_timeout_ms": str(NODE_MS)},
            "store": {"host_id": host}}


def test_start_and_kill(t, w, topic):
    """Starts a three-step thread on w, kills w with SIGKILL during the
    second step; the thread id, the events received, and when the step
    before the kill committed (the lease's start, at most)."""
    conn = w.connect()
    body = json.dumps({"workflow": "test", "input": {"topic": topic, "steps": 3,
                                                     "sleepMs": STEP_MS, "pause": False}})
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    got, tid, counts, seen = [], None, 0, None
    for ev in SSEReader(conn.stream()):
        got.append(ev)
        d = ev["data"]
        if isinstance(d, dict) and d.get("type") == "thread_start":
            tid = d["threadId"]
        if isinstance(d, dict) and d.get("type") == "agent_start" and d.get("node") == "count":
            counts += 1
            if counts == 2:
                seen = time.monotonic()
                break
    os.kill(w.pid, signal.SIGKILL)
    w.wait()
    conn.close()
    t.ok(tid and not w.alive(), "%s: the worker was killed in the middle of a step" % topic)
    return tid, got, seen


def follow(w, tid, last):
    """One GET of the stream from last; its events, and when the first
    durable one arrived (or None)."""
    conn = w.connect(timeout=120)
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("GET", "/api/agent/stream?threadId=" + tid, 0,
                                            {"Last-Event-ID": last}))
    conn.send_stdin(b"")
    first, got = None, []
    for ev in SSEReader(conn.stream()):
        got.append(ev)
        if first is None and ev.get("id"):
            first = time.monotonic()
    conn.close()
    return got, first


def test_resume(t, w, tid, got, topic):
    """Follows the thread on w from the last event received, again after
    each yield; when its first new event came, and whether the whole
    matches the log."""
    rest, first = [], None
    for _ in range(10):
        last = (durable(got + rest) or [{"id": "0"}])[-1]["id"]
        more, when = follow(w, tid, last)
        rest += more
        first = first or when
        if "[DONE]" in types(more) or "workflow_yield" not in types(more):
            break
    t.is_(types(rest)[-1] if rest else None, "[DONE]", "%s: the thread finished" % topic)
    allev = durable(got) + durable(rest)
    log = durable(events(w.request("GET", "/api/agent/stream?threadId=" + tid,
                                   headers={"Last-Event-ID": "0"}).body))
    t.is_([(e["id"], e["data"]) for e in log], [(e["id"], e["data"]) for e in allev],
          "%s: the stored log equals what the clients received" % topic)
    counts = [e["data"]["message"] for e in log if e["data"].get("type") == "thought_log"
              and e["data"].get("node") == "count"]
    t.is_(counts, ["count 1", "count 2", "count 3"], "%s: each count once" % topic)
    return first


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    os.environ["AIVISTA_WORKER"] = TEST_WORKER
    d = t.tmpdir("hosts")
    a1 = avtest.Worker(t, d, name="a1", settings=settings("host-a")).start()
    a2 = avtest.Worker(t, d, name="a2", settings=settings("host-a")).start()
    b = avtest.Worker(t, d, name="b", settings=settings("host-b")).start()

    tid, got, seen = test_start_and_kill(t, a1, "same host")
    first = test_resume(t, a2, tid, got, "same host")
    after = (first - seen) if first else -1
    t.ok(0 <= after < LEASE_S / 2, "same host: the dead pid's lease taken at once (%.1f s after "
         "the step began, lease %.0f s)" % (after, LEASE_S))

    a1 = avtest.Worker(t, d, name="a1", settings=settings("host-a")).start()
    tid, got, seen = test_start_and_kill(t, a1, "other host")
    first = test_resume(t, b, tid, got, "other host")
    after = (first - seen) if first else -1
    t.ok(after >= LEASE_S - 1.5,
         "other host: the lease not taken before it expired (%.1f s after the step began, "
         "lease %.0f s)" % (after, LEASE_S))
    t.ok(after < LEASE_S + 10, "other host: taken once it expired (%.1f s)" % after)


avtest.run(main)
