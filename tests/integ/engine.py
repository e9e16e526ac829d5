"""The durable engine across worker processes, with the test workflow.

Several test workers (the product worker plus the "test" workflow) share
one Berkeley DB environment, each on its own socket, so the test decides
which process serves each request: a pause taken on one worker is
confirmed on another and finished on a third; steps_per_request = 1 runs a
thread one step per request across workers; a worker killed with SIGKILL in
the middle of a step loses only that step; replays after every kind of
Last-Event-ID; forged, unknown and expired thread IDs; key rotation; 50
workers opening a fresh environment at once; 20 confirms of one pause at
once through a real lighttpd.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402
from avtest import SSEReader  # noqa: E402
from avevents import ask, durable, events, types  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")


def ids(evs):
    return [int(e["id"]) for e in durable(evs)]


def post_json(w, uri, obj, headers=None):
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    return w.request("POST", uri, body=json.dumps(obj), headers=h)


def start_thread(w, **inp):
    resp = post_json(w, "/api/agent/stream", {"workflow": "test", "input": inp})
    evs = events(resp.body)
    tid = evs[0]["data"].get("threadId") if evs and isinstance(evs[0]["data"], dict) else None
    return resp, evs, tid


def stored_log(w, tid):
    """The thread's whole durable log, by a replay from the start."""
    return durable(events(w.request("GET", "/api/agent/stream?threadId=" + tid,
                                    headers={"Last-Event-ID": "0"}).body))


def read_key(store):
    with open(os.path.join(store, "thread.key")) as f:
        line = f.readline().strip()
    return avtest.unb64url(line)


