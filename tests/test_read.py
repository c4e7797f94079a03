"""The read: the window read (BM25 over the records, each hit with its neighbours), the graph read
and the window read merged, superseded
records left out, and the evidence rendered with its times (no model is called)."""
import json

import pytest
from conftest import FakeModel, meeting_history, put
from typer.testing import CliRunner

import cmc

FLOOR_Q = "On which floor is the weekly meeting?"


def serials(read):
    return [e["serial"] for e in read.evidence]


# ── the window read ──

def test_the_window_read_shows_each_hit_with_two_neighbours_either_side_best_hit_first(db):
    cmc.add_records(db, [(f"Note {i}: the allotment gate was painted green.", "t") for i in range(1, 101)])
    cmc.add_records(db, [("The kiln in the pottery shed fires on Thursdays.", "t")])  # 101
    cmc.add_records(db, [(f"Later note {i}: the hedge was trimmed.", "t") for i in range(1, 51)])
    line = len(cmc._line(0, "Note 10: the allotment gate was painted green."))
    read = cmc.recall(db, "When does the kiln fire?", budget=len(cmc.EVIDENCE_PREFIX) + 5 * line)
    assert serials(read) == [99, 100, 101, 102, 103] and read.truncated


def test_budget_left_after_the_hits_goes_to_the_records_further_out(db):
    cmc.add_records(db, [(f"Note {i}: the allotment gate was painted green.", "t") for i in range(1, 11)])
    cmc.add_records(db, [("The kiln in the pottery shed fires on Thursdays.", "t")])  # 11
    read = cmc.recall(db, "When does the kiln fire?")
    assert serials(read) == list(range(1, 12)) and not read.truncated


def test_the_window_read_meets_another_form_of_a_word(db):
    cmc.add_records(db, [("Big day: we moved to Tarnow last weekend!", "t"), ("Lunch was fine.", "t")])
    assert 1 in serials(cmc.recall(db, "When did we move?"))


def test_a_forgotten_record_is_not_found_by_its_words(db):
    for i in range(40):
        put(db, f"Note {i} is about the garden shed and its blue door.")
    put(db, "The locker code is 4471.", ("locker", "code", "4471"))
    cmc.forget(db, [41])
    assert "4471" not in cmc.recall(db, "What is the locker code 4471?").text


def test_rebuild_restores_the_record_index(db):
    meeting_history(db)
    before = serials(cmc.recall(db, FLOOR_Q))
    db.execute("INSERT INTO records_fts (records_fts) VALUES ('delete-all')")
    assert not cmc.window_read(db, FLOOR_Q, cmc.LATEST)
    cmc.rebuild(db)
    assert cmc.window_read(db, FLOOR_Q, cmc.LATEST) and serials(cmc.recall(db, FLOOR_Q)) == before


# ── the merged read ──

def test_graph_and_window_records_in_source_order_superseded_left_out(db):
    meeting_history(db)
    read = cmc.recall(db, FLOOR_Q)
    assert 1 not in serials(read)  # "in Room A": its only fact has a newer value
    assert {3, 5} <= set(serials(read)) and serials(read) == sorted(serials(read))
    why = {e["serial"]: e["why"] for e in read.evidence}
    assert why[5] == "weekly meeting —held_in→ room b" and why[3].endswith("—floor→ floor 5")
    assert read.text.startswith(cmc.EVIDENCE_PREFIX) and "[1] " in read.text
    assert read.anchors == ["weekly meeting"] and 1 in read.hidden


def test_a_question_about_the_past_reads_the_replaced_records_marked(db):
    meeting_history(db)
    read = cmc.recall(db, "Where was the weekly meeting before?")
    assert 1 in serials(read) and read.evidence[0].get("replaced")
    assert "(replaced later) The weekly meeting is in Room A." in read.text


