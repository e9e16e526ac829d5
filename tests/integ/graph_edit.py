"""The graph_edit workflow (seed 002) through a real lighttpd with two
workers sharing one store.

Against a fake OpenAI-compatible model that answers what the test queued:
a good patch (ids generated, localIds mapped, positions laid out, the
model told the dialect and given the retrieved definitions), a patch
fenced in ```json as a bare array, an invalid patch repaired on the second
try (the errors and the previous patch sent back), an invalid patch twice
(patch_rejected, the workflow unchanged), a patch turn without the model,
undo and redo with rising version numbers, new nodes placed clear of a
node the person placed, a person's patch refused (patch_rejected), {"layout": "all"}, and bad input answered 400.
With [workflow.graph_edit] confirm = on: approve, reject with feedback
(planned again with it), modify (the edited patch applied). With the
offline provider: one turn end to end.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fake_models as fm  # noqa: E402
from avevents import data, events  # noqa: E402

KEY = "sk-graph-edit-test"
JSON_HDR = {"Content-Type": "application/json"}


def node(lid, type_, **extra):
    v = {"localId": lid, "type": type_}
    v.update(extra)
    return {"op": "add", "path": "/nodes/-", "value": v}


def edge(s, sh, t, th, local=(True, True)):
    v = {"sourceHandle": sh, "targetHandle": th}
    v["sourceLocalId" if local[0] else "source"] = s
    v["targetLocalId" if local[1] else "target"] = t
    return {"op": "add", "path": "/edges/-", "value": v}


class Client:
    def __init__(self, t, lt):
        self.t, self.lt = t, lt
        self.workers = set()

    def post(self, path, obj):
        st, hdrs, body = self.lt.request("POST", path, json.dumps(obj), JSON_HDR, timeout=120)
        if "x-aivista-worker" in hdrs:
            self.workers.add(hdrs["x-aivista-worker"])
        return st, body

    def turn(self, inp, tid=None):
        """(status, events, threadId) of a turn."""
        req = {"workflow": "graph_edit", "input": inp}
        if tid:
            req["threadId"] = tid
        st, body = self.post("/api/agent/stream", req)
        evs = events(body) if st == 200 else []
        starts = data(evs, "thread_start")
        return st, evs, starts[0]["threadId"] if starts else tid

    def confirm(self, tid, ask, action, payload=None):
        req = {"threadId": tid, "interruptId": ask["interruptId"], "action": action}
        if payload is not None:
            req["payload"] = payload
        st, body = self.post("/api/agent/confirm", req)
        return st, events(body) if st == 200 else []


def update(evs):
    u = data(evs, "workflow_update")
    return u[-1] if u else None


def by_local(u, lid):
    nid = u["idMap"].get(lid)
    return next((n for n in u["workflow"]["nodes"] if n["id"] == nid), None)


def user_facts(req):
    return json.loads(req["body"]["messages"][-1]["content"])


def test_good_turn(t, c, oa):
    oa.script(json.dumps({"patch": [node("a", "core:TextInput"), node("b", "llm:Chat"),
                                    edge("a", "text", "b", "prompt")],
                          "reply": "Added a text input and a chat."}))
    st, evs, tid = c.turn({"text": "add a text input and an LLM chat and connect them"})
    u = update(evs)
    t.is_(st, 200, "good patch: 200")
    t.ok(u is not None, "good patch: workflow_update")
    if u is None:
        t.diag(evs)
        return None, None
    nodes, edges = u["workflow"]["nodes"], u["workflow"]["edges"]
    t.ok(len(nodes) == 2 and len(edges) == 1, "good patch: 2 nodes and 1 edge")
    t.ok(all(n["id"].startswith("n_") and not n["id"].isdigit() for n in nodes) and
         edges[0]["id"].startswith("e_"), "good patch: ids generated (n_, e_)")
    t.ok(edges[0]["source"] == u["idMap"]["a"] and edges[0]["target"] == u["idMap"]["b"],
         "good patch: localIds mapped in the edge and in idMap")
    t.ok(all(isinstance(n.get("position", {}).get("x"), int) for n in nodes),
         "good patch: every node placed by the layout")
    t.ok(u["patch"][0]["value"]["id"] == u["idMap"]["a"] and "localId" not in u["patch"][0]["value"],
         "good patch: the patch as applied carries the ids")
    t.is_((u["version"], u["summary"], u["reply"]),
          (1, "added 2 nodes and 1 edge", "Added a text input and a chat."),
          "good patch: version 1, summary and reply")
    t.ok(data(evs, "thought_log") and "found" in data(evs, "thought_log")[0]["message"],
         "retrieve: a thought_log lists what was found")
    req = oa.requests("/v1/chat/completions")[-1]
    facts = user_facts(req)
    t.ok("localId" in req["body"]["messages"][0]["content"] and
         req["body"].get("response_format", {}).get("type") == "json_object",
         "plan: the system prompt states the dialect, JSON mode")
    t.ok(facts["lang"] == "en" and any(d["type"] == "llm:Chat" for d in facts["definitions"]) and
         facts["workflow"] == {"nodes": [], "edges": []},
         "plan: facts carry lang, the retrieved definitions and the compacted workflow")
    return tid, u


def test_fenced_turn(t, c, oa, tid, prev):
    chat = by_local(prev, "b")
    oa.script("Here you are:\n```json\n" + json.dumps([{"op": "add", "path": "/nodes/%s/data/"
              "configValues/temperature" % chat["id"], "value": 0.3}]) + "\n```\n")
    st, evs, _ = c.turn({"text": "set the chat's temperature to 0.3"}, tid)
    u = update(evs)
    got = u and next(n for n in u["workflow"]["nodes"] if n["id"] == chat["id"])
    t.ok(u and u["version"] == 2 and got["data"]["configValues"]["temperature"] == 0.3,
         "fenced bare array: applied as version 2")
    facts = user_facts(oa.requests("/v1/chat/completions")[-1])
    t.ok(any(n["id"] == chat["id"] for n in facts["workflow"]["nodes"]),
         "plan: the current workflow goes to the model")
    return u


def test_repaired_turn(t, c, oa, tid):
    oa.script(json.dumps({"patch": [node("p", "io:Nope")], "reply": "x"}),
              json.dumps({"patch": [node("p", "io:TextPreview")], "reply": "Added a preview."}))
    n0 = len(oa.requests("/v1/chat/completions"))
    st, evs, _ = c.turn({"text": "add a text preview"}, tid)
    u = update(evs)
    reqs = oa.requests("/v1/chat/completions")[n0:]
    t.ok(u and u["version"] == 3 and len(u["workflow"]["nodes"]) == 3,
         "invalid then repaired: applied as version 3")
    facts = user_facts(reqs[-1]) if len(reqs) == 2 else {}
    t.ok(len(reqs) == 2 and facts.get("errors", [{}])[0].get("code") == "unknown_type" and
         facts["errors"][0]["index"] == 0 and facts.get("previousPatch") == [node("p", "io:Nope")],
         "repair: the errors and the previous patch go back to the model once")
    return u


def test_rejected_turn(t, c, oa, tid, prev):
    bad = json.dumps({"patch": [node("q", "llm:Chat", data={"configValues": {"temperature": 9}})],
                      "reply": "x"})
    oa.script(bad, bad)
    st, evs, _ = c.turn({"text": "add a very hot chat"}, tid)
    rej = data(evs, "patch_rejected")
    t.ok(update(evs) is None and rej, "invalid twice: patch_rejected, no update")
    e = rej[0]["errors"][0] if rej else {}
    t.is_((e.get("index"), e.get("op"), e.get("path"), e.get("code")),
          (0, "add", "/nodes/3/data/configValues/temperature", "out_of_range"),
          "patch_rejected: index, op, path, code")
    t.ok(rej and rej[0]["patch"] and rej[0]["message"] and data(evs, "message"),
         "patch_rejected: the patch and a message in words")
    st, body = c.lt.request("GET", "/api/threads/" + tid)[0], c.lt.request("GET", "/api/threads/" + tid)[2]
    state = json.loads(body).get("state", {})
    t.ok(state.get("version") == 3 and state.get("workflow") == prev["workflow"],
         "patch_rejected: the workflow and version unchanged")


def test_patch_turn(t, c, oa, tid, prev):
    n0 = len(oa.requests("/v1/chat/completions"))
    pv = next(n for n in prev["workflow"]["nodes"] if n["type"] == "io:TextPreview")
    chat = next(n for n in prev["workflow"]["nodes"] if n["type"] == "llm:Chat")
    st, evs, _ = c.turn({"patch": [{"op": "add", "path": "/edges/-", "value": {
        "source": chat["id"], "sourceHandle": "text", "target": pv["id"], "targetHandle": "text"}},
        {"op": "add", "path": "/nodes/%s/displayName" % chat["id"], "value": "Writer"}]}, tid)
    u = update(evs)
    t.ok(u and u["version"] == 4 and len(u["workflow"]["edges"]) == 2,
         "patch turn: applied without the model as version 4")
    t.is_(len(oa.requests("/v1/chat/completions")), n0, "patch turn: the model is not asked")
    t.is_(len(data(evs, "agent_start")), 1, "patch turn: one step")
    t.is_(u and u["reply"], u and u["summary"], "patch turn: the reply is the summary")
    return u


def test_undo_redo(t, c, tid, v3, v4):
    seen = []
    for cmd, want in (("undo", v3), ("undo", None), ("redo", None), ("redo", v4)):
        st, evs, _ = c.turn({"command": cmd}, tid)
        u = update(evs)
        seen.append(u and u["version"])
        if want is not None:
            t.ok(u and u["workflow"] == want["workflow"], "%s: the workflow of version %d restored"
                 % (cmd, want["version"]))
    t.is_(seen, [5, 6, 7, 8], "undo, undo, redo, redo: versions 5 to 8")
    t.diag("workers that answered: %s" % sorted(c.workers))
    st, evs, _ = c.turn({"command": "redo"}, tid)
    t.ok(update(evs) is None and data(evs, "message"), "redo past the last: a message, no change")


def test_layout_turns(t, c):
    placed = {"name": "hand", "nodes": [{"id": "n_hand", "type": "core:TextInput",
                                         "position": {"x": 1000, "y": 1000}}], "edges": []}
    st, evs, tid = c.turn({"workflow": placed, "patch": [
        node("x", "llm:Chat"), node("y", "io:TextPreview"),
        edge("n_hand", "text", "x", "prompt", (False, True)), edge("x", "text", "y", "text")]})
    u = update(evs)
    new = [n for n in (u["workflow"]["nodes"] if u else []) if n["id"] != "n_hand"]
    hand = u and next(n for n in u["workflow"]["nodes"] if n["id"] == "n_hand")
    t.ok(u and hand["position"] == {"x": 1000, "y": 1000}, "layout: a placed node keeps its place")
    t.ok(len(new) == 2 and all(n["position"]["x"] >= 1000 + 240 or n["position"]["x"] + 240 <= 1000
                               for n in new), "layout: new nodes placed clear of it")
    st, evs, _ = c.turn({"patch": [{"op": "remove", "path": "/nodes/n_gone"}]}, tid)
    rej = data(evs, "patch_rejected")
    t.ok(update(evs) is None and rej and rej[0]["errors"][0]["code"] == "path_not_found",
         "patch turn with a bad path: patch_rejected, no update")
    st, evs, _ = c.turn({"patch": [], "layout": "all"}, tid)
    u = update(evs)
    xs = sorted(n["position"]["x"] for n in u["workflow"]["nodes"]) if u else []
    t.ok(u and xs[0] == 0 and len(set(xs)) == 3, "layout all: every node laid out again from 0")


def test_bad_input(t, c):
    cases = [("text and patch", {"text": "x", "patch": []}),
             ("neither", {"layout": "all"}),
             ("a patch that is not an array", {"patch": {"op": "add"}}),
             ("10,000 nodes", {"text": "x", "workflow": {"nodes": [
                 {"id": "n_%d" % i, "type": "core:TextInput"} for i in range(10000)], "edges": []}}),
             ("a bad command", {"command": "again"})]
    for name, inp in cases:
        st, body = c.post("/api/agent/stream", {"workflow": "graph_edit", "input": inp})
        code = json.loads(body).get("code") if st == 400 else None
        t.is_((st, code), (400, "bad_request"), "bad input, %s: 400 bad_request" % name)


def test_fake_model_runs(t, oa):
    settings = {"provider.chat": {"kind": "openai", "base_url": oa.url + "/v1", "model": "script",
                                  "api_key": KEY, "timeout_ms": "10000", "retries": "0"},
                "cache": {"model_ttl": "0"},
                "kb": {"nodes": avtest.src_path("etc", "nodes.json")}}
    lt = avtest.Lighttpd(t, t.tmpdir("lt"), workers=2, settings=settings).start()
    c = Client(t, lt)
    tid, v1 = test_good_turn(t, c, oa)
    if tid is None:
        return
    test_fenced_turn(t, c, oa, tid, v1)
    v3 = test_repaired_turn(t, c, oa, tid)
    test_rejected_turn(t, c, oa, tid, v3)
    v4 = test_patch_turn(t, c, oa, tid, v3)
    test_undo_redo(t, c, tid, v3, v4)
    test_layout_turns(t, c)
    test_bad_input(t, c)
    lt.stop()


def test_confirm_runs(t, oa):
    settings = {"provider.chat": {"kind": "openai", "base_url": oa.url + "/v1", "model": "script",
                                  "api_key": KEY, "timeout_ms": "10000", "retries": "0"},
                "cache": {"model_ttl": "0"}, "workflow.graph_edit": {"confirm": "on"},
                "kb": {"nodes": avtest.src_path("etc", "nodes.json")}}
    lt = avtest.Lighttpd(t, t.tmpdir("ltc"), workers=2, settings=settings).start()
    c = Client(t, lt)
    oa.script(json.dumps({"patch": [node("a", "core:TextInput")], "reply": "A text input."}))
    st, evs, tid = c.turn({"text": "add a text input"})
    ask = data(evs, "ask_user")
    t.ok(ask and ask[0]["context"]["kind"] == "patch" and ask[0]["editable"]["patch"][0]["value"]["type"]
         == "core:TextInput" and update(evs) is None, "confirm: paused with the patch, nothing applied")
    if not ask:
        return
    st, evs = c.confirm(tid, ask[0], "approve")
    u = update(evs)
    t.ok(u and u["version"] == 1 and len(u["workflow"]["nodes"]) == 1, "confirm approve: applied")

    oa.script(json.dumps({"patch": [node("b", "image:Generate")], "reply": "An image."}),
              json.dumps({"patch": [node("b", "io:TextPreview")], "reply": "A preview."}))
    st, evs, _ = c.turn({"text": "add an output"}, tid)
    ask = data(evs, "ask_user")
    st, evs = c.confirm(tid, ask[0], "reject", {"feedback": "a text preview, not an image"})
    ask2 = data(evs, "ask_user")
    facts = user_facts(oa.requests("/v1/chat/completions")[-1])
    t.ok(ask2 and ask2[0]["editable"]["patch"][0]["value"]["type"] == "io:TextPreview" and
         facts.get("feedback") == "a text preview, not an image",
         "confirm reject: planned again with the feedback, paused again")
    st, evs = c.confirm(tid, ask2[0], "approve")
    u = update(evs)
    t.ok(u and u["version"] == 2 and any(n["type"] == "io:TextPreview" for n in u["workflow"]["nodes"]),
         "confirm reject then approve: the new plan applied")

    oa.script(json.dumps({"patch": [node("c", "llm:Chat")], "reply": "A chat."}))
    st, evs, _ = c.turn({"text": "add a chat"}, tid)
    ask = data(evs, "ask_user")
    mine = [node("m", "text:Trim")]
    st, evs = c.confirm(tid, ask[0], "modify", {"patch": mine})
    u = update(evs)
    if u is None:
        t.diag(st, evs)
    t.ok(u and u["version"] == 3 and any(n["type"] == "text:Trim" for n in u["workflow"]["nodes"]) and
         not any(n["type"] == "llm:Chat" for n in u["workflow"]["nodes"]),
         "confirm modify: the edited patch applied instead")
    lt.stop()


def overlap(a, b, sizes):
    (ax, ay), (bx, by) = (a["position"]["x"], a["position"]["y"]), (b["position"]["x"], b["position"]["y"])
    (aw, ah), (bw, bh) = sizes[a["id"]], sizes[b["id"]]
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def test_offline_run(t):
    """The offline planner through the whole workflow: requests in words
    become patches that apply, are laid out and published; what it cannot
    do gets a reply and no change."""
    settings = {"kb": {"nodes": avtest.src_path("etc", "nodes.json")}}
    lt = avtest.Lighttpd(t, t.tmpdir("lto"), workers=2, settings=settings).start()
    c = Client(t, lt)
    st, evs, tid = c.turn({"text": "创建一个文本输入节点和一个LLM对话节点，然后连接它们"})
    u = data(evs, "workflow_update")
    t.ok(st == 200 and u and not data(evs, "error") and evs[-1]["data"] == "[DONE]",
         "offline: 创建…然后连接它们 publishes a workflow_update (%s)" % (u and u[-1].get("summary")))
    wf = u[-1]["workflow"] if u else {"nodes": [], "edges": []}
    types = sorted(n["type"] for n in wf["nodes"])
    t.ok(len(wf["nodes"]) == 2 and len(wf["edges"]) == 1 and any("Text" in x for x in types)
         and any(x.startswith("llm:") for x in types), "  ... two nodes, one edge between them (%s)" % types)
    t.ok(all(isinstance(n.get("position", {}).get("x"), int) for n in wf["nodes"]),
         "  ... every node has a position")
    t.ok(u and set(u[-1]["idMap"]) and all(v.startswith("n_") for v in u[-1]["idMap"].values()),
         "  ... idMap maps the planner's localIds to generated ids")
    st, evs, tid = c.turn({"text": "add an image generator and a preview, then connect them"}, tid)
    u2 = data(evs, "workflow_update")
    wf2 = u2[-1]["workflow"] if u2 else wf
    t.ok(u2 and len(wf2["nodes"]) == 4 and len(wf2["edges"]) == 2,
         "offline, English, same thread: two more nodes and an edge (%s)" % (u2 and u2[-1].get("summary")))
    sizes = {n["id"]: (240, 400) for n in wf2["nodes"]}
    t.ok(not any(overlap(a, b, sizes) for i, a in enumerate(wf2["nodes"]) for b in wf2["nodes"][i + 1:]
                 if a["id"] != b["id"] and abs(a["position"]["y"] - b["position"]["y"]) >= 400),
         "  ... the new nodes are placed clear of the existing ones")
    st, evs, tid = c.turn({"text": "今天天气怎么样"}, tid)
    t.ok(not data(evs, "workflow_update") and data(evs, "message"),
         "offline: a question gets a reply and no change (%s)"
         % (data(evs, "message") and data(evs, "message")[-1].get("content")))
    st, evs, tid = c.turn({"command": "undo"}, tid)
    u3 = data(evs, "workflow_update")
    t.ok(u3 and len(u3[-1]["workflow"]["nodes"]) == 2 and u3[-1]["version"] > u2[-1]["version"],
         "offline: undo restores the two-node workflow under a higher version")
    lt.stop()


def main(t):
    oa = fm.OpenAIFake(KEY).start()
    t.cleanup(oa.stop)
    test_fake_model_runs(t, oa)
    test_confirm_runs(t, oa)
    test_offline_run(t)


avtest.run(main)