def test_pause_across_workers(t, a, b, c):
    resp, evs, tid = start_thread(a, topic="春游")
    pid_a = resp.header("X-AiVista-Worker")
    t.is_(resp.status, 200, "start: 200 on worker A")
    t.is_(types(evs)[0], "thread_start", "start: thread_start first")
    t.ok(tid and tid.startswith("v1."), "start: thread_start carries the signed threadId")
    t.is_(ids(evs), list(range(1, len(durable(evs)) + 1)), "start: durable ids 1..n, no gap")
    q = ask(evs)
    t.ok(q is not None, "start: the thread asks the human")
    if q is None:
        return
    for field in ("question", "options", "selectionType", "allowCustomInput", "interruptId",
                  "editable", "threadId"):
        t.ok(field in q, "ask_user has %s" % field)
    t.is_(q.get("context"), {"__hitl": True, "kind": "content"}, "ask_user context.__hitl and kind")
    t.is_(types(evs)[-1], "workflow_paused", "start: the stream ends with workflow_paused")
    t.ok("[DONE]" not in types(evs), "start: a paused stream has no [DONE]")

    st = b.request("GET", "/api/threads/" + tid)
    t.is_(st.json().get("status"), "paused", "thread: paused, seen from worker B")
    t.is_(st.json().get("interrupt", {}).get("interruptId"), q["interruptId"],
          "thread: the pending interrupt is the one asked")

    r2 = post_json(b, "/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                             "action": "reject"})
    evs2 = events(r2.body)
    pid_b = r2.header("X-AiVista-Worker")
    t.ok(pid_a != pid_b, "confirm: served by another process (%s, then %s)" % (pid_a, pid_b))
    t.is_(ids(evs2)[0] if ids(evs2) else None, ids(evs)[-1] + 1,
          "confirm: the continuation's ids follow on")
    q2 = ask(evs2)
    t.ok(q2 and q2["interruptId"] != q["interruptId"], "reject: drafted again, a new pause")
    t.like(q2 and q2["editable"]["title"], r"draft 2", "reject: the new draft is the second")

    r3 = post_json(c, "/api/agent/confirm", {"threadId": tid, "interruptId": q2["interruptId"],
                                             "action": "modify",
                                             "payload": {"title": "我的标题", "tags": ["a"]}})
    evs3 = events(r3.body)
    pid_c = r3.header("X-AiVista-Worker")
    t.ok(pid_c not in (pid_a, pid_b), "completion on a third process (%s)" % pid_c)
    done = [e["data"] for e in evs3 if isinstance(e["data"], dict)
            and e["data"].get("type") == "workflow_complete"]
    t.ok(done and done[0].get("title") == "我的标题" and done[0].get("tags") == ["a"],
         "modify: the edited fields reach workflow_complete")
    t.is_(types(evs3)[-1], "[DONE]", "complete: [DONE] ends the stream")

    log = stored_log(a, tid)
    live = durable(evs) + durable(evs2) + durable(evs3)
    t.is_([(e["id"], e["data"]) for e in log], [(e["id"], e["data"]) for e in live],
          "replay from 0 equals what the three live streams sent (same ids, same fields)")

    again = post_json(a, "/api/agent/confirm", {"threadId": tid, "interruptId": q2["interruptId"],
                                                "action": "modify", "payload": {"title": "x"}})
    t.is_(again.status, 200, "confirm repeated: answered again")
    t.is_([(e["id"], e["data"]) for e in durable(events(again.body))],
          [(e["id"], e["data"]) for e in durable(evs3)],
          "confirm repeated: replays the first answer's events with their ids")
    st = c.request("GET", "/api/threads/" + tid).json()
    t.is_(st["state"]["decisions"], ["reject", "modify"], "the decisions ran once each")
    stale = post_json(a, "/api/agent/confirm", {"threadId": tid, "interruptId": "int-9-00000000",
                                                "action": "approve"})
    t.is_((stale.status, (avtest.problem(stale.body) or {}).get("code")), (409, "not_paused"),
          "confirm with another interruptId: 409 not_paused")
    hist = b.request("GET", "/api/threads/%s/history" % tid).json()["checkpoints"]
    t.is_([h["step"] for h in hist], sorted([h["step"] for h in hist], reverse=True),
          "history: newest first")
    t.is_(hist[0]["state"], st["state"], "history: the newest checkpoint is the current state")


def test_bad_confirms(t, a):
    resp, evs, tid = start_thread(a, topic="t")
    q = ask(evs)
    cases = [
        ({"threadId": tid, "interruptId": q["interruptId"], "action": "maybe"}, 400, "bad action"),
        ({"threadId": tid, "interruptId": q["interruptId"]}, 400, "no action"),
        ({"threadId": tid, "interruptId": q["interruptId"], "action": 3}, 400, "action not text"),
        ({"threadId": tid, "interruptId": q["interruptId"], "action": "modify"}, 400,
         "modify without payload"),
        ({"threadId": tid, "interruptId": q["interruptId"], "action": "modify",
          "payload": {"nope": "x"}}, 400, "modify a field that is not editable"),
        ({"threadId": tid, "interruptId": q["interruptId"], "action": "modify",
          "payload": {"title": 5}}, 400, "modify with the wrong type"),
        ({"threadId": tid, "interruptId": q["interruptId"], "action": "approve",
          "payload": {"title": "x"}}, 400, "approve that edits"),
        ({"threadId": tid, "interruptId": q["interruptId"], "action": "modify",
          "payload": "text"}, 400, "payload not an object"),
    ]
    for body, status, name in cases:
        r = post_json(a, "/api/agent/confirm", body)
        t.is_(r.status, status, "confirm, %s: %d" % (name, status))
    t.is_(a.request("GET", "/api/threads/" + tid).json()["status"], "paused",
          "after bad confirms the thread still waits")
    bad_starts = [
        ({"workflow": "nope", "input": {}}, 400, "unknown workflow"),
        ({"input": {}}, 400, "no workflow"),
        ({"workflow": "test", "input": []}, 400, "input not an object"),
        ({"workflow": "test", "input": {"steps": "many"}}, 400, "input the workflow refuses"),
        ({"workflow": "test", "threadId": 7}, 400, "threadId not text"),
        ({"workflow": "test", "multitask": "later"}, 400, "bad multitask"),
    ]
    for body, status, name in bad_starts:
        r = post_json(a, "/api/agent/stream", body)
        t.is_(r.status, status, "stream, %s: %d" % (name, status))
    for body, code, name in (({"workflow": "nope", "input": {}}, "unknown_workflow", "unknown workflow"),
                             ({"input": {}}, "bad_request", "no workflow")):
        r = post_json(a, "/api/agent/stream", body)
        t.is_((avtest.problem(r.body) or {}).get("code"), code, "stream, %s: code %s" % (name, code))
    r = post_json(a, "/api/agent/stream", {"threadId": tid, "input": {"topic": "again"}})
    t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (409, "not_paused"),
          "a new turn on a paused thread: 409, answer the pause first")


def test_one_step_per_request(t, workers):
    resp, evs, tid = start_thread(workers[0], topic="one", steps=3)
    seen = durable(evs)
    pids = {resp.header("X-AiVista-Worker")}
    t.is_(types(evs)[-1], "workflow_yield", "steps_per_request=1: the first request yields")
    requests = 1
    final = None
    while requests < 40:
        w = workers[requests % len(workers)]
        last = seen[-1]["id"]
        q = ask([{"data": e["data"]} for e in seen])
        if q and not any(e["data"].get("type") == "workflow_complete" for e in seen
                         if isinstance(e["data"], dict)) and \
                types(seen)[-1] == "workflow_paused":
            r = post_json(w, "/api/agent/confirm", {"threadId": tid,
                                                    "interruptId": q["interruptId"],
                                                    "action": "approve"})
        else:
            r = w.request("GET", "/api/agent/stream?threadId=" + tid,
                          headers={"Last-Event-ID": last})
        requests += 1
        pids.add(r.header("X-AiVista-Worker"))
        got = events(r.body)
        seen += durable(got)
        if "[DONE]" in types(got):
            final = got
            break
    t.ok(final is not None, "steps_per_request=1: the thread completed (%d requests)" % requests)
    t.ok(len(pids) == len(workers), "steps_per_request=1: all %d workers took part" % len(workers))
    t.is_([int(e["id"]) for e in seen], list(range(1, len(seen) + 1)),
          "steps_per_request=1: the events gathered over all requests have no gap or repeat")
    t.is_([(e["id"], e["data"]) for e in stored_log(workers[1], tid)],
          [(e["id"], e["data"]) for e in seen], "steps_per_request=1: they equal the stored log")


