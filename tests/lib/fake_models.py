"""Fake model services for the provider tests, Python standard library
only, each on 127.0.0.1 on a port of its own, run in a thread of the test.

OpenAIFake speaks the OpenAI-compatible API under /v1 (chat completions,
images, embeddings); DashScopeFake speaks DashScope's image generation
(answered at once, or as a task to poll) and, under /compatible-mode/v1,
the same chat completions (Qwen's web search). What a fake does is chosen
by the model name of each request (see CHAT_MODELS and the handlers).
Both record every request they get (method, path, headers, parsed body,
time), so a test can check what was sent and how often; both serve the
images they link to under /files/, small real PNGs made here. Their links
name the host "localhost" (link_url), not the address of their API (url),
so a test can trust one and not the other under [fetch] allow_hosts;
/files/to-<name> redirects to a file of the same name at 127.0.0.1,
/files/via-<name> to the same at localhost.
"""

import base64
import email.parser
import json
import re
import socket
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import avpng


PNG_A = avpng.solid(8, 6, (200, 40, 40))      # what OpenAIFake serves
PNG_B = avpng.solid(5, 7, (30, 120, 220))     # what DashScopeFake serves

PLAIN_TEXT = "Hello from the fake model."
JSON_TEXT = '{"action": "generate_image", "subject": "cat", "confidence": 0.9}'
FENCED_TEXT = ('Here is the analysis:\n```json\n{"action": "inpainting", "subject": "sky", '
               '"confidence": 0.8}\n```\nAnything else?')
BAD_JSON_TEXT = "The action is generate_image {oops, not json"
STREAM_PIECES = ["你好", "，世界！", "这是一段", "流式回复。", "Streaming works: ", "第三段，完。"]
STREAM_TEXT = "".join(STREAM_PIECES)
SEARCH_TEXT = "Facts: 杭州今天晴，最高气温 25°C（来源：气象台，2024-05-01）。"
HUGE_LEN = 200000
USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
CHUNK_BYTES = (5, 7, 3, 11)   # the stream goes out in writes of these sizes, in turn

# Chat behaviours by model name.
CHAT_MODELS = {
    "plain": "a plain answer",
    "json": "a JSON object",
    "fenced": "a JSON object in a ```json fence, inside prose",
    "badjson": "text that holds no JSON object",
    "stream": "streamed in pieces cut inside UTF-8 sequences and lines, usage last",
    "stream-bad": "streamed, with a malformed chunk after the first piece",
    "stream-plain": "a plain JSON answer even when a stream is asked for",
    "ratelimit-once": "429 with Retry-After: 1 once, then the plain answer",
    "ratelimit-always": "429 with Retry-After: 1, always",
    "error-once": "500 once, then the plain answer",
    "error-always": "500, always",
    "stall": "waits 5 s before answering",
    "slow": "waits 1 s, then the plain answer",
    "huge": "an answer of %d bytes" % HUGE_LEN,
    "echo-key": "401 whose message repeats the key it got",
    "echo-key-masked": "401 whose message repeats the key cut and masked, as OpenAI does",
    "search": "facts, if enable_search was sent (else 400)",
    "script": "the next of the replies the test queued with script() (400 when none is left)",
    "note-low": "the note workflow's reviewer scoring every draft low (NOTE_LOW_REVIEW); "
                "every other role of it an empty object (the workflow's rules answer)",
}

# What the "note-low" reviewer answers, whatever the draft.
NOTE_LOW_REVIEW = {"approved": False,
                   "scores": {"infoDensity": 0.3, "readability": 0.4, "platformFit": 0.4,
                              "textImageAlignment": 0.5, "styleConsistency": 0.5},
                   "overall": 0.4, "failReasons": ["内容太单薄，读者学不到东西"],
                   "suggestions": ["补充具体的做法和数字"], "feedback": "不建议发布"}


# Embeddings ("emb-tri"): words stand for the meaning they are listed
# with, so that texts sharing no word can share a meaning.
MEANINGS = {"dusk": "evening", "sunset": "evening", "twilight": "evening", "evening": "evening",
            "kitten": "cat", "feline": "cat", "cat": "cat",
            "blizzard": "snow", "frost": "snow", "snow": "snow"}
EMBED_DIM = 256


