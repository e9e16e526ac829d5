"""aivista-admin against stores made by the test worker: key create and
rotate (old IDs still verify, new ones are signed with the new key, 0600,
at most 8 keys, a broken file left alone), stats (counts that match what
the worker did, as JSON and text, while the worker runs), backup (hot,
during a stream; the copy opens in a worker and holds the same threads),
prune (expired threads become tombstones now), recover (refused while a
worker has the store open; after a worker killed in a step, normal and
catastrophic recovery leave a store the workers use). Run as root, the
tool works as the store's owner.

Under make check-postgresql the workers' stores are PostgreSQL databases:
stats counts what the server holds (and names the backend and the
database's size), prune makes tombstones there, backup and recover refuse
and say what to use; what is Berkeley DB's own (its files, hot backup,
recovery, store.version, the owner of the files) is skipped, saying so.
"""

import json
import os
import re
import pwd
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402
from avtest import SSEReader  # noqa: E402
from avevents import durable, events  # noqa: E402

TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")
ADMIN = os.path.join(avtest.TOP_BUILDDIR, "aivista-admin")
PG = avtest.store_backend() == "postgresql"
BDB_ONLY = "Berkeley DB only: "


def store_conf(path, store, **more):
    """A configuration from the sample whose store is store (a database
    of its own on PostgreSQL), with more sections."""
    s = {"store": avtest.store_section(store)}
    s.update(more)
    return avtest.write_file(path, avtest.conf_from_sample(s))


def admin(conf, *args, user=None):
    """(exit status, stdout, stderr) of aivista-admin -c conf args."""
    kw = {}
    if user:
        kw = {"user": user[1], "group": user[2], "extra_groups": []}
    p = subprocess.run([ADMIN, "-c", conf] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=avtest.clean_env(), timeout=120, **kw)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def start(w, **inp):
    body = {"workflow": "test", "input": {"topic": "admin", "pause": False}}
    body["input"].update(inp)
    r = w.request("POST", "/api/agent/stream", body=json.dumps(body),
                  headers={"Content-Type": "application/json"})
    evs = events(r.body)
    tid = evs[0]["data"].get("threadId") if evs and isinstance(evs[0]["data"], dict) else None
    return tid, evs


def key_lines(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip()]


def stats(t, conf, name):
    rc, out, err = admin(conf, "stats", "--json")
    try:
        return json.loads(out)
    except ValueError:
        t.diag("%s: stats said %r %r" % (name, out, err))
        return {}


def test_usage(t, conf):
    for args, why in ((["frobnicate"], "an unknown command"), (["key"], "key without what to do"),
                      (["key", "burn"], "an unknown key command"),
                      (["stats", "--bogus"], "an unknown stats option"),
                      (["backup"], "backup without a directory"),
                      (["recover", "now"], "an unknown recover argument"),
                      (["prune", "all"], "prune with an argument")):
        rc, out, err = admin(conf, *args)
        t.is_(rc, 2, "usage: %s exits 2" % why)
    p = subprocess.run([ADMIN, "-h"], stdout=subprocess.PIPE, env=avtest.clean_env())
    text = p.stdout.decode()
    t.ok(p.returncode == 0 and all(c in text for c in ("key create|rotate", "stats", "backup DIR",
                                                       "recover", "prune")),
         "-h lists every command")
    man = open(avtest.src_path("man", "aivista-admin.8")).read()
    missing = [w for w in ("key create", "key rotate", "stats", "\\-\\-json", "backup",
                           "recover", "\\-\\-fatal", "prune", "\\-c") if w not in man]
    t.is_(missing, [], "aivista-admin(8) documents every command and option")
    bad = avtest.write_file(os.path.join(os.path.dirname(conf), "bad.conf"), "[store]\nnope = 1\n")
    rc, out, err = admin(bad, "stats")
    t.ok(rc == 1 and "bad.conf:2" in err, "a bad configuration: exit 1 with file and line")
    keyed = store_conf(os.path.join(os.path.dirname(conf), "keyed.conf"),
                       os.path.join(os.path.dirname(conf), "store"),
                       **{"provider.chat": {"kind": "openai"}})
    rc, out, err = admin(keyed, "stats")
    t.is_(rc, 0, "a provider key missing from the admin's environment is no error")
    nowhere = store_conf(os.path.join(os.path.dirname(conf), "nowhere.conf"),
                         os.path.join(os.path.dirname(conf), "nowhere"))
    for cmd in (["stats"], ["prune"], ["backup", os.path.join(os.path.dirname(conf), "bk2")]):
        rc, out, err = admin(nowhere, *cmd)
        # On PostgreSQL backup refuses before it looks for the store.
        said = "pg_dump" if PG and cmd[0] == "backup" else "no store in"
        t.ok(rc == 1 and said in err and
             not os.path.exists(os.path.join(os.path.dirname(conf), "nowhere")),
             "%s on a store directory that does not exist: exit 1, nothing created" % cmd[0])


