"""Induced rules: sentence forms learned from the model's own extractions."""
import pytest
from conftest import FakeModel, facts_reply

import cmc


def add(db, *texts):
    return cmc.add_records(db, [(t, "test") for t in texts])


def rules(db):
    return [tuple(r) for r in db.execute("SELECT pattern, relation, status FROM rules ORDER BY id")]


def current_edges(db):
    """{(subject key, relation): object key} of every current edge."""
    return {(r[0], r[1]): r[2] for r in db.execute("SELECT subject_key, relation, object_key FROM current_edges")}


def told_one_by_one(db, *told):
    """Add each (text, triple) record, extract them one record a call with a model that replies
    each record's triple, and return the current edges."""
    add(db, *(text for text, _ in told))
    cmc.extract_pending(db, FakeModel([facts_reply(triple) for _, triple in told]), batch_size=1)
    return current_edges(db)


def test_sentence_form_replaces_spans_with_slots():
    t = cmc.Triple("Ana Silva", "works_at", "Initech")
    assert cmc.sentence_form("Ana Silva works at Initech.", t) == "<S> works at <O>."
    assert cmc.sentence_form("The CEO of Initech is Ana Silva.", cmc.Triple("Initech", "ceo", "Ana Silva")) == \
        "The CEO of <S> is <O>."
    # a name inside the other is one place, not a second one
    assert cmc.sentence_form("Marlow was founded by Edie Marlow.", cmc.Triple("Marlow", "founded_by", "Edie Marlow")) == \
        "<S> was founded by <O>."


@pytest.mark.parametrize("text,triple", [
    ("Ana met Ana at Initech.", ("Ana", "met", "Initech")),          # subject occurs twice
    ("The capital of Freedonia is Freedonia.", ("Freedonia", "capital", "Freedonia")),  # two ways to place them
    ("Ana is in Lyon.", ("Ana", "in", "Lyon")),                      # no content word left
    ("Ana <S> works at Initech.", ("Ana", "works_at", "Initech")),   # the text holds a slot marker
    ("The sport of X is American football.", ("American", "sport", "football")),  # "<S> <O>": adjacent slots
])
def test_no_form_when_ambiguous_or_too_general(text, triple):
    assert cmc.sentence_form(text, cmc.Triple(*triple)) is None


def test_two_agreeing_records_activate_a_rule_that_then_replaces_the_model(db):
    add(db, "Ana Silva works at Initech.", "Bo Chen works at Globex.")
    model = FakeModel([facts_reply(("Ana Silva", "works at", "Initech")),
                       facts_reply(("Bo Chen", "works_at", "Globex"))])
    cmc.extract_pending(db, model)
    assert rules(db) == [("<S> works at <O>.", "works_at", "active")]
    evidence = db.execute("SELECT serial, agree, subject_key FROM rule_evidence ORDER BY serial").fetchall()
    assert [tuple(r) for r in evidence] == [(1, 1, "ana silva"), (2, 1, "bo chen")]
    add(db, "Cy Park works at Umbrella Labs.")
    stats = cmc.IngestStats()
    (ex,) = cmc.extract_pending(db, None, stats=stats)  # no model: the rule reads it
    assert ex.triples == [cmc.Triple("Cy Park", "works_at", "Umbrella Labs")]
    assert stats.by_rule == 1 and stats.model_calls == 0
    assert db.execute("SELECT extracted_by FROM records WHERE serial = 3").fetchone()[0] == "rule:1"
    assert ("cy park", "works_at", "umbrella labs") in {
        (r[0], r[1], r[2]) for r in db.execute("SELECT subject_key, relation, object_key FROM current_edges")}


def test_a_rule_reads_a_thing_named_after_itself(db):
    add(db, "The capital of Carpania is Velm.", "The capital of Osterlich is Brask.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Carpania", "capital", "Velm")),
                                       facts_reply(("Osterlich", "capital", "Brask"))]))
    add(db, "The capital of Freedonia is Freedonia.")
    (ex,) = cmc.extract_pending(db, None)  # no model: the rule reads both places
    assert ex.status == "facts" and ex.triples == [cmc.Triple("Freedonia", "capital", "Freedonia")]
    read = cmc.recall(db, "What is the capital of Freedonia?")
    assert 3 in [e["serial"] for e in read.evidence] and read.edges[0].serial == 3