def trigram_vector(text):
    """A deterministic vector: each word (its meaning when MEANINGS has
    one; each CJK character on its own) adds its character trigrams,
    hashed into EMBED_DIM numbers."""
    vec = [0.0] * EMBED_DIM
    for word in re.findall(r"[a-z0-9]+|[^\x00-\x7f]", text.lower()):
        word = "#%s#" % MEANINGS.get(word, word)
        for i in range(max(1, len(word) - 2)):
            vec[zlib.crc32(word[i:i + 3].encode()) % EMBED_DIM] += 1.0
    return vec


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass    # a client that went away (a timeout test) is not news


class FakeBase:
    """A fake service: start(), url, requests(), count(), reset(), stop()."""

    def __init__(self, key):
        self.key = key
        self._lock = threading.Lock()
        self._requests = []
        self._counts = {}
        self.tasks = {}
        self._server = None
        self._thread = None

    def start(self):
        fake = self

        class Handler(self.handler_class):
            pass

        Handler.fake = fake
        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self._server.server_address[1]

    @property
    def link_url(self):
        """The same service by the name links use."""
        return "http://localhost:%d" % self._server.server_address[1]

    def record(self, req):
        with self._lock:
            self._requests.append(req)

    def requests(self, path=None):
        """The requests received so far (to path, if given), oldest first."""
        with self._lock:
            return [r for r in self._requests if path is None or r["path"] == path]

    def count(self, key):
        """How many times count(key) was called, this call included."""
        with self._lock:
            self._counts[key] = self._counts.get(key, 0) + 1
            return self._counts[key]

    def reset(self):
        with self._lock:
            self._requests = []
            self._counts = {}
            self.tasks = {}
            self._script = []

    def script(self, *texts):
        """Queues replies for the model "script": each chat request to it
        takes the next one, in order."""
        with self._lock:
            self._script = getattr(self, "_script", []) + list(texts)

    def next_scripted(self):
        """The next queued reply, or None."""
        with self._lock:
            q = getattr(self, "_script", [])
            return q.pop(0) if q else None


