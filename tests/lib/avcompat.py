"""The store compatibility fixture: the threads tests/data/store_compat/
holds, how they are made on a worker, and how their events are compared.

make.py there runs the scenarios below on a worker of an older build and
keeps its store, its thread-ID key, each thread's replay and the answers
of each scenario; tests/integ/store_compat.py reads that store with the
worker being tested and runs the same scenarios again. Every scenario is
a list of requests: a start (workflow and input), a later turn of the
same thread, or approvals of the pauses a run stops at; a scenario whose
last answer is a pause leaves its thread paused.

The answers are kept as the bytes the worker sent, in one file a
scenario (write_answers): each answer after a line ": store_compat answer
N PATH STATUS", its durable events, which the thread's replay holds byte
for byte, written as their "id: N" line only. The events of two runs of
the same requests are compared once what is different in every run is
set aside (normalise): the times, the thread IDs and the ids drawn at
random, each of which becomes a placeholder numbered by its first
appearance, so an id used twice must still be used twice."""

import base64
import json
import re

from avevents import data, events, paused

# Settings of the worker that writes the store and of the one that reads
# it: the longest lives a thread may have (a paused one still expires a
# year after its last step: the test moves every thread's expiry, see
# store_compat.py), the graph editor asking before it applies a patch.
SETTINGS = {"store": {"thread_ttl": "31536000", "done_ttl": "315360000"},
            "workflow.graph_edit": {"confirm": "on"}}

C_FILE = b"""#include <stdlib.h>
#include <string.h>

char *copy(const char *s)
{
\tchar *p = malloc(strlen(s) + 1);
\tstrcpy(p, s); /* TODO: check p */
\treturn p;
}
"""

C_CLEAN = b"""#include <stddef.h>

size_t count_spaces(const char *s)
{
\tsize_t n = 0;

\tfor (; *s; s++)
\t\tn += *s == ' ';
\treturn n;
}
"""


def c_input(name, body):
    return {"task": "review this C file and fix it", "template": "code-review-and-fix",
            "attachments": [{"name": name, "mimeType": "text/x-c",
                             "data": base64.b64encode(body).decode()}]}


# name -> (workflow, requests). A request: ("start", input), ("turn",
# input) or ("approve", n): approve the pause the last answer ended on, n
# times in a row (0: every pause until the run ends).
SCENARIOS = {
    "image_done": ("image", [("start", {"text": "雪山下的小木屋，水彩风格"}),
                             ("turn", {"text": "再调整一下，风格强度 90"})]),
    "note_done": ("note", [("start", {"topic": "新手第一次做戚风蛋糕的经验"}), ("approve", 0)]),
    "note_paused": ("note", [("start", {"topic": "周末带孩子去杭州植物园的半日游攻略"})]),
    "graph_edit_done": ("graph_edit",
                        [("start", {"text": "创建一个文本输入节点和一个LLM对话节点，然后连接它们"}),
                         ("approve", 1)]),
    "graph_edit_paused": ("graph_edit",
                          [("start", {"text": "add an image generator and a preview, then connect them"})]),
    "orchestrate_done": ("orchestrate", [("start", c_input("copy.c", C_FILE)), ("approve", 0)]),
    "orchestrate_paused": ("orchestrate", [("start", c_input("count.c", C_CLEAN))]),
    "chat_done": ("chat", [("start", {"text": "你好，介绍一下你自己"}),
                           ("turn", {"text": "帮我找几篇露营装备的笔记"})]),
}

APPROVE_LIMIT = 12


