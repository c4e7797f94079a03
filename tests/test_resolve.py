from conftest import meeting_history, put

import cmc


def current(db):
    return {(r[0], r[1]): (r[2], r[3]) for r in
            db.execute("SELECT subject_key, relation, object_key, serial FROM current_edges")}


def test_latest_assertion_is_current_and_history_is_kept(db):
    meeting_history(db)
    assert current(db)[("weekly meeting", "held_in")] == ("room b", 5)
    versions = db.execute("SELECT object_key FROM assertions WHERE subject_key = 'weekly meeting' "
                          "ORDER BY serial").fetchall()
    assert [v[0] for v in versions] == ["room a", "room b"]
    rows = cmc.facts(db, all_versions=True)
    assert [(r["object"], r["current"]) for r in rows if r["relation"] == "held_in"] == \
        [("Room A", False), ("Room B", True)]


def test_older_assertion_never_replaces_a_newer_one(db):
    meeting_history(db)
    row = {"id": 999, "subject_key": "weekly meeting", "relation": "held_in", "object_key": "room z", "serial": 1}
    cmc.resolve_assertion(db, row)
    assert current(db)[("weekly meeting", "held_in")] == ("room b", 5)


def test_two_values_in_one_record_the_later_triple_wins(db):
    put(db, "Ana lives in Lyon, no, in Rome.", ("Ana", "lives_in", "Lyon"), ("Ana", "lives_in", "Rome"))
    assert current(db)[("ana", "lives_in")][0] == "rome"


def test_rebuild_equals_incremental(db):
    meeting_history(db)
    put(db, "Room B is on floor 6.", ("Room B", "floor", "floor 6"))
    before = cmc.facts(db)
    assert cmc.rebuild_current(db) == len(before)
    assert cmc.facts(db) == before


def test_same_subject_same_wording_updates_whatever_the_relation_name(db):
    from conftest import FakeModel, facts_reply
    cmc.add_records(db, [("Nobuhiro Watsuki is famous for Rurouni Kenshin.", "t"),
                         ("Nobuhiro Watsuki is famous for The Fairly OddParents.", "t")])
    cmc.extract_pending(db, FakeModel([facts_reply(("Nobuhiro Watsuki", "famous", "Rurouni Kenshin")),
                                       facts_reply(("Nobuhiro Watsuki", "creator", "The Fairly OddParents"))]))
    assert current(db) == {("nobuhiro watsuki", "famous"): ("fairly oddparents", 2)}
