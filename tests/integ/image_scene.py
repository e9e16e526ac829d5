"""The offline pictures through a worker: the image workflow's picture of
"a cat and a dog on the grass" shows a cat and a dog glyph (their
characters and CLDR names in titles); regenerating gives the same
subjects composed otherwise (another seed, recorded in the result), twice;
an adjustment "darker" keeps the last composition and its PNG
(?format=png) is darker than the last picture's; an English watercolour
request names its glyphs in English, with the style's filter and the
background its words chose; and a repaint of the right half puts the new
subject in that half."""

import json
import os
import re
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

GLYPH = re.compile(r'<g class="av-glyph" data-cp="([0-9A-F-]+)"><title>(\S+) ([^<]*)</title>'
                   r'<image x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"')


class Client:
    def __init__(self, w):
        self.w = w

    def turn(self, obj):
        r = self.w.request("POST", "/api/agent/stream", body=json.dumps(obj),
                           headers={"Content-Type": "application/json"}, timeout=120)
        return r.status, data(events(r.body)) if r.status == 200 else []

    def start(self, inp):
        st, evs = self.turn({"workflow": "image", "input": inp})
        return [e for e in evs if e["type"] == "thread_start"][0]["threadId"]

    def state(self, tid):
        return json.loads(self.w.request("GET", "/api/threads/" + tid).body)["state"]

    def asset(self, state, query=""):
        url = state["executionResult"]["imageUrl"]
        return self.w.request("GET", "/" + url + query, timeout=120).body


def subjects(svg):
    """(character, name, x, y, w, h) of each subject the picture places."""
    part = svg.decode().split('<g class="av-subjects">', 1)
    return [(m.group(2), m.group(3)) + tuple(int(m.group(k)) for k in range(4, 8))
            for m in GLYPH.finditer(part[1] if len(part) > 1 else "")]


def png_luma(png):
    """The mean luma of an 8-bit RGB or RGBA PNG (as cairo writes them)."""
    w, h, depth, ctype = struct.unpack(">IIBB", png[16:26])
    raw, at = b"", 8
    while at < len(png):
        n, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            raw += png[at + 8:at + 8 + n]
        at += 12 + n
    raw = zlib.decompress(raw)
    bpp = 4 if ctype == 6 else 3
    stride, prev, total = w * bpp, bytearray(w * bpp), 0
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        total += sum(30 * line[i] + 59 * line[i + 1] + 11 * line[i + 2] for i in range(0, stride, bpp))
        prev = line
    return total / (100 * w * h)


def test_regenerate_adjust(t, cl):
    tid = cl.start({"text": "一只猫和一只狗在草地上"})
    first = cl.state(tid)
    s0 = subjects(cl.asset(first))
    t.is_(sorted(s[:2] for s in s0), [("🐈", "猫"), ("🐕", "狗")],
          "the picture shows the cat and the dog, named in Chinese")
    seen = [s0]
    for n in (1, 2):
        st, evs = cl.turn({"threadId": tid, "input": {"adjust": {"kind": "regenerate"}}})
        state = cl.state(tid)
        sn = subjects(cl.asset(state))
        t.ok(st == 200 and sorted(s[:2] for s in sn) == sorted(s[:2] for s in s0) and
             all(sn != old for old in seen) and state["executionResult"]["metadata"]["seed"] == n,
             "regenerate %d: the same subjects composed otherwise (seed %s)" %
             (n, state["executionResult"]["metadata"].get("seed")))
        seen.append(sn)
    before = cl.state(tid)
    st, evs = cl.turn({"threadId": tid, "input": {"adjust": {"kind": "params", "light": "darker"}}})
    after = cl.state(tid)
    svg = cl.asset(after)
    t.ok(st == 200 and subjects(svg) == seen[-1] and b'data-light="darker"' in svg,
         "darker keeps the last composition and darkens it")
    l0 = png_luma(cl.asset(before, "?format=png&width=256"))
    l1 = png_luma(cl.asset(after, "?format=png&width=256"))
    t.ok(l1 < l0 * 0.85, "darker is darker: mean luma %.0f, was %.0f" % (l1, l0))


def test_english_style(t, cl):
    tid = cl.start({"text": "a fox and an owl in the snow, watercolour"})
    svg = cl.asset(cl.state(tid))
    t.is_(sorted(s[:2] for s in subjects(svg)), [("🦉", "owl"), ("🦊", "fox")],
          "an English request: its glyphs named in English")
    t.ok(b'filter="url(#av-style-watercolour)"' in svg and b'data-background="snow"' in svg,
         "the watercolour filter on a snow background")
    t.ok(b">Offline preview<" in svg, "an English request: the badge in English")
    tid = cl.start({"text": "雪山下的小木屋，水彩风格"})
    svg = cl.asset(cl.state(tid))
    t.ok(b">\xe7\xa6\xbb\xe7\xba\xbf\xe9\xa2\x84\xe8\xa7\x88<" in svg and b"Offline preview" not in svg,
         "a Chinese request with a style the prompt words in English: the badge says 离线预览")


def test_repaint(t, cl):
    tid = cl.start({"text": "雪山下的小木屋"})
    url = cl.state(tid)["executionResult"]["imageUrl"]
    st, evs = cl.turn({"threadId": tid, "input": {"text": "把右半边换成一只猫", "maskData": {
        "base64": avpng.data_url(avpng.mask()), "imageUrl": url}}})
    state = cl.state(tid)
    svg = cl.asset(state)
    width = int(re.search(rb'<svg [^>]*width="(\d+)"', svg).group(1))
    cats = [s for s in subjects(svg) if s[0] == "🐈"]
    t.ok(st == 200 and state["executionResult"]["taskType"] == "inpainting" and cats and
         all(s[2] >= width // 2 for s in cats),
         "a repaint of the right half puts the cat in it (%s)" % cats)


def main(t):
    w = avtest.Worker(t, t.tmpdir("image_scene")).start()
    cl = Client(w)
    test_regenerate_adjust(t, cl)
    test_english_style(t, cl)
    test_repaint(t, cl)


avtest.run(main)
