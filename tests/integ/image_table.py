"""The image workflow (seed 000) over a table of descriptions, run offline
through the worker: plain descriptions, requests with verbs, English,
adjustments of the last picture (in its style or in a new one), "regenerate"
typed as text (after a picture, and before any), changes to "here" without
a mask, and text with nothing to picture. Each row is checked for the route it takes
(the nodes run and the intent's action), the subject kept from the
description into the intent and the prompt the picture was made from,
and a critic's verdict that agrees with that prompt: the subject and the
asked style found in it, every retrieved style's fragment counted as used,
passed exactly when the score reaches 0.6."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

GEN = ["planner", "rag", "executor", "critic", "genui"]
STOP = ["planner", "error_handler"]

# (first turn, None or a second turn on the same thread, what the last turn
# must give: action, subject words, style or None, error code or None)
ROWS = [
    # Plain descriptions: a picture request in an image studio.
    ("一只在海边奔跑的金毛犬", None, "generate_image", ["海边", "金毛犬"], None, None),
    ("雪山下的小木屋", None, "generate_image", ["雪山下的小木屋"], None, None),
    ("黄昏时分的江南水乡", None, "generate_image", ["江南水乡"], None, None),
    ("赛博朋克风格的猫", None, "generate_image", ["猫"], "赛博朋克", None),
    ("宫崎骏风格的海边小镇", None, "generate_image", ["海边小镇"], "吉卜力", None),
    ("暖色调的客厅", None, "generate_image", ["客厅"], None, None),
    ("桌上的一只放大镜和旧地图", None, "generate_image", ["放大镜", "旧地图"], None, None),
    ("水彩风格的向日葵花田", None, "generate_image", ["向日葵花田"], "水彩", None),
    # With verbs.
    ("来张图：雪山下的小木屋", None, "generate_image", ["雪山下的小木屋"], None, None),
    ("来一张图，海边的灯塔", None, "generate_image", ["海边的灯塔"], None, None),
    ("帮我画一只戴帽子的柴犬", None, "generate_image", ["戴帽子的柴犬"], None, None),
    ("生成一张星空下的露营帐篷图片", None, "generate_image", ["露营帐篷"], None, None),
    ("画一幅水墨风格的山水", None, "generate_image", ["山水"], "水墨", None),
    ("请给我画一只像素风的小恐龙", None, "generate_image", ["小恐龙"], "像素", None),
    # English.
    ("a lighthouse at dawn", None, "generate_image", ["lighthouse at dawn"], None, None),
    ("a red fox in the snow, watercolor", None, "generate_image", ["red fox"], "watercolor", None),
    ("draw a castle on a cliff", None, "generate_image", ["castle on a cliff"], None, None),
    ("show me a cozy cabin in the woods", None, "generate_image", ["cozy cabin"], None, None),
    ("an astronaut riding a horse, oil painting", None, "generate_image", ["astronaut"],
     "oil painting", None),
    # Adjustments of the last picture: its subject and style stay.
    ("赛博朋克风格的猫", "再调整一下，风格强度 90", "adjust_parameters", ["猫"], "赛博朋克", None),
    ("a lighthouse at dawn", "make it brighter", "adjust_parameters", ["lighthouse at dawn"], None,
     None),
    ("画一幅水墨风格的山水", "风格强度 40", "adjust_parameters", ["山水"], "水墨", None),
    ("宫崎骏风格的海边小镇", "再调整一下，尺寸 1024x768", "adjust_parameters", ["海边小镇"], "吉卜力",
     None),
    # A change to "here" without a mask: paint a mask first (seed 000 §7.3).
    ("修改这里", None, "inpainting", [], None, "mask_required"),
    ("把这里换成一朵向日葵", None, "inpainting", [], None, "mask_required"),
    ("一只在海边奔跑的金毛犬", "这块改成蓝色", "inpainting", [], None, "mask_required"),
    ("replace this part with a tree", None, "inpainting", [], None, "mask_required"),
    # Nothing to picture, or nothing to adjust yet.
    ("😀😀😀", None, "unknown", [], None, "unknown_intent"),
    ("谢谢", None, "unknown", [], None, "unknown_intent"),
    ("帮我写一首诗", None, "unknown", [], None, "unknown_intent"),
    ("再调整一下", None, "adjust_parameters", [], None, "nothing_to_adjust"),
    ("换成水彩风格", None, "adjust_parameters", [], None, "nothing_to_adjust"),
    # "Regenerate" typed before any picture: nothing to regenerate yet.
    ("重新生成", None, "unknown", [], None, "nothing_to_regenerate"),
    ("再来一张", None, "unknown", [], None, "nothing_to_regenerate"),
    ("regenerate", None, "unknown", [], None, "nothing_to_regenerate"),
]

# A new style named for the last picture: (first turn, second turn, subject
# words, the new style, words of the old style that must be gone, the style
# strength asked for or None).
RESTYLES = [
    ("赛博朋克风格的猫", "换成水彩风格", ["猫"], "水彩", ["赛博朋克", "cyberpunk"], None),
    ("a lighthouse at dawn", "make it pixel art", ["lighthouse at dawn"], "pixel art", [], None),
    ("画一幅水墨风格的山水", "改成油画风，风格强度 90", ["山水"], "油画", ["水墨", "ink wash"], 90),
    ("宫崎骏风格的海边小镇", "水彩风格", ["海边小镇"], "水彩", ["宫崎骏", "吉卜力", "ghibli"], None),
    ("a red fox in the snow, watercolor", "turn it into an oil painting, style strength 40",
     ["red fox"], "oil painting", ["watercolor"], 40),
]

# "Regenerate" typed as text after pictures: each turn after the first is
# sent on the same thread; the last one regenerates the picture before it.
REGENERATES = [
    ["赛博朋克风格的猫", "重新生成"],
    ["a lighthouse at dawn", "regenerate"],
    ["画一幅水墨风格的山水", "再来一张"],
    ["宫崎骏风格的海边小镇", "换一张吧"],
    ["a red fox in the snow, watercolor", "try again"],
    ["赛博朋克风格的猫", "再调整一下，风格强度 90", "重新生成"],
]


class Client:
    def __init__(self, w):
        self.w = w

    def turn(self, obj):
        r = self.w.request("POST", "/api/agent/stream", body=json.dumps(obj),
                           headers={"Content-Type": "application/json"}, timeout=120)
        return r.status, data(events(r.body))

    def state(self, tid):
        return json.loads(self.w.request("GET", "/api/threads/" + tid).body)["state"]


def run_row(cl, first, second):
    st, evs = cl.turn({"workflow": "image", "input": {"text": first}})
    starts = [e for e in evs if e["type"] == "thread_start"]
    if st != 200 or not starts:
        return st, evs, None, None
    tid = starts[0]["threadId"]
    before = cl.state(tid)
    if second is not None:
        st, evs = cl.turn({"threadId": tid, "input": {"text": second}})
    return st, evs, cl.state(tid), before


def check_critic(t, name, state, style):
    """The verdict agrees with the prompt the picture was made from."""
    used = state["executionResult"]["metadata"]["prompt"]
    qc = state["qualityCheck"]
    fb = qc["feedback"]
    retrieved = state["enhancedPrompt"]["retrieved"]
    t.ok(qc["passed"] == (qc["score"] >= 0.6) and qc["passed"],
         "%s: the critic passes it (%.2f: %s)" % (name, qc["score"], fb))
    t.ok("主体已写入提示词" in fb or "the subject is in the prompt" in fb,
         "%s: the critic finds the subject in the prompt used" % name)
    if style:
        t.ok("风格已体现" in fb or "the style is in the prompt" in fb,
             "%s: the critic finds the style %s in the prompt used" % (name, style))
    if retrieved:
        n = len(retrieved)
        t.ok(all(r["prompt"] in used for r in retrieved) and
             ("检索到的 %d 个风格用上了 %d 个" % (n, n) in fb or
              "%d of the %d retrieved styles are used" % (n, n) in fb),
             "%s: every retrieved style is in the prompt used, and the critic says so" % name)
    else:
        t.ok("没有检索到风格参考" in fb or "no style references were retrieved" in fb,
             "%s: no style retrieved, and the critic says so" % name)


def test_row(t, cl, row):
    first, second, action, words, style, code = row
    name = first if second is None else "%s / %s" % (first, second)
    st, evs, state, before = run_row(cl, first, second)
    if not t.is_(st, 200, "%s: 200" % name) or state is None:
        return
    nodes = [e["node"] for e in evs if e["type"] == "agent_start"]
    intent = state["intent"]
    if not t.is_((nodes, intent["action"]), (STOP if code else GEN, action), "%s: route" % name):
        return
    if code:
        errs = [e for e in evs if e["type"] == "error"]
        msgs = [e["component"]["props"] for e in evs if e["type"] == "gen_ui_component"]
        t.ok(errs and errs[0]["code"] == code and errs[0]["node"] == "planner" and msgs and
             msgs[-1]["state"] == "failed", "%s: error %s from the planner, a failed message (%s)"
             % (name, code, msgs[-1]["text"] if msgs else ""))
        if code == "mask_required":
            t.ok(("蒙版" in errs[0]["message"] or "mask" in errs[0]["message"]) and
                 ("蒙版" in msgs[-1]["text"] or "mask" in msgs[-1]["text"]),
                 "%s: the answer asks for a mask first" % name)
        return
    used = state["executionResult"]["metadata"]["prompt"]
    t.ok(all(w in intent["subject"] and w in used for w in words),
         "%s: subject %r kept in the intent (%r) and the prompt used" % (name, words, intent["subject"]))
    if style:
        t.ok(style in intent["style"], "%s: style %s in the intent (%r)" % (name, style, intent["style"]))
    if second is not None:
        last = before["executionResult"]["metadata"]["prompt"]
        t.ok(intent["subject"] == before["intent"]["subject"] and
             intent["style"] == before["intent"]["style"],
             "%s: the adjustment keeps the last subject and style" % name)
        t.ok(used.startswith(state["enhancedPrompt"]["final"]) and
             state["enhancedPrompt"]["final"] == before["enhancedPrompt"]["final"] and
             used != last and "style strength %d%%" % state["params"]["styleStrength"] in used,
             "%s: the picture is redrawn from the last prompt with the new parameters (%s)"
             % (name, used[len(state["enhancedPrompt"]["final"]):]))
    check_critic(t, name, state, style)


def thread_turns(cl, turns):
    """Runs the turns on one thread: the last turn's status, events and
    state, and the state before it."""
    st, evs = cl.turn({"workflow": "image", "input": {"text": turns[0]}})
    tid = [e for e in evs if e["type"] == "thread_start"][0]["threadId"]
    before = state = cl.state(tid)
    for text in turns[1:]:
        before = state
        st, evs = cl.turn({"threadId": tid, "input": {"text": text}})
        state = cl.state(tid)
    return st, evs, state, before


def test_restyle(t, cl, row):
    first, second, words, style, old, strength = row
    name = "%s / %s" % (first, second)
    st, evs, state, before = thread_turns(cl, [first, second])
    nodes = [e["node"] for e in evs if e["type"] == "agent_start"]
    intent = state["intent"]
    if not t.is_((st, nodes, intent["action"]), (200, GEN, "adjust_parameters"),
                 "%s: an adjustment of the last picture" % name):
        return
    used = state["executionResult"]["metadata"]["prompt"]
    retrieved = state["enhancedPrompt"]["retrieved"]
    t.ok(intent["subject"] == before["intent"]["subject"] and all(w in used for w in words),
         "%s: the last subject %r stays, in the prompt used" % (name, intent["subject"]))
    t.ok(style in intent["style"] and intent["style"] != before["intent"]["style"],
         "%s: the new style %s replaces %r in the intent (%r)"
         % (name, style, before["intent"]["style"], intent["style"]))
    t.ok(retrieved and all(r["prompt"] in used for r in retrieved) and
         state["enhancedPrompt"]["final"] != before["enhancedPrompt"]["final"],
         "%s: the new style's fragments are retrieved and used (%s)"
         % (name, ", ".join(r["style"] for r in retrieved)))
    t.ok(not any(w.lower() in used.lower() for w in old),
         "%s: nothing of the old style is left in the prompt used (%s)" % (name, used[:80]))
    t.is_(state["executionResult"]["taskType"], "parameter_adjustment", "%s: taskType" % name)
    if strength is not None:
        t.ok(state["params"]["styleStrength"] == strength and
             "style strength %d%%" % strength in used,
             "%s: the style strength %d is applied too" % (name, strength))
    check_critic(t, name, state, style)


def test_regenerate(t, cl, turns):
    name = " / ".join(turns)
    st, evs, state, before = thread_turns(cl, turns)
    nodes = [e["node"] for e in evs if e["type"] == "agent_start"]
    intent, last = state["intent"], before["intent"]
    if not t.is_((st, nodes, intent["action"]), (200, GEN, "generate_image"),
                 "%s: a new picture is made" % name):
        return
    used = state["executionResult"]["metadata"]["prompt"]
    t.ok(intent["subject"] == last["subject"] and intent["style"] == last["style"],
         "%s: the last subject %r and style %r are kept" % (name, last["subject"], last["style"]))
    t.is_(used, before["executionResult"]["metadata"]["prompt"],
          "%s: the prompt is the one the last picture was made from" % name)
    t.ok(turns[-1] not in used, "%s: the words of the request are not drawn" % name)
    check_critic(t, name, state, last["style"] or None)


def test_regen_inpainting(t, cl):
    """A repaint regenerated: its mask and base image are used again."""
    st, evs = cl.turn({"workflow": "image", "input": {"text": "雪山下的小木屋"}})
    tid = [e for e in evs if e["type"] == "thread_start"][0]["threadId"]
    url = cl.state(tid)["executionResult"]["imageUrl"]
    cl.turn({"threadId": tid, "input": {"text": "把右半边换成星空", "maskData": {
        "base64": avpng.data_url(avpng.mask()), "imageUrl": url}}})
    before = cl.state(tid)
    st, evs = cl.turn({"threadId": tid, "input": {"text": "重新生成"}})
    state = cl.state(tid)
    t.ok(state["intent"]["action"] == "inpainting" and
         state["executionResult"]["taskType"] == "inpainting" and
         state["userInput"]["maskAsset"] == before["userInput"]["maskAsset"] and
         state["executionResult"]["metadata"]["prompt"] ==
         before["executionResult"]["metadata"]["prompt"],
         "重新生成 after a repaint repaints again with the same mask and prompt")


def test_regen_language(t, cl):
    """Nothing to regenerate yet, said in the language of the request."""
    for text, zh in (("重新生成", True), ("regenerate", False)):
        _, evs = cl.turn({"workflow": "image", "input": {"text": text}})
        msgs = [e["component"]["props"]["text"] for e in evs if e["type"] == "gen_ui_component"]
        said = msgs[-1] if msgs else ""
        han = any("\u4e00" <= ch <= "\u9fff" for ch in said)
        t.ok(said and han == zh and ("描述" in said if zh else "describe" in said),
             "%s before any picture: %s" % (text, said))


def test_params(t, cl):
    """The adjustments' parameters reach the state and the prompt."""
    _, _, state, _ = run_row(cl, "赛博朋克风格的猫", "再调整一下，风格强度 90")
    t.is_(state["params"]["styleStrength"], 90, "风格强度 90: the style strength is 90")
    _, _, state, _ = run_row(cl, "宫崎骏风格的海边小镇", "再调整一下，尺寸 1024x768")
    t.is_((state["params"]["width"], state["params"]["height"]), (1024, 768),
          "尺寸 1024x768: the size asked for")
    _, _, state, _ = run_row(cl, "a lighthouse at dawn", "make it brighter")
    t.ok("brighter lighting" in ((state.get("executionResult") or {}).get("metadata") or {})
         .get("prompt", ""), "make it brighter: the prompt asks for brighter light")


def main(t):
    d = t.tmpdir("image_table")
    w = avtest.Worker(t, d).start()
    cl = Client(w)
    t.ok(len(ROWS) >= 30, "the table has %d rows" % len(ROWS))
    for row in ROWS:
        test_row(t, cl, row)
    test_params(t, cl)
    for row in RESTYLES:
        test_restyle(t, cl, row)
    for turns in REGENERATES:
        test_regenerate(t, cl, turns)
    test_regen_inpainting(t, cl)
    test_regen_language(t, cl)


avtest.run(main)
