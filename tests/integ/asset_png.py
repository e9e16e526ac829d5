"""PNG downloads through the worker: an offline picture (an SVG asset) asked
for with ?format=png comes back as a PNG of its own size or the width
asked for (rounded up to 256, 512, 1024, 1080, 2048 or 4096: width=300 is the
drawing of width=512), drawn once and kept as an asset of the thread (the second
request, and one to a restarted worker, sends the kept file: same ETag,
the store's asset count unchanged); download=1 names the file; HEAD and
If-None-Match work as for other assets; a PNG asset is sent as it is;
bad parameters, a picture that cannot be drawn and an asset that is no
picture get their problem codes."""

import base64
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402
from avevents import data, events  # noqa: E402

ADMIN = os.path.join(avtest.TOP_BUILDDIR, "aivista-admin")


def png_size(b):
    """(width, height) from a PNG's IHDR, or None when b is no PNG."""
    if len(b) < 24 or b[:8] != avpng.SIGNATURE or b[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", b[16:24])


def asset_count(conf):
    p = subprocess.run([ADMIN, "-c", conf, "stats", "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=avtest.clean_env(), timeout=120)
    try:
        return (json.loads(p.stdout).get("assets") or {}).get("count")
    except ValueError:
        return None


def start(w, inp):
    r = w.request("POST", "/api/agent/stream", body=json.dumps({"workflow": "image", "input": inp}),
                  headers={"Content-Type": "application/json"}, timeout=120)
    evs = events(r.body)
    starts = data(evs, "thread_start")
    tid = starts[0]["threadId"] if starts else None
    state = w.request("GET", "/api/threads/" + tid).json()["state"] if tid else {}
    return tid, state


def asset_id(url):
    return url.rsplit("/", 1)[-1] if url else None


def get(w, aid, query="", method="GET", headers=None):
    return w.request(method, "/api/assets/%s%s" % (aid, query), headers=headers, timeout=120)


def test_download(t, w):
    tid, st = start(w, {"text": "一只在海边奔跑的金毛犬"})
    url = (st.get("result") or {}).get("imageUrl") or (st.get("executionResult") or {}).get("imageUrl")
    svg = asset_id(url)
    r = get(w, svg)
    t.ok(r.status == 200 and r.header("Content-Type") == "image/svg+xml" and b"<svg" in r.body,
         "the offline picture is an SVG asset (%s)" % r.header("Content-Type"))
    n0 = asset_count(w.conf)

    r = get(w, svg, "?format=png")
    size = png_size(r.body)
    t.ok(r.status == 200 and r.header("Content-Type") == "image/png" and size == (1024, 1024),
         "?format=png: a PNG at the picture's own size (%s %s, %s)" % (r.status,
                                                                       r.header("Content-Type"), size))
    etag = r.header("ETag") or ""
    t.like(r.header("Cache-Control") or "", "immutable", "  ... cached as other assets are")
    t.ok(etag.strip('"') != svg and len(etag.strip('"')) == 43,
         "  ... its ETag is the PNG asset's own id, not the SVG's (%s)" % etag)
    t.is_(get(w, etag.strip('"')).body, r.body, "  ... and that asset holds the same bytes")
    t.is_(asset_count(w.conf), n0 + 1, "  ... kept as one new asset (%s before)" % n0)
    first = r.body

    r = get(w, svg, "?format=png")
    t.ok(r.status == 200 and r.header("ETag") == etag and r.body == first,
         "a second request: the same PNG, the same ETag")
    t.is_(asset_count(w.conf), n0 + 1, "  ... and no new asset")

    r = get(w, svg, "?format=png&width=512")
    t.is_(png_size(r.body), (512, 512), "width=512: 512 x 512")
    etag512 = r.header("ETag")
    t.ok(etag512 and etag512 != etag, "  ... another asset, another ETag")
    t.is_(asset_count(w.conf), n0 + 2, "  ... kept too")

    r = get(w, svg, "?format=png&width=300")
    t.ok(png_size(r.body) == (512, 512) and r.header("ETag") == etag512,
         "width=300: drawn at the next size, 512: the drawing of width=512 (%s, %s)"
         % (png_size(r.body), r.header("ETag")))
    t.is_(asset_count(w.conf), n0 + 2, "  ... no new asset: a few drawings a picture, not one a width")
    return svg, etag, etag512, n0 + 2


def test_headers(t, w, svg, etag):
    r = get(w, svg, "?format=png&download=1")
    disp = r.header("Content-Disposition") or ""
    want = 'attachment; filename="aivista-%s.png"' % etag.strip('"')[-8:]
    t.is_(disp, want, "download=1: an attachment named by the picture")
    t.is_(get(w, svg, "?format=png").header("Content-Disposition"), None,
          "without download=1: no Content-Disposition (the viewer shows it)")
    r = get(w, svg, "?format=png&download=1", method="HEAD")
    t.ok(r.status == 200 and r.body == b"" and r.header("ETag") == etag and
         r.header("Content-Type") == "image/png", "HEAD: the headers, no body")
    r = get(w, svg, "?format=png", headers={"If-None-Match": etag})
    t.ok(r.status == 304 and r.body == b"", "If-None-Match with the PNG's ETag: 304")
    r = get(w, svg, "?format=png&width=512", headers={"If-None-Match": etag})
    t.ok(r.status == 200 and r.body[:8] == avpng.SIGNATURE,
         "the ETag of another width: 200 with the PNG")
    r = get(w, etag.strip('"'), "?format=png")
    t.ok(r.status == 200 and r.header("ETag") == etag and png_size(r.body) == (1024, 1024),
         "a PNG asset with format=png: sent as it is")


def test_errors(t, w, svg):
    cases = [
        ("?format=jpg", 400, "bad_format"),
        ("?format=PNG", 400, "bad_format"),
        ("?format=", 400, "bad_format"),
        ("?format=png&width=abc", 400, "bad_param"),
        ("?format=png&width=", 400, "bad_param"),
        ("?format=png&width=63", 400, "bad_param"),
        ("?format=png&width=4097", 400, "bad_param"),
        ("?format=png&width=1000000000000", 400, "bad_param"),
        ("?format=png&width=-512", 400, "bad_param"),
        ("?format=png&width=512.5", 400, "bad_param"),
        ("?format=png&width=+512", 400, "bad_param"),
        ("?format=png&download=yes", 400, "bad_param"),
    ]
    for query, status, code in cases:
        r = get(w, svg, query)
        avtest.expect_problem(t, r.status, r.body, status, code, query)
    r = get(w, "A" * 43, "?format=png")
    avtest.expect_problem(t, r.status, r.body, 404, "not_found", "an unknown asset")


def test_other_assets(t, w):
    """An inpainting request stores its base image and mask as assets:
    a broken SVG base cannot be drawn, a JPEG has no PNG form, the PNG
    mask is sent as it is (and takes no width)."""
    mask = avpng.data_url(avpng.mask())
    broken = "data:image/svg+xml;base64," + base64.b64encode(
        b"<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'><rect").decode()
    jpeg = "data:image/jpeg;base64," + base64.b64encode(b"\xff\xd8\xff\xe0" + b"\0" * 60).decode()
    for name, base, status, code in (("an SVG that is not well formed", broken, 422, "render_failed"),
                                     ("a JPEG", jpeg, 415, "not_convertible")):
        tid, st = start(w, {"text": "把右半边换成星空", "maskData": {"base64": mask, "imageUrl": base}})
        user = st.get("userInput") or {}
        if not user.get("baseAsset"):
            t.ok(False, "%s: stored as the base image (state: %s)" % (name, json.dumps(st)[:300]))
            continue
        r = get(w, user["baseAsset"], "?format=png")
        avtest.expect_problem(t, r.status, r.body, status, code, name)
    r = get(w, user["maskAsset"], "?format=png")
    t.ok(r.status == 200 and png_size(r.body) == (8, 8), "the PNG mask: sent as it is, 8 x 8")
    r = get(w, user["maskAsset"], "?format=png&width=256")
    avtest.expect_problem(t, r.status, r.body, 400, "bad_param", "a PNG asset with a width")


def main(t):
    d = t.tmpdir("asset_png")
    w = avtest.Worker(t, d).start()
    svg, etag, etag512, count = test_download(t, w)
    test_headers(t, w, svg, etag)
    test_errors(t, w, svg)
    # Another worker on the same store, the first one gone: the kept
    # drawings are found, not drawn again.
    w.kill()
    w2 = avtest.Worker(t, d, name="worker2").start()
    r = get(w2, svg, "?format=png&width=512")
    t.ok(r.status == 200 and r.header("ETag") == etag512,
         "a restarted worker sends the kept PNG (same ETag)")
    t.is_(asset_count(w2.conf), count, "  ... without a new asset")
    test_other_assets(t, w2)


avtest.run(main)
