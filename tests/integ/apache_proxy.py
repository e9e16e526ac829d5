"""Apache with mod_proxy_fcgi, configured from contrib/apache/aivista-proxy.conf
(the file users deploy), in front of test workers that run on their own on
one unix socket, started the way contrib/systemd/ starts them (the
listening socket as standard input, as aivista.socket with Accept=no hands
it to each aivista@N.service): the stream checks every deployment passes
(tests/lib/webservers.py), with the proxy's timeout set to 2 s and
compression on for the whole site. Then workers started by spawn-fcgi, with
keep-alives slower than the timeout (the stream is cut: the limit is real).
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import webservers as ws  # noqa: E402

WORKERS = 2
MAX_BODY = 2 << 20
LABEL = "mod_proxy_fcgi"


def main(t):
    if not os.access(ws.TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % ws.TEST_WORKER)
    user = ws.run_user()
    d = t.tmpdir("proxy")
    ws.give(d, user)
    started = time.monotonic()
    srv = ws.ApacheProxy(t, os.path.join(d, "main"), workers=WORKERS, binary=ws.TEST_WORKER,
                         settings=ws.worker_settings(server={"max_body_bytes": str(MAX_BODY)}),
                         user=user).start()
    t.diag("apache pid %d on port %d, workers %s as %s" % (
        srv.pid, srv.port, srv.worker_pids(), user[0] if user else "the caller"))
    side = ws.SideWorker(t, os.path.join(d, "side"), srv, binary=srv.worker,
                         settings={"kb": {"styles": os.path.join(srv.dir, "inst",
                                                                 "styles.json")}}).start()
    pids = srv.worker_pids()
    fig = ws.stream_checks(t, srv, side, LABEL, WORKERS, disconnect_slack=1.0)
    ws.check_no_gzip(t, srv, LABEL)
    ws.check_static_caching(t, srv, LABEL)
    ws.check_body_sizes(t, srv, LABEL, MAX_BODY)
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
                         user=user, launcher="spawn-fcgi").start()
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
    t.diag("figures: long stream %.1f s, disconnect freed in %.2f s, all busy: %.2f s (%s); "
           "checks %.1f s; whole test %.1f s" % (fig["long"], fig["disconnect"], fig["busy"][0],
                                                fig["busy"][1], fig["checks"],
                                                time.monotonic() - started))


if __name__ == "__main__":
    avtest.run(main)
