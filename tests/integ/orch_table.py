"""The orchestrate workflow offline on a table of requests of our own,
Chinese and English, each run end to end on a real worker, every pause
answered as the row says (approve, reject with feedback, modify).

What every run must hold: a run ends in success with a result that says
something, or in success false with a reason, or with a plan-time error
(never success with an empty or "no input stages" answer); the steps are
written in the thread's language; every step that reads others (the
documenter, the evaluator, the coordinator) runs after them, and the
coordinator's step names the outputs it merges; the numbers the agents
write are written as people write them.

What each row checks besides: a task outside every agent's field is
declined with why; a crash log or a stack trace (in the task or in a log
file) goes to the debugger, which names the failure and where; a question
about a screenshot that is not about its text does not go to OCR; a plan
that needs a picture, without one, is refused at plan time (a template: 400);
a rejected plan's feedback is applied (a step added, removed, replaced, the
steps serialised) or declined by name; after a modify the plan's analysis
and template match the plan that runs; a retry that runs out says the
retries are exhausted; the reviewer finds leaks on error paths, off-by-one
bounds, use after free, unchecked results and division by zero on empty
input in small C, JavaScript and Python files; and the fixer's C file,
compiled here with AddressSanitizer (never on the server), leaks nothing on
the error paths where the original leaked.
"""

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avpng  # noqa: E402
import avtest  # noqa: E402
from avevents import data, events  # noqa: E402

LEAKY_C = """#include <stdio.h>
#include <stdlib.h>

char *first_line(const char *path)
{
\tchar *buf = malloc(256);
\tFILE *f;

\tif (buf == NULL)
\t\treturn NULL;
\tf = fopen(path, "r");
\tif (f == NULL)
\t\treturn NULL;
\tif (fgets(buf, 256, f) == NULL) {
\t\tfclose(f);
\t\treturn NULL;
\t}
\tfclose(f);
\treturn buf;
}

int pair(size_t n, char **a_out, char **b_out)
{
\tchar *a = malloc(16);
\tchar *b = malloc(n);

\t*a_out = a;
\t*b_out = b;
\treturn 0;
}
"""

# Calls the error paths of LEAKY_C: a file that is not there, an empty
# file, and a second allocation that fails.
DRIVER_C = """#include <stdio.h>
#include <stdlib.h>
char *first_line(const char *path);
int pair(size_t n, char **a_out, char **b_out);
int main(int argc, char **argv)
{
\tchar *s = first_line("/nonexistent/aivista/none.txt"), *a = NULL, *b = NULL;

\tfree(s);
\ts = first_line(argv[1]);
\tfree(s);
\tif (pair((size_t)-1 / 2, &a, &b) == 0) {
\t\tfree(a);
\t\tfree(b);
\t}
\tputs("ran");\n\tfflush(stdout);
\treturn 0;
}
"""

UAF_C = """#include <stdlib.h>
#include <string.h>

int measure(char *p)
{
\tint n;

\tfree(p);
\tn = (int)strlen(p);
\treturn n;
}
"""

STATS_JS = """function average(xs) {
  let total = 0;
  for (let i = 0; i <= xs.length; i++) {
    total += xs[i];
  }
  return total / xs.length;
}
function title(doc) {
  return doc.querySelector('h1').textContent;
}
module.exports = { average, title };
"""

CALC_PY = """import re


def mean(xs):
    return sum(xs) / len(xs)


def version(text):
    return re.match(r"v(\\d+)", text).group(1)


def last(xs):
    return xs[len(xs)]
"""

CLEAN_C = """#include <stddef.h>

int add(int a, int b)
{
\treturn a + b;
}
"""

CRASH_LOG = """2026-11-27 10:02:11 starting worker
2026-11-27 10:02:12 loading plugins
Traceback (most recent call last):
  File "/srv/app/main.py", line 40, in <module>
    run()
  File "/srv/app/report.py", line 17, in run
    share = done / total
ZeroDivisionError: division by zero
"""

JS_TRACE = ("页面一打开就报错：\nTypeError: Cannot read properties of undefined (reading 'name')\n"
            "    at renderUser (app.js:42:17)\n    at main (app.js:80:3)")


