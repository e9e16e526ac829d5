"""A model's review read as a reader reads the note (seed 001 §4's quality
gate), against a fake OpenAI-compatible model. A hollow draft (a section
with no item, number or step) the model scores 0.97 still scores under the
pass bar overall, for the reason the workflow's checks found, naming the
section. In an English thread every reason and suggestion of the
quality_score event is English: the model's reasons in Chinese are left
out, and a failing review the model gave no English reason for says which
dimension fails."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fake_models as fm  # noqa: E402
from avevents import data  # noqa: E402
from avnoterun import NoteClient  # noqa: E402

DIMS = ["infoDensity", "readability", "platformFit", "textImageAlignment", "styleConsistency"]
HIGH_ZH = {"approved": True, "scores": {d: 0.97 for d in DIMS}, "overall": 0.97,
           "failReasons": ["整体不错"], "suggestions": ["可以多加一张图"], "feedback": "可以发布"}
LOW_ZH = {"approved": False, "scores": dict({d: 0.9 for d in DIMS}, readability=0.45), "overall": 0.81,
          "failReasons": ["句子太长，读起来累"], "suggestions": ["缩短长句"], "feedback": "需要修改"}

EN_HOLLOW = {"title": "Camping gear: 3 picks",
             "body": "All the gear for a weekend of camping, sorted so nothing stays at home.\n\n"
                     "1. Sleeping\nA three-season tent under 2 kg costs about $150.\n\n"
                     "2. Camping comfort\nFind the rhythm that works for you and keep it simple.\n\n"
                     "3. Cooking\nA small gas stove with two canisters lasts the weekend.\n\n"
                     "What would you add? Tell me in the comments.",
             "tags": ["camping", "gear", "outdoors"]}
EN_GOOD = dict(EN_HOLLOW, body=EN_HOLLOW["body"].replace(
    "2. Camping comfort\nFind the rhythm that works for you and keep it simple.",
    "2. Light\nA headlamp with 300 lumens and spare batteries."))
ZH_HOLLOW = {"title": "莫干山露营装备清单｜新手照着带",
             "body": "周末去莫干山露营，这份装备清单照着带不会漏。\n\n"
                     "一、睡得好\n帐篷选三季帐，两人用 2 千克以内，入门款 300 元左右。\n\n"
                     "二、露营心得\n露营找到适合自己的节奏最重要，放轻松就好。\n\n"
                     "三、吃得上\n卡式炉加 2 罐气罐够一晚。\n\n"
                     "你还会带什么？评论区聊聊～",
             "tags": ["露营", "莫干山", "装备清单"]}
HAN = re.compile(r"[\u4e00-\u9fff]")


def first_review(cl, topic):
    """Runs a note with maxIterations 0, every pause approved, up to the
    first quality_score: that event."""
    _, seen = cl.run({"topic": topic, "maxIterations": 0}, lambda q, seen: data(seen, "quality_score"), 6)
    qs = data(seen, "quality_score")
    return qs[0] if qs else {}


# (name, topic, the writer's note, the model's review, passed, the overall
#  at most, a reason that has this, the English thread's)
CASES = [
    ("a hollow English draft the model scores 0.97", "a weekend camping gear checklist", EN_HOLLOW,
     HIGH_ZH, False, 0.69, "2. Camping comfort", True),
    ("a good English draft the model reads as hard to read, in Chinese", "a weekend camping gear checklist",
     EN_GOOD, LOW_ZH, False, 1, "readability 0.45", True),
    ("a good English draft the model passes, in Chinese words", "a weekend camping gear checklist",
     EN_GOOD, HIGH_ZH, True, 1, None, True),
    ("a hollow Chinese draft the model scores 0.97", "周末去莫干山露营装备清单", ZH_HOLLOW, HIGH_ZH,
     False, 0.69, "二、露营心得", False),
]


def main(t):
    d = t.tmpdir("review_reader")
    fake = fm.NoteFake("sk-test-reader-0123456789").start()
    t.cleanup(fake.stop)
    w = avtest.Worker(t, d, settings={"provider.chat": fake.provider(), "cache": {"model_ttl": "0"}}).start()
    cl = NoteClient(w)
    for name, topic, note, review, passed, most, reason, en in CASES:
        fake.notes, fake.reviews = [note], [review]
        q = first_review(cl, topic)
        if not t.ok(q and q.get("source") == "model", "%s: a quality_score of the model's review" % name):
            continue
        t.is_(q["passed"], passed, "  ... passed %s (overall %.2f; %s)" % (passed, q["overall"], q["failReasons"]))
        if most < 1:
            t.ok(q["overall"] <= most and "infoDensity" in q["lowered"],
                 "  ... overall %.2f under the pass bar, infoDensity lowered" % q["overall"])
        if reason:
            t.ok(any(reason in r for r in q["failReasons"]), "  ... a reason names %s" % reason)
        if en:
            said = json.dumps(q, ensure_ascii=False)
            t.ok(not HAN.search(said), "  ... no Chinese in the English thread's quality_score (%s / %s)"
                 % (q["failReasons"], q.get("suggestions")))
    w.kill()


avtest.run(main)
