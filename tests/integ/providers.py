"""The model providers against fake services (tests/lib/fake_models.py),
through tests/prov/provcli: chat plain, in JSON mode (bare, fenced,
invalid) and streamed (pieces cut inside UTF-8 and lines); retries on 429
(waiting Retry-After) and 500; the failures mapped to their statuses
(unavailable, rate_limited, timeout, too_large, refused); web search with
enable_search; embeddings in input order; OpenAI images as base64 and as
links; DashScope images answered at once, by a task polled until it
succeeds, fails or never ends; calls at once taking the time of one; and
the key, sent to the services, never in provcli's output. Image links
from an answer are downloaded under the [fetch] address rules, redirects
included: the fakes' links name "localhost", trusted by allow_hosts, and
a link or a redirect to 127.0.0.1 is refused. Failures reach clients as
a generic message; the provider's words go to the log (provcli's stderr)
with the key scrubbed in any form: whole, cut, masked, after "Bearer".
"""

import base64
import hashlib
import json
import os
import secrets
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402
import fake_models as fm  # noqa: E402

PROVCLI = os.path.join(avtest.TOP_BUILDDIR, "tests", "prov", "provcli")
KEY = "sk-test-" + secrets.token_hex(16)
KEY_ENV = "PROVTEST_API_KEY"
SHA_A = hashlib.sha256(fm.PNG_A).hexdigest()
SHA_B = hashlib.sha256(fm.PNG_B).hexdigest()
ROLE_CMD = {"chat": "chat", "image": "image", "search": "search", "embeddings": "embed"}
MESSAGES = json.dumps([{"role": "user", "content": "画一只猫"}])


class Result:
    def __init__(self, proc, elapsed):
        self.rc = proc.returncode
        self.out = proc.stdout.decode("utf-8", errors="replace")
        self.err = proc.stderr.decode("utf-8", errors="replace")
        self.elapsed = elapsed
        self.lines = []
        for line in self.out.splitlines():
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                self.lines.append({"type": "garbage", "line": line})
        self.answers = [j for j in self.lines if j.get("type") == "answer"]
        self.answer = self.answers[0] if self.answers else {}
        self.deltas = [j["text"] for j in self.lines if j.get("type") == "delta"]
        self.progress = [j for j in self.lines if j.get("type") == "progress"]
        done = [j for j in self.lines if j.get("type") == "done"]
        self.done = done[0] if done else {}

    @property
    def status(self):
        return self.answer.get("status")


class Runner:
    def __init__(self, t, d):
        self.t = t
        self.d = d
        self.n = 0
        self.outputs = []

    def run(self, role, kind, base, model, args=(), conf=None, timeout=60, fetch=None):
        """provcli with [provider.<role>] set to kind, base, model and conf,
        and [fetch] trusting the host the fakes' links name (or fetch)."""
        self.n += 1
        keys = {"kind": kind, "base_url": base, "model": model, "api_key_env": KEY_ENV,
                "timeout_ms": "10000", "retries": "2", "connect_timeout_ms": "2000"}
        keys.update(conf or {})
        settings = {"provider." + role: keys,
                    "fetch": fetch if fetch is not None else {"allow_hosts": "localhost"}}
        path = avtest.write_file(os.path.join(self.d, "p%02d.conf" % self.n),
                                 avtest.conf_from_sample(settings))
        env = avtest.clean_env(**{KEY_ENV: KEY, "NO_PROXY": "127.0.0.1,localhost",
                                  "no_proxy": "127.0.0.1,localhost"})
        t0 = time.monotonic()
        proc = subprocess.run([PROVCLI, "-c", path, ROLE_CMD[role]] + list(args),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, timeout=timeout)
        r = Result(proc, time.monotonic() - t0)
        with open(os.path.join(self.d, "p%02d.out" % self.n), "wb") as f:
            f.write(proc.stdout)
        with open(os.path.join(self.d, "p%02d.log" % self.n), "wb") as f:
            f.write(proc.stderr)
        self.outputs.append(r.out + r.err)
        if r.rc != 0 or not r.answers:
            self.t.diag("provcli %s %s exited %d:" % (role, model, r.rc), r.out, r.err)
        return r


