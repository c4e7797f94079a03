"""Lifecycle and trust: point-in-time reads, explain, history, forget, export/import, rebuild,
and the Python API (issue 6)."""
import json
import os
import stat

import pytest
from conftest import FakeModel, facts_reply, meeting_history, put
from typer.testing import CliRunner

import cmc

FLOOR_Q = "On which floor is the weekly meeting?"


def hops(edges):
    return [(e.subject, e.relation, e.object, e.serial, e.depth) for e in edges]


def evidence_of(db, question, as_of=None):
    read = cmc.recall(db, question, as_of)
    return read.anchors, hops(read.edges), [(e["serial"], e["text"]) for e in read.evidence], not read.anchors


def every_question(db):
    """A question naming each known subject, plus one naming none."""
    keys = [r[0] for r in db.execute("SELECT key FROM entities ORDER BY key")]
    return [f"What about {k}?" for k in keys] + [FLOOR_Q, "Where does she live?"]


# ── as of ──

def test_facts_as_of_reads_the_memory_as_it_stood(db):
    meeting_history(db)
    assert [(f["object"], f["serial"]) for f in cmc.facts(db, as_of=4) if f["relation"] == "held_in"] == [("Room A", 1)]
    assert cmc.facts(db, as_of=5) == cmc.facts(db) == cmc.facts(db, as_of=99)
    assert cmc.facts(db, as_of=0) == []
    every = cmc.facts(db, all_versions=True, as_of=4)
    assert [(f["serial"], f["current"]) for f in every] == [(1, True), (2, True), (3, True)]


def test_traverse_as_of_follows_the_old_edge(db):
    meeting_history(db)
    assert hops(cmc.traverse(db, ["weekly meeting"], as_of=4)) == [
        ("weekly meeting", "held_in", "room a", 1, 0), ("room a", "floor", "floor 2", 2, 1)]
    assert hops(cmc.traverse(db, ["weekly meeting"])) == [
        ("weekly meeting", "held_in", "room b", 5, 0), ("room b", "floor", "floor 5", 3, 1)]


def test_as_of_latest_equals_the_current_read(db):
    meeting_history(db)
    put(db, "Room B is on floor 6.", ("Room B", "floor", "floor 6"))
    put(db, "Floor 6 is closed.", ("floor 6", "status", "closed"))
    for q in every_question(db):
        assert evidence_of(db, q, as_of=7) == evidence_of(db, q)


def test_traverse_as_of_keeps_the_five_hop_bound(db):
    for i in range(8):
        put(db, f"E{i} leads to E{i + 1}.", (f"E{i}", "next", f"E{i + 1}"))
    assert [e.depth for e in cmc.traverse(db, ["e0"], as_of=8)] == [0, 1, 2, 3, 4]
    assert hops(cmc.traverse(db, ["e0"], as_of=8)) == hops(cmc.traverse(db, ["e0"]))
    assert [e.object for e in cmc.traverse(db, ["e0"], as_of=2)] == ["e1", "e2"]
    assert [e.depth for e in cmc.traverse(db, ["e0"], max_hops=2, as_of=8)] == [0, 1]


def test_ask_as_of_answers_from_the_old_memory(db):
    meeting_history(db)
    model = FakeModel([" floor 2"])
    result = cmc.ask(db, model, FLOOR_Q, as_of=4)
    assert result.answer == "floor 2"
    assert {1, 2} <= {e["serial"] for e in result.evidence} and max(e["serial"] for e in result.evidence) <= 4
    read = model.prompts[0].rsplit("\n\n", 1)[-1]  # the evidence and question, after the worked examples
    assert "[1] The weekly meeting is in Room A." in read
    assert "Room B." not in read


def test_as_of_history_fallback_reads_only_older_records(db):
    meeting_history(db)
    anchors, edges, records, fallback = evidence_of(db, "Where does she live?", as_of=2)
    assert fallback and {s for s, _ in records} <= {1, 2}


def test_subject_first_named_later_does_not_anchor_as_of(db):
    meeting_history(db)
    anchors, edges, _, _ = evidence_of(db, "Which floor is Room B on?", as_of=2)
    assert anchors == [] and edges == []


