"""The orchestrate workflow (seed 003) through a real lighttpd with two
workers.

Offline, the three templates end to end: code-review-and-fix on a C file
with known issues (the issues at their lines, fixed/ and tests/ files
written, listed in workflow_complete's files and downloadable);
image-ocr-annotate on a picture drawn here with English and Chinese text
(the text in the analyser's structuredData with boxes where it was drawn,
the annotated SVG with boxes there; skipped plainly without Tesseract);
image-element-detect on a picture with known rectangles. The templates'
conditions and expectations: a clean C file (the review finds nothing, fix
and tests are skipped by their condition, the summary runs and says so,
the run succeeds); a picture without text and one without elements (the
annotation is skipped).

Against a fake OpenAI-compatible service (tests/lib/fake_models.py
OrchFake) that answers the planner and each stage as the test says: a
two-group plan whose parallel stages' requests overlap in time, with the
structured data of an input given to its dependents as JSON; a plan
repaired after its check errors went back to the planner; approve, reject
with feedback (planned again with it), modify (re-checked: a bad one
pauses again with its errors); each error strategy (retry counted, skip
with dependents told, abort ending the thread with an error naming the
stage); a tool loop stopped at maxIterations; a tool call with bad
arguments answered with an error result, the loop going on; tool call ids
unique in the thread; a worker killed with SIGKILL after the first stage
of a group finished (that stage's model is not called again, the other
resumes from its last committed iteration); an agent whose registry entry
names another provider (modelOverride) answered by a second service.
Conditions and expectations from the planner: a plan with a condition on
something that is not an input goes back to the planner; a false condition
skips its stage (and a stage conditioned on that one); an answer failing
its stage's expectation is retried with the reasons in its messages and
passes the second time; under skip, its dependents are told why."""

import base64
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
import fake_models  # noqa: E402
from avevents import data, events, last_ask, types  # noqa: E402

SVGPNG = os.path.join(avtest.TOP_BUILDDIR, "tests", "media", "svgpng")

C_FILE = b"""#include <stdlib.h>
#include <string.h>
#include <stdio.h>

char *dup(const char *s)
{
\tchar *p = malloc(strlen(s) + 1);
\tstrcpy(p, s);
\treturn p;
}

void greet(const char *who)
{
\tchar buf[64];
\tsprintf(buf, "hello %s", who); /* TODO: locale */
\tputs(buf);
}
"""
# rule -> line, as the reviewer must find them in C_FILE
C_ISSUES = {"unchecked-alloc": 7, "unsafe-string": 8, "todo": 15}


def post(lt, path, obj, timeout=120):
    st, _, body = lt.request("POST", path, json.dumps(obj), {"Content-Type": "application/json"},
                             timeout=timeout)
    return st, events(body)


def start(lt, inp):
    st, evs = post(lt, "/api/agent/stream", {"workflow": "orchestrate", "input": inp})
    ts = data(evs, "thread_start")
    return st, evs, ts[0]["threadId"] if ts else None


def confirm(lt, tid, q, action, payload=None):
    body = {"threadId": tid, "interruptId": q["interruptId"], "action": action}
    if payload is not None:
        body["payload"] = payload
    return post(lt, "/api/agent/confirm", body)[1]


def thread(lt, tid):
    st, _, body = lt.request("GET", "/api/threads/" + tid, timeout=60)
    return json.loads(body) if st == 200 else {}


def result(evs):
    """The workflow_complete event with the run's result, or {}."""
    got = [d for d in data(evs, "workflow_complete") if "stages" in d]
    return got[-1] if got else {}


def run(lt, inp, limit=6):
    """Starts a run and approves every pause; (thread id, every event)."""
    st, evs, tid = start(lt, inp)
    seen = list(evs)
    for _ in range(limit):
        if not evs or "workflow_paused" not in types(evs):
            break
        evs = confirm(lt, tid, last_ask(evs), "approve")
        seen += evs
    return tid, seen


def asset(lt, aid):
    st, hdrs, body = lt.request("GET", "/api/assets/" + aid, timeout=60)
    return body if st == 200 else None


def unique_ids(t, evs, name):
    ids = [d["toolCallId"] for d in data(evs, "tool_call")]
    res = [d["toolCallId"] for d in data(evs, "tool_result")]
    t.ok(ids and len(set(ids)) == len(ids) and sorted(res) == sorted(ids),
         "%s: tool call ids unique in the thread, one result each (%s)" % (name, ", ".join(ids)))


# -- offline ------------------------------------------------------------------------------------

