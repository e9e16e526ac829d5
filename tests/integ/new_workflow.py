#!/usr/bin/env python3
"""A new workflow added as docs/layout.md says: its folder, one row.

The greet workflow (tests/fixtures/wf_greet: two nodes, one pause, its own
[workflow.greet] keys and its own words in both languages) is added to a
copy of this tree the way a contributor adds one: the folder copied to
src/wf/greet/, its row in src/wf/builtin.c (with its include) and its
include in src/wf/local.mk. The copy's build is the build of this tree
(same objects, same configuration), so only what changed is compiled.
Then:
- the files that differ from this tree are exactly those docs/layout.md
  names for a new workflow;
- the worker built from the copy runs greet through FastCGI: its pause,
  a modify, its words in the language of the name, its configuration
  keys (read by the shared configuration code from the workflow's table:
  an unknown key in [workflow.greet] is refused, and this tree's own
  worker, which has no greet, refuses the section);
- the five product workflows still run in that worker.
Skips plainly when the build directory is not inside the source tree (the
copy keeps their relative places) or when automake is missing (the copy's
Makefile is made anew from its local.mk files)."""
import filecmp
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avevents import events, types, ask, data  # noqa: E402

FIXTURE = ("tests", "fixtures", "wf_greet")
ROW_INCLUDE = '#include "wf/greet/greet.h"\n'
ROW = "\t&wf_greet,\n"
MK_LINE = "include $(srcdir)/%D%/greet/local.mk\n"


def copy_tree(src, dst, build_rel):
    """The source tree without other build directories, and of the build
    directory what a build of the worker needs (its objects, their
    dependency files, its configuration), modification times kept."""
    def ignore(d, names):
        rel = os.path.relpath(d, src)
        out = set()
        for n in names:
            p = os.path.normpath(os.path.join(rel, n))
            if n in (".git", "node_modules", "autom4te.cache", "__pycache__"):
                out.add(n)
            elif n.startswith("_build") and p != build_rel.split(os.sep)[0]:
                out.add(n)
            elif n.endswith((".log", ".trs", ".tar.gz")) and rel.startswith(build_rel):
                out.add(n)
            elif build_rel != "." and (rel == build_rel and n in ("tests", "bench") or (
                    rel.startswith(build_rel) and n in ("artifacts", "postgresql"))):
                out.add(n)
        return out
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)
    for root, dirs, files in os.walk(dst):
        for n in dirs + files:
            p = os.path.join(root, n)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | 0o200)


def add_workflow(tree):
    """What a contributor does: the folder and the row."""
    shutil.copytree(avtest.src_path(*FIXTURE), os.path.join(tree, "src", "wf", "greet"))
    p = os.path.join(tree, "src", "wf", "builtin.c")
    with open(p) as f:
        text = f.read()
    text = text.replace('#include "wf/orchestrate/orch.h"\n',
                        '#include "wf/orchestrate/orch.h"\n' + ROW_INCLUDE, 1)
    text = re.sub(r"(static const struct workflow \*const wf_builtin\[\] = \{\n(?:\t.*\n)*)",
                  lambda m: m.group(1) + ROW, text, count=1)
    with open(p, "w") as f:
        f.write(text)
    p = os.path.join(tree, "src", "wf", "local.mk")
    with open(p) as f:
        text = f.read()
    text = text.replace("include $(srcdir)/%D%/orchestrate/local.mk\n",
                        "include $(srcdir)/%D%/orchestrate/local.mk\n" + MK_LINE, 1)
    with open(p, "w") as f:
        f.write(text)


def changed_files(src, tree, build_rel):
    """Paths (relative) that differ between src and tree, or exist in one
    only, outside build directories and what tests leave."""
    out = []
    cmp = filecmp.dircmp(src, tree, ignore=[".git", "node_modules", "autom4te.cache",
                                            "__pycache__"] + [d for d in os.listdir(src)
                                                             if d.startswith("_build")])

    def walk(c, rel):
        for n in c.left_only + c.right_only + c.diff_files:
            out.append(os.path.normpath(os.path.join(rel, n)))
        for n, sub in c.subdirs.items():
            walk(sub, os.path.join(rel, n))
    walk(cmp, "")
    skip = (build_rel.split(os.sep)[0], "Makefile.in", "config.h.in~")
    return sorted(p for p in out if p.split(os.sep)[0] not in skip
                  and not p.startswith(os.path.join("src", "wf", "greet") + os.sep)
                  and p != os.path.join("src", "wf", "greet"))


def relocate(build, old, new):
    """The build directory's absolute paths, moved with it."""
    for n in ("Makefile", "config.status"):
        p = os.path.join(build, n)
        with open(p) as f:
            text = f.read()
        with open(p, "w") as f:
            f.write(text.replace(old, new))