# ── explain ──

def test_explain_shows_anchors_paths_and_skipped_versions(db):
    meeting_history(db)
    why = cmc.explain(db, FLOOR_Q)
    assert why.anchors == ["weekly meeting"]
    assert [p["serials"] for p in why.paths] == [[5], [5, 3]]
    assert [(e["subject"], e["relation"], e["object"]) for e in why.paths[1]["edges"]] == [
        ("weekly meeting", "held_in", "room b"), ("room b", "floor", "floor 5")]
    assert why.superseded == [{"subject": "weekly meeting", "relation": "held_in", "object": "room a",
                               "serial": 1, "superseded_by": 5}]
    assert {3, 5} <= set(why.evidence) and 1 not in why.evidence


def test_explain_as_of_skips_nothing_before_the_move(db):
    meeting_history(db)
    why = cmc.explain(db, FLOOR_Q, as_of=4)
    assert why.superseded == [] and [p["serials"] for p in why.paths] == [[1], [1, 2]] and why.as_of == 4


# ── history ──

def test_history_lists_every_version_and_marks_the_current(db):
    meeting_history(db)
    (h,) = cmc.history(db, "the Weekly Meeting")
    assert (h.subject, h.relation) == ("weekly meeting", "held_in")
    assert [(v.object, v.serial, v.current) for v in h.versions] == [("Room A", 1, False), ("Room B", 5, True)]


def test_history_relation_filter_uses_aliases(db):
    put(db, "Ana lives in Lyon.", ("Ana", "lives in", "Lyon"))
    put(db, "Ana works at Initech.", ("Ana", "employer", "Initech"))
    put(db, "Ana lives in Rome.", ("Ana", "lives_in", "Rome"))
    assert [h.relation for h in cmc.history(db, "Ana")] == ["employer", "lives_in"]
    (h,) = cmc.history(db, "Ana", relation="is lives in")
    assert [v.object for v in h.versions] == ["Lyon", "Rome"]


@pytest.mark.parametrize("subject,relation,message", [
    ("Nobody", None, "No facts about 'Nobody'"),
    ("***", None, "names no subject"),
    ("Room A", "colour", "has no 'colour' facts"),
])
def test_history_errors_say_what_to_do(db, subject, relation, message):
    meeting_history(db)
    with pytest.raises(cmc.CmcError, match=message):
        cmc.history(db, subject, relation)


# ── forget ──

def current(db):
    return {(r[0], r[1]): (r[2], r[3]) for r in
            db.execute("SELECT subject_key, relation, object_key, serial FROM current_edges")}


def test_forget_falls_back_to_the_previous_version(db):
    meeting_history(db)
    done = cmc.forget(db, [5])
    assert done.serials == [5]
    assert done.restored == [{"subject": "weekly meeting", "relation": "held_in", "object": "room a", "serial": 1}]
    assert current(db)[("weekly meeting", "held_in")] == ("room a", 1)
    assert evidence_of(db, FLOOR_Q)[1] == [("weekly meeting", "held_in", "room a", 1, 0),
                                           ("room a", "floor", "floor 2", 2, 1)]
    assert db.execute("SELECT count(*) FROM assertions WHERE serial = 5").fetchone()[0] == 0


def test_forgetting_an_old_version_changes_nothing_current(db):
    meeting_history(db)
    done = cmc.forget(db, [1])
    assert done.restored == [] and done.removed == []
    assert current(db)[("weekly meeting", "held_in")] == ("room b", 5)
    assert [v.serial for v in cmc.history(db, "weekly meeting")[0].versions] == [5]


def test_forget_every_version_removes_the_key_and_the_entity(db):
    meeting_history(db)
    done = cmc.forget(db, [1, 5])
    assert done.removed == [{"subject": "weekly meeting", "relation": "held_in"}] and done.restored == []
    assert ("weekly meeting", "held_in") not in current(db)
    assert cmc.anchor(db, FLOOR_Q) == []
    assert not db.execute("SELECT 1 FROM entities WHERE key = 'weekly meeting'").fetchone()


