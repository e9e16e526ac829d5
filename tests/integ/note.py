"""The note workflow (seed 001) end to end.

With the offline provider, on three worker processes sharing one store
(the test picks the process of every request): seed 001 §6.2's sequence,
started on one worker, approved after the writer on another, the image
plans modified on a third, completed; the stored creative matches what
workflow_complete carried; every §6 event type with §6.1's field names;
reject at each pause draws a different draft, a fourth reject stops at
the last pause (kind quality), whose reject aborts the thread and keeps
the draft in its creative; a draft edited off its topic fails the review
and goes back to the writer, which keeps the person's text word for word
and adds to it; a failing draft with maxIterations 0 reaches the quality
pause at once and is published by the person (quality.passed false); a
recipe the person wrote survives word for word; 不要提猫 on a trip with
the cat ends done, without a loop and without a claim of removing what
was never there; a vague request (写点东西)
asks a clarification once, a specific answer goes on; an agent asks who
the note is for; the optional router reruns the research once. Through a
real lighttpd with three workers: the same sequence. Against a fake
OpenAI-compatible server: the quality loop sent back by a low score, a
review that passes in words but not in scores, maxIterations reached
(the quality pause: stop aborts with the draft kept, publish completes
with quality.passed false), an image task that fails
(errorMessage set, the review still runs), a writer whose model fails
(the fallback rerun on the rules), and a client that disconnects after
the writer starts and reconnects with Last-Event-ID (nothing lost or
doubled). Against a reviewer that always scores low (fake_models'
note-low): every content pause after a loop says what changed and why
(context.changes), no two offer the same draft, the run reaches the
quality pause with the best draft after maxIterations + 1 reviews,
publish and stop end it, a person's recipe survives into the published
note, and a quality pause left past its deadline stops.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402
from avtest import SSEReader  # noqa: E402
import avpng  # noqa: E402
import avnotelow  # noqa: E402
import fake_models as fm  # noqa: E402
from avevents import approve_until, data, durable, events, last_ask as ask, nodes_run, types  # noqa: E402

NODES = ["supervisor", "brief_compiler_agent", "research_evidence_agent",
         "reference_intelligence_agent", "writer_agent", "layout_planner_agent",
         "image_planner_agent", "image_agent", "review_agent"]
TOOLS = ["searchNotes", "analyzeTopTags", "getTopTitles", "getTrendReport", "webSearch"]
# Seed 001 §6.1: the fields of each event type.
FIELDS = {
    "agent_start": ["agent", "content", "timestamp"],
    "agent_end": ["agent", "timestamp"],
    "message": ["agent", "content", "timestamp"],
    "progress": ["content", "timestamp"],
    "tool_call": ["agent", "tool", "toolCallId", "toolInput", "timestamp"],
    "tool_result": ["agent", "tool", "toolCallId", "toolOutput", "timestamp"],
    "supervisor_decision": ["decision", "reason", "timestamp"],
    "content_update": ["title", "body", "tags", "timestamp"],
    "image_progress": ["taskId", "status", "progress", "url", "errorMessage", "timestamp"],
    "workflow_progress": ["phase", "progress", "currentAgent", "timestamp"],
    "brief_ready": ["brief", "timestamp"],
    "layout_spec_ready": ["layoutSpec", "timestamp"],
    "alignment_map_ready": ["imagePlans", "paragraphImageBindings", "timestamp"],
    "quality_score": ["scores", "overall", "timestamp"],
    "ask_user": ["question", "options", "selectionType", "allowCustomInput", "context", "threadId",
                 "interruptId", "editable", "timestamp"],
    "workflow_paused": ["threadId", "content", "timestamp"],
    "state_update": ["changes", "timestamp"],
    "intent_detected": ["intent", "timestamp"],
    "content_type_detected": ["contentType", "timestamp"],
    "workflow_complete": ["title", "body", "tags", "imageAssetIds", "creativeId", "timestamp"],
}


class Direct:
    """A worker run directly: requests go to the process the test picks."""

    def __init__(self, w):
        self.w = w

    def post(self, path, obj):
        r = self.w.post_json(path, obj, timeout=120)
        return r.status, r.header("X-AiVista-Worker"), r.body

    def get(self, path, headers=None):
        r = self.w.request("GET", path, headers=headers or {}, timeout=120)
        return r.status, r.header("X-AiVista-Worker"), r.body


class Http:
    """lighttpd: it picks the worker."""

    def __init__(self, lt):
        self.lt = lt

    def post(self, path, obj):
        st, h, body = self.lt.request("POST", path, json.dumps(obj),
                                      {"Content-Type": "application/json"}, timeout=120)
        return st, h.get("x-aivista-worker"), body

    def get(self, path, headers=None):
        st, h, body = self.lt.request("GET", path, headers=headers, timeout=120)
        return st, h.get("x-aivista-worker"), body


def start(cl, inp):
    st, pid, body = cl.post("/api/agent/stream", {"workflow": "note", "input": inp})
    evs = events(body)
    tid = data(evs, "thread_start")[0]["threadId"] if data(evs, "thread_start") else None
    return st, pid, evs, tid


def confirm(cl, tid, q, action, payload=None):
    body = {"threadId": tid, "interruptId": q["interruptId"], "action": action}
    if payload is not None:
        body["payload"] = payload
    st, pid, raw = cl.post("/api/agent/confirm", body)
    return st, pid, events(raw)


def state_of(cl, tid):
    st, _, body = cl.get("/api/threads/" + tid)
    return json.loads(body) if st == 200 else {}


def stored_log(cl, tid):
    st, _, body = cl.get("/api/agent/stream?threadId=" + tid, {"Last-Event-ID": "0"})
    return durable(events(body))


def finish(cl, tid, evs, limit=16):
    """Approves every pause until the thread ends; all events in order."""
    return approve_until(evs, lambda q: confirm(cl, tid, q, "approve")[2], limit=limit)[0]


def check_fields(t, evs, name):
    bad = []
    for d in data(evs):
        for f in FIELDS.get(d["type"], []):
            if f not in d:
                bad.append("%s.%s" % (d["type"], f))
    t.is_(sorted(set(bad)), [], "%s: every event has seed 001 §6.1's fields" % name)


def check_tools(t, evs, name):
    calls = [c for c in data(evs, "tool_call") if c["agent"] == "research_evidence_agent"]
    results = {d["toolCallId"]: d for d in data(evs, "tool_result")
               if d["agent"] == "research_evidence_agent"}
    t.is_([c["tool"] for c in calls], TOOLS, "%s: the five research tools, in order" % name)
    t.ok(calls and all(c["toolCallId"] in results and results[c["toolCallId"]]["tool"] == c["tool"]
                       for c in calls),
         "%s: each tool_call has its tool_result with the same toolCallId" % name)
    t.is_(len(set(c["toolCallId"] for c in calls)), len(calls), "%s: toolCallIds are unique" % name)
    return results


# -- the offline suite on three direct workers ------------------------------------

def test_sequence(t, a, b, c):
    st, pid_a, evs, tid = start(a, {"topic": "周末去杭州春游的攻略"})
    t.is_(st, 200, "6.2: start on worker A: 200")
    t.is_(nodes_run(evs), NODES[:5], "6.2: supervisor, brief, research, reference, writer, in order")
    t.is_(types(evs)[-1], "workflow_paused", "6.2: the stream ends paused after the writer")
    t.ok("[DONE]" not in types(evs), "6.2: no [DONE] at a pause")
    q = ask(evs)
    t.is_((q or {}).get("context"), {"__hitl": True, "kind": "content"}, "6.2: ask_user kind content")
    t.is_(sorted((q or {}).get("editable", {})), ["body", "tags", "title"],
          "6.2: ask_user.editable has title, body and tags")
    t.is_(q and q.get("threadId"), tid, "6.2: ask_user carries the threadId")
    cu = data(evs, "content_update")
    t.ok(cu and q and cu[-1]["title"] == q["editable"]["title"] and cu[-1]["body"] == q["editable"]["body"],
         "6.2: content_update then ask_user with the same draft")
    t.ok(any(m.get("agent") == "writer_agent" and m["content"].startswith("标题：")
             for m in data(evs, "message")), "6.2: the writer's message starts with 标题：")
    results = check_tools(t, evs, "6.2")
    out = results and list(results.values())[0]["toolOutput"] or {}
    items, own = out.get("items", []), out.get("topicWords", [])
    t.is_(own, ["杭州", "春游"], "searchNotes: the topic's own words")
    t.ok(items and all(any(w in i["title"] or w in i["tags"] for w in own)
                       for i in items) and any("杭州" in i["title"] for i in items),
         "searchNotes finds the corpus's notes about 杭州, and only notes with the topic's words (%s)"
         % " / ".join(i["title"] for i in items))
    tags = [r for r in results.values() if r["tool"] == "analyzeTopTags"]
    t.ok(tags and tags[0]["toolOutput"] and all(set(x) == {"tag", "count", "likes"}
                                                for x in tags[0]["toolOutput"]),
         "analyzeTopTags: tags with counts and likes")
    web = [r for r in results.values() if r["tool"] == "webSearch"]
    t.ok(web and web[0]["toolOutput"].get("error") == "unavailable",
         "webSearch offline: unavailable, local evidence only")

    st, pid_b, evs2 = confirm(b, tid, q, "approve")
    t.ok(st == 200 and pid_b != pid_a, "6.2: approve on another worker (%s, then %s)" % (pid_a, pid_b))
    t.is_(nodes_run(evs2), ["writer_agent", "layout_planner_agent", "image_planner_agent"],
          "6.2: after approve: writer takes the answer, layout, image planner")
    q2 = ask(evs2)
    t.is_((q2 or {}).get("context", {}).get("kind"), "image_plans", "6.2: the second pause is image_plans")
    plans = (q2 or {}).get("editable", {}).get("imagePlans") or []
    t.ok(len(plans) >= 2 and all(p.get("prompt") and p.get("paragraphId") for p in plans),
         "6.2: image plans, each with a prompt and bound to a paragraph")
    amap = data(evs2, "alignment_map_ready")
    t.ok(amap and [x["imageSeq"] for x in amap[0]["paragraphImageBindings"]] ==
         [p["sequence"] for p in plans], "alignment_map_ready binds every plan to a paragraph")
    t.ok(data(evs2, "layout_spec_ready"), "layout_spec_ready before the plans")

    edited = [dict(p) for p in plans]
    edited[0]["prompt"] = "编辑后的封面：西湖边的樱花小路，清新日系摄影"
    st, pid_c, evs3 = confirm(c, tid, q2, "modify", {"imagePlans": edited})
    t.ok(st == 200 and pid_c not in (pid_a, pid_b), "6.2: modify on a third worker (%s)" % pid_c)
    t.is_(nodes_run(evs3), ["image_planner_agent", "image_agent", "review_agent"],
          "6.2: after modify: image planner, image agent, review")
    t.is_(types(evs3)[-2:], ["workflow_complete", "[DONE]"], "6.2: workflow_complete, then [DONE]")
    done = data(evs3, "workflow_complete")[0] if data(evs3, "workflow_complete") else {}
    t.ok(isinstance(done.get("creativeId"), int) and done.get("title") and done.get("body"),
         "workflow_complete: creativeId, title, body")
    t.is_(len(done.get("imageAssetIds") or []), len(plans), "workflow_complete: one asset per plan")
    prog = [d for d in data(durable(evs3), "image_progress")]
    t.ok(len(prog) == len(plans) and all(p["status"] == "done" and p["url"].startswith("api/assets/")
                                         and p["errorMessage"] is None for p in prog),
         "durable image_progress per task: done, url api/assets/<id>")
    t.ok(all(p.get("id") is None for p in data(evs3, "image_progress") if p["progress"] < 1),
         "image_progress ticks stream live")
    stt, _, img = c.get("/" + prog[0]["url"]) if prog else (0, None, b"")
    t.ok(stt == 200 and b"<svg" in img, "the image is served from the store")

    th = state_of(a, tid)
    cr = th.get("state", {}).get("creative", {})
    t.is_(th.get("status"), "done", "the thread is done")
    t.is_({k: cr.get(k) for k in ("creativeId", "title", "body", "tags", "imageAssetIds")},
          {k: done.get(k) for k in ("creativeId", "title", "body", "tags", "imageAssetIds")},
          "the stored creative matches workflow_complete")
    t.is_(cr.get("status"), "complete", "the creative's status is complete")
    gen = th.get("state", {}).get("generatedImages", [])
    t.is_(gen and gen[0]["prompt"], edited[0]["prompt"], "the edited plan made the first image")
    live = durable(evs) + durable(evs2) + durable(evs3)
    t.is_([int(e["id"]) for e in live], list(range(1, len(live) + 1)), "6.2: durable ids 1..n, no gap")
    t.is_([(e["id"], e["data"]) for e in stored_log(b, tid)], [(e["id"], e["data"]) for e in live],
          "6.2: a replay from 0 equals the three live streams")
    allev = evs + evs2 + evs3
    check_fields(t, allev, "6.2")
    want = set(FIELDS)
    t.is_(sorted(want - set(types(allev))), [], "every event type of seed 001 §6 was sent")
    wp = data(allev, "workflow_progress")
    t.ok(wp and wp[-1]["phase"] == "complete" and wp[-1]["progress"] == 1.0,
         "workflow_progress ends at phase complete, progress 1")
    decisions = [d["decision"] for d in data(allev, "supervisor_decision")]
    t.is_(decisions, NODES[1:] + ["END"], "supervisor_decision names every stage in order, then END")


def test_rejects(t, a):
    st, _, evs, tid = start(a, {"topic": "考研英语复习计划"})
    q = ask(evs)
    first = data(evs, "content_update")[-1]
    st, _, evs2 = confirm(a, tid, q, "reject", {"feedback": "更口语一点，多写具体的时间安排"})
    q2 = ask(evs2)
    again = data(evs2, "content_update")
    t.is_(nodes_run(evs2), ["writer_agent"], "reject at the content pause: the writer drafts again")
    t.ok(again and (again[-1]["title"] != first["title"]), "the new draft differs from the rejected one")
    t.ok(again and "更口语一点" not in again[-1]["body"], "the feedback is not pasted into the body")
    said = [m["content"] for m in data(evs2, "progress")]
    t.ok(all(any(f in m and ("✓" in m or "✗" in m) for m in said) for f in ("更口语一点", "多写具体的时间安排")),
         "the writer says of each item of the feedback whether it was done (%s)" % said)
    t.ok(q2 and q2["interruptId"] != q["interruptId"] and q2["context"]["kind"] == "content",
         "and pauses again with a new interrupt")
    st_ = state_of(a, tid)["state"]
    t.is_((st_["attempts"]["writer_agent"], st_["regenerations"]["content"]), (2, 1),
          "attempt and regeneration counters")
    st, _, evs3 = confirm(a, tid, q2, "approve")
    q3 = ask(evs3)
    plans = data(evs3, "alignment_map_ready")[-1]["imagePlans"]
    st, _, evs4 = confirm(a, tid, q3, "reject")
    q4 = ask(evs4)
    plans2 = data(evs4, "alignment_map_ready")[-1]["imagePlans"] if data(evs4, "alignment_map_ready") else []
    t.is_(nodes_run(evs4), ["image_planner_agent"], "reject at the image_plans pause: planned again")
    t.ok(plans2 and [p["prompt"] for p in plans2] != [p["prompt"] for p in plans],
         "the new plans differ from the rejected ones")
    t.ok(q4 and q4["context"]["kind"] == "image_plans" and q4["interruptId"] != q3["interruptId"],
         "and pauses again for the plans")
    st, _, evs5 = confirm(a, tid, q4, "reject", {"feedback": "换成水彩风"})
    plans3 = data(evs5, "alignment_map_ready")[-1]["imagePlans"] if data(evs5, "alignment_map_ready") else []
    t.ok(plans3 and all("水彩" in p["prompt"] and "换成" not in p["prompt"] for p in plans3)
         and not any("水彩" in p["prompt"] for p in plans2),
         "reject with 换成水彩风: every plan is now in watercolour (%s)" % (plans3[0]["prompt"] if plans3 else None))
    seen = finish(a, tid, evs5)
    images = data(seen, "image_progress")
    t.ok(images and all(i["status"] == "done" for i in images if i.get("status") in ("done", "failed")),
         "  ... and the watercolour plans are drawn")
    t.is_(types(seen)[-1], "[DONE]", "the rejected thread then completes")


def test_off_topic(t, a):
    """A draft edited off its topic is scored low and sent back to the
    writer, which keeps what the person wrote and adds to it."""
    st, _, evs, tid = start(a, {"topic": "重庆火锅测评"})
    q = ask(evs)
    body = ("考研英语这样复习不慌。\n\n一、单词怎么背\n每天 100 个，早晚各过一遍。\n\n"
            "二、真题怎么刷\n近十年真题做两遍，错题单独整理。\n\n你准备得怎么样？评论区聊聊～")
    st, _, evs2 = confirm(a, tid, q, "modify", {"title": "考研英语复习｜三个月上岸",
                                                "body": body, "tags": ["考研", "英语", "学习"]})
    seen = evs2 + finish(a, tid, evs2)[len(evs2):]
    scores = data(seen, "quality_score")
    t.ok(scores and not scores[0]["passed"] and scores[0]["scores"]["infoDensity"] <= 0.3,
         "the off-topic draft fails the review (%s)" % (scores[0]["scores"] if scores else None))
    t.ok(scores and any("偏离主题" in r for r in scores[0]["failReasons"]), "  ... and says it is off the topic")
    back = [e for e in data(seen, "supervisor_decision") if e.get("decision") == "writer_agent"]
    t.ok(back, "  ... the work goes back to the writer")
    drafts = [x for x in data(seen, "ask_user") if x["context"]["kind"] == "content"]
    ch = drafts[0]["context"].get("changes") if drafts else None
    t.ok(ch and ch.get("reasons") == scores[0]["failReasons"] and ch.get("added") and
         ch.get("removed") == [] and "title" not in ch,
         "the next draft says what changed and why, and took nothing of the person's away (%s)" % ch)
    t.ok(drafts and body in drafts[0]["editable"]["body"] and
         drafts[0]["editable"]["title"] == "考研英语复习｜三个月上岸",
         "  ... it keeps the person's title and text word for word")
    final = data(seen, "workflow_complete")
    t.ok(final and final[-1]["body"].startswith(body),
         "the final note (the best-scored draft) has the person's text word for word")
    t.ok(types(seen)[-1] == "[DONE]" and not data(seen, "error"),
         "  ... and the run ends with the person's choice, never a silent abort")


def test_reject_limit(t, a):
    """A fourth reject stops at the last pause (kind quality); its reject
    aborts the thread and keeps the draft in the creative."""
    st, _, evs, tid = start(a, {"topic": "新手养猫清单"})
    seen = list(evs)
    for _ in range(4):
        q = ask(evs)
        if q is None:
            break
        st, _, evs = confirm(a, tid, q, "reject", {"feedback": "再换一种写法"})
        seen += evs
    q = ask(evs)
    if not t.ok(q and q["context"]["kind"] == "quality" and not data(seen, "error"),
                "a fourth reject: the last pause, kind quality, no error yet"):
        return
    draft = q["context"].get("draft") or {}
    t.ok(draft.get("title") and draft.get("body") and [o["id"] for o in q["options"]] == ["approve", "reject"]
         and q["context"].get("reasons") and q["context"].get("limit") == "regeneration_limit",
         "  ... with the draft, the reasons and two choices: publish or stop")
    st, _, evs = confirm(a, tid, q, "reject")
    seen += evs
    err = data(evs, "error")
    t.ok(err and err[-1]["code"] == "regeneration_limit", "stop: an error event (regeneration_limit)")
    t.is_(types(seen)[-1], "[DONE]", "  ... the stream ends with [DONE]")
    th = state_of(a, tid)
    cr = th["state"]["creative"]
    t.is_((th.get("status"), cr["status"], cr.get("abortReason")),
          ("aborted", "aborted", "regeneration_limit"), "  ... the thread and its creative are aborted")
    t.is_((cr["title"], cr["body"]), (draft.get("title"), draft.get("body")),
          "  ... and the creative keeps the draft the last pause showed")


RECIPE = ("红烧肉我家这样做，肥而不腻，第一次做也不会失手。\n\n"
          "材料：五花肉 500 克，冰糖 30 克，生抽 2 勺，老抽 1 勺，料酒 2 勺，姜 3 片，葱 2 段，八角 2 个。\n\n"
          "1. 五花肉切 3 厘米见方的块，冷水下锅，加料酒焯水 3 分钟，捞出洗净。\n"
          "2. 锅里放 1 勺油，小火炒冰糖到枣红色，下肉翻炒 2 分钟上色。\n"
          "3. 加生抽、老抽、姜葱八角，倒热水没过肉，大火烧开转小火炖 60 分钟。\n"
          "4. 最后大火收汁 5 分钟，汤汁浓稠就出锅。")


def distinct_drafts(seen):
    """The drafts the content pauses offered, and whether no two are the same."""
    drafts = [(x["editable"]["title"], x["editable"]["body"], tuple(x["editable"]["tags"]))
              for x in data(seen, "ask_user") if x["context"]["kind"] == "content"]
    return drafts, len(set(drafts)) == len(drafts)


def test_quality_offline(t, a):
    """maxIterations 0 and a draft the review fails: the quality pause at
    once; approve publishes it as it is, as the person's call."""
    st, _, evs, tid = start(a, {"topic": "重庆火锅测评", "maxIterations": 0})
    body = "考研英语这样复习不慌。\n\n一、单词怎么背\n每天 100 个，早晚各过一遍。"
    st, _, evs2 = confirm(a, tid, ask(evs), "modify", {"title": "考研英语复习", "body": body})
    st, _, evs3 = confirm(a, tid, ask(evs2), "approve")
    q = ask(evs3)
    if not t.ok(q and q["context"]["kind"] == "quality" and nodes_run(evs3).count("review_agent") == 1,
                "offline, maxIterations 0: one review, then the quality pause"):
        return
    t.ok(q and q["context"]["draft"]["body"] == body and any("偏离主题" in r for r in q["context"]["reasons"]),
         "  ... with the person's draft and the review's reasons")
    st, _, evs4 = confirm(a, tid, q, "approve")
    done = data(evs4, "workflow_complete")
    quality = done[0].get("quality") if done else None
    t.ok(quality and quality["passed"] is False and quality["publishedBy"] == "person" and
         quality["reasons"] == q["context"]["reasons"],
         "publish: workflow_complete with quality {passed: false, reasons, publishedBy: person}")
    t.ok(done and done[0]["body"] == body, "  ... the note as it is")
    th = state_of(a, tid)
    t.is_((th["status"], th["state"]["creative"]["status"]), ("done", "complete"),
          "  ... the thread is done and the creative complete")


