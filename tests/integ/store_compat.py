"""A store written by an older build is read by this one.

tests/data/store_compat/ holds a Berkeley DB store written by the build
of commit 45167af (the last before the workflows became plugins) with
the offline provider, made by make.py there: one thread of each workflow
finished and one of the note, graph_edit and orchestrate workflows left
at a pause (tests/lib/avcompat.py's scenarios), the key that signed their
IDs, the bytes that build sent for each thread's replay and for every
answer. The store is loaded into a new directory with db_load, each
thread record's expiry ("exp", "iexp") moved to 2100 first (a paused
thread lives a year at most after its last step; the fixture must
outlive that; nothing else is changed), and the worker being tested,
started on it with that key:
- says every thread's status as the old build left it;
- replays every thread from the start with the same bytes (a difference
  names the first differing line), and after a Last-Event-ID in the
  middle with the same bytes from there on;
- resumes each paused thread, approving that pause and every later one,
  to the end, with the events the old build sent when it resumed the
  same thread from the same store;
- run on a store of its own, answers every scenario's requests with the
  events the old build sent once times, thread IDs and random ids are set
  aside (avcompat.normalise), but for the changes of words ACCEPTED lists
  and the fields ADDED lists, each a deliberate change.

Berkeley DB only: the fixture is a dump of a Berkeley DB environment, so
the test is not in PG_TESTS and runs on Berkeley DB whatever
AIVISTA_TEST_STORE says. Skipped when db_load (db5.3-util) is missing."""

import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avcompat  # noqa: E402
from avevents import paused  # noqa: E402

DATA = avtest.src_path("tests", "data", "store_compat")
FAR = b"4102444800000"   # 2100-01-01, in ms
EXPIRY = re.compile(rb'"(exp|iexp)":\d+')


def read(*parts):
    with open(os.path.join(DATA, *parts), "rb") as f:
        return f.read()


def moved_expiry(value):
    """A thread record (JSON text) with its expiry at FAR; other values as they are."""
    if not value.startswith(b"{"):
        return value
    try:
        rec = json.loads(value)
    except ValueError:
        return value
    if not isinstance(rec, dict) or "exp" not in rec or "updated" not in rec:
        return value
    return EXPIRY.sub(lambda m: b'"%s":%s' % (m.group(1), FAR), value)


def with_moved_expiry(dump):
    """A db_dump text (bytevalue format) with moved_expiry applied to
    every value."""
    lines = dump.split(b"\n")
    start = lines.index(b"HEADER=END") + 1
    for i in range(start + 1, len(lines), 2):
        if lines[i - 1] == b"DATA=END" or not lines[i].startswith(b" "):
            break
        value = moved_expiry(bytes.fromhex(lines[i][1:].decode()))
        lines[i] = b" " + value.hex().encode()
    return b"\n".join(lines)


def load_store(t, load, store):
    """The fixture's databases loaded into store, with the version file."""
    os.makedirs(store, mode=0o700)
    for name in sorted(os.listdir(os.path.join(DATA, "store"))):
        if not name.endswith(".db.dump"):
            continue
        r = subprocess.run([load, os.path.join(store, name[:-len(".dump")])],
                           input=with_moved_expiry(read("store", name)), capture_output=True)
        if r.returncode != 0:
            raise avtest.SetupError("db_load %s: %s" % (name, r.stderr.decode(errors="replace")))
    shutil.copyfile(os.path.join(DATA, "store", "store.version"), os.path.join(store, "store.version"))


def worker(t, d, name, key):
    settings = {k: dict(v) for k, v in avcompat.SETTINGS.items()}
    settings["store"].update({"dir": os.path.join(d, name + "-store"), "key_file": key,
                              "backend": "bdb", "dsn": ""})
    return avtest.Worker(t, d, name=name, settings=settings)


def shown(got, want):
    """Both sides of a difference, long texts cut around where they part."""
    if not (isinstance(got, str) and isinstance(want, str)):
        return repr(got), repr(want)
    at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    lo = max(0, at - 100)
    cut = lambda s: ("..." if lo else "") + repr(s[lo:at + 150]) + ("..." if len(s) > at + 150 else "")
    return cut(got), cut(want)