def test_keys(t, d):
    store = os.path.join(d, "keystore")
    conf = store_conf(os.path.join(d, "keys.conf"), store)
    keyfile = os.path.join(store, "thread.key")
    if os.geteuid() == 0:
        # Root makes no store directory (the workers could not use it), and
        # says what to do; in one that exists it warns that it is root's.
        rc, out, err = admin(conf, "key", "create")
        t.ok(rc == 1 and "install -d -m 0700 -o" in err and not os.path.exists(store),
             "key create as root, no store directory: exit 1, nothing made, says what to do")
        os.makedirs(store, 0o700)
    rc, out, err = admin(conf, "key", "rotate")
    t.ok(rc == 1 and "key create" in err, "key rotate without a key file: exit 1, says to create")
    rc, out, err = admin(conf, "key", "create")
    t.is_(rc, 0, "key create: exit 0")
    if os.geteuid() == 0:
        t.like(err, r"belongs to root: workers running as another user cannot use it",
               "key create as root in a directory of root's: warns")
    t.is_((oct(avtest.file_mode(store)), oct(avtest.file_mode(keyfile))), (oct(0o700), oct(0o600)),
          "key create: the directory 0700, the file 0600")
    first = key_lines(keyfile)
    t.ok(len(first) == 1 and len(avtest.unb64url(first[0])) == 32, "key create: one 32-byte base64url key")
    rc, out, err = admin(conf, "key", "create")
    t.ok(rc == 0 and key_lines(keyfile) == first and "left as it is" in out,
         "key create again: exit 0, the key file untouched")

    w = avtest.Worker(t, d, name="k1", binary=TEST_WORKER,
                      settings={"store": {"dir": store}}).start()
    old_tid, _ = start(w, topic="before")
    w.kill()
    rc, out, err = admin(conf, "key", "rotate")
    keys = key_lines(keyfile)
    t.ok(rc == 0 and len(keys) == 2 and keys[1] == first[0] and keys[0] != first[0],
         "key rotate: a new key first, the old one kept second")
    t.is_(oct(avtest.file_mode(keyfile)), oct(0o600), "key rotate: the file stays 0600")
    t.ok("Restart the workers" in out, "key rotate: says to restart the workers")
    w2 = avtest.Worker(t, d, name="k2", binary=TEST_WORKER,
                       settings={"store": {"dir": store}}).start()
    t.is_(w2.request("GET", "/api/threads/" + old_tid).status, 200,
          "after rotation an ID signed with the old key still verifies")
    new_tid, _ = start(w2, topic="after")
    raw = avtest.unb64url(new_tid.split(".")[1])
    t.is_(avtest.signed_id(avtest.unb64url(keys[0]), raw), new_tid,
          "after rotation new IDs are signed with the new key")
    w2.kill()
    for _ in range(9):
        admin(conf, "key", "rotate")
    keys = key_lines(keyfile)
    t.ok(len(keys) == 8 and first[0] not in keys, "rotated 10 times: 8 keys kept, the oldest gone")
    leftovers = [n for n in os.listdir(store) if n.endswith(".tmp")]
    t.is_(leftovers, [], "no temporary file left beside the key file")
    with open(keyfile, "a") as f:
        f.write("not-a-key\n")
    before = open(keyfile).read()
    rc, out, err = admin(conf, "key", "rotate")
    t.ok(rc == 1 and open(keyfile).read() == before and "not a key" in err,
         "key rotate on a damaged file: exit 1, the file left as it is")


