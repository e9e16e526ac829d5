"""The graph_edit workflow's offline planner as a person meets it, through
a real lighttpd and worker: a table of requests in Chinese and English, each
sent with a small canvas (nodes placed by hand) in a thread of its own.

Each row says what the published workflow must hold afterwards (edges by
the node they start and end at, a new node by its type), which edges must
be gone, which words the reply must (not) hold, or that nothing changes
(questions, a broken canvas). For every row that changes the canvas the
test also checks: the reply claims no edge the workflow lacks (each
"A".x → "B".y or "connected A.x to B.y" before "Not done", unless an
insert later says it took that edge back "in place of" it), every node
placed by the layout keeps clear of every other box, and a node put
between two nodes lies between them (never past the end of the chain).
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

JSON_HDR = {"Content-Type": "application/json"}


def n(id_, type_, x, y, **extra):
    v = {"id": id_, "type": type_, "position": {"x": x, "y": y}, "data": {"configValues": {}}}
    v.update(extra)
    return v


def e(id_, s, sh, t, th):
    return {"id": id_, "source": s, "sourceHandle": sh, "target": t, "targetHandle": th}


def canvas(nodes, edges):
    return {"name": "t", "nodes": nodes, "edges": edges, "viewport": {"x": 0, "y": 0, "zoom": 1}}


CANVASES = {
    "empty": canvas([], []),
    # text input -> summary -> preview; an image input and a background remover apart
    "text": canvas([n("n_in", "core:TextInput", 0, 0), n("n_sum", "llm:Summarize", 320, 0),
                    n("n_prev", "io:TextPreview", 640, 0), n("n_img", "io:ImageInput", 0, 300),
                    n("n_rb", "image:RemoveBackground", 320, 300)],
                   [e("e1", "n_in", "text", "n_sum", "text"),
                    e("e2", "n_sum", "summary", "n_prev", "text")]),
    # image input -> background remover; an inpaint -> image preview
    "image": canvas([n("n_img", "io:ImageInput", 0, 0), n("n_rb", "image:RemoveBackground", 320, 0),
                     n("n_ip", "image:Inpaint", 640, 0), n("n_view", "io:ImagePreview", 960, 0)],
                    [e("e1", "n_img", "image", "n_rb", "image"),
                     e("e2", "n_ip", "image", "n_view", "image")]),
    # three loose nodes, one under the other
    "loose": canvas([n("n_a", "core:TextInput", 0, 0), n("n_b", "llm:Translate", 0, 200),
                     n("n_c", "io:TextPreview", 0, 400)], []),
    # text input -> chat -> preview
    "chat": canvas([n("n_in", "core:TextInput", 0, 0), n("n_chat", "llm:Chat", 320, 0),
                    n("n_prev", "io:TextPreview", 640, 0)],
                   [e("e1", "n_in", "text", "n_chat", "prompt"),
                    e("e2", "n_chat", "text", "n_prev", "text")]),
    # an edge to a node that is not there, a node of a type the library lacks
    "broken": canvas([n("n_in", "core:TextInput", 0, 0), n("n_x", "core:NoSuchThing", 320, 0),
                      n("n_prev", "io:TextPreview", 640, 0)],
                     [e("e_bad", "n_in", "text", "n_gone", "text"),
                      e("e_ok", "n_in", "text", "n_prev", "text")]),
}

# Rows: (canvas, text, expectations). Expectations:
#   edges:   edges the result must have: (source, sourceHandle, target, targetHandle); an
#            end is a canvas id or "+type" (the node of that type the patch added)
#   gone:    canvas edge or node ids that must be gone; kept: ones that must stay
#   added:   types the patch must add; removed: node ids it must remove
#   config:  (node, param, value) in the result
#   between: (source, new type, target), or a list of them: the new node lies between the two
#   has / not: words the reply must / must not hold
#   same:    nothing changes (no workflow_update), the reply is a message
ROWS = [
    # insert between two connected nodes
    ("text", "在摘要总结和文本预览之间插入一个翻译节点",
     dict(added=["llm:Translate"], gone=["e2"], edges=[("n_sum", "summary", "+llm:Translate", "text"),
          ("+llm:Translate", "text", "n_prev", "text")], between=("n_sum", "llm:Translate", "n_prev"),
          has=["插入"])),
    ("text", "insert a translator between the summarizer and the preview",
     dict(added=["llm:Translate"], gone=["e2"], edges=[("n_sum", "summary", "+llm:Translate", "text"),
          ("+llm:Translate", "text", "n_prev", "text")], between=("n_sum", "llm:Translate", "n_prev"),
          has=["between"])),
    ("text", "put a trim node between the text input and the summary",
     dict(added=["text:Trim"], gone=["e1"], edges=[("n_in", "text", "+text:Trim", "text"),
          ("+text:Trim", "text", "n_sum", "text")], between=("n_in", "text:Trim", "n_sum"))),
    ("chat", "在大模型对话和文本预览中间加一个大小写转换",
     dict(added=["text:ChangeCase"], gone=["e2"], edges=[("n_chat", "text", "+text:ChangeCase", "text"),
          ("+text:ChangeCase", "text", "n_prev", "text")], between=("n_chat", "text:ChangeCase", "n_prev"))),
    ("text", "add a translate node after the summariser",
     dict(added=["llm:Translate"], gone=["e2"], edges=[("n_sum", "summary", "+llm:Translate", "text"),
          ("+llm:Translate", "text", "n_prev", "text")], between=("n_sum", "llm:Translate", "n_prev"))),
    ("text", "在文本预览前面加一个去除空白节点",
     dict(added=["text:Trim"], gone=["e2"], edges=[("n_sum", "summary", "+text:Trim", "text"),
          ("+text:Trim", "text", "n_prev", "text")], between=("n_sum", "text:Trim", "n_prev"))),
    ("text", "insert a translator between the summary and the preview, then a case converter "
     "between the translator and the preview",
     dict(added=["llm:Translate", "text:ChangeCase"], gone=["e2"],
          edges=[("n_sum", "summary", "+llm:Translate", "text"),
                 ("+llm:Translate", "text", "+text:ChangeCase", "text"),
                 ("+text:ChangeCase", "text", "n_prev", "text")],
          between=[("n_sum", "llm:Translate", "n_prev"), ("n_sum", "text:ChangeCase", "n_prev")])),
    ("text", "在摘要总结后面加一个翻译，再在翻译后面加一个大小写转换",
     dict(added=["llm:Translate", "text:ChangeCase"], gone=["e2"],
          edges=[("+llm:Translate", "text", "+text:ChangeCase", "text"),
                 ("+text:ChangeCase", "text", "n_prev", "text")],
          between=[("n_sum", "llm:Translate", "n_prev"), ("n_sum", "text:ChangeCase", "n_prev")])),
    ("text", "insert an upscale node between the summary and the preview",
     dict(added=["image:Upscale"], kept=["e2"], has=["Not done", "could not be connected", "STRING"])),
    # replace, keeping what still fits
    ("text", "把摘要总结换成翻译",
     dict(added=["llm:Translate"], removed=["n_sum"], edges=[("n_in", "text", "+llm:Translate", "text"),
          ("+llm:Translate", "text", "n_prev", "text")], has=["换成"])),
    ("text", "replace the summarizer with a keyword extractor",
     dict(added=["text:Keywords"], removed=["n_sum"], edges=[("n_in", "text", "+text:Keywords", "text")],
          has=["could not be kept", "Text preview"])),
    ("chat", "swap the LLM chat for a translator",
     dict(added=["llm:Translate"], removed=["n_chat"], edges=[("n_in", "text", "+llm:Translate", "text"),
          ("+llm:Translate", "text", "n_prev", "text")])),
    ("image", "用风格迁移替换抠图",
     dict(added=["image:StyleTransfer"], removed=["n_rb"],
          edges=[("n_img", "image", "+image:StyleTransfer", "image")])),
    # chains
    ("loose", "把文本输入、翻译和文本预览依次连起来",
     dict(edges=[("n_a", "text", "n_b", "text"), ("n_b", "text", "n_c", "text")])),
    ("loose", "chain the text input, the translator and the preview in order",
     dict(edges=[("n_a", "text", "n_b", "text"), ("n_b", "text", "n_c", "text")])),
    ("loose", "connect the text input to the translator to the preview",
     dict(edges=[("n_a", "text", "n_b", "text"), ("n_b", "text", "n_c", "text")])),
    ("empty", "添加文本输入、摘要总结和文本预览，然后依次连起来",
     dict(added=["core:TextInput", "llm:Summarize", "io:TextPreview"],
          edges=[("+core:TextInput", "text", "+llm:Summarize", "text"),
                 ("+llm:Summarize", "summary", "+io:TextPreview", "text")])),
    ("empty", "add a text input, a summarizer and a preview, then chain them in order",
     dict(added=["core:TextInput", "llm:Summarize", "io:TextPreview"],
          edges=[("+core:TextInput", "text", "+llm:Summarize", "text"),
                 ("+llm:Summarize", "summary", "+io:TextPreview", "text")])),
    ("loose", "把翻译接在文本输入后面", dict(edges=[("n_a", "text", "n_b", "text")])),
    ("loose", "connect the preview after the translator", dict(edges=[("n_b", "text", "n_c", "text")])),
    ("loose", "feed the text input into the translator", dict(edges=[("n_a", "text", "n_b", "text")])),
    # several sources into one node, by their slots
    ("image", "把图片输入和抠图的蒙版接到局部重绘",
     dict(edges=[("n_img", "image", "n_ip", "image"), ("n_rb", "mask", "n_ip", "mask")], kept=["e1", "e2"])),
    ("image", "connect the image input and the background remover's mask to the inpaint node",
     dict(edges=[("n_img", "image", "n_ip", "image"), ("n_rb", "mask", "n_ip", "mask")])),
    ("empty", "add two random integers and a math node, then feed them into the math node",
     dict(added=["util:RandomInteger", "util:RandomInteger", "util:Math"],
          edges=[("+util:RandomInteger", "value", "+util:Math", "a")])),
    # phrasing: plurals, possessives, -ise/-ize, "node(s)", clauses, option values by meaning
    ("text", "delete the previews", dict(removed=["n_prev"])),
    ("text", "set the summariser's style to bullets", dict(config=[("n_sum", "style", "bullets")])),
    ("text", "set the summarizer node's max words to 120", dict(config=[("n_sum", "max_words", 120)])),
    ("text", "把摘要的形式设为要点列表", dict(config=[("n_sum", "style", "bullets")])),
    ("text", "添加一个翻译节点，再把它的目标语言设为日语",
     dict(added=["llm:Translate"], config=[("+llm:Translate", "target", "ja")])),
    ("text", "add a translator and set its target language to Japanese",
     dict(added=["llm:Translate"], config=[("+llm:Translate", "target", "ja")])),
    ("text", "rename the summarise node to Digest and then connect the image input to the background remover",
     dict(edges=[("n_img", "image", "n_rb", "image")], has=["Digest"])),
    ("loose", "把翻译设成法语", dict(config=[("n_b", "target", "fr")])),
    ("chat", "set the chat's json mode on and its temperature to 0.2",
     dict(config=[("n_chat", "json_mode", True), ("n_chat", "temperature", 0.2)])),
    ("text", "把摘要总结的形式设成列表，字数上限设为100",
     dict(config=[("n_sum", "style", "bullets"), ("n_sum", "max_words", 100)])),
    ("loose", "link the translator to the preview and the text input to the translator",
     dict(edges=[("n_b", "text", "n_c", "text"), ("n_a", "text", "n_b", "text")])),
    ("loose", "connect all three in order",
     dict(edges=[("n_a", "text", "n_b", "text"), ("n_b", "text", "n_c", "text")])),
    ("text", "add a keywords node after the text input",
     dict(added=["text:Keywords"], kept=["e1", "e2"], edges=[("n_in", "text", "+text:Keywords", "text")])),
    ("text", "change the summarizer into a translator",
     dict(added=["llm:Translate"], removed=["n_sum"], edges=[("+llm:Translate", "text", "n_prev", "text")])),
    ("empty", "创建一个文本输入和一个大模型对话然后连接它们，再加一个文本预览接在大模型对话后面",
     dict(added=["core:TextInput", "llm:Chat", "io:TextPreview"],
          edges=[("+core:TextInput", "text", "+llm:Chat", "prompt"),
                 ("+llm:Chat", "text", "+io:TextPreview", "text")])),
    # the reply never claims more than the patch did
    ("text", "add a translator and a flux capacitor",
     dict(added=["llm:Translate"], has=["Not done", "flux capacitor"])),
    ("text", "删除文本预览，然后把翻译接到摘要总结",
     dict(removed=["n_prev"], has=["没有做的部分", "翻译"])),
    ("loose", "chain the text input and the preview, then connect the translator to the text input",
     dict(edges=[("n_a", "text", "n_c", "text")], has=["Not done"])),
    # questions answered from the graph
    ("text", "how many nodes are on the canvas?", dict(same=True, has=["5 nodes", "2 edges"])),
    ("text", "画布上有几个节点？", dict(same=True, has=["5 个节点", "2 条连线"])),
    ("text", "what feeds the preview?", dict(same=True, has=["Summarise", "summary"], ))
    ,
    ("text", "摘要总结的输入来自哪里？", dict(same=True, has=["文本输入"], )),
    ("text", "what does the summarizer feed?", dict(same=True, has=["Text preview"])),
    ("text", "哪些节点没有连接？", dict(same=True, has=["图片输入", "抠图"], not_=["文本预览"])),
    ("text", "which nodes have no connections?", dict(same=True, has=["Image input", "Remove background"])),
    ("text", "what is the summariser connected to?", dict(same=True, has=["Text input", "Text preview"])),
    ("text", "which node has an error?", dict(same=True, has=["Remove background", "image"],
                                              not_=["I can edit"])),
    # a broken canvas is said to be broken, and can be mended
    ("broken", "add a text preview", dict(same=True, has=["e_bad", "canvas"], not_=["another way"])),
    ("broken", "画布有什么问题？", dict(same=True, has=["e_bad", "n_x"])),
    ("broken", "修复画布", dict(gone=["e_bad", "n_x"], kept=["e_ok"])),
]

SIZES = {}


def node_size(type_):
    d = SIZES.get(type_)
    if d is None:
        return 240, 72
    ins, outs, params = len(d.get("inputs", {})), len(d.get("outputs", {})), len(d.get("configValues", {}))
    return 240, 36 + 24 * max(ins, outs) + 28 * params + 12


def overlaps(wf):
    boxes = [(nd["id"], nd["position"]["x"], nd["position"]["y"]) + node_size(nd["type"])
             for nd in wf["nodes"]]
    bad = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and b[2] < a[2] + a[4]:
                bad.append((a[0], b[0]))
    return bad


class Case:
    def __init__(self, t, lt):
        self.t, self.lt = t, lt

    def turn(self, cv, text):
        body = {"workflow": "graph_edit", "input": {"text": text, "workflow": CANVASES[cv]}}
        st, _, raw = self.lt.request("POST", "/api/agent/stream", json.dumps(body), JSON_HDR, timeout=120)
        return st, events(raw) if st == 200 else []


def label_of(nd):
    d = SIZES.get(nd["type"], {})
    return {nd.get("displayName"), d.get("name_en"), d.get("name_zh"), nd["type"]} - {None}


CLAIMS = [re.compile(r'"([^"]+)"\.(\w+) → "([^"]+)"\.(\w+)'),
          re.compile(r'connected "([^"]+)"\.(\w+) to "([^"]+)"\.(\w+)'),
          re.compile(r'「([^」]+)」\.(\w+) → 「([^」]+)」\.(\w+)'),
          re.compile(r'把「([^」]+)」的 (\w+) 连到「([^」]+)」的 (\w+)')]


def claims_hold(wf, reply):
    """The edges the reply says it made, before "Not done", that the workflow lacks."""
    done = re.split(r"Not done|没有做的部分|could not|没能", reply)[0]
    taken_back = " ".join(re.findall(r"\(in place of [^)]*\)|（取代了[^）]*）", done))
    retracted = {m for rx in CLAIMS for m in rx.findall(taken_back)}
    done = re.sub(r"\(in place of [^)]*\)|（取代了[^）]*）", "", done)
    byid = {nd["id"]: nd for nd in wf["nodes"]}
    missing = []
    for rx in CLAIMS:
        for a, sh, b, th in rx.findall(done):
            if (a, sh, b, th) in retracted:
                continue
            if not any(ed["sourceHandle"] == sh and ed["targetHandle"] == th and
                       a in label_of(byid[ed["source"]]) and b in label_of(byid[ed["target"]])
                       for ed in wf["edges"] if ed["source"] in byid and ed["target"] in byid):
                missing.append("%s.%s → %s.%s" % (a, sh, b, th))
    return missing


def resolve(ref, wf, before):
    """A canvas id, or the id of the node of type ref[1:] that was not there before."""
    if not ref.startswith("+"):
        return [ref]
    return [nd["id"] for nd in wf["nodes"] if nd["type"] == ref[1:] and nd["id"] not in before]


def check_row(t, c, i, row):
    cv, text, want = row
    name = "row %d (%s): %s" % (i, cv, text)
    st, evs = c.turn(cv, text)
    ups, msgs = data(evs, "workflow_update"), data(evs, "message")
    reply = (ups[-1].get("reply") if ups else (msgs[-1].get("content") if msgs else "")) or ""
    if st != 200 or data(evs, "error"):
        t.ok(False, name + ": answered (status %s)" % st)
        t.diag(evs)
        return
    for w in want.get("has", []):
        if w not in reply:
            t.ok(False, "%s: the reply holds %r" % (name, w))
            t.diag("reply: " + reply)
            return
    for w in want.get("not_", []):
        if w in reply:
            t.ok(False, "%s: the reply does not hold %r" % (name, w))
            t.diag("reply: " + reply)
            return
    if want.get("same"):
        t.ok(not ups and reply, "%s: answered, nothing changed -> %s" % (name, reply[:150]))
        return
    if not ups:
        t.ok(False, name + ": a workflow_update")
        t.diag("reply: " + reply, data(evs, "patch_rejected"))
        return
    wf = ups[-1]["workflow"]
    before = {nd["id"] for nd in CANVASES[cv]["nodes"]}
    ids = {nd["id"] for nd in wf["nodes"]} | {ed["id"] for ed in wf["edges"]}
    problems = []
    new_types = sorted(nd["type"] for nd in wf["nodes"] if nd["id"] not in before)
    if sorted(want.get("added", [])) != new_types and want.get("added") is not None:
        problems.append("added %s, wanted %s" % (new_types, sorted(want["added"])))
    for x in want.get("gone", []) + want.get("removed", []):
        if x in ids:
            problems.append("%s still there" % x)
    for x in want.get("kept", []):
        if x not in ids:
            problems.append("%s lost" % x)
    for s, sh, tg, th in want.get("edges", []):
        ss, ts = resolve(s, wf, before), resolve(tg, wf, before)
        if not any(ed["source"] in ss and ed["sourceHandle"] == sh and ed["target"] in ts and
                   ed["targetHandle"] == th for ed in wf["edges"]):
            problems.append("no edge %s.%s -> %s.%s" % (s, sh, tg, th))
    for nd_ref, param, value in want.get("config", []):
        got = [nd.get("data", {}).get("configValues", {}).get(param) for nd in wf["nodes"]
               if nd["id"] in resolve(nd_ref, wf, before)]
        if value not in got:
            problems.append("%s.%s is %s, wanted %r" % (nd_ref, param, got, value))
    problems += ["claimed but missing: " + m for m in claims_hold(wf, reply)]
    problems += ["boxes overlap: %s" % (p,) for p in overlaps(wf)]
    betweens = want.get("between", [])
    for s, ty, tg in [betweens] if isinstance(betweens, tuple) else betweens:
        pos = {nd["id"]: nd["position"] for nd in wf["nodes"]}
        new = resolve("+" + ty, wf, before)
        if not new or not pos[s]["x"] < pos[new[0]]["x"] < pos[tg]["x"]:
            problems.append("the new %s is not between %s and %s: %s" %
                            (ty, s, tg, [pos.get(k) for k in [s] + new + [tg]]))
    t.ok(not problems, "%s -> %s" % (name, reply[:150]))
    if problems:
        t.diag(problems, "reply: " + reply)


def main(t):
    with open(avtest.src_path("etc", "nodes.json"), encoding="utf-8") as f:
        for d in json.load(f):
            SIZES[d["type"]] = d
    settings = {"kb": {"nodes": avtest.src_path("etc", "nodes.json")}}
    lt = avtest.Lighttpd(t, t.tmpdir("lt"), workers=1, settings=settings).start()
    t.cleanup(lt.stop)
    c = Case(t, lt)
    t.ok(len(ROWS) >= 30, "the table has %d requests" % len(ROWS))
    for i, row in enumerate(ROWS):
        check_row(t, c, i, row)


avtest.run(main)