def same_events(t, got, want, name):
    """One check: two runs' normalised answers are equal; else where they
    first differ."""
    diff = avcompat.first_difference(got, want)
    if not t.ok(diff is None, name):
        g, w = shown(diff[1], diff[2])
        t.diag("first difference at %s" % diff[0], "     got: " + g, "expected: " + w)


def same_bytes(t, got, want, name):
    """One check: the same bytes; else the first line that differs."""
    d = avcompat.first_line_difference(got, want)
    if not t.ok(d is None, name):
        g, w = shown(d[1].decode("utf-8", "replace"), d[2].decode("utf-8", "replace"))
        t.diag("first difference on line %d" % d[0], "     got: " + g, "expected: " + w)


def last_id(sse):
    ids = re.findall(rb"(?m)^id: (\d+)$", sse)
    return int(ids[-1]) if ids else 0


def test_replays(t, w, threads):
    """Every thread's status, its replay from the start and from the middle."""
    for x in threads:
        name, golden = x["scenario"], read("replay", x["scenario"] + ".sse")
        t.is_(avcompat.thread_status(w, x["threadId"]), x["status"],
              "%s: the thread is %s" % (name, x["status"]))
        r = avcompat.replay(w, x["threadId"])
        t.is_(r.status, 200, "%s: its replay answers 200" % name)
        same_bytes(t, r.body, golden, "%s: its replay is the old build's, byte for byte (%d bytes)"
                   % (name, len(golden)))
        mid = last_id(golden) // 2
        r = avcompat.replay(w, x["threadId"], mid)
        same_bytes(t, r.body, avcompat.tail_after(golden, mid),
                   "%s: after Last-Event-ID %d, the same bytes from there on" % (name, mid))


def test_resume(t, w, threads):
    """Each paused thread approved to its end, as the old build resumed it."""
    for x in threads:
        if x["status"] != "paused":
            continue
        name = x["scenario"]
        run = avcompat.resume(w, x["threadId"], x["workflow"])
        t.ok(run.answers and paused(run.last()) is None and
             run.last()[-1:] and run.last()[-1]["data"] == "[DONE]",
             "%s: approved, it runs to its end (answers: %d)" % (name, len(run.answers)))
        t.is_(avcompat.thread_status(w, x["threadId"]), "done", "%s: the thread is done" % name)
        want = accepted(name, avcompat.normalise(avcompat.read_answers(read("resume", name + ".sse"), b""),
                                                 x["threadId"], x["workflow"]))
        got, want = reshaped(name, run.normalised(), want)
        same_events(t, got, want, "%s: resumed with the old build's events" % name)


# Changes of new runs' words since the old build, each a fix made on
# purpose: (scenario prefix, the old build's text, this build's, why).
# Each row must change something, or the test says it is stale.
ACCEPTED = [
    ("graph_edit_", "%s开始工作…开始工作…", "请求解析开始工作…",
     "graph_edit's node 'start' was named by the engine's own template agent.start"),
    ("graph_edit_", "%s is starting… is starting…", "The request reader is starting…",
     "the same, in English"),
    ("graph_edit_", "%s开始工作…完成了这一步", "请求解析完成了这一步", "the same, at its end"),
    ("graph_edit_", "%s is starting… has finished this step",
     "The request reader has finished this step", "the same, at its end, in English"),
    ("orchestrate_", "The edit planner", "The planner",
     "orchestrate's plan node was named by graph_edit's word for its own plan node"),
    ("orchestrate_", "approve is starting…", "The plan check is starting…", "orchestrate's nodes are named"),
    ("orchestrate_", "approve has finished this step", "The plan check has finished this step", ""),
    ("orchestrate_", "execute is starting…", "The stage runner is starting…", "orchestrate's nodes are named"),
    ("orchestrate_", "execute has finished this step", "The stage runner has finished this step", ""),
    ("orchestrate_", "complete is starting…", "The summary is starting…", "orchestrate's nodes are named"),
    ("orchestrate_", "complete has finished this step", "The summary has finished this step", ""),
    ("graph_edit_", "relevant nodes found (8, searched by keywords (BM25)): Image preview, Math, Value preview, "
     "Text preview, Generate image, Image input, Crop image, Resize image",
     "relevant nodes found (8, searched by keywords (BM25)): Generate image, Image preview, Math, Value preview, "
     "Text preview, Image input, Crop image, Resize image",
     "the node search also matches other forms of a word (generate, generation), so Generate image ranks first"),
]