def att(name, text, mime="text/plain"):
    return {"name": name, "mimeType": mime, "data": base64.b64encode(text.encode()).decode()}


def picture():
    """A small screenshot-like PNG: a light page with a dark bar and a button."""
    w, h = 96, 64
    rows = []
    for y in range(h):
        row = bytearray(b"\0")
        for x in range(w):
            if y < 10:
                row += bytes((40, 40, 60))
            elif 30 <= y < 42 and 20 <= x < 70:
                row += bytes((30, 120, 220))
            else:
                row += bytes((245, 245, 245))
        rows.append(bytes(row))
    png = avpng.build(w, h, b"".join(rows))
    return {"name": "screen.png", "mimeType": "image/png", "data": base64.b64encode(png).decode()}


def has_cjk(s):
    return re.search(r"[\u4e00-\u9fff]", s or "") is not None


# -- driving a run ----------------------------------------------------------------------------

class Run:
    """One request's run: its plans, its final plan, its result or error."""

    def __init__(self):
        self.plans, self.events, self.status, self.body = [], [], 200, b""

    @property
    def plan(self):
        return self.plans[-1] if self.plans else {}

    @property
    def result(self):
        got = [d for d in data(self.events, "workflow_complete") if "stages" in d]
        return got[-1] if got else {}

    @property
    def errors(self):
        return data(self.events, "error")

    def stage(self, sid):
        return (self.result.get("stages") or {}).get(sid) or {}

    def text(self, sid):
        return (self.stage(sid).get("context") or {}).get("textOutput") or ""

    def data(self, sid):
        return (self.stage(sid).get("context") or {}).get("structuredData") or {}

    def steps(self, agent):
        return [s for s in self.plan.get("subtasks", []) if s.get("agent") == agent]


def post(w, path, body):
    r = w.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"},
                  timeout=120)
    return r.status, r.body


def drive(w, inp, decisions=()):
    run = Run()
    st, body = post(w, "/api/agent/stream", {"workflow": "orchestrate", "input": inp})
    run.status, run.body = st, body
    if st != 200:
        return run
    evs = events(body)
    tid = data(evs, "thread_start")[0]["threadId"]
    todo = list(decisions)
    for _ in range(8):
        run.events += evs
        run.plans += [{k: v for k, v in d.items() if k not in ("type", "timestamp")}
                      for d in data(evs, "plan_ready")]
        asks = data(evs, "ask_user")
        if not asks or not data(evs, "workflow_paused"):
            break
        action, payload = todo.pop(0) if todo else ("approve", None)
        req = {"threadId": tid, "interruptId": asks[-1]["interruptId"], "action": action}
        if payload is not None:
            req["payload"] = payload
        st, body = post(w, "/api/agent/confirm", req)
        evs = events(body) if st == 200 else []
    return run


def asset(w, aid):
    r = w.request("GET", "/api/assets/" + aid, timeout=60)
    return r.body if r.status == 200 else b""


# -- what every run holds -----------------------------------------------------------------------

def check_common(t, name, lang, run):
    res = run.result
    if res:
        if res.get("success") is True:
            done = [s for grp in run.plan.get("executionOrder", []) for s in grp
                    if run.stage(s).get("status") == "done"]
            last = run.text(done[-1]) if done else ""
            t.ok(last.strip() and not re.search(r"no input stages|没有输入阶段", last),
                 "%s: success with a result that says something (%s)" % (name, last[:80]))
        else:
            t.ok(bool(res.get("reason")), "%s: success false with why (%s)" % (name, res.get("reason")))
    else:
        t.ok(run.status == 400 or any(e.get("code") for e in run.errors),
             "%s: no result: a 400 or an error with its code" % name)
    for s in run.plan.get("subtasks", []):
        d = s.get("description", "")
        t.ok(has_cjk(d) if lang == "zh" else not has_cjk(d.split(":", 1)[0]),
             "%s: step %s described in %s (%s)" % (name, s.get("id"), lang, d[:60]))
    check_order(t, name, run.plan)
    for sid in (res.get("stages") or {}):
        x = run.text(sid)
        t.ok(not re.search(r"\d\.\d{4,}|\d\.\d*0\b(?![.\d])", x),
             "%s: %s writes its numbers as people do" % (name, sid))


