import json

import pytest
from conftest import FakeModel, facts_reply
from typer.testing import CliRunner

import cmc

MEETING = [facts_reply(("The weekly meeting", "held_in", "Room A")),
           facts_reply(("Room A", "floor", "floor 2")),
           facts_reply(("Room B", "floor", "floor 5")),
           '{"status": "no_fact", "triples": []}',
           facts_reply(("The weekly meeting", "held_in", "Room B"))]


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Invoke the CLI against a temporary database with a fake model."""
    model = FakeModel()
    monkeypatch.setattr(cmc, "load_model", lambda path: model)
    runner = CliRunner()
    app = cmc.app

    def invoke(*args, input=None):
        return runner.invoke(app, [*args, "--db", str(tmp_path / "m.db")], input=input)

    invoke.model = model
    return invoke


def test_add_file_then_ask_json_prints_one_document(run, tmp_path):
    run.model.replies += MEETING + [" floor 5"]
    path = tmp_path / "meeting.txt"
    path.write_text((cmc.HERE / "examples" / "meeting.txt").read_text())
    added = run("add", "--file", str(path), "--json")
    assert added.exit_code == 0, added.output
    assert [r["serial"] for r in json.loads(added.stdout)] == [1, 2, 3, 4, 5]
    result = run("ask", "On which floor is the weekly meeting?", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["answer"] == "floor 5"
    assert {3, 5} <= {e["serial"] for e in doc["evidence"]} and 1 not in {e["serial"] for e in doc["evidence"]}
    assert set(doc["evidence"][0]) >= {"serial", "time", "text", "why"}  # as the README documents them
    assert doc["anchors"] == ["weekly meeting"]
    assert doc["edges"][0] == {"subject": "weekly meeting", "relation": "held_in", "object": "room b",
                               "serial": 5, "depth": 0}


def test_add_human_output_shows_serial_status_triples(run):
    run.model.replies += [facts_reply(("Ana", "lives_in", "Lyon")), '{"status": "no_fact", "triples": []}']
    result = run("add", "Ana lives in Lyon.", "Thanks!")
    assert result.exit_code == 0, result.output
    assert "[1] facts" in result.stdout and "Ana" in result.stdout and "Lyon" in result.stdout
    assert "[2] no_fact" in result.stdout


def test_add_from_stdin_one_record_per_line(run):
    run.model.replies += [facts_reply(("Ana", "lives_in", "Lyon")), facts_reply(("Bo", "lives_in", "Rome"))]
    result = run("add", "-", "--json", input="Ana lives in Lyon.\n\nBo lives in Rome.\n")
    assert [r["status"] for r in json.loads(result.stdout)] == ["facts", "facts"]


def test_rerunning_add_file_skips_stored_lines(run, tmp_path):
    run.model.replies += [facts_reply(("Ana", "lives_in", "Lyon"))]
    path = tmp_path / "h.txt"
    path.write_text("Ana lives in Lyon.\n")
    run("add", "--file", str(path))
    path.write_text("Ana lives in Lyon.\nBo lives in Rome.\n")
    run.model.replies += [facts_reply(("Bo", "lives_in", "Rome"))]
    result = run("add", "--file", str(path), "--json")
    assert [r["serial"] for r in json.loads(result.stdout)] == [2]


def test_facts_and_info_json(run):
    run.model.replies += [facts_reply(("Ana", "lives_in", "Lyon")), facts_reply(("Ana", "lives_in", "Rome"))]
    run("add", "Ana lives in Lyon.", "Ana lives in Rome.")
    current = json.loads(run("facts", "--json").stdout)
    assert current == [{"subject": "Ana", "relation": "lives_in", "object": "Rome", "serial": 2, "current": True}]
    every = json.loads(run("facts", "--all", "--json").stdout)
    assert [(f["object"], f["current"]) for f in every] == [("Lyon", False), ("Rome", True)]
    info = json.loads(run("info", "--json").stdout)
    assert info["records"] == 2 and info["assertions"] == 2 and info["current_edges"] == 1
    assert info["schema_version"] == cmc.SCHEMA_VERSION and info["extract_calls"] == 1  # one batch
    assert json.loads(run("info", "--json", "--answer-model", "gemma").stdout)["answer_model"] == "gemma"
    assert json.loads(run("info", "--json", "--model", "x.gguf").stdout)["answer_model"] == "x.gguf"


def test_facts_mark_those_kept_the_other_way_round(run):
    run.model.replies += [facts_reply(("Mira Holt", "performed", "Blue Hour"))]
    run("add", "Mira Holt performed Blue Hour.")
    shown = run("facts").stdout
    assert "performed_by *" in shown and "kept the other way round" in shown
    assert json.loads(run("facts", "--json").stdout)[1] == {
        "subject": "Blue Hour", "relation": "performed_by", "object": "Mira Holt", "serial": 1, "current": True,
        "other_way": True}
    assert json.loads(run("info", "--json").stdout)["other_way"] == 1


@pytest.mark.parametrize("args,message", [
    (["add", "   "], "empty"),
    (["add"], "Nothing to add"),
    (["ask", " "], "question is empty"),
])
def test_bad_input_is_one_red_line_and_exit_1(run, args, message):
    result = run(*args)
    assert result.exit_code == 1
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_missing_model_names_the_path_and_leaves_the_db_untouched(tmp_path):
    db = tmp_path / "m.db"
    result = CliRunner().invoke(cmc.app, ["add", "Ana lives in Lyon.", "--db", str(db),
                                             "--model", str(tmp_path / "nope.gguf")])
    assert result.exit_code == 1
    assert "nope.gguf" in result.stderr and "--model" in result.stderr
    assert not db.exists()


def test_invalid_utf8_file_is_refused_with_the_line(run, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"fine line\n\xff\xfe broken\n")
    result = run("add", "--file", str(path))
    assert result.exit_code == 1 and "line 2" in result.stderr and "UTF-8" in result.stderr


def test_question_without_anchor_answers_from_history(run):
    run.model.replies += [facts_reply(("Ana", "lives_in", "Lyon")), "Lyon"]
    run("add", "Ana lives in Lyon.")
    doc = json.loads(run("ask", "Where does she live?", "--json").stdout)
    assert doc["answer"] == "Lyon" and doc["anchors"] == [] and [e["serial"] for e in doc["evidence"]] == [1]


def test_bulk_add_prints_a_summary_and_relations_lists_the_catalogue(run, tmp_path):
    run.model.replies += [facts_reply(("Ana", "lives in", "Lyon")), '{"status": "unresolved", "triples": []}']
    path = tmp_path / "h.txt"
    path.write_text("Ana lives in Lyon.\nShe moved there.\n")
    result = run("add", "--file", str(path))
    assert result.exit_code == 0, result.output
    assert "stored 2 record(s)" in result.stdout and "1 facts, 1 unresolved" in result.stdout
    assert "1 model call(s)" in result.stdout and "[2] unresolved" in result.stdout
    rel = json.loads(run("relations", "--json").stdout)
    assert rel[0]["relation"] == "lives_in" and rel[0]["assertions"] == 1
    info = json.loads(run("info", "--json").stdout)
    assert info["extract_calls"] == 1 and "extract_prompt_tokens" in info and "rules_active" in info


def test_ask_says_when_more_matched_than_the_budget_holds(run):
    notes = [f"Note {i}: the garden needed water after a mild and sunny week." for i in range(20)]
    run.model.replies += ['{"status": "no_fact", "triples": []}'] * 21 + ["Mira Holt", "Mira Holt"]
    added = run("add", "Blue Hour was performed by Mira Holt.", *notes)
    assert added.exit_code == 0, added.output
    shown = run("ask", "Who performed Blue Hour in the garden?", "--budget", "400")
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.stdout.split())  # rich wraps long lines
    assert "(more matched than the budget holds)" in said and "Mira Holt" in said
    doc = json.loads(run("ask", "Who performed Blue Hour in the garden?", "--budget", "400", "--json").stdout)
    assert doc["truncated"] and 0 < len(doc["evidence"]) < 21


def test_explain_draws_a_fact_read_backwards_with_its_arrow_reversed(run):
    run.model.replies += [facts_reply(("The Lantern Years", "aired_on", "KBN")),
                          facts_reply(("Oskar Veldt", "directs", "KBN"))]
    assert run("add", "The Lantern Years first aired on KBN.", "Oskar Veldt directs KBN.").exit_code == 0
    run.model.default = lambda prompt: " Oskar Veldt"
    human = run("ask", "Who directs the network that first aired The Lantern Years?", "--explain").stdout
    assert "lantern years —aired_on→ kbn [1] ⇒ kbn ←directs— oskar veldt [2]" in human