def test_one_subject_twice_is_not_enough(db):
    add(db, "Ana Silva works at Initech.", "Ana Silva works at Globex.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                                       facts_reply(("Ana Silva", "works_at", "Globex"))]))
    assert rules(db)[0][2] == "candidate"


def test_another_name_for_the_same_form_takes_the_rules_name(db):
    add(db, "Ana Silva works at Initech.", "Bo Chen works at Globex.", "Cy Park works at Hooli.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                                       facts_reply(("Bo Chen", "builds", "Globex")),
                                       facts_reply(("Cy Park", "works_at", "Hooli"))]))
    assert rules(db) == [("<S> works at <O>.", "works_at", "active")]
    assert {r[0] for r in db.execute("SELECT relation FROM assertions")} == {"works_at"}


def test_a_record_the_rule_reads_otherwise_goes_back_to_the_model(db):
    # "My colleague ...": after an opening name its verb is no span ("Bo Chen works at"), so the
    # verb a small model may take is offered only where the record opens otherwise
    add(db, "My colleague Ana Silva works at Initech.", "My colleague Bo Chen works at Globex.")
    model = FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                       facts_reply(("works", "works_at", "Globex")),    # the model takes the verb
                       facts_reply(("Bo Chen", "works_at", "Globex"))])  # review: the rule's reading
    stats = cmc.IngestStats()
    cmc.extract_pending(db, model, stats=stats)
    review = model.prompts[2]
    assert review.endswith("Record: My colleague Bo Chen works at Globex.\nJSON:") and stats.reviewed == 1
    # (and "My colleague X": the user's colleague is X)
    assert [tuple(r) for r in db.execute("SELECT subject, object FROM assertions ORDER BY serial, id")] == \
        [("Ana Silva", "Initech"), ("colleague", "Ana Silva"), ("Bo Chen", "Globex"), ("colleague", "Bo Chen")]
    assert db.execute("SELECT extracted_by FROM records WHERE serial = 2").fetchone()[0] == "review:1"
    assert rules(db) == [("My colleague <S> works at <O>.", "works_at", "active")]


def test_a_model_that_keeps_its_reading_votes_against_the_rule(db):
    add(db, "My colleague Ana Silva works at Initech.", "My colleague Bo Chen works at Globex.")
    model = FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                       facts_reply(("works", "works_at", "Globex")),
                       facts_reply(("works", "works_at", "Globex"))])  # review: keeps its own
    cmc.extract_pending(db, model)
    votes = [tuple(r) for r in db.execute("SELECT serial, agree FROM rule_evidence WHERE rule_id = 1 ORDER BY serial")]
    assert votes == [(1, 1), (2, 0)]
    assert rules(db)[0][2] == "conflict"  # one for, one against: no consistent evidence


def test_one_dissent_does_not_end_a_well_supported_rule(db):
    add(db, *[f"P{i} Quill works at Firm{i}." for i in range(3)])
    cmc.extract_pending(db, FakeModel(default=lambda p: facts_reply(
        (p.rsplit("Record: ", 1)[1].split(" works")[0], "works_at", p.rsplit("at ", 1)[1].split(".")[0]))))
    with cmc.transaction(db):
        cmc.record_rule_evidence(db, 1, 3, False, "p2 quill")
    assert rules(db)[0][2] == "active"


