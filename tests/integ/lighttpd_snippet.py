#!/usr/bin/env python3
"""contrib/lighttpd/aivista-socket.conf, the snippet an existing lighttpd
includes (Debian: conf-available/50-aivista.conf), under a real lighttpd
with a worker that runs on its own socket: the app under /aivista/ with
its caching headers, the API streaming through it, and an access log that holds no thread ID (no
query strings; thread paths written as /aivista/api/threads/*)."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402

SNIPPET = os.path.join("contrib", "lighttpd", "aivista-socket.conf")
URL = "/aivista"
TID = re.compile(r"v1\.[A-Za-z0-9_-]{22}\.")


def snippet_text(www, sock):
    with open(avtest.src_path(SNIPPET)) as f:
        text = f.read()
    for name, value in (("www", www), ("socket", sock)):
        text, n = re.subn(r"(?m)^var\.aivista_%s\s*=.*$" % name,
                          lambda m: "var.aivista_%s = %s" % (name, avtest.lighttpd_quote(value)),
                          text)
        if n != 1:
            raise avtest.SetupError("%s: expected one var.aivista_%s line" % (SNIPPET, name))
    return text


class SnippetLighttpd(avtest.Lighttpd):
    """A site of its own (as on a host that serves other things) that loads
    mod_alias and mod_accesslog, as Debian's lighttpd.conf and
    "lighty-enable-mod accesslog" do, and includes the snippet."""

    health_path = URL + "/api/health"

    def __init__(self, t, dir, sock):
        super().__init__(t, dir, workers=0)
        self.sock = sock
        self.site = os.path.join(dir, "site")
        os.makedirs(self.site, exist_ok=True)
        avtest.write_file(os.path.join(self.site, "index.html"), "the host's own site\n")

    def write_conf(self):
        q = avtest.lighttpd_quote
        snippet = avtest.write_file(os.path.join(self.dir, "50-aivista.conf"),
                                    snippet_text(avtest.src_path("www"), self.sock))
        avtest.write_file(self.conf, "\n".join([
            'server.modules = ( "mod_alias", "mod_accesslog" )',
            "server.document-root = %s" % q(self.site),
            'server.bind = "127.0.0.1"',
            "server.port = %d" % self.port,
            "server.errorlog = %s" % q(self.error_log),
            "accesslog.filename = %s" % q(self.access_log),
            'index-file.names = ( "index.html" )',
            'mimetype.assign = ( ".html" => "text/html", ".js" => "text/javascript", '
            '".css" => "text/css" )',
            "include %s" % q(snippet), ""]))


def main(t):
    d = t.tmpdir("snippet")
    w = avtest.Worker(t, d).start()
    srv = SnippetLighttpd(t, d, w.sock).start()
    t.diag("lighttpd pid %d on port %d, worker %d" % (srv.pid, srv.port, w.pid))

    status, _, body = srv.get(URL + "/")
    t.ok(status == 200 and b"<html" in body.lower(), "the app is served under /aivista/")
    status, hdrs, _ = srv.get(URL)
    t.ok(status == 301 and hdrs.get("location", "").endswith(URL + "/"),
         "%s without its slash: a redirect to %s/ (%s %s)" % (URL, URL, status,
                                                            hdrs.get("location")))
    status, hdrs, body = srv.get("/")
    t.ok(status == 200 and b"own site" in body and "cache-control" not in hdrs,
         "the host's own site is untouched (no Cache-Control of the app's)")
    for path in (URL + "/", URL + "/app.js"):
        status, hdrs, _ = srv.get(path)
        etag = hdrs.get("etag")
        t.ok(status == 200 and etag and hdrs.get("cache-control") == "no-cache",
             "%s: an ETag and Cache-Control: no-cache (%s)" % (path, hdrs.get("cache-control")))
        status, _, body = srv.request("GET", path, headers={"If-None-Match": etag or "x"})
        t.ok(status == 304 and body == b"", "%s: 304 for that ETag" % path)

    body = json.dumps({"workflow": "image", "input": {"text": "a red fox in snow"}})
    status, headers, raw = srv.request("POST", URL + "/api/agent/stream", body,
                                       {"Content-Type": "application/json"}, timeout=60)
    text = raw.decode("utf-8", "replace")
    m = re.search(r'"threadId":"([^"]+)"', text)
    t.ok(status == 200 and headers.get("content-type", "").startswith("text/event-stream")
         and m is not None, "a thread streams through the snippet")
    tid = m.group(1) if m else "v1.none"
    t.ok('"workflow_complete"' in text and "data: [DONE]" in text, "and runs to its end")

    paths = [URL + "/api/threads/" + tid, URL + "/api/threads/" + tid + "/history",
             URL + "/api/agent/stream?threadId=" + tid,
             URL + "/api/agent/stream?lastEventId=1&threadId=" + tid]
    codes = [srv.get(p, timeout=60)[0] for p in paths]
    t.is_(codes, [200, 200, 200, 200], "the thread is read by path and by query")

    srv.stop()   # lighttpd writes its access log out when it stops
    log = avtest.tail(srv.access_log, 10 ** 6)
    t.ok(URL + "/api/threads/* " in log and URL + "/api/agent/stream " in log,
         "the access log has the API requests, thread paths masked")
    t.ok(not TID.search(log) and "threadId" not in log and tid not in log,
         "the access log holds no thread ID and no query string")


if __name__ == "__main__":
    avtest.run(main)