class HandlerBase(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fake = None

    def log_message(self, fmt, *args):
        pass

    def setup(self):
        super().setup()
        # Every write of a stream leaves at once, so the client really gets it in pieces.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    # -- plumbing --------------------------------------------------------------------

    def _read(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.req = {"method": self.command, "path": self.path.split("?")[0],
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body, "raw": raw, "time": time.monotonic()}
        self.fake.record(self.req)
        return body

    def send_bytes(self, status, data, ctype, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:
            pass

    def send_json(self, status, obj, headers=None):
        self.send_bytes(status, json.dumps(obj, ensure_ascii=False).encode(),
                        "application/json", headers)

    def authorized(self):
        """Checks the bearer key; answers 401 (and returns False) when wrong."""
        if self.req["headers"].get("authorization") == "Bearer " + self.fake.key:
            return True
        self.send_json(401, {"error": {"message": "Incorrect API key provided",
                                       "type": "invalid_request_error"}})
        return False

    def serve_file(self):
        name = self.path.split("/")[-1]
        for prefix, base in (("to-", self.fake.url), ("via-", self.fake.link_url)):
            if name.startswith(prefix):
                self.send_bytes(302, b"", "text/plain",
                                {"Location": "%s/files/%s" % (base, name[len(prefix):])})
                return
        if name in self.files:
            data, ctype = self.files[name]
            self.send_bytes(200, data, ctype)
        else:
            self.send_json(404, {"error": {"message": "no such file"}})

    def do_GET(self):
        self._read()
        if self.path.startswith("/files/"):
            self.serve_file()
        else:
            self.get()

    def do_POST(self):
        body = self._read()
        if not self.authorized():
            return
        if not isinstance(body, dict) and not self.req["headers"].get(
                "content-type", "").startswith("multipart/form-data"):
            self.send_json(400, {"error": {"message": "the body is not a JSON object"}})
            return
        self.post(body)

    def get(self):
        self.send_json(404, {"error": {"message": "not found"}})

    # -- chat completions, shared by both fakes ------------------------------------------

    def completion(self, model, text, usage=True):
        obj = {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
               "choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": text}}]}
        if usage:
            obj["usage"] = USAGE
        return obj

    def stream(self, model, pieces, bad=False):
        events = [{"choices": [{"index": 0, "delta": {"role": "assistant"}}]}]
        events += [{"choices": [{"index": 0, "delta": {"content": p}}]} for p in pieces]
        events.append({"choices": [], "usage": USAGE})
        raw = b": keep-alive\n\n"
        for i, ev in enumerate(events):
            raw += b"data: " + json.dumps(ev, ensure_ascii=False).encode() + b"\n\n"
            if bad and i == 1:
                raw += b"data: {\"choices\": [oops\n\n"
        raw += b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        at, i = 0, 0
        try:
            while at < len(raw):
                n = CHUNK_BYTES[i % len(CHUNK_BYTES)]
                self.wfile.write(raw[at:at + n])
                self.wfile.flush()
                at, i = at + n, i + 1
                time.sleep(0.002)
        except OSError:
            pass

    def chat(self, body):
        model = body.get("model", "")
        n = self.fake.count(model)
        if model == "plain" or model == "slow" or model == "stall":
            if model != "plain":
                time.sleep(1 if model == "slow" else 5)
            self.send_json(200, self.completion(model, PLAIN_TEXT))
        elif model in ("json", "fenced", "badjson"):
            text = {"json": JSON_TEXT, "fenced": FENCED_TEXT, "badjson": BAD_JSON_TEXT}[model]
            self.send_json(200, self.completion(model, text))
        elif model in ("stream", "stream-bad") and body.get("stream"):
            self.stream(model, STREAM_PIECES, bad=model == "stream-bad")
        elif model in ("stream", "stream-plain"):
            self.send_json(200, self.completion(model, STREAM_TEXT))
        elif model.startswith("ratelimit-") and (n == 1 or model == "ratelimit-always"):
            self.send_json(429, {"error": {"message": "Rate limit reached, slow down"}},
                           {"Retry-After": "1"})
        elif model.startswith("error-") and (n == 1 or model == "error-always"):
            self.send_json(500, {"error": {"message": "internal failure"}})
        elif model in ("ratelimit-once", "error-once"):
            self.send_json(200, self.completion(model, PLAIN_TEXT))
        elif model == "huge":
            self.send_json(200, self.completion(model, "x" * HUGE_LEN))
        elif model == "echo-key":
            got = self.req["headers"].get("authorization", "")
            self.send_json(401, {"error": {"message": "Incorrect API key provided: %s" % got}})
        elif model == "echo-key-masked":
            key = self.req["headers"].get("authorization", "").split(" ")[-1]
            cut = key[:8] + "*" * (len(key) - 12) + key[-4:]
            self.send_json(401, {"error": {"message": "Incorrect API key provided: %s. Or: %s...%s"
                                           % (cut, key[:5], key[-3:])}})
        elif model == "script":
            text = self.fake.next_scripted()
            if text is None:
                self.send_json(400, {"error": {"message": "no scripted reply left"}})
            else:
                self.send_json(200, self.completion(model, text))
        elif model == "note-low":
            system = ((body.get("messages") or [{}])[0] or {}).get("content") or ""
            reply = NOTE_LOW_REVIEW if "质量审核员" in system else {}
            self.send_json(200, self.completion(model, json.dumps(reply, ensure_ascii=False)))
        elif model == "search":
            if body.get("enable_search") is not True or body.get("stream") is not False:
                self.send_json(400, {"error": {"message": "enable_search was not asked for"}})
            else:
                self.send_json(200, self.completion(model, SEARCH_TEXT))
        else:
            self.send_json(400, {"error": {"message": "unknown model %s" % model}})


# -- OpenAI-compatible -------------------------------------------------------------------------

