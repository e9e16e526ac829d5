"""What a graph_edit patch may create, through a real lighttpd with two
workers and the shipped limits ([workflow.graph_edit] max_patch_bytes
4 MiB, max_string_bytes 16384; [server] max_body_bytes 16 MiB).

The copy bomb: a 2 MB object (128 strings of 16000 bytes, each within
max_string_bytes) added, then copied 500 times (1 GB if it ran), in a body
of 2 MB: refused with 400 patch_too_large before any stream, naming the
copy that passed the budget, quickly, the worker's peak memory (VmHWM)
under 64 MiB. A 15 MB displayName, brought by a patch or by the workflow a
turn carries: 400 naming the field. A displayName of max_string_bytes is
taken (workflow_update), one byte more refused. The workers serve on.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

WORKERS = 2
PEAK_KB = 64 * 1024          # "the worker's RSS under 64 MiB"
STRING_MAX = 16384           # [workflow.graph_edit] max_string_bytes, as shipped
TYPE = "core:TextInput"
JSON_HDR = {"Content-Type": "application/json"}


def post(lt, body):
    """(status, headers, body bytes, seconds)."""
    t0 = time.monotonic()
    st, hdrs, out = lt.request("POST", "/api/agent/stream", json.dumps(body), JSON_HDR, timeout=120)
    return st, hdrs, out, time.monotonic() - t0


def sanitized(pid):
    try:
        with open("/proc/%d/maps" % pid) as f:
            return "libasan" in f.read()
    except OSError:
        return False


def node_patch(display_name):
    return [{"op": "add", "path": "/nodes/-", "value": {"type": TYPE, "displayName": display_name}}]


def turn(patch=None, **extra):
    inp = dict(extra)
    if patch is not None:
        inp["patch"] = patch
    return {"workflow": "graph_edit", "input": inp}


def test_warm(t, lt):
    """A small patch on every worker: the node library loaded, the peak
    measured afterwards is the patch's own."""
    seen = set()
    for _ in range(4 * WORKERS):
        st, hdrs, out, _ = post(lt, turn(node_patch("warm")))
        if st == 200 and data(events(out), "workflow_update"):
            seen.add(hdrs.get("x-aivista-worker"))
    t.ok(len(seen) >= 1, "warming up: a small patch applies (workers %s)" % sorted(seen))


def test_copy_bomb(t, lt):
    blob = {"k%03d" % i: "x" * 16000 for i in range(128)}
    patch = [{"op": "add", "path": "/blob", "value": blob}]
    patch += [{"op": "copy", "from": "/blob", "path": "/c%d" % i} for i in range(500)]
    body = turn(patch)
    size = len(json.dumps(body))
    before = {pid: avtest.proc_hwm_kb(pid) for pid in lt.worker_pids()}
    st, hdrs, out, secs = post(lt, body)
    p = avtest.problem(out) or {}
    t.is_((st, p.get("code")), (400, "patch_too_large"),
          "a 2 MB object then 500 copies of it (%d KB of body): 400 patch_too_large" % (size // 1024))
    t.like(p.get("detail", ""), r"patch operation 2 \(copy\): .*4194304 bytes",
           "  ... naming the copy that passed max_patch_bytes: %s" % p.get("detail"))
    t.ok(hdrs.get("content-type", "").startswith("application/problem+json"),
         "  ... as problem+json, before any stream")
    t.ok(secs < 5, "  ... in %.2f s" % secs)
    pid = int(hdrs.get("x-aivista-worker") or 0)
    peak = avtest.proc_hwm_kb(pid)
    if sanitized(pid):
        t.ok(peak - before.get(pid, 0) < PEAK_KB,
             "  ... the worker's peak grew by %d KiB (AddressSanitizer: its own peak is %d KiB)"
             % (peak - before.get(pid, 0), peak))
    else:
        t.ok(0 < peak < PEAK_KB, "  ... the worker's peak memory (VmHWM) stays under 64 MiB: %d KiB"
             % peak)


def test_long_strings(t, lt):
    big = "n" * (15 * 1000 * 1000)
    st, _, out, _ = post(lt, turn(node_patch(big)))
    p = avtest.problem(out) or {}
    t.is_((st, p.get("code")), (400, "bad_request"), "a 15 MB displayName in a patch: 400")
    t.like(p.get("detail", ""), r"patch/0/value/displayName: a string of 15000000 bytes, longer "
           r"than the 16384 allowed", "  ... naming the field: %.120s" % p.get("detail"))
    wf = {"name": "w", "nodes": [{"id": "n_a", "type": TYPE, "position": {"x": 0, "y": 0},
                                  "displayName": big}], "edges": []}
    st, _, out, _ = post(lt, turn(None, workflow=wf, text="add a text input"))
    p = avtest.problem(out) or {}
    t.is_((st, p.get("code")), (400, "bad_request"), "a 15 MB displayName in the turn's workflow: 400")
    t.like(p.get("detail", ""), r"workflow/nodes/0/displayName: a string of 15000000 bytes",
           "  ... naming the field: %.120s" % p.get("detail"))

    st, _, out, _ = post(lt, turn(node_patch("m" * STRING_MAX)))
    upd = data(events(out), "workflow_update")
    names = [n.get("displayName") for n in (upd[0]["workflow"]["nodes"] if upd else [])]
    t.ok(st == 200 and names == ["m" * STRING_MAX],
         "a displayName of max_string_bytes (%d) is taken: workflow_update" % STRING_MAX)
    st, _, out, _ = post(lt, turn(node_patch("m" * (STRING_MAX + 1))))
    p = avtest.problem(out) or {}
    t.is_((st, p.get("code")), (400, "bad_request"), "one byte more: 400")
    t.like(p.get("detail", ""), r"displayName: a string of 16385 bytes", "  ... %.100s" % p.get("detail"))


def main(t):
    d = t.tmpdir("patchbounds")
    lt = avtest.Lighttpd(t, d, workers=WORKERS).start()
    pids = sorted(lt.worker_pids())
    t.diag("lighttpd pid %d on port %d, workers %s" % (lt.pid, lt.port, pids))
    test_warm(t, lt)
    test_copy_bomb(t, lt)
    test_long_strings(t, lt)
    st, _, _ = lt.get("/api/health", timeout=10)
    t.is_(st, 200, "/api/health answers after all of them")
    t.is_(sorted(lt.worker_pids()), pids, "the same workers serve (none was lost)")


if __name__ == "__main__":
    avtest.run(main)
