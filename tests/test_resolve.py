from conftest import facts_reply, meeting_history, put

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
    from conftest import FakeModel
    cmc.add_records(db, [("Kenji Morisato is famous for Tanuki Road.", "t"),
                         ("Kenji Morisato is famous for The Plucky OddBalls.", "t")])
    cmc.extract_pending(db, FakeModel([facts_reply(("Kenji Morisato", "famous", "Tanuki Road")),
                                       facts_reply(("Kenji Morisato", "creator", "The Plucky OddBalls"))]))
    assert current(db) == {("kenji morisato", "famous"): ("plucky oddballs", 2)}


def _model_put(db, text, triple):
    (serial,) = cmc.add_records(db, [(text, "test")])
    with cmc.transaction(db):
        cmc.write_extraction(db, cmc.Extraction(serial, "facts", [cmc.Triple(*triple)]), "model")


def test_an_opening_he_she_or_they_is_the_name_the_record_before_has_a_fact_about(db):
    _model_put(db, "Beatriz lives in Porto.", ("Beatriz", "lives_in", "Porto"))
    _model_put(db, "She moved to Braga last spring.", ("She", "lives_in", "Braga"))
    assert current(db) == {("beatriz", "lives_in"): ("braga", 2)}
    assert db.execute("SELECT subject FROM assertions WHERE serial = 2").fetchone()[0] == "She"  # literal
    put(db, "Jo and Max live in Hull.", ("Jo and Max", "lives_in", "Hull"))  # a rule's reading too
    put(db, "They moved to Bath.", ("They", "lives_in", "Bath"))
    assert current(db)[("jo and max", "lives_in")] == ("bath", 4)
    # no name in the record before: the pronoun stays its own subject
    put(db, "The flat is in Leeds.", ("The flat", "location", "Leeds"))
    put(db, "He rents it to students.", ("He", "rents_to", "students"))
    assert current(db)[("he", "rents_to")] == ("students", 6)


def test_a_subject_joining_names_the_memory_knows_is_a_fact_of_each(db):
    _model_put(db, "Tom lives in Leeds.", ("Tom", "lives_in", "Leeds"))
    _model_put(db, "Ana lives in York.", ("Ana", "lives_in", "York"))
    put(db, "Tom and Ana moved to Bristol together.", ("Tom and Ana", "lives_in", "Bristol"))  # a rule's too
    assert current(db) == {("tom", "lives_in"): ("bristol", 3), ("ana", "lives_in"): ("bristol", 3)}
    assert {r[0] for r in db.execute("SELECT subject FROM assertions WHERE serial = 3")} == {"Tom", "Ana"}
    # a name that is another's value of the fact's relation is none of them: Ryan is the value
    _model_put(db, "Chloe's partner is Ryan.", ("Chloe's", "partner", "Ryan"))
    _model_put(db, "Ryan lives in Hull.", ("Ryan", "lives_in", "Hull"))
    _model_put(db, "Chloe and Ryan split up; she is now seeing Adam.", ("Chloe and Ryan", "partner", "Adam"))
    assert current(db)[("chloe", "partner")] == ("adam", 6) and ("ryan", "partner") not in current(db)
    assert db.execute("SELECT count(*) FROM assertions WHERE serial = 6").fetchone()[0] == 1
    # a name known only as a value is one of them, unless it is the value of the fact's relation
    _model_put(db, "Sid's wife is Uma.", ("Sid's", "wife", "Uma"))
    _model_put(db, "Sid and Uma moved to Ely.", ("Sid and Uma", "lives_in", "Ely"))
    assert current(db)[("sid", "lives_in")] == current(db)[("uma", "lives_in")] == ("ely", 8)
    _model_put(db, "Priya's flatmate is Joel.", ("Priya's", "flatmate", "Joel"))
    _model_put(db, "Priya and Joel fell out; her flatmate is Sam now.", ("Priya and Joel", "flatmate", "Sam"))
    assert current(db)[("priya", "flatmate")] == ("sam", 10) and ("joel", "flatmate") not in current(db)
    assert db.execute("SELECT count(*) FROM assertions WHERE serial = 10").fetchone()[0] == 1
    # a name the memory does not know makes the whole one name; so does a known whole
    _model_put(db, "The capital of Sylvania is Fredville.", ("Sylvania", "capital", "Fredville"))
    _model_put(db, "The capital of the United Provinces of Freedonia and Sylvania is Marxton.",
               ("United Provinces of Freedonia and Sylvania", "capital", "Marxton"))
    assert current(db)[("sylvania", "capital")] == ("fredville", 11)
    _model_put(db, "Mo and Li opened a bakery.", ("Mo and Li", "opened", "a bakery"))
    _model_put(db, "Mo and Li sold the bakery.", ("Mo and Li", "opened", "nothing"))
    assert current(db)[("mo and li", "opened")] == ("nothing", 14) and ("mo", "opened") not in current(db)
    _model_put(db, "Mo lives in Derby.", ("Mo", "lives_in", "Derby"))
    _model_put(db, "Li lives in Stoke.", ("Li", "lives_in", "Stoke"))
    _model_put(db, "Mo and Li moved the bakery to Leek.", ("Mo and Li", "opened", "Leek"))
    assert current(db)[("mo and li", "opened")] == ("leek", 17) and ("mo", "opened") not in current(db)


