"""What a reader checks in a note and in what the workflow says about it.

Pure functions over drafts ({title, body, tags}), image plans and event
text, shared by the note tests:
  - feedback items: what a person's reject asks (remove X, say more about
    Y, add Y, shorter, longer, tone, audience, a list or steps, the title;
    for image plans: reorder, drop, re-describe, style), the words that
    name each item in a report, and whether a change the workflow claims
    was made is really in the next draft or plans;
  - word cuts: a title, tag, caption or cover line that starts or ends
    inside a word (the topic's words, etc/words.txt's, or a Latin word);
  - sections: a body's headed paragraphs and the words they name;
  - language: strings with CJK text in them."""

import json
import re

import avtest

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e\u3001-\u3011]")
LATIN = re.compile(r"[A-Za-z0-9]")


def listed_words():
    """The words of etc/words.txt (the segmenter keeps them whole)."""
    with open(avtest.src_path("etc", "words.txt")) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


LISTED = listed_words()


def corpus_tags():
    """The tags of the notes corpus (etc/notes.json): words a tag may be."""
    with open(avtest.src_path("etc", "notes.json")) as f:
        return sorted({tg for n in json.load(f) for tg in n.get("tags") or []})


CORPUS_TAGS = corpus_tags()


# -- feedback items -------------------------------------------------------------------

class Item:
    """One instruction of a reject's feedback: kind, its argument (a word,
    or for image plans (index, index) / (index, text)), and the words
    that name it in a report."""

    def __init__(self, kind, arg=None, names=None):
        self.kind = kind
        self.arg = arg
        self.names = names or []

    def __repr__(self):
        return "%s(%s)" % (self.kind, "" if self.arg is None else self.arg)


def rm(word):
    return Item("remove", word, [word])


def more(word):
    return Item("more", word, [word])


def add(word):
    return Item("add", word, [word])


def shorter():
    return Item("shorter", None, ["短", "精简", "篇幅", "字数", "太长", "删减", "压缩", "shorter",
                                  "shorten", "length", "trim", "concise"])


def longer():
    return Item("longer", None, ["长", "展开", "篇幅", "字数", "详细", "longer", "length", "expand",
                                 "detail"])


def tone(word):
    return Item("tone", word, [word, "语气", "口吻", "tone"])


def aud(who):
    return Item("audience", who, [who])


def as_list():
    return Item("list", None, ["清单", "列表", "分点", "条目", "list", "bullet"])


def as_steps():
    return Item("steps", None, ["步骤", "分步", "steps", "step"])


def title(word=None):
    return Item("title", word, ["标题", "title"] + ([word] if word else []))


CN = "零一二三四五六七八九十"


def nth(n):
    """The ways a report names picture n: 第2张, 第二张."""
    return ["第%d张" % n, "第%s张" % CN[n]] if 0 < n < len(CN) else []


def order(src, dst):
    """Move picture src (1-based) to place dst."""
    return Item("order", (src, dst), nth(src) + nth(dst) + ["顺序", "封面", "调换", "挪到", "order", "first",
                                                            "move", "swap", "cover"])


def drop(n):
    """Drop picture n (1-based; -1 the last)."""
    return Item("drop", n, nth(n) + ["去掉", "删", "少一张", "最后一张", "drop", "remove", "last"])


def desc(n, text, key):
    """Picture n (1-based) re-described as text; key: the word that names it."""
    return Item("describe", (n, text), [key] + nth(n) + ["描述", "describe", "prompt"])


def style(word, *spellings):
    """Every picture in the style word (or one of its other spellings)."""
    return Item("style", (word,) + spellings, [word] + list(spellings) + ["风格", "style"])


# The kind names a structured report (ask_user.context.feedback[].kind) may use.
KIND_ALIASES = {
    "remove": {"remove", "omit", "delete", "exclude", "drop", "without"},
    "more": {"more", "expand", "elaborate", "detail", "more_about", "moreabout"},
    "add": {"add", "include"},
    "shorter": {"shorter", "shorten", "length", "short"},
    "longer": {"longer", "lengthen", "length", "long"},
    "tone": {"tone"},
    "audience": {"audience", "reader", "readers"},
    "list": {"format", "list"},
    "steps": {"format", "steps"},
    "title": {"title"},
    "order": {"reorder", "order", "move", "swap"},
    "drop": {"drop", "remove", "delete"},
    "describe": {"describe", "redescribe", "re-describe", "prompt", "replace"},
    "style": {"style"},
}