def test_recipe_offline(t, a):
    """A recipe the person wrote survives word for word into the final note."""
    st, _, evs, tid = start(a, {"topic": "红烧肉的家常做法"})
    st, _, evs2 = confirm(a, tid, ask(evs), "modify", {"body": RECIPE})
    seen = evs2 + finish(a, tid, evs2)[len(evs2):]
    done = data(seen, "workflow_complete")
    t.ok(done and RECIPE in done[-1]["body"], "offline: the person's recipe is in the final note word for word")
    t.ok(all(RECIPE in x["editable"]["body"] for x in data(seen, "ask_user") if x["context"]["kind"] == "content"),
         "  ... and in every draft offered after it")


def test_removal(t, a):
    """不要提猫 on a trip with the cat: the person's removal beats the topic."""
    st, _, evs, tid = start(a, {"topic": "春天去苏州旅行，带上家里的猫"})
    first = (ask(evs) or {}).get("editable") or {"title": "", "body": "", "tags": []}
    st, _, evs2 = confirm(a, tid, ask(evs), "reject", {"feedback": "不要提猫"})
    said = [p["content"] for p in data(evs2, "progress") if p.get("agent") == "writer_agent"]
    seen = evs2 + finish(a, tid, evs2)[len(evs2):]
    scores = data(seen, "quality_score")
    t.ok(data(seen, "workflow_complete") and not data(seen, "error"), "不要提猫: the run ends done")
    t.ok(len(scores) == 1 and scores[0]["passed"], "  ... after one review that passes: no loop (%s)"
         % [q["failReasons"] for q in scores])
    final = data(seen, "workflow_complete")[-1] if data(seen, "workflow_complete") else {}
    t.ok(final and "猫" not in final["title"] + final["body"] + "".join(final["tags"]) and "苏州" in final["title"],
         "  ... the note is about the trip, without the cat: %s" % final.get("title"))
    had = [w for w in ("猫", "宠物", "萌宠") if w in first["title"] + first["body"] + "".join(first["tags"])]
    t.ok(had == ["猫"] and any("删去「猫」" in m for m in said) and not any("宠物" in m for m in said),
         "  ... the writer says it took out 猫, and claims nothing it never had (%s)" % said)


