"""A model's review is bounded by the note workflow's own checks (seed 001
§4's quality gate). Against a fake OpenAI-compatible model whose review
always scores 0.97: an off-topic draft still fails, for the reason the
checks found (off the topic), and goes back to the writer through the
quality loop; a writer that stays off the topic reaches the last pause
(kind quality) at maxIterations, never passes, and ends aborted when the
person stops there. A draft on the topic that the model scores
below the threshold fails as the model says, with no reason of the
checks added."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fake_models as fm  # noqa: E402
from avevents import data, last_ask as ask  # noqa: E402
from avnoterun import NoteClient, kind_is  # noqa: E402

TOPIC = "周末去杭州春游的攻略"
ON_TOPIC = {"title": "杭州春游｜周末 1 日路线",
            "body": "这个周末去杭州春游，我把一天的路线整理好了，照着走不累也不赶。\n\n"
                    "一、上午：太子湾看郁金香\n8 点前入园人最少，沿着溪边步道慢慢走，花田在南门附近。\n\n"
                    "二、中午：湖边吃饭\n步行 15 分钟到南山路，人均 80 元左右，推荐龙井虾仁和片儿川。\n\n"
                    "三、下午：苏堤骑行\n租一辆共享单车，从南往北骑完全程约 3 公里，4 点以后光线最柔和。\n\n"
                    "你最想去哪一站？评论区聊聊～",
            "tags": ["杭州", "春游", "周末去哪儿", "旅行攻略"]}
OFF_TOPIC = {"title": "一周减脂餐｜低卡又好吃",
             "body": "减脂期间吃什么？我把这一周的减脂餐整理好了。\n\n"
                     "一、早餐\n燕麦 40 克加一杯无糖豆浆，再来一个水煮蛋，饱腹到中午。\n\n"
                     "二、午餐\n鸡胸肉 150 克，西兰花和糙米饭各一份，少油少盐。\n\n"
                     "三、晚餐\n清蒸鱼配一大盘绿叶菜，七点前吃完。\n\n"
                     "你的减脂餐吃什么？评论区聊聊～",
             "tags": ["减脂餐", "健身", "低卡"]}
DIMS = ["infoDensity", "readability", "platformFit", "textImageAlignment", "styleConsistency"]
HIGH = {"approved": True, "scores": {d: 0.97 for d in DIMS}, "overall": 0.97,
        "failReasons": [], "suggestions": [], "feedback": "非常好，可以发布"}
LOW = {"approved": False, "scores": dict({d: 0.9 for d in DIMS}, readability=0.45), "overall": 0.81,
       "failReasons": ["句子太长，读起来累"], "suggestions": ["缩短长句"], "feedback": "需要修改"}


def test_off_topic_loops(t, cl, fake):
    fake.notes, fake.reviews = [OFF_TOPIC, ON_TOPIC], [HIGH]
    tid, seen = cl.run({"topic": TOPIC}, limit=10)
    qs = data(seen, "quality_score")
    if not t.ok(len(qs) == 2, "off topic, scored 0.97: two reviews (%d)" % len(qs)):
        return
    first = qs[0]
    t.ok(first["passed"] is False and first["approved"] is True,
         "the model approves the off-topic draft at 0.97, and it fails all the same")
    t.ok(first["failReasons"] and "偏离主题" in first["failReasons"][0],
         "the first reason is what the checks found (%s)" % (first["failReasons"] or [""])[0])
    t.ok("infoDensity" in first["lowered"] and first["scores"]["infoDensity"] <= 0.5 and
         first["overall"] < 0.97, "the checks lowered %s (infoDensity %.2f, overall %.2f)"
         % (first["lowered"], first["scores"]["infoDensity"], first["overall"]))
    dec = [d for d in data(seen, "supervisor_decision") if d["decision"] == "writer_agent" and
           "规则检查" in d["reason"]]
    t.ok(dec, "the quality loop sends it back to the writer, saying why (%s)"
         % (dec[0]["reason"] if dec else ""))
    t.ok(qs[1]["passed"] is True and qs[1]["lowered"] == [] and qs[1]["failReasons"] == [],
         "the rewritten draft on the topic passes, nothing lowered")
    done = data(seen, "workflow_complete")
    t.ok(done and done[0]["title"] == ON_TOPIC["title"] and
         not any(OFF_TOPIC["title"] in d.get("title", "") for d in done),
         "the note completed is the one on the topic")


def test_off_topic_aborts(t, cl, fake):
    fake.notes, fake.reviews = [OFF_TOPIC], [HIGH]
    tid, seen = cl.run({"topic": TOPIC, "maxIterations": 1}, kind_is("quality"), 10)
    qs = data(seen, "quality_score")
    t.ok(qs and not any(q["passed"] for q in qs),
         "a writer that stays off the topic never passes (%s)" % [q["overall"] for q in qs])
    q = ask(seen)
    t.ok(q and q["context"]["kind"] == "quality" and not data(seen, "workflow_complete") and
         any("偏离主题" in r for r in q["context"]["reasons"]),
         "maxIterations reached: the person decides at the last pause, the checks' reason given")
    cl.post("/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"] if q else "",
                                   "action": "reject"})
    th = cl.thread(tid)
    t.ok(th["status"] == "aborted" and th["state"]["creative"]["status"] == "aborted",
         "stopped there: aborted, not complete (%s)" % th["status"])


ON_TOPIC_2 = dict(ON_TOPIC, body=ON_TOPIC["body"].replace("这个周末去杭州春游，我把一天的路线整理好了，照着走不累也不赶。",
                                                           "周末去杭州春游，一天三站，照着走不累。"))


def test_low_model_score(t, cl, fake):
    fake.notes, fake.reviews = [ON_TOPIC, ON_TOPIC_2], [LOW, HIGH]
    tid, seen = cl.run({"topic": TOPIC}, limit=10)
    qs = data(seen, "quality_score")
    if not t.ok(len(qs) == 2, "on topic, scored low by the model: two reviews (%d)" % len(qs)):
        return
    t.ok(qs[0]["passed"] is False and qs[0]["scores"]["readability"] == 0.45 and
         qs[0]["lowered"] == [] and qs[0]["failReasons"] == LOW["failReasons"],
         "the model's low readability fails it, with the model's reason only (%s)"
         % qs[0]["failReasons"])
    t.ok(qs[1]["passed"] is True and data(seen, "workflow_complete"),
         "and the next review passes the rewritten draft")


def test_same_draft_again(t, cl, fake):
    """The review sends a draft back and the model writes the very same
    one: it is not offered again; the person decides at the last pause."""
    fake.notes, fake.reviews = [ON_TOPIC], [LOW, HIGH]
    tid, seen = cl.run({"topic": TOPIC}, kind_is("quality"), 10)
    qs = data(seen, "quality_score")
    q = ask(seen)
    t.ok(len(qs) == 1 and q and q["context"]["kind"] == "quality" and
         q["context"]["limit"] == "no_new_draft" and q["context"]["reasons"] == LOW["failReasons"],
         "the same draft again: one review, then the quality pause, limit no_new_draft, the model's reason "
         "(%d reviews, %s)" % (len(qs), q and q["context"].get("limit")))
    drafts = [d["title"] + d["body"] for d in data(seen, "content_update")]
    t.is_(len(drafts), len(set(drafts)) + (1 if q else 0),
          "no content pause offered the refused draft (the quality pause shows it once more)")
    evs = cl.post("/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"] if q else "",
                                         "action": "approve"})
    done = data(evs, "workflow_complete")
    t.ok(done and done[0].get("quality", {}).get("publishedBy") == "person",
         "publish: workflow_complete by the person (%s)" % (done and done[0].get("quality")))


def main(t):
    d = t.tmpdir("review_bounds")
    fake = fm.NoteFake("sk-test-review-0123456789").start()
    t.cleanup(fake.stop)
    w = avtest.Worker(t, d, settings={"provider.chat": fake.provider(), "provider.image": fake.provider(),
                                      "cache": {"model_ttl": "0"}}).start()
    cl = NoteClient(w)
    test_off_topic_loops(t, cl, fake)
    test_off_topic_aborts(t, cl, fake)
    test_low_model_score(t, cl, fake)
    test_same_draft_again(t, cl, fake)


avtest.run(main)
