"""End to end with the embedded gemma-3-270m GGUF: no fakes. Marked `real`; `make test` runs them."""
import json
import os
import stat

import pytest
from typer.testing import CliRunner

import cmc

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def model():
    return cmc.load_model(None)


def test_paper_example_end_to_end(tmp_path, model):
    db = cmc.open_db(tmp_path / "m.db")
    cmc.add_records(db, [(line, "test") for line in (cmc.HERE / "examples" / "meeting.txt").read_text().splitlines()])
    results = cmc.extract_pending(db, model)
    assert all(r.status != "pending" for r in results)
    question = "On which floor is the weekly meeting?"
    result = cmc.ask(db, model, question)
    assert "5" in result.answer and "2" not in result.answer
    texts = [e["text"] for e in result.evidence]
    assert "The weekly meeting is in Room B." in texts and "Room B is on floor 5." in texts
    assert "Room A is on floor 2." not in texts


def test_cli_add_and_ask_with_the_embedded_model(tmp_path):
    runner, app, db = CliRunner(), cmc._cli(), str(tmp_path / "cli.db")
    added = runner.invoke(app, ["add", "Ana Silva works at Initech.", "Initech is based in Porto.", "--db", db, "--json"])
    assert added.exit_code == 0, added.output
    assert [r["serial"] for r in json.loads(added.stdout)] == [1, 2]
    asked = runner.invoke(app, ["ask", "Where is Initech based?", "--db", db, "--json"])
    assert asked.exit_code == 0, asked.output
    doc = json.loads(asked.stdout)
    assert "Porto" in doc["answer"]
    assert 2 in [e["serial"] for e in doc["evidence"]]


def test_everyday_updates_end_to_end(tmp_path, model):
    db = cmc.open_db(tmp_path / "e.db")
    cmc.add_records(db, [(t, "test") for t in (
        "Ana works at Initech.", "Initech is based in Porto.", "My sister Lena lives in Graz.",
        "Ana moved to Globex.", "Globex is based in Lisbon.",
        "The dentist appointment is on Friday.", "The dentist appointment moved to Monday.")])
    cmc.extract_pending(db, model)
    assert cmc.ask(db, model, "Where is Ana's employer based?").answer == "Lisbon"
    assert cmc.ask(db, model, "When is the dentist appointment?").answer == "Monday"
    assert "Graz" in cmc.ask(db, model, "Where does Lena live?").answer


def test_updates_told_one_record_per_add_end_to_end(tmp_path, model):
    # as an agent that calls `cmc.py add` once per thing the user says: the small model reads a
    # change alone, naming it after its verb or taking the replaced value for the record's
    db = cmc.open_db(tmp_path / "one.db")
    for text in ("Raj lives in Pune.", "Raj moved to Chennai.",
                 "Oliver's phone is an iPhone.", "Oliver replaced his iPhone with a Pixel."):
        cmc.add_records(db, [(text, "test")])
        cmc.extract_pending(db, model)
    assert "Chennai" in cmc.ask(db, model, "Which city does Raj live in?").answer
    assert "Pixel" in cmc.ask(db, model, "What phone does Oliver have?").answer


def test_updates_told_in_one_add_with_a_time_phrase_or_a_hand_over_end_to_end(tmp_path, model):
    # one batch: "From next week …" is read without its time phrase (the model had read "next"
    # as the subject), and a team handed over has a new coach
    db = cmc.open_db(tmp_path / "batch.db")
    cmc.add_records(db, [(t, "test") for t in (
        "The running club starts at 7am.", "From next week the running club starts at 6:30am.",
        "Greta coaches the under-12 team.", "Greta handed the under-12 team over to Paul.")])
    cmc.extract_pending(db, model)
    assert "6:30" in cmc.ask(db, model, "When does the running club start?").answer
    assert "Paul" in cmc.ask(db, model, "Who coaches the under-12 team?").answer


