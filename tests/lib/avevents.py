"""Events of a response's text/event-stream, as the tests read them.

A stream's events are SSEReader dicts {"id", "event", "data", "retry"};
"data" is the event object (a dict) or a string such as "[DONE]". The
durable events are those with an id (replayed from the thread's log);
live ones (token deltas, progress ticks, yields) have none. A run that
paused ends its response with an ask_user and workflow_paused (paused);
approve_until answers such pauses one after another."""

from avtest import SSEReader


def events(body):
    """Every event of a whole response body (bytes)."""
    return list(SSEReader(iter([body])))


def data(evs, kind=None):
    """The event objects (dicts) of evs, only those of type kind if given."""
    out = [e["data"] for e in evs if isinstance(e["data"], dict)]
    return [d for d in out if kind is None or d.get("type") == kind]


def types(evs):
    """Each event's type, or its data when that is not an object ("[DONE]")."""
    return [e["data"]["type"] if isinstance(e["data"], dict) else e["data"] for e in evs]


def durable(evs):
    return [e for e in evs if "id" in e]


def nodes_run(evs):
    """The nodes that started, in order (their agent_start events)."""
    return [d["node"] for d in data(evs, "agent_start")]


def ask(evs):
    """The first ask_user event object of evs, or None."""
    a = data(evs, "ask_user")
    return a[0] if a else None


def last_ask(evs):
    """The last ask_user event object of evs (the question a thread that
    paused waits on), or None."""
    a = data(evs, "ask_user")
    return a[-1] if a else None


def paused(evs):
    """The question a run paused on at the end of evs (its last ask_user,
    with a workflow_paused), or None."""
    q = last_ask(evs)
    return q if q and "workflow_paused" in types(evs) else None


def approve_until(evs, approve, stop=None, limit=16):
    """Approves the pauses of a run, from the events evs of its last
    answer: approve(q) sends the approval of pause q and returns the
    events of its answer. Stops at the first answer that is not a pause,
    at a pause for which stop(q, seen) is true (seen: every event so far),
    or after limit approvals. Returns every event in order and the events
    of the last answer."""
    seen = list(evs)
    for _ in range(limit):
        q = paused(evs)
        if q is None or (stop is not None and stop(q, seen)):
            break
        evs = approve(q)
        seen += evs
    return seen, evs
