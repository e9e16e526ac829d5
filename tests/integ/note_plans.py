"""The note workflow's image plans pause and its clarification, offline,
on two worker processes sharing one store (the test picks the process of
every request).

The plans pause: a reject's feedback is done item by item on the plans —
把第三张放到第一张 (the third picture becomes the cover, bound to the same
paragraph), 去掉第二张, 风格换成水彩 (every prompt in watercolour), then
第一张改成一只橘猫在窗边 (the cover's prompt and description say so), 多加
一张 (a picture for a paragraph that had none), 色调暖一点, and 去掉第五张
declined by name (没有第5张图); then 只要两张 with 不好看 (declined: it names
no change) — the cat stays on the cover although the plans are drawn
again. Each item is a progress line and a row of the next pause's
ask_user.context.feedback [{kind, arg, done, said}]; approving runs to
workflow_complete with the pictures asked for. The same in English (swap
the first two, make the cover a sunset, in watercolour): English said,
English plans, the cover line cut between words.

The clarification: 帮我写一篇笔记 answered with an option's id (as the app
sends it) takes the option's label as the topic, answered in the person's
own words takes those; 写点东西给大家看看 and 发个帖子分享一下生活 are asked
their topic (随便 takes the first option, said so); write something for
me answered "travel" is about the English label; 量子计算入门 answered
with the students option has 学生党 in the brief and in the note's
opening. Each key is asked once per run: after rejects send the work back,
and when the thread goes on on another worker.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import approve_until, data, durable, events, last_ask as ask  # noqa: E402

HAN = re.compile(r"[\u4e00-\u9fff]")


class Direct:
    def __init__(self, w):
        self.w = w

    def post(self, path, obj):
        r = self.w.post_json(path, obj, timeout=120)
        return r.status, events(r.body)

    def get(self, path, headers=None):
        r = self.w.request("GET", path, headers=headers or {}, timeout=120)
        return r.status, r.body


def start(cl, topic):
    st, evs = cl.post("/api/agent/stream", {"workflow": "note", "input": {"topic": topic}})
    tid = data(evs, "thread_start")[0]["threadId"] if data(evs, "thread_start") else None
    return evs, tid


def confirm(cl, tid, q, action, feedback=None):
    body = {"threadId": tid, "interruptId": q["interruptId"], "action": action}
    if feedback is not None:
        body["payload"] = {"feedback": feedback}
    return cl.post("/api/agent/confirm", body)[1]


def state_of(cl, tid):
    st, body = cl.get("/api/threads/" + tid)
    return json.loads(body)["state"] if st == 200 else {}


def log_of(cl, tid):
    st, body = cl.get("/api/agent/stream?threadId=" + tid, {"Last-Event-ID": "0"})
    return durable(events(body))


def kind(q):
    return (q or {}).get("context", {}).get("kind")


def until(cl, tid, evs, want, limit=8):
    """Approves the pauses before the first of kind want; its events."""
    seen, evs = approve_until(evs, lambda q: confirm(cl, tid, q, "approve"), lambda q, seen: kind(q) == want, limit)
    return evs, seen


def finish(cl, tid, evs, limit=16):
    """Approves every pause until the thread ends; all events in order."""
    return approve_until(evs, lambda q: confirm(cl, tid, q, "approve"), limit=limit)[0]


def plans_of(q):
    return (q or {}).get("editable", {}).get("imagePlans") or []


def report_of(q):
    return (q or {}).get("context", {}).get("feedback") or []


def said_lines(evs):
    return [p["content"] for p in data(evs, "progress") if p.get("agent") == "image_planner_agent"]


def check_report(t, name, q, evs, want):
    """want: [(kind, done, piece of said)] in order."""
    rep = report_of(q)
    t.is_([(r.get("kind"), r.get("done")) for r in rep], [(k, d) for k, d, _ in want],
          "%s: context.feedback has each item, done or declined" % name)
    t.ok(all(set(r) >= {"kind", "arg", "done", "said"} for r in rep), "%s:   ... each {kind, arg, done, said}" % name)
    for (k, d, piece), r in zip(want, rep):
        t.ok(piece in r.get("said", ""), "%s:   ... %s says 「%s」 (%s)" % (name, k, piece, r.get("said")))
    lines = said_lines(evs)
    t.ok(rep and all(r["said"] in lines for r in rep), "%s:   ... each said as a progress line" % name)


def test_plans_zh(t, a, b):
    evs, tid = start(a, "周末去莫干山露营")
    evs, _ = until(a, tid, evs, "image_plans")
    q1 = ask(evs)
    p1 = plans_of(q1)
    t.is_((kind(q1), len(p1)), ("image_plans", 3), "the plans pause: three pictures")

    evs = confirm(b, tid, q1, "reject", "把第三张放到第一张，去掉第二张，风格换成水彩")
    q2 = ask(evs)
    p2 = plans_of(q2)
    t.is_([p["paragraphId"] for p in p2], [p1[2]["paragraphId"], p1[0]["paragraphId"]],
          "on another worker, 把第三张放到第一张，去掉第二张: the third first, the second gone, "
          "each still bound to its paragraph")
    t.is_([p["role"] for p in p2][:1] + [p["sequence"] for p in p2], ["cover", 1, 2],
          "  ... the first is the cover, numbered again")
    t.ok("封面" in p2[0]["prompt"] and "封面" in p2[0]["description"] and "封面" not in p2[1]["prompt"],
         "  ... its prompt and description say cover; the old cover's no longer do")
    t.ok(all("水彩" in p["prompt"] for p in p2) and not any("水彩" in p["prompt"] for p in p1),
         "  ... 风格换成水彩: every prompt is in watercolour")
    check_report(t, "first reject", q2, evs, [("reorder", True, "第3张"), ("drop", True, "已去掉第2张图"),
                                              ("style", True, "水彩")])
    binds = state_of(a, tid)["paragraphImageBindings"]
    t.is_([(x["paragraphId"], x["imageSeq"]) for x in binds], [(p["paragraphId"], p["sequence"]) for p in p2],
          "  ... paragraphImageBindings follow the plans")

    evs = confirm(a, tid, q2, "reject", "第一张改成一只橘猫在窗边，多加一张，色调暖一点，去掉第五张")
    q3 = ask(evs)
    p3 = plans_of(q3)
    t.ok(len(p3) == 3 and p3[0]["prompt"].startswith("一只橘猫在窗边") and "一只橘猫在窗边" in p3[0]["description"]
         and p3[0]["paragraphId"] == p2[0]["paragraphId"],
         "第一张改成一只橘猫在窗边: the cover's prompt and description draw the cat (%s)" % (p3[0]["prompt"] if p3 else None))
    t.ok(len(p3) == 3 and p3[2]["paragraphId"] not in [p["paragraphId"] for p in p2],
         "  ... 多加一张: a third picture, for a paragraph that had none")
    t.ok(all("暖色调" in p["prompt"] and "水彩" in p["prompt"] for p in p3),
         "  ... 色调暖一点 on every picture, the watercolour kept")
    check_report(t, "second reject", q3, evs, [("describe", True, "一只橘猫在窗边"), ("count", True, "已加 1 张"),
                                               ("style", True, "暖色调"),
                                               ("drop", False, "没有第5张图（共2张），无法删除")])

    evs = confirm(b, tid, q3, "reject", "只要两张，不好看")
    q4 = ask(evs)
    p4 = plans_of(q4)
    t.ok(len(p4) == 2 and "一只橘猫在窗边" in p4[0]["prompt"] and all("水彩" in p["prompt"] for p in p4),
         "只要两张 with 不好看 (drawn again): two pictures, the cat still on the cover, still watercolour")
    check_report(t, "third reject", q4, evs, [("count", True, "只保留前 2 张图"), ("other", False, "「不好看」")])

    seen = finish(a, tid, evs)
    done = data(seen, "workflow_complete")
    t.ok(done and len(done[0]["imageAssetIds"]) == 2, "approved: workflow_complete with the two pictures asked for")
    st = state_of(b, tid)
    t.ok("一只橘猫在窗边" in st["imagePlans"][0]["prompt"] and
         [i["prompt"] for i in st["generatedImages"]] == [p["prompt"] for p in st["imagePlans"]],
         "  ... drawn from the plans as approved")


def test_plans_en(t, a):
    evs, tid = start(a, "A weekend camping trip to Moganshan")
    q = ask(evs)
    if kind(q) == "clarification":
        evs = confirm(a, tid, q, "approve", "students")
    evs, _ = until(a, tid, evs, "image_plans")
    q1 = ask(evs)
    p1 = plans_of(q1)
    t.ok(p1 and not any(HAN.search(p["prompt"] + p["description"]) for p in p1),
         "English: the plans are in English (%s)" % (p1[0]["description"] if p1 else None))
    over = state_of(a, tid)["textOverlayPlan"]
    title = data(log_of(a, tid), "content_update")[-1]["title"]
    line = over[0]["titleText"].rstrip("…")
    t.ok(title.startswith(line) and (len(line) == len(title) or not title[len(line)].isalpha()),
         "  ... the cover line is the title cut between words (%r of %r)" % (over[0]["titleText"], title))
    evs = confirm(a, tid, q1, "reject", "swap the first two, make the cover a sunset over the tents, in watercolour")
    q2 = ask(evs)
    p2 = plans_of(q2)
    t.is_([p["paragraphId"] for p in p2], [p1[1]["paragraphId"], p1[0]["paragraphId"], p1[2]["paragraphId"]],
          "swap the first two: swapped")
    t.ok(p2 and p2[0]["prompt"].startswith("a sunset over the tents") and
         all("watercolour" in p["prompt"] for p in p2),
         "  ... the cover a sunset, every picture in watercolour (%s)" % (p2[0]["prompt"] if p2 else None))
    rep = report_of(q2)
    t.ok(len(rep) == 3 and all(r["done"] and not HAN.search(r["said"]) for r in rep),
         "  ... three items done, said in English (%s)" % [r.get("said") for r in rep])
    seen = finish(a, tid, evs)
    t.ok(data(seen, "workflow_complete"), "  ... and the run completes")


def asked_keys(cl, tid):
    return [c["toolInput"].get("key") for c in data(log_of(cl, tid), "tool_call") if c.get("tool") == "askUser"]


def run_topic(t, a, b, topic, answer, name):
    """A vague request answered; the run to the end. Its final events and
    the thread's state."""
    evs, tid = start(a, topic)
    q = ask(evs)
    t.ok(kind(q) == "clarification" and q.get("node") == "supervisor",
         "%s: 「%s」 is asked what the note is about" % (name, topic))
    evs = confirm(b, tid, q, "approve", answer)
    seen = finish(a, tid, evs)
    done = data(seen, "workflow_complete")
    t.ok(done, "%s:   ... the run ends with a note" % name)
    t.is_(asked_keys(b, tid).count("topic"), 1, "%s:   ... the topic asked once" % name)
    return (done[0] if done else {}), state_of(a, tid), seen


