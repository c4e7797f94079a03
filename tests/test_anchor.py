import pytest
from conftest import FakeModel, facts_reply, meeting_history, put

import cmc


def test_whole_span_anchor_with_case_and_possessive(db):
    meeting_history(db)
    assert cmc.anchor(db, "On which floor is THE WEEKLY MEETING's room?") == ["weekly meeting"]


def test_partial_word_is_not_an_anchor(db):
    put(db, "Rome is in Italy.", ("Rome", "country", "Italy"))
    assert cmc.anchor(db, "Where is Romeo?") == []
    assert cmc.anchor(db, "Where is rome?") == ["rome"]


def test_longest_match_wins_but_disjoint_matches_stay(db):
    put(db, "Room B is on floor 5.", ("Room B", "floor", "floor 5"))
    put(db, "B is a letter.", ("B", "kind", "letter"))
    put(db, "Lyon is in France.", ("Lyon", "country", "France"))
    assert cmc.anchor(db, "Is room B in Lyon?") == ["room b", "lyon"]
    assert cmc.anchor(db, "What is B?") == ["b"]


def test_only_subjects_are_anchors(db):
    meeting_history(db)
    assert cmc.anchor(db, "What is on floor 5?") == []


@pytest.mark.parametrize("question", [
    'What is "Room B" on?', "Room* B OR floor NEAR(x y)", "-Room B -", "Room B AND NOT floor:5 ^",
    '"""', "* OR -", "NEAR", "'); DROP TABLE entities;--",
])
def test_fts5_syntax_in_questions_is_harmless(db, question):
    put(db, "Room B is on floor 5.", ("Room B", "floor", "floor 5"))
    got = cmc.anchor(db, question)
    assert got == (["room b"] if "room b" in " ".join(cmc.words_of(question)) else [])


def test_no_entities_no_anchors(db):
    assert cmc.anchor(db, "Anything at all?") == []


def test_question_words_do_not_anchor_unless_written_as_a_name(db):
    put(db, "The Who was founded in London.", ("The Who", "founded_in", "London"))
    put(db, "Ana lives in Porto.", ("Ana", "lives_in", "Porto"))
    assert cmc.anchor(db, "Who is the person where Ana lives?") == ["ana"]
    assert cmc.anchor(db, "Where was The Who founded?") == ["who"]


def test_a_value_the_question_names_is_an_object_anchor_unless_a_subject_covers_it(db):
    meeting_history(db)
    assert cmc.object_anchors(db, "What is on floor 5?", []) == ["floor 5"]
    # "room b" is a subject anchor: the object "room b" under it is not anchored again
    assert cmc.object_anchors(db, "Which floor is Room B on?", ["room b"]) == []


def test_a_lowercase_noun_before_of_is_a_relation_when_the_question_names_a_thing(db):
    put(db, "Center is a position in basketball.", ("Center", "sport", "basketball"))
    put(db, "Ana Lima is a citizen of Peru.", ("Ana Lima", "citizen_of", "Peru"))
    question = "Which town is the center of trade in the country where Ana Lima is a citizen?"
    assert cmc.anchor(db, question) == ["ana lima"]
    assert cmc.anchor(db, "What does the Center of the team play?") == ["center"]  # written as a name
    assert cmc.anchor(db, "Who plays center for Ana Lima?") == ["center", "ana lima"]  # not before "of"
    assert cmc.anchor(db, "which town is the center of trade of ana lima?") == ["center", "ana lima"]
    put(db, "The office is on floor 2.", ("The office", "floor", "floor 2"))
    put(db, "Dr. Weiss works at the clinic.", ("Dr. Weiss", "works_at", "clinic"))
    assert cmc.anchor(db, "Which floor is the office of Dr. Weiss on?") == ["dr weiss"]
    assert cmc.anchor(db, "Which floor is the office on?") == ["office"]
    # the same for a value the question names: "Bo Ruiz plays the position of center."
    put(db, "Bo Ruiz plays the position of center.", ("Bo Ruiz", "position", "center"))
    assert cmc.object_anchors(db, question, ["ana lima"]) == []
    assert cmc.object_anchors(db, "Who plays center for Ana Lima?", ["ana lima"]) == ["center"]


def test_anchor_index_is_merged_whenever_the_entities_grew_by_an_eighth(db):
    merged = []
    for i in range(1, 41):
        put(db, f"Person {i} lives in Town {i}.", (f"Person {i}", "lives_in", f"Town {i}"))
        if cmc.compact_anchor_index(db):
            merged.append(i)
    # A small memory merges on every new entity; later ever more rarely (linear work in total).
    assert merged == [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 19, 22, 26, 30, 35, 40]
    assert not cmc.compact_anchor_index(db)  # nothing new since
    assert cmc.compact_anchor_index(db, force=True)
    assert [cmc.anchor(db, f"Where does Person {i} live?") for i in (1, 17, 40)] == [
        ["person 1"], ["person 17"], ["person 40"]]
    cmc.forget(db, [1])
    assert cmc.anchor(db, "Where does Person 1 live?") == []


def test_every_add_ends_by_merging_the_anchor_index_when_due(db):
    cmc.add_records(db, [("Ada lives in Paris.", "test")])
    cmc.extract_pending(db, FakeModel([facts_reply(("Ada", "lives_in", "Paris"))]))
    assert cmc.get_meta(db, "entities_compacted_at") == "1"


def test_between_full_merges_each_add_keeps_the_anchor_index_in_few_segments(db):
    # FTS5 numbers an index segment in the high bits of its data rows' ids (segment id << 37)
    segments = "SELECT count(DISTINCT id >> 37) FROM entities_fts_data WHERE id > 10"
    most = 0
    for i in range(1, 101):  # one add per record, each with a new entity
        put(db, f"Person {i} lives in Town {i}.", (f"Person {i}", "lives_in", f"Town {i}"))
        cmc.compact_anchor_index(db)
        most = max(most, db.execute(segments).fetchone()[0])
    assert most <= 2  # without the merge step 15; with FTS5's default usermerge (4) 3
