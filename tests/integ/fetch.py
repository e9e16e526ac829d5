"""The URL fetcher against a real HTTP server on loopback: an image is
fetched with its type; text, a 404, an oversized image and too many
redirects are refused; a redirect to an address that is not public
(loopback, metadata, [::1]) or to file:// is refused before any
connection: a server listening there counts zero hits."""

import http.server
import json
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402

CLI = os.path.join(avtest.TOP_BUILDDIR, "tests", "prov", "fetchcli")


PNG = avpng.solid(4, 4, (200, 30, 90))


def serve(host, routes, hits):
    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            status, headers, body = routes(self.path)
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass
    srv = http.server.ThreadingHTTPServer((host, 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def main(t):
    if not os.access(CLI, os.X_OK):
        raise avtest.SetupError("no %s" % CLI)
    d = t.tmpdir("fetch")
    lo_hits, hits = [], []
    lo = serve("127.0.0.1", lambda p: (200, {"Content-Type": "image/png"}, PNG), lo_hits)
    t.cleanup(lo.shutdown)
    lo_port = lo.server_address[1]
    box = {}

    def routes(path):
        port = box["port"]
        table = {
            "/img.png": (200, {"Content-Type": "image/png"}, PNG),
            "/img-type.png": (200, {"Content-Type": "image/png; charset=binary"}, PNG),
            "/text": (200, {"Content-Type": "text/plain"}, b"hello"),
            "/lying.png": (200, {"Content-Type": "image/png"}, b"<html>not an image</html>"),
            "/big.png": (200, {"Content-Type": "image/png"}, PNG + b"\0" * 100000),
            "/missing.png": (404, {"Content-Type": "text/plain"}, b"no"),
            "/redir/ok": (302, {"Location": "http://127.0.0.2:%d/img.png" % port}, b""),
            "/redir/relative": (301, {"Location": "/img.png"}, b""),
            "/redir/lo": (302, {"Location": "http://127.0.0.1:%d/img.png" % lo_port}, b""),
            "/redir/localhost": (302, {"Location": "http://localhost:%d/img.png" % lo_port}, b""),
            "/redir/v6": (302, {"Location": "http://[::1]:%d/img.png" % lo_port}, b""),
            "/redir/meta": (302, {"Location": "http://169.254.169.254/latest/meta-data/"}, b""),
            "/redir/file": (302, {"Location": "file:///etc/passwd"}, b""),
            "/redir/loop": (302, {"Location": "/redir/loop"}, b""),
        }
        return table.get(path, (404, {}, b""))
    srv = serve("127.0.0.2", routes, hits)
    t.cleanup(srv.shutdown)
    box["port"] = port = srv.server_address[1]
    base = "http://127.0.0.2:%d" % port

    def conf(name, **fetch):
        settings = {"fetch": {"max_bytes": "65536", "timeout_ms": "5000"}}
        settings["fetch"].update(fetch)
        return avtest.write_file(os.path.join(d, name), avtest.conf_from_sample(settings))
    trusted = conf("trusted.conf", allow_hosts="127.0.0.2")
    strict = conf("strict.conf")
    open_ = conf("open.conf", allow_private="yes")

    def fetch(cfg, url):
        out = subprocess.run([CLI, "-c", cfg, url], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
        return json.loads(out.stdout.decode())

    import hashlib
    want = hashlib.sha256(PNG).hexdigest()
    r = fetch(trusted, base + "/img.png")
    t.ok(r["ok"] and r["mime"] == "image/png" and r["sha256"] == want,
         "an image from a trusted host: fetched, bytes and type intact")
    r = fetch(trusted, base + "/img-type.png")
    t.ok(r["ok"], "a content type with parameters is fine")
    r = fetch(strict, base + "/img.png")
    t.ok(not r["ok"] and "not public" in r["error"], "the same host, not trusted: refused (%s)"
         % r["error"])
    r = fetch(open_, "http://127.0.0.1:%d/img.png" % lo_port)
    t.ok(r["ok"], "allow_private = yes: loopback may be fetched")
    n_lo = len(lo_hits)
    for path, why, name in (("/text", "not an image", "text"),
                            ("/lying.png", "not an image", "bytes that are not an image"),
                            ("/big.png", "larger", "an image over max_bytes"),
                            ("/missing.png", "404", "a 404"),
                            ("/redir/loop", "redirects", "a redirect loop"),
                            ("/redir/lo", "not public", "a redirect to 127.0.0.1"),
                            ("/redir/localhost", "not public", "a redirect to localhost"),
                            ("/redir/v6", "not public", "a redirect to [::1]"),
                            ("/redir/meta", "not public", "a redirect to 169.254.169.254"),
                            ("/redir/file", "only http", "a redirect to file://")):
        r = fetch(trusted, base + path)
        t.ok(not r["ok"] and why in r["error"], "%s: refused (%s)" % (name, r["error"]))
    t.is_(len(lo_hits), n_lo, "no refused redirect reached the loopback server")
    r = fetch(trusted, base + "/redir/ok")
    t.ok(r["ok"] and r["sha256"] == want, "a redirect to the same trusted host is followed")
    r = fetch(trusted, base + "/redir/relative")
    t.ok(r["ok"], "a relative redirect is followed")
    for url in ("file:///etc/passwd", "ftp://127.0.0.2/x.png", "http://[::1]/x.png",
                "http://169.254.169.254/", "http://10.0.0.1/x.png"):
        r = fetch(trusted, url)
        t.ok(not r["ok"], "refused outright: %s (%s)" % (url, r["error"]))


avtest.run(main)
