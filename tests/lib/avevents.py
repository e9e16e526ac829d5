"""Events of a response's text/event-stream, as the tests read them.

A stream's events are SSEReader dicts {"id", "event", "data", "retry"};
"data" is the event object (a dict) or a string such as "[DONE]". The
durable events are those with an id (replayed from the thread's log);
live ones (token deltas, progress ticks, yields) have none."""

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