class OpenAIHandler(HandlerBase):
    files = {"a.png": (PNG_A, "image/png"),
             "page.html": (b"<html>not an image</html>", "text/html; charset=utf-8")}

    def post(self, body):
        if self.path == "/v1/chat/completions":
            self.chat(body)
        elif self.path == "/v1/images/generations":
            self.images(body)
        elif self.path == "/v1/embeddings":
            self.embeddings(body)
        elif self.path == "/v1/images/edits":
            self.edits()
        else:
            self.send_json(404, {"error": {"message": "not found"}})

    def edits(self):
        """images/edits: a multipart form; its parts are recorded as
        req["parts"] = {name: (filename, content type, bytes)}."""
        ctype = self.req["headers"].get("content-type", "")
        msg = email.parser.BytesParser().parsebytes(
            b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + self.req["raw"])
        parts = {}
        for part in (msg.get_payload() if msg.is_multipart() else []):
            name = part.get_param("name", header="content-disposition")
            parts[name] = (part.get_filename(), part.get_content_type(), part.get_payload(decode=True))
        self.req["parts"] = parts
        if "image" not in parts or not parts.get("prompt", (0, 0, b""))[2]:
            self.send_json(400, {"error": {"message": "image and prompt are required"}})
            return
        self.send_json(200, {"created": 1700000000, "data": [{"b64_json": base64.b64encode(PNG_A).decode()}]})

    def images(self, body):
        model = body.get("model")
        if not body.get("prompt") or not re.fullmatch(r"\d+x\d+", body.get("size", "")):
            self.send_json(400, {"error": {"message": "prompt and size WxH are required"}})
            return
        if model == "img-slow":
            time.sleep(1)
        if model in ("img-b64", "img-slow"):
            item = {"b64_json": base64.b64encode(PNG_A).decode(),
                    "revised_prompt": "revised: " + body["prompt"]}
        elif model == "img-url":
            item = {"url": self.fake.link_url + "/files/a.png"}
        elif model == "img-url-loopback":
            item = {"url": self.fake.url + "/files/a.png"}
        elif model == "img-url-redirect":
            item = {"url": self.fake.link_url + "/files/to-a.png"}
        elif model == "img-url-hop":
            item = {"url": self.fake.link_url + "/files/via-a.png"}
        elif model == "img-notimage":
            item = {"url": self.fake.link_url + "/files/page.html"}
        else:
            item = {}
        self.send_json(200, {"created": 1700000000, "data": [item]})

    def embeddings(self, body):
        """By model: "emb-tri" meaning-like vectors (trigram_vector),
        "emb-fail" 500 always, "emb-dim" the trigram vectors but a single
        text (a query) cut to 8 numbers, "emb-bad" a reply without data;
        any other model [length, index, 0.5]."""
        texts = body.get("input")
        model = body.get("model")
        if not isinstance(texts, list) or len(texts) > 10:
            self.send_json(400, {"error": {"message": "input: a list of at most 10 texts"}})
            return
        if model == "emb-fail":
            self.send_json(500, {"error": {"message": "the embeddings service is down"}})
            return
        if model == "emb-bad":
            self.send_json(200, {"object": "list", "model": model})
            return
        if model in ("emb-tri", "emb-dim"):
            vecs = [trigram_vector(t) for t in texts]
            if model == "emb-dim" and len(texts) == 1:
                vecs = [v[:8] for v in vecs]
        else:
            vecs = [[float(len(t)), float(i), 0.5] for i, t in enumerate(texts)]
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)]
        data.reverse()    # the order of the list is not the order of the input
        self.send_json(200, {"object": "list", "data": data, "model": body.get("model"),
                             "usage": {"prompt_tokens": 3, "total_tokens": 3}})


class OpenAIFake(FakeBase):
    handler_class = OpenAIHandler


# -- DashScope ---------------------------------------------------------------------------------

GENERATE = "/api/v1/services/aigc/multimodal-generation/generation"
FAIL_MESSAGE = "Input data may contain inappropriate content."


