#!/usr/bin/env python3
"""What reaches clients when model providers fail, through the worker and
the image workflow against fake services (tests/lib/fake_models.py):

- a chat service whose 401 repeats the key (whole after "Bearer", or cut
  and masked): no part of the key in the events, the thread's state, GET
  /api/threads/{id} or its history; the worker's log has the provider's
  words with the key scrubbed;
- an image service whose answer links to 127.0.0.1, or to a trusted host
  that redirects there: nothing is fetched from the loopback address, the
  step fails with a generic message that names no address;
- a chat service that answers HTTP 400 with words of its own: the chat
  workflow's durable error event says what failed in the same generic
  words as the other workflows; the provider's words are in the log only.
"""

import json
import os
import secrets
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fake_models as fm  # noqa: E402
from avevents import events  # noqa: E402

KEY = "sk-test-" + secrets.token_hex(16)
KEY_ENV = "PROVERR_API_KEY"


def run_thread(t, w, text):
    r = w.request("POST", "/api/agent/stream", body=json.dumps({"workflow": "image",
                  "input": {"text": text}}), headers={"Content-Type": "application/json"},
                  timeout=60)
    evs = events(r.body)
    start = [e["data"] for e in evs if isinstance(e["data"], dict) and
             e["data"].get("type") == "thread_start"]
    tid = start[0]["threadId"] if start else ""
    thread = w.request("GET", "/api/threads/" + tid)
    hist = w.request("GET", "/api/threads/%s/history" % tid)
    return r, evs, thread, hist


def errors(evs):
    return [e["data"] for e in evs if isinstance(e["data"], dict) and e["data"].get("type") == "error"]


def case(t, d, oa, name, chat_model, image_model):
    settings = {"cache": {"model_ttl": "0"}, "workflow.image": {"max_retries": "0"}}
    for role, model in (("chat", chat_model), ("image", image_model)):
        settings["provider." + role] = {"kind": "openai", "base_url": oa.url + "/v1", "model": model,
                                        "api_key_env": KEY_ENV, "retries": "0", "timeout_ms": "5000"}
    w = avtest.Worker(t, d, name=name, settings=settings, env={KEY_ENV: KEY}).start()
    oa.reset()
    r, evs, thread, hist = run_thread(t, w, "a red cat on a roof")
    t.is_(r.status, 200, "%s: the thread runs" % name)
    w.kill()
    with open(w.log, encoding="utf-8", errors="replace") as f:
        log = f.read()
    return r, evs, thread, hist, log


def test_key_echo(t, d, oa):
    for model in ("echo-key", "echo-key-masked"):
        r, evs, thread, hist, log = case(t, d, oa, model, model, "img-b64")
        t.ok(oa.requests("/v1/chat/completions"), "%s: the chat service was asked" % model)
        for what, text in (("events", r.body.decode("utf-8", "replace")),
                           ("GET /api/threads/{id}", thread.body.decode("utf-8", "replace")),
                           ("history", hist.body.decode("utf-8", "replace"))):
            leaks = avtest.secret_parts(KEY, text)
            if not t.ok(not leaks, "%s: no part of the key in the %s" % (model, what)):
                t.diag("found %r" % leaks)
            t.ok("Incorrect API key" not in text, "%s: nor the provider's words in the %s" % (model, what))
        lines = [line for line in log.splitlines() if "Incorrect API key" in line]
        t.ok(lines and all("***" in line for line in lines),
             "%s: the worker's log has the provider's words, the key scrubbed" % model)
        if not t.ok(not avtest.secret_parts(KEY, log), "%s: no part of the key in the worker's log" % model):
            t.diag("found %r" % avtest.secret_parts(KEY, log))


def test_loopback_links(t, d, oa):
    for model, name in (("img-url-loopback", "a link to 127.0.0.1"),
                        ("img-url-redirect", "a link redirecting to 127.0.0.1")):
        r, evs, thread, hist, log = case(t, d, oa, model, "json", model)
        t.ok(oa.requests("/v1/images/generations"), "%s: the image service was asked" % name)
        t.is_(oa.requests("/files/a.png"), [], "%s: nothing fetched from the loopback address" % name)
        errs = errors(evs)
        t.ok(errs and errs[0].get("code") == "executor_failed",
             "%s: the step fails (executor_failed)" % name)
        text = r.body.decode("utf-8", "replace") + thread.body.decode("utf-8", "replace")
        port = oa.url.rsplit(":", 1)[1]
        t.ok("127.0.0.1" not in text and "localhost" not in text and port not in text,
             "%s: no address in the events or the state" % name)
        t.ok("not public" in log, "%s: the worker's log says why" % name)


def test_chat_refused(t, d, oa):
    settings = {"cache": {"model_ttl": "0"},
                "provider.chat": {"kind": "openai", "base_url": oa.url + "/v1", "model": "script",
                                  "api_key_env": KEY_ENV, "retries": "0", "timeout_ms": "5000"}}
    w = avtest.Worker(t, d, name="chat-400", settings=settings, env={KEY_ENV: KEY}).start()
    oa.reset()
    r = w.request("POST", "/api/agent/stream", body=json.dumps({"workflow": "chat", "input": {
        "text": "tell me a story about a lighthouse"}}), headers={"Content-Type": "application/json"},
        timeout=60)
    evs = events(r.body)
    start = [e["data"] for e in evs if isinstance(e["data"], dict) and
             e["data"].get("type") == "thread_start"]
    tid = start[0]["threadId"] if start else ""
    hist = w.request("GET", "/api/threads/%s/history" % tid)
    w.kill()
    with open(w.log, encoding="utf-8", errors="replace") as f:
        log = f.read()
    t.ok(oa.requests("/v1/chat/completions"), "chat 400: the chat service was asked")
    errs = errors(evs)
    t.ok(errs and errs[-1].get("code") == "chat_failed", "chat 400: the turn fails (chat_failed)")
    detail = errs[-1].get("detail", "") if errs else ""
    t.ok("refused" in detail, "chat 400: the error says the provider refused (%s)" % detail)
    for what, text in (("the error event", detail), ("the events", r.body.decode("utf-8", "replace")),
                       ("the history", hist.body.decode("utf-8", "replace"))):
        t.ok("answered HTTP" not in text and "no scripted reply" not in text,
             "chat 400: no word of the provider's in %s" % what)
    t.ok("no scripted reply left" in log, "chat 400: the worker's log has the provider's words")


def main(t):
    oa = fm.OpenAIFake(KEY).start()
    t.cleanup(oa.stop)
    d = t.tmpdir("proverr")
    test_key_echo(t, d, oa)
    test_loopback_links(t, d, oa)
    test_chat_refused(t, d, oa)


avtest.run(main)
