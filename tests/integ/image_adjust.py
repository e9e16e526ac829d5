"""The image workflow's adjustments sent as data (input.adjust), end to end
through a worker with the offline provider: the style strength, the size
and the light of the last picture, another style of the library, the last
picture again (a repaint with its mask), the data deciding over the words
sent with it, nothing to adjust before any picture, and every bad
adjustment refused with 400 and a detail that says what is wrong, on a new
thread and on a turn, leaving the thread as it was."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

GEN = ["planner", "rag", "executor", "critic", "genui"]
STOP = ["planner", "error_handler"]

# (first turn, the adjustment, words sent with it or None, what the second
# turn must give: action, taskType, params that must be set, words the
# prompt used must hold, words it must not hold, the user's message)
GOOD = [
    ("赛博朋克风格的猫", {"kind": "params", "styleStrength": 90}, None,
     "adjust_parameters", "parameter_adjustment", {"styleStrength": 90},
     ["style strength 90%"], [], "再调整一下：风格强度 90"),
    ("a lighthouse at dawn", {"kind": "params", "light": "brighter", "width": 1280, "height": 720},
     None, "adjust_parameters", "parameter_adjustment", {"width": 1280, "height": 720},
     ["brighter lighting"], [], "Adjust it: 1280×720, brighter"),
    ("a lighthouse at dawn", {"kind": "params", "light": "darker"}, None,
     "adjust_parameters", "parameter_adjustment", {}, ["darker low-key lighting"],
     ["brighter"], "Adjust it: darker"),
    ("赛博朋克风格的猫", {"kind": "restyle", "style": "watercolor"}, None,
     "adjust_parameters", "parameter_adjustment", {}, ["猫", "watercolor painting"],
     ["赛博朋克", "cyberpunk"], "换成「水彩」风格"),
    # The chosen style's own fragment, whatever the subject's words would find.
    ("a knight in a mechanical helmet", {"kind": "restyle", "style": "watercolor"}, None,
     "adjust_parameters", "parameter_adjustment", {}, ["knight", "watercolor painting"], [],
     "In the style Watercolor"),
    ("a lighthouse at dawn", {"kind": "restyle", "style": "oil_painting", "styleStrength": 40},
     None, "adjust_parameters", "parameter_adjustment", {"styleStrength": 40},
     ["lighthouse", "style strength 40%"], [], "In the style Oil painting, style strength 40"),
    # The data decides, whatever the words sent with it would say.
    ("赛博朋克风格的猫", {"kind": "params", "styleStrength": 30}, "重新生成",
     "adjust_parameters", "parameter_adjustment", {"styleStrength": 30},
     ["style strength 30%"], [], "再调整一下：风格强度 30；重新生成"),
    ("赛博朋克风格的猫", {"kind": "regenerate"}, None,
     "generate_image", "text_to_image", {}, ["猫"], [], "重新生成上一张图"),
]

# (the adjustment, or the whole input, and words the 400's detail says)
BAD = [
    ("restyle", "adjust must be an object"),
    ({}, "adjust.kind"),
    ({"kind": "sharpen"}, "adjust.kind"),
    ({"kind": 3}, "adjust.kind"),
    ({"kind": "restyle"}, "adjust.style"),
    ({"kind": "restyle", "style": "水彩"}, "adjust.style"),
    ({"kind": "restyle", "style": "no_such_style"}, "has no style"),
    ({"kind": "restyle", "style": "x" * 500}, "adjust.style"),
    ({"kind": "params"}, "names styleStrength"),
    ({"kind": "params", "styleStrength": 101}, "adjust.styleStrength"),
    ({"kind": "params", "styleStrength": -1}, "adjust.styleStrength"),
    ({"kind": "params", "styleStrength": "90"}, "adjust.styleStrength"),
    ({"kind": "params", "styleStrength": 50.5}, "adjust.styleStrength"),
    ({"kind": "params", "width": 1024}, "come together"),
    ({"kind": "params", "width": 10, "height": 10}, "adjust.width"),
    ({"kind": "params", "width": 1024, "height": 99999}, "adjust.height"),
    ({"kind": "params", "light": "neon"}, "adjust.light"),
    ({"kind": "params", "light": None}, "adjust.light"),
    ({"kind": "regenerate", "styleStrength": 50}, "takes only kind"),
    ({"kind": "params", "prompt": "a cat"}, "takes only"),
    ({"input": {"adjust": {"kind": "regenerate"},
                "maskData": {"base64": "x", "imageUrl": "api/assets/x"}}}, "do not come together"),
]


class Client:
    def __init__(self, w):
        self.w = w

    def turn(self, obj):
        r = self.w.request("POST", "/api/agent/stream", body=json.dumps(obj),
                           headers={"Content-Type": "application/json"}, timeout=120)
        if r.status != 200:
            return r.status, avtest.problem(r.body) or {}
        return r.status, data(events(r.body))

    def start(self, inp):
        st, evs = self.turn({"workflow": "image", "input": inp})
        return [e for e in evs if e["type"] == "thread_start"][0]["threadId"]

    def state(self, tid):
        return json.loads(self.w.request("GET", "/api/threads/" + tid).body)["state"]


def nodes(evs):
    return [e["node"] for e in evs if e["type"] == "agent_start"]


def test_good(t, cl, row):
    first, adjust, text, action, task, params, has, lacks, said = row
    name = "%s / %s" % (first, json.dumps(adjust, ensure_ascii=False))
    tid = cl.start({"text": first})
    before = cl.state(tid)
    inp = dict({"adjust": adjust}, **({"text": text} if text else {}))
    st, evs = cl.turn({"threadId": tid, "input": inp})
    state = cl.state(tid)
    intent = state["intent"]
    if not t.is_((st, nodes(evs), intent["action"], state["executionResult"]["taskType"]),
                 (200, GEN, action, task), "%s: the adjustment is made" % name):
        return
    used = state["executionResult"]["metadata"]["prompt"]
    t.ok(all(state["params"][k] == v for k, v in params.items()),
         "%s: the parameters it names (%s)" % (name, state["params"]))
    t.ok(all(w.lower() in used.lower() for w in has) and
         not any(w.lower() in used.lower() for w in lacks),
         "%s: the prompt used holds %s, not %s (%s)" % (name, has, lacks, used))
    t.is_(intent["subject"], before["intent"]["subject"], "%s: the last subject stays" % name)
    if adjust["kind"] == "restyle":
        t.ok(intent["style"] != before["intent"]["style"] and
             any(r["style"] == intent["style"] for r in state["enhancedPrompt"]["retrieved"]),
             "%s: the new style %r replaces %r and is retrieved" % (name, intent["style"],
                                                                  before["intent"]["style"]))
    elif adjust["kind"] == "params":
        t.ok(intent["style"] == before["intent"]["style"] and intent["confidence"] == 1.0 and
             intent["rawResponse"] == "", "%s: taken as sent, the last style kept" % name)
    else:
        t.is_(used, before["executionResult"]["metadata"]["prompt"],
              "%s: the last picture's prompt again" % name)
    users = [m["content"] for m in state["messages"] if m["role"] == "user"]
    t.is_(users[-1], said, "%s: the conversation says what was asked" % name)


def test_regen_repaint(t, cl):
    """A repaint regenerated as data: its mask and base image again."""
    tid = cl.start({"text": "雪山下的小木屋"})
    url = cl.state(tid)["executionResult"]["imageUrl"]
    cl.turn({"threadId": tid, "input": {"text": "把右半边换成星空", "maskData": {
        "base64": avpng.data_url(avpng.mask()), "imageUrl": url}}})
    before = cl.state(tid)
    st, evs = cl.turn({"threadId": tid, "input": {"adjust": {"kind": "regenerate"}}})
    state = cl.state(tid)
    t.ok(st == 200 and state["executionResult"]["taskType"] == "inpainting" and
         state["userInput"]["maskAsset"] == before["userInput"]["maskAsset"] and
         state["executionResult"]["metadata"]["prompt"] ==
         before["executionResult"]["metadata"]["prompt"],
         "regenerate after a repaint repaints again with the same mask and prompt")


def test_nothing_yet(t, cl):
    """Before any picture there is nothing to adjust or to regenerate."""
    for adjust, code in (({"kind": "params", "styleStrength": 50}, "nothing_to_adjust"),
                         ({"kind": "restyle", "style": "watercolor"}, "nothing_to_adjust"),
                         ({"kind": "regenerate"}, "nothing_to_regenerate")):
        st, evs = cl.turn({"workflow": "image", "input": {"adjust": adjust}})
        errs = [e for e in evs if e["type"] == "error"] if st == 200 else []
        t.ok(st == 200 and nodes(evs) == STOP and errs and errs[0]["code"] == code,
             "%s on a new thread: %s" % (adjust["kind"], code))


def test_bad(t, cl, tid, row):
    adjust, says = row
    inp = adjust["input"] if isinstance(adjust, dict) and "input" in adjust else {"adjust": adjust}
    name = json.dumps(inp, ensure_ascii=False)[:90]
    st, p = cl.turn({"workflow": "image", "input": inp})
    t.ok(st == 400 and p.get("code") == "bad_request" and says in p.get("detail", ""),
         "new thread, %s: 400, %s (%s)" % (name, says, p.get("detail")))
    before = cl.state(tid)
    st, p = cl.turn({"threadId": tid, "input": inp})
    t.ok(st == 400 and p.get("code") == "bad_request" and says in p.get("detail", ""),
         "turn, %s: 400, %s" % (name, says))
    t.is_(cl.state(tid), before, "turn, %s: the thread is as it was" % name)


def main(t):
    d = t.tmpdir("image_adjust")
    w = avtest.Worker(t, d).start()
    cl = Client(w)
    for row in GOOD:
        test_good(t, cl, row)
    test_regen_repaint(t, cl)
    test_nothing_yet(t, cl)
    tid = cl.start({"text": "赛博朋克风格的猫"})
    for row in BAD:
        test_bad(t, cl, tid, row)
    st, evs = cl.turn({"threadId": tid, "input": {"adjust": {"kind": "params", "styleStrength": 55}}})
    t.ok(st == 200 and cl.state(tid)["params"]["styleStrength"] == 55,
         "after the refusals the worker and the thread take a good adjustment")


avtest.run(main)
