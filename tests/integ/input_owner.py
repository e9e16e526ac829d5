"""Whose pictures a request may name, and what they must be, through a
real lighttpd (offline provider).

A picture stored by one chat thread, named by another thread as a chat
attachment, an inpainting base image (as api/assets/<id> and as an
absolute URL of this server), a note reference (URL and bare id) or an
orchestrate attachment: 400, the reason saying it belongs to another
conversation; the same thread naming it in its next turn: taken. A data
URL or mimeType that names another type than the bytes (chat, mask, note,
orchestrate) and an SVG sent to the chat's vision model: 400 with the
reason.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import avpng  # noqa: E402
from avevents import data, events  # noqa: E402

PNG = avpng.solid(6, 4, (200, 40, 40))
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'


def url_of(kind, b):
    import base64
    return "data:%s;base64,%s" % (kind, base64.b64encode(b).decode())


def post(lt, body):
    st, _, out = lt.request("POST", "/api/agent/stream", json.dumps(body),
                            {"Content-Type": "application/json"}, timeout=120)
    return st, out


def test_first_thread(t, lt):
    """A chat thread with one picture: (thread id, the picture's asset id)."""
    st, out = post(lt, {"workflow": "chat", "input": {"text": "这张图里有什么？", "attachments": [
        {"name": "p.png", "data": avpng.data_url(PNG)}]}})
    start = data(events(out), "thread_start")
    tid = start[0]["threadId"] if start else None
    state = json.loads(lt.request("GET", "/api/threads/%s" % tid)[2] or b"{}").get("state", {}) \
        if tid else {}
    images = (state.get("userInput") or {}).get("images") or [{}]
    aid = images[0].get("assetId")
    t.ok(st == 200 and tid and aid, "a chat thread stores a picture as its asset (%s)" % aid)
    return tid, aid


def refused(t, lt, name, body, phrase):
    st, out = post(lt, body)
    p = avtest.problem(out) or {}
    t.is_(st, 400, "%s: 400" % name)
    t.like(p.get("detail", ""), phrase, "  ... %s" % p.get("detail"))


def test_others(t, lt, tid, aid):
    mine = "api/assets/%s" % aid
    absolute = "http://127.0.0.1:%d/api/assets/%s" % (lt.port, aid)
    mask = avpng.data_url(avpng.mask())
    why = r"belongs to another conversation"
    cases = [
        ("a chat attachment url", {"workflow": "chat", "input": {
            "text": "看图", "attachments": [{"url": mine}]}}),
        ("an inpainting base image api/assets/<id>", {"workflow": "image", "input": {
            "text": "", "maskData": {"base64": mask, "imageUrl": mine}}}),
        ("an inpainting base image, an absolute URL of this server", {"workflow": "image", "input": {
            "text": "", "maskData": {"base64": mask, "imageUrl": absolute}}}),
        ("a note referenceImageUrl", {"workflow": "note", "input": {
            "topic": "秋天", "referenceImageUrl": mine}}),
        ("a note referenceImages entry, a bare id", {"workflow": "note", "input": {
            "topic": "秋天", "referenceImages": [{"url": aid, "type": "style"}]}}),
        ("an orchestrate attachment url", {"workflow": "orchestrate", "input": {
            "task": "看图", "attachments": [{"url": mine}]}}),
    ]
    for name, body in cases:
        refused(t, lt, "another thread's picture as %s" % name, body, why)
    st, out = post(lt, {"threadId": tid, "input": {"text": "再看看这张图", "attachments": [{"url": mine}]}})
    t.ok(st == 200 and data(events(out), "workflow_complete"),
         "the same thread names it in its next turn: taken (%d)" % st)


def test_types(t, lt):
    jpeg_png = url_of("image/jpeg", PNG)
    cases = [
        ("chat: data:image/jpeg over PNG bytes", {"workflow": "chat", "input": {
            "text": "看图", "attachments": [{"data": jpeg_png}]}}, r"declared as image/jpeg"),
        ("chat: mimeType image/jpeg over a PNG", {"workflow": "chat", "input": {
            "text": "看图", "attachments": [{"data": avpng.data_url(PNG), "mimeType": "image/jpeg"}]}},
         r"declared as image/jpeg"),
        ("chat: an SVG picture", {"workflow": "chat", "input": {
            "text": "看图", "attachments": [{"data": url_of("image/svg+xml", SVG)}]}},
         r"SVG picture is not accepted"),
        ("image: a mask data:image/jpeg over PNG bytes", {"workflow": "image", "input": {
            "text": "", "maskData": {"base64": url_of("image/jpeg", avpng.mask()),
                                     "imageUrl": avpng.data_url(PNG)}}}, r"declared as image/jpeg"),
        ("note: data:image/gif over PNG bytes", {"workflow": "note", "input": {
            "topic": "秋天", "referenceImageUrl": url_of("image/gif", PNG)}}, r"declared as image/gif"),
        ("orchestrate: data:image/jpeg over PNG bytes", {"workflow": "orchestrate", "input": {
            "task": "看图", "attachments": [{"data": jpeg_png}]}}, r"declared as image/jpeg"),
    ]
    for name, body, phrase in cases:
        refused(t, lt, name, body, phrase)


def main(t):
    d = t.tmpdir("owner")
    lt = avtest.Lighttpd(t, d, workers=2).start()
    tid, aid = test_first_thread(t, lt)
    test_others(t, lt, tid, aid or "x" * 43)
    test_types(t, lt)


avtest.run(main)