def build_copy(t, tree, build):
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    env.pop("MAKELEVEL", None)
    r = subprocess.run(["make", "-j2", "aivista.fcgi"], cwd=build, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    out = r.stdout
    compiled = sorted(set(re.findall(r"\bCC\s+(\S+)", out)) |
                      set(re.findall(r"-c -o (\S+\.o)", out)))
    t.is_(r.returncode, 0, "the copy with greet builds")
    if r.returncode != 0:
        t.diag(out[-3000:])
    t.diag("compiled: %s" % ", ".join(compiled))
    want = ["src/wf/builtin.o", "src/wf/greet/greet.o", "src/wf/greet/greet_msg.o"]
    t.ok(all(any(c.endswith(w) for c in compiled) for w in want),
         "greet's files and the list were compiled into the worker")
    return r.returncode == 0


def post(w, uri, obj):
    return w.post_json(uri, obj)


def check_layout_doc(t, changed):
    with open(avtest.src_path("docs", "layout.md")) as f:
        doc = f.read()
    m = re.search(r"## Adding a workflow\n(.*?)(\n## |\Z)", doc, re.S)
    t.ok(m is not None, "docs/layout.md has a section on adding a workflow")
    section = m.group(1) if m else ""
    for p in changed + ["src/wf/<name>/"]:
        t.ok("`%s`" % p in section, "docs/layout.md names %s" % p)


def check_run(t, w):
    r = post(w, "/api/agent/stream", {"workflow": "greet", "input": {"name": "Ada"}})
    evs = events(r.body)
    t.is_(r.status, 200, "greet: the stream starts")
    q = ask(evs)
    t.is_(types(evs)[-1], "workflow_paused", "greet: it pauses")
    t.is_(q and q.get("question"), "Shall I greet like this?", "greet: its own question, in English")
    t.is_(q and q.get("editable"), {"greeting": "Hello, Ada!"},
          "greet: its words and [workflow.greet] excited = on (the default)")
    starts = [e.get("content") for e in data(evs, "agent_start")]
    t.is_(starts, ["The greeter is starting…"], "greet: its agent's name from its catalogue")
    if not q:
        return
    tid = q.get("threadId") or data(evs, "thread_start")[0].get("threadId")
    r = post(w, "/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                        "action": "modify", "payload": {"greeting": "Hi, Ada"}})
    evs = events(r.body)
    done = data(evs, "workflow_complete")
    t.is_(done and done[0].get("greeting"), "Hi, Ada", "greet: the person's edit is what is said")
    r = post(w, "/api/agent/stream", {"workflow": "greet", "input": {"name": "小明"}})
    q = ask(events(r.body))
    t.is_(q and q.get("editable"), {"greeting": "你好，小明!"},
          "greet: the language read from its text field (name)")
    t.is_(q and q.get("question"), "这样问候可以吗？", "greet: its question in Chinese")
    r = post(w, "/api/agent/stream", {"workflow": "greet", "input": {"name": "x" * 65}})
    t.is_(r.status, 400, "greet: a name past [workflow.greet] max_name is refused")
    t.like(r.body.decode("utf-8", "replace"), r"max_name", "greet: ... saying which limit")


def check_conf(t, d, binary, product_binary):
    w = avtest.Worker(t, d, name="off", binary=binary)
    with open(w.conf, "a") as f:
        f.write("\n[workflow.greet]\nexcited = off\n")
    w.start()
    r = post(w, "/api/agent/stream", {"workflow": "greet", "input": {"name": "Ada"}})
    q = ask(events(r.body))
    t.is_(q and q.get("editable"), {"greeting": "Hello, Ada"}, "config: excited = off is read")
    w.kill()
    for name, extra, bin_, want in (
            ("bad", "[workflow.greet]\nloud = on\n", binary, "unknown key 'loud' in [workflow.greet]"),
            ("range", "[workflow.greet]\nmax_name = 0\n", binary, "max_name: 0 is out of range"),
            ("product", "[workflow.greet]\nexcited = on\n", product_binary,
             "unknown section [workflow.greet]")):
        w = avtest.Worker(t, d, name=name, binary=bin_)
        with open(w.conf, "a") as f:
            f.write("\n" + extra)
        r = subprocess.run([bin_, "-t", "-c", w.conf], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=w.env, timeout=60)
        t.ok(r.returncode != 0 and want in r.stdout,
             "config %s: refused with \"%s\"" % (name, want))
        if want not in r.stdout:
            t.diag(r.stdout[-800:])


def check_product(t, w):
    for wf, inp in (("image", {"text": "画一只猫"}), ("chat", {"text": "你好"}),
                    ("note", {"topic": "春天去苏州旅行"}), ("orchestrate", {"task": "写一首诗"}),
                    ("graph_edit", {"text": "加一个文本输入节点"})):
        r = post(w, "/api/agent/stream", {"workflow": wf, "input": inp})
        ty = types(events(r.body))
        t.ok(r.status == 200 and ty and ty[-1] in ("[DONE]", "workflow_paused"),
             "%s still runs beside greet (%s)" % (wf, ty[-1] if ty else r.status))


def main(t):
    src = os.path.abspath(avtest.src_path())
    build = os.path.abspath(os.environ.get("top_builddir", "."))
    rel = os.path.relpath(build, src)
    if rel.startswith(".."):
        t.skip_all("the build directory %s is not inside the source tree %s" % (build, src))
        return
    if shutil.which("automake") is None:
        t.skip_all("automake is missing: the copy's Makefile cannot be made from its local.mk")
        return
    d = t.tmpdir("newwf")
    tree = os.path.join(d, "tree")
    copy_tree(src, tree, rel)
    add_workflow(tree)
    changed = changed_files(src, tree, rel)
    t.is_(changed, ["src/wf/builtin.c", "src/wf/local.mk"],
          "outside its folder, greet changes the list and the build's list only")
    with open(os.path.join(tree, "src", "wf", "builtin.c")) as f, \
            open(os.path.join(src, "src", "wf", "builtin.c")) as g:
        t.is_(len(f.read().splitlines()) - len(g.read().splitlines()), 2,
              "src/wf/builtin.c: one include and one row")
    check_layout_doc(t, changed)
    copy_build = os.path.join(tree, rel)
    relocate(copy_build, src, tree)
    if not build_copy(t, tree, copy_build):
        return
    binary = os.path.join(copy_build, "aivista.fcgi")
    w = avtest.Worker(t, d, binary=binary).start()
    check_run(t, w)
    check_product(t, w)
    w.kill()
    check_conf(t, d, binary, avtest.worker_path())


if __name__ == "__main__":
    avtest.run(main)
