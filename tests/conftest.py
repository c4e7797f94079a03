import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import cmc  # noqa: E402


class FakeModel:
    """Replies from a queue, one reply per prompt. A reply that continues (reply=...) or a choice
    among options is read off the current queued reply, so an extraction JSON can be scripted
    whole. Records every prompt; an item that is an exception is raised instead."""

    name = "fake"

    def __init__(self, replies=(), default=None):
        self.replies = list(replies)
        self.default = default
        self.prompts, self.calls = [], []
        self._prompt, self._script = None, ""

    def _current(self, prompt):
        if prompt != self._prompt:
            self.prompts.append(prompt)
            if self.replies:
                script = self.replies.pop(0)
            elif self.default:
                script = self.default(prompt)
            else:
                raise AssertionError("FakeModel got an unexpected prompt")
            if isinstance(script, Exception):
                raise script
            self._prompt, self._script = prompt, " " + script.strip()
        return self._script

    def _rest(self, prompt, reply):
        script = self._current(prompt)
        if reply and not reply.startswith(" "):  # a reply that opens with a word ("Changes: ")
            script = script.lstrip()
        return script[len(reply):] if script.startswith(reply) else ""

    def complete(self, prompt, *, reply="", max_tokens=64, stop=("\n",)):
        self.calls.append(("complete", reply))
        rest = self._rest(prompt, reply)
        cut = min((rest.find(s) for s in stop if s in rest), default=len(rest))
        return cmc.Completion(rest[:cut], prompt_tokens=len(prompt.split()), completion_tokens=3)

    def choose(self, prompt, options, *, reply="", prefer_longer=0.0):
        self.calls.append(("choose", list(options)))
        rest = self._rest(prompt, reply)
        fits = [i for i, o in enumerate(options) if rest.startswith(o) or rest == o.rstrip()]
        return max(fits, key=lambda i: len(options[i])) if fits else 0


def facts_reply(*triples):
    return json.dumps({"status": "facts",
                       "triples": [{"subject": s, "relation": r, "object": o} for s, r, o in triples]})


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """Keep every test away from the user's data dir and environment."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for var in ("CMC_DB", "CMC_MODEL", "CMC_ANSWER_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("CMC_JUDGE_MODEL", "none")  # a test that wants a judge names it


@pytest.fixture
def db(tmp_path):
    conn = cmc.open_db(tmp_path / "m.db")
    yield conn
    conn.close()


def put(db, text, *triples, status=None):
    """Store one record with a hand-given extraction; returns its serial."""
    (serial,) = cmc.add_records(db, [(text, "test")])
    if status is None:
        status = "facts" if triples else "no_fact"
    ex = cmc.Extraction(serial, status, [cmc.Triple(*t) for t in triples])
    with cmc.transaction(db):
        cmc.write_extraction(db, ex)
    return serial


def meeting_history(db, moved=True):
    put(db, "The weekly meeting is in Room A.", ("The weekly meeting", "held_in", "Room A"))
    put(db, "Room A is on floor 2.", ("Room A", "floor", "floor 2"))
    put(db, "Room B is on floor 5.", ("Room B", "floor", "floor 5"))
    put(db, "Please bring the quarterly report.")
    if moved:
        put(db, "The weekly meeting is in Room B.", ("The weekly meeting", "held_in", "Room B"))
