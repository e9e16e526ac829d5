"""Several pictures of one request in the image workflow (docs/api.md,
image: input.n, input.seed, input.variationOf, the size on any turn),
through a real lighttpd, offline.

n pictures: n assets, each a different composition, seeds base, base +
7919, …; the first is the result the critic reviews, SmartCanvas lists
them all as candidates. The same seed draws the same picture again, in
another thread. variationOf: more like one candidate, new pictures of the
same subjects. width and height on a later turn: that picture's size.
Refused with 400 and a reason, the thread left as it was: n out of 1..4 or
not a whole number, a seed out of range, variationOf of a picture this
thread did not make (another thread's included), variationOf with text."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, durable, events  # noqa: E402


class Thread:
    def __init__(self, lt):
        self.lt, self.tid = lt, None

    def turn(self, **inp):
        body = {"workflow": "image", "input": inp}
        if self.tid:
            body["threadId"] = self.tid
        st, _, raw = self.lt.request("POST", "/api/agent/stream", json.dumps(body),
                                     {"Content-Type": "application/json"}, timeout=120)
        evs = events(raw) if st == 200 else []
        if self.tid is None and data(evs, "thread_start"):
            self.tid = data(evs, "thread_start")[0]["threadId"]
        return st, evs, raw

    def log(self):
        return events(self.lt.request("GET", "/api/agent/stream?threadId=%s&lastEventId=0" % self.tid)[2])


def canvas(evs):
    cs = [e["component"] for e in data(evs, "gen_ui_component") if e["component"].get("widgetType") == "SmartCanvas"]
    return cs[-1]["props"] if cs else {}


def glyphs(lt, url):
    svg = lt.request("GET", "/" + url)[2].decode("utf-8", "replace")
    return sorted(re.findall(r'<g class="av-glyph" data-cp="([0-9A-F-]+)">', svg)), svg


def main(t):
    lt = avtest.Lighttpd(t, t.tmpdir("image_candidates"), workers=2).start()
    a = Thread(lt)
    st, evs, _ = a.turn(text="一只猫和一只狗在草地上", n=3, seed=42)
    t.is_(st, 200, "n=3: 200")
    props = canvas(evs)
    cands = props.get("candidates") or []
    t.is_([c.get("seed") for c in cands], [42, 42 + 7919, 42 + 2 * 7919], "n=3: three candidates, seeds from the one asked")
    t.is_(props.get("imageUrl"), cands[0]["imageUrl"] if cands else None, "n=3: the first is the picture shown large")
    t.is_(len({c["assetId"] for c in cands}), 3, "n=3: three different pictures")
    drawn = [glyphs(lt, c["imageUrl"]) for c in cands]
    t.ok(all("1F408" in "".join(g) or "1F431" in "".join(g) for g, _ in drawn) and
         len({svg for _, svg in drawn}) == 3, "n=3: each shows the cat, each composed anew")
    b = Thread(lt)
    st, evs, _ = b.turn(text="一只猫和一只狗在草地上", seed=42)
    t.ok(cands and glyphs(lt, canvas(evs).get("imageUrl", ""))[1] == drawn[0][1],
         "the same seed draws the same picture again, in another thread")

    st, evs, _ = a.turn(variationOf=cands[1]["assetId"], n=2)
    props2 = canvas(evs)
    c2 = props2.get("candidates") or []
    t.is_(st, 200, "variationOf: 200")
    t.ok(len(c2) == 2 and not {c["assetId"] for c in c2} & {c["assetId"] for c in cands},
         "variationOf with n=2: two new pictures")
    # The request's subjects: the cat and the dog (either glyph of each).
    pets = [{"1F408", "1F431"}, {"1F415", "1F436"}]
    t.ok(c2 and all(all(set(glyphs(lt, c["imageUrl"])[0]) & p for p in pets) for c in c2),
         "variationOf: the same subjects as the picture it names")

    st, evs, _ = a.turn(text="a fox in the snow", width=512, height=768)
    res = [e["changes"]["executionResult"] for e in data(evs, "state_update") if "executionResult" in (e.get("changes") or {})]
    meta = res[-1]["metadata"] if res else {}
    t.is_((meta.get("width"), meta.get("height")), (512, 768), "width and height on a later turn: that picture's size")
    t.ok("candidates" not in (canvas(evs) or {}), "one picture asked: no candidates listed")

    before = len(durable(a.log()))
    other = b.log()
    other_asset = [canvas([e]) for e in other if e.get("type") == "gen_ui_component"]
    other_id = next((p.get("imageUrl", "").split("/")[-1] for p in other_asset if p.get("imageUrl")), "x")
    bad = [
        ({"text": "x", "n": 0}, "n must be a whole number of pictures from 1 to 4"),
        ({"text": "x", "n": 5}, "n must be a whole number of pictures from 1 to 4"),
        ({"text": "x", "n": "2"}, "n must be a whole number of pictures from 1 to 4"),
        ({"text": "x", "n": 2.5}, "n must be a whole number of pictures from 1 to 4"),
        ({"text": "x", "seed": -1}, "seed must be a whole number from 0 to 2147483647"),
        ({"text": "x", "seed": 2 ** 31}, "seed must be a whole number from 0 to 2147483647"),
        ({"variationOf": "nope"}, "this thread made no picture nope"),
        ({"variationOf": 7}, "variationOf must be the id of a picture of this thread"),
        ({"variationOf": cands[0]["assetId"], "text": "more"}, "variationOf takes no text"),
    ]
    if other_id != cands[0]["assetId"]:
        bad.append(({"variationOf": other_id}, "this thread made no picture"))
    for inp, why in bad:
        st, _, raw = a.turn(**inp)
        p = avtest.problem(raw) or {}
        t.ok(st == 400 and why in (p.get("detail") or ""), "refused %s: 400, %s (%s %s)" % (json.dumps(inp), why, st, p.get("detail")))
    t.is_(len(durable(a.log())), before, "the refusals leave the thread's log as it was")
    st, evs, _ = Thread(lt).turn(variationOf=cands[0]["assetId"])
    t.is_(st, 400, "variationOf on a new thread: 400")


if __name__ == "__main__":
    avtest.run(main)