class Run:
    """The requests of one scenario on a worker (avtest.Worker): the thread
    id and, per answer, its request path, status and body (bytes)."""

    def __init__(self, w, workflow):
        self.w = w
        self.workflow = workflow
        self.tid = None
        self.answers = []

    def post(self, path, obj):
        r = self.w.post_json(path, obj, timeout=120)
        evs = events(r.body)
        self.answers.append({"request": path, "status": r.status, "body": r.body})
        if self.tid is None:
            starts = data(evs, "thread_start")
            self.tid = starts[0]["threadId"] if starts else None
        return evs

    def normalised(self):
        return normalise(self.answers, self.tid, self.workflow)

    def last(self):
        return events(self.answers[-1]["body"]) if self.answers else []

    def approve(self, q):
        self.post("/api/agent/confirm", {"threadId": self.tid, "interruptId": q["interruptId"],
                                         "action": "approve"})

    def step(self, kind, arg):
        if kind == "start":
            self.post("/api/agent/stream", {"workflow": self.workflow, "input": arg})
        elif kind == "turn":
            self.post("/api/agent/stream", {"threadId": self.tid, "input": arg})
        else:
            for _ in range(arg or APPROVE_LIMIT):
                q = paused(self.last())
                if q is None:
                    break
                self.approve(q)


def run_scenario(w, name):
    """Runs scenario name on worker w: its Run."""
    workflow, steps = SCENARIOS[name]
    r = Run(w, workflow)
    for kind, arg in steps:
        r.step(kind, arg)
    return r


def resume(w, tid, workflow):
    """Approves the pause a paused thread waits on, then every pause after
    it until the run ends: the Run of those answers."""
    r = Run(w, workflow)
    r.tid = tid
    q = json.loads(w.request("GET", "/api/threads/" + tid).body).get("interrupt")
    if q:
        r.approve(q)
        r.step("approve", 0)
    return r


def replay(w, tid, last_id=None):
    """A thread's replay as a client asks for it (fcgi_client.Response):
    from the start, or after last_id."""
    headers = {} if last_id is None else {"Last-Event-ID": str(last_id)}
    return w.request("GET", "/api/agent/stream?threadId=" + tid, headers=headers, timeout=120)


def thread_status(w, tid):
    r = w.request("GET", "/api/threads/" + tid)
    return json.loads(r.body).get("status") if r.status == 200 else "http %d" % r.status


# -- normalising -------------------------------------------------------------------

# Fields whose values are drawn at random in every run (or made from the
# thread ID): each distinct value becomes "<key#n>".
RANDOM_KEYS = ("threadId", "interruptId", "creativeId", "toolCallId")
# Times and durations, in ms: these and every "...At" (createdAt, endedAt, ...).
TIME_KEYS = ("timestamp", "deadline", "duration")
# The graph editor's node and edge ids, drawn at random.
GRAPH_ID = re.compile(r"(?<![A-Za-z0-9_-])[ne]_[A-Za-z0-9_-]{12}(?![A-Za-z0-9_-])")
# An asset id: the thread's random part and a hash of the content, in
# base64url. The thread's part is set aside and the content's kept, but
# for the graph editor, whose stored versions hold its random ids.
ASSET_ID = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")


# The same fields in JSON written into a text (a model's messages).
TIME_IN_TEXT = re.compile(r'"(timestamp|deadline|duration|[A-Za-z]+At)": ?\d+')


def is_time(key, v):
    return (key in TIME_KEYS or (key or "").endswith("At")) and isinstance(v, int) \
        and not isinstance(v, bool)


class Normaliser:
    """Replaces the values that differ in every run; one per scenario, so
    placeholders are numbered across the scenario's answers."""

    def __init__(self, tid=None, workflow=None):
        self.seen = {}
        self.raw = None
        self.content = workflow != "graph_edit"
        if tid:
            self.name(tid, "threadId")
            parts = tid.split(".")
            self.raw = parts[1] if len(parts) == 3 else None

    def name(self, value, key):
        if value not in self.seen:
            n = sum(1 for v in self.seen.values() if v.startswith("<%s#" % key)) + 1
            self.seen[value] = "<%s#%d>" % (key, n)
        return self.seen[value]

    def asset(self, m):
        tok = m.group(0)
        raw = unb64url(tok)
        if self.raw and raw[:16] == unb64url(self.raw):
            return "<asset:%s>" % b64url(raw[16:]) if self.content else self.name(tok, "asset")
        return tok

    def text(self, s):
        for value, ph in self.seen.items():
            if len(value) >= 16 and value in s:
                s = s.replace(value, ph)
        s = TIME_IN_TEXT.sub(lambda m: '"%s": "<time>"' % m.group(1), s)
        s = GRAPH_ID.sub(lambda m: self.name(m.group(0), "graphId"), s)
        return ASSET_ID.sub(self.asset, s)

    def value(self, v, key=None):
        if isinstance(v, dict):
            return {self.text(k): ("<time>" if is_time(k, v[k]) else self.value(v[k], k))
                    for k in v}
        if isinstance(v, list):
            return [self.value(x, key) for x in v]
        if key in RANDOM_KEYS and isinstance(v, (str, int)) and not isinstance(v, bool) and v != "":
            return self.name(str(v), key)
        if isinstance(v, str):
            return self.text(v)
        return v


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def unb64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def normalise(answers, tid, workflow):
    """Answers (dicts with request, status, body) of one thread as plain
    data without what differs per run: per answer, its request, status
    and events."""
    n = Normaliser(tid, workflow)
    out = []
    for a in answers:
        evs = [{k: (n.value(e[k]) if k == "data" else e[k]) for k in sorted(e)}
               for e in events(a["body"])]
        out.append({"request": a["request"], "status": a["status"], "events": evs})
    return out


