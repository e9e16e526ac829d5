"""Editing a sent message and regenerating an answer in the chat workflow
(docs/api.md, chat: input.editOf, input.regenerate), through a real
lighttpd.

Offline: message events carry their ids (messageId, replyTo); an edit
marks the edited message and what followed superseded and goes on from
there; a regeneration asks the same question again; every earlier event
stays in the log; bad ids, the two together, text with regenerate, an id
already replaced, an edit on a new thread: 400 with a reason, the thread
untouched. Against a fake OpenAI-compatible model: what the model reads
after an edit has none of the replaced messages."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fake_models  # noqa: E402
from avevents import data, durable, events  # noqa: E402


def post(lt, obj):
    status, _, body = lt.request("POST", "/api/agent/stream", json.dumps(obj),
                                 {"Content-Type": "application/json"}, timeout=60)
    return status, body


class Chat:
    def __init__(self, lt):
        self.lt, self.tid = lt, None

    def turn(self, **inp):
        body = {"workflow": "chat", "input": inp}
        if self.tid:
            body["threadId"] = self.tid
        st, raw = post(self.lt, body)
        evs = events(raw) if st == 200 else []
        if self.tid is None and data(evs, "thread_start"):
            self.tid = data(evs, "thread_start")[0]["threadId"]
        return st, evs, raw

    def state(self):
        return json.loads(self.lt.request("GET", "/api/threads/" + self.tid)[2])["state"]

    def log(self):
        st, _, raw = self.lt.request("GET", "/api/agent/stream?threadId=%s&lastEventId=0" % self.tid)
        return events(raw)


def live(state):
    return [(m["id"], m["role"], m["content"]) for m in state["messages"] if not m.get("superseded")]


def test_offline(t, d):
    lt = avtest.Lighttpd(t, os.path.join(d, "off"), workers=2).start()
    c = Chat(lt)
    c.turn(text="hello", lang="en")
    st, evs, _ = c.turn(text="what time is it?")
    msg = data(evs, "message")[-1]
    t.is_((msg.get("replyTo"), msg.get("messageId")), ("m3", "m4"), "message: names its question and itself")
    before = len(durable(c.log()))

    st, evs, _ = c.turn(text="search the notes for 减脂餐", editOf="m3")
    t.is_(st, 200, "edit: 200")
    s = c.state()
    t.is_([(m["id"], bool(m.get("superseded"))) for m in s["messages"]],
          [("m1", False), ("m2", False), ("m3", True), ("m4", True), ("m5", False), ("m6", False)],
          "edit: the edited message and its answer are superseded, the new pair follows")
    t.is_(live(s)[2][2], "search the notes for 减脂餐", "edit: the new text is the question")
    t.is_(data(evs, "intent_detected")[-1].get("route"), "web_search", "edit: the new question is answered as itself")
    t.ok(len(durable(c.log())) > before, "edit: the log only grows")

    st, evs, _ = c.turn(regenerate="m6")
    t.is_(st, 200, "regenerate: 200")
    s = c.state()
    t.is_([m[:2] for m in live(s)], [("m1", "user"), ("m2", "assistant"), ("m7", "user"), ("m8", "assistant")],
          "regenerate: the answer and its question are replaced by a new pair")
    t.is_(live(s)[2][2], "search the notes for 减脂餐", "regenerate: the same question again")
    t.is_(data(evs, "message")[-1].get("replyTo"), "m7", "regenerate: the new answer names the new question")

    log_before = len(durable(c.log()))
    bad = [
        ({"text": "x", "editOf": "m99"}, "editOf: no message of yours named m99"),
        ({"text": "x", "editOf": "m8"}, "editOf: no message of yours named m8"),
        ({"text": "x", "editOf": "m3"}, "already replaced"),
        ({"text": "x", "editOf": 3}, "editOf must be the id"),
        ({"text": "x", "editOf": ""}, "editOf must be the id"),
        ({"regenerate": "m7"}, "regenerate: no answer named m7"),
        ({"regenerate": "m4"}, "already replaced"),
        ({"regenerate": "m8", "text": "y"}, "regenerate takes no text"),
        ({"text": "x", "editOf": "m7", "regenerate": "m8"}, "cannot go together"),
        ({"editOf": "m7"}, "send a message"),
        ({"text": "x", "editOf": "m" + "9" * 40}, "editOf must be the id"),
    ]
    for inp, why in bad:
        st, _, raw = c.turn(**inp)
        p = avtest.problem(raw) or {}
        t.ok(st == 400 and why in (p.get("detail") or ""), "refused %s: 400, %s (%s %s)" % (json.dumps(inp), why, st, p.get("detail")))
    t.is_(len(durable(c.log())), log_before, "refusals leave the log as it was")
    t.is_([m[0] for m in live(c.state())], ["m1", "m2", "m7", "m8"], "refusals leave the conversation as it was")
    fresh = Chat(lt)
    st, _, raw = fresh.turn(text="hi", editOf="m1")
    t.ok(st == 400 and "editOf" in ((avtest.problem(raw) or {}).get("detail") or ""), "an edit on a new thread: 400")


def test_model_context(t, d):
    key = "sk-test-chat-branch-0123456789"
    fake = fake_models.AssistantFake(key).start()
    t.cleanup(fake.stop)
    prov = {"kind": "openai", "base_url": fake.url + "/v1", "api_key": key, "retries": "0"}
    lt = avtest.Lighttpd(t, os.path.join(d, "fake"), workers=2, settings={
        "provider.chat": dict(prov), "cache": {"model_ttl": "0"}}).start()
    fake.modes.update({"route": "chat:0.9", "chat": "ok"})
    c = Chat(lt)
    c.turn(text="first question about apples")
    c.turn(text="second question about pears")
    fake.reset()
    fake.modes.update({"route": "chat:0.9", "chat": "ok"})
    st, evs, _ = c.turn(text="second question about plums", editOf="m3")
    t.is_(st, 200, "model edit: 200")
    chats = [r["body"] for r in fake.requests("/v1/chat/completions") if r["body"].get("stream")]
    said = json.dumps(chats[-1]["messages"], ensure_ascii=False) if chats else ""
    t.ok("apples" in said and "plums" in said and "pears" not in said,
         "model edit: the model reads the conversation before the edit and the new text, not the replaced one")
    fake.reset()
    fake.modes.update({"route": "chat:0.9", "chat": "ok"})
    st, evs, _ = c.turn(regenerate="m6")
    chats = [r["body"] for r in fake.requests("/v1/chat/completions") if r["body"].get("stream")]
    msgs = chats[-1]["messages"] if chats else []
    users = [m["content"] for m in msgs if m["role"] == "user"]
    t.is_(users, ["first question about apples", "second question about plums"],
          "model regenerate: the question once, after the conversation before it")


def main(t):
    d = t.tmpdir("chat_branch")
    test_offline(t, d)
    test_model_context(t, d)


if __name__ == "__main__":
    avtest.run(main)
