#!/usr/bin/env python3
"""GET /api/nodes through the worker: the node library the graph_edit
workflow builds with, listed for the app's palette (cacheable, with an
ETag), searched with ?q= in Chinese and English as a person would ask,
bad parameters refused, and a broken library file reported with the file
and the entry while the worker serves on."""

import json
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
from avtest import Worker, problem, wait_for  # noqa: E402

DATA_TYPES = {"STRING", "INTEGER", "FLOAT", "BOOLEAN", "OBJECT", "ARRAY", "BINARY",
              "WILDCARD", "CONVERTIBLE_ANY"}

# What a person types in the palette's search box, and the node that must
# come first; "also" are nodes that should be among the first three.
SEARCHES = [
    ("生成图片", "image:Generate", []),
    ("temperature", "llm:Chat", []),
    ("文生图", "image:Generate", []),
    ("局部重绘", "image:Inpaint", []),
    ("把文章翻译成英文", "llm:Translate", []),
    ("正则替换", "text:RegexReplace", []),
    ("split text into lines", "text:Split", []),
    ("random number", None, ["util:RandomInteger", "util:RandomFloat"]),
    ("预览", None, ["io:TextPreview", "io:ImagePreview"]),
    ("http request", "io:HttpRequest", []),
    ("放大图片", "image:Upscale", []),
]


def get(w, path, **kw):
    r = w.request("GET", path, **kw)
    try:
        j = r.json()
    except ValueError:
        j = {}
    return r, j


def q(text, extra=""):
    return "/api/nodes?q=" + urllib.parse.quote(text) + extra


def test_list(t, w):
    r, j = get(w, "/api/nodes")
    t.is_(r.status, 200, "nodes: 200")
    t.like(r.header("content-type"), r"^application/json", "nodes: application/json")
    t.is_(r.header("cache-control"), "public, max-age=300", "nodes: cacheable for 5 minutes")
    etag = r.header("etag") or ""
    t.like(etag, r'^"[0-9a-f]{32}"$', "nodes: an ETag")
    nodes = j.get("nodes") or []
    t.ok(j.get("count", 0) >= 40 and j.get("count") == len(nodes),
         "nodes: count %r, at least 40, and as many definitions" % j.get("count"))
    spaces = {n.get("type", "").split(":")[0] for n in nodes}
    t.ok(len(spaces) >= 5, "nodes: at least 5 namespaces (%s)" % ", ".join(sorted(spaces)))
    slots = [s for n in nodes for side in ("inputs", "outputs")
             for s in (n.get(side) or {}).values()]
    t.ok(slots and all(s.get("type") in DATA_TYPES for s in slots),
         "nodes: every slot of every definition has a data type (%d slots)" % len(slots))
    chat = next((n for n in nodes if n.get("type") == "llm:Chat"), {})
    temp = (chat.get("configValues") or {}).get("temperature") or {}
    t.is_((temp.get("type"), temp.get("min"), temp.get("max")), ("FLOAT", 0, 2),
          "nodes: llm:Chat has a temperature from 0 to 2")
    t.ok(chat.get("name_zh") and chat.get("name_en") and chat.get("description_zh"),
         "nodes: names and descriptions in Chinese and English")
    r, _ = get(w, "/api/nodes", headers={"If-None-Match": etag})
    t.is_((r.status, r.body, r.header("etag")), (304, b"", etag),
          "nodes: If-None-Match with the ETag gives 304, no body")
    r, _ = get(w, "/api/nodes", headers={"If-None-Match": '"0123"'})
    t.is_(r.status, 200, "nodes: another ETag gives 200")
    r = w.request("HEAD", "/api/nodes")
    t.is_((r.status, r.body), (200, b""), "nodes: HEAD gives the headers only")
    return etag