def check_status(t, r, want, name):
    if not t.is_(r.status, want, name):
        t.diag("answer: %r" % (r.answer,))


def test_chat_plain(t, run, oa, base):
    oa.reset()
    r = run.run("chat", "openai", base, "plain", ["--messages", MESSAGES])
    check_status(t, r, "ok", "chat: plain answer")
    t.is_(r.answer.get("text"), fm.PLAIN_TEXT, "chat: the text")
    t.is_(r.answer.get("usage"), fm.USAGE, "chat: the usage")
    t.is_(r.answer.get("http_status"), 200, "chat: HTTP status kept")
    reqs = oa.requests("/v1/chat/completions")
    t.is_(len(reqs), 1, "chat: one request")
    body = reqs[0]["body"] if reqs else {}
    t.is_(reqs[0]["headers"].get("authorization") if reqs else None, "Bearer " + KEY,
          "chat: the key in Authorization: Bearer")
    t.is_(reqs[0]["headers"].get("content-type") if reqs else None, "application/json",
          "chat: JSON body")
    t.ok(body.get("model") == "plain" and body.get("stream") is False and
         body.get("messages") == json.loads(MESSAGES) and "response_format" not in body and
         isinstance(body.get("temperature"), (int, float)),
         "chat: model, messages, temperature, stream false, no response_format")


def test_chat_json(t, run, oa, base):
    oa.reset()
    r = run.run("chat", "openai", base, "json", ["--messages", MESSAGES, "--json"])
    check_status(t, r, "ok", "json mode: ok")
    t.is_(r.answer.get("json"), json.loads(fm.JSON_TEXT), "json mode: object parsed")
    reqs = oa.requests("/v1/chat/completions")
    body = reqs[0]["body"] if reqs else {}
    t.is_(body.get("response_format"), {"type": "json_object"}, "json mode: response_format sent")
    t.ok(any("json" in str(m.get("content", "")).lower() for m in body.get("messages", [])),
         "json mode: the messages mention JSON, as the services require")

    r = run.run("chat", "openai", base, "fenced", ["--messages", MESSAGES, "--json"])
    check_status(t, r, "ok", "json mode: fenced JSON accepted")
    t.is_(r.answer.get("json"), {"action": "inpainting", "subject": "sky", "confidence": 0.8},
          "json mode: fenced object parsed")

    r = run.run("chat", "openai", base, "badjson", ["--messages", MESSAGES, "--json"])
    check_status(t, r, "bad_answer", "json mode: no JSON is bad_answer")
    t.is_(r.answer.get("text"), fm.BAD_JSON_TEXT, "json mode: the raw text is kept")


def test_chat_stream(t, run, oa, base):
    oa.reset()
    r = run.run("chat", "openai", base, "stream", ["--messages", MESSAGES, "--stream"])
    check_status(t, r, "ok", "stream: ok")
    t.is_(r.answer.get("text"), fm.STREAM_TEXT, "stream: the whole text")
    t.is_("".join(r.deltas), fm.STREAM_TEXT, "stream: the pieces join into the text")
    t.is_(r.deltas, fm.STREAM_PIECES, "stream: each piece whole, none cut inside a character")
    t.ok(not any("\ufffd" in d for d in r.deltas), "stream: pieces are valid UTF-8")
    t.is_(r.answer.get("usage"), fm.USAGE, "stream: usage from the last chunk")
    body = (oa.requests("/v1/chat/completions") or [{"body": {}}])[0]["body"]
    t.ok(body.get("stream") is True and body.get("stream_options") == {"include_usage": True},
         "stream: stream and include_usage asked for")

    r = run.run("chat", "openai", base, "stream-bad", ["--messages", MESSAGES, "--stream"])
    check_status(t, r, "bad_answer", "stream: a malformed chunk is bad_answer")
    t.is_(r.deltas, fm.STREAM_PIECES[:1], "stream: the pieces before it were given")

    r = run.run("chat", "openai", base, "stream-plain", ["--messages", MESSAGES, "--stream"])
    check_status(t, r, "ok", "stream: a plain JSON reply to a stream request is read")
    t.is_(r.deltas, [fm.STREAM_TEXT], "stream: ... and given as one piece")


