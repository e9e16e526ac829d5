"""The chat workflow (seed 004) through a real lighttpd.

Offline: each route (a picture, a search over the local notes that says it
is offline, the time checked against the clock, plain chat, a note request
suggesting the note view), the route's
intent_detected, streamed replies as message_delta then one durable
message, workflow_complete's fields, multi-turn history bounded by
[workflow.chat] history_turns, gates off.
Against a fake OpenAI-compatible service (tests/lib/fake_models.py
AssistantFake): the model's route taken; a reply that does not parse and a
low confidence falling back to the rules; an image provider that fails
(search check, then chat); search empty (the search-chat fallback); search
failing (chat); a stream cut in the middle of a UTF-8 sequence; a client
that reconnects in the middle of a streamed reply.
POST /api/threads/{id}/cancel: mid-reply through another worker (the
reply cut, what was said kept, status aborted), and on threads of any
workflow with no live run (aborted at once)."""

import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
import base64  # noqa: E402
import fake_models  # noqa: E402
from avevents import data, durable, events, nodes_run, types  # noqa: E402


def post(lt, obj, timeout=60):
    status, _, body = lt.request("POST", "/api/agent/stream", json.dumps(obj),
                                 {"Content-Type": "application/json"}, timeout=timeout)
    return status, events(body)


class Chat:
    """One conversation: turn() posts a user turn and returns its events."""

    def __init__(self, lt):
        self.lt, self.tid = lt, None

    def turn(self, text, **extra):
        body = {"workflow": "chat", "input": dict({"text": text}, **extra)}
        if self.tid:
            body["threadId"] = self.tid
        st, evs = post(self.lt, body)
        if self.tid is None and data(evs, "thread_start"):
            self.tid = data(evs, "thread_start")[0]["threadId"]
        return st, evs

    def state(self):
        return json.loads(self.lt.request("GET", "/api/threads/" + self.tid)[2])["state"]


def one(evs, kind):
    got = data(evs, kind)
    return got[-1] if got else {}


def check_turn(t, evs, name, route, source=None):
    intent = one(evs, "intent_detected")
    done = one(evs, "workflow_complete")
    t.is_(intent.get("route"), route, "%s: intent_detected route" % name)
    if source:
        t.is_(intent.get("source"), source, "%s: intent_detected source" % name)
    t.ok(isinstance(intent.get("confidence"), (int, float)) and intent.get("reason"),
         "%s: confidence and a reason" % name)
    t.is_(sorted(k for k in ("content", "toolCalls", "route", "routeSource") if k in done),
          ["content", "route", "routeSource", "toolCalls"], "%s: workflow_complete fields" % name)
    msgs = data(evs, "message")
    t.is_(len(msgs), 1, "%s: one durable message" % name)
    t.is_(msgs[0].get("content") if msgs else None, done.get("content"),
          "%s: the message is the answer" % name)
    t.is_(types(evs)[-1], "[DONE]", "%s: the stream ends with [DONE]" % name)
    ids = [int(e["id"]) for e in durable(evs)]
    t.ok(ids == list(range(ids[0], ids[0] + len(ids))), "%s: durable ids without a gap" % name)
    return done


def deltas(evs):
    return "".join(d["content"] for d in data(evs, "message_delta"))


def png_attachment(w, h, rgb):
    return {"name": "p.png", "mimeType": "image/png",
            "data": "data:image/png;base64," + base64.b64encode(avpng.solid(w, h, rgb)).decode()}


