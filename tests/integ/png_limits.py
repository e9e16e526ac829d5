"""PNG images a request brings, through the worker (offline provider).

The note request that crashed a worker: referenceImageUrl a data URL of a
PNG with two IHDR chunks, a first one 1000000x1 and one 1x1 after the IDAT,
answered 413 image_too_large, the worker alive, no thread left running;
two small IHDR chunks answered 400 with libpng's reason; a reference of
67108864x1 16-bit RGBA and three 2500x2500 references (over
reference_max_pixel_bytes together) answered 413 before any pixel is
inflated; an inpainting mask wider than inpaint_max_side answered 413.
The same two-IHDR file read by a step (an http URL the reference agent
fetches) ends the thread with an error event image_too_large, status
error, and the worker keeps serving.
"""

import http.server
import json
import os
import sys
import threading
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402
from avevents import data, events  # noqa: E402


def png(w, h, depth=8, ctype=avpng.RGB, first=None, later=False):
    """A grey-ish PNG of any depth and colour type; first: an IHDR chunk
    put before the real one, which comes after the IDAT when later."""
    unit = avpng.SAMPLES[ctype] * depth // 8
    raw = b"".join(b"\0" + b"\x80" * (w * unit) for _ in range(h))
    idat = avpng.chunk(b"IDAT", zlib.compress(raw, 9))
    head = avpng.ihdr(w, h, depth, ctype)
    return (avpng.SIGNATURE + (first or b"") + (idat + head if later else head + idat)
            + avpng.chunk(b"IEND", b""))


# The reproducer: IHDR 1000000x1, IDAT, IHDR 1x1 (the old reader sized its
# buffers by the last IHDR and read the rows by the one before the IDAT).
TWO_IHDR = png(1, 1, first=avpng.ihdr(1000000, 1), later=True)
TWO_SMALL_IHDR = png(1, 1, first=avpng.ihdr(8, 1))


def post(w, obj):
    r = w.request("POST", "/api/agent/stream", body=json.dumps(obj),
                  headers={"Content-Type": "application/json"}, timeout=60)
    return r.status, r.header("X-AiVista-Worker"), r.body


def alive(t, w, name):
    r = w.request("GET", "/api/health", timeout=30)
    t.ok(w.alive() and r.status == 200, name + ": the worker is alive and healthy")


def test_intake(t, w):
    st, pid, body = post(w, {"workflow": "note", "input": {"topic": "秋天的咖啡店",
                                                            "referenceImageUrl": avpng.data_url(TWO_IHDR)}})
    p = avtest.problem(body) or {}
    t.is_(st, 413, "note with a PNG of IHDR 1000000x1 then 1x1 (%d bytes of request): 413"
          % len(json.dumps({"referenceImageUrl": avpng.data_url(TWO_IHDR)})))
    t.is_(p.get("code"), "image_too_large", "  ... code image_too_large")
    t.like(p.get("detail", ""), r"referenceImageUrl: .*wider or taller than 8192",
           "  ... detail names the reference and the limit")
    t.ok(pid and int(pid) == w.pid, "  ... answered by the worker itself")
    alive(t, w, "  ... after it")

    st, _, body = post(w, {"workflow": "note", "input": {"topic": "秋天的咖啡店",
                                                         "referenceImageUrl": avpng.data_url(TWO_SMALL_IHDR)}})
    p = avtest.problem(body) or {}
    t.is_(st, 400, "IHDR 8x1 then IHDR 1x1: 400")
    t.like(p.get("detail", ""), r"IHDR", "  ... libpng's reason: %s" % p.get("detail"))

    wide = png(67108864, 1, depth=16, ctype=6)
    st, _, body = post(w, {"workflow": "note", "input": {"topic": "x", "referenceImages": [avpng.data_url(wide)]}})
    t.is_((st, (avtest.problem(body) or {}).get("code")), (413, "image_too_large"),
          "a 67108864x1 16-bit RGBA reference (%d KB): 413 image_too_large" % (len(wide) // 1024))

    big = avpng.data_url(png(2500, 2500))
    st, _, body = post(w, {"workflow": "note", "input": {"topic": "x", "referenceImages": [big, big, big]}})
    p = avtest.problem(body) or {}
    t.is_((st, p.get("code")), (413, "image_too_large"),
          "three 2500x2500 references (25 MB each inflated as RGBA, 64 MiB together): 413")
    t.like(p.get("detail", ""), r"referenceImages\[2\]: .*bytes", "  ... the third one passes the budget")
    st, _, body = post(w, {"workflow": "note", "input": {"topic": "x", "referenceImages": [big, big]}})
    t.is_(st, 200, "two of them fit")

    mask = avpng.data_url(png(5000, 2, depth=8, ctype=0))
    st, _, body = post(w, {"workflow": "image", "input": {"text": "", "maskData": {
        "base64": mask, "imageUrl": avpng.data_url(png(8, 8))}}})
    t.is_((st, (avtest.problem(body) or {}).get("code")), (413, "image_too_large"),
          "an inpainting mask 5000 pixels wide (inpaint_max_side 4096): 413 image_too_large")
    alive(t, w, "after all of them")


class Files(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(TWO_IHDR)))
        self.end_headers()
        self.wfile.write(TWO_IHDR)

    def log_message(self, *a):
        pass


def test_step(t, w):
    srv = http.server.HTTPServer(("127.0.0.1", 0), Files)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    t.cleanup(srv.shutdown)
    url = "http://127.0.0.1:%d/ref.png" % srv.server_address[1]
    st, pid, body = post(w, {"workflow": "note", "input": {"topic": "秋天的咖啡店", "referenceImageUrl": url}})
    evs = data(events(body))
    tid = next((e.get("threadId") for e in evs if e.get("type") == "thread_start"), None)
    err = [e for e in evs if e.get("type") == "error"]
    t.ok(st == 200 and tid, "the same PNG as an http URL: the thread starts")
    t.ok(err and err[-1].get("code") == "image_too_large" and
         err[-1].get("node") == "reference_intelligence_agent",
         "  ... the reference agent ends it with an error event image_too_large (%s)"
         % (err[-1] if err else None))
    alive(t, w, "  ... the worker")
    r = w.request("GET", "/api/threads/" + (tid or "x"), timeout=30)
    st = (avtest.problem(r.body) or {}).get("status")
    # The note workflow ends its creative there (aborted), and a thread
    # whose creative is aborted is aborted too: ended, not running.
    t.is_(st, "aborted", "  ... the thread has ended (aborted), not running")
    r = w.request("GET", "/api/agent/stream?threadId=" + (tid or "x"), timeout=30)
    t.ok(r.status == 200 and w.alive(), "  ... and reading it again crashes nothing")


def main(t):
    t.plan(19)
    d = t.tmpdir("png")
    w = avtest.Worker(t, d, {"fetch": {"allow_private": "yes"}}).start()
    test_intake(t, w)
    test_step(t, w)


avtest.run(main)
