#!/usr/bin/env python3
"""A store that fails is 503 store_unavailable, never a client error, and
no answer names the store's directory or repeats the system's words about
it: those go to the worker's log only.

Two ways to fail: a store that cannot be opened (its directory is a
file; on PostgreSQL, under make check-postgresql, no server where the dsn
points), and a store that opens but cannot grow its files (the worker runs
under a file size limit, as on a full disk), where an inpainting request's
mask cannot be stored: Berkeley DB only, since PostgreSQL's files are the
server's (skipped there, saying so)."""

import base64
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402

JSON_HDR = {"Content-Type": "application/json"}
# Words of the system's error messages that would say what the store is.
SYSTEM_WORDS = ("Not a directory", "File exists", "File too large", "Permission denied",
                "No such file", "Input/output error")

# Starts the worker with writes past a file size limit failing (EFBIG),
# as a full disk would make them fail, instead of killing it (SIGXFSZ).
WRAPPER = """#!%s
import os, resource, signal, sys
limit = int(os.environ["AIVISTA_TEST_FSIZE"])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
os.execv(os.environ["AIVISTA_TEST_WORKER"], [os.environ["AIVISTA_TEST_WORKER"]] + sys.argv[1:])
"""


def no_secrets(t, body, secrets, name):
    text = body.decode("utf-8", "replace")
    found = [s for s in secrets if s in text]
    if not t.ok(not found, name + ": no path, no system error words"):
        t.diag("found %r in %r" % (found, text[:400]))


def code_of(r):
    return (r.status, (avtest.problem(r.body) or {}).get("code"))


def inpaint_body(mask_bytes):
    mask = base64.b64encode(avpng.noise(mask_bytes)).decode()
    base = avpng.data_url(avpng.noise(1000))
    return json.dumps({"workflow": "image", "input": {
        "text": "repaint the sky", "maskData": {"base64": mask, "imageUrl": base}}})


def closed_store(d, secret):
    """[store] settings the worker cannot open, and the words that say
    where the store is: Berkeley DB in a directory that is a file; on
    PostgreSQL a dsn whose socket directory has no server."""
    if avtest.store_backend() != "postgresql":
        avtest.write_file(secret, "not a directory\n")
        return {"dir": secret}, (secret, os.path.basename(secret))
    os.makedirs(secret)
    dsn = "host=%s port=5432 user=postgres dbname=av_nowhere" % secret
    return ({"dir": os.path.join(d, "closed-store"), "backend": "postgresql", "dsn": dsn},
            (secret, os.path.basename(secret), ".s.PGSQL", "connection to server", "av_nowhere"))


def test_unopenable(t, d):
    """The store cannot be opened: 503 store_unavailable, no secrets."""
    secret = os.path.join(d, "secret-store-dir-7f3a")
    store, said = closed_store(d, secret)
    w = avtest.Worker(t, d, name="closed", settings={"store": store}).start()
    words = said + SYSTEM_WORDS

    r = w.request("GET", "/api/health")
    h = r.json() if r.body else {}
    t.is_((r.status, h.get("status"), (h.get("store") or {}).get("reachable")),
          (503, "degraded", False), "unopenable store: health 503 degraded, not reachable")
    no_secrets(t, r.body, words, "unopenable store: health")

    r = w.request("POST", "/api/agent/stream", body=json.dumps({"workflow": "image",
                  "input": {"text": "a cat"}}), headers=JSON_HDR)
    t.is_(code_of(r), (503, "store_unavailable"), "unopenable store: a new thread is 503 store_unavailable")
    no_secrets(t, r.body, words, "unopenable store: POST /api/agent/stream")

    r = w.request("GET", "/api/assets/" + "A" * 43)
    t.is_(code_of(r), (503, "store_unavailable"), "unopenable store: an asset is 503 store_unavailable")
    no_secrets(t, r.body, words, "unopenable store: GET /api/assets/{id}")

    r = w.request("GET", "/api/threads/v1.AAAAAAAAAAAAAAAAAAAAAA." + "A" * 43)
    t.is_(code_of(r), (503, "store_unavailable"), "unopenable store: a thread is 503 store_unavailable")
    no_secrets(t, r.body, words, "unopenable store: GET /api/threads/{id}")

    w.kill()
    with open(w.log, encoding="utf-8", errors="replace") as f:
        log = f.read()
    t.ok(secret in log, "unopenable store: the worker's log names the directory and why")


def test_unwritable(t, d):
    """The store opens, but its files cannot grow: storing a mask fails."""
    if avtest.store_backend() == "postgresql":
        for name in ("store that cannot grow: an image with a mask is 503 store_unavailable",
                     "store that cannot grow: the mask's answer: no path, no system error words",
                     "store that cannot grow: the worker lives on",
                     "store that cannot grow: health still answers"):
            t.skip("Berkeley DB only: a file size limit on the worker (PostgreSQL's files are "
                   "the server's)", name)
        return
    first = avtest.Worker(t, d, name="setup").start()
    if first.request("GET", "/api/health").status != 200:
        raise avtest.SetupError("the store could not be created")
    first.kill()
    wrapper = avtest.write_file(os.path.join(d, "fsize-limit"), WRAPPER % sys.executable, 0o755)
    env = {"AIVISTA_TEST_FSIZE": "100000", "AIVISTA_TEST_WORKER": avtest.worker_path()}
    w = avtest.Worker(t, d, name="full", env=env, binary=wrapper).start()
    words = (w.store,) + SYSTEM_WORDS

    r = w.request("POST", "/api/agent/stream", body=inpaint_body(300000), headers=JSON_HDR)
    if not t.is_(code_of(r), (503, "store_unavailable"),
                 "store that cannot grow: an image with a mask is 503 store_unavailable, not 400"):
        t.diag("answer: %d %r" % (r.status, r.body[:300]))
    no_secrets(t, r.body, words, "store that cannot grow: the mask's answer")
    t.ok(w.alive(), "store that cannot grow: the worker lives on")
    t.is_(w.request("GET", "/api/health").status, 200, "store that cannot grow: health still answers")


def main(t):
    d = t.tmpdir("store-down")
    test_unopenable(t, d)
    test_unwritable(t, t.tmpdir("store-full"))


avtest.run(main)
