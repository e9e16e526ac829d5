"""Apache with mod_fcgid, set up by docs/deploy.md's lines run as written
(a2enmod on an /etc/apache2 of the test's own, contrib/apache/aivista-fcgid.conf
copied as the installed example and included inside the site's
VirtualHost), spawning the test worker: the stream checks every
deployment passes (tests/lib/webservers.py), with the server's limits set
small (FcgidIOTimeout 2 s, FcgidBusyTimeout 8 s checked every second);
compression on for the whole site; request bodies the size of a mask.
Then the same configuration with keep-alives slower than FcgidIOTimeout
(the stream is cut: the limit is real), and the shared-hosting variant
(contrib/apache/htaccess and its wrapper, put in place by the document's
shared hosting lines run as written, HOME the test's account directory)
under a host's default mod_fcgid settings.
"""

import json
import shutil
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402
import webservers as ws  # noqa: E402

WORKERS = 2
# docs/deploy.md's blocks the server is set up by.
DOC = ("apache-fcgid", "apache-fcgid-site")
BUSY_S = 8
MAX_BODY = 2 << 20
LABEL = "mod_fcgid"


class SharedHost(ws.Apache):
    """A host's Apache: mod_fcgid with its defaults, .htaccess allowed in the
    user's web directory, nothing about AiVista in the server configuration.
    The user's part, as docs/deploy.md's block shared-app puts it, run as
    written with HOME the account's directory: the app, .htaccess and the
    wrapper in ~/public_html/aivista (the site's document root), copied
    from what make install --prefix=$HOME/aivista leaves in ~/aivista
    (outside the web root), where the worker, its configuration and store
    are."""

    modules = ws.Apache.modules + ["fcgid"]
    label = "shared hosting"

    def __init__(self, t, dir, user, binary):
        super().__init__(t, dir, user)
        self.home = os.path.join(dir, "home")
        # What make install --prefix=$HOME/aivista leaves (the test worker
        # as the worker; the wrapper naming it, as make install writes it).
        prefix = os.path.join(self.home, "aivista")
        worker, www, styles = ws.stage_files(prefix, binary)
        os.makedirs(os.path.join(prefix, "etc"), exist_ok=True)
        self.store = os.path.join(prefix, "store")
        self.worker_conf = ws.worker_conf(os.path.join(prefix, "etc"), self.store, styles,
                                          ws.worker_settings())
        shutil.copytree(www, os.path.join(prefix, "share", "aivista", "www"))
        examples = os.path.join(prefix, "share", "doc", "aivista", "examples", "apache")
        os.makedirs(examples)
        shutil.copy2(avtest.src_path("contrib", "apache", "htaccess"), examples)
        with open(avtest.src_path("contrib", "apache", "api")) as f:
            wrapper = f.read()
        wrapper = ws.replace_lines(wrapper, "contrib/apache/api", r"(?m)^%s=.*$",
                                   {"AIVISTA_WORKER": worker, "AIVISTA_CONF": self.worker_conf},
                                   lambda k, v: "%s=%s" % (k, v))
        avtest.write_file(os.path.join(examples, "api"), wrapper, 0o644)
        self.docroot = os.path.join(self.home, "public_html")
        self.app = os.path.join(self.docroot, "aivista")
        env = avtest.clean_env(HOME=self.home)
        for line in deploydoc.commands("shared-app"):
            p = subprocess.run(["/bin/sh", "-c", line], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                               timeout=60)
            t.ok(p.returncode == 0, "%s: docs/deploy.md as written: %s" % (self.label, line))
            if p.returncode:
                raise avtest.SetupError(p.stdout.decode(errors="replace"))
        self.before = ws.fcgid_dirs(self.run_dir)

    def write_site(self):
        avtest.write_file(self.site, "\n".join([
            "# The host's part: its users may use .htaccess in their web directories.",
            "<Directory %s>" % self.docroot,
            "\tAllowOverride FileInfo Indexes Options",
            "\tRequire all granted",
            "</Directory>",
            "",
        ]))