def test_offline_review(t, lt):
    tid, evs = run(lt, {"task": "review this C file and fix it", "template": "code-review-and-fix",
                        "attachments": [{"name": "dup.c", "mimeType": "text/x-c",
                                         "data": base64.b64encode(C_FILE).decode()}]})
    done = result(evs)
    t.ok(done.get("success") is True, "review: the run succeeded")
    t.is_(len(data(evs, "workflow_complete")), 1, "review: one workflow_complete, carrying the result")
    stages = done.get("stages", {})
    t.is_(sorted(stages), ["fix", "review", "summary", "tests"], "review: the template's four stages")
    issues = ((stages.get("review", {}).get("context") or {}).get("structuredData") or {}).get("issues", [])
    found = {(i.get("rule"), i.get("line")) for i in issues if i.get("file") == "dup.c"}
    t.ok(all((r, ln) in found for r, ln in C_ISSUES.items()),
         "review: the known issues at their lines (%s)" % sorted(found, key=str))
    files = done.get("files", {})
    t.ok("fixed/dup.c" in files and "tests/test_dup.c" in files and "dup.c" in files,
         "review: fixed/dup.c and tests/test_dup.c written, the attachment kept (%s)" % sorted(files))
    fixed = asset(lt, files.get("fixed/dup.c", {}).get("assetId", "x")) or b""
    t.ok(b"if (p == NULL)" in fixed and b"snprintf(buf, sizeof(buf)" in fixed,
         "review: the fixed file downloads with the allocation checked and sprintf bounded")
    test = asset(lt, files.get("tests/test_dup.c", {}).get("assetId", "x")) or b""
    t.ok(b"dup.c" in test and b"1..2" in test, "review: the test file downloads")
    gen = [f["path"] for f in (stages.get("fix", {}).get("context") or {}).get("generatedFiles", [])]
    t.is_(gen, ["fixed/dup.c"], "review: the coder's StageContext lists its file")
    ends = {d["stageId"]: d for d in data(evs, "stage_end")}
    t.is_(ends.get("fix", {}).get("toolsUsed"), ["write_file"], "review: stage_end carries toolsUsed")
    prog = data(evs, "workflow_progress")
    t.ok(prog and prog[-1].get("done") == 4 and prog[-1].get("total") == 4 and
         prog[-1].get("groups") == 3, "review: workflow_progress counts stages and groups")
    unique_ids(t, evs, "review")
    t.is_(thread(lt, tid).get("status"), "done", "review: the thread is done")


CLEAN_C = b"""#include <stdio.h>

int add(int a, int b)
{
\treturn a + b;
}
"""


def skipped_by_condition(t, evs, done, stage, name):
    end = next((d for d in data(evs, "stage_end") if d.get("stageId") == stage), {})
    t.ok(end.get("status") == "skipped" and end.get("reason") == "condition_not_met" and
         (end.get("condition") or {}).get("test") and "condition not met" in end.get("summary", ""),
         "%s: %s skipped by its condition, stage_end says so (%s)" % (name, stage, end))
    t.is_((done.get("stages", {}).get(stage) or {}).get("reason"), "condition_not_met",
          "%s: the result says why %s was skipped" % (name, stage))


def test_offline_clean(t, lt):
    tid, evs = run(lt, {"task": "review this C file and fix it", "template": "code-review-and-fix",
                        "lang": "en",
                        "attachments": [{"name": "add.c", "mimeType": "text/x-c",
                                         "data": base64.b64encode(CLEAN_C).decode()}]})
    done = result(evs)
    st = done.get("stages", {})
    t.is_({k: v.get("status") for k, v in st.items()},
          {"review": "done", "fix": "skipped", "tests": "skipped", "summary": "done"},
          "clean: review and summary done, fix and tests skipped")
    t.is_(((st.get("review", {}).get("context") or {}).get("structuredData") or {}).get("issues"), [],
          "clean: the review found nothing")
    for stage in ("fix", "tests"):
        skipped_by_condition(t, evs, done, stage, "clean")
    text = (st.get("summary", {}).get("context") or {}).get("textOutput", "")
    t.ok(text.count("(coder): no result: condition not met (review: /issues nonempty)") == 1 and
         text.count("(test-writer): no result: condition not met (review: /issues nonempty)") == 1,
         "clean: the summary says fix and tests were skipped, and why (%r)" % text[:400])
    t.ok(done.get("success") is True and not any(p.startswith(("fixed/", "tests/"))
                                                 for p in done.get("files", {})),
         "clean: the run succeeded, no file written")
    t.ok(not data(evs, "stage_start") or all(d["stageId"] not in ("fix", "tests")
                                              for d in data(evs, "stage_start")),
         "clean: the skipped stages never started")
    prog = data(evs, "workflow_progress")
    t.ok(prog and prog[-1].get("done") == 4 and prog[-1].get("total") == 4,
         "clean: the skipped stages count as finished in workflow_progress")