def test_vision_offline(t, lt, c):
    """Picture turns offline: the image reader stands in for vision."""
    st, evs = c.turn("这张图里有什么？", attachments=[png_attachment(8, 6, (200, 40, 40))])
    done = check_turn(t, evs, "picture turn", "chat", "rules")
    t.is_(nodes_run(evs), ["router", "vision", "chat"], "picture turn: vision, then chat")
    t.ok("8×6" in done["content"] and "#" in done["content"],
         "picture turn: the reader's size and colours: %s" % done["content"][:120])
    t.ok("看不到" in done["content"], "picture turn offline: says what it cannot see")
    t.is_([x["tool"] for x in done["toolCalls"]], ["vision"], "picture turn: toolCalls records vision")

    st, evs = c.turn("这个东西现在的价格是多少", attachments=[png_attachment(4, 4, (10, 200, 10))])
    done = check_turn(t, evs, "picture + search", "web_search", "rules")
    t.is_(nodes_run(evs), ["router", "vision", "web_search", "chat"],
          "picture + search intent: vision, search, then chat")

    st, evs = c.turn("帮我画一只戴帽子的柴犬")
    check_turn(t, evs, "picture to describe", "image_gen")
    st, evs = c.turn("描述一下刚才生成的图片")
    done = check_turn(t, evs, "describe the last picture", "chat", "rules")
    t.is_(nodes_run(evs), ["router", "vision", "chat"], "描述一下刚才生成的图片: the last picture is read")
    t.ok("image/svg+xml" in done["content"], "the last picture is the one generated (an SVG)")

    for name, att in (("bad base64", {"data": "data:image/png;base64,@@@"}),
                      ("not an image", {"data": base64.b64encode(b"hello world").decode()}),
                      ("private url", {"url": "http://127.0.0.1:1/x.png"}),
                      ("both", {"data": "x", "url": "y"}), ("too many", None)):
        atts = [png_attachment(2, 2, (0, 0, 0))] * 5 if att is None else [att]
        st, _ = post(lt, {"workflow": "chat", "input": {"text": "看图", "attachments": atts}})
        t.is_(st, 400, "attachments, %s: 400" % name)


def test_offline_suite(t, d):
    lt = avtest.Lighttpd(t, os.path.join(d, "off"), workers=2, settings={
        "workflow.chat": {"history_turns": "2", "timezone": "Asia/Shanghai"}}).start()
    c = Chat(lt)

    st, evs = c.turn("你好")
    t.is_(st, 200, "offline chat: 200")
    done = check_turn(t, evs, "offline chat", "chat", "rules")
    t.is_(nodes_run(evs), ["router", "chat"], "offline chat: router, then chat")
    t.ok(deltas(evs) == done["content"] and len(data(evs, "message_delta")) > 1,
         "offline chat: the deltas make the whole reply")
    t.ok(all("id" not in e for e in evs if isinstance(e["data"], dict)
             and e["data"]["type"] == "message_delta"), "message_delta events are ephemeral")
    t.ok("suggest" not in done and "suggest" not in one(evs, "message"),
         "offline chat: a greeting suggests nothing")

    # A request for a Xiaohongshu note: the reply says what the assistant
    # can do, and a code lets the page point to the note view.
    st, evs = c.turn("帮我写一篇关于周末露营装备的小红书笔记")
    done = check_turn(t, evs, "note request", "chat", "rules")
    t.is_((done.get("suggest"), one(evs, "message").get("suggest")), ("note", "note"),
          "note request: workflow_complete and the message suggest the note view")
    t.ok("小红书笔记" in done["content"] and "笔记写作" not in done["content"]
         and "页" not in done["content"],
         "note request: the reply says what can be done, naming no page: %s" % done["content"])

    before = int(time.time())
    st, evs = c.turn("现在几点")
    after = int(time.time())
    done = check_turn(t, evs, "time", "time_query", "rules")
    t.ok(not data(evs, "message_delta"), "time: no model, nothing streamed")
    facts = c.state()["time"]
    t.ok(before <= facts["unix"] <= after, "time: the Unix timestamp is the clock's")
    want = time.strftime("%Y年%-m月%-d日", time.gmtime(facts["unix"] + 8 * 3600))
    t.ok(want in done["content"] and "Asia/Shanghai" in done["content"] and "+0800" in done["content"],
         "time: the date in the configured zone: %s" % done["content"])
    t.ok(str(facts["unix"]) in done["content"], "time: the answer says the timestamp")
    t.is_(done["toolCalls"][0]["tool"], "time_query", "time: toolCalls records the clock")

    st, evs = c.turn("帮我画一只水彩风格的猫")
    done = check_turn(t, evs, "image", "image_gen", "rules")
    url = done.get("generatedImageUrl", "")
    t.ok(url.startswith("api/assets/"), "image: generatedImageUrl is an asset of ours")
    t.ok("![" not in done["content"], "image: no Markdown image in the text")
    t.ok(any(p["content"].startswith("🎨") for p in data(evs, "progress")), "image: the progress message")
    st2, hdrs, body = lt.request("GET", "/" + url)
    t.ok(st2 == 200 and body[:5] in (b"<?xml", b"<svg "), "image: the asset is served")

    st, evs = c.turn("搜一下最近的育儿新闻")
    done = check_turn(t, evs, "offline search", "web_search", "rules")
    t.is_(nodes_run(evs), ["router", "web_search", "chat"], "offline search: web_search, then chat")
    t.ok(any("离线" in p["content"] for p in data(evs, "progress")), "offline search says it is offline")
    tc = done["toolCalls"][0]
    t.is_((tc["tool"], tc["input"]["query"], tc["input"]["source"]),
          ("web_search", "搜一下最近的育儿新闻", "notes_corpus"), "offline search: toolCalls records the query")
    t.ok(data(evs, "tool_call") and data(evs, "tool_result"), "offline search: tool_call and tool_result")

    test_vision_offline(t, lt, c)

    hist = c.state()["messages"]
    t.ok(len(hist) <= 2 * 2 + 2, "history bounded by history_turns: %d messages kept" % len(hist))
    t.is_(hist[-1]["role"], "assistant", "history ends with the last answer")

    st, evs = post(lt, {"workflow": "chat", "input": {"text": "   "}})
    t.is_(st, 400, "an empty message: 400")
    lt.stop()

    lt = avtest.Lighttpd(t, os.path.join(d, "gated"), workers=1, settings={
        "workflow.chat": {"image_gen": "off", "web_search": "off"}}).start()
    st, evs = Chat(lt).turn("帮我画一只猫")
    check_turn(t, evs, "image off", "chat")
    st, evs = Chat(lt).turn("搜一下今天的新闻")
    check_turn(t, evs, "search off", "chat")
    lt.stop()