DECLINE = ("无法", "没能", "不能", "做不到", "未能", "暂不", "没有", "没法", "不支持", "未做", "未改",
           "cannot", "can't", "could not", "couldn't", "unable", "declined", "never", "not ", "n't")

def line_status(line):
    """A report line's verdict: ✓ done, ✗ declined; without a mark,
    "declined" when its words say so, else "done" (a line that names an
    item and does not decline it claims it was done)."""
    if "✓" in line or "✗" in line:
        return "done" if line.rfind("✓") > line.rfind("✗") else "declined"
    low = line.lower()
    if any(m in low for m in DECLINE):
        return "declined"
    return "done"


def names_in(item, text):
    low = (text or "").lower()
    return any(n.lower() in low for n in item.names)


def match(items, candidates, fits):
    """A one-to-one matching of items to candidates (fits(item, cand));
    {item index: candidate index}, as many as can be matched."""
    owner = {}

    def place(i, seen):
        for j, c in enumerate(candidates):
            if j in seen or not fits(items[i], c):
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(items)):
        place(i, set())
    return {i: j for j, i in owner.items()}


def line_fits(item, line):
    return names_in(item, line)


def entry_fits(item, e):
    if not isinstance(e, dict):
        return False
    said = "%s %s" % (e.get("arg") if e.get("arg") is not None else "", e.get("said") or "")
    kind = str(e.get("kind") or "").lower()
    if item.arg is not None and item.kind not in ("order", "drop", "describe"):
        return names_in(item, said)
    return kind in KIND_ALIASES[item.kind] or names_in(item, said)


# -- drafts ---------------------------------------------------------------------------

def text_of(d):
    return "%s\n%s\n%s" % (d.get("title") or "", d.get("body") or "", " ".join(d.get("tags") or []))


def has(text, word):
    return word.lower() in (text or "").lower()


def paragraphs(body):
    return [p.strip() for p in re.split(r"\n\s*\n", body or "") if p.strip()]


def mention_len(body, word):
    """How much the body says where it names word: the length of its
    paragraphs that do."""
    return sum(len(p) for p in paragraphs(body) if has(p, word))


LIST_LINE = re.compile(r"^\s*(?:[-•·▪✅☑✔□◆◇*]|\d+[.、)）]|[①-⑳]|\(\d+\))\s*\S", re.M)
STEP_LINE = re.compile(r"^\s*(?:\d+[.、)）]|[①-⑳]|第[一二三四五六七八九十\d]+步|step\s*\d+)\s*\S",
                       re.M | re.I)


def body_lines(body):
    return {ln.strip() for ln in (body or "").splitlines() if ln.strip()}


def draft_effect(item, prev, nxt):
    """Why an item the workflow reports done does not hold in the next
    draft (prev: the refused draft), or None when it does: a removed word
    is gone, a subject said more about has longer paragraphs, an added
    word is there, a shorter body is shorter, a title has its word..."""
    a, k, pb, nb = item.arg, item.kind, prev.get("body") or "", nxt.get("body") or ""
    if k == "remove":
        if has(text_of(nxt), a):
            return "「%s」 is still in the next draft" % a
    elif k == "more" and not mention_len(nb, a) > mention_len(pb, a):
        return "the paragraphs naming 「%s」 did not grow (%d -> %d characters)" % (
            a, mention_len(pb, a), mention_len(nb, a))
    elif k in ("add", "audience") and not has(text_of(nxt), a):
        return "「%s」 is not in the next draft" % a
    elif k == "shorter" and not len(nb) < len(pb):
        return "the body is not shorter (%d -> %d characters)" % (len(pb), len(nb))
    elif k == "longer" and not len(nb) > len(pb):
        return "the body is not longer (%d -> %d characters)" % (len(pb), len(nb))
    elif k == "tone" and body_lines(nb) == body_lines(pb):
        return "not one line of the body was reworded"
    elif k == "list" and len(LIST_LINE.findall(nb)) < 3:
        return "the body has %d list lines" % len(LIST_LINE.findall(nb))
    elif k == "steps" and len(STEP_LINE.findall(nb)) < 3:
        return "the body has %d numbered steps" % len(STEP_LINE.findall(nb))
    elif k == "title":
        if a and not has(nxt.get("title"), a):
            return "the title %r does not have 「%s」" % (nxt.get("title"), a)
        if not a and (nxt.get("title") or "") == (prev.get("title") or ""):
            return "the title did not change"
    return None


