#!/usr/bin/env python3
"""The workflows' descriptors as GET /api/workflows serves them, held
against what the worker does.

- Five workflows, each with its nodes, edges (every node reached from
  __start__), text fields, and JSON Schemas of its input and of its state
  that are valid draft 2020-12 schemas.
- Inputs the worker accepts validate against the workflow's input schema;
  inputs of the wrong shape that it refuses (400) the schema refuses too.
- Every checkpoint of runs of every workflow (offline, each pause
  approved to the end) validates against its state schema, and a state
  with one field of the wrong type does not.
Skips plainly without python3-jsonschema."""
import copy
import json
import os
import sys

# This folder holds a numbers.py test, which would stand in for the
# standard module jsonschema imports: the folder is not searched.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import avtest  # noqa: E402
from avevents import events, paused  # noqa: E402

try:
    import jsonschema
except ImportError:
    jsonschema = None

ACCEPTED = {
    "image": [{"text": "画一只水彩风格的猫"}, {"text": "a cyberpunk fox", "lang": "en"}],
    "chat": [{"text": "你好"}, {"text": "画一只猫"}, {"text": "what time is it", "lang": "en"}],
    "note": [{"topic": "春天去苏州旅行"}, {"text": "weekend camping gear", "tone": "friendly"}],
    "orchestrate": [{"task": "写一首关于秋天的短诗"}],
    "graph_edit": [{"text": "加一个文本输入节点"}, {"command": "undo"}],
}
REFUSED = {
    "image": [{"text": 5}, {"text": "猫", "lang": "fr"}],
    "chat": [{"text": ["hi"]}, {"attachments": "x"}],
    "note": [{"topic": 42}, {"topic": "猫", "maxIterations": "many"},
             {"topic": "猫", "layoutPreference": "wide"}],
    "orchestrate": [{}, {"task": "x", "errorStrategy": "ignore"}],
    "graph_edit": [{"command": "again"}, {"text": "x", "command": "undo"}, {"patch": {}}],
}


def approve_all(w, tid, evs):
    for _ in range(16):
        q = paused(evs)
        if q is None:
            return
        evs = events(w.post_json("/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                                        "action": "approve"}).body)


def check_descriptor(t, d):
    name = d.get("name")
    nodes, edges = set(d.get("nodes", [])), d.get("edges", [])
    reach, todo = set(), ["__start__"]
    while todo:
        n = todo.pop()
        for a, b in edges:
            if a == n and b not in reach:
                reach.add(b)
                todo.append(b)
    t.ok(nodes and nodes <= reach, "%s: every node is reached from __start__" % name)
    t.ok("__end__" in reach, "%s: a run can reach __end__" % name)
    t.ok(d.get("textFields"), "%s: names its text fields" % name)
    for key in ("inputSchema", "stateSchema"):
        try:
            jsonschema.Draft202012Validator.check_schema(d.get(key))
            good = True
        except Exception as e:  # noqa: BLE001
            t.diag(str(e)[:300])
            good = False
        t.ok(good, "%s: its %s is a draft 2020-12 schema" % (name, key))


def check_inputs(t, w, d):
    name, v = d["name"], jsonschema.Draft202012Validator(d["inputSchema"])
    tids = []
    for inp in ACCEPTED[name]:
        r = w.post_json("/api/agent/stream", {"workflow": name, "input": inp})
        evs = events(r.body)
        errs = [e.message for e in v.iter_errors(inp)]
        t.ok(r.status == 200 and not errs, "%s: %s is accepted and valid %s" % (name, json.dumps(inp, ensure_ascii=False), errs))
        if r.status == 200 and evs and isinstance(evs[0]["data"], dict):
            tid = evs[0]["data"].get("threadId")
            approve_all(w, tid, evs)
            tids.append(tid)
    for inp in REFUSED[name]:
        r = w.post_json("/api/agent/stream", {"workflow": name, "input": inp})
        t.ok(r.status == 400 and not v.is_valid(inp),
             "%s: %s is refused (%d) and invalid" % (name, json.dumps(inp, ensure_ascii=False), r.status))
    return tids


def check_states(t, w, d, tids):
    name, v = d["name"], jsonschema.Draft202012Validator(d["stateSchema"])
    bad, n, first = [], 0, None
    for tid in tids:
        h = json.loads(w.request("GET", "/api/threads/%s/history" % tid).body)
        for cp in h.get("checkpoints", []):
            st = cp.get("state")
            n += 1
            first = first or st
            bad += ["step %s: %s" % (cp.get("step"), e.message[:120]) for e in v.iter_errors(st)]
    t.ok(n > 0 and not bad, "%s: its %d checkpoints hold states its schema allows %s" % (name, n, bad[:3]))
    if first:
        wrong = copy.deepcopy(first)
        key = sorted(d["stateSchema"].get("required", []))[0]
        wrong[key] = {"object": ["of", "the wrong", "type"]} if not isinstance(wrong[key], dict) else "x"
        t.ok(not v.is_valid(wrong), "%s: a state whose %s has the wrong type is not" % (name, key))


def main(t):
    if jsonschema is None:
        t.skip_all("python3-jsonschema is not installed")
        return
    d = t.tmpdir("schemas")
    w = avtest.Worker(t, d).start()
    r = w.request("GET", "/api/workflows")
    t.is_(r.status, 200, "GET /api/workflows answers")
    wfs = json.loads(r.body).get("workflows", [])
    t.is_(sorted(x["name"] for x in wfs), sorted(ACCEPTED), "the five workflows")
    for x in wfs:
        check_descriptor(t, x)
        check_states(t, w, x, check_inputs(t, w, x))


if __name__ == "__main__":
    avtest.run(main)