def test_fake_suite(t, d):
    key = "sk-test-chat-0123456789"
    fake = fake_models.AssistantFake(key).start()
    t.cleanup(fake.stop)
    prov = {"kind": "openai", "base_url": fake.url + "/v1", "api_key": key, "retries": "0"}
    lt = avtest.Lighttpd(t, os.path.join(d, "fake"), workers=2, settings={
        "provider.chat": dict(prov), "provider.image": dict(prov), "provider.search": dict(prov),
        "provider.vision": dict(prov), "cache": {"model_ttl": "0"}}).start()

    def run(name, text, **modes):
        fake.reset()
        fake.modes.update({"route": "chat:0.9", "chat": "ok", "search": "facts", "image": "ok"})
        fake.modes.update(modes)
        return Chat(lt).turn(text)

    st, evs = run("model", "画饼", route="chat:0.9")
    done = check_turn(t, evs, "model route", "chat", "model")
    t.is_(one(evs, "intent_detected")["reason"], fake_models.ROUTE_REASON, "model route: its reason")
    t.is_(done["content"], fake_models.ASSISTANT_TEXT, "model route: the streamed answer whole")
    t.is_(deltas(evs), fake_models.ASSISTANT_TEXT, "model route: the deltas make the answer")

    st, evs = run("note", "Please write a Xiaohongshu post about camping gear", route="chat:0.9")
    done = check_turn(t, evs, "model, note request", "chat", "model")
    t.is_((done.get("suggest"), done["content"]), ("note", fake_models.ASSISTANT_TEXT),
          "model, note request: the model's answer, and the suggestion all the same")

    st, evs = run("badjson", "帮我画一只猫", route="badjson")
    check_turn(t, evs, "bad JSON", "image_gen", "rules")
    st, evs = run("unsure", "现在几点", route="chat:0.3")
    check_turn(t, evs, "low confidence", "time_query", "rules")
    st, evs = run("router down", "搜一下今天的新闻", route="error")
    check_turn(t, evs, "router down", "web_search", "rules")

    st, evs = run("image", "画一只猫", route="image_gen:0.95")
    done = check_turn(t, evs, "image", "image_gen", "model")
    t.ok(done.get("generatedImageUrl", "").startswith("api/assets/"), "image: an asset URL")
    prompts = [r["body"]["prompt"] for r in fake.requests("/v1/images/generations")]
    t.is_(prompts, [fake_models.IMAGE_PROMPT], "image: the model's rewritten prompt was drawn")

    st, evs = run("image fails, search", "画一张今天的新闻海报", route="image_gen:0.95", image="fail")
    done = check_turn(t, evs, "image fails", "image_gen", "model")
    t.is_(nodes_run(evs), ["router", "image_gen", "web_search", "chat"],
          "image fails: the search check finds search, then chat")
    t.is_(done["route"], "web_search", "image fails: answered by search")
    t.ok("generatedImageUrl" not in done, "image fails: no picture")
    st, evs = run("image fails, chat", "画一只猫", route="image_gen:0.95", image="fail")
    t.is_(nodes_run(evs), ["router", "image_gen", "chat"], "image fails, no search intent: chat")

    st, evs = run("search", "搜一下杭州天气", route="web_search:0.9")
    done = check_turn(t, evs, "search", "web_search", "model")
    chats = [r["body"] for r in fake.requests("/v1/chat/completions") if r["body"].get("stream")]
    t.ok(chats and fake_models.SEARCH_TEXT in chats[-1]["messages"][0]["content"],
         "search: the facts are in the chat model's system message")
    t.is_([tc["tool"] for tc in done["toolCalls"]], ["web_search"], "search: toolCalls")
    t.is_(done["toolCalls"][0]["input"]["query"], "搜一下杭州天气", "search: the query recorded")

    st, evs = run("search empty", "搜一下杭州天气", route="web_search:0.9", search="empty_once")
    done = check_turn(t, evs, "search empty", "web_search", "model")
    t.is_(len([r for r in fake.requests() if r["body"] and r["body"].get("enable_search")]), 2,
          "search empty: the search-chat fallback asked again")
    t.is_(done["toolCalls"][0]["input"]["source"], "search_chat", "search empty: facts from the fallback")

    st, evs = run("search fails", "搜一下杭州天气", route="web_search:0.9", search="fail")
    done = check_turn(t, evs, "search fails", "web_search", "model")
    t.is_(nodes_run(evs), ["router", "web_search", "chat"], "search fails: chat answers")
    t.is_(done["route"], "chat", "search fails: the answer is chat's")

    st, evs = run("cut", "讲个故事", route="chat:0.9", chat="cut")
    msgs = data(evs, "message")
    t.is_([m["content"] for m in msgs], [fake_models.CUT_KEEPS],
          "cut mid-UTF-8: what was said is kept as the message, no broken character")
    t.is_(one(evs, "error").get("code"), "reply_cut", "cut mid-UTF-8: the turn says the reply stopped")

    fake.reset()
    fake.modes.update({"chat": "ok"})
    st, evs = Chat(lt).turn("图里是什么", attachments=[png_attachment(3, 3, (255, 0, 0))])
    done = check_turn(t, evs, "vision model", "chat", "rules")
    chats = [r["body"] for r in fake.requests("/v1/chat/completions") if r["body"].get("stream")]
    t.ok(chats and fake_models.VISION_TEXT in chats[-1]["messages"][0]["content"],
         "vision model: its description is in the chat model's system message")
    t.ok(done["toolCalls"] == [{"tool": "vision", "input": {"images": 1}, "ok": True}],
         "vision model: toolCalls records it")

    test_reconnect(t, lt, fake)
    test_cancel_live(t, lt, fake)
    lt.stop()