def test_as_of_reads_the_memory_as_it_stood(db):
    meeting_history(db)
    read = cmc.recall(db, FLOOR_Q, as_of=4)
    assert max(serials(read)) <= 4 and 1 in serials(read)
    assert read.edges[0].object == "room a"


def test_the_window_read_finds_text_no_fact_holds(db):
    meeting_history(db)
    put(db, "Rumour: the canteen on floor 3 reopens after the refit.", status="unresolved")
    read = cmc.recall(db, "When does the canteen reopen?")
    assert 6 in serials(read) and {e["why"] for e in read.evidence} == {"window"}


def test_unresolved_chatter_does_not_push_the_fact_out(db):
    put(db, "The locker code is 4471.", ("locker", "code", "4471"))
    cmc.add_records(db, [(f"lol ok {i}, see you around the corner later", "chat") for i in range(3000)])
    db.execute("UPDATE records SET status = 'unresolved' WHERE source = 'chat'")
    read = cmc.recall(db, "What is the locker code?")
    assert 1 in serials(read) and len(read.text) <= cmc.READ_BUDGET


def test_no_word_of_the_question_matches_reads_the_newest(db):
    meeting_history(db)
    read = cmc.recall(db, "What?")
    assert serials(read) and {e["why"] for e in read.evidence} == {"newest"}


@pytest.mark.parametrize("question", ['Is "Room B" NEAR floor*?', "floor -5 OR AND", "Room B's (floor)?"])
def test_fts_syntax_in_a_question_is_only_words(db, question):
    meeting_history(db)
    cmc.recall(db, question)  # no FTS5 syntax error


def test_the_budget_bounds_the_evidence(db):
    for i in range(200):
        put(db, f"Plant {i} in the greenhouse needs water every {i % 7 + 1} days.")
    read = cmc.recall(db, "Which plant in the greenhouse needs water?", budget=1_000)
    assert len(read.text) <= 1_000 and read.truncated


# ── replacement judged by the model ──

def test_the_judge_links_the_new_record_to_the_one_it_changes(db):
    first = put(db, "I go to Ferrow Gym on Mill Road.", ("I", "gym", "Ferrow Gym"))
    put(db, "My sister lives in Dunmore.", ("sister", "lives_in", "Dunmore"))
    new = put(db, "Cancelled Ferrow, joined Okko Fitness instead.", ("I", "joined", "Okko Fitness"))
    judge = FakeModel(["Changes: 1"])
    assert cmc.judge_replacement(db, judge, new, "Cancelled Ferrow, joined Okko Fitness instead.") == first
    assert "[1] I go to Ferrow Gym on Mill Road." in judge.prompts[0]
    assert "New record: Cancelled Ferrow, joined Okko Fitness instead." in judge.prompts[0]
    def marked(read):
        return [e["serial"] for e in read.evidence if e.get("replaced")]
    now = cmc.recall(db, "Which gym do I go to?")  # read, marked: a record may hold more than one fact
    assert first in serials(now) and marked(now) == [first] and "[1] (replaced later) I go to Ferrow Gym" in now.text
    assert marked(cmc.recall(db, "Which gym do I go to?", as_of=2)) == []  # before the record that replaced it
    cmc.forget(db, [new])  # the link goes with the record that made it
    assert marked(cmc.recall(db, "Which gym do I go to?")) == []


def test_the_default_judge_is_the_reader_and_none_when_it_is_not_installed(monkeypatch):
    monkeypatch.delenv("CMC_JUDGE_MODEL")
    monkeypatch.setattr(cmc, "load_model", lambda name: f"loaded {name}")
    assert cmc.load_judge(cmc.judge_name()) == f"loaded {cmc.DEFAULT_READER}" and cmc.DEFAULT_JUDGE == cmc.DEFAULT_READER

    def missing(name):
        raise cmc.CmcError("not installed")
    monkeypatch.setattr(cmc, "load_model", missing)
    assert cmc.load_judge(cmc.judge_name()) is None  # the default, not installed: no judgement
    monkeypatch.setenv("CMC_JUDGE_MODEL", "qwen")
    with pytest.raises(cmc.CmcError):  # asked for by name: an error
        cmc.load_judge(cmc.judge_name())


