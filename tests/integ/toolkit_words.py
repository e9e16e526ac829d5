"""The providers and the text toolkit know no workflow.

No file under src/prov/ or src/text/ names a workflow, a node, a page of
the app or a product word: not a workflow's header or symbol, not a
workflow's or a node's name as a string (read from the workflows'
descriptors and node tables in src/wf/), not a view's route or name in
either language (read from www/app.js and www/i18n.js), not the note
workflow's own vocabulary. The names the providers' interface has of
its own (the "chat" and "image" calls and roles) are the exceptions,
each with its reason. A hit names the file, the line and what it names.
"""

import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402

# Quoted names a workflow shares with the providers' own interface.
OWN_WORDS = {
    "chat": "the chat call and the [provider.chat] role",
    "image": "the image call and the [provider.image] role",
}
# Words of a product, not of text or of model calls.
PRODUCT_WORDS = [
    (r"小红书|笔记|(?i:xiaohongshu|rednote)", "the note workflow's vocabulary"),
    (r'#include\s+"wf/', "a workflow's header"),
    (r"\bwf_\w+", "a workflow's symbol"),
]


def read(*parts):
    with open(avtest.src_path(*parts), encoding="utf-8") as f:
        return f.read()


def workflow_names():
    """{name: what} for every workflow and node, from src/wf/*/*.c."""
    names = {}
    for path in sorted(glob.glob(avtest.src_path("src", "wf", "*", "*.c"))):
        text = open(path, encoding="utf-8").read()
        for body in re.findall(r"const struct workflow \w+ = \{(.*?)\n\};", text, re.S):
            for n in re.findall(r'\.name = "([^"]+)"', body):
                names[n] = "the workflow %s" % n
        for table in re.findall(r"struct wf_node \w+\[\] = \{(.*?)\n\};", text, re.S):
            for n in re.findall(r'\{ "([^"]+)"', table):
                names.setdefault(n, "a node of %s" % os.path.basename(path))
    return names


def page_names():
    """[(regex, what)] for every view: its route, and its name in both
    languages."""
    ids = re.findall(r"\{ id: '(\w+)', workflow:", read("www", "app.js"))
    words = read("www", "i18n.js")
    out = []
    for v in ids:
        out.append((r"#/%s\b" % v, "the route of the %s view" % v))
        for name in re.findall(r"'nav\.%s': '([^']+)'" % v, words):
            out.append((re.escape(name), "the name of the %s view" % v))
    return ids, out


def sources():
    files = []
    for d in ("prov", "text"):
        for ext in ("c", "h"):
            files += glob.glob(avtest.src_path("src", d, "*." + ext))
    return sorted(files)


def hits(patterns, files):
    found = []
    for path in files:
        rel = os.path.relpath(path, avtest.src_path())
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            for rx, what in patterns:
                if re.search(rx, line):
                    found.append("%s:%d names %s: %s" % (rel, no, what, line.strip()[:100]))
    return found


def main(t):
    names = workflow_names()
    ids, pages = page_names()
    files = sources()
    t.ok(len([n for n, w in names.items() if w.startswith("the workflow")]) >= 5 and len(names) >= 25,
         "the workflows and their nodes are read from src/wf (%d names)" % len(names))
    t.ok(len(ids) >= 5 and len(pages) >= 3 * len(ids),
         "the views' routes and names in both languages are read from www (%d)" % len(pages))
    t.ok(len(files) >= 20 and any(f.endswith("offline.c") for f in files)
         and any(f.endswith("rules.c") for f in files),
         "the sources of src/prov and src/text are read (%d files)" % len(files))

    quoted = [('"%s"' % re.escape(n), what) for n, what in sorted(names.items()) if n not in OWN_WORDS]
    for what, patterns in (("workflow or node names", quoted), ("pages of the app", pages),
                           ("product words or workflow code", PRODUCT_WORDS)):
        found = hits(patterns, files)
        t.ok(not found, "src/prov and src/text name no %s" % what)
        for h in found:
            t.diag(h)
    for n, why in sorted(OWN_WORDS.items()):
        t.ok(n in names, '"%s" is allowed as %s (it is a workflow\'s or node\'s name too)' % (n, why))


if __name__ == "__main__":
    avtest.run(main)