def test_last_event_id(t, a, b):
    resp, evs, tid = start_thread(a, topic="replay", pause=False, steps=2)
    log = durable(evs)
    n = len(log)
    t.is_(types(evs)[-1], "[DONE]", "replay thread completed")
    base = "/api/agent/stream?threadId=" + tid

    def replay(headers=None, query=""):
        r = b.request("GET", base + query, headers=headers or {})
        return r, events(r.body)

    r, e = replay()
    t.is_([x["id"] for x in durable(e)], [x["id"] for x in log], "no Last-Event-ID: the whole log")
    t.is_(types(e)[-1], "[DONE]", "a finished thread's replay ends with [DONE]")
    k = n // 2
    r, e = replay({"Last-Event-ID": str(k)})
    t.is_([(x["id"], x["data"]) for x in durable(e)], [(x["id"], x["data"]) for x in log[k:]],
          "Last-Event-ID %d: exactly the events after it, same fields" % k)
    r, e = replay(query="&lastEventId=%d" % k)
    t.is_([x["id"] for x in durable(e)], [x["id"] for x in log[k:]],
          "lastEventId in the query works the same")
    r, e = replay({"Last-Event-ID": str(n)})
    t.is_(durable(e), [], "Last-Event-ID = the last id: nothing to replay")
    r, e = replay({"Last-Event-ID": "0"})
    t.is_(len(durable(e)), n, "Last-Event-ID 0: everything")
    for bad, name in (("%d" % (n + 1), "future"), ("abc", "garbage"), ("-1", "negative"),
                      ("1e3", "exponent"), ("9" * 40, "huge"), (" 3", "padded"),
                      ("3.0", "fraction")):
        r, e = replay({"Last-Event-ID": bad})
        p = avtest.problem(r.body) or {}
        t.is_((r.status, p.get("code")), (400, "bad_event_id"),
              "Last-Event-ID %s: 400 bad_event_id" % name)


def forgeries(tid):
    v, rnd, tag = tid.split(".")
    flip = lambda s, i: s[:i] + ("A" if s[i] != "A" else "B") + s[i + 1:]  # noqa: E731
    std = tid.replace("-", "+").replace("_", "/")
    out = [
        ("tampered tag", "%s.%s.%s" % (v, rnd, flip(tag, 5))),
        ("tampered tag end", "%s.%s.%s" % (v, rnd, flip(tag, len(tag) - 1))),
        ("tampered random part", "%s.%s.%s" % (v, flip(rnd, 3), tag)),
        ("truncated", tid[:-1]),
        ("extended", tid + "A"),
        ("re-padded", tid + "="),
        ("padded random part", "%s.%s==.%s" % (v, rnd, tag)),
        ("trailing junk", tid + "%20x"),
        ("version 2", "v2" + tid[2:]),
        ("no dots", tid.replace(".", "")),
        ("swapped parts", "%s.%s.%s" % (v, tag, rnd)),
        ("very long", tid + "A" * 5000),
    ]
    if std != tid:
        out.append(("standard alphabet", std))
    return out


def test_forged_ids(t, a, store):
    import urllib.parse
    resp, evs, tid = start_thread(a, topic="forge")
    for name, bad in forgeries(tid):
        q = urllib.parse.quote(bad, safe="")
        r = a.request("GET", "/api/agent/stream?threadId=" + q)
        t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (403, "bad_thread_id"),
              "forged ID (%s) on the stream: 403" % name)
        if "/" not in bad:
            r = a.request("GET", "/api/threads/" + q)
            t.is_(r.status, 403, "forged ID (%s) in the path: 403" % name)
    r = post_json(a, "/api/agent/confirm", {"threadId": tid[:-1], "interruptId": "x",
                                            "action": "approve"})
    t.is_(r.status, 403, "a forged ID in a confirm body: 403")
    r = a.request("GET", "/api/agent/stream?threadId=" + tid + "x")
    t.is_(r.status, 403, "a forged ID on the stream: 403")
    unknown = avtest.signed_id(read_key(store), os.urandom(16))
    r = a.request("GET", "/api/threads/" + unknown)
    t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (404, "thread_not_found"),
          "a well-signed unknown ID: 404")
    t.is_(a.request("GET", "/api/threads/" + tid).status, 200, "the real thread is untouched")


