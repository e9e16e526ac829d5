"""The blocks of docs/deploy.md: the command lines and configuration lines
an administrator types or pastes, each an indented block preceded by a
marker line naming it:

    <!-- block: shared-build -->

        ./configure --prefix=$HOME/aivista && make && make install

Tests take a block by its name (block("shared-build")) and run its lines
as written. tests/integ/deploy_doc.py checks that every block of the
document has a name and that some test takes each one, so a step added to
the document without a test that runs it fails.
"""

import re

import avtest
from avtest import SetupError

DOC = ("docs", "deploy.md")
MARK = re.compile(r"^\s*<!-- block: ([a-z0-9][a-z0-9-]*) -->\s*$")
# How a test names a block it takes: a call block("ID"), commands("ID"),
# run_doc("ID") or doc_lines("ID"), or a DOC = ("ID", ...) tuple (what a
# test hands the Apache classes of webservers.py, which run those blocks).
TAKES = re.compile(r"""\b(?:block|commands|run_doc|doc_lines)\(\s*["']([a-z0-9-]+)["']""")
TAKES_DOC = re.compile(r"""\b(?:doc|DOC)\s*=\s*\(([^)]*)\)""")


class Block:
    """One indented block: its name (None when it has no marker), the
    heading it is under, its first line's number, and its lines without the
    block's own indentation."""

    def __init__(self, name, heading, lineno, lines):
        self.name = name
        self.heading = heading
        self.lineno = lineno
        self.lines = lines

    def __repr__(self):
        return "Block(%r, line %d, %r)" % (self.name, self.lineno, self.lines[:1])


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def blocks(text=None):
    """Every block of the document, in order. A block is a run of lines
    indented four spaces or more that follows a blank line (blank lines
    inside it included); a marker line ends it, and names the block that
    follows it with nothing but blank lines between."""
    if text is None:
        with open(avtest.src_path(*DOC)) as f:
            text = f.read()
    out, cur, start, name, heading, pending = [], [], 0, None, None, None
    prev_blank = True

    def close():
        while cur and not cur[-1].strip():
            cur.pop()
        if cur:
            ind = min(_indent(l) for l in cur if l.strip())
            out.append(Block(name, heading, start, [l[ind:] for l in cur]))

    for i, line in enumerate(text.splitlines(), 1):
        m = MARK.match(line)
        if m:
            close()
            cur, name = [], None
            pending = m.group(1)
        elif line.strip() and _indent(line) >= 4 and (cur or prev_blank):
            if not cur:
                start, name, pending = i, pending, None
            cur.append(line)
        elif not line.strip():
            if cur:
                cur.append(line)
        else:
            close()
            cur, name, pending = [], None, None
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
        prev_blank = not line.strip()
    close()
    return out


def block(name):
    """The lines of the block named name. Raises SetupError when the
    document has none (a test must not go on without its lines)."""
    found = [b for b in blocks() if b.name == name]
    if len(found) != 1:
        raise SetupError("docs/deploy.md: %d blocks named %s" % (len(found), name))
    return found[0].lines


def commands(name):
    """The block's shell commands: its lines with backslash continuations
    joined, blank lines left out."""
    out, cur = [], ""
    for line in block(name):
        if not line.strip() and not cur:
            continue
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1].rstrip() + " "
            continue
        out.append((cur + line.strip()).strip())
        cur = ""
    if cur:
        out.append(cur.strip())
    return out


def taken_in(text):
    """The block names a test's source takes."""
    names = TAKES.findall(text)
    for group in TAKES_DOC.findall(text):
        names += re.findall(r"""["']([a-z0-9-]+)["']""", group)
    return names