def test_search(t, w, etag):
    for text, first, also in SEARCHES:
        r, j = get(w, q(text))
        res = j.get("results") or [{}]
        ids = [x.get("id") for x in res]
        if first:
            t.is_((r.status, j.get("query"), ids[0]), (200, text, first),
                  "nodes ?q=%s: %s first" % (text, first))
        else:
            t.ok(r.status == 200 and set(also) <= set(ids[:3]),
                 "nodes ?q=%s: %s among the first three (%s)" % (text, " and ".join(also), ids[:3]))
        t.ok(all(0 < x.get("similarity", 0) <= 1 and x.get("name_zh") and x.get("name_en")
                 for x in res),
             "nodes ?q=%s: each result with its names and a similarity in (0, 1]" % text)
        t.ok([x["similarity"] for x in res] == sorted((x["similarity"] for x in res), reverse=True),
             "nodes ?q=%s: best first" % text)
    r, j = get(w, q("生成图片"))
    t.ok(j.get("results", [{}])[0].get("similarity", 0) >= 0.5,
         "nodes ?q=生成图片: a confident match (%r)" % j.get("results", [{}])[0].get("similarity"))
    e1 = r.header("etag")
    t.ok(e1 not in (None, etag), "nodes ?q=: an ETag of its own")
    r, j = get(w, q("图片", "&limit=2"))
    t.is_((r.status, len(j.get("results") or [])), (200, 2), "nodes ?q=图片&limit=2: two results")
    t.ok(r.header("etag") not in (None, e1), "nodes ?q=&limit=: the limit is part of the ETag")
    r, j = get(w, q("图片", "&limit=50"))
    t.ok(r.status == 200 and 2 < len(j.get("results") or []) <= 50, "nodes: limit up to 50")
    r, j = get(w, "/api/nodes?q=")
    t.is_((r.status, j.get("results")), (200, []), "nodes ?q= empty: no results")
    r, j = get(w, q("xyzzy plugh"))
    t.is_((r.status, j.get("results")), (200, []), "nodes ?q=xyzzy plugh: nothing fits, nothing found")


def test_bad_params(t, w):
    for path, name in [("/api/nodes?q=%FF", "q not UTF-8"),
                       ("/api/nodes?q=%E4%B8", "q cut in the middle of a character"),
                       ("/api/nodes?q=%zz", "q with a malformed percent-escape"),
                       ("/api/nodes?q=chat%2", "q cut in a percent-escape"),
                       ("/api/nodes?q=chat&limit=%3x", "limit with a malformed percent-escape"),
                       ("/api/nodes?q=chat&limit=0", "limit 0"),
                       ("/api/nodes?q=chat&limit=51", "limit 51"),
                       ("/api/nodes?q=chat&limit=ten", "limit ten"),
                       ("/api/nodes?q=chat&limit=", "limit empty"),
                       ("/api/nodes?q=chat&limit=5x", "limit 5x")]:
        r = w.request("GET", path)
        avtest.expect_problem(t, r.status, r.body, 400, "bad_request", "nodes: " + name)
    r = w.request("POST", "/api/nodes", body=b"{}", headers={"Content-Type": "application/json"})
    t.is_(r.status, 405, "nodes: POST is not allowed")


def test_broken(t, dir):
    """A node library that its check refuses: 500 with no file named, the
    log names the file and the entry, the worker serves on."""
    with open(avtest.src_path("etc", "nodes.json")) as f:
        nodes = json.load(f)
    nodes[11]["configValues"] = {"temperature": {"type": "FLOAT", "default": 3, "min": 0, "max": 2}}
    bad = avtest.write_file(os.path.join(dir, "bad-nodes.json"), json.dumps(nodes))
    w = Worker(t, dir, {"kb": {"nodes": bad}}, name="bad-nodes").start()
    r = w.request("GET", "/api/nodes")
    avtest.expect_problem(t, r.status, r.body, 500, "internal", "broken node library")
    t.ok(bad not in r.body.decode("utf-8", "replace"), "broken node library: the answer names no file")
    want = "%s: node 12 (%s): configValues.temperature: default 3 above max 2" % (bad, nodes[11]["id"])
    t.ok(wait_for(lambda: want in avtest.tail(w.log), avtest.START_TIMEOUT),
         "broken node library: the log says %s" % want)
    t.is_(w.request("GET", "/api/health").status, 200, "broken node library: the worker still serves")
    w.kill()


def main(t):
    d = t.tmpdir("nodes")
    w = Worker(t, d).start()
    etag = test_list(t, w)
    test_search(t, w, etag)
    test_bad_params(t, w)
    t.ok(w.alive(), "the worker survived them")
    test_broken(t, d)


if __name__ == "__main__":
    avtest.run(main)
