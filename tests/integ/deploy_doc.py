"""Every block of docs/deploy.md (the lines an administrator types or
pastes) is run by a test: each block has a name (a marker line before
it, see tests/lib/deploydoc.py), names are unique, and some test takes
each one by its name, a test that make check runs (TESTS in Makefile.am)
or make check-package (tests/package/deb.py). A test that takes a name
the document does not have fails too. A step added to the document
without a test fails here.

It runs one block itself: the packages of "Install from source", which
must be in contrib/debian-packages, and which apt-get install accepts as
written, simulated with -s (as root, where they are all installed
already: nothing would be newly installed or removed, and nothing is
changed; an upgrade it would offer is not counted).
"""

import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402

# Where make check and make check-package find their tests.
TEST_GLOBS = (("tests", "integ", "*.py"), ("tests", "package", "*.py"))


def tests_taking():
    """{block name: [test path, ...]} over the test sources."""
    taken = {}
    for g in TEST_GLOBS:
        for path in sorted(glob.glob(avtest.src_path(*g))):
            rel = os.path.relpath(path, avtest.TOP_SRCDIR)
            with open(path) as f:
                for name in deploydoc.taken_in(f.read()):
                    taken.setdefault(name, []).append(rel)
    return taken


def run_by_make(rel):
    """True when make check or make check-package runs the test."""
    with open(avtest.src_path("Makefile.am")) as f:
        am = f.read()
    return rel == "tests/package/deb.py" or re.search(r"(?m)(^|\s)%s(\s|\\|$)" % re.escape(rel),
                                                      am) is not None


def test_registry(t):
    bl = deploydoc.blocks()
    t.ok(len(bl) >= 10, "docs/deploy.md has its blocks (%d)" % len(bl))
    unnamed = ["line %d (%s)" % (b.lineno, b.lines[0]) for b in bl if b.name is None]
    t.is_(unnamed, [], "every block of docs/deploy.md has a name")
    names = [b.name for b in bl if b.name]
    t.is_(sorted(set(n for n in names if names.count(n) > 1)), [], "the names are unique")
    taken = tests_taking()
    for b in bl:
        if not b.name:
            continue
        by = [r for r in taken.get(b.name, []) if run_by_make(r)]
        what = "block %s (\"%s\", line %d) is run by %s" % (
            b.name, b.heading, b.lineno, ", ".join(by) or "no test")
        t.ok(by, what)
    t.is_(sorted(set(taken) - set(names)), [],
          "every block a test takes is in docs/deploy.md")
    # The marker lines themselves are what the names come from: none that
    # names nothing.
    with open(avtest.src_path(*deploydoc.DOC)) as f:
        marks = [m.group(1) for m in (deploydoc.MARK.match(l) for l in f) if m]
    t.is_(sorted(marks), sorted(names), "every marker names a block")


def test_packages(t):
    lines = deploydoc.commands("source-packages")
    words = lines[0].split() if len(lines) == 1 else []
    if not t.is_(words[:2], ["apt-get", "install"], "the packages are one apt-get install line"):
        return
    pkgs = words[2:]
    with open(avtest.src_path("contrib", "debian-packages")) as f:
        listed = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", re.sub(r"(?m)#.*$", "", f.read())))
    t.is_([p for p in pkgs if p not in listed], [],
          "every package of the line is in contrib/debian-packages")
    if os.geteuid() != 0 or not shutil.which("apt-get") or not shutil.which("dpkg-query"):
        t.skip("not root, or no apt-get", "apt-get install accepts the line as written")
        return
    missing = [p for p in pkgs if subprocess.run(
        ["dpkg-query", "-W", "-f=${db:Status-Status}", p], stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL).stdout.decode().strip() != "installed"]
    if missing:
        t.skip("not installed here: %s" % " ".join(missing),
               "apt-get install accepts the line as written")
        return
    # Simulated (-s): the line is checked as apt-get reads it, with nothing
    # changed on the machine. Run for real, apt-get would also offer to
    # upgrade a listed package whose index is newer than what is installed
    # (the usual case after "apt-get update") and, with no terminal, stop
    # there; what matters here is that the line names packages apt-get
    # knows and that nothing would be newly installed or removed.
    words_s = words[:2] + ["-s"] + words[2:]
    p = subprocess.run(words_s, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=avtest.clean_env(DEBIAN_FRONTEND="noninteractive"), timeout=300)
    out = p.stdout.decode(errors="replace")
    counts = re.search(r"\b(\d+) upgraded, (\d+) newly installed, (\d+) to remove", out)
    t.ok(p.returncode == 0 and counts is not None and counts.group(2) == "0"
         and counts.group(3) == "0",
         "apt-get install -s accepts the line as written: nothing newly installed or removed"
         " (%s)" % (counts.group(0) if counts else "no summary"))
    if p.returncode or counts is None:
        t.diag(out[-2000:])


def main(t):
    test_registry(t)
    test_packages(t)


if __name__ == "__main__":
    avtest.run(main)