def test_stats_backup(t, d):
    w = avtest.Worker(t, d, name="s1", binary=TEST_WORKER,
                      settings={"store": {"dir": os.path.join(d, "store")}}).start()
    conf = w.conf
    done1, e1 = start(w, topic="one")
    done2, e2 = start(w, topic="two", blob="蒙版" * 40000)
    paused, e3 = start(w, topic="three", pause=True)
    n_events = sum(len([e for e in evs if "id" in e]) for evs in (e1, e2, e3))
    st = stats(t, conf, "stats")
    t.is_(st.get("threads"), 3, "stats: 3 threads")
    by = st.get("threadsByStatus") or {}
    t.is_((by.get("done"), by.get("paused"), by.get("running")), (2, 1, 0),
          "stats: 2 done, 1 paused, none running")
    t.is_(st.get("events"), n_events, "stats: the events the streams carried (%d)" % n_events)
    t.ok((st.get("checkpoints") or 0) >= 3, "stats: checkpoints (%s)" % st.get("checkpoints"))
    assets = st.get("assets") or {}
    t.ok(assets.get("count", 0) >= 1 and assets.get("bytes", 0) >= 240000,
         "stats: the input stored as an asset, with its bytes (%s)" % assets)
    t.is_(st.get("backend"), avtest.store_backend(), "stats: the backend")
    if PG:
        t.ok((st.get("databaseFiles") or {}).get("bytes", 0) > 0 and
             not (st.get("logFiles") or {}).get("count"), "stats: the database's size, no files")
        t.is_(st.get("version"), 2, "stats: the schema version")
    else:
        t.ok((st.get("logFiles") or {}).get("count", 0) >= 1 and
             (st.get("databaseFiles") or {}).get("count") == 3, "stats: log and database files")
        t.is_(st.get("version"), 4, "stats: the format version")
    t.is_((st.get("keyFile") or {}).get("keys"), 1, "stats: one key in the key file")
    rc, out, err = admin(conf, "stats")
    t.ok(rc == 0 and "threads           3 (running 0, paused 1, done 2" in out and
         "backend           %s\n" % avtest.store_backend() in out,
         "stats as text: the same counts, the backend")
    if PG:
        t.ok(re.search(r"(?m)^schema version\s+2 \(this AiVista: 2\)$", out) and
             re.search(r"(?m)^database size\s+[1-9][0-9]* bytes$", out) and
             "log files" not in out, "stats as text: the schema version and the database's size")
    else:
        t.ok(re.search(r"(?m)^format version\s+4 \(this AiVista: 4\)$", out) and
             re.search(r"(?m)^log files\s+[1-9]", out), "stats as text: the format version and files")
    t.ok(w.alive() and w.request("GET", "/api/health").status == 200,
         "the worker kept running meanwhile")

    if PG:
        bk = os.path.join(d, "backup")
        rc, out, err = admin(conf, "backup", bk)
        t.ok(rc == 1 and "pg_dump" in err and "thread.key" in err and not os.path.exists(bk),
             "backup of a PostgreSQL store: exit 1, says to use pg_dump and keep the key file, "
             "makes nothing (%s)" % err.strip())
        for name in ("backup: the directory is 0700", "backup: the key file copied, 0600",
                     "backup: the databases copied", "backup: no region files in the copy",
                     "backup into a directory that is not empty: refused",
                     "a worker on the backup: the paused thread is there, still paused",
                     "a worker on the backup: a finished thread replays the same events",
                     "a worker on the backup: the pause is confirmed"):
            t.skip(BDB_ONLY + "aivista-admin's hot backup (PostgreSQL: pg_dump)", name)
        w.kill()
        return conf
    # A hot backup while a stream runs.
    box = {}

    def slow():
        box["tid"], box["evs"] = start(w, topic="during", steps=6, sleepMs=300)
    th = threading.Thread(target=slow)
    th.start()
    time.sleep(0.5)
    bk = os.path.join(d, "backup")
    rc, out, err = admin(conf, "backup", bk)
    th.join(60)
    t.ok(rc == 0, "backup while a stream runs: exit 0 (%s)" % (err.strip() or out.strip()))
    t.is_(oct(avtest.file_mode(bk)), oct(0o700), "backup: the directory is 0700")
    t.ok(os.path.exists(os.path.join(bk, "thread.key")) and
         avtest.file_mode(os.path.join(bk, "thread.key")) == 0o600, "backup: the key file copied, 0600")
    t.ok(all(os.path.exists(os.path.join(bk, n)) for n in ("threads.db", "expiry.db")),
         "backup: the databases copied")
    t.ok(not [n for n in os.listdir(bk) if n.startswith("__db.")],
         "backup: no region files in the copy (recovered in private memory)")
    rc, out, err = admin(conf, "backup", bk)
    t.ok(rc == 1 and "not empty" in err, "backup into a directory that is not empty: refused")
    w.kill()
    r = avtest.Worker(t, d, name="restored", binary=TEST_WORKER,
                      settings={"store": {"dir": bk}}).start()
    st2 = r.request("GET", "/api/threads/" + paused)
    t.ok(st2.status == 200 and st2.json().get("status") == "paused",
         "a worker on the backup: the paused thread is there, still paused")
    log = durable(events(r.request("GET", "/api/agent/stream?threadId=" + done1,
                                   headers={"Last-Event-ID": "0"}).body))
    t.is_([(e["id"], e["data"]) for e in log], [(e["id"], e["data"]) for e in durable(e1)],
          "a worker on the backup: a finished thread replays the same events")
    q = [e["data"] for e in e3 if isinstance(e["data"], dict) and e["data"].get("type") == "ask_user"]
    c = r.request("POST", "/api/agent/confirm", headers={"Content-Type": "application/json"},
                  body=json.dumps({"threadId": paused, "interruptId": q[0]["interruptId"],
                                   "action": "approve"}))
    t.is_(events(c.body)[-1]["data"], "[DONE]", "a worker on the backup: the pause is confirmed")
    r.kill()
    return conf


