"""The paper's running example (§1): the update changes which floor record the question needs."""
from conftest import FakeModel, meeting_history

import cmc

QUESTION = "On which floor is the weekly meeting?"


def evidence_serials(db):
    _, _, ev = cmc.select_evidence(db, QUESTION)
    return [s for s, _ in ev.records]


def test_before_the_move_evidence_is_room_a(db):
    meeting_history(db, moved=False)
    assert evidence_serials(db) == [1, 2]


def test_after_the_move_evidence_is_the_move_and_room_b_floor_not_room_a(db):
    meeting_history(db, moved=True)
    texts = [t for _, t in cmc.select_evidence(db, QUESTION)[2].records]
    assert texts == ["Room B is on floor 5.", "The weekly meeting is in Room B."]
    assert "Room A is on floor 2." not in texts


def test_ask_makes_one_call_with_the_evidence_and_question(db):
    meeting_history(db)
    model = FakeModel([" floor 5\n"])
    result = cmc.ask(db, model, QUESTION)
    assert result.answer == "floor 5"
    assert len(model.prompts) == 1
    prompt = model.prompts[0]
    # records 3 and 5, numbered in source order for the reader; ask() reports their serials
    assert prompt.endswith(f"[1] Room B is on floor 5.\n[2] The weekly meeting is in Room B.\n"
                           f"Question: {QUESTION}\nAnswer:")
    assert [e["serial"] for e in result.evidence] == [3, 5]
    assert "newer" in prompt
    assert result.anchors == ["weekly meeting"]
    assert [(e["relation"], e["object"], e["depth"]) for e in result.edges] == \
        [("held_in", "room b", 0), ("floor", "floor 5", 1)]


def test_question_without_anchor_reads_the_history(db):
    meeting_history(db)
    model = FakeModel(["Bring the report"])
    result = cmc.ask(db, model, "What should I remember?")
    assert result.fallback and [e["serial"] for e in result.evidence] == [1, 2, 3, 4, 5]


def test_unresolved_text_about_the_question_gets_a_free_answer_other_unresolved_text_does_not(db):
    from conftest import put
    meeting_history(db)
    put(db, "Someone said it might rain.", status="unresolved")
    chose = FakeModel([" floor 5"])
    assert cmc.ask(db, chose, QUESTION).answer == "floor 5"
    assert [kind for kind, _ in chose.calls] == ["choose"]
    put(db, "The weekly meeting may move again, maybe to the roof.", status="unresolved")
    free = FakeModel([" the roof"])
    assert cmc.ask(db, free, QUESTION).answer == "the roof"
    assert [kind for kind, _ in free.calls] == ["complete"]