# -- the answers file ---------------------------------------------------------------

MARK = b": store_compat answer "


def replay_blocks(sse):
    """The durable events of a replay: {id: the event's bytes}."""
    out = {}
    for block in sse.split(b"\n\n"):
        m = re.match(rb"id: (\d+)\n", block)
        if m:
            out[int(m.group(1))] = block
    return out


def write_answers(answers, sse):
    """The answers file (bytes) of answers, a durable event that the
    thread's replay sse (bytes, b"" for none) holds the same written as
    its id line."""
    known = replay_blocks(sse)
    out = []
    for i, a in enumerate(answers, 1):
        blocks = []
        for block in a["body"].split(b"\n\n"):
            m = re.match(rb"id: (\d+)\n", block)
            blocks.append(block[:m.end() - 1] if m and known.get(int(m.group(1))) == block else block)
        out.append(MARK + b"%d %s %d\n" % (i, a["request"].encode(), a["status"]) + b"\n\n".join(blocks))
    return b"".join(out)


def read_answers(text, sse):
    """The answers (request, status, body) of an answers file, each
    durable event written as its id line taken from the replay sse."""
    known = replay_blocks(sse)
    out = []
    for part in text.split(MARK)[1:]:
        head, _, body = part.partition(b"\n")
        _, request, status = head.decode().split(" ")
        blocks = []
        for block in body.split(b"\n\n"):
            m = re.fullmatch(rb"id: (\d+)", block)
            blocks.append(known.get(int(m.group(1)), block) if m else block)
        out.append({"request": request, "status": int(status), "body": b"\n\n".join(blocks)})
    return out


def first_difference(got, want, path="$"):
    """Where two normalised values first differ (a path and both sides), or None."""
    if type(got) is not type(want):
        return path, got, want
    if isinstance(got, dict):
        for k in sorted(set(got) | set(want)):
            if k not in got or k not in want:
                return "%s.%s" % (path, k), got.get(k, "(absent)"), want.get(k, "(absent)")
            d = first_difference(got[k], want[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(got, list):
        for i, (g, w) in enumerate(zip(got, want)):
            d = first_difference(g, w, "%s[%d]" % (path, i))
            if d:
                return d
        if len(got) != len(want):
            return "%s (length)" % path, len(got), len(want)
        return None
    return None if got == want else (path, got, want)


def first_line_difference(got, want):
    """The first line (1-based) where two byte strings differ and both
    lines, or None when they are equal."""
    if got == want:
        return None
    g, w = got.split(b"\n"), want.split(b"\n")
    for i in range(max(len(g), len(w))):
        a = g[i] if i < len(g) else b"(end)"
        b = w[i] if i < len(w) else b"(end)"
        if a != b:
            return i + 1, a, b
    return None


def tail_after(sse, last_id):
    """The bytes of a whole replay that follow event last_id: what a
    replay after last_id sends."""
    m = re.search(rb"(?m)^id: %d\n" % (last_id + 1), sse)
    if m:
        return sse[m.start():]
    m = re.search(rb"(?m)^data: \[DONE\]\n", sse)
    return sse[m.start():] if m else b""