def test_shared_hosting(t, d, user):
    host = SharedHost(t, d, user, ws.TEST_WORKER).start()
    label = "shared hosting (.htaccess)"
    status, hdrs, body = host.request("GET", "/")
    with open(avtest.src_path("www", "index.html"), "rb") as f:
        t.ok(status == 200 and body == f.read(), "%s: the app is served from its directory" % label)
    status, hdrs, body = host.request("GET", "/api/health")
    t.ok(status == 200 and (avtest.problem(body) or {}).get("status") == "ok",
         "%s: /api/health reaches the worker through the wrapper" % label)
    s = ws.TimedStream(host, "POST", "/api/agent/stream",
                       ws.test_input(steps=4, sleepMs=600)).read_all()
    t.ok(s.types()[-1:] == ["[DONE]"], "%s: a stream completes" % label)
    t.ok(s.times and s.times[0] >= 2.0,
         "%s: with the host's default FcgidOutputBufferSize the events come together at the "
         "end (first at %.2f s of a 2.4 s stream): what docs/deploy.md says"
         % (label, s.times[0] if s.times else -1))
    resp = ws.TimedStream(host, "POST", "/api/agent/stream", ws.test_input(pause=True)).read_all()
    q = ws.ask(resp.events)
    r = ws.TimedStream(host, "POST", "/api/agent/confirm",
                       {"threadId": resp.thread_id(), "interruptId": q and q["interruptId"],
                        "action": "approve"}).read_all()
    t.ok(q and r.types()[-1:] == ["[DONE]"], "%s: a pause is confirmed" % label)
    host.www = host.app
    ws.check_static_caching(t, host, label)
    # No UseCanonicalName in .htaccess: SERVER_NAME is the request's Host.
    ws.check_site_policy(t, host, label, host_check=False)
    mask = json.dumps(ws.test_input(blob="m" * 200000))
    status, _, _ = host.request("POST", "/api/agent/stream", mask, ws.JSON_HDR)
    t.is_(status, 500, "%s: a 200 kB body is refused by the host's FcgidMaxRequestLen "
          "(131072) with 500, as docs/deploy.md says" % label)
    # Server-wide mod_fcgid settings are refused in .htaccess.
    bad = os.path.join(host.docroot, "bad")
    os.makedirs(bad)
    avtest.write_file(os.path.join(bad, ".htaccess"), "FcgidOutputBufferSize 0\n")
    avtest.write_file(os.path.join(bad, "index.html"), "x\n")
    ws.give(bad, user)
    status, _, _ = avtest.http_request(host.port, "GET", "/bad/")
    t.is_(status, 500, "%s: FcgidOutputBufferSize in .htaccess is refused (500)" % label)
    t.ok(host.error_lines(r"FcgidOutputBufferSize not allowed here"),
         "%s: ...Apache says it is not allowed there" % label)
    ws.stop_clean(t, host, label)


def main(t):
    d, user, started = ws.deploy_setup(t, "fcgid")
    srv = ws.ApacheFcgid(t, os.path.join(d, "main"), workers=WORKERS, binary=ws.TEST_WORKER,
                         settings=ws.worker_settings(server={"max_body_bytes": str(MAX_BODY)}),
                         directives={"FcgidIOTimeout": ws.IDLE_S, "FcgidBusyTimeout": BUSY_S},
                         user=user, doc=DOC)
    srv.extra = "FcgidBusyScanInterval 1"
    srv.start()
    t.diag("apache pid %d on port %d, workers as %s" % (srv.pid, srv.port,
                                                        user[0] if user else "the caller"))
    side = ws.SideWorker(t, os.path.join(d, "side"), srv).start()
    # mod_fcgid looks for a free process once a second: a freed worker
    # takes up to that long to get the next request.
    fig = ws.stream_checks(t, srv, side, LABEL, WORKERS, disconnect_slack=2.0, busy_limit=BUSY_S)
    ws.serving_checks(t, srv, LABEL, MAX_BODY)
    ws.check_access_logs(t, srv, LABEL)
    ws.check_worker_log(t, srv, LABEL, lambda: srv.error_lines(r"bad_thread_id"),
                        "Apache's error log")
    t.is_(srv.error_lines(r"busy timeout"), [],
          "%s: no worker was killed for FcgidBusyTimeout" % LABEL)
    pids = srv.worker_pids()
    t.ok(1 <= len(pids) <= WORKERS, "%s: at most %d workers ran (%s)" % (LABEL, WORKERS, pids))
    side.kill()
    ws.stop_clean(t, srv, LABEL)

    ctl = ws.ApacheFcgid(t, os.path.join(d, "control"), workers=1, binary=ws.TEST_WORKER,
                         settings=ws.worker_settings(server={"keepalive_ms": "10000"}),
                         directives={"FcgidIOTimeout": ws.IDLE_S}, user=user, doc=DOC).start()
    ws.check_quiet_control(t, ctl, LABEL)
    ws.stop_clean(t, ctl, LABEL + ", control")

    test_shared_hosting(t, os.path.join(d, "shared"), user)
    ws.diag_figures(t, fig, started)


if __name__ == "__main__":
    avtest.run(main)
