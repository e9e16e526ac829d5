"""Makes the store compatibility fixture (run by hand, not by make check).

A Berkeley DB store written by an older build, which
tests/integ/store_compat.py loads and reads with the worker being tested.
It was made with the build of commit 45167af, the last before the
workflows became plugins (src/engine/, src/wf/<name>/, one descriptor per
workflow), with the offline provider:

    mkdir -p /tmp/old && git archive 45167af | tar -x -C /tmp/old
    (cd /tmp/old && autoreconf -fi && mkdir _b && cd _b && ../configure && make aivista.fcgi)
    top_srcdir=/tmp/old AIVISTA_WORKER=/tmp/old/_b/aivista.fcgi \\
        python3 tests/data/store_compat/make.py

top_srcdir is the old source tree (its etc/aivista.conf and knowledge
bases); the script and tests/lib come from this tree. It runs every
scenario of tests/lib/avcompat.py on one worker, each thread finished or
left at a pause, and writes here, replacing what was here:

    store/*.db.dump   each database of the store, as db5.3_dump writes it
                      (text, values in hex; db5.3-util), after db5.3_recover
    store/store.version  the store's format version file
    thread.key        the key that signed the thread IDs
    threads.json      [{scenario, threadId, workflow, status}]
    replay/<scenario>.sse   the bytes the old worker sends for
                      GET /api/agent/stream?threadId=... (a replay from the
                      start), unchanged
    answers/<scenario>.sse  the bytes of every answer of the scenario, its
                      durable events written as their id line only (they
                      are in the replay; avcompat.write_answers)
    resume/<scenario>.sse   for a paused thread: the bytes of the answers of
                      the old worker when, restarted on the store after the
                      dump, it is told to approve that pause and every
                      later one, whole

Each scenario also runs on a second worker with a store of its own (and
its paused threads are resumed there too); the two runs' normalised
events must be equal, or the script fails naming the first difference
(something random avcompat does not set aside yet).
Each replay is asked twice and must be the same bytes both times."""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "lib"))
import avtest  # noqa: E402
import avcompat  # noqa: E402


def tool(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    raise avtest.SetupError("none of %s (Debian: db5.3-util)" % ", ".join(names))


def worker(t, d, name):
    settings = {k: dict(v) for k, v in avcompat.SETTINGS.items()}
    settings["store"].update({"dir": os.path.join(d, name + "-store"),
                              "key_file": os.path.join(d, name + ".key")})
    w = avtest.Worker(t, d, name=name, settings=settings)
    w.store = settings["store"]["dir"]
    return w.start()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def dump_store(t, store, out):
    """db5.3_recover, then every database of the store as a text dump."""
    rec = subprocess.run([tool("db5.3_recover", "db_recover"), "-h", store],
                         capture_output=True, text=True)
    t.is_(rec.returncode, 0, "db_recover on the stopped store (%s)" % rec.stderr.strip())
    for name in sorted(os.listdir(store)):
        if not name.endswith(".db"):
            continue
        r = subprocess.run([tool("db5.3_dump", "db_dump"), "-h", store, name],
                           capture_output=True)
        t.is_(r.returncode, 0, "db_dump %s" % name)
        write(os.path.join(out, "store", name + ".dump"), r.stdout)
    shutil.copyfile(os.path.join(store, "store.version"), os.path.join(out, "store", "store.version"))


def same(t, got, want, name):
    """One check: two normalised runs are equal."""
    diff = avcompat.first_difference(got, want)
    if not t.ok(diff is None, name):
        t.diag("first difference: %s\n  second run: %r\n  first run:  %r" % diff)
    return diff is None


def resume_paused(t, old, again, threads, again_tids):
    """Resumes each paused thread on the old worker (and its twin on the
    second one): resume/<scenario>.json."""
    for x in threads:
        if x["status"] != "paused":
            continue
        run = avcompat.resume(old, x["threadId"], x["workflow"])
        twin = avcompat.resume(again, again_tids[x["scenario"]], x["workflow"])
        if same(t, twin.normalised(), run.normalised(),
                "%s: resumed, two runs give the same normalised events" % x["scenario"]):
            write(os.path.join(HERE, "resume", x["scenario"] + ".sse"),
                  avcompat.write_answers(run.answers, b""))


def main(t):
    d = t.tmpdir("compat")
    old = worker(t, d, "old")
    again = worker(t, d, "again")
    for sub in ("store", "replay", "answers", "resume"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
    threads, again_tids = [], {}
    for name, (workflow, _) in avcompat.SCENARIOS.items():
        run = avcompat.run_scenario(old, name)
        twin = avcompat.run_scenario(again, name)
        again_tids[name] = twin.tid
        if not t.ok(run.tid, "%s: a thread" % name) or \
           not same(t, twin.normalised(), run.normalised(),
                    "%s: two runs give the same normalised events" % name):
            continue
        first, second = avcompat.replay(old, run.tid), avcompat.replay(old, run.tid)
        t.ok(first.status == 200 and first.body == second.body,
             "%s: its replay is 200 and the same bytes twice (%d bytes)" % (name, len(first.body)))
        write(os.path.join(HERE, "replay", name + ".sse"), first.body)
        text = avcompat.write_answers(run.answers, first.body)
        t.ok(avcompat.read_answers(text, first.body) == run.answers,
             "%s: its answers file reads back as the answers (%d bytes of %d)" %
             (name, len(text), sum(len(a["body"]) for a in run.answers)))
        write(os.path.join(HERE, "answers", name + ".sse"), text)
        threads.append({"scenario": name, "threadId": run.tid, "workflow": workflow,
                        "status": avcompat.thread_status(old, run.tid)})
    old.kill()
    dump_store(t, old.store, HERE)
    old.start()
    resume_paused(t, old, again, threads, again_tids)
    shutil.copyfile(os.path.join(d, "old.key"), os.path.join(HERE, "thread.key"))
    write(os.path.join(HERE, "threads.json"),
          (json.dumps(threads, ensure_ascii=False, indent=1) + "\n").encode())
    t.diag("threads: " + ", ".join("%s %s" % (x["scenario"], x["status"]) for x in threads))


if __name__ == "__main__":
    avtest.run(main)