READERS = {"documenter": 4, "evaluator": 5, "coordinator": 6}


def check_order(t, name, plan):
    group = {sid: g for g, grp in enumerate(plan.get("executionOrder", [])) for sid in grp}
    steps = plan.get("subtasks", [])
    for s in steps:
        rank = READERS.get(s.get("agent"))
        if not rank or not s.get("inputs") and s.get("agent") != "coordinator":
            continue
        before = [o["id"] for o in steps if o is not s and READERS.get(o.get("agent"), 0) < rank]
        t.ok(all(i in s.get("inputs", []) and group.get(i, 99) < group.get(s["id"], -1) for i in before),
             "%s: %s (%s) runs after and reads %s" % (name, s["id"], s["agent"], before))
        if s.get("agent") == "coordinator" and s.get("inputs"):
            t.ok(all(i in s.get("description", "") for i in s["inputs"]),
                 "%s: the coordinator's step names what it merges (%s)" % (name, s.get("description")))


# -- the rows -----------------------------------------------------------------------------------

def declined(t, name, run):
    res = run.result
    t.ok(res.get("success") is False and res.get("reason"),
         "%s: outside every field: success false, with why (%s)" % (name, res.get("reason")))


def first_agent(agent):
    def check(t, name, run):
        order = run.plan.get("executionOrder") or [[]]
        agents = [s["agent"] for s in run.plan.get("subtasks", []) if s["id"] in order[0]]
        t.ok(agent in agents, "%s: %s works first (%s)" % (name, agent, agents))
    return check


def debugged(where):
    def check(t, name, run):
        first_agent("debugger")(t, name, run)
        sid = run.steps("debugger")[0]["id"] if run.steps("debugger") else ""
        t.ok(where in (run.data(sid).get("where") or ""),
             "%s: the debugger says where (%s)" % (name, run.data(sid).get("where")))
        t.ok("code-review-and-fix" != run.plan.get("template"), "%s: not the review template" % name)
    return check


def no_ocr(t, name, run):
    t.ok(run.plan.get("template") != "image-ocr-annotate" and
         not any("OCR" in s.get("description", "") or "文字" in s.get("description", "")
                 for s in run.plan.get("subtasks", [])),
         "%s: not sent to OCR (%s)" % (name, [s.get("description") for s in run.plan.get("subtasks", [])]))
    t.ok(run.steps("vision-analyzer") and run.steps("coordinator"),
         "%s: the picture is analysed and the coordinator answers" % name)


def ocr(t, name, run):
    t.is_(run.plan.get("template"), "image-ocr-annotate", "%s: a question about the text goes to OCR" % name)


def refused_at_plan(t, name, run):
    t.ok(run.status == 400 or (any(e.get("code") == "needs_image" for e in run.errors) and
                               not data(run.events, "stage_start")),
         "%s: refused at plan time for want of a picture (%s %s)" %
         (name, run.status, [e.get("code") for e in run.errors]))


def readers_after(t, name, run):
    agents = {s["agent"] for s in run.plan.get("subtasks", [])}
    t.ok({"documenter", "evaluator", "coordinator"} <= agents or {"evaluator"} <= agents,
         "%s: the readers are planned (%s)" % (name, sorted(agents)))


def feedback(removed=(), added=(), kept=(), word=""):
    def check(t, name, run):
        t.ok(len(run.plans) >= 2, "%s: planned again after the reject" % name)
        agents = [s["agent"] for s in run.plan.get("subtasks", [])]
        for a in removed:
            t.ok(a not in agents, "%s: %s removed as asked (%s)" % (name, a, agents))
        for a in added:
            t.ok(a in agents, "%s: %s added as asked (%s)" % (name, a, agents))
        for a in kept:
            t.ok(a in agents, "%s: %s kept (%s)" % (name, a, agents))
        t.ok(word in run.plan.get("analysis", ""), "%s: the analysis says what was done (%s)" %
             (name, run.plan.get("analysis")))
        if removed or added:
            t.ok("template" not in run.plan or run.plan.get("template") is None,
                 "%s: a changed plan names no template" % name)
    return check