def test_forgotten_text_leaves_the_store_and_the_index(db):
    meeting_history(db)
    put(db, "Zanzibarquux keeps the spare key.", ("Zanzibarquux", "keeps", "the spare key"))
    cmc.forget(db, [6])
    assert db.execute("SELECT count(*) FROM records_fts WHERE records_fts MATCH 'zanzibarquux'").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM records WHERE text LIKE '%Zanzibarquux%'").fetchone()[0] == 0
    assert [tuple(r) for r in db.execute("SELECT serial FROM forgotten")] == [(6,)]
    assert cmc.match_records(db, "spare key") == []


def test_forgotten_words_are_not_left_in_the_file(tmp_path):
    path = tmp_path / "m.db"
    db = cmc.open_db(path)
    meeting_history(db)
    put(db, "Qwzxplorvik keeps the spare key.", ("Qwzxplorvik", "keeps", "the spare key"))
    put(db, "Room C is on floor 1.", ("Room C", "floor", "floor 1"))
    cmc.forget(db, [6])
    db.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("m.db"))
    assert b"qwzxplorvik" not in raw.lower()
    assert b"room c" in raw.lower()  # the scan does see live text


def test_forgotten_serial_is_never_handed_out_again(db):
    meeting_history(db)
    cmc.forget(db, [5])
    assert cmc.add_records(db, [("The weekly meeting is in Room C.", "t")]) == [6]
    cmc.forget(db, [6])
    assert put(db, "The weekly meeting is in Room D.", ("The weekly meeting", "held_in", "Room D")) == 7


@pytest.mark.parametrize("serials,message", [([3, 99], "no record 99"), ([], "Nothing to forget")])
def test_forget_refuses_unknown_serials_and_forgets_nothing(db, serials, message):
    meeting_history(db)
    with pytest.raises(cmc.CmcError, match=message):
        cmc.forget(db, serials)
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 5


def test_forget_twice_says_it_is_already_forgotten(db):
    meeting_history(db)
    cmc.forget(db, [2])
    with pytest.raises(cmc.CmcError, match="already forgotten"):
        cmc.forget(db, [2])


def test_forget_drops_rules_left_without_evidence(db):
    a = put(db, "Ana is a citizen of Peru.", ("Ana", "citizen_of", "Peru"))
    b = put(db, "Bo is a citizen of Chile.", ("Bo", "citizen_of", "Chile"))
    with cmc.transaction(db):
        db.execute("INSERT INTO rules (id, pattern, relation, status, created_at) VALUES "
                   "(1, '<S> is a citizen of <O>.', 'citizen_of', 'active', 1), (2, '<S> of <O>', 'of', 'candidate', 1)")
        db.execute("INSERT INTO rule_evidence VALUES (1, ?, 1, 'ana'), (1, ?, 1, 'bo'), (2, ?, 1, 'ana')", (a, b, a))
    cmc.forget(db, [a])
    assert [tuple(r) for r in db.execute("SELECT id, status FROM rules")] == [(1, "candidate")]
    assert [tuple(r) for r in db.execute("SELECT rule_id, serial FROM rule_evidence")] == [(1, b)]


def test_forgetting_what_induced_a_rule_unlearns_it_end_to_end(db):
    cmc.add_records(db, [("Ana Silva works at Initech.", "t"), ("Bo Chen works at Globex.", "t")])
    cmc.extract_pending(db, FakeModel([facts_reply(("Ana Silva", "works_at", "Initech")),
                                       facts_reply(("Bo Chen", "works_at", "Globex"))]))
    cmc.add_records(db, [("Cy Park works at Hooli.", "t")])
    cmc.extract_pending(db, None)
    assert db.execute("SELECT extracted_by FROM records WHERE serial = 3").fetchone()[0] == "rule:1"
    cmc.forget(db, [2])
    assert db.execute("SELECT status FROM rules").fetchone()[0] == "candidate"
    cmc.add_records(db, [("Di Ray works at Acme.", "t")])
    model = FakeModel([facts_reply(("Di Ray", "works_at", "Acme"))])
    cmc.extract_pending(db, model)
    assert len(model.prompts) == 1  # the model reads it again: one record is not enough support
    assert db.execute("SELECT status FROM rules").fetchone()[0] == "active"  # Ana and Di agree again


