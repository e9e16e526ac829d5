"""The image workflow (seed 000) end to end through a real lighttpd with
the offline provider: text to image in Chinese and English, inpainting with
a real PNG mask, parameter adjustment on the previous result, input the
planner cannot use, the same thread one step per request across workers;
then against a fake OpenAI-compatible server: good JSON, JSON in a fence,
broken JSON (rules fallback), a planner timeout, a critic that never
passes (the retry loop) and an image provider that fails (error_handler).
Each run's event order is checked against the seed's."""

import base64
import http.server
import json
import os
import struct
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402
from avevents import data, events, nodes_run  # noqa: E402


def read_png_alpha(data):
    """The alpha channel of an 8-bit RGBA PNG (filter 0 rows), as rows."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    off, idat, w = 8, b"", 0
    while off + 8 <= len(data):
        n = struct.unpack("!I", data[off:off + 4])[0]
        kind = data[off + 4:off + 8]
        body = data[off + 8:off + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack("!IIBB", body[:10])
            if depth != 8 or ctype != 6:
                return None
        elif kind == b"IDAT":
            idat += body
        off += 12 + n
    raw = zlib.decompress(idat)
    stride = w * 4 + 1
    return [[raw[y * stride + 1 + x * 4 + 3] for x in range(w)] for y in range(len(raw) // stride)]


def post(lt, path, obj):
    status, hdrs, body = lt.request("POST", path, json.dumps(obj),
                                    {"Content-Type": "application/json"}, timeout=120)
    return status, hdrs, events(body)


def start(lt, inp):
    return post(lt, "/api/agent/stream", {"workflow": "image", "input": inp})


def picture_data_url(lt, url):
    """A stored picture (this server's asset URL) as a data URL of its bytes."""
    _, hdrs, body = lt.request("GET", "/" + url)
    return "data:%s;base64,%s" % (hdrs.get("content-type", "").split(";")[0],
                                  base64.b64encode(body).decode())


def check_order(t, evs, want_nodes, name):
    t.is_(nodes_run(evs), want_nodes, "%s: nodes in the seed's order" % name)
    types = [e["data"] if not isinstance(e["data"], dict) else e["data"]["type"] for e in evs]
    t.is_(types[0], "thread_start", "%s: thread_start first" % name)
    t.is_(types[-2:], ["workflow_complete", "[DONE]"], "%s: workflow_complete, then [DONE]" % name)
    ids = [int(e["id"]) for e in evs if "id" in e]
    t.is_(ids, list(range(1, len(ids) + 1)), "%s: durable ids without a gap" % name)


def components(evs):
    return {d["component"]["widgetType"]: d["component"]["props"]
            for d in data(evs, "gen_ui_component")}


def test_offline_suite(t, d):
    lt = avtest.Lighttpd(t, os.path.join(d, "off"), workers=2).start()

    st, _, evs = start(lt, {"text": "赛博朋克风格的猫"})
    t.is_(st, 200, "text to image (zh): 200")
    check_order(t, evs, ["planner", "rag", "executor", "critic", "genui"], "text to image (zh)")
    thoughts = [x["message"] for x in data(evs, "thought_log")]
    t.ok(any(m.startswith("已识别意图：generate_image") for m in thoughts),
         "planner says the intent in Chinese")
    t.ok(any("赛博朋克" in m for m in thoughts if m.startswith("检索到")),
         "rag retrieved the cyberpunk style (%s)" % [m for m in thoughts if "检索" in m])
    t.ok(any(m.startswith("质量审查完成") for m in thoughts), "critic reports its score")
    comps = components(evs)
    t.ok(set(comps) >= {"SmartCanvas", "ActionPanel", "AgentMessage"}, "genui sends the three components")
    url = comps.get("SmartCanvas", {}).get("imageUrl", "")
    status, hdrs, body = lt.request("GET", "/" + url)
    t.ok(status == 200 and hdrs.get("content-type", "").startswith("image/svg+xml"),
         "the picture is served from the store (%s)" % url)
    t.like(hdrs.get("content-security-policy", ""), "default-src 'none'", "with a restrictive CSP")
    t.ok(b"<script" not in body and b"<svg" in body, "an SVG with no script in it")
    progress = [x for x in data(evs, "image_progress")]
    t.ok(progress and all(p.get("id") is None for p in progress), "image_progress events stream live")
    tid = data(evs, "thread_start")[0]["threadId"]
    status, _, body = lt.request("GET", "/api/threads/" + tid)
    state = json.loads(body)["state"]
    t.is_(state["executionResult"]["taskType"], "text_to_image", "executionResult.taskType")
    t.ok("cyberpunk" in state["enhancedPrompt"]["final"].lower(),
         "the final prompt carries the retrieved fragment")

    st, _, evs2 = start(lt, {"text": "cyberpunk cat"})
    check_order(t, evs2, ["planner", "rag", "executor", "critic", "genui"], "text to image (en)")
    t.ok(any(m["message"].startswith("intent: generate_image") for m in data(evs2, "thought_log")),
         "an English request gets English thoughts")

    mask = avpng.data_url(avpng.mask())
    # A new thread sends the picture itself: another thread's asset is refused.
    st, _, evs3 = start(lt, {"text": "把左边换成机械头盔",
                             "maskData": {"base64": mask, "imageUrl": picture_data_url(lt, url),
                                          "coordinates": [{"x": 1, "y": 2}]}})
    check_order(t, evs3, ["planner", "rag", "executor", "critic", "genui"], "inpainting")
    tid3 = data(evs3, "thread_start")[0]["threadId"]
    state3 = json.loads(lt.request("GET", "/api/threads/" + tid3)[2])["state"]
    t.is_(state3["intent"]["action"], "inpainting", "a mask makes it inpainting")
    t.is_(state3["intent"]["confidence"], 0.9, "with confidence 0.9")
    t.ok(state3["userInput"].get("maskAsset") and "base64" not in json.dumps(state3["userInput"]),
         "the checkpoint holds the mask's asset id, not its bytes")
    out = lt.request("GET", "/" + state3["executionResult"]["imageUrl"])[2]
    t.ok(b"<mask" in out and out.count(b"data:image/") >= 2,
         "the result composites a new rendering through the mask over the base image")

    st, _, evs4 = post(lt, "/api/agent/stream", {"threadId": tid,
                                                 "input": {"text": "再调整一下，风格强度 90"}})
    t.is_(nodes_run(evs4), ["planner", "rag", "executor", "critic", "genui"],
          "adjust: a new turn runs the whole graph again")
    state4 = json.loads(lt.request("GET", "/api/threads/" + tid)[2])["state"]
    t.is_(state4["intent"]["action"], "adjust_parameters", "再调整一下 on a previous result: adjust")
    t.is_(state4["executionResult"]["taskType"], "parameter_adjustment", "taskType parameter_adjustment")
    t.is_(state4["params"]["styleStrength"], 90, "the style strength asked for")

    st, _, evs5 = start(lt, {"text": "😀😀😀"})
    check_order(t, evs5, ["planner", "error_handler"], "unknown input")
    errs = data(evs5, "error")
    t.ok(errs and errs[0]["code"] == "unknown_intent" and errs[0]["node"] == "planner",
         "error event {code, message, node}")
    t.is_(components(evs5).get("AgentMessage", {}).get("state"), "failed",
          "a friendly AgentMessage in state failed")

    status, _, body = lt.request("POST", "/api/agent/stream",
                                 json.dumps({"workflow": "image", "input": {"text": ""}}),
                                 {"Content-Type": "application/json"})
    p = avtest.problem(body) or {}
    t.ok(status == 400 and "maskData" in p.get("detail", ""), "empty text and no mask: 400 saying "
         "what to send")
    status, _, body = lt.request("POST", "/api/agent/stream", json.dumps(
        {"workflow": "image", "input": {"text": "x", "maskData": {"base64": "!!!", "imageUrl": url}}}),
        {"Content-Type": "application/json"})
    t.is_(status, 400, "a mask that is not base64: 400")
    lt.stop()


def test_one_step_suite(t, d):
    lt = avtest.Lighttpd(t, os.path.join(d, "spr"), workers=3,
                         settings={"engine": {"steps_per_request": "1"}}).start()
    st, hdrs, evs = start(lt, {"text": "水彩风格的山水"})
    tid = data(evs, "thread_start")[0]["threadId"]
    seen = [e for e in evs if "id" in e]
    for _ in range(40):
        if any(e["data"] == "[DONE]" for e in evs):
            break
        status, hdrs, body = lt.request("GET", "/api/agent/stream?threadId=" + tid,
                                        headers={"Last-Event-ID": seen[-1]["id"]})
        evs = events(body)
        seen += [e for e in evs if "id" in e]
    t.ok(any(e["data"] == "[DONE]" for e in evs), "steps_per_request=1: the image thread completes")
    t.is_([int(e["id"]) for e in seen], list(range(1, len(seen) + 1)),
          "one step per request: no gap, no repeat")
    t.is_([d["node"] for d in data(seen, "agent_start")],
          ["planner", "rag", "executor", "critic", "genui"], "and the seed's order")
    lt.stop()


class Fake:
    """An OpenAI-compatible chat and image server whose behaviour the test sets."""

    def __init__(self):
        self.mode = {"intent": "good", "critique": "pass", "image": "ok"}
        self.calls = []
        fake = self

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(n)
                self.raw = raw
                if self.path.endswith("/images/edits"):
                    return fake.edit(self)
                req = json.loads(raw or b"{}")
                fake.calls.append((self.path, req))
                if self.path.endswith("/images/generations"):
                    return fake.image(self, req)
                system = (req.get("messages") or [{}])[0].get("content", "")
                task = "critique" if "审查" in system else "intent"
                fake.chat(self, task)

            def log_message(self, *a):
                pass
        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d" % self.srv.server_address[1]

    def reply(self, h, status, obj):
        body = json.dumps(obj).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def chat(self, h, task):
        mode = self.mode[task]
        if mode == "stall":
            time.sleep(3)
        if task == "intent":
            content = {
                "good": json.dumps({"action": "generate_image", "subject": "猫", "style": "赛博朋克",
                                    "confidence": 0.92, "reasoning": "明确的生图请求"}),
                "fenced": "好的：\n```json\n" + json.dumps({"action": "generate_image",
                          "subject": "cat", "style": "watercolor", "confidence": 0.8,
                          "reasoning": "fenced"}) + "\n```",
                "broken": "{action: generate_image, 这不是 JSON",
                "stall": "{}",
            }[mode]
        else:
            content = json.dumps({"passed": mode == "pass", "score": 0.9 if mode == "pass" else 0.3,
                                  "feedback": "ok" if mode == "pass" else "主体不清晰",
                                  "suggestions": [] if mode == "pass" else ["增加主体描述"]})
        self.reply(h, 200, {"choices": [{"message": {"role": "assistant", "content": content}}],
                            "usage": {"total_tokens": 10}})

    def edit(self, h):
        """images/edits: a multipart form; the mask's transparent pixels
        are the area to repaint."""
        import email.parser
        msg = email.parser.BytesParser().parsebytes(
            b"Content-Type: " + h.headers["Content-Type"].encode() + b"\r\n\r\n" + h.raw)
        parts = {p.get_param("name", header="content-disposition"): p.get_payload(decode=True)
                 for p in msg.get_payload()}
        self.calls.append((h.path, {k: (v if k not in ("image", "mask") else len(v))
                                    for k, v in parts.items()}))
        self.last_mask = read_png_alpha(parts.get("mask", b""))
        self.reply(h, 200, {"data": [{"b64_json": base64.b64encode(avpng.mask(16, 16)).decode()}]})

    def image(self, h, req):
        if self.mode["image"] == "fail":
            return self.reply(h, 500, {"error": {"message": "boom"}})
        self.reply(h, 200, {"data": [{"b64_json": base64.b64encode(avpng.mask(16, 16)).decode()}]})


def test_fake_suite(t, d):
    fake = Fake()
    t.cleanup(fake.srv.shutdown)
    key = "sk-test-image-0123456789"
    prov = {"kind": "openai", "base_url": fake.url, "api_key": key, "retries": "0"}
    lt = avtest.Lighttpd(t, os.path.join(d, "fake"), workers=2, settings={
        "provider.chat": dict(prov), "provider.image": dict(prov),
        "workflow.image": {"planner_timeout_ms": "1000"}, "cache": {"model_ttl": "0"}}).start()

    def run(name, text="赛博朋克风格的猫", **extra):
        st, _, evs = start(lt, dict({"text": text}, **extra))
        tid = data(evs, "thread_start")[0]["threadId"]
        return evs, json.loads(lt.request("GET", "/api/threads/" + tid)[2])["state"]

    evs, state = run("good")
    t.is_(state["intent"]["subject"], "猫", "fake model, good JSON: the model's intent is used")
    check_order(t, evs, ["planner", "rag", "executor", "critic", "genui"], "fake model")
    t.is_(state["executionResult"]["metadata"]["mime"], "image/png", "the provider's PNG is stored")
    fake.mode["intent"] = "fenced"
    evs, state = run("fenced")
    t.is_(state["intent"]["style"], "watercolor", "JSON in a ```json fence is parsed")
    fake.mode["intent"] = "broken"
    evs, state = run("broken")
    t.ok(state["intent"]["action"] == "generate_image" and "不是 JSON" in state["intent"]["rawResponse"],
         "broken JSON: the rules decide, the raw answer is kept")
    fake.mode["intent"] = "stall"
    evs, state = run("stall")
    t.is_(nodes_run(evs), ["planner", "error_handler"], "a planner timeout goes to error_handler")
    t.is_(data(evs, "error")[0]["code"], "planner_timeout", "with code planner_timeout")
    fake.mode["intent"] = "good"
    fake.mode["critique"] = "fail"
    evs, state = run("critic")
    t.is_(nodes_run(evs), ["planner"] + ["rag", "executor", "critic"] * 4 + ["genui"],
          "a critic that never passes: back to rag three times, then genui")
    t.is_(state["metadata"]["retryCount"], 3, "metadata.retryCount counts the retries")
    t.is_(state["qualityCheck"]["passed"], False, "genui even if not passed")
    fake.mode["critique"] = "pass"
    evs, state = run("critic bounded", width=2048, height=128)
    q = state["qualityCheck"]
    t.ok(q["passed"] is False and q["score"] <= 0.5,
         "a model's 0.9 for a 16:1 picture is bounded by the critic's checks (%s)" % q)
    t.ok(q.get("ruleDefects") and q["feedback"].startswith(q["ruleDefects"][0]),
         "  ... the checks' reason comes first (%s)" % q.get("feedback"))
    t.is_(nodes_run(evs), ["planner"] + ["rag", "executor", "critic"] * 4 + ["genui"],
          "  ... and the picture goes back through the loop")
    evs, state = run("critic clean")
    t.ok(state["qualityCheck"]["passed"] and state["qualityCheck"]["score"] == 0.9
         and "ruleDefects" not in state["qualityCheck"],
         "a clean prompt keeps the model's score (%s)" % state["qualityCheck"])
    fake.mode["image"] = "fail"
    evs, state = run("image fails")
    t.is_(nodes_run(evs), ["planner", "rag"] + ["executor"] * 4 + ["error_handler"],
          "an image provider that fails: three retries, then error_handler")
    t.is_(data(evs, "error")[0]["code"], "executor_failed", "with code executor_failed")
    leaked = any(key in json.dumps(e["data"]) for e in evs)
    fake.mode["image"] = "ok"
    evs, state = run("generate for the repaint")
    url = state["executionResult"]["imageUrl"]
    mask = avpng.data_url(avpng.mask(16, 16))
    st, _, evs = start(lt, {"text": "把右半边换成星空", "maskData": {
        "base64": mask, "imageUrl": picture_data_url(lt, url)}})
    tid = data(evs, "thread_start")[0]["threadId"]
    state = json.loads(lt.request("GET", "/api/threads/" + tid)[2])["state"]
    edits = [c for c in fake.calls if c[0].endswith("/images/edits")]
    t.ok(state["executionResult"] and state["executionResult"]["taskType"] == "inpainting",
         "inpainting through an OpenAI-compatible provider: done (images/edits)")
    t.ok(edits and edits[-1][1].get("prompt") and edits[-1][1].get("image") and edits[-1][1].get("mask"),
         "the provider got the prompt, the image and the mask as a multipart form")
    alpha = fake.last_mask
    t.ok(alpha and alpha[0][0] == 255 and alpha[0][15] == 0,
         "the painted (white) area reached the provider as transparent, the rest opaque")
    t.ok(not leaked, "the API key appears in no event")
    lt.stop()


def main(t):
    d = t.tmpdir("image")
    test_offline_suite(t, d)
    test_one_step_suite(t, d)
    test_fake_suite(t, d)


avtest.run(main)