def request_gaps(reqs):
    return [b["time"] - a["time"] for a, b in zip(reqs, reqs[1:])]


def test_chat_retries(t, run, oa, base):
    oa.reset()
    r = run.run("chat", "openai", base, "ratelimit-once", ["--messages", MESSAGES])
    check_status(t, r, "ok", "429 once: then ok")
    gaps = request_gaps(oa.requests("/v1/chat/completions"))
    t.is_(len(gaps), 1, "429 once: two requests")
    if not t.ok(gaps and 0.9 <= gaps[0] <= 5, "429 once: the retry waited Retry-After (1 s)"):
        t.diag("gaps: %r" % gaps)

    oa.reset()
    r = run.run("chat", "openai", base, "ratelimit-always", ["--messages", MESSAGES],
                {"retries": "1"})
    check_status(t, r, "rate_limited", "429 always: rate_limited")
    t.is_(len(oa.requests("/v1/chat/completions")), 2, "429 always: 1 + retries requests")
    t.like(r.answer.get("detail"), "429", "429 always: the detail says 429")
    t.is_(r.answer.get("error"), "the model service is rate limiting requests: try again later",
          "429 always: clients get the generic message")

    oa.reset()
    r = run.run("chat", "openai", base, "error-once", ["--messages", MESSAGES])
    check_status(t, r, "ok", "500 once: then ok")
    t.is_(len(oa.requests("/v1/chat/completions")), 2, "500 once: two requests")

    oa.reset()
    r = run.run("chat", "openai", base, "error-always", ["--messages", MESSAGES])
    check_status(t, r, "unavailable", "500 always: unavailable")
    t.is_(len(oa.requests("/v1/chat/completions")), 3, "500 always: exactly 1 + retries (2) requests")
    t.is_(r.answer.get("http_status"), 500, "500 always: HTTP status kept")
    t.like(r.answer.get("detail"), "internal failure", "500 always: the provider's message in the detail")
    t.ok("internal failure" not in r.answer.get("error", "") and "internal failure" in r.err,
         "500 always: ... which goes to the log, not to clients")


def test_chat_limits(t, run, oa, base):
    oa.reset()
    r = run.run("chat", "openai", base, "stall", ["--messages", MESSAGES], {"timeout_ms": "1000"})
    check_status(t, r, "timeout", "stall: timeout")
    if not t.ok(r.elapsed < 1.0 + 2.5, "stall: within timeout_ms and a margin"):
        t.diag("took %.2f s" % r.elapsed)
    t.is_(len(oa.requests("/v1/chat/completions")), 1, "stall: a timeout is not retried")

    r = run.run("chat", "openai", base, "stall", ["--messages", MESSAGES, "--timeout", "700"],
                {"timeout_ms": "30000"})
    check_status(t, r, "timeout", "stall: the call's own timeout wins")
    t.ok(r.elapsed < 0.7 + 2.5, "stall: within the call's timeout and a margin")

    r = run.run("chat", "openai", base, "huge", ["--messages", MESSAGES],
                {"max_response_bytes": "65536"})
    check_status(t, r, "too_large", "over max_response_bytes: too_large")

    for model in ("echo-key", "echo-key-masked"):
        r = run.run("chat", "openai", base, model, ["--messages", MESSAGES])
        check_status(t, r, "refused", "401 (%s): refused" % model)
        t.is_(r.answer.get("http_status"), 401, "401 (%s): HTTP status kept" % model)
        t.is_(r.answer.get("error"), "the model service refused the request",
              "401 (%s): clients get a generic message" % model)
        t.ok("Incorrect API key" in r.answer.get("detail", "") and "***" in r.answer.get("detail", ""),
             "401 (%s): the provider's message in the detail, the key it repeated scrubbed" % model)
        log = [line for line in r.err.splitlines() if "Incorrect API key" in line]
        t.ok(log and "refused" in log[0], "401 (%s): the detail is logged" % model)
        leaks = avtest.secret_parts(KEY, r.out + r.err)
        if not t.ok(not leaks, "401 (%s): no part of the key in the answer or the log" % model):
            t.diag("found %r in %r" % (leaks, log))

    port = avtest.free_port()
    r = run.run("chat", "openai", "http://127.0.0.1:%d/v1" % port, "plain",
                ["--messages", MESSAGES], {"retries": "1"})
    check_status(t, r, "unavailable", "connection refused: unavailable")
    t.ok(r.elapsed < 10, "connection refused: answered quickly")
    t.ok("127.0.0.1" not in r.answer.get("error", "") and str(port) not in r.answer.get("error", ""),
         "connection refused: clients are not told the provider's address")
    t.ok("127.0.0.1 port %d" % port in r.err, "connection refused: the log says which address failed")

    oa.reset()
    r = run.run("chat", "openai", base, "slow", ["--messages", MESSAGES, "--many", "4"])
    t.is_([a.get("status") for a in r.answers], ["ok"] * 4, "4 at once: all ok")
    t.is_(len(oa.requests("/v1/chat/completions")), 4, "4 at once: four requests")
    wall = r.done.get("wall_ms", 99999)
    if not t.ok(wall < 2500, "4 slow calls at once take about one call's time"):
        t.diag("wall %d ms" % wall)
    if not t.ok(r.done.get("ticks", 0) >= 3 and r.done.get("max_tick_gap_ms", 9999) <= 700,
                "the tick hook runs while calls wait"):
        t.diag("done: %r" % r.done)


