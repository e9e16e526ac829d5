"""The note workflow's tools beyond research (seed 001 §8), offline,
through a worker: every tool_call has one tool_result after it with the
same toolCallId, tool and agent. The supervisor records the request with
managePrompt (set), ranks the note templates (recommendTemplates: the
chosen one first, the scores in [0, 1]), records the feedback of a
rejected draft (set) and shows the writer's brief before the writer runs
(get); its clarification pause is an askUser call whose result, after
/confirm, is the person's answer. The image agent calls
generate_images_batch for several plans without a reference and
generate_with_reference per plan with one; the results name the assets
workflow_complete lists. Pictures drawn offline take the reference's
colours: an orange and a blue reference give pictures in their colours,
the same reference the same picture, none neither colour; a reference
whose pixels cannot be read here (JPEG) is said so.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402
from avevents import data, events, last_ask as ask, types  # noqa: E402

TOPIC = "周末去杭州春游的攻略"
ORANGE, BLUE = (240, 140, 60), (30, 60, 200)


def post(w, path, obj):
    r = w.request("POST", path, body=json.dumps(obj), headers={"Content-Type": "application/json"},
                  timeout=120)
    return r.status, events(r.body)


def start(w, inp):
    st, evs = post(w, "/api/agent/stream", {"workflow": "note", "input": inp})
    ts = data(evs, "thread_start")
    return st, evs, ts[0]["threadId"] if ts else None


def confirm(w, tid, q, action, payload=None):
    body = {"threadId": tid, "interruptId": q["interruptId"], "action": action}
    if payload is not None:
        body["payload"] = payload
    return post(w, "/api/agent/confirm", body)[1]


def finish(w, tid, evs, limit=8):
    """Approves every pause until the thread ends; all events in order."""
    seen = list(evs)
    for _ in range(limit):
        q = ask(evs)
        if q is None or "workflow_paused" not in types(evs):
            break
        evs = confirm(w, tid, q, "approve")
        seen += evs
    return seen


def state_of(w, tid):
    r = w.request("GET", "/api/threads/" + tid, timeout=60)
    return json.loads(r.body)["state"] if r.status == 200 else {}


def asset(w, url):
    r = w.request("GET", "/" + url, timeout=60)
    return r.body if r.status == 200 else b""


def colours(svg):
    return set(re.findall(r"#[0-9a-f]{6}", svg.decode("utf-8", "replace").lower()))


def hexof(rgb):
    return "#%02x%02x%02x" % rgb


def pairs(t, evs, name):
    """Checks the pairs; {toolCallId: (call, result)}."""
    seq = [d for d in data(evs) if d["type"] in ("tool_call", "tool_result")]
    calls, out, bad = {}, {}, []
    for d in seq:
        i = d["toolCallId"]
        if d["type"] == "tool_call":
            if i in calls:
                bad.append("call %s twice" % i)
            calls[i] = d
        elif i not in calls or i in out:
            bad.append("result %s without its call, or twice" % i)
        else:
            c = calls[i]
            if (c["tool"], c["agent"]) != (d["tool"], d["agent"]):
                bad.append("result %s: %s/%s for %s/%s" % (i, d["tool"], d["agent"], c["tool"], c["agent"]))
            out[i] = (c, d)
    bad += ["call %s has no result" % i for i in calls if i not in out]
    t.is_(bad, [], "%s: each tool_call has one tool_result after it (same id, tool, agent)" % name)
    return out


def of(ps, agent, tool=None):
    return [p for p in ps.values() if p[0]["agent"] == agent and (tool is None or p[0]["tool"] == tool)]


def test_plain(t, w):
    st, evs, tid = start(w, {"topic": TOPIC})
    t.is_(st, 200, "plain: started")
    q = ask(evs)
    evs2 = confirm(w, tid, q, "reject", {"feedback": "多写一些路线安排"})
    seen = finish(w, tid, evs2, 8)
    ps = pairs(t, evs + seen, "plain")
    stt = state_of(w, tid)

    sup = [ps[c["toolCallId"]] for c in data(evs, "tool_call")
           if c["agent"] == "supervisor" and c["toolCallId"] in ps]
    if not t.is_([c["tool"] for c, _ in sup], ["managePrompt", "recommendTemplates", "managePrompt"],
                 "supervisor: managePrompt (set), recommendTemplates, managePrompt (get) before the "
                 "first draft"):
        return b""
    c0, r0 = sup[0]
    t.ok(c0["toolInput"].get("action") == "set" and c0["toolInput"].get("changes") == {"topic": TOPIC} and
         r0["toolOutput"].get("prompt", {}).get("topic") == TOPIC and r0["toolOutput"].get("version") == 1,
         "managePrompt set: the request's topic, version 1")
    c1, r1 = sup[1]
    tpl = r1["toolOutput"].get("templates") or []
    scores = [x.get("score") for x in tpl]
    t.ok(c1["toolInput"] == {"topic": TOPIC} and tpl and tpl[0]["template"] == "旅行" and
         r1["toolOutput"].get("chosen") == "旅行" and all(0 <= s <= 1 for s in scores) and
         tpl[-1]["template"] == "经验分享" and tpl[-1]["score"] == 0 and tpl[0]["headings"],
         "recommendTemplates: 旅行 chosen, first, with its headings; scores in [0, 1]; the general one last "
         "(%s)" % ", ".join("%s %s" % (x.get("template"), x.get("score")) for x in tpl))
    t.is_((stt.get("noteTemplate") or {}).get("template"), "旅行", "the state keeps the chosen template")

    c2, r2 = sup[2]
    p = r2["toolOutput"].get("prompt", {})
    t.ok(c2["toolInput"] == {"action": "get", "for": "writer_agent"} and p.get("topic") == TOPIC and
         p.get("keywords") == stt["creativeBrief"]["keywords"] and p.get("audience") ==
         stt["creativeBrief"]["audience"] and p.get("template", {}).get("template") == "旅行",
         "managePrompt get: the brief the writer uses (topic, audience, keywords, template)")
    order = [(d["type"], d.get("tool"), d.get("toolInput", {}).get("action")) for d in data(evs)]
    t.ok(order.index(("tool_call", "managePrompt", "get")) < order.index(("content_update", None, None)),
         "managePrompt get comes before the writer's draft")

    fb = [pr for pr in of(ps, "supervisor", "managePrompt") if pr[0]["toolInput"].get("reason") ==
          "feedback on the draft"]
    t.ok(fb and "多写一些路线安排" in fb[0][0]["toolInput"]["changes"]["feedback"] and
         fb[0][1]["toolOutput"]["version"] == 2,
         "a rejected draft's feedback is recorded with managePrompt set (version 2)")

    img = of(ps, "image_agent")
    plans = stt["imagePlans"]
    t.is_([c["tool"] for c, _ in img], ["generate_images_batch"], "image agent: one batch, no reference")
    c, r = img[0] if img else ({"toolInput": {}}, {"toolOutput": {}})
    t.is_([(x["sequence"], x["prompt"]) for x in c["toolInput"].get("plans", [])],
          [(x["sequence"], x["prompt"]) for x in plans], "generate_images_batch: the plans, as planned")
    done = data(seen, "workflow_complete")
    t.ok(done and [x["assetId"] for x in r["toolOutput"].get("images", [])] == done[-1]["imageAssetIds"]
         and r["toolOutput"].get("done") == len(plans) and r["toolOutput"].get("failed") == 0,
         "generate_images_batch: the result names the assets workflow_complete lists")
    return asset(w, r["toolOutput"]["images"][0]["url"]) if r["toolOutput"].get("images") else b""


def run_ref(t, w, rgb, name):
    ref = avpng.data_url(avpng.solid(24, 24, rgb))
    st, evs, tid = start(w, {"topic": TOPIC, "referenceImages": [ref]})
    seen = finish(w, tid, evs)
    ps = pairs(t, seen, name)
    stt = state_of(w, tid)
    img = of(ps, "image_agent")
    plans = stt.get("imagePlans", [])
    t.is_([c["tool"] for c, _ in img], ["generate_with_reference"] * len(plans),
          "%s: generate_with_reference for each of the %d plans" % (name, len(plans)))
    t.ok(img and all(c["toolInput"].get("referenceImage") == stt["referenceImages"][0] and
                     r["toolOutput"].get("referenceUsed") is True and
                     r["toolOutput"].get("sequence") == c["toolInput"].get("sequence")
                     for c, r in img),
         "%s: each call names the reference; each result says it was used" % name)
    done = data(seen, "workflow_complete")
    t.ok(done and [r["toolOutput"]["assetId"] for _, r in img] == done[-1]["imageAssetIds"],
         "%s: the results name the assets workflow_complete lists" % name)
    return asset(w, img[0][1]["toolOutput"]["url"]) if img else b""


def test_reference(t, w, plain):
    orange = run_ref(t, w, ORANGE, "orange reference")
    blue = run_ref(t, w, BLUE, "blue reference")
    again = run_ref(t, w, ORANGE, "orange again")
    co, cb, cp = colours(orange), colours(blue), colours(plain)
    t.ok(hexof(ORANGE) in co and hexof(BLUE) not in co,
         "the orange reference's picture is drawn in its orange (%s)" % " ".join(sorted(co)[:8]))
    t.ok(hexof(BLUE) in cb and hexof(ORANGE) not in cb,
         "the blue reference's picture is drawn in its blue (%s)" % " ".join(sorted(cb)[:8]))
    t.ok(plain and hexof(ORANGE) not in cp and hexof(BLUE) not in cp, "without a reference: neither colour")
    t.ok(orange and orange == again, "the same reference, the same picture")
    t.ok(orange != blue, "two references, two pictures")

    jpeg = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP//////////////////////////" \
           "////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAA" \
           "AAAAAAAAAAAAAAAAAP/aAAgBAQABPxA="
    st, evs, tid = start(w, {"topic": TOPIC, "referenceImages": [jpeg]})
    if not t.is_(st, 200, "a JPEG reference: accepted"):
        return
    seen = finish(w, tid, evs)
    img = of(pairs(t, seen, "JPEG reference"), "image_agent")
    t.ok(img and all(c["tool"] == "generate_with_reference" and r["toolOutput"].get("referenceUsed") is False
                     and "image/jpeg" in r["toolOutput"].get("referenceNote", "") for c, r in img),
         "a JPEG reference offline: sent, not used, and the result says why (%s)" %
         (img and img[0][1]["toolOutput"].get("referenceNote")))


def test_clarification(t, w):
    st, evs, tid = start(w, {"topic": "写点东西"})
    q = ask(evs)
    calls = data(evs, "tool_call")
    au = [c for c in calls if c["tool"] == "askUser"]
    t.ok(au and au[0]["agent"] == "supervisor" and au[0]["toolInput"].get("question") == q["question"] and
         au[0]["toolInput"].get("options") == q["options"] and au[0]["toolInput"].get("key") == "topic",
         "a clarification pause: askUser with the question and options ask_user shows")
    t.ok(not [r for r in data(evs, "tool_result") if r["tool"] == "askUser"],
         "askUser has no result while the thread waits")
    t.is_([c["tool"] for c in calls], ["managePrompt", "askUser"],
          "no templates are ranked for a request without a subject")
    evs2 = confirm(w, tid, q, "approve", {"feedback": "周末杭州春游攻略"})
    ps = pairs(t, evs + evs2, "clarification")
    r = [p[1] for p in ps.values() if p[0]["tool"] == "askUser"]
    t.ok(r and r[0]["toolCallId"] == au[0]["toolCallId"] and r[0]["toolOutput"] ==
         {"key": "topic", "action": "approve", "answer": "周末杭州春游攻略"},
         "after /confirm: askUser's result is the answer, with the call's id")
    mp = [p for p in ps.values() if p[0]["tool"] == "managePrompt" and
          p[0]["toolInput"].get("reason") == "clarified topic"]
    t.ok(mp and mp[0][0]["toolInput"]["changes"] == {"topic": "周末杭州春游攻略"} and
         mp[0][1]["toolOutput"]["version"] == 2, "managePrompt set: the clarified topic, version 2")
    rt = [p for p in ps.values() if p[0]["tool"] == "recommendTemplates" and
          p[0]["toolInput"] == {"topic": "周末杭州春游攻略"}]
    t.ok(rt and rt[0][1]["toolOutput"]["chosen"] == "旅行", "the templates are ranked again for it: 旅行")
    finish(w, tid, evs2)


def main(t):
    d = t.tmpdir("note_tools")
    w = avtest.Worker(t, d).start()
    plain = test_plain(t, w)
    test_reference(t, w, plain)
    test_clarification(t, w)
    w.kill()


avtest.run(main)
