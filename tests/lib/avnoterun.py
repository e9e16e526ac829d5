"""A note run on a worker, driven as a person who approves every pause
until the one the test answers itself: requests as the app sends them,
answers read as events (avevents)."""

import json

from avevents import approve_until, data, events


class NoteClient:
    """Requests to one worker (avtest.Worker)."""

    def __init__(self, w):
        self.w = w

    def post(self, path, obj):
        """A POST of obj as JSON: the events of the answer."""
        return events(self.w.post_json(path, obj, timeout=120).body)

    def thread(self, tid):
        return json.loads(self.w.request("GET", "/api/threads/" + tid).body)

    def approve(self, tid, q):
        """Approves pause q of thread tid: the events of the answer."""
        return self.post("/api/agent/confirm", {"threadId": tid, "interruptId": q["interruptId"],
                                                "action": "approve"})

    def run(self, inp, stop=None, limit=16):
        """Starts a note (input inp) and approves its pauses until the run
        ends, stop(q, seen) is true for a pause or limit approvals were
        sent (avevents.approve_until): the thread id and every event."""
        evs = self.post("/api/agent/stream", {"workflow": "note", "input": inp})
        tid = data(evs, "thread_start")[0]["threadId"]
        return tid, approve_until(evs, lambda q: self.approve(tid, q), stop, limit)[0]


def kind_is(kind):
    """A stop for NoteClient.run: the first pause of kind."""
    return lambda q, seen: q["context"]["kind"] == kind