def test_clarification(t, a):
    st, _, evs, tid = start(a, {"topic": "写点东西"})
    q = ask(evs)
    t.is_(nodes_run(evs), ["supervisor"], "写点东西: the supervisor stops to ask")
    t.is_((q or {}).get("context", {}).get("kind"), "clarification", "a clarification pause")
    opts = (q or {}).get("options") or []
    t.ok(len(opts) >= 3 and not {o["id"] for o in opts} & {"approve", "reject", "modify"},
         "with topic options to pick from (%d)" % len(opts))
    t.ok(q and q.get("allowCustomInput") is True and q.get("selectionType") == "single",
         "custom input allowed, single selection")
    idet = data(evs, "intent_detected")
    t.ok(idet and idet[0]["requirementClarity"] < 0.4, "requirementClarity is low (%s)" %
         (idet and idet[0]["requirementClarity"]))
    t.is_(state_of(a, tid)["state"]["agentClarificationKeys"], ["topic"], "agentClarificationKeys: topic")
    st, _, evs2 = confirm(a, tid, q, "approve", {"feedback": "周末杭州春游攻略"})
    q2 = ask(evs2)
    t.is_((q2 or {}).get("context", {}).get("kind"), "content", "a specific answer: on to the draft")
    t.ok(nodes_run(evs2)[:2] == ["supervisor", "brief_compiler_agent"] and
         nodes_run(evs2)[-1] == "writer_agent", "the answer goes through brief, research, writer")
    ct = data(evs2, "content_type_detected")
    t.ok(ct and ct[0]["contentType"] == "travel", "the answer is detected as travel")
    cu = data(evs2, "content_update")
    t.ok(cu and "春游" in cu[-1]["title"] + cu[-1]["body"], "the draft is about the answer")
    t.is_(state_of(a, tid)["state"]["topic"], "周末杭州春游攻略", "the topic is the answer")
    finish(a, tid, evs2)

    st, _, evs, tid = start(a, {"topic": "写点东西"})
    st, _, evs2 = confirm(a, tid, ask(evs), "reject")
    kinds = [x["context"]["kind"] for x in data(evs2, "ask_user")]
    t.is_(kinds, ["content"], "a skipped clarification is never asked again: next is the draft")


