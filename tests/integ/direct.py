#!/usr/bin/env python3
"""The worker run directly, with FastCGI requests built by the test and no
web server in between: the health endpoint, the style library, error
responses, request bodies good and bad, slow and broken clients, signals,
and the -t configuration check."""

import os
import re
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402
from avtest import Worker, problem, wait_for  # noqa: E402

MAX_BODY = 65536
STREAM = "/api/agent/stream"
JSON_HDR = {"Content-Type": "application/json"}


def is_problem(t, resp, name):
    """The response is a complete application/problem+json error."""
    j = problem(resp.body)
    good = resp.complete and avtest.problem_shaped(resp.status, resp.header("content-type"), resp.body)
    if not t.ok(good, name + ": problem JSON with " + ", ".join(avtest.PROBLEM_FIELDS)):
        t.diag("response: %r %r" % (resp, resp.body[:300]))
    return j or {}


def expect_problem(t, resp, status, code, name):
    """Checks the status and the problem code of a response."""
    return avtest.expect_problem(t, resp.status, resp.body, status, code, name)


def socket_fds(pid):
    """How many sockets pid has open."""
    n = 0
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                if os.readlink("/proc/%d/fd/%s" % (pid, fd)).startswith("socket:"):
                    n += 1
            except OSError:
                pass
    except OSError:
        pass
    return n


def connect_accepted(w):
    """A connection the worker has accepted (it holds one more socket), so a
    signal sent now finds it inside a request, not in accept()."""
    # The connection start() made to see the worker ready may still be
    # open in the worker: count from when the number has settled.
    base, deadline = socket_fds(w.pid), time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = socket_fds(w.pid)
        if now == base:
            break
        base = now
    c = w.connect()
    if not wait_for(lambda: socket_fds(w.pid) > base, avtest.START_TIMEOUT):
        raise avtest.SetupError("the worker did not accept the connection")
    return c


