"""PNG chunk lengths through a real lighttpd with four workers.

The 44-byte PNG whose tEXt chunk declares 0x7fffffff bytes (libpng used to
allocate and zero 2 GB for it, then find the file short) sent as a chat
attachment, an inpainting mask, an inpainting base image, a note reference
and an orchestrate attachment for OCR: each refused 400 in well under a
second, its reason naming the lying chunk, no worker's peak memory (VmHWM)
grown by more than a few MiB, /api/health answering; then four at once,
/api/health answering within a second while they run, the same workers
serving. A file whose tEXt after IDAT and an iCCP libpng complains about
are fine is taken by the chat. The workers are first warmed with the same
requests carrying a PNG whose IHDR has a bad CRC (refused cheaply before
and after), so the peak measured is the lying chunk's alone.
"""

import json
import os
import struct
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402

WORKERS = 4
GROWTH_KB = 8 * 1024      # "a few MiB"
FAST_S = 0.05             # "refused in under 50 ms" (the best of two tries: the machine is shared)

# Signature, IHDR 1x1 RGB, then a tEXt header declaring 2^31-1 bytes and 3 of them.
LIE = avpng.SIGNATURE + avpng.ihdr(1, 1) + struct.pack(">I", 0x7FFFFFFF) + b"tEXt" + b"ab\0"
assert len(LIE) == 44


def bad_ihdr_crc():
    good = avpng.solid(1, 1, (1, 2, 3))
    return good[:29] + bytes([good[29] ^ 1]) + good[30:]


def odd_but_fine():
    """1x1 with an iCCP profile libpng finds too short, and tEXt and tIME
    after IDAT."""
    iccp = avpng.chunk(b"iCCP", b"p\0\0" + zlib.compress(b"\0\0\0\xc8junkjunkjunk"))
    idat = avpng.chunk(b"IDAT", zlib.compress(b"\0\x10\x20\x30"))
    return (avpng.SIGNATURE + avpng.ihdr(1, 1) + iccp + idat +
            avpng.chunk(b"tEXt", b"Comment\0after the pixels") +
            avpng.chunk(b"tIME", b"\x07\xe8\x01\x02\x03\x04\x05") + avpng.chunk(b"IEND", b""))


def shapes(png):
    """Every way a request brings a PNG, with png in it: (name, body)."""
    url, good = avpng.data_url(png), avpng.data_url(avpng.solid(8, 8, (9, 9, 9)))
    return [
        ("a chat attachment", {"workflow": "chat", "input": {
            "text": "这张图里有什么？", "attachments": [{"name": "p.png", "data": url}]}}),
        ("an inpainting mask", {"workflow": "image", "input": {
            "text": "", "maskData": {"base64": url, "imageUrl": good}}}),
        ("an inpainting base image", {"workflow": "image", "input": {
            "text": "", "maskData": {"base64": avpng.data_url(avpng.mask()), "imageUrl": url}}}),
        ("a note reference", {"workflow": "note", "input": {
            "topic": "秋天的咖啡店", "referenceImageUrl": url}}),
        ("an orchestrate attachment for OCR", {"workflow": "orchestrate", "input": {
            "task": "识别 scan.png 里的文字", "attachments": [{"name": "scan.png", "data": url}]}}),
    ]


def post(lt, body):
    """(status, problem or {}, seconds)."""
    t0 = time.monotonic()
    st, _, out = lt.request("POST", "/api/agent/stream", json.dumps(body),
                            {"Content-Type": "application/json"}, timeout=120)
    return st, avtest.problem(out) or {}, time.monotonic() - t0


def peaks(lt):
    return {pid: avtest.proc_hwm_kb(pid) for pid in lt.worker_pids()}


def growth(before, after):
    """The largest growth of one worker's peak, in KiB."""
    return max([after.get(p, 0) - v for p, v in before.items()] or [0])


def health(lt):
    t0 = time.monotonic()
    try:
        st, _, _ = lt.get("/api/health", timeout=10)
    except OSError:
        st = None
    return st, time.monotonic() - t0


def test_warm(t, lt):
    bad = bad_ihdr_crc()
    codes = set()
    for _ in range(WORKERS):
        for _, body in shapes(bad):
            codes.add(post(lt, body)[0])
    t.is_(codes, {400}, "warming up: a PNG with a bad IHDR CRC, every way, %d times: 400" % WORKERS)


def test_one_by_one(t, lt):
    before = peaks(lt)
    for name, body in shapes(LIE):
        st, p, secs = post(lt, body)
        if secs >= FAST_S:
            secs = min(secs, post(lt, body)[2])
        t.is_(st, 400, "the 44-byte PNG as %s: 400" % name)
        t.ok(secs < FAST_S, "  ... in %.0f ms" % (secs * 1000))
        t.like(p.get("detail", ""), r"tEXt chunk declares 2147483647 bytes",
               "  ... the reason names the lying chunk")
    grown = growth(before, peaks(lt))
    t.ok(grown < GROWTH_KB, "no worker's VmHWM grew by %d MiB or more (at most %d KiB)"
         % (GROWTH_KB // 1024, grown))
    st, secs = health(lt)
    t.ok(st == 200 and secs < 1, "/api/health answers (%s in %.0f ms)" % (st, secs * 1000))


def test_four_at_once(t, lt):
    pids = sorted(lt.worker_pids())
    before = peaks(lt)
    bodies = [b for n, b in shapes(LIE) if n != "an inpainting base image"]
    got = [None] * len(bodies)

    def send(i):
        got[i] = post(lt, bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for th in threads:
        th.start()
    st, secs = health(lt)
    for th in threads:
        th.join(60)
    t.is_([g[0] if g else None for g in got], [400] * 4, "four at once (chat, mask, note, OCR): 400 each")
    t.ok(all(g and g[2] < 1 for g in got), "  ... each within a second (%s ms)"
         % ", ".join("%.0f" % (g[2] * 1000) if g else "?" for g in got))
    t.ok(st == 200 and secs < 1, "  ... /api/health answers meanwhile (%s in %.0f ms)" % (st, secs * 1000))
    grown = growth(before, peaks(lt))
    t.ok(grown < GROWTH_KB, "  ... no worker's VmHWM grew by %d MiB or more (at most %d KiB)"
         % (GROWTH_KB // 1024, grown))
    st, secs = health(lt)
    t.ok(st == 200 and secs < 1, "  ... /api/health answers after (%s in %.0f ms)" % (st, secs * 1000))
    t.is_(sorted(lt.worker_pids()), pids, "  ... the same %d workers serve (none died)" % len(pids))


def test_fine_ones(t, lt):
    st, p, _ = post(lt, shapes(odd_but_fine())[0][1])
    t.is_(st, 200, "a PNG with an iCCP libpng complains about and tEXt, tIME after IDAT: "
          "a chat attachment taken (%s)" % p.get("detail", "ok"))


def main(t):
    d = t.tmpdir("pngchunks")
    lt = avtest.Lighttpd(t, d, workers=WORKERS).start()
    test_warm(t, lt)
    test_one_by_one(t, lt)
    test_four_at_once(t, lt)
    test_fine_ones(t, lt)


avtest.run(main)