def test_agent_clarification(t, a):
    st, _, evs, tid = start(a, {"topic": "量子计算入门"})
    q = ask(evs)
    t.ok(q and q["context"]["kind"] == "clarification" and q.get("node") == "brief_compiler_agent",
         "an unclassified topic: brief_compiler_agent asks who the note is for")
    st, _, evs2 = confirm(a, tid, q, "approve", {"feedback": "大学生"})
    br = data(evs2, "brief_ready")
    t.ok(br and br[0]["brief"]["audience"] == "大学生", "the answer becomes the brief's audience")
    t.is_(state_of(a, tid)["state"]["agentClarificationKeys"], ["audience"],
          "agentClarificationKeys: audience")
    finish(a, tid, evs2)


def test_router(t, a):
    st, _, evs, tid = start(a, {"topic": "量子计算入门", "audience": "大学生", "modelRouter": True})
    dec = data(evs, "supervisor_decision")
    t.ok(dec and all(d.get("source") in ("router_rules", "model", "rules") for d in dec),
         "modelRouter: decisions say where they came from")
    t.is_(nodes_run(evs).count("research_evidence_agent"), 2,
          "the router reruns the research once, widened, when it found too little")
    t.ok(any(d["decision"] == "research_evidence_agent" and d.get("source") == "router_rules"
             for d in dec), "that decision is the router's")
    calls = [c for c in data(evs, "tool_call") if c["agent"] == "research_evidence_agent"]
    t.ok(calls and calls[-5]["toolInput"].get("widened") is True, "the second search is widened")
    seen = finish(a, tid, evs)
    t.is_(types(seen)[-1], "[DONE]", "and the run completes")