def same_plan(p, q):
    """Whether two plans picture the same paragraph (by its id; by the
    description when a plan has no id)."""
    if p.get("paragraphId") and q.get("paragraphId"):
        return p["paragraphId"] == q["paragraphId"]
    return bool(p.get("description")) and p.get("description") == q.get("description")


def plans_effect(item, prev, nxt):
    """Why a change to the image plans the workflow says it made is not in
    the next plans, or None when it is."""
    k, a = item.kind, item.arg
    if k == "order":
        src, dst = a
        if len(prev) < src or len(nxt) < dst or not same_plan(prev[src - 1], nxt[dst - 1]):
            return "picture %d of the refused plans is not at place %d" % (src, dst)
    elif k == "drop":
        gone = prev[a] if a < 0 else prev[a - 1] if len(prev) >= a else None
        if len(nxt) != len(prev) - 1 or (gone and any(same_plan(gone, q) for q in nxt)):
            return "the plans went from %d to %d pictures, the dropped one %s" % (
                len(prev), len(nxt), "still there" if gone and any(same_plan(gone, q) for q in nxt)
                else "gone")
    elif k == "describe":
        n, text = a
        p = nxt[n - 1] if len(nxt) >= n else {}
        if text not in (p.get("prompt") or "") + (p.get("description") or ""):
            return "picture %d is not described as 「%s」 (%s)" % (n, text, p.get("prompt"))
    elif k == "style":
        off = [p.get("prompt") for p in nxt if not any(has(p.get("prompt"), w) for w in a)]
        if off:
            return "%d of %d plans are not in 「%s」: %s" % (len(off), len(nxt), "/".join(a), off[0])
    return None


# Claims of a removal in a progress line: 删去「X」, removed "X".
REMOVED = re.compile(r"(?:删去|删掉|去掉|删除|拿掉|不再提)了?\s*[「“\"']([^」”\"']+)[」”\"']"
                     r"|removed\s+[“\"'「]([^”\"'」]+)[”\"'」]", re.I)
NEGATED = re.compile(r"(?:没|未|无法|不能|没能|not|n't|never)\s*\S{0,3}$", re.I)


def removal_claims(line):
    """The words a line says were removed (not those it says were not);
    a list in one claim (「健身、减脂」) is its words."""
    out = []
    for m in REMOVED.finditer(line):
        if not NEGATED.search(line[:m.start()]):
            out += [w.strip() for w in re.split(r"[、，,/]|\band\b|和", m.group(1) or m.group(2)) if w.strip()]
    return out


# -- word cuts ------------------------------------------------------------------------

SEPARATORS = re.compile(r"[｜|:：,，!！?？、;；\s—–·~～()（）《》「」【】\"“”'’/]+")
ELLIPSIS = re.compile(r"(?:…|\.\.\.)+$")


def words_in(text, topic_words):
    """The words of text to keep whole: the topic's, and the listed ones
    that are in text; the longest first."""
    ws = set(w for w in topic_words if len(w) >= 2) | set(w for w in LISTED if w in text)
    return sorted(ws, key=len, reverse=True)


def occurrences(s, w):
    lw, ls = w.lower(), s.lower()
    out, at = [], ls.find(lw)
    while at >= 0:
        out.append(at)
        at = ls.find(lw, at + 1)
    return out


def cut_at(src, pos, words):
    """The word of src that position pos falls strictly inside, or None."""
    if 0 < pos < len(src) and LATIN.match(src[pos - 1]) and LATIN.match(src[pos]):
        return re.search(r"[A-Za-z0-9]*$", src[:pos]).group() + re.match(r"[A-Za-z0-9]*", src[pos:]).group()
    for w in words:
        for a in occurrences(src, w):
            if a < pos < a + len(w):
                return w
    return None


def cut_by_context(seg, topic, words):
    """A segment found nowhere whole: it ends with the start of a topic word
    (or starts with its end) right where the topic has it."""
    for w in words:
        latin = bool(LATIN.match(w))
        for k in range(1, len(w)):
            if latin and len(w) - k < 2:
                continue
            head, tail = w[:k], w[k:]
            for a in occurrences(topic, w):
                if seg.lower().endswith(head.lower()) and not seg.lower().endswith(w.lower()):
                    before = seg[:-k]
                    if (before and a > 0 and before[-1].lower() == topic[a - 1].lower()) or \
                            (not before and (k >= 2 or latin)):
                        return w
                if seg.lower().startswith(tail.lower()) and not seg.lower().startswith(w.lower()):
                    after = seg[len(tail):]
                    end = a + len(w)
                    if (after and end < len(topic) and after[0].lower() == topic[end].lower()) or \
                            (not after and (len(tail) >= 2 or latin)):
                        return w
    return None