def test_an_upgrade_an_amount_going_up_and_a_role_changing_hands_end_to_end(tmp_path, model):
    # one batch: "upgraded" and "went up to" say a change; a role passes to its new holder
    db = cmc.open_db(tmp_path / "changes.db")
    cmc.add_records(db, [(t, "test") for t in (
        "Aiko's phone is an iPhone 12.", "Aiko upgraded to an iPhone 15.",
        "The rent is 950 euros a month.", "The rent went up to 1,020 euros a month.",
        "Pedro is the club treasurer.", "Pedro stepped down and Lucia became club treasurer.")])
    cmc.extract_pending(db, model)
    assert "iPhone 15" in cmc.ask(db, model, "What phone does Aiko have?").answer
    assert "1,020" in cmc.ask(db, model, "How much is the rent?").answer
    assert "Lucia" in cmc.ask(db, model, "Who is the club treasurer?").answer


def test_a_denial_told_to_the_real_model_is_not_stored_as_the_fact_it_denies(tmp_path, model):
    db = cmc.open_db(tmp_path / "deny.db")
    cmc.add_records(db, [("Tom works at Acme.", "test"), ("Tom no longer works at Acme.", "test"),
                         ("Cy might move to Oslo.", "test")])
    cmc.extract_pending(db, model)
    rows = {r["serial"]: r for r in db.execute("SELECT serial, status, reason FROM records")}
    assert rows[2]["status"] == "unresolved" and rows[3]["status"] == "unresolved", dict(rows[2])
    assert [tuple(r) for r in db.execute("SELECT serial, object FROM assertions")] == [(1, "Acme")]
    result = cmc.ask(db, model, "Where does Tom work?")
    assert [e["serial"] for e in result.evidence] == [1, 2]  # the denial is shown, Cy's record is not


def test_a_prompt_longer_than_the_context_reloads_the_model_larger(model):
    small = cmc.LlamaModel(model.path, n_ctx=256)
    prompt = "Notes:\n" + "\n".join(f"- Item {i} is stored in box {i * 7}." for i in range(60)) + "\nItem 3 is stored in box"
    assert len(small._tokens(prompt, "")) > 256
    got = small.complete(prompt, max_tokens=4)
    assert small.n_ctx == 4096, "grown to the next step of 4,096 tokens, not cut to its end"
    assert got.text == model.complete(prompt, max_tokens=4).text
    assert model.n_ctx == cmc.LlamaModel.CONTEXT


def test_a_later_process_loads_the_prompts_first_batch_from_disk_with_the_same_logits(model, tmp_path, monkeypatch):
    import numpy
    first, later = (cmc.extraction_prompt([text], []) for text in ("Mara lives in Leeds.", "Tom works at Acme."))
    writer = cmc.LlamaModel(model.path)
    umask = os.umask(0o022)  # the usual umask: the state computed from prompt text is private regardless
    try:
        writer._feed(writer._tokens(first, ""))
    finally:
        os.umask(umask)
    (kept,) = (tmp_path / "cache" / "cmc" / "prefix").glob("*.kv")
    assert [stat.S_IMODE(p.stat().st_mode) for p in (kept.parent.parent, kept.parent, kept)] == [0o700, 0o700, 0o600]
    reader = cmc.LlamaModel(model.path)  # a new process, in effect: its own llama.cpp context
    tokens = reader._tokens(later, "")
    restored = reader._feed(tokens).copy()
    assert reader.evaluated == len(tokens) - reader.llm.n_batch, "the shared first batch is loaded, not computed"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    fresh = cmc.LlamaModel(model.path)
    assert numpy.array_equal(restored, fresh._feed(tokens)), "to the bit what a fresh process computes"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    kept.write_bytes(b"not a llama.cpp state file")
    broken = cmc.LlamaModel(model.path)
    assert numpy.array_equal(broken._feed(tokens), restored) and broken.evaluated == len(tokens)