def draw(svg):
    p = subprocess.run([SVGPNG], input=svg.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    if p.returncode != 0:
        raise avtest.SetupError("svgpng: %s" % p.stderr.decode(errors="replace"))
    return p.stdout


def squash(s):
    return re.sub(r"\s+", "", s or "").lower()


def boxes_in(svg):
    """The boxes an annotated SVG draws: [(x, y, w, h)]."""
    return [tuple(float(v) for v in m) for m in re.findall(
        r'<rect class="box" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)]


def near(box, want, slack):
    return all(abs(a - b) <= slack for a, b in zip(box[:2], want[:2]))


OCR_LINES = [  # text, squashed, font, x, baseline, size
    ("Invoice Total 4200", "invoicetotal4200", "DejaVu Sans", 40, 80, 48),
    ("欢迎使用系统", "欢迎使用系统", "WenQuanYi Micro Hei", 40, 190, 56),
]


def with_tesseract():
    """Whether this worker was built with Tesseract (config.h)."""
    try:
        with open(os.path.join(avtest.TOP_BUILDDIR, "config.h")) as f:
            return re.search(r"^#define HAVE_TESSERACT 1", f.read(), re.M) is not None
    except OSError:
        return False


def test_offline_ocr(t, lt):
    if not lt.get("/api/health")[0] == 200 or not with_tesseract():
        t.skip("this worker was built without Tesseract: no OCR offline", "ocr")
        return
    svg = ("<svg xmlns='http://www.w3.org/2000/svg' width='900' height='260'>"
           "<rect width='100%' height='100%' fill='white'/>" +
           "".join("<text x='%d' y='%d' font-family='%s' font-size='%d' fill='black'>%s</text>"
                   % (x, b, f, s, txt) for txt, _, f, x, b, s in OCR_LINES) + "</svg>")
    png = draw(svg)
    tid, evs = run(lt, {"task": "read the text of this picture", "template": "image-ocr-annotate",
                        "attachments": [{"name": "sign.png", "data": avpng.data_url(png)}]})
    done = result(evs)
    ocr = ((done.get("stages", {}).get("ocr", {}).get("context") or {}).get("structuredData") or {})
    regions = ocr.get("textRegions", [])
    t.is_(ocr.get("imageSize"), {"width": 900, "height": 260}, "ocr: the picture's size")
    for txt, want, _, x, base, size in OCR_LINES:
        r = next((r for r in regions if want in squash(r.get("text"))), None)
        if not t.ok(r is not None, "ocr: \"%s\" is read (%s)" % (txt, [r.get("text") for r in regions])):
            continue
        bb = r["boundingBox"]
        t.ok(abs(bb["x"] - x) <= size // 2 and base - size <= bb["y"] <= base and
             bb["y"] + bb["height"] <= base + size // 2 and 0.5 < r["confidence"] <= 1,
             "ocr: \"%s\" boxed where it was drawn (%s)" % (txt, bb))
    files = done.get("files", {})
    ann = [p for p in files if p.startswith("annotated/")]
    t.is_(ann, ["annotated/sign.svg"], "ocr: the annotated picture is in the files")
    svgb = (asset(lt, files.get("annotated/sign.svg", {}).get("assetId", "x")) or b"").decode("utf-8", "replace")
    boxes = boxes_in(svgb)
    t.ok(all(any(near(b, (r["boundingBox"]["x"], r["boundingBox"]["y"]), 6) for b in boxes)
             for r in regions) and len(boxes) == len(regions) and "data:image/png;base64," in svgb,
         "ocr: the SVG embeds the picture and draws a box at each region (%d boxes)" % len(boxes))
    t.ok("欢迎使用系统" in svgb, "ocr: the Chinese label is in the SVG as text")

    blank = draw("<svg xmlns='http://www.w3.org/2000/svg' width='300' height='200'>"
                 "<rect width='100%' height='100%' fill='white'/></svg>")
    tid, evs = run(lt, {"task": "read the text of this picture", "template": "image-ocr-annotate",
                        "lang": "en", "attachments": [{"name": "blank.png", "data": avpng.data_url(blank)}]})
    done = result(evs)
    ocr = ((done.get("stages", {}).get("ocr", {}).get("context") or {}).get("structuredData") or {})
    t.is_(ocr.get("textRegions"), [], "ocr, no text: the OCR stage's textRegions is an empty array")
    skipped_by_condition(t, evs, done, "annotate", "ocr, no text")
    t.ok(done.get("success") is True and not any(p.startswith("annotated/") for p in done.get("files", {})),
         "ocr, no text: the run succeeded with nothing drawn")


RECTS = [((200, 40, 40), (40, 40, 120, 60)), ((30, 80, 220), (220, 150, 140, 100))]


def rect_png(w, h):
    rows = []
    for y in range(h):
        row = bytearray(b"\xff" * (3 * w))
        for rgb, (rx, ry, rw, rh) in RECTS:
            if ry <= y < ry + rh:
                row[3 * rx:3 * (rx + rw)] = bytes(rgb) * rw
        rows.append(b"\0" + bytes(row))
    return avpng.build(w, h, b"".join(rows))


def test_offline_detect(t, lt):
    tid, evs = run(lt, {"task": "find the elements", "template": "image-element-detect",
                        "attachments": [{"name": "ui.png", "data": avpng.data_url(rect_png(400, 300))}]})
    done = result(evs)
    det = ((done.get("stages", {}).get("detect", {}).get("context") or {}).get("structuredData") or {})
    els = det.get("elements", [])
    for rgb, (x, y, w, h) in RECTS:
        got = [e["boundingBox"] for e in els if abs(e["boundingBox"]["x"] - x) <= 2 and
               abs(e["boundingBox"]["y"] - y) <= 2 and abs(e["boundingBox"]["width"] - w) <= 2 and
               abs(e["boundingBox"]["height"] - h) <= 2]
        t.ok(got, "detect: the rectangle at %d,%d %dx%d is an element (%s)" %
             (x, y, w, h, [e["boundingBox"] for e in els]))
    files = done.get("files", {})
    svgb = (asset(lt, files.get("annotated/ui.svg", {}).get("assetId", "x")) or b"").decode()
    t.ok(len(boxes_in(svgb)) == len(els) and els, "detect: the annotated SVG boxes every element")
    t.ok(done.get("success") is True, "detect: the run succeeded")

    tid, evs = run(lt, {"task": "find the elements", "template": "image-element-detect", "lang": "en",
                        "attachments": [{"name": "plain.png", "data": avpng.data_url(
                            avpng.build(64, 48, b"".join(b"\0" + b"\xff" * 192 for _ in range(48))))}]})
    done = result(evs)
    det = ((done.get("stages", {}).get("detect", {}).get("context") or {}).get("structuredData") or {})
    t.is_(det.get("elements"), [], "detect, plain picture: no elements")
    skipped_by_condition(t, evs, done, "annotate", "detect, plain picture")
    t.ok(done.get("success") is True, "detect, plain picture: the run succeeded")


def test_offline_suite(t, d):
    lt = avtest.Lighttpd(t, os.path.join(d, "off"), workers=2).start()
    test_offline_review(t, lt)
    test_offline_clean(t, lt)
    test_offline_ocr(t, lt)
    test_offline_detect(t, lt)
    lt.stop()


# -- against a fake model ----------------------------------------------------------------------

def sub(i, agent, inputs=()):
    return {"id": i, "description": "do " + i, "agent": agent, "inputs": list(inputs), "priority": 1}


PLAN2 = {"analysis": "two groups", "estimatedComplexity": "low",
         "subtasks": [sub("s1", "code-reviewer"), sub("s2", "coder", ["s1"]),
                      sub("s3", "test-writer", ["s1"])],
         "executionOrder": [["s1"], ["s2", "s3"]]}
PLAN3 = {"analysis": "three groups", "estimatedComplexity": "medium",
         "subtasks": PLAN2["subtasks"] + [sub("s4", "documenter", ["s2", "s3"])],
         "executionOrder": [["s1"], ["s2", "s3"], ["s4"]]}
S1_DATA = {"issues": [{"file": "a.c", "line": 3, "rule": "todo", "severity": "low", "message": "m"}]}
S1_TEXT = "Found one issue.\n```json\n%s\n```" % json.dumps(S1_DATA)


def setup(fake, plans, stages=None, delay=0.0):
    fake.reset()
    fake.plans = plans
    fake.stages = dict({"s1": [{"answer": S1_TEXT}]}, **(stages or {}))
    fake.delay = delay


def paused_on_plan(t, evs, name):
    q = last_ask(evs)
    return t.ok(q is not None and (q.get("context") or {}).get("kind") == "plan" and
                "workflow_paused" in types(evs), "%s: paused on the plan" % name) and q


def test_fake_groups(t, lt, fake):
    setup(fake, [PLAN2], {"s2": [{"tools": [["glob", {"pattern": "**"}]]}, {"answer": "fixed"}],
                          "s3": [{"tools": [["glob", {"pattern": "*.c"}]]}, {"answer": "tests"}]},
          delay=0.5)
    st, evs, tid = start(lt, {"task": "review and fix my code"})
    ready = data(evs, "plan_ready")
    t.ok(ready and [s["id"] for s in ready[0]["subtasks"]] == ["s1", "s2", "s3"] and
         ready[0]["executionOrder"] == [["s1"], ["s2", "s3"]], "groups: plan_ready carries the planner's plan")
    q = paused_on_plan(t, evs, "groups")
    if not q:
        return
    t.is_(q.get("editable", {}).get("executionOrder"), PLAN2["executionOrder"],
          "groups: the pause's editable executionOrder")
    evs = confirm(lt, tid, q, "approve")
    done = result(evs)
    t.ok(done.get("success") is True and all(s["status"] == "done" for s in done["stages"].values()),
         "groups: every stage done")
    s2, s3 = fake.of("s2"), fake.of("s3")
    t.ok(len(s2) == 2 and len(s3) == 2, "groups: each parallel stage called its model twice")
    if s2 and s3:
        t.ok(max(s2[0]["start"], s3[0]["start"]) < min(s2[0]["end"], s3[0]["end"]),
             "groups: the parallel stages' requests overlap in time (%.2f s apart, %.2f s each)"
             % (abs(s2[0]["start"] - s3[0]["start"]), s2[0]["end"] - s2[0]["start"]))
        inp = s2[0]["facts"].get("inputs", {}).get("s1", {})
        t.is_(inp.get("structuredData"), S1_DATA, "groups: s1's structured data reaches s2 as JSON")
        t.is_(s2[0]["tools"], ["read_file", "write_file", "glob", "grep"], "groups: the coder's tools sent")
        tool_msgs = [m for m in s2[1]["body"]["messages"] if m.get("role") == "tool"]
        t.ok(len(tool_msgs) == 1 and json.loads(tool_msgs[0]["content"]).get("count", -1) >= 0,
             "groups: the glob result goes back to the model as a tool message")
    starts = data(evs, "stage_start")
    t.is_([(s["stageId"], s["group"]) for s in starts], [("s1", 1), ("s2", 2), ("s3", 2)],
          "groups: stage_start with stage and group")
    unique_ids(t, evs, "groups")
    calls = data(evs, "tool_call")
    t.is_(sorted(c["stageId"] for c in calls), ["s2", "s3"], "groups: tool_call carries the stage id")


def test_fake_plans(t, lt, fake):
    bad = dict(PLAN2, subtasks=[sub("s1", "nobody")] + PLAN2["subtasks"][1:])
    setup(fake, [bad, PLAN2])
    st, evs, tid = start(lt, {"task": "review and fix my code"})
    plans = fake.of("plan")
    t.ok(len(plans) == 2 and any(e.get("code") == "unknown_agent" for e in
                                 plans[1]["facts"].get("errors") or []),
         "plans: the check's errors go back to the planner once")
    q = paused_on_plan(t, evs, "plans")
    if not q:
        return
    fake.plans = [PLAN3]
    evs = confirm(lt, tid, q, "reject", {"feedback": "add a summary"})
    plans = fake.of("plan")
    t.ok(len(plans) == 3 and plans[2]["facts"].get("feedback") == "add a summary",
         "reject: planned again with the feedback")
    ready = data(evs, "plan_ready")
    t.ok(ready and len(ready[-1]["subtasks"]) == 4, "reject: the new plan is ready")
    q = paused_on_plan(t, evs, "reject")
    if not q:
        return
    wrong = [dict(s) for s in PLAN3["subtasks"]]
    wrong[3]["agent"] = "nobody"
    evs = confirm(lt, tid, q, "modify", {"subtasks": wrong})
    q = paused_on_plan(t, evs, "modify (bad)")
    if not q:
        return
    codes = [e.get("code") for e in q.get("errors", [])]
    t.ok("unknown_agent" in codes, "modify (bad): paused again with its errors (%s)" % codes)
    t.ok(all(e.get("message") for e in q.get("errors", [])) and
         "subtask s4 names an unknown agent nobody" in q.get("question", ""),
         "modify (bad): each error says what is wrong, and the question says them (%s)" % q.get("question"))
    evs = confirm(lt, tid, q, "modify", {"executionOrder": [["s1"], ["s2"], ["s3"], ["s4"]]})
    done = result(evs)
    t.ok(done.get("success") is True and done.get("plan", {}).get("executionOrder") ==
         [["s1"], ["s2"], ["s3"], ["s4"]], "modify: the edited order is checked and run")
    t.is_([s["group"] for s in data(evs, "stage_start")], [1, 2, 3, 4], "modify: one stage a group")


def test_fake_errors(t, lt, fake):
    setup(fake, [PLAN2], {"s2": [{"error": 500}, {"error": 500}, {"answer": "fixed at last"}]})
    tid, evs = run(lt, {"task": "fix", "errorStrategy": "retry"})
    done = result(evs)
    t.ok(len(fake.of("s2")) == 3 and done.get("stages", {}).get("s2", {}).get("status") == "done",
         "retry: two failures, then done (%d calls)" % len(fake.of("s2")))
    t.is_(thread(lt, tid).get("state", {}).get("stages", {}).get("s2", {}).get("attempts"), 2,
          "retry: the attempts counted")

    setup(fake, [PLAN2], {"s2": [{"error": 500}]})
    tid, evs = run(lt, {"task": "fix", "errorStrategy": "retry"})
    t.ok(len(fake.of("s2")) == 3 and thread(lt, tid).get("status") == "error",
         "retry: a stage failing past stage_retries ends the run (%d calls)" % len(fake.of("s2")))

    setup(fake, [PLAN3], {"s2": [{"error": 500}]})
    tid, evs = run(lt, {"task": "fix", "errorStrategy": "skip"})
    done = result(evs)
    t.is_({k: v["status"] for k, v in done.get("stages", {}).items()},
          {"s1": "done", "s2": "skipped", "s3": "done", "s4": "done"}, "skip: s2 skipped, the rest run")
    s4 = fake.of("s4")
    told = s4[0]["facts"].get("inputs", {}).get("s2", {}) if s4 else {}
    t.ok(told.get("skipped") is True and told.get("status") == "skipped" and told.get("reason"),
         "skip: the dependent is told its input was skipped (%s)" % told)
    t.ok(len(fake.of("s2")) == 1 and done.get("success") is False, "skip: no retry; success false")

    setup(fake, [PLAN3], {"s2": [{"error": 500}]})
    tid, evs = run(lt, {"task": "fix", "errorStrategy": "abort"})
    errs = data(evs, "error")
    t.ok(errs and "s2" in json.dumps(errs[-1]) and thread(lt, tid).get("status") == "error",
         "abort: the thread ends in error naming the stage (%s)" % (errs[-1] if errs else None))
    t.ok(not fake.of("s4") and not result(evs), "abort: later groups never run, no workflow_complete")


def test_fake_tool_loop(t, lt, fake):
    plan = {"analysis": "one", "estimatedComplexity": "low",
            "subtasks": [sub("s1", "documenter")], "executionOrder": [["s1"]]}
    setup(fake, [plan], {"s1": [{"tools": [["read_file", {"path": "nothing.md"}]]}]})
    tid, evs = run(lt, {"task": "document", "errorStrategy": "skip"})
    st = thread(lt, tid).get("state", {}).get("stages", {}).get("s1", {})
    t.ok(len(fake.of("s1")) == 4 and st.get("status") == "skipped" and
         (st.get("error") or {}).get("code") == "max_iterations",
         "tool loop: stopped at the documenter's maxIterations (4 calls, %d made)" % len(fake.of("s1")))

    plan = dict(plan, subtasks=[sub("s1", "code-reviewer")])
    setup(fake, [plan], {"s1": [{"tools": [["read_file", {"path": "a.c", "offset": -1}],
                                           ["grep", {"pattern": "("}]]},
                                {"answer": "done despite the errors"}]})
    tid, evs = run(lt, {"task": "review"})
    outs = [d["toolOutput"] for d in data(evs, "tool_result")]
    t.ok(len(outs) == 2 and outs[0].get("error") == "bad_args" and outs[1].get("error") == "bad_pattern",
         "bad arguments: error results (%s)" % [o.get("error") for o in outs])
    s1 = fake.of("s1")
    back = [json.loads(m["content"]).get("error") for m in s1[-1]["body"]["messages"]
            if m.get("role") == "tool"] if len(s1) == 2 else []
    t.ok(back == ["bad_args", "bad_pattern"] and result(evs).get("success") is True,
         "bad arguments: the errors go back to the model and the loop goes on")


def test_fake_kill(t, lt, fake):
    setup(fake, [PLAN2], {"s2": [{"tools": [["glob", {"pattern": "*"}]]}] * 3 + [{"answer": "fixed"}],
                          "s3": [{"answer": "tests"}]}, delay=0.3)
    st, evs, tid = start(lt, {"task": "fix"})
    q = last_ask(evs)
    worker = {}
    killed = threading.Event()

    def on_call(stage, n):
        if stage == "s2" and n == 3 and not killed.is_set():
            avtest.wait_for(lambda: worker.get("pid"), 10)
            os.kill(worker["pid"], signal.SIGKILL)
            killed.set()
    fake.on_call = on_call
    body = json.dumps({"threadId": tid, "interruptId": q["interruptId"], "action": "approve"})
    resp = avtest.http_open(lt.port, "POST", "/api/agent/confirm", body,
                            {"Content-Type": "application/json"}, timeout=60)
    worker["pid"] = int(resp.getheader("X-AiVista-Worker") or 0)
    try:
        resp.read()
    except (OSError, avtest.http.client.HTTPException):
        pass    # the worker died in the middle of it
    t.ok(killed.wait(30), "kill: the worker running the group was killed in s2's third call")
    seen = []
    for _ in range(40):
        st, _, b = lt.request("GET", "/api/agent/stream?threadId=%s&lastEventId=0" % tid, timeout=60)
        seen = events(b)
        if result(seen) or thread(lt, tid).get("status") in ("done", "error"):
            break
        time.sleep(0.5)
    done = result(seen)
    t.ok(done.get("success") is True, "kill: the run completes on the other worker")
    t.ok(len(fake.of("s3")) == 1 and len(fake.of("s1")) == 1,
         "kill: the finished stages' models are not called again (s1 %d, s3 %d calls)"
         % (len(fake.of("s1")), len(fake.of("s3"))))
    s2 = [len(c["body"]["messages"]) for c in fake.of("s2")]
    t.is_(s2, [2, 4, 6, 6], "kill: s2 resumes from its last committed iteration (the killed "
          "call's messages sent again, not the loop from its start)")


def gated(sid, agent, inputs=(), condition=None, expect=None):
    s = sub(sid, agent, inputs)
    if condition:
        s["condition"] = condition
    if expect:
        s["expect"] = expect
    return s


ISSUES_EXPECT = {"structured": True, "types": {"/issues": "array"}, "minItems": {"/issues": 1}}


def test_fake_conditions(t, lt, fake):
    bad = {"analysis": "bad", "estimatedComplexity": "low",
           "subtasks": [sub("s1", "code-reviewer"), sub("s2", "coder"),
                        gated("s3", "test-writer", ["s1"], {"input": "s2", "path": "/x", "test": "exists"})],
           "executionOrder": [["s1", "s2"], ["s3"]]}
    good = {"analysis": "conditions", "estimatedComplexity": "low",
            "subtasks": [sub("s1", "code-reviewer"),
                         gated("s2", "coder", ["s1"], {"input": "s1", "path": "/issues", "test": "empty"}),
                         gated("s3", "test-writer", ["s1"], {"input": "s1", "path": "/issues/0/severity",
                                                             "test": "equals", "value": "low"}),
                         gated("s4", "documenter", ["s2", "s3"], {"input": "s2", "path": "", "test": "exists"})],
            "executionOrder": [["s1"], ["s2", "s3"], ["s4"]]}
    setup(fake, [bad, good])
    tid, evs = run(lt, {"task": "fix", "lang": "en"})
    plans = fake.of("plan")
    codes = [e.get("code") for e in (plans[1]["facts"].get("errors") or [])] if len(plans) == 2 else []
    t.ok(codes == ["condition_not_input"], "conditions: a condition on a stage that is not an input "
         "goes back to the planner (%s)" % codes)
    ready = data(evs, "plan_ready")
    t.ok(ready and ready[-1]["subtasks"][1].get("condition") == good["subtasks"][1]["condition"],
         "conditions: plan_ready carries the conditions")
    done = result(evs)
    t.is_({k: v["status"] for k, v in done.get("stages", {}).items()},
          {"s1": "done", "s2": "skipped", "s3": "done", "s4": "skipped"},
          "conditions: s2 (issues empty) skipped, s3 (first issue low) run, s4 (on skipped s2) skipped")
    t.ok(not fake.of("s2") and not fake.of("s4") and len(fake.of("s3")) == 1,
         "conditions: the skipped stages' models are never called")
    skipped_by_condition(t, evs, done, "s2", "conditions")
    skipped_by_condition(t, evs, done, "s4", "conditions")
    end = next((d for d in data(evs, "stage_end") if d.get("stageId") == "s4"), {})
    t.is_(end.get("summary"), 'condition not met (s2: "" exists), skipped',
          "conditions: a condition on the whole structured data is said plainly")
    t.ok(done.get("success") is True, "conditions: stages skipped by their conditions leave the run a success")


def test_fake_expect(t, lt, fake):
    plan = {"analysis": "expect", "estimatedComplexity": "low",
            "subtasks": [gated("s1", "code-reviewer", expect=ISSUES_EXPECT), sub("s2", "coder", ["s1"]),
                         sub("s3", "test-writer", ["s1"])],
            "executionOrder": [["s1"], ["s2", "s3"]]}
    setup(fake, [plan], {"s1": [{"answer": "I looked and it seems fine."}, {"answer": S1_TEXT}]})
    tid, evs = run(lt, {"task": "fix", "errorStrategy": "retry", "lang": "en"})
    done = result(evs)
    s1 = fake.of("s1")
    t.ok(len(s1) == 2 and done.get("stages", {}).get("s1", {}).get("status") == "done",
         "expect, retry: the first answer failed its expectation, the second passed (%d calls)" % len(s1))
    msgs = s1[1]["body"]["messages"] if len(s1) == 2 else []
    t.ok(len(msgs) == 4 and msgs[2] == {"role": "assistant", "content": "I looked and it seems fine."} and
         msgs[3]["role"] == "user" and "the answer has no structured data" in msgs[3]["content"],
         "expect, retry: the repair round sends the failed answer and the reasons (%s)" % msgs[2:])
    t.ok(len(s1) == 2 and s1[1]["facts"].get("repair") and not s1[0]["facts"].get("repair"),
         "expect, retry: the retry's facts carry the reasons as repair")
    retry = data(evs, "stage_retry")
    t.ok(len(retry) == 1 and retry[0].get("stageId") == "s1" and retry[0].get("reason") == "bad_output" and
         retry[0].get("attempt") == 1 and retry[0].get("reasons"),
         "expect, retry: a stage_retry event says why (%s)" % retry)
    t.is_((fake.of("s2")[0]["facts"]["inputs"]["s1"].get("structuredData") if fake.of("s2") else None),
          S1_DATA, "expect, retry: the repaired answer's data reaches the dependents")

    none = "```json\n{\"issues\": []}\n```"
    setup(fake, [plan], {"s1": [{"answer": none}]})
    tid, evs = run(lt, {"task": "fix", "errorStrategy": "skip", "lang": "en"})
    done = result(evs)
    t.ok(len(fake.of("s1")) == 1 and done.get("stages", {}).get("s1", {}).get("status") == "skipped",
         "expect, skip: an answer below minItems skips the stage, no retry")
    end = next((d for d in data(evs, "stage_end") if d.get("stageId") == "s1"), {})
    t.ok(end.get("reason") == "bad_output" and end.get("reasons") == ["/issues needs at least 1 items, and has 0"]
         and "not as expected" in end.get("summary", ""),
         "expect, skip: stage_end says bad_output with the reasons (%s)" % end)
    s2 = fake.of("s2")
    told = s2[0]["facts"].get("inputs", {}).get("s1", {}) if s2 else {}
    t.ok(told.get("skipped") is True and told.get("code") == "bad_output" and
         "/issues needs at least 1 items" in told.get("reason", ""),
         "expect, skip: the dependents are told the input was skipped, and why (%s)" % told)


def registry_with(d, overrides):
    """A copy of etc/agents.json with modelOverride set on some agents."""
    with open(avtest.src_path("etc", "agents.json")) as f:
        agents = json.load(f)
    for a in agents:
        if a["id"] in overrides:
            a["modelOverride"] = overrides[a["id"]]
    return avtest.write_file(os.path.join(d, "agents-%d.json" % len(os.listdir(d))), json.dumps(agents))


def with_section(lt, name, keys):
    """Appends a [provider.NAME] section to the worker's configuration."""
    with open(lt.worker_conf, "a") as f:
        f.write("\n[provider.%s]\n%s\n" % (name, "\n".join("%s = %s" % kv for kv in keys.items())))


def test_fake_override(t, d, fake, prov):
    key2 = "sk-test-orch-alt-987654321"
    alt = fake_models.OrchFake(key2).start()
    t.cleanup(alt.stop)
    os.makedirs(os.path.join(d, "reg"), exist_ok=True)
    reg = registry_with(os.path.join(d, "reg"), {"coder": {"provider": "alt", "model": "alt-model"}})
    lt = avtest.Lighttpd(t, os.path.join(d, "override"), workers=2, settings={
        "provider.chat": prov, "cache": {"model_ttl": "0"}, "kb": {"agents": reg},
        "workflow.orchestrate": {"confirm_plan": "off"}})
    with_section(lt, "alt", {"kind": "openai", "base_url": alt.url + "/v1", "api_key": key2,
                             "model": "unused-model", "retries": "0"})
    lt.start()
    setup(fake, [PLAN2], {"s3": [{"answer": "tests"}]})
    alt.reset()
    alt.stages = {"s2": [{"tools": [["glob", {"pattern": "*"}]]}, {"answer": "fixed by the other model"}]}
    tid, evs = run(lt, {"task": "fix"})
    done = result(evs)
    t.ok(done.get("success") is True, "override: the run succeeded")
    t.ok([c["stage"] for c in alt.calls] == ["s2", "s2"] and not fake.of("s2") and
         len(fake.of("s3")) == 1 and len(fake.of("s1")) == 1,
         "override: the coder's calls go to [provider.alt], the others' to [provider.chat]")
    t.is_({c["model"] for c in alt.calls}, {"alt-model"}, "override: modelOverride.model is the model sent")
    t.is_(alt.calls[0]["body"]["messages"][0]["role"] if alt.calls else None, "system",
          "override: the agent's prompt goes with it")
    t.is_((done.get("stages", {}).get("s2", {}).get("context") or {}).get("textOutput"),
          "fixed by the other model", "override: its answer is the stage's text")
    lt.stop()

    reg = registry_with(os.path.join(d, "reg"), {"documenter": {"provider": "nowhere", "model": "m"}})
    lt = avtest.Lighttpd(t, os.path.join(d, "unknown"), workers=1, settings={"kb": {"agents": reg}}).start()
    st, _, body = lt.request("GET", "/api/agents")
    tid, evs = run(lt, {"task": "fix", "template": "code-review-and-fix"})
    status = thread(lt, tid).get("status")
    lt.stop()
    log = open(lt.worker_log, errors="replace").read()
    t.ok(st == 500 and status == "error", "unknown provider: /api/agents refuses the registry, the run "
         "ends in error (%d, %s)" % (st, status))
    t.ok(re.search(r'agent \d+ \(documenter\): modelOverride.provider "nowhere" is not a '
                   r'\[provider.nowhere\] section', log) is not None and st == 500 and
         data(evs, "error"), "unknown provider: a load error naming the agent (%d, %s)" %
         (st, [e.get("code") for e in data(evs, "error")]))


def test_fake_suite(t, d):
    key = "sk-test-orch-0123456789"
    fake = fake_models.OrchFake(key).start()
    t.cleanup(fake.stop)
    prov = {"kind": "openai", "base_url": fake.url + "/v1", "api_key": key, "retries": "0",
            "model": "orch-model"}
    lt = avtest.Lighttpd(t, os.path.join(d, "fake"), workers=2, settings={
        "provider.chat": prov, "cache": {"model_ttl": "0"},
        "workflow.orchestrate": {"stage_retries": "2"}}).start()
    test_fake_groups(t, lt, fake)
    test_fake_plans(t, lt, fake)
    test_fake_errors(t, lt, fake)
    test_fake_tool_loop(t, lt, fake)
    test_fake_kill(t, lt, fake)
    test_fake_conditions(t, lt, fake)
    test_fake_expect(t, lt, fake)
    lt.stop()
    test_fake_override(t, d, fake, prov)


def main(t):
    if not os.path.exists(SVGPNG):
        raise avtest.SetupError("no %s (make check builds it)" % SVGPNG)
    d = t.tmpdir("orch")
    test_offline_suite(t, d)
    test_fake_suite(t, d)


if __name__ == "__main__":
    avtest.run(main)
