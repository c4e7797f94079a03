"""The read: the original-window index, the graph read and the window read merged, superseded
records left out, and the evidence rendered with its times (no model is called)."""
import json

import pytest
from conftest import FakeModel, meeting_history, put
from typer.testing import CliRunner

import cmc

FLOOR_Q = "On which floor is the weekly meeting?"


def serials(read):
    return [e["serial"] for e in read.evidence]


def windows(db):
    return [tuple(r) for r in db.execute("SELECT first_serial, last_serial FROM windows_fts ORDER BY rowid")]


# ── windows ──

def test_cut_windows_keeps_each_under_the_size_with_overlap():
    lengths = [100] * 50
    cut = cmc.cut_windows(lengths, size=1000, overlap=250)
    for first, last in cut:
        assert sum(lengths[first:last + 1]) + (last - first) <= 1000
    assert cut[0] == (0, 8)  # nine records of 100 and eight newlines
    for (f1, l1), (f2, l2) in zip(cut, cut[1:]):
        assert f1 < f2 <= l1 + 1 and l2 > l1  # each starts inside the one before and goes further
        assert sum(lengths[f2:l1 + 1]) + (l1 + 1 - f2) >= 250  # at least the overlap is kept
    assert cut[-1][1] == 49


def test_cut_windows_puts_a_long_record_alone_and_still_moves_on():
    cut = cmc.cut_windows([10, 5000, 10, 10], size=2048, overlap=256)
    assert cut == [(0, 0), (1, 1), (2, 3)]


def test_windows_grown_one_add_at_a_time_equal_the_cut_of_the_whole(tmp_path):
    texts = [f"Note {i}: {'word ' * (i % 40)}end." for i in range(300)]
    one = cmc.open_db(tmp_path / "one.db")
    for t in texts:
        cmc.add_records(one, [(t, "test")])
    whole = cmc.open_db(tmp_path / "whole.db")
    cmc.add_records(whole, [(t, "test") for t in texts])
    assert windows(one) == windows(whole) and len(windows(one)) > 5
    assert one.execute("SELECT group_concat(text, '|') FROM windows_fts").fetchone() == \
        whole.execute("SELECT group_concat(text, '|') FROM windows_fts").fetchone()


def test_forget_cuts_the_windows_again_without_the_record(db):
    for i in range(40):
        put(db, f"Note {i} is about the garden shed and its blue door.")
    put(db, "The locker code is 4471.", ("locker", "code", "4471"))
    for i in range(40):
        put(db, f"Later note {i} is about the allotment gate.")
    cmc.forget(db, [41])
    assert not db.execute("SELECT 1 FROM windows_fts WHERE windows_fts MATCH '\"4471\"'").fetchone()
    rebuilt = cmc.open_db(":memory:")
    cmc.add_records(rebuilt, [(r[0], "t") for r in db.execute("SELECT text FROM records ORDER BY serial")])
    assert len(windows(db)) == len(windows(rebuilt))


def test_rebuild_and_the_upgrade_from_version_8_recut_the_windows(db):
    meeting_history(db)
    before = windows(db)
    db.execute("DELETE FROM windows_fts")
    cmc.rebuild(db)
    assert windows(db) == before == [(1, 5)]


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
    assert first not in serials(cmc.recall(db, "Which gym do I go to?"))
    assert first in serials(cmc.recall(db, "Which gym did I go to before?"))
    assert first in serials(cmc.recall(db, "Which gym do I go to?", as_of=2))
    cmc.forget(db, [new])  # the link goes with the record that made it
    assert first in serials(cmc.recall(db, "Which gym do I go to?"))


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
