#!/usr/bin/env python3
"""Pages of other sites and other host names, through a real lighttpd from
contrib/lighttpd/aivista.conf ([server] allowed_hosts empty: lighttpd's
server.name and the loopback names):

- a POST that a page elsewhere can send without a preflight (text/plain,
  no type) is refused, from another site (403 foreign_origin) and from
  anywhere (415 unsupported_media_type), and so is application/json from
  another site's page or from "null"; a cancel from another site too;
  none of them makes a thread. The same request from the site itself (or
  without Origin) runs; the body-less cancel needs no type.
- a request for another host (a DNS name pointed at this server) is 421
  misdirected_request; the loopback names answer; with allowed_hosts = *
  any host does.
- the app's page and scripts, and the API's answers, carry the app's
  policy (Content-Security-Policy with frame-ancestors 'none', nosniff,
  Referrer-Policy); an asset keeps its own stricter policy.
- a user's HTML file is sent as a download (Content-Disposition:
  attachment), a text file is not; the names of an orchestrate file and a
  chat picture lost their bidi controls (U+202E...).
"""

import base64
import http.client
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

ADMIN = os.path.join(avtest.TOP_BUILDDIR, "aivista-admin")
STREAM = "/api/agent/stream"
JSON = "application/json"
EVIL = "https://evil.example"
IMAGE = json.dumps({"workflow": "image", "input": {"text": "a lighthouse at dusk"}})
POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; "
          "object-src 'none'")
API_POLICY = "default-src 'none'; frame-ancestors 'none'"