def test_prune(t, d):
    store = os.path.join(d, "prunestore")
    w = avtest.Worker(t, d, name="p1", binary=TEST_WORKER,
                      settings={"store": {"dir": store, "thread_ttl": "1", "done_ttl": "1"}}).start()
    for i in range(3):
        start(w, topic="p%d" % i)
    start(w, topic="pp", pause=True)
    conf = w.conf
    w.kill()
    time.sleep(2.2)
    before = stats(t, conf, "before prune")
    rc, out, err = admin(conf, "prune")
    t.ok(rc == 0 and "pruned 4 expired threads" in out, "prune: the 4 expired threads (%s)"
         % out.strip())
    after = stats(t, conf, "after prune")
    by = after.get("threadsByStatus") or {}
    t.ok(before.get("events", 0) > 0 and after.get("events") == 0 and
         after.get("checkpoints") == 0, "prune: their events and checkpoints are gone")
    t.is_((by.get("expired"), by.get("done"), by.get("paused")), (4, 0, 0),
          "prune: each leaves a tombstone (its ID answers 410)")
    rc, out, err = admin(conf, "prune")
    t.ok(rc == 0 and "pruned 0 expired threads" in out, "prune again: nothing left to prune")


def test_recover(t, d):
    store = os.path.join(d, "recstore")
    settings = {"store": {"dir": store}}
    w = avtest.Worker(t, d, name="r1", binary=TEST_WORKER, settings=settings).start()
    conf = w.conf
    paused, evs = start(w, topic="keep", pause=True)
    rc, out, err = admin(conf, "recover")
    if PG:
        t.ok(rc == 1 and "needs no recovery" in err,
             "recover on a PostgreSQL store: exit 1, the server recovers its own (%s)" % err.strip())
        t.skip(BDB_ONLY + "aivista-admin recover runs Berkeley DB's recovery",
               "recover: normal and catastrophic recovery")
        w.kill()
        return
    t.ok(rc == 1 and ("process %d" % w.pid) in err,
         "recover while a worker has the store open: refused, naming it (%s)" % err.strip())
    # A worker killed in the middle of a step.
    body = json.dumps({"workflow": "test", "input": {"topic": "k", "steps": 5, "sleepMs": 400,
                                                     "pause": False}})
    import fcgi_client
    conn = w.connect()
    conn.begin()
    conn.send_params(fcgi_client.cgi_params("POST", "/api/agent/stream", len(body),
                                            {"Content-Type": "application/json"}))
    conn.send_stdin(body.encode())
    first = next(iter(SSEReader(conn.stream())))
    killed = first["data"]["threadId"]
    time.sleep(0.5)
    w.proc.send_signal(signal.SIGKILL)
    w.proc.wait()
    conn.close()
    rc, out, err = admin(conf, "recover")
    t.ok(rc == 0 and "normal recovery done" in out,
         "recover after a worker died in a step: exit 0 (%s)" % (err.strip() or out.strip()))
    w2 = avtest.Worker(t, d, name="r2", binary=TEST_WORKER, settings=settings).start()
    t.is_(w2.request("GET", "/api/threads/" + paused).json().get("status"), "paused",
          "after recovery a worker finds the paused thread")
    r = w2.request("GET", "/api/agent/stream?threadId=" + killed, headers={"Last-Event-ID": "0"},
                   timeout=60)
    t.is_(events(r.body)[-1]["data"], "[DONE]",
          "after recovery the thread whose worker died runs to its end")
    w2.kill()
    rc, out, err = admin(conf, "recover", "--fatal")
    t.ok(rc == 0 and "catastrophic recovery done" in out,
         "recover --fatal on a stopped store: exit 0")
    w3 = avtest.Worker(t, d, name="r3", binary=TEST_WORKER, settings=settings).start()
    q = [e["data"] for e in evs if isinstance(e["data"], dict) and e["data"].get("type") == "ask_user"]
    c = w3.request("POST", "/api/agent/confirm", headers={"Content-Type": "application/json"},
                   body=json.dumps({"threadId": paused, "interruptId": q[0]["interruptId"],
                                    "action": "approve"}))
    t.is_(events(c.body)[-1]["data"], "[DONE]", "after catastrophic recovery the pause is confirmed")
    w3.kill()


