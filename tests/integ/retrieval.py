#!/usr/bin/env python3
"""Retrieval with an embeddings provider (src/kb/retrieve.h), against the
fake OpenAI-compatible service (tests/lib/fake_models.py, model "emb-tri":
vectors where "dusk" and "sunset" share a meaning): cosine puts first the
style a keyword search misses; a library's vectors are asked for once, then
read from the store by a second worker and after a restart; a failing
service, a malformed answer or a query vector of another dimension give
exactly the results of a worker without embeddings; GET /api/styles?q=
and GET /api/nodes?q= say how each hit was found, with its scores."""

import json
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fake_models as fm  # noqa: E402
from avtest import Worker, write_file  # noqa: E402

KEY = "sk-embed-test"

STYLES = [
    {"id": "neon", "name_zh": "霓虹城市", "name_en": "Neon city", "category": "urban",
     "keywords": ["neon", "city night"], "prompt": "neon city street scene at night, glowing signs"},
    {"id": "golden", "name_zh": "黄金时刻", "name_en": "Golden hour", "category": "photo",
     "keywords": ["golden hour", "sunset", "twilight"],
     "prompt": "warm sunset light at twilight, a summer evening, long shadows"},
    {"id": "snowy", "name_zh": "雪景", "name_en": "Snowy landscape", "category": "photo",
     "keywords": ["snow", "winter"], "prompt": "quiet snow covered fields, soft winter light"},
    {"id": "catp", "name_zh": "猫咪肖像", "name_en": "Cat portrait", "category": "photo",
     "keywords": ["cat", "pet portrait"], "prompt": "close portrait of a cat, soft fur detail"},
]
# No word of it is in "golden"; "scene" is in "neon".
QUERY = "dusk scene"


def settings(styles, model=None, url=None):
    s = {"kb": {"styles": styles}}
    if model:
        s["provider.embeddings"] = {"kind": "openai", "base_url": url + "/v1", "model": model,
                                    "api_key": KEY, "timeout_ms": "3000", "retries": "0"}
    return s


def styles_q(w, q, extra=""):
    r = w.request("GET", "/api/styles?q=" + urllib.parse.quote(q) + extra)
    try:
        return r, r.json()
    except ValueError:
        return r, {}


def texts_sent(fake):
    """How many texts the fake embedded: (documents, queries)."""
    docs = queries = 0
    for req in fake.requests("/v1/embeddings"):
        n = len(req["body"].get("input") or [])
        if n > 1:
            docs += n
        else:
            queries += n
    return docs, queries


def ids(results):
    return [h.get("id") for h in results]


def main(t):
    d = t.tmpdir("retrieval")
    fake = fm.OpenAIFake(KEY).start()
    t.cleanup(fake.stop)
    styles = write_file(os.path.join(d, "styles.json"), json.dumps(STYLES))

    plain = Worker(t, d, settings(styles), name="plain").start()
    r, base = styles_q(plain, QUERY)
    t.is_((r.status, base.get("method"), base.get("fallback")), (200, "bm25", False),
          "no embeddings: searched by BM25")
    t.is_(ids(base.get("results") or []), ["neon"], "no embeddings: only the keyword match")
    t.diag("no embeddings: %s" % json.dumps(base.get("results")))
    t.ok(all(h.get("method") == "bm25" and list(h.get("scores") or {}) == ["bm25"]
             for h in base["results"]), "no embeddings: each hit says bm25, with its score")
    plain.kill()

    # -- cosine changes the ranking ---------------------------------------------------
    a = Worker(t, d, settings(styles, "emb-tri", fake.url), name="a").start()
    r, hyb = styles_q(a, QUERY)
    res = hyb.get("results") or []
    t.diag("embeddings: %s" % json.dumps([(h["id"], h["similarity"], h["scores"]) for h in res]))
    t.is_((r.status, hyb.get("method"), hyb.get("fallback")), (200, "hybrid", False),
          "embeddings: searched by BM25 and cosine")
    t.is_(res[0].get("id") if res else None, "golden",
          "embeddings: the sunset style first for '%s' (%s)" % (QUERY, ids(res)))
    t.is_(res[0].get("method") if res else None, "cosine",
          "embeddings: found by cosine alone, no shared word")
    neon = next((h for h in res if h.get("id") == "neon"), {})
    t.is_(neon.get("method"), "both", "embeddings: the keyword match found both ways")
    t.ok(all(set(h.get("scores") or {}) == {"bm25", "cosine"} for h in res),
         "embeddings: every hit with both scores")
    t.ok(all(h["similarity"] >= max(h["scores"].values()) for h in res),
         "embeddings: the fused similarity is at least each score")
    t.is_(texts_sent(fake), (len(STYLES), 1), "embeddings: the documents once, the query once")

    r, again = styles_q(a, QUERY)
    t.is_((again.get("results"), texts_sent(fake)), (res, (len(STYLES), 1)),
          "embeddings: the same query again asks nothing (vectors kept, query cached)")
    r, _ = styles_q(a, "snow at twilight")
    t.is_(texts_sent(fake), (len(STYLES), 2), "embeddings: a new query asks for its vector only")

    # -- another worker, a restart --------------------------------------------------------
    b = Worker(t, d, settings(styles, "emb-tri", fake.url), name="b").start()
    r, other = styles_q(b, "a kitten")
    t.is_(ids(other.get("results") or [])[:1], ["catp"],
          "second worker: 'a kitten' finds the cat portrait")
    t.is_(texts_sent(fake)[0], len(STYLES), "second worker: the documents' vectors from the store")
    a.kill()
    a.start()
    r, after = styles_q(a, QUERY)
    t.is_((after.get("results"), texts_sent(fake)[0]), (res, len(STYLES)),
          "restart: the same results, the documents not embedded again")
    b.kill()
    a.kill()

    # -- failures: exactly the BM25 results -----------------------------------------------
    for model, what in (("emb-fail", "a failing service"), ("emb-bad", "a malformed answer"),
                        ("emb-dim", "a query vector of another dimension")):
        w = Worker(t, d, settings(styles, model, fake.url), name=model).start()
        r, got = styles_q(w, QUERY)
        t.is_((r.status, got.get("method"), got.get("fallback")), (200, "bm25", True),
              "%s: answered by BM25, no error" % what)
        t.is_(got.get("results"), base["results"], "%s: the results of no embeddings" % what)
        t.is_(r.header("cache-control"), "no-store", "%s: the answer is not kept" % what)
        w.kill()
        with open(w.log, encoding="utf-8", errors="replace") as f:
            t.like(f.read(), r"searched by keywords only", "%s: the log says why" % what)

    # -- the node library -----------------------------------------------------------------
    n = Worker(t, d, {"provider.embeddings": settings(styles, "emb-tri", fake.url)
                      ["provider.embeddings"]}, name="nodes").start()
    r = n.request("GET", "/api/nodes?q=" + urllib.parse.quote("translate text") + "&limit=5")
    j = r.json()
    res = j.get("results") or []
    t.is_((r.status, j.get("method"), len(res)), (200, "hybrid", 5),
          "nodes: searched by BM25 and cosine")
    t.ok(all(h.get("method") in ("bm25", "cosine", "both") and
             set(h.get("scores") or {}) == {"bm25", "cosine"} for h in res),
         "nodes: each hit says how it was found, with both scores")
    t.is_(res[0].get("id") if res else None, "llm:Translate", "nodes: the translator first")
    n.kill()


if __name__ == "__main__":
    avtest.run(main)