def declined_feedback(word):
    def check(t, name, run):
        t.ok(len(run.plans) >= 2 and run.plans[-1].get("subtasks") == run.plans[0].get("subtasks"),
             "%s: the steps unchanged" % name)
        t.ok(word in run.plan.get("analysis", ""), "%s: the feedback declined by name (%s)" %
             (name, run.plan.get("analysis")))
    return check


def serial(t, name, run):
    t.ok(all(len(g) == 1 for g in run.plan.get("executionOrder", [])) and
         len(run.plan.get("executionOrder", [])) == len(run.plan.get("subtasks", [])),
         "%s: one step at a time (%s)" % (name, run.plan.get("executionOrder")))


def modified(t, name, run):
    ran = sorted((run.result.get("stages") or {}))
    t.is_(ran, sorted(s["id"] for s in run.plan.get("subtasks", [])), "%s: the plan that ran is the edited one" % name)
    t.ok("tests" not in ran and run.plan.get("template") is None and
         ("edited" in run.plan.get("analysis", "") or "修改" in run.plan.get("analysis", "")) and
         "tests" not in run.plan.get("analysis", ""),
         "%s: analysis and template follow the edit (%s / %s)" %
         (name, run.plan.get("analysis"), run.plan.get("template")))


def exhausted(t, name, run):
    e = run.errors[-1] if run.errors else {}
    t.ok(e.get("code") == "retries_exhausted" and "abort" not in json.dumps(e) and
         ("exhausted" in json.dumps(e) or "用完" in json.dumps(e, ensure_ascii=False)),
         "%s: the run ends saying the retries are exhausted (%s)" % (name, e))


def issues_found(want, path=None):
    def check(t, name, run):
        got = {(i.get("rule"), i.get("line")) for i in run.data("review").get("issues", [])
               if path is None or i.get("file") == path}
        t.ok(all(w in got for w in want), "%s: the review finds %s (%s)" % (name, sorted(want), sorted(got)))
    return check


def no_flow_issues(t, name, run):
    got = [i.get("rule") for i in run.data("review").get("issues", [])]
    t.is_(got, [], "%s: nothing on clean code" % name)


def review_template(t, name, run):
    t.is_(run.plan.get("template"), "code-review-and-fix", "%s: the review template" % name)


REVIEW_TASK_ZH = "审查并修复附带的代码"
PAIR_STEPS = {"subtasks": [
    {"id": "review", "description": "审查附带的源文件，并给出结论", "agent": "code-reviewer", "inputs": [],
     "expect": {"required": ["verdict"]}},
    {"id": "summary", "description": "为读者总结审查结果", "agent": "documenter", "inputs": ["review"]}],
    "executionOrder": [["review"], ["summary"]]}
NO_TESTS = {"subtasks": [
    {"id": "review", "description": "Review the attached files", "agent": "code-reviewer", "inputs": []},
    {"id": "fix", "description": "Fix what the review found", "agent": "coder", "inputs": ["review"]},
    {"id": "summary", "description": "Summarise the review and the fix", "agent": "documenter",
     "inputs": ["review", "fix"]}],
    "executionOrder": [["review"], ["fix"], ["summary"]]}

