"""A note worker whose reviewer always scores low.

fake_models' OpenAI-compatible server answers the model "note-low": the
review (质量审核员) gets NOTE_LOW_REVIEW whatever the draft, every other
role an empty object, so the workflow's rules write and plan while the
gate keeps failing. The tests that need a run to reach the last pause
(kind quality) every time start one fake and one worker with these."""

import os

import avtest
import fake_models as fm

LOW_KEY = "sk-test-note-low-0123456789"
LOW_REVIEW = fm.NOTE_LOW_REVIEW


def low_fake(t):
    """The fake server, started; stopped when the test ends."""
    oa = fm.OpenAIFake(LOW_KEY).start()
    t.cleanup(oa.stop)
    return oa


def low_settings(d, oa, name, engine=None):
    """Worker settings: its own store under d, chat on oa's note-low."""
    settings = {"store": {"dir": os.path.join(d, name + "store")},
                "provider.chat": {"kind": "openai", "base_url": oa.url + "/v1", "model": "note-low",
                                  "api_key": LOW_KEY, "retries": "0", "timeout_ms": "10000"},
                "cache": {"model_ttl": "0"}}
    if engine:
        settings["engine"] = engine
    return settings


def low_worker(t, d, oa, name, engine=None):
    """A started worker on the note-low model."""
    return avtest.Worker(t, d, name=name, settings=low_settings(d, oa, name, engine)).start()