def test_as_root(t, d):
    """Started by root on a store that belongs to another user, the tool
    works as that user: what it creates is that user's."""
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        t.skip("no user nobody", "as root: works as the store's owner")
        return
    user = ("nobody", pw.pw_uid, pw.pw_gid)
    d2 = os.path.join(d, "owned")
    os.makedirs(d2)
    os.chmod(d, 0o755)
    os.chown(d2, user[1], user[2])
    store = os.path.join(d2, "store")
    conf = avtest.write_file(os.path.join(d2, "o.conf"),
                             avtest.conf_from_sample({"store": {"dir": store}}))
    rc, out, err = admin(conf, "key", "create", user=user)
    t.is_(rc, 0, "as root: a key created by the store's owner")
    rc, out, err = admin(conf, "stats")
    rc2, out2, err2 = admin(conf, "key", "rotate")
    owners = set(os.stat(os.path.join(store, n)).st_uid for n in os.listdir(store))
    t.ok(rc == 0 and rc2 == 0 and owners == {user[1]},
         "as root: stats and key rotate leave every file in the store to its owner (%s)" % owners)
    bk = os.path.join(d2, "bk")
    rc, out, err = admin(conf, "backup", bk)
    t.ok(rc == 0 and os.stat(bk).st_uid == user[1],
         "as root: the backup directory is made for the store's owner")