ROWS = [
    # (name, lang, input, decisions, checks)
    ("haiku zh", "zh", {"task": "写一首关于秋天的俳句"}, (), [declined]),
    ("haiku en", "en", {"task": "Write a haiku about the sea at night"}, (), [declined]),
    ("ticket zh", "zh", {"task": "帮我订一张明天去上海的高铁票"}, (), [declined]),
    ("capital en", "en", {"task": "What is the capital of Australia?"}, (), [declined]),
    ("joke zh", "zh", {"task": "给我讲个冷笑话"}, (), [declined]),
    ("readers en", "en", {"task": "Design a cache layer, write tests and document it, then evaluate the result"},
     (), [readers_after]),
    ("readers zh", "zh", {"task": "设计一个缓存模块，写测试和文档，最后评估整体质量"}, (), [readers_after]),
    ("review+evaluate en", "en", {"task": "review this file, then evaluate the result",
                                  "attachments": [att("add.c", CLEAN_C, "text/x-c")]}, (),
     [readers_after, no_flow_issues]),
    ("crash in task en", "en", {"task": "Our report job crashed:\n" + CRASH_LOG + "\nWhat is wrong?"}, (),
     [debugged("report.py\", line 17")]),
    ("crash in task zh", "zh", {"task": JS_TRACE, "lang": "zh"}, (), [debugged("renderUser (app.js:42:17)")]),
    ("crash log file en", "en", {"task": "what went wrong here?", "attachments": [att("worker.log", CRASH_LOG)]},
     (), [debugged("report.py\", line 17")]),
    ("error line en", "en", {"task": "Please fix this error: TypeError: items.map is not a function"}, (),
     [first_agent("debugger")]),
    ("source printing errors en", "en", {"task": "please review this file", "attachments": [
        att("say.c", '#include <stdio.h>\n\nvoid fail(void)\n{\n\tfputs("Error: crashed\\n", stderr);\n}\n',
            "text/x-c")]}, (), [review_template]),
    ("segfault zh", "zh", {"task": "程序运行时崩溃，输出：Segmentation fault (core dumped)，请帮忙分析"}, (),
     [first_agent("debugger")]),
    ("screenshot layout zh", "zh", {"task": "这个界面的布局合理吗？", "attachments": [picture()]}, (), [no_ocr]),
    ("screenshot colours en", "en", {"task": "Is the colour scheme of this screenshot easy on the eyes?",
                                     "attachments": [picture()]}, (), [no_ocr]),
    ("screenshot text zh", "zh", {"task": "识别截图中的文字", "attachments": [picture()]}, (), [ocr]),
    ("ocr template without picture en", "en", {"task": "read it", "template": "image-ocr-annotate"}, (),
     [refused_at_plan]),
    ("ocr words without picture zh", "zh", {"task": "把这张截图里的文字提取出来"}, (), [refused_at_plan]),
    ("detect without picture en", "en", {"task": "detect the buttons in the attached screenshot"}, (),
     [refused_at_plan]),
    ("reject: no tests zh", "zh", {"task": REVIEW_TASK_ZH, "attachments": [att("lines.c", LEAKY_C, "text/x-c")]},
     [("reject", {"feedback": "不要写测试"})], [feedback(removed=["test-writer"], kept=["coder"], word="去掉")]),
    ("reject: add evaluation en", "en", {"task": "Design the storage layer and write tests"},
     [("reject", {"feedback": "also add an evaluation step at the end"})],
     [feedback(added=["evaluator"], word="added")]),
    ("reject: replace zh", "zh", {"task": "设计存储层并写测试"},
     [("reject", {"feedback": "用文档代替测试"})], [feedback(removed=["test-writer"], added=["documenter"],
                                                       word="换成")]),
    ("reject: partly zh", "zh", {"task": "设计存储层并写测试"},
     [("reject", {"feedback": "加上文档，并且让它更快"})],
     [feedback(added=["documenter"], kept=["architect", "test-writer"], word="没有采纳：“让它更快”")]),
    ("reject: unclear en", "en", {"task": "Design the storage layer and write tests"},
     [("reject", {"feedback": "make it nicer please"})], [declined_feedback("not applied")]),
    ("reject: one by one zh", "zh", {"task": "设计存储层，写测试，写文档"},
     [("reject", {"feedback": "请依次执行，不要并行"})], [serial]),
    ("modify: drop tests en", "en", {"task": "review and fix", "template": "code-review-and-fix",
                                     "attachments": [att("lines.c", LEAKY_C, "text/x-c")]},
     [("modify", NO_TESTS)], [modified]),
    ("retries exhausted zh", "zh", {"task": REVIEW_TASK_ZH, "errorStrategy": "retry",
                                    "attachments": [att("add.c", CLEAN_C, "text/x-c")]},
     [("modify", PAIR_STEPS)], [exhausted]),
    ("leaks en", "en", {"task": "review and fix this C file", "attachments": [att("lines.c", LEAKY_C, "text/x-c")]},
     (), [review_template, issues_found({("leak-on-error-path", 13), ("leak-on-error-path", 16),
                                         ("unchecked-alloc", 24), ("unchecked-alloc", 25)})]),
    ("use after free zh", "zh", {"task": REVIEW_TASK_ZH, "attachments": [att("uaf.c", UAF_C, "text/x-c")]}, (),
     [issues_found({("use-after-free", 9)})]),
    ("javascript en", "en", {"task": "please review stats.js", "attachments": [att("stats.js", STATS_JS,
                                                                                  "text/javascript")]}, (),
     [issues_found({("off-by-one", 3), ("division-by-zero", 6), ("unchecked-null", 9)})]),
    ("python zh", "zh", {"task": "审查这个 Python 文件", "attachments": [att("calc.py", CALC_PY, "text/x-python")]},
     (), [issues_found({("division-by-zero", 5), ("unchecked-none", 9), ("off-by-one", 13)})]),
    ("clean zh", "zh", {"task": "帮我看看这段代码有没有问题", "attachments": [att("add.c", CLEAN_C, "text/x-c")]},
     (), [review_template, no_flow_issues]),
    ("pasted code en", "en", {"task": "What is wrong with this?\n```js\n" + STATS_JS + "```"}, (),
     [review_template, issues_found({("off-by-one", 3), ("division-by-zero", 6)}, "task.js")]),
    ("review without code en", "en", {"task": "review my parser and fix the bugs", "errorStrategy": "skip"},
     (), [declined]),
    ("evaluate only en", "en", {"task": "evaluate the quality of our release notes"}, (), []),
    ("docs only zh", "zh", {"task": "为这个项目写一份使用说明文档"}, (), []),
]


