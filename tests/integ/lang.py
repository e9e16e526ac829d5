"""Every thread has a language, and what the server writes for people is
in it: image and note threads started with Chinese, English and
emoji-only text, with input.lang and with Accept-Language only, run
offline to their end (each pause answered by another worker than the one
that paused). Each people-facing text of every event (thought logs,
agent_start and agent_end, the pause's question and option labels,
workflow_paused, decisions and the supervisor's reasons, error messages, yields) is in the thread's
language: Han in a Chinese thread, none in an English one, and never the
two side by side (" · "). GET /api/threads/{id} says the language; a
language other than zh or en is a 400 bad_lang."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, events, last_ask, types  # noqa: E402

# (workflow, input, Accept-Language, the thread's language, what)
CASES = [
    ("image", {"text": "一只在海边奔跑的金毛犬"}, None, "zh", "Chinese text"),
    ("image", {"text": "a lighthouse at dawn"}, "zh-CN,zh;q=0.9", "en", "English text over the header"),
    ("image", {"text": "🐱🌊✨"}, None, "zh", "emoji only, no header"),
    ("image", {"text": "🐱🌊✨"}, "en-US,en;q=0.9", "en", "emoji only, Accept-Language en"),
    ("image", {"text": "一只在海边奔跑的金毛犬", "lang": "en"}, None, "en", "input.lang en, Chinese text"),
    ("note", {"topic": "杭州周末美食探店攻略"}, None, "zh", "Chinese topic"),
    ("note", {"topic": "A weekend hiking trip in the Alps"}, None, "en", "English topic"),
    ("note", {"topic": "杭州周末美食探店攻略", "lang": "en"}, "zh-CN", "en", "input.lang en, Chinese topic"),
    ("note", {"topic": "A weekend hiking trip in the Alps", "lang": "zh"}, None, "zh",
     "input.lang zh, English topic"),
]


def has_han(s):
    return any(0x4E00 <= ord(ch) <= 0x9FFF or 0x3400 <= ord(ch) <= 0x4DBF for ch in s)


def people_texts(ev):
    """(where, text) of each text of ev written for people."""
    kind = ev.get("type")
    out = []
    if kind == "thought_log":
        out.append(("thought_log.message", ev.get("message")))
    elif kind in ("agent_start", "agent_end", "workflow_paused", "workflow_yield"):
        out.append((kind + ".content", ev.get("content")))
    elif kind == "ask_user":
        out.append(("ask_user.question", ev.get("question")))
        for o in ev.get("options") or []:
            out.append(("ask_user option %s" % o.get("id"), o.get("label")))
    elif kind == "supervisor_decision":
        out.append(("supervisor_decision.reason", ev.get("reason")))
    elif kind == "error":
        out.append(("error.message", ev.get("message")))
    return out


class Client:
    def __init__(self, w):
        self.w = w

    def post(self, path, obj, accept=None):
        headers = {"Content-Type": "application/json"}
        if accept:
            headers["Accept-Language"] = accept
        r = self.w.request("POST", path, body=json.dumps(obj), headers=headers, timeout=120)
        return r.status, r.body

    def get(self, path):
        r = self.w.request("GET", path, timeout=60)
        return r.status, r.body


def run_thread(a, b, wf, inp, accept):
    """Starts the thread on a, answers each pause on the other worker (the
    first approve carries a feedback, the image plans are approved); all
    events, the thread id and the number of answers."""
    st, body = a.post("/api/agent/stream", {"workflow": wf, "input": inp}, accept)
    evs = events(body)
    start = data(evs, "thread_start")
    tid = start[0]["threadId"] if start else None
    seen, answers, cl = list(evs), 0, [b, a]
    while tid and "workflow_paused" in types(evs) and answers < 6:
        q = last_ask(evs)
        payload = {"feedback": "ok"} if answers == 0 else None
        req = {"threadId": tid, "interruptId": q["interruptId"], "action": "approve"}
        if payload:
            req["payload"] = payload
        st, body = cl[answers % 2].post("/api/agent/confirm", req)
        evs = events(body)
        seen += evs
        answers += 1
    return st, seen, tid, answers


def test_thread(t, a, b, wf, inp, accept, lang, what):
    st, evs, tid, answers = run_thread(a, b, wf, inp, accept)
    if not t.ok(tid is not None, "%s (%s): the thread started" % (what, wf)):
        return
    bad = []
    n = 0
    for ev in data(evs):
        for where, text in people_texts(ev):
            n += 1
            if not isinstance(text, str) or not text:
                bad.append("%s: missing" % where)
            elif " · " in text:
                bad.append("%s: two languages: %r" % (where, text))
            elif (lang == "zh") != has_han(text):
                bad.append("%s: not %s: %r" % (where, lang, text))
    t.ok(n >= 6 and not bad, "%s (%s): %d texts for people, all in %s" % (what, wf, n, lang))
    for line in bad[:8]:
        t.diag(line)
    starts = [d.get("content", "") for d in data(evs, "agent_start")]
    first = {"image": {"zh": "意图分析师开始工作…", "en": "The intent planner is starting…"},
             "note": {"zh": "主管开始工作…", "en": "The supervisor is starting…"}}[wf][lang]
    t.is_(starts[0] if starts else None, first, "%s (%s): agent_start names the agent" % (what, wf))
    if wf == "note":
        t.ok(answers >= 2, "%s: paused and resumed on another worker %d times" % (what, answers))
        labels = [o.get("label") for q in data(evs, "ask_user") for o in q.get("options") or []]
        want = {"zh": "继续", "en": "Continue"}[lang]
        t.ok(want in labels, "%s: the approve option is labelled %r" % (what, want))
        dec = [d.get("message") for d in data(evs, "thought_log") if d.get("decision")]
        t.ok(dec and all(m == {"zh": "已收到你的决定", "en": "Your decision is received"}[lang] for m in dec),
             "%s: each decision is acknowledged in %s" % (what, lang))
    st, body = b.get("/api/threads/" + tid)
    view = json.loads(body) if st == 200 else {}
    t.is_(view.get("lang"), lang, "%s (%s): GET /api/threads says lang %s" % (what, wf, lang))
    t.ok(view.get("status") in ("done", "error", "aborted"),
         "%s (%s): the thread ended (%s)" % (what, wf, view.get("status")))


def test_turn_keeps_lang(t, a, b):
    """A later image turn in other words keeps the thread's language."""
    st, body = a.post("/api/agent/stream", {"workflow": "image", "input": {"text": "a lighthouse at dawn"}})
    tid = data(events(body), "thread_start")[0]["threadId"]
    st, body = b.post("/api/agent/stream", {"threadId": tid, "input": {"text": "再调整一下，风格强度 90"}})
    texts = [x for ev in data(events(body)) for _, x in people_texts(ev)]
    t.ok(st == 200 and texts and not any(has_han(x or "") for x in texts),
         "a Chinese turn in an English image thread is answered in English (%d texts)" % len(texts))


def test_bad_lang(t, a):
    for lang in ("fr", "ZH", "", 5):
        st, body = a.post("/api/agent/stream", {"workflow": "note", "input": {"topic": "x", "lang": lang}})
        code = json.loads(body).get("code") if st == 400 else None
        t.ok(st == 400 and code == "bad_lang", "input.lang %r: 400 bad_lang (%s %s)" % (lang, st, code))


def main(t):
    d = t.tmpdir("lang")
    wa = avtest.Worker(t, d, name="a").start()
    wb = avtest.Worker(t, d, name="b").start()
    a, b = Client(wa), Client(wb)
    for wf, inp, accept, lang, what in CASES:
        test_thread(t, a, b, wf, inp, accept, lang, what)
    test_turn_keeps_lang(t, a, b)
    test_bad_lang(t, a)


avtest.run(main)