def test_kill_mid_step(t, a, b, other_tid):
    conn = a.connect()
    body = json.dumps({"workflow": "test", "input": {"topic": "kill", "steps": 3,
                                                     "sleepMs": 1500, "pause": False}})
    conn.begin()
    import fcgi_client
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    reader = SSEReader(conn.stream())
    got = []
    tid = None
    for ev in reader:
        got.append(ev)
        d = ev["data"]
        if isinstance(d, dict) and d.get("type") == "thread_start":
            tid = d["threadId"]
        if isinstance(d, dict) and d.get("type") == "agent_start" and d.get("node") == "count" \
                and sum(1 for x in got if isinstance(x["data"], dict)
                        and x["data"].get("type") == "agent_start"
                        and x["data"].get("node") == "count") == 2:
            break
    os.kill(a.pid, signal.SIGKILL)
    a.wait()
    conn.close()
    t.ok(not a.alive(), "worker A killed with SIGKILL in the middle of a step")
    before = durable(got)
    last = before[-1]["id"]
    r = b.request("GET", "/api/agent/stream?threadId=" + tid, headers={"Last-Event-ID": last},
                  timeout=120)
    rest = events(r.body)
    t.is_(types(rest)[-1] if rest else None, "[DONE]",
          "worker B took the dead worker's lease and finished the thread")
    allev = before + durable(rest)
    t.is_([int(e["id"]) for e in allev], list(range(1, len(allev) + 1)),
          "the client's events before and after the kill: no gap, no repeat")
    log = stored_log(b, tid)
    t.is_([(e["id"], e["data"]) for e in log], [(e["id"], e["data"]) for e in allev],
          "the stored log equals what the client received")
    counts = [e["data"]["message"] for e in log if e["data"].get("type") == "thought_log"
              and e["data"].get("node") == "count"]
    t.is_(counts, ["count 1", "count 2", "count 3"],
          "the interrupted step ran again from its checkpoint, each count once")
    st = b.request("GET", "/api/threads/" + other_tid)
    t.is_(st.json().get("status"), "paused", "another thread is untouched by the kill")


def test_recovery_after_kill(t, d, b):
    """A new process finds the killed one registered: failchk cleans up
    after it, with no recovery, so the processes already running never
    see a panic and answer as before."""
    fresh = avtest.Worker(t, d, name="d", settings=SETTINGS).start()
    h = fresh.request("GET", "/api/health").json()
    t.is_(h.get("store", {}).get("reachable"), True, "a new worker opens the store after the kill")
    r = b.request("GET", "/api/health")
    t.is_(r.status, 200, "an old worker still answers 200: no panic, no recovery")
    t.ok(b.alive(), "and it keeps running")
    return fresh