def test_clarify(t, a, b):
    note, st, _ = run_topic(t, a, b, "帮我写一篇笔记", "food", "an option's id")
    t.is_(st.get("topic"), "家常快手菜谱", "  ... the topic is the option's label, not its id")
    t.ok("家常快手菜谱" in note.get("body", "") + note.get("title", ""), "  ... and the note is about it")

    note, st, _ = run_topic(t, a, b, "帮我写一篇笔记", "周末去杭州西湖骑行", "free text")
    t.is_(st.get("topic"), "周末去杭州西湖骑行", "  ... the topic is the person's words")
    t.ok("西湖" in note.get("body", "") + note.get("title", ""), "  ... and the note is about them")

    note, st, _ = run_topic(t, a, b, "写点东西给大家看看", "travel\n杭州西湖一日游", "a pick and words")
    t.is_(st.get("topic"), "杭州西湖一日游", "  ... the words typed win over the option picked")

    note, st, seen = run_topic(t, a, b, "发个帖子分享一下生活", "随便", "随便")
    t.is_(st.get("topic"), "春日出游攻略", "  ... an answer naming nothing takes the first option")
    t.ok(any("春日出游攻略" in m["content"] and "没有说具体写什么" in m["content"] for m in data(seen, "message")),
         "  ... and says so")

    note, st, _ = run_topic(t, a, b, "write something for me", "travel", "English")
    t.is_(st.get("topic"), "A spring outing guide", "  ... the English label of the option")
    t.ok("spring outing" in note.get("body", "").lower(), "  ... and the note is about it")