def test_search(t, run, oa, ds):
    oa.reset()
    r = run.run("search", "openai", oa.url + "/v1", "search", ["--query", "杭州今天天气"])
    check_status(t, r, "ok", "search (openai): ok")
    t.is_(r.answer.get("text"), fm.SEARCH_TEXT, "search (openai): the facts")
    body = (oa.requests("/v1/chat/completions") or [{"body": {}}])[0]["body"]
    t.ok(body.get("enable_search") is True and body.get("stream") is False and
         body.get("messages", [{}])[-1].get("content") == "杭州今天天气",
         "search (openai): enable_search, no stream, the question")

    for base, name in ((ds.url + "/compatible-mode/v1", "compatible-mode root"),
                       (ds.url, "DashScope root")):
        ds.reset()
        r = run.run("search", "dashscope", base, "search", ["--query", "杭州今天天气"])
        check_status(t, r, "ok", "search (dashscope, %s): ok" % name)
        t.is_(r.answer.get("text"), fm.SEARCH_TEXT, "search (dashscope, %s): the facts" % name)
        t.is_(len(ds.requests("/compatible-mode/v1/chat/completions")), 1,
              "search (dashscope, %s): through the compatible mode" % name)


def test_embeddings(t, run, oa):
    oa.reset()
    texts = ["text %s" % ("x" * i) for i in range(12)]
    r = run.run("embeddings", "openai", oa.url + "/v1", "emb", ["--texts", json.dumps(texts)])
    check_status(t, r, "ok", "embeddings: ok")
    t.is_(r.answer.get("vectors"), 12, "embeddings: one vector per text")
    t.is_([v[0] for v in r.answer.get("vector_values", [])], [float(len(x)) for x in texts],
          "embeddings: in input order, whatever the order of the reply")
    t.is_(sorted(len(q["body"]["input"]) for q in oa.requests("/v1/embeddings")), [2, 10],
          "embeddings: sent in batches of at most 10")