def test_a_fact_said_again_in_its_own_words_still_updates(db):
    _model_put(db, "Ana lives in Rome.", ("Ana", "lives_in", "Rome"))
    _model_put(db, "Ana lives in Paris.", ("Ana", "lives_in", "Paris"))
    _model_put(db, "Bo works at Initech.", ("Bo", "employer", "Initech"))  # neither record says "employer"
    _model_put(db, "Bo works at Globex.", ("Bo", "employer", "Globex"))
    assert current(db) == {("ana", "lives_in"): ("paris", 2), ("bo", "employer"): ("globex", 4)}


def test_the_same_times_from_a_hand_given_reading_still_update(db):
    put(db, "The review is at 2 pm.", ("The review", "time", "2 pm"))
    put(db, "The review is in the Oak room.", ("The review", "time", "Oak"))  # not a model's: kept as given
    assert current(db)[("review", "time")][0] == "oak"


def other_way(db):
    return [(r["subject"], r["relation"], r["object"], r["current"]) for r in cmc.facts(db, all_versions=True)
            if r.get("other_way")]


def test_a_fact_said_by_one_verb_between_two_names_is_kept_the_other_way_too(db):
    # which name has one value at a time the words do not say: each way keeps its own versions
    put(db, "Mira Holt performed Blue Hour.", ("Mira Holt", "performed", "Blue Hour"))
    put(db, "Sam now supports the Hornets.", ("Sam", "supports", "Hornets"))
    put(db, "Lena Park performed Blue Hour.", ("Lena Park", "performed", "Blue Hour"))
    put(db, "Joe Hale manages The Harbour Singers.", ("Joe Hale", "manages", "Harbour Singers"))  # the name's "The" left out
    assert other_way(db) == [("Blue Hour", "performed_by", "Mira Holt", False),
                             ("Hornets", "supported_by", "Sam", True),
                             ("Blue Hour", "performed_by", "Lena Park", True),
                             ("Harbour Singers", "managed_by", "Joe Hale", True)]
    assert current(db)[("mira holt", "performed")] == ("blue hour", 1), "the fact as written stays as it was"
    history = cmc.history(db, "Blue Hour")
    assert [(h.relation, [(v.object, v.current) for v in h.versions]) for h in history] == \
        [("performed_by", [("Mira Holt", False), ("Lena Park", True)])]
    assert cmc.info(db, "m.db", None)["other_way"] == 4


def test_a_role_named_after_the_verb_or_a_persons_role_is_kept_the_other_way_as_said(db):
    # stored as the second name's (its `chair`, Bo's `parent`): the other way is the first name's
    put(db, "Kim chairs the Book Club.", ("Book Club", "chair", "Kim"))
    put(db, "Ann is the parent of Bo.", ("Bo", "parent", "Ann"))
    put(db, "Uma serves as the treasurer of Acme.", ("Acme", "treasurer", "Uma"))
    put(db, "Sam is the captain of the rugby team.", ("the rugby team", "captain", "Sam"))  # a named person's role
    assert other_way(db) == [("Kim", "chairs", "Book Club", True), ("Ann", "parent_of", "Bo", True),
                             ("Uma", "treasurer_of", "Acme", True), ("Sam", "captain_of", "the rugby team", True)]


def test_no_other_way_without_one_verb_between_two_proper_names(db):
    put(db, "Fredville is the capital of Freedonia.", ("Freedonia", "capital", "Fredville"))  # a city is no person's role
    put(db, "Dave works for Initech.", ("Dave", "works_for", "Initech"))  # a verb and a preposition
    put(db, "Ana studies chemistry.", ("Ana", "studies", "chemistry"))  # a kind of thing, no name
    put(db, "Tom plays football for Leeds.", ("Tom", "plays_for", "Leeds"))
    put(db, "Kim is a citizen of France.", ("Kim", "citizen_of", "France"))
    put(db, "The gym is the sponsor of the Hornets.", ("the Hornets", "sponsor", "The gym"))  # no named person
    put(db, "Sam supports the team.", ("Sam", "supports", "the team"))  # one verb, but no second name
    assert other_way(db) == []


def test_other_way_facts_are_recomputed_by_rebuild_and_leave_with_forget(db):
    put(db, "Mira Holt performed Blue Hour.", ("Mira Holt", "performed", "Blue Hour"))
    later = put(db, "Lena Park performed Blue Hour.", ("Lena Park", "performed", "Blue Hour"))
    before = other_way(db)
    db.execute("DELETE FROM other_way")
    assert cmc.rebuild(db).other_way == 2 and other_way(db) == before
    cmc.forget(db, [later])
    assert other_way(db) == [("Blue Hour", "performed_by", "Mira Holt", True)]


def test_participles_name_the_other_way(db):
    assert [cmc._participle(v) for v in ("performed", "employs", "leads", "chairs", "carries", "sold")] == \
        ["performed", "employed", "led", "chaired", "carried", "sold"]


def test_a_first_person_contraction_is_the_user(db):
    """"I'm" and "we've" as a subject are the user, so "I", "my" and "the user" meet them."""
    put(db, "I'm allergic to walnuts.", ("I'm", "allergic_to", "walnuts"))
    put(db, "We've moved to Dunmore.", ("We've", "moved_to", "Dunmore"))
    put(db, "My sister Ilse lives in Parbrook.", ("My sister Ilse", "lives_in", "Parbrook"))
    assert current(db)[("user", "allergic_to")][0] == "walnuts"
    assert current(db)[("user", "moved_to")][0] == "dunmore"
    assert cmc.anchor(db, "What am I allergic to?") == ["user"]