class DashScopeHandler(HandlerBase):
    files = {"b.png": (PNG_B, "image/png")}

    def post(self, body):
        if self.path == "/compatible-mode/v1/chat/completions":
            self.chat(body)
        elif self.path == GENERATE:
            self.generate(body)
        else:
            self.send_json(404, {"code": "NotFound", "message": "not found"})

    def _request_ok(self, body):
        try:
            text = [c["text"] for c in body["input"]["messages"][0]["content"] if "text" in c][0]
            size = body["parameters"]["size"]
        except (KeyError, IndexError, TypeError):
            return False
        return bool(text) and re.fullmatch(r"\d+\*\d+", size) is not None

    def image_done(self):
        return {"choices": [{"finish_reason": "stop", "message": {
            "role": "assistant", "content": [{"image": self.fake.link_url + "/files/b.png"}]}}]}

    def generate(self, body):
        model = body.get("model", "")
        if not self._request_ok(body):
            self.send_json(400, {"code": "InvalidParameter",
                                 "message": "input.messages[0].content[0].text and "
                                            "parameters.size W*H are required"})
            return
        if model in ("ds-sync", "ds-slow"):
            if model == "ds-slow":
                time.sleep(1)
            self.send_json(200, {"output": self.image_done(), "request_id": "req-sync",
                                 "usage": {"image_count": 1}})
            return
        m = re.fullmatch(r"ds-(async-(\d+)|fail|never)", model)
        if not m:
            self.send_json(400, {"code": "InvalidParameter", "message": "unknown model"})
            return
        task_id = str(uuid.uuid4())
        self.fake.tasks[task_id] = {"kind": m.group(1).split("-")[0],
                                    "k": int(m.group(2) or 0), "polls": 0}
        self.send_json(200, {"output": {"task_id": task_id, "task_status": "PENDING"},
                             "request_id": "req-" + task_id[:8]})

    def get(self):
        m = re.fullmatch(r"/api/v1/tasks/([0-9a-f-]+)", self.path)
        if not m:
            self.send_json(404, {"code": "NotFound", "message": "not found"})
            return
        if self.req["headers"].get("authorization") != "Bearer " + self.fake.key:
            self.send_json(401, {"code": "InvalidApiKey", "message": "Invalid API-key provided."})
            return
        task_id = m.group(1)
        task = self.fake.tasks.get(task_id)
        out = {"task_id": task_id}
        if task is None:
            out["task_status"] = "UNKNOWN"
        else:
            task["polls"] += 1
            if task["kind"] == "fail":
                out.update(task_status="FAILED", code="DataInspectionFailed", message=FAIL_MESSAGE)
            elif task["kind"] == "async" and task["polls"] > task["k"]:
                out.update(task_status="SUCCEEDED",
                           results=[{"url": self.fake.link_url + "/files/b.png",
                                     "actual_prompt": "a revised prompt"}])
            else:
                out["task_status"] = "PENDING" if task["polls"] == 1 else "RUNNING"
        self.send_json(200, {"output": out, "request_id": "req-poll"})


class DashScopeFake(FakeBase):
    handler_class = DashScopeHandler


# -- an assistant behind the chat workflow -----------------------------------------------------

ROUTE_REASON = "fake router"
IMAGE_PROMPT = "a fake rewritten prompt"
VISION_TEXT = "图中是一块纯红色的方块，没有文字。"
ASSISTANT_PIECES = ["好的，", "这是", "流式", "回答的", "全部内容。"]
ASSISTANT_TEXT = "".join(ASSISTANT_PIECES)
# A stream cut inside the last piece's first character (a 3-byte UTF-8 sequence).
CUT_KEEPS = "".join(ASSISTANT_PIECES[:-1])


class AssistantHandler(HandlerBase):
    """One OpenAI-compatible service for every role of the chat workflow,
    each behaving as fake.modes says:
      route:  "<route>:<confidence>", "badjson" or "error" (JSON-mode calls
              whose system message asks for a route)
      chat:   "ok" (streamed), "cut" (the connection closes in the middle of
              a UTF-8 sequence, without [DONE]), "slow" (0.5 s between
              pieces), "error"
      search: "facts", "empty", "empty_once" (empty, then facts), "fail"
      image:  "ok" or "fail" (500)
    The image prompt rewrite (JSON mode, the other system message) answers
    {"prompt": IMAGE_PROMPT}; a call whose user content is a list of parts
    with image_url data URLs (vision) answers VISION_TEXT."""
    files = {}

    def post(self, body):
        if self.path == "/v1/images/generations":
            if self.fake.modes["image"] == "ok":
                self.send_json(200, {"created": 1, "data": [
                    {"b64_json": base64.b64encode(PNG_A).decode()}]})
            else:
                self.send_json(500, {"error": {"message": "image service down"}})
        elif self.path == "/v1/chat/completions":
            self.assistant(body)
        else:
            self.send_json(404, {"error": {"message": "not found"}})

    def _system(self, body):
        msgs = body.get("messages") or [{}]
        return msgs[0].get("content", "") if msgs[0].get("role") == "system" else ""

    def assistant(self, body):
        if body.get("enable_search"):
            return self.search()
        user = (body.get("messages") or [{}])[-1].get("content")
        if isinstance(user, list):
            urls = [p.get("image_url", {}).get("url", "") for p in user if p.get("type") == "image_url"]
            ok = urls and all(u.startswith("data:image/") for u in urls)
            return self.send_json(200 if ok else 400, self.completion("m", VISION_TEXT) if ok
                                  else {"error": {"message": "image_url parts expected"}})
        if body.get("response_format"):
            if "route" in self._system(body):
                return self.route()
            return self.send_json(200, self.completion("m", json.dumps({"prompt": IMAGE_PROMPT})))
        mode = self.fake.modes["chat"]
        if mode == "error":
            return self.send_json(500, {"error": {"message": "chat down"}})
        self.pieces(mode)

    def route(self):
        mode = self.fake.modes["route"]
        if mode == "error":
            return self.send_json(500, {"error": {"message": "router down"}})
        if mode == "badjson":
            return self.send_json(200, self.completion("m", BAD_JSON_TEXT))
        route, conf = mode.split(":")
        self.send_json(200, self.completion("m", json.dumps(
            {"route": route, "confidence": float(conf), "reason": ROUTE_REASON})))

    def search(self):
        mode = self.fake.modes["search"]
        n = self.fake.count("search")
        if mode == "fail":
            return self.send_json(500, {"error": {"message": "search down"}})
        empty = mode == "empty" or (mode == "empty_once" and n == 1)
        self.send_json(200, self.completion("m", "" if empty else SEARCH_TEXT))

    def pieces(self, mode):
        raw = b""
        for p in ASSISTANT_PIECES:
            ev = {"choices": [{"index": 0, "delta": {"content": p}}]}
            raw += b"data: " + json.dumps(ev, ensure_ascii=False).encode() + b"\n\n"
        if mode == "cut":
            last = ASSISTANT_PIECES[-1].encode()
            raw = raw[:raw.rindex(last) + 1]       # one byte of a three-byte character
        else:
            raw += b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            parts = raw.split(b"\n\n")
            for i, part in enumerate(parts):
                if part:
                    cut_here = mode == "cut" and i == len(parts) - 1
                    self.wfile.write(part + (b"" if cut_here else b"\n\n"))
                    self.wfile.flush()
                time.sleep(0.5 if mode == "slow" else 0.002)
        except OSError:
            pass


