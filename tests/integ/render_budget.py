"""Drawing and OCR under the [media] budget, through a real lighttpd with
two workers and [media] cpu_ms 1000, time_ms 2000.

A filter chain of 400 bytes (four feMorphology passes of radius 400 on
2048 x 2048: minutes of CPU), stored as an inpainting request's base
image (a path that stores SVGs as they come), asked for with
?format=png: 422 render_failed within the budget, /api/health answering
meanwhile; asked again: the same 422 at once, from the failure
remembered. Asked at another width by a client that leaves after the
drawing started: the drawing process is gone at once (not at its CPU
limit), and that stop is not remembered (the next request draws again).
A picture of noise sent to OCR (orchestrate, image-ocr-annotate): the
reading stopped at its CPU limit, the run ended within seconds (not the
minutes Tesseract would take), /api/health answering meanwhile. SVG
attachments past the [media] limits (a text bomb, too many filter
primitives, too many bytes) refused before they are stored: 400, 400 and
413. No worker is left with a child, not even a zombie."""

import json
import os
import re
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
from avevents import data, events, last_ask  # noqa: E402

SVG_NS = "<svg xmlns='http://www.w3.org/2000/svg' width='2048' height='2048'>"
FILTER_BOMB = (SVG_NS + "<filter id='f' x='0' y='0' width='1' height='1'>" +
               "<feMorphology radius='400' operator='dilate'/>"
               "<feMorphology radius='400' operator='erode'/>" * 2 +
               "</filter><rect width='2048' height='2048' fill='red' filter='url(#f)'/></svg>")
# 300 KB of text in one element: the text bomb of the report.
TEXT_BOMB = SVG_NS + "<text x='0' y='50' font-size='40'>" + "WM&#x4E2D;" * 30000 + "</text></svg>"
MANY_FILTERS = (SVG_NS + "<filter id='f'>" + "<feGaussianBlur stdDeviation='50'/>" * 17 +
                "</filter><rect width='10' height='10' filter='url(#f)'/></svg>")
TOO_MANY_BYTES = SVG_NS + "<!--" + "x" * (1 << 20) + "--></svg>"


def svg_url(svg):
    import base64
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def post(lt, obj, timeout=120):
    st, _, body = lt.request("POST", "/api/agent/stream", json.dumps(obj),
                             {"Content-Type": "application/json"}, timeout=timeout)
    return st, body


def store_svg(lt, svg):
    """The SVG stored as an inpainting request's base image: its asset id."""
    st, body = post(lt, {"workflow": "image", "input": {"text": "把右半边换成星空", "maskData": {
        "base64": avpng.data_url(avpng.mask()), "imageUrl": svg_url(svg)}}})
    tid = next((d["threadId"] for d in data(events(body), "thread_start")), None)
    if st != 200 or not tid:
        raise avtest.SetupError("storing the SVG as a base image: %s %s" % (st, body[:300]))
    st, _, body = lt.request("GET", "/api/threads/" + tid, timeout=60)
    base = ((json.loads(body).get("state") or {}).get("userInput") or {}).get("baseAsset")
    if not base:
        raise avtest.SetupError("no baseAsset in the thread's state: %s" % body[:300])
    return base


def timed(fn, *a, **kw):
    t0 = time.monotonic()
    out = fn(*a, **kw)
    return out, time.monotonic() - t0


class Health:
    """/api/health asked again and again while something else runs: the
    slowest answer."""

    def __init__(self, lt):
        self.lt, self.worst, self.failed, self.n = lt, 0.0, 0, 0
        self.stop = threading.Event()
        self.th = threading.Thread(target=self.run, daemon=True)

    def run(self):
        time.sleep(0.2)
        while not self.stop.is_set():
            try:
                (st, _, _), took = timed(self.lt.get, "/api/health", timeout=10)
            except OSError:
                st, took = None, 10.0
            self.n += 1
            self.failed += st != 200
            self.worst = max(self.worst, took)
            time.sleep(0.1)

    def __enter__(self):
        self.th.start()
        return self

    def __exit__(self, *a):
        self.stop.set()
        self.th.join()