def test_openai_images(t, run, oa):
    base = oa.url + "/v1"
    oa.reset()
    r = run.run("image", "openai", base, "img-b64", ["--prompt", "a red square", "--size", "512x384"])
    check_status(t, r, "ok", "image b64: ok")
    t.ok(r.answer.get("mime") == "image/png" and r.answer.get("sha256") == SHA_A and
         r.answer.get("len") == len(fm.PNG_A), "image b64: the PNG's bytes")
    t.is_(r.answer.get("revised_prompt"), "revised: a red square", "image b64: revised prompt")
    body = (oa.requests("/v1/images/generations") or [{"body": {}}])[0]["body"]
    t.ok(body.get("size") == "512x384" and body.get("response_format") == "b64_json" and
         body.get("model") == "img-b64", "image: model, size WxH, response_format b64_json")

    oa.reset()
    r = run.run("image", "openai", base, "img-url", ["--prompt", "a red square"])
    check_status(t, r, "ok", "image url: ok")
    t.ok(r.answer.get("mime") == "image/png" and r.answer.get("sha256") == SHA_A,
         "image url: downloaded, the PNG's bytes")
    dl = oa.requests("/files/a.png")
    t.ok(len(dl) == 1 and "authorization" not in dl[0]["headers"],
         "image url: the download carries no key")

    r = run.run("image", "openai", base, "img-notimage", ["--prompt", "a red square"])
    check_status(t, r, "bad_answer", "image url that is no image: bad_answer")

    r = run.run("image", "openai", base, "img-url", ["--prompt", "a red square"],
                {"max_response_bytes": "1024"})
    t.is_(r.status, "ok", "image: a PNG under the cap passes")
    test_image_links(t, run, oa, base)


def test_image_links(t, run, oa, base):
    """Links in an answer pass the [fetch] address rules, each hop of a
    redirect too; only the configured base URL is trusted."""
    for model, fetch, want, name in (
            ("img-url-loopback", None, "bad_answer", "a link to 127.0.0.1 is refused"),
            ("img-url-redirect", None, "bad_answer",
             "a trusted link redirecting to 127.0.0.1 is refused"),
            ("img-url", {}, "bad_answer", "a link to localhost, not trusted, is refused"),
            ("img-url-hop", None, "ok", "a redirect to a trusted host is followed"),
            ("img-url-loopback", {"allow_private": "yes"}, "ok",
             "allow_private = yes: a link to 127.0.0.1 is fetched")):
        oa.reset()
        r = run.run("image", "openai", base, model, ["--prompt", "a red square"], fetch=fetch)
        check_status(t, r, want, "image link: " + name)
        got = oa.requests("/files/a.png")
        if want == "ok":
            t.is_((r.answer.get("sha256"), len(got)), (SHA_A, 1), "image link: %s: the bytes" % name)
        else:
            t.is_(len(got), 0, "image link: %s: no connection made" % name)
            t.like(r.answer.get("detail"), "not public", "image link: %s: the detail says why" % name)


def progress_of(r, task=0):
    return [p["status"] for p in r.progress if p.get("task") == task]