def test_forgotten_first_name_of_an_entity_is_replaced(db):
    put(db, "Dr. Ana Ruiz lives in Lyon.", ("Dr. Ana Ruiz", "lives_in", "Lyon"))
    put(db, "dr ana ruiz works at Initech.", ("dr ana ruiz", "employer", "Initech"))
    cmc.forget(db, [1])
    assert db.execute("SELECT name FROM entities WHERE key = 'dr ana ruiz'").fetchone()[0] == "dr ana ruiz"


def test_match_records_treats_fts_operators_as_text(db):
    put(db, 'He said "NEAR" OR not * at all.')
    put(db, "Ana lives in Lyon.")
    assert [s for s, _ in cmc.match_records(db, '"NEAR" OR')] == [1]
    assert [s for s, _ in cmc.match_records(db, "ana LIVES")] == [2]
    assert cmc.match_records(db, "ana live") == []  # the words as written, not another form of them
    with pytest.raises(cmc.CmcError, match="no words"):
        cmc.match_records(db, '* - ^ ""')


# ── export / import / rebuild ──

def rich_history(db):
    """The meeting story plus an overwrite, a forgotten record, a rule and an unresolved record."""
    meeting_history(db)
    put(db, "Room B is on floor 6.", ("Room B", "floor", "floor 6"))
    put(db, "Ana's car is blue.", ("Ana", "car_colour", "blue"))
    put(db, "She moved there, I think.", status="unresolved")
    with cmc.transaction(db):
        db.execute("INSERT INTO rules (pattern, relation, status, created_at) VALUES ('<S> is on <O>.', 'floor', 'candidate', 2)")
        db.execute("INSERT INTO rule_evidence VALUES (1, 2, 1, 'room a'), (1, 3, 1, 'room b')")
        cmc.bump_meta(db, "extract_calls", 8)
    cmc.forget(db, [7])


