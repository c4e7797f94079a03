"""The paper's running example (§1): the update changes which floor record the question needs."""
from conftest import meeting_history

import cmc

QUESTION = "On which floor is the weekly meeting?"


def evidence_texts(db):
    return [e["text"] for e in cmc.recall(db, QUESTION).evidence]


def test_before_the_move_evidence_is_room_a(db):
    meeting_history(db, moved=False)
    assert {"The weekly meeting is in Room A.", "Room A is on floor 2."} <= set(evidence_texts(db))


def test_after_the_move_evidence_is_the_move_and_room_b_floor_not_the_old_room(db):
    meeting_history(db, moved=True)
    texts = evidence_texts(db)
    assert {"Room B is on floor 5.", "The weekly meeting is in Room B."} <= set(texts)
    assert "The weekly meeting is in Room A." not in texts