def version_of(worker):
    p = subprocess.run([worker, "-V"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=avtest.clean_env(), timeout=30)
    return p.returncode, p.stdout.decode().strip()


def test_health(t, w, seen):
    r = w.request("GET", "/api/health")
    seen.append(r)
    t.is_(r.status, 200, "health: 200")
    t.ok(r.complete and r.app_status == 0, "health: request ends with END_REQUEST, status 0")
    t.like(r.header("content-type"), r"^application/json", "health: application/json")
    try:
        j = r.json()
    except ValueError:
        j = {}
    t.ok(isinstance(j, dict) and j, "health: body is a JSON object")
    t.is_(j.get("status"), "ok", "health: status ok")
    t.is_(j.get("name"), "aivista", "health: name")
    rc, version = version_of(avtest.worker_path())
    t.is_(rc, 0, "-V exits 0")
    t.is_("aivista %s" % j.get("version"), version, "health: version is the one -V prints")
    t.is_(j.get("pid"), w.pid, "health: pid is the worker's")
    t.is_(r.header("X-AiVista-Worker"), str(w.pid), "health: X-AiVista-Worker header")
    t.ok(isinstance(j.get("uptimeMs"), int) and j["uptimeMs"] >= 0, "health: uptimeMs")
    store = j.get("store") or {}
    t.is_(store.get("reachable"), True, "health: store reachable")
    t.is_(store.get("backend"), avtest.store_backend(), "health: the store's backend")
    prov = j.get("providers") or {}
    t.is_(sorted(prov), ["chat", "embeddings", "image", "search", "vision"], "health: providers by role")
    t.ok(all(v == "offline" for v in prov.values()), "health: offline providers by default")
    t.ok(b"api_key" not in r.body and w.store.encode() not in r.body,
         "health: no keys or store paths")


def test_errors(t, w, seen):
    r = w.request("GET", "/api/no-such-thing")
    seen.append(r)
    is_problem(t, r, "unknown endpoint")
    expect_problem(t, r, 404, "not_found", "unknown endpoint")
    r = w.request("GET", "/elsewhere/index.html")
    seen.append(r)
    expect_problem(t, r, 404, "not_found", "path outside /api/")
    r = w.request("POST", "/api/health", body=b"{}", headers=JSON_HDR)
    seen.append(r)
    is_problem(t, r, "POST /api/health")
    expect_problem(t, r, 405, "method_not_allowed", "POST /api/health")
    r = w.request("DELETE", "/api/health")
    seen.append(r)
    expect_problem(t, r, 405, "method_not_allowed", "DELETE /api/health")


def test_bodies(t, w, seen):
    r = w.request("POST", STREAM, body=b'{"workflow": "chat", "input": {', headers=JSON_HDR)
    seen.append(r)
    is_problem(t, r, "malformed JSON")
    expect_problem(t, r, 400, "bad_json", "malformed JSON")

    big = b'{"workflow": "chat", "input": {"text": "' + b"a" * (MAX_BODY + 4096) + b'"}}'
    r = w.request("POST", STREAM, body=big, headers=JSON_HDR)
    seen.append(r)
    is_problem(t, r, "oversized body")
    expect_problem(t, r, 413, "body_too_large", "oversized body (Content-Length over the limit)")
    r = w.request("POST", STREAM, body=big, headers=JSON_HDR, content_length=False)
    seen.append(r)
    expect_problem(t, r, 413, "body_too_large", "oversized body without Content-Length")

    body = b'{"workflow": "chat", "input": {"text": "hi"}}'
    for cl, what in (("12abc", "not a number"), ("-5", "negative"),
                     (str(len(body) + 10), "longer than the body"),
                     (str(len(body) - 5), "shorter than the body")):
        r = w.request("POST", STREAM, body=body, headers=JSON_HDR, content_length=cl)
        seen.append(r)
        expect_problem(t, r, 400, "bad_content_length", "Content-Length %s" % what)


def test_slow_body(t, w, seen):
    # Malformed only on its last line: a parse error there shows the worker
    # read all of it, however slowly it came.
    lines = [b"{", b'  "workflow": "chat",', b'  "input": {"text": "' + b"x" * 3000 + b'"},',
             b'  "multitask": "reject",', b'  "threadId": ']
    body = b"\n".join(lines)
    t0 = time.monotonic()
    r = w.request("POST", STREAM, body=body, headers=JSON_HDR, chunk_size=400, delay=0.15)
    seen.append(r)
    t.diag("slow body: %d bytes in %d chunks, answered after %.1f s" %
           (len(body), (len(body) + 399) // 400, time.monotonic() - t0))
    t.ok(r.complete, "slow body: complete response")
    expect_problem(t, r, 400, "bad_json", "slow body, malformed at the end")
    t.like((problem(r.body) or {}).get("detail"), r"line %d\b" % len(lines),
           "slow body: the parse error is on the last line")


def test_styles(t, w, seen):
    """GET /api/styles: the style library, cacheable with an ETag; ?q= shows
    what a search finds."""
    r = w.request("GET", "/api/styles")
    seen.append(r)
    t.is_(r.status, 200, "styles: 200")
    t.like(r.header("content-type"), r"^application/json", "styles: application/json")
    t.is_(r.header("cache-control"), "public, max-age=300", "styles: cacheable for 5 minutes")
    etag = r.header("etag") or ""
    t.like(etag, r'^"[0-9a-f]{32}"$', "styles: an ETag")
    try:
        j = r.json()
    except ValueError:
        j = {}
    styles = j.get("styles") or []
    t.ok(j.get("count", 0) >= 64 and j.get("count") == len(styles),
         "styles: count %r, at least 64, and as many styles" % j.get("count"))
    t.ok(all(isinstance(s, dict) and s.get("id") and s.get("prompt") for s in styles),
         "styles: each with an id and a prompt")
    r = w.request("GET", "/api/styles", headers={"If-None-Match": etag})
    seen.append(r)
    t.is_((r.status, r.body, r.header("etag")), (304, b"", etag),
          "styles: If-None-Match with the ETag gives 304, no body")
    r = w.request("GET", "/api/styles", headers={"If-None-Match": '"0123"'})
    seen.append(r)
    t.is_(r.status, 200, "styles: another ETag gives 200")

    r = w.request("GET", "/api/styles?q=%E8%B5%9B%E5%8D%9A%E6%9C%8B%E5%85%8B")
    seen.append(r)
    try:
        j = r.json()
    except ValueError:
        j = {}
    res = j.get("results") or [{}]
    t.is_((r.status, j.get("query"), res[0].get("id")), (200, "赛博朋克", "cyberpunk"),
          "styles ?q=赛博朋克: cyberpunk first")
    t.ok(res[0].get("similarity", 0) >= 0.6 and len(res) <= 10,
         "styles ?q=: similarity %r >= 0.6, at most 10 results" % res[0].get("similarity"))
    t.ok(r.header("etag") not in (None, etag), "styles ?q=: an ETag of its own")
    r = w.request("GET", "/api/styles?q=")
    seen.append(r)
    t.is_((r.status, (problem(r.body) or {}).get("results")), (200, []),
          "styles ?q= empty: no results")
    r = w.request("GET", "/api/styles?q=%FF")
    seen.append(r)
    expect_problem(t, r, 400, "bad_request", "styles ?q= not UTF-8")


def test_styles_broken(t, dir):
    """A style library that cannot be loaded: the endpoint fails cleanly,
    the log says why, the worker serves on."""
    bad = avtest.write_file(os.path.join(dir, "bad-styles.json"), '[{"id": "x"}')
    w = Worker(t, dir, {"kb": {"styles": bad}}, name="bad-styles").start()
    r = w.request("GET", "/api/styles")
    is_problem(t, r, "broken style library")
    expect_problem(t, r, 500, "internal", "broken style library")
    t.ok(wait_for(lambda: bad in avtest.tail(w.log), avtest.START_TIMEOUT),
         "broken style library: the log names the file")
    r = w.request("GET", "/api/health")
    t.is_(r.status, 200, "broken style library: the worker still serves")
    w.kill()


def test_disconnects(t, w):
    """Clients that hang up at every stage; the worker must not die of
    SIGPIPE or of a short read."""
    health = fcgi_client.cgi_params("GET", "/api/health")
    for i in range(20):
        with w.connect() as c:
            c.begin()
            c.send_params(health)
            c.send_stdin(b"")
    with w.connect() as c:
        c.begin()
        pb = c.params_bytes(health)
        c.send_raw(pb[:len(pb) // 2])
    body = b'{"workflow": "chat", "input": {"text": "' + b"y" * 4000 + b'"}}'
    with w.connect() as c:
        c.begin()
        c.send_params(fcgi_client.cgi_params("POST", STREAM, len(body), JSON_HDR))
        c.send_stdin(body[:100], end=False)
    with w.connect() as c:
        c.begin()
        c.send_params(health)
        c.send_stdin(b"")
        c.read_record()
    with w.connect() as c:
        pass
    r = w.request("GET", "/api/health")
    t.is_(r.status, 200, "after clients that hung up: health still 200")
    t.is_(r.header("X-AiVista-Worker"), str(w.pid), "after clients that hung up: same worker")
    t.ok(w.alive(), "after clients that hung up: the worker runs")


def test_idle_signals(t, dir):
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1):
        name = signal.Signals(sig).name
        w = Worker(t, dir, name="idle-" + name.lower()).start()
        r = w.request("GET", "/api/health")
        t.is_(r.status, 200, "%s while idle: worker served a request first" % name)
        t0 = time.monotonic()
        w.signal(sig)
        rc = w.wait()
        took = time.monotonic() - t0
        t.is_(rc, 0, "%s while idle: exits with status 0" % name)
        t.ok(rc is not None and took < 5, "%s while idle: exits promptly (%.2f s)" % (name, took))


def test_signal_in_params(t, dir):
    w = Worker(t, dir, name="term-params").start()
    c = connect_accepted(w)
    with c:
        c.begin()
        pb = c.params_bytes(fcgi_client.cgi_params("GET", "/api/health"))
        c.send_raw(pb[:len(pb) // 2])
        time.sleep(0.3)
        w.signal(signal.SIGTERM)
        time.sleep(0.5)
        t.ok(w.alive(), "SIGTERM while reading a request: the worker waits for it")
        c.send_raw(pb[len(pb) // 2:])
        c.send_stdin(b"")
        r = c.read_response()
    t.is_(r.status, 200, "SIGTERM while reading a request: the request is answered")
    t.ok(r.complete and problem(r.body) is not None and problem(r.body).get("status") == "ok",
         "SIGTERM while reading a request: the response is complete")
    rc = w.wait()
    t.is_(rc, 0, "SIGTERM while reading a request: then the worker exits with status 0")


def test_signal_in_body(t, dir):
    w = Worker(t, dir, name="term-body").start()
    body = b'{"workflow": "chat",\n "input": {"text": "' + b"z" * 20000 + b'"},\n "threadId": '
    c = connect_accepted(w)
    with c:
        c.begin()
        c.send_params(fcgi_client.cgi_params("POST", STREAM, len(body), JSON_HDR))
        c.send_stdin(body[:len(body) // 2], end=False)
        time.sleep(0.3)
        w.signal(signal.SIGTERM)
        time.sleep(0.3)
        c.send_stdin(body[len(body) // 2:])
        r = c.read_response()
    t.ok(r.complete and problem(r.body) is not None,
         "SIGTERM while a body arrives: the response is complete")
    expect_problem(t, r, 400, "bad_json", "SIGTERM while a body arrives: the whole body was read")
    rc = w.wait()
    t.is_(rc, 0, "SIGTERM while a body arrives: then the worker exits with status 0")


def test_fd0(t, dir):
    """Served on the listening socket passed as standard input, as lighttpd
    (bin-path) and mod_fcgid start it."""
    path = os.path.join(dir, "fd0.sock")
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(path)
    ls.listen(16)
    conf = avtest.write_file(os.path.join(dir, "fd0.conf"), avtest.conf_from_sample(
        {"store": {"dir": os.path.join(dir, "store")}}))
    log = open(os.path.join(dir, "fd0.log"), "ab")
    worker = subprocess.Popen([avtest.worker_path()], stdin=ls.fileno(), stdout=log,
                              stderr=subprocess.STDOUT, env=avtest.clean_env(AIVISTA_CONF=conf))
    log.close()
    ls.close()
    t.cleanup(lambda: worker.poll() is None and (worker.kill(), worker.wait()))
    r = fcgi_client.request(path, "GET", "/api/health", timeout=avtest.REQUEST_TIMEOUT)
    t.is_((r.status, r.header("X-AiVista-Worker")), (200, str(worker.pid)),
          "socket on standard input, config from AIVISTA_CONF: health 200")
    worker.send_signal(signal.SIGTERM)
    t.is_(avtest.wait_exit(worker, avtest.STOP_TIMEOUT), 0,
          "socket on standard input: SIGTERM ends it")

    p = subprocess.run([avtest.worker_path(), "-c", conf], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=avtest.clean_env(),
                       timeout=60)
    t.ok(p.returncode != 0 and b"-l" in p.stderr,
         "no socket on standard input and no -l: refuses to start, says why")


def test_config_check(t, dir):
    w = avtest.worker_path()

    def check(path, **env):
        p = subprocess.run([w, "-t", "-c", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=avtest.clean_env(**env), timeout=60)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    # -t also checks the store directory: one that exists.
    store = os.path.join(dir, "sample-store")
    os.makedirs(store, 0o700)
    sample = avtest.src_path("etc", "aivista.conf")
    rc, out, err = check(sample, AIVISTA_STORE_DIR=store)
    t.ok(rc == 0 and "configuration ok" in out, "-t: the sample etc/aivista.conf is ok")
    if rc:
        t.diag(out + err)

    bad = avtest.write_file(os.path.join(dir, "bad.conf"), "\n".join([
        "; a configuration with two mistakes",
        "[server]",
        "max_body_bytes = lots",
        "[store]",
        "dir = %s" % os.path.join(dir, "store"),
        "no_such_key = 1",
        ""]))
    rc, out, err = check(bad)
    t.ok(rc != 0, "-t: a bad file exits non-zero")
    t.like(err, r"bad\.conf:3:.*max_body_bytes", "-t: bad value reported with file:line")
    t.like(err, r"bad\.conf:6:.*no_such_key", "-t: unknown key reported with file:line")

    syn = avtest.write_file(os.path.join(dir, "syntax.conf"), "[server]\nkeepalive_ms 15000\n")
    rc, out, err = check(syn)
    t.ok(rc != 0 and "syntax.conf:2:" in err, "-t: syntax error reported with file:line")

    rc, out, err = check(sample, AIVISTA_SERVER_MAX_BODY_BYTES="abc")
    t.ok(rc != 0 and "AIVISTA_SERVER_MAX_BODY_BYTES" in err,
         "-t: a bad environment override is named")
    rc, out, err = check(sample, AIVISTA_SERVER_MAX_BODY_BYTES="4096",
                         AIVISTA_PROVIDER_CHAT_KIND="offline", AIVISTA_STORE_DIR=store)
    t.is_(rc, 0, "-t: good environment overrides are accepted")

    # docs/configuration.md keeps up with the sample.
    section, keys = None, []
    with open(sample) as f:
        for line in f:
            m = re.match(r"\[([^\]]+)\]", line)
            if m:
                section = m.group(1)
            m = re.match(r"([a-z_]+)\s*=", line)
            if m:
                keys.append((section, m.group(1)))
    with open(avtest.src_path("docs", "configuration.md")) as f:
        doc = f.read()
    undocumented = ["[%s] %s" % k for k in keys
                    if "`%s`" % k[1] not in doc or "[%s]" % k[0] not in doc]
    t.is_(undocumented, [], "docs/configuration.md covers every key of etc/aivista.conf")


def main(t):
    d = t.tmpdir("direct")
    w = Worker(t, d, {"server": {"max_body_bytes": str(MAX_BODY)}}).start()
    seen = []
    test_health(t, w, seen)
    test_errors(t, w, seen)
    test_bodies(t, w, seen)
    test_slow_body(t, w, seen)
    test_styles(t, w, seen)
    pids = sorted(set(r.header("X-AiVista-Worker") for r in seen))
    t.is_(pids, [str(w.pid)], "one worker pid served all %d requests" % len(seen))
    t.ok(w.alive(), "the worker survived them")
    test_disconnects(t, w)
    test_idle_signals(t, d)
    test_styles_broken(t, d)
    test_signal_in_params(t, d)
    test_signal_in_body(t, d)
    test_fd0(t, d)
    test_config_check(t, d)
    r = w.request("GET", "/api/health")
    t.is_((r.status, r.header("X-AiVista-Worker")), (200, str(w.pid)),
          "the first worker still serves at the end")
    w.signal(signal.SIGTERM)
    t.is_(w.wait(), 0, "the first worker exits with status 0 on SIGTERM")


if __name__ == "__main__":
    avtest.run(main)