def test_a_conflict_rule_the_model_goes_on_agreeing_with_is_active_again(db):
    add(db, "My colleague Ana Silva works at Initech.", "My colleague Bo Chen works at Globex.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                                       facts_reply(("works", "works_at", "Globex")),
                                       facts_reply(("works", "works_at", "Globex"))]))  # one misreading
    assert rules(db)[0][2] == "conflict"
    # the model reads the next records of the form itself, and reads them the rule's way
    add(db, "My colleague Cy Park works at Hooli.", "My colleague Di Ong works at Pied Piper.", "My colleague Eve Ng works at Vandelay.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Cy Park", "works_at", "Hooli")),
                                       facts_reply(("Di Ong", "works_at", "Pied Piper")),
                                       facts_reply(("Eve Ng", "works_at", "Vandelay"))]), batch_size=1)
    assert rules(db)[0][2] == "active"  # four subjects for, one against
    add(db, "My colleague Flo Ruiz works at Umbrella.")
    (ex,) = cmc.extract_pending(db, None)  # read by the rule: no model call
    assert ex.triples == [cmc.Triple("Flo Ruiz", "works_at", "Umbrella")]


def test_a_rule_turned_conflict_sends_its_records_back_to_the_model(db):
    add(db, "Ana Silva works at Initech.", "Bo Chen works at Globex.", "Cy Park works at Hooli.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                                       facts_reply(("Bo Chen", "works_at", "Globex"))]), batch_size=1)
    assert db.execute("SELECT extracted_by FROM records WHERE serial = 3").fetchone()[0] == "rule:1"
    # A later review finds the model keeping another reading of the same form: the rule is
    # withdrawn for good and record 3, which it had read, is read again by the model.
    cmc.add_records(db, [("Di Ong works at Pied Piper.", "test"), ("Eve Ng works at Hooli.", "test")])
    with cmc.transaction(db):
        cmc.record_rule_evidence(db, 1, 4, False, "di ong")
        back = cmc.record_rule_evidence(db, 1, 5, False, "eve ng")
    assert back == [3]
    assert db.execute("SELECT status FROM records WHERE serial = 3").fetchone()[0] == "pending"
    assert db.execute("SELECT count(*) FROM assertions WHERE serial = 3").fetchone()[0] == 0
    model = FakeModel([facts_reply(("Cy Park", "works_at", "Hooli")), facts_reply(("Di Ong", "works_at", "Pied Piper")),
                       facts_reply(("Eve Ng", "works_at", "Hooli"))])
    cmc.extract_pending(db, model)
    assert len(model.prompts) == 3  # records 3, 4 and 5, one batch
    assert db.execute("SELECT extracted_by FROM records WHERE serial = 3").fetchone()[0] == "model"


def test_most_specific_rule_wins(db):
    with cmc.transaction(db):
        db.execute("INSERT INTO rules (pattern, relation, status, created_at) VALUES "
                   "('<S> is based in <O>.', 'based_in', 'active', 1), "
                   "('The office of <S> is based in <O>.', 'office_in', 'active', 1)")
    add(db, "The office of Initech is based in Porto.", "Globex is based in Lyon.")
    got = [ex.triples[0] for ex in cmc.extract_pending(db, None)]
    assert got == [cmc.Triple("Initech", "office_in", "Porto"), cmc.Triple("Globex", "based_in", "Lyon")]


def test_without_a_model_an_unmatched_record_is_a_clear_error_and_stays_pending(db):
    add(db, "Something nobody has a rule for.")
    with pytest.raises(cmc.CmcError, match="model is needed"):
        cmc.extract_pending(db, None)
    assert db.execute("SELECT status FROM records").fetchone()[0] == "pending"


def test_batch_is_one_call_and_rules_learned_in_it_serve_the_next_batch(db):
    add(db, *[f"P{i} Quill works at Firm{i}." for i in range(6)])
    model = FakeModel(default=lambda p: facts_reply(
        (p.rsplit("Record: ", 1)[1].split(" works")[0], "works_at", p.rsplit("at ", 1)[1].split(".")[0])))
    stats = cmc.IngestStats()
    cmc.extract_pending(db, model, batch_size=2, stats=stats)
    assert stats.model_calls == 1 and stats.by_model == 2 and stats.by_rule == 4
    assert cmc.get_meta(db, "extract_calls") == "1"


# ── relation alignment ──

@pytest.mark.parametrize("a,b,same", [
    ("citizen_of", "is_a_citizen_of", True), ("works_at", "work_at", True),
    ("born_in", "born_on", False), ("citizen_of", "citizenship", False), ("employer", "employed_by", False),
])
def test_relation_signature(a, b, same):
    assert (cmc.relation_signature(a) == cmc.relation_signature(b)) is same


def test_deterministic_alignment_maps_a_variant_onto_the_catalogue(db):
    with cmc.transaction(db):
        assert cmc.align_relation(db, "citizen of", 1) == "citizen_of"
        assert cmc.align_relation(db, "is a citizen of", 2) == "citizen_of"
        assert cmc.align_relation(db, "citizens of", 3) == "citizen_of"
        assert cmc.align_relation(db, "born on", 4) == "born_on"
    assert [(r["relation"], [a["alias"] for a in r["aliases"]]) for r in cmc.relations(db)] == \
        [("citizen_of", ["citizen_of", "citizens_of"]), ("born_on", ["born_on"])]


def test_model_proposed_alignment_from_source_examples(db):
    add(db, "Ana Silva works for Initech.", "Bo Chen is employed by Globex.")
    model = FakeModel([facts_reply(("Ana Silva", "employer", "Initech")),
                       facts_reply(("Bo Chen", "employed_by", "Globex")),
                       "employer"])  # the alignment question: same as 'employer'
    cmc.extract_pending(db, model, batch_size=1)
    align_prompt = model.prompts[2]
    assert "- employer: Ana Silva works for Initech." in align_prompt
    assert align_prompt.endswith("Record: Bo Chen is employed by Globex.\nNew name: employed_by\nSame as:")
    assert {r[0] for r in db.execute("SELECT relation FROM assertions")} == {"employer"}
    assert [(r["relation"], sorted((a["alias"], a["how"]) for a in r["aliases"])) for r in cmc.relations(db)] == \
        [("employer", [("employed_by", "model"), ("employer", "normalised")])]


def test_model_may_keep_a_new_relation_apart(db):
    add(db, "Noor was born in Ashford.", "Noor was born on 3 May.")
    model = FakeModel([facts_reply(("Noor", "born_in", "Ashford")), facts_reply(("Noor", "born_on", "3 May")),
                       "born_on"])
    cmc.extract_pending(db, model, batch_size=1)
    assert {r[0] for r in db.execute("SELECT relation FROM assertions")} == {"born_in", "born_on"}


def test_two_forms_that_each_add_words_to_one_name_are_two_relations(db):
    # The model called both "phone"; home and work numbers must not overwrite each other.
    add(db, "Ana's home phone is 555-0101.", "Bo's home phone is 555-0102.",
        "Ana's work phone is 555-0199.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana's", "phone", "555-0101")),
                                       facts_reply(("Bo's", "phone", "555-0102")),
                                       facts_reply(("Ana's", "phone", "555-0199"))]))
    assert [(p, r) for p, r, _ in rules(db)] == [("<S> home phone is <O>.", "phone"),
                                                ("<S> work phone is <O>.", "phone_work")]
    current = current_edges(db)
    assert current[("ana", "phone")] == "555 0101" and current[("ana", "phone_work")] == "555 0199"
    assert "phone_work" in {r["relation"] for r in cmc.relations(db)}


