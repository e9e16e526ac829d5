"""lighttpd, configured from contrib/lighttpd/aivista.conf (the file users
deploy) with server.max-write-idle set to 2 s, spawning test workers: the
stream checks every deployment passes (tests/lib/webservers.py). Then the
same with keep-alives slower than max-write-idle (the stream is cut: the
limit is real). And the worker alone: stream_max_ms ends a stream even
when the request budget is larger.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import webservers as ws  # noqa: E402
from avtest import SSEReader  # noqa: E402

WORKERS = 2
MAX_BODY = 2 << 20
LABEL = "lighttpd"


def test_worker_alone(t, d):
    """stream_max_ms below request_budget_ms: the run loop yields at
    stream_max_ms (the budget is the smaller of the two)."""
    w = avtest.Worker(t, d, name="alone", binary=ws.TEST_WORKER,
                      settings={"server": {"stream_max_ms": "1000"},
                                "engine": {"request_budget_ms": "60000",
                                           "max_iterations": "100"}}).start()
    t0 = time.monotonic()
    r = w.request("POST", "/api/agent/stream", body=ws.json.dumps(ws.test_input(steps=8,
                                                                            sleepMs=300)),
                  headers=ws.JSON_HDR)
    took = time.monotonic() - t0
    evs = list(SSEReader(iter([r.body])))
    last = evs[-1]["data"] if evs else None
    t.ok(isinstance(last, dict) and last.get("type") == "workflow_yield" and
         any("retry" in e for e in evs),
         "worker alone: stream_max_ms 1000 with request_budget_ms 60000 ends the stream with "
         "retry: and workflow_yield")
    t.ok(1.0 <= took < 2.0, "worker alone: ...after the step running at 1 s (%.2f s)" % took)
    w.kill()


def main(t):
    if not os.access(ws.TEST_WORKER, os.X_OK):
        raise avtest.SetupError("no test worker at %s" % ws.TEST_WORKER)
    d = t.tmpdir("ltstream")
    started = time.monotonic()
    test_worker_alone(t, d)
    srv = ws.LighttpdServer(t, os.path.join(d, "main"), workers=WORKERS, binary=ws.TEST_WORKER,
                            settings=ws.worker_settings(server={"max_body_bytes":
                                                                str(MAX_BODY)})).start()
    t.diag("lighttpd pid %d on port %d" % (srv.pid, srv.port))
    pids = srv.worker_pids()
    side = ws.SideWorker(t, os.path.join(d, "side"), srv).start()
    fig = ws.stream_checks(t, srv, side, LABEL, WORKERS, disconnect_slack=1.0)
    ws.serving_checks(t, srv, LABEL, MAX_BODY)
    t.is_(srv.worker_pids(), pids, "%s: the same %d workers served everything (none died)"
          % (LABEL, WORKERS))
    side.kill()
    ws.stop_clean(t, srv, LABEL)

    ctl = ws.LighttpdServer(t, os.path.join(d, "control"), workers=1, binary=ws.TEST_WORKER,
                            settings=ws.worker_settings(server={"keepalive_ms": "10000"})).start()
    ws.check_quiet_control(t, ctl, LABEL)
    ws.stop_clean(t, ctl, LABEL + ", control")
    ws.diag_figures(t, fig, started)


if __name__ == "__main__":
    avtest.run(main)