class AssistantFake(FakeBase):
    handler_class = AssistantHandler

    def __init__(self, key):
        super().__init__(key)
        self.modes = {"route": "chat:0.9", "chat": "ok", "search": "facts", "image": "ok"}


# -- the agents of an orchestrate run ------------------------------------------------------------

def orch_facts(body):
    """The facts of an orchestrate call: the JSON of its first user turn
    (a string, or the text part of a list of parts); {} when it holds none."""
    for m in body.get("messages") or []:
        if m.get("role") != "user":
            continue
        c = m.get("content")
        if isinstance(c, list):
            c = next((p.get("text") for p in c if p.get("type") == "text"), "")
        try:
            j = json.loads(c or "")
        except ValueError:
            return {}
        return j if isinstance(j, dict) else {}
    return {}


class OrchHandler(HandlerBase):
    """An OpenAI-compatible service answering an orchestrate run's calls.
    A call whose facts list "agents" is the planner's: it gets the next of
    fake.plans (each a dict, sent as JSON; the last one repeated). Any
    other call is a stage's (facts.stage.id); it gets the next of
    fake.stages[id], a list of replies (the last one repeated):
      {"answer": text}                      the final answer
      {"tools": [[name, arguments], ...]}   tool calls, arguments a dict or a raw string
      {"error": http status}                an error answer
    after fake.delay seconds. fake.on_call(stage, n), when set, is called
    as the n-th call of a stage arrives, before the delay. Every call is
    in fake.calls: {stage, agent, n, model, start, end, facts, body, tools}."""
    files = {}

    def post(self, body):
        if self.path != "/v1/chat/completions":
            return self.send_json(404, {"error": {"message": "not found"}})
        facts = orch_facts(body)
        stage = "plan" if "agents" in facts else (facts.get("stage") or {}).get("id", "?")
        n = self.fake.count("stage:" + stage)
        call = {"stage": stage, "agent": facts.get("agent"), "n": n, "model": body.get("model"),
                "start": time.monotonic(), "facts": facts, "body": body,
                "tools": [t["function"]["name"] for t in body.get("tools") or []]}
        if self.fake.on_call:
            self.fake.on_call(stage, n)
        time.sleep(self.fake.delay)
        if stage == "plan":
            plans = self.fake.plans
            reply = {"answer": json.dumps(plans[min(n, len(plans)) - 1])} if plans else {"error": 400}
        else:
            replies = self.fake.stages.get(stage) or [{"answer": "done: " + stage}]
            reply = replies[min(n, len(replies)) - 1]
        call["end"] = time.monotonic()
        with self.fake._lock:
            self.fake.calls.append(call)
        if "error" in reply:
            return self.send_json(reply["error"], {"error": {"message": "fake failure"}})
        if "tools" in reply:
            tcs = [{"id": "call_%d" % (i + 1), "type": "function",
                    "function": {"name": name, "arguments": a if isinstance(a, str) else json.dumps(a)}}
                   for i, (name, a) in enumerate(reply["tools"])]
            return self.send_json(200, {"id": "chatcmpl-orch", "object": "chat.completion",
                                        "model": body.get("model"), "usage": USAGE,
                                        "choices": [{"index": 0, "finish_reason": "tool_calls",
                                                     "message": {"role": "assistant", "content": None,
                                                                 "tool_calls": tcs}}]})
        self.send_json(200, self.completion(body.get("model"), reply["answer"]))


