"""Resource bounds: each limit answers with a clear error (body size, event
log, assets), and 10,000 threads run through one worker with short
expiries leave the store's size and the worker's memory flat: pruning
keeps up, tombstones go too. On PostgreSQL (make check-postgresql) the
store's size is its records, counted by the server: its files and write-
ahead log are the server's, reclaimed by its vacuum."""

import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import events  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")
THREADS = int(os.environ.get("BOUNDS_THREADS", "10000"))


PG = avtest.store_backend() == "postgresql"
PG_TABLES = ("av_threads", "av_ckpts", "av_events", "av_assets", "av_expiry", "av_cache")


def store_bytes(store):
    """(data, logs): Berkeley DB's database and log files' bytes; on
    PostgreSQL the bytes of the records the tables hold, and no logs."""
    if PG:
        sql = " + ".join("(SELECT coalesce(sum(length(k) + length(v)), 0) FROM %s)" % n
                         for n in PG_TABLES)
        return int(avtest.store_psql(store, "SELECT " + sql)[0][0]), 0
    data = sum(os.path.getsize(p) for p in glob.glob(os.path.join(store, "*.db")))
    logs = sum(os.path.getsize(p) for p in glob.glob(os.path.join(store, "log.*")))
    return data, logs


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def post(w, obj):
    return w.request("POST", "/api/agent/stream", body=json.dumps(obj),
                     headers={"Content-Type": "application/json"})


def test_limits(t, d):
    w = avtest.Worker(t, d, name="limits", binary=TEST_WORKER, settings={
        "store": {"dir": os.path.join(d, "lstore"), "max_events": "100",
                  "max_asset_bytes": "2048"},
        "server": {"max_body_bytes": "65536"}}).start()
    r = post(w, {"workflow": "test", "input": {"topic": "x" * 70000}})
    t.is_((r.status, (avtest.problem(r.body) or {}).get("code")), (413, "body_too_large"),
          "a body past max_body_bytes: 413 body_too_large")
    r = post(w, {"workflow": "test", "input": {"topic": "blob", "blob": "b" * 3000, "pause": False}})
    p = avtest.problem(r.body) or {}
    t.ok(r.status == 400 and "blob" in p.get("detail", ""), "an asset past max_asset_bytes: a clear "
         "400 (%s)" % p.get("detail"))
    r = post(w, {"workflow": "test", "input": {"topic": "t", "pause": False}})
    evs = events(r.body)
    tid = evs[0]["data"]["threadId"]
    code = None
    for turn in range(20):
        r = post(w, {"threadId": tid, "input": {"topic": "turn %d" % turn}})
        errs = [e["data"] for e in events(r.body) if isinstance(e["data"], dict)
                and e["data"].get("type") == "error"]
        if errs:
            code = errs[0]["code"]
            break
        if r.status != 200:
            break
    t.is_(code, "event_limit", "a thread that fills its event log ends with an event_limit error")
    st = w.request("GET", "/api/threads/" + tid).json()
    t.ok(st["status"] == "error" and st["lastEventId"] <= 100,
         "its log stays within max_events (%d)" % st["lastEventId"])
    r = post(w, {"workflow": "test", "input": {"topic": "other", "pause": False}})
    t.is_(r.status, 200, "other threads are unaffected")
    w.kill()


def test_flat(t, d):
    store = os.path.join(d, "fstore")
    w = avtest.Worker(t, d, name="flat", binary=TEST_WORKER, settings={
        "store": {"dir": store, "thread_ttl": "1", "done_ttl": "1", "tombstone_ttl": "1"}}).start()
    body = json.dumps({"workflow": "test", "input": {"topic": "flat", "pause": False}})
    marks = {}
    failed = 0
    for i in range(1, THREADS + 1):
        r = w.request("POST", "/api/agent/stream", body=body,
                      headers={"Content-Type": "application/json"})
        if r.status != 200 or b"[DONE]" not in r.body:
            failed += 1
        if i % (THREADS // 5) == 0:
            marks[i] = (store_bytes(store), rss_kb(w.pid))
    t.is_(failed, 0, "%d threads ran to the end" % THREADS)
    for i, ((data, logs), rss) in sorted(marks.items()):
        t.diag("after %5d threads: %s %7d KiB, log files %6d KiB, worker RSS %6d KiB" %
               (i, "records" if PG else "data files", data // 1024, logs // 1024, rss))
    keys = sorted(marks)
    early, late = marks[keys[1]], marks[keys[-1]]
    # Without pruning the files would grow with the threads (2.5 times from
    # 4,000 to 10,000); with it they hold only the threads alive within
    # their expiry, a number that moves with the machine's speed.
    t.ok(late[0][0] <= early[0][0] * 1.6 + 262144,
         "the store's %s stay flat after pruning (%d KiB at %d, %d KiB at %d threads)" % (
             "records" if PG else "data files", early[0][0] // 1024, keys[1],
             late[0][0] // 1024, keys[-1]))
    if PG:
        t.skip("Berkeley DB only: its log files (PostgreSQL's write-ahead log is the server's)",
               "the log files stay bounded")
    else:
        # A checkpoint (every 2 MiB of log) may wait a second for pages a
        # transaction holds: the log holds about a second's writing more.
        t.ok(late[0][1] <= 64 * 1024 * 1024, "the log files stay bounded (%d KiB)" %
             (late[0][1] // 1024))
    with open("/proc/%d/maps" % w.pid) as f:
        sanitized = "libasan" in f.read()
    if sanitized:
        t.skip("AddressSanitizer keeps freed memory in quarantine", "the worker's memory stays flat")
    else:
        t.ok(late[1] <= early[1] + 2048, "the worker's memory stays flat (%d KiB, then %d KiB)" % (
            early[1], late[1]))
    w.kill()


def main(t):
    if not os.access(TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % TEST_WORKER)
    d = t.tmpdir("bounds")
    test_limits(t, d)
    test_flat(t, d)


avtest.run(main)