def test_a_form_that_says_the_name_in_another_inflection_only_adds_words(db):
    # "changed schools" says "school": the form adds "changed", it is no second relation
    current = told_one_by_one(db, ("Theo's school is Pinewood Primary.", ("Theo's", "school", "Pinewood Primary")),
                              ("Mia's school is Hillside.", ("Mia's", "school", "Hillside")),
                              ("Theo changed schools to Riverside Academy.", ("Theo", "school", "Riverside Academy")))
    assert current == {("theo", "school"): "riverside academy", ("mia", "school"): "hillside"}


def test_a_change_that_names_the_value_it_replaces_restates_the_fact(db):
    # "gave up the flute" names the value it replaces: the form adds words, yet names no new relation
    current = told_one_by_one(db, ("Raj's son plays the flute.", ("Raj's", "son", "flute")),
                              ("Raj's son gave up the flute and took up the drums.", ("Raj's", "son", "drums")))
    assert current == {("raj", "son"): "drums"}
    assert cmc._says_change(cmc.words_of("Bo took up golf.")) and not cmc._says_change(cmc.words_of("Bo took golf lessons."))
    # a change that names no earlier value of the fact may still be a fact of its own
    current = told_one_by_one(db, ("Ana's home phone is 555-0101.", ("Ana's", "phone", "555-0101")),
                              ("Ana changed her work phone to 555-0199.", ("Ana", "phone", "555-0199")))
    assert current[("ana", "phone")] == "555 0101"