class OrchFake(FakeBase):
    handler_class = OrchHandler

    def __init__(self, key):
        super().__init__(key)
        self.plans, self.stages, self.delay, self.on_call, self.calls = [], {}, 0.0, None, []

    def reset(self):
        super().reset()
        with self._lock:
            self.plans, self.stages, self.delay, self.on_call, self.calls = [], {}, 0.0, None, []

    def of(self, stage):
        """The calls of a stage, in order."""
        with self._lock:
            return [c for c in self.calls if c["stage"] == stage]


# -- the roles of a note workflow run ------------------------------------------------------------

NOTE_WRITER = "文案创作专家"     # words of the writer's system message
NOTE_REVIEWER = "质量审核员"     # words of the reviewer's
NOTE_PNG = avpng.solid(12, 16, (90, 160, 220))


class NoteDown(Exception):
    """Raised by NoteFake.answer: the call gets a 500 with this message."""


class NoteHandler(HandlerBase):
    """An OpenAI-compatible service (under /v1) for the note workflow's
    roles, told apart by their system messages: each chat call gets
    fake.answer(role, user) as its JSON content, role "writer", "review" or
    "other", user the content of the call's last message.
    images/generations answers NOTE_PNG, or a 500 while fake.fail_images
    is above 0; fake.image_calls counts them."""
    files = {}

    def post(self, body):
        if self.path == "/v1/chat/completions":
            self.note_chat(body)
        elif self.path == "/v1/images/generations":
            self.note_image()
        else:
            self.send_json(404, {"error": {"message": "not found"}})

    def note_chat(self, body):
        msgs = body.get("messages") or [{}]
        system = (msgs[0] or {}).get("content") or ""
        role = "writer" if NOTE_WRITER in system else "review" if NOTE_REVIEWER in system else "other"
        try:
            reply = self.fake.answer(role, (msgs[-1] or {}).get("content") or "")
        except NoteDown as e:
            return self.send_json(500, {"error": {"message": str(e)}})
        self.send_json(200, self.completion(body.get("model"), json.dumps(reply, ensure_ascii=False)))

    def note_image(self):
        with self.fake._lock:
            self.fake.image_calls += 1
            fail = self.fake.fail_images > 0
            if fail:
                self.fake.fail_images -= 1
        if fail:
            return self.send_json(500, {"error": {"message": "image backend overloaded"}})
        self.send_json(200, {"created": 1700000000,
                             "data": [{"b64_json": base64.b64encode(NOTE_PNG).decode()}]})


class NoteFake(FakeBase):
    """The note workflow's model. The writer answers the next of notes and
    the reviewer the next of reviews (the last one again when they run
    out, {} when there is none); every other role {}, so the workflow's
    rules answer for it. A test sets notes and reviews, or overrides
    answer(role, user) (raising NoteDown for a failing call)."""
    handler_class = NoteHandler

    def __init__(self, key):
        super().__init__(key)
        self.notes, self.reviews, self.image_calls, self.fail_images = [], [], 0, 0

    def provider(self):
        """A worker's provider section (chat or image) on this service."""
        return {"kind": "openai", "base_url": self.url + "/v1", "api_key": self.key, "retries": "0",
                "timeout_ms": "10000"}

    def answer(self, role, user):
        with self._lock:
            q = {"writer": self.notes, "review": self.reviews}.get(role)
            if not q:
                return {}
            return q.pop(0) if len(q) > 1 else q[0]