def cron_command(field):
    """What cron runs for a job's command field: "\\%" is "%", and an
    unescaped "%" ends the command (the rest is its standard input)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 1 < len(field) and field[i + 1] == "%":
            out.append("%")
            i += 2
        elif field[i] == "%":
            break
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def test_cron(t, d, conf):
    """The nightly backup of docs/deploy.md and aivista-admin(8), run as
    cron runs it: its environment (PATH only from the crontab), /bin/sh,
    "%" handling. The staged aivista-admin in sbin stands for the installed
    one (with the test's configuration), and /var/backups is the test's."""
    block = deploydoc.block("backup-cron")
    man = subprocess.run(["man", "-l", "-Tutf8", avtest.src_path("man", "aivista-admin.8")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=avtest.clean_env(MANWIDTH="200")).stdout.decode(errors="replace")
    man_block = [l.strip() for l in re.sub(r".\x08", "", man).splitlines()
                 if l.strip().startswith(("PATH=", "15 3 "))]
    t.is_(man_block, block, "aivista-admin(8) shows the crontab lines of docs/deploy.md")
    env_lines = [l for l in block if re.match(r"[A-Z_]+=", l)]
    jobs = [l for l in block if not re.match(r"[A-Z_]+=", l)]
    if not t.ok(len(jobs) == 1, "docs/deploy.md has the nightly backup line"):
        return
    cron_env = {"PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "HOME": d, "LOGNAME": "root"}
    for l in env_lines:
        k, v = l.split("=", 1)
        cron_env[k] = v
    path = cron_env["PATH"].split(":")
    t.ok("/usr/local/sbin" in path and "/usr/sbin" in path,
         "the crontab's PATH reaches aivista-admin from source and from the package")
    if PG:
        t.skip(BDB_ONLY + "the nightly aivista-admin backup (PostgreSQL: pg_dump)",
               "the nightly line run as cron does")
        return
    sbin = os.path.join(d, "sbin")
    os.makedirs(sbin)
    avtest.write_file(os.path.join(sbin, "aivista-admin"),
                      "#!/bin/sh\nexec %s -c %s \"$@\"\n" % (ADMIN, conf), 0o755)
    cron_env["PATH"] = ":".join(sbin if p == "/usr/local/sbin" else p for p in path)
    backups = os.path.join(d, "var-backups")
    command = cron_command(jobs[0].split(None, 5)[5]).replace("/var/backups", backups)
    for n in (1, 2):
        p = subprocess.run(["/bin/sh", "-c", command], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=cron_env,
                           timeout=120)
        day = os.path.join(backups, "aivista", time.strftime("%a"))
        t.ok(p.returncode == 0 and os.path.isfile(os.path.join(day, "thread.key")),
             "the nightly line run as cron does (%d): the backup of the day, parents made" % n)
        if p.returncode:
            t.diag(p.stdout.decode(errors="replace"))
    t.is_(oct(avtest.file_mode(os.path.join(backups, "aivista"))), oct(0o700),
          "the backups' directory is made 0700")


def test_versions(t, d):
    """A store written without the version record (as before versions
    were recorded) is read by this version and marked; one marked with a
    newer version is refused by the worker (503 store_too_new), by -t and
    by aivista-admin, and left as it is."""
    store = os.path.join(d, "vstore")
    vfile = os.path.join(store, "store.version")
    w = avtest.Worker(t, d, name="v1", binary=TEST_WORKER,
                      settings={"store": {"dir": store}}).start()
    conf = w.conf
    tid, _ = start(w, topic="old")
    w.kill()
    t.is_(open(vfile).read() if os.path.exists(vfile) else None, "4\n",
          "versions: a new store is version 4")
    os.unlink(vfile)
    rc, out, err = admin(conf, "stats")
    t.ok(rc == 0 and re.search(r"(?m)^format version\s+4 \(this AiVista: 4\)", out),
         "versions: a store without its version record: stats reads it, marked 4 (%s)"
         % (err.strip() or "ok"))
    os.unlink(vfile)
    w = avtest.Worker(t, d, name="v2", binary=TEST_WORKER,
                      settings={"store": {"dir": store}}).start()
    t.is_(w.request("GET", "/api/threads/" + tid).status, 200,
          "versions: the worker reads the thread of a store without its version record")
    t.is_(open(vfile).read() if os.path.exists(vfile) else None, "4\n",
          "versions: ...and marks the store version 4")
    t.is_(stats(t, conf, "versions").get("version"), 4, "versions: stats --json says version 4")
    rc, out, err = admin(conf, "upgrade")
    t.ok(rc == 0 and "nothing to do" in out, "versions: upgrade of a version 4 store: nothing to do")
    w.kill()
    os.unlink(vfile)
    rc, out, err = admin(conf, "upgrade")
    t.ok(rc == 0 and "format version 1, now 4" in out,
         "versions: upgrade of a store without its version record: %s" % out.strip())
    avtest.write_file(vfile, "5\n", 0o600)
    before = sorted(os.listdir(store))
    w = avtest.Worker(t, d, name="v3", binary=TEST_WORKER,
                      settings={"store": {"dir": store}}).start()
    r = w.request("GET", "/api/health")
    body = avtest.problem(r.body) or {}
    t.ok(r.status == 503 and (body.get("store") or {}).get("code") == "store_too_new",
         "versions: a newer store: /api/health 503, store code store_too_new (%s)" % r.status)
    r = w.request("GET", "/api/threads/" + tid)
    t.ok(r.status == 503 and (avtest.problem(r.body) or {}).get("code") == "store_too_new",
         "versions: a newer store: a request gets 503 store_too_new (%s)" % r.status)
    w.kill()
    p = subprocess.run([TEST_WORKER, "-t", "-c", conf], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=avtest.clean_env())
    out = p.stdout.decode(errors="replace")
    t.ok(p.returncode == 1 and "version 5, newer than this AiVista knows (4)" in out,
         "versions: -t says the store is newer: %s" % out.strip().splitlines()[-1:])
    for cmd in ("stats", "upgrade"):
        rc, out, err = admin(conf, cmd)
        t.ok(rc == 1 and "newer than this AiVista" in err,
             "versions: aivista-admin %s refuses a newer store: %s" % (cmd, err.strip()))
    t.ok(open(vfile).read() == "5\n" and sorted(os.listdir(store)) == before,
         "versions: the newer store is left as it was")


def main(t):
    for p in (TEST_WORKER, ADMIN):
        if not os.access(p, os.X_OK):
            raise avtest.SetupError("%s is not built" % p)
    d = t.tmpdir("admin")
    sb = os.path.join(d, "sb")
    os.makedirs(sb)
    conf = test_stats_backup(t, sb)
    test_usage(t, conf)
    test_cron(t, t.tmpdir("cron"), conf)
    test_keys(t, d)
    test_prune(t, d)
    test_recover(t, d)
    if PG:
        t.skip(BDB_ONLY + "the store.version file (PostgreSQL: the schema version in av_meta, "
               "checked by stats above)", "versions")
        t.skip(BDB_ONLY + "the files aivista-admin makes in the store directory and backups",
               "as root: works as the store's owner")
        return
    test_versions(t, d)
    if os.geteuid() == 0:
        test_as_root(t, d)
    else:
        t.skip("not root", "as root: works as the store's owner")


if __name__ == "__main__":
    avtest.run(main)