def test_a_change_names_its_own_relation_by_a_word_of_the_names_phrase_not_by_its_verb(db):
    # "started at" says a change; its verb and "September" name no second relation beside "son"
    current = told_one_by_one(db, ("Ola's son attends Brookside Nursery.", ("Ola's", "son", "Brookside Nursery")),
                              ("Ola's son started at Maple Primary in September.", ("Ola's", "son", "Maple Primary")))
    assert current == {("ola", "son"): "maple primary"}
    # ... while "work" of "her work phone" does (the test above: home and work phones stay two)
    current = told_one_by_one(db, ("Bo's home phone is 555-0101.", ("Bo's", "phone", "555-0101")),
                              ("Bo switched his work phone to 555-0199.", ("Bo", "phone", "555-0199")))
    assert current[("bo", "phone")] == "555 0101" and current[("bo", "phone_work")] == "555 0199"
    # "went up to" says a change, though "to" is a stopword of forms
    current = told_one_by_one(db, ("Tariq's gym membership costs 30 pounds.", ("Tariq's", "gym", "30 pounds")),
                              ("Tariq's gym membership went up to 35 pounds.", ("Tariq's", "gym", "35 pounds")))
    assert current[("tariq", "gym")] == "35 pounds" and ("tariq", "gym_went_up") not in current


def test_a_form_that_restates_an_earlier_form_of_the_name_keeps_the_name(db):
    # "teaches at" says "teacher" in other words and adds its own; "guitar teacher is now" only
    # restates "guitar teacher is", so Sofia's teacher changes
    current = told_one_by_one(db, ("Sofia's guitar teacher is Mr. Pratt.", ("Sofia's", "teacher", "Mr. Pratt")),
                              ("Mr. Pratt teaches at Rock School.", ("Mr. Pratt", "teacher", "Rock School")),
                              ("Sofia's guitar teacher is now Ms. Kane.", ("Sofia's", "teacher", "Ms. Kane")))
    assert current[("sofia", "teacher")] == "ms kane" and len(current) == 2


def test_a_name_in_the_other_spelling_still_splits_two_forms(db):
    # "favorite" for "favourite": food and drink must not overwrite each other
    current = told_one_by_one(db, ("Jonas's favourite food is ramen.", ("Jonas's", "favorite", "ramen")),
                              ("Jonas's favourite drink is lemonade.", ("Jonas's", "favorite", "lemonade")),
                              ("Jonas's favourite food is now pho.", ("Jonas's", "favorite", "pho")))
    assert current == {("jonas", "favorite"): "pho", ("jonas", "favorite_drink"): "lemonade"}
    assert cmc.relation_signature("favourite_food") == cmc.relation_signature("favorite_food")


@pytest.mark.parametrize("later", [
    "Ana now lives in Paris.",    # only adds words: an update
    "Ana moved to Paris.",        # does not say the name: the model's paraphrase is kept
])
def test_a_form_that_only_adds_words_or_paraphrases_still_updates(db, later):
    add(db, "Ana lives in Lyon.", "Bo lives in Graz.", later)
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana", "lives_in", "Lyon")),
                                       facts_reply(("Bo", "lives_in", "Graz")),
                                       facts_reply(("Ana", "lives_in", "Paris"))]))
    assert {r[1] for r in rules(db)} == {"lives_in"}
    current = current_edges(db)
    assert current[("ana", "lives_in")] == "paris"