# Fields a newer build adds to an event type (prefix of the scenario,
# event type, fields as paths: "a.b", "a[].b" for each element of list a):
# left out of the new run's events before comparing, and each row must
# have removed something.
ADDED = [
    ("chat_", "message", ("messageId", "replyTo"),
     "each chat message names itself and its question, for editing and regenerating (input.editOf, input.regenerate)"),
    ("chat_", "state_update", ("changes.msgSeq", "changes.messages[].id"), "the same ids in the state"),
]
ADDED_USED = set()

# Lists a newer build gives in another order (prefix, event type, path to
# the list): compared as sorted, in both runs; each row must have sorted a
# list whose order differed.
REORDERED = [
    ("graph_edit_", "state_update", "changes.types",
     "the node search also matches other forms of a word (generate, generation): the same nodes, ranked anew"),
]
REORDERED_USED = set()

# Workflows whose offline agents write other words and values on purpose
# (prefix of the scenario, why): their events are compared by shape, the
# same events of the same types from the same nodes with the old build's
# fields (a new field may be added), strings and numbers set aside
# (booleans, nulls and the sizes of lists still count). Each row must be
# needed: the values must differ.
RESHAPED = [
    ("orchestrate_", "the offline agents' plans, reviews and summaries were rewritten for the person who "
     "reads them: estimatedComplexity, step texts, counts said once"),
    ("image_", "the offline pictures are scenes (their sizes, a seed in the metadata) and the critic reviews "
     "the glyphs and the style it got"),
]
RESHAPED_USED = set()


def shape(v, like=None):
    """v with its strings and numbers replaced by their kind; with like (the
    old build's value at the same place), only the fields like has."""
    if isinstance(v, dict):
        keep = like if isinstance(like, dict) else None
        return {k: shape(x, keep.get(k) if keep else None) for k, x in v.items() if keep is None or k in keep}
    if isinstance(v, list):
        return [shape(x, like[i] if isinstance(like, list) and i < len(like) else None) for i, x in enumerate(v)]
    if isinstance(v, bool) or v is None:
        return v
    return "<%s>" % type(v).__name__


# Workflows whose offline pictures are drawn anew (prefix, why): the
# assets' ids (their bytes' hashes) are compared as "an asset", in both
# runs. Each row must be needed: some id must differ.
REDRAWN = [
    ("image_", "the offline pictures are scenes of emoji glyphs now, not gradients"),
    ("note_", "the same pictures, in a note"),
]
REDRAWN_USED = set()
ASSET_ID = re.compile(r"<asset:[\w-]+>")


def redrawn(name, got, want):
    """got and want with asset ids set aside when REDRAWN names the
    scenario and they differ there (the row then noted in REDRAWN_USED)."""
    for i, (prefix, _) in enumerate(REDRAWN):
        if not name.startswith(prefix):
            continue
        g, w = json.dumps(got, ensure_ascii=False), json.dumps(want, ensure_ascii=False)
        if ASSET_ID.findall(g) != ASSET_ID.findall(w):
            REDRAWN_USED.add(i)
        return json.loads(ASSET_ID.sub("<asset>", g)), json.loads(ASSET_ID.sub("<asset>", w))
    return got, want


def reshaped(name, got, want):
    """got and want, by shape when RESHAPED names the scenario and they
    differ (the row then noted in RESHAPED_USED)."""
    got, want = redrawn(name, got, want)
    for i, (prefix, _) in enumerate(RESHAPED):
        if name.startswith(prefix) and got != want:
            RESHAPED_USED.add(i)
            return shape(got, want), shape(want)
    return got, want