def test_inputs(t, a, d):
    ref = avpng.data_url(avpng.solid(30, 40, (240, 140, 60)))
    st, _, evs, tid = start(a, {"topic": "秋天的咖啡店探店", "referenceImages": [ref],
                                "layoutPreference": "dense"})
    t.is_(st, 200, "a reference image as a data URL: accepted")
    stt = state_of(a, tid)["state"]
    t.ok(stt["referenceImages"][0].startswith("api/assets/") and "base64" not in json.dumps(stt),
         "the state keeps the reference's asset URL, not its bytes")
    an = stt["referenceAnalyses"][0]
    t.is_((an["width"], an["height"], an["mime"]), (30, 40, "image/png"), "reference: size and type")
    t.is_(an["styleTokens"]["colorPalette"], ["#F08C3C"], "reference: the dominant colour")
    t.is_(an["analysisMethod"], "metadata-only", "labelled metadata-only")
    t.is_(an["layoutTokens"]["aspect"], "3:4", "reference: its aspect")
    seen = finish(a, tid, evs)
    plans = state_of(a, tid)["state"]["imagePlans"]
    t.is_(len(plans), 2, "layoutPreference dense: two images")
    t.ok(all("橙" in p["prompt"] for p in plans), "the plans carry the reference's palette")
    for body, name in (({"topic": ""}, "empty topic"), ({"topic": 5}, "topic not text"),
                       ({"topic": "x", "referenceImages": ["not an image"]}, "bad reference"),
                       ({"topic": "x", "layoutPreference": "huge"}, "bad layoutPreference"),
                       ({"topic": "x", "maxIterations": 99}, "maxIterations out of range"),
                       ({"topic": "x", "referenceImages": [ref] * 5}, "five references")):
        st, _, raw = a.post("/api/agent/stream", {"workflow": "note", "input": body})
        t.is_(st, 400, "input with %s: 400" % name)