def test_the_judge_answering_none_links_nothing(db):
    put(db, "I go to Ferrow Gym on Mill Road.", ("I", "gym", "Ferrow Gym"))
    new = put(db, "Ferrow Gym has a new sauna.", ("Ferrow Gym", "has", "sauna"))
    assert cmc.judge_replacement(db, FakeModel(["Changes: 0"]), new, "Ferrow Gym has a new sauna.") is None
    assert db.execute("SELECT count(*) FROM replaced").fetchone()[0] == 0


def test_the_user_in_any_voice_meets_the_users_other_records(db):
    put(db, "User's dentist is Dr. Pell.", ("User", "dentist", "Dr. Pell"))
    put(db, "Ravi likes chess.", ("Ravi", "likes", "chess"))
    new = put(db, "We switched to a new practice.", status="unresolved")
    found = cmc.replacement_candidates(db, new, "We switched to a new practice.")
    assert [s for s, _ in found] == [1]


def test_a_chat_lines_date_and_speaker_find_no_earlier_record_to_replace(db):
    put(db, "[2031-04-02] Oriel: found a bike shop on Tanner Row", ("bike shop", "on", "Tanner Row"))
    put(db, "[2031-04-02] Oriel: lol", status="unresolved")
    put(db, "[2031-04-03] Oriel: the frame is steel", ("frame", "is", "steel"))
    text = "[2031-04-03] Oriel: the bike shop moved to Quay Street"
    new = put(db, text, ("bike shop", "moved_to", "Quay Street"))
    assert [s for s, _ in cmc.replacement_candidates(db, new, text)] == [1]


# ── time ──

def test_a_record_keeps_its_given_time_or_a_leading_date(db):
    (a,) = cmc.add_records(db, [("The boiler was serviced.", "t", "2023-05-08T13:56")])
    (b,) = cmc.add_records(db, [("[2024-01-02 09:00] Ana: the boiler broke again", "t")])
    (c,) = cmc.add_records(db, [("The boiler is fine now.", "t")])
    times = dict(db.execute("SELECT serial, time FROM records"))
    assert times[a] == "2023-05-08T13:56:00Z" and times[b] == "2024-01-02T09:00:00Z"
    assert times[c] == db.execute("SELECT added_at FROM records WHERE serial = ?", (c,)).fetchone()[0]
    read = cmc.recall(db, "When was the boiler serviced?")
    assert "(8 May 2023)\n[1] The boiler was serviced." in read.text
    assert "[2024-01-02 09:00] Ana" in read.text and "(2 January 2024)" not in read.text


def test_a_bad_time_is_one_sentence_and_stores_nothing(db):
    with pytest.raises(cmc.CmcError, match="not an ISO 8601 time"):
        cmc.add_records(db, [("The boiler was serviced.", "t", "last Tuesday-ish")])
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0


def test_cli_recall_json_prints_the_evidence_without_a_model(tmp_path, monkeypatch):
    def no_model(path):
        raise AssertionError("recall must not load a model")
    path = str(tmp_path / "m.db")
    db = cmc.open_db(path)
    meeting_history(db)
    db.close()
    monkeypatch.setattr(cmc, "load_model", no_model)
    result = CliRunner().invoke(cmc.app, ["recall", FLOOR_Q, "--db", path, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {3, 5} <= {e["serial"] for e in doc["evidence"]}
    assert set(doc["evidence"][0]) >= {"serial", "time", "text", "why"}
    human = CliRunner().invoke(cmc.app, ["recall", FLOOR_Q, "--db", path])
    assert "Room B is on floor 5." in " ".join(human.stdout.split())  # rich wraps long lines