def sorted_lists(name, answers, note=None):
    """answers with the lists REORDERED names sorted; with note, the rows
    whose list was out of order are noted there."""
    for i, (prefix, kind, path, _) in enumerate(REORDERED):
        if not name.startswith(prefix):
            continue
        for a in answers:
            for e in a["events"]:
                d = e.get("data")
                keys = path.split(".")
                for k in keys[:-1]:
                    d = d.get(k) if isinstance(d, dict) else None
                if isinstance(d, dict) and e["data"].get("type") == kind and isinstance(d.get(keys[-1]), list):
                    lst = d[keys[-1]]
                    if note is not None and lst != sorted(lst, key=json.dumps):
                        note.add(i)
                    d[keys[-1]] = sorted(lst, key=json.dumps)
    return answers


def drop_path(d, path):
    """Removes path from d (dicts and lists); whether something went."""
    head, _, rest = path.partition(".")
    each = head.endswith("[]")
    key = head[:-2] if each else head
    if not isinstance(d, dict) or key not in d:
        return False
    if not rest:
        del d[key]
        return True
    items = d[key] if each and isinstance(d[key], list) else [d[key]]
    return any([drop_path(x, rest) for x in items])


def without_added(name, answers):
    """The new run's normalised answers without the fields ADDED lists;
    the rows that removed something are noted in ADDED_USED."""
    for i, (prefix, kind, fields, _) in enumerate(ADDED):
        if not name.startswith(prefix):
            continue
        for a in answers:
            for e in a["events"]:
                d = e.get("data")
                if isinstance(d, dict) and d.get("type") == kind:
                    for f in fields:
                        if drop_path(d, f):
                            ADDED_USED.add(i)
    return answers


ACCEPTED_USED = set()


def accepted(name, events):
    """The old build's normalised events with the accepted changes made;
    the rows that changed something are noted in ACCEPTED_USED."""
    text = json.dumps(events, ensure_ascii=False)
    for i, (prefix, old, new, _) in enumerate(ACCEPTED):
        if name.startswith(prefix) and json.dumps(old, ensure_ascii=False)[1:-1] in text:
            text = text.replace(json.dumps(old, ensure_ascii=False)[1:-1],
                                json.dumps(new, ensure_ascii=False)[1:-1])
            ACCEPTED_USED.add(i)
    return json.loads(text)


def test_new_runs(t, w, threads):
    """Every scenario again on a store of its own: the old build's events,
    but for the changes ACCEPTED names."""
    for x in threads:
        name = x["scenario"]
        run = avcompat.run_scenario(w, name)
        old = avcompat.read_answers(read("answers", name + ".sse"), read("replay", name + ".sse"))
        want = accepted(name, avcompat.normalise(old, x["threadId"], x["workflow"]))
        got = without_added(name, run.normalised())
        want = sorted_lists(name, want, REORDERED_USED)
        got = sorted_lists(name, got)
        got, want = reshaped(name, got, want)
        same_events(t, got, want,
                    "%s: a new run has the old build's events (times and random ids aside)" % name)
    unused = [ACCEPTED[i][1] for i in range(len(ACCEPTED)) if i not in ACCEPTED_USED]
    unused += [ADDED[i][1] for i in range(len(ADDED)) if i not in ADDED_USED]
    unused += [REORDERED[i][2] for i in range(len(REORDERED)) if i not in REORDERED_USED]
    unused += [RESHAPED[i][0] for i in range(len(RESHAPED)) if i not in RESHAPED_USED]
    unused += [REDRAWN[i][0] for i in range(len(REDRAWN)) if i not in REDRAWN_USED]
    t.is_(unused, [], "every accepted change was needed")


def main(t):
    load = shutil.which("db5.3_load") or shutil.which("db_load")
    if load is None:
        t.skip_all("no db_load to load the store's dump (Debian: db5.3-util)")
    threads = json.loads(read("threads.json"))
    d = t.tmpdir("compat")
    key = os.path.join(d, "thread.key")
    avtest.write_file(key, read("thread.key").decode(), 0o600)
    load_store(t, load, os.path.join(d, "old-store"))
    w = worker(t, d, "old", key).start()
    test_replays(t, w, threads)
    test_resume(t, w, threads)
    test_new_runs(t, worker(t, d, "new", key).start(), threads)


if __name__ == "__main__":
    avtest.run(main)