def test_reconnect(t, lt, fake):
    """A client leaves after the first delta and comes back: nothing of the
    deltas is replayed, the whole message arrives once."""
    fake.reset()
    fake.modes.update({"route": "chat:0.9", "chat": "slow"})
    body = json.dumps({"workflow": "chat", "input": {"text": "慢慢说"}})
    resp = avtest.http_open(lt.port, "POST", "/api/agent/stream", body,
                            {"Content-Type": "application/json"}, timeout=30)
    seen, tid, last = [], None, None
    for ev in avtest.SSEReader(resp):
        seen.append(ev)
        if isinstance(ev["data"], dict):
            if ev["data"]["type"] == "thread_start":
                tid = ev["data"]["threadId"]
            if "id" in ev:
                last = ev["id"]
            if ev["data"]["type"] == "message_delta":
                break
    resp.close()
    t.ok(tid and any(isinstance(e["data"], dict) and e["data"]["type"] == "message_delta" for e in seen),
         "reconnect: the first delta arrived before leaving")
    st, _, raw = lt.request("GET", "/api/agent/stream?threadId=%s" % tid, None,
                            {"Last-Event-ID": last}, timeout=60)
    evs = events(raw)
    t.is_(st, 200, "reconnect: 200")
    t.is_(data(evs, "message_delta"), [], "reconnect: no delta replayed")
    t.is_([m["content"] for m in data(evs, "message")], [fake_models.ASSISTANT_TEXT],
          "reconnect: the whole message, once")
    t.is_(types(evs)[-1], "[DONE]", "reconnect: the stream ends with [DONE]")


def cancel_post(lt, tid):
    st, _, body = lt.request("POST", "/api/threads/%s/cancel" % tid, b"", {})
    return st, json.loads(body)