def test_audience(t, a, b):
    evs, tid = start(a, "量子计算入门")
    q = ask(evs)
    t.ok(kind(q) == "clarification" and q.get("node") == "brief_compiler_agent",
         "量子计算入门: asked who it is for")
    evs = confirm(b, tid, q, "approve", "students")
    br = data(evs, "brief_ready")
    t.ok(br and br[0]["brief"]["audience"] == "学生党", "the students option: the brief's audience is 学生党")
    q = ask(evs)
    t.is_(kind(q), "content", "  ... then the draft")
    evs = confirm(a, tid, q, "reject", "更口语一点")
    q = ask(evs)
    t.is_(kind(q), "content", "  ... a reject sends the work back: the draft again, no question")
    evs = confirm(b, tid, q, "approve")
    q = ask(evs)
    evs = confirm(a, tid, q, "reject", "去掉第二张")
    seen = finish(b, tid, evs)
    done = data(seen, "workflow_complete")
    t.ok(done and "学生党" in done[0]["body"].split("\n\n")[0],
         "  ... the note's opening says who it is for (%s)" % (done[0]["body"].split("\n\n")[0] if done else None))
    t.is_(asked_keys(a, tid), ["audience"], "  ... asked once over the run, on two workers")
    t.is_(len([x for x in data(log_of(a, tid), "ask_user") if kind(x) == "clarification"]), 1,
          "  ... one clarification pause in the thread's log")


def main(t):
    d = t.tmpdir("note_plans")
    ws = [avtest.Worker(t, d, name=n).start() for n in ("a", "b")]
    a, b = (Direct(w) for w in ws)
    test_plans_zh(t, a, b)
    test_plans_en(t, b)
    test_clarify(t, a, b)
    test_audience(t, a, b)
    for w in ws:
        w.kill()


avtest.run(main)