# -- the fixed file under AddressSanitizer --------------------------------------------------

def asan_run(t, src, log_text):
    """Compiles src with DRIVER_C under ASan and runs it; (ran, leaked, output)
    or None when there is no compiler with ASan here."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if not cc:
        return None
    d = tempfile.mkdtemp(prefix="orch-asan-")
    try:
        for name, text in (("fixed.c", src), ("driver.c", DRIVER_C), ("empty.txt", "")):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        exe = os.path.join(d, "prog")
        cp = subprocess.run([cc, "-g", "-O0", "-fsanitize=address", "-fno-omit-frame-pointer", "-o", exe,
                             os.path.join(d, "fixed.c"), os.path.join(d, "driver.c")],
                            capture_output=True, text=True, timeout=120)
        if cp.returncode != 0:
            if "sanitize" in cp.stderr or "asan" in cp.stderr:
                return None
            return (False, False, cp.stderr)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LSAN_", "ASAN_"))}
        env["ASAN_OPTIONS"] = "detect_leaks=1:allocator_may_return_null=1:exitcode=23"
        pr = subprocess.run([exe, os.path.join(d, "empty.txt")], capture_output=True, text=True,
                            timeout=120, env=env)
        out = pr.stdout + pr.stderr
        return ("ran" in pr.stdout, "LeakSanitizer" in out or pr.returncode == 23, out)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def check_asan(t, w, run):
    files = run.result.get("files") or {}
    fixed = asset(w, (files.get("fixed/lines.c") or {}).get("assetId", "x")).decode(errors="replace")
    t.ok("fixed/lines.c" in files and "first_line" in fixed, "asan: the fixer wrote fixed/lines.c")
    before = asan_run(t, LEAKY_C, "before")
    if before is None:
        t.skip("no C compiler with AddressSanitizer here", "asan: the original leaks")
        t.skip("no C compiler with AddressSanitizer here", "asan: the fixed file leaks nothing")
        return
    if not before[0] or not before[1]:
        t.skip("LeakSanitizer does not run here (%s)" % before[2][-200:].strip(), "asan: leak checks")
        return
    t.ok(before[1], "asan: the original file leaks on its error paths (the check can fail)")
    after = asan_run(t, fixed, "after")
    t.ok(after[0] and not after[1], "asan: the fixed file runs its error paths and leaks nothing")
    if after[1] or not after[0]:
        t.diag(fixed, after[2][-3000:])


def main(t):
    w = avtest.Worker(t, t.tmpdir("orch_table")).start()
    t.ok(len(ROWS) >= 30, "the table has %d requests" % len(ROWS))
    leaks = None
    for name, lang, inp, decisions, checks in ROWS:
        run = drive(w, inp, decisions)
        check_common(t, name, lang, run)
        for check in checks:
            check(t, name, run)
        if name == "leaks en":
            leaks = run
    check_asan(t, w, leaks)


avtest.run(main)