def test_dashscope_images(t, run, ds):
    base = ds.url
    conf = {"poll_interval_ms": "50", "poll_max": "10"}
    ds.reset()
    r = run.run("image", "dashscope", base, "ds-sync", ["--prompt", "一只猫"], conf)
    check_status(t, r, "ok", "dashscope sync: ok")
    t.ok(r.answer.get("mime") == "image/png" and r.answer.get("sha256") == SHA_B,
         "dashscope sync: the PNG's bytes")
    body = (ds.requests(fm.GENERATE) or [{"body": {}}])[0]["body"]
    t.ok(body.get("model") == "ds-sync" and
         body.get("input", {}).get("messages", [{}])[0].get("content") == [{"text": "一只猫"}] and
         body.get("parameters", {}).get("size") == "1024*1024",
         "dashscope: model, input.messages, parameters.size W*H")
    t.is_(progress_of(r), ["submitted", "downloading", "done"], "dashscope sync: progress")

    ds.reset()
    r = run.run("image", "dashscope", base, "ds-async-3", ["--prompt", "一只猫"], conf)
    check_status(t, r, "ok", "dashscope task: ok after polls")
    t.is_(r.answer.get("sha256"), SHA_B, "dashscope task: the PNG's bytes")
    polls = [q for q in ds.requests() if q["path"].startswith("/api/v1/tasks/")]
    t.is_(len(polls), 4, "dashscope task: K + 1 polls (K = 3)")
    t.ok(all(q["headers"].get("authorization") == "Bearer " + KEY for q in polls),
         "dashscope task: polls carry the key")
    st = progress_of(r)
    t.ok(st[:1] == ["submitted"] and "generating" in st and st[-2:] == ["downloading", "done"],
         "dashscope task: progress submitted, generating, downloading, done")
    if not t.ok(all(0 <= p["progress"] <= 1 for p in r.progress) and
                [p["progress"] for p in r.progress] == sorted(p["progress"] for p in r.progress),
                "dashscope task: progress rises within [0, 1]"):
        t.diag("progress: %r" % r.progress)
    t.is_(r.answer.get("revised_prompt"), "a revised prompt", "dashscope task: actual prompt kept")

    ds.reset()
    r = run.run("image", "dashscope", base, "ds-fail", ["--prompt", "一只猫"], conf)
    check_status(t, r, "bad_answer", "dashscope failed task: bad_answer")
    t.like(r.answer.get("detail"), "FAILED.*inappropriate", "dashscope failed task: its message, in the detail")
    t.ok("inappropriate" not in r.answer.get("error", ""), "dashscope failed task: not for clients")
    t.is_(progress_of(r)[-1:], ["failed"], "dashscope failed task: progress says failed")

    ds.reset()
    r = run.run("image", "dashscope", base, "ds-never", ["--prompt", "一只猫"],
                {"poll_interval_ms": "20", "poll_max": "5"})
    check_status(t, r, "timeout", "dashscope task never done: timeout after poll_max")
    t.is_(len([q for q in ds.requests() if q["path"].startswith("/api/v1/tasks/")]), 5,
          "dashscope task never done: poll_max polls")

    ds.reset()
    r = run.run("image", "dashscope", base, "ds-never", ["--prompt", "一只猫"],
                {"poll_interval_ms": "300", "poll_max": "100", "timeout_ms": "1000"})
    check_status(t, r, "timeout", "dashscope task past timeout_ms: timeout")
    t.ok(r.elapsed < 1.0 + 2.5, "dashscope task past timeout_ms: given up in time")

    ds.reset()
    r = run.run("image", "dashscope", base, "ds-slow", ["--prompt", "一只猫", "--many", "4"], conf)
    t.is_([a.get("status") for a in r.answers], ["ok"] * 4, "dashscope 4 at once: all ok")
    t.ok(all(a.get("sha256") == SHA_B for a in r.answers), "dashscope 4 at once: the bytes")
    t.ok(r.done.get("wall_ms", 99999) < 2500, "dashscope 4 slow images at once take about one's time")
    t.ok(all(progress_of(r, i)[-1:] == ["done"] for i in range(4)),
         "dashscope 4 at once: each task's progress ends done")

    ds.reset()
    r = run.run("image", "dashscope", base, "ds-async-2", ["--prompt", "一只猫", "--many", "3"], conf)
    t.is_([a.get("status") for a in r.answers], ["ok"] * 3, "dashscope 3 tasks polled at once: all ok")
    t.is_(len([q for q in ds.requests() if q["path"].startswith("/api/v1/tasks/")]), 9,
          "dashscope 3 tasks polled at once: 3 polls each")


