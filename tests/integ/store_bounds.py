"""What one request may add to the store ([store] max_request_bytes: its
checkpoints, events and assets together), through the worker, with
graph_edit patches of large but valid nodes (displayNames of 12000 bytes).

With a budget of 1 MiB: a turn whose input alone passes it (its first
checkpoint) is answered 413 request_too_large as problem+json, before any
stream; a turn that passes it in a later step streams an error event
request_too_large, the step not kept (the thread's status error, its
workflow as it was); another thread, and a new small turn of the same
thread (the budget is a request's, not a thread's), run as usual. With the
shipped budget: a 1 MB patch is answered with about twice its size (the
new workflow and the patch applied, in workflow_update), not four times:
state_update names the large fields it changed in "omitted" instead of
echoing them.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

TYPE = "core:TextInput"
JSON_HDR = {"Content-Type": "application/json"}
BUDGET = 1 << 20


def nodes_patch(n, size=12000):
    return [{"op": "add", "path": "/nodes/-",
             "value": {"type": TYPE, "displayName": ("%04d" % i) + "d" * (size - 4)}}
            for i in range(n)]


def post(w, body):
    r = w.request("POST", "/api/agent/stream", body=json.dumps(body), headers=JSON_HDR, timeout=120)
    return r, data(events(r.body)) if r.status == 200 else []


def start(w, patch):
    return post(w, {"workflow": "graph_edit", "input": {"patch": patch}})


def of(evs, kind):
    return [e for e in evs if e.get("type") == kind]


def thread_of(evs):
    return next((e.get("threadId") for e in evs if e.get("type") == "thread_start"), None)


def test_small_budget(t, d):
    w = avtest.Worker(t, d, name="small", settings={
        "store": {"dir": os.path.join(d, "small-store"), "max_request_bytes": str(BUDGET)}}).start()

    r, _ = start(w, nodes_patch(100))
    p = avtest.problem(r.body) or {}
    t.is_((r.status, p.get("code")), (413, "request_too_large"),
          "a patch turn of 1.2 MB with a budget of 1 MiB: 413 request_too_large")
    t.ok(r.header("content-type", "").startswith("application/problem+json") and
         "max_request_bytes" in p.get("detail", ""),
         "  ... as problem+json, before any stream: %s" % p.get("detail"))

    r, evs = start(w, nodes_patch(20))
    tid = thread_of(evs)
    errs = of(evs, "error")
    t.ok(r.status == 200 and tid, "a patch turn of 240 KB: the thread starts")
    t.is_([e.get("code") for e in errs], ["request_too_large"],
          "  ... and its edit step, which would store more than 1 MiB, ends it with an error event "
          "request_too_large")
    t.ok(not [e for e in evs if e.get("type") == "workflow_update"], "  ... no workflow_update")
    st = w.request("GET", "/api/threads/" + (tid or "none")).json() or {}
    t.ok(st.get("status") == "error" and (st.get("state") or {}).get("version") == 0 and
         (st.get("state") or {}).get("workflow", {}).get("nodes") == [],
         "  ... the step is not kept: status error, version 0, no nodes (%s)" % st.get("status"))

    r, evs = start(w, nodes_patch(1, 100))
    upd = of(evs, "workflow_update")
    t.ok(r.status == 200 and upd and upd[0].get("version") == 1,
         "another thread: a small patch applies (version 1)")
    r, evs = post(w, {"threadId": tid, "input": {"patch": nodes_patch(1, 100)}})
    upd = of(evs, "workflow_update")
    t.ok(r.status == 200 and upd and upd[0].get("version") == 1,
         "the thread that failed takes a new small turn: its budget is the request's (version 1)")
    st = w.request("GET", "/api/health", timeout=30)
    t.ok(w.alive() and st.status == 200, "the worker serves on")
    w.kill()


def test_echo(t, d):
    w = avtest.Worker(t, d, name="echo", settings={
        "store": {"dir": os.path.join(d, "echo-store")}}).start()
    patch = nodes_patch(80)
    size = len(json.dumps({"workflow": "graph_edit", "input": {"patch": patch}}))
    r, evs = start(w, patch)
    upd = of(evs, "workflow_update")
    sus = of(evs, "state_update")
    t.ok(r.status == 200 and upd and len(upd[0]["workflow"]["nodes"]) == 80,
         "a patch of 80 nodes (%d KB): workflow_update carries the new workflow" % (size // 1024))
    t.ok(not [s for s in sus if "workflow" in s.get("changes", {}) or "plan" in s.get("changes", {})]
         and any("workflow" in s.get("omitted", []) for s in sus),
         "  ... state_update names the workflow and the plan in omitted, without their values (%s)"
         % [s.get("omitted") for s in sus])
    t.ok(len(r.body) < 2.3 * size, "  ... the response is %.2f times the request (not 4)"
         % (len(r.body) / size))
    tid = thread_of(evs)
    st = w.request("GET", "/api/threads/" + (tid or "none")).json() or {}
    t.is_(len((st.get("state") or {}).get("workflow", {}).get("nodes", [])), 80,
          "  ... GET /api/threads/{id} has the workflow")
    w.kill()


def main(t):
    d = t.tmpdir("storebounds")
    test_small_budget(t, d)
    test_echo(t, d)


if __name__ == "__main__":
    avtest.run(main)