def test_a_repeated_record_reads_as_its_relabelled_original(db):
    add(db, "Ana's home phone is 555-0101.", "Ana's work phone is 555-0199.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana's", "phone", "555-0101")),
                                       facts_reply(("Ana's", "phone", "555-0199"))]))
    add(db, "Ana's work phone is 555-0199.")
    (ex,) = cmc.extract_pending(db, None)  # the cache: same reading as record 2, as it now stands
    assert ex.triples == [cmc.Triple("Ana's", "phone_work", "555-0199")]
    assert db.execute("SELECT relation FROM assertions WHERE serial = 3").fetchone()[0] == "phone_work"


def test_a_rule_slot_does_not_open_with_an_adverb(db):
    add(db, "Ana's boss is Mrs. Kim.", "Bo's boss is Mr. Lund.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana's", "boss", "Mrs. Kim")),
                                       facts_reply(("Bo's", "boss", "Mr. Lund"))]))
    book = cmc.RuleBook(db)
    assert book.match(3, "Ana's boss is now Mr. Pike.")[1].triples == [cmc.Triple("Ana's", "boss", "Mr. Pike")]
    assert book.match(4, "Ed left the firm; Ana's boss is Mr. Pike.") is None  # a slot ends at a semicolon
    assert book.match(7, "Ed can't make it, so Ana's boss is Mr. Pike.") is None  # ... and at a comma and "so"
    assert book.match(8, "Ed, Ana's boss is Mr. Pike.")[1].triples == [cmc.Triple("Ed, Ana's", "boss", "Mr. Pike")]
    # "new" belongs to the rule's noun: "Ana's new" is no subject (the model reads it)
    assert book.match(5, "Ana's new boss is Mr. Pike.") is None
    assert book.match(6, "Ana's current boss is Mr. Pike.") is None
    # nor is a time the record opens with read into one: a rule reads what the model would
    add(db, "From Monday Cy's boss is Ms. Ode.")
    (ex,) = cmc.extract_pending(db, None)
    assert ex.triples == [cmc.Triple("Cy's", "boss", "Ms. Ode")]


def test_a_rule_slot_never_swallows_a_clause(db):
    add(db, "Ana drives a Toyota.", "Bo drives a Fiat.")
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana", "drives", "Toyota")),
                                       facts_reply(("Bo", "drives", "Fiat"))]))
    assert rules(db) == [("<S> drives a <O>.", "drives", "active")]
    book = cmc.RuleBook(db)
    assert book.match(3, "Cy drives a Volvo.")[1].triples == [cmc.Triple("Cy", "drives", "Volvo")]
    assert book.match(4, "Kofi sold the Toyota and now drives a Volvo.") is None  # the model reads it
    assert book.match(5, "Ana's brother Bo drives a Kia.") is None  # Bo drives it, not "Ana's brother Bo"
    assert book.match(6, "Aunt May's nephew drives a Kia.")[1].triples == [cmc.Triple("Aunt May's nephew", "drives", "Kia")]
    # a name and the verb it does, a comma or a function word going on from it, is a clause
    assert book.match(7, "Ed retired, and Bo drives a Kia.") is None
    assert book.match(8, "Ed sold the van, so Bo drives a Kia.") is None
    # ... or a verb of being and a conjunction after it, with no comma
    assert book.match(10, "The van was sold and Bo drives a Kia.") is None
    assert book.match(11, "Pride and Prejudice drives a Kia.")[1].triples == [
        cmc.Triple("Pride and Prejudice", "drives", "Kia")]
    # ... a content word going on from a word with a verb's ending is still the name
    assert book.match(9, "Australian rules football drives a Kia.")[1].triples == [
        cmc.Triple("Australian rules football", "drives", "Kia")]