def children(pids):
    """Children of pids, zombies included."""
    out = []
    for d in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) in pids:
            out.append(int(d))
    return out


def test_filter_bomb(t, lt):
    svg = store_svg(lt, FILTER_BOMB)
    with Health(lt) as h:
        (st, _, body), took = timed(lt.get, "/api/assets/%s?format=png" % svg, timeout=120)
    p = avtest.problem(body) or {}
    t.is_((st, p.get("code")), (422, "render_failed"),
          "a filter chain of %d bytes: 422 render_failed (%s)" % (len(FILTER_BOMB), p.get("detail")))
    t.like(p.get("detail", ""), "CPU time|time limit", "  ... stopped by its CPU time or its time")
    t.ok(took < 4.0, "  ... in %.1f s (1 s of CPU, 2 s of time allowed)" % took)
    t.ok(h.n > 0 and h.failed == 0 and h.worst < 1.0,
         "  ... /api/health answered meanwhile (%d times, the slowest in %.2f s)" % (h.n, h.worst))
    (st, _, body), took = timed(lt.get, "/api/assets/%s?format=png" % svg, timeout=120)
    p2 = avtest.problem(body) or {}
    t.ok(st == 422 and p2.get("code") == "render_failed" and took < 0.5,
         "asked again: 422 at once, in %.2f s" % took)
    t.like(p2.get("detail", ""), "earlier attempt", "  ... from the failure remembered (%s)" % p2.get("detail"))
    st, _, body = lt.get("/api/assets/%s?format=png&width=300" % svg, timeout=120)
    t.ok(st == 422 and "earlier attempt" not in (avtest.problem(body) or {}).get("detail", ""),
         "width=300: another drawing (at 512), which fails too")
    (st, _, body), took = timed(lt.get, "/api/assets/%s?format=png&width=512" % svg, timeout=120)
    t.ok(st == 422 and took < 0.5 and "earlier attempt" in (avtest.problem(body) or {}).get("detail", ""),
         "width=512: the same drawing as width=300, remembered (%.2f s)" % took)
    return svg


def raw_get(lt, path):
    """A GET sent in two pieces: lighttpd watches a client for a reset
    only when it had to wait for its request (one read of a whole
    request leaves the connection unwatched until the answer is
    written)."""
    s = socket.create_connection(("127.0.0.1", lt.port), timeout=10)
    s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n" % path).encode())
    time.sleep(0.2)
    s.sendall(b"Connection: close\r\n\r\n")
    return s


def test_client_leaves(t, lt, svg):
    workers = lt.worker_pids()
    s = raw_get(lt, "/api/assets/%s?format=png&width=1024" % svg)
    kids = avtest.wait_for(lambda: children(workers), 5, 0.01)
    t.ok(kids, "a drawing for a client: a process under a worker draws it (%s)" % kids)
    started = time.monotonic()
    # The client goes away for good: its connection reset (a closed tab,
    # a dropped network). A FIN alone is a half-close to lighttpd, which
    # keeps the request until it writes the answer.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    gone = avtest.wait_for(lambda: not children(workers), 5, 0.01)
    took = time.monotonic() - started
    t.ok(gone and took < 0.6,
         "the client leaves: the drawing process is gone in %.2f s (its CPU limit is 1 s)" % took)
    (st, _, body), took = timed(lt.get, "/api/assets/%s?format=png&width=1024" % svg, timeout=120)
    p = avtest.problem(body) or {}
    t.ok(st == 422 and took > 0.5 and "earlier attempt" not in p.get("detail", ""),
         "  ... and that stop was not remembered: the next request draws (%.1f s, %s)"
         % (took, p.get("detail")))


def noise_png(w, h):
    """One pixel in five black, on white: Tesseract reads it for a long
    time as would-be letters."""
    import random
    rnd = random.Random(12345)
    rows = b"".join(b"\0" + bytes(0 if rnd.random() < 0.2 else 255 for _ in range(w))
                    for _ in range(h))
    return avpng.build(w, h, rows, ctype=avpng.GREY, level=9)