def offline_suite(t, d):
    ws = [avtest.Worker(t, d, name=n).start() for n in ("a", "b", "c")]
    a, b, c = (Direct(w) for w in ws)
    test_sequence(t, a, b, c)
    test_rejects(t, b)
    test_off_topic(t, a)
    test_reject_limit(t, c)
    test_quality_offline(t, b)
    test_recipe_offline(t, c)
    test_removal(t, a)
    test_clarification(t, c)
    test_agent_clarification(t, a)
    test_router(t, b)
    test_inputs(t, c, d)
    for w in ws:
        w.kill()


def lighttpd_suite(t, d):
    lt = avtest.Lighttpd(t, os.path.join(d, "lt"), workers=3).start()
    cl = Http(lt)
    st, p1, evs, tid = start(cl, {"topic": "新手养猫必看清单"})
    q = ask(evs)
    t.ok(st == 200 and q and q["context"]["kind"] == "content", "lighttpd: start, pause after writer")
    st, p2, evs2 = confirm(cl, tid, q, "approve")
    q2 = ask(evs2)
    t.ok(q2 and q2["context"]["kind"] == "image_plans", "lighttpd: approve, pause after image planner")
    plans = [dict(p) for p in q2["editable"]["imagePlans"]]
    plans[-1]["prompt"] = "猫咪在窗台晒太阳，温暖胶片质感"
    st, p3, evs3 = confirm(cl, tid, q2, "modify", {"imagePlans": plans})
    done = data(evs3, "workflow_complete")
    t.ok(done and types(evs3)[-1] == "[DONE]", "lighttpd: modify, complete")
    t.diag("workers that answered: %s, %s, %s" % (p1, p2, p3))
    cr = state_of(cl, tid)["state"]["creative"]
    t.is_((cr["creativeId"], cr["title"], cr["imageAssetIds"]),
          (done[0]["creativeId"], done[0]["title"], done[0]["imageAssetIds"]) if done else None,
          "lighttpd: the stored creative matches")
    live = durable(evs) + durable(evs2) + durable(evs3)
    t.is_([(e["id"], e["data"]) for e in stored_log(cl, tid)], [(e["id"], e["data"]) for e in live],
          "lighttpd: the log equals what was streamed")
    lt.stop()


# -- against a fake model server ---------------------------------------------------

GOOD = {"approved": True, "scores": {"infoDensity": 0.9, "readability": 0.85, "platformFit": 0.9,
                                     "textImageAlignment": 0.88, "styleConsistency": 0.9},
        "overall": 0.89, "failReasons": [], "suggestions": [], "feedback": "可以发布"}
LOW_STYLE = {"approved": True, "scores": {"infoDensity": 0.9, "readability": 0.85, "platformFit": 0.9,
                                          "textImageAlignment": 0.88, "styleConsistency": 0.35},
             "overall": 0.78, "failReasons": ["配图风格不统一"], "suggestions": ["统一色调"],
             "feedback": "整体不错，可以发布"}
MODEL_NOTE = {"title": "杭州春游｜模型写的 1 日路线",
              "body": "这个周末去杭州春游，我把一天的路线整理好了，照着走不累也不赶。\n\n"
                      "一、上午：太子湾看郁金香\n8 点前入园人最少，沿着溪边步道慢慢走，花田在南门附近，"
                      "拍照记得侧光，颜色更透。\n\n"
                      "二、中午：湖边吃饭\n步行 15 分钟到南山路，人均 80 元左右，推荐龙井虾仁和片儿川，"
                      "饭后在湖边长椅坐一会儿。\n\n"
                      "三、下午：苏堤骑行\n租一辆共享单车，从南往北骑完全程约 3 公里，"
                      "4 点以后光线柔和，最适合拍人像。\n\n"
                      "四、提醒\n周末人多，地铁比打车快；带一件薄外套，傍晚湖边风大。\n\n"
                      "你最想去哪一站？评论区聊聊～",
              "tags": ["杭州", "春游", "周末去哪儿", "旅行攻略"]}


class Fake(fm.NoteFake):
    """An OpenAI-compatible chat and image server: the writer answers
    MODEL_NOTE ("good"), MODEL_NOTE after 1.5 s ("slow") or a 500
    ("error"), as self.writer says; the review answers self.reviews in
    turn, then an empty object, as other roles do (the workflow falls back
    to its rules)."""

    def __init__(self):
        super().__init__("sk-test-note-0123456789")
        self.writer = "good"

    def answer(self, role, user):
        if role == "writer":
            if self.writer == "error":
                raise fm.NoteDown("writer model down")
            if self.writer == "slow":
                time.sleep(1.5)
            return MODEL_NOTE
        with self._lock:
            return self.reviews.pop(0) if role == "review" and self.reviews else {}


def test_quality_loop(t, cl, fake):
    fake.reviews = [LOW_STYLE, GOOD]
    st, _, evs, tid = start(cl, {"topic": "周末去杭州春游的攻略"})
    seen = finish(cl, tid, evs)
    qs = data(seen, "quality_score")
    t.is_([q["passed"] for q in qs], [False, True], "quality loop: the first review fails, the second passes")
    t.ok(qs and qs[0]["approved"] is True and qs[0]["scores"]["styleConsistency"] == 0.35,
         "the first review passed in words (approved) but scored styleConsistency 0.35")
    after = nodes_run(seen)[nodes_run(seen).index("review_agent"):]
    t.is_(after, ["review_agent", "supervisor", "image_agent", "review_agent"],
          "a low styleConsistency sends the work back to image_agent through the supervisor")
    dec = [d for d in data(seen, "supervisor_decision") if d["node"] == "supervisor"]
    t.ok(dec and dec[-1]["decision"] == "image_agent" and "styleConsistency" in dec[-1]["reason"],
         "supervisor_decision says why (%s)" % (dec and dec[-1]["reason"]))
    stt = state_of(cl, tid)["state"]
    t.is_(stt["iterationCount"], 1, "iterationCount counts the loop")
    done = data(seen, "workflow_complete")
    t.ok(done and done[0]["title"] == MODEL_NOTE["title"] and stt["contentSource"] == "model",
         "the writer's model answer is the note")
    t.is_(stt["creative"]["status"], "complete", "the creative is complete")


def until_kind(cl, tid, evs, kind, limit=16):
    """Approves every pause until one of kind; all events in order."""
    return approve_until(evs, lambda q: confirm(cl, tid, q, "approve")[2],
                         lambda q, seen: q["context"]["kind"] == kind, limit)[0]