def test_panic_reopen(t, d):
    """The environment is recovered from outside (db_recover) while two
    workers have it open, which panics their handles: each reopens it on
    its next request and answers it, and keeps running."""
    recover = shutil.which("db5.3_recover") or shutil.which("db_recover")
    if avtest.store_backend() != "bdb":
        t.skip("Berkeley DB only: db_recover panics an environment, PostgreSQL has none",
               "panic: workers reopen the store")
        return
    if recover is None:
        t.skip("no db_recover", "panic: workers reopen the store")
        return
    store = os.path.join(d, "pstore")
    settings = dict(SETTINGS, store={"dir": store})
    a = avtest.Worker(t, d, name="pa", settings=settings).start()
    b = avtest.Worker(t, d, name="pb", settings=settings).start()
    # A worker's socket answers before it has opened the store: a request
    # to each is served only once it has, so both have the environment
    # open when it is recovered (a slow start, as under the sanitizer,
    # would otherwise open it while db_recover runs).
    t.is_((a.request("GET", "/api/health").status, b.request("GET", "/api/health").status),
          (200, 200), "panic: both workers have the store open")
    resp, evs, tid = start_thread(a, topic="before the panic")
    q = ask(evs)
    t.ok(tid and q, "panic: a thread paused before")
    if not (tid and q):
        return
    r = subprocess.run([recover, "-h", store], capture_output=True, text=True)
    t.is_(r.returncode, 0, "panic: db_recover ran on the store in use")
    st = b.request("GET", "/api/threads/" + tid)
    t.is_((st.status, st.json().get("status")), (200, "paused"),
          "panic: worker B's next request reopens the store and reads the thread")
    r2 = post_json(a, "/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                             "action": "approve"})
    evs2 = events(r2.body)
    t.is_((r2.status, types(evs2)[-1] if evs2 else None), (200, "[DONE]"),
          "panic: worker A's next request (a confirm) commits and completes the thread")
    t.is_(ids(evs2)[0] if ids(evs2) else None, ids(evs)[-1] + 1,
          "panic: its events follow on the ones sent before, no repeat")
    t.is_(a.request("GET", "/api/health").status, 200, "panic: worker A healthy")
    t.is_(b.request("GET", "/api/health").status, 200, "panic: worker B healthy")
    t.ok(a.alive() and b.alive(), "panic: both workers still running")
    logs = open(a.log, errors="replace").read() + open(b.log, errors="replace").read()
    t.ok("reopened after a panic" in logs, "panic: the workers logged the reopen")
    a.kill()
    b.kill()


def test_step_crashes(t, d, other_tid):
    """A step that takes down every worker that runs it: each takeover from
    the dead worker counts; after max_step_crashes of them the thread
    fails with step_crashed instead of taking down another worker."""
    settings = dict(SETTINGS, engine=dict(SETTINGS["engine"], max_step_crashes="2"))
    w = avtest.Worker(t, d, name="crash0", settings=settings).start()
    resp, evs, tid = start_thread(w, topic="crash", crash="finish")
    q = ask(evs)
    t.ok(tid and q, "crash: the thread pauses before the node that crashes")
    if not (tid and q):
        return
    crashes = 0
    try:
        post_json(w, "/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                            "action": "approve"})
    except (OSError, EOFError, ValueError, fcgi_client.FcgiError):
        pass
    w.wait()
    crashes += not w.alive()
    last = None
    for i in range(1, 5):
        w = avtest.Worker(t, d, name="crash%d" % i, settings=settings).start()
        try:
            last = w.request("GET", "/api/agent/stream?threadId=" + tid,
                             headers={"Last-Event-ID": "0"})
        except (OSError, EOFError, ValueError, fcgi_client.FcgiError):
            last = None
        w.wait(3)
        if w.alive():
            break
        crashes += 1
    t.is_(crashes, 3, "crash: the step took down max_step_crashes + 1 = 3 workers")
    t.ok(w.alive(), "crash: the next worker stays up")
    evs = events(last.body) if last is not None else []
    errs = [e["data"] for e in evs if isinstance(e["data"], dict) and e["data"].get("type") == "error"]
    t.is_([e.get("code") for e in errs], ["step_crashed"], "crash: the thread ends with step_crashed")
    t.is_(errs[0].get("node") if errs else None, "finish", "crash: the error names the node")
    t.is_(types(evs)[-1] if evs else None, "[DONE]", "crash: the stream ends")
    st = w.request("GET", "/api/threads/" + tid).json()
    t.is_(st.get("status"), "error", "crash: the thread's status is error")
    again = events(w.request("GET", "/api/agent/stream?threadId=" + tid).body)
    t.is_(types(again)[-1] if again else None, "[DONE]", "crash: a later GET replays and ends")
    t.ok(w.alive(), "crash: and takes down no worker")
    t.is_(w.request("GET", "/api/threads/" + other_tid).json().get("status"), "paused",
          "crash: another thread is untouched")
    resp, evs, tid2 = start_thread(w, topic="after", pause=False)
    t.is_(types(evs)[-1] if evs else None, "[DONE]", "crash: a new thread runs to its end")
    w.kill()


def test_expiry(t, d):
    w = avtest.Worker(t, d, name="ttl", settings={"store": dict(avtest.store_settings(
                                                  os.path.join(d, "ttlstore")), thread_ttl="1")}).start()
    resp, evs, tid = start_thread(w, topic="ttl")
    t.is_(w.request("GET", "/api/threads/" + tid).status, 200, "expiry: a fresh thread is there")
    time.sleep(2.2)
    r = w.request("GET", "/api/threads/" + tid)
    t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (410, "thread_expired"),
          "expiry: idle past thread_ttl: 410")
    for _ in range(3):
        w.request("GET", "/api/health")
    r = w.request("GET", "/api/threads/" + tid)
    t.is_(r.status, 410, "expiry: still 410 once pruned (a tombstone remains)")
    r = post_json(w, "/api/agent/confirm", {"threadId": tid, "interruptId": ask(evs)["interruptId"],
                                            "action": "approve"})
    t.is_(r.status, 410, "expiry: a confirm on it is 410 too")
    w.kill()


def test_rotation(t, d):
    store = os.path.join(d, "rotstore")
    w = avtest.Worker(t, d, name="rot1", settings={"store": avtest.store_settings(store)}).start()
    resp, evs, old_tid = start_thread(w, topic="rot")
    w.kill()
    keyfile = os.path.join(store, "thread.key")
    old = open(keyfile).read()
    avtest.write_file(keyfile, avtest.b64url(os.urandom(32)) + "\n" + old, 0o600)
    w2 = avtest.Worker(t, d, name="rot2", settings={"store": avtest.store_settings(store)}).start()
    t.is_(w2.request("GET", "/api/threads/" + old_tid).status, 200,
          "rotation: an ID signed with the old key still verifies")
    resp, evs, new_tid = start_thread(w2, topic="rot2")
    key = avtest.unb64url(open(keyfile).readline().strip())
    raw = avtest.unb64url(new_tid.split(".")[1])
    t.is_(avtest.signed_id(key, raw), new_tid, "rotation: new IDs are signed with the new key")
    t.is_(oct(os.stat(keyfile).st_mode & 0o777), oct(0o600), "the key file stays 0600")
    w2.kill()


def test_fifty_workers(t, d):
    fresh = os.path.join(d, "fifty")
    ws = [avtest.Worker(t, d, name="f%02d" % i, settings={"store": avtest.store_settings(fresh)})
          for i in range(50)]
    import subprocess
    for w in ws:   # all at once: start every process, then wait for each
        logf = open(w.log, "ab")
        w.proc = subprocess.Popen([TEST_WORKER, "-c", w.conf, "-l", w.sock],
                                  stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
                                  env=w.env, start_new_session=True)
        logf.close()
        t.cleanup(w.kill)
    ok = 0
    for w in ws:
        if avtest.wait_for(lambda: os.path.exists(w.sock) or None, 60):
            try:
                h = w.request("GET", "/api/health").json()
                ok += h.get("store", {}).get("reachable") is True
            except Exception as e:  # noqa: BLE001
                t.diag("%s: %s" % (w.name, e))
    t.is_(ok, 50, "50 workers opening a fresh environment at once all reach the store")
    resp, evs, tid = start_thread(ws[7], topic="fifty", pause=False)
    t.is_(types(evs)[-1], "[DONE]", "and a thread runs on it")
    t.is_(ws[42].request("GET", "/api/threads/" + tid).json().get("status"), "done",
          "and another of them sees it")
    for w in ws:
        w.kill()


def test_concurrent_confirms(t, d):
    os.environ["AIVISTA_WORKER"] = TEST_WORKER
    # The confirms that find the continuation running follow it: the cap
    # on followers ([server] max_followers, tested in followers.py) is set
    # above the number of workers, so that it does not answer any of them.
    lt = avtest.Lighttpd(t, os.path.join(d, "lt"), workers=6,
                         settings={"server": {"max_followers": "32"}}).start()
    status, hdrs, body = lt.request("POST", "/api/agent/stream",
                                    json.dumps({"workflow": "test", "input": {"topic": "x20"}}),
                                    {"Content-Type": "application/json"})
    evs = events(body)
    tid = evs[0]["data"]["threadId"]
    q = ask(evs)
    results = [None] * 20
    barrier = threading.Barrier(20)

    def one(i):
        barrier.wait()
        try:
            results[i] = lt.request("POST", "/api/agent/confirm",
                                    json.dumps({"threadId": tid, "interruptId": q["interruptId"],
                                                "action": "approve"}),
                                    {"Content-Type": "application/json"}, timeout=120)
        except Exception as e:  # noqa: BLE001
            results[i] = e
    ths = [threading.Thread(target=one, args=(i,)) for i in range(20)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    statuses = [r[0] if isinstance(r, tuple) else repr(r) for r in results]
    t.ok(all(s in (200, 409) for s in statuses), "20 confirms at once: each gets 200 or 409 (%s)"
         % sorted(set(map(str, statuses))))
    status, hdrs, body = lt.request("GET", "/api/threads/" + tid)
    st = json.loads(body)
    t.is_(st["state"]["decisions"], ["approve"], "20 confirms at once: exactly one resumed it")
    t.is_(st["status"], "done", "and the thread completed")
    status, hdrs, body = lt.request("GET", "/api/agent/stream?threadId=" + tid)
    log = durable(events(body))
    decided = [e for e in log if e["data"].get("type") == "thought_log"
               and e["data"].get("decision")]
    t.is_(len(decided), 1, "the log records one decision")
    t.is_([int(e["id"]) for e in log], list(range(1, len(log) + 1)), "the log has no gap")
    ok200 = [r for r in results if isinstance(r, tuple) and r[0] == 200]
    good = all(ids(events(r[2])) ==
               [int(e["id"]) for e in log if int(e["id"]) >= int(decided[0]["id"])]
               for r in ok200)
    t.ok(good, "every 200 answer carries the same continuation, with the same ids")
    lt.stop()


def test_busy_thread(t, a, b, c):
    import fcgi_client
    body = json.dumps({"workflow": "test", "input": {"topic": "slow", "steps": 2,
                                                     "sleepMs": 800, "pause": False}})
    conn = a.connect()
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    reader = iter(SSEReader(conn.stream()))
    first = next(reader)
    tid = first["data"]["threadId"]
    r = post_json(b, "/api/agent/stream", {"threadId": tid, "input": {"topic": "next"}})
    t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (409, "thread_busy"),
          "a second POST on a running thread: 409 thread_busy")
    box = {}

    def enqueue():
        box["r"] = post_json(c, "/api/agent/stream", {"threadId": tid, "multitask": "enqueue",
                                                      "input": {"topic": "queued"}})
    th = threading.Thread(target=enqueue)
    th.start()
    joined = b.request("GET", "/api/agent/stream?threadId=" + tid, timeout=60)
    jev = events(joined.body)
    rest = [first] + list(reader)
    conn.close()
    t.is_(types(jev)[-1], "[DONE]", "a GET joins the running thread and follows it to the end")
    # The joiner may go on into the queued turn if it starts before the
    # joiner sees the first run end: compare what both streams saw.
    t.is_([(e["id"], e["data"]) for e in durable(jev)][:len(durable(rest))],
          [(e["id"], e["data"]) for e in durable(rest)],
          "the joined stream has the same events and ids as the running one")
    th.join(60)
    qev = events(box["r"].body)
    done = [e["data"] for e in qev if isinstance(e["data"], dict)
            and e["data"].get("type") == "workflow_complete"]
    t.is_(box["r"].status, 200, "multitask enqueue: waited for the run, then was accepted")
    t.ok(done and done[0]["title"].startswith("queued"), "the queued turn ran after the first")
    t.ok(int(durable(qev)[0]["id"]) == int(durable(rest)[-1]["id"]) + 1,
         "the queued turn's events follow the first run's without a gap")


def test_pause_deadline(t, d):
    w = avtest.Worker(t, d, name="dl", settings={"store": avtest.store_settings(os.path.join(d, "dlstore")),
                                                  "engine": {"hitl_timeout_ms": "300",
                                                             "hitl_default": "approve"}}).start()
    resp, evs, tid = start_thread(w, topic="deadline")
    q = ask(evs)
    t.ok(q and q.get("deadline"), "a pause with a timeout announces its deadline")
    time.sleep(0.6)
    r = w.request("GET", "/api/agent/stream?threadId=" + tid,
                  headers={"Last-Event-ID": evs[-1]["id"]})
    ev = events(r.body)
    dec = [e["data"] for e in ev if isinstance(e["data"], dict) and e["data"].get("decision")]
    t.ok(dec and dec[0]["decision"] == "approve", "past the deadline the default decision applies")
    t.is_(types(ev)[-1], "[DONE]", "and the thread goes on to the end")
    r = post_json(w, "/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                            "action": "reject"})
    t.is_(w.request("GET", "/api/threads/" + tid).json()["state"]["decisions"], ["approve"],
          "a late confirm does not run the decision again")
    w.kill()


def test_limits_and_assets(t, a):
    resp, evs, tid = start_thread(a, topic="loop", loop=True)
    errs = [e["data"] for e in evs if isinstance(e["data"], dict) and e["data"].get("type") == "error"]
    t.ok(errs and errs[0]["code"] == "max_iterations", "a node looping past max_iterations stops "
         "with an error event")
    t.is_(types(evs)[-1], "[DONE]", "a failed thread's stream ends with [DONE]")
    t.is_(a.request("GET", "/api/threads/" + tid).json()["status"], "error", "its status is error")
    resp, evs, tid = start_thread(a, topic="fail", fail="draft")
    errs = [e["data"] for e in evs if isinstance(e["data"], dict) and e["data"].get("type") == "error"]
    t.ok(errs and errs[0]["code"] == "test_failure" and errs[0]["node"] == "draft",
         "a failing node: an error event with its code and node")

    blob = ("蒙版" * 1000 + "x") * 175          # about 1 MiB of text
    resp, evs, tid = start_thread(a, topic="blob", blob=blob, steps=8, pause=False)
    t.is_(types(evs)[-1], "[DONE]", "a thread with a 1 MiB input runs")
    st = a.request("GET", "/api/threads/" + tid).json()["state"]
    aid = st.get("blobAsset")
    t.ok(aid and "blob" not in st, "the large input became an asset; the state keeps its id")
    r = a.request("GET", "/api/assets/" + aid)
    t.is_((r.status, r.body.decode()), (200, blob), "GET /api/assets/{id} returns the bytes")
    t.like(r.header("Cache-Control") or "", "immutable", "assets are cached as immutable")
    etag = r.header("ETag")
    r = a.request("GET", "/api/assets/" + aid, headers={"If-None-Match": etag})
    t.is_(r.status, 304, "If-None-Match with the ETag: 304")
    hist = a.request("GET", "/api/threads/%s/history" % tid)
    t.ok(len(hist.body) < 60000, "history of a 13-step thread with a 1 MiB input stays small "
         "(%d bytes): the input is stored once" % len(hist.body))
    t.is_(a.request("GET", "/api/assets/" + "A" * 43).status, 404, "an unknown asset: 404")
    t.is_(a.request("GET", "/api/assets/not-an-id").status, 404, "a malformed asset id: 404")
    ghost = "B" * 43
    r = a.request("GET", "/api/assets/" + ghost, headers={"If-None-Match": '"%s"' % ghost})
    t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (404, "not_found"),
          "If-None-Match naming an asset that does not exist: 404, not 304")

    r = post_json(a, "/api/agent/stream", {"threadId": tid, "input": {"topic": "second turn"}})
    ev2 = events(r.body)
    t.is_(types(ev2)[-1], "[DONE]", "a new turn on a finished thread runs")
    t.is_(ids(ev2)[0], ids(evs)[-1] + 1, "the new turn's events continue the thread's ids")
    r = post_json(a, "/api/agent/stream", {"threadId": tid, "input": {"topic": 5}})
    t.is_(r.status, 400, "a turn the workflow refuses: 400")


def test_keepalive_and_disconnect(t, d):
    import fcgi_client
    w = avtest.Worker(t, d, name="ka", settings={"store": avtest.store_settings(os.path.join(d, "kastore")),
                                                  "server": {"keepalive_ms": "100"}}).start()
    resp, evs, tid = start_thread(w, topic="quiet", steps=1, sleepMs=700, pause=False)
    raw = resp.body.decode()
    t.ok(raw.count(": keep-alive") >= 3, "a quiet step sends keep-alive comments (%d in 0.7 s at "
         "100 ms)" % raw.count(": keep-alive"))
    body = json.dumps({"workflow": "test", "input": {"topic": "leave", "steps": 6,
                                                     "sleepMs": 300, "pause": False}})
    conn = w.connect()
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    reader = SSEReader(conn.stream())
    first = next(iter(reader))
    tid = first["data"]["threadId"]
    conn.close()
    time.sleep(1.5)
    st = w.request("GET", "/api/threads/" + tid).json()
    t.ok(st["status"] == "running" and st["state"]["count"] < 6,
         "a client that leaves stops the run after the step in progress (count %d of 6)"
         % st["state"]["count"])
    t.ok(w.alive(), "the worker survives the client leaving")
    r = w.request("GET", "/api/agent/stream?threadId=" + tid, headers={"Last-Event-ID": "1"},
                  timeout=60)
    ev = events(r.body)
    t.is_(types(ev)[-1], "[DONE]", "reconnecting continues the thread to the end")
    t.is_(ids(ev), list(range(2, 2 + len(durable(ev)))), "without a gap after the last id seen")
    w.kill()


SETTINGS = {"engine": {"steps_per_request": "0"}}


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    os.environ["AIVISTA_WORKER"] = TEST_WORKER
    d = t.tmpdir("engine")
    a = avtest.Worker(t, d, name="a", settings=SETTINGS).start()
    b = avtest.Worker(t, d, name="b", settings=SETTINGS).start()
    c = avtest.Worker(t, d, name="c", settings=SETTINGS).start()
    test_pause_across_workers(t, a, b, c)
    test_bad_confirms(t, a)
    test_last_event_id(t, a, b)
    test_forged_ids(t, a, a.store)
    test_busy_thread(t, a, b, c)
    test_limits_and_assets(t, a)

    d1 = t.tmpdir("spr")
    one = {"engine": {"steps_per_request": "1"}}
    ws = [avtest.Worker(t, d1, name="s%d" % i, settings=one).start() for i in range(3)]
    test_one_step_per_request(t, ws)
    for w in ws:
        w.kill()

    resp, evs, other = start_thread(b, topic="bystander")
    test_kill_mid_step(t, a, b, other)
    b2 = test_recovery_after_kill(t, d, b)
    st = b2.request("GET", "/api/threads/" + other)
    t.is_(st.json().get("status"), "paused", "after the kill the other thread is still paused")
    r = post_json(b2, "/api/agent/confirm", {"threadId": other, "interruptId": ask(evs)["interruptId"],
                                             "action": "approve"})
    t.is_(types(events(r.body))[-1], "[DONE]", "and it completes when confirmed")
    resp, evs, other = start_thread(b2, topic="bystander 2")
    test_step_crashes(t, d, other)
    test_panic_reopen(t, d)
    for w in (b, c, b2):
        w.kill()
    test_expiry(t, d)
    test_pause_deadline(t, d)
    test_keepalive_and_disconnect(t, d)
    test_rotation(t, d)
    test_fifty_workers(t, t.tmpdir("fifty"))
    test_concurrent_confirms(t, t.tmpdir("c20"))


avtest.run(main)