def with_tesseract():
    """Whether this worker was built with Tesseract (config.h)."""
    try:
        with open(os.path.join(avtest.TOP_BUILDDIR, "config.h")) as f:
            return "\n#define HAVE_TESSERACT 1" in f.read()
    except OSError:
        return False


def test_ocr(t, lt):
    if not with_tesseract():
        for name in ("ocr stopped", "ocr logged", "ocr in time", "ocr health"):
            t.skip("this worker was built without Tesseract: no OCR offline", name)
        return
    png = noise_png(1500, 1500)
    st, body = post(lt, {"workflow": "orchestrate", "input": {
        "task": "read the text of this picture", "template": "image-ocr-annotate", "lang": "en",
        "attachments": [{"name": "noise.png", "data": avpng.data_url(png)}]}})
    evs = events(body)
    tid = next((d["threadId"] for d in data(evs, "thread_start")), None)
    ask = last_ask(evs)
    if st != 200 or not tid or not ask:
        raise avtest.SetupError("the OCR run did not pause on its plan: %s %s" % (st, body[:300]))
    with Health(lt) as h:
        (st, _, body), took = timed(lt.request, "POST", "/api/agent/confirm", json.dumps({
            "threadId": tid, "interruptId": ask["interruptId"], "action": "approve"}),
            {"Content-Type": "application/json"}, timeout=120)
    evs = events(body)
    end = next((d for d in data(evs, "stage_end") if d.get("stageId") == "ocr"), {})
    t.ok(st == 200 and end.get("status") == "failed" and end.get("duration", 1e9) <= 4000,
         "a noise picture (%d KB) sent to OCR: the stage ends in %s ms (%s)"
         % (len(png) // 1024, end.get("duration"), end.get("summary")))
    with open(lt.worker_log, errors="replace") as f:
        t.like(f.read(), r"OCR of a 1500x1500 picture: reading the text stopped "
               r"(at its limit of 1 s of CPU time|after 2000 ms)",
               "  ... the reading was stopped at its CPU or time limit (the log says so)")
    t.ok(took < 15, "  ... the run ended in %.1f s" % took)
    t.ok(h.n > 0 and h.failed == 0 and h.worst < 1.0,
         "  ... /api/health answered meanwhile (%d times, the slowest in %.2f s)" % (h.n, h.worst))


def test_refused(t, lt):
    for name, svg, status, code, why in (
            ("a text bomb of %d KB" % (len(TEXT_BOMB) // 1024), TEXT_BOMB, 400, "bad_request",
             "more than 16384 bytes of text"),
            ("17 filter primitives", MANY_FILTERS, 400, "bad_request", "more than 16 filter primitives"),
            ("an SVG of 1 MiB and more", TOO_MANY_BYTES, 413, "image_too_large", "at most 1048576")):
        (st, body), took = timed(post, lt, {"workflow": "orchestrate", "input": {
            "task": "look at this picture", "attachments": [{"name": "p.svg", "data": svg_url(svg)}]}})
        p = avtest.problem(body) or {}
        t.is_((st, p.get("code")), (status, code), "an attachment, %s: refused, %d %s" % (name, status, code))
        t.like(p.get("detail", ""), why, "  ... the detail says why (%s)" % p.get("detail"))
    ok = SVG_NS + "<text x='0' y='50'>hello</text></svg>"
    st, body = post(lt, {"workflow": "orchestrate", "input": {
        "task": "look at this picture", "attachments": [{"name": "p.svg", "data": svg_url(ok)}]}})
    t.ok(st == 200 and data(events(body), "thread_start"), "a small SVG attachment is accepted")


def main(t):
    t.plan(24)
    d = t.tmpdir("budget")
    lt = avtest.Lighttpd(t, d, workers=2, settings={
        "media": {"cpu_ms": "1000", "time_ms": "2000"}}).start()
    svg = test_filter_bomb(t, lt)
    test_client_leaves(t, lt, svg)
    test_ocr(t, lt)
    test_refused(t, lt)
    left = children(lt.worker_pids())
    t.ok(not left, "no worker has a child left, zombies included (%s)" % left)


avtest.run(main)