def test_max_iterations(t, cl, fake):
    fake.reviews = [LOW_STYLE, LOW_STYLE, LOW_STYLE]
    st, _, evs, tid = start(cl, {"topic": "周末去杭州春游的攻略", "maxIterations": 1})
    seen = until_kind(cl, tid, evs, "quality")
    t.is_(nodes_run(seen).count("review_agent"), 2, "maxIterations 1: two reviews, then the last pause")
    q = ask(seen)
    if not t.ok(q and q["context"]["kind"] == "quality" and not data(seen, "error"),
                "maxIterations reached: a pause of kind quality, not an abort"):
        return
    t.ok(q and "配图风格不统一" in q["context"]["reasons"] and q["context"]["draft"]["title"] == MODEL_NOTE["title"],
         "  ... with the best draft and the review's reasons")
    st, _, evs2 = confirm(cl, tid, q, "reject")
    err = data(evs2, "error")
    t.ok(err and err[-1]["code"] == "max_iterations", "stop: an error event with code max_iterations")
    t.is_(types(evs2)[-1], "[DONE]", "the stream ends with [DONE]")
    th = state_of(cl, tid)
    t.is_(th["status"], "aborted", "the thread is aborted, not in error")
    t.is_((th["state"]["creative"]["status"], th["state"]["creative"].get("abortReason"),
           th["state"]["creative"]["title"]),
          ("aborted", "max_iterations", MODEL_NOTE["title"]), "the creative is aborted (max_iterations), the draft kept")


def test_image_failure(t, cl, fake):
    fake.reviews = []
    fake.fail_images = 1
    calls0 = fake.image_calls
    st, _, evs, tid = start(cl, {"topic": "杭州春游路线", "layoutPreference": "dense"})
    seen = finish(cl, tid, evs)
    prog = data(durable(seen), "image_progress")
    failed = [p for p in prog if p["status"] == "failed"]
    t.is_(len(failed), 1, "one image task failed")
    t.ok(failed and failed[0]["errorMessage"] and failed[0]["url"] is None,
         "its image_progress has errorMessage set and no url (%s)" % (failed and failed[0]["errorMessage"]))
    qs = data(seen, "quality_score")
    t.ok(qs and qs[0]["scores"]["imageCompleteness"] == 0.5,
         "the review still ran, and counted the missing image")
    t.is_(nodes_run(seen).count("image_agent"), 2, "the failed image is made again")
    t.is_(fake.image_calls - calls0, 3, "only the failed task is redone (two, then one)")
    done = data(seen, "workflow_complete")
    t.ok(done and len(done[0]["imageAssetIds"]) == 2, "the note completes with both images")


def test_writer_fails(t, cl, fake):
    fake.writer = "error"
    fake.reviews = [GOOD]
    st, _, evs, tid = start(cl, {"topic": "周末去杭州春游的攻略"})
    dec = data(evs, "supervisor_decision")
    t.ok(any(d.get("source") == "fallback" and d["decision"] == "writer_agent" for d in dec),
         "a writer whose model fails: the supervisor reruns it on the rules")
    t.is_(nodes_run(evs)[-3:], ["writer_agent", "supervisor", "writer_agent"],
          "writer, supervisor (fallback), writer")
    t.ok(ask(evs) and ask(evs)["context"]["kind"] == "content", "the rules' draft is paused on")
    t.is_(state_of(cl, tid)["state"]["contentSource"], "rules", "its source is the rules")
    fake.writer = "good"
    seen = finish(cl, tid, evs)
    t.is_(types(seen)[-1], "[DONE]", "and the run completes")


def test_reconnect(t, w, cl, fake):
    fake.writer = "slow"
    fake.reviews = [GOOD]
    body = json.dumps({"workflow": "note", "input": {"topic": "周末去杭州春游的攻略"}})
    conn = w.connect()
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body.encode()),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    got = []
    for e in SSEReader(conn.stream()):
        got.append(e)
        if isinstance(e["data"], dict) and e["data"].get("type") == "agent_start" and \
                e["data"]["node"] == "writer_agent":
            break
    conn.close()
    tid = data(got, "thread_start")[0]["threadId"]
    last = durable(got)[-1]["id"]
    status = avtest.wait_for(lambda: state_of(cl, tid).get("status") != "running" and
                             state_of(cl, tid).get("status"), 30)
    t.is_(status, "paused", "the client left after the writer started; the writer's step still ran")
    t.is_(state_of(cl, tid)["state"]["creative"]["status"], "draft",
          "a client that leaves aborts nothing: the creative is still a draft")
    st, _, raw = cl.get("/api/agent/stream?threadId=" + tid, {"Last-Event-ID": last})
    more = events(raw)
    ids = [int(e["id"]) for e in durable(more)]
    t.is_(ids, list(range(int(last) + 1, int(last) + 1 + len(ids))),
          "reconnect with Last-Event-ID %s: the events after it, no gap" % last)
    seen = durable(got) + durable(more)
    t.is_([(e["id"], e["data"]) for e in seen], [(e["id"], e["data"]) for e in stored_log(cl, tid)],
          "what the client saw before and after equals the stored log: nothing lost or doubled")
    t.ok("content_update" in types(more) and types(more)[-1] == "workflow_paused",
         "the draft and the pause arrive after the reconnect")
    fake.writer = "good"
    seen = finish(cl, tid, more)
    t.is_(types(seen)[-1], "[DONE]", "and the thread completes")


def fake_suite(t, d):
    fake = Fake().start()
    t.cleanup(fake.stop)
    w = avtest.Worker(t, d, name="fake", settings={
        "store": {"dir": os.path.join(d, "fakestore")}, "provider.chat": fake.provider(),
        "provider.image": fake.provider(), "cache": {"model_ttl": "0"}}).start()
    cl = Direct(w)
    test_quality_loop(t, cl, fake)
    test_max_iterations(t, cl, fake)
    test_image_failure(t, cl, fake)
    test_writer_fails(t, cl, fake)
    test_reconnect(t, w, cl, fake)
    w.kill()


# -- a reviewer that always scores low (fake_models' note-low) ----------------------