def test_reference_images(t, run, oa, ds, d):
    """A reference image: images/edits with it as the image (OpenAI-
    compatible), the message's image input (DashScope), its colours
    (offline)."""
    orange, blue = avpng.solid(16, 16, (240, 140, 60)), avpng.solid(16, 16, (30, 60, 200))
    paths = {}
    for name, b in (("orange.png", orange), ("blue.png", blue),
                    ("ref.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">'
                                b'<rect width="8" height="8" fill="#10a040"/></svg>')):
        paths[name] = os.path.join(d, name)
        with open(paths[name], "wb") as f:
            f.write(b)

    oa.reset()
    r = run.run("image", "openai", oa.url + "/v1", "img-b64",
                ["--prompt", "a lighthouse", "--size", "512x512", "--ref", paths["orange.png"]])
    check_status(t, r, "ok", "openai with a reference: ok")
    edits = oa.requests("/v1/images/edits")
    parts = edits[0].get("parts", {}) if edits else {}
    t.is_(parts.get("image"), ("reference.png", "image/png", orange),
          "openai with a reference: images/edits, the reference as the image part")
    t.ok(parts.get("prompt", (0, 0, b""))[2] == b"a lighthouse" and parts.get("model", (0, 0, b""))[2]
         == b"img-b64" and parts.get("size", (0, 0, b""))[2] == b"512x512" and "mask" not in parts,
         "openai with a reference: prompt, model, size, and no mask")
    t.ok(not oa.requests("/v1/images/generations") and r.answer.get("ref", {}).get("used") is True,
         "openai with a reference: no plain generation; the answer says the reference was used")

    oa.reset()
    r = run.run("image", "openai", oa.url + "/v1", "img-b64",
                ["--prompt", "a lighthouse", "--ref", paths["ref.svg"]])
    check_status(t, r, "ok", "openai with an SVG reference: ok, from the prompt")
    t.ok(len(oa.requests("/v1/images/generations")) == 1 and not oa.requests("/v1/images/edits") and
         r.answer.get("ref", {}).get("used") is False and "svg" in r.answer["ref"].get("note", ""),
         "openai with an SVG reference: a plain generation, and the answer says why")

    ds.reset()
    r = run.run("image", "dashscope", ds.url, "ds-sync", ["--prompt", "一座灯塔", "--ref", paths["orange.png"]],
                {"poll_interval_ms": "50", "poll_max": "10"})
    check_status(t, r, "ok", "dashscope with a reference: ok")
    body = (ds.requests(fm.GENERATE) or [{"body": {}}])[0]["body"]
    t.is_(body.get("input", {}).get("messages", [{}])[0].get("content"),
          [{"image": "data:image/png;base64," + base64.b64encode(orange).decode()}, {"text": "一座灯塔"}],
          "dashscope with a reference: content is the image (a data URL), then the text")

    shas = {}
    for name in ("orange.png", "blue.png", "orange.png"):
        r = run.run("image", "offline", "", "", ["--prompt", "一座灯塔", "--ref", paths[name]])
        check_status(t, r, "ok", "offline with %s: ok" % name)
        t.is_(r.answer.get("ref", {}).get("used"), True, "offline with %s: its colours used" % name)
        shas.setdefault(name, []).append(r.answer.get("sha256"))
    plain = run.run("image", "offline", "", "", ["--prompt", "一座灯塔"]).answer.get("sha256")
    t.ok(len(set(shas["orange.png"])) == 1, "offline: the same reference, the same picture")
    t.ok(len({shas["orange.png"][0], shas["blue.png"][0], plain}) == 3,
         "offline: another reference, or none, another picture")


def main(t):
    if not os.access(PROVCLI, os.X_OK):
        raise avtest.SetupError("no %s (make check builds it)" % PROVCLI)
    oa = fm.OpenAIFake(KEY).start()
    t.cleanup(oa.stop)
    ds = fm.DashScopeFake(KEY).start()
    t.cleanup(ds.stop)
    run = Runner(t, t.tmpdir("prov"))
    base = oa.url + "/v1"

    test_chat_plain(t, run, oa, base)
    test_chat_json(t, run, oa, base)
    test_chat_stream(t, run, oa, base)
    test_chat_retries(t, run, oa, base)
    test_chat_limits(t, run, oa, base)
    test_search(t, run, oa, ds)
    test_embeddings(t, run, oa)
    test_openai_images(t, run, oa)
    test_dashscope_images(t, run, ds)
    test_reference_images(t, run, oa, ds, t.tmpdir("refs"))

    leaks = [i + 1 for i, o in enumerate(run.outputs) if KEY in o]
    t.ok(run.outputs and not leaks, "the key never appears in provcli's output or errors")
    if leaks:
        t.diag("in runs %r" % leaks)
    t.is_([r for r in range(1, run.n + 1) if not os.path.getsize(
        os.path.join(run.d, "p%02d.out" % r))], [], "every run printed its answer")


avtest.run(main)