def test_export_then_import_reads_identically(tmp_path):
    src = cmc.open_db(tmp_path / "a.db")
    rich_history(src)
    done = cmc.export(src, tmp_path / "m.jsonl")
    assert done.rows["records"] == 7 and done.rows["forgotten"] == 1 and done.rows["rules"] == 1
    assert stat.S_IMODE(os.stat(tmp_path / "m.jsonl").st_mode) == 0o600
    dst = cmc.open_db(tmp_path / "b.db")
    got = cmc.import_memory(dst, tmp_path / "m.jsonl")
    assert got.rows == done.rows and got.current_edges == len(cmc.facts(src))
    assert cmc.facts(dst) == cmc.facts(src) and cmc.facts(dst, True) == cmc.facts(src, True)
    # the full-text indexes are rebuilt from the imported rows
    assert cmc.match_records(dst, "floor") == cmc.match_records(src, "floor") != []
    for fts in ("records_fts", "entities_fts"):
        dst.execute(f"INSERT INTO {fts} ({fts}) VALUES ('integrity-check')")
    for q in every_question(src):
        for as_of in (None, 1, 3, 5, 8):
            assert evidence_of(dst, q, as_of) == evidence_of(src, q, as_of), (q, as_of)
    cmc.export(dst, tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == (tmp_path / "m.jsonl").read_bytes()
    # the tombstone came along: serial 7 is not handed out again
    assert cmc.add_records(dst, [("New record here.", "t")]) == [9]


def test_import_keeps_facts_the_other_way_round_though_the_export_leaves_them_out(tmp_path, db):
    put(db, "Mira Holt performed Blue Hour.", ("Mira Holt", "performed", "Blue Hour"))
    put(db, "Lena Park performed Blue Hour.", ("Lena Park", "performed", "Blue Hour"))
    cmc.export(db, tmp_path / "m.jsonl")
    assert '"other_way"' not in (tmp_path / "m.jsonl").read_text()  # derived, as current_edges is
    dst = cmc.open_db(tmp_path / "b.db")
    cmc.import_memory(dst, tmp_path / "m.jsonl")
    assert cmc.facts(dst, True) == cmc.facts(db, True)
    assert [(f["subject"], f["object"]) for f in cmc.facts(dst) if f.get("other_way")] == \
        [("Blue Hour", "Lena Park")], "only the current one without --all"


def test_export_lines_hold_records_assertions_rules_and_aliases(db):
    rich_history(db)
    lines = [json.loads(line) for _, line in cmc.export_lines(db)]
    assert lines[0] == {"cmc_export": cmc.EXPORT_FORMAT, "schema_version": cmc.SCHEMA_VERSION}
    tables = {row["table"] for row in lines[1:]}
    assert {"records", "forgotten", "assertions", "rules", "rule_evidence", "relations",
            "relation_aliases", "entities", "meta"} <= tables
    assert "current_edges" not in tables and not any("fts" in t for t in tables)
    record = next(r for r in lines if r.get("table") == "records" and r["serial"] == 8)
    assert record["status"] == "unresolved" and record["text"] == "She moved there, I think."


def test_import_refuses_a_database_that_holds_records(tmp_path, db):
    meeting_history(db)
    cmc.export(db, tmp_path / "m.jsonl")
    with pytest.raises(cmc.CmcError, match="empty"):
        cmc.import_memory(db, tmp_path / "m.jsonl")


@pytest.mark.parametrize("mangle,message", [
    (lambda ls: ["not json"] + ls[1:], "not a cmc export"),
    (lambda ls: [json.dumps({"cmc_export": 1, "schema_version": 99})] + ls[1:], "newer than this cmc"),
    (lambda ls: ls[:3] + ["{broken"] + ls[3:], "line 4 cannot be imported"),
    (lambda ls: ls + [json.dumps({"table": "records", "serial": 1, "bogus": 2})], "cannot be imported"),
    (lambda ls: ls + [json.dumps({"table": "assertions", "id": 99, "serial": 42, "subject": "x", "subject_key": "x",
                                  "relation": "floor", "relation_text": "floor", "object": "y", "object_key": "y"})],
     "refers to a missing"),
])
def test_a_bad_export_is_refused_and_nothing_is_imported(tmp_path, db, mangle, message):
    meeting_history(db)
    lines = [line for _, line in cmc.export_lines(db)]
    (tmp_path / "bad.jsonl").write_text("\n".join(mangle(lines)) + "\n")
    dst = cmc.open_db(tmp_path / "b.db")
    with pytest.raises(cmc.CmcError, match=message):
        cmc.import_memory(dst, tmp_path / "bad.jsonl")
    assert dst.execute(cmc.EMPTY_CHECK).fetchone()[0] == 0
    assert not dst.in_transaction


def test_rebuild_keeps_a_sound_graph_and_repairs_a_broken_one(db):
    rich_history(db)
    before = cmc.facts(db, True)
    assert cmc.rebuild(db) == cmc.Rebuilt(len(cmc.facts(db)), 0, 0, 0)
    assert cmc.facts(db, True) == before
    with cmc.transaction(db):
        db.execute("DELETE FROM current_edges WHERE relation = 'floor'")
        db.execute("UPDATE current_edges SET object_key = 'room a', serial = 1, assertion_id = 1 WHERE relation = 'held_in'")
        db.execute("DELETE FROM entities WHERE key = 'room a'")
        db.execute("INSERT INTO entities (key, span, name, words) VALUES ('ghost', 'ghost', 'Ghost', 1)")
    done = cmc.rebuild(db)
    assert done.changed_edges == 3 and done.entities_added == 1 and done.entities_removed == 1
    assert cmc.facts(db, True) == before
    assert cmc.anchor(db, "Which floor is Room A on?") == ["room a"] and cmc.anchor(db, "ghost?") == []


# ── Python API ──

def test_memory_api_round_trip(tmp_path):
    model = FakeModel([facts_reply(("Ana", "lives_in", "Lyon")), '{"status": "no_fact", "triples": []}',
                       facts_reply(("Ana", "lives_in", "Rome")), " Rome", " Lyon"])
    with cmc.Memory(tmp_path / "m.db", model=model) as m:
        added = m.add("Ana lives in Lyon.", "Thanks!", "Ana lives in Rome.")
        assert [(a.serial, a.status) for a in added] == [(1, "facts"), (2, "no_fact"), (3, "facts")]
        assert isinstance(added[0], cmc.Extraction)
        assert m.ask("Where does Ana live?").answer == "Rome"
        assert m.ask("Where does Ana live?", as_of=2).answer == "Lyon"
        assert m.facts() == [cmc.Fact("Ana", "lives_in", "Rome", 3, True)]
        assert [v.serial for v in m.history("Ana")[0].versions] == [1, 3]
        assert m.explain("Where does Ana live?").superseded[0]["serial"] == 1
        assert m.forget(3).restored[0]["object"] == "lyon"
        m.export(tmp_path / "m.jsonl")
        assert m.rebuild().changed_edges == 0
        assert m.info()["forgotten"] == 1
    with cmc.Memory(tmp_path / "copy.db", model=model) as copy:
        copy.import_file(tmp_path / "m.jsonl")
        assert copy.facts() == [cmc.Fact("Ana", "lives_in", "Lyon", 1, True)]


def test_memory_facts_lists_a_fact_kept_the_other_way_round(tmp_path):
    with cmc.Memory(tmp_path / "m.db", model=FakeModel()) as m:
        put(m.db, "Mira Holt performed Blue Hour.", ("Mira Holt", "performed", "Blue Hour"))
        assert m.facts() == [cmc.Fact("Mira Holt", "performed", "Blue Hour", 1, True),
                             cmc.Fact("Blue Hour", "performed_by", "Mira Holt", 1, True, other_way=True)]


def test_memory_add_with_a_time_stores_it_and_a_bad_time_stores_nothing(tmp_path):
    with cmc.Memory(tmp_path / "m.db", model=FakeModel(['{"status": "no_fact", "triples": []}'])) as m:
        with pytest.raises(cmc.CmcError, match="not an ISO 8601 time"):
            m.add("Tove plays the oboe.", time="soon")
        assert m.add("Tove plays the oboe.", time="2025-03-01")[0].serial == 1
        assert [tuple(r) for r in m.db.execute("SELECT time FROM records")] == [("2025-03-01T00:00:00Z",)]


def test_memory_add_with_a_missing_model_leaves_the_database_untouched(tmp_path):
    m = cmc.Memory(tmp_path / "m.db", model=str(tmp_path / "nope.gguf"))
    with pytest.raises(cmc.CmcError, match="nope.gguf"):
        m.add("Ana lives in Lyon.")
    assert m.db.execute("SELECT count(*) FROM records").fetchone()[0] == 0


# ── CLI ──

@pytest.fixture
def run(tmp_path, monkeypatch):
    model = FakeModel()
    monkeypatch.setattr(cmc, "load_model", lambda path: model)
    runner, app = CliRunner(), cmc.app

    def invoke(*args, input=None, db="m.db"):
        return runner.invoke(app, [*args, "--db", str(tmp_path / db)], input=input)

    invoke.model = model
    return invoke


def meeting(run):
    run.model.replies += [facts_reply(("The weekly meeting", "held_in", "Room A")),
                          facts_reply(("Room A", "floor", "floor 2")),
                          facts_reply(("Room B", "floor", "floor 5")),
                          '{"status": "no_fact", "triples": []}',
                          facts_reply(("The weekly meeting", "held_in", "Room B"))]
    result = run("add", "The weekly meeting is in Room A.", "Room A is on floor 2.", "Room B is on floor 5.",
                 "Please bring the [bold]quarterly[/bold] report.", "The weekly meeting is in Room B.")
    assert result.exit_code == 0, result.output


def test_cli_ask_explain_and_as_of(run):
    meeting(run)
    run.model.replies += [" floor 5", " floor 2"]
    doc = json.loads(run("ask", FLOOR_Q, "--explain", "--json").stdout)
    assert doc["answer"] == "floor 5"
    assert doc["explain"]["superseded"][0]["serial"] == 1 and {3, 5} <= set(doc["explain"]["evidence"])
    assert 1 not in doc["explain"]["evidence"]
    old = json.loads(run("ask", FLOOR_Q, "--as-of", "4", "--json").stdout)
    assert old["answer"] == "floor 2" and {1, 2} <= {e["serial"] for e in old["evidence"]} and "explain" not in old
    run.model.replies += [" floor 5"]
    human = run("ask", FLOOR_Q, "--explain")
    assert human.exit_code == 0, human.output
    assert "anchors: weekly meeting" in human.stdout and "superseded by [5]" in human.stdout
    assert "room b —floor→ floor 5 [3]" in human.stdout
    assert run("ask", FLOOR_Q, "--as-of", "-1").exit_code == 2


def test_cli_facts_as_of_and_history(run):
    meeting(run)
    old = json.loads(run("facts", "--as-of", "4", "--json").stdout)
    assert [(f["object"], f["serial"]) for f in old] == [("Room A", 1), ("floor 2", 2), ("floor 5", 3)]
    hist = json.loads(run("history", "weekly", "meeting", "--json").stdout)
    assert hist == [{"subject": "weekly meeting", "relation": "held_in", "versions": [
        {"subject": "The weekly meeting", "object": "Room A", "serial": 1, "current": False},
        {"subject": "The weekly meeting", "object": "Room B", "serial": 5, "current": True}]}]
    human = run("history", "Room A", "--relation", "floor")
    assert human.exit_code == 0 and "floor 2" in human.stdout and "(current)" in human.stdout
    missing = run("history", "Nobody")
    assert missing.exit_code == 1 and "No facts about 'Nobody'" in missing.stderr


def test_cli_forget_serials(run):
    meeting(run)
    doc = json.loads(run("forget", "5", "--json").stdout)
    assert doc == {"serials": [5], "removed": [],
                   "restored": [{"subject": "weekly meeting", "relation": "held_in", "object": "room a", "serial": 1}]}
    again = run("forget", "5")
    assert again.exit_code == 1 and "already forgotten" in again.stderr
    human = run("forget", "1")
    assert "tombstone" in human.stdout and "has no version left" in human.stdout
    assert json.loads(run("info", "--json").stdout)["forgotten"] == 2


def test_cli_forget_match_previews_and_asks(run):
    meeting(run)
    declined = run("forget", "--match", "weekly meeting", input="n\n")
    assert declined.exit_code == 1 and "Nothing was forgotten" in declined.stderr
    assert "[1] The weekly meeting is in Room A." in declined.stderr and "[5]" in declined.stderr
    assert len(json.loads(run("facts", "--all", "--json").stdout)) == 4
    accepted = run("forget", "--match", "weekly meeting", "--json", input="y\n")
    assert accepted.exit_code == 0, accepted.output
    # (CliRunner echoes the typed "y" to stdout; a terminal or a pipe does not)
    assert json.loads(accepted.stdout.splitlines()[-1])["removed"] == [{"subject": "weekly meeting", "relation": "held_in"}]
    assert run("forget", "--match", "no such words").exit_code == 1
    yes = run("forget", "--match", "[bold]quarterly", "--yes", "--json")
    assert json.loads(yes.stdout)["serials"] == [4]


def test_cli_export_import_rebuild(run, tmp_path):
    meeting(run)
    run("forget", "2")
    facts_before = run("facts", "--all", "--json").stdout
    dumped = run("export")
    assert dumped.exit_code == 0 and json.loads(dumped.stdout.splitlines()[0])["cmc_export"] == 1
    summary = json.loads(run("export", str(tmp_path / "m.jsonl"), "--json").stdout)
    assert summary["rows"]["records"] == 4 and summary["rows"]["forgotten"] == 1
    assert (tmp_path / "m.jsonl").read_text() == dumped.stdout
    loaded = run("import", str(tmp_path / "m.jsonl"), "--json", db="copy.db")
    assert loaded.exit_code == 0, loaded.output
    assert json.loads(loaded.stdout)["current_edges"] == 2
    assert run("facts", "--all", "--json", db="copy.db").stdout == facts_before
    refused = run("import", str(tmp_path / "m.jsonl"), db="copy.db")
    assert refused.exit_code == 1 and "empty" in refused.stderr
    assert json.loads(run("rebuild", "--json").stdout)["changed_edges"] == 0
    assert run("facts", "--all", "--json").stdout == facts_before
    assert "current edges" in run("rebuild").stdout