def test_cancel_live(t, lt, fake):
    """A cancel sent (through another worker) while a reply streams: the
    run stops at the model call's next tick, what was said is the message,
    the status is aborted."""
    fake.reset()
    fake.modes.update({"route": "chat:0.9", "chat": "slow"})
    body = json.dumps({"workflow": "chat", "input": {"text": "讲一个很长的故事"}})
    resp = avtest.http_open(lt.port, "POST", "/api/agent/stream", body,
                            {"Content-Type": "application/json"}, timeout=30)
    seen, tid, answer, t0 = [], None, None, None
    for ev in avtest.SSEReader(resp):
        seen.append(ev)
        d = ev["data"]
        if isinstance(d, dict) and d["type"] == "thread_start":
            tid = d["threadId"]
        if isinstance(d, dict) and d["type"] == "message_delta" and answer is None:
            t0 = time.monotonic()
            answer = cancel_post(lt, tid)
    resp.close()
    took = time.monotonic() - t0 if t0 else None
    t.is_(answer and answer[0], 202, "cancel mid-reply: 202, requested")
    t.is_(answer and answer[1].get("cancel"), "requested", "cancel mid-reply: the answer says requested")
    t.ok(took is not None and took < 2.0, "cancel mid-reply: the stream ended %.2f s later" % (took or -1))
    said = "".join(e["data"]["content"] for e in seen
                   if isinstance(e["data"], dict) and e["data"]["type"] == "message_delta")
    msgs = [e["data"]["content"] for e in seen if isinstance(e["data"], dict) and e["data"]["type"] == "message"]
    t.ok(msgs == [said] and said and said != fake_models.ASSISTANT_TEXT,
         "cancel mid-reply: what was said is kept as the message (%r)" % (msgs,))
    errs = [e["data"] for e in seen if isinstance(e["data"], dict) and e["data"]["type"] == "error"]
    t.is_([e["code"] for e in errs], ["cancelled"], "cancel mid-reply: an error event, cancelled")
    t.is_(seen[-1]["data"], "[DONE]", "cancel mid-reply: [DONE]")
    view = json.loads(lt.request("GET", "/api/threads/" + tid)[2])
    t.is_(view["status"], "aborted", "cancel mid-reply: status aborted")
    t.is_(view["state"]["messages"][-1]["content"], said, "cancel mid-reply: the history keeps what was said")
    st, _ = cancel_post(lt, tid)
    t.is_(st, 409, "cancel of an aborted thread: 409")
    fake.modes.update({"chat": "ok"})
    again = Chat(lt)
    again.tid = tid
    st, evs = again.turn("接着说")
    done = check_turn(t, evs, "a turn after the cancel", "chat", "model")
    t.is_(done["content"], fake_models.ASSISTANT_TEXT, "a turn after the cancel: answered whole")
    st, evs = Chat(lt).turn("x")  # a new thread still works after a cancel
    t.is_(st, 200, "after a cancel, new threads run")


def test_cancel_idle(t, d):
    """Threads with no live run are aborted by the request itself, whatever
    their workflow: one that yielded between steps, a new turn after it."""
    lt = avtest.Lighttpd(t, os.path.join(d, "cancel"), workers=2, settings={
        "engine": {"steps_per_request": "1"}}).start()
    for wf, text in (("chat", "你好"), ("image", "一只猫")):
        st, evs = post(lt, {"workflow": wf, "input": {"text": text}})
        tid = data(evs, "thread_start")[0]["threadId"]
        t.ok(data(evs, "workflow_yield"), "%s: one step, then a yield" % wf)
        st, ans = cancel_post(lt, tid)
        t.is_((st, ans.get("status"), ans.get("cancel")), (200, "aborted", "done"),
              "%s: a yielded thread is aborted at once" % wf)
        st, _, raw = lt.request("GET", "/api/agent/stream?threadId=%s" % tid, None,
                                {"Last-Event-ID": data(evs, "thread_start") and
                                 str(max(int(e["id"]) for e in durable(evs)))}, timeout=30)
        got = events(raw)
        t.is_([x["code"] for x in data(got, "error")], ["cancelled"], "%s: the log says cancelled" % wf)
        t.is_(types(got)[-1], "[DONE]", "%s: the stream of an aborted thread ends with [DONE]" % wf)
        t.ok(not data(got, "agent_start"), "%s: no step ran after the cancel" % wf)
    st, _, body = lt.request("POST", "/api/threads/v1.AAAAAAAAAAAAAAAAAAAAAA.AAAA/cancel", b"", {})
    t.is_(st, 403, "cancel with a bad signature: 403")
    lt.stop()


def main(t):
    d = t.tmpdir("chat")
    test_offline_suite(t, d)
    test_cancel_idle(t, d)
    test_fake_suite(t, d)


if __name__ == "__main__":
    avtest.run(main)