def test_low_publish(t, cl):
    st, _, evs, tid = start(cl, {"topic": "周末去杭州春游的攻略", "maxIterations": 2})
    seen = until_kind(cl, tid, evs, "quality")
    q = ask(seen)
    low = fm.NOTE_LOW_REVIEW["failReasons"][0]
    if not t.ok(q and q["context"]["kind"] == "quality", "note-low: the run reaches the quality pause"):
        return
    t.is_(nodes_run(seen).count("review_agent"), 3, "  ... after maxIterations + 1 reviews: never a loop")
    drafts, distinct = distinct_drafts(seen)
    t.ok(len(drafts) == 3 and distinct, "  ... no two content pauses offered the same draft")
    later = [x["context"].get("changes") for x in data(seen, "ask_user") if x["context"]["kind"] == "content"][1:]
    t.ok(len(later) == 2 and all(c and low in c["reasons"] and
                                 all(isinstance(c.get(k), list) for k in ("added", "removed", "changed"))
                                 for c in later),
         "  ... each draft after a loop says what changed and the review's reasons (%s)" % later[:1])
    qs = data(seen, "quality_score")
    draft = q["context"]["draft"] if q else {}
    reviewed = [c for c in data(seen, "content_update")]
    t.ok(draft and (draft["title"], draft["body"]) == (drafts[-1][0], drafts[-1][1]) and
         q["context"]["overall"] == max(x["overall"] for x in qs),
         "  ... with the best-scored draft (as high as any: the latest)")
    t.ok(reviewed and reviewed[-1]["title"] == draft.get("title"), "  ... shown as the note's content")
    t.ok(low in q["context"]["reasons"] and low in q["question"], "  ... and the review's reasons")
    st, _, evs2 = confirm(cl, tid, q, "approve", {"feedback": "就这样发吧"})
    done = data(evs2, "workflow_complete")
    t.ok(done and done[0]["quality"] == {"passed": False, "reasons": q["context"]["reasons"],
                                         "publishedBy": "person"} and done[0]["body"] == draft["body"],
         "publish: workflow_complete with quality {passed: false, reasons, publishedBy: person}")
    th = state_of(cl, tid)
    t.is_((th["status"], th["state"]["creative"]["status"], th["state"]["creative"].get("quality", {}).get("publishedBy")),
          ("done", "complete", "person"), "  ... the thread is done, the creative complete and published by the person")


def test_low_stop(t, cl):
    st, _, evs, tid = start(cl, {"topic": "考研英语复习计划", "maxIterations": 1})
    seen = until_kind(cl, tid, evs, "quality")
    q = ask(seen)
    if not t.ok(q and q["context"]["kind"] == "quality" and nodes_run(seen).count("review_agent") == 2,
                "note-low, maxIterations 1: two reviews, then the quality pause"):
        return
    st, _, evs2 = confirm(cl, tid, q, "reject")
    err = data(evs2, "error")
    th = state_of(cl, tid)
    cr = th["state"]["creative"]
    t.ok(err and err[-1]["code"] == "max_iterations" and th["status"] == "aborted",
         "stop: aborted (max_iterations)")
    t.is_((cr["status"], cr["title"], cr["body"]), ("aborted", q["context"]["draft"]["title"],
                                                     q["context"]["draft"]["body"]),
          "  ... the best draft kept in state.creative")


def test_low_recipe(t, cl):
    st, _, evs, tid = start(cl, {"topic": "红烧肉的家常做法", "maxIterations": 2})
    st, _, evs2 = confirm(cl, tid, ask(evs), "modify", {"body": RECIPE})
    seen = until_kind(cl, tid, evs2, "quality")
    q = ask(seen)
    offered = [x["editable"]["body"] for x in data(seen, "ask_user") if x["context"]["kind"] == "content"]
    t.ok(len(offered) == 2 and all(RECIPE in b for b in offered),
         "note-low: the writer sent back twice keeps the person's recipe word for word")
    ch = [x["context"].get("changes") for x in data(seen, "ask_user") if x["context"]["kind"] == "content"]
    t.ok(ch and ch[0] and ch[0]["kept"] and ch[0]["removed"] == [],
         "  ... and says it kept the person's text (%s)" % (ch[0] if ch else None))
    if not t.ok(q and q["context"]["kind"] == "quality" and RECIPE in q["context"]["draft"]["body"],
                "  ... the quality pause offers a draft with the recipe"):
        return
    st, _, evs3 = confirm(cl, tid, q, "approve")
    done = data(evs3, "workflow_complete")
    t.ok(done and RECIPE in done[0]["body"] and done[0]["quality"]["publishedBy"] == "person",
         "  ... published with the recipe word for word")


def test_low_deadline(t, cl):
    """A quality pause left past its deadline stops, whatever hitl_default says."""
    st, _, evs, tid = start(cl, {"topic": "周末去杭州春游的攻略", "maxIterations": 0})
    seen = until_kind(cl, tid, evs, "quality")
    q = ask(seen)
    if not t.ok(q and q["context"]["kind"] == "quality" and q.get("deadline"), "a quality pause with a deadline"):
        return
    wait = q["deadline"] / 1000.0 - time.time() + 0.5
    if wait > 0:
        time.sleep(min(wait, 30))
    st, _, raw = cl.get("/api/agent/stream?threadId=" + tid, {"Last-Event-ID": "0"})
    th = state_of(cl, tid)
    t.ok(not data(events(raw), "workflow_complete") and th["status"] == "aborted" and
         th["state"]["creative"]["status"] == "aborted" and th["state"]["creative"]["body"] ==
         q["context"]["draft"]["body"],
         "  ... its deadline's default is to stop (hitl_default approve notwithstanding), the draft kept")


def low_suite(t, d):
    oa = avnotelow.low_fake(t)
    w = avnotelow.low_worker(t, d, oa, "low")
    cl = Direct(w)
    test_low_publish(t, cl)
    test_low_stop(t, cl)
    test_low_recipe(t, cl)
    w.kill()
    w = avnotelow.low_worker(t, d, oa, "lowdl", {"hitl_timeout_ms": "6000", "hitl_default": "approve"})
    test_low_deadline(t, Direct(w))
    w.kill()


def main(t):
    d = t.tmpdir("note")
    offline_suite(t, d)
    fake_suite(t, d)
    low_suite(t, d)
    lighttpd_suite(t, d)


avtest.run(main)
