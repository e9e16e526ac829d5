"""Apache with mod_proxy_fcgi, set up by docs/deploy.md's lines run as
written (a2enmod and a2enconf on an /etc/apache2 of the test's own,
contrib/apache/aivista-proxy.conf copied as the installed example), in
front of test workers that run on their own on one unix socket, started
the way contrib/systemd/ starts them (the listening socket as standard
input, as aivista.socket with Accept=no hands it to each aivista@N.service;
the units the document's systemctl line enables, which cannot run without
a running systemd, are checked against the files): the stream checks every deployment passes
(tests/lib/webservers.py), with the proxy's timeout set to 2 s and
compression on for the whole site. Then workers started by spawn-fcgi, with
keep-alives slower than the timeout (the stream is cut: the limit is real).
"""

import os
import re
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402
import webservers as ws  # noqa: E402

WORKERS = 2
# docs/deploy.md's block Apache is set up by.
DOC = ("apache-proxy",)
MAX_BODY = 2 << 20
LABEL = "mod_proxy_fcgi"


def test_units(t):
    """docs/deploy.md's systemctl line enables the socket unit and worker
    instances of the shipped units, which the test's launcher stands for:
    the socket they share is the socket the Apache example names."""
    lines = deploydoc.commands("systemd-enable")
    words = lines[0].split() if len(lines) == 1 else []
    units = words[3:] if words[:3] == ["systemctl", "enable", "--now"] else []
    t.ok(units and units[0] == "aivista.socket" and
         all(re.match(r"aivista@\d+$", u) for u in units[1:]) and len(units) > 1,
         "docs/deploy.md enables aivista.socket and aivista@N instances (%s)" % " ".join(units))
    sock = open(avtest.src_path("contrib", "systemd", "aivista.socket")).read()
    proxy = open(avtest.src_path("contrib", "apache", "aivista-proxy.conf")).read()
    m = re.search(r"(?m)^ListenStream=(\S+)", sock)
    d = re.search(r"(?m)^Define aivista_socket (\S+)", proxy)
    t.ok(m and d and m.group(1) == d.group(1),
         "the example's socket is the one aivista.socket listens on (%s)" % (m and m.group(1)))


def main(t):
    d, user, started = ws.deploy_setup(t, "proxy")
    test_units(t)
    srv = ws.ApacheProxy(t, os.path.join(d, "main"), workers=WORKERS, binary=ws.TEST_WORKER,
                         settings=ws.worker_settings(server={"max_body_bytes": str(MAX_BODY)}),
                         user=user, doc=DOC).start()
    t.diag("apache pid %d on port %d, workers %s as %s" % (
        srv.pid, srv.port, srv.worker_pids(), user[0] if user else "the caller"))
    side = ws.SideWorker(t, os.path.join(d, "side"), srv).start()
    pids = srv.worker_pids()
    fig = ws.stream_checks(t, srv, side, LABEL, WORKERS, disconnect_slack=1.0)
    ws.serving_checks(t, srv, LABEL, MAX_BODY)
    ws.check_access_logs(t, srv, LABEL)
    ws.check_worker_log(t, srv, LABEL, lambda: avtest.tail(
        os.path.join(srv.log_dir, "workers.log"), 100000).splitlines(),
                        "the workers' own log (their service's standard error)")
    t.is_(srv.worker_pids(), pids, "%s: the same %d workers served everything (none died)"
          % (LABEL, WORKERS))
    side.kill()
    ws.stop_clean(t, srv, LABEL)

    ctl = ws.ApacheProxy(t, os.path.join(d, "control"), workers=1, binary=ws.TEST_WORKER,
                         settings=ws.worker_settings(server={"keepalive_ms": "10000"}),
                         user=user, launcher="spawn-fcgi", doc=DOC).start()
    status, _, _ = ctl.request("GET", "/api/health")
    t.is_(status, 200, "%s: workers started by spawn-fcgi answer" % LABEL)
    # spawn-fcgi restarts nothing: the prefork parent it starts does.
    before = ctl.worker_pids()
    os.kill(before[0], signal.SIGKILL)
    after = avtest.wait_for(lambda: [p for p in ctl.worker_pids() if p not in before] or None, 10)
    status, _, _ = ctl.request("GET", "/api/health")
    t.ok(after and status == 200, "%s, spawn-fcgi: a worker killed with SIGKILL is replaced "
         "(%s -> %s) and the pool answers" % (LABEL, before, after))
    ws.check_quiet_control(t, ctl, LABEL)
    ws.stop_clean(t, ctl, LABEL + ", spawn-fcgi")
    ws.diag_figures(t, fig, started)


if __name__ == "__main__":
    avtest.run(main)