def request(port, method, path, body=None, headers=None, host=None):
    """(status, headers as an http.client.HTTPMessage, body); host: the Host
    header to send instead of 127.0.0.1:port."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.putrequest(method, path, skip_host=host is not None, skip_accept_encoding=True)
        hdrs = dict(headers or {})
        if host is not None:
            hdrs["Host"] = host
        if body is not None:
            body = body.encode("utf-8") if isinstance(body, str) else body
            hdrs["Content-Length"] = str(len(body))
        for k, v in hdrs.items():
            conn.putheader(k, v)
        conn.endheaders()
        if body:
            conn.send(body)
        resp = conn.getresponse()
        return resp.status, resp.msg, resp.read()
    finally:
        conn.close()


def code(body):
    return (avtest.problem(body) or {}).get("code")


def threads(srv):
    p = subprocess.run([ADMIN, "-c", srv.worker_conf, "stats", "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=avtest.clean_env(), timeout=120)
    try:
        return json.loads(p.stdout).get("threads")
    except ValueError:
        return "stats failed: %r" % p.stderr


def test_refused(t, srv):
    port, own = srv.port, "http://127.0.0.1:%d" % srv.port
    for name, hdrs, want in (
            ("text/plain from another site", {"Content-Type": "text/plain", "Origin": EVIL},
             (403, "foreign_origin")),
            ("text/plain with no Origin", {"Content-Type": "text/plain;charset=UTF-8"},
             (415, "unsupported_media_type")),
            ("text/plain from the site itself", {"Content-Type": "text/plain", "Origin": own},
             (415, "unsupported_media_type")),
            ("a body with no type", {}, (415, "unsupported_media_type")),
            ("a form's type", {"Content-Type": "application/x-www-form-urlencoded"},
             (415, "unsupported_media_type")),
            ("application/json from another site", {"Content-Type": JSON, "Origin": EVIL},
             (403, "foreign_origin")),
            ("application/json from the site on another port",
             {"Content-Type": JSON, "Origin": "http://127.0.0.1:%d" % (port + 1)},
             (403, "foreign_origin")),
            ("application/json from Origin null", {"Content-Type": JSON, "Origin": "null"},
             (403, "foreign_origin"))):
        st, _, body = request(port, "POST", STREAM, IMAGE, hdrs)
        t.is_((st, code(body)), want, "%s: %d %s" % (name, want[0], want[1]))
    st, _, body = request(port, "POST", "/api/threads/v1.AAAAAAAAAAAAAAAAAAAAAA.AAAA/cancel", b"",
                          {"Origin": EVIL})
    t.is_((st, code(body)), (403, "foreign_origin"), "a cancel from another site: 403 foreign_origin")
    st, _, body = request(port, "POST", "/api/threads/v1.AAAAAAAAAAAAAAAAAAAAAA.AAAA/cancel", b"",
                          {"Origin": own})
    t.is_(code(body), "bad_thread_id",
          "a cancel from the site, without a body or a type, reaches the thread check")
    t.is_(threads(srv), 0, "no refused request made a thread")


def test_same_site(t, srv):
    port = srv.port
    st, _, body = request(port, "POST", STREAM, IMAGE,
                          {"Content-Type": JSON, "Origin": "http://127.0.0.1:%d" % port})
    evs = events(body) if st == 200 else []
    t.ok(st == 200 and data(evs, "thread_start"), "application/json from the site itself runs (%d)" % st)
    st, _, body = request(port, "POST", STREAM, IMAGE, {"Content-Type": JSON})
    t.ok(st == 200 and data(events(body), "thread_start"), "so does one without Origin (curl) (%d)" % st)
    t.is_(threads(srv), 2, "the two threads are in the store")
    urls = [d.get("imageUrl") for d in data(evs) if isinstance(d.get("imageUrl"), str)]
    return urls[-1].rsplit("/", 1)[-1] if urls else None


def test_hosts(t, srv):
    port = srv.port
    for host in ("evil.example", "evil.example:%d" % port, "127.0.0.1.nip.example"):
        st, _, body = request(port, "GET", "/api/health", host=host)
        t.is_((st, code(body)), (421, "misdirected_request"), "Host: %s: 421 misdirected_request" % host)
    st, _, body = request(port, "POST", STREAM, IMAGE, {"Content-Type": JSON}, host="evil.example")
    t.is_((st, code(body)), (421, "misdirected_request"), "a POST for another host: 421")
    for host in ("localhost:%d" % port, "127.0.0.1:%d" % port, "[::1]:%d" % port):
        st, _, _ = request(port, "GET", "/api/health", host=host)
        t.is_(st, 200, "Host: %s: served" % host)


def one(t, hdrs, name, what):
    got = hdrs.get_all(name) or []
    t.is_(len(got), 1, "%s: one %s header (%s)" % (what, name, got))
    return got[0] if got else None


def test_policy_headers(t, srv, asset):
    port = srv.port
    for path, want in (("/", POLICY), ("/index.html", POLICY), ("/app.js", POLICY),
                       ("/app.css", POLICY), ("/api/health", API_POLICY)):
        st, hdrs, _ = request(port, "GET", path)
        t.is_(st, 200, "GET %s: 200" % path)
        t.is_(one(t, hdrs, "Content-Security-Policy", path), want,
              "GET %s: its policy (frame-ancestors 'none')" % path)
        t.is_(one(t, hdrs, "X-Content-Type-Options", path), "nosniff", "GET %s: nosniff" % path)
        t.is_(one(t, hdrs, "Referrer-Policy", path), "same-origin", "GET %s: Referrer-Policy" % path)
    st, hdrs, _ = request(port, "GET", "/api/nowhere")
    t.ok(st == 404 and hdrs.get("Content-Security-Policy") == API_POLICY,
         "an API error carries the API's policy too")
    st, hdrs, _ = request(port, "GET", "/app.js")
    st, hdrs, _ = request(port, "GET", "/app.js", headers={"If-None-Match": hdrs.get("ETag") or "x"})
    t.ok(st == 304 and hdrs.get("Content-Security-Policy") == POLICY,
         "a revalidated script (304) carries the policy too (%d)" % st)
    if asset:
        st, hdrs, _ = request(port, "GET", "/api/assets/" + asset)
        csp = one(t, hdrs, "Content-Security-Policy", "an asset") or ""
        t.ok(st == 200 and "sandbox" in csp and "default-src 'none'" in csp,
             "an asset keeps its own policy (%s)" % csp)
        t.is_(one(t, hdrs, "X-Content-Type-Options", "an asset"), "nosniff", "an asset: nosniff")
        t.is_(one(t, hdrs, "Referrer-Policy", "an asset"), "same-origin", "an asset: Referrer-Policy")
    else:
        t.ok(False, "the image thread gave a picture to check an asset's headers with")


def test_user_files(t, srv):
    page = b"<!doctype html><title>x</title><script>alert(document.domain)</script>"
    att = [{"name": "report\u202efdp.html", "mimeType": "text/html",
            "data": base64.b64encode(page).decode()},
           {"name": "notes.txt", "mimeType": "text/plain", "data": base64.b64encode(b"hello").decode()},
           {"name": "tool.js", "mimeType": "text/javascript",
            "data": base64.b64encode(b"alert(document.domain)").decode()}]
    body = json.dumps({"workflow": "orchestrate", "input": {"task": "summarise these files",
                                                             "attachments": att}})
    st, _, raw = request(srv.port, "POST", STREAM, body, {"Content-Type": JSON})
    start = data(events(raw), "thread_start") if st == 200 else []
    tid = start[0]["threadId"] if start else "x"
    st, _, raw = request(srv.port, "GET", "/api/threads/" + tid)
    ws = (json.loads(raw).get("state") or {}).get("workspace") or {} if st == 200 else {}
    t.ok("notes.txt" in ws and "reportfdp.html" in ws,
         "the attachments are in the workspace, the name without U+202E (%s)" % sorted(ws))
    html = (ws.get("reportfdp.html") or {}).get("assetId", "x")
    st, hdrs, got = request(srv.port, "GET", "/api/assets/" + html)
    t.ok(st == 200 and got == page, "the HTML file is served as it was given")
    t.is_(hdrs.get("Content-Disposition"), "attachment", "the HTML file is a download")
    t.ok((hdrs.get("Content-Type") or "").startswith("text/html") and
         hdrs.get("X-Content-Type-Options") == "nosniff", "with its type and nosniff")
    text = (ws.get("notes.txt") or {}).get("assetId", "x")
    st, hdrs, got = request(srv.port, "GET", "/api/assets/" + text)
    t.ok(st == 200 and got == b"hello" and hdrs.get("Content-Disposition") is None,
         "a text file is shown as it is (no Content-Disposition)")
    script = (ws.get("tool.js") or {}).get("assetId", "x")
    st, hdrs, got = request(srv.port, "GET", "/api/assets/" + script)
    t.ok(st == 200 and got == b"alert(document.domain)" and
         (hdrs.get("Content-Type") or "").startswith("text/plain") and
         hdrs.get("Content-Disposition") == "attachment",
         "a script is sent as plain text and a download, never as a script of this site (%s, %s)"
         % (hdrs.get("Content-Type"), hdrs.get("Content-Disposition")))

    pic = "data:image/png;base64," + base64.b64encode(avpng.solid(8, 8, (200, 40, 40))).decode()
    body = json.dumps({"workflow": "chat", "input": {"text": "what is in this picture?", "attachments": [
        {"name": "cat\u202egnp.exe\u2066\u200f", "data": pic}]}})
    st, _, raw = request(srv.port, "POST", STREAM, body, {"Content-Type": JSON})
    start = data(events(raw), "thread_start") if st == 200 else []
    tid = start[0]["threadId"] if start else "x"
    st, _, raw = request(srv.port, "GET", "/api/threads/" + tid)
    turn = (json.loads(raw).get("state") or {}).get("userInput") or {} if st == 200 else {}
    names = [i.get("name") for i in turn.get("images") or []]
    t.is_(names, ["catgnp.exe"], "a chat picture's name keeps no bidi control")


def main(t):
    d = t.tmpdir("cross")
    srv = avtest.Lighttpd(t, os.path.join(d, "a"), workers=2).start()
    test_refused(t, srv)
    asset = test_same_site(t, srv)
    test_hosts(t, srv)
    test_policy_headers(t, srv, asset)
    test_user_files(t, srv)
    srv.stop()

    anyhost = avtest.Lighttpd(t, os.path.join(d, "b"), workers=1,
                              settings={"server": {"allowed_hosts": "*"}}).start()
    st, _, _ = request(anyhost.port, "GET", "/api/health", host="evil.example")
    t.is_(st, 200, "allowed_hosts = *: any host is served")
    st, _, body = request(anyhost.port, "POST", STREAM, IMAGE, {"Content-Type": JSON, "Origin": EVIL})
    t.is_((st, code(body)), (403, "foreign_origin"),
          "allowed_hosts = *: another site's page is still refused")


if __name__ == "__main__":
    avtest.run(main)