def latin_prefix_of(seg, sources):
    """A Latin word of the sources that seg is the start of, and only the
    start (hiki of hiking; not cover of recovery)."""
    for src in sources:
        for tok in re.findall(r"[A-Za-z0-9]+", src):
            if len(tok) > len(seg) and tok.lower().startswith(seg.lower()):
                return tok
    return None


def cut_words(piece, topic, topic_words, sources):
    """Why piece (a title, tag, caption or cover line) cuts a word, or None.
    Each of its segments (between punctuation and spaces) is looked for in
    the sources (the topic first): a segment that is somewhere whole (its
    ends on word boundaries) is fine; a Latin one never whole that ends a
    piece cut short (…) is a cut word when it is the start of a longer word
    of the sources (hiki…: hiking); another one only
    ever cut, or found nowhere but ending with the start of a topic word
    where the topic has it, is a cut word (a word of the topic, the word list or the corpus's
    tags is never one). A word said twice in a row (装备清单清单) is one too."""
    text = ELLIPSIS.sub("", (piece or "").strip().lstrip("#"))
    cut_short = text != (piece or "").strip().lstrip("#")
    known = set(w.lower() for w in list(topic_words) + LISTED + CORPUS_TAGS)
    segs = [x for x in SEPARATORS.split(text) if x]
    for n, seg in enumerate(segs):
        seg = ELLIPSIS.sub("", seg)
        if not seg or seg.lower() in known:
            continue
        if len(seg) == 1 and LATIN.match(seg) and not (cut_short and n == len(segs) - 1):
            continue    # a, I: words of one letter
        seen = False
        whole = False
        why = None
        for src in [topic] + [s for s in sources if s]:
            ws = words_in(src, topic_words)
            for a in occurrences(src, seg):
                seen = True
                w = cut_at(src, a, ws) or cut_at(src, a + len(seg), ws)
                if w is None:
                    whole = True
                    break
                why = why or w
            if whole:
                break
        if LATIN.match(seg[0]) and LATIN.match(seg[-1]):
            if not whole and cut_short and n == len(segs) - 1:
                w = latin_prefix_of(seg, [topic] + list(sources))
                if w:
                    return "%r cuts 「%s」 (segment %r)" % (piece, w, seg)
            continue
        if seen and not whole:
            return "%r cuts 「%s」 (segment %r)" % (piece, why, seg)
        if not seen:
            w = cut_by_context(seg, topic, words_in(topic, topic_words))
            if w:
                return "%r cuts 「%s」 (segment %r)" % (piece, w, seg)
    for w in words_in(text, topic_words):
        if w + w in text and w + w not in topic:
            return "%r says 「%s」 twice in a row" % (piece, w)
    return None


# -- sections -------------------------------------------------------------------------

HEADING = re.compile(r"^(?:[一二三四五六七八九十]+、|【[^】]+】|#+\s|Day\s*\d|第[一二三四五六七八九十\d]+天|"
                     r"\d+[.、)]\s*\S)")


def sections(body):
    """The headed paragraphs of a body: [(heading, text)]. A paragraph is
    headed when its first line is short, looks like a heading (一、…,
    【…】, Day 1, 1. …) and more lines follow."""
    out = []
    for p in paragraphs(body):
        lines = p.splitlines()
        first = lines[0].strip()
        short = len(first) <= (60 if not CJK.search(first) else 30)
        if len(lines) >= 2 and short and HEADING.match(first) and not re.search(r"[。！？.!?]$", first):
            out.append((first, p))
    return out


def unnamed_sections(body, words, kind_words, person_texts):
    """The headings of sections (not the person's own paragraphs) that name
    none of the words; with no headed section, the body as a whole."""
    def names(text):
        return any(has(text, w) for w in list(words) + list(kind_words))

    def persons(p):
        return any(p in t for t in person_texts)

    secs = [(h, p) for h, p in sections(body) if not persons(p)]
    if not secs:
        rest = "\n\n".join(p for p in paragraphs(body) if not persons(p))
        return [] if not rest or names(rest) or names(body) else ["(the whole body)"]
    return [h for h, p in secs if not names(p)]


def cjk_strings(strings):
    """The strings (label, text) with CJK text in them."""
    return [(label, s) for label, s in strings if isinstance(s, str) and CJK.search(s)]
